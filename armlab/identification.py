"""Identification: finding an arm's mass data from the torques it needs.

Every joint torque is linear in a few numbers made of the masses, centres of
mass and inertias, with coefficients that the motion, the link lengths and
gravity alone decide. Two such regressions are here.

**Gravity at rest.** For a two-link arm in a vertical plane (gravity
``(0, -g0)``) the holding torques are::

    g1 = a cos(q1) + b cos(q1 + q2)        a = (m1 lc1 + m2 L1) g0
    g2 =             b cos(q1 + q2)        b = m2 lc2 g0

so ``g(q) = Y(q) theta`` with the regressor ``Y`` known from the angles and
``theta = (a, b)`` found by linear least squares from torques measured at
rest at several poses (:func:`gravity_regressor`, :func:`fit_gravity`). A payload
``mp`` at the tip adds ``mp L2 g0`` to ``b`` (and ``mp L1 g0`` to ``a``), so its
mass is ``(b_loaded - b_empty) / (g0 L2)``.

**The whole of inverse dynamics.** For any planar arm,
``M qdd + c + g (+ friction) = Y(q, qd, qdd) theta`` with two base parameters
per link, its moment of inertia ``Zj`` and first moment ``Xj`` about its own
joint, the mass of the links beyond it lumped at its end
(:func:`base_parameters`, :func:`dynamics_regressor`, :func:`fit_dynamics`).
For two links ``a = g0 X1`` and ``b = g0 X2``.

SI units: [rad], [rad/s], [rad/s^2], [N m], [kg], [m]; positive torque drives
its joint angle positive, and friction enters as the torque that overcomes it.
"""

from dataclasses import dataclass

import numpy as np

from armlab._checks import finite_array, joint_vector, joint_vectors, nonnegative_scalar
from armlab.dynamics import gravity_torques

__all__ = ["gravity_regressor", "gravity_parameters", "holding_torques", "holding_runs",
           "GravityFit", "fit_gravity", "payload_mass", "base_parameter_names",
           "base_parameters", "dynamics_regressor", "DynamicsFit", "fit_dynamics"]


def _pairs(name, value):
    arr = finite_array(name, value)
    if arr.ndim == 0 or arr.shape[-1] != 2:
        raise ValueError(f"{name} has shape {arr.shape}: expected (..., 2) for a two-link arm")
    return arr


def gravity_regressor(q):
    """The two-link arm's gravity regressor: ``g(q) = Y(q) @ (a, b)``.

    Parameters
    ----------
    q : (..., 2) array_like
        Joint angles [rad], ``q1`` from the horizontal, ``q2`` relative to link 1.

    Returns
    -------
    Y : (..., 2, 2) ndarray
        ``[[cos q1, cos(q1 + q2)], [0, cos(q1 + q2)]]`` (dimensionless).

    Examples
    --------
    >>> gravity_regressor(np.radians([30, 45])).round(4)
    array([[0.866 , 0.2588],
           [0.    , 0.2588]])
    """
    q = _pairs("q", q)
    c1 = np.cos(q[..., 0])
    c12 = np.cos(q[..., 0] + q[..., 1])
    Y = np.zeros(q.shape[:-1] + (2, 2))
    Y[..., 0, 0] = c1
    Y[..., 0, 1] = c12
    Y[..., 1, 1] = c12
    return Y


def gravity_parameters(arm):
    """The true ``(a, b)`` of a two-link arm, for checking a fit.

    Parameters
    ----------
    arm : PlanarArm
        Two links, gravity ``(0, -g0)``.

    Returns
    -------
    theta : (2,) ndarray
        ``a = (m1 lc1 + m2 L1) g0`` and ``b = m2 lc2 g0`` [N m].

    Examples
    --------
    The table-top arm, empty and with 0.5 kg at the tip:

    >>> from armlab import tabletop_arm
    >>> gravity_parameters(tabletop_arm()).round(4), gravity_parameters(
    ...     tabletop_arm().with_payload(0.5)).round(4)
    (array([5.886 , 1.2262]), array([7.3575, 2.4525]))
    """
    if arm.n != 2:
        raise ValueError(f"the gravity regressor is for two links, but the arm has {arm.n}")
    gx, gy = arm.gravity
    if gx != 0 or gy >= 0:
        raise ValueError(f"the regressor assumes gravity (0, -g0), got {arm.gravity}")
    (m1, m2), (lc1, lc2), L1 = arm.masses, arm.com, arm.lengths[0]
    return np.array([(m1 * lc1 + m2 * L1) * -gy, m2 * lc2 * -gy])


