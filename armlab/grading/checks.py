"""The checks the exercises' test cells call, as they run in a student's own kernel.

``check_function(func, quantity, "worked")`` checks a student's function at the chapter's
worked case, ``"fresh"`` at fresh cases (a failure never prints the expected value);
``quantity`` names a reference (:mod:`armlab.grading.references`). Here the checks judge
at once, with the armlab names the part does not allow replaced; grading never runs them
in the student's process (:mod:`armlab.grading.runner`, :mod:`armlab.grading.judge`). A
failed check raises :class:`~armlab.grading.judge.CheckFailed`.
"""

import sys
import warnings

import armlab
from armlab.grading import judge, runner
from armlab.grading.cases import decode, encode
from armlab.grading.references import lookup
from armlab.grading.runner import record, student_args

__all__ = ["check_function", "check_choice", "checked_when_graded", "deg"]

CheckFailed = judge.CheckFailed


def _fail(text):
    raise CheckFailed(judge.wrap(text, judge.WIDTH - len(judge.FAILED_MARK))) from None


def _passed(text):
    print(judge.wrap(judge.PASSED_MARK + text))


def _off(name):
    def off(*args, **kwargs):
        raise RuntimeError(f"armlab.{name} is not available while this part is checked: the "
                           "part asks you to compute it yourself (its text lists the armlab "
                           "functions it allows)")
    return off


class _Checking:
    """While a student's function is checked: the names the part does not allow switched
    off in the ``armlab`` namespace, earlier parts' functions replaced by their references
    in the function's globals (no cascades), and warnings silenced (as when graded)."""

    def __init__(self, ref, func):
        self.allowed = {a.split(".")[0] for a in ref.allow}
        self.spatial = {a.split(".", 1)[1] for a in ref.allow if a.startswith("spatial.")}
        self.uses = dict(ref.uses)
        self.namespace = getattr(func, "__globals__", None)
        self.saved, self.swapped = {}, {}

    def __enter__(self):
        self.warnings = warnings.catch_warnings()
        self.warnings.__enter__()
        warnings.simplefilter("ignore")           # as when graded: nine cases, nine warnings
        arms = {"PlanarArm", "tabletop_arm", "rod_arm", "statics_arm"}
        for name in armlab.__all__:
            if name not in self.allowed and name not in arms:
                self.saved[name] = getattr(armlab, name)
                setattr(armlab, name, _off(name))
        spatial = sys.modules.get("armlab.spatial")
        if spatial is not None:                   # its names, as "spatial.<name or module>"
            allowed = {"Chain", "load_urdf", "so101", "panda", "planar_chain"}
            for item in self.spatial:
                module = sys.modules.get(f"armlab.spatial.{item}")
                allowed.update(getattr(module, "__all__", ()) if module else (item,))
            for name in spatial.__all__:
                if name not in allowed:
                    self.saved["spatial." + name] = getattr(spatial, name)
                    setattr(spatial, name, _off("spatial." + name))
        if isinstance(self.namespace, dict):
            for key, ref in self.uses.items():
                self.swapped[key] = self.namespace.get(key, _MISSING)
                self.namespace[key] = _stand_in(ref)
        return self

    def __exit__(self, *exc):
        self.warnings.__exit__(*exc)
        for name, value in self.saved.items():
            if name.startswith("spatial."):
                setattr(sys.modules["armlab.spatial"], name[8:], value)
            else:
                setattr(armlab, name, value)
        for key, value in self.swapped.items():
            if value is _MISSING:
                self.namespace.pop(key, None)
            else:
                self.namespace[key] = value
        return False


_MISSING = object()


def _stand_in(ref):
    """A function that computes ``ref`` in place of an earlier part's answer: the student's
    arguments as the sandbox would send them (``runner.encode``), the reference's answer as the
    student's function would get it (``runner.decode``)."""

    def stand_in(*args):
        return runner.decode(encode(ref.function(*[decode(runner.encode(a)) for a in args])))

    stand_in.__name__ = stand_in.__qualname__ = ref.quantity.rsplit(".", 1)[-1]
    return stand_in


def deg(*angles):
    """Angles in degrees as a list of radians: ``deg(30, 60)``."""
    return [float(a) * 3.141592653589793 / 180.0 for a in angles]


def check_function(func, quantity, cases="worked", *, name=None):
    """Check a student's function against a registered reference.

    Parameters
    ----------
    func : callable
        The student's function; its parameters are the reference's.
    quantity : str
        The reference, ``"<chapter>.<name>"`` (``"kinematics.jacobian"``).
    cases : str or list of Case
        ``"worked"``: the chapter's worked case(s), the visible check; a failure shows
        the book's value. ``"fresh"`` (or another set's name): fresh cases, the hidden
        check; a failure names the case in words only. A list of cases is checked like
        fresh ones.
    name : str, optional
        How messages call the function (default: its ``__name__``).
    """
    ref = lookup(quantity)
    label = name or getattr(func, "__name__", None) or "your function"
    if not callable(func):
        _fail(f"{label} is not a function: define it with def")
    show = cases == "worked"
    selected = ref.cases(cases) if isinstance(cases, str) else list(cases)
    recs = []
    for case in selected:
        args = student_args(encode(ref.arguments(case)))
        with _Checking(ref, func):
            try:
                rec = record(func(*args))
            except Exception as exc:                          # noqa: BLE001
                rec = record(error=exc)
        if ref.is_design:
            recs.append(rec)
            continue
        message = judge.verdict(ref, case, rec, show=show, label=label)
        if message:
            _fail(message)
    if ref.is_design:
        fraction, message = judge.design_result(ref, selected, recs, show=show, label=label)
        if fraction < 1.0:
            _fail(message)
        _passed(message)
        return
    _passed(judge.passed(ref, selected, "worked" if show else "fresh", label))


def check_choice(answer, expected, choices, name="your answer", explain=""):
    """Check a multiple-choice answer given as one of a few short strings.

    ``expected=None`` only checks that the answer is one of ``choices`` (a visible check
    of the form).
    """
    message = judge.choice(record(answer) if isinstance(answer, str) else {"kind": "other"},
                           expected, choices, name, explain)
    if message:
        _fail(message)
    _passed(f"{name} is one of the choices" if expected is None else f"{name} is right")


def checked_when_graded():
    """What a hidden test cell shows in a student's notebook: its checks run when graded."""
    print("(checked when your notebook is graded)")
