"""The forward dynamics exercise set against the exercise standard, with the real nbgrader.

The references (pure-Python closed forms, the step and its loop written out)
agree with armlab's own routes; the visible checks' values are the chapter's
worked values (seed 000); the release equals a fresh nbgrader release of the
source; the source scores full marks and the release zero; one seeded mistake
per part loses that part only and gets its hint; worked values typed in as
constants earn at most the visible checks; calling the armlab function that
answers a part earns nothing for it.
"""

import numpy as np
import pytest

import armlab as al
from armlab.accuracy import step_sweep
from armlab.grading.testing import ExerciseSet

CHAPTER = "forward_dynamics"
SET = ExerciseSet(CHAPTER)

# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "acceleration_answer": ("friction = np.asarray(arm.damping) * qd",
                            "friction = -np.asarray(arm.damping) * qd", "friction's sign"),
    "step_answer": ("q_new = np.asarray(q, dtype=float) + h * qd_new",
                    "q_new = np.asarray(q, dtype=float) + h * np.asarray(qd)",
                    "that is explicit Euler"),
    "fall_answer": ("range(round(duration / h))", "range(round(duration / h) + 1)",
                    "count the steps"),
    "energy_answer": ("kinetic = 0.5 * qd @", "kinetic = qd @", "the factor one half"),
    "coarsest_answer": ('method="semi_implicit_euler"', 'method="explicit_euler"',
                        "use the book's integrator"),
    "explicit_answer": ('explicit_energy = "c"', 'explicit_energy = "b"', "1 + h^2 w^2"),
    "why_answer": ('why_semi_implicit = "b"', 'why_semi_implicit = "a"',
                   "determinant of the step's matrix"),
}
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    "acceleration_answer": ("def acceleration(arm, q, qd, tau):\n"
                            "    return al.forward_dynamics(arm, q, qd, tau)"),
    "step_answer": ("def semi_implicit_step(arm, q, qd, tau, h):\n"
                    "    sim = al.simulate(arm, q, h, lambda t, q_, qd_: tau, qd0=qd,\n"
                    "                      control_dt=h, substeps=1)\n"
                    "    return sim.q[1], sim.qd[1]"),
    "fall_answer": ("def fall(arm, q0, duration, h):\n"
                    "    return al.simulate(arm, q0, duration, control_dt=h, substeps=1).q[-1]"),
    "energy_answer": ("def total_energy(arm, q, qd):\n"
                      "    return float(al.kinetic_energy(arm, q, qd)"
                      " + al.potential_energy(arm, q))"),
    "coarsest_answer": ("from armlab.accuracy import step_sweep\n\n\n"
                        "def coarsest_step(arm, q0, duration, steps, bound):\n"
                        "    sweep = step_sweep(arm, q0, duration, steps, "
                        "'semi_implicit_euler', reference=q0)\n"
                        "    good = [h for h, e in zip(sweep.steps, sweep.energy_error)"
                        " if e <= bound]\n"
                        "    return float(max(good)) if good else float(min(steps))"),
}


def _step(arm, q, qd, tau, h):
    """One semi-implicit Euler step by armlab's simulation (one tick of one plant step)."""
    sim = al.simulate(arm, q, h, lambda t, q_, qd_: np.asarray(tau, float), qd0=qd,
                      control_dt=h, substeps=1)
    return sim.q[1], sim.qd[1]


def _coarsest(arm, q0, duration, steps, bound):
    sweep = step_sweep(arm, q0, duration, steps, "semi_implicit_euler", reference=q0)
    good = [h for h, e in zip(sweep.steps, sweep.energy_error) if e <= bound]
    return max(good) if good else min(steps)


def test_references_agree_with_armlab():
    """Two independent routes: the pure-Python references and armlab."""
    SET.assert_references_agree({
        f"{CHAPTER}.acceleration": al.forward_dynamics,
        f"{CHAPTER}.semi_implicit_step": _step,
        f"{CHAPTER}.fall": lambda arm, q0, duration, h: al.simulate(
            arm, q0, duration, control_dt=h, substeps=1).q[-1],
        f"{CHAPTER}.total_energy": lambda arm, q, qd: (al.kinetic_energy(arm, q, qd)
                                                       + al.potential_energy(arm, q)),
        f"{CHAPTER}.coarsest_step": _coarsest,
    })


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints (seed 000)."""
    worked = SET.worked
    # the worked torques as printed give back (2.9998, -1.9984), as the chapter says
    assert np.round(worked("acceleration"), 4).tolist() == [2.9998, -1.9984]
    q1, qd1 = worked("semi_implicit_step")
    assert np.round(qd1, 5).tolist() == [-0.00404, 0.00765]
    assert np.round(np.degrees(np.subtract(q1, np.radians([30, 45]))), 7).tolist() == \
        [-0.0000231, 0.0000438]
    assert np.round(np.degrees(worked("fall")), 1).tolist() == [-35.4, 98.7]
    assert round(float(worked("total_energy")), 4) == 4.1275
    assert worked("coarsest_step") == 1e-3


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first worth at most a third of a function
    part, and one seeded mistake; every checked function an armlab call; the intro says
    how to install (test_book_prose checks the chapter's list of the parts)."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=7, points=26)


@pytest.mark.slow
def test_exercises_equal_a_fresh_release():
    SET.assert_release_is_fresh()


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)
