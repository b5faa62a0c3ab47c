"""armlab.tuning: gains from a frequency and a damping, rest errors, tracking summaries.

Each function is checked against an independent route: the gains against the
analytic response of the error equation in a simulation, the rest error against
a long simulation that has settled, the summary against the errors read directly.
The seed-000 settings are those of tests/test_simulation.py.
"""

import numpy as np
import pytest

import armlab as al

START, END = np.radians([-45, 90]), np.radians([60, -30])
KP, KD, KI = (60, 30), (4, 1.5), (60, 30)


@pytest.fixture(scope="module")
def real():
    return al.tabletop_arm(damping=0.02)


@pytest.fixture(scope="module")
def model():
    return al.tabletop_arm(damping=0.016)


@pytest.fixture(scope="module")
def plan():
    return al.quintic(START, END, 0.8, hold=0.7)


# ----------------------------------------------------------------------------- gains

def test_tabletop_computed_torque_gains():
    """The table-top case: both joints at 20 rad/s, critically damped: Kp = 400, Kd = 40."""
    kp, kd = al.pd_gains(20.0)
    assert (float(kp), float(kd)) == (400.0, 40.0)
    omega, zeta = al.natural_frequency(400, 40)
    assert (float(omega), float(zeta)) == (20.0, 1.0)


def test_gains_round_trip_and_broadcast():
    rng = np.random.default_rng(3)
    omega = rng.uniform(1, 50, (4, 1))
    zeta = rng.uniform(0, 2, (1, 3))
    inertia = rng.uniform(0.01, 1, (4, 3))
    kp, kd = al.pd_gains(omega, zeta, inertia)
    assert kp.shape == kd.shape == (4, 3)
    w, z = al.natural_frequency(kp, kd, inertia)
    np.testing.assert_allclose(w, np.broadcast_to(omega, (4, 3)), rtol=1e-14)
    np.testing.assert_allclose(z, np.broadcast_to(zeta, (4, 3)), rtol=1e-14, atol=1e-15)


def test_tabletop_pd_gains_at_the_start_pose():
    """The chapter's reading of the table-top case's PD gains at the start pose."""
    M = al.mass_matrix(al.tabletop_arm(), START)
    omega, zeta = al.natural_frequency(KP, KD, np.diag(M))
    assert omega.round(1).tolist() == [18.7, 37.9]
    assert zeta.round(2).tolist() == [0.62, 0.95]


@pytest.mark.parametrize("zeta", [1.0, 0.4])
def test_computed_torque_error_follows_the_error_equation(real, zeta):
    """With an exact model, computed torque's error obeys e'' + Kd e' + Kp e = 0: a start
    2 deg off a held pose decays as the analytic solution for the gains' omega and zeta
    (10 kHz loop, RK4 plant, so the zero-order hold and the step stay small)."""
    omega = 20.0
    kp, kd = al.pd_gains(omega, zeta)
    e0 = np.radians([2.0, -2.0])
    sim = al.simulate(real, START - e0, 0.5, al.computed_torque(real, START, kp, kd),
                      control_dt=1e-4, substeps=1, method="rk4")
    t = sim.time
    if zeta == 1.0:
        shape = (1 + omega * t) * np.exp(-omega * t)
    else:
        wd = omega * np.sqrt(1 - zeta**2)
        shape = np.exp(-zeta * omega * t) * (np.cos(wd * t)
                                             + zeta / np.sqrt(1 - zeta**2) * np.sin(wd * t))
    e = al.tracking_error(sim, START)
    assert np.abs(e - e0 * shape[:, None]).max() < 0.001 * np.abs(e0).max()


