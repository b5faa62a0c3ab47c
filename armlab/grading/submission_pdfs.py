"""One PDF per submission, for grading by hand in Gradescope or the LMS (``make pdfs``).

``python -m armlab.grading.submission_pdfs ROUND [--lms NAME] [--submissions EXPORT]``
prints each feedback page of a finished round with headless Chromium (Playwright), headed
by the student's scores and status from ``grades.csv``, into ``ROUND/pdfs/`` (and
``pdfs.zip`` for Canvas and Moodle), named for the LMS's bulk upload (:func:`pdf_name`).
The browser runs on a closed network.
"""

import argparse
import csv
import html
import pathlib
import re
import sys
import zipfile

from armlab.grading import lms as _lms

CHROMIUM = pathlib.Path("/usr/bin/chromium")
#: As ``_ext/book_pdf.py`` launches it: headless, on a closed network.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]
FORMATS = tuple(_lms.FORMATS)


def pdf_name(lms, assignment, student, lms_id, file_id=""):
    """The PDF's file name for the LMS's bulk upload.

    >>> pdf_name("canvas", "statics", "o_brien_pat", "51277", "7731001")
    'obrienpat_51277_7731001_statics.pdf'
    >>> pdf_name("moodle", "statics", "li_wei-chen", "104390")
    'li-wei-chen_104390_assignfeedback_file_statics.pdf'
    >>> pdf_name("generic", "statics", "jdoe", "48213")
    'jdoe.pdf'
    """
    if lms == "canvas":
        if not (lms_id.isdigit() and file_id.isdigit()):
            raise ValueError(f"file_id: Canvas matches a PDF by the user id and the submitted "
                             f"file's id, both numbers; got {lms_id!r} and {file_id!r}")
        name = re.sub(r"[^a-z]", "", student.lower()) or "student"   # no digit, no '_'
        return f"{name}_{lms_id}_{file_id}_{assignment}.pdf"
    if lms == "moodle":
        if not lms_id.isdigit():
            raise ValueError(f"lms_id: Moodle's participant id is a number, got {lms_id!r}")
        return f"{student.replace('_', '-')}_{lms_id}_assignfeedback_file_{assignment}.pdf"
    if lms in ("generic", "blackboard"):
        return f"{student}.pdf"
    raise ValueError(f"lms: one of {', '.join(FORMATS)}, got {lms!r}")


def canvas_file_ids(submissions, notebook):
    """``{user id: file id}`` of each student's latest notebook in a Canvas export (a zip or a
    folder), read from its file names (``doejohn_LATE_48213_7730211_statics-1.ipynb``)."""
    path = pathlib.Path(submissions)
    if path.is_dir():
        names = [p.relative_to(path).as_posix() for p in path.rglob("*") if p.is_file()]
    else:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    best = {}
    for name in names:
        found = _lms.parse(name, "generic", notebook)   # <login>_<user id>_<file id>_<file>
        if found and _lms.canonical_file(found.file, notebook) == notebook:
            key = _lms.resubmission(found.file)
            if found.lms_id not in best or key > best[found.lms_id][0]:
                best[found.lms_id] = (key, found.attempt)
    return {user: file_id for user, (_key, file_id) in best.items()}


