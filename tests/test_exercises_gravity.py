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
from armlab.grading.cases import encode
from armlab.grading.references import gravity as ref
from armlab.grading.references import lookup
from armlab.grading.runner import student_args
from exercise_sets import ExerciseSet

DESIGN = lookup("gravity.identification_poses")


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
    "design_answer": ("up = -np.asarray(arm.gravity, dtype=float) / np.hypot(*arm.gravity)",
                      "up = np.array([0.0, 1.0])", "over the spec"),
    "upright_answer": ('upright = "c"', 'upright = "a"', "look at the sign of dg/dq"),
    "three_link_answer": ("angles = (q1, q1 + q2, q1 + q2 + q3)", "angles = (q1, q2, q3)",
                          "a link's weight acts at its absolute angle"),
}
# more likely mistakes, each of which the part's visible check must catch with its hint
LIKELY = [
    {"potential_answer": ("a = np.asarray(arm.gravity, dtype=float)",
                          "a = np.array([0.0, -np.hypot(*arm.gravity)])", "use arm.gravity"),
     "stiffness_answer": ("a = np.asarray(arm.gravity, dtype=float)",
                          "a = np.array([0.0, -np.hypot(*arm.gravity)])", "use arm.gravity"),
     "sag_answer": ("    return e\n", "    return al.gravity_torques(arm, q) / kp\n",
                    "that is Kp^-1 g(q)"),
     "fit_answer": ("return theta", "return theta[::-1]", "the order: return (a, b)"),
     "payload_answer": ("g0 = np.hypot(*arm.gravity)", "g0 = 1.0", "divide by g0"),
     "design_answer": ("return grid[picked]", "return np.degrees(grid[picked])",
                       "is outside its range"),
     "three_link_answer": ("V = -sum(", "V = sum(", "right size, wrong sign")},
    {"potential_answer": ("lc1, lc2 = arm.com", "lc1, lc2 = arm.lengths",
                          "not at the link's end"),
     "stiffness_answer": ("k11 = m1 * a @ c1 + m2 * a @ c2", "k11 = m1 * a @ c1",
                          "the shoulder's row holds link 2 as well"),
     "sag_answer": ("for _ in range(100):", "for _ in range(1):", "one linearised step"),
     "payload_answer": ("(b_loaded - b_empty)", "(b_empty - b_loaded)",
                        "right size, wrong sign"),
     "design_answer": ("(noise * np.sqrt(var) / se_max).max(axis=-1)",
                       "(noise * np.sqrt(var) / se_max)[..., 1]", "YᵀY is singular")},
    {"three_link_answer": ("return g.jacobian([a, b, c])", "return g.jacobian([a, b, c]).T",
                           "is it transposed?"),
     "potential_answer": ("return float(-(m1 * a @ c1 + m2 * a @ c2))",
                          "return float(m1 * a @ c1 + m2 * a @ c2)", "right size, wrong sign")},
]
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    # numbers from armlab's regressor, which the part does not allow (nor are they symbolic)
    "three_link_answer": ("def three_link_regressor(q1, q2, q3, gx, gy):\n"
                          "    return al.gravity_regressor([0.0, 0.0])"),
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
    # the design judged with armlab's fit, which the part does not allow
    "design_answer": ("def identification_poses(arm, count, q_low, q_high, se_max):\n"
                      "    poses = np.linspace(q_low, q_high, int(count))\n"
                      "    al.fit_gravity(poses, al.gravity_torques(arm, poses))\n"
                      "    return poses"),
}


def _fit(q, tau):
    return al.fit_gravity(q, tau).theta


def _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    b_empty, b_loaded = _fit(q_empty, tau_empty)[1], _fit(q_loaded, tau_loaded)[1]
    return al.payload_mass(b_empty, b_loaded, arm.lengths[1], np.hypot(*arm.gravity))


