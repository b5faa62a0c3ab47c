"""Statics: tau = J^T F from virtual work, the way back, singular values, limits."""

import numpy as np
import pytest
from arm_strategies import arm_and_state, arms
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import armlab as al

PROPS = settings(max_examples=100, deadline=None)


@PROPS
@given(arm_and_state())
def test_joint_torques_equal_finite_difference_virtual_work(case):
    """tau_j = d(F . p)/dq_j, by central differences of the tip's work."""
    arm, q, _, _, _, F = case
    h = 1e-6
    grad = [(al.tip_position(arm, q + h * e) - al.tip_position(arm, q - h * e)) @ F / (2 * h)
            for e in np.eye(arm.n)]
    np.testing.assert_allclose(al.static_torques(arm, q, F), grad,
                               atol=1e-7 * (1 + np.abs(F).max()))


@PROPS
@given(arm_and_state(min_links=2, max_links=2))
def test_force_from_torques_round_trip(case):
    arm, q, _, _, _, F = case
    sigma = al.singular_values(arm, q)
    assume(sigma[1] >= 1e-3 * sigma[0])           # too near a singularity to invert cleanly
    tau = al.static_torques(arm, q, F)
    force, residual = al.tip_force_from_torques(arm, q, tau)
    np.testing.assert_allclose(force, F, atol=1e-9 * (1 + np.abs(F).max()) * sigma[0] / sigma[1])
    np.testing.assert_allclose(residual, 0, atol=1e-9 * (1 + np.abs(tau).max()))


@PROPS
@given(arm_and_state(min_links=3))
def test_redundant_arm_residual_is_orthogonal_to_the_range(case):
    """For n > 2 the residual J^T F - tau is perpendicular to every J^T G."""
    arm, q, _, _, tau, _ = case
    force, residual = al.tip_force_from_torques(arm, q, tau)
    J = al.jacobian(arm, q)
    sigma = al.singular_values(arm, q)
    cond = sigma[0] / max(sigma[1], 1e-300)         # near a singularity, only as good as this
    np.testing.assert_allclose(J @ residual, 0, atol=1e-12 * (1 + np.abs(tau).max()) * cond)


@PROPS
@given(arm_and_state())
def test_singular_values_are_those_of_the_jacobian(case):
    arm, q, *_ = case
    sigma = al.singular_values(arm, q)
    assert sigma.shape == (min(2, arm.n),)
    assert np.all(np.diff(sigma) <= 0) and np.all(sigma >= 0)
    np.testing.assert_allclose(sigma, np.linalg.svd(al.jacobian(arm, q), compute_uv=False))


@PROPS
@given(arm_and_state(min_links=2, max_links=2), st.floats(0.1, 50.0), st.floats(0.01, 2.0))
def test_max_tip_force_reaches_exactly_one_limit(case, limit, err):
    arm, q, _, _, _, d = case
    assume(np.linalg.norm(d) >= 1e-6)
    s = al.max_tip_force(arm, q, d, limit)
    u = d / np.linalg.norm(d)
    t = al.static_torques(arm, q, u)
    if np.isinf(s):
        np.testing.assert_allclose(t, 0, atol=1e-9)
    else:
        tau = s * t
        assert np.all(np.abs(tau) <= limit * (1 + 1e-12))
        np.testing.assert_allclose(np.abs(tau).max(), limit, rtol=1e-12)


@PROPS
@given(arm_and_state(min_links=2, max_links=2), st.floats(0.01, 2.0))
def test_force_error_bound_is_the_worst_corner(case, err):
    arm, q, *_ = case
    bound = al.force_error_bound(arm, q, err)
    sigma = al.singular_values(arm, q)
    assert np.isinf(bound) == (sigma[1] <= 1e-12 * sigma[0])   # inf exactly where singular
    assume(np.isfinite(bound))
    gain = np.linalg.inv(al.jacobian(arm, q).T)
    rtol = 1e-12 * sigma[0] / sigma[1]                # J^-T is only as good as its conditioning
    rng = np.random.default_rng(0)
    inside = rng.uniform(-err, err, (200, 2))
    assert np.all(np.linalg.norm(inside @ gain.T, axis=1) <= bound * (1 + rtol))
    corners = np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]]) * err
    np.testing.assert_allclose(np.linalg.norm(corners @ gain.T, axis=1).max(), bound, rtol=rtol)


