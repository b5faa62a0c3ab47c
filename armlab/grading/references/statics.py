"""Grading references for the statics chapter's exercises (``solutions/statics``).

They run in the trusted grader (and, for a visible check, in a student's kernel), so the
expected values are armlab's own where armlab has the quantity (``al.static_torques``,
``al.gravity_torques``, ``al.joint_reactions``; ``max_push`` and ``force_error_along`` with the
parts' stated tolerances); a likely mistake is a line of numpy. The design part, where to press
on a table, is judged by what the pose does: its tip on the table, its holding torques against
the limits. The arm's data come from the chapter's preset, ``armlab.statics_arm()``.
"""


import numpy as np

from armlab.grading.purepy import fmt
from armlab.grading.references import (Arm, Case, al, all_symbols, chapter, deg, derivation,
                                       design, drawn_arms, exact_draws, listed, planar_arm,
                                       reference)

_kinematics = chapter("kinematics")

ARM = Arm.from_arm(al.statics_arm(), "the chapter's arm")
"""The chapter's arm: L = (0.5, 0.4) m, m = (3.0, 2.0) kg, centres of mass (0.25, 0.20) m."""

WALL_PUSH = Case(arm=ARM, q=deg(30, 60), F=[10.0, 0.0], label="the wall push of Example 1")
STRETCHED = deg(0, 0)
FREE = 1e-9
"""Below this torque per newton [N m/N] a push needs no torque (the structure carries it)."""
SINGULAR = 1e-9
"""Below this |det J| [m^2] a pose is singular: no force can be read from its torques."""


def _J(arm, q):
    return al.jacobian(planar_arm(arm), q)


def _cross(r, f):
    """z-component of the planar cross product r x f (on the last axis)."""
    return r[..., 0] * f[..., 1] - r[..., 1] * f[..., 0]


# ---------------------------------------------------------------- tau = J^T F
def _jt(arm, q, F):
    return al.static_torques(planar_arm(arm), q, F)


@reference(worked=WALL_PUSH, allow=("joint_positions", "tip_position"),
           advice="tau = J(q)^T F, with F the force the tip applies")
def joint_torques(arm, q, F):
    """Joint torques (n,) that hold the tip force F (applied by the tip), gravity ignored."""
    return listed(_jt(arm, q, F))


@joint_torques.fresh
def _torques_cases(rng):
    return [Case(arm=arm, q=rng.pose(2), F=rng.vector(2, -20, 20, 1, nonzero=True))
            for arm in drawn_arms(rng, 2, ARM) for _ in range(2)]


SLIP_SENSE = "F taken as the force on the tip, not the force the tip applies"
"""The slip of Parts 1, 4 and 10 (``slip=``): -J^T F, -P, -J^T W, written again by hand."""


@joint_torques.mistake("right size, wrong sign: F is the force the tip applies, so the "
                       "environment pushes the tip with -F and the motor at joint j holds the "
                       "moment of F itself, r x F = r_x F_y - r_y F_x, with r from joint j to "
                       "the tip, in that order (F x r, or minus r x F, is its opposite)",
                       slip=SLIP_SENSE)
def _torques_cross_reversed(arm, q, F):
    """The cross product taken as F x r, or r x F negated so that the motor 'balances' F
    (F read as the force on the tip): the same numbers, so the hint names both; the force's
    sense has its own part too (``torques_for_reported_force``)."""
    p = al.joint_positions(planar_arm(arm), q)
    return listed(-_cross(p[-1] - p[:-1], np.asarray(F, dtype=float)))


@joint_torques.mistake("this is J F: the torques are J transposed times F")
def _torques_not_transposed(arm, q, F):
    return listed(_J(arm, q) @ F)


@joint_torques.mistake("the lever of joint j runs from joint j to the tip, where F acts, not to "
                       "the next joint")
def _torques_next_joint(arm, q, F):
    p = al.joint_positions(planar_arm(arm), q)
    return listed(_cross(p[1:] - p[:-1], np.asarray(F, dtype=float)))


