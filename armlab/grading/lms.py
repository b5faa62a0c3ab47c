"""Learning-management systems: the file names of their exports, and the grade files they import.

``--lms NAME`` is one of :data:`FORMATS`: ``generic`` (``<login>_<id>_<submission>_<notebook>``),
``canvas`` (*Download Submissions*; ``canvas_grades.csv`` for its gradebook *Import*),
``moodle`` (*Download all submissions*; ``moodle_grades.csv``, a grading worksheet) and
``blackboard`` (*Assignment File Download*; ``blackboard_grades.csv`` for *Work Offline →
Upload*). The grade column comes from the LMS's gradebook export (``--lms-gradebook``) or
``--lms-column`` (:func:`grade_target`, :class:`GradebookError`). A held student's row
keeps the LMS's own score (or is left out); free text is escaped against spreadsheet
formulas (:func:`safe_cell`); what the LMS would read otherwise is reported
(:func:`grade_file_problems`). Each format's documentation is cited where it is written.

>>> parse("jdoe_2024_48222_1_statics.ipynb", "generic", "statics.ipynb")
Name(student='jdoe_2024', lms_id='48222', file='statics.ipynb', late=False, attempt='1', display='jdoe_2024')
>>> parse("doejohn_LATE_48213_7730211_statics-1.ipynb", "canvas", "statics.ipynb").late
True
"""

import csv
import io
import pathlib
import re
import unicodedata
from typing import NamedTuple

from defusedcsv import csv as _defused

SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}$")
_LATE = re.compile(r"(?:^|_)(LATE|late)(?=_|$)")
_RESUBMISSION = re.compile(r"^(?P<stem>.+?)(?:-\d+| \(\d+\))(?P<ext>\.ipynb)$")
_ATTEMPT = re.compile(r"^(?P<prefix>.+)_attempt_(?P<date>\d{4}(?:-\d\d){5})"
                      r"(?:_(?P<late>LATE|late))?(?:_(?P<file>.+))?$")


class Name(NamedTuple):
    """What a submitted file's name says: who, the LMS's id, which file."""

    student: str        # the student id used for grading (a safe folder name)
    lms_id: str         # the id the LMS matches grades by
    file: str           # the submitted file's own name
    late: bool
    attempt: str        # submission number or attempt date ('' if none)
    display: str        # the name as the LMS wrote it


def canonical_file(file, notebook):
    """``file`` as the notebook it stands for: a resubmission's ``statics-1.ipynb`` or
    ``statics (1).ipynb`` is ``statics.ipynb`` when that is the ``notebook``."""
    m = _RESUBMISSION.match(file)
    if m and m["stem"] + m["ext"] == notebook:
        return notebook
    return file


def resubmission(file):
    """The resubmission number in ``statics-2.ipynb`` (2); 0 for the first."""
    m = re.search(r"-(\d+)\.ipynb$", file)
    return int(m.group(1)) if m else 0


def safe_student_id(text):
    """A folder-safe student id from an LMS name: ``José Álvarez`` -> ``jose-alvarez``."""
    if SAFE_ID.match(text):
        return text
    ascii_ = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^A-Za-z0-9._@+-]+", "-", ascii_.strip()).strip("-.+@").lower()
    return slug[:100] if slug and SAFE_ID.match(slug) else ""


def _strip_late(login):
    late = bool(_LATE.search(login))
    return _LATE.sub("", login).strip("_"), late


def _split_numbers(name, notebook, numbers):
    """``login_<n>_<n>_file`` (``numbers`` = 2) or ``login_<n>_file`` (1): every split
    is tried; one whose file is the notebook wins, else the longest login."""
    body = r"_(\d+)" * numbers + r"_"
    best = None
    for m in re.finditer(r"(?=" + body + r")", name):
        tail = re.match(body + r"(.+)$", name[m.start():])
        if not tail:
            continue
        login, ids, file = name[:m.start()], tail.groups()[:numbers], tail.group(numbers + 1)
        if not login:
            continue
        candidate = (canonical_file(file, notebook) == notebook, len(login), login, ids, file)
        best = max(best, candidate) if best else candidate
    return best


