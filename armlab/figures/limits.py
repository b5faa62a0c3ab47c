"""The limits chapter's figures, one function each: the two policies side by side
(:func:`policy_figure`), the torque along a move for a few durations
(:func:`duration_figure`), the payload-capacity map (:func:`capacity_figure`), what a
gear ratio buys and costs (:func:`gear_figure`), the time-optimal profile in the phase
plane (:func:`phase_plane_figure`) and a motor's envelope with a duty cycle in it
(:func:`motor_figure`).

Each returns a :class:`armlab.plots.BookFigure` at the book's size; the numbers they draw
come from :mod:`armlab.limits` and :mod:`armlab.gearing`.
"""

import numpy as np
from matplotlib.colors import LogNorm
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import NullFormatter

from armlab import plots
from armlab.dynamics import gravity_torques, inverse_dynamics
from armlab.gearing import shoulder_peaks
from armlab.limits import realized_acceleration, reflect_motor, shortest_duration
from armlab.trajectory import quintic

__all__ = ["policy_figure", "duration_figure", "capacity_figure", "gear_figure",
           "phase_plane_figure", "motor_figure"]


def policy_figure(cases):
    """Requested torque against the torque each policy applies, and the accelerations they give.

    Parameters
    ----------
    cases : sequence of (title, arm, q, qd, qdd_request, limit)
        One row each: a two-joint arm, its state [rad, rad/s], the requested
        acceleration [rad/s^2] and a symmetric torque limit [N m].

    Returns
    -------
    BookFigure
        Per row, left: torques (requested, clipped, scaled) with the limits
        dashed; right: accelerations (requested, realized by each policy).
    """

    fig, axes = plots.figure(ncols=2, nrows=len(cases), height=3.0 * len(cases) + 0.6)
    axes = np.atleast_2d(axes)
    colors = [plots.COLORS["weight"], plots.COLORS["torque"], plots.COLORS["ellipse"]]
    x = np.arange(2)
    for (title, arm, q, qd, qdd, limit), (ax_tau, ax_acc) in zip(cases, axes):
        clip = realized_acceleration(arm, q, qd, qdd, limit, policy="clip")
        scale = realized_acceleration(arm, q, qd, qdd, limit, policy="scale")
        for ax, series, labels in (
                (ax_tau, (clip[0], clip[1], scale[1]),
                 ("requested", "clipped per joint", "scaled vector")),
                (ax_acc, (np.asarray(qdd, float), clip[2], scale[2]),
                 ("requested", "with clipped τ", "with scaled τ"))):
            for dx, values, color, label in zip((-0.27, 0, 0.27), series, colors, labels):
                ax.bar(x + dx, values, width=0.25, color=color, label=label)
            ax.set_xticks(x, ["shoulder", "elbow"])
            ax.axhline(0, color=plots.COLORS["arm"], lw=0.8)
            ax.grid(axis="y", alpha=0.3)
            lo, hi = min(0.0, min(v.min() for v in series)), max(0.0, max(v.max() for v in series))
            if ax is ax_tau:
                hi = max(hi, limit)
            span = hi - lo
            ax.set_ylim(lo - 0.08 * span, hi + 0.08 * span)
        for sign in (-1, 1):
            ax_tau.axhline(sign * limit, color=plots.COLORS["limit"], ls="--", lw=1.2)
        ax_tau.set_ylabel("torque [N m]")
        ax_acc.set_ylabel("acceleration [rad/s²]")
        ax_tau.set_title(f"{title}: τ, limit ±{limit:g} N m")
        ax_acc.set_title(f"{title}: q̈")
    fig.legend(handles=[Patch(color=c) for c in colors],
               labels=["requested", "clipped per joint", "scaled as a vector"],
               loc="outside lower center", ncols=3, frameon=False)
    return fig