def test_pd_gains_with_an_inertia_on_a_single_joint():
    """A PD from pd_gains(omega, zeta, I) on a lone link of inertia I, no gravity, rings
    at omega with damping zeta (compared with the analytic response)."""
    arm = al.PlanarArm(lengths=[0.4], masses=[2.0], gravity=0.0)
    inertia = float(al.mass_matrix(arm, [0.0])[0, 0])
    omega, zeta = 12.0, 0.3
    kp, kd = al.pd_gains(omega, zeta, inertia)
    sim = al.simulate(arm, [0.1], 1.0, al.pd([0.0], kp, kd), control_dt=1e-4, substeps=1,
                      method="rk4")
    wd = omega * np.sqrt(1 - zeta**2)
    t = sim.time
    expected = 0.1 * np.exp(-zeta * omega * t) * (np.cos(wd * t)
                                                  + zeta / np.sqrt(1 - zeta**2) * np.sin(wd * t))
    assert np.abs(sim.q[:, 0] - expected).max() < 1e-3 * 0.1


@pytest.mark.parametrize("call, word", [
    (lambda: al.pd_gains(0.0), "omega"),
    (lambda: al.pd_gains(-3.0), "omega"),
    (lambda: al.pd_gains(10.0, -0.1), "zeta"),
    (lambda: al.pd_gains(10.0, 1.0, 0.0), "inertia"),
    (lambda: al.pd_gains(np.nan), "omega"),
    (lambda: al.natural_frequency(0.0, 1.0), "kp"),
    (lambda: al.natural_frequency(10.0, -1.0), "kd"),
    (lambda: al.natural_frequency(10.0, 1.0, [1.0, -1.0]), "inertia"),
])
def test_gains_bad_input(call, word):
    with pytest.raises(ValueError, match=word):
        call()


# ----------------------------------------------------------------------------- rest errors

def test_tabletop_pd_sag_equals_the_settled_simulation(real):
    """The table-top case: PD holding (30, 45) deg sags 5.5 and 0.9 deg; the rest equation agrees
    with the simulation after 3 s, by then at rest."""
    target = np.radians([30, 45])
    e = al.settled_error(real, target, KP)
    assert np.degrees(e).round(1).tolist() == [5.5, 0.9]
    sim = al.simulate(real, target, 3.0, al.pd(target, KP, KD))
    assert np.abs(sim.qd[-1]).max() < 1e-7
    np.testing.assert_allclose(al.tracking_error(sim, target)[-1], e, atol=1e-9)
    # the equation itself holds at the rest pose
    np.testing.assert_allclose(np.array(KP) * e, al.gravity_torques(real, target - e),
                               atol=1e-12)


def test_tabletop_unknown_payload_rest_under_computed_torque(model):
    """The table-top case: computed torque, 0.5 kg the model does not know: the elbow ends 10.5 deg
    low and the shoulder 1.1 deg off; the rest equation matches a 6 s hold at rest."""
    loaded = al.tabletop_arm(damping=0.02).with_payload(0.5)
    e = al.settled_error(loaded, END, 400, model=model, computed_torque=True)
    assert np.degrees(e).round(1).tolist() == [-1.1, 10.5]
    sim = al.simulate(loaded, END, 6.0, al.computed_torque(model, END, 400, 40))
    np.testing.assert_allclose(al.tracking_error(sim, END)[-1], e, atol=1e-9)
    q = END - e
    M = al.mass_matrix(model, q)
    np.testing.assert_allclose(M @ (400 * e), al.gravity_torques(loaded, q)
                               - al.gravity_torques(model, q), atol=1e-12)


def test_gravity_compensation_with_wrong_masses_settles_where_predicted(real):
    """PD + the gravity of a model with 20 % light links rests where Kp e = g - g_model."""
    wrong = al.PlanarArm(lengths=real.lengths, masses=(1.6, 0.8))
    target = np.radians([20, 60])
    e = al.settled_error(real, target, KP, model=wrong)
    sim = al.simulate(real, target, 4.0, al.pd_gravity(wrong, target, KP, KD))
    np.testing.assert_allclose(al.tracking_error(sim, target)[-1], e, atol=1e-9)
    assert (e > 0).all()                                           # too light: it sags


def test_exact_model_rests_on_target(real, model):
    e = al.settled_error(real, np.radians([30, 45]), KP, model=model)
    np.testing.assert_array_equal(e, np.zeros(2))


