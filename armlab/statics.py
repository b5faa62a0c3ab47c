"""Statics: tip forces and the joint torques that hold them, ``tau = J(q)^T F``.

``F`` (``tip_force``) is always the force the arm's tip applies to the
environment. A library that reports the force the environment applies to the
arm needs ``-F``. Gravity is not included here; add :func:`gravity_torques`.
"""

import itertools

import numpy as np

from armlab._checks import (batch_shape, finite_array, joint_vector, joint_vectors, per_joint,
                            planar_vector, positive_scalar, torque_bounds)
from armlab.kinematics import jacobian, tip_position
from armlab.manipulability import _principal_axes

__all__ = [
    "static_torques", "tip_force_from_torques", "singular_values", "force_error_bound",
    "max_tip_force", "force_ellipse", "force_polygon", "virtual_work_check",
]

# A singular value below this fraction of the largest counts as zero.
_RANK_TOL = 1e-12


def static_torques(arm, q, tip_force):
    """Joint torques that hold a force at the tip: ``tau = J(q)^T F``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    tip_force : (..., 2) array_like
        Force the tip applies to the environment, world frame [N].

    Returns
    -------
    tau : (..., n) ndarray
        Joint torques [N m]; gravity not included.

    Examples
    --------
    Pushing a wall with 10 N at q = (30 deg, 60 deg) (seed 003):

    >>> from armlab import statics_arm
    >>> static_torques(statics_arm(), np.radians([30, 60]), [10, 0]).round(4)
    array([-6.5, -4. ])
    """
    q = joint_vector(arm, "q", q)
    force = planar_vector("tip_force", tip_force)
    batch_shape(q=q, tip_force=force)
    return np.einsum("...aj,...a->...j", jacobian(arm, q), force)


def tip_force_from_torques(arm, q, tau):
    """The tip force that given joint torques hold, by least squares.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    tau : (..., n) array_like
        Joint torques beyond gravity [N m].

    Returns
    -------
    tip_force : (..., 2) ndarray
        The force ``F`` (applied by the tip) minimising ``|J^T F - tau|`` [N];
        the smallest such force where ``J`` is singular.
    residual : (..., n) ndarray
        ``J^T F - tau`` [N m]: zero when some tip force balances ``tau``,
        otherwise the part of the torque that no tip force can balance.

    Examples
    --------
    At seed 003's stretched pose no force balances tau = (1, 0) N m:

    >>> from armlab import statics_arm
    >>> force, residual = tip_force_from_torques(statics_arm(), [0, 0], [1, 0])
    >>> residual.round(2)
    array([-0.16,  0.37])
    """
    q, tau = joint_vectors(arm, q=q, tau=tau)
    JT = np.swapaxes(jacobian(arm, q), -1, -2)
    force = np.einsum("...aj,...j->...a", np.linalg.pinv(JT), tau)
    return force, np.einsum("...ja,...a->...j", JT, force) - tau


def singular_values(arm, q):
    """Singular values of the tip Jacobian, largest first.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    sigma : (..., min(2, n)) ndarray
        [m/rad]. ``1 / sigma`` is the force gain of ``J^{-T}`` along each
        principal direction; a zero marks a singular pose.

    Examples
    --------
    >>> from armlab import statics_arm
    >>> singular_values(statics_arm(), np.radians([0, 90])).round(4)
    array([0.6986, 0.2863])
    """
    return np.linalg.svd(jacobian(arm, q), compute_uv=False)


def force_error_bound(arm, q, torque_error):
    """Worst tip-force error from a box of joint-torque uncertainty.

    The force read from torques is ``J^{-T} tau`` (least squares for a
    redundant arm); a torque error ``dtau`` with ``|dtau_i| <= torque_error_i``
    moves it by ``J^{-T} dtau``. The largest such error lies at a corner of the
    box.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    torque_error : float or (n,) array_like
        Half-width of the torque uncertainty per joint [N m]; positive.

    Returns
    -------
    error : (...) ndarray
        Largest ``|J^{-T} dtau|`` over the corners [N]; ``inf`` where some
        tip force needs no torque and so cannot be read at all: at a singular
        pose, and always for a one-link arm (a push along the link).

    Examples
    --------
    Seed 003, +-0.5 N m, one degree from the stretched pose:

    >>> from armlab import statics_arm
    >>> force_error_bound(statics_arm(), np.radians([0, 1]), 0.5).round(0)
    np.float64(186.0)
    """
    J = jacobian(arm, q)
    bound = per_joint(arm.n, "torque_error", torque_error, positive=True)
    corners = np.array(list(itertools.product((-1.0, 1.0), repeat=arm.n))) * bound
    sigma = np.linalg.svd(J, compute_uv=False)
    # rank below 2: a singular pose, or fewer than two joints
    singular = (sigma[..., 1] <= _RANK_TOL * sigma[..., 0] if arm.n >= 2
                else np.ones(sigma.shape[:-1], bool))
    gain = np.linalg.pinv(np.swapaxes(J, -1, -2))                   # (..., 2, n)
    errors = np.linalg.norm(np.einsum("...aj,cj->...ca", gain, corners), axis=-1)
    return np.where(singular, np.inf, errors.max(axis=-1))


