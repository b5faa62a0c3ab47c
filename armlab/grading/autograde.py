"""Grade a class's submissions with one command, in parallel, against hostile notebooks.

``python -m armlab.grading.autograde ASSIGNMENT SUBMISSIONS [--lms canvas] [--secret S] ...``
(``make grade ASSIGNMENT=statics SUBMISSIONS=export.zip``) takes a zip or a
folder exported by a learning-management system and writes
``grading/<assignment>/`` (or ``--out``):

* ``grades.csv``: one row per student: ``student``, ``lms_id``, one column per
  part, ``total``, ``status`` (``review``: scores held back for a human);
* ``<lms>_grades.csv`` with ``--lms``: the file that LMS imports;
* ``report.csv`` (one row per problem found) and ``report.md`` (scores,
  problems, the gradebook's check);
* ``feedback/<student>.html``: each graded notebook with the failed checks'
  messages, without the hidden tests, readable offline;
* ``nbgrader_export.csv`` and ``gradebook.db``: nbgrader's own export and the
  merged gradebook; ``logs/``: each worker's stderr.

A round is a chain of steps, each a function of the :class:`Round`:
:func:`check_inputs` (everything is checked before anything is written),
:func:`stage` (a fresh folder next to the output), :func:`prepare`
(``generate_assignment``), :func:`collect` (unpack safely, regular files only, read
the LMS's file names, pick each student's notebook), :func:`inspect` (census and static scan),
:func:`register` (students into the gradebook), :func:`run_workers`
(``autograde`` and ``generate_feedback`` in parallel), :func:`read_results`,
:func:`merge`, :func:`tally`, :func:`write_outputs`, and :func:`publish`, which
replaces the previous results only once the round has succeeded. An input
error stops the round with one line and exit status 2, and the previous
results stay as they were.
"""

import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
import warnings
import zipfile

from armlab.grading import lms as lms_formats
from armlab.grading import outputs
from armlab.grading.census import (MAX_NOTEBOOK_BYTES, Problems, failure_reason, inspect_graded,
                                   inspect_submission)
from armlab.grading.gradebook import (check_gradebook, export_csv, merge_gradebooks,
                                      read_scores)
from armlab.grading.release import REPO, load_config, skip_iri_syntax, venv_on_path
from armlab.grading.safefiles import NotRegular, copy_regular, walk
from armlab.grading.sandbox import BASE_UID, available
from armlab.grading.worker import SECRET_ENV

MAX_ARCHIVE_BYTES = 4 * 2**30
_IGNORED = re.compile(r"(^|/)(__MACOSX|\.DS_Store|Thumbs\.db|\._[^/]*)(/|$)")


class GradingError(Exception):
    """An input or setup error: one line for the instructor, exit status 2."""


class Round:
    """Everything the steps of one grading round share."""

    def __init__(self, assignment, submissions, *, out=None, workers=2, lms="generic",
                 pattern=None, cpu=30, memory_mb=2048, max_chars=20_000, db_url=None,
                 solutions=None, secret=None, progress=True, keep_work=False, lms_column=None,
                 shard=None, finalize=False, isolate=True, lms_gradebook=None,
                 submission_seconds=600.0):
        self.assignment = assignment
        self.submissions = pathlib.Path(submissions)
        if out is None:
            out = REPO / "grading" / (f"{assignment}-shard{shard[0]}of{shard[1]}" if shard
                                      else assignment)
        self.out = pathlib.Path(out).resolve()
        self.workers = workers
        self.lms = lms
        try:
            self.pattern = re.compile(pattern) if pattern else None
        except re.error as exc:
            raise GradingError(f"--pattern is not a regular expression: {exc}") from None
        self.cpu, self.memory_mb, self.max_chars = cpu, memory_mb, max_chars
        self.submission_seconds = float(submission_seconds)
        self.isolate = isolate
        self.db_url = db_url
        self.solutions = pathlib.Path(solutions or REPO / "solutions")
        self.secret = secret or ""
        self.progress, self.keep_work, self.lms_column = progress, keep_work, lms_column
        self.lms_gradebook = lms_gradebook
        self.lms_target = None
        self.shard, self.finalize = shard, finalize
        self.db_seconds = {}
        self.notebook = f"{assignment}.ipynb"
        self.problems = Problems()
        self.started = time.time()
        self.staged = self.out.parent / f".{self.out.name}.partial"
        self.work = self.staged / "work"
        self.master = self.work / "course"
        self.students, self.runnable = [], []
        self.lms_ids, self.names = {}, {}
        self.results, self.shards, self.dirs = {}, [], []
        self.grades, self.issues, self.parts = {}, [], []
        self.source_nb = self.release_nb = None

    def say(self, text, end="\n"):
        if self.progress:
            sys.stdout.write(text + end)
            sys.stdout.flush()

    @property
    def url(self):
        return "sqlite:///" + str(self.staged / "gradebook.db")


