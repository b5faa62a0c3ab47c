"""Rigid-body dynamics of a serial chain: RNEA, CRBA and ABA in Featherstone's notation.

The equation of motion, the planar chapters' convention in three dimensions::

    M(q) qdd + c(q, qd) + g(q) = tau - J_t(q)^T W

``M`` is the mass matrix, ``c = C(q, qd) qd`` the velocity-product (Coriolis
and centrifugal) torques, ``g`` the torques that *balance* gravity, ``tau``
the joint torques [N m] (forces [N] at prismatic joints) and ``W = (m, f)`` the
wrench **the tip applies to its environment**, moment about the tip point
then force, in world axes (see :mod:`armlab.spatial.statics`). No friction.

The algorithms follow Featherstone's *Rigid Body Dynamics Algorithms* (2008),
tables 5.1, 6.2 and 7.1, with his names and his joint model: body ``i`` has its
frame at joint ``i``, turned so that the joint's axis is its z axis
(:attr:`Chain.aligned`); ``X[i] = X_J(q_i) X_T,i`` is the motion transform
``iX_{i-1}`` from body ``i-1``'s coordinates to body ``i``'s, with ``X_J`` a turn
about z (revolute) or a slide along it (prismatic) and ``X_T,i`` constant;
``S[i]``, the joint's motion subspace, is then a unit vector; ``I[i]`` is the
body's spatial inertia. Twists are ``(w, v)`` and wrenches ``(m, f)`` as in
:mod:`armlab.spatial.se3`. Gravity enters as an upward acceleration
``a_0 = (0, -g)`` of the base, so the bodies feel it without a force term.
Joint torques do not depend on how the body frames are turned.

Every function broadcasts over states: ``q`` of shape ``(n,)`` or ``(..., n)``.
The loops run over the bodies; the arithmetic of each step runs on the whole batch.
"""

import weakref

import numpy as np

from armlab._checks import batch_shape, finite_array, joint_vector
from armlab.spatial.kinematics import _joint_motions

__all__ = ["inverse_dynamics", "mass_matrix", "forward_dynamics", "gravity_torques",
           "coriolis_torques", "kinetic_energy", "potential_energy"]


def _states(chain, **named):
    """Validated joint vectors ``(..., n)``, broadcast to one batch shape."""
    arrays = [joint_vector(chain, name, value) for name, value in named.items()]
    if all(a.shape == arrays[0].shape for a in arrays):
        return arrays
    shape = batch_shape(**dict(zip(named, arrays))) + (chain.n,)
    return [a if a.shape == shape else np.broadcast_to(a, shape) for a in arrays]


def _crf(V, F):
    """``V x* F = (w x m + v x f, w x f)`` on columns ``(6, ...)`` (Featherstone's ``crf``;
    see :func:`armlab.spatial.se3.wrench_cross`). One state's twelve numbers are taken
    as Python floats, which combine several times faster than numpy's scalars."""
    w0, w1, w2, v0, v1, v2 = V.tolist() if V.ndim == 1 else V
    m0, m1, m2, f0, f1, f2 = F.tolist() if F.ndim == 1 else F
    return np.array([w1 * m2 - w2 * m1 + v1 * f2 - v2 * f1,
                     w2 * m0 - w0 * m2 + v2 * f0 - v0 * f2,
                     w0 * m1 - w1 * m0 + v0 * f1 - v1 * f0,
                     w1 * f2 - w2 * f1,
                     w2 * f0 - w0 * f2,
                     w0 * f1 - w1 * f0])


def _base_acceleration(chain, shape, gravity):
    """``a_0 = (0, -g)``: the base accelerating upwards stands in for gravity."""
    a0 = np.zeros(shape + (6,))
    if gravity:
        a0[..., 3:] = -chain.gravity
    return a0


def _mtv(A, x):
    """Batched transpose times vector: ``A^T x``."""
    return (x[..., None, :] @ A)[..., 0, :]


