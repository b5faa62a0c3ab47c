"""Simulating the real arm under a controller: the control loop and the integrators.

The loop (:func:`simulate`) imitates a digital controller driving a physical
arm. Every control tick (1 ms by default) the controller reads the exact
joint angles and speeds and returns a torque; the torque is clipped to the
motors' limits, if any, and held for the whole tick (a zero-order hold) while
the plant, the *real* arm, is integrated in ``substeps`` smaller steps of
``h = control_dt / substeps`` by one of three methods:

* ``"rk4"`` (the default): the classical fourth-order Runge-Kutta method,
  by default one step per control tick (:data:`DEFAULT_METHOD`,
  :data:`DEFAULT_SUBSTEPS`: the book's conventions page says why).
* ``"semi_implicit_euler"``:
  ``qd += h qdd(q, qd)``, then ``q += h qd`` with the *new* speed.
  Symplectic for a constant inertia without friction (its energy error then
  stays bounded); on an arm, whose inertia changes with the pose, the energy
  error of a free swing wobbles and drifts slowly.
* ``"explicit_euler"``: ``q += h qd`` with the *old* speed, and
  ``qd += h qdd(q, qd)``. Its energy error grows, step after step.

The two Euler methods are first order (halve ``h``, halve the error), RK4
fourth order. The plant's dynamics are those of :mod:`armlab.dynamics`: the
same kernels as :func:`armlab.forward_dynamics`, run on plain floats for one
run and on numpy arrays for a batch of runs, stepped all at once (the loops
run over time and links, never over runs).

Controllers (the contract, and the built-in ones) are in :mod:`armlab.control`.

A plant can also have torsion springs at its joints (``spring``): their
torque is part of the arm, evaluated at every evaluation of the dynamics,
like gravity, whereas a controller's torque is held through the tick. A joint
with a spring is the test case of a step size's stability (see
:func:`armlab.accuracy.stable_step`).

Conventions: SI units; positive torque drives its joint angle positive; the
equation of motion is that of :mod:`armlab.dynamics` (no tip force here),
with ``spring * q`` added to the left-hand side when the plant has springs.
"""

import contextlib
import copy
import math
from dataclasses import dataclass, replace

import numpy as np

from armlab import _kernels as K
from armlab._checks import (joint_vector, nonnegative_scalar, per_joint, positive_scalar,
                            torque_bounds)
from armlab.control import _components, _plan_function, _PlanFollower
from armlab.dynamics import _singular
from armlab.trajectory import Quintic

__all__ = ["Simulation", "simulate", "tracking_error", "METHODS", "DEFAULT_METHOD",
           "DEFAULT_SUBSTEPS"]

#: The integrators :func:`simulate` offers, the default first.
METHODS = ("rk4", "semi_implicit_euler", "explicit_euler")

#: The book's integrator and plant steps per 1 ms control tick, the defaults of
#: :func:`simulate` (and of :func:`armlab.spatial.simulate`'s method): RK4, one step per
#: tick. The forward dynamics chapter measures why: on its fall RK4 at 1 ms is nearer the
#: reference than semi-implicit Euler at 0.01 ms, for fewer evaluations of the dynamics.
DEFAULT_METHOD = "rk4"
#: Plant steps per control tick by default: one (one RK4 step of 1 ms).
DEFAULT_SUBSTEPS = 1


# ----------------------------------------------------------------------------- the result

