"""Single-state dynamics in plain Python floats: the simulation loop's kernel.

The public functions of :mod:`armlab.dynamics` take batches of states and
cost tens of microseconds per call in numpy overhead alone. A simulation
calls the dynamics once per plant step, one state at a time, so this module
does the same physics for *one* state with ``math.sin``/``math.cos`` and
loops over the links: a few microseconds per call for two links. Any number
of links works.

Same conventions as :mod:`armlab.dynamics` (SI units, ``q[0]`` from +x,
each later angle relative to the previous link)::

    M(q) qdd + c(q, qd) + g(q) + friction(qd) = tau

API (private to armlab, but kept small and stable for reuse):

``params(arm) -> Params``
    The arm's numbers as tuples of floats; build once, pass to every call.
``mass_and_bias(P, q, qd) -> (M, bias)``
    ``M`` as a list of ``n`` row lists [kg m^2]; ``bias = c + g + friction``
    as a list [N m].
``mass_matrix(P, q)``, ``gravity(P, q)``, ``friction(P, qd)``
    The single parts, lists.
``inverse_dynamics(P, q, qd, qdd) -> tau``
    Recursive Newton-Euler plus friction, list [N m].
``forward_dynamics(P, q, qd, tau) -> qdd``
    ``solve_spd(M, tau - bias)``, list [rad/s^2].
``solve_spd(M, b) -> x``
    Cholesky solve of a small symmetric positive definite system; no inverse.
``energies(P, q, qd) -> (kinetic, potential)``
    [J], potential zero with every centre of mass at the shoulder's height.
``euler_steps(P, q, qd, tau, h, steps) -> (qdd, q, qd, friction_work)``
    Semi-implicit Euler steps under a held torque (the simulation's inner loop).
``rk4_steps(P, q, qd, tau, h, steps) -> (qdd, q, qd, motor_work, friction_work)``
    The same with classical RK4.

``q``, ``qd``, ``qdd`` and ``tau`` are any sequences of ``n`` floats (lists,
tuples, 1-D arrays). Nothing is validated here: the public functions that
call these validate once at their edge. No tip force.

Examples
--------
Seed 000's worked instant, q = (30, 45) deg, qd = (1, 2), qdd = (3, -2):

>>> import math
>>> from armlab import tabletop_arm
>>> P = params(tabletop_arm())
>>> q = (math.radians(30), math.radians(45))
>>> [round(x, 4) for x in inverse_dynamics(P, q, (1, 2), (3, -2))]
[5.7796, 0.4443]
>>> tau = inverse_dynamics(P, q, (1, 2), (3, -2))
>>> [round(x, 10) for x in forward_dynamics(P, q, (1, 2), tau)]
[3.0, -2.0]
"""

import math
from typing import NamedTuple

__all__ = ["Params", "params", "mass_and_bias", "mass_matrix", "gravity", "friction",
           "inverse_dynamics", "forward_dynamics", "solve_spd", "energies", "euler_steps",
           "rk4_steps"]


class Params(NamedTuple):
    """A :class:`~armlab.PlanarArm` as plain floats (joint-side friction)."""

    n: int
    L: tuple          # link lengths [m]
    m: tuple          # masses [kg]
    lc: tuple         # centre-of-mass distances from each joint [m]
    I: tuple          # inertias about the centres of mass [kg m^2]
    gx: float         # gravity's acceleration, world x [m/s^2]
    gy: float         # ... and y (-9.81 for a table-top arm)
    B: tuple          # viscous friction as the joint feels it, G^2 B [N m s/rad]
    Tc: tuple         # Coulomb friction as the joint feels it, G Tc [N m]


def params(arm):
    """The numbers of ``arm`` (a :class:`~armlab.PlanarArm`) as a :class:`Params`.

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> P = params(tabletop_arm(damping=0.02))
    >>> P.n, P.lc, P.gy, P.B
    (2, (0.15, 0.125), -9.81, (0.02, 0.02))
    """
    gear = arm.gear_ratio
    return Params(
        n=arm.n, L=tuple(arm.lengths), m=tuple(arm.masses), lc=tuple(arm.com),
        I=tuple(arm.inertia), gx=float(arm.gravity[0]), gy=float(arm.gravity[1]),
        B=tuple(G * G * b for G, b in zip(gear, arm.damping)),
        Tc=tuple(G * t for G, t in zip(gear, arm.coulomb)),
    )


