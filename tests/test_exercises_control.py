"""The control exercise set against the exercise standard, with the real nbgrader.

The release in exercises/ is what nbgrader generates from solutions/; the source
scores full marks and the release zero; one seeded mistake per part loses that part
only and gets its hint; every listed mistake fails its part's visible check; the
chapter's worked values typed in as constants earn at most the visible checks;
calling the armlab function that answers a part earns nothing for it. The references
written in numpy agree with armlab's controllers and pd_gains (the rest pose's reference
is ``al.settled_error`` itself); the design part's spec can
be met on every case it draws, and a design typed in for the worked move cannot
meet it on most of them.
"""

import json

import numpy as np
import pytest

import armlab as al
from armlab.grading.references import lookup
from exercise_sets import ExerciseSet


# step_gains has no value to type in: the constants' submission leaves it unanswered; a
# design typed in for the worked move is tested on its own below
SET = ExerciseSet("control", designs={"control.step_gains": None})

# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "pd_gain_answer": ("base = al.gravity_torques(arm, q) + np.asarray(kd) * de",
                       "base = np.asarray(kd) * de", "the model's gravity torque g(q) is part"),
    "bumpless_answer": (" - np.asarray(ki) * e * dt\n", "\n",
                        "this tick's Ki e dt is in its torque too"),
    "computed_torque_answer": ("return al.inverse_dynamics(arm, q, qd, wanted)",
                               "return al.inverse_dynamics(arm, q_plan, qd_plan, wanted)",
                               "evaluates the model at the measured state q, qd"),
    "gains_answer": ("2.0 * zeta * omega * inertia", "zeta * omega * inertia",
                     "has the factor 2"),
    "stiff_answer": ("q = q_target - e\n", "q = q_target + e\n",
                     "the arm rests at q_target - e"),
    "design_answer": ("kp, kd = gains_for(0.9 * low, 1.0, 1.0)",
                      "kp, kd = (0.9 * low) ** 2, 0.9 * low",      # Kd = omega: no factor 2
                      "overshoots by"),
    "clamp_answer": ("trial = rest + I + step\n", "trial = rest + I\n",
                     "the step alone can carry it past one"),
    "pd_claim_answer": ("return np.array([*rest(), 1 + int(np.argmin(gaps))])",
                        "return np.array([*claimed, 1 + int(np.argmin(gaps))])",
                        "the claim is what is being checked"),
    "lyapunov_answer": ("kp * (q_target - q) * (-qd)", "kp * (q_target - q) * qd",
                        "de/dt = -qd for a fixed target"),
}
# more likely mistakes, each of which the part's visible check must catch too
MORE_MISTAKES = [
    {"pd_gain_answer": ("base = al.gravity_torques(arm, q) + np.asarray(kd) * de",
                        "base = al.gravity_torques(arm, q)", "the damping term"),
     "bumpless_answer": ("e = np.asarray(q_plan, dtype=float) - q\n    de = np.asarray(qd_plan, "
                         "dtype=float) - qd\n", "e = q - np.asarray(q_plan, dtype=float)\n    de = "
                         "qd - np.asarray(qd_plan, dtype=float)\n",
                         "the error is the plan minus the measured state"),
     "computed_torque_answer": ("e = np.asarray(q_plan, dtype=float) - q\n",
                                "e = np.degrees(np.asarray(q_plan, dtype=float) - q)\n",
                                "the angle error is in degrees"),
     "gains_answer": ("inertia * omega**2", "inertia * omega", "square of the frequency"),
     "stiff_answer": ("al.mass_matrix(model, q)", "al.mass_matrix(arm, q)",
                      "not by the real arm's"),
     "design_answer": ("tau = al.inverse_dynamics(arm, q_target - e, -ed, -edd)",
                       "tau = al.inverse_dynamics(arm, q_target - e, -ed, -edd) "
                       "- al.gravity_torques(arm, q_target - e)",     # gravity left out
                       "over its limit of"),
     "clamp_answer": ("(trial > high[j] and step > 0) or (trial < low[j] and step < 0)",
                      "trial > high[j] or trial < low[j]",
                      "hold it only when the step pushes further out"),
     "lyapunov_answer": ("(tau - b * qd - m * g", "(tau - m * g", "b qd takes energy out too"),
     "pd_claim_answer": ("[*rest(), 1 +", "[*rest(steps=1), 1 +",
                         "the error if the pose did not change")},
    {"pd_gain_answer": ("        elif e[j] < 0:\n", "        elif False:\n",
                        "a torque limit bounds both directions"),
     "bumpless_answer": ("hold = al.gravity_torques(arm, q)",
                         "hold = al.gravity_torques(arm, q_plan)",
                         "the model's g at the measured pose q"),
     "computed_torque_answer": ("wanted = np.asarray(qdd_plan, dtype=float) + "
                                "np.asarray(kp) * e + np.asarray(kd) * de\n    "
                                "return al.inverse_dynamics(arm, q, qd, wanted)",
                                "wanted = np.asarray(kp) * e + np.asarray(kd) * de\n    "
                                "return al.inverse_dynamics(arm, q, qd, qdd_plan) + wanted",
                                "add it to qdd_plan inside the inverse dynamics"),
     "gains_answer": ("[inertia * omega**2, 2.0 * zeta * omega * inertia]",
                      "[omega**2, 2.0 * zeta * omega]", "both gains scale with the inertia"),
     "stiff_answer": ("for _ in range(500):", "for _ in range(1):",
                      "that is the gain if the pose did not change"),
     "design_answer": ("kp, kd = gains_for(0.9 * low, 1.0, 1.0)",
                       "kp, kd = gains_for(4.0 / settle_time, 1.0, 1.0)",   # T = 4 / omega
                       "not within 1° of the target by the end of the"),
     "clamp_answer": ("n = tick\n", "n = tick - 1\n", "from this one as tick 1"),
     "pd_claim_answer": ("1 + int(np.argmin(gaps))", "3 - int(np.argmin(gaps))",
                         "the flaw's number")},
    {"design_answer": ("kp, kd = gains_for(0.9 * low, 1.0, 1.0)",
                       "kp, kd = gains_for(0.9 * low, 1.0, np.diag(al.mass_matrix(arm, "
                       "q_start)))",
                       "not within 1° of the target by the end of the"),   # PD's gains
     "computed_torque_answer": ("wanted = np.asarray(qdd_plan, dtype=float) + np.asarray(kp) "
                                "* e + np.asarray(kd) * de",
                                "wanted = np.asarray(qdd_plan, dtype=float) - np.asarray(kp) "
                                "* e - np.asarray(kd) * de",
                                "the error is the plan minus the measured state")},
    {"lyapunov_answer": ("(tau - b * qd - m * g * c * sp.cos(q))",
                         "(tau - b * qd + m * g * c * sp.cos(q))", "the sign of the gravity left"),
     "stiff_answer": ("new = np.linalg.solve(al.mass_matrix(model, q) * kp, missing)",
                      "new = missing / kp", "its gains multiply an acceleration")},
    {"lyapunov_answer": ("return sp.expand(I * qd * qdd", "return sp.expand(I * qd * qdd / 2",
                         "the 1/2 goes"),
     },
]
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    # the base torque from armlab's inverse dynamics, which Part 1 does not allow
    "pd_gain_answer": (
        "def largest_pd_gain(arm, q, qd, q_plan, qd_plan, kd, limit):\n"
        "    e = q_plan - q\n"
        "    base = al.inverse_dynamics(arm, q, np.zeros(2), np.zeros(2)) + kd * (qd_plan - qd)\n"
        "    return float(min((np.sign(e) * limit - base) / e))"),
    "bumpless_answer": (
        "def bumpless_integral(arm, q, qd, q_plan, qd_plan, kp, kd, ki, dt):\n"
        "    hold = al.static_torques(arm, q, np.zeros(2))\n"
        "    e = q_plan - q\n"
        "    return hold - kp * e - kd * (qd_plan - qd) - ki * e * dt"),
    "computed_torque_answer": (
        "def computed_torque_law(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd):\n"
        "    plan = lambda t: (q_plan, qd_plan, qdd_plan)\n"
        "    return al.computed_torque(arm, plan, kp, kd)(0.0, q, qd)"),
    "gains_answer": (
        "def gains_for(omega, zeta, inertia):\n"
        "    return np.array(al.pd_gains(omega, zeta, inertia))"),
    # a simulation, which Part 5 does not allow
    "stiff_answer": (
        "def stiff_gain(arm, model, q_target, tolerance):\n"
        "    for kp in np.geomspace(10.0, 1e5, 200):\n"
        "        run = al.simulate(arm, q_target, 3.0, al.computed_torque(model, q_target, kp,\n"
        "                                                            2 * np.sqrt(kp)))\n"
        "        if np.abs(q_target - run.q[-1]).max() <= tolerance:\n"
        "            return float(kp)"),
    "design_answer": (
        "def step_gains(arm, q_start, q_target, limit, settle_time, overshoot):\n"
        "    for w in np.arange(30.0, 1.0, -0.5):       # the fastest that fits, by simulation\n"
        "        c = al.computed_torque(arm, q_target, w * w, 2 * w)\n"
        "        run = al.simulate(arm, q_start, settle_time, c)\n"
        "        if np.all(np.abs(run.tau_command) <= limit):\n"
        "            return np.full(2, w * w), np.full(2, 2 * w)"),
    # a numeric energy rate from armlab, which the part does not allow (nor is it symbolic)
    "lyapunov_answer": (
        "def lyapunov_rate(q, qd, q_target, m, c, I, b, kp, kd, m_model, c_model, g):\n"
        "    return al.lyapunov(real, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [1.0, 1.0])"),
    "pd_claim_answer": (
        "def pd_rest_claim(arm, model, q_target, kp, claimed):\n"
        "    e = al.settled_error(arm, q_target, kp, model=model)\n"
        "    return np.array([*e, 2.0])"),
    # the integral's growth from armlab's simulation of the stuck arm, which Part 7 does not
    # allow
    "clamp_answer": (
        "def clamp_engages(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt, low, high):\n"
        "    run = al.simulate(al.tabletop_arm(), q, 1.0, al.pid(q_plan, kp, kd, ki))\n"
        "    return np.array([1.0, 1.0, *integral])"),
}


