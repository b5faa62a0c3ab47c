"""Speed of armlab.spatial on a 7-joint arm (the Panda) against Pinocchio and Modern Robotics.

Run by ``make bench`` (through ``benchmarks/run.py``); prints a table and rewrites
``benchmarks/spatial.md``. Measured side by side in one process (issue 33):

* 10,000 states in one batched call against Pinocchio called once per state from a
  Python loop: inverse dynamics (RNEA), the mass matrix (CRBA), forward dynamics
  (ABA) and the gravity torques. Target: the batch at least 3x faster. Beside ABA,
  forward dynamics the other way, ``M qdd = tau - (c + g)``: CRBA for ``M``, RNEA at
  ``qdd = 0`` for ``c + g``, and numpy's batched ``np.linalg.solve`` (LU; numpy has no
  batched triangular solve, and scipy's batched ``cho_solve`` measured 20 times slower).
* One state at a time against Modern Robotics' own Python library
  (``modern_robotics`` on PyPI, installed for this benchmark only) on the same arm,
  with Pinocchio's one-state figure beside it: ``InverseDynamics``,
  ``MassMatrix`` and ``ForwardDynamics``. Target: at least 10x faster.

The Panda in Modern Robotics' form comes from armlab's own chain (no number typed
in): link frames {i} at the joints' frames at zero (``Mlist`` from ``Chain.origins``
and ``Chain.tip``), spatial inertias ``Glist`` from ``Chain.inertias`` (its recursion
takes any spatial inertia in frame {i}, not only one at the centre of mass) and the
space screw axes ``Slist`` from the space Jacobian at zero. Every comparison checks the
numbers agree first.
"""

import datetime
import os
import pathlib
import platform
import time

import numpy as np

import armlab
import armlab.spatial as sp

HERE = pathlib.Path(__file__).parent
N_BATCH = 10_000
N_SINGLE = {"armlab": 2000, "pin": 20000, "mr": 20}


def best(fn, repeat=5):
    """Best CPU time of ``repeat`` runs [s] (``time.process_time``: the machine is shared)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def pinocchio_panda(chain):
    import pinocchio as pin

    full = pin.buildModelFromXML((sp.robots.URDF_DIR / "panda.urdf").read_text())
    side = [full.getJointId(j) for j in full.names[1:] if j not in chain.joints]
    model = pin.buildReducedModel(full, side, pin.neutral(full))
    return model, model.createData()


def modern_robotics_panda(chain):
    """``(Mlist, Glist, Slist)`` of the chain, in Modern Robotics' form."""
    Mlist = [*chain.origins, chain.tip]
    Glist = list(chain.inertias)
    Slist = sp.space_jacobian(chain, np.zeros(chain.n))
    return Mlist, Glist, Slist


def states(n, count, seed=0):
    rng = np.random.default_rng(seed)
    return tuple(rng.uniform(-1.5, 1.5, (count, n)) for _ in range(3))


def solved_forward_dynamics(chain, q, qd, tau):
    """``qdd`` from ``M qdd = tau - (c + g)``, batched: the route beside ABA."""
    bias = sp.inverse_dynamics(chain, q, qd, np.zeros_like(q))      # c + g
    M = sp.mass_matrix(chain, q)
    return np.linalg.solve(M, (tau - bias)[..., None])[..., 0]


def batch_rows(chain, model, data):
    import pinocchio as pin

    Q, V, A = states(chain.n, N_BATCH)
    cases = [
        ("`inverse_dynamics` (RNEA) vs `pin.rnea`", lambda: sp.inverse_dynamics(chain, Q, V, A),
         lambda i: pin.rnea(model, data, Q[i], V[i], A[i])),
        ("`mass_matrix` (CRBA) vs `pin.crba`", lambda: sp.mass_matrix(chain, Q),
         lambda i: pin.crba(model, data, Q[i])),
        ("`forward_dynamics` (ABA) vs `pin.aba`", lambda: sp.forward_dynamics(chain, Q, V, A),
         lambda i: pin.aba(model, data, Q[i], V[i], A[i])),
        ("forward dynamics by CRBA + RNEA + `np.linalg.solve` vs `pin.aba`",
         lambda: solved_forward_dynamics(chain, Q, V, A),
         lambda i: pin.aba(model, data, Q[i], V[i], A[i])),
        ("`gravity_torques` vs `pin.computeGeneralizedGravity`",
         lambda: sp.gravity_torques(chain, Q),
         lambda i: pin.computeGeneralizedGravity(model, data, Q[i])),
    ]
    rows = []
    for label, ours, theirs in cases:
        shape = np.shape(theirs(0))

        def loop():
            """Pinocchio once per state, each result stored (as bench_core.py's loops do)."""
            out = np.empty((N_BATCH,) + shape)
            for i in range(N_BATCH):
                out[i] = theirs(i)
            return out

        mine, reference = ours(), loop()
        if reference.ndim == 3:                                   # crba fills the upper half
            reference = np.triu(reference) + np.swapaxes(np.triu(reference, 1), -1, -2)
        err = np.abs(mine - reference).max()
        t_ours, t_pin = best(ours), best(loop)
        speedup = t_pin / t_ours
        rows.append(dict(what=f"10,000 states, {label}", ours=f"{t_ours * 1e3:.1f} ms",
                         other=f"{t_pin * 1e3:.1f} ms (Pinocchio loop)",
                         ratio=f"{speedup:.2f}x faster", target=">= 3x faster",
                         met=speedup >= 3, note=f"max |diff| {err:.1e}"))
    return rows


