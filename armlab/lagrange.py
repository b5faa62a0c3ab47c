"""The Lagrangian structure of the equation of motion: how ``M(q)`` makes ``c(q, qd)``.

The kinetic energy of the arm is ``T = qd^T M(q) qd / 2``. Lagrange's equations
turn it into the inertia and velocity-product torques::

    d/dt (dT/dqd) - dT/dq = M(q) qdd + c(q, qd),
    c_i = sum_jk Gamma_ijk qd_j qd_k,
    Gamma_ijk = (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) / 2

(the Christoffel symbols of the first kind). Grouping one speed with the
symbols gives the matrix ``C_ij = sum_k Gamma_ijk qd_k``: ``C qd = c``, and
``dM/dt - 2 C`` is skew-symmetric. Other matrices give the same ``c``; for two
links at any nonzero speed this is the only one with that skew-symmetry, while
from three links on adding any skew-symmetric ``E(q, qd)`` with ``E qd = 0``
gives others. The vector ``c`` is what :func:`armlab.coriolis_torques` returns
and what the equation of motion uses.

For two links, three numbers fix ``M`` (:func:`inertia_constants`)::

    M(q) = [[alpha + 2 beta cos q2, delta + beta cos q2],
            [delta + beta cos q2,   delta             ]]

Conventions: SI units, angles in radians, ``q[..., 0]`` from +x counter-clockwise
and later angles relative to the previous link. Everything here is built from
:mod:`armlab.kinematics` positions alone, so it is an independent route to the
numbers of :mod:`armlab.dynamics`.
"""

from typing import NamedTuple

import numpy as np

from armlab._checks import joint_vector, joint_vectors
from armlab.kinematics import _joints_and_coms

__all__ = ["InertiaConstants", "inertia_constants", "mass_matrix_det", "mass_matrix_derivatives",
           "christoffel_symbols", "coriolis_matrix"]


class InertiaConstants(NamedTuple):
    """The three numbers of a two-link arm's mass matrix [kg m^2].

    Attributes
    ----------
    alpha : float
        ``I1 + I2 + m1 lc1^2 + m2 (L1^2 + lc2^2)``: ``M11`` less its pose-dependent part.
    beta : float
        ``m2 L1 lc2``: the size of the coupling that changes with the elbow angle.
    delta : float
        ``I2 + m2 lc2^2``: ``M22``, link 2 turning about the elbow.
    """

    alpha: float
    beta: float
    delta: float


def _two_links(arm):
    if arm.n != 2:
        raise ValueError(f"arm has {arm.n} joints: expected a two-link arm "
                         "(the closed form of M is written for two links)")


def inertia_constants(arm):
    """The constants ``alpha, beta, delta`` of a two-link arm's mass matrix.

    ``M11 = alpha + 2 beta cos q2``, ``M12 = M21 = delta + beta cos q2``,
    ``M22 = delta``; the velocity products use ``h = beta sin q2``.

    Parameters
    ----------
    arm : PlanarArm
        A two-link arm.

    Returns
    -------
    InertiaConstants
        ``(alpha, beta, delta)`` [kg m^2].

    Examples
    --------
    Two 1 m rods, link 1 of 1 kg and link 2 of m2 kg: ``alpha = 1/3 + 4 m2/3``, ``beta = m2/2``,
    ``delta = m2/3``; with ``m2 = 1`` kg:

    >>> from armlab import rod_arm
    >>> [round(x, 6) for x in inertia_constants(rod_arm())]
    [1.666667, 0.5, 0.333333]
    """
    _two_links(arm)
    (L1, _), (m1, m2), (lc1, lc2), (I1, I2) = arm.lengths, arm.masses, arm.com, arm.inertia
    return InertiaConstants(alpha=I1 + I2 + m1 * lc1**2 + m2 * (L1**2 + lc2**2),
                            beta=m2 * L1 * lc2, delta=I2 + m2 * lc2**2)


def mass_matrix_det(arm, q):
    """Determinant of a two-link arm's mass matrix, in closed form.

    ``det M = delta (alpha - delta) - beta^2 cos^2 q2``. It is smallest with
    the arm straight or folded (``cos^2 q2 = 1``), where it is
    ``I2 (alpha - delta) + m2 lc2^2 (I1 + m1 lc1^2)``: it never reaches zero
    while either term is positive, for instance when each link has inertia
    about its own centre of mass.

    Parameters
    ----------
    arm : PlanarArm
        A two-link arm.
    q : (..., 2) array_like
        Joint angles [rad]; only ``q2`` matters.

    Returns
    -------
    det : (...) ndarray
        [kg^2 m^4].

    Examples
    --------
    Two 1 m rods, link 1 of 1 kg and link 2 of m kg: ``m/9 + m^2 (1/3 - cos^2 q2 / 4)``,
    0.194444 straight and 0.444444 at a right angle for m = 1 kg:

    >>> from armlab import rod_arm
    >>> mass_matrix_det(rod_arm(), [[0, 0], [0, np.pi / 2]]).round(6)
    array([0.194444, 0.444444])
    """
    _two_links(arm)
    q = joint_vector(arm, "q", q)
    alpha, beta, delta = inertia_constants(arm)
    return delta * (alpha - delta) - (beta * np.cos(q[..., 1])) ** 2


