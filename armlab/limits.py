"""Torque limits: clipping, the acceleration that clipped torques give, payload capacity."""

import numpy as np

from armlab._checks import batch_shape, finite_array, joint_vector, planar_vector, torque_bounds
from armlab.dynamics import forward_dynamics, gravity_torques, inverse_dynamics
from armlab.kinematics import jacobian

__all__ = ["clip_torques", "realized_acceleration", "payload_capacity"]


def clip_torques(tau, limit):
    """Clip each joint torque to its limits, independently.

    Parameters
    ----------
    tau : (..., n) array_like
        Requested torques [N m].
    limit : float, (n,) or (2, n) array_like
        Positive symmetric limit (``-limit`` to ``+limit``), per joint or for
        all, or a ``(2, n)`` array of minima then maxima [N m].

    Returns
    -------
    applied : (..., n) ndarray
        [N m].

    Examples
    --------
    >>> clip_torques([22.286667, 5.738333], 20)
    array([20.      ,  5.738333])
    >>> clip_torques([-3.0, 3.0], [[-1, -5], [2, 2]])
    array([-1.,  2.])
    """
    tau = finite_array("tau", tau)
    if tau.ndim == 0:
        raise ValueError("tau has shape (): expected shape (..., n)")
    low, high = torque_bounds(tau.shape[-1], limit)
    return np.clip(tau, low, high)


def realized_acceleration(arm, q, qd, qdd_request, limit, tip_force=None):
    """What happens to a requested acceleration when the motors saturate.

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].
    qdd_request : (..., n) array_like
        Requested accelerations [rad/s^2].
    limit : float, (n,) or (2, n) array_like
        Torque limits, as in :func:`clip_torques` [N m].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment [N].

    Returns
    -------
    requested : (..., n) ndarray
        Inverse-dynamics torques for the request [N m].
    applied : (..., n) ndarray
        Those torques clipped to the limits [N m].
    qdd : (..., n) ndarray
        Accelerations the applied torques produce [rad/s^2]; every joint
        changes when any one clips, through the mass matrix.

    Examples
    --------
    Seed 001: the horizontal rods asked for qdd = (1, 0) under a 20 N m limit:

    >>> from armlab import rod_arm
    >>> req, applied, qdd = realized_acceleration(rod_arm(), [0, 0], [0, 0], [1, 0], 20)
    >>> applied.round(6), qdd.round(6)
    (array([20.      ,  5.738333]), array([-2.92,  9.8 ]))
    """
    requested = inverse_dynamics(arm, q, qd, qdd_request, tip_force)
    applied = clip_torques(requested, limit)
    return requested, applied, forward_dynamics(arm, q, qd, applied, tip_force)


def payload_capacity(arm, q, limit, tip_force=None):
    """How many units of a tip load each joint can hold, on top of the arm's own weight.

    Per joint, the largest ``k >= 0`` with ``g(q) + k J^T F`` inside the
    torque limits (seed 004's meaning). With the default ``F``, the support
    of a 1 kg mass against gravity, the answer is in kilograms.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    limit : float, (n,) or (2, n) array_like
        Torque limits, as in :func:`clip_torques` [N m].
    tip_force : (..., 2) array_like, optional
        Force the tip applies per unit of load [N]; default ``-gravity * 1 kg``.

    Returns
    -------
    capacity : (..., n) ndarray
        Per joint: a positive multiple; ``inf`` where the joint carries none
        of the load; ``nan`` where the arm's own weight already exceeds that
        joint's limit. The smallest entry names the joint that limits the load.

    Examples
    --------
    Seed 001's horizontal rods with 25 N m motors:

    >>> from armlab import rod_arm
    >>> payload_capacity(rod_arm(), [0, 0], 25).round(4)
    array([0.2742, 2.0484])
    """
    q = joint_vector(arm, "q", q)
    force = (-np.asarray(arm.gravity) if tip_force is None
             else planar_vector("tip_force", tip_force))
    batch_shape(q=q, tip_force=force)
    g = gravity_torques(arm, q)
    t = np.einsum("...aj,...a->...j", jacobian(arm, q), force)
    low, high = torque_bounds(arm.n, limit)
    g, t = np.broadcast_arrays(g, t)
    tol = 1e-12 * np.max(np.abs(force)) * sum(arm.lengths)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        k = np.where(t > tol, (high - g) / t, np.where(t < -tol, (low - g) / t, np.inf))
    return np.where((g < low) | (g > high), np.nan, k)
