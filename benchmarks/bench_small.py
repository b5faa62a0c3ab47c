"""Small calls against Pinocchio: one state, and batches of 1 to 100 states.

Run by ``make bench`` (through ``benchmarks/run.py``); prints a table and
rewrites ``benchmarks/small.md``. What students, labs and tuning loops call
is one state, or a handful: this measures armlab's one-state calls against
Pinocchio's for 2 and 7 links (``mass_matrix`` vs ``crba``, ``jacobian`` vs
the tip frame's Jacobian, ``gravity_torques`` vs ``computeGeneralizedGravity``,
``inverse_dynamics`` vs ``rnea``, ``forward_dynamics`` vs ``aba``), the cost
of a ``(1, n)`` batch against the ``(n,)`` call, and armlab's batch of N
states against a Python loop of Pinocchio over them.

Each row interleaves the two sides over seven rounds and reports the medians
of process CPU time per call (the machine is shared, which stretches wall time
unevenly). Targets (issue 27): one state within 5x of Pinocchio, a ``(1, n)``
batch within 2x of the ``(n,)`` call.
"""

import datetime
import pathlib
import statistics
import time

import numpy as np
from bench_core import machine, pinocchio_model

import armlab as al

HERE = pathlib.Path(__file__).parent
ROUNDS = 7


def per_call(fn, calls):
    """CPU time of one call of ``fn`` [s], from a loop of ``calls``."""
    start = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - start) / calls


def side_by_side(ours, theirs, calls):
    """Median CPU time per call of each, the rounds interleaved."""
    rounds = [(per_call(ours, calls), per_call(theirs, calls)) for _ in range(ROUNDS)]
    return (statistics.median(r[0] for r in rounds), statistics.median(r[1] for r in rounds))


def arm_of(n):
    return al.tabletop_arm() if n == 2 else al.PlanarArm([0.3] * n, [1.0] * n)


def tip_frame(model, arm):
    """A frame at the tip, the last link's length along its joint's x axis."""
    import pinocchio as pin

    joint = model.njoints - 1
    frame = pin.Frame("tip", joint, model.getFrameId(f"joint{arm.n - 1}"),
                      pin.SE3(np.eye(3), np.array([arm.lengths[-1], 0.0, 0.0])),
                      pin.FrameType.OP_FRAME)
    return model.addFrame(frame)


def one_state_rows(n):
    import pinocchio as pin

    arm = arm_of(n)
    model, data = pinocchio_model(arm)
    tip = tip_frame(model, arm)
    data = model.createData()
    rng = np.random.default_rng(n)
    q, qd, qdd = (rng.uniform(-2, 2, n) for _ in range(3))
    world = pin.ReferenceFrame.LOCAL_WORLD_ALIGNED

    def pin_jacobian():
        pin.computeJointJacobians(model, data, q)
        pin.updateFramePlacements(model, data)
        return pin.getFrameJacobian(model, data, tip, world)[:2]

    assert np.allclose(al.jacobian(arm, q), pin_jacobian(), atol=1e-12)
    assert np.allclose(al.mass_matrix(arm, q), pin.crba(model, data, q), atol=1e-12)
    cases = [
        ("mass_matrix", "`pin.crba`", lambda: al.mass_matrix(arm, q),
         lambda: pin.crba(model, data, q)),
        ("jacobian", "Pinocchio's tip frame Jacobian", lambda: al.jacobian(arm, q), pin_jacobian),
        ("gravity_torques", "`pin.computeGeneralizedGravity`", lambda: al.gravity_torques(arm, q),
         lambda: pin.computeGeneralizedGravity(model, data, q)),
        ("inverse_dynamics", "`pin.rnea`", lambda: al.inverse_dynamics(arm, q, qd, qdd),
         lambda: pin.rnea(model, data, q, qd, qdd)),
        ("forward_dynamics", "`pin.aba`", lambda: al.forward_dynamics(arm, q, qd, qdd),
         lambda: pin.aba(model, data, q, qd, qdd)),
    ]
    rows = []
    for ours, theirs, f_ours, f_pin in cases:
        t_ours, t_pin = side_by_side(f_ours, f_pin, 5000)
        ratio = t_ours / t_pin
        rows.append((f"one state, {n}-link `{ours}` vs {theirs}", f"{t_ours * 1e6:.2f} us",
                     f"{t_pin * 1e6:.2f} us", f"{ratio:.1f}x", "<= 5x", ratio <= 5))
    return rows


