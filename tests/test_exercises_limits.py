"""The limits exercise set against the exercise standard, with the real nbgrader.

The references (armlab where it has the quantity, numpy for the path's bounds and
every likely mistake) agree with armlab's own routes; the visible checks' values are
the chapter's worked values ('Arm dynamics', 'Inverse dynamics: calculate the torque
a robot's motion needs', Robotics Toolbox for Python's documentation, and Example 5's
motor); every listed mistake fails its part's visible check; the gear design's judge
passes a band of ratios and gives part of the points near it; the release equals a fresh nbgrader release of the
source; the source scores full marks and the release zero; one seeded mistake
per part loses that part only and gets its hint; worked values typed in as
constants earn at most the visible checks; calling the armlab function that
answers a part earns nothing for it.
"""

import numpy as np
import pytest

import armlab as al
from armlab.grading.references import lookup
from exercise_sets import ExerciseSet

CHAPTER = "limits"
WORKED_RATIO = 80.7005377496534     # the solution's design at the worked move


SET = ExerciseSet(CHAPTER, designs={f"{CHAPTER}.gear_ratio": WORKED_RATIO})

ROUTES = {
    f"{CHAPTER}.realized_acceleration": lambda arm, q, qd, qdd, limit:
        al.realized_acceleration(arm, q, qd, qdd, limit)[2],
    f"{CHAPTER}.acceleration_error": lambda arm, q, deficit:
        np.linalg.solve(al.mass_matrix(arm, q), deficit),
    f"{CHAPTER}.scale_torques": al.scale_torques,
    f"{CHAPTER}.shortest_duration": lambda arm, a, b, limit:
        al.shortest_duration(arm, a, b, limit).duration,
    f"{CHAPTER}.payload_capacity": al.payload_capacity,
    f"{CHAPTER}.joint_friction": al.friction_torques,
    f"{CHAPTER}.path_acceleration_bounds": lambda arm, a, b, limit, s, sd:
        al.path_acceleration_bounds(arm, a, b, limit, s, sd),
    f"{CHAPTER}.clipped_claim": lambda arm, q, qd, qdd, limit, claimed: [
        *al.realized_acceleration(arm, q, qd, qdd, limit)[2], _flaw_by_armlab(
            arm, q, qd, qdd, limit, claimed)],
}


def _flaw_by_armlab(arm, q, qd, qdd, limit, claimed):
    """The flaw (1, 2 or 3) of Part 7's claim, by armlab's own routes: the scaling policy;
    the clipped torque's acceleration on the arm without gravity or friction, at rest; the
    deficit over the mass matrix's diagonal."""
    requested, applied, _ = al.realized_acceleration(arm, q, qd, qdd, limit)
    bare = al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia, gravity=0.0)
    values = [al.realized_acceleration(arm, q, qd, qdd, limit, policy="scale")[2],
              al.forward_dynamics(bare, q, np.zeros(2), applied),
              np.add(qdd, (applied - requested) / np.diag(al.mass_matrix(arm, q)))]
    return 1 + int(np.argmin([np.abs(v - claimed).max() for v in values]))


def test_the_claims_are_made_with_every_flaw_and_name_it():
    """Part 7's fresh claims: every flaw among each key's cases, each claim within the
    rounding of the flaw it names and at least 0.05 rad/s^2 from the right value"""
    ref = lookup(f"{CHAPTER}.clipped_claim")
    for key in ("", "x", "y"):
        flaws = []
        for case in ref.cases("fresh", key=key) + ref.cases("worked"):
            args = ref.arguments(case)
            q, qd, qdd, limit, claimed = (np.asarray(a, dtype=float) for a in args[1:])
            arm = al.PlanarArm(**case.args["arm"].fields())
            answer = ref.function(*args)
            flaws.append(answer[2])
            assert answer[2] == _flaw_by_armlab(arm, q, qd, qdd, limit, claimed), case
            truth = al.realized_acceleration(arm, q, qd, qdd, limit)[2]
            assert np.abs(truth - claimed).max() >= 0.05, case
        assert {1.0, 2.0, 3.0} <= set(flaws), key


