"""Grading references for the kinematics chapter's exercises (``solutions/kinematics``).

They run in the trusted grader (and, for a visible check, in a student's kernel), so the
expected values are computed with armlab (``al.tip_position``, ``al.jacobian``,
``al.inverse_kinematics``). One part, the Jacobian, asks for the body of an armlab function
(the chapter's core formula); the others compose armlab's functions with a decision (a
mounted arm's tip, the path's pose nearest a singularity, the shortest link for a ring, the
nearest of the poses that reach a target) or are a design and a derivation. A likely mistake
is a line of numpy. The joint-limit design is judged by what the pose does (its tip, its
limits), with angles taken modulo 2 pi, so every pose that does the job is right.
"""


import numpy as np

from armlab.grading.purepy import fmt
from armlab.grading.references import (Arm, Case, al, all_symbols, deg, derivation, design,
                                       drawn_arms, exact_draws, listed, planar_arm, reference)

ARM = Arm.from_arm(al.statics_arm(), "the chapter's arm")
"""The chapter's arm: L = (0.5, 0.4) m."""

def relative(q):
    """The relative angles of a pose whose angles were taken as absolute ones (a mistake)."""
    return np.diff(np.asarray(q, dtype=float), prepend=0.0)


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


def _three_links(rng, count=3):
    """Poses of arms with three links: the parts that ask for any number of links check
    them in a hidden cell of their own, so an answer written for two links only keeps
    the points of the two-link cases."""
    return [Case(arm=arm, q=rng.pose(3), label="an arm with three links")
            for arm in _others(rng, count, 3)]


# ---------------------------------------------------------------- Part 1: a mounted arm
def _turn(theta, p):
    """The point p (2,) turned by theta [rad] about the origin."""
    c, s = np.cos(theta), np.sin(theta)
    return np.array([c * p[0] - s * p[1], s * p[0] + c * p[1]])


def _mounted(arm, q, base, theta, *, turn=1.0, order="turn first", shift=True):
    """The tip in the world of an arm whose base is at ``base`` [m], turned by ``theta``;
    the switches make a likely mistake."""
    tip = al.tip_position(planar_arm(arm), q)
    offset = np.asarray(base, dtype=float) if shift else np.zeros(2)
    if order == "shift first":
        return listed(_turn(turn * theta, tip + offset))
    return listed(offset + _turn(turn * theta, tip))


@reference(worked=[Case(arm=ARM, q=deg(30, 60), base=[0.2, 0.1], theta=np.radians(90.0),
                        label="the wall pose of Example 1 on a base at (0.2, 0.1) m turned "
                              "by 90°"),
                   Case(arm=ARM, q=deg(30, 60), base=[-0.3, 0.5], theta=np.radians(-45.0),
                        label="the wall pose on a base at (-0.3, 0.5) m turned by -45°")],
           allow=("tip_position",), units={"base": "m", "theta": "deg"},
           advice="where is the tip in the arm's own frame, and how does that frame sit in "
                  "the world?")
def mounted_tip(arm, q, base, theta):
    """The tip (2,) [m] in the world of an arm whose base is at ``base``, turned by theta."""
    return _mounted(arm, q, base, theta)


@mounted_tip.fresh
def _mounted_cases(rng):
    cases = [Case(arm=arm, q=rng.pose(2), base=rng.vector(2, -1.0, 1.0, 0.05, nonzero=True),
                  theta=np.radians(rng.sign() * rng.integer(20, 160)))
             for arm in [ARM] + _others(rng, 2) for _ in range(2)]
    cases.append(Case(arm=_others(rng, 1, 3)[0], q=rng.pose(3),
                      base=rng.vector(2, -1.0, 1.0, 0.05, nonzero=True),
                      theta=np.radians(rng.sign() * rng.integer(20, 160)),
                      label="an arm with three links"))
    cases.append(Case(arm=_named(rng.arm()), q=rng.pose(2),
                      base=rng.vector(2, -1.0, 1.0, 0.05, nonzero=True), theta=np.pi,
                      label="a base turned upside down (hanging from a ceiling)"))
    return cases


mounted_tip.mistake("the base turned the wrong way: a positive theta turns the arm "
                    "counter-clockwise, like a positive joint angle",
                    lambda arm, q, base, theta: _mounted(arm, q, base, theta, turn=-1.0))
mounted_tip.mistake("the base's offset was turned with the arm: the base sits at `base` in "
                    "the world, whatever way the arm is turned",
                    lambda arm, q, base, theta: _mounted(arm, q, base, theta,
                                                         order="shift first"))
