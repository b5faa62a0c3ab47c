"""The book's real arms: their URDF copies equal the published package's files byte for
byte, they load with their rated torques, and a payload at the flange weighs as a wrench."""

import importlib.metadata

import numpy as np
import pytest

import armlab.spatial as sp


def published(relative):
    """A file of the installed example-robot-data package (a test-only dependency)."""
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed (requirements-test.txt)")
    assert dist.version == "6.0.0"
    return dist.locate_file(f"cmeel.prefix/share/example-robot-data/robots/{relative}")


@pytest.mark.parametrize("copy, original", [
    ("so101.urdf", "so_arm_description/urdf/so101.urdf"),
    ("panda.urdf", "panda_description/urdf/panda.urdf"),
    ("LICENSE-Apache-2.0", "panda_description/LICENSE")])
def test_copies_equal_the_published_files(copy, original):
    assert (sp.robots.URDF_DIR / copy).read_bytes() == published(original).read_bytes()


def test_so101_joints_limits_and_mass():
    """Five arm joints with the URDF's 10 N m efforts; every link but the base is carried,
    the jaw and the massless gripper frame merged into the last body"""
    arm = sp.so101()
    assert arm.joints == ("shoulder_pan", "shoulder_lift", "elbow_flex", "wrist_flex",
                          "wrist_roll")
    assert arm.kinds == ("revolute",) * 5
    np.testing.assert_array_equal(arm.effort, [10.0] * 5)
    np.testing.assert_array_equal(arm.upper, [1.91986, 1.74533, 1.69, 1.65806, 2.84121])
    carried = [0.100006, 0.103, 0.104, 0.079, 0.087 + 0.012 + 1e-9]
    np.testing.assert_allclose(arm.masses, carried, rtol=0, atol=1e-15)


def test_panda_joints_and_limits():
    arm = sp.panda()
    assert arm.joints == tuple(f"panda_joint{i}" for i in range(1, 8))
    np.testing.assert_array_equal(arm.effort, [87, 87, 87, 87, 12, 12, 12])
    np.testing.assert_allclose(arm.masses[-1], 0.735522 + 0.73 + 2 * 0.015, rtol=0, atol=1e-15)
    np.testing.assert_allclose(arm.tip[:3, 3], [0, 0, 0.107 + 0.1034], rtol=0, atol=1e-15)


@pytest.mark.parametrize("robot", ["so101", "panda"])
def test_payload_weighs_as_the_wrench_the_tip_holds_it_with(robot):
    """A payload of m kg at the flange adds J_t^T (0, 0, 0, 0, 0, m g0) to the gravity
    torques: the tip pushes the payload *up* with m g0 (the wrench the tip applies)"""
    arm = getattr(sp, robot)()
    q = np.random.default_rng(5).uniform(-1.5, 1.5, (4, arm.n))
    extra = sp.gravity_torques(arm.with_payload(0.3), q) - sp.gravity_torques(arm, q)
    lift = sp.static_torques(arm, q, [0, 0, 0, 0, 0, 0.3 * 9.81])
    np.testing.assert_allclose(extra, lift, rtol=0, atol=1e-13)
    offset = [0.01, -0.02, 0.05]                        # the payload's centre, tip frame
    loaded = arm.with_payload(0.3, com=offset, inertia=np.diag([1e-3, 2e-3, 3e-3]))
    R = sp.forward_kinematics(arm, q)[..., :3, :3]
    arm_of_weight = R @ offset                          # tip point to the payload's centre
    weight_up = np.array([0, 0, 0.3 * 9.81])
    moment = np.cross(arm_of_weight, weight_up)
    wrench = np.concatenate([moment, np.broadcast_to(weight_up, moment.shape)], axis=-1)
    np.testing.assert_allclose(sp.gravity_torques(loaded, q) - sp.gravity_torques(arm, q),
                               sp.static_torques(arm, q, wrench), rtol=0, atol=1e-13)


PENDULUM = '''<robot name="p"><link name="base"/>
  <link name="bob"><inertial><origin xyz="0 0 -1"/><mass value="2"/>
    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="pivot" type="revolute"><parent link="base"/><child link="bob"/>
    <axis xyz="1 0 0"/></joint></robot>'''


@pytest.mark.parametrize("call, name", [
    (lambda: sp.load_urdf("<robot><link"), "source"),
    (lambda: sp.load_urdf("/no/such/file.urdf"), "source"),
    (lambda: sp.load_urdf(42), "source"),
    (lambda: sp.load_urdf(PENDULUM, tip="nowhere"), "tip"),
    (lambda: sp.load_urdf(PENDULUM, base="nowhere"), "base"),
    (lambda: sp.load_urdf(PENDULUM, tip="base"), "tip"),
    (lambda: sp.load_urdf(PENDULUM, gravity=[0, 9.81]), "gravity"),
    (lambda: sp.load_urdf(PENDULUM.replace('value="2"', 'value="-2"')), "urdf"),
    (lambda: sp.load_urdf(PENDULUM.replace('"revolute"', '"floating"')), "tip"),
    (lambda: sp.load_urdf(PENDULUM.replace('iyy="0"', 'iyy="-1"')), "inertia"),
    (lambda: sp.gravity_torques(sp.so101(), np.zeros(4)), "q"),
    (lambda: sp.inverse_dynamics(sp.so101(), np.zeros(5), [np.nan] * 5, np.zeros(5)), "qd"),
    (lambda: sp.inverse_dynamics(sp.so101(), np.zeros((2, 5)), np.zeros((3, 5)),
                                 np.zeros(5)), "the batch dimensions of q"),
    (lambda: sp.static_torques(sp.so101(), np.zeros(5), np.zeros(3)), "wrench"),
    (lambda: sp.static_torques(sp.so101(), np.zeros(5), np.zeros(6), frame="space"), "frame"),
    (lambda: sp.so101().with_payload(-1.0), "mass"),
    (lambda: sp.so101().with_payload(1.0, com=[0, 0]), "com"),
    (lambda: sp.rotation([0, 0, 2], 1.0), "axis"),
    (lambda: sp.force_ellipsoid(sp.so101(), np.zeros(5), joint_torque=0), "joint_torque"),
])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


def test_a_joint_that_moves_no_mass_is_refused():
    massless = sp.load_urdf(PENDULUM.replace('value="2"', 'value="0"'))
    with pytest.raises(ValueError, match="^chain: joint 'pivot' moves no mass"):
        sp.forward_dynamics(massless, [0.0], [0.0], [1.0])
