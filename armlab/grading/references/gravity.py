"""Grading references for the gravity chapter's exercises (``solutions/gravity``).

Pure Python, independent of armlab's code (the tests compare both routes): the
potential energy and its derivatives written out link by link, Newton's method
for the PD sag, and the least-squares fit by its normal equations. The arms'
data come from the chapter's presets; the worked identification runs are the
chapter's own draw (``armlab.holding_runs``), read once at import
as plain lists.
"""

from armlab import holding_runs, rod_arm, tabletop_arm
from armlab.grading.purepy import cos, deg, dot, hypot, neg, sin, solve, sub
from armlab.grading.references import ArmData, Case, reference

ARM = ArmData.from_arm(tabletop_arm(), "the chapter's table-top arm")
"""The table-top arm: rods of 0.30 m / 2.0 kg and 0.25 m / 1.0 kg."""
RODS = ArmData.from_arm(rod_arm(), "the chapter's two 1 m rods")
"""The unit rods: two 1 m, 1 kg rods."""


def _book_runs():
    """The chapter's identification runs: 20 poses, 0.05 N m noise, empty then 0.5 kg."""
    arm = tabletop_arm()
    runs = holding_runs([arm, arm.with_payload(0.5)], 0, poses=20, noise=0.05)
    return [(q.tolist(), tau.tolist()) for q, tau in runs]


(BOOK_Q, BOOK_TAU), (BOOK_Q_LOADED, BOOK_TAU_LOADED) = _book_runs()
WORKED_POSE = Case(arm=ARM, q=deg(30, 45), label="the worked pose")
UPRIGHT = Case(arm=RODS, q=deg(90, 0), label="the upright rods of Example 1")


def _arms(rng, count, **kwargs):
    """The chapter's arm and ``count`` others (other lengths, masses, centres of mass)."""
    return [ARM] + [rng.arm(**kwargs) for _ in range(count)]


def _pose_cases(rng):
    """Two poses on each of three arms, then an arm on a wall and one on a ceiling."""
    cases = [Case(arm=arm, q=rng.pose(2)) for arm in _arms(rng, 2) for _ in range(2)]
    cases.append(Case(arm=rng.arm(gravity=(-9.81, 0.0)), q=rng.pose(2),
                      label="an arm mounted on a wall"))
    cases.append(Case(arm=rng.arm(gravity=(0.0, 9.81)), q=rng.pose(2),
                      label="an arm hanging from a ceiling"))
    return cases


FLOOR = ("use arm.gravity, the acceleration of gravity as a 2-vector: on a wall or a ceiling "
         "it does not point along -y")


# ---------------------------------------------------------------- the links' geometry
def _frames(arm, q, at_link_end=False, absolute=False):
    """Joint positions p_j (n + 1 of them, base first) and centres of mass c_i."""
    x, y, phi = 0.0, 0.0, 0.0
    joints, coms = [[0.0, 0.0]], []
    for i, length in enumerate(arm.lengths):
        phi = q[i] if absolute else phi + q[i]
        reach = length if at_link_end else arm.com[i]
        coms.append([x + reach * cos(phi), y + reach * sin(phi)])
        x, y = x + length * cos(phi), y + length * sin(phi)
        joints.append([x, y])
    return joints, coms


def _gravity_vector(arm, floor=False):
    """The acceleration of gravity; ``floor``: the same size, straight down (a mistake)."""
    if floor:
        return [0.0, -hypot(arm.gravity[0], arm.gravity[1])]
    return list(arm.gravity)


# ---------------------------------------------------------------- potential energy
def _potential(arm, q, sign=1.0, **kwargs):
    floor = kwargs.pop("floor", False)
    _, coms = _frames(arm, q, **kwargs)
    a = _gravity_vector(arm, floor)
    return sign * -sum(m * dot(a, c) for m, c in zip(arm.masses, coms))


@reference(worked=WORKED_POSE,
           advice="P is the sum over the links of m_i times the dot product of -gravity with "
                  "the centre of mass c_i: with gravity (0, -g0), m_i g0 times c_i's height")
def potential_energy(arm, q):
    """Potential energy [J], zero with every centre of mass at the shoulder's height."""
    return _potential(arm, q)


