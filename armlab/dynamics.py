"""Rigid-body dynamics of a planar arm.

The equation of motion, one convention everywhere::

    M(q) qdd + c(q, qd) + g(q) + friction(qd) = tau - J(q)^T tip_force

``c`` is the velocity-product vector (``C(q, qd) qd``), ``g`` the torque that
*balances* gravity, ``friction`` the torque the motors add to *overcome*
friction, and ``tip_force`` the force the arm's tip applies to the environment.
Units are SI: [rad], [rad/s], [rad/s^2], [N m], [kg m^2], [J].

Two independent routes compute inverse dynamics: the closed form
``M qdd + c + g`` assembled from the centre-of-mass Jacobians
(:func:`inverse_dynamics`) and the recursive Newton-Euler algorithm
(:func:`rnea`). They agree to rounding for any number of links.

How the code is laid out (for speed)
------------------------------------
Each route is one *link-loop kernel*: plain arithmetic over the links, written
once, that runs either on Python floats (one state: no numpy overhead per
operation) or on 1-D numpy arrays holding one joint's values for a block of
states (a batch, processed block by block so that the temporaries stay small
and in cache). Loops run over links, never over states. A simulation, which
steps one state thousands of times, runs these same kernels on floats through
:func:`_one_state_dynamics`, without the public functions' input checks.
"""

import math
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

import numpy as np

from armlab._checks import batch_shape, joint_vector, planar_vector

__all__ = [
    "mass_matrix", "mass_matrix_rate", "coriolis_torques", "gravity_torques",
    "friction_torques", "torque_parts", "inverse_dynamics", "rnea", "forward_dynamics",
    "kinetic_energy", "potential_energy",
]

# ---------------------------------------------------------------------------
# Per-arm constants, the two back ends, and the driver that feeds the kernels.


class _Consts:
    """Plain-float constants of one arm, derived once and cached on it."""

    __slots__ = ("n", "L", "lc", "m", "inertia", "gx", "gy", "B", "Tc", "coulomb", "friction",
                 "zeros", "coef", "a0", "two_L", "m_lc", "backward", "plan")

    def __init__(self, arm):
        A = arm._arrays
        n = arm.n
        self.n = n
        self.zeros = (0.0,) * n
        self.L, self.lc, self.m = arm.lengths, arm.com, arm.masses
        self.inertia = arm.inertia
        self.gx, self.gy = arm.gravity
        self.B = tuple(float(b) for b in A["B"])
        self.Tc = tuple(float(t) for t in A["Tc"])
        self.coulomb = any(self.Tc)
        self.friction = any(self.B) or self.coulomb
        # tail[k]: mass of links k, k + 1, ..., n - 1
        tail = [0.0] * (n + 1)
        for k in reversed(range(n)):
            tail[k] = tail[k + 1] + self.m[k]
        L, lc, m, inertia = self.L, self.lc, self.m, self.inertia
        # B_k = coef_k e_k + B_{k+1};  A_k = a0_k + A_{k+1} + 2 L_k e_k . B_{k+1}
        self.coef = tuple(m[k] * lc[k] + tail[k + 1] * L[k] for k in range(n))
        self.a0 = tuple(m[k] * lc[k] ** 2 + inertia[k] + tail[k + 1] * L[k] ** 2
                        for k in range(n))
        self.two_L = tuple(2.0 * x for x in L)
        self.m_lc = tuple(m[k] * lc[k] for k in range(n))
        # what the closed form's inward loop needs about link j, tip first: its numbers,
        # where M_jj sits in the flat matrix, and (i, L_i, where M_ij and M_ji sit) for i < j
        self.backward = [(j, L[j], m[j], self.m_lc[j], self.coef[j], self.a0[j], self.two_L[j],
                          j * n + j, [(i, L[i], i * n + j, j * n + i) for i in reversed(range(j))])
                         for j in reversed(range(n))]
        self.plan = _elimination_plan(n)


def _consts(arm):
    try:
        return arm._consts
    except AttributeError:                    # first use: derive once, keep on the arm
        k = _Consts(arm)
        object.__setattr__(arm, "_consts", k)
        return k


def _fsign(x):
    return float((x > 0) - (x < 0))