def _plan(q_plan, qd_plan, qdd_plan=(0.0, 0.0)):
    return lambda t: (np.asarray(q_plan, float), np.asarray(qd_plan, float),
                      np.asarray(qdd_plan, float))


def _pid_tick(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt):
    """armlab's PID, called at t = 0 (no time has passed) and then one tick later."""
    c = al.pid(_plan(q_plan, qd_plan), kp, kd, ki, integral=integral)
    c(0.0, q, qd)
    return c(dt, q, qd)


def _bisect(ok, lo, hi, steps=100):
    """The boundary of ``ok`` between lo (ok) and hi (not ok), by bisection."""
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def _pd_gain_by_bisection(arm, q, qd, q_plan, qd_plan, kd, limit):
    """Part 1 by armlab's PD with gravity: the largest Kp whose torque is within the limits."""
    def within(kp):
        tau = al.pd_gravity(arm, _plan(q_plan, qd_plan), kp, kd)(0.0, q, qd)
        return np.all(np.abs(tau) <= limit)
    return _bisect(within, 0.0, 1e5)


def _bumpless_by_pid(arm, q, qd, q_plan, qd_plan, kp, kd, ki, dt):
    """Part 2 by armlab's PID: a tick's torque is the one started from I = 0 plus I."""
    return al.gravity_torques(arm, q) - _pid_tick(np.zeros(2), q, qd, q_plan, qd_plan, kp, kd,
                                                  ki, dt)


