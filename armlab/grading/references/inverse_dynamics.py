"""Grading references for the inverse dynamics chapter's exercises (``solutions/inverse_dynamics``).

The references compute with armlab (``M``, ``c``, ``g``, the torque, the regressor and the
base parameters); the parts compose them with a decision or an analysis armlab does not
do in one call: the shoulder speed at which the elbow's velocity products match its
weight, the largest acceleration along a direction the motors allow, the force the base
carries while the arm moves (a two-link Newton-Euler recursion), the torque of an arm
carrying a payload from its base parameters, and the payload identified from a run. One
part, the mass matrix from the kinetic energy, asks for the body of an armlab function
(the chapter's core formula). The likely mistakes are the same compositions with a step
changed. The design part judges a student's identification tour by the torques it needs
and the standard errors of its fit.
"""

from functools import partial

import numpy as np

from armlab.grading.references import (Arm, Case, al, all_symbols, changed, deg, derivation,
                                       design, exact_draws, listed, planar_arm, reference)

RODS = Arm.from_arm(al.rod_arm(), "the chapter's unit rods")
"""The unit rods: two 1 m rods of 1 kg, uniform."""
TABLE_TOP = Arm.from_arm(al.tabletop_arm(), "the table-top arm of Example 4")
WALL_ARM = Arm.from_arm(al.mounted(al.tabletop_arm(), np.pi / 2),
                        "the table-top arm on a wall (gravity along -x)")
SIGMA = 0.05
"""The chapter's torque noise in identification (one standard deviation) [N m]."""
DEGREES_SLIP = "angles in radians converted again, as if they were degrees"
"""The conceptual slip two parts share (``slip=``): the payload torque's q and the
derivation's q2."""
FLOOR_G = (0.0, -9.81)
"""Gravity typed in, the floor's 9.81 m/s² along -y, where the part says arms on a wall or
the Moon are checked too (the trial class's literal student did, in Parts 2, 5 and 7)."""
TYPED_G_HINT = ("read gravity from arm.gravity, a 2-vector: the arm may be on a wall or on the "
                "Moon, not always on the floor with 9.81 m/s² along -y")
PAYLOAD_SLIP = "the payload taken to load link 2 only"
"""The conceptual slip Parts 6 and 7 share: Z1 and X1 left as they were (the trial class's
slip student wrote it in both)."""


def _rods(m2, **changes):
    """The unit rods with link 2 of mass ``m2`` (its inertia m2 L^2 / 12)."""
    return changed(RODS, masses=(1.0, m2), inertia=(1.0 / 12.0, m2 / 12.0), **changes)


def _other_arms(rng):
    """Arms the chapter does not work out: rods of another link-2 mass, a random
    arm of uniform rods, and one whose links are not uniform rods."""
    return [_rods(rng.uniform(0.5, 2.0, 0.1)), rng.arm(), rng.arm(inertia=True)]


# ---------------------------------------------------------------- two-link pieces (lists)
def _mass(arm, q, inertia=True, coupling=True, at_end=False):
    """M (2, 2); the mistakes: no inertias about the centres, no coupling, link 2's centre
    of mass at its end."""
    changes = {} if inertia else {"inertia": (0.0, 0.0)}
    if at_end:
        changes["com"] = (arm.com[0], arm.lengths[1])
    M = al.mass_matrix(planar_arm(arm, **changes), q)
    return listed(M if coupling else np.diag(np.diag(M)))


# ---------------------------------------------------------------- Part 1: M(q)
@reference(worked=Case(arm=RODS, q=deg(0, 0), label="the horizontal rods of Example 1"),
           advice="collect T: link 2's centre of mass moves with the elbow plus lc2 (qd1 + qd2) "
                  "across link 2, and each link turns at its own angular speed about its centre")
def mass_matrix(arm, q):
    """Mass matrix (2, 2) of a two-link arm [kg m^2]."""
    return _mass(arm, q)


@mass_matrix.fresh
def _mass_cases(rng):
    cases = [Case(arm=arm, q=rng.pose(2)) for arm in [RODS] + _other_arms(rng)]
    cases.append(Case(arm=rng.arm(inertia=True), q=deg(rng.integer(-170, 170), 180),
                      label="the elbow folded back"))
    cases.append(Case(arm=rng.arm(), q=deg(rng.integer(-170, 170), 0),
                      label="the arm stretched straight"))
    return cases


mass_matrix.mistakes_of(_mass, [
    ("each link also turns about its own centre of mass: add its moment of inertia arm.inertia[i] "
     "(I1 + I2 to M11, I2 to M12 and M22)", {"inertia": False}),
    ("the off-diagonal entries are missing: M12 = M21 = delta + beta cos q2 couples the two joints",
     {"coupling": False}),
    ("link 2's mass sits at its centre of mass, arm.com[1] from the elbow, not at the link's end",
     {"at_end": True}),
])


# ---------------------------------------------------------------- Part 2: a crossing speed
def _crossing(arm, q, root=True, row=1, weight=1, typed=False):
    """The shoulder speed [rad/s] at which the elbow's velocity-product torque, the elbow
    held still, equals the elbow's gravity torque in size: c2 = h qd1^2 against g2. The
    mistakes: no square root, the shoulder's row (both joints at that speed), the shoulder's
    gravity torque, gravity typed in (``FLOOR_G``)."""
    real = planar_arm(arm)
    c = al.coriolis_torques(real, q, [1.0, 1.0] if row == 0 else [1.0, 0.0])[row]
    weighed = planar_arm(arm, gravity=FLOOR_G) if typed else real
    ratio = abs(al.gravity_torques(weighed, q)[weight] / c)
    return float(np.sqrt(ratio) if root else ratio)


