"""The checks the exercises' test cells call.

``check_function(func, quantity, "worked")`` runs a student's function at the
chapter's worked case (the visible check; a failure shows the book's value);
``check_function(func, quantity, "fresh")`` at fresh cases drawn for this
student (the hidden check; a failure names the case in words and never
prints the expected value). ``quantity`` names a registered reference
(``"statics.jacobian"``, see :mod:`armlab.grading.references`), which says
what the function must return, which armlab functions it may call, which
earlier parts' functions are replaced by their references, and the likely
mistakes whose hints a failure gives.

Every check runs in the sandbox (:mod:`armlab.grading.sandbox`): answers are
converted defensively, armlab is switched off around the student's function,
and the checks' own code is sealed. A failed check raises ``AssertionError``
with a message a student can act on.

What a notebook shows: a passing check prints one line (``✓ jacobian(arm, q)
gives the book's value at ...``); a failed one raises
:class:`~armlab.grading.sandbox.CheckFailed`, an ``AssertionError`` whose
message is all the notebook shows (no traceback through this code).
"""

import numpy as _np

import armlab as _armlab
from armlab.grading import sandbox as _sandbox
from armlab.grading.cases import ArmData as _ArmData
from armlab.grading.cases import describe as _describe
from armlab.grading.purepy import close as _close
from armlab.grading.purepy import flat as _flat
from armlab.grading.purepy import isfinite as _isfinite
from armlab.grading.purepy import fmt as _fmt
from armlab.grading.purepy import shape as _shape
from armlab.grading.references import lookup as _lookup

from armlab.grading.messages import CHECK_NAMES as _CHECK_NAMES
from armlab.grading.messages import FAILED_MARK as _FAILED_MARK
from armlab.grading.messages import PASSED_MARK as _PASSED_MARK

__all__ = list(_CHECK_NAMES)

_CheckFailed = _sandbox.CheckFailed
_print = print
_BaseException = BaseException
_float = float
_int = int
_zip = zip
_list = list
_tuple = tuple
_type = type
_str = str
_len = len
_callable = callable
_np_array = _np.array
_ndarray = _np.ndarray
_PlanarArm = _armlab.PlanarArm
_FunctionType = type(lambda: None)
_plain = _sandbox.plain
_sandbox_wrap = _sandbox.wrap
_call_student = _sandbox.call_student
_verify = _sandbox.verify
_WIDTH = 88


# ---------------------------------------------------------------- conversions
def _for_student(value):
    """A case's argument as the student's function gets it: a fresh PlanarArm,
    numpy arrays of floats, plain floats."""
    if _type(value) is _ArmData:
        return _PlanarArm(**value.fields())
    if _type(value) is _list:
        return _np_array(value, dtype=_float)
    return value


def _for_reference(value, name):
    """An argument from the notebook as the references take it (ArmData, floats)."""
    if _type(value) is _PlanarArm:
        return _ArmData(*[_plain(getattr(value, key), "arm") for key in (
            "lengths", "masses", "com", "inertia", "gravity", "damping", "coulomb",
            "gear_ratio")], label="the arm")
    if _type(value) is _ArmData:
        return value
    return _plain(value, name)


def _as_returned(value):
    """A reference's value as a student's function would return it (numpy)."""
    if _type(value) is _list:
        return _np_array(value, dtype=_float)
    return value


def _stand_in(ref):
    """A function that computes ``ref`` in place of an earlier part's answer."""
    params = ref.params

    def stand_in(*args):
        converted = [_for_reference(a, p) for a, p in zip(args, params)]
        return _as_returned(ref.function(*converted))

    stand_in.__name__ = ref.quantity.rsplit(".", 1)[-1]
    stand_in.__qualname__ = stand_in.__name__
    return stand_in


def _wrap(text, width=_WIDTH):
    """Break a message into lines of at most ``width`` characters, at spaces."""
    return _sandbox_wrap(text, width)


def _fail(text):
    """Fail with ``text`` broken into lines that still fit with the mark shown before it."""
    raise _CheckFailed(_wrap(text, _WIDTH - _len(_FAILED_MARK))) from None


def _passed(text):
    """The one message a passing check prints (never an error: printing is not checked),
    broken at spaces as a failed check's is, so that no page needs to scroll sideways."""
    try:
        _print(_wrap(_PASSED_MARK + text))
    except _BaseException:
        pass


# ---------------------------------------------------------------- comparing
def _mistake(ref, args, value):
    """The hint of the first mistake whose value matches ``value``, or None."""
    for wrong, message in ref.mistakes:
        try:
            alt = _plain(wrong(*args), "mistake")
        except (ArithmeticError, ValueError, AssertionError):
            continue
        if _shape(alt) == _shape(value) and _close(value, alt, ref.rtol, ref.atol):
            return message
    return None