def _clamp_by_pid(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt, low, high, ticks=20000):
    """Part 7 by armlab's clamped PID run tick by tick on the stuck arm: per joint the first
    tick whose integral (the command minus Kp e + Kd de, to its rounding) does not change,
    and that integral; dt = 0 by the step alone (armlab's PID needs time to pass)."""
    rest = np.asarray(kp) * np.subtract(q_plan, q) + np.asarray(kd) * np.subtract(qd_plan, qd)
    step = np.asarray(ki) * np.subtract(q_plan, q) * dt
    c = al.pid(_plan(q_plan, qd_plan), kp, kd, ki, integral=integral,
               torque_limit=np.stack([low, high]))
    c(0.0, q, qd)
    found, before = [np.inf, np.inf], np.asarray(integral, dtype=float)
    held = before.copy()
    for tick in range(1, ticks if dt > 0 else 1):
        now = c(dt * tick, q, qd) - rest
        for j in range(2):
            if found[j] == np.inf and abs(now[j] - before[j]) < 1e-9:    # rounding of - rest
                found[j], held[j] = tick, before[j]
        if np.all(np.isfinite(found)):
            break
        before = now
    for j in range(2):
        if step[j] == 0.0:
            held[j] = integral[j]
    return [*found, *held]


def test_references_agree_with_armlab():
    """Two independent routes: the references written in numpy and armlab's controllers
    (its PD with gravity under bisection, its PID, its clamped PID run tick by tick) and
    pd_gains."""
    SET.assert_references_agree({
        "control.largest_pd_gain": _pd_gain_by_bisection,
        "control.bumpless_integral": _bumpless_by_pid,
        "control.computed_torque_law": lambda arm, q, qd, qp, qdp, qddp, kp, kd:
            al.computed_torque(arm, _plan(qp, qdp, qddp), kp, kd)(0.0, q, qd),
        "control.gains_for": lambda omega, zeta, inertia: np.array(
            al.pd_gains(omega, zeta, inertia)),
    }, atol=1e-12, rtol=1e-12)
    SET.assert_references_agree({"control.clamp_engages": _clamp_by_pid}, atol=1e-9)