def test_virtual_work_converges_to_first_order():
    arm = al.statics_arm()
    eps = np.logspace(-1, -5, 5)
    joint, tip, rel = al.virtual_work_check(arm, np.radians([20, 70]), [3, -4], [1, 2], eps)
    ratios = rel[:-1] / rel[1:]
    np.testing.assert_allclose(ratios, 10, rtol=0.05)          # error proportional to eps


@settings(max_examples=20, deadline=None)
@given(arms(), st.integers(0, 2**32 - 1))
def test_batch_equals_loop(arm, seed):
    rng = np.random.default_rng(seed)
    n = arm.n
    q, tau = rng.uniform(-3, 3, (3, 2, n)), rng.uniform(-3, 3, (3, 2, n))
    F = rng.uniform(-5, 5, (3, 2, 2))
    calls = [
        (al.static_torques, (q, F)),
        (al.tip_force_from_torques, (q, tau)),
        (al.singular_values, (q,)),
        (al.force_error_bound, (q, 0.5)),
        (al.max_tip_force, (q, F, 20.0)),
    ]
    for fn, args in calls:
        whole = fn(arm, *args)
        for idx in np.ndindex(3, 2):
            one = fn(arm, *(a[idx] if isinstance(a, np.ndarray) else a for a in args))
            if isinstance(one, tuple):
                for w, o in zip(whole, one):
                    np.testing.assert_allclose(w[idx], o, atol=1e-12)
            else:
                np.testing.assert_allclose(whole[idx], one, atol=1e-12)


# -- the force ellipse and the per-joint torque box's parallelogram ------------------------------

@PROPS
@given(arm_and_state(min_links=2, max_links=2))
def test_force_ellipse_axes_need_the_given_torque(case):
    """At the end of each half-axis, |J^T F| equals the torque size; the axes are the velocity
    ellipse's directions with inverted lengths (duality)"""
    arm, q, *_ = case
    half, dirs = al.force_ellipse(arm, q, torque=3.0)
    v_half, v_dirs = al.velocity_ellipse(arm, q)
    assume(v_half[1] >= 1e-6 * v_half[0])
    np.testing.assert_allclose(half, 3.0 / v_half[::-1])
    np.testing.assert_allclose(np.abs(dirs), np.abs(v_dirs[:, ::-1]), atol=1e-12)
    for k in range(2):
        np.testing.assert_allclose(np.linalg.norm(al.static_torques(arm, q, half[k] * dirs[:, k])),
                                   3.0, rtol=1e-9)


def test_force_ellipse_is_unbounded_along_the_carried_direction():
    half, dirs = al.force_ellipse(al.statics_arm(), [[0.0, 0.0], [0.0, np.pi / 2]])
    assert np.isinf(half[0, 0]) and np.isfinite(half[0, 1]) and np.isfinite(half[1]).all()
    np.testing.assert_allclose(np.abs(dirs[0, :, 0]), [1.0, 0.0], atol=1e-12)


@PROPS
@given(arm_and_state(min_links=2, max_links=2),
       st.tuples(st.floats(0.5, 30), st.floats(0.5, 30), st.floats(-20, 20), st.floats(-20, 20)))
