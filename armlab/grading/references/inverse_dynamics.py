"""Grading references for the inverse dynamics chapter's exercises (``solutions/inverse_dynamics``).

Pure Python, independent of armlab's code (the tests compare both routes):
the two-link closed forms of the chapter (``M`` from alpha, beta, delta; ``c``
from ``h = beta sin q2``; ``g`` as moments of the weights), written out, and a
link-by-link Newton-Euler recursion for the mistakes of the RNEA part. The
arms' data come from the chapter's presets.
"""

from armlab import rod_arm, tabletop_arm
from armlab.grading.purepy import cos, deg, matvec, sin
from armlab.grading.references import ArmData, Case, reference

RODS = ArmData.from_arm(rod_arm(), "the chapter's unit rods")
"""The unit rods: two 1 m rods of 1 kg, uniform."""
TABLE_TOP = ArmData.from_arm(tabletop_arm(), "the table-top arm of Example 4")


def _with(arm, label=None, **changes):
    """``arm`` with some fields changed (damping, gravity, ...)."""
    fields = arm.fields()
    fields.update(changes)
    return ArmData(label=label, **fields)


def _rods(m2, **changes):
    """The unit rods with link 2 of mass ``m2`` (its inertia m2 L^2 / 12)."""
    return _with(RODS, masses=(1.0, m2), inertia=(1.0 / 12.0, m2 / 12.0), **changes)


def _other_arms(rng):
    """Arms the chapter does not work out: rods of another link-2 mass, a random
    arm of uniform rods, and one whose links are not uniform rods."""
    return [_rods(rng.uniform(0.5, 2.0, 0.1)), rng.arm(), rng.arm(inertia=True)]


# ---------------------------------------------------------------- two-link pieces
def _constants(arm, inertia=True, com2=None):
    (L1, _), (m1, m2), (c1, c2), (I1, I2) = arm.lengths, arm.masses, arm.com, arm.inertia
    if com2 is not None:
        c2 = com2
    if not inertia:
        I1 = I2 = 0.0
    return (I1 + I2 + m1 * c1 * c1 + m2 * (L1 * L1 + c2 * c2), m2 * L1 * c2, I2 + m2 * c2 * c2)


def _mass(arm, q, inertia=True, coupling=True, com2=None):
    alpha, beta, delta = _constants(arm, inertia, com2)
    c = cos(q[1])
    off = delta + beta * c if coupling else 0.0
    return [[alpha + 2.0 * beta * c, off], [off, delta]]


def _h(arm, q):
    return arm.masses[1] * arm.lengths[0] * arm.com[1] * sin(q[1])


def _velocity(arm, q, qd, sign=1.0, coriolis=2.0, elbow_speed=0):
    h = sign * _h(arm, q)
    return [-h * (coriolis * qd[0] * qd[1] + qd[1] * qd[1]), h * qd[elbow_speed] ** 2]


def _points(arm, q):
    """Joints, tip and centres of mass: (joints [p0, p1, p2], coms [c1, c2])."""
    L1, L2 = arm.lengths
    a1, a12 = q[0], q[0] + q[1]
    p1 = [L1 * cos(a1), L1 * sin(a1)]
    p2 = [p1[0] + L2 * cos(a12), p1[1] + L2 * sin(a12)]
    c1 = [arm.com[0] * cos(a1), arm.com[0] * sin(a1)]
    c2 = [p1[0] + arm.com[1] * cos(a12), p1[1] + arm.com[1] * sin(a12)]
    return [[0.0, 0.0], p1, p2], [c1, c2]


def _gravity(arm, q):
    """g_j = moment about joint j of the weights beyond it, taken with the sign that holds them."""
    joints, coms = _points(arm, q)
    ax, ay = arm.gravity
    g = [0.0, 0.0]
    for i in range(2):
        wx, wy = -arm.masses[i] * ax, -arm.masses[i] * ay        # the force that holds link i up
        for j in range(i + 1):
            rx, ry = coms[i][0] - joints[j][0], coms[i][1] - joints[j][1]
            g[j] += rx * wy - ry * wx
    return g


def _jt(arm, q, F):
    joints, _ = _points(arm, q)
    tip = joints[2]
    # column j of J is z x (tip - p_j): (-(y_tip - y_j), x_tip - x_j)
    return [-(tip[1] - joints[j][1]) * F[0] + (tip[0] - joints[j][0]) * F[1] for j in range(2)]


def _friction(arm, qd):
    out = []
    for b, tc, gr, v in zip(arm.damping, arm.coulomb, arm.gear_ratio, qd):
        sign = (v > 0) - (v < 0)
        out.append(gr * gr * b * v + gr * tc * sign)
    return out


