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
from armlab.grading.purepy import fmt as _fmt
from armlab.grading.purepy import shape as _shape
from armlab.grading.references import lookup as _lookup

from armlab.grading.messages import CHECK_NAMES as _CHECK_NAMES
from armlab.grading.messages import PASSED_MARK as _PASSED_MARK

__all__ = list(_CHECK_NAMES)

_CheckFailed = _sandbox.CheckFailed
_print = print
_BaseException = BaseException
_float = float
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
    lines, line = [], ""
    for word in text.split(" "):
        if line and _len(line) + 1 + _len(word) > width:
            lines.append(line)
            line = word
        else:
            line = word if not line else line + " " + word
    lines.append(line)
    return "\n".join(lines)


def _fail(text):
    raise _CheckFailed(_wrap(text)) from None


def _passed(text):
    """The one line a passing check prints (never an error: printing is not checked)."""
    try:
        _print(_PASSED_MARK + text)
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


def _judge(ref, args, value, expected, call, where, show):
    """Raise with a useful message unless ``value`` matches ``expected``."""
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
    if show:
        text = f"{call} at {where} is {_fmt(value)}, the book's value is {_fmt(expected)}"
    else:
        text = f"{call} is wrong at {where}: yours is {_fmt(value)}"
    _fail_with_hint(text, hint, ref.advice)


def _fail_with_hint(text, hint, advice):
    """Fail with ``text``, then the mistake's hint, or else the reference's advice."""
    if hint:
        text += f": {hint}"
    elif advice:
        text += f". {advice[0].upper()}{advice[1:]}"
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
        result = _call_student(func, [_for_student(a) for a in args], call,
                               allowed=ref.allow, stand_ins=stand_ins)
        value = _plain(result, f"{call} at {where}")
        _judge(ref, args, value, expected, call, where, show)
    if show and _len(selected) == 1:
        _passed(f"{call} gives the book's value at {where}")
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
    _fail_with_hint(f"{name} is {_fmt(value)}, which is not it", hint, ref.advice)


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
        _fail(f"{name} is {answer!r}, which is not it. {explain}".strip())
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
