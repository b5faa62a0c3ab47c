"""Rigid-body dynamics of a planar arm.

The equation of motion, one convention everywhere::

    M(q) qdd + c(q, qd) + g(q) + friction(qd) = tau - J(q)^T tip_force

``c`` is the velocity-product vector (``C(q, qd) qd``), ``g`` the torque that
*balances* gravity, ``friction`` the torque the motors add to *overcome*
friction, and ``tip_force`` the force the arm's tip applies to the environment.
Units are SI: [rad], [rad/s], [rad/s^2], [N m], [kg m^2], [J].

Two independent routes compute inverse dynamics: the closed form
``M qdd + c + g`` assembled from centre-of-mass Jacobians
(:func:`inverse_dynamics`) and the recursive Newton-Euler algorithm
(:func:`rnea`). They agree to rounding for any number of links.
"""

import numpy as np

from armlab._checks import joint_vector, tip_force as _tip_force
from armlab.kinematics import _com_jacobians, _com_positions, _frames, _perp

__all__ = [
    "mass_matrix", "mass_matrix_rate", "coriolis_torques", "gravity_torques",
    "friction_torques", "torque_parts", "inverse_dynamics", "rnea", "forward_dynamics",
    "kinetic_energy", "potential_energy",
]


def _states(arm, **named):
    """Validate joint vectors and broadcast them to one batch shape."""
    arrays = [joint_vector(arm, name, value) for name, value in named.items()]
    return np.broadcast_arrays(*arrays)


def _rotor_matrix(arm):
    """Rotational part of M: entry (j, k) sums I_i over links i >= max(j, k)."""
    inertia = arm._arrays["I"]
    tail = np.cumsum(inertia[::-1])[::-1]
    idx = np.arange(arm.n)
    return tail[np.maximum.outer(idx, idx)]


def _mass_matrix(arm, Jc):
    m = arm._arrays["m"]
    return np.einsum("...iaj,...iak,i->...jk", Jc, Jc, m) + _rotor_matrix(arm)


def _link_speeds(qd):
    return np.cumsum(qd, axis=-1)


def _centripetal(arm, e, omega):
    """Centre-of-mass accelerations ``Jc_dot qd`` ``(..., n, 2)`` at zero qdd."""
    w2 = (omega**2)[..., None]
    step = -w2 * arm._arrays["L"][:, None] * e
    joint_acc = np.cumsum(step, axis=-2) - step            # at each link's own joint
    return joint_acc - w2 * arm._arrays["lc"][:, None] * e


def mass_matrix(arm, q):
    """Joint-space mass matrix ``M(q)``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    M : (..., n, n) ndarray
        Symmetric positive definite [kg m^2].

    Examples
    --------
    Seed 000's arm at (30 deg, 45 deg):

    >>> from armlab import tabletop_arm
    >>> mass_matrix(tabletop_arm(), np.radians([30, 45])).round(4)
    array([[0.2239, 0.0473],
           [0.0473, 0.0208]])
    """
    q = joint_vector(arm, "q", q)
    p, e = _frames(arm, q)
    return _mass_matrix(arm, _com_jacobians(arm, p, _com_positions(arm, p, e)))


