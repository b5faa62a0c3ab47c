"""The whole grading pipeline on the corpus of tests/submissions, in one round.

Honest students and attackers graded together by the real nbgrader with two
workers and a course secret, every notebook in a sandbox: each gets its expected
score and report line; a fault (a limit, a dead run, a forged message) holds the
row for review and is never a grade; the attackers gain nothing and reach
nothing (the secret, the gradebook, the package, other students); feedback pages
help, hide the hidden tests and run no script; two gradings with the same secret
are byte-identical.
"""

import csv
import importlib.util
import json
import os
import pathlib
import re
import signal
import sqlite3
import subprocess
import time
import zipfile

import pytest

from armlab.grading import sandbox
from armlab.grading.autograde import grade
from armlab.grading.census import Problems

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("corpus", HERE / "submissions" / "corpus.py")
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)

OK, WHY = sandbox.available()
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not OK, reason=f"no sandbox on this machine: {WHY}")]
SECRET = corpus.SECRET
CPU = 5
WALL = 40
"""Wall-clock seconds of all runs of one submission in the test's round (honest notebooks of
the statics set take a few seconds on a busy machine; the sleeper sleeps 45 s)."""


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
    package = _package_files()
    summary = grade("statics", archive, out=root / "out", workers=2, cpu=CPU,
                    memory_mb=1536, progress=False, secret=SECRET, submission_seconds=WALL,
                    keep_work=True)
    return expected, summary, root / "out", package


def _csv(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def _package_files():
    import armlab

    root = pathlib.Path(armlab.__file__).parent
    return {p: p.read_bytes() for p in sorted(root.rglob("*.py"))}


def test_every_student_is_graded(graded):
    expected, summary, out, _ = graded
    assert set(summary["students"]) == set(expected)
    rows = _csv(out / "grades.csv")
    assert {r["student"] for r in rows} == set(expected)
    assert list(rows[0]) == ["student", "lms_id"] + list(corpus.POINTS) + ["total", "status"]


@pytest.mark.parametrize("login", sorted(corpus.cases()))
def test_expected_score_and_report(graded, login):
    expected, summary, out, _ = graded
    total, kinds = expected[login]
    rows = {r["student"]: r for r in _csv(out / "grades.csv")}
    problems = {r["problem"] for r in _csv(out / "report.csv") if r["student"] == login}
    held = any(k in Problems.REVIEW for k in kinds)
    got = "" if held else float(rows[login]["total"])
    assert (rows[login]["status"], got, problems) == (
        "review" if held else "ok", "" if held else total, kinds)


def test_a_held_row_gives_its_reason_and_no_score(graded):
    expected, summary, out, _ = graded
    rows = {r["student"]: r for r in _csv(out / "grades.csv")}
    for login in ("endless", "membomb", "osexit", "channel"):
        assert [rows[login][k] for k in list(corpus.POINTS) + ["total"]] == [""] * (
            len(corpus.POINTS) + 1)
    report = {}
    for r in _csv(out / "report.csv"):
        report.setdefault((r["student"], r["problem"]), set()).add(r["detail"])
    assert f"force_error_along (statics.force_error_along) ran past its CPU limit of {CPU} s" \
        in report[("endless", "grading fault")]
    assert report[("membomb", "grading fault")] == {
        "push_answer ran past its memory limit of 1536 MiB and was stopped"}
    assert report[("osexit", "grading fault")] == {
        "the notebook's process ended in sign_answer (exit status 0): ended by the notebook, "
        "not run again; not graded: press_pose, stretched, torques_for_reported_force, "
        "wrench_torques"}
    assert {d.split(":")[0] for d in report[("channel", "suspected tampering")]} == {
        "an unexpected 'result' message in sign_answer"}
    page = " ".join((out / "feedback" / "osexit.html").read_text().split())
    assert page.count("not graded: held for your instructor, who sees in the grading report "
                      "what stopped it") == 7       # the check cells of the four it names


def _details(out, login):
    return {r["detail"] for r in _csv(out / "report.csv") if r["student"] == login}


def test_a_run_the_notebook_ends_is_held_with_its_cause_and_never_run_again(graded):
    """The keyring notebook records its cases and ends its run: no second run reads them
    back (it would have answered them with armlab between checks). One run, no score."""
    expected, summary, out, _ = graded
    rows = {r["student"]: r for r in _csv(out / "grades.csv")}
    assert rows["keyring"]["total"] == ""
    assert _details(out, "keyring") == {
        "the notebook's process ended in stretched_answer (exit status 3): ended by the "
        "notebook, not run again; not graded: stretched, wrench_torques"}
    assert (_cost(out, "keyring")["runs"], _cost(out, "osexit")["runs"]) == (1, 1)


def _cost(out, login):
    return json.loads((out / "work" / "results" / f"{login}.json").read_text())["cost"]


def test_the_graders_work_is_bounded_and_named(graded):
    """A 400-link arm: between checks armlab computes nothing (the cell's error says so);
    in a check that allows joint_positions, the call fails at once past the arm's bound
    and the row is held with the bound named."""
    expected, summary, out, _ = graded
    assert _details(out, "bigarm") == {
        "armlab.joint_positions was called on an arm of 400 links; the grader computes "
        "arms of at most 16 (the call failed at once in the notebook)"}
    page = " ".join((out / "feedback" / "bigarm.html").read_text().split())
    assert "between checks: armlab.mass_matrix is not computed outside the checks" in page


def test_a_submission_past_its_wall_time_is_stopped_and_named(graded):
    """Three cells each sleeping under their limit, a death after them: the submission's
    cap stops it, once, and the report names the cap."""
    expected, summary, out, _ = graded
    assert {d.split(";")[0] for d in _details(out, "sleeper")} == {
        f"the submission's runs took more than {WALL} s by the clock in all, and it was "
        "stopped in reactions_answer"}
    cost = _cost(out, "sleeper")
    assert (cost["runs"], cost["seconds"] < WALL + 10) == (1, True)


def test_honest_students_keep_full_marks_and_their_feedback(graded):
    expected, summary, out, _ = graded
    for login in corpus.honest() - {"notjson", "missing"}:
        assert summary["grades"][login]["total"] == expected[login][0], login
        assert (out / "feedback" / f"{login}.html").exists(), login


def test_the_secret_reaches_no_page(graded):
    """The student that read every /proc/*/environ (its own sandbox's) and printed its
    environment found no secret to put in its feedback."""
    expected, summary, out, _ = graded
    page = (out / "feedback" / "secrets.html").read_text()
    assert "ENV {" in page and "PROC [" in page                # it did print them
    for path in out.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".csv", ".md", ".log"):
            assert SECRET not in path.read_text(errors="replace"), path


