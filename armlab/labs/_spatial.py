"""What the two spatial chapters' labs share: a real arm in 3-D, a payload and a tip wrench.

:class:`SpatialLab` is a :class:`armlab.labs._base.Lab` whose controls are the
arm's joint angles [deg], a payload at the tip [kg], the wrench the tip applies
(force [N] and moment about the tip [N m], world axes), gravity on or off and the
ellipsoid to draw. It shows two things:

* the 3-D view (:mod:`armlab.labs._view3d`): the arm's links, each joint's frame
  and the tip's, the tip wrench as arrows (the moment with two heads), the payload's
  weight, and the force or velocity ellipsoid at the tip; drag it to turn it;
* a bar chart (the base class's figure and image): each joint's torque against the
  URDF's rated torque (``effort``), redrawn in place.

Its table gives the joint torques and their parts (gravity, payload, wrench), the
largest payload held in the pose and the largest multiple of the wrench, the
singular values of the tip's linear-velocity Jacobian and the manipulability.
Everything is computed by :mod:`armlab.spatial`.
"""

import numpy as np

import armlab.spatial as sp
from armlab.labs._base import Lab, axis_top
from armlab.labs._view3d import Scene, static_html, view_widget

__all__ = ["SpatialLab", "preset", "stretched_pose"]

#: The drawing's scales: force arrows [m per N], moment arrows [m per N m], the velocity
#: ellipsoid [m per m/s].
FORCE_SCALE, MOMENT_SCALE, SPEED_SCALE = 0.01, 0.2, 0.5
#: The force ellipsoid drawn is for joint torques of at most this size [N m].
ELLIPSOID_TORQUE = 1.0
WRENCH = ("mx", "my", "mz", "fx", "fy", "fz")
ELLIPSOIDS = ("force", "velocity", "none")


def preset(q, payload=0.0, wrench=(0, 0, 0, 0, 0, 0), gravity=True, ellipsoid="force"):
    """A preset's control values from a pose ``q`` [rad], a payload [kg] and a tip wrench
    (moment [N m], force [N]).

    >>> preset([0, 0, 0, 0, 0], wrench=(0, 0, 0.2, 0, 0, -10))["fz"]
    -10.0
    """
    values = {f"q{i + 1}": float(np.degrees(a)) for i, a in enumerate(q)}
    values.update(payload=float(payload), gravity=bool(gravity), ellipsoid=ellipsoid)
    values.update({k: float(w) for k, w in zip(WRENCH, wrench)})
    return values


def stretched_pose(arm):
    """The SO-101's stretched pose with its base joint at zero: the elbow and the wrist
    turned so that the shoulder-lift axis, the elbow, the wrist and the tip lie on one line
    (the spatial statics chapter's Example 7) [rad].

    >>> np.degrees(stretched_pose(sp.so101())).round(2)
    array([  0.  ,   0.  , -73.82,  -5.05,   0.  ])
    """
    frames = sp.joint_poses(arm, np.zeros(arm.n))
    pts = np.vstack([frames[1:4, :3, 3], sp.forward_kinematics(arm, np.zeros(arm.n))[:3, 3]])
    seg = np.diff(pts, axis=0)
    pitch = np.arctan2(-seg[:, 2], seg[:, 0])          # each segment's pitch about +y [rad]
    elbow = pitch[0] - pitch[1]
    return np.array([0.0, 0.0, elbow, pitch[0] - pitch[2] - elbow, 0.0])