def _generic(path, notebook, receipts):
    name = path.rsplit("/", 1)[-1]
    found = _split_numbers(name, notebook, 2)
    if not found:
        return None
    _, _, login, (lms_id, submission), file = found
    login, late = _strip_late(login)
    return login, lms_id, file, late, submission, login


def _canvas(path, notebook, receipts):
    found = _generic(path, notebook, receipts)
    if not found:
        return None
    login, lms_id, file, late, _submission, display = found
    return login, lms_id, file, late, "", display


_MOODLE = re.compile(r"^(?P<name>.+)_(?P<id>\d+)_assignsubmission_(?:file|onlinetext)_/?(?P<file>.+)$")


def _moodle(path, notebook, receipts):
    parts = path.split("/")
    for k in range(len(parts) - 1, -1, -1):       # the participant's folder, or a flat name
        m = _MOODLE.match("/".join(parts[k:]))
        if m and "/" not in m["file"].rstrip("/"):
            name, late = _strip_late(m["name"])
            return name, m["id"], m["file"], late, "", name
    return None


def _blackboard(path, notebook, receipts):
    name = path.rsplit("/", 1)[-1]
    m = _ATTEMPT.match(name)
    if not m or not m["file"]:
        return None
    prefix = m["prefix"]
    username = receipts.get(f"{prefix}_attempt_{m['date']}")
    if username is None:
        username = prefix.rsplit("_", 1)[-1]
    login, late = _strip_late(username)
    return login, login, m["file"], late or bool(m["late"]), m["date"], login


def blackboard_usernames(names, receipts):
    """Usernames for the attempts that came without a receipt, ``{<prefix>_attempt_<date>:
    username}``: a Blackboard file name starts with the assignment's name and then the
    username, both of which may hold underscores, so the username is what follows the
    words that every attempt's name starts with. Needs two or more students; with one, or
    with receipts, nothing is guessed.

    >>> blackboard_usernames(["Lab_2_j_smith_attempt_2026-03-02-14-05-33_x.ipynb",
    ...                       "Lab_2_ana_attempt_2026-03-02-15-00-00_x.ipynb"], {})
    {'Lab_2_j_smith_attempt_2026-03-02-14-05-33': 'j_smith', \
'Lab_2_ana_attempt_2026-03-02-15-00-00': 'ana'}
    """
    found = {}
    for name in names:
        m = _ATTEMPT.match(name.rsplit("/", 1)[-1])
        stem = m and f"{m['prefix']}_attempt_{m['date']}"
        if m and m["file"] and stem not in receipts:
            found[stem] = m["prefix"].split("_")
    if len({tuple(words) for words in found.values()}) < 2:
        return {}
    words = list(found.values())
    shared = 0
    while all(len(w) > shared + 1 and w[shared] == words[0][shared] for w in words):
        shared += 1
    return {stem: "_".join(w[shared:]) for stem, w in found.items()}


def blackboard_receipt(text):
    """The username in a Blackboard receipt's ``Name: First Last (username)`` line."""
    m = re.search(r"^Name:.*\(([^()\s]+)\)\s*$", text, re.M)
    return m.group(1) if m else None


def safe_cell(value):
    """A CSV cell that no spreadsheet runs: text starting like a formula (``=``, ``+``, ``-``,
    ``@``, ``|``, ``%``) gets a ``'``, by ``defusedcsv`` (its writer escapes whole rows, so the
    one cell goes through it alone); a number (``-1.5``) is left as it is. A leading tab or
    carriage return, which OWASP's *CSV Injection* also lists and ``defusedcsv`` leaves, gets
    the ``'`` too.

    >>> print(safe_cell('=HYPERLINK("http://x", "y")'), safe_cell("-1.5"), safe_cell("Doe, Jane"))
    '=HYPERLINK("http://x", "y") -1.5 Doe, Jane
    >>> safe_cell(chr(9) + "=1+1") == "'" + chr(9) + "=1+1"
    True
    """
    buffer = io.StringIO()
    _defused.writer(buffer).writerow([value])
    text = next(csv.reader(io.StringIO(buffer.getvalue())))[0]
    return "'" + text if text.startswith(("\t", "\r")) else text


