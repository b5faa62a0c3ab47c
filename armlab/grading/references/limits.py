"""Grading references for the limits chapter's exercises (``solutions/limits``).

They run in the grader: armlab computes what it has (the realized acceleration under
either policy, the payload capacity, friction through a gear), numpy the rest (the
largest request along a direction, the heaviest payload a timed move carries, the
velocity-limit curve at a point, the mass matrix's solve, each likely mistake; the tests
compare those with armlab by other routes: bisection on armlab's own functions). The design
part's judge
runs the student's gear on the move. The arms' data come from the chapter's presets.
"""

import math

import numpy as np

from armlab.grading.references import (Arm, Case, al, all_symbols, changed, deg, derivation,
                                       design, exact_draws, listed, planar_arm, reference)

RODS = Arm.from_arm(al.rod_arm(), "the chapter's unit rods")
"""The unit rods: two 1 m, 1 kg uniform rods."""
FLAT_RODS = Arm.from_arm(al.rod_arm(gravity=0.0), "the unit rods without gravity")
TABLE_TOP = Arm.from_arm(al.tabletop_arm(), "the table-top arm")
"""The table-top arm: 0.30 m / 2.0 kg and 0.25 m / 1.0 kg rods."""
BOOK_MOVE = (deg(-45, 90), deg(60, -30))
WALL_GRAVITY = (-9.81, 0.0)
JOINTS = ("shoulder", "elbow")
SLIP_GRAVITY = "gravity left out of a limit check"
"""The slip of Parts 1, 4 and 8 (``slip=``): the chapter's common mistake "forgetting gravity
when checking a limit", written again by hand (the request's torque at zero acceleration less
g, the payload's move without its weights, the path's d = 0)."""


def _clipping_case(rng, arm, which, label=None, sign=None, tries=20):
    """A state and per-joint limits [N m] (to 0.01) that clip the joints in ``which`` only;
    with ``sign``, the clipped torques have that sign.

    Every requested torque must be at least 0.5 N m (room to clip, or not, clearly). A few
    draws of round numbers usually give one; an arm too light for the drawn ranges (no
    gravity, short links) gets a constructed request instead: target torques of the signs
    wanted, turned into an acceleration (to 0.5 rad/s²) with a margin for the rounding.
    """
    real = planar_arm(arm)
    for _ in range(tries):
        q, qd = rng.pose(2), rng.vector(2, -2, 2, 0.5)
        qdd = rng.vector(2, -6, 6, 0.5, nonzero=True)
        tau = al.inverse_dynamics(real, q, qd, qdd)
        if np.abs(tau).min() >= 0.5 and (sign is None or all(tau[j] * sign > 0 for j in which)):
            break
    else:
        q, qd = rng.pose(2), rng.vector(2, -2, 2, 0.5)
        M, bias = al.mass_matrix(real, q), al.inverse_dynamics(real, q, qd, [0.0, 0.0])
        # rounding qdd to 0.5 (or moving a zero to +-0.5) changes tau_j by at most
        # 0.5 sum_k |M_jk|: aim that much beyond 0.5 N m
        margin = 0.5 + 0.5 * np.abs(M).sum(axis=1)
        signs = [sign if (sign is not None and j in which) else rng.sign() for j in range(2)]
        target = [s * (m + rng.uniform(0.5, 3.0, 0.5)) for s, m in zip(signs, margin)]
        exact = np.linalg.solve(M, np.subtract(target, bias))
        qdd = [round(2.0 * x) / 2.0 or (0.5 if x >= 0 else -0.5) for x in exact]
        tau = al.inverse_dynamics(real, q, qd, qdd)
    limit = [round(abs(t) * (rng.uniform(0.5, 0.8, 0.05) if j in which
                             else rng.uniform(1.3, 2.0, 0.1)), 2) for j, t in enumerate(tau)]
    return Case(arm=arm, q=q, qd=qd, qdd_request=qdd, limit=limit, label=label)


# ---------------------------------------------------------------- Part 1: the largest request
def _request_factor(arm, q, qd, direction, limit, bias=True, both=True, coupled=True,
                    gravity=True):
    """The largest k >= 0 with tau(k) = b + k M direction within +-limit (b: the torque at
    zero acceleration; without ``gravity``, b less g); inf where no joint bounds it."""
    real = planar_arm(arm)
    b = al.inverse_dynamics(real, q, qd, [0.0, 0.0]) if bias else np.zeros(2)
    if bias and not gravity:
        b = b - al.gravity_torques(real, q)
    M = al.mass_matrix(real, q)
    per = (M if coupled else np.diag(np.diag(M))) @ np.asarray(direction, dtype=float)
    limit = np.asarray(limit, dtype=float)
    ks = []
    for pj, bj, lj in zip(per, b, limit):
        if pj > 1e-12:
            ks.append((lj - bj) / pj)
        elif pj < -1e-12 and both:
            ks.append((-lj - bj) / pj)
    return float(min(ks, default=math.inf))


@reference(worked=[Case(arm=RODS, q=deg(0, 0), qd=[0.0, 0.0], direction=[1.0, 0.0],
                        limit=[20.0, 20.0], label="Example 1, the horizontal rods at 20 N m"),
                   Case(arm=FLAT_RODS, q=deg(0, 0), qd=[0.0, 0.0], direction=[0.0, -2.0],
                        limit=[1.5, 1.5],
                        label="Example 2 the other way, the elbow request at 1.5 N m")],
           allow=("inverse_dynamics", "forward_dynamics", "mass_matrix", "realized_acceleration",
                  "clip_torques"),
           units={"direction": "rad/s²", "return": ""},
           advice="the torque a request k d needs grows in a straight line with k: where does "
                  "each joint's line leave its band -limit_j .. limit_j?")
