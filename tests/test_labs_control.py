"""armlab.labs.control_lab: widgets set from Python re-simulate, redraw in place and fill the table.

Each preset reproduces the control chapter's worked run (the table-top case) at the
precision the chapter prints it.
"""

import numpy as np
import pytest

import armlab as al
from labtests import table

labs = pytest.importorskip("armlab.labs")

START, END = np.radians([-45, 90]), np.radians([60, -30])


@pytest.fixture(scope="module")
def lab():
    return labs.control_lab(render=False)


def largest_deg(lab):
    return np.degrees(lab.values["largest"])


def final_deg(lab):
    return np.degrees(lab.values["final"])


def test_default_is_pid_preloaded(lab):
    """PID alone, integral preloaded with g(q_start): 4.95 deg at the shoulder; the plant
    stepped by RK4, one step per 1 ms tick, as in the chapter"""
    lab.set_preset("PID, integral preloaded")
    assert lab.widgets["controller"].value == "PID" and lab.widgets["preload"].value
    assert largest_deg(lab)[0].round(2) == 4.95
    sim = lab.values["sim"]
    assert sim.control_dt == 1e-3 and sim.substeps == 1 and sim.method == "rk4"
    # the drawn error is the run's error, in degrees
    x, y = lab.artists["error"][0].get_data()
    np.testing.assert_allclose(x, sim.time)
    np.testing.assert_allclose(y, np.degrees(al.tracking_error(sim, lab.plan))[:, 0])
    x, y = lab.artists["torque"][1].get_data()
    np.testing.assert_allclose(y, sim.tau[:, 1])


@pytest.mark.parametrize("preset, largest, decimals, final, final_decimals", [
    ("PID, integral preloaded", (4.95, 1.43), 2, (-0.47, 0.22), 2),
    ("PD + gravity", (3.18, 1.46), 2, (0.01, 0.01), 2),
    ("feed-forward + PID", (0.012, 0.036), 3, (-0.002, 0.006), 3),
    ("computed torque", (0.090, 0.380), 3, (0.0, -0.0), 3),
    ("computed torque, unknown 0.5 kg payload", (1.3, 12.5), 1, (-1.1, 10.5), 1),
    ("computed torque, payload known", (0.07, 0.23), 2, (0.0, -0.0), 2),
    ("PID without the preloaded integral", (7.444, 2.665), 3, (0.64, 0.58), 2),
])
def test_presets_give_worked_values(lab, preset, largest, decimals, final, final_decimals):
    """Each preset gives the chapter's largest and end errors"""
    lab.set_preset(preset)
    assert largest_deg(lab).round(decimals).tolist() == list(largest)
    assert final_deg(lab).round(final_decimals).tolist() == list(final)
    assert lab.widgets["preset"].value == preset


def test_cuts_the_chapter_states(lab):
    """The model-based controllers cut PID's shoulder error 427x and 55x, the elbow's 40x and
    3.8x (the printed factors, rounded as the chapter prints them)"""
    errors = {}
    for preset in ("PID, integral preloaded", "feed-forward + PID", "computed torque"):
        lab.set_preset(preset)
        errors[preset] = lab.values["largest"]
    pid = errors["PID, integral preloaded"]
    ff, ct = pid / errors["feed-forward + PID"], pid / errors["computed torque"]
    assert [round(ff[0]), round(ct[0]), round(ff[1]), round(ct[1], 1)] == [427, 55, 40, 3.8]


def test_gain_slider_resimulates_and_redraws():
    """Moving Kp of the shoulder re-simulates: new run, new drawn data, new table"""
    lab = labs.control_lab(render=False)
    before_y = lab.artists["error"][0].get_data()[1].copy()
    before_table = lab.widgets["table"].value
    n = lab.updates
    lab.widgets["kp1"].value = 120.0
    assert lab.updates == n + 1
    assert lab.widgets["preset"].value == labs.CUSTOM
    plan = lab.plan
    real = al.tabletop_arm(0.02)
    sim = al.simulate(real, START, 1.5, al.pid(plan, [120, 30], [4, 1.5], [60, 30],
                                               integral=al.gravity_torques(real, START)),
                      method="rk4", substeps=1)
    np.testing.assert_array_equal(lab.values["sim"].q, sim.q)
    assert not np.allclose(lab.artists["error"][0].get_data()[1], before_y)
    assert lab.widgets["table"].value != before_table


def test_model_friction_and_rate_reach_the_simulation():
    """Model friction 0.020 and a 10 kHz loop: computed torque's elbow error falls 13x, then
    127x; the plant takes one RK4 step per tick"""
    lab = labs.control_lab(preset="computed torque", render=False)
    assert largest_deg(lab)[1].round(3) == 0.380
    lab.widgets["friction"].value = 0.02
    assert largest_deg(lab)[1].round(4) == 0.0297
    lab.widgets["rate"].value = 10_000
    sim = lab.values["sim"]
    assert sim.control_dt == 1e-4 and sim.substeps == 1
    assert largest_deg(lab)[1].round(4) == 0.0030
    x, _ = lab.artists["error"][1].get_data()
    assert len(x) == 1501                                          # drawn at 1 ms


