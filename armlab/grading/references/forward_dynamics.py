"""Grading references for the forward dynamics chapter's exercises (``solutions/forward_dynamics``).

Pure Python, independent of armlab's code (the tests compare both routes): the
two-link closed forms of ``M``, ``c``, ``g`` and the friction torques (shared
with the inverse dynamics chapter's references, which write them out), a 2 x 2
solve, the semi-implicit Euler step written out, its loop, the energies from
the centres of mass, and the energy error of a run. The arms' data come from
the chapter's presets.
"""

from armlab import tabletop_arm
from armlab.grading.purepy import deg, dot, matvec, solve
from armlab.grading.references import ArmData, Case, chapter, reference

# The inverse dynamics chapter's two-link formulas, written out there once.
_friction, _gravity, _mass, _points, _velocity, _with = (
    getattr(chapter("inverse_dynamics"), name)
    for name in ("_friction", "_gravity", "_mass", "_points", "_velocity", "_with"))

ARM = ArmData.from_arm(tabletop_arm(damping=0.02), "the chapter's table-top arm")
"""The chapter's arm: 0.30 m / 2.0 kg and 0.25 m / 1.0 kg rods, friction 0.02 N m s/rad."""
RIGID = ArmData.from_arm(tabletop_arm(), "the table-top arm without friction")


def _other_arms(rng):
    """Arms the chapter does not work out: a random arm of uniform rods, one whose links are
    not uniform rods (both with some friction), and one mounted on a wall."""
    return [_with(rng.arm(), damping=rng.uniform(0.0, 0.1, 0.01)),
            _with(rng.arm(inertia=True), damping=rng.uniform(0.0, 0.1, 0.01)),
            rng.arm(gravity=(-9.81, 0.0), label=None)]


# ---------------------------------------------------------------- Part 1: qdd from tau
def _acceleration(arm, q, qd, tau, friction_sign=1.0, gravity_sign=1.0, velocity=True,
                  times_mass=False):
    """``times_mass``: M (tau - ...) instead of solving M qdd = tau - ... (a mistake)."""
    rest = [gravity_sign * g for g in _gravity(arm, q)]
    rest = [a + friction_sign * f for a, f in zip(rest, _friction(arm, qd))]
    if velocity:
        rest = [a + c for a, c in zip(rest, _velocity(arm, q, qd))]
    free = [t - r for t, r in zip(tau, rest)]
    return matvec(_mass(arm, q), free) if times_mass else solve(_mass(arm, q), free)


@reference(worked=Case(arm=RIGID, q=deg(30, 45), qd=[1.0, 2.0], tau=[5.7796, 0.4443],
                       label="Example 1's worked instant, its torques as printed"),
           allow=("mass_matrix", "coriolis_torques", "gravity_torques"),
           advice="solve M(q) qdd = tau - c(q, qd) - g(q) - B qd for qdd, with B = arm.damping")
def acceleration(arm, q, qd, tau):
    """Joint accelerations (2,) [rad/s^2] that torques tau produce (no tip force)."""
    return _acceleration(arm, q, qd, tau)


@acceleration.fresh
def _acceleration_cases(rng):
    def state(arm, label=None):
        return Case(arm=arm, q=rng.pose(2), qd=rng.vector(2, -3, 3, 0.5, nonzero=True),
                    tau=rng.vector(2, -5, 5, 0.5), label=label)

    cases = [state(arm) for arm in [ARM] + _other_arms(rng)[:2]]
    cases.append(state(rng.arm(gravity=(-9.81, 0.0)), label="an arm mounted on a wall"))
    cases.append(Case(arm=ARM, q=rng.pose(2), qd=[0.0, 0.0], tau=[0.0, 0.0],
                      label="the motors off, the arm at rest: it starts to fall"))
    return cases


@acceleration.mistake("friction's sign: B qd is the torque the motors spend to overcome "
                      "friction, so it is taken away from tau with c and g, not added")
def _acceleration_friction_sign(arm, q, qd, tau):
    return _acceleration(arm, q, qd, tau, friction_sign=-1.0)


@acceleration.mistake("g(q) balances gravity: what is left for the acceleration is "
                      "tau - c - g - B qd")
def _acceleration_gravity_sign(arm, q, qd, tau):
    return _acceleration(arm, q, qd, tau, gravity_sign=-1.0)


@acceleration.mistake("the velocity products c(q, qd) are missing from what the torque must "
                      "pay for before it accelerates the arm")
