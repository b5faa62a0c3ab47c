"""Checks for the graded exercises, hardened against the student's kernel.

The exercises' test cells call these functions. The notebook's locked first
cell imports them before any student code runs, and from then on the student
shares the kernel with them, so they are written to hold when an answer cell

* reassigns or wraps ``numpy``, ``numpy.testing``, ``math`` or ``builtins``:
  the checks compare with pure Python arithmetic on references captured at
  import (no numpy call at check time), and every check function runs on a
  private snapshot of this module's globals and of ``builtins``;
* replaces the checks themselves: this module and ``armlab.grading`` refuse
  attribute assignment, and :func:`protect` puts the checks' names back into
  the notebook before every cell runs;
* answers with an object whose ``__eq__``, ``__array__``, ``__float__`` or
  comparisons lie: only exact ``int``, ``float``, numpy real scalars, real
  ``ndarray`` and nested ``list``/``tuple`` of those are accepted, copied into
  plain Python floats by C-level conversions;
* calls ``armlab``'s own function for the quantity it was asked to implement:
  :func:`check_function` runs the student's function with ``armlab``'s
  statics and kinematics switched off (their code objects swapped for a stub
  that raises, so every alias and default argument is covered), then restores
  them; each such check ends at a pose drawn at random, so a table of armlab's
  answers for the tests' poses, prepared in advance, fails too;
* writes to stderr or raises warnings inside its function (captured and
  dropped during the call, so an honest answer never puts anything on stderr,
  which nbgrader scores as zero).

A failed check raises ``AssertionError`` with what was expected and the likely
mistake. Tricks that cannot be stopped inside the kernel (editing the checks'
``__code__`` or ``__globals__``, IPython input transformers, ...) are named by
the static scan of :mod:`armlab.grading.scan`, run by the autograder.

The reference values are computed here by the closed-form formulas of a
planar arm, independently of ``armlab`` (tests compare the two routes).
"""

import builtins as _builtins_module
import io as _io
import math as _math
import os as _os
import sys as _sys
import types as _types
import warnings as _warnings

import numpy as _np

import armlab as _armlab
import armlab.dynamics as _dynamics
import armlab.kinematics as _kinematics
import armlab.limits as _limits
import armlab.statics as _statics

__all__ = [
    "deg", "fresh_poses", "check_shape", "check_function", "check_value", "check_choice",
    "protect",
]

# ---------------------------------------------------------------- captured references
_float = float
_int = int
_len = len
_range = range
_abs = abs
_max = max
_min = min
_repr = repr
_type = type
_list = list
_tuple = tuple
_str = str
_dict = dict
_zip = zip
_enumerate = enumerate
_isinstance = isinstance
_sorted = sorted
_round = round
_BaseException = BaseException
_AssertionError = AssertionError
_RecursionError = RecursionError
_sin = _math.sin
_cos = _math.cos
_sqrt = _math.sqrt
_isfinite = _math.isfinite
_pi = _math.pi
_StringIO = _io.StringIO
_catch_warnings = _warnings.catch_warnings
_simplefilter = _warnings.simplefilter
_getframe = _sys._getframe
_urandom = _os.urandom
_type_name = _type.__dict__["__name__"].__get__
_ndarray = _np.ndarray
_ndarray_tolist = _np.ndarray.tolist
_np_array = _np.array
_REAL_SCALARS = (
    _np.float64, _np.float32, _np.float16, _np.int64, _np.int32, _np.int16, _np.int8,
    _np.uint64, _np.uint32, _np.uint16, _np.uint8, _np.longdouble,
)
_MAX_ITEMS = 10_000

# The statics arm of seed 003, as plain floats (the exercises' arm).
_arm = _armlab.statics_arm()
_L = tuple(_float(x) for x in _arm.lengths)
_M = tuple(_float(x) for x in _arm.masses)
_LC = tuple(_float(x) for x in _arm.com)
_G = tuple(_float(x) for x in _arm.gravity)
del _arm


# ---------------------------------------------------------------- defensive conversion
def _is_one_of(t, types):
    for candidate in types:
        if t is candidate:
            return True
    return False