# ---------------------------------------------------------------- Part 2: the worst shoulder load
def _shoulder_worst(arm, q2, *, sweep=True, together=True, through_elbow=True, gravity=None):
    """max over q1 of |g_1(q1, q2)| [N m] in closed form: |a_g| |A + B e^{i q2}|, with A the
    first moment of the links about the shoulder along link 1 and B link 2's about the elbow;
    with the switches of a mistake (``sweep``: only q1 = 0; ``together``: each weight's worst
    added; ``through_elbow``: link 2's weight on its lever from the elbow; ``gravity``: a
    typed-in |a_g|)."""
    (m1, m2), (c1, c2), L1 = arm.masses, arm.com, arm.lengths[0]
    a = float(np.hypot(*arm.gravity)) if gravity is None else gravity
    A = m1 * c1 + (m2 * L1 if through_elbow else 0.0)
    B = m2 * c2
    if not sweep:
        return float(abs(al.gravity_torques(planar_arm(arm), [0.0, q2])[0]))
    if not together:
        return float(a * (abs(A) + abs(B)))
    return float(a * abs(A + B * np.exp(1j * q2)))


@reference(worked=[Case(arm=ARM, q2=0.0, label="the chapter's arm with its elbow straight"),
                   Case(arm=ARM, q2=float(np.radians(90.0)),
                        label="the chapter's arm with its elbow bent at 90°")],
           allow=("gravity_torques", "joint_positions", "com_positions"), rtol=1e-5,
           units={"q2": "deg"},
           advice="the shoulder's torque changes as link 1 turns: which shoulder angle needs "
                  "the most, with the elbow held at q2?")
def shoulder_worst(arm, q2):
    """Largest |g_1(q1, q2)| [N m] over every shoulder angle q1, the elbow held at q2."""
    return _shoulder_worst(arm, q2)


@shoulder_worst.fresh
def _shoulder_cases(rng):
    def elbow():
        return float(np.radians(rng.integer(15, 165) * rng.sign()))

    return ([Case(arm=arm, q2=elbow()) for arm in drawn_arms(rng, 2, ARM) for _ in range(2)]
            + [Case(arm=rng.arm(gravity=(-9.81, 0.0)), q2=elbow(),
                    label="an arm mounted on a wall"),
               Case(arm=rng.arm(gravity=(0.0, -1.62)), q2=elbow(), label="an arm on the Moon"),
               Case(arm=rng.arm(gravity=0.0), q2=elbow(), label="an arm in free fall")])


shoulder_worst.mistakes_of(_shoulder_worst, [
    ("that is the shoulder's torque with link 1 level (q1 = 0): with the elbow bent, another "
     "shoulder angle needs more", {"sweep": False}),
    ("each link's weight is at its worst at its own shoulder angle: the two worsts add only "
     "when the elbow is straight", {"together": False}),
    ("about the shoulder, link 2's weight acts on the lever from the shoulder to link 2's "
     "centre of mass, through the elbow, not on its lever from the elbow alone",
     {"through_elbow": False}),
    ("the arm's gravity need not be 9.81 m/s²: use arm.gravity", {"gravity": 9.81}),
])


@shoulder_worst.mistake("q2 is in radians: np.sin and np.cos take radians, so do not convert "
                        "it to degrees")
def _shoulder_degrees(arm, q2):
    return _shoulder_worst(arm, float(np.degrees(q2)))


# ---------------------------------------------------------------- holding the push
def _holding(arm, q, F, contact=1.0, gravity=1.0):
    return listed(contact * _jt(arm, q, F) + gravity * al.gravity_torques(planar_arm(arm), q))


@reference(worked=Case(arm=ARM, q=deg(30, 60), F=[10.0, 0.0],
                       label="the wall push with gravity on, Example 2"),
           uses={"joint_torques": joint_torques}, allow=("gravity_torques",),
           advice="the motors hold both the push and the weights: J^T F + g(q)")
def holding_torques(arm, q, F):
    """Motor torques (n,) for the tip force F with gravity on: J^T F + g(q)."""
    return _holding(arm, q, F)


@holding_torques.fresh
def _holding_cases(rng):
    return [Case(arm=arm, q=rng.pose(2), F=rng.vector(2, -20, 20, 1, nonzero=True))
            for arm in drawn_arms(rng, 2, ARM) for _ in range(2)]


