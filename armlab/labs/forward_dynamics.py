"""The forward dynamics chapter's lab: let the arm fall, choose the integrator, watch the energy."""

import numpy as np

from armlab.arm import tabletop_arm
from armlab.labs._base import Lab, axis_top
from armlab.simulation import simulate

__all__ = ["ForwardDynamicsLab", "forward_dynamics_lab", "FORWARD_DYNAMICS_PRESETS",
           "METHODS", "STEPS"]

#: The integrators the lab offers: label -> ``method`` of :func:`armlab.simulate`.
METHODS = {"explicit Euler": "explicit_euler", "semi-implicit Euler": "semi_implicit_euler",
           "RK4": "rk4"}

#: Plant steps the lab offers: label -> step [s]. Each divides the 5 ms record interval.
STEPS = {"1 ms": 1e-3, "0.5 ms": 5e-4, "0.2 ms": 2e-4, "0.1 ms": 1e-4, "0.05 ms": 5e-5}

#: The chapter's cases: start pose [deg], start speeds [rad/s], friction [N m s/rad],
#: plant step (a key of STEPS), method (a key of METHODS), duration [s].
FORWARD_DYNAMICS_PRESETS = {
    "zero-torque fall": dict(q1=30.0, q2=45.0, qd1=0.0, qd2=0.0, friction=0.02, step="0.1 ms",
                            method="semi-implicit Euler", duration=0.25),
    "no friction": dict(q1=30.0, q2=45.0, qd1=0.0, qd2=0.0, friction=0.0, step="0.1 ms",
                        method="semi-implicit Euler", duration=1.0),
    "coarse explicit Euler": dict(q1=-60.0, q2=0.0, qd1=0.0, qd2=0.0, friction=0.0, step="1 ms",
                                  method="explicit Euler", duration=3.0),
    "RK4 at a coarse step": dict(q1=-60.0, q2=0.0, qd1=0.0, qd2=0.0, friction=0.0, step="1 ms",
                                 method="RK4", duration=3.0),
    "near upright": dict(q1=89.0, q2=1.0, qd1=0.0, qd2=0.0, friction=0.02, step="1 ms",
                         method="RK4", duration=2.5),
}

#: How often the lab records the motion [s]. With the motors off there is no controller, so
#: the tick only sets the record: the plant steps, and so every state, are those of a
#: 1 ms tick; fewer rows make a change re-simulate faster.
RECORD_DT = 5e-3


