"""Grading references for the control chapter's exercises (``solutions/control``).

Pure Python, independent of armlab's code (the tests compare both routes): the
two-link closed forms written out (``M`` from the links' inertias, ``c`` from
``h = m2 L1 lc2 sin q2``, ``g`` as minus the work of gravity on the centres of
mass, friction ``G^2 B qd + G Tc sign(qd)``), the control laws of the chapter,
and Newton's method for a rest pose. The arms' data come from the chapter's
preset, the table-top arm.
"""

from armlab import tabletop_arm
from armlab.grading.purepy import cos, deg, pi, sin, solve
from armlab.grading.references import ArmData, Case, reference

REAL = ArmData.from_arm(tabletop_arm(damping=0.02), "the chapter's real arm (friction 0.02)")
MODEL = ArmData.from_arm(tabletop_arm(damping=0.016),
                         "the chapter's model of the arm (friction 0.016)")
LOADED = ArmData.from_arm(tabletop_arm(damping=0.02).with_payload(0.5),
                          "the chapter's arm with 0.5 kg in its gripper")
START, END = (-45.0, 90.0), (60.0, -30.0)
"""The chapter's move [deg]."""
KP, KD, KI = [60.0, 30.0], [4.0, 1.5], [60.0, 30.0]
"""The chapter's PID-family gains."""
CT_KP, CT_KD = [400.0, 400.0], [40.0, 40.0]
"""The chapter's computed-torque gains: 20 rad/s, critically damped."""

UNITS = {"q_plan": "deg", "q_target": "deg", "qd_plan": "rad/s", "qdd_plan": "rad/s²",
         "integral": "N m", "ki": "N m/(rad s)", "omega": "rad/s", "zeta": "",
         "inertia": "kg m²"}
CT_UNITS = dict(UNITS, kp="1/s²", kd="1/s")


def _plus(a, b, scale=1.0):
    return [x + scale * y for x, y in zip(a, b)]


def _times(gains, v):
    return [k * x for k, x in zip(gains, v)]


# ---------------------------------------------------------------- the two-link model
def _mass(arm, q):
    """M(q) (2, 2) [kg m^2]."""
    (L1, _), (m1, m2), (l1, l2), (I1, I2) = arm.lengths, arm.masses, arm.com, arm.inertia
    c2 = cos(q[1])
    m22 = I2 + m2 * l2 * l2
    m12 = m22 + m2 * L1 * l2 * c2
    m11 = I1 + m1 * l1 * l1 + m22 + m2 * (L1 * L1 + 2.0 * L1 * l2 * c2)
    return [[m11, m12], [m12, m22]]


def _velocity(arm, q, qd):
    """c(q, qd) (2,) [N m]."""
    h = arm.masses[1] * arm.lengths[0] * arm.com[1] * sin(q[1])
    return [-h * (2.0 * qd[0] * qd[1] + qd[1] * qd[1]), h * qd[0] * qd[0]]


def _gravity(arm, q):
    """g(q) (2,) [N m]: g_j = -sum_i m_i a . d(c_i)/d(q_j), a the gravity vector."""
    (L1, _), (m1, m2), (l1, l2) = arm.lengths, arm.masses, arm.com
    ax, ay = arm.gravity
    s1, c1 = sin(q[0]), cos(q[0])
    s12, c12 = sin(q[0] + q[1]), cos(q[0] + q[1])
    # derivatives of the centres of mass: link 2's along q2, then both along q1
    work2 = ax * (-l2 * s12) + ay * (l2 * c12)
    work1 = m1 * (ax * (-l1 * s1) + ay * (l1 * c1)) + m2 * (ax * (-L1 * s1) + ay * (L1 * c1)
                                                          + work2)
    return [-work1, -m2 * work2]


def _friction(arm, qd):
    """G^2 B qd + G Tc sign(qd) (2,) [N m]: what the motors add to overcome friction."""
    return [g * g * b * v + g * t * ((v > 0) - (v < 0))
            for b, t, g, v in zip(arm.damping, arm.coulomb, arm.gear_ratio, qd)]


def _inverse(arm, q, qd, qdd):
    """M qdd + c + g + friction (2,) [N m]."""
    M = _mass(arm, q)
    inertial = [M[0][0] * qdd[0] + M[0][1] * qdd[1], M[1][0] * qdd[0] + M[1][1] * qdd[1]]
    return [a + b + c + d for a, b, c, d in zip(inertial, _velocity(arm, q, qd),
                                                _gravity(arm, q), _friction(arm, qd))]