def _plain(value, name, depth=0, count=None):
    """``value`` as a float or nested lists of floats, refusing anything else."""
    if count is None:
        count = [0]
    count[0] += 1
    if count[0] > _MAX_ITEMS:
        raise _AssertionError(f"{name} is far too large: expected a few numbers")
    t = _type(value)
    if t is _int or t is _float or _is_one_of(t, _REAL_SCALARS):
        try:
            x = _float(value)
        except OverflowError:
            raise _AssertionError(f"{name} contains a number too large for a float") from None
        if not _isfinite(x):
            raise _AssertionError(f"{name} contains {x!r}: expected finite numbers")
        return x
    if t is _ndarray:
        if value.dtype.kind not in "iuf":
            raise _AssertionError(
                f"{name} is an array of dtype {_str(value.dtype)}: expected real numbers")
        if value.size > _MAX_ITEMS:
            raise _AssertionError(f"{name} is far too large: expected a few numbers")
        return _plain(_ndarray_tolist(value), name, depth, count)
    if t is _list or t is _tuple:
        if depth > 3:
            raise _AssertionError(f"{name} is nested too deeply")
        return [_plain(v, name, depth + 1, count) for v in value]
    if t is bool or t is _np.bool_:
        raise _AssertionError(f"{name} is {value!r}: expected a number, not a truth value")
    raise _AssertionError(
        f"{name} is a {_type_name(t)}: expected a float, an int, a list of numbers "
        "or a numpy array of real numbers (objects of other types are not accepted)")


def _shape(x):
    if _type(x) is _float:
        return ()
    if _len(x) == 0:
        return (0,)
    inner = [_shape(v) for v in x]
    first = inner[0]
    for s in inner:
        if s != first:
            return None
    return (_len(x),) + first


def _flat(x):
    if _type(x) is _float:
        return [x]
    out = []
    for v in x:
        out.extend(_flat(v))
    return out


def _fmt(x, digits=4):
    if _type(x) is _float:
        r = _round(x, digits)
        return _repr(0.0 if r == 0 else r)
    return "(" + ", ".join(_fmt(v, digits) for v in x) + ")"


def _close(a, b, rtol, atol):
    fa, fb = _flat(a), _flat(b)
    if _len(fa) != _len(fb):
        return False
    for x, y in _zip(fa, fb):
        if _abs(x - y) > atol + rtol * _abs(y):
            return False
    return True


def _neg(x):
    if _type(x) is _float:
        return -x
    return [_neg(v) for v in x]


def _transpose(x):
    return [[x[i][j] for i in _range(_len(x))] for j in _range(_len(x[0]))]


# ---------------------------------------------------------------- reference formulas
def _points(q, absolute=False):
    """Joint positions (base first, tip last) of the statics arm, pure Python."""
    x, y, phi = 0.0, 0.0, 0.0
    pts = [(0.0, 0.0)]
    for i in _range(_len(_L)):
        phi = q[i] if absolute else phi + q[i]
        x, y = x + _L[i] * _cos(phi), y + _L[i] * _sin(phi)
        pts.append((x, y))
    return pts


def _ref_jacobian(q, absolute=False):
    pts = _points(q, absolute)
    tx, ty = pts[-1]
    return [[-(ty - pts[j][1]) for j in _range(_len(_L))],
            [tx - pts[j][0] for j in _range(_len(_L))]]


def _jt(J, F):
    return [J[0][j] * F[0] + J[1][j] * F[1] for j in _range(_len(J[0]))]


def _jf(J, v):
    return [J[0][0] * v[0] + J[0][1] * v[1], J[1][0] * v[0] + J[1][1] * v[1]]


def _ref_gravity(q):
    """Torques that balance gravity: sum of Jc_i^T (-m_i a_grav)."""
    phi, x, y = 0.0, 0.0, 0.0
    joints, coms = [], []
    for i in _range(_len(_L)):
        phi += q[i]
        joints.append((x, y))
        coms.append((x + _LC[i] * _cos(phi), y + _LC[i] * _sin(phi)))
        x, y = x + _L[i] * _cos(phi), y + _L[i] * _sin(phi)
    tau = [0.0] * _len(_L)
    for i in _range(_len(_L)):
        wx, wy = -_M[i] * _G[0], -_M[i] * _G[1]
        for j in _range(i + 1):
            rx, ry = coms[i][0] - joints[j][0], coms[i][1] - joints[j][1]
            tau[j] += -ry * wx + rx * wy
    return tau


def _ref_singular_values(J):
    a = J[0][0] ** 2 + J[0][1] ** 2
    c = J[1][0] ** 2 + J[1][1] ** 2
    b = J[0][0] * J[1][0] + J[0][1] * J[1][1]
    root = _sqrt((a - c) ** 2 + 4 * b * b)
    return [_sqrt(_max((a + c + root) / 2, 0.0)), _sqrt(_max((a + c - root) / 2, 0.0))]