def mass_matrix_rate(arm, q, qd):
    """Time derivative of the mass matrix along a motion, ``dM/dt``.

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].

    Returns
    -------
    Mdot : (..., n, n) ndarray
        [kg m^2/s]. It satisfies ``qd^T c = qd^T Mdot qd / 2``.

    Examples
    --------
    Seed 002's rods bending at the elbow at 1 rad/s from q2 = 90 deg:

    >>> from armlab import rod_arm
    >>> mass_matrix_rate(rod_arm(), np.radians([0, 90]), [0, 1]).round(6)
    array([[-1. , -0.5],
           [-0.5,  0. ]])
    """
    q, qd = _states(arm, q=q, qd=qd)
    p, e = _frames(arm, q)
    com = _com_positions(arm, p, e)
    Jc = _com_jacobians(arm, p, com)
    # Jc_i[:, j] = z x (c_i - p_j)  =>  d/dt = -(sum over links l = j..i of w_l r_l e_l)
    omega = _link_speeds(qd)
    step = omega[..., None] * arm._arrays["L"][:, None] * e
    u = np.cumsum(step, axis=-2) - step
    uc = u + omega[..., None] * arm._arrays["lc"][:, None] * e
    rel = uc[..., :, None, :] - u[..., None, :, :]
    Jc_dot = np.swapaxes(-rel * np.tri(arm.n)[:, :, None], -1, -2)
    half = np.einsum("...iaj,...iak,i->...jk", Jc_dot, Jc, arm._arrays["m"])
    return half + np.swapaxes(half, -1, -2)


def coriolis_torques(arm, q, qd):
    """Velocity-product torques ``c(q, qd) = C(q, qd) qd`` (Coriolis and centrifugal).

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].

    Returns
    -------
    c : (..., n) ndarray
        [N m]; quadratic in ``qd``, zero at rest.

    Examples
    --------
    Seed 000's worked instant, q = (30, 45) deg, qd = (1, 2) rad/s:

    >>> from armlab import tabletop_arm
    >>> coriolis_torques(tabletop_arm(), np.radians([30, 45]), [1, 2]).round(4)
    array([-0.2121,  0.0265])
    """
    q, qd = _states(arm, q=q, qd=qd)
    p, e = _frames(arm, q)
    Jc = _com_jacobians(arm, p, _com_positions(arm, p, e))
    acc = _centripetal(arm, e, _link_speeds(qd))
    return np.einsum("...iaj,...ia,i->...j", Jc, acc, arm._arrays["m"])


def gravity_torques(arm, q):
    """Torques ``g(q)`` that hold the arm still against gravity.

    Gravity itself applies ``-g(q)``; ``g`` is the gradient of the potential
    energy, ``-sum_i Jc_i^T m_i a_grav``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    g : (..., n) ndarray
        [N m].

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> gravity_torques(tabletop_arm(), np.radians([30, 45])).round(4)
    array([5.4148, 0.3174])
    """
    q = joint_vector(arm, "q", q)
    p, e = _frames(arm, q)
    Jc = _com_jacobians(arm, p, _com_positions(arm, p, e))
    weights = -arm._arrays["m"][:, None] * arm._arrays["g"]            # (n, 2)
    return np.einsum("...iaj,ia->...j", Jc, weights)


def friction_torques(arm, qd):
    """Torques the motors add to overcome joint friction, referred to the joints.

    ``G^2 B qd + G Tc sign(qd)`` for motor-side viscous ``B``, Coulomb ``Tc``
    and gear ratio ``G``. This is the *negative* of the friction torque itself
    (which opposes motion); a library that returns the friction torque (as
    seed 004's does) gives the opposite sign.

    Parameters
    ----------
    arm : PlanarArm
    qd : (..., n) array_like
        Joint speeds [rad/s].

    Returns
    -------
    f : (..., n) ndarray
        [N m]; same sign as ``qd``.

    Examples
    --------
    Seed 002's damping of 0.25 N m s/rad at qd = (1, -0.5) rad/s:

    >>> from armlab import rod_arm
    >>> friction_torques(rod_arm(damping=0.25), [1, -0.5])
    array([ 0.25 , -0.125])
    """
    qd = joint_vector(arm, "qd", qd)
    return arm._arrays["B"] * qd + arm._arrays["Tc"] * np.sign(qd)