def single_rows(chain, model, data):
    import modern_robotics as mr
    import pinocchio as pin

    Mlist, Glist, Slist = modern_robotics_panda(chain)
    g = chain.gravity
    Q, V, A = states(chain.n, max(N_SINGLE.values()), seed=1)
    Ftip = np.zeros(6)
    cases = [
        ("`inverse_dynamics` vs `InverseDynamics`",
         lambda i: sp.inverse_dynamics(chain, Q[i], V[i], A[i]),
         lambda i: mr.InverseDynamics(Q[i], V[i], A[i], g, Ftip, Mlist, Glist, Slist),
         lambda i: pin.rnea(model, data, Q[i], V[i], A[i])),
        ("`mass_matrix` vs `MassMatrix`", lambda i: sp.mass_matrix(chain, Q[i]),
         lambda i: mr.MassMatrix(Q[i], Mlist, Glist, Slist),
         lambda i: pin.crba(model, data, Q[i])),
        ("`forward_dynamics` vs `ForwardDynamics`",
         lambda i: sp.forward_dynamics(chain, Q[i], V[i], A[i]),
         lambda i: mr.ForwardDynamics(Q[i], V[i], A[i], g, Ftip, Mlist, Glist, Slist),
         lambda i: pin.aba(model, data, Q[i], V[i], A[i])),
    ]
    rows = []
    for label, ours, theirs, pin_one in cases:
        err = max(np.abs(ours(i) - theirs(i)).max() for i in range(N_SINGLE["mr"]))

        def per_call(fn, count):
            return best(lambda: [fn(i) for i in range(count)]) / count

        t_ours = per_call(ours, N_SINGLE["armlab"])
        t_mr = per_call(theirs, N_SINGLE["mr"])
        t_pin = per_call(pin_one, N_SINGLE["pin"])
        speedup = t_mr / t_ours
        rows.append(dict(what=f"one state, {label}", ours=f"{t_ours * 1e6:.0f} us",
                         other=f"{t_mr * 1e6:.0f} us (Modern Robotics); "
                               f"Pinocchio {t_pin * 1e6:.2f} us",
                         ratio=f"{speedup:.1f}x faster", target=">= 10x faster",
                         met=speedup >= 10, note=f"max |diff| against Modern Robotics {err:.1e}"))
    return rows


def machine():
    import modern_robotics
    import pinocchio as pin

    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mr_version = getattr(modern_robotics, "__version__", "1.1.1")
    return (f"{cpu}, {os.cpu_count()} CPUs; Python {platform.python_version()}, "
            f"numpy {np.__version__}, pinocchio {pin.__version__}, modern_robotics "
            f"{mr_version}, armlab {armlab.__version__}; load average "
            f"{os.getloadavg()[0]:.1f} at the start")


def main():
    chain = sp.panda()
    model, data = pinocchio_panda(chain)
    header = machine()
    rows = batch_rows(chain, model, data) + single_rows(chain, model, data)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Spatial benchmark: armlab.spatial on the Panda against Pinocchio and Modern Robotics",
        "",
        "Written by `benchmarks/bench_spatial.py` (`make bench`); do not edit by hand.",
        "",
        f"- machine: {header}",
        f"- date: {when}",
        "- the arm: `armlab.spatial.panda()`, 7 revolute joints, the hand merged; Pinocchio",
        "  loads the same URDF (fingers locked), Modern Robotics gets armlab's own numbers.",
        "- Pinocchio and Modern Robotics are called once per state from a Python loop;",
        "  armlab takes the 10,000 states in one call (batch rows), or one per call.",
        "- CPU time of the process (`time.process_time`), best of five rounds.",
        "",
        "| measurement | armlab | other | ratio | target | met |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        lines.append(f"| {r['what']} | {r['ours']} | {r['other']} | {r['ratio']} | "
                     f"{r['target']} | {'yes' if r['met'] else '**no**'} |")
    lines += ["", "Notes:", ""] + [f"- {r['what']}: {r['note']}" for r in rows] + [""]
    text = "\n".join(lines)
    (HERE / "spatial.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