def largest_request(arm, q, qd, direction, limit):
    """The largest factor k >= 0 [-] such that the request qdd = k direction needs no torque
    beyond the limits; inf where no joint limits it."""
    return _request_factor(arm, q, qd, direction, limit)


def _request_case(rng, arm, label=None):
    """A state, a direction (to 0.5 rad/s^2) and limits (to 0.1 N m) 0.5-6 N m above the
    torque the state needs at zero acceleration, so k > 0."""
    q, qd = rng.pose(2), rng.vector(2, -2, 2, 0.5)
    direction = rng.vector(2, -4, 4, 0.5, nonzero=True)
    b = al.inverse_dynamics(planar_arm(arm), q, qd, [0.0, 0.0])
    limit = [round(abs(bj) + rng.uniform(0.5, 6.0, 0.1), 1) for bj in b]
    return Case(arm=arm, q=q, qd=qd, direction=direction, limit=limit, label=label)


@largest_request.fresh
def _(rng):
    return [_request_case(rng, RODS), _request_case(rng, RODS),
            _request_case(rng, rng.arm()), _request_case(rng, rng.arm(inertia=True)),
            _request_case(rng, changed(rng.arm(), damping=(0.2, 0.1)), "an arm with friction"),
            _request_case(rng, rng.arm(gravity=WALL_GRAVITY), "an arm mounted on a wall")]


largest_request.mistakes_of(_request_factor, [
    ("the arm needs torque before it accelerates at all (gravity, the velocity products, "
     "friction): that takes its share of each limit", {"bias": False}),
    ("a torque limit bounds both directions: a joint whose torque falls as k grows meets "
     "-limit_j", {"both": False}),
    ("the joints are coupled: a request at one joint needs torque at both, through the whole "
     "mass matrix", {"coupled": False}),
    ("gravity takes its share of each limit too: the motor that accelerates a joint also "
     "holds its weight", {"gravity": False}, SLIP_GRAVITY),
])


# ---------------------------------------------------------------- Part 2: the deficit check
@reference(worked=Case(arm=RODS, q=deg(0, 0), deficit=[20.0 - (8.0 / 3.0 + 19.62), 0.0],
                       label="Example 1's deficit at the horizontal rods"),
           allow=("mass_matrix",), units={"deficit": "N m"},
           advice="M (qdd_real - qdd_req) = tau_applied - tau_req: solve that 2 x 2 system")
def acceleration_error(arm, q, deficit):
    """qdd_real - qdd_req (2,) that a torque deficit causes: the solution of M e = deficit."""
    return listed(np.linalg.solve(al.mass_matrix(planar_arm(arm), q), deficit))


@acceleration_error.fresh
def _error_cases(rng):
    def deficit(which):
        return [rng.uniform(-5, 5, 0.1) if j in which else 0.0 for j in range(2)]

    return [Case(arm=RODS, q=rng.pose(2), deficit=deficit((0,)), label="the shoulder short"),
            Case(arm=RODS, q=rng.pose(2), deficit=deficit((1,)), label="the elbow short"),
            Case(arm=rng.arm(), q=rng.pose(2), deficit=deficit((0, 1))),
            Case(arm=rng.arm(inertia=True), q=rng.pose(2), deficit=deficit((0,))),
            Case(arm=rng.arm(), q=deg(rng.integer(-170, 170), 0), deficit=deficit((1,)),
                 label="the arm stretched straight")]


@acceleration_error.mistake("the deficit is M times the error: solve M e = deficit, do not "
                            "multiply")
def _(arm, q, deficit):
    return listed(al.mass_matrix(planar_arm(arm), q) @ np.asarray(deficit))


@acceleration_error.mistake("dividing joint by joint ignores the coupling: the off-diagonal "
                            "entries of M spread one joint's deficit over both")
def _(arm, q, deficit):
    return listed(np.asarray(deficit) / np.diag(al.mass_matrix(planar_arm(arm), q)))


@acceleration_error.mistake("right size, wrong sign: error = realized - requested and "
                            "deficit = applied - requested, in the same order")
def _(arm, q, deficit):
    return listed(-np.linalg.solve(al.mass_matrix(planar_arm(arm), q), deficit))


