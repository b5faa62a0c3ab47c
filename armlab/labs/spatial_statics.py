"""The spatial statics chapter's lab: the SO-101 in 3-D, a tip wrench, the torques that hold it."""

import numpy as np

import armlab.spatial as sp
from armlab.labs._spatial import SpatialLab, preset, stretched_pose

__all__ = ["SpatialStaticsLab", "spatial_statics_lab", "SPATIAL_STATICS_PRESETS"]

#: The chapter's work pose q_A [rad] and its wrench W (press down 10 N, twist 0.2 N m).
WORK_POSE = (0.4, -0.3, 0.5, 0.6, 0.2)
PRESS_AND_TWIST = (0, 0, 0.2, 0, 0, -10.0)

#: The spatial statics chapter's worked cases: joint angles [deg], payload [kg], the tip's
#: wrench (moment [N m], force [N]), gravity, the ellipsoid drawn.
SPATIAL_STATICS_PRESETS = {
    "work pose: press and twist": preset(WORK_POSE, wrench=PRESS_AND_TWIST, gravity=False),
    "level reach, its own weight": preset(np.zeros(5)),
    "work pose, its own weight": preset(WORK_POSE),
    "work pose, ellipsoids": preset(WORK_POSE, gravity=False, ellipsoid="velocity"),
    "stretched": preset(stretched_pose(sp.so101()), gravity=False, ellipsoid="velocity"),
}


class SpatialStaticsLab(SpatialLab):
    """The spatial statics chapter's lab: the 3-D view, the torque bars and the table that
    :func:`spatial_statics_lab` describes, on the chapter's presets."""

    presets = SPATIAL_STATICS_PRESETS
    default_preset = "work pose: press and twist"


def spatial_statics_lab(preset=SpatialStaticsLab.default_preset, render=True):
    """The spatial statics lab: turn the SO-101 in 3-D, load its tip, read the torques.

    Parameters
    ----------
    preset : str
        Starting case, a key of :data:`SPATIAL_STATICS_PRESETS`.
    render : bool
        Render the torque bars to the image widget on every update (turn off to drive
        the lab from code without paying for PNG encoding).

    Returns
    -------
    SpatialStaticsLab
        Displays itself as the lab's widgets; ``lab.widgets``, ``lab.scene`` and
        ``lab.values`` expose its state.

    Examples
    --------
    The work pose's press and twist (the chapter's Example 4):

    >>> lab = spatial_statics_lab(render=False)
    >>> lab.values["tau"].round(4)
    array([-0.2   ,  2.3208,  2.386 ,  1.0536,  0.1337])
    >>> lab.widgets["gravity"].value = True
    >>> lab.values["capacity"].__round__(3)
    4.095
    """
    return SpatialStaticsLab(preset=preset, render=render)
