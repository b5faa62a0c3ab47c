"""Numbers for the book's prose: computed values that read the same in the book and in Jupyter.

A chapter computes a value, wraps it with :func:`fmt` and writes
``{eval}`name``` in its text. myst-nb (building the book) and jupyterlab-myst
(in JupyterLab) both show the object's ``repr``, which :func:`fmt` makes the
formatted text, so the page and the notebook print the same digits.
"""

import math

import numpy as np

__all__ = ["Shown", "fmt"]


class Shown:
    """A value and the text the prose shows for it (its ``repr``).

    Attributes
    ----------
    value : float or ndarray
        The number(s), unrounded.
    text : str
        What the prose shows.
    """

    __slots__ = ("value", "text")

    def __init__(self, value, text):
        self.value = value
        self.text = text

    def __repr__(self):
        return self.text

    __str__ = __repr__


def _one(x, spec):
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    if x == 0 and spec.lower().endswith("e"):
        return "0"                          # exactly zero, not 0e+00
    text = format(x, spec)
    mantissa = text.lower().split("e")[0]
    if text.startswith("-") and not any(d in mantissa for d in "123456789"):
        text = text[1:]                     # a value that rounds to zero shows no sign
    return text


def fmt(value, spec=".4g", sep=", "):
    """Wrap a number or a vector for the prose, formatted with ``spec``.

    Parameters
    ----------
    value : float or (k,) array_like
        A number, or a few numbers shown as ``(a, b)``.
    spec : str
        A format specification, as in ``format(x, spec)``: ``".1f"``,
        ``".4f"``, ``".0f"``, ``",.0f"``, ``".1e"`` ...
    sep : str
        Between the entries of a vector.

    Returns
    -------
    Shown
        Its ``repr`` is the text; ``.value`` keeps the number.

    Examples
    --------
    The statics chapter's wall push needs (-6.5, -4.0) N m:

    >>> fmt([-6.5, -4.0], ".1f")
    (-6.5, -4.0)
    >>> fmt(-0.00004, ".2f"), fmt(2865.2, ",.0f"), fmt(0.0, ".0e")
    (0.00, 2,865, 0)
    """
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0:
        return Shown(float(arr), _one(float(arr), spec))
    if arr.ndim != 1:
        raise ValueError(f"value has shape {arr.shape}: expected a number or a vector (k,)")
    return Shown(arr.copy(), "(" + sep.join(_one(float(x), spec) for x in arr) + ")")
