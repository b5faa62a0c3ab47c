"""Grading references for the control chapter's exercises (``solutions/control``).

The references compute with numpy and armlab (``al.gravity_torques``,
``al.inverse_dynamics``, ``al.mass_matrix``, ``al.settled_error``); the largest PD gain
a tick allows, the integral of a bumpless start, the smallest computed-torque gain that
keeps a rest within a tolerance and the tick at which the clamp holds are written out
here, and the tests compare them with armlab's controllers run tick by tick and with
other routes. The
design part (:func:`step_gains`) is judged by what the student's gains do:
the grader runs computed torque with them on the case's move, as the chapter
simulates (``al.simulate``, one RK4 step per 1 ms tick), and measures the
settling, the overshoot and the torques.
"""

import math
from functools import partial

import numpy as np

from armlab.grading.references import (Arm, Case, al, all_symbols, deg, derivation, design,
                                       drawn_arms, exact_draws, planar_arm, reference)

REAL = Arm.from_arm(al.tabletop_arm(damping=0.02), "the chapter's real arm (friction 0.02)")
MODEL = Arm.from_arm(al.tabletop_arm(damping=0.016),
                     "the chapter's model of the arm (friction 0.016)")
LOADED = Arm.from_arm(al.tabletop_arm(damping=0.02).with_payload(0.5),
                      "the chapter's arm with 0.5 kg in its gripper")
START, END = (-45.0, 90.0), (60.0, -30.0)
"""The chapter's move [deg]."""
KP, KD, KI = [60.0, 30.0], [4.0, 1.5], [60.0, 30.0]
"""The chapter's PID-family gains."""
CT_KP, CT_KD = [400.0, 400.0], [40.0, 40.0]
"""The chapter's computed-torque gains: 20 rad/s, critically damped."""
MOTORS = [8.0, 2.0]
"""The limits chapter's motors for the table-top arm [N m]."""

UNITS = {"q_plan": "deg", "q_target": "deg", "qd_plan": "rad/s", "qdd_plan": "rad/s²",
         "integral": "N m", "ki": "N m/(rad s)", "omega": "rad/s", "zeta": "",
         "inertia": "kg m²", "low": "N m", "high": "N m", "settle_time": "s", "overshoot": "%"}
CT_UNITS = dict(UNITS, kp="1/s²", kd="1/s")


def _a(*values):
    return [np.asarray(v, dtype=float) for v in values]


def _near(rng, q, spread):
    """A plan near the pose q: each angle off by a whole number of degrees within spread."""
    return (np.asarray(q) + np.radians(rng.vector(2, -spread, spread, 1))).tolist()


# ---------------------------------------------------------------- Part 1: the stiffest PD tick
BUMP = dict(q=deg(32, 43), qd=[0.5, -0.5], q_plan=deg(30, 45), qd_plan=[0.0, 0.0])
"""The chapter's worked tick: the arm held at (30°, 45°), bumped to (32°, 43°)."""


SLIP_SIGN = "the error taken as the measured state minus the plan"
"""The slip of Parts 1, 2, 3, 5, 7 and 8 (``slip=``): costs once, in the first part that makes
it."""


def _pd_gain(arm, q, qd, q_plan, qd_plan, kd, limit, gravity=True, damping=True, both=True,
             sign=1.0):
    """The largest Kp [N m/rad], the same at both joints, with which this tick of PD with
    gravity compensation asks every joint for at most +-limit; inf where no joint bounds it
    (no angle error); ``sign`` -1: the error taken the other way (a mistake)."""
    q, qd, q_plan, qd_plan, kd, limit = _a(q, qd, q_plan, qd_plan, kd, limit)
    e = sign * (q_plan - q)
    base = ((al.gravity_torques(planar_arm(arm), q) if gravity else 0.0)
            + (kd * sign * (qd_plan - qd) if damping else 0.0))
    ks = [((lj if ej > 0 else -lj) - bj) / ej for ej, bj, lj in zip(e, base + 0 * e, limit)
          if ej > 0 or (ej < 0 and both)]
    return float(min(ks, default=math.inf))


@reference(worked=[Case(arm=MODEL, kd=KD, limit=MOTORS, **BUMP,
                        label="the bump of the chapter's worked tick, on the limits "
                              "chapter's motors (8, 2) N m"),
                   Case(arm=MODEL, kd=KD, limit=MOTORS, q=deg(30, 47), qd=[0.0, 0.5],
                        q_plan=deg(30, 45), qd_plan=[0.0, 0.0],
                        label="the elbow alone bumped the other way, to 47°, on the same "
                              "motors")],
           allow=("gravity_torques",), units=dict(UNITS, limit="N m", **{"return": "N m/rad"}),
           advice="the torque of this tick grows in a straight line with Kp: where does each "
                  "joint's line leave its band -limit_j .. limit_j?")
def largest_pd_gain(arm, q, qd, q_plan, qd_plan, kd, limit):
    """The largest Kp [N m/rad], equal at both joints, whose PD + gravity tick asks no
    motor for more than its limit; ``arm`` is the controller's model."""
    return _pd_gain(arm, q, qd, q_plan, qd_plan, kd, limit)


def _gain_case(rng, arm, label=None):
    """A bump of a few degrees from the plan and motors 0.5-4 N m above the torque the tick
    needs without Kp, so that the largest Kp is positive."""
    q = rng.pose(2)
    q_plan = _near(rng, q, 8)
    while np.allclose(q_plan, q):
        q_plan = _near(rng, q, 8)
    qd, kd = rng.vector(2, -1.0, 1.0, 0.1), rng.vector(2, 0.5, 8.0, 0.5)
    base = al.gravity_torques(planar_arm(arm), q) - np.asarray(kd) * qd
    limit = [round(abs(b) + rng.uniform(0.5, 4.0, 0.1), 1) for b in base]
    return Case(arm=arm, q=q, qd=qd, q_plan=q_plan, qd_plan=[0.0, 0.0], kd=kd, limit=limit,
                label=label)


