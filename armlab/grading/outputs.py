"""What a grading round writes: grades, the report, the LMS's grade file, the feedback pages.

Every file depends only on the submissions, the solutions and the course secret, so two
rounds on the same input give byte-identical files. What a student wrote is inert where an
instructor opens it: CSV cells are escaped (:class:`armlab.grading.lms.SafeWriter`), the
feedback pages are sanitized and carry a strict Content-Security-Policy (:data:`CSP`) that
runs only MathJax from files beside them (:data:`_MATHJAX_SETTINGS`: no formula keeps an
address).
"""

import html
import importlib.util
import pathlib
import re
import shutil

import nbformat

from nbconvert.preprocessors import Preprocessor
from nbconvert.preprocessors.sanitize import SanitizeHTML
from nbgrader.preprocessors import ClearHiddenTests
from traitlets import Bool

from armlab.grading import lms as _lms
from armlab.grading.lms import fmt_score

MATHJAX = "mathjax/tex-svg-full.js"
"""Where, inside ``feedback/``, the pages find their local copy of MathJax: the build with
every TeX extension in it, since a page cannot fetch one (``\\boldsymbol``) from a CDN."""
MATHJAX_CONFIG = "mathjax/config.js"
MATHJAX_SAFE = "mathjax/ui/safe.js"
"""MathJax's ``safe`` extension, which the settings load (:data:`_MATHJAX_SETTINGS`)."""
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; font-src 'self' data:; base-uri 'none'; form-action 'none'")
"""The feedback pages' Content-Security-Policy: scripts only from files of the feedback
folder (no inline script, no event handler attribute, no ``javascript:`` link runs)."""
_MATHJAX_SETTINGS = """window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']],
                        displayMath: [['$$', '$$'], ['\\\\[', '\\\\]']],
                        processEscapes: true},
                  svg: {fontCache: 'global'},
                  loader: {load: ['ui/safe']},
                  options: {safeOptions: {allow: {URLs: 'none', classes: 'safe',
                                                  cssIDs: 'safe', styles: 'safe'}}}};
"""
"""MathJax's settings on a feedback page. The sanitizer runs before MathJax, so it sees
``$$\\href{javascript:...}{x}$$`` as text; typeset, that would be a live link (so would
``\\mmlToken{mi}[href=...]``). MathJax's ``safe`` extension filters the attributes of every
formula before it is shown; with ``URLs: 'none'`` no formula keeps an address at all. Its
``'safe'`` setting checks the scheme by a pattern that ``java<newline>script:`` passes (a
browser drops the newline), and an honest formula needs no link. If ``safe.js`` fails to
load, MathJax typesets nothing: the formulas stay inert text."""


