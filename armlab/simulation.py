"""Simulating the real arm under a controller, and the controllers themselves.

The loop (:func:`simulate`) imitates a digital controller driving a physical
arm. Every control tick (1 ms by default) the controller reads the exact
joint angles and speeds, returns a torque, the torque is clipped to the
motors' limits if any, and that torque is held for the whole tick while the
plant (the *real* arm) is integrated in ``substeps`` smaller steps:

* ``method="euler"``: semi-implicit (symplectic) Euler, the order of seed
  000's pseudocode: ``qd += qdd h`` then ``q += qd h`` with the new ``qd``;
* ``method="rk4"``: the classical fourth-order Runge-Kutta method.

The plant's dynamics are those of :mod:`armlab.dynamics`, the same closed-form
kernels as :func:`armlab.forward_dynamics`, run on plain floats (one state at
a time, inputs checked once at :func:`simulate`'s edge).

A controller is any callable ``controller(t, q, qd) -> tau`` taking the time
[s] and ``(n,)`` arrays of angles [rad] and speeds [rad/s], returning ``n``
torques [N m]; it sees the exact state at each tick (no sensor noise, no
delay). The controllers built here follow a plan (:func:`armlab.quintic`, or
a fixed pose): :func:`pd` and :func:`pid` use no model; :func:`pd_gravity`,
:func:`feedforward_pid` and :func:`computed_torque` hold a *model* arm, which
may differ from the real one (friction, payload). :func:`simulate` resets
them before each run.

Conventions: SI units; error = plan - measured; positive torque drives its
joint angle positive; the equation of motion is that of
:mod:`armlab.dynamics` (no tip force here).
"""

import math
from dataclasses import dataclass
from operator import mul

import numpy as np

from armlab._checks import finite_array, joint_vector, per_joint, torque_bounds
from armlab.dynamics import _one_state_dynamics, kinetic_energy, potential_energy
from armlab.trajectory import Quintic, quintic

__all__ = ["Simulation", "simulate", "tracking_error", "Controller", "pd", "pid", "pd_gravity",
           "feedforward_pid", "computed_torque"]


# ----------------------------------------------------------------------------- the result

@dataclass(frozen=True)
class Simulation:
    """What :func:`simulate` recorded, one row per control tick and one at the end.

    Row ``k`` is the state at ``time[k] = k * control_dt``, the torque the
    controller commanded there and the torque applied (held) from there to
    the next tick. The last row is the final state; its torques are what the
    controller would command there (they are never applied).

    Attributes
    ----------
    time : (N + 1,) ndarray
        [s].
    q, qd : (N + 1, n) ndarray
        Joint angles [rad] and speeds [rad/s] of the real arm.
    qdd : (N + 1, n) ndarray
        Acceleration at that state under the applied torque [rad/s^2].
    tau_command, tau : (N + 1, n) ndarray
        Torque the controller asked for and torque applied after the limits [N m].
    saturated : (N + 1, n) bool ndarray
        Where the limit clipped the command.
    kinetic, potential : (N + 1,) ndarray
        Energies of the real arm [J]; potential zero with every centre of mass
        at the shoulder's height.
    motor_work, friction_work : (N + 1,) ndarray
        Work done so far by the motors on the arm, and energy taken out by
        friction (not negative) [J]. In exact arithmetic
        ``kinetic + potential`` changes by exactly ``motor_work - friction_work``.
    method : str
        ``"euler"`` (semi-implicit) or ``"rk4"``.
    control_dt : float
        Control period [s].
    substeps : int
        Plant steps per control tick.
    """

    time: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau_command: np.ndarray
    tau: np.ndarray
    saturated: np.ndarray
    kinetic: np.ndarray
    potential: np.ndarray
    motor_work: np.ndarray
    friction_work: np.ndarray
    method: str
    control_dt: float
    substeps: int

    @property
    def energy(self):
        """Total mechanical energy ``kinetic + potential``, ``(N + 1,)`` [J]."""
        return self.kinetic + self.potential

    @property
    def energy_error(self):
        """The integrator's energy error, ``(N + 1,)`` [J].

        ``E(t) - E(0) - motor_work + friction_work``: zero for the exact motion,
        so what is left is made by the time step.
        """
        return self.energy - self.energy[0] - self.motor_work + self.friction_work


