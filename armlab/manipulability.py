"""How well the tip can move: the velocity ellipse, singular poses and the workspace.

The tip Jacobian ``J(q)`` maps joint speeds to the tip's velocity,
``v = J(q) qd``. Its singular value decomposition ``J = U S V^T`` says how:
joint speeds of size ``|qd| <= 1`` rad/s give tip velocities that fill an
ellipse with half-axes ``sigma_i`` along the columns ``u_i`` of ``U``. A pose
where the smallest singular value is zero is *singular*: the tip cannot move
along ``u_2`` at all. For a planar arm that rotates freely at every joint, the
tip reaches an annulus about the base, and its two boundary circles are made of
singular poses. The ratio ``sigma_1 / sigma_2`` (the condition number) says how
far the ellipse is from a circle; where it is 1 the pose is *isotropic*.

Conventions: SI units, angles in radians; ``q[..., 0]`` from +x
counter-clockwise, each later angle relative to the previous link; no joint
limits.
"""

import numpy as np

from armlab._checks import positive_scalar
from armlab.kinematics import jacobian

__all__ = ["velocity_ellipse", "manipulability", "condition_number", "is_singular", "reach"]


def _principal_axes(arm, q):
    """Singular values (padded to 2) and left singular vectors of the tip Jacobian.

    Shared by the velocity ellipse and the force ellipse
    (:func:`armlab.statics.force_ellipse`), which have the same axes.

    Returns
    -------
    sigma : (..., 2) ndarray
        [m/rad], largest first; a one-joint arm's second value is 0.
    U : (..., 2, 2) ndarray
        Unit directions (columns) in the world frame; an orthogonal matrix,
        which may be a reflection (determinant -1) as well as a rotation.
    """
    U, sigma, _ = np.linalg.svd(jacobian(arm, q))
    pad = np.zeros(sigma.shape[:-1] + (2 - sigma.shape[-1],))
    return np.concatenate([sigma, pad], axis=-1), U


def velocity_ellipse(arm, q, joint_speed=1.0):
    """The ellipse of tip velocities that joint speeds of a given size can give.

    Every joint velocity with ``|qd| <= joint_speed`` (Euclidean norm) moves
    the tip with a velocity ``v = J(q) qd`` inside an ellipse centred on zero,
    with half-axes ``joint_speed * sigma_i`` along the left singular vectors
    ``u_i`` of ``J``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    joint_speed : float
        Size of the joint velocity vector [rad/s]; positive.

    Returns
    -------
    half_lengths : (..., 2) ndarray
        The half-axes [m/s], largest first; the second is 0 at a singular pose.
    directions : (..., 2, 2) ndarray
        Their unit directions, as columns, in the world frame.

    Examples
    --------
    The statics chapter's arm with the elbow bent 90 degrees, joints at up to 1 rad/s:

    >>> from armlab import statics_arm
    >>> half, directions = velocity_ellipse(statics_arm(), np.radians([0, 90]))
    >>> half.round(4)
    array([0.6986, 0.2863])
    """
    speed = positive_scalar("joint_speed", joint_speed, "rad/s")
    sigma, U = _principal_axes(arm, q)
    return speed * sigma, U


def manipulability(arm, q):
    """Yoshikawa's manipulability ``w = sqrt(det(J J^T)) = sigma_1 sigma_2``.

    ``pi * w`` is the area of the velocity ellipse for ``|qd| <= 1`` rad/s.
    For a two-joint arm ``w = |det J| = L1 L2 |sin q2|``: zero exactly at the
    stretched (``q2 = 0``) and folded (``q2 = pi``) poses.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    w : (...) ndarray
        [m^2/rad^2]; 0 at a singular pose (and for a one-joint arm).

    Examples
    --------
    The statics chapter's arm at q2 = 90 degrees: L1 L2 = 0.5 m x 0.4 m:

    >>> from armlab import statics_arm
    >>> manipulability(statics_arm(), np.radians([0, 90])).round(4)
    np.float64(0.2)
    """
    sigma, _ = _principal_axes(arm, q)
    return sigma[..., 0] * sigma[..., 1]


