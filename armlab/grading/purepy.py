"""Nested lists of floats in plain Python, for the checks: their shape, flattened, compared,
and shown as short text.

A student's value and a reference's reach the checks as floats and nested lists (no
numpy arrays cross the sandbox's boundary); these read them without numpy.

>>> shape([[1.0, 2.0], [3.0, 4.0]])
(2, 2)
>>> close([1.0, 2.0], [1.0, 2.0000001])
True
>>> fmt([0.5, -2.0])
'(0.5, -2)'
"""

from math import floor, inf, isfinite, log10, pi  # noqa: F401

__all__ = ["inf", "isfinite", "pi", "shape", "flat", "close", "fmt"]


def shape(x):
    """Shape of a float or of nested lists of floats; None if ragged."""
    if not isinstance(x, list):
        return ()
    if not x:
        return (0,)
    inner = [shape(v) for v in x]
    for s in inner:
        if s != inner[0] or s is None:
            return None
    return (len(x),) + inner[0]


def flat(x):
    """Nested lists of floats as one flat list."""
    if not isinstance(x, list):
        return [x]
    out = []
    for v in x:
        out.extend(flat(v))
    return out


def close(a, b, rtol=1e-6, atol=1e-9):
    """Whether ``a`` and ``b`` (floats or nested lists) agree entry by entry.

    ``|a - b| <= atol + rtol |b|``, with equal infinities counted as equal.
    """
    fa, fb = flat(a), flat(b)
    if len(fa) != len(fb):
        return False
    for x, y in zip(fa, fb):
        if x == y:
            continue
        if not (isfinite(x) and isfinite(y)) or not abs(x - y) <= atol + rtol * abs(y):
            return False
    return True


def fmt(x, digits=4):
    """A float or nested lists of floats as short text: ``(0.9, (1.5, -2))``.

    Rounded to ``digits`` decimals, or to four significant digits when that needs
    more (a small number never shows as 0), trailing zeros dropped, no negative zero.

    >>> fmt([0.0040372, 2e-05, 123.456789])
    '(0.004037, 0.00002, 123.4568)'
    """
    if isinstance(x, list):
        return "(" + ", ".join(fmt(v, digits) for v in x) + ")"
    if x != x:
        return "nan"
    if x in (inf, -inf):
        return "inf" if x > 0 else "-inf"
    if x != 0:
        digits = max(digits, min(12, 3 - floor(log10(abs(x)))))
    r = round(x, digits)
    if r == 0:
        return "0"
    text = f"{r:.{digits}f}".rstrip("0").rstrip(".")
    return text
