"""Grading references for the gravity chapter's exercises (``solutions/gravity``).

The references compute with armlab where armlab has the quantity (the potential,
dg/dq, the sag); the likely mistakes are the same functions on a changed arm or
pose. The fits are numpy's least squares of the stacked regressor. The worked
identification runs are the chapter's draw (``armlab.holding_runs``, generator
started at 0). The design part judges a student's identification poses by the
standard errors the fit of Part 4 would report on them.
"""


import numpy as np

from armlab.grading.references import (Arm, Case, al, all_symbols, deg, derivation, design,
                                       drawn_arms, exact_draws, listed, planar_arm, reference)

ARM = Arm.from_arm(al.tabletop_arm(), "the chapter's table-top arm")
"""The table-top arm: rods of 0.30 m / 2.0 kg and 0.25 m / 1.0 kg."""
RODS = Arm.from_arm(al.rod_arm(), "the chapter's two 1 m rods")
WALL_ARM = Arm.from_arm(al.mounted(al.tabletop_arm(), np.pi / 2),
                        "the table-top arm on a wall (gravity along -x)")
"""The table-top arm of the chapter's mounting table, on a wall."""
FLOOR = ("use arm.gravity, the acceleration of gravity as a 2-vector: on a wall or a ceiling "
         "it does not point along -y")
SIGMA = 0.05
"""The chapter's torque noise (one standard deviation) [N m]."""


def _floor(arm):
    """The arm with gravity of the same size straight down (a mistake)."""
    return planar_arm(arm, gravity=float(np.hypot(*arm.gravity)))


def _book_runs():
    """The chapter's identification runs: 20 poses, 0.05 N m noise, empty then 0.5 kg."""
    arm = al.tabletop_arm()
    runs = al.holding_runs([arm, arm.with_payload(0.5)], 0, poses=20, noise=SIGMA)
    return [(q.tolist(), tau.tolist()) for q, tau in runs]


(BOOK_Q, BOOK_TAU), (BOOK_Q_LOADED, BOOK_TAU_LOADED) = _book_runs()


def _pose_cases(rng):
    """Two poses on each of three arms, then an arm on a wall and one on a ceiling."""
    cases = [Case(arm=arm, q=rng.pose(2)) for arm in drawn_arms(rng, 2, ARM) for _ in range(2)]
    cases.append(Case(arm=rng.arm(gravity=(-9.81, 0.0)), q=rng.pose(2),
                      label="an arm mounted on a wall"))
    cases.append(Case(arm=rng.arm(gravity=(0.0, 9.81)), q=rng.pose(2),
                      label="an arm hanging from a ceiling"))
    return cases


# ---------------------------------------------------------------- Part 1: P(q)
@reference(worked=[Case(arm=ARM, q=deg(30, 45), label="the worked pose"),
                   Case(arm=WALL_ARM, q=deg(30, 45), label="the worked pose on a wall")],
           advice="P is the sum over the links of m_i times the dot product of -gravity with "
                  "the centre of mass c_i: with gravity (0, -g0), m_i g0 times c_i's height")
def potential_energy(arm, q):
    """Potential energy [J], zero with every centre of mass at the shoulder's height."""
    return float(al.potential_energy(planar_arm(arm), q))


@potential_energy.fresh
def _potential_cases(rng):
    return _pose_cases(rng)


@potential_energy.mistake("right size, wrong sign: P grows as the weights rise, P = -sum m_i "
                          "(a . c_i) with a the acceleration of gravity")
def _potential_negated(arm, q):
    return -potential_energy(arm, q)


@potential_energy.mistake("each weight acts at its link's centre of mass, com[i] from joint i, "
                          "not at the link's end")
def _potential_at_link_end(arm, q):
    return float(al.potential_energy(planar_arm(arm, com=arm.lengths), q))


@potential_energy.mistake("link 2's direction is q1 + q2: q2 is measured from link 1")
def _potential_absolute(arm, q):
    return potential_energy(arm, [q[0], q[1] - q[0]])


@potential_energy.mistake(FLOOR)
def _potential_floor(arm, q):
    return float(al.potential_energy(_floor(arm), q))


