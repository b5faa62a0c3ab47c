"""Derivation parts: a student's SymPy answer, read as data and judged by equivalence.

The sandbox sends the answer as a tree (:func:`armlab.grading.runner.tree_of`);
:func:`rebuild` reads it again running nothing, with a whitelist of node kinds
(:data:`KINDS`), the part's symbols only, and bounds on size, depth, digits and exponents.
Two expressions are equivalent when they agree to :data:`AGREE` of :data:`DIGITS`-digit
precision at :data:`POINTS` rational points (:func:`evaluate`, every value bounded by
:data:`MAX_MAGNITUDE`; no ``simplify``). A likely mistake (``@ref.mistake("hint")``) the
answer agrees with gives its hint.

>>> import sympy
>>> x, y = sympy.symbols("x y", real=True)
>>> from armlab.grading.runner import tree_of
>>> mine = rebuild(tree_of(sympy.sin(x + y)), {"x", "y"})
>>> right = rebuild(tree_of(sympy.sin(x) * sympy.cos(y) + sympy.cos(x) * sympy.sin(y)), {"x", "y"})
>>> differs(mine, right, points(("x", "y"), "demo"))
[]
>>> show(mine)
'sin(x + y)'
"""

import fractions
import random
import re

__all__ = ["Refused", "rebuild", "evaluate", "points", "differs", "show", "verdict",
           "KINDS", "MAX_NODES", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPONENT", "MAX_SIZE"]

MAX_NODES = 2_000
"""Nodes (operations and leaves) in one answer."""
MAX_DEPTH = 40
"""Nesting of operations in one answer."""
MAX_DIGITS = 30
"""Digits of an integer (or of a fraction's numerator, denominator) in one answer."""
MAX_EXPONENT = 12
"""The largest |numerator| of a power's exponent; its denominator is at most 4."""
MAX_SIZE = 6
"""Rows or columns of a matrix."""
MAX_MAGNITUDE = 400
"""An intermediate value beyond 2**400 in size refuses the answer (bounded work)."""
DIGITS = 50
POINTS = 3
AGREE = 10 ** -35
KINDS = {"Add": (2, MAX_NODES), "Mul": (2, MAX_NODES), "Pow": (2, 2), "sin": (1, 1),
         "cos": (1, 1), "tan": (1, 1), "Abs": (1, 1)}
"""Operations an answer may hold, with their least and most operands."""
_LEAVES = ("Symbol", "Integer", "Rational", "Float", "pi", "Half", "NegativeOne", "One",
           "Zero")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}\Z")
_INT = re.compile(r"-?[0-9]{1,%d}\Z" % MAX_DIGITS)
_FLOAT = re.compile(r"-?[0-9]{1,20}(\.[0-9]{0,20})?(e[+-]?[0-9]{1,3})?\Z")


class Refused(ValueError):
    """An answer the grader does not read, with the reason in words."""


def _integer(text, what="a number"):
    if not isinstance(text, str) or not _INT.match(text):
        raise Refused(f"{what} has more than {MAX_DIGITS} digits or is not an integer")
    return int(text)


def rebuild(tree, symbols):
    """A tree from a sandbox, validated, as nested tuples :func:`evaluate` reads.

    ``symbols`` are the names the answer may use. Raises :class:`Refused` saying why
    (a node kind not allowed, a symbol the part does not give, too many nodes, too deep,
    an integer too long, an exponent too large, a forged node). Runs nothing the tree
    says, and its work is bounded by the tree's size (at most :data:`MAX_NODES`).

    >>> rebuild(["Pow", ["Symbol", "x"], ["Integer", "2"]], {"x"})
    ('Pow', ('Symbol', 'x'), ('Rational', 2, 1))
    >>> rebuild(["Pow", ["Symbol", "x"], ["Integer", "100000"]], {"x"})
    Traceback (most recent call last):
    ...
    armlab.grading.symbolic.Refused: a power with exponent 100000 (at most 12 in size)
    """
    if not isinstance(tree, list) or not tree:
        raise Refused("it is not an expression")
    if tree[0] == "Matrix":
        if len(tree) < 3 or type(tree[1]) is not int or type(tree[2]) is not int \
                or not (1 <= tree[1] <= MAX_SIZE and 1 <= tree[2] <= MAX_SIZE) \
                or len(tree) != 3 + tree[1] * tree[2]:
            raise Refused(f"a matrix that is not one of at most {MAX_SIZE}×{MAX_SIZE} "
                          "expressions")
        count = [0]
        entries = tuple(_node(t, symbols, count) for t in tree[3:])
        return ("Matrix", tree[1], tree[2], entries)
    return _node(tree, symbols, [0])


