"""armlab.labs.statics_lab: widgets driven from Python change the drawing and the table in place."""

import numpy as np
import pytest

import armlab as al
from labtests import arrow, drawn

labs = pytest.importorskip("armlab.labs")


@pytest.fixture
def lab():
    return labs.statics_lab(render=False)


def test_default_is_the_wall_push(lab):
    """The statics case's wall push: q = (30, 60) deg, F = (10, 0) N, tau = (-6.5, -4.0) N m"""
    v = lab.values
    np.testing.assert_allclose(np.degrees(v["q"]), [30, 60])
    np.testing.assert_allclose(v["tip_force"], [10, 0], atol=1e-12)
    np.testing.assert_allclose(v["tau"].round(4), [-6.5, -4.0])
    np.testing.assert_allclose(drawn(lab.artists["links"]), al.joint_positions(al.statics_arm(), v["q"]))


def test_sliders_move_the_arm_and_the_table(lab):
    """Setting q2 from Python redraws the links and changes the table"""
    before_links = drawn(lab.artists["links"])
    before_table = lab.widgets["table"].value
    lab.widgets["q2"].value = 90.0
    q = np.radians([30, 90])
    np.testing.assert_allclose(drawn(lab.artists["links"]), al.joint_positions(al.statics_arm(), q))
    assert not np.allclose(drawn(lab.artists["links"]), before_links)
    assert lab.widgets["table"].value != before_table
    np.testing.assert_allclose(lab.values["tau"], al.static_torques(al.statics_arm(), q, [10, 0]))


def test_force_direction_and_size(lab):
    """The force sliders set F = size (cos a, sin a) and the arrow follows"""
    lab.widgets["angle"].value = 90.0
    lab.widgets["size"].value = 20.0
    np.testing.assert_allclose(lab.values["tip_force"], [0, 20], atol=1e-12)
    np.testing.assert_allclose(arrow(lab.artists["force"])[1], 0.02 * np.array([0, 20]),
                               atol=1e-12)


def test_torque_limit_moves_lines_and_push(lab):
    """The torque limit moves the dashed limit lines and scales the largest push"""
    push_20 = lab.values["max_push"]
    lab.widgets["limit"].value = 40.0
    assert lab.values["max_push"] == pytest.approx(2 * push_20)
    assert lab.artists["limit_lines"][1].get_ydata()[0] == 40.0


def test_bars_show_the_torques(lab):
    """The torque bars have the torques as heights"""
    lab.widgets["gravity"].value = True
    heights = [bar.get_height() for bar in lab.artists["bars"]]
    np.testing.assert_allclose(heights, lab.values["tau"])


@pytest.mark.parametrize("preset, tau, sigma, push, error", [
    # the statics case's worked values, at the source's printed precision
    ("wall push", (-6.5, -4.0), None, None, None),
    ("gravity added", (8.3675, -4.0), None, None, None),
    ("stretched", (0.0, 0.0), (0.9849, 0.0), np.inf, np.inf),
    ("one degree from stretched", (-0.07, -0.07), (0.9848, 0.0035), 2865, 186),
    ("bent 90°", (-4.0, -4.0), (0.6986, 0.2863), 50, 2.4),
])
def test_presets_give_worked_values(lab, preset, tau, sigma, push, error):
    """Each preset reproduces its worked values from the statics case"""
    lab.set_preset(preset)
    v = lab.values
    decimals = 2 if preset == "one degree from stretched" else 4
    np.testing.assert_allclose(v["tau"].round(decimals), tau, atol=1e-12)
    if sigma is not None:
        np.testing.assert_allclose(v["sigma"].round(4), sigma)
    if push is not None:
        assert (np.isinf(push) and np.isinf(v["max_push"])) or round(v["max_push"]) == push
    if error is not None:
        if np.isinf(error):
            assert np.isinf(v["force_error"])
        else:
            assert round(v["force_error"], 1 if error < 10 else 0) == error
    assert lab.widgets["preset"].value == preset


def test_preset_dropdown_applies_preset(lab):
    """Choosing a preset in the dropdown sets the sliders"""
    lab.widgets["preset"].value = "bent 90°"
    assert lab.widgets["q1"].value == 0.0 and lab.widgets["q2"].value == 90.0
    assert "unbounded" not in lab.widgets["table"].value
    lab.widgets["preset"].value = "stretched"
    assert "unbounded" in lab.widgets["table"].value