class SafeWriter:
    """``csv.writer`` whose cells go through :func:`safe_cell`, except the columns
    ``verbatim`` (indices) names: identifiers and values an LMS matches or reads back, which
    an escape would change (a username ``-jdoe`` would no longer match)."""

    def __init__(self, fh, verbatim=(), **kwargs):
        self._writer = csv.writer(fh, **kwargs)
        self._verbatim = set(verbatim)

    def writerow(self, row):
        self._writer.writerow([x if k in self._verbatim else safe_cell(x)
                               for k, x in enumerate(row)])


class GradebookError(ValueError):
    """The grade file cannot be made to import as the LMS documents it; the message says what
    is missing (the LMS's gradebook export, or the column's id)."""


def read_export(path):
    """An LMS's gradebook export as ``(header, rows)``: comma- or tab-separated, UTF-8 (with
    or without a byte-order mark) or UTF-16 (Blackboard's *Work Offline* download as ``.xls``
    is tab-separated UTF-16)."""
    data = pathlib.Path(path).read_bytes()
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise GradebookError(f"{path}: not a UTF-8 or UTF-16 text file") from None
    first = text.split("\n", 1)[0]
    delimiter = "\t" if first.count("\t") > first.count(",") else ","
    rows = [row for row in csv.reader(io.StringIO(text), delimiter=delimiter) if any(row)]
    if not rows:
        raise GradebookError(f"{path} is empty")
    return [h.strip() for h in rows[0]], rows[1:]


def _words(text):
    return re.sub(r"[^a-z0-9]+", " ", unicodedata.normalize("NFKD", str(text)).lower()).split()


def _pick(candidates, assignment, column, what, path):
    """The one column of ``candidates`` (``{header: (name, id)}``) that ``column`` names
    (its header, its name or its id), or, without one, whose name holds the assignment's
    words; anything else is an error that lists the candidates."""
    if column:
        found = [h for h, (name, cid) in candidates.items()
                 if column.strip() in (h, name, cid)]
    else:
        words = _words(assignment.replace("_", " "))
        found = [h for h, (name, _cid) in candidates.items()
                 if " ".join(words) in " ".join(_words(name))]
    if len(found) == 1:
        return found[0]
    listed = "; ".join(candidates) or "none"
    if not found:
        said = f"--lms-column {column!r}" if column else f"the assignment's name ({assignment})"
        raise GradebookError(f"no {what} column of {path} matches {said}; its {what} columns: "
                             f"{listed}; name one with --lms-column")
    raise GradebookError(f"several {what} columns of {path} match: {'; '.join(found)}; name "
                         "one with --lms-column")


# ---------------------------------------------------------------- Canvas
# Canvas, "How do I import grades in the Gradebook?" (Instructor Guide,
# https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807),
# and its importer, app/models/gradebook_importer.rb in Canvas's source, read for this: the file
# is shaped as the gradebook's own CSV export: the student columns Student, ID (Canvas's user
# id), SIS User ID, SIS Login ID, Section, then one column per assignment headed
# "<name> (<assignment id>)", which maps it to that assignment; a header that names no existing
# assignment is imported as a new one. A student is found by ID, then SIS User ID, then SIS
# Login ID, then name. A row whose first cell holds "Points Possible" sets each assignment's
# points from its cell (a blank cell leaves them), and a column whose cell there reads
# "(read only)" is skipped. A header holding any of _CANVAS_DROPPED is dropped before the
# assignments are read. A blank grade where Canvas has a score is a change (clearing it);
# a student without a row is not changed.
_CANVAS_STUDENT = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
_CANVAS_COLUMN = re.compile(r"^(?P<name>.*\S)\s*\((?P<id>\d+)\)$")
_CANVAS_DROPPED = ("Current Score", "Current Points", "Current Grade", "Final Score",
                   "Final Points", "Final Grade", "Override Score", "Override Grade",
                   "Override Status")
