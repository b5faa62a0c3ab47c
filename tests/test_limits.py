"""Torque limits: clipping, the acceleration clipped torques give, payload capacity."""

import numpy as np
from arm_strategies import arm_and_state, arms
from hypothesis import given, settings
from hypothesis import strategies as st

import armlab as al

PROPS = settings(max_examples=50, deadline=None)


def test_clip_forms_of_the_limit():
    tau = np.array([-30.0, 5.0, 30.0])
    np.testing.assert_array_equal(al.clip_torques(tau, 20), [-20, 5, 20])
    np.testing.assert_array_equal(al.clip_torques(tau, [10, 2, 40]), [-10, 2, 30])
    np.testing.assert_array_equal(al.clip_torques(tau, [[-5, -5, -5], [25, 4, 25]]), [-5, 4, 25])
    np.testing.assert_array_equal(al.clip_torques(np.tile(tau, (4, 1)), 20),
                                  np.tile([-20, 5, 20], (4, 1)))


@PROPS
@given(arm_and_state(), st.floats(0.5, 30.0))
def test_realized_acceleration(case, limit):
    arm, q, qd, qdd, _, F = case
    req, applied, acc = al.realized_acceleration(arm, q, qd, qdd, limit, F)
    np.testing.assert_allclose(req, al.inverse_dynamics(arm, q, qd, qdd, F))
    np.testing.assert_array_equal(applied, np.clip(req, -limit, limit))
    # the torque deficit, and only it, changes the acceleration: M (qdd - qdd_req) = deficit
    M = al.mass_matrix(arm, q)
    np.testing.assert_allclose(M @ (acc - qdd), applied - req,
                               atol=1e-9 * (1 + np.abs(req).max()))
    if np.all(np.abs(req) <= limit):
        np.testing.assert_allclose(acc, qdd, atol=1e-8 * (1 + np.abs(qdd).max()))


@PROPS
@given(arms(max_links=4), st.integers(0, 2**32 - 1))
def test_payload_capacity_is_the_load_that_reaches_the_limit(arm, seed):
    """Per joint, k units of the load put that joint exactly at its limit (seed 004)."""
    rng = np.random.default_rng(seed)
    q = rng.uniform(-np.pi, np.pi, arm.n)
    g = al.gravity_torques(arm, q)
    limit = np.abs(g) + rng.uniform(0.5, 10, arm.n)          # the arm can hold itself
    cap = al.payload_capacity(arm, q, limit)
    unit = -np.array(arm.gravity)                            # holding 1 kg
    t = al.static_torques(arm, q, unit)
    for j in range(arm.n):
        if np.isinf(cap[j]):
            assert abs(t[j]) <= 1e-9 * (1 + np.abs(unit).max())
        else:
            assert cap[j] >= 0
            np.testing.assert_allclose(abs(g[j] + cap[j] * t[j]), limit[j], rtol=1e-9)
    finite = np.isfinite(cap) & (cap < 1e6)        # (a vanishing gravity allows any load)
    if np.any(finite):
        k = cap[finite].min()
        loaded = al.gravity_torques(arm.with_payload(k), q)
        assert np.all(np.abs(loaded) <= limit * (1 + 1e-9))


def test_payload_capacity_with_a_tool_force_and_a_batch():
    arm = al.statics_arm()
    q = np.radians([[0, 90], [30, 60], [10, 20]])
    push = [10.0, 0.0]
    cap = al.payload_capacity(arm, q, 20, push)
    assert cap.shape == (3, 2)
    for i in range(3):
        np.testing.assert_array_equal(cap[i], al.payload_capacity(arm, q[i], 20, push))


@settings(max_examples=20, deadline=None)
@given(arms(), st.integers(0, 2**32 - 1))
def test_batch_equals_loop(arm, seed):
    rng = np.random.default_rng(seed)
    q, qd, qdd = (rng.uniform(-2, 2, (3, 2, arm.n)) for _ in range(3))
    whole = al.realized_acceleration(arm, q, qd, qdd, 5.0)
    caps = al.payload_capacity(arm, q, 50.0)
    for idx in np.ndindex(3, 2):
        one = al.realized_acceleration(arm, q[idx], qd[idx], qdd[idx], 5.0)
        for w, o in zip(whole, one):
            np.testing.assert_allclose(w[idx], o, atol=1e-12)
        np.testing.assert_array_equal(caps[idx], al.payload_capacity(arm, q[idx], 50.0))
    np.testing.assert_array_equal(al.clip_torques(qdd, 1.0)[1, 1], al.clip_torques(qdd[1, 1], 1.0))