def test_settled_error_batch_equals_one_at_a_time(real):
    targets = np.radians([[30, 45], [-60, 100], [10, -20], [80, 5]]).reshape(2, 2, 2)
    batch = al.settled_error(real, targets, KP)
    assert batch.shape == (2, 2, 2)
    for idx in np.ndindex(2, 2):
        np.testing.assert_allclose(batch[idx], al.settled_error(real, targets[idx], KP),
                                   atol=1e-14)


@pytest.mark.parametrize("kwargs, word", [
    (dict(kp=0.5, model=al.tabletop_arm(), computed_torque=True), "too low"),
    (dict(kp=[0.5, 0.2], model=al.tabletop_arm()), "too low"),
    (dict(kp=[60, 0]), "kp"),
    (dict(kp=[60, 30, 10]), "kp"),
    (dict(kp=400, computed_torque=True), "model"),
    (dict(kp=60, model=al.PlanarArm((1, 1, 1), (1, 1, 1))), "model"),
    (dict(kp=60, q_target=[0.1, 0.2, 0.3]), "q_target"),
])
def test_settled_error_bad_input(real, kwargs, word):
    """Bad input names the argument; a payload the stiffness cannot hold is refused."""
    kwargs.setdefault("q_target", np.radians([0, 0]))
    with pytest.raises(ValueError, match=word):
        al.settled_error(real.with_payload(2.0), **kwargs)


# ----------------------------------------------------------------------------- summaries

def test_tracking_summary_reads_the_errors(real, model, plan):
    sim = al.simulate(real, START, plan.end_time, al.feedforward_pid(model, plan, KP, KD, KI))
    largest, final = al.tracking_summary(sim, plan)
    e = al.tracking_error(sim, plan)
    during = sim.time <= 0.8 + 1e-9
    assert during.sum() == 801                                     # t = 0 ... 0.8 s
    np.testing.assert_array_equal(largest, np.abs(e[during]).max(axis=0))
    np.testing.assert_array_equal(final, e[-1])
    # the full model leaves 0.012 deg at the shoulder (0.009 with semi-implicit Euler at 0.1 ms)
    assert np.degrees(largest[0]).round(3) == 0.012


def test_tracking_summary_needs_a_move(real):
    sim = al.simulate(real, START, 0.01)
    with pytest.raises(ValueError, match="plan"):
        al.tracking_summary(sim, START)


# ----------------------------------------------------------------------------- the chapter's setup

@pytest.mark.parametrize("build", ["feedforward_pid", "computed_torque"])
def test_cause_table_does_not_depend_on_rk4_substeps(real, plan, build):
    """The control chapter steps the plant by RK4 once per tick for its table of causes;
    ten RK4 steps per tick change none of the four decimals it prints."""
    for friction in (0.016, 0.02):
        model_arm = al.tabletop_arm(damping=friction)
        c = (al.feedforward_pid(model_arm, plan, KP, KD, KI) if build == "feedforward_pid"
             else al.computed_torque(model_arm, plan, 400, 40))
        shown = [np.degrees(al.tracking_summary(
            al.simulate(real, START, 0.8, c, substeps=s, method="rk4"), plan)[0]).round(4)
            for s in (1, 10)]
        np.testing.assert_array_equal(shown[0], shown[1])


