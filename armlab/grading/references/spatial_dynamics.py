"""Grading references for the spatial dynamics chapter (``solutions/spatial_dynamics``).

The chains cross into a sandbox as data, as in the spatial statics set
(:mod:`armlab.grading.references.spatial_statics`, whose random chains this set reuses).
The expected values are numpy (the wrench each joint carries, by Newton-Euler in the
chain's own frames; a swing's period by a tight ``solve_ivp``) or armlab's (the
velocity-product torques, the mass matrix, the gravity torques, inverse dynamics for the
design's judge).
"""


import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import ellipk

from armlab.grading.cases import ChainData
from armlab.grading.references import (Case, all_symbols, chapter, derivation, design, exact_draws,
                                       reference)

_statics = chapter("spatial_statics")
sp, real, random_chain, SO101, deg = (_statics.sp, _statics.real, _statics.random_chain,
                                       _statics.SO101, _statics.deg)

Q_W = deg(20.0, -40.0, 60.0, 30.0, 0.0)
"""The chapter's worked pose [rad]."""
QD_W = [1.0, -1.0, 0.5, 0.0, 2.0]
QDD_W = [1.0, 2.0, 3.0, 4.0, 5.0]
FREE = "joint j's inertia taken with the other joints free, 1/(M⁻¹)_jj"
"""The slip of Parts 3 and 4 (``slip=``): the locked joints' inertia read from M⁻¹, as if
they could move, in the prediction and again in the simulation."""
UNITS = {"q": "rad or m", "qd": "rad/s or m/s", "qdd": "rad/s² or m/s²", "q0": "rad or m",
         "amplitude": "rad", "q_start": "rad or m", "q_end": "rad or m"}
EXAMPLE_3 = Case(chain=SO101, q=Q_W, qd=QD_W, qdd=QDD_W,
                 label="Example 3's moving instant of the SO-101")


def _state(rng, chain):
    q = [rng.uniform(-0.2, 0.2, 0.01) if k == "prismatic" else deg(rng.integer(-170, 170))[0]
         for k in chain.kinds]
    return q, rng.vector(chain.n, -2.0, 2.0, 0.1), rng.vector(chain.n, -5.0, 5.0, 0.5)


def _screws(ch):
    return ch.screws


def _motions(ch, q):
    """Pose of each joint's frame in its parent's, T_{i-1,i}(q_i)."""
    out = []
    for i in range(ch.n):
        motion = np.eye(4)
        if ch.kinds[i] == "revolute":
            motion[:3, :3] = sp.rotation(ch.axes[i], q[i])
        else:
            motion[:3, 3] = ch.axes[i] * q[i]
        out.append(ch.origins[i] @ motion)
    return out


# ---------------------------------------------------------------- Part 1: the joints' wrenches
def _wrenches(chain, q, qd, qdd, gravity_sign=-1.0, bias=True, transpose=True):
    ch = real(chain)
    q, qd, qdd = (np.asarray(x, dtype=float) for x in (q, qd, qdd))
    S, T = _screws(ch), _motions(ch, q)
    X = [sp.adjoint(sp.inverse(t)) for t in T]         # twists from frame i-1 to frame i
    V, A, F = np.zeros(6), np.r_[np.zeros(3), gravity_sign * ch.gravity], []
    for i in range(ch.n):
        V = X[i] @ V + S[i] * qd[i]
        A = X[i] @ A + S[i] * qdd[i] + sp.ad(V) @ S[i] * qd[i]
        Fi = ch.inertias[i] @ A
        if bias:
            Fi = Fi - sp.ad(V).T @ ch.inertias[i] @ V
        F.append(Fi)
    for i in range(ch.n - 1, 0, -1):
        F[i - 1] = F[i - 1] + (X[i].T if transpose else np.linalg.inv(X[i])) @ F[i]
    return np.array(F).tolist()


@reference(worked=EXAMPLE_3, allow=("spatial.so3", "spatial.se3", "spatial.inertia"),
           units=UNITS, rtol=1e-7, atol=1e-9,
           advice="compare one body at a time: is its twist right, its acceleration (with "
                  "gravity), its own net wrench, and what the joint beyond it passes back?")
def joint_wrenches(chain, q, qd, qdd):
    """(n, 6): the wrench (m, f) joint i carries from body i-1 to body i, about joint i's
    origin, in joint i's axes [N m, N]."""
    return _wrenches(chain, q, qd, qdd)