# ---------------------------------------------------------------- Part 2: dg/dq
@reference(worked=[Case(arm=RODS, q=deg(90, 0), label="the upright rods of Example 1"),
                   Case(arm=WALL_ARM, q=deg(30, 45), label="the worked pose on a wall")],
           advice="differentiate g_j = -sum_(i >= j) m_i a . (z x (c_i - p_j)) once more: "
                  "entry (j, k) is sum_(i >= max(j, k)) m_i a . (c_i - p_max(j,k))")
def gravity_stiffness(arm, q):
    """dg/dq (n, n) [N m/rad]: the Hessian of the potential energy."""
    return listed(al.gravity_stiffness(planar_arm(arm), q))


@gravity_stiffness.fresh
def _stiffness_cases(rng):
    return _pose_cases(rng) + [Case(arm=RODS, q=deg(-90, 0),
                                    label="the rods hanging straight down")]


@gravity_stiffness.mistake("right size, wrong sign: this is -dg/dq, the stiffness of gravity's "
                           "own torque -g")
def _stiffness_negated(arm, q):
    return listed(-al.gravity_stiffness(planar_arm(arm), q))


@gravity_stiffness.mistake("the shoulder's row holds link 2 as well: entry (1, 1) sums the "
                           "links beyond joint 1, both of them")
def _stiffness_own_link(arm, q):
    K = al.gravity_stiffness(planar_arm(arm), q)
    K[0, 0] = al.gravity_stiffness(planar_arm(arm, masses=(arm.masses[0], 0.0)), q)[0, 0]
    return listed(K)


@gravity_stiffness.mistake(FLOOR)
def _stiffness_floor(arm, q):
    return listed(al.gravity_stiffness(_floor(arm), q))


# ---------------------------------------------------------------- Part 3: the PD sag
def _rest(arm, q, kp, below=1.0, steps=60):
    """Newton's method on Kp e = g(q - below e), from e = 0; ``steps=1``: one linearised step."""
    real, q, kp, e = planar_arm(arm), np.asarray(q, float), np.asarray(kp, float), np.zeros(2)
    for _ in range(steps):
        pose = q - below * e
        step = np.linalg.solve(np.diag(kp) + below * al.gravity_stiffness(real, pose),
                               kp * e - al.gravity_torques(real, pose))
        e = e - step
        if np.abs(step).max() <= 1e-15:
            break
    return listed(e)


def _gains(rng, arm):
    """Round gains [N m/rad] at least twice a bound of |dg/dq| (every weight on its longest
    lever): a unique rest, reached by the simple iteration too."""
    reach = np.concatenate([[0.0], np.cumsum(arm.lengths)[:-1]]) + arm.com
    bound = np.hypot(*arm.gravity) * float(np.dot(arm.masses, reach))
    lowest = 5.0 * int(2.0 * bound / 5.0 + 1.0)
    return [rng.uniform(lowest, 3.0 * lowest, 5.0) for _ in range(arm.n)]


@reference(worked=Case(arm=ARM, q=deg(30, 45), kp=[60.0, 30.0],
                       label="the chapter's PD, Kp = (60, 30) N m/rad, holding the worked pose"),
           allow=("gravity_torques", "gravity_stiffness"), units={"return": "deg"},
           advice="at rest the PD's torque Kp e holds the arm at the pose it has, q - e: solve "
                  "Kp e = g(q - e) for e, by iteration")
def pd_sag(arm, q, kp):
    """The rest pose's error e = q - q_rest (n,) [rad] of a PD without gravity compensation."""
    return listed(al.pd_sag(planar_arm(arm), q, kp))


@pd_sag.fresh
def _sag_cases(rng):
    cases = [Case(arm=arm, q=rng.pose(2), kp=_gains(rng, arm)) for arm in drawn_arms(rng, 2, ARM)]
    cases.append(Case(arm=ARM, q=rng.pose(2), kp=_gains(rng, ARM)))
    wall = rng.arm(gravity=(-9.81, 0.0))
    cases.append(Case(arm=wall, q=rng.pose(2), kp=_gains(rng, wall),
                      label="an arm mounted on a wall"))
    cases.append(Case(arm=RODS, q=deg(90, 0), kp=[60.0, 30.0],
                      label="the upright rods, held by stiff gains"))
    return cases