def test_references_agree_with_armlab():
    """Two routes: the references (numpy where armlab has no such function) and armlab."""
    SET.assert_references_agree(ROUTES)


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints."""
    worked = SET.worked
    # 'Inverse dynamics: calculate ...': the shoulder clips at 20 N m; the elbow request at
    # 1.5 N m, both ways
    np.testing.assert_allclose(worked("realized_acceleration"), [-2.92, 9.8], atol=1e-12)
    np.testing.assert_allclose(worked("realized_acceleration", 1), [-2 / 7, 19 / 7], atol=1e-12)
    np.testing.assert_allclose(worked("realized_acceleration", 2), [2 / 7, -19 / 7], atol=1e-12)
    np.testing.assert_allclose(worked("acceleration_error"), [-3.92, 9.8], atol=1e-12)
    np.testing.assert_allclose(worked("scale_torques"), [20.0, 5.149566], atol=5e-7)
    np.testing.assert_allclose(worked("scale_torques", 1), [19.62, 4.905], atol=1e-12)
    # 'Arm dynamics': the table-top arm's move under (8, 2) N m
    np.testing.assert_allclose(worked("shortest_duration"), 0.975359, atol=5e-7)
    # Robotics Toolbox for Python's meanings on the rods at 25 N m: positive multiples, then an inf
    np.testing.assert_allclose(worked("payload_capacity"), [0.2742, 2.0484], atol=5e-5)
    cap = worked("payload_capacity", 1)
    assert np.isinf(cap[1]) and round(cap[0], 4) == 1.0484
    # Example 5's motor through 50:1 at (2, -1) rad/s
    np.testing.assert_allclose(worked("joint_friction"), [0.3, -0.25], atol=1e-12)
    # Example 3's path under (8, 2) N m: halfway at 2 /s, and at its start at rest
    assert np.round(worked("path_acceleration_bounds"), 4).tolist() == [-46.9818, 2.9483]
    assert np.round(worked("path_acceleration_bounds", 1), 4).tolist() == [-48.3572, 11.0263]
    start, end = np.radians([-45, 90]), np.radians([60, -30])
    _, U0 = al.path_acceleration_bounds(al.tabletop_arm(), start, end, [8.0, 2.0], 0.0, 0.0)
    assert round(float(U0), 4) == 11.0263


# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "realized_answer": ("np.clip(tau, -limit, limit)", "np.minimum(tau, limit)",
                        "bounds both directions"),
    "error_answer": ("np.linalg.solve(al.mass_matrix(arm, q), deficit)",
                     "al.mass_matrix(arm, q) @ deficit", "solve M e = deficit"),
    "scale_answer": ("s = min([1.0, *ratios])", "s = min(ratios)",
                     "the factor is at most 1"),
    "shortest_answer": ("room = np.where(A > 0, limit - g, limit + g)", "room = limit + 0 * g",
                        "gravity needs its torque at any speed"),
    "capacity_answer": ("g = al.gravity_torques(arm, q)", "g = np.zeros(2)",
                        "the motors already hold the arm itself"),
    "friction_answer": ("G**2 * B * qd", "G * B * qd", "G^2 B, not G B"),
    "claim_answer": ("return np.array([*truth, 1 + int(np.argmin(gaps))])",
                     "return np.array([*claimed, 1 + int(np.argmin(gaps))])",
                     "the claim is what is being checked"),
    "bounds_answer": ("L, U = max(L, min(a, b)), min(U, max(a, b))", "L, U = max(L, a), min(U, b)",
                      "swap that joint's two ends"),
    "gear_answer": ("G**2 * (rotor * qdd + B * qd)", "G**2 * B * qd",
                    "for its own rotor and friction through the gear"),
    "curved_path_answer": ("M * ddq + c", "c", "M q''(s) joins c(s)"),
}
# more likely mistakes of the function parts, each caught by its part's visible check
MORE_MISTAKES = [
    {"realized_answer": ("return al.forward_dynamics(arm, q, qd, applied)",
                         "return np.asarray(qdd_request, dtype=float)",
                         "that is the requested acceleration"),
     "error_answer": ("np.linalg.solve(al.mass_matrix(arm, q), deficit)",
                      "deficit / np.diag(al.mass_matrix(arm, q))", "ignores the coupling"),
     "scale_answer": ("s = min([1.0, *ratios])\n    return s * tau",
                      "return np.clip(tau, -np.asarray(limit), limit)",
                      "that clips each joint on its own"),
     "shortest_answer": ("room = np.where(A > 0, limit - g, limit + g)",
                         "room = limit - np.abs(g).max(axis=0)",
                         "compare the torque with the limit point by point"),
     "capacity_answer": ("capacity[j] = (-limit[j] - g[j]) / t[j]",
                         "capacity[j] = (limit[j] - g[j]) / t[j]", "use -limit_j there"),
     "friction_answer": ("G * Tc * np.sign(qd)", "G**2 * Tc * np.sign(qd)",
                         "Coulomb friction does not grow with speed"),
     "bounds_answer": ("* sd**2", "* sd", "grow with the square of the speed"),
     "gear_answer": ("G * np.abs(qd).max() / speed", "np.abs(qd).max() / (G * speed)",
                     "the motor turns G times faster than its joint")},
    {"realized_answer": ("return al.forward_dynamics(arm, q, qd, applied)",
                         "return qdd_request + (applied - tau) / np.diag(al.mass_matrix(arm, q))",
                         "coupled through the whole mass matrix"),
     "error_answer": ("return np.linalg.solve(", "return -np.linalg.solve(",
                      "right size, wrong sign"),
     "scale_answer": ("s = min([1.0, *ratios])", "s = min(1.0, max(ratios))",
                      "not the largest"),
     "capacity_answer": ("F1 = -np.asarray(arm.gravity) * 1.0",
                         "F1 = -np.asarray(arm.gravity) / np.linalg.norm(arm.gravity)",
                         "not 1 N"),
     "friction_answer": ("return G**2 * B * qd + G * Tc * np.sign(qd)",
                         "return -(G**2 * B * qd + G * Tc * np.sign(qd))",
                         "as Robotics Toolbox for Python returns it"),
     "bounds_answer": (" + al.gravity_torques(arm, q)\n", "\n", "gravity is part of d"),
     "claim_answer": ("truth = realized_acceleration(arm, q, qd, qdd_request, limit)",
                      "truth = np.linalg.solve(al.mass_matrix(arm, q), np.clip(\n"
                      "        al.inverse_dynamics(arm, q, qd, qdd_request), -limit, limit))",
                      "not M^-1 tau")},
    {"curved_path_answer": ("dq = sp.Matrix([d1, 2 * d2 * s])", "dq = sp.Matrix([d1, d2])",
                            "not the endpoint difference"),
     "realized_answer": ("applied = np.clip(tau, -limit, limit)",
                         "applied = tau * min(1.0, *(limit / np.abs(tau)))",
                         "that scales the whole torque vector"),
     "claim_answer": ("1 + int(np.argmin(gaps))", "3 - int(np.argmin(gaps))",
                      "the flaw's number")},
]
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    # numbers from armlab's path dynamics, which the part does not allow (nor are they symbolic)
    "curved_path_answer": ("def curved_path_terms(s, p1, p2, d1, d2, L1, L2, m1, m2):\n"
                           "    return al.mass_matrix(al.tabletop_arm(), [0.0, 0.0])"),
    "realized_answer": ("def realized_acceleration(arm, q, qd, qdd_request, limit):\n"
                        "    return al.realized_acceleration(arm, q, qd, qdd_request, limit)[2]"),
    "error_answer": ("def acceleration_error(arm, q, deficit):\n"
                     "    free = al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia,\n"
                     "                        gravity=0.0)\n"
                     "    return al.forward_dynamics(free, q, np.zeros(2), deficit)"),
    "scale_answer": "def scale_torques(tau, limit):\n    return al.scale_torques(tau, limit)",
    "claim_answer": ("def clipped_claim(arm, q, qd, qdd_request, limit, claimed):\n"
                     "    truth = al.realized_acceleration(arm, q, qd, qdd_request, limit)[2]\n"
                     "    return np.array([*truth, 3.0])"),
    "shortest_answer": ("def shortest_duration(arm, q_start, q_end, limit):\n"
                        "    return al.shortest_duration(arm, q_start, q_end, limit).duration"),
    "capacity_answer": ("def payload_capacity(arm, q, limit):\n"
                        "    return al.payload_capacity(arm, q, limit)"),
    "friction_answer": "def joint_friction(arm, qd):\n    return al.friction_torques(arm, qd)",
    "bounds_answer": ("def path_acceleration_bounds(arm, q_start, q_end, limit, s, sd):\n"
                      "    return np.array(al.path_acceleration_bounds(arm, q_start, q_end, limit,"
                      " s, sd))"),
    "gear_answer": ("def gear_ratio(arm, q_start, q_end, duration, torque, speed, rotor):\n"
                    "    for G in np.geomspace(1.0, 5000.0, 400):\n"
                    "        geared = al.PlanarArm(arm.lengths, arm.masses, damping=arm.damping,\n"
                    "                              coulomb=arm.coulomb, gear_ratio=G)\n"
                    "        plan = al.shortest_duration(geared, q_start, q_end, G * torque,\n"
                    "                                    rotor_inertia=rotor, speed_limit=speed / G)\n"
                    "        if plan.duration <= duration:\n"
                    "            return float(G)"),
}


def test_every_part_has_a_seeded_mistake_that_the_references_recognise():
    """Each function part's seeded mistake, run on its worked case, is one of the
    reference's mistakes (so the feedback gives its hint), not a random wrong value."""
    from armlab.grading.references import lookup

    rods = al.rod_arm()
    cases = {
        "realized_acceleration": (rods, np.zeros(2), np.zeros(2), np.array([1.0, -3.0]),
                                  np.array([20.0, 3.0])),
        "acceleration_error": (rods, np.zeros(2), np.array([-2.286667, 0.0])),
        "scale_torques": (np.array([2.0, -1.0]), np.array([5.0, 5.0])),
        "payload_capacity": (rods, np.zeros(2), np.array([25.0, 25.0])),
        "joint_friction": (al.PlanarArm((1, 1), (1, 1), damping=2e-5, coulomb=4e-3,
                                        gear_ratio=50), np.array([2.0, -1.0])),
    }
    wrong = {
        "realized_acceleration": lambda arm, q, qd, qdd, limit: al.forward_dynamics(
            arm, q, qd, np.minimum(al.inverse_dynamics(arm, q, qd, qdd), limit)),
        "acceleration_error": lambda arm, q, d: al.mass_matrix(arm, q) @ d,
        "scale_torques": lambda tau, limit: (limit / np.abs(tau)).min() * tau,
        "payload_capacity": lambda arm, q, limit: al.payload_capacity(
            al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia, gravity=0.0), q, limit,
            tip_force=[0.0, 9.81]),
        "joint_friction": lambda arm, qd: np.asarray(arm.gear_ratio) * np.asarray(
            arm.damping) * qd + np.asarray(arm.gear_ratio) * np.asarray(arm.coulomb) * np.sign(qd),
    }
    for name, args in cases.items():
        ref = lookup(f"{CHAPTER}.{name}")
        from armlab.grading import cases as grading_cases, runner

        plain = [grading_cases.decode(runner.encode(a)) for a in args]
        value = np.asarray(wrong[name](*args), dtype=float)
        matches = [msg for fn, msg in ref.mistakes
                   if np.allclose(np.asarray(fn(*plain), dtype=float), value, rtol=1e-6)]
        assert matches, f"{name}: the seeded mistake matches none of the reference's mistakes"


