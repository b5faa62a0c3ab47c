"""Every kind of bad input raises ValueError naming the argument.

Wrong shapes, mismatched joint counts, NaN and inf, non-positive lengths,
negative masses, non-positive limits, zero directions, bad gravity. Nothing
returns NaN silently.
"""

import numpy as np
import pytest

import armlab as al

ARM = al.tabletop_arm()
GOOD = dict(lengths=(0.3, 0.25), masses=(2.0, 1.0))


@pytest.mark.parametrize("change, name", [
    (dict(lengths=[[0.3, 0.25]]), "lengths"),
    (dict(lengths=[], masses=[]), "lengths"),
    (dict(lengths=0.3, masses=1.0), "lengths"),
    (dict(lengths=(0.3, 0.0)), "lengths"),
    (dict(lengths=(0.3, -0.25)), "lengths"),
    (dict(lengths=(0.3, np.nan)), "lengths"),
    (dict(lengths=(np.inf, 0.25)), "lengths"),
    (dict(lengths="long"), "lengths"),
    (dict(lengths=(0.3, None)), "lengths"),
    (dict(masses=(2.0,)), "masses"),
    (dict(masses=(2.0, 1.0, 0.5)), "masses"),
    (dict(masses=(2.0, -1.0)), "masses"),
    (dict(masses=(2.0, np.nan)), "masses"),
    (dict(com=(0.1, 0.2, 0.3)), "com"),
    (dict(com=(0.1, np.inf)), "com"),
    (dict(inertia=(0.01, -0.01)), "inertia"),
    (dict(inertia=[[0.01, 0.01]]), "inertia"),
    (dict(gravity=(0.0, -9.81, 0.0)), "gravity"),
    (dict(gravity=[[0.0, -9.81]]), "gravity"),
    (dict(gravity=np.nan), "gravity"),
    (dict(gravity=(0.0, np.inf)), "gravity"),
    (dict(damping=-0.1), "damping"),
    (dict(damping=(0.1, 0.1, 0.1)), "damping"),
    (dict(coulomb=(0.1, -0.1)), "coulomb"),
    (dict(gear_ratio=0.0), "gear_ratio"),
    (dict(gear_ratio=(1.0, -5.0)), "gear_ratio"),
    (dict(gear_ratio=np.nan), "gear_ratio"),
])
def test_bad_arm_description(change, name):
    with pytest.raises(ValueError, match=rf"^{name} "):       # the message opens with the name
        al.PlanarArm(**{**GOOD, **change})


@pytest.mark.parametrize("mass", [-0.5, np.nan, np.inf, [0.5, 0.5], "heavy"])
def test_bad_payload(mass):
    with pytest.raises(ValueError, match="mass"):
        ARM.with_payload(mass)


Q, QD, QDD = [0.3, 0.4], [1.0, 2.0], [3.0, -2.0]

# (function, its arguments after the arm, the position of the argument to spoil, its name)
STATE_CALLS = [
    (al.joint_positions, (Q,), 0, "q"),
    (al.tip_position, (Q,), 0, "q"),
    (al.com_positions, (Q,), 0, "q"),
    (al.jacobian, (Q,), 0, "q"),
    (al.com_jacobians, (Q,), 0, "q"),
    (al.mass_matrix, (Q,), 0, "q"),
    (al.mass_matrix_rate, (Q, QD), 0, "q"),
    (al.mass_matrix_rate, (Q, QD), 1, "qd"),
    (al.coriolis_torques, (Q, QD), 0, "q"),
    (al.coriolis_torques, (Q, QD), 1, "qd"),
    (al.gravity_torques, (Q,), 0, "q"),
    (al.friction_torques, (QD,), 0, "qd"),
    (al.torque_parts, (Q, QD, QDD), 2, "qdd"),
    (al.inverse_dynamics, (Q, QD, QDD), 0, "q"),
    (al.inverse_dynamics, (Q, QD, QDD), 1, "qd"),
    (al.inverse_dynamics, (Q, QD, QDD), 2, "qdd"),
    (al.rnea, (Q, QD, QDD), 0, "q"),
    (al.rnea, (Q, QD, QDD), 1, "qd"),
    (al.rnea, (Q, QD, QDD), 2, "qdd"),
    (al.forward_dynamics, (Q, QD, QDD), 0, "q"),
    (al.forward_dynamics, (Q, QD, QDD), 1, "qd"),
    (al.forward_dynamics, (Q, QD, QDD), 2, "tau"),
    (al.kinetic_energy, (Q, QD), 1, "qd"),
    (al.potential_energy, (Q,), 0, "q"),
    (al.static_torques, (Q, [1.0, 0.0]), 0, "q"),
    (al.tip_force_from_torques, (Q, QD), 1, "tau"),
    (al.singular_values, (Q,), 0, "q"),
    (al.force_error_bound, (Q, 0.5), 0, "q"),
    (al.max_tip_force, (Q, [1.0, 0.0], 20.0), 0, "q"),
    (al.payload_capacity, (Q, 25.0), 0, "q"),
    (al.realized_acceleration, (Q, QD, QDD, 20.0), 2, "qdd"),
]

