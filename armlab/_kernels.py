"""Private: the numerical kernels behind :mod:`armlab.dynamics` and the simulation.

Nothing here checks its input; the public functions do that once, at their edge.

How the code is laid out (for speed)
------------------------------------
Each kernel is plain arithmetic over the links, written once, that runs on one
of two *back ends*: Python floats (one state: no numpy overhead per operation,
``FLOATS``) or 1-D numpy arrays holding one joint's values for many states
(``ARRAYS``). A state is a sequence of ``n`` *components*, one per joint, each a
float or a ``(B,)`` array. Loops run over links, never over states.

* :class:`Constants` holds an arm's numbers in the form the kernels want; each
  arm builds it once (``PlanarArm._constants``, a cached property).
* The kernels: :func:`gravity`, :func:`coriolis`, :func:`mass_matrix`,
  :func:`inverse` (closed form), :func:`parts`, :func:`forward`,
  :func:`kinetic`, :func:`rnea`, :func:`friction`. Each returns lists of
  components with one fixed meaning. :func:`forward` runs one of two routes,
  whichever costs less for the arm's number of links (``ABA_FROM``):
  :func:`eliminate` (form ``M`` and solve, O(n^3)) or :func:`aba` (the
  articulated-body algorithm, O(n)).
* :func:`fast` runs a kernel on floats when the input is plainly one
  finite state (the public functions' fast path); :func:`drive` runs it over a
  validated, broadcast batch, block by block.
"""

import functools
import math

import numpy as np

from armlab._checks import batch_shape


def _fsign(x):
    return float((x > 0) - (x < 0))


# (sin, cos, sign) for floats and for arrays of states
FLOATS = (math.sin, math.cos, _fsign)
ARRAYS = (np.sin, np.cos, np.sign)
_BLOCK = 8192            # states per block in a batch


def _frozen(values):
    arr = np.array(values, dtype=float)
    arr.flags.writeable = False
    return arr


class Constants:
    """One arm's numbers as the kernels use them: plain floats, and read-only arrays.

    Built once per arm by ``PlanarArm._constants``.
    """

    __slots__ = ("n", "shape", "L", "lc", "m", "inertia", "gx", "gy", "B", "Tc", "coulomb",
                 "has_friction", "zeros", "coef", "a0", "m_lc", "i_joint", "backward", "plan",
                 "arrays", "fast", "row")

    def __init__(self, lengths, masses, com, inertia, gravity, damping, coulomb, gear_ratio):
        n = len(lengths)
        self.n = n
        self.shape = (n,)
        self.row = (1, n)                # a batch of one state, the commonest small batch
        self.zeros = (0.0,) * n
        self.L, self.lc, self.m, self.inertia = lengths, com, masses, inertia
        self.gx, self.gy = gravity
        # friction as the joint feels it: G^2 B and G Tc
        self.B = tuple(g * g * b for g, b in zip(gear_ratio, damping))
        self.Tc = tuple(g * t for g, t in zip(gear_ratio, coulomb))
        self.coulomb = any(self.Tc)
        self.has_friction = any(self.B) or self.coulomb
        self.arrays = {"L": _frozen(lengths), "m": _frozen(masses), "lc": _frozen(com),
                       "I": _frozen(inertia), "g": _frozen(gravity), "B": _frozen(self.B),
                       "Tc": _frozen(self.Tc)}
        # tail[k]: mass of links k, k + 1, ..., n - 1
        tail = [0.0] * (n + 1)
        for k in reversed(range(n)):
            tail[k] = tail[k + 1] + masses[k]
        L, lc, m = lengths, com, masses
        # B_k = coef_k e_k + B_{k+1};  A_k = a0_k + A_{k+1} + 2 L_k e_k . B_{k+1}
        self.coef = tuple(m[k] * lc[k] + tail[k + 1] * L[k] for k in range(n))
        self.a0 = tuple(m[k] * lc[k] ** 2 + inertia[k] + tail[k + 1] * L[k] ** 2
                        for k in range(n))
        self.m_lc = tuple(m[k] * lc[k] for k in range(n))
        self.i_joint = tuple(inertia[k] + m[k] * lc[k] ** 2 for k in range(n))   # about P_k
        self.fast = {}                   # the kernels compiled for this arm (see `compiled`)
        self._tables()

    def _tables(self):
        """The per-link tables the loops read, from the numbers above."""
        n, L, m = self.n, self.L, self.m
        # what the inward loop needs about link j, tip first: its numbers, where M_jj sits
        # in the flat matrix, and (i, L_i, where M_ij and M_ji sit) for i < j
        self.backward = [(j, L[j], m[j], self.m_lc[j], self.coef[j], self.a0[j],
                          j * n + j, [(i, L[i], i * n + j, j * n + i) for i in reversed(range(j))])
                         for j in reversed(range(n))]
        self.plan = _elimination_plan(n)

    def __getstate__(self):              # compiled kernels are rebuilt, not pickled
        return {name: getattr(self, name) for name in self.__slots__ if name != "fast"}

    def __setstate__(self, state):
        for name, value in state.items():
            setattr(self, name, value)
        self.fast = {}


# ---------------------------------------------------------------------------
# Compiled kernels: the same arithmetic as straight-line code, for one arm.
#
# Run on the tracing ops below, a kernel records each floating-point operation it
# would make (its loops and branches depend on the arm's shape only, never on a
# value). The record, pruned of what no result needs, is written out as one Python
# function without loops or branches, compiled once per arm shape (the number of
# links and which joints have friction) and bound to each arm's numbers. It makes
# the same operations on the same operands as the kernel (an operation repeated on the
# same operands once; a value read once written inside its reader's expression), so its
# results are the kernel's bit for bit, on floats and on arrays. What it saves is
# the interpreter's work around the arithmetic (loops, indexing, tuples, stores and
# loads: most of a one-state call) and, on a batch, the passes over it whose results
# nothing uses.