@pd_sag.mistake("that is Kp^-1 g(q), the sag if the pose did not change: the arm rests at "
                "q - e, so g must be taken there; solve Kp e = g(q - e)")
def _sag_crude(arm, q, kp):
    return listed(al.gravity_torques(planar_arm(arm), q) / np.asarray(kp))


@pd_sag.mistake("that is one linearised step, (Kp + dg/dq)^-1 g(q): repeat it at the new "
                "pose until e stops changing")
def _sag_one_step(arm, q, kp):
    return _rest(arm, q, kp, steps=1)


@pd_sag.mistake("the sign of the pose: the arm rests below its target, at q - e with "
                "e = q_target - q_rest")
def _sag_above(arm, q, kp):
    return _rest(arm, q, kp, below=-1.0)


# ---------------------------------------------------------------- Part 4: identification
def _stack(q, tau, rows=(0, 1)):
    """The stacked regressor (c1, c12; 0, c12) of the given joints' rows, and their torques."""
    Y = al.gravity_regressor(np.asarray(q, float))[:, rows, :]
    return Y.reshape(-1, 2), np.asarray(tau, float)[:, rows].reshape(-1)


def _fit(q, tau, rows=(0, 1)):
    return np.linalg.lstsq(*_stack(q, tau, rows), rcond=None)[0]


def _noisy_run(rng, arm, poses, noise):
    """Poses and measured holding torques: g(q) plus round noise of at most ``noise``."""
    q = [rng.pose(2) for _ in range(poses)]
    g = al.gravity_torques(planar_arm(arm), q)
    return q, [[gi + rng.uniform(-noise, noise, 0.001) for gi in row] for row in g.tolist()]


@reference(worked=Case(q=BOOK_Q, tau=BOOK_TAU, label="the chapter's empty run of 20 poses"),
           advice="stack two rows per pose, (cos q1, cos(q1 + q2)) for the shoulder and "
                  "(0, cos(q1 + q2)) for the elbow, and solve the least-squares problem")
def fit_gravity_parameters(q, tau):
    """Least-squares (a, b) [N m] of g1 = a cos q1 + b cos(q1 + q2), g2 = b cos(q1 + q2)."""
    return listed(_fit(q, tau))


@fit_gravity_parameters.fresh
def _fit_cases(rng):
    cases = []
    for k, arm in enumerate(drawn_arms(rng, 3, ARM)):
        poses = rng.integer(6, 10)
        q, tau = _noisy_run(rng, arm, poses, 0.05)
        whose = "the chapter's arm" if k == 0 else "another arm"
        cases.append(Case(q=q, tau=tau, label=f"a run of {poses} poses of {whose}, with noise "
                                              "of up to 0.05 N m"))
    q, tau = _noisy_run(rng, rng.arm(), 5, 0.0)
    cases.append(Case(q=q, tau=tau, label="a run of 5 poses measured without noise"))
    return cases


@fit_gravity_parameters.mistake("that fits the shoulder's torques only: the elbow's torques "
                                "carry b too, stack both joints' rows")
def _fit_shoulder_only(q, tau):
    return listed(_fit(q, tau, rows=(0,)))


@fit_gravity_parameters.mistake("that fits b from the elbow and then a with that b: fit both "
                                "together, one least-squares problem over all the rows")
def _fit_one_after_the_other(q, tau):
    q, tau = np.asarray(q, float), np.asarray(tau, float)
    c1, c12 = np.cos(q[:, 0]), np.cos(q.sum(axis=1))
    b = c12 @ tau[:, 1] / (c12 @ c12)
    return [float(c1 @ (tau[:, 0] - b * c12) / (c1 @ c1)), float(b)]


@fit_gravity_parameters.mistake("the order: return (a, b), the shoulder's cos q1 coefficient "
                                "first")
def _fit_swapped(q, tau):
    return listed(_fit(q, tau)[::-1])


# ---------------------------------------------------------------- Part 5: the payload
def _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded, lever=None, g0=None):
    db = _fit(q_loaded, tau_loaded)[1] - _fit(q_empty, tau_empty)[1]
    g0 = np.hypot(*arm.gravity) if g0 is None else g0
    return float(db / (g0 * (arm.lengths[-1] if lever is None else lever)))