def _tip_wrench(chain, q, wrench):
    """The tip's wrench ``W`` (world axes, about the tip point) in the tip frame's axes.

    The last body's frame gets it by ``Ad(T_tn)^T`` with ``T_tn`` the inverse
    of :attr:`Chain.tip`.
    """
    W = finite_array("wrench", wrench)
    if W.ndim == 0 or W.shape[-1] != 6:
        raise ValueError(f"wrench has shape {W.shape}: expected (..., 6), the moment [N m] "
                         "then the force [N] the tip applies, in world axes")
    T = np.eye(4)
    for step in _joint_motions(chain, q):
        T = T @ step
    R = (T @ chain.tip)[..., :3, :3]                   # the tip frame's axes in the world
    return np.concatenate([_mtv(R, W[..., :3]), _mtv(R, W[..., 3:])], axis=-1)


#: States per block of a large batch (see :func:`_blockwise`).
BLOCK = 2048


def _blockwise(kernel, chain, *states, **options):
    """``kernel(chain, *states, **options)`` on broadcast states ``(..., k)``, a block of
    :data:`BLOCK` states at a time; one state ``(k,)`` directly.

    Why blocks: numpy makes a fresh array for every intermediate result, and one
    larger than about 128 kB comes from the operating system each time, page by
    page (measured here: adding two ``(6, 10000)`` arrays costs 25 times as much
    per element as adding two ``(6, 1000)`` ones). Blocks of 1024 states keep the
    intermediates small. This is a loop over blocks, not over states.
    """
    if states[0].ndim == 1:
        return kernel(chain, *states, **options)
    batch = states[0].shape[:-1]
    flat = [x.reshape(-1, x.shape[-1]) for x in states]
    out = np.concatenate([kernel(chain, *(x[start:start + BLOCK] for x in flat), **options)
                          for start in range(0, max(len(flat[0]), 1), BLOCK)])
    return out.reshape(batch + out.shape[1:])


class _Joint:
    """Featherstone's ``jcalc`` for joint ``i`` about (or along) its body's z axis.

    Applies the joint's transform ``X_J(q)`` to columns of spatial vectors
    ``(6, N)`` (or one ``(6,)``): for a revolute joint ``rotz(q)``, which turns
    both 3-vectors by ``-q`` about z; for a prismatic one ``xlt(q z)``. Its
    motion subspace ``S`` is a unit vector: the joint's speed adds to row 2
    (revolute) or 5 (prismatic) of a twist, and its torque is that row of a wrench.
    """

    def __init__(self, kind, qi, cos_qi, sin_qi):
        self.revolute = kind == "revolute"
        self.row = 2 if self.revolute else 5
        self.c, self.s, self.d = (cos_qi, sin_qi, 0.0) if self.revolute else (1.0, 0.0, qi)

    def motion(self, V):
        """``X_J V`` in place: a twist from the joint's zero position to the moved body.

        ``V`` is a fresh product ``X_T v``, so its rows can be overwritten.
        """
        if self.revolute:                                 # w and v turned by -q about z
            c, s = self.c, self.s
            V[0], V[1] = c * V[0] + s * V[1], c * V[1] - s * V[0]
            V[3], V[4] = c * V[3] + s * V[4], c * V[4] - s * V[3]
        else:                                             # v - (q z) x w
            V[3], V[4] = V[3] + self.d * V[1], V[4] - self.d * V[0]
        return V

    def force(self, F):
        """``X_J^T F`` in place: a wrench on the moved body, back to the joint's zero position.

        ``F`` is a wrench not needed again as it was (or a view of one).
        """
        if self.revolute:                                 # m and f turned by +q about z
            c, s = self.c, self.s
            F[0], F[1] = c * F[0] - s * F[1], s * F[0] + c * F[1]
            F[3], F[4] = c * F[3] - s * F[4], s * F[3] + c * F[4]
        else:                                             # m + (q z) x f
            F[0], F[1] = F[0] - self.d * F[4], F[1] + self.d * F[3]
        return F

    def add_cross(self, a, V, qd):
        """``a += V x (S qd)`` in place: the acceleration a joint's speed adds when its
        body also turns (``V x S`` has four nonzero rows)."""
        if self.revolute:
            a[0] += qd * V[1]
            a[1] -= qd * V[0]
            a[3] += qd * V[4]
            a[4] -= qd * V[3]
        else:
            a[3] += qd * V[1]
            a[4] -= qd * V[0]