BAD_STATES = {
    "too few joints": [0.3],
    "too many joints": [0.3, 0.4, 0.5],
    "a scalar": 0.3,
    "NaN": [0.3, np.nan],
    "inf": [-np.inf, 0.3],
    "text": ["a", "b"],
    "ragged": [[0.1, 0.2], [0.3]],
    "batch of wrong width": np.zeros((4, 3)),
}


@pytest.mark.parametrize("fn, args, pos, name", STATE_CALLS,
                         ids=[f"{c[0].__name__}-{c[3]}" for c in STATE_CALLS])
@pytest.mark.parametrize("bad", BAD_STATES.values(), ids=BAD_STATES.keys())
def test_bad_state_names_the_argument(fn, args, pos, name, bad):
    args = list(args)
    args[pos] = bad
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        fn(ARM, *args)


FORCE_CALLS = [
    (al.inverse_dynamics, (Q, QD, QDD)),
    (al.rnea, (Q, QD, QDD)),
    (al.forward_dynamics, (Q, QD, QDD)),
    (al.torque_parts, (Q, QD, QDD)),
    (al.realized_acceleration, (Q, QD, QDD, 20.0)),
    (al.static_torques, (Q,)),
    (al.payload_capacity, (Q, 25.0)),
]


@pytest.mark.parametrize("fn, args", FORCE_CALLS, ids=[c[0].__name__ for c in FORCE_CALLS])
@pytest.mark.parametrize("bad", [[1.0], [1.0, 2.0, 3.0], 5.0, [np.nan, 0.0], [0.0, np.inf]])
def test_bad_tip_force(fn, args, bad):
    with pytest.raises(ValueError, match="tip_force"):
        fn(ARM, *args, tip_force=bad)


@pytest.mark.parametrize("fn", [al.inverse_dynamics, al.rnea, al.forward_dynamics])
def test_batches_that_do_not_broadcast_name_the_arguments(fn):
    with pytest.raises(ValueError, match=r"q.*qd|qd.*q"):
        fn(ARM, np.zeros((3, 2)), np.zeros((4, 2)), np.zeros(2))
    with pytest.raises(ValueError, match="tip_force"):
        fn(ARM, np.zeros((3, 2)), np.zeros(2), np.zeros(2), tip_force=np.zeros((4, 2)))


@pytest.mark.parametrize("limit", [0.0, -20.0, [20.0, 0.0], [20.0, np.nan], [[20, 20], [10, 30]],
                                   [[-5, -5], [-5, 5]], np.ones((3, 2)), [1.0, 2.0, 3.0], "high"])
def test_bad_limits(limit):
    for call in (lambda: al.clip_torques([1.0, 2.0], limit),
                 lambda: al.realized_acceleration(ARM, Q, QD, QDD, limit),
                 lambda: al.max_tip_force(ARM, Q, [1.0, 0.0], limit),
                 lambda: al.payload_capacity(ARM, Q, limit)):
        with pytest.raises(ValueError, match="limit"):
            call()


@pytest.mark.parametrize("tau", [5.0, [np.nan, 1.0], [[1.0], [2.0, 3.0]], "x"])
def test_bad_torques_to_clip(tau):
    with pytest.raises(ValueError, match="tau"):
        al.clip_torques(tau, 20.0)


@pytest.mark.parametrize("direction", [[0.0, 0.0], [1.0], [np.nan, 1.0], [1.0, 0.0, 0.0]])
def test_bad_direction(direction):
    with pytest.raises(ValueError, match="direction"):
        al.max_tip_force(ARM, Q, direction, 20.0)


def test_zero_direction_inside_a_batch():
    with pytest.raises(ValueError, match="direction"):
        al.max_tip_force(ARM, Q, [[1.0, 0.0], [0.0, 0.0]], 20.0)


@pytest.mark.parametrize("error", [0.0, -0.5, [0.5, 0.0], [0.5, 0.5, 0.5], np.nan])
def test_bad_torque_error(error):
    with pytest.raises(ValueError, match="torque_error"):
        al.force_error_bound(ARM, Q, error)


