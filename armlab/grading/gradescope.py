"""A Gradescope autograder for an exercise set: the same checks and sandbox as ``make grade``.

``python -m armlab.grading.gradescope build ASSIGNMENT [--out autograder.zip]`` writes the
zip Gradescope's *Configure Autograder* takes (``setup.sh``, ``run_autograder``,
``assignment/``, and ``secret`` when given), following
https://gradescope-autograders.readthedocs.io/en/latest/specs/. ``run`` grades the one
submission in ``/autograder/submission/`` (:func:`run`, regular files only,
:func:`refused`) as ``make grade`` does (census, :func:`armlab.grading.worker.grade_one`)
and writes ``results/results.json``, whatever happens: one test per graded cell, plus a
test of score 0 for a fault. The sandbox is :func:`armlab.grading.sandbox.choose`'s; where
none can run, nothing is graded. ``ARMLAB_GRADESCOPE_ROOT`` moves ``/autograder`` (tests),
``ARMLAB_GRADESCOPE_PYTHON`` names ``run_autograder``'s interpreter. The instructors'
page, "Grading on Gradescope", says the rest.
"""

import argparse
import json
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import traceback
import zipfile

from armlab.grading.release import REPO, limit_options, skip_iri_syntax, venv_on_path

ROOT_ENV = "ARMLAB_GRADESCOPE_ROOT"
SECRET_ENV = "ARMLAB_GRADING_SECRET"
VENV = "/opt/armlab/venv"
"""Where ``setup.sh`` puts the runtime in Gradescope's image."""
HIDDEN = "### BEGIN HIDDEN TESTS"
MEMORY_MB = 512
"""The notebook's address space [MiB] (``RLIMIT_AS``): with the grader (~200 MB) under
Gradescope's default 768 MB (numpy and matplotlib's Agg reach ~220 MiB)."""
SUBMISSION_SECONDS = 480.0
"""Wall-clock seconds of all the runs of one notebook: under Gradescope's default limit of
10 minutes with the grader's own work (else Gradescope stops it and writes no result)."""
ZIP_DATE = (2026, 1, 1, 0, 0, 0)
"""Every member of the zip carries this date, so two builds of one set differ only in
the gradebook nbgrader writes."""

SETUP_SH = r"""#!/usr/bin/env bash
# armlab's Gradescope autograder, image setup (Gradescope runs this once, as root, when it
# builds the autograder's image; https://gradescope-autograders.readthedocs.io/en/latest/specs/).
# Installs bubblewrap (the sandbox every notebook runs in) and libseccomp2 (its system-call
# filter, through pyseccomp), Python 3.11 and the book's pinned runtime (requirements.txt) in
# a virtual environment, and the armlab this zip was built from.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${ARMLAB_GRADESCOPE_VENV:-/opt/armlab/venv}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends bubblewrap libseccomp2 util-linux ca-certificates
# Python 3.11 (the book's runtime.txt): Ubuntu 22.04 and Debian 12 package it; elsewhere the
# system's python3 is used if it is 3.11 or newer.
if apt-get install -y -qq --no-install-recommends python3.11 python3.11-venv; then
    PY=python3.11
else
    apt-get install -y -qq --no-install-recommends python3 python3-venv
    PY=python3
fi
"$PY" -c 'import sys; assert sys.version_info >= (3, 11), "armlab needs Python 3.11 or newer"'
"$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -r "$HERE/requirements.txt"
"$VENV/bin/python" -m pip install --quiet --no-deps "$HERE/armlab-src"
# The answer key and the secret are root's alone (the sandbox sees none of /autograder anyway).
chmod -R go= "$HERE"
# Whether this image can make the sandbox, for the build log (never fails the build).
"$VENV/bin/python" -I -m armlab.grading.gradescope check || true
"""

RUN_AUTOGRADER = r"""#!/usr/bin/env bash
# armlab's Gradescope autograder: grades /autograder/submission/*.ipynb into
# /autograder/results/results.json (Gradescope runs this for every submission, as root).
ROOT="${ARMLAB_GRADESCOPE_ROOT:-/autograder}"
PY="${ARMLAB_GRADESCOPE_PYTHON:-/opt/armlab/venv/bin/python}"
cd "$ROOT" && exec "$PY" -I -m armlab.grading.gradescope run --root "$ROOT"
"""


