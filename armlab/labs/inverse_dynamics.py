"""The inverse dynamics chapter's lab: one instant of motion, the torque it needs term by term.

The arm is the pair of 1 m rods (:func:`armlab.rod_arm`), link 1
of 1 kg and link 2 of adjustable mass. The reader sets the pose, the speeds and
the accelerations, the damping, gravity and the force the tip applies; the lab
draws the arm with its motor torques, the torque each term of

    tau = M(q) qdd + c(q, qd) + g(q) + friction(qd) + J(q)^T F

contributes at each joint (stacked bars, :class:`armlab.plots.StackedBars`, in the
colours of :data:`armlab.figures.inverse_dynamics.PARTS`), and where the motors' power goes.
The chapter's figures are in :mod:`armlab.figures.inverse_dynamics`.
"""

import numpy as np

from armlab import plots
from armlab.arm import rod_arm
from armlab.dynamics import kinetic_energy, mass_matrix, potential_energy, torque_parts
from armlab.energy import power_balance
from armlab.figures.inverse_dynamics import PARTS
from armlab.identification import base_parameters
from armlab.labs._base import Lab, axis_top, pair
from armlab.lagrange import mass_matrix_det
from armlab.plots import StackedBars

__all__ = ["InverseDynamicsLab", "inverse_dynamics_lab", "INVERSE_DYNAMICS_PRESETS", "POWERS"]

#: The lab's key: each colour's part of the torque and, after the dot, of the power.
KEY = ("M q̈ (inertia) · dT/dt", "c (velocity products)", "g (gravity) · dV/dt",
       "friction · its loss", "Jᵀ F (tip) · to the load", "motor power τ·q̇")

#: Where the motors' power goes: (field of PowerBalance, legend label, colour).
POWERS = (
    ("kinetic", "dT/dt", "#0072B2"),
    ("potential", "dV/dt", "#7F7F7F"),
    ("friction", "friction loss", "#CC79A7"),
    ("tip", "to the environment", "#D55E00"),
)

_ZERO_STATE = dict(qd1=0.0, qd2=0.0, qdd1=0.0, qdd2=0.0)
_ROD = dict(m2=1.0, damping=0.0, fx=0.0, fy=0.0)

#: The chapter's worked instants: angles [deg], speeds [rad/s],
#: accelerations [rad/s^2], link-2 mass [kg], damping [N m s/rad], gravity on or
#: off, and the force the tip applies [N] (the book's convention).
INVERSE_DYNAMICS_PRESETS = {
    "accelerate from horizontal": dict(q1=0.0, q2=0.0, **_ZERO_STATE, **_ROD, gravity=True)
    | dict(qdd1=1.0),
    "horizontal hold": dict(q1=0.0, q2=0.0, **_ZERO_STATE, **_ROD, gravity=True),
    "gravity-free acceleration": dict(q1=0.0, q2=0.0, **_ZERO_STATE, **_ROD, gravity=False)
    | dict(qdd1=1.0),
    "supported tip": dict(q1=0.0, q2=0.0, **_ZERO_STATE, **_ROD, gravity=True) | dict(fy=-5.0),
    "tip pushes up": dict(q1=0.0, q2=0.0, **_ZERO_STATE, **_ROD, gravity=True) | dict(fy=5.0),
    "moving bent arm": dict(q1=30.0, q2=60.0, qd1=1.0, qd2=-0.5, qdd1=1.0, qdd2=-1.0,
                            **_ROD, gravity=True) | dict(damping=0.2),
    "bent and moving": dict(q1=30.0, q2=-60.0, qd1=1.0, qd2=-0.5, qdd1=0.5, qdd2=-1.0,
                            **_ROD, gravity=True) | dict(damping=0.25),
    "elbow acceleration": dict(q1=0.0, q2=0.0, **_ZERO_STATE, **_ROD, gravity=False)
    | dict(qdd2=1.0),
    "zero-gravity hold": dict(q1=0.0, q2=0.0, **_ZERO_STATE, **_ROD, gravity=False),
}


