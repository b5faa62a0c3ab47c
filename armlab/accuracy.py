"""How far a computed motion can be trusted: linear solves, step sizes, orders.

Forward dynamics solves ``M(q) qdd = b`` at every step of a simulation, and
the simulation then steps that acceleration through time. Both steps lose
accuracy, and this module measures how much:

* :func:`cholesky_solve` solves ``M x = b`` through the Cholesky factor
  ``M = L L^T`` and two triangular solves, the way to solve a symmetric
  positive definite system (no inverse is formed);
* :func:`solve_errors` measures a computed solution exactly, in rational
  arithmetic: how far it is from the exact solution of the stored system
  (forward error) and how small a change of ``M`` and ``b`` would make it
  exact (backward error);
* :func:`step_sweep` runs one motion with the motors off at several plant
  steps, and measures each run's error against a reference;
* :func:`observed_order` reads an integrator's order off errors measured at
  several step sizes (the slope of the log-log line);
* :func:`growth_fit` and :func:`growth_rate` measure how fast a difference
  grows (the line through its logarithm against time), for the spread of
  nearby starts;
* :func:`step_matrix` writes one step of an integrator on the arm's small
  motions about a pose (joint springs and dampers) as a matrix, and
  :func:`stable_step` finds the largest step at which those motions do not
  grow.

Conventions: SI units; norms are the largest absolute entry (infinity norms).
"""

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from armlab._checks import finite_array, joint_vector, positive_scalar

__all__ = ["cholesky_solve", "solve_errors", "StepSweep", "step_sweep", "observed_order",
           "growth_fit", "growth_rate", "step_matrix", "stable_step"]


def _system(M, b):
    """``M`` as ``(..., n, n)`` and ``b`` as ``(..., n)`` float arrays, checked."""
    M = finite_array("M", M)
    b = finite_array("b", b)
    if M.ndim < 2 or M.shape[-1] != M.shape[-2]:
        raise ValueError(f"M has shape {M.shape}: expected square matrices (..., n, n)")
    n = M.shape[-1]
    if b.ndim == 0 or b.shape[-1] != n:
        raise ValueError(f"b has shape {b.shape} but M is {n} x {n}: expected shape (..., {n})")
    try:
        np.broadcast_shapes(M.shape[:-2], b.shape[:-1])
    except ValueError:
        raise ValueError(f"the batch dimensions of M {M.shape} and b {b.shape} do not "
                         "broadcast together") from None
    return M, b


def cholesky_solve(M, b):
    """Solve ``M x = b`` for a symmetric positive definite ``M`` by its Cholesky factor.

    ``M = L L^T`` with ``L`` lower triangular (about ``n^3 / 3`` floating-point
    operations), then ``L y = b`` by forward substitution and ``L^T x = y`` by
    back substitution (``2 n^2``). No inverse is formed. Forward dynamics
    solves ``M(q) qdd = tau - c - g - friction - J^T F`` this way.

    Parameters
    ----------
    M : (..., n, n) array_like
        Symmetric positive definite matrices, e.g. mass matrices [kg m^2].
        Only the lower triangle is read.
    b : (..., n) array_like
        Right-hand sides, e.g. the torque left for acceleration [N m].

    Returns
    -------
    x : (..., n) ndarray
        The solutions, e.g. joint accelerations [rad/s^2]; batch dimensions
        of ``M`` and ``b`` broadcast.

    Raises
    ------
    ValueError
        When ``M`` is not positive definite, or shapes do not fit.

    Examples
    --------
    The table-top arm's worked instant backwards: the torque (5.7796, 0.4443)
    N m at q = (30, 45) deg, qd = (1, 2) rad/s leaves ``b`` for the mass
    matrix, and the solve gives back the acceleration (3, -2) rad/s^2:

    >>> import armlab as al
    >>> arm, q, qd = al.tabletop_arm(), np.radians([30, 45]), [1.0, 2.0]
    >>> tau = al.inverse_dynamics(arm, q, qd, [3.0, -2.0])
    >>> b = tau - al.coriolis_torques(arm, q, qd) - al.gravity_torques(arm, q)
    >>> cholesky_solve(al.mass_matrix(arm, q), b).round(12)
    array([ 3., -2.])
    """
    M, b = _system(M, b)
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        raise ValueError("M is not positive definite: it has no Cholesky factor") from None
    n = M.shape[-1]
    batch = np.broadcast_shapes(M.shape[:-2], b.shape[:-1])
    L = np.broadcast_to(L, batch + (n, n))
    b = np.broadcast_to(b, batch + (n,))
    y = np.empty(batch + (n,))
    for i in range(n):                                      # L y = b, top row first
        y[..., i] = (b[..., i] - np.einsum("...j,...j->...", L[..., i, :i], y[..., :i])) \
            / L[..., i, i]
    x = np.empty_like(y)
    for i in reversed(range(n)):                            # L^T x = y, last row first
        x[..., i] = (y[..., i] - np.einsum("...j,...j->...", L[..., i + 1:, i], x[..., i + 1:])) \
            / L[..., i, i]
    return x