# ================================================================== 1. inputs
def assignments(solutions):
    """The assignments in ``solutions``: folders holding ``<name>/<name>.ipynb``."""
    solutions = pathlib.Path(solutions)
    if not solutions.is_dir():
        return []
    return sorted(p.name for p in solutions.iterdir()
                  if p.is_dir() and (p / f"{p.name}.ipynb").is_file())


def _member_names(path):
    """Relative, ``/``-separated names of the files in a zip or a folder (a folder's links,
    FIFOs and devices too, unfollowed: :func:`collect` reports them)."""
    if path.is_dir():
        return sorted(name for name, _what in walk(path))
    try:
        with zipfile.ZipFile(path) as zf:
            return sorted(i.filename for i in zf.infolist() if not i.is_dir())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise GradingError(f"{path} is not a readable zip file ({exc})") from None


def check_inputs(r):
    """Check everything the round needs before anything is written; raise
    :class:`GradingError` with one line that says what is wrong."""
    known = assignments(r.solutions)
    if r.assignment not in known:
        raise GradingError(f"unknown assignment {r.assignment!r}: the assignments are "
                           f"{', '.join(known) or '(none)'} (folders of {r.solutions})")
    if r.lms not in lms_formats.FORMATS:
        raise GradingError(f"unknown LMS {r.lms!r}: choose one of "
                           f"{', '.join(lms_formats.FORMATS)}")
    if r.lms_gradebook and not pathlib.Path(r.lms_gradebook).is_file():
        raise GradingError(f"--lms-gradebook {r.lms_gradebook}: no such file")
    try:
        r.lms_target = lms_formats.grade_target(r.lms, r.assignment, gradebook=r.lms_gradebook,
                                                column=r.lms_column)
    except lms_formats.GradebookError as exc:
        raise GradingError(f"the {r.lms} grade file: {exc}") from None
    sub = r.submissions
    if not sub.exists():
        raise GradingError(f"{sub}: no such file or folder")
    if not sub.is_dir() and not zipfile.is_zipfile(sub):
        raise GradingError(f"{sub} is neither a folder nor a zip file")
    names = [n for n in _member_names(sub) if not _IGNORED.search(n)]
    if not names:
        raise GradingError(f"{sub} is empty: no submission to grade")
    if not any(_parse(r, n) for n in names):
        example = lms_formats.FORMATS[r.lms].examples[0]
        raise GradingError(f"no file in {sub} is named as a {r.lms} export is "
                           f"(e.g. {example}); first file: {names[0]}")
    sub_path = sub.resolve()
    if r.out == sub_path or sub_path.is_relative_to(r.out):
        raise GradingError(f"the output folder {r.out} holds the submissions: choose another --out")
    if r.out.exists() and not r.out.is_dir():
        raise GradingError(f"the output {r.out} is a file, not a folder")
    if (r.shard or r.finalize) and not r.db_url:
        raise GradingError(f"{'--shard' if r.shard else '--finalize'} needs --db-url: the shards "
                           "of a round meet in one gradebook")
    if r.shard and not (1 <= r.shard[0] <= r.shard[1]):
        raise GradingError(f"--shard {r.shard[0]}/{r.shard[1]}: K must be between 1 and N")
    if r.db_url:
        _check_db(r.db_url)
    if r.isolate and not r.finalize:
        ok, why = available()
        if not ok:
            raise GradingError(f"no sandbox for the students' code: {why}")


def _check_db(url):
    try:
        import sqlalchemy as sa

        engine = sa.create_engine(url)
        with engine.connect():
            pass
        engine.dispose()
    except Exception as exc:                                    # noqa: BLE001
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise GradingError(f"cannot reach the gradebook at {url}: {first}") from None


def _parse(r, name, receipts=None):
    if r.pattern is not None:
        m = r.pattern.match(name.rsplit("/", 1)[-1])
        if not m:
            return None
        gd = m.groupdict()
        student = lms_formats.safe_student_id(gd.get("student_id", ""))
        if not student or not gd.get("file_id"):
            return None
        return lms_formats.Name(student, gd.get("lms_id") or "", gd["file_id"], False, "",
                                gd["student_id"])
    return lms_formats.parse(name, r.lms, r.notebook, receipts)