@reference(worked=[Case(arm=RODS, q=deg(30, -60), label="Example 3's bent rods"),
                   Case(arm=TABLE_TOP, q=deg(30, 45),
                        label="the table-top arm at its worked pose (Example 4)")],
           allow=("coriolis_torques", "gravity_torques"), units={"return": "rad/s"},
           advice="how does the elbow's velocity-product torque grow with the shoulder's "
                  "speed, and which gravity torque must it match?")
def crossing_speed(arm, q):
    """The shoulder speed [rad/s], elbow still, at which |c2| = |g2| at pose q."""
    return _crossing(arm, q)


def _crossing_pose(rng, arm):
    """A pose whose elbow is bent by 30 to 150 degrees either way and whose link 2 points
    at least 25 degrees away from gravity's line (so that neither torque is small)."""
    bend = [d for d in range(-150, 151) if abs(d) >= 30]
    across = [d for d in range(-180, 180) if abs(np.sin(np.radians(d))) >= np.sin(np.radians(25))]
    up = np.degrees(np.arctan2(-arm.gravity[1], -arm.gravity[0]))
    q2 = rng.choice(bend)
    link2 = up + rng.choice(across)                 # link 2's absolute angle [deg]
    return [float(np.radians(((link2 - q2 + 180) % 360) - 180)), float(np.radians(q2))]


@crossing_speed.fresh
def _crossing_cases(rng):
    cases = [Case(arm=arm, q=_crossing_pose(rng, arm)) for arm in [RODS] + _other_arms(rng)]
    wall = rng.arm(gravity=(-9.81, 0.0))
    cases.append(Case(arm=wall, q=_crossing_pose(rng, wall), label="an arm mounted on a wall"))
    moon = rng.arm(gravity=1.62)
    cases.append(Case(arm=moon, q=_crossing_pose(rng, moon), label="an arm on the Moon"))
    return cases


crossing_speed.mistakes_of(_crossing, [
    ("the torques match at that ratio of their sizes, but the velocity-product torque grows "
     "with the square of the shoulder's speed", {"root": False}),
    ("that is the shoulder's velocity-product torque: the part asks for the elbow's, with the "
     "elbow held still", {"row": 0}),
    ("that is the shoulder's gravity torque: the elbow's velocity-product torque must match the "
     "elbow's", {"weight": 0}),
    (TYPED_G_HINT, {"typed": True}),
])


# ---------------------------------------------------------------- Part 3: the largest acceleration
def _reserve(arm, q, qd, direction, tip_force, limit, base=True, both=True, speed=True):
    """The largest s >= 0 for which the torque of qdd = s direction, at the state and tip
    force, stays within +-limit at both joints. tau(s) = tau(0) + s M direction; the mistakes:
    tau(0) left out (``base``), only +limit (``both``), tau(0) of the arm at rest (``speed``)."""
    real, d = planar_arm(arm), np.asarray(direction, dtype=float)
    still = qd if speed else [0.0, 0.0]
    tau0 = al.inverse_dynamics(real, q, still, [0.0, 0.0], tip_force) if base else np.zeros(2)
    per = al.mass_matrix(real, q) @ d
    lim = np.asarray(limit, dtype=float)
    bounds = []
    for j in np.flatnonzero(per):
        if both:
            bounds.append(((lim[j] if per[j] > 0 else -lim[j]) - tau0[j]) / per[j])
        else:
            bounds.append((lim[j] - tau0[j]) / abs(per[j]))
    return float(min(bounds))


MOVING = changed(RODS, damping=0.2, label="the chapter's rods with damping 0.2 N m s/rad")


@reference(worked=[Case(arm=MOVING, q=deg(30, 60), qd=[1.0, -0.5], direction=[1.0, -1.0],
                        tip_force=[0.0, 0.0], limit=[25.0, 4.0],
                        label="the moving bent arm of Example 2, motors of (25, 4) N m"),
                   Case(arm=RODS, q=deg(0, 0), qd=[0.0, 0.0], direction=[-1.0, 2.0],
                        tip_force=[0.0, -5.0], limit=[12.0, 3.0],
                        label="Example 1's supported tip pressing down with 5 N, motors of "
                              "(12, 3) N m")],
           allow=("inverse_dynamics", "mass_matrix"),
           units={"direction": "rad/s²"},
           advice="how does each joint's torque change as the acceleration grows along the "
                  "direction, from what the state already needs? Each motor pushes both ways")
def largest_acceleration(arm, q, qd, direction, tip_force, limit):
    """The largest s >= 0 [1] with |tau_j| <= limit_j for qdd = s direction at (q, qd)."""
    return _reserve(arm, q, qd, direction, tip_force, limit)


