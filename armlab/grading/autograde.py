"""Grade a class's submissions with one command, in parallel, against hostile notebooks.

``python -m armlab.grading.autograde ASSIGNMENT SUBMISSIONS [--lms canvas] ...``
(``make grade``) writes ``grading/<assignment>/`` (or ``--out``): ``grades.csv``, the
LMS's grade file, ``report.csv``/``report.md``, ``feedback/``, nbgrader's export, the
round's gradebook and ``logs/``. A round is a chain of steps of the :class:`Round`:
:func:`check_inputs`, :func:`stage`, :func:`prepare`, :func:`collect`, :func:`inspect`,
:func:`register`, :func:`grade_all`, :func:`tally`, :func:`write_outputs` and
:func:`publish`, which replaces the previous results only once the round has succeeded.
An input error stops the round with one line and exit status 2. The instructors' page
says what each output holds.
"""

import argparse
import json
import multiprocessing
import os
import pathlib
import re
import shutil
import sys
import time
import warnings
import zipfile
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from armlab.grading import lms as lms_formats
from armlab.grading.census import MAX_NOTEBOOK_BYTES, Problems, inspect_submission
from armlab.grading.gradebook import check_gradebook, drop_assignment, export_csv, record
from armlab.grading.release import (REPO, limit_options, load_config, skip_iri_syntax,
                                    venv_on_path)
from armlab.grading.safefiles import NotRegular, copy_regular, walk
from armlab.grading.sandbox import available
from armlab.grading import worker
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
                 isolate=True, lms_gradebook=None,
                 submission_seconds=600.0):
        self.assignment = assignment
        self.submissions = pathlib.Path(submissions)
        if out is None:
            out = REPO / "grading" / assignment
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
        self.notebook = f"{assignment}.ipynb"
        self.problems = Problems()
        self.started = time.time()
        self.staged = self.out.parent / f".{self.out.name}.partial"
        self.work = self.staged / "work"
        self.master = self.work / "course"
        self.students, self.runnable = [], []
        self.lms_ids, self.names = {}, {}
        self.results = {}
        self.results_dir = self.work / "results"
        self.template = self.work / "gradebook.db"     # each worker grades into a copy
        self.grades, self.issues, self.parts = {}, [], []
        self.source_nb = self.release_nb = None

    def say(self, text, end="\n"):
        if self.progress:
            sys.stdout.write(text + end)
            sys.stdout.flush()

    @property
    def url(self):
        """The round's gradebook: the course's at ``--db-url``, else SQLite in the output."""
        return self.db_url or "sqlite:///" + str(self.staged / "gradebook.db")


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
    if r.db_url:
        _check_db(r.db_url)
    if r.isolate:
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
    """``generate_assignment`` from the solutions into the round's course and gradebook (with
    ``--db-url``, the course's: this assignment's earlier round is removed from it first)."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    from armlab.grading.release import generate

    generate(r.assignment, r.master, r.solutions)
    shutil.copyfile(r.master / "gradebook.db", r.template)
    if r.db_url:
        drop_assignment(r.db_url, r.assignment)
        cfg = load_config(r.master, **{"CourseDirectory.db_url": r.db_url})
        done = NbGraderAPI(coursedir=CourseDirectory(config=cfg), config=cfg) \
            .generate_assignment(r.assignment, force=True, create=True)
        if not done["success"]:
            raise GradingError(f"generate_assignment into {r.db_url} failed: "
                               f"{(done.get('error') or done['log']).strip()[-300:]}")
    else:
        shutil.move(r.master / "gradebook.db", r.staged / "gradebook.db")
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
    for student in sorted(sent):
        _choose(r, student, sent[student])
    r.students = sorted(sent)


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
    """Every student into the round's gradebook; one with nothing to run gets an empty
    submission, which nbgrader scores zero."""
    from nbgrader.api import Gradebook

    with Gradebook(r.url) as gb, \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")       # SQLAlchemy's autoflush notes inside nbgrader
        for student in r.students:
            gb.update_or_create_student(student)
            if student not in r.runnable:
                gb.add_submission(r.assignment, student)


# ================================================================== 7. the pool
def grade_all(r):
    """Grade the runnable students in a pool of ``r.workers`` processes side by side, all in
    the one course folder (each process into a gradebook of its own,
    :func:`armlab.grading.worker.start`); each student's
    :class:`~armlab.grading.result.Result` comes back from the pool into ``r.results`` (and
    ``work/results/<student>.json``). A process's output goes to ``logs/worker<k>.log``. A
    process that stops before returning its student's result was stopped from outside (no
    student code runs in it): the pool is started again and grades the students it had in
    hand from the start (``regraded``); a second stop holds the row (``grading failed``). A
    sandbox's run is never retried (:meth:`armlab.grading.execute.Grading._run`)."""
    (r.staged / "logs").mkdir(exist_ok=True)
    r.results_dir.mkdir(parents=True, exist_ok=True)
    queue, tried, failures = list(r.runnable), set(), 0
    limits = {"cpu": r.cpu, "memory_mb": r.memory_mb, "max_chars": r.max_chars,
              "isolate": r.isolate, "submission_seconds": r.submission_seconds}
    while queue:
        n = max(1, min(r.workers, len(queue)))
        with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=worker.start,
                                 initargs=(r.master, r.assignment, r.template,
                                           r.staged / "logs", r.secret, limits)) as pool:
            busy = {_submit(pool, queue.pop(0)) for _ in range(n)}
            while busy:
                done, _ = wait(busy, return_when=FIRST_COMPLETED)
                for future in done:
                    busy.remove(future)
                    student = future.student
                    try:
                        result = future.result()
                    except Exception:       # noqa: BLE001  (its traceback: in its log)
                        if student not in tried:
                            tried.add(student)
                            r.problems.add(student, "regraded", "the worker grading it "
                                           "stopped before reporting it (see logs/): graded "
                                           "again from the start by a new worker")
                            queue.insert(0, student)
                        continue
                    r.results[student] = result
                    (r.results_dir / f"{student}.json").write_text(result.to_json(),
                                                                   encoding="utf-8")
                    failures += not result.success
                    r.say(f"\r[{len(r.results)}/{len(r.runnable)}] "
                          f"{time.time() - r.started:6.1f} s, failures so far: {failures}  ",
                          end="" if sys.stdout.isatty() else "\n")
                    if queue:
                        try:
                            busy.add(_submit(pool, queue[0]))
                            queue.pop(0)
                        except BrokenProcessPool:       # the next pool grades it
                            pass
    if r.progress and sys.stdout.isatty():
        r.say("")