@joint_wrenches.fresh
def _wrench_cases(rng):
    cases = [Case(chain=SO101, q=deg(*rng.vector(5, -100, 100, 1)),
                  qd=rng.vector(5, -2.0, 2.0, 0.1), qdd=rng.vector(5, -5.0, 5.0, 0.5))]
    for _ in range(4):
        chain = random_chain(rng)
        q, qd, qdd = _state(rng, chain)
        cases.append(Case(chain=chain, q=q, qd=qd, qdd=qdd))
    chain = random_chain(rng, gravity=(0.0, 0.0, 0.0), label=None)
    q, qd, qdd = _state(rng, chain)
    cases.append(Case(chain=chain, q=q, qd=qd, qdd=qdd, label="a chain in free fall"))
    return cases


joint_wrenches.mistakes_of(_wrenches, [
    ("gravity enters the base's acceleration with the wrong sign: every body feels its "
     "weight in the opposite sense", {"gravity_sign": 1.0}),
    ("a moving body's velocity-product term is missing from its net wrench", {"bias": False}),
    ("a wrench is passed back to the parent's frame as if it were a twist",
     {"transpose": False}),
])


# ---------------------------------------------------------------- Part 2: c from M alone
STEP = 1e-5
"""The central-difference step the part names [rad or m]."""


def _christoffel(chain, q, qd, half=0.5, first=True):
    ch, q, qd = real(chain), np.asarray(q, dtype=float), np.asarray(qd, dtype=float)
    n = ch.n
    dM = np.zeros((n, n, n))                              # dM[k] = dM/dq_k
    for k in range(n):
        e = np.eye(n)[k] * STEP
        dM[k] = (sp.mass_matrix(ch, q + e) - sp.mass_matrix(ch, q - e)) / (2 * STEP)
    Mdot = np.einsum("kij,k->ij", dM, qd)
    return ((Mdot @ qd if first else 0.0) - half * np.einsum("ijk,j,k->i", dM, qd, qd)).tolist()


@reference(worked=Case(chain=SO101, q=Q_W, qd=QD_W, label="Example 3's pose and speeds"),
           allow=("spatial.Chain", "spatial.mass_matrix"), units=UNITS, rtol=1e-5, atol=1e-8,
           advice="which terms of Lagrange's equations hold the speeds, and how does each "
                  "follow from the derivatives of M?")
def coriolis_from_mass(chain, q, qd):
    """c(q, qd) (n,) [N m or N] from the mass matrix's derivatives (the exact value; a
    central difference of step STEP agrees to the tolerance)."""
    return sp.coriolis_torques(real(chain), q, qd).tolist()


@coriolis_from_mass.fresh
def _coriolis_cases(rng):
    cases = [Case(chain=SO101, q=deg(*rng.vector(5, -100, 100, 1)),
                  qd=rng.vector(5, -2.0, 2.0, 0.1))]
    for _ in range(5):
        chain = random_chain(rng)
        q, qd, _ = _state(rng, chain)
        cases.append(Case(chain=chain, q=q, qd=qd))
    return cases


coriolis_from_mass.mistakes_of(_christoffel, [
    ("the kinetic energy's gradient comes off at twice its size", {"half": 1.0}),
    ("that is Ṁ q̇ alone: the kinetic energy's gradient is missing", {"half": 0.0}),
    ("the kinetic energy's gradient is added where it comes off", {"half": -0.5}),
])


# ---------------------------------------------------------------- Part 3: predict, then simulate
def _k_and_m(ch, q0, j):
    e = np.eye(ch.n)[j] * 1e-6
    k = (sp.gravity_torques(ch, q0 + e)[j] - sp.gravity_torques(ch, q0 - e)[j]) / 2e-6
    return k, sp.mass_matrix(ch, q0)[j, j]


def _predicted(chain, q0, j, factor=2 * np.pi, inverted=False, free=False):
    ch = real(chain)
    k, m = _k_and_m(ch, np.asarray(q0, dtype=float), int(j))
    if free:
        m = _free_inertia(ch, np.asarray(q0, dtype=float), int(j))
    return float(factor * np.sqrt(k / m if inverted else m / k))


def _free_inertia(ch, q, j):
    """1/(M⁻¹)_jj: joint j's inertia when the other joints are free (the slip FREE)."""
    return 1.0 / np.linalg.inv(sp.mass_matrix(ch, q))[j, j]


