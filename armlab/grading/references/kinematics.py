"""Grading references for the kinematics chapter's exercises (``solutions/kinematics``).

They run in the trusted grader (and, for a visible check, in a student's kernel), so the
expected values are armlab's own: ``al.tip_position``, ``al.jacobian``, ``al.manipulability``,
``al.reach``, ``al.inverse_kinematics``. A likely mistake is a line of numpy. Inverse
kinematics and the joint-limit design are judged by what the answer does (where its forward
kinematics puts the tip, which way its elbow bends, whether it keeps the joint limits), with
angles taken modulo 2 pi, so every pose that does the job is right.
"""


import numpy as np

from armlab.grading.judge import sentence
from armlab.grading.purepy import fmt
from armlab.grading.references import (Arm, Case, al, all_symbols, deg, derivation, design,
                                       drawn_arms, exact_draws, listed, planar_arm, reference)

ARM = Arm.from_arm(al.statics_arm(), "the chapter's arm")
"""The chapter's arm: L = (0.5, 0.4) m."""

def relative(q):
    """The relative angles of a pose whose angles were taken as absolute ones (a mistake)."""
    return np.diff(np.asarray(q, dtype=float), prepend=0.0)


WALL_POSE = Case(arm=ARM, q=deg(30, 60), label="the wall pose of Example 1")
WALL_TIP = listed(al.tip_position(al.statics_arm(), deg(30, 60)))
"""The tip of the wall pose, (0.433, 0.65) m: the target of Example 6."""
UP = listed(al.inverse_kinematics(al.statics_arm(), WALL_TIP, elbow="up"))
"""Example 6's other pose to the same tip, elbow up: (82.66°, -60°)."""


def _named(arm):
    """The arm named by its lengths alone: kinematics needs nothing else."""
    words = ", ".join(f"{x:g}" for x in arm.lengths)
    return arm.relabel(f"an arm with L = ({words}) m")


def _others(rng, count, n=2):
    """``count`` fresh arms of ``n`` links (other lengths)."""
    return [_named(arm) for arm in drawn_arms(rng, count, n=n)]


def _lengths(lengths, label=None):
    """An arm with these link lengths [m] (the masses, 1 kg each, do not matter here)."""
    arm = _named(Arm(lengths, [1.0] * len(lengths)))
    return arm.relabel(label) if label else arm


def _three_links(rng, count=3):
    """Poses of arms with three links: the parts that ask for any number of links check
    them in a hidden cell of their own, so an answer written for two links only keeps
    the points of the two-link cases."""
    return [Case(arm=arm, q=rng.pose(3), label="an arm with three links")
            for arm in _others(rng, count, 3)]


# ---------------------------------------------------------------- forward kinematics
@reference(worked=WALL_POSE, advice="add the links one by one, each along its absolute angle "
                               "q1 + ... + qi")
def tip_position(arm, q):
    """Tip position (2,) [m]: the links added along their absolute angles."""
    return listed(al.tip_position(planar_arm(arm), q))


@tip_position.fresh
def _tip_cases(rng):
    cases = [Case(arm=arm, q=rng.pose(2)) for arm in [ARM] + _others(rng, 2) for _ in range(2)]
    cases.append(Case(arm=_named(rng.arm()), q=deg(rng.integer(-170, 170), 180),
                      label="a folded pose"))
    return cases


@tip_position.fresh("three links")
def _tip_three_links(rng):
    return _three_links(rng)


@tip_position.mistake("link 2's direction is q1 + q2: q2 is measured from link 1, not from "
                      "the x axis")
def _tip_absolute(arm, q):
    return listed(al.tip_position(planar_arm(arm), relative(q)))


@tip_position.mistake("q is in radians: np.sin and np.cos take radians, so do not convert q "
                      "to degrees")
def _tip_degrees(arm, q):
    return listed(al.tip_position(planar_arm(arm), np.degrees(q)))


@tip_position.mistake("x goes with the cosine and y with the sine of each link's angle "
                      "(q1 is measured from +x)")
def _tip_swapped(arm, q):
    return listed(al.tip_position(planar_arm(arm), q)[::-1])


# ---------------------------------------------------------------- the Jacobian
def _turned_levers(arm, q, next_joint=False):
    """z x (lever) per joint, as columns: the lever to the tip, or to the next joint."""
    p = al.joint_positions(planar_arm(arm), q)
    lever = (p[1:] if next_joint else p[-1]) - p[:-1]
    return np.array([-lever[:, 1], lever[:, 0]])