def duration_figure(arm, q_start, q_end, limit, durations, rotor_inertia=0.0):
    """Torque along a quintic move for several durations, with the limits and where they bind.

    Parameters
    ----------
    arm : PlanarArm
        Two joints.
    q_start, q_end : (2,) array_like
        The move [rad].
    limit : (2,) array_like
        Symmetric torque limits per joint [N m].
    durations : sequence of float
        Durations to draw [s]; ``np.inf`` draws the torque that remains at any
        speed (gravity's).
    rotor_inertia : float, optional
        Passed to :func:`armlab.shortest_duration` [kg m^2].

    Returns
    -------
    BookFigure
        One panel per joint, torque against the fraction ``t/T`` of the move;
        the shortest duration's binding point is marked.
    """

    limit = np.broadcast_to(np.asarray(limit, dtype=float), (2,))
    best = shortest_duration(arm, q_start, q_end, limit, rotor_inertia=rotor_inertia)
    u = np.linspace(0.0, 1.0, 401)
    fig, axes = plots.figure(nrows=2, height=6.6)
    shades = ["#9ecae1", "#2171b5", "#08306b", "#000000"]
    for T, color in zip(durations, shades[-len(durations):] if len(durations) <= 4 else None):
        if np.isinf(T):
            q, _, _ = quintic(q_start, q_end, 1.0)(u)
            tau = gravity_torques(arm, q)
            label, style = "any duration: g(q) alone", ":"
        else:
            q, qd, qdd = quintic(q_start, q_end, T)(u * T)
            tau = inverse_dynamics(arm, q, qd, qdd)
            label, style = f"T = {T:.3g} s", "-"
        for j, ax in enumerate(axes):
            ax.plot(u, tau[:, j], style, color=color, lw=1.6, label=label)
    for j, ax in enumerate(axes):
        for s in (-1, 1):
            ax.axhline(s * limit[j], color=plots.COLORS["limit"], ls="--", lw=1.2)
        ax.set_xlabel("fraction of the move t / T")
        ax.set_ylabel(f"joint {j + 1} torque [N m]")
        ax.set_title(["shoulder (joint 1)", "elbow (joint 2)"][j])
        ax.grid(alpha=0.3)
        ax.set_xlim(0, 1)
        top = 1.25 * limit[j]
        ax.set_ylim(-top if j == 1 else -0.35 * top, top)
    if best.kind == "torque":
        ax = axes[best.joint]
        ax.plot([best.fraction], [best.bound * limit[best.joint]], "o", ms=8, mfc="none",
                mec=plots.COLORS["force"], mew=2, zorder=5)
        ax.annotate(f"the limit binds at T = {best.duration:.3g} s",
                    (best.fraction, best.bound * limit[best.joint]), textcoords="offset points",
                    xytext=(10, 10 * best.bound), ha="left", va="bottom" if best.bound > 0 else "top",
                    color=plots.COLORS["force"])
    axes[1].legend(frameon=False, loc="lower right", ncols=2)
    return fig


def capacity_figure(maps, path=None):
    """Maps of a two-joint arm's payload capacity over the joint space, side by side.

    Parameters
    ----------
    maps : sequence of (title, CapacityMap)
        From :func:`armlab.capacity_map`, angles in radians.
    path : (2, 2) array_like, optional
        A move's start and end poses [rad], drawn as the straight line a
        quintic follows in joint space.

    Returns
    -------
    BookFigure
        Colour: the pose's capacity [kg] on a log scale; grey hatching: ``nan``
        (the arm cannot hold itself); a dashed line splits the poses where the
        shoulder limits the load from those where the elbow does.
    """

    fig, axes = plots.figure(ncols=len(maps), height=4.6)
    axes = np.atleast_1d(axes)
    norm = LogNorm(0.05, 20.0)
    for ax, (title, m) in zip(axes, maps):
        d1, d2 = np.degrees(m.q1), np.degrees(m.q2)
        shown = np.where(np.isinf(m.capacity), 20.0, np.clip(m.capacity, 0.05, 20.0))
        mesh = ax.pcolormesh(d1, d2, shown, norm=norm, cmap="viridis", shading="nearest",
                             rasterized=True)
        overloaded = np.isnan(m.capacity).astype(float)
        if overloaded.any():
            ax.contourf(d1, d2, overloaded, levels=[0.5, 1.5], colors="none", hatches=["////"])
            ax.contour(d1, d2, overloaded, levels=[0.5], colors="0.3", linewidths=0.8)
        ax.contour(d1, d2, (m.joint == 0).astype(float), levels=[0.5], colors="white",
                   linewidths=0.8, linestyles="--")
        if path is not None:
            ends = np.degrees(np.asarray(path, dtype=float))
            ax.plot(ends[:, 0], ends[:, 1], color=plots.COLORS["force"], lw=2.5)
            ax.plot(*ends[1], "o", color=plots.COLORS["force"], ms=6)
        ax.set_xlabel("shoulder q1 [deg]")
        ax.set_ylabel("elbow q2 [deg]")
        ax.set_title(title)
        ax.set_xticks(np.arange(-180, 181, 90))
        ax.set_yticks(np.arange(-180, 181, 90))
        ax.set_aspect("equal")
    handles = [Patch(facecolor="white", edgecolor="0.3", hatch="////",
                     label="nan: cannot hold itself"),
               Line2D([], [], color="0.5", ls="--", lw=1,
                      label="shoulder | elbow limits")]
    if path is not None:
        handles.append(Line2D([], [], color=plots.COLORS["force"], lw=2.5, marker="o",
                              markevery=[1], label="the move"))
    fig.legend(handles=handles, loc="outside lower center", ncols=2, frameon=False)
    fig.colorbar(mesh, ax=list(axes), label="capacity [kg]", shrink=0.9)
    return fig


