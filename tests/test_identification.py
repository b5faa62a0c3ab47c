"""Identification of the gravity parameters: regressor, least-squares fit, payload mass."""

import numpy as np
import pytest

import armlab as al

EMPTY = al.tabletop_arm()
LOADED = al.tabletop_arm().with_payload(0.5)


def test_regressor_times_parameters_is_gravity():
    """Two routes: Y(q) (a, b) equals the dynamics' g(q), for many poses at once."""
    q = np.random.default_rng(0).uniform(-np.pi, np.pi, (7, 3, 2))
    for arm in (EMPTY, LOADED, al.statics_arm(), al.rod_arm(m2=2.5, gravity=3.7)):
        g = al.gravity_regressor(q) @ al.gravity_parameters(arm)
        np.testing.assert_allclose(g, al.gravity_torques(arm, q), atol=1e-12)


def test_tabletop_true_parameters():
    """The table-top case: b = 1.226 N m empty and 2.453 N m with 0.5 kg at the tip (exactly
    0.125 x 9.81 = 1.22625 and 0.25 x 9.81 = 2.4525, which the seed rounds half up)."""
    assert al.gravity_parameters(EMPTY)[1] == pytest.approx(1.22625, rel=1e-14)
    assert al.gravity_parameters(LOADED)[1] == pytest.approx(2.4525, rel=1e-14)
    b_empty, b_loaded = al.gravity_parameters(EMPTY)[1], al.gravity_parameters(LOADED)[1]
    assert al.payload_mass(b_empty, b_loaded, 0.25) == pytest.approx(0.5, rel=1e-12)


def test_draw_order_reproduces_a_printed_run():
    """'Arm dynamics' prints one run of this experiment, b = 1.232 (empty) and 2.450 N m
    (payload), mass 0.50 kg. default_rng(67), found by a search (about 1 start in 1,000
    matches both by chance), reproduces it when the empty run is drawn first and then the
    loaded one, 20 poses each, poses before noise: a regression test of that order, which
    the exercise set's draw relies on. The book shows the draw from 0, not this one."""
    rng = np.random.default_rng(67)
    empty = al.fit_gravity(*al.holding_torques(EMPTY, rng, poses=20, noise=0.05))
    loaded = al.fit_gravity(*al.holding_torques(LOADED, rng, poses=20, noise=0.05))
    assert round(empty.b, 3) == 1.232
    assert round(loaded.b, 3) == 2.450
    assert round(al.payload_mass(empty.b, loaded.b, 0.25), 2) == 0.50


def test_noise_free_fit_is_exact():
    q, tau = al.holding_torques(LOADED, 3, poses=5, noise=0.0)
    fit = al.fit_gravity(q, tau)
    np.testing.assert_allclose(fit.theta, al.gravity_parameters(LOADED), rtol=1e-12)
    assert np.abs(fit.residuals).max() < 1e-12


def test_fit_lands_within_its_standard_error_over_fixed_starts():
    """Over 300 fixed starts, |b_fit - b| / stderr behaves like a standard normal: about 68 %
    within one standard error, all within four; the same for a."""
    truth = al.gravity_parameters(EMPTY)
    z = []
    for seed in range(300):
        fit = al.fit_gravity(*al.holding_torques(EMPTY, seed), noise=0.05)
        z.append((fit.theta - truth) / fit.stderr)
    z = np.abs(np.array(z))
    assert (z < 4).all()
    within_one = (z < 1).mean(axis=0)
    assert ((0.60 < within_one) & (within_one < 0.76)).all()      # 0.683 +- 3 sigma of 300 draws


def test_estimated_noise_matches_the_true_noise():
    """Without the noise given, the residuals estimate it: close to 0.05 N m on average."""
    sigmas = []
    for seed in range(50):
        fit = al.fit_gravity(*al.holding_torques(EMPTY, seed))
        known = al.fit_gravity(*al.holding_torques(EMPTY, seed), noise=0.05)
        sigmas.append(fit.stderr / known.stderr * 0.05)
    assert np.mean(sigmas) == pytest.approx(0.05, rel=0.05)


