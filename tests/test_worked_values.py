"""Every worked number of the source examples, at the precision they are printed with.

The table-top case: the table-top arm (0.30 m / 2.0 kg and 0.25 m / 1.0 kg rods).
The rods-and-limits and torque-budget cases: two 1 m rods. The statics case: the statics
arm. The conventions case: a library's conventions (friction sign, gear ratio, payload
capacity).

The rods-and-limits case states its tip force as the force the environment applies to the
arm; armlab's ``tip_force`` is the force the arm applies, so its sign flips
here (and only here).
"""

import numpy as np
import pytest

import armlab as al

deg = np.radians


def at(value, printed):
    """``value`` rounds to the printed numbers, to as many decimals as each is printed with.

    ``printed`` is the source's text, e.g. ``[5.7796, 0.4443]``; ``inf`` stands
    for the source's "unbounded".
    """
    value = np.atleast_1d(np.asarray(value, float)).ravel()
    words = printed.split()
    assert value.size == len(words), (value, printed)
    for v, word in zip(value, words):
        if word == "inf":
            assert v == np.inf, f"{v} is not unbounded"
            continue
        decimals = len(word.split(".")[1]) if "." in word else 0
        assert round(float(v), decimals) == float(word), (
            f"{v!r} does not round to the printed {word}")


# ---------------------------------------------------------------------------
# The table-top case: arm dynamics of the table-top arm

Q0, QD0, QDD0 = deg([30, 45]), [1.0, 2.0], [3.0, -2.0]


def test_tabletop_shoulder_inertia_straight_and_bent():
    arm = al.tabletop_arm()
    at(al.mass_matrix(arm, [0, 0])[0, 0], "0.246")
    at(al.mass_matrix(arm, deg([0, 90]))[0, 0], "0.171")


def test_tabletop_worked_instant_mass_matrix_and_inertia_part():
    arm = al.tabletop_arm()
    M = al.mass_matrix(arm, Q0)
    at(M.ravel(), "0.2239 0.0473 0.0473 0.0208")
    at(M @ QDD0, "0.5769 0.1004")
    at(al.torque_parts(arm, Q0, QD0, QDD0)["inertia"], "0.5769 0.1004")


def test_tabletop_worked_instant_speed_part_through_h():
    arm = al.tabletop_arm()
    h = 1.0 * 0.30 * 0.125 * np.sin(deg(45))           # m2 L1 lc2 sin q2
    at(h, "0.0265")
    # the same h from the arm: c = (-h (2 qd1 qd2 + qd2^2), h qd1^2)
    at(al.coriolis_torques(arm, Q0, [1, 0])[1], "0.0265")
    at(-al.coriolis_torques(arm, Q0, [0, 1])[0], "0.0265")
    c = al.coriolis_torques(arm, Q0, QD0)
    at(c, "-0.2121 0.0265")
    np.testing.assert_allclose(c, [-h * 8, h * 1], rtol=1e-12)


def test_tabletop_worked_instant_gravity_and_totals():
    arm = al.tabletop_arm()
    g = al.gravity_torques(arm, Q0)
    at(g, "5.4148 0.3174")
    at(1.0 * 0.125 * 9.81 * np.cos(deg(75)), "0.3174")
    at((2.0 * 0.15 + 1.0 * 0.30) * 9.81 * np.cos(deg(30)) + g[1], "5.4148")
    parts = al.torque_parts(arm, Q0, QD0, QDD0)
    at(parts["total"], "5.7796 0.4443")
    at(al.inverse_dynamics(arm, Q0, QD0, QDD0), "5.7796 0.4443")
    at(al.rnea(arm, Q0, QD0, QDD0), "5.7796 0.4443")
    # more than nine tenths of the shoulder's torque holds the arm up
    assert g[0] / parts["total"][0] > 0.9


def test_tabletop_forward_dynamics_gives_back_the_acceleration():
    arm = al.tabletop_arm()
    tau = al.inverse_dynamics(arm, Q0, QD0, QDD0)
    np.testing.assert_allclose(al.forward_dynamics(arm, Q0, QD0, tau), QDD0, atol=1e-12)
    # with the printed torques, to the printed precision
    at(al.forward_dynamics(arm, Q0, QD0, [5.7796, 0.4443]), "3.0 -2.0")