def tracking_error(sim, plan):
    """Plan minus measured angle at every recorded time, ``(N + 1, n)`` [rad].

    Parameters
    ----------
    sim : Simulation
    plan : Quintic or (n,) array_like
        The plan the controller followed, or a fixed pose.

    Returns
    -------
    error : (N + 1, n) ndarray
        [rad]; positive where the arm is behind (below) the plan.

    Examples
    --------
    Ten milliseconds after the motors are switched off at (30, 45) deg, the
    shoulder is 0.117 deg below the pose and the elbow 0.221 deg above it:

    >>> from armlab import tabletop_arm
    >>> sim = simulate(tabletop_arm(), np.radians([30, 45]), 0.01)
    >>> np.degrees(tracking_error(sim, np.radians([30, 45]))[-1]).round(3)
    array([ 0.117, -0.221])
    """
    plan = _as_plan(plan, sim.q.shape[-1])
    return plan(sim.time)[0] - sim.q


# ----------------------------------------------------------------------------- the loop

def simulate(arm, q0, duration, controller=None, *, qd0=None, control_dt=1e-3, substeps=10,
             method="euler", torque_limit=None):
    """Run the real ``arm`` under ``controller`` for ``duration`` seconds.

    Parameters
    ----------
    arm : PlanarArm
        The real arm (the plant), with its real friction.
    q0 : (n,) array_like
        Initial joint angles [rad].
    duration : float
        Simulated time [s]; a whole number of control ticks.
    controller : callable, optional
        ``controller(t, q, qd) -> tau``: time [s], ``(n,)`` arrays of angles
        [rad] and speeds [rad/s] in, ``n`` torques [N m] out. Called once per
        tick (and once at the end, for the record). Default: zero torque.
        If it has a ``reset()`` method it is called first.
    qd0 : (n,) array_like, optional
        Initial speeds [rad/s]; default at rest.
    control_dt : float, optional
        Control period [s]; default 1 ms (1 kHz).
    substeps : int, optional
        Plant steps per tick (zero-order hold); default 10 (0.1 ms steps).
    method : {"euler", "rk4"}, optional
        Semi-implicit Euler (default, seed 000's pseudocode) or RK4.
    torque_limit : float, (n,) or (2, n) array_like, optional
        Motor limits as in :func:`armlab.clip_torques` [N m]; each clipped
        tick is flagged in ``saturated``.

    Returns
    -------
    Simulation
        ``N + 1`` rows for ``N = duration / control_dt`` ticks.

    Examples
    --------
    Seed 000's arm falling from rest at (30, 45) deg with its motors off:

    >>> from armlab import tabletop_arm
    >>> sim = simulate(tabletop_arm(damping=0.02), np.radians([30, 45]), 0.25)
    >>> np.degrees(sim.q[[150, 250]]).round(1)
    array([[  5.9,  80.6],
           [-35.4,  98.7]])
    """
    q = joint_vector(arm, "q0", q0)
    if q.ndim != 1:
        raise ValueError(f"q0 has shape {q.shape}: expected one state of shape ({arm.n},)")
    qd = np.zeros(arm.n) if qd0 is None else joint_vector(arm, "qd0", qd0)
    if qd.shape != q.shape:
        raise ValueError(f"qd0 has shape {qd.shape}: expected ({arm.n},)")
    dt = finite_array("control_dt", control_dt)
    if dt.ndim != 0 or dt <= 0:
        raise ValueError(f"control_dt must be a positive time [s], got {control_dt!r}")
    dt = float(dt)
    T = finite_array("duration", duration)
    if T.ndim != 0 or T < 0:
        raise ValueError(f"duration must be a non-negative time [s], got {duration!r}")
    ticks = round(float(T) / dt)
    if abs(ticks * dt - float(T)) > 1e-9 * max(1.0, float(T)):
        raise ValueError(f"duration {duration!r} is not a whole number of control ticks "
                         f"of {dt!r} s")
    if not (isinstance(substeps, (int, np.integer)) and substeps >= 1):
        raise ValueError(f"substeps must be a positive integer, got {substeps!r}")
    if method not in ("euler", "rk4"):
        raise ValueError(f"method must be 'euler' (semi-implicit) or 'rk4', got {method!r}")
    low = high = None
    if torque_limit is not None:
        low, high = (b.tolist() for b in torque_bounds(arm.n, torque_limit))

    if controller is None:
        controller = _zero_torque
    if hasattr(controller, "reset"):
        controller.reset()
    if isinstance(controller, Controller):
        controller._check(arm.n)
        command = controller._torque                       # plain floats in and out
    else:
        command = _array_caller(controller, arm.n)

    dyn = _one_state_dynamics(arm)
    h = dt / substeps
    step = _euler_tick if method == "euler" else _rk4_tick
    q, qd = q.tolist(), qd.tolist()
    rows = []
    w_motor = w_friction = 0.0
    for k in range(ticks + 1):
        t = k * dt
        tau_cmd = command(t, q, qd)
        tau, sat = tau_cmd, None
        if low is not None:
            tau = [lo if x < lo else hi if x > hi else x for x, lo, hi in zip(tau_cmd, low, high)]
            sat = [x != y for x, y in zip(tau_cmd, tau)]
        try:
            if k == ticks:
                qdd = dyn.forward(q, qd, tau)
            else:
                qdd, q_new, qd_new, dw_m, dw_f = step(dyn, q, qd, tau, h, substeps)
                if not all(map(math.isfinite, q_new + qd_new)):
                    raise OverflowError
        except (OverflowError, ValueError, ZeroDivisionError):     # inf/nan: sin(inf), ...
            raise ValueError(f"the simulation diverged between t = {t:g} s and the next tick: "
                             "the state is no longer finite; lower the gains or the time "
                             "step (control_dt, substeps)") from None
        rows.append((t, q, qd, qdd, tau_cmd, tau, sat, w_motor, w_friction))
        if k < ticks:
            q, qd = q_new, qd_new
            w_motor += dw_m
            w_friction += dw_f

    cols = list(zip(*rows))
    n = arm.n
    saturated = (np.zeros((ticks + 1, n), bool) if low is None
                 else np.array(cols[6], dtype=bool).reshape(ticks + 1, n))
    arr = [None if i == 6 else np.array(c, dtype=float) for i, c in enumerate(cols)]
    return Simulation(time=arr[0], q=arr[1], qd=arr[2], qdd=arr[3], tau_command=arr[4],
                      tau=arr[5], saturated=saturated, kinetic=kinetic_energy(arm, arr[1], arr[2]),
                      potential=potential_energy(arm, arr[1]), motor_work=arr[7],
                      friction_work=arr[8], method=method, control_dt=dt, substeps=int(substeps))