def test_gravity_with_push_within_limit(lab):
    """With gravity on, the largest push fits in what the limit leaves after g(q)"""
    lab.set_preset("gravity added")
    v = lab.values
    tau = al.gravity_torques(al.statics_arm(), v["q"]) + al.static_torques(
        al.statics_arm(), v["q"], v["max_push"] * np.array([1.0, 0.0]))
    assert np.abs(tau).max() == pytest.approx(v["limit"])


def test_table_markdown_and_rows(lab):
    """The static table (for the page) has the same values as the widget table"""
    md = lab.table_markdown()
    assert "(-6.50, -4.00)" in md and "0.8537, 0.2029" in md
    assert len(lab.table_rows()) == 6                   # two rows of bearing forces


def test_bad_arm():
    """An arm that is not a planar two-link arm is refused with a clear message (a wrong
    preset: test_labs_common)"""
    arm3 = al.PlanarArm(lengths=(1, 1, 1), masses=(1, 1, 1))
    with pytest.raises(ValueError, match="two-joint"):
        labs.statics_lab(arm3, render=False)


def test_torque_axis_snaps_to_few_ranges():
    """The torque axis takes 1, 2.5 or 5 times a power of ten, so drags rarely rescale it"""
    assert [labs.axis_top(x) for x in [0.9, 2.6, 23.0, 46.0, 57.5]] == [1, 5, 25, 50, 100]
    lab = labs.statics_lab(render=False)
    tops = set()
    for limit in np.arange(20.0, 21.5, 0.5):
        lab.widgets["limit"].value = float(limit)
        tops.add(lab._ax_tau.get_ylim()[1])
    assert tops == {25.0}


def test_dropdown_shows_custom_after_a_slider_moves(lab):
    """Moving a slider away from the preset shows "(custom)"; choosing a preset restores it"""
    lab.widgets["q2"].value = 61.0
    assert lab.widgets["preset"].value == labs.CUSTOM
    np.testing.assert_allclose(np.degrees(lab.values["q"]), [30, 61])
    lab.widgets["preset"].value = "wall push"
    np.testing.assert_allclose(lab.values["tau"].round(4), [-6.5, -4.0])
    lab.widgets["limit"].value = 30.0          # not part of a preset: stays "wall push"
    assert lab.widgets["preset"].value == "wall push"


def test_torque_arcs_follow_the_new_limit(lab):
    """After the limit slider moves, the arcs are swept with the new limit (not the previous one)"""
    lab.widgets["limit"].value = 40.0
    fresh = labs.statics_lab(limit=40.0, render=False)
    for moved, new in zip(lab.artists["torque_arcs"], fresh.artists["torque_arcs"]):
        np.testing.assert_allclose(moved.get_xydata(), new.get_xydata(), atol=1e-12)


def test_no_push_when_gravity_alone_exceeds_the_limit(lab):
    """With gravity on and a limit below g(q), no push can be held: the table says so"""
    lab.set_preset("gravity added")
    lab.widgets["limit"].value = 5.0                   # g1 = 14.87 N m at the wall pose
    assert np.isnan(lab.values["max_push"])
    assert "none: g(q) alone exceeds the limit" in lab.widgets["table"].value


def test_bearing_forces_in_the_table(lab):
    """The table's bearing forces are the joint reactions: the push alone without gravity, the
    push and the weights with it; the stretched 50 N preset loads both bearings and no motor"""
    rows = {a: b for a, b, _ in lab.table_rows()}
    assert rows["bearing force at joint 1, f1"] == "(10.00, 0.00), size 10.00"
    lab.widgets["gravity"].value = True
    rows = {a: b for a, b, _ in lab.table_rows()}
    assert rows["bearing force at joint 1, f1"] == "(10.00, 49.05), size 50.06"
    assert rows["bearing force at joint 2, f2"] == "(10.00, 19.62), size 22.02"
    np.testing.assert_allclose(lab.values["reactions"],
                               al.joint_reactions(al.statics_arm(), lab.values["q"],
                                                  lab.values["tip_force"])[0])
    lab.set_preset("stretched, 50 N along the arm")
    np.testing.assert_allclose(lab.values["tau"], 0, atol=1e-12)
    np.testing.assert_allclose(lab.values["reactions"], [[50, 0], [50, 0]], atol=1e-12)
