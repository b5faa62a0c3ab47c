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

import armlab.grading.autograde as autograde
from armlab.grading.testing import ExerciseSet

SET = ExerciseSet("statics")
PARTS = SET.parts()
FULL = {k: p["points"] for k, p in PARTS.items()}
VISIBLE = {k: next(iter(p["tests"].values())) for k, p in PARTS.items()}
VISIBLE["part8"] = 0.0                       # its one cell holds hidden tests
MISTAKES = {"jacobian_answer": ("a1, a12 = q[0], q[0] + q[1]", "a1, a12 = q[0], q[1]",
                                "q2 is measured from link 1")}
CALLS = {"torques_answer": "def joint_torques(arm, q, F):\n    return al.static_torques(arm, q, F)"}


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
                (out / "feedback" / f"{login}.html").write_text(hints.get(login, ""))
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
    text = run(monkeypatch, tmp_path, fair, {"mistake0": "q2 is measured from link 1"})
    lines = text.splitlines()
    assert all(line.startswith(("part part", "answer ")) for line in lines), lines
    assert "part part2 has no seeded mistake" in lines      # the lists above are short


@pytest.mark.parametrize("login, row, hint, problem", [
    ("mistake0", dict(FULL, part1=1.0, part3=0.0), "q2 is measured from link 1",
     "mistake in jacobian_answer: scores"),
    ("mistake0", dict(FULL, part1=1.0), "something else", "the hint 'q2 is measured"),
    ("release", dict(dict.fromkeys(FULL, 0.0), part8=2.0), "", "release scores"),
    ("constants", dict(VISIBLE, part1=5.0), "", "constants score 11.0, more than"),
    ("armlab0", dict(FULL, part2=1.0), "", "armlab call in torques_answer: scores"),
    ("source", dict(FULL, part4=0.0), "", "source notebook scores"),
])
def test_each_unfair_outcome_is_named(monkeypatch, tmp_path, login, row, hint, problem):
    def scores(who):
        return row if who == login else fair(who)
    hints = {"mistake0": "q2 is measured from link 1"}
    hints[login] = hint or hints.get(login, "")
    text = run(monkeypatch, tmp_path, scores, hints)
    assert problem in text, text


def test_constants_return_the_worked_values():
    nb = SET.constants()
    cell = next(c for c in nb["cells"] if c.get("id") == "torques_answer")
    assert json.dumps(cell["source"]).startswith('"def joint_torques(*args, **kwargs):')
    assert "np.array([-6.5, -4.0" in cell["source"] or "np.array([-6.49" in cell["source"]
