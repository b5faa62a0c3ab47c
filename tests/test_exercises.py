"""The statics exercise set against the exercise standard, with the real nbgrader.

The release in exercises/ is what nbgrader generates from solutions/; the
source scores full marks and the release zero; one seeded mistake per part
loses that part only and gets its hint; the chapter's worked values typed in
as constants earn at most the visible checks; calling the armlab function that
answers a part earns nothing for it; every listed likely mistake fails its part's
visible check, with its hint. The references that are not armlab's own functions agree
with armlab by another route.
"""

import json

import numpy as np
import pytest

import armlab as al
from armlab.grading.testing import ExerciseSet

SET = ExerciseSet("statics")

# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "jacobian_answer": ("a1, a12 = q[0], q[0] + q[1]", "a1, a12 = q[0], q[1]",
                        "q2 is measured from link 1, not from the x axis"),
    "torques_answer": ("jacobian(arm, q).T @", "-jacobian(arm, q).T @",
                       "is F the force on the arm or by the arm?"),
    "gravity_answer": ("com1 = c1 *", "com1 = L1 *",
                       "not at the link's end"),
    "holding_answer": ("joint_torques(arm, q, F) + gravity_torques(arm, q)",
                       "joint_torques(arm, q, F)", "add g(q)"),
    "push_answer": ("np.min(limit / working)", "np.max(limit / working)",
                    "take the smallest"),
    "error_answer": ("np.linalg.solve(J.T, corners.T)", "np.linalg.solve(J, corners.T)",
                     "invert J transposed, not J"),
    "sign_answer": ("-np.asarray(force_on_arm", "np.asarray(force_on_arm",
                    "the tip pushes with the opposite force"),
    "stretched_answer": ('stretched = "b"', 'stretched = "a"',
                         "a 0.5 N m torque error becomes a force error"),
}
# more likely mistakes, each of which the part's visible check must catch with its hint
MORE_MISTAKES = [
    {"jacobian_answer": ("[L1 * np.cos(a1) + L2 * np.cos(a12), L2 * np.cos(a12)]])",
                         "[L1 * np.cos(a1) + L2 * np.cos(a12), L2 * np.cos(a12)]]).T",
                         "this is J transposed"),
     "torques_answer": ("jacobian(arm, q).T @", "jacobian(arm, q) @", "this is J F"),
     "gravity_answer": ("moment(com1, m1) + moment(com2, m2), moment",
                        "moment(com1, m1), moment", "the shoulder carries both links"),
     "holding_answer": ("joint_torques(arm, q, F) + gravity_torques(arm, q)",
                        "gravity_torques(arm, q)", "this is g(q) alone"),
     "error_answer": ("corners = dtau * np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]])",
                      "corners = dtau * np.array([[1, 1]])", "that is one corner only")},
    {"jacobian_answer": ("np.array([[-L1", "-np.array([[-L1", "right size, wrong sign"),
     "holding_answer": ("joint_torques(arm, q, F) + gravity_torques(arm, q)",
                        "joint_torques(arm, q, F) - gravity_torques(arm, q)", "gravity's sign"),
     "error_answer": ("    corners = dtau",
                      "    return float(dtau / np.linalg.svd(J, compute_uv=False)[-1])\n"
                      "    corners = dtau", "the error along the weakest direction only")},
    {"jacobian_answer": ("a1, a12 = q[0], q[0] + q[1]",
                         "a1, a12 = np.degrees(q[0]), np.degrees(q[0] + q[1])",
                         "q is in radians"),
     "gravity_answer": ("return r[0] * (-m * gy) - r[1] * (-m * gx)",
                        "return r[0] * (m * gy) - r[1] * (m * gx)", "right size, wrong sign"),
     "holding_answer": ("joint_torques(arm, q, F) + gravity_torques(arm, q)",
                        "-joint_torques(arm, q, F) + gravity_torques(arm, q)",
                        "the contact part has the wrong sign")},
    {"gravity_answer": ("a1, a12 = q[0], q[0] + q[1]", "a1, a12 = q[0], q[1]",
                        "q2 is measured from link 1")},
]
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    "jacobian_answer": "def jacobian(arm, q):\n    return al.jacobian(arm, q)",
    "torques_answer": "def joint_torques(arm, q, F):\n    return al.static_torques(arm, q, F)",
    "gravity_answer": "def gravity_torques(arm, q):\n    return al.gravity_torques(arm, q)",
    "holding_answer": ("def holding_torques(arm, q, F):\n"
                       "    return al.static_torques(arm, q, F) + al.gravity_torques(arm, q)"),
    "push_answer": ("def max_push(arm, q, direction, limit):\n"
                    "    return float(al.max_tip_force(arm, q, direction, limit))"),
    "error_answer": ("def force_error_bound(arm, q, dtau):\n"
                     "    return float(al.force_error_bound(arm, q, dtau))"),
    "sign_answer": ("def torques_for_reported_force(arm, q, force_on_arm):\n"
                    "    return al.static_torques(arm, q, -np.asarray(force_on_arm))"),
}


