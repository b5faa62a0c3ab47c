"""Forward kinematics and Jacobians of a serial chain (product of transforms).

Joint ``i``'s frame moves in joint ``i-1``'s frame as
``T_{i-1,i}(q_i) = origin_i @ exp([S_i] q_i)``: a turn about its axis (revolute)
or a slide along it (prismatic) after the fixed offset from the URDF. The
world (base) pose of joint ``i`` is the product ``T_0i = T_01 T_12 ... T_{i-1,i}``,
and the tip's is ``T_0n @ tip``.

Three Jacobians map joint speeds ``qd`` [rad/s or m/s] to a twist ``(w, v)``
of the tip body, the same motion written three ways (Modern Robotics, chapter 5):

- :func:`space_jacobian` ``J_s``: world axes, ``v`` the velocity of the body
  point at the world origin (the space twist ``V_s``).
- :func:`body_jacobian` ``J_b``: tip-frame axes, ``v`` the velocity of the tip
  point (the body twist ``V_b``), ``J_b = Ad(T_0t^-1) J_s``.
- :func:`tip_jacobian` ``J_t``: world axes, ``v`` the velocity of the tip point;
  its lower three rows are the familiar linear-velocity Jacobian of the planar
  chapters.
"""

import numpy as np

from armlab._checks import joint_vector
from armlab.spatial.se3 import _adjoint, _inverse
from armlab.spatial.so3 import _rotation, _skew

__all__ = ["joint_poses", "forward_kinematics", "space_jacobian", "body_jacobian",
           "tip_jacobian"]


def _joint_motions(chain, q):
    """``T_{i-1,i}(q_i)`` for each joint, a list of ``(..., 4, 4)`` arrays."""
    out = []
    for i in range(chain.n):
        motion = np.broadcast_to(np.eye(4), q.shape[:-1] + (4, 4)).copy()
        if chain.kinds[i] == "revolute":
            motion[..., :3, :3] = _rotation(chain.axes[i], q[..., i])
        else:
            motion[..., :3, 3] = chain.axes[i] * q[..., i, None]
        out.append(chain.origins[i] @ motion)
    return out


def _world_poses(chain, q):
    """``T_0i`` for each joint (a list of ``(..., 4, 4)``), of validated ``q``."""
    poses, T = [], np.eye(4)
    for step in _joint_motions(chain, q):
        T = T @ step
        poses.append(T)
    return poses


def joint_poses(chain, q):
    """World poses of every joint's frame.

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad for revolute, m for prismatic joints].

    Returns
    -------
    T : (..., n, 4, 4) ndarray
        ``T[..., i, :, :]`` is joint ``i``'s frame (its body frame) in the base frame.

    Examples
    --------
    A gantry: its second carriage sits where the two slides put it.

    >>> from armlab.spatial.chain import load_urdf
    >>> gantry = load_urdf('''<robot name="g"><link name="frame"/><link name="a"/><link name="b"/>
    ...   <joint name="x" type="prismatic"><parent link="frame"/><child link="a"/>
    ...     <axis xyz="1 0 0"/></joint>
    ...   <joint name="z" type="prismatic"><parent link="a"/><child link="b"/>
    ...     <axis xyz="0 0 1"/></joint></robot>''')
    >>> joint_poses(gantry, [0.5, 0.2])[1, :3, 3]
    array([0.5, 0. , 0.2])
    """
    q = joint_vector(chain, "q", q)
    return np.stack(_world_poses(chain, q), axis=-3)


def forward_kinematics(chain, q):
    """The tip's pose ``T_0t`` (the flange frame in the base frame).

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].

    Returns
    -------
    T : (..., 4, 4) ndarray
        Rotation and position [m] of the tip frame.

    Examples
    --------
    The SO-101 arm at zero, its gripper frame's position [m]:

    >>> from armlab.spatial.robots import so101
    >>> forward_kinematics(so101(), np.zeros(5))[:3, 3].round(4)
    array([ 0.3914, -0.    ,  0.2265])
    """
    q = joint_vector(chain, "q", q)
    return _world_poses(chain, q)[-1] @ chain.tip


def space_jacobian(chain, q):
    """The space Jacobian ``J_s``: joint speeds to the tip's twist in world axes.

    Column ``i`` is ``Ad(T_0i) S_i``: joint ``i``'s screw axis in the world frame.
    The twist ``J_s qd = (w, v)`` has ``v``, the velocity of the body point at
    the world origin, not of the tip.

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].

    Returns
    -------
    J_s : (..., 6, n) ndarray
        Rows ``w`` [rad/s] then ``v`` [m/s] per unit joint speed.

    Examples
    --------
    The SO-101's first joint turns about the downward vertical:

    >>> from armlab.spatial.robots import so101
    >>> space_jacobian(so101(), np.zeros(5))[:3, 0].round(4)
    array([-0.,  0., -1.])
    """
    q = joint_vector(chain, "q", q)
    columns = [_adjoint(T) @ chain.screws[i] for i, T in enumerate(_world_poses(chain, q))]
    return np.stack(columns, axis=-1)


def body_jacobian(chain, q):
    """The body Jacobian ``J_b = Ad(T_0t^-1) J_s``: the tip's twist in the tip frame.

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].

    Returns
    -------
    J_b : (..., 6, n) ndarray
        Rows ``w`` [rad/s] then ``v`` [m/s] (the tip point's velocity), in tip-frame axes.

    Examples
    --------
    The tip's angular speed is the same however it is written:

    >>> from armlab.spatial.robots import so101
    >>> q = [0.1, 0.2, 0.3, 0.4, 0.5]
    >>> Jb, Js = body_jacobian(so101(), q), space_jacobian(so101(), q)
    >>> np.allclose(np.linalg.norm(Jb[:3], axis=0), np.linalg.norm(Js[:3], axis=0))
    True
    """
    q = joint_vector(chain, "q", q)
    tip = _world_poses(chain, q)[-1] @ chain.tip
    return _adjoint(_inverse(tip)) @ space_jacobian(chain, q)


def tip_jacobian(chain, q):
    """The tip Jacobian ``J_t``: the tip's angular velocity and the tip point's velocity,
    both in world axes.

    ``J_t = [[1, 0], [-[p], 1]] J_s`` with ``p`` the tip's position: the same
    twist as :func:`space_jacobian`'s, with its reference point moved from the
    world origin to the tip.

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].

    Returns
    -------
    J_t : (..., 6, n) ndarray
        Rows ``w`` [rad/s] then ``v`` [m/s].

    Examples
    --------
    The SO-101's first joint (axis pointing down, at x = 0.0388 m) at zero swings
    the tip, 0.35 m further out along x, sideways: ``w x r = -z x r``.

    >>> from armlab.spatial.robots import so101
    >>> tip_jacobian(so101(), np.zeros(5))[3:, 0].round(4)
    array([-0.    , -0.3525, -0.    ])
    """
    q = joint_vector(chain, "q", q)
    p = (_world_poses(chain, q)[-1] @ chain.tip)[..., :3, 3]
    shift = np.broadcast_to(np.eye(6), p.shape[:-1] + (6, 6)).copy()
    shift[..., 3:, :3] = -_skew(p)
    return shift @ space_jacobian(chain, q)