def test_force_polygon_corners_map_to_the_torque_box(case, box):
    """J^T of each corner is a corner of the torque box, in order, and max_tip_force along any
    direction ends on the parallelogram's boundary (an independent route: ray against slabs)"""
    arm, q, *_ = case
    w1, w2, c1, c2 = box
    limit = np.array([[c1 - w1, c2 - w2], [c1 + w1, c2 + w2]])
    assume(al.manipulability(arm, q) >= 1e-3 * sum(arm.lengths) ** 2)
    corners = al.force_polygon(arm, q, limit)
    (lo1, lo2), (hi1, hi2) = limit
    np.testing.assert_allclose(al.static_torques(arm, q, corners),
                               [[lo1, lo2], [hi1, lo2], [hi1, hi2], [lo1, hi2]],
                               atol=1e-8 * (1 + np.abs(limit).max()))
    if c1 - w1 < 0 < c1 + w1 and c2 - w2 < 0 < c2 + w2:        # F = 0 inside: rays leave it
        for angle in np.linspace(0, 2 * np.pi, 13):
            d = np.array([np.cos(angle), np.sin(angle)])
            end = al.max_tip_force(arm, q, d, limit) * d
            assert _on_parallelogram(end, corners)


def _on_parallelogram(point, corners, tol=1e-7):
    """The point lies on an edge of the parallelogram (between two consecutive corners)."""
    scale = 1 + np.abs(corners).max()
    for a, b in zip(corners, np.roll(corners, -1, axis=0)):
        ab, ap = b - a, point - a
        t = ap @ ab / (ab @ ab)
        if -tol <= t <= 1 + tol and np.linalg.norm(ap - t * ab) <= tol * scale:
            return True
    return False


def test_force_polygon_largest_pushes_along_the_arm():
    """At q1 = 0, J^T (1, 0) = -L2 sin q2 (1, 1): both joints reach -20 N m together, so the largest
    push along x (the statics case's table: 2865, 574, 100, 50 N) is the polygon's first corner"""
    arm = al.statics_arm()
    q2 = np.radians([1, 5, 30, 90])
    poses = np.stack([np.zeros(4), q2], axis=-1)
    corners = al.force_polygon(arm, poses, 20.0)
    np.testing.assert_allclose(corners[:, 0, 1], 0, atol=1e-9)
    np.testing.assert_allclose(corners[:, 0, 0], al.max_tip_force(arm, poses, [1, 0], 20.0))
    assert corners[:, 0, 0].round(0).tolist() == [2865, 574, 100, 50]
    assert np.isinf(al.force_polygon(arm, [0.0, 0.0], 20.0)).all()


def test_force_polygon_needs_two_joints():
    arm3 = al.PlanarArm(lengths=(1, 1, 1), masses=(1, 1, 1))
    with pytest.raises(ValueError, match="two-joint"):
        al.force_polygon(arm3, [0, 1, 1], 20)
    with pytest.raises(ValueError, match="limit"):
        al.force_polygon(al.statics_arm(), [0, 1], -5)


# ----------------------------------------------------------------------------- traps at the edges

def test_max_tip_force_is_never_negative_when_the_limits_exclude_zero():
    """Limits [1, 2] N m at both joints (a net-of-gravity window without zero): pulling
    along -x at (30, 60) deg needs tau = s (-0.65, -0.4), outside the window for every
    s >= 0, so no push is possible (nan, not -1.54); along +x the window allows s in
    [1 / 0.4, 2 / 0.65] and the largest is 2 / 0.65."""
    arm, q = al.statics_arm(), np.radians([30, 60])
    window = [[1.0, 1.0], [2.0, 2.0]]
    assert np.isnan(al.max_tip_force(arm, q, [1, 0], window))
    assert al.max_tip_force(arm, q, [-1, 0], window) == 2 / 0.65
    s = al.max_tip_force(al.tabletop_arm(), [0.3, 0.4], [1.0, 0.0], window)
    assert np.isnan(s)                                      # it returned -6.2 before