def _ref_max_push(q, direction, limit):
    J = _ref_jacobian(q)
    n = _sqrt(direction[0] ** 2 + direction[1] ** 2)
    t = _jt(J, [direction[0] / n, direction[1] / n])
    best = _float("inf")
    for tj in t:
        if _abs(tj) > 1e-12:
            best = _min(best, limit / _abs(tj))
    return best


def _ref_force_error(q, dtau):
    J = _ref_jacobian(q)
    # J^T = [[a, b], [c, d]] with a = J00, b = J10, c = J01, d = J11
    a, b, c, d = J[0][0], J[1][0], J[0][1], J[1][1]
    det = a * d - b * c
    worst = 0.0
    for s1 in (-1.0, 1.0):
        for s2 in (-1.0, 1.0):
            t1, t2 = s1 * dtau, s2 * dtau
            fx = (d * t1 - b * t2) / det
            fy = (-c * t1 + a * t2) / det
            worst = _max(worst, _sqrt(fx * fx + fy * fy))
    return worst


def _reference(quantity, args):
    """The expected value and a list of (wrong value, likely mistake) for a quantity."""
    if quantity == "jacobian":
        (q,) = args
        J = _ref_jacobian(q)
        return J, [
            (_transpose(J), "this is J transposed: row i of J is the tip's velocity along "
                            "x (i = 0) or y (i = 1), column j belongs to joint j"),
            (_neg(J), "right size, wrong sign: a positive joint speed turns its link "
                      "counter-clockwise, column j is z x (p_tip - p_j)"),
            (_ref_jacobian(q, absolute=True),
             "link 2's direction is q1 + q2: q2 is measured from link 1, not from the x axis"),
        ]
    if quantity == "static_torques":
        q, F = args
        J = _ref_jacobian(q)
        tau = _jt(J, F)
        return tau, [
            (_neg(tau), "right size, wrong sign: is F the force on the arm or by the arm? "
                        "Here F is the force the tip applies to the environment"),
            (_jf(J, F), "this is J F: the torques are J transposed times F"),
        ]
    if quantity == "torques_for_force_on_arm":
        q, F_on = args
        J = _ref_jacobian(q)
        tau = _jt(J, [-F_on[0], -F_on[1]])
        return tau, [
            (_neg(tau), "right size, wrong sign: the library reports the force on the arm; "
                        "the tip pushes with the opposite force, -F, and tau = J^T (-F)"),
        ]
    if quantity == "gravity_torques":
        (q,) = args
        g = _ref_gravity(q)
        return g, [(_neg(g), "right size, wrong sign: g(q) is the torque that balances "
                             "gravity (gravity itself pulls with -g)")]
    if quantity == "holding_torques":
        q, F = args
        contact, g = _jt(_ref_jacobian(q), F), _ref_gravity(q)
        total = [contact[i] + g[i] for i in _range(_len(g))]
        return total, [
            (contact, "this is J^T F alone: the motors must also hold the links' weight, "
                      "add g(q)"),
            (g, "this is g(q) alone: add the contact torques J^T F"),
            ([contact[i] - g[i] for i in _range(_len(g))],
             "gravity's sign: add g(q), the torque that balances gravity"),
            ([-contact[i] + g[i] for i in _range(_len(g))],
             "the contact part has the wrong sign: F is the force the tip applies"),
        ]
    if quantity == "singular_values":
        (q,) = args
        s = _ref_singular_values(_ref_jacobian(q))
        return s, [
            ([s[1], s[0]], "largest first, please: sigma_1 >= sigma_2"),
            ([s[0] ** 2, s[1] ** 2], "these are the eigenvalues of J J^T: take square roots"),
        ]
    if quantity == "max_tip_force":
        q, direction, limit = args
        f = _ref_max_push(q, direction, limit)
        J = _ref_jacobian(q)
        n = _sqrt(direction[0] ** 2 + direction[1] ** 2)
        t = _jt(J, [direction[0] / n, direction[1] / n])
        loose = [limit / _abs(x) for x in t if _abs(x) > 1e-12]
        hints = []
        if _len(loose) > 1:
            hints.append((_max(loose), "that limit holds at one joint only: the push must "
                                       "respect every joint, take the smallest"))
        return f, hints
    if quantity == "force_error_bound":
        q, dtau = args
        e = _ref_force_error(q, dtau)
        sv = _ref_singular_values(_ref_jacobian(q))
        return e, [(dtau / sv[1], "that is 0.5 N m along the weakest direction only: the "
                                  "torque error is a box, check its four corners (+-0.5, +-0.5)")]
    raise ValueError(f"unknown quantity {quantity!r}")


