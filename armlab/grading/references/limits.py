"""Grading references for the limits chapter's exercises (``solutions/limits``).

Pure Python, independent of armlab's code (the tests compare both routes): a
two-link arm's mass matrix, velocity products, gravity torques and friction
written out from the kinetic and potential energies, a 2 x 2 solve, the
quintic time law, and the closed forms of the chapter (clipping, scaling, the
shortest duration as the largest root over the path, the payload capacity per
joint, friction through a gear). The arms' data come from the chapter's
presets.
"""

from armlab import rod_arm, tabletop_arm
from armlab.grading.purepy import cos, deg, inf, matvec, pi, sin, solve, sqrt
from armlab.grading.references import ArmData, Case, reference

RODS = ArmData.from_arm(rod_arm(), "the chapter's unit rods")
"""The unit rods: two 1 m, 1 kg uniform rods."""
FLAT_RODS = ArmData.from_arm(rod_arm(gravity=0.0), "the unit rods without gravity")
TABLE_TOP = ArmData.from_arm(tabletop_arm(), "the table-top arm")
"""The table-top arm: 0.30 m / 2.0 kg and 0.25 m / 1.0 kg rods."""
BOOK_MOVE = ([-45.0 * pi / 180.0, 90.0 * pi / 180.0], [60.0 * pi / 180.0, -30.0 * pi / 180.0])


def _with(arm, label=None, **changes):
    """``arm`` with some fields changed (damping, gear ratio, gravity, ...)."""
    fields = arm.fields()
    fields.update(changes)
    return ArmData(label=label, **fields)


# ---------------------------------------------------------------- a two-link arm's dynamics
def _mass(arm, q):
    """M(q) from the kinetic energy: alpha + 2 beta cos q2, delta + beta cos q2, delta."""
    (L1, _), (m1, m2), (c1, c2), (I1, I2) = arm.lengths, arm.masses, arm.com, arm.inertia
    beta = m2 * L1 * c2
    delta = I2 + m2 * c2 * c2
    alpha = I1 + m1 * c1 * c1 + delta + m2 * L1 * L1
    k = beta * cos(q[1])
    return [[alpha + 2.0 * k, delta + k], [delta + k, delta]]


def _velocity(arm, q, qd):
    """c(q, qd) with h = m2 L1 lc2 sin q2."""
    h = arm.masses[1] * arm.lengths[0] * arm.com[1] * sin(q[1])
    return [-h * (2.0 * qd[0] * qd[1] + qd[1] * qd[1]), h * qd[0] * qd[0]]


def _gravity(arm, q):
    """g(q) = dV/dq, V = -sum m_i a . c_i, for any gravity vector a."""
    ax, ay = arm.gravity
    (L1, _), (m1, m2), (c1, c2) = arm.lengths, arm.masses, arm.com
    a1, a12 = q[0], q[0] + q[1]
    # d/dq of the centres of mass: c1 = c1 e(a1); c2 = L1 e(a1) + c2 e(a12), e' = (-sin, cos)
    d1 = [-sin(a1), cos(a1)]
    d12 = [-sin(a12), cos(a12)]
    elbow = -m2 * c2 * (ax * d12[0] + ay * d12[1])
    shoulder = -(m1 * c1 + m2 * L1) * (ax * d1[0] + ay * d1[1]) + elbow
    return [shoulder, elbow]


def _sign(x):
    return float((x > 0) - (x < 0))


def _friction(arm, qd, viscous_power=2, coulomb_power=1, sign=1.0):
    """What the motors spend on friction, at the joint: G^2 B qd + G Tc sign(qd)."""
    return [sign * (g ** viscous_power * b * v + g ** coulomb_power * tc * _sign(v))
            for b, tc, g, v in zip(arm.damping, arm.coulomb, arm.gear_ratio, qd)]