def _cos_sin(q):
    """``cos q`` and ``sin q`` from one tangent, ``t = tan(q / 2)`` (the half-angle formulas
    ``cos q = (1 - t^2) / (1 + t^2)``, ``sin q = 2 t / (1 + t^2)``).

    The same numbers as ``np.cos`` and ``np.sin`` to 2.2e-16 for any angle (checked on
    2 million angles over [-10, 10] rad and around +-pi), at a seventh of their cost on
    this numpy build (measured: 47 us against 354 + 259 us for 14,336 angles).
    """
    t = np.tan(0.5 * q)
    d = 1.0 + t * t
    return (1.0 - t * t) / d, 2.0 * t / d


def _joints(chain, q):
    """The :class:`_Joint` of each joint, from positions ``q`` ``(n, ...)`` (joints first)."""
    c, s = _cos_sin(q)                                           # all joints at once
    return [_Joint(kind, q[i], c[i], s[i]) for i, kind in enumerate(chain.kinds)]


def _rnea(chain, q, qd, qdd, F=None, gravity=True):
    """Featherstone's table 5.1 on states ``(N, n)`` (or one ``(n,)``).

    Runs in the turned body frames of :attr:`Chain.aligned`, where
    ``X_i = X_J(q_i) X_T,i``. ``F`` ``(N, 6)`` is the tip's wrench in the tip
    frame's axes, or None. The states are turned into columns: ``v``, ``a``
    and ``f[i]`` are ``(6, N)`` (or ``(6,)`` for one state), so each step is a
    product with a constant 6 x 6 matrix, or a few rows' arithmetic, for the
    whole block.
    """
    q, qd, qdd = (np.ascontiguousarray(x.T) for x in (q, qd, qdd))   # (n, N): row i, joint i
    XT, I, tip = chain.aligned
    a = np.multiply.outer(_base_acceleration(chain, (), gravity), np.ones(q.shape[1:]))
    v = np.zeros_like(a)
    joints, f = _joints(chain, q), []
    moving = qd.any()                                            # at rest v stays zero
    for i, J in enumerate(joints):                               # outwards: motion
        a = J.motion(XT[i] @ a)
        a[J.row] += qdd[i]                                       # + S qdd
        if moving:
            v = J.motion(XT[i] @ v)
            v[J.row] += qd[i]                                    # + S qd
            J.add_cross(a, v, qd[i])                             # + v x S qd
            f.append(I[i] @ a + _crf(v, I[i] @ v))               # Newton-Euler for body i
        else:
            f.append(I[i] @ a)
    if F is not None:
        f[-1] = f[-1] + tip @ F.T                                # what the tip pushes with
    tau = np.zeros(q.shape)
    for i in reversed(range(chain.n)):                           # inwards: forces
        tau[i] = f[i][joints[i].row]                             # S . f
        if i > 0:
            f[i - 1] += XT[i].T @ joints[i].force(f[i])          # X_i^T f_i to the parent
    return tau.T