# (sin, cos, sign) for one state in floats, or for blocks of states in arrays
_FLOATS = (math.sin, math.cos, _fsign)
_ARRAYS = (np.sin, np.cos, np.sign)
_BLOCK = 8192            # states per block in a batch
_STATE = ("q", "qd", "qdd")


def _three(n, a, b, c):
    """:func:`_one_state` for three arguments, unrolled (the hottest path)."""
    try:
        if len(a) != n or len(b) != n or len(c) != n:
            return None
        a, b, c = a.tolist(), b.tolist(), c.tolist()          # three (n,) arrays, the usual
        total = sum(a) + sum(b) + sum(c)
    except AttributeError:                                      # lists or tuples among them
        return _one_state(n, a, b, c)
    except (TypeError, ValueError, OverflowError):              # a scalar, a batch, odd data
        return None
    if type(total) is float and total - total == 0:
        return a, b, c
    return _checked([a, b, c])                                  # ints, or not finite


def _one_state(n, *values):
    """Lists of n floats, one per argument, when each is plainly one finite state; else None.

    The fast path of the public functions: a ``(n,)`` array, list or tuple of
    finite numbers each. Anything else (other shapes, NaN, inf, non-numbers)
    returns None and goes to the general path, which validates it and raises
    the proper error.
    """
    out = []
    try:
        for v in values:
            if len(v) != n:
                return None
            out.append(v.tolist() if type(v) is np.ndarray else list(v))
    except (TypeError, AttributeError, ValueError):
        return None
    return _checked(out)


def _checked(lists):
    """``lists`` if every entry is a finite float (ints converted), else None."""
    try:
        total = sum(map(sum, lists))
    except (TypeError, ValueError, OverflowError):          # nested (a batch), text, huge ints
        return None
    if type(total) is float:
        return lists if total - total == 0 else None       # NaN or inf somewhere
    if type(total) is int:                                  # ints or bools among the numbers
        try:
            lists = [[float(x) for x in v] for v in lists]
        except (TypeError, ValueError, OverflowError):
            return None
        return lists if all(math.isfinite(x) for v in lists for x in v) else None
    return None


def _drive(kernel, named, tails):
    """Run a link-loop kernel over a broadcast batch.

    ``named`` maps argument names to validated arrays of shape ``(..., w)``;
    ``kernel`` is called with one list of components per array (floats for a
    single state, 1-D arrays for a block of states) and the back end, and
    returns one flat list of components per output; ``tails`` gives each
    output's trailing shape.
    """
    batch = batch_shape(**named)
    arrays = list(named.values())
    sizes = [math.prod(t) for t in tails]
    if batch == ():
        try:
            res = kernel(*[a.tolist() for a in arrays], _FLOATS)
        except (ValueError, OverflowError):                 # math: cos(inf) and the like
            raise _not_finite(named) from None
        outs = [np.array(r, dtype=float).reshape(t) for r, t in zip(res, tails)]
        if not all(np.all(np.isfinite(out)) for out in outs):
            raise _not_finite(named)
        return outs
    count = math.prod(batch)
    flat = []
    for a in arrays:
        if a.ndim == 1:
            flat.append(a.tolist())          # shared by every state
        else:
            flat.append(np.broadcast_to(a, batch + a.shape[-1:]).reshape(count, a.shape[-1]))
    outs = [np.empty((count, s)) for s in sizes]
    with np.errstate(all="ignore"):          # non-finite results are refused below
        for start in range(0, count, _BLOCK):
            stop = min(start + _BLOCK, count)
            comps = [f if type(f) is list else list(np.ascontiguousarray(f[start:stop].T))
                     for f in flat]
            for out, res in zip(outs, kernel(*comps, _ARRAYS)):
                for j, value in enumerate(res):
                    out[start:stop, j] = value
    if not all(np.all(np.isfinite(out)) for out in outs):
        raise _not_finite(named)
    return [out.reshape(batch + t) for out, t in zip(outs, tails)]


class _NotFinite(ValueError):
    """Finite input, non-finite result: values too large, or a singular mass matrix."""


def _not_finite(names):
    return _NotFinite(f"the result is not finite for finite input ({', '.join(names)}): "
                      "values too large for floating point arithmetic")


def _finite_floats(values, names):
    """``np.array(values)`` for a fast-path result, refusing inf and NaN."""
    total = sum(values)
    if total - total != 0:
        raise _not_finite(names)
    return np.array(values)