def _acceleration_no_velocity(arm, q, qd, tau):
    return _acceleration(arm, q, qd, tau, velocity=False)


@acceleration.mistake("that is M times the free torque: M qdd = tau - c - g - B qd asks for "
                      "qdd, so solve the system with M (np.linalg.solve), do not multiply by M")
def _acceleration_times_mass(arm, q, qd, tau):
    return _acceleration(arm, q, qd, tau, times_mass=True)


# ---------------------------------------------------------------- Part 2: one step
def _step(arm, q, qd, tau, h, order="semi-implicit"):
    a = _acceleration(arm, q, qd, tau)
    qd_new = [v + h * x for v, x in zip(qd, a)]
    moving = qd if order == "explicit" else qd_new
    q_new = [x + h * v for x, v in zip(q, moving)]
    return [q_new, qd_new]


@reference(worked=Case(arm=ARM, q=deg(30, 45), qd=[0.0, 0.0], tau=[0.0, 0.0], h=1e-4,
                       label="Example 2's first step of the fall"),
           uses={"acceleration": acceleration}, atol=1e-12,
           advice="qd_new = qd + h qdd(q, qd, tau), then q_new = q + h qd_new")
def semi_implicit_step(arm, q, qd, tau, h):
    """One semi-implicit Euler step: (q_new (2,) [rad], qd_new (2,) [rad/s])."""
    return _step(arm, q, qd, tau, h)


@semi_implicit_step.fresh
def _step_cases(rng):
    def state(arm, h, label=None):
        return Case(arm=arm, q=rng.pose(2), qd=rng.vector(2, -3, 3, 0.5, nonzero=True),
                    tau=rng.vector(2, -5, 5, 0.5), h=h, label=label)

    cases = [state(arm, rng.choice([1e-3, 5e-4, 1e-4])) for arm in [ARM] + _other_arms(rng)]
    cases.append(state(ARM, 0.01, label="a coarse step of 10 ms"))
    return cases


@semi_implicit_step.mistake("that is explicit Euler: in the semi-implicit step the angle moves "
                            "with the new speed, q_new = q + h qd_new")
def _step_explicit(arm, q, qd, tau, h):
    return _step(arm, q, qd, tau, h, order="explicit")


@semi_implicit_step.mistake("the angle moves by h times the speed, not by h squared times the "
                            "acceleration alone: q_new = q + h qd_new")
def _step_no_speed(arm, q, qd, tau, h):
    a = _acceleration(arm, q, qd, tau)
    return [[x + h * h * v for x, v in zip(q, a)], [v + h * x for v, x in zip(qd, a)]]


# ---------------------------------------------------------------- Part 3: a short fall
def _fall(arm, q0, duration, h, extra=0):
    q, qd = list(q0), [0.0] * len(q0)
    for _ in range(int(round(duration / h)) + extra):
        q, qd = _step(arm, q, qd, [0.0, 0.0], h)
    return q


@reference(worked=Case(arm=ARM, q0=deg(30, 45), duration=0.25, h=1e-4,
                       label="the fall of Example 3, 0.25 s in steps of 0.1 ms"),
           uses={"semi_implicit_step": semi_implicit_step}, atol=1e-9,
           units={"return": "deg"},
           advice="start at rest, take round(duration / h) steps with zero torque, and return "
                  "the angles after the last one")
def fall(arm, q0, duration, h):
    """Joint angles (2,) [rad] after a fall from rest at q0, motors off, by semi-implicit Euler."""
    return _fall(arm, q0, duration, h)


@fall.fresh
def _fall_cases(rng):
    cases = []
    for arm in [ARM] + _other_arms(rng):
        cases.append(Case(arm=arm, q0=rng.pose(2), duration=rng.choice([0.1, 0.2, 0.3]),
                          h=rng.choice([1e-3, 5e-4])))
    cases.append(Case(arm=ARM, q0=deg(-90, 0), duration=0.2, h=1e-3,
                      label="the arm hanging straight down, where nothing moves"))
    return cases


@fall.mistake("count the steps: a fall of duration T in steps of h takes round(T / h) steps, "
              "no more")
def _fall_one_step_more(arm, q0, duration, h):
    return _fall(arm, q0, duration, h, extra=1)


