"""Choosing a controller's gains and judging the result.

* :func:`pd_gains` and :func:`natural_frequency`: gains from a natural
  frequency and a damping ratio, and back. For computed torque the inertia is
  1 (its gains are accelerations per error); for a PD loop on a joint it is
  the inertia the joint feels, ``M_jj(q)``.
* :func:`settled_error`: where a controller without an integral comes to rest
  when its model of gravity is missing or wrong (PD sag, an unknown payload).
* :func:`tracking_summary`: the two numbers the control chapter compares, the
  largest error during the move and the error at the end.
* :func:`gain_map`: a grid of gains run in one batched simulation, with how
  far each run errs and where the motors' limits bind.
* :func:`lyapunov`: the function ``V = qd^T M qd / 2 + e^T Kp e / 2`` that
  proves PD plus gravity compensation stable, at any state.
* :func:`sampled_pd_eigenvalues`: the eigenvalues of PD with gravity
  compensation run on a clock (torque held each tick), at rest at a pose:
  the loop is stable while they stay inside the unit circle.
* :func:`model_error_acceleration`, :func:`error_bound` and
  :func:`error_response`: the disturbance a model error puts into computed
  torque's error equation, the largest error a bounded disturbance can cause,
  and the error a given disturbance causes.

Conventions: SI units, radians; the error is plan minus measured
(``e = q_plan - q``), positive where the arm is behind (below) the plan.
"""

from dataclasses import dataclass

import numpy as np
from scipy.linalg import expm

from armlab._checks import finite_array, joint_vector, per_joint, positive_scalar
from armlab.dynamics import gravity_torques, inverse_dynamics, kinetic_energy, mass_matrix
from armlab.gravity import gravity_stiffness, pd_sag
from armlab.lagrange import mass_matrix_derivatives
from armlab.simulation import simulate, tracking_error
from armlab.trajectory import Quintic

__all__ = ["pd_gains", "natural_frequency", "settled_error", "tracking_summary", "GainMap",
           "gain_map", "lyapunov", "sampled_pd_eigenvalues", "model_error_acceleration",
           "error_bound", "error_response"]


def _positive(name, value, strict=True):
    arr = finite_array(name, value)
    if np.any(arr <= 0) if strict else np.any(arr < 0):
        raise ValueError(f"{name} must be {'positive' if strict else 'not negative'}, "
                         f"got {value!r}")
    return arr


def pd_gains(omega, zeta=1.0, inertia=1.0):
    """Gains that make ``I e'' + Kd e' + Kp e = 0`` ring at ``omega`` with damping ``zeta``.

    ``Kp = I omega^2`` and ``Kd = 2 zeta omega I``: the error equation becomes
    ``e'' + 2 zeta omega e' + omega^2 e = 0``. ``zeta = 1`` is critically
    damped (the fastest return without overshoot), ``zeta < 1`` overshoots.

    Parameters
    ----------
    omega : float or (...) array_like
        Natural frequency [rad/s]; positive.
    zeta : float or (...) array_like, optional
        Damping ratio [-]; not negative. Default 1 (critical damping).
    inertia : float or (...) array_like, optional
        The inertia the error sees [kg m^2]: 1 for computed torque (whose
        gains multiply an acceleration), ``M_jj(q)`` for a PD loop on joint
        ``j``. Default 1.

    Returns
    -------
    kp : ndarray
        Stiffness, broadcast shape of the inputs: [1/s^2] for computed torque,
        [N m/rad] with an inertia.
    kd : ndarray
        Damping: [1/s], or [N m s/rad] with an inertia.

    Examples
    --------
    The control chapter's computed torque, both joints at 20 rad/s, critically damped:

    >>> kp, kd = pd_gains(20.0)
    >>> float(kp), float(kd)
    (400.0, 40.0)

    The same frequency for a PD loop on the table-top arm's elbow, which feels
    0.0208 kg m^2, with damping 0.7:

    >>> [round(float(k), 3) for k in pd_gains(20.0, 0.7, 0.0208)]
    [8.32, 0.582]
    """
    omega = _positive("omega", omega)
    zeta = _positive("zeta", zeta, strict=False)
    inertia = _positive("inertia", inertia)
    return np.asarray(inertia * omega**2), np.asarray(2.0 * zeta * omega * inertia)