def test_the_stiff_gain_puts_the_rest_at_the_tolerance():
    """Part 5's gain by armlab's rest pose (Newton): the worst joint rests at the tolerance
    with it, and beyond it with a gain one part in 10^4 lower"""
    ref = lookup("control.stiff_gain")
    for case in ref.cases("worked") + ref.cases("fresh") + ref.cases("fresh", key="x"):
        args = ref.arguments(case)
        arm, model = (al.PlanarArm(**case.args[k].fields()) for k in ("arm", "model"))
        kp, tolerance = ref.function(*args), args[3]

        def worst(gain):
            return np.abs(al.settled_error(arm, args[2], gain, model=model,
                                           computed_torque=True)).max()
        assert worst(kp) <= tolerance < worst((1 - 1e-4) * kp), case


def _pd_flaw_by_armlab(arm, model, q_target, kp, claimed):
    """Part 8's flaw (1, 2 or 3) by armlab's routes: the first-order error at the target
    (g - g_model there over Kp); plain PD's sag (al.settled_error without a model); the
    rest equation solved at q_target + e (by scipy's fsolve)."""
    from scipy.optimize import fsolve

    kp = np.asarray(kp, dtype=float)
    missing = lambda q: al.gravity_torques(arm, q) - al.gravity_torques(model, q)  # noqa: E731
    values = [missing(q_target) / kp, al.settled_error(arm, q_target, kp),
              fsolve(lambda e: kp * e - missing(q_target + e), np.zeros(2), xtol=1e-13)]
    return 1 + int(np.argmin([np.abs(v - claimed).max() for v in values]))