def inverse_dynamics(chain, q, qd, qdd, wrench=None):
    """Joint torques for a motion, by the recursive Newton-Euler algorithm (RNEA).

    Outwards from the base each body's twist ``v_i`` and acceleration ``a_i``;
    then the wrench ``f_i = I_i a_i + v_i x* I_i v_i`` that body needs; then
    inwards, ``tau_i = S_i . f_i`` and the parent carries ``X_i^T f_i`` more.

    Parameters
    ----------
    chain : Chain
    q, qd, qdd : (..., n) array_like
        Joint positions [rad or m], speeds and accelerations.
    wrench : (..., 6) array_like, optional
        The wrench the tip applies to its environment: moment about the tip
        point [N m] then force [N], world axes.

    Returns
    -------
    tau : (..., n) ndarray
        Joint torques [N m] (forces [N] at prismatic joints).

    Examples
    --------
    A 2 kg bob on a 1 m pendulum, held horizontal (q = 90 deg about x) and
    starting to swing at 1 rad/s^2: m g L + m L^2 qdd = 19.62 + 2 N m.

    >>> from armlab.spatial.chain import load_urdf
    >>> pendulum = load_urdf('''<robot name="p"><link name="base"/>
    ...   <link name="bob"><inertial><origin xyz="0 0 -1"/><mass value="2"/>
    ...     <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
    ...   <joint name="pivot" type="revolute"><parent link="base"/><child link="bob"/>
    ...     <axis xyz="1 0 0"/></joint></robot>''')
    >>> inverse_dynamics(pendulum, [np.pi / 2], [0.0], [1.0]).round(10)
    array([21.62])
    """
    q, qd, qdd = _states(chain, q=q, qd=qd, qdd=qdd)
    if wrench is None:
        return _blockwise(_rnea, chain, q, qd, qdd)
    F = _tip_wrench(chain, q, wrench)
    batch = np.broadcast_shapes(q.shape[:-1], F.shape[:-1])
    q, qd, qdd = (np.broadcast_to(x, batch + (chain.n,)) for x in (q, qd, qdd))
    return _blockwise(_rnea, chain, q, qd, qdd, np.broadcast_to(F, batch + (6,)))


def gravity_torques(chain, q):
    """Torques ``g(q)`` that hold the chain still against gravity (RNEA at rest).

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].

    Returns
    -------
    g : (..., n) ndarray
        [N m or N].

    Examples
    --------
    The SO-101 reaching out level (all joints at zero) [N m]; its three pitch
    joints turn about +y, so holding the arm up takes negative torques there:

    >>> from armlab.spatial.robots import so101
    >>> gravity_torques(so101(), np.zeros(5)).round(4)
    array([-0.    , -0.5386, -0.4527, -0.1171, -0.    ])

    The same by virtual work, ``g = dV/dq``, by central differences:

    >>> dq = 1e-6 * np.eye(5)
    >>> ((potential_energy(so101(), dq) - potential_energy(so101(), -dq)) / 2e-6).round(4)
    array([-0.    , -0.5386, -0.4527, -0.1171, -0.    ])
    """
    (q,) = _states(chain, q=q)
    zero = np.zeros_like(q)
    return _blockwise(_rnea, chain, q, zero, zero)


def coriolis_torques(chain, q, qd):
    """Velocity-product torques ``c(q, qd) = C(q, qd) qd`` (RNEA without gravity or qdd).

    Parameters
    ----------
    chain : Chain
    q, qd : (..., n) array_like
        Joint positions [rad or m] and speeds [rad/s or m/s].

    Returns
    -------
    c : (..., n) ndarray
        [N m or N]; quadratic in ``qd``, zero at rest.

    Examples
    --------
    >>> from armlab.spatial.robots import so101
    >>> c = coriolis_torques(so101(), np.zeros(5), [1.0, 0, 0, 0, 0])
    >>> bool(np.allclose(coriolis_torques(so101(), np.zeros(5), [2.0, 0, 0, 0, 0]), 4 * c))
    True
    """
    q, qd = _states(chain, q=q, qd=qd)
    return _blockwise(_rnea, chain, q, qd, np.zeros_like(q), gravity=False)


