"""The limits chapter's lab, and the chapter's figures.

The lab: a state, a requested acceleration and a torque limit in; the torque
the request needs, the torque the motors apply (clipped per joint or scaled as
a vector), the acceleration the arm really gets, and the payload the pose can
hold, out. The two uniform 1 m, 1 kg rods.

The figures (one function each, called by the chapter): the two policies side
by side (:func:`policy_figure`), the torque along a move for a few durations
(:func:`duration_figure`), the payload-capacity map (:func:`capacity_figure`),
and what a gear ratio buys and costs (:func:`gear_figure`).
"""

import numpy as np

from armlab.arm import PlanarArm, rod_arm
from armlab.dynamics import mass_matrix
from armlab.kinematics import joint_positions
from armlab.labs._base import Lab, axis_top, pair
from armlab.limits import (path_acceleration_bounds, payload_capacity, pose_capacity,
                           realized_acceleration, reflect_motor, shortest_duration)
from armlab.trajectory import quintic

__all__ = ["LimitsLab", "limits_lab", "LIMITS_PRESETS", "POLICY_NAMES", "GHOST_TIME",
           "capacity_text", "policy_figure", "duration_figure", "capacity_figure",
           "gear_sweep", "gear_optimum", "gear_figure", "phase_plane_figure", "duty_cycle",
           "motor_figure"]

#: The policy widget's labels -> :func:`armlab.realized_acceleration`'s ``policy``.
POLICY_NAMES = {"clip each joint": "clip", "scale the vector": "scale"}

#: The ghost poses show where the arm would be after this long at the current acceleration [s].
GHOST_TIME = 0.5


def _preset(q=(0.0, 0.0), qd=(0.0, 0.0), qdd=(1.0, 0.0), limit=25.0, gravity=True,
            policy="clip each joint", payload=0.0):
    return dict(q1=q[0], q2=q[1], qd1=qd[0], qd2=qd[1], qdd1=qdd[0], qdd2=qdd[1], limit=limit,
                gravity=gravity, policy=policy, payload=payload)


#: The chapter's worked cases on the two 1 m, 1 kg rods: angles [deg], speeds [deg/s], requested
#: accelerations [rad/s^2], torque limit [N m], gravity on/off, policy, payload [kg].
LIMITS_PRESETS = {
    "horizontal acceleration (25 N m)": _preset(),
    "torque-limited acceleration (20 N m)": _preset(limit=20.0),
    "elbow request at 1.5 N m, no gravity": _preset(qdd=(0.0, 2.0), limit=1.5, gravity=False),
    "capacity nan: 15 N m cannot hold the arm": _preset(qdd=(0.0, 0.0), limit=15.0),
    "capacity inf: pointing straight up": _preset(q=(90.0, 0.0), qdd=(0.0, 0.0)),
}


def capacity_text(x, digits=3):
    """A capacity for a table: a number, or what ``inf`` and ``nan`` mean.

    >>> [capacity_text(x) for x in (0.27421, np.inf, np.nan)]
    ['0.274', 'inf (carries none)', 'nan (overloaded)']
    """
    if np.isnan(x):
        return "nan (overloaded)"
    if np.isinf(x):
        return "inf (carries none)"
    return f"{x:.{digits}f}"