@reference(worked=Case(arm=ARM, q=deg(30, 60), label="the wall pose of Example 2"),
           allow=("joint_positions",),
           advice="column j is z x (p_tip - p_j), the lever from joint j to the tip turned "
                  "by +90 degrees")
def jacobian(arm, q):
    """Tip Jacobian (2, n) [m/rad]: column j is z x (p_tip - p_j)."""
    return listed(al.jacobian(planar_arm(arm), q))


@jacobian.fresh
def _jacobian_cases(rng):
    cases = [Case(arm=arm, q=rng.pose(2)) for arm in [ARM] + _others(rng, 2) for _ in range(2)]
    cases.append(Case(arm=_named(rng.arm()), q=deg(0, 0), label="the stretched pose"))
    return cases


@jacobian.fresh("three links")
def _jacobian_three_links(rng):
    return _three_links(rng)


@jacobian.mistake("this is J transposed: row i of J is the tip's velocity along x (i = 0) or "
                  "y (i = 1), column j belongs to joint j")
def _jacobian_transposed(arm, q):
    return listed(al.jacobian(planar_arm(arm), q).T)


@jacobian.mistake("right size, wrong sign: a positive joint speed turns its link "
                  "counter-clockwise, so column j is z x (p_tip - p_j), with z x (x, y) = (-y, x)")
def _jacobian_negated(arm, q):
    return listed(-al.jacobian(planar_arm(arm), q))


@jacobian.mistake("the lever of column j runs from joint j to the tip, not to the next joint: "
                  "turning joint j swings everything beyond it")
def _jacobian_next_joint(arm, q):
    return listed(_turned_levers(arm, q, next_joint=True))


@jacobian.mistake("link 2's direction is q1 + q2: q2 is measured from link 1")
def _jacobian_absolute(arm, q):
    return listed(al.jacobian(planar_arm(arm), relative(q)))


# ---------------------------------------------------------------- the way back
@reference(worked=Case(arm=ARM, q=deg(30, 60), v=[0.0, 0.1],
                       label="the wall pose's lift, 0.1 m/s straight up"),
           uses={"jacobian": jacobian}, units={"v": "m/s"},
           advice="the joint speeds solve J(q) qd = v: use np.linalg.solve with J")
def joint_speeds(arm, q, v):
    """Joint speeds (2,) [rad/s] that move the tip with velocity v: J qd = v."""
    return listed(np.linalg.solve(al.jacobian(planar_arm(arm), q), v))


@joint_speeds.fresh
def _speeds_cases(rng):
    return [Case(arm=arm, q=rng.pose(2), v=rng.vector(2, -0.5, 0.5, 0.05, nonzero=True))
            for arm in [ARM] + _others(rng, 2) for _ in range(2)]


@joint_speeds.mistake("this is J^T v: the joint speeds solve J qd = v, which needs the inverse "
                      "of J, not its transpose")
def _speeds_transposed(arm, q, v):
    return listed(al.jacobian(planar_arm(arm), q).T @ v)


@joint_speeds.mistake("this solves J^T qd = v: the tip velocity is J qd, so solve with J itself")
def _speeds_solve_transposed(arm, q, v):
    return listed(np.linalg.solve(al.jacobian(planar_arm(arm), q).T, v))


@joint_speeds.mistake("this is J v: J turns joint speeds into tip velocities; the way back "
                      "solves J qd = v")
def _speeds_forward(arm, q, v):
    return listed(al.jacobian(planar_arm(arm), q) @ v)


# ---------------------------------------------------------------- manipulability
@reference(worked=[Case(arm=ARM, q=deg(0, 90), label="Example 4's elbow bent at 90°"),
                   Case(arm=ARM, q=UP, label="Example 6's pose with the elbow up")],
           uses={"jacobian": jacobian},
           advice="w = sigma_1 sigma_2, the area of the velocity ellipse over pi")
def manipulability(arm, q):
    """Manipulability w = |det J| = sigma_1 sigma_2 [m^2/rad^2] of a two-link arm."""
    return float(al.manipulability(planar_arm(arm), q))


