"""armlab.labs.inverse_dynamics_lab: presets give the chapter's worked values; widgets redraw in place."""

import numpy as np
import pytest

import armlab as al
from labtests import arrow, drawn, table

labs = pytest.importorskip("armlab.labs")
from armlab.figures.inverse_dynamics import PARTS  # noqa: E402


@pytest.fixture
def lab():
    return labs.inverse_dynamics_lab(render=False)


def bar_tops(bars, key):
    """(bottom, top) of each rectangle of one stacked series."""
    return [(r.get_y(), r.get_y() + r.get_height()) for r in bars.rects[key]]


@pytest.mark.parametrize("preset, total", [
    # the rods-and-limits case's cases, tip force in the book's convention (the force the tip
    # applies)
    ("accelerate from horizontal", "(22.286667, 5.738333)"),
    ("horizontal hold", "(19.620000, 4.905000)"),
    ("gravity-free acceleration", "(2.666667, 0.833333)"),
    ("supported tip", "(9.620000, -0.095000)"),
    ("tip pushes up", "(29.620000, 9.905000)"),
    ("moving bent arm", "(14.851657, 0.583013)"),
    # the torque-budget case's cases
    ("bent and moving", "(17.416659, 3.648175)"),
    ("elbow acceleration", "(0.833333, 0.333333)"),
    ("zero-gravity hold", "(0.000000, 0.000000)"),
])
def test_presets_show_the_worked_totals(lab, preset, total):
    lab.set_preset(preset)
    assert table(lab)["τ, total"] == total
    assert lab.widgets["preset"].value == preset


def test_moving_bent_arm_term_by_term(lab):
    """The rods-and-limits case's moving case: M qdd, c, g, b qd in the table at six decimals"""
    lab.set_preset("moving bent arm")
    r = table(lab)
    assert r["M q̈ (inertia)"] == "(1.583333, 0.250000)"
    assert r["c (velocity products)"] == "(0.324760, 0.433013)"
    assert r["g (gravity)"] == "(12.743564, 0.000000)"
    assert r["friction B q̇"] == "(0.200000, -0.100000)"
    assert r["Jᵀ F (tip force)"] == "(0.000000, 0.000000)"


def test_bent_and_moving_energy_panel(lab):
    """The torque-budget case's energy panel: T, V, motor power, dE/dt and the damping loss"""
    lab.set_preset("bent and moving")
    r = table(lab)
    assert r["kinetic energy T"] == "0.833333"
    assert r["potential energy V"] == "4.905000"
    assert r["motor power τ·q̇"] == "15.592571"
    assert r["dE/dt = dT/dt + dV/dt"] == "15.280071"
    assert r["friction loss"] == "0.312500"
    assert r["c (velocity products)"] == "(-0.324760, -0.433013)"


def test_horizontal_hold_mass_matrix_and_det(lab):
    lab.set_preset("horizontal hold")
    r = table(lab)
    assert r["M, first row"] == "(2.666667, 0.833333)"
    assert r["M, second row"] == "(0.833333, 0.333333)"
    assert r["det M"] == "0.194444"
    assert r["motor power τ·q̇"] == "0.000000"


def test_supported_tip_is_the_force_the_tip_applies(lab):
    """The support pushes the tip up with 5 N; the tip applies (0, -5) N: J^T F = (-10, -5)"""
    lab.set_preset("supported tip")
    np.testing.assert_array_equal(lab.values["tip_force"], [0.0, -5.0])
    assert table(lab)["Jᵀ F (tip force)"] == "(-10.000000, -5.000000)"
    np.testing.assert_allclose(arrow(lab.artists["force"])[1], 0.08 * np.array([0.0, -5.0]),
                               atol=1e-12)


def test_sliders_move_the_arm_the_bars_and_the_table(lab):
    before_table = lab.widgets["table"].value
    before = bar_tops(lab.bars, "gravity")
    lab.widgets["q2"].value = 90.0
    np.testing.assert_allclose(drawn(lab.artists["links"]),
                               al.joint_positions(al.rod_arm(), np.radians([0, 90])))
    assert lab.widgets["table"].value != before_table
    assert bar_tops(lab.bars, "gravity") != before
    assert lab.widgets["preset"].value == labs.CUSTOM