def _node(tree, symbols, count):
    """One expression (not a matrix), checked without recursion before it is built."""
    todo = [(tree, 0)]
    while todo:                                 # shape, size and depth first: iteratively
        item, depth = todo.pop()
        count[0] += 1
        if count[0] > MAX_NODES or isinstance(item, list) and len(item) > MAX_NODES:
            raise Refused(f"it has more than {MAX_NODES} terms and factors")
        if depth > MAX_DEPTH:
            raise Refused(f"it is nested more than {MAX_DEPTH} deep")
        if not isinstance(item, list) or not item or not isinstance(item[0], str):
            raise Refused("a part of it is not an expression")
        kind = item[0]
        if kind in KINDS:
            least, most = KINDS[kind]
            if not least <= len(item) - 1 <= most:
                raise Refused(f"{kind[:20]} with {len(item) - 1} operands")
            todo.extend((t, depth + 1) for t in item[1:])
        elif kind == "Matrix":
            raise Refused("a matrix inside an expression")
        elif kind not in _LEAVES:
            raise Refused(f"it holds {kind[:40]!r}, which is not among the operations a "
                          f"derivation's answer may use ({', '.join(KINDS)})")
    return _build(tree, symbols)


def _build(item, symbols):
    kind = item[0]
    if kind == "Symbol":
        name = item[1] if len(item) == 2 else None
        if not isinstance(name, str) or not _NAME.match(name):
            raise Refused("a symbol without a proper name")
        if name not in symbols:
            raise Refused(f"it holds the symbol {name}, which is not one the function is "
                          f"given ({', '.join(sorted(symbols))})")
        return ("Symbol", name)
    if kind in ("Integer", "Rational"):
        if len(item) != (2 if kind == "Integer" else 3):
            raise Refused(f"a forged {kind}")
        p = _integer(item[1])
        q = _integer(item[2]) if kind == "Rational" else 1
        if q == 0:
            raise Refused("a fraction with denominator 0")
        value = fractions.Fraction(p, q)
        return ("Rational", value.numerator, value.denominator)
    if kind == "Float":
        if len(item) != 2 or not isinstance(item[1], str) or not _FLOAT.match(item[1]):
            raise Refused("a decimal number too long or not a number")
        value = fractions.Fraction(item[1])
        if max(abs(value.numerator), value.denominator) >= 10 ** MAX_DIGITS:
            raise Refused(f"a decimal number of more than {MAX_DIGITS} digits")
        return ("Rational", value.numerator, value.denominator)
    if kind in ("Half", "NegativeOne", "One", "Zero"):
        return ("Rational",) + {"Half": (1, 2), "NegativeOne": (-1, 1), "One": (1, 1),
                                "Zero": (0, 1)}[kind]
    if kind == "pi":
        return ("pi",)
    args = tuple(_build(t, symbols) for t in item[1:])
    if kind == "Pow":
        exponent = args[1]
        if exponent[0] != "Rational":
            raise Refused("a power whose exponent is not a number")
        if abs(exponent[1]) > MAX_EXPONENT or exponent[2] > 4:
            shown = exponent[1] if exponent[2] == 1 else f"{exponent[1]}/{exponent[2]}"
            raise Refused(f"a power with exponent {shown} (at most {MAX_EXPONENT} in size)")
    return (kind,) + args


# ---------------------------------------------------------------- evaluation
def points(names, seed, n=POINTS):
    """``n`` points, each ``{name: Fraction}``: rationals between 1/2 and 5/2 in size,
    of either sign, the same for the same ``seed`` (a check's regrade is identical)."""
    rng = random.Random(str(seed))
    return [{name: fractions.Fraction(rng.choice((-1, 1)) * rng.randint(50, 250),
                                      rng.choice((97, 101, 103)))
             for name in sorted(names)} for _ in range(n)]


def _context():
    import mpmath

    ctx = mpmath.MPContext()
    ctx.dps = DIGITS
    return ctx


