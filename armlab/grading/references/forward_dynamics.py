"""Grading references for the forward dynamics chapter's exercises (``solutions/forward_dynamics``).

They run in the grader: armlab computes what it has (forward dynamics, its simulation,
the energies), numpy the rest (each likely mistake, the stability bounds; the tests
compare the bounds with ``armlab.accuracy.stable_step``). The design part's judge
simulates the student's step. The arms' data come from the chapter's presets.
"""

import math
from functools import partial

import numpy as np

from armlab.grading.references import (Arm, Case, al, all_symbols, changed, deg, derivation,
                                       design, exact_draws, listed, planar_arm, reference)

ARM = Arm.from_arm(al.tabletop_arm(damping=0.02), "the chapter's table-top arm")
"""The chapter's arm: 0.30 m / 2.0 kg and 0.25 m / 1.0 kg rods, friction 0.02 N m s/rad."""
RIGID = Arm.from_arm(al.tabletop_arm(), "the table-top arm without friction")
FLAT = Arm(**dict(RIGID.fields(), gravity=(0.0, 0.0)),
           label="the table-top arm laid flat, without friction")
EX1 = dict(q=deg(30, 45), qd=[1.0, 2.0], tau=[5.7796, 0.4443])
"""Example 1's worked instant, with its torques as printed."""
WALL_GRAVITY = (-9.81, 0.0)


def _other_arms(rng):
    """Arms the chapter does not work out: uniform rods and links that are not (both with
    some friction), and an arm mounted on a wall."""
    return [changed(rng.arm(), damping=rng.uniform(0.0, 0.1, 0.01)),
            changed(rng.arm(inertia=True), damping=rng.uniform(0.0, 0.1, 0.01)),
            rng.arm(gravity=WALL_GRAVITY)]


# ---------------------------------------------------------------- Part 1: qdd from tau
FRICTION_SLIP = "a damping torque's sign: with the motion, not against it"
"""A conceptual slip that carries (``slip=``): friction's sign in Part 1, the claimed fall's
friction run in Part 7, the damper's sign in Part 9."""
ORDER_SLIP = "the step's order: the angle moved first, the speed then from the new angle"
"""The other slip that carries: semi-implicit Euler taken as "the acceleration at the new
angle", written by hand in Part 3's fall (from rest it lands exactly one step behind the
right fall), in Part 7's runs and in Part 9's matrix (the trial class's slip student)."""


def _acceleration(arm, q, qd, tau, friction=1.0, gravity=1.0, velocity=1.0, multiply=False):
    real, qd = planar_arm(arm), np.asarray(qd, dtype=float)
    b = (np.asarray(tau, dtype=float) - velocity * al.coriolis_torques(real, q, qd)
         - gravity * al.gravity_torques(real, q) - friction * np.asarray(arm.damping) * qd)
    M = al.mass_matrix(real, q)
    return listed(M @ b if multiply else np.linalg.solve(M, b))


@reference(worked=[Case(arm=RIGID, **EX1, label="Example 1's worked instant, its torques as printed"),
                   Case(arm=ARM, **EX1, label="the same instant on the chapter's arm, with its "
                                              "friction")],
           allow=("mass_matrix", "coriolis_torques", "gravity_torques"),
           advice="solve M(q) qdd = tau - c(q, qd) - g(q) - B qd for qdd, with B = arm.damping")
def acceleration(arm, q, qd, tau):
    """Joint accelerations (2,) [rad/s^2] that torques tau produce (no tip force)."""
    return listed(al.forward_dynamics(planar_arm(arm), q, qd, tau))


@acceleration.fresh
def _acceleration_cases(rng):
    def state(arm, label=None):
        return Case(arm=arm, q=rng.pose(2), qd=rng.vector(2, -3, 3, 0.5, nonzero=True),
                    tau=rng.vector(2, -5, 5, 0.5), label=label)

    cases = [state(arm) for arm in [ARM] + _other_arms(rng)[:2]]
    cases.append(state(rng.arm(gravity=WALL_GRAVITY), label="an arm mounted on a wall"))
    cases.append(Case(arm=ARM, q=rng.pose(2), qd=[0.0, 0.0], tau=[0.0, 0.0],
                      label="the motors off, the arm at rest: it starts to fall"))
    return cases


