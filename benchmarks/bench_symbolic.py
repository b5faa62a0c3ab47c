"""Derivation parts: the grader's CPU time to judge a SymPy answer and to refuse hostile ones.

Prints one line per answer: the median over five rounds of the process CPU time of
``judge.verdict`` on the answer's record (as it comes out of the sandbox, through JSON),
and, for SymPy answers, of ``runner.record`` (the sandbox's side, the student's CPU).
Not a test: the suite never times anything.
"""

import json
import statistics
import sys
import time

import sympy as sp

sys.path.insert(0, "tests")
from test_symbolic import (CASE, FORGED, HOSTILE, REF, from_energy,  # noqa: E402
                           from_positions, half_angle)

from armlab.grading import judge  # noqa: E402
from armlab.grading.cases import encode  # noqa: E402
from armlab.grading.runner import record, student_args  # noqa: E402


def cpu(fn, rounds=5):
    times = []
    for _ in range(rounds):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main():
    args = student_args(encode(REF.arguments(CASE)))
    rows = []
    for name, answer in [("from T (hessian)", from_energy), ("from positions", from_positions),
                         ("half angle, by hand", half_angle)] + [
            (f"hostile: {k}", v[0]) for k, v in sorted(HOSTILE.items())]:
        value = answer(*args)
        rec = json.loads(json.dumps(record(value)))
        rows.append((name, cpu(lambda: record(value)),
                     cpu(lambda: judge.verdict(REF, CASE, rec, show=True))))
    for name, (tree, _why) in sorted(FORGED.items()):
        rec = {"kind": "expr", "tree": tree}
        rows.append((f"forged: {name}", None,
                     cpu(lambda: judge.verdict(REF, CASE, rec, show=True))))
    print(f"{'answer':45s} {'record [ms]':>12s} {'judge [ms]':>11s}")
    for name, rec_t, judge_t in rows:
        shown = f"{1e3 * rec_t:12.2f}" if rec_t is not None else f"{'-':>12s}"
        print(f"{name:45s} {shown} {1e3 * judge_t:11.2f}")


if __name__ == "__main__":
    main()
