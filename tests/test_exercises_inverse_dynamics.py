"""The inverse dynamics exercise set against the exercise standard, with the real nbgrader.

The references (armlab, and the chapter's formulas for the mistakes) agree with armlab's
other routes; the visible checks' values are the chapter's worked values;
the release equals a fresh nbgrader release of the source; the source scores
full marks and the release zero; one seeded mistake per part loses that part
only and gets its hint; worked values typed in as constants earn at most the
visible checks; calling the armlab function that answers a part earns nothing
for it.
"""

import numpy as np
import pytest

import armlab as al
from armlab.grading.cases import encode
from armlab.grading.references import inverse_dynamics as ref
from armlab.grading.references import lookup
from armlab.grading.runner import student_args
from exercise_sets import ExerciseSet, worked_value

CHAPTER = "inverse_dynamics"
TOUR = lookup(f"{CHAPTER}.identification_tour")

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
    "regressor_answer": ("L1 = arm.lengths[0]", "L1 = 1.0", "carry L1"),
    "fit_answer": ("Y.reshape(-1, 4), tau.reshape(-1)", "Y[:, 0], tau[:, 0]",
                   "the shoulder's torques only"),
    "tour_answer": ("leg = duration / (len(poses) - 1)", "leg = duration", "over its limit"),
    "shoulder_answer": ('shoulder_torque = "b"', 'shoulder_torque = "a"',
                        "work out its sign at q2 = 150 degrees"),
    "slip_answer": ("torques = [right, right - J.T @ F + J @ F,",
                    "torques = [right - J.T @ F + J @ F, right,",
                    "the tip force reaches the joints through the transpose"),
    "rotor_answer": ("rotor = qd1 + r * qd2", "rotor = r * qd2", "not r qd2 alone"),
}
# more likely mistakes, each of which the part's visible check must catch with its hint
LIKELY = [
    {"mass_answer": ("I1, I2 = arm.inertia", "I1, I2 = 0.0, 0.0", "add its moment of inertia"),
     "velocity_answer": ("-h * (2 * qd[0] * qd[1]", "-h * (qd[0] * qd[1]",
                         "the Coriolis term is 2 h qd1 qd2"),
     "torque_answer": ("friction = np.asarray(arm.damping, dtype=float) * qd",
                       "friction = -np.asarray(arm.damping, dtype=float) * qd",
                       "friction's sign"),
     "energy_answer": ("0.5 * qd @ mdot @ qd", "qd @ mdot @ qd", "with a factor 1/2"),
     "rnea_answer": ("- w**2 * arm.", "+ w**2 * arm.", "the centripetal acceleration"),
     "regressor_answer": ("- s2 * (2 * qd1 * qd2", "+ s2 * (2 * qd1 * qd2",
                          "the sign of the s2 term"),
     "fit_answer": ("tau.reshape(-1)", "tau.T.reshape(-1)", "must meet its own torque"),
     "rotor_answer": ("T = m1 * v_elbow2 / 2 + ", "T = ", "the elbow's mass m1 moves too"),
     "tour_answer": ("al.inverse_dynamics(arm, q, qd, qdd)",
                     "al.inverse_dynamics(al.PlanarArm(arm.lengths, arm.masses, arm.com, "
                     "arm.inertia, gravity=0.0), q, qd, qdd)", "over its limit")},
    {"mass_answer": ("return np.array([[alpha + 2 * beta * cos2, delta + beta * cos2],\n"
                     "                     [delta + beta * cos2, delta]])",
                     "return np.array([[alpha + 2 * beta * cos2, 0.0], [0.0, delta]])",
                     "the off-diagonal entries are missing"),
     "velocity_answer": ("h = arm.masses[1]", "h = -arm.masses[1]", "right size, wrong sign"),
     "torque_answer": ("+ velocity_products(arm, q, qd)", "", "c(q, qd) are missing"),
     "rnea_answer": ("+ moment + cross(r_e, f)", "+ moment", "add r_(1,2) x f_2 to n_1"),
     "regressor_answer": ("across(q1 + q2)", "across(q2)", "link 2's absolute angle"),
     "fit_answer": ("theta = np.linalg.lstsq(Y.reshape(-1, 4), tau.reshape(-1), rcond=None)[0]",
                    "outer = np.linalg.lstsq(Y[:, 1, 2:], tau[:, 1], rcond=None)[0]\n"
                    "    inner = np.linalg.lstsq(Y[:, 0, :2], tau[:, 0] - Y[:, 0, 2:] @ outer,\n"
                    "                            rcond=None)[0]\n"
                    "    theta = np.concatenate([inner, outer])", "fit all four together"),
     "tour_answer": ("return low * shape", "return 0.1 * shape", "over the spec"),
     "rotor_answer": ("cos(q2)", "cos(q1 + q2)", "not q1 + q2")},
    {"torque_answer": ("friction = np.asarray(arm.damping, dtype=float) * qd",
                       "friction = 0.0 * qd", "the friction B qd is missing"),
     "rotor_answer": ("+ 2 * L1 * L2", "- 2 * L1 * L2", "the sign of the cos q2 terms"),
     "energy_answer": ("+ qd @ al.gravity_torques(arm, q))",
                       "+ qd @ al.gravity_torques(arm, q) + qd @ (np.asarray(arm.damping) * qd))",
                       "that is the motors' power"),
     "regressor_answer": ("up = -np.asarray(arm.gravity, dtype=float)",
                          "up = np.array([0.0, 9.81])", "take gravity from the arm")},
    {"regressor_answer": ("return np.array([[qdd1, across(q1), qdd1 + qdd2, x2_shoulder],\n"
                          "                     [0.0, 0.0, qdd1 + qdd2, x2_elbow]])",
                          "return np.array([[qdd1, qdd1 + qdd2, across(q1), x2_shoulder],\n"
                          "                     [0.0, qdd1 + qdd2, 0.0, x2_elbow]])",
                          "the order of the columns")},
    {"regressor_answer": ("(q1, q2), (qd1, qd2), (qdd1, qdd2) = q, qd, qdd",
                          "(q1, q2), (qd1, qd2), (qdd1, qdd2) = np.radians(q), qd, qdd",
                          "angles are in radians")},
    {"regressor_answer": ("return np.array([[qdd1, across(q1), qdd1 + qdd2, x2_shoulder],\n"
                          "                     [0.0, 0.0, qdd1 + qdd2, x2_elbow]])",
                          "g0 = np.hypot(*arm.gravity)\n"
                          "    x2_shoulder, x2_elbow = (x - across(q1 + q2) for x in (x2_shoulder, x2_elbow))\n"
                          "    return np.array([[qdd1, (x2_shoulder) / L1, qdd2, across(q1) / g0,\n"
                          "                      across(q1 + q2) / g0],\n"
                          "                     [0.0, x2_elbow / L1, qdd1 + qdd2, 0.0, across(q1 + q2) / g0]])",
                          "four base parameters, not five")},
]
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
    "regressor_answer": ("def regressor(arm, q, qd, qdd):\n"
                         "    return al.dynamics_regressor(arm, q, qd, qdd)"),
    "fit_answer": ("def fit_base_parameters(arm, q, qd, qdd, tau):\n"
                   "    return al.fit_dynamics(arm, q, qd, qdd, tau).theta"),
    "slip_answer": ("def torque_slip(arm, q, qd, qdd, tip_force, tau_claimed):\n"
                    "    right = al.inverse_dynamics(arm, q, qd, qdd, tip_force)\n"
                    "    return 0 if np.allclose(right, tau_claimed) else 1"),
    # a tour scaled with armlab's simulation, which the part does not allow
    # a numeric M from armlab, which the part does not allow (nor is it an expression)
    "rotor_answer": ("def rotor_mass_matrix(q1, q2, L1, L2, m1, m2, J, r):\n"
                     "    return al.mass_matrix(al.rod_arm(), [0.0, 0.0])"),
    "tour_answer": ("def identification_tour(arm, limit, duration, rel_max):\n"
                    "    al.simulate(arm, [0.0, 0.0], 0.1)\n"
                    "    return np.array([[0, 0], [0.5, -0.5], [-0.5, 0.5], [0, 0]])"),
}


