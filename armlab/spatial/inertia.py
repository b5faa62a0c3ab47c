"""Spatial inertia: a rigid body's mass, centre of mass and rotational inertia in one 6 x 6 matrix.

Written in a frame ``b`` whose origin need not be the centre of mass, with twists
``(w, v)`` and wrenches ``(m, f)`` ordered as in :mod:`armlab.spatial.se3`, a body of
mass ``m`` [kg], centre of mass ``c`` [m] and rotational inertia ``I_c``
[kg m^2] about its centre of mass (in ``b``'s axes) has the spatial inertia
(Featherstone, *Rigid Body Dynamics Algorithms*, eq. 2.63)::

    I_b = [[I_c + m [c][c]^T,  m [c]],
           [m [c]^T,           m 1  ]]

Its momentum is ``h = I_b V``, its kinetic energy ``V . I_b V / 2``, and
written in another frame ``a`` it is ``Ad(T_ba)^T I_b Ad(T_ba)``.
"""

import numpy as np

from armlab._checks import finite_array
from armlab.spatial.so3 import skew

__all__ = ["spatial_inertia", "mass_properties"]


def spatial_inertia(mass, com, inertia):
    """The 6 x 6 spatial inertia of a body, in a frame of one's choice.

    Parameters
    ----------
    mass : float
        [kg]; not negative.
    com : (3,) array_like
        Centre of mass in the frame [m].
    inertia : (3, 3) array_like
        Rotational inertia about the centre of mass, in the frame's axes
        [kg m^2]; symmetric, positive semi-definite.

    Returns
    -------
    I : (6, 6) ndarray
        Symmetric [kg m^2, kg m, kg].

    Examples
    --------
    A 2 kg point mass 0.5 m along x: its moment of inertia about z is m r^2 = 0.5 kg m^2.

    >>> I = spatial_inertia(2.0, [0.5, 0, 0], np.zeros((3, 3)))
    >>> I[2, 2], I[5, 5]
    (np.float64(0.5), np.float64(2.0))
    """
    m = finite_array("mass", mass)
    if m.ndim != 0 or m < 0:
        raise ValueError(f"mass must be a non-negative number [kg], got {mass!r}")
    c = finite_array("com", com)
    if c.shape != (3,):
        raise ValueError(f"com has shape {c.shape}: expected shape (3,) [m]")
    Ic = finite_array("inertia", inertia)
    if Ic.shape != (3, 3):
        raise ValueError(f"inertia has shape {Ic.shape}: expected shape (3, 3) [kg m^2]")
    scale = 1e-12 * max(1.0, np.abs(Ic).max())
    if np.abs(Ic - Ic.T).max() > scale or np.linalg.eigvalsh(Ic)[0] < -scale:
        raise ValueError(f"inertia must be symmetric positive semi-definite, got {Ic.tolist()}")
    C = skew(c)
    I = np.zeros((6, 6))
    I[:3, :3] = Ic + m * C @ C.T
    I[:3, 3:] = m * C
    I[3:, :3] = m * C.T
    I[3:, 3:] = m * np.eye(3)
    return I


def mass_properties(I):
    """The mass, centre of mass and inertia about the centre of mass of a spatial inertia.

    The inverse of :func:`spatial_inertia`.

    Parameters
    ----------
    I : (6, 6) array_like

    Returns
    -------
    mass : float
        [kg].
    com : (3,) ndarray
        [m]; the frame's origin when the mass is zero.
    inertia : (3, 3) ndarray
        About the centre of mass [kg m^2].

    Examples
    --------
    >>> m, c, Ic = mass_properties(spatial_inertia(2.0, [0.5, 0, 0], np.eye(3)))
    >>> m, c, Ic[2, 2]
    (2.0, array([0.5, 0. , 0. ]), np.float64(1.0))
    """
    I = finite_array("I", I)
    if I.shape != (6, 6):
        raise ValueError(f"I has shape {I.shape}: expected shape (6, 6)")
    m = float(I[5, 5])
    mC = I[:3, 3:]                               # m [c]
    c = np.array([mC[2, 1], mC[0, 2], mC[1, 0]]) / m if m > 0 else np.zeros(3)
    C = skew(c)
    return m, c, I[:3, :3] - m * C @ C.T
