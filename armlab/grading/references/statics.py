"""Grading references for the statics chapter's exercises (``solutions/statics``).

Pure Python, independent of armlab's code (the tests compare both routes):
the closed-form formulas of a planar arm, written out joint by joint. The
arm's data come from the chapter's preset, ``armlab.statics_arm()``.
"""

from armlab import statics_arm
from armlab.grading.purepy import (cos, deg, inf, matvec, neg, norm, pi, sin,
                                   singular_values_2xn, solve, sub, transpose)
from armlab.grading.references import ArmData, Case, chapter, reference

ARM = ArmData.from_arm(statics_arm(), "the chapter's arm")
"""The chapter's arm: L = (0.5, 0.4) m, m = (3.0, 2.0) kg, centres of mass (0.25, 0.20) m."""


WALL = Case(arm=ARM, q=deg(30, 60), label="the wall pose of Example 1")
WALL_PUSH = Case(arm=ARM, q=deg(30, 60), F=[10.0, 0.0], label="the wall push of Example 1")
STRETCHED = deg(0, 0)


def _arms(rng, count):
    """The chapter's arm and ``count`` others (other lengths, masses, centres of mass)."""
    return [ARM] + [rng.arm() for _ in range(count)]


# ---------------------------------------------------------------- kinematics
# The kinematics chapter's: base, joints and tip (``absolute``: every q[i] from +x), and the
# Jacobian column by column as z x (p_tip - p_j).
_kinematics = chapter("kinematics")
al = _kinematics.al


def points(arm, q, absolute=False):
    """Base, joints and tip [m]; ``absolute``: every q[i] from +x."""
    angles = _kinematics.relative(q) if absolute else q
    return _kinematics.listed(al.joint_positions(_kinematics.real(arm), angles))


def _jacobian(arm, q, absolute=False):
    angles = _kinematics.relative(q) if absolute else q
    return _kinematics.listed(al.jacobian(_kinematics.real(arm), angles))


@reference(worked=WALL, allow=("joint_positions", "tip_position"),
           advice="column j is z x (p_tip - p_j): work it out on paper at this pose")
def jacobian(arm, q):
    """Tip Jacobian (2, n): column j is the tip's velocity when joint j turns at 1 rad/s."""
    return _jacobian(arm, q)


@jacobian.fresh
def _jacobian_cases(rng):
    cases = [Case(arm=arm, q=rng.pose(2)) for arm in _arms(rng, 3) for _ in range(2)]
    cases.append(Case(arm=rng.arm(), q=STRETCHED, label="the stretched pose"))
    return cases


@jacobian.mistake("this is J transposed: row i of J is the tip's velocity along x (i = 0) "
                  "or y (i = 1), column j belongs to joint j")
def _jacobian_transposed(arm, q):
    return transpose(_jacobian(arm, q))


@jacobian.mistake("right size, wrong sign: a positive joint speed turns its link "
                  "counter-clockwise, so column j is z x (p_tip - p_j)")
def _jacobian_negated(arm, q):
    return neg(_jacobian(arm, q))


@jacobian.mistake("link 2's direction is q1 + q2: q2 is measured from link 1, not from the x axis")
def _jacobian_absolute(arm, q):
    return _jacobian(arm, q, absolute=True)


@jacobian.mistake("q is in radians: np.sin and np.cos take radians, so do not convert q to degrees")
def _jacobian_degrees(arm, q):
    return _jacobian(arm, [a * 180.0 / pi for a in q])


# ---------------------------------------------------------------- tau = J^T F
def _jt(arm, q, F):
    return matvec(transpose(_jacobian(arm, q)), F)


@reference(worked=WALL_PUSH, uses={"jacobian": jacobian},
           advice="tau = J(q)^T F, with F the force the tip applies")
def joint_torques(arm, q, F):
    """Joint torques (n,) that hold the tip force F (applied by the tip), gravity ignored."""
    return _jt(arm, q, F)