class BuildError(Exception):
    """An input error of ``build``: one line for the instructor, exit status 2."""


# ================================================================== build
def _runtime_requirements():
    """requirements.txt without the editable install of the checkout (the zip brings armlab)."""
    lines = (REPO / "requirements.txt").read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.strip().startswith("-e")) + "\n"


def _package_files():
    """armlab's source, as pip installs it: ``{name in the zip: bytes}``."""
    files = {"armlab-src/pyproject.toml": (REPO / "pyproject.toml").read_bytes()}
    for path in sorted((REPO / "armlab").rglob("*")):
        rel = path.relative_to(REPO).as_posix()
        if path.is_file() and "__pycache__" not in rel and not rel.endswith((".pyc", ".pyo")):
            files[f"armlab-src/{rel}"] = path.read_bytes()
    return files


def _commit():
    try:
        out = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=10)
        return out.stdout.strip() if out.returncode == 0 else ""
    except OSError:
        return ""


def build(assignment, out="autograder.zip", *, secret=None, solutions=None, student_id="email",
          cpu=30.0, memory_mb=MEMORY_MB, max_chars=20_000,
          submission_seconds=SUBMISSION_SECONDS):
    """Write ``autograder.zip`` for ``assignment``; returns its path.

    ``secret`` None or '' builds one whose students all get the default fresh cases
    (only with ``allow_no_secret`` on the command line: see :func:`main`).
    """
    from armlab.grading.autograde import assignments
    from armlab.grading.release import generate

    solutions = pathlib.Path(solutions or REPO / "solutions")
    known = assignments(solutions)
    if assignment not in known:
        raise BuildError(f"unknown assignment {assignment!r}: the assignments are "
                         f"{', '.join(known) or '(none)'} (folders of {solutions})")
    if student_id not in ("email", "id"):
        raise BuildError(f"--student-id {student_id}: choose email or id")
    venv_on_path()
    notebook = f"{assignment}.ipynb"
    config = {"assignment": assignment, "student_id": student_id, "cpu": float(cpu),
              "memory_mb": int(memory_mb), "max_chars": int(max_chars),
              "armlab_commit": _commit(),
              "submission_seconds": float(submission_seconds)}
    with tempfile.TemporaryDirectory(prefix="armlab-gradescope-") as tmp:
        course = pathlib.Path(tmp)
        generate(assignment, course, solutions)
        members = {
            "setup.sh": (SETUP_SH.encode(), 0o755),
            "run_autograder": (RUN_AUTOGRADER.encode(), 0o755),
            "requirements.txt": (_runtime_requirements().encode(), 0o644),
            "assignment/config.json": ((json.dumps(config, indent=1, sort_keys=True) + "\n")
                                       .encode(), 0o644),
            f"assignment/source/{notebook}": (
                (course / "source" / assignment / notebook).read_bytes(), 0o600),
            f"assignment/release/{notebook}": (
                (course / "release" / assignment / notebook).read_bytes(), 0o644),
            "assignment/gradebook.db": ((course / "gradebook.db").read_bytes(), 0o600),
        }
        members.update({name: (data, 0o644) for name, data in _package_files().items()})
        if secret:
            members["secret"] = (str(secret).encode(), 0o600)
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(members):
            data, mode = members[name]
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    partial.replace(out)
    return out


# ================================================================== grading one submission
class Paths:
    """Gradescope's layout under one root (``/autograder``)."""

    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.source = self.root / "source"
        self.submission = self.root / "submission"
        self.metadata = self.root / "submission_metadata.json"
        self.results = self.root / "results" / "results.json"


