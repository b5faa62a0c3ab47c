"""Positions and Jacobians: by hand, against finite differences, batch equals loop."""

import numpy as np
import pytest
from arm_strategies import arm_and_state, arms
from hypothesis import assume, given, settings
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


# -- inverse kinematics of two links: elbow down and elbow up, checked by forward kinematics ----

def reachable_target(arm, q):
    """A tip position the arm reaches (its forward kinematics at q)."""
    return al.tip_position(arm, q)


@PROPS
@given(arm_and_state(min_links=2, max_links=2))
def test_both_elbows_reach_the_target(case):
    """Forward kinematics of each solution is the target; the elbows have the documented signs
    and lie at L1 from the base and L2 from the tip"""
    arm, q, *_ = case
    target = reachable_target(arm, q)
    for elbow, sign in (("down", 1), ("up", -1)):
        sol = al.inverse_kinematics(arm, target, elbow=elbow)
        np.testing.assert_allclose(al.tip_position(arm, sol), target,
                                   atol=1e-12 * sum(arm.lengths))
        assert sign * sol[1] >= 0 and -np.pi < sol[0] <= np.pi
        elbow_at = al.joint_positions(arm, sol)[1]
        np.testing.assert_allclose(np.linalg.norm(elbow_at), arm.lengths[0], rtol=1e-12)
        np.testing.assert_allclose(np.linalg.norm(target - elbow_at), arm.lengths[1],
                                   rtol=1e-9, atol=1e-12)


@PROPS
@given(arm_and_state(min_links=2, max_links=2))
def test_the_solution_with_the_same_elbow_is_the_pose(case):
    """Away from the edges (|sin q2| > 1e-3) inverse kinematics gives back the pose itself, for
    the elbow it had, and the other elbow's pose is its mirror image about the base-tip line"""
    arm, q, *_ = case
    assume(abs(np.sin(q[1])) > 1e-3)
    target = reachable_target(arm, q)
    same = al.inverse_kinematics(arm, target, elbow="down" if np.sin(q[1]) > 0 else "up")
    wrapped = np.angle(np.exp(1j * (same - q)))          # differences modulo 2 pi
    np.testing.assert_allclose(wrapped, 0, atol=1e-9 / abs(np.sin(q[1])))
    other = al.inverse_kinematics(arm, target, elbow="up" if np.sin(q[1]) > 0 else "down")
    line = target / np.linalg.norm(target)
    reflect = 2 * np.outer(line, line) - np.eye(2)         # mirror about the base-tip line
    np.testing.assert_allclose(al.joint_positions(arm, other)[1],
                               reflect @ al.joint_positions(arm, q)[1], atol=1e-9)


def test_wall_pose_has_two_solutions():
    """The statics arm's wall-pose tip: elbow down is (30, 60) deg, elbow up (82.659, -60) deg"""
    arm = al.statics_arm()
    tip = al.tip_position(arm, np.radians([30, 60]))
    np.testing.assert_allclose(np.degrees(al.inverse_kinematics(arm, tip)), [30, 60], atol=1e-12)
    up = np.degrees(al.inverse_kinematics(arm, tip, elbow="up"))
    assert up.round(3).tolist() == [82.659, -60.0]
    # the up solution turns link 1 past the tip's direction by as much as the down one falls short
    direction = np.degrees(np.arctan2(tip[1], tip[0]))
    np.testing.assert_allclose(up[0] - direction, direction - 30, atol=1e-12)


def test_edges_of_the_workspace():
    """On the outer circle both elbows give the stretched pose, on the inner one the folded pose;
    the rods' base is reached with q1 = 0"""
    arm = al.statics_arm()
    for elbow in ("down", "up"):
        np.testing.assert_allclose(al.inverse_kinematics(arm, [0.0, 0.9], elbow=elbow),
                                   [np.pi / 2, 0.0], atol=1e-12)
        folded = al.inverse_kinematics(arm, [-0.1, 0.0], elbow=elbow)
        np.testing.assert_allclose(np.abs(folded[1]), np.pi, atol=1e-7)
        np.testing.assert_allclose(al.tip_position(arm, folded), [-0.1, 0.0], atol=1e-15)
    np.testing.assert_array_equal(al.inverse_kinematics(al.rod_arm(), [0.0, 0.0]), [0.0, np.pi])


@pytest.mark.parametrize("tip, distance", [([1.0, 0.0], "1 m"), ([0.0, 0.05], "0.05 m"),
                                           ([[0.5, 0.0], [0.6, 0.8]], "1 m")])
def test_unreachable_targets_raise(tip, distance):
    """A target outside the annulus raises ValueError naming the tip, its distance and the reach"""
    with pytest.raises(ValueError, match=rf"tip .* is {distance} from the base, outside"):
        al.inverse_kinematics(al.statics_arm(), tip)


def test_inverse_kinematics_bad_input():
    with pytest.raises(ValueError, match="arm has 3 joints"):
        al.inverse_kinematics(al.PlanarArm([1, 1, 1], [1, 1, 1]), [1.0, 0.0])
    with pytest.raises(ValueError, match="elbow must be"):
        al.inverse_kinematics(al.statics_arm(), [0.5, 0.0], elbow="left")
    with pytest.raises(ValueError, match="tip has shape"):
        al.inverse_kinematics(al.statics_arm(), [0.5, 0.0, 0.0])


@settings(max_examples=20, deadline=None)
@given(arms(min_links=2, max_links=2), st.integers(0, 2**32 - 1))
def test_inverse_kinematics_batch_equals_loop(arm, seed):
    q = np.random.default_rng(seed).uniform(-3, 3, (3, 2, 2))
    tips = al.tip_position(arm, q)
    for elbow in ("down", "up"):
        whole = al.inverse_kinematics(arm, tips, elbow=elbow)
        for idx in np.ndindex(3, 2):
            # numpy's vectorised arccos/arctan2 loops may round differently from its scalar ones
            np.testing.assert_allclose(whole[idx], al.inverse_kinematics(arm, tips[idx], elbow),
                                       rtol=0, atol=4 * np.finfo(float).eps * np.pi)


def test_a_shoulder_at_minus_pi_is_returned_as_pi():
    """The tip of q = (-1, -pi + 1) rad on two 1 m links, elbow down: q1 wraps to pi, not -pi
    (found by Hypothesis: arctan2 of sin(-pi) gave exactly -pi)."""
    arm = al.PlanarArm(lengths=(1.0, 1.0), masses=(1.0, 1.0))
    target = al.tip_position(arm, np.array([-1.0, -2.141592653589793]))
    sol = al.inverse_kinematics(arm, target, elbow="down")
    assert -np.pi < sol[0] <= np.pi and sol[1] >= 0
