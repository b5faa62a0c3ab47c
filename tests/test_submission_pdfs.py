"""One PDF per submission (issue 36, item 4): printed by the system's Chromium, read back with
poppler's ``pdftotext``, named for each LMS's bulk upload."""

import csv
import shutil
import subprocess
import zipfile

import pytest

from armlab.grading import submission_pdfs

pytestmark = pytest.mark.browser

# A feedback page shaped as nbgrader's (its title, the score, a graded cell and its output),
# under the page's Content-Security-Policy as armlab writes it.
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self' 'unsafe-inline'">
<title>statics.ipynb</title></head><body>
<h1>statics.ipynb (Score: {score} / 8.0)</h1>
<div class="cell code_cell"><pre>def torques(J, f):
    tau = J.T @ f   # {student}'s answer
    return tau</pre>
<pre class="output">[ 1.25 -3.5 ]</pre></div>
<p>Part 1: the torques of a tip force (Score: {score} / 8.0)</p>
</body></html>"""


def _round(tmp_path):
    folder = tmp_path / "statics"
    (folder / "feedback").mkdir(parents=True)
    with open(folder / "grades.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerows([["student", "lms_id", "part1", "part2", "total", "status"],
                     ["annsmith", "48213", "5", "1.5", "6.5", "ok"],
                     ["o_brien_pat", "48214", "", "", "", "review"]])
    for student, score in (("annsmith", "6.5"), ("o_brien_pat", "2.0")):
        (folder / "feedback" / f"{student}.html").write_text(
            PAGE.format(student=student, score=score))
    export = tmp_path / "export"
    export.mkdir()
    for name in ("annsmith_48213_7730211_statics.ipynb",
                 "annsmith_48213_7730299_statics-1.ipynb",      # the resubmission is graded
                 "o_brien_pat_LATE_48214_7730300_statics.ipynb"):
        (export / name).write_text("{}")
    return folder, export


def _text(path):
    """The PDF's text as ``pdftotext -layout`` reads it, runs of white space made one."""
    return " ".join(subprocess.run(["pdftotext", "-layout", str(path), "-"],
                                   capture_output=True, text=True, check=True).stdout.split())


def test_each_submission_prints_with_its_answer_and_scores_named_for_canvas(tmp_path,
                                                                            chromium):
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is absent (apt-get install poppler-utils)")
    folder, export = _round(tmp_path)
    written = submission_pdfs.make_pdfs(folder, "canvas", export, browser=chromium)
    assert [p.name for p in written] == ["annsmith_48213_7730299_statics.pdf",
                                         "obrienpat_48214_7730300_statics.pdf", "pdfs.zip"]
    ann = _text(written[0])
    assert "tau = J.T @ f # annsmith's answer" in ann
    assert "[ 1.25 -3.5 ]" in ann
    assert "Assignment statics; LMS id 48213; total: 6.5 part1 part2 total 5 1.5 6.5" in ann
    assert "Part 1: the torques of a tip force (Score: 6.5 / 8.0)" in ann
    held = _text(written[1])
    assert "total: held for review, no score given" in held
    assert "o_brien_pat's answer" in held
    with zipfile.ZipFile(written[2]) as zf:
        assert zf.namelist() == [p.name for p in written[:2]]


def test_pdfs_named_for_moodles_feedback_zip_and_for_gradescope(tmp_path, chromium):
    folder, _ = _round(tmp_path)
    (folder / "grades.csv").write_text(
        (folder / "grades.csv").read_text().replace("48213", "104211").replace(
            "48214", "104377"))
    written = submission_pdfs.make_pdfs(folder, "moodle", browser=chromium)
    assert [p.name for p in written] == [
        "annsmith_104211_assignfeedback_file_statics.pdf",
        "o-brien-pat_104377_assignfeedback_file_statics.pdf", "pdfs.zip"]
    written = submission_pdfs.make_pdfs(folder, "generic", browser=chromium)
    assert [p.name for p in written] == ["annsmith.pdf", "o_brien_pat.pdf"]


def test_bad_arguments_name_themselves(tmp_path):
    folder, _ = _round(tmp_path)
    with pytest.raises(ValueError, match="^submissions: Canvas matches"):
        submission_pdfs.make_pdfs(folder, "canvas")
    with pytest.raises(ValueError, match="^folder: .* holds no grades.csv"):
        submission_pdfs.make_pdfs(tmp_path, "generic")
    with pytest.raises(ValueError, match="^lms: one of"):
        submission_pdfs.make_pdfs(folder, "sakai")
    assert submission_pdfs.main([str(tmp_path), "--lms", "generic"]) == 2
