"""Torque limits: clipping, the acceleration clipped torques give, payload capacity."""

import numpy as np
import pytest
from arm_strategies import arm_and_state, arms
from hypothesis import given, settings
from hypothesis import strategies as st

import armlab as al

PROPS = settings(max_examples=50, deadline=None)


def test_clip_forms_of_the_limit():
    tau = np.array([-30.0, 5.0, 30.0])
    np.testing.assert_array_equal(al.clip_torques(tau, 20), [-20, 5, 20])
    np.testing.assert_array_equal(al.clip_torques(tau, [10, 2, 40]), [-10, 2, 30])
    np.testing.assert_array_equal(al.clip_torques(tau, [[-5, -5, -5], [25, 4, 25]]), [-5, 4, 25])
    np.testing.assert_array_equal(al.clip_torques(np.tile(tau, (4, 1)), 20),
                                  np.tile([-20, 5, 20], (4, 1)))


@PROPS
@given(arm_and_state(), st.floats(0.5, 30.0))
def test_realized_acceleration(case, limit):
    arm, q, qd, qdd, _, F = case
    req, applied, acc = al.realized_acceleration(arm, q, qd, qdd, limit, F)
    np.testing.assert_allclose(req, al.inverse_dynamics(arm, q, qd, qdd, F))
    np.testing.assert_array_equal(applied, np.clip(req, -limit, limit))
    # the torque deficit, and only it, changes the acceleration: M (qdd - qdd_req) = deficit
    M = al.mass_matrix(arm, q)
    np.testing.assert_allclose(M @ (acc - qdd), applied - req,
                               atol=1e-9 * (1 + np.abs(req).max()))
    if np.all(np.abs(req) <= limit):
        np.testing.assert_allclose(acc, qdd, atol=1e-8 * (1 + np.abs(qdd).max()))


@PROPS
@given(arms(max_links=4), st.integers(0, 2**32 - 1))
def test_payload_capacity_is_the_load_that_reaches_the_limit(arm, seed):
    """Per joint, k units of the load put that joint exactly at its limit (seed 004)."""
    rng = np.random.default_rng(seed)
    q = rng.uniform(-np.pi, np.pi, arm.n)
    g = al.gravity_torques(arm, q)
    limit = np.abs(g) + rng.uniform(0.5, 10, arm.n)          # the arm can hold itself
    cap = al.payload_capacity(arm, q, limit)
    unit = -np.array(arm.gravity)                            # holding 1 kg
    t = al.static_torques(arm, q, unit)
    for j in range(arm.n):
        if np.isinf(cap[j]):
            assert abs(t[j]) <= 1e-9 * (1 + np.abs(unit).max())
        else:
            assert cap[j] >= 0
            np.testing.assert_allclose(abs(g[j] + cap[j] * t[j]), limit[j], rtol=1e-9)
    finite = np.isfinite(cap) & (cap < 1e6)        # (a vanishing gravity allows any load)
    if np.any(finite):
        k = cap[finite].min()
        loaded = al.gravity_torques(arm.with_payload(k), q)
        assert np.all(np.abs(loaded) <= limit * (1 + 1e-9))


def test_payload_capacity_with_a_tool_force_and_a_batch():
    arm = al.statics_arm()
    q = np.radians([[0, 90], [30, 60], [10, 20]])
    push = [10.0, 0.0]
    cap = al.payload_capacity(arm, q, 20, push)
    assert cap.shape == (3, 2)
    for i in range(3):
        np.testing.assert_array_equal(cap[i], al.payload_capacity(arm, q[i], 20, push))


@settings(max_examples=20, deadline=None)
@given(arms(), st.integers(0, 2**32 - 1))
def test_batch_equals_loop(arm, seed):
    rng = np.random.default_rng(seed)
    q, qd, qdd = (rng.uniform(-2, 2, (3, 2, arm.n)) for _ in range(3))
    whole = al.realized_acceleration(arm, q, qd, qdd, 5.0)
    caps = al.payload_capacity(arm, q, 50.0)
    for idx in np.ndindex(3, 2):
        one = al.realized_acceleration(arm, q[idx], qd[idx], qdd[idx], 5.0)
        for w, o in zip(whole, one):
            np.testing.assert_allclose(w[idx], o, atol=1e-12)
        np.testing.assert_array_equal(caps[idx], al.payload_capacity(arm, q[idx], 50.0))
    np.testing.assert_array_equal(al.clip_torques(qdd, 1.0)[1, 1], al.clip_torques(qdd[1, 1], 1.0))


