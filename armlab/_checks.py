"""Input checks shared by the public functions.

Every public function validates its arguments once, here, and raises a
``ValueError`` that names the argument, what came and what was expected.
"""

import numpy as np


def finite_array(name, value):
    """``value`` as a float array, refusing NaN, inf and non-numbers."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numeric, got {value!r}") from None
    except OverflowError:
        raise ValueError(f"{name} must be finite, got {value!r}") from None
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite, got {value!r}")
    return arr


def joint_vector(arm, name, value):
    """A state vector ``(..., n)`` for ``arm``: angles, speeds, accelerations or torques."""
    arr = finite_array(name, value)
    if arr.ndim == 0 or arr.shape[-1] != arm.n:
        raise ValueError(
            f"{name} has shape {arr.shape} but the arm has {arm.n} joints: "
            f"expected shape (..., {arm.n})"
        )
    return arr


def joint_vectors(arm, **named):
    """Several state vectors of ``arm`` (``q=..., qd=...``), each checked as by
    :func:`joint_vector`, whose batch shapes broadcast together; in the order given."""
    arrays = {name: joint_vector(arm, name, value) for name, value in named.items()}
    batch_shape(**arrays)
    return list(arrays.values())


def planar_vector(name, value):
    """A world-frame vector ``(..., 2)``: a force or a direction."""
    arr = finite_array(name, value)
    if arr.ndim == 0 or arr.shape[-1] != 2:
        raise ValueError(f"{name} has shape {arr.shape}: "
                         "expected a planar vector of shape (..., 2)")
    return arr


def per_joint(n, name, value, *, positive=False, nonnegative=False):
    """A scalar or ``(n,)`` per-joint parameter, broadcast to ``(n,)``."""
    arr = finite_array(name, value)
    if arr.ndim > 1 or (arr.ndim == 1 and arr.shape[0] != n):
        raise ValueError(f"{name} has shape {arr.shape}: expected a scalar or shape ({n},)")
    arr = np.broadcast_to(arr, (n,)).copy()
    if positive and np.any(arr <= 0):
        raise ValueError(f"{name} must be positive, got {arr.tolist()}")
    if nonnegative and np.any(arr < 0):
        raise ValueError(f"{name} must not be negative, got {arr.tolist()}")
    return arr


def torque_bounds(n, limit):
    """Lower and upper torque bounds ``(n,)`` each, from a limit.

    ``limit`` is a positive scalar or ``(n,)`` array (symmetric, ``-limit`` to
    ``+limit``) or a ``(2, n)`` array of minima then maxima.
    """
    arr = finite_array("limit", limit)
    if arr.ndim <= 1:
        high = per_joint(n, "limit", arr, positive=True)
        return -high, high
    if arr.shape != (2, n):
        raise ValueError(
            f"limit has shape {arr.shape}: expected a scalar, shape ({n},) or (2, {n}) "
            "(minima then maxima)"
        )
    low, high = arr
    if np.any(low >= high):
        raise ValueError(f"limit minima {low.tolist()} must be below maxima {high.tolist()}")
    return low.copy(), high.copy()


def batch_shape(**named):
    """The broadcast batch shape of arrays ``(..., w)``, naming the ones that disagree."""
    try:
        return np.broadcast_shapes(*(a.shape[:-1] for a in named.values()))
    except ValueError:
        shapes = ", ".join(f"{name} {a.shape}" for name, a in named.items())
        raise ValueError(f"the batch dimensions of {shapes} do not broadcast together: "
                         "leading dimensions must match or be 1") from None


def _bounded_scalar(name, value, kind, unit, what):
    arr = finite_array(name, value)
    if arr.ndim != 0 or (arr <= 0 if kind == "positive" else arr < 0):
        unit = f" [{unit}]" if unit else ""
        raise ValueError(f"{name} must be a {kind} {what}{unit}, got {value!r}")
    return float(arr)


def positive_scalar(name, value, unit="", what="scalar"):
    """A positive finite number, as a float; the message calls it a positive ``what``."""
    return _bounded_scalar(name, value, "positive", unit, what)


def nonnegative_scalar(name, value, unit="", what="scalar"):
    """A finite number, zero or more, as a float; the message calls it a non-negative ``what``."""
    return _bounded_scalar(name, value, "non-negative", unit, what)
