"""Each step of a grading round on its own, and the round's error paths.

A bad input stops the round with one line on stderr and exit status 2, before
anything is written: the previous round's results stay byte for byte.
"""

import json
import pathlib
import sqlite3
import zipfile

import pytest

from armlab.grading import autograde, outputs
from armlab.grading.autograde import GradingError, Round
from armlab.grading.census import Problems
from exercise_sets import ExerciseSet

REPO = pathlib.Path(__file__).resolve().parents[1]
SET = ExerciseSet("statics")


@pytest.fixture
def previous(tmp_path):
    """An output folder holding a previous round's results."""
    out = tmp_path / "grading" / "statics"
    (out / "feedback").mkdir(parents=True)
    (out / "grades.csv").write_text("student,lms_id,total,status\nann,1,30,ok\n")
    (out / "feedback" / "ann.html").write_text("<p>last week's feedback</p>")
    return out


def _snapshot(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _zip(path, members):
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def _bad_inputs(tmp_path):
    empty_zip = _zip(tmp_path / "empty.zip", {})
    evil = _zip(tmp_path / "evil.zip", {"../archive_evil/x": b"x", "/abs/evil.txt": b"y"})
    unnamed = _zip(tmp_path / "unnamed.zip", {"statics.ipynb": b"{}", "notes.txt": b"hi"})
    corrupt = tmp_path / "corrupt.zip"
    corrupt.write_bytes(b"PK\x03\x04 this is not a zip file" + b"\0" * 40)
    good = _zip(tmp_path / "good.zip", {"ann_1_1_statics.ipynb": json.dumps(SET.filled())})
    return [
        (["gravty", str(good)], "unknown assignment 'gravty': the assignments are "
         + ", ".join(sorted(p.name for p in (REPO / "solutions").iterdir() if p.is_dir()))),
        (["statics", str(tmp_path / "missing.zip")], "missing.zip: no such file or folder"),
        (["statics", str(empty_zip)], "empty.zip is empty: no submission to grade"),
        (["statics", str(evil)], "no file in"),
        (["statics", str(unnamed)], "no file in"),
        (["statics", str(corrupt)], "corrupt.zip is neither a folder nor a zip file"),
        (["statics", str(good), "--lms", "moodle"], "named as a moodle export is"),
        (["statics", str(good), "--pattern", "(unclosed"], "--pattern is not a regular"),
        (["statics", str(good), "--db-url", "sqlite:////nonexistent/dir/x.db"],
         "cannot reach the gradebook"),
    ]


def test_bad_inputs_stop_with_one_line_and_keep_the_previous_results(tmp_path, previous,
                                                                     capsys):
    before = _snapshot(previous.parent)
    for argv, start in _bad_inputs(tmp_path):
        status = autograde.main(argv + ["--out", str(previous)])
        out, err = capsys.readouterr()
        assert status == 2, argv
        assert err.startswith("error: ") and err.count("\n") == 1, err
        assert start in err, (start, err)
        assert "Traceback" not in err + out
        assert _snapshot(previous.parent) == before, argv
    assert not (tmp_path / "archive_evil").exists()


def test_the_output_may_not_hold_the_submissions(tmp_path):
    export = tmp_path / "out" / "export"
    export.mkdir(parents=True)
    (export / "ann_1_1_statics.ipynb").write_text("{}")
    with pytest.raises(GradingError, match="holds the submissions"):
        autograde.check_inputs(Round("statics", export, out=tmp_path / "out"))


def test_extract_writes_only_inside_the_folder(tmp_path):
    archive = _zip(tmp_path / "a.zip", {"../archive_evil/x": b"x", "/abs/evil.txt": b"y",
                                        "sub/../../archive_evil2/y": b"z",
                                        "ok/ann_1_1_statics.ipynb": b"{}"})
    problems = Problems()
    autograde.extract(archive, tmp_path / "dest", problems)
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")
                     if p.is_file())
    assert written == ["a.zip", "dest/ok/ann_1_1_statics.ipynb"]
    assert {r[2].split(":")[0] for r in problems.rows} == {
        "../archive_evil/x", "/abs/evil.txt", "sub/../../archive_evil2/y"}
    assert {r[1] for r in problems.rows} == {"unsafe path in the archive"}


