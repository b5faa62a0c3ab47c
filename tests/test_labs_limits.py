"""armlab.labs.limits_lab: the widgets drive the drawing and the table; each preset gives its
worked values (the chapter's figures are tested in test_figures_limits.py, its gear
computations in test_gearing.py)."""

import numpy as np
import pytest

import armlab as al
from labtests import drawn, table

labs = pytest.importorskip("armlab.labs")
from armlab.labs import limits as limits_module  # noqa: E402

PRESETS = list(limits_module.LIMITS_PRESETS)


@pytest.fixture
def lab():
    return labs.limits_lab(render=False)


# -------------------------------------------------------------------------- presets
def test_default_is_the_horizontal_request_within_25_N_m(lab):
    """The rods-and-limits case: (1, 0) rad/s^2 at 25 N m needs (22.286667, 5.738333) N m and gets
    it"""
    v = lab.values
    np.testing.assert_allclose(v["requested"].round(6), [22.286667, 5.738333])
    np.testing.assert_array_equal(v["applied"], v["requested"])
    np.testing.assert_allclose(v["qdd"], [1, 0], atol=1e-12)
    assert table(lab)["realized q̈"] == "(1.000000, 0.000000)"


def test_torque_limited_preset_gives_the_worked_values(lab):
    """The rods-and-limits case at 20 N m: applied (20, 5.738333), realized (-2.92, 9.8), deficit
    check"""
    lab.set_preset("torque-limited acceleration (20 N m)")
    rows = table(lab)
    assert rows["applied τ (clipped per joint)"] == "(20.000000, 5.738333)"
    assert rows["realized q̈"] == "(-2.920000, 9.800000)"
    assert rows["deficit: applied − requested"] == "(-2.286667, 0.000000)"
    assert rows["error: realized − requested"] == "(-3.920000, 9.800000)"
    assert rows["check: M × error"] == "(-2.286667, 0.000000)"


def test_elbow_request_preset_gives_sevenths(lab):
    """The rods-and-limits case's exercise: (0, 2) at 1.5 N m, no gravity -> (5/3, 2/3), (1.5, 2/3),
    (-2/7, 19/7)"""
    lab.set_preset("elbow request at 1.5 N m, no gravity")
    v = lab.values
    np.testing.assert_allclose(v["requested"], [5 / 3, 2 / 3], atol=1e-13)
    np.testing.assert_allclose(v["applied"], [1.5, 2 / 3], atol=1e-13)
    np.testing.assert_allclose(v["qdd"], [-2 / 7, 19 / 7], atol=1e-13)
    assert table(lab)["realized q̈"] == "(-0.285714, 2.714286)"
    # no gravity: the capacity says so instead of a misleading inf
    assert table(lab)["payload capacity of the pose"] == "inf (no gravity: loads weigh nothing)"


def test_nan_preset_the_arm_falls(lab):
    """15 N m cannot hold the horizontal rods: capacity nan at the shoulder, and it falls"""
    lab.set_preset("capacity nan: 15 N m cannot hold the arm")
    rows = table(lab)
    assert rows["payload capacity per joint"] == "nan (overloaded), 1.029"
    assert rows["payload capacity of the pose"] == "nan (overloaded): joint 1 cannot hold the arm"
    np.testing.assert_allclose(lab.values["qdd"], [-7.92, 19.8], atol=1e-12)


def test_inf_preset_pointing_up(lab):
    """Straight up: no joint carries a weight at the tip, both capacities inf"""
    lab.set_preset("capacity inf: pointing straight up")
    assert np.all(np.isinf(lab.values["capacity"]))
    assert table(lab)["payload capacity of the pose"] == "inf (carries none)"


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_satisfies_the_deficit_check(lab, preset):
    """M (qdd_real - qdd_req) = applied - requested, in every preset"""
    lab.set_preset(preset)
    v = lab.values
    np.testing.assert_allclose(v["check"], v["deficit"], atol=1e-12)
    assert lab.widgets["preset"].value == preset