def submitter(metadata, field="email"):
    """The submitter's id in Gradescope's submission metadata: ``users[0]``'s ``email``
    (or ``id``), stripped; ``(id, note)`` with a note for the output when something is odd.

    >>> submitter({"users": [{"email": "Ann@Example.org ", "id": 7, "name": "Ann"}]})
    ('Ann@Example.org', '')
    >>> submitter({"users": [{"email": "a@x.org", "id": 7}, {"email": "b@x.org", "id": 8}]}, "id")
    ('7', 'a group submission: the fresh cases are those of its first member, 7')
    >>> submitter({})
    ('', 'no submitter in the submission metadata')
    """
    users = metadata.get("users") if isinstance(metadata, dict) else None
    if not isinstance(users, list) or not users or not isinstance(users[0], dict):
        return "", "no submitter in the submission metadata"
    first = users[0]
    value = first.get(field)
    if value in (None, "") and field == "email":
        value = first.get("id")
    value = "" if value is None else str(value).strip()
    if not value:
        return "", "no submitter in the submission metadata"
    note = (f"a group submission: the fresh cases are those of its first member, {value}"
            if len(users) > 1 else "")
    return value, note


def choose_notebook(folder, notebook):
    """The submitted notebook: ``(path or None, note)``. ``<set>.ipynb`` anywhere in the
    submission (Gradescope keeps an uploaded folder's layout), else a resubmission's
    ``<set> (1).ipynb`` or ``<set>-1.ipynb``, else the only notebook there. Only regular
    files count, and no linked folder is entered (:func:`refused`)."""
    from armlab.grading.lms import canonical_file
    from armlab.grading.safefiles import walk

    found = sorted(pathlib.Path(folder, name) for name, what in walk(folder)
                   if what is None and name.endswith(".ipynb")
                   and not any(part in ("__MACOSX", ".ipynb_checkpoints") or part.startswith(".")
                               for part in name.split("/")))
    exact = [p for p in found if p.name == notebook]
    if exact:
        return exact[0], ""
    renamed = [p for p in found if canonical_file(p.name, notebook) == notebook]
    if len(renamed) == 1:
        return renamed[0], f"{renamed[0].name} graded as {notebook}"
    if len(found) == 1:
        return found[0], f"{found[0].name} graded as {notebook} (wrongly named notebook)"
    if not found:
        return None, f"no notebook in the submission: upload {notebook}"
    return None, (f"no {notebook}, and several other notebooks "
                  f"({', '.join(p.name for p in found)}): upload {notebook}")


def refused(folder):
    """What in the submission is not a regular file (a link, a linked folder, a FIFO, a
    device): ``["<name> is <what it is>", ...]``, none of it followed nor read. Gradescope
    makes regular files of what a student uploads, so anything else is a fault: nothing of
    that submission is graded, and it is held for review.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> os.symlink("/autograder/source/assignment/source/statics.ipynb",
    ...            os.path.join(folder, "statics.ipynb"))
    >>> refused(folder)
    ['statics.ipynb is a symbolic link']
    """
    from armlab.grading.safefiles import walk

    return [f"{name} is {what}" for name, what in walk(folder) if what]


def _wrap_lines(verdicts):
    from armlab.grading import judge

    lines = []
    for kind, message, *_ in verdicts:
        if kind == "pass":
            lines.append(judge.wrap(judge.PASSED_MARK + message))
        elif kind == "fault":
            lines.append(judge.wrap(judge.FAILED_MARK + message + " (held for a human to "
                                    "look at: this is not a grade)"))
        else:
            lines.append(judge.wrap(judge.FAILED_MARK + message))
    return "\n".join(lines)


def _test(number, name, score, max_score, output, visibility, tags=()):
    test = {"name": name, "number": number, "score": round(float(score), 4),
            "max_score": round(float(max_score), 4), "output": output,
            "visibility": visibility}
    if tags:
        test["tags"] = list(tags)
    return test


def _numbered(source_nb):
    """``{grade id: (number, name, points, visibility)}`` for every test cell of the source,
    in order (a cell of hidden tests is seen after the due date)."""
    from armlab.grading.autograde import parts_of
    from armlab.grading.outputs import cell_titles

    parts = parts_of(source_nb)
    titles = cell_titles(source_nb, parts)
    part_of = {gid: f"{k}.{j}" for k, (_key, _title, cells, _pts) in enumerate(parts, start=1)
               for j, gid in enumerate(cells, start=1)}
    out = {}
    for cell in source_nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("grade") and not meta.get("solution") and cell["cell_type"] == "code":
            gid = meta["grade_id"]
            src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            out[gid] = (part_of.get(gid, "0"), titles.get(gid, gid), float(meta.get("points", 0)),
                        "after_due_date" if HIDDEN in src else "visible")
    return out