def _batch_states(arm, **named):
    """Validate joint vectors ``(..., n)`` (general path), keeping their names."""
    return {name: joint_vector(arm, name, value) for name, value in named.items()}


# ---------------------------------------------------------------------------
# Route 1: the closed form M(q) qdd + c(q, qd) + g(q), from centre-of-mass Jacobians.
#
# With P_j the joint positions, C_i the centres of mass and z x the planar
# cross product, column j of link i's centre-of-mass Jacobian is z x (C_i - P_j)
# (j <= i). Then, summing over links i >= max(j, k):
#   M_jk = sum m_i (C_i - P_j).(C_i - P_k) + I_i
#   c_j  = sum m_i (C_i - P_j) x (Jc_dot qd)_i
#   g_j  = -sum m_i (C_i - P_j) x gravity
# Gathering links beyond k into  B_k = sum_{i>=k} m_i (C_i - P_k)  and
# A_k = sum_{i>=k} m_i |C_i - P_k|^2 + I_i  gives every entry in O(1):
#   M_kk = A_k,  M_jk = A_k + (P_k - P_j).B_k  (j < k),  g_k = -B_k x gravity.


def _closed_form(k, ops, q, qd, qdd=None, force=None, mass=False, total=False):
    """The closed form's pieces for one state (floats) or one block of states (arrays).

    ``qd`` is required (pass zeros when it does not matter: float zeros cost
    nothing in a batch). Returns ``(M, Mqdd, c, g, JtF)``, each a list over the
    joints: ``M`` flat row-major (None unless ``mass``), ``M qdd`` (None
    without ``qdd``), ``J^T F`` (None without ``force``). With ``total``,
    ``c`` holds instead the sum ``M qdd + c + g + J^T F`` (of the terms asked
    for) and ``g`` is None.
    """
    sin, cos = ops[0], ops[1]
    n, L = k.n, k.L
    # outwards, per link: direction e, squared speed, centripetal acceleration of its joint
    links = []
    phi, w, ax, ay = q[0], qd[0], 0.0, 0.0
    for i in range(n):
        if i:
            phi = phi + q[i]
            w = w + qd[i]
        c = cos(phi)
        s = sin(phi)
        ww = w * w
        links.append((c, s, ww, ax, ay))
        if i < n - 1:
            t = ww * L[i]
            ax = ax - t * c
            ay = ay - t * s
    M = [None] * (n * n) if mass else None
    mq = [0.0] * n if qdd is not None else None
    cv = [None] * n
    g = None if total else [None] * n
    jtf = [None] * n if force is not None else None
    gx, gy = k.gx, k.gy
    # beyond link j: B_{j+1}, A_{j+1}, sum m_i a_i, sum m_i (C_i - P_{j+1}) x a_i, tip - P_{j+1}
    Bx = By = A = Px = Py = Q = Rx = Ry = 0.0
    for j, Lj, mj, mlc, cj, a0j, twoL, jj, inner in k.backward:
        c, s, ww, jx, jy = links[j]
        A = a0j + A + twoL * (c * Bx + s * By)
        Bx = cj * c + Bx
        By = cj * s + By
        # column j of M: M_jj = A_j, M_ij = A_j + (P_j - P_i).B_j for i < j
        if mass:
            M[jj] = acc = A
            for i, Li, ij, ji in inner:
                ei = links[i]
                acc = acc + Li * (ei[0] * Bx + ei[1] * By)
                M[ij] = M[ji] = acc
        if mq is not None:
            qj = qdd[j]
            mqj = mq[j] + A * qj
            if j:
                acc = A
                for i, Li, _, _ in inner:
                    ei = links[i]
                    acc = acc + Li * (ei[0] * Bx + ei[1] * By)
                    mq[i] = mq[i] + acc * qj
                    mqj = mqj + acc * qdd[i]
            mq[j] = mqj                        # complete: columns > j came earlier
        gj = By * gx - Bx * gy
        # c_j: link j's own centre of mass, then the links beyond seen from joint j
        t = mlc * ww
        Q = mlc * (c * jy - s * jx) + Q + Lj * (c * Py - s * Px)
        Px = mj * jx - t * c + Px
        Py = mj * jy - t * s + Py
        if total:
            cv[j] = Q + gj + mqj if mq is not None else Q + gj
        else:
            cv[j] = Q
            g[j] = gj
        if jtf is not None:
            Rx = Lj * c + Rx
            Ry = Lj * s + Ry
            jtf[j] = f = Rx * force[1] - Ry * force[0]
            if total:
                cv[j] = cv[j] + f
    return M, mq, cv, g, jtf