def _bias(arm, q, qd):
    """c + g + friction: the torque that is not M qdd."""
    return [a + b + c for a, b, c in zip(_velocity(arm, q, qd), _gravity(arm, q),
                                          _friction(arm, qd))]


def _requested(arm, q, qd, qdd):
    return [a + b for a, b in zip(matvec(_mass(arm, q), qdd), _bias(arm, q, qd))]


def _forward(arm, q, qd, tau):
    return solve(_mass(arm, q), [t - b for t, b in zip(tau, _bias(arm, q, qd))])


def _clip(tau, limit):
    return [min(max(t, -lim), lim) for t, lim in zip(tau, limit)]


def _scaled(tau, limit, cap=True, smallest=True):
    ratios = [lim / abs(t) for t, lim in zip(tau, limit) if t != 0.0]
    if not ratios:
        return list(tau)
    s = min(ratios) if smallest else max(ratios)
    if cap:
        s = min(s, 1.0)
    return [s * t for t in tau]


def _clipping_case(rng, arm, which, label=None, sign=None, tries=20):
    """A state and per-joint limits [N m] (to 0.01) that clip the joints in ``which`` only;
    with ``sign``, the clipped torques have that sign.

    Every requested torque must be at least 0.5 N m (room to clip, or not, clearly). A few
    draws of round numbers usually give one; an arm too light for the drawn ranges (no
    gravity, short links) gets a constructed request instead: target torques of the signs
    wanted, turned into an acceleration (to 0.5 rad/s²) with a margin for the rounding.
    """
    for _ in range(tries):
        q = rng.pose(2)
        qd = rng.vector(2, -2, 2, 0.5)
        qdd = rng.vector(2, -6, 6, 0.5, nonzero=True)
        tau = _requested(arm, q, qd, qdd)
        if min(abs(t) for t in tau) >= 0.5 and (
                sign is None or all(tau[j] * sign > 0 for j in which)):
            break
    else:
        q, qd, qdd, tau = _constructed_request(rng, arm, which, sign)
    limit = [round(abs(t) * (rng.uniform(0.5, 0.8, 0.05) if j in which
                             else rng.uniform(1.3, 2.0, 0.1)), 2) for j, t in enumerate(tau)]
    return Case(arm=arm, q=q, qd=qd, qdd_request=qdd, limit=limit, label=label)


def _constructed_request(rng, arm, which, sign):
    """A state whose requested torques are at least 0.5 N m, with ``sign`` on ``which``."""
    q = rng.pose(2)
    qd = rng.vector(2, -2, 2, 0.5)
    M = _mass(arm, q)
    bias = _bias(arm, q, qd)
    # rounding qdd to 0.5 (or moving a zero to +-0.5) changes tau_j by at most
    # 0.5 sum_k |M_jk|: aim that much beyond 0.5 N m
    margin = [0.5 + 0.5 * sum(abs(x) for x in row) for row in M]
    target = []
    for j in range(2):
        s = sign if (sign is not None and j in which) else rng.sign()
        target.append(s * (margin[j] + rng.uniform(0.5, 3.0, 0.5)))
    exact = solve(M, [t - b for t, b in zip(target, bias)])
    qdd = [round(2.0 * x) / 2.0 or (0.5 if x >= 0 else -0.5) for x in exact]
    return q, qd, qdd, _requested(arm, q, qd, qdd)


# ---------------------------------------------------------------- Part 1: realized acceleration
def _realized(arm, q, qd, qdd_request, limit, bound=None):
    tau = _requested(arm, q, qd, qdd_request)
    applied = bound(tau, limit) if bound else _clip(tau, limit)
    return _forward(arm, q, qd, applied)