def _typed_in_tour():
    """The grader's own good tour at the design part's worked case, which a student might
    return whatever the case (a design has no worked value)."""
    case = TOUR.cases("worked")[0]
    return ref.good_tour(al.tabletop_arm(), np.asarray(case.args["limit"]),
                         case.args["duration"])[0].tolist()


SET = ExerciseSet(CHAPTER, designs={TOUR.quantity: _typed_in_tour})


def test_references_agree_with_armlab():
    """The references are armlab's own functions; the formulas behind the mistakes,
    unbroken, agree with armlab on every worked and fresh case (two independent routes):
    c from h, the regressor of equation (4.9) term by term, and dE/dt as qd . (M qdd + c + g)
    against the power balance's"""
    SET.assert_references_agree({
        f"{CHAPTER}.velocity_products": lambda arm, q, qd: ref._velocity(
            ref.Arm.from_arm(arm), q, qd),
        f"{CHAPTER}.regressor": lambda arm, q, qd, qdd: ref._regressor(
            ref.Arm.from_arm(arm), q, qd, qdd),
        f"{CHAPTER}.energy_rate": lambda arm, q, qd, qdd: ref._energy_rate(
            ref.Arm.from_arm(arm), q, qd, qdd),
    }, atol=1e-12)


def test_the_tour_is_armlabs_quintics():
    """The judge's tour is al.quintic's legs, one after the other, sampled every 1 ms from
    each leg's start (as Example 6 and the part's text build it)"""
    poses = np.radians([[-45, 90], [60, -30], [150, 60], [30, -120], [-45, 90]])
    leg = 3.2 / 4
    t = np.arange(0.0, leg, 1e-3)
    legs = [al.quintic(a, b, leg)(t) for a, b in zip(poses[:-1], poses[1:])]
    for mine, theirs in zip(ref.tour(poses, 3.2), (np.concatenate(p) for p in zip(*legs))):
        np.testing.assert_allclose(mine, theirs, atol=1e-12)