class HideHiddenTests(ClearHiddenTests):
    """nbgrader's :class:`~nbgrader.preprocessors.ClearHiddenTests` on the test cells only (a
    student's own cell may hold its markers), with a line where the hidden tests were."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and cell.get("metadata", {}).get("nbgrader", {}).get(
                "grade") and self._remove_hidden_test_region(cell):
            cell.source += "\n# (hidden tests run here; their source is not shown)"
        return cell, resources


class PartialCreditInWords(Preprocessor):
    """A test cell's partial credit in words on its feedback page. The graded notebook
    carries the points a design earned as the cell's value, which is how nbgrader reads
    partial credit (:func:`armlab.grading.execute.test_outputs`); a feedback page would show
    that as a bare ``Out[ ]: 1.68``. nbgrader has read the score by then (the page's scores
    come from the gradebook), so the value becomes a line that says what it is."""

    enabled = Bool(True).tag(config=True)

    def preprocess_cell(self, cell, resources, index):
        nbgrader = cell.get("metadata", {}).get("nbgrader", {})
        if not nbgrader.get("grade") or cell.cell_type != "code":
            return cell, resources
        for k, output in enumerate(cell.get("outputs", [])):
            if output.get("output_type") == "execute_result":
                earned = output.get("data", {}).get("text/plain", "")
                points = fmt_score(float(nbgrader.get("points", 0)))
                cell.outputs[k] = nbformat.v4.new_output(
                    "stream", name="stdout",
                    text=f"Partial credit: {earned} of this check's {points} points\n")
        return cell, resources


_FORMULA = re.compile(r"\$\$.+?\$\$|\$[^$\n]+?\$", re.S)
"""A formula in markdown, $$...$$ or $...$."""


class SanitizeFeedback(SanitizeHTML):
    """nbconvert's HTML sanitizer on every cell of a feedback page (markdown, raw and
    rich outputs), removing what it does not know rather than showing it escaped.

    It escapes ``<``, ``>`` and ``&`` in a markdown cell as ``&lt;``, ``&gt;``, ``&amp;``;
    inside a formula the markdown renderer would escape those again and MathJax would show
    ``&lt;`` (or ``amp;`` in a matrix): there they become TeX's ``\\lt`` and ``\\gt``, and
    ``&`` again (which can make an entity, never a tag). A code span keeps the entity, which
    the page shows as such: an exercise's text writes no ``<`` in code.

    >>> from nbformat.v4 import new_markdown_cell
    >>> cell, _ = SanitizeFeedback().preprocess_cell(
    ...     new_markdown_cell("$|g| < 8$ N m, $s > 0$, $[a & b]$, a < b"), {}, 0)
    >>> print(cell.source)
    $|g| \\lt  8$ N m, $s \\gt  0$, $[a & b]$, a &lt; b
    """

    enabled = Bool(True).tag(config=True)

    def preprocess_cell(self, cell, resources, cell_index):
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if cell.cell_type == "markdown":
            cell.source = _FORMULA.sub(lambda m: m.group(0).replace("&lt;", "\\lt ").replace(
                "&gt;", "\\gt ").replace("&amp;", "&"), cell.source)
        return cell, resources


# ---------------------------------------------------------------- grades
def write_grades(path, parts, students, grades, lms_ids, problems):
    """``grades.csv``: ``student, lms_id``, one column per part (its key), ``total``, ``status``.

    ``status`` is ``ok``, or ``review`` when tampering cannot be excluded: that
    student's scores are then left empty (held back for a human look).
    """
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = _lms.SafeWriter(fh)
        w.writerow(["student", "lms_id"] + [key for key, *_ in parts] + ["total", "status"])
        for student in students:
            row = grades[student]
            if problems.needs_review(student):
                scores, status = [""] * (len(parts) + 1), "review"
            else:
                scores = [fmt_score(row[key]) for key, *_ in parts] + [fmt_score(row["total"])]
                status = "ok"
            w.writerow([student, lms_ids.get(student, "")] + scores + [status])


def write_lms_file(out, lms, assignment, parts, students, grades, lms_ids, names, problems,
                   target=None):
    """The LMS's grade-import file in ``out`` (none for the generic format), into the column
    ``target`` names (:func:`armlab.grading.lms.grade_target`, from the LMS's own gradebook
    export or ``--lms-column``). What the file leaves out or the LMS would read otherwise
    (:func:`armlab.grading.lms.grade_file_problems`) goes into ``problems``."""
    fmt = _lms.FORMATS[lms]
    if not fmt.write:
        return None
    rows = []
    for student in students:
        held = problems.needs_review(student)
        rows.append({"display": names.get(student, student),
                     "lms_id": lms_ids.get(student, student),
                     "grade": "" if held else fmt_score(grades[student]["total"])})
    max_total = sum(p[3] for p in parts)
    by_id = {r["lms_id"]: s for s, r in zip(students, rows)}
    for lms_id, problem, detail in _lms.grade_file_problems(lms, rows, target, max_total):
        problems.add(by_id.get(lms_id, "(round)"), problem, detail)
    return _lms.write_grade_file(lms, pathlib.Path(out) / fmt.grade_file, rows, assignment,
                                 max_total, target)


# ---------------------------------------------------------------- the report
def write_report(out, assignment, parts, students, grades, problems, issues, notes):
    """``report.csv`` (one row per problem) and ``report.md`` (scores, problems, checks)."""
    out = pathlib.Path(out)
    with open(out / "report.csv", "w", newline="", encoding="utf-8") as fh:
        w = _lms.SafeWriter(fh)
        w.writerow(["student", "problem", "detail"])
        for r in problems.sorted():
            w.writerow(r)
    max_total = sum(p[3] for p in parts)
    lines = [f"# Grading report: {assignment}", ""]
    lines += [f"- {note}" for note in notes] + [""]
    lines += ["| part | title | points |", "| --- | --- | ---: |"]
    lines += [f"| {key} | {title} | {fmt_score(pts)} |" for key, title, _c, pts in parts]
    lines += ["", "| student | " + " | ".join(k for k, *_ in parts) + " | total | status |",
              "|---" * (len(parts) + 3) + "|"]
    for s in students:
        status = "**review**" if problems.needs_review(s) else "ok"
        lines.append(f"| {s} | " + " | ".join(fmt_score(grades[s][k]) for k, *_ in parts)
                     + f" | {fmt_score(grades[s]['total'])} / {fmt_score(max_total)} | {status} |")
    lines += ["", "A score marked **review** is not in `grades.csv` nor in the LMS file: the "
              "report below says why; a human decides.", "", "## Problems", ""]
    if not problems.rows:
        lines.append("None.")
    for student, problem, detail in problems.sorted():
        lines.append(f"- **{student}**: {problem}: {detail}")
    lines += ["", "## Gradebook", "",
              "Integrity check passed." if not issues else "Integrity check FAILED:"]
    lines += [f"- {i}" for i in issues]
    (out / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


# ---------------------------------------------------------------- feedback
def cell_titles(source_nb, parts):
    """``{grade id: title}`` from each test cell's part heading and its one-line docstring
    (statics' first: "Part 1: the torques of a tip force: check tau on the wall push of
    Example 1")."""
    part_of = {cell: title for _key, title, cells, _p in parts for cell in cells}
    titles = {}
    for cell in source_nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        gid = meta.get("grade_id")
        if not meta.get("grade") or gid not in part_of:
            continue
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        first = src.strip().splitlines()[0] if src.strip() else ""
        doc = first.strip('"\' ') if first.startswith(('"""', "'''")) else ""
        part = re.sub(r"\s*\(\d+(\.\d+)? points?\)$", "", part_of[gid])
        titles[gid] = f"{part}: {doc[0].lower() + doc[1:]}" if doc else part
    return titles


_MATHJAX_V2 = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)
_MATHJAX_V3 = """<!-- MathJax, served from the feedback folder (no CDN) -->
<script src="%s"></script>
<script defer src="%s"></script>"""
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>.*?</script>", re.S | re.I)
_URL_ATTRIBUTE = re.compile(r"""\b(href|src|action|formaction|xlink:href)\s*=\s*(["'])(.*?)\2""",
                            re.S | re.I)


