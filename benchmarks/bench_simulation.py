"""Speed of seed 000's control experiment: armlab's loop beside a Pinocchio ``aba`` loop.

The control chapter's lab re-runs the 1.5 s experiment (1,500 control ticks at
1 kHz, 15,000 semi-implicit Euler plant steps of 0.1 ms) whenever a slider
moves. Targets (issue 3): one controller at most 150 ms, the four controllers of
the comparison together at most 400 ms.

The reference is the same loop written with Pinocchio: one ``pin.aba`` call per
plant step (viscous friction subtracted from the torque, since Pinocchio ignores
damping), the controllers' model terms by ``pin.rnea`` and
``pin.computeGeneralizedGravity``. Both loops are timed in the same run, best
and median of several repeats, and their trajectories are compared.

Run: ``.venv/bin/python benchmarks/bench_simulation.py`` (or ``make bench``);
rewrites ``benchmarks/simulation.md``.
"""

import pathlib
import platform
import statistics
import time

import numpy as np
import pinocchio as pin

import armlab as al
from armlab import _kernels as K
from armlab.simulation import _euler_tick

HERE = pathlib.Path(__file__).parent
REPEATS = 7
START, END = np.radians([-45, 90]), np.radians([60, -30])
KP, KD, KI = np.array([60.0, 30.0]), np.array([4.0, 1.5]), np.array([60.0, 30.0])
DT, SUBSTEPS, DURATION = 1e-3, 10, 1.5


def pin_model(arm):
    model = pin.buildModelFromXML(al.to_urdf(arm))
    model.gravity.linear = np.array([0.0, -9.81, 0.0])
    return model


def pin_loop(real, model_arm, kind, plan):
    """The experiment written with Pinocchio: one pin.aba per plant step."""
    plant, plant_data = pin_model(real), None
    plant_data = plant.createData()
    ctrl, ctrl_data = pin_model(model_arm), None
    ctrl_data = ctrl.createData()
    B_real = np.array(real.damping)
    B_model = np.array(model_arm.damping)
    q, v = START.copy(), np.zeros(2)
    h = DT / SUBSTEPS
    ticks = round(DURATION / DT)
    integral = (pin.computeGeneralizedGravity(plant, plant_data, q).copy() if kind == "pid"
                else np.zeros(2))
    qs = np.empty((ticks + 1, 2))
    taus = np.empty((ticks + 1, 2))
    t_last = None
    for k in range(ticks + 1):
        t = k * DT
        q_ref, qd_ref, qdd_ref = plan(t)
        e, de = q_ref - q, qd_ref - v
        dt = 0.0 if t_last is None else t - t_last
        t_last = t
        if kind == "computed_torque":
            wanted = qdd_ref + 400.0 * e + 40.0 * de
            tau = pin.rnea(ctrl, ctrl_data, q, v, wanted) + B_model * v
        else:
            if kind in ("pid", "feedforward_pid"):
                integral = integral + KI * e * dt
            tau = KP * e + KD * de + integral
            if kind == "pd_gravity":
                tau = tau + pin.computeGeneralizedGravity(ctrl, ctrl_data, q)
            elif kind == "feedforward_pid":
                tau = tau + pin.rnea(ctrl, ctrl_data, q_ref, qd_ref, qdd_ref) + B_model * qd_ref
        qs[k], taus[k] = q, tau
        if k == ticks:
            break
        for _ in range(SUBSTEPS):
            a = pin.aba(plant, plant_data, q, v, tau - B_real * v)
            v = v + a * h
            q = q + v * h
    return qs, taus


def controllers(real, model, plan):
    return {
        "pid": al.pid(plan, KP, KD, KI, integral=al.gravity_torques(real, START)),
        "pd_gravity": al.pd_gravity(model, plan, KP, KD),
        "feedforward_pid": al.feedforward_pid(model, plan, KP, KD, KI),
        "computed_torque": al.computed_torque(model, plan, 400, 40),
    }


def timed(fn, repeats=REPEATS):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times), out