@pytest.mark.parametrize("change, name", [
    (dict(eps=[0.1, 0.0]), "eps"),
    (dict(eps=[-0.1]), "eps"),
    (dict(eps=[[0.1]]), "eps"),
    (dict(eps=[np.nan]), "eps"),
    (dict(direction=[0.0, 0.0]), "direction"),
    (dict(direction=[1.0]), "direction"),
    (dict(q=[[0.3, 0.4]]), "q"),
    (dict(tip_force=[1.0]), "tip_force"),
])
def test_bad_virtual_work_check(change, name):
    args = dict(q=Q, tip_force=[10.0, 0.0], direction=[1.0, 0.0], eps=[0.1, 0.01])
    args.update(change)
    with pytest.raises(ValueError, match=name):
        al.virtual_work_check(ARM, **args)


def test_singular_mass_matrix_is_an_error_not_nan():
    arm = al.PlanarArm((0.3, 0.2), (1.0, 0.0), inertia=(0.01, 0.0))
    for q in (Q, [Q, Q]):
        with pytest.raises(ValueError, match="mass matrix"):
            al.forward_dynamics(arm, q, QD, QDD)
        with pytest.raises(ValueError, match="mass matrix"):
            al.realized_acceleration(arm, q, QD, QDD, 20.0)


def test_nothing_returns_nan_for_finite_input():
    """Large but finite inputs give finite numbers (or an error), never NaN."""
    rng = np.random.default_rng(0)
    q, qd, qdd = (rng.uniform(-50, 50, (20, 2)) for _ in range(3))
    for out in (al.inverse_dynamics(ARM, q, qd, qdd), al.rnea(ARM, q, qd, qdd),
                al.forward_dynamics(ARM, q, qd, qdd), al.singular_values(ARM, q),
                al.force_error_bound(ARM, q, 0.5), al.max_tip_force(ARM, q, [0, 1], 20),
                al.tip_force_from_torques(ARM, q, qdd)[0]):
        assert not np.any(np.isnan(out))


def test_other_batches_that_do_not_broadcast_name_the_arguments():
    q = np.zeros((3, 2))
    for call, names in [
        (lambda: al.static_torques(ARM, q, np.ones((4, 2))), "tip_force"),
        (lambda: al.tip_force_from_torques(ARM, q, np.ones((4, 2))), "tau"),
        (lambda: al.max_tip_force(ARM, q, np.ones((4, 2)), 20.0), "direction"),
        (lambda: al.payload_capacity(ARM, q, 25.0, np.ones((4, 2))), "tip_force"),
        (lambda: al.mass_matrix_rate(ARM, q, np.ones((4, 2))), "qd"),
        (lambda: al.kinetic_energy(ARM, q, np.ones((4, 2))), "qd"),
        (lambda: al.torque_parts(ARM, q, np.ones((4, 2)), np.ones(2)), "qd"),
        (lambda: al.realized_acceleration(ARM, q, np.ones((4, 2)), np.ones(2), 20.0), "qd"),
    ]:
        with pytest.raises(ValueError, match=names):
            call()


def test_virtual_work_check_refuses_an_undefined_ratio():
    with pytest.raises(ValueError, match="direction"):
        al.virtual_work_check(ARM, Q, [0.0, 0.0], [1.0, 0.0], [0.1])


@pytest.mark.parametrize("q, qd", [([1e308, 1e308], [0.0, 0.0]), ([0.0, 0.0], [1e200, 0.0]),
                                   ([[1e308, 1e308]], [0.0, 0.0]), ([10**400, 0], [0, 0])])
def test_overflowing_input_is_an_error_not_inf_or_nan(q, qd):
    for fn in (al.inverse_dynamics, al.rnea, al.forward_dynamics):
        with pytest.raises(ValueError, match="finite"):
            fn(ARM, q, qd, [0.0, 0.0])


def test_integer_and_boolean_states_are_numbers():
    np.testing.assert_allclose(al.inverse_dynamics(ARM, [1, 0], (0, 0), [True, False]),
                               al.inverse_dynamics(ARM, [1.0, 0.0], [0.0, 0.0], [1.0, 0.0]))


def test_overflowing_angles_in_kinematics_and_statics():
    for call in (lambda: al.jacobian(ARM, [1e308, 1e308]),
                 lambda: al.static_torques(ARM, [[1e308, 1e308]], [1.0, 0.0]),
                 lambda: al.potential_energy(ARM, [1e308, 1e308]),
                 lambda: al.singular_values(ARM, [1e308, 1e308])):
        with pytest.raises(ValueError, match="q"):
            call()


def test_an_overflowing_payload():
    with pytest.raises(ValueError, match="mass"):
        al.PlanarArm([1.0, 1.5], [1.0, 1.0]).with_payload(1.5e308)