acceleration.mistake(
    "friction's sign: B qd is the torque the motors spend to overcome friction, so it is taken "
    "away from tau with c and g, not added", partial(_acceleration, friction=-1.0),
    slip=FRICTION_SLIP)
acceleration.mistake(
    "g(q) balances gravity: what is left for the acceleration is tau - c - g - B qd",
    partial(_acceleration, gravity=-1.0))
acceleration.mistake(
    "the velocity products c(q, qd) are missing from what the torque must pay for before it "
    "accelerates the arm", partial(_acceleration, velocity=0.0))
acceleration.mistake(
    "friction B qd is missing: the motors spend it before anything is left for the acceleration "
    "(arm.damping, N m s/rad)", partial(_acceleration, friction=0.0))
acceleration.mistake(
    "that is M times the free torque: M qdd = tau - c - g - B qd asks for qdd, so solve the "
    "system with M (np.linalg.solve), do not multiply by M", partial(_acceleration, multiply=True))


# ---------------------------------------------------------------- Part 2: a motor fails
MOTORS = ("shoulder", "elbow")


def _after_failure(arm, q, motor, kept=1.0, swap=False, tip=True, transpose=False):
    real = planar_arm(arm)
    tau = kept * np.asarray(al.gravity_torques(real, q), dtype=float)
    tau[MOTORS.index(motor) ^ swap] = 0.0
    qdd = al.forward_dynamics(real, q, np.zeros(2), tau)
    if not tip:
        return listed(qdd)
    J = al.jacobian(real, q)
    return listed((J.T if transpose else J) @ qdd)


@reference(worked=[Case(arm=ARM, q=deg(30, 45), motor="elbow",
                        label="the chapter's arm held at (30°, 45°), the elbow's motor failing"),
                   Case(arm=ARM, q=deg(30, 45), motor="shoulder",
                        label="the same pose, the shoulder's motor failing")],
           allow=("gravity_torques", "forward_dynamics", "mass_matrix", "jacobian"),
           units={"return": "m/s^2"},
           advice="tau = g(q) held the arm: what is left of it when one motor stops, and how "
                  "do the joints' accelerations at rest move the tip?")
def tip_after_failure(arm, q, motor):
    """The tip's acceleration (2,) [m/s^2] the instant the ``motor`` ("shoulder" or "elbow")
    stops while the other keeps the torque that held the arm at rest at ``q``."""
    return _after_failure(arm, q, motor)


@tip_after_failure.fresh
def _failure_cases(rng):
    motors = [rng.choice(MOTORS) for _ in range(4)]
    cases = [Case(arm=arm, q=_held_pose(rng, arm, m), motor=m)
             for arm, m in zip([ARM] + _other_arms(rng), motors)]
    other = MOTORS[1 - MOTORS.index(motors[0])]
    cases.append(Case(arm=ARM, q=_held_pose(rng, ARM, other), motor=other,
                      label="the chapter's arm, the other motor failing"))
    return cases


def _held_pose(rng, arm, motor, draws=4):
    """Of ``draws`` random poses, the one where the failing motor held the most torque: never
    a pose where it held none (its link plumb), whose answer, the arm at rest, a constant
    zero would pass."""
    poses = [rng.pose(2) for _ in range(draws)]
    held = [abs(al.gravity_torques(planar_arm(arm), q)[MOTORS.index(motor)]) for q in poses]
    return poses[int(np.argmax(held))]


tip_after_failure.mistake(
    "that is both motors off: the motor that still works keeps its holding torque",
    partial(_after_failure, kept=0.0))
