"""Choosing a gear: one motor model on both joints of a two-link arm, through a range of ratios.

A gear of ratio ``G`` multiplies the motor's torque by ``G`` and divides its
speed by ``G``; it also multiplies its friction (``G^2 B`` viscous, ``G Tc``
Coulomb) and its rotor's inertia (``G^2 J_m``) as the joint feels them
(:func:`armlab.reflect_motor`). Too small a ratio and the torque cannot
carry the arm fast (or at all); too large and the motor's top speed, now
``speed / G`` at the joint, makes the move slow. The functions below compute
that trade for one move of a two-link arm of uniform rods:

* :func:`gear_sweep`: the shortest move each ratio of a sweep allows, by the
  torque and by the top speed;
* :func:`gear_optimum`: the ratios that matter, refined from a sweep (where
  the two durations cross, the best torque-limited ratio, the smallest ratio
  that holds the arm);
* :func:`shoulder_peaks`: the shoulder's peak speed, acceleration and torque
  along the move run in a given time;
* :func:`duty_cycle`: a cycle of work (out, hold, back, hold) through one
  ratio, with its RMS and peak torques, for the motor's heat.

Conventions: SI units, angles in radians; both joints get the same motor
through the same ratio; the arm's friction is the motor's, reflected
(``PlanarArm(damping=B, coulomb=Tc, gear_ratio=G)``); the moves are quintic,
rest to rest (:func:`armlab.quintic`).
"""

import numpy as np

from armlab._checks import finite_array, nonnegative_scalar, positive_scalar
from armlab.arm import PlanarArm
from armlab.dynamics import gravity_torques, inverse_dynamics
from armlab.limits import Motor, reflect_motor, rms_torque, shortest_duration
from armlab.trajectory import quintic

__all__ = ["gear_sweep", "gear_optimum", "shoulder_peaks", "duty_cycle"]


# -------------------------------------------------------------------------------- checks
def _check_motor(motor):
    if not isinstance(motor, Motor):
        raise ValueError(f"motor must be an armlab.Motor, got {motor!r}")


def _check_move(lengths, masses, q_start, q_end):
    """The arm's rods and the move, checked: two positive lengths, two masses, two angles."""
    arm = PlanarArm(lengths, masses)          # names lengths or masses when they are wrong
    if arm.n != 2:
        raise ValueError(f"lengths must give two links, got {arm.n}")
    for name, q in (("q_start", q_start), ("q_end", q_end)):
        if finite_array(name, q).shape != (2,):
            raise ValueError(f"{name} must be two joint angles [rad] of shape (2,), "
                             f"got shape {np.shape(q)}")


def _check_ratios(ratios):
    arr = finite_array("ratios", ratios)
    if arr.ndim != 1 or arr.size == 0 or np.any(arr <= 0):
        raise ValueError(f"ratios must be a 1-D array of positive gear ratios, got {ratios!r}")
    return arr