_CANVAS_VERBATIM = (1, 2, 3, 5)     # ID, SIS User ID, SIS Login ID and the grade column


def _canvas_dropped(header):
    """Canvas's importer drops ``header`` without a word: say so."""
    words = next((w for w in _CANVAS_DROPPED if w in header), None)
    if words:
        raise GradebookError(f"Canvas's importer drops the column {header!r} without a word "
                             f"(its header holds {words!r}, which Canvas keeps for its own "
                             "totals): rename the assignment in Canvas and export the gradebook "
                             "again")


def _canvas_target(assignment, column, export, path):
    if export is None:
        if column and _CANVAS_COLUMN.match(column.strip()):
            _canvas_dropped(column.strip())
            return {"column": column.strip(), "points": None, "rows": None}
        raise GradebookError(
            "Canvas matches an existing assignment by its column header '<name> (<id>)', and "
            "imports any other header as a new assignment: pass the gradebook's export "
            "(Grades > Export > Export Entire Gradebook) with --lms-gradebook, or the "
            f"header with --lms-column (e.g. 'Statics ({'12345'})')"
            + (f"; {column!r} has no assignment id" if column else ""))
    header, rows = export
    missing = [c for c in ("Student", "ID") if c not in header]
    if missing:
        raise GradebookError(f"{path} is not a Canvas gradebook export: no column "
                             f"{' or '.join(repr(c) for c in missing)}")
    candidates = {}
    for h in header:
        m = _CANVAS_COLUMN.match(h)
        if m:
            candidates[h] = (m["name"], m["id"])
    chosen = _pick(candidates, assignment, column, "assignment", path)
    _canvas_dropped(chosen)
    k, idk = header.index(chosen), header.index("ID")
    points = next((r[k].strip() for r in rows if r and "Points Possible" in r[0]
                   and len(r) > k), None)
    if points and re.search(r"read\s+only", points):
        raise GradebookError(f"Canvas's export marks the column {chosen!r} read only, and its "
                             "importer skips such a column (a moderated assignment whose grades "
                             "are not yet posted, an anonymous one not yet posted, or one in a "
                             "closed grading period)")

    def cell(r, c):
        return r[header.index(c)] if c in header and len(r) > header.index(c) else ""

    by_id = {r[idk].strip(): {**{c: cell(r, c) for c in _CANVAS_STUDENT}, "grade": cell(r, chosen)}
             for r in rows if len(r) > idk and r[idk].strip().isdigit()}
    return {"column": chosen, "points": points, "rows": by_id}


def _write_canvas(path, rows, assignment, max_total, target):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = SafeWriter(fh, verbatim=_CANVAS_VERBATIM)
        w.writerow(_CANVAS_STUDENT + [target["column"]])
        if target["points"] is not None:
            w.writerow(["Points Possible", "", "", "", "", target["points"]])
        for r, known in _kept(rows, target):
            student = [known[c] for c in _CANVAS_STUDENT] if known else [
                r["display"], r["lms_id"], "", "", ""]
            w.writerow(student + [_grade(r, known)])


# ---------------------------------------------------------------- Moodle
# Moodle's assignment, Offline grading worksheet: Download grading worksheet, then Upload
# grading worksheet (Moodle's source, mod/assign/feedback/offline/importgradeslib.php and
# locallib.php, read for this). The upload finds the columns "Identifier", "Grade" and
# "Last modified (grade)" by their names in the language of the user who uploads (and the
# "Participant " before the id likewise), and refuses a file without all three. It reads the
# date with PHP's strtotime ("-", never graded, reads as no date) and skips, without a word,
# a grade that is blank, below 0, above the assignment's maximum (the worksheet's "Maximum
# Grade"), equal to the one in Moodle, or older than the one in Moodle (unless the upload
# form's option to ignore the modified dates is ticked). The feedback columns ("Feedback
# comments") are read back and replace the feedback when they differ.
_MOODLE_NEEDS = ["Identifier", "Grade", "Last modified (grade)"]
_MOODLE_HEADER = ["Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)"]
_MOODLE_FREE_TEXT = re.compile(r"^(Full name|Email address|Status|Online text|"
                               r"(First|Last) name|ID number|Department|Institution)$")