def batch_of_one_rows(n):
    arm = arm_of(n)
    rng = np.random.default_rng(n)
    q, qd, qdd = (rng.uniform(-2, 2, n) for _ in range(3))
    rows = []
    for name, one, batch in [
            ("mass_matrix", lambda: al.mass_matrix(arm, q), lambda: al.mass_matrix(arm, q[None])),
            ("forward_dynamics", lambda: al.forward_dynamics(arm, q, qd, qdd),
             lambda: al.forward_dynamics(arm, q[None], qd[None], qdd[None]))]:
        t_batch, t_one = side_by_side(batch, one, 5000)
        ratio = t_batch / t_one
        rows.append((f"{n}-link `{name}`, a (1, {n}) batch vs the ({n},) call",
                     f"{t_batch * 1e6:.2f} us", f"{t_one * 1e6:.2f} us (armlab)", f"{ratio:.1f}x",
                     "<= 2x", ratio <= 2))
    return rows


def batch_rows(n):
    import pinocchio as pin

    arm = arm_of(n)
    model, data = pinocchio_model(arm)
    rows = []
    for count in (10, 100):
        rng = np.random.default_rng(count)
        Q, V, A = (rng.uniform(-2, 2, (count, n)) for _ in range(3))

        def loop():
            for i in range(count):
                pin.rnea(model, data, Q[i], V[i], A[i])

        t_ours, t_pin = side_by_side(lambda: al.inverse_dynamics(arm, Q, V, A), loop,
                                     max(50, 5000 // count))
        ratio = t_ours / t_pin
        rows.append((f"{count} states, {n}-link `inverse_dynamics` vs a loop of `pin.rnea`",
                     f"{t_ours * 1e6:.1f} us", f"{t_pin * 1e6:.1f} us", f"{ratio:.1f}x",
                     "(not a target)", None))
    return rows


SWEEP = (1, 2, 8, 32, 48, 49, 64, 256, 1024, 10**4, 10**5, 10**6)   # batch sizes, per state


def per_state(n):
    """``forward_dynamics``'s CPU time per state [s] of an ``(N, n)`` batch, for N in SWEEP
    (the median of ROUNDS rounds of at least 20,000 states or 3 calls each)."""
    arm, rng = arm_of(n), np.random.default_rng(n)
    costs = {}
    for count in SWEEP:
        Q, V, T = (rng.uniform(-2, 2, (count, n)) for _ in range(3))
        calls = max(3, 20000 // count)
        costs[count] = statistics.median(
            per_call(lambda: al.forward_dynamics(arm, Q, V, T), calls) for _ in range(ROUNDS)
        ) / count
    return costs


def main():
    rows = []
    for n in (2, 7):
        rows += one_state_rows(n) + batch_of_one_rows(n) + batch_rows(n)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = ["# Small calls: armlab against Pinocchio", "",
             "Written by `benchmarks/bench_small.py` (`make bench`); do not edit by hand.", "",
             f"- machine: {machine()}", f"- date: {when}",
             f"- medians of {ROUNDS} interleaved rounds of process CPU time per call; the ratio "
             "is armlab's time over the other's (below 1: armlab is faster)", "",
             "| measurement | armlab | other | ratio | target | met |",
             "| --- | --- | --- | --- | --- | --- |"]
    for what, ours, theirs, ratio, target, met in rows:
        shown = "" if met is None else ("yes" if met else "**no**")
        lines.append(f"| {what} | {ours} | {theirs} | {ratio} | {target} | {shown} |")
    lines += ["", "Per state, `forward_dynamics` on an `(N, n)` batch (up to `_FEW` = "
              f"{al._kernels._FEW} states run one by one on floats, more on arrays, block by "
              "block): the cost falls from one state's to numpy's, with one step where the "
              "route changes.", "",
              "| links | " + " | ".join(f"{c:,}" for c in SWEEP) + " |",
              "| --- |" + " ---: |" * len(SWEEP)]
    for n in (2, 7):
        costs = per_state(n)
        lines.append(f"| {n} [ns] | " + " | ".join(f"{costs[c] * 1e9:,.0f}" for c in SWEEP)
                     + " |")
    text = "\n".join(lines) + "\n"
    (HERE / "small.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