@manipulability.fresh
def _manipulability_cases(rng):
    cases = [Case(arm=arm, q=rng.pose(2)) for arm in [ARM] + _others(rng, 2) for _ in range(2)]
    cases.append(Case(arm=_named(rng.arm()), q=deg(rng.integer(10, 80), -rng.integer(20, 160)),
                      label="an elbow bent the other way (q2 < 0)"))
    cases.append(Case(arm=_named(rng.arm()), q=deg(rng.integer(-90, 90), 0),
                      label="the stretched pose"))
    cases.append(Case(arm=_named(rng.arm()), q=deg(rng.integer(-90, 90), 180),
                      label="the folded pose"))
    return cases


@manipulability.mistake("that is the claim, the product of the lengths of J's columns: it "
                        "overstates w wherever the columns are not at right angles")
def _manipulability_column_product(arm, q):
    return float(np.prod(np.linalg.norm(al.jacobian(planar_arm(arm), q), axis=0)))


@manipulability.mistake("w is the size of det J: det J is negative when the elbow bends the "
                        "other way, so take its absolute value")
def _manipulability_signed(arm, q):
    return float(np.linalg.det(al.jacobian(planar_arm(arm), q)))


@manipulability.mistake("this is det(J J^T) = w^2: take the square root, or |det J|")
def _manipulability_squared(arm, q):
    return float(np.linalg.det(al.jacobian(planar_arm(arm), q)) ** 2)


@manipulability.mistake("det J = L1 L2 sin q2 depends on the elbow angle q2, not on q1")
def _manipulability_shoulder(arm, q):
    return float(abs(np.prod(arm.lengths) * np.sin(q[0])))


# ---------------------------------------------------------------- the workspace's edges
@reference(worked=[Case(arm=ARM, label="the chapter's arm (Example 5)"),
                   Case(arm=Arm.from_arm(al.rod_arm(), "the rods of Example 5")),
                   Case(arm=_lengths([0.4, 0.5], "the chapter's arm with its links swapped, "
                                                 "L = (0.4, 0.5) m")),
                   Case(arm=_lengths([0.2, 0.6, 0.3]))],
           advice="r_max is the stretched arm; for r_min fold the longest link back against "
                  "all the others, stretched")
def reach(arm):
    """(r_min, r_max) [m]: the annulus the tip reaches, joints turning all the way round."""
    return listed(al.reach(planar_arm(arm)))


@reach.fresh
def _reach_cases(rng):
    short, long_ = rng.uniform(0.2, 0.45, 0.05), rng.uniform(0.5, 0.8, 0.05)
    return [
        Case(arm=_lengths([long_, short])),
        Case(arm=_lengths([short, long_]), label="link 2 the longer"),
        Case(arm=_lengths([long_, long_]), label="two equal links"),
    ]


@reach.fresh("three links")
def _reach_three_links(rng):
    b, c = rng.uniform(0.1, 0.3, 0.05), rng.uniform(0.1, 0.3, 0.05)
    a = round(b + c + rng.uniform(0.05, 0.3, 0.05), 10)
    return [
        Case(arm=_lengths([b, a, c]), label="three links, the middle one longer than the "
                                            "other two together"),
        Case(arm=_lengths(rng.vector(3, 0.3, 0.5, 0.05)), label="three links, none longer "
                                                                 "than the other two together"),
    ]


@reach.mistake("r_min is a distance: |L1 - L2|, which stays positive when link 2 is the longer")
def _reach_no_abs(arm):
    return [arm.lengths[0] - sum(arm.lengths[1:]), sum(arm.lengths)]


@reach.mistake("the tip cannot always reach the base: it comes no closer than the longest link "
               "folded back against all the others")
def _reach_disc(arm):
    return [0.0, sum(arm.lengths)]


@reach.mistake("fold the longest link back against the others, which need not be link 1: "
               "r_min = max(0, 2 max(L) - sum(L))")
def _reach_first_link(arm):
    return [abs(arm.lengths[0] - sum(arm.lengths[1:])), sum(arm.lengths)]


# ---------------------------------------------------------------- inverse kinematics
MISS = 1e-9
"""How far [m] the tip of a right answer may be from its target (rounding only)."""


def _elbow(elbow):
    """armlab's word for the elbow of a part's ``elbow`` (+1 down, -1 up)."""
    return "down" if elbow > 0 else "up"


def _nearest(arm, p):
    """The point of the workspace nearest to ``p``: ``p`` itself when the tip reaches it."""
    p = np.asarray(p, dtype=float)
    r = float(np.hypot(*p))
    r_min, r_max = al.reach(planar_arm(arm))
    return p * (min(max(r, r_min), r_max) / r) if r > 0 else p


