"""The statics chapter's lab: a pose, a tip force, and the torques that hold it."""

import numpy as np

from armlab.arm import statics_arm
from armlab.dynamics import gravity_torques
from armlab.labs._base import Lab, axis_top, pair
from armlab.statics import (force_error_bound, joint_reactions, max_tip_force, singular_values,
                            static_torques)

__all__ = ["StaticsLab", "statics_lab", "STATICS_PRESETS"]

#: The statics chapter's worked cases: joint angles [deg], force
#: direction [deg from +x], force size [N], gravity on or off.
STATICS_PRESETS = {
    "wall push": dict(q1=30.0, q2=60.0, angle=0.0, size=10.0, gravity=False),
    "gravity added": dict(q1=30.0, q2=60.0, angle=0.0, size=10.0, gravity=True),
    "stretched": dict(q1=0.0, q2=0.0, angle=0.0, size=10.0, gravity=False),
    "one degree from stretched": dict(q1=0.0, q2=1.0, angle=0.0, size=10.0, gravity=False),
    "bent 90°": dict(q1=0.0, q2=90.0, angle=0.0, size=10.0, gravity=False),
    "stretched, 50 N along the arm": dict(q1=0.0, q2=0.0, angle=0.0, size=50.0,
                                          gravity=False),
}