def holding_torques(arm, rng, poses=20, noise=0.05):
    """A simulated identification run: holding torques at random poses, with sensor noise.

    Parameters
    ----------
    arm : PlanarArm
        The real arm (with its payload, if any).
    rng : int or numpy.random.Generator
        A starting number for :func:`numpy.random.default_rng` (the same number
        gives the same run), or a generator to draw from.
    poses : int, optional
        Number of poses; default 20.
    noise : float, optional
        Standard deviation of the torque sensors' Gaussian noise [N m]; default 0.05.

    Returns
    -------
    q : (poses, n) ndarray
        Angles, each uniform in ``[-pi, pi)`` [rad]; drawn first.
    tau : (poses, n) ndarray
        ``g(q)`` plus noise [N m]; the noise is drawn after all the poses.

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> q, tau = holding_torques(tabletop_arm(), 0, poses=3, noise=0.0)
    >>> tau.shape, bool(np.allclose(tau, gravity_torques(tabletop_arm(), q)))
    ((3, 2), True)
    """
    rng = np.random.default_rng(rng)
    if not (isinstance(poses, (int, np.integer)) and poses >= 1):
        raise ValueError(f"poses must be a positive integer, got {poses!r}")
    sigma = nonnegative_scalar("noise", noise, "N m", "standard deviation")
    q = rng.uniform(-np.pi, np.pi, (poses, arm.n))
    tau = gravity_torques(arm, q) + rng.normal(0.0, sigma, (poses, arm.n))
    return q, tau


def holding_runs(arms, rng, poses=20, noise=0.05):
    """Several identification runs, one per arm (empty, loaded, ...), drawn in turn from one
    generator, as one experiment with several loads.

    Parameters
    ----------
    arms : sequence of PlanarArm
        The real arm in each run, in the order the runs are made.
    rng : int or numpy.random.Generator
        A starting number for :func:`numpy.random.default_rng` (the same number
        gives the same runs), or a generator to draw from.
    poses, noise
        As in :func:`holding_torques`, for every run.

    Returns
    -------
    runs : list of (q, tau)
        One ``(q, tau)`` pair per arm, as :func:`holding_torques` returns it.

    Examples
    --------
    The gravity chapter's experiment: the table-top arm empty, then with 0.5 kg
    at the tip, from the generator started at 0 (true b: 1.226 and 2.453 N m):

    >>> from armlab import tabletop_arm
    >>> arm = tabletop_arm()
    >>> (q0, tau0), (q1, tau1) = holding_runs([arm, arm.with_payload(0.5)], 0)
    >>> round(fit_gravity(q0, tau0).b, 3), round(fit_gravity(q1, tau1).b, 3)
    (1.224, 2.437)
    """
    rng = np.random.default_rng(rng)
    return [holding_torques(arm, rng, poses, noise) for arm in arms]


@dataclass(frozen=True)
class GravityFit:
    """A least-squares fit of ``(a, b)``; see :func:`fit_gravity`.

    Attributes
    ----------
    theta : (2,) ndarray
        Fitted ``(a, b)`` [N m].
    stderr : (2,) ndarray
        Their standard errors [N m].
    residuals : (m, 2) ndarray
        Measured minus fitted torque per pose and joint [N m].
    """

    theta: np.ndarray
    stderr: np.ndarray
    residuals: np.ndarray

    @property
    def a(self):
        """Fitted shoulder parameter ``a`` [N m]."""
        return float(self.theta[0])

    @property
    def b(self):
        """Fitted elbow parameter ``b`` [N m]."""
        return float(self.theta[1])