@largest_acceleration.fresh
def _reserve_cases(rng):
    def state(arm, label=None, force=True):
        damped = changed(arm, damping=rng.uniform(0.1, 0.5, 0.05))
        q, qd = rng.pose(2), rng.vector(2, -2, 2, 0.5, nonzero=True)
        tip = rng.vector(2, -10, 10, 1, nonzero=True) if force else [0.0, 0.0]
        tau0 = al.inverse_dynamics(planar_arm(damped), q, qd, [0.0, 0.0], tip)
        limit = [float(np.ceil(abs(t) + rng.uniform(1.0, 8.0, 0.5))) for t in tau0]
        return Case(arm=damped, q=q, qd=qd, direction=rng.vector(2, -2, 2, 0.5, nonzero=True),
                    tip_force=tip, limit=limit, label=label)

    cases = [state(arm) for arm in [RODS] + _other_arms(rng)]
    cases.append(state(rng.arm(gravity=(-9.81, 0.0)), label="an arm mounted on a wall"))
    cases.append(state(rng.arm(), force=False, label="no tip force"))
    return cases


largest_acceleration.mistakes_of(_reserve, [
    ("the state needs torque before any acceleration: gravity, the velocity products, friction "
     "and the tip force take part of each motor's limit", {"base": False}),
    ("each motor pushes both ways: a joint whose torque falls as the acceleration grows meets "
     "-limit, not +limit", {"both": False}),
    ("the arm is moving: the torque at zero acceleration includes the velocity products and "
     "friction at the state's speeds", {"speed": False}),
])


# ---------------------------------------------------------------- Part 4: dE/dt
def _energy_rate(arm, q, qd, qdd, mdot=1.0, friction=0.0):
    """qd . (M qdd + mdot c + g + friction B qd): qd^T (dM/dt) qd / 2 = qd . c, since
    dM/dt - 2C is skew-symmetric."""
    real = planar_arm(arm)
    return float(np.dot(qd, al.mass_matrix(real, q) @ qdd + al.gravity_torques(real, q)
                        + mdot * al.coriolis_torques(real, q, qd)
                        + friction * al.friction_torques(real, qd)))


BENT = changed(RODS, damping=0.25, label="the chapter's rods with damping 0.25 N m s/rad")


@reference(worked=Case(arm=BENT, q=deg(30, -60), qd=[1.0, -0.5], qdd=[0.5, -1.0],
                       label="Example 3's bent and moving rods"),
           allow=("gravity_torques",), uses={"mass_matrix": mass_matrix},
           advice="dE/dt = qd . M qdd + qd . (dM/dt) qd / 2 + qd . g(q); only q2 changes M")
def energy_rate(arm, q, qd, qdd):
    """Rate of change [W] of the arm's mechanical energy T + V."""
    return float(al.power_balance(planar_arm(arm), q, qd, qdd).energy_rate)


@energy_rate.fresh
def _energy_cases(rng):
    cases = []
    for arm in [BENT] + _other_arms(rng):
        damped = changed(arm, damping=rng.uniform(0.05, 0.5, 0.05))
        cases.append(Case(arm=damped, q=rng.pose(2), qd=rng.vector(2, -2, 2, 0.5, nonzero=True),
                          qdd=rng.vector(2, -3, 3, 0.5)))
    cases.append(Case(arm=rng.arm(gravity=0.0), q=rng.pose(2),
                      qd=rng.vector(2, -2, 2, 0.5, nonzero=True), qdd=[0.0, 0.0],
                      label="no gravity, no acceleration: only dM/dt changes T"))
    return cases


energy_rate.mistakes_of(_energy_rate, [
    ("T changes also because M changes with q2: add qd . (dM/dt) qd / 2", {"mdot": 0.0}),
    ("the derivative of qd^T M qd / 2 brings qd^T (dM/dt) qd with a factor 1/2", {"mdot": 2.0}),
    ("that is the motors' power tau . qd: the energy rises by that less the friction loss qd . B "
     "qd", {"friction": 1.0}),
])


# ---------------------------------------------------------------- Part 5: the base's force
def _cross(a, b):
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _recursion(arm, q, qd, qdd, base_sign=1.0, centripetal=-1.0, pass_moment=True):
    """Two-link Newton-Euler, motion outwards and forces inwards: (tau (2,), the force the
    base applies to link 1 (2,)). The base accelerates at -base_sign gravity; a point at r on
    a link turning at w, wd accelerates at wd r n + centripetal w^2 r e beyond its joint."""
    L, lc, m, inertia = (np.asarray(x, float) for x in (arm.lengths, arm.com, arm.masses,
                                                        arm.inertia))
    phi, w, wd = (np.cumsum(x) for x in (q, qd, qdd))
    e = np.stack([np.cos(phi), np.sin(phi)], axis=-1)              # along each link
    n = np.stack([-e[:, 1], e[:, 0]], axis=-1)                     # across it
    turn = wd[:, None] * n + centripetal * w[:, None] ** 2 * e     # per metre along the link
    joint = -base_sign * np.asarray(arm.gravity) + np.cumsum(L[:, None] * turn, 0) - L[:, None] * turn
    force_c = m[:, None] * (joint + lc[:, None] * turn)            # m_i a_ci
    force, moment, tau = np.zeros(2), 0.0, [0.0, 0.0]
    for i in (1, 0):
        passed = _cross(L[i] * e[i], force) if pass_moment else 0.0
        moment = inertia[i] * wd[i] + _cross(lc[i] * e[i], force_c[i]) + moment + passed
        force = force_c[i] + force
        tau[i] = float(moment)
    return tau, force


