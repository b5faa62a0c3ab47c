"""armlab.gravity: shares, payload torques, gravity's stiffness, the PD sag and the mounting,
each checked against a route that shares no code with it."""

import numpy as np
import pytest

import armlab as al
from armlab.gravity import (gravity_shares, gravity_stiffness, mount_gravity, mounted,
                            payload_torques, pd_sag)

RNG = np.random.default_rng(11)
ARMS = [
    al.tabletop_arm(),
    al.rod_arm(m2=2.0),
    al.statics_arm(),
    al.PlanarArm(lengths=(0.4, 0.3, 0.2), masses=(3.0, 2.0, 0.7), com=(0.1, 0.2, 0.05)),
    al.PlanarArm(lengths=(0.6, 0.3), masses=(1.5, 0.8), com=(0.35, 0.0), gravity=(-3.0, -8.0)),
]


def random_q(arm, *batch):
    return RNG.uniform(-np.pi, np.pi, batch + (arm.n,))


def central(f, q, h=1e-6):
    """Central differences of f along each joint: (..., n) -> (..., out..., n)."""
    cols = []
    for e in np.eye(q.shape[-1]):
        cols.append((f(q + h * e) - f(q - h * e)) / (2 * h))
    return np.stack(cols, axis=-1)


# ----------------------------------------------------------------------------- g = dP/dq

@pytest.mark.parametrize("arm", ARMS)
def test_gravity_is_the_gradient_of_the_potential(arm):
    """g(q) = dP/dq by central differences of the potential energy, in a batch"""
    q = random_q(arm, 6)
    np.testing.assert_allclose(central(lambda x: al.potential_energy(arm, x), q),
                               al.gravity_torques(arm, q), atol=1e-7)


# ----------------------------------------------------------------------------- shares

@pytest.mark.parametrize("arm", ARMS)
def test_shares_sum_to_g_and_to_newton_euler_at_rest(arm):
    """The links' shares add up to g(q), and to RNEA with zero speed and acceleration"""
    q = random_q(arm, 4, 3)
    shares = gravity_shares(arm, q)
    assert shares.shape == (4, 3, arm.n, arm.n)
    np.testing.assert_allclose(shares.sum(axis=-2), al.gravity_torques(arm, q), atol=1e-12)
    zero = np.zeros_like(q)
    np.testing.assert_allclose(shares.sum(axis=-2), al.rnea(arm, q, zero, zero), atol=1e-12)
    # a link loads only the joints between it and the base
    assert np.all(shares[..., np.triu_indices(arm.n, 1)[0], np.triu_indices(arm.n, 1)[1]] == 0)


@pytest.mark.parametrize("arm", ARMS)
def test_each_share_is_the_gravity_of_that_link_alone(arm):
    """Share i equals g(q) of the same arm with every other link massless"""
    q = random_q(arm, 5)
    shares = gravity_shares(arm, q)
    for i in range(arm.n):
        alone = al.PlanarArm(arm.lengths, [m if k == i else 0.0 for k, m in enumerate(arm.masses)],
                             com=arm.com, gravity=arm.gravity)
        np.testing.assert_allclose(shares[:, i], al.gravity_torques(alone, q), atol=1e-12)


def test_rod_shares_by_lever_arms():
    """The torque-budget case: horizontal rods, link 2's weight at 1.5 m from the shoulder, 0.5 m
    from the
    elbow; link 1's at 0.5 m. 9.81 x (0.5, 0), 9.81 x (1.5, 0.5)"""
    np.testing.assert_allclose(gravity_shares(al.rod_arm(), [0.0, 0.0]),
                               9.81 * np.array([[0.5, 0.0], [1.5, 0.5]]), rtol=1e-14)


# ----------------------------------------------------------------------------- payload

@pytest.mark.parametrize("arm", ARMS)
def test_payload_torques_are_what_with_payload_adds(arm):
    """J^T of the payload's weight equals g(with_payload) - g(arm), per mass in a batch"""
    q = random_q(arm, 4)
    masses = np.array([0.0, 0.3, 1.0, 2.5])
    got = payload_torques(arm, q, masses)
    for k, m in enumerate(masses):
        want = al.gravity_torques(arm.with_payload(m), q[k]) - al.gravity_torques(arm, q[k])
        np.testing.assert_allclose(got[k], want, atol=1e-12)
        np.testing.assert_allclose(got[k], al.static_torques(arm, q[k], -m * np.array(
            arm.gravity)), atol=1e-12)


def test_tabletop_payload():
    """The table-top case: 0.5 kg at the tip raises g at (30, 45) deg from 5.41 to 7.01 and from
    0.32 to
    0.63 N m"""
    arm, q = al.tabletop_arm(), np.radians([30, 45])
    g = al.gravity_torques(arm, q)
    loaded = g + payload_torques(arm, q, 0.5)
    assert g.round(2).tolist() == [5.41, 0.32]
    assert loaded.round(2).tolist() == [7.01, 0.63]


