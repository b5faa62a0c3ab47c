"""Matplotlib drawings of a planar arm: links, tip force and velocity, joint torques, ellipses.

Every position and Jacobian drawn here comes from :mod:`armlab.kinematics`;
this module only turns them into artists. Drawings are objects that keep their
artists and change them in place (``set_data``, ``set_positions``, ...), so a
lab can redraw a pose without making a new figure.

Conventions: world frame x right, y up, metres; angles in radians; a tip force
is the force the tip applies to the environment [N]; a positive joint torque
turns its joint counter-clockwise [N m].

``import armlab`` does not import this module (it needs matplotlib).
"""

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Ellipse, FancyArrowPatch, Polygon, Rectangle, Wedge

from armlab.kinematics import com_positions, jacobian, joint_positions, tip_position
from armlab.manipulability import manipulability, reach, velocity_ellipse
from armlab.statics import force_ellipse, force_polygon, max_tip_force, static_torques

__all__ = ["ArmDrawing", "BookFigure", "Workspace", "figure", "force_box", "manipulability_map",
           "time_plot"]

# One palette for the whole book (colour-blind safe, Okabe-Ito).
COLORS = {
    "arm": "#404040",
    "joint": "#ffffff",
    "force": "#D55E00",
    "torque": "#0072B2",
    "ellipse": "#009E73",
    "weight": "#7F7F7F",
    "limit": "#CC79A7",
    "velocity": "#E69F00",
    "speed_ellipse": "#56B4E9",
    "columns": ("#0072B2", "#CC79A7", "#009E73", "#D55E00"),
    "workspace": "#E8E8E8",
}

# Largest sweep of a torque arrow, reached at ``torque_scale`` [rad].
_MAX_SWEEP = np.radians(300.0)


def _place_ellipse(patch, centre, half, directions):
    """Move an Ellipse patch: half-axes ``half`` (2,) [drawing units] along the columns."""
    patch.set_center(tuple(centre))
    patch.set_width(2 * half[0])
    patch.set_height(2 * half[1])
    patch.set_angle(np.degrees(np.arctan2(directions[1, 0], directions[0, 0])))
    patch.set_visible(True)


class BookFigure(Figure):
    """A matplotlib Figure that shows itself as a PNG in Jupyter without pyplot."""

    def _repr_png_(self):
        import io

        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=100)
        return buffer.getvalue()