def natural_frequency(kp, kd, inertia=1.0):
    """The natural frequency and damping ratio that gains give a joint of inertia ``inertia``.

    The inverse of :func:`pd_gains`: ``omega = sqrt(Kp / I)``,
    ``zeta = Kd / (2 sqrt(Kp I))``.

    Parameters
    ----------
    kp : float or (...) array_like
        Stiffness [N m/rad] (or [1/s^2] with ``inertia=1``); positive.
    kd : float or (...) array_like
        Damping [N m s/rad] (or [1/s]); not negative.
    inertia : float or (...) array_like, optional
        The inertia the joint feels [kg m^2]; default 1.

    Returns
    -------
    omega : ndarray
        [rad/s].
    zeta : ndarray
        [-]; 1 is critical damping.

    Examples
    --------
    The control chapter's PD gains at the shoulder, Kp = 60 N m/rad and Kd = 4 N m s/rad,
    on the 0.171 kg m^2 the shoulder feels with the elbow at 90 deg:

    >>> from armlab import tabletop_arm
    >>> M = mass_matrix(tabletop_arm(), np.radians([-45, 90]))
    >>> omega, zeta = natural_frequency(60, 4, M[0, 0])
    >>> round(float(omega), 2), round(float(zeta), 3)
    (18.74, 0.625)
    """
    kp = _positive("kp", kp)
    kd = _positive("kd", kd, strict=False)
    inertia = _positive("inertia", inertia)
    return np.asarray(np.sqrt(kp / inertia)), np.asarray(kd / (2.0 * np.sqrt(kp * inertia)))


def settled_error(arm, q_target, kp, model=None, computed_torque=False):
    """Where a controller with no integral comes to rest while holding ``q_target``.

    At rest the controller's torque equals what holds the real ``arm`` up,
    ``g(q)``, at the pose ``q = q_target - e`` where it settles:

    * PD (``model=None``): ``Kp e = g(q)``, the sag of a PD loop
      (:func:`armlab.gravity.pd_sag` solves it);
    * PD plus the model's gravity: ``Kp e = g(q) - g_model(q)``;
    * computed torque (``computed_torque=True``, a model needed):
      ``M_model(q) Kp e = g(q) - g_model(q)``.

    The last two are solved by Newton's method from ``e = 0``, with the
    Jacobian from :func:`armlab.gravity.gravity_stiffness` and
    :func:`armlab.lagrange.mass_matrix_derivatives`. Friction plays no part at
    rest.

    Parameters
    ----------
    arm : PlanarArm
        The real arm (with any payload it carries).
    q_target : (..., n) array_like
        The pose the controller holds [rad].
    kp : float or (n,) array_like
        Stiffness: [N m/rad] for PD, [1/s^2] for computed torque; positive.
    model : PlanarArm, optional
        The controller's model of the arm; default none (plain PD).
    computed_torque : bool, optional
        The controller is computed torque (its stiffness in torque is
        ``M_model(q) Kp``).

    Returns
    -------
    e : (..., n) ndarray
        ``q_target - q`` at rest [rad]; positive where the arm rests below
        (clockwise of) the target.

    Raises
    ------
    ValueError
        If ``kp`` is too low to hold the arm near ``q_target`` (no rest pose
        is found there, or the one found is unstable).

    Examples
    --------
    The table-top arm's PD holding (30, 45) deg sags 5.5 deg at the shoulder and
    0.9 deg at the elbow:

    >>> from armlab import tabletop_arm
    >>> e = settled_error(tabletop_arm(), np.radians([30, 45]), [60, 30])
    >>> np.degrees(e).round(4)
    array([5.5436, 0.8545])

    Computed torque (Kp = 400 1/s^2) holding the control chapter's end pose
    with 0.5 kg in the gripper that its model does not know: the elbow rests
    10.5 deg low, the shoulder 1.1 deg above the target:

    >>> arm = tabletop_arm()
    >>> e = settled_error(arm.with_payload(0.5), np.radians([60, -30]), 400, model=arm,
    ...                   computed_torque=True)
    >>> np.degrees(e).round(4)
    array([-1.1096, 10.5204])
    """
    target = joint_vector(arm, "q_target", q_target)
    n = arm.n
    gains = per_joint(n, "kp", kp, positive=True)
    if model is not None and model.n != n:
        raise ValueError(f"model has {model.n} joints but the arm has {n}")
    if computed_torque and model is None:
        raise ValueError("computed_torque needs the controller's model: pass model=")
    if model is None:
        return pd_sag(arm, target, gains)

    e = np.zeros_like(target)
    for _ in range(60):
        q = target - e
        missing = gravity_torques(arm, q) - gravity_torques(model, q)
        # d(missing)/de = -(dg/dq - dg_model/dq)
        jac = gravity_stiffness(arm, q) - gravity_stiffness(model, q)
        if computed_torque:
            M = mass_matrix(model, q)
            held = np.einsum("...ij,...j->...i", M, gains * e)
            # d(M(q) Kp e)/de = M Kp - (dM/dq_k) Kp e, column k
            jac = jac + M * gains - np.einsum("...ijk,...j->...ik",
                                              mass_matrix_derivatives(model, q), gains * e)
        else:
            held = gains * e
            jac = jac + np.diag(gains)
        step = np.linalg.solve(jac, (missing - held)[..., None])[..., 0]
        e = e + step
        if np.all(np.abs(step) < 1e-14):
            break
    else:
        raise ValueError(f"kp {gains.tolist()} is too low to hold the arm near q_target: "
                         "no rest pose found")
    if np.any(np.abs(e) > np.pi) or np.any(np.linalg.eigvals(jac).real <= 0):
        raise ValueError(f"kp {gains.tolist()} is too low to hold the arm near q_target: "
                         "gravity pulls harder than the stiffness pushes back")
    return e