tip_after_failure.mistake(
    "the other motor stopped in yours: the shoulder turns joint 1 (tau[0]), the elbow joint 2",
    partial(_after_failure, swap=True))
tip_after_failure.mistake(
    "the working motor's torque has the wrong sign: it holds the arm against gravity",
    partial(_after_failure, kept=-1.0))
tip_after_failure.mistake(
    "those are the joints' accelerations [rad/s^2]; the part asks for the tip's [m/s^2]",
    partial(_after_failure, tip=False))
tip_after_failure.mistake(
    "the joints' accelerations are carried to the tip by the wrong matrix (is it transposed?)",
    partial(_after_failure, transpose=True))


# ---------------------------------------------------------------- Part 3: a short fall
def _fall(arm, q0, duration, h, extra=0, method="semi_implicit_euler"):
    return listed(al.simulate(planar_arm(arm), q0, duration + extra * h, control_dt=h,
                              substeps=1, method=method).q[-1])


def _fall_by_acceleration(arm, q0, duration, h):
    """The fall whose angle moves by h^2 times the acceleration alone."""
    q, qd = np.asarray(q0, dtype=float), np.zeros(2)
    for _ in range(round(duration / h)):
        a = np.asarray(acceleration(arm, q, qd, np.zeros(2)))
        q, qd = q + h * h * a, qd + h * a
    return listed(q)


@reference(worked=Case(arm=ARM, q0=deg(30, 45), duration=0.25, h=1e-3,
                       label="the fall of Example 3, 0.25 s in steps of 1 ms (Table 5.2)"),
           uses={"acceleration": acceleration}, atol=1e-9,
           units={"return": "deg"},
           advice="the fall starts at rest with the motors off: how many steps of h make "
                  "the duration, and which velocity does each step's position update use?")
def fall(arm, q0, duration, h):
    """Joint angles (2,) [rad] after a fall from rest at q0, motors off, by semi-implicit Euler."""
    return _fall(arm, q0, duration, h)


@fall.fresh
def _fall_cases(rng):
    cases = [Case(arm=arm, q0=rng.pose(2), duration=rng.choice([0.1, 0.2, 0.3]),
                  h=rng.choice([2e-3, 5e-3, 1e-2])) for arm in [ARM] + _other_arms(rng)]
    cases.append(Case(arm=ARM, q0=deg(-90, 0), duration=0.2, h=1e-2,
                      label="the arm hanging straight down, where nothing moves"))
    return cases


fall.mistake(
    "that is explicit Euler: in the chapter's semi-implicit step the angle moves with the new "
    "speed, q_new = q + h qd_new", partial(_fall, method="explicit_euler"))
fall.mistake(
    "the angle moves by h times the speed, not by h squared times the acceleration alone: "
    "q_new = q + h qd_new", _fall_by_acceleration)
fall.mistake(
    "count the steps: a fall of duration T in steps of h takes round(T / h) steps, no more",
    partial(_fall, extra=1))
fall.mistake(
    "the fall ends one step short: count the steps (a fall of duration T in steps of h takes "
    "round(T / h) steps, no fewer), and which of q and qd does each step update first? From "
    "rest, a step that moves the angle first lands exactly one step behind",
    partial(_fall, extra=-1), slip=ORDER_SLIP)


# ---------------------------------------------------------------- Part 4: a locked swing
def _locked_speed(arm, q0, half=0.5, bottom="centre", inertia="M11"):
    """The largest shoulder speed of the arm swinging from rest at q0 with its elbow locked:
    energy from the start to the lowest point, where the arm's centre of mass is straight
    along gravity from the shoulder; T = M_11 qd1^2 / 2 with qd2 = 0."""
    real, q0 = planar_arm(arm), np.asarray(q0, dtype=float)
    m, c = np.asarray(real.masses, dtype=float), al.com_positions(real, q0)
    g = np.asarray(real.gravity, dtype=float)
    down = math.atan2(g[1], g[0])
    centre = m @ c / m.sum()
    turn = down - (math.atan2(centre[1], centre[0]) if bottom == "centre" else q0[0])
    drop = float(al.potential_energy(real, q0) - al.potential_energy(real, q0 + [turn, 0.0]))
    M = al.mass_matrix(real, q0)
    if inertia == "M11":
        I = M[0, 0]
    elif inertia == "all":                  # both joints turning at qd1
        I = M.sum()
    else:                                   # the links as point masses at their centres
        I = float(m @ np.sum(c * c, axis=1))
    return float(math.sqrt(max(0.0, drop / (half * I))))


