"""armlab.labs.gravity_lab: presets give the chapter's worked values; widgets set from Python
change the drawing, the bars, the sag curve and the table in place."""

import numpy as np
import pytest

import armlab as al
from labtests import drawn, table

labs = pytest.importorskip("armlab.labs")
from armlab.figures.gravity import _turn  # noqa: E402
from armlab.labs.gravity import KP_SWEEP, STABILITY  # noqa: E402


@pytest.fixture
def lab():
    return labs.gravity_lab(render=False)


@pytest.mark.parametrize("preset, g, shown", [
    # the torque-budget case: two 1 m rods, lever arms 0.5 and 1.5 m (shoulder), 0.5 m (elbow)
    ("horizontal hold", (19.62, 4.905), "(19.6200, 4.9050)"),
    ("facing left", (-19.62, -4.905), "(-19.6200, -4.9050)"),
    ("upright", (0.0, 0.0), "(0.0000, 0.0000)"),
    ("link 2 of 2 kg", (34.335, 9.81), "(34.3350, 9.8100)"),
    # the table-top case: the table-top arm at (30, 45) deg, empty and with 0.5 kg at the tip
    ("table-top pose", (5.4148, 0.3174), "(5.4148, 0.3174)"),
    ("with a 0.5 kg payload", (7.0065, 0.6348), "(7.0065, 0.6348)"),
])
def test_presets_give_worked_values(lab, preset, g, shown):
    """Each preset's g(q), in the values and in the table, at the source's printed precision"""
    lab.set_preset(preset)
    np.testing.assert_allclose(lab.values["g"].round(4), g, atol=1e-12)
    assert table(lab)["g(q), the torque that holds the arm"] == shown
    assert lab.widgets["preset"].value == preset


def test_link2_mass_increases(lab):
    """The torque-budget case's exercise: link 2 of 2 kg adds 14.715 N m at the shoulder, 4.905 at
    the elbow"""
    before = lab.values["g"]
    lab.set_preset("link 2 of 2 kg")
    np.testing.assert_allclose((lab.values["g"] - before).round(4), [14.715, 4.905])
    np.testing.assert_allclose(lab.values["shares"][1], [29.43, 9.81], rtol=1e-14)


def test_upright_is_balanced_but_unstable(lab):
    """Rods pointing up: zero torque balances them, dg/dq has negative eigenvalues"""
    lab.set_preset("upright")
    assert lab.values["stability"] == "unstable"
    assert table(lab)["released with zero torque, the arm"] == STABILITY["unstable"]
    assert np.all(lab.values["eigenvalues"] < 0)
    lab.widgets["q1"].value = -90.0                 # hanging down: stable
    assert lab.values["stability"] == "stable"
    lab.widgets["q1"].value = 0.0
    assert table(lab)["released with zero torque, the arm"] == STABILITY["loaded"]


def test_tabletop_sag_is_the_worked_one(lab):
    """The table-top case's PD, Kp (60, 30), sags 5.5 and 0.9 deg at (30, 45); the dots sit on the
    curve"""
    lab.set_preset("table-top pose")
    assert np.degrees(lab.values["sag"]).round(1).tolist() == [5.5, 0.9]
    assert table(lab)["PD sag at Kp = (60, 30) N m/rad"] == "(5.54, 0.85)"
    np.testing.assert_allclose(drawn(lab.artists["sag_dots"]),
                               [[60, np.degrees(lab.values["sag"][0])],
                                [60, np.degrees(lab.values["sag"][1])]])
    # the dashed ghost is the arm at the rest pose q - e
    rest = np.radians([30, 45]) - lab.values["sag"]
    np.testing.assert_allclose(drawn(lab.artists["ghost"]),
                               al.joint_positions(al.tabletop_arm(), rest))


def test_payload_share_is_what_with_payload_adds(lab):
    """The payload's bar is g(with payload) - g(empty); the shares add up to the total"""
    lab.set_preset("with a 0.5 kg payload")
    v = lab.values
    q = np.radians([30, 45])
    arm = al.tabletop_arm()
    np.testing.assert_allclose(v["shares"][2], al.gravity_torques(arm.with_payload(0.5), q)
                               - al.gravity_torques(arm, q), atol=1e-12)
    np.testing.assert_allclose(v["shares"].sum(axis=0), v["g"], atol=1e-12)
    heights = [[bar.get_height() for bar in bars] for bars in lab._share_bars]
    np.testing.assert_allclose(heights, v["shares"])
    np.testing.assert_allclose([bar.get_height() for bar in lab.artists["total"]], v["g"])


