"""One grading worker: autograde and write feedback for its share of the students.

The round starts ``python -m armlab.grading.worker COURSE ASSIGNMENT STUDENT ...``
once per worker, each in its own copy of the course (its own SQLite gradebook),
and reads one JSON line per student from its stdout. nbgrader's ``autograde``
does the rest, with :class:`armlab.grading.execute.SandboxExecute` in place of its
``Execute``: no student code runs in this process, and no kernel is started. The
course secret comes in the environment (``ARMLAB_GRADING_SECRET``), which no
sandbox inherits.
"""

import argparse
import json
import os
import sys
import time

from armlab.grading.release import load_config, skip_iri_syntax, venv_on_path
from armlab.grading.sandbox import BASE_UID

SECRET_ENV = "ARMLAB_GRADING_SECRET"


def worker_config(course, *, secret, cpu, memory_mb, max_chars, isolate, uid,
                  submission_seconds=600.0):
    """The repository's ``nbgrader_config.py`` (which puts
    :class:`~armlab.grading.execute.SandboxExecute` in place of nbgrader's ``Execute``) for
    ``course``, with this round's secret and limits."""
    from traitlets.config import Config

    cfg = load_config(course)
    extra = Config()
    extra.SandboxExecute.secret = secret
    extra.SandboxExecute.cpu = float(cpu)
    extra.SandboxExecute.memory_mb = int(memory_mb)
    extra.SandboxExecute.max_chars = int(max_chars)
    extra.SandboxExecute.isolate = bool(isolate)
    extra.SandboxExecute.uid = int(uid)
    extra.SandboxExecute.submission_seconds = float(submission_seconds)
    cfg.merge(extra)
    return cfg


def run_worker(assignment, course, students, *, cpu, memory_mb, max_chars, isolate, uid,
               submission_seconds=600.0):
    """Autograde and write feedback for ``students`` in ``course``; JSON lines on stdout."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    venv_on_path()
    secret = os.environ.pop(SECRET_ENV, "")
    cfg = worker_config(course, secret=secret, cpu=cpu, memory_mb=memory_mb,
                        max_chars=max_chars, isolate=isolate, uid=uid,
                        submission_seconds=submission_seconds)
    api = NbGraderAPI(coursedir=CourseDirectory(config=cfg), config=cfg)
    for student in students:
        t0 = time.time()
        result = api.autograde(assignment, student, force=True, create=True)
        log = result.get("log") or ""
        err = result.get("error") or ""
        print(json.dumps({"student": student, "success": bool(result["success"]),
                          "seconds": time.time() - t0, "log": (log + "\n" + err)[-20000:]}),
              flush=True)
    # one generate_feedback for the worker's whole share: one exporter, templates loaded once
    api.generate_feedback(assignment, None, force=True)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m armlab.grading.worker")
    parser.add_argument("course")
    parser.add_argument("assignment")
    parser.add_argument("students", nargs="+")
    parser.add_argument("--cpu", type=float, default=30)
    parser.add_argument("--memory-mb", type=int, default=2048)
    parser.add_argument("--max-chars", type=int, default=20_000)
    parser.add_argument("--no-sandbox", action="store_true")
    parser.add_argument("--uid", type=int, default=BASE_UID)
    parser.add_argument("--submission-seconds", type=float, default=600.0)
    args = parser.parse_args(argv)
    return run_worker(args.assignment, args.course, args.students, cpu=args.cpu,
                      memory_mb=args.memory_mb, max_chars=args.max_chars,
                      isolate=not args.no_sandbox, uid=args.uid,
                      submission_seconds=args.submission_seconds)


if __name__ == "__main__":
    skip_iri_syntax()
    sys.exit(main())