def _sum(*vectors):
    return [sum(parts) for parts in zip(*vectors)]


# ---------------------------------------------------------------- Part 1: M(q)
@reference(worked=Case(arm=RODS, q=deg(0, 0), label="the horizontal rods of Example 1"),
           advice="M11 = alpha + 2 beta cos q2, M12 = M21 = delta + beta cos q2, M22 = delta, "
                  "with alpha, beta, delta from the kinetic energy of both links")
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


@mass_matrix.mistake("each link also turns about its own centre of mass: add its moment of "
                     "inertia arm.inertia[i] (I1 + I2 to M11, I2 to M12 and M22)")
def _mass_no_inertia(arm, q):
    return _mass(arm, q, inertia=False)


@mass_matrix.mistake("the off-diagonal entries are missing: M12 = M21 = delta + beta cos q2 "
                     "couples the two joints")
def _mass_no_coupling(arm, q):
    return _mass(arm, q, coupling=False)


@mass_matrix.mistake("link 2's mass sits at its centre of mass, arm.com[1] from the elbow, "
                     "not at the link's end")
def _mass_at_link_end(arm, q):
    return _mass(arm, q, com2=arm.lengths[1])


# ---------------------------------------------------------------- Part 2: c(q, qd)
@reference(worked=Case(arm=RODS, q=deg(30, -60), qd=[1.0, -0.5],
                       label="Example 3's bent and moving rods"),
           advice="with h = m2 L1 lc2 sin q2: c1 = -h (2 qd1 qd2 + qd2^2), c2 = h qd1^2")
def velocity_products(arm, q, qd):
    """Velocity-product torques c(q, qd) (2,) of a two-link arm [N m]."""
    return _velocity(arm, q, qd)


@velocity_products.fresh
def _velocity_cases(rng):
    cases = [Case(arm=arm, q=rng.pose(2), qd=rng.vector(2, -3, 3, 0.5, nonzero=True))
             for arm in [RODS] + _other_arms(rng)]
    cases.append(Case(arm=rng.arm(), q=rng.pose(2), qd=[rng.uniform(-3, 3, 0.5), 0.0],
                      label="the elbow not turning"))
    cases.append(Case(arm=RODS, q=rng.pose(2), qd=[0.0, 0.0], label="the arm at rest"))
    return cases


@velocity_products.mistake("right size, wrong sign: h = m2 L1 lc2 sin q2, c1 = -h (...) and "
                           "c2 = +h qd1^2")
def _velocity_negated(arm, q, qd):
    return _velocity(arm, q, qd, sign=-1.0)


@velocity_products.mistake("the Coriolis term is 2 h qd1 qd2: the symbols Gamma_112 and "
                           "Gamma_121 both contribute")
def _velocity_half_coriolis(arm, q, qd):
    return _velocity(arm, q, qd, coriolis=1.0)


@velocity_products.mistake("the elbow feels the shoulder's spin: c2 = h qd1^2, with the "
                           "shoulder's speed")
def _velocity_elbow_speed(arm, q, qd):
    return _velocity(arm, q, qd, elbow_speed=1)


# ---------------------------------------------------------------- Part 3: the whole torque
def _torque(arm, q, qd, qdd, tip_force, tip_sign=1.0, friction_sign=1.0, velocity=True):
    terms = [matvec(_mass(arm, q), qdd), _gravity(arm, q),
             [friction_sign * f for f in _friction(arm, qd)],
             [tip_sign * t for t in _jt(arm, q, tip_force)]]
    if velocity:
        terms.append(_velocity(arm, q, qd))
    return _sum(*terms)


MOVING = _with(RODS, damping=0.2, label="the chapter's rods with damping 0.2 N m s/rad")


@reference(worked=[Case(arm=MOVING, q=deg(30, 60), qd=[1.0, -0.5], qdd=[1.0, -1.0],
                        tip_force=[0.0, 0.0], label="the moving bent arm of Example 2"),
                   Case(arm=RODS, q=deg(0, 0), qd=[0.0, 0.0], qdd=[0.0, 0.0],
                        tip_force=[0.0, -5.0],
                        label="Example 1's supported tip, the tip pressing down on its support")],
           allow=("gravity_torques", "jacobian"),
           uses={"mass_matrix": mass_matrix, "velocity_products": velocity_products},
           units={"tip_force": "N"},
           advice="tau = M qdd + c + g + B qd + J^T F, with F the force the tip applies")