# -------------------------------------------------------------------------------- the sweep
def gear_sweep(motor, lengths, masses, q_start, q_end, ratios):
    """The fastest move of a two-link arm driven by one motor model through a sweep of gears.

    Both joints get the same motor through the same ratio ``G``; the arm's
    friction is the motor's, reflected (``PlanarArm(damping=B, coulomb=Tc,
    gear_ratio=G)``), and its rotor inertia is reflected as ``G^2 J_m``.

    Parameters
    ----------
    motor : Motor
    lengths, masses : (2,) array_like
        The arm's links [m] and masses [kg] (uniform rods).
    q_start, q_end : (2,) array_like
        The move [rad].
    ratios : (k,) array_like
        Gear ratios ``G``, positive.

    Returns
    -------
    dict
        ``"ratios"`` (k,); ``"torque"``, ``"speed"``, ``"best"`` (k,) [s]: the
        shortest duration the torque allows (``inf`` where gravity alone is
        too much), the one the top speed allows, and the larger of the two;
        ``"drive"``: :func:`armlab.reflect_motor` over the ratios;
        ``"T_ref"`` [s], the fastest move of the sweep, with the shoulder's
        ``"peak_speed"`` [rad/s], ``"peak_acc"`` [rad/s^2] and the arm's own
        ``"need"`` [N m] (its peak shoulder torque, without motor) in it
        (:func:`shoulder_peaks`); ``"lengths"``, ``"masses"``, ``"move"`` (the
        arm and the move, as given).

    Raises
    ------
    ValueError
        Naming ``motor``, ``lengths``, ``masses``, ``q_start``, ``q_end`` or
        ``ratios`` when one is not as above.

    Examples
    --------
    A 0.15 N m, 500 rad/s motor on the table-top arm's move (105 deg at the
    shoulder, 120 deg at the elbow): through 40:1 its 6 N m cannot hold the arm up (``inf``); through 80:1
    the torque allows 0.621 s and the top speed, 500/80 rad/s at the joint,
    0.628 s:

    >>> from armlab import Motor
    >>> m = Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6)
    >>> s = gear_sweep(m, (0.3, 0.25), (2.0, 1.0), np.radians([-45, 90]),
    ...                np.radians([60, -30]), [40, 80])
    >>> s["torque"].round(3), s["speed"].round(3)
    (array([  inf, 0.621]), array([0.314, 0.628]))
    """
    _check_motor(motor)
    _check_move(lengths, masses, q_start, q_end)
    ratios = _check_ratios(ratios)
    drive = reflect_motor(motor, ratios)
    torque_T = np.array([_geared_durations(motor, lengths, masses, q_start, q_end, G)[0]
                         for G in ratios])
    # The speed alone (a torque limit no motion of this arm comes near): the joint's top
    # speed is the motor's over G, so the duration it allows grows in proportion to G.
    direct = shortest_duration(PlanarArm(lengths, masses), q_start, q_end, 1e9,
                               speed_limit=motor.speed, samples=3).duration
    speed_T = direct * ratios
    best = np.maximum(torque_T, speed_T)
    if not np.isfinite(best).any():
        raise ValueError(f"ratios {ratios.tolist()}: no ratio lets the motor hold the arm")
    T_ref = best[np.isfinite(best)].min()
    return {"ratios": ratios, "torque": torque_T, "speed": speed_T, "best": best,
            "drive": drive, **shoulder_peaks(lengths, masses, q_start, q_end, T_ref),
            "lengths": lengths, "masses": masses, "move": (q_start, q_end)}


def shoulder_peaks(lengths, masses, q_start, q_end, duration):
    """The shoulder's peak speed and acceleration along a quintic move, and the arm's own peak
    shoulder torque there (without motor or friction).

    Parameters
    ----------
    lengths, masses : (2,) array_like
        The arm's links [m] and masses [kg] (uniform rods).
    q_start, q_end : (2,) array_like
        The move [rad].
    duration : float
        The move's duration ``T`` [s], positive.

    Returns
    -------
    dict
        ``"T_ref"``: ``duration`` [s]; ``"peak_speed"`` [rad/s] and
        ``"peak_acc"`` [rad/s^2] of joint 1; ``"need"`` [N m], the largest
        ``|tau_1|`` of the arm's inverse dynamics along the move. Sampled at
        401 instants.

    Examples
    --------
    The quintic's peak speed is 15/8 of its mean, at mid-move: 105 deg in 1 s,
    3.436 rad/s:

    >>> p = shoulder_peaks((0.3, 0.25), (2.0, 1.0), np.radians([-45, 90]),
    ...                    np.radians([60, -30]), 1.0)
    >>> round(p["peak_speed"], 4), round(15 / 8 * 105 * np.pi / 180, 4)
    (3.4361, 3.4361)
    """
    _check_move(lengths, masses, q_start, q_end)
    T = positive_scalar("duration", duration, "s")
    q, qd, qdd = quintic(q_start, q_end, T)(np.linspace(0, T, 401))
    need = np.abs(inverse_dynamics(PlanarArm(lengths, masses), q, qd, qdd)[:, 0]).max()
    return {"T_ref": float(T), "peak_speed": float(np.abs(qd[:, 0]).max()),
            "peak_acc": float(np.abs(qdd[:, 0]).max()), "need": float(need)}


def _geared_durations(motor, lengths, masses, q_start, q_end, G, samples=201):
    """The shortest durations the torque and the top speed allow through one ratio ``G`` [s]."""
    arm = PlanarArm(lengths, masses, damping=motor.damping, coulomb=motor.coulomb,
                    gear_ratio=G)
    line = ({} if np.isinf(motor.stall_torque)
            else {"stall_torque": G * motor.stall_torque, "speed_limit": motor.speed / G})
    torque = shortest_duration(arm, q_start, q_end, G * motor.torque,
                               rotor_inertia=motor.inertia, samples=samples, **line).duration
    speed = shortest_duration(PlanarArm(lengths, masses), q_start, q_end, 1e9,
                              speed_limit=motor.speed / G, samples=3).duration
    return torque, speed


