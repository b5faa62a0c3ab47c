"""Grading references for the kinematics chapter's exercises (``solutions/kinematics``).

Pure Python, independent of armlab's code (the tests compare both routes):
forward kinematics link by link, the Jacobian column by column as
``z x (p_tip - p_j)``, ``det J`` written out, the workspace's radii from the
link lengths. The arm's data come from the chapter's preset, ``armlab.statics_arm()``.
"""

from armlab import statics_arm
from armlab.grading.purepy import (cos, deg, det2, matvec, neg, perp, pi, sin, solve, sub,
                                   transpose)
from armlab.grading.references import ArmData, Case, reference

ARM = ArmData.from_arm(statics_arm(), "the chapter's arm")
"""The chapter's arm: L = (0.5, 0.4) m."""


WALL = Case(arm=ARM, q=deg(30, 60), label="the wall pose of Example 1")


def _named(arm):
    """The arm named by its lengths alone: kinematics needs nothing else."""
    words = ", ".join(f"{x:g}" for x in arm.lengths)
    return arm.relabel(f"an arm with L = ({words}) m")


def _others(rng, count, n=2):
    """``count`` fresh arms of ``n`` links (other lengths)."""
    return [_named(rng.arm(n)) for _ in range(count)]


def _three_links(rng, count=3):
    """Poses of arms with three links: the parts that ask for any number of links check
    them in a hidden cell of their own, so an answer written for two links only keeps
    the points of the two-link cases."""
    return [Case(arm=arm, q=rng.pose(3), label="an arm with three links")
            for arm in _others(rng, count, 3)]


# ---------------------------------------------------------------- forward kinematics
def points(arm, q, absolute=False, swap=False):
    """Base, joints and tip [m]; ``absolute``: every q[i] from +x; ``swap``: sin for cos."""
    x, y, phi = 0.0, 0.0, 0.0
    out = [[0.0, 0.0]]
    for i, length in enumerate(arm.lengths):
        phi = q[i] if absolute else phi + q[i]
        c, s = (sin(phi), cos(phi)) if swap else (cos(phi), sin(phi))
        x, y = x + length * c, y + length * s
        out.append([x, y])
    return out


@reference(worked=WALL, advice="add the links one by one, each along its absolute angle "
                               "q1 + ... + qi")
def tip_position(arm, q):
    """Tip position (2,) [m]: the links added along their absolute angles."""
    return points(arm, q)[-1]


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
    return points(arm, q, absolute=True)[-1]


@tip_position.mistake("q is in radians: np.sin and np.cos take radians, so do not convert q "
                      "to degrees")
def _tip_degrees(arm, q):
    return points(arm, [a * 180.0 / pi for a in q])[-1]


@tip_position.mistake("x goes with the cosine and y with the sine of each link's angle "
                      "(q1 is measured from +x)")
def _tip_swapped(arm, q):
    return points(arm, q, swap=True)[-1]


# ---------------------------------------------------------------- the Jacobian
def _jacobian(arm, q, absolute=False, next_joint=False):
    p = points(arm, q, absolute)
    levers = [sub(p[j + 1] if next_joint else p[-1], p[j]) for j in range(arm.n)]
    return transpose([perp(r) for r in levers])


@reference(worked=Case(arm=ARM, q=deg(30, 60), label="the wall pose of Example 2"),
           allow=("joint_positions",),
           advice="column j is z x (p_tip - p_j), the lever from joint j to the tip turned "
                  "by +90 degrees")
def jacobian(arm, q):
    """Tip Jacobian (2, n) [m/rad]: column j is z x (p_tip - p_j)."""
    return _jacobian(arm, q)


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
    return transpose(_jacobian(arm, q))


@jacobian.mistake("right size, wrong sign: a positive joint speed turns its link "
                  "counter-clockwise, so column j is z x (p_tip - p_j), with z x (x, y) = (-y, x)")
def _jacobian_negated(arm, q):
    return neg(_jacobian(arm, q))


@jacobian.mistake("the lever of column j runs from joint j to the tip, not to the next joint: "
                  "turning joint j swings everything beyond it")
def _jacobian_next_joint(arm, q):
    return _jacobian(arm, q, next_joint=True)


@jacobian.mistake("link 2's direction is q1 + q2: q2 is measured from link 1")
def _jacobian_absolute(arm, q):
    return _jacobian(arm, q, absolute=True)


# ---------------------------------------------------------------- the way back
@reference(worked=Case(arm=ARM, q=deg(30, 60), v=[0.0, 0.1],
                       label="Example 2's lift, 0.1 m/s straight up at the wall pose"),
           uses={"jacobian": jacobian}, units={"v": "m/s"},
           advice="the joint speeds solve J(q) qd = v: use np.linalg.solve with J")
def joint_speeds(arm, q, v):
    """Joint speeds (2,) [rad/s] that move the tip with velocity v: J qd = v."""
    return solve(_jacobian(arm, q), v)


@joint_speeds.fresh
def _speeds_cases(rng):
    return [Case(arm=arm, q=rng.pose(2), v=rng.vector(2, -0.5, 0.5, 0.05, nonzero=True))
            for arm in [ARM] + _others(rng, 2) for _ in range(2)]


@joint_speeds.mistake("this is J^T v: the joint speeds solve J qd = v, which needs the inverse "
                      "of J, not its transpose")
def _speeds_transposed(arm, q, v):
    return matvec(transpose(_jacobian(arm, q)), v)


@joint_speeds.mistake("this solves J^T qd = v: the tip velocity is J qd, so solve with J itself")
def _speeds_solve_transposed(arm, q, v):
    return solve(transpose(_jacobian(arm, q)), v)


@joint_speeds.mistake("this is J v: J turns joint speeds into tip velocities; the way back "
                      "solves J qd = v")
def _speeds_forward(arm, q, v):
    return matvec(_jacobian(arm, q), v)


# ---------------------------------------------------------------- manipulability
@reference(worked=Case(arm=ARM, q=deg(0, 90), label="Example 4's elbow bent at 90°"),
           uses={"jacobian": jacobian}, atol=1e-9,
           advice="w = sigma_1 sigma_2 = |det J|, the area of the velocity ellipse over pi")
def manipulability(arm, q):
    """Manipulability w = |det J| = sigma_1 sigma_2 [m^2/rad^2] of a two-link arm."""
    return abs(det2(_jacobian(arm, q)))


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


@manipulability.mistake("w is the size of det J: det J is negative when the elbow bends the "
                        "other way, so take its absolute value")
def _manipulability_signed(arm, q):
    return det2(_jacobian(arm, q))


@manipulability.mistake("this is det(J J^T) = w^2: take the square root, or |det J|")
def _manipulability_squared(arm, q):
    return det2(_jacobian(arm, q)) ** 2


@manipulability.mistake("det J = L1 L2 sin q2 depends on the elbow angle q2, not on q1")
def _manipulability_shoulder(arm, q):
    return abs(arm.lengths[0] * arm.lengths[1] * sin(q[0]))


# ---------------------------------------------------------------- the workspace's edges
@reference(worked=Case(arm=ARM, label="the chapter's arm (Example 5)"),
           advice="r_max is the stretched arm; for r_min fold the longest link back against "
                  "all the others, stretched")
def reach(arm):
    """(r_min, r_max) [m]: the annulus the tip reaches, joints turning all the way round."""
    total = sum(arm.lengths)
    return [max(0.0, 2.0 * max(arm.lengths) - total), total]


def _lengths(lengths):
    """An arm with these link lengths [m] (the masses, 1 kg each, do not matter here)."""
    return _named(ArmData(lengths, [1.0] * len(lengths)))


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
