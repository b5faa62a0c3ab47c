"""The forward dynamics exercise set against the exercise standard, with the real nbgrader.

The references that are not armlab's own functions agree with armlab by another route
(the fall against a loop of armlab's forward dynamics, the stable steps against
``armlab.accuracy.stable_step``, the tip after a motor fails against inverse dynamics and
a finite-difference Jacobian, the locked swing against a sweep of the potential energy);
the visible checks' values are the chapter's worked
values ('Arm dynamics': the worked instant's torques give back qdd = (3, -2) rad/s^2);
every listed mistake fails its part's visible check; the design part's judge passes
several designs and gives part of the points near its spec; the release equals a fresh
nbgrader release of the source; the source scores full marks and the release zero; one
seeded mistake per part loses that part only and gets its hint; worked values typed in as
constants earn at most the visible checks; calling the armlab function that answers a
part earns nothing for it.
"""

import numpy as np
import pytest

import armlab as al
from armlab.accuracy import stable_step, step_sweep
from armlab.grading.references import lookup
from exercise_sets import ExerciseSet

CHAPTER = "forward_dynamics"
WORKED_STEP = 1.0 / 1024       # the solution's design at the worked swing [s]


FALL_STEP = ("qd = qd + h * acceleration(arm, q, qd, np.zeros(2))     # the speed first\n"
             "        q = q + h * qd                                          # then the angle,"
             " new speed\n")
SET = ExerciseSet(CHAPTER, designs={f"{CHAPTER}.swing_step": WORKED_STEP})