def fit_gravity(q, tau, noise=None):
    """Fit ``(a, b)`` to holding torques by linear least squares (``numpy.linalg.lstsq``).

    Both joints' equations at every pose are stacked into one system
    ``Y theta = tau`` of ``2 m`` rows and solved in one call.

    Parameters
    ----------
    q : (m, 2) array_like
        Poses [rad]: some with ``cos q1 != 0`` and some with ``cos(q1 + q2) != 0``
        (else ``a`` or ``b`` is not determined), and at least two when the noise
        is estimated from the residuals.
    tau : (m, 2) array_like
        Measured holding torques [N m].
    noise : float, optional
        The sensors' known standard deviation [N m], for the standard errors.
        Default: estimated from the residuals, ``sqrt(RSS / (2 m - 2))``.

    Returns
    -------
    GravityFit
        ``theta``, ``stderr = sigma sqrt(diag((Y^T Y)^-1))`` and the residuals.

    Examples
    --------
    Noise-free torques give back the true values:

    >>> from armlab import tabletop_arm
    >>> q, tau = holding_torques(tabletop_arm(), 1, noise=0.0)
    >>> fit_gravity(q, tau).theta.round(3)
    array([5.886, 1.226])

    The gravity chapter's experiment (20 poses, 0.05 N m noise), empty and then
    with 0.5 kg at the tip, drawn in turn from one generator started at 0: the
    payload comes out within one standard error (0.008 kg) of its 0.5 kg.

    >>> rng = np.random.default_rng(0)
    >>> empty = fit_gravity(*holding_torques(tabletop_arm(), rng), noise=0.05)
    >>> loaded = fit_gravity(*holding_torques(tabletop_arm().with_payload(0.5), rng), noise=0.05)
    >>> round(empty.b, 3), round(loaded.b, 3), round(payload_mass(empty.b, loaded.b, 0.25), 3)
    (1.224, 2.437, 0.495)
    """
    q = _pairs("q", q)
    tau = _pairs("tau", tau)
    if q.ndim != 2 or tau.shape != q.shape:
        raise ValueError(f"q {q.shape} and tau {tau.shape} must both have shape (m, 2)")
    m = q.shape[0]
    Y = gravity_regressor(q).reshape(2 * m, 2)           # rows: pose 0 joint 1, joint 2, ...
    y = tau.reshape(2 * m)
    theta, _, rank, _ = np.linalg.lstsq(Y, y, rcond=None)
    if rank < 2:
        raise ValueError("the poses do not determine both parameters: vary q1 and q1 + q2")
    residuals = y - Y @ theta
    if noise is None:
        dof = 2 * m - 2
        sigma = np.sqrt(residuals @ residuals / dof) if dof > 0 else np.nan
    else:
        sigma = float(finite_array("noise", noise))
    cov = np.linalg.inv(Y.T @ Y)    # 2 x 2, only for the standard errors
    return GravityFit(theta=theta, stderr=sigma * np.sqrt(np.diag(cov)),
                      residuals=residuals.reshape(m, 2))


def payload_mass(b_empty, b_loaded, length, g0=9.81):
    """Mass of a point payload at the tip from the change of b: ``(b_loaded - b_empty) / (g0 L2)``.

    Parameters
    ----------
    b_empty, b_loaded : float or array_like
        Elbow parameter without and with the payload [N m].
    length : float
        Length of the last link, elbow to tip [m].
    g0 : float, optional
        Gravity [m/s^2]; default 9.81.

    Returns
    -------
    mass : float or ndarray
        [kg].

    Examples
    --------
    The true values of the table-top arm, empty and with 0.5 kg, give back the 0.5 kg:

    >>> round(payload_mass(1.22625, 2.4525, 0.25), 6)
    0.5
    """
    db = finite_array("b_loaded", b_loaded) - finite_array("b_empty", b_empty)
    L = finite_array("length", length)
    g = finite_array("g0", g0)
    if np.any(L <= 0) or np.any(g <= 0):
        raise ValueError(f"length and g0 must be positive, got {length!r} and {g0!r}")
    out = db / (g * L)
    return float(out) if np.ndim(out) == 0 else out


