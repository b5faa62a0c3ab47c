"""armlab.lagrange and armlab.energy: the inverse dynamics chapter's quantities, each by a second route.

The mass matrix's derivatives against finite differences of ``mass_matrix``;
the Christoffel symbols' velocity products against ``coriolis_torques`` (a
different kernel) and Pinocchio; ``dM/dt - 2 C`` skew; the Lagrange route to
the whole torque against RNEA; the two-link constants and determinant against
``mass_matrix`` and ``numpy.linalg.det``; the power balance against finite
differences of the energies. Seed numbers at their printed precision.
"""

import numpy as np
import pytest
from arm_strategies import arm_and_state, arms
from hypothesis import given, settings
from hypothesis import strategies as st

import armlab as al

PROPS = settings(max_examples=80, deadline=None)


def close(a, b, tol=1e-10):
    """Equal up to rounding, relative to the size of the numbers involved."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    scale = 1.0 + np.max(np.abs(b), initial=0.0)
    np.testing.assert_allclose(a, b, rtol=0, atol=tol * scale)


def at(value, printed):
    """``value`` rounds to the printed numbers, at the precision they are printed with."""
    expected = [float(x) for x in printed.split()]
    decimals = [len(x.split(".")[1]) if "." in x else 0 for x in printed.split()]
    got = np.atleast_1d(np.asarray(value, float))
    assert got.shape == (len(expected),), (got, printed)
    for g, e, d in zip(got, expected, decimals):
        assert round(g, d) + 0.0 == e, (got, printed)


def deg(x):
    return np.radians(x)


# ---------------------------------------------------------------------------
# The mass matrix's derivatives and the Christoffel symbols


@PROPS
@given(arm_and_state())
def test_mass_matrix_derivatives_are_finite_differences_of_mass_matrix(case):
    arm, q, *_ = case
    h = 1e-6
    dM = al.mass_matrix_derivatives(arm, q)
    assert dM.shape == (arm.n,) * 3
    for k, e in enumerate(np.eye(arm.n)):
        fd = (al.mass_matrix(arm, q + h * e) - al.mass_matrix(arm, q - h * e)) / (2 * h)
        close(dM[..., k], fd, tol=1e-7)
    np.testing.assert_array_equal(dM, np.swapaxes(dM, 0, 1))
    close(dM[..., 0], 0.0, tol=1e-12)          # turning the whole arm changes no inertia


@PROPS
@given(arm_and_state())
def test_mass_matrix_rate_is_dM_dq_times_qd(case):
    arm, q, qd, *_ = case
    close(al.mass_matrix_derivatives(arm, q) @ qd, al.mass_matrix_rate(arm, q, qd))


@PROPS
@given(arm_and_state())
def test_christoffel_velocity_products_equal_coriolis_torques(case):
    """c_i = sum_jk Gamma_ijk qd_j qd_k, and C qd = c, against the dynamics kernel"""
    arm, q, qd, *_ = case
    gamma = al.christoffel_symbols(arm, q)
    np.testing.assert_array_equal(gamma, np.swapaxes(gamma, -1, -2))
    c = al.coriolis_torques(arm, q, qd)
    close(np.einsum("ijk,j,k->i", gamma, qd, qd), c)
    close(al.coriolis_matrix(arm, q, qd) @ qd, c)


@PROPS
@given(arm_and_state())
def test_mdot_minus_two_c_is_skew(case):
    arm, q, qd, *_ = case
    S = al.mass_matrix_rate(arm, q, qd) - 2 * al.coriolis_matrix(arm, q, qd)
    close(S, -S.T)
    v = np.random.default_rng(0).standard_normal(arm.n)
    close(v @ S @ v, 0.0)


@PROPS
@given(arm_and_state())
def test_lagrange_route_equals_rnea(case):
    """M qdd + Gamma(qd, qd) + g + friction + J^T F, assembled here, equals RNEA"""
    arm, q, qd, qdd, _, force = case
    tau = (al.mass_matrix(arm, q) @ qdd + al.coriolis_matrix(arm, q, qd) @ qd
           + al.gravity_torques(arm, q) + al.friction_torques(arm, qd)
           + al.jacobian(arm, q).T @ force)
    close(tau, al.rnea(arm, q, qd, qdd, force))


def test_two_link_symbols_are_plus_minus_h():
    """Two links: Gamma_112 = Gamma_121 = Gamma_122 = -h, Gamma_211 = h, h = beta sin q2"""
    arm = al.tabletop_arm()
    rng = np.random.default_rng(5)
    beta = al.inertia_constants(arm).beta
    for q, qd in zip(rng.uniform(-3, 3, (6, 2)), rng.uniform(-3, 3, (6, 2))):
        h = beta * np.sin(q[1])
        expected = np.zeros((2, 2, 2))
        expected[0, 0, 1] = expected[0, 1, 0] = expected[0, 1, 1] = -h
        expected[1, 0, 0] = h
        close(al.christoffel_symbols(arm, q), expected, tol=1e-13)
        close(al.coriolis_matrix(arm, q, qd),
              [[-h * qd[1], -h * (qd[0] + qd[1])], [h * qd[0], 0.0]], tol=1e-13)


def test_tabletop_h_and_speed_part_from_the_symbols():
    """The table-top case: h = m2 L1 lc2 sin 45 deg = 0.0265, speed part (-0.2121, 0.0265)"""
    arm = al.tabletop_arm()
    q, qd = deg([30, 45]), np.array([1.0, 2.0])
    gamma = al.christoffel_symbols(arm, q)
    at(gamma[1, 0, 0], "0.0265")
    at(al.coriolis_matrix(arm, q, qd) @ qd, "-0.2121 0.0265")


def test_rods_velocity_products_from_the_symbols():
    """The torque-budget case: q2 = -60 deg, qd = (1, -0.5): h = -sqrt(3)/4, c = (-0.324760,
    -0.433013)"""
    arm = al.rod_arm()
    q, qd = deg([30, -60]), np.array([1.0, -0.5])
    close(al.christoffel_symbols(arm, q)[1, 0, 0], -np.sqrt(3) / 4, tol=1e-15)
    at(al.coriolis_matrix(arm, q, qd) @ qd, "-0.324760 -0.433013")


@pytest.mark.parametrize("shape", [(), (3,), (2, 4)])
def test_batch_equals_loop(shape):
    arm = al.PlanarArm([0.4, 0.3, 0.2], [2.0, 1.0, 0.5], com=[0.1, 0.2, 0.05])
    rng = np.random.default_rng(7)
    q, qd = rng.uniform(-2, 2, shape + (3,)), rng.uniform(-2, 2, shape + (3,))
    whole = {"dM": al.mass_matrix_derivatives(arm, q), "G": al.christoffel_symbols(arm, q),
             "C": al.coriolis_matrix(arm, q, qd)}
    assert whole["dM"].shape == shape + (3, 3, 3) and whole["C"].shape == shape + (3, 3)
    for idx in np.ndindex(shape):
        close(whole["dM"][idx], al.mass_matrix_derivatives(arm, q[idx]), tol=1e-14)
        close(whole["G"][idx], al.christoffel_symbols(arm, q[idx]), tol=1e-14)
        close(whole["C"][idx], al.coriolis_matrix(arm, q[idx], qd[idx]), tol=1e-14)
    # one shared speed against a batch of poses
    C = al.coriolis_matrix(arm, rng.uniform(-2, 2, (5, 3)), qd.reshape(-1, 3)[0])
    assert C.shape == (5, 3, 3)


# ---------------------------------------------------------------------------
# The two-link constants and the determinant


@PROPS
@given(arms(min_links=2, max_links=2), st.floats(-4, 4))
def test_inertia_constants_rebuild_the_mass_matrix(arm, q2):
    alpha, beta, delta = al.inertia_constants(arm)
    c2 = np.cos(q2)
    close(al.mass_matrix(arm, [0.3, q2]),
          [[alpha + 2 * beta * c2, delta + beta * c2], [delta + beta * c2, delta]], tol=1e-13)
    close(al.coriolis_torques(arm, [0.3, q2], [1.0, 0.0])[1], beta * np.sin(q2), tol=1e-13)


@PROPS
@given(arms(min_links=2, max_links=2), st.floats(-4, 4))
def test_determinant_closed_form_and_its_positive_bound(arm, q2):
    alpha, beta, delta = al.inertia_constants(arm)
    det = al.mass_matrix_det(arm, [0.0, q2])
    close(det, np.linalg.det(al.mass_matrix(arm, [0.0, q2])), tol=1e-12)
    lowest = delta * (alpha - delta) - beta**2           # straight or folded
    assert det >= lowest - 1e-12
    assert lowest > 0                                     # every link has inertia: never singular
    close(al.mass_matrix_det(arm, [1.0, 0.0]), lowest, tol=1e-14)


def test_rods_determinant_of_the_rods():
    """det M = m/9 + m^2 (1/3 - cos^2 q2 / 4), lowest m/9 + m^2/12, for link-2 masses 0.5-2 kg"""
    q2 = np.linspace(-np.pi, np.pi, 13)
    q = np.stack([np.zeros_like(q2), q2], axis=-1)
    for m in (0.5, 1.0, 1.5, 2.0):
        arm = al.rod_arm(m2=m)
        close(al.mass_matrix_det(arm, q), m / 9 + m**2 * (1 / 3 - np.cos(q2) ** 2 / 4),
              tol=1e-14)
        close(al.mass_matrix_det(arm, [0, 0]), m / 9 + m**2 / 12, tol=1e-14)
        close(al.inertia_constants(arm), [1 / 3 + 4 * m / 3, m / 2, m / 3], tol=1e-15)
    at(al.mass_matrix_det(al.rod_arm(), [0, 0]), "0.194444")


def test_two_link_functions_refuse_other_arms():
    three = al.PlanarArm([1, 1, 1], [1, 1, 1])
    with pytest.raises(ValueError, match="arm has 3 joints"):
        al.inertia_constants(three)
    with pytest.raises(ValueError, match="arm has 3 joints"):
        al.mass_matrix_det(three, [0, 0, 0])
    with pytest.raises(ValueError, match="q has shape"):
        al.mass_matrix_det(al.rod_arm(), [0, 0, 0])


def test_bad_input_names_the_argument():
    arm = al.rod_arm()
    with pytest.raises(ValueError, match="q has shape"):
        al.mass_matrix_derivatives(arm, [0.0])
    with pytest.raises(ValueError, match="q must be finite"):
        al.christoffel_symbols(arm, [np.nan, 0.0])
    with pytest.raises(ValueError, match="qd has shape"):
        al.coriolis_matrix(arm, [0, 0], [1, 2, 3])
    with pytest.raises(ValueError, match="do not broadcast"):
        al.coriolis_matrix(arm, np.zeros((3, 2)), np.zeros((4, 2)))
    with pytest.raises(ValueError, match="qdd has shape"):
        al.power_balance(arm, [0, 0], [0, 0], [0])
    with pytest.raises(ValueError, match="tip_force has shape"):
        al.power_balance(arm, [0, 0], [0, 0], [0, 0], tip_force=[1, 2, 3])


# ---------------------------------------------------------------------------
# The power balance


@PROPS
@given(arm_and_state())
def test_power_balance_adds_up(case):
    """motor = dT/dt + dV/dt + friction loss + tip power, with c from the dynamics kernel"""
    arm, q, qd, qdd, _, force = case
    p = al.power_balance(arm, q, qd, qdd, force)
    close(p.motor, p.energy_rate + p.friction + p.tip, tol=1e-9)
    assert p.friction >= 0
    close(p.tip, force @ (al.jacobian(arm, q) @ qd))          # F . v_tip


@PROPS
@given(arm_and_state())
def test_power_terms_are_the_energies_time_derivatives(case):
    """dT/dt and dV/dt by central differences along q(t) = q + qd t + qdd t^2 / 2"""
    arm, q, qd, qdd, *_ = case
    h = 1e-5

    def state(t):
        return q + qd * t + 0.5 * qdd * t * t, qd + qdd * t

    T = [al.kinetic_energy(arm, *state(t)) for t in (h, -h)]
    V = [al.potential_energy(arm, state(t)[0]) for t in (h, -h)]
    p = al.power_balance(arm, q, qd, qdd)
    close(p.kinetic, (T[0] - T[1]) / (2 * h), tol=1e-6)
    close(p.potential, (V[0] - V[1]) / (2 * h), tol=1e-6)


def test_power_balance_batch_equals_loop():
    arm = al.tabletop_arm(damping=0.02)
    rng = np.random.default_rng(11)
    q, qd, qdd = (rng.uniform(-2, 2, (4, 3, 2)) for _ in range(3))
    force = rng.uniform(-5, 5, (3, 2))
    whole = al.power_balance(arm, q, qd, qdd, force)
    for field in whole:
        assert field.shape == (4, 3)
    for idx in np.ndindex(4, 3):
        one = al.power_balance(arm, q[idx], qd[idx], qdd[idx], force[idx[1]])
        for a, b in zip(whole, one):
            assert np.shape(b) == ()
            close(a[idx], b, tol=1e-13)
    # a shared state against a batch of accelerations
    assert al.power_balance(arm, [0.1, 0.2], [1.0, 0.0], rng.uniform(-1, 1, (6, 2))).motor.shape \
        == (6,)


def test_rods_energy_panel():
    """The torque-budget case's bent and moving instant: T, V, motor power, dE/dt, damping loss"""
    arm = al.rod_arm(damping=0.25)
    q, qd, qdd = deg([30, -60]), [1, -0.5], [0.5, -1]
    p = al.power_balance(arm, q, qd, qdd)
    at(al.kinetic_energy(arm, q, qd), "0.833333")
    at(al.potential_energy(arm, q), "4.905000")
    at(p.motor, "15.592571")
    at(p.energy_rate, "15.280071")
    at(p.friction, "0.312500")
    at(p.motor - p.energy_rate - p.friction, "0.000000")
    at(p.tip, "0.0")