def test_chapter_claim_sampled_damper_without_limits(real, model, plan):
    """The control chapter says: past Kd dt (M^-1)_jj = 2, without torque limits, the PD's
    elbow thrashes through more than a hundred degrees (its gain map's last columns) and
    computed torque's run diverges (Kd = 2560 1/s at 1 kHz), while just below both track.
    At 64 N m s/rad the thrash outruns the default plant step: RK4 at one step per tick
    diverges on 14 of the 16 runs, ten RK4 steps per tick keep every run finite."""
    kp_pd = np.geomspace(15, 960, 16)[:, None] * [1.0, 0.5]
    kd_pd = np.geomspace(0.25, 64, 17)[-3:, None] * [1.0, 0.375]    # 32, 45 and 64 N m s/rad
    pd = al.gain_map(real, plan, lambda kp, kd: al.pd_gravity(model, plan, kp, kd),
                     kp_pd, kd_pd, duration=0.8)
    worst = np.degrees(pd.largest[..., 1]).max(axis=0)
    assert worst[0] < 5 and worst[1] > 100 and not pd.diverged[:, :2].any()
    assert pd.diverged[:, 2].sum() == 14
    fine = al.gain_map(real, plan, lambda kp, kd: al.pd_gravity(model, plan, kp, kd),
                       kp_pd, kd_pd[2:], duration=0.8, substeps=10)
    assert not fine.diverged.any() and np.degrees(fine.largest[..., 1]).max() > 100
    ct = al.gain_map(real, plan, lambda kp, kd: al.computed_torque(model, plan, kp, kd),
                     np.geomspace(25, 6400, 17), [1612.7, 2560.0], duration=0.8)
    assert not ct.diverged[:, 0].any() and ct.diverged[:, 1].all()


# ----------------------------------------------------------------------------- stability

def test_lyapunov_is_kinetic_plus_spring_energy_and_broadcasts(real):
    """V = qd^T M qd / 2 + e^T Kp e / 2, written out with the mass matrix, for a batch"""
    rng = np.random.default_rng(5)
    q, qd = rng.uniform(-3, 3, (4, 3, 2)), rng.uniform(-2, 2, (4, 3, 2))
    target, kp = np.radians([60, -30]), np.array([60.0, 30.0])
    M = al.mass_matrix(real, q)
    by_hand = 0.5 * np.einsum("...i,...ij,...j->...", qd, M, qd) \
        + 0.5 * np.einsum("...i,i,...i->...", target - q, kp, target - q)
    V = al.lyapunov(real, q, qd, target, kp)
    assert V.shape == (4, 3)
    np.testing.assert_allclose(V, by_hand, rtol=1e-14)
    assert float(al.lyapunov(real, target, [0, 0], target, kp)) == 0.0


def test_lyapunov_rate_under_continuous_pd_gravity_is_minus_the_damping_power(real):
    """The theorem's energy balance at random states: with tau = g + Kp e - Kd qd applied
    continuously, dV/dt computed from the forward dynamics and dM/dq is -qd^T (Kd + B) qd"""
    rng = np.random.default_rng(11)
    q, qd = rng.uniform(-3, 3, (50, 2)), rng.uniform(-3, 3, (50, 2))
    target, kp, kd = np.radians([60, -30]), np.array([60.0, 30.0]), np.array([4.0, 1.5])
    e = target - q
    tau = al.gravity_torques(real, q) + kp * e - kd * qd
    qdd = al.forward_dynamics(real, q, qd, tau)
    Mdot = np.einsum("...ijk,...k->...ij", al.mass_matrix_derivatives(real, q), qd)
    rate = (np.einsum("...i,...ij,...j->...", qd, al.mass_matrix(real, q), qdd)
            + 0.5 * np.einsum("...i,...ij,...j->...", qd, Mdot, qd)
            - np.einsum("...i,i,...i->...", qd, kp, e))
    expected = -np.einsum("...i,i,...i->...", qd, kd + real.damping, qd)
    np.testing.assert_allclose(rate, expected, rtol=1e-10, atol=1e-10)


