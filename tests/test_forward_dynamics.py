"""The forward dynamics chapter's drawings (strobe, animation) and the claims it makes of armlab.

The chapter's numbers are asserted where the reader sees them in
``test_book_forward_dynamics.py``; here are the properties behind them, each
checked on armlab directly: the strobe draws armlab's joint positions, the
animation is self-contained, and the integrators behave as the chapter says.
"""

import base64
import re

import numpy as np
import pytest

import armlab as al

plots = pytest.importorskip("armlab.plots")


@pytest.fixture(scope="module")
def fall():
    return al.simulate(al.tabletop_arm(damping=0.02), np.radians([30, 45]), 0.25)


# ----------------------------------------------------------------------------- the strobe

def test_strobe_draws_armlab_joint_positions(fall):
    """Each drawn pose is armlab's joint positions at an evenly spaced row, first and last included"""
    arm = al.tabletop_arm()
    fig, ax = plots.figure()
    strobe = plots.StrobeDrawing(ax, arm, fall.q, count=11)
    assert strobe.shown.tolist() == list(range(0, 251, 25))
    for line, k in zip(strobe.artists["poses"], strobe.shown):
        np.testing.assert_allclose(line.get_xydata(), al.joint_positions(arm, fall.q[k]))
    np.testing.assert_allclose(strobe.artists["tip_path"].get_xydata(),
                               al.tip_position(arm, fall.q))


def test_strobe_updates_in_place(fall):
    """A new motion moves the same artists; the last pose is the motion's end"""
    arm = al.tabletop_arm()
    fig, ax = plots.figure()
    strobe = plots.StrobeDrawing(ax, arm, fall.q[:2], count=5)
    artists = list(strobe.artists["poses"])
    counts = (len(ax.lines), len(ax.patches))
    strobe.update(fall.q)
    assert strobe.artists["poses"] == artists and (len(ax.lines), len(ax.patches)) == counts
    np.testing.assert_allclose(artists[-1].get_xydata(), al.joint_positions(arm, fall.q[-1]))


def test_strobe_fit_holds_every_pose(fall):
    """fit() sets limits that contain the base and every drawn point"""
    arm = al.tabletop_arm()
    fig, ax = plots.figure()
    plots.StrobeDrawing(ax, arm, fall.q, count=11).fit(margin=0.01)
    points = al.joint_positions(arm, fall.q).reshape(-1, 2)
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert x0 <= min(points[:, 0].min(), 0) and x1 >= points[:, 0].max()
    assert y0 <= min(points[:, 1].min(), 0) and y1 >= points[:, 1].max()


def test_strobe_bad_input(fall):
    """A count below 2 or angles of the wrong shape are refused"""
    fig, ax = plots.figure()
    with pytest.raises(ValueError, match="count"):
        plots.StrobeDrawing(ax, al.tabletop_arm(), fall.q, count=1)
    with pytest.raises(ValueError, match="q has shape"):
        plots.StrobeDrawing(ax, al.tabletop_arm(), fall.q[:, :1])


# ----------------------------------------------------------------------------- the animation

@pytest.fixture(scope="module")
def player(fall):
    return plots.animation_html(al.tabletop_arm(), fall.time, fall.q, frames=6, dpi=40,
                                alt='the "fall" <animated>')


def test_animation_loads_nothing_from_elsewhere(player):
    """No URL to another host, no external script or stylesheet: only data URIs"""
    assert not re.search(r"(?:src|href)\s*=\s*[\"'](?:https?:)?//", player)
    assert "http" not in player
    assert "<link" not in player
    assert re.findall(r"<script\b[^>]*>", player) == ["<script>"]       # inline only


def test_animation_frames_are_pngs(player):
    """The requested number of frames, each a PNG image, the first one shown"""
    listed = re.search(r"var frames = (\[[^\]]*\])", player).group(1)
    frames = re.findall(r'"data:image/png;base64,([A-Za-z0-9+/=]+)"', listed)
    assert len(frames) == 6
    for frame in frames:
        assert base64.b64decode(frame)[:8] == b"\x89PNG\r\n\x1a\n"
    img = re.search(r'<img id="[^"]+" src="data:image/png;base64,([^"]+)"', player)
    assert img.group(1) == frames[0]
    assert 'max="5"' in player                      # the slider spans the six frames


def test_animation_times_and_alt_text(player, fall):
    """The clock labels are the frames' simulated times; the alt text is escaped"""
    times = re.search(r"times = (\[[^\]]*\]);", player).group(1)
    assert times == '["0.000 s", "0.050 s", "0.100 s", "0.150 s", "0.200 s", "0.250 s"]'
    assert 'alt="the &quot;fall&quot; &lt;animated&gt;"' in player


def test_animation_is_deterministic(fall, player):
    """The same motion gives the same page, so rebuilding the book changes nothing"""
    again = plots.animation_html(al.tabletop_arm(), fall.time, fall.q, frames=6, dpi=40,
                                 alt='the "fall" <animated>')
    assert again == player


def test_animation_bad_input(fall):
    """Mismatched shapes and too few frames are refused"""
    with pytest.raises(ValueError, match="expected"):
        plots.animation_html(al.tabletop_arm(), fall.time[:-1], fall.q)
    with pytest.raises(ValueError, match="frames"):
        plots.animation_html(al.tabletop_arm(), fall.time, fall.q, frames=1)


# ----------------------------------------------------------------------------- the chapter's claims