def _ik(arm, p, elbow, *, gamma=np.arctan2, plus=False, denominator=2.0, clip=True):
    """The law of cosines and the two-argument arctangent, with the switches of a mistake:
    ``gamma`` the tip's direction, ``plus`` adding link 2's angle to it, ``denominator``
    of L1 L2, ``clip`` of cos q2 into [-1, 1] (nan without it, off the annulus)."""
    L1, L2 = arm.lengths
    x, y = (float(v) for v in p)
    with np.errstate(divide="ignore", invalid="ignore"):
        c2 = (x * x + y * y - L1 * L1 - L2 * L2) / (denominator * L1 * L2)
        q2 = float(np.sign(elbow) * np.arccos(np.clip(c2, -1.0, 1.0) if clip else c2))
        beta = np.arctan2(L2 * np.sin(q2), L1 + L2 * np.cos(q2))
        direction = float(gamma(y, x))
    return [direction + beta if plus else direction - beta, q2]


def _same_pose(q, other, tol=1e-6):
    """Whether two poses are the same angles modulo 2 pi."""
    d = np.asarray(q, dtype=float) - np.asarray(other, dtype=float)
    return bool(np.all(np.isfinite(d)) and np.all(np.abs(np.angle(np.exp(1j * d))) <= tol))


def _shown(q):
    """A pose in words, in degrees: ``(30°, 60°)``."""
    return "(" + ", ".join(fmt(float(a), 2) + "°" for a in np.degrees(q)) + ")"


def _pose(answer, n=2):
    """A judged answer as ``n`` angles, or the words why it is none."""
    try:
        values = np.asarray(answer, dtype=float).ravel()
    except (TypeError, ValueError):
        return None, "is not a list of numbers: expected joint angles [rad]"
    if values.shape != (n,):
        return None, f"has {values.size} numbers, expected {n} joint angles [rad]"
    if not np.all(np.isfinite(values)):
        return None, f"is {fmt(listed(values))}: expected finite angles [rad]"
    return values, None


_IK_MISTAKES = [
    (lambda arm, p, e: _ik(arm, p, e, gamma=lambda y, x: np.arctan(y / x)),
     "for a tip in the left half-plane use np.arctan2(y, x): np.arctan(y / x) cannot tell "
     "(x, y) from (-x, -y)"),
    (lambda arm, p, e: _ik(arm, p, -e),
     "elbow = +1 (down) is q2 >= 0, link 2 turned counter-clockwise from link 1, and "
     "elbow = -1 (up) is q2 <= 0"),
    (lambda arm, p, e: _ik(arm, p, e, plus=True),
     "link 1 points short of the tip's direction: q1 = atan2(y, x) - atan2(L2 sin q2, "
     "L1 + L2 cos q2)"),
    (lambda arm, p, e: list(np.degrees(_ik(arm, p, e))),
     "q is in radians: np.arccos and np.arctan2 return radians, so do not convert to degrees"),
    (lambda arm, p, e: _ik(arm, p, e, denominator=1.0),
     "the law of cosines divides by 2 L1 L2: cos q2 = (r^2 - L1^2 - L2^2) / (2 L1 L2)"),
]
IK_ADVICE = ("the elbow from the tip's distance r: cos q2 = (r^2 - L1^2 - L2^2) / (2 L1 L2), "
             "clipped into [-1, 1], and q2 = elbow arccos(cos q2); the shoulder from its "
             "direction: q1 = atan2(y, x) - atan2(L2 sin q2, L1 + L2 cos q2)")


def _ik_judge(arm, p, elbow, answer, mistakes=_IK_MISTAKES, advice=IK_ADVICE):
    """(1 or 0, words): the tip of ``answer`` on the target (or the nearest point of the
    workspace) to within MISS, the elbow bent as asked."""
    q, why = _pose(answer)
    if q is None:
        return 0.0, why
    target = _nearest(arm, p)
    reachable = bool(np.allclose(target, p, rtol=0, atol=1e-12))
    tip = al.tip_position(planar_arm(arm), q)
    miss = float(np.hypot(*(tip - target)))
    bent = float(np.sign(elbow) * np.sin(q[1])) >= -1e-9
    place = "the target" if reachable else f"the nearest point it reaches, {fmt(listed(target))} m"
    if miss <= MISS and bent:
        return 1.0, f"q = {_shown(q)} puts the tip on {place}"
    if miss > MISS:
        words = (f"q = {_shown(q)} puts the tip at {fmt(listed(tip))} m, {fmt(miss)} m from "
                 f"{'the target' if reachable else 'the nearest point the tip reaches'}")
    else:
        words = (f"q = {_shown(q)} puts the tip on {place}, with the elbow bent the other way "
                 f"(q2 = {fmt(float(np.degrees(q[1])), 2)}°)")
    for wrong, hint in mistakes:
        alt = wrong(arm, p, elbow)
        if _same_pose(q, alt):
            return 0.0, f"{words}: {hint}"
    return 0.0, f"{words}. {sentence(advice)}"


