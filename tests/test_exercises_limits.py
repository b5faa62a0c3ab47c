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

def _bisect(ok, lo, hi, steps=100):
    """The boundary of ``ok`` between lo (ok) and hi (not ok), by bisection."""
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def _largest_request_by_clipping(arm, q, qd, direction, limit):
    """Part 1 by armlab's clipping: the largest k whose request no motor clips."""
    def unclipped(k):
        requested, applied, _ = al.realized_acceleration(arm, q, qd, k * direction, limit)
        return np.array_equal(requested, applied)
    return _bisect(unclipped, 0.0, 1e4)


def _turns_by_arccos(arm, q, qd, qdd, limit):
    """Part 3 by the cosine: arccos of the unit vectors' dot product, each policy."""
    out = []
    for policy in ("clip", "scale"):
        a = al.realized_acceleration(arm, q, qd, qdd, limit, policy=policy)[2]
        cos = a @ qdd / (np.linalg.norm(a) * np.linalg.norm(qdd))
        out.append(np.arccos(np.clip(cos, -1.0, 1.0)))
    return out


def _payload_by_durations(arm, a, b, limit, duration):
    """Part 4 by armlab's shortest duration: the heaviest payload whose move fits."""
    def fits(m):
        return al.shortest_duration(arm.with_payload(m), a, b, limit).duration <= duration
    return _bisect(fits, 0.0, 50.0, 40) if fits(0.0) else 0.0