holding_torques.mistakes_of(_holding, [
    ("this is J^T F alone: the motors must also hold the links' weight, add g(q)",
     {"gravity": 0.0}),
    ("this is g(q) alone: add the contact torques J^T F", {"contact": 0.0}),
    ("gravity's sign: add g(q), the torque that balances gravity", {"gravity": -1.0}),
    ("the contact part has the wrong sign: F is the force the tip applies", {"contact": -1.0}),
])


# ---------------------------------------------------------------- the largest push
def _push(arm, q, direction, limit, worst=np.min, unit=True, gravity=1.0, headroom="signed"):
    """Largest s >= 0 with every |g_j(q) + s (J^T d)_j| <= limit (d the unit direction); the
    cases keep |g_j| < limit, so s = 0 always holds. With the switches of a mistake:
    ``worst`` (np.max: the loosest joint), ``unit`` (d not normalised), ``gravity`` (0:
    ignored, -1: its sign), ``headroom="abs"`` (limit - |g_j| whatever the push's sense)."""
    d = np.asarray(direction, dtype=float)
    t = _jt(arm, q, d / np.linalg.norm(d) if unit else d)
    g = gravity * al.gravity_torques(planar_arm(arm), q)
    work = np.abs(t) >= FREE
    if not work.any():
        return np.inf
    t, g = t[work], g[work]
    if headroom == "abs":
        room = (limit - np.abs(g)) / np.abs(t)
    else:
        room = np.where(t > 0, (limit - g) / np.where(t > 0, t, 1.0),
                        (limit + g) / np.where(t < 0, -t, 1.0))
    return float(worst(room))


@reference(worked=[Case(arm=ARM, q=deg(0, 30), direction=[-1.0, 0.0], limit=30.0,
                        label="a pull along -x at q = (0°, 30°) with 30 N m"),
                   Case(arm=ARM, q=deg(30, 60), direction=[0.0, -2.0], limit=20.0,
                        label="a push straight down at the wall pose with 20 N m")],
           uses={"joint_torques": joint_torques}, allow=("gravity_torques", "jacobian"),
           rtol=1e-6, atol=1e-6,
           advice="a push s d needs g(q) + s J^T d: find the largest s with every |tau_j| <= "
                  "limit")
def max_push(arm, q, direction, limit):
    """Largest force [N] the tip can push along ``direction`` with gravity on and every
    |tau_j| <= limit (the weights alone within it)."""
    return _push(arm, q, direction, limit)


def _push_case(rng, arm, q=None, direction=None):
    q = rng.pose(2) if q is None else q
    g = np.abs(al.gravity_torques(planar_arm(arm), q))
    return Case(arm=arm, q=q, direction=(rng.vector(2, -5, 5, 1, nonzero=True)
                                         if direction is None else direction),
                limit=float(np.ceil(g.max()) + rng.uniform(2, 30, 1)))


@max_push.fresh
def _push_cases(rng):
    return ([_push_case(rng, arm) for arm in drawn_arms(rng, 2, ARM) for _ in range(2)]
            + [_push_case(rng, rng.arm(gravity=(-9.81, 0.0))),
               _push_case(rng, rng.arm(gravity=0.0))])


@max_push.fresh("no torque needed")
def _push_free(rng):
    """Pushes at stretched poses, in a hidden cell of their own so that an answer that misses
    the pushes the structure carries (np.inf) keeps the ordinary pushes' points: along the
    arm (np.inf) and across it (finite, so that np.inf alone earns nothing). The directions
    are unit vectors, so a direction left unnormalised costs the ordinary cells only, not
    this one too."""
    other = rng.arm()
    along = _push_case(rng, other, q=STRETCHED, direction=[-1.0, 0.0])
    return [Case(arm=ARM, q=STRETCHED, direction=[1.0, 0.0], limit=30.0,
                 label="the stretched pose, pushing along the arm"),
            Case(label="another arm stretched, pulling along it", **along.args),
            Case(arm=other, q=STRETCHED, direction=[0.0, float(rng.sign())],
                 limit=along.args["limit"], label="another arm stretched, pushing across it")]