def gear_figure(sweep, worked=None, fastest=None):
    """What a gear ratio buys and costs: friction and inertia at the joint, and the fastest move.

    Parameters
    ----------
    sweep : dict
        :func:`armlab.gearing.gear_sweep`'s result.
    worked : float, optional
        A ratio to mark.
    fastest : float, optional
        The duration of the fastest move [s] (:func:`armlab.gearing.gear_optimum`'s
        ``"T_crossing"``), at whose peaks the left panel takes the speed and
        the acceleration; default the sweep's fastest, ``sweep["T_ref"]``.

    Returns
    -------
    BookFigure
        Left: at the shoulder, against ``G`` (log-log): the motor's torque ``G
        tau_m``, its viscous friction at the fastest move's peak speed
        ``G^2 B qd``, its Coulomb friction ``G Tc``, the torque its rotor needs
        at the peak acceleration ``G^2 J_m qdd``, and the arm's own peak need.
        Right: the shortest duration of the move that the torque allows, the
        one the motor's top speed allows, and the larger of the two.
    """

    ratios, drive = sweep["ratios"], sweep["drive"]
    if fastest is not None:
        sweep = {**sweep, **shoulder_peaks(sweep["lengths"], sweep["masses"], *sweep["move"],
                                            fastest)}
    speed, acc, need = sweep["peak_speed"], sweep["peak_acc"], sweep["need"]
    fig, (ax_f, ax_t) = plots.figure(nrows=2, height=8.0)
    ax_f.loglog(ratios, drive.torque, color=plots.COLORS["torque"], lw=2,
                label="motor torque G τm")
    ax_f.axhline(need, color=plots.COLORS["arm"], ls="--", lw=1,
                 label=f"the arm's own peak need, {need:.1f} N m")
    ax_f.loglog(ratios, drive.damping * speed, color=plots.COLORS["force"],
                label=f"viscous G²B q̇ at {speed:.1f} rad/s")
    ax_f.loglog(ratios, drive.coulomb, color=plots.COLORS["limit"], label="Coulomb G Tc")
    ax_f.loglog(ratios, drive.inertia * acc, color=plots.COLORS["ellipse"],
                label=f"rotor G²Jm q̈ at {acc:.0f} rad/s²")
    ax_f.set_ylabel("torque at the shoulder [N m]")
    ax_f.set_title(f"the shoulder, during the fastest move ({sweep['T_ref']:.3f} s)")
    ax_f.legend(frameon=False, loc="upper left", handlelength=1.5)
    ax_t.plot(ratios, sweep["torque"], color=plots.COLORS["torque"], label="torque allows")
    ax_t.plot(ratios, sweep["speed"], color=plots.COLORS["force"], label="top speed allows")
    ax_t.plot(ratios, sweep["best"], color=plots.COLORS["arm"], lw=6, alpha=0.25, zorder=0,
              label="both: the shortest move")
    ax_t.set_ylim(0, 2.0 * sweep["T_ref"])
    ax_t.set_ylabel("shortest duration of the move [s]")
    ax_t.set_title("too little torque ← → too little speed")
    ax_t.legend(frameon=False, loc="upper right")
    ticks = [t for t in (20, 30, 50, 100, 200, 500) if ratios[0] <= t <= ratios[-1]]
    for ax in (ax_f, ax_t):
        ax.set_xscale("log")
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("gear ratio G")
        ax.grid(alpha=0.3, which="both")
        if worked is not None:
            ax.axvline(worked, color=plots.COLORS["weight"], ls=":", lw=1)
    return fig