@PROPS
@given(arm_and_state(), st.floats(-5.0, 5.0), st.floats(0.1, 5.0))
def test_max_tip_force_is_the_largest_push_inside_any_window(case, low, width):
    """For any window [low, low + width] per joint: the answer is never negative; a finite
    answer s keeps every joint inside with one of them on its bound; nan only when no s >= 0
    on a fine grid stays inside."""
    arm, q, _, _, _, d = case
    assume(np.linalg.norm(d) >= 1e-6)
    bounds = np.array([np.full(arm.n, low), np.full(arm.n, low + width)])
    s = al.max_tip_force(arm, q, d, bounds)
    t = al.static_torques(arm, q, d / np.linalg.norm(d))

    def inside(x, slack=1e-9):
        """Per push in ``x`` (a number or a (k, 1) column): every joint within its bounds."""
        return np.all((bounds[0] - slack <= x * t) & (x * t <= bounds[1] + slack), axis=-1)

    if np.isnan(s):
        assert not inside(np.linspace(0, 1e4, 20001)[:, None], 0.0).any()
    elif np.isfinite(s):
        assert s >= 0 and inside(s)
        # no larger push fits: some joint that the push loads sits on its bound
        bound = np.where(t > 0, bounds[1], bounds[0])
        at_bound = np.isclose(s * t, bound, rtol=1e-9, atol=1e-9) & (np.abs(t) > 1e-12)
        assert at_bound.any()


def test_one_link_arm_cannot_read_a_push_along_its_link():
    """A one-link arm's torque says nothing about a force along the link, so the
    force-error bound is inf at every pose (it was finite: J has one singular value)."""
    arm = al.PlanarArm([1.0], [1.0])
    q = np.array([[0.0], [0.7], [-2.0]])
    assert np.isinf(al.force_error_bound(arm, q, 0.5)).all()
    assert al.max_tip_force(arm, [0.7], [np.cos(0.7), np.sin(0.7)], 2.0) == np.inf


# -- reaction forces by link-by-link propagation ------------------------------------------------

def cross(r, f):
    return r[..., 0] * f[..., 1] - r[..., 1] * f[..., 0]


@PROPS
@given(arm_and_state())
def test_reaction_moments_are_the_holding_torques(case):
    """The moment each joint passes on is g(q) + J^T F, computed by two other functions"""
    arm, q, _, _, _, F = case
    force, moment = al.joint_reactions(arm, q, F)
    scale = 1 + np.abs(F).max() + np.abs(al.gravity_torques(arm, q)).max()
    np.testing.assert_allclose(moment, al.gravity_torques(arm, q) + al.static_torques(arm, q, F),
                               atol=1e-12 * scale)
    _, contact = al.joint_reactions(arm, q, F, gravity=False)
    np.testing.assert_allclose(contact, al.static_torques(arm, q, F), atol=1e-12 * scale)


@PROPS
@given(arm_and_state())
def test_every_link_balances(case):
    """Each link's free body: the force from the link before, minus the force it passes on (the
    environment's -F at the tip), plus its weight sum to zero, and so do their moments about the
    world's origin (a point that is none of the joints)"""
    arm, q, _, _, _, F = case
    force, moment = al.joint_reactions(arm, q, F)
    p = al.joint_positions(arm, q)
    c = al.com_positions(arm, q)
    weight = np.array(arm.masses)[:, None] * np.array(arm.gravity)
    passed = np.vstack([force[1:], F])                    # what each link applies to the next
    passed_moment = np.append(moment[1:], 0.0)
    scale = 1 + np.abs(F).max() + np.abs(weight).max() * arm.n
    np.testing.assert_allclose(force - passed + weight, 0, atol=1e-12 * scale)
    about_origin = (moment - passed_moment + cross(p[:-1], force) - cross(p[1:], passed)
                    + cross(c, weight))
    np.testing.assert_allclose(about_origin, 0, atol=1e-12 * scale * (1 + sum(arm.lengths)))


def test_stretched_push_loads_the_bearings_not_the_motors():
    """The statics arm stretched along x pushing 100 N along itself: no joint torque, and both
    joints carry the whole 100 N (gravity off)"""
    force, moment = al.joint_reactions(al.statics_arm(), [0.0, 0.0], [100.0, 0.0], gravity=False)
    np.testing.assert_array_equal(moment, [0.0, 0.0])
    np.testing.assert_array_equal(force, [[100.0, 0.0], [100.0, 0.0]])


