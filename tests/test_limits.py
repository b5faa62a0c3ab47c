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
    """Per joint, k units of the load put that joint exactly at its limit (the conventions case)."""
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


def test_rods_torque_policies_side_by_side():
    """The rods-and-limits case at 20 N m: clipping turns the shoulder backwards, scaling keeps
    tau's direction"""
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
TABLETOP_MOVE = (np.radians([-45, 90]), np.radians([60, -30]))


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
    (al.tabletop_arm(), TABLETOP_MOVE, [8, 2]),
    (al.tabletop_arm(), TABLETOP_MOVE, [[-3, -2], [9, 1.6]]),
    (al.PlanarArm((0.30, 0.25), (2.0, 1.0), damping=2e-5, coulomb=4e-3, gear_ratio=50),
     TABLETOP_MOVE, [9, 2.5]),
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
    bare = al.shortest_duration(arm, *TABLETOP_MOVE, [12, 12])
    lim = al.shortest_duration(arm, *TABLETOP_MOVE, [12, 12], rotor_inertia=5e-6)
    assert lim.duration > bare.duration
    ratio, _, j = peak_ratio(arm, *TABLETOP_MOVE, lim.duration, [12, 12], rotor_inertia=5e-6)
    assert 1 - 1e-6 < ratio <= 1 + 1e-9 and j == lim.joint
    assert peak_ratio(arm, *TABLETOP_MOVE, 0.99 * lim.duration, [12, 12],
                      rotor_inertia=5e-6)[0] > 1


def test_shortest_duration_scales_with_the_root_of_the_limit():
    """No gravity or friction: tau = a / T^2, so four times the torque halves the time"""
    arm = al.PlanarArm((0.30, 0.25), (2.0, 1.0), gravity=0.0)
    one = al.shortest_duration(arm, *TABLETOP_MOVE, [8, 2])
    four = al.shortest_duration(arm, *TABLETOP_MOVE, [32, 8])
    np.testing.assert_allclose(four.duration, one.duration / 2, rtol=1e-9)
    np.testing.assert_allclose(four.fraction, one.fraction, atol=1e-6)


def test_shortest_duration_with_a_tip_force():
    arm, force = al.tabletop_arm(), [0.0, -5.0]   # the tip pushes down with 5 N all along
    lim = al.shortest_duration(arm, *TABLETOP_MOVE, [12, 3], tip_force=force)
    ratio, _, _ = peak_ratio(arm, *TABLETOP_MOVE, lim.duration, [12, 3], force)
    assert 1 - 1e-6 < ratio <= 1 + 1e-9


def test_gravity_floor_no_duration_works():
    """The table-top case's 0.5 kg payload: gravity alone exceeds 8 N m on the way; no T helps"""
    arm = al.tabletop_arm().with_payload(0.5)
    lim = al.shortest_duration(arm, *TABLETOP_MOVE, [8, 2])
    assert lim.duration == np.inf and np.isnan(lim.time) and lim.joint == 0 and lim.bound == 1
    assert lim.kind == "floor"
    q, _, _ = al.quintic(*TABLETOP_MOVE, 1.0)(lim.fraction)
    assert al.gravity_torques(arm, q)[0] > 8
    # the same move is fine without the payload
    assert al.shortest_duration(al.tabletop_arm(), *TABLETOP_MOVE, [8, 2]).duration < 1


def test_shortest_duration_of_no_move():
    lim = al.shortest_duration(al.tabletop_arm(), *[TABLETOP_MOVE[0]] * 2, [8, 2])
    assert lim.duration == 0.0 and lim.joint == -1 and lim.bound == 0 and lim.kind == ""


@pytest.mark.parametrize("speed_limit", [3.0, [6.0, 2.0], [1.5, 20.0]])
def test_speed_limit_binds_at_the_middle(speed_limit):
    """Fine grid: at T the fastest joint is exactly at its speed limit, at 0.99 T above it"""
    arm = al.tabletop_arm()
    lim = al.shortest_duration(arm, *TABLETOP_MOVE, [8, 2], speed_limit=speed_limit)
    torque_only = al.shortest_duration(arm, *TABLETOP_MOVE, [8, 2])
    assert lim.kind == "speed" and lim.fraction == 0.5 and lim.duration > torque_only.duration

    def speed_ratio(T):
        _, qd, _ = al.quintic(*TABLETOP_MOVE, T)(np.linspace(0, T, 20001))
        ratio = np.abs(qd) / np.asarray(speed_limit)
        return ratio.max(), np.unravel_index(np.argmax(ratio), ratio.shape)[1]

    ratio, j = speed_ratio(lim.duration)
    np.testing.assert_allclose(ratio, 1.0, rtol=1e-12)
    assert j == lim.joint
    assert speed_ratio(0.99 * lim.duration)[0] > 1
    # a loose speed limit leaves the torque's answer
    loose = al.shortest_duration(arm, *TABLETOP_MOVE, [8, 2], speed_limit=50.0)
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


