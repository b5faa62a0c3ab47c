"""The spatial dynamics exercise set against the exercise standard.

The references agree with armlab's routes (each joint's wrench projected on its axis is
armlab's RNEA torque, and the last joint's wrench is the last body's Newton-Euler wrench;
c from the mass matrix is armlab's RNEA c; a swing's period by the exact pendulum's
elliptic integral is a tight simulation's); the visible checks' values are the chapter's
(Example 3's torques and c); every listed mistake differs at a worked case and the seeded
ones fail their visible checks with their hints; the design's judge passes the grader's
shortest move on every fresh case and the worked duration typed in fails some; the release
equals a fresh one; graded with the real nbgrader and the sandbox, the source scores full
marks, the release zero, each seeded mistake costs its part only, constants earn at most
the visible checks, and a call of an armlab function the part does not allow earns nothing.
"""

import numpy as np
import pytest

import armlab.spatial as sp
from armlab.grading.references import lookup
from exercise_sets import ExerciseSet

CHAPTER = "spatial_dynamics"
REFS = __import__(f"armlab.grading.references.{CHAPTER}", fromlist=["x"])
WORKED_T = 1.02 * REFS.shortest(REFS.SO101, REFS.Q_W, REFS._statics.Q_WORK)

SET = ExerciseSet(CHAPTER, designs={f"{CHAPTER}.move_duration": WORKED_T})


def _projected(chain, q, qd, qdd):
    """Route for the joints' wrenches: S_i . F_i is RNEA's torque, and the last row is the
    last body's own I a - ad(V)ᵀ I V (no joint beyond it)."""
    return np.einsum("ij,ij->i", REFS.real(chain).screws,
                     np.array(REFS.joint_wrenches(chain, q, qd, qdd)))


ROUTES = {
    f"{CHAPTER}.coriolis_from_mass": lambda chain, q, qd: REFS._christoffel(chain, q, qd),
    f"{CHAPTER}.small_swing_period": lambda chain, q0, j: 2 * np.pi / np.sqrt(
        np.linalg.eigvals(np.atleast_2d(REFS._k_and_m(REFS.real(chain), np.array(q0), int(j))[0]
                                        / REFS._k_and_m(REFS.real(chain), np.array(q0),
                                                        int(j))[1])).real[0]),
    f"{CHAPTER}.swing_period": REFS.simulated_swing,
}

MISTAKES = {
    "wrenches_answer": ("np.r_[np.zeros(3), -chain.gravity]",
                        "np.r_[np.zeros(3), chain.gravity]", "the base accelerates upward"),
    "coriolis_answer": ("Mdot @ qd - 0.5 * np.einsum", "Mdot @ qd - np.einsum", "half of it"),
    "predict_answer": ("return 2 * np.pi * np.sqrt(", "return np.sqrt(", "a period is 2π/ω"),
    "simulate_answer": ("back.direction = -np.sign(amplitude)",
                        "back.direction = np.sign(amplitude)", "that is half a swing"),
    "move_answer": ("return 1.02 * max(by_torque, by_speed)",
                    "return 0.8 * max(by_torque, by_speed)", "of the rated one"),
    "planet_answer": ('planet = "b"', 'planet = "a"', "limiting joint's balance"),
}
MORE_MISTAKES = [
    {"wrenches_answer": ("F[i] = chain.inertias[i] @ A - sp.ad(V).T @ chain.inertias[i] @ V",
                         "F[i] = chain.inertias[i] @ A", "the velocity-product term too"),
     "coriolis_answer": ("Mdot @ qd - 0.5 * np.einsum", "Mdot @ qd + 0.5 * np.einsum",
                         "subtracted from Ṁ q̇, not added"),
     "predict_answer": ("sp.mass_matrix(chain, q0)[j, j] / stiffness",
                        "stiffness / sp.mass_matrix(chain, q0)[j, j]", "not its inverse")},
    {"wrenches_answer": ("F[i - 1] += X[i].T @ F[i]", "F[i - 1] += np.linalg.inv(X[i]) @ F[i]",
                         "not with X⁻¹")},
]
CALLS = {
    "wrenches_answer": None,         # below: the solution with joint_poses for the transforms
    "coriolis_answer": ("def coriolis_from_mass(chain, q, qd):\n"
                        "    return sp.coriolis_torques(chain, q, qd)"),
    "predict_answer": ("def small_swing_period(chain, q0, j):\n"
                       "    j = int(j)\n"
                       "    H = sp.mass_matrix(chain, q0)\n"
                       "    e = np.eye(chain.n)[j] * 1e-6\n"
                       "    V = lambda x: sp.potential_energy(chain, x)\n"
                       "    k = (V(q0 + e) - 2 * V(q0) + V(q0 - e)) / 1e-12\n"
                       "    return 2 * np.pi * np.sqrt(H[j, j] / k)"),
    "simulate_answer": None,         # below: the solution with forward_dynamics of joint j
    "move_answer": None,             # below: the solution with g from the potential energy
}


