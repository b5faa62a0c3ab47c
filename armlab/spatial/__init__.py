"""Spatial chains: serial arms of revolute and prismatic joints in three dimensions.

A :class:`Chain` is read from a URDF file (:func:`load_urdf`); the book's real
arms come from their published files (:func:`so101`, :func:`panda`). Plain
functions over the chain, chain first, then the state, as in the planar
package: forward kinematics and the space, body and tip Jacobians; statics
(``tau = J^T W`` for a wrench the tip applies, the ellipsoids); dynamics by
the recursive Newton-Euler, composite-rigid-body and articulated-body
algorithms, in Featherstone's notation; the payload the arm holds within its
rated torques (:func:`payload_capacity`); a simulation with the book's
integrators (:func:`simulate`).

Conventions: SI units, radians; twists ``(w, v)`` and wrenches ``(m, f)``,
angular part first (Modern Robotics and Featherstone); z up, gravity
``(0, 0, -9.81)`` m/s^2 by default. Every function takes ``q`` of shape
``(n,)`` or ``(..., n)``.

>>> import armlab.spatial as sp
>>> arm = sp.so101()
>>> sp.gravity_torques(arm, [0, 0, 0, 0, 0]).round(4)
array([-0.    , -0.5386, -0.4527, -0.1171, -0.    ])
"""

from armlab.spatial.chain import Chain, load_urdf
from armlab.spatial.dynamics import (coriolis_torques, forward_dynamics, gravity_torques,
                                     inverse_dynamics, kinetic_energy, mass_matrix,
                                     potential_energy)
from armlab.spatial.inertia import mass_properties, spatial_inertia
from armlab.spatial.kinematics import (body_jacobian, forward_kinematics, joint_poses,
                                       space_jacobian, tip_jacobian)
from armlab.spatial.payload import payload_capacity, payload_torques
from armlab.spatial.robots import panda, planar_chain, so101
from armlab.spatial.simulation import Motion, simulate
from armlab.spatial.se3 import ad, adjoint, inverse, transform, twist_cross, wrench_cross
from armlab.spatial.so3 import rotation, rpy_rotation, skew
from armlab.spatial.statics import (force_ellipsoid, manipulability, static_torques,
                                    velocity_ellipsoid, wrench_limit)

__all__ = [
    "Chain", "load_urdf", "so101", "panda", "planar_chain",
    "skew", "rotation", "rpy_rotation", "transform", "inverse", "adjoint", "ad", "twist_cross",
    "wrench_cross", "spatial_inertia", "mass_properties",
    "joint_poses", "forward_kinematics", "space_jacobian", "body_jacobian", "tip_jacobian",
    "static_torques", "wrench_limit", "manipulability", "velocity_ellipsoid", "force_ellipsoid",
    "inverse_dynamics", "mass_matrix", "forward_dynamics", "gravity_torques",
    "coriolis_torques", "kinetic_energy", "potential_energy",
    "payload_torques", "payload_capacity", "Motion", "simulate",
]
