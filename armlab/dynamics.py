"""Rigid-body dynamics of a planar arm.

The equation of motion, one convention everywhere::

    M(q) qdd + c(q, qd) + g(q) + friction(qd) = tau - J(q)^T tip_force

``c`` is the velocity-product vector (``C(q, qd) qd``), ``g`` the torque that
*balances* gravity, ``friction`` the torque the motors add to *overcome*
friction, and ``tip_force`` the force the arm's tip applies to the environment.
Units are SI: [rad], [rad/s], [rad/s^2], [N m], [kg m^2], [J].

Two independent routes compute inverse dynamics: the closed form
``M qdd + c + g`` assembled from the centre-of-mass Jacobians
(:func:`inverse_dynamics`) and the recursive Newton-Euler algorithm
(:func:`rnea`). They agree to rounding for any number of links.

The numerical kernels behind these functions live in the private module
``armlab._kernels``: plain arithmetic over the links, run on Python floats for
one state and on numpy arrays for a batch.
"""

import numpy as np

from armlab import _kernels as K
from armlab._checks import joint_vector, joint_vectors, planar_vector
from armlab.kinematics import _com_jacobians, _com_positions, _frames

__all__ = [
    "mass_matrix", "mass_matrix_rate", "coriolis_torques", "gravity_torques",
    "friction_torques", "torque_parts", "inverse_dynamics", "rnea", "forward_dynamics",
    "kinetic_energy", "potential_energy",
]


def _states(arm, **named):
    """Validated joint vectors ``(..., n)``, keeping their names (the general path)."""
    return {name: joint_vector(arm, name, value) for name, value in named.items()}