class LimitsLab(Lab):
    """The limits chapter's lab: requested, applied and realized, and the pose's payload capacity.

    Use :func:`limits_lab` to make one.

    Attributes
    ----------
    widgets : dict of ipywidgets
        ``"q1"``, ``"q2"`` [deg], ``"qd1"``, ``"qd2"`` [deg/s], ``"qdd1"``,
        ``"qdd2"`` (the requested acceleration, rad/s^2), ``"limit"`` (N m, the
        same for both joints), ``"gravity"`` (checkbox), ``"policy"``
        (:data:`POLICY_NAMES`), ``"payload"`` [kg], and ``"preset"``,
        ``"table"``, ``"image"``.
    figure : matplotlib.figure.Figure
        Three panels: the arm with the applied torques (arcs), where the
        requested and the realized accelerations take it in
        :data:`GHOST_TIME` s (dashed and solid ghosts) and the pose's payload
        capacity; the torques (requested, applied, limits); the accelerations
        (requested, realized).
    values : dict
        ``"q"``, ``"qd"``, ``"qdd_request"`` (SI); ``"requested"``,
        ``"applied"``, ``"deficit"`` [N m]; ``"qdd"`` (realized) and
        ``"error"`` [rad/s^2]; ``"check"`` = ``M error`` [N m];
        ``"capacity"`` (2,) per joint and ``"pose_capacity"`` [kg] of the arm
        without payload, ``"limiting_joint"``; ``"limit"``, ``"gravity"``,
        ``"policy"``, ``"payload"``, ``"arm"`` (with the payload).
    """

    presets = LIMITS_PRESETS
    controls = ("q1", "q2", "qd1", "qd2", "qdd1", "qdd2", "limit", "gravity", "policy",
                "payload")

    def __init__(self, preset="horizontal acceleration (25 N m)", render=True):
        self._tops = (None, None)
        super().__init__(preset, render)

    def build(self, start):
        import ipywidgets as w
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        from armlab import plots

        style = {"description_width": self.label_width}
        self.widgets.update({
            "q1": self.slider("q1", start["q1"], -180, 180, 1, "deg", ".0f"),
            "q2": self.slider("q2", start["q2"], -180, 180, 1, "deg", ".0f"),
            "qd1": self.slider("q̇1", start["qd1"], -180, 180, 5, "deg/s", ".0f"),
            "qd2": self.slider("q̇2", start["qd2"], -180, 180, 5, "deg/s", ".0f"),
            "qdd1": self.slider("requested q̈1", start["qdd1"], -10, 10, 0.1, "rad/s²"),
            "qdd2": self.slider("requested q̈2", start["qdd2"], -10, 10, 0.1, "rad/s²"),
            "limit": self.slider("torque limit ±", start["limit"], 0.5, 50, 0.5, "N m"),
            "gravity": w.Checkbox(value=start["gravity"], description="gravity (9.81 m/s²)",
                                  style=style, indent=False),
            "policy": w.ToggleButtons(options=list(POLICY_NAMES), value=start["policy"],
                                      description="policy", style=style),
            "payload": self.slider("payload at the tip", start["payload"], 0, 3, 0.05, "kg",
                                   ".2f"),
        })
        self.figure = plots.BookFigure(figsize=(plots.PAGE_WIDTH, 7.6))
        FigureCanvasAgg(self.figure)
        grid = self.figure.add_gridspec(2, 2, height_ratios=[1.25, 1], left=0.11, right=0.99,
                                        bottom=0.06, top=0.95, wspace=0.42, hspace=0.3)
        ax_arm = self.figure.add_subplot(grid[0, :])
        ax_tau = self.figure.add_subplot(grid[1, 0])
        ax_acc = self.figure.add_subplot(grid[1, 1])
        arm = rod_arm()
        self.drawing = plots.ArmDrawing(ax_arm, arm, np.zeros(2), torque_scale=start["limit"],
                                        torque_radius=0.22, labels=False)
        self.drawing.frame(margin=0.4)
        ghost = dict(lw=3, solid_capstyle="round", zorder=2, alpha=0.75)
        (g_req,) = ax_arm.plot([], [], color=plots.COLORS["weight"], ls=(0, (2, 1.5)), **ghost,
                               label="requested motion")
        (g_real,) = ax_arm.plot([], [], color=plots.COLORS["force"], **ghost,
                                label="realized motion")
        ax_arm.legend(loc="lower left", frameon=False)
        capacity = ax_arm.text(0.98, 0.97, "", transform=ax_arm.transAxes, ha="right", va="top",
                               color=plots.COLORS["arm"])
        ax_arm.set_title(f"applied torques (arcs); poses after {GHOST_TIME:g} s")
        colors = [plots.COLORS["weight"], plots.COLORS["torque"]]
        tau_bars = [ax_tau.bar(np.arange(2) + dx, [0, 0], width=0.36, color=c, label=lab)
                    for dx, c, lab in zip((-0.19, 0.19), colors, ("requested", "applied"))]
        limit_lines = [ax_tau.axhline(0, color=plots.COLORS["limit"], ls="--", lw=1.2)
                       for _ in range(2)]
        acc_colors = [plots.COLORS["weight"], plots.COLORS["force"]]
        acc_bars = [ax_acc.bar(np.arange(2) + dx, [0, 0], width=0.36, color=c, label=lab)
                    for dx, c, lab in zip((-0.19, 0.19), acc_colors, ("requested", "realized"))]
        for ax, title, unit in ((ax_tau, "torques, ±limit", "torque [N m]"),
                                (ax_acc, "accelerations", "acceleration [rad/s²]")):
            ax.set_xticks([0, 1], ["joint 1", "joint 2"])
            ax.axhline(0, color=plots.COLORS["arm"], lw=0.8)
            ax.set_ylabel(unit)
            ax.set_title(title)
            ax.grid(axis="y", alpha=0.3)
            ax.legend(frameon=False, loc="upper right", handlelength=1.2)
        self._tau_bars = [list(b) for b in tau_bars]
        self._acc_bars = [list(b) for b in acc_bars]
        self.artists = dict(self.drawing.artists, ghost_request=g_req, ghost_realized=g_real,
                            capacity=capacity,
                            tau_bars=[b for bs in tau_bars for b in bs],
                            acc_bars=[b for bs in acc_bars for b in bs], limit_lines=limit_lines)
        self._ax_tau, self._ax_acc = ax_tau, ax_acc

    # -- computing and drawing ---------------------------------------------------------------
    def state(self):
        """The controls in SI units: ``q`` [rad], ``qd`` [rad/s], ``qdd`` [rad/s^2], limit
        [N m], gravity flag, policy (``"clip"`` or ``"scale"``), payload [kg]."""
        v = {k: self.widgets[k].value for k in self.controls}
        return (np.radians([v["q1"], v["q2"]]), np.radians([v["qd1"], v["qd2"]]),
                np.array([v["qdd1"], v["qdd2"]], dtype=float), float(v["limit"]),
                bool(v["gravity"]), POLICY_NAMES[v["policy"]], float(v["payload"]))

    def compute(self):
        """The table's values for the current controls (see :attr:`values`)."""
        q, qd, qdd, limit, gravity, policy, payload = self.state()
        bare = rod_arm(gravity=9.81 if gravity else 0.0)
        arm = bare.with_payload(payload)
        requested, applied, realized = realized_acceleration(arm, q, qd, qdd, limit,
                                                             policy=policy)
        error = realized - qdd
        capacity, joint = pose_capacity(bare, q, limit)
        return {
            "q": q, "qd": qd, "qdd_request": qdd, "limit": limit, "gravity": gravity,
            "policy": policy, "payload": payload, "arm": arm,
            "requested": requested, "applied": applied, "deficit": applied - requested,
            "qdd": realized, "error": error, "check": mass_matrix(arm, q) @ error,
            "capacity": payload_capacity(bare, q, limit), "pose_capacity": float(capacity),
            "limiting_joint": int(joint),
        }

    def draw(self, v):
        """Move the arm, the ghosts, the bars and the limit lines to the values ``v``."""
        self.drawing.torque_scale = v["limit"]
        self.drawing.update(v["q"], None, v["applied"])
        t = GHOST_TIME
        for key, qdd in (("ghost_request", v["qdd_request"]), ("ghost_realized", v["qdd"])):
            p = joint_positions(v["arm"], v["q"] + v["qd"] * t + 0.5 * qdd * t**2)
            self.artists[key].set_data(p[:, 0], p[:, 1])
        for bars, values in zip(self._tau_bars, (v["requested"], v["applied"])):
            for bar, h in zip(bars, values):
                bar.set_height(h)
        for bars, values in zip(self._acc_bars, (v["qdd_request"], v["qdd"])):
            for bar, h in zip(bars, values):
                bar.set_height(h)
        for s, line in zip((-1, 1), self.artists["limit_lines"]):
            line.set_ydata([s * v["limit"]] * 2)
        self.artists["capacity"].set_text(self.capacity_label(v))
        tau_top = axis_top(1.15 * max(v["limit"], np.abs(v["requested"]).max()))
        acc_top = axis_top(1.15 * max(np.abs(v["qdd_request"]).max(), np.abs(v["qdd"]).max(),
                                      0.1))
        # Keep a range while the bars still fill a quarter of it: fewer full redraws in a drag.
        tau_top, acc_top = (old if old is not None and new <= old <= 4 * new else new
                            for new, old in zip((tau_top, acc_top), self._tops))
        if (tau_top, acc_top) != self._tops:
            self._tops = (tau_top, acc_top)
            self._ax_tau.set_ylim(-tau_top, tau_top)
            self._ax_acc.set_ylim(-acc_top, acc_top)
            self.rescaled()

    @staticmethod
    def capacity_label(v):
        """The pose's payload capacity in a few words, for the arm panel."""
        if not v["gravity"]:
            return "no gravity: any payload"
        pose, joint = v["pose_capacity"], v["limiting_joint"]
        if np.isnan(pose):
            return f"capacity nan: joint {joint + 1}\ncannot hold the arm"
        if np.isinf(pose):
            return "capacity inf: no joint\ncarries a payload"
        return f"capacity {pose:.3f} kg\n(joint {joint + 1} limits)"

    # -- the table ---------------------------------------------------------------------------
    def table_rows(self):
        """The table as ``(quantity, value, unit)`` rows of text."""
        v = self.values
        cap, joint, pose = v["capacity"], v["limiting_joint"], v["pose_capacity"]
        if not v["gravity"]:
            pose_text = "inf (no gravity: loads weigh nothing)"
            joints_text = "inf, inf"
        else:
            joints_text = ", ".join(capacity_text(c) for c in cap)
            pose_text = capacity_text(pose)
            if np.isnan(pose):
                pose_text += f": joint {joint + 1} cannot hold the arm"
            elif np.isfinite(pose):
                pose_text += f": joint {joint + 1} limits"
                if v["payload"] > 0:
                    pose_text += (f" (holds the {v['payload']:.2f} kg payload)"
                                  if v["payload"] <= pose else
                                  f" (the {v['payload']:.2f} kg payload is too heavy)")
        policy = "clipped per joint" if v["policy"] == "clip" else "scaled as a vector"
        return [
            ("requested τ = M q̈ + c + g", pair(v["requested"], ".6f", clean=9), "N m"),
            (f"applied τ ({policy})", pair(v["applied"], ".6f", clean=9), "N m"),
            ("deficit: applied − requested", pair(v["deficit"], ".6f", clean=9), "N m"),
            ("realized q̈", pair(v["qdd"], ".6f", clean=9), "rad/s²"),
            ("error: realized − requested", pair(v["error"], ".6f", clean=9), "rad/s²"),
            ("check: M × error", pair(v["check"], ".6f", clean=9), "N m"),
            ("payload capacity per joint", joints_text, "kg"),
            ("payload capacity of the pose", pose_text, "kg"),
        ]


