"""The spatial kinematics and statics exercise set against the exercise standard.

The chains cross the sandbox as data (``ChainData``) and reach a student's function as an
``armlab.spatial.Chain``. The references agree with armlab's own routes (a sensor's wrench
by the cross product, a tool point's Jacobian from the space Jacobian, the torques by work
with rotations composed as scipy's quaternions, and tending to Jᵀ W as the step shrinks);
the visible checks' values are the chapter's (Example 1's wrench, Example 4's tip
Jacobian); every listed mistake fails its part's visible check with its hint; the design's
judge passes the grader's own design on every fresh case and the worked design typed in
fails some; the release equals a fresh one; graded with the real nbgrader and the sandbox,
the source scores full marks, the release zero, each seeded mistake costs its part only,
constants earn at most the visible checks, and a call of an armlab function the part does
not allow earns nothing for it.

Part 6's torques of a turret arm (a SymPy derivation) agrees with armlab at numbers,
accepts three equivalent forms and rejects each named mistake with its hint. The fairness
round also grades the hostile corpus's spatial notebook (tests/submissions/corpus.py).
"""

import json

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import armlab.spatial as sp
from armlab.grading.references import lookup
from exercise_sets import (ExerciseSet, assert_derivation_accepts,
                           assert_derivation_names_each_mistake)
from submissions import corpus

CHAPTER = "spatial_statics"
REFS = __import__(f"armlab.grading.references.{CHAPTER}", fromlist=["x"])
WORKED_POSE = REFS.best_capacity(REFS.SO101, 0.25)[1].tolist()    # the solution's design

SET = ExerciseSet(CHAPTER, designs={f"{CHAPTER}.strong_pose": WORKED_POSE})


def _cross_route(T, T_ts, F):
    """Example 1's check: the moment gains p x f when its point moves, then both turn."""
    T, T_ts, F = (np.asarray(x, dtype=float) for x in (T, T_ts, F))
    f_t = T_ts[:3, :3] @ F[3:]
    m_t = T_ts[:3, :3] @ F[:3] + np.cross(T_ts[:3, 3], f_t)
    return np.r_[T[:3, :3] @ m_t, T[:3, :3] @ f_t]


def _space_route(chain, q, c):
    ch = REFS.real(chain)
    T = sp.forward_kinematics(ch, q)
    p_c = T[:3, 3] + T[:3, :3] @ np.asarray(c)
    shift = np.eye(6)
    shift[3:, :3] = -sp.skew(p_c)
    return shift @ sp.space_jacobian(ch, q)


def _quaternion_route(chain, q, W, h):
    ch, q, W = REFS.real(chain), np.asarray(q, dtype=float), np.asarray(W, dtype=float)
    out = []
    for j in range(ch.n):
        e = np.eye(ch.n)[j] * h
        plus, minus = sp.joint_poses(ch, q + e)[-1] @ ch.tip, sp.joint_poses(ch, q - e)[-1] @ ch.tip
        turn = Rotation.from_matrix(plus[:3, :3]) * Rotation.from_matrix(minus[:3, :3]).inv()
        out.append((W[3:] @ (plus[:3, 3] - minus[:3, 3]) + W[:3] @ turn.as_rotvec()) / (2 * h))
    return np.array(out)


ROUTES = {f"{CHAPTER}.tip_wrench": _cross_route, f"{CHAPTER}.tool_jacobian": _space_route,
          f"{CHAPTER}.work_torques": _quaternion_route}