def test_conventions_library_friction_sign():
    """The conventions case's library returns the friction torque, opposite to the book's friction
    term"""
    drive = al.reflect_motor(MOTOR, 50)
    book = drive.friction(2.0)                 # the motor adds this to overcome friction
    library = -book                            # what the source's robot.friction(qd) reports
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


# ------------------------------------------------------------------ time-optimal time scaling
TABLE_MOVE = np.radians([-45, 90]), np.radians([60, -30])


@pytest.fixture(scope="module")
def optimal():
    """The table-top arm's move under (8, 2) N m, time-optimal on 1000 and 2000 steps."""
    arm = al.tabletop_arm()
    return (al.time_optimal_scaling(arm, *TABLE_MOVE, [8, 2], segments=1000),
            al.time_optimal_scaling(arm, *TABLE_MOVE, [8, 2], segments=2000))


@PROPS
@given(arms(max_links=3, friction=False), st.integers(0, 2**32 - 1))
def test_path_dynamics_is_inverse_dynamics_along_the_path(arm, seed):
    """m sdd + c sd^2 + d = the RNEA's torque at q(s), qd = q' sd, qdd = q' sdd (forward)"""
    rng = np.random.default_rng(seed)
    start, end = rng.uniform(-3, 3, (2, arm.n))
    s, sd, sdd = rng.uniform(0, 1, 5), rng.uniform(0.01, 3, 5), rng.uniform(-5, 5, 5)
    force = rng.uniform(-5, 5, 2)
    m, c, d = al.path_dynamics(arm, start, end, s, tip_force=force)
    delta = end - start
    q = start + s[:, None] * delta
    tau = al.rnea(arm, q, sd[:, None] * delta, sdd[:, None] * delta, force)
    np.testing.assert_allclose(m * sdd[:, None] + c * sd[:, None] ** 2 + d, tau,
                               atol=1e-9 * (1 + np.abs(tau).max()))


def test_path_dynamics_with_rotors_and_coulomb():
    """Rotor inertia adds G^2 J_m q' to m; Coulomb friction G Tc sign(q') to d"""
    arm = al.PlanarArm((0.3, 0.25), (2.0, 1.0), coulomb=4e-3, gear_ratio=50)
    m0, c0, d0 = al.path_dynamics(al.tabletop_arm(), *TABLE_MOVE, 0.3)
    m, c, d = al.path_dynamics(arm, *TABLE_MOVE, 0.3, rotor_inertia=5e-6)
    delta = TABLE_MOVE[1] - TABLE_MOVE[0]
    np.testing.assert_allclose(m - m0, 50**2 * 5e-6 * delta, rtol=1e-12)
    np.testing.assert_allclose(d - d0, 50 * 4e-3 * np.sign(delta), rtol=1e-12)
    np.testing.assert_array_equal(c, c0)


def test_acceleration_bounds_touch_the_limits():
    """At sdd = U and sdd = L some joint is exactly at a limit, and no joint is outside"""
    arm = al.tabletop_arm()
    s = np.linspace(0, 1, 11)
    sd = np.full(11, 1.5)
    L, U = al.path_acceleration_bounds(arm, *TABLE_MOVE, [8, 2], s, sd)
    m, c, d = al.path_dynamics(arm, *TABLE_MOVE, s)
    for bound in (L, U):
        tau = m * bound[:, None] + c * sd[:, None] ** 2 + d
        assert np.all(np.abs(tau) <= np.array([8, 2]) + 1e-12)
        np.testing.assert_allclose(np.max(np.abs(tau) / [8, 2], axis=1), 1.0, rtol=1e-12)
    assert np.all(L < U)