def test_references_are_closed_once_loaded():
    """The registry closed this module's references (no more cases or mistakes can be
    added)."""
    from armlab.grading.references import quantities

    for quantity in quantities(CHAPTER):
        assert lookup(quantity)._open is False, quantity
    assert dict(lookup(f"{CHAPTER}.required_torque").uses).keys() == {"mass_matrix",
                                                                      "velocity_products"}


def test_rnea_mistakes_come_from_a_recursion_that_is_right_unbroken():
    """The recursion behind the RNEA part's hints, without a mistake, is armlab's RNEA."""
    rng = np.random.default_rng(4)
    for arm in (al.tabletop_arm(), al.rod_arm(), al.PlanarArm([0.4, 0.7], [2.0, 0.6],
                                                              com=[0.1, 0.5],
                                                              inertia=[0.02, 0.05],
                                                              gravity=[-9.81, 0.0])):
        data = ref.Arm.from_arm(arm)
        for _ in range(5):
            q, qd, qdd = (rng.uniform(-2, 2, 2) for _ in range(3))
            np.testing.assert_allclose(ref._recursion(data, list(q), list(qd), list(qdd)),
                                       al.rnea(arm, q, qd, qdd), atol=1e-12)


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints: M of the horizontal
    rods, c of the bent and moving rods, the torques of Examples 1 and 2, dE/dt, RNEA at the
    table-top arm's worked instant and the regressor there (Example 5)"""
    worked = SET.worked
    np.testing.assert_allclose(worked("mass_matrix"), [[8 / 3, 5 / 6], [5 / 6, 1 / 3]],
                               atol=1e-15)
    np.testing.assert_allclose(worked("velocity_products"), [-0.324760, -0.433013], atol=5e-7)
    np.testing.assert_allclose(worked("required_torque"), [14.851657, 0.583013], atol=5e-7)
    np.testing.assert_allclose(worked("required_torque", 1), [9.62, -0.095], atol=5e-7)
    np.testing.assert_allclose(worked("energy_rate"), 15.280071, atol=5e-7)
    np.testing.assert_allclose(worked("rnea"), [5.7796, 0.4443], atol=5e-5)
    np.testing.assert_allclose(worked("regressor"), [[3, 8.495709, 1, 1.690487],
                                                     [0, 0, 1, 3.387543]], atol=5e-7)
    np.testing.assert_allclose(worked("regressor", 1), [[3, -4.905, 1, -10.324260],
                                                        [0, 0, 1, -8.627204]], atol=5e-7)
    wall = al.PlanarArm(**ref.WALL_ARM.fields())
    q, qd, qdd = np.radians([30.0, 45.0]), [1.0, 2.0], [3.0, -2.0]
    np.testing.assert_allclose(np.array(worked("regressor", 1)) @ al.base_parameters(wall),
                               al.rnea(wall, q, qd, qdd), atol=1e-12)
    np.testing.assert_allclose(al.rnea(wall, q, qd, qdd), [-3.7627, -1.0576], atol=5e-5)


