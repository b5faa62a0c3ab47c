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
    "gravity_answer": ("np.hypot(at_0, at_90)", "abs(at_0)", "with link 1 level (q1 = 0)"),
    "holding_answer": ("joint_torques(arm, q, F) + al.gravity_torques(arm, q)",
                       "joint_torques(arm, q, F)", "add g(q)"),
    "reactions_answer": ("out[0] += [", "out += [",
                         "a bearing beyond the elbow does not carry its force"),
    "push_answer": ("np.min(room", "np.max(room", "take the smallest"),
    "error_answer": ("np.linalg.solve(J.T, corners.T)", "np.linalg.solve(J, corners.T)",
                     "J transposed has been inverted where J belongs"),
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
                        "return lever[:, 1] * F[0] - lever[:, 0] * F[1]",
                        "F x r, or minus r x F, is its"),
     "gravity_answer": ("return float(np.hypot(at_0, at_90))",
                        "return float(abs(at_0) + abs(at_90))",
                        "the two worsts add only when the elbow is straight"),
     "holding_answer": ("joint_torques(arm, q, F) + al.gravity_torques(arm, q)",
                        "al.gravity_torques(arm, q)", "this is g(q) alone"),
     "reactions_answer": ("r = p[1] - p[0]", "r = p[-1] - p[0]", "not at the tip"),
     "push_answer": ("d / np.linalg.norm(d)", "d", "divide it by its length first"),
     "error_answer": ("corners = dtau * np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]])",
                      "corners = dtau * np.array([[1, 1]])", "that is one corner only"),
     "press_answer": ("worst = np.max(np.abs(holding_torques(arm, q, F))",
                      "worst = np.max(np.abs(joint_torques(arm, q, F))", "% over its limit")},
    {"gravity_answer": (", q2])[0]", ", np.degrees(q2)])[0]",
                        "do not convert it to degrees"),
     "holding_answer": ("joint_torques(arm, q, F) + al.gravity_torques(arm, q)",
                        "joint_torques(arm, q, F) - al.gravity_torques(arm, q)", "gravity's sign"),
     "reactions_answer": ("P = np.asarray(P, dtype=float)", "P = -np.asarray(P, dtype=float)",
                          "the prop pushes link 1 with -P"),
     "push_answer": ("g = al.gravity_torques(arm, q)", "g = 0 * al.gravity_torques(arm, q)",
                     "this ignores the links' weight"),
     "error_answer": ("u = d / np.linalg.norm(d)", "u = d", "divide it by its length first"),
     "press_answer": ("holding_torques(arm, q, F)", "holding_torques(arm, q, -np.asarray(F))",
                      "% over its limit")},
    {"holding_answer": ("joint_torques(arm, q, F) + al.gravity_torques(arm, q)",
                        "-joint_torques(arm, q, F) + al.gravity_torques(arm, q)",
                        "the contact part has the wrong sign"),
     "reactions_answer": ("r[0] * P[1] - r[1] * P[0]", "0.0", "its moment about joint 1 is "
                                                              "missing"),
     "push_answer": ("np.where(t > 0, limit - g, limit + g)", "limit - np.abs(g)",
                     "not limit - |g_j|"),
     "error_answer": ("np.max(np.abs(u @ errors))", "np.max(np.linalg.norm(errors, axis=0))",
                      "the whole force, not of its component"),
     "press_answer": ("    return best\n", "    return np.degrees(best)\n",
                      "off the table top")},
    {"reactions_answer": ("out = np.column_stack([force, moment])",
                          "return np.column_stack([force, moment])", "the prop's force is missing"),
     "push_answer": ("g = al.gravity_torques(arm, q)", "g = -al.gravity_torques(arm, q)",
                     "gravity's sign"),
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
    # the shoulder's worst from the weights' moments as a tip force: static_torques is off
    "gravity_answer": ("def shoulder_worst(arm, q2):\n"
                       "    w = -np.sum(arm.masses) * np.asarray(arm.gravity)\n"
                       "    return float(abs(al.static_torques(arm, [0.0, q2], w)[0]))"),
    "holding_answer": ("def holding_torques(arm, q, F):\n"
                       "    return al.static_torques(arm, q, F) + al.gravity_torques(arm, q)"),
    "push_answer": ("def max_push(arm, q, direction, limit):\n"
                    "    return float(al.max_tip_force(arm, q, direction, limit))"),
    "error_answer": ("def force_error_along(arm, q, dtau, direction):\n"
                     "    return float(al.force_error_bound(arm, q, dtau))"),
    "sign_answer": ("def torques_for_reported_force(arm, q, force_on_arm):\n"
                    "    return al.static_torques(arm, q, -np.asarray(force_on_arm))"),
    # the moments by virtual work, with armlab's static torques, which the part does not allow
    "reactions_answer": ("def propped_reactions(arm, q, F, P):\n"
                         "    force, _ = al.joint_reactions(arm, q, np.add(F, P))\n"
                         "    moment = al.static_torques(arm, q, F) + al.gravity_torques(arm, q)\n"
                         "    return np.column_stack([force, moment])"),
    "press_answer": ("def press_pose(arm, height, x_range, F, limit):\n"
                     "    poses = [al.inverse_kinematics(arm, [x, height], elbow=e)\n"
                     "             for x in np.linspace(*x_range, 101) for e in ('down', 'up')]\n"
                     "    return min(poses, key=lambda q: np.max(np.abs(\n"
                     "        al.static_torques(arm, q, F) + al.gravity_torques(arm, q)) / limit))"),
}


