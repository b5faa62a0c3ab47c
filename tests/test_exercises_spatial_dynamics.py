"""The spatial dynamics exercise set against the exercise standard.

The references agree with armlab's routes (each joint's wrench projected on its axis is
armlab's RNEA torque, and the last joint's wrench is the last body's Newton-Euler wrench;
c from the mass matrix is armlab's RNEA c; a swing's period by the exact pendulum's
elliptic integral is a tight simulation's); the visible checks' values are the chapter's
(Example 3's torques and c); every listed mistake differs at a worked case and the seeded
ones fail their visible checks with their hints; the design's judge passes the grader's
shortest move on every fresh case and the worked duration typed in fails some; the release
equals a fresh one; graded with the real nbgrader and the sandbox, the source scores full
marks, the release zero, each seeded mistake costs its part only, constants earn at most
the visible checks, and a call of an armlab function the part does not allow earns nothing.

Part 7's mass matrix of a turret arm (a SymPy derivation) agrees with armlab at numbers,
accepts three equivalent forms and rejects each named mistake with its hint.
"""

import json

import numpy as np
import pytest

import armlab.spatial as sp
from armlab.grading.references import lookup
from exercise_sets import (ExerciseSet, assert_derivation_accepts,
                           assert_derivation_names_each_mistake)
from submissions import corpus

CHAPTER = "spatial_dynamics"
REFS = __import__(f"armlab.grading.references.{CHAPTER}", fromlist=["x"])
WORKED_T = 1.02 * REFS.shortest(REFS.SO101, REFS.Q_W, REFS._statics.Q_WORK)

SET = ExerciseSet(CHAPTER, designs={f"{CHAPTER}.move_duration": WORKED_T})


def _projected(chain, q, qd, qdd):
    """Route for the joints' wrenches: S_i . F_i is RNEA's torque, and the last row is the
    last body's own I a - ad(V)ᵀ I V (no joint beyond it)."""
    return np.einsum("ij,ij->i", REFS.real(chain).screws,
                     np.array(REFS.joint_wrenches(chain, q, qd, qdd)))


ROUTES = {
    f"{CHAPTER}.coriolis_from_mass": lambda chain, q, qd: REFS._christoffel(chain, q, qd),
    f"{CHAPTER}.small_swing_period": lambda chain, q0, j: 2 * np.pi / np.sqrt(
        np.linalg.eigvals(np.atleast_2d(REFS._k_and_m(REFS.real(chain), np.array(q0), int(j))[0]
                                        / REFS._k_and_m(REFS.real(chain), np.array(q0),
                                                        int(j))[1])).real[0]),
    f"{CHAPTER}.swing_period": REFS.simulated_swing,
}