def test_the_writes_reached_nothing(graded):
    """The package, site-packages, the gradebooks and $HOME were out of reach."""
    expected, summary, out, package = graded
    page = " ".join((out / "feedback" / "writes.html").read_text().split())
    assert "wrote /" not in page.replace("wrote /scratch", "")
    assert _package_files() == package
    import site
    assert [p for p in site.getsitepackages() if (pathlib.Path(p) / "zz_armlab_owned.pth")
            .exists()] == []
    assert not pathlib.Path("/tmp/owned").exists()


def _parent(pid):
    """The parent's pid and the command name of process ``pid`` (None once it ended)."""
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name, rest = stat[stat.index("(") + 1:].rsplit(")", 1)
    return int(rest.split()[1]), name


def sandbox_leftovers():
    """Processes of the sandboxes' users that this test's grading left: under this
    process, or under no bubblewrap at all (escaped). A sandbox of another grading run on
    the same machine (the same worker uids) is inside its own live bwrap, not ours."""
    left = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            uid = int(re.search(r"^Uid:\s+(\d+)", (entry / "status").read_text(), re.M)[1])
        except (OSError, ValueError, TypeError):
            continue
        if uid < sandbox.BASE_UID:
            continue
        names, pid = [], int(entry.name)
        while pid > 1 and pid != os.getpid() and (up := _parent(pid)) is not None:
            pid, name = up
            names.append(name)
        if pid == os.getpid() or "bwrap" not in names:
            left.append((int(entry.name), uid, names))
    return left