def test_bars_stack_the_parts_and_tick_the_total(lab):
    """Positive parts stack up from zero, negative ones down; the tick sits at the total"""
    lab.set_preset("bent and moving")
    parts = lab.values["parts"]
    up = np.zeros(2)
    down = np.zeros(2)
    for key, _, _ in PARTS:
        for j, (bottom, top) in enumerate(bar_tops(lab.bars, key)):
            value = parts[key][j]
            start = up[j] if value >= 0 else down[j]
            assert bottom == pytest.approx(start) and top == pytest.approx(start + value)
            up[j] += max(value, 0)
            down[j] += min(value, 0)
    ticks = [line.get_ydata()[0] for line in lab.bars.totals]
    np.testing.assert_allclose(ticks, lab.values["tau"], atol=1e-12)


def test_power_bars_balance(lab):
    """The motors' bar equals the stack of where the power goes"""
    lab.set_preset("bent and moving")
    motor, rest = (line.get_ydata()[0] for line in lab.power_bars.totals)
    assert motor == pytest.approx(15.592571, abs=5e-7)
    assert rest == pytest.approx(motor, abs=1e-12)


def test_link_mass_damping_gravity_and_force_change_the_model(lab):
    lab.set_preset("horizontal hold")
    lab.widgets["m2"].value = 2.0
    # the torque-budget case's exercise 1
    assert table(lab)["τ, total"] == "(34.335000, 9.810000)"
    lab.widgets["gravity"].value = False
    assert table(lab)["τ, total"] == "(0.000000, 0.000000)"
    lab.widgets["qd1"].value = 1.0
    lab.widgets["damping"].value = 0.5
    np.testing.assert_allclose(lab.values["parts"]["friction"], [0.5, 0.0])
    lab.widgets["fx"].value = 10.0
    np.testing.assert_allclose(lab.values["parts"]["tip"],
                               al.static_torques(al.rod_arm(), [0, 0], [10, 0]), atol=1e-12)


def test_axes_snap_to_few_ranges(lab):
    """Dragging q2 through the hold keeps the torque axis (no rescale per step), on a snapped range"""
    lab.set_preset("horizontal hold")
    limits = set()
    for q2 in range(0, 30, 2):
        lab.widgets["q2"].value = float(q2)
        limits.add(lab._axes[0].get_ylim())
    assert len(limits) == 1
    bottom, top = limits.pop()
    assert top in (25.0, 50.0) and bottom in (-2.5, -5.0)


def test_axes_keep_their_range_until_the_data_leave_it(lab):
    """A slightly larger torque keeps the axes; a much smaller one rescales, and the arcs follow"""
    lab.set_preset("bent and moving")
    before = lab._axes[0].get_ylim()
    assert before[1] >= 17.416659 * 1.15
    lab.widgets["damping"].value = 0.5                  # a little more torque: same axes
    assert lab._axes[0].get_ylim() == before
    lab.set_preset("elbow acceleration")                # under 1 N m: the axis shrinks
    assert lab._axes[0].get_ylim() == (-1.0, 1.0)
    assert lab.drawing.torque_scale == 1.0              # the arcs follow the bars' scale


def test_base_parameters_follow_link_2s_mass(lab):
    """The table's base parameters (Z1, X1, Z2, X2) of the rods: (4/3, 3/2, 1/3, 1/2) with
    link 2 of 1 kg; each kilogram more on link 2 adds L1^2 = 1, L1 = 1, 1/3 and 1/2, and the
    table's parameters times the regressor give the table's total (no tip force here)"""
    lab.set_preset("moving bent arm")
    r = table(lab)
    assert r["base parameters Z1, X1"] == "(1.333333, 1.500000)"
    assert r["base parameters Z2, X2"] == "(0.333333, 0.500000)"
    lab.widgets["m2"].value = 2.0
    r = table(lab)
    assert r["base parameters Z1, X1"] == "(2.333333, 2.500000)"
    assert r["base parameters Z2, X2"] == "(0.666667, 1.000000)"
    v = lab.values
    Y = al.dynamics_regressor(v["arm"], v["q"], v["qd"], v["qdd"], friction=True)
    np.testing.assert_allclose(Y @ al.base_parameters(v["arm"], friction=True), v["tau"],
                               atol=1e-12)