# ---------------------------------------------------------------- switching armlab off
def _armlab_functions():
    """Every function of armlab's physics modules that a student could call."""
    keep = {"tip_position", "joint_positions", "_frames", "_perp"}
    found = []
    for module in (_kinematics, _statics, _dynamics, _limits, _armlab):
        for key, obj in _sorted(_dict(module.__dict__).items()):
            if (_type(obj) is _types.FunctionType and key not in keep
                    and obj.__module__ and obj.__module__.startswith("armlab.")
                    and not obj.__module__.startswith("armlab.grading")
                    and obj.__module__ != "armlab.arm"
                    and obj.__module__ != "armlab._checks"
                    and obj.__code__.co_freevars == ()):
                if obj not in found:
                    found.append(obj)
    return found


_BLOCKABLE = _armlab_functions()
_ORIGINAL_CODE = [f.__code__ for f in _BLOCKABLE]


_MARK = "is switched off while your function is checked"


def _stub_code(qualname):
    """Code for a stand-in that raises; it runs on the blocked function's globals,
    so it names only a builtin and carries its message as a constant."""
    message = f"armlab.{qualname} {_MARK}: this part asks you to compute it yourself"
    namespace = {}
    exec(compile(f"def stub(*args, **kwargs):\n    raise RuntimeError({message!r})\n",
                 "<armlab.grading>", "exec"), {}, namespace)
    return namespace["stub"].__code__


_STUB_CODE = []
for _f in _BLOCKABLE:
    _STUB_CODE.append(_stub_code(_f.__name__))
del _f


def _switch_off():
    for f, stub in _zip(_BLOCKABLE, _STUB_CODE):
        f.__code__ = stub


def _switch_on():
    for f, code in _zip(_BLOCKABLE, _ORIGINAL_CODE):
        f.__code__ = code


def _call_student(func, args, label):
    """Call the student's function with armlab switched off and stderr captured."""
    saved_out, saved_err = _sys.stdout, _sys.stderr
    sink = _StringIO()
    tampered = False
    try:
        with _catch_warnings():
            _simplefilter("ignore")
            _sys.stdout, _sys.stderr = sink, sink
            _switch_off()
            try:
                result = func(*args)
            finally:
                for f, stub in _zip(_BLOCKABLE, _STUB_CODE):
                    if f.__code__ is not stub:
                        tampered = True
                _switch_on()
    except _AssertionError:
        raise
    except _RecursionError:
        raise _AssertionError(f"{label} recursed without end") from None
    except _BaseException as exc:
        if _type(exc) is KeyboardInterrupt:
            raise
        kind = _type_name(_type(exc))
        text = _str(exc) if _type(exc) is RuntimeError else ""
        if _MARK in text:
            raise _AssertionError(f"{label} called armlab's own function: {text}") from None
        raise _AssertionError(f"{label} raised {kind}: {_str(exc)}") from None
    finally:
        _sys.stdout, _sys.stderr = saved_out, saved_err
    if tampered:
        raise _AssertionError(f"{label} turned armlab's reference back on while it was checked")
    return result


# ---------------------------------------------------------------- public checks
def deg(*angles):
    """Angles in degrees as a list of radians: ``deg(30, 60)``."""
    return [_plain(a, "angle") * _pi / 180.0 for a in angles]


def fresh_poses(count=5, seed=1):
    """``count`` poses ``[q1, q2]`` [rad] away from singular ones, the same on every run.

    A small linear congruential generator (pure Python, so nothing a student
    does to numpy's random state changes them).
    """
    state = _int(seed) * 2654435761 % 2**32 or 1
    poses = []
    while _len(poses) < count:
        pose = []
        for _ in _range(2):
            state = (1664525 * state + 1013904223) % 2**32
            pose.append((state / 2**32 * 2.0 - 1.0) * _pi)
        if _abs(_sin(pose[1])) > 0.25:
            poses.append(pose)
    return poses