def _base_force(arm, q, qd, qdd, base_sign=1.0, centripetal=-1.0, link1=True, at_end=False,
                sign=1.0, floor=False):
    """The force [N] the base applies to link 1 at the shoulder while the arm moves; the
    mistakes: gravity's sign, the centripetal term's, link 1's mass left out, link 2's mass at
    its end, the force the arm applies to the base, gravity typed in along -y whatever
    ``arm.gravity`` is (``floor``)."""
    changes = {} if link1 else {"masses": (0.0, arm.masses[1])}
    if floor:
        changes["gravity"] = FLOOR_G
    if at_end:
        changes["com"] = (arm.com[0], arm.lengths[1])
    data = changed(arm, **changes) if changes else arm
    return listed(sign * _recursion(data, q, qd, qdd, base_sign, centripetal)[1])


@reference(worked=[Case(arm=TABLE_TOP, q=deg(30, 45), qd=[1.0, 2.0], qdd=[3.0, -2.0],
                        label="the table-top arm's worked instant (Example 4)"),
                   Case(arm=WALL_ARM, q=deg(30, 45), qd=[1.0, 2.0], qdd=[3.0, -2.0],
                        label="the same instant with the arm on a wall")],
           units={"return": "N"},
           advice="outwards: each link's angular and linear accelerations, the base "
                  "accelerating at -arm.gravity; then, of the forces the links pass inwards, "
                  "which one does the base apply?")
def base_force(arm, q, qd, qdd):
    """The force (2,) [N] the base applies to link 1 at the shoulder, world frame."""
    return _base_force(arm, q, qd, qdd)


@base_force.fresh
def _base_cases(rng):
    def state(arm, label=None):
        return Case(arm=arm, q=rng.pose(2), qd=rng.vector(2, -3, 3, 0.5, nonzero=True),
                    qdd=rng.vector(2, -3, 3, 0.5, nonzero=True), label=label)

    cases = [state(arm) for arm in [TABLE_TOP] + _other_arms(rng)]
    cases.append(state(rng.arm(gravity=(-9.81, 0.0)), label="an arm mounted on a wall"))
    cases.append(state(rng.arm(gravity=0.0), label="an arm without gravity"))
    return cases


base_force.mistakes_of(_base_force, [
    ("gravity's sign: let the base accelerate upwards, a0 = -gravity, so that the base carries "
     "the links' weight", {"base_sign": -1.0}),
    ("the centripetal acceleration of a point at r on a link turning at w points inwards, towards "
     "the joint: -w^2 r e", {"centripetal": 1.0}),
    ("link 1 has mass too: f_1 = m_1 a_c1 + f_2", {"link1": False}),
    ("link 2's mass sits at its centre of mass, arm.com[1] from the elbow, not at the link's end",
     {"at_end": True}),
    ("right size, wrong sign: that is the force the arm applies to the base; the part asks for "
     "the force the base applies to link 1", {"sign": -1.0}),
    ("read gravity from arm.gravity, a 2-vector: the base accelerates at -arm.gravity, along +x "
     "on a wall, not always up along y", {"floor": True}),
])


# ---------------------------------------------------------------- Part 6: a payload's torque
def _loaded(arm, q, qd, qdd, payload, link1=True, at_com=False, squared=True, load=True,
            degrees=False):
    """Y (theta + payload v) with v = (L1^2, L1, L2^2, L2), the base parameters' change per kg
    at the tip; the mistakes: v without link 1's entries, the payload at link 2's centre of
    mass, Z2 changed by payload L2, no payload, q converted from degrees."""
    real = planar_arm(arm, damping=0.0, coulomb=0.0)
    L1, L2 = arm.lengths
    r = arm.com[1] if at_com else L2
    v = np.array([L1**2 if link1 else 0.0, L1 if link1 else 0.0, r**2 if squared else r, r])
    Y = al.dynamics_regressor(real, np.radians(q) if degrees else q, qd, qdd)
    return listed(Y @ (al.base_parameters(real) + (payload if load else 0.0) * v))


@reference(worked=[Case(arm=TABLE_TOP, q=deg(30, 45), qd=[1.0, 2.0], qdd=[3.0, -2.0],
                        payload=0.5,
                        label="Example 5's instant, the table-top arm carrying 0.5 kg"),
                   Case(arm=WALL_ARM, q=deg(30, 45), qd=[1.0, 2.0], qdd=[3.0, -2.0],
                        payload=0.2,
                        label="the same instant on a wall, carrying 0.2 kg")],
           allow=("dynamics_regressor", "base_parameters"),
           units={"return": "N m"},
           advice="which of Z1, X1, Z2, X2 does a point mass at the tip change, and by how "
                  "much? Each lumps the mass beyond its link at the link's far end")
def loaded_torque(arm, q, qd, qdd, payload):
    """M qdd + c + g (2,) [N m] of the arm carrying a point mass ``payload`` [kg] at its tip."""
    return _loaded(arm, q, qd, qdd, payload)


@loaded_torque.fresh
def _loaded_cases(rng):
    def state(arm, label=None):
        return Case(arm=arm, q=rng.pose(2), qd=rng.vector(2, -3, 3, 0.5, nonzero=True),
                    qdd=rng.vector(2, -3, 3, 0.5, nonzero=True),
                    payload=rng.uniform(0.1, 2.0, 0.1), label=label)

    return [state(RODS), state(rng.arm()), state(rng.arm(inertia=True)),
            state(rng.arm(gravity=(0.0, 9.81)), label="an arm hanging from a ceiling"),
            state(rng.arm(gravity=0.0), label="an arm without gravity"),
            state(rng.arm(gravity=1.62), label="an arm on the Moon")]


