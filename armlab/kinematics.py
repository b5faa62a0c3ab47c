"""Positions and Jacobians of a planar arm.

Conventions: SI units, angles in radians; ``q[..., 0]`` from +x counter-clockwise,
each later angle relative to the previous link. A Jacobian column ``j`` of a
point ``p`` on link ``i`` is ``z x (p - p_j)`` for ``j <= i`` and zero beyond.
The way back, from a tip position to joint angles, is solved in closed form for
two links (:func:`inverse_kinematics`).
"""

import numpy as np

from armlab import _kernels as K
from armlab._checks import joint_vector, planar_vector

__all__ = ["joint_positions", "tip_position", "com_positions", "jacobian", "com_jacobians",
           "inverse_kinematics"]


def _perp(v):
    """Rotate planar vectors ``(..., 2)`` by +90 degrees: z x v."""
    return np.stack([0.0 - v[..., 1], v[..., 0]], axis=-1)  # no negative zeros


def _frames(arm, q):
    """Joint positions ``(..., n+1, 2)`` (base first, tip last), link directions ``(..., n, 2)``."""
    with np.errstate(over="ignore"):
        phi = np.cumsum(q, axis=-1)
    if not np.all(np.isfinite(phi)):
        raise ValueError("q: the absolute link angles (sums of q) overflow; "
                         "expected joint angles of a sensible size [rad]")
    e = np.stack([np.cos(phi), np.sin(phi)], axis=-1)
    steps = arm._constants.arrays["L"][:, None] * e
    p = np.concatenate([np.zeros(q.shape[:-1] + (1, 2)), np.cumsum(steps, axis=-2)], axis=-2)
    return p, e


def _com_positions(arm, p, e):
    return p[..., :-1, :] + arm._constants.arrays["lc"][:, None] * e


def _joints_and_coms(arm, q):
    """The joints ``(..., n, 2)`` (the base first, no tip) and the centres of mass
    ``(..., n, 2)`` of validated angles ``q``, from one pass over the links."""
    p, e = _frames(arm, q)
    return p[..., :-1, :], _com_positions(arm, p, e)


def _com_jacobians(arm, p, com):
    """``(..., n, 2, n)``: entry ``[i, :, j]`` is ``z x (com_i - p_j)`` for ``j <= i``."""
    n = arm.n
    rel = com[..., :, None, :] - p[..., None, :n, :]          # (..., i, j, 2)
    cols = _perp(rel) * np.tri(n)[:, :, None]                  # zero where j > i
    return np.swapaxes(cols, -1, -2)


def joint_positions(arm, q):
    """Positions of the base, every joint and the tip.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    p : (..., n + 1, 2) ndarray
        World positions [m]: the base (origin) first, the tip last.

    Examples
    --------
    >>> from armlab import statics_arm
    >>> joint_positions(statics_arm(), np.radians([30, 60])).round(4)
    array([[0.   , 0.   ],
           [0.433, 0.25 ],
           [0.433, 0.65 ]])
    """
    q = joint_vector(arm, "q", q)
    return _frames(arm, q)[0]


def tip_position(arm, q):
    """Position of the tip.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    p : (..., 2) ndarray
        Tip position in the world frame [m].

    Examples
    --------
    >>> from armlab import statics_arm
    >>> tip_position(statics_arm(), np.radians([30, 60])).round(4)
    array([0.433, 0.65 ])
    """
    return joint_positions(arm, q)[..., -1, :]


def com_positions(arm, q):
    """Positions of the links' centres of mass.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    c : (..., n, 2) ndarray
        Centre of mass of each link, world frame [m].

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> com_positions(tabletop_arm(), [0.0, 0.0])
    array([[0.15 , 0.   ],
           [0.425, 0.   ]])
    """
    q = joint_vector(arm, "q", q)
    p, e = _frames(arm, q)
    return _com_positions(arm, p, e)


def jacobian(arm, q):
    """Jacobian of the tip's linear velocity: ``v_tip = J(q) qd``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    J : (..., 2, n) ndarray
        Column ``j`` is the tip velocity per unit speed of joint ``j`` [m/rad].

    Examples
    --------
    The statics chapter's arm stretched along x (``q = 0``), where J has rank 1:

    >>> from armlab import statics_arm
    >>> jacobian(statics_arm(), [0.0, 0.0])
    array([[0. , 0. ],
           [0.9, 0.4]])
    """
    k = arm._constants
    fast = K.fast(K.tip_jacobian, k, (2, k.n), q)
    if fast is not None:
        return fast
    q = joint_vector(arm, "q", q)
    p, _ = _frames(arm, q)
    return np.swapaxes(_perp(p[..., -1:, :] - p[..., :-1, :]), -1, -2)


def com_jacobians(arm, q):
    """Jacobians of the links' centres of mass: ``v_ci = Jc[i] qd``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    Jc : (..., n, 2, n) ndarray
        ``Jc[..., i, :, :]`` is link ``i``'s centre-of-mass Jacobian [m/rad];
        its columns beyond ``i`` are zero.

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> com_jacobians(tabletop_arm(), [0.0, 0.0])[1]
    array([[0.   , 0.   ],
           [0.425, 0.125]])
    """
    q = joint_vector(arm, "q", q)
    p, e = _frames(arm, q)
    return _com_jacobians(arm, p, _com_positions(arm, p, e))


