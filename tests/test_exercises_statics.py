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
from armlab.grading.references import lookup
from exercise_sets import ExerciseSet

SET = ExerciseSet("statics")

# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "torques_answer": ("lever = p[-1] - p[:-1]", "lever = p[1:] - p[:-1]",
                       "not to the next joint"),
    "gravity_answer": ("com1 = c1 *", "com1 = L1 *",
                       "not at the link's end"),
    "holding_answer": ("joint_torques(arm, q, F) + gravity_torques(arm, q)",
                       "joint_torques(arm, q, F)", "add g(q)"),
    "reactions_answer": ("f_next, n_next = f, n", "f_next, n_next = np.asarray(F, dtype=float), n",
                         "not link j alone"),
    "push_answer": ("np.min(limit / working)", "np.max(limit / working)",
                    "take the smallest"),
    "error_answer": ("np.linalg.solve(J.T, corners.T)", "np.linalg.solve(J, corners.T)",
                     "invert J transposed, not J"),
    "sign_answer": ("-np.asarray(force_on_arm", "np.asarray(force_on_arm",
                    "the tip pushes with the opposite force"),
    "press_answer": ('for elbow in ("down", "up"):', 'for elbow in ("down",):',
                     "% over its limit"),
    "stretched_answer": ('stretched = "b"', 'stretched = "a"',
                         "link 1's length does not enter it"),
    "wrench_answer": ("r[0] * Fy - r[1] * Fx + Mz", "r[0] * Fy - r[1] * Fx",
                      "the tip's moment Mz is missing"),
}
# more likely mistakes, each of which the part's visible check must catch with its hint
MORE_MISTAKES = [
    {"torques_answer": ("return lever[:, 0] * F[1] - lever[:, 1] * F[0]",
                        "return lever[:, 1] * F[0] - lever[:, 0] * F[1]", "F x r is its opposite"),
     "gravity_answer": ("moment(com1, m1) + moment(com2, m2), moment",
                        "moment(com1, m1), moment", "the shoulder carries both links"),
     "holding_answer": ("joint_torques(arm, q, F) + gravity_torques(arm, q)",
                        "gravity_torques(arm, q)", "this is g(q) alone"),
     "reactions_answer": ("f_next, n_next = np.asarray(F, dtype=float), 0.0",
                          "f_next, n_next = -np.asarray(F, dtype=float), 0.0",
                          "start the recursion with F"),
     "push_answer": ("d / np.linalg.norm(d)", "d", "divide it by its length first"),
     "error_answer": ("corners = dtau * np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]])",
                      "corners = dtau * np.array([[1, 1]])", "that is one corner only"),
     "press_answer": ("worst = np.max(np.abs(holding_torques(arm, q, F))",
                      "worst = np.max(np.abs(joint_torques(arm, q, F))", "% over its limit")},
    {"gravity_answer": ("moment(com1, m1) + moment(com2, m2), moment",
                        "moment(com1, m1) + moment(com2 - elbow, m2), moment",
                        "not on its lever from the elbow alone"),
     "holding_answer": ("joint_torques(arm, q, F) + gravity_torques(arm, q)",
                        "joint_torques(arm, q, F) - gravity_torques(arm, q)", "gravity's sign"),
     "reactions_answer": ("weights = np.outer(arm.masses, arm.gravity)",
                          "weights = 0 * np.outer(arm.masses, arm.gravity)",
                          "the links' weights are missing"),
     "error_answer": ("    corners = dtau",
                      "    return float(dtau / np.linalg.svd(J, compute_uv=False)[-1])\n"
                      "    corners = dtau", "the error along the weakest direction only"),
     "press_answer": ("holding_torques(arm, q, F)", "holding_torques(arm, q, -np.asarray(F))",
                      "% over its limit")},
    {"gravity_answer": ("return r[0] * (-m * gy) - r[1] * (-m * gx)",
                        "return r[0] * (m * gy) - r[1] * (m * gx)", "right size, wrong sign"),
     "holding_answer": ("joint_torques(arm, q, F) + gravity_torques(arm, q)",
                        "-joint_torques(arm, q, F) + gravity_torques(arm, q)",
                        "the contact part has the wrong sign"),
     "reactions_answer": ("        out[j] = f[0], f[1], n\n",
                          "        out[j] = -f[0], -f[1], -n\n", "Newton's third law"),
     "press_answer": ("    return best\n", "    return np.degrees(best)\n",
                      "off the table top")},
    {"gravity_answer": ("a1, a12 = q[0], q[0] + q[1]", "a1, a12 = q[0], q[1]",
                        "q2 is measured from link 1"),
     "wrench_answer": ("r = joints[3] - joints[j]", "r = joints[j + 1] - joints[j]",
                       "reaches to the tip, not to the next joint")},
    {"wrench_answer": ("r[0] * Fy - r[1] * Fx", "r[1] * Fx - r[0] * Fy",
                       "the cross product's order")},
]
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    # numbers from armlab's statics, which the part does not allow (nor are they symbolic)
    "wrench_answer": ("def wrench_torques(q1, q2, q3, L1, L2, L3, Fx, Fy, Mz):\n"
                      "    return al.static_torques(al.tabletop_arm(), [0.0, 1.0], [1.0, 0.0])"),
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
    "reactions_answer": ("def joint_reactions(arm, q, F):\n"
                         "    force, moment = al.joint_reactions(arm, q, F)\n"
                         "    return np.column_stack([force, moment])"),
    "press_answer": ("def press_pose(arm, height, x_range, F, limit):\n"
                     "    poses = [al.inverse_kinematics(arm, [x, height], elbow=e)\n"
                     "             for x in np.linspace(*x_range, 101) for e in ('down', 'up')]\n"
                     "    return min(poses, key=lambda q: np.max(np.abs(\n"
                     "        al.static_torques(arm, q, F) + al.gravity_torques(arm, q)) / limit))"),
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