def _friction(k, ops, qd):
    """Torques that overcome friction, ``B qd + Tc sign(qd)``, as a list over joints."""
    if k.coulomb:
        sign = ops[2]
        return [b * v + t * sign(v) if (b or t) else 0.0 for b, t, v in zip(k.B, k.Tc, qd)]
    return [b * v if b else 0.0 for b, v in zip(k.B, qd)]


def _closed_tau(k, ops, q, qd, qdd, force=None):
    """Inverse dynamics by the closed form, as a list over joints."""
    tau = _closed_form(k, ops, q, qd, qdd, force, total=True)[2]
    if k.friction:
        tau = [t + f for t, f in zip(tau, _friction(k, ops, qd))]
    return tau


def _elimination_plan(n):
    """The index bookkeeping of :func:`_solve_spd` for an ``n x n`` system, made once per arm.

    ``elim``: per pivot ``j``, the pivot's flat index and, per row ``r`` below
    it, the flat index of ``a[j, r]`` and the (target, source) pairs of the
    row update (upper triangle only: the rest stays symmetric). ``back``: per
    row, from the last, its diagonal and the (``a[j, c]``, ``c``) pairs.
    """
    elim = [(j * n + j, j, [(j * n + r, r, [(r * n + c, j * n + c) for c in range(r, n)])
                            for r in range(j + 1, n)])
            for j in range(n - 1)]
    back = [(j, j * n + j, [(j * n + c, c) for c in range(j + 1, n)])
            for j in range(n - 1, -1, -1)]
    return elim, back


def _solve_spd(a, x, plan):
    """Solve ``M x = b`` for a symmetric positive definite ``M``, in place.

    ``a``: ``M`` as a flat row-major list, ``x``: ``b`` as a list; both are
    overwritten (pass lists of your own), and ``x`` is returned holding the
    solution. Gaussian elimination without pivoting, which is stable for a
    positive definite matrix (it is the ``L D L^T`` factorisation), then back
    substitution; no inverse is formed. Works on floats or on blocks.
    ``plan`` is :func:`_elimination_plan` of the size.
    """
    elim, back = plan
    for pivot, j, rows in elim:
        d = a[pivot]
        xj = x[j]
        for at, r, cells in rows:
            f = a[at] / d                      # = a[r, j], read from the upper part
            for target, source in cells:
                a[target] = a[target] - f * a[source]
            x[r] = x[r] - f * xj
    for j, pivot, cells in back:
        t = x[j]
        for source, c in cells:
            t = t - a[source] * x[c]
        x[j] = t / a[pivot]
    return x


def _forward(k, ops, q, qd, tau, force=None, friction=None):
    """Forward dynamics: solve ``M qdd = tau - (c + g + J^T F) - friction``.

    ``friction``: the caller's :func:`_friction` at ``qd``, when it has it already.
    """
    M, _, bias, _, _ = _closed_form(k, ops, q, qd, None, force, True, True)
    if friction is None and k.friction:
        friction = _friction(k, ops, qd)
    if friction is None:
        rhs = [t - b for t, b in zip(tau, bias)]
    else:
        rhs = [t - b - f for t, b, f in zip(tau, bias, friction)]
    return _solve_spd(M, rhs, k.plan)


# ---------------------------------------------------------------------------
# Route 2: recursive Newton-Euler. Accelerations outwards from the base (gravity
# enters as an upward acceleration of the base), forces and moments inwards.