# ---------------------------------------------------------------- scaling the torque vector
@PROPS
@given(st.lists(st.floats(-50, 50), min_size=1, max_size=6), st.floats(0.5, 30.0))
def test_scaling_keeps_the_direction_and_fits(values, limit):
    """s tau with the largest s <= 1: parallel to tau, within the limits, on a bound if it moved"""
    tau = np.array(values)
    applied = al.scale_torques(tau, limit)
    assert np.all(np.abs(applied) <= limit * (1 + 1e-12))
    # parallel: every component shrinks by the same factor
    s = np.linalg.norm(applied) / max(np.linalg.norm(tau), 1e-300)
    np.testing.assert_allclose(applied, s * tau, atol=1e-12)
    if np.all(np.abs(tau) <= limit):
        np.testing.assert_array_equal(applied, tau)
    else:
        assert np.isclose(np.abs(applied).max(), limit, rtol=1e-12)


def test_scaling_against_clipping_and_asymmetric_limits():
    tau = np.array([30.0, -10.0, 5.0])
    np.testing.assert_allclose(al.scale_torques(tau, 20), [20, -20 / 3, 10 / 3])
    np.testing.assert_allclose(al.clip_torques(tau, 20), [20, -10, 5])
    # per joint: the joint with the least room sets the factor (elbow: -10 -> -4, s = 0.4)
    np.testing.assert_allclose(al.scale_torques(tau, [40, 4, 40]), [12, -4, 2])
    # minima then maxima: the negative torque meets its minimum first
    np.testing.assert_allclose(al.scale_torques(tau, [[-2, -2, -2], [60, 60, 60]]),
                               [6, -2, 1])
    # a batch, row by row
    batch = np.array([tau, -tau, tau / 10])
    np.testing.assert_allclose(al.scale_torques(batch, 20),
                               [al.scale_torques(t, 20) for t in batch])


@PROPS
@given(arm_and_state(), st.floats(0.5, 30.0))
def test_realized_acceleration_when_scaling(case, limit):
    """The deficit check holds for the scaled torque too: M (qdd - qdd_req) = applied - req"""
    arm, q, qd, qdd, _, F = case
    req, applied, acc = al.realized_acceleration(arm, q, qd, qdd, limit, F, policy="scale")
    np.testing.assert_allclose(applied, al.scale_torques(req, limit))
    M = al.mass_matrix(arm, q)
    np.testing.assert_allclose(M @ (acc - qdd), applied - req,
                               atol=1e-9 * (1 + np.abs(req).max()))


@PROPS
@given(arm_and_state(gravity=False, friction=False), st.floats(0.1, 5.0))
def test_scaling_at_rest_without_gravity_scales_the_motion(case, limit):
    """At rest, no gravity, no friction, no load: tau = M qdd, so s tau gives s qdd exactly"""
    arm, q, _, qdd, _, _ = case
    zero = np.zeros(arm.n)
    req, applied, acc = al.realized_acceleration(arm, q, zero, qdd, limit, policy="scale")
    s = np.abs(applied).max() / max(np.abs(req).max(), 1e-300)
    np.testing.assert_allclose(acc, min(s, 1.0) * qdd, atol=1e-9 * (1 + np.abs(qdd).max()))