def _inert_url(match):
    """A link's address, unless it is one a browser would run (``javascript:``, ``data:``,
    ``vbscript:``; whitespace and control characters are ignored, as browsers do)."""
    value = re.sub(r"[\x00-\x20]", "", html.unescape(match.group(3))).lower()
    if value.startswith(("javascript:", "vbscript:", "data:text/html")):
        return f'{match.group(1)}={match.group(2)}#{match.group(2)}'
    return match.group(0)


def local_mathjax():
    """The path of MathJax's self-contained ``tex-svg-full.js`` from the installed
    ``sphinx-mathjax-offline`` package (the book serves the same copy), or None. The
    plain ``tex-svg.js`` loads extensions such as ``boldsymbol`` on demand from files
    beside it, which a feedback page does not have: it then stops typesetting."""
    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = pathlib.Path(list(spec.submodule_search_locations)[0], "static", "mathjax",
                        "tex-svg-full.js")
    return path if path.is_file() else None


def polish_feedback(text, titles):
    """One feedback page, made readable offline: the index names each test cell's
    part and check instead of "Test cell", and MathJax comes from the local copy."""
    for gid, title in titles.items():
        text = text.replace(f'<a href="#{gid}">Test cell</a>',
                            f'<a href="#{gid}">{html.escape(title)}</a>')
    text = _INLINE_SCRIPT.sub("", _MATHJAX_V2.sub("<!-- mathjax -->", text, count=1))
    text = _URL_ATTRIBUTE.sub(_inert_url, text)
    text = text.replace("<!-- mathjax -->", _MATHJAX_V3 % (MATHJAX_CONFIG, MATHJAX), 1)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
    return re.sub(r"<head([^>]*)>", lambda m: f"<head{m.group(1)}>\n{meta}", text, count=1)


def copy_mathjax(folder, mathjax):
    """MathJax, its ``safe`` extension and its settings into a feedback folder."""
    (folder / MATHJAX_SAFE).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(mathjax, folder / MATHJAX)
    shutil.copyfile(pathlib.Path(mathjax).parent / "ui" / "safe.js", folder / MATHJAX_SAFE)
    (folder / MATHJAX_CONFIG).write_text(_MATHJAX_SETTINGS, encoding="utf-8")


def write_feedback(pages, out, titles, problems):
    """Copy ``{student: html path}`` into ``out/feedback/<student>.html``, polished,
    with the local MathJax beside them."""
    folder = pathlib.Path(out) / "feedback"
    folder.mkdir(parents=True, exist_ok=True)
    mathjax = local_mathjax()
    if mathjax is None:
        problems.add("(round)", "feedback without local MathJax",
                     "sphinx-mathjax-offline is not installed: formulas show as TeX")
    else:
        copy_mathjax(folder, mathjax)
    for student, page in sorted(pages.items()):
        text = pathlib.Path(page).read_text(encoding="utf-8")
        (folder / f"{student}.html").write_text(polish_feedback(text, titles), encoding="utf-8")
