"""Grading references for the spatial kinematics and statics chapter
(``solutions/spatial_statics``).

The chains cross into a sandbox as data (:class:`~armlab.grading.cases.ChainData`) and reach
a student's function as :class:`armlab.spatial.Chain`. The expected values are armlab's where
armlab has the quantity (``tip_jacobian``, ``forward_kinematics``, ``payload_capacity``) and a
few lines of numpy where it does not (a sensor's wrench, a tool point's Jacobian, torques by
the work along a finite step). Fresh cases are the SO-101 at other poses and random chains of
2 to 6 joints (random axes and offsets, revolute and prismatic joints, inertias).
"""

import functools
import types

import numpy as np
from scipy.spatial.transform import Rotation

import armlab.spatial
from armlab.grading.cases import ChainData
from armlab.grading.references import (Case, all_symbols, deg, derivation, design, exact_draws,
                                       reference)

sp = types.SimpleNamespace(**{name: getattr(armlab.spatial, name)
                              for name in armlab.spatial.__all__})
"""armlab.spatial as loaded: a check switches the names a part does not allow off in the
module while it runs, and a reference must still compute."""

SO101 = ChainData.from_chain(sp.so101(), "the SO-101")
Q_WORK = [0.4, -0.3, 0.5, 0.6, 0.2]
"""The chapter's work pose [rad]."""
W_EXAMPLE = [0.0, 0.0, 0.2, 0.0, 0.0, -10.0]
"""Example 1's wrench: the tip presses down with 10 N and twists with 0.2 N m [N m, N]."""
LEVER = "a lever's cross product taken the other way round"
"""The slip of Parts 1, 2 and 6 (``slip=``): a moment moved with f x r for r x f, a point's
velocity with r x w for w x r, written again by hand in each part."""
UNITS = {"q": "rad or m", "T": "", "T_ts": "", "F_sensor": "N m, N", "W": "N m, N", "c": "m",
         "h": "rad or m",
         "r": "m", "mass": "kg"}


def real(chain):
    """A ChainData as the armlab.spatial.Chain a student's function gets."""
    from armlab.grading.runner import chain as to_chain

    return to_chain(chain.fields()) if isinstance(chain, ChainData) else chain


def _pose(rng, rotate=True, reach=0.3):
    """A round homogeneous transform: roll-pitch-yaw in 15° steps, position in cm."""
    rpy = deg(*rng.vector(3, -180, 180, 15)) if rotate else [0.0, 0.0, 0.0]
    T = np.eye(4)
    T[:3, :3] = sp.rpy_rotation(rpy)
    T[:3, 3] = rng.vector(3, -reach, reach, 0.01)
    return T.tolist()


_AXES = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (0, 1, 1), (1, 0, 1), (1, -1, 0),
         (0, 1, -1), (1, 1, 1)]


def random_chain(rng, n=None, prismatic=True, gravity=(0.0, 0.0, -9.81), label=None):
    """A chain of ``n`` (2 to 6) joints with round numbers: axes among nine directions
    (signed), joint offsets in 5 cm and 30° steps, bodies of 0.2 to 3 kg with their centres
    of mass within 10 cm of their joints; one joint in four prismatic (``prismatic=True``,
    never the first)."""
    n = rng.integer(2, 6) if n is None else n
    kinds, origins, axes, inertias = [], [], [], []
    for i in range(n):
        slide = prismatic and i > 0 and rng.integer(0, 3) == 0
        kinds.append("prismatic" if slide else "revolute")
        a = np.array(rng.choice(_AXES), dtype=float) * rng.sign()
        axes.append((a / np.linalg.norm(a)).tolist())
        T = np.eye(4)
        T[:3, :3] = sp.rpy_rotation(deg(*rng.vector(3, -90, 90, 30)))
        T[:3, 3] = rng.vector(3, -0.2, 0.3, 0.05)
        origins.append(T.tolist())
        m = rng.uniform(0.2, 3.0, 0.1)
        c = rng.vector(3, -0.1, 0.1, 0.01)
        d = np.array(rng.vector(3, 0.002, 0.02, 0.001))
        d[2] = min(d[2], d[0] + d[1] - 0.001)              # the triangle inequality
        R = sp.rpy_rotation(deg(*rng.vector(3, -90, 90, 30)))
        inertias.append(sp.spatial_inertia(m, c, R @ np.diag(d) @ R.T).tolist())
    tip = np.eye(4)
    tip[:3, 3] = rng.vector(3, -0.1, 0.2, 0.05)
    return ChainData(kinds, origins, axes, inertias, tip.tolist(), gravity,
                     effort=rng.vector(n, 5.0, 50.0, 5.0), velocity=rng.vector(n, 1.0, 5.0, 0.5),
                     label=label)