def test_nothing_of_the_sandboxes_lives_on(graded):
    """The detached process and the forked daemon ended with their sandbox."""
    expected, summary, out, _ = graded
    time.sleep(5)                               # past the attackers' 4 s sleep
    assert sandbox_leftovers() == []
    assert not pathlib.Path(corpus.MARKER).exists()


def test_a_process_left_outside_every_sandbox_is_seen(tmp_path):
    """The check above can fail: a process of a sandbox's user outside any bwrap is named."""
    import shutil
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("starting a process as a sandbox's user needs root and setpriv")
    stray = subprocess.Popen(["setpriv", f"--reuid={sandbox.BASE_UID + 7}",
                              f"--regid={sandbox.BASE_UID + 7}", "--clear-groups", "sleep", "30"])
    try:
        time.sleep(0.5)
        assert [pid for pid, _, _ in sandbox_leftovers()] == [stray.pid]
    finally:
        stray.kill()
        stray.wait()


def test_feedback_helps_hides_and_runs_no_script(graded):
    expected, summary, out, _ = graded
    pages = sorted((out / "feedback").glob("*.html"))
    assert {p.stem for p in pages} >= set(expected) - {"missing", "notjson", "osexit"}
    for page in pages:
        html = page.read_text()
        assert "BEGIN HIDDEN TESTS" not in html and '"fresh")' not in html
        assert "cdnjs" not in html and 'src="mathjax/tex-svg-full.js"' in html
        assert ">Test cell</a>" not in html
        assert f'content="{_csp()}"' in html
        text = re.sub(r"&[a-z]+;|&#\d+;", "", html)
        assert sorted(set(re.findall(r"pwned(?:%20| )by(?:%20| )\w+", text))) == (
            [] if page.stem != "script" else    # its words, as inert text (_live: nothing runs)
            [f"pwned by {w}" for w in ("img", "js", "math", "output", "script")]), page.stem
    assert (out / "feedback" / "mathjax" / "tex-svg-full.js").stat().st_size > 1_000_000
    for page in pages:
        assert _live(page.read_text()) == (["mathjax/config.js", "mathjax/tex-svg-full.js"],
                                           [], []), page.stem
    wrong = " ".join((out / "feedback" / "wrongsign.html").read_text().split())
    assert "right size, wrong sign: that is the claim, J^T force_on_arm" in wrong
    assert ('<a href="#test_sign_fresh">Part 7: a claim in a simulator manual, checked: '
            'check the torques for reported forces at other poses and arms</a> '
            '(Score: 0.0 / 2.0)') in wrong
    ref = " ".join((out / "feedback" / "callsref.html").read_text().split())
    assert "armlab.jacobian is not available while this part is graded" in ref


def _live(text):
    """What in a page could run: the sources of its scripts, its event-handler attributes,
    its links that a browser would run."""
    from html.parser import HTMLParser

    found = ([], [], [])

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs):
            for name, value in attrs:
                if tag == "script" and name == "src":
                    found[0].append(value)
                if name.lower().startswith("on"):
                    found[1].append(f"{tag} {name}")
                if name in ("href", "src") and (value or "").replace(" ", "").lower() \
                        .startswith(("javascript:", "vbscript:", "data:text/html")):
                    found[2].append(value)

    Parser().feed(text)
    return found


def _csp():
    from armlab.grading.outputs import CSP

    return CSP


def test_the_feedback_page_runs_no_script_in_a_browser(graded, chromium):
    expected, summary, out, _ = graded
    page = chromium.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((out / "feedback" / "script.html").as_uri(), wait_until="load", timeout=120_000)
    page.wait_for_function("() => document.querySelector('mjx-container') !== null",
                           timeout=120_000)
    page.evaluate("() => MathJax.startup.promise")               # typesetting done
    links = page.evaluate("() => [...document.querySelectorAll('*')].flatMap(el => "
                          "[...el.attributes].filter(a => /(^|:)href$/i.test(a.name))"
                          ".map(a => a.value))")
    assert [u for u in links if "pwned" in u] == []          # the \href typeset as no link
    assert page.evaluate("() => document.querySelectorAll('mjx-container svg').length") > 0
    assert "pwned" not in page.title()
    page.close()