@potential_energy.fresh
def _potential_cases(rng):
    return _pose_cases(rng)


@potential_energy.mistake("right size, wrong sign: P grows as the weights rise, P = -sum m_i "
                          "(a . c_i) with a the acceleration of gravity")
def _potential_negated(arm, q):
    return _potential(arm, q, sign=-1.0)


@potential_energy.mistake("each weight acts at its link's centre of mass, com[i] from joint i, "
                          "not at the link's end")
def _potential_at_link_end(arm, q):
    return _potential(arm, q, at_link_end=True)


@potential_energy.mistake("link 2's direction is q1 + q2: q2 is measured from link 1")
def _potential_absolute(arm, q):
    return _potential(arm, q, absolute=True)


@potential_energy.mistake(FLOOR)
def _potential_floor(arm, q):
    return _potential(arm, q, floor=True)


# ---------------------------------------------------------------- dg/dq
def _stiffness(arm, q, sign=1.0, own_link_only=False, floor=False):
    """K[j][k] = sum over links i >= max(j, k) of m_i a . (c_i - p_max(j, k))."""
    joints, coms = _frames(arm, q)
    a = _gravity_vector(arm, floor)
    n = arm.n
    K = [[0.0] * n for _ in range(n)]
    for j in range(n):
        for k in range(n):
            m = max(j, k)
            links = [m] if own_link_only else range(m, n)
            K[j][k] = sign * sum(arm.masses[i] * dot(a, sub(coms[i], joints[m]))
                                 for i in links)
    return K


@reference(worked=UPRIGHT,
           advice="differentiate g_j = -sum_(i >= j) m_i a . (z x (c_i - p_j)) once more: "
                  "entry (j, k) is sum_(i >= max(j, k)) m_i a . (c_i - p_max(j,k))")
def gravity_stiffness(arm, q):
    """dg/dq (n, n) [N m/rad]: the Hessian of the potential energy."""
    return _stiffness(arm, q)


@gravity_stiffness.fresh
def _stiffness_cases(rng):
    return _pose_cases(rng) + [Case(arm=RODS, q=deg(-90, 0),
                                    label="the rods hanging straight down")]


@gravity_stiffness.mistake("right size, wrong sign: this is -dg/dq, the stiffness of gravity's "
                           "own torque -g")
def _stiffness_negated(arm, q):
    return _stiffness(arm, q, sign=-1.0)


@gravity_stiffness.mistake("the shoulder's row holds link 2 as well: entry (1, 1) sums the "
                           "links beyond joint 1, both of them")
def _stiffness_own_link(arm, q):
    return _stiffness(arm, q, own_link_only=True)


@gravity_stiffness.mistake(FLOOR)
def _stiffness_floor(arm, q):
    return _stiffness(arm, q, floor=True)


# ---------------------------------------------------------------- the PD sag
def _gravity(arm, q):
    """g_j = -sum over links i >= j of m_i a . (z x (c_i - p_j))."""
    joints, coms = _frames(arm, q)
    a = list(arm.gravity)
    out = []
    for j in range(arm.n):
        total = 0.0
        for i in range(j, arm.n):
            r = sub(coms[i], joints[j])
            total -= arm.masses[i] * (a[0] * -r[1] + a[1] * r[0])
        out.append(total)
    return out


def _sag(arm, q, kp, below=1.0, steps=60):
    """Newton's method on Kp e = g(q - below e), from e = 0; ``steps=1``: one linearised step."""
    n = arm.n
    e = [0.0] * n
    for _ in range(steps):
        pose = [qi - below * ei for qi, ei in zip(q, e)]
        g = _gravity(arm, pose)
        K = _stiffness(arm, pose)
        residual = [kp[i] * e[i] - g[i] for i in range(n)]
        H = [[(kp[j] if j == k else 0.0) + below * K[j][k] for k in range(n)] for j in range(n)]
        step = solve(H, residual)
        e = [ei - si for ei, si in zip(e, step)]
        if max(abs(s) for s in step) <= 1e-15:
            break
    return e


