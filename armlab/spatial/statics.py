"""Statics of a serial chain: joint torques for a tip wrench, and the tip's ellipsoids.

**Sign convention** (the planar chapters', in three dimensions): a wrench
``W = (m, f)`` here is what **the arm's tip applies to its environment**: the
moment ``m`` [N m] about the tip point and the force ``f`` [N], in world axes
unless said otherwise. The joint torques that hold that push, at rest and
without gravity, are ``tau = J_t(q)^T W`` (virtual work: ``tau . dq = W . J_t dq``).
The environment pushes back on the tip with ``-W``.

The same wrench written in the tip frame's axes (Modern Robotics' body
wrench ``F_b``) pairs with the body Jacobian, ``tau = J_b^T F_b``.

Ellipsoids (Yoshikawa's manipulability): joint speeds with ``|qd| <= 1``
move the tip point with velocities inside an ellipsoid whose half-axes are
the singular values ``sigma_i`` of the tip's linear-velocity Jacobian (the
lower three rows of ``J_t``); joint torques with ``|tau| <= 1`` let the tip
push with forces inside the ellipsoid of half-axes ``1 / sigma_i``, along the
same directions.
"""

import numpy as np

from armlab._checks import finite_array, joint_vector, positive_scalar
from armlab.spatial.dynamics import gravity_torques
from armlab.spatial.kinematics import body_jacobian, tip_jacobian

__all__ = ["static_torques", "wrench_limit", "manipulability", "velocity_ellipsoid",
           "force_ellipsoid"]


def static_torques(chain, q, wrench, frame="world"):
    """Joint torques ``tau = J^T W`` that hold a wrench the tip applies.

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].
    wrench : (..., 6) array_like
        The wrench the tip applies to its environment: moment about the tip
        point [N m], then force [N].
    frame : {"world", "tip"}, optional
        The axes ``wrench`` is written in: the world's (with :func:`tip_jacobian`)
        or the tip frame's (with :func:`body_jacobian`). Default ``"world"``.

    Returns
    -------
    tau : (..., n) ndarray
        Joint torques [N m] (forces [N] at prismatic joints). Add the gravity
        torques for an arm that also holds itself up.

    Examples
    --------
    The SO-101 reaching out level, its tip pressing down on a table with 10 N:

    >>> from armlab.spatial.robots import so101
    >>> arm, q = so101(), np.zeros(5)
    >>> tau = static_torques(arm, q, [0, 0, 0, 0, 0, -10.0])
    >>> tau[:4].round(4), tau[4].round(4)
    (array([0.    , 3.2213, 2.9413, 1.5923]), np.float64(0.0017))

    The wrist roll feels the tip's 0.17 mm offset from its axis. Each pitch
    joint (axis +y) holds 10 N times its horizontal distance to the tip:

    >>> from armlab.spatial.kinematics import forward_kinematics, joint_poses
    >>> (10 * (forward_kinematics(arm, q)[0, 3] - joint_poses(arm, q)[1:4, 0, 3])).round(4)
    array([3.2213, 2.9413, 1.5923])
    """
    if frame not in ("world", "tip"):
        raise ValueError(f"frame must be 'world' or 'tip', got {frame!r}")
    q = joint_vector(chain, "q", q)
    W = finite_array("wrench", wrench)
    if W.ndim == 0 or W.shape[-1] != 6:
        raise ValueError(f"wrench has shape {W.shape}: expected (..., 6), moment then force")
    J = tip_jacobian(chain, q) if frame == "world" else body_jacobian(chain, q)
    return (W[..., None, :] @ J)[..., 0, :]


def wrench_limit(chain, q, wrench, gravity=True):
    """How many times a wrench the arm can hold at rest within its joints' rated torques.

    The largest ``s >= 0`` with ``|g(q) + s J_t(q)^T W| <= effort`` at every joint
    (``g`` the gravity torques, or zero with ``gravity=False``; ``effort`` the
    URDF's limits). Each joint's torque is linear in ``s``, so each joint gives
    one bound and the smallest bound wins.

    Parameters
    ----------
    chain : Chain
    q : (n,) array_like
        Joint positions [rad or m].
    wrench : (6,) array_like
        The wrench the tip applies to its environment (moment about the tip
        point [N m], then force [N]), world axes: the direction and unit of the push.
    gravity : bool, optional
        Whether the joints also hold the arm's own weight. Default True.

    Returns
    -------
    scale : float
        The largest multiple of ``wrench`` held [-]; ``inf`` if no joint feels it.
    joint : int
        The joint that reaches its limit first (-1 when ``scale`` is ``inf``).

    Raises
    ------
    ValueError
        If gravity alone already exceeds a joint's rated torque at ``q``.

    Examples
    --------
    The SO-101 reaching out level lifts a load: the tip pushes it up with
    9.81 N per kilogram. The shoulder (joint 1) gives out first:

    >>> from armlab.spatial.robots import so101
    >>> kg, joint = wrench_limit(so101(), np.zeros(5), [0, 0, 0, 0, 0, 9.81])
    >>> round(kg, 4), joint
    (2.9941, 1)

    The same load as a payload at the flange puts the shoulder at its 10 N m:

    >>> gravity_torques(so101().with_payload(kg), np.zeros(5))[1].round(10)
    np.float64(-10.0)
    """
    q = joint_vector(chain, "q", q)
    if q.ndim != 1:
        raise ValueError(f"q has shape {q.shape}: expected one pose ({chain.n},)")
    W = finite_array("wrench", wrench)
    if W.shape != (6,):
        raise ValueError(f"wrench has shape {W.shape}: expected (6,), moment then force")
    g = gravity_torques(chain, q) if gravity else np.zeros(chain.n)
    over = np.abs(g) > chain.effort
    if over.any():
        raise ValueError(f"q: gravity alone exceeds the rated torque of joint "
                         f"{int(np.argmax(over))} ({chain.joints[int(np.argmax(over))]})")
    a = static_torques(chain, q, W)             # torque per unit of s
    bounds = np.full(chain.n, np.inf)
    up, down = a > 0, a < 0
    bounds[up] = (chain.effort[up] - g[up]) / a[up]
    bounds[down] = (-chain.effort[down] - g[down]) / a[down]
    joint = int(np.argmin(bounds))
    if np.isinf(bounds[joint]):
        return np.inf, -1
    return float(bounds[joint]), joint