@largest_pd_gain.fresh
def _(rng):
    return ([_gain_case(rng, arm) for arm in drawn_arms(rng, 3, MODEL)]
            + [_gain_case(rng, rng.arm(inertia=True)),
               _gain_case(rng, rng.arm(gravity=(-9.81, 0.0), label="an arm on a wall"))])


largest_pd_gain.mistakes_of(_pd_gain, [
    ("the model's gravity torque g(q) is part of the tick's torque: it takes its share of each "
     "limit at any Kp", {"gravity": False}),
    ("the damping term Kd (qd_plan - qd) is part of the tick's torque too", {"damping": False}),
    ("a torque limit bounds both directions: a joint whose error is negative meets -limit_j",
     {"both": False}),
    ("the error is the plan minus the measured state: e = q_plan - q, de = qd_plan - qd",
     {"sign": -1.0}, SLIP_SIGN),
])


# ---------------------------------------------------------------- Part 2: a bumpless start
def _bumpless(arm, q, qd, q_plan, qd_plan, kp, kd, ki, dt, with_step=True, sign=1.0,
              at_plan=False):
    q, qd, q_plan, qd_plan, kp, kd, ki = _a(q, qd, q_plan, qd_plan, kp, kd, ki)
    e, de = sign * (q_plan - q), sign * (qd_plan - qd)
    hold = al.gravity_torques(planar_arm(arm), q_plan if at_plan else q)
    return (hold - kp * e - kd * de - (ki * e * dt if with_step else 0.0)).tolist()


@reference(worked=Case(arm=MODEL, kp=KP, kd=KD, ki=KI, dt=0.001, **BUMP,
                       label="the chapter's bump, the PID taking over from the gravity hold"),
           allow=("gravity_torques",), units=UNITS,
           advice="write the first tick's torque with an unknown integral I, set it equal to "
                  "the torque that holds the arm now, and solve for I")
def bumpless_integral(arm, q, qd, q_plan, qd_plan, kp, kd, ki, dt):
    """The integral (2,) [N m] a PID must start with so that its first tick gives the
    model's gravity torque at the measured pose, g(q): no bump at the switch."""
    return _bumpless(arm, q, qd, q_plan, qd_plan, kp, kd, ki, dt)


@bumpless_integral.fresh
def _(rng):
    cases = []
    for arm in drawn_arms(rng, 3, MODEL) + [rng.arm(gravity=(-9.81, 0.0),
                                                    label="an arm on a wall")]:
        q = rng.pose(2)
        cases.append(Case(arm=arm, q=q, qd=rng.vector(2, -2.0, 2.0, 0.1), q_plan=_near(rng, q, 8),
                          qd_plan=rng.vector(2, -2.0, 2.0, 0.1), kp=rng.vector(2, 10, 120, 5),
                          kd=rng.vector(2, 0.5, 8.0, 0.5), ki=rng.vector(2, 10, 200, 5),
                          dt=rng.choice([0.0005, 0.001, 0.002, 0.004])))
    q = rng.pose(2)
    cases.append(Case(arm=rng.arm(), q=q, qd=[0.0, 0.0], q_plan=q, qd_plan=[0.0, 0.0],
                      kp=rng.vector(2, 10, 120, 5), kd=rng.vector(2, 0.5, 8.0, 0.5),
                      ki=rng.vector(2, 10, 200, 5), dt=0.001,
                      label="the arm at rest on its plan"))
    return cases


bumpless_integral.mistakes_of(_bumpless, [
    ("the first tick advances the integral before it is used: this tick's Ki e dt is in its "
     "torque too", {"with_step": False}),
    ("the error is the plan minus the measured state: e = q_plan - q", {"sign": -1.0},
     SLIP_SIGN),
    ("the torque that holds the arm now is the model's g at the measured pose q, not at the "
     "planned one", {"at_plan": True}),
])


# ---------------------------------------------------------------- Part 3: computed torque
def _ct(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd, at_plan=False, outside=False,
        sign=1.0, degrees=False):
    q, qd, q_plan, qd_plan, qdd_plan, kp, kd = _a(q, qd, q_plan, qd_plan, qdd_plan, kp, kd)
    e = sign * (q_plan - q) * (180.0 / np.pi if degrees else 1.0)
    feedback = kp * e + kd * sign * (qd_plan - qd)
    model = planar_arm(arm)
    if outside:
        return (al.inverse_dynamics(model, q, qd, qdd_plan) + feedback).tolist()
    state = (q_plan, qd_plan) if at_plan else (q, qd)
    return al.inverse_dynamics(model, *state, qdd_plan + feedback).tolist()


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
    return _ct(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd)


@computed_torque_law.fresh
def _ct_cases(rng):
    cases = []
    for arm in drawn_arms(rng, 2, MODEL) + [rng.arm(inertia=True)]:
        fields = dict(arm.fields(), damping=tuple(rng.vector(2, 0.0, 0.05, 0.005)))
        arm = Arm(label=arm.label, **fields)
        q = rng.pose(2)
        omega = rng.uniform(10.0, 30.0, 1.0)
        cases.append(Case(arm=arm, q=q, qd=rng.vector(2, -2.0, 2.0, 0.1), q_plan=_near(rng, q, 5),
                          qd_plan=rng.vector(2, -2.0, 2.0, 0.1),
                          qdd_plan=rng.vector(2, -8.0, 8.0, 0.5),
                          kp=[omega * omega] * 2,
                          kd=[2.0 * omega * rng.uniform(0.5, 1.5, 0.1)] * 2))
    wall = rng.arm(gravity=(-9.81, 0.0), label="an arm on a wall")
    q = rng.pose(2)
    cases.append(Case(arm=wall, q=q, qd=rng.vector(2, -1.0, 1.0, 0.1), q_plan=_near(rng, q, 5),
                      qd_plan=[0.0, 0.0], qdd_plan=[0.0, 0.0], kp=[225.0, 400.0],
                      kd=[30.0, 40.0]))
    return cases