def test_tabletop_gravity_compensation_holds_with_no_error():
    arm = al.tabletop_arm(damping=0.02)
    g = al.gravity_torques(arm, Q0)
    at(g, "5.4148 0.3174")
    np.testing.assert_allclose(al.forward_dynamics(arm, Q0, [0, 0], g), [0, 0], atol=1e-12)


def test_tabletop_payload_gravity_torques():
    arm, loaded = al.tabletop_arm(), al.tabletop_arm().with_payload(0.5)
    at(al.gravity_torques(arm, Q0), "5.41 0.32")
    at(al.gravity_torques(loaded, Q0), "7.01 0.63")


def test_tabletop_identification_coefficients():
    """g2 = b cos(q1 + q2) with b = m2 lc2 9.81; the payload's mass from the change in b."""
    q = np.array([deg([10, 20]), deg([-40, 75]), deg([100, -30])])
    b = al.gravity_torques(al.tabletop_arm(), q)[:, 1] / np.cos(q.sum(axis=1))
    b_loaded = (al.gravity_torques(al.tabletop_arm().with_payload(0.5), q)[:, 1]
                / np.cos(q.sum(axis=1)))
    at(b, "1.226 1.226 1.226")
    at(b_loaded, "2.453 2.453 2.453")
    at((b_loaded[0] - b[0]) / (9.81 * 0.25), "0.50")
    a = (al.gravity_torques(al.tabletop_arm(), q)[:, 0] - al.gravity_torques(
        al.tabletop_arm(), q)[:, 1]) / np.cos(q[:, 0])
    np.testing.assert_allclose(a, (2.0 * 0.15 + 1.0 * 0.30) * 9.81, rtol=1e-12)


# ---------------------------------------------------------------------------
# The rods-and-limits case: inverse dynamics of two 1 m, 1 kg rods, a tip force, torque limits

def test_rods_torque_mass_matrix_formula():
    arm = al.rod_arm()
    for q2 in np.linspace(-np.pi, np.pi, 7):
        M = al.mass_matrix(arm, [0.4, q2])
        np.testing.assert_allclose(M, [[5 / 3 + np.cos(q2), 1 / 3 + np.cos(q2) / 2],
                                       [1 / 3 + np.cos(q2) / 2, 1 / 3]], atol=1e-14)


def test_rods_torque_horizontal_acceleration_request():
    arm = al.rod_arm()
    parts = al.torque_parts(arm, [0, 0], [0, 0], [1, 0])
    at(parts["gravity"], "19.62 4.905")
    np.testing.assert_allclose(parts["inertia"], [8 / 3, 5 / 6], atol=1e-14)
    at(parts["total"], "22.286667 5.738333")
    at(al.inverse_dynamics(arm, [0, 0], [0, 0], [0, 0]), "19.62 4.905")


def test_rods_torque_tip_force_lever_arms_and_sign():
    arm = al.rod_arm()
    # J^T F = (2 Fy, Fy) for a vertical force at the horizontal pose
    np.testing.assert_allclose(al.static_torques(arm, [0, 0], [0, 5]), [10, 5], atol=1e-14)
    # the source's F = (0, +5) N pushes ON the arm: armlab's tip force is (0, -5)
    at(al.inverse_dynamics(arm, [0, 0], [0, 0], [0, 0], tip_force=[0, -5]), "9.62 -0.095")
    at(al.inverse_dynamics(arm, [0, 0], [0, 0], [0, 0], tip_force=[0, 5]), "29.62 9.905")


def test_rods_torque_velocity_product_formula():
    arm = al.rod_arm()
    rng = np.random.default_rng(1)
    for q, qd in zip(rng.uniform(-3, 3, (5, 2)), rng.uniform(-3, 3, (5, 2))):
        s2 = np.sin(q[1])
        np.testing.assert_allclose(
            al.coriolis_torques(arm, q, qd),
            [-0.5 * s2 * (2 * qd[0] * qd[1] + qd[1] ** 2), 0.5 * s2 * qd[0] ** 2], atol=1e-13)


def test_rods_torque_moving_preset_term_by_term():
    arm = al.rod_arm(damping=0.2)
    q, qd, qdd = deg([30, 60]), [1, -0.5], [1, -1]
    parts = al.torque_parts(arm, q, qd, qdd)
    at(parts["inertia"], "1.583333 0.250000")
    at(parts["velocity"], "0.324760 0.433013")
    at(parts["gravity"], "12.743564 0.000000")
    at(parts["friction"], "0.200000 -0.100000")
    at(parts["total"], "14.851657 0.583013")
    req, applied, acc = al.realized_acceleration(arm, q, qd, qdd, 25)
    at(acc, "1.0 -1.0")