class _Value:
    """A number in a traced kernel: an input component, an arm constant or a result."""

    __slots__ = ("tape", "ref", "truthy")

    def __init__(self, tape, ref, truthy=False):
        self.tape, self.ref, self.truthy = tape, ref, truthy

    def __bool__(self):
        if self.truthy:              # an arm constant nonzero in every arm of this shape
            return True
        raise TypeError("a compiled kernel cannot branch on a value")

    def __add__(self, other):
        return self.tape.op("+", self, other)

    def __radd__(self, other):
        return self.tape.op("+", other, self)

    def __sub__(self, other):
        return self.tape.op("-", self, other)

    def __rsub__(self, other):
        return self.tape.op("-", other, self)

    def __mul__(self, other):
        return self.tape.op("*", self, other)

    def __rmul__(self, other):
        return self.tape.op("*", other, self)

    def __truediv__(self, other):
        return self.tape.op("/", self, other)

    def __rtruediv__(self, other):
        return self.tape.op("/", other, self)

    def __neg__(self):
        return self.tape.op("neg", self)


class _Tape:
    """The operations of one traced kernel call, in order, as ``(op, operands)``.

    A leaf (an input component or an arm constant) is a ``_Value`` whose ``ref``
    is its name in the generated code; an operation's result one whose ``ref`` is
    the operation's index. An operation made again on the same operands is recorded
    once, its result shared (the same operation on the same operands gives the same
    result, so this changes no bit).
    """

    def __init__(self):
        self.steps = []
        self.made = {}                   # (op, operands) -> its result

    def op(self, op, *operands):
        key = [op]
        for x in operands:
            if isinstance(x, _Value):
                key.append(x.ref)
            elif isinstance(x, (int, float)):
                key.append((type(x), repr(x)))       # repr: -0.0 is not 0.0
            else:
                return NotImplemented
        key = tuple(key)
        value = self.made.get(key)
        if value is None:
            self.steps.append((op, operands))
            value = self.made[key] = _Value(self, len(self.steps) - 1)
        return value

    def leaf(self, name, truthy=False):
        return _Value(self, name, truthy)

    def ops(self):
        """The ``(sin, cos, sign)`` a kernel is traced with."""
        return (lambda x: self.op("sin", x), lambda x: self.op("cos", x),
                lambda x: self.op("sign", x))


_NUMBERS = ("L", "lc", "m", "inertia", "coef", "a0", "m_lc", "i_joint")
_FORMAT = {"+": "{} + {}", "-": "{} - {}", "*": "{} * {}", "/": "{} / {}", "neg": "-{}",
           "sin": "sin({})", "cos": "cos({})", "sign": "sign({})"}


def _arm_shape(k):
    """What a compiled kernel's code depends on: the number of links, and which joints
    have viscous and Coulomb friction (the kernels skip the others)."""
    return (k.n, tuple(b != 0 for b in k.B), tuple(t != 0 for t in k.Tc))


def _symbolic(shape, tape):
    """A :class:`Constants` of an arm shape whose numbers are leaves of ``tape``."""
    n, viscous, coulomb = shape
    s = Constants.__new__(Constants)
    s.n, s.shape, s.zeros, s.arrays, s.fast = n, (n,), (0.0,) * n, None, {}
    for name in _NUMBERS:
        setattr(s, name, tuple(tape.leaf(f"k_{name}_{i}") for i in range(n)))
    s.B = tuple(tape.leaf(f"k_B_{i}", True) if v else 0.0 for i, v in enumerate(viscous))
    s.Tc = tuple(tape.leaf(f"k_Tc_{i}", True) if v else 0.0 for i, v in enumerate(coulomb))
    s.gx, s.gy = tape.leaf("k_gx"), tape.leaf("k_gy")
    s.coulomb, s.has_friction = any(coulomb), any(viscous) or any(coulomb)
    s._tables()
    return s


def _trace(kernel, shape, widths):
    """Run ``kernel`` on the tracer: its steps and its results."""
    tape = _Tape()
    inputs = [None if w is None else [tape.leaf(f"x{j}_{i}") for i in range(w)]
              for j, w in enumerate(widths)]
    results = kernel(_symbolic(shape, tape), tape.ops(), *inputs)
    return tape.steps, results


def _needed(steps, results):
    """What the results need, walking back from them: per step, how many live steps (and
    results) read it (0: dead), and the names of the leaves read."""
    uses, leaves = [0] * len(steps), set()

    def need(x):
        if isinstance(x, _Value):
            if type(x.ref) is str:
                leaves.add(x.ref)
            else:
                uses[x.ref] += 1

    for x in results:
        need(x)
    for i in reversed(range(len(steps))):
        if uses[i]:
            for x in steps[i][1]:
                need(x)
    return uses, leaves


_DEPTH = 12              # an expression nests at most this many steps written inline