def test_bad_payload_mass():
    with pytest.raises(ValueError, match="mass"):
        payload_torques(al.tabletop_arm(), [0, 0], -0.1)
    with pytest.raises(ValueError, match="mass"):
        payload_torques(al.tabletop_arm(), [0, 0], np.nan)


# ----------------------------------------------------------------------------- stiffness

@pytest.mark.parametrize("arm", ARMS)
def test_stiffness_is_the_derivative_of_g(arm):
    """dg/dq equals central differences of gravity_torques, and is symmetric"""
    q = random_q(arm, 3, 2)
    K = gravity_stiffness(arm, q)
    assert K.shape == (3, 2, arm.n, arm.n)
    np.testing.assert_allclose(K, central(lambda x: al.gravity_torques(arm, x), q), atol=1e-7)
    np.testing.assert_allclose(K, np.swapaxes(K, -1, -2), atol=1e-14)


def test_stiffness_of_two_links_in_closed_form():
    """dg/dq = -[[a s1 + b s12, b s12], [b s12, b s12]] with the identification's (a, b)"""
    arm = al.tabletop_arm()
    a, b = al.gravity_parameters(arm)
    q = random_q(arm, 9)
    s1, s12 = np.sin(q[:, 0]), np.sin(q.sum(-1))
    want = -np.stack([np.stack([a * s1 + b * s12, b * s12], -1),
                      np.stack([b * s12, b * s12], -1)], -2)
    np.testing.assert_allclose(gravity_stiffness(arm, q), want, atol=1e-12)


def test_upright_is_unstable_and_hanging_is_stable():
    """The torque-budget case's rods: g = 0 pointing up and down; dg/dq negative definite up (a push
    grows),
    positive definite down (a push is resisted)"""
    rods = al.rod_arm()
    for q, sign in [(np.radians([90, 0]), -1), (np.radians([-90, 0]), 1)]:
        np.testing.assert_allclose(al.gravity_torques(rods, q), 0, atol=1e-12)
        assert np.all(sign * np.linalg.eigvalsh(gravity_stiffness(rods, q)) > 0)
    # horizontal: the elbow's own stiffness vanishes (link 2's centre at the elbow's height)
    assert gravity_stiffness(rods, [0.0, 0.0])[1, 1] == 0.0


# ----------------------------------------------------------------------------- the PD sag

def test_tabletop_sag_against_three_seconds_of_simulation():
    """The table-top case: PD with Kp (60, 30), Kd (4, 1.5), real friction 0.02, holding (30, 45)
    deg:
    5.5 and 0.9 deg after 3 s; the static solution of Kp e = g(q - e) is the same pose"""
    arm, target = al.tabletop_arm(damping=0.02), np.radians([30, 45])
    sim = al.simulate(arm, target, 3.0, al.pd(target, [60, 30], [4, 1.5]))
    simulated = al.tracking_error(sim, target)[-1]
    assert np.degrees(simulated).round(1).tolist() == [5.5, 0.9]
    sag = pd_sag(arm, target, [60, 30])
    np.testing.assert_allclose(sag, simulated, atol=1e-10)


@pytest.mark.parametrize("arm, target, kp", [
    (al.rod_arm(damping=0.5), [0, 0], [15, 7.5]),           # a large sag
    (al.rod_arm(damping=0.5), [45, 30], [60, 30]),
    (al.statics_arm(), [-30, 100], [80, 20]),
    (ARMS[3], [20, -40, 70], [90, 40, 10]),                  # three links
    (mounted(al.tabletop_arm(), np.pi / 2), [10, 20], [40, 40]),   # on a wall
])
def test_sag_is_where_a_long_simulation_rests(arm, target, kp):
    """The static sag equals the rest pose of a well-damped PD simulation (RK4, 10 s)"""
    target = np.radians(target)
    plant = al.PlanarArm(arm.lengths, arm.masses, com=arm.com, gravity=arm.gravity, damping=0.2)
    kd = 2 * np.sqrt(np.multiply(kp, np.diag(al.mass_matrix(plant, target))))   # well damped
    sim = al.simulate(plant, target, 10.0, al.pd(target, kp, kd), method="rk4", substeps=1)
    assert np.abs(sim.qd[-1]).max() < 1e-7                  # at rest
    np.testing.assert_allclose(pd_sag(plant, target, kp), al.tracking_error(sim, target)[-1],
                               atol=1e-7)


def test_sag_balances_the_torques_and_is_stable():
    """Kp e = g(q - e) to rounding, and Kp + dg/dq is positive definite there (a minimum)"""
    arm = al.statics_arm()
    q = random_q(arm, 50)
    kp = RNG.uniform(5, 150, (50, 2))
    e = pd_sag(arm, q, kp)
    np.testing.assert_allclose(kp * e, al.gravity_torques(arm, q - e), atol=1e-10)
    H = kp[:, :, None] * np.eye(2) + gravity_stiffness(arm, q - e)
    assert np.all(np.linalg.eigvalsh(H) > 0)