def mass_matrix(chain, q):
    """The mass matrix ``M(q)``, by the composite-rigid-body algorithm (CRBA).

    Inwards from the tip, each body's composite inertia ``Ic_i`` (itself and
    every body beyond it) is added to its parent's, ``Ic_{i-1} += X_i^T Ic_i X_i``.
    Then ``M[i, i] = S_i . Ic_i S_i`` and, carrying ``F = Ic_i S_i`` down the
    chain, ``M[i, j] = M[j, i] = S_j . F`` for ``j < i``.

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].

    Returns
    -------
    M : (..., n, n) ndarray
        Symmetric, positive definite when every joint moves some mass [kg m^2, kg m, kg].

    Examples
    --------
    A point mass 1 m from a pivot: M = m L^2.

    >>> from armlab.spatial.chain import load_urdf
    >>> pendulum = load_urdf('''<robot name="p"><link name="base"/>
    ...   <link name="bob"><inertial><origin xyz="0 0 -1"/><mass value="2"/>
    ...     <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
    ...   <joint name="pivot" type="revolute"><parent link="base"/><child link="bob"/>
    ...     <axis xyz="1 0 0"/></joint></robot>''')
    >>> mass_matrix(pendulum, [0.3])
    array([[2.]])
    """
    (q,) = _states(chain, q=q)
    if q.ndim == 1:
        return _crba(chain, q)
    states = q.reshape(-1, chain.n)                             # blocks as in _blockwise,
    M = np.empty((len(states), chain.n, chain.n))               # each written straight into M
    for start in range(0, len(states), BLOCK):
        _crba(chain, states[start:start + BLOCK], out=M[start:start + BLOCK])
    return M.reshape(q.shape[:-1] + M.shape[1:])


def _crba(chain, q, out=None):
    """Featherstone's table 6.2 on states ``(N, n)`` (or one ``(n,)``), turned frames.

    The composite inertias are rigid-body inertias, so each is kept as its ten
    numbers (:func:`_inertia_parameters`) rather than 36: ``Ic[i]`` is ``(10, N)``.
    Moving one to the parent's frame, ``X_i^T Ic_i X_i``, is then the joint's turn
    or slide (:func:`_joint_congruence`) and a constant 10 x 10 matrix for ``X_T,i``.
    The columns ``F_i = Ic_i S_i`` are carried down together: at body ``j``,
    ``F[:, j:]`` ``(6, n - j, N)`` holds those of bodies ``j`` and beyond in its frame
    (each of the six rows a contiguous block, so one product with ``X_T^T`` moves them all).
    One state runs as a batch of one. ``M`` is written into ``out`` ``(N, n, n)`` when
    given: made per block and joined afterwards, the mass matrices of 10,000 states cost
    twice their 3.9 MB in fresh pages from the operating system (measured: 2,154 page
    faults per call, and more system time than arithmetic; 341 with ``out``).
    """
    one = q.ndim == 1
    q = np.ascontiguousarray(np.atleast_2d(q).T)                 # (n, N)
    XT, _, _ = chain.aligned
    L, I, S_of = _composite_constants(chain)
    joints, n, batch = _joints(chain, q), chain.n, q.shape[1:]
    Ic = [np.broadcast_to(p.reshape((10,) + (1,) * len(batch)), (10,) + batch) for p in I]
    for i in reversed(range(1, n)):                              # inwards: composites
        Ic[i - 1] = Ic[i - 1] + L[i] @ _joint_congruence(joints[i], Ic[i])  # X_i^T Ic_i X_i
    out = np.empty(batch + (n, n)) if out is None else out       # (N, n, n)
    M, F = np.moveaxis(out, 0, -1), np.empty((6, n) + batch)     # M[i, j] is out[:, i, j]
    for j in reversed(range(n)):                                 # down the chain
        F[:, j] = S_of[j] @ Ic[j]                                # Ic_j S_j
        M[j, j:] = M[j:, j] = F[joints[j].row, j:]               # M[j, i] = S_j . F_i, i >= j
        if j > 0:                                                # X_j^T F to body j-1
            Fj = joints[j].force(F[:, j:])                       # in place, on a view
            F[:, j:] = (XT[j].T @ Fj.reshape(6, -1)).reshape(Fj.shape)
    return out[0] if one else out