def shoulder_route(arm, q2):
    """The worst shoulder torque by a sweep of the shoulder angle, 0.01° apart, refined by
    the parabola through the best sample and its neighbours."""
    q1 = np.radians(np.arange(-180.0, 180.0, 0.01))
    g1 = np.abs(al.gravity_torques(arm, np.stack([q1, np.full_like(q1, q2)], axis=-1))[:, 0])
    k = int(np.argmax(g1))
    a, b, c = g1[k - 1], g1[k], g1[(k + 1) % len(g1)]
    return b + (a - c) ** 2 / (8 * (2 * b - a - c)) if 2 * b - a - c > 0 else b


def push_route(arm, q, direction, limit):
    """The largest push by bisection on s: the smallest s at which a joint leaves its
    limits, armlab's torques at every step."""
    d = np.asarray(direction) / np.linalg.norm(direction)

    def held(s):
        return np.all(np.abs(al.gravity_torques(arm, q) + al.static_torques(arm, q, s * d))
                      <= limit)

    if held(1e7):
        return np.inf
    lo, hi = 0.0, 1e7
    for _ in range(200):
        lo, hi = ((lo + hi) / 2, hi) if held((lo + hi) / 2) else (lo, (lo + hi) / 2)
    return lo


def error_route(arm, q, dtau, direction):
    """The worst error of the component by linear programming over the box (scipy's
    linprog, max of u . J^{-T} dtau and of its opposite), the map J^{-T} written out."""
    from scipy.optimize import linprog

    J = al.jacobian(arm, q)
    det = J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0]
    if abs(det) < 1e-9:
        return np.inf
    inverse_t = np.array([[J[1, 1], -J[1, 0]], [-J[0, 1], J[0, 0]]]) / det
    u = np.asarray(direction) / np.linalg.norm(direction)
    c = u @ inverse_t
    return max(-linprog(sign * -c, bounds=[(-dtau, dtau)] * 2).fun for sign in (1, -1))


def propped_route(arm, q, F, P):
    """Each bearing carries the tip force, the prop's force (joint 1 only) and every weight
    beyond it (sum of forces on the links from j on); each moment is the holding torque by
    virtual work, g(q) + J^T F + J_elbow^T P, J_elbow the Jacobian of the elbow."""
    weights = np.outer(arm.masses, arm.gravity)
    force = F - np.cumsum(weights[::-1], axis=0)[::-1]
    force[0] += P
    elbow = al.jacobian(al.PlanarArm(arm.lengths[:1], arm.masses[:1]), q[:1])
    moment = al.static_torques(arm, q, F) + al.gravity_torques(arm, q)
    moment[0] += (elbow.T @ P)[0]
    return np.column_stack([force, moment])


def test_references_agree_with_another_route():
    """The references that are not armlab's own functions, against armlab by another route"""
    SET.assert_references_agree({
        "statics.holding_torques": lambda arm, q, F: (al.joint_reactions(arm, q, F)[1]),
        "statics.torques_for_reported_force": lambda arm, q, f: al.jacobian(arm, q).T @ -f,
        "statics.shoulder_worst": shoulder_route,
        "statics.max_push": push_route,
        "statics.force_error_along": error_route,
        "statics.propped_reactions": propped_route,
    })


def test_worked_values_are_the_chapters():
    """The visible checks' values: the chapter's numbers where the part is the chapter's
    case, and the new cases' values worked out by hand"""
    worked = SET.worked
    np.testing.assert_allclose(worked("joint_torques"), [-6.5, -4.0], atol=1e-12)
    # 9.81 (3 * 0.25 + 2 * 0.5 + 2 * 0.2) and 9.81 |1.75 + 0.4 i|
    np.testing.assert_allclose(worked("shoulder_worst"), 9.81 * 2.15, rtol=1e-12)
    np.testing.assert_allclose(worked("shoulder_worst", 1), 9.81 * np.hypot(1.75, 0.4),
                               rtol=1e-12)
    # Example 4's bearings, joint 1 with the prop's 20 N down at the elbow (0.433, 0.25) m
    elbow_x = 0.5 * np.cos(np.radians(30))
    np.testing.assert_allclose(worked("propped_reactions"),
                               [[10, 49.05 - 20, 8.3675 - 20 * elbow_x], [10, 19.62, -4.0]],
                               atol=5e-5)
    np.testing.assert_allclose(worked("propped_reactions", 1),
                               [[25, 49.05, 8.3675 - 15 * 0.25], [10, 19.62, -4.0]], atol=5e-5)
    np.testing.assert_allclose(worked("holding_torques"), [8.3675, -4.0], atol=5e-5)
    # a pull along -x at (0, 30) deg: joint 1 first, its 30 N m less the weights' g_1,
    # over 0.2 N m/N
    g1 = 9.81 * (3 * 0.25 + 2 * (0.5 + 0.2 * np.cos(np.radians(30))))
    np.testing.assert_allclose(worked("max_push"), (30 - g1) / 0.2, rtol=1e-9)
    # down at the wall pose: joint 2 free, joint 1's 14.8675 + 20 N m over its lever 0.433 m
    np.testing.assert_allclose(worked("max_push", 1), (20 + 14.8675) / elbow_x, rtol=1e-5)
    # J^{-1} u at (0, 90) deg: (0, -2.5) for x, (2, -2) for y, times 0.5 N m
    assert worked("force_error_along") == pytest.approx(1.25, abs=1e-12)
    assert worked("force_error_along", 1) == pytest.approx(2.0, abs=1e-12)


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