def test_acceleration_bounds_of_an_inadmissible_state():
    """Above the velocity-limit curve L > U (below it L <= U); the loaded arm cannot hold
    still where gravity overloads its shoulder: there U < 0, so only braking is allowed"""
    arm = al.tabletop_arm()
    best = al.time_optimal_scaling(arm, *TABLE_MOVE, [8, 2], segments=100)
    k = np.argmin(best.limit_curve)
    for factor, admissible in ((0.999, True), (1.001, False)):
        L, U = al.path_acceleration_bounds(arm, *TABLE_MOVE, [8, 2], best.s[k],
                                           factor * best.limit_curve[k])
        assert (L <= U) == admissible
    loaded = arm.with_payload(0.5)
    L, U = al.path_acceleration_bounds(loaded, *TABLE_MOVE, [8, 2], 0.47, 0.0)
    m, c, d = al.path_dynamics(loaded, *TABLE_MOVE, 0.47)
    assert L <= U < 0
    np.testing.assert_allclose(U, (8 - d[0]) / m[0], rtol=1e-12)


def _mr_integration(arm, move, limit, n=4000):
    """Modern Robotics' route, independent of the reachability passes: integrate x = sd^2 with
    dx/ds = 2 U forward from (0, 0) and dx/ds = 2 L backward from (1, 0) by RK4, and switch
    where the two curves cross (where the backward one is admissible); the duration is the
    sum of 2 ds / (sd_k + sd_k+1)."""
    def bound(which, s, x):
        L, U = al.path_acceleration_bounds(arm, *move, limit, s, np.sqrt(max(x, 0.0)))
        return 2 * float(U if which else L)

    def rk4(which, s0, s1):
        h, s, x, xs = (s1 - s0) / n, s0, 0.0, [0.0]
        for _ in range(n):
            k1 = bound(which, s, x)
            k2 = bound(which, s + h / 2, x + h / 2 * k1)
            k3 = bound(which, s + h / 2, x + h / 2 * k2)
            k4 = bound(which, s + h, x + h * k3)
            x, s = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4), s + h
            xs.append(x)
        return np.array(xs)

    s = np.linspace(0, 1, n + 1)
    up, down = rk4(True, 0.0, 1.0), rk4(False, 1.0, 0.0)[::-1]
    L, U = al.path_acceleration_bounds(arm, *move, limit, s, np.sqrt(np.maximum(down, 0)))
    gap = up - down
    last_bad = np.flatnonzero(L > U).max()       # the backward curve stops where it leaves
    k = [i for i in np.flatnonzero(np.diff(np.sign(gap))) if i > last_bad][0]
    switch = s[k] - gap[k] * (s[k + 1] - s[k]) / (gap[k + 1] - gap[k])
    x = np.where(s <= switch, up, down)
    return switch, float(np.sum(2 * np.diff(s) / (np.sqrt(x[1:]) + np.sqrt(x[:-1]))))


def test_time_optimal_agrees_with_modern_robotics_integration(optimal):
    """The reachability passes and the forward/backward integration of U and L give the same
    switch and duration (the passes' first-order error extrapolated away)"""
    coarse, fine = optimal
    switch, duration = _mr_integration(al.tabletop_arm(), TABLE_MOVE, [8, 2])
    assert fine.switches.size == 1
    assert abs(fine.switches[0] - switch) < 1e-3
    extrapolated = 2 * fine.duration - coarse.duration
    assert abs(extrapolated - duration) < 2e-5 * duration
    assert coarse.duration > fine.duration > duration        # converging from above


def _shortest_rescaled(arm, move, limit, shape, durations):
    """Brute force: the shortest of ``durations`` with which the time law s = shape(t / T),
    rescaled uniformly, keeps inverse dynamics within the limits on 4001 instants."""
    for T in durations:
        t = np.linspace(0, T, 4001)
        s, sd, sdd = shape(t / T)
        delta = move[1] - move[0]
        q = move[0] + s[:, None] * delta
        tau = al.inverse_dynamics(arm, q, (sd / T)[:, None] * delta,
                                  (sdd / T**2)[:, None] * delta)
        if np.all(np.abs(tau) <= limit):
            return T
    return np.inf