def friction(P, qd):
    """Torques the motors add to overcome friction, ``B qd + Tc sign(qd)`` [N m].

    >>> from armlab import tabletop_arm
    >>> friction(params(tabletop_arm(damping=0.02)), (1.0, -0.5))
    [0.02, -0.01]
    """
    out = []
    for b, tc, w in zip(P.B, P.Tc, qd):
        f = b * w
        if tc and w:
            f += tc if w > 0 else -tc
        out.append(f)
    return out


def _directions(q):
    """Cosines and sines of the links' absolute angles."""
    cs, ss = [], []
    phi = 0.0
    for qi in q:
        phi += qi
        cs.append(math.cos(phi))
        ss.append(math.sin(phi))
    return cs, ss


def _mass(P, cs, ss):
    """Mass matrix from link directions, by composite bodies about each joint.

    For joint ``k``, the links ``i >= k`` have total mass ``Mk``, first moment
    ``Dk = sum m_i (c_i - p_k)`` and inertia ``Kk`` about joint ``k``; then
    ``M[k][k] = Kk`` and, for ``j < k``, ``M[j][k] = Kk + (p_k - p_j) . Dk``.
    """
    n, L, m, lc, inertia = P.n, P.L, P.m, P.lc, P.I
    M = [[0.0] * n for _ in range(n)]
    mass = dx = dy = K = 0.0          # composite of the links beyond joint k, about joint k + 1
    Dx, Dy = [0.0] * n, [0.0] * n
    for k in range(n - 1, -1, -1):
        c, s = cs[k], ss[k]
        # move the outer composite from joint k+1 to joint k (shift by L_k e_k), add link k
        ux, uy = L[k] * c, L[k] * s
        K += 2.0 * (ux * dx + uy * dy) + mass * L[k] * L[k] + inertia[k] + m[k] * lc[k] * lc[k]
        dx += mass * ux + m[k] * lc[k] * c
        dy += mass * uy + m[k] * lc[k] * s
        mass += m[k]
        Dx[k], Dy[k] = dx, dy
        M[k][k] = K
    for k in range(1, n):
        rx = ry = 0.0                    # p_k - p_j, grown as j walks back to the base
        Kk, dxk, dyk = M[k][k], Dx[k], Dy[k]
        for j in range(k - 1, -1, -1):
            rx += L[j] * cs[j]
            ry += L[j] * ss[j]
            M[j][k] = M[k][j] = Kk + rx * dxk + ry * dyk
    return M, Dx, Dy


def _rnea(P, cs, ss, qd, qdd):
    """Recursive Newton-Euler torques (gravity included, friction not)."""
    n, L, m, lc, inertia = P.n, P.L, P.m, P.lc, P.I
    ax, ay = -P.gx, -P.gy            # gravity enters as an upward acceleration of the base
    w = al = 0.0
    acx, acy, als = [], [], []
    for i in range(n):
        c, s = cs[i], ss[i]
        w += qd[i]
        if qdd is not None:
            al += qdd[i]
        w2 = w * w
        # a = a_joint + r (al perp(e) - w^2 e),  perp(e) = (-s, c)
        tx, ty = -al * s - w2 * c, al * c - w2 * s
        acx.append(ax + lc[i] * tx)
        acy.append(ay + lc[i] * ty)
        als.append(al)
        ax += L[i] * tx
        ay += L[i] * ty
    tau = [0.0] * n
    fx = fy = nz = 0.0
    for i in range(n - 1, -1, -1):
        c, s = cs[i], ss[i]
        mx, my = m[i] * acx[i], m[i] * acy[i]
        nz += inertia[i] * als[i] + lc[i] * (c * my - s * mx) + L[i] * (c * fy - s * fx)
        fx += mx
        fy += my
        tau[i] = nz
    return tau


def mass_matrix(P, q):
    """Mass matrix ``M(q)`` as ``n`` row lists [kg m^2].

    Seed 000's shoulder feels 0.246 kg m^2 with the elbow straight, 0.171
    with it bent at a right angle:

    >>> from armlab import tabletop_arm
    >>> P = params(tabletop_arm())
    >>> straight, bent = mass_matrix(P, (0.0, 0.0)), mass_matrix(P, (0.0, math.pi / 2))
    >>> round(straight[0][0], 3), round(bent[0][0], 3)
    (0.246, 0.171)
    """
    cs, ss = _directions(q)
    return _mass(P, cs, ss)[0]


def gravity(P, q):
    """Torques ``g(q)`` that hold the arm still against gravity [N m].

    >>> from armlab import tabletop_arm
    >>> [round(x, 4) for x in gravity(params(tabletop_arm()), (math.pi / 6, math.pi / 4))]
    [5.4148, 0.3174]
    """
    cs, ss = _directions(q)
    _, Dx, Dy = _mass(P, cs, ss)
    gx, gy = P.gx, P.gy
    # gravity's moment about joint k is D_k x (m g); the holding torque opposes it
    return [gx * dy - gy * dx for dx, dy in zip(Dx, Dy)]