def test_payload_mass_within_its_standard_error():
    """The payload's mass from fitted b's, over fixed seeds: unbiased, spread as predicted."""
    masses, errs = [], []
    for seed in range(200):
        rng = np.random.default_rng(seed)
        e = al.fit_gravity(*al.holding_torques(EMPTY, rng), noise=0.05)
        f = al.fit_gravity(*al.holding_torques(LOADED, rng), noise=0.05)
        masses.append(al.payload_mass(e.b, f.b, 0.25))
        errs.append(np.hypot(e.stderr[1], f.stderr[1]) / (9.81 * 0.25))
    masses, errs = np.array(masses), np.array(errs)
    assert np.mean(masses) == pytest.approx(0.5, abs=3 * np.mean(errs) / np.sqrt(200))
    assert (np.abs(masses - 0.5) < 4 * errs).all()


def test_shapes():
    assert al.gravity_regressor([0.1, 0.2]).shape == (2, 2)
    assert al.gravity_regressor(np.zeros((4, 5, 2))).shape == (4, 5, 2, 2)
    q, tau = al.holding_torques(EMPTY, 0, poses=7)
    assert q.shape == tau.shape == (7, 2)
    fit = al.fit_gravity(q, tau)
    assert fit.theta.shape == fit.stderr.shape == (2,) and fit.residuals.shape == (7, 2)


