"""Speed of armlab's core against Pinocchio, side by side in one run.

Run by ``make bench`` (through ``benchmarks/run.py``); prints a table and
rewrites ``benchmarks/core.md``. Measured:

* batch inverse dynamics, 1,000,000 states of a 2-link arm (closed form) and
  of a 7-link arm (RNEA), against Pinocchio's ``rnea`` called once per state
  from a Python loop (the way one would use it on a batch);
* peak memory of the 1,000,000-state batch, in a fresh subprocess;
* one state at a time (what a simulation loop does): ``inverse_dynamics`` and
  ``forward_dynamics`` against Pinocchio's ``rnea`` and ``aba``, both called
  in the same loop over pre-made state arrays;
* the time of ``import armlab`` beside ``import numpy``, in fresh interpreters;
* forward dynamics per state against the number of links, 2 to 12 (issue 27): the
  kernels' two routes (forming and solving ``M``, and the articulated-body algorithm)
  on a batch and on one state, LAPACK's Cholesky on the stacked matrices, armlab's
  public call and a loop of Pinocchio's ``aba``.

Targets (issue 2): batch 2-link >= 10x Pinocchio's throughput, 7-link RNEA
>= 3x, peak memory < 300 MB, one-state calls within 5x of Pinocchio's.
"""

import datetime
import os
import pathlib
import platform
import subprocess
import sys
import textwrap
import time

import numpy as np

import armlab as al

HERE = pathlib.Path(__file__).parent
N_BATCH = 1_000_000
N_SINGLE = 100_000


def best(fn, repeat=3):
    """Best CPU time of ``repeat`` runs [s].

    CPU time of this process (``time.process_time``), not wall time: the machine
    is shared with other jobs, which stretch wall time unevenly; both sides are
    single-threaded, so on an idle machine the two are the same.
    """
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def pinocchio_model(arm):
    import pinocchio as pin

    model = pin.buildModelFromXML(al.to_urdf(arm))
    model.gravity.linear = np.array([*arm.gravity, 0.0])
    return model, model.createData()


def states(n, count, seed=0):
    rng = np.random.default_rng(seed)
    return tuple(rng.uniform(-2, 2, (count, n)) for _ in range(3))


def pin_loop(fn, model, data, Q, V, A):
    """Pinocchio called once per state from a Python loop, results stored."""
    out = np.empty_like(Q)
    for i in range(len(Q)):
        out[i] = fn(model, data, Q[i], V[i], A[i])
    return out


def batch_case(arm, ours, label, target):
    import pinocchio as pin

    Q, V, A = states(arm.n, N_BATCH)
    model, data = pinocchio_model(arm)
    t_ours = best(lambda: ours(arm, Q, V, A))
    t_pin = best(lambda: pin_loop(pin.rnea, model, data, Q, V, A), repeat=2)
    # same numbers, checked on a slice
    err = np.abs(ours(arm, Q[:1000], V[:1000], A[:1000])
                 - pin_loop(pin.rnea, model, data, Q[:1000], V[:1000], A[:1000])).max()
    speedup = t_pin / t_ours
    return dict(what=label, ours=f"{t_ours:.3f} s", pin=f"{t_pin:.3f} s",
                ratio=f"{speedup:.1f}x faster", target=f">= {target}x faster",
                met=speedup >= target, note=f"max |diff| {err:.1e} N m")


MEMORY_SCRIPT = textwrap.dedent("""
    import resource, sys, tracemalloc
    import numpy as np
    import armlab as al
    arm = al.tabletop_arm()
    rng = np.random.default_rng(0)
    Q, V, A = (rng.uniform(-2, 2, ({n}, 2)) for _ in range(3))
    if sys.argv[1] == "trace":
        tracemalloc.start()
    tau = al.inverse_dynamics(arm, Q, V, A)
    if sys.argv[1] == "trace":
        print(tracemalloc.get_traced_memory()[1])
    else:
        # VmHWM: this process's own peak (ru_maxrss can carry the parent's over exec)
        try:
            status = open("/proc/self/status").read().split("VmHWM:")[1]
            print(int(status.split()[0]) * 1024)
        except (OSError, IndexError):
            print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
""")


def memory_case():
    def run(mode):
        return int(subprocess.run([sys.executable, "-c", MEMORY_SCRIPT.format(n=N_BATCH), mode],
                                  capture_output=True, text=True, check=True).stdout) / 2**20

    rss, call = run("rss"), run("trace")            # tracemalloc's own overhead kept apart
    return dict(what="peak memory, 1,000,000-state 2-link `inverse_dynamics` (fresh process)",
                ours=f"{rss:.0f} MB", pin="", ratio="", target="< 300 MB", met=rss < 300,
                note=f"peak resident size of the whole process: interpreter and numpy, 48 MB of "
                     f"inputs, the call; the call itself allocates at most {call:.0f} MB "
                     "(tracemalloc, in a second run), 16 MB of it the result")