class ForwardDynamicsLab(Lab):
    """The forward dynamics lab: a fall from any start, stepped by the integrator you choose.

    Use :func:`forward_dynamics_lab` to make one.

    Attributes
    ----------
    widgets : dict of ipywidgets
        ``"q1"``, ``"q2"`` (start pose, deg), ``"qd1"``, ``"qd2"`` (start
        speeds, rad/s), ``"friction"`` (N m s/rad), ``"step"`` (plant step,
        a key of :data:`STEPS`), ``"method"`` (a key of :data:`METHODS`),
        ``"duration"`` (s), ``"preset"``, ``"table"``, ``"image"``.
    figure : matplotlib.figure.Figure
        Four panels: the strobe of the arm, the joint angles over time, the
        energy balance and the integrator's energy error.
    strobe : armlab.plots.StrobeDrawing
        The arm's poses along the motion.
    artists : dict
        ``"angles"`` (two lines), ``"energy"`` (kinetic, potential, friction
        work, total plus friction work), ``"error"`` (one line), plus the
        strobe's artists.
    values : dict
        ``"sim"`` (the :class:`armlab.Simulation`), ``"arm"``, ``"step"``
        [s], ``"method"`` (armlab's name), ``"q_end"`` [rad],
        ``"energy_start"``, ``"energy_end"``, ``"friction_work"``,
        ``"energy_error_end"``, ``"energy_error_max"`` [J], ``"steps"``,
        ``"evaluations"`` (forward-dynamics calls).
    updates : int
        How many times the lab has redrawn.
    """

    presets = FORWARD_DYNAMICS_PRESETS
    default_preset = "zero-torque fall"
    controls = ("q1", "q2", "qd1", "qd2", "friction", "step", "method", "duration")

    def setup(self):
        self._limits = {}

    def build(self, start):
        import ipywidgets as w

        from armlab import plots

        style = {"description_width": self.label_width}
        self.widgets.update({
            "q1": self.slider("start q1", start["q1"], -180, 180, 0.5, "deg"),
            "q2": self.slider("start q2", start["q2"], -180, 180, 0.5, "deg"),
            "qd1": self.slider("start speed 1", start["qd1"], -10, 10, 0.1, "rad/s"),
            "qd2": self.slider("start speed 2", start["qd2"], -10, 10, 0.1, "rad/s"),
            "friction": self.slider("friction B", start["friction"], 0, 0.2, 0.005,
                                    "N m s/rad", readout=".3f"),
            "step": w.Dropdown(options=list(STEPS), value=start["step"],
                               description="plant step", style=style,
                               layout=w.Layout(width="28em")),
            "method": w.Dropdown(options=list(METHODS), value=start["method"],
                                 description="integrator", style=style,
                                 layout=w.Layout(width="28em")),
            "duration": self.slider("duration", start["duration"], 0.05, 5.0, 0.05, "s",
                                    readout=".2f"),
        })
        fig, axes = plots.figure(ncols=2, nrows=2, height=7.2)
        (ax_arm, ax_q), (ax_e, ax_err) = axes
        arm = tabletop_arm()
        self.strobe = plots.StrobeDrawing(ax_arm, arm, np.zeros((1, 2)), count=9)
        self.strobe.frame(margin=0.03)
        ax_arm.set_title("the arm (paler: earlier)")
        colors = [plots.COLORS["torque"], plots.COLORS["force"]]
        angles = [ax_q.plot([], [], color=c, label=f"q{i + 1}")[0]
                  for i, c in enumerate(colors)]
        ax_q.set_xlabel("time t [s]")
        ax_q.set_ylabel("joint angle [deg]")
        ax_q.legend(frameon=False, loc="upper left")
        ax_q.grid(alpha=0.3)
        ax_q.set_title("joint angles")
        energy_styles = [("kinetic T", plots.COLORS["torque"], "-"),
                         ("potential V", plots.COLORS["force"], "-"),
                         ("friction work", plots.COLORS["weight"], "-"),
                         ("T + V + friction work", plots.COLORS["arm"], "--")]
        energy = [ax_e.plot([], [], color=c, ls=ls, label=label)[0]
                  for label, c, ls in energy_styles]
        ax_e.set_xlabel("time t [s]")
        ax_e.set_ylabel("energy [J]")
        fig.legend(energy, [label for label, _, _ in energy_styles], loc="outside lower center",
                   ncol=2, frameon=False)
        ax_e.grid(alpha=0.3)
        ax_e.set_title("energy balance")
        (error,) = ax_err.plot([], [], color=plots.COLORS["limit"])
        ax_err.axhline(0, color=plots.COLORS["arm"], lw=0.8)
        ax_err.set_xlabel("time t [s]")
        ax_err.set_ylabel("energy error [J]")
        ax_err.grid(alpha=0.3)
        ax_err.set_title("integrator's error")
        self.figure = fig
        self._axes = {"q": ax_q, "e": ax_e, "err": ax_err}
        self.artists = dict(self.strobe.artists, angles=angles, energy=energy, error=error)
        del self.artists["base"]                 # the base does not move

    # -- computing and drawing ---------------------------------------------------------------
    def state(self):
        """The controls in SI units: ``q0`` [rad], ``qd0`` [rad/s], friction, step [s], method, duration [s]."""
        v = {k: self.widgets[k].value for k in self.controls}
        return (np.radians([v["q1"], v["q2"]]), np.array([v["qd1"], v["qd2"]]),
                float(v["friction"]), STEPS[v["step"]], METHODS[v["method"]],
                float(v["duration"]))

    def compute(self):
        """Simulate the fall for the current controls (see :attr:`values`)."""
        q0, qd0, friction, step, method, duration = self.state()
        arm = tabletop_arm(damping=friction)
        substeps = round(RECORD_DT / step)
        duration = round(duration / RECORD_DT) * RECORD_DT
        sim = simulate(arm, q0, duration, qd0=qd0, control_dt=RECORD_DT, substeps=substeps,
                       method=method)
        steps = round(duration / RECORD_DT) * substeps
        return {
            "sim": sim, "arm": arm, "step": step, "method": method,
            "q_end": sim.q[-1],
            "energy_start": float(sim.energy[0]),
            "energy_end": float(sim.energy[-1]),
            "friction_work": float(sim.friction_work[-1]),
            "energy_error_end": float(sim.energy_error[-1]),
            "energy_error_max": float(np.abs(sim.energy_error).max()),
            "steps": steps,
            "evaluations": steps * (4 if method == "rk4" else 1),
        }

    def set_preset(self, name):
        """Move every control to a preset's values and redraw once, the axes fitted afresh."""
        self._limits = {}
        super().set_preset(name)

    def _limit(self, name, xlim, ylim):
        """Set an axes' ranges (snapped values); True when they changed (a rescale).

        The time axis follows the duration; a value axis only grows while the
        controls move (a chaotic fall would otherwise rescale, and redraw the
        whole figure, at every step of a drag) and is fitted afresh by a preset.
        """
        old = self._limits.get(name)
        if old is not None:
            ylim = (min(old[1][0], ylim[0]), max(old[1][1], ylim[1]))
        if old == (xlim, ylim):
            return False
        self._limits[name] = (xlim, ylim)
        self._axes[name].set_xlim(*xlim)
        self._axes[name].set_ylim(*ylim)
        return True

    def draw(self, v):
        """Move the strobe, the angle, energy and error lines to the new motion."""
        sim = v["sim"]
        t = sim.time
        self.strobe.update(sim.q)
        q_deg = np.degrees(sim.q)
        for line, column in zip(self.artists["angles"], q_deg.T):
            line.set_data(t, column)
        energies = [sim.kinetic, sim.potential, sim.friction_work,
                    sim.energy + sim.friction_work - sim.motor_work]
        for line, series in zip(self.artists["energy"], energies):
            line.set_data(t, series)
        self.artists["error"].set_data(t, sim.energy_error)
        span = (0.0, axis_top(t[-1]) if t[-1] > 0 else 1.0)
        changed = [self._limit("q", span, _snapped(q_deg)),
                   self._limit("e", span, _snapped(np.concatenate(energies))),
                   self._limit("err", span, _snapped(sim.energy_error))]
        if any(changed):
            self.rescaled()

    # -- the table ---------------------------------------------------------------------------
    def table_rows(self):
        """The table as ``(quantity, value, unit)`` rows of text."""
        v = self.values
        sim = v["sim"]
        end = np.degrees(v["q_end"])
        return [
            (f"q at t = {sim.time[-1]:.2f} s", "({:.1f}, {:.1f})".format(*(end + 0.0)), "deg"),
            ("energy E = T + V at the start, at the end",
             f"{v['energy_start']:.4f}, {v['energy_end']:.4f}", "J"),
            ("work taken by friction", f"{v['friction_work']:.4f}", "J"),
            ("energy error at the end", f"{v['energy_error_end']:.2e}", "J"),
            ("largest energy error (in size)", f"{v['energy_error_max']:.2e}", "J"),
            ("plant steps, forward-dynamics evaluations",
             f"{v['steps']:,}, {v['evaluations']:,}", ""),
        ]


