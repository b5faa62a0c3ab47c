"""armlab.labs.forward_dynamics_lab: widgets driven from Python re-simulate, redraw and refill the table."""

import numpy as np
import pytest

import armlab as al

labs = pytest.importorskip("armlab.labs")


#: The chapter's Example 3 and the lab's first two presets: semi-implicit Euler at 0.1 ms.
EULER = dict(method="semi_implicit_euler", substeps=10)


@pytest.fixture
def lab():
    return labs.forward_dynamics_lab(render=False)


def same_motion(lab_sim, sim):
    """The lab's run (recorded every 5 ms) is ``sim`` (recorded every 1 ms) at its rows."""
    assert lab_sim.time[-1] == pytest.approx(sim.time[-1])
    np.testing.assert_allclose(lab_sim.q, sim.q[::5], rtol=0, atol=1e-12)


def row(lab, start):
    """The table row whose quantity starts with ``start``: its value text."""
    rows = [r for r in lab.table_rows() if r[0].startswith(start)]
    assert len(rows) == 1, [r[0] for r in lab.table_rows()]
    return rows[0][1]


def test_default_is_the_zero_torque_fall(lab):
    """The fall of 'Arm dynamics': from rest at (30, 45) deg, friction 0.02, the arm is at
    (-35.4, 98.7) deg at 0.25 s (semi-implicit Euler, 0.1 ms), in the values and in the table"""
    v = lab.values
    assert np.degrees(v["q_end"]).round(1).tolist() == [-35.4, 98.7]
    assert row(lab, "q at t = 0.25 s") == "(-35.4, 98.7)"
    assert v["method"] == "semi_implicit_euler" and v["step"] == 1e-4
    assert row(lab, "plant steps") == "2,500, 2,500"
    sim = al.simulate(al.tabletop_arm(damping=0.02), np.radians([30, 45]), 0.25, **EULER)
    same_motion(v["sim"], sim)


def test_strobe_and_lines_show_the_motion(lab):
    """The drawn last pose, angle lines and energy error are the simulation's"""
    sim = lab.values["sim"]
    arm = al.tabletop_arm()
    last = lab.artists["poses"][-1]
    np.testing.assert_allclose(last.get_xydata(), al.joint_positions(arm, sim.q[-1]))
    for line, j in zip(lab.artists["angles"], range(2)):
        np.testing.assert_allclose(line.get_ydata(), np.degrees(sim.q[:, j]))
    np.testing.assert_allclose(lab.artists["error"].get_ydata(), sim.energy_error)
    total = lab.artists["energy"][3].get_ydata()
    np.testing.assert_allclose(total, sim.energy[0] + sim.energy_error)


def test_start_slider_resimulates(lab):
    """Moving the start pose changes the simulation, the drawing and the table"""
    before = lab.widgets["table"].value
    lab.widgets["q1"].value = 40.0
    sim = al.simulate(al.tabletop_arm(damping=0.02), np.radians([40, 45]), 0.25, **EULER)
    same_motion(lab.values["sim"], sim)
    assert lab.widgets["table"].value != before
    assert lab.widgets["preset"].value == labs.CUSTOM


def test_speed_friction_step_method_duration_reach_simulate(lab):
    """Every control reaches simulate: speeds, friction, step, method, duration"""
    w = lab.widgets
    lab._hold = True
    w["qd1"].value, w["qd2"].value = 1.0, -2.0
    w["friction"].value = 0.05
    w["step"].value = "0.5 ms"
    w["method"].value = "RK4"
    lab._hold = False
    w["duration"].value = 0.5
    sim = al.simulate(al.tabletop_arm(damping=0.05), np.radians([30, 45]), 0.5,
                      qd0=[1.0, -2.0], substeps=2, method="rk4")
    same_motion(lab.values["sim"], sim)
    assert lab.values["evaluations"] == 4 * lab.values["steps"] == 4 * 1000


def test_no_friction_preset(lab):
    """No friction: the friction work is zero and the energy error is what remains of E - E0"""
    lab.set_preset("no friction")
    v = lab.values
    assert v["friction_work"] == 0.0
    sim = v["sim"]
    assert v["energy_error_end"] == pytest.approx(sim.energy[-1] - sim.energy[0], abs=1e-15)
    free = al.simulate(al.tabletop_arm(), np.radians([30, 45]), 1.0, **EULER)
    assert np.degrees(v["q_end"]).round(1).tolist() == np.degrees(free.q[-1]).round(1).tolist()


def test_coarse_explicit_euler_gains_energy_rk4_does_not(lab):
    """The first 3 s of the chapter's energy figure: explicit Euler at 1 ms gains 0.091 J;
    RK4 at the same step keeps the energy to 1e-11 J"""
    lab.set_preset("coarse explicit Euler")
    assert round(lab.values["energy_error_end"], 3) == 0.091
    assert row(lab, "energy error at the end") == f"{lab.values['energy_error_end']:.2e}"
    lab.set_preset("RK4 at a coarse step")
    assert lab.values["energy_error_max"] < 1e-10


def test_near_upright_is_one_of_the_thousand_falls(lab):
    """Near upright: the centre (89, 1) deg of the chapter's thousand falls, stepped as they are
    (RK4 at 1 ms, 2.5 s)"""
    lab.set_preset("near upright")
    sim = al.simulate(al.tabletop_arm(damping=0.02), np.radians([89, 1]), 2.5, substeps=1,
                      method="rk4")
    same_motion(lab.values["sim"], sim)


def test_axes_hold_the_curves(lab):
    """After a longer, faster motion the axes grow to hold every curve"""
    lab.set_preset("no friction")
    sim = lab.values["sim"]
    low, high = lab._axes["q"].get_ylim()
    q = np.degrees(sim.q)
    assert low <= q.min() and high >= q.max()
    assert lab._axes["q"].get_xlim()[1] >= sim.time[-1]


def test_static_table_has_no_broken_rows(lab):
    """The Markdown table (the page's static view) has three cells in every row"""
    for line in lab.table_markdown().splitlines():
        assert line.count("|") == 4, line


def test_value_axes_grow_during_a_drag_and_refit_on_a_preset(lab):
    """Dragging a start slider never shrinks the angle axis (no rescale per step of a chaotic
    fall); choosing a preset fits it afresh"""
    lab.set_preset("near upright")
    ranges = []
    for k in range(6):
        lab.widgets["q1"].value = 89.0 - 0.5 * k
        ranges.append(lab._axes["q"].get_ylim())
    for (lo0, hi0), (lo1, hi1) in zip(ranges, ranges[1:]):
        assert lo1 <= lo0 and hi1 >= hi0
    lab.set_preset("zero-torque fall")
    q = np.degrees(lab.values["sim"].q)
    low, high = lab._axes["q"].get_ylim()
    assert high == labs.axis_top(q.max()) and low == -labs.axis_top(-q.min())