def test_the_claims_are_made_with_every_flaw_and_name_it():
    """Part 8's claims: every flaw among each key's fresh cases; the reference's rest error is
    armlab's (Newton) and its flaw the one armlab's routes name; every claim at least 1e-3
    rad from the right rest"""
    ref = lookup("control.pd_rest_claim")
    for key in ("", "x", "y"):
        flaws = []
        for case in ref.cases("fresh", key=key) + ref.cases("worked"):
            args = ref.arguments(case)
            arm, model = (al.PlanarArm(**case.args[k].fields()) for k in ("arm", "model"))
            q_target, kp, claimed = (np.asarray(a, dtype=float) for a in args[2:])
            answer = ref.function(*args)
            truth = al.settled_error(arm, q_target, kp, model=model)
            np.testing.assert_allclose(answer[:2], truth, atol=1e-12)
            assert answer[2] == _pd_flaw_by_armlab(arm, model, q_target, kp, claimed), case
            assert np.abs(truth - claimed).max() >= 1e-3, case
            flaws.append(answer[2])
        assert {1.0, 2.0, 3.0} <= set(flaws), key


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints; the clamped ticks'
    are Part 2's tick clipped, its elbow held, and a tick worked by hand."""
    worked = SET.worked
    # the bump's PD + gravity torque at Kp = 0, (g1 + 2.0, g2 - 0.75) N m, against (8, 2) N m:
    # the elbow's error of +2° meets +2 N m first
    g = al.gravity_torques(al.tabletop_arm(), np.radians([32, 43]))
    assert worked("largest_pd_gain") == pytest.approx((2.0 - g[1] - 0.75) / np.radians(2),
                                                      rel=1e-12)
    # the elbow alone at 47°, moving at 0.5 rad/s: its error of -2° meets -2 N m
    g47 = al.gravity_torques(al.tabletop_arm(), np.radians([30, 47]))
    assert worked("largest_pd_gain", 1) == pytest.approx((2.0 + g47[1] - 0.75) / np.radians(2),
                                                         rel=1e-12)
    # the integral that makes the bump's first tick g(q): g minus Part 2's tick from I = 0
    expected = g - (np.array([60, 30]) * np.radians([-2, 2]) + np.array([4, 1.5]) * [-0.5, 0.5]
                    + np.array([60, 30]) * np.radians([-2, 2]) * 1e-3)
    np.testing.assert_allclose(worked("bumpless_integral"), expected, atol=1e-12)
    assert worked("computed_torque_law").round(4).tolist() == [6.9575, 0.8488]
    assert worked("gains_for").tolist() == [400.0, 40.0]
    assert np.allclose(worked("gains_for", 1), [30.0, 1.5], rtol=1e-12)     # back to KP, KD
    # the chapter's 0.5 kg rests at (-1.11°, 10.52°) with Kp = 400 /s²: about 2140 /s² for 2°
    assert round(float(worked("stiff_gain")), 1) == 2140.9
    # the bump on (8, 2) N m: the elbow's command (2.1156 N m) is past 2 N m with an outward
    # step, held at once; the shoulder's falls by 60 (-2°) 1 ms a tick towards -8 N m
    tick = worked("clamp_engages", 0)
    g_hold = al.gravity_torques(al.tabletop_arm(), np.radians([30, 45]))
    rest = np.array([60, 30]) * np.radians([-2, 2]) + np.array([4, 1.5]) * [-0.5, 0.5]
    step = np.array([60, 30]) * np.radians([-2, 2]) * 1e-3
    n1 = np.floor((-8 - rest[0] - g_hold[0]) / step[0]) + 1
    np.testing.assert_allclose(tick, [n1, 1.0, g_hold[0] + (n1 - 1) * step[0], g_hold[1]],
                               rtol=0, atol=1e-12)
    assert n1 == 4451
    # past the end pose: the shoulder's step carries it below -8 N m at once; the elbow's
    # integral climbs back from -4.6 N m until its command passes +2 N m
    tick = worked("clamp_engages", 1)
    rest = np.array([60, 30]) * np.radians([-5, 4]) + np.array([4, 1.5]) * [-0.3, 0.2]
    step = np.array([60, 30]) * np.radians([-5, 4]) * 1e-3
    n2 = np.floor((2 - rest[1] + 4.6) / step[1]) + 1
    np.testing.assert_allclose(tick, [1.0, n2, -1.561, -4.6 + (n2 - 1) * step[1]], atol=1e-9)