# answer cell: (text in its solution, replacement, hint the feedback must show); one per part
MISTAKES = {
    "acceleration_answer": ("friction = np.asarray(arm.damping) * qd",
                            "friction = -np.asarray(arm.damping) * qd", "friction's sign"),
    "failure_answer": ('tau[0 if motor == "shoulder" else 1] = 0.0', "tau[:] = 0.0",
                       "that is both motors off"),
    "fall_answer": ("range(round(duration / h))", "range(round(duration / h) + 1)",
                    "no more"),
    "locked_answer": ("al.mass_matrix(arm, q0)[0, 0]", "al.mass_matrix(arm, q0).sum()",
                      "the elbow is locked"),
    "swing_answer": ('method="semi_implicit_euler"', 'method="explicit_euler"',
                     "is your search simulating semi-implicit Euler"),
    "explicit_answer": ('explicit_energy = "b"', 'explicit_energy = "c"', "h omega < 2 zeta"),
    "flaw_answer": ("runs = [fall(arm, q0, duration, h), slipped(1),",
                    "runs = [slipped(1), fall(arm, q0, duration, h),",
                    "Part 3's fall is semi-implicit Euler"),
    "stable_answer": ("2.0, 2.0 * np.sqrt(2.0)]", "2.0, 2.0]", "RK4 reaches further"),
    "damped_step_answer": ("q_next = q + h * qd_next", "q_next = q + h * qd",
                           "that is explicit Euler"),
}
# more likely mistakes of the function parts, each caught by its part's visible check
MORE_MISTAKES = [
    {"acceleration_answer": ("- al.gravity_torques(arm, q)", "+ al.gravity_torques(arm, q)",
                             "g(q) balances gravity"),
     "failure_answer": ('tau[0 if motor == "shoulder" else 1]',
                        'tau[1 if motor == "shoulder" else 0]', "the other motor stopped"),
     "fall_answer": (FALL_STEP, "q, qd = q + h * qd, qd + h * acceleration(arm, q, qd, "
                     "np.zeros(2))\n", "that is explicit Euler"),
     "locked_answer": ("np.arctan2(centre[1], centre[0])", "q0[0]", "the swing's lowest point"),
     "swing_answer": ("substeps=1,", "substeps=10,", "substeps=1"),
     "stable_answer": ("[0.0, 2.0,", "[2.0, 2.0,", "explicit Euler has no stable step"),
     "damped_step_answer": ("(-K * q - D * qd)", "(-K * q + D * qd)", "the damper's sign")},
    {"acceleration_answer": ("- al.coriolis_torques(arm, q, qd)", "",
                             "the velocity products c(q, qd) are missing"),
     "failure_answer": ("tau = np.array(al.gravity_torques", "tau = -np.array(al.gravity_torques",
                        "the working motor's torque has the wrong sign"),
     "fall_answer": (FALL_STEP, "a = acceleration(arm, q, qd, np.zeros(2))\n"
                     "        q, qd = q + h * h * a, qd + h * a\n",
                     "not by h squared times the acceleration"),
     "locked_answer": ("al.mass_matrix(arm, q0)[0, 0]",
                       "float(m @ np.sum(al.com_positions(arm, q0) ** 2, axis=1))",
                       "its moment of inertia counts"),
     "swing_answer": ("np.abs(run.energy_error).max()", "abs(run.energy_error[-1])",
                      "the error the largest along the run"),
     "stable_answer": ("omega = np.sqrt(squares.max())", "omega = np.sqrt(squares.min())",
                       "the fastest mode sets the bound"),
     "damped_step_answer": (".jacobian([q, qd])", ".jacobian([q, qd]).T", "is it transposed?")},
    {"acceleration_answer": ("return np.linalg.solve(L.T, np.linalg.solve(L, b))",
                             "return L @ L.T @ b", "do not multiply by M"),
     "failure_answer": ("return al.jacobian(arm, q) @ qdd", "return qdd",
                        "those are the joints' accelerations"),
     "fall_answer": ("range(round(duration / h))", "range(round(duration / h) - 1)",
                     "no fewer"),
     "locked_answer": ("np.sqrt(2.0 * max(drop", "np.sqrt(max(drop", "the factor one half"),
     "stable_answer": ("omega = np.sqrt(squares.max())", "omega = squares.max()",
                       "the frequencies squared"),
     "damped_step_answer": ("(-K * q - D * qd)", "(-K * q)", "the damper is missing")},
    {"acceleration_answer": ("- al.gravity_torques(arm, q) - friction)",
                             "- al.gravity_torques(arm, q))", "friction B qd is missing"),
     "failure_answer": ("return al.jacobian(arm, q) @ qdd", "return al.jacobian(arm, q).T @ qdd",
                        "carried to the tip by the wrong matrix"),
     "stable_answer": ("squares = np.linalg.eigvals(np.linalg.solve(al.mass_matrix(arm, q), "
                       "K)).real", "squares = np.asarray(kp, dtype=float) / "
                       "np.diag(al.mass_matrix(arm, q))", "coupled through M")},
    {"stable_answer": ("al.mass_matrix(arm, q), K", "al.mass_matrix(arm, np.radians(q)), K",
                       "q is in radians already")},
]
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    "acceleration_answer": ("def acceleration(arm, q, qd, tau):\n"
                            "    return al.forward_dynamics(arm, q, qd, tau)"),
    # the tip's first 0.1 ms in armlab's simulation, which the part does not allow
    "failure_answer": ("def tip_after_failure(arm, q, motor):\n"
                       "    held = np.array(al.gravity_torques(arm, q))\n"
                       "    held[0 if motor == 'shoulder' else 1] = 0.0\n"
                       "    sim = al.simulate(arm, q, 1e-4, lambda t, q_, qd_: held,"
                       " control_dt=1e-5)\n"
                       "    p = al.tip_position(arm, sim.q)\n"
                       "    return 2 * (p[-1] - p[0]) / 1e-8"),
    "fall_answer": ("def fall(arm, q0, duration, h):\n"
                    "    return al.simulate(arm, q0, duration, control_dt=h, substeps=1,\n"
                    "                       method='semi_implicit_euler').q[-1]"),
    # the swing simulated with a stiff elbow, which the part does not allow
    "locked_answer": ("def locked_swing_speed(arm, q0):\n"
                      "    stiff = lambda t, q, qd: np.array([0.0, -2e4 * (q[1] - q0[1])"
                      " - 20 * qd[1]])\n"
                      "    run = al.simulate(arm, q0, 1.0, stiff, control_dt=1e-4)\n"
                      "    return float(np.abs(run.qd[:, 0]).max())"),
    "swing_answer": ("from armlab.accuracy import step_sweep\n\n\n"
                     "def swing_step(arm, q0, duration, tolerance):\n"
                     "    steps = [duration / 2**k for k in range(4, 20)]\n"
                     "    sweep = step_sweep(arm, q0, duration, steps, 'semi_implicit_euler',"
                     " reference=q0)\n"
                     "    return float(max(h for h, e in zip(sweep.steps, sweep.energy_error)"
                     " if e <= tolerance))"),
    "flaw_answer": ("def fall_flaw(arm, q0, duration, h, q_claimed):\n"
                    "    runs = [al.simulate(arm, q0, duration, control_dt=h, substeps=1,\n"
                    "                        method=m).q[-1]\n"
                    "            for m in ('semi_implicit_euler', 'explicit_euler')]\n"
                    "    return int(np.argmin([np.abs(r - q_claimed).max() for r in runs]))"),
    # a numeric matrix from armlab, which the part does not allow (nor is it symbolic)
    "damped_step_answer": ("def damped_step_matrix(h, K, D, I):\n"
                           "    return al.mass_matrix(al.tabletop_arm(), [0.0, 0.0])"),
    "stable_answer": ("from armlab.accuracy import stable_step\n\n\n"
                      "def stable_steps(arm, q, kp):\n"
                      "    return [float(stable_step(arm, q, kp, method=m)) for m in\n"
                      "            ('explicit_euler', 'semi_implicit_euler', 'rk4')]"),
}


