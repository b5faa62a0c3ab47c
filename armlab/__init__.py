"""armlab: statics and dynamics of robot arms, for the armlab teaching book.

Plain functions over one immutable :class:`PlanarArm`, arm first, then the
state, then loads. SI units, radians. Every function broadcasts over leading
batch dimensions. ``tip_force`` is always the force the arm's tip applies to
the environment.

``armlab.plots`` and ``armlab.labs`` need matplotlib and ipywidgets and are
not imported here, so ``import armlab`` stays light.
"""

from armlab.arm import PlanarArm, rod_arm, statics_arm, tabletop_arm
from armlab.control import (Controller, computed_torque, feedforward_pid, pd, pd_gravity,
                            pid)
from armlab.dynamics import (coriolis_torques, forward_dynamics, friction_torques,
                             gravity_torques, inverse_dynamics, kinetic_energy, mass_matrix,
                             mass_matrix_rate, potential_energy, rnea, torque_parts)
from armlab.energy import PowerBalance, power_balance
from armlab.gravity import (gravity_shares, gravity_stiffness, mount_gravity, mounted,
                            payload_torques, pd_sag)
from armlab.identification import (DynamicsFit, GravityFit, base_parameter_names, base_parameters,
                                   dynamics_regressor, fit_dynamics, fit_gravity,
                                   gravity_parameters, gravity_regressor, holding_runs,
                                   holding_torques, payload_mass)
from armlab.kinematics import (com_jacobians, com_positions, inverse_kinematics, jacobian,
                               joint_positions, tip_position)
from armlab.lagrange import (InertiaConstants, christoffel_symbols, coriolis_matrix,
                             inertia_constants, mass_matrix_derivatives, mass_matrix_det)
from armlab.limits import (CapacityMap, DurationLimit, JointDrive, Motor, capacity_map,
                           clip_torques, mass_matrix_with_rotors, payload_capacity, pose_capacity,
                           realized_acceleration, reflect_motor, scale_torques, shortest_duration)
from armlab.limits import (PhaseProfile, path_acceleration_bounds, path_dynamics, rms_torque,
                           time_optimal_scaling)
from armlab.manipulability import (condition_number, is_singular, manipulability, reach,
                                   velocity_ellipse)
from armlab.simulation import Simulation, simulate, tracking_error
from armlab.statics import (cartesian_stiffness, force_ellipse, force_error_bound, force_polygon,
                            joint_reactions, max_tip_force, singular_values, static_torques,
                            tip_force_from_torques, virtual_work_check)
from armlab.trajectory import Quintic, quintic
from armlab.trajectory import TimeScaledPath
from armlab.tuning import (GainMap, error_bound, error_response, gain_map, lyapunov,
                           model_error_acceleration, natural_frequency, pd_gains,
                           sampled_pd_eigenvalues, settled_error, tracking_summary)
from armlab.urdf import to_urdf

__all__ = [
    "PlanarArm", "tabletop_arm", "rod_arm", "statics_arm",
    "joint_positions", "tip_position", "com_positions", "jacobian", "com_jacobians",
    "inverse_kinematics",
    "velocity_ellipse", "manipulability", "condition_number", "is_singular", "reach",
    "mass_matrix", "mass_matrix_rate", "coriolis_torques", "gravity_torques", "friction_torques",
    "torque_parts", "inverse_dynamics", "rnea", "forward_dynamics", "kinetic_energy",
    "potential_energy",
    "mass_matrix_derivatives", "christoffel_symbols", "coriolis_matrix", "InertiaConstants",
    "inertia_constants", "mass_matrix_det", "PowerBalance", "power_balance",
    "static_torques", "tip_force_from_torques", "singular_values", "force_error_bound",
    "max_tip_force", "force_ellipse", "force_polygon", "virtual_work_check",
    "joint_reactions", "cartesian_stiffness",
    "clip_torques", "scale_torques", "realized_acceleration", "payload_capacity", "pose_capacity",
    "capacity_map", "CapacityMap", "shortest_duration", "DurationLimit", "Motor", "JointDrive",
    "reflect_motor", "mass_matrix_with_rotors",
    "path_dynamics", "path_acceleration_bounds", "time_optimal_scaling", "PhaseProfile",
    "rms_torque",
    "TimeScaledPath",
    "Quintic", "quintic",
    "simulate", "Simulation", "tracking_error", "Controller", "pd", "pid", "pd_gravity",
    "feedforward_pid", "computed_torque",
    "gravity_shares", "payload_torques", "gravity_stiffness", "pd_sag", "mount_gravity", "mounted",
    "gravity_regressor", "gravity_parameters", "holding_torques", "holding_runs", "GravityFit",
    "fit_gravity",
    "payload_mass", "base_parameter_names", "base_parameters", "dynamics_regressor",
    "DynamicsFit", "fit_dynamics",
    "to_urdf",
    "pd_gains", "natural_frequency", "settled_error", "tracking_summary", "GainMap", "gain_map",
    "lyapunov", "sampled_pd_eigenvalues", "model_error_acceleration", "error_bound", "error_response",
]
__version__ = "0.1.0"