computed_torque_law.mistake(
    "Kp e + Kd de is an acceleration: add it to qdd_plan inside the inverse dynamics, so that "
    "M(q) multiplies it", partial(_ct, outside=True))
computed_torque_law.mistake(
    "computed torque evaluates the model at the measured state q, qd: it must cancel the dynamics"
    " the arm has, not the plan's", partial(_ct, at_plan=True))
computed_torque_law.mistake(
    "the error is the plan minus the measured state: e = q_plan - q", partial(_ct, sign=-1),
    slip=SLIP_SIGN)
computed_torque_law.mistake(
    "the angle error is in degrees: the gains multiply radians, so keep e = q_plan - q in radians"
    " (np.degrees only for printing)", partial(_ct, degrees=True))


# ---------------------------------------------------------------- Part 4: gains
_I22 = float(al.mass_matrix(planar_arm(REAL), deg(*START))[1, 1])
_W22, _Z22 = (float(x) for x in al.natural_frequency(KP[1], KD[1], _I22))


@reference(worked=[Case(omega=20.0, zeta=1.0, inertia=1.0,
                        label="the chapter's computed torque, 20 rad/s, critically damped"),
                   Case(omega=_W22, zeta=_Z22, inertia=_I22,
                        label="the elbow of the chapter's PD at the start pose, where it "
                              "feels M_22 and its gains are Kp = 30 N m/rad, Kd = 1.5 N m "
                              "s/rad")],
           units=UNITS,
           advice="I e'' + Kd e' + Kp e = 0 is e'' + 2 zeta omega e' + omega^2 e = 0 times I")
def gains_for(omega, zeta, inertia):
    """[Kp, Kd] for a natural frequency, a damping ratio and an inertia."""
    return _gains(omega, zeta, inertia)


def _gains(omega, zeta, inertia, power=2, two=2.0, weighted=True):
    omega, zeta, inertia = _a(omega, zeta, inertia if weighted else 1.0)
    return np.array([inertia * omega**power, two * zeta * omega * inertia]).tolist()


@gains_for.fresh
def _gains_cases(rng):
    cases = [Case(omega=rng.uniform(5.0, 60.0, 1.0), zeta=rng.uniform(0.2, 2.0, 0.05),
                  inertia=rng.uniform(0.01, 0.5, 0.01)) for _ in range(4)]
    cases.append(Case(omega=rng.uniform(5.0, 60.0, 1.0), zeta=rng.uniform(0.2, 2.0, 0.05),
                      inertia=1.0, label="computed torque's gains (inertia 1)"))
    return cases


gains_for.mistake(
    "Kd = 2 zeta omega I: the damping term of e'' + 2 zeta omega e' + omega^2 e has the factor 2",
    partial(_gains, two=1.0))
gains_for.mistake(
    "the stiffness goes with the square of the frequency: Kp = I omega^2", partial(_gains, power=1))
gains_for.mistake(
    "both gains scale with the inertia I the error moves: Kp = I omega^2, Kd = 2 zeta omega I",
    partial(_gains, weighted=False))


# ---------------------------------------------------------------- Part 5: a stiff enough gain
def _rest(arm, model, q_target, kp, below=1.0, weighted=True, real_mass=False, steps=200):
    """The rest error e (2,) [rad] of computed torque by fixed-point iteration on
    M_model(q) Kp e = g(q) - g_model(q) at q = q_target - below e, from e = 0, until a step
    changes e by 1e-15 rad at most (one step: the first-order error); ``real_mass``: the real
    arm's M in place of the model's."""
    real, model = planar_arm(arm), planar_arm(model)
    target, kp = _a(q_target, kp)
    e = np.zeros(2)
    for _ in range(steps):
        q = target - below * e
        M = al.mass_matrix(real if real_mass else model, q) if weighted else np.eye(2)
        e, last = np.linalg.solve(M * kp, al.gravity_torques(real, q)
                                  - al.gravity_torques(model, q)), e
        if np.abs(e - last).max() <= 1e-15:        # converged: further steps change nothing
            break
    return e


def _loaded(arm, mass, label=None):
    """``arm`` with a point mass at its tip, merged into the last link (parallel axes)."""
    return Arm.from_arm(planar_arm(arm).with_payload(mass), label)


def _rest_size(arm, model, q_target, kp, **flaw):
    """max_j |e_j| [rad] at the gain kp (both joints): armlab's Newton solution, or the
    fixed-point iteration with a likely mistake's switches."""
    if not flaw:
        return float(np.abs(al.settled_error(planar_arm(arm), q_target, kp,
                                             model=planar_arm(model),
                                             computed_torque=True)).max())
    return float(np.abs(_rest(arm, model, q_target, [kp, kp], **flaw)).max())


def _stiff_gain(arm, model, q_target, tolerance, **flaw):
    """The smallest Kp [1/s^2], equal at both joints, with which computed torque rests
    within ``tolerance`` [rad] at every joint: the first-order gain brackets it, bisection
    on the rest's size (it falls as Kp grows) finds it."""
    first = _rest_size(arm, model, q_target, 1.0, steps=1)        # |e| at Kp = 1, to first order
    if flaw.get("steps") == 1:
        return _rest_size(arm, model, q_target, 1.0, **flaw) / tolerance
    lo, hi = 0.5 * first / tolerance, 2.0 * first / tolerance
    while _rest_size(arm, model, q_target, hi, **flaw) > tolerance:
        lo, hi = hi, 2.0 * hi
    while _rest_size(arm, model, q_target, lo, **flaw) <= tolerance and lo > 1e-6:
        lo, hi = 0.5 * lo, lo
    for _ in range(32):                  # the bracket to a part in 10^9 of the gain
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _rest_size(arm, model, q_target, mid, **flaw) > tolerance \
            else (lo, mid)
    return hi


