"""armlab.spatial on its own: the planar chapters' numbers as a special case, energy
conserved by a frictionless simulation to the integrator's order, the payload, the
sign of the tip wrench and the ValueErrors.
"""

import numpy as np
import pytest

import armlab as al
import armlab.spatial as sp

TOL = 1e-12


def agree(ours, theirs, tol=TOL):
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=tol * (1 + np.max(np.abs(theirs))))


def planar_chain(arm):
    """The planar arm through armlab.to_urdf, with a tip link welded at the last link's end."""
    return sp.planar_chain(arm)


PLANAR = [al.tabletop_arm(), al.statics_arm(), al.rod_arm(m2=2.0, gravity=[3.0, -9.0]),
          al.PlanarArm(lengths=(0.4, 0.3, 0.2, 0.1), masses=(3.0, 2.0, 1.0, 0.5),
                       com=(0.1, 0.2, 0.05, 0.08), inertia=(0.05, 0.02, 0.01, 0.002))]


@pytest.mark.parametrize("arm", PLANAR, ids=["tabletop", "statics", "rods", "four"])
def test_planar_arm_is_a_special_case(arm):
    """The planar functions' numbers, from the planar arm's URDF in the spatial code"""
    chain = planar_chain(arm)
    rng = np.random.default_rng(arm.n)
    q, qd, qdd, tau = rng.uniform(-2, 2, (4, 5, arm.n))          # a batch of five states
    force = rng.uniform(-20, 20, (5, 2))
    wrench = np.concatenate([np.zeros((5, 3)), force, np.zeros((5, 1))], axis=-1)
    agree(sp.forward_kinematics(chain, q)[..., :2, 3], al.tip_position(arm, q))
    agree(sp.tip_jacobian(chain, q)[..., 3:5, :], al.jacobian(arm, q))
    agree(sp.tip_jacobian(chain, q)[..., 2, :], np.ones((5, arm.n)))   # w_z = sum qd
    agree(sp.static_torques(chain, q, wrench), al.static_torques(arm, q, force))
    agree(sp.mass_matrix(chain, q), al.mass_matrix(arm, q))
    agree(sp.coriolis_torques(chain, q, qd), al.coriolis_torques(arm, q, qd))
    agree(sp.gravity_torques(chain, q), al.gravity_torques(arm, q))
    agree(sp.inverse_dynamics(chain, q, qd, qdd, wrench),
          al.inverse_dynamics(arm, q, qd, qdd, tip_force=force))
    agree(sp.forward_dynamics(chain, q, qd, tau, wrench),
          al.forward_dynamics(arm, q, qd, tau, tip_force=force), tol=1e-10)
    agree(sp.kinetic_energy(chain, q, qd), al.kinetic_energy(arm, q, qd))
    agree(sp.potential_energy(chain, q), al.potential_energy(arm, q))


def rk4_energy_drift(chain, q, qd, h, duration):
    """Largest change of the total energy over a frictionless run (tau = 0) by classical
    RK4 at step ``h`` [s], for a batch of starts at once."""
    zero = np.zeros_like(q)

    def f(q, qd):
        return qd, sp.forward_dynamics(chain, q, qd, zero)

    def energy(q, qd):
        return sp.kinetic_energy(chain, q, qd) + sp.potential_energy(chain, q)

    e0, drift = energy(q, qd), 0.0
    for _ in range(round(duration / h)):
        k1 = f(q, qd)
        k2 = f(q + h / 2 * k1[0], qd + h / 2 * k1[1])
        k3 = f(q + h / 2 * k2[0], qd + h / 2 * k2[1])
        k4 = f(q + h * k3[0], qd + h * k3[1])
        q = q + h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        qd = qd + h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        drift = np.maximum(drift, np.abs(energy(q, qd) - e0))
    return drift


def test_frictionless_simulation_conserves_energy_to_fourth_order():
    """The Panda falling freely from 8 starts for 0.2 s: halving RK4's step divides the
    energy error by 2^4 = 16 (15.8 to 16.4 measured; 14 to 18 allowed), and it stays
    below 1e-7 J at 2.5 ms (5.5e-8 J measured)"""
    chain = sp.panda()
    rng = np.random.default_rng(3)
    q, qd = rng.uniform(-1, 1, (2, 8, 7))
    coarse = rk4_energy_drift(chain, q, qd, 5e-3, 0.2)
    fine = rk4_energy_drift(chain, q, qd, 2.5e-3, 0.2)
    assert np.all(fine < 1e-7), fine
    ratio = coarse / fine
    assert np.all((14 < ratio) & (ratio < 18)), ratio