def _free_swing(chain, q0, j, amplitude, lagrange=True):
    """The swing's period with the slip FREE: M_jj replaced by m(q_j) = 1/(M⁻¹)_jj, which
    changes as joint j turns, in m q̈ + m'/2 q̇² = -g_j (``lagrange``, the equation of
    L = m q̇²/2 - V) or in m q̈ = -g_j."""
    ch, q0, j = real(chain), np.asarray(q0, dtype=float), int(j)

    def at(x):
        q = q0.copy()
        q[j] = x
        return q

    def rate(t, y):
        m = _free_inertia(ch, at(y[0]), j)
        dm = ((_free_inertia(ch, at(y[0] + 1e-6), j) - _free_inertia(ch, at(y[0] - 1e-6), j))
              / 2e-6 if lagrange else 0.0)
        return [y[1], -(sp.gravity_torques(ch, at(y[0]))[j] + 0.5 * dm * y[1] ** 2) / m]

    def back(t, y):
        return y[1] if t > 1e-3 else -amplitude
    back.direction, back.terminal = -np.sign(amplitude), True
    sol = solve_ivp(rate, (0.0, 100.0), [q0[j] + amplitude, 0.0], method="DOP853",
                    rtol=1e-8, atol=1e-10, events=back)        # far inside the check's 2e-3
    return float(sol.t_events[0][0]) if sol.t_events[0].size else float("nan")


def _swing(chain, q0, j, amplitude, fraction=1.0):
    """The time from release at rest at q0 + amplitude e_j to the return to rest on the
    same side (``fraction=0.5``: to the other side), joint j alone.

    Joint j turning alone turns the bodies beyond it rigidly about its axis: M_jj stays
    what it is and gravity's torque is a sinusoid, g_j = K sin(q_j - q0_j) with K its slope
    at the rest. The swing is an exact pendulum's, T = 4 sqrt(M_jj / K) K(sin^2(A / 2))
    with K(m) the complete elliptic integral of the first kind (the tests check it against
    a simulation)."""
    ch, q0, j = real(chain), np.asarray(q0, dtype=float), int(j)
    k, m = _k_and_m(ch, q0, j)
    return float(fraction * 4.0 * np.sqrt(m / k) * ellipk(np.sin(amplitude / 2.0) ** 2))


def simulated_swing(chain, q0, j, amplitude):
    """The same period by integrating M_jj(q) q̈_j = -g_j(q) (a second route, for the
    tests)."""
    ch, q0, j = real(chain), np.asarray(q0, dtype=float), int(j)

    def rate(t, y):
        q = q0.copy()
        q[j] = y[0]
        return [y[1], -sp.gravity_torques(ch, q)[j] / sp.mass_matrix(ch, q)[j, j]]

    def back(t, y):
        return y[1] if t > 1e-3 else -amplitude
    back.direction, back.terminal = -np.sign(amplitude), True
    sol = solve_ivp(rate, (0.0, 100.0), [q0[j] + amplitude, 0.0], method="DOP853",
                    rtol=1e-11, atol=1e-12, events=back)
    return float(sol.t_events[0][0])


def _equilibrium(chain, q, j):
    """q with joint j moved to a stable rest of joint j alone (g_j = 0, dg_j/dq_j > 0),
    or None."""
    ch = real(chain)
    grid = np.radians(np.arange(-180.0, 181.0, 2.0))
    Q = np.tile(np.asarray(q, dtype=float), (len(grid), 1))
    Q[:, j] = grid
    g = sp.gravity_torques(ch, Q)[:, j]
    for a in range(len(grid) - 1):
        if g[a] < 0 <= g[a + 1]:
            lo, hi = grid[a], grid[a + 1]
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                x = np.array(q, dtype=float)
                x[j] = mid
                lo, hi = (mid, hi) if sp.gravity_torques(ch, x)[j] < 0 else (lo, mid)
            x = np.array(q, dtype=float)
            x[j] = 0.5 * (lo + hi)
            k, _ = _k_and_m(ch, x, j)
            if k > 1e-3:
                return x.tolist()
    return None


def _hanging(rng, count):
    """Cases (chain, q0, j): the SO-101 and random revolute chains at rest about joint j."""
    out = []
    while len(out) < count:
        if not out or rng.integer(0, 1):
            chain, j = SO101, rng.integer(1, 3)
            q = deg(*rng.vector(5, -60, 60, 1))
        else:
            chain = random_chain(rng, prismatic=False)
            j = rng.integer(0, chain.n - 1)
            q = [deg(rng.integer(-170, 170))[0] for _ in range(chain.n)]
        q0 = _equilibrium(chain, q, j)
        if q0 is not None:
            out.append((chain, q0, float(j)))
    return out