def _integers(values):
    """Floats as integers over one common power-of-two denominator: ``(ints, denominator)``."""
    fractions = [Fraction(v) for v in values]
    scale = max(f.denominator for f in fractions)
    return [f.numerator * (scale // f.denominator) for f in fractions], scale


def _exact_solution(a):
    """Exact solution of an integer system ``[M | b]`` (rows of ``n + 1`` ints), as ``(y, d)``.

    ``x* = y / d`` with integers ``y`` and ``d = det M`` (up to sign).
    Bareiss's fraction-free elimination keeps every intermediate an integer
    (each division is exact), and so does the back substitution of ``d x*``.
    """
    n = len(a)
    a = [list(row) for row in a]
    previous = 1
    for k in range(n):
        if a[k][k] == 0:
            swap = next((r for r in range(k + 1, n) if a[r][k] != 0), None)
            if swap is None:
                raise ValueError("M is singular: the system has no unique solution")
            a[k], a[swap] = a[swap], a[k]
        pivot, row_k = a[k][k], a[k]
        for i in range(k + 1, n):
            row_i = a[i]
            f = row_i[k]
            row_i[k] = 0
            for j in range(k + 1, n + 1):
                row_i[j] = (row_i[j] * pivot - f * row_k[j]) // previous
        previous = pivot
    d = a[n - 1][n - 1]                       # the determinant (up to the swaps' sign)
    y = [0] * n
    for j in reversed(range(n)):
        y[j] = (d * a[j][n] - sum(a[j][c] * y[c] for c in range(j + 1, n))) // a[j][j]
    return y, d


def solve_errors(M, b, x):
    """Forward and backward error of a computed solution of ``M x = b``, measured exactly.

    The stored ``M`` and ``b`` are read as the exact numbers they hold, and
    everything below is computed in exact (integer) arithmetic, so the errors
    are those of ``x`` alone:

    * forward error ``|x - x*| / |x*|``, with ``x*`` the exact solution of the
      stored system: how many digits of ``x`` are right;
    * backward error ``|b - M x| / (|M| |x| + |b|)`` (Rigal and Gaches): the
      smallest relative change of ``M`` and ``b`` for which ``x`` is exact.
      A method whose backward error stays near the unit roundoff (1.1e-16)
      is backward stable: its answer is exact for an arm a rounding error
      away from the one given.

    Infinity norms throughout (largest absolute entry; for ``M`` the largest
    row sum of absolute values).

    Parameters
    ----------
    M : (..., n, n) array_like
        The matrices, not singular.
    b : (..., n) array_like
        The right-hand sides.
    x : (..., n) array_like
        The computed solutions.

    Returns
    -------
    forward, backward : (...) ndarray
        Relative errors (dimensionless), one per system. Exact arithmetic
        costs about a millisecond per system of six unknowns: meant for
        checking, not for a simulation's loop.

    Examples
    --------
    ``x = (1, 1)`` solves ``[[2, 1], [1, 1]] x = (3, 2)`` exactly. ``(1, 1.5)``
    is 50 % off; its residual is 0.5 against ``|M| |x| + |b| = 3 * 1.5 + 3``,
    so it would be exact for a system changed by 1/15:

    >>> forward, backward = solve_errors([[2.0, 1.0], [1.0, 1.0]], [3.0, 2.0],
    ...                                  [[1.0, 1.0], [1.0, 1.5]])
    >>> forward, backward.round(4)
    (array([0. , 0.5]), array([0.    , 0.0667]))
    """
    M, b = _system(M, b)
    x = finite_array("x", x)
    n = M.shape[-1]
    if x.ndim == 0 or x.shape[-1] != n:
        raise ValueError(f"x has shape {x.shape} but M is {n} x {n}: expected shape (..., {n})")
    try:
        batch = np.broadcast_shapes(M.shape[:-2], b.shape[:-1], x.shape[:-1])
    except ValueError:
        raise ValueError(f"the batch dimensions of M {M.shape}, b {b.shape} and x {x.shape} "
                         "do not broadcast together") from None
    Ms = np.broadcast_to(M, batch + (n, n)).reshape(-1, n * n)
    bs = np.broadcast_to(b, batch + (n,)).reshape(-1, n)
    xs = np.broadcast_to(x, batch + (n,)).reshape(-1, n)
    forward, backward = [], []
    for Mk, bk, xk in zip(Ms.tolist(), bs.tolist(), xs.tolist()):   # exact: one at a time
        ints, _ = _integers(Mk + bk)                   # [M | b] over one denominator
        Mi = [ints[r * n:(r + 1) * n] for r in range(n)]
        bi = ints[n * n:]
        xi, xden = _integers(xk)                       # x = xi / xden
        y, d = _exact_solution([row + [w] for row, w in zip(Mi, bi)])   # x* = y / d
        gap = max(abs(u * d - v * xden) for u, v in zip(xi, y))         # |x - x*| xden |d|
        size = max(abs(v) for v in y) * xden                            # |x*| xden |d|
        forward.append(float(Fraction(gap, size)) if size else (0.0 if gap == 0 else math.inf))
        residual = max(abs(w * xden - sum(m * v for m, v in zip(row, xi)))
                       for row, w in zip(Mi, bi))                       # |b - M x| xden
        scale = (max(sum(map(abs, row)) for row in Mi) * max(map(abs, xi))
                 + max(map(abs, bi)) * xden)
        backward.append(float(Fraction(residual, scale)) if scale else 0.0)
    return np.array(forward).reshape(batch), np.array(backward).reshape(batch)


def observed_order(steps, errors):
    """The order ``p`` of a method read off its errors: the slope of ``log error`` on ``log step``.

    A method of order ``p`` has errors close to ``C h^p`` for small steps
    ``h``; on a log-log plot they lie on a line of slope ``p``. The slope is
    fitted by least squares through all the points given, so give steps
    small enough to be in that regime and errors large enough to be above
    rounding.

    Parameters
    ----------
    steps : (k,) array_like
        Step sizes [s], positive, at least two different.
    errors : (k,) array_like
        The error measured at each step (any unit), positive.

    Returns
    -------
    p : float
        The measured order (dimensionless).

    Examples
    --------
    Errors that shrink tenfold per tenfold smaller step are first order;
    ten-thousandfold, fourth order:

    >>> round(observed_order([1e-3, 1e-4, 1e-5], [2e-2, 2e-3, 2e-4]), 12)
    1.0
    >>> round(observed_order([1e-3, 1e-4], [3e-6, 3e-10]), 12)
    4.0
    """
    h = finite_array("steps", steps)
    e = finite_array("errors", errors)
    if h.ndim != 1 or h.size < 2:
        raise ValueError(f"steps has shape {h.shape}: expected (k,) with k >= 2")
    if e.shape != h.shape:
        raise ValueError(f"errors has shape {e.shape}: expected {h.shape}, one per step")
    if np.any(h <= 0):
        raise ValueError(f"steps must be positive, got {h.tolist()}")
    if np.any(e <= 0):
        raise ValueError(f"errors must be positive (an error of zero has no logarithm), "
                         f"got {e.tolist()}")
    if np.ptp(h) == 0:
        raise ValueError("steps must hold at least two different step sizes")
    return float(np.polyfit(np.log(h), np.log(e), 1)[0])


@dataclass(frozen=True)
class StepSweep:
    """One motion simulated at several plant steps, and how far each run is off.

    Attributes
    ----------
    steps : (k,) ndarray
        Plant steps [s], as given.
    method : str
        The integrator (one of :data:`armlab.simulation.METHODS`).
    q_end : (k, n) ndarray
        Joint angles at the end of each run [rad].
    reference : (n,) ndarray
        The reference's joint angles at the end [rad].
    angle_error : (k,) ndarray
        Largest ``|q_end - reference|`` over the joints [rad].
    energy_error : (k,) ndarray
        Largest size of each run's energy error along the motion,
        ``max |E(t) - E(0) + friction work|`` [J] (the motors are off).
    evaluations : (k,) ndarray of int
        Forward-dynamics evaluations each run made (steps, times four for RK4).
    """

    steps: np.ndarray
    method: str
    q_end: np.ndarray
    reference: np.ndarray
    angle_error: np.ndarray
    energy_error: np.ndarray
    evaluations: np.ndarray


def step_sweep(arm, q0, duration, steps, method, *, qd0=None, reference=None):
    """Simulate one motion with the motors off at several plant steps; measure each run's error.

    Each run is :func:`armlab.simulate` with zero torque, one plant step per
    control tick (``control_dt = h``, ``substeps = 1``): with the motors off
    the tick plays no part, so only the integrator and its step differ.

    Parameters
    ----------
    arm : PlanarArm
        The arm, with its friction.
    q0 : (n,) array_like
        Starting angles [rad].
    duration : float
        Simulated time [s]; every step must divide it.
    steps : (k,) array_like
        Plant steps [s], positive.
    method : str
        The integrator, one of :data:`armlab.simulation.METHODS`.
    qd0 : (n,) array_like, optional
        Starting speeds [rad/s]; default at rest.
    reference : (n,) array_like, optional
        The exact angles at ``duration`` as far as you know them [rad].
        Default: RK4 with a step ten times smaller than the smallest of
        ``steps`` (which can take long: pass your own for fine steps).

    Returns
    -------
    StepSweep

    Examples
    --------
    The table-top arm's zero-torque fall from (30, 45) deg for 0.25 s, by
    semi-implicit Euler at 1 ms and 0.1 ms, against RK4 at 0.01 ms: a
    tenfold smaller step, a tenfold smaller error:

    >>> from armlab import tabletop_arm
    >>> arm, q0 = tabletop_arm(damping=0.02), np.radians([30, 45])
    >>> sweep = step_sweep(arm, q0, 0.25, [1e-3, 1e-4], "semi_implicit_euler",
    ...                    reference=np.radians([-35.3284, 98.6991]))
    >>> np.degrees(sweep.angle_error).round(3)
    array([0.326, 0.032])
    >>> round(observed_order(sweep.steps, sweep.angle_error), 1)
    1.0
    """
    from armlab.simulation import METHODS, simulate

    q0 = joint_vector(arm, "q0", q0)
    if q0.ndim != 1:
        raise ValueError(f"q0 has shape {q0.shape}: expected one start ({arm.n},)")
    T = positive_scalar("duration", duration, "s", "time")
    h = finite_array("steps", steps)
    if h.ndim != 1 or h.size == 0 or np.any(h <= 0):
        raise ValueError(f"steps must be a (k,) array of positive steps [s], got {steps!r}")
    counts = np.round(T / h)
    if np.any(np.abs(counts * h - T) > 1e-9 * T):
        raise ValueError(f"steps {h.tolist()} must each divide the duration {T!r} s")
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, "
                         f"got {method!r}")

    def run(step, how):
        return simulate(arm, q0, T, qd0=qd0, control_dt=float(step), substeps=1,
                        method=how)

    if reference is None:
        reference = run(h.min() / 10, "rk4").q[-1]
    ref = joint_vector(arm, "reference", reference)
    if ref.shape != (arm.n,):
        raise ValueError(f"reference has shape {ref.shape}: expected ({arm.n},) angles [rad]")
    sims = [run(step, method) for step in h.tolist()]
    q_end = np.array([sim.q[-1] for sim in sims])
    per_step = 4 if method == "rk4" else 1
    return StepSweep(steps=h.copy(), method=method, q_end=q_end, reference=ref.copy(),
                     angle_error=np.abs(q_end - ref).max(axis=-1),
                     energy_error=np.array([np.abs(sim.energy_error).max() for sim in sims]),
                     evaluations=(counts * per_step).astype(int))


def growth_fit(time, size, low, high):
    """Fit exponential growth, ``size ~ start * exp(rate t)``: the line through ``log(size)``.

    Fitted by least squares on the samples whose size lies between ``low`` and
    ``high``: above the start's own scale, below saturation. A size that grows
    like ``exp(rate t)`` doubles every ``log(2) / rate`` seconds. To draw the
    fit, plot ``start * exp(rate * t)`` over the fitted times.

    Parameters
    ----------
    time : (k,) array_like
        [s].
    size : (k,) array_like
        A positive size at each time (any unit), e.g. the spread of the joint
        angles of runs started close together [deg].
    low, high : float
        The window of sizes fitted (same unit as ``size``), ``0 < low < high``.

    Returns
    -------
    rate : float
        [1/s], the slope of the fitted line.
    start : float
        The fitted line's size at ``t = 0`` (unit of ``size``), ``exp`` of its
        intercept: not a sample, the line's own value.

    Examples
    --------
    A spread of 0.01 deg that doubles every 0.25 s:

    >>> t = np.linspace(0, 2, 201)
    >>> rate, start = growth_fit(t, 0.01 * 2 ** (t / 0.25), 0.02, 1.0)
    >>> round(rate, 4), round(math.log(2) / rate, 4), round(start, 6)
    (2.7726, 0.25, 0.01)
    """
    t = finite_array("time", time)
    s = np.asarray(size, dtype=float)
    if t.ndim != 1 or s.shape != t.shape:
        raise ValueError(f"time has shape {t.shape} and size {s.shape}: expected the same (k,)")
    lo = float(finite_array("low", low))
    hi = float(finite_array("high", high))
    if not 0 < lo < hi:
        raise ValueError(f"low and high must satisfy 0 < low < high, got {low!r}, {high!r}")
    inside = np.isfinite(s) & (s >= lo) & (s <= hi)
    if np.count_nonzero(inside) < 2 or np.ptp(t[inside]) == 0:
        raise ValueError(f"fewer than two samples of size lie between low = {lo:g} and "
                         f"high = {hi:g}: widen the window")
    slope, intercept = np.polyfit(t[inside], np.log(s[inside]), 1)
    return float(slope), float(np.exp(intercept))


def growth_rate(time, size, low, high):
    """How fast a size grows exponentially: the slope of ``log(size)`` against time.

    The ``rate`` of :func:`growth_fit`, which has the parameters and also
    returns the fitted line's value at ``t = 0``.

    Returns
    -------
    rate : float
        [1/s].

    Examples
    --------
    A spread of 0.01 deg that doubles every 0.25 s:

    >>> t = np.linspace(0, 2, 201)
    >>> rate = growth_rate(t, 0.01 * 2 ** (t / 0.25), 0.02, 1.0)
    >>> round(rate, 4), round(math.log(2) / rate, 4)
    (2.7726, 0.25)
    """
    return growth_fit(time, size, low, high)[0]


# ----------------------------------------------------------------------------- stability

def _linear_parts(arm, q, spring, damping):
    """``a = M^-1 K`` and ``b = M^-1 D`` at the poses ``q``, ``(..., n, n)`` each."""
    from armlab.dynamics import mass_matrix

    n = arm.n
    q = joint_vector(arm, "q", q)
    stiff = finite_array("spring", spring)
    damp = finite_array("damping", damping)
    for name, value in (("spring", stiff), ("damping", damp)):
        if value.ndim and value.shape[-1] != n:
            raise ValueError(f"{name} has shape {value.shape}: expected a scalar or (..., {n}), "
                             "one value per joint")
        if np.any(value < 0):
            raise ValueError(f"{name} must not be negative, got {value.tolist()}")
    friction = np.asarray(arm.damping, dtype=float) * np.asarray(arm.gear_ratio, dtype=float) ** 2
    try:
        shape = np.broadcast_shapes(q.shape[:-1], stiff.shape[:-1] if stiff.ndim else (),
                                    damp.shape[:-1] if damp.ndim else ())
    except ValueError:
        raise ValueError(f"the batch shapes of q {q.shape}, spring {stiff.shape} and damping "
                         f"{damp.shape} do not broadcast together") from None
    M = np.broadcast_to(mass_matrix(arm, q), shape + (n, n))
    K = np.broadcast_to(stiff, shape + (n,))
    D = np.broadcast_to(damp + friction, shape + (n,))
    a = np.linalg.solve(M, K[..., None, :] * np.eye(n))          # M^-1 diag(K)
    b = np.linalg.solve(M, D[..., None, :] * np.eye(n))
    return a, b


def _step_matrices(a, b, h, method):
    """The one-step maps ``(..., 2n, 2n)`` of the linear motion ``qdd = -a q - b qd``."""
    n = a.shape[-1]
    h = np.asarray(h, dtype=float)[..., None, None]
    eye = np.eye(n)
    if method == "semi_implicit_euler":
        speed = eye - h * b                                         # qd_new = speed qd - h a q
        top = np.concatenate([eye - h * h * a, h * speed], axis=-1)    # q_new = q + h qd_new
        bottom = np.concatenate([np.broadcast_to(-h * a, speed.shape), speed], axis=-1)
        return np.concatenate([top, bottom], axis=-2)
    zero = np.zeros_like(a)
    F = np.concatenate([np.concatenate([zero, np.broadcast_to(eye, a.shape)], axis=-1),
                        np.concatenate([-a, -b], axis=-1)], axis=-2)
    hF = h * F
    eye2 = np.eye(2 * n)
    if method == "explicit_euler":
        return eye2 + hF
    # RK4 on a linear system: the Taylor polynomial of exp(hF) to fourth order
    A, term = eye2 + hF, hF
    for k in (2, 3, 4):
        term = term @ hF / k
        A = A + term
    return A


def _method(method):
    from armlab.simulation import METHODS

    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, "
                         f"got {method!r}")
    return method


