"""The kinematics exercise set against the exercise standard, with the real nbgrader.

The release in exercises/ is what nbgrader generates from solutions/; the source scores full
marks and the release zero; one seeded mistake per part loses that part only and gets its hint;
the chapter's worked values typed in as constants earn at most the visible checks; calling the
armlab function that answers a part earns nothing for it. The references agree with armlab.
"""

import pathlib
import tempfile

import numpy as np
import pytest

import armlab as al
from armlab.grading import release
from armlab.grading.testing import ExerciseSet

REPO = pathlib.Path(__file__).resolve().parents[1]
SET = ExerciseSet("kinematics")

# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "tip_answer": ("phi = np.cumsum(q)", "phi = np.asarray(q)", "q2 is measured from link 1"),
    "jacobian_answer": ("lever = p[-1] - p[:-1]", "lever = p[1:] - p[:-1]",
                        "not to the next joint"),
    "speeds_answer": ("np.linalg.solve(jacobian(arm, q),", "np.linalg.solve(jacobian(arm, q).T,",
                      "solve with J itself"),
    "manipulability_answer": ("return abs(J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0])",
                              "return J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0]",
                              "take its absolute value"),
    "reach_answer": ("max(0.0, 2 * lengths.max() - lengths.sum())",
                     "abs(lengths[0] - lengths[1:].sum())", "which need not be link 1"),
    "stretched_answer": ('stretched = "b"', 'stretched = "a"',
                         "both columns of J are perpendicular to the arm"),
}
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    "tip_answer": "def tip_position(arm, q):\n    return al.tip_position(arm, q)",
    "jacobian_answer": "def jacobian(arm, q):\n    return al.jacobian(arm, q)",
    "speeds_answer": ("def joint_speeds(arm, q, v):\n"
                      "    return np.linalg.solve(al.jacobian(arm, q), v)"),
    "manipulability_answer": ("def manipulability(arm, q):\n"
                              "    return float(al.manipulability(arm, q))"),
    "reach_answer": "def reach(arm):\n    return np.array(al.reach(arm))",
}


def test_references_agree_with_armlab():
    """Two independent routes: the pure-Python references and armlab."""
    SET.assert_references_agree({
        "kinematics.tip_position": al.tip_position,
        "kinematics.jacobian": al.jacobian,
        "kinematics.joint_speeds": lambda arm, q, v: np.linalg.solve(al.jacobian(arm, q), v),
        "kinematics.manipulability": al.manipulability,
        "kinematics.reach": lambda arm: np.array(al.reach(arm)),
    })


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the kinematics chapter prints."""
    from armlab.grading.references import lookup

    def worked(quantity):
        ref = lookup(quantity)
        return np.asarray(ref.function(*ref.arguments(ref.cases("worked")[0])))

    assert worked("kinematics.tip_position").round(4).tolist() == [0.433, 0.65]
    assert worked("kinematics.jacobian").round(4).tolist() == [[-0.65, -0.4], [0.433, 0.0]]
    assert worked("kinematics.joint_speeds").round(4).tolist() == [0.2309, -0.3753]
    assert round(float(worked("kinematics.manipulability")), 4) == 0.2
    assert worked("kinematics.reach").round(2).tolist() == [0.1, 0.9]


def test_fresh_cases_cover_the_edges():
    """Hidden cases include three-link arms, singular poses, both elbow sides and the reach's
    special arms, and differ between students"""
    from armlab.grading.references import lookup

    def labels(quantity, key=None):
        return [c.label for c in lookup(quantity).cases("fresh", key=key)]

    assert "an arm with three links" in labels("kinematics.tip_position")
    assert {"an arm with three links", "the stretched pose"} <= set(labels("kinematics.jacobian"))
    assert {"the stretched pose", "the folded pose"} <= set(labels("kinematics.manipulability"))
    assert "two equal links" in labels("kinematics.reach")
    one = lookup("kinematics.jacobian").cases("fresh", key="alice")
    other = lookup("kinematics.jacobian").cases("fresh", key="bob")
    assert repr(one) != repr(other)
    assert repr(one) == repr(lookup("kinematics.jacobian").cases("fresh", key="alice"))


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first, at most a third of its points visible for
    function parts, and one seeded mistake; every checked function an armlab call."""
    parts = SET.parts()
    assert len(parts) == 6 and SET.total() == 22
    functions = SET.checked_functions()
    for key, part in parts.items():
        assert any(a in MISTAKES for a in part["answers"]), key
        for a in part["answers"]:
            if a in functions:
                assert a in CALLS
                first = next(iter(part["tests"]))
                assert part["tests"][first] <= part["points"] / 3, key
    nb = SET.source()
    for cell in nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("grade"):
            src = "".join(cell["source"])
            assert src.startswith('"""') and src.splitlines()[0].endswith('"""')
    intro = "".join(nb["cells"][0]["source"])
    assert 'pip install jupyterlab "armlab @ git+https://github.com/armlab-book/armlab"' in intro
    assert "six parts (22 points)" in intro


def test_chapter_lists_the_parts_with_their_points():
    """The chapter's exercise section lists the six parts with the notebook's points"""
    import re

    text = (REPO / "book" / "kinematics.md").read_text(encoding="utf-8")
    section = text[text.index("## Exercises"):]
    assert "six parts (22 points)" in section
    items = re.findall(r"^\d\. (?:.*\n   )*.*\((\d+) points?\)[;.]$", section, re.M)
    assert [int(p) for p in items] == [part["points"] for part in SET.parts().values()]


@pytest.mark.slow
def test_exercises_equal_a_fresh_release():
    with tempfile.TemporaryDirectory() as tmp:
        release.generate("kinematics", tmp)
        fresh = pathlib.Path(tmp, "release", "kinematics", "kinematics.ipynb").read_bytes()
        db_left = list(REPO.glob("gradebook.db")) + list((REPO / "solutions").rglob("*.db"))
    assert fresh == (REPO / "exercises/kinematics/kinematics.ipynb").read_bytes(), \
        "exercises/ is stale: run `make exercises`"
    assert db_left == []


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)