def _so101_pose(rng):
    return deg(*rng.vector(5, -100, 100, 1))


# ---------------------------------------------------------------- Part 1: a sensor's wrench
def _wrench(T, T_ts, F_sensor, transpose=True, invert=True, world=True):
    Ad = sp.adjoint(sp.inverse(np.asarray(T_ts)) if invert else np.asarray(T_ts))
    F_t = (Ad.T if transpose else Ad) @ np.asarray(F_sensor, dtype=float)
    R = np.asarray(T)[:3, :3] if world else np.eye(3)
    return np.concatenate([R @ F_t[:3], R @ F_t[3:]]).tolist()


T_WORK = sp.forward_kinematics(sp.so101(), Q_WORK)
T_SENSOR = [[0.0, -1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, -0.04],
            [0.0, 0.0, 0.0, 1.0]]
"""The worked sensor: 4 cm behind the tip point along the tip's z axis, turned 90° about it."""
_R = T_WORK[:3, :3]
_F_TIP = np.concatenate([_R.T @ W_EXAMPLE[:3], _R.T @ W_EXAMPLE[3:]])
F_SENSOR_WORK = (sp.adjoint(np.array(T_SENSOR)).T @ _F_TIP).round(12).tolist()
"""What the worked sensor reads when the tip applies Example 1's wrench."""


@reference(worked=Case(T=T_WORK.tolist(), T_ts=T_SENSOR, F_sensor=F_SENSOR_WORK,
                       label="the SO-101 at the work pose, its sensor reading Example 1's "
                             "wrench (4 cm behind the tip, turned 90° about the tip's z)"),
           allow=("spatial.so3",), units=UNITS, rtol=1e-9, atol=1e-9,
           advice="at each step, about which point is the moment taken, and in which axes "
                  "are the two parts written?")
def tip_wrench(T, T_ts, F_sensor):
    """The wrench (6,) the tip applies, about the tip point, world axes [N m, N]."""
    return _wrench(T, T_ts, F_sensor)


@tip_wrench.fresh
def _tip_wrench_cases(rng):
    cases = [Case(T=_pose(rng), T_ts=_pose(rng, reach=0.05), F_sensor=rng.vector(6, -10, 10, 0.5))
             for _ in range(4)]
    cases.append(Case(T=_pose(rng), T_ts=_pose(rng, rotate=False, reach=0.05),
                      F_sensor=rng.vector(6, -10, 10, 0.5), label="a sensor with the tip's axes"))
    cases.append(Case(T=_pose(rng), T_ts=_pose(rng, reach=0.0),
                      F_sensor=rng.vector(6, -10, 10, 0.5),
                      label="a sensor turned about the tip point itself"))
    return cases


tip_wrench.mistakes_of(_wrench, [
    ("the reading is moved to the tip as if it were a twist: a wrench does not change point "
     "and axes the way a twist does", {"transpose": False, "invert": False}),
    ("T_ts is used the other way round: this moves a wrench from the tip to the sensor, not "
     "from the sensor to the tip", {"invert": False}),
    ("the wrench is about the tip point but still in the tip's axes, not in world axes",
     {"world": False}),
])


@tip_wrench.mistake("moved to the tip point, the moment gains the moment of f about the tip, "
                    "p x f with p from the tip to the sensor's origin; f x p is its opposite",
                    slip=LEVER)
