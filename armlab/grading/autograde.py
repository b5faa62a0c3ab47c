"""Grade a class's submissions with one command, in parallel, against hostile notebooks.

``python -m armlab.grading.autograde ASSIGNMENT SUBMISSIONS [--lms canvas] ...``
(``make grade``) writes ``grading/<assignment>/`` (or ``--out``): ``grades.csv``, the
LMS's grade file, ``report.csv``/``report.md``, ``feedback/``, nbgrader's export, the
round's gradebook and ``logs/``. A round is a chain of steps, functions of its settings
(a frozen :class:`Round`) and its data that return what they make: :func:`check_inputs`,
:func:`stage`, :func:`prepare`, :func:`collect`, :func:`inspect`, :func:`grade_all`,
:func:`tally`, :func:`write_outputs` and :func:`publish`, which replaces the previous
results only once the round has succeeded.
An input error stops the round with one line and exit status 2. The instructors' page
says what each output holds.
"""

import argparse
import dataclasses
import json
import multiprocessing
import os
import pathlib
import re
import shutil
import sys
import time
import zipfile
from typing import NamedTuple
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from armlab.grading import lms as lms_formats
from armlab.grading.census import MAX_NOTEBOOK_BYTES, Problems, inspect_submission
from armlab.grading.gradebook import check_gradebook, drop_assignment, export_csv, record
from armlab.grading.release import REPO, limit_options, skip_iri_syntax, venv_on_path
from armlab.grading.safefiles import NotRegular, copy_regular, walk
from armlab.grading.sandbox import available
from armlab.grading import worker
from armlab.grading.worker import SECRET_ENV

MAX_ARCHIVE_BYTES = 4 * 2**30
_IGNORED = re.compile(r"(^|/)(__MACOSX|\.DS_Store|Thumbs\.db|\._[^/]*)(/|$)")


class GradingError(Exception):
    """An input or setup error: one line for the instructor, exit status 2."""


@dataclasses.dataclass(frozen=True)
class Round:
    """A round's settings and folders, made once and never changed: the steps take the
    round's data (the students, their results, the report's :class:`Problems`) as arguments
    and return what they make."""

    assignment: str
    submissions: pathlib.Path
    _: dataclasses.KW_ONLY
    out: pathlib.Path = None
    workers: int = 2
    lms: str = "generic"
    pattern: re.Pattern = None
    cpu: float = 30
    memory_mb: int = 2048
    max_chars: int = 20_000
    db_url: str = None
    solutions: pathlib.Path = None
    secret: str = ""
    progress: bool = True
    keep_work: bool = False
    lms_column: str = None
    isolate: bool = True
    lms_gradebook: str = None
    submission_seconds: float = 600.0
    started: float = dataclasses.field(default_factory=time.time)

    def __post_init__(self):
        def put(name, value):                 # the arguments as the steps read them
            object.__setattr__(self, name, value)
        put("submissions", pathlib.Path(self.submissions))
        put("out", pathlib.Path(self.out or REPO / "grading" / self.assignment).resolve())
        put("solutions", pathlib.Path(self.solutions or REPO / "solutions"))
        put("secret", self.secret or "")
        put("submission_seconds", float(self.submission_seconds))
        try:
            put("pattern", re.compile(self.pattern) if self.pattern else None)
        except re.error as exc:
            raise GradingError(f"--pattern is not a regular expression: {exc}") from None

    notebook = property(lambda self: f"{self.assignment}.ipynb")
    staged = property(lambda self: self.out.parent / f".{self.out.name}.partial")
    work = property(lambda self: self.staged / "work")
    master = property(lambda self: self.work / "course")
    results_dir = property(lambda self: self.work / "results")
    template = property(lambda self: self.work / "gradebook.db")
    """The assignment's gradebook, which each worker copies to grade into."""

    def say(self, text, end="\n"):
        if self.progress:
            sys.stdout.write(text + end)
            sys.stdout.flush()

    @property
    def url(self):
        """The round's gradebook: the course's at ``--db-url``, else SQLite in the output."""
        return self.db_url or "sqlite:///" + str(self.staged / "gradebook.db")


