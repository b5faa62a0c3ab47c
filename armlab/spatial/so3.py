"""Rotations in three dimensions: skew matrices, axis-angle and roll-pitch-yaw.

A rotation matrix ``R`` (3 x 3, orthogonal, determinant +1) holds a frame's
unit axes as its columns, written in the frame it is turned from: a vector
``u`` with components in the turned frame has components ``R @ u`` in the
first one. Angles in radians. Every function takes a batch ``(..., 3)`` or
``(...)`` and returns one, as in Modern Robotics (Lynch and Park), chapter 3.
"""

import numpy as np

from armlab._checks import finite_array

__all__ = ["skew", "rotation", "rpy_rotation"]


def _vector3(name, value):
    arr = finite_array(name, value)
    if arr.ndim == 0 or arr.shape[-1] != 3:
        raise ValueError(f"{name} has shape {arr.shape}: expected a 3-vector, shape (..., 3)")
    return arr


def skew(w):
    """The skew-symmetric matrix ``[w]`` with ``[w] @ u = w x u``.

    Parameters
    ----------
    w : (..., 3) array_like
        A vector (an angular velocity [rad/s], a position [m], ...).

    Returns
    -------
    W : (..., 3, 3) ndarray
        ``[[0, -w3, w2], [w3, 0, -w1], [-w2, w1, 0]]``.

    Examples
    --------
    >>> skew([1.0, 2.0, 3.0]) @ np.array([0.0, 0.0, 1.0])      # (1, 2, 3) x z
    array([ 2., -1.,  0.])
    """
    return _skew(_vector3("w", w))


def _skew(w):
    x, y, z = w[..., 0], w[..., 1], w[..., 2]
    zero = np.zeros_like(x)
    return np.stack([np.stack([zero, -z, y], axis=-1),
                     np.stack([z, zero, -x], axis=-1),
                     np.stack([-y, x, zero], axis=-1)], axis=-2)


def rotation(axis, angle):
    """The rotation by ``angle`` about a unit ``axis`` (Rodrigues' formula).

    ``R = I + sin(angle) [a] + (1 - cos(angle)) [a]^2``, the matrix exponential
    of ``[a] angle`` (Modern Robotics, eq. 3.51).

    Parameters
    ----------
    axis : (..., 3) array_like
        Rotation axis; must have unit length (to 1e-9).
    angle : (...) array_like
        Angle [rad], right-handed about ``axis``.

    Returns
    -------
    R : (..., 3, 3) ndarray

    Examples
    --------
    A quarter turn about z takes x to y:

    >>> rotation([0, 0, 1], np.pi / 2).round(12) @ [1, 0, 0]
    array([0., 1., 0.])
    """
    a = _vector3("axis", axis)
    if np.any(np.abs(np.linalg.norm(a, axis=-1) - 1) > 1e-9):
        raise ValueError(f"axis must have unit length, got {axis!r}")
    angle = finite_array("angle", angle)
    return _rotation(a, angle)


def _rotation(a, angle):
    A = _skew(a)
    s, c = np.sin(angle)[..., None, None], np.cos(angle)[..., None, None]
    return np.eye(3) + s * A + (1 - c) * (A @ A)


def rpy_rotation(rpy):
    """The rotation of a URDF ``rpy`` triple: roll about x, pitch about y, yaw about z.

    All three turns are about the fixed (parent) axes, roll first:
    ``R = Rz(yaw) Ry(pitch) Rx(roll)``.

    Parameters
    ----------
    rpy : (..., 3) array_like
        Roll, pitch and yaw [rad].

    Returns
    -------
    R : (..., 3, 3) ndarray

    Examples
    --------
    Yaw a quarter turn, then x points along y:

    >>> rpy_rotation([0, 0, np.pi / 2]).round(12)[:, 0]
    array([0., 1., 0.])
    """
    rpy = _vector3("rpy", rpy)
    ex, ey, ez = np.eye(3)
    return (rotation(ez, rpy[..., 2]) @ rotation(ey, rpy[..., 1])
            @ rotation(ex, rpy[..., 0]))
