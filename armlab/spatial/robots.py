"""The book's real arms, loaded from their published URDF files.

The files are byte-for-byte copies from the ``example-robot-data`` package
(see ``armlab/spatial/urdf/README.md`` for their provenance and licence).
Each arm's joint ``effort`` limits are the URDF's rated torques [N m].
"""

from pathlib import Path

from armlab.spatial.chain import load_urdf
from armlab.urdf import to_urdf

__all__ = ["URDF_DIR", "so101", "panda", "planar_chain"]

#: Where the copied URDF files are.
URDF_DIR = Path(__file__).parent / "urdf"


def so101(gravity=9.81):
    """The SO-101 teaching arm: five revolute joints, base link to gripper frame.

    From ``so101.urdf`` (TheRobotStudio's SO-ARM100 project). The gripper's jaw is
    held closed (its joint at zero) and merged into the last body; the tip is the
    ``gripper_frame_link`` between the jaws.

    Parameters
    ----------
    gravity : float or (3,) array_like, optional
        As in :func:`armlab.spatial.load_urdf` [m/s^2]; z is up.

    Returns
    -------
    Chain

    Examples
    --------
    >>> arm = so101()
    >>> arm.joints
    ('shoulder_pan', 'shoulder_lift', 'elbow_flex', 'wrist_flex', 'wrist_roll')
    >>> arm.effort, round(float(arm.masses.sum()), 6)
    (array([10., 10., 10., 10., 10.]), 0.485006)
    """
    return load_urdf(URDF_DIR / "so101.urdf", base="base_link", tip="gripper_frame_link",
                     gravity=gravity)


def panda(gravity=9.81):
    """The Franka Emika Panda: seven revolute joints, base to the hand's tool point.

    From ``panda.urdf`` (Franka Emika's ``franka_description``). The hand and its
    two fingers (their slides at zero) are merged into the last body; the tip is
    ``panda_hand_tcp``, 0.1034 m beyond the hand's mount.

    Parameters
    ----------
    gravity : float or (3,) array_like, optional
        As in :func:`armlab.spatial.load_urdf` [m/s^2]; z is up.

    Returns
    -------
    Chain

    Examples
    --------
    >>> arm = panda()
    >>> arm.n, arm.effort
    (7, array([87., 87., 87., 87., 12., 12., 12.]))
    """
    return load_urdf(URDF_DIR / "panda.urdf", base="panda_link0", tip="panda_hand_tcp",
                     gravity=gravity)


def planar_chain(arm):
    """A planar arm of the first chapters as a spatial chain, through :func:`armlab.to_urdf`.

    The joints turn about z; a tip link is welded at the end of the last link,
    and gravity is the arm's ``(gx, gy, 0)``. The planar functions' numbers are
    this chain's (the planar force ``F`` is the wrench ``(0, 0, 0, Fx, Fy, 0)``).

    Parameters
    ----------
    arm : PlanarArm

    Returns
    -------
    Chain

    Examples
    --------
    The statics arm pushing a wall with 10 N at q = (30 deg, 60 deg), the
    statics chapter's (-6.5, -4.0) N m:

    >>> import numpy as np
    >>> from armlab import statics_arm
    >>> from armlab.spatial.statics import static_torques
    >>> chain = planar_chain(statics_arm())
    >>> static_torques(chain, np.radians([30, 60]), [0, 0, 0, 10, 0, 0]).round(4)
    array([-6.5, -4. ])
    """
    text = to_urdf(arm).replace(
        "</robot>", f'<link name="tip"/><joint name="flange" type="fixed">'
        f'<parent link="link{arm.n - 1}"/><child link="tip"/>'
        f'<origin xyz="{arm.lengths[-1]!r} 0 0"/></joint></robot>')
    return load_urdf(text, tip="tip", gravity=[*arm.gravity, 0.0])