def single_case(ours, theirs, label):
    import pinocchio as pin

    arm = al.tabletop_arm()
    model, data = pinocchio_model(arm)
    Q, V, A = states(2, N_SINGLE, seed=1)
    pin_fn = getattr(pin, theirs)

    def loop_ours():
        for i in range(N_SINGLE):
            ours(arm, Q[i], V[i], A[i])

    def loop_pin():
        for i in range(N_SINGLE):
            pin_fn(model, data, Q[i], V[i], A[i])

    # interleaved rounds, best of each: both see the same machine
    rounds = [(best(loop_ours, 1), best(loop_pin, 1)) for _ in range(5)]
    t_ours = min(r[0] for r in rounds) / N_SINGLE * 1e6
    t_pin = min(r[1] for r in rounds) / N_SINGLE * 1e6
    ratio = t_ours / t_pin
    return dict(what=f"one state, 2-link `{label}` vs `pin.{theirs}`",
                ours=f"{t_ours:.2f} us", pin=f"{t_pin:.2f} us", ratio=f"{ratio:.1f}x slower",
                target="<= 5x slower", met=ratio <= 5,
                note="per call, in a Python loop over pre-made state arrays")


def import_case():
    def once(module):
        code = (f"import time; t = time.perf_counter(); import {module}; "
                "print(time.perf_counter() - t)")
        return float(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                    text=True, check=True).stdout)

    once("armlab")                      # may compile and cache bytecode
    runs = {"numpy": [], "armlab": []}
    for _ in range(10):                 # interleaved, so both see the same machine
        for module in runs:
            runs[module].append(once(module))
    t_np, t_al = min(runs["numpy"]), min(runs["armlab"])
    code = "import sys, armlab; print(sorted({'matplotlib', 'ipywidgets'} & set(sys.modules)))"
    heavy = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.strip()
    return dict(what="`import armlab` (fresh interpreter, includes numpy)",
                ours=f"{t_al * 1e3:.0f} ms", pin=f"numpy alone {t_np * 1e3:.0f} ms",
                ratio=f"+{(t_al - t_np) * 1e3:.0f} ms", target="no matplotlib, no ipywidgets",
                met=heavy == "[]", note=f"heavy modules loaded: {heavy}")


LINKS = (2, 3, 4, 5, 6, 7, 8, 10, 12)
N_LINKS = 10_000


def _median_rounds(fns, rounds=5):
    """Median CPU time of each of ``fns`` [s], over interleaved rounds."""
    import statistics

    times = [[best(fn, 1) for fn in fns] for _ in range(rounds)]
    return [statistics.median(t[i] for t in times) for i in range(len(fns))]


def lapack_cholesky(arm, Q, V, T):
    """Forward dynamics by LAPACK on the stacked mass matrices: ``M`` and the bias torques
    from armlab, ``M = L L^T`` by ``np.linalg.cholesky``, then SciPy's batched
    ``cho_solve``."""
    from scipy.linalg import cho_solve

    M = al.mass_matrix(arm, Q)
    rhs = T - al.inverse_dynamics(arm, Q, V, np.zeros_like(Q))
    return cho_solve((np.linalg.cholesky(M), True), rhs[..., None])[..., 0]


def links_rows():
    """Forward dynamics per state against the number of links: the two routes of the
    kernels (forming and solving M, and the articulated-body algorithm) on a batch and on
    one state, armlab's public call, and Pinocchio's ``aba`` in a loop."""
    import pinocchio as pin

    from armlab import _kernels as K

    rows = []
    for n in LINKS:
        arm = al.PlanarArm([0.3] * n, [1.0] * n)
        k = arm._constants
        model, data = pinocchio_model(arm)
        Q, V, T = states(n, N_LINKS, seed=n)
        flat = [Q, V, T]
        one = [x[0].tolist() for x in flat]
        solve = K.compiled_for(K.eliminate, k, K.FLOATS, one)
        aba = K.compiled_for(K.aba, k, K.FLOATS, one)
        reps = 2000

        def floats(fn):
            return lambda: [fn(*one) for _ in range(reps)]

        t_solve, t_aba, t_chol, t_ours, t_pin, f_solve, f_aba = _median_rounds([
            lambda: K.blocks(K.eliminate, k, flat, N_LINKS, (n,)),
            lambda: K.blocks(K.aba, k, flat, N_LINKS, (n,)),
            lambda: lapack_cholesky(arm, Q, V, T),
            lambda: al.forward_dynamics(arm, Q, V, T),
            lambda: pin_loop(pin.aba, model, data, Q, V, T),
            floats(solve), floats(aba)])
        ours = al.forward_dynamics(arm, Q[:200], V[:200], T[:200])
        err = np.abs(ours - pin_loop(pin.aba, model, data, Q[:200], V[:200], T[:200])).max()
        assert np.allclose(lapack_cholesky(arm, Q[:200], V[:200], T[:200]), ours, atol=1e-9)
        per = 1e9 / N_LINKS
        rows.append(dict(n=n, solve=t_solve * per, aba=t_aba * per, chol=t_chol * per,
                         ours=t_ours * per,
                         pin=t_pin * per, f_solve=f_solve / reps * 1e6, f_aba=f_aba / reps * 1e6,
                         route="ABA" if n >= K.ABA_FROM else "solve M", err=err))
    return rows


