"""The kinematics exercise set against the exercise standard, with the real nbgrader.

The release in exercises/ is what nbgrader generates from solutions/; the source scores full
marks and the release zero; one seeded mistake per part loses that part only and gets its hint;
every listed mistake fails its part's visible check; the chapter's worked values typed in as
constants earn at most the visible checks; calling the armlab function that answers a part
earns nothing for it. The references agree with an independent route; inverse kinematics and
the joint-limit design are judged by what a pose does (its tip, its elbow, its limits).
"""

import numpy as np
import pytest

import armlab as al
from armlab.grading.references import chapter, lookup
from exercise_sets import ExerciseSet

SET = ExerciseSet("kinematics")
REFS = chapter("kinematics")

# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "tip_answer": ("phi = np.cumsum(q)", "phi = np.asarray(q)", "q2 is measured from link 1"),
    "jacobian_answer": ("lever = p[-1] - p[:-1]", "lever = p[1:] - p[:-1]",
                        "not to the next joint"),
    "speeds_answer": ("np.linalg.solve(jacobian(arm, q),", "np.linalg.solve(jacobian(arm, q).T,",
                      "solve with J itself"),
    "manipulability_answer": ("return abs(J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0])",
                              "return J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0]",
                              "take its absolute value"),
    "reach_answer": ("max(0.0, 2 * lengths.max() - lengths.sum())",
                     "abs(lengths[0] - lengths[1:].sum())", "which need not be link 1"),
    "ik_answer": ("np.arctan2(y, x) - ", "np.arctan(y / x) - ",
                  "np.arctan(y / x) cannot tell (x, y) from (-x, -y)"),
    "limits_answer": ("    for elbow in (1.0, -1.0):\n",
                      "    return inverse_kinematics(arm, p, 1.0)\n    for elbow in (1.0, -1.0):\n",
                      "° past its"),
    "stretched_answer": ('folded = "b"', 'folded = "a"',
                         "the shoulder's lever is zero and the elbow's is not"),
    "slider_answer": ("(q1 + alpha)", "(alpha)",
                      "the slider's direction is q1 + alpha"),
}
# more likely mistakes, each of which the part's visible check must catch with its hint
MORE_MISTAKES = [
    {"tip_answer": ("phi = np.cumsum(q)", "phi = np.cumsum(np.degrees(q))",
                    "q is in radians"),
     "jacobian_answer": ("return np.array([-lever[:, 1], lever[:, 0]])",
                         "return np.array([-lever[:, 1], lever[:, 0]]).T", "J transposed"),
     "manipulability_answer": ("return abs(J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0])",
                               "return (J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0]) ** 2",
                               "take the square root"),
     "speeds_answer": ("np.linalg.solve(jacobian(arm, q), np.asarray(v, dtype=float))",
                       "jacobian(arm, q) @ np.asarray(v, dtype=float)", "this is J v")},
    {"speeds_answer": ("np.linalg.solve(jacobian(arm, q), np.asarray(v, dtype=float))",
                       "jacobian(arm, q).T @ np.asarray(v, dtype=float)", "this is J^T v")},
    {"manipulability_answer": ("return abs(J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0])",
                               "return float(np.prod(np.linalg.norm(J, axis=0)))",
                               "that is the claim, the product of the lengths"),
     "reach_answer": ("max(0.0, 2 * lengths.max() - lengths.sum())",
                      "lengths[0] - lengths[1:].sum()", "stays positive when link 2 is the longer"),
     "ik_answer": ("q2 = np.sign(elbow) * np.arccos(c2)", "q2 = -np.sign(elbow) * np.arccos(c2)",
                   "elbow = +1 (down) is q2 >= 0"),
     "limits_answer": ("q = q + 2 * np.pi * np.ceil((lower - q) / (2 * np.pi))", "q = q",
                       "° past its"),
     "slider_answer": ("return tip.jacobian([q1, d])", "return tip.jacobian([q1, d]).T",
                       "is it transposed?")},
    {"tip_answer": ("np.sum(lengths * np.cos(phi)), np.sum(lengths * np.sin(phi))",
                    "np.sum(lengths * np.sin(phi)), np.sum(lengths * np.cos(phi))",
                    "x goes with the cosine"),
     "jacobian_answer": ("return np.array([-lever[:, 1], lever[:, 0]])",
                         "return np.array([lever[:, 1], -lever[:, 0]])", "right size, wrong sign"),
     "reach_answer": ("max(0.0, 2 * lengths.max() - lengths.sum())", "0.0",
                      "the tip cannot always reach the base"),
     "ik_answer": ("np.arctan2(y, x) - np.arctan2(L2", "np.arctan2(y, x) + np.arctan2(L2",
                   "link 1 points short of the tip's direction")},
    {"ik_answer": ("np.clip((x**2 + y**2 - L1**2 - L2**2) / (2 * L1 * L2), -1.0, 1.0)",
                   "(x**2 + y**2 - L1**2 - L2**2) / (2 * L1 * L2)", "contains nan")},
    {"ik_answer": ("return np.array([q1, q2])", "return np.degrees([q1, q2])",
                   "q is in radians")},
    {"ik_answer": ("/ (2 * L1 * L2)", "/ (L1 * L2)", "the law of cosines divides by 2 L1 L2")},
]
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    # numbers from armlab's Jacobian, which the part does not allow (nor are they symbolic)
    "slider_answer": ("def slider_jacobian(q1, d, L1, alpha):\n"
                      "    return al.jacobian(al.tabletop_arm(), [0.0, 1.0])"),
    "tip_answer": "def tip_position(arm, q):\n    return al.tip_position(arm, q)",
    "jacobian_answer": "def jacobian(arm, q):\n    return al.jacobian(arm, q)",
    "speeds_answer": ("def joint_speeds(arm, q, v):\n"
                      "    return np.linalg.solve(al.jacobian(arm, q), v)"),
    "manipulability_answer": ("def manipulability(arm, q):\n"
                              "    return float(al.manipulability(arm, q))"),
    "reach_answer": "def reach(arm):\n    return np.array(al.reach(arm))",
    "ik_answer": ("def inverse_kinematics(arm, p, elbow):\n"
                  "    return al.inverse_kinematics(arm, p, 'down' if elbow > 0 else 'up')"),
    "limits_answer": ("def pose_within_limits(arm, p, lower, upper):\n"
                      "    return al.inverse_kinematics(arm, p, 'up')"),
}