def tracking_summary(sim, plan):
    """The largest error during the move and the error at the end, per joint.

    Parameters
    ----------
    sim : Simulation
        A run, or a batch of runs, under a controller that followed ``plan``.
    plan : Quintic
        The planned move; "during the move" means ``0 <= t <= plan.duration``.

    Returns
    -------
    largest : (*batch, n) ndarray
        Largest ``|q_plan - q|`` during the move [rad], per run of a batch.
    final : (*batch, n) ndarray
        ``q_plan - q`` at the last recorded time [rad] (signed: positive is
        behind, below the plan).

    Examples
    --------
    PID alone on the control chapter's move, its integral preloaded with the holding
    torque at the start: the shoulder falls 4.95 deg behind:

    >>> from armlab import tabletop_arm, quintic, pid, simulate
    >>> arm = tabletop_arm(damping=0.02)
    >>> plan = quintic(np.radians([-45, 90]), np.radians([60, -30]), 0.8, hold=0.7)
    >>> c = pid(plan, [60, 30], [4, 1.5], [60, 30], integral=gravity_torques(arm, plan.start))
    >>> largest, final = tracking_summary(simulate(arm, plan.start, 1.5, c), plan)
    >>> np.degrees(largest).round(2), np.degrees(final).round(2)
    (array([4.95, 1.43]), array([-0.47,  0.22]))
    """
    if not isinstance(plan, Quintic):
        raise ValueError(f"plan must be a Quintic (a move), got {type(plan).__name__}")
    error = tracking_error(sim, plan)
    moving = sim.time <= plan.duration * (1 + 1e-12)
    return np.abs(error[..., moving, :]).max(axis=-2), error[..., -1, :]