max_push.mistakes_of(_push, [
    ("this ignores the links' weight: with gravity on, part of each motor's torque already "
     "holds the arm up", {"gravity": 0.0}),
    ("a joint's room to push depends on the push's sense: a push whose torque opposes the "
     "weight's has limit + |g_j| to use, not limit - |g_j|", {"headroom": "abs"}),
    ("gravity's sign: g(q) is the torque the motors give to hold the weights, and the push's "
     "torque adds to it", {"gravity": -1.0}),
    ("that limit holds at one joint only: the push must respect every joint, take the smallest",
     {"worst": np.max}),
    ("direction is not a unit vector here: divide it by its length first", {"unit": False}),
])


# ---------------------------------------------------------------- force error along a direction
CORNERS = np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]], dtype=float)
"""The corners of the box of torque errors, in units of dtau."""


def _error_along(arm, q, dtau, direction, how="box", unit=True, transpose_=False):
    """Largest |u . J^{-T} dtau| over the box |dtau_j| <= dtau, u the unit direction:
    dtau sum_j |(J^{-1} u)_j| (the box's worst corner); inf where |det J| < SINGULAR. With
    the switches of a mistake: ``how`` ("ball": the 2-norm, "corner": the corner (1, 1)
    only, "whole": the whole force's error), ``unit``, ``transpose_`` (J^{-T} u)."""
    J = _J(arm, q)
    if abs(np.linalg.det(J)) < SINGULAR:
        return np.inf
    if how == "whole":
        return float(np.linalg.norm(np.linalg.solve(J.T, dtau * CORNERS.T), axis=0).max())
    d = np.asarray(direction, dtype=float)
    u = d / np.linalg.norm(d) if unit else d
    w = np.linalg.solve(J.T if transpose_ else J, u)      # joint weights of the component
    if how == "ball":
        return float(dtau * np.linalg.norm(w))
    if how == "corner":
        return float(dtau * abs(w.sum()))
    return float(dtau * np.abs(w).sum())


@reference(worked=[Case(arm=ARM, q=deg(0, 90), dtau=0.5, direction=[1.0, 0.0],
                        label="Example 3's elbow bent at 90°, the force along x"),
                   Case(arm=ARM, q=deg(0, 90), dtau=0.5, direction=[0.0, 2.0],
                        label="Example 3's elbow bent at 90°, the force along (0, 2)")],
           allow=("jacobian",), rtol=1e-6, atol=1e-6,
           advice="the component along u of F = J^{-T} tau is a linear function of the "
                  "torques: where on the box of torque errors is it largest?")
def force_error_along(arm, q, dtau, direction):
    """Largest error [N] of the estimated force's component along ``direction``, from
    torques known to +-dtau each; inf where |det J| < 1e-9 m^2 (singular)."""
    return _error_along(arm, q, dtau, direction)


def _along_case(rng, arm):
    return Case(arm=arm, q=rng.pose(2), dtau=rng.uniform(0.1, 2.0, 0.1),
                direction=rng.vector(2, -5, 5, 1, nonzero=True))


@force_error_along.fresh
def _along_cases(rng):
    return [_along_case(rng, arm) for arm in drawn_arms(rng, 2, ARM) for _ in range(2)]


@force_error_along.fresh("singular")
def _along_singular(rng):
    """Singular poses (np.inf) in a hidden cell of their own, with an ordinary pose."""
    return [Case(arm=ARM, q=STRETCHED, dtau=0.5, direction=[0.0, 1.0],
                 label="the stretched pose"),
            Case(arm=rng.arm(), q=deg(rng.integer(-170, 170), 0), dtau=rng.uniform(0.1, 2, 0.1),
                 direction=rng.vector(2, -5, 5, 1, nonzero=True), label="another arm, stretched"),
            _along_case(rng, ARM)]


force_error_along.mistakes_of(_error_along, [
    ("that is the largest error of the whole force, not of its component along direction",
     {"how": "whole"}),
    ("that is the worst error over a disc of torque errors, |dtau| <= dtau; each torque is "
     "known to +-dtau on its own, a box, whose corners reach further", {"how": "ball"}),
    ("that is one corner only, (+dtau, +dtau): the largest error is at one of the four corners"
     " (+-dtau, +-dtau)", {"how": "corner"}),
    ("the torques give the force through J^{-T}: J transposed has been inverted where J "
     "belongs, or the other way round", {"transpose_": True}),
    ("direction is not a unit vector here: divide it by its length first", {"unit": False}),
])