def _calls():
    wrenches = SET.answer("wrenches_answer").replace(
        "X.append(sp.adjoint(sp.inverse(chain.origins[i] @ motion)))",
        "X.append(sp.adjoint(sp.inverse(np.linalg.inv(sp.joint_poses(chain, q)[i - 1]) @ "
        "sp.joint_poses(chain, q)[i] if i else sp.joint_poses(chain, q)[0])))")
    simulate = SET.answer("simulate_answer").replace(
        "-sp.gravity_torques(chain, q)[j] / sp.mass_matrix(chain, q)[j, j]",
        "-sp.inverse_dynamics(chain, q, 0 * q, 0 * q)[j] / sp.mass_matrix(chain, q)[j, j]")
    move = SET.answer("move_answer").replace(
        "g = sp.gravity_torques(chain, q)",
        "g = np.array([[(sp.potential_energy(chain, x + 1e-6 * e) - sp.potential_energy("
        "chain, x - 1e-6 * e)) / 2e-6 for e in np.eye(chain.n)] for x in q])")
    return {"wrenches_answer": wrenches, "simulate_answer": simulate, "move_answer": move}


CALLS.update(_calls())


def test_calls_are_right_answers():
    """Each armlab call is a right answer outside a check (so its zero comes from the call)."""
    for text in CALLS.values():
        assert "sp." in text


def test_references_agree_with_armlab():
    """Two routes on the worked and fresh cases of three case keys."""
    SET.assert_references_agree(ROUTES, rtol=1e-5, atol=1e-8)


def test_joint_wrenches_project_onto_rnea_and_the_last_body():
    ref = lookup(f"{CHAPTER}.joint_wrenches")
    for case in ref.worked + tuple(ref.cases("fresh", key="w")):
        chain, q, qd, qdd = ref.arguments(case)
        ch = REFS.real(chain)
        np.testing.assert_allclose(_projected(chain, q, qd, qdd),
                                   sp.inverse_dynamics(ch, q, qd, qdd), atol=1e-9, rtol=1e-9)
        one = np.array(REFS._wrenches(chain, q, qd, qdd))
        # the last joint carries the last body's wrench alone: its torque is unchanged when
        # every body but the last is massless
        light = REFS.ChainData(**{**chain.fields(), "inertias": [[[0.0] * 6] * 6] * (ch.n - 1)
                                  + [chain.fields()["inertias"][-1]]})
        np.testing.assert_allclose(np.array(REFS._wrenches(light, q, qd, qdd))[-1], one[-1],
                                   atol=1e-9)


def test_worked_values_are_the_chapters():
    """Example 3's RNEA torques and c, and the hanging wrist's rest (g_3 = 0)."""
    so101 = sp.so101()
    q, qd, qdd = REFS.Q_W, REFS.QD_W, REFS.QDD_W
    np.testing.assert_allclose(_projected(REFS.SO101, q, qd, qdd),
                               sp.inverse_dynamics(so101, q, qd, qdd), atol=1e-12)
    np.testing.assert_allclose(SET.worked("coriolis_from_mass"),
                               sp.coriolis_torques(so101, q, qd), atol=1e-15)
    assert abs(sp.gravity_torques(so101, REFS.WRIST)[3]) < 1e-12
    assert SET.worked("swing_period") > SET.worked("small_swing_period") * 1.01


def test_every_listed_mistake_differs_at_a_worked_case():
    from armlab.grading.purepy import close
    from armlab.grading.references import quantities

    for quantity in quantities(CHAPTER):
        ref = lookup(quantity)
        for wrong, message in ref.mistakes:
            assert any(not close(wrong(*ref.arguments(c)), ref(*ref.arguments(c)), 1e-3, 1e-9)
                       for c in ref.worked), f"{quantity}: {message}"


def test_design_judge_passes_the_graders_design_and_not_the_worked_one():
    ref = lookup(f"{CHAPTER}.move_duration")
    misses = 0
    for key in ("", "x"):
        for case in ref.cases("fresh", key=key):
            args = ref.arguments(case)
            assert ref(*args, 1.02 * REFS.shortest(*args))[0] == 1.0
            assert ref(*args, 0.9 * REFS.shortest(*args))[0] < 1.0
            misses += ref(*args, WORKED_T)[0] < 1.0
    assert misses >= 3


def test_the_set_meets_the_standard_on_paper():
    """Six parts, 32 points; the choice part under 10 %."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=6, points=32)


def test_the_visible_checks_catch_every_listed_mistake():
    SET.assert_visible_checks_catch(MISTAKES)
    for more in MORE_MISTAKES:
        SET.assert_visible_checks_catch(more)


@pytest.mark.slow
def test_exercises_equal_a_fresh_release():
    SET.assert_release_is_fresh()


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)