def _cross(a, b):
    """z-component of the planar cross product of ``(..., 2)`` vectors."""
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def mass_matrix_derivatives(arm, q):
    """Partial derivatives of the mass matrix, ``dM_ij / dq_k``.

    Built from positions only: ``M_jl = sum_i m_i (c_i - p_j).(c_i - p_l) + I_i``
    over links ``i >= j, l``, and turning joint ``k`` moves ``c_i - p_j`` by
    ``z x (c_i - p_max(j,k))`` per radian for ``i >= k`` (``c_i`` centres of
    mass, ``p_j`` joints).

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    dM : (..., n, n, n) ndarray
        ``dM[..., i, j, k] = dM_ij / dq_k`` [kg m^2/rad]; symmetric in ``i, j``.

    Examples
    --------
    The unit rods: only ``q2`` changes ``M``, by ``-sin q2 (2, 1; 1, 0) beta``
    with ``beta = 1/2``; at ``q2 = 90`` deg:

    >>> from armlab import rod_arm
    >>> dM = mass_matrix_derivatives(rod_arm(), np.radians([30, 90]))
    >>> dM[..., 0].round(12) + 0, dM[..., 1].round(12) + 0
    (array([[0., 0.],
           [0., 0.]]), array([[-1. , -0.5],
           [-0.5,  0. ]]))
    """
    q = joint_vector(arm, "q", q)
    n = arm.n
    p, c = _joints_and_coms(arm, q)                        # the joints, the centres of mass
    r = c[..., :, None, :] - p[..., None, :, :]            # r[..., i, j] = c_i - p_j
    idx = np.arange(n)
    below = idx[:, None] >= idx[None, :]                   # [i, j]: link i beyond joint j
    m = np.asarray(arm.masses, dtype=float)
    dM = np.zeros(q.shape[:-1] + (n, n, n))
    for k in range(n):
        far = r[..., :, np.maximum(idx, k), :]             # c_i - p_max(j,k)
        # w[i, j, l] = m_i when link i lies beyond joints j, l and k
        w = m[:, None, None] * below[:, :, None] * below[:, None, :] * (idx >= k)[:, None, None]
        half = np.einsum("ijl,...ijl->...jl", w, _cross(far[..., :, :, None, :],
                                                         r[..., :, None, :, :]))
        dM[..., k] = half + np.swapaxes(half, -1, -2)
    return dM


def christoffel_symbols(arm, q):
    """Christoffel symbols of the first kind of the mass matrix.

    ``Gamma_ijk = (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) / 2``, so that the
    velocity-product torques are ``c_i = sum_jk Gamma_ijk qd_j qd_k``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    Gamma : (..., n, n, n) ndarray
        ``Gamma[..., i, j, k]`` [kg m^2/rad]; symmetric in ``j, k``.

    Examples
    --------
    Two links: every symbol is ``0`` or ``+-h`` with ``h = beta sin q2``. The unit
    rods at ``q2 = 90`` deg (``h = 1/2``): ``Gamma_112 = Gamma_121 = Gamma_122 = -h``
    and ``Gamma_211 = h``:

    >>> from armlab import rod_arm
    >>> G = christoffel_symbols(rod_arm(), np.radians([0, 90]))
    >>> G[0].round(12) + 0, G[1].round(12) + 0
    (array([[ 0. , -0.5],
           [-0.5, -0.5]]), array([[0.5, 0. ],
           [0. , 0. ]]))
    """
    dM = mass_matrix_derivatives(arm, q)
    # dM[..., j, k, i] moved to [..., i, j, k]
    return 0.5 * (dM + np.swapaxes(dM, -1, -2) - np.moveaxis(dM, -1, -3))


def coriolis_matrix(arm, q, qd):
    """The Christoffel choice of ``C(q, qd)``: ``C_ij = sum_k Gamma_ijk qd_k``.

    ``C qd`` is the velocity-product vector ``c`` of
    :func:`armlab.coriolis_torques`, and ``dM/dt - 2 C`` is skew-symmetric, so
    ``qd^T c = qd^T (dM/dt) qd / 2``. Many matrices give the same ``c``; this
    one, built from the symbols, has that skew-symmetry (for two links at a
    nonzero speed it is the only one that has it; see the module's notes).

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].

    Returns
    -------
    C : (..., n, n) ndarray
        [kg m^2/s].

    Examples
    --------
    Two links: ``C = [[-h qd2, -h (qd1 + qd2)], [h qd1, 0]]`` with
    ``h = beta sin q2``. Two 1 m, 1 kg rods at q2 = -60 deg, qd = (1, -0.5) rad/s,
    where ``h = -sqrt(3)/4``:

    >>> from armlab import rod_arm
    >>> C = coriolis_matrix(rod_arm(), np.radians([30, -60]), [1, -0.5])
    >>> C.round(6), (C @ [1, -0.5]).round(6)
    (array([[-0.216506,  0.216506],
           [-0.433013,  0.      ]]), array([-0.32476 , -0.433013]))
    """
    q, qd = joint_vectors(arm, q=q, qd=qd)
    gamma = christoffel_symbols(arm, q)
    return np.einsum("...ijk,...k->...ij", gamma, qd)