@pytest.mark.parametrize("name, q, qd, qdd, opts, requested, applied, qdd_out", [
    ("accelerate", [0, 0], [0, 0], [1, 0], {}, "22.286667 5.738333", "22.286667 5.738333",
     "1.000000 0.000000"),
    ("hold", [0, 0], [0, 0], [0, 0], {}, "19.620000 4.905000", "19.620000 4.905000",
     "0.000000 0.000000"),
    ("gravity-free", [0, 0], [0, 0], [1, 0], {"gravity": 0}, "2.666667 0.833333",
     "2.666667 0.833333", "1.000000 0.000000"),
    ("supported", [0, 0], [0, 0], [0, 0], {"force_on_arm": [0, 5]}, "9.620000 -0.095000",
     "9.620000 -0.095000", "0.000000 0.000000"),
    ("moving", deg([30, 60]), [1, -0.5], [1, -1], {"damping": 0.2}, "14.851657 0.583013",
     "14.851657 0.583013", "1.000000 -1.000000"),
    ("limited", [0, 0], [0, 0], [1, 0], {"limit": 20}, "22.286667 5.738333",
     "20.000000 5.738333", "-2.920000 9.800000"),
])
def test_rods_torque_expected_output(name, q, qd, qdd, opts, requested, applied, qdd_out):
    arm = al.rod_arm(gravity=opts.get("gravity", 9.81), damping=opts.get("damping", 0.0))
    force_on_arm = opts.get("force_on_arm")
    tip = None if force_on_arm is None else -np.asarray(force_on_arm, float)
    req, app, acc = al.realized_acceleration(arm, q, qd, qdd, opts.get("limit", 25), tip)
    at(req, requested)
    at(app, applied)
    at(acc, qdd_out)


def test_rods_torque_clipping_recomputes_both_accelerations():
    arm = al.rod_arm()
    req, applied, acc = al.realized_acceleration(arm, [0, 0], [0, 0], [1, 0], 20)
    at(applied - req, "-2.286667 0.0")
    at(acc - [1, 0], "-3.92 9.8")
    M = al.mass_matrix(arm, [0, 0])
    np.testing.assert_allclose(M @ (acc - [1, 0]), applied - req, atol=1e-12)


def test_rods_torque_exercise1_vertical_arm():
    arm = al.rod_arm()
    q, tip = deg([90, 0]), [0, -5]                  # seed: F = (0, 5) N on the arm
    parts = al.torque_parts(arm, q, [0, 0], [1, 0], tip)
    np.testing.assert_allclose(parts["gravity"], 0, atol=1e-14)
    np.testing.assert_allclose(parts["tip"], 0, atol=1e-14)
    np.testing.assert_allclose(al.mass_matrix(arm, q), [[8 / 3, 5 / 6], [5 / 6, 1 / 3]])
    req, applied, acc = al.realized_acceleration(arm, q, [0, 0], [1, 0], 25, tip)
    at(req, "2.666667 0.833333")
    np.testing.assert_array_equal(applied, req)
    at(acc, "1.0 0.0")


def test_rods_torque_exercise2_clipped_elbow_request():
    arm = al.rod_arm(gravity=0)
    req, applied, acc = al.realized_acceleration(arm, [0, 0], [0, 0], [0, 2], 1.5)
    np.testing.assert_allclose(req, [5 / 3, 2 / 3], atol=1e-14)
    np.testing.assert_allclose(applied, [1.5, 2 / 3], atol=1e-14)
    np.testing.assert_allclose(applied - req, [-1 / 6, 0], atol=1e-14)
    np.testing.assert_allclose(acc, [-2 / 7, 19 / 7], atol=1e-13)
    at(acc, "-0.285714 2.714286")


# ---------------------------------------------------------------------------
# The torque-budget case: the torque budget of two rods, energy and power