@reference(worked=Case(arm=ARM, q_empty=BOOK_Q, tau_empty=BOOK_TAU, q_loaded=BOOK_Q_LOADED,
                       tau_loaded=BOOK_TAU_LOADED,
                       label="the chapter's two runs of 20 poses, empty and with 0.5 kg"),
           uses={"fit_gravity_parameters": fit_gravity_parameters},
           units={"q_empty": "deg", "q_loaded": "deg", "tau_empty": "N m", "tau_loaded": "N m"},
           advice="fit b with and without the payload: how much does a kilogram at the tip "
                  "change b on this arm?")
def payload_mass(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    """Mass [kg] of a point payload at the tip, from the change of b between two fits."""
    return _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded)


@payload_mass.fresh
def _payload_cases(rng):
    cases = []
    moon = rng.arm(gravity=1.62, label=None)
    for arm in drawn_arms(rng, 2, ARM) + [moon]:
        loaded = Arm.from_arm(planar_arm(arm).with_payload(rng.uniform(0.1, 2.0, 0.1)))
        q0, tau0 = _noisy_run(rng, arm, 8, 0.05)
        q1, tau1 = _noisy_run(rng, loaded, 8, 0.05)
        cases.append(Case(arm=arm, q_empty=q0, tau_empty=tau0, q_loaded=q1, tau_loaded=tau1,
                          label=("two runs of 8 poses on the Moon" if arm is moon else
                                 "two runs of 8 poses")))
    arm = rng.arm()
    q0, tau0 = _noisy_run(rng, arm, 6, 0.0)
    q1, tau1 = _noisy_run(rng, arm, 6, 0.0)
    cases.append(Case(arm=arm, q_empty=q0, tau_empty=tau0, q_loaded=q1, tau_loaded=tau1,
                      label="two runs of 6 poses with nothing in the gripper"))
    return cases


@payload_mass.mistake("that is the claim's value: the payload sits at the tip, so its lever "
                      "arm about the elbow is not the centre of mass's distance")
def _payload_at_com(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    return _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded, lever=arm.com[-1])


@payload_mass.mistake("the change of b is a torque per unit cosine, m g0 L2: divide by g0 as "
                      "well as by L2")
def _payload_no_g0(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    return _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded, g0=1.0)


@payload_mass.mistake("the arm's gravity need not be 9.81 m/s²: take g0 from the arm, the "
                      "length of arm.gravity")
def _payload_earth(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    return _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded, g0=9.81)


@payload_mass.mistake("right size, wrong sign: the loaded arm's b is the larger one, "
                      "b_loaded - b_empty")
