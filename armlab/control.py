"""Controllers for :func:`armlab.simulate`, and the contract a controller of your own meets.

The contract
------------
A controller is anything callable as ``controller(t, q, qd) -> tau``:

* ``t`` the time [s], a float;
* ``q``, ``qd`` the measured joint angles [rad] and speeds [rad/s]: arrays of
  shape ``(n,)`` for one run, ``(*batch, n)`` when :func:`armlab.simulate` runs
  a batch of runs at once (one row per run);
* it returns the motor torques [N m]: shape ``(n,)`` or ``(*batch, n)`` (a
  ``(n,)`` answer is shared by every run of a batch).

It sees the exact state at each control tick (no sensor noise, no delay).
If it has a ``reset()`` method, :func:`armlab.simulate` calls it before the
run. A plain function meets the contract, and so does a subclass of
:class:`Controller` that defines ``__call__``.

The built-in controllers
------------------------
They follow a plan: a :class:`armlab.Quintic`, a fixed pose, or any callable
``plan(t) -> (q, qd, qdd)``. With ``e = q_plan - q`` [rad] and
``de = qd_plan - qd`` [rad/s]:

* :func:`pd`: ``Kp e + Kd de``; :func:`pid` adds the integral ``I``;
* :func:`pd_gravity`: ``g_model(q) + Kp e + Kd de (+ I)``;
* :func:`feedforward_pid`: ``ID_model(plan) + Kp e + Kd de + I``;
* :func:`computed_torque`: ``ID_model(q, qd, qdd_plan + Kp e + Kd de)``.

The model-based ones hold a *model* arm, which may differ from the real one
(friction, payload). Every gain is a scalar, an ``(n,)`` array (per joint), or
an array of shape ``(*batch, n)`` or ``(*batch, 1)``: one gain set per run, for
a batch of runs (a gain map) in one call to :func:`armlab.simulate`. A 1-D gain
is always per joint. Conventions: SI units; positive torque drives its joint
angle positive.
"""

import copy

import numpy as np

from armlab import _kernels as K
from armlab._checks import finite_array, torque_bounds
from armlab.trajectory import Quintic, quintic

__all__ = ["Controller", "pd", "pid", "pd_gravity", "feedforward_pid", "computed_torque"]


class Controller:
    """Base class for controllers: ``controller(t, q, qd) -> tau``.

    Subclass it and define ``__call__(self, t, q, qd)`` (and ``reset(self)``
    if the controller has a state to restore before each run); see the module
    documentation for the shapes. Subclassing is optional: any callable with
    that signature is a controller.

    Attributes
    ----------
    n : int or None
        Number of joints it drives; None: any (not checked).

    Examples
    --------
    A PD controller of your own that counts its calls:

    >>> import armlab as al
    >>> class CountingPD(al.Controller):
    ...     def __init__(self, target, kp, kd):
    ...         self.target, self.kp, self.kd, self.calls = target, kp, kd, 0
    ...     def reset(self):
    ...         self.calls = 0
    ...     def __call__(self, t, q, qd):
    ...         self.calls += 1
    ...         return self.kp * (self.target - q) - self.kd * qd
    >>> c = CountingPD(np.radians([30, 45]), 60.0, 4.0)
    >>> sim = al.simulate(al.tabletop_arm(), np.radians([30, 45]), 0.01, c)
    >>> c.calls                             # 10 ticks and the final state
    11
    """

    n = None

    def reset(self):
        """Restore the state the controller starts a run with (nothing by default)."""

    def __call__(self, t, q, qd):
        raise NotImplementedError(
            f"{type(self).__name__} must define __call__(self, t, q, qd) returning the "
            "torques [N m], shape (n,) or (*batch, n)")


# ----------------------------------------------------------------------------- plans and gains

def _plan_function(plan, n):
    """``t -> (q, qd, qdd)`` as lists of n floats, from a Quintic, a pose or a callable."""
    if isinstance(plan, Quintic):
        if plan.n != n:
            raise ValueError(f"plan has {plan.n} joints: expected {n}")
        return plan._at
    if callable(plan):
        def at(t):
            out = [np.asarray(x, dtype=float) for x in plan(t)]
            if len(out) != 3 or any(x.shape != (n,) for x in out):
                raise ValueError(f"plan(t) must return (q, qd, qdd) of shape ({n},) each; "
                                 f"got shapes {[x.shape for x in out]} at t = {t:g} s")
            return [x.tolist() for x in out]
        at(0.0)                                  # refuse a wrong plan before any run
        return at
    pose = finite_array("plan", plan)
    if pose.shape != (n,):
        raise ValueError(f"plan has shape {pose.shape}: expected a Quintic, a callable "
                         f"plan(t) -> (q, qd, qdd), or a pose of shape ({n},)")
    return quintic(pose, pose, 0.0)._at