def _tip_wrench_lever_reversed(T, T_ts, F_sensor):
    R_ts, p_ts = np.asarray(T_ts)[:3, :3], np.asarray(T_ts)[:3, 3]
    F = np.asarray(F_sensor, dtype=float)
    f_t = R_ts @ F[3:]
    m_t = R_ts @ F[:3] - np.cross(p_ts, f_t)
    R = np.asarray(T)[:3, :3]
    return np.concatenate([R @ m_t, R @ f_t]).tolist()


# ---------------------------------------------------------------- Part 2: a tool point's Jacobian
def _tool_jacobian(chain, q, c, rotate=True, sign=1.0):
    ch = real(chain)
    T = sp.forward_kinematics(ch, q)
    r = T[:3, :3] @ np.asarray(c, dtype=float) if rotate else np.asarray(c, dtype=float)
    J = sp.tip_jacobian(ch, q)
    J[3:] -= sign * sp.skew(r) @ J[:3]                   # v_c = v_t + w x r
    return J.tolist()


@reference(worked=[Case(chain=SO101, q=Q_WORK, c=[0.0, 0.0, 0.0],
                        label="the SO-101's tip point at the work pose"),
                   Case(chain=SO101, q=Q_WORK, c=[0.03, 0.0, 0.06],
                        label="a tool point 3 cm along x and 6 cm along z of the tip frame, "
                              "at the work pose")],
           allow=("spatial.so3", "spatial.se3"), units=UNITS,
           advice="take one column at a time: when joint j alone moves at unit speed, how "
                  "does the hand turn and how fast does the tool point move, in world axes?")
def tool_jacobian(chain, q, c):
    """J_c (6, n): rows w then the velocity of the tool point c (tip frame [m]), world axes."""
    return _tool_jacobian(chain, q, c)


@tool_jacobian.fresh
def _tool_cases(rng):
    cases = [Case(chain=SO101, q=_so101_pose(rng), c=rng.vector(3, -0.1, 0.1, 0.01))
             for _ in range(2)]
    for _ in range(4):
        chain = random_chain(rng)
        q = [rng.uniform(-0.2, 0.2, 0.01) if k == "prismatic" else deg(rng.integer(-170, 170))[0]
             for k in chain.kinds]
        cases.append(Case(chain=chain, q=q, c=rng.vector(3, -0.1, 0.1, 0.01)))
    return cases


tool_jacobian.mistakes_of(_tool_jacobian, [
    ("c is given in the tip frame and is used here as a lever arm in world axes",
     {"rotate": False}),
    ("the tool point's lever-arm term has the wrong sign: the cross product is the other way "
     "round", {"sign": -1.0}, LEVER),
])


@tool_jacobian.mistake("each revolute column's linear part has the wrong sign: the axis and "
                       "the lever arm are crossed the other way round", slip=LEVER)
def _tool_reversed(chain, q, c):
    J = np.array(_tool_jacobian(chain, q, c))
    J[3:] = -J[3:] + 2 * _prismatic_part(chain, q)
    return J.tolist()


def _prismatic_part(chain, q):
    """The columns of the prismatic joints' v (the same either way round)."""
    ch = real(chain)
    J = np.array(_tool_jacobian(chain, q, [0.0, 0.0, 0.0]))
    keep = np.array([k == "prismatic" for k in ch.kinds])
    return np.where(keep, J[3:], 0.0)


@tool_jacobian.mistake("the columns' axes are as the chain's data gives them, in each joint's "
                       "own frame, not in world axes at the pose")
def _tool_local_axes(chain, q, c):
    ch = real(chain)
    poses = sp.joint_poses(ch, q)
    T = sp.forward_kinematics(ch, q)
    pc = T[:3, 3] + T[:3, :3] @ np.asarray(c, dtype=float)
    J = np.zeros((6, ch.n))
    for j in range(ch.n):
        a = ch.axes[j]
        if ch.kinds[j] == "revolute":
            J[:3, j], J[3:, j] = a, np.cross(a, pc - poses[j][:3, 3])
        else:
            J[3:, j] = a
    return J.tolist()