@reference(worked=[Case(arm=RODS, q=deg(0, 0), qd=[0.0, 0.0], qdd_request=[1.0, 0.0],
                        limit=[20.0, 20.0], label="Example 1, the horizontal rods at 20 N m"),
                   Case(arm=FLAT_RODS, q=deg(0, 0), qd=[0.0, 0.0], qdd_request=[0.0, 2.0],
                        limit=[1.5, 1.5], label="Example 2, the elbow request at 1.5 N m")],
           allow=("inverse_dynamics", "forward_dynamics", "mass_matrix"),
           advice="request the torque by inverse dynamics, clip each joint to -limit..limit, "
                  "then let forward dynamics say what that torque does")
def realized_acceleration(arm, q, qd, qdd_request, limit):
    """The acceleration (2,) the arm gets when each motor clips the requested torque."""
    return _realized(arm, q, qd, qdd_request, limit)


@realized_acceleration.fresh
def _realized_cases(rng):
    # The first case clips a positive torque, the second a negative one, so that the hints
    # of "no clipping at all" and "clipping from above only" tell the two mistakes apart.
    return [_clipping_case(rng, arm, which, label, sign) for arm, which, label, sign in [
        (RODS, (0,), "a limit that clips the shoulder", 1.0),
        (RODS, (1,), "a limit that clips the elbow instead", -1.0),
        (rng.arm(), (0, 1), "a limit that clips both joints", None),
        (rng.arm(), (), "a limit that clips neither", None),
        (_with(rng.arm(), damping=(0.2, 0.1)), (0,), None, None),
        (rng.arm(gravity=0.0), (1,), "an arm without gravity", None)]]


@realized_acceleration.mistake("a torque limit bounds both directions: clip to -limit <= tau "
                               "<= limit, not only from above")
def _realized_upper_only(arm, q, qd, qdd_request, limit):
    return _realized(arm, q, qd, qdd_request, limit,
                     bound=lambda tau, lim: [min(t, m) for t, m in zip(tau, lim)])


@realized_acceleration.mistake("that is the requested acceleration: the arm gets the clipped "
                               "torque, so put that through forward dynamics")
def _realized_requested(arm, q, qd, qdd_request, limit):
    return list(qdd_request)


@realized_acceleration.mistake("every joint's acceleration changes, not only the clipped one's: "
                               "the joints are coupled through the whole mass matrix")
def _realized_diagonal(arm, q, qd, qdd_request, limit):
    tau = _requested(arm, q, qd, qdd_request)
    M = _mass(arm, q)
    return [a + (c - t) / M[j][j] for j, (a, c, t) in
            enumerate(zip(qdd_request, _clip(tau, limit), tau))]


@realized_acceleration.mistake("that scales the whole torque vector; this part clips each joint "
                               "on its own, as independent drives do")
def _realized_scaled(arm, q, qd, qdd_request, limit):
    return _realized(arm, q, qd, qdd_request, limit, bound=_scaled)


# ---------------------------------------------------------------- Part 2: the deficit check
@reference(worked=Case(arm=RODS, q=deg(0, 0), deficit=[20.0 - (8.0 / 3.0 + 19.62), 0.0],
                       label="Example 1's deficit at the horizontal rods"),
           allow=("mass_matrix",), units={"deficit": "N m"},
           advice="M (qdd_real - qdd_req) = tau_applied - tau_req: solve that 2 x 2 system")
def acceleration_error(arm, q, deficit):
    """qdd_real - qdd_req (2,) that a torque deficit causes: the solution of M e = deficit."""
    return solve(_mass(arm, q), deficit)


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
def _error_multiplied(arm, q, deficit):
    return matvec(_mass(arm, q), deficit)


@acceleration_error.mistake("dividing joint by joint ignores the coupling: the off-diagonal "
                            "entries of M spread one joint's deficit over both")
def _error_diagonal(arm, q, deficit):
    M = _mass(arm, q)
    return [d / M[j][j] for j, d in enumerate(deficit)]


@acceleration_error.mistake("right size, wrong sign: error = realized - requested and "
                            "deficit = applied - requested, in the same order")
def _error_negated(arm, q, deficit):
    return [-e for e in solve(_mass(arm, q), deficit)]