def _plan_joints(plan):
    if isinstance(plan, Quintic):
        return plan.n
    if callable(plan):
        return np.shape(plan(0.0)[0])[-1]
    return np.size(plan)


def _per_joint_batch(n, name, value):
    """A scalar, ``(n,)``, ``(*batch, n)`` or ``(*batch, 1)`` value as ``(*batch, n)``."""
    arr = finite_array(name, value)
    if arr.ndim == 0:
        return np.full(n, float(arr))
    if arr.shape[-1] not in (1, n) or (arr.ndim == 1 and arr.shape[0] != n):
        raise ValueError(f"{name} has shape {arr.shape}: expected a scalar, shape ({n},) per "
                         f"joint, or (*batch, {n}) or (*batch, 1) for a batch of runs")
    return np.broadcast_to(arr, arr.shape[:-1] + (n,)).copy()


def _components(value, shape):
    """A ``(*s, n)`` array as n components for runs of batch shape ``shape``.

    Floats when the value is shared by every run; else one ``(B,)`` array per
    joint, ``B = prod(shape)``.
    """
    if value.ndim == 1:
        return value.tolist()
    if shape == ():
        raise ValueError(f"a batch of {value.shape[:-1]} values needs a batch of runs")
    full = np.broadcast_to(value, shape + value.shape[-1:]).reshape(-1, value.shape[-1])
    return list(np.ascontiguousarray(full.T))


# ----------------------------------------------------------------------------- built-ins

class _PlanFollower(Controller):
    """What the built-in controllers share: a plan, gains, an optional model, an integral.

    They compute on *components* (one float or ``(B,)`` array per joint) in
    ``_torque``, which :func:`armlab.simulate` calls directly; ``__call__``
    is the public, array-in, array-out face of the same computation.
    """

    def __init__(self, n, plan, gains, model=None, integral=None):
        self.n = n
        self.plan = plan
        self._plan_at = _plan_function(plan, n)
        self.model = model
        self._k = None if model is None else model._constants
        self._gain_arrays = {name: _per_joint_batch(n, name, value)
                             for name, value in gains.items()}
        for name, g in self._gain_arrays.items():
            if np.any(g < 0):
                raise ValueError(f"{name} must not be negative, got {g.tolist()}")
        self._integral0 = _per_joint_batch(n, "integral", 0.0 if integral is None else integral)
        try:
            self.batch_shape = np.broadcast_shapes(
                *(a.shape[:-1] for a in self._gain_arrays.values()), self._integral0.shape[:-1])
        except ValueError:
            shapes = ", ".join(f"{k} {v.shape}" for k, v in self._gain_arrays.items())
            raise ValueError(f"the batches of gains do not broadcast together: {shapes}") \
                from None
        self._shape = None
        self.reset()

    def reset(self):
        """Restore the integral torque to its starting value (and forget the last time)."""
        self._integral = None
        self._t_last = None

    def _use(self, shape):
        """Prepare the gains as components for runs of batch shape ``shape``."""
        if shape != self._shape:
            if self._integral is not None:
                raise ValueError(f"the controller is running a batch of shape {self._shape}; "
                                 f"call reset() before using it for shape {shape}")
            self._gains = {k: _components(v, shape) for k, v in self._gain_arrays.items()}
            self._ops = K.FLOATS if shape == () else K.ARRAYS
            self._shape = shape

    def _alone(self, index, shape):
        """A copy of this controller for run ``index`` of a batch of shape ``shape`` made
        alone: that run's gains and starting integral, everything else shared."""
        one = copy.copy(self)
        one._gain_arrays = {name: np.broadcast_to(g, shape + g.shape[-1:])[index]
                            for name, g in self._gain_arrays.items()}
        one._integral0 = np.broadcast_to(self._integral0, shape + (self.n,))[index]
        one.batch_shape, one._shape = (), None
        one.reset()
        return one

    def _start_integral(self):
        if self._integral is None:
            self._integral = _components(self._integral0, self._shape)
        return self._integral

    def __call__(self, t, q, qd):
        """Torques ``(..., n)`` [N m] for the time ``t`` [s] and ``q``, ``qd`` of shape ``(..., n)``."""
        q = finite_array("q", q)
        qd = finite_array("qd", qd)
        for name, x in (("q", q), ("qd", qd)):
            if x.ndim == 0 or x.shape[-1] != self.n:
                raise ValueError(f"{name} has shape {x.shape}: expected (..., {self.n})")
        try:
            shape = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1], self.batch_shape)
        except ValueError:
            raise ValueError(f"q {q.shape}, qd {qd.shape} and the gains' batch "
                             f"{self.batch_shape} do not broadcast together") from None
        self._use(shape)
        tau = self._torque(float(t), _components(q, shape), _components(qd, shape))
        return np.stack(np.broadcast_arrays(*tau), axis=-1).reshape(shape + (self.n,))

    def _torque(self, t, q, qd):
        raise NotImplementedError


