"""armlab.accuracy: the Cholesky solve, exact error measurement, the observed order.

Each function is checked against an independent route: the Cholesky solve
against numpy's LU solve and against forward dynamics; the exact errors
against a plain rational Gaussian elimination written here; the observed
order against power laws whose order is known.
"""

from fractions import Fraction

import numpy as np
import pytest

import armlab as al
from armlab.accuracy import (cholesky_solve, growth_fit, growth_rate, observed_order, solve_errors,
                             step_sweep)

EPS = np.finfo(float).eps


def random_spd(rng, shape, n):
    A = rng.standard_normal(shape + (n, n))
    return A @ np.swapaxes(A, -1, -2) + n * np.eye(n)


# ----------------------------------------------------------------------------- cholesky_solve

def test_worked_instant_backwards():
    """The worked instant of 'Arm dynamics': the torque (5.7796, 0.4443) N m at (30, 45) deg, qd = (1, 2) gives qdd = (3, -2)"""
    arm, q, qd = al.tabletop_arm(), np.radians([30, 45]), [1.0, 2.0]
    tau = al.inverse_dynamics(arm, q, qd, [3.0, -2.0])
    assert tau.round(4).tolist() == [5.7796, 0.4443]
    b = tau - al.coriolis_torques(arm, q, qd) - al.gravity_torques(arm, q)
    np.testing.assert_allclose(cholesky_solve(al.mass_matrix(arm, q), b), [3, -2], atol=1e-13)


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_agrees_with_lu_solve(n):
    """On random SPD systems the Cholesky solve equals numpy's LU solve to rounding"""
    rng = np.random.default_rng(n)
    M = random_spd(rng, (50,), n)
    b = rng.standard_normal((50, n))
    expected = np.linalg.solve(M, b[..., None])[..., 0]
    np.testing.assert_allclose(cholesky_solve(M, b), expected, rtol=1e-12, atol=1e-12)


def test_agrees_with_forward_dynamics_on_arms():
    """M qdd = tau - c - g - friction solved by Cholesky is armlab's forward dynamics"""
    rng = np.random.default_rng(3)
    for n in (2, 4):
        arm = al.PlanarArm(lengths=rng.uniform(0.2, 1, n), masses=rng.uniform(0.5, 3, n),
                           damping=0.1)
        q, qd, tau = (rng.uniform(-3, 3, (100, n)) for _ in range(3))
        b = tau - al.inverse_dynamics(arm, q, qd, np.zeros(n))
        np.testing.assert_allclose(cholesky_solve(al.mass_matrix(arm, q), b),
                                   al.forward_dynamics(arm, q, qd, tau), rtol=1e-10, atol=1e-10)


def test_batches_broadcast_and_equal_one_at_a_time():
    """One M with many b, many M with one b, and a 2-D batch: each entry as if solved alone"""
    rng = np.random.default_rng(4)
    M = random_spd(rng, (3, 4), 3)
    b = rng.standard_normal((3, 4, 3))
    x = cholesky_solve(M, b)
    assert x.shape == (3, 4, 3)
    for i in range(3):
        for j in range(4):
            assert np.array_equal(x[i, j], cholesky_solve(M[i, j], b[i, j]))
    assert cholesky_solve(M[0, 0], b).shape == (3, 4, 3)
    assert cholesky_solve(M, b[0, 0]).shape == (3, 4, 3)
    assert cholesky_solve(M[0, 0], b[0, 0]).shape == (3,)


def test_reads_only_the_lower_triangle():
    """Garbage above the diagonal does not change the answer (numpy's factor reads the lower part)"""
    rng = np.random.default_rng(5)
    M = random_spd(rng, (), 4)
    b = rng.standard_normal(4)
    odd = M + np.triu(np.full((4, 4), 7.0), k=1)
    assert np.array_equal(cholesky_solve(odd, b), cholesky_solve(M, b))