MISTAKES = {
    "wrenches_answer": ("np.r_[np.zeros(3), -chain.gravity]",
                        "np.r_[np.zeros(3), chain.gravity]", "gravity enters the base's acceleration"),
    "coriolis_answer": ("Mdot @ qd - 0.5 * np.einsum", "Mdot @ qd - np.einsum", "twice its size"),
    "predict_answer": ("return 2 * np.pi * np.sqrt(", "return np.sqrt(", "not a period"),
    "simulate_answer": ("back.direction = -np.sign(amplitude)",
                        "back.direction = np.sign(amplitude)", "that is half a swing"),
    "move_answer": ("return 1.02 * max(by_torque, by_speed)",
                    "return 0.8 * max(by_torque, by_speed)", "of the rated one"),
    "planet_answer": ('planet = "b"', 'planet = "a"', "limiting joint's balance"),
    "turret_answer": ("qd1 * sym.Matrix([-d, r * sym.cos(q2), 0])",
                      "qd1 * sym.Matrix([0, r * sym.cos(q2), 0])", "the offset d's share is missing"),
}
MORE_MISTAKES = [
    {"wrenches_answer": ("F[i] = chain.inertias[i] @ A - sp.ad(V).T @ chain.inertias[i] @ V",
                         "F[i] = chain.inertias[i] @ A", "velocity-product term is missing"),
     "coriolis_answer": ("Mdot @ qd - 0.5 * np.einsum", "Mdot @ qd + 0.5 * np.einsum",
                         "added where it comes off"),
     "predict_answer": ("sp.mass_matrix(chain, q0)[j, j] / stiffness",
                        "stiffness / sp.mass_matrix(chain, q0)[j, j]", "the ratio is upside down"),
     # the rated speeds alone: the visible check's loaded move is bound by its torques
     "move_answer": ("return 1.02 * max(by_torque, by_speed)", "return 1.02 * by_speed",
                     "its largest torque is")},
    {"wrenches_answer": ("F[i - 1] += X[i].T @ F[i]", "F[i - 1] += np.linalg.inv(X[i]) @ F[i]",
                         "as if it were a twist"),
     "turret_answer": (" + J * qd1 ** 2 / 2)", ")", "the turret's own moment J"),
     # the rated torques alone: the visible check's unloaded move is bound by its speed
     "move_answer": ("return 1.02 * max(by_torque, by_speed)", "return 1.02 * by_torque",
                     "its largest speed")},
    {"turret_answer": ("sym.integrate(m / L * speed2(s), (s, 0, L)) / 2",
                       "m * speed2(L / 2) / 2", "taken as a point mass at its centre")},
]
CALLS = {
    "wrenches_answer": None,         # below: the solution with joint_poses for the transforms
    "coriolis_answer": ("def coriolis_from_mass(chain, q, qd):\n"
                        "    return sp.coriolis_torques(chain, q, qd)"),
    "predict_answer": ("def small_swing_period(chain, q0, j):\n"
                       "    j = int(j)\n"
                       "    H = sp.mass_matrix(chain, q0)\n"
                       "    e = np.eye(chain.n)[j] * 1e-6\n"
                       "    V = lambda x: sp.potential_energy(chain, x)\n"
                       "    k = (V(q0 + e) - 2 * V(q0) + V(q0 - e)) / 1e-12\n"
                       "    return 2 * np.pi * np.sqrt(H[j, j] / k)"),
    "simulate_answer": None,         # below: the solution with forward_dynamics of joint j
    "move_answer": None,             # below: the solution with g from the potential energy
    # numbers from armlab's mass matrix, which the part does not allow (nor are they symbolic)
    "turret_answer": ("def turret_mass_matrix(q1, q2, d, L, m, mp, J):\n"
                      "    return sp.mass_matrix(sp.so101(), np.zeros(5))[:2, :2]"),
}


def _calls():
    wrenches = SET.answer("wrenches_answer").replace(
        "X.append(sp.adjoint(sp.inverse(chain.origins[i] @ motion)))",
        "X.append(sp.adjoint(sp.inverse(np.linalg.inv(sp.joint_poses(chain, q)[i - 1]) @ "
        "sp.joint_poses(chain, q)[i] if i else sp.joint_poses(chain, q)[0])))")
    simulate = SET.answer("simulate_answer").replace(
        "-sp.gravity_torques(chain, q)[j] / sp.mass_matrix(chain, q)[j, j]",
        "-sp.inverse_dynamics(chain, q, 0 * q, 0 * q)[j] / sp.mass_matrix(chain, q)[j, j]")
    move = SET.answer("move_answer").replace(
        "g = sp.gravity_torques(chain, q)",
        "g = np.array([[(sp.potential_energy(chain, x + 1e-6 * e) - sp.potential_energy("
        "chain, x - 1e-6 * e)) / 2e-6 for e in np.eye(chain.n)] for x in q])")
    return {"wrenches_answer": wrenches, "simulate_answer": simulate, "move_answer": move}


CALLS.update(_calls())


def test_calls_are_right_answers():
    """Each armlab call is a right answer outside a check (so its zero comes from the call),
    but the derivation's, which is numbers where an expression is asked."""
    for text in CALLS.values():
        assert "sp." in text