def _rnea(k, ops, q, qd, qdd, force=None):
    sin, cos = ops[0], ops[1]
    n = k.n
    L, lc = k.L, k.lc
    ex, ey, al, ax_c, ay_c = [None] * n, [None] * n, [None] * n, [None] * n, [None] * n
    ax, ay = -k.gx, -k.gy                 # the base accelerates up at g
    phi, w, a = q[0], qd[0], qdd[0]
    for i in range(n):
        if i:
            phi = phi + q[i]
            w = w + qd[i]
            a = a + qdd[i]
        ex[i] = c = cos(phi)
        ey[i] = s = sin(phi)
        al[i] = a
        w2 = w * w
        ux = -(a * s) - w2 * c            # alpha z x e - w^2 e, per unit length
        uy = a * c - w2 * s
        ax_c[i] = ax + lc[i] * ux
        ay_c[i] = ay + lc[i] * uy
        if i < n - 1:
            ax = ax + L[i] * ux
            ay = ay + L[i] * uy
    fx, fy = (0.0, 0.0) if force is None else (force[0], force[1])
    moment = 0.0
    tau = [None] * n
    for i in reversed(range(n)):
        c, s = ex[i], ey[i]
        mx, my = k.m[i] * ax_c[i], k.m[i] * ay_c[i]
        moment = (moment + k.inertia[i] * al[i] + lc[i] * (c * my - s * mx)
                  + L[i] * (c * fy - s * fx))
        fx = fx + mx
        fy = fy + my
        tau[i] = moment
    if k.friction:
        tau = [t + f for t, f in zip(tau, _friction(k, ops, qd))]
    return tau


# ---------------------------------------------------------------------------
# The same kernels bound to one arm, on floats: for loops that step one state.


class _OneState(NamedTuple):
    """Single-state dynamics of one arm on plain floats; see :func:`_one_state_dynamics`."""

    forward: Callable       # (q, qd, tau, force=None, friction=None) -> qdd
    inverse: Callable       # (q, qd, qdd) -> tau, closed form with friction
    gravity: Callable       # (q) -> g
    friction: Callable      # (qd) -> friction torques
    has_friction: bool      # False: friction(qd) is all zeros


def _one_state_dynamics(arm):
    """The kernels of this module bound to ``arm``, one state in plain floats.

    For a loop that steps a single state thousands of times (the simulation):
    the public functions' fast paths without their input checks and array
    conversions. Arguments and results are sequences (lists) of ``n`` floats;
    no tip force in ``inverse`` and ``gravity``. Nothing is validated: the
    caller checks its inputs once and its state for finiteness; bad numbers
    surface as ``ValueError``, ``OverflowError`` or ``ZeroDivisionError``
    (a singular mass matrix).

    Examples
    --------
    Seed 000's worked instant, there and back:

    >>> from armlab import tabletop_arm
    >>> dyn = _one_state_dynamics(tabletop_arm())
    >>> q = [math.radians(30), math.radians(45)]
    >>> tau = dyn.inverse(q, [1.0, 2.0], [3.0, -2.0])
    >>> [round(x, 4) for x in tau], [round(x, 12) for x in dyn.forward(q, [1.0, 2.0], tau)]
    ([5.7796, 0.4443], [3.0, -2.0])
    """
    k = _consts(arm)

    def gravity(q):
        return _closed_form(k, _FLOATS, q, k.zeros)[3]

    return _OneState(forward=partial(_forward, k, _FLOATS),
                     inverse=partial(_closed_tau, k, _FLOATS),
                     gravity=gravity, friction=partial(_friction, k, _FLOATS),
                     has_friction=k.friction)


# ---------------------------------------------------------------------------
# Public functions: a fast path for one plain state, a validated general path.


def _force_or_none(value):
    return None if value is None else planar_vector("tip_force", value)


def mass_matrix(arm, q):
    """Joint-space mass matrix ``M(q)``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    M : (..., n, n) ndarray
        Symmetric positive definite [kg m^2].

    Examples
    --------
    Seed 000's arm at (30 deg, 45 deg):

    >>> from armlab import tabletop_arm
    >>> mass_matrix(tabletop_arm(), np.radians([30, 45])).round(4)
    array([[0.2239, 0.0473],
           [0.0473, 0.0208]])
    """
    k = _consts(arm)
    q = joint_vector(arm, "q", q)

    def kernel(q, ops):
        return [_closed_form(k, ops, q, k.zeros, mass=True)[0]]

    return _drive(kernel, {"q": q}, [(k.n, k.n)])[0]