# ---------------------------------------------------------------- the whole of inverse dynamics
def base_parameter_names(n, friction=False):
    """Names of the base parameters, in the order of :func:`dynamics_regressor`'s columns.

    Parameters
    ----------
    n : int
        Number of joints.
    friction : bool, optional
        Append the joints' viscous and Coulomb coefficients.

    Returns
    -------
    names : tuple of str
        ``("Z1", "X1", ..., "Zn", "Xn")``, then ``("B1", ..., "Bn", "Tc1", ..., "Tcn")``
        with ``friction``.

    Examples
    --------
    >>> base_parameter_names(2, friction=True)
    ('Z1', 'X1', 'Z2', 'X2', 'B1', 'B2', 'Tc1', 'Tc2')
    """
    if not (isinstance(n, (int, np.integer)) and n >= 1):
        raise ValueError(f"n must be a positive integer, got {n!r}")
    names = tuple(f"{kind}{j + 1}" for j in range(n) for kind in ("Z", "X"))
    if friction:
        names += tuple(f"B{j + 1}" for j in range(n)) + tuple(f"Tc{j + 1}" for j in range(n))
    return names


def base_parameters(arm, friction=False):
    """The arm's base parameters: the numbers its inverse dynamics is linear in.

    Link ``j`` contributes two, each with the mass of every link beyond it
    lumped at its far joint (``m_out = m_{j+1} + ... + m_n``):

    * ``Zj = I_j + m_j lc_j^2 + L_j^2 m_out``, its moment of inertia about
      joint ``j`` [kg m^2];
    * ``Xj = m_j lc_j + L_j m_out``, its first moment about joint ``j``, along
      the link [kg m].

    The masses themselves do not appear on their own: a link's mass acts on the
    joints before it exactly as a point mass at the end of the link before. For
    two links ``M11 = Z1 + Z2 + 2 L1 X2 cos q2``, ``M12 = Z2 + L1 X2 cos q2``,
    ``M22 = Z2``, and the gravity chapter's ``a = g0 X1`` and ``b = g0 X2``.

    Parameters
    ----------
    arm : PlanarArm
    friction : bool, optional
        Append the joint-side viscous coefficients ``Bj = G^2 B`` [N m s/rad] and
        Coulomb torques ``Tcj = G Tc`` [N m].

    Returns
    -------
    theta : (2 n,) or (4 n,) ndarray
        In the order of :func:`base_parameter_names`.

    Examples
    --------
    The table-top arm (rods of 0.30 m / 2.0 kg and 0.25 m / 1.0 kg): ``Z1 = 0.015
    + 2 x 0.15^2 + 0.3^2 x 1``, ``X1 = 2 x 0.15 + 0.3 x 1``, ``Z2 = 0.005208 + 0.125^2``,
    ``X2 = 0.125``:

    >>> from armlab import tabletop_arm
    >>> base_parameters(tabletop_arm()).round(6)
    array([0.15    , 0.6     , 0.020833, 0.125   ])
    """
    L, m = np.asarray(arm.lengths), np.asarray(arm.masses)
    lc, inertia = np.asarray(arm.com), np.asarray(arm.inertia)
    outer = np.cumsum(m[::-1])[::-1] - m                 # mass beyond each link [kg]
    Z = inertia + m * lc**2 + L**2 * outer
    X = m * lc + L * outer
    theta = np.stack([Z, X], axis=-1).reshape(-1)
    if friction:
        G = np.asarray(arm.gear_ratio)
        theta = np.concatenate([theta, G**2 * np.asarray(arm.damping),
                                G * np.asarray(arm.coulomb)])
    return theta