def reactions_route(arm, q, F):
    """Each bearing carries the tip force and every weight beyond it (sum of forces on the
    links from j on); each moment is the holding torque g(q) + J^T F (virtual work)."""
    weights = np.outer(arm.masses, arm.gravity)
    force = F - np.cumsum(weights[::-1], axis=0)[::-1]
    return np.column_stack([force, al.static_torques(arm, q, F) + al.gravity_torques(arm, q)])


def test_references_agree_with_another_route():
    """The references that are not armlab's own functions, against armlab by another route;
    max_push and force_error_bound against armlab's own too (the tolerance of the parts,
    1e-9, is not armlab's)."""
    SET.assert_references_agree({
        "statics.holding_torques": lambda arm, q, F: (al.joint_reactions(arm, q, F)[1]),
        "statics.torques_for_reported_force": lambda arm, q, f: al.jacobian(arm, q).T @ -f,
        "statics.max_push": push_route,
        "statics.force_error_bound": error_route,
        "statics.joint_reactions": reactions_route,
    })
    SET.assert_references_agree({"statics.max_push": al.max_tip_force,
                                 "statics.force_error_bound": al.force_error_bound})


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints."""
    worked = SET.worked
    np.testing.assert_allclose(worked("joint_torques"), [-6.5, -4.0], atol=1e-12)
    np.testing.assert_allclose(worked("gravity_torques", 1), [14.8675, 0.0], atol=5e-5)
    np.testing.assert_allclose(worked("joint_reactions"), [[10, 49.05, 8.3675],
                                                           [10, 19.62, -4.0]], atol=5e-5)
    np.testing.assert_allclose(worked("holding_torques"), [8.3675, -4.0], atol=5e-5)
    assert round(float(worked("max_push"))) == 100
    np.testing.assert_allclose(worked("max_push", 1), 20 / 0.24, rtol=1e-12)
    assert round(float(worked("force_error_bound")), 1) == 2.4


def test_the_press_design_meets_its_spec_and_gives_partial_credit():
    """The reference's pose meets every case's spec, and a search of the table top as the
    solution's finds one too (the limits leave a window 16 grid points wide at least); a
    pose on the table with a joint 10 % over its limit earns 60 %, 25 % over nothing; a tip
    2 mm off the table nothing; the words name the joint and by how much."""
    ref = lookup("statics.press_pose")
    for key in ("", "x", "y", "z"):
        for case in ref.cases("worked") + ref.cases("fresh", key=key):
            args = ref.arguments(case)
            fraction, words = ref.function(*args, ref.function(*args))
            assert (fraction, words.endswith("N m")) == (1.0, True), (case, words)
    arm, height, x_range, F, limit = ref.arguments(ref.cases("worked")[0])
    real = al.PlanarArm(**arm.fields())
    # the elbow-down poses along the table: none meets the limits (5, 2) N m
    for x in np.linspace(0.3, 0.8, 11):
        q = al.inverse_kinematics(real, [x, height], elbow="down")
        assert ref.function(arm, height, x_range, F, limit, q)[0] < 1.0
    tau_of = lambda q: al.static_torques(real, q, F) + al.gravity_torques(real, q)  # noqa: E731
    q = al.inverse_kinematics(real, [0.45, height], elbow="up")
    tau = tau_of(q)
    j = int(np.argmax(np.abs(tau) / limit))
    for over, share in ((0.1, 0.6), (0.25, 0.0)):
        tight = np.array(limit, dtype=float)
        tight[j] = abs(tau[j]) / (1 + over)
        fraction, words = ref.function(arm, height, x_range, F, tight.tolist(), q)
        assert fraction == pytest.approx(share, abs=1e-9)
        assert f"joint {j + 1} needs " in words and f"{100 * over:g} % over its limit" in words
        assert not {"search", "elbow", "smallest"} & set(words.split()), words
    lifted = al.inverse_kinematics(real, [0.45, height + 0.002], elbow="up")
    fraction, words = ref.function(arm, height, x_range, F, limit, lifted)
    assert fraction == 0.0 and "2 mm off the table top" in words


def test_the_stretched_pushes_cost_a_slip_once_and_say_their_case():
    """Part 5's cell of stretched poses holds stretched poses only, with unit directions, so a
    direction left unnormalised (a slip the ordinary cells already catch) costs nothing there;
    its docstring and labels say the case (once it held an ordinary push at another pose,
    under the label "where the structure carries it")."""
    ref = lookup("statics.max_push")
    slip = dict((hint, wrong) for wrong, hint in ref.mistakes)
    unnormalised = next(w for h, w in slip.items() if "divide it by its length" in h)
    for key in ("", "x", "y", "z"):
        for case in ref.cases("no torque needed", key=key):
            arm, q, direction, limit = ref.arguments(case)
            assert list(q) == [0.0, 0.0] and "stretched" in case.label, case
            assert np.hypot(*direction) == 1.0, case
            assert unnormalised(arm, q, direction, limit) == ref.function(arm, q, direction,
                                                                           limit)
        assert sorted(np.isinf([ref.function(*ref.arguments(c))
                                for c in ref.cases("no torque needed", key=key)])) == [0, 1, 1]
    cell = next(c for c in SET.source()["cells"]
                if c["metadata"].get("nbgrader", {}).get("grade_id") == "test_push_free")
    assert "at stretched poses" in "".join(cell["source"]).splitlines()[0]


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first, at most a third of its points visible
    for function parts, and one seeded mistake; every checked function an armlab call."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=10, points=43)


def test_visible_checks_catch_the_listed_mistakes():
    """Each listed likely mistake of a part fails that part's visible check, with its hint"""
    SET.assert_visible_checks_catch(MISTAKES)
    for more in MORE_MISTAKES:
        SET.assert_visible_checks_catch(more)


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
        push = SET.parts()["part5"]["points"]       # its visible check catches the mistake too
        assert gb.find_submission("statics", "ann").score == SET.total() - push
        assert len(gb.find_assignment("statics").submissions) == 1


def test_the_explanations_point_at_no_option():
    """A wrong choice's explanation says why it is wrong without the words of any one option"""
    SET.assert_explanations_point_at_no_option(["stretched"])


def test_the_wrench_torques_are_armlabs_statics_plus_the_moment():
    """Part 10's reference against a second route: al.static_torques of a three-link arm
    (J^T F) plus the moment on every joint, as the chapter's two-link moment at the tip"""
    import sympy as sp

    from armlab.grading.references import lookup

    ref = lookup("statics.wrench_torques")
    arm = al.PlanarArm([0.4, 0.3, 0.2], [1.0, 1.0, 1.0], gravity=0.0)
    for q, F, m_z in (([0.3, -1.2, 2.0], [3.0, -4.0], 0.7), ([-2.5, 0.4, 0.0], [0.0, 5.0], -1.5)):
        args = [sp.Float(x, 30) for x in [*q, *arm.lengths, *F, m_z]]
        tau = np.array(ref.function(*args), dtype=float).ravel()
        np.testing.assert_allclose(tau, al.static_torques(arm, q, F) + m_z, atol=1e-12)
