"""Planned motions: a quintic rest-to-rest move between two poses, then a hold; and a
straight joint-space path run with any time law (:class:`TimeScaledPath`).

A quintic move from ``q_start`` to ``q_end`` in time ``T`` follows

    q(t) = q_start + (q_end - q_start) s(t / T),   s(u) = 10 u^3 - 15 u^4 + 6 u^5,

so speed and acceleration are zero at both ends. Before ``t = 0`` the plan
sits at ``q_start``; after ``T`` it holds ``q_end`` (for ``hold`` seconds, which
only sets :attr:`Quintic.end_time`, the natural length of a simulation).
SI units: [s], [rad], [rad/s], [rad/s^2].
"""

from dataclasses import dataclass

import numpy as np

from armlab._checks import finite_array, nonnegative_scalar

__all__ = ["Quintic", "quintic", "TimeScaledPath"]


@dataclass(frozen=True)
class Quintic:
    """A quintic rest-to-rest move followed by a hold; build it with :func:`quintic`.

    Attributes
    ----------
    start, end : tuple of float
        Start and end poses [rad], one angle per joint.
    duration : float
        Time of the move [s]; 0 means a step to ``end`` at ``t = 0``.
    hold : float
        Time spent at ``end`` after the move [s].
    """

    start: tuple
    end: tuple
    duration: float
    hold: float = 0.0

    @property
    def n(self):
        """Number of joints."""
        return len(self.start)

    @property
    def end_time(self):
        """``duration + hold`` [s]: the move and its hold."""
        return self.duration + self.hold

    def __call__(self, t):
        """Planned angles, speeds and accelerations at the times ``t``.

        This is how a controller (or anyone) reads the plan at a time.

        Parameters
        ----------
        t : float or (...) array_like
            Times [s]; any shape.

        Returns
        -------
        q, qd, qdd : (..., n) ndarray
            [rad], [rad/s], [rad/s^2], one row per time; ``(n,)`` each for
            one time.

        Examples
        --------
        Half-way through the table-top arm's move the speed peaks at 15/8 of the mean:

        >>> plan = quintic(np.radians([-45, 90]), np.radians([60, -30]), 0.8, hold=0.7)
        >>> q, qd, qdd = plan([0.0, 0.4, 1.5])
        >>> np.degrees(q).round(6)
        array([[-45. ,  90. ],
               [  7.5,  30. ],
               [ 60. , -30. ]])
        >>> (qd[1] / np.radians([105, -120]) * 0.8).round(6), qdd[1].round(12) + 0
        (array([1.875, 1.875]), array([0., 0.]))
        """
        if type(t) is float and t - t == 0:        # one time: plain floats, no array maths
            return tuple(np.array(x) for x in self._at(t))
        t = finite_array("t", t)
        s, sd, sdd = _profile(t, self.duration)
        start, end = np.array(self.start), np.array(self.end)
        delta = end - start
        s = s[..., None]
        # (1 - s) start + s end is exactly start at s = 0 and exactly end at s = 1
        return ((1.0 - s) * start + s * end, sd[..., None] * delta, sdd[..., None] * delta)

    def _at(self, t):
        """One time, plain floats: lists ``(q, qd, qdd)``, the same numbers as :func:`_profile`."""
        T = self.duration
        if t >= T:
            return list(self.end), [0.0] * self.n, [0.0] * self.n
        if t <= 0.0:
            return list(self.start), [0.0] * self.n, [0.0] * self.n
        u = t / T
        u2 = u * u
        s = u2 * u * (10.0 + u * (-15.0 + 6.0 * u))
        sd = 30.0 * u2 * (1.0 - u) * (1.0 - u) / T
        sdd = 60.0 * u * (1.0 - u) * (1.0 - 2.0 * u) / (T * T)
        q, qd, qdd = [], [], []
        for a, b in zip(self.start, self.end):
            d = b - a
            q.append((1.0 - s) * a + s * b)
            qd.append(sd * d)
            qdd.append(sdd * d)
        return q, qd, qdd


def _profile(t, T):
    """The quintic time law ``s`` and its first two time derivatives, clamped to [0, T]."""
    if T == 0:
        s = (t >= 0).astype(float)
        return s, np.zeros_like(t), np.zeros_like(t)
    u = np.clip(t / T, 0.0, 1.0)
    u2 = u * u                       # the same operations as Quintic._at, bit for bit
    s = u2 * u * (10.0 + u * (-15.0 + 6.0 * u))
    sd = 30.0 * u2 * (1.0 - u) * (1.0 - u) / T
    sdd = 60.0 * u * (1.0 - u) * (1.0 - 2.0 * u) / (T * T)
    return s, sd, sdd