# answer cell: (text in its solution, replacement, hint the feedback must show)
MISTAKES = {
    "sensor_answer": ("return np.concatenate([R @ m_t, R @ f_t])",
                      "return np.concatenate([m_t, f_t])", "still in the tip's axes"),
    "tool_answer": ("p_c = T[:3, 3] + T[:3, :3] @ c", "p_c = T[:3, 3] + c",
                    "is used here as a lever arm in world axes"),
    "work_answer": ("Tp[:3, :3] @ Tm[:3, :3].T", "Tm[:3, :3].T @ Tp[:3, :3]",
                    "measured in the tip's own axes"),
    "strong_answer": (">= r + 1e-4", ">= r - 0.03", "short of the spec's"),
    "clamped_answer": ('clamped = "b"', 'clamped = "a"', "Count dimensions"),
    "turret_answer": ("a.cross(tip - p)", "(tip - p).cross(a)",
                      "the cross product is the other way round"),
}
# more likely mistakes of the function parts, each caught by its part's visible check
MORE_MISTAKES = [
    {"sensor_answer": ("R_ts, p_ts = T_ts[:3, :3], T_ts[:3, 3]",
                       "R_ts, p_ts = T_ts[:3, :3].T, -T_ts[:3, :3].T @ T_ts[:3, 3]",
                       "T_ts is used the other way round"),
     "tool_answer": ("np.cross(axes[j], p_c - points[j])", "np.cross(p_c - points[j], axes[j])",
                     "the axis and the lever arm are crossed"),
     "work_answer": (" + W[:3] @ dtheta) / (2 * h)", ") / (2 * h)", "the moment's work is missing")},
    {"tool_answer": ("J[:3, j] = axes[j]\n"
                     "            J[3:, j] = np.cross(axes[j], p_c - points[j])",
                     "J[:3, j] = chain.axes[j]\n"
                     "            J[3:, j] = np.cross(chain.axes[j], p_c - points[j])",
                     "in each joint's own frame"),
     "turret_answer": ("points = [sym.zeros(3, 1), Rz * sym.Matrix([0, d, h])]",
                       "points = [sym.zeros(3, 1), sym.zeros(3, 1)]",
                       "which is not on joint 2's axis")},
    {"turret_answer": ("axes = [sym.Matrix([0, 0, 1]), Rz * sym.Matrix([0, 1, 0])]",
                       "axes = [sym.Matrix([0, 0, 1]), sym.Matrix([0, 1, 0])]",
                       "which turns with q1")},
]
# answer cell: an answer that calls an armlab function the part does not allow
CALLS = {
    "sensor_answer": ("def tip_wrench(T, T_ts, F_sensor):\n"
                      "    F_t = sp.adjoint(sp.inverse(T_ts)).T @ F_sensor\n"
                      "    R = np.asarray(T)[:3, :3]\n"
                      "    return np.r_[R @ F_t[:3], R @ F_t[3:]]"),
    "tool_answer": ("def tool_jacobian(chain, q, c):\n"
                    "    J = sp.tip_jacobian(chain, q)\n"
                    "    J[3:] -= sp.skew(sp.forward_kinematics(chain, q)[:3, :3] @ c) @ J[:3]\n"
                    "    return J"),
    "work_answer": ("from scipy.spatial.transform import Rotation\n\n\n"
                    "def work_torques(chain, q, W, h):\n"
                    "    tau = []\n"
                    "    for j in range(chain.n):\n"
                    "        e = np.eye(chain.n)[j] * h\n"
                    "        Tp = sp.joint_poses(chain, q + e)[-1] @ chain.tip\n"
                    "        Tm = sp.joint_poses(chain, q - e)[-1] @ chain.tip\n"
                    "        dth = Rotation.from_matrix(Tp[:3, :3] @ Tm[:3, :3].T).as_rotvec()\n"
                    "        dp = Tp[:3, 3] - Tm[:3, 3]\n"
                    "        tau.append((W[3:] @ dp + W[:3] @ dth) / (2 * h))\n"
                    "    return np.array(tau)"),
    # numbers from armlab's static torques, which the part does not allow (nor are they symbolic)
    "turret_answer": ("def turret_torques(q1, q2, h, d, L, mx, my, mz, fx, fy, fz):\n"
                      "    return sp.static_torques(sp.so101(), np.zeros(5), np.ones(6))[:2]"),
    "strong_answer": None,            # filled below: the solution with joint_poses for the pose
}


