"""Matplotlib drawings of a planar arm: links, tip force, joint torques, force ellipse.

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
from matplotlib.patches import Ellipse, FancyArrowPatch

from armlab.kinematics import com_positions, joint_positions
from armlab.statics import force_ellipse

__all__ = ["ArmDrawing", "BookFigure", "figure", "time_plot"]

# One palette for the whole book (colour-blind safe, Okabe-Ito).
COLORS = {
    "arm": "#404040",
    "joint": "#ffffff",
    "force": "#D55E00",
    "torque": "#0072B2",
    "ellipse": "#009E73",
    "weight": "#7F7F7F",
    "limit": "#CC79A7",
}

# Largest sweep of a torque arrow, reached at ``torque_scale`` [rad].
_MAX_SWEEP = np.radians(300.0)


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
    """One arm on one axes: links, joints, tip force, joint torques, force ellipse.

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

    Attributes
    ----------
    artists : dict
        ``"links"``, ``"joints"``, ``"force"``, ``"torque_arcs"``,
        ``"torque_heads"``, ``"torque_labels"``, ``"torque_text"``, ``"ellipse"``,
        ``"weights"``.
    """

    def __init__(self, ax, arm, q, tip_force=None, tau=None, *, ellipse_torque=None,
                 weights=False, force_scale=0.01, torque_scale=20.0, torque_radius=0.07,
                 labels=True, color=None):
        self.ax, self.arm = ax, arm
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
        ax.set_aspect("equal")
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        self.update(q, tip_force, tau)

    def update(self, q, tip_force=None, tau=None, ellipse_torque=None):
        """Move every artist to a new pose and load, in place.

        Parameters are those of the constructor; ``None`` hides the arrow (or,
        for ``ellipse_torque``, keeps the size given before).
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
        e = a["ellipse"]
        if self.ellipse_torque:
            half, dirs = force_ellipse(self.arm, self.q, self.ellipse_torque)
            half = np.minimum(half, 1e4)          # a structure-carried axis: very long
            e.set_center(tuple(tip))
            e.set_width(2 * half[0] * self.force_scale)
            e.set_height(2 * half[1] * self.force_scale)
            e.set_angle(np.degrees(np.arctan2(dirs[1, 0], dirs[0, 0])))
            e.set_visible(True)
        else:
            e.set_visible(False)

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