def _schedule(steps, uses, results):
    """Which live steps get a name, and when each value is read for the last time.

    A step read once, by a later step, is written inline in its reader's expression
    (saving the interpreter a store and a load; the operations and their operands are
    the same, so are the results, bit for bit), unless that nests too deep. Returns
    ``(inline, at, last)``: per step whether it is inline, the index of the named step
    whose statement evaluates it, and, per named step, the last statement reading it
    (``len(steps)`` for a result).
    """
    n = len(steps)
    is_result = {x.ref for x in results if isinstance(x, _Value) and type(x.ref) is int}
    reader = [None] * n
    for i, (_, operands) in enumerate(steps):
        if uses[i]:
            for x in operands:
                if isinstance(x, _Value) and type(x.ref) is int:
                    reader[x.ref] = i
    depth, inline = [0] * n, [False] * n
    for i, (_, operands) in enumerate(steps):
        if uses[i]:
            depth[i] = 1 + max([depth[x.ref] for x in operands
                                if isinstance(x, _Value) and type(x.ref) is int and inline[x.ref]],
                               default=0)
            inline[i] = uses[i] == 1 and i not in is_result and depth[i] < _DEPTH
            if not inline[i]:
                depth[i] = 0
    at = list(range(n))
    for i in reversed(range(n)):
        if uses[i] and inline[i]:
            at[i] = at[reader[i]]
    last = {}
    for i, (_, operands) in enumerate(steps):
        if uses[i]:
            for x in operands:
                if isinstance(x, _Value) and type(x.ref) is int and not inline[x.ref]:
                    last[x.ref] = max(last.get(x.ref, -1), at[i])
    for ref in is_result:
        last[ref] = n
    return inline, at, last


def _statements(steps, uses, schedule):
    """The kernel's body, one statement per named step, and the text of any value."""
    inline, at, last = schedule
    names, texts, free, body = {}, {}, [], []

    def text(x):
        if isinstance(x, _Value):
            if type(x.ref) is str:
                return x.ref
            return f"({texts[x.ref]})" if inline[x.ref] else names[x.ref]
        out = repr(x)
        return f"({out})" if out.startswith("-") else out

    for i, (op, operands) in enumerate(steps):
        if not uses[i]:
            continue
        texts[i] = _FORMAT[op].format(*map(text, operands))
        if inline[i]:
            continue
        for ref in _named_reads(steps, i, inline):      # free the names read here last
            if last[ref] == i and names[ref] not in free:
                free.append(names[ref])
        names[i] = free.pop() if free else f"t{len(names)}"
        body.append(f"{names[i]} = {texts[i]}")
    return body, text


def _named_reads(steps, i, inline):
    """The named steps that step ``i``'s statement reads, through its inline operands."""
    out, stack = [], [i]
    while stack:
        for x in steps[stack.pop()][1]:
            if isinstance(x, _Value) and type(x.ref) is int:
                (stack if inline[x.ref] else out).append(x.ref)
    return out


def _source(kernel, shape, widths, arrays):
    """The Python source of ``kernel`` compiled for an arm shape and argument widths
    (``None`` for an argument passed as None): ``make(k)``, which returns the
    kernel bound to the numbers of the arm whose :class:`Constants` is ``k``."""
    steps, results = _trace(kernel, shape, widths)
    uses, leaves = _needed(steps, results)
    body, text = _statements(steps, uses, _schedule(steps, uses, results))
    lines = ["def make(k):"]
    constants = sorted(x for x in leaves if x.startswith("k_"))
    for leaf in constants:
        field, _, index = leaf[2:].rpartition("_")
        lines.append(f"    {leaf} = k.{field}[{index}]" if field else f"    {leaf} = k.{index}")
    # the arm's numbers as defaults: local variables, the fastest to read
    params = ", ".join([f"x{j}" for j in range(len(widths))] + [f"{c}={c}" for c in constants])
    lines.append(f"    def kernel({params}):")
    for j, w in enumerate(widths):
        if w is not None:
            lines.append(f"        {''.join(f'x{j}_{i}, ' for i in range(w))}= x{j}")
    unused = [f"x{j}_{i}" for j, w in enumerate(widths) if w is not None for i in range(w)
              if f"x{j}_{i}" not in leaves]
    if unused and not arrays:        # a NaN there would not reach the results: refuse it
        lines.append(f"        if not ({' + '.join(f'{x} - {x}' for x in unused)}) == 0:")
        lines.append("            raise ValueError('not finite')")
    lines += [f"        {line}" for line in body]
    lines.append(f"        return [{', '.join(map(text, results))}]")
    lines.append("    return kernel")
    return "\n".join(lines) + "\n"


_FACTORIES = {}        # (kernel, arm shape, widths, on arrays) -> make(k)


def _compile(kernel, k, ops, args):
    """``kernel`` compiled for the arm of ``k`` and the arguments ``args`` (their
    widths, and which are None), on the back end ``ops`` (FLOATS or ARRAYS)."""
    widths = tuple(None if a is None else len(a) for a in args)
    key = (kernel, _arm_shape(k), widths, ops is ARRAYS)
    make = _FACTORIES.get(key)
    if make is None:
        space = {"sin": ops[0], "cos": ops[1], "sign": ops[2]}
        source = _source(kernel, key[1], widths, ops is ARRAYS)
        exec(compile(source, f"<armlab kernel {kernel.__name__}>", "exec"), space)
        make = _FACTORIES[key] = space["make"]
    return make(k)


def compiled(body):
    """A kernel that runs as code compiled for its arm on FLOATS and ARRAYS.

    ``body(k, ops, *args)`` is the kernel as written; on any other ``ops`` (the
    tracer's) it runs as written. Compiled versions are kept per arm, in
    ``k.fast``, under ``(kernel, ops, which arguments are None)``.
    """
    def kernel(k, ops, *args):
        if ops is FLOATS or ops is ARRAYS:
            key = (kernel, ops, tuple([a is None for a in args]))
            fn = k.fast.get(key)
            if fn is None:
                fn = k.fast[key] = _compile(body, k, ops, args)
            return fn(*args)
        return body(k, ops, *args)

    return functools.wraps(body)(kernel)