def _linear_svd(chain, q):
    J = tip_jacobian(chain, joint_vector(chain, "q", q))[..., 3:, :]
    U, sigma, _ = np.linalg.svd(J)
    pad = np.zeros(sigma.shape[:-1] + (3 - sigma.shape[-1],))
    return np.concatenate([sigma, pad], axis=-1), U


def manipulability(chain, q):
    """Yoshikawa's manipulability ``sqrt(det(J_v J_v^T))`` of the tip point.

    ``J_v`` is the tip's linear-velocity Jacobian (world axes, ``(3, n)``); the
    measure is the product of its three singular values, the volume of the
    velocity ellipsoid over that of a unit ball. Zero at a singular pose.

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].

    Returns
    -------
    w : (...) ndarray
        [m^3/rad^3] for revolute joints.

    Examples
    --------
    The SO-101 at zero, and with its elbow bent 1.5 rad further, towards a
    folded pose where the tip's velocities flatten into a disc:

    >>> from armlab.spatial.robots import so101
    >>> manipulability(so101(), np.zeros(5)).round(6)
    np.float64(0.013686)
    >>> manipulability(so101(), [0, 0, 1.5, 0, 0]).round(6)
    np.float64(0.000955)
    """
    sigma, _ = _linear_svd(chain, q)
    return np.prod(sigma, axis=-1)[()]


def velocity_ellipsoid(chain, q, joint_speed=1.0):
    """The ellipsoid of tip-point velocities that joint speeds ``|qd| <= joint_speed`` give.

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].
    joint_speed : float, optional
        Size of the joint velocity vector [rad/s]; positive. Default 1.

    Returns
    -------
    half_lengths : (..., 3) ndarray
        The half-axes ``joint_speed * sigma_i`` [m/s], largest first; zero
        along a direction the tip cannot move.
    directions : (..., 3, 3) ndarray
        Their unit directions, as columns, in world axes.

    Examples
    --------
    >>> from armlab.spatial.robots import so101
    >>> half, axes = velocity_ellipsoid(so101(), [0.0, 0.5, -0.5, 0.3, 0.0])
    >>> bool(np.isclose(np.prod(half), manipulability(so101(), [0.0, 0.5, -0.5, 0.3, 0.0])))
    True
    """
    speed = positive_scalar("joint_speed", joint_speed, "rad/s")
    sigma, U = _linear_svd(chain, q)
    return speed * sigma, U


def force_ellipsoid(chain, q, joint_torque=1.0):
    """The ellipsoid of tip forces that joint torques ``|tau| <= joint_torque`` can hold.

    From ``tau = J_v^T f``: half-axes ``joint_torque / sigma_i`` along the
    velocity ellipsoid's directions. Where the tip cannot move, it can hold
    any force (an infinite half-axis).

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].
    joint_torque : float, optional
        Size of the joint torque vector [N m]; positive. Default 1.

    Returns
    -------
    half_lengths : (..., 3) ndarray
        The half-axes [N], smallest first (the velocity ellipsoid's order);
        ``inf`` along a direction the tip cannot move.
    directions : (..., 3, 3) ndarray
        Their unit directions, as columns, in world axes.

    Examples
    --------
    A long axis of one is a short axis of the other:

    >>> from armlab.spatial.robots import so101
    >>> q = [0.0, 0.5, -0.5, 0.3, 0.0]
    >>> (force_ellipsoid(so101(), q)[0] * velocity_ellipsoid(so101(), q)[0]).round(12)
    array([1., 1., 1.])
    """
    torque = positive_scalar("joint_torque", joint_torque, "N m")
    sigma, U = _linear_svd(chain, q)
    with np.errstate(divide="ignore"):
        return torque / sigma, U
