"""The limits exercise set against the exercise standard, with the real nbgrader.

The references (pure Python: the two-link closed forms, a 2 x 2 solve, the
quintic time law, the chapter's formulas) agree with armlab's own routes; the
visible checks' values are the chapter's worked values (seeds 000, 001 and 004,
and Example 5's motor); the release equals a fresh nbgrader release of the
source; the source scores full marks and the release zero; one seeded mistake
per part loses that part only and gets its hint; worked values typed in as
constants earn at most the visible checks; calling the armlab function that
answers a part earns nothing for it.
"""

import numpy as np
import pytest

import armlab as al
from armlab.grading.testing import ExerciseSet

CHAPTER = "limits"
SET = ExerciseSet(CHAPTER)

ROUTES = {
    f"{CHAPTER}.realized_acceleration": lambda arm, q, qd, qdd, limit:
        al.realized_acceleration(arm, q, qd, qdd, limit)[2],
    f"{CHAPTER}.acceleration_error": lambda arm, q, deficit:
        np.linalg.solve(al.mass_matrix(arm, q), deficit),
    f"{CHAPTER}.scale_torques": al.scale_torques,
    f"{CHAPTER}.shortest_duration": lambda arm, a, b, limit:
        al.shortest_duration(arm, a, b, limit).duration,
    f"{CHAPTER}.payload_capacity": al.payload_capacity,
    f"{CHAPTER}.joint_friction": al.friction_torques,
}