def _strong_call():
    text = SET.answer("strong_answer")
    return text.replace("sp.forward_kinematics(chain, Q)[:, :3, 3]",
                        "(sp.joint_poses(chain, Q)[-1] @ chain.tip)[:, :3, 3]")


CALLS["strong_answer"] = _strong_call()


def test_references_agree_with_armlab():
    """Two routes on the worked and fresh cases of three case keys."""
    SET.assert_references_agree(ROUTES)


def test_work_torques_tend_to_the_static_torques():
    """The second route converges on Jᵀ W at second order as the step shrinks."""
    ref = lookup(f"{CHAPTER}.work_torques")
    for case in ref.cases("fresh", key="z"):
        chain, q, W, _h = ref.arguments(case)
        exact = sp.static_torques(REFS.real(chain), q, W)
        gaps = [np.abs(np.array(ref(chain, q, W, h)) - exact).max() for h in (1e-2, 1e-3)]
        assert gaps[1] < 2e-6 * max(1.0, np.abs(exact).max())
        assert gaps[1] < gaps[0] / 50 or gaps[0] < 1e-9


def test_worked_values_are_the_chapters():
    """The visible checks' values are the numbers the chapter prints."""
    np.testing.assert_allclose(SET.worked("tip_wrench"), [0, 0, 0.2, 0, 0, -10], atol=1e-9)
    so101, q_A = sp.so101(), np.array([0.4, -0.3, 0.5, 0.6, 0.2])
    np.testing.assert_allclose(SET.worked("tool_jacobian"), sp.tip_jacobian(so101, q_A),
                               atol=1e-12)
    tau = sp.static_torques(so101, q_A, [0, 0, 0.2, 0, 0, -10])     # Example 4's torques
    assert np.abs(SET.worked("work_torques") - tau).max() < 1e-2 * np.abs(tau).max()
    assert np.abs(SET.worked("work_torques") - tau).max() > 1e-6     # a finite step shows


def test_design_judge_passes_the_graders_design_and_not_the_worked_one():
    """The grader's own pose meets each fresh spec; the worked pose typed in misses some."""
    ref = lookup(f"{CHAPTER}.strong_pose")
    misses = 0
    for key in ("", "x"):
        for case in ref.cases("fresh", key=key):
            chain, r, mass = ref.arguments(case)
            best, q_best = REFS.best_capacity(chain, r)
            assert ref(chain, r, mass, q_best)[0] == 1.0
            assert ref(chain, r, 1.4 * best, q_best)[0] == 0.0       # the load is judged
            assert ref(chain, r + 0.03, mass, q_best)[0] == 0.0      # and the reach
            misses += ref(chain, r, mass, WORKED_POSE)[0] < 1.0
    assert misses >= 3


def test_the_set_meets_the_standard_on_paper():
    """Six parts, 36 points; at most 10 % in the choice part."""
    SET.assert_meets_the_standard_on_paper(MISTAKES, CALLS, parts=6, points=36)


def test_the_visible_checks_catch_every_listed_mistake():
    SET.assert_visible_checks_catch(MISTAKES)
    for more in MORE_MISTAKES:
        SET.assert_visible_checks_catch(more)


def test_every_listed_mistake_differs_at_a_worked_case():
    """Each mistake a reference lists gives another value than the reference at one of its
    worked cases at least (so a visible check can name it)."""
    from armlab.grading.purepy import close
    from armlab.grading.references import quantities

    for quantity in quantities(CHAPTER):
        ref = lookup(quantity)
        if ref.is_derivation:
            continue                    # judged symbolically: see the turret's tests below
        for wrong, message in ref.mistakes:
            assert any(not close(wrong(*ref.arguments(c)), ref(*ref.arguments(c)), 1e-6, 1e-9)
                       for c in ref.worked), f"{quantity}: {message}"