@settings(max_examples=20, deadline=None)
@given(arms(), st.integers(0, 2**32 - 1))
def test_reactions_batch_equals_loop(arm, seed):
    rng = np.random.default_rng(seed)
    q, F = rng.uniform(-3, 3, (3, 2, arm.n)), rng.uniform(-5, 5, (3, 2, 2))
    force, moment = al.joint_reactions(arm, q, F)
    for idx in np.ndindex(3, 2):
        one_force, one_moment = al.joint_reactions(arm, q[idx], F[idx])
        np.testing.assert_array_equal(force[idx], one_force)
        np.testing.assert_array_equal(moment[idx], one_moment)
    no_force = al.joint_reactions(arm, q)
    np.testing.assert_array_equal(no_force[0], al.joint_reactions(arm, q, np.zeros(2))[0])


def test_reactions_bad_input():
    arm = al.statics_arm()
    with pytest.raises(ValueError, match="gravity must be True or False"):
        al.joint_reactions(arm, [0, 0], [1, 0], gravity="on")
    with pytest.raises(ValueError, match="tip_force has shape"):
        al.joint_reactions(arm, [0, 0], [1, 0, 0])
    with pytest.raises(ValueError, match="batch dimensions"):
        al.joint_reactions(arm, np.zeros((3, 2)), np.zeros((4, 2)))


# -- the Cartesian stiffness of joint springs ---------------------------------------------------

def restoring_force(arm, q0, K_q, dx):
    """The force the tip applies when joint springs K_q, unloaded at q0, hold it displaced by dx:
    the pose from inverse kinematics (same elbow), the spring torques, F = J^-T tau."""
    elbow = "down" if np.sin(q0[1]) > 0 else "up"
    q = al.inverse_kinematics(arm, al.tip_position(arm, q0) + dx, elbow=elbow)
    tau = -K_q @ (np.angle(np.exp(1j * (q - q0))))            # springs pull back to q0
    return np.linalg.solve(al.jacobian(arm, q).T, tau)


@PROPS
@given(arm_and_state(min_links=2, max_links=2), st.floats(1.0, 100.0), st.floats(1.0, 100.0),
       st.floats(-0.9, 0.9))
def test_cartesian_stiffness_is_the_derivative_of_the_restoring_force(case, k1, k2, coupling):
    """-dF/dx by central differences of the exact restoring force (inverse kinematics, spring
    torques, J^-T) is K_x, for a diagonal and for a coupled joint stiffness"""
    arm, q0, *_ = case
    kappa = al.condition_number(arm, q0)
    assume(kappa < 50)
    r = np.linalg.norm(al.tip_position(arm, q0))
    r_min, r_max = al.reach(arm)
    h = 1e-7 * sum(arm.lengths)
    assume(r - r_min > 1e3 * h and r_max - r > 1e3 * h)
    K_q = np.array([[k1, coupling * np.sqrt(k1 * k2)], [coupling * np.sqrt(k1 * k2), k2]])
    K_x = al.cartesian_stiffness(arm, q0, K_q)
    fd = -np.column_stack([(restoring_force(arm, q0, K_q, h * e)
                            - restoring_force(arm, q0, K_q, -h * e)) / (2 * h)
                           for e in np.eye(2)])
    np.testing.assert_allclose(fd, K_x, rtol=0, atol=1e-7 * kappa**2 * np.abs(K_x).max())
    np.testing.assert_array_equal(K_x, K_x.T)
    assert np.linalg.eigvalsh(K_x)[0] > 0