def test_rods_horizontal_hold():
    arm = al.rod_arm()
    parts = al.torque_parts(arm, [0, 0], [0, 0], [0, 0])
    at(parts["gravity"], "19.620000 4.905000")
    at(parts["total"], "19.620000 4.905000")
    for key in ("inertia", "velocity", "friction"):
        at(parts[key], "0.0 0.0")
    M = al.mass_matrix(arm, [0, 0])
    at(M.ravel(), "2.666667 0.833333 0.833333 0.333333")
    at(np.linalg.det(M), "0.194444")
    at(al.kinetic_energy(arm, [0, 0], [0, 0]), "0.0")
    at(al.potential_energy(arm, [0, 0]), "0.0")
    at(parts["total"] @ [0, 0], "0.0")


def test_rods_mass_matrix_entries_and_determinant():
    for m in (0.5, 1.0, 1.37, 2.0):
        arm = al.rod_arm(m2=m)
        for q2 in np.linspace(-np.pi, np.pi, 9):
            M = al.mass_matrix(arm, [0.3, q2])
            np.testing.assert_allclose(M, [[1 / 3 + 4 * m / 3 + m * np.cos(q2),
                                            m / 3 + m * np.cos(q2) / 2],
                                           [m / 3 + m * np.cos(q2) / 2, m / 3]], atol=1e-13)
            det = m / 9 + m**2 * (1 / 3 - np.cos(q2) ** 2 / 4)
            np.testing.assert_allclose(np.linalg.det(M), det, rtol=1e-12)
            assert det >= m / 9 + m**2 / 12 - 1e-12
    # folding the elbow to 180 deg makes the coupling negative
    np.testing.assert_allclose(al.mass_matrix(al.rod_arm(), [0, np.pi])[0, 1], -1 / 6,
                               atol=1e-15)
    # only the elbow accelerates: the second column
    np.testing.assert_allclose(al.mass_matrix(al.rod_arm(), [0, 0]) @ [0, 1], [5 / 6, 1 / 3])


def test_rods_velocity_products():
    arm = al.rod_arm()
    q, qd = deg([30, -60]), [1, -0.5]
    h = 0.5 * np.sin(deg(-60))
    np.testing.assert_allclose(h, -np.sqrt(3) / 4)
    at(al.coriolis_torques(arm, q, qd), "-0.324760 -0.433013")
    at(al.coriolis_torques(arm, q, [0, 0]), "0.0 0.0")


def test_rods_gravity_sign_and_zeros():
    arm = al.rod_arm()
    at(al.gravity_torques(arm, [0, 0]), "19.62 4.905")
    at(al.gravity_torques(arm, [np.pi, 0]), "-19.62 -4.905")       # facing left
    np.testing.assert_allclose(al.gravity_torques(arm, [np.pi / 2, 0]), 0, atol=1e-14)
    np.testing.assert_allclose(al.gravity_torques(arm, [-np.pi / 2, 0]), 0, atol=1e-14)


def test_rods_damping():
    arm = al.rod_arm(damping=0.25)
    f = al.friction_torques(arm, [1, -0.5])
    at(f, "0.25 -0.125")
    at(f @ [1, -0.5], "0.3125")


def test_rods_bent_and_moving_budget_energy_and_power():
    arm = al.rod_arm(damping=0.25)
    q, qd, qdd = deg([30, -60]), np.array([1, -0.5]), np.array([0.5, -1])
    parts = al.torque_parts(arm, q, qd, qdd)
    at(parts["total"], "17.416659 3.648175")
    at([parts[k][0] for k in ("inertia", "velocity", "gravity", "friction")],
       "0.500000 -0.324760 16.991418 0.250000")
    at(al.kinetic_energy(arm, q, qd), "0.833333")
    at(al.potential_energy(arm, q), "4.905000")
    power = parts["total"] @ qd                                   # actuator power tau^T qd
    Mdot = al.mass_matrix_rate(arm, q, qd)
    rate = qd @ al.mass_matrix(arm, q) @ qdd + 0.5 * qd @ Mdot @ qd + qd @ parts["gravity"]
    loss = qd @ al.friction_torques(arm, qd)
    at(power, "15.592571")
    at(rate, "15.280071")
    at(loss, "0.312500")
    at(power - rate - loss, "0.0")
    np.testing.assert_allclose(power, rate + loss, atol=1e-12)


def test_rods_exercise1_heavier_second_rod():
    light, heavy = al.rod_arm(), al.rod_arm(m2=2.0)
    g = al.gravity_torques(heavy, [0, 0])
    at(g, "34.335 9.81")
    at(g - al.gravity_torques(light, [0, 0]), "14.715 4.905")
    np.testing.assert_allclose(heavy.inertia[1], 2 * light.inertia[1])


