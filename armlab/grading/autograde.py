"""Grade a class's submissions with one command, in parallel, against hostile notebooks.

``python -m armlab.grading.autograde ASSIGNMENT SUBMISSIONS [--workers N] ...``
(``make grade ASSIGNMENT=statics SUBMISSIONS=export.zip``) takes a zip or a
folder exported by a learning-management system, files named
``<login>_<id>_<submission>_<notebook>.ipynb`` by default (``--pattern``, a
regular expression with ``student_id`` and ``file_id`` groups), and writes
``grading/<assignment>/``:

* ``grades.csv``: one row per student, the score of every part and the total;
* ``report.csv``: one row per problem found (student, problem, detail), and
  ``report.md``, the same with the scores, to read;
* ``feedback/<student>.html``: each student's graded notebook, with the failed
  checks' messages and without the hidden tests' source;
* ``nbgrader_export.csv``: nbgrader's own export of the gradebook;
* ``gradebook.db``: the merged gradebook (or the database at ``--db-url``).

Every step is nbgrader's: ``zip_collect`` collects (with a collector plugin
that reads the LMS file names), the students are added to the gradebook,
``autograde`` runs each submission, ``generate_feedback`` writes the HTML,
``export`` the CSV. Around them this module adds what nbgrader lacks:

* a census and a static scan of every submission before it runs (missing or
  misnamed notebooks, JSON that does not parse, duplicated cell ids, edited,
  deleted, retyped or duplicated read-only cells, and suspected tampering, see
  :mod:`armlab.grading.scan`);
* limits on the student's kernel: a per-cell timeout (the cell is interrupted
  and the rest still runs), an address-space cap (:mod:`armlab.grading.kernel`),
  bounded outputs and widget views (:mod:`armlab.grading.preprocessors`);
* ``--workers N`` processes, each grading its share of the students in its own
  copy of the course (its own SQLite gradebook), merged into one gradebook at
  the end and checked (``PRAGMA integrity_check``, scores against the CSV);
* a progress line, and output files that are the same on every run.
"""

import argparse
import csv
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
import zipfile

from armlab.grading import messages
from armlab.grading.cases import student_key
from armlab.grading.release import REPO, load_config, venv_on_path

SECRET_ENV = "ARMLAB_GRADING_SECRET"
DEFAULT_PATTERN = r"^(?P<student_id>.+?)_(?P<lms_id>\d+)_(?P<submission>\d+)_(?P<file_id>.+)$"
# what a student id may look like once read from a file name (it becomes a folder name)
SAFE_ID = re.compile(r"^[A-Za-z0-9@+-][A-Za-z0-9._@+-]{0,99}$")


# ================================================================== helpers
def _parts(source_nb):
    """Graded parts of a source notebook: ``[(part, title, [grade_id, ...], points)]``.

    A part starts at a markdown heading ``## ...``; its test cells are the
    graded cells that follow.
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


def _source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _fmt_score(x):
    return f"{x:g}"


class Problems:
    """The report's rows, kept sorted and unique."""

    def __init__(self):
        self.rows = set()

    def add(self, student, problem, detail=""):
        self.rows.add((student, problem, detail))

    def for_student(self, student):
        return sorted(r for r in self.rows if r[0] == student)

    def sorted(self):
        return sorted(self.rows)


# ================================================================== collect
def lms_collector_class(pattern):
    """An nbgrader ``FileNameCollectorPlugin`` reading LMS file names by ``pattern``."""
    from nbgrader.plugins import FileNameCollectorPlugin

    regex = re.compile(pattern)

    class LmsFileNameCollector(FileNameCollectorPlugin):
        def collect(self, submitted_file):
            name = os.path.basename(submitted_file)
            if not name.endswith(".ipynb"):
                return None
            m = regex.match(name)
            if not m or not SAFE_ID.match(m["student_id"]) or "/" in m["file_id"]:
                return None
            gd = m.groupdict()
            return {"student_id": gd["student_id"], "file_id": gd["file_id"], "timestamp": None}

    return LmsFileNameCollector


def _safe_extract(archive, dest):
    """Extract a zip refusing absolute paths and ``..``; returns the member names."""
    names = []
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            target = pathlib.Path(dest, info.filename).resolve()
            if not str(target).startswith(str(pathlib.Path(dest).resolve())):
                continue
            if info.is_dir():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, open(target, "wb") as out:
                shutil.copyfileobj(src, out)
            names.append(info.filename)
    return names


