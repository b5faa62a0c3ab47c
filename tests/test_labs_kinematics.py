"""armlab.labs.kinematics_lab: widgets set from Python move the drawing and the table; presets
reproduce the kinematics chapter's worked values."""

import numpy as np
import pytest

import armlab as al
from labtests import arrow, drawn, table

labs = pytest.importorskip("armlab.labs")

STATICS = "statics arm"
ROD = "rod arm"
TABLETOP = "table-top arm"


@pytest.fixture
def lab():
    return labs.kinematics_lab(render=False)


def test_default_is_the_wall_pose(lab):
    """Example 1 and 2: tip (0.433, 0.65) m, J qd = (-0.25, 0.433) m/s for qd = (1, -1) rad/s"""
    v = lab.values
    np.testing.assert_allclose(np.degrees(v["q"]), [30, 60])
    assert v["tip"].round(4).tolist() == [0.433, 0.65]
    assert v["velocity"].round(4).tolist() == [-0.25, 0.433]
    assert v["J"].round(4).tolist() == [[-0.65, -0.4], [0.433, 0.0]]
    np.testing.assert_allclose(drawn(lab.artists["links"]), al.joint_positions(al.statics_arm(), v["q"]))


def test_sliders_move_the_arm_the_arrow_and_the_table(lab):
    """Setting q2 redraws the links, the velocity arrow and the ellipse, and changes the table"""
    arm = al.statics_arm()
    before = lab.widgets["table"].value
    lab.widgets["q2"].value = 90.0
    q = np.radians([30, 90])
    np.testing.assert_allclose(drawn(lab.artists["links"]), al.joint_positions(arm, q))
    start, length = arrow(lab.artists["velocity"])
    np.testing.assert_allclose(start, al.tip_position(arm, q))
    np.testing.assert_allclose(length, 0.5 * al.jacobian(arm, q) @ [1.0, -1.0])
    assert lab.widgets["table"].value != before
    assert "(0.433, 0.650)" not in lab.widgets["table"].value


def test_joint_speeds_set_the_arrow_and_the_ellipse_size(lab):
    """The arrow is 0.5 s of J qd; the ellipse has half-axes 0.5 s |qd| sigma_i at the tip, so the
    arrow ends on it"""
    arm = al.statics_arm()
    lab.widgets["qd1"].value = 2.0
    lab.widgets["qd2"].value = 0.5
    qd = np.array([2.0, 0.5])
    q = lab.values["q"]
    start, length = arrow(lab.artists["velocity"])
    np.testing.assert_allclose(length, 0.5 * al.jacobian(arm, q) @ qd)
    e = lab.artists["velocity_ellipse"]
    half, dirs = al.velocity_ellipse(arm, q, np.linalg.norm(qd))
    np.testing.assert_allclose([e.width, e.height], 2 * 0.5 * half)
    np.testing.assert_allclose(e.center, al.tip_position(arm, q))
    # the arrow's end lies on the ellipse: (x . u1 / a)^2 + (x . u2 / b)^2 <= 1
    along = (length @ dirs) / (0.5 * half)
    assert (along**2).sum() <= 1 + 1e-9
    assert lab.values["speed"] == pytest.approx(np.linalg.norm(al.jacobian(arm, q) @ qd))


def test_arm_menu_redraws_the_workspace_and_the_curves(lab):
    """Choosing another arm moves the workspace's radii, the sigma curves and the limits"""
    curve_before = lab._curve1.get_ydata().copy()
    lab.widgets["arm"].value = ROD
    rod = al.rod_arm()
    assert lab.workspace.artists["area"].r == pytest.approx(2.0)
    assert lab.workspace.artists["area"].width == pytest.approx(2.0)
    assert not np.allclose(lab._curve1.get_ydata(), curve_before)
    assert lab._ax_arm.get_xlim()[1] > 2.0
    np.testing.assert_allclose(drawn(lab.artists["links"]), al.joint_positions(rod, lab.values["q"]))
    assert lab.values["reach"] == (0.0, 2.0)
    lab.widgets["arm"].value = TABLETOP
    assert lab.workspace.artists["area"].r == pytest.approx(0.55)
    assert lab.workspace.artists["area"].width == pytest.approx(0.5)