WRIST = _equilibrium(SO101, Q_W, 3)
"""The chapter's worked pose with the wrist hanging at rest."""


@reference(worked=Case(chain=SO101, q0=WRIST, j=3.0,
                       label="the SO-101's wrist hanging still, the other joints locked at "
                             "the worked pose"),
           allow=("spatial.Chain", "spatial.mass_matrix", "spatial.gravity_torques"), units=UNITS,
           rtol=1e-5, atol=1e-9,
           advice="near its rest, what stiffness does gravity give joint j, and what inertia "
                  "does it turn, with the other joints locked?")
def small_swing_period(chain, q0, j):
    """The period [s] of a small swing of joint j alone about its rest at q0."""
    return _predicted(chain, q0, j)


@small_swing_period.fresh
def _small_cases(rng):
    return [Case(chain=c, q0=q0, j=j) for c, q0, j in _hanging(rng, 5)]


small_swing_period.mistakes_of(_predicted, [
    ("that is 1/ω, the inverse of the angular frequency, not a period", {"factor": 1.0}),
    ("ω² is taken as the inertia over the stiffness: the ratio is upside down",
     {"inverted": True}),
    ("the inertia 1/(M⁻¹)_jj is joint j's when the other joints are free to move; locked, "
     "they turn with it as one body", {"free": True}, FREE),
])


@reference(worked=Case(chain=SO101, q0=WRIST, j=3.0, amplitude=0.5,
                       label="the SO-101's wrist let go 0.5 rad from its rest, the other "
                             "joints locked at the worked pose"),
           allow=("spatial.Chain", "spatial.mass_matrix", "spatial.gravity_torques"), units=UNITS,
           rtol=2e-3, atol=1e-6,
           advice="with the other joints locked, what is joint j's equation of motion, and "
                  "which event ends one period?")
def swing_period(chain, q0, j, amplitude):
    """The simulated period [s]: from release at rest to the first return to rest on the
    same side."""
    return _swing(chain, q0, j, amplitude)


@swing_period.fresh
def _swing_cases(rng):
    return [Case(chain=c, q0=q0, j=j, amplitude=rng.sign() * rng.uniform(0.3, 1.0, 0.05))
            for c, q0, j in _hanging(rng, 4)]


@swing_period.mistake("that is the small swing's period, not this wide swing's")
def _swing_linear(chain, q0, j, amplitude):
    return _predicted(chain, q0, j)


swing_period.mistakes_of(_free_swing, [
    ("joint j's inertia here is 1/(M⁻¹)_jj, the one it has when the other joints are free "
     "to move; locked, they turn with it as one body", {}, FREE),
    ("joint j's inertia here is 1/(M⁻¹)_jj, the one it has when the other joints are free "
     "to move; locked, they turn with it as one body", {"lagrange": False}, FREE),
])


swing_period.mistakes_of(_swing, [
    ("that is half a swing, to the other side", {"fraction": 0.5}),
])


# ---------------------------------------------------------------- Part 4: the shortest move
SAMPLES = np.linspace(0.0, 1.0, 101)
"""The fractions of the move at which the design's torques and speeds are judged."""


def _quintic(sigma):
    return (10 * sigma**3 - 15 * sigma**4 + 6 * sigma**5, (30 * sigma**2 - 60 * sigma**3
            + 30 * sigma**4), 60 * sigma - 180 * sigma**2 + 120 * sigma**3)


def _move(ch, q_start, q_end, duration):
    """Torques (101, n) and speeds (101, n) of the quintic move of ``duration``."""
    a, b = np.asarray(q_start, dtype=float), np.asarray(q_end, dtype=float)
    s, ds, dds = _quintic(SAMPLES)
    q = a + np.outer(s, b - a)
    qd = np.outer(ds, b - a) / duration
    qdd = np.outer(dds, b - a) / duration**2
    return sp.inverse_dynamics(ch, q, qd, qdd), qd


def _by_torque(ch, q_start, q_end):
    """The shortest duration [s] within the rated torques alone (tau = A / T^2 + g at each
    sample, solved for T)."""
    slow, _ = _move(ch, q_start, q_end, 1.0)
    g = sp.gravity_torques(ch, q_start + np.outer(_quintic(SAMPLES)[0],
                                                  np.subtract(q_end, q_start)))
    A = slow - g                          # the part that scales with 1 / T^2
    e = ch.effort
    with np.errstate(divide="ignore", invalid="ignore"):
        need = np.where(A > 0, A / (e - g), np.where(A < 0, -A / (e + g), 0.0))
    return float(np.sqrt(need.max()))