def test_sag_batch_equals_one_at_a_time():
    arm = al.tabletop_arm()
    q = random_q(arm, 3, 1)
    kp = np.array([[20.0, 10.0], [60.0, 30.0], [200.0, 5.0], [8.0, 8.0]])      # (4, 2)
    batch = pd_sag(arm, q, kp)
    assert batch.shape == (3, 4, 2)
    for i in range(3):
        for j in range(4):
            np.testing.assert_allclose(batch[i, j], pd_sag(arm, q[i, 0], kp[j]), atol=1e-12)


def test_stiff_gains_give_the_small_sag_formula():
    """For Kp much stiffer than gravity, e -> Kp^-1 g(q); one Newton step gives (Kp + K)^-1 g"""
    arm, q = al.tabletop_arm(), np.radians([30, 45])
    kp = np.array([6e4, 3e4])
    e = pd_sag(arm, q, kp)
    g = al.gravity_torques(arm, q)
    np.testing.assert_allclose(e, g / kp, rtol=1e-3)
    np.testing.assert_allclose(
        e, np.linalg.solve(np.diag(kp) + gravity_stiffness(arm, q), g), rtol=1e-7)


def test_upright_target_holds_when_stiff_and_falls_when_weak():
    """Rods pointing up: Kp (60, 30) beats gravity's -dg/dq, the arm stays (e = 0); Kp (5, 2.5)
    does not, and the arm falls to the rest pose a slightly nudged simulation reaches"""
    rods = al.rod_arm(damping=1.0)
    up = np.radians([90, 0])
    np.testing.assert_array_equal(pd_sag(rods, up, [60, 30]), [0.0, 0.0])
    weak = pd_sag(rods, up, [5, 2.5])
    assert weak[0] > 1.0                                     # falls clockwise, e1 > 0
    sim = al.simulate(rods, up - [1e-3, 0], 20.0, al.pd(up, [5, 2.5], [6, 2]), method="rk4",
                      substeps=1)
    assert np.abs(sim.qd[-1]).max() < 1e-5
    np.testing.assert_allclose(weak, al.tracking_error(sim, up)[-1], atol=1e-5)


@pytest.mark.parametrize("kp", [0.0, -5.0, [60, 0], np.nan, [1, 2, 3]])
def test_bad_gains(kp):
    with pytest.raises(ValueError, match="kp"):
        pd_sag(al.tabletop_arm(), [0.0, 0.0], kp)


# ----------------------------------------------------------------------------- mounting

@pytest.mark.parametrize("arm", ARMS)
@pytest.mark.parametrize("angle", [np.pi / 2, np.pi, -0.7, 2.0])
def test_turning_the_base_is_turning_the_first_joint(arm, angle):
    """g of the arm turned by phi at q equals g of the unturned arm at (q1 + phi, q2, ...)"""
    q = random_q(arm, 7)
    shifted = q.copy()
    shifted[:, 0] += angle
    np.testing.assert_allclose(al.gravity_torques(mounted(arm, angle), q),
                               al.gravity_torques(arm, shifted), atol=1e-12)


def test_floor_wall_ceiling():
    """Floor: (0, -g0); wall: (-g0, 0); ceiling: (0, g0), exactly; the ceiling flips g's sign"""
    assert mount_gravity(0.0).tolist() == [0.0, -9.81]
    assert mount_gravity(np.pi / 2).tolist() == [-9.81, 0.0]
    assert mount_gravity(np.pi, 3.7).tolist() == [0.0, 3.7]
    rods, q = al.rod_arm(), random_q(ARMS[1], 5)
    np.testing.assert_allclose(al.gravity_torques(mounted(rods, np.pi), q),
                               -al.gravity_torques(rods, q), atol=1e-12)
    # on the wall, the rods "horizontal" in their own frame point straight up: no torque
    np.testing.assert_allclose(al.gravity_torques(mounted(rods, np.pi / 2), [0.0, 0.0]), 0,
                               atol=1e-12)
    assert mounted(rods, 0.0).gravity == rods.gravity


@pytest.mark.parametrize("call, name", [
    (lambda: mount_gravity([0.0, 1.0]), "angle"),
    (lambda: mount_gravity(np.inf), "angle"),
    (lambda: mount_gravity(0.0, -9.81), "g0"),
    (lambda: mounted(al.rod_arm(), "wall"), "angle"),
])
def test_bad_mounting(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# ----------------------------------------------------------------------------- identification runs

def test_holding_runs_draw_in_turn_from_one_generator():
    """holding_runs equals holding_torques called once per arm with one generator (the table-top
    case's
    experiment: empty, then 0.5 kg)"""
    arms = [al.tabletop_arm(), al.tabletop_arm().with_payload(0.5)]
    runs = al.holding_runs(arms, 67, poses=20, noise=0.05)
    rng = np.random.default_rng(67)
    for (q, tau), arm in zip(runs, arms):
        q_ref, tau_ref = al.holding_torques(arm, rng, 20, 0.05)
        np.testing.assert_array_equal(q, q_ref)
        np.testing.assert_array_equal(tau, tau_ref)
    assert [round(al.fit_gravity(*run).b, 3) for run in runs] == [1.232, 2.450]
