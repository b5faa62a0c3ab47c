"""Velocity ellipse, manipulability, singular poses and reach, each against a second route."""

import numpy as np
import pytest
from arm_strategies import arm_and_state, arms
from hypothesis import given, settings
from hypothesis import strategies as st

import armlab as al

PROPS = settings(max_examples=60, deadline=None)


def unit_circle(k=3600):
    t = np.linspace(0, 2 * np.pi, k, endpoint=False)
    return np.stack([np.cos(t), np.sin(t)], axis=-1)


@PROPS
@given(arm_and_state(min_links=2, max_links=2))
def test_velocity_ellipse_is_the_image_of_the_joint_speed_circle(case):
    """Pushing the unit circle of joint speeds through J: its longest and shortest images are the
    half-axes, and every image lies on the ellipse (x.u1/h1)^2 + (x.u2/h2)^2 = 1"""
    arm, q, *_ = case
    half, dirs = al.velocity_ellipse(arm, q, joint_speed=2.0)
    v = 2.0 * unit_circle() @ al.jacobian(arm, q).T             # (k, 2) tip velocities [m/s]
    speeds = np.linalg.norm(v, axis=1)
    step = np.pi / 3600                       # the samples are at most this far from an axis
    assert half[0] * np.cos(step) - 1e-12 <= speeds.max() <= half[0] + 1e-12
    assert half[1] - 1e-12 <= speeds.min() <= np.hypot(half[1], half[0] * step) + 1e-12
    np.testing.assert_allclose(dirs.T @ dirs, np.eye(2), atol=1e-12)
    if half[1] > 1e-3 * half[0]:
        along = v @ dirs / half
        np.testing.assert_allclose((along**2).sum(axis=1), 1.0, rtol=1e-9)


def test_two_link_singular_values_in_closed_form():
    """sigma^2 are the eigenvalues of J J^T: (t +- sqrt(t^2 - 4 d^2)) / 2 with t = |J|_F^2 and
    d = L1 L2 sin q2 (a hand formula, no SVD)"""
    arm = al.statics_arm()
    L1, L2 = arm.lengths
    q = np.random.default_rng(3).uniform(-np.pi, np.pi, (200, 2))
    t = L1**2 + 2 * L2**2 + 2 * L1 * L2 * np.cos(q[:, 1])          # squared Frobenius norm
    d = L1 * L2 * np.sin(q[:, 1])
    root = np.sqrt(t**2 - 4 * d**2)
    expected = np.sqrt(np.stack([(t + root) / 2, np.maximum((t - root) / 2, 0)], axis=-1))
    half, _ = al.velocity_ellipse(arm, q)
    np.testing.assert_allclose(half, expected, atol=1e-7)


def test_manipulability_two_links_by_hand():
    """w = L1 L2 |sin q2| for every two-link arm and pose (the statics case's arm, 0.2 at 90 deg)"""
    for arm in (al.statics_arm(), al.tabletop_arm(), al.rod_arm()):
        q = np.random.default_rng(1).uniform(-4, 4, (50, 2))
        L1, L2 = arm.lengths
        np.testing.assert_allclose(al.manipulability(arm, q), L1 * L2 * np.abs(np.sin(q[:, 1])),
                                   atol=1e-14)
        np.testing.assert_allclose(al.manipulability(arm, q), np.abs(np.linalg.det(
            al.jacobian(arm, q))), atol=1e-14)
    assert round(float(al.manipulability(al.statics_arm(), np.radians([0, 90]))), 4) == 0.2


@PROPS
@given(arm_and_state(min_links=1))
def test_manipulability_is_sqrt_det_j_jt(case):
    arm, q, *_ = case
    J = al.jacobian(arm, q)
    w = al.manipulability(arm, q)
    assert w**2 == pytest.approx(np.linalg.det(J @ J.T), abs=1e-12 * sum(arm.lengths) ** 4)
    half, _ = al.velocity_ellipse(arm, q)
    assert w == pytest.approx(half[0] * half[1], abs=1e-12)