def test_bad_input():
    with pytest.raises(ValueError, match="two links"):
        al.gravity_parameters(al.PlanarArm((1, 1, 1), (1, 1, 1)))
    with pytest.raises(ValueError, match="gravity"):
        al.gravity_parameters(al.PlanarArm((1, 1), (1, 1), gravity=[9.81, 0]))
    with pytest.raises(ValueError, match="q"):
        al.gravity_regressor([0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="shape"):
        al.fit_gravity(np.zeros((3, 2)), np.zeros((4, 2)))
    with pytest.raises(ValueError, match="determine"):          # cos(q1 + q2) = 0: no b
        al.fit_gravity([[0.3, np.pi / 2 - 0.3], [0.5, np.pi / 2 - 0.5]], np.ones((2, 2)))
    with pytest.raises(ValueError, match="noise"):
        al.holding_torques(EMPTY, 0, noise=-1)
    with pytest.raises(ValueError, match="poses"):
        al.holding_torques(EMPTY, 0, poses=0)
    with pytest.raises(ValueError, match="length"):
        al.payload_mass(1.0, 2.0, 0.0)


READER_FACING = ["armlab.gravity", "armlab.identification", "armlab.dynamics", "armlab.lagrange",
                 "armlab.energy", "armlab.labs.gravity", "armlab.labs.inverse_dynamics",
                 "armlab.figures.gravity", "armlab.figures.inverse_dynamics"]


@pytest.mark.parametrize("module", READER_FACING)
def test_docstrings_name_no_source_documents(module):
    """The API page shows these modules' docstrings and data: no "seed" in any of them (the
    book states its examples on their own terms)"""
    import importlib
    import inspect

    mod = importlib.import_module(module)
    texts = [mod.__doc__ or ""]
    for name in mod.__all__:
        obj = getattr(mod, name)
        texts.append(inspect.getdoc(obj) or "" if callable(obj) else repr(obj))
        if inspect.isclass(obj):
            texts += [inspect.getdoc(m) or "" for _, m in inspect.getmembers(obj)
                      if callable(m) and not _.startswith("__")]
    offending = [t for t in texts if "seed" in t.lower()]
    assert not offending, offending[:2]


# ------------------------------------------------------------------- the dynamics regressor
from arm_strategies import arm_and_state, arms  # noqa: E402
from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

REG = settings(max_examples=60, deadline=None)


@REG
@given(arm_and_state(min_links=1, max_links=7, friction=True))
def test_regressor_times_base_parameters_is_rnea(case):
    """Two routes: Y(q, qd, qdd) theta equals the recursive Newton-Euler torque, friction and
    all, on random arms of one to seven links (any gravity, centres of mass beyond the link)"""
    arm, q, qd, qdd, _, _ = case
    tau = al.rnea(arm, q, qd, qdd)
    Y = al.dynamics_regressor(arm, q, qd, qdd, friction=True)
    scale = 1.0 + np.abs(tau).max()
    np.testing.assert_allclose(Y @ al.base_parameters(arm, friction=True), tau,
                               rtol=0, atol=1e-11 * scale)
    rigid = al.dynamics_regressor(arm, q, qd, qdd)
    np.testing.assert_allclose(rigid, Y[:, :2 * arm.n], rtol=0, atol=0)


@REG
@given(arms(min_links=1, max_links=5, friction=False), st.integers(0, 2**32 - 1))
def test_torques_alone_determine_the_regressor(arm, start):
    """Independent of the regressor's code: at one state, the torques RNEA gives for 3n arms
    of the same lengths and gravity but random mass data fix Y by least squares, and that Y is
    dynamics_regressor's (torque is linear in the base parameters, nothing else)"""
    rng = np.random.default_rng(start)
    n = arm.n
    q, qd, qdd = rng.uniform(-2, 2, (3, n))
    thetas, taus = [], []
    for _ in range(3 * n):
        other = al.PlanarArm(arm.lengths, rng.uniform(0.1, 3, n), com=rng.uniform(-0.5, 1.5, n),
                             inertia=rng.uniform(0.0, 0.5, n), gravity=arm.gravity)
        thetas.append(al.base_parameters(other))
        taus.append(al.rnea(other, q, qd, qdd))
    thetas, taus = np.array(thetas), np.array(taus)
    assume(np.linalg.cond(thetas) < 1e6)
    Y_t, *_ = np.linalg.lstsq(thetas, taus, rcond=None)          # taus = thetas @ Y^T
    Y = al.dynamics_regressor(arm, q, qd, qdd)
    np.testing.assert_allclose(Y_t.T, Y, rtol=0, atol=1e-8 * (1 + np.abs(Y).max()))


def test_two_links_match_the_chapter_formula():
    """The two-link regressor written out term by term (the inverse dynamics chapter's
    equation), against dynamics_regressor on a batch of random states"""
    arm = al.PlanarArm((0.7, 0.4), (1.3, 0.6), gravity=[2.0, -9.0])
    rng = np.random.default_rng(5)
    q, qd, qdd = rng.uniform(-3, 3, (3, 50, 2))
    L1 = arm.lengths[0]
    gx, gy = arm.gravity
    p1, p12 = q[:, 0], q.sum(axis=1)
    c2, s2 = np.cos(q[:, 1]), np.sin(q[:, 1])
    w1 = gx * np.sin(p1) - gy * np.cos(p1)           # -a_grav x (e_1), per unit X1
    w12 = gx * np.sin(p12) - gy * np.cos(p12)
    a1, a2 = qdd[:, 0], qdd[:, 1]
    v1, v2 = qd[:, 0], qd[:, 1]
    zero = np.zeros_like(a1)
    expected = np.stack([
        np.stack([a1, w1, a1 + a2, L1 * (c2 * (2 * a1 + a2) - s2 * (2 * v1 * v2 + v2**2)) + w12],
                 -1),
        np.stack([zero, zero, a1 + a2, L1 * (c2 * a1 + s2 * v1**2) + w12], -1)], -2)
    np.testing.assert_allclose(al.dynamics_regressor(arm, q, qd, qdd), expected, atol=1e-12)


def test_base_parameters_give_the_closed_forms_constants():
    """alpha = Z1 + Z2, beta = L1 X2, delta = Z2 (inertia_constants) and the gravity
    chapter's a = g0 X1, b = g0 X2 (gravity_parameters), for the book's arms and a payload"""
    for arm in (EMPTY, LOADED, al.rod_arm(m2=2.0), al.statics_arm()):
        Z1, X1, Z2, X2 = al.base_parameters(arm)
        alpha, beta, delta = al.inertia_constants(arm)
        np.testing.assert_allclose([Z1 + Z2, arm.lengths[0] * X2, Z2], [alpha, beta, delta],
                                   rtol=1e-14)
        np.testing.assert_allclose(-arm.gravity[1] * np.array([X1, X2]),
                                   al.gravity_parameters(arm), rtol=1e-14)


def test_the_table_top_arms_base_parameters():
    """'Arm dynamics'' table-top arm: Z1 = 0.015 + 2 (0.15)^2 + 1 (0.3)^2 = 0.15 kg m^2,
    X1 = 2 (0.15) + 1 (0.3) = 0.6 kg m, Z2 = 1 (0.25)^2 / 3 kg m^2, X2 = 0.125 kg m"""
    np.testing.assert_allclose(al.base_parameters(EMPTY), [0.15, 0.6, 0.0625 / 3, 0.125],
                               rtol=1e-14)
    real = al.tabletop_arm(damping=0.02)
    np.testing.assert_allclose(al.base_parameters(real, friction=True)[4:], [0.02, 0.02, 0, 0])


def test_arms_with_equal_base_parameters_need_equal_torques():
    """A heavier link 1 with the same Z1 and X1 (m1 lc1 and I1 + m1 lc1^2 kept) needs the same
    torque for every motion: the masses themselves are not identifiable"""
    m1, lc1 = 3.0, 0.3 / 3.0
    twin = al.PlanarArm((0.30, 0.25), (m1, 1.0), com=(lc1, 0.125),
                        inertia=(0.015 + 2 * 0.15**2 - m1 * lc1**2, EMPTY.inertia[1]))
    np.testing.assert_allclose(al.base_parameters(twin), al.base_parameters(EMPTY), rtol=1e-14)
    rng = np.random.default_rng(1)
    q, qd, qdd = rng.uniform(-3, 3, (3, 200, 2))
    np.testing.assert_allclose(al.rnea(twin, q, qd, qdd), al.rnea(EMPTY, q, qd, qdd),
                               rtol=0, atol=1e-13)
    assert not np.allclose(al.rnea(al.tabletop_arm().with_payload(0.01), q, qd, qdd),
                           al.rnea(EMPTY, q, qd, qdd), atol=1e-4)


def tour(arm, noise, start=0, legs=((-45, 90), (60, -30), (150, 60), (30, -120), (-45, 90))):
    """The inverse dynamics chapter's tour: rest-to-rest quintics of 0.8 s, sampled at 1 kHz,
    with the arm's torques plus Gaussian noise."""
    t = np.arange(0.0, 0.8, 1e-3)
    poses = np.radians(legs)
    pieces = [al.quintic(a, b, 0.8)(t) for a, b in zip(poses[:-1], poses[1:])]
    q, qd, qdd = (np.concatenate(p) for p in zip(*pieces))
    tau = al.inverse_dynamics(arm, q, qd, qdd)
    return q, qd, qdd, tau + np.random.default_rng(start).normal(0.0, noise, tau.shape)


def test_noise_free_fit_is_exact_with_friction():
    """Torques without noise give back every base parameter and friction coefficient"""
    arm = al.PlanarArm((0.30, 0.25), (2.0, 1.0), damping=(0.02, 0.03), coulomb=(0.05, 0.01))
    q, qd, qdd, tau = tour(arm, 0.0)
    fit = al.fit_dynamics(arm, q, qd, qdd, tau, friction=True)
    np.testing.assert_allclose(fit.theta, al.base_parameters(arm, friction=True), rtol=1e-9,
                               atol=1e-12)
    assert fit.names == ("Z1", "X1", "Z2", "X2", "B1", "B2", "Tc1", "Tc2")
    assert fit["Tc1"] == pytest.approx(0.05, rel=1e-9)
    assert np.abs(fit.residuals).max() < 1e-12


def test_noisy_fits_scatter_as_their_standard_errors_say():
    """Over 100 noise draws on the tour, (fit - true) / stderr has mean near 0 and spread near
    1 for every parameter, friction included (standard normal: 4 sigma bounds for 100 draws)"""
    real = al.tabletop_arm(damping=0.02)
    truth = al.base_parameters(real, friction=True)
    q, qd, qdd, tau0 = tour(real, 0.0)
    Y = al.dynamics_regressor(real, q, qd, qdd, friction=True)
    z = []
    for start in range(100):
        tau = tau0 + np.random.default_rng(start).normal(0.0, 0.05, tau0.shape)
        fit = al.fit_dynamics(real, q, qd, qdd, tau, noise=0.05, friction=True)
        z.append((fit.theta - truth) / fit.stderr)
    z = np.array(z)
    assert np.all(np.abs(z.mean(axis=0)) < 0.4)
    assert np.all(np.abs(z.std(axis=0) - 1) < 0.3)
    assert Y.shape == (len(q), 2, 8)


def test_fit_without_friction_is_biased_on_a_one_way_move():
    """Leaving the friction columns out on the chapter's one-way move: the residuals look like
    noise, but X1 lands tens of standard errors off (the standard errors assume the model)"""
    real = al.tabletop_arm(damping=0.02)
    t = np.linspace(0, 0.8, 801)
    q, qd, qdd = al.quintic(np.radians([-45, 90]), np.radians([60, -30]), 0.8)(t)
    tau = al.inverse_dynamics(real, q, qd, qdd)
    tau = tau + np.random.default_rng(0).normal(0.0, 0.05, tau.shape)
    fit = al.fit_dynamics(real, q, qd, qdd, tau, noise=0.05)
    z = (fit.theta - al.base_parameters(real)) / fit.stderr
    assert np.abs(z).max() > 20
    assert np.sqrt(np.mean(fit.residuals**2)) < 1.2 * 0.05
    fair = al.fit_dynamics(real, q, qd, qdd, tau, noise=0.05, friction=True)
    assert np.abs((fair.theta - al.base_parameters(real, friction=True)) / fair.stderr).max() < 4


def test_regressor_broadcasts_and_batch_equals_loop():
    arm = al.PlanarArm((0.5, 0.4, 0.3), (1.0, 2.0, 0.5))
    rng = np.random.default_rng(3)
    q = rng.uniform(-3, 3, (4, 5, 3))
    qd = rng.uniform(-3, 3, (5, 3))
    qdd = rng.uniform(-3, 3, 3)
    Y = al.dynamics_regressor(arm, q, qd, qdd, friction=True)
    assert Y.shape == (4, 5, 3, 12)
    for i in range(4):
        for k in range(5):
            np.testing.assert_array_equal(
                Y[i, k], al.dynamics_regressor(arm, q[i, k], qd[k], qdd, friction=True))
    assert al.dynamics_regressor(arm, q[0, 0], qd[0], qdd).shape == (3, 6)


def test_regressor_and_fit_bad_input():
    with pytest.raises(ValueError, match="qd has shape"):
        al.dynamics_regressor(EMPTY, [0, 0], [0, 0, 0], [0, 0])
    with pytest.raises(ValueError, match="q must be finite"):
        al.dynamics_regressor(EMPTY, [np.nan, 0], [0, 0], [0, 0])
    with pytest.raises(ValueError, match="do not broadcast"):
        al.dynamics_regressor(EMPTY, np.zeros((3, 2)), np.zeros((4, 2)), [0, 0])
    with pytest.raises(ValueError, match=r"shape \(m, 2\)"):
        al.fit_dynamics(EMPTY, np.zeros((5, 2)), np.zeros((5, 2)), np.zeros((5, 2)),
                        np.zeros((4, 2)))
    with pytest.raises(ValueError, match="determines only"):        # at rest: no Z columns
        al.fit_dynamics(EMPTY, np.random.default_rng(0).uniform(-3, 3, (30, 2)),
                        np.zeros((30, 2)), np.zeros((30, 2)), np.zeros((30, 2)))
    q, qd, qdd, tau = tour(al.tabletop_arm(), 0.0)
    flat = al.PlanarArm((0.30, 0.25), (2.0, 1.0), gravity=0.0)      # nothing weighs X1
    with pytest.raises(ValueError, match="X1"):
        al.fit_dynamics(flat, q, qd, qdd, tau)
    with pytest.raises(ValueError, match="noise"):
        al.fit_dynamics(EMPTY, q, qd, qdd, tau, noise=-0.1)
    with pytest.raises(ValueError, match="n must be"):
        al.base_parameter_names(0)