def collect(assignment, submissions, course, cfg, pattern, problems, lms_ids=None):
    """Put the export through ``nbgrader zip_collect`` into ``course/submitted``.

    Returns the sorted list of student ids. Files that do not follow the
    pattern, extra files, misnamed and missing notebooks go to the report.
    """
    from nbgrader.apps import ZipCollectApp
    from traitlets.config import Config

    submissions = pathlib.Path(submissions)
    archive = course / "downloaded" / assignment / "archive"
    archive.mkdir(parents=True, exist_ok=True)
    if submissions.is_dir():
        for path in sorted(submissions.rglob("*")):
            if path.is_file():
                dest = archive / path.relative_to(submissions)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, dest)
    elif zipfile.is_zipfile(submissions):
        # unpack here (safely), so zip_collect sees plain files
        _safe_extract(submissions, archive)
    else:
        raise SystemExit(f"{submissions}: neither a folder nor a zip file")

    extra = Config()
    extra.ZipCollectApp.force = True
    extra.ExtractorPlugin.force = True
    extra.ZipCollectApp.collector_plugin = lms_collector_class(pattern)
    cfg = cfg.copy()
    cfg.merge(extra)
    from nbgrader.coursedir import CourseDirectory

    app = ZipCollectApp(config=cfg)
    app.coursedir = CourseDirectory(config=cfg)
    app.coursedir.assignment_id = assignment
    app.log.setLevel("ERROR")
    app.start()

    # census of what each student sent
    regex = re.compile(pattern)
    sent = {}
    for path in sorted((course / "downloaded" / assignment / "extracted").rglob("*")):
        if not path.is_file():
            continue
        m = regex.match(path.name)
        if not m or not SAFE_ID.match(m["student_id"]):
            problems.add("(unknown)", "file name not understood",
                         f"{path.name}: does not match the pattern {pattern}"
                         + ("" if not m else " with a usable student id"))
            continue
        sent.setdefault(m["student_id"], []).append(m["file_id"])
        if lms_ids is not None and m.groupdict().get("lms_id"):
            lms_ids.setdefault(m["student_id"], m["lms_id"])
    expected = f"{assignment}.ipynb"
    students = sorted(sent)
    for student in students:
        folder = course / "submitted" / student / assignment
        folder.mkdir(parents=True, exist_ok=True)
        files = sorted(set(sent[student]))
        notebooks = [f for f in files if f.endswith(".ipynb")]
        for f in files:
            if not f.endswith(".ipynb"):
                problems.add(student, "extra file", f"{f}: not a notebook, ignored")
        if expected in notebooks:
            for f in notebooks:
                if f != expected:
                    problems.add(student, "extra file", f"{f}: not part of the assignment, ignored")
                    (folder / f).unlink(missing_ok=True)
        elif len(notebooks) == 1:
            problems.add(student, "wrongly named notebook",
                         f"{notebooks[0]}: graded as {expected}")
            (folder / notebooks[0]).rename(folder / expected)
        elif notebooks:
            problems.add(student, "missing notebook",
                         f"no {expected}, and several other notebooks ({', '.join(notebooks)}): "
                         "scored 0, a human should look")
            for f in notebooks:
                (folder / f).unlink(missing_ok=True)
        else:
            problems.add(student, "missing notebook", f"no {expected} in the submission: scored 0")
    return students


# ================================================================== census of one notebook
MAX_NOTEBOOK_BYTES = 100 * 2**20


def inspect_submission(path, release_nb, student, problems):
    """Check one submitted notebook before it runs; repair what nbgrader would choke on.

    Returns False when the notebook cannot be graded (it is then removed, and
    nbgrader scores it zero). Whatever is in the file, this never raises: one
    strange notebook must not stop the batch.
    """
    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        problems.add(student, "invalid notebook",
                     f"{path.name} is larger than {MAX_NOTEBOOK_BYTES >> 20} MB: scored 0")
        path.unlink()
        return False
    found = Problems()
    try:
        ok = _inspect(path, release_nb, student, found)
    except Exception as exc:                                  # noqa: BLE001
        problems.add(student, "invalid notebook",
                     f"{path.name} has a structure nbgrader cannot read "
                     f"({type(exc).__name__}: {str(exc)[:100]}): scored 0")
        path.unlink(missing_ok=True)
        return False
    problems.rows |= found.rows
    return ok