def test_seed001_policies_side_by_side():
    """Seed 001 at 20 N m: clipping turns the shoulder backwards, scaling keeps tau's direction"""
    arm = al.rod_arm()
    req, clip, acc_clip = al.realized_acceleration(arm, [0, 0], [0, 0], [1, 0], 20)
    _, scaled, acc_scale = al.realized_acceleration(arm, [0, 0], [0, 0], [1, 0], 20,
                                                    policy="scale")
    np.testing.assert_allclose(clip, [20, 5.738333], atol=5e-7)
    np.testing.assert_allclose(acc_clip, [-2.92, 9.8], atol=1e-12)
    np.testing.assert_allclose(scaled, req * 20 / req[0])
    # no gravity, at rest: the scaled torque gives the requested direction exactly
    free = al.rod_arm(gravity=0)
    _, _, acc = al.realized_acceleration(free, [0, 0], [0, 0], [0, 2], 1.5, policy="scale")
    np.testing.assert_allclose(acc, [0, 2 * 1.5 / (5 / 3)], atol=1e-13)
    _, _, acc = al.realized_acceleration(free, [0, 0], [0, 0], [0, 2], 1.5)
    np.testing.assert_allclose(acc, [-2 / 7, 19 / 7], atol=1e-13)


# ---------------------------------------------------------------- a pose's capacity, the map
def largest_payload_by_bisection(arm, q, limit):
    """Independent route: the heaviest tip mass whose gravity torques stay within the limit."""
    low, high = (-np.asarray(limit), np.asarray(limit))

    def holds(m):
        g = al.gravity_torques(arm.with_payload(m), q)
        return np.all((g >= low) & (g <= high))

    if not holds(0.0):
        return np.nan
    top = 1.0
    while holds(top):
        top *= 2
        if top > 1e6:
            return np.inf
    bottom = 0.0
    for _ in range(80):
        mid = (bottom + top) / 2
        bottom, top = (mid, top) if holds(mid) else (bottom, mid)
    return bottom


@settings(max_examples=40, deadline=None)
@given(arms(max_links=4, gravity=False), st.integers(0, 2**32 - 1))
def test_pose_capacity_by_bisection(arm, seed):
    """The pose's capacity is the heaviest payload with_payload() lets the gravity torques hold"""
    arm = al.PlanarArm(arm.lengths, arm.masses, arm.com, arm.inertia, gravity=9.81)
    rng = np.random.default_rng(seed)
    q = rng.uniform(-np.pi, np.pi, arm.n)
    g = np.abs(al.gravity_torques(arm, q))
    limit = g * rng.uniform(0.7, 2.0, arm.n) + 0.1        # some poses cannot hold themselves
    cap, joint = al.pose_capacity(arm, q, limit)
    expected = largest_payload_by_bisection(arm, q, limit)
    if np.isnan(expected):
        assert np.isnan(cap) and g[joint] > limit[joint]
    else:
        np.testing.assert_allclose(cap, expected, rtol=1e-9, atol=1e-12)
        per_joint = al.payload_capacity(arm, q, limit)
        assert cap == per_joint[joint] == per_joint.min()


def test_pose_capacity_meanings():
    """inf: no joint carries the load; nan: the arm cannot hold itself (it falls), not zero"""
    arm = al.rod_arm()
    cap, joint = al.pose_capacity(arm, np.radians([90, 0]), 25)
    assert np.isinf(cap) and joint == -1
    cap, joint = al.pose_capacity(arm, np.radians([0, 90]), 25)   # the elbow carries none
    np.testing.assert_allclose(al.payload_capacity(arm, np.radians([0, 90]), 25)[1], np.inf)
    assert np.isfinite(cap) and joint == 0
    cap, joint = al.pose_capacity(arm, [0, 0], 15)
    assert np.isnan(cap) and joint == 0
    # a nan pose with no load at all: asking to stay still, the arm falls
    _, applied, acc = al.realized_acceleration(arm, [0, 0], [0, 0], [0, 0], 15)
    assert acc[0] < -1
    # a batch: shapes (...), entries equal one at a time
    q = np.radians([[[0, 0], [90, 0]], [[0, 90], [30, 60]]])
    caps, joints = al.pose_capacity(arm, q, 15)
    assert caps.shape == joints.shape == (2, 2)
    for idx in np.ndindex(2, 2):
        one = al.pose_capacity(arm, q[idx], 15)
        np.testing.assert_array_equal(caps[idx], one[0])
        assert joints[idx] == one[1]