# ---------------------------------------------------------------------------
# The closed form M(q) qdd + c(q, qd) + g(q), from centre-of-mass Jacobians.
#
# With P_j the joint positions, C_i the centres of mass and z x the planar
# cross product, column j of link i's centre-of-mass Jacobian is z x (C_i - P_j)
# (j <= i). Then, summing over links i >= max(j, k):
#   M_jk = sum m_i (C_i - P_j).(C_i - P_k) + I_i
#   c_j  = sum m_i (C_i - P_j) x (Jc_dot qd)_i
#   g_j  = -sum m_i (C_i - P_j) x gravity
# Gathering links beyond k into  B_k = sum_{i>=k} m_i (C_i - P_k)  and
# A_k = sum_{i>=k} m_i |C_i - P_k|^2 + I_i  gives every entry in O(1):
#   M_kk = A_k,  M_jk = A_k + (P_k - P_j).B_k  (j < k),  g_k = -B_k x gravity.


def closed_form(k, ops, q, qd, qdd=None, force=None, with_mass=False):
    """The closed form's terms at one state (floats) or a block of states (arrays).

    ``qd`` is required (pass ``k.zeros`` when it does not matter: float zeros
    cost nothing in a batch). Returns ``(M, Mqdd, c, g, tip, rigid)``, lists
    over the joints with one meaning each: ``M`` flat row-major (None unless
    ``with_mass``), ``M qdd`` (None without ``qdd``), ``c``, ``g``, ``J^T F``
    (None without ``force``), and ``rigid``, always ``M qdd + c + g + J^T F``
    over the terms given (no friction).
    """
    n = k.n
    links = _outward(k, ops, q, qd)
    M = [None] * (n * n) if with_mass else None
    mq = [None] * n if qdd is not None else None
    cv, g, rigid = [None] * n, [None] * n, [None] * n
    tip = [None] * n if force is not None else None
    sums = reach = None                  # the sums over the links beyond; tip - P_{j+1}
    for row in k.backward:               # tip first: column j of M, then the rest
        j, jj, inner = row[0], row[6], row[7]
        sums = _sums_from(k, links, row, sums)
        A, Bx, By, Q = sums[:4]
        if with_mass:
            _mass_column(links, inner, A, Bx, By, jj, M)
        g[j] = gj = By * k.gx - Bx * k.gy
        cv[j] = Q
        total = Q + gj
        if mq is not None:
            total = total + _mass_times(links, j, inner, A, Bx, By, qdd, mq)
        if tip is not None:
            c, s, lx, ly = links[j][:4]
            reach = (lx, ly) if reach is None else (lx + reach[0], ly + reach[1])
            tip[j] = f = reach[0] * force[1] - reach[1] * force[0]
            total = total + f
        rigid[j] = total
    return M, mq, cv, g, tip, rigid


def _outward(k, ops, q, qd):
    """Per link, outwards: ``(c, s, L c, L s, w^2, ax, ay)``, its direction ``e`` and
    ``L e``, its squared speed and its joint's centripetal acceleration (None at the
    shoulder, which does not accelerate)."""
    sin, cos = ops[0], ops[1]
    links = []
    phi, w, ax, ay = q[0], qd[0], None, None
    for i in range(k.n):
        if i:
            phi = phi + q[i]
            w = w + qd[i]
        c = cos(phi)
        s = sin(phi)
        ww = w * w
        links.append((c, s, k.L[i] * c, k.L[i] * s, ww, ax, ay))
        if i < k.n - 1:
            t = ww * k.L[i]
            ax = -(t * c) if ax is None else ax - t * c
            ay = -(t * s) if ay is None else ay - t * s
    return links


def _sums_from(k, links, row, beyond):
    """The sums over link ``j`` and beyond, ``(A_j, B_j, Q_j, sum m_i a_i)``, from those
    beyond link ``j`` (None at the tip's link): ``Q_j`` is ``c_j``, and the last sum,
    over ``i >= j``, is None for ``j = 0``, whose joint does not accelerate."""
    j, Lj, mj, mlc, cj, a0j = row[:6]
    c, s, lx, ly, ww, jx, jy = links[j]
    own = mlc * (c * jy - s * jx) if j else None        # c_j from link j's own mass
    if beyond is None:
        A, Bx, By = a0j, cj * c, cj * s
        Q = 0.0 if own is None else own
        Px = Py = None
    else:
        A, Bx, By, Q, Px, Py = beyond
        A = a0j + A + 2.0 * (lx * Bx + ly * By)          # the term M_{j,j+1} adds to A_{j+1}
        Bx = cj * c + Bx
        By = cj * s + By
        Q = (Q if own is None else own + Q) + Lj * (c * Py - s * Px)   # links beyond, from P_j
    if j:                                                 # sum m_i a_i from link j outwards
        t = mlc * ww
        px = mj * jx - t * c
        py = mj * jy - t * s
        Px, Py = (px, py) if Px is None else (px + Px, py + Py)
    return A, Bx, By, Q, Px, Py


def _mass_column(links, inner, A, Bx, By, jj, M):
    """Column ``j`` of ``M`` into the flat ``M``: ``M_jj = A_j``, ``M_ij = A_j + (P_j - P_i).B_j``
    for ``i < j``, the difference a sum of ``L_l e_l`` over ``i <= l < j``."""
    M[jj] = acc = A
    for i, _, ij, ji in inner:
        acc = acc + (links[i][2] * Bx + links[i][3] * By)
        M[ij] = M[ji] = acc


def _mass_times(links, j, inner, A, Bx, By, qdd, mq):
    """Column ``j``'s share of ``M qdd`` into ``mq``, returning ``(M qdd)_j``, complete: the
    columns beyond ``j`` came earlier, and row ``j`` left of the diagonal is column ``j``."""
    qj = qdd[j]
    mqj = A * qj if mq[j] is None else mq[j] + A * qj
    acc = A
    for i, _, _, _ in inner:
        acc = acc + (links[i][2] * Bx + links[i][3] * By)
        mq[i] = acc * qj if mq[i] is None else mq[i] + acc * qj
        mqj = mqj + acc * qdd[i]
    mq[j] = mqj
    return mqj