def test_lyapunov_never_rises_along_simulated_runs_and_balances_the_dissipation(real, model):
    """PD + gravity (the model's gravity is exact) from six far starts: V never rises beyond
    rounding, and V(0) - V(t) = integral of qd^T (Kd + B) qd, to a gap that shrinks tenfold
    with a tenfold faster loop (the zero-order hold, first order in the tick)"""
    target, kp, kd = np.radians([60, -30]), np.array([60.0, 30.0]), np.array([4.0, 1.5])
    starts = np.radians([[-45, 90], [-90, 0], [90, 0], [-150, 120], [0, -150], [170, 170]])
    gaps = []
    for dt in (1e-3, 1e-4):
        sim = al.simulate(real, starts, 3.0, al.pd_gravity(model, target, kp, kd),
                          control_dt=dt, method="rk4", substeps=1)
        V = al.lyapunov(real, sim.q, sim.qd, target, kp)
        assert (np.diff(V, axis=-1) <= 1e-12 * V[:, :1]).all()
        assert V[:, -1].max() < 1e-12 * V[:, 0].min()
        power = np.einsum("...ti,i,...ti->...t", sim.qd, kd + real.damping, sim.qd)
        taken = np.concatenate([np.zeros((6, 1)), np.cumsum(
            0.5 * (power[:, 1:] + power[:, :-1]) * dt, axis=-1)], axis=-1)
        gaps.append(np.abs(V - V[:, :1] + taken).max() / V[:, 0].max())
    assert gaps[0] < 0.01 and 8 < gaps[0] / gaps[1] < 12


def test_model_error_acceleration_is_the_right_side_of_the_error_equation(real):
    """Under computed torque applied continuously, the arm's forward dynamics give
    e'' + Kd e' + Kp e = d exactly, for a model with a wrong payload and friction"""
    rng = np.random.default_rng(2)
    loaded, model = real.with_payload(0.5), al.tabletop_arm(damping=0.016)
    q, qd = rng.uniform(-3, 3, (20, 2)), rng.uniform(-2, 2, (20, 2))
    q_p, qd_p, qdd_p = (rng.uniform(-2, 2, (20, 2)) for _ in range(3))
    kp, kd = np.array([400.0, 300.0]), np.array([40.0, 30.0])
    e, de = q_p - q, qd_p - qd
    a = qdd_p + kp * e + kd * de
    tau = al.inverse_dynamics(model, q, qd, a)
    qdd = al.forward_dynamics(loaded, q, qd, tau)
    left = (qdd_p - qdd) + kd * de + kp * e
    d = al.model_error_acceleration(loaded, model, q, qd, qdd)
    np.testing.assert_allclose(left, d, rtol=1e-9, atol=1e-9)
    # the same d from the parts of the equation of motion, not from inverse dynamics
    missing = (np.einsum("...ij,...j->...i", al.mass_matrix(loaded, q) - al.mass_matrix(model, q),
                         qdd)
               + al.coriolis_torques(loaded, q, qd) - al.coriolis_torques(model, q, qd)
               + al.gravity_torques(loaded, q) - al.gravity_torques(model, q)
               + al.friction_torques(loaded, qd) - al.friction_torques(model, qd))
    by_parts = np.linalg.solve(al.mass_matrix(model, q), missing[..., None])[..., 0]
    np.testing.assert_allclose(d, by_parts, rtol=1e-12, atol=1e-12)
    assert np.abs(al.model_error_acceleration(real, real, q, qd, qdd)).max() < 1e-12


def _impulse_l1(kp, kd):
    """integral |h| for 1/(s^2 + kd s + kp), summed on a fine grid of the closed form."""
    zeta, w = kd / (2 * np.sqrt(kp)), np.sqrt(kp)
    decay = zeta * w if zeta < 1 else w * (zeta - np.sqrt(zeta**2 - 1))   # slowest rate
    t = np.linspace(0, 40 / decay, 2_000_001)
    if zeta < 1:
        wd = w * np.sqrt(1 - zeta**2)
        h = np.exp(-zeta * w * t) * np.sin(wd * t) / wd
    elif zeta == 1:
        h = t * np.exp(-w * t)
    else:
        r1, r2 = -w * (zeta - np.sqrt(zeta**2 - 1)), -w * (zeta + np.sqrt(zeta**2 - 1))
        h = (np.exp(r1 * t) - np.exp(r2 * t)) / (r1 - r2)
    return np.trapezoid(np.abs(h), t)


@pytest.mark.parametrize("kp, kd", [(400, 40), (400, 20), (400, 4), (1440, 72), (100, 60),
                                    (351.2, 23.41)])
