"""armlab.spatial.wrench_limit against independent routes: a linear program over the
scale of the wrench, and the payload chain's gravity torques at the limit."""

import numpy as np
import pytest
from scipy.optimize import linprog

import armlab.spatial as sp


def scale_by_linprog(chain, q, wrench, gravity):
    """max s subject to -effort <= g + s J^T W <= effort, s >= 0, by scipy's LP solver."""
    g = sp.gravity_torques(chain, q) if gravity else np.zeros(chain.n)
    a = sp.tip_jacobian(chain, q).T @ wrench
    A = np.concatenate([a, -a])[:, None]
    b = np.concatenate([chain.effort - g, chain.effort + g])
    res = linprog([-1.0], A_ub=A, b_ub=b, bounds=[(0, None)], method="highs")
    assert res.status == 0
    return res.x[0]


@pytest.mark.parametrize("make", [sp.so101, sp.panda])
@pytest.mark.parametrize("gravity", [True, False])
def test_wrench_limit_is_the_linear_programs_optimum(make, gravity):
    chain = make()
    rng = np.random.default_rng(chain.n)
    for _ in range(5):
        q = rng.uniform(chain.lower, chain.upper) * 0.5
        W = rng.normal(size=6) * [0.5, 0.5, 0.5, 10, 10, 10]
        s, joint = sp.wrench_limit(chain, q, W, gravity=gravity)
        assert s == pytest.approx(scale_by_linprog(chain, q, W, gravity), rel=1e-9)
        g = sp.gravity_torques(chain, q) if gravity else 0
        tau = g + s * sp.static_torques(chain, q, W)
        assert abs(tau[joint]) == pytest.approx(chain.effort[joint], rel=1e-12)
        assert np.all(np.abs(tau) <= chain.effort * (1 + 1e-12))


def test_payload_at_the_limit_loads_the_limiting_joint_fully():
    """A payload of the limit's mass, as the chain's own inertia, needs the rated torque"""
    arm, q = sp.so101(), np.array([0.3, -0.4, 0.6, 0.2, 0.1])
    kg, joint = sp.wrench_limit(arm, q, [0, 0, 0, 0, 0, 9.81])
    tau = sp.gravity_torques(arm.with_payload(kg), q)
    assert abs(tau[joint]) == pytest.approx(arm.effort[joint], rel=1e-12)


def test_unfelt_wrench_and_bad_input():
    arm = sp.so101()
    # no wrench at all: no joint feels it
    assert sp.wrench_limit(arm, np.zeros(5), np.zeros(6), gravity=False) == (np.inf, -1)
    with pytest.raises(ValueError, match="wrench"):
        sp.wrench_limit(arm, np.zeros(5), np.zeros(3))
    with pytest.raises(ValueError, match="q"):
        sp.wrench_limit(arm, np.zeros((2, 5)), np.zeros(6))
    weak = sp.load_urdf('''<robot name="p"><link name="base"/>
      <link name="bob"><inertial><origin xyz="1 0 0"/><mass value="2"/>
        <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
      <joint name="pivot" type="revolute"><parent link="base"/><child link="bob"/>
        <axis xyz="0 1 0"/><limit effort="1" velocity="2" lower="-3" upper="3"/></joint>
      </robot>''')
    with pytest.raises(ValueError, match="gravity alone"):
        sp.wrench_limit(weak, [0.0], np.zeros(6))