def _inspect(path, release_nb, student, problems):
    import nbformat

    from armlab.grading.scan import scan_cells

    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict) or not isinstance(raw.get("cells"), list):
            raise ValueError("no list of cells")
        nb = nbformat.from_dict(raw)
        if nb.get("nbformat") != 4:
            raise ValueError(f"nbformat {nb.get('nbformat')}, expected 4")
        for cell in nb.cells:
            if cell.get("cell_type") not in ("code", "markdown", "raw"):
                raise ValueError(f"a cell of type {cell.get('cell_type')!r}")
    except (UnicodeDecodeError, ValueError, TypeError, AttributeError) as exc:
        problems.add(student, "invalid notebook",
                     f"{path.name} is not a readable notebook ({str(exc)[:120]}): scored 0")
        path.unlink()
        return False

    # outputs the student saved are dropped (nbgrader clears them anyway)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None

    # nbformat cell ids: make them unique
    seen = {}
    for k, cell in enumerate(nb.cells):
        cid = cell.get("id")
        if cid is None:
            continue
        if cid in seen:
            new = f"{cid}-dup{k}"
            problems.add(student, "duplicated cell ids",
                         f"cell id {cid!r} appears more than once: renamed to {new!r}")
            cell["id"] = new
        seen.setdefault(cid, k)

    # read-only cells against the release the students were given
    source_cells = {c["metadata"]["nbgrader"]["grade_id"]: c for c in release_nb["cells"]
                    if c.get("metadata", {}).get("nbgrader", {}).get("grade_id")}
    locked = {k: c for k, c in source_cells.items()
              if c["metadata"]["nbgrader"].get("locked") or c["metadata"]["nbgrader"].get("grade")}
    found = {}
    for cell in nb.cells:
        gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if gid:
            found.setdefault(gid, []).append(cell)
    for gid, src in locked.items():
        is_test = bool(src["metadata"]["nbgrader"].get("grade"))
        kind = "test cell" if is_test else "read-only cell"
        cells = found.get(gid, [])
        if not cells:
            problems.add(student, f"{kind} deleted", f"{gid}: nbgrader puts it back")
            continue
        if len(cells) > 1:
            problems.add(student, f"{kind} duplicated",
                         f"{gid} appears {len(cells)} times: nbgrader grades the last copy "
                         "and runs the others as plain cells")
        cell = cells[-1]
        if cell.cell_type != src["cell_type"]:
            problems.add(student, "cell type changed",
                         f"{gid}: {src['cell_type']} became {cell.cell_type}; nbgrader restores it")
        if _source(cell).strip() != _source(src).strip():
            problems.add(student, f"{kind} edited", f"{gid}: nbgrader restores the original")
    for gid, src in source_cells.items():
        if src["metadata"]["nbgrader"].get("solution") and gid not in found:
            problems.add(student, "answer cell deleted", f"{gid}: its part cannot score")

    # static scan of the code that will run as the student wrote it
    sources = []
    for cell in nb.cells:
        gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        runs_as_written = not (gid in locked and found.get(gid) and found[gid][-1] is cell)
        if cell.cell_type == "code" or (gid in locked and locked[gid]["cell_type"] == "code"):
            text = _source(locked[gid]) if not runs_as_written else _source(cell)
            sources.append((cell.get("id") or gid or "?") if runs_as_written else None)
            sources[-1] = (sources[-1], text)
    for label, line, finding in scan_cells(sources):
        if finding.startswith("syntax error"):
            problems.add(student, "syntax error", f"cell {label} line {line}: {finding[14:]}")
        else:
            problems.add(student, "suspected tampering", f"cell {label} line {line}: {finding}")

    nbformat.write(nb, str(path))
    return True


# ================================================================== worker
def _kernel_spec(work, memory_mb, max_chars):
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


def worker_config(course, timeout, max_chars):
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
    extra.TruncateOutput.max_chars = max_chars
    extra.Autograde.autograde_preprocessors = [
        Execute, TruncateOutput, IgnorePattern, ClearMetadataPreprocessor, LimitOutput,
        SaveAutoGrades, AssignLatePenalties, CheckCellMetadata]
    extra.GenerateFeedback.preprocessors = [GetGrades, HideHiddenTests, CSSHTMLHeaderPreprocessor]
    cfg.merge(extra)
    return cfg


