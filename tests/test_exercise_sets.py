"""The chapter writers' test helper catches what it is meant to catch.

``ExerciseSet.assert_grades_fairly`` is run against a fake round whose grades
we choose: a fair round passes; a mistake that costs another part, a missing
hint, a release that scores, constants above the visible points and an armlab
call that still scores each fail, named.
"""

import csv
import json
import pathlib

import pytest

import test_exercises_statics as STATICS

import armlab.grading.autograde as autograde
from armlab.grading.execute import TRY_IT_NOTE
from armlab.grading.references import chapters
from exercise_sets import ExerciseSet

SET = ExerciseSet("statics")
PARTS = SET.parts()
FULL = {k: p["points"] for k, p in PARTS.items()}
VISIBLE = {k: next(iter(p["tests"].values())) for k, p in PARTS.items()}
VISIBLE["part9"] = 0.0                       # its one cell holds hidden tests
MISTAKES = {"torques_answer": ("lever = p[-1] - p[:-1]", "lever = p[1:] - p[:-1]",
                               "not to the next joint")}
CALLS = {"gravity_answer": "def gravity_torques(arm, q):\n    return al.gravity_torques(arm, q)"}


def fake_round(scores, hints):
    """A stand-in for autograde.grade writing the grades and feedback we choose."""
    def grade(assignment, export, out, **kwargs):
        out = pathlib.Path(out)
        (out / "feedback").mkdir(parents=True)
        logins = sorted(p.name.split("_")[0] for p in pathlib.Path(export).iterdir())
        with open(out / "grades.csv", "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["student", "lms_id"] + list(FULL) + ["total", "status"])
            for login in logins:
                row = scores(login)
                w.writerow([login, ""] + [row[k] for k in FULL] + [sum(row.values()), "ok"])
                (out / "feedback" / f"{login}.html").write_text(hints.get(login, "")
                                                                 + TRY_IT_NOTE)
    return grade


def fair(login):
    if login == "release":
        return dict.fromkeys(FULL, 0.0)
    if login == "constants":
        return dict(VISIBLE)
    if login == "mistake0":
        return dict(FULL, part1=1.0)
    if login == "armlab0":
        return dict(FULL, part2=0.0)
    return dict(FULL)


def run(monkeypatch, tmp_path, scores, hints):
    monkeypatch.setattr(autograde, "grade", fake_round(scores, hints))
    with pytest.raises(AssertionError) as info:
        SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)
    return str(info.value)


def test_a_fair_round_passes_except_for_what_is_missing(monkeypatch, tmp_path):
    text = run(monkeypatch, tmp_path, fair, {"mistake0": "not to the next joint"})
    lines = text.splitlines()
    assert all(line.startswith(("part part", "answer ")) for line in lines), lines
    assert "part part2 has no seeded mistake" in lines      # the lists above are short


@pytest.mark.parametrize("login, row, hint, problem", [
    ("mistake0", dict(FULL, part1=1.0, part3=0.0), "not to the next joint",
     "mistake in torques_answer: scores"),
    ("mistake0", dict(FULL, part1=1.0), "something else", "the hint 'not to the next joint"),
    ("release", dict(dict.fromkeys(FULL, 0.0), part8=2.0), "", "release scores"),
    ("constants", dict(VISIBLE, part1=5.0), "", "constants score 14.0, more than"),
    ("armlab0", dict(FULL, part2=1.0), "", "armlab call in gravity_answer: scores"),
    ("source", dict(FULL, part4=0.0), "", "source notebook scores"),
])
def test_each_unfair_outcome_is_named(monkeypatch, tmp_path, login, row, hint, problem):
    def scores(who):
        return row if who == login else fair(who)
    hints = {"mistake0": "not to the next joint"}
    hints[login] = hint or hints.get(login, "")
    text = run(monkeypatch, tmp_path, scores, hints)
    assert problem in text, text


def test_constants_return_the_worked_values():
    nb = SET.constants()
    cell = next(c for c in nb["cells"] if c.get("id") == "torques_answer")
    assert cell["source"] == ("def joint_torques(*args, **kwargs):\n"
                              "    return np.array([-6.5, -4.0])\n")


# ------------------------------------------------------------------ the standard on paper
def copied_set(tmp_path, change=None):
    """The statics set in a copy of the repository, its source notebook changed by ``change``."""
    import shutil

    for folder in ("solutions", "exercises"):
        shutil.copytree(SET.repo / folder / "statics", tmp_path / folder / "statics")
    if change is not None:
        path = tmp_path / "solutions" / "statics" / "statics.ipynb"
        nb = json.loads(path.read_text())
        change(nb["cells"])
        path.write_text(json.dumps(nb))
    return ExerciseSet("statics", repo=tmp_path)


def cell(cells, grade_id):
    return next(c for c in cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id")
                == grade_id)


def visible_worth_half(cells):
    cell(cells, "test_push_worked")["metadata"]["nbgrader"]["points"] = 2.0
    cell(cells, "test_push_fresh")["metadata"]["nbgrader"]["points"] = 1.0