def check_shape(answer, shape, name="your answer"):
    """Check that an answer is made of real numbers and has the given shape."""
    value = _plain(answer, name)
    got = _shape(value)
    want = _tuple(shape)
    if got is None:
        raise _AssertionError(f"{name} is a ragged list: expected shape {want}")
    if got != want:
        if _len(got) == 2 and got == want[::-1]:
            raise _AssertionError(f"{name} has shape {got}, expected {want}: is it transposed?")
        raise _AssertionError(f"{name} has shape {got}, expected {want}")


def _compare(value, expected, hints, name, rtol, atol, where=""):
    want_shape = _shape(expected)
    got_shape = _shape(value)
    if got_shape != want_shape:
        for alt, message in hints:
            if _shape(alt) == got_shape and _close(value, alt, rtol, atol):
                raise _AssertionError(f"{name}{where}: {message}")
        raise _AssertionError(f"{name}{where} has shape {got_shape}, expected {want_shape}")
    if _close(value, expected, rtol, atol):
        return
    for alt, message in hints:
        if _shape(alt) == got_shape and _close(value, alt, rtol, atol):
            raise _AssertionError(
                f"{name}{where} is {_fmt(value)}, expected {_fmt(expected)}: {message}")
    raise _AssertionError(f"{name}{where} is {_fmt(value)}, expected {_fmt(expected)}")


def _check_worked(expected, worked, decimals, quantity):
    """The printed worked value must agree with the reference (guards the answer key)."""
    w = _plain(worked, "worked value")
    tol = 0.5 * 10.0 ** (-decimals) * 1.0001
    if not _close(expected, w, 0.0, tol):
        raise RuntimeError(f"answer key disagrees for {quantity}: {_fmt(expected)} vs {_fmt(w)}")


def check_function(func, quantity, cases, *, worked=None, decimals=4, name=None,
                   rtol=1e-6, atol=1e-9):
    """Check a student's function against the reference at each case.

    Parameters
    ----------
    func : callable
        The student's function.
    quantity : str
        Which reference: ``"jacobian"``, ``"static_torques"``,
        ``"torques_for_force_on_arm"``, ``"gravity_torques"``, ...
    cases : list of tuple
        Arguments to call ``func`` with (each a tuple, or a single pose).
    worked : list, optional
        The worked values printed in the book for the cases, checked against
        the reference to ``decimals`` places (so the key cannot drift).
    """
    if name is not None:
        label = name
    elif _type(func) is _types.FunctionType:
        label = func.__name__
    else:
        label = "your function"
    if not callable(func):
        raise _AssertionError(f"{label} is not a function: define it with def")
    cases = _list(cases)
    for k, case in _enumerate(cases):
        args = [_plain(a, "argument") for a in (case if _type(case) is _tuple else (case,))]
        expected, hints = _reference(quantity, args)
        if worked is not None:
            _check_worked(expected, worked[k], decimals, quantity)
        shown = ", ".join(_fmt(a) for a in args)
        fresh = [_np_array(a, dtype=_float) if _type(a) is _list else a for a in args]
        result = _call_student(func, fresh, f"{label}({shown})")
        value = _plain(result, f"{label}({shown})")
        _compare(value, expected, hints, f"{label}({shown})", rtol, atol)
    if cases:
        # One more pose nobody can know in advance (the first case's, moved by up to
        # 0.05 rad at random): a function that looks answers up in a table fails it.
        # Its message is the only output that can change between runs, and only when
        # everything announced passed.
        first = cases[0]
        args = [_plain(a, "argument") for a in (first if _type(first) is _tuple else (first,))]
        noise = _urandom(8)
        args[0] = [x + ((noise[k] + 256 * noise[k + 4]) / 65535.0 - 0.5) * 0.1
                   for k, x in _enumerate(args[0][:4])]
        expected, hints = _reference(quantity, args)
        shown = ", ".join(_fmt(a) for a in args)
        fresh = [_np_array(a, dtype=_float) if _type(a) is _list else a for a in args]
        where = f"{label}({shown}), a pose not announced in advance"
        result = _call_student(func, fresh, where)
        _compare(_plain(result, where), expected, hints, where, rtol, atol)


def check_value(answer, quantity, *args, worked=None, decimals=4, name="your answer",
                rtol=1e-3, atol=None):
    """Check a number (or a few) the student found, against the reference.

    ``worked`` is the value printed in the book; the reference must agree with
    it to ``decimals`` places. The answer may be rounded to ``decimals``
    places or carry a relative error up to ``rtol``.
    """
    plain_args = [_plain(a, "argument") for a in args]
    expected, hints = _reference(quantity, plain_args)
    if worked is not None:
        _check_worked(expected, worked, decimals, quantity)
    value = _plain(answer, name)
    tol = 0.5 * 10.0 ** (-decimals) * 1.0001 if atol is None else atol
    _compare(value, expected, hints, name, rtol, tol)