@pytest.mark.parametrize("preset, checks", [
    ("wall pose", {"tip": [0.433, 0.65], "velocity": [-0.25, 0.433], "singular": False}),
    ("stretched", {"sigma": [0.9849, 0.0], "velocity": [0.0, 0.0], "singular": True,
                   "J": [[0.0, 0.0], [0.9, 0.4]]}),
    ("one degree from stretched", {"sigma": [0.9848, 0.0035], "manipulability": 0.0035,
                                   "singular": False}),
    ("bent 90°", {"sigma": [0.6986, 0.2863], "manipulability": 0.2, "singular": False}),
    ("folded", {"distance": 0.1, "singular": True}),
    ("rod arm folded", {"distance": 0.0, "velocity": [0.0, 0.0], "singular": True,
                        "J": [[0.0, 0.0], [0.0, -1.0]]}),
    ("wall pose, elbow up", {"tip": [0.433, 0.65], "singular": False, "condition": 4.208}),
    ("isotropic", {"sigma": [0.4, 0.4], "condition": 1.0, "manipulability": 0.16}),
])
def test_presets_give_worked_values(lab, preset, checks):
    """Each preset reproduces its example's values at the chapter's printed precision"""
    lab.set_preset(preset)
    v = lab.values
    for key, expected in checks.items():
        got = v[key]
        if isinstance(expected, bool):
            assert got is expected, key
        else:
            np.testing.assert_array_equal(np.round(got, 4) + 0.0, expected, err_msg=key)
    assert lab.widgets["preset"].value == preset


def test_stretched_preset_speeds_leave_the_tip_still(lab):
    """The stretched preset's joint speeds are along the null space of J: no arrow is drawn"""
    lab.set_preset("stretched")
    assert not lab.artists["velocity"].get_visible()
    lab.widgets["qd2"].value = -0.5
    assert lab.artists["velocity"].get_visible()
    assert lab.values["velocity"][0] == pytest.approx(0.0, abs=1e-15)   # only across the arm


def test_marker_follows_the_elbow(lab):
    """The dashed marker and the dots on the sigma curves sit at the current q2"""
    lab.widgets["q2"].value = -120.0
    x = lab.artists["marker"].get_xdata()
    assert x[0] == pytest.approx(-120.0)
    np.testing.assert_allclose(lab.artists["dots"].get_ydata(), lab.values["sigma"])


def test_dropdown_shows_custom_after_a_slider_moves(lab):
    """Moving a slider away from the preset shows "(custom)"; a preset sets the arm too"""
    lab.set_preset("rod arm folded")
    lab.widgets["q1"].value = 10.0
    assert lab.widgets["preset"].value == labs.CUSTOM
    lab.widgets["preset"].value = "bent 90°"
    assert lab.widgets["arm"].value == STATICS and lab.widgets["q2"].value == 90.0


def test_other_elbow_keeps_the_tip_and_mirrors_the_elbow(lab):
    """The button moves the arm, in one redraw, to the other inverse-kinematics solution: Example
    6's elbow-up pose from the wall pose; the tip stays, the links are redrawn; pressed again it
    comes back"""
    arm = al.statics_arm()
    updates = lab.updates
    lab.widgets["other_elbow"].click()
    assert lab.updates == updates + 1
    np.testing.assert_allclose(np.degrees(lab.values["q"]), [82.659, -60.0], atol=1e-3)
    np.testing.assert_allclose(lab.values["tip"], al.tip_position(arm, np.radians([30, 60])),
                               atol=1e-12)
    np.testing.assert_allclose(drawn(lab.artists["links"]), al.joint_positions(arm, lab.values["q"]))
    assert lab.widgets["preset"].value == labs.CUSTOM
    assert table(lab)["same tip, other elbow (q1, q2)"] == "(30.00, 60.00)"
    lab.other_elbow()
    np.testing.assert_allclose(np.degrees(lab.values["q"]), [30.0, 60.0], atol=1e-9)
    lab.set_preset("stretched")
    lab.other_elbow()                                       # on the edge: the same pose
    np.testing.assert_allclose(lab.values["q"], [0.0, 0.0], atol=1e-12)
    assert lab.widgets["other_elbow"] in lab.widget.children[0].children[0].children


def test_isotropic_preset_matches_the_chapters_arm(lab):
    """The menu's isotropic arm is the chapter's: L1 = sqrt(2) L2 with L2 = 0.4 m"""
    lab.set_preset("isotropic")
    np.testing.assert_allclose(lab.arm.lengths, [np.sqrt(2) * 0.4, 0.4])
    assert table(lab)["condition number κ = σ1/σ2"] == "1.000"


def test_table_rows_and_markdown(lab):
    """The static table has the widget table's values, one row per quantity"""
    rows = table(lab)
    assert rows["tip position p"] == "(0.433, 0.650)"
    assert rows["σ1, σ2 (singular values of J)"] == "0.8537, 0.2029"
    assert rows["singular pose"] == "no"
    md = lab.table_markdown()
    assert "| tip velocity v = J q̇ | (-0.250, 0.433) | m/s |" in md
    assert md.count("\n") == len(rows) + 1