class _PID(_PlanFollower):
    """PID on the plan's error, plus an optional model term.

    ``tau = Kp e + Kd de + I + extra``, with the integral torque ``I`` advanced
    by ``Ki e dt`` before it is used (``dt``: time since the previous call; 0
    on the first call after a reset). ``extra`` is nothing, the model's
    ``g(q)`` at the measured pose, or the model's inverse dynamics of the plan.
    With ``torque_limit`` the integral is clamped: a joint's integral does not
    advance at a tick where the torque it would give is beyond a limit and the
    step pushes it further out (conditional integration, an anti-windup).
    """

    def __init__(self, n, plan, kp, kd, ki=0.0, integral=None, model=None, extra=None,
                 torque_limit=None):
        super().__init__(n, plan, {"kp": kp, "kd": kd, "ki": ki}, model, integral)
        self.extra = extra
        self._integrates = integral is not None or np.any(self._gain_arrays["ki"] != 0)
        self.torque_limit = None
        if torque_limit is not None:
            try:
                low, high = torque_bounds(n, torque_limit)
            except ValueError as err:
                raise ValueError("torque_limit: " + str(err)) from None
            self.torque_limit = (low.tolist(), high.tolist())

    def _torque(self, t, q, qd):
        q_ref, qd_ref, qdd_ref = self._plan_at(t)
        g = self._gains
        kp, kd, ki = g["kp"], g["kd"], g["ki"]
        out = [kp[i] * (q_ref[i] - q[i]) + kd[i] * (qd_ref[i] - qd[i]) for i in range(self.n)]
        extra = None
        if self.extra == "gravity":
            extra = K.gravity(self._k, self._ops, q)
        elif self.extra == "feedforward":
            extra = K.inverse(self._k, K.FLOATS, q_ref, qd_ref, qdd_ref)   # the plan: floats
        if self._integrates:
            dt = 0.0 if self._t_last is None else t - self._t_last
            self._t_last = t
            integral = self._start_integral()
            for i in range(self.n):
                step = ki[i] * (q_ref[i] - q[i]) * dt
                if self.torque_limit is not None:
                    trial = out[i] + integral[i] + step + (0.0 if extra is None else extra[i])
                    step = _clamped(step, trial, self.torque_limit[0][i],
                                    self.torque_limit[1][i])
                integral[i] = integral[i] + step
                out[i] = out[i] + integral[i]
        if extra is not None:
            out = [a + b for a, b in zip(out, extra)]
        return out


def _clamped(step, trial, low, high):
    """The integral's step, or 0 where the trial torque is beyond a limit and the step
    pushes it further out (floats, or ``(B,)`` arrays for a batch)."""
    if isinstance(trial, np.ndarray) or isinstance(step, np.ndarray):
        out = ((trial > high) & (step > 0)) | ((trial < low) & (step < 0))
        return np.where(out, 0.0, step)
    if (trial > high and step > 0) or (trial < low and step < 0):
        return 0.0
    return step


