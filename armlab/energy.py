"""Where the motors' power goes: the power balance of one instant of motion.

Multiplying the equation of motion by ``qd`` turns torques into powers [W]::

    tau . qd = dT/dt + dV/dt + qd . friction(qd) + qd . J^T F
    motor      kinetic  potential  friction loss      tip

with ``T = qd^T M qd / 2`` and ``V`` the potential energy, so that
``dT/dt = qd . M qdd + qd . (dM/dt) qd / 2`` and ``dV/dt = qd . g``. The
velocity products' power ``qd . c`` is not zero in general, but it is no
term of its own: ``qd . c = qd . (dM/dt) qd / 2``, the part of ``dT/dt`` that
the changing mass matrix makes (``qd^T (dM/dt / 2 - C) qd = 0``).

Conventions: SI units, radians; ``tip_force`` is the force the tip applies
to the environment, so the ``tip`` term is the power the arm delivers to it
(``F . v_tip``); friction here is the torque the motors spend to overcome it,
so its power is a loss, never negative.
"""

from typing import NamedTuple

import numpy as np

from armlab._checks import joint_vectors
from armlab.dynamics import (friction_torques, gravity_torques, inverse_dynamics, mass_matrix,
                             mass_matrix_rate)
from armlab.statics import static_torques

__all__ = ["PowerBalance", "power_balance"]


class PowerBalance(NamedTuple):
    """The terms of the power balance of one instant, each ``(...)`` [W].

    ``motor = kinetic + potential + friction + tip`` to rounding.

    Attributes
    ----------
    motor : ndarray
        ``tau . qd``, the mechanical power of the motors (negative when they brake).
    kinetic : ndarray
        ``dT/dt = qd . M qdd + qd . (dM/dt) qd / 2``.
    potential : ndarray
        ``dV/dt = qd . g(q)``.
    friction : ndarray
        ``qd . friction(qd)``, the friction loss, not negative.
    tip : ndarray
        ``qd . J^T F = F . v_tip``, the power the tip delivers to the environment.
    """

    motor: np.ndarray
    kinetic: np.ndarray
    potential: np.ndarray
    friction: np.ndarray
    tip: np.ndarray

    @property
    def energy_rate(self):
        """``dE/dt = dT/dt + dV/dt`` [W], the rate of change of the arm's mechanical energy."""
        return self.kinetic + self.potential


def power_balance(arm, q, qd, qdd, tip_force=None):
    """The power balance of one instant: motor power and where it goes.

    Parameters
    ----------
    arm : PlanarArm
    q, qd, qdd : (..., n) array_like
        Joint angles [rad], speeds [rad/s] and accelerations [rad/s^2].
    tip_force : (..., 2) array_like, optional
        Force the tip applies to the environment, world frame [N].

    Returns
    -------
    PowerBalance
        ``motor``, ``kinetic``, ``potential``, ``friction``, ``tip``, each
        ``(...)`` [W], and the property ``energy_rate``. The motor power comes
        from :func:`armlab.inverse_dynamics`; the other terms from the energies'
        derivatives, so their balance checks the velocity products.

    Examples
    --------
    Two 1 m, 1 kg rods, bent and moving: q = (30, -60) deg, qd = (1, -0.5) rad/s,
    qdd = (0.5, -1) rad/s^2, damping 0.25 N m s/rad. The motors give
    15.592571 W; the energy rises by 15.280071 W and friction takes 0.3125 W:

    >>> from armlab import rod_arm
    >>> p = power_balance(rod_arm(damping=0.25), np.radians([30, -60]), [1, -0.5], [0.5, -1])
    >>> [round(float(x), 6) for x in (p.motor, p.energy_rate, p.friction)]
    [15.592571, 15.280071, 0.3125]
    """
    q, qd, qdd = joint_vectors(arm, q=q, qd=qd, qdd=qdd)
    force = np.zeros(2) if tip_force is None else tip_force

    def dot(a, b):
        return np.einsum("...j,...j->...", a, b)

    tau = inverse_dynamics(arm, q, qd, qdd, force)
    shape = tau.shape[:-1]
    qd = np.broadcast_to(qd, tau.shape)
    mqdd = np.einsum("...jk,...k->...j", mass_matrix(arm, q), qdd)
    mdot_qd = np.einsum("...jk,...k->...j", mass_matrix_rate(arm, q, qd), qd)
    terms = (dot(tau, qd), dot(qd, mqdd) + 0.5 * dot(qd, mdot_qd),
             dot(qd, gravity_torques(arm, q)), dot(qd, friction_torques(arm, qd)),
             dot(qd, static_torques(arm, q, force)))
    return PowerBalance(*(np.broadcast_to(t, shape).copy() for t in terms))