def read_round(folder):
    """The round's rows of ``grades.csv`` (as dicts) and the part keys, in order."""
    with open(pathlib.Path(folder) / "grades.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
        parts = [c for c in (rows[0].keys() if rows else []) if c not in
                 ("student", "lms_id", "total", "status")]
    return rows, parts


def banner(row, parts, assignment):
    """The block printed first: who, and every score ``grades.csv`` gives."""
    held = row["status"] == "review"
    cells = "".join(f"<td>{html.escape(row[p]) or '-'}</td>" for p in parts)
    total = ("held for review, no score given" if held
             else f"{html.escape(row['total'])}")
    return (f'<div id="armlab-banner" style="border:2px solid #333; padding:0.6em; '
            f'margin-bottom:1em; font: 14px sans-serif;">'
            f"<h1 style='font-size:20px; margin:0 0 0.3em 0'>{html.escape(row['student'])}"
            f"</h1><p>Assignment {html.escape(assignment)}; LMS id "
            f"{html.escape(row['lms_id']) or '-'}; total: {total}</p>"
            f"<table border='1' cellpadding='3'><tr>"
            + "".join(f"<th>{html.escape(p)}</th>" for p in parts) + "<th>total</th></tr>"
            f"<tr>{cells}<td>{html.escape(row['total']) or '-'}</td></tr></table></div>")


def print_pages(jobs, browser=None, timeout_s=120):
    """Print each ``(page, banner html, out)`` of ``jobs`` with one headless Chromium
    (``browser``, a Playwright browser, or the system's, launched here)."""
    if browser is None:
        from playwright.sync_api import sync_playwright

        if not CHROMIUM.exists():
            raise SystemExit(f"submission_pdfs: no browser, {CHROMIUM} is absent "
                             "(apt-get install chromium)")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                        headless=True)
            try:
                print_pages(jobs, browser, timeout_s)
            finally:
                browser.close()
        return
    for page_path, top, out in jobs:
        page = browser.new_page()
        try:
            page.set_default_timeout(timeout_s * 1000)
            page.goto(page_path.resolve().as_uri(), wait_until="load")
            if page.evaluate("() => !!document.querySelector('script[src*=mathjax]')"):
                # MathJax 3 typesets after load: wait for its promise
                page.wait_for_function("() => window.MathJax && MathJax.startup && "
                                       "MathJax.startup.promise")
                page.evaluate("() => MathJax.startup.promise")
            page.evaluate("(top) => document.body.insertAdjacentHTML('afterbegin', top)", top)
            page.evaluate("() => document.fonts.ready.then(() => true)")
            page.emulate_media(media="print")
            page.pdf(path=str(out), format="A4", print_background=True,
                     margin={"top": "14mm", "bottom": "14mm", "left": "12mm", "right": "12mm"})
        finally:
            page.close()


def make_pdfs(folder, lms="generic", submissions=None, assignment=None, browser=None):
    """Write one PDF per student of the round in ``folder`` (the feedback pages printed by
    ``browser``, or the system's Chromium); returns their paths (and the zip's, for Canvas
    and Moodle, last). Raises ValueError naming the argument that is wrong."""
    folder = pathlib.Path(folder)
    if lms not in FORMATS:
        raise ValueError(f"lms: one of {', '.join(FORMATS)}, got {lms!r}")
    if not (folder / "grades.csv").is_file():
        raise ValueError(f"folder: {folder} holds no grades.csv (a finished round's folder, "
                         "grading/<assignment>)")
    assignment = assignment or folder.name
    rows, parts = read_round(folder)
    file_ids = {}
    if lms == "canvas":
        if submissions is None:
            raise ValueError("submissions: Canvas matches a re-uploaded PDF by the id of the "
                             "file the student submitted, which only the export's file names "
                             "carry: pass the export (--submissions)")
        file_ids = canvas_file_ids(submissions, f"{assignment}.ipynb")
    out = folder / "pdfs"
    out.mkdir(exist_ok=True)
    jobs, missing = [], []
    for row in rows:
        page = folder / "feedback" / f"{row['student']}.html"
        if not page.is_file():
            missing.append(row["student"])
            continue
        name = pdf_name(lms, assignment, row["student"], row["lms_id"],
                        file_ids.get(row["lms_id"], ""))
        jobs.append((page, banner(row, parts, assignment), out / name))
    if missing:
        print(f"submission_pdfs: no feedback page for {', '.join(missing)}: no PDF",
              file=sys.stderr)
    print_pages(jobs, browser)
    written = [o for _p, _b, o in jobs]
    if lms in ("canvas", "moodle"):
        archive = folder / "pdfs.zip"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in written:
                zf.write(path, path.name)
        written.append(archive)
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m armlab.grading.submission_pdfs",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("round", help="a finished round's folder, grading/<assignment>")
    parser.add_argument("--lms", default="generic", choices=FORMATS,
                        help="name the PDFs for this LMS's bulk upload")
    parser.add_argument("--submissions", help="the LMS's export (Canvas: the file ids)")
    parser.add_argument("--assignment", help="the assignment (default: the folder's name)")
    args = parser.parse_args(argv)
    try:
        written = make_pdfs(args.round, args.lms, args.submissions, args.assignment)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"submission_pdfs: wrote {len(written)} files in {pathlib.Path(args.round)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