def test_capacity_map_is_pose_capacity_on_the_grid():
    arm = al.tabletop_arm()
    q1, q2 = np.radians(np.linspace(-180, 180, 13)), np.radians(np.linspace(-150, 150, 7))
    m = al.capacity_map(arm, q1, q2, [6, 1.5])
    assert m.capacity.shape == m.joint.shape == (7, 13)
    for j, b in enumerate(q2):
        for i, a in enumerate(q1):
            cap, joint = al.pose_capacity(arm, [a, b], [6, 1.5])
            np.testing.assert_array_equal(m.capacity[j, i], cap)
            assert m.joint[j, i] == joint
    assert np.isnan(m.capacity).any()               # 6 N m cannot hold the level arm
    np.testing.assert_array_equal(m.q1, q1)


# ---------------------------------------------------------------- the shortest duration
SEED000_MOVE = (np.radians([-45, 90]), np.radians([60, -30]))


def peak_ratio(arm, start, end, T, limit, force=None, points=40001, rotor_inertia=0.0):
    """Independent route: the plan's torques by inverse dynamics on a fine grid, as a share of
    the room to the limit (1 = on a limit). Returns the ratio, the time and the joint."""
    low, high = (-np.asarray(limit, float), np.asarray(limit, float)) if np.ndim(limit) < 2 \
        else np.asarray(limit, float)
    plan = al.quintic(start, end, T)
    t = np.linspace(0, T, points)
    q, qd, qdd = plan(t)
    tau = al.inverse_dynamics(arm, q, qd, qdd, force)
    if np.any(rotor_inertia):                    # M_r qdd - M qdd: the rotors' share
        extra = al.mass_matrix_with_rotors(arm, q, rotor_inertia) - al.mass_matrix(arm, q)
        tau = tau + np.einsum("...ij,...j->...i", extra, qdd)
    ratio = np.maximum(tau / high, tau / low)
    k, j = np.unravel_index(np.argmax(ratio), ratio.shape)
    return ratio[k, j], t[k], j


CASES = [
    # arm, move, limit
    (al.tabletop_arm(), SEED000_MOVE, [8, 2]),
    (al.tabletop_arm(), SEED000_MOVE, [[-3, -2], [9, 1.6]]),
    (al.PlanarArm((0.30, 0.25), (2.0, 1.0), damping=2e-5, coulomb=4e-3, gear_ratio=50),
     SEED000_MOVE, [9, 2.5]),
    (al.rod_arm(), (np.radians([0, 0]), np.radians([90, -90])), 40),
    (al.PlanarArm((0.4, 0.3, 0.2), (3, 2, 1), gravity=(3.0, -9.0), damping=0.05),
     (np.radians([10, 20, -30]), np.radians([-80, 60, 40])), [30, 12, 4]),
]


@pytest.mark.parametrize("arm, move, limit", CASES)
def test_shortest_duration_is_on_the_limit(arm, move, limit):
    """At T the fine-grid peak torque equals the limit; at 0.99 T it exceeds it; slower is fine"""
    lim = al.shortest_duration(arm, *move, limit)
    assert 0 < lim.duration < np.inf and lim.kind == "torque"
    ratio, t, j = peak_ratio(arm, *move, lim.duration, limit)
    assert 1 - 1e-6 < ratio <= 1 + 1e-9
    assert j == lim.joint
    assert abs(t - lim.time) < 2e-3 * lim.duration
    assert peak_ratio(arm, *move, 0.99 * lim.duration, limit)[0] > 1.0
    for factor in (1.01, 1.3, 2.0, 5.0):
        assert peak_ratio(arm, *move, factor * lim.duration, limit, points=4001)[0] <= 1.0


def test_shortest_duration_with_rotor_inertia():
    """Geared motors: the rotors' G^2 J_m slows the move; still exactly on the limit"""
    arm = al.PlanarArm((0.30, 0.25), (2.0, 1.0), damping=2e-5, coulomb=4e-3, gear_ratio=80)
    bare = al.shortest_duration(arm, *SEED000_MOVE, [12, 12])
    lim = al.shortest_duration(arm, *SEED000_MOVE, [12, 12], rotor_inertia=5e-6)
    assert lim.duration > bare.duration
    ratio, _, j = peak_ratio(arm, *SEED000_MOVE, lim.duration, [12, 12], rotor_inertia=5e-6)
    assert 1 - 1e-6 < ratio <= 1 + 1e-9 and j == lim.joint
    assert peak_ratio(arm, *SEED000_MOVE, 0.99 * lim.duration, [12, 12],
                      rotor_inertia=5e-6)[0] > 1