def test_fresh_stiff_gain_cases_are_moderate():
    """The stiff-gain part's hidden cases ask for gains from a few to a few thousand 1/s²,
    with a case key and with the fixed default (per student: the standard on paper)."""
    ref = lookup("control.stiff_gain")
    for key in ("", "x"):
        for case in ref.cases("fresh", key=key):
            assert 1.0 < ref.function(*ref.arguments(case)) < 1e5, case


def test_the_set_meets_the_standard_on_paper():
    """Nine parts, 38 points; every part a seeded mistake; every checked function an
    armlab call; a visible check first, at most a third of the part's points."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=9, points=38)


@pytest.mark.parametrize("mistakes", [MISTAKES] + MORE_MISTAKES)
def test_the_visible_checks_catch_the_likely_mistakes(mistakes):
    """Each listed mistake, seeded into the solution, fails its part's visible check with
    its hint (the clamped tick's two worked ticks between them show every listed one)"""
    SET.assert_visible_checks_catch(mistakes)


# ---------------------------------------------------------------- the design part
def _solution(cell, **replace):
    """The function an answer cell of the source defines (np, al and the reference
    gains_for in scope), with ``replace`` {old: new} applied to its text."""
    text = SET.answer(cell)
    for old, new in replace.items():
        text = text.replace(old, new)
    namespace = {"np": np, "al": al, "gains_for": lambda *a: lookup("control.gains_for")(*a)}
    exec(compile(text, cell, "exec"), namespace)
    return namespace


def _fractions(design, key):
    """What ``design`` earns on each fresh case of ``key``."""
    from armlab.grading.cases import encode
    from armlab.grading.runner import student_args

    ref = lookup("control.step_gains")
    out = []
    for case in ref.cases("fresh", key=key):
        answer = design(*student_args(encode(ref.arguments(case))))
        out.append(ref.function(*ref.arguments(case), np.asarray(answer, float).tolist())[0])
    return out


def test_the_solution_meets_every_drawn_spec():
    """Some gains meet the whole spec of every case drawn, for several students: the
    solution's (the fastest critically damped motion the motors allow, at 90 % of its
    frequency)"""
    design = _solution("design_answer")["step_gains"]
    for key in ("", "ann", "bob", "cy", "dee"):
        assert _fractions(design, key) == [1.0] * 6, key


def test_other_designs_meet_the_worked_spec_too():
    """Several designs are right: less damping within the overshoot allowed, the full
    torque, a frequency from the settling time with a margin"""
    from armlab.grading import check_function

    for old, new in [("gains_for(0.9 * low, 1.0, 1.0)", "gains_for(0.9 * low, 0.8, 1.0)"),
                     ("gains_for(0.9 * low, 1.0, 1.0)", "gains_for(low, 1.0, 1.0)"),
                     ("gains_for(0.9 * low, 1.0, 1.0)",
                      "gains_for(1.1 * 6.306 / settle_time, 1.0, 1.0)")]:
        check_function(_solution("design_answer", **{old: new})["step_gains"],
                       "control.step_gains", "worked")


def test_a_typed_in_design_misses_most_moves():
    """Gains that meet the worked move's spec, returned for every move, meet the spec of
    fewer than half the hidden moves (their frequencies span 2.5 to 20 rad/s)"""
    ref = lookup("control.step_gains")
    case = ref.cases("worked")[0]
    from armlab.grading.cases import encode
    from armlab.grading.runner import student_args

    typed = np.asarray(_solution("design_answer")["step_gains"](
        *student_args(encode(ref.arguments(case)))))
    earned = [f for key in ("", "ann", "bob", "cy", "dee", "eve")
              for f in _fractions(lambda *args: typed, key)]
    assert np.mean(earned) < 0.5


def test_a_typed_in_design_earns_nothing_where_its_constant_fits_by_chance():
    """The worked move's gains returned for every move meet four of the default hidden
    moves' spec, fully or in part, by chance (a student of the trial class earned 1.68 of 6 points
    so): the check gives a design that ignores its cases nothing, and says why"""
    from armlab.grading import judge
    from armlab.grading.cases import encode
    from armlab.grading.runner import student_args

    ref = lookup("control.step_gains")
    typed = np.asarray(_solution("design_answer")["step_gains"](
        *student_args(encode(ref.arguments(ref.cases("worked")[0]))))).tolist()
    cases = ref.cases("fresh", key="")
    assert 0.0 < np.mean(_fractions(lambda *args: np.asarray(typed), ""))
    fraction, message = judge.design_result(ref, cases, [{"kind": "value", "value": typed}]
                                            * len(cases), show=False, label="step_gains")
    assert fraction == 0.0
    assert message.startswith("step_gains(arm, q_start, q_target, limit, settle_time, "
                              "overshoot) returned the same design, ")
    assert message.endswith("at every one of the 6 cases checked, although their specs ask "
                            "for different designs: the 4 specs it meets, fully or in part, it "
                            "meets by chance, so the check gives it nothing. A design must "
                            "follow its case's inputs")


def test_the_design_feedback_says_what_failed_and_by_how_much():
    """The words name the part of the spec missed, with the numbers, and the partial
    credit falls from the spec: half the points at 12.5 % late"""
    ref = lookup("control.step_gains")
    args = ref.arguments(ref.cases("worked")[0])
    w = 5.0                          # settles at about 6.306 / w = 1.26 s
    fraction, words = ref.function(*args, [[w * w] * 2, [2 * w] * 2])
    assert words.startswith("within 1° of the target only from ")
    late = float(words.split("only from ")[1].split(" s on")[0])
    assert fraction == pytest.approx(1 - (late - 1.2) / (0.25 * 1.2), abs=1e-9)
    assert "s later than the spec's 1.2 s; does not overshoot" in words
    fraction, words = ref.function(*args, [[1e3] * 2, [2e3 ** 0.5 * 2] * 2])
    assert fraction == 0.0 and "over its limit of 8 N m (the motor clips it)" in words
    assert ref.function(*args, [[-1.0, 1.0], [1.0, 1.0]])[0] == 0.0
    assert ref.function(*args, [1.0, 2.0, 3.0])[0] == 0.0


def test_the_try_cell_measures_as_the_grader():
    """The "try it" cell's numbers are the judge's words on the worked move"""
    import contextlib
    import io

    source = json.loads(SET.source_path.read_text())
    cells = {c["id"]: "".join(c["source"]) for c in source["cells"]}
    namespace = {}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(cells["setup"], namespace)
        exec(cells["gains_answer"].replace("### BEGIN SOLUTION", ""), namespace)
        exec(cells["design_answer"], namespace)
        exec(cells["design_try"], namespace)
    printed = out.getvalue()
    ref = lookup("control.step_gains")
    args = ref.arguments(ref.cases("worked")[0])
    gains = np.array([namespace["kp_step"], namespace["kd_step"]]).tolist()
    words = ref.function(*args, gains)[1]
    settled = float(words.split("from ")[1].split(" s on")[0])
    assert f"within 1 deg of the target from {namespace['settled']} s on" in printed
    assert round(float(namespace["settled"]), 3) == pytest.approx(settled, abs=5e-4)
    peak = np.abs(namespace["run"].tau_command).max(axis=0)
    assert f"its largest torques are ({peak[0]:.3g}, {peak[1]:.3g}) N m" in words


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)



