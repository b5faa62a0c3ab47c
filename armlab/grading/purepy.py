"""Small vectors and matrices in plain Python, for the grading references.

The references compute every expected value without armlab, so that the tests
comparing them with armlab compare two independent routes. Vectors are lists of floats, matrices lists of
rows. Everything here is a few lines of textbook arithmetic.

>>> matvec([[1.0, 2.0], [3.0, 4.0]], [1.0, 1.0])
[3.0, 7.0]
>>> solve([[2.0, 0.0], [0.0, 4.0]], [1.0, 1.0])
[0.5, 0.25]
>>> [round(s, 4) for s in singular_values_2xn([[0.0, 0.0], [0.9, 0.4]])]
[0.9849, 0.0]
"""

from math import atan2, cos, floor, hypot, inf, isfinite, log10, pi, sin, sqrt  # noqa: F401

__all__ = [
    "cos", "sin", "sqrt", "hypot", "atan2", "pi", "inf", "isfinite",
    "zeros", "eye", "add", "sub", "scale", "neg", "dot", "norm", "cross2", "perp",
    "transpose", "matvec", "matmul", "outer", "solve", "det2", "singular_values_2xn",
    "shape", "flat", "lincomb", "close", "fmt", "deg",
]


def deg(*angles):
    """Degrees to radians, as a list: ``deg(30, 60)`` is the pose (30°, 60°)."""
    return [a * pi / 180.0 for a in angles]


def zeros(n, m=None):
    """A vector of ``n`` zeros, or an ``n`` x ``m`` matrix of zeros."""
    if m is None:
        return [0.0] * n
    return [[0.0] * m for _ in range(n)]


def eye(n):
    """The ``n`` x ``n`` identity."""
    return [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]


def add(a, b):
    """``a + b`` for vectors or matrices of one shape."""
    if isinstance(a, list) and a and isinstance(a[0], list):
        return [add(x, y) for x, y in zip(a, b)]
    return [x + y for x, y in zip(a, b)]


def sub(a, b):
    """``a - b`` for vectors or matrices of one shape."""
    if isinstance(a, list) and a and isinstance(a[0], list):
        return [sub(x, y) for x, y in zip(a, b)]
    return [x - y for x, y in zip(a, b)]


def scale(s, a):
    """``s * a`` for a number ``s`` and a vector or matrix ``a``."""
    if isinstance(a, list):
        return [scale(s, x) for x in a]
    return s * a


def neg(a):
    """``-a`` for a number, a vector or a matrix."""
    return scale(-1.0, a)


def lincomb(pairs):
    """``sum(c * v for c, v in pairs)`` for vectors of one length."""
    out = None
    for c, v in pairs:
        term = scale(c, v)
        out = term if out is None else add(out, term)
    return out


def dot(a, b):
    """Dot product of two vectors."""
    return sum(x * y for x, y in zip(a, b))


def norm(a):
    """Euclidean length of a vector."""
    return sqrt(sum(x * x for x in a))


def cross2(a, b):
    """z-component of the cross product of two planar vectors."""
    return a[0] * b[1] - a[1] * b[0]


def perp(v):
    """``z x v`` for a planar vector ``v``: ``v`` turned by +90 degrees."""
    return [0.0 - v[1], v[0]]


def transpose(a):
    """The transpose of a matrix (a list of rows)."""
    return [[a[i][j] for i in range(len(a))] for j in range(len(a[0]))]


def matvec(a, v):
    """Matrix times vector."""
    return [dot(row, v) for row in a]


def matmul(a, b):
    """Matrix times matrix."""
    bt = transpose(b)
    return [[dot(row, col) for col in bt] for row in a]


def outer(a, b):
    """Outer product ``a b^T``."""
    return [[x * y for y in b] for x in a]


def det2(a):
    """Determinant of a 2 x 2 matrix."""
    return a[0][0] * a[1][1] - a[0][1] * a[1][0]


def solve(a, b):
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting).

    Raises ``ZeroDivisionError`` when ``a`` is singular.
    """
    n = len(a)
    m = [list(row) + [b[i]] for i, row in enumerate(a)]
    for k in range(n):
        p = max(range(k, n), key=lambda i: abs(m[i][k]))
        if m[p][k] == 0.0:
            raise ZeroDivisionError("singular matrix")
        m[k], m[p] = m[p], m[k]
        for i in range(k + 1, n):
            f = m[i][k] / m[k][k]
            for j in range(k, n + 1):
                m[i][j] -= f * m[k][j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x


def singular_values_2xn(a):
    """Both singular values of a 2 x n matrix, largest first (closed form of ``a a^T``)."""
    p = dot(a[0], a[0])
    r = dot(a[1], a[1])
    c = dot(a[0], a[1])
    root = sqrt((p - r) ** 2 + 4.0 * c * c)
    return [sqrt(max((p + r + root) / 2.0, 0.0)), sqrt(max((p + r - root) / 2.0, 0.0))]


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
