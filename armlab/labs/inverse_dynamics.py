"""The inverse dynamics chapter's lab: one instant of motion, the torque it needs term by term.

The arm is the pair of 1 m rods (:func:`armlab.rod_arm`), link 1
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
from armlab.identification import base_parameters
from armlab.labs._base import Lab, axis_top, pair
from armlab.lagrange import mass_matrix_det

__all__ = ["InverseDynamicsLab", "inverse_dynamics_lab", "INVERSE_DYNAMICS_PRESETS", "PARTS",
           "POWERS", "StackedBars", "parts_figure", "mass_matrix_figure", "move_parts_figure",
           "move_power_figure", "identification_figure"]

#: The terms of the torque, in stacking order: (key of torque_parts, legend label, colour).
PARTS = (
    ("inertia", "M q̈ (inertia)", "#0072B2"),
    ("velocity", "c (velocity products)", "#E69F00"),
    ("gravity", "g (gravity)", "#7F7F7F"),
    ("friction", "friction", "#CC79A7"),
    ("tip", "Jᵀ F (tip force)", "#D55E00"),
)

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
    controls = ("q1", "q2", "qd1", "qd2", "qdd1", "qdd2", "m2", "damping", "gravity", "fx", "fy")
    label_width = "13em"

    def __init__(self, preset="accelerate from horizontal", render=True):
        self._arms = {}
        self._tops = (None, None)
        self._refit = False
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
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        # Fixed margins, no layout engine: the axes keep their place when a range changes.
        # Arm and torque parts above, one key and the power balance below: the power's parts
        # share the colours of the torque's parts they come from.
        self.figure = plots.BookFigure(figsize=(plots.PAGE_WIDTH, 7.6))
        FigureCanvasAgg(self.figure)
        grid = self.figure.add_gridspec(2, 2, left=0.085, right=0.985, bottom=0.085,
                                        top=0.915, wspace=0.34, hspace=0.42)
        ax_arm = self.figure.add_subplot(grid[0, 0])
        ax_parts = self.figure.add_subplot(grid[0, 1])
        ax_key = self.figure.add_subplot(grid[1, 0])
        ax_power = self.figure.add_subplot(grid[1, 1])
        arm = self._arm(start["m2"], start["gravity"], start["damping"])
        self.drawing = plots.ArmDrawing(ax_arm, arm, np.zeros(2), force_scale=0.08,
                                        torque_scale=25.0, torque_radius=0.28, labels=False)
        self.drawing.frame(margin=0.4)
        ax_arm.set_title("motor torques τ and the\nforce F the tip applies (8 cm/N)")
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
        from matplotlib.patches import Patch

        ax_key.axis("off")
        ax_key.legend([Patch(color=color) for _, _, color in PARTS] + [Patch(color="#009E73")],
                      KEY, loc="center left", frameon=False, borderaxespad=0,
                      handlelength=1.2, title="parts of τ · of the power", alignment="left")
        from matplotlib.ticker import MaxNLocator

        for ax in (ax_parts, ax_power):                  # few tick labels: a rescale draws them
            ax.yaxis.set_major_locator(MaxNLocator(5, steps=[1, 2, 2.5, 5, 10]))
        self._axes = (ax_parts, ax_power)
        self.artists = dict(self.drawing.artists, bars=self.bars.artists(),
                            power_bars=self.power_bars.artists())

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


# ---------------------------------------------------------------------------------------------
# The chapter's figures: drawing only; every number comes in computed by armlab.

def _legend_below(fig, ax, ncol=5):
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=ncol, frameon=False)


def parts_figure(names, parts, series=PARTS):
    """Stacked bars of the torque's parts for several instants, one panel per joint.

    Parameters
    ----------
    names : sequence of str
        One label per instant (the bars' ticks).
    parts : sequence of dict
        Per instant, the dict of :func:`armlab.torque_parts` for a two-joint
        arm ([N m]).
    series : sequence of (key, label, colour)
        The parts drawn, in stacking order.

    Returns
    -------
    BookFigure
    """
    from armlab import plots

    fig, axes = plots.figure(nrows=2, height=8.2, sharex=True)
    x = np.arange(len(names))
    for j, (ax, joint) in enumerate(zip(axes, ["shoulder torque τ1", "elbow torque τ2"])):
        bars = StackedBars(ax, x, series, width=0.6)
        low, high = bars.update({key: [p[key][j] for p in parts] for key, _, _ in series})
        room = 0.08 * (high - low)
        ax.set_ylim(low - room, high + room)
        ax.set_xticks(x, names)
        ax.set_title(joint)
        ax.set_ylabel("torque [N m]")
        ax.grid(axis="y", alpha=0.3)
    axes[0].tick_params(labelbottom=True)
    _legend_below(fig, axes[0], ncol=3)
    return fig


def mass_matrix_figure(q2, M, label, det, det_labels):
    """The entries of one arm's mass matrix, and the determinants of several, against q2.

    Parameters
    ----------
    q2 : (k,) array_like
        Elbow angles [rad].
    M : (k, 2, 2) array_like
        One arm's mass matrices at those angles [kg m^2] (left panel).
    label : str
        What that arm is, for the left panel's title.
    det : (a, k) array_like
        Determinants of ``a`` arms' mass matrices [kg^2 m^4] (right panel),
        each drawn with its lowest value dashed.
    det_labels : sequence of str
        One legend entry per arm of ``det``.

    Returns
    -------
    BookFigure
    """
    from armlab import plots

    fig, (ax_m, ax_d) = plots.figure(ncols=2, height=4.4)
    deg = np.degrees(q2)
    M, det = np.asarray(M), np.asarray(det)
    for (i, j), name, color in [((0, 0), "M11", "#0072B2"), ((0, 1), "M12 = M21", "#D55E00"),
                                ((1, 1), "M22", "#009E73")]:
        ax_m.plot(deg, M[:, i, j], color=color, label=name, lw=2)
    ax_m.axhline(0, color="#404040", lw=0.8)
    ax_m.set_title(f"entries of M,\n{label}")
    ax_m.set_ylabel("mass matrix entry [kg m²]")
    shades = ["#56B4E9", "#0072B2", "#003F63", "#000000"]
    for name, d, color in zip(det_labels, det, shades):
        ax_d.plot(deg, d, color=color, lw=2, label=name)
        ax_d.axhline(d.min(), color=color, lw=1, ls="--")
    ax_d.set_ylim(0, None)
    ax_d.set_title("det M\n(dashed: its lowest value)")
    ax_d.set_ylabel("det M [kg² m⁴]")
    for ax in (ax_m, ax_d):
        ax.set_xlabel("elbow angle q2 [deg]")
        ax.set_xticks(np.arange(-180, 181, 90))
        ax.grid(alpha=0.3)
    ax_m.legend(frameon=False, loc="upper left", handlelength=1.2)
    ax_d.legend(frameon=False, loc="upper center", handlelength=1.2)
    ax_d.set_ylim(0, 1.6 * np.asarray(det).max())               # room for the legend
    return fig


def move_parts_figure(t, parts, series=PARTS[:3]):
    """The torque's parts along a motion, one panel per joint, the total dashed.

    Parameters
    ----------
    t : (k,) array_like
        Time [s].
    parts : dict of (k, 2) arrays
        :func:`armlab.torque_parts` along the motion [N m].
    series : sequence of (key, label, colour)
        The parts drawn.

    Returns
    -------
    BookFigure
    """
    from armlab import plots

    fig, axes = plots.figure(ncols=2, height=4.4)
    for j, (ax, joint) in enumerate(zip(axes, ["shoulder", "elbow"])):
        for key, label, color in series:
            ax.plot(t, parts[key][:, j], color=color, lw=2, label=label)
        ax.plot(t, parts["total"][:, j], color="black", lw=1.8, ls="--", label="total τ")
        ax.axhline(0, color="#404040", lw=0.8)
        ax.set_title(f"{joint} torque τ{j + 1}")
        ax.set_xlabel("time t [s]")
        ax.set_ylabel("torque [N m]")
        ax.grid(alpha=0.3)
    _legend_below(fig, axes[0], ncol=2)
    return fig


def move_power_figure(t, T, V, balance):
    """Energies and powers along a motion.

    Parameters
    ----------
    t : (k,) array_like
        Time [s].
    T, V : (k,) array_like
        Kinetic and potential energy [J].
    balance : PowerBalance
        Its terms along the motion, each ``(k,)`` [W].

    Returns
    -------
    BookFigure
    """
    from armlab import plots

    fig, (ax_e, ax_p) = plots.figure(nrows=2, height=6.4, sharex=True)
    T, V = np.asarray(T), np.asarray(V)
    ax_e.plot(t, T, color="#0072B2", lw=2, label="kinetic T")
    ax_e.plot(t, V, color="#7F7F7F", lw=2, label="potential V")
    ax_e.plot(t, T + V, color="black", lw=1.8, ls="--", label="E = T + V")
    ax_e.set_ylabel("energy [J]")
    ax_e.set_title("energy of the arm")
    ax_p.plot(t, balance.motor, color="#009E73", lw=2.5, label="motor power τ·q̇")
    ax_p.plot(t, balance.energy_rate, color="black", lw=1.8, ls="--", label="dE/dt")
    ax_p.plot(t, balance.friction, color="#CC79A7", lw=2, label="friction loss")
    ax_p.set_ylabel("power [W]")
    ax_p.set_title("where the motors' power goes")
    ax_p.set_xlabel("time t [s]")
    for ax in (ax_e, ax_p):
        ax.axhline(0, color="#404040", lw=0.8)
        ax.grid(alpha=0.3)
        ax.legend(frameon=False, loc="upper left")
    return fig


def identification_figure(t, tau_measured, tau_fitted, fit, other_fit, truth, noise):
    """Identification along a run: the torques, what the fitted model leaves of them, and
    each rigid base parameter's error for two fits.

    Parameters
    ----------
    t : (k,) array_like
        Sample times [s].
    tau_measured, tau_fitted : (k, 2) array_like
        The measured torques and those of the fitted model [N m].
    fit, other_fit : DynamicsFit
        The fit to show (dots) and one to compare it with (crosses); their parameters
        ``Z1, X1, Z2, X2`` are drawn relative to the truth, with one standard error as a
        bar.
    truth : (p,) array_like
        The true parameters, in the order of ``fit.names``.
    noise : float
        The sensors' standard deviation [N m], drawn as a band around zero residual.

    Returns
    -------
    BookFigure
    """
    from armlab import plots

    fig, (ax_t, ax_r, ax_p) = plots.figure(nrows=3, height=8.4,
                                           gridspec_kw={"height_ratios": [1.2, 0.9, 1]})
    t = np.asarray(t)
    tau_measured, tau_fitted = np.asarray(tau_measured), np.asarray(tau_fitted)
    joints = [("shoulder", "#0072B2"), ("elbow", "#D55E00")]
    for j, (name, color) in enumerate(joints):
        ax_t.plot(t, tau_measured[:, j], color=color, lw=1.4, label=name)
        ax_r.plot(t[::5], 1e3 * (tau_measured - tau_fitted)[::5, j], ".", ms=2.5,
                  color=color, alpha=0.5)
    ax_t.set_ylabel("torque [N m]")
    ax_t.legend(frameon=False, ncol=2, loc="upper left")
    top = max(abs(np.asarray(ax_t.get_ylim())).max(), 1e-9)
    ax_t.set_ylim(-top, 1.3 * top)                      # room for the legend
    for sign in (-1, 1):
        ax_r.axhline(sign * 2e3 * noise, color="black", ls="--", lw=1)
    ax_r.set_ylabel("measured − Y θ̂\n[mN m]")
    ax_r.set_xlabel("time t [s]")
    ax_t.sharex(ax_r)
    ax_t.tick_params(labelbottom=False)
    rigid = ["Z1", "X1", "Z2", "X2"]
    x = np.arange(len(rigid))
    truth = dict(zip(fit.names, np.asarray(truth, dtype=float)))
    ref = np.array([truth[name] for name in rigid])
    for f, marker, color, shift, label in [
            (fit, "o", "black", -0.1, "with friction, the tour"),
            (other_fit, "x", "#CC79A7", 0.1, "no friction, one move")]:
        est = np.array([f[name] for name in rigid])
        se = np.array([f.stderr[f.names.index(name)] for name in rigid])
        ax_p.errorbar(x + shift, 100 * (est - ref) / ref, yerr=100 * se / ref, fmt=marker,
                      color=color, ms=7, mew=2, capsize=4, label=label)
    ax_p.axhline(0, color="#404040", lw=0.8)
    ax_p.set_xticks(x, rigid)
    ax_p.set_xlim(-0.5, len(rigid) - 0.5)
    ax_p.set_xlabel("base parameter")
    ax_p.set_ylabel("fitted − true [%]")
    ax_p.legend(frameon=False, loc="lower left")
    for ax in (ax_t, ax_r, ax_p):
        ax.grid(alpha=0.3)
    return fig