def run_worker(assignment, course, students, timeout, max_chars):
    """Autograde and write feedback for ``students`` in ``course``; JSON lines on stdout."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    venv_on_path()
    secret = os.environ.pop(SECRET_ENV, "")     # never passed on to a student's kernel
    course = pathlib.Path(course)
    cfg = worker_config(course, timeout, max_chars)
    api = NbGraderAPI(coursedir=CourseDirectory(config=cfg), config=cfg)
    keys = course / "keys"
    keys.mkdir(exist_ok=True)
    for student in students:
        t0 = time.time()
        # The kernel reads its case key from this file and deletes it before any
        # student code runs (armlab.grading.cases).
        key_file = keys / f"{student}.key"
        key_file.write_text(student_key(secret, student) if secret else "")
        os.environ["ARMLAB_CASE_KEY_FILE"] = str(key_file)
        result = api.autograde(assignment, student, force=True, create=True)
        key_file.unlink(missing_ok=True)
        log = result.get("log") or ""
        err = result.get("error") or ""
        print(json.dumps({"student": student, "success": bool(result["success"]),
                          "seconds": time.time() - t0, "log": (log + "\n" + err)[-20000:]}),
              flush=True)
    # one generate_feedback for the worker's whole share: one exporter, templates loaded once
    api.generate_feedback(assignment, None, force=True)
    return 0


# ================================================================== after grading
def inspect_graded(path, student, timeout, problems):
    """Runtime problems read from the graded notebook's outputs."""
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        label = gid or cell.get("id", "?")
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                name = out.get("ename")
                evalue = out.get("evalue", "")
                off = messages.switched_off_name(evalue)
                if name in messages.TIMEOUT_ERRORS:
                    problems.add(student, "cell timeout",
                                 f"cell {label} ran past {timeout:g} s and was interrupted")
                elif name in messages.MEMORY_ERRORS:
                    problems.add(student, "memory exhausted",
                                 f"cell {label} hit the kernel's memory cap (MemoryError)")
                elif messages.TAMPERED in evalue:
                    problems.add(student, "suspected tampering",
                                 f"cell {label}: the function {messages.TAMPERED}")
                elif off is not None:
                    problems.add(student, "used armlab's reference",
                                 f"cell {label}: the answer calls armlab.{off} instead of "
                                 "computing it")
                elif messages.REFUSED_TYPE in evalue:
                    problems.add(student, "answer of a refused type",
                                 f"cell {label}: {evalue.split(':')[0]}")
            text = out.get("text", "")
            if isinstance(text, list):
                text = "".join(text)
            if messages.TRUNCATED in text:
                problems.add(student, "output truncated", f"cell {label} printed too much")
            for note in messages.notes(text):
                problems.add(student, "suspected tampering", f"after cell {label}: {note}")


def _failure_reason(log):
    if "DeadKernelError" in log or "Kernel died" in log or "kernel died" in log:
        return "kernel died", "the kernel stopped while the notebook ran (os._exit, a crash or " \
                              "the memory cap): nbgrader could not finish it, scored 0"
    if "UnresponsiveKernel" in log:
        return "kernel died", "the kernel stopped answering: scored 0"
    if "MemoryError" in log:
        return "memory exhausted", "the kernel ran out of memory: scored 0"
    last = [line for line in log.splitlines() if line.strip()][-1:] or ["?"]
    return "grading failed", f"nbgrader could not grade it ({last[0].strip()[:150]}): scored 0"


def merge_gradebooks(target_url, dbs, assignment, replace=True):
    """Copy the rows of the SQLite gradebooks ``dbs`` into the target gradebook.

    The first is the master (assignment, cells, students); the workers started
    from a copy of it (the same ids) and each added only its own students'
    submissions, so rows are copied table by table in dependency order,
    skipping any whose primary key is already there. With ``replace``, the
    target's earlier round of this assignment (its submissions included) is
    removed first; its other assignments and its students stay.
    """
    import sqlalchemy as sa
    from nbgrader.api import Base, Gradebook, MissingEntry

    if replace:
        with Gradebook(target_url) as gb:                     # creates the schema if needed
            try:
                gb.remove_assignment(assignment)
            except MissingEntry:
                pass
    target = sa.create_engine(target_url)
    tables = [t for t in Base.metadata.sorted_tables if t.name != "alembic_version"]
    with target.begin() as tconn:
        for db in dbs:
            source = sa.create_engine("sqlite:///" + str(db))
            with source.connect() as sconn:
                for table in tables:
                    pk = [c.name for c in table.primary_key.columns]
                    have = {tuple(r) for r in tconn.execute(sa.select(*[table.c[k] for k in pk]))}
                    rows = [dict(r._mapping) for r in sconn.execute(sa.select(table))]
                    new = [r for r in rows if tuple(r[k] for k in pk) not in have]
                    if new:
                        tconn.execute(table.insert(), new)
            source.dispose()
    target.dispose()