def step_matrix(arm, q, h, spring, *, damping=0.0, method="semi_implicit_euler"):
    """One integrator step on the arm's small motions about a pose, as a matrix.

    Near a pose ``q`` at rest, an arm with torsion springs ``K`` at its joints
    (``spring``, as in :func:`armlab.simulate`; a PD's ``Kp`` acts the same way
    when it is evaluated at every step) and dampers ``D`` (``damping`` plus the
    arm's own viscous friction) moves by the linear equation

    ``M(q) dqdd + D dqd + K dq = 0``,   i.e.   ``x' = F x``,
    ``F = [[0, I], [-a, -b]]``,  ``a = M^-1 K``,  ``b = M^-1 D``,

    for ``x = (dq, dqd)``: the velocity-product terms are of second order in
    the speeds, and gravity's stiffness and Coulomb friction are left out. One
    step of size ``h`` of each method is a linear map ``x_{k+1} = A x_k``:

    * explicit Euler: ``A = I + h F``;
    * semi-implicit Euler (speed first, then angle with the new speed):
      ``A = [[I - h^2 a, h (I - h b)], [-h a, I - h b]]``;
    * RK4: ``A = I + hF + (hF)^2/2 + (hF)^3/6 + (hF)^4/24``.

    The motion grows, step after step, when an eigenvalue of ``A`` lies outside
    the unit circle (see :func:`stable_step`).

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        The pose [rad].
    h : float or (...) array_like
        Step [s].
    spring : float or (..., n) array_like
        Joint stiffness [N m/rad], not negative.
    damping : float or (..., n) array_like, optional
        Joint damping besides the arm's viscous friction [N m s/rad], not
        negative (a PD's ``Kd``). Default 0.
    method : {"semi_implicit_euler", "explicit_euler", "rk4"}, optional

    Returns
    -------
    A : (..., 2n, 2n) ndarray
        Acting on ``(dq [rad], dqd [rad/s])``.

    Examples
    --------
    A joint of inertia 0.03 kg m^2 on a 300 N m/rad spring rings at
    omega = 100 rad/s. With h omega = 1 explicit Euler's eigenvalues are
    ``1 +- i h omega``, of size sqrt(2): the motion grows at every step;
    semi-implicit Euler's lie on the unit circle:

    >>> from armlab import PlanarArm
    >>> rod = PlanarArm(lengths=[0.3], masses=[1.0], gravity=0.0)
    >>> for method in ("explicit_euler", "semi_implicit_euler"):
    ...     A = step_matrix(rod, [0.0], 0.01, 300.0, method=method)
    ...     print(method, A.round(3).tolist(), np.abs(np.linalg.eigvals(A)).round(4))
    explicit_euler [[1.0, 0.01], [-100.0, 1.0]] [1.4142 1.4142]
    semi_implicit_euler [[0.0, 0.01], [-100.0, 1.0]] [1. 1.]
    """
    a, b = _linear_parts(arm, q, spring, damping)
    step = finite_array("h", h)
    if np.any(step <= 0):
        raise ValueError(f"h must be positive, got {step.tolist()}")
    return _step_matrices(a, b, step, _method(method))