def test_payload_and_knows_checkbox():
    """The payload loads the real arm; ticking "knows" gives it to the model"""
    lab = labs.control_lab(preset="computed torque", render=False)
    lab.widgets["payload"].value = 0.5
    assert final_deg(lab)[1].round(1) == 10.5
    lab.widgets["knows"].value = True
    assert largest_deg(lab)[1].round(3) == 0.235
    lab.widgets["payload"].value = 0.0                              # knows nothing to know
    assert largest_deg(lab)[1].round(3) == 0.380


def test_controller_choice_shows_its_gains_only():
    """Computed torque shows Kp, Kd for both joints; PID shows per-joint gains and the preload"""
    lab = labs.control_lab(render=False)
    hidden = {k for k in lab.control_names() if lab.widgets[k].layout.display == "none"}
    assert hidden == {"ct_kp", "ct_kd"}
    lab.widgets["controller"].value = "computed torque"
    hidden = {k for k in lab.control_names() if lab.widgets[k].layout.display == "none"}
    assert hidden == {"kp1", "kp2", "kd1", "kd2", "ki1", "ki2", "preload"}
    lab.widgets["controller"].value = "PD + gravity"
    hidden = {k for k in lab.control_names() if lab.widgets[k].layout.display == "none"}
    assert hidden == {"ki1", "ki2", "preload", "ct_kp", "ct_kd"}
    assert largest_deg(lab).round(2).tolist() == [3.18, 1.46]


def test_table_rows_hold_the_values(lab):
    """The table shows the run's numbers: errors in degrees, torques, omega and zeta"""
    lab.set_preset("computed torque")
    rows = table(lab)
    assert rows["largest error during the move (shoulder, elbow)"] == "0.0899, 0.38"
    assert rows["error at the end of the hold"] == "3.87e-07, -1.19e-06"
    assert rows["natural frequency ω at the start pose"] == "20, 20"
    assert rows["damping ratio ζ"] == "1.00, 1.00"
    lab.set_preset("PID, integral preloaded")
    rows = table(lab)
    assert rows["natural frequency ω at the start pose"] == "18.7, 37.9"
    assert rows["damping ratio ζ"] == "0.62, 0.95"
    md = lab.table_markdown()
    assert "| largest error during the move (shoulder, elbow) | 4.95, 1.43 | deg |" in md


def test_sampled_damper_thrashes_then_diverges():
    """At 250 Hz the elbow's damper Kd dt (M^-1)_22 passes 2 near Kd = 10: the elbow
    thrashes; at Kd = 20 the run stops being finite and the lab says so instead of raising"""
    lab = labs.control_lab(preset="PD + gravity", render=False)
    lab.widgets["rate"].value = 250
    lab.widgets["kd2"].value = 10.0
    assert lab.values["sim"] is not None and largest_deg(lab)[1] > 90
    lab.widgets["kd2"].value = 20.0
    assert lab.values["sim"] is None
    assert lab.table_rows()[0] == ("run", "diverged", "")
    assert len(lab.artists["error"][0].get_data()[0]) == 0
    assert "diverged" in lab.artists["status"].get_text()
    lab.set_preset("PD + gravity")                                  # and back
    assert lab.values["sim"] is not None and lab.artists["status"].get_text() == ""


def test_a_drag_keeps_the_error_axes_while_the_curve_fills_a_quarter(lab):
    """Dragging the model's friction through the real value: each error axis holds its curve,
    stays while the curve fills more than a quarter of it, and when it changes it fits the
    curve afresh (one full redraw); it stays at least once where a fresh fit would differ"""
    from armlab.labs.control import _nice_top

    lab.set_preset("computed torque")
    kept_wider = 0
    for value in 0.010 + 0.0005 * np.arange(30):
        before = [lab._axes[j].get_ylim()[1] for j in range(2)]
        lab.widgets["friction"].value = value
        for j in range(2):
            high = lab._axes[j].get_ylim()[1]
            wanted = 1.05 * np.abs(lab.artists["error"][j].get_data()[1]).max()
            assert wanted <= high < 4.2 * wanted
            if high != before[j]:
                assert high == _nice_top(wanted)
            kept_wider += high > _nice_top(wanted)
    assert kept_wider > 0


def test_axes_fit_the_curves(lab):
    """Each axes holds its curve: the error axes are symmetric, at most 2.1x the largest
    error; the torque axes cover the torques"""
    for preset in ("PID, integral preloaded", "feed-forward + PID",
                   "computed torque, unknown 0.5 kg payload"):
        lab.set_preset(preset)
        for j in range(2):
            low, high = lab._axes[j].get_ylim()
            peak = np.abs(lab.artists["error"][j].get_data()[1]).max()
            assert low == -high and peak <= high <= 2.1 * peak
            low, high = lab._axes[2 + j].get_ylim()
            y = lab.artists["torque"][j].get_data()[1]
            assert low <= y.min() and y.max() <= high <= 2.1 * max(y.max(), 1e-6)