def _payload_negated(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    return -_payload(arm, q_empty, tau_empty, q_loaded, tau_loaded)


# ---------------------------------------------------------------- Part 6: design the poses
def columns(gravity, q):
    """The regressor's two entries per pose for gravity ``gravity`` (2,): (X1's, X2's) moment
    arms across gravity, per unit of g0 (cos q1 and cos(q1 + q2) on a floor)."""
    up = -np.asarray(gravity, float) / np.hypot(*gravity)
    q = np.asarray(q, float)
    return tuple(np.cos(a) * up[1] - np.sin(a) * up[0] for a in (q[..., 0], q[..., :2].sum(-1)))


def _information(c1, c12, axis=-1):
    """(YᵀY)'s entries (s11, s12, s22) of the stacked rows (c1, c12) and (0, c12)."""
    return np.stack([(c1 * c1).sum(axis), (c1 * c12).sum(axis), 2.0 * (c12 * c12).sum(axis)],
                    axis=-1)


def _stderr(s):
    """Standard errors (a, b) [N m] for noise SIGMA from (YᵀY)'s entries; inf when singular."""
    s11, s12, s22 = np.moveaxis(np.asarray(s, float), -1, 0)
    det = s11 * s22 - s12 * s12
    good = det > 1e-12 * np.maximum(np.maximum(s11, s22) ** 2, 1e-300)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = SIGMA * np.sqrt(np.stack([s22, s11], axis=-1) / det[..., None])
    return np.where(good[..., None], se, np.inf)


def best_poses(gravity, count, q_low, q_high, step=np.radians(5.0)):
    """A good design: ``count`` poses on a 5° grid within the ranges, chosen greedily and then
    exchanged one at a time, minimising the larger of the two standard errors over its lower
    bound (sigma / sqrt(count max c1²) for a, sigma / sqrt(2 count max c12²) for b).

    Returns the poses (count, 2) [rad] and their standard errors (2,) [N m].
    """
    axes = [np.linspace(lo, hi, int(np.ceil((hi - lo) / step - 1e-9)) + 1)
            for lo, hi in zip(q_low, q_high)]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 2)
    c1, c12 = columns(gravity, grid)
    each = np.stack([c1 * c1, c1 * c12, 2.0 * c12 * c12], axis=-1)
    bound = SIGMA / np.sqrt(count * np.array([(c1 * c1).max(), 2.0 * (c12 * c12).max()]))

    def worst(s):
        return (_stderr(s) / bound).max(axis=-1)

    chosen, total = [], np.array([1e-9, 0.0, 1e-9])          # a small ridge to start from
    for _ in range(count):
        chosen.append(int(np.argmin(worst(total + each))))
        total = total + each[chosen[-1]]
    for _ in range(20):
        changed = False
        for k in range(count):
            rest = total - each[chosen[k]]
            scores = worst(rest + each)
            j = int(np.argmin(scores))
            if scores[j] < worst(total) - 1e-12:
                chosen[k], total, changed = j, rest + each[j], True
        if not changed:
            break
    return grid[chosen], _stderr(total - [1e-9, 0.0, 1e-9])


def _design_case(arm, count, q_low, q_high, label=None, slack=1.2):
    """A case whose spec is ``slack`` times the standard errors of :func:`best_poses`,
    rounded up to 0.1 mN m."""
    se = best_poses(arm.gravity, count, q_low, q_high)[1]
    se_max = (np.ceil(slack * se * 1e4) / 1e4).tolist()
    return Case(arm=arm, count=count, q_low=q_low, q_high=q_high, se_max=se_max, label=label)


def _over(se, spec):
    """Credit for one standard error against its spec: 1 within it, falling to 0 at 1.5 times."""
    return float(np.clip((1.5 - se / spec) / 0.5, 0.0, 1.0))


def _angle(x):
    return f"{np.degrees(x):.1f}°"


@design(worked=[_design_case(ARM, 20, deg(-180, -180), deg(180, 180),
                             "the chapter's experiment, 20 poses, both joints free"),
                _design_case(WALL_ARM, 6, deg(-90, -150), deg(90, 150),
                             "6 poses of the table-top arm on a wall, the shoulder within "
                             "±90° and the elbow within ±150°")],
        units={"q_low": "deg", "q_high": "deg", "se_max": "N m"},
        advice="the standard errors are sigma sqrt(diag((YᵀY)^-1)): b is seen through the "
               "elbow's moment arm across gravity, a through the shoulder's")
def identification_poses(arm, count, q_low, q_high, se_max, answer):
    """Judge ``count`` identification poses (count, 2) [rad] within the joint ranges: the
    standard errors of the fit's (a, b) for noise SIGMA against ``se_max``."""
    poses = np.asarray(answer, dtype=float)
    if poses.shape != (count, 2):
        return 0.0, f"the design has shape {poses.shape}: expected {count} poses, ({count}, 2)"
    low, high = np.asarray(q_low), np.asarray(q_high)
    out = np.argwhere((poses < low - 1e-9) | (poses > high + 1e-9))
    if len(out):
        k, j = out[0]
        return 0.0, (f"pose {k + 1}'s {('shoulder', 'elbow')[j]} angle {_angle(poses[k, j])} "
                     f"is outside its range [{_angle(low[j])}, {_angle(high[j])}] ({len(out)} "
                     f"angle{'s' if len(out) > 1 else ''} out of range; angles in radians)")
    se = _stderr(_information(*columns(arm.gravity, poses)))
    if not np.all(np.isfinite(se)):
        return 0.0, ("YᵀY is singular: these poses cannot tell a from b (a needs link 1 "
                     "across gravity at some poses, and the ratio of link 1's moment arm to "
                     "link 2's must differ between poses)")
    credit = [_over(s, m) for s, m in zip(se, se_max)]
    words = []
    for name, s, m in zip(("a", "b"), se, se_max):
        if s <= m:
            words.append(f"s.e. of {name} {s:.4f} N m, within the spec of {m:.4f} N m")
        else:
            words.append(f"s.e. of {name} {s:.4f} N m, {100 * (s / m - 1):.0f}% over the spec "
                         f"of {m:.4f} N m")
    return float(np.mean(credit)), "; ".join(words)