def phase_plane_figure(arm, q_start, q_end, limit, profile, sim=None, quintic_duration=None):
    """The time-optimal profile in the phase plane, and the torques it needs against the limits.

    Parameters
    ----------
    arm : PlanarArm
        Two joints, without viscous friction.
    q_start, q_end : (2,) array_like
        The straight path's ends [rad].
    limit : (2,) array_like
        Symmetric torque limits per joint [N m].
    profile : PhaseProfile
        :func:`armlab.time_optimal_scaling`'s result for this arm, path and limits.
    sim : Simulation, optional
        The profile played on the arm (:func:`armlab.simulate`): its applied
        torques are drawn on the right.
    quintic_duration : float, optional
        A quintic's duration [s], drawn in the phase plane for comparison.

    Returns
    -------
    BookFigure
        Left: path speed ``sd`` against ``s``, with the inadmissible region
        above the velocity-limit curve shaded, the braking curve (``reach``),
        the profile and its switch, and the quintic. Right: each joint's torque
        over its limit against time, from inverse dynamics along the plan and,
        if given, as applied in the simulation.
    """

    limit = np.broadcast_to(np.asarray(limit, dtype=float), (2,))
    fig, (ax_p, ax_t) = plots.figure(nrows=2, height=9.0)
    s, top = profile.s, 1.6 * profile.sd.max()
    curve = np.minimum(profile.limit_curve, 2 * top)
    ax_p.fill_between(s, curve, 2 * top, color="0.85", lw=0, label="inadmissible: L > U")
    ax_p.plot(s, curve, color="0.35", lw=1.2, label="velocity-limit curve")
    braking = np.where(profile.reach < profile.limit_curve * (1 - 1e-9), profile.reach, np.nan)
    ax_p.plot(s, braking, color=plots.COLORS["limit"], ls="--", lw=1.2,
              label="braking curve: stops at s = 1")
    if quintic_duration is not None:
        u = np.linspace(0.0, 1.0, 401)
        ax_p.plot(u**3 * (10 - 15 * u + 6 * u**2), 30 * u**2 * (1 - u) ** 2 / quintic_duration,
                  color=plots.COLORS["weight"], lw=1.5,
                  label=f"quintic, T = {quintic_duration:.3f} s")
    ax_p.plot(s, profile.sd, color=plots.COLORS["torque"], lw=2.5,
              label=f"time-optimal, T = {profile.duration:.3f} s")
    for sw in profile.switches:
        ax_p.plot([sw], [np.interp(sw, s, profile.sd)], "o", ms=7, mfc="none", mew=2,
                  mec=plots.COLORS["force"], label="switch: U to L")
    ax_p.set_xlim(0, 1)
    ax_p.set_ylim(0, top)
    ax_p.set_xlabel("path coordinate s")
    ax_p.set_ylabel("path speed ṡ [1/s]")
    ax_p.set_title("the phase plane (s, ṡ)")
    ax_p.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2)
    t = np.linspace(0.0, profile.duration, 1201)
    tau = inverse_dynamics(arm, *profile.plan(t))
    colors = [plots.COLORS["torque"], plots.COLORS["force"]]
    for j in range(2):
        if sim is not None:
            ax_t.plot(sim.time, sim.tau[..., j] / limit[j], color=colors[j], lw=4, alpha=0.35,
                      label=f"joint {j + 1}, applied")
        ax_t.plot(t, tau[:, j] / limit[j], color=colors[j], lw=1.2,
                  label=f"joint {j + 1}, plan")
    for sign in (-1, 1):
        ax_t.axhline(sign, color=plots.COLORS["limit"], ls="--", lw=1.2)
    ax_t.set_ylim(-1.3, 1.5)
    ax_t.set_xlim(0, sim.time[-1] if sim is not None else profile.duration)
    ax_t.set_xlabel("time t [s]")
    ax_t.set_ylabel("torque / its limit")
    ax_t.set_title(f"torques, limits ±({limit[0]:g}, {limit[1]:g}) N m")
    ax_t.grid(alpha=0.3)
    ax_t.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2)
    return fig