def mass_and_bias(P, q, qd):
    """Mass matrix and bias torques ``c + g + friction`` of one state.

    Returns
    -------
    M : list of n lists of float
        [kg m^2], symmetric positive definite.
    bias : list of float
        ``c(q, qd) + g(q) + friction(qd)`` [N m]: the torque that gives zero
        acceleration.

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> M, bias = mass_and_bias(params(tabletop_arm()), (math.pi / 6, math.pi / 4), (1, 2))
    >>> [round(x, 4) for x in bias]     # c + g of seed 000's worked instant
    [5.2027, 0.3439]
    """
    cs, ss = _directions(q)
    M = _mass(P, cs, ss)[0]
    bias = _rnea(P, cs, ss, qd, None)
    for i, (b, tc, w) in enumerate(zip(P.B, P.Tc, qd)):
        f = b * w
        if tc and w:
            f += tc if w > 0 else -tc
        bias[i] += f
    return M, bias


def inverse_dynamics(P, q, qd, qdd):
    """Motor torques ``M qdd + c + g + friction`` by recursive Newton-Euler [N m].

    >>> from armlab import tabletop_arm
    >>> q = (math.pi / 6, math.pi / 4)
    >>> [round(x, 4) for x in inverse_dynamics(params(tabletop_arm()), q, (1, 2), (3, -2))]
    [5.7796, 0.4443]
    """
    cs, ss = _directions(q)
    tau = _rnea(P, cs, ss, qd, qdd)
    for i, f in enumerate(friction(P, qd)):
        tau[i] += f
    return tau


def solve_spd(M, b):
    """Solve ``M x = b`` for a small symmetric positive definite ``M`` by Cholesky.

    ``M`` is a list of ``n`` row lists (only its lower triangle is read),
    ``b`` a sequence of ``n`` floats. Raises ``ValueError`` if ``M`` is not
    positive definite.

    >>> [round(x, 12) for x in solve_spd([[4.0, 2.0], [2.0, 3.0]], [2.0, 5.0])]
    [-0.5, 2.0]
    """
    n = len(b)
    if n == 2:                                     # the book's arms: unrolled
        a, c, d = M[0][0], M[1][0], M[1][1]
        if a <= 0.0:
            raise ValueError("matrix is not positive definite")
        l11 = math.sqrt(a)
        l21 = c / l11
        r = d - l21 * l21
        if r <= 0.0:
            raise ValueError("matrix is not positive definite")
        l22 = math.sqrt(r)
        y1 = b[0] / l11
        y2 = (b[1] - l21 * y1) / l22
        x2 = y2 / l22
        return [(y1 - l21 * x2) / l11, x2]
    Lo = [[0.0] * n for _ in range(n)]
    for i in range(n):
        row = Lo[i]
        for j in range(i + 1):
            s = M[i][j]
            rj = Lo[j]
            for k in range(j):
                s -= row[k] * rj[k]
            if i == j:
                if s <= 0.0:
                    raise ValueError("matrix is not positive definite")
                row[i] = math.sqrt(s)
            else:
                row[j] = s / rj[j]
    y = [0.0] * n
    for i in range(n):
        s = b[i]
        row = Lo[i]
        for k in range(i):
            s -= row[k] * y[k]
        y[i] = s / row[i]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        s = y[i]
        for k in range(i + 1, n):
            s -= Lo[k][i] * x[k]
        x[i] = s / Lo[i][i]
    return x


def forward_dynamics(P, q, qd, tau):
    """Joint accelerations ``M^-1 (tau - c - g - friction)`` of one state [rad/s^2].

    >>> from armlab import tabletop_arm
    >>> P, q = params(tabletop_arm()), (math.pi / 6, math.pi / 4)
    >>> tau = inverse_dynamics(P, q, (1, 2), (3, -2))
    >>> [round(x, 10) for x in forward_dynamics(P, q, (1, 2), tau)]
    [3.0, -2.0]
    """
    if P.n == 2:                                  # written out, for RK4's four calls a step
        a1, a2, _, _ = _fd2(_two_link(P), q[0], q[1], qd[0], qd[1], tau[0], tau[1])
        return [a1, a2]
    M, bias = mass_and_bias(P, q, qd)
    return solve_spd(M, [t - b for t, b in zip(tau, bias)])