def _with_force(arm, tip_force, **named):
    """:func:`_states` plus the tip force, when there is one."""
    states = _states(arm, **named)
    if tip_force is not None:
        states["tip_force"] = planar_vector("tip_force", tip_force)
    return states


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
    The table-top arm at (30 deg, 45 deg):

    >>> from armlab import tabletop_arm
    >>> mass_matrix(tabletop_arm(), np.radians([30, 45])).round(4)
    array([[0.2239, 0.0473],
           [0.0473, 0.0208]])
    """
    k = arm._constants
    fast = K.fast(K.mass_matrix, k, (k.n, k.n), q)
    if fast is not None:
        return fast
    return K.drive(K.mass_matrix, k, _states(arm, q=q), (k.n, k.n))


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
    Two 1 m, 1 kg rods bending at the elbow at 1 rad/s from q2 = 90 deg:

    >>> from armlab import rod_arm
    >>> mass_matrix_rate(rod_arm(), np.radians([0, 90]), [0, 1]).round(6)
    array([[-1. , -0.5],
           [-0.5,  0. ]])
    """
    q, qd = np.broadcast_arrays(*joint_vectors(arm, q=q, qd=qd))
    arrays = arm._constants.arrays
    p, e = _frames(arm, q)
    com = _com_positions(arm, p, e)
    Jc = _com_jacobians(arm, p, com)
    # Jc_i[:, j] = z x (c_i - p_j)  =>  d/dt = -(sum over links l = j..i of w_l r_l e_l)
    omega = np.cumsum(qd, axis=-1)
    step = omega[..., None] * arrays["L"][:, None] * e
    u = np.cumsum(step, axis=-2) - step
    uc = u + omega[..., None] * arrays["lc"][:, None] * e
    rel = uc[..., :, None, :] - u[..., None, :, :]
    Jc_dot = np.swapaxes(-rel * np.tri(arm.n)[:, :, None], -1, -2)
    half = np.einsum("...iaj,...iak,i->...jk", Jc_dot, Jc, arrays["m"])
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
    The table-top arm's worked instant, q = (30, 45) deg, qd = (1, 2) rad/s:

    >>> from armlab import tabletop_arm
    >>> coriolis_torques(tabletop_arm(), np.radians([30, 45]), [1, 2]).round(4)
    array([-0.2121,  0.0265])
    """
    k = arm._constants
    fast = K.fast(K.coriolis, k, k.shape, q, qd)
    if fast is not None:
        return fast
    return K.drive(K.coriolis, k, _states(arm, q=q, qd=qd), (k.n,))


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
    k = arm._constants
    fast = K.fast(K.gravity, k, k.shape, q)
    if fast is not None:
        return fast
    return K.drive(K.gravity, k, _states(arm, q=q), (k.n,))


def friction_torques(arm, qd):
    """Torques the motors add to overcome joint friction, referred to the joints.

    ``G^2 B qd + G Tc sign(qd)`` for motor-side viscous ``B``, Coulomb ``Tc``
    and gear ratio ``G``. This is the *negative* of the friction torque itself
    (which opposes motion); a library that returns the friction torque (as
    Robotics Toolbox for Python's does) gives the opposite sign.

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
    A damping of 0.25 N m s/rad at qd = (1, -0.5) rad/s:

    >>> from armlab import rod_arm
    >>> friction_torques(rod_arm(damping=0.25), [1, -0.5])
    array([ 0.25 , -0.125])
    """
    qd = joint_vector(arm, "qd", qd)
    arrays = arm._constants.arrays
    return arrays["B"] * qd + arrays["Tc"] * np.sign(qd)


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
    The table-top arm's worked instant: q = (30, 45) deg, qd = (1, 2), qdd = (3, -2):

    >>> from armlab import tabletop_arm
    >>> parts = torque_parts(tabletop_arm(), np.radians([30, 45]), [1, 2], [3, -2])
    >>> parts["inertia"].round(4), parts["total"].round(4)
    (array([0.5769, 0.1004]), array([5.7796, 0.4443]))
    """
    k = arm._constants
    named = _with_force(arm, [0.0, 0.0] if tip_force is None else tip_force,
                        q=q, qd=qd, qdd=qdd)
    out = K.drive(K.parts, k, named, (6, k.n))
    names = ["inertia", "velocity", "gravity", "friction", "tip", "total"]
    return {name: out[..., i, :] for i, name in enumerate(names)}


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
    The table-top arm's worked instant:

    >>> from armlab import tabletop_arm
    >>> inverse_dynamics(tabletop_arm(), np.radians([30, 45]), [1, 2], [3, -2]).round(4)
    array([5.7796, 0.4443])
    """
    k = arm._constants
    if tip_force is None:
        fast = K.fast(K.inverse, k, k.shape, q, qd, qdd)
        if fast is not None:
            return fast
    return K.drive(K.inverse, k, _with_force(arm, tip_force, q=q, qd=qd, qdd=qdd), (k.n,))


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
    k = arm._constants
    if tip_force is None:
        fast = K.fast(K.rnea, k, k.shape, q, qd, qdd)
        if fast is not None:
            return fast
    return K.drive(K.rnea, k, _with_force(arm, tip_force, q=q, qd=qd, qdd=qdd), (k.n,))


def _singular(arm):
    return ValueError(
        f"the mass matrix of this arm is singular (masses {arm.masses}, inertia "
        f"{arm.inertia}): some joint moves no mass, so its acceleration is undefined")


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
        system is solved by elimination without pivoting (its ``L D L^T``
        factors), never by forming ``M^-1``.

    Raises
    ------
    ValueError
        Also when the mass matrix is singular (an arm whose outer links have
        no mass and no inertia).

    Examples
    --------
    Feeding back the table-top arm's worked torques gives the acceleration (3, -2):

    >>> from armlab import tabletop_arm
    >>> arm, q = tabletop_arm(), np.radians([30, 45])
    >>> tau = inverse_dynamics(arm, q, [1, 2], [3, -2])
    >>> forward_dynamics(arm, q, [1, 2], tau).round(12)
    array([ 3., -2.])
    """
    k = arm._constants
    if tip_force is None:
        fast = K.fast(K.forward, k, k.shape, q, qd, tau)
        if fast is not None:
            return fast
    named = _with_force(arm, tip_force, q=q, qd=qd, tau=tau)
    try:
        return K.drive(K.forward, k, named, (k.n,))
    except (K.NotFinite, ZeroDivisionError) as failure:
        M = mass_matrix(arm, named["q"])
        if np.any(np.linalg.eigvalsh(M)[..., 0] <= 1e-13 * np.abs(M).max()):
            raise _singular(arm) from None
        raise K.not_finite(named) if isinstance(failure, ZeroDivisionError) else failure \
            from None


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
    The rods' bent and moving instant:

    >>> from armlab import rod_arm
    >>> kinetic_energy(rod_arm(), np.radians([30, -60]), [1, -0.5]).round(6)
    np.float64(0.833333)
    """
    return K.drive(K.kinetic, arm._constants, _states(arm, q=q, qd=qd), ())[()]


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
    return K.drive(K.potential, arm._constants, _states(arm, q=q), ())[()]