def test_the_set_meets_the_standard_on_paper():
    """Every part has points, a visible check first worth at most a third of a function
    part, and one seeded mistake; every checked function an armlab call; the intro says
    how to install (test_book_prose checks the chapter's list of the parts)."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=10, points=46)


def test_fresh_cases_are_per_student_and_cover_the_edges():
    """Two keys give different cases; the edge cases the chapter cares about are there."""
    from armlab.grading.references import lookup

    ref = lookup(f"{CHAPTER}.realized_acceleration")
    a, b = ref.cases("fresh", key="alice"), ref.cases("fresh", key="bob")
    assert [c.args["q"] for c in a] != [c.args["q"] for c in b]
    labels = {c.label for c in a}
    assert {"a limit that clips the elbow instead", "a limit that clips both joints",
            "a limit that clips neither"} <= labels
    # the labels say what the limits do: check it with armlab
    for case in a:
        arm = al.PlanarArm(**case.args["arm"].fields())
        req, applied, _ = al.realized_acceleration(arm, case.args["q"], case.args["qd"],
                                                   case.args["qdd_request"], case.args["limit"])
        clipped = {j for j in range(2) if applied[j] != req[j]}
        expected = {"a limit that clips the shoulder": {0},
                    "a limit that clips the elbow instead": {1},
                    "a limit that clips both joints": {0, 1},
                    "a limit that clips neither": set()}.get(case.label)
        if expected is not None:
            assert clipped == expected, case.label
    shortest = lookup(f"{CHAPTER}.shortest_duration")
    durations = [shortest.function(*shortest.arguments(c)) for c in shortest.cases("fresh")]
    assert np.all(np.isfinite(durations))
    weak = [shortest.function(*shortest.arguments(c)) for c in shortest.cases("too weak")]
    assert np.isinf(weak[0]) and np.isfinite(weak[1])       # an ordinary move too: inf alone fails
    capacity = lookup(f"{CHAPTER}.payload_capacity")
    caps = [capacity.function(*capacity.arguments(c)) for c in capacity.cases("fresh")]
    assert all(np.all(np.isfinite(c)) for c in caps)
    none = [capacity.function(*capacity.arguments(c)) for c in capacity.cases("no load")]
    assert np.isinf(none[0][1]) and np.all(np.isinf(none[1])) and np.all(np.isfinite(none[2]))


@pytest.mark.parametrize("mistakes", [MISTAKES, *MORE_MISTAKES],
                         ids=["seeded", *(f"more{k}" for k in range(len(MORE_MISTAKES)))])
def test_the_visible_checks_catch_the_likely_mistakes(mistakes):
    """Each listed mistake, seeded into the solution, fails its part's visible check with
    its hint (clipping from above only, and a scale factor above 1, passed the old ones)."""
    SET.assert_visible_checks_catch(mistakes)


def test_the_gear_judge_passes_a_band_and_grades_near_misses():
    """On the worked move any ratio from about 71:1 to 89:1 meets the spec; a ratio short
    of torque or of speed earns less the further over, nothing at 25 % over"""
    ref = lookup(f"{CHAPTER}.gear_ratio")
    args = ref.arguments(ref.cases("worked")[0])
    judged = {G: ref.function(*args, G) for G in (72.0, WORKED_RATIO, 88.0, 70.0, 95.0, 50.0,
                                                 120.0, -3.0)}
    assert [judged[G][0] for G in (72.0, WORKED_RATIO, 88.0)] == [1.0, 1.0, 1.0]
    assert 0.96 < judged[70.0][0] < 0.97 and "(0.9% over)" in judged[70.0][1]
    assert 0.73 < judged[95.0][0] < 0.74 and " 532.9 rad/s of its 500 rad/s (6.6% over)" in \
        judged[95.0][1]
    assert judged[50.0][0] == judged[120.0][0] == judged[-3.0][0] == 0.0
    assert "0.2024 N m of its 0.15 N m (35.0% over)" in judged[50.0][1]


def test_the_fresh_gear_cases_are_well_posed_and_not_the_worked_one():
    """On every key's cases a band of ratios meets the spec, the solution's search finds
    one, and the worked case's ratio meets none of them (a typed-in design earns nothing)"""
    ref = lookup(f"{CHAPTER}.gear_ratio")
    ratios = np.geomspace(1.0, 3000.0, 300)
    for key in ("", "x", "y", "z"):
        for case in ref.cases("fresh", key=key):
            args = ref.arguments(case)
            met = [G for G in ratios if ref.function(*args, G)[0] == 1.0]
            assert len(met) >= 3, case
            assert ref.function(*args, WORKED_RATIO)[0] == 0.0, case


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)