@reference(worked=Case(arm=LOADED, model=MODEL, q_target=deg(*END), tolerance=deg(2)[0],
                       label="computed torque holding the end pose with 0.5 kg it does not "
                             "know, as in the chapter, within 2°"),
           allow=("mass_matrix", "gravity_torques", "settled_error"), rtol=1e-4,
           units=dict(CT_UNITS, tolerance="deg", **{"return": "1/s²"}),
           advice="the rest error shrinks as Kp grows, but not exactly as 1/Kp: where the arm "
                  "rests, M and g are those of the pose it rests at")
def stiff_gain(arm, model, q_target, tolerance):
    """The smallest computed-torque Kp [1/s^2], equal at both joints, with which the arm
    carrying a load its model misses rests within ``tolerance`` [rad] of q_target at each
    joint."""
    return _stiff_gain(arm, model, q_target, tolerance)


def _unknown_load(rng, kind, share, lead=""):
    """``(arm, model)``: the chapter's arm (kind 0), another arm, a wall-mounted one (4), with
    a tip load of ``share`` (lo, hi) of link 2's mass its model does not know (kind 5: half
    of it known); the arm's words start with ``lead``."""
    base = MODEL if kind == 0 else rng.arm(gravity=(-9.81, 0.0) if kind == 4 else 9.81)
    mass = max(0.05, round(rng.uniform(*share, 0.05) * base.masses[1], 2))
    model = _loaded(base, mass / 2.0) if kind == 5 else base
    words = {0: f"{lead}the chapter's arm with {mass:g} kg its model does not know",
             4: f"{lead}an arm on a wall with {mass:g} kg its model does not know",
             5: f"{lead}an arm with {mass:g} kg, half of it known to the model"}
    return _loaded(base, mass, words.get(kind, f"{lead}an arm with {mass:g} kg its model "
                                               "does not know")), model


def _stiff_case(rng, kind, tries=12):
    """The chapter's arm (kind 0), other arms, a wall-mounted one (4), a model that knows
    half the load (5); a tolerance of 0.5-3° (to 0.1°), at a pose where the load pulls
    (the first-order error at Kp = 1 at least 0.01 rad)."""
    arm, model = _unknown_load(rng, kind, (0.1, 0.5))
    for _ in range(tries):
        q_target = rng.pose(2)
        if _rest_size(arm, model, q_target, 1.0, steps=1) >= 0.01:
            break
    return Case(arm=arm, model=model, q_target=q_target,
                tolerance=float(np.radians(rng.uniform(0.5, 3.0, 0.1))))


@stiff_gain.fresh
def _(rng):
    return [_stiff_case(rng, kind) for kind in range(6)]


stiff_gain.mistakes_of(_stiff_gain, [
    ("that is the gain if the pose did not change: M and g belong to the pose where the arm "
     "rests, q_target - e, which moves with Kp", {"steps": 1}),
    ("the controller multiplies Kp e by its model's mass matrix, M_model(q), not by the real "
     "arm's: the controller does not know the load", {"real_mass": True}),
    ("computed torque's stiffness in torque is M_model(q) Kp: its gains multiply an "
     "acceleration, which the model's M turns into a torque", {"weighted": False}),
    ("the arm rests at q_target - e, with e = q_target - q_rest: take M and g there",
     {"below": -1.0}, SLIP_SIGN),
])


# ---------------------------------------------------------------- Part 8: a claim to falsify
PD_FLAWS = {1: "the missing weight taken at the target: the error if the pose did not change",
            2: "the model's gravity compensation left out: plain PD's sag, Kp e = g(q)",
            3: "the rest pose on the wrong side of the target, q_target + e"}
"""The flaws a claimed rest error of PD with gravity compensation is computed with (Part 8)."""


def _pd_rest(arm, model, q_target, kp, flaw=0, steps=200):
    """The rest error e (2,) [rad] of PD with the model's gravity, Kp e = g(q) - g_model(q) at
    q = q_target - e, by fixed-point iteration from e = 0, as a claim with ``flaw`` computes
    it (0: no flaw)."""
    real, model = planar_arm(arm), planar_arm(model)
    target, kp = _a(q_target, kp)
    e = np.zeros(2)
    for _ in range(1 if flaw == 1 else steps):
        q = target + e if flaw == 3 else target - e
        known = 0.0 if flaw == 2 else al.gravity_torques(model, q)
        e = (al.gravity_torques(real, q) - known) / kp
    return e


def _pd_claim_case(rng, kind, flaw, tries=20):
    """A PD holding a pose with a load its model does not know (kind as ``_rest_case``), its
    rest within 0.35 rad, and a claim made with ``flaw``; the right rest and the three
    flaws' at least 1e-3 rad apart."""
    for _ in range(tries):
        arm, model = _unknown_load(rng, kind, (0.2, 0.6), "PD on ")
        kp = [rng.uniform(20.0, 80.0, 5.0), rng.uniform(8.0, 30.0, 2.0)]
        q_target = rng.pose(2)
        values = [_pd_rest(arm, model, q_target, kp, k) for k in range(4)]
        settled = np.abs(_pd_rest(arm, model, q_target, kp, steps=201) - values[0]).max()
        gaps = [np.abs(a - b).max() for i, a in enumerate(values) for b in values[i + 1:]]
        if settled < 1e-12 and np.abs(values).max() < 0.35 and min(gaps) >= 1e-3:
            break
    return Case(arm=arm, model=model, q_target=q_target, kp=kp,
                claimed=[round(float(x), 6) + 0.0 for x in values[flaw]])


