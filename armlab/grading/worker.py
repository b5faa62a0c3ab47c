"""One grading worker: autograde and write feedback for its share of the students.

The round starts ``python -m armlab.grading.worker COURSE ASSIGNMENT STUDENT ...``
once per worker, each in its own copy of the course (its own SQLite
gradebook), and reads one JSON line per student from its stdout. The kernel of
every student is ``armlab.grading.kernel`` (memory cap, bounded output), and
gets that student's case key in a file it deletes before any student code runs;
the course secret itself never reaches a kernel.
"""

import argparse
import json
import os
import pathlib
import shutil
import sys
import tempfile
import time

from armlab.grading.cases import student_key
from armlab.grading.release import load_config, skip_iri_syntax, venv_on_path

SECRET_ENV = "ARMLAB_GRADING_SECRET"
KEY_FILE_ENV = "ARMLAB_CASE_KEY_FILE"


def kernel_spec(work, memory_mb, max_chars):
    spec_dir = work / "jupyter" / "kernels" / "armlab-grading"
    spec_dir.mkdir(parents=True, exist_ok=True)
    spec = {
        "argv": [sys.executable, "-m", "armlab.grading.kernel",
                 "--memory-mb", str(memory_mb), "--max-chars", str(max_chars),
                 "-f", "{connection_file}"],
        "display_name": "armlab grading (capped)",
        "language": "python",
        "env": {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                "MPLBACKEND": "Agg", "PYDEVD_DISABLE_FILE_VALIDATION": "1",
                "PYTHONWARNINGS": "ignore"},
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec, indent=1))
    return work / "jupyter"


def worker_config(course, timeout, max_chars, runtime):
    from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor
    from nbgrader.preprocessors import (AssignLatePenalties, CheckCellMetadata, Execute,
                                        GetGrades, IgnorePattern, LimitOutput, SaveAutoGrades)
    from traitlets.config import Config

    from armlab.grading.preprocessors import HideHiddenTests, TruncateOutput

    cfg = load_config(course)
    extra = Config()
    extra.Execute.timeout = int(timeout)
    extra.Execute.interrupt_on_timeout = True
    extra.Execute.kernel_name = "armlab-grading"
    extra.Execute.startup_timeout = 120
    # Unix sockets, not TCP ports: workers that start kernels at the same moment would race
    # for the ports each manager picks before its kernel binds them (a kernel that loses
    # dies, and its student scores 0). The sockets' absolute path prefix is private to the
    # worker (run_worker); a kernel that starts skips the numbers whose files exist.
    extra.KernelManager.transport = "ipc"
    extra.KernelManager.ip = os.path.join(runtime, "kernel")
    extra.TruncateOutput.max_chars = max_chars
    extra.Autograde.autograde_preprocessors = [
        Execute, TruncateOutput, IgnorePattern, ClearMetadataPreprocessor, LimitOutput,
        SaveAutoGrades, AssignLatePenalties, CheckCellMetadata]
    extra.GenerateFeedback.preprocessors = [GetGrades, HideHiddenTests, CSSHTMLHeaderPreprocessor]
    cfg.merge(extra)
    return cfg


def run_worker(assignment, course, students, timeout, max_chars):
    """Autograde and write feedback for ``students`` in ``course``; JSON lines on stdout."""
    venv_on_path()
    secret = os.environ.pop(SECRET_ENV, "")     # never passed on to a student's kernel
    course = pathlib.Path(course)
    # the kernels' connection files and sockets, on a path short enough for a Unix socket
    # (at most 104 bytes on macOS) and private to this worker
    runtime = tempfile.mkdtemp(prefix="armlab-kernels-", dir="/tmp" if os.path.isdir("/tmp")
                               else None)
    os.environ["JUPYTER_RUNTIME_DIR"] = runtime
    try:
        _grade_each(assignment, course, students, timeout, max_chars, secret, runtime)
    finally:
        shutil.rmtree(runtime, ignore_errors=True)
    return 0


def _grade_each(assignment, course, students, timeout, max_chars, secret, runtime):
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    cfg = worker_config(course, timeout, max_chars, runtime)
    api = NbGraderAPI(coursedir=CourseDirectory(config=cfg), config=cfg)
    keys = course / "keys"
    keys.mkdir(exist_ok=True)
    for student in students:
        t0 = time.time()
        # The kernel reads its case key from this file and deletes it before any
        # student code runs (armlab.grading.cases).
        key_file = keys / f"{student}.key"
        key_file.write_text(student_key(secret, student) if secret else "")
        os.environ[KEY_FILE_ENV] = str(key_file)
        result = api.autograde(assignment, student, force=True, create=True)
        key_file.unlink(missing_ok=True)
        log = result.get("log") or ""
        err = result.get("error") or ""
        print(json.dumps({"student": student, "success": bool(result["success"]),
                          "seconds": time.time() - t0, "log": (log + "\n" + err)[-20000:]}),
              flush=True)
    # one generate_feedback for the worker's whole share: one exporter, templates loaded once
    api.generate_feedback(assignment, None, force=True)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m armlab.grading.worker")
    parser.add_argument("course")
    parser.add_argument("assignment")
    parser.add_argument("students", nargs="+")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--max-chars", type=int, default=20_000)
    args = parser.parse_args(argv)
    return run_worker(args.assignment, args.course, args.students, args.timeout, args.max_chars)


if __name__ == "__main__":
    skip_iri_syntax()
    sys.exit(main())