def _same_numbers(value, want):
    """``value`` in the shape ``want`` when it holds the same numbers in a shape that
    only adds dimensions of length one: a column or a row (an ``np.matrix``, or
    ``J.T @ F.reshape(2, 1)``) for a vector, a one-element array for a number."""
    got = _shape(value)
    if got is None or got == want or _len(got) == _len(want):
        return value
    if [d for d in got if d != 1] == [d for d in want if d != 1]:
        numbers = _flat(value)
        if want == ():
            return numbers[0]
        if _len(want) == 1:
            return numbers
    return value


def _truncated(value, expected):
    """Whether ``value`` is ``expected`` with every fraction cut off (an integer array
    filled in place), while ``expected`` has fractions."""
    mine, right = _flat(value), _flat(expected)
    if _len(mine) != _len(right):
        return False
    fractions = False
    for x, y in _zip(mine, right):
        if not _isfinite(y):
            if x != y:
                return False
            continue
        if not _isfinite(x) or x != _float(_int(y)):
            return False
        fractions = fractions or y != _float(_int(y))
    return fractions


_INTEGERS = ("the right numbers with their fractions cut off: an array made from whole "
             "numbers (np.array([0, 0]), np.zeros(2, dtype=int)) keeps only whole numbers when "
             "you assign into it; make it from floats (np.zeros(2))")
_CLOSE = ("close, but not within the check's tolerance: is a number rounded, or a step or "
          "an iteration too coarse?")


def _digits(value, expected):
    """Decimals that show ``value`` and ``expected`` apart (4, or more when 4 look alike)."""
    digits = 4
    while digits < 12 and _fmt(value, digits) == _fmt(expected, digits):
        digits += 1
    return digits


def _in_unit(value, unit):
    """``value`` as a message shows it: ``unit`` ``"deg"`` turns radians into degrees."""
    if unit != "deg":
        return value
    if _type(value) is _list:
        return [_in_unit(v, unit) for v in value]
    return value * 180.0 / 3.141592653589793


def _text(value, unit, digits=4):
    """A value as text, with its unit: ``(5.5436°, 0.8545°)``, ``(1.2, 3) N m``."""
    if unit != "deg":
        return _fmt(value, digits) + (f" {unit}" if unit else "")
    if _type(value) is _list:
        return "(" + ", ".join(_text(v, unit, digits) for v in value) + ")"
    return _fmt(value, digits) + "°"


def _judge(ref, args, value, expected, call, where, show):
    """Raise with a useful message unless ``value`` matches ``expected``."""
    value = _same_numbers(value, _shape(expected))
    got, want = _shape(value), _shape(expected)
    if got == want and _close(value, expected, ref.rtol, ref.atol):
        return
    hint = _mistake(ref, args, value)
    if got != want:
        if hint:
            _fail(f"{call} at {where}: {hint}")
        if got is None:
            _fail(f"{call} at {where} returned a ragged list: expected shape {want}")
        extra = ": is it transposed?" if _len(want) == 2 and got == want[::-1] else ""
        _fail(f"{call} at {where} has shape {got}, expected {want}{extra}")
    advice = ref.advice
    if not hint and _truncated(value, expected):
        hint = _INTEGERS
    elif not hint and _close(value, expected, 1e-3, ref.atol):
        hint, advice = _CLOSE, None             # the right way, not quite the right number
    unit = dict(ref.units).get("return", "")          # what the function returns, in words
    mine, right = _in_unit(value, unit), _in_unit(expected, unit)
    if show:
        digits = _digits(mine, right)
        text = (f"{call} at {where} is {_text(mine, unit, digits)}, the book's value is "
                f"{_text(right, unit, digits)}")
    else:
        text = f"{call} is wrong at {where}: yours is {_text(mine, unit)}"
    _fail_with_hint(text, hint, advice)


_SYMBOLS = ("tau", "qd", "qdd", "omega", "zeta", "alpha", "beta", "delta", "theta", "phi",
            "sigma", "dt", "kp", "kd", "ki")


def _sentence(text):
    """``text`` as a sentence: its first word capitalised, unless that word is a symbol
    (``g_j``, ``tau``, ``a = ...``), whose case carries its meaning."""
    words = text.split(" ")
    first = words[0].rstrip(",:;")
    after = words[1] if _len(words) > 1 else ""
    word = first.isalpha() and first.islower() and first not in _SYMBOLS
    if word and (_len(first) > 1 or first == "a") and (after[:1].isalpha() or first != words[0]):
        return first[0].upper() + text[1:]
    return text


def _fail_with_hint(text, hint, advice):
    """Fail with ``text``, then the mistake's hint, or else the reference's advice."""
    if hint:
        text += f": {hint}"
    elif advice:
        text += f". {_sentence(advice)}"
    _fail(text)


# ---------------------------------------------------------------- public checks
def deg(*angles):
    """Angles in degrees as a list of radians: ``deg(30, 60)``."""
    return [_plain(a, "angle") * 3.141592653589793 / 180.0 for a in angles]