def _zero_torque(t, q, qd):
    return np.zeros(len(q))


def _array_caller(controller, n):
    """Wrap a user's callable: arrays in, a checked list of n floats out."""
    if not callable(controller):
        raise ValueError(f"controller must be callable as controller(t, q, qd), got {controller!r}")

    def command(t, q, qd):
        out = controller(t, np.array(q), np.array(qd))
        tau = np.asarray(out, dtype=float)
        if tau.shape != (n,):
            raise ValueError(f"controller returned shape {tau.shape} at t = {t:g} s: "
                             f"expected ({n},) torques")
        if not np.all(np.isfinite(tau)):
            raise ValueError(f"controller returned non-finite torques {tau.tolist()} "
                             f"at t = {t:g} s")
        return tau.tolist()
    return command


def _euler_tick(dyn, q, qd, tau, h, substeps):
    """One control tick of semi-implicit Euler steps under a held torque.

    Each step: ``qdd = forward(q, qd, tau)``, ``qd += qdd h``, then
    ``q += qd h`` with the new ``qd`` (seed 000's pseudocode). Work is counted
    as force times displacement within each step: the motors do
    ``tau . (q_new - q)``; friction takes ``f(qd) . (q_new - q)`` with the
    friction that acted in the step (evaluated at the step's starting speed).
    Returns ``(qdd at the tick's start, q, qd, motor work, friction work)``.
    """
    forward, friction = dyn.forward, dyn.friction if dyn.has_friction else None
    q0 = q
    qdd0 = None
    wf = 0.0
    for _ in range(substeps):
        f = None if friction is None else friction(qd)
        a = forward(q, qd, tau, None, f)
        qd = [v + h * x for v, x in zip(qd, a)]
        q = [x + h * v for x, v in zip(q, qd)]
        if f is not None:
            wf += sum(map(mul, f, qd))
        if qdd0 is None:
            qdd0 = a
    w_m = sum(t * (x1 - x0) for t, x0, x1 in zip(tau, q0, q))
    return qdd0, q, qd, w_m, wf * h