def required_torque(arm, q, qd, qdd, tip_force):
    """Motor torques (2,) for a motion and a tip force: M qdd + c + g + friction + J^T F."""
    return _torque(arm, q, qd, qdd, tip_force)


@required_torque.fresh
def _torque_cases(rng):
    def state(arm, label=None, force=True):
        damped = _with(arm, damping=rng.uniform(0.0, 0.5, 0.05))
        tip = rng.vector(2, -10, 10, 1, nonzero=True) if force else [0.0, 0.0]
        return Case(arm=damped, q=rng.pose(2), qd=rng.vector(2, -2, 2, 0.5, nonzero=True),
                    qdd=rng.vector(2, -3, 3, 0.5), tip_force=tip, label=label)

    cases = [state(arm) for arm in [RODS] + _other_arms(rng)]
    cases.append(state(rng.arm(gravity=0.0), label="an arm without gravity"))
    cases.append(state(rng.arm(), force=False, label="no tip force"))
    return cases


@required_torque.mistake("the tip force's sign: F is the force the tip applies, so the motors "
                         "add +J^T F (a force on the arm would enter as -F)")
def _torque_tip_sign(arm, q, qd, qdd, tip_force):
    return _torque(arm, q, qd, qdd, tip_force, tip_sign=-1.0)


@required_torque.mistake("friction's sign: the motors overcome friction, so they add +B qd, "
                         "with the sign of the joint speed")
def _torque_friction_sign(arm, q, qd, qdd, tip_force):
    return _torque(arm, q, qd, qdd, tip_force, friction_sign=-1.0)


@required_torque.mistake("the velocity products c(q, qd) are missing: they are not small just "
                         "because the accelerations are")
def _torque_no_velocity(arm, q, qd, qdd, tip_force):
    return _torque(arm, q, qd, qdd, tip_force, velocity=False)


@required_torque.mistake("the friction B qd is missing: the motors also overcome the joints' "
                         "viscous friction, arm.damping times the joint speeds")
def _torque_no_friction(arm, q, qd, qdd, tip_force):
    return _torque(arm, q, qd, qdd, tip_force, friction_sign=0.0)


# ---------------------------------------------------------------- Part 4: dE/dt
def _energy_rate(arm, q, qd, qdd, mdot_factor=0.5, with_friction=False):
    beta = arm.masses[1] * arm.lengths[0] * arm.com[1]
    # dM/dt = -beta sin q2 qd2 [[2, 1], [1, 0]]
    mdot = [[-2.0 * beta * sin(q[1]) * qd[1], -beta * sin(q[1]) * qd[1]],
            [-beta * sin(q[1]) * qd[1], 0.0]]
    rate = (sum(a * b for a, b in zip(qd, matvec(_mass(arm, q), qdd)))
            + mdot_factor * sum(a * b for a, b in zip(qd, matvec(mdot, qd)))
            + sum(a * b for a, b in zip(qd, _gravity(arm, q))))
    if with_friction:
        rate += sum(a * b for a, b in zip(qd, _friction(arm, qd)))
    return rate


BENT = _with(RODS, damping=0.25, label="the chapter's rods with damping 0.25 N m s/rad")


@reference(worked=Case(arm=BENT, q=deg(30, -60), qd=[1.0, -0.5], qdd=[0.5, -1.0],
                       label="Example 3's bent and moving rods"),
           allow=("gravity_torques",), uses={"mass_matrix": mass_matrix},
           advice="dE/dt = qd . M qdd + qd . (dM/dt) qd / 2 + qd . g(q); only q2 changes M")
def energy_rate(arm, q, qd, qdd):
    """Rate of change [W] of the arm's mechanical energy T + V."""
    return _energy_rate(arm, q, qd, qdd)


@energy_rate.fresh
def _energy_cases(rng):
    cases = []
    for arm in [BENT] + _other_arms(rng):
        damped = _with(arm, damping=rng.uniform(0.05, 0.5, 0.05))
        cases.append(Case(arm=damped, q=rng.pose(2), qd=rng.vector(2, -2, 2, 0.5, nonzero=True),
                          qdd=rng.vector(2, -3, 3, 0.5)))
    cases.append(Case(arm=rng.arm(gravity=0.0), q=rng.pose(2),
                      qd=rng.vector(2, -2, 2, 0.5, nonzero=True), qdd=[0.0, 0.0],
                      label="no gravity, no acceleration: only dM/dt changes T"))
    return cases


@energy_rate.mistake("T changes also because M changes with q2: add qd . (dM/dt) qd / 2")
def _energy_no_mdot(arm, q, qd, qdd):
    return _energy_rate(arm, q, qd, qdd, mdot_factor=0.0)


