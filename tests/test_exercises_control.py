"""The control exercise set against the exercise standard, with the real nbgrader.

The release in exercises/ is what nbgrader generates from solutions/; the source
scores full marks and the release zero; one seeded mistake per part loses that part
only and gets its hint; the chapter's worked values typed in as constants earn at
most the visible checks; calling the armlab function that answers a part earns
nothing for it. The pure-Python references agree with armlab.
"""

import numpy as np
import pytest

import armlab as al
from armlab.grading.testing import ExerciseSet

SET = ExerciseSet("control")

# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "pd_gravity_answer": ("e = np.asarray(q_plan, dtype=float) - q\n    de = np.asarray("
                          "qd_plan, dtype=float) - qd\n    return al.gravity_torques",
                          "e = q - np.asarray(q_plan, dtype=float)\n    de = qd - np.asarray("
                          "qd_plan, dtype=float)\n    return al.gravity_torques",
                          "the error is the plan minus the measured state"),
    "pid_answer": ("np.asarray(ki) * e * dt", "np.asarray(ki) * e",
                   "each tick adds Ki e dt"),
    "computed_torque_answer": ("return al.inverse_dynamics(arm, q, qd, wanted)",
                               "return al.inverse_dynamics(arm, q_plan, qd_plan, wanted)",
                               "evaluates the model at the measured state q, qd"),
    "gains_answer": ("2.0 * zeta * omega * inertia", "zeta * omega * inertia",
                     "has the factor 2"),
    "rest_answer": ("q = q_target - e\n", "q = q_target + e\n",
                    "the arm rests at q_target - e"),
    "elbow_most_answer": ('elbow_most = "b"', 'elbow_most = "a"',
                          "Both motors carry the payload"),
}
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    "pd_gravity_answer": (
        "def pd_gravity_torque(arm, q, qd, q_plan, qd_plan, kp, kd):\n"
        "    plan = lambda t: (q_plan, qd_plan, np.zeros(2))\n"
        "    return al.pd_gravity(arm, plan, kp, kd)(0.0, q, qd)"),
    "pid_answer": (
        "def pid_torque(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt):\n"
        "    plan = lambda t: (q_plan, qd_plan, np.zeros(2))\n"
        "    c = al.pid(plan, kp, kd, ki, integral=integral)\n"
        "    c(0.0, q, qd)\n"
        "    return c(dt, q, qd)"),
    "computed_torque_answer": (
        "def computed_torque_law(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd):\n"
        "    plan = lambda t: (q_plan, qd_plan, qdd_plan)\n"
        "    return al.computed_torque(arm, plan, kp, kd)(0.0, q, qd)"),
    "gains_answer": (
        "def gains_for(omega, zeta, inertia):\n"
        "    return np.array(al.pd_gains(omega, zeta, inertia))"),
    "rest_answer": (
        "def ct_rest_error(arm, model, q_target, kp):\n"
        "    return al.settled_error(arm, q_target, kp, model=model, computed_torque=True)"),
}


def _plan(q_plan, qd_plan, qdd_plan=(0.0, 0.0)):
    return lambda t: (np.asarray(q_plan, float), np.asarray(qd_plan, float),
                      np.asarray(qdd_plan, float))


def _pid_tick(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt):
    """armlab's PID, called at t = 0 (no time has passed) and then one tick later."""
    c = al.pid(_plan(q_plan, qd_plan), kp, kd, ki, integral=integral)
    c(0.0, q, qd)
    return c(dt, q, qd)


def test_references_agree_with_armlab():
    """Two independent routes: the pure-Python references and armlab's controllers,
    inverse dynamics, pd_gains and settled_error."""
    SET.assert_references_agree({
        "control.pd_gravity_torque": lambda arm, q, qd, qp, qdp, kp, kd: al.pd_gravity(
            arm, _plan(qp, qdp), kp, kd)(0.0, q, qd),
        "control.pid_torque": _pid_tick,
        "control.computed_torque_law": lambda arm, q, qd, qp, qdp, qddp, kp, kd:
            al.computed_torque(arm, _plan(qp, qdp, qddp), kp, kd)(0.0, q, qd),
        "control.gains_for": lambda omega, zeta, inertia: np.array(
            al.pd_gains(omega, zeta, inertia)),
        "control.ct_rest_error": lambda arm, model, q, kp: al.settled_error(
            arm, q, kp, model=model, computed_torque=True),
    })


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints (seed 000)."""
    worked = SET.worked
    assert worked("pd_gravity_torque").round(4).tolist() == [1.2146, 2.1146]
    assert worked("pid_torque").round(4).tolist() == [1.3183, 2.1156]
    assert worked("computed_torque_law").round(4).tolist() == [6.9575, 0.8488]
    assert worked("gains_for").tolist() == [400.0, 40.0]
    assert np.degrees(worked("ct_rest_error")).round(2).tolist() == [-1.11, 10.52]


def test_fresh_rest_cases_are_moderate():
    """The rest-pose part's hidden cases rest a few degrees off their targets, with a case key
    and with the fixed default (per student: the standard on paper)."""
    from armlab.grading.references import lookup

    ref = lookup("control.ct_rest_error")
    for key in ("", "x"):
        for case in ref.cases("fresh", key=key):
            e = np.degrees(ref.function(*ref.arguments(case)))
            assert 0.005 < np.abs(e).max() < 20.1, case


def test_the_set_meets_the_standard_on_paper():
    """Six parts, 28 points; every part a seeded mistake; every checked function an armlab
    call; a visible check first, at most a third of the part's points."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=6, points=28)


@pytest.mark.slow
def test_exercises_equal_a_fresh_release():
    SET.assert_release_is_fresh()


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)