def _submit(pool, student):
    """``student``'s grading, submitted to ``pool`` (the future knows its student)."""
    future = pool.submit(worker.grade, student)
    future.student = student
    return future


# ================================================================== 8. scores and problems
def tally(r):
    """Each student's problems and scores per part, from their result (zero without one),
    the results written into the round's gradebook (:func:`record`), and the gradebook's
    check against them."""
    from nbgrader.api import Gradebook, MissingEntry

    for student in r.runnable:
        if student not in r.results:
            r.problems.add(student, "grading failed", "the worker grading it stopped twice "
                                                      "(see logs/)")
    for student, result in r.results.items():
        for problem, detail in result.problems():
            r.problems.add(student, problem, detail)
    record(r.url, r.assignment, r.results)
    with Gradebook(r.url) as gb, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for student in r.students:                 # nbgrader failed before it made one
            try:
                gb.find_submission(r.assignment, student)
            except MissingEntry:
                gb.add_submission(r.assignment, student)
    for student in r.students:
        scores = r.results[student].scores if student in r.results else {}
        r.grades[student] = {key: sum(scores.get(c, 0.0) for c in cells)
                             for key, _t, cells, _p in r.parts}
        r.grades[student]["total"] = sum(scores.values(), 0.0)
    r.issues = check_gradebook(r.url, r.assignment, r.students, r.grades, r.parts)


# ================================================================== 9. files
def write_outputs(r):
    """grades.csv, the LMS file, the report, the feedback pages and nbgrader's export."""
    from armlab.grading import outputs   # here: a pool process imports this module first
                                         # (as the command's), and starts without nbformat
    outputs.write_grades(r.staged / "grades.csv", r.parts, r.students, r.grades, r.lms_ids,
                         r.problems)
    pages = {page.parent.parent.name: page for page in
             sorted((r.master / "feedback").glob(f"*/{r.assignment}/*.html"))}
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


# ================================================================== the round
def grade(assignment, submissions, **options):
    """Grade every submission; returns a summary dict (see the module docstring).

    Raises :class:`GradingError` on an input error (nothing written) or when the
    gradebook fails its check (the previous results kept; this round's files in
    ``<out>.failed``).
    """
    venv_on_path()
    r = Round(assignment, submissions, **options)
    check_inputs(r)
    stage(r)
    try:
        prepare(r)
        collect(r)
        inspect(r)
        register(r)
        grade_all(r)
        tally(r)
        write_outputs(r)
        if r.issues:
            failed = r.out.parent / f"{r.out.name}.failed"
            shutil.rmtree(failed, ignore_errors=True)
            r.staged.rename(failed)
            raise GradingError(f"the gradebook failed its check ({'; '.join(r.issues)}); "
                               f"this round's files are in {failed}, the previous results "
                               "are unchanged")
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
            "results": r.results}


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
    limit_options(parser)
    parser.add_argument("--db-url", default=os.environ.get("ARMLAB_GRADEBOOK_URL"),
                        help="SQLAlchemy URL of the course gradebook (default: none, SQLite "
                             "in the output)")
    parser.add_argument("--keep-work", action="store_true",
                        help="keep the round's course folder and the students' results")
    return parser


def main(argv=None):
    options = vars(_parser().parse_args(argv))      # the options are grade()'s keywords
    options["isolate"] = not options.pop("no_sandbox")
    try:
        grade(options.pop("assignment"), options.pop("submissions"), **options)
    except GradingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    skip_iri_syntax()
    sys.exit(main())