# ================================================================== 2. a fresh folder
def stage(r):
    """Create the round's private folder next to the output (any earlier leftover of
    a stopped round is removed first)."""
    if r.staged.exists():
        shutil.rmtree(r.staged)
    r.master.mkdir(parents=True)


def publish(r):
    """Replace the previous results with this round's, in two renames."""
    if not r.keep_work:
        shutil.rmtree(r.work, ignore_errors=True)
    old = r.out.parent / f".{r.out.name}.previous"
    if old.exists():
        shutil.rmtree(old)
    if r.out.exists():
        r.out.rename(old)
    try:
        r.staged.rename(r.out)
    except OSError:
        if old.exists():
            old.rename(r.out)
        raise
    if old.exists():
        shutil.rmtree(old)


def discard(r):
    """Remove this round's folder; the previous results are untouched."""
    shutil.rmtree(r.staged, ignore_errors=True)


# ================================================================== 3. the assignment
def prepare(r):
    """``generate_assignment`` from the solutions into the master course and gradebook."""
    from armlab.grading.release import generate

    generate(r.assignment, r.master, r.solutions)
    source = r.master / "source" / r.assignment / r.notebook
    r.source_nb = json.loads(source.read_text(encoding="utf-8"))
    r.release_nb = json.loads((r.master / "release" / r.assignment / r.notebook)
                              .read_text(encoding="utf-8"))
    r.parts = parts_of(r.source_nb)


def parts_of(source_nb):
    """Graded parts of a source notebook: ``[(key, title, [grade_id, ...], points)]``.

    A part starts at a markdown heading ``## ...`` (key: the cell's grade id);
    its test cells are the graded cells that follow.
    """
    parts, current = [], None
    for cell in source_nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "markdown" and text.lstrip().startswith("## "):
            title = text.lstrip()[3:].splitlines()[0].strip()
            key = meta.get("grade_id") or cell.get("id") or f"part{len(parts) + 1}"
            current = [key, title, [], 0.0]
            parts.append(current)
        elif meta.get("grade"):
            if current is None:
                current = ["part0", "ungrouped", [], 0.0]
                parts.append(current)
            current[2].append(meta["grade_id"])
            current[3] += float(meta.get("points", 0))
    return [tuple(p) for p in parts if p[2]]


# ================================================================== 4. collect
REFUSED = "not a regular file"
"""The report's problem for a link, FIFO or device where a file is expected: never
followed nor read, and the student's row is held for review."""


def _zip_kind(info):
    """What a zip member is when its Unix mode says it is not a regular file (a link, a
    FIFO, a device), else None. Python's zipfile would write a link's target as a file."""
    import stat

    mode = info.external_attr >> 16
    if info.create_system != 3 or not stat.S_IFMT(mode):     # no Unix file type recorded
        return None
    from armlab.grading.safefiles import kind

    return kind(mode)


def extract(archive, dest, problems):
    """Unpack a zip into ``dest``, writing only inside it (by resolved path), skipping
    absolute and ``..`` names and oversized members (each a report row). Returns the
    members that are not regular files (links, FIFOs, devices), unwritten:
    ``[(name, what it is)]``."""
    dest = pathlib.Path(dest).resolve()
    dest.mkdir(parents=True, exist_ok=True)
    total, refused = 0, []
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            if info.is_dir():
                continue
            name = info.filename
            what = _zip_kind(info)
            target = (dest / name).resolve()
            if pathlib.PurePosixPath(name).is_absolute() or re.match(r"^[A-Za-z]:", name) \
                    or not target.is_relative_to(dest):
                problems.add("(archive)", "unsafe path in the archive",
                             f"{name}: outside the archive's folder, not extracted")
                continue
            if what:
                refused.append((name, what))
                continue
            if info.file_size > MAX_NOTEBOOK_BYTES or total + info.file_size > MAX_ARCHIVE_BYTES:
                problems.add("(archive)", "file too large",
                             f"{name}: {info.file_size >> 20} MB, not extracted")
                continue
            total += info.file_size
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, open(target, "wb") as out:
                shutil.copyfileobj(src, out)
    return refused


