"""The gravity exercise set against the exercise standard, with the real nbgrader.

The references agree with armlab; the visible checks hold the chapter's worked values; the
release is what nbgrader generates from the source; the source scores full marks and the
release zero; one seeded mistake per part loses that part only and gets its hint; the worked
values typed in as constants earn at most the visible checks; calling the armlab function that
answers a part (or one the part does not allow) earns nothing for it. One part, the fit, is an
armlab function's body; the others compose armlab's functions with a decision.
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
    "lift_answer": ("return float(max(P) - P[0])", "return float(P[-1] - P[0])",
                    "from the first pose to the last"),
    "least_gain_answer": ("d = np.array([1.0, ratio])", "d = np.array([1.0, 1.0])",
                          "the bound for equal gains"),
    "sag_gain_answer": ("return np.abs(al.pd_sag(arm, q, [k, ratio * k])).max()",
                        "return np.abs(al.gravity_torques(arm, q) / np.array([k, ratio * k]))"
                        ".max()", "the sag if the pose did not change"),
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
    {"lift_answer": ("return float(max(P) - P[0])", "return float(max(P) - min(P))",
                     "the path's whole range"),
     "least_gain_answer": ("return max(0.0, float(np.linalg.eigvalsh(scaled)[-1]))",
                           "return float(np.linalg.eigvalsh(scaled)[-1])",
                           "a gain is not negative"),
     "sag_gain_answer": ("return np.abs(al.pd_sag(arm, q, [k, ratio * k])).max()",
                         "return np.abs(np.linalg.solve(np.diag([k, ratio * k]) + "
                         "al.gravity_stiffness(arm, q), al.gravity_torques(arm, q))).max()",
                         "the linearised sag"),
     "fit_answer": ("return theta", "return theta[::-1]", "the order: return (a, b)"),
     "payload_answer": ("g0 = np.hypot(*arm.gravity)", "g0 = 1.0", "divide by g0"),
     "design_answer": ("return grid[picked]", "return np.degrees(grid[picked])",
                       "is outside its range"),
     "three_link_answer": ("V = -sum(", "V = sum(", "right size, wrong sign")},
    {"lift_answer": ("P = [al.potential_energy(arm, q) for q in poses]",
                     "P = [-al.potential_energy(arm, q) for q in poses]",
                     "right size, wrong sign"),
     "least_gain_answer": ("scaled = -K / np.sqrt(np.outer(d, d))",
                           "scaled = K / np.sqrt(np.outer(d, d))", "right size, wrong sign"),
     "sag_gain_answer": ("[k, ratio * k]", "[k, k]", "that is the gain for equal gains"),
     "payload_answer": ("(b_loaded - b_empty)", "(b_empty - b_loaded)",
                        "right size, wrong sign"),
     "design_answer": ("(noise * np.sqrt(var) / se_max).max(axis=-1)",
                       "(noise * np.sqrt(var) / se_max)[..., 1]", "YᵀY is singular")},
    {"three_link_answer": ("return g.jacobian([a, b, c])", "return g.jacobian([a, b, c]).T",
                           "is it transposed?"),
     "least_gain_answer": ("scaled = -K / np.sqrt(np.outer(d, d))",
                           "scaled = np.diag(-np.diag(K) / d)",
                           "the entries off the diagonal couple the joints"),
     "lift_answer": ("P = [al.potential_energy(arm, q) for q in poses]",
                     "P = [al.potential_energy(al.PlanarArm(arm.lengths, arm.masses, arm.com, "
                     "gravity=np.hypot(*arm.gravity)), q) for q in poses]",
                     "use arm.gravity")},
]
# answer cell: an answer that calls the armlab function answering the part (or, where the
# part allows the armlab functions it builds on, one the part does not allow)
CALLS = {
    # numbers from armlab's regressor, which the part does not allow (nor are they symbolic)
    "three_link_answer": ("def three_link_regressor(q1, q2, q3, gx, gy):\n"
                          "    return al.gravity_regressor([0.0, 0.0])"),
    "lift_answer": ("def lift_energy(arm, poses):\n"
                    "    a = np.asarray(arm.gravity)\n"
                    "    P = [-np.dot(arm.masses, al.com_positions(arm, q) @ a) for q in poses]\n"
                    "    return max(P) - P[0]"),
    "least_gain_answer": ("def least_gain(arm, q, ratio):\n"
                          "    K = al.gravity_stiffness(arm, q)\n"
                          "    al.gravity_torques(arm, q)\n"
                          "    d = np.sqrt(np.outer([1.0, ratio], [1.0, ratio]))\n"
                          "    return max(0.0, np.linalg.eigvalsh(-K / d)[-1])"),
    "sag_gain_answer": ("def gain_for_sag(arm, q, ratio, e_max):\n"
                        "    return al.pd_gains(arm, q, e_max)"),
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


def _lift(arm, poses):
    """max P - P(start), with P written out: -sum m_i a . c_i."""
    L1, (m1, m2), (c1, c2), a = arm.lengths[0], arm.masses, arm.com, np.asarray(arm.gravity)
    P = []
    for q1, q2 in poses:
        u1, u12 = np.array([np.cos(q1), np.sin(q1)]), np.array([np.cos(q1 + q2), np.sin(q1 + q2)])
        P.append(-(m1 * a @ (c1 * u1) + m2 * a @ (L1 * u1 + c2 * u12)))
    return max(P) - P[0]


def _least_gain(arm, q, ratio):
    """The largest root of det(diag(k, ratio k) + dg/dq) = 0, a quadratic in k (the matrix
    is singular there and definite beyond), or 0 (no root above 0)."""
    K = al.gravity_stiffness(arm, q)
    roots = np.roots([ratio, K[0, 0] * ratio + K[1, 1], np.linalg.det(K)])
    real = roots[np.abs(roots.imag) < 1e-9].real
    return max([0.0, *real])


def _gain_for_sag(arm, q, ratio, e_max):
    """Brent's method on the largest sag minus e_max, from twice Part 2's bound on."""
    from scipy.optimize import brentq

    def over(k):
        return np.abs(al.pd_sag(arm, q, [k, ratio * k])).max() - e_max

    lo = 2.0 * _least_gain(arm, q, ratio) + 1.0
    hi = lo
    while over(hi) > 0:
        lo, hi = hi, 2.0 * hi
    return brentq(over, lo, hi, xtol=1e-12, rtol=1e-13)


def test_references_agree_with_armlab():
    """The fits (numpy's lstsq of the stacked regressor) against armlab's fit_gravity and
    payload_mass; the lift against P written out; the least gain against the roots of
    det(Kp + dg/dq); the gain for a sag against Brent's method on armlab's pd_sag"""
    SET.assert_references_agree({
        "gravity.fit_gravity_parameters": _fit,
        "gravity.payload_mass": _payload,
        "gravity.lift_energy": _lift,
        "gravity.least_gain": _least_gain,
        "gravity.gain_for_sag": _gain_for_sag,
    })


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints, or follow from them:
    the upright rods' bound (the chapter's grid finds 23.21 N m/rad to 0.01), the gain that
    holds the chapter's PD within 5 degrees (its (60, 30) N m/rad leaves 5.5 degrees), the
    fits of the chapter's draw (numpy's generator started at 0) and the payload"""
    worked = SET.worked
    assert [round(float(worked("lift_energy", k)), 4) for k in (0, 1)] == [9.1247, 0.5356]
    assert round(float(worked("least_gain")), 2) == 23.21
    assert [round(float(worked("least_gain", k)), 4) for k in (1, 2)] == [6.5767, 0.0]
    assert round(float(worked("gain_for_sag")), 2) == 66.11
    assert worked("fit_gravity_parameters").round(4).tolist() == [5.8868, 1.2235]
    assert round(float(worked("payload_mass")), 4) == 0.4947


def test_the_wall_cases_are_the_chapters_mounting():
    """The wall cases of Parts 1 and 3 are the table-top arm of the chapter's mounting table
    on a wall (gravity along -x), whose g is the floor arm's at q1 + 90°"""
    wall = al.PlanarArm(**ref.WALL_ARM.fields())
    np.testing.assert_allclose(wall.gravity, (-9.81, 0.0), atol=1e-12)
    q = np.radians([30.0, 45.0])
    np.testing.assert_allclose(al.gravity_torques(wall, q),
                               al.gravity_torques(al.tabletop_arm(), q + [np.pi / 2, 0.0]),
                               atol=1e-12)


def test_the_gain_cases_are_far_above_instability():
    """The hidden cases of the gain for a sag need a gain at least 2.5 times Part 2's bound
    (and 1 N m/rad), where the sag falls as the gain grows; Part 2's hidden cases hold up
    poses gravity alone does not, but the one hanging down"""
    sag, least = lookup("gravity.gain_for_sag"), lookup("gravity.least_gain")
    for key in ("", "x", "y"):
        for case in sag.cases("fresh", key=key):
            arm, q, ratio, e_max = sag.arguments(case)
            assert sag.function(arm, q, ratio, e_max) >= 2.5 * max(
                least.function(arm, q, ratio), 1.0), case
        for case in least.cases("fresh", key=key):
            assert (least.function(*least.arguments(case)) == 0.0) == (
                case.label == "a pose hanging down"), case


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
    """Eight parts, 38 points, a visible check first worth at most a third of a function part,
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


SLIP_DOWN = "gravity taken along -y whatever the mounting"


def test_gravity_along_minus_y_is_one_slip_counted_once():
    """The trial class's slip: gravity read as pointing along -y in the arm's frame (g0 =
    -gy, or its size straight down), made in Part 2 (dg/dq by hand, wrong on the wall case)
    and written again in Part 8's regressor (-gy cos phi, gx left out): Part 8 earns half and
    says why, and Part 2's wall case names the mounting, not a sign (its value, 0 there, was
    also the sign mistake's, whose hint it showed)"""
    from test_slips import graded

    parts = [("Part 1: the energy of a lift (4 points)", "gravity.lift_energy", 4.0),
             ("Part 2: the softest PD that holds a pose (5 points)", "gravity.least_gain", 5.0),
             ("Part 8: derive the regressor of a three-link arm (6 points)",
              "gravity.three_link_regressor", 6.0)]
    gain, regressor = lookup("gravity.least_gain"), lookup("gravity.three_link_regressor")
    y_part = next(i for i, (_w, m) in enumerate(gain.mistakes)
                  if gain.slips[i] == SLIP_DOWN and "y part" in m)
    verdicts, points, _result = graded({"lift_energy": "right", "least_gain": y_part,
                                        "three_link_regressor": regressor.slips.index(SLIP_DOWN)},
                                       parts)
    assert points == pytest.approx({
        "test_lift_energy_worked": 1.0, "test_lift_energy_fresh": 3.0,
        "test_least_gain_worked": 1.25, "test_least_gain_fresh": 0.0,
        "test_three_link_regressor_worked": 0.75, "test_three_link_regressor_fresh": 2.25},
        abs=0.006)
    wall = verdicts["test_least_gain_fresh"][0][1]
    assert "mounted on a wall" in wall and "arm.gravity" in wall and "wrong sign" not in wall
    assert (f"The same slip as Part 2 ({SLIP_DOWN})"
            in verdicts["test_three_link_regressor_fresh"][0][1])
    assert lookup("gravity.lift_energy").slips.count(SLIP_DOWN) == 1


def test_the_payload_part_asks_for_the_change_of_b():
    """Part 5 asked for "the payload's mass from the two runs", and the trial class's other
    route (the changes of a and b together, a payload adding m_p g0 L1 to a too) was marked
    wrong by a check that wants the change of b; the text now asks for it, and the change of
    a alone is a named mistake that says so"""
    text = next("".join(c["source"]) for c in SET.source()["cells"]
                if c["metadata"].get("nbgrader", {}).get("grade_id") == "part5")
    assert "from the change of $b$ between the two fits, as the note does" in text
    payload = lookup("gravity.payload_mass")
    args = payload.arguments(payload.cases("worked")[0])
    arm = args[0]
    da = np.subtract(*[ref._fit(q, t)[0] for q, t in ((args[3], args[4]), (args[1], args[2]))])
    by_a = da / (np.hypot(*arm.gravity) * arm.lengths[0])
    hints = [m for w, m in payload.mistakes if abs(w(*args) - by_a) < 1e-12]
    assert len(hints) == 1 and "change of b" in hints[0], hints


def test_the_regressors_labels_read_after_at():
    """A check's message says "<call> at <label>": Part 8's hidden labels read "at on a wall,
    gravity along -x" in the trial class's feedback; every label is now a noun phrase"""
    for key in ("", "x"):
        for case in lookup("gravity.three_link_regressor").cases("fresh", key=key):
            assert case.label.split()[0] in {"a", "an", "the", "all"}, case.label


def test_no_code_span_in_the_text_holds_a_comparison():
    """The feedback page escapes < and > in a markdown cell, and a code span shows the escape:
    Part 6's `q_low[j] <= q[j] <= q_high[j]` read "q_low[j] &lt;= q[j] &lt;= q_high[j]" on
    the trial class's pages (formulas are mended by the sanitizer, code spans are not)"""
    import re

    for cell in SET.source()["cells"]:
        if cell["cell_type"] == "markdown":
            spans = re.findall(r"`[^`\n]*`", "".join(cell["source"]))
            assert not [s for s in spans if "<" in s or ">" in s], spans