def test_references_agree_with_armlab():
    """Two routes on the worked and fresh cases of three case keys."""
    SET.assert_references_agree(ROUTES, rtol=1e-5, atol=1e-8)


def test_joint_wrenches_project_onto_rnea_and_the_last_body():
    ref = lookup(f"{CHAPTER}.joint_wrenches")
    for case in ref.worked + tuple(ref.cases("fresh", key="w")):
        chain, q, qd, qdd = ref.arguments(case)
        ch = REFS.real(chain)
        np.testing.assert_allclose(_projected(chain, q, qd, qdd),
                                   sp.inverse_dynamics(ch, q, qd, qdd), atol=1e-9, rtol=1e-9)
        one = np.array(REFS._wrenches(chain, q, qd, qdd))
        # the last joint carries the last body's wrench alone: its torque is unchanged when
        # every body but the last is massless
        light = REFS.ChainData(**{**chain.fields(), "inertias": [[[0.0] * 6] * 6] * (ch.n - 1)
                                  + [chain.fields()["inertias"][-1]]})
        np.testing.assert_allclose(np.array(REFS._wrenches(light, q, qd, qdd))[-1], one[-1],
                                   atol=1e-9)


def test_worked_values_are_the_chapters():
    """Example 3's RNEA torques and c, and the hanging wrist's rest (g_3 = 0)."""
    so101 = sp.so101()
    q, qd, qdd = REFS.Q_W, REFS.QD_W, REFS.QDD_W
    np.testing.assert_allclose(_projected(REFS.SO101, q, qd, qdd),
                               sp.inverse_dynamics(so101, q, qd, qdd), atol=1e-12)
    np.testing.assert_allclose(SET.worked("coriolis_from_mass"),
                               sp.coriolis_torques(so101, q, qd), atol=1e-15)
    assert abs(sp.gravity_torques(so101, REFS.WRIST)[3]) < 1e-12
    assert SET.worked("swing_period") > SET.worked("small_swing_period") * 1.01


def test_every_listed_mistake_differs_at_a_worked_case():
    from armlab.grading.purepy import close
    from armlab.grading.references import quantities

    for quantity in quantities(CHAPTER):
        ref = lookup(quantity)
        if ref.is_derivation:
            continue                    # judged symbolically: see the turret's tests below
        for wrong, message in ref.mistakes:
            assert any(not close(wrong(*ref.arguments(c)), ref(*ref.arguments(c)), 1e-3, 1e-9)
                       for c in ref.worked), f"{quantity}: {message}"


def test_design_judge_passes_the_graders_design_and_not_the_worked_one():
    ref = lookup(f"{CHAPTER}.move_duration")
    misses = 0
    for key in ("", "x"):
        for case in ref.cases("fresh", key=key):
            args = ref.arguments(case)
            assert ref(*args, 1.02 * REFS.shortest(*args))[0] == 1.0
            assert ref(*args, 0.9 * REFS.shortest(*args))[0] < 1.0
            misses += ref(*args, WORKED_T)[0] < 1.0
    assert misses >= 3


def _binding(case):
    """Which rating sets the shortest move of a case, and by what factor over the other."""
    ch, a, b = REFS.real(case.args["chain"]), case.args["q_start"], case.args["q_end"]
    by_torque, by_speed = REFS._by_torque(ch, a, b), REFS._by_speed(ch, a, b)
    return ("torque", by_torque / by_speed) if by_torque > by_speed else ("speed",
                                                                           by_speed / by_torque)