# -------------------------------------------------------------------------------- the optimum
def gear_optimum(motor, lengths, masses, q_start, q_end, sweep):
    """The gear ratios that matter for one motor on both joints, refined from a sweep.

    Parameters
    ----------
    motor : Motor
    lengths, masses : (2,) array_like
        The arm's links [m] and masses [kg] (uniform rods).
    q_start, q_end : (2,) array_like
        The move [rad].
    sweep : dict
        :func:`gear_sweep`'s result for the same motor, arm and move; its ratios
        must bracket both answers.

    Returns
    -------
    dict
        ``"crossing"``: the ratio where the durations the torque and the top
        speed allow are equal, found by bisection to 1e-9 of the ratio, with
        ``"T_crossing"`` [s] there (``nan`` when the curves do not cross: with
        a torque-speed line the torque's duration already includes the speed);
        ``"torque_best"``: the ratio with the shortest torque-limited duration
        (golden-section search on ``log G`` to 1e-6), with ``"T_torque_best"``
        [s]; ``"hold"``: the smallest ratio whose torque holds the arm all
        along the move at any speed, ``max |g_i| / (tau_m - Tc)`` over both
        joints and the path (a turning motor's Coulomb friction included); ``"best"`` and
        ``"T_best"``: the ratio of the fastest move and its duration [s] (the
        crossing where there is one, else the torque's best).

    Raises
    ------
    ValueError
        Naming ``motor``, ``lengths``, ``masses``, ``q_start``, ``q_end``, or
        ``sweep`` when it is not a :func:`gear_sweep` result.

    Examples
    --------
    The 0.15 N m motor on the table-top arm: it holds the arm from 46.89:1, and
    the torque's and the top speed's durations cross at 79.5:1, in 0.6244 s:

    >>> from armlab import Motor
    >>> m = Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6)
    >>> move = np.radians([-45, 90]), np.radians([60, -30])
    >>> sweep = gear_sweep(m, (0.3, 0.25), (2.0, 1.0), *move, np.geomspace(30, 500, 12))
    >>> best = gear_optimum(m, (0.3, 0.25), (2.0, 1.0), *move, sweep)
    >>> round(best["crossing"], 2), round(best["T_crossing"], 4), round(best["hold"], 2)
    (79.5, 0.6244, 46.89)
    """
    _check_motor(motor)
    _check_move(lengths, masses, q_start, q_end)
    if not isinstance(sweep, dict) or not {"ratios", "torque", "speed"} <= set(sweep):
        raise ValueError("sweep must be gear_sweep's result (a dict with 'ratios', 'torque' "
                         f"and 'speed'), got {type(sweep).__name__}")
    durations = (motor, lengths, masses, q_start, q_end)
    crossing, T_crossing = _crossing(durations, sweep)
    torque_best = _torque_best(durations, sweep)
    q = quintic(q_start, q_end, 1.0)(np.linspace(0.0, 1.0, 20001))[0]
    hold = np.abs(gravity_torques(PlanarArm(lengths, masses), q)).max() / (motor.torque
                                                                          - motor.coulomb)
    T_torque_best = float(_geared_durations(*durations, np.exp(np.log(torque_best)))[0])
    crossed = np.isfinite(crossing)
    best, T_best = (crossing, T_crossing) if crossed else (torque_best, T_torque_best)
    return {"crossing": float(crossing), "T_crossing": T_crossing, "torque_best": torque_best,
            "T_torque_best": T_torque_best, "best": float(best), "T_best": float(T_best),
            "hold": float(hold)}


def _crossing(durations, sweep):
    """Where the torque's duration falls to the top speed's, by bisection between the sweep's
    ratios: ``(ratio, duration [s])``, or ``(nan, nan)`` when they do not cross."""
    ratios = sweep["ratios"]
    gaps = sweep["torque"] - sweep["speed"]
    bracket = np.flatnonzero((gaps[:-1] > 0) & (gaps[1:] <= 0))
    if not bracket.size:
        return np.nan, np.nan
    lo, hi = float(ratios[bracket[0]]), float(ratios[bracket[0] + 1])
    while hi - lo > 1e-9 * hi:
        mid = 0.5 * (lo + hi)
        torque, speed = _geared_durations(*durations, mid)
        lo, hi = (mid, hi) if torque > speed else (lo, mid)
    crossing = 0.5 * (lo + hi)
    return crossing, float(max(_geared_durations(*durations, crossing)))