ROUTES = {
    f"{CHAPTER}.largest_request": _largest_request_by_clipping,
    f"{CHAPTER}.acceleration_error": lambda arm, q, deficit:
        np.linalg.solve(al.mass_matrix(arm, q), deficit),
    f"{CHAPTER}.payload_capacity": al.payload_capacity,
    f"{CHAPTER}.joint_friction": al.friction_torques,
    # the velocity-limit curve of armlab's time-optimal scaling, at its grid point s
    f"{CHAPTER}.top_path_speed": lambda arm, a, b, limit, s:
        al.time_optimal_scaling(arm, a, b, limit, segments=20).limit_curve[round(20 * s)],
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
    """Two routes: the references (numpy where armlab has no such function) and armlab:
    its own function, a bisection on armlab's clipping, its velocity-limit curve, the
    cosine of each policy's realized acceleration, a bisection on its shortest duration
    with the payload (to its sampling)."""
    SET.assert_references_agree(ROUTES)
    SET.assert_references_agree({f"{CHAPTER}.acceleration_turns": _turns_by_arccos},
                                atol=1e-7)
    SET.assert_references_agree({f"{CHAPTER}.heaviest_payload": _payload_by_durations},
                                keys=("",), rtol=1e-4)


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints."""
    worked = SET.worked
    # Example 1: the hold (19.62, 4.905) N m leaves the shoulder 0.38 N m of its 20, and a
    # request (k, 0) costs k (8/3, 5/6) N m; Example 2 the other way: (0, -2k) costs
    # -k (5/3, 2/3) N m of 1.5 N m
    np.testing.assert_allclose(worked("largest_request"), 0.38 / (8 / 3), rtol=1e-12)
    np.testing.assert_allclose(worked("largest_request", 1), 0.9, rtol=1e-12)
    np.testing.assert_allclose(worked("acceleration_error"), [-3.92, 9.8], atol=1e-12)
    # Example 1's clipped acceleration (-2.92, 9.8) against (1, 0); Example 2's elbow
    # request, clipped to (-2/7, 19/7) and, without gravity at rest, scaled along itself
    clip, scale = worked("acceleration_turns")
    assert clip == pytest.approx(np.arctan2(9.8, -2.92), abs=1e-12)
    assert round(np.degrees(scale), 2) == 102.95
    np.testing.assert_allclose(worked("acceleration_turns", 1), [np.arctan(2 / 19), 0.0],
                               atol=1e-12)
    # 'Arm dynamics': the table-top arm's move under (8, 2) N m, shortest 0.975 s empty, run
    # in 1.5 s: about 0.146 kg; the velocity-limit curve halfway and a quarter of the way
    assert round(float(worked("heaviest_payload")), 4) == 0.1462
    speeds = [float(worked("top_path_speed", k)) for k in (0, 1)]
    assert np.round(speeds, 4).tolist() == [8.1896, 5.0118]
    # Robotics Toolbox for Python's meanings on the rods at 25 N m: positive multiples, then an inf
    np.testing.assert_allclose(worked("payload_capacity"), [0.2742, 2.0484], atol=5e-5)
    cap = worked("payload_capacity", 1)
    assert np.isinf(cap[1]) and round(cap[0], 4) == 1.0484
    # Example 5's motor through 50:1 at (2, -1) rad/s
    np.testing.assert_allclose(worked("joint_friction"), [0.3, -0.25], atol=1e-12)


# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "request_answer": ("b = al.inverse_dynamics(arm, q, qd, np.zeros(2))", "b = np.zeros(2)",
                       "the arm needs torque before it accelerates at all"),
    "error_answer": ("np.linalg.solve(al.mass_matrix(arm, q), deficit)",
                     "al.mass_matrix(arm, q) @ deficit", "solve M e = deficit"),
    "turns_answer": ("np.arctan2(abs(cross), wanted @ got)",
                     "np.degrees(np.arctan2(abs(cross), wanted @ got))", "not degrees"),
    "payload_answer": ("al.shortest_duration(arm.with_payload(m), q_start, q_end, limit)",
                       "al.shortest_duration(arm, q_start, q_end, limit,\n"
                       "                                   tip_force=-m * np.asarray(arm.gravity))",
                       "adds its inertia to the move's torque"),
    "capacity_answer": ("g = al.gravity_torques(arm, q)", "g = np.zeros(2)",
                        "the motors already hold the arm itself"),
    "friction_answer": ("G**2 * B * qd", "G * B * qd", "G^2 B, not G B"),
    "claim_answer": ("return np.array([*truth, 1 + int(np.argmin(gaps))])",
                     "return np.array([*claimed, 1 + int(np.argmin(gaps))])",
                     "the claim is what is being checked"),
    "top_speed_answer": ("    return lo\n", "    return lo**2\n",
                         "velocity products grow with sd"),
    "gear_answer": ("G**2 * (rotor * qdd + B * qd)", "G**2 * B * qd",
                    "for its own rotor and friction through the gear"),
    "curved_path_answer": ("M * ddq + c", "c", "M q''(s) joins c(s)"),
}
# more likely mistakes of the function parts, each caught by its part's visible check
MORE_MISTAKES = [
    {"request_answer": ("elif per[j] < -1e-12:", "elif False:",
                        "a torque limit bounds both directions"),
     "error_answer": ("np.linalg.solve(al.mass_matrix(arm, q), deficit)",
                      "deficit / np.diag(al.mass_matrix(arm, q))", "ignores the coupling"),
     "turns_answer": ("wanted, got = qdd_request, result[2]", "wanted, got = result[:2]",
                      "those are the torques' angles"),
     "capacity_answer": ("capacity[j] = (-limit[j] - g[j]) / t[j]",
                         "capacity[j] = (limit[j] - g[j]) / t[j]", "use -limit_j there"),
     "friction_answer": ("G * Tc * np.sign(qd)", "G**2 * Tc * np.sign(qd)",
                         "Coulomb friction does not grow with speed"),
     "top_speed_answer": ("al.path_acceleration_bounds(arm, q_start, q_end, limit, s, sd)",
                          "al.path_acceleration_bounds(al.PlanarArm(arm.lengths, arm.masses, "
                          "arm.com, arm.inertia, gravity=0.0), q_start, q_end, limit, s, sd)",
                          "gravity is part of d"),
     "gear_answer": ("G * np.abs(qd).max() / speed", "np.abs(qd).max() / (G * speed)",
                     "the motor turns G times faster than its joint")},
    {"request_answer": ("per = al.mass_matrix(arm, q) @ direction",
                        "per = np.diag(al.mass_matrix(arm, q)) * direction",
                        "the joints are coupled"),
     "error_answer": ("return np.linalg.solve(", "return -np.linalg.solve(",
                      "right size, wrong sign"),
     "capacity_answer": ("F1 = -np.asarray(arm.gravity) * 1.0",
                         "F1 = -np.asarray(arm.gravity) / np.linalg.norm(arm.gravity)",
                         "not 1 N"),
     "friction_answer": ("return G**2 * B * qd + G * Tc * np.sign(qd)",
                         "return -(G**2 * B * qd + G * Tc * np.sign(qd))",
                         "as Robotics Toolbox for Python returns it"),
     "claim_answer": ("truth = al.realized_acceleration(arm, q, qd, qdd_request, limit)[2]",
                      "truth = np.linalg.solve(al.mass_matrix(arm, q), np.clip(\n"
                      "        al.inverse_dynamics(arm, q, qd, qdd_request), -limit, limit))",
                      "not M^-1 tau")},
    {"curved_path_answer": ("dq = sp.Matrix([d1, 2 * d2 * s])", "dq = sp.Matrix([d1, d2])",
                            "not the endpoint difference"),
     "claim_answer": ("1 + int(np.argmin(gaps))", "3 - int(np.argmin(gaps))",
                      "the flaw's number")},
]
# answer cell: an answer that calls the armlab function answering the part
CALLS = {
    # numbers from armlab's path dynamics, which the part does not allow (nor are they symbolic)
    "curved_path_answer": ("def curved_path_terms(s, p1, p2, d1, d2, L1, L2, m1, m2):\n"
                           "    return al.mass_matrix(al.tabletop_arm(), [0.0, 0.0])"),
    # the torque at zero acceleration from gravity's, which Part 1 does not allow
    "request_answer": ("def largest_request(arm, q, qd, direction, limit):\n"
                       "    b = al.gravity_torques(arm, q) + al.coriolis_torques(arm, q, qd)\n"
                       "    per = al.mass_matrix(arm, q) @ direction\n"
                       "    return float(min((np.sign(per) * limit - b) / per))"),
    "error_answer": ("def acceleration_error(arm, q, deficit):\n"
                     "    free = al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia,\n"
                     "                        gravity=0.0)\n"
                     "    return al.forward_dynamics(free, q, np.zeros(2), deficit)"),
    "turns_answer": ("def acceleration_turns(arm, q, qd, qdd_request, limit):\n"
                     "    out = []\n"
                     "    tau = al.rnea(arm, q, qd, qdd_request)\n"
                     "    for applied in (al.clip_torques(tau, limit),\n"
                     "                    al.scale_torques(tau, limit)):\n"
                     "        got = al.forward_dynamics(arm, q, qd, applied)\n"
                     "        c = got @ qdd_request / np.linalg.norm(got)\n"
                     "        out.append(np.arccos(min(1.0, c / np.linalg.norm(qdd_request))))\n"
                     "    return np.array(out)"),
    "claim_answer": ("def clipped_claim(arm, q, qd, qdd_request, limit, claimed):\n"
                     "    truth = al.realized_acceleration(arm, q, qd, qdd_request, limit)[2]\n"
                     "    return np.array([*truth, 3.0])"),
    "payload_answer": ("def heaviest_payload(arm, q_start, q_end, limit, duration):\n"
                       "    q = np.linspace(q_start, q_end, 50)\n"
                       "    return float(np.min(al.pose_capacity(arm, q, limit)[0]))"),
    "capacity_answer": ("def payload_capacity(arm, q, limit):\n"
                        "    return al.payload_capacity(arm, q, limit)"),
    "friction_answer": "def joint_friction(arm, qd):\n    return al.friction_torques(arm, qd)",
    "top_speed_answer": ("def top_path_speed(arm, q_start, q_end, limit, s):\n"
                         "    plan = al.time_optimal_scaling(arm, q_start, q_end, limit,\n"
                         "                                   segments=1000)\n"
                         "    return float(plan.limit_curve[round(1000 * s)])"),
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
        "acceleration_error": (rods, np.zeros(2), np.array([-2.286667, 0.0])),
        "payload_capacity": (rods, np.zeros(2), np.array([25.0, 25.0])),
        "joint_friction": (al.PlanarArm((1, 1), (1, 1), damping=2e-5, coulomb=4e-3,
                                        gear_ratio=50), np.array([2.0, -1.0])),
    }
    wrong = {
        "acceleration_error": lambda arm, q, d: al.mass_matrix(arm, q) @ d,
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

    ref = lookup(f"{CHAPTER}.acceleration_turns")
    a, b = ref.cases("fresh", key="alice"), ref.cases("fresh", key="bob")
    assert [c.args["q"] for c in a] != [c.args["q"] for c in b]
    expected = {"a limit that clips the shoulder": {0},
                "an arm without gravity, a limit that clips the elbow": {1},
                "a limit that clips both joints": {0, 1},
                "a limit that clips neither": set()}
    assert set(expected) <= {c.label for c in a}
    # the labels say what the limits do: check it with armlab
    for case in a:
        arm = al.PlanarArm(**case.args["arm"].fields())
        req, applied, _ = al.realized_acceleration(arm, case.args["q"], case.args["qd"],
                                                   case.args["qdd_request"], case.args["limit"])
        if case.label in expected:
            assert {j for j in range(2) if applied[j] != req[j]} == expected[case.label]
    payload = lookup(f"{CHAPTER}.heaviest_payload")
    masses = [payload.function(*payload.arguments(c)) for c in payload.cases("fresh")]
    assert all(0.0 < m < np.inf for m in masses)
    fast = [payload.function(*payload.arguments(c)) for c in payload.cases("too fast")]
    assert fast[0] == 0.0 and fast[1] > 0.0                  # an ordinary move too: 0 alone fails
    speed = lookup(f"{CHAPTER}.top_path_speed")
    assert all(0.0 < speed.function(*speed.arguments(c)) < np.inf for c in speed.cases("fresh"))
    request = lookup(f"{CHAPTER}.largest_request")
    assert all(0.0 < request.function(*request.arguments(c)) < np.inf
               for c in request.cases("fresh"))
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


GRAVITY_SLIP = "gravity left out of a limit check"


def test_gravity_left_out_is_one_slip_carried_once():
    """The trial class's slip student left gravity out of every limit check by hand (the
    chapter's "forgetting gravity when checking a limit"): the request less g in Part 1, the
    payload's move without its weights in Part 4, d = 0 in Part 8; 0 in all three before, a
    fair TA 0.5, 3.5 and 2 of 2, 7 and 4. Now Part 1 costs, Parts 4 and 8 earn half."""
    from test_slips import graded, slip_index

    parts = [("Part 1: how hard can the arm be asked to accelerate? (2 points)",
              f"{CHAPTER}.largest_request", 2.0),
             ("Part 4: the heaviest payload a timed move can carry (7 points)",
              f"{CHAPTER}.heaviest_payload", 7.0),
             ("Part 8: how fast may the path be run at a point? (4 points)",
              f"{CHAPTER}.top_path_speed", 4.0)]
    kinds = {name.split(".")[1]: slip_index(name, GRAVITY_SLIP) for _h, name, _p in parts}
    verdicts, points, _result = graded(kinds, parts)
    assert points == {"test_largest_request_worked": 0.0, "test_largest_request_fresh": 0.0,
                      "test_heaviest_payload_worked": 0.88,    # 1.75 / 2, rounded
                      "test_heaviest_payload_fresh": 2.62,   # 5.25 / 2, rounded
                      "test_top_path_speed_worked": 0.5, "test_top_path_speed_fresh": 1.5}
    assert verdicts["test_top_path_speed_fresh"][0][1].endswith(
        f"The same slip as Part 1 ({GRAVITY_SLIP}), counted once there: this check earns half "
        "its points")
    # the hidden check of Part 1 names it too, where only gravity is missing (c and f kept)
    ref = lookup(f"{CHAPTER}.largest_request")
    hint = ref.mistakes[slip_index(f"{CHAPTER}.largest_request", GRAVITY_SLIP)][1]
    assert "gravity takes its share of each limit too" in hint


DIFFERENTIATE_BY_S = '''
import sympy as sp


def curved_path_terms(s, p1, p2, d1, d2, L1, L2, m1, m2):
    sd, sdd = sp.symbols("sd sdd")
    q = [p1 + d1 * s, p2 + d2 * s**2]
    qd = [sp.diff(x, s) * sd for x in q]
    qdd = [sp.diff(x, s) * sdd + sp.diff(x, s, 2) * sd**2 for x in q]
    a = (m1 + m2) * L1**2 + m2 * L2**2 + 2 * m2 * L1 * L2 * sp.cos(q[1])
    b = m2 * (L2**2 + L1 * L2 * sp.cos(q[1]))
    h = m2 * L1 * L2 * sp.sin(q[1])
    taus = [a * qdd[0] + b * qdd[1] - h * (2 * qd[0] * qd[1] + qd[1]**2),
            b * qdd[0] + m2 * L2**2 * qdd[1] + h * qd[0]**2]
    return sp.Matrix([[sp.expand(t).coeff(sdd), sp.expand(t).coeff(sd, 2)] for t in taus])
'''


def test_a_derivation_by_d_ds_loses_only_the_start_cell():
    """The trial class's other-methods student differentiated q(s) with respect to the
    argument s: right everywhere but at the path's start, where the check passes s = 0 and
    SymPy cannot differentiate by a number. That case was among the 7-point hidden cases (0
    of 7); now it has a cell of its own (1 point), and the part's text says s may be 0."""
    from armlab.grading import check_function
    from armlab.grading.judge import CheckFailed

    namespace = {}
    exec(DIFFERENTIATE_BY_S, namespace)
    derived = namespace["curved_path_terms"]
    check_function(derived, f"{CHAPTER}.curved_path_terms", "worked")
    check_function(derived, f"{CHAPTER}.curved_path_terms", "fresh")
    with pytest.raises(CheckFailed, match=r"at the path's start \(s = 0\)"):
        check_function(derived, f"{CHAPTER}.curved_path_terms", "start")
    cells = {c["metadata"].get("nbgrader", {}).get("grade_id"): "".join(c["source"])
             for c in SET.source()["cells"]}
    assert "`s` too: one check\ncalls it at the path's start, `s` = 0" in cells["part11"]
    assert '"start")' in cells["test_curved_path_start"]
    # Part 9's text: a sweep that calls armlab once per ratio sends too much while graded
    assert "call them once per case, not\nonce for every ratio you try" in cells["part10"]