def test_shortest_duration_scales_with_the_root_of_the_limit():
    """No gravity or friction: tau = a / T^2, so four times the torque halves the time"""
    arm = al.PlanarArm((0.30, 0.25), (2.0, 1.0), gravity=0.0)
    one = al.shortest_duration(arm, *SEED000_MOVE, [8, 2])
    four = al.shortest_duration(arm, *SEED000_MOVE, [32, 8])
    np.testing.assert_allclose(four.duration, one.duration / 2, rtol=1e-9)
    np.testing.assert_allclose(four.fraction, one.fraction, atol=1e-6)


def test_shortest_duration_with_a_tip_force():
    arm, force = al.tabletop_arm(), [0.0, -5.0]   # the tip pushes down with 5 N all along
    lim = al.shortest_duration(arm, *SEED000_MOVE, [12, 3], tip_force=force)
    ratio, _, _ = peak_ratio(arm, *SEED000_MOVE, lim.duration, [12, 3], force)
    assert 1 - 1e-6 < ratio <= 1 + 1e-9


def test_gravity_floor_no_duration_works():
    """Seed 000's 0.5 kg payload: gravity alone exceeds 8 N m on the way; no T helps"""
    arm = al.tabletop_arm().with_payload(0.5)
    lim = al.shortest_duration(arm, *SEED000_MOVE, [8, 2])
    assert lim.duration == np.inf and np.isnan(lim.time) and lim.joint == 0 and lim.bound == 1
    assert lim.kind == "floor"
    q, _, _ = al.quintic(*SEED000_MOVE, 1.0)(lim.fraction)
    assert al.gravity_torques(arm, q)[0] > 8
    # the same move is fine without the payload
    assert al.shortest_duration(al.tabletop_arm(), *SEED000_MOVE, [8, 2]).duration < 1


def test_shortest_duration_of_no_move():
    lim = al.shortest_duration(al.tabletop_arm(), *[SEED000_MOVE[0]] * 2, [8, 2])
    assert lim.duration == 0.0 and lim.joint == -1 and lim.bound == 0 and lim.kind == ""


@pytest.mark.parametrize("speed_limit", [3.0, [6.0, 2.0], [1.5, 20.0]])
def test_speed_limit_binds_at_the_middle(speed_limit):
    """Fine grid: at T the fastest joint is exactly at its speed limit, at 0.99 T above it"""
    arm = al.tabletop_arm()
    lim = al.shortest_duration(arm, *SEED000_MOVE, [8, 2], speed_limit=speed_limit)
    torque_only = al.shortest_duration(arm, *SEED000_MOVE, [8, 2])
    assert lim.kind == "speed" and lim.fraction == 0.5 and lim.duration > torque_only.duration

    def speed_ratio(T):
        _, qd, _ = al.quintic(*SEED000_MOVE, T)(np.linspace(0, T, 20001))
        ratio = np.abs(qd) / np.asarray(speed_limit)
        return ratio.max(), np.unravel_index(np.argmax(ratio), ratio.shape)[1]

    ratio, j = speed_ratio(lim.duration)
    np.testing.assert_allclose(ratio, 1.0, rtol=1e-12)
    assert j == lim.joint
    assert speed_ratio(0.99 * lim.duration)[0] > 1
    # a loose speed limit leaves the torque's answer
    loose = al.shortest_duration(arm, *SEED000_MOVE, [8, 2], speed_limit=50.0)
    assert loose == torque_only


# ---------------------------------------------------------------- gears and rotors
MOTOR = al.Motor(torque=0.15, speed=500.0, damping=2e-5, coulomb=4e-3, inertia=5e-6)


def test_reflected_friction_matches_the_arms_friction():
    """G^2 B and G Tc from reflect_motor equal friction_torques of an arm geared the same way"""
    G = np.array([1.0, 20.0, 50.0, 160.0])
    drive = al.reflect_motor(MOTOR, G)
    qd = np.array([0.7, -1.3, 2.0, -0.01])
    arm = al.PlanarArm([0.1] * 4, [1] * 4, damping=MOTOR.damping, coulomb=MOTOR.coulomb,
                       gear_ratio=G)
    np.testing.assert_allclose(drive.friction(qd), al.friction_torques(arm, qd), rtol=1e-14)


