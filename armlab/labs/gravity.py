"""The gravity chapter's lab: the weights an arm holds up, who carries them, and how far a PD
controller without gravity compensation lets it sag.

The arm and its weights are drawn by :class:`armlab.figures.gravity.WeightDrawing`, which
the chapter's figures use too.
"""

import numpy as np

from armlab import plots
from armlab.arm import PlanarArm, rod_arm, tabletop_arm
from armlab.dynamics import gravity_torques
from armlab.gravity import (gravity_shares, gravity_stiffness, mounted, payload_torques,
                            pd_sag)
from armlab.figures.gravity import WeightDrawing
from armlab.labs._base import Lab, axis_top, pair

__all__ = ["GravityLab", "gravity_lab", "GRAVITY_PRESETS", "GRAVITY_ARMS", "lab_arm",
           "STABILITY"]

#: The two arms the lab offers: name -> (link lengths [m], link-1 mass [kg]).
GRAVITY_ARMS = {
    "two 1 m rods": rod_arm(),
    "table-top arm": tabletop_arm(),
}

#: The gravity chapter's worked cases: arm, joint angles [deg], link-2 mass [kg], payload
#: [kg], mounting angle [deg] (0 floor, 90 wall, 180 ceiling), shoulder Kp [N m/rad].
GRAVITY_PRESETS = {
    "horizontal hold": dict(arm="two 1 m rods", q1=0.0, q2=0.0, m2=1.0, payload=0.0, mount=0.0,
                            kp=60.0),
    "facing left": dict(arm="two 1 m rods", q1=180.0, q2=0.0, m2=1.0, payload=0.0, mount=0.0,
                        kp=60.0),
    "upright": dict(arm="two 1 m rods", q1=90.0, q2=0.0, m2=1.0, payload=0.0, mount=0.0,
                    kp=60.0),
    "link 2 of 2 kg": dict(arm="two 1 m rods", q1=0.0, q2=0.0, m2=2.0, payload=0.0, mount=0.0,
                           kp=60.0),
    "table-top pose": dict(arm="table-top arm", q1=30.0, q2=45.0, m2=1.0, payload=0.0,
                           mount=0.0, kp=60.0),
    "with a 0.5 kg payload": dict(arm="table-top arm", q1=30.0, q2=45.0, m2=1.0, payload=0.5,
                                  mount=0.0, kp=60.0),
    "wall-mounted": dict(arm="table-top arm", q1=30.0, q2=45.0, m2=1.0, payload=0.0,
                         mount=90.0, kp=60.0),
}

#: What zero torque does at a pose, by the gravity torque and the eigenvalues of dg/dq.
STABILITY = {
    "loaded": "moves: g(q) is not zero",
    "stable": "stays: a stable balance",
    "unstable": "falls: an unstable balance",
    "neutral": "a neutral balance",
}

#: The PD's elbow gain is this fraction of the shoulder's, as in the chapter's (60, 30).
ELBOW_GAIN = 0.5

#: Shoulder gains of the sag curve [N m/rad].
KP_SWEEP = np.geomspace(5.0, 400.0, 32)


def lab_arm(name, m2=None, payload=0.0, mount=0.0):
    """One of the lab's arms with link 2's mass, a payload at the tip and a mounting angle.

    Parameters
    ----------
    name : str
        A key of :data:`GRAVITY_ARMS`.
    m2 : float, optional
        Link 2's mass [kg] (a uniform rod); default the arm's own.
    payload : float
        Point mass at the tip [kg].
    mount : float
        Mounting angle [rad], see :func:`armlab.mount_gravity`.

    Returns
    -------
    empty : PlanarArm
        The arm without its payload.
    loaded : PlanarArm
        The arm with the payload, as the controller and the sag see it.

    Examples
    --------
    >>> empty, loaded = lab_arm("table-top arm", payload=0.5)
    >>> loaded.masses
    (2.0, 1.5)
    """
    if name not in GRAVITY_ARMS:
        raise ValueError(f"name must be one of {list(GRAVITY_ARMS)}, got {name!r}")
    base = GRAVITY_ARMS[name]
    masses = base.masses if m2 is None else (base.masses[0], float(m2))
    empty = mounted(PlanarArm(base.lengths, masses), mount)
    return empty, empty.with_payload(payload)