# ---------------------------------------------------------------- Part 3: scaling the vector
@reference(worked=Case(tau=[8.0 / 3.0 + 19.62, 5.0 / 6.0 + 4.905], limit=[20.0, 20.0],
                       label="Example 1's request under 20 N m"),
           advice="one factor s <= 1 for the whole vector: the smallest limit_j / |tau_j|")
def scale_torques(tau, limit):
    """s tau (2,), with the largest s <= 1 that brings every joint within its limit."""
    return _scaled(tau, limit)


@scale_torques.fresh
def _scale_cases(rng):
    def torque(lo, hi):
        return [rng.sign() * rng.uniform(lo, hi, 0.1) for _ in range(2)]

    big = torque(10, 30)
    return [Case(tau=big, limit=[8.0, 8.0]),
            Case(tau=[rng.uniform(1, 5, 0.1), -rng.uniform(12, 20, 0.1)], limit=[10.0, 10.0],
                 label="the elbow's negative torque binds"),
            Case(tau=torque(5, 15), limit=[rng.uniform(2, 4, 0.5), rng.uniform(6, 9, 0.5)],
                 label="different limits per joint"),
            Case(tau=torque(0.5, 4), limit=[5.0, 5.0], label="a request within the limits"),
            Case(tau=[0.0, rng.sign() * rng.uniform(6, 12, 0.1)], limit=[5.0, 5.0],
                 label="one joint without torque")]


@scale_torques.mistake("that clips each joint on its own; scaling multiplies the whole vector "
                       "by one factor, so the ratio between the joints stays")
def _scale_clipped(tau, limit):
    return _clip(tau, limit)


@scale_torques.mistake("a torque within its limits is left as it is: the factor is at most 1")
def _scale_uncapped(tau, limit):
    return _scaled(tau, limit, cap=False)


@scale_torques.mistake("the factor must bring every joint within its limit: take the smallest "
                       "ratio limit_j / |tau_j|, not the largest")
def _scale_largest(tau, limit):
    return _scaled(tau, limit, smallest=False)


# ---------------------------------------------------------------- Part 4: the shortest duration
_SAMPLES = 2001


def _path(arm, q_start, q_end, u):
    """The torque at the path point u as A x^2 + B x + C, x = 1/T: (A, B, C) per joint."""
    d = [b - a for a, b in zip(q_start, q_end)]
    s = u * u * u * (10.0 - 15.0 * u + 6.0 * u * u)
    q = [a + s * di for a, di in zip(q_start, d)]
    v = [30.0 * u * u * (1.0 - u) ** 2 * di for di in d]
    acc = [60.0 * u * (1.0 - u) * (1.0 - 2.0 * u) * di for di in d]
    A = [a + b for a, b in zip(matvec(_mass(arm, q), acc), _velocity(arm, q, v))]
    B = [g * g * b * vi for g, b, vi in zip(arm.gear_ratio, arm.damping, v)]
    C = [gr + g * tc * _sign(vi) for gr, g, tc, vi in
         zip(_gravity(arm, q), arm.gear_ratio, arm.coulomb, v)]
    return A, B, C


def _rise(a, b, d):
    """Smallest x >= 0 at which a x^2 + b x first exceeds d >= 0 (inf if never)."""
    disc = b * b + 4.0 * a * d
    if a > 0.0:
        root = sqrt(disc)
        return 2.0 * d / (b + root) if b > 0.0 else (root - b) / (2.0 * a)
    if a < 0.0:
        return 2.0 * d / (b + sqrt(disc)) if b > 0.0 and disc > 0.0 else inf
    return d / b if b > 0.0 else inf


def _exit(arm, q_start, q_end, limit, u):
    A, B, C = _path(arm, q_start, q_end, u)
    return min(min(_rise(a, b, lim - c), _rise(-a, -b, c + lim))
               for a, b, c, lim in zip(A, B, C, limit))


