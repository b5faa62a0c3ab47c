"""Speed of the control chapter's experiment: armlab's loop beside a Pinocchio ``aba`` loop.

The experiment: the 1.5 s move-and-hold (quintic (-45, 90) deg -> (60, -30) deg in
0.8 s, then 0.7 s held), 1,500 control ticks at 1 kHz, 15,000 semi-implicit Euler
plant steps of 0.1 ms, under each of the control chapter's four controllers.

Three measurements; the first and the last side by side with the same loop written with
Pinocchio (one ``pin.aba`` call per plant step, viscous friction subtracted from the torque
since Pinocchio ignores damping, the controllers' model terms by ``pin.rnea`` and
``pin.computeGeneralizedGravity``), with the trajectories compared:

* one run per controller (the control chapter's lab re-runs it whenever a slider
  moves). Targets (issue 3): one controller at most 150 ms, all four at most 400 ms.
* a small ensemble: 16 runs per controller (gains from 0.5x to 2x the chapter's) in
  one batched call, against the same 16 runs made one by one with armlab, in
  interleaved rounds (medians); every run of the batch is compared with its run alone,
  bit for bit. Target (issue 27): the batch at least 6x faster. Beside it, the cost
  per run of batches of 1 to 1,000 runs of one controller.
* a gain map: 1,000 runs per controller in one batched ``simulate`` call (a 40 x 25
  grid of Kp and Kd, each from 0.5x to 2x the chapter's gains), against the same runs
  made one by one in the Pinocchio loop. Target (issue 13): at least 20x the
  Pinocchio loop's throughput. Pinocchio's rate is measured on every 20th run of
  the grid (50 runs; each takes the same time), and those runs are compared with
  the batch's. Peak memory of the batched call by ``tracemalloc`` (numpy reports
  its arrays to it), in a second call (tracing slows every allocation).

Times are CPU time of this process (``time.process_time``), not wall time: the
machine is shared with other jobs, which stretch wall time unevenly; both sides
are single-threaded, so on an idle machine the two are the same.

Run: ``.venv/bin/python benchmarks/bench_simulation.py`` (or ``make bench``);
rewrites ``benchmarks/simulation.md``.
"""

import ast
import pathlib
import platform
import statistics
import time
import tracemalloc

import numpy as np
import pinocchio as pin

import armlab as al
from armlab import _kernels as K
from armlab.simulation import _STEPS, RUNS_ALONE, _Plant

HERE = pathlib.Path(__file__).parent
REPEATS = 7
START, END = np.radians([-45, 90]), np.radians([60, -30])
KP, KD, KI = np.array([60.0, 30.0]), np.array([4.0, 1.5]), np.array([60.0, 30.0])
CT_KP, CT_KD = 400.0, 40.0
DT, SUBSTEPS, DURATION = 1e-3, 10, 1.5
#: The plant this benchmark times, named (not armlab's default, RK4 at one step per tick): the
#: Pinocchio loop beside it is written with the same semi-implicit Euler steps of 0.1 ms.
PLANT = dict(method="semi_implicit_euler", substeps=SUBSTEPS)
GRID = (40, 25)                   # Kp scales x Kd scales: 1,000 runs
SAMPLE = 20                       # Pinocchio runs every 20th run of the grid
ENSEMBLE = 16                     # runs of the small ensemble
ROUNDS = 5                        # interleaved rounds of the ensemble's measurement
SIZES = (1, 4, 8, 12, 16, 64, 256, 1000)   # batch sizes of the cost-per-run sweep
FIELDS = ("q", "qd", "qdd", "tau_command", "tau", "saturated", "kinetic", "potential",
          "motor_work", "friction_work")


def pin_model(arm):
    model = pin.buildModelFromXML(al.to_urdf(arm))
    model.gravity.linear = np.array([0.0, -9.81, 0.0])
    return model