BEYOND = [1.0, 0.0]
"""The chapter's target out of reach, (1, 0) m."""


@design(worked=[Case(arm=ARM, p=WALL_TIP, elbow=1.0, label="Example 6's target, elbow down"),
                Case(arm=ARM, p=WALL_TIP, elbow=-1.0, label="Example 6's target, elbow up"),
                Case(arm=ARM, p=listed(-np.asarray(WALL_TIP)), elbow=1.0,
                     label="the target turned half a turn, elbow down"),
                Case(arm=ARM, p=listed(-np.asarray(WALL_TIP)), elbow=-1.0,
                     label="the target turned half a turn, elbow up"),
                Case(arm=ARM, p=BEYOND, elbow=1.0, label="the target (1, 0) m, out of reach")],
        units={"p": "m"})
def inverse_kinematics(arm, p, elbow, answer=None):
    """Judge joint angles for the tip at ``p`` (the pose nearest to it out of reach), elbow
    +1 (down, q2 >= 0) or -1 (up, q2 <= 0). Without ``answer``: the reference's pose (what
    an earlier part's stand-in and a typed-in constant give)."""
    if answer is None:
        return listed(al.inverse_kinematics(planar_arm(arm), _nearest(arm, p), elbow=_elbow(elbow)))
    return _ik_judge(arm, p, elbow, answer)


def _target(rng, arm, q1_range=(-180, 179)):
    """A reachable target [m]: the tip of a pose of whole degrees."""
    return listed(al.tip_position(planar_arm(arm), deg(rng.integer(*q1_range),
                                                 rng.choice([-1, 1]) * rng.integer(15, 165))))


@inverse_kinematics.fresh
def _ik_cases(rng):
    longer = _named(Arm([rng.uniform(0.5, 0.8, 0.05), rng.uniform(0.2, 0.45, 0.05)],
                        [1.0, 1.0]))
    shorter = _named(Arm([rng.uniform(0.2, 0.45, 0.05), rng.uniform(0.5, 0.8, 0.05)],
                         [1.0, 1.0]))
    equal = _lengths([rng.uniform(0.3, 0.6, 0.05)] * 2)
    cases = []
    for arm, label in [(ARM, None), (longer, None), (shorter, "link 2 the longer"),
                       (equal, "two equal links")]:
        for elbow in (1.0, -1.0):
            cases.append(Case(arm=arm, p=_target(rng, arm), elbow=elbow, label=label))
    third = _target(rng, longer, (-170, -100))
    third = listed(-np.abs(third))                     # a target in the third quadrant
    cases.append(Case(arm=longer, p=third, elbow=rng.choice([1.0, -1.0]),
                      label="a target in the third quadrant"))
    return cases


def _on_circle(arm, folded, start):
    """A target exactly on the outer (or inner) circle where the law of cosines rounds
    cos q2 past +1 (or -1): the tip of the stretched (folded) arm, or the circle's point,
    at a whole number of degrees from ``start`` on; None if no such degree."""
    L1, L2 = arm.lengths
    angles = np.radians((start + np.arange(360)) % 360)
    way = np.stack([np.cos(angles), np.sin(angles)], axis=-1)
    q = np.stack([angles, np.full(360, np.pi if folded else 0.0)], axis=-1)
    tips = al.tip_position(planar_arm(arm), q)
    for p in np.concatenate([tips, abs(L1 - L2) * way if folded else (L1 + L2) * way]):
        c2 = (p[0] ** 2 + p[1] ** 2 - L1 ** 2 - L2 ** 2) / (2 * L1 * L2)
        if (c2 < -1.0) if folded else (c2 > 1.0):
            return listed(p)
    return None