@reference(worked=[Case(arm=RIGID, q0=deg(30, 45),
                        label="the table-top arm without friction, released at (30°, 45°)"),
                   Case(arm=RIGID, q0=deg(120, -90),
                        label="the same arm released at (120°, -90°)")],
           allow=("mass_matrix", "com_positions", "potential_energy", "kinetic_energy"),
           units={"return": "rad/s"},
           advice="where along the swing is the locked arm's potential energy lowest, and "
                  "what is its kinetic energy when only the shoulder turns?")
def locked_swing_speed(arm, q0):
    """The largest shoulder speed [rad/s] of a frictionless arm released from rest at q0
    with its elbow locked."""
    return _locked_speed(arm, q0)


@locked_swing_speed.fresh
def _locked_cases(rng):
    def start(arm, label=None):
        return Case(arm=arm, q0=rng.pose(2), label=label)

    return [start(RIGID), start(rng.arm()), start(rng.arm(inertia=True),
                                                  "links that are not uniform rods"),
            start(rng.arm(gravity=WALL_GRAVITY), "an arm mounted on a wall, gravity along -x"),
            Case(arm=RIGID, q0=deg(rng.integer(60, 120), rng.sign() * rng.integer(20, 60)),
                 label="the table-top arm released high, above the shoulder")]


locked_swing_speed.mistake(
    "the swing's lowest point is not where link 1 hangs: with the elbow locked and bent, "
    "where along the swing is the whole arm's potential energy lowest?",
    partial(_locked_speed, bottom="link 1"))
locked_swing_speed.mistake(
    "the elbow is locked: its angle q2 does not change, so the joint speeds are (qd1, 0)",
    partial(_locked_speed, inertia="all"))
locked_swing_speed.mistake(
    "each link also turns about its own centre of mass: its moment of inertia counts in the "
    "kinetic energy", partial(_locked_speed, inertia="points"))
locked_swing_speed.mistake(
    "the kinetic energy is qd^T M qd / 2: the factor one half", partial(_locked_speed,
                                                                       half=1.0))


# ---------------------------------------------------------------- Part 5: design a step
SWING = Arm.from_arm(al.tabletop_arm(), "the frictionless table-top arm")
MOST_STEPS = 6_000
"""The longest run the check simulates (with 2h and 4h, 10,500 steps, about half a second);
every fresh case's tolerance is met by a run of at most 2,048 steps."""


def drift(arm, q0, duration, h):
    """The largest energy error [J] of a frictionless swing from rest at ``q0``: ``ceil(duration
    / h)`` semi-implicit Euler steps of ``h`` (``inf`` if the run grows past floating point)."""
    n = max(1, math.ceil(duration / h - 1e-9))
    try:
        run = al.simulate(planar_arm(arm), q0, n * h, control_dt=h, substeps=1,
                          method="semi_implicit_euler")
    except ValueError:
        return math.inf
    return float(np.abs(run.energy_error).max())


SEARCH = ("is your search simulating semi-implicit Euler, the integrator the part names, and "
          "does it look for the largest step that meets the tolerance?")


def _mj(energy):
    return f"{energy * 1e3:.3g} mJ" if math.isfinite(energy) else "beyond any bound"