def pin_loop(real, model_arm, kind, plan, kp_scale=1.0, kd_scale=1.0):
    """The experiment written with Pinocchio: one pin.aba per plant step."""
    plant = pin_model(real)
    plant_data = plant.createData()
    ctrl = pin_model(model_arm)
    ctrl_data = ctrl.createData()
    B_real = np.array(real.damping)
    B_model = np.array(model_arm.damping)
    kp, kd, ki = kp_scale * KP, kd_scale * KD, kp_scale * KI
    ct_kp, ct_kd = kp_scale * CT_KP, kd_scale * CT_KD
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
            wanted = qdd_ref + ct_kp * e + ct_kd * de
            tau = pin.rnea(ctrl, ctrl_data, q, v, wanted) + B_model * v
        else:
            if kind in ("pid", "feedforward_pid"):
                integral = integral + ki * e * dt
            tau = kp * e + kd * de + integral
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


def controllers(real, model, plan, kp_scale=1.0, kd_scale=1.0):
    """The table-top case's four controllers; array scales (..., 1) make a batch of gains."""
    ps, ds = kp_scale, kd_scale
    return {
        "pid": al.pid(plan, ps * KP, ds * KD, ps * KI, integral=al.gravity_torques(real, START)),
        "pd_gravity": al.pd_gravity(model, plan, ps * KP, ds * KD),
        "feedforward_pid": al.feedforward_pid(model, plan, ps * KP, ds * KD, ps * KI),
        "computed_torque": al.computed_torque(model, plan, ps * CT_KP, ds * CT_KD),
    }


def timed(fn, repeats=REPEATS):
    """Best and median CPU time of ``repeats`` calls [s], and the last result."""
    times, out = [], None
    for _ in range(repeats):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return min(times), statistics.median(times), out


def gain_map(real, model, plan, names):
    """1,000 runs per controller in one call, beside every 20th run in the Pinocchio loop."""
    kp_scale = np.repeat(np.linspace(0.5, 2.0, GRID[0]), GRID[1])[:, None]   # (1000, 1)
    kd_scale = np.tile(np.linspace(0.5, 2.0, GRID[1]), GRID[0])[:, None]
    runs = kp_scale.shape[0]
    sample = range(0, runs, SAMPLE)
    rows = []
    for name in names:
        c = controllers(real, model, plan, kp_scale, kd_scale)[name]
        batch_time, _, sims = timed(lambda: al.simulate(real, START, DURATION, c, **PLANT),
                                    repeats=2)
        tracemalloc.start()
        al.simulate(real, START, DURATION, c, **PLANT)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        t0 = time.process_time()
        pin_q = [pin_loop(real, model, name, plan, kp_scale[i, 0], kd_scale[i, 0])[0]
                 for i in sample]
        pin_time = (time.process_time() - t0) / len(sample)           # per run
        gap = max(np.degrees(np.abs(pq - sims.q[i]).max()) for pq, i in zip(pin_q, sample))
        largest = np.degrees(np.abs(al.tracking_error(sims, plan)).max(axis=-2))
        rows.append((name, runs, batch_time, pin_time, gap, peak, int(sims.diverged.sum()),
                     largest[:, 0].min(), largest[:, 0].max()))
        del sims
    return rows


def scales(runs):
    """``runs`` gain scales from 0.5 to 2, as (runs, 1) for a batch."""
    return np.linspace(0.5, 2.0, runs)[:, None]


def ensemble(real, model, plan, names):
    """16 runs per controller in one call beside the same runs one by one, interleaved.

    Returns rows (name, batch median, one-by-one median, identical), the times CPU
    seconds per 16 runs; identical: every recorded array of every run equals its run
    alone bit for bit.
    """
    s = scales(ENSEMBLE)
    rows = []
    for name in names:
        def batch():
            return al.simulate(real, START, DURATION, controllers(real, model, plan, s)[name],
                               **PLANT)

        def one_by_one():
            return [al.simulate(real, START, DURATION,
                                controllers(real, model, plan, x)[name], **PLANT)
                    for x in s[:, 0]]

        together, alone = [], []
        for _ in range(ROUNDS):
            t0 = time.process_time()
            sims = batch()
            t1 = time.process_time()
            runs = one_by_one()
            t2 = time.process_time()
            together.append(t1 - t0)
            alone.append(t2 - t1)
        identical = all(getattr(sims, f)[i].tobytes() == getattr(run, f).tobytes()
                        for i, run in enumerate(runs) for f in FIELDS)
        rows.append((name, statistics.median(together), statistics.median(alone), identical))
    return rows