def _inertia_parameters(I):
    """The ten numbers of a rigid-body inertia ``I`` (6 x 6): ``(m, h, Ixx, Iyy, Izz,
    Ixy, Ixz, Iyz)``, with ``h = m c`` the first moment of mass [kg m] and the
    rotational inertia about the frame's origin [kg m^2]. ``I = [[Ibar, [h]], [[h]^T, m 1]]``.
    """
    return np.array([I[5, 5], I[2, 4], I[0, 5], I[1, 3],
                     I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]])


def _inertia_matrix(p):
    """The 6 x 6 inertia of ten numbers (the inverse of :func:`_inertia_parameters`)."""
    m, hx, hy, hz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz = p
    H = np.array([[0, -hz, hy], [hz, 0, -hx], [-hy, hx, 0]])
    return np.block([[np.array([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]]), H],
                     [H.T, m * np.eye(3)]])


def _composite_constants(chain):
    """Per-chain constants of :func:`_crba`, computed once: for each body the 10 x 10
    matrix ``L`` of ``p -> X_T^T I(p) X_T`` (linear in the ten numbers ``p``), the body's
    ten numbers, and the 6 x 10 matrix of ``p -> I(p) S``."""
    if chain not in _COMPOSITE:
        XT, inertias, _ = chain.aligned
        basis = [_inertia_matrix(e) for e in np.eye(10)]
        L = np.array([np.column_stack([_inertia_parameters(X.T @ B @ X) for B in basis])
                      for X in XT])
        S = np.array([np.column_stack([B[:, 2 if kind == "revolute" else 5] for B in basis])
                      for kind in chain.kinds])
        _COMPOSITE[chain] = L, np.array([_inertia_parameters(I) for I in inertias]), S
    return _COMPOSITE[chain]


_COMPOSITE = weakref.WeakKeyDictionary()


def _joint_congruence(J, p):
    """``X_J^T I X_J`` on ten numbers ``p`` ``(10, ...)``: the body's inertia seen from its
    joint at zero. A turn ``R`` about z gives ``h' = R h`` and ``Ibar' = R Ibar R^T``;
    a slide ``d`` along z gives ``h' = h + m d z`` and moves the rotational inertia by
    the parallel-axis terms."""
    m, hx, hy, hz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz = p
    if J.revolute:
        c, s = J.c, J.s
        cc, ss, cs = c * c, s * s, c * s
        return np.array([m, c * hx - s * hy, s * hx + c * hy, hz,
                          cc * Ixx + ss * Iyy - 2 * cs * Ixy, ss * Ixx + cc * Iyy + 2 * cs * Ixy,
                          Izz, cs * (Ixx - Iyy) + (cc - ss) * Ixy,
                          c * Ixz - s * Iyz, s * Ixz + c * Iyz])
    d = J.d
    shift = d * (2 * hz + m * d)
    return np.array([m, hx, hy, hz + m * d, Ixx + shift, Iyy + shift, Izz, Ixy,
                     Ixz - d * hx, Iyz - d * hy])


def _congruence(XT, J, K):
    """``X^T K X`` for a symmetric ``K`` ``(6, 6, N)`` (or one ``(6, 6)``) and
    ``X = X_J X_T``; ``K`` is overwritten.

    ``X_J^T`` turns rows 0, 1 and 3, 4 (:meth:`_Joint.force`), on the rows of ``K`` and
    then on its columns (the rows of its transpose, a view); then ``X_T^T`` multiplies
    the rows, and ``X_T`` the columns: ``matmul`` takes a batch ``B`` as six ``(6, N)``
    matrices ``B[a]``, and ``X_T^T B[a]`` is row ``a`` of ``B X_T``.
    """
    B = J.force(K)                                               # X_J^T K
    J.force(B.swapaxes(0, 1))                                    # X_J^T K X_J
    B = (XT.T @ B.reshape(6, -1)).reshape(B.shape)               # X_T^T B
    return B @ XT if B.ndim == 2 else np.matmul(XT.T, B)         # (X_T^T B) X_T