def test_explicit_euler_first_step_leaves_the_arm_in_place():
    """From rest, explicit Euler's first step moves no angle; semi-implicit moves it by h^2 a0"""
    arm, q0, h = al.tabletop_arm(damping=0.02), np.radians([30, 45]), 1e-4
    a0 = al.forward_dynamics(arm, q0, [0, 0], [0, 0])
    ee = al.simulate(arm, q0, h, control_dt=h, substeps=1, method="explicit_euler")
    se = al.simulate(arm, q0, h, control_dt=h, substeps=1, method="semi_implicit_euler")
    assert np.array_equal(ee.q[1], q0)
    np.testing.assert_allclose(se.q[1] - q0, h * h * a0, rtol=0, atol=1e-16)


def test_explicit_euler_gains_energy_semi_implicit_does_not():
    """The frictionless swing from (-60, 0) deg at 1 ms: explicit Euler's energy error grows
    every second; semi-implicit Euler's stays 20 times smaller; RK4's is far below both"""
    arm, q0 = al.tabletop_arm(), np.radians([-60, 0])
    errors = {m: al.simulate(arm, q0, 5.0, substeps=1, method=m).energy_error
              for m in ("explicit_euler", "semi_implicit_euler", "rk4")}
    each_second = errors["explicit_euler"][::1000]
    assert np.all(np.diff(each_second) > 0)
    assert np.abs(errors["semi_implicit_euler"]).max() < each_second[-1] / 20
    assert np.abs(errors["rk4"]).max() < 1e-9


def test_torque_held_through_the_tick_keeps_the_arm_still():
    """Gravity compensation held through each tick holds the arm exactly; applied for one
    sub-step in ten it lets the shoulder fall by tens of degrees in 0.5 s"""
    arm, q0 = al.tabletop_arm(damping=0.02), np.radians([30, 45])
    holder = al.pd_gravity(al.tabletop_arm(damping=0.016), q0, (60, 30), (4, 1.5))
    held = al.simulate(arm, q0, 0.5, holder)
    assert np.abs(held.q - q0).max() < 1e-12

    def pulsed(t, q, qd):
        return holder(t, q, qd) if round(t / 1e-4) % 10 == 0 else np.zeros(2)

    not_held = al.simulate(arm, q0, 0.5, pulsed, control_dt=1e-4, substeps=1)
    assert np.degrees(q0[0] - not_held.q[-1, 0]) > 30


def test_near_upright_falls_spread_past_half_a_turn():
    """A hundred falls within 0.01 deg of (89, 1) deg are more than 180 deg apart after 3 s,
    and less than 1 deg apart for the first half second"""
    rng = np.random.default_rng(1)
    starts = np.radians([89, 1]) + np.radians(rng.uniform(-0.005, 0.005, (100, 2)))
    falls = al.simulate(al.tabletop_arm(damping=0.02), starts, 3.0, substeps=1, method="rk4")
    spread = np.degrees(np.ptp(falls.q, axis=0)).max(axis=-1)
    assert spread[0] <= 0.01
    assert spread[:500].max() < 1.0
    assert spread[-1] > 180.0


def test_semi_implicit_euler_drifts_on_the_arm_not_with_constant_inertia():
    """The chapter's correction: in the frictionless swing from (-60, 0) deg at 1 ms,
    semi-implicit Euler's energy error creeps up about 0.9 mJ per second (a straight line
    fitted over 10 s), and halving the step halves the creep (first order); on an arm whose
    mass matrix is constant (link 2's centre of mass at the elbow) the same update does not
    drift: the mean error of the last quarter of 20 s is that of the first to 0.1 mJ"""
    arm, q0 = al.tabletop_arm(), np.radians([-60, 0])
    slopes = []
    for substeps in (1, 2):
        sim = al.simulate(arm, q0, 10.0, substeps=substeps, method="semi_implicit_euler")
        slopes.append(np.polyfit(sim.time, sim.energy_error, 1)[0])
    assert round(1e3 * slopes[0], 1) == 0.9
    assert slopes[1] == pytest.approx(slopes[0] / 2, rel=0.05)
    constant = al.PlanarArm(lengths=(0.30, 0.25), masses=(2.0, 1.0), com=(0.15, 0.0),
                            inertia=(0.015, 0.005208))
    np.testing.assert_allclose(al.mass_matrix(constant, [0.3, 0.0]),
                               al.mass_matrix(constant, [0.3, 2.0]), rtol=0, atol=1e-15)
    sim = al.simulate(constant, np.radians([-60, 30]), 20.0, method="semi_implicit_euler")
    quarter = sim.energy_error.size // 4
    first, last = sim.energy_error[:quarter].mean(), sim.energy_error[-quarter:].mean()
    assert abs(last - first) < 1e-4
    drifting = al.simulate(arm, np.radians([-60, 30]), 20.0,
                           method="semi_implicit_euler").energy_error
    assert drifting[-quarter:].mean() - drifting[:quarter].mean() > 5e-3


def test_no_source_document_named_in_the_chapter_or_its_modules():
    """No 'seed' (this project's word for its sources) in the chapter's source, which JupyterLab
    shows, nor in the modules whose docstrings reach the API page and the lab"""
    import pathlib

    root = pathlib.Path(__file__).resolve().parent.parent
    for path in ("book/forward_dynamics.md", "armlab/simulation.py", "armlab/accuracy.py",
                 "armlab/labs/forward_dynamics.py"):
        text = (root / path).read_text(encoding="utf-8").lower()
        assert "seed" not in text, path