def _held(reasons):
    lines = "\n".join(f"- {r}" for r in reasons)
    return _test("0", "Held for review: a fault of the grading, not a grade", 0, 0,
                 "This submission is held for a human to look at. What went wrong is not "
                 "your answer:\n" + lines + "\nYour instructor will regrade or grade it by "
                 "hand; the scores above may change.", "visible", tags=["review"])


class _Outcome:
    """What a submission's results say besides its tests: notes, reasons to hold it for
    review, and Gradescope's results dict around the tests (:meth:`results`)."""

    def __init__(self, config, assignment):
        self.config, self.assignment = config, assignment
        self.notes, self.review, self.isolate, self.sandbox = [], [], None, ""
        self.started = time.monotonic()

    def report(self, rows):
        """The report's ``(problem, detail)`` rows: a reason to hold it for review, or a note."""
        from armlab.grading.census import Problems

        for kind, detail in rows:
            (self.review if kind in Problems.REVIEW else self.notes).append(f"{kind}: {detail}")

    def results(self, tests, summary):
        if self.review:
            tests = tests + [_held(self.review)]
        lines = [summary] + [f"Note: {n}." for n in self.notes]
        if self.review:
            lines.append("Held for review: a fault of the grading (see the last test).")
        return {"score": round(sum(t["score"] for t in tests), 4),
                "execution_time": int(time.monotonic() - self.started),
                "output": "\n".join(lines), "stdout_visibility": "hidden", "tests": tests,
                "extra_data": {"armlab": {"assignment": self.assignment,
                                          "status": "review" if self.review else "ok",
                                          "review": self.review, "notes": self.notes,
                                          "isolated": bool(self.isolate),
                                          "sandbox": self.sandbox,
                                          "armlab_commit": self.config.get("armlab_commit",
                                                                           "")}}}


def _course_secret(paths, secret):
    """The secret given, else ``$ARMLAB_GRADING_SECRET``, else the zip's (or "")."""
    if secret is not None:
        return secret
    secret = os.environ.get(SECRET_ENV) or ""
    if not secret and (paths.source / "secret").is_file():
        secret = (paths.source / "secret").read_text(encoding="utf-8").strip()
    return secret