def _shortest(arm, q_start, q_end, limit):
    us = [k / (_SAMPLES - 1.0) for k in range(_SAMPLES)]
    exits = []
    for u in us:
        A, B, C = _path(arm, q_start, q_end, u)
        if any(abs(c) > lim for c, lim in zip(C, limit)):
            return inf                                   # gravity alone is too much
        exits.append(min(min(_rise(a, b, lim - c), _rise(-a, -b, c + lim))
                         for a, b, c, lim in zip(A, B, C, limit)))
    k = min(range(_SAMPLES), key=exits.__getitem__)
    if exits[k] == inf:
        return 0.0
    lo, hi = us[max(k - 1, 0)], us[min(k + 1, _SAMPLES - 1)]
    ratio = (sqrt(5.0) - 1.0) / 2.0
    c, d = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fc, fd = _exit(arm, q_start, q_end, limit, c), _exit(arm, q_start, q_end, limit, d)
    for _ in range(50):
        if fc <= fd:
            hi, d, fd = d, c, fc
            c = hi - ratio * (hi - lo)
            fc = _exit(arm, q_start, q_end, limit, c)
        else:
            lo, c, fc = c, d, fd
            d = lo + ratio * (hi - lo)
            fd = _exit(arm, q_start, q_end, limit, d)
    return 1.0 / min(exits[k], fc, fd)


def _floor(arm, q_start, q_end):
    """The largest |g_j| along the path, per joint (the torque no duration removes)."""
    top = [0.0, 0.0]
    for k in range(201):
        _, _, C = _path(arm, q_start, q_end, k / 200.0)
        top = [max(t, abs(c)) for t, c in zip(top, C)]
    return top


@reference(worked=Case(arm=TABLE_TOP, q_start=BOOK_MOVE[0], q_end=BOOK_MOVE[1],
                       limit=[8.0, 2.0], label="Example 3's move under (8, 2) N m"),
           allow=("quintic", "Quintic", "inverse_dynamics", "gravity_torques", "torque_parts",
                  "mass_matrix", "coriolis_torques"),
           rtol=1e-4,
           advice="at each point of the path tau = A / T^2 + g(q): the limit leaves |A| / T^2 "
                  "at most limit - g (or limit + g when A < 0); take the largest T over the "
                  "path and both joints")
def shortest_duration(arm, q_start, q_end, limit):
    """Shortest duration [s] of the quintic move within the limits; inf if gravity alone is
    too much."""
    return _shortest(arm, q_start, q_end, limit)


def _move(rng, arm, label=None):
    """A move whose limits leave room above gravity's torque along its path."""
    q_start, q_end = rng.pose(2), rng.pose(2)
    floor = _floor(arm, q_start, q_end)
    limit = [round(max(f, 1.0) * rng.uniform(1.3, 2.5, 0.1), 1) for f in floor]
    return Case(arm=arm, q_start=q_start, q_end=q_end, limit=limit, label=label)


@shortest_duration.fresh
def _shortest_cases(rng):
    return [_move(rng, arm, label) for arm, label in [
        (TABLE_TOP, None), (TABLE_TOP, None), (rng.arm(), None),
        (rng.arm(inertia=True), "links that are not uniform rods"),
        (rng.arm(gravity=0.0), "an arm without gravity")]]


@shortest_duration.fresh("too weak")
def _shortest_too_weak(rng):
    """A motor that cannot hold the arm on the way (np.inf), in a hidden cell of its own,
    then an ordinary move, so that np.inf alone earns nothing."""
    q_start, q_end = rng.pose(2), deg(rng.integer(-20, 20), rng.integer(-40, 40))
    floor = _floor(TABLE_TOP, q_start, q_end)
    return [Case(arm=TABLE_TOP, q_start=q_start, q_end=q_end,
                 limit=[round(0.8 * floor[0], 1), round(2.0 * floor[1] + 1.0, 1)],
                 label="a shoulder too weak to hold the arm on the way"),
            _move(rng, TABLE_TOP)]