@PROPS
@given(arms(min_links=2, max_links=5), st.integers(0, 2**32 - 1), st.sampled_from([0.0, np.pi]))
def test_singular_exactly_when_base_joints_and_tip_are_collinear(arm, seed, bend):
    """A pose with every joint straight or folded is singular; a random one is not"""
    rng = np.random.default_rng(seed)
    collinear = np.concatenate([[rng.uniform(-3, 3)], rng.choice([0.0, bend], arm.n - 1)])
    assert al.is_singular(arm, collinear)
    p = al.joint_positions(arm, collinear)
    along = p[-1] - p[0] if np.linalg.norm(p[-1]) > 1e-9 else p[1]
    cross = along[0] * p[:, 1] - along[1] * p[:, 0]
    np.testing.assert_allclose(cross, 0, atol=1e-12)            # the same line, second route
    bent = collinear.copy()
    bent[1] += 0.5                                              # one joint bent by 0.5 rad
    assert not al.is_singular(arm, bent)


def test_singular_two_link_poses():
    """Two links: singular at q2 = 0 and q2 = 180 deg, whatever q1; not at 1 deg"""
    arm = al.statics_arm()
    q = np.radians([[0, 0], [75, 0], [-40, 180], [10, -180], [0, 1], [0, 90]])
    assert al.is_singular(arm, q).tolist() == [True, True, True, True, False, False]


@pytest.mark.parametrize("make, expected", [
    (al.statics_arm, (0.1, 0.9)), (al.tabletop_arm, (0.05, 0.55)), (al.rod_arm, (0.0, 2.0)),
])
def test_reach_of_the_books_arms(make, expected):
    """The workspace annulus |L1 - L2| <= r <= L1 + L2 of the three arms"""
    np.testing.assert_allclose(al.reach(make()), expected, atol=1e-15)


@PROPS
@given(arms(min_links=1, max_links=5), st.integers(0, 2**32 - 1))
def test_reach_bounds_every_pose_and_is_attained(arm, seed):
    """Random poses stay in the annulus; the stretched pose and a folded pose reach its edges"""
    r_min, r_max = al.reach(arm)
    q = np.random.default_rng(seed).uniform(-np.pi, np.pi, (2000, arm.n))
    r = np.linalg.norm(al.tip_position(arm, q), axis=-1)
    assert r.max() <= r_max + 1e-12 and r.min() >= r_min - 1e-12
    assert np.linalg.norm(al.tip_position(arm, np.zeros(arm.n))) == pytest.approx(r_max)
    # fold the longest link back against all the others, which stay straight
    k = int(np.argmax(arm.lengths))
    folded = np.zeros(arm.n)
    if k > 0:
        folded[k] = np.pi
    if k + 1 < arm.n:
        folded[k + 1] = np.pi
    if r_min > 0:
        assert np.linalg.norm(al.tip_position(arm, folded)) == pytest.approx(r_min, abs=1e-12)


def test_two_link_annulus_is_filled():
    """Every radius between r_min and r_max is reached: law of cosines for the elbow angle"""
    arm = al.statics_arm()
    L1, L2 = arm.lengths
    r_min, r_max = al.reach(arm)
    r = np.linspace(r_min, r_max, 41)
    q2 = np.arccos(np.clip((r**2 - L1**2 - L2**2) / (2 * L1 * L2), -1, 1))
    q = np.stack([np.zeros_like(q2), q2], axis=-1)
    np.testing.assert_allclose(np.linalg.norm(al.tip_position(arm, q), axis=-1), r, atol=1e-12)


@settings(max_examples=20, deadline=None)
@given(arms(min_links=2, max_links=4), st.integers(0, 2**32 - 1))
def test_batch_equals_loop(arm, seed):
    q = np.random.default_rng(seed).uniform(-3, 3, (3, 2, arm.n))
    half, dirs = al.velocity_ellipse(arm, q)
    w = al.manipulability(arm, q)
    s = al.is_singular(arm, q)
    for idx in np.ndindex(3, 2):
        one_half, one_dirs = al.velocity_ellipse(arm, q[idx])
        np.testing.assert_array_equal(half[idx], one_half)
        np.testing.assert_array_equal(dirs[idx], one_dirs)
        assert w[idx] == al.manipulability(arm, q[idx])
        assert s[idx] == al.is_singular(arm, q[idx])
        assert al.condition_number(arm, q)[idx] == al.condition_number(arm, q[idx])