def mass_matrix_rate(arm, q, qd):
    """Time derivative of the mass matrix along a motion, ``dM/dt``.

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].

    Returns
    -------
    Mdot : (..., n, n) ndarray
        [kg m^2/s]. It satisfies ``qd^T c = qd^T Mdot qd / 2``.

    Examples
    --------
    Seed 002's rods bending at the elbow at 1 rad/s from q2 = 90 deg:

    >>> from armlab import rod_arm
    >>> mass_matrix_rate(rod_arm(), np.radians([0, 90]), [0, 1]).round(6)
    array([[-1. , -0.5],
           [-0.5,  0. ]])
    """
    from armlab.kinematics import _com_jacobians, _com_positions, _frames

    states = _batch_states(arm, q=q, qd=qd)
    batch_shape(**states)
    q, qd = np.broadcast_arrays(*states.values())
    p, e = _frames(arm, q)
    com = _com_positions(arm, p, e)
    Jc = _com_jacobians(arm, p, com)
    # Jc_i[:, j] = z x (c_i - p_j)  =>  d/dt = -(sum over links l = j..i of w_l r_l e_l)
    omega = np.cumsum(qd, axis=-1)
    step = omega[..., None] * arm._arrays["L"][:, None] * e
    u = np.cumsum(step, axis=-2) - step
    uc = u + omega[..., None] * arm._arrays["lc"][:, None] * e
    rel = uc[..., :, None, :] - u[..., None, :, :]
    Jc_dot = np.swapaxes(-rel * np.tri(arm.n)[:, :, None], -1, -2)
    half = np.einsum("...iaj,...iak,i->...jk", Jc_dot, Jc, arm._arrays["m"])
    return half + np.swapaxes(half, -1, -2)


def coriolis_torques(arm, q, qd):
    """Velocity-product torques ``c(q, qd) = C(q, qd) qd`` (Coriolis and centrifugal).

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].

    Returns
    -------
    c : (..., n) ndarray
        [N m]; quadratic in ``qd``, zero at rest.

    Examples
    --------
    Seed 000's worked instant, q = (30, 45) deg, qd = (1, 2) rad/s:

    >>> from armlab import tabletop_arm
    >>> coriolis_torques(tabletop_arm(), np.radians([30, 45]), [1, 2]).round(4)
    array([-0.2121,  0.0265])
    """
    k = _consts(arm)
    def kernel(q, qd, ops):
        return [_closed_form(k, ops, q, qd)[2]]

    return _drive(kernel, _batch_states(arm, q=q, qd=qd), [(k.n,)])[0]


def gravity_torques(arm, q):
    """Torques ``g(q)`` that hold the arm still against gravity.

    Gravity itself applies ``-g(q)``; ``g`` is the gradient of the potential
    energy, ``-sum_i Jc_i^T m_i a_grav``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    g : (..., n) ndarray
        [N m].

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> gravity_torques(tabletop_arm(), np.radians([30, 45])).round(4)
    array([5.4148, 0.3174])
    """
    k = _consts(arm)
    fast = _one_state(k.n, q)
    if fast is not None:
        try:
            return _finite_floats(_closed_form(k, _FLOATS, fast[0], k.zeros)[3], ["q"])
        except (ValueError, OverflowError):
            pass                                # the general path says what went wrong
    q = joint_vector(arm, "q", q)

    def kernel(q, ops):
        return [_closed_form(k, ops, q, k.zeros)[3]]

    return _drive(kernel, {"q": q}, [(k.n,)])[0]


def friction_torques(arm, qd):
    """Torques the motors add to overcome joint friction, referred to the joints.

    ``G^2 B qd + G Tc sign(qd)`` for motor-side viscous ``B``, Coulomb ``Tc``
    and gear ratio ``G``. This is the *negative* of the friction torque itself
    (which opposes motion); a library that returns the friction torque (as
    seed 004's does) gives the opposite sign.

    Parameters
    ----------
    arm : PlanarArm
    qd : (..., n) array_like
        Joint speeds [rad/s].

    Returns
    -------
    f : (..., n) ndarray
        [N m]; same sign as ``qd``.

    Examples
    --------
    Seed 002's damping of 0.25 N m s/rad at qd = (1, -0.5) rad/s:

    >>> from armlab import rod_arm
    >>> friction_torques(rod_arm(damping=0.25), [1, -0.5])
    array([ 0.25 , -0.125])
    """
    qd = joint_vector(arm, "qd", qd)
    return arm._arrays["B"] * qd + arm._arrays["Tc"] * np.sign(qd)


