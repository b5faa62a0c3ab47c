"""The controller contract: a user's subclass of Controller, a plain function, plans."""

import numpy as np
import pytest
from test_simulation import END, START, plan, real  # noqa: F401  (shared fixtures)

import armlab as al

KP, KD = np.array([60.0, 30.0]), np.array([4.0, 1.5])


class MyPD(al.Controller):
    """A PD written by a user: overrides __call__, counts its calls, resets the count."""

    n = 2

    def __init__(self, plan, kp, kd):
        self.plan, self.kp, self.kd = plan, np.asarray(kp), np.asarray(kd)
        self.calls = 0

    def reset(self):
        self.calls = 0

    def __call__(self, t, q, qd):
        self.calls += 1
        q_ref, qd_ref, _ = self.plan(t)              # the public way to read a plan
        return self.kp * (q_ref - q) + self.kd * (qd_ref - qd)


def test_a_subclass_that_overrides_call_equals_the_builtin_pd(real, plan):
    mine = MyPD(plan, KP, KD)
    a = al.simulate(real, START, 0.3, mine)
    assert mine.calls == 301                         # 300 ticks and the final state
    b = al.simulate(real, START, 0.3, al.pd(plan, KP, KD))
    np.testing.assert_allclose(a.q, b.q, rtol=0, atol=1e-14)
    np.testing.assert_allclose(a.tau, b.tau, rtol=0, atol=1e-12)
    al.simulate(real, START, 0.01, mine)
    assert mine.calls == 11                          # simulate called reset() first


def test_a_plain_function_equals_the_builtin_pd(real, plan):
    def my_pd(t, q, qd):
        q_ref, qd_ref, _ = plan(t)
        return KP * (q_ref - q) + KD * (qd_ref - qd)

    a = al.simulate(real, START, 0.2, my_pd)
    b = al.simulate(real, START, 0.2, al.pd(plan, KP, KD))
    np.testing.assert_allclose(a.q, b.q, rtol=0, atol=1e-14)


def test_user_controllers_get_the_whole_batch_at_once(real, plan):
    """In a batch a user's controller is called once per tick with (B, n) arrays; written
    with numpy broadcasting it serves every run, and each run equals its run made alone."""
    shapes = []

    def my_pd(t, q, qd):
        shapes.append(q.shape)
        q_ref, qd_ref, _ = plan(t)
        return KP * (q_ref - q) + KD * (qd_ref - qd)

    starts = START + np.radians([[0, 0], [3, -2], [-4, 1], [1, 1]])
    batch = al.simulate(real, starts, 0.2, my_pd)
    assert set(shapes) == {(4, 2)} and len(shapes) == 201
    subclass = al.simulate(real, starts, 0.2, MyPD(plan, KP, KD))
    for i in range(4):
        alone = al.simulate(real, starts[i], 0.2, al.pd(plan, KP, KD))
        np.testing.assert_allclose(batch.q[i], alone.q, rtol=0, atol=1e-12)
        np.testing.assert_allclose(subclass.q[i], alone.q, rtol=0, atol=1e-12)


def test_the_base_class_alone_says_what_to_define(real):
    with pytest.raises(NotImplementedError, match="__call__"):
        al.simulate(real, START, 0.01, al.Controller())


def test_a_controller_for_another_arm_is_refused(real):
    class ThreeJoints(MyPD):
        n = 3

    with pytest.raises(ValueError, match="3 joints"):
        al.simulate(real, START, 0.01, ThreeJoints(START, KP, KD))


def test_builtin_controllers_take_any_plan_function(real, plan):
    """A plan is a Quintic, a pose, or any callable t -> (q, qd, qdd): the same numbers."""
    def same_plan(t):
        return plan(t)

    a = al.simulate(real, START, 0.3, al.computed_torque(real, same_plan, 400, 40))
    b = al.simulate(real, START, 0.3, al.computed_torque(real, plan, 400, 40))
    np.testing.assert_array_equal(a.q, b.q)
    np.testing.assert_array_equal(al.tracking_error(a, same_plan), al.tracking_error(b, plan))
    with pytest.raises(ValueError, match=r"plan\(t\) must return"):
        al.computed_torque(real, lambda t: (np.zeros(3), np.zeros(3), np.zeros(3)), 400, 40)


def test_a_plan_read_at_one_time_equals_the_plan_read_at_many(plan):
    t = np.linspace(-0.1, 1.6, 171)
    many = plan(t)
    for i in (0, 37, 80, 170):
        for x, y in zip(plan(float(t[i])), many):
            np.testing.assert_array_equal(x, y[i])


def test_builtin_controllers_called_on_a_batch_of_states(real, plan):
    """Called directly, a built-in controller takes states (..., n) and a batch of gains
    (*batch, n) or (*batch, 1), and answers row by row."""
    kp = np.array([[10.0], [60.0], [200.0]])                 # (3, 1): one gain for both joints
    c = al.pd(plan, kp, KD)
    q = START + np.radians([[1, 2], [3, 4], [5, 6]])
    tau = c(0.1, q, np.zeros(2))
    for i in range(3):
        np.testing.assert_allclose(tau[i], al.pd(plan, kp[i, 0], KD)(0.1, q[i], [0, 0]),
                                   rtol=1e-15)


@pytest.mark.parametrize("gain", [[1.0, 2.0, 3.0], np.ones((3, 4)), -1.0, [np.nan, 1.0]])
def test_bad_gains_name_the_argument(plan, gain):
    with pytest.raises(ValueError, match="kp"):
        al.pd(plan, gain, KD)