mounted_tip.mistake("the base's offset is missing: the tip is measured from the world's "
                    "origin, not from the base",
                    lambda arm, q, base, theta: _mounted(arm, q, base, theta, shift=False))
mounted_tip.mistake("theta added to every joint angle: the base's turn changes link 1's "
                    "absolute angle, and the later joints are measured from the link before",
                    lambda arm, q, base, theta: listed(
                        np.asarray(base) + al.tip_position(planar_arm(arm),
                                                           np.asarray(q) + theta)))


# ---------------------------------------------------------------- the Jacobian
SLIP_LEVER = "each column's lever taken to the next joint, not to the tip"
"""The slip of Parts 2, 3 and 9 (``slip=``): column j turns the lever from joint j to the next
joint (its own link), written again by hand in Part 3's J and in Part 9's column 1 (the
slider's d terms left out). A trial class's student made it in all three."""


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
                  "turning joint j swings everything beyond it", slip=SLIP_LEVER)
def _jacobian_next_joint(arm, q):
    return listed(_turned_levers(arm, q, next_joint=True))


@jacobian.mistake("link 2's direction is q1 + q2: q2 is measured from link 1")
def _jacobian_absolute(arm, q):
    return listed(al.jacobian(planar_arm(arm), relative(q)))


# ---------------------------------------------------------------- the way back
@reference(worked=Case(arm=ARM, q=deg(30, 60), v=[0.0, 0.1],
                       label="the wall pose's lift, 0.1 m/s straight up"),
           uses={"jacobian": jacobian}, units={"v": "m/s"},
           advice="the tip's velocity is J(q) qd: which qd makes it v? Is the J you used "
                  "the book's at this pose (Part 2's try-it cell prints it)?")
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


@joint_speeds.mistake("these joint speeds give v with a J whose column j turns the lever from "
                      "joint j to the next joint: the lever runs to the tip, and turning joint "
                      "j swings everything beyond it", slip=SLIP_LEVER)
def _speeds_next_joint(arm, q, v):
    return listed(np.linalg.solve(_turned_levers(arm, q, next_joint=True), v))


# ---------------------------------------------------------------- Part 4: a claim, checked
def _least_free(arm, poses, measure="w", pick=np.argmin):
    """The index of the pose whose ``measure`` is picked by ``pick``: ``"w"`` = |det J|,
    ``"signed"`` det J, ``"claim"`` the product of J's column lengths."""
    values = []
    for q in poses:
        J = al.jacobian(planar_arm(arm), q)
        values.append({"w": abs(np.linalg.det(J)), "signed": np.linalg.det(J),
                       "claim": np.prod(np.linalg.norm(J, axis=0))}[measure])
    return int(pick(values))


PATH_POSES = [deg(0, 90), UP, deg(30, 150), deg(10, -20)]
"""A path's poses on the chapter's arm: Example 4's, Example 6's elbow-up one, one nearly
folded and one nearly stretched (w = 0.2, 0.1732, 0.1, 0.0684 m²/rad²)."""


@reference(worked=[Case(arm=ARM, poses=PATH_POSES, label="four poses of a path on the "
                                                           "chapter's arm"),
                   Case(arm=ARM, poses=PATH_POSES[::-1][:3] + [deg(-40, 75)],
                        label="three of them, reversed, and one more")],
           uses={"jacobian": jacobian}, units={"poses": "deg"},
           advice="which number says how freely the tip moves, and is it the one you "
                  "compared?")
def least_free_pose(arm, poses):
    """The index (int) of the pose where the tip moves least freely: the smallest
    w = sigma_1 sigma_2 = |det J|."""
    return _least_free(arm, poses)


def _distinct_poses(rng, arm, count, extra=()):
    """``count`` poses of whole degrees whose |sin q2| differ by at least 0.02 (no ties),
    with ``extra`` poses first."""
    poses, seen = [list(q) for q in extra], [abs(np.sin(q[1])) for q in extra]
    while len(poses) < count:
        q = deg(rng.integer(-170, 170), rng.sign() * rng.integer(5, 175))
        if all(abs(abs(np.sin(q[1])) - s) >= 0.02 for s in seen):
            poses.append(q)
            seen.append(abs(np.sin(q[1])))
    order = [rng.random() for _ in poses]
    return [poses[i] for i in np.argsort(order)]


@least_free_pose.fresh
def _least_free_cases(rng):
    cases = []
    for arm in [ARM] + _others(rng, 3):
        cases.append(Case(arm=arm, poses=_distinct_poses(rng, arm, rng.integer(4, 7))))
    arm = _named(rng.arm())
    cases.append(Case(arm=arm, poses=_distinct_poses(
        rng, arm, 5, [deg(rng.integer(-90, 90), rng.sign() * rng.integer(150, 170))]),
        label="a path through a nearly folded pose"))
    arm = _named(rng.arm())
    cases.append(Case(arm=arm, poses=_distinct_poses(
        rng, arm, 5, [deg(rng.integer(-90, 90), 0)]), label="a path through the stretched pose"))
    return cases