def check_function(func, quantity, cases="worked", *, name=None):
    """Check a student's function against a registered reference.

    Parameters
    ----------
    func : callable
        The student's function; its parameters are the reference's.
    quantity : str
        The reference, ``"<chapter>.<name>"`` (``"statics.jacobian"``).
    cases : {"worked", "fresh"} or list of Case
        ``"worked"``: the chapter's worked case(s), the visible check; a
        failure shows the book's value. ``"fresh"``: this student's fresh
        cases, the hidden check; a failure names the case in words only.
        A list of cases is checked like fresh ones.
    name : str, optional
        How messages call the function (default: its ``__name__``).
    """
    _verify()
    ref = _lookup(quantity)
    label = name or (func.__name__ if _type(func) is _FunctionType else "your function")
    if not _callable(func):
        _fail(f"{label} is not a function: define it with def")
    call = f"{label}({', '.join(ref.params)})"
    show = cases == "worked"
    selected = ref.cases(cases) if _type(cases) is _str else _list(cases)
    stand_ins = {key: _stand_in(other) for key, other in ref.uses}
    units = dict(ref.units)
    for case in selected:
        args = ref.arguments(case)
        expected = _plain(ref.function(*args), "the reference")
        where = _describe(case, ref.params, units)
        result = _call_student(func, [_for_student(a) for a in args], call, where=where,
                               allowed=ref.allow, stand_ins=stand_ins)
        value = _plain(result, f"{call} at {where}")
        _judge(ref, args, value, expected, call, where, show)
    if show and _len(selected) == 1:                  # the label alone keeps it one short line
        _passed(f"{call} gives the book's value at {selected[0].label or where}")
    elif show:
        _passed(f"{call} gives the book's values at its {_len(selected)} worked cases")
    else:
        _passed(f"{call} is right at all {_len(selected)} cases checked")


def check_value(answer, quantity, *args, name="your answer", rtol=1e-3, atol=None,
                decimals=None):
    """Check a number (or a few) a student found, for a case the chapter does not work out.

    ``args`` are the reference's arguments (an arm may be the notebook's
    ``PlanarArm``). The answer may carry a relative error up to ``rtol``, or
    be rounded to ``decimals`` places. The expected value is never shown.
    """
    _verify()
    ref = _lookup(quantity)
    plain_args = [_for_reference(a, p) for a, p in zip(args, ref.params)]
    if _len(plain_args) != _len(ref.params):
        raise TypeError(f"{quantity} takes {ref.params}, got {_len(args)} arguments")
    expected = _plain(ref.function(*plain_args), "the reference")
    value = _plain(answer, name)
    tol = ref.atol if atol is None else atol
    if decimals is not None:
        tol = max(tol, 0.5 * 10.0 ** (-decimals) * 1.0001)
    got, want = _shape(value), _shape(expected)
    if got == want and _close(value, expected, rtol, tol):
        _passed(f"{name} is right")
        return
    hint = _mistake(ref, plain_args, value)
    if got != want and not hint:
        _fail(f"{name} has shape {got}, expected {want}")
    _fail_with_hint(f"{name} is {_fmt(value)}, which is not right", hint, ref.advice)


def check_choice(answer, expected, choices, name="your answer", explain=""):
    """Check a multiple-choice answer given as one of a few short strings.

    ``expected=None`` only checks that the answer is one of ``choices`` (a
    visible check of the form).
    """
    choices = [_str(c) for c in choices]
    if _type(answer) is not _str:
        _fail(f"{name} should be one of the strings {choices!r}")
    got = answer.strip().lower()
    if got not in [c.lower() for c in choices]:
        _fail(f"{name} is {answer!r}: choose one of {choices!r}")
    if expected is not None and got != _str(expected).lower():
        _fail(f"{name} is {answer!r}, which is not the right choice. {explain}".strip())
    _passed(f"{name} is one of the choices" if expected is None else f"{name} is right")


def check_shape(answer, shape, name="your answer"):
    """Check that an answer is made of real numbers and has the given shape."""
    value = _plain(answer, name)
    got = _shape(value)
    want = _tuple(shape)
    if got is None:
        _fail(f"{name} is a ragged list: expected shape {want}")
    if got != want:
        if _len(got) == 2 and got == want[::-1]:
            _fail(f"{name} has shape {got}, expected {want}: is it transposed?")
        _fail(f"{name} has shape {got}, expected {want}")
    _passed(f"{name} has the shape {want}")


def protect(namespace):
    """Undo, around every cell, what an answer cell may do to the checks' setting.

    The exercises' locked first cell calls ``protect(globals())``; see
    :func:`armlab.grading.sandbox.protect`.
    """
    _sandbox.protect(namespace, __all__)


_sandbox.harden(globals())