# ---------------------------------------------------------------- Part 3: which way it goes
def _angle(a, b):
    """The angle [rad] between two vectors, in [0, pi]."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(math.atan2(abs(a[0] * b[1] - a[1] * b[0]), float(a @ b)))


def _turns(arm, q, qd, qdd_request, limit, of="acceleration", unit=1.0):
    real = planar_arm(arm)
    limit = np.asarray(limit, dtype=float)
    out = []
    for policy in ("clip", "scale"):
        tau, applied, qdd = al.realized_acceleration(real, q, qd, qdd_request, limit,
                                                     policy=policy)
        out.append(unit * (_angle(qdd_request, qdd) if of == "acceleration"
                           else _angle(tau, applied)))
    return out


@reference(worked=[Case(arm=RODS, q=deg(0, 0), qd=[0.0, 0.0], qdd_request=[1.0, 0.0],
                        limit=[20.0, 20.0], label="Example 1, the horizontal rods at 20 N m"),
                   Case(arm=FLAT_RODS, q=deg(0, 0), qd=[0.0, 0.0], qdd_request=[0.0, 2.0],
                        limit=[1.5, 1.5],
                        label="Example 2, the elbow request at 1.5 N m without gravity")],
           allow=("inverse_dynamics", "forward_dynamics", "mass_matrix", "realized_acceleration",
                  "clip_torques", "scale_torques"),
           units={"return": "deg"}, atol=1e-6,
           advice="for each policy: the request, the torque the motors apply, the acceleration "
                  "that torque gives, and the angle between that acceleration and the request")
def acceleration_turns(arm, q, qd, qdd_request, limit):
    """[clip, scale] (2,) [rad]: the angle between the requested and the realized
    acceleration when the motors clip joint by joint, and when they scale the vector."""
    return _turns(arm, q, qd, qdd_request, limit)


@acceleration_turns.fresh
def _turns_cases(rng):
    return [_clipping_case(rng, arm, which, label, sign) for arm, which, label, sign in [
        (RODS, (0,), "a limit that clips the shoulder", 1.0),
        (rng.arm(gravity=0.0), (1,), "an arm without gravity, a limit that clips the elbow",
         None),
        (rng.arm(), (0, 1), "a limit that clips both joints", None),
        (rng.arm(), (), "a limit that clips neither", None),
        (changed(rng.arm(), damping=(0.2, 0.1)), (0,), "an arm with friction", None),
        (rng.arm(gravity=WALL_GRAVITY), (1,), "an arm mounted on a wall", None)]]


acceleration_turns.mistakes_of(_turns, [
    ("those are the torques' angles: scaling keeps the torque's direction, but the question "
     "is where the arm's acceleration goes", {"of": "torque"}),
    ("the angles are in radians here, not degrees", {"unit": 180.0 / math.pi}),
])


# ---------------------------------------------------------------- Part 4: the heaviest payload
def _along(arm, q_start, q_end, samples=2001):
    """Gravity g(u) and the rest of the torque A(u) of the move run in 1 s, at ``samples``
    points u of the path: tau = A / T^2 + g for a run of T seconds."""
    real = planar_arm(arm)
    q, qd1, qdd1 = al.quintic(q_start, q_end, 1.0)(np.linspace(0.0, 1.0, samples))
    g = al.gravity_torques(real, q)
    return g, al.inverse_dynamics(real, q, qd1, qdd1) - g


def _shortest(arm, q_start, q_end, limit, samples=2001):
    """The shortest duration [s] of the quintic move within the limits (inf: gravity alone
    is too much): tau = A / T^2 + g, point by point."""
    g, A = _along(arm, q_start, q_end, samples)
    limit = np.asarray(limit, dtype=float)
    if np.any(np.abs(g) > limit):
        return math.inf
    room = np.where(A > 0, limit - g, limit + g)
    return float(np.sqrt(np.max(np.abs(A) / room)))


def _payload(arm, q_start, q_end, limit, duration, inertia=True, motion=True, slower=True,
             gravity=True, samples=2001):
    """The largest point mass [kg] at the tip with which the quintic move in ``duration``,
    and every slower run of it, keeps |tau_j| <= limit_j at every sample. The torque is
    tau_0 + m p, linear in m, at each instant; a slower run's lies between this run's and
    the torque that holds the load at rest (gravity's), so both are bounded. Without
    ``gravity``: the arm's and the payload's weights left out of every torque."""
    real = planar_arm(arm)
    loaded = real.with_payload(1.0)
    q, qd, qdd = al.quintic(q_start, q_end, duration)(np.linspace(0.0, duration, samples))
    g0, pg = al.gravity_torques(real, q), al.gravity_torques(loaded, q)
    pg = pg - g0
    tau0 = al.inverse_dynamics(real, q, qd, qdd)
    p = (al.inverse_dynamics(loaded, q, qd, qdd) - tau0) if inertia else pg
    if not gravity:
        tau0, p, g0, pg = tau0 - g0, p - pg, 0.0 * g0, 0.0 * pg
    rows = [(tau0, p)] if motion else []
    if slower or not motion:
        rows.append((g0, pg))
    limit = np.asarray(limit, dtype=float)
    best = math.inf
    for t0, pp in rows:
        if np.any(np.abs(t0) > limit):
            return 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            k = np.where(pp > 1e-12, (limit - t0) / pp,
                         np.where(pp < -1e-12, (-limit - t0) / pp, math.inf))
        best = min(best, float(k.min()))
    return best


@reference(worked=[Case(arm=TABLE_TOP, q_start=BOOK_MOVE[0], q_end=BOOK_MOVE[1],
                        limit=[8.0, 2.0], duration=1.5,
                        label="Example 3's move under (8, 2) N m, run in 1.5 s")],
           allow=("quintic", "Quintic", "inverse_dynamics", "gravity_torques", "torque_parts",
                  "mass_matrix", "coriolis_torques", "shortest_duration",
                  "PlanarArm.with_payload"),
           rtol=1e-3, units={"duration": "s", "return": "kg"},
           advice="what does the payload add to each joint's torque at each instant of the "
                  "move, and how does that grow with its mass?")
def heaviest_payload(arm, q_start, q_end, limit, duration):
    """The heaviest point mass [kg] at the tip with which the quintic move in ``duration``,
    and every slower run of it, stays within the limits; 0 when the arm alone cannot."""
    return _payload(arm, q_start, q_end, limit, duration)


def _payload_case(rng, arm, label=None, slower=(1.2, 2.0)):
    """A move, limits 1.3-2.5 times gravity's peak along it, and a duration 1.2-2 times
    the empty arm's shortest (to 0.05 s)."""
    q_start, q_end = rng.pose(2), rng.pose(2)
    floor = np.abs(_along(arm, q_start, q_end, 201)[0]).max(axis=0)
    limit = [round(max(f, 1.0) * rng.uniform(1.3, 2.5, 0.1), 1) for f in floor]
    fastest = _shortest(arm, q_start, q_end, limit)
    duration = math.ceil(fastest * rng.uniform(*slower, 0.1) / 0.05) * 0.05
    return Case(arm=arm, q_start=q_start, q_end=q_end, limit=limit, duration=round(duration, 2),
                label=label)


@heaviest_payload.fresh
def _(rng):
    return [_payload_case(rng, arm, label) for arm, label in [
        (TABLE_TOP, None), (TABLE_TOP, None), (rng.arm(), None),
        (rng.arm(inertia=True), "links that are not uniform rods"),
        (rng.arm(gravity=0.0), "an arm without gravity"),
        (rng.arm(gravity=WALL_GRAVITY), "an arm mounted on a wall")]]


@heaviest_payload.fresh("too fast")
def _(rng):
    """A duration shorter than the empty arm's shortest (0 kg), in a hidden cell of its own,
    then an ordinary move, so that 0 alone earns nothing."""
    return [_payload_case(rng, TABLE_TOP, "a duration the arm alone cannot make",
                          slower=(0.6, 0.9)),
            _payload_case(rng, rng.arm())]


heaviest_payload.mistakes_of(_payload, [
    ("the payload is accelerated with the tip: a point mass adds its inertia to the move's "
     "torque, not only its weight", {"inertia": False}),
    ("the move's own torques need their share of the limits too, not only the loads held "
     "at rest along the path", {"motion": False}),
    ("gravity takes its share of the limits at every instant: the arm's weight and the "
     "payload's, at any speed (slowing down shrinks only the rest)", {"gravity": False},
     SLIP_GRAVITY),
])


# ---------------------------------------------------------------- Part 5: payload capacity
def _capacity(arm, q, limit, load=None, subtract=True, mirror=True):
    """Per joint the largest k with g + k J^T F within +-limit; F holds 1 kg up by default."""
    real = planar_arm(arm)
    F = -np.asarray(arm.gravity) if load is None else np.asarray(load, dtype=float)
    t = al.jacobian(real, q).T @ F
    g = al.gravity_torques(real, q) if subtract else np.zeros(2)
    limit = np.asarray(limit, dtype=float)
    end = np.where((t > 0) | (not mirror), limit, -limit)
    with np.errstate(divide="ignore", invalid="ignore"):
        return listed(np.where(np.abs(t) <= 1e-9, math.inf, (end - g) / t))


@reference(worked=[Case(arm=RODS, q=deg(0, 0), limit=[25.0, 25.0],
                        label="Example 4, the horizontal rods at 25 N m"),
                   Case(arm=RODS, q=deg(0, 90), limit=[25.0, 25.0],
                        label="Example 4, the elbow bent up"),
                   Case(arm=RODS, q=deg(180, 0), limit=[25.0, 25.0],
                        label="Example 4's horizontal rods pointing the other way, along -x")],
           allow=("gravity_torques", "jacobian", "static_torques"),
           advice="k_j = (limit_j - g_j) / (J^T F)_j for the force F = -(1 kg) arm.gravity "
                  "that holds 1 kg up against gravity, with -limit_j where (J^T F)_j < 0")
def payload_capacity(arm, q, limit):
    """Per joint (2,), the mass [kg] at the tip the motor can hold on top of the arm; inf
    where the joint carries none of it."""
    return listed(al.payload_capacity(planar_arm(arm), q, limit))


def _holding(rng, arm, q, label=None):
    """A pose and limits that hold the arm itself, with room to spare."""
    g = al.gravity_torques(planar_arm(arm), q)
    limit = [round(abs(gj) + rng.uniform(1.0, 12.0, 0.5), 1) for gj in g]
    return Case(arm=arm, q=q, limit=limit, label=label)


def _loaded_pose(rng, arm, tries=20):
    """A pose at which both joints carry a load at the tip (link 2 away from vertical):
    a few draws, then link 2 turned level (along the arm's floor) by construction."""
    along = math.cos if arm.gravity[0] == 0.0 else math.sin
    for _ in range(tries):
        q = rng.pose(2)
        if abs(along(q[0] + q[1])) > 0.2:
            return q
    q1 = rng.integer(-80, 80)
    level = 0 if arm.gravity[0] == 0.0 else 90
    q2 = level - q1 if abs(level - q1) >= 15 else level - q1 + 30
    return deg(q1, q2)


@payload_capacity.fresh
def _capacity_cases(rng):
    cases = [_holding(rng, arm, _loaded_pose(rng, arm))
             for arm in (RODS, TABLE_TOP, rng.arm(), rng.arm(inertia=True))]
    wall = rng.arm(gravity=WALL_GRAVITY)
    cases.append(_holding(rng, wall, _loaded_pose(rng, wall),
                          "an arm mounted on a wall, gravity along -x"))
    return cases


@payload_capacity.fresh("no load")
def _capacity_no_load(rng):
    """Joints that carry none of the load (np.inf) in a hidden cell of their own, then an
    ordinary pose, so that np.inf alone earns nothing."""
    q1 = rng.integer(-80, -10)
    return [_holding(rng, rng.arm(), deg(q1, 90 - q1), "link 2 pointing straight up"),
            _holding(rng, RODS, deg(-90, 0), "the arm hanging straight down"),
            _holding(rng, TABLE_TOP, _loaded_pose(rng, TABLE_TOP))]


payload_capacity.mistakes_of(_capacity, [
    ("the motors already hold the arm itself: only limit - g(q) is left for the payload",
     {"subtract": False}),
    ("the unit load is the weight of 1 kg, g0 newtons, not 1 N: divide by it to get kilograms",
     {"load": [0.0, 1.0]}),
    ("where (J^T F)_j is negative the load pushes joint j towards its minimum: use -limit_j "
     "there", {"mirror": False}),
])


# ---------------------------------------------------------------- Part 6: friction through a gear
GEARED = changed(RODS, damping=(2e-5, 2e-5), coulomb=(4e-3, 4e-3), gear_ratio=(50.0, 50.0),
               label="the rods driven by Example 5's motor through 50:1 gears")


def _friction(arm, qd, viscous=2, coulomb=1, sign=1.0):
    G, qd = np.asarray(arm.gear_ratio), np.asarray(qd, dtype=float)
    return listed(sign * (G ** viscous * np.asarray(arm.damping) * qd
                          + G ** coulomb * np.asarray(arm.coulomb) * np.sign(qd)))


@reference(worked=Case(arm=GEARED, qd=[2.0, -1.0], label="Example 5's geared motor"),
           advice="at the joint: G^2 B qd + G Tc sign(qd), with the motor-side B = arm.damping, "
                  "Tc = arm.coulomb and G = arm.gear_ratio")
def joint_friction(arm, qd):
    """Torque (2,) the motors spend on friction at joint speeds qd, referred to the joints."""
    return listed(al.friction_torques(planar_arm(arm), qd))


@joint_friction.fresh
def _friction_cases(rng):
    def geared(ratios, label=None):
        return changed(RODS, damping=tuple(rng.uniform(1e-5, 1e-4, 1e-5) for _ in range(2)),
                     coulomb=tuple(rng.uniform(1e-3, 1e-2, 1e-3) for _ in range(2)),
                     gear_ratio=ratios, label=label)

    def speeds():
        return rng.vector(2, -5, 5, 0.5, nonzero=True)

    return [Case(arm=geared((rng.integer(20, 160), rng.integer(20, 160))), qd=speeds()),
            Case(arm=geared((100.0, 30.0)), qd=speeds(), label="different gears at the two joints"),
            Case(arm=geared((1.0, 1.0), "a direct drive"), qd=speeds()),
            Case(arm=geared((80.0, 80.0)), qd=[0.0, rng.uniform(-3, 3, 0.5)],
                 label="the shoulder at rest"),
            Case(arm=geared((rng.integer(20, 160), 60.0)), qd=speeds())]


joint_friction.mistakes_of(_friction, [
    ("viscous friction comes through the gear twice (the motor turns G times faster and its torque"
     " counts G times): G^2 B, not G B", {"viscous": 1}),
    ("Coulomb friction does not grow with speed: it comes through the gear once, G Tc",
     {"coulomb": 2}),
    ("that is the friction torque itself, as Robotics Toolbox for Python returns it; the book's "
     "term is what the motor spends to overcome it, with the sign of qd", {"sign": -1.0}),
    ("the joint turns G times slower than the motor: the gear multiplies the motor's friction by "
     "G^2 and G, it does not divide", {"viscous": -2, "coulomb": -1}),
])


# ---------------------------------------------------------------- Part 8: the top path speed
def _top_speed(arm, q_start, q_end, limit, s, power=2, with_gravity=True, root=True):
    """The largest path speed sd [1/s] at s at which the joints' ranges of sdd still overlap
    (the velocity-limit curve); inf where no speed is too fast. Each joint's ends are
    linear in x = sd^power: the ranges part where a lower end of one joint crosses the
    upper end of the other."""
    real = planar_arm(arm)
    start = np.asarray(q_start, dtype=float)
    delta = np.asarray(q_end, dtype=float) - start
    q = start + s * delta
    m = al.mass_matrix(real, q) @ delta
    c = al.coriolis_torques(real, q, delta)
    d = al.gravity_torques(real, q) if with_gravity else np.zeros(2)
    limit = np.asarray(limit, dtype=float)
    sign = np.sign(m)
    # low_j(x) = (-sign_j l_j - d_j - c_j x) / m_j, high_j(x) = (sign_j l_j - d_j - c_j x) / m_j
    lo0, hi0, slope = (-sign * limit - d) / m, (sign * limit - d) / m, -c / m
    best = math.inf
    for j, k in ((0, 1), (1, 0)):
        a, b = lo0[j] - hi0[k], slope[j] - slope[k]          # low_j - high_k = a + b x <= 0
        if b > 0:
            best = min(best, -a / b)
    x = max(best, 0.0)
    return float(x ** (1.0 / power) if root else x)


@reference(worked=[Case(arm=TABLE_TOP, q_start=BOOK_MOVE[0], q_end=BOOK_MOVE[1],
                        limit=[8.0, 2.0], s=0.5,
                        label="halfway along Example 3's path, under (8, 2) N m"),
                   Case(arm=TABLE_TOP, q_start=BOOK_MOVE[0], q_end=BOOK_MOVE[1],
                        limit=[8.0, 2.0], s=0.25,
                        label="a quarter of the way along Example 3's path")],
           allow=("mass_matrix", "coriolis_torques", "gravity_torques", "path_dynamics",
                  "path_acceleration_bounds"),
           rtol=1e-4, units={"s": "", "return": "/s"},
           advice="at which path speed do the joints' ranges of sdd stop overlapping, and how "
                  "does each end of a range move as sd grows?")
def top_path_speed(arm, q_start, q_end, limit, s):
    """The largest path speed sd [1/s] at the point s at which some sdd keeps every joint
    within its limits (the velocity-limit curve at s); inf where none is too fast."""
    return _top_speed(arm, q_start, q_end, limit, s)


def _speed_case(rng, arm, label=None, tries=20):
    """A move, a point on it with both |m_j| >= 0.01 N m s^2 and limits 1.3-3 times gravity
    there (plus 0.5 N m): admissible at rest, and the ranges part at a finite speed."""
    for _ in range(tries):
        q_start, q_end, s = rng.pose(2), rng.pose(2), rng.uniform(0.0, 1.0, 0.05)
        real, delta = planar_arm(arm), np.subtract(q_end, q_start)
        q = np.add(q_start, s * delta)
        g = al.gravity_torques(real, q)
        limit = [round(abs(gj) * rng.uniform(1.3, 3.0, 0.1) + 0.5, 1) for gj in g]
        if (np.abs(al.mass_matrix(real, q) @ delta).min() >= 0.01
                and math.isfinite(_top_speed(arm, q_start, q_end, limit, s))):
            break
    return Case(arm=arm, q_start=q_start, q_end=q_end, limit=limit, s=s, label=label)


@top_path_speed.fresh
def _(rng):
    return [Case(arm=TABLE_TOP, q_start=BOOK_MOVE[0], q_end=BOOK_MOVE[1], limit=[8.0, 2.0],
                 s=0.8, label="Example 3's path near its switch"),
            _speed_case(rng, TABLE_TOP), _speed_case(rng, rng.arm()),
            _speed_case(rng, rng.arm(inertia=True)),
            _speed_case(rng, rng.arm(gravity=0.0), "an arm without gravity"),
            _speed_case(rng, rng.arm(gravity=WALL_GRAVITY), "an arm mounted on a wall")]


top_path_speed.mistakes_of(_top_speed, [
    ("that is the square of the speed, or a speed whose velocity products grow with sd: "
     "c(q, q' sd) = c(q, q') sd^2", {"root": False}),
    ("gravity is part of d: it takes its share of every joint's limit at any speed",
     {"with_gravity": False}, SLIP_GRAVITY),
])


# ---------------------------------------------------------------- Part 10: design a gear
MOTOR_TABLE = changed(TABLE_TOP, damping=(2e-5, 2e-5), coulomb=(4e-3, 4e-3),
                    label="the table-top arm with Example 5's motor friction (motor side)")
SAMPLES = 2001
SLACK = 1e-3
"""A design within 0.1 % of a limit meets it (the check samples the move at 2,001 instants)."""


def motor_load(arm, q_start, q_end, duration, rotor, ratio, samples=SAMPLES):
    """What the motors must give along the quintic move through gears of ``ratio``: the
    instants (samples,) [s], the joint torques (samples, 2) [N m] with the rotors'
    G^2 J qdd and the motors' friction referred through the gear (6.9), the part of them
    the rotors and friction take, and the joint speeds (samples, 2) [rad/s]."""
    t = np.linspace(0.0, duration, samples)
    q, qd, qdd = al.quintic(q_start, q_end, duration)(t)
    bare = al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia, arm.gravity)
    drive = (ratio ** 2 * (rotor * qdd + np.asarray(arm.damping) * qd)
             + ratio * np.asarray(arm.coulomb) * np.sign(qd))
    return t, al.inverse_dynamics(bare, q, qd, qdd) + drive, drive, qd


