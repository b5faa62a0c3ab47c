"""Statics: tau = J^T F from virtual work, the way back, singular values, limits."""

import numpy as np
from arm_strategies import arm_and_state, arms
from hypothesis import given, settings
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
    if sigma[1] < 1e-3 * sigma[0]:
        return                                    # too near a singularity to invert cleanly
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
    if np.linalg.norm(d) < 1e-6:
        return
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
    if np.isinf(bound):
        assert sigma[1] <= 1e-12 * sigma[0]
        return
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