@design(worked=[Case(arm=SWING, q0=deg(-60, 0), duration=2.0, tolerance=0.005,
                     label="the first two seconds of the swing of the chapter's energy figure "
                           "(Fig. 5.4)"),
                Case(arm=SWING, q0=deg(30, 45), duration=0.25, tolerance=0.01,
                     label="the first 0.25 s of Example 3's fall without friction, within "
                           "10 mJ")],
        allow=("simulate", "Simulation", "kinetic_energy", "potential_energy"),
        units={"tolerance": "J"})
def swing_step(arm, q0, duration, tolerance, answer):
    """Judge a step ``h`` [s] for the swing: the spec is that semi-implicit Euler at ``h``
    keeps max |E(t) - E(0)| within ``tolerance`` and that ``2 h`` does not (the largest step,
    to within a factor of two). Partial credit for an error up to 50 % over the tolerance,
    and for a step within it that is shorter than it could be, but by less than four times."""
    h = float(np.asarray(answer, dtype=float).reshape(-1)[0]) if np.size(answer) == 1 else None
    if h is None or not h > 0 or not math.isfinite(h):
        return 0.0, f"the answer {answer!r} is not a step: expected one positive number of seconds"
    said = f"h = {h * 1e3:.4g} ms"
    if math.ceil(duration / h - 1e-9) > MOST_STEPS:
        return 0.0, (f"{said} takes more than {MOST_STEPS:,} steps for the swing, far more than "
                     f"the tolerance needs: {SEARCH}")
    error = drift(arm, q0, duration, h)
    allowed = f"the tolerance of {_mj(tolerance)}"
    if error > tolerance:
        over = error / tolerance - 1.0
        ratio = f"{over:.0%} over" if over < 10 else f"{error / tolerance:.0f} times"
        return max(0.0, 1.0 - 2.0 * over), (
            f"with {said} the energy error reaches {_mj(error)}, {ratio} {allowed}: the step is "
            "too long (is each tick one plant step, substeps=1, and the error the largest "
            "along the run?)")
    longer = drift(arm, q0, duration, 2 * h)
    if longer > tolerance:
        return 1.0, (f"with {said} the energy error stays within {_mj(error)}, inside "
                     f"{allowed}, and twice the step would reach {_mj(longer)}")
    longest = drift(arm, q0, duration, 4 * h)
    if longest > tolerance:
        return 0.5, (f"{said} meets {allowed} ({_mj(error)}), but so does twice the step "
                     f"({_mj(longer)}): a step twice as long would halve the cost")
    return 0.0, (f"{said} meets {allowed} ({_mj(error)}), but so does four times the step "
                 f"({_mj(longest)}): {SEARCH}")


@swing_step.fresh
def _swing_cases(rng):
    """Swings of other arms from 20-60 degrees out, for 0.5-1.5 s; the tolerance is drawn so that
    the largest step within it is 1-6 ms (semi-implicit Euler's error grows in proportion to
    the step, measured here at 5 ms)."""
    arms = [SWING, rng.arm(), rng.arm(inertia=True), rng.arm(gravity=WALL_GRAVITY)]
    cases = []
    for k, arm in enumerate(arms):
        hanging = 180 if k == 3 else -90           # the wall-mounted arm hangs along -x
        q0 = deg(hanging + rng.sign() * rng.integer(20, 60), rng.integer(-40, 40))
        duration = rng.choice([0.5, 1.0, 1.5])
        per_second = drift(arm, q0, duration, 5e-3) / 5e-3          # [J per s of step]
        target = rng.choice([1.0, 1.5, 2.0, 3.0, 4.5, 6.0]) * 1e-3
        cases.append(Case(arm=arm, q0=q0, duration=duration,
                          tolerance=float(f"{per_second * target:.2g}"),
                          label="an arm mounted on a wall, gravity along -x" if k == 3 else None))
    return cases


# ---------------------------------------------------------------- Part 7: the flaw in a fall
FLAWS = ("none", "explicit Euler", "friction's sign", "one step too many")
"""The slips a claimed fall may have, by the number the part asks for."""