@pytest.mark.slow
def test_the_set_grades_fairly(tmp_path):
    """The standard's submissions and, in the same round, the hostile corpus's spatial
    notebook (tests/submissions/corpus.py: a chain written into for the next case,
    armlab.spatial reached where the part does not allow it, a hostile SymPy answer): it
    gains nothing, the calls are reported, the SymPy answer is refused and said so."""
    import pathlib

    SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS,
                             extra={"hostile": corpus.spatial_hostile()})
    assert not pathlib.Path(corpus.MARKER).exists()       # the text meant to run never ran


# ---------------------------------------------------------------- chains as hostile data
def test_a_chain_from_the_sandbox_is_checked_before_the_grader_uses_it():
    """A chain a notebook sends back (to a stand-in of an earlier part) is rebuilt only from
    numbers of the right shapes: too many joints, text, deep nesting, unknown fields and
    wrong shapes are refused with ValueError; the serving bounds count a chain's joints."""
    from armlab.grading import cases, serving

    good = cases.encode(REFS.SO101)
    assert cases.decode(good).n == 5
    fields = good["__chain__"]
    bad = [
        {**fields, "kinds": ["revolute"] * 13},
        {**fields, "origins": "__import__('os')"},
        {**fields, "axes": [[[[[1.0]]]]] * 5},
        {**fields, "extra": [1.0]},
        {**fields, "tip": [[1.0, 0.0], [0.0, 1.0]]},
        {**fields, "kinds": ["revolute", "helical", "revolute", "revolute", "revolute"]},
        {**fields, "effort": [True] * 5},
    ]
    for data in bad:
        with pytest.raises(ValueError):
            cases.decode({"__chain__": data})
    big = {"__chain__": {**fields, "kinds": ["revolute"] * 20}}
    with pytest.raises(serving.Bound):
        serving.sizes("mass_matrix", [big], {})


def test_a_students_chain_cannot_be_changed_for_the_next_case():
    """The chain a student's function gets holds read-only arrays (a function that writes
    into them fails, and cannot change the case the next call sees)."""
    from armlab.grading.runner import student_args

    chain = student_args([cases_encode(REFS.SO101)])[0]
    with pytest.raises(ValueError):
        chain.origins[0][0, 3] = 1.0
    with pytest.raises(AttributeError):
        REFS.SO101.kinds = ()


def cases_encode(value):
    from armlab.grading.cases import encode

    return encode(value)


def test_the_sandbox_holds_no_spatial_code_a_part_does_not_allow(tmp_path):
    """Built for Part 1 (rotations only), the sandbox's armlab.spatial has stubs for the
    adjoint and the dynamics, and a chain reaches the student as plain data; built for the
    design part, a chain is an armlab.spatial.Chain, payload_capacity runs and forward
    dynamics is still a stub."""
    import subprocess
    import sys

    from armlab.grading import execute, runner, shaker

    script = (
        "import importlib.util, json, sys, numpy as np\n"
        f"spec = importlib.util.spec_from_file_location('runner', {str(runner.__file__)!r})\n"
        "runner = importlib.util.module_from_spec(spec); spec.loader.exec_module(runner)\n"
        "import armlab.spatial as sp\n"
        "chain = runner.decode(json.loads(sys.stdin.read()))\n"
        "out = [type(chain).__name__]\n"
        "for f in (lambda: sp.adjoint(np.eye(4)),\n"
        "          lambda: sp.forward_dynamics(chain, np.zeros(5), np.zeros(5), np.zeros(5)),\n"
        "          lambda: float(sp.payload_capacity(chain, np.zeros(5))[0])):\n"
        "    try:\n"
        "        out.append(repr(f())[:20])\n"
        "    except Exception as exc:\n"
        "        out.append(type(exc).__name__)\n"
        "try:\n"
        "    chain.origins[0][0, 3] = 1.0\n"
        "    out.append('written')\n"
        "except ValueError:\n"
        "    out.append('read-only')\n"
        "print(json.dumps(out))\n")
    data = json.dumps(cases_encode(REFS.SO101))
    seen = {}
    for quantity in ("tip_wrench", "strong_pose"):
        keep, _ = execute._split(lookup(f"{CHAPTER}.{quantity}").allow)
        shaker.build(tmp_path / quantity, keep=keep)
        done = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, "
                               f"{str(tmp_path / quantity)!r})\n" + script], input=data,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        seen[quantity] = json.loads(done.stdout)
    assert seen["tip_wrench"] == ["SimpleNamespace", "ArmlabOff", "ArmlabOff", "ArmlabOff",
                                  "read-only"]
    assert seen["strong_pose"][0] == "Chain" and seen["strong_pose"][3].startswith("2.99")
    assert seen["strong_pose"][2] == "ArmlabOff" and seen["strong_pose"][4] == "read-only"