def torque_parts(arm, q, qd, qdd, tip_force=None):
    """Inverse dynamics split into its parts.

    Parameters
    ----------
    arm : PlanarArm
    q, qd, qdd : (..., n) array_like
        Joint angles [rad], speeds [rad/s] and accelerations [rad/s^2].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment [N].

    Returns
    -------
    parts : dict of (..., n) ndarray
        ``"inertia"`` (M qdd), ``"velocity"`` (c), ``"gravity"`` (g),
        ``"friction"``, ``"tip"`` (J^T tip_force) and their sum ``"total"`` [N m].

    Examples
    --------
    Seed 000's worked instant: q = (30, 45) deg, qd = (1, 2), qdd = (3, -2):

    >>> from armlab import tabletop_arm
    >>> parts = torque_parts(tabletop_arm(), np.radians([30, 45]), [1, 2], [3, -2])
    >>> parts["inertia"].round(4), parts["total"].round(4)
    (array([0.5769, 0.1004]), array([5.7796, 0.4443]))
    """
    k = _consts(arm)
    n = k.n
    named = _batch_states(arm, q=q, qd=qd, qdd=qdd)
    named["tip_force"] = (np.zeros(2) if tip_force is None
                          else planar_vector("tip_force", tip_force))

    def kernel(q, qd, qdd, force, ops):
        _, inertia, cv, g, jtf = _closed_form(k, ops, q, qd, qdd, force)
        fr = _friction(k, ops, qd)
        total = [a + b + c + d + e for a, b, c, d, e in zip(inertia, cv, g, fr, jtf)]
        return [inertia, cv, g, fr, jtf, total]

    names = ["inertia", "velocity", "gravity", "friction", "tip", "total"]
    return dict(zip(names, _drive(kernel, named, [(n,)] * 6)))


def inverse_dynamics(arm, q, qd, qdd, tip_force=None):
    """Joint torques for a motion, closed form: ``M qdd + c + g + friction + J^T F``.

    Parameters
    ----------
    arm : PlanarArm
    q, qd, qdd : (..., n) array_like
        Joint angles [rad], speeds [rad/s] and accelerations [rad/s^2].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment, world frame [N]. A force the
        environment applies to the arm is ``-tip_force``.

    Returns
    -------
    tau : (..., n) ndarray
        Motor torques [N m], positive driving the joint angle positive.

    Examples
    --------
    Seed 000's worked instant:

    >>> from armlab import tabletop_arm
    >>> inverse_dynamics(tabletop_arm(), np.radians([30, 45]), [1, 2], [3, -2]).round(4)
    array([5.7796, 0.4443])
    """
    try:
        k = arm._consts
    except AttributeError:
        k = _consts(arm)
    if tip_force is None:
        fast = _three(k.n, q, qd, qdd)
        if fast is not None:                   # one plain state: the kernel on floats
            try:
                tau = _closed_form(k, _FLOATS, *fast, None, False, True)[2]
                if k.friction:
                    tau = [t + f for t, f in zip(tau, _friction(k, _FLOATS, fast[1]))]
                total = sum(tau)
                if total - total == 0:          # finite
                    return np.array(tau)
            except (ValueError, OverflowError):
                pass                            # the general path says what went wrong
    return _dynamics(arm, k, _closed_tau, "qdd", q, qd, qdd, tip_force)


def _dynamics(arm, k, route, third, q, qd, x, tip_force):
    """General path shared by the two inverse-dynamics routes and forward dynamics."""
    named = _batch_states(arm, **{"q": q, "qd": qd, third: x})
    if tip_force is not None:
        named["tip_force"] = planar_vector("tip_force", tip_force)
    return _drive(lambda *a: [route(k, a[-1], *a[:-1])], named, [(k.n,)])[0]