def _bound(arm):
    """An upper bound of |dg/dq| entries [N m/rad]: every weight on its largest lever arm."""
    g0 = hypot(arm.gravity[0], arm.gravity[1])
    reach = 0.0
    total = 0.0
    for i in range(arm.n):
        total += arm.masses[i] * g0 * (reach + arm.com[i])
        reach += arm.lengths[i]
    return total


def _gains(rng, arm):
    """Round gains [N m/rad] at least twice the bound: a unique rest, reached by iteration."""
    lowest = 5.0 * int(2.0 * _bound(arm) / 5.0 + 1.0)
    return [rng.uniform(lowest, 3.0 * lowest, 5.0) for _ in range(arm.n)]


@reference(worked=Case(arm=ARM, q=deg(30, 45), kp=[60.0, 30.0],
                       label="the chapter's PD, Kp = (60, 30) N m/rad, holding the worked pose"),
           allow=("gravity_torques", "gravity_stiffness"), rtol=1e-6, atol=1e-9,
           units={"return": "deg"},
           advice="at rest the PD's torque Kp e holds the arm at the pose it has, q - e: solve "
                  "Kp e = g(q - e) for e, by iteration")
def pd_sag(arm, q, kp):
    """The rest pose's error e = q - q_rest (n,) [rad] of a PD without gravity compensation."""
    return _sag(arm, q, kp)


@pd_sag.fresh
def _sag_cases(rng):
    cases = []
    for arm in _arms(rng, 2):
        cases.append(Case(arm=arm, q=rng.pose(2), kp=_gains(rng, arm)))
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
    return [gi / ki for gi, ki in zip(_gravity(arm, q), kp)]


@pd_sag.mistake("that is one linearised step, (Kp + dg/dq)^-1 g(q): repeat it at the new "
                "pose until e stops changing")
def _sag_one_step(arm, q, kp):
    return _sag(arm, q, kp, steps=1)


@pd_sag.mistake("the sign of the pose: the arm rests below its target, at q - e with "
                "e = q_target - q_rest")
def _sag_above(arm, q, kp):
    return _sag(arm, q, kp, below=-1.0)


# ---------------------------------------------------------------- identification
def _columns(q):
    """The regressor's entries per pose: (cos q1, cos(q1 + q2))."""
    return [(cos(p[0]), cos(p[0] + p[1])) for p in q]


def _fit(q, tau, rows="both"):
    """Least squares for (a, b) by the normal equations of the stacked rows."""
    s11 = s12 = s22 = r1 = r2 = 0.0
    for (c1, c12), (t1, t2) in zip(_columns(q), tau):
        if rows in ("both", "shoulder"):
            s11, s12, s22 = s11 + c1 * c1, s12 + c1 * c12, s22 + c12 * c12
            r1, r2 = r1 + c1 * t1, r2 + c12 * t1
        if rows in ("both", "elbow"):
            s22, r2 = s22 + c12 * c12, r2 + c12 * t2
    return solve([[s11, s12], [s12, s22]], [r1, r2])


def _fit_in_turn(q, tau):
    """b from the elbow alone, then a from the shoulder with that b (not least squares)."""
    cols = _columns(q)
    b = sum(c12 * t[1] for (_, c12), t in zip(cols, tau)) / sum(c12 * c12 for _, c12 in cols)
    a = (sum(c1 * (t[0] - b * c12) for (c1, c12), t in zip(cols, tau))
         / sum(c1 * c1 for c1, _ in cols))
    return [a, b]


def _noisy_run(rng, arm, poses, noise):
    """Poses and measured holding torques: g(q) plus round noise of at most ``noise``."""
    q = [rng.pose(2) for _ in range(poses)]
    tau = [[gi + rng.uniform(-noise, noise, 0.001) for gi in _gravity(arm, p)] for p in q]
    return q, tau


@reference(worked=Case(q=BOOK_Q, tau=BOOK_TAU,
                       label="the chapter's empty run of 20 poses"),
           rtol=1e-6, atol=1e-9,
           advice="stack two rows per pose, (cos q1, cos(q1 + q2)) for the shoulder and "
                  "(0, cos(q1 + q2)) for the elbow, and solve the least-squares problem")
def fit_gravity_parameters(q, tau):
    """Least-squares (a, b) [N m] of g1 = a cos q1 + b cos(q1 + q2), g2 = b cos(q1 + q2)."""
    return _fit(q, tau)


