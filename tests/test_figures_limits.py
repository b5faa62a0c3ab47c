"""armlab.figures.limits: each of the limits chapter's figures draws the values armlab computes."""

import numpy as np
import pytest

import armlab as al
from armlab import gearing

figures = pytest.importorskip("armlab.figures.limits")

#: The table-top arm's move of the chapter [rad].
MOVE = (np.radians([-45, 90]), np.radians([60, -30]))


def test_policy_figure_draws_the_computed_bars():
    fig = figures.policy_figure([("rods", al.rod_arm(), [0, 0], [0, 0], [1, 0], 20)])
    ax_tau, ax_acc = fig.axes[:2]
    heights = [p.get_height() for p in ax_tau.patches]
    req, clip, _ = al.realized_acceleration(al.rod_arm(), [0, 0], [0, 0], [1, 0], 20)
    scaled = al.scale_torques(req, 20)
    np.testing.assert_allclose(heights, np.r_[req, clip, scaled])
    acc = [p.get_height() for p in ax_acc.patches]
    np.testing.assert_allclose(acc[2:4], [-2.92, 9.8])


def test_duration_figure_marks_the_binding_point():
    arm = al.tabletop_arm()
    lim = al.shortest_duration(arm, *MOVE, [8, 2])
    fig = figures.duration_figure(arm, *MOVE, [8, 2], [0.8, lim.duration, np.inf])
    marker = [line for line in fig.axes[0].lines if line.get_marker() == "o"]
    assert len(marker) == 1
    np.testing.assert_allclose(marker[0].get_xydata(), [[lim.fraction, 8.0]])
    # the curve drawn for T* peaks at the limit
    curve = fig.axes[0].lines[1].get_ydata()
    assert 7.99 < curve.max() <= 8.0 + 1e-9


def test_capacity_figure_draws_the_map():
    arm = al.tabletop_arm()
    grid = np.radians(np.linspace(-180, 180, 37))
    m = al.capacity_map(arm, grid, grid, [6, 1.5])
    fig = figures.capacity_figure([("weak", m)], path=MOVE)
    mesh = fig.axes[0].collections[0]
    shown = np.asarray(mesh.get_array()).reshape(m.capacity.shape)
    finite = np.isfinite(m.capacity)
    np.testing.assert_allclose(shown[finite], np.clip(m.capacity[finite], 0.05, 20))
    undefined = np.isnan(m.capacity)
    assert undefined.any()                        # the map has cells without a capacity
    hidden = np.ma.getmaskarray(mesh.get_array()).reshape(shown.shape) | np.isnan(shown)
    np.testing.assert_array_equal(hidden, undefined)


def test_gear_figure_draws_the_sweep():
    motor = al.Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6)
    sweep = gearing.gear_sweep(motor, (0.3, 0.25), (2.0, 1.0), *MOVE, [40.0, 60.0, 80.0, 120.0])
    fig = figures.gear_figure(sweep, worked=80)
    np.testing.assert_allclose(fig.axes[1].lines[0].get_ydata(), sweep["torque"])
    np.testing.assert_allclose(fig.axes[1].lines[1].get_ydata(), sweep["speed"])
    # the arm's own peak need, a horizontal line at the sweep's fastest move
    np.testing.assert_array_equal(fig.axes[0].lines[1].get_ydata(), [sweep["need"]] * 2)


def test_motor_figure_draws_the_cycle_and_its_rms():
    motor = al.Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6, stall_torque=0.3,
                     continuous_torque=0.05)
    c = gearing.duty_cycle(motor, (0.3, 0.25), (2.0, 1.0), *MOVE, 64.0, 1.0)
    sweep = gearing.gear_sweep(motor, (0.3, 0.25), (2.0, 1.0), *MOVE, np.geomspace(40, 120, 12))
    fig = figures.motor_figure(motor, c, 64.0, [("line", sweep)], thermal=100.0)
    np.testing.assert_array_equal(fig.axes[0].lines[-1].get_ydata(), [c["rms"][0]] * 2)
    np.testing.assert_array_equal(fig.axes[0].lines[-2].get_ydata(), c["tau"][:, 0])
    np.testing.assert_array_equal(fig.axes[1].lines[0].get_ydata(), sweep["best"])


def test_phase_plane_figure_draws_the_profile():
    arm = al.tabletop_arm()
    profile = al.time_optimal_scaling(arm, *MOVE, [8, 2])
    fig = figures.phase_plane_figure(arm, *MOVE, [8, 2], profile)
    drawn = [line for line in fig.axes[0].lines
             if line.get_label().startswith("time-optimal")]
    assert len(drawn) == 1
    np.testing.assert_array_equal(drawn[0].get_ydata(), profile.sd)
    assert drawn[0].get_label() == f"time-optimal, T = {profile.duration:.3f} s"
