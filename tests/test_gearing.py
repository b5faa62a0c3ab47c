"""armlab.gearing against independent routes: direct calls of shortest_duration on the geared
arm, the quintic's closed-form peak speed, the rods' gravity torque written out by hand."""

import numpy as np
import pytest

import armlab as al
from armlab import gearing

#: The table-top arm's move of the chapter [rad]: joint 2 turns the farther, 120 deg.
MOVE = (np.radians([-45, 90]), np.radians([60, -30]))
ARM = ((0.3, 0.25), (2.0, 1.0))
MOTOR = al.Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6)
LINE = al.Motor(0.15, 500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6, stall_torque=0.3,
                continuous_torque=0.05)


def shoulder_gravity(q):
    """g_1 of the table-top arm's uniform rods, written out: (m1 l1/2 + m2 l1) g cos q1
    + m2 l2/2 g cos(q1 + q2) [N m]."""
    (l1, l2), (m1, m2) = ARM
    return 9.81 * ((m1 * l1 / 2 + m2 * l1) * np.cos(q[..., 0])
                   + m2 * l2 / 2 * np.cos(q[..., 0] + q[..., 1]))


def geared(G, motor=MOTOR):
    """The shortest durations by torque and by top speed through ``G``, by direct calls [s]."""
    arm = al.PlanarArm(*ARM, damping=motor.damping, coulomb=motor.coulomb, gear_ratio=G)
    torque = al.shortest_duration(arm, *MOVE, motor.torque * G, rotor_inertia=motor.inertia)
    speed = 1.875 * np.radians(120) * G / motor.speed      # the quintic's peak is 15/8 its mean
    return torque.duration, speed


def test_gear_sweep_against_direct_calls():
    """Each point of the sweep is shortest_duration of the geared arm; the speed line is linear"""
    ratios = np.array([40.0, 60.0, 80.0, 120.0])
    sweep = gearing.gear_sweep(MOTOR, *ARM, *MOVE, ratios)
    for G, T, Ts in zip(ratios, sweep["torque"], sweep["speed"]):
        arm = al.PlanarArm(*ARM, damping=2e-5, coulomb=4e-3, gear_ratio=G)
        both = al.shortest_duration(arm, *MOVE, 0.15 * G, rotor_inertia=5e-6,
                                    speed_limit=500.0 / G)
        assert both.duration == pytest.approx(max(T, Ts), rel=1e-9)
        np.testing.assert_allclose(Ts, geared(G)[1], rtol=1e-12)
    assert np.isinf(sweep["torque"][0])             # 6 N m cannot carry the arm's weight
    assert sweep["T_ref"] == sweep["best"][2]       # 80:1 is the sweep's fastest


def test_shoulder_peaks_are_the_quintics():
    """The quintic's peak speed is 15/8 of its mean and its peak acceleration 10 / sqrt(3)
    times the distance over T^2; the need is the largest |tau_1| of the arm's inverse dynamics"""
    T = 0.7
    peaks = gearing.shoulder_peaks(*ARM, *MOVE, T)
    step = np.radians(105)
    assert peaks["peak_speed"] == pytest.approx(15 / 8 * step / T, rel=1e-12)
    assert peaks["peak_acc"] == pytest.approx(10 / np.sqrt(3) * step / T**2, rel=1e-4)
    q, qd, qdd = al.quintic(*MOVE, T)(np.linspace(0, T, 401))
    np.testing.assert_allclose(peaks["need"], np.abs(al.rnea(al.PlanarArm(*ARM), q, qd, qdd)
                                                     [:, 0]).max(), rtol=1e-12)


def test_the_hold_ratio_counts_gravity_either_way_on_both_joints():
    """Reaching out to the left, gravity pulls the shoulder negative all along the move: the
    hold ratio is the largest |g_i| over both joints, positive, not the largest signed g_1"""
    move = (np.radians([150, 0]), np.radians([170, 10]))
    sweep = gearing.gear_sweep(MOTOR, *ARM, *move, np.geomspace(30, 500, 12))
    q = al.quintic(*move, 1.0)(np.linspace(0.0, 1.0, 20001))[0]
    assert shoulder_gravity(q).max() < 0
    hold = gearing.gear_optimum(MOTOR, *ARM, *move, sweep)["hold"]
    assert hold == pytest.approx(-shoulder_gravity(q).min() / (0.15 - 4e-3), rel=1e-12)


