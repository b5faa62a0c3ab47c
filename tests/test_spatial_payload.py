"""armlab.spatial's payload capacity and simulation, each against an independent route:
the capacity against gravity torques of the loaded arm found by bisection, the payload's
torques against the loaded arm's extra gravity torques, and the simulation's energy error
shrinking at each integrator's order.
"""

import numpy as np
import pytest

import armlab.spatial as sp


@pytest.mark.parametrize("robot", ["so101", "panda"])
def test_payload_torques_are_the_loaded_arms_extra_gravity_torques(robot):
    """b(q) with an offset centre equals g(q) of the arm carrying 1 kg there minus g(q)"""
    arm = getattr(sp, robot)()
    q = np.random.default_rng(7).uniform(-1.5, 1.5, (3, arm.n))
    com = [0.02, -0.01, 0.04]
    extra = sp.gravity_torques(arm.with_payload(1.0, com=com), q) - sp.gravity_torques(arm, q)
    np.testing.assert_allclose(sp.payload_torques(arm, q, com), extra, rtol=0, atol=1e-13)


def heaviest_by_bisection(arm, q):
    """The largest payload at the tip whose gravity torques stay within the effort limits,
    by bisection on the loaded arm's gravity torques."""
    low, high = 0.0, 1000.0
    for _ in range(200):
        mid = 0.5 * (low + high)
        held = np.all(np.abs(sp.gravity_torques(arm.with_payload(mid), q)) <= arm.effort)
        low, high = (mid, high) if held else (low, mid)
    return low


@pytest.mark.parametrize("robot, q", [
    ("so101", np.zeros(5)), ("so101", [0.3, -0.8, 1.1, 0.4, 0.2]),
    ("panda", [0.0, 0.3, 0.0, -1.5, 0.0, 1.8, 0.8]), ("panda", [0.5, 1.0, -0.3, -0.5, 0.4, 1.0, 0])])
def test_capacity_equals_bisection_and_its_joint_is_at_its_limit(robot, q):
    arm = getattr(sp, robot)()
    mass, joint = sp.payload_capacity(arm, q)
    np.testing.assert_allclose(mass, heaviest_by_bisection(arm, q), rtol=1e-12)
    tau = sp.gravity_torques(arm.with_payload(float(mass)), q)
    np.testing.assert_allclose(abs(tau[joint]), arm.effort[joint], rtol=1e-12)
    batch_mass, batch_joint = sp.payload_capacity(arm, np.array([q, q]))
    np.testing.assert_array_equal(batch_mass, [mass, mass])
    np.testing.assert_array_equal(batch_joint, [joint, joint])


def test_capacity_is_nan_when_the_arm_cannot_hold_itself():
    arm = sp.so101(gravity=300.0)
    mass, joint = sp.payload_capacity(arm, np.zeros(5))
    assert np.isnan(mass) and joint == -1


def energy_error(arm, q0, h, method, duration=0.2):
    run = sp.simulate(arm, q0, duration, h, method=method)
    return np.abs(run.energy - run.energy[..., :1]).max(axis=-1)


def test_energy_error_shrinks_at_each_methods_order():
    """The SO-101 swinging freely from two starts: halving h halves semi-implicit Euler's energy
    error (ratio 1.6 to 2.4 allowed) and divides RK4's by 16 (13 to 19 allowed)"""
    arm = sp.so101()
    q0 = np.array([[0.2, -0.5, 0.8, 0.3, 0.1], [-0.4, 0.9, -0.6, 1.0, 0.0]])
    euler = energy_error(arm, q0, 2e-3, "semi_implicit_euler") / energy_error(
        arm, q0, 1e-3, "semi_implicit_euler")
    rk4 = energy_error(arm, q0, 4e-3, "rk4") / energy_error(arm, q0, 2e-3, "rk4")
    assert np.all((1.6 < euler) & (euler < 2.4)), euler
    assert np.all((13 < rk4) & (rk4 < 19)), rk4


def test_semi_implicit_euler_step_by_hand():
    """One step: qd1 = qd0 + h qdd(q0, qd0), q1 = q0 + h qd1"""
    arm = sp.so101()
    q0, qd0, h = np.array([0.1, 0.2, 0.3, 0.4, 0.5]), np.array([1.0, 0, -1, 0, 2]), 1e-3
    run = sp.simulate(arm, q0, h, h, qd0=qd0, tau=[0.1, 0, 0, 0, 0],
                      method="semi_implicit_euler")
    qd1 = qd0 + h * sp.forward_dynamics(arm, q0, qd0, [0.1, 0, 0, 0, 0])
    np.testing.assert_array_equal(run.qd[-1], qd1)
    np.testing.assert_array_equal(run.q[-1], q0 + h * qd1)


@pytest.mark.parametrize("call, name", [
    (lambda: sp.payload_capacity(sp.so101(), np.zeros(4)), "q"),
    (lambda: sp.payload_torques(sp.so101(), np.zeros(5), com=[0, 0]), "com"),
    (lambda: sp.simulate(sp.so101(), np.zeros(5), 0.1, 0.0), "h"),
    (lambda: sp.simulate(sp.so101(), np.zeros(5), 0.1, 0.03), "duration"),
    (lambda: sp.simulate(sp.so101(), np.zeros(5), 0.1, 0.01, method="euler"), "method"),
    (lambda: sp.simulate(sp.so101(), np.zeros(5), 0.1, 0.01, tau=[1.0]), "tau"),
])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()