loaded_torque.mistakes_of(_loaded, [
    ("the payload also loads link 1: Z1 and X1 lump every mass beyond link 1 at the elbow",
     {"link1": False}, PAYLOAD_SLIP),
    ("the payload sits at the tip, arm.lengths[1] from the elbow, not at link 2's centre of mass",
     {"at_com": True}),
    ("a point mass m at distance r adds m r^2 to a moment of inertia about the joint, m r to the "
     "first moment", {"squared": False}),
    ("that is the empty arm's torque: the payload is missing", {"load": False}),
    ("angles are in radians: q needs no conversion", {"degrees": True}, DEGREES_SLIP),
])


# ---------------------------------------------------------------- Part 7: identify a payload
def tour(poses, duration, dt=1e-3):
    """The tour through ``poses`` (m, 2): m - 1 rest-to-rest quintics of equal time in
    ``duration``, sampled every ``dt`` from each leg's start: (q, qd, qdd), each (N, 2)."""
    poses = np.asarray(poses, float)
    leg = duration / (len(poses) - 1)
    x = np.arange(0.0, leg, dt) / leg
    s = np.array([10 * x**3 - 15 * x**4 + 6 * x**5, (30 * x**2 - 60 * x**3 + 30 * x**4) / leg,
                  (60 * x - 180 * x**2 + 120 * x**3) / leg**2])         # (3, samples)
    step = np.diff(poses, axis=0)                                       # (legs, 2)
    q, qd, qdd = (start + step[:, None, :] * s[k][None, :, None]
                  for k, start in enumerate([poses[:-1, None, :], 0.0, 0.0]))
    return tuple(x.reshape(-1, 2) for x in (q, qd, qdd))


def _payload(arm, q, qd, qdd, tau, rows=(0, 1), mismatched=False, at_com=False, link1=True,
             empty=True, typed=False):
    """The least-squares payload [kg] at the tip: the torques less the empty arm's, Y theta,
    against Y v, v = (L1^2, L1, L2^2, L2); the mistakes: the shoulder's rows only, the torques
    stacked joint by joint, the payload at link 2's centre of mass, v without link 1's
    entries, the empty arm's torques not taken off, the payload's column written from the
    chapter's Y with gravity typed in (``FLOOR_G``)."""
    real = planar_arm(arm, damping=0.0, coulomb=0.0)
    Y, tau = al.dynamics_regressor(real, q, qd, qdd), np.asarray(tau, float)
    Yv = (al.dynamics_regressor(planar_arm(arm, damping=0.0, coulomb=0.0, gravity=FLOOR_G),
                                q, qd, qdd) if typed else Y)
    L1, L2 = arm.lengths
    r = arm.com[1] if at_com else L2
    v = np.array([L1**2 if link1 else 0.0, L1 if link1 else 0.0, r**2, r])
    rest = tau - Y @ al.base_parameters(real) if empty else tau
    x, y = (Yv @ v)[:, list(rows)], rest[:, list(rows)]
    x, y = x.reshape(-1), (y.T if mismatched else y).reshape(-1)
    return float(x @ y / (x @ x))


def _loaded_run(rng, arm, payload, legs, duration, noise, dt=0.02):
    """A tour of ``legs`` quintics through random poses, every ``dt``, and the rigid-body
    torques of ``arm`` carrying ``payload`` at its tip, with round noise of at most ``noise``
    [N m]."""
    poses = [rng.pose(2, -150, 150) for _ in range(legs + 1)]
    q, qd, qdd = tour(poses, duration, dt)
    tau = al.rnea(planar_arm(arm, damping=0.0, coulomb=0.0).with_payload(payload), q, qd, qdd)
    noisy = [[t + rng.uniform(-noise, noise, 0.001) for t in row] for row in tau.tolist()]
    return dict(q=listed(q), qd=listed(qd), qdd=listed(qdd), tau=noisy)


BOOK_TOUR = np.radians([[-45, 90], [60, -30], [150, 60], [30, -120], [-45, 90]])
"""Example 6's tour."""


def _book_run(payload=0.5):
    """Example 6's tour every 20 ms on the table-top arm without friction carrying
    ``payload`` at its tip, with the chapter's noise drawn from numpy's generator started
    at 0."""
    q, qd, qdd = tour(BOOK_TOUR, 3.2, 0.02)
    tau = al.rnea(al.tabletop_arm().with_payload(payload), q, qd, qdd)
    tau = tau + np.random.default_rng(0).normal(0.0, SIGMA, tau.shape)
    return dict(q=listed(q), qd=listed(qd), qdd=listed(qdd), tau=listed(tau.round(4)))


def _rods_run(payload=0.2):
    """Example 6's tour run in 2 s every 40 ms on the unit rods carrying ``payload``,
    measured without noise (to 4 decimals)."""
    q, qd, qdd = tour(BOOK_TOUR, 2.0, 0.04)
    tau = al.rnea(al.rod_arm().with_payload(payload), q, qd, qdd)
    return dict(q=listed(q), qd=listed(qd), qdd=listed(qdd), tau=listed(tau.round(4)))