def test_one_joint_arm():
    """A one-joint arm moves its tip along one direction only: always singular"""
    arm = al.PlanarArm(lengths=(0.7,), masses=(1.0,))
    half, dirs = al.velocity_ellipse(arm, [0.3])
    np.testing.assert_allclose(half, [0.7, 0.0])
    assert al.is_singular(arm, [0.3]) and al.manipulability(arm, [0.3]) == 0
    assert al.condition_number(arm, [0.3]) == np.inf
    assert al.reach(arm) == (0.7, 0.7)


@pytest.mark.parametrize("call, name", [
    (lambda: al.velocity_ellipse(al.statics_arm(), [0, 1], joint_speed=0), "joint_speed"),
    (lambda: al.velocity_ellipse(al.statics_arm(), [0, 1], joint_speed=[1, 2]), "joint_speed"),
    (lambda: al.velocity_ellipse(al.statics_arm(), [0, 1, 2]), "q"),
    (lambda: al.manipulability(al.statics_arm(), [np.nan, 0]), "q"),
    (lambda: al.is_singular(al.statics_arm(), [0, 0], tol=-1), "tol"),
    (lambda: al.condition_number(al.statics_arm(), [0, 0, 0]), "q"),
])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# -- the condition number and the isotropic pose -------------------------------------------------

def test_condition_number_in_closed_form():
    """kappa^2 is the ratio of the eigenvalues of J J^T, (t + r) / (t - r) with t = |J|_F^2,
    r = sqrt(t^2 - 4 d^2) and d = L1 L2 sin q2 (no SVD); infinite at the singular poses"""
    arm = al.tabletop_arm()
    L1, L2 = arm.lengths
    q = np.random.default_rng(5).uniform(-np.pi, np.pi, (300, 2))
    t = L1**2 + 2 * L2**2 + 2 * L1 * L2 * np.cos(q[:, 1])
    d = L1 * L2 * np.sin(q[:, 1])
    r = np.sqrt(t**2 - 4 * d**2)
    np.testing.assert_allclose(al.condition_number(arm, q), np.sqrt((t + r) / (t - r)), rtol=1e-7)
    assert np.all(al.condition_number(arm, [[0.4, 0.0], [0.4, np.pi]]) == np.inf)


@pytest.mark.parametrize("q2", [135.0, -135.0])
def test_isotropic_two_link_pose(q2):
    """L1 = sqrt(2) L2 at q2 = +-135 deg: the columns of J are orthogonal and both L2 long (J is
    L2 times a rotation or a reflection), so kappa = 1 and both singular values are L2, at any q1"""
    L2 = 0.4
    arm = al.PlanarArm(lengths=(np.sqrt(2) * L2, L2), masses=(1.0, 1.0))
    for q1 in np.radians([-100.0, 0.0, 37.0]):
        q = np.array([q1, np.radians(q2)])
        J = al.jacobian(arm, q)
        np.testing.assert_allclose(J.T @ J, L2**2 * np.eye(2), atol=1e-15)
        assert al.condition_number(arm, q) == pytest.approx(1.0, abs=1e-14)
        np.testing.assert_allclose(al.velocity_ellipse(arm, q)[0], [L2, L2], rtol=1e-14)


def test_isotropy_needs_the_length_ratio():
    """Only L1 / L2 = sqrt(2) reaches kappa = 1: on a 0.01-degree grid of q2 the smallest kappa of
    the book's arms stays above 1, and the isotropic arm's is 1 at 135 deg"""
    q2 = np.radians(np.arange(1, 18000) / 100)
    poses = np.stack([np.zeros_like(q2), q2], axis=-1)
    for arm in (al.statics_arm(), al.tabletop_arm(), al.rod_arm()):
        assert al.condition_number(arm, poses).min() > 1.1
    iso = al.PlanarArm(lengths=(np.sqrt(2) * 0.25, 0.25), masses=(1.0, 1.0))
    kappa = al.condition_number(iso, poses)
    assert kappa.min() == pytest.approx(1.0, abs=1e-12)
    assert np.degrees(q2[kappa.argmin()]) == pytest.approx(135.0, abs=1e-12)
