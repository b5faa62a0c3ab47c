"""The whole grading pipeline on the corpus of tests/submissions, in one run.

Every way a notebook can go wrong, graded together by the real nbgrader with
two workers and a course secret: each gets its expected score and report line,
a score that tampering may have bought is held for review, honest ones are
graded fully, the merged gradebook passes its check, feedback pages help, and
two gradings with the same secret are byte-identical.
"""

import csv
import importlib.util
import json
import pathlib
import re
import sqlite3
import zipfile

import pytest

from armlab.grading.autograde import grade

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("corpus", HERE / "submissions" / "corpus.py")
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)

pytestmark = pytest.mark.slow
SECRET = "a course secret"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    expected = corpus.build(root / "export")
    archive = root / "export.zip"                 # graded as the LMS hands it over: a zip
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted((root / "export").iterdir()):
            zf.write(path, path.name)
        zf.writestr("../archive_evil/x", b"written outside?")   # unsafe members
        zf.writestr("/abs/evil.txt", b"written at the root?")
    summary = grade("statics", archive, out=root / "out", workers=2, timeout=10,
                    memory_mb=1536, progress=False, secret=SECRET)
    return expected, summary, root / "out"


def _csv(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_every_student_is_graded(graded):
    expected, summary, out = graded
    assert set(summary["students"]) == set(expected)
    rows = _csv(out / "grades.csv")
    assert {r["student"] for r in rows} == set(expected)
    assert list(rows[0]) == ["student", "lms_id"] + list(corpus.POINTS) + ["total", "status"]
    assert {r["lms_id"] for r in rows} == {str(1000 + k) for k in range(len(expected))}


@pytest.mark.parametrize("login", sorted(corpus.cases()))
def test_expected_score_and_report(graded, login):
    expected, summary, out = graded
    total, kinds = expected[login]
    problems = {r["problem"] for r in _csv(out / "report.csv") if r["student"] == login}
    assert (summary["grades"][login]["total"], problems) == (total, kinds)


def test_tampering_holds_the_score_for_review(graded):
    """grades.csv leaves a score empty (status review) exactly when tampering cannot be
    excluded; every other row has its scores and status ok."""
    expected, summary, out = graded
    for row in _csv(out / "grades.csv"):
        tampered = "suspected tampering" in expected[row["student"]][1]
        assert row["status"] == ("review" if tampered else "ok"), row["student"]
        scores = [row[k] for k in list(corpus.POINTS) + ["total"]]
        if tampered:
            assert scores == [""] * len(scores)
        else:
            assert float(row["total"]) == expected[row["student"]][0]


def test_no_unearned_point_goes_unflagged(graded):
    """A score above what the honest work earns must come with a report line."""
    expected, summary, out = graded
    flagged = {r["student"] for r in _csv(out / "report.csv")}
    for login, (total, _kinds) in expected.items():
        got = summary["grades"][login]["total"]
        assert got <= total or login in flagged
    for login in corpus.honest():
        assert summary["grades"][login]["total"] == expected[login][0]


def test_unsafe_archive_members_are_reported_not_written(graded):
    expected, summary, out = graded
    rows = [r for r in _csv(out / "report.csv") if r["student"] == "(archive)"]
    assert sorted(r["detail"].split(":")[0] for r in rows) == ["../archive_evil/x",
                                                               "/abs/evil.txt"]
    assert not (out.parent / "archive_evil").exists()
    assert not pathlib.Path("/abs/evil.txt").exists()


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
    assert sorted(p.name for p in (out / "logs").iterdir()) == ["worker0.log", "worker1.log"]


def test_kernels_talk_over_private_unix_sockets(graded):
    """No TCP ports for two workers' kernels to race for (ipykernel warns when it uses TCP),
    and each worker removes its sockets' folder when it ends"""
    expected, summary, out = graded
    for log in (out / "logs").iterdir():
        assert "running over TCP" not in log.read_text(), log.name
    started = (out / "grades.csv").stat().st_mtime - summary["seconds"] - 1
    assert [d for d in pathlib.Path("/tmp").glob("armlab-kernels-*")
            if d.stat().st_mtime > started] == []


def test_feedback_helps_and_hides(graded):
    expected, summary, out = graded
    pages = sorted((out / "feedback").glob("*.html"))
    assert {p.stem for p in pages} >= set(expected) - {"missing", "notjson", "osexit"}
    for page in pages:
        html = page.read_text()
        assert "BEGIN HIDDEN TESTS" not in html and '"fresh")' not in html
        assert "cdnjs" not in html and 'src="mathjax/tex-svg-full.js"' in html
        assert ">Test cell</a>" not in html
    assert (out / "feedback" / "mathjax" / "tex-svg-full.js").stat().st_size > 1_000_000
    wrong = " ".join((out / "feedback" / "wrongsign.html").read_text().split())
    assert "right size, wrong sign: the library reports the force on the arm" in wrong
    assert ('<a href="#test_sign_fresh">Part 7: a library with the other sign convention: '
            'check the torques for reported forces at other poses and arms</a> '
            '(Score: 0.0 / 2.0)') in wrong
    ref = " ".join((out / "feedback" / "callsref.html").read_text().split())   # lines broken
    assert "armlab.jacobian is switched off while your function is checked" in ref


def test_hidden_expected_values_never_reach_the_feedback(graded):
    """The one-wrong-entry Jacobian fails its hidden check: the page names the case in
    words and shows the student's value, never the expected one."""
    from armlab.grading.cases import student_key
    from armlab.grading.purepy import fmt
    from armlab.grading.references import lookup

    expected, summary, out = graded
    html = " ".join((out / "feedback" / "onewrongentry.html").read_text().split())
    ref = lookup("statics.jacobian")
    case = ref.cases("fresh", key=student_key(SECRET, "onewrongentry"))[0]
    assert "jacobian(arm, q) is wrong at q = (" in html
    for row in ref.function(*ref.arguments(case)):
        for x in row:
            if abs(x) > 1e-3:
                assert fmt(x) not in html


def test_report_names_the_tampering(graded):
    expected, summary, out = graded
    details = [r["detail"] for r in _csv(out / "report.csv") if r["student"] == "patchnumpy"]
    assert any("np.allclose" in d for d in details)
    assert any("builtins.abs" in d for d in details)
    code = [r["detail"] for r in _csv(out / "report.csv") if r["student"] == "codepatch"]
    assert any("check_function.__code__" in d for d in code)
    assert any("restored the code of check_function" in d for d in code)
    summary_md = (out / "report.md").read_text()
    assert "Integrity check passed." in summary_md
    assert "fresh cases drawn from the course secret" in summary_md


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix != ".db" and "logs" not in p.parts}