# ---------------------------------------------------------------- the other sign convention
@reference(worked=Case(arm=ARM, q=deg(30, 60), force_on_arm=[-10.0, 0.0],
                       label="the wall push of Example 1, reported as the force on the arm"),
           uses={"joint_torques": joint_torques},
           advice="the simulator reports the force on the arm: which force does the tip "
                  "apply?")
def torques_for_reported_force(arm, q, force_on_arm):
    """Joint torques (n,) that hold a contact reported as the force on the arm."""
    return listed(-_jt(arm, q, force_on_arm))


@torques_for_reported_force.fresh
def _reported_cases(rng):
    return [Case(arm=arm, q=rng.pose(2), force_on_arm=rng.vector(2, -20, 20, 1, nonzero=True))
            for arm in drawn_arms(rng, 2, ARM) for _ in range(2)]


@torques_for_reported_force.mistake(
    "right size, wrong sign: that is the claim, J^T force_on_arm, which holds the "
    "opposite push; the simulator reports the force on the arm, and the tip pushes with "
    "the opposite force, -force_on_arm")
def _reported_not_negated(arm, q, force_on_arm):
    return listed(_jt(arm, q, force_on_arm))


# ---------------------------------------------------------------- bearings with a prop
def _propped(arm, q, F, P, *, on="first", sign=1.0, moment=True, lever="elbow"):
    """(n, 3): row j the force (x, y) [N] and moment [N m] link j - 1 (the base) applies to
    link j, the tip applying F and the end of link 1 (the elbow) applying P to a prop:
    armlab's joint reactions plus P's share, which only joint 1 carries, with the moment of
    P about joint 1. With the switches of a mistake: ``on`` ("all": every joint carries P,
    "none": P left out), ``sign``, ``moment``, ``lever`` ("tip": P's lever to the tip)."""
    a = planar_arm(arm)
    force, torque = al.joint_reactions(a, q, F)
    out = np.column_stack([force, torque])
    if on == "none":
        return listed(out)
    p = al.joint_positions(a, q)
    Ps = sign * np.asarray(P, dtype=float)
    share = np.array([Ps[0], Ps[1], _cross(p[-1 if lever == "tip" else 1] - p[0], Ps)
                      if moment else 0.0])
    rows = slice(None) if on == "all" else slice(0, 1)
    out[rows] += share
    return listed(out)


@reference(worked=[Case(arm=ARM, q=deg(30, 60), F=[10.0, 0.0], P=[0.0, -20.0],
                        label="the wall push of Example 4, the elbow resting 20 N on a prop"),
                   Case(arm=ARM, q=deg(30, 60), F=[10.0, 0.0], P=[15.0, 0.0],
                        label="the wall push of Example 4, the elbow pushing 15 N along +x")],
           allow=("joint_reactions", "joint_positions", "com_positions"),
           advice="the prop touches link 1 only: which bearings carry its force, and with "
                  "what moment?")
def propped_reactions(arm, q, F, P):
    """(n, 3) [N, N, N m]: row j the force and moment link j - 1 (the base) applies to link j,
    with the tip applying F and the elbow (the end of link 1) applying P to a prop."""
    return _propped(arm, q, F, P)


def _propped_case(rng, arm, n=2, label=None):
    return Case(arm=arm, q=rng.pose(n), F=rng.vector(2, -20, 20, 1, nonzero=True),
                P=rng.vector(2, -30, 30, 1, nonzero=True), label=label)


@propped_reactions.fresh
def _propped_cases(rng):
    return ([_propped_case(rng, arm) for arm in drawn_arms(rng, 2, ARM) for _ in range(2)]
            + [_propped_case(rng, rng.arm(gravity=(-9.81, 0.0)), label="an arm mounted on a "
                                                                         "wall"),
               _propped_case(rng, rng.arm(gravity=0.0), label="an arm in free fall")])


@propped_reactions.fresh("three links")
def _propped_three_links(rng):
    return [_propped_case(rng, rng.arm(3), 3, label="an arm with three links")
            for _ in range(3)]