@dataclass(frozen=True)
class GainMap:
    """What :func:`gain_map` measured, one entry per pair ``(kp[i], kd[j])``.

    Attributes
    ----------
    kp : (K1, n) ndarray
        The stiffness of each row of the grid, per joint.
    kd : (K2, n) ndarray
        The damping of each column, per joint.
    largest : (K1, K2, n) ndarray
        Largest error during the move, starting on the plan [rad]; ``nan``
        where the run diverged.
    peak_torque : (K1, K2, n) ndarray
        Largest ``|tau|`` the controller commanded on that run [N m].
    saturated : (K1, K2) bool ndarray
        The limit clipped that run's torque at some tick.
    diverged : (K1, K2) bool ndarray
        That run's state stopped being finite.
    knock : (n,) ndarray or None
        The offset of the knocked start from the plan's start [rad].
    knocked_peak_torque : (K1, K2, n) ndarray or None
        Largest ``|tau|`` commanded on the run that starts knocked off the plan
        [N m].
    knocked_saturated : (K1, K2) bool ndarray or None
        The limit clipped the knocked run's torque at some tick.
    """

    kp: np.ndarray
    kd: np.ndarray
    largest: np.ndarray
    peak_torque: np.ndarray
    saturated: np.ndarray
    diverged: np.ndarray
    knock: np.ndarray = None
    knocked_peak_torque: np.ndarray = None
    knocked_saturated: np.ndarray = None


def gain_map(arm, plan, controller, kp, kd, *, knock=None, duration=None, **simulate_options):
    """Run a controller over a grid of gains, in one batched simulation.

    Every pair ``(kp[i], kd[j])`` runs the move from the plan's start, and,
    with ``knock``, a second time from a start knocked off the plan (as after
    a bump), where high gains ask for large torques. All runs are one call to
    :func:`armlab.simulate`: the gains broadcast as ``(K1, 1, n)`` against
    ``(1, K2, n)`` and the two starts as ``(2, 1, 1, n)``.

    Parameters
    ----------
    arm : PlanarArm
        The real arm (the plant).
    plan : Quintic
        The move.
    controller : callable
        ``controller(kp, kd)`` returns the controller for gains of shapes
        ``(K1, 1, n)`` and ``(1, K2, n)``: e.g.
        ``lambda kp, kd: armlab.computed_torque(model, plan, kp, kd)``.
    kp : (K1,) or (K1, n) array_like
        The grid's stiffnesses; a 1-D grid gives every joint the same value.
    kd : (K2,) or (K2, n) array_like
        The grid's dampings.
    knock : (n,) array_like, optional
        Offset of the knocked start [rad]: the arm starts at rest at
        ``plan.start - knock`` (so the first error is ``knock``). Default:
        no knocked runs.
    duration : float, optional
        Simulated time [s]; default ``plan.end_time``.
    **simulate_options
        Passed to :func:`armlab.simulate` (``torque_limit``, ``control_dt``,
        ``substeps``, ``method``).

    Returns
    -------
    GainMap

    Examples
    --------
    Computed torque on the control chapter's move at two frequencies, critically damped:
    the elbow's largest error falls about threefold from 10 to 20 rad/s.

    >>> from armlab import tabletop_arm, quintic, computed_torque
    >>> plan = quintic(np.radians([-45, 90]), np.radians([60, -30]), 0.8)
    >>> model = tabletop_arm(damping=0.016)
    >>> m = gain_map(tabletop_arm(damping=0.02), plan,
    ...              lambda kp, kd: computed_torque(model, plan, kp, kd), [100, 400], [20, 40])
    >>> np.degrees(m.largest[[0, 1], [0, 1], 1]).round(3)
    array([1.231, 0.38 ])
    """
    n = arm.n
    kp_grid = _grid(n, "kp", kp)
    kd_grid = _grid(n, "kd", kd)
    built = controller(kp_grid[:, None, :], kd_grid[None, :, :])
    starts = np.asarray(plan.start, dtype=float)[None]
    if knock is not None:
        offset = joint_vector(arm, "knock", knock)
        if offset.shape != (n,):
            raise ValueError(f"knock has shape {offset.shape}: expected ({n},)")
        starts = np.stack([starts[0], starts[0] - offset])
    sim = simulate(arm, starts[:, None, None, :], plan.end_time if duration is None else duration,
                   built, **simulate_options)
    shape = (len(starts), len(kp_grid), len(kd_grid))
    if sim.batch_shape != shape:
        raise ValueError(f"controller(kp, kd) made runs of batch shape {sim.batch_shape}: "
                         f"expected {shape[1:]} (pass kp and kd on to its gains)")
    largest = tracking_summary(sim, plan)[0][0]
    peak = np.abs(sim.tau_command).max(axis=-2)
    clipped = sim.saturated.any(axis=(-2, -1))
    return GainMap(kp=kp_grid, kd=kd_grid, largest=largest, peak_torque=peak[0],
                   saturated=clipped[0], diverged=sim.diverged[0],
                   knock=None if knock is None else offset,
                   knocked_peak_torque=None if knock is None else peak[1],
                   knocked_saturated=None if knock is None else clipped[1])


