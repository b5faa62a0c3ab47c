"""Agreement with Pinocchio (test-only dependency) on random 2- to 7-link arms.

The arm is written as a URDF with revolute joints about z; gravity is set to
the arm's planar vector. Pinocchio ignores joint friction, so these arms have
none. Its external forces act *on* the robot, in each joint's local frame:
armlab's ``tip_force`` (applied *by* the tip) enters as its negative, moved to
the last joint's frame and to the tip point.
"""

import numpy as np
import pytest
from arm_strategies import arm_and_state
from hypothesis import given, settings

import armlab as al

pin = pytest.importorskip("pinocchio")

TOL = 1e-12


def model_of(arm):
    model = pin.buildModelFromXML(al.to_urdf(arm))
    model.gravity.linear = np.array([*arm.gravity, 0.0])
    return model, model.createData()


def external(model, arm, q, tip_force):
    """Pinocchio's fext: the force on the robot, -tip_force, at the tip, last joint's frame."""
    phi = np.sum(q)
    c, s = np.cos(phi), np.sin(phi)
    on_robot = -np.asarray(tip_force, float)
    fx, fy = c * on_robot[0] + s * on_robot[1], -s * on_robot[0] + c * on_robot[1]
    fext = pin.StdVec_Force()
    for _ in range(model.njoints):
        fext.append(pin.Force.Zero())
    moment = arm.lengths[-1] * fy                   # tip at (L, 0, 0) in the last frame
    fext[model.njoints - 1] = pin.Force(np.array([fx, fy, 0.0]), np.array([0.0, 0.0, moment]))
    return fext


def agree(ours, theirs, tol=TOL, *terms):
    """Within ``tol`` of the largest value compared, or of the largest of ``terms`` (the
    quantities the compared ones were computed from, whose rounding they carry)."""
    scale = 1.0 + max(np.max(np.abs(t)) for t in (theirs, *terms))
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=tol * scale)


def agree_accelerations(arm, q, qd, tau, ours, theirs, force=None):
    """Accelerations agree as far as M(q) determines them: 1e-12 of the torques in the balance
    M qdd = tau - c - g - J^T F (M qdd may be much smaller than they are), cond(M) 1e-12 in qdd."""
    M = al.mass_matrix(arm, q)
    terms = [tau, al.coriolis_torques(arm, q, qd), al.gravity_torques(arm, q)]
    if force is not None:
        terms.append(al.static_torques(arm, q, force))
    agree(M @ ours, M @ theirs, TOL, *terms)
    agree(ours, theirs, TOL * np.linalg.cond(M))


CASES = settings(max_examples=60, deadline=None)
ARMS = arm_and_state(min_links=2, max_links=7, friction=False)


@CASES
@given(ARMS)
def test_inverse_dynamics_matches_pinocchio_rnea(case):
    arm, q, qd, qdd, _, force = case
    model, data = model_of(arm)
    theirs = pin.rnea(model, data, q, qd, qdd)
    agree(al.rnea(arm, q, qd, qdd), theirs)
    agree(al.inverse_dynamics(arm, q, qd, qdd), theirs)


@CASES
@given(ARMS)
def test_tip_force_matches_pinocchio_external_force(case):
    arm, q, qd, qdd, tau, force = case
    model, data = model_of(arm)
    fext = external(model, arm, q, force)
    theirs = pin.rnea(model, data, q, qd, qdd, fext)
    agree(al.rnea(arm, q, qd, qdd, force), theirs)
    agree(al.inverse_dynamics(arm, q, qd, qdd, force), theirs)
    theirs = pin.aba(model, data, q, qd, tau, fext)
    agree_accelerations(arm, q, qd, tau, al.forward_dynamics(arm, q, qd, tau, force), theirs,
                        force)


@CASES
@given(ARMS)
def test_mass_matrix_matches_crba(case):
    arm, q, *_ = case
    model, data = model_of(arm)
    upper = pin.crba(model, data, q)
    theirs = np.triu(upper) + np.triu(upper, 1).T
    agree(al.mass_matrix(arm, q), theirs)


@CASES
@given(ARMS)
def test_gravity_and_nonlinear_effects_match(case):
    arm, q, qd, *_ = case
    model, data = model_of(arm)
    agree(al.gravity_torques(arm, q), pin.computeGeneralizedGravity(model, data, q))
    agree(al.coriolis_torques(arm, q, qd) + al.gravity_torques(arm, q),
          pin.nonLinearEffects(model, data, q, qd))


@CASES
@given(ARMS)
def test_forward_dynamics_matches_aba(case):
    arm, q, qd, _, tau, _ = case
    model, data = model_of(arm)
    theirs = pin.aba(model, data, q, qd, tau)
    agree_accelerations(arm, q, qd, tau, al.forward_dynamics(arm, q, qd, tau), theirs)


LONG_ARMS = arm_and_state(min_links=8, max_links=12, friction=False)