def wrapped(q):
    """Angles into (-pi, pi]."""
    return -np.angle(np.exp(-1j * np.asarray(q, dtype=float)))


def ik_route(arm, p, elbow):
    """The law of cosines written out (not armlab's distances to the two circles), on the
    nearest point of the annulus."""
    L1, L2 = arm.lengths
    r = np.hypot(*p)
    r_min, r_max = abs(L1 - L2), L1 + L2
    x, y = np.asarray(p) * min(max(r, r_min), r_max) / r
    q2 = np.sign(elbow) * np.arccos(np.clip((x * x + y * y - L1**2 - L2**2) / (2 * L1 * L2),
                                            -1.0, 1.0))
    q1 = np.arctan2(y, x) - np.arctan2(L2 * np.sin(q2), L1 + L2 * np.cos(q2))
    return wrapped([q1, q2])


def test_references_agree_with_armlab():
    """Two independent routes: the references (armlab) and numpy written out"""
    SET.assert_references_agree({
        "kinematics.tip_position": lambda arm, q: np.array(
            [np.asarray(arm.lengths) @ np.cos(np.cumsum(q)),
             np.asarray(arm.lengths) @ np.sin(np.cumsum(q))]),
        "kinematics.jacobian": lambda arm, q: np.array(
            [[-(np.asarray(arm.lengths)[j:] * np.sin(np.cumsum(q)[j:])).sum()
              for j in range(arm.n)],
             [(np.asarray(arm.lengths)[j:] * np.cos(np.cumsum(q)[j:])).sum()
              for j in range(arm.n)]]),
        "kinematics.joint_speeds": lambda arm, q, v: np.linalg.solve(al.jacobian(arm, q), v),
        "kinematics.manipulability": lambda arm, q: abs(np.prod(arm.lengths) * np.sin(q[1])),
        "kinematics.reach": lambda arm: np.array([max(0.0, 2 * max(arm.lengths)
                                                      - sum(arm.lengths)), sum(arm.lengths)]),
    })