def _flawed_fall(arm, q0, duration, h, flaw=0, push=2.0, late=False):
    """The fall of Part 3 with one of the ``FLAWS``: explicit Euler moves the angle with the
    old speed; friction's sign makes M qdd = -c - g + B qd (a torque of ``push`` B qd = 2 B qd
    on the true equation; -2 B qd is that run built by a student who has friction's sign
    reversed, from their own equation); one step too many takes round(T / h) + 1 steps.
    ``late``: the run stepped with the angle first (``ORDER_SLIP``), which from rest is the
    run one step behind (explicit Euler's run is its own: it takes the old values anyway)."""
    if flaw == 0 and not late:
        return np.asarray(fall(arm, q0, duration, h))
    q, qd = np.asarray(q0, dtype=float), np.zeros(2)
    damping = np.asarray(arm.damping, dtype=float)
    for _ in range(round(duration / h) + (flaw == 3) - (late and flaw != 1)):
        tau = push * damping * qd if flaw == 2 else np.zeros(2)
        qd_new = qd + h * np.asarray(acceleration(arm, q, qd, tau))
        q, qd = q + h * (qd if flaw == 1 else qd_new), qd_new
    return q


def _diagnosis(arm, q0, duration, h, q_claimed, order=(0, 1, 2, 3), push=2.0, late=False):
    ends = [_flawed_fall(arm, q0, duration, h, flaw, push, late) for flaw in range(len(FLAWS))]
    gaps = [float(np.abs(end - np.asarray(q_claimed, dtype=float)).max()) for end in ends]
    return order[int(np.argmin(gaps))]


@reference(worked=lambda: _flaw_worked(),
           uses={"fall": fall, "acceleration": acceleration}, atol=0.0, rtol=0.0,
           units={"q0": "deg", "q_claimed": "deg"},
           advice="the claim matches one of the part's runs to the last digit: which one, "
                  "and is it the right fall or one of the flaws?")
def fall_flaw(arm, q0, duration, h, q_claimed):
    """Which of ``FLAWS`` a claimed fall has (0 for none): the number of the run it is."""
    return _diagnosis(arm, q0, duration, h, q_claimed)


def _claim(arm, q0, duration, h, flaw, label=None):
    return Case(arm=arm, q0=q0, duration=duration, h=h,
                q_claimed=listed(_flawed_fall(arm, q0, duration, h, flaw)), label=label)


def _flaw_worked():
    """Example 3's fall claimed three ways: by explicit Euler at 1 ms (Table 5.2's entry),
    with friction's sign reversed at 10 ms, and right at 5 ms."""
    q0 = deg(30, 45)
    return [_claim(ARM, q0, 0.25, 1e-3, 1, "Example 3's fall, 0.25 s at 1 ms, claimed "
                                          "(Table 5.2's explicit Euler entry)"),
            _claim(ARM, q0, 0.25, 1e-2, 2, "Example 3's fall, 0.25 s at 10 ms, claimed"),
            _claim(ARM, q0, 0.25, 5e-3, 0, "Example 3's fall, 0.25 s at 5 ms, claimed")]


@fall_flaw.fresh
def _flaw_cases(rng):
    """Every flaw at least once, on the chapter's arm and arms with more friction, one of
    them on a wall; each claim is far (over a millidegree) from the three other runs."""
    first = rng.integer(0, 3)
    flaws = [(first + k) % 4 for k in range(4)] + [rng.integer(0, 3)]
    arms = [ARM, changed(rng.arm(), damping=rng.uniform(0.05, 0.2, 0.01)),
            changed(rng.arm(inertia=True), damping=rng.uniform(0.05, 0.2, 0.01)),
            changed(rng.arm(gravity=WALL_GRAVITY), damping=rng.uniform(0.05, 0.2, 0.01)),
            ARM]
    return [_claim(arm, rng.pose(2), rng.choice([0.2, 0.3, 0.4]), rng.choice([2e-3, 5e-3, 1e-2]),
                   flaw, "an arm mounted on a wall, gravity along -x" if k == 3 else None)
            for k, (arm, flaw) in enumerate(zip(arms, flaws))]