@design(worked=[Case(arm=MOTOR_TABLE, q_start=BOOK_MOVE[0], q_end=BOOK_MOVE[1], duration=0.7,
                     torque=0.15, speed=500.0, rotor=5e-6,
                     label="Example 5's motor on both joints of the table-top arm, Example 3's "
                           "move in 0.7 s"),
                Case(arm=MOTOR_TABLE, q_start=BOOK_MOVE[0], q_end=BOOK_MOVE[1], duration=0.92,
                     torque=0.15, speed=500.0, rotor=5e-5,
                     label="the same motor with a rotor ten times heavier, the move in 0.92 s")],
        allow=("quintic", "Quintic", "inverse_dynamics", "mass_matrix", "coriolis_torques",
               "gravity_torques", "friction_torques"),
        units={"torque": "N m", "speed": "rad/s", "rotor": "kg m²"})
def gear_ratio(arm, q_start, q_end, duration, torque, speed, rotor, answer):
    """Judge a gear ratio G for the move: the spec is that at every instant each motor gives
    at most ``torque`` (|tau_j| <= G torque at the joint) and turns at most ``speed``
    (G |qd_j| <= speed). Partial credit for up to 25 % over."""
    G = float(np.asarray(answer, dtype=float).reshape(-1)[0]) if np.size(answer) == 1 else None
    if G is None or not G > 0 or not math.isfinite(G):
        return 0.0, f"the answer {answer!r} is not a gear ratio: expected one positive number"
    t, tau, drive, qd = motor_load(arm, q_start, q_end, duration, rotor, G)
    need, turn = np.abs(tau) / G, G * np.abs(qd)     # the motors' torque [N m] and speed
    (k, j), (kw, jw) = (np.unravel_index(x.argmax(), x.shape) for x in (need, turn))
    torque_ratio, speed_ratio = need[k, j] / torque, turn[kw, jw] / speed
    said = f"with G = {G:.4g}"
    if max(torque_ratio, speed_ratio) <= 1.0 + SLACK:
        return 1.0, (f"{said} the motors stay within their limits: at most "
                     f"{torque_ratio:.1%} of the torque ({JOINTS[j]}) and {speed_ratio:.1%} of "
                     f"the speed ({JOINTS[jw]})")
    words = []
    if torque_ratio > 1.0 + SLACK:
        share = drive[k, j] / tau[k, j]
        words.append(f"the {JOINTS[j]}'s motor must give {need[k, j]:.4g} N m of its "
                     f"{torque:g} N m ({torque_ratio - 1:.1%} over) at t = {t[k]:.3g} s, "
                     f"{share:.0%} of it for its own rotor and friction through the gear")
    if speed_ratio > 1.0 + SLACK:
        words.append(f"the {JOINTS[jw]}'s motor must turn at {turn[kw, jw]:.4g} rad/s of its "
                     f"{speed:g} rad/s ({speed_ratio - 1:.1%} over) at t = {t[kw]:.3g} s: the "
                     "motor turns G times faster than its joint")
    worst = max(torque_ratio, speed_ratio)
    return max(0.0, 1.0 - 4.0 * (worst - 1.0)), f"{said} " + "; ".join(words)