@inverse_kinematics.fresh("edges")
def _ik_edges(rng):
    for _ in range(20):                     # an arm with both circles' targets (most arms)
        arm = _named(Arm([rng.uniform(0.5, 0.8, 0.05), rng.uniform(0.2, 0.45, 0.05)],
                         [1.0, 1.0]))
        start = rng.integer(0, 359)
        outer, inner = _on_circle(arm, False, start), _on_circle(arm, True, start)
        if outer is not None and inner is not None:
            break
    L1, L2 = arm.lengths
    angle = np.radians(rng.integer(-180, 179))
    way = np.array([np.cos(angle), np.sin(angle)])
    return [
        Case(arm=arm, p=listed((L1 + L2) * (1 - 1e-6) * way), elbow=rng.choice([1.0, -1.0]),
             label="a target a millionth of the reach inside the outer circle"),
        Case(arm=arm, p=outer or listed((L1 + L2) * way), elbow=rng.choice([1.0, -1.0]),
             label="a target exactly on the outer circle"),
        Case(arm=arm, p=inner or listed((L1 - L2) * way), elbow=rng.choice([1.0, -1.0]),
             label="a target exactly on the inner circle"),
        Case(arm=arm, p=listed((L1 + L2 + rng.uniform(0.05, 0.3, 0.05)) * way[::-1]),
             elbow=rng.choice([1.0, -1.0]), label="a target beyond the reach"),
        Case(arm=arm, p=listed((L1 - L2) / 2 * way), elbow=rng.choice([1.0, -1.0]),
             label="a target inside the inner circle"),
    ]


# ---------------------------------------------------------------- design: within the limits
SLACK = 1e-9
"""How far [rad] a joint may pass its limit by rounding."""
NEAR = 10.0
"""Degrees past a limit at which a design earns nothing (a linear share up to there)."""


def _limit_words(q, lower, upper):
    """The worst limit a pose passes: (degrees past it, words), or (0, None)."""
    worst, words = 0.0, None
    for j, (a, lo, hi) in enumerate(zip(q, lower, upper)):
        for past, side, bound in ((lo - a, "lower", lo), (a - hi, "upper", hi)):
            if past > SLACK and np.degrees(past) > worst:
                worst = float(np.degrees(past))
                words = (f"q{j + 1} = {fmt(float(np.degrees(a)), 2)}° is {fmt(worst, 2)}° past "
                         f"its {side} limit of {fmt(float(np.degrees(bound)), 2)}°")
    return worst, words


def _within(arm, p, lower, upper):
    """The first pose that reaches ``p`` within the limits: either elbow, each angle moved
    by whole turns into its range (None if there is none)."""
    for elbow in ("down", "up"):
        q = al.inverse_kinematics(planar_arm(arm), p, elbow=elbow)
        for shift1 in range(-2, 3):
            for shift2 in range(-2, 3):
                moved = q + 2 * np.pi * np.array([shift1, shift2])
                if np.all(moved >= np.asarray(lower) - SLACK) and \
                        np.all(moved <= np.asarray(upper) + SLACK):
                    return listed(moved)
    return None


@design(worked=[Case(arm=ARM, p=WALL_TIP, lower=deg(45, -120), upper=deg(135, 120),
                     label="Example 6's target with the shoulder between 45° and 135°"),
                Case(arm=ARM, p=listed(-np.asarray(WALL_TIP)), lower=deg(0, 0),
                     upper=deg(360, 180),
                     label="the target turned half a turn, with angles from 0°")],
        uses={"inverse_kinematics": inverse_kinematics},
        units={"p": "m", "lower": "deg", "upper": "deg"})
def pose_within_limits(arm, p, lower, upper, answer=None):
    """Judge a pose for the tip at ``p`` with ``lower <= q <= upper`` (each joint): the tip on
    the target (else nothing), then the limits, with a share of the points for a joint less
    than NEAR degrees past one. Without ``answer``: a pose that does it."""
    if answer is None:
        return _within(arm, p, lower, upper)
    q, why = _pose(answer)
    if q is None:
        return 0.0, why
    tip = al.tip_position(planar_arm(arm), q)
    miss = float(np.hypot(*(tip - np.asarray(p))))
    if miss > 1e-6:
        return 0.0, (f"q = {_shown(q)} puts the tip {fmt(1e3 * miss)} mm from the target "
                     f"(the spec is within 0.001 mm)")
    past, words = _limit_words(q, lower, upper)
    if words is None:
        return 1.0, f"q = {_shown(q)} reaches the target with both joints within their limits"
    share = max(0.0, 1.0 - past / NEAR)
    return share, (f"q = {_shown(q)} reaches the target, but {words} (nothing at "
                   f"{NEAR:g}° past)")


