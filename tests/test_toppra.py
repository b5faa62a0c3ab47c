"""``time_optimal_scaling`` against toppra (test-only dependency), the reference implementation of
"A New Approach to Time-Optimal Path Parameterization Based on Reachability Analysis".

toppra holds the torque limits at each grid point (collocation); armlab holds them at both ends of
every step. Both are first order in the step, so on the same grid their durations differ by a
fraction of about ``1 / segments``, and the difference shrinks as the grid is refined. The arms
have no friction (toppra's ``fs_coef`` is zero here).
"""

import logging

import numpy as np
import pytest

import armlab as al

ta = pytest.importorskip("toppra")
import toppra.algorithm  # noqa: E402
import toppra.constraint  # noqa: E402

logging.getLogger("toppra").setLevel(logging.ERROR)

# a random arm where the forward pass once gave up at 2,000 steps though 1,000 and 4,000 found
# 0.2287 s: the reach curve's vertex there sat just outside a torque row by rounding
ROUNDING_CASE = (al.PlanarArm(lengths=(0.34503978645467576, 0.648908188880045),
                              masses=(2.245228458020238, 0.6130824686788964),
                              com=(0.20737345455477713, 0.163284210306301),
                              inertia=(0.030429856477985504, 0.00602510176559599)),
                 np.array([-0.41920316, 0.87910153]), np.array([0.73386248, -0.67835546]),
                 np.array([21.36892316, 20.36892316]))


def random_case(rng):
    """A random two-link arm, a move within +-90 deg, and limits 5 % to 100 % above the largest
    gravity torque along the path (plus 1 N m at the shoulder)."""
    lengths = rng.uniform(0.2, 0.8, 2)
    masses = rng.uniform(0.5, 3.0, 2)
    arm = al.PlanarArm(lengths=tuple(lengths), masses=tuple(masses),
                       com=tuple(lengths * rng.uniform(0.3, 0.7, 2)),
                       inertia=tuple(masses * lengths**2 * rng.uniform(0.03, 0.1, 2)))
    q_start, q_end = rng.uniform(-np.pi / 2, np.pi / 2, (2, 2))
    d = al.path_dynamics(arm, q_start, q_end, np.linspace(0, 1, 201))[2]
    limit = np.abs(d).max() * rng.uniform(1.05, 2.0) + np.array([1.0, 0.0])
    return arm, q_start, q_end, limit


def toppra_duration(arm, q_start, q_end, limit, segments):
    """toppra's duration on the same grid of the straight path [s]."""
    path = ta.SplineInterpolator([0.0, 1.0], np.stack([q_start, q_end]), bc_type="natural")
    torque = toppra.constraint.JointTorqueConstraint(
        lambda q, qd, qdd: al.inverse_dynamics(arm, q, qd, qdd),
        np.stack([-limit, limit], axis=1), np.zeros(arm.n),
        discretization_scheme=toppra.constraint.DiscretizationType.Collocation)
    algorithm = toppra.algorithm.TOPPRA([torque], path, solver_wrapper="seidel",
                                        gridpoints=np.linspace(0.0, 1.0, segments + 1))
    sd = algorithm.compute_parameterization(0, 0)[1]
    return float(np.sum(2.0 / segments / (sd[:-1] + sd[1:])))


def assert_within_limits(arm, q_start, q_end, limit, best):
    """Inverse dynamics at both ends of every step, at the step's constant path acceleration:
    within the limits to 1e-9 of them."""
    delta = q_end - q_start
    for k in (slice(None, -1), slice(1, None)):
        q = q_start + best.s[k, None] * delta
        tau = al.inverse_dynamics(arm, q, best.sd[k, None] * delta, best.sdd[:, None] * delta)
        assert np.all(np.abs(tau) <= limit * (1 + 1e-9))


@pytest.mark.parametrize("segments", [1000, 2000, 2001])
def test_the_rounding_case_finds_its_profile(segments):
    """The case that returned inf at 2,000 steps: finite on every grid, within 0.1 % of toppra's
    0.22867 s, its torques within the limits"""
    best = al.time_optimal_scaling(*ROUNDING_CASE, segments=segments)
    assert best.duration == pytest.approx(0.22867, rel=1e-3)
    assert_within_limits(*ROUNDING_CASE, best)


def test_the_rounding_case_against_toppra_on_the_same_grid():
    """At 2,000 steps armlab and toppra agree to 1 / 2,000 of the duration"""
    ours = al.time_optimal_scaling(*ROUNDING_CASE, segments=2000).duration
    assert ours == pytest.approx(toppra_duration(*ROUNDING_CASE, 2000), rel=1 / 2000)


@pytest.mark.parametrize("seed", range(6))
def test_random_arms_against_toppra_on_a_sweep_of_grids(seed):
    """Random arms at 150, 300 and 600 steps: a finite duration wherever toppra finds one,
    within 2 / segments of toppra's on the same grid, the gap shrinking as the grid is refined,
    and the torques within the limits along the profile"""
    case = random_case(np.random.default_rng(seed))
    gaps = []
    for segments in (150, 300, 600):
        best = al.time_optimal_scaling(*case, segments=segments)
        theirs = toppra_duration(*case, segments)
        assert np.isfinite(theirs) and np.isfinite(best.duration)
        gaps.append(abs(best.duration / theirs - 1))
        assert gaps[-1] <= 2 / segments
        assert_within_limits(*case, best)
    assert gaps[2] < gaps[0]