def _peaks(arm, q_start, q_end, limit, with_gravity=True):
    """sqrt(max |A| / (limit - max |g|)) per joint: the peaks taken apart."""
    need = [0.0, 0.0]
    floor = [0.0, 0.0]
    for k in range(_SAMPLES):
        A, _, C = _path(arm, q_start, q_end, k / (_SAMPLES - 1.0))
        need = [max(n, abs(a)) for n, a in zip(need, A)]
        floor = [max(f, abs(c)) for f, c in zip(floor, C)]
    if not with_gravity:
        floor = [0.0, 0.0]
    if any(f >= lim for f, lim in zip(floor, limit)):
        return inf
    return sqrt(max(n / (lim - f) for n, f, lim in zip(need, floor, limit)))


@shortest_duration.mistake("gravity needs its torque at any speed: only limit - g(q) is left "
                           "for the motion, at every point of the path")
def _shortest_no_gravity(arm, q_start, q_end, limit):
    return _peaks(arm, q_start, q_end, limit, with_gravity=False)


@shortest_duration.mistake("the peaks of the motion's torque and of gravity's come at different "
                           "points of the path: compare the torque with the limit point by "
                           "point")
def _shortest_separate_peaks(arm, q_start, q_end, limit):
    return _peaks(arm, q_start, q_end, limit)


# ---------------------------------------------------------------- Part 5: payload capacity
def _capacity(arm, q, limit, load=None, subtract=True, mirror=True):
    """Per joint the largest k with g + k J^T F within +-limit; F holds 1 kg up by default."""
    ax, ay = arm.gravity
    F = [-ax, -ay] if load is None else load
    L1, L2 = arm.lengths
    a1, a12 = q[0], q[0] + q[1]
    tip = [L1 * cos(a1) + L2 * cos(a12), L1 * sin(a1) + L2 * sin(a12)]
    elbow = [L1 * cos(a1), L1 * sin(a1)]
    # moment of F at the tip about each joint: (tip - joint) x F
    t = [tip[0] * F[1] - tip[1] * F[0],
         (tip[0] - elbow[0]) * F[1] - (tip[1] - elbow[1]) * F[0]]
    g = _gravity(arm, q) if subtract else [0.0, 0.0]
    out = []
    for tj, gj, lim in zip(t, g, limit):
        if abs(tj) <= 1e-9:
            out.append(inf)
        elif tj > 0 or not mirror:
            out.append((lim - gj) / tj)
        else:
            out.append((-lim - gj) / tj)
    return out


@reference(worked=[Case(arm=RODS, q=deg(0, 0), limit=[25.0, 25.0],
                        label="Example 4, the horizontal rods at 25 N m"),
                   Case(arm=RODS, q=deg(0, 90), limit=[25.0, 25.0],
                        label="Example 4, the elbow bent up")],
           allow=("gravity_torques", "jacobian", "static_torques"),
           advice="k_j = (limit_j - g_j) / (J^T F)_j for the force F = -(1 kg) arm.gravity "
                  "that holds 1 kg up against gravity, with -limit_j where (J^T F)_j < 0")
def payload_capacity(arm, q, limit):
    """Per joint (2,), the mass [kg] at the tip the motor can hold on top of the arm; inf
    where the joint carries none of it."""
    return _capacity(arm, q, limit)


def _holding(rng, arm, q, label=None):
    """A pose and limits that hold the arm itself, with room to spare."""
    g = _gravity(arm, q)
    limit = [round(abs(gj) + rng.uniform(1.0, 12.0, 0.5), 1) for gj in g]
    return Case(arm=arm, q=q, limit=limit, label=label)