def check_gradebook(url, assignment, students, grades, parts):
    """Integrity of the merged gradebook; returns a list of problems (empty when fine)."""
    import sqlalchemy as sa
    from nbgrader.api import Gradebook

    issues = []
    if url.startswith("sqlite:///"):
        engine = sa.create_engine(url)
        with engine.connect() as conn:
            result = conn.execute(sa.text("PRAGMA integrity_check")).scalar()
            if result != "ok":
                issues.append(f"PRAGMA integrity_check: {result}")
            fk = conn.execute(sa.text("PRAGMA foreign_key_check")).fetchall()
            if fk:
                issues.append(f"foreign keys broken: {fk[:5]}")
        engine.dispose()
    n_cells = sum(len(p[2]) for p in parts)
    with Gradebook(url) as gb:
        for student in students:
            try:
                sub = gb.find_submission(assignment, student)
            except Exception:                                # noqa: BLE001
                issues.append(f"{student}: no submission in the gradebook")
                continue
            n = sum(len(nb.grades) for nb in sub.notebooks)
            if n != n_cells:
                issues.append(f"{student}: {n} grades in the gradebook, expected {n_cells}")
            if abs(sub.score - grades[student]["total"]) > 1e-9:
                issues.append(f"{student}: gradebook total {sub.score} != grades.csv "
                              f"{grades[student]['total']}")
    return issues


