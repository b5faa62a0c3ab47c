"""Identification: finding the arm's gravity parameters from holding torques.

For a two-link arm in a vertical plane (gravity ``(0, -g0)``) the holding
torques are linear in two numbers made of the masses::

    g1 = a cos(q1) + b cos(q1 + q2)        a = (m1 lc1 + m2 L1) g0
    g2 =             b cos(q1 + q2)        b = m2 lc2 g0

so ``g(q) = Y(q) theta`` with the regressor ``Y`` known from the angles and
``theta = (a, b)`` found by linear least squares from torques measured at
rest at several poses. A payload ``mp`` at the tip adds ``mp L2 g0`` to
``b`` (and ``mp L1 g0`` to ``a``), so its mass is ``(b_loaded - b_empty) / (g0 L2)``.
SI units: [rad], [N m], [kg], [m].
"""

from dataclasses import dataclass

import numpy as np

from armlab._checks import finite_array, nonnegative_scalar
from armlab.dynamics import gravity_torques

__all__ = ["gravity_regressor", "gravity_parameters", "holding_torques", "holding_runs",
           "GravityFit", "fit_gravity", "payload_mass"]


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
        Poses [rad]; at least two, not all with the same ``cos(q1 + q2)`` ratio.
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