@compiled
def friction(k, ops, qd):
    """Torques that overcome friction, ``B qd + Tc sign(qd)``, as a list over joints."""
    if k.coulomb:
        sign = ops[2]
        return [b * v + t * sign(v) if (b or t) else 0.0 for b, t, v in zip(k.B, k.Tc, qd)]
    return [b * v if b else 0.0 for b, v in zip(k.B, qd)]


@compiled
def gravity(k, ops, q):
    """``g(q)``, the torques that balance gravity."""
    return closed_form(k, ops, q, k.zeros)[3]


@compiled
def coriolis(k, ops, q, qd):
    """``c(q, qd)``, the velocity-product torques."""
    return closed_form(k, ops, q, qd)[2]


@compiled
def mass_matrix(k, ops, q):
    """``M(q)``, flat row-major."""
    return closed_form(k, ops, q, k.zeros, with_mass=True)[0]


@compiled
def inverse(k, ops, q, qd, qdd, force=None):
    """Inverse dynamics by the closed form: ``M qdd + c + g + J^T F + friction``."""
    tau = closed_form(k, ops, q, qd, qdd, force)[5]
    if k.coulomb:
        return [t + f for t, f in zip(tau, friction(k, ops, qd))]
    if k.has_friction:                                   # viscous only: B qd, inline
        return [t + b * v for t, b, v in zip(tau, k.B, qd)]
    return tau


@compiled
def parts(k, ops, q, qd, qdd, force):
    """``M qdd, c, g, friction, J^T F`` and their sum, one after the other (``6 n`` items)."""
    _, mq, c, g, tip, rigid = closed_form(k, ops, q, qd, qdd, force)
    fr = friction(k, ops, qd)
    return [*mq, *c, *g, *fr, *tip, *(r + f for r, f in zip(rigid, fr))]


@compiled
def kinetic(k, ops, q, qd):
    """Kinetic energy ``qd . M qd / 2``, a one-item list."""
    Mqd = closed_form(k, ops, q, k.zeros, qd)[1]
    total = 0.5 * Mqd[0] * qd[0]
    for j in range(1, k.n):
        total = total + 0.5 * Mqd[j] * qd[j]
    return [total]


@compiled
def potential(k, ops, q):
    """Potential energy ``-sum_i m_i a_grav . C_i``, a one-item list."""
    sin, cos = ops[0], ops[1]
    phi, x, y, total = q[0], 0.0, 0.0, 0.0
    for i in range(k.n):
        if i:
            phi = phi + q[i]
        c = cos(phi)
        s = sin(phi)
        total = total - k.m[i] * (k.gx * (x + k.lc[i] * c) + k.gy * (y + k.lc[i] * s))
        x = x + k.L[i] * c
        y = y + k.L[i] * s
    return [total]


def _elimination_plan(n):
    """The index bookkeeping of :func:`_solve_spd` for an ``n x n`` system, made once per arm.

    ``elim``: per pivot ``j``, the pivot's flat index and, per row ``r`` below
    it, the flat index of ``a[j, r]`` and the (target, source) pairs of the
    row update (upper triangle only: the rest stays symmetric). ``back``: per
    row, from the last, its diagonal and the (``a[j, c]``, ``c``) pairs.
    """
    elim = [(j * n + j, j, [(j * n + r, r, [(r * n + c, j * n + c) for c in range(r, n)])
                            for r in range(j + 1, n)])
            for j in range(n - 1)]
    back = [(j, j * n + j, [(j * n + c, c) for c in range(j + 1, n)])
            for j in range(n - 1, -1, -1)]
    return elim, back


def _solve_spd(a, x, plan):
    """Solve ``M x = b`` for a symmetric positive definite ``M``, in place.

    ``a``: ``M`` as a flat row-major list, ``x``: ``b`` as a list; both are
    overwritten (pass lists of your own), and ``x`` is returned holding the
    solution. Gaussian elimination without pivoting, which is stable for a
    positive definite matrix (it is the ``L D L^T`` factorisation), then back
    substitution; no inverse is formed. Works on floats or on blocks.
    """
    elim, back = plan
    for pivot, j, rows in elim:
        d = a[pivot]
        xj = x[j]
        for at, r, cells in rows:
            f = a[at] / d                      # = a[r, j], read from the upper part
            for target, source in cells:
                a[target] = a[target] - f * a[source]
            x[r] = x[r] - f * xj
    for j, pivot, cells in back:
        t = x[j]
        for source, c in cells:
            t = t - a[source] * x[c]
        x[j] = t / a[pivot]
    return x


@compiled
def eliminate(k, ops, q, qd, tau, force=None, fric=None):
    """Forward dynamics by forming ``M`` and solving ``M qdd = tau - (c + g + J^T F) - friction``
    (:func:`_solve_spd`): O(n^3) operations, fewer than :func:`aba`'s O(n) below ``ABA_FROM``
    links.

    ``fric``: the caller's :func:`friction` at ``qd``, when it has it already.
    """
    M, _, _, _, _, rigid = closed_form(k, ops, q, qd, None, force, with_mass=True)
    if fric is None and k.has_friction:
        fric = friction(k, ops, qd)
    if fric is None:
        rhs = [t - b for t, b in zip(tau, rigid)]
    else:
        rhs = [t - b - f for t, b, f in zip(tau, rigid, fric)]
    return _solve_spd(M, rhs, k.plan)


