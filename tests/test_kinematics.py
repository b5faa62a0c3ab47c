"""Positions and Jacobians: by hand, against finite differences, batch equals loop."""

import numpy as np
from arm_strategies import arm_and_state, arms
from hypothesis import given, settings
from hypothesis import strategies as st

import armlab as al

PROPS = settings(max_examples=50, deadline=None)


def test_two_link_positions_by_hand():
    arm = al.statics_arm()
    q = np.radians([30, 60])
    p = al.joint_positions(arm, q)
    np.testing.assert_allclose(p, [[0, 0], [0.5 * np.cos(q[0]), 0.5 * np.sin(q[0])],
                                   [0.5 * np.cos(q[0]), 0.5 * np.sin(q[0]) + 0.4]], atol=1e-15)
    np.testing.assert_array_equal(al.tip_position(arm, q), p[-1])
    np.testing.assert_allclose(al.com_positions(arm, q),
                               [0.5 * p[1], p[1] + [0, 0.2]], atol=1e-15)


def test_jacobian_by_hand():
    arm, q = al.rod_arm(), np.array([0.4, -1.1])
    s1, c1, s12, c12 = np.sin(q[0]), np.cos(q[0]), np.sin(q.sum()), np.cos(q.sum())
    np.testing.assert_allclose(al.jacobian(arm, q), [[-s1 - s12, -s12], [c1 + c12, c12]],
                               atol=1e-15)


@PROPS
@given(arm_and_state())
def test_jacobians_are_derivatives_of_positions(case):
    arm, q, qd, *_ = case
    h = 1e-6
    cols = [(al.tip_position(arm, q + h * e) - al.tip_position(arm, q - h * e)) / (2 * h)
            for e in np.eye(arm.n)]
    np.testing.assert_allclose(al.jacobian(arm, q), np.array(cols).T, atol=1e-8)
    com_cols = [(al.com_positions(arm, q + h * e) - al.com_positions(arm, q - h * e)) / (2 * h)
                for e in np.eye(arm.n)]
    np.testing.assert_allclose(al.com_jacobians(arm, q), np.moveaxis(np.array(com_cols), 0, -1),
                               atol=1e-8)


@PROPS
@given(arm_and_state())
def test_link_lengths_and_reach(case):
    arm, q, *_ = case
    p = al.joint_positions(arm, q)
    np.testing.assert_allclose(np.linalg.norm(np.diff(p, axis=0), axis=1), arm.lengths)
    assert np.linalg.norm(p[-1]) <= sum(arm.lengths) + 1e-12
    # a centre of mass lies on its link's line, com from its joint
    c = al.com_positions(arm, q)
    np.testing.assert_allclose(np.linalg.norm(c - p[:-1], axis=1), np.abs(arm.com), atol=1e-12)
    # columns of a link's centre-of-mass Jacobian beyond that link are zero
    Jc = al.com_jacobians(arm, q)
    for i in range(arm.n):
        np.testing.assert_array_equal(Jc[i][:, i + 1:], 0)


@settings(max_examples=20, deadline=None)
@given(arms(), st.integers(0, 2**32 - 1))
def test_batch_equals_loop(arm, seed):
    q = np.random.default_rng(seed).uniform(-3, 3, (3, 2, arm.n))
    for fn in (al.joint_positions, al.tip_position, al.com_positions, al.jacobian,
               al.com_jacobians):
        whole = fn(arm, q)
        for idx in np.ndindex(3, 2):
            np.testing.assert_array_equal(whole[idx], fn(arm, q[idx]))