fall_flaw.mistake(
    "Part 3's fall is semi-implicit Euler, the angle moved with the new speed: a claim equal to "
    "it is right (0), and one whose angle moved with the old speed is explicit Euler's (1)",
    partial(_diagnosis, order=(1, 0, 2, 3)))
fall_flaw.mistake(
    "friction's sign: the claimed run with friction pushing has + B qd where the right fall "
    "has - B qd; your run with friction pushing is off by the other sign (is B qd added to "
    "tau in your Part 1?)", partial(_diagnosis, push=-2.0), slip=FRICTION_SLIP)
fall_flaw.mistake(
    "your runs other than explicit Euler's end one step behind Part 3's fall: which of q and "
    "qd does your step update first? From rest, a step that moves the angle first lands "
    "exactly one step behind", partial(_diagnosis, late=True), slip=ORDER_SLIP)


# ---------------------------------------------------------------- Part 8: stable steps
RK4_REACH = 2.0 * math.sqrt(2.0)
"""RK4 is stable up to h omega = 2 sqrt 2 on an undamped oscillator (5.8)."""


def _stable(arm, q, kp, reach=(0.0, 2.0, RK4_REACH), mode=max, diagonal=False, root=True):
    M = al.mass_matrix(planar_arm(arm), q)
    kp = np.asarray(kp, dtype=float)
    squares = (kp / np.diag(M) if diagonal
               else np.linalg.eigvals(np.linalg.solve(M, np.diag(kp))).real)
    ringing = [w2 for w2 in squares if w2 > 1e-12 * max(squares.max(), 1e-300)]
    if not ringing:
        return [math.inf, math.inf, math.inf]
    omega = mode(ringing) ** (0.5 if root else 1.0)
    return [c / omega for c in reach]


@reference(worked=[Case(arm=FLAT, q=deg(0, 0), kp=[60.0, 30.0],
                        label="Example 4 without its dampers, the arm stretched"),
                   Case(arm=FLAT, q=deg(30, 45), kp=[60.0, 30.0],
                        label="Example 4's springs with the arm at (30°, 45°)")],
           allow=("mass_matrix",), units={"return": "s"},
           advice="which frequencies does the arm at q have on springs kp, which of them "
                  "sets a step's bound, and what bound does the chapter give each method?")
def stable_steps(arm, q, kp):
    """The largest stable steps [s] of explicit Euler, semi-implicit Euler and RK4 (3,) for the
    undamped small motions about q on joint springs kp; inf for all three without a spring."""
    return _stable(arm, q, kp)


def _flat_arm(rng, **options):
    return rng.arm(gravity=0.0, **options)


def _spring_case(rng, arm, label=None):
    q = deg(rng.integer(-170, 170), rng.integer(0, 170))
    kp = [rng.uniform(10, 5000, 10) for _ in range(2)]
    if kp[0] == kp[1]:                      # unequal gains
        kp[1] += 10.0
    return Case(arm=arm, q=q, kp=kp, label=label)


@stable_steps.fresh
def _stable_cases(rng):
    return [_spring_case(rng, FLAT), _spring_case(rng, _flat_arm(rng)),
            _spring_case(rng, _flat_arm(rng, inertia=True), "links that are not uniform rods"),
            Case(arm=FLAT, q=deg(0, rng.integer(0, 170)), kp=[100.0, 0.0],
                 label="a spring at the shoulder only: the elbow swings free"),
            Case(arm=_flat_arm(rng), q=deg(rng.integer(-170, 170), 0),
                 kp=[rng.uniform(10, 5000, 10), rng.uniform(10, 5000, 10)],
                 label="the arm stretched straight")]