def _rk4_tick(dyn, q, qd, tau, h, substeps):
    """One control tick of classical RK4 steps under a held torque.

    The work done by the motors (``tau . qd``) and taken by friction
    (``f(qd) . qd``) is integrated along with the state, with the same
    four-stage weights. Returns what :func:`_euler_tick` returns.
    """
    forward, friction = dyn.forward, dyn.friction

    def deriv(x, v):
        """(qdd, motor power, friction power) at the state (x, v)."""
        f = friction(v)
        return forward(x, v, tau, None, f), sum(map(mul, tau, v)), sum(map(mul, f, v))

    half, sixth = 0.5 * h, h / 6.0
    qdd0 = None
    wm = wf = 0.0
    for _ in range(substeps):
        a1, pm1, pf1 = deriv(q, qd)
        if qdd0 is None:
            qdd0 = a1
        v2 = [v + half * a for v, a in zip(qd, a1)]
        a2, pm2, pf2 = deriv([x + half * v for x, v in zip(q, qd)], v2)
        v3 = [v + half * a for v, a in zip(qd, a2)]
        a3, pm3, pf3 = deriv([x + half * v for x, v in zip(q, v2)], v3)
        v4 = [v + h * a for v, a in zip(qd, a3)]
        a4, pm4, pf4 = deriv([x + h * v for x, v in zip(q, v3)], v4)
        wm += sixth * (pm1 + 2.0 * (pm2 + pm3) + pm4)
        wf += sixth * (pf1 + 2.0 * (pf2 + pf3) + pf4)
        q = [x + sixth * (b1 + 2.0 * (b2 + b3) + b4)
             for x, b1, b2, b3, b4 in zip(q, qd, v2, v3, v4)]
        qd = [x + sixth * (b1 + 2.0 * (b2 + b3) + b4)
              for x, b1, b2, b3, b4 in zip(qd, a1, a2, a3, a4)]
    return qdd0, q, qd, wm, wf


# ----------------------------------------------------------------------------- controllers

def _as_plan(plan, n):
    if isinstance(plan, Quintic):
        if plan.n != n:
            raise ValueError(f"plan has {plan.n} joints: expected {n}")
        return plan
    pose = finite_array("plan", plan)
    if pose.shape != (n,):
        raise ValueError(f"plan has shape {pose.shape}: expected a Quintic or a pose of "
                         f"shape ({n},)")
    return quintic(pose, pose, 0.0)


def _gains(n, name, value):
    g = per_joint(n, name, value, nonnegative=True)
    return tuple(g.tolist())


class Controller:
    """Base of the built-in controllers: ``controller(t, q, qd) -> tau``.

    Call it with the time [s] and ``(n,)`` arrays ``q`` [rad], ``qd`` [rad/s];
    it returns an ``(n,)`` array of torques [N m]. ``reset()`` restores the
    state it starts with (the PID integral). Inside :func:`simulate` the
    same computation runs on plain floats.
    """

    n = None

    def reset(self):
        """Restore the initial state (nothing, unless the controller integrates)."""

    def __call__(self, t, q, qd):
        q = finite_array("q", q)
        qd = finite_array("qd", qd)
        for name, x in (("q", q), ("qd", qd)):
            if x.shape != (self.n,):
                raise ValueError(f"{name} has shape {x.shape}: expected ({self.n},)")
        return np.array(self._torque(float(t), q.tolist(), qd.tolist()))

    def _check(self, n):
        if n != self.n:
            raise ValueError(f"the controller is for {self.n} joints but the arm has {n}")

    def _torque(self, t, q, qd):
        raise NotImplementedError