def _grid(n, name, value):
    arr = finite_array(name, value)
    if arr.ndim == 1:
        arr = np.repeat(arr[:, None], n, axis=1)
    if arr.ndim != 2 or arr.shape[1] != n or arr.shape[0] == 0:
        raise ValueError(f"{name} has shape {np.shape(value)}: expected (K,) or (K, {n}) "
                         "values for the grid")
    if np.any(arr < 0):
        raise ValueError(f"{name} must not be negative, got {arr.tolist()}")
    return arr


# ----------------------------------------------------------------------------- stability

def lyapunov(arm, q, qd, q_target, kp):
    """The Lyapunov function of PD plus gravity compensation holding ``q_target``.

    ``V = qd^T M(q) qd / 2 + e^T Kp e / 2`` with ``e = q_target - q``: the
    arm's kinetic energy plus the energy stored in the controller's springs.
    Along a motion under ``tau = g(q) + Kp e - Kd qd`` (an exact gravity
    model, a fixed target) its rate is ``dV/dt = -qd^T (Kd + B) qd <= 0``,
    ``B`` the arm's viscous friction (the skew-symmetry of ``dM/dt - 2 C``
    cancels the velocity-product torques).

    Parameters
    ----------
    arm : PlanarArm
        The real arm (its mass matrix).
    q, qd : (..., n) array_like
        Joint angles [rad] and speeds [rad/s].
    q_target : (n,) or (..., n) array_like
        The pose held [rad].
    kp : float or (n,) array_like
        The controller's stiffness [N m/rad]; not negative.

    Returns
    -------
    V : (...) ndarray
        [J].

    Examples
    --------
    The table-top arm at rest 2 deg below (30, 45) deg on both joints, under
    stiffnesses (60, 30) N m/rad: only the springs hold energy,
    (60 + 30) (2 pi / 180)^2 / 2 = 0.0548 J:

    >>> from armlab import tabletop_arm
    >>> target = np.radians([30, 45])
    >>> round(float(lyapunov(tabletop_arm(), target - np.radians(2), [0, 0], target,
    ...                      [60, 30])), 4)
    0.0548
    """
    q = joint_vector(arm, "q", q)
    target = joint_vector(arm, "q_target", q_target)
    gains = per_joint(arm.n, "kp", kp, nonnegative=True)
    e = target - q
    return kinetic_energy(arm, q, qd) + 0.5 * np.sum(gains * e * e, axis=-1)