def test_gear_optimum_crossing_hold_and_best():
    """The crossing: the two durations swap order across it (direct calls); its duration is the
    speed's, 15/8 of the mean speed; the hold ratio: the largest g_1 written out, over the
    motor's torque less its Coulomb friction; the torque's best is a local minimum"""
    sweep = gearing.gear_sweep(MOTOR, *ARM, *MOVE, np.geomspace(30, 500, 12))
    best = gearing.gear_optimum(MOTOR, *ARM, *MOVE, sweep)
    G = best["crossing"]
    below, above = geared(G * (1 - 1e-6)), geared(G * (1 + 1e-6))
    assert below[0] > below[1] and above[0] < above[1]
    assert best["T_crossing"] == pytest.approx(geared(G)[1], rel=1e-8)
    assert (best["best"], best["T_best"]) == (G, best["T_crossing"])
    q = al.quintic(*MOVE, 1.0)(np.linspace(0.0, 1.0, 20001))[0]
    assert best["hold"] == pytest.approx(shoulder_gravity(q).max() / (0.15 - 4e-3), rel=1e-12)
    T = best["T_torque_best"]
    assert geared(best["torque_best"] * 0.99)[0] > T < geared(best["torque_best"] * 1.01)[0]


def test_duty_cycle_against_its_parts():
    """The cycle's RMS from its samples; the move starts at rest, so its first torque is the
    gravity torque written out; the holds hold the end poses; the cycle lasts two moves and two
    dwells; with a torque-speed line the sweep's best is the torque's own (no crossing)"""
    c = gearing.duty_cycle(LINE, *ARM, *MOVE, 64.0, 1.0)
    assert c["t"][-1] == pytest.approx(2 * c["duration"] + 2.0, rel=1e-15)
    np.testing.assert_allclose(c["rms"], np.sqrt(np.trapezoid(c["tau"] ** 2, c["t"], axis=0)
                                                 / c["t"][-1]), rtol=1e-12)
    assert c["tau"][0, 0] == pytest.approx(shoulder_gravity(MOVE[0]), rel=1e-12)
    hold_out = c["tau"][2001:2003, 0]
    np.testing.assert_allclose(hold_out, shoulder_gravity(MOVE[1]), rtol=1e-12)
    np.testing.assert_array_equal(c["peak"], np.abs(c["tau"]).max(axis=0))
    sweep = gearing.gear_sweep(LINE, *ARM, *MOVE, np.geomspace(40, 120, 12))
    best = gearing.gear_optimum(LINE, *ARM, *MOVE, sweep)
    assert np.isnan(best["crossing"]) and best["best"] == best["torque_best"]
    assert best["T_best"] <= sweep["best"].min() + 1e-12


@pytest.mark.parametrize("call, name", [
    (lambda: gearing.gear_sweep("motor", *ARM, *MOVE, [50.0]), "motor"),
    (lambda: gearing.gear_sweep(MOTOR, (0.3, 0.25, 0.2), (2.0, 1.0, 1.0), *MOVE, [50.0]),
     "lengths"),
    (lambda: gearing.gear_sweep(MOTOR, (0.3, -0.25), (2.0, 1.0), *MOVE, [50.0]), "lengths"),
    (lambda: gearing.gear_sweep(MOTOR, *ARM, [0.0, 0.0, 0.0], MOVE[1], [50.0]), "q_start"),
    (lambda: gearing.gear_sweep(MOTOR, *ARM, MOVE[0], [np.nan, 0.0], [50.0]), "q_end"),
    (lambda: gearing.gear_sweep(MOTOR, *ARM, *MOVE, [50.0, -1.0]), "ratios"),
    (lambda: gearing.gear_sweep(MOTOR, *ARM, *MOVE, [[50.0]]), "ratios"),
    (lambda: gearing.gear_sweep(MOTOR, *ARM, *MOVE, [10.0]), "ratios"),
    (lambda: gearing.gear_optimum(MOTOR, *ARM, *MOVE, [50.0]), "sweep"),
    (lambda: gearing.shoulder_peaks(*ARM, *MOVE, 0.0), "duration"),
    (lambda: gearing.duty_cycle(MOTOR, *ARM, *MOVE, 0.0, 1.0), "G"),
    (lambda: gearing.duty_cycle(MOTOR, *ARM, *MOVE, 64.0, -1.0), "dwell"),
])
def test_bad_arguments_are_named(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()
