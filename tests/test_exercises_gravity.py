"""The gravity exercise set against the exercise standard, with the real nbgrader.

The references agree with armlab; the visible checks hold the chapter's worked values; the
release is what nbgrader generates from the source; the source scores full marks and the
release zero; one seeded mistake per part loses that part only and gets its hint; the worked
values typed in as constants earn at most the visible checks; calling the armlab function that
answers a part earns nothing for it.
"""

import numpy as np
import pytest

import armlab as al
from armlab.grading.testing import ExerciseSet

SET = ExerciseSet("gravity")

# answer cell: (text in its solution, replacement, hint the feedback must show); one per part
MISTAKES = {
    "potential_answer": ("a1, a12 = q[0], q[0] + q[1]", "a1, a12 = q[0], q[1]",
                         "link 2's direction is q1 + q2"),
    "stiffness_answer": ("return np.array([[k11, k22], [k22, k22]])",
                         "return -np.array([[k11, k22], [k22, k22]])", "this is -dg/dq"),
    "sag_answer": ("rest = q - e", "rest = q + e", "the arm rests below its target"),
    "fit_answer": ("Y[1::2, 1] = c12", "Y[1::2, 1] = 0.0", "stack both joints' rows"),
    "payload_answer": ("(g0 * arm.lengths[1])", "(g0 * arm.com[1])",
                       "not the centre of mass's distance"),
    "upright_answer": ('upright = "b"', 'upright = "a"', "look at the sign of dg/dq"),
}
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    "potential_answer": ("def potential_energy(arm, q):\n"
                         "    return float(al.potential_energy(arm, q))"),
    "stiffness_answer": ("def gravity_stiffness(arm, q):\n"
                         "    return al.gravity_stiffness(arm, q)"),
    "sag_answer": "def pd_sag(arm, q, kp):\n    return al.pd_sag(arm, q, kp)",
    "fit_answer": ("def fit_gravity_parameters(q, tau):\n"
                   "    return al.fit_gravity(q, tau).theta"),
    "payload_answer": ("def payload_mass(arm, q_empty, tau_empty, q_loaded, tau_loaded):\n"
                       "    b0 = al.fit_gravity(q_empty, tau_empty).b\n"
                       "    b1 = al.fit_gravity(q_loaded, tau_loaded).b\n"
                       "    return al.payload_mass(b0, b1, arm.lengths[1])"),
}


def _fit(q, tau):
    return al.fit_gravity(q, tau).theta


def _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    b_empty, b_loaded = _fit(q_empty, tau_empty)[1], _fit(q_loaded, tau_loaded)[1]
    return al.payload_mass(b_empty, b_loaded, arm.lengths[1], np.hypot(*arm.gravity))


def test_references_agree_with_armlab():
    """Two independent routes: the pure-Python references and armlab (pd_sag against armlab's
    damped Newton search, the fits against numpy's lstsq)."""
    SET.assert_references_agree({
        "gravity.potential_energy": al.potential_energy,
        "gravity.gravity_stiffness": al.gravity_stiffness,
        "gravity.pd_sag": al.pd_sag,
        "gravity.fit_gravity_parameters": _fit,
        "gravity.payload_mass": _payload,
    })


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints (seeds 000 and 002)."""
    worked = SET.worked
    assert round(float(worked("potential_energy")), 4) == 4.1275
    np.testing.assert_allclose(worked("gravity_stiffness"),
                               [[-19.62, -4.905], [-4.905, -4.905]], rtol=1e-12)
    assert np.degrees(worked("pd_sag")).round(1).tolist() == [5.5, 0.9]
    assert worked("fit_gravity_parameters").round(3).tolist() == [5.887, 1.224]
    assert round(float(worked("payload_mass")), 2) == 0.49


def test_sag_cases_have_one_rest_pose():
    """The hidden sag cases' gains beat gravity's stiffness everywhere (twice a bound of
    |dg/dq|), so the rest pose is unique and the simple iteration e = Kp^-1 g(q - e)
    converges to it"""
    from armlab.grading.cases import ArmData
    from armlab.grading.references import lookup

    ref = lookup("gravity.pd_sag")
    for key in ("", "x", "y", "z"):
        for case in ref.cases("fresh", key=key):
            arm = al.PlanarArm(**case.args["arm"].fields())
            q, kp = np.array(case.args["q"]), np.array(case.args["kp"])
            e = np.zeros(2)
            for _ in range(200):
                e = al.gravity_torques(arm, q - e) / kp
            np.testing.assert_allclose(e, ref.function(*ref.arguments(case)), atol=1e-10)
            assert isinstance(case.args["arm"], ArmData)


def test_the_set_meets_the_standard_on_paper():
    """Six parts, 27 points, a visible check first worth at most a third of a function part,
    one seeded mistake and one armlab call per checked function, docstrings on every test,
    fresh cases per student"""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=6, points=27)


@pytest.mark.slow
def test_exercises_equal_a_fresh_release():
    SET.assert_release_is_fresh()


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)
