"""Statics: tip forces and the joint torques that hold them, ``tau = J(q)^T F``.

``F`` (``tip_force``) is always the force the arm's tip applies to the
environment. A library that reports the force the environment applies to the
arm needs ``-F``. Gravity is not included here; add :func:`gravity_torques`
(except in :func:`joint_reactions`, which balances every link's free body,
weight included unless told otherwise).
"""

import itertools

import numpy as np

from armlab._checks import (batch_shape, finite_array, joint_vector, joint_vectors, per_joint,
                            planar_vector, positive_scalar, torque_bounds)
from armlab.kinematics import _com_positions, _frames, jacobian, tip_position
from armlab.manipulability import _principal_axes

__all__ = [
    "static_torques", "tip_force_from_torques", "singular_values", "force_error_bound",
    "max_tip_force", "force_ellipse", "force_polygon", "virtual_work_check", "joint_reactions",
    "cartesian_stiffness",
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
    The statics chapter's arm pushing a wall with 10 N at q = (30 deg, 60 deg):

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
    At the statics chapter's stretched pose no force balances tau = (1, 0) N m:

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
    The statics chapter's arm, +-0.5 N m, one degree from the stretched pose:

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
    The statics chapter's arm pushing along itself one degree from stretched, 20 N m limits:

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
    The statics chapter's arm at q2 = 90 degrees, torques of size 1 N m:

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
    The statics chapter's arm at q = (0, 90 deg), +-20 N m: the push along x
    at the first corner is the 50 N the chapter reports.

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
    The statics chapter's wall push, moved along the direction that
    ``np.random.default_rng(0).standard_normal(2)`` draws:

    >>> from armlab import statics_arm
    >>> u = np.random.default_rng(0).standard_normal(2)
    >>> w_joint, w_tip, rel = virtual_work_check(
    ...     statics_arm(), np.radians([30, 60]), [10, 0], u, [1e-1, 1e-4])
    >>> [f"{r:.4e}" for r in rel]
    ['-6.4089e-02', '-6.4975e-05']
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


def _cross(r, f):
    """z-component of the planar cross product ``r x f`` over the last axis."""
    return r[..., 0] * f[..., 1] - r[..., 1] * f[..., 0]


def joint_reactions(arm, q, tip_force=None, *, gravity=True):
    """The force and moment each joint passes on, by balancing the links from the tip inwards.

    Cut the arm at every joint. Link ``j``'s free body carries three loads:
    the force ``f_j`` and moment ``n_j`` that the link before it (the base,
    for the first link) applies at joint ``j``; the opposite of those it
    applies to the next link at joint ``j + 1`` (for the last link, ``-F``
    from the environment at the tip, since the tip applies ``F``); and its
    weight ``m_j a_g`` at its centre of mass ``c_j``. Rest needs the forces and
    the moments about joint ``j`` to sum to zero:

        f_j = f_{j+1} - m_j a_g,
        n_j = n_{j+1} + (p_{j+1} - p_j) x f_{j+1} - (c_j - p_j) x m_j a_g,

    with ``f_{n+1} = F`` and ``n_{n+1} = 0``. The moment ``n_j`` (about the
    joint's axis, normal to the plane) is what the motor at joint ``j`` holds:
    ``g(q) + J^T F``. The force ``f_j`` is what the joint's bearing carries:
    the part of the load that ``tau = J^T F`` leaves out.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment, world frame [N]; default 0.
    gravity : bool, optional
        Include the links' weights (``arm.gravity``); default True.

    Returns
    -------
    force : (..., n, 2) ndarray
        ``force[..., j, :]``: the force that link ``j - 1`` (the base, for
        ``j = 0``) applies to link ``j`` at joint ``j``, world frame [N]. Link
        ``j`` applies the opposite force to link ``j - 1``.
    moment : (..., n) ndarray
        The moment about joint ``j``'s axis that link ``j - 1`` (the motor)
        applies to link ``j`` [N m]: the joint torque that holds the arm at rest.

    Examples
    --------
    The statics chapter's wall push, F = (10, 0) N at q = (30, 60) deg, without
    gravity: every joint carries the whole push, and the moments are J^T F.

    >>> from armlab import statics_arm
    >>> force, moment = joint_reactions(statics_arm(), np.radians([30, 60]), [10, 0],
    ...                                 gravity=False)
    >>> force.round(4) + 0.0, moment.round(4)
    (array([[10.,  0.],
           [10.,  0.]]), array([-6.5, -4. ]))

    With gravity the shoulder also holds up both links, (3 + 2) kg x 9.81 m/s^2:

    >>> force, moment = joint_reactions(statics_arm(), np.radians([30, 60]), [10, 0])
    >>> force.round(4) + 0.0, moment.round(4)
    (array([[10.  , 49.05],
           [10.  , 19.62]]), array([ 8.3675, -4.    ]))
    """
    q = joint_vector(arm, "q", q)
    load = np.zeros(2) if tip_force is None else planar_vector("tip_force", tip_force)
    batch = batch_shape(q=q, tip_force=load)
    if not isinstance(gravity, (bool, np.bool_)):
        raise ValueError(f"gravity must be True or False, got {gravity!r}")
    p, e = _frames(arm, q)                                   # (..., n+1, 2), (..., n, 2)
    c = _com_positions(arm, p, e)                            # (..., n, 2)
    weight = (np.asarray(arm.masses)[:, None] * np.asarray(arm.gravity) if gravity
              else np.zeros((arm.n, 2)))                     # (n, 2) [N]
    force = np.empty(batch + (arm.n, 2))
    moment = np.empty(batch + (arm.n,))
    f_next = np.broadcast_to(load, batch + (2,))             # what link j passes on
    n_next = np.zeros(batch)
    for j in range(arm.n - 1, -1, -1):                       # from the tip inwards
        f_j = f_next - weight[j]
        n_j = (n_next + _cross(p[..., j + 1, :] - p[..., j, :], f_next)
               - _cross(c[..., j, :] - p[..., j, :], weight[j]))
        force[..., j, :], moment[..., j] = f_j, n_j
        f_next, n_next = f_j, n_j
    return force + 0.0, moment + 0.0


def cartesian_stiffness(arm, q, joint_stiffness):
    """The stiffness the tip feels when the joints are springs: ``K_x = J^{-T} K_q J^{-1}``.

    Joint springs ``tau = -K_q (q - q0)``, unloaded at ``q0`` (or a controller
    that acts as such springs at rest, like a PD with exact gravity
    compensation): a small tip displacement ``dx = J dq`` makes the tip push
    back with ``F = -K_x dx`` to first order (``F`` the force the tip
    applies). For any number of joints ``K_x`` is the inverse of the
    compliance ``J K_q^{-1} J^T``, which for two joints is
    ``J^{-T} K_q J^{-1}``. With ``K_q = k I`` the principal stiffnesses are
    ``k / sigma_i^2`` along the velocity ellipse's axes ``u_i``: the tip is
    stiffest where it moves slowest. Springs that already hold a tip force
    ``F0`` at ``q0`` (the force the tip applies there) add the term
    ``d(J^T F0)/dq`` (``F0`` held fixed) to ``K_q``, which this function leaves
    out: the lever arms change as the arm moves.

    Parameters
    ----------
    arm : PlanarArm
        Two joints or more.
    q : (..., n) array_like
        Joint angles [rad]; not singular.
    joint_stiffness : float, (n,) or (n, n) array_like
        ``K_q`` [N m/rad]: one stiffness for every joint, one per joint
        (a diagonal matrix), or a symmetric positive definite matrix.

    Returns
    -------
    K_x : (..., 2, 2) ndarray
        Symmetric positive definite [N/m], world frame.

    Raises
    ------
    ValueError
        At a singular pose (``sigma_2 <= 1e-12 sigma_1``), where the tip is
        rigid along the lost direction and ``K_x`` is unbounded (the compliance
        ``J K_q^{-1} J^T`` is finite there, and singular); for an arm with one
        joint; and for a ``joint_stiffness`` that is not positive (definite).

    Examples
    --------
    The gravity chapter's PD gains, Kp = (60, 30) N m/rad, holding the table-top
    arm at q = (30, 45) deg with gravity compensated, act as joint springs:

    >>> from armlab import tabletop_arm
    >>> cartesian_stiffness(tabletop_arm(), np.radians([30, 45]), [60, 30]).round(1)
    array([[1212.6, 1688.4],
           [1688.4, 2878.8]])
    """
    q = joint_vector(arm, "q", q)
    K = finite_array("joint_stiffness", joint_stiffness)
    n = arm.n
    if n < 2:
        raise ValueError("arm has 1 joint: its tip cannot move along the link, so it has "
                         "no 2 x 2 Cartesian stiffness")
    if K.ndim <= 1:
        K = np.diag(per_joint(n, "joint_stiffness", K, positive=True))
    elif K.shape != (n, n):
        raise ValueError(f"joint_stiffness has shape {K.shape}: expected a scalar, "
                         f"shape ({n},) or ({n}, {n}) [N m/rad]")
    elif not np.array_equal(K, K.T) or np.linalg.eigvalsh(K)[0] <= 0:
        raise ValueError("joint_stiffness must be a symmetric positive definite matrix, "
                         f"got {K.tolist()}")
    J = jacobian(arm, q)
    sigma = np.linalg.svd(J, compute_uv=False)
    if np.any(sigma[..., 1] <= _RANK_TOL * sigma[..., 0]):
        raise ValueError("q: a singular pose, where the tip is rigid along the direction it "
                         "cannot move and the Cartesian stiffness is unbounded; the compliance "
                         "J K_q^-1 J^T is finite there")
    compliance = J @ np.linalg.solve(K, np.swapaxes(J, -1, -2))   # J K_q^-1 J^T [m/N]
    stiffness = np.linalg.inv(compliance)
    return (stiffness + np.swapaxes(stiffness, -1, -2)) / 2      # symmetric to rounding
