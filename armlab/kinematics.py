"""Positions and Jacobians of a planar arm.

Conventions: SI units, angles in radians; ``q[..., 0]`` from +x counter-clockwise,
each later angle relative to the previous link. A Jacobian column ``j`` of a
point ``p`` on link ``i`` is ``z x (p - p_j)`` for ``j <= i`` and zero beyond.
"""

import numpy as np

from armlab._checks import joint_vector

__all__ = ["joint_positions", "tip_position", "com_positions", "jacobian", "com_jacobians"]


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
    Seed 003's arm stretched along x (``q = 0``), where J has rank 1:

    >>> from armlab import statics_arm
    >>> jacobian(statics_arm(), [0.0, 0.0])
    array([[0. , 0. ],
           [0.9, 0.4]])
    """
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
