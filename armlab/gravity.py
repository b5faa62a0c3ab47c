"""Gravity on a planar arm: who carries which weight, how stiff gravity is, and what it does
to a PD controller, a payload and a wall- or ceiling-mounted base.

The gravity torque ``g(q)`` itself is :func:`armlab.gravity_torques`; its
derivation, ``g = dP/dq = -sum_i Jc_i^T m_i a`` with ``a`` the acceleration of
gravity, is in the statics chapter. This module adds what the gravity chapter
needs around it:

* :func:`gravity_shares`: the part of ``g`` each link's weight asks for;
* :func:`payload_torques`: the part a point mass at the tip asks for;
* :func:`gravity_stiffness`: ``dg/dq``, the Hessian of the potential energy,
  whose sign says whether a pose balanced by zero torque is stable;
* :func:`pd_sag`: where a PD controller without gravity compensation comes
  to rest, the solution of ``Kp e = g(q - e)``;
* :func:`mount_gravity` and :func:`mounted`: the same arm on a floor, a wall
  or a ceiling.

Conventions: SI units, angles in radians; ``q1`` from the arm's +x axis
counter-clockwise, ``q2`` relative to link 1; ``g`` is the torque that
*balances* gravity (gravity itself applies ``-g``); the PD error is
``e = q_target - q``; a positive joint torque drives its joint angle positive.
"""

from dataclasses import replace

import numpy as np

from armlab._checks import batch_shape, finite_array, joint_vector, positive_scalar
from armlab.dynamics import gravity_torques, potential_energy
from armlab.kinematics import _joints_and_coms, com_jacobians
from armlab.statics import static_torques

__all__ = ["gravity_shares", "payload_torques", "gravity_stiffness", "pd_sag", "mount_gravity",
           "mounted"]


def gravity_shares(arm, q):
    """The part of ``g(q)`` that each link's weight asks for: ``-Jc_i(q)^T m_i a``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    shares : (..., n, n) ndarray
        ``shares[..., i, j]`` is the torque joint ``j`` needs to hold link
        ``i``'s weight [N m]. Summed over ``i`` it is ``g(q)``; a link loads
        only the joints between it and the base (``shares[..., i, j] = 0`` for
        ``j > i``).

    Examples
    --------
    Two 1 m, 1 kg rods held horizontal: link 1's weight acts 0.5 m
    from the shoulder, link 2's 1.5 m from the shoulder and 0.5 m from the elbow:

    >>> from armlab import rod_arm
    >>> gravity_shares(rod_arm(), [0.0, 0.0])
    array([[ 4.905,  0.   ],
           [14.715,  4.905]])
    """
    Jc = com_jacobians(arm, q)                                   # (..., i, 2, j)
    weights = np.asarray(arm.masses)[:, None] * np.asarray(arm.gravity)   # (i, 2) [N]
    return 0.0 - np.einsum("ia,...iaj->...ij", weights, Jc)


def payload_torques(arm, q, mass):
    """Torques that hold a point mass at the tip: ``J(q)^T (-mass a)``.

    This is what ``arm.with_payload(mass)`` adds to ``g(q)``: the tip must
    push up on the payload with its weight, so the statics chapter's
    ``tau = J^T F`` applies with ``F = -mass a``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    mass : float or (...) array_like
        Payload mass [kg]; not negative. Broadcasts with the batch of ``q``.

    Returns
    -------
    tau : (..., n) ndarray
        [N m].

    Examples
    --------
    The table-top arm at (30, 45) deg with 0.5 kg in its gripper:

    >>> from armlab import tabletop_arm
    >>> payload_torques(tabletop_arm(), np.radians([30, 45]), 0.5).round(4)
    array([1.5917, 0.3174])
    """
    m = finite_array("mass", mass)
    if np.any(m < 0):
        raise ValueError(f"mass must not be negative [kg], got {mass!r}")
    q = joint_vector(arm, "q", q)
    batch_shape(q=q, mass=m[..., None])
    return 0.0 + static_torques(arm, q, -m[..., None] * np.asarray(arm.gravity))