def stable_step(arm, q, spring, *, damping=0.0, method="semi_implicit_euler"):
    """The largest step at which an integrator keeps the arm's small motions from growing.

    For the linear motion of :func:`step_matrix` (joint springs ``K``, dampers
    ``D`` about the pose ``q``), the largest ``h`` such that every step up to
    ``h`` keeps all eigenvalues of the step matrix within the unit circle.
    For one joint without damping, of frequency ``omega = sqrt(K / I)``:

    * explicit Euler: 0, no step is stable (eigenvalues ``1 +- i h omega``);
    * semi-implicit Euler: ``2 / omega`` (eigenvalues on the unit circle
      while ``h omega < 2``);
    * RK4: ``2 sqrt(2) / omega``, about ``2.83 / omega``.

    With damping of ratio ``zeta`` explicit Euler is stable up to
    ``2 zeta / omega`` (for ``zeta <= 1``) and semi-implicit Euler up to
    ``2 (sqrt(1 + zeta^2) - zeta) / omega``: damping lowers its bound. For
    several joints the fastest mode sets the bound. Gravity's stiffness is left
    out; a bound matters for stiff springs, beside which it is small.

    Explicit Euler's bound is exact (each eigenvalue ``lam`` of ``F`` allows
    ``h < -2 Re(lam) / |lam|^2``); the others are found by scanning the steps up
    to a few times ``1 / |lam|_max`` and bisecting the first step whose matrix
    has an eigenvalue larger than ``1 + 1e-9`` in size.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        The pose [rad].
    spring : float or (..., n) array_like
        Joint stiffness [N m/rad], not negative (a PD's ``Kp``).
    damping : float or (..., n) array_like, optional
        Joint damping besides the arm's viscous friction [N m s/rad] (a PD's
        ``Kd``). Default 0.
    method : {"semi_implicit_euler", "explicit_euler", "rk4"}, optional

    Returns
    -------
    h_max : (...) ndarray
        [s]; ``inf`` when nothing pulls or damps the joints (any step is
        stable), 0 when no step is.

    Examples
    --------
    The 0.03 kg m^2 joint on a 300 N m/rad spring (omega = 100 rad/s):

    >>> from armlab import PlanarArm
    >>> rod = PlanarArm(lengths=[0.3], masses=[1.0], gravity=0.0)
    >>> [round(float(stable_step(rod, [0.0], 300.0, method=m)) * 100, 6)
    ...  for m in ("explicit_euler", "semi_implicit_euler", "rk4")]
    [0.0, 2.0, 2.828427]

    Critical damping, Kd = 2 sqrt(K I) = 6 N m s/rad (zeta = 1): explicit
    Euler becomes stable up to h omega = 2, semi-implicit Euler only up to
    2 (sqrt(2) - 1) = 0.83:

    >>> [round(float(stable_step(rod, [0.0], 300.0, damping=6.0, method=m)) * 100, 4)
    ...  for m in ("explicit_euler", "semi_implicit_euler")]
    [2.0, 0.8284]
    """
    method = _method(method)
    a, b = _linear_parts(arm, q, spring, damping)
    shape, n = a.shape[:-2], a.shape[-1]
    zero = np.zeros_like(a)
    F = np.concatenate([np.concatenate([zero, np.broadcast_to(np.eye(n), a.shape)], axis=-1),
                        np.concatenate([-a, -b], axis=-1)], axis=-2)
    lam = np.linalg.eigvals(F)                                      # (..., 2n)
    size = np.abs(lam)
    r = size.max(axis=-1)
    moving = size > 1e-12 * np.maximum(r, 1e-300)[..., None]       # a zero eigenvalue: a free drift
    if method == "explicit_euler":
        # an undamped mode's eigenvalues are imaginary: a real part at rounding's size
        # (2.7e-18 s from eigvals at a bent pose) is none, so its bound is exactly 0
        decay = np.where(np.abs(lam.real) <= 1e-12 * size, 0.0, -lam.real)
        with np.errstate(divide="ignore", invalid="ignore"):
            each = np.where(moving, np.maximum(2.0 * decay / size ** 2, 0.0), np.inf)
        out = each.min(axis=-1)
        return np.where(r > 0, out, np.inf)
    flat_a, flat_b = a.reshape((-1, n, n)), b.reshape((-1, n, n))
    radius = r.reshape(-1)
    h_max = np.full(radius.shape, np.inf)
    live = radius > 0
    if np.any(live):
        h_max[live] = _first_unstable(flat_a[live], flat_b[live], radius[live], method)
    return h_max.reshape(shape)


