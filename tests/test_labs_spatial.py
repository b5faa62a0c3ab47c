"""armlab.labs.spatial_statics_lab and spatial_dynamics_lab: the SO-101 in 3-D.

The lab's numbers are checked against armlab.spatial by other routes than the lab's own
(the body Jacobian for J_t^T W, RNEA on the loaded arm for the payload, the loaded arm at its
limit for the capacities); its 3-D scene against the kinematics; its presets against the
chapters' worked values at their printed precision. The view in a browser:
test_browser.py.
"""

import html
import json
import re

import numpy as np
import pytest

import armlab.spatial as sp
from labtests import table

labs = pytest.importorskip("armlab.labs")

ARM = sp.so101()
Q_A = np.array([0.4, -0.3, 0.5, 0.6, 0.2])                 # the statics chapter's work pose
W_A = np.array([0, 0, 0.2, 0, 0, -10.0])
Q_W = np.radians([20.0, -40.0, 60.0, 30.0, 0.0])           # the dynamics chapter's worked pose


@pytest.fixture
def lab():
    return labs.spatial_statics_lab(render=False)


def body_route(q, W):
    """tau = J_b^T F_b with the wrench written in the tip's axes (not the lab's J_t^T W)."""
    R = sp.forward_kinematics(ARM, q)[:3, :3]
    return sp.body_jacobian(ARM, q).T @ np.r_[R.T @ W[:3], R.T @ W[3:]]


def set_state(lab, q_deg, payload=0.0, wrench=(0, 0, 0, 0, 0, 0), gravity=True):
    for i, a in enumerate(q_deg):
        lab.widgets[f"q{i + 1}"].value = float(a)
    lab.widgets["payload"].value = payload
    for k, w in zip(("mx", "my", "mz", "fx", "fy", "fz"), wrench):
        lab.widgets[k].value = float(w)
    lab.widgets["gravity"].value = gravity


def test_default_is_example_4(lab):
    """Work pose, press 10 N and twist 0.2 N m, no gravity: tau = J^T W of Example 4"""
    v = lab.values
    np.testing.assert_allclose(v["q"], Q_A, atol=1e-12)
    np.testing.assert_allclose(v["tau"], body_route(Q_A, W_A), atol=1e-12)
    assert table(lab)["joint torques τ = g + m b + Jᵀ W"] == \
        "(-0.2000, 2.3208, 2.3860, 1.0536, 0.1337)"


def test_torques_with_gravity_payload_and_wrench(lab):
    """g + m b + J^T W: the weights from RNEA on the arm carrying the payload, the wrench by
    the body Jacobian"""
    q_deg, m, W = (10.0, -30.0, 40.0, 20.0, 15.0), 0.7, (0.1, -0.2, 0.3, 4.0, -3.0, -6.0)
    set_state(lab, q_deg, m, W)
    q = np.radians(q_deg)
    expected = sp.gravity_torques(ARM.with_payload(m), q) + body_route(q, np.array(W))
    np.testing.assert_allclose(lab.values["tau"], expected, atol=1e-12)
    np.testing.assert_allclose(lab.values["tau_gravity"], sp.gravity_torques(ARM, q), atol=1e-12)
    lab.widgets["gravity"].value = False                  # the weights go, the wrench stays
    np.testing.assert_allclose(lab.values["tau"], body_route(q, np.array(W)), atol=1e-12)


def test_capacity_and_wrench_limit_reach_the_rating_exactly(lab):
    """The largest payload puts its limiting joint at the URDF's effort (RNEA on the loaded
    arm); the largest multiple of W does so with the payload held, and no joint exceeds it"""
    set_state(lab, (0, 20, -30, 10, 0), 0.5, (0, 0, 0.1, 2.0, 0, -5.0))
    v = lab.values
    q = v["q"]
    tau = sp.gravity_torques(ARM.with_payload(v["capacity"]), q)
    assert abs(tau[v["capacity_joint"]]) == pytest.approx(ARM.effort[v["capacity_joint"]], 1e-9)
    assert np.all(np.abs(tau) <= ARM.effort * (1 + 1e-9))
    tau = sp.gravity_torques(ARM.with_payload(0.5), q) + v["wrench_scale"] * body_route(
        q, v["wrench"])
    assert abs(tau[v["wrench_joint"]]) == pytest.approx(ARM.effort[v["wrench_joint"]], 1e-9)
    assert np.all(np.abs(tau) <= ARM.effort * (1 + 1e-9))