def main():
    real = al.tabletop_arm(damping=0.02)
    model = al.tabletop_arm(damping=0.016)
    plan = al.quintic(START, END, 0.8, hold=0.7)
    names = list(controllers(real, model, plan))

    # check the URDF model against armlab before timing anything
    pm = pin_model(real)
    pdata = pm.createData()
    q, v, a = np.radians([30, 45]), np.array([1.0, 2.0]), np.array([3.0, -2.0])
    assert np.allclose(pin.rnea(pm, pdata, q, v, a), al.rnea(al.tabletop_arm(), q, v, a))

    rows = []
    for name in names:
        best, med, sim = timed(lambda: al.simulate(real, START, DURATION,
                                                   controllers(real, model, plan)[name]))
        pbest, pmed, (pq, _) = timed(lambda: pin_loop(real, model, name, plan))
        gap = np.degrees(np.abs(pq - sim.q).max())
        rows.append((name, best, med, pbest, pmed, gap))

    def all_four():
        cs = controllers(real, model, plan)
        return [al.simulate(real, START, DURATION, c) for c in cs.values()]

    four_best, four_med, _ = timed(all_four)
    pin_four_best, pin_four_med, _ = timed(lambda: [pin_loop(real, model, n, plan) for n in names])
    rk4_best, rk4_med, _ = timed(lambda: al.simulate(real, START, DURATION,
                                                     controllers(real, model, plan)["pid"],
                                                     method="rk4"), repeats=3)

    # per-call costs (best of 5 rounds), for the story of why the loop runs the core's
    # kernels on floats
    arm = real
    qs, vs, taus = np.radians([30, 45]), np.array([1.0, 2.0]), np.array([1.0, 0.5])
    n_calls = 2000

    def per_call(fn, calls=n_calls):
        return timed(lambda: [fn() for _ in range(calls)], repeats=5)[0] / calls

    numpy_call = per_call(lambda: al.forward_dynamics(arm, qs, vs, taus))
    aba_call = per_call(lambda: pin.aba(pm, pdata, qs, vs, taus))
    k = arm._constants
    q1, v1, t1 = qs.tolist(), vs.tolist(), taus.tolist()
    kernel_call = per_call(lambda: K.forward(k, K.FLOATS, q1, v1, t1))
    kernel_step = per_call(lambda: _euler_tick(k, K.FLOATS, q1, v1, t1, 1e-4, 10, True),
                           1500) / 10

    ms = 1e3
    lines = [
        "# Simulation speed: seed 000's control experiment",
        "",
        "Written by `benchmarks/bench_simulation.py`; numbers from the machine that ran it.",
        "",
        "One run: the 1.5 s move-and-hold (1,500 control ticks at 1 kHz, 15,000 semi-implicit",
        "Euler plant steps of 0.1 ms, energies and work recorded). Pinocchio: the same loop with",
        "one `pin.aba` call per plant step, model terms by `pin.rnea` /",
        "`computeGeneralizedGravity`, nothing else recorded. "
        f"Best and median of {REPEATS} repeats, same process.",
        "",
        "| controller | armlab best [ms] | armlab median [ms] | Pinocchio best [ms] "
        "| Pinocchio median [ms] | max gap in q [deg] |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, best, med, pbest, pmed, gap in rows:
        lines.append(f"| {name} | {best * ms:.1f} | {med * ms:.1f} | {pbest * ms:.1f} "
                     f"| {pmed * ms:.1f} | {gap:.1e} |")
    lines += [
        f"| **all four** | **{four_best * ms:.1f}** | **{four_med * ms:.1f}** "
        f"| {pin_four_best * ms:.1f} | {pin_four_med * ms:.1f} | |",
        "",
        f"Targets (issue 3): one controller at most 150 ms "
        f"({'met' if max(r[2] for r in rows) <= 0.150 else 'NOT met'} by the median), "
        f"all four at most 400 ms ({'met' if four_med <= 0.400 else 'NOT met'} by the median).",
        "",
        f"For comparison: the same PID run with RK4 (four dynamics evaluations per plant step): "
        f"{rk4_best * ms:.0f} ms best, {rk4_med * ms:.0f} ms median.",
        "",
        "Per single-state call: armlab's public `forward_dynamics` (input checks, arrays in "
        f"and out) {numpy_call * 1e6:.1f} µs, `pin.aba` {aba_call * 1e6:.1f} µs. The loop "
        "has no physics of its own: it calls the kernel behind `forward_dynamics` "
        "(`armlab.dynamics`, closed form and elimination, written once for any number of "
        "links) on plain floats, without the input checks: "
        f"{kernel_call * 1e6:.1f} µs a call. One two-link semi-implicit Euler plant step "
        f"(friction, forward dynamics, update) costs {kernel_step * 1e6:.1f} µs, so the "
        f"15,000 plant steps are about {15000 * kernel_step * ms:.0f} ms of each run; the "
        "rest is the 1,500 controller calls and the record. In the Pinocchio loop "
        f"`aba` itself is about {15000 * aba_call * ms:.0f} ms of each run; the rest is the "
        "numpy arithmetic around it.",
        "",
        f"Machine: {platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}, numpy {np.__version__}, Pinocchio {pin.__version__}.",
        "",
    ]
    text = "\n".join(lines)
    (HERE / "simulation.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