# -------------------------------------------------------------------------- widgets
def test_limit_slider_changes_bars_lines_and_table(lab):
    before = table(lab)
    lab.widgets["limit"].value = 20.0
    heights = [b.get_height() for b in lab.artists["tau_bars"]]
    np.testing.assert_allclose(heights, np.r_[lab.values["requested"], lab.values["applied"]])
    assert lab.artists["limit_lines"][1].get_ydata()[0] == 20.0
    acc = [b.get_height() for b in lab.artists["acc_bars"]]
    np.testing.assert_allclose(acc, np.r_[[1.0, 0.0], lab.values["qdd"]])
    assert table(lab) != before
    assert lab.widgets["preset"].value == labs.CUSTOM


def test_ghosts_show_where_each_acceleration_takes_the_arm(lab):
    """The ghosts are the poses after GHOST_TIME s at the requested and the realized q̈"""
    lab.widgets["limit"].value = 20.0
    t = limits_module.GHOST_TIME
    for key, qdd in (("ghost_request", [1.0, 0.0]), ("ghost_realized", lab.values["qdd"])):
        q = 0.5 * np.asarray(qdd) * t**2
        np.testing.assert_allclose(drawn(lab.artists[key]),
                                   al.joint_positions(al.rod_arm(), q), atol=1e-12)


def test_pose_and_speed_sliders(lab):
    """Angles and speeds in degrees reach armlab in radians; c(q, qd) enters the request"""
    lab.widgets["q2"].value = 60.0
    lab.widgets["qd1"].value = 90.0
    q, qd = np.radians([0, 60]), np.radians([90, 0])
    np.testing.assert_allclose(drawn(lab.artists["links"]), al.joint_positions(al.rod_arm(), q))
    np.testing.assert_allclose(lab.values["requested"],
                               al.inverse_dynamics(al.rod_arm(), q, qd, [1, 0]))


def test_policy_and_payload(lab):
    """Scaling shortens the vector; a payload joins the dynamics and is compared to capacity"""
    lab.widgets["limit"].value = 20.0
    lab.widgets["policy"].value = "scale the vector"
    v = lab.values
    np.testing.assert_allclose(v["applied"], v["requested"] * 20 / v["requested"][0])
    assert table(lab)["applied τ (scaled as a vector)"] == "(20.000000, 5.149566)"
    lab.widgets["limit"].value = 25.0
    lab.widgets["payload"].value = 0.5
    arm = al.rod_arm().with_payload(0.5)
    np.testing.assert_allclose(lab.values["requested"],
                               al.inverse_dynamics(arm, [0, 0], [0, 0], [1, 0]))
    assert table(lab)["payload capacity of the pose"] == \
        "0.274: joint 1 limits (the 0.50 kg payload is too heavy)"
    lab.widgets["payload"].value = 0.25
    assert table(lab)["payload capacity of the pose"] == \
        "0.274: joint 1 limits (holds the 0.25 kg payload)"


def test_gravity_checkbox(lab):
    lab.widgets["gravity"].value = False
    np.testing.assert_allclose(lab.values["requested"], [8 / 3, 5 / 6])


def test_table_markdown_is_the_table(lab):
    md = lab.table_markdown()
    assert md.count("\n") == len(lab.table_rows()) + 1
    assert "| realized q̈ | (1.000000, 0.000000) | rad/s² |" in md.splitlines()


@pytest.mark.parametrize("preset, text", [
    ("horizontal acceleration (25 N m)", "capacity 0.274 kg\n(joint 1 limits)"),
    ("elbow request at 1.5 N m, no gravity", "no gravity: any payload"),
    ("capacity nan: 15 N m cannot hold the arm", "capacity nan: joint 1\ncannot hold the arm"),
    ("capacity inf: pointing straight up", "capacity inf: no joint\ncarries a payload"),
])
def test_arm_panel_shows_the_pose_capacity(lab, preset, text):
    """The pose's payload capacity is written on the arm's panel, and follows the presets"""
    lab.set_preset(preset)
    assert lab.artists["capacity"].get_text() == text