def _arms(rng, count, **kwargs):
    """The chapter's model and ``count`` other arms."""
    return [MODEL] + [rng.arm(**kwargs) for _ in range(count)]


def _near(rng, q, spread):
    """A plan near the pose q: each angle off by a whole number of degrees within spread."""
    return [a + d * pi / 180.0 for a, d in zip(q, rng.vector(2, -spread, spread, 1))]


# ---------------------------------------------------------------- Part 1: PD + gravity
BUMP = dict(q=deg(32, 43), qd=[0.5, -0.5], q_plan=deg(30, 45), qd_plan=[0.0, 0.0])
"""The chapter's worked tick: the arm held at (30°, 45°), bumped to (32°, 43°)."""


@reference(worked=Case(arm=MODEL, kp=KP, kd=KD, **BUMP,
                       label="the bump of the chapter's worked tick, with gravity "
                             "compensation"),
           allow=("gravity_torques",), units=UNITS,
           advice="tau = g_model(q) + Kp (q_plan - q) + Kd (qd_plan - qd), joint by joint")
def pd_gravity_torque(arm, q, qd, q_plan, qd_plan, kp, kd):
    """PD with gravity compensation (2,) [N m]; ``arm`` is the controller's model."""
    return _plus(_gravity(arm, q), _plus(_times(kp, _plus(q_plan, q, -1.0)),
                                         _times(kd, _plus(qd_plan, qd, -1.0))))


@pd_gravity_torque.fresh
def _pdg_cases(rng):
    cases = []
    for arm in _arms(rng, 2) + [rng.arm(gravity=(-9.81, 0.0), label="an arm on a wall")]:
        q = rng.pose(2)
        cases.append(Case(arm=arm, q=q, qd=rng.vector(2, -2.0, 2.0, 0.1), q_plan=_near(rng, q, 10),
                          qd_plan=rng.vector(2, -2.0, 2.0, 0.1), kp=rng.vector(2, 10, 120, 5),
                          kd=rng.vector(2, 0.5, 8.0, 0.5)))
    q = rng.pose(2)
    cases.append(Case(arm=rng.arm(), q=q, qd=rng.vector(2, -1.0, 1.0, 0.1), q_plan=q,
                      qd_plan=[0.0, 0.0], kp=[0.0, 0.0], kd=[0.0, 0.0],
                      label="free drive, both gains zero"))
    return cases


@pd_gravity_torque.mistake("the error is the plan minus the measured state: e = q_plan - q, "
                           "de = qd_plan - qd (written the other way, the gains push the arm "
                           "away from its plan)")
def _pdg_sign(arm, q, qd, q_plan, qd_plan, kp, kd):
    return _plus(_gravity(arm, q), _plus(_times(kp, _plus(q, q_plan, -1.0)),
                                         _times(kd, _plus(qd, qd_plan, -1.0))))


@pd_gravity_torque.mistake("add the model's gravity torque g(q): without it this is a plain PD, "
                           "which must sag to hold the arm up")
def _pdg_no_gravity(arm, q, qd, q_plan, qd_plan, kp, kd):
    return _plus(_times(kp, _plus(q_plan, q, -1.0)), _times(kd, _plus(qd_plan, qd, -1.0)))


@pd_gravity_torque.mistake("gravity compensation holds the arm where it is: take the model's "
                           "g at the measured pose q, not at the planned one")
def _pdg_at_plan(arm, q, qd, q_plan, qd_plan, kp, kd):
    return _plus(_gravity(arm, q_plan), _plus(_times(kp, _plus(q_plan, q, -1.0)),
                                              _times(kd, _plus(qd_plan, qd, -1.0))))


# ---------------------------------------------------------------- Part 2: one PID tick
def _pid(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt, before=True, with_dt=True,
         sign=1.0):
    e = [sign * (a - b) for a, b in zip(q_plan, q)]
    de = [sign * (a - b) for a, b in zip(qd_plan, qd)]
    step = dt if with_dt else 1.0
    advanced = [i + k * x * step for i, k, x in zip(integral, ki, e)]
    used = advanced if before else list(integral)
    return [p * x + d * v + i for p, x, d, v, i in zip(kp, e, kd, de, used)]


@reference(worked=Case(integral=_gravity(REAL, deg(30, 45)), kp=KP, kd=KD, ki=KI, dt=0.001,
                       **BUMP, label="the chapter's worked tick, a bump after a long hold"),
           units=UNITS,
           advice="advance the integral by Ki e dt, then tau = Kp e + Kd de + I")