class _ComputedTorque(_PlanFollower):
    """``tau = ID_model(q, qd, qdd_plan + Kp e + Kd de)``."""

    def __init__(self, model, plan, kp, kd):
        super().__init__(model.n, plan, {"kp": kp, "kd": kd}, model)

    def _torque(self, t, q, qd):
        q_ref, qd_ref, qdd_ref = self._plan_at(t)
        kp, kd = self._gains["kp"], self._gains["kd"]
        wanted = [qdd_ref[i] + kp[i] * (q_ref[i] - q[i]) + kd[i] * (qd_ref[i] - qd[i])
                  for i in range(self.n)]
        return K.inverse(self._k, self._ops, q, qd, wanted)


def pd(plan, kp, kd):
    """Proportional-derivative control on the plan: ``tau = Kp e + Kd de``.

    Parameters
    ----------
    plan : Quintic, callable or (n,) array_like
        The planned motion (a :class:`armlab.Quintic`, or any ``plan(t) ->
        (q, qd, qdd)``), or a fixed pose to hold [rad].
    kp : float, (n,) or (*batch, n) array_like
        Stiffness [N m/rad]; a batch of gains makes a batch of runs.
    kd : float, (n,) or (*batch, n) array_like
        Damping [N m s/rad].

    Returns
    -------
    Controller
        ``e = q_plan - q`` [rad], ``de = qd_plan - qd`` [rad/s].

    Examples
    --------
    The table-top arm's PD holding (30, 45) deg sags under gravity, 5.5 and 0.9 deg:

    >>> from armlab import simulate, tabletop_arm, tracking_error
    >>> target = np.radians([30, 45])
    >>> sim = simulate(tabletop_arm(damping=0.02), target, 3.0, pd(target, [60, 30], [4, 1.5]))
    >>> np.degrees(tracking_error(sim, target)[-1]).round(1)
    array([5.5, 0.9])
    """
    return _PID(_plan_joints(plan), plan, kp, kd)


def pid(plan, kp, kd, ki, integral=None, torque_limit=None):
    """PID control on the plan: ``tau = Kp e + Kd de + I``, ``dI/dt = Ki e``.

    Parameters
    ----------
    plan : Quintic, callable or (n,) array_like
        The planned motion, or a fixed pose [rad].
    kp, kd, ki : float, (n,) or (*batch, n) array_like
        Gains [N m/rad], [N m s/rad], [N m/(rad s)].
    integral : (n,) or (*batch, n) array_like, optional
        The integral torque ``I`` at the start [N m], e.g. ``g(q0)`` for an
        arm that has stood still at ``q0`` long enough. Default zero.
    torque_limit : float, (n,) or (2, n) array_like, optional
        The motors' limits [N m], as in :func:`armlab.clip_torques`: with
        them the integral is clamped (an anti-windup). At a tick where the
        torque ``Kp e + Kd de + I + Ki e dt`` would be beyond a joint's limit
        and ``Ki e dt`` pushes it further out, that joint's ``I`` stays as it
        is. The torque returned is not clipped (pass the same limits to
        :func:`armlab.simulate`). Default: no clamping.

    Returns
    -------
    Controller
        Holds ``I``, advanced by ``Ki e dt`` at each call before it is used;
        ``reset()`` restores the starting value.

    Examples
    --------
    With ``I`` pre-loaded with ``g``, a PID holds the table-top arm without sag:

    >>> from armlab import tabletop_arm, gravity_torques
    >>> arm, target = tabletop_arm(damping=0.02), np.radians([30, 45])
    >>> c = pid(target, [60, 30], [4, 1.5], [60, 30], integral=gravity_torques(arm, target))
    >>> c(0.0, target, [0, 0]).round(4)
    array([5.4148, 0.3174])

    Clamped: 10 deg behind at the shoulder, a spring of 30 N m/rad asks for
    5.236 N m of a 5 N m motor, so the integral stays at zero; unclamped, one
    tick of Ki = 100 N m/(rad s) adds 0.0175 N m:

    >>> behind = target - np.radians([10, 0])
    >>> for limit in (5, None):
    ...     c = pid(target, 30, 0, 100, torque_limit=limit)
    ...     first, second = c(0.0, behind, [0, 0]), c(1e-3, behind, [0, 0])
    ...     print(first.round(4), second.round(4))
    [5.236 0.   ] [5.236 0.   ]
    [5.236 0.   ] [5.2534 0.    ]
    """
    return _PID(_plan_joints(plan), plan, kp, kd, ki, integral=integral,
                torque_limit=torque_limit)