def test_rods_elbow_acceleration_at_zero_power():
    """Torque (0.833333, 0.333333) N m with no gravity, yet no power: the arm is at rest"""
    arm = al.rod_arm(gravity=0)
    p = al.power_balance(arm, [0, 0], [0, 0], [0, 1])
    at(al.inverse_dynamics(arm, [0, 0], [0, 0], [0, 1]), "0.833333 0.333333")
    for value in p:
        assert value == 0.0


def test_rods_torque_supported_tip_does_no_work_at_rest_and_delivers_power_in_motion():
    """The tip term is F . v_tip: zero at rest, the lever arms' torque times qd in motion"""
    arm = al.rod_arm()
    support_on_arm = np.array([0.0, 5.0])
    tip = -support_on_arm                          # the book's convention
    assert al.power_balance(arm, [0, 0], [0, 0], [0, 0], tip).tip == 0.0
    p = al.power_balance(arm, [0, 0], [1.0, 0.0], [0, 0], tip)
    close(p.tip, -10.0, tol=1e-15)                # tip moves up at 2 m/s against 5 N down


# Pinocchio (test-only): its Coriolis matrix, which it builds to have the skew property


def pinocchio_coriolis(arm, q, qd):
    pin = pytest.importorskip("pinocchio")
    model = pin.buildModelFromXML(al.to_urdf(arm))
    return pin.computeCoriolisMatrix(model, model.createData(), q, qd)


