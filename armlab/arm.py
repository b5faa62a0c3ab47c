"""The arm description: one immutable object that every function takes first."""

import inspect
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from armlab._checks import finite_array, nonnegative_scalar, per_joint
from armlab._kernels import Constants

__all__ = ["PlanarArm", "tabletop_arm", "rod_arm", "statics_arm"]


@dataclass(frozen=True)
class PlanarArm:
    """A planar serial arm of ``n`` revolute joints, with rigid links.

    The arm moves in the x-y plane, y up. ``q[0]`` is measured from +x,
    counter-clockwise; every later ``q[i]`` is relative to the previous link.
    Positive joint torque drives its joint angle positive.

    Parameters
    ----------
    lengths : (n,) array_like
        Link lengths, joint to joint [m]; positive.
    masses : (n,) array_like
        Link masses [kg]; not negative.
    com : (n,) array_like, optional
        Distance of each link's centre of mass from its joint, along the link
        [m]. Default: mid-link (uniform rods).
    inertia : (n,) array_like, optional
        Each link's moment of inertia about its centre of mass, normal to the
        plane [kg m^2]. Default: ``m L^2 / 12`` (uniform rods).

        Both read back as the numbers in use. A default stays a default:
        ``dataclasses.replace(arm, masses=...)`` or ``lengths=...`` derives it
        again from the new values, while numbers given here are kept.
    gravity : float or (2,) array_like, optional
        A scalar ``g0`` means the acceleration ``(0, -g0)`` (a table-top arm in
        a vertical plane); a 2-vector is the acceleration itself [m/s^2], for
        an arm on a wall or a ceiling. Default 9.81.
    damping : float or (n,) array_like, optional
        Viscous friction referred to the motor [N m s/rad]. Default 0.
    coulomb : float or (n,) array_like, optional
        Coulomb friction referred to the motor [N m]. Default 0.
    gear_ratio : float or (n,) array_like, optional
        Motor turns per joint turn, positive. The joint feels ``G^2`` times the
        motor's viscous friction and ``G`` times its Coulomb friction. Default 1
        (direct drive).

    Attributes
    ----------
    n : int
        Number of joints.

    Examples
    --------
    >>> arm = PlanarArm(lengths=(0.30, 0.25), masses=(2.0, 1.0))
    >>> arm.n, arm.com, tuple(round(i, 6) for i in arm.inertia)
    (2, (0.15, 0.125), (0.015, 0.005208))

    Twice the masses, still uniform rods:

    >>> from dataclasses import replace
    >>> tuple(round(i, 6) for i in replace(arm, masses=(4.0, 2.0)).inertia)
    (0.03, 0.010417)
    """

    lengths: tuple
    masses: tuple
    com: tuple = None
    inertia: tuple = None
    gravity: tuple = 9.81
    damping: tuple = 0.0
    coulomb: tuple = 0.0
    gear_ratio: tuple = 1.0
    # The com and inertia tuples this arm derived itself (None where they were given), so
    # that dataclasses.replace, which passes them back, can tell a default from a number.
    _derived: tuple = field(default=(None, None), repr=False, compare=False)

    def __post_init__(self):
        lengths = finite_array("lengths", self.lengths)
        if lengths.ndim != 1 or lengths.size == 0:
            raise ValueError(f"lengths has shape {lengths.shape}: expected shape (n,) with n >= 1")
        n = lengths.size
        if np.any(lengths <= 0):
            raise ValueError(f"lengths must be positive, got {lengths.tolist()}")
        masses = finite_array("masses", self.masses)
        if masses.shape != (n,):
            raise ValueError(f"masses has shape {masses.shape} but lengths gives {n} links: "
                             f"expected shape ({n},)")
        if np.any(masses < 0):
            raise ValueError(f"masses must not be negative, got {masses.tolist()}")
        derived_com, derived_inertia = self._derived
        com_default = self.com is None or self.com is derived_com
        inertia_default = self.inertia is None or self.inertia is derived_inertia
        com = lengths / 2 if com_default else per_joint(n, "com", self.com)
        inertia = (masses * lengths**2 / 12 if inertia_default
                   else per_joint(n, "inertia", self.inertia, nonnegative=True))
        gravity = finite_array("gravity", self.gravity)
        if gravity.ndim == 0:
            gravity = np.array([0.0, -float(gravity)])
        elif gravity.shape != (2,):
            raise ValueError(f"gravity has shape {gravity.shape}: expected a scalar g0 "
                             "or a 2-vector [m/s^2]")
        damping = per_joint(n, "damping", self.damping, nonnegative=True)
        coulomb = per_joint(n, "coulomb", self.coulomb, nonnegative=True)
        gear = per_joint(n, "gear_ratio", self.gear_ratio, positive=True)

        def tup(a):
            return tuple(float(x) for x in a)

        # the fields hold the validated numbers as tuples of floats
        for name, value in [("lengths", lengths), ("masses", masses), ("com", com),
                            ("inertia", inertia), ("gravity", gravity), ("damping", damping),
                            ("coulomb", coulomb), ("gear_ratio", gear)]:
            object.__setattr__(self, name, tup(value))
        object.__setattr__(self, "_derived", (self.com if com_default else None,
                                              self.inertia if inertia_default else None))

    @cached_property
    def _constants(self):
        """The arm's numbers as the numerical kernels use them, derived once."""
        return Constants(self.lengths, self.masses, self.com, self.inertia, self.gravity,
                         self.damping, self.coulomb, self.gear_ratio)

    @property
    def n(self):
        """Number of joints."""
        return len(self.lengths)

    def with_payload(self, mass):
        """A new arm carrying a point mass at its tip, merged into the last link.

        Parameters
        ----------
        mass : float
            Payload mass [kg]; not negative.

        Returns
        -------
        PlanarArm
            The last link's mass, centre of mass and inertia (about the new
            centre of mass, by the parallel-axis theorem) include the payload.

        Examples
        --------
        The table-top arm with 0.5 kg in its gripper:

        >>> arm = tabletop_arm().with_payload(0.5)
        >>> arm.masses, round(arm.com[-1], 6), round(arm.inertia[-1], 6)
        ((2.0, 1.5), 0.166667, 0.010417)
        """
        mp = nonnegative_scalar("mass", mass, "kg")
        m, c, i, L = self.masses[-1], self.com[-1], self.inertia[-1], self.lengths[-1]
        total = m + mp
        c_new = (m * c + mp * L) / total if total > 0 else c
        i_new = i + m * (c - c_new) ** 2 + mp * (L - c_new) ** 2
        if not np.isfinite([total, c_new, i_new]).all():
            raise ValueError(f"mass {mass!r} is too large: the merged link's inertia overflows")
        return replace(self, masses=self.masses[:-1] + (total,), com=self.com[:-1] + (c_new,),
                       inertia=self.inertia[:-1] + (i_new,))