def pid_torque(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt):
    """One PID tick (2,) [N m]: I += Ki e dt, then tau = Kp e + Kd de + I."""
    return _pid(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt)


@pid_torque.fresh
def _pid_cases(rng):
    cases = []
    for _ in range(5):
        q = rng.pose(2)
        cases.append(Case(integral=rng.vector(2, -8.0, 8.0, 0.1), q=q,
                          qd=rng.vector(2, -2.0, 2.0, 0.1), q_plan=_near(rng, q, 8),
                          qd_plan=rng.vector(2, -2.0, 2.0, 0.1), kp=rng.vector(2, 10, 120, 5),
                          kd=rng.vector(2, 0.5, 8.0, 0.5), ki=rng.vector(2, 10, 200, 5),
                          dt=rng.choice([0.0005, 0.001, 0.002, 0.004])))
    return cases


@pid_torque.mistake("advance the integral by Ki e dt before it is used: this tick's error "
                    "belongs in this tick's torque")
def _pid_after(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt):
    return _pid(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt, before=False)


@pid_torque.mistake("the integral is a torque [N m]: each tick adds Ki e dt, with the tick's "
                    "length dt in seconds")
def _pid_no_dt(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt):
    return _pid(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt, with_dt=False)


@pid_torque.mistake("the error is the plan minus the measured state: e = q_plan - q")
def _pid_sign(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt):
    return _pid(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt, sign=-1.0)


# ---------------------------------------------------------------- Part 3: computed torque
def _wanted(q, qd, q_plan, qd_plan, qdd_plan, kp, kd):
    return [a + p * (r - x) + d * (rd - v)
            for a, p, r, x, d, rd, v in zip(qdd_plan, kp, q_plan, q, kd, qd_plan, qd)]


@reference(worked=Case(arm=REAL, q=deg(-47, 92), qd=[0.0, 0.0], q_plan=deg(*START),
                       qd_plan=[0.0, 0.0], qdd_plan=[0.0, 0.0], kp=CT_KP, kd=CT_KD,
                       label="the first tick of the chapter's check, 2° off the start pose "
                             "with an exact model"),
           allow=("inverse_dynamics", "mass_matrix", "coriolis_torques", "gravity_torques",
                  "friction_torques"),
           units=CT_UNITS,
           advice="a = qdd_plan + Kp e + Kd de, then tau = M(q) a + c(q, qd) + g(q) + "
                  "friction(qd), the model at the measured state")
def computed_torque_law(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd):
    """Computed torque (2,) [N m]: the model's inverse dynamics at (q, qd) of the wanted
    acceleration; ``arm`` is the controller's model."""
    return _inverse(arm, q, qd, _wanted(q, qd, q_plan, qd_plan, qdd_plan, kp, kd))


@computed_torque_law.fresh
def _ct_cases(rng):
    cases = []
    arms = _arms(rng, 2) + [rng.arm(inertia=True)]
    for arm in arms:
        fields = arm.fields()
        fields["damping"] = tuple(rng.vector(2, 0.0, 0.05, 0.005))
        arm = ArmData(label=arm.label, **fields)
        q = rng.pose(2)
        omega = rng.uniform(10.0, 30.0, 1.0)
        cases.append(Case(arm=arm, q=q, qd=rng.vector(2, -2.0, 2.0, 0.1), q_plan=_near(rng, q, 5),
                          qd_plan=rng.vector(2, -2.0, 2.0, 0.1),
                          qdd_plan=rng.vector(2, -8.0, 8.0, 0.5),
                          kp=[omega * omega] * 2, kd=[2.0 * omega * rng.uniform(0.5, 1.5, 0.1)] * 2))
    wall = rng.arm(gravity=(-9.81, 0.0), label="an arm on a wall")
    q = rng.pose(2)
    cases.append(Case(arm=wall, q=q, qd=rng.vector(2, -1.0, 1.0, 0.1), q_plan=_near(rng, q, 5),
                      qd_plan=[0.0, 0.0], qdd_plan=[0.0, 0.0], kp=[225.0, 400.0],
                      kd=[30.0, 40.0]))
    return cases


@computed_torque_law.mistake("Kp e + Kd de is an acceleration: add it to qdd_plan inside the "
                             "inverse dynamics, so that M(q) multiplies it")