def energies(P, q, qd):
    """Kinetic energy ``qd^T M qd / 2`` and potential energy ``-sum m_i a_grav . c_i`` [J].

    >>> from armlab import rod_arm
    >>> [round(x, 6) for x in energies(params(rod_arm()), (math.pi / 6, -math.pi / 3), (1, -0.5))]
    [0.833333, 4.905]
    """
    cs, ss = _directions(q)
    M = _mass(P, cs, ss)[0]
    n = P.n
    T = 0.0
    for j in range(n):
        row = M[j]
        T += qd[j] * sum(row[k] * qd[k] for k in range(n))
    V = 0.0
    px = py = 0.0
    for i in range(n):
        cx, cy = px + P.lc[i] * cs[i], py + P.lc[i] * ss[i]
        V -= P.m[i] * (P.gx * cx + P.gy * cy)
        px += P.L[i] * cs[i]
        py += P.L[i] * ss[i]
    return 0.5 * T, V


def euler_steps(P, q, qd, tau, h, steps):
    """``steps`` semi-implicit Euler steps of length ``h`` under a held torque.

    Each step: ``qdd = M^-1 (tau - bias)``, ``qd += qdd h``, ``q += qd h`` (the
    new ``qd``), as in seed 000's pseudocode.

    Returns
    -------
    qdd : list of float
        The acceleration at the first step's start [rad/s^2].
    q, qd : list of float
        The state after the last step [rad], [rad/s].
    friction_work : float
        Energy taken out by friction [J]: in each step the friction torque at
        the step's starting speed times the step's displacement.

    Two-link arms take a written-out path (same equations, constants hoisted
    out of the step loop); the tests check it against the general one.

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> P = params(tabletop_arm(damping=0.02))
    >>> qdd, q, qd, wf = euler_steps(P, (math.pi / 6, math.pi / 4), (0, 0), (0, 0), 1e-4, 10)
    >>> [round(x, 4) for x in qdd], [round(x, 6) for x in q]
    ([-40.3739, 76.5275], [0.523577, 0.78544])
    """
    if P.n == 2:
        return _euler_steps2(P, q, qd, tau, h, steps)
    return _euler_steps_any(P, q, qd, tau, h, steps)


def _euler_steps_any(P, q, qd, tau, h, steps):
    """:func:`euler_steps` for any number of links, through :func:`mass_and_bias`."""
    qdd0 = None
    wf = 0.0
    for _ in range(steps):
        M, bias = mass_and_bias(P, q, qd)
        a = solve_spd(M, [t - b for t, b in zip(tau, bias)])
        if qdd0 is None:
            qdd0 = a
        qd_new = [v + h * x for v, x in zip(qd, a)]
        wf += sum(f * v for f, v in zip(friction(P, qd), qd_new))
        q = [x + h * v for x, v in zip(q, qd_new)]
        qd = qd_new
    return qdd0, list(q), list(qd), wf * h


def rk4_steps(P, q, qd, tau, h, steps):
    """``steps`` classical Runge-Kutta steps of length ``h`` under a held torque.

    The work done by the motors and taken by friction is integrated along
    with the state, with the same four-stage weights.

    Returns
    -------
    qdd : list of float
        The acceleration at the first step's start [rad/s^2].
    q, qd : list of float
        The state after the last step [rad], [rad/s].
    motor_work, friction_work : float
        [J] over the steps.

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> P = params(tabletop_arm(damping=0.02))
    >>> qdd, q, qd, wm, wf = rk4_steps(P, (math.pi / 6, math.pi / 4), (0, 0), (0, 0), 1e-4, 10)
    >>> [round(x, 4) for x in qdd], [round(x, 6) for x in q], wm
    ([-40.3739, 76.5275], [0.523579, 0.785436], 0.0)
    """
    return _rk4(_derivative(P, tau), q, qd, h, steps)


def _derivative(P, tau, written_out=True):
    """``deriv(q, qd) -> (qdd, motor power, friction power)`` under the held ``tau``."""
    if P.n == 2 and written_out:
        K = _two_link(P)
        t1, t2 = tau

        def deriv(x, v):
            a1, a2, f1, f2 = _fd2(K, x[0], x[1], v[0], v[1], t1, t2)
            return [a1, a2], t1 * v[0] + t2 * v[1], f1 * v[0] + f2 * v[1]
        return deriv

    def deriv(x, v):
        M, bias = mass_and_bias(P, x, v)
        a = solve_spd(M, [t - b for t, b in zip(tau, bias)])
        return (a, sum(t * w for t, w in zip(tau, v)),
                sum(f * w for f, w in zip(friction(P, v), v)))
    return deriv