@stable_steps.fresh("no spring")
def _no_spring(rng):
    """No spring at all (inf for all three methods) in a hidden cell of its own, then an
    ordinary case, so that inf alone earns nothing."""
    return [Case(arm=_flat_arm(rng), q=rng.pose(2), kp=[0.0, 0.0],
                 label="no springs: nothing rings"),
            _spring_case(rng, FLAT, "an arm with springs, checked beside the springless one so "
                                    "that np.inf alone earns nothing")]


stable_steps.mistakes_of(_stable, [
    ("the joints are coupled through M: the frequencies are the square roots of the "
     "eigenvalues of M^-1 K, not sqrt(kp_j / M_jj) joint by joint", {"diagonal": True}),
    ("the fastest mode sets the bound: every mode must stay stable, so take the largest "
     "frequency, not the smallest", {"mode": min}),
    ("the eigenvalues of M^-1 K are the frequencies squared: omega is their square root",
     {"root": False}),
    ("RK4 reaches further than semi-implicit Euler: 2 sqrt 2 on the imaginary axis (5.8), not 2",
     {"reach": (0.0, 2.0, 2.0)}),
    ("explicit Euler has no stable step on an undamped spring: its eigenvalues have size "
     "sqrt(1 + h^2 omega^2) > 1 at any step, so its bound is 0",
     {"reach": (2.0, 2.0, RK4_REACH)}),
])


@stable_steps.mistake("q is in radians already: do not convert it again before mass_matrix")
def _(arm, q, kp):
    return _stable(arm, [math.radians(a) for a in q], kp)


# ---------------------------------------------------------------- Part 9: a derivation
A_PARAMS = ("h", "K", "D", "I")


def _damped_step(h, K, D, I, *, method="semi", damping=1, transpose=False):
    """The amplification matrix of one step on I qdd = -K q - D qd, x = (q, qd): semi-
    implicit Euler (the speed first, then the angle with the new speed); the switches
    make a likely mistake."""
    import sympy

    d = damping * D
    if method == "explicit":                 # both updates from the old state
        A = sympy.Matrix([[1, h], [-h * K / I, 1 - h * d / I]])
    elif method == "angle first":            # q with the old speed, then qd with the new q
        A = sympy.Matrix([[1, h], [-h * K / I, 1 - h * d / I - h ** 2 * K / I]])
    else:
        A = sympy.Matrix([[1 - h ** 2 * K / I, h - h ** 2 * d / I], [-h * K / I, 1 - h * d / I]])
    return A.T if transpose else A


@derivation(worked=all_symbols(A_PARAMS),
            advice="which of q and qd does the step update first, and from which values "
                   "does the other take it?")
def damped_step_matrix(h, K, D, I):
    """A (2, 2): semi-implicit Euler's amplification matrix on a damped joint, as SymPy."""
    return _damped_step(h, K, D, I)


@damped_step_matrix.fresh
def _(rng):
    drawn, frac = exact_draws(rng, A_PARAMS)
    return [drawn("another joint and step", h=frac(1, 20, 1000), K=rng.integer(20, 900),
                  D=frac(1, 40, 10), I=frac(1, 50, 100)),
            drawn("an undamped joint", D=0),
            drawn("a joint of unit inertia", I=1, K=rng.integer(20, 900)),
            drawn("all symbols")]


damped_step_matrix.mistakes_of(_damped_step, [
    ("that is explicit Euler: the angle's update uses the new speed, qd_(k+1), "
     "not qd_k", {"method": "explicit"}),
    ("that updates the angle first: the chapter's semi-implicit Euler updates the speed "
     "first and the angle from the new speed", {"method": "angle first"}, ORDER_SLIP),
    ("A maps x_k to x_(k+1): row i holds the new x_i's coefficients (is it transposed?)",
     {"transpose": True}),
    ("the damper's sign: its torque -D qd opposes the motion", {"damping": -1}, FRICTION_SLIP),
    ("the damper is missing: I qdd = -K q - D qd", {"damping": 0}),
])