def links_table(rows):
    from armlab import _kernels as K

    first = rows[0]
    lines = ["", f"## Forward dynamics against the number of links ({N_LINKS:,} states)", "",
             "Per state, medians of 5 interleaved rounds of CPU time. *solve M*: the closed "
             "form's mass matrix and bias torques, then elimination (its `L D L^T` factors); "
             "*ABA*: the articulated-body algorithm. Both are armlab's kernels, run on the whole "
             "batch (arrays) and on one state (floats). *Cholesky, LAPACK*: armlab's stacked "
             "mass matrices and bias torques, then `np.linalg.cholesky` and SciPy's batched "
             f"`cho_solve`. `forward_dynamics` runs ABA from {K.ABA_FROM} links on "
             "(`armlab._kernels.ABA_FROM`, one threshold for both back ends). Growth: the cost "
             "over the 2-link cost.", "",
             "| links | solve M, batch | ABA, batch | Cholesky, LAPACK | `forward_dynamics`, "
             "batch | growth | Pinocchio `aba` loop | growth | solve M, one state | ABA, one "
             "state | max diff vs Pinocchio |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r['n']} | {r['solve']:.0f} ns | {r['aba']:.0f} ns | {r['chol']:.0f} ns "
                     f"| {r['ours']:.0f} ns "
                     f"({r['route']}) | {r['ours'] / first['ours']:.1f}x | {r['pin']:.0f} ns | "
                     f"{r['pin'] / first['pin']:.1f}x | {r['f_solve']:.2f} us | "
                     f"{r['f_aba']:.2f} us | {r['err']:.1e} rad/s^2 |")
    return lines

def machine():
    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import pinocchio as pin

    return (f"{cpu}, {os.cpu_count()} CPUs; Python {platform.python_version()}, "
            f"numpy {np.__version__}, pinocchio {pin.__version__}, armlab {al.__version__}; "
            f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', 'unset')}")


def main():
    rows = [
        batch_case(al.tabletop_arm(), al.inverse_dynamics,
                   "1,000,000 states, 2-link `inverse_dynamics` (closed form) vs `pin.rnea`", 10),
        batch_case(al.PlanarArm([0.3] * 7, [1.0] * 7), al.rnea,
                   "1,000,000 states, 7-link `rnea` vs `pin.rnea`", 3),
        memory_case(),
        single_case(al.inverse_dynamics, "rnea", "inverse_dynamics"),
        single_case(al.forward_dynamics, "aba", "forward_dynamics"),
        single_case(al.rnea, "rnea", "rnea"),
        import_case(),
    ]
    rows[5]["target"], rows[5]["met"] = "(not a target)", None
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Core benchmark: armlab against Pinocchio",
        "",
        "Written by `benchmarks/bench_core.py` (`make bench`); do not edit by hand.",
        "",
        f"- machine: {machine()}",
        f"- date: {when}",
        "- Pinocchio is called once per state from a Python loop; armlab takes the whole batch",
        "  in one call (batch rows) or is called in the same loop (one-state rows).",
        "- Times are CPU time of the process (`time.process_time`), best of several rounds:",
        "  the machine is shared, which stretches wall time unevenly.",
        "",
        "| measurement | armlab | Pinocchio | ratio | target | met |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        met = "" if r["met"] is None else ("yes" if r["met"] else "**no**")
        lines.append(f"| {r['what']} | {r['ours']} | {r['pin']} | {r['ratio']} | "
                     f"{r['target']} | {met} |")
    lines += ["", "Notes:", ""] + [f"- {r['what']}: {r['note']}" for r in rows]
    lines += links_table(links_rows()) + [""]
    text = "\n".join(lines)
    (HERE / "core.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
