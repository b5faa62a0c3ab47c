"""Grading references for the gravity chapter's exercises (``solutions/gravity``).

The references compute with armlab (the potential, dg/dq, the sag); the parts compose
them with a decision (the highest pose of a path, the least stable gain, the gain that
holds a sag within a bound), and the likely mistakes are the same compositions with a
step changed. One part, the least-squares fit, asks for the body of an armlab function
(the chapter's core formula, which the payload and the design build on). The fits are numpy's least squares of the stacked regressor. The worked
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
SLIP_DOWN = "gravity taken along -y whatever the mounting"
"""The slip of Parts 1, 2 and 8 (``slip=``): gravity read as pointing along -y in the arm's
frame (its size straight down, or its y part alone), written by hand in Part 2's dg/dq and in
Part 8's regressor; a trial class's student made it in Parts 2, 6 and 8 (Part 6 is a design,
judged by what its poses give)."""
SIGMA = 0.05
"""The chapter's torque noise (one standard deviation) [N m]."""


def _floor(arm):
    """The arm with gravity of the same size straight down (a mistake)."""
    return planar_arm(arm, gravity=float(np.hypot(*arm.gravity)))


def _y_part(arm):
    """The arm with the y part of its gravity alone, along y (a mistake: g0 = -gy)."""
    return planar_arm(arm, gravity=float(-arm.gravity[1]))


def _book_runs():
    """The chapter's identification runs: 20 poses, 0.05 N m noise, empty then 0.5 kg."""
    arm = al.tabletop_arm()
    runs = al.holding_runs([arm, arm.with_payload(0.5)], 0, poses=20, noise=SIGMA)
    return [(q.tolist(), tau.tolist()) for q, tau in runs]


(BOOK_Q, BOOK_TAU), (BOOK_Q_LOADED, BOOK_TAU_LOADED) = _book_runs()


# ---------------------------------------------------------------- Part 1: the lift's energy
def _lift(arm, poses, *, which="highest", sign=1.0, floor=False):
    """The least energy [J] the motors put in to lift the arm from the path's first pose to
    its highest one, max_k P(q_k) - P(q_0); the switches make a likely mistake."""
    real = _floor(arm) if floor else planar_arm(arm)
    P = sign * np.array([float(al.potential_energy(real, q)) for q in poses])
    if which == "last":
        return float(P[-1] - P[0])
    if which == "range":
        return float(P.max() - P.min())
    return float(P.max() - P[0])


def _path(rng, count):
    """``count`` poses of whole degrees."""
    return [rng.pose(2) for _ in range(count)]


@reference(worked=[Case(arm=ARM, poses=[deg(-30, 45), deg(10, 60), deg(60, 30), deg(90, -60),
                                        deg(20, 40), deg(-60, 90)],
                        label="a path of 6 poses of the chapter's arm"),
                   Case(arm=WALL_ARM, poses=[deg(30, 45), deg(-20, 90), deg(120, -30),
                                             deg(60, 0)],
                        label="a path of 4 poses of that arm on a wall")],
           allow=("potential_energy",), units={"poses": "deg", "return": "J"},
           advice="which pose of the path is the highest in energy, and from where does the "
                  "lift start?")
def lift_energy(arm, poses):
    """The least work [J] the motors do against gravity to bring the arm from the path's first
    pose to its pose of highest potential energy."""
    return _lift(arm, poses)


@lift_energy.fresh
def _lift_cases(rng):
    cases = [Case(arm=arm, poses=_path(rng, rng.integer(4, 7)))
             for arm in drawn_arms(rng, 3, ARM)]
    cases.append(Case(arm=rng.arm(gravity=(-9.81, 0.0)), poses=_path(rng, 5),
                      label="a path of an arm mounted on a wall"))
    cases.append(Case(arm=rng.arm(gravity=(0.0, 9.81)), poses=_path(rng, 5),
                      label="a path of an arm hanging from a ceiling"))
    arm = rng.arm()
    start = deg(90, 0)
    cases.append(Case(arm=arm, poses=[start] + _path(rng, 4),
                      label="a path starting at its highest pose, straight up"))
    return cases


lift_energy.mistakes_of(_lift, [
    ("that is the energy from the first pose to the last: the lift goes to the path's "
     "highest pose, which need not be its last", {"which": "last"}),
    ("that is the path's whole range of potential energy: the lift starts at the first pose, "
     "which need not be the lowest", {"which": "range"}),
    ("right size, wrong sign: the potential energy grows as the weights rise", {"sign": -1.0}),
    (FLOOR, {"floor": True}, SLIP_DOWN),
])