def test_stage_and_publish_replace_the_results_only_at_the_end(tmp_path, previous):
    r = Round("statics", tmp_path, out=previous, progress=False)
    autograde.stage(r)
    (r.staged / "grades.csv").write_text("new")
    assert (previous / "grades.csv").read_text().startswith("student")   # untouched so far
    autograde.publish(r)
    assert (previous / "grades.csv").read_text() == "new"
    assert not (previous / "feedback").exists() and not r.staged.exists()
    assert sorted(p.name for p in previous.parent.iterdir()) == ["statics"]


def test_a_round_that_fails_midway_leaves_the_previous_results(tmp_path, previous,
                                                               monkeypatch):
    export = tmp_path / "export"
    export.mkdir()
    (export / "ann_1_1_statics.ipynb").write_text(json.dumps(SET.filled()))
    before = _snapshot(previous.parent)

    def broken(*args):
        raise RuntimeError("the disk is full")
    monkeypatch.setattr(autograde, "inspect", broken)
    with pytest.raises(RuntimeError, match="disk is full"):
        autograde.grade("statics", export, out=previous, progress=False)
    assert _snapshot(previous.parent) == before


def test_collect_picks_each_students_notebook(tmp_path):
    export = tmp_path / "export"
    export.mkdir()
    nb = json.dumps(SET.filled())
    files = {
        "doejohn_48213_7730211_statics.ipynb": nb,
        "doejohn_48213_7730299_statics-1.ipynb": nb.replace("statics", "statics", 1) + " ",
        "smithann_LATE_48214_7730300_statics.ipynb": nb,
        "smithann_48214_7730301_scratch.py": "print(1)",
        "leebo_48215_7730302_notes.txt": "I ran out of time",
        "README.txt": "not a submission",
    }
    for name, text in files.items():
        (export / name).write_text(text)
    r = Round("statics", export, out=tmp_path / "out", lms="canvas", progress=False)
    r.master.mkdir(parents=True)
    problems = Problems()
    roster = autograde.collect(r, problems)
    assert roster.students == ["doejohn", "leebo", "smithann"]
    assert roster.lms_ids == {"doejohn": "48213", "smithann": "48214", "leebo": "48215"}
    chosen = r.master / "submitted" / "doejohn" / "statics" / "statics.ipynb"
    assert chosen.read_text().endswith(" ")                       # the resubmission
    assert sorted((s, p) for s, p, _ in problems.rows) == [
        ("(unknown)", "file name not understood"), ("leebo", "extra file"),
        ("leebo", "missing notebook"), ("smithann", "extra file"),
        ("smithann", "late submission")]


def test_parts_of_the_statics_set():
    parts = autograde.parts_of(SET.source())
    assert [(k, pts) for k, _t, _c, pts in parts] == [
        ("part1", 3), ("part2", 5), ("part3", 3), ("part4", 6), ("part5", 4), ("part6", 4),
        ("part7", 3), ("part8", 6), ("part9", 3), ("part10", 6)]
    assert parts[0][2] == ["test_torques_worked", "test_torques_fresh"]


def test_inspect_runs_the_census(tmp_path):
    r = Round("statics", tmp_path, out=tmp_path / "out", progress=False)
    for student, nb in (("ann", SET.filled()), ("bob", b"not json")):
        folder = r.master / "submitted" / student / "statics"
        folder.mkdir(parents=True)
        data = nb if isinstance(nb, bytes) else json.dumps(nb).encode()
        (folder / "statics.ipynb").write_bytes(data)
    problems = Problems()
    assert autograde.inspect(r, ["ann", "bob"], SET.release(), problems) == ["ann"]
    assert [(s, p) for s, p, _ in problems.sorted()] == [("bob", "invalid notebook")]