def torque_parts(arm, q, qd, qdd, tip_force=None):
    """Inverse dynamics split into its parts.

    Parameters
    ----------
    arm : PlanarArm
    q, qd, qdd : (..., n) array_like
        Joint angles [rad], speeds [rad/s] and accelerations [rad/s^2].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment [N].

    Returns
    -------
    parts : dict of (..., n) ndarray
        ``"inertia"`` (M qdd), ``"velocity"`` (c), ``"gravity"`` (g),
        ``"friction"``, ``"tip"`` (J^T tip_force) and their sum ``"total"`` [N m].

    Examples
    --------
    Seed 000's worked instant: q = (30, 45) deg, qd = (1, 2), qdd = (3, -2):

    >>> from armlab import tabletop_arm
    >>> parts = torque_parts(tabletop_arm(), np.radians([30, 45]), [1, 2], [3, -2])
    >>> parts["inertia"].round(4), parts["total"].round(4)
    (array([0.5769, 0.1004]), array([5.7796, 0.4443]))
    """
    from armlab.kinematics import jacobian

    q, qd, qdd = _states(arm, q=q, qd=qd, qdd=qdd)
    force = _tip_force(arm, tip_force, q)
    p, e = _frames(arm, q)
    Jc = _com_jacobians(arm, p, _com_positions(arm, p, e))
    m = arm._arrays["m"]
    parts = {
        "inertia": np.einsum("...jk,...k->...j", _mass_matrix(arm, Jc), qdd),
        "velocity": np.einsum("...iaj,...ia,i->...j", Jc,
                              _centripetal(arm, e, _link_speeds(qd)), m),
        "gravity": np.einsum("...iaj,ia->...j", Jc, -m[:, None] * arm._arrays["g"]),
        "friction": arm._arrays["B"] * qd + arm._arrays["Tc"] * np.sign(qd),
        "tip": np.einsum("...aj,...a->...j", jacobian(arm, q), force),
    }
    parts["total"] = sum(parts.values())
    return parts


def inverse_dynamics(arm, q, qd, qdd, tip_force=None):
    """Joint torques for a motion, closed form: ``M qdd + c + g + friction + J^T F``.

    Parameters
    ----------
    arm : PlanarArm
    q, qd, qdd : (..., n) array_like
        Joint angles [rad], speeds [rad/s] and accelerations [rad/s^2].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment, world frame [N]. A force the
        environment applies to the arm is ``-tip_force``.

    Returns
    -------
    tau : (..., n) ndarray
        Motor torques [N m], positive driving the joint angle positive.

    Examples
    --------
    Seed 000's worked instant:

    >>> from armlab import tabletop_arm
    >>> inverse_dynamics(tabletop_arm(), np.radians([30, 45]), [1, 2], [3, -2]).round(4)
    array([5.7796, 0.4443])
    """
    return torque_parts(arm, q, qd, qdd, tip_force)["total"]