@joint_torques.fresh
def _torques_cases(rng):
    return [Case(arm=arm, q=rng.pose(2), F=rng.vector(2, -20, 20, 1, nonzero=True))
            for arm in _arms(rng, 2) for _ in range(2)]


@joint_torques.mistake("right size, wrong sign: is F the force on the arm or by the arm? "
                       "Here F is the force the tip applies to the environment")
def _torques_negated(arm, q, F):
    return neg(_jt(arm, q, F))


@joint_torques.mistake("this is J F: the torques are J transposed times F")
def _torques_not_transposed(arm, q, F):
    return matvec(_jacobian(arm, q), F)


# ---------------------------------------------------------------- gravity
def _gravity(arm, q, at_link_end=False, own_link_only=False, absolute=False,
             lever_from_own_joint=False):
    """Torques that balance gravity: sum over links of Jc_i^T (-m_i a_grav);
    ``lever_from_own_joint``: each weight's lever measured from its own joint (a mistake)."""
    p = points(arm, q, absolute)
    tau = [0.0] * arm.n
    phi = 0.0
    for i in range(arm.n):
        phi = q[i] if absolute else phi + q[i]
        reach = arm.lengths[i] if at_link_end else arm.com[i]
        com = [p[i][0] + reach * cos(phi), p[i][1] + reach * sin(phi)]
        weight = [-arm.masses[i] * arm.gravity[0], -arm.masses[i] * arm.gravity[1]]
        for j in range(i + 1):
            if own_link_only and j != i:
                continue
            r = sub(com, p[i] if lever_from_own_joint else p[j])
            tau[j] += r[0] * weight[1] - r[1] * weight[0]
    return tau


@reference(worked=WALL, advice="g_j is the sum, over the links beyond joint j, of the moment "
                               "about joint j of each link's weight, taken at its centre of mass")
def gravity_torques(arm, q):
    """Joint torques (n,) that balance gravity: g(q) = dP/dq."""
    return _gravity(arm, q)


@gravity_torques.fresh
def _gravity_cases(rng):
    cases = [Case(arm=arm, q=rng.pose(2)) for arm in _arms(rng, 2) for _ in range(2)]
    wall = rng.arm(gravity=(-9.81, 0.0))
    cases.append(Case(arm=wall, q=rng.pose(2), label="an arm mounted on a wall"))
    cases.append(Case(arm=rng.arm(gravity=0.0), q=rng.pose(2), label="an arm in free fall"))
    return cases


@gravity_torques.mistake("right size, wrong sign: g(q) is the torque that balances gravity "
                         "(gravity itself pulls with -g)")
def _gravity_negated(arm, q):
    return neg(_gravity(arm, q))


@gravity_torques.mistake("each weight acts at its link's centre of mass, com[i] from joint i, "
                         "not at the link's end")
def _gravity_at_link_end(arm, q):
    return _gravity(arm, q, at_link_end=True)


@gravity_torques.mistake("the shoulder carries both links: add link 2's weight to joint 1's "
                         "torque too, with its moment arm about the shoulder")
def _gravity_own_link(arm, q):
    return _gravity(arm, q, own_link_only=True)


@gravity_torques.mistake("link 2's direction is q1 + q2: q2 is measured from link 1")
def _gravity_absolute(arm, q):
    return _gravity(arm, q, absolute=True)


@gravity_torques.mistake("about the shoulder, link 2's weight acts on the lever from the "
                         "shoulder to link 2's centre of mass, through the elbow, not on its "
                         "lever from the elbow alone")
def _gravity_lever_from_elbow(arm, q):
    return _gravity(arm, q, lever_from_own_joint=True)


# ---------------------------------------------------------------- holding the push
@reference(worked=Case(arm=ARM, q=deg(30, 60), F=[10.0, 0.0],
                       label="the wall push with gravity on, Example 2"),
           uses={"joint_torques": joint_torques,
                                   "gravity_torques": gravity_torques},
           advice="the motors hold both the push and the weights: J^T F + g(q)")