#: From this many links on, :func:`forward` runs :func:`aba`. Measured (``benchmarks/core.md``):
#: on floats (one state) ABA costs less from 5 to 6 links, on arrays (a batch) from 6 to 8
#: depending on the machine's load (the two are within 15 % there). One threshold for both
#: keeps one route per arm: a batch makes its states' own operations.
ABA_FROM = 8


@compiled
def forward(k, ops, q, qd, tau, force=None, fric=None):
    """Forward dynamics, ``qdd`` from ``M qdd = tau - (c + g + J^T F) - friction``: by
    :func:`eliminate` for arms of fewer than ``ABA_FROM`` links, by :func:`aba` from there.

    ``fric``: the caller's :func:`friction` at ``qd``, when it has it already.
    """
    route = aba if k.n >= ABA_FROM else eliminate
    return route.__wrapped__(k, ops, q, qd, tau, force, fric)


# ---------------------------------------------------------------------------
# The articulated-body algorithm (Featherstone), planar. Spatial vectors are
# (angular, x, y) triples at each joint's point P_i, in world axes: a motion
# (w, vx, vy) is the link's angular speed and its point P_i's velocity, a force
# (n, fx, fy) a moment about P_i and a force. Joint i's axis is (1, 0, 0) there.
# The body beyond joint i, once its joint's own freedom is taken out, pushes on
# link i - 1 at P_i like a point with a 2 x 2 apparent mass K_i (the articulated
# inertia's translational block; its angular row and column vanish) and a bias
# force; moving it from P_i to P_{i-1} is a translation by r = L_{i-1} e_{i-1}.
# Three passes, each O(n): velocities outwards, articulated inertias and bias
# forces inwards, accelerations outwards.


def _aba_outward(k, ops, q, qd):
    """Per link, outwards: ``(c, s, rx, ry, bias_acc, force)``: its direction ``e``, the
    step ``r = L e`` to the next joint, the acceleration ``P_i`` gets from ``qd_i`` turning
    its velocity (None at the shoulder) and the link's own bias force at ``P_i`` (its
    moment None at the shoulder)."""
    sin, cos = ops[0], ops[1]
    links = []
    phi, w = q[0], qd[0]
    vx = vy = None                                   # P_0, the shoulder, is still
    for i in range(k.n):
        if i:
            phi = phi + q[i]
            w = w + qd[i]
        c = cos(phi)
        s = sin(phi)
        t = k.m_lc[i] * (w * w)
        if vx is None:
            bias_acc = None
            force = (None, -(t * c), -(t * s))
        else:
            # P_i's velocity turns with qd_i: (qd_i vy, -qd_i vx); the link's own bias force
            # m w (vP . c_i) about P_i and m w z x v_com
            bias_acc = (qd[i] * vy, -(qd[i] * vx))
            mw = k.m[i] * w
            force = (k.m_lc[i] * w * (vx * c + vy * s), -(mw * vy) - t * c, mw * vx - t * s)
        rx = k.L[i] * c
        ry = k.L[i] * s
        if i < k.n - 1:                              # P_{i+1}'s velocity
            vx = -(w * ry) if vx is None else vx - w * ry
            vy = w * rx if vy is None else vy + w * rx
        links.append((c, s, rx, ry, bias_acc, force))
    return links


def _aba_inward(k, links, tau, force, fric):
    """Per joint, inwards: ``(Ux / D, Uy / D, u / D)``, with ``(D, Ux, Uy)`` the angular
    column of the articulated inertia at ``P_i`` and ``u`` the torque left for the
    joint's acceleration once the bias forces are paid."""
    out = [None] * k.n
    K = pa = None
    for i in reversed(range(k.n)):
        c, s, rx, ry, bias_acc, (pw, px, py) = links[i]
        # link i's own inertia at P_i: its centre of mass at lc_i e_i
        Iww, Iwx, Iwy = k.i_joint[i], -(k.m_lc[i] * s), k.m_lc[i] * c
        Ixx, Ixy, Iyy = k.m[i], None, k.m[i]
        if K is not None:                            # the body beyond, moved to P_i
            kxx, kxy, kyy = K
            fxw = rx * kxy - ry * kxx
            fyw = rx * kyy - ry * kxy
            Iww = Iww + (rx * fyw - ry * fxw)
            Iwx, Iwy = Iwx + fxw, Iwy + fyw
            Ixx, Ixy, Iyy = Ixx + kxx, kxy, Iyy + kyy
            paw, pax, pay = pa
            m_pa = paw + (rx * pay - ry * pax)
            pw = m_pa if pw is None else pw + m_pa
            px, py = px + pax, py + pay
        elif force is not None:                      # the tip's push, at the tip
            m_f = rx * force[1] - ry * force[0]
            pw = m_f if pw is None else pw + m_f
            px, py = px + force[0], py + force[1]
        applied = tau[i] if fric is None else tau[i] - fric[i]
        u = applied if pw is None else applied - pw
        inv = 1.0 / Iww
        ux, uy, uu = Iwx * inv, Iwy * inv, u * inv
        out[i] = (ux, uy, uu)
        if i:
            kxx = Ixx - Iwx * ux
            kxy = -(Iwx * uy) if Ixy is None else Ixy - Iwx * uy
            kyy = Iyy - Iwy * uy
            K = (kxx, kxy, kyy)
            pax = px + Iwx * uu
            pay = py + Iwy * uu
            if bias_acc is not None:
                bx, by = bias_acc
                pax = pax + (kxx * bx + kxy * by)
                pay = pay + (kxy * bx + kyy * by)
            pa = (applied, pax, pay)
    return out