def pd_gravity(model, plan, kp, kd, ki=0.0, torque_limit=None):
    """PD (or PID) plus gravity compensation: ``tau = g_model(q) + Kp e + Kd de (+ I)``.

    The model's gravity torque at the *measured* pose. With ``kp = kd = 0``
    this is pure gravity compensation, the "free drive" of a hand-guided arm.

    Parameters
    ----------
    model : PlanarArm
        The controller's model of the arm.
    plan : Quintic, callable or (n,) array_like
        The planned motion, or a fixed pose [rad].
    kp, kd : float, (n,) or (*batch, n) array_like
        [N m/rad], [N m s/rad].
    ki : float, (n,) or (*batch, n) array_like, optional
        Integral gain [N m/(rad s)]; default 0 (PD).
    torque_limit : float, (n,) or (2, n) array_like, optional
        The motors' limits [N m]: the integral is clamped as in :func:`pid`.

    Returns
    -------
    Controller

    Examples
    --------
    Holding (30, 45) deg, the torque settles on g(q) and the error on zero:

    >>> from armlab import simulate, tabletop_arm, tracking_error
    >>> target = np.radians([30, 45])
    >>> c = pd_gravity(tabletop_arm(damping=0.016), target, [60, 30], [4, 1.5])
    >>> sim = simulate(tabletop_arm(damping=0.02), target, 3.0, c)
    >>> sim.tau[-1].round(4), np.abs(tracking_error(sim, target)[-1]).max() < 1e-12
    (array([5.4148, 0.3174]), np.True_)
    """
    return _PID(model.n, plan, kp, kd, ki, model=model, extra="gravity",
                torque_limit=torque_limit)


def feedforward_pid(model, plan, kp, kd, ki, integral=None, torque_limit=None):
    """Inverse dynamics of the plan plus PID: ``tau = ID_model(plan) + Kp e + Kd de + I``.

    Parameters
    ----------
    model : PlanarArm
        The controller's model (its friction included in the feed-forward).
    plan : Quintic, callable or (n,) array_like
        The planned motion [rad].
    kp, kd, ki : float, (n,) or (*batch, n) array_like
        Gains [N m/rad], [N m s/rad], [N m/(rad s)].
    integral : (n,) or (*batch, n) array_like, optional
        Starting integral torque [N m]; default zero.
    torque_limit : float, (n,) or (2, n) array_like, optional
        The motors' limits [N m]: the integral is clamped as in :func:`pid`
        (the feed-forward counts in the torque it tests).

    Returns
    -------
    Controller

    Examples
    --------
    At the start of the control chapter's move the feed-forward is the holding
    torque:

    >>> from armlab import quintic, tabletop_arm
    >>> plan = quintic(np.radians([-45, 90]), np.radians([60, -30]), 0.8)
    >>> c = feedforward_pid(tabletop_arm(damping=0.016), plan, [60, 30], [4, 1.5], [60, 30])
    >>> c(0.0, np.radians([-45, 90]), [0, 0]).round(4)
    array([5.0291, 0.8671])
    """
    return _PID(model.n, plan, kp, kd, ki, integral=integral, model=model, extra="feedforward",
                torque_limit=torque_limit)


def computed_torque(model, plan, kp, kd):
    """Computed-torque control: ``tau = ID_model(q, qd, qdd_plan + Kp e + Kd de)``.

    With an exact model each joint's error obeys ``e'' + Kd e' + Kp e = 0``:
    ``Kp = w^2``, ``Kd = 2 w`` is critically damped at ``w`` rad/s.

    Parameters
    ----------
    model : PlanarArm
        The controller's model of the arm (with its friction).
    plan : Quintic, callable or (n,) array_like
        The planned motion [rad].
    kp : float, (n,) or (*batch, n) array_like
        [1/s^2].
    kd : float, (n,) or (*batch, n) array_like
        [1/s].

    Returns
    -------
    Controller

    Examples
    --------
    The control chapter's 20 rad/s tuning, Kp = 400 and Kd = 40, holding
    (30, 45) deg on the table-top arm at rest there:

    >>> from armlab import tabletop_arm
    >>> c = computed_torque(tabletop_arm(), np.radians([30, 45]), 400, 40)
    >>> c(0.0, np.radians([30, 45]), [0, 0]).round(4)
    array([5.4148, 0.3174])
    """
    return _ComputedTorque(model, plan, kp, kd)