@reference(worked=[Case(arm=TABLE_TOP, label="Example 6's tour every 20 ms, the table-top arm "
                                             "without friction carrying 0.5 kg, noise 0.05 N m",
                        **_book_run()),
                   Case(arm=RODS, label="the same tour in 2 s every 40 ms, the unit rods "
                                        "carrying 0.2 kg, no noise", **_rods_run())],
           allow=("dynamics_regressor", "base_parameters"), units={"return": "kg"},
           advice="the arm's own base parameters are known: what is left of the torques, and "
                  "how does it scale with the payload's mass? Use every sample of both joints")
def payload_from_run(arm, q, qd, qdd, tau):
    """The least-squares mass [kg] of a point payload at the tip of ``arm`` (its data without
    the payload) from the torques ``tau`` (N, 2) measured along a run."""
    return _payload(arm, q, qd, qdd, tau)


@payload_from_run.fresh
def _payload_cases(rng):
    cases = []
    for arm, where in [(TABLE_TOP, "the table-top arm"), (rng.arm(inertia=True), "another arm"),
                       (rng.arm(gravity=(-9.81, 0.0)), "an arm on a wall"),
                       (rng.arm(gravity=1.62), "an arm on the Moon")]:
        legs, duration = rng.integer(3, 5), rng.uniform(2.0, 3.0, 0.5)
        payload = rng.uniform(0.1, 2.0, 0.1)
        cases.append(Case(arm=arm, label=f"a {duration:g} s tour of {legs} legs every 20 ms "
                                         f"on {where} carrying a payload, noise of up to "
                                         f"0.05 N m",
                          **_loaded_run(rng, arm, payload, legs, duration, SIGMA)))
    arm = rng.arm()
    cases.append(Case(arm=arm, label="a 2 s tour of 3 legs carrying a payload, measured "
                                     "without noise",
                      **_loaded_run(rng, arm, rng.uniform(0.1, 2.0, 0.1), 3, 2.0, 0.0)))
    return cases


payload_from_run.mistakes_of(_payload, [
    ("that fits the shoulder's torques only: the elbow's torques carry the payload too, stack "
     "both joints' rows", {"rows": (0,)}),
    ("each row must meet its own torque: stack the samples' (2,) rows in the same order for the "
     "model and the torques", {"mismatched": True}),
    ("the payload sits at the tip, arm.lengths[1] from the elbow, not at link 2's centre of mass",
     {"at_com": True}),
    ("the payload also loads link 1: Z1 and X1 lump every mass beyond link 1 at the elbow",
     {"link1": False}, PAYLOAD_SLIP),
    ("the torques also hold the empty arm: take off what the arm's own parameters need first",
     {"empty": False}),
    (TYPED_G_HINT, {"typed": True}),
])


# ---------------------------------------------------------------- Part 8: design a tour
TOUR_DT = 1e-2
"""The tour's samples are this far apart [s] (Example 6's 1 ms would send the grader's proxied
calls arrays past their size limit)."""


def _peak(arm, poses, duration, dt=TOUR_DT):
    """The tour's largest |tau_j| (2,) [N m] on ``arm`` (an armlab arm)."""
    return np.abs(al.inverse_dynamics(arm, *tour(poses, duration, dt))).max(axis=0)


def tour_outcome(arm, poses, duration):
    """What a tour does on ``arm`` (an armlab arm): its peak |tau_j| (2,) [N m] and the
    standard errors of the fitted base parameters relative to their true values (4,)."""
    q, qd, qdd = tour(poses, duration, TOUR_DT)
    peak = np.abs(al.inverse_dynamics(arm, q, qd, qdd)).max(axis=0)
    Y = al.dynamics_regressor(arm, q, qd, qdd).reshape(-1, 4)
    info = Y.T @ Y
    if np.linalg.cond(info) > 1e12:
        return peak, np.full(4, np.inf)
    se = SIGMA * np.sqrt(np.diag(np.linalg.inv(info)))
    return peak, se / np.abs(al.base_parameters(arm))


CROSS = np.array([[0, 0], [1, -1], [-1, 1], [1, 1], [-1, -1], [0, 0]], float)
"""Both joints swing both ways, in every combination of directions."""


def good_tour(arm, limit, duration):
    """A good tour: CROSS scaled (by bisection) as far as the torques
    stay within 95 % of the limits. Returns its poses and its outcome."""
    low, high = 0.0, np.pi
    for _ in range(11):
        mid = 0.5 * (low + high)
        fine = (_peak(arm, mid * CROSS, duration) / limit).max() <= 0.95
        low, high = (mid, high) if fine else (low, mid)
    return low * CROSS, tour_outcome(arm, low * CROSS, duration)


def _tour_case(arm, limit, duration, label):
    """A case whose spec is 1.5 times the largest relative standard error of the good tour,
    rounded up to two significant digits."""
    worst = good_tour(planar_arm(arm), np.asarray(limit), duration)[1][1].max()
    scale = 10.0 ** (np.floor(np.log10(1.5 * worst)) - 1)
    return Case(arm=arm, limit=list(limit), duration=duration,
                rel_max=float(f"{np.ceil(1.5 * worst / scale) * scale:.2g}"), label=label)


@design(worked=_tour_case(TABLE_TOP, (12.0, 3.0), 3.2,
                          "the table-top arm, motors of (12, 3) N m, a 3.2 s tour"),
        allow=("quintic", "inverse_dynamics", "dynamics_regressor", "base_parameters"),
        units={"duration": "s"},
        advice="a tour must accelerate both links both ways and turn link 2 through gravity, "
               "as hard as the motors allow")