# ---------------------------------------------------------------- Part 2: the least stiffness
def _least_gain(arm, q, ratio, *, sign=1.0, use_ratio=True, coupled=True, clip=True,
                floor=None):
    """The smallest shoulder gain k [N m/rad] with Kp = diag(k, ratio k) for which
    Kp + dg/dq is positive (semi)definite; the switches make a likely mistake (``floor``:
    gravity along -y, ``"size"`` its size, ``"y"`` its y part)."""
    real = {"size": _floor, "y": _y_part}.get(floor, planar_arm)(arm)
    K = sign * al.gravity_stiffness(real, q)
    d = np.array([1.0, ratio if use_ratio else 1.0])
    if coupled:
        scaled = -K / np.sqrt(np.outer(d, d))           # D^-1/2 (-K) D^-1/2
        k = float(np.linalg.eigvalsh(scaled)[-1])
    else:
        k = float(np.max(-np.diag(K) / d))
    return max(0.0, k) if clip else k


@reference(worked=[Case(arm=RODS, q=deg(90, 0), ratio=0.5,
                        label="the upright rods of Example 1, the elbow's gain half the "
                              "shoulder's"),
                   Case(arm=ARM, q=deg(60, 20), ratio=1.0,
                        label="the chapter's arm at (60°, 20°), equal gains"),
                   Case(arm=RODS, q=deg(-90, 0), ratio=0.5,
                        label="the rods hanging straight down")],
           allow=("gravity_stiffness",), units={"return": "N m/rad"},
           advice="when is Kp + dg/dq positive definite, and how does that condition depend on "
                  "the shoulder's gain k once the elbow's is ratio k?")
def least_gain(arm, q, ratio):
    """The smallest shoulder gain k [N m/rad], the elbow's ratio k, for which a PD holds the
    pose q as a stable rest (Kp + dg/dq positive definite beyond it); 0 if any k does."""
    return _least_gain(arm, q, ratio)


@least_gain.fresh
def _least_gain_cases(rng):
    cases = []
    for arm in drawn_arms(rng, 3, ARM):
        cases.append(Case(arm=arm, q=deg(rng.integer(30, 150), rng.sign() * rng.integer(10, 60)),
                          ratio=rng.uniform(0.2, 1.5, 0.1), label="a pose held up"))
    wall = rng.arm(gravity=(-9.81, 0.0))
    cases.append(Case(arm=wall, q=deg(rng.integer(-60, 60), rng.sign() * rng.integer(10, 60)),
                      ratio=rng.uniform(0.2, 1.5, 0.1), label="an arm mounted on a wall"))
    arm = rng.arm()
    cases.append(Case(arm=arm, q=deg(-90 + rng.integer(-20, 20), rng.sign() * rng.integer(5, 20)),
                      ratio=rng.uniform(0.2, 1.5, 0.1), label="a pose hanging down"))
    return cases


least_gain.mistakes_of(_least_gain, [
    ("that is the bound for equal gains: here the elbow's gain is ratio times the "
     "shoulder's", {"use_ratio": False}),
    ("that holds each joint alone against its own diagonal entry of dg/dq: the entries off "
     "the diagonal couple the joints", {"coupled": False}),
    ("a gain is not negative: where gravity alone holds the pose stably, any gain does, and "
     "the smallest is 0", {"clip": False}),
    # before the sign: on a wall the slip's value can be the sign mistake's too (0)
    (FLOOR + " (its y part alone is not all of it)", {"floor": "y"}, SLIP_DOWN),
    (FLOOR, {"floor": "size"}, SLIP_DOWN),
    ("right size, wrong sign: where dg/dq has a negative eigenvalue gravity pushes a nudge "
     "further, and the gain must make up for it", {"sign": -1.0}),
])


# ---------------------------------------------------------------- Part 3: a gain for a sag
def _largest_sag(arm, q, k, ratio, how="exact"):
    """The largest |e_j| [rad] of the PD's rest with Kp = (k, ratio k), for each gain of the
    array ``k``."""
    real = planar_arm(arm)
    kp = np.asarray(k, float)[:, None] * np.array([1.0, ratio])
    if how == "crude":
        e = al.gravity_torques(real, q) / kp
    elif how == "linear":
        e = np.linalg.solve(kp[:, :, None] * np.eye(2) + al.gravity_stiffness(real, q),
                            al.gravity_torques(real, q)[None, :, None])[..., 0]
    else:
        e = al.pd_sag(real, np.broadcast_to(np.asarray(q, float), kp.shape), kp)
    return np.abs(e).max(axis=-1)


def _gain_for_sag(arm, q, ratio, e_max, how="exact"):
    """The shoulder gain k [N m/rad] at which the largest sag is e_max, from above the least
    stable gain and a tenth of the gain that holds Kp^-1 g(q) to e_max (the sag falls as k
    grows there): a geometric grid, then finer grids."""
    crude = float(np.max(np.abs(al.gravity_torques(planar_arm(arm), q))
                         / np.array([1.0, ratio]))) / e_max
    lo = max(1.05 * _least_gain(arm, q, ratio) + 1e-3, 0.1 * crude)
    grid = lo * np.geomspace(1.0, 1e4, 64)
    over = ~(_largest_sag(arm, q, grid, ratio, how) <= e_max)
    i = int(np.argmin(over))                   # the first gain within e_max
    if i == 0:
        return float(grid[0])
    lo, hi = grid[i - 1], grid[i]
    while hi - lo > 1e-13 * hi:
        grid = np.linspace(lo, hi, 33)
        over = ~(_largest_sag(arm, q, grid, ratio, how) <= e_max)
        i = int(np.argmin(over))
        lo, hi = grid[i - 1], grid[i]
    return float(hi)