def _by_speed(ch, q_start, q_end):
    """The shortest duration [s] within the rated speeds alone (the quintic's top speed is
    1.875 times the mean)."""
    return float((np.abs(np.subtract(q_end, q_start)) * 1.875 / ch.velocity).max())


def shortest(chain, q_start, q_end):
    """The grader's own design: the shortest duration [s] whose samples stay within the
    rated torques and speeds."""
    ch = real(chain)
    return max(_by_torque(ch, q_start, q_end), _by_speed(ch, q_start, q_end))


def _move_case(rng, chain, label=None, binds=None):
    """A move within the chain's rated torques held still; ``binds`` ("torque" or "speed",
    a random chain): its rated torques are set to 1.5 times gravity's largest torque along
    the move plus 1 N m, in whole N m, so that the move can be made, and its rated speeds
    (one for all joints, in 0.1 rad/s) so that the ratings named bind with room to spare:
    the other allows a move at most half as long."""
    ch = real(chain)
    for _ in range(50):
        a = deg(*rng.vector(ch.n, -90, 90, 1))
        b = deg(*rng.vector(ch.n, -90, 90, 1))
        g = np.abs(sp.gravity_torques(ch, a + np.outer(SAMPLES, np.subtract(b, a))))
        if binds is None:
            if np.all(g < 0.8 * ch.effort):
                return Case(chain=chain, q_start=a, q_end=b, label=label)
            continue
        effort = np.ceil(1.5 * g.max(axis=0) + 1.0).tolist()
        rated = ChainData(**{**chain.fields(), "effort": effort})
        T_tau = _by_torque(real(rated), a, b)
        top = 1.875 * np.abs(np.subtract(b, a)).max()          # [rad/s] over T = 1 s
        v = (np.ceil(10 * top / (0.5 * T_tau)) if binds == "torque"
             else np.floor(10 * top / (2.0 * T_tau))) / 10
        if v < 0.1:
            continue
        chain = ChainData(**{**rated.fields(), "velocity": [float(v)] * ch.n},
                          label=chain.label)
        return Case(chain=chain, q_start=a, q_end=b, label=label)
    raise RuntimeError("no move within the rated torques")


ROUNDING = 1e-9
"""A torque or speed at most this fraction over its rating is within it: a duration solved
exactly at the ratings from M, c and g lands a few parts in 1e16 over in the judge's inverse
dynamics."""
PAYLOAD = 1.5
"""The payload of the visible check's second move [kg]: with it the rated torques bind."""
LOADED = ChainData.from_chain(real(SO101).with_payload(PAYLOAD),
                              f"the SO-101 carrying {PAYLOAD:g} kg at its tip")


@design(worked=[Case(chain=SO101, q_start=Q_W, q_end=_statics.Q_WORK,
                     label="the SO-101 from the worked pose to the statics chapter's work "
                           "pose: its rated speed binds"),
                Case(chain=LOADED, q_start=_statics.Q_WORK, q_end=[0.0] * 5,
                     label="the SO-101 carrying a payload from the work pose to the zero "
                           "pose: its rated torques bind")],
        allow=("spatial.Chain", "spatial.inverse_dynamics", "spatial.mass_matrix",
               "spatial.coriolis_torques",
               "spatial.gravity_torques"), units=UNITS,
        advice="along the path, which part of each torque changes with the duration, and "
               "which does not?")
def move_duration(chain, q_start, q_end, answer):
    """Judge a duration T [s] of the quintic rest-to-rest move: the torques within the
    rated ones and the speeds within the rated ones at every sample (none at 10 % over),
    and T at most 1.2 times the shortest (none at 1.5 times)."""
    ch = real(chain)
    T = np.asarray(answer, dtype=float)
    if T.size != 1 or not np.isfinite(T).all() or float(T.ravel()[0]) <= 0:
        return 0.0, "the design is not one positive duration in seconds"
    T = float(T.ravel()[0])
    tau, qd = _move(ch, q_start, q_end, T)
    over_tau = float(np.max(np.abs(tau) / ch.effort))
    over_qd = float(np.max(np.abs(qd) / ch.velocity))
    best = shortest(chain, q_start, q_end)

    def within(over):                     # a design at a rating to rounding is within it
        return 1.0 if over <= 1.0 + ROUNDING else min(1.0, max(0.0, (1.1 - over) / 0.1))
    credit = [within(over_tau), within(over_qd), min(1.0, max(0.0, (1.5 - T / best) / 0.3))]
    words = [f"the move takes {T:.3f} s",
             f"its largest torque is {100 * over_tau:.0f}% of the rated one",
             f"its largest speed {100 * over_qd:.0f}% of the rated one"]
    if T > 1.2 * best:
        words.append(f"{100 * (T / best - 1):.0f}% slower than the shortest move within "
                     "the ratings, beyond the spec's 20%")
    return float(np.prod(credit)), "; ".join(words)