def _cross(a, b):
    """z-component of the planar cross product of (..., 2) vectors."""
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def dynamics_regressor(arm, q, qd, qdd, friction=False):
    """The regressor of inverse dynamics: ``tau = Y(q, qd, qdd) @ base_parameters(arm)``.

    The torque a motion needs, ``M qdd + c + g`` (plus friction with
    ``friction``), is linear in the base parameters (:func:`base_parameters`),
    whatever the masses, centres of mass and inertias; ``Y`` depends only on the
    motion, the link lengths and gravity. Column ``Zj`` holds the angular
    acceleration of link ``j`` for every joint up to ``j``; column ``Xj`` the
    moment, about each joint up to ``j``, of a unit first moment on link ``j``
    (Newton-Euler, with gravity as an upward acceleration of the base). A tip
    force is not part of ``Y``: it adds ``J^T F`` as a known load.

    Parameters
    ----------
    arm : PlanarArm
        Only its lengths and gravity are used (and its number of joints).
    q, qd, qdd : (..., n) array_like
        Joint angles [rad], speeds [rad/s] and accelerations [rad/s^2].
    friction : bool, optional
        Append the columns of the viscous (``qd_j``) and Coulomb
        (``sign(qd_j)``) friction of each joint, as the torque that overcomes it.

    Returns
    -------
    Y : (..., n, 2 n) or (..., n, 4 n) ndarray
        Row ``i`` gives joint ``i``'s torque; the columns follow
        :func:`base_parameter_names`. Units: [rad/s^2] in the ``Z`` columns,
        [m/s^2] in the ``X`` columns, [rad/s] and [-] in the friction columns,
        so that every product is in [N m].

    Examples
    --------
    The table-top arm's worked instant, q = (30, 45) deg, qd = (1, 2) rad/s,
    qdd = (3, -2) rad/s^2, gives back the torque (5.7796, 0.4443) N m:

    >>> from armlab import tabletop_arm
    >>> arm = tabletop_arm()
    >>> Y = dynamics_regressor(arm, np.radians([30, 45]), [1, 2], [3, -2])
    >>> Y.round(4)
    array([[3.    , 8.4957, 1.    , 1.6905],
           [0.    , 0.    , 1.    , 3.3875]])
    >>> (Y @ base_parameters(arm)).round(4)
    array([5.7796, 0.4443])
    """
    q, qd, qdd = np.broadcast_arrays(*joint_vectors(arm, q=q, qd=qd, qdd=qdd))
    n = arm.n
    L = np.asarray(arm.lengths)
    phi, omega, alpha = (np.cumsum(x, axis=-1) for x in (q, qd, qdd))
    e = np.stack([np.cos(phi), np.sin(phi)], axis=-1)            # (..., n, 2) along link
    nrm = np.stack([-e[..., 1], e[..., 0]], axis=-1)             # (..., n, 2) across it
    # a unit first moment on link j accelerates as alpha_j n_j - omega_j^2 e_j per metre
    turn = alpha[..., None] * nrm - omega[..., None] ** 2 * e
    step = L[:, None] * e                                          # joint j -> joint j + 1
    joints = np.cumsum(step, axis=-2) - step                       # joint positions (..., n, 2)
    base = -np.asarray(arm.gravity, dtype=float)                   # the base's acceleration
    a_joint = base + np.cumsum(L[:, None] * turn, axis=-2) - L[:, None] * turn
    Y = np.zeros(q.shape[:-1] + (n, 2 * n))
    for j in range(n):
        moment = _cross(e[..., j, :], a_joint[..., j, :])         # about joint j itself
        for i in range(j + 1):
            lever = joints[..., j, :] - joints[..., i, :]
            Y[..., i, 2 * j] = alpha[..., j]
            Y[..., i, 2 * j + 1] = moment + _cross(lever, turn[..., j, :])
    if friction:
        eye = np.eye(n)
        Y = np.concatenate([Y, qd[..., None, :] * eye, np.sign(qd)[..., None, :] * eye],
                           axis=-1)
    return Y