class Roster(NamedTuple):
    """The students of a round (:func:`collect`): their ids, sorted, and by id their LMS
    ids and names as the LMS shows them."""

    students: list
    lms_ids: dict
    names: dict


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
    :class:`GradingError` with one line that says what is wrong. Returns the LMS grade
    file's target (:func:`armlab.grading.lms.grade_target`)."""
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
        target = lms_formats.grade_target(r.lms, r.assignment, gradebook=r.lms_gradebook,
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
    return target


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
    ``--db-url``, the course's: this assignment's earlier round is removed from it first).
    Returns the source and release notebooks, as dicts."""
    from armlab.grading.release import generate, nbgrader_api

    generate(r.assignment, r.master, r.solutions)
    shutil.copyfile(r.master / "gradebook.db", r.template)
    if r.db_url:
        drop_assignment(r.db_url, r.assignment)
        done = nbgrader_api(r.master, **{"CourseDirectory.db_url": r.db_url}) \
            .generate_assignment(r.assignment, force=True, create=True)
        if not done["success"]:
            raise GradingError(f"generate_assignment into {r.db_url} failed: "
                               f"{(done.get('error') or done['log']).strip()[-300:]}")
    else:
        shutil.move(r.master / "gradebook.db", r.staged / "gradebook.db")
    source = r.master / "source" / r.assignment / r.notebook
    release = r.master / "release" / r.assignment / r.notebook
    return (json.loads(source.read_text(encoding="utf-8")),
            json.loads(release.read_text(encoding="utf-8")))


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


def collect(r, problems):
    """Unpack the export, read every file name, and put each student's notebook in
    ``submitted/<student>/<assignment>/``; misnamed, extra, late and missing files
    go to the report's ``problems``. Returns the :class:`Roster`."""
    archive = r.work / "export"
    if r.submissions.is_dir():
        refused = copy_folder(r.submissions, archive, problems)
    else:
        refused = extract(r.submissions, archive, problems)
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
            problems.add("(unknown)", "file name not understood",
                           f"{name}: not named as a {r.lms} export is")
            continue
        sent.setdefault(parsed.student, []).append((parsed, archive / name))
    for name, what in refused:               # never read: the student's row is held
        parsed = _parse(r, name, receipts) or _parse(r, f"{name}/{r.notebook}", receipts)
        problems.add(parsed.student if parsed else "(archive)", REFUSED,
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
        _choose(r, student, sent[student], problems)
    students = sorted(sent)
    return Roster(students, {s: sent[s][0][0].lms_id for s in students},
                  {s: sent[s][0][0].display for s in students})


def _choose(r, student, items, problems):
    """Pick ``student``'s notebook among the files they sent (the latest attempt)."""
    folder = r.master / "submitted" / student / r.assignment
    folder.mkdir(parents=True, exist_ok=True)
    if any(p.late for p, _ in items):
        problems.add(student, "late submission", "the LMS marked the submission late")
    items = [item for item in items if item[1] is not None]    # refused: reported in collect
    notebooks = [(p, path) for p, path in items if p.file.endswith(".ipynb")]
    for p, _ in items:
        if not p.file.endswith(".ipynb"):
            problems.add(student, "extra file", f"{p.file}: not a notebook, ignored")
    ours = [item for item in notebooks
            if item[0].file == r.notebook or (r.lms == "canvas" and lms_formats.canonical_file(
                item[0].file, r.notebook) == r.notebook)]
    if ours:
        chosen = max(ours, key=lambda item: (item[0].attempt,
                                             lms_formats.resubmission(item[0].file)))
        for item in notebooks:
            if item not in ours:
                problems.add(student, "extra file", f"{item[0].file}: not part of the "
                                                      "assignment, ignored")
    elif len(notebooks) == 1:
        chosen = notebooks[0]
        problems.add(student, "wrongly named notebook", f"{chosen[0].file}: graded as "
                                                          f"{r.notebook}")
    elif notebooks:
        problems.add(student, "missing notebook",
                       f"no {r.notebook}, and several other notebooks "
                       f"({', '.join(sorted(p.file for p, _ in notebooks))}): scored 0, "
                       "a human should look")
        return
    else:
        problems.add(student, "missing notebook", f"no {r.notebook} in the submission: "
                                                    "scored 0")
        return
    shutil.copyfile(chosen[1], folder / r.notebook)


# ================================================================== 5. census
def inspect(r, students, release_nb, problems):
    """The census of every submitted notebook before it runs (its rows into ``problems``):
    the students whose notebook can run."""
    runnable = [student for student in students
                if (path := r.master / "submitted" / student / r.assignment / r.notebook)
                .exists() and inspect_submission(path, release_nb, student, problems)]
    r.say(f"{r.assignment}: {len(students)} students, {len(runnable)} notebooks to run, "
          f"{r.workers} worker(s)" + ("" if r.secret else "; no course secret: every student "
                                      "gets the default fresh cases"))
    return runnable


# ================================================================== 6. the pool
def grade_all(r, runnable, problems):
    """Grade the ``runnable`` students in a pool of ``r.workers`` processes side by side, all in
    the one course folder (each process into a gradebook of its own,
    :func:`armlab.grading.worker.start`); each student's
    :class:`~armlab.grading.result.Result` comes back from the pool (and is written to
    ``work/results/<student>.json``); returns them, by student. A process's output goes to ``logs/worker<k>.log``. A
    process that stops before returning its student's result was stopped from outside (no
    student code runs in it): the pool is started again and grades the students it had in
    hand from the start (``regraded``); a second stop holds the row (``grading failed``). A
    sandbox's run is never retried (:meth:`armlab.grading.execute.Grading._run`)."""
    (r.staged / "logs").mkdir(exist_ok=True)
    r.results_dir.mkdir(parents=True, exist_ok=True)
    queue, tried, failures, results = list(runnable), set(), 0, {}
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
                            problems.add(student, "regraded", "the worker grading it "
                                           "stopped before reporting it (see logs/): graded "
                                           "again from the start by a new worker")
                            queue.insert(0, student)
                        continue
                    results[student] = result
                    (r.results_dir / f"{student}.json").write_text(result.to_json(),
                                                                   encoding="utf-8")
                    failures += not result.success
                    r.say(f"\r[{len(results)}/{len(runnable)}] "
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
    return results


def _submit(pool, student):
    """``student``'s grading, submitted to ``pool`` (the future knows its student)."""
    future = pool.submit(worker.grade, student)
    future.student = student
    return future


# ================================================================== 7. scores and problems
def tally(r, students, runnable, results, parts, problems):
    """Each student's problems (into ``problems``) and scores per part, from their result
    (zero without one), the results written into the round's gradebook (:func:`record`),
    and the gradebook's check against them. Returns ``(grades, issues)``: ``{student:
    {part key: points, "total": points}}`` and the check's findings."""
    for student in runnable:
        if student not in results:
            problems.add(student, "grading failed", "the worker grading it stopped twice "
                                                    "(see logs/)")
    for student, result in results.items():
        for problem, detail in result.problems():
            problems.add(student, problem, detail)
    record(r.url, r.assignment, students, results)
    grades = {}
    for student in students:
        scores = results[student].scores if student in results else {}
        grades[student] = {key: sum(scores.get(c, 0.0) for c in cells)
                           for key, _t, cells, _p in parts}
        grades[student]["total"] = sum(scores.values(), 0.0)
    return grades, check_gradebook(r.url, r.assignment, students, grades, parts)


# ================================================================== 8. files
def write_outputs(r, source_nb, parts, roster, grades, problems, issues, lms_target):
    """grades.csv, the LMS file, the report, the feedback pages and nbgrader's export."""
    from armlab.grading import outputs   # here: a pool process imports this module first
                                         # (as the command's), and starts without nbformat
    students = roster.students
    outputs.write_grades(r.staged / "grades.csv", parts, students, grades, roster.lms_ids,
                         problems)
    pages = {page.parent.parent.name: page for page in
             sorted((r.master / "feedback").glob(f"*/{r.assignment}/*.html"))}
    outputs.write_feedback(pages, r.staged, outputs.cell_titles(source_nb, parts), problems)
    outputs.write_lms_file(r.staged, r.lms, r.assignment, parts, students, grades,
                           roster.lms_ids, roster.names, problems, lms_target)
    export_csv(r.url, r.staged / "nbgrader_export.csv", r.master)
    notes = [f"{len(students)} students; format {r.lms}",
             "fresh cases drawn from the course secret" if r.secret
             else "no course secret: every student got the default fresh cases",
             "every notebook ran in a sandbox of its own" if r.isolate
             else "GRADED WITHOUT ISOLATION (--no-sandbox): the notebooks ran as this user"]
    outputs.write_report(r.staged, r.assignment, parts, students, grades, problems, issues,
                         notes)


# ================================================================== the round
def grade(assignment, submissions, **options):
    """Grade every submission; returns a summary dict (see the module docstring).

    Raises :class:`GradingError` on an input error (nothing written) or when the
    gradebook fails its check (the previous results kept; this round's files in
    ``<out>.failed``). The pool's processes are started by ``spawn``, which imports the
    calling script again: a script that calls this does so under
    ``if __name__ == "__main__":``.
    """
    venv_on_path()
    r = Round(assignment, submissions, **options)
    lms_target = check_inputs(r)
    stage(r)
    problems = Problems()
    try:
        source_nb, release_nb = prepare(r)
        parts = parts_of(source_nb)
        roster = collect(r, problems)
        runnable = inspect(r, roster.students, release_nb, problems)
        results = grade_all(r, runnable, problems)
        grades, issues = tally(r, roster.students, runnable, results, parts, problems)
        write_outputs(r, source_nb, parts, roster, grades, problems, issues, lms_target)
        if issues:
            failed = r.out.parent / f"{r.out.name}.failed"
            shutil.rmtree(failed, ignore_errors=True)
            r.staged.rename(failed)
            raise GradingError(f"the gradebook failed its check ({'; '.join(issues)}); "
                               f"this round's files are in {failed}, the previous results "
                               "are unchanged")
    except BaseException:
        discard(r)
        raise
    publish(r)
    elapsed = time.time() - r.started
    r.say(f"{assignment}: graded {len(roster.students)} in {elapsed:.1f} s; "
          f"{len(problems.rows)} problems in report.csv; gradebook OK")
    return {"out": r.out, "students": roster.students, "grades": grades,
            "problems": problems.sorted(), "gradebook_issues": issues,
            "seconds": elapsed, "parts": parts, "lms_ids": roster.lms_ids,
            "results": results}


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