def test_rods_exercise2_elbow_only_and_zero_power():
    arm = al.rod_arm(gravity=0)
    tau = al.inverse_dynamics(arm, [0, 0], [0, 0], [0, 1])
    at(tau, "0.833333 0.333333")
    at(tau @ [0, 0], "0.0")


def test_rods_zero_gravity_hold():
    arm = al.rod_arm(gravity=0)
    parts = al.torque_parts(arm, [0, 0], [0, 0], [0, 0])
    for value in parts.values():
        np.testing.assert_array_equal(value, [0, 0])


# ---------------------------------------------------------------------------
# The statics case: static forces and joint torques

Q3 = deg([30, 60])


def test_statics_arm_wall_push_geometry_and_torques():
    arm = al.statics_arm()
    p = al.joint_positions(arm, Q3)
    at(p[1], "0.433 0.25")
    at(p[2], "0.433 0.65")
    tau = al.static_torques(arm, Q3, [10, 0])
    at(tau, "-6.5 -4.0")
    np.testing.assert_allclose(tau, [-0.65 * 10, -0.4 * 10])      # moment arms


def test_statics_arm_finite_displacement_work_table():
    arm = al.statics_arm()
    u = np.random.default_rng(0).standard_normal(2)
    at(u / np.linalg.norm(u), "0.6894 -0.7244")
    eps = np.array([1e-1, 1e-2, 1e-3, 1e-4])
    joint, tip, rel = al.virtual_work_check(arm, Q3, [10, 0], u, eps)
    assert [f"{x:.4e}" for x in joint] == ["-1.5837e-01", "-1.5837e-02", "-1.5837e-03",
                                           "-1.5837e-04"]
    assert [f"{x:.4e}" for x in tip] == ["-1.6852e-01", "-1.5940e-02", "-1.5847e-03",
                                         "-1.5838e-04"]
    assert [f"{x:.1e}" for x in rel] == ["-6.4e-02", "-6.5e-03", "-6.5e-04", "-6.5e-05"]


def test_statics_arm_central_difference_of_the_tip_work():
    arm = al.statics_arm()
    F, h = np.array([10.0, 0.0]), 1e-6
    grad = [(al.tip_position(arm, Q3 + h * e) - al.tip_position(arm, Q3 - h * e)) @ F / (2 * h)
            for e in np.eye(2)]
    at(grad, "-6.5 -4.0")


def test_statics_arm_gravity_two_ways():
    arm = al.statics_arm()
    g = al.gravity_torques(arm, Q3)
    at(g, "14.8675 0.0")
    h, (m1, m2), (lc1, lc2), L1, g0 = 1e-6, arm.masses, arm.com, arm.lengths[0], 9.81

    def P(q):
        return m1 * g0 * lc1 * np.sin(q[0]) + m2 * g0 * (L1 * np.sin(q[0])
                                                        + lc2 * np.sin(q[0] + q[1]))

    at([(P(Q3 + h * e) - P(Q3 - h * e)) / (2 * h) for e in np.eye(2)], "14.8675 0.0")
    # gravity is J^T of the weights: -sum Jc_i^T (0, -m_i g0)
    Jc = al.com_jacobians(arm, Q3)
    np.testing.assert_allclose(sum(-Jc[i].T @ [0, -m * g0] for i, m in enumerate(arm.masses)),
                               g, atol=1e-12)


def test_statics_arm_stretched_jacobian_has_rank_one():
    J = al.jacobian(al.statics_arm(), [0, 0])
    np.testing.assert_allclose(J, [[0, 0], [0.9, 0.4]], atol=1e-15)
    assert np.linalg.matrix_rank(J) == 1