def test_the_curved_path_reference_agrees_with_lagrange():
    """The curved path's m(s) and c(s) (Part 10) against a second route: the point
    masses' kinetic energy from their positions, Lagrange's equations along q(s(t)), and
    the coefficients of s_dd and s_d^2 there, equal at rational points"""
    import sympy as sp

    from armlab.grading import symbolic
    from armlab.grading.runner import tree_of

    ref = lookup("limits.curved_path_terms")
    names = ("s", "p1", "p2", "d1", "d2", "L1", "L2", "m1", "m2")
    args = sp.symbols(names, real=True)
    s, p1, p2, d1, d2, L1, L2, m1, m2 = args
    t, sd, sdd = sp.symbols("t sd sdd")
    S = sp.Function("S")(t)
    Q, V = sp.symbols("Q1 Q2"), sp.symbols("V1 V2")
    elbow = sp.Matrix([L1 * sp.cos(Q[0]), L1 * sp.sin(Q[0])])
    tip = elbow + sp.Matrix([L2 * sp.cos(Q[0] + Q[1]), L2 * sp.sin(Q[0] + Q[1])])
    kinetic = 0
    for m, p in ((m1, elbow), (m2, tip)):
        v = p.jacobian(Q) * sp.Matrix(V)
        kinetic += m * (v.T * v)[0] / 2
    path = {Q[0]: p1 + d1 * S, Q[1]: p2 + d2 * S ** 2}
    along = {**path, V[0]: path[Q[0]].diff(t), V[1]: path[Q[1]].diff(t)}
    rows = []
    for Qi, Vi in zip(Q, V):
        tau = kinetic.diff(Vi).subs(along).diff(t) - kinetic.diff(Qi).subs(along)
        tau = sp.expand(tau.subs(S.diff(t, 2), sdd).subs(S.diff(t), sd).subs(S, s))
        rows.append([tau.coeff(sdd), tau.coeff(sd, 2)])
    mine = symbolic.rebuild(tree_of(sp.Matrix(rows)), set(names))
    right = symbolic.rebuild(tree_of(ref.function(*args)), set(names))
    assert symbolic.differs(mine, right, symbolic.points(names, "lagrange", n=5)) == []