"""The worksheet's columns of free text that the upload does not read (escaped); every other
column is an identifier, a number, a date or a feedback text the upload reads back, kept as
the worksheet has it."""


def _moodle_target(assignment, column, export, path):
    if export is None:
        return {"header": _MOODLE_HEADER, "rows": None, "points": None}
    header, rows = export
    missing = [c for c in _MOODLE_NEEDS if c not in header]
    if missing:
        raise GradebookError(f"{path} is not an offline grading worksheet that Moodle's upload "
                             f"reads: no column {', '.join(repr(c) for c in missing)} (Moodle's "
                             "upload matches the column names in the language of the user who "
                             "uploads, and armlab reads the English ones: download and upload "
                             "the worksheet with Moodle's language set to English)")
    k = header.index("Identifier")
    by_id = {}
    for r in rows:
        m = re.fullmatch(r"Participant (\d+)", r[k].strip()) if len(r) > k else None
        if m:
            by_id[m[1]] = r + [""] * (len(header) - len(r))
    maxima = {known[header.index("Maximum Grade")].strip() for known in by_id.values()
              } if "Maximum Grade" in header else set()
    return {"header": header, "rows": by_id,
            "points": maxima.pop() if len(maxima) == 1 else None}


def _moodle_above(r, known, header):
    """``(grade, maximum)`` when the row's grade is above the worksheet's Maximum Grade."""
    if known is None or "Maximum Grade" not in header or r["grade"] == "":
        return None
    maximum = known[header.index("Maximum Grade")]
    top = _number(maximum)
    if top is not None and float(r["grade"]) > top:
        return r["grade"], maximum
    return None


def _write_moodle(path, rows, assignment, max_total, target):
    header = target["header"]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = SafeWriter(fh, verbatim=[k for k, h in enumerate(header)
                                     if not _MOODLE_FREE_TEXT.match(h)])
        w.writerow(header)
        for r, known in _kept(rows, target):
            if known is None:
                w.writerow([f"Participant {r['lms_id']}", r["display"], r["grade"],
                            fmt_score(max_total), "-"])
                continue
            grade = _grade(r, known, header.index("Grade"))
            if _moodle_above(r, known, header):
                grade = known[header.index("Grade")]
            w.writerow([grade if h == "Grade" else v for h, v in zip(header, known)])


# ---------------------------------------------------------------- Blackboard
# Blackboard Learn, "Uploading or Downloading Grade Center Items for Working Offline" (Help for
# Instructors, http://library.blackboard.com/ref/3ea64795-6ecc-4abd-b595-0a9a8dfdec94/Content/
# _instructor_grade_center/grade_center_upload_download.htm): a student is identified by the
# Username column, a Grade Center column by its Column ID (the "|<id>" at the end of the header
# in Work Offline > Download, after "[Total Pts: <points> <display>]"); a column without one is
# added as a new text column worth 0 points. In a comma-delimited file every value must be
# within quotes. Nothing in the file is free text: every value is written as it stands.
_BLACKBOARD_COLUMN = re.compile(r"^(?P<name>.*?)\s*\|\s*(?P<id>\d+)$")
_BLACKBOARD_POINTS = re.compile(r"\[Total Pts:\s*(?:up to\s+)?(?P<points>[0-9.,]+)[^\]]*\]")