least_free_pose.mistake("that is the claim's pick, the smallest product of J's column "
                        "lengths: it is not w wherever the columns are not at right angles",
                        lambda arm, poses: _least_free(arm, poses, "claim"))
least_free_pose.mistake("that is the smallest det J: det J is negative when the elbow bends "
                        "the other way, and the tip then moves no less freely",
                        lambda arm, poses: _least_free(arm, poses, "signed"))
least_free_pose.mistake("that is the pose where the tip moves most freely",
                        lambda arm, poses: _least_free(arm, poses, pick=np.argmax))
least_free_pose.mistake("indices count from 0, as Python's do",
                        lambda arm, poses: _least_free(arm, poses) + 1)


# ---------------------------------------------------------------- Part 5: an arm for a ring
def _link2(L1, r_in, r_out, *, inner=True, outer=True, check=True):
    """The shortest link 2 for a link 1 of length L1 to reach the whole ring
    r_in <= |p| <= r_out (inf if none); the switches make a likely mistake."""
    if check and r_out - L1 > L1 + r_in + 1e-12:
        return np.inf
    need = [0.0]
    if outer:
        need.append(r_out - L1)
    if inner:
        need.append(L1 - r_in)
    return float(max(need))


@reference(worked=[Case(L1=0.5, r_in=0.1, r_out=0.9,
                        label="link 1 of the chapter's arm and its own workspace's ring"),
                   Case(L1=0.5, r_in=0.05, r_out=0.8,
                        label="link 1 of the chapter's arm and a ring reaching closer in"),
                   Case(L1=0.5, r_in=0.3, r_out=1.0,
                        label="link 1 of the chapter's arm and a ring reaching farther out"),
                   Case(L1=0.5, r_in=0.2, r_out=1.5,
                        label="link 1 of the chapter's arm and a ring too wide for it")],
           allow=("reach",), units={"L1": "m", "r_in": "m", "r_out": "m"},
           advice="which points of the ring does a given link 2 miss, and for which lengths "
                  "does it miss none?")
def shortest_link2(L1, r_in, r_out):
    """The shortest L2 [m] with which a link 1 of length L1 reaches every point of the
    ring r_in <= |p| <= r_out; np.inf when no length does."""
    return _link2(L1, r_in, r_out)


@shortest_link2.fresh
def _link2_cases(rng):
    cases = []
    for _ in range(2):                                  # the outer circle decides
        L1 = rng.uniform(0.5, 0.8, 0.05)
        r_out = round(L1 + rng.uniform(0.3, 0.6, 0.05), 10)
        r_in = round(max(0.0, L1 - rng.uniform(0.05, 0.25, 0.05)), 10)
        cases.append(Case(L1=L1, r_in=r_in, r_out=r_out,
label="a wide ring"))
    for _ in range(2):                                  # the inner circle decides
        L1 = rng.uniform(0.5, 0.8, 0.05)
        r_in = rng.uniform(0.0, 0.15, 0.05)
        r_out = round(L1 + rng.uniform(0.05, L1 - r_in - 0.05, 0.05), 10)
        cases.append(Case(L1=L1, r_in=r_in, r_out=r_out,
                          label="a ring reaching close to the base"))
    L1 = rng.uniform(0.2, 0.4, 0.05)
    r_in = rng.uniform(0.0, 0.1, 0.05)
    cases.append(Case(L1=L1, r_in=r_in,
                      r_out=round(2 * L1 + r_in + rng.uniform(0.1, 0.4, 0.05), 10),
                      label="a ring too wide for link 1"))
    return cases


shortest_link2.mistake("that link 2 reaches the ring's outer circle but not all of its inner "
                       "part: with it the arm cannot come as close to the base as r_in",
                       lambda L1, r_in, r_out: _link2(L1, r_in, r_out, inner=False))
shortest_link2.mistake("that link 2 reaches the ring's inner circle but not its outer one",
                       lambda L1, r_in, r_out: _link2(L1, r_in, r_out, outer=False))
shortest_link2.mistake("no length of link 2 reaches this whole ring: return np.inf there",
                       lambda L1, r_in, r_out: _link2(L1, r_in, r_out, check=False))


# ---------------------------------------------------------------- Part 6: the nearest pose
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