def _pd_claim_worked():
    cases = []
    for pose, flaw, words in [(END, 2, "the end pose, a claim of plain PD's sag"),
                              ((30.0, 45.0), 3, "the hold pose, another claim")]:
        claimed = _pd_rest(LOADED, MODEL, deg(*pose), KP, flaw)
        cases.append(Case(arm=LOADED, model=MODEL, q_target=deg(*pose), kp=KP,
                          claimed=[round(float(x), 6) + 0.0 for x in claimed],
                          label=f"the chapter's PD with 0.5 kg it does not know, at {words}"))
    return cases


@reference(worked=_pd_claim_worked(), allow=("gravity_torques",),
           units=dict(UNITS, kp="N m/rad", claimed="deg", **{"return": ("deg", "deg", "")}),
           advice="at rest PD's torque g_model(q) + Kp e holds the real arm, g(q), at the pose "
                  "q = q_target - e; solve that, then compute each named flaw on the same case "
                  "and see which one the claim equals")
def pd_rest_claim(arm, model, q_target, kp, claimed):
    """[e_1, e_2, flaw] (3,): the rest error [rad] of PD with the model's gravity and the
    number (``PD_FLAWS``) of the flaw the claim was computed with."""
    truth = al.settled_error(planar_arm(arm), q_target, kp, model=planar_arm(model))
    gaps = [np.abs(_pd_rest(arm, model, q_target, kp, k) - claimed).max() for k in (1, 2, 3)]
    return [*np.asarray(truth, dtype=float).tolist(), float(1 + int(np.argmin(gaps)))]


@pd_rest_claim.fresh
def _(rng):
    return [_pd_claim_case(rng, kind, flaw) for kind, flaw in
            [(0, 1), (1, 2), (2, 3), (3, 1), (4, 2), (5, 3)]]


@pd_rest_claim.mistake("the corrected value is where the arm really rests; the claim is what "
                       "is being checked, not the answer")
def _(arm, model, q_target, kp, claimed):
    return [*claimed, pd_rest_claim(arm, model, q_target, kp, claimed)[2]]


@pd_rest_claim.mistake("that is the error if the pose did not change: the weights belong to "
                       "the pose where the arm rests, q_target - e; solve again until e stops "
                       "changing")
def _(arm, model, q_target, kp, claimed):
    return [*_pd_rest(arm, model, q_target, kp, 1).tolist(),
            pd_rest_claim(arm, model, q_target, kp, claimed)[2]]


_OPPOSITE = ("the rest error is e = q_target - q_rest, the target minus where the arm rests (as "
             "the part and the claim take it): yours is its opposite, q_rest - q_target")


def _pd_rest_opposite(arm, model, q_target, kp, claimed, numbered="right"):
    """[-e_1, -e_2, flaw]: the rest error taken the other way, q - q_target, the slip of
    Parts 1-3 and 7; ``numbered`` "right": the flaw's number right, "opposite": found by
    comparing the claim as given with the flaws taken the other way too."""
    right = pd_rest_claim(arm, model, q_target, kp, claimed)
    flaw = right[2] if numbered == "right" else float(1 + int(np.argmin(
        [np.abs(-_pd_rest(arm, model, q_target, kp, k) - claimed).max() for k in (1, 2, 3)])))
    return [-right[0], -right[1], flaw]


pd_rest_claim.mistakes_of(_pd_rest_opposite, [
    (_OPPOSITE, {"numbered": "right"}, SLIP_SIGN),
    (_OPPOSITE + "; compare the claim with the flaws taken as the part takes it",
     {"numbered": "opposite"}, SLIP_SIGN),
])


@pd_rest_claim.mistake("the flaw's number: recompute the claim with each named flaw on this "
                       "case and compare")
def _(arm, model, q_target, kp, claimed):
    right = pd_rest_claim(arm, model, q_target, kp, claimed)
    return [*right[:2], {1.0: 3.0, 2.0: 1.0, 3.0: 1.0}[right[2]]]


# ---------------------------------------------------------------- Part 6: design a step
BAND = 1.0
"""Settled means every joint within this many degrees of its target [deg]."""
AFTER = 0.5
"""The run goes on this long after the settling time it must meet [s]."""
PLANT = dict(method="rk4", substeps=1)
"""How the grader steps the arm: as the chapter does, one RK4 step per 1 ms tick."""
JOINTS = ("shoulder", "elbow")
LATE, OVER, BEYOND = 0.25, 1.0, 0.1
"""Partial credit: none left at 25 % past the settling time, at twice the overshoot
allowed, at 10 % past a motor's limit."""


def step_response(arm, q_start, q_target, limit, duration, kp, kd):
    """Computed torque (exact model) holding ``q_target`` from rest at ``q_start``, on motors
    of ``limit``: ``(time settled [s], overshoot [% of each step], largest |tau| [N m],
    diverged)``. Settled: every joint within :data:`BAND` of its target from then on to
    the end of the run (``inf`` if not at its end)."""
    plant = planar_arm(arm)
    q_start, q_target, limit = _a(q_start, q_target, limit)
    try:
        sim = al.simulate(plant, q_start, duration, al.computed_torque(plant, q_target, kp, kd),
                          torque_limit=limit, **PLANT)
    except ValueError:
        return math.inf, None, None, True
    error = np.degrees(q_target - sim.q)
    outside = np.nonzero((np.abs(error) > BAND).any(axis=1))[0]
    settled = (0.0 if len(outside) == 0 else math.inf if outside[-1] == len(error) - 1
               else float(sim.time[outside[-1] + 1]))
    step = np.degrees(q_target - q_start)
    past = np.maximum(0.0, (-error * np.sign(step)).max(axis=0))
    return settled, 100.0 * past / np.abs(step), np.abs(sim.tau_command).max(axis=0), False


