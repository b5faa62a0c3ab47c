"""Grading a class: plain serial nbgrader against the armlab pipeline.

Forty submissions of the statics set (honest ones, a quarter with one
mistake) are graded in the same run by

* plain ``nbgrader autograde`` (serial, nbgrader's defaults plus the
  repository's ``nbgrader_config.py``), then ``nbgrader generate_feedback``;
* ``python -m armlab.grading.autograde`` with 1 and with 2 workers (collect,
  census and scan, autograde with the kernel limits, feedback, merge, export).

For each: wall time and CPU time (user + sys of the process and all its
children, kernels included) per submission, and the peak memory of the whole
process tree (sampled every 50 ms). Results go to ``benchmarks/grading.md``.
"""

import importlib.util
import json
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import psutil

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
N = int(os.environ.get("BENCH_GRADING_N", "40"))
PY = sys.executable
BIN = os.path.dirname(PY)

spec = importlib.util.spec_from_file_location("corpus", REPO / "tests" / "submissions" / "corpus.py")
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)


def submissions():
    """``N`` notebooks: honest, every fourth with a wrong number in part 5."""
    out = {}
    for k in range(N):
        if k % 4 == 3:
            nb = corpus.SET.with_mistake("push_answer", "np.min(", "np.max(")
        else:
            nb = corpus.filled()
        out[f"s{k:03d}"] = nb
    return out


def measure(cmd, cwd, env):
    """Run ``cmd``; wall, CPU (self + children) and peak tree RSS."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    peak = [0]
    stop = threading.Event()

    def sample():
        try:
            root = psutil.Process(proc.pid)
        except psutil.Error:
            return
        while not stop.is_set():
            total = 0
            try:
                for p in [root] + root.children(recursive=True):
                    try:
                        total += p.memory_info().rss
                    except psutil.Error:
                        pass
            except psutil.Error:
                pass
            peak[0] = max(peak[0], total)
            time.sleep(0.05)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    rc = proc.wait()
    stop.set()
    th.join()
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if rc != 0:
        raise SystemExit(f"{cmd} failed with {rc}")
    return wall, cpu, peak[0] / 2**20


def _spin(seconds):
    end = time.process_time() + seconds
    x = 0
    while time.process_time() < end:
        x += 1
    return x


def parallel_capacity(seconds=3.0):
    """Work done by two CPU-bound processes at once, relative to one: this machine's
    real parallelism right now (2.0 on two free cores)."""
    import multiprocessing as mp
    with mp.get_context("fork").Pool(2) as pool:
        t0 = time.perf_counter()
        pool.map(_spin, [seconds])
        one = time.perf_counter() - t0
        t0 = time.perf_counter()
        pool.map(_spin, [seconds, seconds])
        two = time.perf_counter() - t0
    return 2 * one / two


def plain_course(tmp, subs):
    """A course folder for plain nbgrader: the repo's config, its own root and gradebook."""
    course = tmp / "plain"
    (course / "source").mkdir(parents=True)
    shutil.copytree(REPO / "solutions" / "statics", course / "source" / "statics")
    (course / "nbgrader_config.py").write_text(
        f"exec(open({str(REPO / 'nbgrader_config.py')!r}).read())\n"
        f"c.CourseDirectory.root = {str(course)!r}\n"
        "c.CourseDirectory.source_directory = 'source'\n"
        "c.CourseDirectory.release_directory = 'release'\n"
        "c.CourseDirectory.submitted_directory = 'submitted'\n"
        "c.CourseDirectory.autograded_directory = 'autograded'\n"
        "c.CourseDirectory.feedback_directory = 'feedback'\n"
        f"c.CourseDirectory.db_url = 'sqlite:///{course}/gradebook.db'\n")
    for login, nb in subs.items():
        d = course / "submitted" / login / "statics"
        d.mkdir(parents=True)
        (d / "statics.ipynb").write_text(json.dumps(nb))
    return course