def max_tip_force(arm, q, direction, limit):
    """Largest push along a direction that the joint torque limits allow.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    direction : (..., 2) array_like
        Direction of the force the tip applies (any non-zero length).
    limit : float, (n,) or (2, n) array_like
        Torque limits [N m]: symmetric ``+-limit``, or minima then maxima.
        Gravity is not included: pass limits net of ``g(q)`` if it matters.

    Returns
    -------
    force : (...) ndarray
        Largest magnitude ``s >= 0`` with ``J^T (s d)`` within the limits [N];
        never negative. ``inf`` where the push needs no torque (the structure
        carries it). ``nan`` where no push ``s >= 0`` along ``d`` keeps every
        joint within its limits: this happens only for limits that exclude
        zero torque (a joint that must push at least some amount one way),
        as for limits net of a large gravity torque.

    Examples
    --------
    Seed 003, pushing along the arm one degree from stretched, 20 N m limits:

    >>> from armlab import statics_arm
    >>> max_tip_force(statics_arm(), np.radians([0, 1]), [1, 0], 20).round(0)
    np.float64(2865.0)
    """
    q = joint_vector(arm, "q", q)
    d = planar_vector("direction", direction)
    batch_shape(q=q, direction=d)
    J = jacobian(arm, q)
    length = np.linalg.norm(d, axis=-1, keepdims=True)
    if np.any(length == 0):
        raise ValueError("direction must be a non-zero vector")
    low, high = torque_bounds(arm.n, limit)
    t = np.einsum("...aj,...a->...j", J, d / length)
    tol = _RANK_TOL * sum(arm.lengths)
    # per joint, the pushes s with low <= s t <= high form the interval [lo_s, hi_s]
    zero_ok = (low <= 0) & (high >= 0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        hi_s = np.where(t > tol, high / t, np.where(t < -tol, low / t,
                                                    np.where(zero_ok, np.inf, -np.inf)))
        lo_s = np.where(t > tol, low / t, np.where(t < -tol, high / t,
                                                   np.where(zero_ok, -np.inf, np.inf)))
    largest = hi_s.min(axis=-1)
    feasible = (largest >= 0) & (largest >= lo_s.max(axis=-1))
    return np.where(feasible, largest, np.nan)


def force_ellipse(arm, q, torque=1.0):
    """The ellipse of tip forces that joint torques of a given size hold.

    With ``J = U S V^T``, ``|J^T F|^2 = sum_i sigma_i^2 (u_i . F)^2``, so the
    forces with ``|J^T F| <= torque`` (Euclidean norm of the torque vector)
    fill an ellipse with half-axes ``torque / sigma_i`` along ``u_i``: the
    velocity ellipse's axes, with their lengths inverted (the duality of
    velocity and force).

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    torque : float
        Size of the joint torque vector [N m]; positive.

    Returns
    -------
    half_lengths : (..., 2) ndarray
        The half-axes [N], largest first; ``inf`` along a direction that the
        structure carries (a singular pose).
    directions : (..., 2, 2) ndarray
        Their unit directions, as columns, in the world frame.

    Examples
    --------
    Seed 003's arm at q2 = 90 degrees, torques of size 1 N m:

    >>> from armlab import statics_arm
    >>> half, _ = force_ellipse(statics_arm(), np.radians([0, 90]), 1.0)
    >>> half.round(3)
    array([3.493, 1.431])
    """
    size = positive_scalar("torque", torque, "N m")
    sigma, U = _principal_axes(arm, q)
    carried = sigma <= _RANK_TOL * sigma[..., :1]
    with np.errstate(divide="ignore"):
        half = np.where(carried, np.inf, size / np.where(carried, 1.0, sigma))
    # The smallest singular value gives the longest force axis: reverse.
    return half[..., ::-1], U[..., ::-1]


def force_polygon(arm, q, limit):
    """Corners of the set of tip forces that per-joint torque limits can hold.

    Each joint's torque lies in ``[low_j, high_j]``: a box of torques. For a
    two-joint arm away from a singular pose, ``F = J^{-T} tau`` maps the box
    onto a parallelogram of tip forces, corner to corner. At a corner both
    joints are at a limit, so the largest push in any direction, and the
    largest push along a direction that loads both joints alike, end there.

    Parameters
    ----------
    arm : PlanarArm
        Two joints.
    q : (..., 2) array_like
        Joint angles [rad].
    limit : float, (2,) or (2, 2) array_like
        Torque limits [N m]: symmetric ``+-limit``, or minima then maxima
        (for instance the limits less the gravity torques ``g(q)``).

    Returns
    -------
    corners : (..., 4, 2) ndarray
        [N], the images of the torque corners (low, low), (high, low),
        (high, high), (low, high) in that order, so that consecutive corners
        share an edge. ``inf`` at a singular pose, where the set is an
        unbounded strip.

    Examples
    --------
    Seed 003's arm at q = (0, 90 deg), +-20 N m: the push along x at the
    first corner is the 50 N the statics chapter reports.

    >>> from armlab import statics_arm
    >>> force_polygon(statics_arm(), np.radians([0, 90]), 20).round(4) + 0.0
    array([[ 50.,   0.],
           [ 50.,  80.],
           [-50.,   0.],
           [-50., -80.]])
    """
    if arm.n != 2:
        raise ValueError(f"arm has {arm.n} joints: force_polygon needs a two-joint arm, "
                         "whose torque box maps onto a parallelogram")
    J = jacobian(arm, q)
    low, high = torque_bounds(arm.n, limit)
    box = np.array([[low[0], low[1]], [high[0], low[1]], [high[0], high[1]], [low[0], high[1]]])
    det = J[..., 0, 0] * J[..., 1, 1] - J[..., 0, 1] * J[..., 1, 0]
    singular = np.abs(det) <= _RANK_TOL * sum(arm.lengths) ** 2
    # J^T F = tau  <=>  F = adj(J^T) tau / det J, written out for 2 x 2.
    adj = np.stack([np.stack([J[..., 1, 1], -J[..., 1, 0]], axis=-1),
                    np.stack([-J[..., 0, 1], J[..., 0, 0]], axis=-1)], axis=-2)
    safe = np.where(singular, 1.0, det)[..., None, None]
    corners = np.einsum("...aj,cj->...ca", adj, box) / safe
    return np.where(singular[..., None, None], np.inf, corners)


def virtual_work_check(arm, q, tip_force, direction, eps):
    """Compare joint work and tip work over finite joint displacements.

    The arm moves from ``q`` to ``q + eps * u`` (``u`` the unit ``direction``)
    through the exact kinematics. The joint work ``tau^T (eps u)`` with
    ``tau = J^T F`` and the tip work ``F^T (p(q + eps u) - p(q))`` agree to
    first order in ``eps``.

    Parameters
    ----------
    arm : PlanarArm
    q : (n,) array_like
        Joint angles [rad].
    tip_force : (2,) array_like
        Force the tip applies [N].
    direction : (n,) array_like
        Joint-space direction, normalised here.
    eps : (k,) array_like
        Displacement sizes [rad].

    Returns
    -------
    joint_work, tip_work, relative : (k,) ndarray
        The two works [J] and ``(joint_work - tip_work) / joint_work``.

    Raises
    ------
    ValueError
        Also when ``tau . u`` is zero (no force, or a direction that does no
        work), where the relative difference is undefined.

    Examples
    --------
    Seed 003's wall push with the direction ``default_rng(0).standard_normal(2)``:

    >>> from armlab import statics_arm
    >>> u = np.random.default_rng(0).standard_normal(2)
    >>> w_joint, w_tip, rel = virtual_work_check(
    ...     statics_arm(), np.radians([30, 60]), [10, 0], u, [1e-1, 1e-4])
    >>> rel.round(6)
    array([-6.4089e-02, -6.5000e-05])
    """
    q = joint_vector(arm, "q", q)
    u = joint_vector(arm, "direction", direction)
    if q.ndim != 1 or u.ndim != 1:
        raise ValueError("q and direction must each be one state of shape (n,)")
    norm = np.linalg.norm(u)
    if norm == 0:
        raise ValueError("direction must be a non-zero vector")
    u = u / norm
    eps = finite_array("eps", eps)
    if eps.ndim != 1 or np.any(eps <= 0):
        raise ValueError(f"eps must be a 1-D array of positive sizes, got {eps!r}")
    force = planar_vector("tip_force", tip_force)
    tau = static_torques(arm, q, force)
    joint_work = eps * (tau @ u)
    if tau @ u == 0:
        raise ValueError(f"the joint work tau . direction is zero (tau = {tau.tolist()}): "
                         "the relative difference is undefined; choose another direction "
                         "or a non-zero tip_force")
    moved = tip_position(arm, q + eps[:, None] * u)
    tip_work = (moved - tip_position(arm, q)) @ force
    return joint_work, tip_work, (joint_work - tip_work) / joint_work