def _limited_case(rng, arm, label, q2_sign=None, q1_range=(-180, 179), q1_limits=None,
                  q2_limits=None, q2_turn=0):
    """A target (the tip of a pose of whole degrees) with limits around that pose (its elbow
    angle ``q2_turn`` degrees on)."""
    q1 = rng.integer(*q1_range)
    sign = q2_sign if q2_sign is not None else rng.choice([-1, 1])
    q2 = sign * rng.integer(20, 160) + q2_turn
    lo1, hi1 = q1_limits or (q1 - rng.integer(10, 60), q1 + rng.integer(10, 60))
    lo2, hi2 = q2_limits or ((5, 175) if sign > 0 else (-175, -5))
    return Case(arm=arm, p=listed(al.tip_position(planar_arm(arm), deg(q1, q2))),
                lower=deg(lo1, lo2), upper=deg(hi1, hi2), label=label)


@pose_within_limits.fresh
def _limits_cases(rng):
    other = _named(rng.arm())
    longer2 = _named(Arm([rng.uniform(0.2, 0.45, 0.05), rng.uniform(0.5, 0.8, 0.05)],
                         [1.0, 1.0]))
    wide = (-180, 180)
    return [
        _limited_case(rng, ARM, "only the elbow down within the limits", q2_sign=1),
        _limited_case(rng, other, "only the elbow up within the limits", q2_sign=-1),
        _limited_case(rng, ARM, "a shoulder range across 180°", q1_range=(200, 330),
                      q1_limits=(90, 340)),
        _limited_case(rng, longer2, "an elbow range beyond 180°", q2_sign=-1,
                      q1_limits=wide, q2_limits=(185, 355), q2_turn=360),
        _limited_case(rng, other, "both elbows within the limits", q1_limits=wide,
                      q2_limits=wide),
    ]


# ---------------------------------------------------------------- Part 9: a derivation
S_PARAMS = ("q1", "d", "L1", "alpha")


def _slider_jacobian(q1, d, L1, alpha, *, carried=True, relative=True, sign=1,
                     transpose=False):
    """J (2, 2) of the tip (x, y) in (q1, d) for link 1 of length L1 turning by q1 and a
    slider of extension d at the fixed angle alpha from link 1; the switches make a likely
    mistake."""
    import sympy

    phi = q1 + alpha if relative else alpha
    carried = carried and relative          # a fixed direction alpha does not turn with q1
    J = sympy.Matrix([[-sign * L1 * sympy.sin(q1) - (sign * d * sympy.sin(phi) if carried
                                                      else 0), sympy.cos(phi)],
                      [sign * L1 * sympy.cos(q1) + (sign * d * sympy.cos(phi) if carried
                                                    else 0), sympy.sin(phi)]])
    return J.T if transpose else J


@derivation(worked=all_symbols(S_PARAMS),
            advice="write the tip's (x, y) in q1 and d first, then differentiate: column j "
                   "of J is the derivative by the j-th joint variable")
def slider_jacobian(q1, d, L1, alpha):
    """J (2, 2) of the revolute-prismatic arm's tip, as SymPy."""
    return _slider_jacobian(q1, d, L1, alpha)


@slider_jacobian.fresh
def _(rng):
    import sympy

    drawn, _ = exact_draws(rng, S_PARAMS)
    return [drawn("another arm", L1=sympy.Rational(rng.integer(2, 9), 10),
                  alpha=sympy.pi * sympy.Rational(rng.integer(1, 5), 6)),
            drawn("a slider along link 1", alpha=sympy.Integer(0)),
            drawn("a slider at right angles", alpha=sympy.pi / 2),
            drawn("all symbols")]


slider_jacobian.mistakes_of(_slider_jacobian, [
    ("the slider turns with link 1: its extension d moves the tip as q1 turns too, "
     "-d sin(q1 + alpha) and d cos(q1 + alpha) in column 1", {"carried": False}),
    ("alpha is measured from link 1: the slider's direction is q1 + alpha", {"relative": False}),
    ("the derivatives' sign: d/dq1 cos(q1) = -sin(q1)", {"sign": -1}),
    ("column j of J is the derivative by the j-th joint variable, (q1, d) (is it "
     "transposed?)", {"transpose": True}),
])