@CASES
@given(LONG_ARMS)
def test_forward_dynamics_of_long_arms_matches_aba(case):
    """From 8 links armlab's forward dynamics runs the articulated-body algorithm itself
    (one state on floats, a batch on arrays): both agree with Pinocchio's, with and without
    a push at the tip."""
    arm, q, qd, _, tau, force = case
    model, data = model_of(arm)
    theirs = pin.aba(model, data, q, qd, tau)
    agree_accelerations(arm, q, qd, tau, al.forward_dynamics(arm, q, qd, tau), theirs)
    batch = al.forward_dynamics(arm, np.tile(q, (40, 1)), qd, tau)
    agree_accelerations(arm, q, qd, tau, batch[17], theirs)
    pushed = pin.aba(model, data, q, qd, tau, external(model, arm, q, force))
    agree_accelerations(arm, q, qd, tau, al.forward_dynamics(arm, q, qd, tau, force), pushed,
                        force)


@CASES
@given(ARMS)
def test_energies_match(case):
    arm, q, qd, *_ = case
    model, data = model_of(arm)
    agree(al.kinetic_energy(arm, q, qd), pin.computeKineticEnergy(model, data, q, qd))
    pin.computePotentialEnergy(model, data, q)
    agree(al.potential_energy(arm, q), data.potential_energy)


def test_urdf_model_is_the_book_arm():
    """The translation itself: the table-top case's worked instant through Pinocchio."""
    arm = al.tabletop_arm()
    model, data = model_of(arm)
    q = np.radians([30, 45])
    assert model.nq == model.nv == 2
    np.testing.assert_allclose(pin.rnea(model, data, q, np.array([1.0, 2.0]),
                                        np.array([3.0, -2.0])), [5.7796, 0.4443], atol=5e-5)


@CASES
@given(ARMS)
def test_joint_reactions_match_pinocchio_joint_forces(case):
    """At rest (zero speed and acceleration) Pinocchio's data.f[i], the spatial force that body
    i's parent applies to it through joint i in joint i's frame, is armlab's reaction: its linear
    part turned into the world frame is the force, its moment about the joint's z axis the joint
    torque, and nothing is left out of the plane"""
    arm, q, *_, force = case
    model, data = model_of(arm)
    zero = np.zeros(arm.n)
    tau = pin.rnea(model, data, q, zero, zero, external(model, arm, q, force))
    pin.forwardKinematics(model, data, q)
    ours_force, ours_moment = al.joint_reactions(arm, q, force)
    theirs_force = np.array([data.oMi[i].rotation @ data.f[i].linear for i in range(1, arm.n + 1)])
    theirs_moment = np.array([data.f[i].angular for i in range(1, arm.n + 1)])
    agree(ours_force, theirs_force[:, :2])
    agree(ours_moment, theirs_moment[:, 2])
    agree(ours_moment, tau)
    agree(np.zeros((arm.n, 3)), np.column_stack([theirs_force[:, 2], theirs_moment[:, :2]]))


@CASES
@given(ARMS)
def test_regressor_matches_pinocchios_joint_torque_regressor(case):
    """Pinocchio's regressor has ten standard parameters per body, in the body's frame at its
    joint (x along the link): m, m c (3), and the inertia about the joint (6). The planar arm's
    base parameters are two of them, Zj = Izz_j and Xj = m c_x,j, with every mass folded into
    the link before it; so armlab's Z and X columns are Pinocchio's Izz and m c_x columns, each
    mass column is the previous link's mass, m c_x and Izz columns at L and L^2 (the first
    one zero), and the columns of motion out of the plane are zero"""
    arm, q, qd, qdd, _, _ = case
    model, data = model_of(arm)
    theirs = pin.computeJointTorqueRegressor(model, data, q, qd, qdd)      # (n, 10 n)
    ours = al.dynamics_regressor(arm, q, qd, qdd)                         # (n, 2 n)
    scale = 1.0 + np.abs(theirs).max()
    body = theirs.reshape(arm.n, arm.n, 10)              # joint, body, standard parameter
    agree(ours[:, 0::2], body[:, :, 9])                  # Z_j  <->  Izz_j
    agree(ours[:, 1::2], body[:, :, 1])                  # X_j  <->  m c_x,j
    for j in range(arm.n):
        if j == 0:
            expected = np.zeros(arm.n)
        else:
            L = arm.lengths[j - 1]
            expected = body[:, j - 1, 0] + L * body[:, j - 1, 1] + L**2 * body[:, j - 1, 9]
        np.testing.assert_allclose(body[:, j, 0], expected, rtol=0, atol=TOL * scale)
    np.testing.assert_allclose(body[:, :, 3:9], 0.0, rtol=0, atol=TOL * scale)
    standard = np.concatenate([model.inertias[i].toDynamicParameters()
                               for i in range(1, model.njoints)])
    agree(ours @ al.base_parameters(arm), theirs @ standard)