def _n(x, digits=3):
    return f"{x:.{digits}g}"


def _s(seconds):
    """A time to the loop's tick, 1 ms: ``1.015``."""
    return f"{seconds:.3f}".rstrip("0").rstrip(".")


def _judge_step(arm, q_start, q_target, limit, settle_time, overshoot, gains):
    """``(fraction, words)`` of gains on one case; the fraction is the worst of the three
    parts of the spec, each 1 when met and falling linearly to 0 (LATE, OVER, BEYOND)."""
    gains = np.asarray(gains, dtype=float)
    if gains.shape == (2,):
        gains = np.repeat(gains[:, None], 2, axis=1)          # (kp, kd) for both joints
    if gains.shape != (2, 2):
        return 0.0, (f"returned numbers of shape {gains.shape}: expected (kp, kd), each a "
                     "gain per joint")
    kp, kd = gains
    if np.any(kp <= 0) or np.any(kd < 0):
        return 0.0, (f"has kp = {_vec(kp)} 1/s² and kd = {_vec(kd)} 1/s: computed torque "
                     "needs kp > 0 and kd >= 0 on each joint to reach its target")
    duration = round(settle_time + AFTER, 3)
    settled, over, peak, diverged = step_response(arm, q_start, q_target, limit, duration, kp,
                                                  kd)
    if diverged:
        return 0.0, ("the run diverged: gains this stiff are unstable at the loop's 1 ms "
                     "tick")
    words, scores = [], []
    if settled <= settle_time:
        scores.append(1.0)
        words.append(f"within {BAND:g}° of the target from {_s(settled)} s on (the spec: "
                     f"{settle_time:g} s)")
    elif math.isinf(settled):
        scores.append(0.0)
        words.append(f"not within {BAND:g}° of the target by the end of the {duration:g} s "
                     f"run (the spec: from {settle_time:g} s on)")
    else:
        scores.append(max(0.0, 1.0 - (settled - settle_time) / (LATE * settle_time)))
        words.append(f"within {BAND:g}° of the target only from {_s(settled)} s on, "
                     f"{_s(settled - settle_time)} s later than the spec's {settle_time:g} s")
    worst = int(np.argmax(over))
    if over[worst] <= overshoot:
        scores.append(1.0)
        words.append(f"overshoots by at most {_n(over[worst], 2)} % of a step" if over[worst]
                     >= 0.005 else "does not overshoot")
        words[-1] += f" (the spec: at most {overshoot:g} %)"
    else:
        scores.append(max(0.0, 1.0 - (over[worst] - overshoot) / (OVER * overshoot)))
        words.append(f"the {JOINTS[worst]} overshoots by {_n(over[worst])} % of its step, "
                     f"over the spec of {overshoot:g} %")
    ratio = peak / np.asarray(limit, dtype=float)
    worst = int(np.argmax(ratio))
    if ratio[worst] <= 1.0:
        scores.append(1.0)
        words.append(f"its largest torques are {_vec(peak)} N m, within the motors' "
                     f"{_vec(limit)} N m")
    else:
        scores.append(max(0.0, 1.0 - (ratio[worst] - 1.0) / BEYOND))
        words.append(f"the {JOINTS[worst]} asks for {_n(peak[worst])} N m, "
                     f"{_n(peak[worst] - limit[worst], 2)} N m over its limit of "
                     f"{limit[worst]:g} N m (the motor clips it)")
    return min(scores), "; ".join(words)


def _vec(values):
    return "(" + ", ".join(_n(float(v)) for v in values) + ")"


STEP_WORKED = Case(arm=REAL, q_start=deg(30, 45), q_target=deg(*END), limit=MOTORS,
                   settle_time=1.2, overshoot=5.0,
                   label="the chapter's real arm from its hold pose to its end pose on motors "
                         "of (8, 2) N m")


@design(worked=STEP_WORKED, allow=("inverse_dynamics", "mass_matrix", "coriolis_torques",
                                   "gravity_torques", "friction_torques"),
        uses={"gains_for": gains_for}, units=dict(CT_UNITS, limit="N m"),
        advice="predict the motion from the error equation and check the torque along it")
def step_gains(arm, q_start, q_target, limit, settle_time, overshoot, answer):
    """Judge gains ``answer = (kp, kd)`` for computed torque stepping from ``q_start`` to
    ``q_target``: settled within 1° by ``settle_time``, overshoot at most ``overshoot`` %
    of each step, every torque within ``limit``."""
    return _judge_step(arm, q_start, q_target, limit, settle_time, overshoot, answer)


def _x_band(ratio):
    """x with (1 + x) e^-x = ratio < 1: a critically damped error from rest is within
    ``ratio`` of its start from ``omega t = x`` on."""
    x = 1.0 - math.log(ratio)
    for _ in range(30):
        x -= ((1.0 + x) * math.exp(-x) - ratio) / (-x * math.exp(-x))
    return x


def _predicted_torque(arm, q_start, q_target, omega, duration, samples=301):
    """Largest |tau| per joint [N m] along the critically damped motion at ``omega``."""
    e0 = np.asarray(q_target) - q_start
    t = np.linspace(0.0, duration, samples)[:, None]
    decay = np.exp(-omega * t)
    e = e0 * (1.0 + omega * t) * decay
    ed = -e0 * omega**2 * t * decay
    edd = e0 * omega**2 * (omega * t - 1.0) * decay
    return np.abs(al.inverse_dynamics(arm, np.asarray(q_target) - e, -ed, -edd)).max(axis=0)


