"""Learning-management systems: the file names of their exports, and the grade files they import.

``--lms NAME`` chooses one of :data:`FORMATS`:

``generic`` (the default)
    ``<login>_<id>_<submission>_<notebook>``, e.g. ``jdoe_48213_1_statics.ipynb``.
``canvas``
    Canvas's *Download Submissions* zip: ``<name>_<user id>_<file id>_<file>``,
    with ``LATE`` after the name for a late submission
    (``doejohn_LATE_48213_7730211_statics.ipynb``) and ``-1``, ``-2`` added to the
    file name of a resubmission (``statics-1.ipynb``). The grade file
    ``canvas_grades.csv`` has the columns of Canvas's gradebook import: ``Student``,
    ``ID`` (the Canvas user id, which is how Canvas matches rows), ``SIS User ID``,
    ``SIS Login ID``, ``Section`` and the assignment's column, with a
    ``Points Possible`` row.
``moodle``
    Moodle's *Download all submissions* zip, one folder per participant
    (``Jane Doe_104211_assignsubmission_file_/statics.ipynb``) or flat
    (``Jane Doe_104211_assignsubmission_file_statics.ipynb``); the number is the
    participant identifier. The grade file ``moodle_grades.csv`` is an offline
    grading worksheet for *Upload grading worksheet*: ``Identifier``
    (``Participant 104211``), ``Full name``, ``Grade``, ``Maximum Grade``.
``blackboard``
    Blackboard Learn's *Assignment File Download* zip:
    ``<assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>_<file>``, with a
    ``<assignment>_<username>_attempt_<date>.txt`` receipt whose ``Name:`` line
    ends with the username in parentheses (read when present, so usernames with
    underscores are safe); of several attempts the latest is graded. The grade
    file ``blackboard_grades.csv`` is for the Grade Centre's *Work Offline →
    Upload*: ``Username`` and the assignment's column,
    ``<name> [Total Pts: <max> Score]`` (add ``|<column id>`` with
    ``--lms-column`` to update an existing column).

In every format a word ``LATE`` (or ``late``) next to the login marks a late
submission and is not part of the id, and a login may contain underscores.
A student held for review gets an empty grade in the LMS file (nothing is
awarded until a human has looked).

>>> parse("jdoe_2024_48222_1_statics.ipynb", "generic", "statics.ipynb")
Name(student='jdoe_2024', lms_id='48222', file='statics.ipynb', late=False, attempt='1', display='jdoe_2024')
>>> parse("doejohn_LATE_48213_7730211_statics-1.ipynb", "canvas", "statics.ipynb").late
True
"""

import csv
import re
import unicodedata
from typing import NamedTuple

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


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A cell a spreadsheet reads as a formula starts with one of these (OWASP's CSV injection)."""


def safe_cell(value):
    """A CSV cell that no spreadsheet runs: text starting like a formula gets a ``'``.

    >>> print(safe_cell('=HYPERLINK("http://x", "y")'), safe_cell("12.5"), safe_cell("Doe, Jane"))
    '=HYPERLINK("http://x", "y") 12.5 Doe, Jane
    """
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


class SafeWriter:
    """``csv.writer`` whose every cell goes through :func:`safe_cell`."""

    def __init__(self, fh, **kwargs):
        self._writer = csv.writer(fh, **kwargs)

    def writerow(self, row):
        self._writer.writerow([safe_cell(x) for x in row])


def _write_canvas(path, rows, assignment, max_total, column):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = SafeWriter(fh)
        w.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", column or assignment])
        w.writerow(["Points Possible", "", "", "", "", _num(max_total)])
        for r in rows:
            w.writerow([r["display"], r["lms_id"], "", "", "", r["grade"]])


def _write_moodle(path, rows, assignment, max_total, column):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = SafeWriter(fh)
        w.writerow(["Identifier", "Full name", "Grade", "Maximum Grade"])
        for r in rows:
            w.writerow([f"Participant {r['lms_id']}", r["display"], r["grade"], _num(max_total)])


def _write_blackboard(path, rows, assignment, max_total, column):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = SafeWriter(fh)
        w.writerow(["Username", column or f"{assignment} [Total Pts: {_num(max_total)} Score]"])
        for r in rows:
            w.writerow([r["lms_id"], r["grade"]])


def _num(x):
    return f"{x:g}"


class Format(NamedTuple):
    name: str
    parse: object
    grade_file: str          # '' when the format has none
    write: object
    examples: tuple          # realistic names, for the error message and the tests


FORMATS = {
    "generic": Format("generic", _generic, "", None,
                      ("jdoe_48213_1_statics.ipynb",)),
    "canvas": Format("canvas", _canvas, "canvas_grades.csv", _write_canvas,
                     ("doejohn_48213_7730211_statics.ipynb",)),
    "moodle": Format("moodle", _moodle, "moodle_grades.csv", _write_moodle,
                     ("Jane Doe_104211_assignsubmission_file_/statics.ipynb",)),
    "blackboard": Format("blackboard", _blackboard, "blackboard_grades.csv", _write_blackboard,
                         ("Statics_jdoe_attempt_2026-03-02-14-05-33_statics.ipynb",)),
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


def write_grade_file(lms, path, rows, assignment, max_total, column=None):
    """Write the LMS's import file: ``rows`` of ``{"display", "lms_id", "grade"}``
    (``grade`` '' for a score held back). Returns the path, or None for ``generic``."""
    fmt = FORMATS[lms]
    if not fmt.write:
        return None
    fmt.write(path, rows, assignment, max_total, column)
    return path