def copy_folder(folder, dest, problems):
    """Copy a folder's regular files into ``dest`` (without ``__MACOSX`` and ``.DS_Store``),
    each opened with no link followed (:func:`armlab.grading.safefiles.open_regular`),
    oversized ones skipped (a report row each). Returns what is not a regular file (links,
    linked folders, FIFOs, devices), unread: ``[(name, what it is)]``."""
    dest = pathlib.Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    total, refused = 0, []
    for name, what in walk(folder):
        if re.search(r"(^|/)(__MACOSX|\.DS_Store)(/|$)", name):
            continue
        if what:
            refused.append((name, what))
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            total += copy_regular(folder, name, target,
                                  min(MAX_NOTEBOOK_BYTES, MAX_ARCHIVE_BYTES - total))
        except NotRegular as exc:                     # changed since the folder was listed
            refused.append((name, exc.what))
        except ValueError:
            problems.add("(archive)", "file too large", f"{name}: over "
                         f"{MAX_NOTEBOOK_BYTES >> 20} MB, or the folder over "
                         f"{MAX_ARCHIVE_BYTES >> 30} GB: not copied")
    return refused


def collect(r):
    """Unpack the export, read every file name, and put each student's notebook in
    ``submitted/<student>/<assignment>/``; misnamed, extra, late and missing files
    go to the report."""
    archive = r.work / "export"
    if r.submissions.is_dir():
        refused = copy_folder(r.submissions, archive, r.problems)
    else:
        refused = extract(r.submissions, archive, r.problems)
    files = sorted(p.relative_to(archive).as_posix() for p in archive.rglob("*")
                   if p.is_file() and not _IGNORED.search(p.relative_to(archive).as_posix()))
    receipts = {}
    if r.lms == "blackboard":
        for name in files:
            if name.endswith(".txt"):
                user = lms_formats.blackboard_receipt(
                    (archive / name).read_text(encoding="utf-8", errors="replace"))
                if user:
                    receipts[name.rsplit("/", 1)[-1][:-4]] = user
        receipts.update(lms_formats.blackboard_usernames(files, receipts))
    sent = {}
    for name in files:
        if name.rsplit("/", 1)[-1][:-4] in receipts and name.endswith(".txt"):
            continue
        parsed = _parse(r, name, receipts)
        if parsed is None:
            r.problems.add("(unknown)", "file name not understood",
                           f"{name}: not named as a {r.lms} export is")
            continue
        sent.setdefault(parsed.student, []).append((parsed, archive / name))
    for name, what in refused:               # never read: the student's row is held
        parsed = _parse(r, name, receipts) or _parse(r, f"{name}/{r.notebook}", receipts)
        r.problems.add(parsed.student if parsed else "(archive)", REFUSED,
                       f"{name} is {what}: refused, not followed nor read")
        if parsed:
            sent.setdefault(parsed.student, []).append((parsed, None))
    # one login, two LMS ids (two students with one name): tell them apart by the id
    for student in sorted(sent):
        ids = sorted({p.lms_id for p, _ in sent[student]})
        if len(ids) > 1:
            for parsed, path in sent.pop(student):
                sent.setdefault(f"{student}-{parsed.lms_id}", []).append((parsed, path))
    if r.shard:
        k, n = r.shard
        sent = {s: items for s, items in sent.items() if shard_of(s, n) == k}
    for student in sorted(sent):
        _choose(r, student, sent[student])
    r.students = sorted(sent)


def shard_of(student, n):
    """Which of ``n`` shards (1 to n) grades ``student``: a stable split by the id."""
    import hashlib

    return int.from_bytes(hashlib.sha256(student.encode()).digest()[:8], "big") % n + 1


def _choose(r, student, items):
    """Pick ``student``'s notebook among the files they sent (the latest attempt)."""
    folder = r.master / "submitted" / student / r.assignment
    folder.mkdir(parents=True, exist_ok=True)
    r.lms_ids[student] = items[0][0].lms_id
    r.names[student] = items[0][0].display
    if any(p.late for p, _ in items):
        r.problems.add(student, "late submission", "the LMS marked the submission late")
    items = [item for item in items if item[1] is not None]    # refused: reported in collect
    notebooks = [(p, path) for p, path in items if p.file.endswith(".ipynb")]
    for p, _ in items:
        if not p.file.endswith(".ipynb"):
            r.problems.add(student, "extra file", f"{p.file}: not a notebook, ignored")
    ours = [item for item in notebooks
            if item[0].file == r.notebook or (r.lms == "canvas" and lms_formats.canonical_file(
                item[0].file, r.notebook) == r.notebook)]
    if ours:
        chosen = max(ours, key=lambda item: (item[0].attempt,
                                             lms_formats.resubmission(item[0].file)))
        for item in notebooks:
            if item not in ours:
                r.problems.add(student, "extra file", f"{item[0].file}: not part of the "
                                                      "assignment, ignored")
    elif len(notebooks) == 1:
        chosen = notebooks[0]
        r.problems.add(student, "wrongly named notebook", f"{chosen[0].file}: graded as "
                                                          f"{r.notebook}")
    elif notebooks:
        r.problems.add(student, "missing notebook",
                       f"no {r.notebook}, and several other notebooks "
                       f"({', '.join(sorted(p.file for p, _ in notebooks))}): scored 0, "
                       "a human should look")
        return
    else:
        r.problems.add(student, "missing notebook", f"no {r.notebook} in the submission: "
                                                    "scored 0")
        return
    shutil.copyfile(chosen[1], folder / r.notebook)