def test_error_bound_is_the_l1_norm_of_the_impulse_response(kp, kd):
    """bound / delta = integral |h|, from the closed-form response on a fine grid"""
    assert float(al.error_bound(kp, kd, 1.0)) == pytest.approx(_impulse_l1(kp, kd), rel=1e-6)


def test_error_bound_is_reached_by_the_worst_disturbance():
    """d(t) = delta sign(h(T - t)) drives e(T) to the bound (a simulated scalar oscillator,
    RK4 with d held per step), and a constant d settles on delta / Kp at critical damping"""
    for kp, kd in ((400.0, 10.0), (400.0, 40.0)):
        T, n = 3.0, 30_000
        h_step = T / n
        zeta, w = kd / (2 * np.sqrt(kp)), np.sqrt(kp)
        t = (np.arange(n) + 0.5) * h_step
        if zeta < 1:
            wd = w * np.sqrt(1 - zeta**2)
            h = np.exp(-zeta * w * (T - t)) * np.sin(wd * (T - t))
        else:
            h = (T - t) * np.exp(-w * (T - t))
        d = np.sign(h)
        x = _rk4_by_stages(kp, kd, np.append(d, 0.0), h_step, 1)[-1]    # one step a tick
        assert x == pytest.approx(float(al.error_bound(kp, kd, 1.0)), rel=2e-3)


def test_error_bound_edge_cases_and_bad_input():
    assert float(al.error_bound(400, 40, 2.0)) == 2.0 / 400        # critical: delta / Kp
    assert float(al.error_bound(400, 400, 2.0)) == 2.0 / 400       # overdamped: the same
    assert float(al.error_bound(400, 0, 1.0)) == np.inf            # undamped: no bound
    assert float(al.error_bound(400, 40, 0.0)) == 0.0
    b = al.error_bound(np.array([[100.0], [400.0]]), [20.0, 10.0], 1.0)
    assert b.shape == (2, 2)
    for kwargs, name in [(dict(kp=0, kd=1, disturbance=1), "kp"),
                         (dict(kp=1, kd=-1, disturbance=1), "kd"),
                         (dict(kp=1, kd=1, disturbance=-1), "disturbance"),
                         (dict(kp=np.nan, kd=1, disturbance=1), "kp")]:
        with pytest.raises(ValueError, match=name):
            al.error_bound(**kwargs)
    with pytest.raises(ValueError, match="model has 3 joints"):
        al.model_error_acceleration(al.tabletop_arm(), al.PlanarArm([1, 1, 1], [1, 1, 1]),
                                    np.zeros(2), np.zeros(2), np.zeros(2))


# ----------------------------------------------------------------------------- error response

def _rk4_by_stages(kp, kd, d_ticks, dt, steps):
    """e'' + kd e' + kp e = d on one joint, RK4 stage by stage with floats, d held per tick."""
    e = v = 0.0
    out, h = [0.0], dt / steps
    for d_k in d_ticks[:-1]:
        for _ in range(steps):
            def f(x, y, d_k=d_k):
                return y, d_k - kd * y - kp * x
            k1 = f(e, v)
            k2 = f(e + h / 2 * k1[0], v + h / 2 * k1[1])
            k3 = f(e + h / 2 * k2[0], v + h / 2 * k2[1])
            k4 = f(e + h * k3[0], v + h * k3[1])
            e = e + h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
            v = v + h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        out.append(e)
    return np.array(out)


@pytest.mark.parametrize("dt, steps", [(1e-3, 10), (1e-3, 1), (4e-3, 3)])
def test_error_response_is_rk4_stage_by_stage(dt, steps):
    """The linear maps give what RK4's four stages give, to rounding, for a disturbance that
    changes every tick (each joint with its own gains)"""
    rng = np.random.default_rng(3)
    d = rng.normal(scale=50.0, size=(301, 2))
    kp, kd = np.array([400.0, 1440.0]), np.array([40.0, 30.0])
    e = al.error_response(kp, kd, d, dt=dt, steps=steps)
    assert e.shape == (301, 2)
    for j in range(2):
        ref = _rk4_by_stages(kp[j], kd[j], d[:, j], dt, steps)
        assert np.abs(e[:, j] - ref).max() <= 1e-13 * np.abs(ref).max()