def test_the_move_cases_say_which_rating_binds():
    """The visible check has a move its rated speed binds (the torques alone would allow
    0.039 s of its 0.103 s) and one its rated torques bind, each labelled; every student's
    hidden cases hold a random chain of each kind, labelled, with the other rating allowing
    a move at most half as long."""
    worked = lookup(f"{CHAPTER}.move_duration").cases("worked")
    assert [_binding(case)[0] for case in worked] == ["speed", "torque"]
    assert [case.label.rsplit(": ", 1)[1] for case in worked] == [
        "its rated speed binds", "its rated torques bind"]
    assert all(_binding(case)[1] > 2.0 for case in worked)
    for key in ("", "x", "y", "z"):
        fresh = lookup(f"{CHAPTER}.move_duration").cases("fresh", key=key)
        chosen = [case for case in fresh if case.label and "bind" in case.label]
        assert [case.label for case in chosen] == ["a random chain: its rated torques bind",
                                                   "a random chain: its rated speeds bind"]
        assert [_binding(case)[0] for case in chosen] == ["torque", "speed"]
        assert all(_binding(case)[1] >= 2.0 - 1e-9 for case in chosen)


def test_the_set_meets_the_standard_on_paper():
    """Seven parts, 38 points; the choice part under 10 %."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=7, points=38)


def test_the_visible_checks_catch_every_listed_mistake():
    SET.assert_visible_checks_catch(MISTAKES)
    for more in MORE_MISTAKES:
        SET.assert_visible_checks_catch(more)


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    """The standard's submissions and, in the same round, the hostile corpus's spatial
    dynamics notebook (tests/submissions/corpus.py: a chain written into for the next
    case, RNEA, CRBA, ABA and g reached where a part does not allow them, a simulation
    asking for 149 GiB, hostile SymPy): it gains nothing, the call that meets a stub is
    reported, the simulation fails its part only, the SymPy answer is refused and said so."""
    import pathlib

    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS,
                             extra=corpus.spatial_dynamics_hostile())
    assert not pathlib.Path(corpus.MARKER).exists()       # the text meant to run never ran


@pytest.mark.slow
def test_an_endless_simulation_is_held_and_harms_no_one(tmp_path):
    """An endless simulation (tests/submissions/corpus.py), graded in one round beside an
    honest notebook with a CPU limit of 5 s a check (30 s by default: the endless one would
    cost minutes in the fairness round): its row is held with a grading fault, and the
    honest notebook keeps full marks."""
    import json

    from armlab.grading.autograde import grade
    from armlab.grading.sandbox import available

    ok, why = available()
    if not ok:
        pytest.skip(f"no sandbox on this machine: {why}")
    subs = dict(corpus.spatial_dynamics_endless(), honest=(SET.filled(), None, None, None))
    export = tmp_path / "export"
    export.mkdir()
    for k, (login, (nb, *_)) in enumerate(sorted(subs.items())):
        (export / f"{login}_{1000 + k}_1_{SET.notebook_name}").write_text(json.dumps(nb))
    grade(CHAPTER, export, out=tmp_path / "out", workers=2, progress=False, cpu=5)
    scores = SET._scores(tmp_path / "out")
    problems = SET._against("honest", scores.get("honest"), "full", {}, tmp_path / "out")
    problems += SET._against("endless", scores.get("endless"), ("exact",) + subs["endless"][1:],
                             {}, tmp_path / "out")
    assert problems == []


# ---------------------------------------------------------------- Part 7: the derivation
TURRET = f"{CHAPTER}.turret_mass_matrix"


def _turret_by_jacobians(q1, q2, d, L, m, mp, J):
    """Another route, no kinetic energy written: M = sum of m Jvᵀ Jv + Jwᵀ R I_c Rᵀ Jw over
    the rod (at its centre, I_c = diag(0, m L²/12, m L²/12) in its own axes) and the payload,
    plus J on joint 1; positions in world axes."""
    import sympy

    Rz = sympy.rot_axis3(-q1)                   # SymPy's rot_axis3 turns the other way
    R = Rz * sympy.rot_axis2(-q2)               # the link's axes in world axes
    h = sympy.Symbol("h", real=True)

    def point(r):
        return Rz * sympy.Matrix([r * sympy.cos(q2), d, h - r * sympy.sin(q2)])

    Jw = sympy.Matrix.hstack(sympy.Matrix([0, 0, 1]), Rz * sympy.Matrix([0, 1, 0]))
    I_c = sympy.diag(0, m * L ** 2 / 12, m * L ** 2 / 12)
    out = sympy.diag(J, 0)
    for mass, r in ((m, L / 2), (mp, L)):
        Jv = point(r).jacobian([q1, q2])
        out += mass * Jv.T * Jv
    return out + Jw.T * R * I_c * R.T * Jw


def _turret_by_lagrange_on_the_rod_centre(q1, q2, d, L, m, mp, J):
    """Another route: T of the rod's centre of mass plus its spin, qd2² + (qd1 cos q2)²
    (no spin about the rod's own axis), and the payload; M by the Hessian."""
    import sympy

    qd1, qd2 = sympy.symbols("qd1 qd2", real=True)

    def speed2(r):
        return (d * qd1 + r * sympy.sin(q2) * qd2) ** 2 + (r * sympy.cos(q2)) ** 2 * (
            qd1 ** 2 + qd2 ** 2)

    spin = m * L ** 2 / 12 * (qd2 ** 2 + (qd1 * sympy.cos(q2)) ** 2)
    T = (m * speed2(L / 2) + spin + mp * speed2(L) + J * qd1 ** 2) / 2
    return sympy.hessian(T, (qd1, qd2))


def _turret_written_out(q1, q2, d, L, m, mp, J):
    """Written out by hand, cos² q2 as (1 + cos 2 q2) / 2, as a list of rows."""
    import sympy

    k = m / 3 + mp
    m12 = (m / 2 + mp) * d * L * sympy.sin(q2)
    return [[J + (m + mp) * d ** 2 + k * L ** 2 * (1 + sympy.cos(2 * q2)) / 2, m12],
            [m12, k * L ** 2]]


@pytest.mark.parametrize("answer", [_turret_by_jacobians, _turret_by_lagrange_on_the_rod_centre,
                                    _turret_written_out])
def test_the_turret_accepts_equivalent_forms(answer):
    """Three other routes to M pass every worked and fresh case."""
    assert_derivation_accepts(TURRET, answer)


def test_the_turret_rejects_each_named_mistake_with_its_hint():
    assert_derivation_names_each_mistake(TURRET, 7)


def test_the_turret_mass_matrix_is_armlabs():
    """Part 7's reference against armlab's composite-rigid-body M of the turret as a chain
    (the rod's inertia about its own axis 1e-300 kg m², the payload a point), at random
    numbers."""
    import sympy

    from armlab.grading.cases import ChainData

    rng = np.random.default_rng(7)
    for _ in range(4):
        q, d, L = rng.uniform(-3, 3, 2), rng.uniform(-0.2, 0.2), rng.uniform(0.1, 0.5)
        m, mp, J = rng.uniform(0.2, 3.0), rng.uniform(0.0, 2.0), rng.uniform(0.001, 0.05)
        origin = np.eye(4)
        origin[:3, 3] = [0.0, d, 0.3]
        tip = np.eye(4)
        tip[:3, 3] = [L, 0.0, 0.0]
        turret = sp.spatial_inertia(1.0, [0.0, 0.0, 0.0], J * np.eye(3))
        rod = sp.spatial_inertia(m, [L / 2, 0.0, 0.0],
                                 np.diag([1e-300, 1.0, 1.0]) * m * L ** 2 / 12)
        link = rod + sp.spatial_inertia(mp, [L, 0.0, 0.0], np.zeros((3, 3)))
        chain = REFS.real(ChainData(["revolute", "revolute"], [np.eye(4).tolist(),
                                                               origin.tolist()],
                                    [[0, 0, 1], [0, 1, 0]], [turret.tolist(), link.tolist()],
                                    tip.tolist(), [0.0, 0.0, -9.81], effort=[1.0, 1.0],
                                    velocity=[1.0, 1.0]))
        args = [sympy.Float(x, 30) for x in [*q, d, L, m, mp, J]]
        M = np.array(lookup(TURRET).function(*args), dtype=float)
        np.testing.assert_allclose(M, sp.mass_matrix(chain, q), atol=1e-12)


def test_the_turrets_other_arm_has_every_term():
    """The hidden case "another arm" gives every length, mass and load a value other than
    zero (a zero there drops a term the case is meant to check: one student in eleven
    drew one, d or the payload, a second case without a payload)."""
    import sympy

    for key in [f"student{k}" for k in range(40)]:
        case = lookup(TURRET).cases("fresh", key=key)[0]
        assert case.label.startswith("another arm")
        numbers = {k: v for k, v in case.args.items() if not isinstance(v, sympy.Symbol)}
        assert numbers and all(v != 0 for v in numbers.values()), (key, numbers)


def test_the_free_joints_inertia_is_one_slip_across_parts_3_and_4():
    """The trial class's slip student took joint j's inertia as 1/(M^-1)_jj (the other joints
    free) in Part 3's prediction and again in Part 4's simulation: 0 in both before, with the
    general advice; now Part 3 names it and costs in full, Part 4 earns half, for either form
    of Part 4's equation (with the inertia's m'/2 qd^2 term, as Lagrange gives, or without)"""
    from test_slips import graded, slip_index

    parts = [("Part 3: predict a swing (3 points)", f"{CHAPTER}.small_swing_period", 3.0),
             ("Part 4: then simulate it (7 points)", f"{CHAPTER}.swing_period", 7.0)]
    ref4 = lookup(f"{CHAPTER}.swing_period")
    forms = [k for k, slip in enumerate(ref4.slips) if slip == REFS.FREE]
    assert len(forms) == 2
    for form in forms:
        kinds = {"small_swing_period": slip_index(f"{CHAPTER}.small_swing_period", REFS.FREE),
                 "swing_period": form}
        verdicts, points, _result = graded(kinds, parts)
        assert points == pytest.approx({
            "test_small_swing_period_worked": 0.0, "test_small_swing_period_fresh": 0.0,
            "test_swing_period_worked": 0.875, "test_swing_period_fresh": 2.625}, abs=0.01)
        assert "free to move" in verdicts["test_small_swing_period_worked"][0][1]
        assert verdicts["test_swing_period_fresh"][0][1].endswith(
            f"The same slip as Part 3 ({REFS.FREE}), counted once there: this check earns "
            "half its points")


def test_a_duration_at_the_ratings_to_rounding_meets_the_spec():
    """The trial class's strong student solved the move's 101 samples exactly (tau = A/T^2 + g
    per joint, from M, c and g): the judge's inverse dynamics put the largest torque a few
    parts in 1e16 over the rating, and the page said '✗ meets 3 of 4 cases' spec (100% of the
    points)' for full marks; a design within the ratings to rounding meets the spec"""
    ref = lookup(f"{CHAPTER}.move_duration")
    for case in ref.cases("worked"):
        args = ref.arguments(case)
        best = REFS.shortest(*args)
        for T in (best * (1 - 1e-13), best * (1 - 1e-11)):
            assert ref.function(*args, T)[0] == 1.0
        assert ref.function(*args, best * (1 - 1e-6))[0] < 1.0


def test_part_4_says_the_amplitude_may_be_negative():
    """Part 4's hidden swings start to either side (the trial's literals student, whose event
    assumed a positive amplitude, was told 'that is half a swing'); the part's text said only
    'swings of 0.3 to 1 rad'"""
    amplitudes = [case.args["amplitude"] for case in lookup(f"{CHAPTER}.swing_period").cases("fresh")]
    assert min(amplitudes) < 0 < max(amplitudes)
    for where in ("solutions", "exercises"):
        nb = json.load(open(f"{where}/{CHAPTER}/{CHAPTER}.ipynb"))
        part4 = next("".join(c["source"]) for c in nb["cells"]
                     if c["metadata"].get("nbgrader", {}).get("grade_id") == "part4")
        assert "to either side (`amplitude` may be negative)" in part4