def identification_tour(arm, limit, duration, rel_max, answer):
    """Judge a tour's via poses (m, 2) [rad]: its torques against ``limit`` (every 10 ms),
    and the largest standard error of its fitted base parameters, relative to their true
    values, against ``rel_max``."""
    poses = np.asarray(answer, dtype=float)
    if poses.ndim != 2 or poses.shape[1] != 2 or not 2 <= len(poses) <= 21:
        return 0.0, f"the tour has shape {poses.shape}: expected 2 to 21 poses, (m, 2)"
    if not np.isfinite(poses).all():
        return 0.0, "the tour holds a pose that is not a finite number"
    peak, rel = tour_outcome(planar_arm(arm), poses, duration)
    over = (peak / np.asarray(limit)).max()
    worst = int(np.argmax(rel))
    torque = float(np.clip((1.2 - over) / 0.2, 0.0, 1.0)) if over > 1 else 1.0
    fit = float(np.clip(2.0 - rel[worst] / rel_max, 0.0, 1.0))
    j = int(np.argmax(peak / np.asarray(limit)))
    words = [f"it needs {peak[j]:.2f} N m at the {('shoulder', 'elbow')[j]}, "
             + (f"{100 * (over - 1):.1f}% over its limit of {limit[j]:g} N m" if over > 1
                else f"within its limit of {limit[j]:g} N m")]
    if not np.isfinite(rel[worst]):
        words.append("YᵀY is singular: the tour cannot tell every base parameter apart")
    else:
        words.append(f"the largest relative standard error, {('Z1', 'X1', 'Z2', 'X2')[worst]}'s, "
                     f"is {100 * rel[worst]:.3g}%, " + (
                         f"{100 * (rel[worst] / rel_max - 1):.0f}% over" if rel[worst] > rel_max
                         else "within") + f" the spec of {100 * rel_max:.3g}%")
    return torque * fit, "; ".join(words)


@identification_tour.fresh
def _tour_cases(rng):
    cases = []
    for arm, where in [(TABLE_TOP, ""), (rng.arm(), ""), (rng.arm(inertia=True), ""),
                       (rng.arm(gravity=(-9.81, 0.0)), " on a wall")]:
        a, b = np.hypot(*arm.gravity) * al.base_parameters(planar_arm(arm))[[1, 3]]
        limit = [0.5 * np.ceil(2 * rng.uniform(1.4, 2.5, 0.1) * (a + b)),
                 0.5 * np.ceil(2 * rng.uniform(1.6, 3.0, 0.1) * b)]
        duration = rng.uniform(2.0, 4.0, 0.5)
        cases.append(_tour_case(arm, limit, duration,
                                f"a {duration:g} s tour{where}, motors of ({limit[0]:g}, "
                                f"{limit[1]:g}) N m"))
    return cases


# ---------------------------------------------------------------- Part 10: a derivation
ROTOR_PARAMS = ("q1", "q2", "L1", "L2", "m1", "m2", "J", "r")


def _rotor_mass_matrix(q1, q2, L1, L2, m1, m2, J, r, *, rotor="both", ratio=2, sign=1,
                       cross=2, angle="relative", halve=False, elbow=True, degrees=False):
    """M(q) of two point masses (m1 at the elbow, m2 at the tip) with the elbow motor's
    rotor (inertia J, gear ratio r) carried on link 1, from T; the switches make a likely
    mistake."""
    import sympy

    c = sympy.cos((q1 + q2) if angle == "absolute" else q2 * sympy.pi / 180 if degrees
                  else q2)
    a, b = (1, r) if rotor == "both" else (0, r)       # rotor speed a q1d + b q2d
    m11 = (m1 * L1 ** 2 if elbow else 0) + m2 * (L1 ** 2 + L2 ** 2 + sign * cross * L1 * L2 * c) \
        + a * a * J
    m12 = m2 * (L2 ** 2 + sign * L1 * L2 * c) + a * b * J
    m22 = m2 * L2 ** 2 + (b ** ratio) * J
    if halve:
        m11, m22 = m11 / 2, m22 / 2
    return sympy.Matrix([[m11, m12], [m12, m22]])


@derivation(worked=all_symbols(ROTOR_PARAMS),
            advice="write T = 1/2 m1 |v_elbow|^2 + 1/2 m2 |v_tip|^2 + 1/2 J omega_rotor^2 and "
                   "take M_ij as the coefficient of qd_i qd_j (twice it on the diagonal)")
def rotor_mass_matrix(q1, q2, L1, L2, m1, m2, J, r):
    """M(q) (2, 2) of the point-mass arm with its elbow motor's rotor, as SymPy."""
    return _rotor_mass_matrix(q1, q2, L1, L2, m1, m2, J, r)


@rotor_mass_matrix.fresh
def _(rng):
    drawn, frac = exact_draws(rng, ROTOR_PARAMS)
    return [drawn("another arm", L1=frac(3, 9, 10), L2=frac(2, 8, 10), m1=frac(5, 40, 10),
                  m2=frac(5, 30, 10), J=frac(1, 9, 10_000), r=rng.integer(20, 120)),
            drawn("another arm without its rotor", L1=frac(3, 9, 10), L2=frac(2, 8, 10),
                  J=0),
            drawn("a direct drive", m1=frac(5, 40, 10), r=1),
            drawn("all symbols")]


