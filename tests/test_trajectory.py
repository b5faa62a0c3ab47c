"""Quintic rest-to-rest plans: boundary conditions, derivatives, batches, the table-top case's
torques."""

import numpy as np
import pytest

import armlab as al

START, END = np.radians([-45, 90]), np.radians([60, -30])


@pytest.fixture(scope="module")
def plan():
    """The table-top case's move: (-45, 90) deg to (60, -30) deg in 0.8 s, then a 0.7 s hold."""
    return al.quintic(START, END, 0.8, hold=0.7)


def test_rest_to_rest(plan):
    q, qd, qdd = plan([0.0, 0.8])
    np.testing.assert_allclose(q, [START, END], atol=1e-15)
    np.testing.assert_allclose(qd, 0, atol=1e-15)
    np.testing.assert_allclose(qdd, 0, atol=1e-12)


def test_before_start_and_during_hold(plan):
    q, qd, qdd = plan([-1.0, 0.9, 1.5, 7.0])
    np.testing.assert_array_equal(q, [START, END, END, END])
    assert not qd.any() and not qdd.any()
    assert plan.end_time == 1.5


def test_speed_and_acceleration_are_the_time_derivatives(plan):
    """Central differences of q give qd, of qd give qdd."""
    t = np.linspace(0.01, 0.79, 40)
    dt = 1e-6
    q_hi, qd_hi, _ = plan(t + dt)
    q_lo, qd_lo, _ = plan(t - dt)
    _, qd, qdd = plan(t)
    np.testing.assert_allclose((q_hi - q_lo) / (2 * dt), qd, atol=1e-6)
    np.testing.assert_allclose((qd_hi - qd_lo) / (2 * dt), qdd, atol=1e-4)


def test_peak_speed_and_symmetry(plan):
    """The quintic's speed peaks at mid-move at 15/8 of the mean speed; the
    acceleration is odd about the middle."""
    _, qd, qdd = plan(0.4)
    np.testing.assert_allclose(qd, 15 / 8 * (END - START) / 0.8, rtol=1e-12)
    t = np.linspace(0, 0.4, 9)
    np.testing.assert_allclose(plan(t)[2], -plan(0.8 - t)[2], atol=1e-9)


@pytest.mark.parametrize("shape", [(), (5,), (3, 4)])
def test_batch_shapes_and_batch_equals_loop(plan, shape):
    t = np.random.default_rng(0).uniform(-0.2, 1.6, shape)
    out = plan(t)
    for x in out:
        assert x.shape == shape + (2,)
    for idx in np.ndindex(shape):
        single = plan(float(t[idx]))             # one time: the floats path, bit for bit
        for batch, one in zip(out, single):
            assert one.shape == (2,)
            np.testing.assert_array_equal(batch[idx], one)


def test_fixed_pose_and_step():
    pose = al.quintic([0.1, 0.2, 0.3], [0.1, 0.2, 0.3], 0.0)
    q, qd, qdd = pose([-1.0, 0.0, 2.0])
    np.testing.assert_array_equal(q, [[0.1, 0.2, 0.3]] * 3)
    assert not qd.any() and not qdd.any()
    step = al.quintic([0.0], [1.0], 0.0)
    assert step(-0.1)[0].tolist() == [0.0] and step(0.0)[0].tolist() == [1.0]


@pytest.mark.parametrize("args, word", [
    (([0, 0], [1], 1.0), "q_end"),
    ((0.0, 1.0, 1.0), "q_start"),
    (([0, 0], [1, 1], -1.0), "duration"),
    (([0, 0], [1, 1], 1.0, np.nan), "hold"),
    (([0, np.inf], [1, 1], 1.0), "q_start"),
])
def test_bad_input(args, word):
    with pytest.raises(ValueError, match=word):
        al.quintic(*args)