# ---------------------------------------------------------------- Part 3: torques by virtual work
def _work_torques(chain, q, W, h, axes="world", central=True, moment=True):
    ch, q, W = real(chain), np.asarray(q, dtype=float), np.asarray(W, dtype=float)
    tau = np.zeros(ch.n)
    for j in range(ch.n):
        step = np.zeros(ch.n)
        step[j] = h
        Tp = sp.forward_kinematics(ch, q + step)
        Tm = sp.forward_kinematics(ch, q - step) if central else sp.forward_kinematics(ch, q)
        turn = Tp[:3, :3] @ Tm[:3, :3].T if axes == "world" else Tm[:3, :3].T @ Tp[:3, :3]
        dtheta = Rotation.from_matrix(turn).as_rotvec()
        work = W[3:] @ (Tp[:3, 3] - Tm[:3, 3]) + (W[:3] @ dtheta if moment else 0.0)
        tau[j] = work / (2 * h if central else h)
    return tau.tolist()


@reference(worked=Case(chain=SO101, q=Q_WORK, W=W_EXAMPLE, h=0.1,
                       label="Example 4's wrench at the work pose, steps of 0.1 rad"),
           allow=("spatial.forward_kinematics", "spatial.so3", "spatial.se3"), units=UNITS,
           rtol=1e-7, atol=1e-9,
           advice="over joint j's step, what work do the force and the moment of W each do "
                  "on the environment, and in which axes is the tip's turn measured?")
def work_torques(chain, q, W, h):
    """tau (n,) [N m or N]: the tip's work along joint j's step from q - h e_j to q + h e_j,
    over 2h."""
    return _work_torques(chain, q, W, h)


@work_torques.fresh
def _work_cases(rng):
    cases = [Case(chain=SO101, q=_so101_pose(rng), W=rng.vector(6, -10, 10, 0.5),
                  h=rng.choice([0.05, 0.1, 0.2])) for _ in range(2)]
    for _ in range(4):
        chain = random_chain(rng)
        q = [rng.uniform(-0.2, 0.2, 0.01) if k == "prismatic" else deg(rng.integer(-170, 170))[0]
             for k in chain.kinds]
        cases.append(Case(chain=chain, q=q, W=rng.vector(6, -10, 10, 0.5),
                          h=rng.choice([0.05, 0.1, 0.2])))
    return cases


work_torques.mistakes_of(_work_torques, [
    ("the tip's turn is measured in the tip's own axes, while the moment m is in world axes",
     {"axes": "body"}),
    ("a one-sided step, from q to q + h e_j: the part asks for the central step",
     {"central": False}),
    ("the moment's work is missing: only the force's work is counted", {"moment": False}),
])


@work_torques.mistake("these are the exact torques Jᵀ W: this part checks them a second way, "
                      "by the work along a finite step of h, which differs from Jᵀ W by a few "
                      "parts in a thousand")
def _work_exact(chain, q, W, h):
    return sp.static_torques(real(chain), q, W).tolist()


# ---------------------------------------------------------------- Part 4: a pose that holds a load
LIMIT = 120.0
"""Every joint angle of a designed pose within +-LIMIT degrees."""


def reach(chain, q):
    """The tip point's distance from the base's z axis [m]."""
    p = sp.forward_kinematics(chain, q)[..., :3, 3]
    return np.hypot(p[..., 0], p[..., 1])


@functools.lru_cache(maxsize=256)
def _best(chain, r):
    ch = real(chain)
    limit = np.radians(LIMIT)
    best_q, step = np.zeros(5), np.radians(15.0)
    spans = [np.arange(-limit, limit + 1e-9, step)] * 3
    for _ in range(3):
        Q = np.stack(np.meshgrid([0.0], *spans, [0.0], indexing="ij"), -1).reshape(-1, 5)
        Q = Q[np.all(np.abs(Q) <= limit + 1e-9, axis=1)]
        mass = np.nan_to_num(sp.payload_capacity(ch, Q)[0], nan=0.0, posinf=1e3)
        mass = np.where(reach(ch, Q) >= r, mass, 0.0)
        best_q = Q[np.argmax(mass)]
        step /= 4.0
        spans = [best_q[k] + step * np.arange(-3, 4) for k in (1, 2, 3)]
    return float(mass.max()), tuple(best_q)