def _loaded_pose(rng, arm, tries=20):
    """A pose at which both joints carry a load at the tip (link 2 away from vertical):
    a few draws, then link 2 turned level (along the arm's floor) by construction."""
    along = (lambda a: cos(a)) if arm.gravity[0] == 0.0 else (lambda a: sin(a))
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
    wall = rng.arm(gravity=(-9.81, 0.0))
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


@payload_capacity.mistake("the motors already hold the arm itself: only limit - g(q) is left "
                          "for the payload")
def _capacity_no_gravity(arm, q, limit):
    return _capacity(arm, q, limit, subtract=False)


@payload_capacity.mistake("the unit load is the weight of 1 kg, g0 newtons, not 1 N: divide by "
                          "it to get kilograms")
def _capacity_newtons(arm, q, limit):
    return _capacity(arm, q, limit, load=[0.0, 1.0])


@payload_capacity.mistake("where (J^T F)_j is negative the load pushes joint j towards its "
                          "minimum: use -limit_j there")
def _capacity_one_sided(arm, q, limit):
    return _capacity(arm, q, limit, mirror=False)


# ---------------------------------------------------------------- Part 6: friction through a gear
GEARED = _with(RODS, damping=(2e-5, 2e-5), coulomb=(4e-3, 4e-3), gear_ratio=(50.0, 50.0),
               label="the rods driven by Example 5's motor through 50:1 gears")


@reference(worked=Case(arm=GEARED, qd=[2.0, -1.0], label="Example 5's geared motor"),
           advice="at the joint: G^2 B qd + G Tc sign(qd), with the motor-side B = arm.damping, "
                  "Tc = arm.coulomb and G = arm.gear_ratio")
def joint_friction(arm, qd):
    """Torque (2,) the motors spend on friction at joint speeds qd, referred to the joints."""
    return _friction(arm, qd)


@joint_friction.fresh
def _friction_cases(rng):
    def geared(ratios, label=None):
        return _with(RODS, damping=tuple(rng.uniform(1e-5, 1e-4, 1e-5) for _ in range(2)),
                     coulomb=tuple(rng.uniform(1e-3, 1e-2, 1e-3) for _ in range(2)),
                     gear_ratio=ratios, label=label)

    return [Case(arm=geared((rng.integer(20, 160), rng.integer(20, 160))),
                 qd=rng.vector(2, -5, 5, 0.5, nonzero=True)),
            Case(arm=geared((100.0, 30.0)), qd=rng.vector(2, -5, 5, 0.5, nonzero=True),
                 label="different gears at the two joints"),
            Case(arm=geared((1.0, 1.0), "a direct drive"), qd=rng.vector(2, -5, 5, 0.5,
                                                                           nonzero=True)),
            Case(arm=geared((80.0, 80.0)), qd=[0.0, rng.uniform(-3, 3, 0.5)],
                 label="the shoulder at rest"),
            Case(arm=geared((rng.integer(20, 160), 60.0)), qd=rng.vector(2, -5, 5, 0.5,
                                                                           nonzero=True))]


@joint_friction.mistake("viscous friction comes through the gear twice (the motor turns G times "
                        "faster and its torque counts G times): G^2 B, not G B")
def _friction_linear(arm, qd):
    return _friction(arm, qd, viscous_power=1)


@joint_friction.mistake("Coulomb friction does not grow with speed: it comes through the gear "
                        "once, G Tc")
def _friction_coulomb_squared(arm, qd):
    return _friction(arm, qd, coulomb_power=2)


@joint_friction.mistake("that is the friction torque itself, as Robotics Toolbox for Python returns it; "
                        "the book's term is what the motor spends to overcome it, with the sign "
                        "of qd")
def _friction_library_sign(arm, qd):
    return _friction(arm, qd, sign=-1.0)


@joint_friction.mistake("the joint turns G times slower than the motor: the gear multiplies the "
                        "motor's friction by G^2 and G, it does not divide")
def _friction_wrong_side(arm, qd):
    return _friction(arm, qd, viscous_power=-2, coulomb_power=-1)