def test_reflection_by_power_and_energy():
    """Independent route: motor-side power and energy equal joint-side ones (omega_m = G qd)"""
    G, qd = np.linspace(1, 200, 9), 1.7
    drive = al.reflect_motor(MOTOR, G)
    omega = G * qd
    # power lost in viscous friction, and the rotor's kinetic energy
    np.testing.assert_allclose(drive.damping * qd**2, MOTOR.damping * omega**2, rtol=1e-14)
    np.testing.assert_allclose(drive.coulomb * qd, MOTOR.coulomb * omega, rtol=1e-14)
    np.testing.assert_allclose(0.5 * drive.inertia * qd**2, 0.5 * MOTOR.inertia * omega**2,
                               rtol=1e-14)
    # torque times speed is the motor's power: G tau_m * omega_m / G
    np.testing.assert_allclose(drive.torque * drive.speed, MOTOR.torque * MOTOR.speed)
    np.testing.assert_allclose(drive.available_torque(qd),
                               G * MOTOR.torque - drive.damping * qd - drive.coulomb)


def test_seed004_library_friction_sign():
    """Seed 004's library returns the friction torque, opposite to the book's friction term"""
    drive = al.reflect_motor(MOTOR, 50)
    book = drive.friction(2.0)                 # the motor adds this to overcome friction
    library = -book                            # what the seed's robot.friction(qd) reports
    assert book > 0 and library < 0
    np.testing.assert_allclose(book, 50**2 * 2e-5 * 2.0 + 50 * 4e-3)


@settings(max_examples=30, deadline=None)
@given(arm_and_state(), st.floats(0.0, 1e-4))
def test_rotor_inertia_by_kinetic_energy(case, jm):
    """qd^T M_r qd / 2 = the links' kinetic energy + each rotor's J_m (G qd)^2 / 2"""
    arm, q, qd, *_ = case
    Mr = al.mass_matrix_with_rotors(arm, q, jm)
    rotors = 0.5 * jm * np.sum((np.asarray(arm.gear_ratio) * qd) ** 2)
    np.testing.assert_allclose(0.5 * qd @ Mr @ qd, al.kinetic_energy(arm, q, qd) + rotors,
                               rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("call, name", [
    (lambda: al.realized_acceleration(al.rod_arm(), [0, 0], [0, 0], [1, 0], 20, policy="cap"),
     "policy"),
    (lambda: al.scale_torques([1.0, 2.0], [[1, 1], [3, 3]]), "limit"),
    (lambda: al.scale_torques(3.0, 1.0), "tau"),
    (lambda: al.capacity_map(al.PlanarArm([1, 1, 1], [1, 1, 1]), [0], [0], 5), "two-joint"),
    (lambda: al.capacity_map(al.rod_arm(), [[0]], [0], 5), "q1"),
    (lambda: al.shortest_duration(al.rod_arm(), [0, 0, 0], [1, 1], 5), "q_start"),
    (lambda: al.shortest_duration(al.rod_arm(), [0, 0], [1, 1], 5, samples=2), "samples"),
    (lambda: al.shortest_duration(al.rod_arm(), [0, 0], [1, 1], -5), "limit"),
    (lambda: al.shortest_duration(al.rod_arm(), [[0, 0]], [[1, 1]], 5), "q_start"),
    (lambda: al.shortest_duration(al.rod_arm(), [0, 0], [1, 1], 5, speed_limit=0), "speed_limit"),
    (lambda: al.reflect_motor(MOTOR, [10, 0]), "gear_ratio"),
    (lambda: al.reflect_motor((0.1, 100), 10), "motor"),
    (lambda: al.Motor(torque=-1, speed=10), "torque"),
    (lambda: al.Motor(torque=1, speed=10, inertia=np.nan), "inertia"),
    (lambda: al.mass_matrix_with_rotors(al.rod_arm(), [0, 0], -1e-6), "rotor_inertia"),
])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()