def push_route(arm, q, direction, limit):
    """The largest push by the torque box's edges: s = min_j limit / |(J^T d)_j|."""
    d = np.asarray(direction) / np.linalg.norm(direction)
    per_newton = np.abs(al.jacobian(arm, q).T @ d)
    return np.inf if per_newton.max() < 1e-9 else np.min(limit / per_newton[per_newton >= 1e-9])


def error_route(arm, q, dtau):
    """The worst force error by the map J^{-T} written out, at the four corners."""
    J = al.jacobian(arm, q)
    det = J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0]
    if abs(det) < 1e-9:
        return np.inf
    inverse_t = np.array([[J[1, 1], -J[1, 0]], [-J[0, 1], J[0, 0]]]) / det
    return max(np.hypot(*(inverse_t @ (dtau * np.array(c)))) for c in [(1, 1), (1, -1)])


def test_references_agree_with_another_route():
    """The references that are not armlab's own functions, against armlab by another route;
    max_push and force_error_bound against armlab's own too (the tolerance of the parts,
    1e-9, is not armlab's)."""
    SET.assert_references_agree({
        "statics.holding_torques": lambda arm, q, F: (al.joint_reactions(arm, q, F)[1]),
        "statics.torques_for_reported_force": lambda arm, q, f: al.jacobian(arm, q).T @ -f,
        "statics.max_push": push_route,
        "statics.force_error_bound": error_route,
    })
    SET.assert_references_agree({"statics.max_push": al.max_tip_force,
                                 "statics.force_error_bound": al.force_error_bound})


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints."""
    worked = SET.worked
    np.testing.assert_allclose(worked("jacobian"), [[-0.65, -0.4], [0.4330, 0.0]], atol=5e-5)
    np.testing.assert_allclose(worked("joint_torques"), [-6.5, -4.0], atol=1e-12)
    np.testing.assert_allclose(worked("gravity_torques"), [14.8675, 0.0], atol=5e-5)
    np.testing.assert_allclose(worked("holding_torques"), [8.3675, -4.0], atol=5e-5)
    assert round(float(worked("max_push"))) == 100
    assert round(float(worked("force_error_bound")), 1) == 2.4


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first, at most a third of its points visible
    for function parts, and one seeded mistake; every checked function an armlab call."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=8, points=30)


def test_visible_checks_catch_the_listed_mistakes():
    """Each listed likely mistake of a part fails that part's visible check, with its hint"""
    SET.assert_visible_checks_catch({k: v for k, v in MISTAKES.items() if k != "push_answer"})
    for more in MORE_MISTAKES:
        SET.assert_visible_checks_catch(more)


@pytest.mark.slow
def test_exercises_equal_a_fresh_release():
    SET.assert_release_is_fresh()


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)


@pytest.mark.slow
def test_grading_into_a_course_gradebook_keeps_the_rest(tmp_path, sandboxed):
    """--db-url (PostgreSQL in a large course; a SQLite file here): a second round
    replaces this assignment's rows and leaves other assignments and students alone."""
    from nbgrader.api import Gradebook

    from armlab.grading.autograde import grade
    from armlab.grading.release import venv_on_path

    venv_on_path()                      # nbgrader runs `alembic` to stamp a new gradebook
    url = f"sqlite:///{tmp_path / 'course.db'}"
    with Gradebook(url) as gb:
        gb.add_assignment("earlier")
        gb.add_student("zoe")
    export = tmp_path / "export"
    export.mkdir()
    (export / "ann_1_1_statics.ipynb").write_text(json.dumps(SET.filled()))
    for round_ in (1, 2):
        if round_ == 2:
            nb = SET.with_mistake("push_answer", "np.min(", "np.max(")
            (export / "ann_1_1_statics.ipynb").write_text(json.dumps(nb))
        summary = grade("statics", export, out=tmp_path / f"out{round_}", workers=1,
                        cpu=20, db_url=url, progress=False)
        assert summary["gradebook_issues"] == []
    with Gradebook(url) as gb:
        assert {a.name for a in gb.assignments} == {"earlier", "statics"}
        assert {s.id for s in gb.students} == {"zoe", "ann"}
        push = SET.parts()["part5"]["points"]
        visible = SET.parts()["part5"]["tests"]["test_push_worked"]
        assert gb.find_submission("statics", "ann").score == SET.total() - push + visible
        assert len(gb.find_assignment("statics").submissions) == 1