def figure(ncols=1, nrows=1, *, width=6.4, height=4.0, **kwargs):
    """A new figure and its axes, kept out of pyplot's global state.

    The figure draws on an Agg canvas. In Jupyter it shows as a PNG when it is
    a cell's last value (or through ``display(fig)``); it never shows by
    itself, so a lab can keep redrawing it without new outputs.

    Parameters
    ----------
    ncols, nrows : int
        Grid of axes.
    width, height : float
        Figure size [inch].
    **kwargs
        Passed to :meth:`Figure.subplots` (``sharey``, ``gridspec_kw``, ...).

    Returns
    -------
    fig : BookFigure
    axes : Axes or array of Axes (as :meth:`Figure.subplots` returns them)
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = BookFigure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, **kwargs)
    return fig, axes


class ArmDrawing:
    """One arm on one axes: links, joints, tip force and velocity, joint torques, ellipses.

    Parameters
    ----------
    ax : matplotlib Axes
    arm : PlanarArm
    q : (n,) array_like
        Joint angles [rad].
    tip_force : (2,) array_like, optional
        Force the tip applies [N]; drawn as an arrow from the tip.
    tau : (n,) array_like, optional
        Joint torques [N m]; drawn as curved arrows round the joints,
        counter-clockwise for positive torque.
    ellipse_torque : float, optional
        Draw the ellipse of tip forces held with ``|tau| <= ellipse_torque`` [N m].
    weights : bool
        Draw each link's weight at its centre of mass.
    force_scale : float
        Length of the force arrow per newton [m/N].
    torque_scale : float
        Torque drawn as the longest arc, 300 degrees [N m].
    torque_radius : float
        Radius of the torque arcs [m].
    labels : bool
        Write the torque and force values next to their arrows.
    qd : (n,) array_like, optional
        Joint velocities [rad/s]; with ``velocity=True``, the tip velocity
        ``J qd`` is drawn as an arrow from the tip and the velocity ellipse of
        joint speeds of the same size around it.
    velocity : bool
        Make the tip-velocity arrow and the velocity ellipse.
    columns : bool
        Draw the Jacobian's columns at the tip (the tip velocity when joint
        ``j`` alone turns at 1 rad/s) and, dashed, the lever ``p_tip - p_j``
        each is perpendicular to.
    velocity_time : float
        Velocities are drawn as the displacement they make in this time [s],
        so the drawing scales with the arm.

    Attributes
    ----------
    artists : dict
        ``"links"``, ``"joints"``, ``"force"``, ``"torque_arcs"``,
        ``"torque_heads"``, ``"torque_labels"``, ``"torque_text"``, ``"ellipse"``,
        ``"weights"``; with ``velocity``, ``"velocity"`` and
        ``"velocity_ellipse"``; with ``columns``, ``"columns"``, ``"levers"`` and
        ``"column_labels"`` (lists, one per joint).
    """

    def __init__(self, ax, arm, q, tip_force=None, tau=None, *, ellipse_torque=None,
                 weights=False, force_scale=0.01, torque_scale=20.0, torque_radius=0.07,
                 labels=True, color=None, qd=None, velocity=False, columns=False,
                 velocity_time=0.25):
        self.ax, self.arm = ax, arm
        self.velocity_time = velocity_time
        self.force_scale, self.torque_scale = force_scale, torque_scale
        self.torque_radius, self.labels = torque_radius, labels
        self.ellipse_torque = ellipse_torque
        a = self.artists = {}
        reach = sum(arm.lengths)
        ax.plot([-0.06 * reach, 0.06 * reach], [0, 0], color=COLORS["arm"], lw=3,
                solid_capstyle="butt", zorder=2)
        ax.fill_between([-0.06 * reach, 0.06 * reach], [-0.035 * reach] * 2, [0, 0],
                        hatch="////", facecolor="none", edgecolor=COLORS["weight"], lw=0,
                        zorder=1)
        (a["links"],) = ax.plot([], [], color=color or COLORS["arm"], lw=5,
                                solid_capstyle="round", zorder=3)
        (a["joints"],) = ax.plot([], [], "o", ms=8, mfc=COLORS["joint"],
                                 mec=color or COLORS["arm"], mew=2, zorder=4)
        a["ellipse"] = Ellipse((0, 0), 0, 0, facecolor=COLORS["ellipse"] + "33",
                               edgecolor=COLORS["ellipse"], lw=1.5, zorder=0, visible=False)
        ax.add_patch(a["ellipse"])
        a["force"] = FancyArrowPatch((0, 0), (0, 0), arrowstyle="-|>", mutation_scale=18,
                                     color=COLORS["force"], lw=2.5, zorder=6, visible=False)
        ax.add_patch(a["force"])
        a["force_label"] = ax.text(0, 0, "", color=COLORS["force"], fontsize=9, zorder=7,
                                   ha="center", va="bottom")
        a["torque_text"] = ax.text(0.03, 0.97, "", transform=ax.transAxes, ha="left", va="top",
                                   color=COLORS["torque"], fontsize=9, zorder=7,
                                   bbox=dict(facecolor="white", edgecolor="none", alpha=0.8))
        a["torque_arcs"], a["torque_heads"], a["torque_labels"] = [], [], []
        for _ in range(arm.n):
            (arc,) = ax.plot([], [], color=COLORS["torque"], lw=2, zorder=5)
            head = FancyArrowPatch((0, 0), (0, 0), arrowstyle="-|>", mutation_scale=14,
                                   color=COLORS["torque"], lw=0, zorder=5, visible=False)
            ax.add_patch(head)
            a["torque_arcs"].append(arc)
            a["torque_heads"].append(head)
            a["torque_labels"].append(ax.text(0, 0, "", color=COLORS["torque"], fontsize=9,
                                              ha="right", va="top", zorder=7))
        a["weights"] = []
        if weights:
            for _ in range(arm.n):
                w = FancyArrowPatch((0, 0), (0, 0), arrowstyle="-|>", mutation_scale=12,
                                    color=COLORS["weight"], lw=1.5, zorder=5)
                ax.add_patch(w)
                a["weights"].append(w)
        if velocity:
            a["velocity_ellipse"] = Ellipse((0, 0), 0, 0, facecolor=COLORS["speed_ellipse"] + "40",
                                            edgecolor=COLORS["speed_ellipse"], lw=1.5, zorder=1)
            ax.add_patch(a["velocity_ellipse"])
            a["velocity"] = FancyArrowPatch((0, 0), (0, 0), arrowstyle="-|>", mutation_scale=16,
                                            color=COLORS["velocity"], lw=2.5, zorder=6)
            ax.add_patch(a["velocity"])
        if columns:
            a["columns"], a["levers"], a["column_labels"] = [], [], []
            for j in range(arm.n):
                c = COLORS["columns"][j % len(COLORS["columns"])]
                (lever,) = ax.plot([], [], ls="--", lw=1.2, color=c, zorder=2)
                arrow = FancyArrowPatch((0, 0), (0, 0), arrowstyle="-|>", mutation_scale=14,
                                        color=c, lw=2, zorder=6)
                ax.add_patch(arrow)
                a["levers"].append(lever)
                a["columns"].append(arrow)
                a["column_labels"].append(ax.text(0, 0, f"J col {j + 1}", color=c, fontsize=9,
                                                  ha="center", va="center", zorder=7))
        ax.set_aspect("equal")
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        self.update(q, tip_force, tau, qd=qd)

    def update(self, q, tip_force=None, tau=None, ellipse_torque=None, qd=None):
        """Move every artist to a new pose and load, in place.

        Parameters are those of the constructor; ``None`` hides the arrow (or,
        for ``ellipse_torque``, keeps the size given before; for ``qd``, draws
        the velocity ellipse of 1 rad/s and no velocity arrow).
        """
        a = self.artists
        self.q = np.asarray(q, dtype=float)
        p = joint_positions(self.arm, self.q)
        a["links"].set_data(p[:, 0], p[:, 1])
        a["joints"].set_data(p[:-1, 0], p[:-1, 1])
        tip = p[-1]

        if tip_force is None or not np.any(tip_force):
            a["force"].set_visible(False)
            a["force_label"].set_text("")
        else:
            f = np.asarray(tip_force, dtype=float)
            a["force"].set_positions(tuple(tip), tuple(tip + self.force_scale * f))
            a["force"].set_visible(True)
            if self.labels:
                side = np.array([-f[1], f[0]]) / np.linalg.norm(f)   # beside the arrow
                if side[1] < 0:
                    side = -side
                # Anchor at the tip, text running away from the arrow's head.
                a["force_label"].set_position(tuple(tip + 0.04 * side))
                a["force_label"].set_ha("right" if f[0] > 1e-9 else
                                        "left" if f[0] < -1e-9 else "center")
                a["force_label"].set_text(f"F = ({f[0]:.1f}, {f[1]:.1f}) N")

        headings = np.arctan2(*(p[1:] - p[:-1]).T[::-1])   # absolute link angles
        for j in range(self.arm.n):
            arc, head, label = (a["torque_arcs"][j], a["torque_heads"][j],
                                a["torque_labels"][j])
            t = 0.0 if tau is None else float(np.asarray(tau)[j])
            centre = self._free_side(headings, j)
            spot = p[j] + (self.torque_radius + 0.05) * np.array([np.cos(centre),
                                                                  np.sin(centre)])
            label.set_position(tuple(spot))
            label.set_ha("right" if np.cos(centre) < -0.3 else
                         "left" if np.cos(centre) > 0.3 else "center")
            label.set_va("top" if np.sin(centre) < -0.3 else
                         "bottom" if np.sin(centre) > 0.3 else "center")
            label.set_text("" if tau is None or not self.labels else f"τ{j + 1}")
            if abs(t) < 1e-9:
                arc.set_data([], [])
                head.set_visible(False)
                continue
            sweep = np.sign(t) * _MAX_SWEEP * min(abs(t) / self.torque_scale, 1.0)
            sweep = np.sign(t) * max(abs(sweep), np.radians(40))      # always visible
            ang = centre - sweep / 2 + np.linspace(0, sweep, 60)
            xy = p[j] + self.torque_radius * np.stack([np.cos(ang), np.sin(ang)], axis=-1)
            arc.set_data(xy[:-4, 0], xy[:-4, 1])
            head.set_positions(tuple(xy[-6]), tuple(xy[-1]))
            head.set_visible(True)

        a["torque_text"].set_text(
            "" if tau is None or not self.labels else
            "\n".join(f"τ{j + 1} = {float(np.asarray(tau)[j]):.2f} N m"
                      for j in range(self.arm.n)))

        if ellipse_torque is not None:
            self.ellipse_torque = ellipse_torque
        if self.ellipse_torque:
            half, dirs = force_ellipse(self.arm, self.q, self.ellipse_torque)
            # a structure-carried axis is infinite: draw it very long
            _place_ellipse(a["ellipse"], tip, np.minimum(half, 1e4) * self.force_scale, dirs)
        else:
            a["ellipse"].set_visible(False)

        if "velocity" in a:
            speed = 1.0 if qd is None or not np.any(qd) else float(np.linalg.norm(qd))
            half, dirs = velocity_ellipse(self.arm, self.q, speed)
            _place_ellipse(a["velocity_ellipse"], tip, half * self.velocity_time, dirs)
            if qd is None or not np.any(qd):
                a["velocity"].set_visible(False)
            else:
                v = jacobian(self.arm, self.q) @ np.asarray(qd, dtype=float)
                a["velocity"].set_positions(tuple(tip), tuple(tip + self.velocity_time * v))
                a["velocity"].set_visible(bool(np.linalg.norm(v) > 1e-9))

        if "columns" in a:
            J = jacobian(self.arm, self.q)
            for j in range(self.arm.n):
                a["levers"][j].set_data([p[j, 0], tip[0]], [p[j, 1], tip[1]])
                end = tip + self.velocity_time * J[:, j]
                a["columns"][j].set_positions(tuple(tip), tuple(end))
                a["columns"][j].set_visible(bool(np.linalg.norm(J[:, j]) > 1e-9))
                a["column_labels"][j].set_position(tuple(tip + 1.25 * self.velocity_time
                                                         * J[:, j]))

        if a["weights"]:
            com = com_positions(self.arm, self.q)
            g = np.asarray(self.arm.gravity)
            for i, w in enumerate(a["weights"]):
                w.set_positions(tuple(com[i]),
                                tuple(com[i] + self.force_scale * self.arm.masses[i] * g))
        return self

    @staticmethod
    def _free_side(headings, j):
        """Direction [rad] round joint ``j`` with the most room, away from its links."""
        out = headings[j]
        if j == 0:
            return out + np.pi
        back = headings[j - 1] + np.pi
        vx, vy = np.cos(out) + np.cos(back), np.sin(out) + np.sin(back)
        if np.hypot(vx, vy) < 1e-6:                       # a straight joint: either side
            return out - np.pi / 2
        return np.arctan2(vy, vx) + np.pi                 # bisector of the wider gap

    def frame(self, margin=0.15):
        """Set equal axis limits that show the whole reach of the arm (plus a margin) [m]."""
        r = sum(self.arm.lengths) + margin
        self.ax.set_xlim(-r, r)
        self.ax.set_ylim(-r, r)
        return self


class Workspace:
    """The annulus a planar arm's tip reaches, shaded, with its two boundary circles.

    The outer circle (radius ``sum(L)``) is reached with the arm stretched, the
    inner one with it folded; both are made of singular poses. Joints turn
    freely (no joint limits).

    Parameters
    ----------
    ax : matplotlib Axes
    arm : PlanarArm
    labels : bool
        Name the two circles by the pose that reaches them.

    Attributes
    ----------
    artists : dict
        ``"area"`` (a Wedge), ``"outer"`` and ``"inner"`` (lines),
        ``"outer_label"``, ``"inner_label"`` (texts).
    """

    def __init__(self, ax, arm, *, labels=False):
        self.ax, self.labels = ax, labels
        a = self.artists = {}
        a["area"] = Wedge((0, 0), 1.0, 0, 360, width=1.0, facecolor=COLORS["workspace"],
                          edgecolor="none", zorder=0)
        ax.add_patch(a["area"])
        (a["outer"],) = ax.plot([], [], ls=":", lw=1.2, color=COLORS["arm"], zorder=1)
        (a["inner"],) = ax.plot([], [], ls=":", lw=1.2, color=COLORS["arm"], zorder=1)
        a["outer_label"] = ax.text(0, 0, "", fontsize=8, color=COLORS["arm"], ha="center",
                                   va="bottom", zorder=7)
        a["inner_label"] = ax.text(0, 0, "", fontsize=8, color=COLORS["arm"], ha="center",
                                   va="top", zorder=7)
        self.update(arm)

    def update(self, arm):
        """Redraw for another arm, in place."""
        a = self.artists
        self.radii = r_min, r_max = reach(arm)
        a["area"].set_radius(r_max)
        a["area"].set_width(r_max - r_min)
        t = np.linspace(0, 2 * np.pi, 241)
        a["outer"].set_data(r_max * np.cos(t), r_max * np.sin(t))
        a["inner"].set_data(r_min * np.cos(t), r_min * np.sin(t))
        if self.labels:
            a["outer_label"].set_position((0, r_max))
            a["outer_label"].set_text(f"stretched, q2 = 0: r = {r_max:.2f} m")
            a["inner_label"].set_position((0, -r_min))
            a["inner_label"].set_text(f"folded, q2 = 180°: r = {r_min:.2f} m" if r_min > 0
                                      else "")
        return self


def manipulability_map(ax, arm, step_deg=2.0, vmax=None):
    """The workspace of a two-link arm, coloured by the manipulability of the pose there.

    The poses ``q1`` in a full turn and ``q2`` from 0 to 180 degrees (elbow on
    one side) reach every point of the workspace once; their tips
    (:func:`armlab.tip_position`) form a curved mesh, each node coloured by
    :func:`armlab.manipulability`. The colour is zero on the boundary circles.

    Parameters
    ----------
    ax : matplotlib Axes
    arm : PlanarArm
        Two joints.
    step_deg : float
        Grid step of both joint angles [deg].
    vmax : float, optional
        Top of the colour scale [m^2/rad^2]; default ``L1 L2``, the largest.

    Returns
    -------
    matplotlib.collections.QuadMesh
        The mesh (for a colour bar).
    """
    q1 = np.radians(np.arange(-180.0, 180.0 + step_deg / 2, step_deg))
    q2 = np.radians(np.arange(0.0, 180.0 + step_deg / 2, step_deg))
    q = np.stack(np.meshgrid(q1, q2, indexing="ij"), axis=-1)
    tips = tip_position(arm, q)
    mesh = ax.pcolormesh(tips[..., 0], tips[..., 1], manipulability(arm, q), shading="gouraud",
                         cmap="viridis", vmin=0, vmax=vmax or float(np.prod(arm.lengths)),
                         zorder=1)
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    return mesh


def force_box(ax_torque, ax_force, arm, q, limit, direction=(1.0, 0.0), *, force_top=None):
    """The per-joint torque box and the parallelogram of tip forces it holds, side by side.

    Left, the torques: the box ``|tau_j| <= limit``, the disc ``|tau| <= limit``
    inside it, and ``J^T F`` for the largest push along ``direction``. Right, the
    tip forces: the parallelogram ``F = J^{-T} tau`` over the box, the force
    ellipse of the disc (inscribed in it), and the push itself, from zero to
    where it leaves the parallelogram.

    Parameters
    ----------
    ax_torque, ax_force : matplotlib Axes
    arm : PlanarArm
        Two joints.
    q : (2,) array_like
        Joint angles [rad]; not singular.
    limit : float
        Symmetric torque limit per joint [N m].
    direction : (2,) array_like
        Direction of the push [world frame].
    force_top : float, optional
        Half-width of the force axes [N]; default: fits the parallelogram.

    Returns
    -------
    dict
        ``"corners"`` (4, 2) [N] and ``"push"`` (2,) [N], as drawn, and the
        artists ``"box"``, ``"polygon"``, ``"ellipse"``, ``"ray"``.
    """
    d = np.asarray(direction, dtype=float) / np.linalg.norm(direction)
    corners = force_polygon(arm, q, limit)
    push = float(max_tip_force(arm, q, d, limit)) * d
    tau_push = static_torques(arm, q, push)
    t = np.linspace(0, 2 * np.pi, 200)

    box = Rectangle((-limit, -limit), 2 * limit, 2 * limit, facecolor=COLORS["torque"] + "22",
                    edgecolor=COLORS["torque"], lw=1.5)
    ax_torque.add_patch(box)
    ax_torque.plot(limit * np.cos(t), limit * np.sin(t), color=COLORS["ellipse"], lw=1.5)
    ax_torque.plot([0, tau_push[0]], [0, tau_push[1]], color=COLORS["force"], lw=2)
    ax_torque.plot(*tau_push, "o", color=COLORS["force"])
    ax_torque.annotate(f"Jᵀ F = ({tau_push[0]:.0f}, {tau_push[1]:.0f}) N m", tau_push,
                       textcoords="offset points", xytext=(0, -8 if tau_push[1] < 0 else 8),
                       fontsize=8, ha="center" if abs(tau_push[0]) < 0.5 * limit else
                       ("left" if tau_push[0] < 0 else "right"),
                       va="top" if tau_push[1] < 0 else "bottom", color=COLORS["force"])
    top = 1.5 * limit
    ax_torque.set_xlim(-top, top)
    ax_torque.set_ylim(-top, top)
    ax_torque.set_aspect("equal")
    ax_torque.set_xlabel("τ1 [N m]")
    ax_torque.set_ylabel("τ2 [N m]")
    ax_torque.grid(alpha=0.3)

    polygon = Polygon(corners, closed=True, facecolor=COLORS["torque"] + "22",
                      edgecolor=COLORS["torque"], lw=1.5)
    ax_force.add_patch(polygon)
    half, dirs = force_ellipse(arm, q, limit)
    ellipse = Ellipse((0, 0), 0, 0, facecolor="none", edgecolor=COLORS["ellipse"], lw=1.5)
    _place_ellipse(ellipse, (0, 0), half, dirs)
    ax_force.add_patch(ellipse)
    (ray,) = ax_force.plot([0, push[0]], [0, push[1]], color=COLORS["force"], lw=2)
    ax_force.plot(*push, "o", color=COLORS["force"])
    ax_force.annotate(f"largest push {np.linalg.norm(push):.0f} N", push,
                      textcoords="offset points", xytext=(6, -14), fontsize=8,
                      color=COLORS["force"])
    top = force_top or 1.15 * np.abs(corners).max()
    ax_force.set_xlim(-top, top)
    ax_force.set_ylim(-top, top)
    ax_force.set_aspect("equal")
    ax_force.set_xlabel("Fx [N]")
    ax_force.set_ylabel("Fy [N]")
    ax_force.grid(alpha=0.3)
    return {"corners": corners, "push": push, "box": box, "polygon": polygon,
            "ellipse": ellipse, "ray": ray}


def time_plot(ax, t, series, labels=None, ylabel="", *, limits=None):
    """Plot one or more signals against time.

    Parameters
    ----------
    ax : matplotlib Axes
    t : (k,) array_like
        Time [s].
    series : (k,) or (k, m) array_like
        The signals, one column each.
    labels : sequence of str, optional
        Legend entries, one per column.
    ylabel : str
        Axis label with its unit, e.g. ``"torque [N m]"``.
    limits : float, optional
        Draw dashed lines at ``+-limits``.

    Returns
    -------
    lines : list of Line2D
    """
    values = np.asarray(series, dtype=float)
    if values.ndim == 1:
        values = values[:, None]
    lines = ax.plot(np.asarray(t, dtype=float), values)
    if limits is not None:
        for s in (-1, 1):
            ax.axhline(s * limits, color=COLORS["limit"], ls="--", lw=1)
    if labels is not None:
        for line, label in zip(lines, labels):
            line.set_label(label)
        ax.legend(frameon=False)
    ax.set_xlabel("time t [s]")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    return lines
