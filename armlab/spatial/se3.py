"""Rigid motions: homogeneous transforms, twists, wrenches and their adjoints.

Conventions, those of Modern Robotics (Lynch and Park, chapter 3) and of
Featherstone's *Rigid Body Dynamics Algorithms* (chapter 2), which agree on them:

- A pose is a homogeneous transform ``T = [[R, p], [0, 1]]`` (4 x 4): frame
  ``b``'s axes ``R`` and origin ``p`` [m] written in frame ``a`` is ``T_ab``.
- A twist (spatial velocity) is ``V = (w, v)``: the angular velocity ``w``
  [rad/s] first, then the velocity ``v`` [m/s] of the body point that is
  passing through the frame's origin. Spatial accelerations are alike.
- A wrench (spatial force) is ``F = (m, f)``: the moment ``m`` [N m] about the
  frame's origin first, then the force ``f`` [N]. The power is ``F . V`` [W].
- ``adjoint(T_ab)`` takes a twist from frame ``b`` to frame ``a``:
  ``V_a = Ad(T_ab) V_b``; its transpose takes a wrench back, ``F_b = Ad(T_ab)^T F_a``.
  Featherstone writes ``Ad(T_ab)`` as ``aX_b``, the motion transform from b to a.
"""

import numpy as np

from armlab._checks import finite_array
from armlab.spatial.so3 import _skew

__all__ = ["transform", "inverse", "adjoint", "ad", "twist_cross", "wrench_cross"]


def _array(name, value, shape):
    arr = finite_array(name, value)
    if arr.shape[arr.ndim - len(shape):] != shape or arr.ndim < len(shape):
        dims = ", ".join(str(s) for s in shape)
        raise ValueError(f"{name} has shape {arr.shape}: expected shape (..., {dims})")
    return arr


def transform(R, p):
    """The homogeneous transform of rotation ``R`` and position ``p``.

    Parameters
    ----------
    R : (..., 3, 3) array_like
        Rotation matrix.
    p : (..., 3) array_like
        Position of the frame's origin [m].

    Returns
    -------
    T : (..., 4, 4) ndarray

    Examples
    --------
    >>> transform(np.eye(3), [1.0, 2.0, 3.0])[:3, 3]
    array([1., 2., 3.])
    """
    R = _array("R", R, (3, 3))
    p = _array("p", p, (3,))
    batch = np.broadcast_shapes(R.shape[:-2], p.shape[:-1])
    T = np.zeros(batch + (4, 4))
    T[..., :3, :3] = R
    T[..., :3, 3] = p
    T[..., 3, 3] = 1.0
    return T


def inverse(T):
    """The inverse transform, ``[[R^T, -R^T p], [0, 1]]``: ``T_ab`` to ``T_ba``.

    Parameters
    ----------
    T : (..., 4, 4) array_like

    Returns
    -------
    T_inv : (..., 4, 4) ndarray

    Examples
    --------
    >>> T = transform(np.eye(3), [1.0, 2.0, 3.0])
    >>> (inverse(T) @ T == np.eye(4)).all()
    np.True_
    """
    return _inverse(_array("T", T, (4, 4)))


def _inverse(T):
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    out = np.zeros(T.shape)
    out[..., :3, :3] = Rt
    out[..., :3, 3] = -(Rt @ T[..., :3, 3:])[..., 0]
    out[..., 3, 3] = 1.0
    return out


def adjoint(T):
    """The adjoint ``Ad(T) = [[R, 0], [[p] R, R]]`` (6 x 6) of a transform.

    It takes a twist written in frame ``b`` to frame ``a`` when ``T = T_ab``:
    ``V_a = Ad(T_ab) V_b``; and a wrench the other way, ``F_b = Ad(T_ab)^T F_a``.

    Parameters
    ----------
    T : (..., 4, 4) array_like

    Returns
    -------
    Ad : (..., 6, 6) ndarray

    Examples
    --------
    A frame 1 m along x from the base, spinning at 1 rad/s about its z axis:
    its origin moves, but the base origin's point has velocity (0, -1, 0) m/s.

    >>> T_ab = transform(np.eye(3), [1.0, 0.0, 0.0])
    >>> adjoint(T_ab) @ [0, 0, 1, 0, 0, 0]
    array([ 0.,  0.,  1.,  0., -1.,  0.])
    """
    return _adjoint(_array("T", T, (4, 4)))