@move_duration.fresh
def _move_cases(rng):
    cases = [_move_case(rng, SO101)]
    heavy = rng.uniform(0.5, 2.0, 0.1)
    loaded = ChainData.from_chain(real(SO101).with_payload(heavy),
                                  f"the SO-101 carrying {heavy:g} kg at its tip")
    cases.append(_move_case(rng, loaded))
    cases.append(_move_case(rng, random_chain(rng, prismatic=False), binds="torque",
                            label="a random chain: its rated torques bind"))
    cases.append(_move_case(rng, random_chain(rng, prismatic=False), binds="speed",
                            label="a random chain: its rated speeds bind"))
    return cases


# ---------------------------------------------------------------- Part 7: a derivation
TURRET_PARAMS = ("q1", "q2", "d", "L", "m", "mp", "J")


def _turret_mass_matrix(q1, q2, d, L, m, mp, J, *, rod="rod", offset=True, coupling=1,
                        half=False, turret=True, angle="level"):
    """M(q) (2, 2) of the turret arm of the spatial statics set (joint 1 about the base's z;
    joint 2 at (0, d, h) in joint 1's frame, about its y; a link L along joint 2's x): the
    turret's moment J about z, the link a thin uniform rod of mass m, a point payload mp at
    its tip. The switches make a likely mistake."""
    import sympy

    c2, s2 = (sympy.cos(q2), sympy.sin(q2)) if angle == "level" else (sympy.sin(q2),
                                                                       sympy.cos(q2))
    d = d if offset else 0
    second = {"rod": m * L ** 2 / 3, "point": m * L ** 2 / 4,
              "ball": m * L ** 2 / 4}[rod] + mp * L ** 2         # about joint 2's axis
    lean = second * c2 ** 2 + (m * L ** 2 / 12 if rod == "ball" else 0)
    M11 = (J if turret else 0) + (m + mp) * d ** 2 + lean
    M12 = coupling * (m / 2 + mp) * d * L * s2
    M22 = second + (m * L ** 2 / 12 if rod == "ball" else 0)
    if half:                                   # the coefficients of T read off as M
        M11, M22 = M11 / 2, M22 / 2
    return sympy.Matrix([[M11, M12], [M12, M22]])


@derivation(worked=all_symbols(TURRET_PARAMS),
            advice="which bodies move, how fast does each point of them move, and what "
                   "kinetic energy does that give?")
def turret_mass_matrix(q1, q2, d, L, m, mp, J):
    """M(q) (2, 2) of the turret arm, a rod and a payload on it, as SymPy [kg m²]."""
    return _turret_mass_matrix(q1, q2, d, L, m, mp, J)


@turret_mass_matrix.fresh
def _turret_cases(rng):
    drawn, frac = exact_draws(rng, TURRET_PARAMS)
    # "another arm" has every term: none of it is zero
    return [drawn("another arm in exact numbers", d=frac(-10, 10, 100, nonzero=True),
                  L=frac(10, 40, 100), m=frac(2, 30, 10), mp=frac(1, 20, 10),
                  J=frac(1, 50, 1000)),
            drawn("no payload", mp=0),
            drawn("no shoulder offset", d=0),
            drawn("a massless link carrying the payload", m=0),
            drawn("all symbols")]


turret_mass_matrix.mistakes_of(_turret_mass_matrix, [
    ("the rod is taken as a point mass at its centre: its spread along its length is "
     "missing", {"rod": "point"}),
    ("the rod is given inertia about its own axis too, as if it were thick", {"rod": "ball"}),
    ("the offset d's share is missing: the link sits off joint 1's axis", {"offset": False}),
    ("M12 has the wrong sign", {"coupling": -1}),
    ("M is off by a factor of two against T = 1/2 qdᵀ M qd", {"half": True}),
    ("the turret's own moment J about z is missing from M11", {"turret": False}),
    ("the link is taken as vertical at q2 = 0, where it is level, along x",
     {"angle": "vertical"}),
])
