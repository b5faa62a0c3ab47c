"""The limits chapter's lab.

A state, a requested acceleration and a torque limit in; the torque
the request needs, the torque the motors apply (clipped per joint or scaled as
a vector), the acceleration the arm really gets, and the payload the pose can
hold, out. The two uniform 1 m, 1 kg rods.

The chapter's figures are in :mod:`armlab.figures.limits`, its gear computations in
:mod:`armlab.gearing`.
"""

import numpy as np

from armlab import plots
from armlab.arm import rod_arm
from armlab.dynamics import mass_matrix
from armlab.kinematics import joint_positions
from armlab.labs._base import Lab, axis_top, pair
from armlab.limits import payload_capacity, pose_capacity, realized_acceleration

__all__ = ["LimitsLab", "limits_lab", "LIMITS_PRESETS", "POLICY_NAMES", "GHOST_TIME",
           "capacity_text"]

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
    default_preset = "horizontal acceleration (25 N m)"
    controls = ("q1", "q2", "qd1", "qd2", "qdd1", "qdd2", "limit", "gravity", "policy",
                "payload")

    def setup(self):
        self._tops = (None, None)

    def build(self, start):
        import ipywidgets as w

        self.widgets.update({
            "q1": self.slider("q1", start["q1"], -180, 180, 1, "deg", ".0f"),
            "q2": self.slider("q2", start["q2"], -180, 180, 1, "deg", ".0f"),
            "qd1": self.slider("q̇1", start["qd1"], -180, 180, 5, "deg/s", ".0f"),
            "qd2": self.slider("q̇2", start["qd2"], -180, 180, 5, "deg/s", ".0f"),
            "qdd1": self.slider("requested q̈1", start["qdd1"], -10, 10, 0.1, "rad/s²"),
            "qdd2": self.slider("requested q̈2", start["qdd2"], -10, 10, 0.1, "rad/s²"),
            "limit": self.slider("torque limit ±", start["limit"], 0.5, 50, 0.5, "N m"),
            "gravity": self.checkbox("gravity (9.81 m/s²)", start["gravity"]),
            "policy": w.ToggleButtons(options=list(POLICY_NAMES), value=start["policy"],
                                      description="policy",
                                      style={"description_width": self.label_width}),
            "payload": self.slider("payload at the tip", start["payload"], 0, 3, 0.05, "kg",
                                   ".2f"),
        })
        grid = self.grid_figure(7.6, 2, 2, height_ratios=[1.25, 1], left=0.11, right=0.99,
                                bottom=0.06, top=0.95, wspace=0.42, hspace=0.3)
        ax_arm, ax_tau, ax_acc = (self.figure.add_subplot(cell)
                                  for cell in (grid[0, :], grid[1, 0], grid[1, 1]))
        self.artists = dict(self._build_arm_panel(ax_arm, start),
                            **self._build_bar_panels(ax_tau, ax_acc))

    def _build_arm_panel(self, ax_arm, start):
        """The arm with its applied torques, the two ghosts and the capacity's text."""
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
        return dict(self.drawing.artists, ghost_request=g_req, ghost_realized=g_real,
                    capacity=capacity)

    def _build_bar_panels(self, ax_tau, ax_acc):
        """The torques (requested, applied, the limits) and the accelerations, as bars."""
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
        self._ax_tau, self._ax_acc = ax_tau, ax_acc
        return dict(tau_bars=[b for bs in tau_bars for b in bs],
                    acc_bars=[b for bs in acc_bars for b in bs], limit_lines=limit_lines)

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


def limits_lab(preset=LimitsLab.default_preset, render=True):
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