def test_wall_mounted_is_the_first_joint_turned(lab):
    """On a wall (mount 90 deg) the torques are the floor arm's at q1 + 90 deg, and the
    drawing shows the arm turned by 90 deg with its plate on the wall"""
    lab.set_preset("wall-mounted")
    np.testing.assert_allclose(lab.values["g"], al.gravity_torques(
        al.tabletop_arm(), np.radians([120, 45])), atol=1e-12)
    assert table(lab)["gravity in the arm's frame"] == "(-9.81, 0.00)"
    world = al.joint_positions(al.tabletop_arm(), np.radians([120, 45]))
    np.testing.assert_allclose(drawn(lab.artists["links"]), world, atol=1e-12)
    plate = drawn(lab.artists["plate"])
    np.testing.assert_allclose(plate[:, 0], 0, atol=1e-12)      # a vertical plate


def test_ceiling_flips_the_torques(lab):
    lab.set_preset("table-top pose")
    floor = lab.values["g"]
    lab.widgets["mount"].value = 180.0
    np.testing.assert_allclose(lab.values["g"], -floor, atol=1e-12)
    assert lab.widgets["preset"].value == labs.CUSTOM


def test_sliders_move_the_arm_and_the_table(lab):
    """Setting q2 from Python redraws the links and the weights and changes the table"""
    before = lab.widgets["table"].value
    lab.widgets["q2"].value = 60.0
    q = np.radians([0, 60])
    np.testing.assert_allclose(drawn(lab.artists["links"]), al.joint_positions(al.rod_arm(), q),
                               atol=1e-12)
    com = al.com_positions(al.rod_arm(), q)
    x, y = lab.artists["weights"][1].get_data()
    np.testing.assert_allclose([x[0], y[0]], com[1])
    np.testing.assert_allclose([x[1] - x[0], y[1] - y[0]], [0, -0.05 * 9.81], atol=1e-12)
    assert lab.widgets["table"].value != before
    np.testing.assert_allclose(lab.values["g"], al.gravity_torques(al.rod_arm(), q))


def test_mass_and_payload_sliders(lab):
    lab.widgets["m2"].value = 1.5
    lab.widgets["payload"].value = 2.0
    arm = al.rod_arm(m2=1.5).with_payload(2.0)
    np.testing.assert_allclose(lab.values["g"], al.gravity_torques(arm, [0, 0]))
    assert lab.artists["payload"].get_visible()
    np.testing.assert_allclose(drawn(lab.artists["payload"]), [[2.0, 0.0]], atol=1e-12)


def test_kp_slider_moves_the_marker_and_the_sag(lab):
    lab.set_preset("table-top pose")
    lab.widgets["kp"].value = 200.0
    assert lab.artists["kp_marker"].get_xdata()[0] == 200.0
    np.testing.assert_allclose(lab.values["sag"],
                               al.pd_sag(al.tabletop_arm(), np.radians([30, 45]), [200, 100]))
    x, y = lab.artists["sag_lines"][0].get_data()
    np.testing.assert_allclose(x, KP_SWEEP)
    np.testing.assert_allclose(np.radians(y), lab.values["sweep"][:, 0])


def test_toggles_hide_a_share(lab):
    """Unticking link 2's share hides its bars and its weight arrow; the total stays g"""
    lab.widgets["show_link2"].value = False
    assert not any(bar.get_visible() for bar in lab._share_bars[1])
    assert not lab.artists["weights"][1].get_visible()
    assert all(bar.get_visible() for bar in lab._share_bars[0])
    np.testing.assert_allclose([bar.get_height() for bar in lab.artists["total"]],
                               [19.62, 4.905])
    assert lab.widgets["preset"].value == "horizontal hold"     # not part of a preset


def test_switching_arms_rescales_the_drawing(lab):
    assert lab.drawing.ax.get_xlim()[1] == pytest.approx(2.0 * 1.25)
    lab.set_preset("table-top pose")
    assert lab.drawing.ax.get_xlim()[1] == pytest.approx(0.55 * 1.25)
    assert lab.drawing.force_scale == pytest.approx(0.025 * 0.55)


def test_table_markdown(lab):
    md = lab.table_markdown()
    assert "| g(q), the torque that holds the arm | (19.6200, 4.9050) | N m |" in md
    assert len(lab.table_rows()) == 8


def test_turn_rotates_counter_clockwise():
    np.testing.assert_allclose(_turn(np.array([1.0, 0.0]), np.pi / 2), [0, 1], atol=1e-15)