def no_docstring(cells):
    c = cell(cells, "test_torques_fresh")
    c["source"] = "".join(c["source"]).split("\n", 1)[1]


def no_install_line(cells):
    cells[0]["source"] = "".join(cells[0]["source"]).replace("pip install", "install")


def hidden_first(cells):
    c = cell(cells, "test_push_worked")
    c["source"] = "".join(c["source"]) + "\n### BEGIN HIDDEN TESTS\n### END HIDDEN TESTS\n"


@pytest.mark.parametrize("change, mistakes, calls, shape, problem", [
    (None, {}, None, (10, 43), "has no seeded mistake"),
    (None, None, {}, (10, 43), "are not the ones with an armlab call"),
    (None, None, dict(CALLS, stretched_answer="x"), (10, 43), "not the ones with an armlab call"),
    (None, None, None, (9, 43), "10 parts (43 points), expected 9 (43 points)"),
    (None, None, None, (10, 44), "expected 10 (44 points)"),
    (visible_worth_half, None, None, (10, 43), "its visible check is worth 2 of 4 points"),
    (hidden_first, None, None, (10, 43), "first test cell test_push_worked holds hidden tests"),
    (no_docstring, None, None, (10, 43), "test_torques_fresh does not open with a one-line"),
    (no_install_line, None, None, (10, 43), "does not say 'pip install jupyterlab"),
])
def test_the_standard_on_paper_names_what_is_off(tmp_path, change, mistakes, calls, shape,
                                                problem):
    """Each way a set can miss the standard on paper fails, named; the set as it is passes"""
    copied_set(tmp_path / "as-is").assert_meets_the_standard_on_paper(
        STATICS.MISTAKES, STATICS.CALLS, parts=10, points=43)
    broken = copied_set(tmp_path / "changed", change)
    with pytest.raises(AssertionError) as info:
        broken.assert_meets_the_standard_on_paper(
            STATICS.MISTAKES if mistakes is None else mistakes,
            STATICS.CALLS if calls is None else calls, parts=shape[0], points=shape[1])
    assert problem in str(info.value), str(info.value)


def test_fresh_cases_not_drawn_per_student_fail_on_paper(monkeypatch):
    """A reference whose fresh cases ignore the case key fails the standard, named"""
    from armlab.grading.references import Reference

    cases = Reference.cases
    monkeypatch.setattr(Reference, "cases", lambda self, which="worked", key=None: cases(
        self, which, key="" if self.quantity == "statics.max_push" else key))
    with pytest.raises(AssertionError, match="statics.max_push: its fresh cases are not drawn"):
        SET.assert_meets_the_standard_on_paper(STATICS.MISTAKES, STATICS.CALLS, parts=10,
                                               points=43)


def test_worked_is_the_references_worked_value():
    """SET.worked names a quantity of the set's chapter or of any chapter"""
    assert SET.worked("joint_torques").round(4).tolist() == [-6.5, -4.0]
    assert SET.worked("kinematics.jacobian").round(3).tolist() == [[-0.65, -0.4], [0.433, 0.0]]
    assert SET.worked("max_push", 0).shape == ()


@pytest.mark.slow
def test_a_stale_release_fails(tmp_path):
    """A release that is not what nbgrader generates from the source fails, named"""
    changed = copied_set(tmp_path, lambda cells: cells[0].update(
        source="".join(cells[0]["source"]) + "\nOne more sentence.\n"))
    with pytest.raises(AssertionError, match="exercises/ is stale"):
        changed.assert_release_is_fresh()


@pytest.mark.parametrize("chapter", chapters())
def test_every_try_it_cell_is_read_only(chapter):
    """Each "# Try it" cell is a read-only cell with a try_ grade id: the grader leaves it
    out of the graded runs (it only calls armlab's answers, off between the checks) and
    nbgrader restores its source, so no code of the student's is ever skipped."""
    from armlab.grading.execute import is_try_it

    cells = [c for c in ExerciseSet(chapter).source()["cells"] if c["cell_type"] == "code"]
    tries = [c for c in cells if "".join(c["source"]).startswith("# Try it")]
    assert tries and [c.get("id") for c in tries if not is_try_it(c)] == []
    assert [c.get("id") for c in cells if is_try_it(c) and c not in tries] == []


@pytest.mark.slow
@pytest.mark.parametrize("chapter", chapters())
def test_exercises_equal_a_fresh_release(chapter):
    """Every chapter's exercises/ notebook is what a fresh release of its source makes."""
    ExerciseSet(chapter).assert_release_is_fresh()


def test_the_try_it_note_needs_no_sideways_scroll():
    """A trial class's feedback pages showed the try-it note on one line in a box that
    scrolls sideways ("... Its output in your own J"): its lines fit the check messages'
    width"""
    from armlab.grading import judge

    assert TRY_IT_NOTE.endswith("\n") and len(TRY_IT_NOTE.splitlines()) == 3
    assert all(len(line) <= judge.WIDTH for line in TRY_IT_NOTE.splitlines())