def forward_dynamics(chain, q, qd, tau, wrench=None):
    """Joint accelerations that torques produce, by the articulated-body algorithm (ABA).

    Three passes (Featherstone's table 7.1): outwards, each body's twist and
    its velocity-product acceleration ``c_i`` and bias wrench ``pA_i``;
    inwards, each body's articulated inertia ``IA_i`` (itself plus what the
    bodies beyond it feel like through their joints) and bias; outwards again,
    each joint's acceleration from its parent's.

    Parameters
    ----------
    chain : Chain
    q, qd : (..., n) array_like
        Joint positions [rad or m] and speeds.
    tau : (..., n) array_like
        Joint torques [N m] (forces [N] at prismatic joints).
    wrench : (..., 6) array_like, optional
        The wrench the tip applies to its environment (as in :func:`inverse_dynamics`).

    Returns
    -------
    qdd : (..., n) ndarray
        [rad/s^2 or m/s^2]; solves ``M qdd = tau - J_t^T W - c - g``.

    Examples
    --------
    Feeding back the torques of a motion gives its accelerations:

    >>> from armlab.spatial.robots import so101
    >>> arm, q, qd = so101(), [0.1, 0.2, 0.3, 0.4, 0.5], [1.0, -1.0, 0.5, 0.0, 2.0]
    >>> tau = inverse_dynamics(arm, q, qd, [1.0, 2.0, 3.0, 4.0, 5.0])
    >>> forward_dynamics(arm, q, qd, tau).round(8)
    array([1., 2., 3., 4., 5.])
    """
    q, qd, tau = _states(chain, q=q, qd=qd, tau=tau)
    if wrench is None:
        return _blockwise(_aba, chain, q, qd, tau)
    F = _tip_wrench(chain, q, wrench)
    batch = np.broadcast_shapes(q.shape[:-1], F.shape[:-1])
    q, qd, tau = (np.broadcast_to(x, batch + (chain.n,)) for x in (q, qd, tau))
    return _blockwise(_aba, chain, q, qd, tau, np.broadcast_to(F, batch + (6,)))


def _aba(chain, q, qd, tau, F=None):
    """Featherstone's table 7.1 on states ``(N, n)`` (or one ``(n,)``), turned frames;
    ``F`` the tip's wrench in tip-frame axes, or None.

    As in :func:`_rnea` the states are columns: twists and wrenches ``(6, N)``,
    articulated inertias ``(6, 6, N)``.
    """
    q, qd, tau = (np.ascontiguousarray(x.T) for x in (q, qd, tau))   # (n, N)
    XT, I, tip = chain.aligned
    joints, n = _joints(chain, q), chain.n
    v, c, IA, pA = np.zeros((6,) + q.shape[1:]), [], [], []
    for i, J in enumerate(joints):                               # outwards: velocities
        v = J.motion(XT[i] @ v)
        v[J.row] += qd[i]                                        # + S qd
        c.append(np.zeros_like(v))
        J.add_cross(c[i], v, qd[i])                              # c_i = v_i x S qd
        IA.append(np.broadcast_to(I[i][..., None], (6, 6) + q.shape[1:])
                  if q.ndim > 1 else I[i])
        pA.append(_crf(v, I[i] @ v))                             # v x* I v
    if F is not None:
        pA[-1] = pA[-1] + tip @ F.T
    U, D, u = [None] * n, [None] * n, [None] * n
    for i in reversed(range(n)):                                 # inwards: inertias
        row = joints[i].row
        U[i] = IA[i][:, row].copy()                              # IA_i S_i
        D[i] = U[i][row]                                         # S_i . IA_i S_i
        if np.any(D[i] <= 0):
            raise ValueError(f"chain: joint {chain.joints[i]!r} moves no mass (its articulated "
                             "inertia S.IA S is zero), so its acceleration is undefined")
        u[i] = tau[i] - pA[i][row]
        if i > 0:
            Ia = IA[i] - U[i][:, None] * (U[i] / D[i])[None, :]
            pa = pA[i] + np.einsum("jk...,k...->j...", Ia, c[i]) + U[i] * (u[i] / D[i])
            IA[i - 1] = IA[i - 1] + _congruence(XT[i], joints[i], Ia)   # X_i^T Ia X_i
            pA[i - 1] = pA[i - 1] + XT[i].T @ joints[i].force(pa)
    qdd = np.zeros(q.shape)
    a = np.multiply.outer(_base_acceleration(chain, (), True), np.ones(q.shape[1:]))
    for i, J in enumerate(joints):                               # outwards: accelerations
        a = J.motion(XT[i] @ a) + c[i]
        qdd[i] = (u[i] - np.sum(U[i] * a, axis=0)) / D[i]
        a[J.row] += qdd[i]                                       # + S qdd
    return qdd.T