@compiled
def aba(k, ops, q, qd, tau, force=None, fric=None):
    """Forward dynamics by the articulated-body algorithm: the same ``qdd`` as
    :func:`eliminate` (to rounding) in O(n) operations, against its O(n^3)."""
    if fric is None and k.has_friction:
        fric = friction(k, ops, qd)
    links = _aba_outward(k, ops, q, qd)
    joints = _aba_inward(k, links, tau, force, fric)
    qdd = [None] * k.n
    alpha, ax, ay = None, -k.gx, -k.gy                 # the base accelerates up at g
    for i in range(k.n):
        ux, uy, uu = joints[i]
        if i:                                          # P_i's acceleration, from P_{i-1}'s
            rx, ry = links[i - 1][2:4]
            bx, by = links[i][4]
            ax = ax - alpha * ry + bx
            ay = ay + alpha * rx + by
            qdd[i] = uu - alpha - (ux * ax + uy * ay)
            alpha = alpha + qdd[i]
        else:
            qdd[i] = alpha = uu - (ux * ax + uy * ay)
    return qdd


# ---------------------------------------------------------------------------
# The tip Jacobian, for armlab.kinematics: the joints' positions P_j outwards, then
# column j = z x (tip - P_j), with the same sums as the array code there.


@compiled
def tip_jacobian(k, ops, q):
    """``J(q)`` of the tip, flat row-major ``(2, n)``: column ``j`` is ``z x (tip - P_j)``."""
    sin, cos = ops[0], ops[1]
    n, L = k.n, k.L
    px, py = [0.0], [0.0]                  # P_0 (the base) .. P_n (the tip)
    phi = q[0]
    for i in range(n):
        if i:
            phi = phi + q[i]
        x = L[i] * cos(phi)
        y = L[i] * sin(phi)
        if i:                              # P_1 is link 1 itself: a cumulative sum
            x = px[i] + x
            y = py[i] + y
        px.append(x)
        py.append(y)
    tx, ty = px[n], py[n]
    return [0.0 - (ty - y) for y in py[:n]] + [tx - x for x in px[:n]]


# ---------------------------------------------------------------------------
# Recursive Newton-Euler. Accelerations outwards from the base (gravity enters
# as an upward acceleration of the base), forces and moments inwards.


@compiled
def rnea(k, ops, q, qd, qdd, force=None):
    """Inverse dynamics by the recursive Newton-Euler algorithm, friction included."""
    sin, cos = ops[0], ops[1]
    n = k.n
    L, lc = k.L, k.lc
    ex, ey, al, ax_c, ay_c = [None] * n, [None] * n, [None] * n, [None] * n, [None] * n
    ax, ay = -k.gx, -k.gy                 # the base accelerates up at g
    phi, w, a = q[0], qd[0], qdd[0]
    for i in range(n):
        if i:
            phi = phi + q[i]
            w = w + qd[i]
            a = a + qdd[i]
        ex[i] = c = cos(phi)
        ey[i] = s = sin(phi)
        al[i] = a
        w2 = w * w
        ux = -(a * s) - w2 * c            # alpha z x e - w^2 e, per unit length
        uy = a * c - w2 * s
        ax_c[i] = ax + lc[i] * ux
        ay_c[i] = ay + lc[i] * uy
        if i < n - 1:
            ax = ax + L[i] * ux
            ay = ay + L[i] * uy
    fx, fy = (0.0, 0.0) if force is None else (force[0], force[1])
    moment = 0.0
    tau = [None] * n
    for i in reversed(range(n)):
        c, s = ex[i], ey[i]
        mx, my = k.m[i] * ax_c[i], k.m[i] * ay_c[i]
        moment = (moment + k.inertia[i] * al[i] + lc[i] * (c * my - s * mx)
                  + L[i] * (c * fy - s * fx))
        fx = fx + mx
        fy = fy + my
        tau[i] = moment
    if k.has_friction:
        tau = [t + f for t, f in zip(tau, friction(k, ops, qd))]
    return tau


# ---------------------------------------------------------------------------
# Running a kernel: one plain state on floats, or a validated batch block by block.


#: Up to this many states a batch runs state by state, on floats. Measured per state (2, 4
#: and 7 links; forward_dynamics, mass_matrix, inverse_dynamics), arrays overtake floats
#: from about 64, 48 and 40-48 states; at 33 states they cost 1.4-2x floats' time.
_FEW = 48


def compiled_for(kernel, k, ops, args):
    """The compiled ``kernel`` that ``kernel(k, ops, *args)`` runs (FLOATS or ARRAYS)."""
    key = (kernel, ops, tuple([a is None for a in args]))
    fn = k.fast.get(key)
    if fn is None:
        fn = k.fast[key] = _compile(kernel.__wrapped__, k, ops, args)
    return fn


#: Kernels of ``q`` alone whose results are bounded (sines and cosines times the arm's
#: numbers): finite for finite ``q``, which :func:`fast` checks instead of the results.
_BOUNDED = (gravity, mass_matrix, tip_jacobian, potential)