class GravityLab(Lab):
    """The gravity chapter's lab: pose, link-2 mass, payload and mounting in; the arm with its
    weights, each weight's share of ``g`` and the sag of a PD without compensation out.

    Use :func:`gravity_lab` to make one.

    Attributes
    ----------
    widgets : dict of ipywidgets
        ``"arm"`` (dropdown), ``"q1"``, ``"q2"`` [deg], ``"m2"`` [kg], ``"payload"``
        [kg], ``"mount"`` [deg: 0 floor, 90 wall, 180 ceiling], ``"kp"`` (the
        shoulder's gain, N m/rad; the elbow's is half of it), the checkboxes
        ``"show_link1"``, ``"show_link2"``, ``"show_payload"``, and ``"preset"``,
        ``"table"``, ``"image"``.
    figure : matplotlib.figure.Figure
        Three panels: the arm (world frame), the shares of ``g1`` and ``g2``,
        and the PD's sag against its gain.
    drawing : WeightDrawing
    artists : dict
    values : dict
        ``"q"`` [rad]; ``"g"`` (2,) [N m] with the payload; ``"shares"`` (3, 2)
        [N m]: link 1, link 2, payload; ``"stiffness"`` (2, 2) [N m/rad];
        ``"eigenvalues"`` (2,); ``"stability"`` (a key of :data:`STABILITY`);
        ``"kp"`` (2,); ``"sag"`` (2,) [rad]; ``"gravity"`` (2,) [m/s^2] in the
        arm's frame; ``"sweep"`` (k, 2) [rad], the sag for :data:`KP_SWEEP`.
    """

    presets = GRAVITY_PRESETS
    default_preset = "horizontal hold"
    controls = ("arm", "q1", "q2", "m2", "payload", "mount", "kp", "show_link1", "show_link2",
                "show_payload")

    def setup(self):
        self._arm_name = None
        self._sag_top = None
        self._sweep_key = None

    def build(self, start):
        self.widgets.update({
            "arm": self.dropdown("arm", GRAVITY_ARMS, start["arm"]),
            "q1": self.slider("q1", start["q1"], -180, 180, 1, "deg", ".0f"),
            "q2": self.slider("q2", start["q2"], -180, 180, 1, "deg", ".0f"),
            "m2": self.slider("link-2 mass", start["m2"], 0.5, 2.0, 0.1, "kg", ".1f"),
            "payload": self.slider("payload at the tip", start["payload"], 0.0, 2.0, 0.1, "kg",
                                   ".1f"),
            "mount": self.slider("mount (0 floor, 90 wall, 180 ceiling)", start["mount"], 0,
                                 180, 5, "deg", ".0f"),
            "kp": self.slider("PD gain Kp1 (Kp2 = Kp1/2)", start["kp"], 5, 400, 5, "N m/rad",
                              ".0f"),
        })
        for key, text in [("show_link1", "show link 1's share"),
                          ("show_link2", "show link 2's share"),
                          ("show_payload", "show the payload's share")]:
            self.widgets[key] = self.checkbox(text, True)
        grid = self.grid_figure(6.4, 2, 2, width_ratios=[1.1, 1], left=0.105, right=0.985,
                                bottom=0.1, top=0.93, wspace=0.42, hspace=0.5)
        ax_arm, ax_bar, ax_sag = (self.figure.add_subplot(cell)
                                  for cell in (grid[:, 0], grid[0, 1], grid[1, 1]))
        self.artists = {**self._build_arm_panel(ax_arm, start), **self._build_share_panel(ax_bar),
                        **self._build_sag_panel(ax_sag, start)}
        self._ax_bar, self._ax_sag = ax_bar, ax_sag
        self._bar_top = None

    def _build_arm_panel(self, ax_arm, start):
        """The arm in the world frame with its weights (:class:`WeightDrawing`)."""
        empty, _ = lab_arm(start["arm"], start["m2"], start["payload"],
                           np.radians(start["mount"]))
        self.drawing = WeightDrawing(ax_arm, empty, np.radians([start["q1"], start["q2"]]),
                                     labels=False)
        ax_arm.set_title("weights, and the PD's sag (dashed)")
        return dict(self.drawing.artists)

    def _build_share_panel(self, ax_bar):
        """Each weight's share of the holding torque, three bars per joint, and the total."""
        offsets = np.array([-0.3, -0.1, 0.1])
        colors = self.drawing.colors
        share_bars = [ax_bar.bar(np.arange(2) + dx, [0, 0], width=0.19, color=col, label=lab)
                      for dx, col, lab in zip(offsets, colors, ["link 1", "link 2", "payload"])]
        total = ax_bar.bar(np.arange(2) + 0.3, [0, 0], width=0.19, color=plots.COLORS["arm"],
                           label="g (total)")
        ax_bar.set_xticks([0, 1], ["shoulder", "elbow"])
        ax_bar.axhline(0, color=plots.COLORS["arm"], lw=0.8)
        ax_bar.set_ylabel("holding torque [N m]")
        ax_bar.set_title("each weight's share of g(q)")
        ax_bar.legend(frameon=False, loc="upper right", ncol=2, handlelength=1,
                      columnspacing=0.8)
        ax_bar.grid(axis="y", alpha=0.3)
        self._share_bars = [list(b) for b in share_bars]       # [weight][joint]
        return dict(shares=[b for bs in share_bars for b in bs], total=list(total))

    def _build_sag_panel(self, ax_sag, start):
        """The PD's sag against the shoulder gain, the gain marked."""
        (sag1,) = ax_sag.plot([], [], color=plots.COLORS["torque"], label="joint 1")
        (sag2,) = ax_sag.plot([], [], color=plots.COLORS["force"], label="joint 2")
        (dots,) = ax_sag.plot([], [], "o", color=plots.COLORS["arm"], ms=5, zorder=5)
        marker = ax_sag.axvline(start["kp"], color=plots.COLORS["weight"], lw=1, ls="--")
        ax_sag.set_xscale("log")
        ax_sag.set_xlim(KP_SWEEP[0], KP_SWEEP[-1])
        ax_sag.set_xlabel("shoulder gain Kp1 [N m/rad]")
        ax_sag.set_ylabel("sag [deg]")
        ax_sag.set_title("PD sag, Kp2 = Kp1/2")
        ax_sag.axhline(0, color=plots.COLORS["arm"], lw=0.8)
        ax_sag.legend(frameon=False, loc="upper right")
        ax_sag.grid(alpha=0.3, which="both")
        return dict(sag_lines=[sag1, sag2], sag_dots=dots, kp_marker=marker)

    # -- computing and drawing ---------------------------------------------------------------
    def state(self):
        """The controls in SI units: arm name, ``q`` [rad], m2 and payload [kg], mount [rad],
        ``kp`` (2,) [N m/rad], and which shares are shown."""
        v = {k: self.widgets[k].value for k in self.controls}
        kp = float(v["kp"]) * np.array([1.0, ELBOW_GAIN])
        shown = (v["show_link1"], v["show_link2"], v["show_payload"])
        return (v["arm"], np.radians([v["q1"], v["q2"]]), float(v["m2"]), float(v["payload"]),
                np.radians(v["mount"]), kp, shown)

    def compute(self):
        """The table's values for the current controls (see :attr:`values`)."""
        name, q, m2, payload, mount, kp, shown = self.state()
        empty, loaded = lab_arm(name, m2, payload, mount)
        shares = np.vstack([gravity_shares(empty, q), payload_torques(empty, q, payload)])
        g = gravity_torques(loaded, q)
        K = gravity_stiffness(loaded, q)
        eig = np.linalg.eigvalsh(K)
        scale = max(1.0, np.abs(K).max())
        if np.abs(g).max() > 1e-9 * max(1.0, np.abs(shares).max()):
            stability = "loaded"
        elif eig[0] > 1e-9 * scale:
            stability = "stable"
        elif eig[0] < -1e-9 * scale:
            stability = "unstable"
        else:
            stability = "neutral"
        # The sag curve depends on the arm and the pose, not on Kp or the toggles.
        key = (name, float(q[0]), float(q[1]), m2, payload, float(mount))
        if key != self._sweep_key:
            self._sweep_key = key
            self._sweep = pd_sag(loaded, q, KP_SWEEP[:, None] * np.array([1.0, ELBOW_GAIN]))
        sweep = self._sweep
        return {
            "arm": name, "q": q, "empty": empty, "loaded": loaded, "payload": payload,
            "g": g, "shares": shares, "stiffness": K, "eigenvalues": eig,
            "stability": stability, "kp": kp, "sag": pd_sag(loaded, q, kp), "sweep": sweep,
            "gravity": np.asarray(loaded.gravity), "shown": shown,
        }

    def draw(self, v):
        """Move the arm, the bars and the sag curve to the values ``v``."""
        reach = sum(v["empty"].lengths)
        if v["arm"] != self._arm_name:            # another arm: new scale and limits
            self._arm_name = v["arm"]
            self.drawing.force_scale = 0.025 * reach
            self.drawing.frame(reach)
            self.rescaled()
        self.drawing.update(v["empty"], v["q"], v["payload"], ghost=v["q"] - v["sag"],
                            shown=v["shown"])
        for k, bars in enumerate(self._share_bars):
            for j, bar in enumerate(bars):
                bar.set_height(v["shares"][k, j])
                bar.set_visible(bool(v["shown"][k]))
        for j, bar in enumerate(self.artists["total"]):
            bar.set_height(v["g"][j])
        heights = np.concatenate([v["shares"].ravel(), v["g"]])
        top = axis_top(1.8 * max(np.abs(heights).max(), 0.1))      # room for the legend
        span = (-top if heights.min() < -1e-9 else -0.1 * top, top)
        if span != self._bar_top:
            self._bar_top = span
            self._ax_bar.set_ylim(*span)
            self.rescaled()
        sweep = np.degrees(v["sweep"])
        for j, line in enumerate(self.artists["sag_lines"]):
            line.set_data(KP_SWEEP, sweep[:, j])
        self.artists["sag_dots"].set_data([v["kp"][0]] * 2, np.degrees(v["sag"]))
        self.artists["kp_marker"].set_xdata([v["kp"][0]] * 2)
        hi = axis_top(1.5 * max(np.abs(sweep).max(), 0.1))         # room for the legend
        lo = -hi if sweep.min() < -1e-9 else -0.1 * hi
        if (lo, hi) != self._sag_top:
            self._sag_top = (lo, hi)
            self._ax_sag.set_ylim(lo, hi)
            self.rescaled()

    # -- the table ---------------------------------------------------------------------------
    def table_rows(self):
        """The table as ``(quantity, value, unit)`` rows of text."""
        v = self.values

        kp = v["kp"]
        return [
            ("g(q), the torque that holds the arm", pair(v["g"], ".4f"), "N m"),
            ("link 1's share", pair(v["shares"][0], ".4f"), "N m"),
            ("link 2's share", pair(v["shares"][1], ".4f"), "N m"),
            ("the payload's share", pair(v["shares"][2], ".4f"), "N m"),
            ("eigenvalues of dg/dq", pair(v["eigenvalues"], ".3f"), "N m/rad"),
            ("released with zero torque, the arm", STABILITY[v["stability"]], ""),
            (f"PD sag at Kp = ({kp[0]:g}, {kp[1]:g}) N m/rad", pair(np.degrees(v["sag"]), ".2f"),
             "deg"),
            ("gravity in the arm's frame", pair(v["gravity"], ".2f"), "m/s²"),
        ]


def gravity_lab(preset=GravityLab.default_preset, render=True):
    """The gravity lab: pose, link-2 mass, payload and mounting in; weights, shares and sag out.

    Parameters
    ----------
    preset : str
        Starting case, a key of :data:`GRAVITY_PRESETS`.
    render : bool
        Render the figure to the image widget on every update (turn off to
        drive the lab from code without paying for PNG encoding).

    Returns
    -------
    GravityLab
        Displays itself as the lab's widgets; ``lab.widgets``, ``lab.figure``,
        ``lab.artists`` and ``lab.values`` expose its state.

    Examples
    --------
    Two 1 m, 1 kg rods held horizontal, then with link 2 of 2 kg:

    >>> lab = gravity_lab(render=False)
    >>> lab.values["g"].round(4)
    array([19.62 ,  4.905])
    >>> lab.widgets["m2"].value = 2.0
    >>> lab.values["g"].round(4)
    array([34.335,  9.81 ])
    """
    return GravityLab(preset=preset, render=render)