def _typed_in_poses():
    """The grader's own good design at the design part's first worked case, which a
    student might return whatever the case (a design has no worked value)."""
    case = DESIGN.cases("worked")[0]
    return ref.best_poses(case.args["arm"].gravity, case.args["count"],
                          case.args["q_low"], case.args["q_high"])[0].tolist()


SET = ExerciseSet("gravity", designs={DESIGN.quantity: _typed_in_poses})


def test_references_agree_with_armlab():
    """The fits (numpy's lstsq of the stacked regressor) against armlab's fit_gravity and
    payload_mass; the potential, dg/dq and the sag are armlab's own functions"""
    SET.assert_references_agree({
        "gravity.fit_gravity_parameters": _fit,
        "gravity.payload_mass": _payload,
    })


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints: the table-top arm at
    (30°, 45°), the upright rods, the PD's sag, the fits of the chapter's draw (numpy's
    generator started at 0) and the payload"""
    worked = SET.worked
    assert round(float(worked("potential_energy")), 4) == 4.1275
    np.testing.assert_allclose(worked("gravity_stiffness"),
                               [[-19.62, -4.905], [-4.905, -4.905]], rtol=1e-12)
    assert np.degrees(worked("pd_sag")).round(1).tolist() == [5.5, 0.9]
    assert worked("fit_gravity_parameters").round(4).tolist() == [5.8868, 1.2235]
    assert round(float(worked("payload_mass")), 4) == 0.4947


def test_the_wall_cases_are_the_chapters_mounting():
    """The second visible case of Parts 1 and 2 is the table-top arm of the chapter's
    mounting table on a wall (gravity along -x), whose g is the floor arm's at q1 + 90°"""
    wall = al.PlanarArm(**ref.WALL_ARM.fields())
    np.testing.assert_allclose(wall.gravity, (-9.81, 0.0), atol=1e-12)
    q = np.radians([30.0, 45.0])
    np.testing.assert_allclose(al.gravity_torques(wall, q),
                               al.gravity_torques(al.tabletop_arm(), q + [np.pi / 2, 0.0]),
                               atol=1e-12)
    np.testing.assert_allclose(SET.worked("potential_energy", 1),
                               al.potential_energy(al.tabletop_arm(), q + [np.pi / 2, 0.0]))


def test_sag_cases_have_one_rest_pose():
    """The hidden sag cases' gains beat gravity's stiffness everywhere (twice a bound of
    |dg/dq|), so the rest pose is unique and the simple iteration e = Kp^-1 g(q - e)
    converges to it"""
    from armlab.grading.cases import Arm

    sag = lookup("gravity.pd_sag")
    for key in ("", "x", "y", "z"):
        for case in sag.cases("fresh", key=key):
            arm = al.PlanarArm(**case.args["arm"].fields())
            q, kp = np.array(case.args["q"]), np.array(case.args["kp"])
            e = np.zeros(2)
            for _ in range(200):
                e = al.gravity_torques(arm, q - e) / kp
            np.testing.assert_allclose(e, sag.function(*sag.arguments(case)), atol=1e-10)
            assert isinstance(case.args["arm"], Arm)


# ---------------------------------------------------------------- the design part
def _stderr_by_armlab(arm, poses):
    """The standard errors of (a, b) from armlab's fit of noise-free torques: on a turned
    base the torques are the floor arm's with the shoulder turned on by the mounting angle."""
    floor = al.PlanarArm(arm.lengths, arm.masses, arm.com, gravity=np.hypot(*arm.gravity))
    turn = np.arctan2(-arm.gravity[0], -arm.gravity[1])       # 0 floor, 90° wall, 180° ceiling
    turned = np.asarray(poses) + [turn, 0.0]
    return al.fit_gravity(turned, al.gravity_torques(floor, turned), noise=ref.SIGMA).stderr