def _first_unstable(a, b, radius, method, points=256, tol=1e-9):
    """Scan ``h`` in ``(0, span]`` (``span`` a few ``1 / radius``) and bisect the first step
    at which the step matrix's spectral radius passes ``1 + tol``; one value per system."""

    def grows(h, a_, b_):
        return np.abs(np.linalg.eigvals(_step_matrices(a_, b_, h, method))).max(-1) > 1 + tol

    count = radius.shape[0]
    low, high = np.zeros(count), np.full(count, np.nan)
    span = 4.0 / radius
    for _ in range(6):                                              # widen if none is found
        todo = np.isnan(high)
        if not np.any(todo):
            break
        grid = span[todo, None] * np.arange(1, points + 1) / points    # (m, points)
        m = grid.shape[0]
        bad = grows(grid.reshape(-1), np.repeat(a[todo], points, axis=0),
                    np.repeat(b[todo], points, axis=0)).reshape(m, points)
        found = bad.any(axis=1)
        first = np.argmax(bad, axis=1)
        index = np.flatnonzero(todo)
        hit = index[found]
        high[hit] = grid[found, first[found]]
        low[hit] = np.where(first[found] > 0, grid[found, first[found] - 1], 0.0)
        span[todo] *= 4.0
    unbounded = np.isnan(high)
    high = np.where(unbounded, np.inf, high)
    pending = ~unbounded
    for _ in range(60):                                             # bisection
        if not np.any(pending):
            break
        mid = 0.5 * (low[pending] + high[pending])
        bad = grows(mid, a[pending], b[pending])
        idx = np.flatnonzero(pending)
        high[idx[bad]] = mid[bad]
        low[idx[~bad]] = mid[~bad]
    return np.where(unbounded, np.inf, low)