propped_reactions.mistakes_of(_propped, [
    ("the prop's force is missing: the elbow pushes on it with P, and the prop pushes back",
     {"on": "none"}),
    ("the prop touches link 1 only: a bearing beyond the elbow does not carry its force",
     {"on": "all"}),
    ("the elbow applies P to the prop, so the prop pushes link 1 with -P: the base's bearing "
     "then carries +P, as the tip's F is carried", {"sign": -1.0}, SLIP_SENSE),
    ("P also turns joint 1: its moment about joint 1 is missing", {"moment": False}),
    ("P acts at the elbow, the end of link 1: its lever about joint 1 ends there, not at the "
     "tip", {"lever": "tip"}),
])


# ---------------------------------------------------------------- design: where to press
ON = 1e-3
"""How far [m] from the table top the tip of a design may be."""
OVER = 0.25
"""How far over a torque limit (a fraction of it) a design earns nothing (a linear share up
to there)."""


def _table(arm, height, x_range, count=401):
    """Poses (m, 2) that put the tip on the table top, both elbows, at ``count`` points."""
    x = np.linspace(*x_range, count)
    r = np.hypot(x, height)
    L1, L2 = arm.lengths
    p = np.column_stack([x, np.full_like(x, height)])[(r > abs(L1 - L2) + 1e-9)
                                                       & (r < L1 + L2 - 1e-9)]
    real = planar_arm(arm)
    return np.concatenate([al.inverse_kinematics(real, p, elbow=e) for e in ("down", "up")])


def _overload(arm, q, F, limit):
    """max_j |tau_j| / limit_j of the holding torques g(q) + J^T F, per pose."""
    tau = _jt(arm, q, F) + al.gravity_torques(planar_arm(arm), q)
    return np.max(np.abs(tau) / np.asarray(limit), axis=-1)


@design(worked=Case(arm=ARM, height=-0.2, x_range=[0.2, 0.85], F=[0.0, -30.0],
                    limit=[5.0, 2.0], label="the chapter's arm pressing 30 N down on a table "
                                            "0.2 m below its shoulder"),
        allow=("inverse_kinematics", "tip_position"),
        uses={"holding_torques": holding_torques, "joint_torques": joint_torques},
        units={"height": "m", "x_range": "m"})
def press_pose(arm, height, x_range, F, limit, answer=None):
    """Judge a pose that presses the tip on the table top (y = height, x in x_range) with the
    force F, gravity on, every joint within its limit |tau_j| <= limit_j: the tip on the table
    (else nothing), then the torques, with a share of the points up to OVER over a limit.
    Without ``answer``: the pose of the table with the most margin."""
    if answer is None:
        poses = _table(arm, height, x_range)
        return listed(poses[np.argmin(_overload(arm, poses, F, limit))])
    q, why = _kinematics._pose(answer)
    if q is None:
        return 0.0, why
    tip = al.tip_position(planar_arm(arm), q)
    shown = _kinematics._shown(q)
    off = max(abs(tip[1] - height), x_range[0] - tip[0], tip[0] - x_range[1])
    if off > ON:
        return 0.0, (f"q = {shown} puts the tip at {fmt(listed(tip))} m, {fmt(1e3 * off)} mm "
                     f"off the table top (y = {fmt(height)} m, x from {fmt(x_range[0])} to "
                     f"{fmt(x_range[1])} m; the spec is within 1 mm)")
    tau = _jt(arm, q, F) + al.gravity_torques(planar_arm(arm), q)
    ratio = np.abs(tau) / np.asarray(limit)
    words = f"q = {shown} presses with the torques {fmt(listed(tau))} N m"
    if ratio.max() <= 1.0 + 1e-9:
        return 1.0, f"{words}, within the limits {fmt(listed(limit))} N m"
    j = int(np.argmax(ratio))
    over = float(ratio[j] - 1.0)
    return max(0.0, 1.0 - over / OVER), (
        f"{words}: joint {j + 1} needs {fmt(abs(float(tau[j])))} N m, {fmt(100 * over, 1)} % "
        f"over its limit of {fmt(float(limit[j]))} N m (nothing at {100 * OVER:g} % over)")


