"""Properties of armlab.dynamics that no tuning can fake, on many random arms.

Two independent routes agree (closed form and RNEA), forward dynamics undoes
inverse dynamics, gravity is the gradient of the potential energy, the
velocity products do no work beyond dM/dt, and a batch equals a loop.
"""

import numpy as np
import pytest
from arm_strategies import arm_and_state, arms, batch
from hypothesis import given, settings
from hypothesis import strategies as st

import armlab as al

PROPS = settings(max_examples=100, deadline=None)


def close(a, b, tol=1e-10):
    """Equal up to rounding, relative to the size of the numbers involved."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    scale = 1.0 + np.max(np.abs(b), initial=0.0)
    np.testing.assert_allclose(a, b, rtol=0, atol=tol * scale)


@PROPS
@given(arm_and_state())
def test_mass_matrix_is_symmetric_positive_definite(case):
    arm, q, *_ = case
    M = al.mass_matrix(arm, q)
    assert M.shape == (arm.n, arm.n)
    np.testing.assert_array_equal(M, M.T)
    assert np.linalg.eigvalsh(M).min() > 0


@PROPS
@given(arm_and_state())
def test_mass_matrix_is_the_sum_over_links_of_jacobian_products(case):
    """M = sum_i m_i Jc_i^T Jc_i + I_i w_i^T w_i, from the kinematics module."""
    arm, q, *_ = case
    Jc = al.com_jacobians(arm, q)
    rot = np.tri(arm.n)                                  # link i turns with joints j <= i
    M = sum(m * Jc[i].T @ Jc[i] + inertia * np.outer(rot[i], rot[i])
            for i, (m, inertia) in enumerate(zip(arm.masses, arm.inertia)))
    close(al.mass_matrix(arm, q), M)


@PROPS
@given(arm_and_state())
def test_closed_form_equals_rnea(case):
    arm, q, qd, qdd, _, force = case
    close(al.inverse_dynamics(arm, q, qd, qdd), al.rnea(arm, q, qd, qdd))
    close(al.inverse_dynamics(arm, q, qd, qdd, force), al.rnea(arm, q, qd, qdd, force))


@PROPS
@given(arm_and_state())
def test_forward_dynamics_undoes_inverse_dynamics(case):
    arm, q, qd, qdd, tau, force = case
    for f in (None, force):
        close(al.forward_dynamics(arm, q, qd, al.inverse_dynamics(arm, q, qd, qdd, f), f), qdd,
              tol=1e-8)
        close(al.inverse_dynamics(arm, q, qd, al.forward_dynamics(arm, q, qd, tau, f), f), tau,
              tol=1e-8)


@PROPS
@given(arm_and_state())
def test_torque_parts_add_up_and_match_their_own_functions(case):
    arm, q, qd, qdd, _, force = case
    parts = al.torque_parts(arm, q, qd, qdd, force)
    close(parts["inertia"], al.mass_matrix(arm, q) @ qdd)
    close(parts["velocity"], al.coriolis_torques(arm, q, qd))
    close(parts["gravity"], al.gravity_torques(arm, q))
    close(parts["friction"], al.friction_torques(arm, qd))
    close(parts["tip"], al.static_torques(arm, q, force))
    close(parts["total"], sum(parts[k] for k in ("inertia", "velocity", "gravity", "friction",
                                                  "tip")))
    close(parts["total"], al.inverse_dynamics(arm, q, qd, qdd, force))


@PROPS
@given(arm_and_state())
def test_gravity_is_the_gradient_of_potential_energy(case):
    arm, q, *_ = case
    h = 1e-6
    grad = [(al.potential_energy(arm, q + h * e) - al.potential_energy(arm, q - h * e)) / (2 * h)
            for e in np.eye(arm.n)]
    close(al.gravity_torques(arm, q), grad, tol=1e-7)


@PROPS
@given(arm_and_state())
def test_velocity_products_do_the_work_of_the_changing_mass_matrix(case):
    """qd^T c = qd^T Mdot qd / 2: the skew-symmetry behind energy conservation."""
    arm, q, qd, *_ = case
    Mdot = al.mass_matrix_rate(arm, q, qd)
    close(qd @ al.coriolis_torques(arm, q, qd), 0.5 * qd @ Mdot @ qd)


@PROPS
@given(arm_and_state())
def test_mass_matrix_rate_is_the_derivative_along_the_motion(case):
    arm, q, qd, *_ = case
    h = 1e-6
    fd = (al.mass_matrix(arm, q + h * qd) - al.mass_matrix(arm, q - h * qd)) / (2 * h)
    close(al.mass_matrix_rate(arm, q, qd), fd, tol=1e-7)


@PROPS
@given(arm_and_state())
def test_energy_and_power_balance(case):
    """tau^T qd = d(T + V)/dt + friction power, along q(t) = q + qd t + qdd t^2 / 2."""
    arm, q, qd, qdd, *_ = case
    tau = al.inverse_dynamics(arm, q, qd, qdd)
    h = 1e-5

    def energy(t):
        qt, qdt = q + qd * t + 0.5 * qdd * t * t, qd + qdd * t
        return al.kinetic_energy(arm, qt, qdt) + al.potential_energy(arm, qt)

    rate = (energy(h) - energy(-h)) / (2 * h)
    loss = qd @ al.friction_torques(arm, qd)
    close(tau @ qd, rate + loss, tol=1e-6)
    close(al.kinetic_energy(arm, q, qd), 0.5 * qd @ al.mass_matrix(arm, q) @ qd)


@PROPS
@given(arms(), st.integers(0, 2**32 - 1))
def test_friction_through_the_gear_ratio(arm, seed):
    """The conventions case: viscous friction scales with G^2, Coulomb with G; armlab's sign
    overcomes it."""
    qd = np.random.default_rng(seed).uniform(-2, 2, arm.n)
    G, B, Tc = (np.array(x) for x in (arm.gear_ratio, arm.damping, arm.coulomb))
    f = al.friction_torques(arm, qd)
    close(f, G**2 * B * qd + G * Tc * np.sign(qd))
    assert np.all(f * qd >= 0)           # the motors push with the motion: friction's negative


@settings(max_examples=25, deadline=None)
@given(arms(), st.integers(0, 2**32 - 1))
def test_batch_equals_loop(arm, seed):
    rng = np.random.default_rng(seed)
    n = arm.n
    q, qd, qdd = (batch(rng, n) for _ in range(3))
    force = rng.uniform(-10, 10, (4, 3, 2))
    calls = {
        "mass_matrix": (al.mass_matrix, (q,)),
        "mass_matrix_rate": (al.mass_matrix_rate, (q, qd)),
        "coriolis_torques": (al.coriolis_torques, (q, qd)),
        "gravity_torques": (al.gravity_torques, (q,)),
        "friction_torques": (al.friction_torques, (qd,)),
        "inverse_dynamics": (al.inverse_dynamics, (q, qd, qdd, force)),
        "rnea": (al.rnea, (q, qd, qdd, force)),
        "forward_dynamics": (al.forward_dynamics, (q, qd, qdd, force)),
        "kinetic_energy": (al.kinetic_energy, (q, qd)),
        "potential_energy": (al.potential_energy, (q,)),
    }
    for name, (fn, args) in calls.items():
        whole = fn(arm, *args)
        for idx in np.ndindex(4, 3):
            one = fn(arm, *(a[idx] for a in args))
            assert np.shape(one) == np.shape(whole[idx]), name
            close(whole[idx], one, tol=1e-12)
    whole = al.torque_parts(arm, q, qd, qdd, force)
    one = al.torque_parts(arm, q[1, 2], qd[1, 2], qdd[1, 2], force[1, 2])
    for key in whole:
        close(whole[key][1, 2], one[key], tol=1e-12)


def test_batches_broadcast_like_numpy():
    """A shared state against a batch, a batch of forces against one state."""
    arm = al.tabletop_arm(damping=0.02)
    rng = np.random.default_rng(3)
    q = rng.uniform(-2, 2, (5, 2))
    qd, qdd = np.array([1.0, -2.0]), rng.uniform(-2, 2, (7, 1, 2))
    force = rng.uniform(-5, 5, (3, 1, 1, 2))
    tau = al.inverse_dynamics(arm, q, qd, qdd, force)
    assert tau.shape == (3, 7, 5, 2)
    for idx in [(0, 0, 0), (2, 6, 4), (1, 3, 2)]:
        i, j, k = idx
        close(tau[idx], al.rnea(arm, q[k], qd, qdd[j, 0], force[i, 0, 0]), tol=1e-12)
    assert al.kinetic_energy(arm, q, qd).shape == (5,)
    assert al.mass_matrix(arm, np.zeros((0, 2))).shape == (0, 2, 2)


def test_one_state_in_any_container_gives_the_same_numbers():
    """The fast path (plain one-state input) and the general path agree exactly."""
    arm = al.PlanarArm([0.4, 0.3, 0.2], [2.0, 1.0, 0.5], damping=0.1, coulomb=0.05)
    q, qd, qdd = [0.3, -0.2, 0.9], (1, 2, -1), np.array([0.5, -1.5, 2.0])
    for fn in (al.inverse_dynamics, al.rnea, al.forward_dynamics):
        ref = fn(arm, np.array([q]), np.array([qd], float), qdd[None])[0]
        for args in [(q, qd, qdd), (np.array(q), np.array(qd, float), list(qdd)),
                     (tuple(q), np.array(qd), tuple(qdd))]:
            out = fn(arm, *args)
            assert out.shape == (3,) and out.dtype == float
            close(out, ref, tol=1e-15)
    q32 = np.array(q, np.float32)
    close(al.rnea(arm, q32, qd, qdd), al.rnea(arm, q32.astype(float), qd, qdd), tol=1e-15)
    close(al.gravity_torques(arm, q), al.gravity_torques(arm, [q])[0], tol=1e-15)


def test_a_massless_outer_link_has_no_defined_acceleration():
    arm = al.PlanarArm([0.3, 0.2], [1.0, 0.0], inertia=[0.01, 0.0])
    with pytest.raises(ValueError, match="mass matrix"):
        al.forward_dynamics(arm, [0.1, 0.2], [0, 0], [0, 0])
    with pytest.raises(ValueError, match="mass matrix"):
        al.forward_dynamics(arm, [[0.1, 0.2]], [0, 0], [0, 0])


def test_one_link_pendulum_by_hand():
    """A rod of 1 kg and 1 m about its end: M = m L^2 / 3, g = m g0 (L/2) cos q."""
    arm = al.PlanarArm([1.0], [1.0])
    close(al.mass_matrix(arm, [0.7]), [[1 / 3]], tol=1e-15)
    close(al.gravity_torques(arm, [0.7]), [9.81 * 0.5 * np.cos(0.7)], tol=1e-15)
    close(al.coriolis_torques(arm, [0.7], [3.0]), [0.0], tol=1e-15)
    close(al.forward_dynamics(arm, [0.0], [0.0], [0.0]), [-9.81 * 0.5 * 3], tol=1e-14)


@PROPS
@given(arm_and_state())
def test_float_kernels_equal_the_batch_path(case):
    """The float kernels a simulation steps with are the batch kernels, on plain floats."""
    from armlab import _kernels as K

    arm, q, qd, qdd, tau, _ = case
    qd[0] = 0.0                                   # Coulomb friction at rest: sign(0) = 0
    k, F = arm._constants, K.FLOATS
    one = [x.tolist() for x in (q, qd, qdd, tau)]
    q, qd, qdd, tau = (x[None] for x in (q, qd, qdd, tau))   # a batch of one: the array path
    close(K.inverse(k, F, *one[:3]), al.inverse_dynamics(arm, q, qd, qdd)[0], tol=1e-12)
    close(K.gravity(k, F, one[0]), al.gravity_torques(arm, q)[0], tol=1e-12)
    close(K.friction(k, F, one[1]), al.friction_torques(arm, qd)[0], tol=1e-15)
    qdd_batch = al.forward_dynamics(arm, q, qd, tau)[0]
    close(K.forward(k, F, one[0], one[1], one[3]), qdd_batch, tol=1e-10)
    close(K.forward(k, F, one[0], one[1], one[3], None, K.friction(k, F, one[1])), qdd_batch,
          tol=1e-10)
    assert k.has_friction == bool(np.any(arm.damping) or np.any(arm.coulomb))


def test_float_kernels_report_a_singular_mass_matrix():
    from armlab import _kernels as K

    arm = al.PlanarArm([0.3, 0.2], [1.0, 0.0], inertia=[0.01, 0.0])
    with pytest.raises(ZeroDivisionError):
        K.forward(arm._constants, K.FLOATS, [0.1, 0.2], [0.0, 0.0], [0.0, 0.0])


KERNELS = {"friction": 1, "gravity": 1, "coriolis": 2, "mass_matrix": 1, "inverse": 3,
           "kinetic": 2, "potential": 1, "forward": 3, "tip_jacobian": 1, "rnea": 3,
           "eliminate": 3, "aba": 3}


@PROPS
@given(arms(), st.integers(0, 2**32 - 1))
def test_compiled_kernels_are_the_kernels_bit_for_bit(arm, seed):
    """Each kernel compiled for an arm makes the kernel's own operations: on floats and on
    arrays of states its results are those of the kernel as written, bit for bit."""
    from armlab import _kernels as K

    k, rng = arm._constants, np.random.default_rng(seed)
    for name, count in KERNELS.items():
        kernel = getattr(K, name)
        states = [rng.uniform(-3, 3, (k.n, 5)) for _ in range(count)]
        for ops, args, width in ((K.ARRAYS, [list(s) for s in states], (5,)),
                                 (K.FLOATS, [s[:, 0].tolist() for s in states], ())):
            written, compiled = ([np.broadcast_to(np.asarray(x, float), width) for x in out]
                                 for out in (kernel.__wrapped__(k, ops, *args),
                                             kernel(k, ops, *args)))
            assert len(written) == len(compiled), name
            assert all(np.array_equal(a, b, equal_nan=True)
                       for a, b in zip(written, compiled)), name


def test_a_small_batch_is_its_states_one_by_one():
    """A batch at or under the float path's size and one over it give the states' own
    results (the float path and the block path agree to rounding)."""
    arm = al.PlanarArm([0.4, 0.3, 0.2], [2.0, 1.0, 0.5], damping=0.1, coulomb=0.05)
    rng = np.random.default_rng(7)
    for count in (1, 32, 33, 200):
        q, qd, tau = (rng.uniform(-2, 2, (count, 3)) for _ in range(3))
        batch = al.forward_dynamics(arm, q, qd, tau)
        alone = np.array([al.forward_dynamics(arm, *state) for state in zip(q, qd, tau)])
        close(batch, alone, tol=1e-12)
        close(al.jacobian(arm, q), np.array([al.jacobian(arm, x) for x in q]), tol=1e-15)
        close(al.mass_matrix(arm, q), np.array([al.mass_matrix(arm, x) for x in q]), tol=1e-15)


def agree_accelerations(arm, q, ours, theirs, tol=1e-12):
    """Accelerations agree as far as M(q) determines them: to ``tol`` of ``|M| |qdd|`` in
    torque, and to ``tol`` cond(M) in acceleration."""
    M = al.mass_matrix(arm, q)
    scale = 1.0 + np.max(np.abs(M) @ np.abs(theirs))
    np.testing.assert_allclose(M @ ours, M @ theirs, rtol=0, atol=tol * scale)
    close(ours, theirs, tol=tol * np.linalg.cond(M))


@PROPS
@given(arm_and_state(max_links=12), st.integers(0, 2**32 - 1))
def test_articulated_body_algorithm_equals_solving_the_mass_matrix(case, seed):
    """The articulated-body algorithm (O(n)) and forming and solving M (O(n^3)) give one
    acceleration, on floats and on arrays, with and without a tip force and friction."""
    from armlab import _kernels as K

    arm, q, qd, _, tau, force = case
    k = arm._constants
    one = [x.tolist() for x in (q, qd, tau)]
    for push in (None, force.tolist()):
        agree_accelerations(arm, q, K.aba(k, K.FLOATS, *one, push),
                            K.eliminate(k, K.FLOATS, *one, push))
    rng = np.random.default_rng(seed)
    Q, V, T = (batch(rng, arm.n, (40,)) for _ in range(3))
    by_aba, by_solving = (K.blocks(kernel, k, [Q, V, T], 40, (arm.n,))
                          for kernel in (K.aba, K.eliminate))
    M = al.mass_matrix(arm, Q)
    scale = 1.0 + np.max(np.abs(M) @ np.abs(by_solving[..., None]))
    close(np.einsum("...ij,...j->...i", M, by_aba - by_solving), 0.0 * by_aba, tol=1e-12 * scale)


LINKS = [2, 3, 5, 6, 7, 8, 10, 12]


@pytest.mark.parametrize("n", LINKS)
def test_both_routes_agree_to_1e_12_on_chains_of_equal_links(n):
    """On chains of n equal 0.3 m, 1 kg links (M's condition number up to about 6e4 at
    12 links), ABA and solving M agree to 1e-12 of the largest acceleration, state by
    state, on floats and on arrays."""
    from armlab import _kernels as K

    arm = al.PlanarArm([0.3] * n, [1.0] * n, damping=0.1, coulomb=0.05)
    k, rng = arm._constants, np.random.default_rng(n)
    Q, V, T = (rng.uniform(-2, 2, (200, n)) for _ in range(3))
    F = rng.uniform(-5, 5, 2).tolist()
    states = list(zip(Q.tolist(), V.tolist(), T.tolist()))
    pairs = [(K.blocks(K.aba, k, [Q, V, T, F], 200, (n,)),
              K.blocks(K.eliminate, k, [Q, V, T, F], 200, (n,))),
             (np.array([K.aba(k, K.FLOATS, *s, F) for s in states]),
              np.array([K.eliminate(k, K.FLOATS, *s, F) for s in states]))]
    for ours, theirs in pairs:
        worst = np.max(np.abs(ours - theirs).max(axis=1) / np.abs(theirs).max(axis=1))
        assert worst <= 1e-12, worst


@pytest.mark.parametrize("n", [2, 9])
def test_a_massless_outer_link_is_named_on_either_route(n):
    arm = al.PlanarArm([0.3] * n, [1.0] * (n - 1) + [0.0], inertia=[0.01] * (n - 1) + [0.0])
    for shape in ((n,), (1, n), (40, n)):
        with pytest.raises(ValueError, match="mass matrix of this arm is singular"):
            al.forward_dynamics(arm, np.full(shape, 0.1), np.zeros(shape), np.zeros(shape))


def test_a_batch_of_one_state_is_the_one_state_call_in_a_row():
    """A (1, n) batch (the small-batch shortcut) gives the (n,) call's numbers bit for bit,
    with the batch's shape; a NaN in it is still the general path's error."""
    arm = al.PlanarArm([0.4, 0.3, 0.2], [2.0, 1.0, 0.5], damping=0.1, coulomb=0.05)
    q, qd, qdd = np.array([0.3, -0.2, 0.9]), np.array([1.0, 2.0, -1.0]), np.array([0.5, -1.5, 2.0])
    for fn, args, tail in [(al.mass_matrix, (q,), (3, 3)), (al.jacobian, (q,), (2, 3)),
                           (al.gravity_torques, (q,), (3,)),
                           (al.inverse_dynamics, (q, qd, qdd), (3,)), (al.rnea, (q, qd, qdd), (3,)),
                           (al.forward_dynamics, (q, qd, qdd), (3,))]:
        one, row = fn(arm, *args), fn(arm, *[a[None] for a in args])
        assert row.shape == (1,) + tail and one.shape == tail
        assert row[0].tobytes() == one.tobytes(), fn.__name__
        bad = [a[None].copy() for a in args]
        bad[0][0, 1] = np.nan
        with pytest.raises(ValueError, match="q"):
            fn(arm, *bad)
