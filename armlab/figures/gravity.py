"""The gravity chapter's drawing: an arm in the world frame with its weights
(:class:`WeightDrawing`), for the chapter's figures and its lab.
"""

import numpy as np
from matplotlib import patheffects

from armlab.kinematics import com_positions, joint_positions
from armlab.plots import COLORS, com_styles, joint_style

__all__ = ["WeightDrawing"]


def _turn(points, angle):
    """Points ``(..., 2)`` of the arm's frame in the world frame of a base turned by ``angle``."""
    c, s = np.cos(angle), np.sin(angle)
    return np.stack([c * points[..., 0] - s * points[..., 1],
                     s * points[..., 0] + c * points[..., 1]], axis=-1)


class WeightDrawing:
    """An arm in the world frame with its weights: links, centres of mass, weight arrows, the
    vertical lines the weights act along, a payload, a mounting plate and a sagged ghost.

    Drawn in the world frame (down is down) for an arm whose base is turned by
    its mounting angle. Every artist is made once and moved by :meth:`update`.

    Parameters
    ----------
    ax : matplotlib Axes
    arm : PlanarArm
        The arm without payload, mounted (its gravity gives the mounting angle).
    q : (2,) array_like
        Joint angles [rad] in the arm's own frame.
    payload : float
        Point mass at the tip [kg].
    force_scale : float
        Length of a weight arrow per newton [m/N].

    labels : bool
        Write each weight's size next to its arrow.

    Attributes
    ----------
    artists : dict
        The artists that move with the pose: ``"links"``, ``"joints"``, ``"coms"`` and
        ``"com_quarters"`` (the centre-of-mass marker's two layers),
        ``"weights"`` (one arrow per link and one for the payload: a line ending
        in a downward triangle), ``"actions"`` (lines of action), ``"payload"``,
        ``"ghost"``, ``"weight_labels"`` (empty without ``labels``), and the
        mounting surface, ``"plate"`` and its ``"hatch"`` (short strokes).
    mount : float
        The base's turn from a floor mounting [rad], from the arm's gravity.
    """

    def __init__(self, ax, arm, q, payload=0.0, *, force_scale=0.02, labels=True):
        self.ax, self.force_scale, self.labels = ax, force_scale, labels
        self.colors = [COLORS["torque"], COLORS["force"], COLORS["limit"]]
        a = self.artists = {}
        (a["plate"],) = ax.plot([], [], color=COLORS["arm"], lw=4, solid_capstyle="butt",
                                zorder=2)
        (a["hatch"],) = ax.plot([], [], color=COLORS["weight"], lw=0.8, zorder=1)
        (a["ghost"],) = ax.plot([], [], color=COLORS["weight"], lw=3, ls=(0, (2, 1.5)),
                                alpha=0.8, zorder=2, solid_capstyle="round")
        (a["links"],) = ax.plot([], [], color=COLORS["arm"], lw=5, solid_capstyle="round",
                                zorder=3)
        (a["joints"],) = ax.plot([], [], **joint_style(), zorder=4)
        a["actions"] = [ax.plot([], [], color=c, lw=0.9, ls=":", zorder=1)[0]
                        for c in self.colors]
        # centres of mass: the quartered circle, distinct from the joints' open circles
        face, quarters = com_styles()
        (a["coms"],) = ax.plot([], [], **face, zorder=8)
        (a["com_quarters"],) = ax.plot([], [], **quarters, zorder=8)
        (a["payload"],) = ax.plot([], [], "s", ms=6, color=self.colors[2], zorder=4)
        # Weights point straight down in the world: a line with a triangle at its end
        # (much cheaper to redraw than an arrow patch), drawn over the links with a white
        # rim, so that a weight hanging along a steep link stays in sight.
        halo = [patheffects.Stroke(linewidth=4.5, foreground="white"), patheffects.Normal()]
        a["weights"] = [ax.plot([], [], color=color, lw=2.2, marker="v", ms=9, markevery=[1],
                                zorder=7, path_effects=halo)[0] for color in self.colors]
        a["weight_labels"] = [ax.text(0, 0, "", color=color, zorder=9, ha="left", va="top")
                              for color in (self.colors if labels else [])]
        ax.set_aspect("equal")
        ax.set_xlabel("x [m] (world)")
        ax.set_ylabel("y [m] (world, up)")
        self.update(arm, q, payload)

    def update(self, arm, q, payload=0.0, ghost=None, shown=(True, True, True)):
        """Move every artist: arm, pose [rad], payload [kg], sagged pose [rad], shares shown."""
        a = self.artists
        g = np.asarray(arm.gravity)
        g0 = float(np.hypot(*g))
        # the base's turn: the arm frame's (0, -g0) is world down
        self.mount = float(np.arctan2(-g[0], -g[1])) if g0 > 0 else 0.0
        reach = sum(arm.lengths)
        p = _turn(joint_positions(arm, q), self.mount)
        c = _turn(com_positions(arm, q), self.mount)
        a["links"].set_data(p[:, 0], p[:, 1])
        a["joints"].set_data(p[:-1, 0], p[:-1, 1])
        a["coms"].set_data(c[:, 0], c[:, 1])
        a["com_quarters"].set_data(c[:, 0], c[:, 1])
        half, depth = 0.12 * reach, 0.07 * reach
        plate = _turn(np.array([[-half, 0.0], [half, 0.0]]), self.mount)
        a["plate"].set_data(plate[:, 0], plate[:, 1])
        # the surface behind the plate: short strokes, one line broken by NaN
        x0 = np.linspace(-half, half - depth, 7)
        strokes = np.stack([np.c_[x0, np.zeros(7)], np.c_[x0 + depth, np.full(7, -depth)],
                            np.full((7, 2), np.nan)], axis=1).reshape(-1, 2)
        hatch = _turn(strokes, self.mount)
        a["hatch"].set_data(hatch[:, 0], hatch[:, 1])
        if ghost is None:
            a["ghost"].set_data([], [])
        else:
            pg = _turn(joint_positions(arm, ghost), self.mount)
            a["ghost"].set_data(pg[:, 0], pg[:, 1])
        points = [c[0], c[1], p[-1]]
        loads = [arm.masses[0] * g0, arm.masses[1] * g0, payload * g0]     # [N]
        top = 1.3 * reach
        for k, (point, load) in enumerate(zip(points, loads)):
            visible = bool(shown[k]) and load > 0
            arrow, line = a["weights"][k], a["actions"][k]
            arrow.set_visible(visible)
            line.set_visible(visible)
            end = point[1] - self.force_scale * load
            arrow.set_data([point[0], point[0]], [point[1], end])
            line.set_data([point[0], point[0]], [-top, top])
            if self.labels:
                label = a["weight_labels"][k]
                label.set_visible(visible)
                label.set_position((point[0] + 0.02 * reach, end))
                label.set_text(f"{load:.2f} N")
        a["payload"].set_data(*([[p[-1, 0]], [p[-1, 1]]] if payload > 0 else [[], []]))
        a["payload"].set_visible(bool(shown[2]) and payload > 0)
        return self

    def lever_arms(self, arm, q, bottom, step):
        """Dimension lines, below the arm, for each weight's horizontal lever arm about each
        joint it loads (link 1 about joint 1, link 2 about joints 1 and 2, ...).

        For a figure: the lines are ordinary artists, not moved by :meth:`update`.

        Parameters
        ----------
        arm : PlanarArm
        q : (n,) array_like
            Joint angles [rad].
        bottom, step : float
            Height of the first line and the spacing of the next ones [m].

        Returns
        -------
        list of float
            The lever arms drawn, in drawing order [m].
        """
        p = _turn(joint_positions(arm, q), self.mount)
        c = _turn(com_positions(arm, q), self.mount)
        drawn = []
        for i in range(arm.n):
            for j in range(i + 1):
                y = bottom + step * len(drawn)
                color = self.colors[min(i, len(self.colors) - 1)]
                self.ax.annotate("", (c[i, 0], y), (p[j, 0], y), arrowprops=dict(
                    arrowstyle="<->", color=color, lw=1, shrinkA=0, shrinkB=0))
                short = abs(c[i, 0] - p[j, 0]) < 0.15 * sum(arm.lengths)
                x_text = max(c[i, 0], p[j, 0]) + 0.01 * sum(arm.lengths) if short else (
                    (c[i, 0] + p[j, 0]) / 2)
                self.ax.text(x_text, y, f"{c[i, 0] - p[j, 0]:.2f} m", color=color,
                             ha="left" if short else "center",
                             va="center" if short else "bottom")
                self.ax.plot([p[j, 0]] * 2, [p[j, 1], y], color="0.6", lw=0.7, ls="--")
                drawn.append(float(c[i, 0] - p[j, 0]))
        return drawn

    def frame(self, reach, margin=0.25):
        """Equal limits that show the arm's whole reach plus a margin [m]."""
        r = reach * (1 + margin)
        self.ax.set_xlim(-r, r)
        self.ax.set_ylim(-r, r)
        return self
