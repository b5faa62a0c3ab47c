"""Motor limits: what saturated motors do to a motion, how slow a move must be, what a pose holds.

Four questions, one section each:

* **Saturation at one instant.** :func:`clip_torques` (each drive on its own)
  and :func:`scale_torques` (the whole torque vector shortened, its direction
  kept) turn a requested torque into one the motors can give;
  :func:`realized_acceleration` follows it through forward dynamics to the
  acceleration the arm really gets.
* **Time scaling.** :func:`shortest_duration` finds the fastest quintic
  rest-to-rest move between two poses that stays within the limits, and where
  along the move the limit binds.
* **Static limits.** :func:`payload_capacity` (per joint, as Robotics Toolbox for Python defines it),
  :func:`pose_capacity` (the pose's payload and the joint that limits it) and
  :func:`capacity_map` (over a grid of joint angles).
* **Gears.** :class:`Motor` and :func:`reflect_motor` refer a motor's torque,
  speed, friction and rotor inertia to the joint through a gear ratio;
  :func:`mass_matrix_with_rotors` adds the rotors' reflected inertia to ``M``.

Conventions (the book's): SI units, radians; positive torque drives its joint
angle positive; ``M qdd + c + g + friction = tau - J^T tip_force`` with
``tip_force`` the force the tip applies to the environment and ``friction``
the torque the motors add to *overcome* friction. A torque ``limit`` is a
positive scalar or ``(n,)`` array (symmetric, ``-limit`` to ``+limit``) or a
``(2, n)`` array of minima then maxima [N m].
"""

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from armlab._checks import (batch_shape, finite_array, joint_vector, nonnegative_scalar,
                            per_joint, planar_vector, positive_scalar, torque_bounds)
from armlab.dynamics import (forward_dynamics, gravity_torques, inverse_dynamics, mass_matrix,
                             torque_parts)
from armlab.kinematics import jacobian

__all__ = ["clip_torques", "scale_torques", "realized_acceleration", "payload_capacity",
           "pose_capacity", "capacity_map", "CapacityMap", "shortest_duration", "DurationLimit",
           "Motor", "JointDrive", "reflect_motor", "mass_matrix_with_rotors", "POLICIES",
           "rms_torque",
           "path_dynamics", "path_acceleration_bounds", "time_optimal_scaling", "PhaseProfile"]

#: The two ways to bring a torque request within the limits (see :func:`realized_acceleration`).
POLICIES = ("clip", "scale")


# ----------------------------------------------------------------------------- saturation
def _torques(tau):
    tau = finite_array("tau", tau)
    if tau.ndim == 0:
        raise ValueError("tau has shape (): expected shape (..., n)")
    return tau


def clip_torques(tau, limit):
    """Clip each joint torque to its limits, independently.

    This is what independent drives do: each current amplifier saturates on
    its own, whatever the other joints ask for.

    Parameters
    ----------
    tau : (..., n) array_like
        Requested torques [N m].
    limit : float, (n,) or (2, n) array_like
        Positive symmetric limit (``-limit`` to ``+limit``), per joint or for
        all, or a ``(2, n)`` array of minima then maxima [N m].

    Returns
    -------
    applied : (..., n) ndarray
        [N m].

    Examples
    --------
    >>> clip_torques([22.286667, 5.738333], 20)
    array([20.      ,  5.738333])
    >>> clip_torques([-3.0, 3.0], [[-1, -5], [2, 2]])
    array([-1.,  2.])
    """
    tau = _torques(tau)
    low, high = torque_bounds(tau.shape[-1], limit)
    return np.clip(tau, low, high)


def scale_torques(tau, limit):
    """Shorten the whole torque vector until every joint is within its limits.

    ``applied = s tau`` with the largest ``s`` in ``[0, 1]`` that fits, so the
    torque keeps its direction (the ratios between the joints). A central
    controller that sees every joint can do this; independent drives cannot
    (they clip, :func:`clip_torques`).

    Parameters
    ----------
    tau : (..., n) array_like
        Requested torques [N m].
    limit : float, (n,) or (2, n) array_like
        Torque limits, as in :func:`clip_torques` [N m]; minima must not be
        above zero nor maxima below it (a scaled torque reaches zero).

    Returns
    -------
    applied : (..., n) ndarray
        [N m]; equal to ``tau`` when it is already within the limits.

    Examples
    --------
    The request of the two 1 m, 1 kg rods held horizontal, asked for
    qdd = (1, 0) under 20 N m: every joint gets the same factor,
    20 / 22.286667 = 0.897397:

    >>> scale_torques([22.286667, 5.738333], 20).round(6)
    array([20.      ,  5.149566])
    """
    tau = _torques(tau)
    low, high = torque_bounds(tau.shape[-1], limit)
    if np.any(low > 0) or np.any(high < 0):
        raise ValueError(f"limit minima {low.tolist()} and maxima {high.tolist()} must "
                         "contain zero to scale a torque")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        room = np.where(tau > 0, high / tau, np.where(tau < 0, low / tau, np.inf))
    factor = np.minimum(room.min(axis=-1), 1.0)
    return factor[..., None] * tau