@identification_poses.fresh
def _design_cases(rng):
    def ranges(shoulder, elbow):
        lo = rng.integer(-180, 180 - shoulder)
        return deg(lo, -elbow), deg(lo + shoulder, elbow)

    cases = []
    for arm, mount in [(ARM, "on a floor"), (rng.arm(gravity=(-9.81, 0.0)), "on a wall"),
                       (rng.arm(gravity=(0.0, 9.81)), "on a ceiling"), (rng.arm(), "on a floor")]:
        shoulder, elbow = 10 * rng.integer(9, 30), 10 * rng.integer(9, 17)
        count = rng.integer(4, 9)
        low, high = ranges(shoulder, elbow)
        cases.append(_design_case(arm, count, low, high,
                                  f"{count} poses {mount}, the shoulder within a "
                                  f"{shoulder}° range and the elbow within ±{elbow}°"))
    return cases


# ---------------------------------------------------------------- Part 8: a derivation
Y_PARAMS = ("q1", "q2", "q3", "gx", "gy")


def _three_link_regressor(q1, q2, q3, gx, gy, *, sign=1, relative=False, transpose=False,
                          swap=False):
    """Y(q) (3, 3) with g(q) = Y theta, theta = (a, b, c) the first moments of mass about
    the three links' absolute angles, gravity (gx, gy) any direction; the switches make
    a likely mistake."""
    import sympy

    if swap:
        gx, gy = gy, gx
    angles = (q1, q2, q3) if relative else (q1, q1 + q2, q1 + q2 + q3)
    column = [sign * (gx * sympy.sin(a) - gy * sympy.cos(a)) for a in angles]
    Y = sympy.Matrix(3, 3, lambda j, k: column[k] if j <= k and (
        relative != "in V" or j == k) else 0)
    return Y.T if transpose else Y


@derivation(worked=all_symbols(Y_PARAMS),
            advice="write the potential energy V(q) of the three first moments a, b, c in "
                   "the gravity (gx, gy), then g_j = dV/dq_j, and read off each theta's "
                   "coefficient")
def three_link_regressor(q1, q2, q3, gx, gy):
    """Y(q) (3, 3) of a three-link arm's gravity torques, any mounting, as SymPy."""
    return _three_link_regressor(q1, q2, q3, gx, gy)


@three_link_regressor.fresh
def _(rng):
    import sympy

    drawn, _ = exact_draws(rng, Y_PARAMS)
    g0 = sympy.Rational(981, 100)
    return [drawn("on a table, gravity along -y", gx=sympy.Integer(0), gy=-g0),
            drawn("on a wall, gravity along -x", gx=-g0, gy=sympy.Integer(0)),
            drawn("a tilted mounting", gx=sympy.Rational(rng.integer(-40, 40), 10),
                  gy=sympy.Rational(rng.integer(-90, -10), 10)),
            drawn("all symbols")]


three_link_regressor.mistakes_of(_three_link_regressor, [
    ("right size, wrong sign: g(q) balances gravity, it is not gravity's pull",
     {"sign": -1}),
    ("a link's weight acts at its absolute angle, q1 + ... + qk: qk alone is measured "
     "from the link before", {"relative": True}),
    ("a link's weight acts at its absolute angle, q1 + ... + qk: with qk alone in V, "
     "joint j's torque forgets the links beyond it", {"relative": "in V"}),
    ("joint j carries the links beyond it, j to 3: row j has entries from column j on "
     "(is it transposed?)", {"transpose": True}),
    ("the gravity's components: gx along x, gy along y (are they swapped?)",
     {"swap": True}),
])