def rnea(arm, q, qd, qdd, tip_force=None):
    """Joint torques for a motion by the recursive Newton-Euler algorithm.

    Same quantity and conventions as :func:`inverse_dynamics`, computed link
    by link: accelerations outwards from the base (gravity enters as an
    upward acceleration of the base), then forces and moments inwards from
    the tip.

    Parameters
    ----------
    arm : PlanarArm
    q, qd, qdd : (..., n) array_like
        Joint angles [rad], speeds [rad/s] and accelerations [rad/s^2].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment, world frame [N].

    Returns
    -------
    tau : (..., n) ndarray
        Motor torques [N m].

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> rnea(tabletop_arm(), np.radians([30, 45]), [1, 2], [3, -2]).round(4)
    array([5.7796, 0.4443])
    """
    k = _consts(arm)
    if tip_force is None:
        fast = _three(k.n, q, qd, qdd)
        if fast is not None:
            try:
                return _finite_floats(_rnea(k, _FLOATS, *fast), _STATE)
            except (ValueError, OverflowError):
                pass                            # the general path says what went wrong
    return _dynamics(arm, k, _rnea, "qdd", q, qd, qdd, tip_force)


def _singular(arm):
    return ValueError(
        f"the mass matrix of this arm is singular (masses {arm.masses}, inertia "
        f"{arm.inertia}): some joint moves no mass, so its acceleration is undefined")


def forward_dynamics(arm, q, qd, tau, tip_force=None):
    """Joint accelerations that torques produce: solves ``M qdd = tau - J^T F - c - g - friction``.

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].
    tau : (..., n) array_like
        Motor torques [N m].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment, world frame [N].

    Returns
    -------
    qdd : (..., n) ndarray
        [rad/s^2]. The mass matrix is symmetric positive definite, so the
        system is solved by elimination without pivoting (its ``L D L^T``
        factors), never by forming ``M^-1``.

    Raises
    ------
    ValueError
        Also when the mass matrix is singular (an arm whose outer links have
        no mass and no inertia).

    Examples
    --------
    Feeding back seed 000's worked torques gives the acceleration (3, -2):

    >>> from armlab import tabletop_arm
    >>> arm, q = tabletop_arm(), np.radians([30, 45])
    >>> tau = inverse_dynamics(arm, q, [1, 2], [3, -2])
    >>> forward_dynamics(arm, q, [1, 2], tau).round(12)
    array([ 3., -2.])
    """
    k = _consts(arm)
    if tip_force is None:
        fast = _three(k.n, q, qd, tau)
        if fast is not None:
            try:
                return _finite_floats(_forward(k, _FLOATS, *fast), ("q", "qd", "tau"))
            except (ValueError, OverflowError, ZeroDivisionError):
                pass                            # the general path says what went wrong
    try:
        return _dynamics(arm, k, _forward, "tau", q, qd, tau, tip_force)
    except (_NotFinite, ZeroDivisionError) as failure:
        M = mass_matrix(arm, q)
        if np.any(np.linalg.eigvalsh(M)[..., 0] <= 1e-13 * np.abs(M).max()):
            raise _singular(arm) from None
        raise _not_finite(["q", "qd", "tau"]) if isinstance(failure, ZeroDivisionError) \
            else failure from None


def kinetic_energy(arm, q, qd):
    """Kinetic energy ``qd^T M(q) qd / 2``.

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].

    Returns
    -------
    T : (...) ndarray
        [J].

    Examples
    --------
    Seed 002's bent and moving instant:

    >>> from armlab import rod_arm
    >>> kinetic_energy(rod_arm(), np.radians([30, -60]), [1, -0.5]).round(6)
    np.float64(0.833333)
    """
    k = _consts(arm)
    n = k.n
    def kernel(q, qd, ops):
        Mqd = _closed_form(k, ops, q, k.zeros, qd)[1]
        total = 0.5 * Mqd[0] * qd[0]
        for j in range(1, n):
            total = total + 0.5 * Mqd[j] * qd[j]
        return [[total]]

    return _drive(kernel, _batch_states(arm, q=q, qd=qd), [()])[0][()]


def potential_energy(arm, q):
    """Gravitational potential energy, zero with every centre of mass at the shoulder's height.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    V : (...) ndarray
        ``-sum_i m_i a_grav . c_i`` [J]; negative below the shoulder.

    Examples
    --------
    >>> from armlab import rod_arm
    >>> potential_energy(rod_arm(), np.radians([30, -60])).round(6)
    np.float64(4.905)
    """
    from armlab.kinematics import _com_positions, _frames

    q = joint_vector(arm, "q", q)
    p, e = _frames(arm, q)
    com = _com_positions(arm, p, e)
    return -np.einsum("...ia,ia->...", com, arm._arrays["m"][:, None] * arm._arrays["g"])