def sweep(real, model, plan, name="pid"):
    """CPU time per run [s] of a batch of each size in ``SIZES`` (median of 3 rounds)."""
    costs = {size: [] for size in SIZES}
    for _ in range(3):
        for size in SIZES:
            c = controllers(real, model, plan, scales(size) if size > 1 else 1.0)[name]
            t0 = time.process_time()
            al.simulate(real, START, DURATION, c, **PLANT)
            costs[size].append((time.process_time() - t0) / size)
    return {size: statistics.median(t) for size, t in costs.items()}


def step_chain(arm):
    """``(chain, operations)`` of the batched semi-implicit Euler plant step compiled for
    ``arm``: its longest chain of operations each needing the one before (each a numpy
    call at least, however the rest were grouped), and the number of operations."""
    source = K._source(_STEPS["semi_implicit_euler"], K._arm_shape(arm._constants),
                       (arm.n, arm.n, arm.n, 1, 1, None), True)
    kernel = next(node for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.FunctionDef) and node.name == "kernel")
    depth, count = {}, 0

    def chain(node):
        nonlocal count
        if isinstance(node, ast.Name):
            return depth.get(node.id, 0)
        if isinstance(node, ast.Constant):
            return 0
        if isinstance(node, ast.List):
            return max(map(chain, node.elts))
        count += 1
        if isinstance(node, ast.BinOp):
            return 1 + max(chain(node.left), chain(node.right))
        if isinstance(node, ast.UnaryOp):
            return 1 + chain(node.operand)
        return 1 + max(map(chain, node.args))                  # sin, cos, sign

    longest = 0
    for statement in kernel.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
            depth[statement.targets[0].id] = chain(statement.value)
        elif isinstance(statement, ast.Return):
            longest = chain(statement.value)
    return longest, count


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
                                                   controllers(real, model, plan)[name],
                                                   **PLANT))
        pbest, pmed, (pq, _) = timed(lambda: pin_loop(real, model, name, plan))
        gap = np.degrees(np.abs(pq - sim.q).max())
        rows.append((name, best, med, pbest, pmed, gap))

    def all_four():
        cs = controllers(real, model, plan)
        return [al.simulate(real, START, DURATION, c, **PLANT) for c in cs.values()]

    four_best, four_med, _ = timed(all_four)
    pin_four_best, pin_four_med, _ = timed(lambda: [pin_loop(real, model, n, plan) for n in names])
    rk4_best, rk4_med, _ = timed(lambda: al.simulate(real, START, DURATION,
                                                     controllers(real, model, plan)["pid"],
                                                     **dict(PLANT, method="rk4")), repeats=3)
    ensemble_rows = ensemble(real, model, plan, names)
    per_run = sweep(real, model, plan)
    batch_rows = gain_map(real, model, plan, names)

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
    plant = _Plant(arm, "semi_implicit_euler", DT, SUBSTEPS, None, ())
    kernel_step = per_call(lambda: plant.tick(0.0, q1, v1, t1), 1500) / SUBSTEPS
    batch_step = {}                  # one plant step of a batch, per batch size [s]
    for runs in (ENSEMBLE, 1000):
        batch_plant = _Plant(arm, "semi_implicit_euler", DT, SUBSTEPS, None, (runs,))
        qb, vb, tb = ([np.full(runs, x) for x in v] for v in (q1, v1, t1))
        batch_step[runs] = per_call(lambda: batch_plant.tick(0.0, qb, vb, tb), 300) / SUBSTEPS

    longest, operations = step_chain(arm)
    ms = 1e3
    lines = [
        "# Simulation speed: the control chapter's experiment",
        "",
        "Written by `benchmarks/bench_simulation.py`; numbers from the machine that ran it.",
        "",
        "## One run per controller",
        "",
        "One run: the 1.5 s move-and-hold (1,500 control ticks at 1 kHz, 15,000 semi-implicit",
        "Euler plant steps of 0.1 ms, energies and work recorded). Pinocchio: the same loop with",
        "one `pin.aba` call per plant step, model terms by `pin.rnea` /",
        "`computeGeneralizedGravity`, nothing else recorded. "
        f"Best and median CPU time of {REPEATS} repeats, same process.",
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
        f"## A small ensemble: {ENSEMBLE} runs in one call",
        "",
        f"Each controller with {ENSEMBLE} gain sets (all its gains scaled together from 0.5x "
        f"to 2x the chapter's), the {ENSEMBLE} runs in one `simulate` call beside the same "
        f"runs in {ENSEMBLE} calls, alternately in each of {ROUNDS} rounds; medians of the "
        f"rounds, CPU time. Identical: every recorded array of every run of the batch equals "
        "the run made alone, byte for byte. "
        f"{ENSEMBLE} runs are within `simulate`'s `RUNS_ALONE` ({RUNS_ALONE}), so the call "
        "makes them one by one (see below why); `tests/test_simulation.py` compares the "
        "batch stepped on arrays with the runs alone, byte for byte.",
        "",
        f"| controller | {ENSEMBLE} in one call [ms] | {ENSEMBLE} one by one [ms] | speed-up "
        "| identical |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for name, together, alone, identical in ensemble_rows:
        lines.append(f"| {name} | {together * ms:.0f} | {alone * ms:.0f} "
                     f"| {alone / together:.2f}x | {'yes' if identical else 'NO'} |")
    least = min(alone / together for _, together, alone, _ in ensemble_rows)
    lines += [
        "",
        f"Target (issue 27): at least 6x ({'met' if least >= 6 else 'NOT met'}: "
        f"{least:.2f}x at the least).",
        "",
        "CPU time per run of the PID run in batches of each size (median of 3 rounds):",
        "",
        "| runs in the call | " + " | ".join(f"{size:,}" for size in SIZES) + " |",
        "| --- |" + " ---: |" * len(SIZES),
        "| per run [ms] | " + " | ".join(f"{per_run[size] * ms:.1f}" for size in SIZES) + " |",
        "| speed-up over one run | " + " | ".join(f"{per_run[1] / per_run[size]:.1f}x"
                                                  for size in SIZES) + " |",
        "",
        "## A gain map: 1,000 runs in one call",
        "",
        f"Each controller with a {GRID[0]} x {GRID[1]} grid of gains (Kp and Ki scaled together "
        "from 0.5x to 2x the chapter's, Kd from 0.5x to 2x; computed torque's 400 and 40 alike), "
        "1,000 runs of the same experiment in one `simulate` call: numpy steps all runs at "
        "once, the loops run over time and links only. Pinocchio: the same runs one by one "
        f"in the loop above, timed on every {SAMPLE}th run of the grid "
        f"({GRID[0] * GRID[1] // SAMPLE} runs); its throughput is runs per second of those. "
        "The gap compares those runs' angles with the batch's. Peak memory: the largest "
        "total of numpy and Python allocations during the call (`tracemalloc`), most of it "
        "the record (1,000 x 1,501 rows of angles, speeds, accelerations, two torques, "
        "energies and work).",
        "",
        "| controller | runs | armlab, one call (best of 2) [s] | armlab [runs/s] "
        "| Pinocchio [runs/s] "
        "| speed-up | max gap in q [deg] | peak memory [MB] | diverged | largest shoulder "
        "error over the map [deg] |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    speedups = []
    for name, runs, bt, pt, gap, peak, diverged, lo, hi in batch_rows:
        speedup = (runs / bt) / (1 / pt)
        speedups.append(speedup)
        lines.append(f"| {name} | {runs} | {bt:.2f} | {runs / bt:.0f} | {1 / pt:.1f} "
                     f"| {speedup:.0f}x | {gap:.1e} | {peak / 2**20:.0f} | {diverged} "
                     f"| {lo:.3f} to {hi:.2f} |")
    lines += [
        "",
        f"Target (issue 13): at least 20x the Pinocchio loop's throughput "
        f"({'met' if min(speedups) >= 20 else 'NOT met'}: {min(speedups):.0f}x at the least).",
        "",
        "## Where the time goes",
        "",
        "Per single-state call: armlab's public `forward_dynamics` (input checks, arrays in "
        f"and out) {numpy_call * 1e6:.1f} µs, `pin.aba` {aba_call * 1e6:.1f} µs. The loop "
        "has no physics of its own: it calls the kernel behind `forward_dynamics` "
        "(`armlab._kernels`, closed form and elimination, written once for any number of "
        "links) on plain floats for one run and on numpy arrays for a batch, without the "
        f"input checks: {kernel_call * 1e6:.1f} µs a call on floats. One two-link "
        "semi-implicit Euler plant step (friction, forward dynamics, update: one function "
        "compiled for the arm, see `armlab.simulation`) costs "
        f"{kernel_step * 1e6:.1f} µs, so the 15,000 plant steps are about "
        f"{15000 * kernel_step * ms:.0f} ms of each run; the rest is the 1,500 controller "
        "calls and the record. In the Pinocchio loop "
        f"`aba` itself is about {15000 * aba_call * ms:.0f} ms of each run; the rest is the "
        "numpy arithmetic around it.",
        "",
        f"Why {ENSEMBLE} runs in one call are no faster than one by one: the batch makes the "
        "same operations, each a numpy call on arrays of one value per run, and a numpy call "
        "costs its fixed overhead whatever the array's length. One plant step of "
        f"{ENSEMBLE} runs costs {batch_step[ENSEMBLE] * 1e6:.1f} µs, "
        f"{batch_step[ENSEMBLE] / kernel_step:.1f} times one run's step on floats "
        f"({kernel_step * 1e6:.1f} µs), so {ENSEMBLE} runs in one call cost about as much as "
        f"{batch_step[ENSEMBLE] / kernel_step:.0f} runs alone; 1,000 runs' step costs "
        f"{batch_step[1000] * 1e6:.1f} µs ({batch_step[1000] / kernel_step / 1000 * 100:.1f}% of "
        "1,000 single steps). The runs alone must give the same bits as the batch, so both "
        "make the same operations in the same order; a batch pays off from about "
        f"{batch_step[ENSEMBLE] / kernel_step:.0f} runs on. So `simulate` makes a batch of up "
        f"to {RUNS_ALONE} runs (under a built-in controller) run by run on floats and stacks "
        "them: the per-run costs above stay at one run's up to there, and fall beyond.",
        "",
        f"Why {ENSEMBLE} runs cannot be made 6x faster in one call with numpy: the step makes "
        f"{operations} operations, and its longest chain of operations each needing the one "
        f"before is {longest} long; each link of that chain is one numpy call at least, "
        "however the other operations were grouped into fewer, wider calls. At the batched "
        f"step's own cost per operation ({batch_step[ENSEMBLE] / operations * 1e9:.0f} ns on "
        f"{ENSEMBLE} values) the chain alone costs "
        f"{longest * batch_step[ENSEMBLE] / operations * 1e6:.1f} µs, against "
        f"{ENSEMBLE * kernel_step * 1e6:.1f} µs for {ENSEMBLE} steps on floats: at most "
        f"{ENSEMBLE * kernel_step / (longest * batch_step[ENSEMBLE] / operations):.1f}x, "
        "before any of the other operations. 6x needs compiled code (the runs in one loop "
        "below numpy), which the core does not depend on.",
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