def _tip_after_failure(arm, q, motor):
    """qdd from M and the bias by inverse dynamics at unit accelerations (not forward
    dynamics), the tip's acceleration by a central-difference Jacobian of the tip position."""
    tau = np.array(al.gravity_torques(arm, q))
    tau[("shoulder", "elbow").index(motor)] = 0.0
    bias = al.inverse_dynamics(arm, q, np.zeros(2), np.zeros(2))
    M = np.column_stack([al.inverse_dynamics(arm, q, np.zeros(2), e) - bias for e in np.eye(2)])
    qdd = np.linalg.solve(M, tau - bias)
    d = 1e-6
    J = np.column_stack([(al.tip_position(arm, np.add(q, d * e)) -
                          al.tip_position(arm, np.subtract(q, d * e))) / (2 * d)
                         for e in np.eye(2)])
    return J @ qdd


def _locked_swing_speed(arm, q0):
    """The lowest potential energy over the shoulder's turn by a 0.01° sweep refined by a
    parabola, and the kinetic energy at (1, 0) rad/s, by armlab's energies."""
    q0 = np.asarray(q0, dtype=float)
    q1 = np.radians(np.arange(-180.0, 180.0, 0.01))
    V = al.potential_energy(arm, np.stack([q1, np.full_like(q1, q0[1])], axis=-1))
    k = int(np.argmin(V))
    a, b, c = V[k - 1], V[k], V[(k + 1) % len(V)]
    low = b - (a - c) ** 2 / (8 * (a + c - 2 * b))
    return float(np.sqrt((al.potential_energy(arm, q0) - low)
                         / al.kinetic_energy(arm, q0, [1.0, 0.0])))


def _fall(arm, q0, duration, h):
    """The fall as a loop of forward dynamics, speed first, then angle."""
    q, qd = np.asarray(q0, dtype=float), np.zeros(2)
    for _ in range(round(duration / h)):
        qd = qd + h * al.forward_dynamics(arm, q, qd, np.zeros(2))
        q = q + h * qd
    return q


