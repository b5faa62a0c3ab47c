"""The spatial dynamics chapter's lab: the SO-101 in 3-D holding itself and a payload."""

import numpy as np

from armlab.labs._spatial import SpatialLab, preset

__all__ = ["SpatialDynamicsLab", "spatial_dynamics_lab", "SPATIAL_DYNAMICS_PRESETS"]

#: The chapter's worked pose q_w [rad].
WORKED_POSE = np.radians([20.0, -40.0, 60.0, 30.0, 0.0])

#: The spatial dynamics chapter's worked cases: joint angles [deg], payload [kg], the
#: tip's wrench (moment [N m], force [N]), gravity, the ellipsoid drawn.
SPATIAL_DYNAMICS_PRESETS = {
    "worked pose, holding itself": preset(WORKED_POSE),
    "worked pose, 1 kg payload": preset(WORKED_POSE, payload=1.0),
    "level reach, holding itself": preset(np.zeros(5)),
    "level reach, 2.5 kg payload": preset(np.zeros(5), payload=2.5),
}


class SpatialDynamicsLab(SpatialLab):
    """The spatial dynamics chapter's lab: the spatial statics lab
    (:class:`armlab.labs.spatial_statics.SpatialStaticsLab`) on this chapter's presets."""

    presets = SPATIAL_DYNAMICS_PRESETS
    default_preset = "worked pose, holding itself"


def spatial_dynamics_lab(preset=SpatialDynamicsLab.default_preset, render=True):
    """The spatial dynamics lab: the SO-101's gravity torques and payload, in 3-D.

    Parameters
    ----------
    preset : str
        Starting case, a key of :data:`SPATIAL_DYNAMICS_PRESETS`.
    render : bool
        Render the torque bars to the image widget on every update.

    Returns
    -------
    SpatialDynamicsLab
        Displays itself as the lab's widgets.

    Examples
    --------
    The worked pose holding itself (the chapter's Example 2), and the largest payload
    there (Example 6):

    >>> lab = spatial_dynamics_lab(render=False)
    >>> lab.values["tau_gravity"].round(4)
    array([-0.    , -0.204 , -0.3967, -0.0771, -0.    ])
    >>> round(lab.values["capacity"], 3), lab.arm.joints[lab.values["capacity_joint"]]
    (4.354, 'elbow_flex')
    """
    return SpatialDynamicsLab(preset=preset, render=render)