def check_choice(answer, expected, choices, name="your answer", explain=""):
    """Check a multiple-choice answer given as one of a few short strings."""
    if _type(answer) is not _str:
        raise _AssertionError(f"{name} should be one of the strings {_list(choices)!r}")
    got = _str.lower(_str.strip(answer))
    if got not in [c.lower() for c in choices]:
        raise _AssertionError(f"{name} is {answer!r}: choose one of {_list(choices)!r}")
    if got != expected.lower():
        raise _AssertionError(f"{name} is {answer!r}, which is not it. {explain}".strip())


def protect(namespace):
    """Undo, around every cell, what an answer cell may do to the checks' setting.

    Called by the exercises' locked first cell with ``globals()``. Before and
    after every cell it puts back the checks' names in the notebook (an answer
    that rebinds ``check_value`` finds the original in place when the next cell
    runs) and IPython's input and AST transformers and custom exception
    handlers as they were (so no cell can rewrite or silence the test cells
    that follow). Each repair is noted on stdout.
    """
    names = {}
    for key in __all__:
        if key in namespace:
            names[key] = namespace[key]
    ipython = _sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return None
    lists = ("input_transformers_cleanup", "input_transformers_post", "ast_transformers")
    saved = {attr: _list(getattr(shell, attr, [])) for attr in lists}
    saved_exc = getattr(shell, "custom_exceptions", ())

    def _restore(*_args, **_kwargs):
        notes = []
        for key, obj in names.items():
            if namespace.get(key) is not obj:
                namespace[key] = obj
                notes.append(f"restored {key}: an earlier cell replaced it")
        for attr, items in saved.items():
            try:
                current = getattr(shell, attr)
                if _len(current) != _len(items) or _len(
                        [1 for a, b in _zip(current, items) if a is not b]):
                    current[:] = items              # the lists are IPython's own: edit in place
                    notes.append(f"restored IPython's {attr}")
            except _BaseException:                  # never let a hook fail: IPython would
                notes.append(f"could not restore IPython's {attr}")   # print it on stderr
        try:
            if shell.custom_exceptions is not saved_exc:
                shell.custom_exceptions = saved_exc
                notes.append("restored IPython's exception handling")
        except _BaseException:
            notes.append("could not restore IPython's exception handling")
        for note in notes:
            try:
                _sys.stdout.write(f"[armlab.grading] {note}\n")
            except _BaseException:
                pass

    shell.events.register("pre_run_cell", _restore)
    shell.events.register("post_run_cell", _restore)
    return None


# ---------------------------------------------------------------- freezing
class _ReadOnlyModule(_types.ModuleType):
    """A module whose attributes cannot be replaced after import."""

    def __setattr__(self, key, value):
        if key not in self.__dict__ and _type(value) is _types.ModuleType:
            _types.ModuleType.__setattr__(self, key, value)   # a submodule being imported
            return
        raise AttributeError(f"{self.__name__} is read-only while grading: {key} cannot be replaced")

    def __delattr__(self, key):
        raise AttributeError(f"{self.__name__} is read-only while grading: {key} cannot be deleted")


def _freeze(namespace):
    """Rebuild every function defined here on a private snapshot of its globals.

    Replacing a name in this module, in ``builtins`` or in numpy afterwards
    does not change what the checks see.
    """
    snapshot = _dict(namespace)
    snapshot["__builtins__"] = _dict(_builtins_module.__dict__)
    for key, obj in _list(namespace.items()):
        if _type(obj) is _types.FunctionType and obj.__module__ == namespace["__name__"]:
            frozen = _types.FunctionType(obj.__code__, snapshot, obj.__name__, obj.__defaults__,
                                         obj.__closure__)
            frozen.__kwdefaults__ = obj.__kwdefaults__
            frozen.__doc__ = obj.__doc__
            frozen.__qualname__ = obj.__qualname__
            frozen.__module__ = obj.__module__
            snapshot[key] = frozen
    for key, obj in _list(snapshot.items()):
        if _type(obj) is _types.FunctionType and obj.__globals__ is snapshot:
            namespace[key] = obj
    return snapshot


_freeze(globals())
_sys.modules[__name__].__class__ = _ReadOnlyModule