class StaticsLab(Lab):
    """The statics chapter's lab: a pose, a tip force, and the torques that hold it.

    Use :func:`statics_lab` to make one. The attributes below let code (and
    tests) drive the lab exactly as a reader does.

    Attributes
    ----------
    widgets : dict of ipywidgets
        ``"q1"``, ``"q2"`` [deg], ``"angle"`` (force direction, deg from +x),
        ``"size"`` [N], ``"limit"`` (torque limit per joint, N m),
        ``"gravity"`` (checkbox), ``"preset"`` (dropdown), ``"table"`` (HTML),
        ``"image"`` (the rendered figure).
    figure : matplotlib.figure.Figure
        The one figure the lab draws on: the arm (left) and the joint torques
        against their limits (right).
    drawing : armlab.plots.ArmDrawing
        The arm's artists.
    artists : dict
        ``"bars"`` (torque bars), ``"limit_lines"`` plus the drawing's artists.
    values : dict
        The table: ``"sigma"`` (2,) [m/rad], ``"tau"`` (n,) [N m] (with
        gravity when it is on), ``"tau_contact"`` ``J^T F`` [N m],
        ``"tau_gravity"`` [N m], ``"max_push"`` along the force's direction
        within the limit [N] (``nan`` when gravity alone exceeds the limit),
        ``"force_error"`` from the torque uncertainty [N], ``"reactions"``
        (n, 2) the force each joint's bearing passes to its link, from the link
        before (with gravity when it is on) [N], ``"tip_force"`` [N], ``"q"`` [rad].
    updates : int
        How many times the lab has redrawn.
    """

    presets = STATICS_PRESETS
    default_preset = "wall push"
    controls = ("q1", "q2", "angle", "size", "limit", "gravity")

    def __init__(self, arm=None, preset=None, torque_error=0.5, limit=20.0, render=True):
        self.arm = statics_arm() if arm is None else arm
        if self.arm.n != 2:
            raise ValueError(f"the statics lab draws a two-joint arm; this arm has {self.arm.n}")
        self.torque_error = float(torque_error)
        self._limit = float(limit)
        self._top = None
        super().__init__(preset, render)

    def build(self, start):
        import ipywidgets as w

        from armlab import plots

        limit = self._limit
        self.widgets.update({
            "q1": self.slider("q1", start["q1"], -180, 180, 0.5, "deg"),
            "q2": self.slider("q2", start["q2"], -180, 180, 0.5, "deg"),
            "angle": self.slider("force direction", start["angle"], -180, 180, 1, "deg"),
            "size": self.slider("force size", start["size"], 0, 50, 0.5, "N"),
            "limit": self.slider("torque limit", limit, 1, 50, 0.5, "N m"),
            "gravity": self.checkbox("add gravity g(q)", start["gravity"]),
        })
        self.figure, (ax_arm, ax_tau) = plots.figure(
            ncols=2, width=plots.PAGE_WIDTH, height=3.6, gridspec_kw={"width_ratios": [2.1, 1]})
        self.drawing = plots.ArmDrawing(ax_arm, self.arm, np.zeros(2), force_scale=0.02,
                                        torque_scale=limit, torque_radius=0.12, labels=False)
        self.drawing.frame(margin=0.3)
        ax_arm.set_title("F, 2 cm per N; ellipse: same |Jᵀ F|")
        bars = ax_tau.bar([0, 1], [0, 0], color=plots.COLORS["torque"], width=0.6)
        ax_tau.set_xticks([0, 1], ["τ1", "τ2"])
        ax_tau.set_ylabel("joint torque [N m]")
        ax_tau.axhline(0, color=plots.COLORS["arm"], lw=0.8)
        ax_tau.set_title("torques, ±limit")
        ax_tau.grid(axis="y", alpha=0.3)
        lines = [ax_tau.axhline(s * limit, color=plots.COLORS["limit"], ls="--", lw=1.2)
                 for s in (-1, 1)]
        texts = [ax_tau.text(i, 0, "", ha="center") for i in range(2)]
        self.artists = dict(self.drawing.artists, bars=list(bars), limit_lines=lines,
                            bar_labels=texts)
        self._ax_tau = ax_tau

    # -- computing and drawing ---------------------------------------------------------------
    def state(self):
        """The controls in SI units: ``q`` [rad], tip force [N], limit [N m], gravity flag."""
        v = {k: self.widgets[k].value for k in self.controls}
        q = np.radians([v["q1"], v["q2"]])
        direction = np.array([np.cos(np.radians(v["angle"])), np.sin(np.radians(v["angle"]))])
        return q, v["size"] * direction, direction, float(v["limit"]), bool(v["gravity"])

    def compute(self):
        """The table's values for the current controls (see :attr:`values`)."""
        q, force, direction, limit, gravity = self.state()
        tau_contact = static_torques(self.arm, q, force)
        tau_gravity = gravity_torques(self.arm, q) if gravity else np.zeros(self.arm.n)
        # The push must fit in what the limit leaves after holding the arm's weight.
        bounds = np.array([-limit - tau_gravity, limit - tau_gravity])
        # nan: gravity alone needs more than the limit, so no push along F can be held.
        push = float(max_tip_force(self.arm, q, direction, bounds))
        return {
            "q": q,
            "tip_force": force,
            "sigma": singular_values(self.arm, q),
            "tau_contact": tau_contact,
            "tau_gravity": tau_gravity,
            "tau": tau_contact + tau_gravity,
            "max_push": push,
            "force_error": float(force_error_bound(self.arm, q, self.torque_error)),
            "reactions": joint_reactions(self.arm, q, force, gravity=gravity)[0],
            "limit": limit,
            "gravity": gravity,
        }

    def draw(self, v):
        """Move the arm, the arrows, the bars and the limit lines to the values ``v``."""
        # The torque arcs are scaled by the limit in force now, before they are drawn.
        self.drawing.torque_scale = v["limit"]
        # The ellipse passes through F: every force on it needs the same |J^T F|.
        self.drawing.update(v["q"], v["tip_force"], v["tau"],
                            ellipse_torque=float(np.linalg.norm(v["tau_contact"])))
        for bar, text, t in zip(self.artists["bars"], self.artists["bar_labels"], v["tau"]):
            bar.set_height(t)
            text.set_position((bar.get_x() + bar.get_width() / 2, t))
            text.set_text(f"{t:.2f}")
            text.set_va("bottom" if t >= 0 else "top")
        for s, line in zip((-1, 1), self.artists["limit_lines"]):
            line.set_ydata([s * v["limit"]] * 2)
        top = axis_top(1.15 * max(v["limit"], np.abs(v["tau"]).max()))
        if top != self._top:                        # rescale: the background changes
            self._top = top
            self._ax_tau.set_ylim(-top, top)
            self.rescaled()

    # -- the table ---------------------------------------------------------------------------
    def table_rows(self):
        """The table as ``(quantity, value, unit)`` rows of text."""
        v = self.values

        def fmt(x, digits=4):
            if np.isinf(x):
                return "unbounded"
            return f"{x:.{digits}g}" if abs(x) >= 1e4 else f"{x:.{digits}f}".rstrip("0").rstrip(".")

        tau_name = "τ = Jᵀ F + g(q)" if v["gravity"] else "τ = Jᵀ F"
        return [
            ("σ1, σ2 (singular values of J)",
             f"{fmt(v['sigma'][0])}, {fmt(v['sigma'][1])}", "m/rad"),
            (tau_name, "({:.2f}, {:.2f})".format(*(round(t, 2) + 0.0 for t in v["tau"])), "N m"),
            (f"largest push along F within ±{fmt(v['limit'])} N m",
             "none: g(q) alone exceeds the limit" if np.isnan(v["max_push"]) else
             fmt(v["max_push"], 4) if np.isinf(v["max_push"]) else f"{v['max_push']:.0f}", "N"),
            (f"force error from ±{fmt(self.torque_error)} N m",
             fmt(v["force_error"]) if np.isinf(v["force_error"]) else f"{v['force_error']:.1f}",
             "N"),
        ] + [(f"bearing force at joint {j + 1}, f{j + 1}",
              f"{pair(f, '.2f')}, size {np.linalg.norm(f):.2f}", "N")
             for j, f in enumerate(v["reactions"])]


def statics_lab(arm=None, preset=StaticsLab.default_preset, torque_error=0.5, limit=20.0,
                render=True):
    """The statics lab: drag the pose and the tip force, read the torques that hold it.

    Parameters
    ----------
    arm : PlanarArm, optional
        A two-joint arm; default :func:`armlab.statics_arm`, the chapter's arm.
    preset : str
        Starting case, a key of :data:`STATICS_PRESETS`.
    torque_error : float
        Half-width of the joint-torque uncertainty behind the force error [N m].
    limit : float
        Starting torque limit per joint [N m].
    render : bool
        Render the figure to the image widget on every update (turn off to
        drive the lab from code without paying for PNG encoding).

    Returns
    -------
    StaticsLab
        Displays itself as the lab's widgets; ``lab.widgets``, ``lab.figure``,
        ``lab.artists`` and ``lab.values`` expose its state.

    Examples
    --------
    >>> lab = statics_lab(render=False)
    >>> lab.values["tau"].round(4)
    array([-6.5, -4. ])
    >>> lab.widgets["gravity"].value = True
    >>> lab.values["tau"].round(4)
    array([ 8.3675, -4.    ])
    """
    return StaticsLab(arm, preset=preset, torque_error=torque_error, limit=limit, render=render)