class _PID(Controller):
    """PID on the plan's error, plus an optional model term.

    ``tau = Kp e + Kd de + I + extra``, ``e = q_plan - q``, ``de = qd_plan - qd``,
    with the integral torque ``I`` advanced by ``Ki e dt`` before it is used
    (``dt``: time since the previous call; 0 on the first call after a reset).
    ``extra`` is nothing, the model's ``g(q)`` at the measured pose, or the
    model's inverse dynamics of the plan.
    """

    def __init__(self, plan, kp, kd, ki=0.0, integral=None, model=None, extra=None, n=None):
        n = model.n if model is not None else n
        if n is None:
            n = plan.n if isinstance(plan, Quintic) else np.size(plan)
        self.n = n
        self.plan = _as_plan(plan, n)
        self.kp, self.kd, self.ki = _gains(n, "kp", kp), _gains(n, "kd", kd), _gains(n, "ki", ki)
        start = np.zeros(n) if integral is None else finite_array("integral", integral)
        if start.shape != (n,):
            raise ValueError(f"integral has shape {start.shape}: expected ({n},) torques [N m]")
        self.integral0 = tuple(start.tolist())
        self.model = model
        self._dyn = None if model is None else _one_state_dynamics(model)
        self.extra = extra
        self.reset()

    def reset(self):
        """Restore the integral torque to its starting value."""
        self.integral = list(self.integral0)
        self._t_last = None

    def _torque(self, t, q, qd):
        q_ref, qd_ref, qdd_ref = self.plan._at(t)
        dt = 0.0 if self._t_last is None else t - self._t_last
        self._t_last = t
        integral = self.integral
        out = []
        for i in range(self.n):
            e = q_ref[i] - q[i]
            integral[i] += self.ki[i] * e * dt
            out.append(self.kp[i] * e + self.kd[i] * (qd_ref[i] - qd[i]) + integral[i])
        if self.extra == "gravity":
            out = [a + b for a, b in zip(out, self._dyn.gravity(q))]
        elif self.extra == "feedforward":
            ff = self._dyn.inverse(q_ref, qd_ref, qdd_ref)
            out = [a + b for a, b in zip(out, ff)]
        return out


class _ComputedTorque(Controller):
    """``tau = ID_model(q, qd, qdd_plan + Kp e + Kd de)``."""

    def __init__(self, model, plan, kp, kd):
        self.n = model.n
        self.model = model
        self._dyn = _one_state_dynamics(model)
        self.plan = _as_plan(plan, self.n)
        self.kp, self.kd = _gains(self.n, "kp", kp), _gains(self.n, "kd", kd)

    def _torque(self, t, q, qd):
        q_ref, qd_ref, qdd_ref = self.plan._at(t)
        wanted = [a + kp * (r - x) + kd * (rd - v) for a, kp, kd, r, x, rd, v
                  in zip(qdd_ref, self.kp, self.kd, q_ref, q, qd_ref, qd)]
        return self._dyn.inverse(q, qd, wanted)


def pd(plan, kp, kd):
    """Proportional-derivative control on the plan: ``tau = Kp e + Kd de``.

    Parameters
    ----------
    plan : Quintic or (n,) array_like
        The planned motion, or a fixed pose to hold [rad].
    kp : float or (n,) array_like
        Stiffness [N m/rad].
    kd : float or (n,) array_like
        Damping [N m s/rad].

    Returns
    -------
    Controller
        ``e = q_plan - q`` [rad], ``de = qd_plan - qd`` [rad/s].

    Examples
    --------
    Seed 000's PD holding (30, 45) deg sags under gravity, 5.5 and 0.9 deg:

    >>> from armlab import tabletop_arm
    >>> target = np.radians([30, 45])
    >>> sim = simulate(tabletop_arm(damping=0.02), target, 3.0, pd(target, [60, 30], [4, 1.5]))
    >>> np.degrees(tracking_error(sim, target)[-1]).round(1)
    array([5.5, 0.9])
    """
    return _PID(plan, kp, kd)


def pid(plan, kp, kd, ki, integral=None):
    """PID control on the plan: ``tau = Kp e + Kd de + I``, ``dI/dt = Ki e``.

    Parameters
    ----------
    plan : Quintic or (n,) array_like
        The planned motion, or a fixed pose [rad].
    kp, kd, ki : float or (n,) array_like
        Gains [N m/rad], [N m s/rad], [N m/(rad s)].
    integral : (n,) array_like, optional
        The integral torque ``I`` at the start [N m], e.g. ``g(q0)`` for an
        arm that has stood still at ``q0`` long enough. Default zero.

    Returns
    -------
    Controller
        Holds ``I``, advanced by ``Ki e dt`` at each call before it is used;
        ``reset()`` restores the starting value.

    Examples
    --------
    With ``I`` pre-loaded with ``g``, a PID holds seed 000's arm without sag:

    >>> from armlab import tabletop_arm, gravity_torques
    >>> arm, target = tabletop_arm(damping=0.02), np.radians([30, 45])
    >>> c = pid(target, [60, 30], [4, 1.5], [60, 30], integral=gravity_torques(arm, target))
    >>> c(0.0, target, [0, 0]).round(4)
    array([5.4148, 0.3174])
    """
    return _PID(plan, kp, kd, ki, integral=integral)