def _sig(x, digits=2):
    return float(f"{x:.{digits}g}")


def _gear_cases_for(rng, arm, q_start, q_end, label=None):
    """A motor for the move and a duration 5-40 % above the fastest any gear allows it, so
    that a band of ratios works. The fastest duration is found by bisection, on the move
    run in one second and scaled (speeds 1/T, accelerations 1/T^2), over a grid of ratios.
    The motor is then scaled to put its best ratio at 15-30:1 or 200-400:1 (k times the
    ratio, torque / k, speed k, rotor and viscous friction / k^2, Coulomb friction / k: the
    joints see the same drive), far from the worked case's band of about 71-89:1."""
    torque, speed, rotor = (rng.uniform(0.05, 0.5, 0.01), rng.uniform(200.0, 1000.0, 50.0),
                            rng.uniform(1e-6, 2e-5, 1e-6))
    B, Tc = rng.uniform(1e-5, 5e-5, 1e-5), rng.uniform(1e-3, 1e-2, 1e-3)
    q, qd1, qdd1 = al.quintic(q_start, q_end, 1.0)(np.linspace(0.0, 1.0, 101))
    bare = al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia, arm.gravity)
    g = al.gravity_torques(bare, q)
    A = al.inverse_dynamics(bare, q, qd1, qdd1) - g
    G = np.geomspace(1.0, 3000.0, 100)

    def worst(T):
        Gc = G[:, None, None]
        tau = A / T ** 2 + g + Gc ** 2 * (rotor * qdd1 / T ** 2 + B * qd1 / T) + Gc * Tc * np.sign(qd1)
        return np.maximum(np.abs(tau).max(axis=(1, 2)) / (G * torque),
                          G * np.abs(qd1).max() / (T * speed))

    lo, hi = 0.02, 60.0
    if worst(hi).min() > 0.97:                         # too weak for this arm: a stronger one
        torque = 0.5
    for _ in range(12):
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if worst(mid).min() <= 0.97 else (mid, hi)
    k = rng.choice([15.0, 20.0, 25.0, 30.0, 200.0, 250.0, 300.0, 400.0]) / G[worst(hi).argmin()]
    duration = round(hi * rng.uniform(1.05, 1.4, 0.05), 2)
    return Case(arm=changed(arm, damping=(_sig(B / k ** 2),) * 2, coulomb=(_sig(Tc / k),) * 2),
                q_start=q_start, q_end=q_end, duration=max(duration, 0.1),
                torque=_sig(torque / k, 3), speed=_sig(speed * k, 3), rotor=_sig(rotor / k ** 2),
                label=label)