def test_the_design_judge_computes_the_fits_standard_errors():
    """The judge's standard errors are armlab's fit's, on every drawn case (floor, wall and
    ceiling) and at the grader's own design; its regressor gives back g(q) = Y (a, b)"""
    rng = np.random.default_rng(3)
    for key in ("", "x", "y"):
        for case in DESIGN.cases("fresh", key=key) + DESIGN.cases("worked"):
            arm = case.args["arm"]
            poses, se = ref.best_poses(arm.gravity, case.args["count"], case.args["q_low"],
                                       case.args["q_high"])
            np.testing.assert_allclose(se, _stderr_by_armlab(arm, poses), rtol=1e-9)
            q = rng.uniform(-np.pi, np.pi, (5, 2))
            real = al.PlanarArm(**arm.fields())
            u1, u12 = ref.columns(arm.gravity, q)
            ab = np.hypot(*arm.gravity) * al.base_parameters(real)[[1, 3]]
            np.testing.assert_allclose(np.c_[ab[0] * u1 + ab[1] * u12, ab[1] * u12],
                                       al.gravity_torques(real, q), atol=1e-12)


def test_several_designs_meet_the_spec_and_a_near_miss_earns_part():
    """Both links across gravity, pointing both ways (the chapter's best pose set), meets the
    chapter's experiment's spec; the chapter's 20 random poses miss it by less than half and
    earn part of the case; poses in degrees earn nothing, and the words say why"""
    case = DESIGN.cases("worked")[0]
    args = DESIGN.arguments(case)
    flat = [[0, 0], [0, np.pi], [np.pi, 0], [np.pi, np.pi]] * 5
    straight = [[0, 0], [np.pi, np.pi]] * 10
    for poses in (flat, straight):
        assert DESIGN.function(*args, poses)[0] == 1.0
    fraction, words = DESIGN.function(*args, ref.BOOK_Q)
    assert 0.3 < fraction < 0.8
    assert words.startswith("s.e. of a 0.0158 N m, 17% over the spec of 0.0135 N m")
    fraction, words = DESIGN.function(*args, np.degrees(ref.BOOK_Q).tolist())
    assert fraction == 0.0 and "is outside its range" in words


def test_the_solutions_design_meets_every_spec():
    """The source notebook's design meets the spec of the fresh cases of 30 students"""
    design = SET.solution()["identification_poses"]
    for key in range(30):
        for case in DESIGN.cases("fresh", key=f"student {key}"):
            poses = design(*student_args(encode(DESIGN.arguments(case))))
            assert DESIGN.function(*DESIGN.arguments(case), np.asarray(poses).tolist())[0] == 1.0


# ---------------------------------------------------------------- the set
def test_the_set_meets_the_standard_on_paper():
    """Seven parts, 32 points, a visible check first worth at most a third of a function part,
    one seeded mistake and one armlab call per checked function, docstrings on every test,
    fresh cases per student"""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=8, points=38)


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
    (upright's "upright" was option a's word)"""
    SET.assert_explanations_point_at_no_option(["payload_joint", "upright"])


def test_the_three_link_regressor_times_theta_is_armlabs_gravity():
    """Part 8's reference against a second route: Y(q) theta, with theta the three first
    moments of an arm, equals al.gravity_torques of that arm at poses on a table, on a
    wall and on a tilted mounting"""
    import sympy as sp

    ref = lookup("gravity.three_link_regressor")
    for gravity in ([0.0, -9.81], [-9.81, 0.0], [3.0, -8.5]):
        arm = al.PlanarArm([0.3, 0.25, 0.2], [2.0, 1.0, 0.5], com=[0.1, 0.15, 0.05],
                           gravity=gravity)
        m, L, c = arm.masses, arm.lengths, arm.com
        theta = [m[0] * c[0] + (m[1] + m[2]) * L[0], m[1] * c[1] + m[2] * L[1], m[2] * c[2]]
        for q in np.radians([[30.0, 45.0, -60.0], [-120.0, 10.0, 170.0]]):
            Y = ref.function(*[sp.Float(x, 30) for x in q], *[sp.Float(x, 30) for x in gravity])
            np.testing.assert_allclose(np.array(Y, dtype=float) @ theta,
                                       al.gravity_torques(arm, q), atol=1e-12)