def realized_acceleration(arm, q, qd, qdd_request, limit, tip_force=None, policy="clip"):
    """What happens to a requested acceleration when the motors saturate.

    Inverse dynamics gives the torque the request needs; the limits (by
    ``policy``) give the torque the motors apply; forward dynamics gives the
    acceleration that torque produces. Subtracting the two equations of
    motion, ``M (qdd - qdd_request) = applied - requested``: every joint's
    acceleration changes when any one torque does, through the mass matrix.

    Parameters
    ----------
    arm : PlanarArm
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].
    qdd_request : (..., n) array_like
        Requested accelerations [rad/s^2].
    limit : float, (n,) or (2, n) array_like
        Torque limits, as in :func:`clip_torques` [N m].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment [N]. A force the environment
        applies to the arm (a support pushing on the tip) is ``-tip_force``.
    policy : {"clip", "scale"}
        ``"clip"``: each joint clipped on its own (:func:`clip_torques`);
        ``"scale"``: the whole vector shortened (:func:`scale_torques`).

    Returns
    -------
    requested : (..., n) ndarray
        Inverse-dynamics torques for the request [N m].
    applied : (..., n) ndarray
        Those torques brought within the limits [N m].
    qdd : (..., n) ndarray
        Accelerations the applied torques produce [rad/s^2].

    Examples
    --------
    The two 1 m, 1 kg rods, horizontal and still, asked for qdd = (1, 0) under a
    20 N m limit.
    The shoulder clips and accelerates backwards; the elbow swings:

    >>> from armlab import rod_arm
    >>> req, applied, qdd = realized_acceleration(rod_arm(), [0, 0], [0, 0], [1, 0], 20)
    >>> applied.round(6), qdd.round(6)
    (array([20.      ,  5.738333]), array([-2.92,  9.8 ]))

    Scaling keeps the torque's direction, not the motion's (gravity's share
    is scaled down too):

    >>> realized_acceleration(rod_arm(), [0, 0], [0, 0], [1, 0], 20, policy="scale")[2].round(6)
    array([-0.396713,  1.72548 ])
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {list(POLICIES)}, got {policy!r}")
    requested = inverse_dynamics(arm, q, qd, qdd_request, tip_force)
    applied = (clip_torques if policy == "clip" else scale_torques)(requested, limit)
    return requested, applied, forward_dynamics(arm, q, qd, applied, tip_force)


# ---------------------------------------------------------------------------- static limits
def payload_capacity(arm, q, limit, tip_force=None):
    """How many units of a tip load each joint can hold, on top of the arm's own weight.

    Per joint, the largest ``k >= 0`` with ``g(q) + k J^T F`` inside the
    torque limits (the meaning of ``payload_capacity`` in Robotics Toolbox for
    Python's documentation, with ``inf`` and ``nan`` as there). With the default ``F``, the support
    of a 1 kg mass against gravity, the answer is in kilograms.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    limit : float, (n,) or (2, n) array_like
        Torque limits, as in :func:`clip_torques` [N m].
    tip_force : (..., 2) array_like, optional
        Force the tip applies per unit of load [N]; default ``-gravity * 1 kg``
        (holding up 1 kg).

    Returns
    -------
    capacity : (..., n) ndarray
        Per joint: a multiple ``>= 0``; ``inf`` where the joint carries none
        of the load; ``nan`` where the arm's own weight already exceeds that
        joint's limit. The smallest entry names the joint that limits the load
        (:func:`pose_capacity`).

    Examples
    --------
    The two 1 m, 1 kg rods held horizontal with 25 N m motors:

    >>> from armlab import rod_arm
    >>> payload_capacity(rod_arm(), [0, 0], 25).round(4)
    array([0.2742, 2.0484])
    """
    q = joint_vector(arm, "q", q)
    force = (-np.asarray(arm.gravity) if tip_force is None
             else planar_vector("tip_force", tip_force))
    batch_shape(q=q, tip_force=force)
    g = gravity_torques(arm, q)
    t = np.einsum("...aj,...a->...j", jacobian(arm, q), force)
    low, high = torque_bounds(arm.n, limit)
    g, t = np.broadcast_arrays(g, t)
    tol = 1e-12 * np.max(np.abs(force)) * sum(arm.lengths)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        k = np.where(t > tol, (high - g) / t, np.where(t < -tol, (low - g) / t, np.inf))
    return np.where((g < low) | (g > high), np.nan, k)


def pose_capacity(arm, q, limit, tip_force=None):
    """The load a pose can hold, and the joint that limits it.

    The smallest of :func:`payload_capacity`'s per-joint values; ``nan`` when
    any joint cannot even hold the arm's own weight (a ``nan`` is not a zero:
    the arm falls without any load), ``inf`` when no joint carries the load.

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    limit : float, (n,) or (2, n) array_like
        Torque limits, as in :func:`clip_torques` [N m].
    tip_force : (..., 2) array_like, optional
        Force the tip applies per unit of load [N]; default: holding up 1 kg.

    Returns
    -------
    capacity : (...) ndarray
        Units of load (kg by default); ``nan`` or ``inf`` as above.
    joint : (...) ndarray of int
        Index of the limiting joint: the smallest capacity, or the first joint
        that its own weight overloads where ``capacity`` is ``nan``; ``-1``
        where ``capacity`` is ``inf``.

    Examples
    --------
    The two 1 m, 1 kg rods held horizontal: the shoulder limits at 25 N m, and at
    15 N m it cannot hold the arm at all:

    >>> from armlab import rod_arm
    >>> cap, joint = pose_capacity(rod_arm(), [0, 0], 25)
    >>> cap.round(4), joint
    (np.float64(0.2742), np.int64(0))
    >>> pose_capacity(rod_arm(), [0, 0], 15)
    (np.float64(nan), np.int64(0))
    """
    cap = payload_capacity(arm, q, limit, tip_force)
    overloaded = np.isnan(cap)
    capacity = np.where(overloaded.any(axis=-1), np.nan,
                        np.where(overloaded, np.inf, cap).min(axis=-1))
    joint = np.where(overloaded.any(axis=-1), overloaded.argmax(axis=-1),
                     np.where(np.isinf(capacity), -1,
                              np.where(overloaded, np.inf, cap).argmin(axis=-1)))
    return capacity[()], joint[()]


class CapacityMap(NamedTuple):
    """The payload capacity of a two-joint arm over a grid of joint angles.

    Attributes
    ----------
    q1 : (k1,) ndarray
        Shoulder angles [rad], the grid's columns.
    q2 : (k2,) ndarray
        Elbow angles [rad], the grid's rows.
    capacity : (k2, k1) ndarray
        :func:`pose_capacity` at ``(q1[i], q2[j])`` in row ``j``, column ``i``.
    joint : (k2, k1) ndarray of int
        The limiting joint there (``-1`` where the capacity is ``inf``).
    """

    q1: np.ndarray
    q2: np.ndarray
    capacity: np.ndarray
    joint: np.ndarray


def capacity_map(arm, q1, q2, limit, tip_force=None):
    """Payload capacity of a two-joint arm over a grid of shoulder and elbow angles.

    Parameters
    ----------
    arm : PlanarArm
        Two joints.
    q1, q2 : (k1,) and (k2,) array_like
        Shoulder and elbow angles of the grid [rad].
    limit : float, (2,) or (2, 2) array_like
        Torque limits, as in :func:`clip_torques` [N m].
    tip_force : (2,) array_like, optional
        Force the tip applies per unit of load [N]; default: holding up 1 kg.

    Returns
    -------
    CapacityMap
        ``capacity[j, i]`` and ``joint[j, i]`` at ``(q1[i], q2[j])``, as
        :func:`pose_capacity` gives them.

    Examples
    --------
    The table-top arm with (8, 2) N m motors, shoulder level or
    raised 45 deg, elbow straight or bent 90 deg:

    >>> from armlab import tabletop_arm
    >>> m = capacity_map(tabletop_arm(), np.radians([0, 45]), np.radians([0, 90]), [8, 2])
    >>> m.capacity.round(3)
    array([[0.165, 0.653],
           [0.718, 0.653]])
    >>> m.joint
    array([[0, 1],
           [0, 1]])
    """
    if arm.n != 2:
        raise ValueError(f"capacity_map maps a two-joint arm; this arm has {arm.n} joints")
    grids = []
    for name, value in (("q1", q1), ("q2", q2)):
        v = finite_array(name, value)
        if v.ndim != 1 or v.size == 0:
            raise ValueError(f"{name} has shape {v.shape}: expected a non-empty shape (k,)")
        grids.append(v)
    a, b = np.meshgrid(*grids)
    capacity, joint = pose_capacity(arm, np.stack([a, b], axis=-1), limit, tip_force)
    return CapacityMap(grids[0], grids[1], capacity, joint)


# ------------------------------------------------------------------------------------- gears
@dataclass(frozen=True)
class Motor:
    """A motor as its data sheet gives it, on the motor side of the gear.

    Parameters
    ----------
    torque : float
        Largest (peak) torque the motor gives [N m]; positive. For a DC motor
        this is the amplifier's current limit times the torque constant.
    speed : float
        Largest speed [rad/s]; positive. With ``stall_torque`` it is the
        no-load speed, where the torque-speed line reaches zero.
    damping : float, optional
        Viscous friction [N m s/rad]. Default 0.
    coulomb : float, optional
        Coulomb (dry) friction [N m]. Default 0.
    inertia : float, optional
        Rotor inertia [kg m^2]. Default 0.
    stall_torque : float, optional
        Torque at zero speed on the motor's torque-speed line [N m], at least
        ``torque``: with the supply voltage fixed, back-EMF leaves the motor
        ``stall_torque (1 - omega / speed)`` at speed ``omega`` in the
        direction of motion (and ``stall_torque (1 + omega / speed)`` against
        it), never more than ``torque``. Default: none, the torque is
        ``torque`` at every speed up to ``speed``.
    continuous_torque : float, optional
        The torque the motor can give for ever without overheating [N m], at
        most ``torque``: the largest root-mean-square torque over a duty cycle
        (:func:`rms_torque`). Default ``torque``.

    Examples
    --------
    >>> m = Motor(torque=0.15, speed=500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6,
    ...           stall_torque=0.3, continuous_torque=0.05)
    >>> m.speed, m.stall_torque, m.continuous_torque
    (500.0, 0.3, 0.05)
    """

    torque: float
    speed: float
    damping: float = 0.0
    coulomb: float = 0.0
    inertia: float = 0.0
    stall_torque: float = None
    continuous_torque: float = None

    def __post_init__(self):
        for name in ("torque", "speed", "damping", "coulomb", "inertia"):
            check = positive_scalar if name in ("torque", "speed") else nonnegative_scalar
            object.__setattr__(self, name, check(name, getattr(self, name), what="number"))
        stall = (np.inf if self.stall_torque is None
                 else positive_scalar("stall_torque", self.stall_torque, what="number"))
        if stall < self.torque:
            raise ValueError(f"stall_torque {stall!r} must be at least torque {self.torque!r}")
        object.__setattr__(self, "stall_torque", stall)
        cont = (self.torque if self.continuous_torque is None
                else positive_scalar("continuous_torque", self.continuous_torque,
                                     what="number"))
        if cont > self.torque:
            raise ValueError(f"continuous_torque {cont!r} must be at most torque {self.torque!r}")
        object.__setattr__(self, "continuous_torque", cont)


class JointDrive(NamedTuple):
    """A motor seen from the joint, through a gear of ratio ``G`` (ideal, lossless teeth).

    Every attribute is an array of the gear ratio's shape.

    Attributes
    ----------
    gear_ratio : ndarray
        ``G``, motor turns per joint turn.
    torque : ndarray
        ``G tau_m``: largest joint torque [N m].
    speed : ndarray
        ``omega_m / G``: largest joint speed [rad/s].
    damping : ndarray
        ``G^2 B``: viscous friction at the joint [N m s/rad].
    coulomb : ndarray
        ``G Tc``: Coulomb friction at the joint [N m].
    inertia : ndarray
        ``G^2 J_m``: rotor inertia at the joint [kg m^2].
    stall_torque : ndarray
        ``G tau_stall``: the torque-speed line's torque at rest [N m] (``inf``
        without a line).
    continuous_torque : ndarray
        ``G tau_cont``: the joint's thermal limit on the RMS torque [N m].
    """

    gear_ratio: np.ndarray
    torque: np.ndarray
    speed: np.ndarray
    damping: np.ndarray
    coulomb: np.ndarray
    inertia: np.ndarray
    stall_torque: np.ndarray
    continuous_torque: np.ndarray

    def torque_range(self, qd):
        """The joint torques the motor can apply at joint speed ``qd``: ``(low, high)`` [N m].

        ``high = min(G tau_m, G tau_stall (1 - qd / speed))`` and ``low =
        max(-G tau_m, -G tau_stall (1 + qd / speed))``, ``speed`` the joint's
        no-load speed ``omega_0 / G``: back-EMF takes ``G^2 (tau_stall /
        omega_0) qd`` off both ends, like a viscous brake, and the current limit
        caps both. Friction is not taken off (it is the arm's, in its equation
        of motion).

        Examples
        --------
        A 0.15 N m motor with a 0.3 N m, 500 rad/s line, through 50:1: at
        7 rad/s (350 rad/s at the motor) 4.5 N m forward, the full 7.5 N m
        backward:

        >>> m = Motor(0.15, 500.0, stall_torque=0.3)
        >>> [round(float(x), 6) for x in reflect_motor(m, 50).torque_range(7.0)]
        [-7.5, 4.5]
        """
        qd = finite_array("qd", qd)
        with np.errstate(invalid="ignore"):
            high = np.minimum(self.torque, self.stall_torque * (1 - qd / self.speed))
            low = np.maximum(-self.torque, -self.stall_torque * (1 + qd / self.speed))
        return low, high

    def friction(self, qd):
        """Torque the motor spends overcoming its own friction at joint speed ``qd`` [N m].

        ``G^2 B qd + G Tc sign(qd)``, the book's sign (with ``qd``). A library
        that reports the friction torque itself (Robotics Toolbox for Python's
        ``friction``) gives the negative.

        Examples
        --------
        >>> drive = reflect_motor(Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3), 50)
        >>> round(float(drive.friction(2.0)), 6)
        0.3
        """
        qd = finite_array("qd", qd)
        return self.damping * qd + self.coulomb * np.sign(qd)

    def available_torque(self, qd):
        """Joint torque left for the arm at joint speed ``qd``: ``G tau_m`` less friction [N m].

        Examples
        --------
        >>> drive = reflect_motor(Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3), 50)
        >>> float(drive.available_torque(2.0))
        7.2

        With a torque-speed line, the line's torque at ``|qd|`` (forward)
        replaces ``G tau_m`` where it is smaller (:meth:`torque_range`).
        """
        return (np.minimum(self.torque, self.stall_torque * (1 - np.abs(finite_array("qd", qd))
                                                              / self.speed))
                - np.abs(self.friction(qd)))


def reflect_motor(motor, gear_ratio):
    """Refer a motor to the joint through a gear: what a ratio buys and what it costs.

    A gear of ratio ``G`` (``G`` motor turns per joint turn, ideal teeth)
    multiplies torque by ``G`` and divides speed by ``G``. Viscous friction
    ``B`` appears at the joint as ``G^2 B`` (the motor turns ``G`` times
    faster and its torque counts ``G`` times), Coulomb friction ``Tc`` as
    ``G Tc``, and the rotor's inertia ``J_m`` as ``G^2 J_m`` (its kinetic
    energy ``J_m (G qd)^2 / 2``). ``PlanarArm(damping=B, coulomb=Tc,
    gear_ratio=G)`` uses the same reflection for friction.

    Parameters
    ----------
    motor : Motor
    gear_ratio : float or array_like
        ``G`` [-], positive; any shape (a sweep of ratios broadcasts).

    Returns
    -------
    JointDrive
        Fields of the shape of ``gear_ratio``.

    Examples
    --------
    A 0.15 N m, 500 rad/s motor through a 50:1 gear:

    >>> m = Motor(torque=0.15, speed=500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6)
    >>> d = reflect_motor(m, 50)
    >>> [round(float(x), 6) for x in d]
    [50.0, 7.5, 10.0, 0.05, 0.2, 0.0125, inf, 7.5]
    """
    if not isinstance(motor, Motor):
        raise ValueError(f"motor must be an armlab.Motor, got {type(motor).__name__}")
    G = finite_array("gear_ratio", gear_ratio)
    if np.any(G <= 0):
        raise ValueError(f"gear_ratio must be positive, got {gear_ratio!r}")
    return JointDrive(G, G * motor.torque, motor.speed / G, G**2 * motor.damping,
                      G * motor.coulomb, G**2 * motor.inertia, G * motor.stall_torque,
                      G * motor.continuous_torque)


def rms_torque(tau, t):
    """The root-mean-square torque over a duty cycle: what heats a motor.

    ``sqrt(1/(t_end - t_0) integral tau^2 dt)`` per joint, by the trapezoidal
    rule on the samples. A motor's winding heats with the square of its
    current, and its torque is proportional to the current, so over a cycle
    that repeats the RMS torque must stay within the motor's continuous rating
    (:class:`Motor`'s ``continuous_torque``, times ``G`` at the joint), however
    briefly the peaks reach its peak torque.

    Parameters
    ----------
    tau : (..., k, n) array_like
        Torques at the ``k`` sample times [N m].
    t : (k,) array_like
        Sample times, increasing, at least two [s].

    Returns
    -------
    rms : (..., n) ndarray
        [N m].

    Examples
    --------
    Holding 6 N m for 3 s and 0 N m for 1 s: the RMS is 6 sqrt(3/4):

    >>> t = np.array([0.0, 3.0, 3.0, 4.0])
    >>> rms_torque([[6.0], [6.0], [0.0], [0.0]], t).round(6)
    array([5.196152])
    """
    tau = finite_array("tau", tau)
    t = finite_array("t", t)
    if t.ndim != 1 or t.size < 2 or np.any(np.diff(t) < 0) or t[-1] <= t[0]:
        raise ValueError(f"t has shape {t.shape}: expected increasing times, shape (k,), k >= 2")
    if tau.ndim < 2 or tau.shape[-2] != t.size:
        raise ValueError(f"tau has shape {tau.shape}: expected (..., {t.size}, n), one row per "
                         "time")
    square = np.moveaxis(np.square(tau), -2, -1)
    return np.sqrt(np.trapezoid(square, t, axis=-1) / (t[-1] - t[0]))


def mass_matrix_with_rotors(arm, q, rotor_inertia):
    """The mass matrix with each motor's rotor inertia reflected through the arm's gears.

    ``M(q) + diag(G^2 J_m)``, with ``G`` the arm's ``gear_ratio``. A rotor
    spinning at ``G qd_j`` stores ``J_m (G qd_j)^2 / 2``, which is what the
    diagonal term adds to the kinetic energy. (The rotors' own gyroscopic
    coupling, of order ``J_m G`` instead of ``J_m G^2``, is left out, as is
    usual.)

    Parameters
    ----------
    arm : PlanarArm
    q : (..., n) array_like
        Joint angles [rad].
    rotor_inertia : float or (n,) array_like
        Each motor's rotor inertia about its axis, motor side [kg m^2].

    Returns
    -------
    M : (..., n, n) ndarray
        [kg m^2].

    Examples
    --------
    The table-top arm at (30, 45) deg with 5e-6 kg m^2 rotors through 50:1 gears:

    >>> from armlab import PlanarArm
    >>> arm = PlanarArm((0.30, 0.25), (2.0, 1.0), gear_ratio=50)
    >>> mass_matrix_with_rotors(arm, np.radians([30, 45]), 5e-6).round(4)
    array([[0.2364, 0.0473],
           [0.0473, 0.0333]])
    """
    jm = per_joint(arm.n, "rotor_inertia", rotor_inertia, nonnegative=True)
    reflected = np.square(arm.gear_ratio) * jm
    return mass_matrix(arm, q) + np.diag(reflected)


# -------------------------------------------------------------------------------- time scaling
class DurationLimit(NamedTuple):
    """The shortest quintic move within the limits, and where it binds.

    Attributes
    ----------
    duration : float
        Shortest duration ``T`` [s] such that the move, and every slower one,
        stays within the limits; ``inf`` when no duration does (the torque
        that remains at any speed, gravity's, is outside already), ``0.0``
        when no duration is too short (nothing moves).
    fraction : float
        Where the limit binds, as a fraction ``t / T`` of the move (the middle,
        0.5, for a speed limit); where the remaining torque is furthest outside
        when ``duration`` is ``inf``; ``nan`` when nothing binds.
    time : float
        ``fraction * duration`` [s] (``nan`` unless ``duration`` is finite and
        positive).
    joint : int
        The joint that binds (``-1`` when nothing binds).
    bound : int
        ``+1`` where it reaches its maximum, ``-1`` its minimum (of torque, or
        of speed), ``0`` when nothing binds.
    kind : str
        What binds: ``"torque"``, ``"speed"``, ``"floor"`` (no duration works)
        or ``""`` (nothing binds).
    """

    duration: float
    fraction: float
    time: float
    joint: int
    bound: int
    kind: str


def _first_exit(a, b, d):
    """Smallest ``x >= 0`` where ``a x^2 + b x`` first rises above ``d >= 0``; ``inf`` if never.

    Element-wise. ``a x^2 + b x - d`` starts at ``-d <= 0``; its first upward
    zero crossing is the exit.
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        disc = b * b + 4.0 * a * d
        root = np.sqrt(np.maximum(disc, 0.0))
        # Convex (a > 0): the larger root, written without cancellation.
        convex = np.where(b > 0, 2.0 * d / (b + root), (root - b) / (2.0 * a))
        convex = np.where(b > 0, np.where(d == 0, 0.0, convex), convex)
        # Concave (a < 0): above d only between the two roots, which are positive when b > 0.
        concave = np.where((b > 0) & (disc > 0),
                           np.where(d == 0, 0.0, 2.0 * d / (b + root)), np.inf)
        linear = np.where(b > 0, d / b, np.inf)
        x = np.where(a > 0, convex, np.where(a < 0, concave, linear))
    return np.where(np.isnan(x), np.inf, x)


def _exits(x_parts, low, high, stall=None, brake=None):
    """Per sample and joint, the first ``x = 1/T`` at which the torque leaves its bounds.

    ``x_parts = (a2, a1, a0, qd1)`` with torque ``a2 x^2 + a1 x + a0`` and joint
    speed ``qd1 x``. With a torque-speed line (``stall`` S and ``brake`` k =
    S / no-load speed, per joint) the torque must also stay within
    ``-S - k qd1 x`` and ``S - k qd1 x``: the line adds ``k qd1`` to ``a1``.
    Returns the exit ``x`` and the bound (+1 upper, -1 lower), both ``(..., n)``.
    """
    a2, a1, a0, qd1 = x_parts
    up = _first_exit(a2, a1, high - a0)
    down = _first_exit(-a2, -a1, a0 - low)
    if stall is not None:
        up = np.minimum(up, _first_exit(a2, a1 + brake * qd1, stall - a0))
        down = np.minimum(down, _first_exit(-a2, -(a1 + brake * qd1), stall + a0))
    return np.minimum(up, down), np.where(up <= down, 1, -1)


def shortest_duration(arm, q_start, q_end, limit, tip_force=None, rotor_inertia=0.0,
                      speed_limit=None, samples=801, stall_torque=None):
    """Shortest duration of a quintic rest-to-rest move that stays within torque and speed limits.

    Along the quintic ``q(t) = q_start + (q_end - q_start) s(t/T)`` (see
    :func:`armlab.quintic`), speed scales with ``1/T`` and acceleration with
    ``1/T^2``, so at each point ``u = t/T`` of the path the torque is

        ``tau(u) = (M_r qdd_1 + c(q, qd_1)) / T^2 + G^2 B qd_1 / T + g + G Tc sign(qd_1) + J^T F``

    with ``qd_1, qdd_1`` the speeds and accelerations of the one-second move
    and ``M_r`` the mass matrix with the rotors' reflected inertia
    (:func:`mass_matrix_with_rotors`). Gravity (with Coulomb friction and the
    tip force) is a floor that no slowing removes. For each ``u`` and joint
    the first ``1/T`` at which the torque leaves its bounds solves a
    quadratic; the torque's answer is the smallest over the path (sampled,
    then refined by golden-section search round the binding sample). A speed
    limit binds at the middle of the move, where the quintic's speed peaks at
    15/8 of the mean. The duration returned is the shortest with which the
    move, and every slower one, stays within all the limits.

    Parameters
    ----------
    arm : PlanarArm
    q_start, q_end : (n,) array_like
        Start and end poses [rad].
    limit : float, (n,) or (2, n) array_like
        Torque limits, as in :func:`clip_torques` [N m].
    tip_force : (2,) array_like, optional
        A constant force the tip applies to the environment along the move [N].
    rotor_inertia : float or (n,) array_like, optional
        Motor rotor inertia, motor side [kg m^2], reflected through the arm's
        ``gear_ratio`` as ``G^2 J_m``. Default 0.
    speed_limit : float or (n,) array_like, optional
        Largest joint speed [rad/s], positive (for a geared motor, its speed
        over ``G``: :func:`reflect_motor`). Default: none.
    samples : int, optional
        Points along the path before refinement (at least 3). Default 801.
    stall_torque : float or (n,) array_like, optional
        A motor torque-speed line at each joint (joint side, ``G tau_stall``)
        [N m], at least the largest ``limit``: at joint speed ``qd`` the torque
        must also stay between ``-S (1 + qd / v)`` and ``S (1 - qd / v)``, with
        ``v`` the ``speed_limit`` (then the no-load speed, required).
        Default: none.

    Returns
    -------
    DurationLimit
        ``duration`` [s]; ``fraction`` and ``time`` [s] where the limit binds;
        its ``joint``, ``bound`` (+1 maximum, -1 minimum) and ``kind``.

    Examples
    --------
    The table-top arm's move, (-45, 90) deg to (60, -30) deg, with motors of
    (8, 2) N m: 0.8 s is too fast; the shoulder reaches its maximum about a
    third of the way in:

    >>> from armlab import tabletop_arm
    >>> move = np.radians([-45, 90]), np.radians([60, -30])
    >>> lim = shortest_duration(tabletop_arm(), *move, [8, 2])
    >>> round(lim.duration, 4), round(lim.time, 4), lim.joint, lim.bound, lim.kind
    (0.9754, 0.3527, 0, 1, 'torque')

    With joints that turn at most 3 rad/s the elbow's speed binds instead,
    at 15/8 x 120 deg / 3 rad/s:

    >>> lim = shortest_duration(tabletop_arm(), *move, [8, 2], speed_limit=3.0)
    >>> round(lim.duration, 4), lim.fraction, lim.joint, lim.kind
    (1.309, 0.5, 1, 'speed')
    """
    move = _QuinticMove(arm, q_start, q_end, limit, tip_force, rotor_inertia, speed_limit,
                        samples, stall_torque)
    u = np.linspace(0.0, 1.0, move.samples)
    A, B, C, qd1 = move.parts(u)
    floor = _floor_limit(move, u, C)
    if floor is not None:
        return floor
    x, _ = move.exits((A, B, C, qd1))
    best = x.min(axis=1)
    k = int(np.argmin(best))
    speed = _speed_limit(move)
    if not np.isfinite(best[k]):
        return speed if speed.duration > 0 else DurationLimit(0.0, np.nan, np.nan, -1, 0, "")
    torque = _torque_limit(move, u, best, k)
    return speed if speed.duration > torque.duration else torque


class _QuinticMove:
    """:func:`shortest_duration`'s move, checked: its limits and its torque along the path."""

    def __init__(self, arm, q_start, q_end, limit, tip_force, rotor_inertia, speed_limit,
                 samples, stall_torque):
        start = joint_vector(arm, "q_start", q_start)
        end = joint_vector(arm, "q_end", q_end)
        if start.shape != (arm.n,) or end.shape != (arm.n,):
            raise ValueError(f"q_start and q_end have shapes {start.shape} and {end.shape}: "
                             f"expected one pose each, shape ({arm.n},)")
        if int(samples) != samples or samples < 3:
            raise ValueError(f"samples must be an integer of at least 3, got {samples!r}")
        force = None if tip_force is None else planar_vector("tip_force", tip_force)
        if force is not None and force.shape != (2,):
            raise ValueError(f"tip_force has shape {force.shape}: expected one force, shape (2,)")
        self.low, self.high = torque_bounds(arm.n, limit)
        self.rotors = np.square(arm.gear_ratio) * per_joint(arm.n, "rotor_inertia",
                                                            rotor_inertia, nonnegative=True)
        if stall_torque is not None and speed_limit is None:
            raise ValueError("stall_torque needs speed_limit, the no-load speed of the line")
        self.stall = (None if stall_torque is None
                      else per_joint(arm.n, "stall_torque", stall_torque, positive=True))
        self.top_speed = (np.full(arm.n, np.inf) if speed_limit is None
                          else per_joint(arm.n, "speed_limit", speed_limit, positive=True))
        self.arm, self.start, self.end, self.force = arm, start, end, force
        self.samples = int(samples)
        self.delta = end - start
        # friction as the joint feels it (G^2 B and G Tc, as in the arm's friction_torques)
        self.viscous = np.square(arm.gear_ratio) * np.asarray(arm.damping)
        self.dry = np.asarray(arm.gear_ratio) * np.asarray(arm.coulomb)
        self.brake = None if self.stall is None else self.stall / self.top_speed

    def parts(self, u):
        """Torque coefficients ``(A, B, C)`` of ``x = 1/T`` at path points ``u``, and the
        one-second move's speeds there, (k, n) each."""
        u = np.asarray(u, dtype=float)[:, None]
        s = u**3 * (10 - 15 * u + 6 * u**2)
        q = (1.0 - s) * self.start + s * self.end
        qd1 = 30 * u**2 * (1 - u) ** 2 * self.delta
        qdd1 = 60 * u * (1 - u) * (1 - 2 * u) * self.delta
        p = torque_parts(self.arm, q, qd1, qdd1, self.force)
        A = p["inertia"] + self.rotors * qdd1 + p["velocity"]
        C = p["gravity"] + p["tip"] + self.dry * np.sign(qd1)
        return A, self.viscous * qd1, C, qd1

    def exits(self, x_parts):
        """:func:`_exits` within this move's limits."""
        return _exits(x_parts, self.low, self.high, self.stall, self.brake)

    def exit_at(self, v):
        """The smallest exit ``x = 1/T`` over the joints at the path point ``v``."""
        return float(self.exits(self.parts([v]))[0].min())


def _floor_limit(move, u, C):
    """The "floor" :class:`DurationLimit` when the torque that no slowing removes (``C``, at
    the path points ``u``) is outside the limits somewhere, else None."""
    low, high = move.low, move.high
    outside = np.maximum(C - high, low - C) / (high - low)        # > 0: the floor is outside
    if not np.any(outside > 0):
        return None
    k, j = np.unravel_index(np.argmax(outside), outside.shape)
    return DurationLimit(np.inf, float(u[k]), np.nan, int(j), 1 if C[k, j] > high[j] else -1,
                         "floor")


def _speed_limit(move):
    """The speed limit's :class:`DurationLimit`: the quintic's peak speed, 15/8 |delta| / T,
    comes at the middle of the move."""
    speed_T = 1.875 * np.abs(move.delta) / move.top_speed
    j = int(np.argmax(speed_T))
    return DurationLimit(float(speed_T[j]), 0.5, 0.5 * float(speed_T[j]), j,
                         1 if move.delta[j] > 0 else -1, "speed")


def _golden_section(f, lo, hi):
    """Golden-section search for the smallest ``f`` on ``[lo, hi]``: the last two points and
    their values, ``(fc, c, fd, d)``, after 40 steps (the bracket shrinks to 1e-8 of its
    width)."""
    ratio = (np.sqrt(5.0) - 1.0) / 2.0
    c, d = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fc, fd = f(c), f(d)
    for _ in range(40):
        if fc <= fd:
            hi, d, fd = d, c, fc
            c = hi - ratio * (hi - lo)
            fc = f(c)
        else:
            lo, c, fc = c, d, fd
            d = lo + ratio * (hi - lo)
            fd = f(d)
    return fc, c, fd, d


def _torque_limit(move, u, best, k):
    """The torque's :class:`DurationLimit`: the smallest exit ``best`` over the sampled
    points ``u`` (the ``k``-th the least), refined between ``k``'s neighbours."""
    fc, c, fd, d = _golden_section(move.exit_at, u[max(k - 1, 0)], u[min(k + 1, u.size - 1)])
    x_star, u_star = min([(float(best[k]), float(u[k])), (fc, c), (fd, d)])
    xs, bounds = move.exits(move.parts([u_star]))
    j = int(np.argmin(xs[0]))
    T = 1.0 / x_star if x_star > 0 else np.inf     # 0: on the limit at rest, any motion leaves
    return DurationLimit(float(T), float(u_star), float(u_star * T), j, int(bounds[0, j]),
                         "torque")


# ------------------------------------------------------------------ time-optimal time scaling
def _straight_path(arm, q_start, q_end):
    start = joint_vector(arm, "q_start", q_start)
    end = joint_vector(arm, "q_end", q_end)
    if start.shape != (arm.n,) or end.shape != (arm.n,):
        raise ValueError(f"q_start and q_end have shapes {start.shape} and {end.shape}: "
                         f"expected one pose each, shape ({arm.n},)")
    return start, end


def path_dynamics(arm, q_start, q_end, s, tip_force=None, rotor_inertia=0.0):
    """The equation of motion along the straight joint-space path, in the path's coordinate.

    On ``q(s) = q_start + s (q_end - q_start)``, ``0 <= s <= 1``, a motion
    ``s(t)`` has ``qd = q' sd`` and ``qdd = q' sdd`` (``q' = q_end - q_start``,
    ``q'' = 0``), so inverse dynamics becomes, per joint,

        ``tau = m(s) sdd + c(s) sd^2 + d(s)``,

    with ``m = M_r(q) q'`` (``M_r`` the mass matrix with the rotors' reflected
    inertia, :func:`mass_matrix_with_rotors`), ``c = c(q, q')`` (the
    velocity-product torques at ``qd = q'``; they are quadratic in the speed)
    and ``d = g(q) + J^T F + G Tc sign(q')`` (gravity, the tip force and, for
    a forward motion ``sd > 0``, Coulomb friction). This is section 9.4 of
    Modern Robotics (Lynch and Park). Viscous friction, ``G^2 B q' sd``,
    would add a term in ``sd``; the arm must have none (``damping = 0``).

    Parameters
    ----------
    arm : PlanarArm
        Without viscous friction.
    q_start, q_end : (n,) array_like
        The path's ends [rad].
    s : (...) array_like
        Points of the path, ``0`` at the start and ``1`` at the end [-].
    tip_force : (2,) array_like, optional
        A constant force the tip applies to the environment [N].
    rotor_inertia : float or (n,) array_like, optional
        Motor rotor inertia, motor side [kg m^2], reflected as ``G^2 J_m``.

    Returns
    -------
    m, c, d : (..., n) ndarray
        [N m s^2], [N m s^2] and [N m] (``s`` is dimensionless, so ``sd`` is in
        1/s).

    Examples
    --------
    The two 1 m, 1 kg rods turned at the shoulder alone, from horizontal: ``m``
    is the first column of ``M`` times the move, ``d`` the holding torque:

    >>> from armlab import rod_arm
    >>> m, c, d = path_dynamics(rod_arm(), [0, 0], [np.pi / 2, 0], 0.0)
    >>> (m / (np.pi / 2)).round(6), c.round(6) + 0, d.round(3)
    (array([2.666667, 0.833333]), array([0., 0.]), array([19.62 ,  4.905]))
    """
    start, end = _straight_path(arm, q_start, q_end)
    if np.any(np.asarray(arm.damping) != 0):
        raise ValueError(f"arm has viscous friction (damping {np.asarray(arm.damping).tolist()}): "
                         "the phase plane here takes torques in sd^2, not in sd; use an arm "
                         "with damping=0")
    s = finite_array("s", s)
    force = None if tip_force is None else planar_vector("tip_force", tip_force)
    if force is not None and force.shape != (2,):
        raise ValueError(f"tip_force has shape {force.shape}: expected one force, shape (2,)")
    rotors = np.square(arm.gear_ratio) * per_joint(arm.n, "rotor_inertia", rotor_inertia,
                                                   nonnegative=True)
    delta = end - start
    q = (1.0 - s[..., None]) * start + s[..., None] * end
    ones = np.broadcast_to(delta, q.shape)
    p = torque_parts(arm, q, ones, np.zeros_like(q), force)
    m = np.einsum("...ij,j->...i", mass_matrix(arm, q), delta) + rotors * delta
    dry = np.asarray(arm.gear_ratio) * np.asarray(arm.coulomb) * np.sign(delta)
    return m, p["velocity"], p["gravity"] + p["tip"] + dry


def path_acceleration_bounds(arm, q_start, q_end, limit, s, sd, tip_force=None,
                             rotor_inertia=0.0):
    """The smallest and largest path acceleration the torque limits allow, ``L(s, sd)`` and ``U(s, sd)``.

    Each joint ``j`` must keep ``m_j sdd + c_j sd^2 + d_j`` (:func:`path_dynamics`)
    within its limits. Where ``m_j > 0`` that bounds ``sdd`` between
    ``(low_j - c_j sd^2 - d_j) / m_j`` and ``(high_j - c_j sd^2 - d_j) / m_j``
    (the two swap where ``m_j < 0``); ``L`` is the largest lower bound over
    the joints and ``U`` the smallest upper one (Modern Robotics, section 9.4).
    A joint with ``m_j = 0`` (a zero-inertia point) bounds no acceleration but
    must hold ``c_j sd^2 + d_j`` within its limits by itself. Where that fails,
    or ``L > U``, the state ``(s, sd)`` is inadmissible: no torque within the
    limits keeps the arm on the path there.

    Parameters
    ----------
    arm : PlanarArm
        Without viscous friction.
    q_start, q_end : (n,) array_like
        The path's ends [rad].
    limit : float, (n,) or (2, n) array_like
        Torque limits, as in :func:`clip_torques` [N m].
    s, sd : (...) array_like
        Path points [-] and path speeds [1/s], broadcast together.
    tip_force, rotor_inertia : optional
        As in :func:`path_dynamics`.

    Returns
    -------
    L, U : (...) ndarray
        [1/s^2]; ``L > U`` marks an inadmissible state (a zero-inertia joint
        outside its limits gives ``L = inf``, ``U = -inf``).

    Examples
    --------
    The horizontal rods at rest, to be turned 90 deg at the shoulder alone with
    25 N m motors: ``m = (8/3, 5/6) pi/2`` and ``d = (19.62, 4.905)`` N m. The
    shoulder binds both ways, ``U = (25 - 19.62) / (8/3 pi/2)`` and
    ``L = (-25 - 19.62) / (8/3 pi/2)``; the elbow would allow more:

    >>> from armlab import rod_arm
    >>> L, U = path_acceleration_bounds(rod_arm(), [0, 0], [np.pi / 2, 0], 25, 0.0, 0.0)
    >>> round(float(U), 6), round(float(L), 6)
    (1.28438, -10.65224)
    """
    m, c, d = path_dynamics(arm, q_start, q_end, s, tip_force, rotor_inertia)
    sd = finite_array("sd", sd)
    low, high = torque_bounds(arm.n, limit)
    rest = c * np.square(sd)[..., None] + d
    return _bounds(m, rest, low, high)


def _bounds(m, rest, low, high):
    """``L`` and ``U`` from ``m`` and the torque ``rest = c sd^2 + d`` that needs no acceleration."""
    scale = np.max(np.abs(m), axis=-1, keepdims=True)
    zero = np.abs(m) <= 1e-12 * np.where(scale > 0, scale, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = (low - rest) / m, (high - rest) / m
    lower = np.where(zero, -np.inf, np.minimum(a, b))
    upper = np.where(zero, np.inf, np.maximum(a, b))
    stuck = (zero & ((rest < low) | (rest > high))).any(axis=-1)
    L, U = lower.max(axis=-1), upper.min(axis=-1)
    return np.where(stuck, np.inf, L), np.where(stuck, -np.inf, U)


class PhaseProfile(NamedTuple):
    """A time scaling of the straight path in the ``(s, sd)`` phase plane: see
    :func:`time_optimal_scaling`.

    Attributes
    ----------
    s : (N + 1,) ndarray
        The path's grid, ``0`` to ``1`` [-].
    sd : (N + 1,) ndarray
        The path speed of the profile at each point [1/s].
    sdd : (N,) ndarray
        Its path acceleration on each segment, constant there [1/s^2].
    t : (N + 1,) ndarray
        The time at which the profile passes each point [s].
    duration : float
        ``t[-1]`` [s]; ``inf`` when no profile stays within the limits.
    limit_curve : (N + 1,) ndarray
        The velocity-limit curve: the largest ``sd`` admissible at each point
        (``inf`` where none bounds it) [1/s].
    reach : (N + 1,) ndarray
        The largest ``sd`` at each point from which the arm can still stop at
        ``s = 1`` within the limits [1/s]; the profile never exceeds it.
    switches : (k,) ndarray
        The points ``s`` where the profile stops accelerating: from the largest
        acceleration ``U`` to the largest deceleration ``L`` (a bang-bang
        switch), or to a coast along a speed limit [-].
    plan : TimeScaledPath or None
        The profile as a plan, ``plan(t) -> (q, qd, qdd)``
        (:class:`armlab.TimeScaledPath`); ``None`` when ``duration`` is ``inf``.
    """

    s: np.ndarray
    sd: np.ndarray
    sdd: np.ndarray
    t: np.ndarray
    duration: float
    limit_curve: np.ndarray
    reach: np.ndarray
    switches: np.ndarray
    plan: object


_ROUNDING = 1e-9     # a row of a stage's programme holds to this fraction of its terms' size


def _lp_x_range(A, r):
    """Smallest and largest ``x`` over ``{(u, x): A @ (u, x) <= r}`` (rows of A: (a_u, a_x)).

    A two-variable linear programme solved by its vertices; ``(nan, nan)`` when empty.
    """
    k = A.shape[0]
    i, j = np.triu_indices(k, 1)
    det = A[i, 0] * A[j, 1] - A[i, 1] * A[j, 0]
    ok = np.abs(det) > 1e-14 * (np.abs(A[i]).max(axis=1) * np.abs(A[j]).max(axis=1))
    i, j, det = i[ok], j[ok], det[ok]
    u = (r[i] * A[j, 1] - r[j] * A[i, 1]) / det
    x = (A[i, 0] * r[j] - A[j, 0] * r[i]) / det
    slack = A @ np.stack([u, x]) - r[:, None]
    tol = _ROUNDING * (np.abs(A) @ np.abs(np.stack([u, x])) + np.abs(r)[:, None] + 1.0)
    feasible = (slack <= tol).all(axis=0)
    if not feasible.any():
        return np.nan, np.nan
    return x[feasible].min(), x[feasible].max()


def time_optimal_scaling(arm, q_start, q_end, limit, tip_force=None, rotor_inertia=0.0,
                         speed_limit=None, segments=1000):
    """The fastest motion along the straight joint-space path from rest to rest within the limits.

    Time-optimal time scaling (Modern Robotics, Lynch and Park, section 9.4):
    along ``q(s) = q_start + s (q_end - q_start)`` the torque is
    ``m(s) sdd + c(s) sd^2 + d(s)`` (:func:`path_dynamics`), and the limits
    bound the path acceleration between ``L(s, sd)`` and ``U(s, sd)``
    (:func:`path_acceleration_bounds`). The fastest profile accelerates at
    ``U`` as long as it can still stop, and decelerates at ``L`` from there
    (bang-bang), never above the velocity-limit curve.

    It is computed on ``segments`` equal steps of ``s`` with a constant path
    acceleration on each, by reachability in ``x = sd^2`` (on each step
    ``x`` grows by ``2 ds sdd``), as in "A New Approach to Time-Optimal Path
    Parameterization Based on Reachability Analysis" (Pham and Pham): a
    backward pass finds at each point the largest ``x`` from which the end
    can still be reached at rest (``reach``), and a forward pass takes the
    largest acceleration that stays below it. The torque limits hold at both
    ends of every step; the duration converges as the steps shrink (first
    order in ``1 / segments``).

    Parameters
    ----------
    arm : PlanarArm
        Without viscous friction (:func:`path_dynamics`).
    q_start, q_end : (n,) array_like
        Start and end poses [rad]; the arm starts and ends at rest.
    limit : float, (n,) or (2, n) array_like
        Torque limits, as in :func:`clip_torques` [N m].
    tip_force : (2,) array_like, optional
        A constant force the tip applies to the environment [N].
    rotor_inertia : float or (n,) array_like, optional
        Motor rotor inertia, motor side [kg m^2], reflected as ``G^2 J_m``.
    speed_limit : float or (n,) array_like, optional
        Largest joint speed [rad/s], positive. Default: none.
    segments : int, optional
        Steps along the path (at least 2). Default 1000.

    Returns
    -------
    PhaseProfile
        The profile: ``s``, ``sd``, ``sdd``, ``t``, its ``duration`` [s], the
        velocity-limit curve, the ``reach`` curve, the bang-bang ``switches``
        and the ``plan`` to play on the arm.

    Examples
    --------
    The table-top arm's move, (-45, 90) deg to (60, -30) deg, with (8, 2) N m
    motors: far faster than the best quintic (0.9754 s), with one switch from
    full acceleration to full deceleration, 88 % of the way:

    >>> from armlab import tabletop_arm
    >>> move = np.radians([-45, 90]), np.radians([60, -30])
    >>> best = time_optimal_scaling(tabletop_arm(), *move, [8, 2])
    >>> round(best.duration, 3), best.switches.round(3)
    (0.586, array([0.881]))

    The gravity-free rods turned 1 rad at the shoulder under 1.5 N m: the
    shoulder's bound ``1.5 / M11 = 9/16`` rad/s^2 holds all along, so the
    profile is half full acceleration, half full braking, ``2 sqrt(1 / (9/16))
    = 8/3`` s:

    >>> from armlab import rod_arm
    >>> round(time_optimal_scaling(rod_arm(gravity=0), [0, 0], [1, 0], 1.5).duration, 12)
    2.666666666667
    """
    start, end = _straight_path(arm, q_start, q_end)
    if int(segments) != segments or segments < 2:
        raise ValueError(f"segments must be an integer of at least 2, got {segments!r}")
    N = int(segments)
    low, high = torque_bounds(arm.n, limit)
    delta = end - start
    top = (np.full(arm.n, np.inf) if speed_limit is None
           else per_joint(arm.n, "speed_limit", speed_limit, positive=True))
    s = np.linspace(0.0, 1.0, N + 1)
    m, c, d = path_dynamics(arm, start, end, s, tip_force, rotor_inertia)
    with np.errstate(divide="ignore"):
        x_top = np.min(np.where(delta != 0, np.square(top / np.abs(delta)), np.inf))
    if not np.any(delta):
        zero = np.zeros(N + 1)
        return PhaseProfile(s, zero, zero[:-1], zero, 0.0, np.full(N + 1, np.inf), zero,
                            np.array([]), None)
    stages = _Stages(m, c, d, low, high, 1.0 / N, 1e12 if not np.isfinite(x_top) else x_top)
    limit_x = stages.limit_curve()
    lo_x, hi_x = stages.reach(limit_x[N] >= 0)
    fail = PhaseProfile(s, np.full(N + 1, np.nan), np.full(N, np.nan), np.full(N + 1, np.nan),
                        np.inf, np.sqrt(np.maximum(limit_x, 0.0)),
                        np.sqrt(np.maximum(hi_x, 0.0)), np.array([]), None)
    if np.isnan(hi_x[0]) or lo_x[0] > 1e-12 * max(1.0, hi_x[0]):
        return fail                               # the start at rest cannot reach the end
    steps = stages.fastest(lo_x, hi_x)
    if steps is None:
        return fail
    return _profile(start, end, s, *steps, limit_x, hi_x)


class _Stages:
    """:func:`time_optimal_scaling`'s steps along the path, as two-variable linear programmes.

    Stage ``i`` has the unknowns ``(u, x)``: ``sdd`` on step ``i`` and ``sd^2`` at
    point ``i``. Its rows ``(a_u, a_x) <= r`` hold the torque within the limits at
    point ``i`` and at point ``i + 1`` (where ``sd^2 = x + 2 ds u``). ``big``: the
    largest ``x`` allowed (the speed limit's, or 1e12 without one).
    """

    def __init__(self, m, c, d, low, high, ds, big):
        self.d, self.low, self.high, self.ds, self.big = d, low, high, ds, big
        self.N = len(d) - 1
        self.A_here = np.stack([m, c], axis=-1)                       # (N+1, n, 2)
        self.A_next = np.stack([m[1:] + 2 * ds * c[1:], c[1:]], axis=-1)
        self.bound_rows = np.array([[0.0, -1.0], [0.0, 1.0]])

    def rows(self, i):
        """Stage ``i``'s torque rows and right-hand sides."""
        d, low, high = self.d, self.low, self.high
        blocks = [self.A_here[i], -self.A_here[i], self.A_next[i], -self.A_next[i]]
        rhs = [high - d[i], d[i] - low, high - d[i + 1], d[i + 1] - low]
        return np.concatenate(blocks), np.concatenate(rhs)

    def limit_curve(self):
        """The velocity-limit curve: the largest admissible ``x`` at each point (``u`` free)."""
        d, low, high = self.d, self.low, self.high
        limit_x = np.empty(self.N + 1)
        for i in range(self.N + 1):
            A = np.concatenate([self.A_here[i], -self.A_here[i], self.bound_rows])
            r = np.concatenate([high - d[i], d[i] - low, [0.0, self.big]])
            limit_x[i] = _lp_x_range(A, r)[1]
        return limit_x

    def reach(self, can_stop):
        """The backward pass: at each point, the smallest and largest ``x`` from which the end
        at rest can be reached (nan where none can, and everywhere when not ``can_stop``,
        the end at rest itself inadmissible)."""
        N, ds = self.N, self.ds
        lo_x, hi_x = np.full(N + 1, np.nan), np.full(N + 1, np.nan)
        lo_x[N] = hi_x[N] = 0.0
        if not can_stop:
            hi_x[N] = np.nan
        for i in range(N - 1, -1, -1):
            if np.isnan(hi_x[i + 1]):
                break
            A, r = self.rows(i)
            step = np.array([[2 * ds, 1.0], [-2 * ds, -1.0]])
            A = np.concatenate([A, self.bound_rows, step])
            r = np.concatenate([r, [0.0, self.big], [hi_x[i + 1], -lo_x[i + 1]]])
            lo_x[i], hi_x[i] = _lp_x_range(A, r)
        return lo_x, hi_x

    def fastest(self, lo_x, hi_x):
        """The forward pass: on each step the largest acceleration that keeps the next point
        reachable; ``(u, x)`` per step and point, or None when some step has none.

        The next point's reachable range ``[lo_x, hi_x]`` is taken within the backward
        pass's rounding, in ``x``: the backward pass's vertices hold each row to within
        ``1e-9`` of its terms' size, and a step's ``x`` row has terms of size ``x``. Where the
        range is a single point, or its edge a vertex the rounding put just outside the
        torque rows, a test in ``u`` (``x`` over ``2 ds``, a thousand times finer at 500
        steps) would find no acceleration at all and give up on a reachable end.
        """
        N, ds = self.N, self.ds
        x = np.zeros(N + 1)
        u = np.zeros(N)
        for i in range(N):
            A, r = self.rows(i)
            a_u, rhs = A[:, 0], r - A[:, 1] * x[i]
            with np.errstate(divide="ignore", invalid="ignore"):
                cap = rhs / a_u
            up = np.min(cap[a_u > 0], initial=np.inf)
            down = np.max(cap[a_u < 0], initial=-np.inf)
            if np.any((a_u == 0) & (rhs < -1e-9)) or down > up + 1e-9 * (1 + abs(up)):
                return None                       # the torque rows alone have no room
            slack = 1e-9 * (1 + abs(up))
            room = _ROUNDING * (1.0 + hi_x[i + 1] + x[i]) / (2 * ds)
            u_hi = (hi_x[i + 1] - x[i]) / (2 * ds)
            u_lo = (lo_x[i + 1] - x[i]) / (2 * ds)
            u[i] = min(up, u_hi)
            if u[i] < down - slack:               # the reach edge just past a torque row
                u[i] = down
            if u[i] < u_lo - room:
                u[i] = u_lo
            if u[i] > min(up + slack, u_hi + room):
                return None
            x[i + 1] = max(x[i] + 2 * ds * u[i], 0.0)
        x[N] = 0.0
        return u, x


def _profile(start, end, s, u, x, limit_x, hi_x):
    """The :class:`PhaseProfile` of the accelerations ``u`` and squared speeds ``x``: its
    times, bang-bang switches and plan."""
    ds = 1.0 / (len(s) - 1)
    sd = np.sqrt(x)
    with np.errstate(divide="ignore"):
        dt = 2 * ds / (sd[:-1] + sd[1:])
    t = np.concatenate([[0.0], np.cumsum(dt)])
    # bang-bang switches: from accelerating to decelerating
    accel = u > 0
    switches = s[1:-1][accel[:-1] & ~accel[1:]]
    from armlab.trajectory import TimeScaledPath

    plan = TimeScaledPath(tuple(start.tolist()), tuple(end.tolist()), t, s, sd)
    return PhaseProfile(s, sd, u, t, float(t[-1]), np.sqrt(np.maximum(limit_x, 0.0)),
                        np.sqrt(np.maximum(hi_x, 0.0)), switches, plan)