def sampled_pd_eigenvalues(arm, q, kp, kd, dt=1e-3):
    """Eigenvalues of PD with exact gravity compensation run on a clock, near rest at ``q``.

    The controller reads ``(q_k, qd_k)`` at each tick and holds
    ``tau_k = g(q_k) + Kp (q - q_k) - Kd qd_k`` until the next one, ``dt``
    later. Linearized about rest at ``q`` (velocity products are quadratic in
    the speed and drop out), the arm between ticks obeys
    ``M dq'' = -G dq - B dq' + u`` with ``G = dg/dq``
    (:func:`armlab.gravity_stiffness`), ``B`` the arm's viscous friction and
    ``u = (G - Kp) dq_k - Kd dq'_k`` held. That linear equation is solved
    exactly over the tick (a matrix exponential), which gives the map
    ``x_{k+1} = P x_k`` of ``x = (dq, dq')``; the loop is stable while every
    eigenvalue of ``P`` has a magnitude below 1. Coulomb friction is left out
    (it is not smooth at rest).

    The per-joint reading of the same loop, one damper ``K_d,j`` on the
    inertia ``1 / (M^-1)_jj`` with the spring left out, says a speed is
    multiplied by ``1 - dt Kd_j (M^-1)_jj`` each tick and reverses and grows
    past ``dt Kd_j (M^-1)_jj = 2``; with the joints' coupling the matrix
    ``dt M^-1 Kd`` takes its place. Both are approximations of this map.

    Parameters
    ----------
    arm : PlanarArm
    q : (n,) array_like
        The pose held [rad].
    kp, kd : float or (n,) array_like
        Per-joint gains [N m/rad], [N m s/rad]; not negative.
    dt : float, optional
        The tick [s]. Default 1 ms.

    Returns
    -------
    eigenvalues : (2 n,) ndarray
        Of the map ``P`` over one tick, complex, largest magnitude first [-].

    Examples
    --------
    The table-top arm held at (60, -30) deg with the control chapter's gains,
    Kp = (60, 30) N m/rad and Kd = (4, 1.5) N m s/rad, on a 1 ms tick: well
    inside the unit circle. The shoulder's Kd at 45 (the elbow's at 3/8 of it)
    puts an eigenvalue at -1.21: the error reverses and grows each tick.

    >>> from armlab import tabletop_arm
    >>> arm, q = tabletop_arm(), np.radians([60, -30])
    >>> lam = sampled_pd_eigenvalues(arm, q, [60, 30], [4, 1.5])
    >>> round(float(abs(lam[0])), 4)
    0.9926
    >>> lam = sampled_pd_eigenvalues(arm, q, [60, 30], [45, 45 * 0.375])
    >>> round(float(lam[0].real), 2), float(abs(lam[0].imag))
    (-1.21, 0.0)
    """
    q = finite_array("q", q)
    if q.shape != (arm.n,):
        raise ValueError(f"q has shape {q.shape} but the arm has {arm.n} joints: one pose")
    n = arm.n
    kp = per_joint(n, "kp", kp, nonnegative=True)
    kd = per_joint(n, "kd", kd, nonnegative=True)
    dt = positive_scalar("dt", dt, "s", "tick")
    M_inv = np.linalg.inv(mass_matrix(arm, q))
    G = gravity_stiffness(arm, q)
    B = np.diag(np.broadcast_to(arm._constants.arrays["B"], (n,)))
    # (dq, dq', u)' = [[0, I, 0], [-M^-1 G, -M^-1 B, M^-1], [0, 0, 0]] (dq, dq', u), u held
    F = np.zeros((3 * n, 3 * n))
    F[:n, n:2 * n] = np.eye(n)
    F[n:2 * n, :n] = -M_inv @ G
    F[n:2 * n, n:2 * n] = -M_inv @ B
    F[n:2 * n, 2 * n:] = M_inv
    E = expm(F * dt)
    held = np.hstack([G - np.diag(kp), -np.diag(kd)])        # u = held @ x
    P = E[:2 * n, :2 * n] + E[:2 * n, 2 * n:] @ held
    lam = np.linalg.eigvals(P)
    return lam[np.argsort(-np.abs(lam), kind="stable")]


def model_error_acceleration(arm, model, q, qd, qdd):
    """The disturbance a model error puts into computed torque's error equation.

    With ``tau = ID_model(q, qd, a)`` and ``a = qdd_plan + Kp e + Kd de``, the
    real arm moves so that ``e'' + Kd e' + Kp e = d`` with

    ``d = M_model(q)^-1 (ID_arm(q, qd, qdd) - ID_model(q, qd, qdd))``,

    the torque the model misses at the arm's actual motion, turned into an
    acceleration by the model's mass matrix (``d = -M_model^-1 Delta`` with
    ``Delta`` the model's torque minus the arm's). An exact model gives
    ``d = 0``.

    Parameters
    ----------
    arm : PlanarArm
        The real arm (with any payload it carries).
    model : PlanarArm
        The controller's model.
    q, qd, qdd : (..., n) array_like
        The arm's angles [rad], speeds [rad/s] and accelerations [rad/s^2].

    Returns
    -------
    d : (..., n) ndarray
        [rad/s^2].

    Examples
    --------
    Holding the control chapter's end pose (60, -30) deg at rest, with
    0.5 kg in the gripper that the model does not know: the missing weight
    (1.80, 1.06) N m becomes an elbow acceleration of 74.66 rad/s^2, so at
    Kp = 400 1/s^2 the elbow errs by about 74.66 / 400 rad = 10.7 deg (10.5
    deg at the pose where it actually rests, :func:`settled_error`):

    >>> from armlab import tabletop_arm
    >>> arm = tabletop_arm()
    >>> d = model_error_acceleration(arm.with_payload(0.5), arm, np.radians([60, -30]),
    ...                              [0, 0], [0, 0])
    >>> d.round(2)
    array([-9.25, 74.66])
    """
    if model.n != arm.n:
        raise ValueError(f"model has {model.n} joints but the arm has {arm.n}")
    missing = inverse_dynamics(arm, q, qd, qdd) - inverse_dynamics(model, q, qd, qdd)
    M = mass_matrix(model, q)
    return np.linalg.solve(M, missing[..., None])[..., 0]