def limits_lab(preset="horizontal acceleration (25 N m)", render=True):
    """The limits lab: request an acceleration, set the limit, see what the arm really does.

    Parameters
    ----------
    preset : str
        Starting case, a key of :data:`LIMITS_PRESETS`.
    render : bool
        Render the figure to the image widget on every update (turn off to
        drive the lab from code without paying for PNG encoding).

    Returns
    -------
    LimitsLab
        Displays itself as the lab's widgets; ``lab.widgets``, ``lab.figure``,
        ``lab.artists`` and ``lab.values`` expose its state.

    Examples
    --------
    The rods' horizontal request, then the limit lowered to 20 N m:

    >>> lab = limits_lab(render=False)
    >>> lab.values["qdd"].round(6) + 0.0
    array([1., 0.])
    >>> lab.widgets["limit"].value = 20.0
    >>> lab.values["applied"].round(6), lab.values["qdd"].round(6)
    (array([20.      ,  5.738333]), array([-2.92,  9.8 ]))
    """
    return LimitsLab(preset=preset, render=render)


# ------------------------------------------------------------------------ the chapter's figures
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
    from armlab import plots

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
    from matplotlib.patches import Patch

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
    from armlab import plots
    from armlab.dynamics import gravity_torques, inverse_dynamics

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
                    xytext=(-8, 12 * best.bound), ha="right", color=plots.COLORS["force"])
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
    from matplotlib.colors import LogNorm
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from armlab import plots

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
        Gear ratios ``G``.

    Returns
    -------
    dict
        ``"ratios"`` (k,); ``"torque"``, ``"speed"``, ``"best"`` (k,) [s]: the
        shortest duration the torque allows (``inf`` where gravity alone is
        too much), the one the top speed allows, and the larger of the two;
        ``"drive"``: :func:`armlab.reflect_motor` over the ratios;
        ``"T_ref"`` [s], the fastest move of the sweep, with the shoulder's
        ``"peak_speed"`` [rad/s], ``"peak_acc"`` [rad/s^2] and the arm's own
        ``"need"`` [N m] (its peak shoulder torque, without motor) in it;
        ``"lengths"``, ``"masses"``, ``"move"`` (the arm and the move, as given).

    Examples
    --------
    >>> from armlab import Motor
    >>> m = Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6)
    >>> s = gear_sweep(m, (0.3, 0.25), (2.0, 1.0), np.radians([-45, 90]),
    ...                np.radians([60, -30]), [40, 80])
    >>> s["torque"].round(3), s["speed"].round(3)
    (array([  inf, 0.621]), array([0.314, 0.628]))
    """

    ratios = np.asarray(ratios, dtype=float)
    drive = reflect_motor(motor, ratios)
    torque_T = np.array([_geared_durations(motor, lengths, masses, q_start, q_end, G)[0]
                         for G in ratios])
    # The speed alone (a torque limit no motion of this arm comes near): the joint's top
    # speed is the motor's over G, so the duration it allows grows in proportion to G.
    direct = shortest_duration(PlanarArm(lengths, masses), q_start, q_end, 1e9,
                               speed_limit=motor.speed, samples=3).duration
    speed_T = direct * ratios
    best = np.maximum(torque_T, speed_T)
    T_ref = best[np.isfinite(best)].min()
    return {"ratios": ratios, "torque": torque_T, "speed": speed_T, "best": best,
            "drive": drive, **_shoulder_peaks(lengths, masses, q_start, q_end, T_ref),
            "lengths": lengths, "masses": masses, "move": (q_start, q_end)}


def _shoulder_peaks(lengths, masses, q_start, q_end, T):
    """The shoulder's peak speed and acceleration, and the arm's own peak torque there, in the
    move run in ``T`` seconds: ``"T_ref"``, ``"peak_speed"``, ``"peak_acc"``, ``"need"``."""
    from armlab.dynamics import inverse_dynamics

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
        along the move at any speed, ``max g_1 / (tau_m - Tc)`` over the path
        (a turning motor's Coulomb friction included); ``"best"`` and
        ``"T_best"``: the ratio of the fastest move and its duration [s] (the
        crossing where there is one, else the torque's best).

    Examples
    --------
    >>> from armlab import Motor
    >>> m = Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6)
    >>> move = np.radians([-45, 90]), np.radians([60, -30])
    >>> sweep = gear_sweep(m, (0.3, 0.25), (2.0, 1.0), *move, np.geomspace(30, 500, 12))
    >>> best = gear_optimum(m, (0.3, 0.25), (2.0, 1.0), *move, sweep)
    >>> round(best["crossing"], 2), round(best["T_crossing"], 4), round(best["hold"], 2)
    (79.5, 0.6244, 46.89)
    """
    from armlab.dynamics import gravity_torques

    ratios = sweep["ratios"]
    durations = (motor, lengths, masses, q_start, q_end)
    gaps = sweep["torque"] - sweep["speed"]
    bracket = np.flatnonzero((gaps[:-1] > 0) & (gaps[1:] <= 0))
    crossing = np.nan
    if bracket.size:
        lo, hi = float(ratios[bracket[0]]), float(ratios[bracket[0] + 1])
        while hi - lo > 1e-9 * hi:
            mid = 0.5 * (lo + hi)
            torque, speed = _geared_durations(*durations, mid)
            lo, hi = (mid, hi) if torque > speed else (lo, mid)
        crossing = 0.5 * (lo + hi)

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
    torque_best = float(np.exp(0.5 * (a + b)))
    q = quintic(q_start, q_end, 1.0)(np.linspace(0.0, 1.0, 20001))[0]
    hold = gravity_torques(PlanarArm(lengths, masses), q)[:, 0].max() / (motor.torque
                                                                        - motor.coulomb)
    T_torque_best = float(torque_T(np.log(torque_best)))
    T_crossing = (float(max(_geared_durations(*durations, crossing))) if bracket.size
                  else np.nan)
    best, T_best = (crossing, T_crossing) if bracket.size else (torque_best, T_torque_best)
    return {"crossing": float(crossing), "T_crossing": T_crossing, "torque_best": torque_best,
            "T_torque_best": T_torque_best, "best": float(best), "T_best": float(T_best),
            "hold": float(hold)}