# ================================================================== 5. census
def inspect(r):
    """The census of every submitted notebook before it runs."""
    for student in r.students:
        path = r.master / "submitted" / student / r.assignment / r.notebook
        if path.exists() and inspect_submission(path, r.release_nb, student, r.problems):
            r.runnable.append(student)
    r.say(f"{r.assignment}: {len(r.students)} students, {len(r.runnable)} notebooks to run, "
          f"{r.workers} worker(s)" + ("" if r.secret else "; no course secret: every student "
                                      "gets the default fresh cases"))


# ================================================================== 6. the gradebook's students
def register(r):
    """Every student into the master gradebook; one with nothing to run gets an empty
    submission, which nbgrader scores zero."""
    from nbgrader.api import Gradebook

    with Gradebook(load_config(r.master).CourseDirectory.db_url) as gb, \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")       # SQLAlchemy's autoflush notes inside nbgrader
        for student in r.students:
            gb.update_or_create_student(student)
            if student not in r.runnable:
                gb.add_submission(r.assignment, student)


# ================================================================== 7. the workers
def run_workers(r, students=None):
    """Split the runnable students into shares, one worker process each (its own course
    copy and gradebook, its own sandbox user), and follow their progress; each worker's
    stderr goes to ``logs/worker<k>.log``. A worker that stops before reporting every
    student of its share is run once more for the rest (:func:`retry_workers`)."""
    students = r.runnable if students is None else students
    workers = max(1, min(r.workers, len(students) or 1))
    first = len(r.dirs)
    shards = [students[k::workers] for k in range(workers)]
    r.shards += shards
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("JUPYTER_CONFIG_DIR", None)
    env.pop(SECRET_ENV, None)
    if r.secret:
        env[SECRET_ENV] = r.secret
    logs = r.staged / "logs"
    logs.mkdir(exist_ok=True)
    procs = [_start_worker(r, k, shard, logs, env) for k, shard in enumerate(shards, start=first)]
    _follow_workers(r, [p for p in procs if p is not None])
    if r.progress and sys.stdout.isatty():
        r.say("")


def _start_worker(r, k, shard, logs, env):
    """Worker ``k``'s course copy with its share's submissions, and its process (None for
    an empty share)."""
    wdir = r.work / f"worker{k}"
    wdir.mkdir()
    shutil.copytree(r.master / "source", wdir / "source")
    shutil.copy(r.master / "gradebook.db", wdir / "gradebook.db")
    for student in shard:
        shutil.copytree(r.master / "submitted" / student, wdir / "submitted" / student)
    r.dirs.append(wdir)
    if not shard:
        return None
    with open(logs / f"worker{k}.log", "w") as err:
        return subprocess.Popen(
            [sys.executable, "-m", "armlab.grading.worker", str(wdir), r.assignment, *shard,
             "--cpu", str(r.cpu), "--memory-mb", str(r.memory_mb), "--max-chars",
             str(r.max_chars), "--uid", str(BASE_UID + k),
             "--submission-seconds", str(r.submission_seconds)]
            + ([] if r.isolate else ["--no-sandbox"]),
            stdout=subprocess.PIPE, stderr=err, cwd=str(wdir), env=env, text=True)


def _follow_workers(r, procs):
    """Read each worker's line per student into ``r.results`` until all have ended, with
    the progress line."""
    import selectors

    sel = selectors.DefaultSelector()
    for p in procs:
        sel.register(p.stdout, selectors.EVENT_READ)
    failures, open_streams = 0, len(procs)
    while open_streams:
        for key, _ in sel.select(timeout=1.0):
            line = key.fileobj.readline()
            if not line:
                sel.unregister(key.fileobj)
                open_streams -= 1
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            r.results[msg["student"]] = msg
            failures += not msg["success"]
            r.say(f"\r[{len(r.results)}/{len(r.runnable)}] {time.time() - r.started:6.1f} s, "
                  f"failures so far: {failures}  ", end="" if sys.stdout.isatty() else "\n")
    for p in procs:
        p.wait()