@pytest.mark.parametrize("q2, sigma, tau_x, tau_y, max_fx, error", [
    (0, "0.9849 0", "0 0", "9.0 4.0", "inf", "inf"),
    (1, "0.9848 0.0035", "-0.07 -0.07", "9.0 4.0", "2865", "186"),
    (5, "0.9840 0.0177", "-0.35 -0.35", "8.98 3.98", "574", "37"),
    (30, "0.9515 0.1051", "-2.0 -2.0", "8.46 3.46", "100", "6.3"),
    (90, "0.6986 0.2863", "-4.0 -4.0", "5.0 0.0", "50", "2.4"),
])
def test_statics_arm_singularity_table(q2, sigma, tau_x, tau_y, max_fx, error):
    arm, q = al.statics_arm(), deg([0, q2])
    at(al.singular_values(arm, q), sigma)
    at(al.static_torques(arm, q, [10, 0]), tau_x)         # along the arm
    at(al.static_torques(arm, q, [0, 10]), tau_y)         # across it
    at(al.max_tip_force(arm, q, [1, 0], 20), max_fx)
    at(al.force_error_bound(arm, q, 0.5), error)


def test_statics_arm_singularity_remarks():
    arm = al.statics_arm()
    # 57 times more push one degree from stretched than at a right angle
    ratio = al.max_tip_force(arm, deg([0, 1]), [1, 0], 20) / al.max_tip_force(
        arm, deg([0, 90]), [1, 0], 20)
    assert int(ratio) == 57
    # the push changes sign across the singularity
    at(al.static_torques(arm, deg([0, -1]), [10, 0]), "0.07 0.07")
    # largest force gain 1 / sigma_2
    at(1 / al.singular_values(arm, deg([0, 90]))[1], "3.5")
    at(1 / al.singular_values(arm, deg([0, 1]))[1], "282")


def test_statics_arm_residual_torque_at_the_stretched_pose():
    arm = al.statics_arm()
    force, residual = al.tip_force_from_torques(arm, [0, 0], [1, 0])
    at(residual, "-0.16 0.37")
    # the balanced part lies along (0.9, 0.4), the range of J^T
    balanced = residual + [1, 0]
    np.testing.assert_allclose(balanced[0] * 0.4 - balanced[1] * 0.9, 0, atol=1e-12)
    # and no tip force does better than the least-squares one
    J = al.jacobian(arm, [0, 0])
    for F in np.random.default_rng(2).normal(0, 3, (20, 2)):
        assert np.linalg.norm(J.T @ F - [1, 0]) >= np.linalg.norm(residual) - 1e-12


# ---------------------------------------------------------------------------
# The conventions case: a library's conventions

def test_conventions_friction_sign_and_gear_ratio():
    arm = al.PlanarArm([0.3, 0.2], [1, 1], damping=[0.01, 0.02], coulomb=[0.1, 0.2],
                       gear_ratio=[50, 1])
    qd = np.array([0.5, -2.0])
    f = al.friction_torques(arm, qd)
    np.testing.assert_allclose(f, [50**2 * 0.01 * 0.5 + 50 * 0.1, -(0.02 * 2 + 0.2)])
    library = -f               # the conventions case's library returns the friction torque itself
    assert library[0] < 0 and library[1] > 0
    # a direct-drive joint (G = 1) feels the motor values unchanged
    np.testing.assert_allclose(al.friction_torques(al.PlanarArm([1], [1], damping=0.3,
                                                                coulomb=0.1), [2.0]), [0.7])


def test_conventions_payload_capacity_meanings():
    arm = al.rod_arm()
    # horizontal: positive multiples, the smallest names the limiting joint
    cap = al.payload_capacity(arm, [0, 0], 25)
    at(cap, "0.2742 2.0484")
    assert np.argmin(cap) == 0
    np.testing.assert_allclose(al.gravity_torques(arm.with_payload(cap[0]), [0, 0])[0], 25)
    # pointing straight up: no joint carries the load
    assert np.all(np.isinf(al.payload_capacity(arm, [np.pi / 2, 0], 25)))
    # own weight already beyond a 10 N m shoulder limit
    cap = al.payload_capacity(arm, [0, 0], [10, 25])
    assert np.isnan(cap[0]) and np.isfinite(cap[1])
    # limits as minima then maxima, and in kg for the default unit load
    cap = al.payload_capacity(arm, [np.pi, 0], [[-25, -25], [25, 25]])
    at(cap, "0.2742 2.0484")


def test_conventions_payload_merges_into_the_last_link():
    arm = al.tabletop_arm().with_payload(0.5)
    assert arm.masses == (2.0, 1.5)
    at(arm.com[1], "0.166667")          # (1.0 * 0.125 + 0.5 * 0.25) / 1.5
    at(arm.inertia[1], "0.010417")      # rod about its centre + both parallel-axis shifts