@gear_ratio.fresh
def _gear_cases(rng):
    return [_gear_cases_for(rng, TABLE_TOP, *BOOK_MOVE, "the table-top arm on Example 3's move, "
                                                       "another motor"),
            _gear_cases_for(rng, TABLE_TOP, rng.pose(2), rng.pose(2)),
            _gear_cases_for(rng, rng.arm(), rng.pose(2), rng.pose(2)),
            _gear_cases_for(rng, rng.arm(gravity=0.0), rng.pose(2), rng.pose(2),
                            "an arm without gravity"),
            _gear_cases_for(rng, rng.arm(gravity=WALL_GRAVITY), rng.pose(2), rng.pose(2),
                            "an arm mounted on a wall")]


# ---------------------------------------------------------------- Part 11: a derivation
P_PARAMS = ("s", "p1", "p2", "d1", "d2", "L1", "L2", "m1", "m2")


def _curved_path_terms(s, p1, p2, d1, d2, L1, L2, m1, m2, *, curved=True, straight=False,
                       products=1, transpose=False):
    """[m(s), c(s)] as the columns of a (2, 2) SymPy matrix: the path dynamics
    tau = m s_dd + c s_d^2 + g of the point-mass arm along q(s) = (p1 + d1 s,
    p2 + d2 s^2); the switches make a likely mistake."""
    import sympy

    q2 = p2 + d2 * s ** 2
    dq = sympy.Matrix([d1, d2 if straight else 2 * d2 * s])       # q'(s)
    ddq = sympy.Matrix([0, 2 * d2 if curved else 0])               # q''(s)
    cos, sin = sympy.cos(q2), sympy.sin(q2)
    M = sympy.Matrix([[(m1 + m2) * L1 ** 2 + m2 * L2 ** 2 + 2 * m2 * L1 * L2 * cos,
                       m2 * (L2 ** 2 + L1 * L2 * cos)],
                      [m2 * (L2 ** 2 + L1 * L2 * cos), m2 * L2 ** 2]])
    h = m2 * L1 * L2 * sin
    c = products * sympy.Matrix([-h * (2 * dq[0] * dq[1] + dq[1] ** 2), h * dq[0] ** 2])
    out = sympy.Matrix.hstack(M * dq, M * ddq + c)
    return out.T if transpose else out