def gear_figure(sweep, worked=None, fastest=None):
    """What a gear ratio buys and costs: friction and inertia at the joint, and the fastest move.

    Parameters
    ----------
    sweep : dict
        :func:`gear_sweep`'s result.
    worked : float, optional
        A ratio to mark.
    fastest : float, optional
        The duration of the fastest move [s] (:func:`gear_optimum`'s
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
    from matplotlib.ticker import NullFormatter

    from armlab import plots

    ratios, drive = sweep["ratios"], sweep["drive"]
    if fastest is not None:
        sweep = {**sweep, **_shoulder_peaks(sweep["lengths"], sweep["masses"], *sweep["move"],
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
    from armlab import plots
    from armlab.dynamics import inverse_dynamics

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
        Gear ratio.
    dwell : float
        Time held at each end [s].

    Returns
    -------
    dict
        ``"duration"`` [s] of each move; ``"t"`` (k,) [s], ``"q"``, ``"qd"`` and
        ``"tau"`` (k, 2) [rad], [rad/s], [N m] over the cycle; ``"rms"`` (2,) [N m]
        (:func:`armlab.rms_torque`) and ``"peak"`` (2,) [N m].

    Examples
    --------
    >>> from armlab import Motor
    >>> m = Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6, stall_torque=0.3)
    >>> c = duty_cycle(m, (0.3, 0.25), (2.0, 1.0), np.radians([-45, 90]),
    ...                np.radians([60, -30]), 64.0, 1.0)
    >>> round(c["duration"], 4), c["rms"].round(2)
    (0.7947, array([5.35, 1.03]))
    """
    from armlab.dynamics import gravity_torques, inverse_dynamics
    from armlab.limits import rms_torque

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


def motor_figure(motor, cycle, G, sweeps, thermal=None):
    """A motor's torque-speed envelope at the shoulder with a duty cycle in it, and what the
    torque-speed line and the heat do to the choice of gear.

    Parameters
    ----------
    motor : Motor
        With a torque-speed line and a continuous rating.
    cycle : dict
        :func:`duty_cycle` at ratio ``G``.
    G : float
        The ratio of ``cycle``.
    sweeps : sequence of (label, sweep)
        :func:`gear_sweep` results to compare, each drawn as its shortest move.
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
    from armlab import plots

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
    ax_e.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2)
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
    from matplotlib.ticker import NullFormatter

    ax_g.xaxis.set_minor_formatter(NullFormatter())
    ax_g.set_ylim(0, 2.0)
    ax_g.set_xlabel("gear ratio G")
    ax_g.set_ylabel("shortest move [s]")
    ax_g.set_title("the shortest move, by gear ratio")
    ax_g.grid(alpha=0.3, which="both")
    ax_g.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2)
    return fig
