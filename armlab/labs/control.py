"""The control chapter's lab.

It re-simulates the control chapter's 1.5 s experiment (the quintic move
from (-45, 90) deg to (60, -30) deg in 0.8 s, then a 0.7 s hold) on the
table-top arm under the controller and gains chosen with the widgets, and draws
each joint's error and torque over time. The plant is the real arm (viscous
friction 0.02 N m s/rad, plus the payload); the controller's model has the
friction set by the slider and the payload only when it "knows" it. The plant
is stepped by RK4, one step per control tick and at most 1 ms per step (the
setting of the chapter's numbers).

The chapter's figures (runs over time, gain maps) are in :mod:`armlab.figures.control`.
"""

import numpy as np

from armlab.arm import tabletop_arm
from armlab.dynamics import gravity_torques, inverse_dynamics, mass_matrix
from armlab.labs._base import Lab, axis_top
from armlab.prose import fmt
from armlab.control import computed_torque, feedforward_pid, pd_gravity, pid
from armlab.simulation import simulate, tracking_error
from armlab.trajectory import quintic
from armlab.tuning import natural_frequency, tracking_summary

__all__ = ["ControlLab", "control_lab", "CONTROL_PRESETS", "CONTROLLERS", "MOVE",
           "REAL_FRICTION", "PLANT_STEP"]

#: The chapter's move: start and end poses [deg], duration and hold [s].
MOVE = dict(start=(-45.0, 90.0), end=(60.0, -30.0), duration=0.8, hold=0.7)
#: The real arm's viscous friction [N m s/rad]; its controllers' model believes 0.016.
REAL_FRICTION = 0.02
#: The plant's longest integration step [s]: RK4, one step per tick up to 1 ms.
PLANT_STEP = 1e-3

#: The controllers the lab offers, by the name the chapter uses.
CONTROLLERS = ("PID", "PD + gravity", "feed-forward + PID", "computed torque")

_CHAPTER_GAINS = dict(kp1=60.0, kp2=30.0, kd1=4.0, kd2=1.5, ki1=60.0, ki2=30.0, ct_kp=400.0,
                   ct_kd=40.0)
_EMPTY = dict(payload=0.0, knows=False, friction=0.016, rate=1000)


def _preset(controller, preload=False, **changes):
    return dict(controller=controller, **_CHAPTER_GAINS, preload=preload, **_EMPTY) | changes


#: The chapter's worked runs: the controls' values for each.
CONTROL_PRESETS = {
    "PID, integral preloaded": _preset("PID", preload=True),
    "PD + gravity": _preset("PD + gravity"),
    "feed-forward + PID": _preset("feed-forward + PID"),
    "computed torque": _preset("computed torque"),
    "computed torque, unknown 0.5 kg payload": _preset("computed torque", payload=0.5),
    "computed torque, payload known": _preset("computed torque", payload=0.5, knows=True),
    "PID without the preloaded integral": _preset("PID"),
}

#: Which controls each controller uses (the others are hidden).
_USES = {
    "PID": {"kp1", "kp2", "kd1", "kd2", "ki1", "ki2", "preload"},
    "PD + gravity": {"kp1", "kp2", "kd1", "kd2"},
    "feed-forward + PID": {"kp1", "kp2", "kd1", "kd2", "ki1", "ki2"},
    "computed torque": {"ct_kp", "ct_kd"},
}
_GAINS = ("kp1", "kp2", "kd1", "kd2", "ki1", "ki2", "preload", "ct_kp", "ct_kd")