def _blackboard_target(assignment, column, export, path):
    if export is None:
        if column and _BLACKBOARD_COLUMN.match(column.strip()):
            points = _BLACKBOARD_POINTS.search(column)
            return {"column": column.strip(), "rows": None,
                    "points": points["points"] if points else None}
        raise GradebookError(
            "Blackboard updates a Grade Center column only when the header carries its Column "
            "ID ('<name> [Total Pts: <max> Score] |<id>'); any other header becomes a new text "
            "column worth 0 points: pass the Grade Center's Work Offline > Download file with "
            "--lms-gradebook, or the header with --lms-column"
            + (f"; {column!r} has no column id" if column else ""))
    header, rows = export
    if "Username" not in header:
        raise GradebookError(f"{path} is not a Grade Center download: no column 'Username'")
    candidates = {}
    for h in header:
        m = _BLACKBOARD_COLUMN.match(h)
        if m:
            name = re.sub(r"\s*\[Total Pts:.*\]$", "", m["name"])
            candidates[h] = (name, m["id"])
    chosen = _pick(candidates, assignment, column, "graded", path)
    k, g = header.index("Username"), header.index(chosen)
    points = _BLACKBOARD_POINTS.search(chosen)
    return {"column": chosen, "points": points["points"] if points else None,
            "rows": {r[k].strip(): {"grade": r[g].strip() if len(r) > g else ""}
                     for r in rows if len(r) > k}}


def _write_blackboard(path, rows, assignment, max_total, target):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, quoting=csv.QUOTE_ALL)
        w.writerow(["Username", target["column"]])
        for r, known in _kept(rows, target):
            w.writerow([r["lms_id"], _grade(r, known)])


# ---------------------------------------------------------------- every format
def _kept(rows, target):
    """``(row, the export's row for that student or None)`` for each row the file holds: a
    student the export does not list is left out (the LMS would refuse the row), and, without
    an export, so is a student held for review (the score the LMS has is not known, and a
    missing row changes nothing)."""
    known = target.get("rows")
    for r in rows:
        found = (known or {}).get(r["lms_id"])
        if (known is None and r["grade"] == "") or (known is not None and found is None):
            continue
        yield r, found


def _grade(r, known, k="grade"):
    """The row's grade, or, for a student held for review (grade ''), what the LMS has."""
    return r["grade"] if r["grade"] != "" else known[k]


def _number(text):
    """A number as an LMS writes it (``8.00``, ``8,00``), or None."""
    text = str(text).strip()
    if "," in text and "." not in text:
        text = text.replace(",", ".")
    try:
        return float(text)
    except ValueError:
        return None


_POINTS_ADVICE = {
    "canvas": "{file} keeps Canvas's {points} in its Points Possible row (Canvas would set the "
              "assignment's points from that row) and each grade is the set's points; change "
              "the assignment's points in Canvas if {total} is meant",
    "blackboard": "Blackboard keeps its {points} and reads each grade as points out of "
                  "{points}; change the column's points in Blackboard if {total} is meant",
    "moodle": "set the assignment's Maximum grade in Moodle to {total}, download the worksheet "
              "again and grade again",
}


