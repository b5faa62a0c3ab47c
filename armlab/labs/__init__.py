"""The book's interactive labs, one module per chapter: ``<chapter>_lab()`` in each.

Every lab subclasses :class:`armlab.labs._base.Lab`: widgets in, one figure
whose artists move in place, a table of the chapter's quantities, presets named
after the chapter's worked examples. ``import armlab`` does not import this
package (it needs matplotlib and ipywidgets). A new chapter adds its module
here and one import line below.
"""

from armlab.labs._base import CUSTOM, Lab, axis_top
from armlab.labs.forward_dynamics import (FORWARD_DYNAMICS_PRESETS, ForwardDynamicsLab,
                                          forward_dynamics_lab)
from armlab.labs.gravity import GRAVITY_PRESETS, GravityLab, gravity_lab
from armlab.labs.inverse_dynamics import (INVERSE_DYNAMICS_PRESETS, InverseDynamicsLab,
                                          inverse_dynamics_lab)
from armlab.labs.kinematics import KINEMATICS_PRESETS, KinematicsLab, kinematics_lab
from armlab.labs.limits import LIMITS_PRESETS, LimitsLab, limits_lab
from armlab.labs.statics import STATICS_PRESETS, StaticsLab, statics_lab
from armlab.labs.control import CONTROL_PRESETS, ControlLab, control_lab

__all__ = ["Lab", "CUSTOM", "axis_top", "StaticsLab", "statics_lab", "STATICS_PRESETS",
           "GravityLab", "gravity_lab", "GRAVITY_PRESETS",
           "InverseDynamicsLab", "inverse_dynamics_lab", "INVERSE_DYNAMICS_PRESETS",
           "KinematicsLab", "kinematics_lab", "KINEMATICS_PRESETS",
           "LimitsLab", "limits_lab", "LIMITS_PRESETS",
           "ControlLab", "control_lab", "CONTROL_PRESETS",
           "ForwardDynamicsLab", "forward_dynamics_lab", "FORWARD_DYNAMICS_PRESETS"]