class ControlLab(Lab):
    """The control chapter's lab: a controller, its gains, a payload, and the run they give.

    Use :func:`control_lab` to make one. The attributes below let code (and
    tests) drive the lab exactly as a reader does.

    Attributes
    ----------
    widgets : dict of ipywidgets
        ``"controller"`` (dropdown of :data:`CONTROLLERS`); the PID family's
        gains ``"kp1"``, ``"kp2"`` [N m/rad], ``"kd1"``, ``"kd2"``
        [N m s/rad], ``"ki1"``, ``"ki2"`` [N m/(rad s)] and ``"preload"``
        (the PID's integral starts at ``g(q_start)``); computed torque's
        ``"ct_kp"`` [1/s^2] and ``"ct_kd"`` [1/s]; ``"payload"`` [kg],
        ``"knows"`` (the model includes the payload), ``"friction"`` (the
        model's viscous friction, N m s/rad; the real arm has 0.02),
        ``"rate"`` (control rate, Hz); plus ``"preset"``, ``"table"`` and
        ``"image"``. Controls the chosen controller does not use are hidden.
    figure : matplotlib.figure.Figure
        Errors (top) and torques (bottom) of the shoulder (left) and the
        elbow (right) over time.
    artists : dict
        ``"error"``, ``"torque"``, ``"needed"`` (lists of two lines, one per
        joint) and ``"status"`` (a text shown when a run diverges).
    values : dict
        ``"sim"`` (the :class:`armlab.Simulation`, or ``None`` if it diverged),
        ``"largest"`` and ``"final"`` (errors [rad], as
        :func:`armlab.tuning.tracking_summary`), ``"peak_torque"`` [N m],
        ``"omega"`` [rad/s] and ``"zeta"`` at the start pose, ``"diverged"``
        (the message, or ``None``), and the controls in SI units.
    updates : int
        How many times the lab has redrawn.
    """

    presets = CONTROL_PRESETS
    default_preset = "PID, integral preloaded"
    controls = ("controller",) + _GAINS + ("payload", "knows", "friction", "rate")
    label_width = "13em"

    def setup(self):
        self.plan = quintic(np.radians(MOVE["start"]), np.radians(MOVE["end"]),
                            MOVE["duration"], hold=MOVE["hold"])
        self._tops = [None] * 4

    def set_preset(self, name):
        """Move every control to a preset's values and fit the axes to its run afresh."""
        self._tops = [None] * 4
        super().set_preset(name)

    # -- building ------------------------------------------------------------------------------
    def build(self, start):
        import ipywidgets as w

        from armlab import plots

        style = {"description_width": self.label_width}
        wide = w.Layout(width="28em")
        self.widgets.update({
            "controller": w.Dropdown(options=list(CONTROLLERS), value=start["controller"],
                                     description="controller", style=style, layout=wide),
            "kp1": self.slider("Kp shoulder", start["kp1"], 0, 200, 1, "N m/rad", ".0f"),
            "kp2": self.slider("Kp elbow", start["kp2"], 0, 100, 0.5, "N m/rad", ".1f"),
            "kd1": self.slider("Kd shoulder", start["kd1"], 0, 40, 0.1, "N m s/rad", ".1f"),
            "kd2": self.slider("Kd elbow", start["kd2"], 0, 20, 0.05, "N m s/rad", ".2f"),
            "ki1": self.slider("Ki shoulder", start["ki1"], 0, 200, 1, "N m/(rad s)", ".0f"),
            "ki2": self.slider("Ki elbow", start["ki2"], 0, 100, 0.5, "N m/(rad s)", ".1f"),
            "preload": w.Checkbox(value=start["preload"], indent=False,
                                  description="integral starts at g(q_start)"),
            "ct_kp": self.slider("Kp (both joints)", start["ct_kp"], 0, 2500, 10, "1/s²", ".0f"),
            "ct_kd": self.slider("Kd (both joints)", start["ct_kd"], 0, 100, 1, "1/s", ".0f"),
            "payload": self.slider("payload", start["payload"], 0, 1, 0.05, "kg", ".2f"),
            "knows": w.Checkbox(value=start["knows"], indent=False,
                                description="the model knows the payload"),
            "friction": self.slider("model friction", start["friction"], 0, 0.04, 0.001,
                                    "N m s/rad", ".3f"),
            "rate": w.SelectionSlider(options=[("250 Hz", 250), ("500 Hz", 500),
                                               ("1 kHz", 1000), ("2 kHz", 2000),
                                               ("5 kHz", 5000), ("10 kHz", 10000)],
                                      value=start["rate"], description="control rate",
                                      style=style, layout=wide, continuous_update=False),
        })
        self.figure, axes = plots.figure(ncols=2, nrows=2, height=5.6, sharex=True)
        self._axes = axes.ravel()
        a = self.artists = {"error": [], "torque": [], "needed": []}
        for j, name in enumerate(("shoulder", "elbow")):
            ax_e, ax_t = axes[0, j], axes[1, j]
            for ax in (ax_e, ax_t):
                ax.axvspan(0, MOVE["duration"], color="0.92", zorder=0, lw=0)
                ax.axhline(0, color="0.5", lw=0.8)
                ax.grid(alpha=0.3)
                ax.set_xlim(0, self.plan.end_time)
            (line,) = ax_e.plot([], [], color="#D55E00", lw=1.5)
            a["error"].append(line)
            (need,) = ax_t.plot([], [], color="0.45", lw=1.2, ls="--", label="needed")
            (sent,) = ax_t.plot([], [], color="#0072B2", lw=1.5, label="sent")
            a["needed"].append(need)
            a["torque"].append(sent)
            ax_e.set_title(f"{name} error")
            ax_t.set_title(f"{name} torque")
            ax_t.set_xlabel("time t [s]")
        axes[0, 0].set_ylabel("error [deg]")
        axes[1, 0].set_ylabel("torque [N m]")
        axes[1, 1].legend(handles=[a["torque"][1], a["needed"][1]], frameon=False,
                          loc="upper right")
        a["status"] = axes[0, 0].text(0.5, 0.5, "", transform=axes[0, 0].transAxes,
                                      ha="center", va="center", color="#D55E00")

    # -- computing -----------------------------------------------------------------------------
    def settings(self):
        """The controls in SI units (a dict; angles stay radians, gains per joint)."""
        v = {k: self.widgets[k].value for k in self.controls}
        return dict(v, kp=np.array([v["kp1"], v["kp2"]]), kd=np.array([v["kd1"], v["kd2"]]),
                    ki=np.array([v["ki1"], v["ki2"]]))

    def controller(self, s, model):
        """The controller the settings ``s`` describe, built on ``model``."""
        plan, kind = self.plan, s["controller"]
        if kind == "PID":
            preload = gravity_torques(self.real(s), plan.start) if s["preload"] else None
            return pid(plan, s["kp"], s["kd"], s["ki"], integral=preload)
        if kind == "PD + gravity":
            return pd_gravity(model, plan, s["kp"], s["kd"])
        if kind == "feed-forward + PID":
            return feedforward_pid(model, plan, s["kp"], s["kd"], s["ki"])
        return computed_torque(model, plan, s["ct_kp"], s["ct_kd"])

    @staticmethod
    def real(s):
        """The plant: the table-top arm with its real friction and the payload."""
        return tabletop_arm(REAL_FRICTION).with_payload(s["payload"])

    @staticmethod
    def model(s):
        """The controller's model: the model friction, and the payload if it knows it."""
        return tabletop_arm(s["friction"]).with_payload(s["payload"] if s["knows"] else 0.0)

    def compute(self):
        """Simulate the run the controls describe; the table's values (see :attr:`values`)."""
        s = self.settings()
        self._show_controls(s["controller"])
        real, model = self.real(s), self.model(s)
        dt = 1.0 / s["rate"]
        substeps = max(1, int(np.ceil(dt / PLANT_STEP - 1e-9)))
        values = dict(s, sim=None, diverged=None)
        try:
            sim = simulate(real, self.plan.start, self.plan.end_time,
                           self.controller(s, model), control_dt=dt, substeps=substeps,
                           method="rk4")
        except ValueError as err:
            values["diverged"] = str(err).split(":")[0]
            return values
        largest, final = tracking_summary(sim, self.plan)
        if s["controller"] == "computed torque":
            omega, zeta = natural_frequency(np.full(2, max(s["ct_kp"], 1e-12)),
                                            np.full(2, s["ct_kd"]))
        else:
            inertia = np.diag(mass_matrix(model, self.plan.start))
            omega, zeta = natural_frequency(np.maximum(s["kp"], 1e-12), s["kd"], inertia)
        values.update(sim=sim, largest=largest, final=final,
                      peak_torque=np.abs(sim.tau).max(axis=0), omega=omega, zeta=zeta)
        return values

    def _show_controls(self, kind):
        for name in _GAINS:
            self.widgets[name].layout.display = None if name in _USES[kind] else "none"

    # -- drawing -------------------------------------------------------------------------------
    def draw(self, v):
        """Move the error and torque lines to the run in ``v``; rescale an axis if needed."""
        a = self.artists
        sim = v["sim"]
        if sim is None:
            for line in a["error"] + a["torque"] + a["needed"]:
                line.set_data([], [])
            a["status"].set_text(f"the run diverged:\n{v['diverged']}")
            return
        a["status"].set_text("")
        stride = max(1, len(sim.time) // 1500)
        t = sim.time[::stride]
        error = np.degrees(tracking_error(sim, self.plan))[::stride]
        q, qd, qdd = self.plan(t)
        needed = inverse_dynamics(self.real(v), q, qd, qdd)
        tau = sim.tau[::stride]
        for j in range(2):
            a["error"][j].set_data(t, error[:, j])
            a["torque"][j].set_data(t, tau[:, j])
            a["needed"][j].set_data(t, needed[:, j])
        for i in range(4):
            low, high = self._tops[i] or (None, None)
            if i < 2:                               # errors: symmetric, the sign matters
                top = _fit(high, 1.05 * max(np.abs(error[:, i]).max(), 1e-6))
                limits = (-top, top)
            else:                                   # torques: from the lowest to the highest
                both = np.concatenate([tau[:, i - 2], needed[:, i - 2]])
                top = _fit(high, 1.05 * max(both.max(), 1e-6))
                bottom = _fit(None if low is None else -low, max(-1.05 * both.min(), 0.1 * top))
                limits = (-bottom, top)
            if limits != self._tops[i]:
                self._tops[i] = limits
                self._axes[i].set_ylim(*limits)
                self.rescaled()

    # -- the table -----------------------------------------------------------------------------
    def table_rows(self):
        """The table as ``(quantity, value, unit)`` rows of text."""
        v = self.values
        if v["sim"] is None:
            return [("run", "diverged", ""), ("", v["diverged"], "")]

        def pair(x, spec=".3g"):              # no sign on a zero, as in the prose
            return ", ".join(str(fmt(float(e), spec)) for e in x)

        return [
            ("largest error during the move (shoulder, elbow)",
             pair(np.degrees(v["largest"])), "deg"),
            ("error at the end of the hold", pair(np.degrees(v["final"])), "deg"),
            ("largest torque sent", pair(v["peak_torque"]), "N m"),
            ("natural frequency ω at the start pose", pair(v["omega"]), "rad/s"),
            ("damping ratio ζ", pair(v["zeta"], ".2f"), ""),
        ]


def _nice_top(value):
    """The smallest of 1, 1.5, 2.5, 5 times a power of ten that is at least ``value``.

    One step finer than :func:`armlab.labs.axis_top`'s default (a torque of 10.04 N m
    gets an axis to 15, not 25), yet few enough that a drag rescales (a full
    redraw) only when its curve crosses one of four tops a decade.

    >>> [_nice_top(x) for x in (0.9, 9.6, 10.04, 0.0377)]
    [1.0, 10.0, 15.0, 0.05]
    """
    return axis_top(value, steps=(1.0, 1.5, 2.5, 5.0))


def _fit(current, value):
    """An axis top for a curve reaching ``value``: ``current`` while the curve fits and the
    nice top of twice the curve is not below it (so the curve fills more than a quarter of
    the axis), else :func:`_nice_top`. A drag through a shrinking error then rescales (a full
    redraw) about half as often; a preset fits its axes afresh.

    >>> _fit(0.25, 0.2), _fit(0.25, 0.06), _fit(0.25, 0.3), _fit(None, 0.2)
    (0.25, 0.1, 0.5, 0.25)
    """
    if current is not None and value <= current <= _nice_top(2 * value):
        return current
    return _nice_top(value)


def control_lab(preset=ControlLab.default_preset, render=True):
    """The control lab: choose a controller and its gains, add a payload, read the run.

    Parameters
    ----------
    preset : str
        Starting run, a key of :data:`CONTROL_PRESETS`.
    render : bool
        Render the figure to the image widget on every update (turn off to
        drive the lab from code without paying for PNG encoding).

    Returns
    -------
    ControlLab
        Displays itself as the lab's widgets; ``lab.widgets``, ``lab.figure``,
        ``lab.artists`` and ``lab.values`` expose its state.

    Examples
    --------
    PID alone on the chapter's move, its integral preloaded with the holding
    torque at the start: the shoulder falls 4.95 deg behind the plan.

    >>> lab = control_lab(render=False)
    >>> np.degrees(lab.values["largest"]).round(2)
    array([4.95, 1.43])
    >>> lab.set_preset("feed-forward + PID")
    >>> np.degrees(lab.values["largest"]).round(3)
    array([0.012, 0.036])
    """
    return ControlLab(preset=preset, render=render)
