"""The single-state float kernel agrees with the public numpy dynamics, for any number of links."""

import math

import numpy as np
import pytest

import armlab as al
from armlab import _scalar


def random_arm(rng, n):
    """An arm with every parameter off its default: com, inertia, gravity, friction, gears."""
    return al.PlanarArm(
        lengths=rng.uniform(0.2, 1.0, n), masses=rng.uniform(0.5, 3.0, n),
        com=rng.uniform(0.05, 0.5, n), inertia=rng.uniform(0.001, 0.1, n),
        gravity=rng.uniform(-10, 10, 2), damping=rng.uniform(0, 0.2, n),
        coulomb=rng.uniform(0, 0.3, n), gear_ratio=rng.uniform(1, 5, n))


CASES = [(n, seed) for n in (1, 2, 3, 5) for seed in range(4)]


@pytest.mark.parametrize("n, seed", CASES)
def test_kernel_matches_numpy(n, seed):
    rng = np.random.default_rng(seed)
    arm = random_arm(rng, n)
    P = _scalar.params(arm)
    q, qd, qdd, tau = (rng.uniform(-3, 3, n) for _ in range(4))
    qd[0] = 0.0                                   # Coulomb friction at rest: sign(0) = 0
    M, bias = _scalar.mass_and_bias(P, q.tolist(), qd.tolist())
    np.testing.assert_allclose(M, al.mass_matrix(arm, q), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(bias, al.inverse_dynamics(arm, q, qd, np.zeros(n)),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_scalar.mass_matrix(P, q), al.mass_matrix(arm, q), atol=1e-12)
    np.testing.assert_allclose(_scalar.gravity(P, q), al.gravity_torques(arm, q), atol=1e-12)
    np.testing.assert_allclose(_scalar.friction(P, qd), al.friction_torques(arm, qd), atol=1e-15)
    np.testing.assert_allclose(_scalar.inverse_dynamics(P, q, qd, qdd),
                               al.rnea(arm, q, qd, qdd), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_scalar.forward_dynamics(P, q, qd, tau),
                               al.forward_dynamics(arm, q, qd, tau), rtol=1e-10, atol=1e-10)
    kin, pot = _scalar.energies(P, q, qd)
    assert kin == pytest.approx(float(al.kinetic_energy(arm, q, qd)), rel=1e-12, abs=1e-14)
    assert pot == pytest.approx(float(al.potential_energy(arm, q)), rel=1e-12, abs=1e-14)


def test_seed000_worked_instant():
    """Seed 000's instant by hand: 5.7796 and 0.4443 N m, and back to (3, -2) rad/s^2."""
    P = _scalar.params(al.tabletop_arm())
    q = (math.radians(30), math.radians(45))
    tau = _scalar.inverse_dynamics(P, q, (1, 2), (3, -2))
    assert [round(x, 4) for x in tau] == [5.7796, 0.4443]
    assert _scalar.forward_dynamics(P, q, (1, 2), tau) == pytest.approx([3, -2], abs=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_solve_spd(n):
    rng = np.random.default_rng(n)
    A = rng.normal(size=(n, n))
    M = A @ A.T + n * np.eye(n)
    b = rng.normal(size=n)
    np.testing.assert_allclose(_scalar.solve_spd(M.tolist(), b.tolist()),
                               np.linalg.solve(M, b), rtol=1e-12)


@pytest.mark.parametrize("M", [[[1.0, 2.0], [2.0, 1.0]], [[-1.0, 0.0], [0.0, 1.0]],
                               [[1.0, 0.0, 0.0], [0.0, 1.0, 2.0], [0.0, 2.0, 1.0]]])
def test_solve_spd_refuses_indefinite(M):
    with pytest.raises(ValueError, match="positive definite"):
        _scalar.solve_spd(M, [1.0] * len(M))


@pytest.mark.parametrize("seed", range(4))
def test_two_link_euler_path_equals_general_path(seed):
    """The unrolled two-link Euler steps are the general steps, written out."""
    rng = np.random.default_rng(seed)
    P = _scalar.params(random_arm(rng, 2))
    q, qd, tau = (rng.uniform(-2, 2, 2).tolist() for _ in range(3))
    fast = _scalar.euler_steps(P, q, qd, tau, 1e-3, 25)
    slow = _scalar._euler_steps_any(P, q, qd, tau, 1e-3, 25)
    for a, b in zip(fast, slow):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-12)


def test_euler_steps_first_acceleration_is_forward_dynamics():
    arm = al.tabletop_arm(damping=0.02)
    P = _scalar.params(arm)
    q, qd, tau = [0.3, -0.4], [1.0, 2.0], [3.0, -1.0]
    qdd, q1, qd1, _ = _scalar.euler_steps(P, q, qd, tau, 1e-4, 1)
    np.testing.assert_allclose(qdd, al.forward_dynamics(arm, q, qd, tau), rtol=1e-12)
    np.testing.assert_allclose(qd1, np.add(qd, 1e-4 * np.array(qdd)), rtol=1e-15)
    np.testing.assert_allclose(q1, np.add(q, 1e-4 * np.array(qd1)), rtol=1e-15)


@pytest.mark.parametrize("seed", range(3))
def test_two_link_rk4_path_equals_general_path(seed):
    """RK4's written-out two-link derivative equals the general one."""
    rng = np.random.default_rng(seed)
    P = _scalar.params(random_arm(rng, 2))
    q, qd, tau = (rng.uniform(-2, 2, 2).tolist() for _ in range(3))
    fast = _scalar.rk4_steps(P, q, qd, tau, 1e-3, 25)
    slow = _scalar._rk4(_scalar._derivative(P, tau, written_out=False), q, qd, 1e-3, 25)
    for a, b in zip(fast, slow):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-12)