def test_inverse_kinematics_agrees_with_the_law_of_cosines():
    """The reference pose (armlab's, on the nearest point of the annulus) is the law of
    cosines', both tips within 1e-12 m, and the judge passes it, on every case of every set"""
    ref = lookup("kinematics.inverse_kinematics")
    for which in ("worked", "fresh", "edges"):
        for key in ("", "x", "y"):
            for case in ref.cases(which, key=key):
                arm, p, elbow = ref.arguments(case)
                q = np.asarray(ref.function(arm, p, elbow))
                route = ik_route(arm, p, elbow)
                np.testing.assert_allclose(wrapped(q), route, atol=1e-6)     # near the circles
                real = REFS.planar_arm(arm)                                   # q2 is ill-posed
                np.testing.assert_allclose(al.tip_position(real, q), al.tip_position(real, route),
                                           atol=1e-12)
                assert ref.function(arm, p, elbow, q) == (1.0, ref.function(
                    arm, p, elbow, q)[1]), case


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the kinematics chapter prints"""
    worked = SET.worked
    assert worked("tip_position").round(4).tolist() == [0.433, 0.65]
    assert worked("jacobian").round(4).tolist() == [[-0.65, -0.4], [0.433, 0.0]]
    assert worked("joint_speeds").round(4).tolist() == [0.2309, -0.3753]
    assert round(float(worked("manipulability")), 4) == 0.2
    assert round(float(worked("manipulability", 1)), 4) == 0.1732
    assert worked("reach").round(2).tolist() == [0.1, 0.9]
    assert [worked("reach", k).round(2).tolist() for k in (1, 2, 3)] == [
        [0.0, 2.0], [0.1, 0.9], [0.1, 1.1]]
    ik = [worked("inverse_kinematics", k).round(7).tolist() for k in range(5)]
    assert ik == [[0.5235988, 1.0471976], [1.4426718, -1.0471976],
                  [-2.6179939, 1.0471976], [-1.6989208, -1.0471976], [0.0, 0.0]]
    assert np.degrees(worked("pose_within_limits", 1)).round(4).tolist() == [210.0, 60.0]


def test_fresh_cases_cover_the_edges():
    """Hidden cases include three-link arms, singular poses, both elbow sides, the reach's
    special arms, targets on and off the annulus's circles, and limits that need the other
    elbow or whole turns (that they differ between students: the standard on paper)"""
    def labels(quantity, key=None):
        ref = lookup(quantity)
        return [c.label for which in ["fresh", *ref.set_names()]
                for c in ref.cases(which, key=key)]

    assert "an arm with three links" in labels("kinematics.tip_position")
    assert {"an arm with three links", "the stretched pose"} <= set(labels("kinematics.jacobian"))
    assert {"the stretched pose", "the folded pose"} <= set(labels("kinematics.manipulability"))
    assert "two equal links" in labels("kinematics.reach")
    assert {"link 2 the longer", "two equal links", "a target in the third quadrant",
            "a target exactly on the outer circle", "a target exactly on the inner circle",
            "a target beyond the reach", "a target inside the inner circle"} <= set(
        labels("kinematics.inverse_kinematics"))
    assert {"a shoulder range across 180°", "an elbow range beyond 180°",
            "both elbows within the limits"} <= set(labels("kinematics.pose_within_limits"))


def test_targets_on_the_circles_round_past_them():
    """The targets exactly on a circle are ones whose cos q2, by the law of cosines, rounds
    past +-1 (so an answer that does not clip gives nan there); the near-edge one is inside"""
    ref = lookup("kinematics.inverse_kinematics")
    for key in ("", "x", "y", "z"):
        cases = {c.label: ref.arguments(c) for c in ref.cases("edges", key=key)}
        for label, sign in (("outer", 1.0), ("inner", -1.0)):
            arm, (x, y), _ = cases[f"a target exactly on the {label} circle"]
            L1, L2 = arm.lengths
            assert sign * (x**2 + y**2 - L1**2 - L2**2) / (2 * L1 * L2) > 1.0
        arm, p, _ = cases["a target a millionth of the reach inside the outer circle"]
        assert np.hypot(*p) < sum(arm.lengths)


def test_the_judge_takes_any_whole_turn_and_names_the_mistake():
    """Angles whole turns away are the same pose; a wrong elbow, the arctangent of a ratio and
    a wrong shape each fail with their words"""
    ref = lookup("kinematics.inverse_kinematics")
    arm, p, elbow = ref.arguments(ref.cases("worked")[2])       # the target turned, elbow down
    q = np.asarray(ref.function(arm, p, elbow))
    assert ref.function(arm, p, elbow, q + 2 * np.pi * np.array([3, -1]))[0] == 1.0
    fraction, words = ref.function(arm, p, elbow, ref.function(arm, p, -elbow))
    assert fraction == 0.0 and words == (
        "q = (-97.34°, -60°) puts the tip on the target, with the elbow bent the other way "
        "(q2 = -60°): elbow = +1 (down) is q2 >= 0, link 2 turned counter-clockwise from "
        "link 1, and elbow = -1 (up) is q2 <= 0")
    fraction, words = ref.function(arm, p, elbow, REFS._ik(
        arm, p, elbow, gamma=lambda y, x: np.arctan(y / x)))
    assert fraction == 0.0 and words.endswith("cannot tell (x, y) from (-x, -y)")
    assert words.startswith("q = (30°, 60°) puts the tip at (0.433, 0.65) m, 1.562 m from the "
                            "target: for a tip in the left half-plane use np.arctan2(y, x)")
    assert ref.function(arm, p, elbow, [1.0, 2.0, 3.0]) == (
        0.0, "has 3 numbers, expected 2 joint angles [rad]")


def fits(arm, p, lower, upper, elbow):
    """Whether the pose of one elbow, moved by whole turns, keeps the limits."""
    q = al.inverse_kinematics(REFS.planar_arm(arm), p, elbow=elbow)
    turns = 2 * np.pi * np.ceil((np.asarray(lower) - q) / (2 * np.pi) - 1e-12)
    return bool(np.all(q + turns <= np.asarray(upper) + 1e-12))


def test_the_limits_design_meets_its_spec_and_gives_partial_credit():
    """The reference's pose meets every case's spec, and the labels say true things; a pose a
    few degrees past a limit earns a share, one 10 degrees past none, one off target nothing"""
    ref = lookup("kinematics.pose_within_limits")
    for key in ("", "x", "y", "z"):
        for case in ref.cases("worked") + ref.cases("fresh", key=key):
            args = ref.arguments(case)
            assert ref.function(*args, ref.function(*args))[0] == 1.0, case
            both = [fits(*args, e) for e in ("down", "up")]
            expected = {"only the elbow down within the limits": [True, False],
                        "only the elbow up within the limits": [False, True],
                        "both elbows within the limits": [True, True]}
            assert both == expected.get(case.label, both) and any(both), case
    arm, p, lower, upper = ref.arguments(ref.cases("worked")[0])
    up = ref.function(arm, p, lower, upper)
    assert ref.function(arm, p, lower, upper, up) == (
        1.0, "q = (82.66°, -60°) reaches the target with both joints within their limits")
    down = al.inverse_kinematics(REFS.planar_arm(arm), p)                 # q1 = 30°, 15° short
    fraction, words = ref.function(arm, p, lower, upper, down)
    assert fraction == 0.0 and "q1 = 30° is 15° past its lower limit of 45°" in words
    fraction, words = ref.function(arm, p, lower, upper, down + np.radians([11.0, 0.0]))
    assert fraction == 0.0 and "mm from the target" in words
    tighter = [np.radians(80.0), upper[1]]                          # up's q1 is 82.66°
    fraction, words = ref.function(arm, p, lower, tighter, up)
    assert fraction == pytest.approx(1 - (np.degrees(up[0]) - 80.0) / 10, abs=1e-9)
    assert "q1 = 82.66° is 2.659° past its upper limit of 80°" in words


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first, at most a third of its points visible for
    function parts, and one seeded mistake; every checked function an armlab call."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=9, points=39)


def test_visible_checks_catch_the_listed_mistakes():
    """Each listed likely mistake of a part fails that part's visible check, with its hint"""
    SET.assert_visible_checks_catch(MISTAKES)
    for more in MORE_MISTAKES:
        SET.assert_visible_checks_catch(more)