def best_capacity(chain, r):
    """The grader's own design: the largest payload [kg] over poses with the wrist roll and
    the base at 0 and every angle within the limit whose reach is at least ``r``: a grid of
    15° steps, then two finer grids around its best pose (remembered per chain and reach:
    the fresh cases draw from a few of each)."""
    mass, q = _best(chain, float(r))
    return mass, np.array(q)


def _load_case(chain, r, label=None):
    best, _ = best_capacity(chain, r)
    return Case(chain=chain, r=r, mass=float(np.floor(0.85 * best * 100) / 100), label=label)


@design(worked=Case(chain=SO101, r=0.25, mass=4.5,
                    label="the SO-101 on a table, 4.5 kg at 25 cm from the base's axis"),
        allow=("spatial.Chain", "spatial.forward_kinematics", "spatial.payload_capacity",
               "spatial.gravity_torques", "spatial.payload_torques", "spatial.so3",
               "spatial.se3"), units=UNITS,
        advice="the payload's weight makes a moment about each horizontal joint axis; "
               "a joint whose axis passes near the vertical through the tip hardly feels it")
def strong_pose(chain, r, mass, answer):
    """Judge a pose (n,) [rad]: every angle within +-LIMIT degrees, the tip at least r from
    the base's z axis, and the payload ``mass`` at the tip held within the rated torques."""
    ch = real(chain)
    q = np.asarray(answer, dtype=float)
    if q.shape != (ch.n,):
        return 0.0, f"the design has shape {q.shape}: expected {ch.n} joint angles"
    if not np.all(np.isfinite(q)):
        return 0.0, "the design holds a value that is not a finite number"
    wide = np.abs(np.degrees(q)) > LIMIT + 1e-9
    if wide.any():
        return 0.0, (f"joint {int(np.argmax(wide))} is at {np.degrees(q[wide][0]):.1f}°, "
                     f"outside ±{LIMIT:.0f}° (angles in radians)")
    d = float(reach(ch, q))
    held = float(np.nan_to_num(sp.payload_capacity(ch, q)[0], nan=0.0, posinf=1e3))
    reach_ok = min(1.0, max(0.0, 1.0 - (r - d) / 0.02))
    load_ok = min(1.0, max(0.0, (held - 0.75 * mass) / (0.25 * mass)))
    words = [f"the tip is {d:.3f} m from the base's axis"
             + ("" if d >= r else f", {1000 * (r - d):.1f} mm short of the spec's {r:.3f} m"),
             f"the arm holds {held:.3f} kg there"
             + ("" if held >= mass else f", {100 * (1 - held / mass):.0f}% short of the "
                f"spec's {mass:.2f} kg")]
    return reach_ok * load_ok, "; ".join(words)


WEAK = ChainData(**{**SO101.fields(), "effort": [10.0, 10.0, 6.0, 3.0, 10.0]},
                 label="the SO-101 with weaker elbow (6 N m) and wrist (3 N m) servos")
SHOULDER = ChainData(**{**SO101.fields(), "effort": [10.0, 6.0, 10.0, 10.0, 10.0]},
                     label="the SO-101 with a weaker shoulder-lift servo (6 N m)")
"""SO-101s with other rated torques, for the design's fresh cases."""


@strong_pose.fresh
def _strong_cases(rng):
    return [_load_case(SO101, rng.choice(REACHES[3:])),
            _load_case(SO101, rng.choice(REACHES[:3])),
            _load_case(WEAK, rng.choice(REACHES[1:])),
            _load_case(SHOULDER, rng.choice(REACHES[1:]))]


REACHES = (0.12, 0.16, 0.2, 0.24, 0.28, 0.32)
"""The reaches a fresh case asks for [m] (the grader's design is computed once for each)."""


# ---------------------------------------------------------------- Part 6: a derivation
TURRET_PARAMS = ("q1", "q2", "h", "d", "L", "mx", "my", "mz", "fx", "fy", "fz")