def _ct_outside(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd):
    fb = [p * (r - x) + d * (rd - v) for p, r, x, d, rd, v in zip(kp, q_plan, q, kd, qd_plan, qd)]
    return _plus(_inverse(arm, q, qd, qdd_plan), fb)


@computed_torque_law.mistake("computed torque evaluates the model at the measured state q, qd: "
                             "it must cancel the dynamics the arm has, not the plan's")
def _ct_at_plan(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd):
    return _inverse(arm, q_plan, qd_plan, _wanted(q, qd, q_plan, qd_plan, qdd_plan, kp, kd))


@computed_torque_law.mistake("the error is the plan minus the measured state: e = q_plan - q")
def _ct_sign(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd):
    return _inverse(arm, q, qd, _wanted(q_plan, qd_plan, q, qd, qdd_plan, kp, kd))


@computed_torque_law.mistake("the angle error is in degrees: the gains multiply radians, so "
                             "keep e = q_plan - q in radians (np.degrees only for printing)")
def _ct_degrees(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd):
    wide = [x + (r - x) * 180.0 / pi for r, x in zip(q_plan, q)]    # e in degrees, de not
    return _inverse(arm, q, qd, _wanted(q, qd, wide, qd_plan, qdd_plan, kp, kd))


# ---------------------------------------------------------------- Part 4: gains
@reference(worked=Case(omega=20.0, zeta=1.0, inertia=1.0,
                       label="the chapter's computed torque, 20 rad/s, critically damped"),
           units=UNITS,
           advice="I e'' + Kd e' + Kp e = 0 is e'' + 2 zeta omega e' + omega^2 e = 0 times I")
def gains_for(omega, zeta, inertia):
    """[Kp, Kd] for a natural frequency, a damping ratio and an inertia."""
    return [inertia * omega * omega, 2.0 * zeta * omega * inertia]


@gains_for.fresh
def _gains_cases(rng):
    cases = [Case(omega=rng.uniform(5.0, 60.0, 1.0), zeta=rng.uniform(0.2, 2.0, 0.05),
                  inertia=rng.uniform(0.01, 0.5, 0.01)) for _ in range(4)]
    cases.append(Case(omega=rng.uniform(5.0, 60.0, 1.0), zeta=rng.uniform(0.2, 2.0, 0.05),
                      inertia=1.0, label="computed torque's gains (inertia 1)"))
    return cases


@gains_for.mistake("Kd = 2 zeta omega I: the damping term of e'' + 2 zeta omega e' + omega^2 e "
                   "has the factor 2")
def _gains_no_two(omega, zeta, inertia):
    return [inertia * omega * omega, zeta * omega * inertia]


@gains_for.mistake("the stiffness goes with the square of the frequency: Kp = I omega^2")
def _gains_not_squared(omega, zeta, inertia):
    return [inertia * omega, 2.0 * zeta * omega * inertia]


@gains_for.mistake("both gains scale with the inertia I the error moves: Kp = I omega^2, "
                   "Kd = 2 zeta omega I")
def _gains_no_inertia(omega, zeta, inertia):
    return [omega * omega, 2.0 * zeta * omega]


# ---------------------------------------------------------------- Part 5: the rest pose
def _rest(arm, model, q_target, kp, below=1.0, weighted=True, steps=60, real_mass=False):
    """Newton's method on M_model(q) Kp e = g(q) - g_model(q), q = q_target - below e;
    ``real_mass``: the real arm's M in place of the model's (a mistake)."""
    def residual(e):
        q = [t - below * x for t, x in zip(q_target, e)]
        g, gm = _gravity(arm, q), _gravity(model, q)
        pushed = _times(kp, e)
        if weighted:
            M = _mass(arm if real_mass else model, q)
            pushed = [M[0][0] * pushed[0] + M[0][1] * pushed[1],
                      M[1][0] * pushed[0] + M[1][1] * pushed[1]]
        return [p - (a - b) for p, a, b in zip(pushed, g, gm)]

    e = [0.0, 0.0]
    for _ in range(steps):
        r = residual(e)
        h = 1e-7
        columns = []
        for k in range(2):
            up = list(e)
            down = list(e)
            up[k] += h
            down[k] -= h
            columns.append([(a - b) / (2.0 * h) for a, b in zip(residual(up), residual(down))])
        jac = [[columns[0][0], columns[1][0]], [columns[0][1], columns[1][1]]]
        step = solve(jac, r)
        e = [x - s for x, s in zip(e, step)]
        if max(abs(s) for s in step) <= 1e-15:
            break
    return e