# part: the equations its text cites, by number and by the label the chapter gives them
CITED = {"part1": {"(1.1)": "eq-kin-fk"}, "part2": {"(1.4)": "eq-kin-columns"},
         "part5": {"(1.7)": "eq-kin-annulus"},
         "part6": {"(1.8)": "eq-kin-ik-elbow", "(1.9)": "eq-kin-ik-shoulder"}}


@pytest.mark.slow
@pytest.mark.usefixtures("built_book")
def test_the_equations_a_part_cites_carry_the_built_pages_numbers():
    """Every equation number in a part's text is the number the built page shows for the
    equation meant, and no part cites a number not listed here"""
    import re

    from bookpages import clean, soup

    from _bookbuild import chapter_pages

    shown = {eqno.find("a", class_="headerlink")["href"][len("#equation-"):]:
             clean(eqno.find(string=True)) for page in chapter_pages("kinematics")
             for eqno in soup(page).find_all("span", class_="eqno")}
    for cell in SET.source()["cells"]:
        gid = cell["metadata"].get("nbgrader", {}).get("grade_id", "")
        if cell["cell_type"] == "markdown" and gid.startswith("part"):
            text = "".join(cell["source"])
            cited = set(re.findall(r"\(1\.\d+\)", text))
            assert cited == set(CITED.get(gid, {})), gid
            assert {number: shown[label] for number, label in CITED.get(gid, {}).items()} == {
                number: number for number in cited}, gid