#: Targets this far outside the annulus (relative to the reach) count as on its edge:
#: forward kinematics of a stretched or folded pose lands within rounding of it.
_EDGE_TOL = 1e-12

_ELBOWS = {"down": 1.0, "up": -1.0}


def inverse_kinematics(arm, tip, elbow="down"):
    """Joint angles that put a two-link arm's tip at a point, elbow down or elbow up.

    The law of cosines gives the elbow angle from the tip's distance ``r``
    from the base, ``cos q2 = (r^2 - L1^2 - L2^2) / (2 L1 L2)``, and ``q1`` is
    the direction of the tip less the angle that link 2 adds,
    ``q1 = atan2(y, x) - atan2(L2 sin q2, L1 + L2 cos q2)``. Every point
    strictly inside the workspace has two solutions, ``+q2`` and ``-q2``
    (mirror images about the line from the base to the tip); on its edge they
    are one, the stretched or folded pose.

    Parameters
    ----------
    arm : PlanarArm
        Two joints.
    tip : (..., 2) array_like
        Wanted tip positions, world frame [m].
    elbow : {"down", "up"}
        ``"down"``: ``0 <= q2 <= pi``, link 2 turned counter-clockwise from
        link 1, so the elbow lies clockwise of the line from the base to the
        tip (below it for a tip to the right of the base). ``"up"``:
        ``-pi <= q2 <= 0``, the mirror image.

    Returns
    -------
    q : (..., 2) ndarray
        Joint angles [rad], ``q1`` in ``(-pi, pi]``. Where the tip is at the
        base (possible only when ``L1 = L2``) every ``q1`` serves and ``q1 = 0``
        is returned.

    Raises
    ------
    ValueError
        For an arm without two joints, an ``elbow`` other than ``"down"`` or
        ``"up"``, and a tip outside the workspace ``|L1 - L2| <= |p| <= L1 + L2``
        (the message names the first such tip and its distance).

    Examples
    --------
    The tip of the wall pose q = (30, 60) deg of the statics chapter's arm,
    reached with the elbow down (the wall pose itself) and with it up:

    >>> from armlab import statics_arm
    >>> arm = statics_arm()
    >>> tip = tip_position(arm, np.radians([30, 60]))
    >>> np.degrees(inverse_kinematics(arm, tip)).round(4)
    array([30., 60.])
    >>> np.degrees(inverse_kinematics(arm, tip, elbow="up")).round(4)
    array([ 82.659, -60.   ])
    """
    if arm.n != 2:
        raise ValueError(f"arm has {arm.n} joints: inverse_kinematics solves two-joint arms "
                         "(an arm with more joints reaches a point with infinitely many poses)")
    if elbow not in _ELBOWS:
        raise ValueError(f'elbow must be "down" or "up", got {elbow!r}')
    p = planar_vector("tip", tip)
    L1, L2 = arm.lengths
    r = np.hypot(p[..., 0], p[..., 1])
    r_max, r_min = L1 + L2, abs(L1 - L2)
    tol = _EDGE_TOL * r_max
    outside = (r > r_max + tol) | (r < r_min - tol)
    if np.any(outside):
        first = p[outside][0] if p.ndim > 1 else p
        where = f" ({int(outside.sum())} of {outside.size} targets)" if outside.ndim else ""
        raise ValueError(f"tip ({first[0]:.6g}, {first[1]:.6g}) m is {np.hypot(*first):.6g} m "
                         f"from the base, outside this arm's workspace "
                         f"{r_min:.6g} m <= |p| <= {r_max:.6g} m{where}")
    # 1 - cos q2 and 1 + cos q2 as products of the distances to the two edges: accurate where
    # the tip is near an edge, where cos q2 is near 1 or -1 and a difference of it would not be
    two = 2 * L1 * L2
    to_outer = np.maximum(r_max - r, 0.0) * (r_max + r) / two          # 1 - cos q2
    to_inner = np.maximum(r - r_min, 0.0) * (r + r_min) / two          # 1 + cos q2
    c2 = (r**2 - L1**2 - L2**2) / two
    s2 = _ELBOWS[elbow] * np.sqrt(to_outer * to_inner)
    q2 = np.arctan2(s2, np.clip(c2, -1.0, 1.0))
    at_base = r <= tol
    q1 = np.where(at_base, 0.0,
                  np.arctan2(p[..., 1], p[..., 0]) - np.arctan2(L2 * s2, L1 + L2 * c2))
    q1 = np.arctan2(np.sin(q1), np.cos(q1))                             # into [-pi, pi]
    q1 = np.where(q1 <= -np.pi, np.pi, q1)           # -pi, the same pose, as +pi: (-pi, pi]
    return np.stack([q1 + 0.0, q2 + 0.0], axis=-1)