def _snapped(values):
    """An axis range ``(low, high)`` that holds ``values`` and zero, ends snapped by axis_top."""
    low, high = float(np.min(values)), float(np.max(values))
    size = high - low
    if size <= 0:                                   # a flat line: any small range
        return (-1.0, 1.0) if low == 0 else (min(0.0, 2 * low), max(0.0, 2 * high))
    return (-axis_top(-low) if low < -1e-3 * size else 0.0,
            axis_top(high) if high > 1e-3 * size else 0.0)


def forward_dynamics_lab(preset=ForwardDynamicsLab.default_preset, render=True):
    """The forward dynamics lab: start the arm anywhere, pick a step and an integrator, let go.

    Parameters
    ----------
    preset : str
        Starting case, a key of :data:`FORWARD_DYNAMICS_PRESETS`.
    render : bool
        Render the figure to the image widget on every update (turn off to
        drive the lab from code without paying for PNG encoding).

    Returns
    -------
    ForwardDynamicsLab
        Displays itself as the lab's widgets; ``lab.widgets``, ``lab.figure``,
        ``lab.artists`` and ``lab.values`` expose its state.

    Examples
    --------
    The zero-torque fall of the chapter's Example 3, then the same start
    without friction for a second:

    >>> lab = forward_dynamics_lab(render=False)
    >>> np.degrees(lab.values["q_end"]).round(1)
    array([-35.4,  98.7])
    >>> lab.set_preset("no friction")
    >>> round(lab.values["friction_work"], 12)
    0.0
    """
    return ForwardDynamicsLab(preset=preset, render=render)