def test_references_agree_with_armlab():
    """Two independent routes: the pure-Python references and armlab."""
    SET.assert_references_agree(ROUTES)


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints."""
    worked = SET.worked
    # seed 001: the shoulder clips at 20 N m; the elbow request at 1.5 N m
    np.testing.assert_allclose(worked("realized_acceleration"), [-2.92, 9.8], atol=1e-12)
    np.testing.assert_allclose(worked("realized_acceleration", 1), [-2 / 7, 19 / 7], atol=1e-12)
    np.testing.assert_allclose(worked("acceleration_error"), [-3.92, 9.8], atol=1e-12)
    np.testing.assert_allclose(worked("scale_torques"), [20.0, 5.149566], atol=5e-7)
    # seed 000's move under (8, 2) N m
    np.testing.assert_allclose(worked("shortest_duration"), 0.975359, atol=5e-7)
    # seed 004's meanings on the rods at 25 N m: positive multiples, then an inf
    np.testing.assert_allclose(worked("payload_capacity"), [0.2742, 2.0484], atol=5e-5)
    cap = worked("payload_capacity", 1)
    assert np.isinf(cap[1]) and round(cap[0], 4) == 1.0484
    # Example 5's motor through 50:1 at (2, -1) rad/s
    np.testing.assert_allclose(worked("joint_friction"), [0.3, -0.25], atol=1e-12)


# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "realized_answer": ("np.clip(tau, -limit, limit)", "np.minimum(tau, limit)",
                        "bounds both directions"),
    "error_answer": ("np.linalg.solve(al.mass_matrix(arm, q), deficit)",
                     "al.mass_matrix(arm, q) @ deficit", "solve M e = deficit"),
    "scale_answer": ("s = min([1.0, *ratios])", "s = min(ratios)",
                     "the factor is at most 1"),
    "shortest_answer": ("room = np.where(A > 0, limit - g, limit + g)", "room = limit + 0 * g",
                        "gravity needs its torque at any speed"),
    "capacity_answer": ("g = al.gravity_torques(arm, q)", "g = np.zeros(2)",
                        "the motors already hold the arm itself"),
    "friction_answer": ("G**2 * B * qd", "G * B * qd", "G^2 B, not G B"),
    "reason_answer": ('shoulder_reason = "b"', 'shoulder_reason = "c"',
                      "the mass matrix couples it to the shoulder"),
    "nan_answer": ('nan_means = "b"', 'nan_means = "a"', "try al.realized_acceleration"),
}
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    "realized_answer": ("def realized_acceleration(arm, q, qd, qdd_request, limit):\n"
                        "    return al.realized_acceleration(arm, q, qd, qdd_request, limit)[2]"),
    "error_answer": ("def acceleration_error(arm, q, deficit):\n"
                     "    free = al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia,\n"
                     "                        gravity=0.0)\n"
                     "    return al.forward_dynamics(free, q, np.zeros(2), deficit)"),
    "scale_answer": "def scale_torques(tau, limit):\n    return al.scale_torques(tau, limit)",
    "shortest_answer": ("def shortest_duration(arm, q_start, q_end, limit):\n"
                        "    return al.shortest_duration(arm, q_start, q_end, limit).duration"),
    "capacity_answer": ("def payload_capacity(arm, q, limit):\n"
                        "    return al.payload_capacity(arm, q, limit)"),
    "friction_answer": "def joint_friction(arm, qd):\n    return al.friction_torques(arm, qd)",
}


def test_every_part_has_a_seeded_mistake_that_the_references_recognise():
    """Each function part's seeded mistake, run on its worked case, is one of the
    reference's mistakes (so the feedback gives its hint), not a random wrong value."""
    from armlab.grading.references import lookup

    rods = al.rod_arm()
    cases = {
        "realized_acceleration": (rods, np.zeros(2), np.zeros(2), np.array([1.0, -3.0]),
                                  np.array([20.0, 3.0])),
        "acceleration_error": (rods, np.zeros(2), np.array([-2.286667, 0.0])),
        "scale_torques": (np.array([2.0, -1.0]), np.array([5.0, 5.0])),
        "payload_capacity": (rods, np.zeros(2), np.array([25.0, 25.0])),
        "joint_friction": (al.PlanarArm((1, 1), (1, 1), damping=2e-5, coulomb=4e-3,
                                        gear_ratio=50), np.array([2.0, -1.0])),
    }
    wrong = {
        "realized_acceleration": lambda arm, q, qd, qdd, limit: al.forward_dynamics(
            arm, q, qd, np.minimum(al.inverse_dynamics(arm, q, qd, qdd), limit)),
        "acceleration_error": lambda arm, q, d: al.mass_matrix(arm, q) @ d,
        "scale_torques": lambda tau, limit: (limit / np.abs(tau)).min() * tau,
        "payload_capacity": lambda arm, q, limit: al.payload_capacity(
            al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia, gravity=0.0), q, limit,
            tip_force=[0.0, 9.81]),
        "joint_friction": lambda arm, qd: np.asarray(arm.gear_ratio) * np.asarray(
            arm.damping) * qd + np.asarray(arm.gear_ratio) * np.asarray(arm.coulomb) * np.sign(qd),
    }
    for name, args in cases.items():
        ref = lookup(f"{CHAPTER}.{name}")
        from armlab.grading import cases as grading_cases, runner

        plain = [grading_cases.decode(runner.encode(a)) for a in args]
        value = np.asarray(wrong[name](*args), dtype=float)
        matches = [msg for fn, msg in ref.mistakes
                   if np.allclose(np.asarray(fn(*plain), dtype=float), value, rtol=1e-6)]
        assert matches, f"{name}: the seeded mistake matches none of the reference's mistakes"


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first worth at most a third of a function
    part, and one seeded mistake; every checked function an armlab call; the intro says
    how to install (test_book_prose checks the chapter's list of the parts)."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=8, points=34)


def test_fresh_cases_are_per_student_and_cover_the_edges():
    """Two keys give different cases; the edge cases the chapter cares about are there."""
    from armlab.grading.references import lookup

    ref = lookup(f"{CHAPTER}.realized_acceleration")
    a, b = ref.cases("fresh", key="alice"), ref.cases("fresh", key="bob")
    assert [c.args["q"] for c in a] != [c.args["q"] for c in b]
    labels = {c.label for c in a}
    assert {"a limit that clips the elbow instead", "a limit that clips both joints",
            "a limit that clips neither"} <= labels
    # the labels say what the limits do: check it with armlab
    for case in a:
        arm = al.PlanarArm(**case.args["arm"].fields())
        req, applied, _ = al.realized_acceleration(arm, case.args["q"], case.args["qd"],
                                                   case.args["qdd_request"], case.args["limit"])
        clipped = {j for j in range(2) if applied[j] != req[j]}
        expected = {"a limit that clips the shoulder": {0},
                    "a limit that clips the elbow instead": {1},
                    "a limit that clips both joints": {0, 1},
                    "a limit that clips neither": set()}.get(case.label)
        if expected is not None:
            assert clipped == expected, case.label
    shortest = lookup(f"{CHAPTER}.shortest_duration")
    durations = [shortest.function(*shortest.arguments(c)) for c in shortest.cases("fresh")]
    assert np.all(np.isfinite(durations))
    weak = [shortest.function(*shortest.arguments(c)) for c in shortest.cases("too weak")]
    assert np.isinf(weak[0]) and np.isfinite(weak[1])       # an ordinary move too: inf alone fails
    capacity = lookup(f"{CHAPTER}.payload_capacity")
    caps = [capacity.function(*capacity.arguments(c)) for c in capacity.cases("fresh")]
    assert all(np.all(np.isfinite(c)) for c in caps)
    none = [capacity.function(*capacity.arguments(c)) for c in capacity.cases("no load")]
    assert np.isinf(none[0][1]) and np.all(np.isinf(none[1])) and np.all(np.isfinite(none[2]))


@pytest.mark.slow
def test_exercises_equal_a_fresh_release():
    SET.assert_release_is_fresh()


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)