def test_a_disallowed_spatial_call_fails_in_ones_own_kernel_too():
    """While a part is checked in a student's kernel, armlab.spatial's names the part does
    not allow are switched off (as the sandbox has stubs), and switched on again after."""
    from armlab.grading import check_function

    namespace = {"np": np, "sp": sp}
    exec(CALLS["tool_answer"], namespace)
    with pytest.raises(AssertionError, match="not available"):
        check_function(namespace["tool_jacobian"], f"{CHAPTER}.tool_jacobian", "worked")
    assert sp.tip_jacobian(sp.so101(), np.zeros(5)).shape == (6, 5)


# ---------------------------------------------------------------- Part 6: the derivation
TURRET = f"{CHAPTER}.turret_torques"


def _turret_by_positions(q1, q2, h, d, L, mx, my, mz, fx, fy, fz):
    """Another route: the tip point's velocity Jacobian as the derivative of its position,
    the angular rows the two axes; tau = J_vᵀ f + J_wᵀ m."""
    import sympy

    c1, s1 = sympy.cos(q1), sympy.sin(q1)
    p = sympy.Matrix([c1 * L * sympy.cos(q2) - s1 * d, s1 * L * sympy.cos(q2) + c1 * d,
                      h - L * sympy.sin(q2)])
    J_v = p.jacobian([q1, q2])
    J_w = sympy.Matrix([[0, -s1], [0, c1], [1, 0]])
    return J_v.T * sympy.Matrix([fx, fy, fz]) + J_w.T * sympy.Matrix([mx, my, mz])


def _turret_from_the_base(q1, q2, h, d, L, mx, my, mz, fx, fy, fz):
    """Another route: the wrench moved to the base origin (m0 = m + p x f) and projected
    on each joint's screw in space form, (a_j, p_j x a_j... as -a_j x p_j)."""
    import sympy

    R = sympy.rot_axis3(-q1)                    # SymPy's rot_axis3 turns the other way
    p = R * sympy.Matrix([L * sympy.cos(q2), d, h - L * sympy.sin(q2)])
    f = sympy.Matrix([fx, fy, fz])
    m0 = sympy.Matrix([mx, my, mz]) + p.cross(f)
    out = []
    for a, point in ((sympy.Matrix([0, 0, 1]), sympy.zeros(3, 1)),
                     (R * sympy.Matrix([0, 1, 0]), R * sympy.Matrix([0, d, h]))):
        out.append(a.dot(m0) + (-a.cross(point)).dot(f))
    return sympy.Matrix(out)


def _turret_written_out(q1, q2, h, d, L, mx, my, mz, fx, fy, fz):
    """Written out by hand and factored, as a list of rows."""
    import sympy

    c1, s1, c2, s2 = sympy.cos(q1), sympy.sin(q1), sympy.cos(q2), sympy.sin(q2)
    return [[mz + L * c2 * (c1 * fy - s1 * fx) - d * (c1 * fx + s1 * fy)],
            [c1 * my - s1 * mx - L * (s2 * (c1 * fx + s1 * fy) + c2 * fz)]]


@pytest.mark.parametrize("answer", [_turret_by_positions, _turret_from_the_base,
                                    _turret_written_out])