def test_the_limits_design_feedback_names_what_failed_not_the_method():
    """A pose past a limit is told which joint, which limit and by how many degrees, not what
    passes (it said "try the other elbow, and whole turns of each angle")"""
    ref = lookup("kinematics.pose_within_limits")
    arm, p, lower, upper = ref.arguments(ref.cases("worked")[0])
    q = np.array(ref.function(arm, p, lower, upper))
    tight = [float(q[0] - np.radians(5.0)), upper[1]]           # q1 5° past its upper limit
    low = [min(lower[0], tight[0] - 1.0), lower[1]]
    turned = q + np.array([2 * np.pi, 0.0])                     # the same tip, a turn past
    for limits, pose, share in (((low, tight), q, 0.5), ((lower, upper), turned, 0.0)):
        fraction, words = ref.function(arm, p, *limits, pose.tolist())
        assert fraction == pytest.approx(share, abs=1e-6), words
        assert "past its upper limit" in words and "q1 = " in words, words
        assert not {"try", "elbow", "turns"} & set(words.replace(",", " ").split()), words


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)


def test_the_explanations_point_at_no_option():
    """A wrong choice's explanation says why it is wrong without the words of any one option
    (stretched's "across" was option b's word, its "joint speeds" option a's)"""
    SET.assert_explanations_point_at_no_option(["folded"])


def test_the_slider_jacobian_is_the_tips_finite_difference():
    """Part 9's reference against a second route: central differences of the tip
    position L1 (cos q1, sin q1) + d (cos(q1 + alpha), sin(q1 + alpha)), in numpy"""
    import sympy as sp

    ref = lookup("kinematics.slider_jacobian")

    def tip(q1, d, L1, alpha):
        return np.array([L1 * np.cos(q1) + d * np.cos(q1 + alpha),
                         L1 * np.sin(q1) + d * np.sin(q1 + alpha)])

    for q1, d, L1, alpha in ((0.3, 0.2, 0.5, 1.1), (-2.0, 0.45, 0.3, -0.4), (1.0, 0.0, 0.7, 0.0)):
        J = np.array(ref.function(*[sp.Float(x, 30) for x in (q1, d, L1, alpha)]), dtype=float)
        h = 1e-6
        by_q1 = (tip(q1 + h, d, L1, alpha) - tip(q1 - h, d, L1, alpha)) / (2 * h)
        by_d = (tip(q1, d + h, L1, alpha) - tip(q1, d - h, L1, alpha)) / (2 * h)
        np.testing.assert_allclose(J, np.column_stack([by_q1, by_d]), atol=1e-8)