# The signature readers see (help, the API page, JupyterLab's tooltip) without the private
# _derived field, which only dataclasses.replace passes.
PlanarArm.__signature__ = inspect.signature(PlanarArm).replace(parameters=[
    p for p in inspect.signature(PlanarArm).parameters.values() if p.name != "_derived"])


def tabletop_arm(damping=0.0):
    """The table-top arm: uniform rods of 0.30 m / 2.0 kg and 0.25 m / 1.0 kg.

    ``damping`` is the joints' viscous friction [N m s/rad]. In the control
    chapter the real arm has 0.02 and its controllers' model assumes 0.016.

    >>> arm = tabletop_arm(damping=0.02)
    >>> arm.lengths, arm.masses, arm.damping
    ((0.3, 0.25), (2.0, 1.0), (0.02, 0.02))
    """
    return PlanarArm(lengths=(0.30, 0.25), masses=(2.0, 1.0), damping=damping)


def rod_arm(m2=1.0, gravity=9.81, damping=0.0):
    """Two 1 m uniform rods, link 1 of 1 kg, link 2 of ``m2`` [kg].

    ``gravity`` as in :class:`PlanarArm` [m/s^2]; ``damping`` the joints' viscous
    friction [N m s/rad].

    >>> arm = rod_arm(m2=2.0)
    >>> arm.lengths, arm.masses, arm.com
    ((1.0, 1.0), (1.0, 2.0), (0.5, 0.5))
    """
    return PlanarArm(lengths=(1.0, 1.0), masses=(1.0, m2), gravity=gravity, damping=damping)


def statics_arm():
    """The statics arm: L = (0.5, 0.4) m, m = (3.0, 2.0) kg, centres of mass at (0.25, 0.20) m.

    Its inertias are not part of its data (statics does not need them); the
    uniform-rod values ``m L^2 / 12`` [kg m^2] stand in.

    >>> arm = statics_arm()
    >>> arm.com, tuple(round(i, 6) for i in arm.inertia)
    ((0.25, 0.2), (0.0625, 0.026667))
    """
    return PlanarArm(lengths=(0.5, 0.4), masses=(3.0, 2.0), com=(0.25, 0.20))