@dataclass(frozen=True)
class DynamicsFit:
    """A least-squares fit of the base parameters; see :func:`fit_dynamics`.

    Attributes
    ----------
    theta : (p,) ndarray
        Fitted base parameters, in the order of ``names`` (units as in
        :func:`base_parameters`).
    stderr : (p,) ndarray
        Their standard errors.
    residuals : (m, n) ndarray
        Measured minus fitted torque per sample and joint [N m].
    names : tuple of str
        The parameters' names (:func:`base_parameter_names`).
    """

    theta: np.ndarray
    stderr: np.ndarray
    residuals: np.ndarray
    names: tuple

    def __getitem__(self, name):
        """The fitted value of one parameter by name: ``fit["X2"]``."""
        return float(self.theta[self.names.index(name)])


def fit_dynamics(arm, q, qd, qdd, tau, noise=None, friction=False):
    """Fit the base parameters to measured torques along a motion, by linear least squares.

    Every joint's equation at every sample is stacked into one system
    ``Y theta = tau`` (:func:`dynamics_regressor`) and solved with
    ``numpy.linalg.lstsq``.

    Parameters
    ----------
    arm : PlanarArm
        Only its lengths and gravity are used: the masses are what is fitted.
    q, qd, qdd : (m, n) array_like
        The motion's samples: angles [rad], speeds [rad/s], accelerations [rad/s^2].
    tau : (m, n) array_like
        The measured joint torques [N m] (less any known ``J^T F``).
    noise : float, optional
        The torque sensors' known standard deviation [N m], for the standard
        errors. Default: estimated from the residuals, ``sqrt(RSS / (m n - p))``.
    friction : bool, optional
        Fit each joint's viscous and Coulomb friction too.

    Returns
    -------
    DynamicsFit
        ``theta``, ``stderr = sigma sqrt(diag((Y^T Y)^-1))``, the residuals and
        the parameters' names.

    Raises
    ------
    ValueError
        When the motion does not determine every parameter (too few samples, a
        joint that never moves, or no gravity to weigh ``X1`` by).

    Examples
    --------
    Torques without noise along a move of the table-top arm give back its
    parameters:

    >>> from armlab import inverse_dynamics, quintic, tabletop_arm
    >>> arm = tabletop_arm()
    >>> q, qd, qdd = quintic(np.radians([-45, 90]), np.radians([60, -30]), 0.8)(
    ...     np.linspace(0, 0.8, 81))
    >>> fit = fit_dynamics(arm, q, qd, qdd, inverse_dynamics(arm, q, qd, qdd))
    >>> fit.names, fit.theta.round(6)
    (('Z1', 'X1', 'Z2', 'X2'), array([0.15    , 0.6     , 0.020833, 0.125   ]))
    """
    q, qd, qdd, tau = (joint_vector(arm, name, value) for name, value in
                       (("q", q), ("qd", qd), ("qdd", qdd), ("tau", tau)))
    if q.ndim != 2 or not (qd.shape == qdd.shape == tau.shape == q.shape):
        raise ValueError(f"q {q.shape}, qd {qd.shape}, qdd {qdd.shape} and tau {tau.shape} "
                         f"must all have shape (m, {arm.n}): one row per sample")
    names = base_parameter_names(arm.n, friction)
    p = len(names)
    Y = dynamics_regressor(arm, q, qd, qdd, friction).reshape(-1, p)
    y = tau.reshape(-1)
    scale = np.linalg.norm(Y, axis=0)
    scale[scale == 0] = 1.0
    theta, _, rank, _ = np.linalg.lstsq(Y / scale, y, rcond=None)
    if rank < p:
        raise ValueError(
            f"the motion determines only {rank} of the {p} parameters {names}: "
            "move every joint, vary the speeds and accelerations, and keep gravity "
            "(it alone weighs X1)")
    theta = theta / scale
    residuals = y - Y @ theta
    if noise is None:
        dof = y.size - p
        sigma = np.sqrt(residuals @ residuals / dof) if dof > 0 else np.nan
    else:
        sigma = nonnegative_scalar("noise", noise, "N m", "standard deviation")
    cov = np.linalg.inv(Y.T @ Y)          # p x p, only for the standard errors
    return DynamicsFit(theta=theta, stderr=sigma * np.sqrt(np.diag(cov)),
                       residuals=residuals.reshape(tau.shape), names=names)