def test_cholesky_bad_input():
    """Not positive definite, wrong shapes, NaN: ValueError naming the argument"""
    with pytest.raises(ValueError, match="not positive definite"):
        cholesky_solve([[1.0, 2.0], [2.0, 1.0]], [1.0, 1.0])
    with pytest.raises(ValueError, match="M has shape"):
        cholesky_solve([1.0, 2.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="b has shape"):
        cholesky_solve(np.eye(2), [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="b must be finite"):
        cholesky_solve(np.eye(2), [np.nan, 1.0])
    with pytest.raises(ValueError, match="do not broadcast"):
        cholesky_solve(np.broadcast_to(np.eye(2), (3, 2, 2)), np.ones((4, 2)))


# ----------------------------------------------------------------------------- solve_errors

def rational_solve(M, b):
    """Plain Gaussian elimination in Fractions, with row swaps: the exact solution."""
    n = len(b)
    rows = [[Fraction(v) for v in row] + [Fraction(w)] for row, w in zip(M, b)]
    for j in range(n):
        p = next(r for r in range(j, n) if rows[r][j] != 0)
        rows[j], rows[p] = rows[p], rows[j]
        for r in range(n):
            if r != j:
                f = rows[r][j] / rows[j][j]
                rows[r] = [a - f * c for a, c in zip(rows[r], rows[j])]
    return [rows[j][n] / rows[j][j] for j in range(n)]


def test_errors_match_rational_gaussian_elimination():
    """Forward and backward errors equal those computed with a plain Fraction elimination"""
    rng = np.random.default_rng(6)
    for n in (1, 2, 5):
        M = rng.standard_normal((20, n, n))               # not symmetric: any system
        b = rng.standard_normal((20, n))
        x = np.linalg.inv(M) @ b[..., None]
        forward, backward = solve_errors(M, b, x[..., 0])
        for k in range(20):
            exact = rational_solve(M[k].tolist(), b[k].tolist())
            xf = [Fraction(v) for v in x[k, :, 0]]
            fwd = max(abs(a - e) for a, e in zip(xf, exact)) / max(map(abs, exact))
            res = max(abs(Fraction(w) - sum(Fraction(m) * v for m, v in zip(row, xf)))
                      for row, w in zip(M[k].tolist(), b[k].tolist()))
            scale = (max(sum(abs(Fraction(m)) for m in row) for row in M[k].tolist())
                     * max(map(abs, xf)) + max(abs(Fraction(w)) for w in b[k].tolist()))
            assert forward[k] == float(fwd)
            assert backward[k] == float(res / scale)


def test_exact_solution_has_no_error():
    """A solution that is exact in floating point has zero forward and backward error"""
    forward, backward = solve_errors([[4.0, 2.0], [2.0, 3.0]], [8.0, 7.0], [1.25, 1.5])
    assert forward == 0.0 and backward == 0.0


def test_stable_solves_have_backward_error_near_roundoff():
    """LU and Cholesky are backward stable: backward error a small multiple of eps"""
    rng = np.random.default_rng(7)
    M = random_spd(rng, (30,), 6)
    b = rng.standard_normal((30, 6))
    for x in (cholesky_solve(M, b), np.linalg.solve(M, b[..., None])[..., 0]):
        _, backward = solve_errors(M, b, x)
        assert backward.max() < 6 * EPS


def test_forward_error_of_a_known_perturbation():
    """x* scaled by (1 + 2^-20) has forward error 2^-20 and a residual that says so"""
    M = np.array([[2.0, 1.0], [1.0, 1.0]])
    x = np.array([1.0, 1.0]) * (1 + 2.0**-20)
    forward, backward = solve_errors(M, [3.0, 2.0], x)
    assert forward == 2.0**-20
    # residual 3 * 2^-20 against |M| |x| + |b| = 3 (1 + 2^-20) + 3
    assert backward == pytest.approx(3 * 2.0**-20 / (6 + 3 * 2.0**-20), rel=1e-15)


def test_solve_errors_bad_input():
    """Singular systems and misfit shapes are refused by name"""
    with pytest.raises(ValueError, match="singular"):
        solve_errors([[1.0, 2.0], [2.0, 4.0]], [1.0, 1.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="x has shape"):
        solve_errors(np.eye(2), [1.0, 1.0], [1.0])
    with pytest.raises(ValueError, match="x must be finite"):
        solve_errors(np.eye(2), [1.0, 1.0], [np.inf, 1.0])


# ----------------------------------------------------------------------------- observed_order

@pytest.mark.parametrize("p", [1, 2, 4])
def test_order_of_power_laws(p):
    """Errors C h^p give back p, for any constant"""
    h = np.array([1e-2, 5e-3, 1e-3, 1e-4])
    assert observed_order(h, 3.7 * h**p) == pytest.approx(p, abs=1e-12)


def test_order_of_euler_on_a_known_equation():
    """Explicit Euler on y' = -y over [0, 1]: its measured order is 1 (within 2 %)"""
    steps = np.array([1e-2, 1e-3, 1e-4])
    errors = [abs((1 - h) ** round(1 / h) - np.exp(-1)) for h in steps]
    assert observed_order(steps, errors) == pytest.approx(1.0, abs=0.02)


def test_order_bad_input():
    """Zero errors, one step, equal steps, negative steps: ValueError naming the argument"""
    with pytest.raises(ValueError, match="errors must be positive"):
        observed_order([1e-3, 1e-4], [1e-3, 0.0])
    with pytest.raises(ValueError, match="steps has shape"):
        observed_order([1e-3], [1e-3])
    with pytest.raises(ValueError, match="two different"):
        observed_order([1e-3, 1e-3], [1e-3, 2e-3])
    with pytest.raises(ValueError, match="steps must be positive"):
        observed_order([-1e-3, 1e-3], [1e-3, 2e-3])
    with pytest.raises(ValueError, match="errors has shape"):
        observed_order([1e-3, 1e-4], [1e-3])


# ----------------------------------------------------------------------------- step_sweep

@pytest.fixture(scope="module")
def seed_fall():
    """The table-top arm and the start of 'Arm dynamics', and RK4 at 0.01 ms as the fall's reference at 0.25 s."""
    arm, q0 = al.tabletop_arm(damping=0.02), np.radians([30, 45])
    ref = al.simulate(arm, q0, 0.25, control_dt=1e-5, substeps=1, method="rk4").q[-1]
    return arm, q0, ref


def test_tabletop_fall_digits_by_step(seed_fall):
    """'Arm dynamics': (-35.4, 98.7) deg at 0.25 s with semi-implicit Euler at 0.1 ms; the exact
    fall (RK4 at 0.01 ms) gives (-35.3, 98.7)"""
    arm, q0, ref = seed_fall
    sweep = step_sweep(arm, q0, 0.25, [1e-4], "semi_implicit_euler", reference=ref)
    assert np.degrees(sweep.q_end[0]).round(1).tolist() == [-35.4, 98.7]
    assert np.degrees(ref).round(1).tolist() == [-35.3, 98.7]


def test_sweep_runs_are_simulations_with_one_step_per_tick(seed_fall):
    """Each run is simulate(control_dt=h, substeps=1); errors and energy errors follow from it"""
    arm, q0, ref = seed_fall
    steps = [2e-3, 5e-4]
    sweep = step_sweep(arm, q0, 0.25, steps, "explicit_euler", reference=ref)
    for k, h in enumerate(steps):
        sim = al.simulate(arm, q0, 0.25, control_dt=h, substeps=1, method="explicit_euler")
        assert np.array_equal(sweep.q_end[k], sim.q[-1])
        assert sweep.angle_error[k] == np.abs(sim.q[-1] - ref).max()
        assert sweep.energy_error[k] == np.abs(sim.energy_error).max()
    assert sweep.evaluations.tolist() == [125, 500]
    assert step_sweep(arm, q0, 0.25, [1e-3], "rk4", reference=ref).evaluations.tolist() == [1000]


@pytest.mark.parametrize("method, steps, order", [
    ("explicit_euler", [2e-3, 1e-3, 5e-4, 2.5e-4], 1),
    ("semi_implicit_euler", [2e-3, 1e-3, 5e-4, 2.5e-4], 1),
    ("rk4", [1e-2, 5e-3, 2.5e-3], 4),
])
def test_measured_orders(seed_fall, method, steps, order):
    """The slopes of the errors against the step are the methods' orders (within 0.1)"""
    arm, q0, ref = seed_fall
    sweep = step_sweep(arm, q0, 0.25, steps, method, reference=ref)
    assert observed_order(sweep.steps, sweep.angle_error) == pytest.approx(order, abs=0.1)
    assert observed_order(sweep.steps, sweep.energy_error) == pytest.approx(order, abs=0.1)


def test_default_reference_is_rk4_ten_times_finer():
    """Without a reference, RK4 at a tenth of the smallest step is used"""
    arm, q0 = al.tabletop_arm(damping=0.02), np.radians([30, 45])
    sweep = step_sweep(arm, q0, 0.05, [5e-3, 2.5e-3], "semi_implicit_euler")
    ref = al.simulate(arm, q0, 0.05, control_dt=2.5e-4, substeps=1, method="rk4").q[-1]
    assert np.array_equal(sweep.reference, ref)


def test_sweep_with_start_speeds():
    """qd0 reaches every run: a start with speed differs from a start at rest"""
    arm, q0 = al.tabletop_arm(), np.radians([30, 45])
    still = step_sweep(arm, q0, 0.01, [1e-3], "rk4", reference=q0)
    moving = step_sweep(arm, q0, 0.01, [1e-3], "rk4", qd0=[1.0, 0.0], reference=q0)
    expected = al.simulate(arm, q0, 0.01, qd0=[1.0, 0.0], substeps=1, method="rk4").q[-1]
    assert np.array_equal(moving.q_end[0], expected)
    assert not np.allclose(moving.q_end, still.q_end)


def test_sweep_bad_input():
    """Steps that do not divide the duration, unknown methods, bad references: ValueError"""
    arm, q0 = al.tabletop_arm(), np.radians([30, 45])
    with pytest.raises(ValueError, match="divide the duration"):
        step_sweep(arm, q0, 0.25, [3e-3], "rk4", reference=q0)
    with pytest.raises(ValueError, match="method must be one of"):
        step_sweep(arm, q0, 0.25, [1e-3], "euler", reference=q0)
    with pytest.raises(ValueError, match="reference has shape"):
        step_sweep(arm, q0, 0.25, [1e-3], "rk4", reference=[q0, q0])
    with pytest.raises(ValueError, match="steps must be"):
        step_sweep(arm, q0, 0.25, [-1e-3], "rk4", reference=q0)
    with pytest.raises(ValueError, match="q0 has shape"):
        step_sweep(arm, [q0, q0], 0.25, [1e-3], "rk4", reference=q0)
    with pytest.raises(ValueError, match="duration"):
        step_sweep(arm, q0, 0.0, [1e-3], "rk4", reference=q0)


# ----------------------------------------------------------------------------- growth_rate

def test_growth_rate_of_an_exponential():
    """A size 0.01 exp(3 t) grows at 3 per second, whatever window inside it is fitted"""
    t = np.linspace(0, 3, 301)
    size = 0.01 * np.exp(3 * t)
    assert growth_rate(t, size, 0.02, 50.0) == pytest.approx(3.0, rel=1e-12)
    assert growth_rate(t, size, 1.0, 10.0) == pytest.approx(3.0, rel=1e-12)


def test_growth_rate_ignores_what_lies_outside_the_window():
    """Saturation above the window and a flat start below it do not bend the fit"""
    t = np.linspace(0, 4, 401)
    size = np.clip(0.01 * np.exp(2 * (t - 1)), 0.01, 100.0)    # flat, grows, saturates
    assert growth_rate(t, size, 0.02, 50.0) == pytest.approx(2.0, rel=1e-9)


def test_growth_rate_bad_input():
    """An empty window or a reversed one is refused"""
    t = np.linspace(0, 1, 11)
    with pytest.raises(ValueError, match="fewer than two samples"):
        growth_rate(t, np.full(11, 0.01), 0.02, 50.0)
    with pytest.raises(ValueError, match="0 < low < high"):
        growth_rate(t, np.exp(t), 5.0, 1.0)
    with pytest.raises(ValueError, match="same"):
        growth_rate(t, np.exp(t[:5]), 1.0, 2.0)


# ----------------------------------------------------------------------------- growth_fit

def test_growth_fit_of_an_exponential():
    """0.01 exp(3 t): rate 3 per second and the line's start 0.01, whatever window is fitted"""
    t = np.linspace(0, 3, 301)
    size = 0.01 * np.exp(3 * t)
    for low, high in ((0.02, 50.0), (1.0, 10.0)):
        rate, start = growth_fit(t, size, low, high)
        assert rate == pytest.approx(3.0, rel=1e-12)
        assert start == pytest.approx(0.01, rel=1e-10)
        assert growth_rate(t, size, low, high) == rate


def test_growth_fit_is_the_least_squares_line_not_the_first_sample():
    """On a bumpy spread the fitted line passes through the mean of log(size) at the mean
    time of the fitted samples, and its residuals are orthogonal to time: the normal
    equations of least squares, checked without polyfit. A line anchored at the first
    fitted sample fails this."""
    rng = np.random.default_rng(5)
    t = np.linspace(0, 2.5, 2501)
    size = 0.01 * np.exp(2.5 * t + 0.8 * np.sin(7 * t) + 0.2 * rng.standard_normal(t.size))
    low, high = 0.02, 50.0
    rate, start = growth_fit(t, size, low, high)
    inside = (size >= low) & (size <= high)
    residual = np.log(size[inside]) - (np.log(start) + rate * t[inside])
    assert abs(residual.sum()) < 1e-9 * inside.sum()
    assert abs((residual * t[inside]).sum()) < 1e-9 * inside.sum()
    first = np.argmax(inside)
    anchored = np.log(size[first]) - rate * t[first]       # the old drawing's intercept
    assert abs(anchored - np.log(start)) > 0.05


# ----------------------------------------------------------------------------- stability

from dataclasses import replace  # noqa: E402

from armlab.accuracy import stable_step, step_matrix  # noqa: E402

METHODS = ("explicit_euler", "semi_implicit_euler", "rk4")


def rod():
    """A 0.3 m, 1 kg rod about one end without gravity: I = 0.03 kg m^2, exactly linear."""
    return al.PlanarArm(lengths=[0.3], masses=[1.0], gravity=0.0)


def stiff_arm():
    """The table-top arm without gravity, dampers (4, 1.5) N m s/rad in the plant."""
    return replace(al.tabletop_arm(), gravity=0.0, damping=(4.0, 1.5))


@pytest.mark.parametrize("method", METHODS)
def test_step_matrix_is_one_simulated_step(method):
    """A @ (q, qd) is armlab.simulate's step with the plant's spring (one step per tick): exactly
    for one joint, to the linearization's order for two joints at 1e-5 rad"""
    h = 2e-3
    x = np.array([0.1, -3.0])
    sim = al.simulate(rod(), [x[0]], h, qd0=[x[1]], spring=300.0, control_dt=h, substeps=1,
                      method=method)
    np.testing.assert_allclose(step_matrix(rod(), [0.0], h, 300.0, method=method) @ x,
                               [sim.q[1, 0], sim.qd[1, 0]], rtol=1e-13, atol=1e-15)
    arm, K = stiff_arm(), [60.0, 30.0]
    x = np.array([1e-5, -2e-5, 3e-4, 1e-4])
    sim = al.simulate(arm, x[:2], h, qd0=x[2:], spring=K, control_dt=h, substeps=1,
                      method=method)
    np.testing.assert_allclose(step_matrix(arm, [0.0, 0.0], h, K, method=method) @ x,
                               np.concatenate([sim.q[1], sim.qd[1]]), rtol=1e-5, atol=1e-12)


def test_stable_step_closed_forms_for_one_joint():
    """omega = 100 rad/s: undamped explicit 0, semi-implicit 2/omega, RK4 2 sqrt(2)/omega; damped
    (zeta from 0.1 to 2) explicit 2 zeta/omega up to zeta = 1, semi-implicit
    2 (sqrt(1 + zeta^2) - zeta)/omega"""
    omega, I, K = 100.0, 0.03, 300.0
    assert stable_step(rod(), [0.0], K, method="explicit_euler") == 0.0
    assert stable_step(rod(), [0.0], K) == pytest.approx(2 / omega, rel=1e-12)
    assert stable_step(rod(), [0.0], K, method="rk4") == pytest.approx(2 * np.sqrt(2) / omega,
                                                                        rel=1e-8)
    for zeta in (0.1, 0.5, 1.0, 2.0):
        d = 2 * zeta * np.sqrt(K * I)
        semi = stable_step(rod(), [0.0], K, damping=d)
        assert semi == pytest.approx(2 * (np.sqrt(1 + zeta ** 2) - zeta) / omega, rel=1e-8)
        if zeta <= 1:
            explicit = stable_step(rod(), [0.0], K, damping=d, method="explicit_euler")
            assert explicit == pytest.approx(2 * zeta / omega, rel=1e-12)


@pytest.mark.parametrize("zeta", [0.1, 0.5, 2.0])
def test_stable_step_rk4_damped_against_the_stability_polynomial(zeta):
    """RK4's bound with damping is the smallest positive root of |R(h lam)|^2 = 1, with
    R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24, found here by numpy's polynomial roots"""
    omega, I, K = 100.0, 0.03, 300.0
    lams = np.roots([1.0, 2 * zeta * omega, omega ** 2])
    bound = np.inf
    for lam in lams:
        R = np.poly1d([lam ** 4 / 24, lam ** 3 / 6, lam ** 2 / 2, lam, 1.0])
        P = R * np.poly1d(np.conj(R.coeffs)) - 1.0
        roots = np.roots(P.coeffs)
        real = roots[(np.abs(roots.imag) < 1e-6 * np.abs(roots)) & (roots.real > 1e-9 / omega)]
        bound = min(bound, real.real.min())
    found = stable_step(rod(), [0.0], K, damping=2 * zeta * np.sqrt(K * I), method="rk4")
    assert found == pytest.approx(bound, rel=1e-7)


@pytest.mark.parametrize("method, damped", [(m, True) for m in METHODS]
                         + [("semi_implicit_euler", False), ("rk4", False)])
def test_stable_step_by_brute_force_in_simulation(method, damped):
    """The independent route: simulate the two-joint arm on springs (60, 30) N m/rad, with
    dampers (4, 1.5) N m s/rad in the plant or without, at steps from 0.90 to 1.10 times the
    bound; every step below it stays within ten times the start over 600 steps (an undamped
    semi-implicit orbit is an ellipse that swells towards the bound), every step above it
    grows a hundredfold"""
    arm, K = stiff_arm(), [60.0, 30.0]
    if not damped:
        arm = replace(arm, damping=0.0)
    h_max = float(stable_step(arm, [0.0, 0.0], K, method=method))
    start = np.array([1e-5, -1e-5])
    for factor in (0.90, 0.95, 0.98, 1.02, 1.05, 1.10):
        h = factor * h_max
        try:
            sim = al.simulate(arm, start, 600 * h, spring=K, control_dt=h, substeps=1,
                              method=method)
            growth = np.abs(sim.q[-60:]).max() / 1e-5
        except ValueError:                        # diverged: grew past floating point
            growth = np.inf
        assert (growth < 10.0) if factor < 1 else (growth > 100.0), (factor, growth)


def test_explicit_euler_without_damping_grows_at_any_step():
    """stable_step's 0: at h omega = 0.1, far inside the others' bounds, explicit Euler's
    oscillation still grows (energy times 1 + (h omega)^2 per step)"""
    sim = al.simulate(rod(), [0.1], 2000 * 1e-3, spring=300.0, control_dt=1e-3, substeps=1,
                      method="explicit_euler")
    ratio = sim.energy[-1] / sim.energy[0]
    assert ratio == pytest.approx(1.01 ** 2000, rel=1e-9)


def test_stable_step_broadcasts_and_is_the_loop():
    """A batch of poses and of stiffnesses: each bound is the one computed alone; the arm's
    own friction counts as damping; nothing pulling gives inf"""
    arm = stiff_arm()
    poses = np.radians([[0, 0], [30, 90], [-40, 150]])
    springs = np.array([[60.0, 30.0], [600.0, 300.0], [6.0, 3.0]])
    for method in METHODS:
        batch = stable_step(arm, poses, springs, method=method)
        assert batch.shape == (3,)
        alone = [float(stable_step(arm, p, k, method=method)) for p, k in zip(poses, springs)]
        np.testing.assert_allclose(batch, alone, rtol=1e-12)
    plain = replace(arm, damping=0.0)
    assert stable_step(arm, [0.0, 0.0], [60.0, 30.0]) == pytest.approx(
        stable_step(plain, [0.0, 0.0], [60.0, 30.0], damping=[4.0, 1.5]), rel=1e-12)
    assert stable_step(plain, [0.0, 0.0], 0.0) == np.inf
    assert step_matrix(arm, poses, 1e-3, springs).shape == (3, 4, 4)


def test_stable_step_bad_input():
    """Negative stiffness, wrong length, a bad method or step: ValueError naming the argument"""
    arm = stiff_arm()
    with pytest.raises(ValueError, match="spring must not be negative"):
        stable_step(arm, [0.0, 0.0], [-1.0, 1.0])
    with pytest.raises(ValueError, match="damping has shape"):
        stable_step(arm, [0.0, 0.0], 1.0, damping=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="method must be one of"):
        stable_step(arm, [0.0, 0.0], 1.0, method="euler")
    with pytest.raises(ValueError, match="h must be positive"):
        step_matrix(arm, [0.0, 0.0], 0.0, 1.0)
    with pytest.raises(ValueError, match="q has shape"):
        stable_step(arm, [0.0], 1.0)