def pd_gravity(model, plan, kp, kd, ki=0.0):
    """PD (or PID) plus gravity compensation: ``tau = g_model(q) + Kp e + Kd de (+ I)``.

    The model's gravity torque at the *measured* pose. With ``kp = kd = 0``
    this is pure gravity compensation, the "free drive" of a hand-guided arm.

    Parameters
    ----------
    model : PlanarArm
        The controller's model of the arm.
    plan : Quintic or (n,) array_like
        The planned motion, or a fixed pose [rad].
    kp, kd : float or (n,) array_like
        [N m/rad], [N m s/rad].
    ki : float or (n,) array_like, optional
        Integral gain [N m/(rad s)]; default 0 (PD).

    Returns
    -------
    Controller

    Examples
    --------
    Holding (30, 45) deg, the torque settles on g(q) and the error on zero:

    >>> from armlab import tabletop_arm
    >>> target = np.radians([30, 45])
    >>> c = pd_gravity(tabletop_arm(damping=0.016), target, [60, 30], [4, 1.5])
    >>> sim = simulate(tabletop_arm(damping=0.02), target, 3.0, c)
    >>> sim.tau[-1].round(4), np.abs(tracking_error(sim, target)[-1]).max() < 1e-12
    (array([5.4148, 0.3174]), np.True_)
    """
    return _PID(plan, kp, kd, ki, model=model, extra="gravity")


def feedforward_pid(model, plan, kp, kd, ki, integral=None):
    """Inverse dynamics of the plan plus PID: ``tau = ID_model(plan) + Kp e + Kd de + I``.

    Parameters
    ----------
    model : PlanarArm
        The controller's model (its friction included in the feed-forward).
    plan : Quintic or (n,) array_like
        The planned motion [rad].
    kp, kd, ki : float or (n,) array_like
        Gains [N m/rad], [N m s/rad], [N m/(rad s)].
    integral : (n,) array_like, optional
        Starting integral torque [N m]; default zero.

    Returns
    -------
    Controller

    Examples
    --------
    At the start of seed 000's move the feed-forward is the holding torque:

    >>> from armlab import tabletop_arm
    >>> plan = quintic(np.radians([-45, 90]), np.radians([60, -30]), 0.8)
    >>> c = feedforward_pid(tabletop_arm(damping=0.016), plan, [60, 30], [4, 1.5], [60, 30])
    >>> c(0.0, np.radians([-45, 90]), [0, 0]).round(4)
    array([5.0291, 0.8671])
    """
    return _PID(plan, kp, kd, ki, integral=integral, model=model, extra="feedforward")


def computed_torque(model, plan, kp, kd):
    """Computed-torque control: ``tau = ID_model(q, qd, qdd_plan + Kp e + Kd de)``.

    With an exact model each joint's error obeys ``e'' + Kd e' + Kp e = 0``:
    ``Kp = w^2``, ``Kd = 2 w`` is critically damped at ``w`` rad/s.

    Parameters
    ----------
    model : PlanarArm
        The controller's model of the arm (with its friction).
    plan : Quintic or (n,) array_like
        The planned motion [rad].
    kp : float or (n,) array_like
        [1/s^2].
    kd : float or (n,) array_like
        [1/s].

    Returns
    -------
    Controller

    Examples
    --------
    Seed 000's 20 rad/s tuning, Kp = 400 and Kd = 40, on the worked instant:

    >>> from armlab import tabletop_arm
    >>> c = computed_torque(tabletop_arm(), np.radians([30, 45]), 400, 40)
    >>> c(0.0, np.radians([30, 45]), [0, 0]).round(4)
    array([5.4148, 0.3174])
    """
    return _ComputedTorque(model, plan, kp, kd)