SHAPES = {
    "cubic": lambda u: (3 * u**2 - 2 * u**3, 6 * u - 6 * u**2, 6 - 12 * u),
    "quintic": lambda u: (10 * u**3 - 15 * u**4 + 6 * u**5, 30 * u**2 * (1 - u) ** 2,
                          60 * u * (1 - u) * (1 - 2 * u)),
    "septic": lambda u: (35 * u**4 - 84 * u**5 + 70 * u**6 - 20 * u**7,
                         140 * u**3 - 420 * u**4 + 420 * u**5 - 140 * u**6,
                         420 * u**2 - 1680 * u**3 + 2100 * u**4 - 840 * u**5),
    "bang-bang at the middle": lambda u: (np.where(u < 0.5, 2 * u**2, 1 - 2 * (1 - u) ** 2),
                                          np.where(u < 0.5, 4 * u, 4 * (1 - u)),
                                          np.where(u < 0.5, 4.0, -4.0)),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_time_optimal_is_no_slower_than_any_rescaled_profile(optimal, shape):
    """A brute-force search over durations of uniformly rescaled profiles finds none faster"""
    best = optimal[1]
    durations = np.arange(0.40, 2.0, 0.001)
    T = _shortest_rescaled(al.tabletop_arm(), TABLE_MOVE, [8, 2], SHAPES[shape], durations)
    assert np.isfinite(T) and best.duration <= T
    if shape == "quintic":                   # the brute force finds shortest_duration's answer
        assert abs(T - al.shortest_duration(al.tabletop_arm(), *TABLE_MOVE, [8, 2]).duration) \
            < 1e-3


def test_time_optimal_profile_rescaled_faster_leaves_the_limits(optimal):
    """The profile itself run 1 % faster (every time divided by 1.01) needs more torque than
    the motors give: it is on the limit"""
    best = optimal[1]
    t = np.linspace(0, best.duration, 20001)
    q, qd, qdd = best.plan(t)
    tau = al.inverse_dynamics(al.tabletop_arm(), q, 1.01 * qd, 1.01**2 * qdd)
    assert np.abs(tau).max(axis=0)[0] > 8 * 1.005


def test_torques_along_the_time_optimal_profile(optimal):
    """Inverse dynamics along the plan at 20 001 instants: within the limits (to 1e-6 of them,
    the steps' curvature), and on every step some joint on its limit at one of the step's ends
    (bang-bang: the motors are always saturated)"""
    best = optimal[0]
    arm = al.tabletop_arm()
    t = np.linspace(0, best.duration, 20001)
    tau = al.inverse_dynamics(arm, *best.plan(t))
    assert np.all(np.abs(tau) <= np.array([8, 2]) * (1 + 1e-6))
    m, c, d = al.path_dynamics(arm, *TABLE_MOVE, best.s)
    ends = [m[k] * best.sdd[:, None] + c[k] * best.sd[k, None] ** 2 + d[k]
            for k in (slice(None, -1), slice(1, None))]
    ratio = np.max([np.abs(tau) / [8, 2] for tau in ends], axis=(0, 2))
    off = np.flatnonzero(ratio < 1 - 1e-9)    # only the step of the switch itself, where the
    assert off.size <= best.switches.size     # braking curve, not a motor, sets the acceleration
    np.testing.assert_allclose(best.s[off], best.switches, atol=2e-3)
    assert best.sd.max() <= best.reach.max() and np.all(best.sd <= best.limit_curve + 1e-9)


def test_time_optimal_closed_form_without_gravity():
    """Gravity-free rods, shoulder alone, no velocity products: U = 1.5 / M11 holds all along,
    so the bang-bang profile takes 2 sqrt(1 / U) = 8/3 s and switches at the middle, exactly"""
    best = al.time_optimal_scaling(al.rod_arm(gravity=0), [0, 0], [1, 0], 1.5, segments=10)
    assert best.duration == pytest.approx(8 / 3, rel=1e-13)
    np.testing.assert_allclose(best.switches, [0.5])
    np.testing.assert_allclose(best.sd.max(), np.sqrt(2 * 0.5 * 1.5 / (8 / 3)), rtol=1e-13)


def test_time_optimal_with_a_speed_limit():
    """A speed limit caps the path speed at v / |q'| and lengthens the move"""
    arm = al.tabletop_arm()
    free = al.time_optimal_scaling(arm, *TABLE_MOVE, [8, 2], segments=500)
    capped = al.time_optimal_scaling(arm, *TABLE_MOVE, [8, 2], speed_limit=3.0, segments=500)
    assert capped.duration > free.duration
    np.testing.assert_allclose(capped.sd.max() * np.radians(120), 3.0, rtol=1e-9)


def test_time_optimal_when_nothing_works_or_nothing_moves():
    """The loaded arm's floor: no profile (inf, no plan); no move: 0 s"""
    loaded = al.tabletop_arm().with_payload(0.5)
    none = al.time_optimal_scaling(loaded, *TABLE_MOVE, [8, 2], segments=200)
    assert none.duration == np.inf and none.plan is None
    still = al.time_optimal_scaling(al.tabletop_arm(), TABLE_MOVE[0], TABLE_MOVE[0], [8, 2])
    assert still.duration == 0.0


@pytest.mark.parametrize("call, name", [
    (lambda: al.time_optimal_scaling(al.tabletop_arm(), [0, 0], [1, 1], 5, segments=1),
     "segments"),
    (lambda: al.time_optimal_scaling(al.tabletop_arm(damping=0.02), [0, 0], [1, 1], 5),
     "damping"),
    (lambda: al.path_dynamics(al.tabletop_arm(), [0, 0, 0], [1, 1], 0.5), "q_start"),
    (lambda: al.path_acceleration_bounds(al.tabletop_arm(), [0, 0], [1, 1], -1, 0.5, 1),
     "limit"),
    (lambda: al.time_optimal_scaling(al.tabletop_arm(), [0, 0], [1, 1], 5, speed_limit=0),
     "speed_limit"),
])
def test_time_optimal_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# ------------------------------------------------------------------ torque-speed line and heat
def test_motor_line_and_rating_are_checked():
    with pytest.raises(ValueError, match="stall_torque"):
        al.Motor(0.15, 500.0, stall_torque=0.1)
    with pytest.raises(ValueError, match="continuous_torque"):
        al.Motor(0.15, 500.0, continuous_torque=0.2)
    plain = al.Motor(0.15, 500.0)
    assert plain.stall_torque == np.inf and plain.continuous_torque == 0.15


def test_torque_range_is_the_dc_motor_equations():
    """From k_t, R, k_e, V_max and i_max: tau = k_t (V - k_e omega) / R, capped by k_t i_max,
    through a 40:1 gear, at speeds forward and backward"""
    kt, ke, R, V, imax, G = 0.02, 0.02, 2.0, 12.0, 2.5, 40.0
    motor = al.Motor(kt * imax, V / ke, stall_torque=kt * V / R)
    qd = np.linspace(-V / ke / G, V / ke / G, 41)
    omega = G * qd
    high = G * np.minimum(kt * imax, kt * (V - ke * omega) / R)
    low = G * np.maximum(-kt * imax, kt * (-V - ke * omega) / R)
    got = al.reflect_motor(motor, G).torque_range(qd)
    np.testing.assert_allclose(got[0], low, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got[1], high, rtol=1e-12, atol=1e-12)


def test_shortest_duration_with_a_torque_speed_line():
    """Brute force on the quintic: at the returned T the torque stays within the line's range
    at its own speed, 1 % faster it does not; and the line only ever lengthens the move"""
    G = 64.0
    motor = al.Motor(0.15, 500.0, coulomb=4e-3, inertia=5e-6, stall_torque=0.3)
    arm = al.PlanarArm((0.3, 0.25), (2.0, 1.0), coulomb=4e-3, gear_ratio=G)
    drive = al.reflect_motor(motor, G)
    kwargs = dict(rotor_inertia=5e-6, speed_limit=float(drive.speed))
    lim = al.shortest_duration(arm, *TABLE_MOVE, float(drive.torque),
                               stall_torque=float(drive.stall_torque), **kwargs)
    rect = al.shortest_duration(arm, *TABLE_MOVE, float(drive.torque), **kwargs)
    assert lim.duration > rect.duration

    def excess(T):
        q, qd, qdd = al.quintic(*TABLE_MOVE, T)(np.linspace(0, T, 20001))
        tau = al.inverse_dynamics(arm, q, qd, qdd) + G**2 * 5e-6 * qdd
        low, high = drive.torque_range(qd)
        return np.max(np.maximum(tau - high, low - tau))

    assert excess(lim.duration) <= 1e-9
    assert excess(0.99 * lim.duration) > 1e-3
    with pytest.raises(ValueError, match="speed_limit"):
        al.shortest_duration(arm, *TABLE_MOVE, 9.6, stall_torque=19.2)


def test_rms_torque():
    """A sine's RMS is its amplitude over sqrt(2); a batch row by row; bad times refused"""
    t = np.linspace(0, 2 * np.pi, 20001)
    tau = np.stack([3 * np.sin(t), 4 * np.ones_like(t)], axis=-1)
    np.testing.assert_allclose(al.rms_torque(tau, t), [3 / np.sqrt(2), 4], rtol=1e-8)
    batch = al.rms_torque(np.stack([tau, 2 * tau]), t)
    np.testing.assert_allclose(batch, [[3 / np.sqrt(2), 4], [6 / np.sqrt(2), 8]], rtol=1e-8)
    with pytest.raises(ValueError, match="t has shape"):
        al.rms_torque(tau[:2], [1.0, 0.0])
    with pytest.raises(ValueError, match="tau has shape"):
        al.rms_torque(tau, t[:-1])