def holding_torques(arm, q, F):
    """Motor torques (n,) for the tip force F with gravity on: J^T F + g(q)."""
    return [a + b for a, b in zip(_jt(arm, q, F), _gravity(arm, q))]


@holding_torques.fresh
def _holding_cases(rng):
    return [Case(arm=arm, q=rng.pose(2), F=rng.vector(2, -20, 20, 1, nonzero=True))
            for arm in _arms(rng, 2) for _ in range(2)]


@holding_torques.mistake("this is J^T F alone: the motors must also hold the links' weight, "
                         "add g(q)")
def _holding_contact_only(arm, q, F):
    return _jt(arm, q, F)


@holding_torques.mistake("this is g(q) alone: add the contact torques J^T F")
def _holding_gravity_only(arm, q, F):
    return _gravity(arm, q)


@holding_torques.mistake("gravity's sign: add g(q), the torque that balances gravity")
def _holding_minus_gravity(arm, q, F):
    return [a - b for a, b in zip(_jt(arm, q, F), _gravity(arm, q))]


@holding_torques.mistake("the contact part has the wrong sign: F is the force the tip applies")
def _holding_minus_contact(arm, q, F):
    return [-a + b for a, b in zip(_jt(arm, q, F), _gravity(arm, q))]


# ---------------------------------------------------------------- the largest push
def _push(arm, q, direction, limit, worst=min, unit=True):
    d = [x / norm(direction) for x in direction] if unit else list(direction)
    per_newton = _jt(arm, q, d)
    reach = [limit / abs(t) for t in per_newton if abs(t) > 1e-12]
    return worst(reach) if reach else inf


@reference(worked=Case(arm=ARM, q=deg(0, 30), direction=[1.0, 0.0], limit=20.0,
                       label="Example 3's push along the arm at q2 = 30°"),
           uses={"joint_torques": joint_torques}, rtol=1e-6, atol=1e-6,
           advice="a push s d needs s J^T d: find the largest s with every |tau_j| <= limit")
def max_push(arm, q, direction, limit):
    """Largest force [N] the tip can push along ``direction`` with |tau_j| <= limit."""
    return _push(arm, q, direction, limit)


def _push_case(rng, arm):
    return Case(arm=arm, q=rng.pose(2), direction=rng.vector(2, -5, 5, 1, nonzero=True),
                limit=rng.uniform(5, 40, 1))


@max_push.fresh
def _push_cases(rng):
    return [_push_case(rng, arm) for arm in _arms(rng, 2)]


@max_push.fresh("no torque needed")
def _push_free(rng):
    """The pushes the structure carries (np.inf), in a hidden cell of their own so that an
    answer that misses them keeps the ordinary pushes' points; with an ordinary push, so
    that np.inf alone earns nothing."""
    return [Case(arm=ARM, q=STRETCHED, direction=[1.0, 0.0], limit=20.0,
                 label="the stretched pose, pushing along the arm"),
            Case(arm=rng.arm(), q=STRETCHED, direction=[-rng.uniform(1, 5, 1), 0.0],
                 limit=rng.uniform(5, 40, 1), label="another arm stretched, pulling along it"),
            _push_case(rng, ARM)]


@max_push.mistake("that limit holds at one joint only: the push must respect every joint, "
                  "take the smallest")
def _push_loosest(arm, q, direction, limit):
    return _push(arm, q, direction, limit, worst=max)


@max_push.mistake("direction is not a unit vector here: divide it by its length first")
def _push_not_normalised(arm, q, direction, limit):
    return _push(arm, q, direction, limit, unit=False)