def test_the_regressors_hidden_rods_case_is_example_2s_state():
    """The rods moving bent at (30°, 60°), qd = (1, -0.5), qdd = (1, -1): Y at that state,
    and Y theta is Example 2's torque without its friction"""
    case = lookup(f"{CHAPTER}.regressor").cases("fresh")[0]
    Y = np.array(lookup(f"{CHAPTER}.regressor").function(
        *lookup(f"{CHAPTER}.regressor").arguments(case)))
    np.testing.assert_allclose(Y, [[1, 8.495709, 0, 1.149519], [0, 0, 0, 1.366025]], atol=5e-7)
    rods = al.rod_arm()
    q, qd, qdd = np.radians([30.0, 60.0]), [1.0, -0.5], [1.0, -1.0]
    np.testing.assert_allclose(Y @ al.base_parameters(rods), al.rnea(rods, q, qd, qdd),
                               atol=1e-12)


def test_the_fits_visible_case_is_the_try_cells_run():
    """The fit's visible case is Example 6's tour every 20 ms (160 samples) on the table-top
    arm, its torques plus noise from numpy's generator started at 0, as the try cell builds
    it; its value is al.fit_dynamics's, within three standard errors of the true theta"""
    fit = lookup(f"{CHAPTER}.fit_base_parameters")
    args = fit.arguments(fit.cases("worked")[0])
    arm, q, qd, qdd, tau = args
    poses = np.radians([[-45, 90], [60, -30], [150, 60], [30, -120], [-45, 90]])
    t = np.arange(0.0, 0.8, 0.02)
    moves = [al.quintic(a, b, 0.8)(t) for a, b in zip(poses[:-1], poses[1:])]
    mine = [np.concatenate(part) for part in zip(*moves)]
    assert len(mine[0]) == len(q) == 160
    for theirs, ours in zip((q, qd, qdd), mine):
        np.testing.assert_allclose(theirs, ours, atol=1e-12)
    table_top = al.tabletop_arm()
    noisy = al.rnea(table_top, *mine) + np.random.default_rng(0).normal(0.0, 0.05, (160, 2))
    np.testing.assert_array_equal(tau, noisy.round(4))
    book = al.fit_dynamics(table_top, *mine, noisy.round(4), noise=0.05)
    np.testing.assert_allclose(worked_value(fit.quantity), book.theta, rtol=1e-9)
    z = (book.theta - al.base_parameters(table_top)) / book.stderr
    assert np.abs(z).max() < 3.0


# ---------------------------------------------------------------- the design part
def test_the_tour_judge_computes_the_fits_standard_errors():
    """The judge's standard errors are those of armlab's fit (al.fit_dynamics) of noise-free
    torques along the same tour sampled every 10 ms, and its peak torques those of
    al.inverse_dynamics"""
    arm = al.tabletop_arm()
    poses = np.radians([[-45, 90], [60, -30], [150, 60], [30, -120], [-45, 90]])
    peak, rel = ref.tour_outcome(arm, poses, 3.2)
    q, qd, qdd = ref.tour(poses, 3.2, 1e-2)
    fit = al.fit_dynamics(arm, q, qd, qdd, al.inverse_dynamics(arm, q, qd, qdd), noise=0.05)
    np.testing.assert_allclose(rel, fit.stderr / al.base_parameters(arm), rtol=1e-9)
    np.testing.assert_allclose(peak, np.abs(al.inverse_dynamics(arm, q, qd, qdd)).max(0))