def main():
    env = dict(os.environ)
    env["PATH"] = BIN + os.pathsep + env.get("PATH", "")
    subs = submissions()
    rows = []
    load_before = os.getloadavg()
    capacity_before = parallel_capacity()
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        tmp = pathlib.Path(tmp)
        export = tmp / "export"
        export.mkdir()
        for k, (login, nb) in enumerate(subs.items()):
            (export / f"{login}_{k}_1_statics.ipynb").write_text(json.dumps(nb))

        course = plain_course(tmp, subs)
        nbg = [str(pathlib.Path(BIN) / "nbgrader")]
        subprocess.run(nbg + ["generate_assignment", "statics", "--force"], cwd=course, env=env,
                       check=True, capture_output=True)
        w, c, m = measure(nbg + ["autograde", "statics", "--force"], course, env)
        rows.append(("plain nbgrader autograde (serial)", w, c, m))
        w2, c2, m2 = measure(nbg + ["generate_feedback", "statics", "--force"], course, env)
        rows.append(("plain nbgrader autograde + generate_feedback", w + w2, c + c2, max(m, m2)))

        for workers in (1, 2, 3):
            out = tmp / f"pipe{workers}"
            cmd = [PY, "-m", "armlab.grading.autograde", "statics", str(export),
                   "--workers", str(workers), "--out", str(out)]
            w, c, m = measure(cmd, REPO, env)
            rows.append((f"armlab pipeline, {workers} worker{'s' if workers > 1 else ''}", w, c, m))
            grades = (out / "grades.csv").read_text().splitlines()
            assert len(grades) == N + 1, grades[:3]

    capacity = (capacity_before, parallel_capacity())
    load_after = os.getloadavg()
    plain, base = rows[0], rows[1]
    lines = [
        "# Grading benchmark",
        "",
        f"`benchmarks/bench_grading.py`: {N} submissions of the statics exercise set, graded in "
        "one run by plain serial nbgrader and by `python -m armlab.grading.autograde`. CPU is "
        "user + sys of the command and all its children (the kernels); memory is the peak "
        "resident size of the whole process tree. Machine: "
        f"{os.cpu_count()} vCPUs, Python {sys.version.split()[0]}.",
        "",
        "The pipeline's rows include everything `make grade` does: collect (`zip_collect`), "
        "census and static scan, `autograde` under the kernel limits, `generate_feedback`, the "
        "gradebook merge and its check, `export`. Compare them with the second row.",
        "",
        "| run | wall (s) | wall / submission (s) | CPU / submission (s) | peak memory (MiB) "
        "| throughput vs plain autograde | vs plain autograde + feedback |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, w, c, m in rows:
        lines.append(f"| {name} | {w:.1f} | {w / N:.2f} | {c / N:.2f} | {m:.0f} | "
                     f"{plain[1] / w:.2f}x | {base[1] / w:.2f}x |")
    one, two = rows[2], rows[3]
    lines += [
        "",
        f"- CPU per submission, pipeline (2 workers) vs plain autograde + feedback: "
        f"{two[2] / base[2]:.2f}x (target at most 1.20x).",
        f"- Throughput, 2 workers vs plain autograde + feedback: {base[1] / two[1]:.2f}x; "
        f"2 workers vs 1 worker: {one[1] / two[1]:.2f}x.",
        f"- Idle share of plain nbgrader: its CPU per submission is {plain[2] / N:.2f} s of "
        f"{plain[1] / N:.2f} s wall ({1 - plain[2] / plain[1]:.0%} waiting on kernel start-up "
        "and disk), which a second worker fills even on a busy machine.",
        f"- Parallel capacity of this machine, measured before and after the runs: two "
        f"CPU-bound processes did {capacity[0]:.2f}x and {capacity[1]:.2f}x the work of one "
        "(2.00x on two free cores). The two vCPUs are shared with other jobs, so this moves "
        "during the run, and so does every speed-up above.",
        f"- Load average (1, 5, 15 min) before the runs: {', '.join(f'{x:.2f}' for x in load_before)}; "
        f"after: {', '.join(f'{x:.2f}' for x in load_after)} (other jobs on the machine included).",
        f"- Targets: throughput of 2 workers at least 1.5x plain `nbgrader autograde` "
        f"(measured {plain[1] / two[1]:.2f}x against autograde alone, {base[1] / two[1]:.2f}x "
        f"against autograde + feedback: {'met' if plain[1] / two[1] >= 1.5 else 'NOT met'}); "
        f"CPU per submission at most 1.2x ({two[2] / base[2]:.2f}x against autograde + "
        f"feedback, {two[2] / plain[2]:.2f}x against autograde alone, which writes no "
        f"feedback: {'met' if two[2] / base[2] <= 1.2 else 'NOT met'}). The cores were "
        + ("free enough for the target's conditions (two CPU-bound processes did at least "
           "1.8x the work of one, before and after)." if min(capacity) >= 1.8 else
           "NOT free during the runs (see the parallel capacity above): the speed-ups are "
           "lower than on two free cores."),
        "",
    ]
    (HERE / "grading.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