def retry_workers(r):
    """Grade once more the students whose worker stopped before reporting them, and say so
    in the report (``regraded``).

    This is the one retry of the round: a worker is the grader's own process, and one
    that stops was stopped from outside (a kill, the machine); no student's code runs in
    it (a notebook runs in sandboxes, and the armlab calls it asks for in processes of
    their own, :mod:`armlab.grading.serving`). A sandbox's run that ends early is the
    notebook's doing and is never run again (:meth:`armlab.grading.execute.Grading._run`).
    The new worker grades the student from the start, in a new uid; a student whose
    second worker stops too is held (``grading failed``)."""
    from nbgrader.api import Gradebook, MissingEntry

    missing = [s for s in r.runnable if s not in r.results]
    if not missing:
        return
    r.say(f"{len(missing)} student(s) without a result: grading them once more")
    for student in missing:
        r.problems.add(student, "regraded", "the worker grading it stopped before reporting "
                                            "it (see logs/): graded again from the start by "
                                            "a new worker")
    for student in missing:               # what the stopped worker left of them goes
        with Gradebook("sqlite:///" + str(_worker_dir(r, student) / "gradebook.db")) as gb, \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                gb.remove_submission(r.assignment, student)
            except MissingEntry:
                pass
    run_workers(r, missing)


# ================================================================== 8. per student
def read_results(r):
    """What each worker said about each student, and what the graded notebook shows."""
    for student in r.runnable:
        msg = r.results.get(student)
        if msg is None:
            r.problems.add(student, "grading failed", "the worker grading it stopped twice "
                                                      "(see logs/)")
            continue
        if not msg["success"]:
            kind, detail = failure_reason(msg["log"])
            r.problems.add(student, kind, detail)
        graded = _worker_dir(r, student) / "autograded" / student / r.assignment / r.notebook
        if graded.exists():
            try:
                inspect_graded(graded, student, r.problems)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                r.problems.add(student, "grading failed", f"graded notebook unreadable: {exc}")
        elif msg["success"]:
            r.problems.add(student, "grading failed", "no graded notebook")


def _worker_dir(r, student):
    """The folder of the last worker that graded ``student``."""
    holders = [d for d, s in zip(r.dirs, r.shards) if student in s]
    return holders[-1]


# ================================================================== 9. one gradebook
def merge(r):
    """The master's gradebook plus every worker's, in the round's own SQLite file."""
    from nbgrader.api import Gradebook, MissingEntry

    shutil.copy(r.master / "gradebook.db", r.staged / "gradebook.db")
    merge_gradebooks(r.url, [d / "gradebook.db" for d, s in zip(r.dirs, r.shards) if s],
                     r.assignment, replace=False)
    with Gradebook(r.url) as gb, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for student in r.students:                 # a worker that died left no submission
            try:
                gb.find_submission(r.assignment, student)
            except MissingEntry:
                gb.add_submission(r.assignment, student)


# ================================================================== 10. scores
def tally(r):
    """Scores per part from the merged gradebook, and its integrity check."""
    r.grades = read_scores(r.url, r.assignment, r.students, r.parts, r.problems)
    r.issues = check_gradebook(r.url, r.assignment, r.students, r.grades, r.parts)


# ================================================================== 11. files
def write_outputs(r):
    """grades.csv, the LMS file, the report, the feedback pages and nbgrader's export."""
    outputs.write_grades(r.staged / "grades.csv", r.parts, r.students, r.grades, r.lms_ids,
                         r.problems)
    pages = {}
    for wdir in r.dirs:
        for page in sorted((wdir / "feedback").glob(f"*/{r.assignment}/*.html")):
            if _worker_dir(r, page.parent.parent.name) == wdir:
                pages[page.parent.parent.name] = page
    outputs.write_feedback(pages, r.staged, outputs.cell_titles(r.source_nb, r.parts),
                           r.problems)
    outputs.write_lms_file(r.staged, r.lms, r.assignment, r.parts, r.students, r.grades,
                           r.lms_ids, r.names, r.problems, r.lms_target)
    export_csv(r.url, r.staged / "nbgrader_export.csv", r.master)
    notes = [f"{len(r.students)} students; format {r.lms}",
             "fresh cases drawn from the course secret" if r.secret
             else "no course secret: every student got the default fresh cases",
             "every notebook ran in a sandbox of its own" if r.isolate
             else "GRADED WITHOUT ISOLATION (--no-sandbox): the notebooks ran as this user"]
    outputs.write_report(r.staged, r.assignment, r.parts, r.students, r.grades, r.problems,
                         r.issues, notes)