@derivation(worked=all_symbols(P_PARAMS),
            advice="put q(s), qd = q'(s) s_d and qdd = q'(s) s_dd + q''(s) s_d^2 into "
                   "tau = M qdd + c(q, qd) + g and collect the terms in s_dd and s_d^2")
def curved_path_terms(s, p1, p2, d1, d2, L1, L2, m1, m2):
    """[m(s), c(s)] (2, 2), columns, of the point-mass arm on the curved path, as SymPy."""
    return _curved_path_terms(s, p1, p2, d1, d2, L1, L2, m1, m2)


@curved_path_terms.fresh
def _(rng):
    drawn, frac = exact_draws(rng, P_PARAMS)
    return [drawn("another arm and path", L1=frac(3, 9, 10), L2=frac(2, 8, 10),
                  m1=frac(5, 40, 10), m2=frac(5, 30, 10), d1=frac(-20, 20, 10),
                  d2=frac(5, 20, 10), p1=frac(-10, 10, 10), p2=frac(5, 25, 10)),
            drawn("a path that is straight after all", d2=0),
            drawn("all symbols")]


@curved_path_terms.fresh("start")
def _(rng):
    """``s`` a number, in a hidden cell of its own (1 point): a right derivation that
    differentiates with respect to the argument ``s`` fails only here (the trial class's
    other-methods student lost all 7 hidden points to it when this case was among them)."""
    drawn, _frac = exact_draws(rng, P_PARAMS)
    return [drawn("the path's start", s=0)]


