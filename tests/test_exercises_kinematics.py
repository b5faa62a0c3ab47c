"""The kinematics exercise set against the exercise standard, with the real nbgrader.

The release in exercises/ is what nbgrader generates from solutions/; the source scores full
marks and the release zero; one seeded mistake per part loses that part only and gets its hint;
every listed mistake fails its part's visible check; the chapter's worked values typed in as
constants earn at most the visible checks; calling the armlab function that answers a part
earns nothing for it. The references agree with an independent route (numpy written out, a
search); the joint-limit design is judged by what a pose does (its tip, its limits).
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
    "mounted_answer": ("turn = np.array([[c, -s], [s, c]])", "turn = np.array([[c, s], [-s, c]])",
                       "the base turned the wrong way"),
    "jacobian_answer": ("lever = p[-1] - p[:-1]", "lever = p[1:] - p[:-1]",
                        "not to the next joint"),
    "speeds_answer": ("np.linalg.solve(jacobian(arm, q),", "np.linalg.solve(jacobian(arm, q).T,",
                      "solve with J itself"),
    "least_answer": ("w.append(abs(J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0]))",
                     "w.append(J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0])",
                     "det J is negative when the elbow bends the other way"),
    "ring_answer": ("return max(0.0, r_out - L1, L1 - r_in)", "return max(0.0, r_out - L1)",
                    "cannot come as close to the base as r_in"),
    "nearest_answer": ("move = np.max(np.abs(q - q_now))", "move = np.sum(np.abs(q - q_now))",
                       "that is the other elbow's pose"),
    "limits_answer": ("    for elbow in (\"down\", \"up\"):\n",
                      "    return al.inverse_kinematics(arm, p, elbow=\"down\")\n"
                      "    for elbow in (\"down\", \"up\"):\n",
                      "° past its"),
    "stretched_answer": ('folded = "b"', 'folded = "a"',
                         "the shoulder's lever is zero and the elbow's is not"),
    "slider_answer": ("(q1 + alpha)", "(alpha)",
                      "the slider's direction is q1 + alpha"),
}
# more likely mistakes, each of which the part's visible check must catch with its hint
MORE_MISTAKES = [
    {"mounted_answer": ("return np.asarray(base, dtype=float) + turn @ local",
                        "return turn @ (np.asarray(base, dtype=float) + local)",
                        "the base's offset was turned with the arm"),
     "jacobian_answer": ("return np.array([-lever[:, 1], lever[:, 0]])",
                         "return np.array([-lever[:, 1], lever[:, 0]]).T", "J transposed"),
     "least_answer": ("w.append(abs(J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0]))",
                      "w.append(np.prod(np.linalg.norm(J, axis=0)))",
                      "that is the claim's pick"),
     "ring_answer": ("return max(0.0, r_out - L1, L1 - r_in)", "return max(0.0, L1 - r_in)",
                     "reaches the ring's inner circle but not its outer one"),
     "nearest_answer": ("        q = q_now + (q - q_now + np.pi) % (2 * np.pi) - np.pi", "",
                        "a joint turns the long way round"),
     "speeds_answer": ("np.linalg.solve(jacobian(arm, q), np.asarray(v, dtype=float))",
                       "jacobian(arm, q) @ np.asarray(v, dtype=float)", "this is J v")},
    {"mounted_answer": ("return np.asarray(base, dtype=float) + turn @ local",
                        "return turn @ local", "the base's offset is missing"),
     "speeds_answer": ("np.linalg.solve(jacobian(arm, q), np.asarray(v, dtype=float))",
                       "jacobian(arm, q).T @ np.asarray(v, dtype=float)", "this is J^T v"),
     "least_answer": ("return int(np.argmin(w))", "return int(np.argmax(w))",
                      "the pose where the tip moves most freely"),
     "ring_answer": ("    if r_out - L1 > L1 + r_in:", "    if False:",
                     "return np.inf there"),
     "nearest_answer": ('for elbow in ("down", "up"):', 'for elbow in ("down",):',
                        "that is the other elbow's pose"),
     "limits_answer": ("q = q + 2 * np.pi * np.ceil((lower - q) / (2 * np.pi))", "q = q",
                       "° past its"),
     "slider_answer": ("return tip.jacobian([q1, d])", "return tip.jacobian([q1, d]).T",
                       "is it transposed?")},
    {"mounted_answer": ("+ turn @ local", "+ al.tip_position(arm, np.asarray(q) + theta)",
                        "theta added to every joint angle"),
     "jacobian_answer": ("return np.array([-lever[:, 1], lever[:, 0]])",
                         "return np.array([lever[:, 1], -lever[:, 0]])", "right size, wrong sign"),
     "least_answer": ("return int(np.argmin(w))", "return int(np.argmin(w)) + 1",
                      "indices count from 0"),
     "nearest_answer": ('for elbow in ("down", "up"):', 'for elbow in ("up",):',
                        "that is the other elbow's pose"),
     },
    {"nearest_answer": ("if move < best_move:", "if move > best_move or best is None:",
                        "that is the other elbow's pose")},
]
# answer cell: an answer that calls the armlab function answering the part (or, where the
# part allows the armlab function it builds on, one the part does not allow)
CALLS = {
    # numbers from armlab's Jacobian, which the part does not allow (nor are they symbolic)
    "slider_answer": ("def slider_jacobian(q1, d, L1, alpha):\n"
                      "    return al.jacobian(al.tabletop_arm(), [0.0, 1.0])"),
    "mounted_answer": ("def mounted_tip(arm, q, base, theta):\n"
                       "    p = al.joint_positions(arm, np.asarray(q) + np.r_[theta, "
                       "np.zeros(len(q) - 1)])\n"
                       "    return np.asarray(base) + p[-1]"),
    "jacobian_answer": "def jacobian(arm, q):\n    return al.jacobian(arm, q)",
    "speeds_answer": ("def joint_speeds(arm, q, v):\n"
                      "    return np.linalg.solve(al.jacobian(arm, q), v)"),
    "least_answer": ("def least_free_pose(arm, poses):\n"
                     "    return int(np.argmin([al.manipulability(arm, q) for q in poses]))"),
    "ring_answer": ("def shortest_link2(L1, r_in, r_out):\n"
                    "    al.tip_position(al.PlanarArm((L1, L1), (1.0, 1.0)), [0.0, np.pi])\n"
                    "    return max(0.0, r_out - L1, L1 - r_in)"),
    "nearest_answer": ("def nearest_pose(arm, p, q_now):\n"
                       "    al.reach(arm)\n"
                       "    return al.inverse_kinematics(arm, p, 'up')"),
    "limits_answer": ("def pose_within_limits(arm, p, lower, upper):\n"
                      "    al.reach(arm)\n"
                      "    return al.inverse_kinematics(arm, p, 'up')"),
}


def wrapped(q):
    """Angles into (-pi, pi]."""
    return -np.angle(np.exp(-1j * np.asarray(q, dtype=float)))


def nearest_route(arm, p, q_now):
    """The nearest pose written out: the law of cosines for both elbows, every whole turn of
    each angle from -2 to 2 tried, the pose of the smallest largest move kept (not the
    reference's wrapping)."""
    L1, L2 = arm.lengths
    x, y = p
    best, best_move = None, np.inf
    for sign in (1.0, -1.0):
        q2 = sign * np.arccos(np.clip((x * x + y * y - L1**2 - L2**2) / (2 * L1 * L2), -1, 1))
        q1 = np.arctan2(y, x) - np.arctan2(L2 * np.sin(q2), L1 + L2 * np.cos(q2))
        for k1 in range(-2, 3):
            for k2 in range(-2, 3):
                q = np.array([q1 + 2 * np.pi * k1, q2 + 2 * np.pi * k2])
                d = np.abs(q - q_now)
                if np.all(d <= np.pi) and d.max() < best_move:
                    best, best_move = q, d.max()
    return best


def link2_route(L1, r_in, r_out):
    """The shortest link 2 by search: the lengths on a 5 mm grid (the cases' lengths are
    multiples of 5 cm) whose annulus (armlab's reach) holds the ring, the first kept (inf if
    none up to 3 m)."""
    for k in range(1, 601):
        L2 = round(k * 0.005, 10)
        r_min, r_max = al.reach(al.PlanarArm((L1, L2), (1.0, 1.0)))
        if r_min <= r_in + 1e-9 and r_max >= r_out - 1e-9:
            return L2
    return np.inf


def test_references_agree_with_armlab():
    """Two independent routes: the references (armlab) and numpy written out"""
    SET.assert_references_agree({
        "kinematics.mounted_tip": lambda arm, q, base, theta: np.asarray(base) + np.array(
            [np.asarray(arm.lengths) @ np.cos(theta + np.cumsum(q)),
             np.asarray(arm.lengths) @ np.sin(theta + np.cumsum(q))]),
        "kinematics.jacobian": lambda arm, q: np.array(
            [[-(np.asarray(arm.lengths)[j:] * np.sin(np.cumsum(q)[j:])).sum()
              for j in range(arm.n)],
             [(np.asarray(arm.lengths)[j:] * np.cos(np.cumsum(q)[j:])).sum()
              for j in range(arm.n)]]),
        "kinematics.joint_speeds": lambda arm, q, v: np.linalg.solve(al.jacobian(arm, q), v),
        "kinematics.least_free_pose": lambda arm, poses: int(np.argmin(
            [abs(np.prod(arm.lengths) * np.sin(q[1])) for q in poses])),
        "kinematics.nearest_pose": lambda arm, p, q_now: nearest_route(arm, p, q_now),
    })


def test_the_shortest_link_is_the_searchs():
    """Part 5's reference against a search over link 2's length with armlab's reach, on
    every worked and fresh case"""
    ref = lookup("kinematics.shortest_link2")
    for key in ("", "x"):
        for case in ref.cases("worked") + ref.cases("fresh", key=key):
            args = ref.arguments(case)
            expected, found = ref.function(*args), link2_route(*args)
            assert (expected == found == np.inf) or abs(expected - found) <= 1e-9, case


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the kinematics chapter prints, or follow
    from them"""
    worked = SET.worked
    assert worked("mounted_tip").round(4).tolist() == [-0.45, 0.533]        # (0.2, 0.1) + turned
    assert worked("jacobian").round(4).tolist() == [[-0.65, -0.4], [0.433, 0.0]]
    assert worked("joint_speeds").round(4).tolist() == [0.2309, -0.3753]
    assert [int(worked("least_free_pose", k)) for k in (0, 1)] == [3, 0]
    assert [worked("shortest_link2", k) for k in range(4)] == [0.4, 0.45, 0.5, np.inf]
    assert [np.degrees(worked("nearest_pose", k)).round(2).tolist() for k in (0, 1)] == [
        [82.66, -60.0], [210.0, 60.0]]
    assert np.degrees(worked("pose_within_limits", 1)).round(4).tolist() == [210.0, 60.0]


def test_fresh_cases_cover_the_edges():
    """Hidden cases include three-link arms, singular poses, both elbow sides, rings the
    outer and the inner circle decide and one too wide, starts beyond half a turn, and
    limits that need the other elbow or whole turns (that they differ between students:
    the standard on paper)"""
    def labels(quantity, key=None):
        ref = lookup(quantity)
        return [c.label for which in ["fresh", *ref.set_names()]
                for c in ref.cases(which, key=key)]

    assert {"an arm with three links", "a base turned upside down (hanging from a ceiling)"} <= set(
        labels("kinematics.mounted_tip"))
    assert {"an arm with three links", "the stretched pose"} <= set(labels("kinematics.jacobian"))
    assert {"a path through the stretched pose", "a path through a nearly folded pose"} <= set(
        labels("kinematics.least_free_pose"))
    assert {"a wide ring", "a ring reaching close to the base", "a ring too wide for link 1"} <= set(
        labels("kinematics.shortest_link2"))
    assert {"a start beyond half a turn", "a start below minus half a turn"} <= set(
        labels("kinematics.nearest_pose"))
    assert {"a shoulder range across 180°", "an elbow range beyond 180°",
            "both elbows within the limits", "a shoulder range below -180°"} <= set(
        labels("kinematics.pose_within_limits"))


def test_the_fresh_cases_decide_what_their_labels_say():
    """A ring labelled wide is decided by its outer circle, one close to the base by its inner
    circle; on every path the smallest w is clear of the next by 1e-3; the nearest pose's two
    elbows differ by 2° or more (no near ties), on several keys"""
    ring, least, near = (lookup(f"kinematics.{q}") for q in
                         ("shortest_link2", "least_free_pose", "nearest_pose"))
    for key in ("", "x", "y", "z"):
        for case in ring.cases("fresh", key=key):
            L1, r_in, r_out = ring.arguments(case)
            side = {"a wide ring": r_out - L1 > L1 - r_in,
                    "a ring reaching close to the base": L1 - r_in > r_out - L1,
                    "a ring too wide for link 1": r_out - L1 > L1 + r_in}[case.label]
            assert side, case
        for case in least.cases("fresh", key=key):
            arm, poses = least.arguments(case)
            w = sorted(abs(np.prod(arm.lengths) * np.sin(q[1])) for q in poses)
            assert w[1] - w[0] > 1e-3, case
        for case in near.cases("fresh", key=key):
            arm, p, q_now = near.arguments(case)
            moves = []
            for elbow in ("down", "up"):
                q = al.inverse_kinematics(REFS.planar_arm(arm), p, elbow=elbow)
                moves.append(np.degrees(np.abs(wrapped(q - np.asarray(q_now)))))
            assert abs(moves[0].max() - moves[1].max()) >= 2.0, case
            assert max(m.max() for m in moves) <= 179.0, case


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
CITED = {"part2": {"(1.4)": "eq-kin-columns"}, "part5": {"(1.7)": "eq-kin-annulus"}}


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


def test_the_lever_to_the_next_joint_is_one_slip_counted_once():
    """The trial class's slip: column j's lever taken to the next joint, not to the tip, made in
    Part 2 and written again by hand in Part 3 (J typed with each link's own lever) and in Part
    9 (column 1 without the slider's d terms): Parts 3 and 9 earn half, and say why (each cost
    the student its whole part before)"""
    from test_slips import graded

    slip = "each column's lever taken to the next joint, not to the tip"
    parts = [("Part 2: the Jacobian, column by column (3 points)", "kinematics.jacobian", 3.0),
             ("Part 3: the way back (3 points)", "kinematics.joint_speeds", 3.0),
             ("Part 9: derive the Jacobian of an arm with a sliding joint (6 points)",
              "kinematics.slider_jacobian", 6.0)]
    index = {name: lookup(f"kinematics.{name}").slips.index(slip)
             for name in ("jacobian", "joint_speeds", "slider_jacobian")}
    verdicts, points, _result = graded(index, parts)
    assert points == pytest.approx({
        "test_jacobian_worked": 0.0, "test_jacobian_fresh": 0.0,
        "test_joint_speeds_worked": 0.375, "test_joint_speeds_fresh": 1.125,
        "test_slider_jacobian_worked": 0.75, "test_slider_jacobian_fresh": 2.25}, abs=0.006)
    for name in ("joint_speeds", "slider_jacobian"):
        assert f"The same slip as Part 2 ({slip})" in verdicts[f"test_{name}_fresh"][0][1]


def test_the_way_backs_advice_asks_where_to_look_not_how():
    """Part 3's advice named the method that passes ("use np.linalg.solve with J"), and told
    the slip student, who did, to do what they had done"""
    advice = lookup("kinematics.joint_speeds").advice
    assert not {"solve", "np.linalg.solve", "inverse", "inv"} & set(
        advice.replace("(", " ").replace(",", " ").split()), advice


def test_the_slider_hint_names_the_lever_not_the_entries():
    """Part 9's hint for the missing d terms gave column 1's entries outright"""
    ref = lookup("kinematics.slider_jacobian")
    hint = next(m for _w, m in ref.mistakes if "lever" in m or "turns with link 1" in m)
    assert "sin(q1 + alpha)" not in hint and "cos(q1 + alpha)" not in hint, hint
    assert "from the base to the tip" in hint, hint


def test_a_search_of_two_turns_only_fails_a_hidden_limits_case():
    """A pose tried as it comes and modulo 2 pi (the trial class's typed-in student) met every
    hidden case of its key: a shoulder range below -180 degrees needs a turn the other way
    (the case comes last, so the other cases are drawn as before)"""
    ref = lookup("kinematics.pose_within_limits")

    def two_turns(arm, p, lower, upper):
        for elbow in ("down", "up"):
            q = al.inverse_kinematics(REFS.planar_arm(arm), p, elbow=elbow)
            for cand in (q, q % (2 * np.pi)):
                if np.all(np.asarray(lower) <= cand) and np.all(cand <= np.asarray(upper)):
                    return cand.tolist()
        return al.inverse_kinematics(REFS.planar_arm(arm), p).tolist()

    for key in ("", "x", "y", "z"):
        shares = {case.label: ref.function(*ref.arguments(case),
                                           two_turns(*ref.arguments(case)))[0]
                  for case in ref.cases("fresh", key=key)}
        assert list(shares)[-1] == "a shoulder range below -180°", key
        assert shares["a shoulder range below -180°"] == 0.0, key