def gravity_stiffness(arm, q):
    """``dg/dq``: how the gravity torque changes with the pose, the Hessian of ``P``.

    Entry ``(j, k)`` is ``sum_{i >= m} m_i a . (c_i - p_m)`` with
    ``m = max(j, k)``, ``c_i`` link ``i``'s centre of mass and ``p_m`` the
    position of joint ``m``: a second derivative of the potential energy, so the
    matrix is symmetric. For gravity ``(0, -g0)`` it is ``-g0`` times the
    weighted heights of the centres of mass above the joints.

    At a pose where ``g(q) = 0`` (balanced with zero torque), a positive
    definite ``dg/dq`` means a small push is resisted (stable, like a hanging
    arm) and a negative eigenvalue means a push grows (unstable, like an arm
    pointing straight up): gravity itself applies ``-g``, and
    ``-g(q + dq) = -(dg/dq) dq``.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].

    Returns
    -------
    K : (..., n, n) ndarray
        [N m/rad], symmetric.

    Examples
    --------
    Two 1 m, 1 kg rods pointing straight up: both eigenvalues negative, unstable.

    >>> from armlab import rod_arm
    >>> K = gravity_stiffness(rod_arm(), np.radians([90, 0]))
    >>> K.round(3), bool(np.all(np.linalg.eigvalsh(K) < 0))
    (array([[-19.62 ,  -4.905],
           [ -4.905,  -4.905]]), True)
    """
    p, c = _joints_and_coms(arm, joint_vector(arm, "q", q))      # (..., n, 2) each
    mg = np.asarray(arm.masses)[:, None] * np.asarray(arm.gravity)   # (n, 2) [N]
    n = arm.n
    # s[m] = sum over links i >= m of m_i a . (c_i - p_m)
    lever = np.einsum("ia,...ia->...i", mg, c)                    # m_i a . c_i
    outer = np.flip(np.cumsum(np.flip(lever, -1), -1), -1)        # sum_{i >= m} m_i a . c_i
    weight_out = np.flip(np.cumsum(np.flip(mg, 0), 0), 0)         # sum_{i >= m} m_i a, (n, 2)
    s = outer - np.einsum("ma,...ma->...m", weight_out, p)
    index = np.maximum(*np.indices((n, n)))
    return s[..., index] + 0.0


def _sag_energy(arm, q, kp, e):
    """``P(q - e) + e^T Kp e / 2``: gravity's energy plus the PD spring's [J]."""
    return potential_energy(arm, q - e) + 0.5 * np.sum(kp * e * e, axis=-1)


def pd_sag(arm, q, kp, *, tol=1e-12, max_iter=100):
    """Where a PD controller without gravity compensation comes to rest: ``Kp e = g(q - e)``.

    A PD controller ``tau = Kp e + Kd de`` holding the target ``q`` pushes only
    when there is an error ``e = q - q_arm``. At rest its torque must equal the
    gravity torque at the pose the arm actually has, ``q - e``, so the arm
    settles where ``Kp e = g(q - e)``. That is where the total potential energy
    ``V(e) = P(q - e) + e^T Kp e / 2`` (gravity plus the controller's spring)
    is stationary; this function walks downhill on ``V`` from ``e = 0`` (damped
    Newton steps with a backtracking line search) to its minimum, the rest
    pose a damped arm reaches from the target. When ``Kp`` is stiffer than
    gravity everywhere (``Kp + dg/dq`` positive definite for every pose) that
    rest pose is the only one. If the target itself is an unstable balance
    (an upright arm with ``Kp`` weaker than gravity's negative stiffness) the
    walk leaves it along the direction of fastest fall, with the first joint's
    error positive.

    Parameters
    ----------
    arm : PlanarArm
        The real arm, with its gravity.
    q : (..., n) array_like
        Target joint angles [rad].
    kp : float or (..., n) array_like
        Proportional gains [N m/rad]; positive. Broadcasts with ``q``.
    tol : float, optional
        Stop when the torque balance ``Kp e - g(q - e)`` is below ``tol``
        times the largest of ``1`` and the gravity torques [N m].
    max_iter : int, optional
        Newton steps allowed.

    Returns
    -------
    e : (..., n) ndarray
        The sag, target minus rest pose [rad]; positive where the arm rests
        below (clockwise of) a target it is pushed up to.

    Examples
    --------
    A PD with Kp = (60, 30) N m/rad holding the table-top arm at
    (30, 45) deg: the arm rests 5.5 deg low at the shoulder and 0.9 deg at
    the elbow.

    >>> from armlab import tabletop_arm
    >>> np.degrees(pd_sag(tabletop_arm(), np.radians([30, 45]), [60, 30])).round(2)
    array([5.54, 0.85])
    """
    q = joint_vector(arm, "q", q)
    kp = finite_array("kp", kp)
    if kp.ndim > 0 and kp.shape[-1] not in (1, arm.n):
        raise ValueError(f"kp has shape {kp.shape}: expected a scalar or shape (..., {arm.n})")
    if np.any(kp <= 0):
        raise ValueError(f"kp must be positive [N m/rad], got {kp.tolist()}")
    try:
        shape = np.broadcast_shapes(q.shape, kp.shape)
    except ValueError:
        raise ValueError(f"the batch dimensions of q {q.shape} and kp {kp.shape} do not "
                         "broadcast together") from None
    q = np.broadcast_to(q, shape)
    kp = np.broadcast_to(kp, shape)
    n = arm.n
    eye = np.eye(n)
    scale = max(1.0, float(np.abs(gravity_torques(arm, q)).max(initial=0.0)))
    e = np.zeros(shape)
    v0 = _sag_energy(arm, q, kp, e)
    for _ in range(max_iter):
        residual = kp * e - gravity_torques(arm, q - e)          # dV/de [N m]
        H = kp[..., :, None] * eye + gravity_stiffness(arm, q - e)
        lowest, vectors = np.linalg.eigh(H)
        converged = np.abs(residual).max(axis=-1) <= tol * scale
        bent = lowest[..., 0] <= 1e-9 * kp.max(axis=-1)           # not a minimum (yet)
        if np.all(converged & ~bent):
            return e + 0.0
        # A positive definite model of V: H itself, or H shifted up past its lowest eigenvalue.
        shift = np.where(bent, 1e-3 * kp.max(axis=-1) - lowest[..., 0], 0.0)
        step = -np.linalg.solve(H + shift[..., None, None] * eye, residual[..., None])[..., 0]
        # On a balance that is not a minimum the slope is zero: fall along the lowest mode.
        fall = vectors[..., :, 0] * np.where(vectors[..., 0, 0] < 0, -1.0, 1.0)[..., None]
        stuck = bent & (np.abs(step).max(axis=-1) < 1e-9)
        step = np.where(stuck[..., None], 1e-3 * fall, step)
        # Backtracking: halve each step until V falls enough (Armijo), one batch at a time.
        slope = np.sum(residual * step, axis=-1)
        t = np.ones(shape[:-1])
        for _ in range(60):
            trial = _sag_energy(arm, q, kp, e + t[..., None] * step)
            ok = trial <= v0 + 1e-4 * t * np.minimum(slope, 0.0) + 1e-13 * (1.0 + np.abs(v0))
            if np.all(ok):
                break
            t = np.where(ok, t, 0.5 * t)
        e = e + t[..., None] * step
        v0 = trial
    raise ValueError(f"pd_sag did not converge in {max_iter} steps: kp {kp.tolist()} may be "
                     "too weak for this arm to rest near its target")


