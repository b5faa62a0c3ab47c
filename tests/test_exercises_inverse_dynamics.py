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
    "crossing_answer": ("return float(np.sqrt(abs(g2 / c2)))", "return float(abs(g2 / c2))",
                        "grows with the square of the shoulder's speed"),
    "acceleration_answer": ("bounds.append((-limit[j] - tau0[j]) / per[j])",
                            "bounds.append((limit[j] - tau0[j]) / -per[j])",
                            "each motor pushes both ways"),
    "energy_answer": ("@ qdd + 0.5 * qd @ mdot @ qd", "@ qdd",
                      "T changes also because M changes with q2"),
    "base_answer": ("acc = -np.asarray(arm.gravity", "acc = np.asarray(arm.gravity",
                    "gravity's sign"),
    "loaded_answer": ("per_kg = np.array([L1**2, L1, L2**2, L2])",
                      "per_kg = np.array([0.0, 0.0, L2**2, L2])", "the payload also loads link 1"),
    "payload_answer": ("per_kg.reshape(-1), rest.reshape(-1)", "per_kg[:, 0], rest[:, 0]",
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
     "crossing_answer": ("g2 = al.gravity_torques(arm, q)[1]", "g2 = al.gravity_torques(arm, q)[0]",
                         "that is the shoulder's gravity torque"),
     "acceleration_answer": ("tau0 = al.inverse_dynamics(arm, q, qd, zero, tip_force)",
                             "tau0 = zero", "the state needs torque before any acceleration"),
     "energy_answer": ("0.5 * qd @ mdot @ qd", "qd @ mdot @ qd", "with a factor 1/2"),
     "base_answer": ("- w**2 * arm.", "+ w**2 * arm.", "the centripetal acceleration"),
     "loaded_answer": ("L2**2, L2])", "arm.com[1]**2, arm.com[1]])",
                       "not at link 2's centre of mass"),
     "payload_answer": ("rest.reshape(-1)", "rest.T.reshape(-1)", "must meet its own torque"),
     "rotor_answer": ("T = m1 * v_elbow2 / 2 + ", "T = ", "the elbow's mass m1 moves too"),
     "tour_answer": ("al.inverse_dynamics(arm, q, qd, qdd)",
                     "al.inverse_dynamics(al.PlanarArm(arm.lengths, arm.masses, arm.com, "
                     "arm.inertia, gravity=0.0), q, qd, qdd)", "over its limit")},
    {"mass_answer": ("return np.array([[alpha + 2 * beta * cos2, delta + beta * cos2],\n"
                     "                     [delta + beta * cos2, delta]])",
                     "return np.array([[alpha + 2 * beta * cos2, 0.0], [0.0, delta]])",
                     "the off-diagonal entries are missing"),
     "crossing_answer": ("c2 = al.coriolis_torques(arm, q, [1.0, 0.0])[1]",
                         "c2 = al.coriolis_torques(arm, q, [1.0, 1.0])[0]",
                         "that is the shoulder's velocity-product torque"),
     "acceleration_answer": ("al.inverse_dynamics(arm, q, qd, zero, tip_force)",
                             "al.inverse_dynamics(arm, q, zero, zero, tip_force)",
                             "the arm is moving"),
     "base_answer": ("f = f + arm.masses[i] * a_c", "f = f + (arm.masses[i] if i else 0.0) * a_c",
                     "link 1 has mass too"),
     "loaded_answer": ("L2**2, L2])", "L2, L2])", "adds m r^2 to a moment of inertia"),
     "payload_answer": ("- Y @ al.base_parameters(arm)", "",
                        "the torques also hold the empty arm"),
     "tour_answer": ("return low * shape", "return 0.1 * shape", "over the spec"),
     "rotor_answer": ("cos(q2)", "cos(q1 + q2)", "not q1 + q2")},
    {"rotor_answer": ("+ 2 * L1 * L2", "- 2 * L1 * L2", "the sign of the cos q2 terms"),
     "energy_answer": ("+ qd @ al.gravity_torques(arm, q))",
                       "+ qd @ al.gravity_torques(arm, q) + qd @ (np.asarray(arm.damping) * qd))",
                       "that is the motors' power"),
     "base_answer": ("a_c = acc + wd * arm.com[i] * n - w**2 * arm.com[i] * e",
                     "a_c = acc + (wd * n - w**2 * e) * (arm.com[0] if i == 0 else arm.lengths[1])",
                     "not at the link's end"),
     "payload_answer": ("np.array([L1**2, L1, L2**2, L2])", "np.array([0.0, 0.0, L2**2, L2])",
                        "the payload also loads link 1"),
     "loaded_answer": ("theta = al.base_parameters(arm) + payload * per_kg",
                       "theta = al.base_parameters(arm)", "the payload is missing")},
    {"base_answer": ("return f", "return -f", "the force the arm applies to the base"),
     "payload_answer": ("L2**2, L2])", "arm.com[1]**2, arm.com[1]])",
                        "not at link 2's centre of mass"),
     "loaded_answer": ("al.dynamics_regressor(arm, q, qd, qdd)",
                       "al.dynamics_regressor(arm, np.radians(q), qd, qdd)",
                       "angles are in radians")},
]
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    "mass_answer": "def mass_matrix(arm, q):\n    return al.mass_matrix(arm, q)",
    # the elbow's torques through the whole torque, which the part does not allow
    "crossing_answer": ("def crossing_speed(arm, q):\n"
                        "    g2 = al.gravity_torques(arm, q)[1]\n"
                        "    c2 = al.inverse_dynamics(arm, q, [1.0, 0.0], [0.0, 0.0])[1] - g2\n"
                        "    return float(np.sqrt(abs(g2 / c2)))"),
    "acceleration_answer": ("def largest_acceleration(arm, q, qd, direction, tip_force, limit):\n"
                            "    per = al.rnea(arm, q, qd, direction)\n"
                            "    return float(min(np.abs(limit) / np.abs(per)))"),
    "energy_answer": ("def energy_rate(arm, q, qd, qdd):\n"
                      "    return float(al.power_balance(arm, q, qd, qdd).energy_rate)"),
    "base_answer": ("def base_force(arm, q, qd, qdd):\n"
                    "    return al.joint_reactions(arm, q)[0][0]"),
    "loaded_answer": ("def loaded_torque(arm, q, qd, qdd, payload):\n"
                      "    return al.rnea(arm.with_payload(payload), q, qd, qdd)"),
    "payload_answer": ("def payload_from_run(arm, q, qd, qdd, tau):\n"
                       "    theta = al.fit_dynamics(arm, q, qd, qdd, tau).theta\n"
                       "    return float((theta[3] - al.base_parameters(arm)[3]) / arm.lengths[1])"),
    "slip_answer": ("def torque_slip(arm, q, qd, qdd, tip_force, tau_claimed):\n"
                    "    right = al.rnea(arm, q, qd, qdd, tip_force)\n"
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


def _crossing_by_h(arm, q):
    """The crossing speed from the chapter's h = m2 L1 lc2 sin q2 (c2 = h qd1^2)."""
    h = arm.masses[1] * arm.lengths[0] * arm.com[1] * np.sin(q[1])
    return np.sqrt(abs(al.gravity_torques(arm, q)[1] / h))


def _largest_by_root(arm, q, qd, direction, tip_force, limit):
    """The largest scale by Brent's method on the worst motor's use of its limit, the torque
    from al.inverse_dynamics at each trial scale."""
    from scipy.optimize import brentq

    def over(s):
        tau = al.inverse_dynamics(arm, q, qd, s * np.asarray(direction), tip_force)
        return float(np.max(np.abs(tau) / limit)) - 1.0

    high = 1.0
    while over(high) < 0:
        high *= 2
    return brentq(over, 0.0, high, xtol=1e-14, rtol=1e-14)


def _base_by_momentum(arm, q, qd, qdd, step=1e-4):
    """The base's force as the rate of change of the links' momentum less their weight:
    the centres of mass along q + qd t + qdd t^2 / 2, differentiated twice by central
    differences (to about 1e-6 N at this step)."""
    def centres(t):
        angle = np.cumsum(q + qd * t + qdd * t**2 / 2)
        e = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
        elbow = arm.lengths[0] * e[0]
        return np.array([arm.com[0] * e[0], elbow + arm.com[1] * e[1]])

    acc = (centres(step) - 2 * centres(0.0) + centres(-step)) / step**2
    masses = np.asarray(arm.masses)
    return masses @ acc - masses.sum() * np.asarray(arm.gravity)


def _payload_by_scalar_fit(arm, q, qd, qdd, tau):
    """The payload that minimises the squared torque residual of Newton-Euler on the arm
    carrying it (the residual is quadratic in the mass: three values fix it)."""
    def cost(m):
        return float(np.sum((tau - al.rnea(arm.with_payload(m), q, qd, qdd)) ** 2))

    c0, c1, c2 = cost(0.0), cost(1.0), cost(2.0)
    a, b = (c2 - 2 * c1 + c0) / 2, (4 * c1 - 3 * c0 - c2) / 2    # cost = a m^2 + b m + c0
    return -b / (2 * a)


def test_references_agree_with_armlab():
    """The references agree with a second route on every worked and fresh case: the
    crossing speed from the chapter's h, the largest acceleration by a root search on
    al.inverse_dynamics, the loaded torque as Newton-Euler on the arm with the payload
    merged into link 2 (al.PlanarArm.with_payload), the payload as the minimum of the
    squared residual of that Newton-Euler, dE/dt as qd . (M qdd + c + g) against the
    power balance's, and the base's force from the links' momentum"""
    SET.assert_references_agree({
        f"{CHAPTER}.crossing_speed": _crossing_by_h,
        f"{CHAPTER}.largest_acceleration": _largest_by_root,
        f"{CHAPTER}.loaded_torque": lambda arm, q, qd, qdd, payload: al.rnea(
            arm.with_payload(payload), q, qd, qdd),
        f"{CHAPTER}.energy_rate": lambda arm, q, qd, qdd: ref._energy_rate(
            ref.Arm.from_arm(arm), q, qd, qdd),
    }, atol=1e-12)
    SET.assert_references_agree({f"{CHAPTER}.payload_from_run": _payload_by_scalar_fit},
                                rtol=1e-7, atol=1e-9)
    SET.assert_references_agree({f"{CHAPTER}.base_force": _base_by_momentum},
                                rtol=0.0, atol=1e-5)


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
    assert dict(lookup(f"{CHAPTER}.energy_rate").uses).keys() == {"mass_matrix"}


def test_the_recursion_behind_the_base_force_is_right_unbroken():
    """The Newton-Euler recursion behind the base-force part, without a mistake, gives
    armlab's RNEA torques, and at rest the force armlab's statics gives the base
    (al.joint_reactions)"""
    rng = np.random.default_rng(4)
    for arm in (al.tabletop_arm(), al.rod_arm(), al.PlanarArm([0.4, 0.7], [2.0, 0.6],
                                                              com=[0.1, 0.5],
                                                              inertia=[0.02, 0.05],
                                                              gravity=[-9.81, 0.0])):
        data = ref.Arm.from_arm(arm)
        for _ in range(5):
            q, qd, qdd = (rng.uniform(-2, 2, 2) for _ in range(3))
            tau, _force = ref._recursion(data, list(q), list(qd), list(qdd))
            np.testing.assert_allclose(tau, al.rnea(arm, q, qd, qdd), atol=1e-12)
            np.testing.assert_allclose(ref._base_force(data, list(q), [0.0, 0.0], [0.0, 0.0]),
                                       al.joint_reactions(arm, q)[0][0], atol=1e-12)


def test_worked_values_are_the_chapters():
    """The visible checks' values: M of the horizontal rods, dE/dt of the bent and moving
    rods, the crossing speed of Example 3's rods (|g2| / |h| = 9.81 there: sqrt(9.81)
    rad/s), the largest acceleration puts a motor exactly at its limit, the base's force at
    the table-top arm's worked instant, and the loaded torque is Newton-Euler's with the
    payload merged into link 2"""
    worked = SET.worked
    np.testing.assert_allclose(worked("mass_matrix"), [[8 / 3, 5 / 6], [5 / 6, 1 / 3]],
                               atol=1e-15)
    np.testing.assert_allclose(worked("energy_rate"), 15.280071, atol=5e-7)
    np.testing.assert_allclose(worked("crossing_speed"), np.sqrt(9.81), rtol=1e-14)
    np.testing.assert_allclose(worked("crossing_speed", 1), 3.459629, atol=5e-7)
    largest = lookup(f"{CHAPTER}.largest_acceleration")
    for k, case in enumerate(largest.cases("worked")):
        arm, q, qd, d, F, limit = largest.arguments(case)
        real = al.PlanarArm(**arm.fields())
        tau = al.inverse_dynamics(real, q, qd, worked("largest_acceleration", k) * np.array(d), F)
        np.testing.assert_allclose(np.max(np.abs(tau) / limit), 1.0, rtol=1e-13)
    np.testing.assert_allclose(worked("largest_acceleration"), 7.409480, atol=5e-7)
    np.testing.assert_allclose(worked("largest_acceleration", 1), 17.430, atol=5e-4)
    np.testing.assert_allclose(worked("base_force"), [-1.8315, 29.6345], atol=5e-5)
    np.testing.assert_allclose(worked("base_force", 1), [27.5985, 0.2045], atol=5e-5)
    table_top, q, qd, qdd = al.tabletop_arm(), np.radians([30.0, 45.0]), [1.0, 2.0], [3.0, -2.0]
    np.testing.assert_allclose(worked("loaded_torque"),
                               al.rnea(table_top.with_payload(0.5), q, qd, qdd), atol=1e-12)
    np.testing.assert_allclose(worked("loaded_torque"), [7.4315, 0.8990], atol=5e-5)


def test_the_payloads_visible_cases_are_the_try_cells_run_and_the_rods():
    """The first visible case is Example 6's tour every 20 ms (160 samples) on the
    table-top arm carrying 0.5 kg, its torques plus noise from numpy's generator started
    at 0, as the try cell builds it; its estimate is within 0.001 kg of 0.5 kg. The second,
    without noise, gives back the rods' 0.2 kg to the torques' 4 decimals"""
    fit = lookup(f"{CHAPTER}.payload_from_run")
    arm, q, qd, qdd, tau = fit.arguments(fit.cases("worked")[0])
    poses = np.radians([[-45, 90], [60, -30], [150, 60], [30, -120], [-45, 90]])
    t = np.arange(0.0, 0.8, 0.02)
    moves = [al.quintic(a, b, 0.8)(t) for a, b in zip(poses[:-1], poses[1:])]
    mine = [np.concatenate(part) for part in zip(*moves)]
    assert len(mine[0]) == len(q) == 160
    for theirs, ours in zip((q, qd, qdd), mine):
        np.testing.assert_allclose(theirs, ours, atol=1e-12)
    loaded = al.tabletop_arm().with_payload(0.5)
    noisy = al.rnea(loaded, *mine) + np.random.default_rng(0).normal(0.0, 0.05, (160, 2))
    np.testing.assert_array_equal(tau, noisy.round(4))
    assert abs(worked_value(fit.quantity) - 0.5) < 1e-3
    assert abs(worked_value(fit.quantity, 1) - 0.2) < 1e-5


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


# ---------------------------------------------------------------- trial class 6's findings
def _graded(answers, parts):
    """The grader's verdicts and points on a notebook of these parts' checks, from records of
    the references' own values (test_slips.graded: no sandbox)."""
    from test_slips import graded

    return graded(answers, [(heading, f"{CHAPTER}.{name}", points)
                            for heading, name, points in parts])


PAYLOAD_PARTS = [("Part 6: the torque with a payload, from the base parameters (5 points)",
                  "loaded_torque", 5.0),
                 ("Part 7: identify a payload (3 points)", "payload_from_run", 3.0)]


def test_the_payload_on_link_2_only_is_one_slip_carried_into_part_7():
    """The trial's slip student lumped the payload into link 2 alone (Z1, X1 unchanged) in
    Part 6 and again by hand in Part 7: Part 6 pays for it, Part 7's checks earn half, with
    the words that say so (before: 0 of 3 for Part 7)"""
    slip = "the payload taken to load link 2 only"
    loaded, payload = (lookup(f"{CHAPTER}.{name}") for _h, name, _p in PAYLOAD_PARTS)
    assert loaded.slips.count(slip) == 1 and payload.slips.count(slip) == 1
    verdicts, points, result = _graded({"loaded_torque": loaded.slips.index(slip),
                                        "payload_from_run": payload.slips.index(slip)},
                                       PAYLOAD_PARTS)
    # (the test notebook splits each part 1/4 visible, 3/4 hidden; nbgrader rounds to 0.01)
    assert points == {"test_loaded_torque_worked": 0.0, "test_loaded_torque_fresh": 0.0,
                      "test_payload_from_run_worked": pytest.approx(0.375, abs=0.01),
                      "test_payload_from_run_fresh": pytest.approx(1.125, abs=0.01)}
    assert (f"The same slip as Part 6 ({slip}), counted once there"
            in verdicts["test_payload_from_run_fresh"][0][1])
    assert len(result.carried) == 2


def test_the_base_force_with_gravity_typed_along_minus_y_is_named_on_the_wall():
    """A base force that types gravity in along -y (a0 = (0, 9.81)) is right on the floor and
    wrong on the wall: the visible wall case names it, and the advice no longer says "up at
    g0", which on a wall is the mistake itself"""
    base = lookup(f"{CHAPTER}.base_force")
    floor, wall = base.cases("worked")

    def typed(arm, q, qd, qdd):
        return ref._base_force(ref.changed(arm, gravity=(0.0, -9.81)), q, qd, qdd)

    from armlab.grading import judge
    from armlab.grading.runner import record

    assert judge.verdict(base, floor, record(typed(*base.arguments(floor))), show=True,
                         label="base_force") is None
    words = judge.verdict(base, wall, record(typed(*base.arguments(wall))), show=True,
                          label="base_force")
    assert "read gravity from arm.gravity" in words
    assert "up at g0" not in base.advice and "-arm.gravity" in base.advice


def test_gravity_typed_in_is_named_on_the_wall_and_the_moon():
    """Parts 2 and 7 written with the floor's 9.81 m/s² along -y typed in (the trial's literal
    student: g2 = m2 lc2 9.81 cos q12; the payload's column from the chapter's Y with g0 =
    9.81) pass the visible checks and fail the hidden wall and Moon cases with a hint that
    says so (before: only the general advice)"""
    from armlab.grading import judge
    from armlab.grading.runner import record

    def crossing(arm, q):
        m2, lc2, L1 = arm.masses[1], arm.com[1], arm.lengths[0]
        return float(np.sqrt(abs(m2 * lc2 * 9.81 * np.cos(q[0] + q[1])
                                 / (m2 * L1 * lc2 * np.sin(q[1])))))

    def payload(arm, q, qd, qdd, tau):
        floor = al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia, gravity=9.81)
        L1, L2 = arm.lengths
        per_kg = al.dynamics_regressor(floor, q, qd, qdd) @ [L1**2, L1, L2**2, L2]
        rest = tau - al.dynamics_regressor(arm, q, qd, qdd) @ al.base_parameters(arm)
        return float(per_kg.ravel() @ rest.ravel() / (per_kg.ravel() @ per_kg.ravel()))

    for name, mine, places in [("crossing_speed", crossing, ("wall", "Moon")),
                               ("payload_from_run", payload, ("wall", "Moon"))]:
        part = lookup(f"{CHAPTER}.{name}")
        for case in part.cases("worked"):
            value = mine(*student_args(encode(part.arguments(case))))
            assert judge.verdict(part, case, record(value), show=True, label=name) is None
        for place in places:
            case = next(c for c in part.cases("fresh") if place in (c.label or ""))
            value = mine(*student_args(encode(part.arguments(case))))
            words = judge.verdict(part, case, record(value), show=False, label=name)
            assert "read gravity from arm.gravity, a 2-vector" in words, (name, place, words)