# ---------------------------------------------------------------- Part 7: prose and checks
def _as_the_prose_says(integral, q, qd, q_plan, qd_plan, kp, kd, ki, dt, low, high):
    """Part 7 written from its text alone, joint by joint: s = Ki e dt, tau = Kp e + Kd de
    + I; hold I where tau + s > high and s > 0, or tau + s < low and s < 0; otherwise
    I + s; the same tick again until it holds (never where s = 0)."""
    ticks, integrals = [], []
    for j in range(2):
        e, de = q_plan[j] - q[j], qd_plan[j] - qd[j]
        s, I, n = ki[j] * e * dt, integral[j], np.inf
        for tick in range(1, 10**6 if s != 0 else 1):
            tau = kp[j] * e + kd[j] * de + I
            if (tau + s > high[j] and s > 0) or (tau + s < low[j] and s < 0):
                n = tick
                break
            I = I + s
        ticks.append(n)
        integrals.append(I)
    return np.array([*ticks, *integrals])


def _part7_text():
    return next("".join(c["source"]) for c in SET.source()["cells"]
                if c["metadata"].get("nbgrader", {}).get("grade_id") == "part7")


def test_part7s_prose_states_the_chapters_clamp():
    """Part 7's rule is the chapter's equation (7.12): the test is on the command with this
    tick's step added, which is what its hidden checks test (issue 34: the prose once said
    'already beyond a limit', the checks 'carried past by this tick's step')"""
    text = " ".join(_part7_text().split())
    assert ("**hold** the integral ($I$ unchanged) where $\\tau + s >$ `high` and $s > 0$, or "
            "$\\tau + s <$ `low` and $s < 0$") in text
    assert "or this tick's step would carry it past" in text
    chapter = " ".join((SET.repo / "book" / "control" / "limits.md").read_text().split())
    assert ("\\tau + K_i e\\,\\Delta t > \\tau_\\text{max} \\text{ and } K_i e > 0, \\text{ or } "
            "\\tau + K_i e\\,\\Delta t < \\tau_\\text{min} \\text{ and } K_i e < 0") in chapter


