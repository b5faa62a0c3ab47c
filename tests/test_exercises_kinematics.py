"""The kinematics exercise set against the exercise standard, with the real nbgrader.

The release in exercises/ is what nbgrader generates from solutions/; the source scores full
marks and the release zero; one seeded mistake per part loses that part only and gets its hint;
the chapter's worked values typed in as constants earn at most the visible checks; calling the
armlab function that answers a part earns nothing for it. The references agree with armlab.
"""

import numpy as np
import pytest

import armlab as al
from armlab.grading.testing import ExerciseSet

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
    worked = SET.worked
    assert worked("tip_position").round(4).tolist() == [0.433, 0.65]
    assert worked("jacobian").round(4).tolist() == [[-0.65, -0.4], [0.433, 0.0]]
    assert worked("joint_speeds").round(4).tolist() == [0.2309, -0.3753]
    assert round(float(worked("manipulability")), 4) == 0.2
    assert worked("reach").round(2).tolist() == [0.1, 0.9]


def test_fresh_cases_cover_the_edges():
    """Hidden cases include three-link arms, singular poses, both elbow sides and the reach's
    special arms (that they differ between students: the standard on paper)"""
    from armlab.grading.references import lookup

    def labels(quantity, key=None):
        ref = lookup(quantity)
        return [c.label for which in ["fresh", *ref.set_names()]
                for c in ref.cases(which, key=key)]

    assert "an arm with three links" in labels("kinematics.tip_position")
    assert {"an arm with three links", "the stretched pose"} <= set(labels("kinematics.jacobian"))
    assert {"the stretched pose", "the folded pose"} <= set(labels("kinematics.manipulability"))
    assert "two equal links" in labels("kinematics.reach")


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first, at most a third of its points visible for
    function parts, and one seeded mistake; every checked function an armlab call."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=6, points=22)


@pytest.mark.slow
def test_exercises_equal_a_fresh_release():
    SET.assert_release_is_fresh()


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)