# ---------------------------------------------------------------- Part 4: the total energy
def _energy(arm, q, qd, kinetic_half=0.5, potential_sign=1.0):
    kinetic = kinetic_half * dot(qd, matvec(_mass(arm, q), qd))
    _, coms = _points(arm, q)
    ax, ay = arm.gravity
    potential = -sum(m * (ax * c[0] + ay * c[1]) for m, c in zip(arm.masses, coms))
    return kinetic + potential_sign * potential


@reference(worked=Case(arm=ARM, q=deg(30, 45), qd=[0.0, 0.0],
                       label="the start of Example 3's fall, at rest"),
           allow=("mass_matrix", "com_positions"),
           advice="E = qd^T M qd / 2 - sum_i m_i gravity . c_i, with c_i the centre of mass of "
                  "link i; zero potential at the shoulder's height")
def total_energy(arm, q, qd):
    """Kinetic plus potential energy [J], zero potential with every centre of mass at the shoulder."""
    return _energy(arm, q, qd)


@total_energy.fresh
def _energy_cases(rng):
    cases = [Case(arm=arm, q=rng.pose(2), qd=rng.vector(2, -3, 3, 0.5, nonzero=True))
             for arm in [ARM] + _other_arms(rng)[:2]]
    cases.append(Case(arm=rng.arm(gravity=(-9.81, 0.0)), q=rng.pose(2),
                      qd=rng.vector(2, -3, 3, 0.5, nonzero=True),
                      label="an arm mounted on a wall, gravity along -x"))
    cases.append(Case(arm=ARM, q=deg(-90, 0), qd=[0.0, 0.0],
                      label="the arm hanging straight down, at rest"))
    return cases


@total_energy.mistake("the kinetic energy is qd^T M qd / 2: the factor one half")
def _energy_no_half(arm, q, qd):
    return _energy(arm, q, qd, kinetic_half=1.0)


@total_energy.mistake("the potential energy's sign: a centre of mass above the shoulder has "
                      "positive potential energy, V = -m gravity . c")
def _energy_potential_sign(arm, q, qd):
    return _energy(arm, q, qd, potential_sign=-1.0)


# ---------------------------------------------------------------- Part 5: a step for a bound
def _largest_energy_error(arm, q0, duration, h, order="semi-implicit"):
    """max |E(t) - E(0)| along a frictionless fall from rest, stepped at h [J]."""
    q, qd = list(q0), [0.0, 0.0]
    start = _energy(arm, q, qd)
    worst = 0.0
    for _ in range(int(round(duration / h))):
        q, qd = _step(arm, q, qd, [0.0, 0.0], h, order)
        worst = max(worst, abs(_energy(arm, q, qd) - start))
    return worst


def _coarsest(arm, q0, duration, steps, bound, order="semi-implicit", pick=max):
    good = [h for h in steps if _largest_energy_error(arm, q0, duration, h, order) <= bound]
    return pick(good) if good else min(steps)


SWING = ArmData.from_arm(tabletop_arm(), "the frictionless table-top arm")
SWING_STEPS = [5e-3, 2e-3, 1e-3, 5e-4]


@reference(worked=Case(arm=SWING, q0=deg(-60, 0), duration=1.0, steps=SWING_STEPS, bound=0.005,
                       label="the swing of the chapter's energy figure, for 1 s"),
           allow=("simulate", "Simulation", "kinetic_energy", "potential_energy"),
           units={"steps": "s", "bound": "J"}, atol=1e-12,
           advice="simulate the fall at each step (control_dt=h, substeps=1), take the largest "
                  "|energy_error| along each run, and keep the largest step within the bound")
def coarsest_step(arm, q0, duration, steps, bound):
    """The largest of ``steps`` [s] whose semi-implicit Euler fall keeps |E - E(0)| <= bound."""
    return _coarsest(arm, q0, duration, steps, bound)


