"""The book's real arms, loaded from their published URDF files.

The files are byte-for-byte copies from the ``example-robot-data`` package
(see ``armlab/spatial/urdf/README.md`` for their provenance and licence).
Each arm's joint ``effort`` limits are the URDF's rated torques [N m].
"""

from pathlib import Path

from armlab.spatial.chain import load_urdf

__all__ = ["URDF_DIR", "so101", "panda"]

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