def _torque_best(durations, sweep):
    """The ratio of the shortest torque-limited move: golden-section search on ``log G`` to
    1e-6, between the neighbours of the sweep's best point."""
    ratios = sweep["ratios"]

    def torque_T(log_G):
        return _geared_durations(*durations, np.exp(log_G))[0]

    j = int(np.argmin(sweep["torque"]))
    a, b = np.log(ratios[max(j - 1, 0)]), np.log(ratios[min(j + 1, ratios.size - 1)])
    golden = (np.sqrt(5.0) - 1.0) / 2.0
    c, d = b - golden * (b - a), a + golden * (b - a)
    fc, fd = torque_T(c), torque_T(d)
    while b - a > 1e-6:
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - golden * (b - a)
            fc = torque_T(c)
        else:
            a, c, fc = c, d, fd
            d = a + golden * (b - a)
            fd = torque_T(d)
    return float(np.exp(0.5 * (a + b)))


# -------------------------------------------------------------------------------- a duty cycle
def duty_cycle(motor, lengths, masses, q_start, q_end, G, dwell):
    """One cycle of a geared arm's work: the fastest quintic move out, a hold, the move back, a
    hold, and the joint torques the motors give along it.

    Both joints get ``motor`` through a gear ``G``; the move's duration is the shortest the
    motor allows (:func:`armlab.shortest_duration` with its torque-speed line, if it has one);
    the torque is the arm's inverse dynamics (its friction the motor's, reflected) plus the
    rotors' ``G^2 J_m qdd``.

    Parameters
    ----------
    motor : Motor
    lengths, masses : (2,) array_like
        The arm's links [m] and masses [kg] (uniform rods).
    q_start, q_end : (2,) array_like
        The move [rad].
    G : float
        Gear ratio, positive.
    dwell : float
        Time held at each end [s], zero or more.

    Returns
    -------
    dict
        ``"duration"`` [s] of each move; ``"t"`` (k,) [s], ``"q"``, ``"qd"`` and
        ``"tau"`` (k, 2) [rad], [rad/s], [N m] over the cycle (k = 4006: 2001
        samples per move, two per hold); ``"rms"`` (2,) [N m]
        (:func:`armlab.rms_torque`) and ``"peak"`` (2,) [N m].

    Raises
    ------
    ValueError
        Naming ``motor``, ``lengths``, ``masses``, ``q_start``, ``q_end``, ``G``
        or ``dwell`` when one is not as above.

    Examples
    --------
    The 0.15 N m motor with its torque-speed line through 64:1, holding 1 s at
    each end of the table-top arm's move:

    >>> from armlab import Motor
    >>> m = Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6, stall_torque=0.3)
    >>> c = duty_cycle(m, (0.3, 0.25), (2.0, 1.0), np.radians([-45, 90]),
    ...                np.radians([60, -30]), 64.0, 1.0)
    >>> round(c["duration"], 4), c["rms"].round(2), c["t"][-1].round(4)
    (0.7947, array([5.35, 1.03]), np.float64(3.5894))
    """
    _check_motor(motor)
    _check_move(lengths, masses, q_start, q_end)
    G = positive_scalar("G", G, what="gear ratio")
    dwell = nonnegative_scalar("dwell", dwell, "s", what="time")
    arm = PlanarArm(lengths, masses, damping=motor.damping, coulomb=motor.coulomb, gear_ratio=G)
    line = ({} if np.isinf(motor.stall_torque)
            else {"stall_torque": G * motor.stall_torque})
    T = shortest_duration(arm, q_start, q_end, G * motor.torque, rotor_inertia=motor.inertia,
                          speed_limit=motor.speed / G, **line).duration
    times, poses, speeds, torques, t0 = [], [], [], [], 0.0
    for a, b in ((q_start, q_end), (q_end, q_start)):
        t = np.linspace(0.0, T, 2001)
        q, qd, qdd = quintic(a, b, T)(t)
        torques.append(inverse_dynamics(arm, q, qd, qdd) + G**2 * motor.inertia * qdd)
        speeds.append(qd)
        poses.append(q)
        times.append(t0 + t)
        t0 += T
        hold = gravity_torques(arm, np.asarray(b, dtype=float))
        torques.append(np.array([hold, hold]))
        speeds.append(np.zeros((2, 2)))
        poses.append(np.array([b, b], dtype=float))
        times.append(np.array([t0, t0 + dwell]))
        t0 += dwell
    tau, t = np.concatenate(torques), np.concatenate(times)
    return {"duration": float(T), "t": t, "q": np.concatenate(poses),
            "qd": np.concatenate(speeds), "tau": tau,
            "rms": rms_torque(tau, t), "peak": np.abs(tau).max(axis=0)}