def test_hidden_expected_values_never_reach_the_feedback(graded):
    """The joint torques with one wrong lever fail their hidden check: the page names the
    case in words and shows the student's value, never the expected one."""
    from armlab.grading.cases import student_key
    from armlab.grading.purepy import fmt
    from armlab.grading.references import lookup

    expected, summary, out, _ = graded
    html = " ".join((out / "feedback" / "onewrongentry.html").read_text().split())
    ref = lookup("statics.joint_torques")
    case = ref.cases("fresh", key=student_key(SECRET, "onewrongentry"))[0]
    assert "joint_torques(arm, q, F) is wrong at q = (" in html
    wrong = next(f for f, hint in ref.mistakes if "not to the next joint" in hint)
    args = ref.arguments(case)
    for x, theirs in zip(ref.function(*args), wrong(*args)):
        if abs(x) > 1e-3 and abs(x - theirs) > 1e-9:    # the wrong lever leaves joint 2 right
            assert fmt(x) not in html


def test_unsafe_archive_members_are_reported_not_written(graded):
    expected, summary, out, _ = graded
    rows = [r for r in _csv(out / "report.csv") if r["student"] == "(archive)"]
    assert sorted(r["detail"].split(":")[0] for r in rows) == ["../archive_evil/x",
                                                               "/abs/evil.txt"]
    assert not (out.parent / "archive_evil").exists()
    assert not pathlib.Path("/abs/evil.txt").exists()


def test_gradebook_integrity(graded):
    expected, summary, out, _ = graded
    assert summary["gradebook_issues"] == []
    con = sqlite3.connect(out / "gradebook.db")
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert {r[0] for r in con.execute("SELECT id FROM student")} == set(expected)
        n_sub = con.execute("SELECT COUNT(*) FROM submitted_assignment").fetchone()[0]
        assert n_sub == len(expected)
    finally:
        con.close()
    assert sorted(p.name for p in (out / "logs").iterdir()) == ["worker0.log", "worker1.log"]
    report = (out / "report.md").read_text()
    assert "Integrity check passed." in report
    assert "every notebook ran in a sandbox of its own" in report


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix != ".db" and "logs" not in p.parts}


def test_same_secret_same_files_and_students_get_their_own_cases(graded, tmp_path):
    """Regrading with the same secret (and another number of workers) gives byte-identical
    files, feedback included; two students with the same wrong answer are checked at
    different cases; another secret changes the cases."""
    expected, summary, out, _ = graded
    small = tmp_path / "export"
    small.mkdir()
    keep = {"ref", "wrongsign", "blank", "onewrongentry", "writes"}
    for path in sorted((out.parent / "export").iterdir()):
        if path.name.split("_")[0] in keep:
            (small / path.name).write_bytes(path.read_bytes())
    twin = next(p for p in small.iterdir() if p.name.startswith("onewrongentry_"))
    (small / twin.name.replace("onewrongentry_", "twin_")).write_bytes(twin.read_bytes())
    runs = {}
    for name, workers, secret in (("a", 1, SECRET), ("b", 2, SECRET), ("c", 1, "another")):
        dest = tmp_path / f"run-{name}"
        grade("statics", small, out=dest, workers=workers, cpu=CPU, progress=False,
              secret=secret)
        runs[name] = _files(dest)
    assert sorted(runs["a"]) == sorted(runs["b"])
    assert [k for k in runs["a"] if runs["a"][k] != runs["b"][k]] == []
    assert [n for n in keep if runs["a"][f"feedback/{n}.html"]
            != (out / "feedback" / f"{n}.html").read_bytes()] == []

    def cases_named(page):
        text = " ".join(page.decode().split())
        return re.findall(r"joint_torques\(arm, q, F\) is wrong at ([^:]+):", text)
    mine = cases_named(runs["a"]["feedback/onewrongentry.html"])
    assert mine and mine != cases_named(runs["a"]["feedback/twin.html"])
    assert mine != cases_named(runs["c"]["feedback/onewrongentry.html"])