def test_several_tours_meet_the_spec_and_a_near_miss_earns_part():
    """The grader's own tour, and the same swing played twice over the same time with half
    the size, meet the visible case's spec or miss it by a little; the chapter's tour needs
    12.12 N m of a 12 N m motor and earns 95 %; a tour in degrees earns nothing"""
    case = TOUR.cases("worked")[0]
    args = TOUR.arguments(case)
    good = ref.good_tour(al.tabletop_arm(), np.array([12.0, 3.0]), 3.2)[0]
    assert TOUR.function(*args, good.tolist())[0] == 1.0
    chapter_tour = np.radians([[-45, 90], [60, -30], [150, 60], [30, -120], [-45, 90]])
    fraction, words = TOUR.function(*args, chapter_tour.tolist())
    assert round(fraction, 2) == 0.95
    assert words.startswith("it needs 12.12 N m at the shoulder, 1.0% over its limit of 12 N m")
    assert TOUR.function(*args, np.degrees(chapter_tour).tolist())[0] == 0.0
    fraction, words = TOUR.function(*args, (0.5 * good).tolist())
    assert 0.0 < fraction < 1.0 and "over the spec" in words


def test_the_solutions_tour_meets_every_spec():
    """The source notebook's tour meets the spec of the fresh cases of 12 students"""
    design = SET.solution()["identification_tour"]
    for key in range(12):
        for case in TOUR.cases("fresh", key=f"student {key}"):
            poses = design(*student_args(encode(TOUR.arguments(case))))
            assert TOUR.function(*TOUR.arguments(case), np.asarray(poses).tolist())[0] == 1.0


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first worth at most a third of a function
    part, and one seeded mistake; every checked function an armlab call; the intro says
    how to install (test_book_prose checks the chapter's list of the parts)."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=11, points=51)


@pytest.mark.parametrize("mistakes", [MISTAKES] + LIKELY, ids=["seeded"] + [
    f"likely{k}" for k in range(1, len(LIKELY) + 1)])
def test_the_visible_checks_catch_the_likely_mistakes(mistakes):
    """Every listed mistake, seeded into the solution, fails its part's visible check with
    its hint (a student learns of it before handing in)"""
    SET.assert_visible_checks_catch(mistakes)


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)


def test_the_explanations_point_at_no_option():
    """A wrong choice's explanation says why it is wrong without the words of any one option
    (at_rest's "friction" was option d's word)"""
    SET.assert_explanations_point_at_no_option(["shoulder_torque"])


def test_the_prediction_is_the_mass_matrixs():
    """Part 9's answer, a clockwise shoulder torque, is M12 < 0 at q2 = 150 degrees: the
    second column of M of the rods there (without gravity, at rest)"""
    tau = al.mass_matrix(al.rod_arm(), np.radians([0.0, 150.0])) @ [0.0, 1.0]
    assert tau[0] < -0.09 and tau[1] > 0


def test_the_slip_claims_are_far_apart():
    """Every claim of Part 11 is one of the five torques and over 0.01 N m from each of the
    four others, on the worked cases and on every key's fresh cases"""
    slip = lookup(f"{CHAPTER}.torque_slip")
    assert [worked_value(slip.quantity, k) for k in range(3)] == [1, 3, 0]
    for which, key in [("worked", None)] + [("fresh", k) for k in ("", "x", "y", "ann")]:
        for case in slip.cases(which, key=key):
            args = slip.arguments(case)
            torques = [ref._slipped_torque(*args[:5], k) for k in range(5)]
            gaps = sorted(float(np.abs(t - np.asarray(args[5])).max()) for t in torques)
            assert gaps[0] < 1e-12 and gaps[1] > 0.01, case