def _submitter(paths, config, outcome):
    """The student whose cases are drawn, from Gradescope's metadata (noted in ``outcome``)."""
    try:
        metadata = json.loads(paths.metadata.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        metadata = {}
    student, note = submitter(metadata, config.get("student_id", "email"))
    if note:
        outcome.notes.append(note)
    if not student:
        outcome.review.append("the submission metadata names no submitter, so this student's "
                              "fresh cases could not be drawn (the default cases were used)")
    return student


def hidden(paths):
    """What the notebook must not read where it runs without namespaces: Gradescope's
    ``/autograder`` (the answer key, the secret, the other files) and the installed armlab
    (its references are the answers)."""
    import armlab

    return [paths.root, pathlib.Path(armlab.__file__).resolve().parent]


def _isolation(paths, outcome, isolate):
    """The sandbox the notebook runs in (:func:`armlab.grading.sandbox.choose`; None: there
    is none, and nothing is graded), said in ``outcome``."""
    from armlab.grading import sandbox

    if isolate is not None:
        return isolate
    isolate, said = sandbox.choose(hidden(paths))
    outcome.sandbox = said
    if isolate is None:
        outcome.review.append(f"no sandbox for the notebook in this container: {said}")
    else:
        outcome.notes.append(f"sandbox: {said}")
    return isolate


def _run_notebook(path, paths, release_nb, student, secret, config, outcome):
    """The census of the notebook at ``path``, then the round's grading of one submission
    (:func:`armlab.grading.worker.grade_one`: nbgrader's ``autograde`` with
    :class:`~armlab.grading.execute.SandboxExecute`, in a course folder of its own): its
    :class:`~armlab.grading.result.Result`, or ``(None, why nothing could run)``."""
    from armlab.grading.census import MAX_NOTEBOOK_BYTES, Problems, inspect_submission
    from armlab.grading.safefiles import NotRegular, copy_regular
    from armlab.grading.worker import grade_one, grading_api

    assignment = config["assignment"]
    notebook = f"{assignment}.ipynb"
    with tempfile.TemporaryDirectory(prefix="armlab-gradescope-") as tmp:
        course = pathlib.Path(tmp)
        who = student or "submitter"          # no submitter: the default cases (no secret)
        work = course / "submitted" / who / assignment / notebook
        work.parent.mkdir(parents=True)
        try:             # no link followed on the way, a regular file only, its size bounded
            copy_regular(paths.submission, path.relative_to(paths.submission), work,
                         MAX_NOTEBOOK_BYTES)
        except NotRegular as exc:                       # changed since it was chosen
            outcome.review.append(f"not a regular file: {exc}")
            return None, str(exc)
        except ValueError:
            return None, f"{path.name} is larger than {MAX_NOTEBOOK_BYTES >> 20} MB"
        problems = Problems()
        runnable = inspect_submission(work, release_nb, student, problems)
        outcome.report(row[1:] for row in problems.sorted())
        if not runnable:
            return None, "; ".join(d for _w, _k, d in problems.sorted()) or "not a notebook"
        (course / "source" / assignment).mkdir(parents=True)
        shutil.copyfile(paths.source / "assignment" / "source" / notebook,
                        course / "source" / assignment / notebook)
        url = "sqlite:///" + str(course / "gradebook.db")
        shutil.copyfile(paths.source / "assignment" / "gradebook.db", course / "gradebook.db")
        api = grading_api(course, url, secret=secret if student else "",
                          cpu=config.get("cpu", 30), memory_mb=config.get("memory_mb", 2048),
                          max_chars=config.get("max_chars", 20_000), isolate=outcome.isolate,
                          submission_seconds=config.get("submission_seconds", 600.0))
        result = grade_one(api, assignment, who, url, feedback=False)
    outcome.report(row for row in result.problems()   # no isolation: said on every test
                   if row[0] != "graded without isolation")
    return result, None


def _tests(result, numbered, isolate):
    """Gradescope's tests, one per test cell of the source, scored as nbgrader scored them."""
    tests = []
    for gid, (number, name, points, visibility) in numbered.items():
        output = _wrap_lines(result.verdicts.get(gid, []))
        if not isolate:
            output += "\n(graded without isolation)"
        tests.append(_test(number, name, result.scores.get(gid, 0), points, output,
                           visibility))
    return tests


def grade_submission(paths, *, secret=None, config=None, isolate=None):
    """Grade the submission under ``paths`` (a :class:`Paths`); returns the results dict
    (Gradescope's results.json). Raises only on a broken autograder (no source)."""
    config = config or json.loads((paths.source / "assignment" / "config.json").read_text())
    assignment = config["assignment"]
    notebook = f"{assignment}.ipynb"
    source_nb, release_nb = (json.loads((paths.source / "assignment" / kind / notebook)
                                        .read_text(encoding="utf-8"))
                             for kind in ("source", "release"))
    outcome = _Outcome(config, assignment)
    secret = _course_secret(paths, secret)
    student = _submitter(paths, config, outcome)
    if not secret:
        outcome.notes.append("no course secret: the default fresh cases were used")
    numbered = _numbered(source_nb)
    max_total = sum(points for *_, points, _v in numbered.values())

    def nothing(output, why):                 # every test at 0: nothing could be graded
        tests = [_test(number, name, 0, points, output, visibility)
                 for number, name, points, visibility in numbered.values()]
        return outcome.results(tests, f"Nothing graded: {why}. Score 0 / {max_total:g}.")
    odd = refused(paths.submission)
    if odd:
        outcome.review += [f"not a regular file: {what}: refused, not followed nor read"
                           for what in odd]
        why = (f"the submission holds what is not a regular file ({'; '.join(odd)}), so "
               "nothing of it was read")
        return nothing(f"Not graded: {why}.", why)
    path, note = choose_notebook(paths.submission, notebook)
    if path is None:
        return nothing(note, note)
    if note:
        outcome.notes.append(note)
    outcome.isolate = _isolation(paths, outcome, isolate)
    if outcome.isolate is None:
        return nothing("Not graded: this container cannot make the sandbox your notebook "
                       "runs in.", "no sandbox")
    result, why = _run_notebook(path, paths, release_nb, student, secret, config, outcome)
    if result is None:
        return nothing(f"Not graded: {why}", why)
    tests = _tests(result, numbered, outcome.isolate)
    total = sum(t["score"] for t in tests)
    how = "in a sandbox" if outcome.isolate else "WITHOUT ISOLATION"
    summary = (f"{assignment}: {total:g} / {max_total:g} points, every check run {how} on "
               f"cases of your own. The hidden checks' results are shown after the due date.")
    return outcome.results(tests, summary)


def run(root="/autograder"):
    """What ``run_autograder`` does: grade, and write results.json whatever happens."""
    paths = Paths(root)
    paths.results.parent.mkdir(parents=True, exist_ok=True)
    try:
        results = grade_submission(paths)
        code = 0
    except Exception:                                        # noqa: BLE001
        traceback.print_exc()                                # Gradescope's stdout: staff only
        results = {"score": 0.0, "stdout_visibility": "hidden",
                   "output": "The autograder failed before it could grade this submission: "
                             "it is held for a human to look at (not a grade).",
                   "tests": [_held(["the autograder failed (its log is in the autograder "
                                    "output, for the course staff)"])],
                   "extra_data": {"armlab": {"status": "review"}}}
        code = 1
    text = json.dumps(results, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    partial = paths.results.with_name("results.json.partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(paths.results)
    print(results["output"])
    for test in results["tests"]:
        print(f"{test['number']:>5} {test['score']:g}/{test['max_score']:g} {test['name']}")
    return code


def check():
    """For setup.sh's log: can this image make the sandbox?"""
    from armlab.grading import sandbox

    isolate, said = sandbox.choose(hidden(Paths(os.environ.get(ROOT_ENV, "/autograder"))))
    print(f"armlab: {said}" if isolate is None else f"armlab: the sandbox works in this "
          f"image: {said}")
    return 0 if isolate is not None else 1


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m armlab.grading.gradescope",
                                     description="A Gradescope autograder for an armlab set.")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write autograder.zip for a set")
    b.add_argument("assignment")
    b.add_argument("--out", default="autograder.zip")
    b.add_argument("--secret", default=os.environ.get(SECRET_ENV),
                   help="the course secret, put in the zip (default: $ARMLAB_GRADING_SECRET)")
    b.add_argument("--no-secret", action="store_true",
                   help="build without a secret: every student gets the default fresh cases")
    b.add_argument("--solutions", help="the source assignments (default solutions/)")
    b.add_argument("--student-id", default="email", choices=("email", "id"),
                   help="which field of users[0] in the submission metadata draws the cases")
    limit_options(b, memory_mb=MEMORY_MB, submission_seconds=SUBMISSION_SECONDS, sandbox=False)
    r = sub.add_parser("run", help="grade the submission (what run_autograder calls)")
    r.add_argument("--root", default=os.environ.get(ROOT_ENV, "/autograder"))
    sub.add_parser("check", help="say whether the sandbox works here")
    args = parser.parse_args(argv)
    if args.command == "run":
        return run(args.root)
    if args.command == "check":
        return check()
    if not args.secret and not args.no_secret:
        print("error: no course secret: pass --secret, set ARMLAB_GRADING_SECRET, or say "
              "--no-secret to give every student the default fresh cases", file=sys.stderr)
        return 2
    try:
        out = build(args.assignment, args.out, secret=None if args.no_secret else args.secret,
                    solutions=args.solutions, student_id=args.student_id, cpu=args.cpu,
                    memory_mb=args.memory_mb, max_chars=args.max_chars,
                    submission_seconds=args.submission_seconds)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB): upload it on the assignment's "
          "Configure Autograder page; it holds the course secret, keep it private"
          if not args.no_secret else f"wrote {out}")
    return 0


if __name__ == "__main__":
    skip_iri_syntax()
    sys.exit(main())