class SpatialLab(Lab):
    """A real arm in 3-D with a payload and a tip wrench; see the module's docstring.

    Attributes
    ----------
    arm : armlab.spatial.Chain
        The arm (the SO-101 by default).
    widgets : dict of ipywidgets
        ``"q1"`` ... ``"q5"`` [deg], ``"payload"`` [kg], ``"mx"``, ``"my"``, ``"mz"``
        [N m] and ``"fx"``, ``"fy"``, ``"fz"`` [N] (the wrench the tip applies, world
        axes, moment about the tip), ``"gravity"`` (checkbox), ``"ellipsoid"``
        (dropdown), ``"preset"``, ``"table"``, ``"image"`` (the torque bars) and
        ``"view"`` (the 3-D view, an ``anywidget`` widget).
    scene : armlab.labs._view3d.Scene
        The 3-D view's last scene.
    values : dict
        ``"q"`` (n,) [rad], ``"wrench"`` (6,), ``"payload"`` [kg], ``"gravity"``,
        ``"tip"`` (4, 4) tip pose, ``"frames"`` (n, 4, 4) joint frames,
        ``"tau_gravity"``, ``"tau_payload"``, ``"tau_wrench"``, ``"tau"`` (n,) [N m],
        ``"effort"`` (n,) [N m], ``"capacity"`` [kg] and ``"capacity_joint"`` (largest
        payload held here, and the joint that limits it), ``"wrench_scale"`` and
        ``"wrench_joint"`` (the largest multiple of the wrench held with the payload;
        ``nan`` when the weights alone exceed a rating, ``inf`` for no wrench),
        ``"sigma"`` (3,) [m/rad], ``"directions"`` (3, 3), ``"manipulability"``.
    """

    controls = ("q1", "q2", "q3", "q4", "q5", "payload", "fx", "fy", "fz", "mx", "my", "mz",
                "gravity", "ellipsoid")

    def __init__(self, preset=None, render=True, arm=None):
        self.arm = sp.so101() if arm is None else arm
        if self.arm.n != 5:
            raise ValueError(f"arm: the spatial lab draws a five-joint arm; it has {self.arm.n}")
        self._top = None
        super().__init__(preset, render)

    # -- building ------------------------------------------------------------------------------
    def build(self, start):
        from armlab import plots

        arm = self.arm
        for i in range(arm.n):
            lo, hi = np.degrees([arm.lower[i], arm.upper[i]])
            self.widgets[f"q{i + 1}"] = self.slider(
                f"q{i + 1} {arm.joints[i]}", start[f"q{i + 1}"], float(np.ceil(lo)),
                float(np.floor(hi)), 0.5, "deg")
        self.widgets["payload"] = self.slider("payload", start["payload"], 0, 5, 0.01, "kg",
                                              readout=".2f")
        for k in ("fx", "fy", "fz"):
            self.widgets[k] = self.slider(f"tip force {k[1]}", start[k], -20, 20, 0.5, "N")
        for k in ("mx", "my", "mz"):
            self.widgets[k] = self.slider(f"tip moment {k[1]}", start[k], -1, 1, 0.01, "N m",
                                          readout=".2f")
        self.widgets["gravity"] = self.checkbox("gravity and payload weight", start["gravity"])
        self.widgets["ellipsoid"] = self.dropdown("ellipsoid", ELLIPSOIDS, start["ellipsoid"])

        self.figure, ax = plots.figure(width=plots.PAGE_WIDTH, height=2.6)
        x = np.arange(arm.n)
        bars = ax.bar(x, np.zeros(arm.n), color=plots.COLORS["torque"], width=0.6)
        ax.set_xticks(x, [f"τ{i + 1}" for i in x])
        ax.set_ylabel("joint torque [N m]")
        ax.axhline(0, color=plots.COLORS["arm"], lw=0.8)
        ax.grid(axis="y", alpha=0.3)
        ax.set_title("joint torques; dashed: rated ±effort (URDF)")
        for sign in (-1, 1):
            ax.hlines(sign * arm.effort, x - 0.45, x + 0.45, colors=plots.COLORS["limit"],
                      linestyles="--", lw=1.2)
        ax.set_xlim(-0.6, arm.n - 0.4)
        self.artists = {"bars": list(bars)}         # their values are the table's first rows
        self._ax = ax
        self.scene = Scene(center=(0, 0, 0), radius=1.0)
        self.widgets["view"] = view_widget(self.scene)

    # -- computing -----------------------------------------------------------------------------
    def state(self):
        """The controls in SI units: ``q`` [rad], wrench (6,), payload [kg], gravity flag."""
        v = {k: self.widgets[k].value for k in self.controls}
        q = np.radians([v[f"q{i + 1}"] for i in range(self.arm.n)])
        wrench = np.array([v[k] for k in WRENCH], dtype=float)
        return q, wrench, float(v["payload"]), bool(v["gravity"])

    def compute(self):
        """The table's values for the current controls (see :attr:`values`)."""
        arm = self.arm
        q, W, m, gravity = self.state()
        g = sp.gravity_torques(arm, q) if gravity else np.zeros(arm.n)
        b = sp.payload_torques(arm, q) if gravity else np.zeros(arm.n)
        tau_w = sp.static_torques(arm, q, W)
        capacity, capacity_joint = sp.payload_capacity(arm, q)
        loaded = arm.with_payload(m) if m > 0 else arm
        try:
            scale, scale_joint = sp.wrench_limit(loaded, q, W, gravity=gravity)
        except ValueError:                         # the weights alone exceed a rating
            scale, scale_joint = np.nan, -1
        sigma, directions = sp.velocity_ellipsoid(arm, q)
        return {
            "q": q, "wrench": W, "payload": m, "gravity": gravity,
            "tip": sp.forward_kinematics(arm, q), "frames": sp.joint_poses(arm, q),
            "tau_gravity": g, "tau_payload": m * b, "tau_wrench": tau_w,
            "tau": g + m * b + tau_w, "effort": arm.effort,
            "capacity": float(capacity), "capacity_joint": int(capacity_joint),
            "wrench_scale": float(scale), "wrench_joint": int(scale_joint),
            "sigma": sigma, "directions": directions,
            "manipulability": float(np.prod(sigma)),
            "ellipsoid": self.widgets["ellipsoid"].value,
        }

    # -- drawing -------------------------------------------------------------------------------
    def make_scene(self, v):
        """The 3-D view's scene for the values ``v``."""
        from armlab import plots

        s = Scene(center=(0.12, 0.0, 0.12), radius=0.27, pitch=25.0)
        grid = np.linspace(-0.2, 0.4, 7)
        for a in grid:                                 # the table top, z = 0, 10 cm squares
            s.line([[a, -0.3, 0], [a, 0.3, 0]], color="#dddddd")
        for a in np.linspace(-0.3, 0.3, 7):
            s.line([[-0.2, a, 0], [0.4, a, 0]], color="#dddddd")
        s.frame(np.eye(4), 0.08, width=2, text="base")
        T, frames = v["tip"], v["frames"]
        p = T[:3, 3]
        s.line(np.vstack([[0, 0, 0], frames[:, :3, 3], p]), color=plots.COLORS["arm"], width=5)
        for i, F in enumerate(frames):
            s.frame(F, 0.04, text=str(i + 1))
        s.frame(T, 0.05, width=2, text="tip")
        f, mom = v["wrench"][3:], v["wrench"][:3]
        if np.any(f):
            s.arrow(p, FORCE_SCALE * f, color=plots.COLORS["force"], width=3)
        if np.any(mom):
            s.arrow(p, MOMENT_SCALE * mom, color=plots.COLORS["torque"], width=3, heads=2)
        if v["payload"] > 0:
            weight = v["payload"] * self.arm.gravity
            s.arrow(p, FORCE_SCALE * weight, color=plots.COLORS["weight"], width=3)
        if v["ellipsoid"] == "force":
            half = np.minimum(FORCE_SCALE * ELLIPSOID_TORQUE / np.maximum(v["sigma"], 1e-12),
                              2 * s.radius)            # the drawing's cap, not the table's
            s.ellipsoid(p, half, v["directions"], color=plots.COLORS["ellipse"])
        elif v["ellipsoid"] == "velocity":
            s.ellipsoid(p, SPEED_SCALE * v["sigma"], v["directions"],
                        color=plots.COLORS["speed_ellipse"])
        return s

    def draw(self, v):
        """Move the bars to the torques (orange past the rating) and give the 3-D view its
        new scene."""
        from armlab import plots

        for bar, t, e in zip(self.artists["bars"], v["tau"], v["effort"]):
            bar.set_height(t)
            bar.set_color(plots.COLORS["force"] if abs(t) > e else plots.COLORS["torque"])
        top = axis_top(1.2 * max(v["effort"].max(), np.abs(v["tau"]).max()))
        if top != self._top:
            self._top = top
            self._ax.set_ylim(-top, top)
            self.rescaled()
        self.scene = self.make_scene(v)
        self.widgets["view"].scene = self.scene.as_dict()

    def static_view(self, label):
        """The 3-D view for a static page (HTML; the book's script draws and turns it)."""
        from IPython.display import HTML

        return HTML(static_html(self.scene, label))

    # -- the table -----------------------------------------------------------------------------
    def table_rows(self):
        """The table as ``(quantity, value, unit)`` rows of text."""
        v, names = self.values, self.arm.joints

        def vec(x):                     # rounded first: no "-0.0000"
            return "(" + ", ".join(f"{round(float(t), 4) + 0.0:.4f}" for t in x) + ")"

        worst = int(np.argmax(np.abs(v["tau"]) / v["effort"]))
        share = abs(v["tau"][worst]) / v["effort"][worst]
        if np.isnan(v["wrench_scale"]):
            scale = "none: the weights alone exceed a rating"
        elif np.isinf(v["wrench_scale"]):
            scale = "unbounded (no wrench)"
        else:
            scale = f"{v['wrench_scale']:.3f} ({names[v['wrench_joint']]})"
        capacity = ("none: the arm cannot hold itself" if np.isnan(v["capacity"]) else
                    f"{v['capacity']:.3f} ({names[v['capacity_joint']]})")
        return [
            ("tip position p", vec(v["tip"][:3, 3]), "m"),
            ("joint torques τ = g + m b + Jᵀ W", vec(v["tau"]), "N m"),
            ("largest |τᵢ| / rated", f"{100 * share:.1f} % ({names[worst]})", ""),
            ("gravity torques g(q)", vec(v["tau_gravity"]), "N m"),
            ("payload's share m b(q)", vec(v["tau_payload"]), "N m"),
            ("wrench's share Jᵀ W", vec(v["tau_wrench"]), "N m"),
            ("largest payload here under gravity (limiting joint)", capacity, "kg"),
            ("largest multiple of W, with the payload", scale, ""),
            ("σ1, σ2, σ3 of J_v", ", ".join(f"{s:.4g}" for s in v["sigma"]), "m/rad"),
            ("manipulability w = σ1 σ2 σ3", f"{v['manipulability']:.4g}", "m³/rad³"),
        ]

    # -- display -------------------------------------------------------------------------------
    @property
    def widget(self):
        """The whole lab: controls beside the 3-D view, the table and the torque bars below."""
        import ipywidgets as w

        if not hasattr(self, "_box"):
            controls = w.VBox([self.widgets["preset"]]
                              + [self.widgets[k] for k in self.control_names()])
            self._box = w.VBox([w.HBox([controls, self.widgets["view"]]),
                                w.HBox([self.widgets["table"], self.widgets["image"]])])
        return self._box