def evaluate(node, point, ctx=None):
    """The value of a rebuilt expression (or a list of a matrix's entries) at ``point``,
    in :data:`DIGITS` digits. Raises :class:`ArithmeticError` where it is undefined
    (a division by 0) and :class:`Refused` where a value grows past
    2**:data:`MAX_MAGNITUDE`."""
    ctx = ctx or _context()
    if node[0] == "Matrix":
        return [evaluate(e, point, ctx) for e in node[3]]
    values = {k: ctx.mpf(v.numerator) / v.denominator for k, v in point.items()}
    return _value(node, values, ctx)


def _value(node, values, ctx):
    kind = node[0]
    if kind == "Symbol":
        out = values[node[1]]
    elif kind == "Rational":
        out = ctx.mpf(node[1]) / node[2]
    elif kind == "pi":
        out = +ctx.pi
    else:
        args = [_value(a, values, ctx) for a in node[1:]]
        if kind == "Add":
            out = ctx.fsum(args)
        elif kind == "Mul":
            out = ctx.fprod(args)
        elif kind == "Pow":
            base, (_, p, q) = args[0], node[2]
            if base == 0 and p < 0:
                raise ZeroDivisionError("0 to a negative power")
            out = base ** p if q == 1 else ctx.power(base, ctx.mpf(p) / q)
        elif kind == "Abs":
            out = abs(args[0])
        else:
            out = getattr(ctx, kind)(args[0])
    if out != 0 and ctx.mag(out) > MAX_MAGNITUDE:
        raise Refused(f"its values grow past 2**{MAX_MAGNITUDE} at ordinary values of its "
                      "symbols")
    return out


def differs(mine, right, where):
    """The entries (0-based, flat; ``[0]`` for a scalar) where two rebuilt expressions
    of the same shape differ at the points ``where``; points where ``right`` is undefined
    are skipped. Raises :class:`Refused` if ``mine`` is undefined at a point where
    ``right`` is not."""
    ctx = _context()
    bad = set()
    for point in where:
        try:
            want = evaluate(right, point, ctx)
        except ArithmeticError:
            continue
        try:
            got = evaluate(mine, point, ctx)
        except ArithmeticError:
            raise Refused("it divides by zero at ordinary values of its symbols") from None
        want, got = (want, got) if isinstance(want, list) else ([want], [got])
        for k, (a, b) in enumerate(zip(got, want)):
            if abs(a - b) > AGREE * max(1, abs(a), abs(b)):
                bad.add(k)
    return sorted(bad)


def shape(node):
    """``(rows, cols)`` of a rebuilt matrix, ``()`` of a scalar expression."""
    return (node[1], node[2]) if node[0] == "Matrix" else ()


def show(node, limit=300):
    """A rebuilt expression as text (``sin(x + y)``, ``Matrix([[a, b], [c, d]])``), cut
    after ``limit`` characters."""
    if node[0] == "Matrix":
        rows = [node[3][r * node[2]:(r + 1) * node[2]] for r in range(node[1])]
        text = "Matrix([" + ", ".join("[" + ", ".join(_text(e) for e in row) + "]"
                                      for row in rows) + "])"
    else:
        text = _text(node)
    return text if len(text) <= limit else text[:limit] + "..."


def _text(node):
    """Python-like text of a rebuilt expression, with the parentheses it needs."""
    kind = node[0]
    if kind == "Symbol":
        return node[1]
    if kind == "pi":
        return "pi"
    if kind == "Rational":
        return str(node[1]) if node[2] == 1 else f"{node[1]}/{node[2]}"
    if kind == "Add":
        text = ""
        for k, term in enumerate(node[1:]):
            part = f"({_text(term)})" if term[0] == "Add" else _text(term)
            text += part if k == 0 else (f" - {part[1:]}" if part.startswith("-")
                                         else f" + {part}")
        return text
    if kind == "Mul":
        factors = list(node[1:])
        sign = ""
        if factors[0] == ("Rational", -1, 1) and len(factors) > 1:
            sign, factors = "-", factors[1:]
        texts = [_text(f) if (k == 0 and f[0] == "Rational") or _atom(f)
                 else f"({_text(f)})" for k, f in enumerate(factors)]
        return sign + "*".join(texts)
    if kind == "Pow":
        base, (_, p, q) = node[1], node[2]
        left = _text(base) if _atom(base) else f"({_text(base)})"
        right = str(p) if q == 1 and p >= 0 else f"({_text(node[2])})"
        return f"{left}**{right}"
    return f"{kind}({_text(node[1])})"