# ---------------------------------------------------------------- force error
def _force_error(arm, q, dtau, corners=((1, 1), (1, -1), (-1, 1), (-1, -1)), transpose_=True):
    J = _jacobian(arm, q)
    A = transpose(J) if transpose_ else J
    worst = 0.0
    for s1, s2 in corners:
        try:
            F = solve(A, [s1 * dtau, s2 * dtau])
        except ZeroDivisionError:
            return inf
        worst = max(worst, norm(F))
    return worst


def _singular(arm, q):
    J = _jacobian(arm, q)
    det = J[0][0] * J[1][1] - J[0][1] * J[1][0]
    return abs(det) <= 1e-12 * sum(arm.lengths) ** 2


@reference(worked=Case(arm=ARM, q=deg(0, 90), dtau=0.5,
                       label="Example 3's elbow bent at 90°"),
           uses={"jacobian": jacobian}, rtol=1e-6, atol=1e-6,
           advice="F = J^{-T} tau: try the four corners (+-dtau, +-dtau) and keep the largest "
                  "|J^{-T} dtau|")
def force_error_bound(arm, q, dtau):
    """Largest |J^{-T} dtau| [N] over the corners of the box |dtau_j| <= dtau; inf if singular."""
    if _singular(arm, q):
        return inf
    return _force_error(arm, q, dtau)


def _error_case(rng, arm):
    return Case(arm=arm, q=rng.pose(2), dtau=rng.uniform(0.1, 2.0, 0.1))


@force_error_bound.fresh
def _error_cases(rng):
    return [_error_case(rng, arm) for arm in _arms(rng, 2)]


@force_error_bound.fresh("singular")
def _error_singular(rng):
    """Singular poses (np.inf) in a hidden cell of their own, with an ordinary pose."""
    return [Case(arm=ARM, q=STRETCHED, dtau=0.5, label="the stretched pose"),
            Case(arm=rng.arm(), q=deg(rng.integer(-170, 170), 0), dtau=rng.uniform(0.1, 2, 0.1),
                 label="another arm, stretched"),
            _error_case(rng, ARM)]


@force_error_bound.mistake("that is dtau / sigma_2, the error along the weakest direction "
                           "only: the box's corners (+-dtau, +-dtau) reach further")
def _error_weakest_only(arm, q, dtau):
    if _singular(arm, q):
        return inf
    return dtau / singular_values_2xn(_jacobian(arm, q))[1]


@force_error_bound.mistake("F = J^{-T} tau: invert J transposed, not J")
def _error_not_transposed(arm, q, dtau):
    if _singular(arm, q):
        return inf
    return _force_error(arm, q, dtau, transpose_=False)


@force_error_bound.mistake("that is one corner only: the largest error is at one of the four "
                           "corners (+-dtau, +-dtau)")
def _error_one_corner(arm, q, dtau):
    if _singular(arm, q):
        return inf
    return _force_error(arm, q, dtau, corners=((1, 1),))


# ---------------------------------------------------------------- the other sign convention
@reference(worked=Case(arm=ARM, q=deg(30, 60), force_on_arm=[-10.0, 0.0],
                       label="the wall push of Example 1, reported as the force on the arm"),
           uses={"joint_torques": joint_torques},
           advice="the tip applies -force_on_arm; the torques are J^T (-force_on_arm)")
def torques_for_reported_force(arm, q, force_on_arm):
    """Joint torques (n,) that hold a contact reported as the force on the arm."""
    return _jt(arm, q, neg(force_on_arm))


@torques_for_reported_force.fresh
def _reported_cases(rng):
    return [Case(arm=arm, q=rng.pose(2), force_on_arm=rng.vector(2, -20, 20, 1, nonzero=True))
            for arm in _arms(rng, 2) for _ in range(2)]


@torques_for_reported_force.mistake(
    "right size, wrong sign: the library reports the force on the arm; the tip pushes with "
    "the opposite force, -force_on_arm")
def _reported_not_negated(arm, q, force_on_arm):
    return _jt(arm, q, force_on_arm)
