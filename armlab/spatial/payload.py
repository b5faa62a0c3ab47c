"""The payload a chain can hold still at the flange against its joints' rated torques.

A payload of mass ``m`` [kg] fixed to the tip adds to the gravity torques a
part linear in ``m``: the tip pushes the payload up with the force ``-m g``
(``g`` the gravity vector) at its centre of mass, so (see
:mod:`armlab.spatial.statics`)::

    tau(m) = g(q) + m b(q),   b = J_t(q)^T (r x (-g), -g)

with ``r`` the arm from the tip point to the payload's centre, world axes.
Holding still needs ``|tau_i(m)| <= effort_i`` at every joint; each joint
bounds ``m`` on its own and the smallest bound is the capacity.
"""

import numpy as np

from armlab._checks import finite_array, joint_vector
from armlab.spatial.dynamics import gravity_torques
from armlab.spatial.kinematics import forward_kinematics
from armlab.spatial.statics import static_torques

__all__ = ["payload_torques", "payload_capacity"]


def payload_torques(chain, q, com=(0.0, 0.0, 0.0)):
    """Joint torques ``b(q)`` that hold 1 kg at the flange still (gravity's share of a payload).

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].
    com : (3,) array_like, optional
        The payload's centre of mass in the tip frame [m]; default the tip point.

    Returns
    -------
    b : (..., n) ndarray
        [N m/kg] (or [N/kg] at prismatic joints); ``m b`` is what ``m`` kg add
        to :func:`armlab.spatial.gravity_torques`.

    Examples
    --------
    The SO-101 reaching out level: each pitch joint holds 9.81 N times its
    horizontal distance to the tip, per kilogram.

    >>> from armlab.spatial.robots import so101
    >>> payload_torques(so101(), np.zeros(5))[1:4].round(4)
    array([-3.1601, -2.8854, -1.562 ])
    """
    q = joint_vector(chain, "q", q)
    c = finite_array("com", com)
    if c.shape != (3,):
        raise ValueError(f"com has shape {c.shape}: expected shape (3,) [m], tip frame")
    up = -chain.gravity                                      # the push on 1 kg [N]
    r = forward_kinematics(chain, q)[..., :3, :3] @ c         # tip point to the payload
    moment = np.cross(r, up)
    wrench = np.concatenate([moment, np.broadcast_to(up, moment.shape)], axis=-1)
    return static_torques(chain, q, wrench)


def payload_capacity(chain, q, com=(0.0, 0.0, 0.0)):
    """The largest payload the chain holds still at ``q`` within its rated torques.

    Parameters
    ----------
    chain : Chain
        Its ``effort`` limits are the rated torques [N m] (forces [N]).
    q : (..., n) array_like
        Joint positions [rad or m].
    com : (3,) array_like, optional
        The payload's centre of mass in the tip frame [m]; default the tip point.

    Returns
    -------
    mass : (...) ndarray
        [kg]; ``inf`` when no joint feels the payload, ``nan`` when the arm
        cannot hold even itself (some ``|g_i| > effort_i``).
    joint : (...) ndarray of int
        The joint that reaches its limit first (``-1`` with ``inf`` or ``nan``).

    Examples
    --------
    The SO-101 reaching out level holds 2.994 kg, its shoulder-lift joint at 10 N m:

    >>> from armlab.spatial.robots import so101
    >>> arm = so101()
    >>> m, j = payload_capacity(arm, np.zeros(5))
    >>> m.round(4), arm.joints[j]
    (np.float64(2.9941), 'shoulder_lift')

    With that mass the joint's torque is its limit:

    >>> gravity_torques(arm.with_payload(float(m)), np.zeros(5))[1].round(10)
    np.float64(-10.0)
    """
    q = joint_vector(chain, "q", q)
    g, b = gravity_torques(chain, q), payload_torques(chain, q, com)
    e = chain.effort
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = np.where(b > 0, (e - g) / b, np.where(b < 0, (e + g) / -b, np.inf))
    scale = np.maximum(np.abs(b).max(axis=-1, keepdims=True), 1e-300)
    bound = np.where(np.abs(b) <= 1e-12 * scale, np.inf, bound)   # joints blind to the load
    mass = bound.min(axis=-1)
    joint = np.where(np.isfinite(mass), bound.argmin(axis=-1), -1)
    over = np.any(np.abs(g) > e, axis=-1)
    mass = np.where(over, np.nan, mass)
    joint = np.where(over, -1, joint)
    return mass[()], joint[()]
