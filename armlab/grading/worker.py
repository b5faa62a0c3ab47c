"""One grading process of a round's pool: it grades the students it is sent, one at a time.

``python -m armlab.grading.worker COURSE ASSIGNMENT DB_URL RESULTS`` reads a student's id on
stdin, runs nbgrader's ``autograde`` (with :class:`armlab.grading.execute.SandboxExecute`)
and ``generate_feedback`` into its own gradebook at ``DB_URL``, writes the student's
:class:`~armlab.grading.result.Result` to ``RESULTS/<student>.json`` and prints the id. The
course secret comes in ``ARMLAB_GRADING_SECRET``, which no sandbox inherits.
"""

import argparse
import os
import pathlib
import sys

from armlab.grading.release import limit_options, load_config, skip_iri_syntax, venv_on_path
from armlab.grading.sandbox import UID_MODES

SECRET_ENV = "ARMLAB_GRADING_SECRET"


def worker_config(course, db_url, *, secret, cpu, memory_mb, max_chars, isolate,
                  submission_seconds=600.0):
    """The repository's ``nbgrader_config.py`` (which puts
    :class:`~armlab.grading.execute.SandboxExecute` in place of nbgrader's ``Execute``) for
    ``course`` and the gradebook at ``db_url``, with this round's secret and limits."""
    return load_config(course, **{
        "CourseDirectory.db_url": db_url, "SandboxExecute.secret": secret,
        "SandboxExecute.cpu": float(cpu), "SandboxExecute.memory_mb": int(memory_mb),
        "SandboxExecute.max_chars": int(max_chars), "SandboxExecute.isolate":
        isolate if isolate in UID_MODES else bool(isolate),
        "SandboxExecute.submission_seconds": float(submission_seconds)})


def grade_one(api, assignment, student, db_url, feedback=True):
    """Autograde ``student`` (and write their feedback page) into the gradebook at ``db_url``,
    which this process alone writes: their :class:`Result`, holding what nbgrader recorded
    there (:func:`armlab.grading.gradebook.submission_rows`). Both the round's workers and
    Gradescope's runner grade a submission with this."""
    from armlab.grading.execute import GRADED
    from armlab.grading.gradebook import submission_rows
    from armlab.grading.result import Result

    graded = api.autograde(assignment, student, force=True, create=True)
    if feedback:
        api.generate_feedback(assignment, student, force=True)
    result = GRADED.pop(student, None) or Result(student, recorded=False)
    result.success = bool(graded["success"])
    result.log = ((graded.get("log") or "") + "\n" + (graded.get("error") or ""))[-20000:]
    course = pathlib.Path(api.coursedir.root)
    result.graded = any((course / "autograded" / student / assignment).glob("*.ipynb"))
    result.scores, result.gradebook = submission_rows(db_url, assignment, student)
    return result


def run_worker(assignment, course, db_url, results, *, cpu, memory_mb, max_chars, isolate,
               submission_seconds=600.0):
    """Grade each student named on stdin; each one's result into ``results``."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    venv_on_path()
    secret = os.environ.pop(SECRET_ENV, "")
    cfg = worker_config(course, db_url, secret=secret, cpu=cpu, memory_mb=memory_mb,
                        max_chars=max_chars, isolate=isolate,
                        submission_seconds=submission_seconds)
    api = NbGraderAPI(coursedir=CourseDirectory(config=cfg), config=cfg)
    for line in sys.stdin:
        student = line.strip()
        result = grade_one(api, assignment, student, db_url)
        path = pathlib.Path(results) / f"{student}.json"
        path.with_suffix(".partial").write_text(result.to_json(), encoding="utf-8")
        path.with_suffix(".partial").replace(path)
        print(student, flush=True)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m armlab.grading.worker")
    parser.add_argument("course")
    parser.add_argument("assignment")
    parser.add_argument("db_url")
    parser.add_argument("results")
    limit_options(parser)
    args = parser.parse_args(argv)
    return run_worker(args.assignment, args.course, args.db_url, args.results, cpu=args.cpu,
                      memory_mb=args.memory_mb, max_chars=args.max_chars,
                      isolate=not args.no_sandbox,
                      submission_seconds=args.submission_seconds)


if __name__ == "__main__":
    skip_iri_syntax()
    sys.exit(main())