def _rk4(deriv, q, qd, h, steps):
    """The RK4 steps of :func:`rk4_steps`, for any ``deriv``."""
    half, sixth = 0.5 * h, h / 6.0
    qdd0 = None
    wm = wf = 0.0
    for _ in range(steps):
        a1, pm1, pf1 = deriv(q, qd)
        if qdd0 is None:
            qdd0 = a1
        v2 = [v + half * a for v, a in zip(qd, a1)]
        a2, pm2, pf2 = deriv([x + half * v for x, v in zip(q, qd)], v2)
        v3 = [v + half * a for v, a in zip(qd, a2)]
        a3, pm3, pf3 = deriv([x + half * v for x, v in zip(q, v2)], v3)
        v4 = [v + h * a for v, a in zip(qd, a3)]
        a4, pm4, pf4 = deriv([x + h * v for x, v in zip(q, v3)], v4)
        wm += sixth * (pm1 + 2.0 * (pm2 + pm3) + pm4)
        wf += sixth * (pf1 + 2.0 * (pf2 + pf3) + pf4)
        q = [x + sixth * (b1 + 2.0 * (b2 + b3) + b4)
             for x, b1, b2, b3, b4 in zip(q, qd, v2, v3, v4)]
        qd = [x + sixth * (b1 + 2.0 * (b2 + b3) + b4)
              for x, b1, b2, b3, b4 in zip(qd, a1, a2, a3, a4)]
    return qdd0, list(q), list(qd), wm, wf


def _two_link(P):
    """Constants of the written-out two-link equations.

    M = [[a + 2 b cos q2, d + b cos q2], [d + b cos q2, d]],
    c = b sin q2 (-(2 qd1 qd2 + qd2^2), qd1^2),
    g2 = k2 (gx sin(q1 + q2) - gy cos(q1 + q2)),
    g1 = k1 (gx sin q1 - gy cos q1) + g2.
    """
    L1 = P.L[0]
    m1, m2 = P.m
    l1, l2 = P.lc
    I1, I2 = P.I
    return (I1 + I2 + m1 * l1 * l1 + m2 * (L1 * L1 + l2 * l2),    # a
            m2 * L1 * l2,                                          # b
            I2 + m2 * l2 * l2,                                     # d
            m1 * l1 + m2 * L1,                                     # k1
            m2 * l2,                                               # k2
            P.gx, P.gy) + P.B + P.Tc


def _fd2(K, x1, x2, v1, v2, t1, t2):
    """Two-link forward dynamics, written out: ``(qdd1, qdd2, friction1, friction2)``."""
    a, b, d, k1, k2, gx, gy, B1, B2, T1, T2 = K
    sin, cos = math.sin, math.cos
    c2 = cos(x2)
    x12 = x1 + x2
    g2 = k2 * (gx * sin(x12) - gy * cos(x12))
    g1 = k1 * (gx * sin(x1) - gy * cos(x1)) + g2
    hs = b * sin(x2)
    f1, f2 = B1 * v1, B2 * v2
    if T1 and v1:
        f1 += T1 if v1 > 0 else -T1
    if T2 and v2:
        f2 += T2 if v2 > 0 else -T2
    r1 = t1 + hs * v2 * (2.0 * v1 + v2) - g1 - f1
    r2 = t2 - hs * v1 * v1 - g2 - f2
    # Cholesky of M = L L^T, then the two triangular solves
    l11 = math.sqrt(a + 2.0 * b * c2)
    l21 = (d + b * c2) / l11
    l22sq = d - l21 * l21
    if l22sq <= 0.0:
        raise ValueError("mass matrix is not positive definite (a link without inertia?)")
    y1 = r1 / l11
    a2 = (r2 - l21 * y1) / l22sq
    return (y1 - l21 * a2) / l11, a2, f1, f2


def _euler_steps2(P, q, qd, tau, h, steps):
    """:func:`euler_steps` for two links, through :func:`_fd2`."""
    K = _two_link(P)
    t1, t2 = tau
    x1, x2 = q
    v1, v2 = qd
    wf = 0.0
    qdd0 = None
    for _ in range(steps):
        a1, a2, f1, f2 = _fd2(K, x1, x2, v1, v2, t1, t2)
        if qdd0 is None:
            qdd0 = [a1, a2]
        v1 += h * a1
        v2 += h * a2
        wf += f1 * v1 + f2 * v2
        x1 += h * v1
        x2 += h * v2
    return qdd0, [x1, x2], [v1, v2], wf * h