#: A smallest singular value below this fraction of the largest counts as zero.
_RANK_TOL = 1e-12


def condition_number(arm, q):
    """The condition number of the tip Jacobian, ``kappa = sigma_1 / sigma_2``.

    The ratio of the velocity ellipse's longest half-axis to its shortest:
    how much faster the tip moves, per rad/s of joint speed, in its best
    direction than in its worst. ``kappa = 1`` at an *isotropic* pose, where
    the ellipse is a circle and the tip moves (and, by duality, pushes) equally
    well in every direction; it grows without bound towards a singular pose.
    Unlike the manipulability it has no unit and does not grow with the arm.
    Its inverse ``1 / kappa`` runs from 0 (singular) to 1 (isotropic).

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    kappa : (...) ndarray
        ``>= 1``, no unit; ``inf`` where ``sigma_2 <= 1e-12 sigma_1`` (a
        singular pose, to rounding, and always for a one-joint arm).

    Examples
    --------
    A two-link arm with ``L1 = sqrt(2) L2`` at ``q2 = 135`` degrees is
    isotropic; the statics chapter's arm bent at 90 degrees is not:

    >>> from armlab import PlanarArm, statics_arm
    >>> iso = PlanarArm(lengths=(np.sqrt(2) * 0.4, 0.4), masses=(1.0, 1.0))
    >>> condition_number(iso, np.radians([0, 135])).round(6)
    np.float64(1.0)
    >>> condition_number(statics_arm(), np.radians([0, 90])).round(4)
    np.float64(2.4402)
    """
    sigma, _ = _principal_axes(arm, q)
    singular = sigma[..., 1] <= _RANK_TOL * sigma[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(singular, np.inf, sigma[..., 0] / np.where(singular, 1.0, sigma[..., 1]))


def is_singular(arm, q, tol=1e-9):
    """Whether poses are singular: the tip cannot move in some direction.

    A pose is singular when the smallest singular value of ``J`` is at most
    ``tol`` times the arm's reach ``sum(L)``. For a planar arm this happens
    exactly when the base, every joint and the tip lie on one line.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    tol : float
        Relative tolerance, positive. The smallest singular value of a
        two-joint arm near a singular pose is about ``L1 L2 |sin q2| / sum(L)``.

    Returns
    -------
    singular : (...) ndarray of bool

    Examples
    --------
    Stretched, folded, and bent by 90 degrees:

    >>> from armlab import statics_arm
    >>> is_singular(statics_arm(), np.radians([[30, 0], [30, 180], [30, 90]]))
    array([ True,  True, False])
    """
    tol = positive_scalar("tol", tol)
    sigma, _ = _principal_axes(arm, q)
    return sigma[..., 1] <= tol * sum(arm.lengths)


def reach(arm):
    """Inner and outer radius of the workspace: the tip reaches ``r_min <= |p| <= r_max``.

    With every joint free to turn all the way round, the tip of a planar arm
    reaches every point of an annulus about the base (a disc when
    ``r_min = 0``). The outer circle is reached with the arm stretched, the
    inner one with it folded back as far as it goes; both are singular poses.

    Parameters
    ----------
    arm : PlanarArm

    Returns
    -------
    r_min, r_max : float
        [m]. ``r_max = sum(L)``; ``r_min = max(0, 2 max(L) - sum(L))``, which
        for two links is ``|L1 - L2|``.

    Examples
    --------
    >>> from armlab import statics_arm, rod_arm
    >>> [round(r, 4) for r in reach(statics_arm())], reach(rod_arm())
    ([0.1, 0.9], (0.0, 2.0))
    """
    lengths = np.asarray(arm.lengths)
    total = float(lengths.sum())
    return max(0.0, 2 * float(lengths.max()) - total), total
