"""armlab.figures.control: runs over time and gain maps draw the values they are given."""

import numpy as np
import pytest

import armlab as al

figures = pytest.importorskip("armlab.figures.control")


def test_joint_time_figure_draws_each_run_per_joint():
    plan = al.quintic([0.0, 0.0], [1.0, -1.0], 0.8, hold=0.2)
    t = np.linspace(0, 1.0, 11)
    runs = {"PID": (t, np.c_[t, -t]), "mine": (t, np.c_[2 * t, t], {"ls": "--"})}
    fig = figures.joint_time_figure([(runs, "angle [rad]", False)], plan)
    shoulder, elbow = fig.axes
    np.testing.assert_array_equal(elbow.lines[0].get_ydata(), -t)
    np.testing.assert_array_equal(shoulder.lines[1].get_ydata(), 2 * t)
    assert shoulder.lines[0].get_color() == figures.CONTROLLER_COLORS["PID"]
    assert shoulder.lines[1].get_linestyle() == "--"
    assert shoulder.get_xlim() == (0.0, 1.0)              # the plan's end, hold included


def test_draw_gain_map_colours_the_largest_error_in_degrees():
    kp, kd = np.array([[10.0, 5.0], [40.0, 20.0]]), np.array([[1.0, 0.5], [4.0, 2.0]])
    largest = np.radians([[[0.5, 0.2], [2.0, 3.0]], [[0.05, 0.1], [1.0, 0.4]]])
    diverged = np.array([[False, False], [False, True]])
    gm = al.GainMap(kp=kp, kd=kd, largest=largest, peak_torque=np.zeros((2, 2, 2)),
                    saturated=np.zeros((2, 2), bool), diverged=diverged)
    from armlab import plots

    fig, ax = plots.figure()
    mesh = figures.draw_gain_map(ax, gm)
    shown = mesh.get_array().reshape(2, 2)
    np.testing.assert_allclose(shown[0], [0.5, 3.0])        # the larger joint's error, in deg
    np.testing.assert_allclose(shown[1, 0], 0.1)
    assert np.ma.getmaskarray(shown)[1, 1]                  # the diverged run shows grey


def test_draw_gain_map_labels_every_piece_of_every_contour():
    """A short contour (the 10 deg line in a corner of the chapter's PD map) keeps its label."""
    kp = np.geomspace(10, 1000, 8)[:, None] * [1.0, 1.0]
    kd = np.geomspace(0.4, 10, 9)[:, None] * [1.0, 1.0]
    error = 100.0 / (kp[:, :1] * kd[:, 0])                  # [deg]: 25 at one corner, 0.01 at the other
    largest = np.radians(np.repeat(error[..., None], 2, axis=-1))
    gm = al.GainMap(kp=kp, kd=kd, largest=largest, peak_torque=np.zeros((8, 9, 2)),
                    saturated=np.zeros((8, 9), bool), diverged=np.zeros((8, 9), bool))
    from armlab import plots

    fig, ax = plots.figure()
    figures.draw_gain_map(ax, gm)
    assert sorted(t.get_text() for t in ax.texts) == ["0.1°", "10°", "1°"]