@PROPS
@given(arm_and_state(min_links=2, max_links=6), st.floats(1.0, 100.0))
def test_cartesian_stiffness_inverts_the_compliance(case, k):
    """K_x J K_q^-1 J^T = I for any number of joints; for two joints K_x = J^-T K_q J^-1 and with
    K_q = k I its eigenvalues are k / sigma_i^2"""
    arm, q, *_ = case
    sigma = al.singular_values(arm, q)
    assume(sigma[1] > 1e-3 * sigma[0])
    K_q = k * np.diag(np.arange(1, arm.n + 1))
    K_x = al.cartesian_stiffness(arm, q, np.diag(K_q))
    J = al.jacobian(arm, q)
    cond = (sigma[0] / sigma[1]) ** 2 * arm.n
    np.testing.assert_allclose(K_x @ J @ np.linalg.inv(K_q) @ J.T, np.eye(2), atol=1e-12 * cond)
    if arm.n == 2:
        J_inv = np.linalg.inv(J)
        np.testing.assert_allclose(K_x, J_inv.T @ K_q @ J_inv, rtol=1e-10 * cond,
                                   atol=1e-10 * cond * np.abs(K_x).max())
    K_same = al.cartesian_stiffness(arm, q, k)
    np.testing.assert_allclose(np.linalg.eigvalsh(K_same), np.sort(k / sigma**2), rtol=1e-9 * cond)


def test_cartesian_stiffness_refuses_singular_poses_and_bad_stiffness():
    arm = al.statics_arm()
    with pytest.raises(ValueError, match="q: a singular pose"):
        al.cartesian_stiffness(arm, [[0.0, 0.5], [0.3, 0.0]], 10.0)
    for bad, match in [(0.0, "positive"), ([1.0, -1.0], "positive"), ([1.0, 2.0, 3.0], "shape"),
                       ([[1.0, 2.0], [0.0, 1.0]], "symmetric positive definite"),
                       ([[1.0, 2.0], [2.0, 1.0]], "symmetric positive definite")]:
        with pytest.raises(ValueError, match=match):
            al.cartesian_stiffness(arm, [0.0, 1.0], bad)
    with pytest.raises(ValueError, match="arm has 1 joint"):
        al.cartesian_stiffness(al.PlanarArm([1.0], [1.0]), [0.3], 1.0)


def test_cartesian_stiffness_batch_equals_loop():
    arm = al.tabletop_arm()
    q = np.random.default_rng(2).uniform(0.2, 2.8, (3, 2, 2))
    whole = al.cartesian_stiffness(arm, q, [60.0, 30.0])
    for idx in np.ndindex(3, 2):
        np.testing.assert_array_equal(whole[idx], al.cartesian_stiffness(arm, q[idx], [60.0, 30.0]))


def test_a_held_load_adds_the_geometric_term():
    """Springs that already hold a tip force F0 (their rest pose elsewhere) stiffen the tip by
    J^-T d(J^T F0)/dq J^-1 on top of cartesian_stiffness, which leaves that term out: finite
    differences of the exact restoring force see it"""
    arm, q0 = al.tabletop_arm(), np.radians([30, 45])
    K_q, rest = np.diag([60.0, 30.0]), np.radians([20, 50])
    tip0 = al.tip_position(arm, q0)

    def held(dx):
        q = al.inverse_kinematics(arm, tip0 + dx, elbow="down")
        return np.linalg.solve(al.jacobian(arm, q).T, -K_q @ (q - rest))

    h = 1e-6
    fd = -np.column_stack([(held(h * e) - held(-h * e)) / (2 * h) for e in np.eye(2)])
    F0 = held(np.zeros(2))
    geometric = np.column_stack([(al.jacobian(arm, q0 + h * e).T - al.jacobian(arm, q0 - h * e).T)
                                 @ F0 / (2 * h) for e in np.eye(2)])
    J_inv = np.linalg.inv(al.jacobian(arm, q0))
    np.testing.assert_allclose(fd, al.cartesian_stiffness(arm, q0, K_q) + J_inv.T @ geometric @ J_inv,
                               rtol=1e-7)
    assert np.abs(fd - al.cartesian_stiffness(arm, q0, K_q)).max() > 100     # the term matters