def test_the_turret_accepts_equivalent_forms(answer):
    """Three other routes to tau pass every worked and fresh case."""
    assert_derivation_accepts(TURRET, answer)


def test_the_turret_rejects_each_named_mistake_with_its_hint():
    assert_derivation_names_each_mistake(TURRET, 6)


def test_the_turret_torques_are_armlabs_static_torques():
    """Part 6's reference against armlab: the turret as an armlab.spatial chain, tau by
    sp.static_torques at random numbers."""
    import sympy

    from armlab.grading.cases import ChainData

    rng = np.random.default_rng(6)
    for _ in range(4):
        q, (h, d, L), W = rng.uniform(-3, 3, 2), rng.uniform(-0.5, 0.5, 3), rng.normal(size=6)
        origin = np.eye(4)
        origin[:3, 3] = [0.0, d, h]
        tip = np.eye(4)
        tip[:3, 3] = [L, 0.0, 0.0]
        body = sp.spatial_inertia(1.0, [0.0, 0.0, 0.0], 0.01 * np.eye(3)).tolist()
        chain = REFS.real(ChainData(["revolute", "revolute"], [np.eye(4).tolist(),
                                                               origin.tolist()],
                                    [[0, 0, 1], [0, 1, 0]], [body, body], tip.tolist(),
                                    [0.0, 0.0, -9.81], effort=[1.0, 1.0], velocity=[1.0, 1.0]))
        args = [sympy.Float(x, 30) for x in [*q, h, d, L, *W]]
        tau = np.array(lookup(TURRET).function(*args), dtype=float).ravel()
        np.testing.assert_allclose(tau, sp.static_torques(chain, q, W), atol=1e-12)


def test_the_turrets_other_arm_has_every_term():
    """The hidden case "another arm" gives every length, mass and load a value other than
    zero (a zero there drops a term the case is meant to check: one student in six drew
    one, d or a component of the moment or the force)."""
    import sympy

    for key in [f"student{k}" for k in range(40)]:
        case = lookup(TURRET).cases("fresh", key=key)[0]
        assert case.label.startswith("another arm")
        numbers = {k: v for k, v in case.args.items() if not isinstance(v, sympy.Symbol)}
        assert numbers and all(v != 0 for v in numbers.values()), (key, numbers)


def test_the_reversed_lever_is_one_slip_across_parts_1_2_and_6():
    """The trial class's slip student moved the sensor's moment with f x p (Part 1), built the
    tool Jacobian's revolute columns with r x w (Part 2) and the turret's torques with f x r
    (Part 6): 0 in all three before, Part 1 with only the general advice; now Part 1 names the
    lever's order and costs in full, Parts 2 and 6 earn half"""
    from test_slips import graded, slip_index

    parts = [("Part 1: a force-torque sensor's reading at the tip (5 points)",
              f"{CHAPTER}.tip_wrench", 5.0),
             ("Part 2: the Jacobian of a tool point (3 points)", f"{CHAPTER}.tool_jacobian", 3.0),
             ("Part 6: derive the torques of a turret arm (8 points)",
              f"{CHAPTER}.turret_torques", 8.0)]
    kinds = {name.split(".")[1]: slip_index(name, REFS.LEVER) for _h, name, _p in parts}
    verdicts, points, _result = graded(kinds, parts)
    assert points == pytest.approx({
        "test_tip_wrench_worked": 0.0, "test_tip_wrench_fresh": 0.0,
        "test_tool_jacobian_worked": 0.375, "test_tool_jacobian_fresh": 1.125,
        "test_turret_torques_worked": 1.0, "test_turret_torques_fresh": 3.0}, abs=0.01)
    assert "f x p is its opposite" in verdicts["test_tip_wrench_worked"][0][1]
    assert verdicts["test_turret_torques_fresh"][0][1].endswith(
        f"The same slip as Part 1 ({REFS.LEVER}), counted once there: this check earns half "
        "its points")