def _step_case(rng, arm, label):
    """A move on ``arm`` whose spec a range of gains meets: critically damped at omega the
    move settles by x / omega; the settling time asked is 15 to 30 % more than at a drawn
    omega, the motors give what the motion needs at a frequency 10 to 25 % higher (and at
    least 25 % more than gravity's torque anywhere on the way), so the frequencies that
    meet the spec span a factor of about 1.3 to 1.6, placed anywhere from 2.5 to 20 rad/s."""
    plant = planar_arm(arm)
    q_start = rng.pose(2, -120, 120)
    step = [math.radians(rng.sign() * rng.integer(20, 60)) for _ in range(2)]
    q_target = (np.asarray(q_start) + step).tolist()
    omega = rng.choice(OMEGAS)
    x = _x_band(math.radians(BAND) / max(abs(s) for s in step))
    settle_time = math.ceil(rng.uniform(1.15, 1.3, 0.05) * x / omega * 20.0) / 20.0
    need = _predicted_torque(plant, q_start, q_target, omega * rng.uniform(1.1, 1.25, 0.05),
                             settle_time)
    path = np.asarray(q_start) + np.linspace(0.0, 1.0, 41)[:, None] * step
    need = np.maximum(need, 1.25 * np.abs(al.gravity_torques(plant, path)).max(axis=0))
    limit = [math.ceil(t * 10.0) / 10.0 for t in need]
    return Case(arm=arm, q_start=q_start, q_target=q_target, limit=limit,
                settle_time=settle_time, overshoot=rng.choice([2.0, 5.0, 10.0]), label=label)


OMEGAS = (2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0, 14.0, 16.0, 20.0)
"""The frequencies a fresh move is built around [rad/s], about evenly spaced in log."""


@step_gains.fresh
def _step_cases(rng):
    return [_step_case(rng, REAL, "the chapter's real arm on other motors"),
            _step_case(rng, rng.arm(), None), _step_case(rng, rng.arm(), None),
            _step_case(rng, rng.arm(inertia=True), None),
            _step_case(rng, rng.arm(gravity=(-9.81, 0.0), label="an arm on a wall"), None),
            _step_case(rng, rng.arm(gravity=0.0, label="an arm without gravity"), None)]


# ---------------------------------------------------------------- Part 7: when the clamp holds
def _engages(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt, low, high, with_step=True,
             any_sign=False, first=1, sign=1.0):
    """[n_1, n_2, I_1, I_2]: per joint, the tick (counted from ``first`` for this one) at
    which the clamp first holds the integral of a PID whose arm stays where it is, and the
    integral it holds; (inf, I) where it never does. The tick n's command with its step is
    r + I + n s (the integral advanced n - 1 times): the first n past the limit the step
    points to, in closed form."""
    integral, q, qd, q_plan, qd_plan, kp, kd, ki, low, high = _a(
        integral, q, qd, q_plan, qd_plan, kp, kd, ki, low, high)
    e = sign * (q_plan - q)
    r, s = kp * e + kd * sign * (qd_plan - qd), ki * e * dt
    ticks, held = [], []
    for rj, sj, ij, lo, hi in zip(r, s, integral, low, high):
        if sj == 0.0:
            ticks.append(math.inf)
            held.append(float(ij))
            continue
        end = hi if sj > 0 else lo
        n = 1
        if any_sign and not lo <= rj + ij + sj <= hi:
            n = 1
        else:
            # r + I + n s past ``end`` (with_step) or r + I + (n - 1) s past it (without)
            room = (end - rj - ij) / sj - (0.0 if with_step else -1.0)
            n = max(1, math.floor(room) + 1)
        ticks.append(float(n - 1 + first))
        held.append(float(ij + (n - 1) * sj))
    return ticks + held


CLAMP_WORKED = [
    Case(integral=al.gravity_torques(planar_arm(REAL), deg(30, 45)).tolist(), kp=KP, kd=KD, ki=KI,
         dt=0.001, low=[-8.0, -2.0], high=MOTORS, **BUMP,
         label="Part 2's bump on the chapter's motors, (-8, -2) to (8, 2) N m: the elbow's "
               "command is past its upper limit and its error pushes it further out"),
    Case(integral=[-1.561, -4.6], q=deg(65, -34), qd=[0.3, -0.2], q_plan=deg(60, -30),
         qd_plan=[0.0, 0.0], kp=KP, kd=KD, ki=KI, dt=0.001, low=[-8.0, -2.0], high=MOTORS,
         label="past the end pose on the chapter's motors: the shoulder's command just "
               "inside its lower limit, the elbow's integral wound up below its limit, its "
               "error now pulling it back"),
]


@reference(worked=CLAMP_WORKED, units=dict(UNITS, **{"return": ("", "", "N m", "N m")}),
           allow=("clip_torques",),
           advice="the arm stays where it is, so every tick has the same error and the same "
                  "step s: after how many steps is the command with the step past the limit "
                  "s points to?")
def clamp_engages(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt, low, high):
    """[n_1, n_2, I_1, I_2] (4,): per joint, the tick (this one is 1) at which the clamp first
    holds the integral of a PID whose arm does not move, and the integral [N m] it holds;
    inf (and the integral unchanged) where it never holds."""
    return _engages(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt, low, high)


KINDS = {"inside": 0, "held high": 1, "back high": -1, "held low": -1, "back low": 1,
         "crossing high": 1, "crossing low": -1}
"""Where a joint's command is, and the sign of its error: inside the limits, past one
with the step pushing further out (held) or pulling back, or inside before this tick's
step and past the limit with it (crossing)."""