def test_references_agree_with_armlab():
    """Two independent routes: the references (numpy, and armlab's forward dynamics or
    simulation) and armlab's simulation, a loop of forward dynamics, its stable_step."""
    SET.assert_references_agree({
        f"{CHAPTER}.fall": _fall,
        f"{CHAPTER}.stable_steps": lambda arm, q, kp: [
            float(stable_step(arm, q, kp, method=m))
            for m in ("explicit_euler", "semi_implicit_euler", "rk4")],
    }, rtol=1e-8, atol=1e-12)
    SET.assert_references_agree({f"{CHAPTER}.tip_after_failure": _tip_after_failure},
                                rtol=1e-7, atol=1e-8)
    SET.assert_references_agree({f"{CHAPTER}.locked_swing_speed": _locked_swing_speed},
                                rtol=1e-9, atol=0.0)


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints ('Arm dynamics' for
    the worked instant, Example 2 and Example 3)."""
    worked = SET.worked
    # the worked torques as printed give back (2.9998, -1.9984), as the chapter says
    assert np.round(worked("acceleration"), 4).tolist() == [2.9998, -1.9984]
    # Table 5.2's semi-implicit Euler entry at 1 ms, by the chapter's step_sweep
    arm, q0 = al.tabletop_arm(damping=0.02), np.radians([30, 45])
    sweep = step_sweep(arm, q0, 0.25, [1e-3], "semi_implicit_euler", reference=q0)
    np.testing.assert_allclose(worked("fall"), sweep.q_end[0], rtol=0, atol=1e-12)
    assert np.degrees(worked("fall")).round(2).tolist() == [-35.65, 98.98]
    # Example 4 without dampers: 2 / omega_max = 28.9 ms and 2 sqrt 2 / omega_max = 40.8 ms
    assert np.round(worked("stable_steps"), 7).tolist() == [0.0, 0.0288675, 0.0408248]
    assert np.round(worked("stable_steps", 1), 7).tolist() == [0.0, 0.0362434, 0.0512558]
    # Example 3's fall claimed by explicit Euler at 1 ms (Table 5.2's entry), with friction
    # pushing at 10 ms, and right at 5 ms
    assert [worked("fall_flaw", k) for k in range(3)] == [1, 2, 0]
    explicit = step_sweep(arm, q0, 0.25, [1e-3], "explicit_euler", reference=q0).q_end[0]
    claimed = lookup(f"{CHAPTER}.fall_flaw").cases("worked")[0].args["q_claimed"]
    np.testing.assert_allclose(claimed, explicit, rtol=0, atol=1e-12)


def test_the_stable_step_the_try_it_cell_prints_is_exactly_zero():
    """Explicit Euler's bound without any damping is 0, not a rounding residue: the "try
    it" cell of Part 8 printed 2.68e-18 s beside a correct 0 at (30°, 45°)"""
    flat = al.PlanarArm([0.30, 0.25], [2.0, 1.0], gravity=0.0)
    for pose in ([0.0, 0.0], [30.0, 45.0], [-120.0, 150.0]):
        assert float(stable_step(flat, np.radians(pose), [60.0, 30.0],
                                 method="explicit_euler")) == 0.0


def test_no_one_step_passes_the_visible_swing_check():
    """The design's visible check has two cases that no one step meets both of (a constant
    1 ms, the figure's step, met the old single case), nor one step per joule of tolerance:
    the trial class's typed-in student returned 0.25 s/J times the tolerance, fitted on the
    swing, and met the old pair, the same swing within 5 and 20 mJ, for the visible 2 points"""
    ref = lookup(f"{CHAPTER}.swing_step")
    worked = [ref.arguments(case) for case in ref.cases("worked")]
    for h in [1e-3, WORKED_STEP, *np.geomspace(2e-4, 2e-2, 25)]:
        met = [ref.function(*args, h)[0] == 1.0 for args in worked]
        assert not all(met), h
    for per_joule in [0.25, *np.geomspace(0.01, 1.0, 41)]:      # [s/J]
        met = [ref.function(*args, per_joule * args[3])[0] == 1.0 for args in worked]
        assert not all(met), per_joule


def test_the_swing_judge_passes_several_designs_and_grades_near_misses():
    """Any step within the tolerance whose double is not meets the spec; a step over it
    earns less the further over; a needlessly short one half, or nothing at a quarter"""
    ref = lookup(f"{CHAPTER}.swing_step")
    args = ref.arguments(ref.cases("worked")[0])
    judged = {h: ref.function(*args, h) for h in (WORKED_STEP, 1.2e-3, 1.5e-3, 0.6e-3, 0.3e-3,
                                                  1e-6, -1.0)}
    assert [judged[h][0] for h in (WORKED_STEP, 1.2e-3)] == [1.0, 1.0]
    assert 0.6 < judged[1.5e-3][0] < 0.65 and "19% over the tolerance of 5 mJ" in judged[1.5e-3][1]
    assert judged[0.6e-3] == (0.5, "h = 0.6 ms meets the tolerance of 5 mJ (2.37 mJ), but so "
                                   "does twice the step (4.74 mJ): a step twice as long would "
                                   "halve the cost")
    assert judged[0.3e-3][0] == 0.0 and "more than 6,000 steps" in judged[0.3e-3][1]
    assert judged[1e-6][0] == 0.0 and "more than 6,000 steps" in judged[1e-6][1]
    assert judged[-1.0] == (0.0, "the answer -1.0 is not a step: expected one positive number "
                                 "of seconds")
    # the same swing for 0.5 s: a quarter of a good step is needlessly short
    short = dict(zip(ref.params, args), duration=0.5)
    assert [ref.function(*short.values(), h)[0] for h in (2 ** -10, 2 ** -11, 2 ** -12)] == \
        [1.0, 0.5, 0.0]
    assert "so does four times the step (3.05 mJ)" in ref.function(*short.values(), 2 ** -12)[1]


