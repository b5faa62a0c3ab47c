"""The kinematics chapter's lab: joint angles and speeds, the velocity ellipse, the workspace."""

import numpy as np

from armlab.arm import PlanarArm, rod_arm, statics_arm, tabletop_arm
from armlab.kinematics import inverse_kinematics, jacobian, tip_position
from armlab.labs._base import Lab, pair
from armlab.manipulability import (condition_number, is_singular, manipulability, reach,
                                   velocity_ellipse)

__all__ = ["KinematicsLab", "kinematics_lab", "KINEMATICS_PRESETS", "KINEMATICS_ARMS"]



def _isotropic_arm():
    """The kinematics chapter's isotropic arm: link 2 of the statics arm, 0.4 m, and
    ``L1 = sqrt(2) L2``; at ``q2 = +-135`` degrees its velocity ellipse is a circle.
    Kinematics needs no masses; 1 kg rods are given."""
    return PlanarArm(lengths=(np.sqrt(2) * 0.4, 0.4), masses=(1.0, 1.0))


#: The book's arms, by the name the lab's dropdown shows.
KINEMATICS_ARMS = {
    "statics arm": statics_arm,
    "table-top arm": tabletop_arm,
    "rod arm": rod_arm,
    "isotropic arm (L1 = √2 L2)": _isotropic_arm,
}

# The wall pose's tip reached with the elbow up (the chapter's Example 6) [deg].
_WALL_UP = np.degrees(inverse_kinematics(statics_arm(), tip_position(statics_arm(),
                                                                   np.radians([30, 60])), "up"))

#: The kinematics chapter's worked examples: the arm, joint angles [deg] and
#: joint speeds [rad/s].
KINEMATICS_PRESETS = {
    "wall pose": dict(arm="statics arm", q1=30.0, q2=60.0, qd1=1.0, qd2=-1.0),
    "stretched": dict(arm="statics arm", q1=0.0, q2=0.0, qd1=0.4, qd2=-0.9),
    "one degree from stretched": dict(arm="statics arm", q1=0.0, q2=1.0, qd1=1.0,
                                      qd2=0.0),
    "bent 90°": dict(arm="statics arm", q1=0.0, q2=90.0, qd1=1.0, qd2=0.0),
    "folded": dict(arm="statics arm", q1=0.0, q2=180.0, qd1=1.0, qd2=0.0),
    "rod arm folded": dict(arm="rod arm", q1=0.0, q2=180.0, qd1=1.0, qd2=0.0),
    "wall pose, elbow up": dict(arm="statics arm", q1=float(_WALL_UP[0]),
                                q2=float(_WALL_UP[1]), qd1=1.0, qd2=-1.0),
    "isotropic": dict(arm="isotropic arm (L1 = √2 L2)", q1=0.0, q2=135.0, qd1=1.0, qd2=0.0),
}

# The velocity arrow and ellipse show the tip's displacement in this time [s].
_VELOCITY_TIME = 0.5