def _tick(rng, kinds, low, high, dt=0.001, label=None):
    """A tick whose joints are of ``kinds``: a state and gains drawn, then the integral
    that puts each joint's command (with this tick's step) where its kind says."""
    q, qd, qd_plan = rng.pose(2), rng.vector(2, -2.0, 2.0, 0.1), rng.vector(2, -2.0, 2.0, 0.1)
    sign = [KINDS[k] or rng.sign() for k in kinds]
    q_plan = (np.asarray(q) + np.radians([s * rng.integer(3, 15) for s in sign])).tolist()
    kp, kd, ki = rng.vector(2, 10, 120, 5), rng.vector(2, 0.5, 8.0, 0.5), rng.vector(2, 40, 200, 10)
    e = np.asarray(q_plan) - q
    rest = np.asarray(kp) * e + np.asarray(kd) * (np.asarray(qd_plan) - qd)
    step = np.asarray(ki) * e * dt
    trial = [rng.uniform(lo + 0.5, hi - 0.5, 0.01) if k == "inside" else
             hi + s / 2 if k == "crossing high" else lo + s / 2 if k == "crossing low" else
             hi + rng.uniform(0.1, 2.0, 0.01) if k.endswith("high") else
             lo - rng.uniform(0.1, 2.0, 0.01)
             for k, lo, hi, s in zip(kinds, low, high, step)]
    integral = np.round(np.asarray(trial) - rest - step, 6).tolist()
    return Case(integral=integral, q=q, qd=qd, q_plan=q_plan, qd_plan=qd_plan, kp=kp, kd=kd,
                ki=ki, dt=dt, low=list(low), high=list(high), label=label)


@clamp_engages.fresh
def _clamp_cases(rng):
    high = rng.vector(2, 2.0, 12.0, 0.5)
    low = [-h for h in high]
    skewed = ([-rng.uniform(0.5, 3.0, 0.5), -rng.uniform(0.5, 2.0, 0.5)],
              [rng.uniform(4.0, 12.0, 0.5), rng.uniform(1.0, 4.0, 0.5)])
    kinds = list(KINDS)
    return [
        _tick(rng, ["inside", "inside"], low, high, label="a tick well inside the limits"),
        _tick(rng, ["held low", "back high"], low, high,
              label="the shoulder past its lower limit, its error pushing it further down; "
                    "the elbow past its upper limit, its error pulling it back"),
        _tick(rng, ["back low", "held high"], low, high),
        _tick(rng, ["crossing high", "crossing low"], low, high,
              label="a tick whose steps carry both commands past their limits"),
        _tick(rng, [rng.choice(kinds), rng.choice(kinds)], low, high, dt=0.0,
              label="ticks of no length (dt = 0)"),
        _tick(rng, [rng.choice(kinds), rng.choice(kinds)], *skewed,
              label="motors whose limits are not symmetric"),
        _tick(rng, ["inside", rng.choice(kinds)], low, high),
    ]


clamp_engages.mistakes_of(_engages, [
    ("test the whole command with this tick's step, Kp e + Kd de + I + Ki e dt, against the "
     "limits: the step alone can carry it past one", {"with_step": False}),
    ("the integral stood still though its step pulled the command back towards the limits: hold "
     "it only when the step pushes further out", {"any_sign": True}),
    ("count the ticks from this one as tick 1: a clamp that holds at once holds at tick 1",
     {"first": 0}),
    ("the error is the plan minus the measured state: e = q_plan - q, de = qd_plan - qd",
     {"sign": -1.0}, SLIP_SIGN),
])


# ---------------------------------------------------------------- Part 9: a derivation
V_PARAMS = ("q", "qd", "q_target", "m", "c", "I", "b", "kp", "kd", "m_model", "c_model", "g")


def _v_rate(q, qd, q_target, m, c, I, b, kp, kd, m_model, c_model, g, *, friction=True,
            model=True, mismatch=1, e_rate=-1, half=1, degrees=False):
    """dV/dt of V = I qd^2 / 2 + kp (q_target - q)^2 / 2 along one link under PD with the
    model's gravity compensation; the switches make a likely mistake."""
    import sympy

    cos = sympy.cos(q * sympy.pi / 180 if degrees else q)
    e = q_target - q
    qdd_times_I = kp * e - kd * qd + (m_model * c_model * g * cos if model else 0) \
        - (b * qd if friction else 0) - (m * c * g * cos if model else 0) * mismatch
    return half * qd * qdd_times_I + kp * e * e_rate * qd


@derivation(worked=all_symbols(V_PARAMS),
            advice="dV/dt = I qd qdd + kp e de/dt, with I qdd from the link's equation of "
                   "motion under the controller's torque")
def lyapunov_rate(q, qd, q_target, m, c, I, b, kp, kd, m_model, c_model, g):
    """dV/dt (scalar) of the one-link arm under PD with its model's gravity, as SymPy."""
    return _v_rate(q, qd, q_target, m, c, I, b, kp, kd, m_model, c_model, g)


@lyapunov_rate.fresh
def _(rng):
    import sympy

    drawn, frac = exact_draws(rng, V_PARAMS)
    m, c = frac(5, 40, 10), frac(5, 30, 100)
    return [drawn("another link, its model's mass and centre of mass off", m=m, c=c,
                  I=frac(1, 20, 100), b=frac(1, 9, 100), kp=rng.integer(5, 60),
                  kd=frac(5, 40, 10), m_model=m + frac(1, 5, 10), c_model=c - frac(1, 3, 100),
                  g=sympy.Rational(981, 100)),
            drawn("a model whose gravity is exact", m_model=m, c_model=c, m=m, c=c),
            drawn("a link without friction", b=0),
            drawn("all symbols")]


lyapunov_rate.mistakes_of(_v_rate, [
    ("the error's rate: de/dt = -qd for a fixed target, so the Kp terms cancel",
     {"e_rate": 1}),
    ("the joint's friction b qd takes energy out too", {"friction": False}),
    ("the sign of the gravity left over: the arm's weight gives -m g c cos q, the "
     "compensation + m_model g c_model cos q", {"mismatch": -1}),
    ("the model's gravity is not the arm's here: what it misses stays in dV/dt",
     {"model": False}),
    ("d/dt of I qd^2 / 2 is I qd qdd: the 1/2 goes", {"half": 0.5}),
    ("q is in radians: sympy's cos takes radians", {"degrees": True}),
])
