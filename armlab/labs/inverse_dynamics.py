"""The inverse dynamics chapter's lab: one instant of motion, the torque it needs term by term.

The arm is seeds 001 and 002's pair of 1 m rods (:func:`armlab.rod_arm`), link 1
of 1 kg and link 2 of adjustable mass. The reader sets the pose, the speeds and
the accelerations, the damping, gravity and the force the tip applies; the lab
draws the arm with its motor torques, the torque each term of

    tau = M(q) qdd + c(q, qd) + g(q) + friction(qd) + J(q)^T F

contributes at each joint (stacked bars), and where the motors' power goes.
This module also holds the stacked bars the chapter's figures use.
"""

import numpy as np

from armlab.arm import rod_arm
from armlab.dynamics import kinetic_energy, mass_matrix, potential_energy, torque_parts
from armlab.energy import power_balance
from armlab.labs._base import Lab, axis_top
from armlab.lagrange import mass_matrix_det

__all__ = ["InverseDynamicsLab", "inverse_dynamics_lab", "INVERSE_DYNAMICS_PRESETS", "PARTS",
           "POWERS", "StackedBars"]

#: The terms of the torque, in stacking order: (key of torque_parts, legend label, colour).
PARTS = (
    ("inertia", "M q̈ (inertia)", "#0072B2"),
    ("velocity", "c (velocity products)", "#E69F00"),
    ("gravity", "g (gravity)", "#7F7F7F"),
    ("friction", "friction", "#CC79A7"),
    ("tip", "Jᵀ F (tip force)", "#D55E00"),
)

#: Where the motors' power goes: (field of PowerBalance, legend label, colour).
POWERS = (
    ("kinetic", "dT/dt", "#0072B2"),
    ("potential", "dV/dt", "#7F7F7F"),
    ("friction", "friction loss", "#CC79A7"),
    ("tip", "to the environment", "#D55E00"),
)

_ZERO_STATE = dict(qd1=0.0, qd2=0.0, qdd1=0.0, qdd2=0.0)
_ROD = dict(m2=1.0, damping=0.0, fx=0.0, fy=0.0)

#: The chapter's worked instants (seeds 001 and 002): angles [deg], speeds [rad/s],
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


class StackedBars:
    """Bars stacked from zero, positive parts upwards and negative parts downwards.

    Each bar position shows a sum of signed parts; a black tick marks the sum
    (the total). The rectangles are made once and moved in place by
    :meth:`update`.

    Parameters
    ----------
    ax : matplotlib Axes
    positions : (k,) array_like
        x positions of the bars.
    series : sequence of (key, label, colour)
        The parts, in stacking order (for example :data:`PARTS`).
    width : float
        Bar width, in x units.

    Attributes
    ----------
    rects : dict
        ``key -> list of k Rectangles``.
    totals : list of Line2D
        One tick per bar at the sum.
    """

    def __init__(self, ax, positions, series, width=0.6):
        self.ax = ax
        self.positions = np.asarray(positions, dtype=float)
        self.series = tuple(series)
        k = self.positions.size
        self.rects = {key: list(ax.bar(self.positions, np.zeros(k), width, color=color,
                                       label=label, edgecolor="white", linewidth=0.6))
                      for key, label, color in self.series}
        self.totals = [ax.plot([x - 0.6 * width, x + 0.6 * width], [0, 0], color="black",
                               lw=2.5, solid_capstyle="butt", zorder=5)[0]
                       for x in self.positions]
        ax.axhline(0, color="#404040", lw=0.8)

    def artists(self):
        """Every moving artist: the rectangles and the total ticks."""
        return [r for key, _, _ in self.series for r in self.rects[key]] + self.totals

    def update(self, values):
        """Stack ``values[key]`` (each ``(k,)``) and move the rectangles and ticks.

        Returns
        -------
        low, high : float
            The lowest and highest point drawn (for the axis limits).
        """
        up = np.zeros(self.positions.size)
        down = np.zeros(self.positions.size)
        for key, _, _ in self.series:
            part = np.asarray(values[key], dtype=float)
            bottom = np.where(part >= 0, up, down)
            for rect, b, h in zip(self.rects[key], bottom, part):
                rect.set_y(b)
                rect.set_height(h)
            up += np.maximum(part, 0)
            down += np.minimum(part, 0)
        total = up + down
        for tick, t in zip(self.totals, total):
            tick.set_ydata([t, t])
        return float(down.min(initial=0.0)), float(up.max(initial=0.0))


def _limits(low, high):
    """Axis limits snapped to few values (:func:`axis_top`) that show ``low..high`` and zero."""
    room = max(0.1 * max(high, -low), 0.5)
    return (-axis_top(1.15 * max(-low, room)), axis_top(1.15 * max(high, room)))