def _wrapped(angles):
    """Angles into [-pi, pi)."""
    return (np.asarray(angles, dtype=float) + np.pi) % (2 * np.pi) - np.pi


def _nearest_pose(arm, p, q_now, *, wrap=True, pick=np.argmin):
    """Of the poses that put the tip at ``p`` (either elbow, any whole turns), the one whose
    largest joint move from ``q_now`` is smallest; the switches make a likely mistake."""
    q_now = np.asarray(q_now, dtype=float)
    poses = []
    for elbow in ("down", "up"):
        q = al.inverse_kinematics(planar_arm(arm), p, elbow=elbow)
        poses.append(q_now + _wrapped(q - q_now) if wrap else q)
    moves = [np.max(np.abs(q - q_now)) for q in poses]
    return listed(poses[int(pick(moves))])


@reference(worked=[Case(arm=ARM, p=WALL_TIP, q_now=deg(30, -10),
                        label="Example 6's target from q = (30°, -10°)"),
                   Case(arm=ARM, p=listed(-np.asarray(WALL_TIP)), q_now=deg(170, 10),
                        label="that target turned half a turn, from q = (170°, 10°)")],
           allow=("inverse_kinematics",), units={"p": "m", "q_now": "deg", "return": "deg"},
           advice="list every pose that puts the tip at p, and for each the largest angle "
                  "a joint turns through to get there from q_now")
def nearest_pose(arm, p, q_now):
    """The pose (2,) [rad] that puts the tip at p with the smallest largest joint move from
    q_now: either elbow, each angle within half a turn of q_now's."""
    return _nearest_pose(arm, p, q_now)


def _target(rng, arm):
    """A reachable target [m]: the tip of a pose of whole degrees."""
    return listed(al.tip_position(planar_arm(arm), deg(rng.integer(-180, 179),
                                                       rng.sign() * rng.integer(15, 165))))


def _clear_choice(arm, p, q_now):
    """Whether the two elbows' largest moves differ by 2 degrees or more, and no move is
    within a degree of half a turn (no near ties)."""
    q_now = np.asarray(q_now, dtype=float)
    moves = []
    for elbow in ("down", "up"):
        d = np.abs(_wrapped(al.inverse_kinematics(planar_arm(arm), p, elbow=elbow) - q_now))
        if np.any(d > np.pi - np.radians(1.0)):
            return False
        moves.append(d.max())
    return abs(moves[0] - moves[1]) >= np.radians(2.0)


def _nearest_case(rng, arm, label=None, q1_range=(-180, 179)):
    for _ in range(50):
        p = _target(rng, arm)
        q_now = deg(rng.integer(*q1_range), rng.integer(-170, 170))
        if _clear_choice(arm, p, q_now):
            return Case(arm=arm, p=p, q_now=q_now, label=label)
    raise ValueError("no case with a clear choice drawn")


@nearest_pose.fresh
def _nearest_cases(rng):
    cases = [_nearest_case(rng, arm) for arm in [ARM, ARM] + _others(rng, 2)]
    cases.append(_nearest_case(rng, ARM, "a start beyond half a turn", q1_range=(190, 340)))
    cases.append(_nearest_case(rng, _named(rng.arm()), "a start below minus half a turn",
                               q1_range=(-340, -190)))
    return cases


nearest_pose.mistake("a joint turns the long way round: an angle and that angle plus or "
                     "minus a whole turn put the tip at the same place",
                     lambda arm, p, q_now: _nearest_pose(arm, p, q_now, wrap=False))
nearest_pose.mistake("that is the other elbow's pose: its largest joint move from q_now is "
                     "the larger of the two",
                     lambda arm, p, q_now: _nearest_pose(arm, p, q_now, pick=np.argmax))


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
        allow=("inverse_kinematics", "tip_position"),
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
        _limited_case(rng, other, "a shoulder range below -180°", q1_range=(-330, -200),
                      q1_limits=(-350, -185)),
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
            drawn("a slider along link 1", alpha=0),
            drawn("a slider at right angles", alpha=sympy.pi / 2),
            drawn("all symbols")]


slider_jacobian.mistakes_of(_slider_jacobian, [
    ("column 1 leaves out the slider: turning q1 swings the slider with link 1, so q1's "
     "lever runs from the base to the tip, not to the end of link 1", {"carried": False},
     SLIP_LEVER),
    ("alpha is measured from link 1: the slider's direction is q1 + alpha", {"relative": False}),
    ("the derivatives' sign: d/dq1 cos(q1) = -sin(q1)", {"sign": -1}),
    ("column j of J is the derivative by the j-th joint variable, (q1, d) (is it "
     "transposed?)", {"transpose": True}),
])