@pytest.mark.slow
def test_prepare_tally(tmp_path):
    """The gradebook steps without grading: every student gets an empty submission, scores
    zero, and the gradebook passes its check."""
    r = Round("statics", tmp_path, out=tmp_path / "out", progress=False)
    autograde.stage(r)
    parts = autograde.parts_of(autograde.prepare(r)[0])
    students = ["ann", "bob"]
    grades, issues = autograde.tally(r, students, [], {}, parts, Problems())
    assert grades == {s: dict({k: 0.0 for k, *_ in parts}, total=0.0) for s in students}
    assert issues == []
    con = sqlite3.connect(r.staged / "gradebook.db")
    assert con.execute("SELECT COUNT(*) FROM submitted_assignment").fetchone()[0] == 2
    con.close()


def test_the_round_writes_its_gradebook_from_the_results(tmp_path):
    """A worker grades into a gradebook of its own (a copy of the assignment's); the round
    writes what each result says nbgrader recorded there into its gradebook, which then
    holds the same grades and comments, and passes its check."""
    import shutil

    from nbgrader.api import Gradebook

    from armlab.grading.gradebook import submission_rows
    from armlab.grading.result import Result

    r = Round("statics", tmp_path, out=tmp_path / "out", progress=False)
    autograde.stage(r)
    parts = autograde.parts_of(autograde.prepare(r)[0])
    shutil.copyfile(r.template, tmp_path / "own.db")
    own = "sqlite:///" + str(tmp_path / "own.db")
    with Gradebook(own) as gb:
        gb.update_or_create_student("ann")
        for nb in gb.add_submission("statics", "ann", timestamp="2026-01-02 03:04:05").notebooks:
            for grade in nb.grades:
                grade.auto_score, grade.needs_manual_grade = grade.max_score / 2, False
            for comment in nb.comments:
                comment.auto_comment = f"{comment.name}: no response"
        gb.db.commit()
    scores, rows = submission_rows(own, "statics", "ann")
    results = {"ann": Result("ann", scores=scores, gradebook=rows, isolated=True)}
    grades, issues = autograde.tally(r, ["ann"], ["ann"], results, parts, Problems())
    assert (issues, grades["ann"]["total"]) == ([], sum(p[3] for p in parts) / 2)
    assert submission_rows(r.url, "statics", "ann") == (scores, rows)
    assert rows["timestamp"] == "2026-01-02T03:04:05"


def test_feedback_pages_name_the_parts_and_load_mathjax_locally():
    parts = autograde.parts_of(SET.source())
    titles = outputs.cell_titles(SET.source(), parts)
    assert titles["test_torques_worked"] == \
        "Part 1: the torques of a tip force: check tau on the wall push of Example 1"
    page = ('<script src="https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.7/latest.js">'
            '</script>')
    page = ("<!-- Load mathjax -->" + page + "<!-- End of mathjax configuration -->"
            '<li><a href="#test_torques_worked">Test cell</a> (Score: 1.0 / 1.0)</li>')
    text = outputs.polish_feedback(page, titles)
    assert "cdnjs" not in text and '<script defer src="mathjax/tex-svg-full.js"></script>' in text
    assert ('<a href="#test_torques_worked">Part 1: the torques of a tip force: check tau on '
            'the wall push of Example 1</a>') in text
    assert outputs.local_mathjax().name == "tex-svg-full.js"


def test_grading_processes_start_without_the_iri_parsers():
    """skip_iri_syntax (which the round, its workers and the release run first): nbformat
    still validates a notebook, without the 38 parsers rfc3987_syntax builds (1.4 s a
    process)"""
    import subprocess
    import sys

    code = ("import sys\n"
            "from armlab.grading.release import skip_iri_syntax\n"
            "skip_iri_syntax()\n"
            "import nbformat\n"
            "nb = nbformat.read('solutions/statics/statics.ipynb', as_version=4)\n"
            "nbformat.validate(nb)\n"
            "print('lark' in sys.modules, len(nb.cells) > 0)\n")
    root = pathlib.Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "True"]