# ================================================================== the run
def grade(assignment, submissions, *, out=None, workers=2, pattern=DEFAULT_PATTERN,
          timeout=30, memory_mb=2048, max_chars=20_000, db_url=None, solutions=None,
          progress=True, keep_work=False, secret=None):
    """Grade every submission; returns a summary dict (see the module docstring)."""
    import nbformat
    from nbgrader.api import Gradebook

    from armlab.grading.release import generate

    venv_on_path()
    t_start = time.time()
    out = pathlib.Path(out or REPO / "grading" / assignment).resolve()
    work = out / "work"
    if work.exists():
        shutil.rmtree(work)
    for stale in ("feedback", "grades.csv", "report.csv", "report.md", "nbgrader_export.csv"):
        p = out / stale
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()
    master = work / "course"
    master.mkdir(parents=True)
    problems = Problems()

    def say(text, end="\n"):
        if progress:
            sys.stdout.write(text + end)
            sys.stdout.flush()

    # 1. the assignment, from solutions/ (nbgrader generate_assignment into the master gradebook)
    generate(assignment, master, solutions)
    source_path = master / "source" / assignment / f"{assignment}.ipynb"
    source_nb = json.loads(source_path.read_text())
    parts = _parts(source_nb)
    cfg = load_config(master)

    # 2. collect (nbgrader zip_collect) and census
    lms_ids = {}
    students = collect(assignment, submissions, master, cfg, pattern, problems, lms_ids)
    release_nb = json.loads((master / "release" / assignment / f"{assignment}.ipynb").read_text())
    runnable = []
    for student in students:
        path = master / "submitted" / student / assignment / f"{assignment}.ipynb"
        if path.exists() and inspect_submission(path, release_nb, student, problems):
            runnable.append(student)
    say(f"{assignment}: {len(students)} students, {len(runnable)} notebooks to run, "
        f"{workers} worker(s)")

    # 3. register the students (nbgrader db student add); a student with nothing to
    #    run gets an empty submission, which nbgrader scores zero
    import warnings

    with Gradebook(cfg.CourseDirectory.db_url) as gb, warnings.catch_warnings():
        warnings.simplefilter("ignore")       # SQLAlchemy's autoflush notes inside nbgrader
        for student in students:
            gb.update_or_create_student(student)
            if student not in runnable:
                gb.add_submission(assignment, student)

    # 4. shards: each worker has its own course copy and gradebook
    workers = max(1, min(workers, len(runnable) or 1))
    shards = [runnable[k::workers] for k in range(workers)]
    jupyter_path = _kernel_spec(work, memory_mb, max_chars)
    procs, dirs = [], []
    env = dict(os.environ)
    env["JUPYTER_PATH"] = str(jupyter_path) + os.pathsep + env.get("JUPYTER_PATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    env.pop(SECRET_ENV, None)
    if secret:
        env[SECRET_ENV] = secret
    env.pop("JUPYTER_CONFIG_DIR", None)
    for k, shard in enumerate(shards):
        wdir = work / f"worker{k}"
        wdir.mkdir()
        shutil.copytree(master / "source", wdir / "source")
        shutil.copy(master / "gradebook.db", wdir / "gradebook.db")
        for student in shard:
            shutil.copytree(master / "submitted" / student, wdir / "submitted" / student)
        dirs.append(wdir)
        if not shard:
            procs.append(None)
            continue
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "armlab.grading.autograde", "--worker", str(wdir),
             "--timeout", str(timeout), "--max-chars", str(max_chars), assignment, *shard],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=str(wdir), env=env, text=True))

    # 5. progress while they run
    import selectors
    sel = selectors.DefaultSelector()
    for p in procs:
        if p is not None:
            sel.register(p.stdout, selectors.EVENT_READ)
    results, done, failures = {}, 0, 0
    open_streams = sum(p is not None for p in procs)
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
            results[msg["student"]] = msg
            done += 1
            failures += not msg["success"]
            say(f"\r[{done}/{len(runnable)}] {time.time() - t_start:6.1f} s, "
                f"failures so far: {failures}  ", end="" if sys.stdout.isatty() else "\n")
    for p in procs:
        if p is not None:
            p.wait()
    if progress and sys.stdout.isatty():
        say("")

    # 6. per-student outcome
    for student in runnable:
        msg = results.get(student)
        if msg is None:
            problems.add(student, "grading failed", "the worker grading it stopped: scored 0")
            continue
        if not msg["success"]:
            kind, detail = _failure_reason(msg["log"])
            problems.add(student, kind, detail)
        wdir = dirs[[student in s for s in shards].index(True)]
        graded = wdir / "autograded" / student / assignment / f"{assignment}.ipynb"
        if graded.exists():
            try:
                inspect_graded(graded, student, timeout, problems)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                problems.add(student, "grading failed", f"graded notebook unreadable: {exc}")

    # 7. one gradebook
    worker_dbs = [d / "gradebook.db" for d, s in zip(dirs, shards) if s]
    if db_url is None:            # the run's own SQLite gradebook: start from the master's
        target_url = "sqlite:///" + str(out / "gradebook.db")
        (out / "gradebook.db").unlink(missing_ok=True)
        shutil.copy(master / "gradebook.db", out / "gradebook.db")
        merge_gradebooks(target_url, worker_dbs, assignment, replace=False)
    else:                         # the course's gradebook: replace this assignment's round
        target_url = db_url
        merge_gradebooks(target_url, [master / "gradebook.db"] + worker_dbs, assignment)
    import warnings

    from nbgrader.api import MissingEntry

    with Gradebook(target_url) as gb, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for student in students:                  # a worker that died left no submission
            try:
                gb.find_submission(assignment, student)
            except MissingEntry:
                gb.add_submission(assignment, student)

    # 8. grades, per part, from the merged gradebook
    grades = {}
    with Gradebook(target_url) as gb:
        for student in students:
            row = {"total": 0.0}
            try:
                sub = gb.find_submission(assignment, student)
                by_cell = {}
                for nbk in sub.notebooks:
                    for g in nbk.grades:
                        by_cell[g.name] = g.score
            except Exception:                                # noqa: BLE001
                by_cell = {}
            for key, _title, cells, _pts in parts:
                row[key] = sum(by_cell.get(c, 0.0) for c in cells)
            row["total"] = sum(by_cell.values())
            grades[student] = row
    max_total = sum(p[3] for p in parts)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "grades.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["student", "lms_id"] + [k for k, _t, _c, _p in parts] + ["total", "status"])
        for student in students:
            row = grades[student]
            review = any(p[1] == "suspected tampering" for p in problems.for_student(student))
            w.writerow([student, lms_ids.get(student, "")]
                       + [_fmt_score(row[k]) for k, _t, _c, _p in parts]
                       + [_fmt_score(row["total"]), "review" if review else "ok"])
    with open(out / "report.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["student", "problem", "detail"])
        for r in problems.sorted():
            w.writerow(r)

    # 9. feedback HTML, one file per student
    fb_dir = out / "feedback"
    fb_dir.mkdir(exist_ok=True)
    for wdir in dirs:
        for html in sorted((wdir / "feedback").glob(f"*/{assignment}/*.html")):
            student = html.parent.parent.name
            text = html.read_text(encoding="utf-8")
            (fb_dir / f"{student}.html").write_text(text, encoding="utf-8")

    # 10. nbgrader export, and the integrity check
    export_csv(target_url, out / "nbgrader_export.csv", master)
    issues = check_gradebook(target_url, assignment, students, grades, parts)
    write_summary(out / "report.md", assignment, parts, students, grades, problems, issues,
                  max_total)
    if not keep_work:
        shutil.rmtree(work, ignore_errors=True)
    elapsed = time.time() - t_start
    say(f"{assignment}: graded {len(students)} in {elapsed:.1f} s; "
        f"{len(problems.rows)} problems in report.csv; gradebook "
        f"{'OK' if not issues else 'NOT OK: ' + '; '.join(issues)}")
    return {"out": out, "students": students, "grades": grades, "problems": problems.sorted(),
            "gradebook_issues": issues, "seconds": elapsed, "parts": parts}


def export_csv(url, path, course):
    """``nbgrader export`` of the gradebook, with its timestamps blanked for repeatability."""
    from nbgrader.apps import NbGraderAPI  # noqa: F401  (loads nbgrader's plugins)
    from nbgrader.plugins import CsvExportPlugin
    from nbgrader.api import Gradebook

    cfg = load_config(course)
    plugin = CsvExportPlugin(config=cfg)
    plugin.to = str(path)
    with Gradebook(url) as gb:
        plugin.export(gb)
    text = path.read_text()
    path.write_text(re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?", "", text))


def write_summary(path, assignment, parts, students, grades, problems, issues, max_total):
    lines = [f"# Grading report: {assignment}", ""]
    lines.append("| student | " + " | ".join(k for k, *_ in parts) + " | total | problems |")
    lines.append("|---" * (len(parts) + 3) + "|")
    for s in students:
        lines.append(f"| {s} | " + " | ".join(_fmt_score(grades[s][k]) for k, *_ in parts)
                     + f" | {_fmt_score(grades[s]['total'])} / {_fmt_score(max_total)} | "
                     + str(len(problems.for_student(s))) + " |")
    lines += ["", "## Problems", ""]
    if not problems.rows:
        lines.append("None.")
    for student, problem, detail in problems.sorted():
        lines.append(f"- **{student}**: {problem}: {detail}")
    lines += ["", "## Gradebook", "",
              "Integrity check passed." if not issues else "Integrity check FAILED:"]
    lines += [f"- {i}" for i in issues]
    path.write_text("\n".join(lines) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m armlab.grading.autograde",
        description="Grade an LMS export of an armlab assignment with nbgrader.")
    parser.add_argument("assignment")
    parser.add_argument("submissions", nargs="+", help="a zip or a folder (students, for --worker)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pattern", default=DEFAULT_PATTERN,
                        help="regex on file names with groups student_id and file_id")
    parser.add_argument("--out", help="output folder (default grading/<assignment>)")
    parser.add_argument("--timeout", type=float, default=30, help="seconds per cell")
    parser.add_argument("--memory-mb", type=int, default=2048, help="kernel address-space cap")
    parser.add_argument("--max-chars", type=int, default=20_000, help="output kept per cell")
    parser.add_argument("--db-url", default=os.environ.get("ARMLAB_GRADEBOOK_URL"),
                        help="SQLAlchemy URL of the gradebook (default: SQLite in the output)")
    parser.add_argument("--keep-work", action="store_true", help="keep the workers' course copies")
    parser.add_argument("--secret", default=os.environ.get(SECRET_ENV),
                        help="the course's secret for the fresh cases (default: $ARMLAB_GRADING_SECRET)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return run_worker(args.assignment, args.worker, args.submissions, args.timeout,
                          args.max_chars)
    if len(args.submissions) != 1:
        parser.error("give one zip or folder of submissions")
    summary = grade(args.assignment, args.submissions[0], out=args.out, workers=args.workers,
                    pattern=args.pattern, timeout=args.timeout, memory_mb=args.memory_mb,
                    max_chars=args.max_chars, db_url=args.db_url, keep_work=args.keep_work,
                    secret=args.secret)
    return 1 if summary["gradebook_issues"] else 0


if __name__ == "__main__":
    sys.exit(main())