def _turn(a, angle):
    """The vector ``a`` seen from a base turned by ``angle``: ``R(-angle) a``, rounding noise
    (below 1e-12 of its size) set to zero so that a wall or a ceiling gives exact axes."""
    c, s = np.cos(angle), np.sin(angle)
    out = np.array([c * a[0] + s * a[1], -s * a[0] + c * a[1]])
    out[np.abs(out) < 1e-12 * np.hypot(*a)] = 0.0
    return out + 0.0


def _mount_angle(angle):
    phi = finite_array("angle", angle)
    if phi.ndim != 0:
        raise ValueError(f"angle must be one mounting angle [rad], got {angle!r}")
    return float(phi)


def mount_gravity(angle, g0=9.81):
    """Gravity in the frame of an arm whose base is turned by ``angle`` from a floor mounting.

    Parameters
    ----------
    angle : float
        Mounting angle [rad], counter-clockwise: ``0`` on a floor (the arm's
        +y up), ``pi/2`` on a wall (the arm's +x up, its base on a wall to its
        right), ``pi`` on a ceiling (the arm's +y down).
    g0 : float, optional
        Size of gravity [m/s^2]; positive. Default 9.81.

    Returns
    -------
    a : (2,) ndarray
        The acceleration of gravity in the arm's frame, ``R(-angle) (0, -g0)``
        [m/s^2]; pass it as ``PlanarArm(..., gravity=a)``.

    Examples
    --------
    >>> mount_gravity(np.radians(90)).round(2), mount_gravity(np.pi).round(2)
    (array([-9.81,  0.  ]), array([0.  , 9.81]))
    """
    phi = _mount_angle(angle)
    g = positive_scalar("g0", g0, "m/s^2", "number")
    return _turn(np.array([0.0, -g]), phi)


def mounted(arm, angle):
    """The same arm with its base turned by ``angle`` (floor 0, wall ``pi/2``, ceiling ``pi``).

    Only the direction of gravity in the arm's frame changes: the torques at
    joint angles ``q`` are those of the unturned arm at ``(q1 + angle, q2, ...)``.

    Parameters
    ----------
    arm : PlanarArm
    angle : float
        Turn of the base, counter-clockwise [rad]; see :func:`mount_gravity`.

    Returns
    -------
    PlanarArm
        With ``gravity`` rotated by ``-angle``.

    Examples
    --------
    Two 1 m, 1 kg rods held horizontal on a ceiling: every torque changes sign.

    >>> from armlab import gravity_torques, rod_arm
    >>> gravity_torques(mounted(rod_arm(), np.pi), [0.0, 0.0]).round(3)
    array([-19.62 ,  -4.905])
    """
    return replace(arm, gravity=tuple(_turn(np.asarray(arm.gravity), _mount_angle(angle))))