rotor_mass_matrix.mistakes_of(_rotor_mass_matrix, [
    ("the rotor rides on link 1 and turns with it: its angular velocity is qd1 + r qd2, "
     "not r qd2 alone", {"rotor": "joint"}),
    ("the rotor's energy is 1/2 J omega^2: the gear ratio enters M22 squared",
     {"ratio": 1}),
    ("the sign of the cos q2 terms: |v_tip|^2 holds + 2 L1 L2 cos(q2) qd1 (qd1 + qd2), the "
     "two links' velocities adding at the angle q2 between them", {"sign": -1}),
    ("M11's cos q2 term: the square |v_tip|^2 holds the cross product twice, 2 L1 L2 cos q2",
     {"cross": 1}),
    ("the angle between the links is q2 (measured from link 1), not q1 + q2",
     {"angle": "absolute"}),
    ("q2 is in radians: sympy's cos takes radians", {"degrees": True}, DEGREES_SLIP),
    ("T = 1/2 qd^T M qd: M's diagonal entries are twice the coefficients of qd1^2 and qd2^2 "
     "in T", {"halve": True}),
    ("the elbow's mass m1 moves too: it adds 1/2 m1 L1^2 qd1^2 to T", {"elbow": False}),
])


# ---------------------------------------------------------------- Part 11: the slip in a torque
SLIPS = ("none", "J F for J^T F", "the tip force's sign", "gravity's sign", "friction's sign")
"""The slips a claimed torque may have, by the number the part asks for."""


def _slipped_torque(arm, q, qd, qdd, tip_force, slip=0):
    """tau = M qdd + c + g + B qd + J^T F with one of the ``SLIPS``: the tip force through J
    itself, the force on the tip (-J^T F), the pull of gravity (-g), friction helping (-B qd)."""
    real, F = planar_arm(arm), np.asarray(tip_force, dtype=float)
    J = al.jacobian(real, q)
    tip = J @ F if slip == 1 else (-1.0 if slip == 2 else 1.0) * (J.T @ F)
    return (al.mass_matrix(real, q) @ np.asarray(qdd, dtype=float)
            + al.coriolis_torques(real, q, qd)
            + (-1.0 if slip == 3 else 1.0) * al.gravity_torques(real, q)
            + (-1.0 if slip == 4 else 1.0) * al.friction_torques(real, qd) + tip)


def _verdict(arm, q, qd, qdd, tip_force, tau_claimed, order=(0, 1, 2, 3, 4)):
    claimed = np.asarray(tau_claimed, dtype=float)
    gaps = [float(np.abs(_slipped_torque(arm, q, qd, qdd, tip_force, slip) - claimed).max())
            for slip in range(len(SLIPS))]
    return order[int(np.argmin(gaps))]


@reference(worked=lambda: _slip_worked(),
           allow=("inverse_dynamics", "gravity_torques", "jacobian"), atol=0.0, rtol=0.0,
           units={"tip_force": "N", "tau_claimed": "N m"},
           advice="work out the right torque, and the torque each slip gives, and say which one "
                  "the claim is")
def torque_slip(arm, q, qd, qdd, tip_force, tau_claimed):
    """Which of ``SLIPS`` a claimed torque has (0 for none): the number of the one it is."""
    return _verdict(arm, q, qd, qdd, tip_force, tau_claimed)


def _claimed(arm, q, qd, qdd, tip_force, slip, label=None):
    return Case(arm=arm, q=q, qd=qd, qdd=qdd, tip_force=tip_force,
                tau_claimed=listed(_slipped_torque(arm, q, qd, qdd, tip_force, slip)), label=label)


def _slip_worked():
    """Example 2's moving bent arm, its tip pressing down with 5 N, claimed three ways."""
    state = dict(q=deg(30, 60), qd=[1.0, -0.5], qdd=[1.0, -1.0], tip_force=[0.0, -5.0])
    return [_claimed(MOVING, **state, slip=slip,
                     label=f"Example 2's moving bent arm, its tip pressing down with 5 N, "
                           f"claim {k + 1}") for k, slip in enumerate((1, 3, 0))]


@torque_slip.fresh
def _slip_cases(rng):
    """Every slip and a right claim, once each, on the rods, other arms with friction and an
    arm on a wall; each claim is far from the four others."""
    first = rng.integer(0, 4)
    arms = [RODS, *_other_arms(rng), rng.arm(gravity=(-9.81, 0.0))]
    cases = []
    for k, arm in enumerate(arms):
        damped = changed(arm, damping=rng.uniform(0.1, 0.5, 0.05))
        cases.append(_claimed(damped, rng.pose(2), rng.vector(2, -2, 2, 0.5, nonzero=True),
                              rng.vector(2, -3, 3, 0.5), rng.vector(2, -10, 10, 1, nonzero=True),
                              (first + k) % 5,
                              "an arm mounted on a wall, gravity along -x" if k == 4 else None))
    return cases


torque_slip.mistake(
    "the tip force reaches the joints through the transpose, J^T F (the work F does as the tip "
    "moves by J qd): a claim equal to J^T F's torque is right (0), one with J F is slip 1",
    partial(_verdict, order=(1, 0, 2, 3, 4)))