@energy_rate.mistake("the derivative of qd^T M qd / 2 brings qd^T (dM/dt) qd with a factor 1/2")
def _energy_full_mdot(arm, q, qd, qdd):
    return _energy_rate(arm, q, qd, qdd, mdot_factor=1.0)


@energy_rate.mistake("that is the motors' power tau . qd: the energy rises by that less the "
                     "friction loss qd . B qd")
def _energy_motor_power(arm, q, qd, qdd):
    return _energy_rate(arm, q, qd, qdd, with_friction=True)


# ---------------------------------------------------------------- Part 5: RNEA by hand
def _recursion(arm, q, qd, qdd, base_sign=1.0, centripetal=-1.0, pass_moment=True):
    """Two-link Newton-Euler: motion outwards, forces and moments inwards (for the mistakes)."""
    acc = [-base_sign * arm.gravity[0], -base_sign * arm.gravity[1]]   # the joint's acceleration
    w = wd = phi = 0.0
    links = []
    for i in range(2):
        phi, w, wd = phi + q[i], w + qd[i], wd + qdd[i]
        e = [cos(phi), sin(phi)]
        n = [-e[1], e[0]]
        # a point at distance r along the link: a_joint + wd r n + centripetal w^2 r e
        a_c = [acc[k] + wd * arm.com[i] * n[k] + centripetal * w * w * arm.com[i] * e[k]
               for k in range(2)]
        links.append((e, wd, a_c))
        acc = [acc[k] + wd * arm.lengths[i] * n[k]
               + centripetal * w * w * arm.lengths[i] * e[k] for k in range(2)]
    force = [0.0, 0.0]                        # what link i + 1 needs from link i
    moment = 0.0
    tau = [0.0, 0.0]
    for i in (1, 0):
        e, wd_i, a_c = links[i]
        f_c = [arm.masses[i] * a_c[0], arm.masses[i] * a_c[1]]
        r_c = [arm.com[i] * e[0], arm.com[i] * e[1]]
        r_e = [arm.lengths[i] * e[0], arm.lengths[i] * e[1]]
        passed = r_e[0] * force[1] - r_e[1] * force[0] if pass_moment else 0.0
        moment = arm.inertia[i] * wd_i + r_c[0] * f_c[1] - r_c[1] * f_c[0] + moment + passed
        force = [f_c[0] + force[0], f_c[1] + force[1]]
        tau[i] = moment
    return tau


@reference(worked=Case(arm=TABLE_TOP, q=deg(30, 45), qd=[1.0, 2.0], qdd=[3.0, -2.0],
                       label="the worked instant of Example 4"),
           advice="outwards: each link's angular and linear accelerations, the base moving up "
                  "at g0; inwards: f_i = m_i a_ci + f_(i+1), n_i = I_i wd_i + r_ci x m_i a_ci "
                  "+ n_(i+1) + r_(i,i+1) x f_(i+1), tau_i = n_i")
def rnea(arm, q, qd, qdd):
    """Rigid-body joint torques (2,) by Newton-Euler: M qdd + c + g (no friction, no tip force)."""
    return _sum(matvec(_mass(arm, q), qdd), _velocity(arm, q, qd), _gravity(arm, q))


@rnea.fresh
def _rnea_cases(rng):
    def state(arm, label=None):
        return Case(arm=arm, q=rng.pose(2), qd=rng.vector(2, -3, 3, 0.5, nonzero=True),
                    qdd=rng.vector(2, -3, 3, 0.5, nonzero=True), label=label)

    cases = [state(arm) for arm in [TABLE_TOP] + _other_arms(rng)]
    cases.append(state(rng.arm(gravity=(-9.81, 0.0)), label="an arm mounted on a wall"))
    cases.append(state(rng.arm(gravity=0.0), label="an arm without gravity"))
    return cases


@rnea.mistake("gravity's sign: let the base accelerate upwards, a0 = -gravity, so that every "
              "link carries its weight")
def _rnea_gravity_down(arm, q, qd, qdd):
    return _recursion(arm, q, qd, qdd, base_sign=-1.0)


@rnea.mistake("the centripetal acceleration of a point at r on a link turning at w points "
              "inwards, towards the joint: -w^2 r e")
def _rnea_centripetal_out(arm, q, qd, qdd):
    return _recursion(arm, q, qd, qdd, centripetal=1.0)


@rnea.mistake("the shoulder also carries the moment of the force it passes to link 2: add "
              "r_(1,2) x f_2 to n_1")
def _rnea_no_passed_moment(arm, q, qd, qdd):
    return _recursion(arm, q, qd, qdd, pass_moment=False)