@pytest.mark.parametrize("key", ["", "ann", "bob", "cy"])
def test_a_student_following_part7s_prose_gets_full_points(key):
    """The prose's rule, written without the solution, passes the visible check and every
    hidden case (per student keys, among them a tick carried past by its own step)"""
    from armlab.grading import check_function

    ref = lookup("control.clamp_engages")
    labels = [case.label for case in ref.cases("fresh", key=key)]
    assert "a tick whose steps carry both commands past their limits" in labels
    check_function(_as_the_prose_says, ref.quantity, "worked", name="clamp_engages")
    check_function(_as_the_prose_says, ref.quantity, ref.cases("fresh", key=key),
                   name="clamp_engages")


RELEASE = "exercises/control/control.ipynb"


def intro_of(path):
    """The release's first markdown cell, as one line of words."""
    with open(path, encoding="utf-8") as fh:
        return " ".join("".join(json.load(fh)["cells"][0]["source"]).split())


def test_the_notebook_says_what_a_check_allows_in_time():
    """A trial class's student computed the design's torques with 81,600 single-pose armlab
    calls: 1.4 s in Jupyter, past a check's 150 s when graded (each call is the grader's,
    on a loaded machine): the notebook tells the limit and the way round it"""
    from armlab.grading.sandbox import Limits

    text = intro_of(RELEASE)
    assert (f"a check stops after some {Limits().silence():.0f} s: call it once on a stack of "
            "poses (`al.mass_matrix(arm, Q)` with `Q` of shape `(m, 2)`, and so on), not "
            "thousands of times in a loop." in text)
    q = np.radians([[30.0, 45.0], [60.0, -30.0]])
    assert al.mass_matrix(al.tabletop_arm(), q).shape == (2, 2, 2)