def test_batches_that_do_not_broadcast_are_refused(real, plan):
    c = al.pd(plan, np.ones((3, 2)), KD)
    with pytest.raises(ValueError, match="broadcast"):
        al.simulate(real, np.zeros((4, 2)), 0.01, c)
    with pytest.raises(ValueError, match="broadcast"):
        al.pd(plan, np.ones((3, 2)), np.ones((4, 2)))


# ----------------------------------------------------------------------------- anti-windup

class ClampedPID(al.Controller):
    """A clamped PID written out (conditional integration), independent of armlab's."""

    def __init__(self, plan, kp, kd, ki, low, high, integral=None):
        self.plan, self.kp, self.kd, self.ki = plan, np.asarray(kp), np.asarray(kd), np.asarray(ki)
        self.low, self.high = np.asarray(low), np.asarray(high)
        self.start = np.zeros(2) if integral is None else np.asarray(integral)
        self.reset()

    def reset(self):
        self.integral, self.t_last = self.start.copy(), None

    def __call__(self, t, q, qd):
        q_ref, qd_ref, _ = self.plan(t)
        e = q_ref - q
        pd_part = self.kp * e + self.kd * (qd_ref - qd)
        dt = 0.0 if self.t_last is None else t - self.t_last
        self.t_last = t
        for i in range(2):
            step = self.ki[i] * e[i] * dt
            trial = pd_part[i] + self.integral[i] + step
            if not ((trial > self.high[i] and step > 0) or (trial < self.low[i] and step < 0)):
                self.integral[i] += step
        return pd_part + self.integral


def test_clamped_pid_equals_one_written_out(real, plan):
    """Under the limits chapter's motors (8, 2) N m the built-in clamped PID is the one written
    out above, tick for tick, and differs from the free one"""
    limit, ki = np.array([8.0, 2.0]), np.array([60.0, 30.0])
    g0 = al.gravity_torques(real, START)
    mine = al.simulate(real, START, 1.5, ClampedPID(plan, KP, KD, ki, -limit, limit, g0),
                       torque_limit=limit, method="rk4", substeps=1)
    ours = al.simulate(real, START, 1.5, al.pid(plan, KP, KD, ki, integral=g0, torque_limit=limit),
                       torque_limit=limit, method="rk4", substeps=1)
    free = al.simulate(real, START, 1.5, al.pid(plan, KP, KD, ki, integral=g0),
                       torque_limit=limit, method="rk4", substeps=1)
    assert ours.saturated.any()
    np.testing.assert_allclose(ours.q, mine.q, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.tau_command, mine.tau_command, rtol=0, atol=1e-10)
    assert np.abs(free.q - ours.q).max() > 1e-2


def test_clamping_changes_nothing_while_the_motors_have_torque_to_spare(real, plan):
    """Limits that are never reached: the clamped controllers are the free ones, exactly"""
    model = al.tabletop_arm(damping=0.016)
    wide = 100.0
    for free, clamped in [
            (al.pid(plan, KP, KD, [60, 30]), al.pid(plan, KP, KD, [60, 30], torque_limit=wide)),
            (al.pd_gravity(model, plan, KP, KD, [60, 30]),
             al.pd_gravity(model, plan, KP, KD, [60, 30], torque_limit=wide)),
            (al.feedforward_pid(model, plan, KP, KD, [60, 30]),
             al.feedforward_pid(model, plan, KP, KD, [60, 30], torque_limit=wide))]:
        a = al.simulate(real, START, 1.0, free)
        b = al.simulate(real, START, 1.0, clamped)
        np.testing.assert_array_equal(a.q, b.q)


def test_clamped_integral_stands_still_while_it_would_push_further_out(real, plan):
    """Feed-forward + PID on (8, 2) N m: read back from the record, the clamped integral does
    not change at a clipped tick where the error pushes outwards; the free one grows"""
    model = al.tabletop_arm(damping=0.016)
    limit, ki = np.array([8.0, 2.0]), np.array([60.0, 30.0])

    def integral(sim):
        q_p, qd_p, qdd_p = plan(sim.time)
        ff = al.inverse_dynamics(model, q_p, qd_p, qdd_p)
        return sim.tau_command - ff - KP * (q_p - sim.q) - KD * (qd_p - sim.qd)

    for clamp in (limit, None):
        sim = al.simulate(real, START, 1.5,
                          al.feedforward_pid(model, plan, KP, KD, ki, torque_limit=clamp),
                          torque_limit=limit, method="rk4", substeps=1)
        pushing = (sim.tau_command[1:, 0] > limit[0]) & (al.tracking_error(sim, plan)[1:, 0] > 0)
        change = np.diff(integral(sim)[:, 0])[pushing]
        assert pushing.sum() > 100
        if clamp is None:
            assert (change > 0).all()
        else:
            assert np.abs(change).max() < 1e-12


def test_clamped_batch_equals_runs_alone(real, plan):
    """A batch of gains with clamping: each run is the run made alone"""
    limit = np.array([8.0, 2.0])
    kps = np.array([[40.0, 20.0], [60.0, 30.0], [120.0, 60.0]])
    batch = al.simulate(real, START, 0.9, al.pid(plan, kps, KD, [60, 30], torque_limit=limit),
                        torque_limit=limit)
    for i in range(3):
        alone = al.simulate(real, START, 0.9, al.pid(plan, kps[i], KD, [60, 30],
                                                      torque_limit=limit), torque_limit=limit)
        np.testing.assert_allclose(batch.q[i], alone.q, rtol=0, atol=1e-12)


@pytest.mark.parametrize("bad", [-1.0, [1.0, 2.0, 3.0], [[1, 2], [0, 1]], np.nan])
def test_bad_torque_limit_names_the_argument(plan, bad):
    with pytest.raises(ValueError, match="torque_limit"):
        al.pid(plan, KP, KD, [60, 30], torque_limit=bad)