def test_weights_beyond_the_rating_and_no_wrench(lab):
    """A payload the arm cannot hold leaves no wrench; no wrench is held any number of times;
    the bars turn orange past the rating"""
    from armlab import plots

    set_state(lab, (0, 0, 0, 0, 0), 4.0, (0, 0, 0, 0, 0, -1.0))
    assert np.isnan(lab.values["wrench_scale"])
    assert table(lab)["largest multiple of W, with the payload"] == \
        "none: the weights alone exceed a rating"
    assert lab.artists["bars"][1].get_facecolor()[:3] == pytest.approx(
        tuple(int(plots.COLORS["force"][i:i + 2], 16) / 255 for i in (1, 3, 5)))
    set_state(lab, (0, 0, 0, 0, 0), 0.0)
    assert table(lab)["largest multiple of W, with the payload"] == "unbounded (no wrench)"


def test_scene_draws_the_arm_frames_wrench_and_payload(lab):
    """The links pass through the joints' origins and the tip; a frame at each joint; the
    force, moment and weight arrows start at the tip at the stated scales"""
    from armlab.labs import _spatial

    set_state(lab, (15, -20, 35, 10, 30), 1.2, (0.3, 0, -0.2, 5, -4, 2))
    q = np.radians([15, -20, 35, 10, 30])
    scene = lab.widgets["view"].scene
    assert scene == lab.scene.as_dict()
    tip = sp.forward_kinematics(ARM, q)
    origins = sp.joint_poses(ARM, q)[:, :3, 3]
    links = [line for line in scene["lines"] if line["width"] == 5]
    assert len(links) == 1
    np.testing.assert_allclose(links[0]["points"], np.vstack([[0, 0, 0], origins, tip[:3, 3]]),
                               atol=1e-5)
    labels = {label["text"]: label["at"] for label in scene["labels"]}
    for i in range(5):
        np.testing.assert_allclose(labels[str(i + 1)], origins[i], atol=1e-5)
    np.testing.assert_allclose(labels["tip"], tip[:3, 3], atol=1e-5)
    force, moment, weight = scene["arrows"]
    for arrow in (force, moment, weight):
        np.testing.assert_allclose(arrow["start"], tip[:3, 3], atol=1e-5)
    np.testing.assert_allclose(force["vector"], _spatial.FORCE_SCALE * np.array([5, -4, 2]),
                               atol=1e-5)
    np.testing.assert_allclose(moment["vector"], _spatial.MOMENT_SCALE * np.array([0.3, 0, -0.2]),
                               atol=1e-5)
    assert moment["heads"] == 2 and force["heads"] == 1
    np.testing.assert_allclose(weight["vector"], _spatial.FORCE_SCALE * 1.2 * ARM.gravity,
                               atol=1e-5)


@pytest.mark.parametrize("kind", ["force", "velocity"])
def test_ellipsoid_is_the_chapters(lab, kind):
    """Every drawn point of the ellipsoid lies on the force (half-axes 1/sigma N per N m) or
    velocity ellipsoid (sigma m/s per rad/s) of sp, at the drawing's scale"""
    from armlab.labs import _spatial

    lab.widgets["ellipsoid"].value = kind
    q = lab.values["q"]
    half, dirs = (sp.force_ellipsoid(ARM, q) if kind == "force" else sp.velocity_ellipsoid(ARM, q))
    half = half * (_spatial.FORCE_SCALE if kind == "force" else _spatial.SPEED_SCALE)
    color = {"force": "#009E73", "velocity": "#56B4E9"}[kind]
    rings = [np.array(line["points"]) for line in lab.scene.as_dict()["lines"]
             if line["color"] == color]
    assert len(rings) == 11
    local = (np.vstack(rings) - sp.forward_kinematics(ARM, q)[:3, 3]) @ dirs / half
    np.testing.assert_allclose((local**2).sum(axis=1), 1.0, atol=1e-3)   # 5-decimal points
    lab.widgets["ellipsoid"].value = "none"
    assert not [line for line in lab.scene.as_dict()["lines"] if line["color"] == color]


def test_a_slider_changes_the_view_and_the_table(lab):
    """A joint slider moves the scene (the widget's trait is replaced) and the table"""
    before_scene, before_table = lab.widgets["view"].scene, lab.widgets["table"].value
    lab.widgets["q2"].value = 30.0
    assert lab.widgets["view"].scene != before_scene
    assert lab.widgets["table"].value != before_table
    assert lab.widgets["preset"].value == labs.CUSTOM