def _cross(a, b):
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def rnea(arm, q, qd, qdd, tip_force=None):
    """Joint torques for a motion by the recursive Newton-Euler algorithm.

    Same quantity and conventions as :func:`inverse_dynamics`, computed link
    by link: accelerations outwards from the base (gravity enters as an
    upward acceleration of the base), then forces and moments inwards from
    the tip.

    Parameters
    ----------
    arm : PlanarArm
    q, qd, qdd : (..., n) array_like
        Joint angles [rad], speeds [rad/s] and accelerations [rad/s^2].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment, world frame [N].

    Returns
    -------
    tau : (..., n) ndarray
        Motor torques [N m].

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> rnea(tabletop_arm(), np.radians([30, 45]), [1, 2], [3, -2]).round(4)
    array([5.7796, 0.4443])
    """
    q, qd, qdd = _states(arm, q=q, qd=qd, qdd=qdd)
    force = _tip_force(arm, tip_force, q)
    batch = np.broadcast_shapes(q.shape[:-1], force.shape[:-1])
    q, qd, qdd = (np.broadcast_to(x, batch + (arm.n,)) for x in (q, qd, qdd))
    force = np.broadcast_to(force, batch + (2,))
    A = arm._arrays
    phi = np.cumsum(q, axis=-1)
    omega = np.cumsum(qd, axis=-1)
    alpha = np.cumsum(qdd, axis=-1)
    e = np.stack([np.cos(phi), np.sin(phi)], axis=-1)
    a_joint = np.broadcast_to(-A["g"], batch + (2,))
    a_com = []
    for i in range(arm.n):                                    # outward pass
        w2, al, ei = omega[..., i, None] ** 2, alpha[..., i, None], e[..., i, :]
        a_com.append(a_joint + A["lc"][i] * (al * _perp(ei) - w2 * ei))
        a_joint = a_joint + A["L"][i] * (al * _perp(ei) - w2 * ei)
    f_next = force
    n_next = np.zeros(batch)
    tau = np.empty(batch + (arm.n,))
    for i in reversed(range(arm.n)):                          # inward pass
        ei = e[..., i, :]
        ma = A["m"][i] * a_com[i]
        n_next = (n_next + A["I"][i] * alpha[..., i] + A["lc"][i] * _cross(ei, ma)
                  + A["L"][i] * _cross(ei, f_next))
        f_next = f_next + ma
        tau[..., i] = n_next
    return tau + A["B"] * qd + A["Tc"] * np.sign(qd)


def forward_dynamics(arm, q, qd, tau, tip_force=None):
    """Joint accelerations that torques produce: solves ``M qdd = tau - J^T F - c - g - friction``.

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].
    tau : (..., n) array_like
        Motor torques [N m].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment, world frame [N].

    Returns
    -------
    qdd : (..., n) ndarray
        [rad/s^2]. The mass matrix is symmetric positive definite, so the
        system is solved directly, never by forming ``M^-1``.

    Examples
    --------
    Feeding back seed 000's worked torques gives the acceleration (3, -2):

    >>> from armlab import tabletop_arm
    >>> arm, q = tabletop_arm(), np.radians([30, 45])
    >>> tau = inverse_dynamics(arm, q, [1, 2], [3, -2])
    >>> forward_dynamics(arm, q, [1, 2], tau).round(12)
    array([ 3., -2.])
    """
    q, qd, tau = _states(arm, q=q, qd=qd, tau=tau)
    p, e = _frames(arm, q)
    Jc = _com_jacobians(arm, p, _com_positions(arm, p, e))
    zero = np.zeros(arm.n)
    bias = torque_parts(arm, q, qd, zero, tip_force)["total"]
    M = _mass_matrix(arm, Jc)
    M, rhs = np.broadcast_arrays(M, (tau - bias)[..., None])
    return np.linalg.solve(M, rhs)[..., 0]


def kinetic_energy(arm, q, qd):
    """Kinetic energy ``qd^T M(q) qd / 2``.

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].

    Returns
    -------
    T : (...) ndarray
        [J].

    Examples
    --------
    Seed 002's bent and moving instant:

    >>> from armlab import rod_arm
    >>> kinetic_energy(rod_arm(), np.radians([30, -60]), [1, -0.5]).round(6)
    np.float64(0.833333)
    """
    q, qd = _states(arm, q=q, qd=qd)
    return 0.5 * np.einsum("...j,...jk,...k->...", qd, mass_matrix(arm, q), qd)


def potential_energy(arm, q):
    """Gravitational potential energy, zero with every centre of mass at the shoulder's height.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    V : (...) ndarray
        ``-sum_i m_i a_grav . c_i`` [J]; negative below the shoulder.

    Examples
    --------
    >>> from armlab import rod_arm
    >>> potential_energy(rod_arm(), np.radians([30, -60])).round(6)
    np.float64(4.905)
    """
    q = joint_vector(arm, "q", q)
    p, e = _frames(arm, q)
    com = _com_positions(arm, p, e)
    return -np.einsum("...ia,ia->...", com, arm._arrays["m"][:, None] * arm._arrays["g"])