@pytest.mark.parametrize("kp, kd", [(400.0, 40.0), (400.0, 10.0), (100.0, 60.0)])
def test_error_response_to_a_constant_disturbance_is_the_step_response(kp, kd):
    """A constant d: the closed-form step response of the oscillator (critically damped,
    underdamped, overdamped), to RK4's error at 0.1 ms steps"""
    d0 = 7.0
    e = al.error_response(kp, kd, np.full((601, 1), d0))[:, 0]
    t = np.arange(601) * 1e-3
    w, zeta = np.sqrt(kp), kd / (2 * np.sqrt(kp))
    if zeta == 1:
        shape = 1 - (1 + w * t) * np.exp(-w * t)
    elif zeta < 1:
        wd = w * np.sqrt(1 - zeta**2)
        shape = 1 - np.exp(-zeta * w * t) * (np.cos(wd * t)
                                             + zeta / np.sqrt(1 - zeta**2) * np.sin(wd * t))
    else:
        r1, r2 = -w * (zeta - np.sqrt(zeta**2 - 1)), -w * (zeta + np.sqrt(zeta**2 - 1))
        shape = 1 + (r2 * np.exp(r1 * t) - r1 * np.exp(r2 * t)) / (r1 - r2)
    assert np.abs(e - d0 / kp * shape).max() < 1e-10 * d0 / kp


def test_error_response_gives_back_computed_torques_error(real, model, plan):
    """The error equation with the model error's disturbance gives back the simulated arm's
    error, and what is left is the hold of the torque, first order in the tick: ten times
    faster, ten times closer (an unknown 0.5 kg payload under computed torque at 20 rad/s;
    0.58 mrad at 1 kHz of an error of 0.2 rad)"""
    loaded = real.with_payload(0.5)
    gaps = []
    for dt in (1e-3, 1e-4):
        sim = al.simulate(loaded, plan.start, 0.4, al.computed_torque(model, plan, 400, 40),
                          control_dt=dt, method="rk4", substeps=1)
        d = al.model_error_acceleration(loaded, model, sim.q, sim.qd, sim.qdd)
        e = al.error_response(400, 40, d, dt=dt, steps=1)
        gaps.append(np.abs(e - al.tracking_error(sim, plan)).max())
    error = np.abs(al.tracking_error(sim, plan)).max()
    assert gaps[0] < 0.003 * error
    assert gaps[0] / gaps[1] == pytest.approx(10, rel=0.02)


def test_error_response_batches_and_is_linear():
    """A batch of runs (one gain set each) is each run alone; the response to d1 + d2 is the
    sum of the responses"""
    rng = np.random.default_rng(5)
    d = rng.normal(size=(3, 51, 2))
    kp = np.array([[100.0], [400.0], [900.0]])
    e = al.error_response(kp, 20.0, d)
    assert e.shape == (3, 51, 2)
    for i in range(3):
        np.testing.assert_array_equal(e[i], al.error_response(kp[i], 20.0, d[i]))
    both = al.error_response(400, 40, d[0] + d[1])
    parts = al.error_response(400, 40, d[0]) + al.error_response(400, 40, d[1])
    assert np.abs(both - parts).max() < 1e-15 * 50
    # one disturbance, a batch of gains
    assert al.error_response(kp, 20.0, d[0]).shape == (3, 51, 2)


def test_error_response_bad_input():
    d = np.zeros((11, 2))
    for kwargs, name in [(dict(kp=-1, kd=1, disturbance=d), "kp"),
                         (dict(kp=1, kd=np.nan, disturbance=d), "kd"),
                         (dict(kp=1, kd=1, disturbance=np.zeros(11)), "disturbance"),
                         (dict(kp=1, kd=1, disturbance=d, dt=0), "dt"),
                         (dict(kp=1, kd=1, disturbance=d, steps=0), "steps"),
                         (dict(kp=1, kd=1, disturbance=d, steps=2.0), "steps"),
                         (dict(kp=[1, 2, 3], kd=1, disturbance=d), "broadcast")]:
        with pytest.raises(ValueError, match=name):
            al.error_response(**kwargs)