@pytest.mark.parametrize("preset, rows", [
    ("work pose: press and twist", {
        "joint torques τ = g + m b + Jᵀ W": "(-0.2000, 2.3208, 2.3860, 1.0536, 0.1337)"}),
    # Example 5: 2.994 kg reaching out level (shoulder_lift), 4.095 kg at the work pose
    ("level reach, its own weight", {
        "gravity torques g(q)": "(0.0000, -0.5386, -0.4527, -0.1171, 0.0000)",
        "largest payload here under gravity (limiting joint)": "2.994 (shoulder_lift)"}),
    ("work pose, its own weight", {
        "largest payload here under gravity (limiting joint)": "4.095 (elbow_flex)"}),
    # Example 6: the velocity ellipsoid's half-axes and the manipulability
    ("work pose, ellipsoids", {"σ1, σ2, σ3 of J_v": "0.3826, 0.2626, 0.1022",
                               "manipulability w = σ1 σ2 σ3": "0.01027"}),
])
def test_statics_presets_give_worked_values(lab, preset, rows):
    lab.set_preset(preset)
    shown = table(lab)
    for quantity, value in rows.items():
        assert shown[quantity] == value, quantity


def test_stretched_preset_is_example_7(lab):
    """Elbow -73.82 deg, wrist -5.05 deg: sigma_3 falls to 8.4e-06 m/rad"""
    lab.set_preset("stretched")
    np.testing.assert_array_equal(np.degrees(lab.values["q"]).round(2) + 0.0,
                                  [0, 0, -73.82, -5.05, 0])
    assert f"{lab.values['sigma'][2]:.1e}" == "8.4e-06"
    assert lab.values["sigma"][:2].round(4).tolist() == [0.5297, 0.1297]


@pytest.mark.parametrize("preset, rows", [
    # Example 2: g(q_w); Example 6: 4.354 kg at q_w (elbow_flex), 2.994 kg level
    ("worked pose, holding itself", {
        "gravity torques g(q)": "(0.0000, -0.2040, -0.3967, -0.0771, 0.0000)",
        "largest payload here under gravity (limiting joint)": "4.354 (elbow_flex)"}),
    ("level reach, holding itself", {
        "largest payload here under gravity (limiting joint)": "2.994 (shoulder_lift)"}),
])
def test_dynamics_presets_give_worked_values(preset, rows):
    lab = labs.spatial_dynamics_lab(preset=preset, render=False)
    np.testing.assert_allclose(lab.values["tau_gravity"],
                               sp.inverse_dynamics(ARM, lab.values["q"], np.zeros(5),
                                                   np.zeros(5)), atol=1e-12)
    shown = table(lab)
    for quantity, value in rows.items():
        assert shown[quantity] == value, quantity


def test_payload_preset_adds_its_weight():
    """1 kg at q_w adds m b(q_w), the torques of RNEA on the arm carrying it"""
    lab = labs.spatial_dynamics_lab(preset="worked pose, 1 kg payload", render=False)
    np.testing.assert_allclose(lab.values["tau"],
                               sp.gravity_torques(ARM.with_payload(1.0), Q_W), atol=1e-12)


def test_static_view_holds_the_scene(lab):
    """The page's HTML carries the scene as JSON and the text alternative"""
    page = lab.static_view("The SO-101 at its work pose.").data
    assert page.startswith('<div class="armlab-view3d" role="figure"')
    data = re.search(r'data-scene="([^"]*)"', page).group(1)
    assert json.loads(html.unescape(data)) == json.loads(json.dumps(lab.scene.as_dict()))
    assert 'aria-label="The SO-101 at its work pose."' in page


def test_widget_has_controls_view_table_and_bars(lab):
    box = lab.widget
    top, bottom = box.children
    assert top.children[1] is lab.widgets["view"]
    assert bottom.children == (lab.widgets["table"], lab.widgets["image"])
    assert "armlabView3d.mount" in lab.widgets["view"]._esm


def test_bad_arm():
    with pytest.raises(ValueError, match="arm"):
        labs.SpatialStaticsLab(arm=sp.panda(), render=False)


def test_captions_state_the_drawing_scales():
    """The chapters' captions type the view's scales (jupyterlab-myst evaluates no {eval} in
    a glue figure's caption): they must be the lab's"""
    import pathlib

    from armlab.labs import _spatial

    book = pathlib.Path(__file__).resolve().parents[1] / "book"
    statics = " ".join((book / "spatial_statics.md").read_text().split())
    dynamics = " ".join((book / "spatial_dynamics.md").read_text().split())
    assert f"(orange, {100 * _spatial.FORCE_SCALE:.0f} cm per N)" in statics
    assert f"two heads, {100 * _spatial.MOMENT_SCALE:.0f} cm per N m)" in statics
    assert f"(grey, {100 * _spatial.FORCE_SCALE:.0f} cm per N)" in dynamics