curved_path_terms.mistakes_of(_curved_path_terms, [
    ("the path is curved: q''(s) is not zero, and M q''(s) joins c(s)", {"curved": False}),
    ("the path's direction at s is q'(s) = (d1, 2 d2 s), not the endpoint difference",
     {"straight": True}),
    ("the velocity products' sign: c(q, qd) = h (-2 qd1 qd2 - qd2^2, qd1^2) with "
     "h = m2 L1 L2 sin q2", {"products": -1}),
    ("the velocity products are missing from c(s): c(q, q' s_d) = c(q, q') s_d^2",
     {"products": 0}),
    ("the columns are m(s) and c(s), each a vector of the two joints' terms (is it "
     "transposed?)", {"transpose": True}),
])


# ---------------------------------------------------------------- Part 7: a claim to falsify
FLAWS = {1: "the motors scale the torque vector instead of clipping joint by joint",
         2: "the clipped torques turned into accelerations by M^-1 alone, without gravity, "
            "velocity products and friction",
         3: "the deficit put on each joint's own inertia, qdd_req + dtau_j / M_jj, the "
            "coupling through M left out"}
"""The flaws a claimed realized acceleration is computed with (Part 7)."""


def _flawed(arm, q, qd, qdd_request, limit, flaw):
    """The realized acceleration (2,) as a claim with ``flaw`` computes it (0: no flaw)."""
    real = planar_arm(arm)
    tau = al.inverse_dynamics(real, q, qd, qdd_request)
    limit = np.asarray(limit, dtype=float)
    applied = np.clip(tau, -limit, limit)
    M = al.mass_matrix(real, q)
    if flaw == 1:
        return al.forward_dynamics(real, q, qd, al.scale_torques(tau, limit))
    if flaw == 2:
        return np.linalg.solve(M, applied)
    if flaw == 3:
        return np.add(qdd_request, (applied - tau) / np.diag(M))
    return al.forward_dynamics(real, q, qd, applied)


def _claim_case(rng, arm, which, flaw, label=None, tries=20):
    """A clipping case with a claim computed with ``flaw``, the truth and the three flaws'
    values at least 0.05 rad/s² apart (so the claim names its flaw)."""
    for _ in range(tries):
        case = _clipping_case(rng, arm, which)
        args = case.args
        values = [np.asarray(_flawed(arm, args["q"], args["qd"], args["qdd_request"],
                                     args["limit"], k)) for k in range(4)]
        gaps = [np.abs(a - b).max() for i, a in enumerate(values) for b in values[i + 1:]]
        if min(gaps) >= 0.05:
            break
    claimed = [round(float(x), 4) + 0.0 for x in values[flaw]]
    return Case(claimed=claimed, label=label, **args)


def _claim_worked():
    rods = dict(arm=RODS, q=deg(0, 0), qd=[0.0, 0.0], qdd_request=[1.0, 0.0],
                limit=[20.0, 20.0])
    flat = dict(arm=FLAT_RODS, q=deg(0, 0), qd=[0.0, 0.0], qdd_request=[0.0, 2.0],
                limit=[1.5, 1.5])
    return [Case(claimed=[round(float(x), 4) + 0.0 for x in _flawed(flaw=3, **rods)],
                 label="Example 1's claim that the shoulder still accelerates forwards", **rods),
            Case(claimed=[round(float(x), 4) + 0.0 for x in _flawed(flaw=1, **flat)],
                 label="a claim about Example 2's elbow request at 1.5 N m", **flat)]


@reference(worked=_claim_worked(),
           allow=("inverse_dynamics", "forward_dynamics", "mass_matrix", "realized_acceleration",
                  "clip_torques", "scale_torques"),
           units={"claimed": "rad/s²"},
           advice="compute what the clipped torques really do, then what each named flaw "
                  "gives on the same case, and see which one the claim equals")
def clipped_claim(arm, q, qd, qdd_request, limit, claimed):
    """[qdd_1, qdd_2, flaw] (3,): the corrected realized acceleration and the flaw's
    number (``FLAWS``) that the claim was computed with."""
    truth = _flawed(arm, q, qd, qdd_request, limit, 0)
    gaps = [np.abs(np.asarray(_flawed(arm, q, qd, qdd_request, limit, k)) - claimed).max()
            for k in (1, 2, 3)]
    return [*listed(truth), float(1 + int(np.argmin(gaps)))]


@clipped_claim.fresh
def _(rng):
    return [_claim_case(rng, arm, which, flaw, label) for arm, which, flaw, label in [
        (RODS, (0,), 1, "the rods, the shoulder clipped"),
        (rng.arm(), (1,), 2, "another arm, the elbow clipped"),
        (rng.arm(), (0, 1), 3, "another arm, both joints clipped"),
        (changed(rng.arm(), damping=(0.2, 0.1)), (0,), 2, "an arm with friction"),
        (rng.arm(gravity=WALL_GRAVITY), (1,), 3, "an arm on a wall"),
        (rng.arm(), (0,), 1, None)]]


@clipped_claim.mistake("the corrected value is what the clipped torques really do (forward "
                       "dynamics); the claim is what is being checked, not the answer")
def _(arm, q, qd, qdd_request, limit, claimed):
    return [*claimed, clipped_claim(arm, q, qd, qdd_request, limit, claimed)[2]]


@clipped_claim.mistake("the corrected value leaves out what the clipped torques must also "
                       "carry: gravity, the velocity products and friction (forward dynamics, "
                       "not M^-1 tau)")
def _(arm, q, qd, qdd_request, limit, claimed):
    return [*listed(_flawed(arm, q, qd, qdd_request, limit, 2)),
            clipped_claim(arm, q, qd, qdd_request, limit, claimed)[2]]


@clipped_claim.mistake("the flaw's number: recompute the claim with each named flaw on this "
                       "case and compare (is the claim's own joint coupling there?)")
def _(arm, q, qd, qdd_request, limit, claimed):
    right = clipped_claim(arm, q, qd, qdd_request, limit, claimed)
    return [*right[:2], {1.0: 3.0, 2.0: 1.0, 3.0: 1.0}[right[2]]]