@press_pose.fresh
def _press_cases(rng):
    cases = []
    for arm in [ARM] + [rng.arm() for _ in range(3)]:
        reach = sum(arm.lengths)
        height = -0.05 * rng.integer(2, max(2, int(0.4 * reach / 0.05)))        # [m]
        chord = np.sqrt(reach ** 2 - height ** 2)
        x_range = [round(0.05 * np.floor(k * chord / 0.05), 2) for k in (0.3, 0.95)]
        F = [rng.uniform(-10, 10, 1), -rng.uniform(10, 50, 5)]
        poses = _table(arm, height, x_range)
        tau = np.abs(_jt(arm, poses, F) + al.gravity_torques(planar_arm(arm), poses))
        best = None
        for _ in range(12):                     # limits that one pose meets, and few others
            k = rng.integer(0, len(poses) - 1)
            limit = np.maximum(0.5, np.ceil(tau[k] * 1.1 / 0.5) * 0.5)
            count = int(np.sum(np.all(tau <= limit, axis=-1)))
            score = abs(count - 0.2 * len(poses)) if count >= 16 else len(poses)
            if best is None or score < best[0]:
                best = (score, limit)
        cases.append(Case(arm=arm, height=float(height), x_range=[float(x) for x in x_range],
                          F=F, limit=[float(x) for x in best[1]]))
    return cases


# ---------------------------------------------------------------- Part 10: a derivation
W_PARAMS = ("q1", "q2", "q3", "L1", "L2", "L3", "Fx", "Fy", "Mz")


def _wrench_torques(q1, q2, q3, L1, L2, L3, Fx, Fy, Mz, *, sign=1, cross=1, moment="all",
                    lever="tip", relative=False):
    """tau (3, 1) that holds a wrench (Fx, Fy, Mz) the tip of a three-link arm applies;
    the switches make a likely mistake."""
    import sympy

    angles = (q1, q2, q3) if relative else (q1, q1 + q2, q1 + q2 + q3)
    points = [(0, 0)]
    for L, a in zip((L1, L2, L3), angles):
        x, y = points[-1]
        points.append((x + L * sympy.cos(a), y + L * sympy.sin(a)))
    taus = []
    for j in range(3):
        end = points[3] if lever == "tip" else points[j + 1]
        rx, ry = end[0] - points[j][0], end[1] - points[j][1]
        m = Mz if moment == "all" or (moment == "last" and j == 2) else 0
        taus.append(sign * cross * (rx * Fy - ry * Fx) + sign * m)
    return sympy.Matrix(taus)


@derivation(worked=all_symbols(W_PARAMS),
            advice="tau_j is the moment about joint j of the wrench the tip applies: "
                   "(p_tip - p_j) x F plus the moment Mz")
def wrench_torques(q1, q2, q3, L1, L2, L3, Fx, Fy, Mz):
    """tau (3, 1) holding a tip wrench on a three-link arm, as SymPy."""
    return _wrench_torques(q1, q2, q3, L1, L2, L3, Fx, Fy, Mz)


@wrench_torques.fresh
def _(rng):
    drawn, frac = exact_draws(rng, W_PARAMS)
    return [drawn("another arm and wrench", L1=frac(2, 9, 10), L2=frac(2, 8, 10),
                  L3=frac(1, 5, 10), Fx=frac(-50, 50, 1), Fy=frac(-50, 50, 1),
                  Mz=frac(-30, 30, 10)),
            drawn("a pure moment", Fx=0, Fy=0),
            drawn("a push without a moment", Mz=0),
            drawn("all symbols")]


wrench_torques.mistakes_of(_wrench_torques, [
    ("F and Mz are what the tip applies to the environment: the motors hold them with "
     "tau = J^T F + Mz, not its opposite", {"sign": -1}, SLIP_SENSE),
    ("the cross product's order: (r x F)_z = r_x F_y - r_y F_x", {"cross": -1}),
    ("a moment at the tip loads every joint: each joint holds the whole chain beyond it",
     {"moment": "last"}),
    ("the tip's moment Mz is missing", {"moment": "none"}),
    ("the lever arm of joint j reaches to the tip, not to the next joint",
     {"lever": "next"}),
    ("link k's direction is q1 + ... + qk: each angle is measured from the link before",
     {"relative": True}),
])