def _limits(low, high, current=None):
    """Axis limits snapped to few values (:func:`axis_top`) that show ``low..high`` and zero.

    With ``current`` limits the axis only grows: a slider dragged through a
    sign change (a power passing through zero) does not rescale at every step.
    """
    room = max(0.1 * max(high, -low), 0.5)
    bottom, top = -axis_top(1.15 * max(-low, room)), axis_top(1.15 * max(high, room))
    if current is not None:
        bottom, top = min(bottom, current[0]), max(top, current[1])
    return bottom, top


class InverseDynamicsLab(Lab):
    """The inverse dynamics chapter's lab; make one with :func:`inverse_dynamics_lab`.

    Attributes
    ----------
    widgets : dict of ipywidgets
        ``"q1"``, ``"q2"`` [deg]; ``"qd1"``, ``"qd2"`` [rad/s]; ``"qdd1"``,
        ``"qdd2"`` [rad/s^2]; ``"m2"`` (link 2's mass, kg); ``"damping"``
        [N m s/rad]; ``"gravity"`` (checkbox); ``"fx"``, ``"fy"`` (the force the
        tip applies, N); ``"preset"``, ``"table"``, ``"image"``.
    figure : matplotlib.figure.Figure
        The arm with its motor torques (left), the torque's parts per joint
        (middle), the motors' power and where it goes (right).
    drawing : armlab.plots.ArmDrawing
    bars, power_bars : StackedBars
    values : dict
        ``"q"``, ``"qd"``, ``"qdd"`` [rad, rad/s, rad/s^2], ``"tip_force"`` [N],
        ``"parts"`` (the dict of :func:`armlab.torque_parts`, [N m]),
        ``"tau"`` [N m], ``"power"`` (:class:`armlab.PowerBalance`, [W]),
        ``"T"``, ``"V"`` [J], ``"M"`` [kg m^2], ``"det"`` [kg^2 m^4], ``"arm"``.
    """

    presets = INVERSE_DYNAMICS_PRESETS
    default_preset = "accelerate from horizontal"
    controls = ("q1", "q2", "qd1", "qd2", "qdd1", "qdd2", "m2", "damping", "gravity", "fx", "fy")
    label_width = "13em"

    def setup(self):
        self._arms = {}
        self._tops = (None, None)
        self._refit = False

    def build(self, start):
        s = self.slider
        self.widgets.update({
            "q1": s("q1, shoulder angle", start["q1"], -180, 180, 1, "deg", ".0f"),
            "q2": s("q2, elbow angle", start["q2"], -180, 180, 1, "deg", ".0f"),
            "qd1": s("q̇1, shoulder speed", start["qd1"], -3, 3, 0.05, "rad/s", ".2f"),
            "qd2": s("q̇2, elbow speed", start["qd2"], -3, 3, 0.05, "rad/s", ".2f"),
            "qdd1": s("q̈1, shoulder accel.", start["qdd1"], -5, 5, 0.05, "rad/s²", ".2f"),
            "qdd2": s("q̈2, elbow accel.", start["qdd2"], -5, 5, 0.05, "rad/s²", ".2f"),
            "m2": s("link 2 mass", start["m2"], 0.5, 2.0, 0.05, "kg", ".2f"),
            "damping": s("damping B", start["damping"], 0, 1, 0.01, "N m s/rad", ".2f"),
            "gravity": self.checkbox("gravity 9.81 m/s² along -y", start["gravity"]),
            "fx": s("tip pushes, Fx", start["fx"], -20, 20, 0.5, "N", ".1f"),
            "fy": s("tip pushes, Fy", start["fy"], -20, 20, 0.5, "N", ".1f"),
        })
        # Arm and torque parts above, one key and the power balance below: the power's parts
        # share the colours of the torque's parts they come from.
        grid = self.grid_figure(7.6, 2, 2, left=0.085, right=0.985, bottom=0.085, top=0.915,
                                wspace=0.34, hspace=0.42)
        ax_arm, ax_parts, ax_key, ax_power = (self.figure.add_subplot(grid[i, j])
                                              for i in (0, 1) for j in (0, 1))
        self._build_arm_panel(ax_arm, start)
        self._build_bar_panels(ax_parts, ax_power, ax_key)
        self.artists = dict(self.drawing.artists, bars=self.bars.artists(),
                            power_bars=self.power_bars.artists())

    def _build_arm_panel(self, ax_arm, start):
        """The arm with its motor torques and the force its tip applies."""
        arm = self._arm(start["m2"], start["gravity"], start["damping"])
        self.drawing = plots.ArmDrawing(ax_arm, arm, np.zeros(2), force_scale=0.08,
                                        torque_scale=25.0, torque_radius=0.28, labels=False)
        self.drawing.frame(margin=0.4)
        ax_arm.set_title("motor torques τ and the\nforce F the tip applies (8 cm/N)")

    def _build_bar_panels(self, ax_parts, ax_power, ax_key):
        """The torque's parts and the power balance as stacked bars, and their one key."""
        from matplotlib.patches import Patch
        from matplotlib.ticker import MaxNLocator

        self.bars = StackedBars(ax_parts, [0, 1], PARTS, width=0.55)
        ax_parts.set_xticks([0, 1], ["shoulder", "elbow"])
        ax_parts.set_xlim(-0.6, 1.6)
        ax_parts.set_ylabel("torque [N m]")
        ax_parts.yaxis.set_label_coords(-0.2, 0.5)      # clear of tick labels of any width
        ax_parts.set_title("parts of τ\n(black tick: total)")
        ax_parts.grid(axis="y", alpha=0.3)
        self.power_bars = StackedBars(ax_power, [0, 1], (("motor", "motor τ·q̇", "#009E73"),)
                                      + POWERS, width=0.55)
        ax_power.set_xticks([0, 1], ["motors", "where it goes"])
        ax_power.set_xlim(-0.6, 1.6)
        ax_power.set_ylabel("power [W]")
        ax_power.yaxis.set_label_coords(-0.17, 0.5)
        ax_power.set_title("power balance")
        ax_power.grid(axis="y", alpha=0.3)
        ax_key.axis("off")
        ax_key.legend([Patch(color=color) for _, _, color in PARTS] + [Patch(color="#009E73")],
                      KEY, loc="center left", frameon=False, borderaxespad=0,
                      handlelength=1.2, title="parts of τ · of the power", alignment="left")
        for ax in (ax_parts, ax_power):                  # few tick labels: a rescale draws them
            ax.yaxis.set_major_locator(MaxNLocator(5, steps=[1, 2, 2.5, 5, 10]))
        self._axes = (ax_parts, ax_power)

    def set_preset(self, name):
        """Move the controls to a preset; the bars' axes fit its values afresh."""
        self._refit = True
        try:
            super().set_preset(name)
        finally:
            self._refit = False

    def _arm(self, m2, gravity, damping):
        """The rods with these settings (cached: the sliders revisit the same few)."""
        key = (float(m2), bool(gravity), float(damping))
        if key not in self._arms:
            self._arms[key] = rod_arm(m2=key[0], gravity=9.81 if key[1] else 0.0,
                                      damping=key[2])
        return self._arms[key]

    # -- computing and drawing ---------------------------------------------------------------
    def state(self):
        """The controls in SI units: ``arm, q, qd, qdd, tip_force``."""
        v = {k: self.widgets[k].value for k in self.controls}
        arm = self._arm(v["m2"], v["gravity"], v["damping"])
        q = np.radians([v["q1"], v["q2"]])
        return (arm, q, np.array([v["qd1"], v["qd2"]], dtype=float),
                np.array([v["qdd1"], v["qdd2"]], dtype=float),
                np.array([v["fx"], v["fy"]], dtype=float))

    def compute(self):
        """The values the figure and the table show (see :attr:`values`)."""
        arm, q, qd, qdd, force = self.state()
        parts = torque_parts(arm, q, qd, qdd, force)
        return {
            "arm": arm, "q": q, "qd": qd, "qdd": qdd, "tip_force": force,
            "parts": parts, "tau": parts["total"],
            "power": power_balance(arm, q, qd, qdd, force),
            "T": float(kinetic_energy(arm, q, qd)), "V": float(potential_energy(arm, q)),
            "M": mass_matrix(arm, q), "det": float(mass_matrix_det(arm, q)),
            "theta": base_parameters(arm),
        }

    def draw(self, v):
        """Move both sets of bars, the arm and its arrows to the values ``v``."""
        lows_highs = [self.bars.update(v["parts"])]
        p = v["power"]
        lows_highs.append(self.power_bars.update(
            {"motor": [p.motor, 0.0], **{key: [0.0, getattr(p, key)] for key, _, _ in POWERS}}))
        tops = tuple(_limits(low, high, None if self._refit else current)
                     for (low, high), current in zip(lows_highs, self._tops))
        if tops != self._tops:                      # rescale: the background changes
            self._tops = tops
            for ax, limits in zip(self._axes, tops):
                ax.set_ylim(*limits)
            self.rescaled()
        # the torque arcs sweep their full length at the torque axis' range
        self.drawing.torque_scale = max(-tops[0][0], tops[0][1])
        self.drawing.arm = v["arm"]
        self.drawing.update(v["q"], v["tip_force"], v["tau"])

    # -- the table ---------------------------------------------------------------------------
    def table_rows(self):
        """The table as ``(quantity, value, unit)`` rows: torques, energies, powers, M and
        the base parameters."""
        v = self.values
        parts, p = v["parts"], v["power"]
        M = v["M"]
        return [
            ("M q̈ (inertia)", pair(parts["inertia"], ".6f"), "N m"),
            ("c (velocity products)", pair(parts["velocity"], ".6f"), "N m"),
            ("g (gravity)", pair(parts["gravity"], ".6f"), "N m"),
            ("friction B q̇", pair(parts["friction"], ".6f"), "N m"),
            ("Jᵀ F (tip force)", pair(parts["tip"], ".6f"), "N m"),
            ("τ, total", pair(v["tau"], ".6f"), "N m"),
            ("kinetic energy T", f"{v['T']:.6f}", "J"),
            ("potential energy V", f"{v['V'] + 0.0:.6f}", "J"),
            ("motor power τ·q̇", f"{float(p.motor) + 0.0:.6f}", "W"),
            ("dE/dt = dT/dt + dV/dt", f"{float(p.energy_rate) + 0.0:.6f}", "W"),
            ("friction loss", f"{float(p.friction) + 0.0:.6f}", "W"),
            ("power to the environment", f"{float(p.tip) + 0.0:.6f}", "W"),
            ("M, first row", pair(M[0], ".6f"), "kg m²"),
            ("M, second row", pair(M[1], ".6f"), "kg m²"),
            ("det M", f"{v['det']:.6f}", "kg² m⁴"),
            ("base parameters Z1, X1", pair(v["theta"][:2], ".6f"), "kg m², kg m"),
            ("base parameters Z2, X2", pair(v["theta"][2:], ".6f"), "kg m², kg m"),
        ]


def inverse_dynamics_lab(preset=InverseDynamicsLab.default_preset, render=True):
    """The inverse dynamics lab: set an instant of motion, read the torque each term asks for.

    Parameters
    ----------
    preset : str
        Starting case, a key of :data:`INVERSE_DYNAMICS_PRESETS`.
    render : bool
        Render the figure to the image widget on every update (turn off to
        drive the lab from code without paying for PNG encoding).

    Returns
    -------
    InverseDynamicsLab
        Displays itself as the lab's widgets; ``lab.widgets``, ``lab.figure``,
        ``lab.artists`` and ``lab.values`` expose its state.

    Examples
    --------
    The chapter's first case, the horizontal rods accelerating the shoulder at
    1 rad/s^2, then with the elbow's acceleration request instead:

    >>> lab = inverse_dynamics_lab(render=False)
    >>> lab.values["tau"].round(6)
    array([22.286667,  5.738333])
    >>> lab.set_preset("elbow acceleration")
    >>> lab.values["tau"].round(6)
    array([0.833333, 0.333333])
    """
    return InverseDynamicsLab(preset=preset, render=render)