class KinematicsLab(Lab):
    """The kinematics chapter's lab: where the tip is, how fast it can move, where it can reach.

    Use :func:`kinematics_lab` to make one. The button ``widgets["other_elbow"]``
    (or :meth:`other_elbow`) moves the arm to the other pose that reaches the
    same tip, the elbow mirrored.

    Attributes
    ----------
    widgets : dict of ipywidgets
        ``"arm"`` (dropdown of :data:`KINEMATICS_ARMS`), ``"q1"``, ``"q2"``
        [deg], ``"qd1"``, ``"qd2"`` [rad/s], ``"other_elbow"`` (button),
        ``"preset"``, ``"table"``, ``"image"``.
    figure : matplotlib.figure.Figure
        Left: the arm in its workspace, the tip velocity ``J qd`` and the
        velocity ellipse of joint speeds of the same size (both drawn as the
        displacement in 0.5 s). Right: the singular values of ``J`` against
        the elbow angle, with the current pose marked.
    arm : PlanarArm
        The arm chosen in the dropdown.
    values : dict
        ``"q"`` [rad], ``"qd"`` [rad/s], ``"tip"`` (2,) [m], ``"distance"``
        [m], ``"reach"`` (r_min, r_max) [m], ``"J"`` (2, 2) [m/rad],
        ``"sigma"`` (2,) [m/rad], ``"manipulability"`` [m^2/rad^2],
        ``"condition"`` (``sigma_1 / sigma_2``), ``"other_elbow"`` (the pose
        [rad] that reaches the same tip with the elbow bent the other way),
        ``"velocity"`` (2,) [m/s], ``"speed"`` [m/s], ``"singular"`` (bool).
    """

    presets = KINEMATICS_PRESETS
    default_preset = "wall pose"
    controls = ("arm", "q1", "q2", "qd1", "qd2")

    def setup(self):
        self._arm_name = None

    def build(self, start):
        import ipywidgets as w

        from armlab import plots

        self.widgets.update({
            "arm": self.dropdown("arm", KINEMATICS_ARMS, start["arm"]),
            "q1": self.slider("q1", start["q1"], -180, 180, 0.5, "deg"),
            "q2": self.slider("q2", start["q2"], -180, 180, 0.5, "deg"),
            "qd1": self.slider("joint speed q̇1", start["qd1"], -2, 2, 0.05, "rad/s", ".2f"),
            "qd2": self.slider("joint speed q̇2", start["qd2"], -2, 2, 0.05, "rad/s", ".2f"),
            "other_elbow": w.Button(description="same tip, other elbow",
                                    layout=w.Layout(width="28em")),
        })
        self.widgets["other_elbow"].on_click(lambda _: self.other_elbow())
        self.arm = KINEMATICS_ARMS[start["arm"]]()
        self.figure, (ax_arm, ax_sigma) = plots.figure(
            ncols=2, width=plots.PAGE_WIDTH, height=3.6, gridspec_kw={"width_ratios": [1.25, 1]})
        self.workspace = plots.Workspace(ax_arm, self.arm, labels=True)
        self.drawing = plots.ArmDrawing(ax_arm, self.arm, np.zeros(2), labels=False,
                                        velocity=True, velocity_time=_VELOCITY_TIME)
        ax_arm.set_title(f"J q̇ and its ellipse: the move in {_VELOCITY_TIME} s")
        ax_sigma.set_xlabel("elbow angle q2 [deg]")
        ax_sigma.set_ylabel("singular value of J [m/rad]")
        ax_sigma.set_xlim(-180, 180)
        ax_sigma.set_xticks(np.arange(-180, 181, 90))
        ax_sigma.grid(alpha=0.3)
        ax_sigma.set_title("σ1 fastest, σ2 slowest")
        (self._curve1,) = ax_sigma.plot([], [], color=plots.COLORS["torque"], label="σ1")
        (self._curve2,) = ax_sigma.plot([], [], color=plots.COLORS["velocity"], label="σ2")
        ax_sigma.legend(frameon=False, loc="upper right")
        marker = ax_sigma.axvline(0, color=plots.COLORS["arm"], lw=1, ls="--")
        (dots,) = ax_sigma.plot([], [], "o", color=plots.COLORS["arm"], ms=5)
        self._ax_arm, self._ax_sigma = ax_arm, ax_sigma
        self.artists = dict(self.drawing.artists, marker=marker, dots=dots)

    # -- computing and drawing ---------------------------------------------------------------
    def state(self):
        """The controls in SI units: ``q`` [rad], ``qd`` [rad/s]."""
        v = {k: self.widgets[k].value for k in self.controls}
        return np.radians([v["q1"], v["q2"]]), np.array([v["qd1"], v["qd2"]], dtype=float)

    def compute(self):
        """The table's values for the current controls (see :attr:`values`)."""
        name = self.widgets["arm"].value
        if name != self._arm_name:
            self.arm = KINEMATICS_ARMS[name]()
        q, qd = self.state()
        J = jacobian(self.arm, q)
        tip = tip_position(self.arm, q)
        velocity = J @ qd
        elbow = "up" if np.sin(q[1]) > 0 else "down"
        return {
            "arm_name": name,
            "q": q,
            "qd": qd,
            "tip": tip,
            "distance": float(np.linalg.norm(tip)),
            "reach": reach(self.arm),
            "J": J,
            "sigma": velocity_ellipse(self.arm, q)[0],
            "manipulability": float(manipulability(self.arm, q)),
            "condition": float(condition_number(self.arm, q)),
            "other_elbow": inverse_kinematics(self.arm, tip, elbow),
            "velocity": velocity,
            "speed": float(np.linalg.norm(velocity)),
            "singular": bool(is_singular(self.arm, q)),
        }

    def draw(self, v):
        """Move the arm, the velocity arrow, the ellipse and the marker to the values ``v``."""
        if v["arm_name"] != self._arm_name:        # another arm: new background and limits
            self._arm_name = v["arm_name"]
            self.drawing.arm = self.arm
            self.workspace.update(self.arm)
            self.drawing.frame(margin=0.25 * reach(self.arm)[1])
            sweep = np.radians(np.linspace(-180, 180, 721))
            sigma = velocity_ellipse(self.arm, np.stack([np.zeros_like(sweep), sweep], -1))[0]
            self._curve1.set_data(np.degrees(sweep), sigma[:, 0])
            self._curve2.set_data(np.degrees(sweep), sigma[:, 1])
            self._ax_sigma.set_ylim(0, 1.1 * sigma[:, 0].max())
            self.rescaled()
        self.drawing.update(v["q"], qd=v["qd"])
        q2 = np.degrees(np.arctan2(np.sin(v["q"][1]), np.cos(v["q"][1])))
        self.artists["marker"].set_xdata([q2, q2])
        self.artists["dots"].set_data([q2, q2], v["sigma"])

    def other_elbow(self):
        """Move to the pose that puts the tip at the same point with the elbow bent the
        other way (inverse kinematics), in one redraw; a stretched or folded pose stays."""
        q1, q2 = np.degrees(self.values["other_elbow"])
        self._hold = True
        try:
            self.widgets["q1"].value, self.widgets["q2"].value = float(q1), float(q2)
        finally:
            self._hold = False
        self._mark_custom()
        self.update()

    @property
    def widget(self):
        """The whole lab as one ipywidgets box: controls, the other-elbow button and the
        table above the figure."""
        import ipywidgets as w

        if not hasattr(self, "_box"):
            controls = w.VBox([self.widgets["preset"]]
                              + [self.widgets[k] for k in self.control_names()]
                              + [self.widgets["other_elbow"]])
            self._box = w.VBox([w.HBox([controls, self.widgets["table"]]),
                                self.widgets["image"]])
        return self._box

    # -- the table ---------------------------------------------------------------------------
    def table_rows(self):
        """The table as ``(quantity, value, unit)`` rows of text."""
        v = self.values

        def vec(x):
            return pair(x, ".3f", clean=4)

        r_min, r_max = v["reach"]
        return [
            ("tip position p", vec(v["tip"]), "m"),
            ("distance from the base (reach)",
             f"{v['distance']:.3f} ({r_min:.2f} to {r_max:.2f})", "m"),
            ("Jacobian column 1", vec(v["J"][:, 0]), "m/rad"),
            ("Jacobian column 2", vec(v["J"][:, 1]), "m/rad"),
            ("σ1, σ2 (singular values of J)", f"{v['sigma'][0]:.4f}, {v['sigma'][1]:.4f}",
             "m/rad"),
            ("manipulability w = σ1 σ2", f"{v['manipulability']:.4f}", "m²/rad²"),
            ("condition number κ = σ1/σ2",
             "unbounded" if np.isinf(v["condition"]) else f"{v['condition']:.3f}", ""),
            ("same tip, other elbow (q1, q2)",
             pair(np.degrees(v["other_elbow"]), ".2f", clean=6), "deg"),
            ("tip velocity v = J q̇", vec(v["velocity"]), "m/s"),
            ("tip speed", f"{v['speed']:.3f}", "m/s"),
            ("singular pose", "yes" if v["singular"] else "no", ""),
        ]


def kinematics_lab(preset=KinematicsLab.default_preset, render=True):
    """The kinematics lab: drag the joints, watch the tip's velocity ellipse and the workspace.

    Parameters
    ----------
    preset : str
        Starting case, a key of :data:`KINEMATICS_PRESETS`.
    render : bool
        Render the figure to the image widget on every update (turn off to
        drive the lab from code without paying for PNG encoding).

    Returns
    -------
    KinematicsLab
        Displays itself as the lab's widgets; ``lab.widgets``, ``lab.figure``,
        ``lab.artists`` and ``lab.values`` expose its state.

    Examples
    --------
    The wall pose of the statics chapter's arm, joints turning at (1, -1) rad/s:

    >>> lab = kinematics_lab(render=False)
    >>> lab.values["tip"].round(4), lab.values["velocity"].round(4)
    (array([0.433, 0.65 ]), array([-0.25 ,  0.433]))
    >>> lab.set_preset("bent 90°")
    >>> lab.values["sigma"].round(4)
    array([0.6986, 0.2863])
    """
    return KinematicsLab(preset=preset, render=render)