def quintic(q_start, q_end, duration, hold=0.0):
    """A quintic rest-to-rest move from ``q_start`` to ``q_end`` in ``duration``, then a hold.

    Parameters
    ----------
    q_start, q_end : (n,) array_like
        Start and end poses [rad].
    duration : float
        Time of the move [s], not negative (0: jump to ``q_end`` at ``t = 0``).
    hold : float, optional
        Time to stay at ``q_end`` afterwards [s]; sets ``end_time``. Default 0.

    Returns
    -------
    Quintic
        Call it with times ``t`` of shape ``(...)`` to get ``q, qd, qdd`` of
        shape ``(..., n)``. A fixed pose is ``quintic(q, q, 0.0)``.

    Examples
    --------
    The table-top arm's move, (-45, 90) deg to (60, -30) deg in 0.8 s, held 0.7 s:

    >>> plan = quintic(np.radians([-45, 90]), np.radians([60, -30]), 0.8, hold=0.7)
    >>> plan.end_time
    1.5
    >>> q, qd, qdd = plan(0.2)
    >>> np.degrees(q).round(4), qd.round(4)
    (array([-34.1309,  77.5781]), array([ 2.416 , -2.7612]))
    """
    start = finite_array("q_start", q_start)
    end = finite_array("q_end", q_end)
    if start.ndim != 1 or start.size == 0:
        raise ValueError(f"q_start has shape {start.shape}: expected shape (n,)")
    if end.shape != start.shape:
        raise ValueError(f"q_end has shape {end.shape}: expected {start.shape}, like q_start")
    return Quintic(tuple(start.tolist()), tuple(end.tolist()),
                   nonnegative_scalar("duration", duration, "s", "time"),
                   nonnegative_scalar("hold", hold, "s", "time"))


@dataclass(frozen=True, eq=False)
class TimeScaledPath:
    """The straight joint-space path from ``start`` to ``end`` run with a time law ``s(t)``.

    ``q(t) = start + s(t) (end - start)``, with ``s`` going from 0 to 1. The
    time law is given at knots: the times ``t``, the path points ``s`` and the
    path speeds ``sd`` there, with a constant path acceleration between two
    knots (so ``s`` is piecewise quadratic in time, as a phase-plane profile's
    steps are: :func:`armlab.time_optimal_scaling` makes one). Before ``t[0]``
    the plan sits at ``start``; after ``t[-1]`` it holds ``end``.

    Attributes
    ----------
    start, end : tuple of float
        The path's ends [rad].
    t : (k,) ndarray
        Knot times, increasing [s].
    s : (k,) ndarray
        Path points at the knots, ``0`` to ``1`` [-].
    sd : (k,) ndarray
        Path speeds at the knots [1/s]; consistent with ``s``:
        ``s[i+1] - s[i] = (sd[i] + sd[i+1]) (t[i+1] - t[i]) / 2``.

    Examples
    --------
    One step of constant acceleration from rest, 0.5 of the path in 1 s:

    >>> plan = TimeScaledPath((0.0,), (2.0,), np.array([0.0, 1.0]), np.array([0.0, 0.5]),
    ...                       np.array([0.0, 1.0]))
    >>> [x.round(6) for x in plan(0.5)]
    [array([0.25]), array([1.]), array([2.])]
    """

    start: tuple
    end: tuple
    t: np.ndarray
    s: np.ndarray
    sd: np.ndarray

    def __post_init__(self):
        t, s, sd = (np.asarray(getattr(self, k), dtype=float) for k in ("t", "s", "sd"))
        if not (t.ndim == 1 and t.size >= 2 and s.shape == t.shape and sd.shape == t.shape):
            raise ValueError(f"t, s and sd have shapes {t.shape}, {s.shape} and {sd.shape}: "
                             "expected the same shape (k,), k >= 2")
        if np.any(np.diff(t) <= 0):
            raise ValueError("t must increase")
        for name, value in (("t", t), ("s", s), ("sd", sd)):
            object.__setattr__(self, name, finite_array(name, value))

    @property
    def n(self):
        """Number of joints."""
        return len(self.start)

    @property
    def duration(self):
        """``t[-1]`` [s]: the time the path takes."""
        return float(self.t[-1])

    @property
    def end_time(self):
        """The same as :attr:`duration` [s] (the plan holds ``end`` after it)."""
        return float(self.t[-1])

    def __call__(self, t):
        """Planned angles, speeds and accelerations at the times ``t``.

        Parameters
        ----------
        t : float or (...) array_like
            Times [s]; any shape.

        Returns
        -------
        q, qd, qdd : (..., n) ndarray
            [rad], [rad/s], [rad/s^2]; ``(n,)`` each for one time.
        """
        t = finite_array("t", t)
        k = np.clip(np.searchsorted(self.t, t, side="right") - 1, 0, self.t.size - 2)
        tau = np.clip(t, self.t[0], self.t[-1]) - self.t[k]
        step = self.t[k + 1] - self.t[k]
        acc = (self.sd[k + 1] - self.sd[k]) / step
        inside = (t >= self.t[0]) & (t < self.t[-1])
        s = np.where(t >= self.t[-1], self.s[-1], self.s[k] + self.sd[k] * tau + acc * tau**2 / 2)
        s = np.where(t < self.t[0], self.s[0], s)
        sd = np.where(inside, self.sd[k] + acc * tau, 0.0)
        sdd = np.where(inside, acc, 0.0)
        start, end = np.array(self.start), np.array(self.end)
        delta = end - start
        return ((1.0 - s[..., None]) * start + s[..., None] * end, sd[..., None] * delta,
                sdd[..., None] * delta)