def _loaded(arm, mass, label=None):
    """``arm`` with a point mass at its tip, merged into the last link (parallel axes)."""
    m, c, inertia, L = arm.masses[1], arm.com[1], arm.inertia[1], arm.lengths[1]
    total = m + mass
    com = (m * c + mass * L) / total
    merged = inertia + m * (c - com) ** 2 + mass * (L - com) ** 2
    fields = arm.fields()
    fields.update(masses=(arm.masses[0], total), com=(arm.com[0], com),
                  inertia=(arm.inertia[0], merged))
    return ArmData(label=label, **fields)


@reference(worked=Case(arm=LOADED, model=MODEL, q_target=deg(*END), kp=CT_KP,
                       label="computed torque holding the end pose with 0.5 kg it does not "
                             "know, as in the chapter"),
           allow=("mass_matrix", "gravity_torques"), units=dict(CT_UNITS, **{"return": "deg"}),
           advice="at rest M_model(q) Kp e = g(q) - g_model(q) at the pose q = q_target - e "
                  "where the arm rests: solve it by iteration")
def ct_rest_error(arm, model, q_target, kp):
    """Rest error e = q_target - q (2,) [rad] of computed torque whose model misses a load."""
    return _rest(arm, model, q_target, kp)


@ct_rest_error.fresh
def _rest_cases(rng, tries=12):
    """Six cases whose rest lies a few degrees off (1e-4 < |e| < 0.35 rad), so that the
    answer is well defined: for each, a few draws, then the chapter's arm and load with a
    gain that puts the rest in that band by construction."""
    cases = []
    for kind in range(6):
        for _ in range(tries):
            case = _rest_case(rng, kind)
            size = max(abs(x) for x in _rest(case.args["arm"], case.args["model"],
                                              case.args["q_target"], case.args["kp"]))
            if 1e-4 < size < 0.35:
                break
        else:
            q1 = rng.integer(-60, 60)          # the arm near level: a rest of a few degrees
            case = Case(arm=LOADED, model=MODEL, q_target=deg(q1, -q1 // 2),
                        kp=[rng.uniform(400.0, 900.0, 50.0)] * 2,
                        label="computed torque holding a pose with 0.5 kg its model does not "
                              "know")
        cases.append(case)
    return cases


def _rest_case(rng, kind):
    """One drawn case: the chapter's arm (kind 0), other arms, a wall-mounted one (4), a
    model that knows half the load (5)."""
    base = MODEL if kind == 0 else rng.arm(gravity=(-9.81, 0.0) if kind == 4 else 9.81)
    mass = max(0.05, round(rng.uniform(0.1, 0.5, 0.05) * base.masses[1], 2))
    model = _loaded(base, mass / 2.0) if kind == 5 else base
    words = {0: f"the chapter's arm with {mass:g} kg its model does not know",
             4: f"an arm on a wall with {mass:g} kg its model does not know",
             5: f"an arm with {mass:g} kg, half of it known to the model"}
    arm = _loaded(base, mass, words.get(kind, f"an arm with {mass:g} kg its model "
                                              "does not know"))
    kp = [rng.uniform(200.0, 900.0, 50.0)] * 2
    return Case(arm=arm, model=model, q_target=rng.pose(2), kp=kp)


@ct_rest_error.mistake("that is the error if the pose did not change: M and g belong to the "
                       "pose where the arm rests, q_target - e; solve again until e stops "
                       "changing")
def _rest_first_order(arm, model, q_target, kp):
    return _rest(arm, model, q_target, kp, steps=1)


@ct_rest_error.mistake("computed torque's stiffness in torque is M_model(q) Kp: its gains "
                       "multiply an acceleration, which the model's M turns into a torque")
def _rest_without_mass(arm, model, q_target, kp):
    return _rest(arm, model, q_target, kp, weighted=False)


@ct_rest_error.mistake("the arm rests at q_target - e, with e = q_target - q_rest: take M and "
                       "g there")
def _rest_above(arm, model, q_target, kp):
    return _rest(arm, model, q_target, kp, below=-1.0)


@ct_rest_error.mistake("the controller multiplies Kp e by its model's mass matrix, "
                       "M_model(q), not by the real arm's: the controller does not know the load")
def _rest_real_mass(arm, model, q_target, kp):
    return _rest(arm, model, q_target, kp, real_mass=True)