def test_the_swing_judge_is_quick():
    """The longest run the judge accepts, with its double and quadruple, is simulated in
    well under a second (the grader judges every case of every student)"""
    import time

    ref = lookup(f"{CHAPTER}.swing_step")
    arm, q0, _, tolerance = ref.arguments(ref.cases("worked")[0])
    start = time.process_time()
    fraction, _words = ref.function(arm, q0, 1.5, tolerance, 1.5 / 6000)
    assert fraction == 0.0 and time.process_time() - start < 0.8


def test_the_fresh_swings_are_well_posed():
    """On every key's fresh swings a halving search meets the spec, in a few thousand
    steps at most (the check never needs to simulate more than it allows)"""
    ref = lookup(f"{CHAPTER}.swing_step")
    for key in ("", "x", "y", "z"):
        for case in ref.cases("fresh", key=key):
            arm, q0, duration, tolerance = ref.arguments(case)
            real, h = al.PlanarArm(**arm.fields()), duration / 16
            for _ in range(20):
                run = al.simulate(real, q0, duration, control_dt=h, substeps=1,
                                  method="semi_implicit_euler")
                if np.abs(run.energy_error).max() <= tolerance:
                    break
                h /= 2
            assert duration / h <= 2048, case
            assert ref.function(arm, q0, duration, tolerance, h)[0] == 1.0, case


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first worth at most a third of a function
    part, and one seeded mistake; every checked function an armlab call; the intro says
    how to install (test_book_prose checks the chapter's list of the parts)."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=9, points=40)


@pytest.mark.parametrize("mistakes", [MISTAKES, *MORE_MISTAKES],
                         ids=["seeded", *(f"more{k}" for k in range(len(MORE_MISTAKES)))])
def test_the_visible_checks_catch_the_likely_mistakes(mistakes):
    """Each listed mistake, seeded into the solution, fails its part's visible check with
    its hint (explicit Euler passed the old visible check, which started from rest)."""
    SET.assert_visible_checks_catch(mistakes)


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)


def test_the_explanations_point_at_no_option():
    """A wrong choice's explanation says why it is wrong without the words of any one option
    (the removed why_semi_implicit's "forces" ruled out c in its words)"""
    SET.assert_explanations_point_at_no_option(["explicit_energy"])


def test_the_claimed_falls_are_far_apart():
    """Every claim of Part 7 is one of the four runs and over a millidegree from each of the
    three others, on the worked cases and on every key's fresh cases; each fresh set holds
    every slip and a right claim"""
    from armlab.grading.references import forward_dynamics as ref

    flaw = lookup(f"{CHAPTER}.fall_flaw")
    for which, key in [("worked", None)] + [("fresh", k) for k in ("", "x", "y", "ann")]:
        verdicts = set()
        for case in flaw.cases(which, key=key):
            args = flaw.arguments(case)
            ends = [ref._flawed_fall(*args[:4], k) for k in range(4)]
            gaps = sorted(float(np.abs(end - np.asarray(args[4])).max()) for end in ends)
            assert gaps[0] < 1e-12 and gaps[1] > np.radians(1e-3), case
            verdicts.add(flaw.function(*args))
        assert verdicts == ({0, 1, 2} if which == "worked" else {0, 1, 2, 3}), key