def _adjoint(T):
    R, p = T[..., :3, :3], T[..., :3, 3]
    Ad = np.zeros(T.shape[:-2] + (6, 6))
    Ad[..., :3, :3] = R
    Ad[..., 3:, 3:] = R
    Ad[..., 3:, :3] = _skew(p) @ R
    return Ad


def ad(V):
    """The 6 x 6 cross-product matrix ``[ad_V] = [[[w], 0], [[v], [w]]]`` of a twist.

    ``[ad_V] M = V x M`` (:func:`twist_cross`) and ``-[ad_V]^T F = V x* F``
    (:func:`wrench_cross`); Featherstone's ``crm(V)``.

    Parameters
    ----------
    V : (..., 6) array_like
        Twist [rad/s, m/s].

    Returns
    -------
    (..., 6, 6) ndarray

    Examples
    --------
    >>> V, M = np.array([0, 0, 1.0, 0.5, 0, 0]), np.array([1.0, 0, 0, 0, 2.0, 0])
    >>> bool(np.allclose(ad(V) @ M, twist_cross(V, M)))
    True
    """
    V = _array("V", V, (6,))
    out = np.zeros(V.shape[:-1] + (6, 6))
    W = _skew(V[..., :3])
    out[..., :3, :3] = W
    out[..., 3:, 3:] = W
    out[..., 3:, :3] = _skew(V[..., 3:])
    return out


def twist_cross(V, M):
    """The cross product of a twist with a motion vector, ``V x M = [ad_V] M``.

    ``(w, v) x (m, u) = (w x m, w x u + v x m)``: the rate of change of a motion
    vector ``M`` fixed in a body that moves with twist ``V`` (Featherstone's
    ``crm``, Modern Robotics' ``[ad_V]``).

    Parameters
    ----------
    V, M : (..., 6) array_like
        Twists [rad/s, m/s] (or any motion vectors).

    Returns
    -------
    (..., 6) ndarray

    Examples
    --------
    >>> twist_cross([0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0])     # z x (velocity along x)
    array([0., 0., 0., 0., 1., 0.])
    """
    return _twist_cross(_array("V", V, (6,)), _array("M", M, (6,)))


def _twist_cross(V, M):
    w, v = V[..., :3], V[..., 3:]
    return np.concatenate([np.cross(w, M[..., :3]),
                           np.cross(w, M[..., 3:]) + np.cross(v, M[..., :3])], axis=-1)


def wrench_cross(V, F):
    """The cross product of a twist with a wrench, ``V x* F = -[ad_V]^T F``.

    ``(w, v) x* (n, f) = (w x n + v x f, w x f)``: the rate of change of a
    wrench fixed in a body moving with twist ``V`` (Featherstone's ``crf``).
    The momentum ``h = I V`` of a body changes at ``V x* h`` with no force.

    Parameters
    ----------
    V : (..., 6) array_like
        Twist [rad/s, m/s].
    F : (..., 6) array_like
        Wrench [N m, N] (or a momentum).

    Returns
    -------
    (..., 6) ndarray

    Examples
    --------
    >>> wrench_cross([0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0])    # spin z, force along x
    array([0., 0., 0., 0., 1., 0.])
    """
    return _wrench_cross(_array("V", V, (6,)), _array("F", F, (6,)))


def _wrench_cross(V, F):
    w, v = V[..., :3], V[..., 3:]
    return np.concatenate([np.cross(w, F[..., :3]) + np.cross(v, F[..., 3:]),
                           np.cross(w, F[..., 3:])], axis=-1)