def kinetic_energy(chain, q, qd):
    """Kinetic energy, ``sum_i v_i . I_i v_i / 2`` (equal to ``qd . M qd / 2``).

    Parameters
    ----------
    chain : Chain
    q, qd : (..., n) array_like
        Joint positions [rad or m] and speeds.

    Returns
    -------
    T : (...) ndarray
        [J].

    Examples
    --------
    >>> from armlab.spatial.robots import so101
    >>> arm, q, qd = so101(), [0.1, 0.2, 0.3, 0.4, 0.5], [1.0, -1.0, 0.5, 0.0, 2.0]
    >>> bool(np.isclose(kinetic_energy(arm, q, qd), qd @ mass_matrix(arm, q) @ qd / 2))
    True
    """
    q, qd = _states(chain, q=q, qd=qd)
    return _blockwise(_kinetic, chain, q, qd)[..., 0]


def _kinetic(chain, q, qd):
    """``sum_i v_i . I_i v_i / 2`` on states ``(N, n)`` (or one ``(n,)``), as ``(N, 1)``."""
    q, qd = np.ascontiguousarray(q.T), np.ascontiguousarray(qd.T)
    XT, I, _ = chain.aligned
    v, T = np.zeros((6,) + q.shape[1:]), 0.0
    for i, J in enumerate(_joints(chain, q)):
        v = J.motion(XT[i] @ v)
        v[J.row] += qd[i]
        T = T + 0.5 * np.sum(v * (I[i] @ v), axis=0)
    return np.asarray(T)[..., None] if q.ndim > 1 else np.array([T])


def potential_energy(chain, q):
    """Gravitational potential energy, ``-sum_i m_i g . c_i``: zero with every centre
    of mass at the base origin's height.

    Parameters
    ----------
    chain : Chain
    q : (..., n) array_like
        Joint positions [rad or m].

    Returns
    -------
    V : (...) ndarray
        [J].

    Examples
    --------
    The SO-101 at zero, 0.485 kg lifted 0.198 m on average above its base:

    >>> from armlab.spatial.robots import so101
    >>> potential_energy(so101(), np.zeros(5)).round(4)
    np.float64(0.9434)
    """
    (q,) = _states(chain, q=q)
    masses, coms = chain.masses, chain.coms
    T, V = np.eye(4), 0.0
    for i, step in enumerate(_joint_motions(chain, q)):
        T = T @ step
        c = T[..., :3, :3] @ coms[i] + T[..., :3, 3]             # world centre of mass
        V = V - masses[i] * (c @ chain.gravity)
    return np.asarray(V)[()]
