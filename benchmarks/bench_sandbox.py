"""What one sandbox run costs to start: :func:`armlab.grading.sandbox.run` of a one-cell
plan, an empty cell (``pass``: bubblewrap, the uid, the filter, the runner's start) and
an honest cell (numpy and a matplotlib figure saved), timed by the clock in the grader.

``python benchmarks/bench_sandbox.py [--before FOLDER] [--runs N]`` writes sandbox.md;
``--before`` names a folder holding another armlab (``git archive <commit> armlab | tar
-x -C FOLDER``), timed in turns with this one so that both see the same load.
"""

import argparse
import datetime
import json
import os
import pathlib
import statistics
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
CELLS = {"empty cell": "pass",
         "numpy + matplotlib cell": "import numpy as np\nimport matplotlib.pyplot as plt\n"
                                    "plt.plot(np.arange(3)); plt.savefig('/scratch/a.png')"}

ONE = r"""
import json, os, pathlib, sys, tempfile, time
sys.executable = os.path.join(os.path.realpath(os.path.dirname(sys.executable)),
                              os.path.basename(sys.executable))
from armlab.grading import sandbox, shaker
build = pathlib.Path(tempfile.mkdtemp(prefix="bench-sandbox-")) / "b"
shaker.build(build, keep={"joint_positions"}, served=set())
def refuse(*a):
    raise TypeError("no")
out = {}
for name, code in json.loads(sys.argv[1]).items():
    t = time.perf_counter()
    r = sandbox.run({"steps": [{"cell": 1, "code": code}]}, build, serve=refuse)
    out[name] = time.perf_counter() - t
    assert r.fault is None and r.status == {1: "ok"}, (r.fault, r.status)
print(json.dumps(out))
"""


def sample(tree):
    """Seconds of each cell's run, one fresh grader process, armlab from ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", ONE, json.dumps(CELLS)],
                         capture_output=True, text=True, env=env, cwd="/", check=True)
    return json.loads(out.stdout.splitlines()[-1])


def _box_cost(runs=50):
    """This commit's own steps around a run, without bubblewrap: the uid claimed (as root),
    the filter and the memory files made, and after the run the uid cleared."""
    sys.path.insert(0, str(REPO))
    import time

    from armlab.grading import sandbox, seccomp

    t = time.perf_counter()
    seccomp.program()
    built = time.perf_counter() - t
    opened, closed = [], []
    for _ in range(runs):
        t = time.perf_counter()
        box = sandbox._Box(pathlib.Path("/nonexistent"))
        t1 = time.perf_counter()
        box.close()
        opened.append(t1 - t)
        closed.append(time.perf_counter() - t1)
    return (f"This commit's steps around a run, without bubblewrap ({runs} times, median): "
            f"{1e3 * statistics.median(opened):.1f} ms before it (uid claimed"
            f"{'' if os.geteuid() == 0 else ': not root, none'}, memory files), "
            f"{1e3 * statistics.median(closed):.1f} ms after it (uid cleared, nothing left "
            f"to kill); the filter is built once per grader process, {1e3 * built:.1f} ms.")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=pathlib.Path)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    trees = {"this commit": REPO}
    if args.before:
        trees = {"before": args.before, **trees}
    times = {t: {c: [] for c in CELLS} for t in trees}
    for _ in range(args.runs):
        for label, tree in trees.items():
            for cell, seconds in sample(tree).items():
                times[label][cell].append(seconds)
    load = os.getloadavg()[0]
    lines = ["# Starting a sandbox run", "",
             f"Measured {datetime.date.today()} on this machine (load {load:.1f}), "
             f"{args.runs} runs each, in turns: `python benchmarks/bench_sandbox.py"
             + (" --before FOLDER`." if args.before else "`."), "",
             "| armlab | " + " | ".join(f"{c}, median [s]" for c in CELLS) + " |",
             "| --- |" + " ---: |" * len(CELLS)]
    for label in trees:
        lines.append(f"| {label} | " + " | ".join(
            f"{statistics.median(times[label][c]):.3f}" for c in CELLS) + " |")
    if args.before:
        ratio = {c: statistics.median(times["this commit"][c])
                 / statistics.median(times["before"][c]) for c in CELLS}
        lines += ["", "Ratio this commit / before: "
                  + ", ".join(f"{c} {r:.2f}x" for c, r in ratio.items()) + "."]
    lines += ["", _box_cost()]
    (HERE / "sandbox.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