def _turret_torques(q1, q2, h, d, L, mx, my, mz, fx, fy, fz, *, sign=1, cross=1, moment=True,
                    lever="joint", axis="world", order="mf"):
    """tau (2, 1) that holds a tip wrench W = (m, f) (world axes, about the tip point) on the
    turret arm: joint 1 about the base's z axis through the origin; joint 2 at (0, d, h) in
    joint 1's frame, about that frame's y axis; the tip L along joint 2's x axis. The
    switches make a likely mistake."""
    import sympy

    c1, s1, c2, s2 = sympy.cos(q1), sympy.sin(q1), sympy.cos(q2), sympy.sin(q2)
    Rz = sympy.Matrix([[c1, -s1, 0], [s1, c1, 0], [0, 0, 1]])
    p = Rz * sympy.Matrix([L * c2, d, h - L * s2])
    a = [sympy.Matrix([0, 0, 1]), Rz * sympy.Matrix([0, 1, 0]) if axis == "world"
         else sympy.Matrix([0, 1, 0])]
    points = [sympy.zeros(3, 1), Rz * sympy.Matrix([0, d, h]) if lever == "joint"
              else sympy.zeros(3, 1)]
    m, f = sympy.Matrix([mx, my, mz]), sympy.Matrix([fx, fy, fz])
    if order == "fm":
        m, f = f, m
    tau = []
    for a_j, p_j in zip(a, points):
        r = p - p_j
        lin = a_j.cross(r) if cross == 1 else r.cross(a_j)
        tau.append(sign * (lin.dot(f) + (a_j.dot(m) if moment else 0)))
    return sympy.Matrix(tau)


@derivation(worked=all_symbols(TURRET_PARAMS),
            advice="at the pose, where is each joint's axis in world axes, and what moment "
                   "does the tip's wrench make about it?")
def turret_torques(q1, q2, h, d, L, mx, my, mz, fx, fy, fz):
    """tau (2, 1) holding a tip wrench on the two-joint turret arm, as SymPy [N m]."""
    return _turret_torques(q1, q2, h, d, L, mx, my, mz, fx, fy, fz)


@turret_torques.fresh
def _turret_cases(rng):
    drawn, frac = exact_draws(rng, TURRET_PARAMS)
    # "another arm and wrench" has every term: none of it is zero
    return [drawn("another arm and wrench", h=frac(5, 40, 100),
                  d=frac(-10, 10, 100, nonzero=True), L=frac(10, 40, 100),
                  mx=frac(-20, 20, 10, nonzero=True), my=frac(-20, 20, 10, nonzero=True),
                  mz=frac(-20, 20, 10, nonzero=True), fx=frac(-30, 30, 1, nonzero=True),
                  fy=frac(-30, 30, 1, nonzero=True), fz=frac(-30, 30, 1, nonzero=True)),
            drawn("a pure force", mx=0, my=0, mz=0),
            drawn("a pure moment", fx=0, fy=0, fz=0),
            drawn("no shoulder offset, the weight of a load alone", d=0, mx=0, my=0, mz=0,
                  fx=0, fy=0),
            drawn("all symbols")]


# The reversed lever before the reversed sign: for a load's weight alone without the offset
# the two give the same column, and a derivation's carried slip must match the slip first
# (judge.carried looks past a first match for values only).
turret_torques.mistakes_of(_turret_torques, [
    ("a revolute column's linear part has the wrong sign: the cross product is the other "
     "way round", {"cross": -1}, LEVER),
    ("W is what the tip applies to its environment: the motors hold it with tau = Jᵀ W, "
     "not its opposite", {"sign": -1}),
    ("the moment m's share of the torques is missing: only the force's is counted",
     {"moment": False}),
    ("joint 2's lever arm is taken from the origin, which is not on joint 2's axis",
     {"lever": "base"}),
    ("joint 2's axis is taken as the world's y, but it is y of joint 1's frame, which turns "
     "with q1", {"axis": "local"}),
    ("a wrench is (m, f), moment first, as a twist is (w, v): the force and the moment "
     "are swapped", {"order": "fm"}),
])