def fast(kernel, k, tail, *values):
    """``kernel`` on floats for plainly valid input, as an array ``batch + tail``, or None.

    The public functions' fast path, for joint vectors that are plainly one state
    (``(n,)`` arrays, or lists or tuples of ``n`` Python numbers) or a small batch
    (at most ``_FEW`` states, arrays of one shape ``(..., n)``), run state by state
    on the kernel compiled for floats. Anything else (other shapes, non-numbers,
    overflow, a singular mass matrix, a result that is not finite, which NaN or inf
    anywhere in the input makes it) returns None, and the caller's general path
    validates the input and raises the proper error.
    """
    shape = k.shape
    try:
        fn = k.fast.get(kernel)                      # compiled for these joint vectors
        if fn is None:
            fn = k.fast[kernel] = compiled_for(kernel, k, FLOATS, (k.zeros,) * len(values))
        if len(values) == 3:                         # (q, qd, qdd or tau): the hottest call
            a, b, c = values
            if a.shape != shape or b.shape != shape or c.shape != shape:
                return _few(fn, k, tail, values)
            out = fn(a.tolist(), b.tolist(), c.tolist())
        elif len(values) == 1:
            a, = values
            if a.shape != shape:
                return _few(fn, k, tail, values)
            x = a.tolist()
            if kernel in _BOUNDED:                   # finite q, finite result: check q
                total = sum(x)
                if total - total == 0 and type(total) in (float, int):
                    out = fn(x)
                    return np.fromiter(out, float, len(out)).reshape(tail)
                return None
            out = fn(x)
        else:
            for v in values:
                if v.shape != shape:
                    return _few(fn, k, tail, values)
            out = fn(*[v.tolist() for v in values])
        total = sum(out)
    except AttributeError:                           # lists or tuples among them
        return _plain_lists(fn, k, tail, values)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None
    if total - total == 0 and type(total) is float:
        return np.array(out) if len(tail) == 1 else np.array(out).reshape(tail)
    return None


def _few(fn, k, tail, values):
    """:func:`fast` for a small batch, arrays of one shape ``(..., n)``: ``fn`` state by
    state, or None."""
    first, row = values[0], k.row
    if type(first) is np.ndarray and first.shape == row:          # (1, n): one call
        lists = [v.tolist()[0] for v in values if type(v) is np.ndarray and v.shape == row]
        if len(lists) != len(values):
            return None
        try:
            out = fn(*lists)
            total = sum(out)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError):
            return None
        if total - total == 0 and type(total) is float:
            return np.array((out,)) if tail == k.shape else np.array(out).reshape(row[:1] + tail)
        return None
    n = k.n
    if type(first) is not np.ndarray or first.ndim < 2 or first.shape[-1] != n:
        return None
    shape = first.shape
    count = first.size // n
    if not 0 < count <= _FEW:
        return None
    rows = []
    for v in values:
        if type(v) is not np.ndarray or v.shape != shape:
            return None
        rows.append(v.reshape(count, n).tolist())
    try:
        out = [fn(*state) for state in zip(*rows)]
        total = sum(map(sum, out))
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None
    if total - total == 0 and type(total) is float:
        return np.array(out).reshape(shape[:-1] + tail)
    return None


def _plain_lists(fn, k, tail, values):
    """:func:`fast` for one state among whose values are lists or tuples of ``n`` numbers."""
    n, lists = k.n, []
    try:
        for v in values:
            if type(v) is np.ndarray and v.shape == k.shape:
                lists.append(v.tolist())
            elif type(v) in (list, tuple) and len(v) == n and type(sum(v)) in (float, int):
                lists.append(v)
            else:
                return None
        out = fn(*lists)
        total = sum(out)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None
    if total - total == 0 and type(total) is float:
        return np.array(out).reshape(tail)
    return None


class NotFinite(ValueError):
    """Finite input, non-finite result: values too large, or a singular mass matrix."""


def not_finite(names):
    return NotFinite(f"the result is not finite for finite input ({', '.join(names)}): "
                     "values too large for floating point arithmetic")


def drive(kernel, k, named, tail):
    """Run ``kernel(k, ops, *state)`` over a broadcast batch of validated arrays.

    ``named`` maps argument names to arrays of shape ``(..., w)``, passed to
    the kernel in that order as lists of components (floats for a single
    state, 1-D arrays for a block of states; an unbatched argument stays
    floats, shared by every state); the kernel returns one flat list of
    components, reshaped to the trailing shape ``tail``. The result has shape
    ``batch + tail``. Up to ``_FEW`` states run one by one on floats (where the
    arrays' fixed cost per operation would exceed the work), more block by block
    on arrays. Raises :class:`NotFinite` for a non-finite result.
    """
    batch = batch_shape(**named)
    arrays = list(named.values())
    count = math.prod(batch)
    if 0 < count <= _FEW:
        rows = [a.tolist() if a.ndim == 1 else
                np.broadcast_to(a, batch + a.shape[-1:]).reshape(count, a.shape[-1]).tolist()
                for a in arrays]
        fn = compiled_for(kernel, k, FLOATS, [r if a.ndim == 1 else r[0]
                                              for r, a in zip(rows, arrays)])
        try:
            if batch == ():
                out = fn(*rows)
            else:
                out = [fn(*state) for state in zip(*[
                    [r] * count if a.ndim == 1 else r for r, a in zip(rows, arrays)])]
        except (ValueError, OverflowError):                 # math: cos(inf) and the like
            raise not_finite(named) from None
        out = np.array(out, dtype=float).reshape(batch + tail)
    else:
        flat = [a.tolist() if a.ndim == 1 else
                np.broadcast_to(a, batch + a.shape[-1:]).reshape(count, a.shape[-1])
                for a in arrays]
        out = blocks(kernel, k, flat, count, tail).reshape(batch + tail)
    if not np.all(np.isfinite(out)):
        raise not_finite(named)
    return out


def blocks(kernel, k, flat, count, tail):
    """``kernel`` over ``count`` states, block by block, unchecked: ``(count, *tail)``.

    ``flat``: per argument, a ``(count, w)`` array, or a list of ``w`` floats
    shared by every state. Non-finite results stay in the output, silently.
    """
    out = np.empty((count, math.prod(tail)))
    with np.errstate(all="ignore"):
        for start in range(0, count, _BLOCK):
            stop = min(start + _BLOCK, count)
            comps = [f if type(f) is list else list(np.ascontiguousarray(f[start:stop].T))
                     for f in flat]
            for j, value in enumerate(kernel(k, ARRAYS, *comps)):
                out[start:stop, j] = value
    return out.reshape((count,) + tail)