def _pair(x, digits=6):
    """``(a, b)`` with ``digits`` decimals and no negative zeros."""
    return "(" + ", ".join(f"{round(float(v), digits) + 0.0:.{digits}f}" for v in x) + ")"


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
    controls = ("q1", "q2", "qd1", "qd2", "qdd1", "qdd2", "m2", "damping", "gravity", "fx", "fy")
    label_width = "13em"

    def __init__(self, preset="accelerate from horizontal", render=True):
        self._arms = {}
        self._tops = (None, None)
        super().__init__(preset, render)

    def build(self, start):
        import ipywidgets as w

        from armlab import plots

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
            "gravity": w.Checkbox(value=start["gravity"], description="gravity 9.81 m/s² along -y",
                                  style={"description_width": self.label_width}, indent=False),
            "fx": s("tip pushes, Fx", start["fx"], -20, 20, 0.5, "N", ".1f"),
            "fy": s("tip pushes, Fy", start["fy"], -20, 20, 0.5, "N", ".1f"),
        })
        self.figure, (ax_arm, ax_parts, ax_power) = plots.figure(
            ncols=3, width=10.0, height=4.2, gridspec_kw={"width_ratios": [1.45, 1.2, 1.0]})
        arm = self._arm(start["m2"], start["gravity"], start["damping"])
        self.drawing = plots.ArmDrawing(ax_arm, arm, np.zeros(2), force_scale=0.08,
                                        torque_scale=25.0, torque_radius=0.28, labels=False)
        self.drawing.frame(margin=0.4)
        ax_arm.set_title("arm, motor torques τ, force F the tip applies (8 cm per N)",
                         fontsize=8.5)
        self.bars = StackedBars(ax_parts, [0, 1], PARTS, width=0.55)
        ax_parts.set_xticks([0, 1], ["shoulder τ1", "elbow τ2"])
        ax_parts.set_xlim(-0.6, 1.6)
        ax_parts.set_ylabel("torque [N m]")
        ax_parts.set_title("parts of τ (black tick: total)", fontsize=9)
        ax_parts.grid(axis="y", alpha=0.3)
        ax_parts.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize=7.5,
                        frameon=False)
        self.power_bars = StackedBars(ax_power, [0, 1], (("motor", "motor τ·q̇", "#009E73"),)
                                      + POWERS, width=0.55)
        ax_power.set_xticks([0, 1], ["motors", "where it goes"])
        ax_power.set_xlim(-0.6, 1.6)
        ax_power.set_ylabel("power [W]")
        ax_power.set_title("power balance", fontsize=9)
        ax_power.grid(axis="y", alpha=0.3)
        ax_power.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize=7.5,
                        frameon=False)
        self._axes = (ax_parts, ax_power)
        self.artists = dict(self.drawing.artists, bars=self.bars.artists(),
                            power_bars=self.power_bars.artists())

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
        }

    def draw(self, v):
        """Move the arm, the arrows and both sets of bars to the values ``v``."""
        self.drawing.arm = v["arm"]
        self.drawing.update(v["q"], v["tip_force"], v["tau"])
        lows_highs = [self.bars.update(v["parts"])]
        p = v["power"]
        lows_highs.append(self.power_bars.update(
            {"motor": [p.motor, 0.0], **{key: [0.0, getattr(p, key)] for key, _, _ in POWERS}}))
        tops = tuple(_limits(low, high) for low, high in lows_highs)
        if tops != self._tops:                      # rescale: the background changes
            self._tops = tops
            for ax, limits in zip(self._axes, tops):
                ax.set_ylim(*limits)
            self.figure.set_layout_engine("constrained")   # lay out the new tick labels once
            self.rescaled()

    # -- the table ---------------------------------------------------------------------------
    def table_rows(self):
        """The table as ``(quantity, value, unit)`` rows: torques, energies, powers, M."""
        v = self.values
        parts, p = v["parts"], v["power"]
        M = v["M"]
        return [
            ("M q̈ (inertia)", _pair(parts["inertia"]), "N m"),
            ("c (velocity products)", _pair(parts["velocity"]), "N m"),
            ("g (gravity)", _pair(parts["gravity"]), "N m"),
            ("friction B q̇", _pair(parts["friction"]), "N m"),
            ("Jᵀ F (tip force)", _pair(parts["tip"]), "N m"),
            ("τ, total", _pair(v["tau"]), "N m"),
            ("kinetic energy T", f"{v['T']:.6f}", "J"),
            ("potential energy V", f"{v['V'] + 0.0:.6f}", "J"),
            ("motor power τ·q̇", f"{float(p.motor) + 0.0:.6f}", "W"),
            ("dE/dt = dT/dt + dV/dt", f"{float(p.energy_rate) + 0.0:.6f}", "W"),
            ("friction loss", f"{float(p.friction) + 0.0:.6f}", "W"),
            ("power to the environment", f"{float(p.tip) + 0.0:.6f}", "W"),
            ("M, first row", _pair(M[0]), "kg m²"),
            ("M, second row", _pair(M[1]), "kg m²"),
            ("det M", f"{v['det']:.6f}", "kg² m⁴"),
        ]


def inverse_dynamics_lab(preset="accelerate from horizontal", render=True):
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
    Seed 001's first case, the horizontal rods accelerating the shoulder at
    1 rad/s^2, then with the elbow's acceleration request instead:

    >>> lab = inverse_dynamics_lab(render=False)
    >>> lab.values["tau"].round(6)
    array([22.286667,  5.738333])
    >>> lab.set_preset("elbow acceleration")
    >>> lab.values["tau"].round(6)
    array([0.833333, 0.333333])
    """
    return InverseDynamicsLab(preset=preset, render=render)