@settings(max_examples=40, deadline=None)
@given(arm_and_state(min_links=2, max_links=6, friction=False))
def test_coriolis_matrix_matches_pinocchio(case):
    arm, q, qd, *_ = case
    close(al.coriolis_matrix(arm, q, qd), pinocchio_coriolis(arm, q, qd), tol=1e-12)


@settings(max_examples=40, deadline=None)
@given(arm_and_state(min_links=2, max_links=6, friction=False))
def test_mass_matrix_derivatives_match_pinocchio_along_qd(case):
    """dM/dq qd against Pinocchio's dM/dt = C + C^T"""
    arm, q, qd, *_ = case
    C = pinocchio_coriolis(arm, q, qd)
    close(al.mass_matrix_derivatives(arm, q) @ qd, C + C.T, tol=1e-12)


def test_the_smallest_mass_matrix_determinant_of_two_links():
    """det M is least straight or folded, where it is I2 (alpha - delta) + m2 lc2^2 (I1 +
    m1 lc1^2) (lagrange.mass_matrix_det's docstring); both terms zero makes it singular."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        L, m, I = rng.uniform(0.2, 1, 2), rng.uniform(0.5, 3, 2), rng.uniform(0, 0.1, 2)
        lc = rng.uniform(0, 1, 2) * L
        arm = al.PlanarArm(L, m, com=lc, inertia=I)
        alpha, _, delta = al.inertia_constants(arm)
        least = I[1] * (alpha - delta) + m[1] * lc[1] ** 2 * (I[0] + m[0] * lc[0] ** 2)
        grid = np.stack([np.zeros(721), np.linspace(-np.pi, np.pi, 721)], -1)
        det = al.mass_matrix_det(arm, grid)
        assert det.min() == pytest.approx(least, rel=1e-12)
        assert det[360] == pytest.approx(least, rel=1e-12)                  # straight
        close(np.linalg.det(al.mass_matrix(arm, grid)), det, tol=1e-12)
    pinned = al.PlanarArm([0.5, 0.4], [1.0, 1.0], com=[0.25, 0.0], inertia=[0.02, 0.0])
    assert al.mass_matrix_det(pinned, [0.3, 0.7]) == 0.0
