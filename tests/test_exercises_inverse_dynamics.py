"""The inverse dynamics exercise set against the exercise standard, with the real nbgrader.

The references (pure Python closed forms) agree with armlab's own routes; the
visible checks' values are the chapter's worked values (seeds 000, 001, 002);
the release equals a fresh nbgrader release of the source; the source scores
full marks and the release zero; one seeded mistake per part loses that part
only and gets its hint; worked values typed in as constants earn at most the
visible checks; calling the armlab function that answers a part earns nothing
for it.
"""

import numpy as np
import pytest

import armlab as al
from armlab.grading.testing import ExerciseSet

CHAPTER = "inverse_dynamics"
SET = ExerciseSet(CHAPTER)

# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "mass_answer": ("c1, c2 = arm.com", "c1, c2 = arm.com[0], arm.lengths[1]",
                    "not at the link's end"),
    "velocity_answer": ("h * qd[0] ** 2", "h * qd[1] ** 2",
                        "the elbow feels the shoulder's spin"),
    "torque_answer": ("friction + al.jacobian(arm, q).T @ F", "friction - al.jacobian(arm, q).T @ F",
                      "the tip force's sign"),
    "energy_answer": ("@ qdd + 0.5 * qd @ mdot @ qd", "@ qdd",
                      "T changes also because M changes with q2"),
    "rnea_answer": ("acc = -np.asarray(arm.gravity", "acc = np.asarray(arm.gravity",
                    "gravity's sign"),
    "elbow_answer": ('elbow_reason = "b"', 'elbow_reason = "a"',
                     "which entry of M multiplies qdd1"),
    "rest_answer": ('at_rest = "b"', 'at_rest = "c"', "which terms contain qd"),
}
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    "mass_answer": "def mass_matrix(arm, q):\n    return al.mass_matrix(arm, q)",
    "velocity_answer": ("def velocity_products(arm, q, qd):\n"
                        "    return al.coriolis_torques(arm, q, qd)"),
    "torque_answer": ("def required_torque(arm, q, qd, qdd, tip_force):\n"
                      "    return al.inverse_dynamics(arm, q, qd, qdd, tip_force)"),
    "energy_answer": ("def energy_rate(arm, q, qd, qdd):\n"
                      "    return float(al.power_balance(arm, q, qd, qdd).energy_rate)"),
    "rnea_answer": "def rnea(arm, q, qd, qdd):\n    return al.rnea(arm, q, qd, qdd)",
}


def _rigid(arm):
    """The same arm without friction (RNEA's part is the rigid-body torque)."""
    return al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia, arm.gravity)


def test_references_agree_with_armlab():
    """Two independent routes: the pure-Python references and armlab."""
    SET.assert_references_agree({
        f"{CHAPTER}.mass_matrix": al.mass_matrix,
        f"{CHAPTER}.velocity_products": al.coriolis_torques,
        f"{CHAPTER}.required_torque": al.inverse_dynamics,
        f"{CHAPTER}.energy_rate": lambda arm, q, qd, qdd: al.power_balance(
            arm, q, qd, qdd).energy_rate,
        f"{CHAPTER}.rnea": lambda arm, q, qd, qdd: al.rnea(_rigid(arm), q, qd, qdd),
    })


def test_references_are_closed_once_loaded():
    """The registry closed this module's references (no more cases or mistakes can be added),
    though the forward dynamics references reuse its helpers."""
    from armlab.grading.references import lookup, quantities

    for quantity in quantities(CHAPTER):
        assert lookup(quantity)._open is False, quantity
    assert dict(lookup(f"{CHAPTER}.required_torque").uses).keys() == {"mass_matrix",
                                                                      "velocity_products"}


def test_rnea_mistakes_come_from_a_recursion_that_is_right_unbroken():
    """The recursion behind the RNEA part's hints, without a mistake, is armlab's RNEA."""
    from armlab.grading.references import inverse_dynamics as ref

    rng = np.random.default_rng(4)
    for arm in (al.tabletop_arm(), al.rod_arm(), al.PlanarArm([0.4, 0.7], [2.0, 0.6],
                                                              com=[0.1, 0.5],
                                                              inertia=[0.02, 0.05],
                                                              gravity=[-9.81, 0.0])):
        data = ref.ArmData.from_arm(arm)
        for _ in range(5):
            q, qd, qdd = (rng.uniform(-2, 2, 2) for _ in range(3))
            np.testing.assert_allclose(ref._recursion(data, list(q), list(qd), list(qdd)),
                                       al.rnea(arm, q, qd, qdd), atol=1e-12)


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints (seeds 000-002)."""
    worked = SET.worked
    np.testing.assert_allclose(worked("mass_matrix"), [[8 / 3, 5 / 6], [5 / 6, 1 / 3]],
                               atol=1e-15)
    np.testing.assert_allclose(worked("velocity_products"), [-0.324760, -0.433013], atol=5e-7)
    np.testing.assert_allclose(worked("required_torque"), [14.851657, 0.583013], atol=5e-7)
    np.testing.assert_allclose(worked("required_torque", 1), [9.62, -0.095], atol=5e-7)
    np.testing.assert_allclose(worked("energy_rate"), 15.280071, atol=5e-7)
    np.testing.assert_allclose(worked("rnea"), [5.7796, 0.4443], atol=5e-5)


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first worth at most a third of a function
    part, and one seeded mistake; every checked function an armlab call; the intro says
    how to install (test_book_prose checks the chapter's list of the parts)."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=7, points=30)


@pytest.mark.slow
def test_exercises_equal_a_fresh_release():
    SET.assert_release_is_fresh()


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)