def to_course_gradebook(r):
    """With ``--db-url``: this round's students into the course's gradebook, checked.

    A whole round replaces the assignment's earlier rows; a shard replaces only its
    own students' (other assignments and students are kept either way).
    """
    from armlab.grading.gradebook import sync_round

    pages = {s: (r.staged / "feedback" / f"{s}.html").read_text(encoding="utf-8")
             for s in r.students if (r.staged / "feedback" / f"{s}.html").exists()}
    info = {s: (r.lms_ids.get(s, ""), r.names.get(s, s)) for s in r.students}
    r.db_seconds = sync_round(r.db_url, r.staged / "gradebook.db", r.assignment, r.students,
                              info, r.problems, pages, fresh=r.shard is None)
    (r.staged / "logs").mkdir(exist_ok=True)
    with open(r.staged / "logs" / "database.log", "w") as fh:
        for student, seconds in sorted(r.db_seconds.items()):
            fh.write(f"{student} {seconds:.6f}\n")
    issues = check_gradebook(r.db_url, r.assignment, r.students, r.grades, r.parts)
    if issues:
        raise GradingError(f"the course gradebook at {r.db_url} failed its check after the "
                           f"merge: {'; '.join(issues)}")


def from_course_gradebook(r):
    """The final step of a sharded round: every output from the course gradebook.

    Every student of the export must have been graded by some shard."""
    from armlab.grading.gradebook import read_round

    students, info, rows, pages = read_round(r.db_url, r.assignment)
    missing = sorted(set(r.students) - set(students))
    if missing:
        raise GradingError(f"{len(missing)} student(s) of the export have no grades in the "
                           f"gradebook yet ({', '.join(missing[:5])}"
                           f"{', ...' if len(missing) > 5 else ''}): run their shard(s) first")
    r.problems = Problems()
    for row in rows:
        r.problems.add(*row)
    r.students = students
    r.lms_ids = {s: info[s][0] for s in students}
    r.names = {s: info[s][1] for s in students}
    r.grades = read_scores(r.db_url, r.assignment, students, r.parts, r.problems)
    r.issues = check_gradebook(r.db_url, r.assignment, students, r.grades, r.parts)
    outputs.write_grades(r.staged / "grades.csv", r.parts, students, r.grades, r.lms_ids,
                         r.problems)
    folder = r.staged / "feedback"
    folder.mkdir()
    for student, page in sorted(pages.items()):
        (folder / f"{student}.html").write_text(page, encoding="utf-8")
    mathjax = outputs.local_mathjax()
    if mathjax is not None:
        outputs.copy_mathjax(folder, mathjax)
    outputs.write_lms_file(r.staged, r.lms, r.assignment, r.parts, students, r.grades,
                           r.lms_ids, r.names, r.problems, r.lms_target)
    export_csv(r.db_url, r.staged / "nbgrader_export.csv", r.master)
    outputs.write_report(r.staged, r.assignment, r.parts, students, r.grades, r.problems,
                         r.issues, [f"{len(students)} students, from the gradebook at "
                                    f"{_redacted(r.db_url)}; format {r.lms}"])
    if r.issues:
        raise GradingError(f"the course gradebook failed its check ({'; '.join(r.issues)})")


def _redacted(url):
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


# ================================================================== the round
def grade(assignment, submissions, **options):
    """Grade every submission; returns a summary dict (see the module docstring).

    Raises :class:`GradingError` on an input error (nothing written) or when the
    merged gradebook fails its check (the previous results kept; this round's
    files in ``<out>.failed``).
    """
    venv_on_path()
    r = Round(assignment, submissions, **options)
    check_inputs(r)
    stage(r)
    if r.finalize:
        try:
            r.source_nb = json.loads((r.solutions / r.assignment / r.notebook).read_text())
            r.parts = parts_of(r.source_nb)
            collect(r)
            from_course_gradebook(r)
        except BaseException:
            discard(r)
            raise
        publish(r)
        return {"out": r.out, "students": r.students, "grades": r.grades,
                "problems": r.problems.sorted(), "gradebook_issues": r.issues,
                "parts": r.parts, "lms_ids": r.lms_ids}
    try:
        prepare(r)
        collect(r)
        inspect(r)
        register(r)
        run_workers(r)
        retry_workers(r)
        read_results(r)
        merge(r)
        tally(r)
        write_outputs(r)
        if r.issues:
            failed = r.out.parent / f"{r.out.name}.failed"
            shutil.rmtree(failed, ignore_errors=True)
            r.staged.rename(failed)
            raise GradingError(f"the merged gradebook failed its check ({'; '.join(r.issues)}); "
                               f"this round's files are in {failed}, the previous results "
                               "are unchanged")
        if r.db_url:
            to_course_gradebook(r)
    except BaseException:
        discard(r)
        raise
    publish(r)
    elapsed = time.time() - r.started
    r.say(f"{assignment}: graded {len(r.students)} in {elapsed:.1f} s; "
          f"{len(r.problems.rows)} problems in report.csv; gradebook OK")
    return {"out": r.out, "students": r.students, "grades": r.grades,
            "problems": r.problems.sorted(), "gradebook_issues": r.issues,
            "seconds": elapsed, "parts": r.parts, "lms_ids": r.lms_ids,
            "db_seconds": r.db_seconds}