def test_tabletop_torque_parts_along_the_move(plan):
    """The table-top case: the rigid-body parts of the torque along the 0.8 s move (friction not
    included), at the source's printed precision."""
    t = np.linspace(0.0, 0.8, 8001)
    parts = al.torque_parts(al.tabletop_arm(), *plan(t))
    grav, inert, speed = parts["gravity"], parts["inertia"], parts["velocity"]
    total = grav + inert + speed
    # shoulder: gravity 4.0-6.8, inertia -2.9 to +2.5, speed part at most 0.45, total 1.5-8.8
    assert (grav[:, 0].min().round(1), grav[:, 0].max().round(1)) == (4.0, 6.8)
    assert (inert[:, 0].min().round(1), inert[:, 0].max().round(1)) == (-2.9, 2.5)
    assert np.abs(speed[:, 0]).max().round(2) == 0.45
    assert (total[:, 0].min().round(1), total[:, 0].max().round(1)) == (1.5, 8.8)
    # elbow: gravity about 0.9-1.1, speed part up to 0.46
    assert (grav[:, 1].min().round(1), grav[:, 1].max().round(1)) == (0.9, 1.1)
    assert np.abs(speed[:, 1]).max().round(2) == 0.46
    # the inertia part is positive while the arm speeds up, negative while it slows
    assert (inert[1:4000, 0] > 0).all() and (inert[4001:-1, 0] < 0).all()


def test_tabletop_payload_raises_the_largest_shoulder_torque(plan):
    """The table-top case: 0.5 kg at the tip raises the move's largest shoulder torque, 8.8 -> 12.1
    N m."""
    t = np.linspace(0.0, 0.8, 8001)
    peaks = []
    for arm in (al.tabletop_arm(), al.tabletop_arm().with_payload(0.5)):
        p = al.torque_parts(arm, *plan(t))
        peaks.append((p["inertia"] + p["velocity"] + p["gravity"])[:, 0].max().round(1))
    assert peaks == [8.8, 12.1]


# ------------------------------------------------------------------ a path with any time law
@pytest.fixture(scope="module")
def scaled():
    """The time-optimal profile of the table-top arm's move under (8, 2) N m, as a plan."""
    return al.time_optimal_scaling(al.tabletop_arm(), START, END, [8, 2], segments=400).plan


def test_time_scaled_path_passes_its_knots(scaled):
    """At each knot time the plan is at q(s_k) with speed q' sd_k"""
    q, qd, _ = scaled(scaled.t[:-1])
    np.testing.assert_allclose(q, START + scaled.s[:-1, None] * (END - START), atol=1e-12)
    np.testing.assert_allclose(qd, scaled.sd[:-1, None] * (END - START), atol=1e-12)
    q, qd, qdd = scaled([-1.0, scaled.duration, scaled.duration + 1])
    np.testing.assert_allclose(q, [START, END, END], atol=1e-12)
    assert not qd.any() and not qdd.any()


def test_time_scaled_path_derivatives_by_finite_differences(scaled):
    """qd and qdd are the time derivatives of q (central differences inside the steps)"""
    mid = 0.5 * (scaled.t[1:] + scaled.t[:-1])[::7]
    h = 1e-6
    q_minus, q_plus = scaled(mid - h)[0], scaled(mid + h)[0]
    q, qd, qdd = scaled(mid)
    np.testing.assert_allclose((q_plus - q_minus) / (2 * h), qd, atol=1e-6)
    np.testing.assert_allclose((q_plus - 2 * q + q_minus) / h**2, qdd, atol=2e-3)


def test_time_scaled_path_batch_equals_single(scaled):
    times = np.linspace(-0.1, scaled.duration + 0.1, 13)
    batch = scaled(times.reshape(13, 1))
    for k, t in enumerate(times):
        single = scaled(float(t))
        for b, x in zip(batch, single):
            np.testing.assert_array_equal(b[k, 0], x)
            assert x.shape == (2,)


def test_time_scaled_path_bad_knots():
    with pytest.raises(ValueError, match="t must increase"):
        al.TimeScaledPath((0.0,), (1.0,), np.array([0.0, 0.0]), np.array([0.0, 1.0]),
                          np.array([0.0, 0.0]))
    with pytest.raises(ValueError, match="shapes"):
        al.TimeScaledPath((0.0,), (1.0,), np.array([0.0, 1.0]), np.array([0.0]),
                          np.array([0.0, 0.0]))