def _energy_errors(arms, starts, steps, duration):
    """max |E(t) - E(0)| [J] of frictionless falls from rest, semi-implicit Euler, for every
    arm and start (rows) and every step (columns): the same sums as :func:`_step` and
    :func:`_energy`, on arrays, one pass for all of them (drawing a student's cases must
    take well under a second)."""
    import numpy as np

    A, H = len(arms), len(steps)
    col = lambda values: np.repeat(np.array(values, dtype=float), H)     # noqa: E731
    L1 = col([a.lengths[0] for a in arms])
    m1, m2 = col([a.masses[0] for a in arms]), col([a.masses[1] for a in arms])
    c1, c2 = col([a.com[0] for a in arms]), col([a.com[1] for a in arms])
    I1, I2 = col([a.inertia[0] for a in arms]), col([a.inertia[1] for a in arms])
    gx, gy = col([a.gravity[0] for a in arms]), col([a.gravity[1] for a in arms])
    h = np.tile(np.array(steps, dtype=float), A)
    count = np.rint(duration / h).astype(int)
    q = np.repeat(np.array(starts, dtype=float), H, axis=0)
    qd = np.zeros_like(q)
    beta, delta = m2 * L1 * c2, I2 + m2 * c2 * c2
    alpha = I1 + m1 * c1 * c1 + delta + m2 * L1 * L1

    def energy(q, qd):
        c = np.cos(q[:, 1])
        kinetic = 0.5 * ((alpha + 2 * beta * c) * qd[:, 0] ** 2
                         + 2 * (delta + beta * c) * qd[:, 0] * qd[:, 1] + delta * qd[:, 1] ** 2)
        a1, a12 = q[:, 0], q[:, 0] + q[:, 1]
        x1, y1 = c1 * np.cos(a1), c1 * np.sin(a1)
        x2 = L1 * np.cos(a1) + c2 * np.cos(a12)
        y2 = L1 * np.sin(a1) + c2 * np.sin(a12)
        return kinetic - m1 * (gx * x1 + gy * y1) - m2 * (gx * x2 + gy * y2)

    start, worst = energy(q, qd), np.zeros(len(h))
    for k in range(int(count.max())):
        live = k < count
        c, s = np.cos(q[:, 1]), np.sin(q[:, 1])
        a1, a12 = q[:, 0], q[:, 0] + q[:, 1]
        hh = m2 * L1 * c2 * s
        v = np.stack([-hh * (2 * qd[:, 0] * qd[:, 1] + qd[:, 1] ** 2), hh * qd[:, 0] ** 2], 1)
        elbow = -m2 * c2 * (gx * -np.sin(a12) + gy * np.cos(a12))
        shoulder = -(m1 * c1 + m2 * L1) * (gx * -np.sin(a1) + gy * np.cos(a1)) + elbow
        f0, f1 = -v[:, 0] - shoulder, -v[:, 1] - elbow
        M11, M12, M22 = alpha + 2 * beta * c, delta + beta * c, delta
        det = M11 * M22 - M12 * M12
        qdd = np.stack([(M22 * f0 - M12 * f1) / det, (M11 * f1 - M12 * f0) / det], 1)
        qd = np.where(live[:, None], qd + h[:, None] * qdd, qd)
        q = np.where(live[:, None], q + h[:, None] * qd, q)
        worst = np.where(live, np.maximum(worst, np.abs(energy(q, qd) - start)), worst)
    return worst.reshape(A, H)


@coarsest_step.fresh
def _coarsest_cases(rng):
    arms = [SWING, rng.arm(), rng.arm(inertia=True), rng.arm(gravity=(-9.81, 0.0))]
    starts = []
    for k in range(len(arms)):
        hanging = -90 if k < 3 else 180          # the wall-mounted arm hangs along -x
        starts.append(deg(hanging + rng.integer(-30, 30), rng.integer(-40, 40)))
    errors = _energy_errors(arms, starts, SWING_STEPS, 0.3)
    cases = []
    for k, arm in enumerate(arms):
        # a bound between two neighbouring errors, so the answer is clear-cut
        i = rng.integer(1, len(SWING_STEPS) - 1)
        bound = float(f"{(errors[k][i - 1] * errors[k][i]) ** 0.5:.2g}")
        cases.append(Case(arm=arm, q0=starts[k], duration=0.3, steps=SWING_STEPS, bound=bound,
                          label="an arm mounted on a wall" if k == 3 else None))
    return cases


@coarsest_step.mistake("use the book's integrator, semi-implicit Euler "
                       "(method=\"semi_implicit_euler\"): explicit Euler gains energy every "
                       "swing and needs finer steps")
def _coarsest_explicit(arm, q0, duration, steps, bound):
    return _coarsest(arm, q0, duration, steps, bound, order="explicit")


@coarsest_step.mistake("the coarsest step: of the steps that keep the error within the bound, "
                       "the largest, which costs the fewest evaluations")
def _coarsest_finest(arm, q0, duration, steps, bound):
    return _coarsest(arm, q0, duration, steps, bound, pick=min)