def _parser():
    """The command line of ``python -m armlab.grading.autograde``."""
    parser = argparse.ArgumentParser(
        prog="python -m armlab.grading.autograde",
        description="Grade an LMS export of an armlab assignment with nbgrader.")
    parser.add_argument("assignment")
    parser.add_argument("submissions", help="the LMS's export: a zip or a folder")
    parser.add_argument("--lms", default="generic", choices=sorted(lms_formats.FORMATS),
                        help="how the export names files, and which grade file to write")
    parser.add_argument("--lms-column", help="the grade column's header in the LMS file, with "
                                             "its id (Canvas: 'Statics (12345)'; Blackboard: "
                                             "'Statics [Total Pts: 30 Score] |123456'), or the "
                                             "column of --lms-gradebook to use")
    parser.add_argument("--lms-gradebook", help="the LMS's own gradebook export (Canvas: "
                                                "Export Entire Gradebook; Moodle: the grading "
                                                "worksheet; Blackboard: Work Offline > "
                                                "Download), from which the grade column and "
                                                "the students' rows are taken")
    parser.add_argument("--pattern", help="a regex on file names with the groups student_id, "
                                          "file_id (and lms_id), instead of --lms")
    parser.add_argument("--secret", default=os.environ.get(SECRET_ENV),
                        help="the course secret for the fresh cases "
                             "(default: $ARMLAB_GRADING_SECRET)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="output folder (default grading/<assignment>)")
    parser.add_argument("--solutions", help="the source assignments (default solutions/)")
    parser.add_argument("--cpu", type=float, default=30,
                        help="CPU seconds of one cell or one check of a notebook")
    parser.add_argument("--memory-mb", type=int, default=2048,
                        help="address-space cap of the sandbox's processes [MiB]")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="grade without isolation (where bubblewrap cannot run); every "
                             "row and page says so")
    parser.add_argument("--max-chars", type=int, default=20_000, help="output kept per cell")
    parser.add_argument("--submission-seconds", type=float, default=600,
                        help="wall-clock seconds of all the runs of one notebook together; "
                             "past them it is stopped and held for review")
    parser.add_argument("--db-url", default=os.environ.get("ARMLAB_GRADEBOOK_URL"),
                        help="SQLAlchemy URL of the course gradebook (default: none, SQLite "
                             "in the output)")
    parser.add_argument("--keep-work", action="store_true", help="keep the workers' course copies")
    parser.add_argument("--shard", help="K/N: grade only the K-th of N shares of the export "
                                        "(into --db-url), so N machines share a round")
    parser.add_argument("--finalize", action="store_true",
                        help="write grades, reports and feedback from --db-url once every "
                             "shard is done")
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    shard = None
    if args.shard:
        m = re.fullmatch(r"(\d+)/(\d+)", args.shard)
        if not m:
            print(f"error: --shard {args.shard}: expected K/N, e.g. 1/2", file=sys.stderr)
            return 2
        shard = (int(m[1]), int(m[2]))
    try:
        grade(args.assignment, args.submissions, out=args.out, workers=args.workers,
              lms=args.lms, pattern=args.pattern, cpu=args.cpu, isolate=not args.no_sandbox,
              memory_mb=args.memory_mb, max_chars=args.max_chars, db_url=args.db_url,
              submission_seconds=args.submission_seconds,
              solutions=args.solutions, secret=args.secret, keep_work=args.keep_work,
              lms_column=args.lms_column, lms_gradebook=args.lms_gradebook, shard=shard,
              finalize=args.finalize)
    except GradingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    skip_iri_syntax()
    sys.exit(main())