@fit_gravity_parameters.fresh
def _fit_cases(rng):
    cases = []
    for k, arm in enumerate(_arms(rng, 3)):
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
    return _fit(q, tau, rows="shoulder")


@fit_gravity_parameters.mistake("that fits b from the elbow and then a with that b: fit both "
                                "together, one least-squares problem over all the rows")
def _fit_one_after_the_other(q, tau):
    return _fit_in_turn(q, tau)


@fit_gravity_parameters.mistake("the order: return (a, b), the shoulder's cos q1 coefficient "
                                "first")
def _fit_swapped(q, tau):
    return _fit(q, tau)[::-1]


# ---------------------------------------------------------------- the payload
def _loaded(arm, mass):
    """The arm with a point mass at its tip merged into the last link."""
    m, c, L = arm.masses[-1], arm.com[-1], arm.lengths[-1]
    total = m + mass
    com = (m * c + mass * L) / total
    return ArmData(arm.lengths, arm.masses[:-1] + (total,), arm.com[:-1] + (com,), None,
                   arm.gravity)


def _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded, lever=None, weight=True,
             g0=None):
    db = _fit(q_loaded, tau_loaded)[1] - _fit(q_empty, tau_empty)[1]
    if g0 is None:
        g0 = hypot(arm.gravity[0], arm.gravity[1]) if weight else 1.0
    return db / (g0 * (arm.lengths[-1] if lever is None else lever))


@reference(worked=Case(arm=ARM, q_empty=BOOK_Q, tau_empty=BOOK_TAU, q_loaded=BOOK_Q_LOADED,
                       tau_loaded=BOOK_TAU_LOADED,
                       label="the chapter's two runs of 20 poses, empty and with 0.5 kg"),
           uses={"fit_gravity_parameters": fit_gravity_parameters},
           units={"q_empty": "deg", "q_loaded": "deg", "tau_empty": "N m", "tau_loaded": "N m"},
           rtol=1e-6, atol=1e-9,
           advice="a payload m at the tip adds m g0 L2 to b: fit b with and without it")
def payload_mass(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    """Mass [kg] of a point payload at the tip, from the change of b between two fits."""
    return _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded)


@payload_mass.fresh
def _payload_cases(rng):
    cases = []
    moon = rng.arm(gravity=1.62, label=None)
    for arm in _arms(rng, 2) + [moon]:
        mass = rng.uniform(0.1, 2.0, 0.1)
        q0, tau0 = _noisy_run(rng, arm, 8, 0.05)
        q1, tau1 = _noisy_run(rng, _loaded(arm, mass), 8, 0.05)
        cases.append(Case(arm=arm, q_empty=q0, tau_empty=tau0, q_loaded=q1, tau_loaded=tau1,
                          label=("two runs of 8 poses on the Moon" if arm is moon else
                                 "two runs of 8 poses"), ))
    arm = rng.arm()
    q0, tau0 = _noisy_run(rng, arm, 6, 0.0)
    q1, tau1 = _noisy_run(rng, arm, 6, 0.0)
    cases.append(Case(arm=arm, q_empty=q0, tau_empty=tau0, q_loaded=q1, tau_loaded=tau1,
                      label="two runs of 6 poses with nothing in the gripper"))
    return cases


@payload_mass.mistake("the payload sits at the tip: its lever arm about the elbow is the "
                      "whole of L2 (arm.lengths[1]), not the centre of mass's distance")
def _payload_at_com(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    return _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded, lever=arm.com[-1])


@payload_mass.mistake("the change of b is a torque per unit cosine, m g0 L2: divide by g0 as "
                      "well as by L2")
def _payload_no_g0(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    return _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded, weight=False)


@payload_mass.mistake("the arm's gravity need not be 9.81 m/s²: take g0 from the arm, the "
                      "length of arm.gravity")
def _payload_earth(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    return _payload(arm, q_empty, tau_empty, q_loaded, tau_loaded, g0=9.81)


@payload_mass.mistake("right size, wrong sign: the loaded arm's b is the larger one, "
                      "b_loaded - b_empty")
def _payload_negated(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    return neg(_payload(arm, q_empty, tau_empty, q_loaded, tau_loaded))