def _held_pd(kd, duration, substeps):
    """The table-top arm held at (60, -30) deg by PD + exact gravity on a 1 ms tick, the
    shoulder's Kd given (the elbow's 3/8 of it), knocked by 1e-9 rad/s: the eigenvalues and the
    simulated speeds (the nonlinear arm)."""
    arm, q = al.tabletop_arm(damping=0.02), np.radians([60.0, -30.0])
    kp, kds = np.array([60.0, 30.0]), kd * np.array([1.0, 0.375])
    lam = al.sampled_pd_eigenvalues(arm, q, kp, kds)
    sim = al.simulate(arm, q, duration, al.pd_gravity(arm, q, kp, kds), qd0=[1e-9, -1e-9],
                      method="rk4", substeps=substeps)
    return lam, np.linalg.norm(sim.qd, axis=1)


def test_sampled_pd_eigenvalue_is_the_simulated_growth_per_tick():
    """At the shoulder's Kd 45 the largest eigenvalue, -1.21, dominates: the simulated speed
    grows by its magnitude per tick over ticks 40-60 (to 1e-3), and flips sign each tick"""
    lam, speed = _held_pd(45.0, 0.06, 50)
    assert lam[0].real < -1.2 and abs(lam[0].imag) == 0
    assert (speed[60] / speed[40]) ** (1 / 20) == pytest.approx(abs(lam[0]), abs=1e-3)


@pytest.mark.parametrize("kd", [40.0, 41.0])
def test_sampled_pd_stable_below_the_edge_and_not_above(kd):
    """The exact sampled loop's edge lies between the shoulder's Kd 40 and 41: over 2 s the
    simulated knock decays at 40 (largest magnitude 0.9985) and grows past a thousand times at
    41 (1.0123)"""
    lam, speed = _held_pd(kd, 2.0, 10)
    assert (abs(lam[0]) < 1) == (kd == 40.0)
    assert speed[-1] < speed[0] if kd == 40.0 else speed[-1] > 1e3 * speed[0]


def test_sampled_pd_eigenvalues_approach_the_continuous_loop():
    """On a short tick the map is exp(A dt) of the continuous loop M e'' + Kd e' + (Kp - G + ...)
    e = 0: its eigenvalues are exp(dt s) of the continuous poles, to O(dt)"""
    arm, q = al.tabletop_arm(damping=0.02), np.radians([60.0, -30.0])
    kp, kd = np.array([60.0, 30.0]), np.array([4.0, 1.5])
    M_inv = np.linalg.inv(al.mass_matrix(arm, q))
    A = np.block([[np.zeros((2, 2)), np.eye(2)],
                  [-M_inv @ np.diag(kp), -M_inv @ (np.diag(kd) + 0.02 * np.eye(2))]])
    poles = np.linalg.eigvals(A)
    dt = 1e-6
    lam = al.sampled_pd_eigenvalues(arm, q, kp, kd, dt=dt)
    s = np.log(lam.astype(complex)) / dt
    np.testing.assert_allclose(np.sort_complex(s), np.sort_complex(poles), rtol=1e-2)


@pytest.mark.parametrize("kwargs, name", [
    ({"q": [0.1, 0.2, 0.3]}, "q"), ({"kp": [-1.0, 30.0]}, "kp"), ({"kd": [4.0, -1.5]}, "kd"),
    ({"dt": 0.0}, "dt")])
def test_sampled_pd_eigenvalues_bad_input_names_the_argument(kwargs, name):
    args = {"q": [0.1, 0.2], "kp": [60.0, 30.0], "kd": [4.0, 1.5], "dt": 1e-3} | kwargs
    with pytest.raises(ValueError, match=name):
        al.sampled_pd_eigenvalues(al.tabletop_arm(), **args)
