"""armlab.figures.inverse_dynamics: each of the chapter's figures draws the values it is given."""

import numpy as np
import pytest

import armlab as al

figures = pytest.importorskip("armlab.figures.inverse_dynamics")


def test_parts_figure_stacks_each_instants_parts():
    """The rods accelerating from horizontal: per joint, the bars stack to torque_parts' total"""
    arm = al.rod_arm()
    parts = [al.torque_parts(arm, [0, 0], [0, 0], [1, 0]),
             al.torque_parts(arm, [0.5, -1.0], [1, -0.5], [0.5, -1.0])]
    fig = figures.parts_figure(["a", "b"], parts)
    for j, ax in enumerate(fig.axes[:2]):
        ticks = [line for line in ax.lines if line.get_linewidth() == 2.5]
        np.testing.assert_allclose([t.get_ydata()[0] for t in ticks],
                                   [p["total"][j] for p in parts], rtol=1e-12)
        assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b"]


def test_mass_matrix_figure_draws_the_entries_and_the_determinants():
    arm = al.rod_arm()
    q2 = np.radians(np.linspace(-180, 180, 13))
    q = np.stack([np.zeros_like(q2), q2], axis=-1)
    M, det = al.mass_matrix(arm, q), al.mass_matrix_det(arm, q)
    fig = figures.mass_matrix_figure(q2, M, "rods", [det], ["rods"])
    ax_m, ax_d = fig.axes
    np.testing.assert_array_equal(ax_m.lines[1].get_ydata(), M[:, 0, 1])
    np.testing.assert_array_equal(ax_d.lines[0].get_ydata(), det)
    np.testing.assert_array_equal(ax_d.lines[1].get_ydata(), [det.min()] * 2)   # its floor


def test_move_figures_draw_the_parts_and_the_power():
    arm = al.tabletop_arm()
    t = np.linspace(0, 0.8, 81)
    q, qd, qdd = al.quintic([-0.8, 1.6], [1.0, -0.5], 0.8)(t)
    parts = al.torque_parts(arm, q, qd, qdd)
    fig = figures.move_parts_figure(t, parts)
    np.testing.assert_array_equal(fig.axes[1].lines[3].get_ydata(), parts["total"][:, 1])
    T, V = al.kinetic_energy(arm, q, qd), al.potential_energy(arm, q)
    balance = al.power_balance(arm, q, qd, qdd)
    fig = figures.move_power_figure(t, T, V, balance)
    np.testing.assert_array_equal(fig.axes[0].lines[2].get_ydata(), T + V)
    np.testing.assert_array_equal(fig.axes[1].lines[0].get_ydata(), balance.motor)