def grade_file_problems(lms, rows, target, max_total):
    """What the LMS file leaves out or the LMS would read otherwise than armlab means, as
    ``(lms_id or None for the whole round, problem, detail)``: a student the export does not
    list, points that differ from the set's ``max_total``, a Moodle grade above the
    worksheet's Maximum Grade (kept as Moodle has it: its upload would skip it silently).

    >>> target = {"column": "Statics [Total Pts: 10 Score] |123456", "points": "10",
    ...           "rows": {"jdoe": {"grade": ""}}}
    >>> for p in grade_file_problems("blackboard", [{"lms_id": "jdoe", "display": "jdoe",
    ...                                             "grade": "6.5"}], target, 8.0):
    ...     print(p[1])
    points differ
    """
    fmt = FORMATS[lms]
    if not fmt.write or target is None:
        return []
    found = []
    known = target.get("rows")
    if known is not None:
        found += [(r["lms_id"], "not in the LMS gradebook", f"the {lms} gradebook export has no "
                   f"row for {r['lms_id']}: left out of {fmt.grade_file}")
                  for r in rows if r["lms_id"] not in known]
    points = target.get("points")
    if points not in (None, "") and _number(points) != max_total:
        column = target.get("column", "Grade")
        found.append((None, "points differ", f"the {lms} column {column!r} is worth {points} "
                      f"points, the set {fmt_score(max_total)}: " + _POINTS_ADVICE[lms].format(
                          file=fmt.grade_file, points=points, total=fmt_score(max_total))))
    if lms == "moodle" and known is not None:
        header = target["header"]
        for r, row in _kept(rows, target):
            above = _moodle_above(r, row, header)
            if above:
                name = row[header.index("Full name")] if "Full name" in header else r["display"]
                found.append((r["lms_id"], "grade above Moodle's maximum",
                              f"Participant {r['lms_id']} ({name}): {above[0]} is above the "
                              f"worksheet's Maximum Grade {above[1]}, which Moodle's upload "
                              f"would skip without a word; {fmt.grade_file} keeps the grade "
                              f"Moodle has ({row[header.index('Grade')]!r})"))
    return found


def fmt_score(x):
    """A score or a number of points as the grade files and the report write it: ``8``,
    ``6.5``."""
    return f"{x:g}"


class Format(NamedTuple):
    name: str
    parse: object
    grade_file: str          # '' when the format has none
    write: object
    examples: tuple          # realistic names, for the error message and the tests
    target: object = None    # the grade column, from the LMS's export or --lms-column


FORMATS = {
    "generic": Format("generic", _generic, "", None,
                      ("jdoe_48213_1_statics.ipynb",)),
    "canvas": Format("canvas", _canvas, "canvas_grades.csv", _write_canvas,
                     ("doejohn_48213_7730211_statics.ipynb",), _canvas_target),
    "moodle": Format("moodle", _moodle, "moodle_grades.csv", _write_moodle,
                     ("Jane Doe_104211_assignsubmission_file_/statics.ipynb",), _moodle_target),
    "blackboard": Format("blackboard", _blackboard, "blackboard_grades.csv", _write_blackboard,
                         ("Statics_jdoe_attempt_2026-03-02-14-05-33_statics.ipynb",),
                         _blackboard_target),
}


def parse(path, lms, notebook, receipts=None):
    """The :class:`Name` in an export's file ``path`` (relative, ``/``-separated), or
    None when it does not follow the format or gives no usable student id."""
    found = FORMATS[lms].parse(path, notebook, receipts or {})
    if not found:
        return None
    login, lms_id, file, late, attempt, display = found
    student = safe_student_id(login)
    if not student or "/" in file or not file:
        return None
    return Name(student, lms_id, file, late, attempt, display)


def grade_target(lms, assignment, *, gradebook=None, column=None):
    """Where the grade goes in the LMS's file: read from the LMS's own gradebook export
    (``gradebook``, a path) or from ``column``; raises :class:`GradebookError` naming what is
    missing when neither tells the LMS which existing column to update. None for ``generic``."""
    fmt = FORMATS[lms]
    if fmt.target is None:
        if gradebook:
            raise GradebookError(f"--lms-gradebook needs --lms canvas, moodle or blackboard "
                                 f"(the {lms} format writes no grade file)")
        return None
    export = read_export(gradebook) if gradebook else None
    return fmt.target(assignment, column, export, gradebook)


def write_grade_file(lms, path, rows, assignment, max_total, target=None):
    """Write the LMS's import file: ``rows`` of ``{"display", "lms_id", "grade"}``
    (``grade`` '' for a score held back), into the column ``target`` names
    (:func:`grade_target`). Returns the path, or None for ``generic``. Rows of students the
    export does not list are left out (the LMS would refuse them), and a student held for
    review keeps the score the export shows; see :func:`grade_file_problems`."""
    fmt = FORMATS[lms]
    if not fmt.write:
        return None
    fmt.write(path, rows, assignment, max_total, target)
    return path