def error_bound(kp, kd, disturbance):
    """The largest error ``e'' + Kd e' + Kp e = d`` can reach from rest, for ``|d| <= delta``.

    Each joint's error is the disturbance filtered by the impulse response
    ``h`` of ``1 / (s^2 + Kd s + Kp)``, so ``|e(t)| <= delta * integral |h|``
    for every ``t`` when the error starts at zero and at rest, and some
    disturbance within the bound comes as close as one likes. With
    ``zeta = Kd / (2 sqrt(Kp))``:

    * ``zeta >= 1``: ``h >= 0`` and the integral is ``1 / Kp`` (a constant
      disturbance reaches it: ``e -> delta / Kp``);
    * ``0 < zeta < 1``: ``(1 / Kp) coth(pi zeta / (2 sqrt(1 - zeta^2)))``,
      more than ``1 / Kp`` (each lobe of ``h`` adds);
    * ``zeta = 0``: no bound (``inf``): a disturbance at the natural
      frequency resonates.

    Parameters
    ----------
    kp : float or (...) array_like
        [1/s^2]; positive.
    kd : float or (...) array_like
        [1/s]; not negative.
    disturbance : float or (...) array_like
        The bound ``delta`` on ``|d|`` [rad/s^2]; not negative.

    Returns
    -------
    bound : ndarray
        The bound on ``|e|`` [rad], broadcast shape of the inputs.

    Examples
    --------
    Computed torque at 20 rad/s, critically damped, against a disturbance of
    at most 74.66 rad/s^2: 0.1866 rad (10.7 deg); at half the damping the
    bound grows by coth(pi / (2 sqrt 3)) = 1.3896:

    >>> float(error_bound(400, 40, 74.66).round(4))
    0.1866
    >>> float((error_bound(400, 20, 1) / error_bound(400, 40, 1)).round(4))
    1.3896
    """
    kp = _positive("kp", kp)
    kd = _positive("kd", kd, strict=False)
    delta = _positive("disturbance", disturbance, strict=False)
    zeta = kd / (2.0 * np.sqrt(kp))
    under = np.clip(zeta, 0.0, 1.0 - 1e-300)
    with np.errstate(divide="ignore"):
        gain = np.where(zeta >= 1.0, 1.0,
                        1.0 / np.tanh(np.pi * under / (2.0 * np.sqrt(1.0 - under**2))))
    return np.asarray(delta * gain / kp)