def test_canvas_round_writes_the_file_canvas_imports(graded, tmp_path):
    """A name that a spreadsheet would run as a formula is escaped in the LMS file."""
    expected, summary, out, _ = graded
    export = tmp_path / "canvas"
    export.mkdir()
    source = {p.name.split("_")[0]: p for p in (out.parent / "export").iterdir()}
    names = {"ref": "doejohn_48213_7730211_statics.ipynb",
             "wrongsign": "o_brien_pat_LATE_51277_7731001_statics-1.ipynb",
             "channel": "smithann_48214_7730300_statics.ipynb",
             "blank": '=HYPERLINK("http:x";"y")_48215_7730400_statics.ipynb'}
    for login, name in names.items():
        (export / name).write_bytes(source[login].read_bytes())
    gradebook = tmp_path / "gradebook.csv"           # Canvas's own export names the column
    gradebook.write_text(
        "Student,ID,SIS User ID,SIS Login ID,Section,Statics (12345),Current Score\n"
        f"    Points Possible,,,,,{corpus.FULL:.2f},(read only)\n"
        '"Doe, John",48213,,jdoe,Lab A,,\n"Smith, Ann",48214,,asmith,Lab A,,\n'
        '"=HYPERLINK(""http:x"";""y"")",48215,,,Lab A,,\n"O\'Brien, Pat",51277,,pob,Lab A,,\n')
    grade("statics", export, out=tmp_path / "out", workers=1, cpu=CPU, progress=False,
          secret=SECRET, lms="canvas", lms_gradebook=gradebook)
    with open(tmp_path / "out" / "canvas_grades.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    full = f"{corpus.FULL:g}"
    assert rows == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Statics (12345)"],
        ["Points Possible", "", "", "", "", f"{corpus.FULL:.2f}"],   # as Canvas wrote it
        ["Doe, John", "48213", "", "jdoe", "Lab A", full],
        ["'=HYPERLINK(\"http:x\";\"y\")", "48215", "", "", "Lab A", "0"],
        ["O'Brien, Pat", "51277", "", "pob", "Lab A", f"{corpus.lose('part7'):g}"],
        ["Smith, Ann", "48214", "", "asmith", "Lab A", ""]]
    late = [r for r in _csv(tmp_path / "out" / "report.csv") if r["problem"] == "late submission"]
    assert [r["student"] for r in late] == ["o_brien_pat"]
    grades = {r["student"]: r for r in _csv(tmp_path / "out" / "grades.csv")}
    assert grades["smithann"]["status"] == "review"
    assert json.dumps(sorted(grades)) == '["doejohn", "hyperlink-http-x-y", "o_brien_pat", ' \
                                         '"smithann"]'


def test_a_worker_stopped_from_outside_is_replaced_and_named(tmp_path, monkeypatch):
    """The grader's own failure (its worker killed from outside) is the one thing retried:
    a new worker grades the student from the start, the grade stands, and the report
    names the retry."""
    from armlab.grading import autograde

    real, killed = autograde._submit, []

    def submit_and_kill_the_first(pool, student):
        future = real(pool, student)
        if not killed:
            for pid in pool._processes:          # the pool's one process, just started
                os.kill(pid, signal.SIGKILL)
                killed.append(student)
        return future

    monkeypatch.setattr(autograde, "_submit", submit_and_kill_the_first)
    export = tmp_path / "export"
    export.mkdir()
    (export / "ann_1_1_statics.ipynb").write_text(json.dumps(corpus.filled()))
    summary = grade("statics", export, out=tmp_path / "out", workers=1, cpu=CPU,
                    progress=False, secret=SECRET)
    assert (killed, summary["grades"]["ann"]["total"]) == (["ann"], corpus.FULL)
    assert [p for p in summary["problems"] if p[1] == "regraded"] == [
        ("ann", "regraded", "the worker grading it stopped before reporting it (see logs/): "
                            "graded again from the start by a new worker")]
    rows = {r["student"]: r for r in _csv(tmp_path / "out" / "grades.csv")}
    assert rows["ann"]["status"] == "ok"