@reference(worked=[Case(arm=ARM, q=deg(30, 45), ratio=0.5, e_max=np.radians(5.0),
                        label="the chapter's PD at the worked pose, the elbow's gain half "
                              "the shoulder's, within 5°"),
                   Case(arm=WALL_ARM, q=deg(30, 45), ratio=1.0, e_max=np.radians(3.0),
                        label="the worked pose on a wall, equal gains, within 3°")],
           allow=("pd_sag", "gravity_torques", "gravity_stiffness"), rtol=1e-5,
           units={"e_max": "deg", "return": "N m/rad"},
           advice="how does the largest sag change with the shoulder's gain, and where does "
                  "it cross e_max?")
def gain_for_sag(arm, q, ratio, e_max):
    """The smallest shoulder gain k [N m/rad] (the elbow's ratio k) with which a PD without
    gravity compensation holds q with no joint's sag above e_max [rad]."""
    return _gain_for_sag(arm, q, ratio, e_max)


@gain_for_sag.fresh
def _gain_for_sag_cases(rng):
    def case(arm, label=None):
        for _ in range(50):
            q = deg(rng.integer(-60, 60), rng.sign() * rng.integer(15, 120))
            ratio, e_max = rng.uniform(0.2, 1.0, 0.1), np.radians(rng.choice([2.0, 3.0, 5.0]))
            crude = float(np.max(np.abs(al.gravity_torques(planar_arm(arm), q))
                                 / np.array([1.0, ratio]))) / e_max
            if crude >= 4.0 * max(_least_gain(arm, q, ratio), 1.0):   # far above instability
                return Case(arm=arm, q=q, ratio=ratio, e_max=e_max, label=label)
        raise ValueError("no gain case drawn")

    cases = [case(arm) for arm in drawn_arms(rng, 3, ARM)]
    cases.append(case(rng.arm(gravity=(-9.81, 0.0)), "an arm mounted on a wall"))
    cases.append(case(rng.arm(gravity=(0.0, 9.81)), "an arm hanging from a ceiling"))
    return cases


gain_for_sag.mistakes_of(_gain_for_sag, [
    ("that gain holds the sag Kp^-1 g(q) to e_max, the sag if the pose did not change: "
     "the arm rests lower, where the lever arms differ", {"how": "crude"}),
    ("that gain holds the linearised sag (Kp + dg/dq)^-1 g(q) to e_max, one step short of "
     "where the arm rests", {"how": "linear"}),
])
gain_for_sag.mistake("that is the gain for equal gains: here the elbow's gain is ratio times "
                     "the shoulder's",
                     lambda arm, q, ratio, e_max: _gain_for_sag(arm, q, 1.0, e_max))


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


payload_mass.mistakes_of(_payload, [
    ("the change of b is a torque per unit cosine, m g0 L2: divide by g0 as well as by L2",
     {"g0": 1.0}),
    ("the arm's gravity need not be 9.81 m/s²: take g0 from the arm, the length of arm.gravity",
     {"g0": 9.81}),
])


@payload_mass.mistake("that is the payload from the change of a (a payload at the tip adds "
                      "m_p g0 L1 to a as well): the part asks for the change of b, as the "
                      "note uses, and each fit's noise makes the two estimates differ")
def _payload_from_a(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    da = _fit(q_loaded, tau_loaded)[0] - _fit(q_empty, tau_empty)[0]
    return float(da / (np.hypot(*arm.gravity) * arm.lengths[0]))


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
                          swap=False, floor=False):
    """Y(q) (3, 3) with g(q) = Y theta, theta = (a, b, c) the first moments of mass about
    the three links' absolute angles, gravity (gx, gy) any direction; the switches make
    a likely mistake."""
    import sympy

    if swap:
        gx, gy = gy, gx
    angles = (q1, q2, q3) if relative else (q1, q1 + q2, q1 + q2 + q3)
    column = [sign * ((0 if floor else gx * sympy.sin(a)) - gy * sympy.cos(a))
              for a in angles]
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
    return [drawn("an arm on a table, gravity along -y", gx=0, gy=-g0),
            drawn("an arm on a wall, gravity along -x", gx=-g0, gy=0),
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
    ("gravity's x part is missing: on a wall or a tilted mounting the weights pull along "
     "(gx, gy), and a link's lever arm is measured across that direction, not across -y",
     {"floor": True}, SLIP_DOWN),
])