def error_response(kp, kd, disturbance, dt=1e-3, steps=10):
    """The error ``e'' + Kd e' + Kp e = d`` gives from rest at zero, ``d`` held through each tick.

    Computed torque's error equation with a model error as its input (see
    :func:`model_error_acceleration`), integrated on its own: each tick's
    disturbance is held for the tick (as the loop holds its torque), and the
    equation is stepped by the classical Runge-Kutta method (RK4), ``steps``
    steps of ``h = dt / steps`` per tick. On this linear equation one RK4
    step is the linear map ``x <- P x + Q d`` of the state ``x = (e, e')``,
    with ``P = I + hF + (hF)^2/2 + (hF)^3/6 + (hF)^4/24`` and
    ``Q = h (I + hF/2 + (hF)^2/6 + (hF)^3/24) (0, 1)``, ``F = [[0, 1],
    [-Kp, -Kd]]``: the function applies those maps (a tick's ``steps`` of them
    at once) instead of evaluating the four stages step by step, which is the
    same arithmetic up to rounding.

    Parameters
    ----------
    kp : float or (..., n) array_like
        [1/s^2]; not negative. Broadcasts against one row of ``disturbance``.
    kd : float or (..., n) array_like
        [1/s]; not negative.
    disturbance : (..., N + 1, n) array_like
        The disturbance ``d`` at each tick [rad/s^2], one row per tick as
        :class:`armlab.Simulation` records its states: row ``k`` is held from
        ``t_k`` to ``t_k + dt``; the last row (the end) is not used.
    dt : float, optional
        The tick [s]; default 1 ms.
    steps : int, optional
        RK4 steps per tick; default 10.

    Returns
    -------
    e : (..., N + 1, n) ndarray
        The error at each tick [rad], ``e[..., 0, :] = 0``; the batch shape is
        the broadcast of the gains' and the disturbance's.

    Examples
    --------
    A constant disturbance of 74.66 rad/s^2 (an unknown 0.5 kg payload at the
    control chapter's end pose) on computed torque at 20 rad/s, critically
    damped: after 0.1 s the error is ``(d / Kp) (1 - (1 + w t) exp(-w t))``
    with ``w t = 2``, 0.1109 rad, on its way to ``d / Kp`` = 0.1866 rad:

    >>> d = np.full((101, 1), 74.66)               # 0.1 s of 1 ms ticks, one joint
    >>> e = error_response(400, 40, d)
    >>> float(e[-1, 0].round(4)), float((74.66 / 400 * (1 - 3 * np.exp(-2))).round(4))
    (0.1109, 0.1109)
    """
    kp = _positive("kp", kp, strict=False)
    kd = _positive("kd", kd, strict=False)
    d = finite_array("disturbance", disturbance)
    if d.ndim < 2:
        raise ValueError(f"disturbance has shape {d.shape}: expected (..., N + 1, n), one row "
                         "per tick")
    dt = positive_scalar("dt", dt, "s", "time")
    if not (isinstance(steps, (int, np.integer)) and steps >= 1):
        raise ValueError(f"steps must be a positive integer, got {steps!r}")
    try:
        shape = np.broadcast_shapes(kp.shape, kd.shape, d.shape[:-2] + d.shape[-1:])
    except ValueError:
        raise ValueError(f"kp {kp.shape}, kd {kd.shape} and a row of the disturbance "
                         f"{d.shape[:-2] + d.shape[-1:]} do not broadcast together") from None
    # one RK4 step of x' = F x + G d as x <- P x + Q d; then a tick of `steps` such steps
    h = dt / steps
    hF = np.zeros(shape + (2, 2))
    hF[..., 0, 1] = h
    hF[..., 1, 0] = -h * np.broadcast_to(kp, shape)
    hF[..., 1, 1] = -h * np.broadcast_to(kd, shape)
    eye = np.eye(2)
    hF2 = hF @ hF
    hF3 = hF2 @ hF
    P = eye + hF + hF2 / 2 + hF3 / 6 + hF3 @ hF / 24
    Q = h * (eye + hF / 2 + hF2 / 6 + hF3 / 24)[..., :, 1]
    A, b = np.broadcast_to(eye, P.shape), np.zeros(shape + (2,))
    for _ in range(steps):                              # A = P^steps, b = sum P^k Q
        A = P @ A
        b = (P @ b[..., None])[..., 0] + Q
    a00, a01, a10, a11 = A[..., 0, 0], A[..., 0, 1], A[..., 1, 0], A[..., 1, 1]
    b0, b1 = b[..., 0], b[..., 1]
    ticks = d.shape[-2]
    d = np.broadcast_to(d, shape[:-1] + (ticks, shape[-1]))
    out = np.zeros(d.shape)
    e = v = np.zeros(shape)
    for k in range(ticks - 1):
        d_k = d[..., k, :]
        e, v = a00 * e + a01 * v + b0 * d_k, a10 * e + a11 * v + b1 * d_k
        out[..., k + 1, :] = e
    return out