def test_the_prediction_is_what_explicit_euler_does():
    """Part 6's answer: on the chapter's arm with its friction, the swing from (-60°, 0°)
    stepped by explicit Euler loses energy over 30 s at 1 ms and gains it at 5 ms"""
    arm, q0 = al.tabletop_arm(damping=0.02), np.radians([-60.0, 0.0])
    change = {h: np.diff(al.simulate(arm, q0, 30.0, control_dt=h, substeps=1,
                                     method="explicit_euler").energy[[0, -1]])[0]
              for h in (1e-3, 5e-3)}
    assert change[1e-3] < -0.5 and change[5e-3] > 1.0


ANGLE_FIRST_FALL = '''
def fall(arm, q0, duration, h):
    q, qd = np.asarray(q0, dtype=float), np.zeros(2)
    for _ in range(round(duration / h)):
        q = q + h * qd                                        # the angle first
        qd = qd + h * acceleration(arm, q, qd, np.zeros(2))   # the speed from the new angle
    return q
'''


def test_the_step_order_slip_is_named_where_it_is_written():
    """The trial class's slip student (trial 6): semi-implicit Euler taken as "the acceleration
    at the new angle", the angle moved first. From rest it lands exactly one step behind, so
    Part 3's hint asks about the order as well as the count (it said only "count the steps",
    and the student had counted right), and the hand-written runs of Part 7 and the matrix of
    Part 9 are the same slip"""
    from armlab.grading import judge
    from armlab.grading.references import forward_dynamics as ref

    slip = ref.ORDER_SLIP
    student = SET.solution()
    exec(ANGLE_FIRST_FALL, student)
    fall = lookup(f"{CHAPTER}.fall")
    for which in ("worked", "fresh"):
        for case in fall.cases(which):
            args = fall.arguments(case)
            value = student["fall"](*map(_plain, args))
            index = judge.matched(fall, case, {"kind": "value", "value": list(value)})
            if index == judge.RIGHT:                      # the arm hanging still
                continue
            assert fall.slips[index] == slip, case
            assert "which of q and qd does each step update first" in fall.mistakes[index][1]
    step = lookup(f"{CHAPTER}.damped_step_matrix")
    assert slip in step.slips and slip in lookup(f"{CHAPTER}.fall_flaw").slips


def _plain(value):
    """A reference's argument as the student's function gets it (an Arm as a PlanarArm)."""
    from armlab.grading.references import planar_arm

    return planar_arm(value) if hasattr(value, "fields") else value


def test_the_step_order_slip_costs_once():
    """Made in Part 3, carried by hand into Part 7's runs and Part 9's matrix: those checks earn
    half their points, with words that say so (the trial's slip student lost all 14)"""
    from test_slips import graded

    parts = [("Part 3: a short fall (3 points)", f"{CHAPTER}.fall", 3.0),
             ("Part 7: the flaw in a fall (6 points)", f"{CHAPTER}.fall_flaw", 6.0),
             ("Part 9: derive the step's matrix on a damped joint (8 points)",
              f"{CHAPTER}.damped_step_matrix", 8.0)]
    from armlab.grading.references import forward_dynamics as ref

    index = {name: lookup(f"{CHAPTER}.{name}").slips.index(ref.ORDER_SLIP)
             for name in ("fall", "fall_flaw", "damped_step_matrix")}
    verdicts, points, result = graded(index, parts)
    assert points == {"test_fall_worked": 0.0, "test_fall_fresh": 0.0,
                      "test_fall_flaw_worked": 0.75, "test_fall_flaw_fresh": 2.25,
                      "test_damped_step_matrix_worked": 1.0,
                      "test_damped_step_matrix_fresh": 3.0}
    assert f"The same slip as Part 3 ({ref.ORDER_SLIP})" in (
        verdicts["test_fall_flaw_fresh"][0][1])
    assert len(result.carried) == 4


def test_the_lowest_point_hint_asks_and_does_not_answer():
    """Part 4's hint for the lowest point taken where link 1 hangs names that fault and asks
    where the potential energy is lowest; it said where (the centre of mass straight along
    gravity from the shoulder), which is the part's answer (issue 34: feedback names what
    failed, never the method that passes)"""
    messages = [message for _wrong, message in lookup(f"{CHAPTER}.locked_swing_speed").mistakes]
    lowest = next(m for m in messages if m.startswith("the swing's lowest point"))
    assert "not where link 1 hangs" in lowest and lowest.endswith("lowest?")
    assert not any("straight along gravity" in m or "centre of mass is" in m for m in messages)
