"""The whole grading pipeline on the corpus of tests/submissions, in one run.

Every way a notebook can go wrong, graded together by the real nbgrader with
two workers: each gets its expected score and report line, no submission
earns a point it did not earn without being flagged, honest ones are graded
fully, and the merged gradebook passes its integrity check.
"""

import csv
import importlib.util
import json
import pathlib
import sqlite3
import zipfile

import pytest

from armlab.grading.autograde import grade

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("corpus", HERE / "submissions" / "corpus.py")
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    expected = corpus.build(root / "export")
    archive = root / "export.zip"                 # graded as the LMS hands it over: a zip
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted((root / "export").iterdir()):
            zf.write(path, path.name)
    summary = grade("statics", archive, out=root / "out", workers=2, timeout=10,
                    memory_mb=1536, progress=False)
    return expected, summary, root / "out"


def _csv(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_every_student_is_graded(graded):
    expected, summary, out = graded
    assert set(summary["students"]) == set(expected)
    rows = {r["student"]: r for r in _csv(out / "grades.csv")}
    assert set(rows) == set(expected)


@pytest.mark.parametrize("login", sorted(corpus.cases()))
def test_expected_score_and_report(graded, login):
    expected, summary, out = graded
    total, kinds = expected[login]
    rows = {r["student"]: r for r in _csv(out / "grades.csv")}
    got_total = float(rows[login]["total"])
    problems = {r["problem"] for r in _csv(out / "report.csv") if r["student"] == login}
    assert (got_total, problems) == (total, kinds)


def test_no_unearned_point_goes_unflagged(graded):
    """A score above what the honest work earns must come with a report line."""
    expected, summary, out = graded
    rows = {r["student"]: r for r in _csv(out / "grades.csv")}
    flagged = {r["student"] for r in _csv(out / "report.csv")}
    for login, (total, _kinds) in expected.items():
        got = float(rows[login]["total"])
        assert got <= total or login in flagged
    for login in corpus.honest():
        assert float(rows[login]["total"]) == expected[login][0]


def test_gradebook_integrity(graded):
    expected, summary, out = graded
    assert summary["gradebook_issues"] == []
    con = sqlite3.connect(out / "gradebook.db")
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        students = {r[0] for r in con.execute("SELECT id FROM student")}
        assert students == set(expected)
        n_sub = con.execute("SELECT COUNT(*) FROM submitted_assignment").fetchone()[0]
        assert n_sub == len(expected)
    finally:
        con.close()


def test_feedback_shows_messages_not_hidden_tests(graded):
    expected, summary, out = graded
    pages = sorted((out / "feedback").glob("*.html"))
    assert {p.stem for p in pages} >= set(expected) - {"missing", "notjson", "osexit"}
    for page in pages:
        html = page.read_text()
        assert "BEGIN HIDDEN TESTS" not in html
        assert "\"fresh\")" not in html
    wrong = (out / "feedback" / "wrongsign.html").read_text()
    assert "right size, wrong sign" in wrong
    ref = (out / "feedback" / "callsref.html").read_text()
    assert "switched off while your function is checked" in ref


def test_report_names_the_tampering(graded):
    expected, summary, out = graded
    details = [r["detail"] for r in _csv(out / "report.csv") if r["student"] == "patchnumpy"]
    assert any("np.allclose" in d for d in details)
    assert any("builtins.abs" in d for d in details)
    summary_md = (out / "report.md").read_text()
    assert "Integrity check passed" in summary_md


def test_second_run_gives_the_same_files(graded, tmp_path):
    """Same input, different worker count: byte-identical grades, report and feedback."""
    expected, summary, out = graded
    small = tmp_path / "export"
    small.mkdir()
    for path in sorted((out.parent / "export").iterdir()):
        if path.name.split("_")[0] in {"ref", "wrongsign", "blank", "liar"}:
            (small / path.name).write_bytes(path.read_bytes())
    runs = []
    for workers in (1, 2):
        dest = tmp_path / f"run{workers}"
        grade("statics", small, out=dest, workers=workers, timeout=10, progress=False)
        runs.append({p.relative_to(dest).as_posix(): p.read_bytes()
                     for p in sorted(dest.rglob("*")) if p.is_file() and p.suffix != ".db"})
    assert sorted(runs[0]) == sorted(runs[1])
    differ = [k for k in runs[0] if runs[0][k] != runs[1][k]]
    differ += [f"{name} vs the corpus run" for name in ("ref", "wrongsign", "blank", "liar")
               if runs[0][f"feedback/{name}.html"]
               != (out / "feedback" / f"{name}.html").read_bytes()]
    assert differ == []
    grades = {r["student"]: r for r in _csv(out / "grades.csv")}
    assert json.dumps(sorted(grades)) != "[]"