@dataclass(frozen=True)
class Simulation:
    """What :func:`simulate` recorded, one row per control tick and one at the end.

    Row ``k`` is the state at ``time[k] = k * control_dt``, the torque the
    controller commanded there and the torque applied (held) from there to
    the next tick. The last row is the final state; its torques are what the
    controller would command there (they are never applied).

    For a batch of runs every array has the batch shape in front: ``q`` is
    ``(*batch, N + 1, n)``, ``kinetic`` is ``(*batch, N + 1)``; ``sim.q[i]``
    is run ``i``. For one run the batch shape is ``()``.

    Attributes
    ----------
    time : (N + 1,) ndarray
        [s], shared by every run.
    q, qd : (*batch, N + 1, n) ndarray
        Joint angles [rad] and speeds [rad/s] of the real arm.
    qdd : (*batch, N + 1, n) ndarray
        Acceleration at that state under the applied torque [rad/s^2].
    tau_command, tau : (*batch, N + 1, n) ndarray
        Torque the controller asked for and torque applied after the limits [N m].
    saturated : (*batch, N + 1, n) bool ndarray
        Where the limit clipped the command.
    kinetic, potential : (*batch, N + 1) ndarray
        Energies of the real arm [J]; potential zero with every centre of mass
        at the shoulder's height (plus ``spring * q^2 / 2`` of the joint
        springs, if any).
    motor_work, friction_work : (*batch, N + 1) ndarray
        Work done so far by the motors on the arm, and energy taken out by
        friction (not negative) [J]. In exact arithmetic
        ``kinetic + potential`` changes by exactly ``motor_work - friction_work``.
    diverged : (*batch) bool ndarray
        Runs of a batch whose state stopped being finite (their rows from
        then on are NaN or inf). One run that diverges raises instead.
    method : str
        One of :data:`METHODS`.
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
    diverged: np.ndarray
    method: str
    control_dt: float
    substeps: int

    @property
    def batch_shape(self):
        """The shape of the batch of runs; ``()`` for one run."""
        return self.q.shape[:-2]

    def run(self, index):
        """One run of a batch, as a :class:`Simulation` of its own.

        Parameters
        ----------
        index : int or tuple of int
            The run's index in the batch shape.

        Examples
        --------
        >>> from armlab import tabletop_arm
        >>> sims = simulate(tabletop_arm(), np.radians([[30, 45], [40, 45]]), 0.01)
        >>> sims.batch_shape, sims.run(1).batch_shape, sims.run(1).q.shape
        ((2,), (), (11, 2))
        """
        if self.batch_shape == ():
            raise ValueError("run: this Simulation is one run, not a batch")
        index = np.index_exp[index]
        if len(index) != len(self.batch_shape) or not all(
                isinstance(i, (int, np.integer)) for i in index):
            raise ValueError(f"run: index {index!r} must name one run of the batch of shape "
                             f"{self.batch_shape} (one integer per batch dimension)")
        per_run = ("q", "qd", "qdd", "tau_command", "tau", "saturated", "kinetic", "potential",
                   "motor_work", "friction_work", "diverged")
        return replace(self, **{name: getattr(self, name)[index] for name in per_run})

    @property
    def energy(self):
        """Total mechanical energy ``kinetic + potential``, ``(*batch, N + 1)`` [J]."""
        return self.kinetic + self.potential

    @property
    def energy_error(self):
        """The integrator's energy error, ``(*batch, N + 1)`` [J].

        ``E(t) - E(0) - motor_work + friction_work``: zero for the exact motion,
        so what is left is made by the time step.
        """
        return self.energy - self.energy[..., :1] - self.motor_work + self.friction_work


def tracking_error(sim, plan):
    """Plan minus measured angle at every recorded time, ``(*batch, N + 1, n)`` [rad].

    Parameters
    ----------
    sim : Simulation
        One run or a batch.
    plan : Quintic, callable or (n,) array_like
        The plan the controller followed (any ``plan(t) -> (q, qd, qdd)``),
        or a fixed pose.

    Returns
    -------
    error : (*batch, N + 1, n) ndarray
        [rad]; positive where the arm is behind (below) the plan. For a gain
        map, ``np.abs(error).max(axis=-2)`` is each run's largest error per
        joint.

    Examples
    --------
    Ten milliseconds after the motors are switched off at (30, 45) deg, the
    shoulder is 0.116 deg below the pose and the elbow 0.219 deg above it:

    >>> from armlab import tabletop_arm
    >>> sim = simulate(tabletop_arm(), np.radians([30, 45]), 0.01)
    >>> np.degrees(tracking_error(sim, np.radians([30, 45]))[-1]).round(3)
    array([ 0.116, -0.219])
    """
    n = sim.q.shape[-1]
    if isinstance(plan, Quintic) and plan.n == n:
        ref = plan(sim.time)[0]
    else:
        at = _plan_function(plan, n)
        ref = np.array([at(t)[0] for t in sim.time.tolist()])
    return ref - sim.q


# ----------------------------------------------------------------------------- the loop

def simulate(arm, q0, duration, controller=None, *, qd0=None, control_dt=1e-3,
             substeps=DEFAULT_SUBSTEPS, method=DEFAULT_METHOD, torque_limit=None, spring=None):
    """Run the real ``arm`` under ``controller`` for ``duration`` seconds; one run or a batch.

    Parameters
    ----------
    arm : PlanarArm
        The real arm (the plant), with its real friction.
    q0 : (n,) or (*batch, n) array_like
        Initial joint angles [rad]; a batch of starts makes a batch of runs.
    duration : float
        Simulated time [s]; a whole number of control ticks.
    controller : callable, optional
        ``controller(t, q, qd) -> tau`` (see :mod:`armlab.control`): the time
        [s] and the angles [rad] and speeds [rad/s], ``(n,)`` for one run or
        ``(*batch, n)`` for a batch, in; torques [N m] of the same shape (or
        ``(n,)``) out. Called once per tick and once at the end, for the
        record. Its ``reset()``, if any, is called first. A built-in
        controller with a batch of gains makes a batch of runs. Default:
        zero torque.
    qd0 : (n,) or (*batch, n) array_like, optional
        Initial speeds [rad/s]; default at rest.
    control_dt : float, optional
        Control period [s]; default 1 ms (1 kHz).
    substeps : int, optional
        Plant steps per tick (the torque is held); default 1 (1 ms steps).
    method : {"rk4", "semi_implicit_euler", "explicit_euler"}, optional
        The integrator (see :data:`METHODS`); default RK4.
    torque_limit : float, (n,) or (2, n) array_like, optional
        Motor limits as in :func:`armlab.clip_torques` [N m]; each clipped
        tick is flagged in ``saturated``.
    spring : float or (n,) array_like, optional
        Stiffness of a torsion spring at each joint of the plant [N m/rad],
        not negative, pulling the joint towards ``q = 0`` with the torque
        ``-spring * q``. Unlike a controller's torque it is not held: the
        integrator evaluates it with the dynamics, at every sub-step (and at
        each of RK4's stages). Its energy is counted in ``potential``.
        Default: no springs.

    Returns
    -------
    Simulation
        ``N + 1`` rows for ``N = duration / control_dt`` ticks, behind the
        batch shape: the broadcast of the batch shapes of ``q0``, ``qd0`` and
        the controller's gains. Each run of a batch is the run made alone, bit
        for bit; a batch of up to :data:`RUNS_ALONE` runs under a built-in
        controller (or none) is made so, run by run, which costs less than
        stepping so few runs together.

    Raises
    ------
    ValueError
        For bad input, a controller's wrong or non-finite torques, and a
        single run whose state stops being finite (a batch flags such runs
        in ``diverged`` instead).

    Examples
    --------
    The table-top arm, with its friction, falling from rest at (30, 45) deg with
    its motors off (the default, RK4 with one 1 ms step per tick: every digit
    shown survives a hundredfold finer step; semi-implicit Euler at 0.1 ms gives
    -35.4 deg at the shoulder at 0.25 s):

    >>> from armlab import tabletop_arm
    >>> sim = simulate(tabletop_arm(damping=0.02), np.radians([30, 45]), 0.25)
    >>> np.degrees(sim.q[[150, 250]]).round(1)
    array([[  5.9,  80.6],
           [-35.3,  98.7]])

    The same fall from three shoulder angles at once, a batch of runs:

    >>> starts = np.radians([[30, 45], [40, 45], [50, 45]])
    >>> sims = simulate(tabletop_arm(damping=0.02), starts, 0.25)
    >>> sims.q.shape, np.degrees(sims.q[0, 250]).round(1)
    ((3, 251, 2), array([-35.3,  98.7]))

    A 0.3 m, 1 kg rod turning about one end without gravity (0.03 kg m^2)
    on a 300 N m/rad spring rings at 100 rad/s. Semi-implicit Euler stays
    bounded at steps of 19 ms (h omega = 1.9) and blows up at 21 ms:

    >>> from armlab import PlanarArm
    >>> rod = PlanarArm(lengths=[0.3], masses=[1.0], gravity=0.0)
    >>> for h in (0.019, 0.021):
    ...     sim = simulate(rod, [0.1], 30 * h, spring=300.0, control_dt=h,
    ...                    method="semi_implicit_euler")
    ...     print(f"h = {h} s: largest |q| {np.abs(sim.q).max():.2g} rad")
    h = 0.019 s: largest |q| 0.32 rad
    h = 0.021 s: largest |q| 3.4e+07 rad
    """
    q, qd = _start(arm, q0, qd0)
    dt, ticks = _ticks(duration, control_dt)
    _check_integrator(substeps, method)
    bounds = None if torque_limit is None else [b.tolist() for b in torque_bounds(arm.n,
                                                                                  torque_limit)]
    springs = None if spring is None else per_joint(arm.n, "spring", spring, nonnegative=True)
    command, shape = _commander(arm, controller, q, qd)
    if 1 < math.prod(shape) <= RUNS_ALONE and (controller is None or _builtin(controller)):
        sims = _runs_alone(arm, q, qd, controller, shape, duration, dict(
            control_dt=control_dt, substeps=substeps, method=method,
            torque_limit=torque_limit, spring=spring))
        if sims is not None:
            return sims
    q, qd = _state(q, shape), _state(qd, shape)
    plant = _Plant(arm, method, dt, substeps, springs, shape)
    record = _Record(ticks, arm.n, shape)
    with np.errstate(all="ignore") if plant.batch else contextlib.nullcontext():
        for tick in range(ticks + 1):
            t = tick * dt
            tau_cmd = command(t, q, qd)
            tau = (tau_cmd if bounds is None else
                   _clip(tau_cmd, bounds, record.saturated[tick], plant.batch))
            if tick == ticks:                          # the final state, for the record
                record.row(tick, q, qd, plant.acceleration(t, q, qd, tau), tau_cmd, tau)
                break
            qdd, q_next, qd_next, motor, friction = plant.tick(t, q, qd, tau)
            record.row(tick, q, qd, qdd, tau_cmd, tau)
            record.add_work(motor, friction)
            q, qd = q_next, qd_next
    return record.simulation(arm._constants, springs, dt, method, int(substeps))


# ----------------------------------------------------------------------------- the input

def _start(arm, q0, qd0):
    """The initial angles and speeds as validated ``(..., n)`` arrays (speeds default 0)."""
    q = joint_vector(arm, "q0", q0)
    qd = np.zeros(arm.n) if qd0 is None else joint_vector(arm, "qd0", qd0)
    return q, qd


def _ticks(duration, control_dt):
    """The control period [s] and the number of ticks in ``duration``, a whole number."""
    dt = positive_scalar("control_dt", control_dt, "s", "time")
    T = nonnegative_scalar("duration", duration, "s", "time")
    ticks = round(T / dt)
    if abs(ticks * dt - T) > 1e-9 * max(1.0, T):
        raise ValueError(f"duration {duration!r} is not a whole number of control ticks "
                         f"of {dt!r} s")
    return dt, ticks


def _check_integrator(substeps, method):
    """Refuse a substep count that is not a positive integer, and unknown methods."""
    if not (isinstance(substeps, (int, np.integer)) and substeps >= 1):
        raise ValueError(f"substeps must be a positive integer, got {substeps!r}")
    if method not in METHODS:
        hint = (" ('euler' is ambiguous: 'semi_implicit_euler' is what it meant before)"
                if method == "euler" else "")
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, "
                         f"got {method!r}{hint}")


def _commander(arm, controller, q, qd):
    """``command(t, q, qd) -> tau`` on components, and the batch shape of the runs.

    A built-in controller computes on components directly; any other callable
    is wrapped (arrays to it, its answer checked). The batch shape broadcasts
    those of the starts and of a built-in controller's gains.
    """
    n = arm.n
    if controller is None:
        controller = _zero_torque
    if not callable(controller):
        raise ValueError(f"controller must be callable as controller(t, q, qd), got {controller!r}")
    if getattr(controller, "n", None) not in (None, n):
        raise ValueError(f"the controller is for {controller.n} joints but the arm has {n}")
    builtin = _builtin(controller)
    try:
        shape = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1],
                                    controller.batch_shape if builtin else ())
    except ValueError:
        raise ValueError(f"the batch shapes of q0 {q.shape}, qd0 {qd.shape} and the "
                         "controller's gains do not broadcast together") from None
    if hasattr(controller, "reset"):
        controller.reset()
    if builtin:
        controller._use(shape)
        return controller._torque, shape
    return _array_caller(controller, n, shape), shape


def _builtin(controller):
    """Whether ``controller`` is a built-in one, which computes on components."""
    return (isinstance(controller, _PlanFollower)
            and type(controller).__call__ is _PlanFollower.__call__)


#: Batches of up to this many runs are run one by one on floats and stacked: numpy's fixed
#: cost per operation, whatever the arrays' length, makes one plant step of 16 runs cost
#: as much as 17 to 22 steps on floats (``benchmarks/simulation.md``): fewer runs cost
#: less alone. The numbers are the same either way, bit for bit.
RUNS_ALONE = 16


def _runs_alone(arm, q, qd, controller, shape, duration, options):
    """The batch of shape ``shape`` as its runs made alone, stacked into one
    :class:`Simulation`; None if a run fails (the batch then flags or reports it)."""
    n = arm.n
    q, qd = np.broadcast_to(q, shape + (n,)), np.broadcast_to(qd, shape + (n,))
    runs = []
    for index in np.ndindex(shape):
        one = None if controller is None else controller._alone(index, shape)
        try:
            runs.append(simulate(arm, q[index], duration, one, qd0=qd[index], **options))
        except ValueError:
            return None
    first = runs[0]
    stacked = {name: np.stack([getattr(r, name) for r in runs]).reshape(
        shape + getattr(first, name).shape) for name in _PER_RUN}
    return replace(first, **stacked)


_PER_RUN = ("q", "qd", "qdd", "tau_command", "tau", "saturated", "kinetic", "potential",
            "motor_work", "friction_work", "diverged")


def _state(x, shape):
    """A validated ``(..., n)`` state as components for the batch ``shape``."""
    comps = _components(x, shape)
    if shape != () and type(comps) is list and comps and not isinstance(comps[0], np.ndarray):
        comps = [np.full(math.prod(shape), v) for v in comps]      # one start, many runs
    return comps


def _sprung(tau, q, spring):
    """The torque on the joints with the plant's springs: ``tau - spring * q`` (components)."""
    if spring is None:
        return tau
    return [t - s * x for t, s, x in zip(tau, spring, q)]


def _zero_torque(t, q, qd):
    return np.zeros(np.shape(q)[-1])


def _array_caller(controller, n, shape):
    """Wrap a user's controller: components in, arrays to it, checked components out."""
    runs = math.prod(shape)

    def as_array(comps):
        if shape == ():
            return np.array(comps, dtype=float)
        return np.stack(comps, axis=-1).reshape(shape + (n,))

    def command(t, q, qd):
        qa, qda = as_array(q), as_array(qd)
        tau = np.asarray(controller(t, qa, qda), dtype=float)
        if tau.shape not in ((n,), shape + (n,)):
            want = f"({n},)" if shape == () else f"({n},) or {shape + (n,)}"
            raise ValueError(f"controller returned shape {tau.shape} at t = {t:g} s: "
                             f"expected {want} torques")
        if not np.all(np.isfinite(tau)):
            live = np.isfinite(qa).all(-1) & np.isfinite(qda).all(-1)   # runs not diverged
            if np.any(~np.isfinite(tau).all(-1) & live):
                raise ValueError(f"controller returned non-finite torques at t = {t:g} s")
        if tau.ndim == 1:
            return tau.tolist()
        return list(np.ascontiguousarray(tau.reshape(runs, n).T))
    return command


def _clip(tau, bounds, saturated, batch):
    """``tau`` clipped to the bounds, flagging clipped entries in ``saturated`` (this tick's)."""
    low, high = bounds
    out = []
    for i, x in enumerate(tau):
        lo, hi = low[i], high[i]
        y = np.clip(x, lo, hi) if batch else lo if x < lo else hi if x > hi else x
        saturated[i] = y != x
        out.append(y)
    return out


# ----------------------------------------------------------------------------- the record

class _Record:
    """The rows of a simulation as it runs, and the :class:`Simulation` they make.

    One run keeps each tick's row as one list of floats (``q, qd, qdd,
    tau_command, tau``); a batch writes each tick's components into arrays laid
    out time first and runs last, so each tick writes contiguous memory.
    """

    FIELDS = ("q", "qd", "qdd", "tau_command", "tau")

    def __init__(self, ticks, n, shape):
        self.n, self.shape = n, shape
        self.lead = (math.prod(shape),) if shape != () else ()
        self.saturated = np.zeros((ticks + 1, n) + self.lead, bool)
        self.work = np.empty((ticks + 1, 2) + self.lead)         # motor, friction
        self.w_motor = self.w_friction = 0.0
        if shape == ():
            self.rows = []
        else:
            self.arrays = {name: np.empty((ticks + 1, n) + self.lead) for name in self.FIELDS}

    def row(self, tick, q, qd, qdd, tau_cmd, tau):
        """Record the state at ``tick``, its acceleration and torques, and the work so far."""
        work = self.work[tick]
        work[0] = self.w_motor
        work[1] = self.w_friction
        if not self.lead:
            self.rows.append([*q, *qd, *qdd, *tau_cmd, *tau])
            return
        for name, value in zip(self.FIELDS, (q, qd, qdd, tau_cmd, tau)):
            at = self.arrays[name][tick]
            for i in range(self.n):
                at[i] = value[i]

    def add_work(self, motor, friction):
        """Add one tick's work by the motors and against friction [J]."""
        self.w_motor = self.w_motor + motor
        self.w_friction = self.w_friction + friction

    def runs_first(self, a):
        """``(ticks + 1, [n,] *lead)`` as ``(*shape, ticks + 1[, n])``."""
        lead = len(self.lead)
        return np.moveaxis(a, tuple(range(a.ndim - lead)), tuple(range(
            lead, a.ndim))).reshape(self.shape + a.shape[:a.ndim - lead])

    def simulation(self, k, springs, dt, method, substeps):
        """The :class:`Simulation` of the rows, with the energies of every recorded state."""
        n, shape = self.n, self.shape
        if not self.lead:
            table = np.array(self.rows, dtype=float)
            out = {name: table[:, i * n:(i + 1) * n] for i, name in enumerate(self.FIELDS)}
        else:
            out = {name: self.runs_first(a) for name, a in self.arrays.items()}
        ticks = out["q"].shape[-2] - 1
        states = math.prod(shape) * (ticks + 1)
        flat_q, flat_qd = out["q"].reshape(states, n), out["qd"].reshape(states, n)
        # the kernels on arrays (a diverged run's energies are NaN)
        energy = {name: K.blocks(kernel, k, args, states, ()).reshape(shape + (ticks + 1,))
                  for name, kernel, args in (("kinetic", K.kinetic, [flat_q, flat_qd]),
                                             ("potential", K.potential, [flat_q]))}
        if springs is not None:
            energy["potential"] = energy["potential"] + 0.5 * (springs * out["q"] ** 2).sum(-1)
        finite = np.isfinite(out["q"]).all(-1) & np.isfinite(out["qd"]).all(-1)
        work = self.runs_first(self.work)                      # (*shape, ticks + 1, 2)
        return Simulation(time=np.arange(ticks + 1) * dt, **out, **energy,
                          saturated=self.runs_first(self.saturated),
                          motor_work=np.ascontiguousarray(work[..., 0]),
                          friction_work=np.ascontiguousarray(work[..., 1]), diverged=~finite.all(-1),
                          method=method, control_dt=dt, substeps=substeps)


# ----------------------------------------------------------------------------- the plant
#
# One plant step is compiled, like the kernels of armlab.dynamics, into straight-line code
# for the arm's shape (see armlab._kernels.compiled): the same operations on the same
# operands in the same order as the step written out below, so one run (on floats) and
# each run of a batch (on arrays) get the same numbers bit for bit; what it saves is the
# interpreter's work between the operations. On a batch, the arm's numbers are bound as
# arrays of the batch's length: numpy multiplies two arrays faster than an array by a
# Python float, and the product is the same.


class _Plant:
    """The real arm under a held torque, advanced one control tick at a time.

    Components in and out: floats for one run, ``(B,)`` arrays for a batch.
    """

    def __init__(self, arm, method, dt, substeps, springs, shape):
        self.arm, self.k, self.n = arm, arm._constants, arm.n
        self.batch = shape != ()
        self.ops = K.ARRAYS if self.batch else K.FLOATS
        self.substeps = substeps
        self.h = h = dt / substeps
        self.spring = None if springs is None else springs.tolist()
        self.rk4 = method == "rk4"
        runs = math.prod(shape)
        numbers = _numbers_for(self.k, runs) if self.batch else self.k
        state = [0.0] * self.n
        sizes = [h, 0.5 * h, h / 6.0] if self.rk4 else [h]
        work = [0.0] * (2 if self.rk4 else 1)
        # on a batch, as arrays too: numpy multiplies two arrays faster than by a float
        self.step_sizes = [np.full(runs, x) for x in sizes] if self.batch else sizes
        body = _STEPS[method]
        self.step = K._compile(body, numbers, self.ops,
                               (state, state, state, self.step_sizes, work, self.spring))

    def tick(self, t, q, qd, tau):
        """``(qdd at the start, q, qd, motor work, friction work)`` one tick later.

        Raises the errors of a single run: a singular mass matrix, and a state
        that stops being finite (a batch flags such runs instead).
        """
        try:
            out = self._advance(q, qd, tau)
            if not self.batch and not math.isfinite(sum(out[1]) + sum(out[2])):
                raise OverflowError
        except ZeroDivisionError:                  # a pivot of M is zero: no mass moves
            raise _singular(self.arm) from None
        except (OverflowError, ValueError):                     # sin(inf) and the like
            raise _diverged(t) from None
        return out

    def _advance(self, q, qd, tau):
        """``substeps`` compiled steps under the held ``tau``, and the work over the tick.

        The Euler methods: the motors do ``tau . (q_end - q_start)`` (tau is
        held); friction takes ``h f(qd) . (the step's displacement / h)``
        summed over the steps. RK4 integrates the powers with its own weights.
        """
        n, step, sizes, spring = self.n, self.step, self.step_sizes, self.spring
        work = [0.0, 0.0] if self.rk4 else [0.0]
        q_start, qdd0 = q, None
        for _ in range(self.substeps):
            out = step(q, qd, tau, sizes, work, spring)
            if qdd0 is None:
                qdd0 = out[:n]
            q, qd, work = out[n:2 * n], out[2 * n:3 * n], out[3 * n:]
        if self.rk4:
            return qdd0, q, qd, work[0], work[1]
        motor = sum(t * (x1 - x0) for t, x0, x1 in zip(tau, q_start, q))
        return qdd0, q, qd, motor, work[0] * self.h

    def acceleration(self, t, q, qd, tau):
        """``qdd`` at the state under the torque ``tau`` (the final row's, at ``t``)."""
        try:
            return K.forward(self.k, self.ops, q, qd, _sprung(tau, q, self.spring))
        except ZeroDivisionError:
            raise _singular(self.arm) from None
        except (OverflowError, ValueError):
            raise _diverged(t) from None


def _diverged(t):
    return ValueError(f"the simulation diverged between t = {t:g} s and the next tick: the "
                      "state is no longer finite; lower the gains or the time step "
                      "(control_dt, substeps)")


def _numbers_for(k, runs):
    """A copy of the arm's :class:`armlab._kernels.Constants` whose numbers are ``(runs,)``
    arrays, for the compiled step of a batch (friction's and the arm's shape stay)."""
    numbers = copy.copy(k)
    for name in K._NUMBERS:
        setattr(numbers, name, tuple(np.full(runs, x) for x in getattr(k, name)))
    numbers.gx, numbers.gy = np.full(runs, k.gx), np.full(runs, k.gy)
    return numbers


# ----------------------------------------------------------------------------- integrators
#
# One plant step each, of size h = sizes[0] under the held torque ``tau``, written once for
# any back end (the compiler traces them). Arguments and results are components; ``work``
# is what the tick has accumulated so far. Each returns one flat list:
# qdd at the step's start (n), q (n), qd (n), and the work.


def _euler_step(k, ops, q, qd, tau, sizes, work, spring, semi_implicit):
    """One Euler step: ``qdd = forward(q, qd, tau)``, ``qd += h qdd`` and ``q += h qd``.

    ``semi_implicit``: the angle moves with the *new* speed (the book's default);
    otherwise with the old one (explicit Euler). ``spring``: the plant's joint
    stiffnesses, evaluated at the step's start like the rest of ``qdd``. ``work``:
    ``[sum f(qd) . dq / h]`` over the tick's steps so far, the friction's share.
    """
    h = sizes[0]
    f = K.friction(k, ops, qd) if k.has_friction else None
    a = K.forward(k, ops, q, qd, _sprung(tau, q, spring), None, f)
    qd_new = [v + h * x for v, x in zip(qd, a)]
    moving = qd_new if semi_implicit else qd
    q_new = [x + h * v for x, v in zip(q, moving)]
    friction = work[0] if f is None else work[0] + _dot(f, moving)
    return [*a, *q_new, *qd_new, friction]


def _semi_implicit_euler_step(k, ops, q, qd, tau, sizes, work, spring=None):
    return _euler_step(k, ops, q, qd, tau, sizes, work, spring, True)


def _explicit_euler_step(k, ops, q, qd, tau, sizes, work, spring=None):
    return _euler_step(k, ops, q, qd, tau, sizes, work, spring, False)


def _rk4_step(k, ops, q, qd, tau, sizes, work, spring=None):
    """One classical RK4 step on ``(q, qd)``, the motor and friction work alongside.

    ``sizes``: ``[h, h / 2, h / 6]``; ``work``: ``[motor, friction]`` so far;
    ``spring``: the plant's joint stiffnesses, evaluated at every stage.
    """
    h, half, sixth = sizes

    def deriv(x, v):
        """(qdd, motor power, friction power) at the state (x, v)."""
        f = K.friction(k, ops, v)
        return (K.forward(k, ops, x, v, _sprung(tau, x, spring), None, f),
                _dot(tau, v), _dot(f, v))

    def weighted(b1, b2, b3, b4):
        """``b1 + 2 (b2 + b3) + b4``; doubled as a sum (the same number as ``2.0 *``)."""
        middle = b2 + b3
        return b1 + (middle + middle) + b4

    a1, pm1, pf1 = deriv(q, qd)
    v2 = [v + half * a for v, a in zip(qd, a1)]
    a2, pm2, pf2 = deriv([x + half * v for x, v in zip(q, qd)], v2)
    v3 = [v + half * a for v, a in zip(qd, a2)]
    a3, pm3, pf3 = deriv([x + half * v for x, v in zip(q, v2)], v3)
    v4 = [v + h * a for v, a in zip(qd, a3)]
    a4, pm4, pf4 = deriv([x + h * v for x, v in zip(q, v3)], v4)
    motor = work[0] + sixth * weighted(pm1, pm2, pm3, pm4)
    friction = work[1] + sixth * weighted(pf1, pf2, pf3, pf4)
    q_new = [x + sixth * weighted(*b) for x, *b in zip(q, qd, v2, v3, v4)]
    qd_new = [x + sixth * weighted(*b) for x, *b in zip(qd, a1, a2, a3, a4)]
    return [*a1, *q_new, *qd_new, motor, friction]


def _dot(a, b):
    """``a . b`` over the joints, summed from the first product on.

    (``sum(map(mul, a, b))`` starts from 0, one more operation on a batch; the sums it
    feeds start from +0.0, so the two give the same numbers.)
    """
    total = a[0] * b[0]
    for x, y in zip(a[1:], b[1:]):
        total = total + x * y
    return total


_STEPS = {"semi_implicit_euler": _semi_implicit_euler_step,
          "explicit_euler": _explicit_euler_step, "rk4": _rk4_step}