def test_same_secret_same_files_and_students_get_their_own_cases(graded, tmp_path):
    """Regrading with the same secret (and another number of workers) gives byte-identical
    files, feedback included; two students with the same wrong answer are checked at
    different cases; another secret changes the cases."""
    expected, summary, out = graded
    small = tmp_path / "export"
    small.mkdir()
    keep = {"ref", "wrongsign", "blank", "liar", "onewrongentry"}
    for path in sorted((out.parent / "export").iterdir()):
        if path.name.split("_")[0] in keep:
            (small / path.name).write_bytes(path.read_bytes())
    twin = next(p for p in small.iterdir() if p.name.startswith("onewrongentry_"))
    (small / twin.name.replace("onewrongentry_", "twin_")).write_bytes(twin.read_bytes())
    runs = {}
    for name, workers, secret in (("a", 1, SECRET), ("b", 2, SECRET), ("c", 1, "another")):
        dest = tmp_path / f"run-{name}"
        grade("statics", small, out=dest, workers=workers, timeout=10, progress=False,
              secret=secret)
        runs[name] = _files(dest)
    assert sorted(runs["a"]) == sorted(runs["b"])
    assert [k for k in runs["a"] if runs["a"][k] != runs["b"][k]] == []
    assert [n for n in keep - {"twin"} if runs["a"][f"feedback/{n}.html"]
            != (out / "feedback" / f"{n}.html").read_bytes()] == []

    def cases_named(page):
        text = " ".join(page.decode().split())
        return re.findall(r"jacobian\(arm, q\) is wrong at ([^:]+):", text)
    mine = cases_named(runs["a"]["feedback/onewrongentry.html"])
    assert mine and mine != cases_named(runs["a"]["feedback/twin.html"])
    assert mine != cases_named(runs["c"]["feedback/onewrongentry.html"])


def test_canvas_round_writes_the_file_canvas_imports(graded, tmp_path):
    expected, summary, out = graded
    export = tmp_path / "canvas"
    export.mkdir()
    source = {p.name.split("_")[0]: p for p in (out.parent / "export").iterdir()}
    names = {"ref": "doejohn_48213_7730211_statics.ipynb",
             "wrongsign": "o_brien_pat_LATE_51277_7731001_statics-1.ipynb",
             "codepatch": "smithann_48214_7730300_statics.ipynb"}
    for login, name in names.items():
        (export / name).write_bytes(source[login].read_bytes())
    grade("statics", export, out=tmp_path / "out", workers=1, timeout=10, progress=False,
          secret=SECRET, lms="canvas")
    with open(tmp_path / "out" / "canvas_grades.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    full = f"{corpus.FULL:g}"
    assert rows == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "statics"],
        ["Points Possible", "", "", "", "", full],
        ["doejohn", "48213", "", "", "", full],
        ["o_brien_pat", "51277", "", "", "", f"{corpus.lose('part7'):g}"],
        ["smithann", "48214", "", "", "", ""]]
    late = [r for r in _csv(tmp_path / "out" / "report.csv") if r["problem"] == "late submission"]
    assert [r["student"] for r in late] == ["o_brien_pat"]
    grades = {r["student"]: r for r in _csv(tmp_path / "out" / "grades.csv")}
    assert grades["smithann"]["status"] == "review"
    assert json.dumps(sorted(grades)) == '["doejohn", "o_brien_pat", "smithann"]'