def motor_figure(motor, cycle, G, sweeps, thermal=None):
    """A motor's torque-speed envelope at the shoulder with a duty cycle in it, and what the
    torque-speed line and the heat do to the choice of gear.

    Parameters
    ----------
    motor : Motor
        With a torque-speed line and a continuous rating.
    cycle : dict
        :func:`armlab.gearing.duty_cycle` at ratio ``G``.
    G : float
        The ratio of ``cycle``.
    sweeps : sequence of (label, sweep)
        :func:`armlab.gearing.gear_sweep` results to compare, each drawn as its shortest move.
    thermal : float, optional
        The smallest ratio whose continuous rating covers the cycle's RMS; ratios
        below it are shaded.

    Returns
    -------
    BookFigure
        Left: joint 1's torque against its speed: the envelope with and
        without the line, the continuous rating, the cycle's path and its
        RMS. Right: the shortest move against the gear ratio for each sweep.
    """

    drive = reflect_motor(motor, G)
    fig, (ax_e, ax_g) = plots.figure(nrows=2, height=9.0)
    v, T, S = float(drive.speed), float(drive.torque), float(drive.stall_torque)
    w = np.linspace(-v, v, 401)
    low, high = drive.torque_range(w)
    ax_e.plot(w, high, color=plots.COLORS["torque"], lw=2, label="peak, with back-EMF")
    ax_e.plot(w, low, color=plots.COLORS["torque"], lw=2)
    ax_e.plot([-v, v, v, -v, -v], [-T, -T, T, T, -T], color="0.5", ls=":", lw=1.2,
              label="peak, without back-EMF")
    cont = float(drive.continuous_torque)
    ax_e.axhspan(-cont, cont, color=plots.COLORS["weight"], alpha=0.15, lw=0,
                 label=f"continuous, ±{cont:.1f} N m")
    ax_e.plot(cycle["qd"][:, 0], cycle["tau"][:, 0], color=plots.COLORS["force"], lw=1.5,
              label="the cycle")
    ax_e.axhline(cycle["rms"][0], color=plots.COLORS["force"], ls="--", lw=1.2,
                 label=f"its RMS, {cycle['rms'][0]:.2f} N m")
    ax_e.set_xlabel("shoulder speed q̇1 [rad/s]")
    ax_e.set_ylabel("shoulder torque [N m]")
    ax_e.set_title(f"the shoulder's motor through {G:.0f}:1")
    ax_e.set_xlim(-1.05 * v, 1.05 * v)
    ax_e.set_ylim(-1.1 * T, 1.1 * T)
    ax_e.grid(alpha=0.3)
    ax_e.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=1)
    shades = [plots.COLORS["arm"], plots.COLORS["torque"]]
    for (label, sweep), color in zip(sweeps, shades):
        ax_g.plot(sweep["ratios"], sweep["best"], color=color, lw=2, label=label)
    if thermal is not None:
        ax_g.axvspan(sweeps[0][1]["ratios"][0], thermal, color=plots.COLORS["limit"],
                     alpha=0.15, lw=0, label=f"too hot for the cycle, below {thermal:.0f}:1")
    ax_g.set_xscale("log")
    ticks = [t for t in (30, 50, 100, 200, 500)
             if sweeps[0][1]["ratios"][0] <= t <= sweeps[0][1]["ratios"][-1]]
    ax_g.set_xticks(ticks, [str(t) for t in ticks])
    ax_g.xaxis.set_minor_formatter(NullFormatter())
    ax_g.set_ylim(0, 2.0)
    ax_g.set_xlabel("gear ratio G")
    ax_g.set_ylabel("shortest move [s]")
    ax_g.set_title("the shortest move, by gear ratio")
    ax_g.grid(alpha=0.3, which="both")
    ax_g.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=1)
    return fig
