"""armlab.spatial against Pinocchio (a test-only dependency), to 1e-10.

On 20 random chains of 1 to 10 joints (tests/spatial_chains.py: random axes, offsets,
masses, inertia tensors, prismatic joints, welded links) and on the book's real arms,
loaded by both from the same URDF text. Pinocchio orders spatial vectors (linear,
angular); armlab.spatial (angular, linear). Its external forces act *on* the robot;
armlab's tip wrench is what the tip applies, so it enters Pinocchio negated.
Each state is checked alone and inside a batch of three.
"""

import numpy as np
import pytest
from spatial_chains import random_chain_urdf

import armlab.spatial as sp

pin = pytest.importorskip("pinocchio")

TOL = 1e-10
SEEDS = range(20)


def agree(ours, theirs, tol=TOL):
    scale = 1.0 + np.max(np.abs(theirs))
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=tol * scale)


def random_case(seed):
    """A random chain (ours and Pinocchio's from one URDF text) and a state."""
    rng = np.random.default_rng(seed)
    n = 1 + seed % 10
    text = random_chain_urdf(rng, n)
    chain = sp.load_urdf(text, base="base", tip="tip")
    model = pin.buildModelFromXML(text)
    assert model.nq == model.nv == n
    q, qd, qdd, tau = rng.uniform(-2, 2, (4, n))
    wrench = rng.uniform(-10, 10, 6)
    return chain, model, "tip", (q, qd, qdd, tau, wrench)


def robot_case(name):
    """The book's arm with its gripper joints locked at zero, as armlab's loader holds them."""
    chain = getattr(sp, name)()
    text = (sp.robots.URDF_DIR / f"{name}.urdf").read_text()
    full = pin.buildModelFromXML(text)
    side = [full.getJointId(j) for j in full.names[1:] if j not in chain.joints]
    model = pin.buildReducedModel(full, side, pin.neutral(full))
    rng = np.random.default_rng(7)
    state = (*rng.uniform(-1.5, 1.5, (4, chain.n)), rng.uniform(-10, 10, 6))
    return chain, model, chain.tip_link, state


CASES = [pytest.param(lambda s=s: random_case(s), id=f"chain{s}") for s in SEEDS] + [
    pytest.param(lambda: robot_case("so101"), id="so101"),
    pytest.param(lambda: robot_case("panda"), id="panda")]


@pytest.fixture(params=CASES)
def case(request):
    return request.param()


def batched(f, chain, *states):
    """``f`` on a batch of three copies of the state (the middle one checked) and alone."""
    batch = [np.stack([s * 0.5, s, s * 1.5]) for s in states]
    whole = f(chain, *batch)
    alone = f(chain, *states)
    np.testing.assert_allclose(whole[1], alone, rtol=0, atol=1e-13 * (1 + np.abs(alone).max()))
    return alone


def swap(J):
    """Pinocchio's (linear, angular) rows to (angular, linear), as a (6, n) matrix."""
    J = np.reshape(J, (6, -1))
    return np.concatenate([J[3:], J[:3]])


def test_forward_kinematics_and_jacobians(case):
    chain, model, tip, (q, *_) = case
    data = model.createData()
    fid = model.getFrameId(tip)
    pin.computeJointJacobians(model, data, q)
    pin.framesForwardKinematics(model, data, q)
    agree(batched(sp.forward_kinematics, chain, q), data.oMf[fid].homogeneous)
    poses = batched(sp.joint_poses, chain, q)
    for i in range(chain.n):
        agree(poses[i], data.oMi[i + 1].homogeneous)
    agree(batched(sp.space_jacobian, chain, q),
          swap(pin.getFrameJacobian(model, data, fid, pin.WORLD)))
    agree(batched(sp.body_jacobian, chain, q),
          swap(pin.getFrameJacobian(model, data, fid, pin.LOCAL)))
    agree(batched(sp.tip_jacobian, chain, q),
          swap(pin.getFrameJacobian(model, data, fid, pin.LOCAL_WORLD_ALIGNED)))


def test_mass_matrix_gravity_and_velocity_products(case):
    chain, model, _, (q, qd, *_) = case
    data = model.createData()
    upper = pin.crba(model, data, q)
    agree(batched(sp.mass_matrix, chain, q), np.triu(upper) + np.triu(upper, 1).T)
    g = pin.computeGeneralizedGravity(model, data, q)
    agree(batched(sp.gravity_torques, chain, q), g)
    agree(batched(sp.coriolis_torques, chain, q, qd), pin.nonLinearEffects(model, data, q, qd) - g)


def pushed(model, data, tip, q, wrench):
    """Pinocchio's fext: -wrench (applied at the tip point, world axes) on the last joint."""
    pin.framesForwardKinematics(model, data, q)
    p = data.oMf[model.getFrameId(tip)].translation
    moment, force = -wrench[:3], -wrench[3:]
    at_origin = pin.Force(force, moment + np.cross(p, force))         # world frame, origin
    fext = pin.StdVec_Force()
    for _ in range(model.njoints):
        fext.append(pin.Force.Zero())
    fext[model.njoints - 1] = data.oMi[model.njoints - 1].actInv(at_origin)
    return fext


def test_inverse_dynamics(case):
    chain, model, tip, (q, qd, qdd, _, wrench) = case
    data = model.createData()
    agree(batched(sp.inverse_dynamics, chain, q, qd, qdd), pin.rnea(model, data, q, qd, qdd))
    theirs = pin.rnea(model, data, q, qd, qdd, pushed(model, data, tip, q, wrench))
    ours = batched(lambda c, q, qd, qdd, w: sp.inverse_dynamics(c, q, qd, qdd, w),
                   chain, q, qd, qdd, wrench)
    agree(ours, theirs)


def test_forward_dynamics(case):
    chain, model, tip, (q, qd, _, tau, wrench) = case
    data = model.createData()
    M = sp.mass_matrix(chain, q)

    def agree_accelerations(ours, theirs):
        agree(M @ ours, M @ theirs)
        agree(ours, theirs, tol=TOL * np.linalg.cond(M))

    agree_accelerations(batched(sp.forward_dynamics, chain, q, qd, tau),
                        pin.aba(model, data, q, qd, tau))
    theirs = pin.aba(model, data, q, qd, tau, pushed(model, data, tip, q, wrench))
    agree_accelerations(batched(sp.forward_dynamics, chain, q, qd, tau, wrench), theirs)


def test_static_torques_and_energies(case):
    chain, model, tip, (q, qd, _, _, wrench) = case
    data = model.createData()
    zero = np.zeros(chain.n)
    no_gravity = model.copy()
    no_gravity.gravity.linear = np.zeros(3)
    nd = no_gravity.createData()
    agree(batched(sp.static_torques, chain, q, wrench),
          pin.rnea(no_gravity, nd, q, zero, zero, pushed(no_gravity, nd, tip, q, wrench)))
    pin.framesForwardKinematics(model, data, q)
    R = data.oMf[model.getFrameId(tip)].rotation
    in_tip = np.concatenate([R.T @ wrench[:3], R.T @ wrench[3:]])
    agree(sp.static_torques(chain, q, in_tip, frame="tip"), sp.static_torques(chain, q, wrench))
    agree(batched(sp.kinetic_energy, chain, q, qd), pin.computeKineticEnergy(model, data, q, qd))
    agree(batched(sp.potential_energy, chain, q), pin.computePotentialEnergy(model, data, q))