def _atom(node):
    """Whether a node's text needs no parentheses as a factor or a base."""
    return (node[0] in ("Symbol", "pi", "Pow") or node[0] in KINDS and node[0] not in
            ("Add", "Mul", "Pow") or node[0] == "Rational" and node[2] == 1 and node[1] >= 0)


# ---------------------------------------------------------------- a check's verdict
def symbols_of(args):
    """The names of the symbols a case gives the student's function."""
    import sympy

    names = set()
    for a in args:
        if isinstance(a, sympy.Basic):
            names |= {s.name for s in a.free_symbols}
    return names


def verdict(ref, case, rec, *, label=None):
    """None if the record of one case of a derivation part is equivalent to the
    reference's expression, else the failed check's message. The visible check's message
    does not show the right expression either: it would be the whole answer."""
    from armlab.grading import judge
    from armlab.grading.cases import describe
    from armlab.grading.runner import tree_of

    args = ref.arguments(case)
    call = judge._call(ref, label)
    where = describe(case, ref.params, dict(ref.units))
    names = symbols_of(args)
    kind = rec.get("kind") if isinstance(rec, dict) else None
    if kind == "value":                         # plain numbers: a constant expression
        value = rec.get("value")
        try:
            rec = {"kind": "expr", "tree": tree_of(value)}
        except (TypeError, ValueError):
            return f"{call} at {where} is not a SymPy expression or matrix"
    elif kind == "refused" and str(rec.get("why", "")).startswith("expr:"):
        return f"{call} at {where} could not be read: {_why(rec['why'])}"
    elif kind != "expr":
        try:
            judge.value_of(rec, f"{call} at {where}")
        except judge.CheckFailed as failed:
            return str(failed)
        return f"{call} at {where} is not a SymPy expression or matrix"
    try:
        mine = rebuild(rec.get("tree"), names)
    except Refused as why:
        return f"{call} at {where} could not be read: {why}"
    right = rebuild(tree_of(ref.function(*args)), names)
    if shape(mine) != shape(right):
        hint = _mistake(ref, args, mine, names, where=None)
        text = (f"{call} at {where} is {_shape_words(shape(mine))}, expected "
                f"{_shape_words(shape(right))}")
        return f"{text}: {hint}" if hint else text
    where_points = points(names, ref.quantity)
    try:
        bad = differs(mine, right, where_points)
    except Refused as why:
        return f"{call} at {where} could not be checked: {why}"
    if not bad:
        return None
    hint = _mistake(ref, args, mine, names, where_points)
    entries = ""
    if shape(right):
        cols = right[2]
        entries = " (entr{} {} differ{})".format(
            "y" if len(bad) == 1 else "ies",
            ", ".join(f"({k // cols + 1}, {k % cols + 1})" for k in bad),
            "s" if len(bad) == 1 else "")
    text = f"{call} at {where} is {show(mine)}, which is not right{entries}"
    return judge.with_hint(text, hint, ref.advice)


def _shape_words(s):
    return f"a {s[0]}×{s[1]} matrix" if s else "one expression"


def _why(code):
    return {"expr:large": f"it has more than {MAX_NODES} terms and factors",
            "expr:deep": f"it is nested more than {MAX_DEPTH} deep",
            "expr:ragged": "a matrix whose rows differ in length",
            "expr:bool": "a truth value is not an expression",
            "expr:nested matrix": "a matrix inside an expression"}.get(
        code, f"it holds {code[10:50]!r}, which is not among the operations a derivation's "
              f"answer may use ({', '.join(KINDS)})" if code.startswith("expr:node:")
        else "it is not an expression")


def _mistake(ref, args, mine, names, where):
    """The hint of the first declared mistake ``mine`` agrees with, or None."""
    from armlab.grading.runner import tree_of

    for wrong, message in ref.mistakes:
        try:
            alt = rebuild(tree_of(wrong(*args)), names)
        except (Refused, TypeError, ValueError, ArithmeticError):
            continue
        if shape(alt) != shape(mine):
            continue
        if where is None:
            return message
        try:
            if not differs(mine, alt, where):
                return message
        except Refused:
            continue
    return None
