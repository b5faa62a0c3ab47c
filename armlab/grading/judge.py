"""Judge what a student's function returned against its reference, in words.

Used by the grader on a sandbox's records and by a student's kernel on the visible case. A
verdict is ``None`` (right) or a failed check's message: what was wrong, at which case, the
student's value, the book's value (visible checks only) and a hint. A hidden expected value
is never written.

>>> from armlab.grading.references import lookup
>>> ref = lookup("kinematics.jacobian")
>>> case = ref.cases("worked")[0]
>>> print(verdict(ref, case, {"kind": "value", "value": [[0.0, 0.0], [0.9, 0.4]]}, show=True))
jacobian(arm, q) at the wall pose of Example 2 (q = (30°, 60°) on the chapter's arm) is ((0, 0), (0.9, 0.4)), the book's value is ((-0.65, -0.4), (0.433, 0)). Column j is z x (p_tip - p_j), the lever from joint j to the tip turned by +90 degrees
"""

from armlab.grading.cases import describe
from armlab.grading.purepy import close, flat, fmt, isfinite, shape

PASSED_MARK = "\u2713 "
"""Starts the one line a passing check prints."""
FAILED_MARK = "\u2717 "
"""Starts a failed check's message."""
WIDTH = 88
"""Characters per line of a check's message (a notebook's output and a feedback page)."""

INTEGERS = ("the right numbers with their fractions cut off: an array made from whole "
            "numbers (np.array([0, 0]), np.zeros(2, dtype=int)) keeps only whole numbers when "
            "you assign into it; make it from floats (np.zeros(2))")
CLOSE = ("close, but not within the check's tolerance: is a number rounded, or a step or "
         "an iteration too coarse?")
SYMBOLS = ("tau", "qd", "qdd", "omega", "zeta", "alpha", "beta", "delta", "theta", "phi",
           "sigma", "dt", "kp", "kd", "ki")


class CheckFailed(AssertionError):
    """A failed check. In a notebook its message is all that shows: IPython renders
    ``_render_traceback_`` instead of a traceback through the checks' code."""

    def _render_traceback_(self):
        return [wrap(FAILED_MARK + str(self))]


def wrap(text, width=WIDTH):
    """``text`` with every line longer than ``width`` broken at spaces."""
    out = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = word if not line else line + " " + word
        out.append(line)
    return "\n".join(out)


# ---------------------------------------------------------------- a record's value
_REFUSED = {
    "bool": "is a truth value ({}): expected a number",
    "str": "is a str: expected a float, an int, a list of numbers or a numpy array of real "
           "numbers",
    "large": "is far too large: expected a few numbers",
    "deep": "is nested too deeply",
}


def value_of(rec, name):
    """The number(s) in a record, or raise :class:`CheckFailed` saying what came instead.

    ``name`` is what the message calls the value (``jacobian(arm, q) at q = ...``).
    """
    kind = rec.get("kind") if isinstance(rec, dict) else None
    if kind == "value":
        value = rec.get("value")
        if not _numbers(value):
            raise CheckFailed(f"{name} is not made of numbers")
        if any(x != x for x in flat(value)):
            raise CheckFailed(f"{name} contains nan: expected numbers")
        return value
    if kind == "none":
        raise CheckFailed(f"{name} is None: is the return statement missing, or does a branch "
                          "of the function end without one?")
    if kind == "str":
        raise CheckFailed(f"{name} {_REFUSED['str']}")
    if kind == "expr":
        raise CheckFailed(f"{name} is a SymPy expression: expected numbers (float(x), or "
                          "np.array(M, dtype=float) for a matrix)")
    if kind == "refused":
        why = str(rec.get("why", ""))
        if why.startswith("type:"):
            raise CheckFailed(f"{name} is a {why[5:]}: expected a float, an int, a list of "
                              "numbers or a numpy array of real numbers")
        if why.startswith("dtype:"):
            raise CheckFailed(f"{name} is an array of dtype {why[6:]}: expected real numbers")
        raise CheckFailed(f"{name} {_REFUSED.get(why, 'is not a number').format('True/False')}")
    raise CheckFailed(describe_failure(rec, name))


def _numbers(value, depth=4, items=10_000):
    """Whether ``value`` is a number or nested lists of numbers, at most ``depth`` deep and
    ``items`` long in all (a record comes from the sandbox: it is checked, not trusted)."""
    todo, count = [(value, 0)], 0
    while todo:
        item, level = todo.pop()
        count += 1
        if count > items or level > depth:
            return False
        if isinstance(item, list):
            todo.extend((x, level + 1) for x in item)
        elif isinstance(item, bool) or not isinstance(item, (int, float)):
            return False
    return True


def describe_failure(rec, name, call=None):
    """What went wrong in a call that returned nothing to judge, in words: ``name`` is the
    call at its case (``f(arm, q) at q = ...``), ``call`` the call alone."""
    call = call or name.split(" at ")[0]
    kind = rec.get("kind") if isinstance(rec, dict) else None
    if kind == "error":
        kind_name, text = str(rec.get("type", "Exception")), str(rec.get("message", ""))
        if kind_name == "NotImplementedError":
            return (f"{call} is not written yet: it still raises NotImplementedError (put your "
                    "code in place of the line raise NotImplementedError())")
        if kind_name == "ArmlabOff":
            return f"{call} called armlab: {text}"
        if kind_name == "RecursionError":
            return f"{name} recursed without end"
        return f"{name} raised {kind_name}" + (f": {text}" if text else "")
    if kind == "timeout":
        return f"{name} ran past its CPU limit and was stopped"
    if kind == "missing" and rec.get("cell"):
        function, line = call.split("(")[0], rec.get("line")
        line = line if isinstance(line, int) and not isinstance(line, bool) else "?"
        return (f"{call} is not defined: its cell, {str(rec['cell'])[:100]}, stopped at line "
                f"{line} with {str(rec.get('error', 'an error'))[:300]}, before "
                f"def {function} ran. A cell runs from its top, in Jupyter too: call a "
                "function below its def (or in a cell after it)")
    if kind == "missing":
        return f"{call} is not defined: did its cell run without an error?"
    if kind == "notcallable":
        return f"{call} is a {rec.get('type', 'value')}, not a function: define it with def"
    return f"the grader could not read what {name} returned"


# ---------------------------------------------------------------- comparing
def _mistake(ref, args, value):
    """The hint of the first mistake whose value matches ``value``, or None."""
    index = _mistake_index(ref, args, value)
    return None if index is None else ref.mistakes[index][1]


def _mistake_index(ref, args, value):
    """The index in ``ref.mistakes`` of the first mistake whose value matches ``value``, or
    None."""
    return next(_mistakes_matching(ref, args, value), None)


def _mistakes_matching(ref, args, value):
    """The indices in ``ref.mistakes`` whose values match ``value``, in order."""
    for index, (wrong, _message) in enumerate(ref.mistakes):
        try:
            alt = wrong(*args)
        except (ArithmeticError, ValueError, AssertionError, TypeError):
            continue
        if shape(alt) == shape(value) and close(value, alt, ref.rtol, ref.atol):
            yield index


def _same_numbers(value, want):
    """``value`` in the shape ``want`` when it holds the same numbers in a shape that only
    adds dimensions of length one: a column or a row (an ``np.matrix``, or
    ``J.T @ F.reshape(2, 1)``) for a vector, a one-element array for a number."""
    got = shape(value)
    if got is None or got == want or len(got) == len(want):
        return value
    if [d for d in got if d != 1] == [d for d in want if d != 1]:
        numbers = flat(value)
        if want == ():
            return numbers[0]
        if len(want) == 1:
            return numbers
    return value


def _truncated(value, expected):
    """Whether ``value`` is ``expected`` with every fraction cut off (an integer array
    filled in place), while ``expected`` has fractions."""
    mine, right = flat(value), flat(expected)
    if len(mine) != len(right):
        return False
    fractions = False
    for x, y in zip(mine, right):
        if not isfinite(y):
            if x != y:
                return False
            continue
        if not isfinite(x) or x != float(int(y)):
            return False
        fractions = fractions or y != float(int(y))
    return fractions


def _digits(value, expected):
    """Decimals that show ``value`` and ``expected`` apart (4, or more when 4 look alike)."""
    digits = 4
    while digits < 12 and fmt(value, digits) == fmt(expected, digits):
        digits += 1
    return digits


def _per_entry(value, unit):
    """True where ``unit`` is a tuple of units, one for each entry of the list ``value``
    (``("deg", "deg", "")``: two angles and a number)."""
    return isinstance(unit, tuple) and isinstance(value, list) and len(value) == len(unit)


def _in_unit(value, unit):
    """``value`` as a message shows it: ``unit`` ``"deg"`` turns radians into degrees; a tuple
    of units gives each entry its own."""
    if _per_entry(value, unit):
        return [_in_unit(v, u) for v, u in zip(value, unit)]
    if unit != "deg":
        return value
    if isinstance(value, list):
        return [_in_unit(v, unit) for v in value]
    return value * 180.0 / 3.141592653589793


def _text(value, unit, digits=4):
    """A value as text, with its unit: ``(5.5436°, 0.8545°)``, ``(1.2, 3) N m``, and with a
    tuple of units ``(1.7918°, 2.1031°, 2)``."""
    if _per_entry(value, unit):
        return "(" + ", ".join(_text(v, u, digits) for v, u in zip(value, unit)) + ")"
    if isinstance(unit, tuple):
        unit = ""
    if unit != "deg":
        return fmt(value, digits) + (f" {unit}" if unit else "")
    if isinstance(value, list):
        return "(" + ", ".join(_text(v, unit, digits) for v in value) + ")"
    return fmt(value, digits) + "°"


def sentence(text):
    """``text`` as a sentence: its first word capitalised, unless that word is a symbol
    (``g_j``, ``tau``, ``a = ...``), whose case carries its meaning."""
    words = text.split(" ")
    first = words[0].rstrip(",:;")
    after = words[1] if len(words) > 1 else ""
    word = first.isalpha() and first.islower() and first not in SYMBOLS
    if word and (len(first) > 1 or first == "a") and (after[:1].isalpha() or first != words[0]):
        return first[0].upper() + text[1:]
    return text


def with_hint(text, hint, advice):
    """``text``, then the mistake's hint, or else the reference's advice."""
    if hint:
        return f"{text}: {hint}"
    if advice:
        return f"{text}. {sentence(advice)}"
    return text


def compare(ref, args, value, expected, call, where, show):
    """None if ``value`` matches ``expected``, else the message of the failed check."""
    value = _same_numbers(value, shape(expected))
    got, want = shape(value), shape(expected)
    if got == want and close(value, expected, ref.rtol, ref.atol):
        return None
    hint = _mistake(ref, args, value)
    if got != want:
        if hint:
            return f"{call} at {where}: {hint}"
        if got is None:
            return f"{call} at {where} returned a ragged list: expected shape {want}"
        extra = ": is it transposed?" if len(want) == 2 and got == want[::-1] else ""
        return f"{call} at {where} has shape {got}, expected {want}{extra}"
    advice = ref.advice
    if not hint and _truncated(value, expected):
        hint = INTEGERS
    elif not hint and close(value, expected, 1e-3, ref.atol):
        hint, advice = CLOSE, None             # the right way, not quite the right number
    unit = dict(ref.units).get("return", "")
    mine, right = _in_unit(value, unit), _in_unit(expected, unit)
    if show:
        digits = _digits(mine, right)
        text = (f"{call} at {where} is {_text(mine, unit, digits)}, the book's value is "
                f"{_text(right, unit, digits)}")
    else:
        text = f"{call} is wrong at {where}: yours is {_text(mine, unit)}"
    return with_hint(text, hint, advice)


def _opening(ref, case, rec, label):
    """What :func:`verdict` and :func:`design_verdict` start from: ``(args, call, where,
    value)``, ``value`` the record's numbers or the :class:`CheckFailed` saying what came
    instead."""
    args = ref.arguments(case)
    call = _call(ref, label)
    where = describe(case, ref.params, dict(ref.units))
    try:
        value = value_of(rec, f"{call} at {where}")
    except CheckFailed as failed:
        value = failed
    return args, call, where, value


def _call(ref, label=None):
    """How messages write the student's function: ``gain(arm, q_start, ...)``."""
    return f"{label or ref.quantity.rsplit('.', 1)[-1]}({', '.join(ref.params)})"


def verdict(ref, case, rec, *, show, label=None):
    """None if the record of one case is right, else the failed check's message.

    ``show``: a visible check, whose message may show the book's value.
    """
    if ref.is_derivation:                       # a SymPy answer: read as data, by equivalence
        from armlab.grading import symbolic

        return symbolic.verdict(ref, case, rec, label=label)
    args, call, where, value = _opening(ref, case, rec, label)
    if isinstance(value, CheckFailed):
        return str(value)
    return compare(ref, args, value, ref.function(*args), call, where, show)


def design_verdict(ref, case, rec, *, label=None):
    """What a student's design does on one case: ``(fraction of the spec met, words)``;
    an answer that is not numbers, or a judge that cannot run it, meets none of it."""
    args, call, where, value = _opening(ref, case, rec, label)
    if isinstance(value, CheckFailed):
        return 0.0, str(value)
    try:
        fraction, words = ref.function(*args, value)
    except (ArithmeticError, ValueError, TypeError, IndexError) as exc:
        return 0.0, f"{call} at {where}: the design could not be tried ({exc})"
    fraction = min(1.0, max(0.0, float(fraction)))
    return fraction, f"{call} at {where}: {words}"


def same_design(recs):
    """Whether a design answer returned the same numbers at every one of two or more
    cases. Where that design meets the spec of some cases and not of others, the cases ask
    for different designs, and it meets a spec by chance: it ignores its cases."""
    values = [r.get("value") for r in recs if isinstance(r, dict) and r.get("kind") == "value"]
    return len(recs) > 1 and len(values) == len(recs) and all(v == values[0] for v in values)


def design_result(ref, cases, recs, *, show, label=None):
    """A design part's check over its cases: ``(fraction, message)``, the fraction the mean
    over the cases; the message says, for each case that missed the spec, what failed
    (and, for the visible check, what the design did even when it met the spec).

    A design that ignores its cases (:func:`same_design` at every case, meeting some specs,
    fully or in part, and not others) earns nothing for the check: its points follow the cases it
    meets by chance, not the design.
    """
    fractions, words = [], []
    for case, rec in zip(cases, recs):
        fraction, text = design_verdict(ref, case, rec, label=label)
        fractions.append(fraction)
        if fraction < 1.0 or show:
            words.append(text)
    call = _call(ref, label)
    lucky = sum(f > 0.0 for f in fractions)
    if cases and same_design(recs) and min(fractions) < 1.0 and lucky:
        value = recs[0]["value"]
        shown = fmt(value) if len(flat(value)) <= 6 else f"{len(flat(value))} numbers"
        return 0.0, (f"{call} returned the same design, {shown}, at every one of the "
                     f"{len(cases)} cases checked, although their specs ask for different "
                     f"designs: the {lucky} spec{'s' if lucky > 1 else ''} it meets, fully "
                     "or in part, it meets by chance, so the check gives it nothing. A design "
                     "must follow its case's inputs")
    fraction = sum(fractions) / len(cases) if cases else 0.0
    if fraction >= 1.0 and not show:
        return 1.0, f"{call} meets the spec at all {len(cases)} cases checked"
    words = list(dict.fromkeys(words))          # "not written yet" once, not once a case
    if fraction <= 0.0 and len(words) == 1 and len(cases) > 1:
        return 0.0, words[0]
    head = (f"meets {sum(f >= 1.0 for f in fractions)} of {len(cases)} cases' spec "
            f"({fraction:.0%} of the points)" if len(cases) > 1 else "")
    return fraction, "\n".join(([head] if head else []) + words)


# ---------------------------------------------------------------- a slip carried
CARRIED = 0.5
"""The share of a check's points a carried slip earns (:func:`carried`): a conceptual slip
costs fully where it is first made, and half of each later check it is the only fault of.
Not all of it: the slip is still wrong there, and a fair TA took from 1/6 to 1/2 of a
carried part in the trial class; never more than that, so writing a slip on purpose in a
cheap early part never buys an expensive later part beyond what a TA would give (and the
right answer always earns more)."""

CARRIED_WORDS = "half"
""":data:`CARRIED` in a feedback's words."""

NAMED = 0.5
"""The share of a derivation check's points its named mistakes earn (:func:`named_only`):
the expression is right but for a slip the part names (a sign, a missing or doubled term,
a transposed factor, degrees), at every case it is wrong. Half, as a carried slip: a fair
TA gave 3 of 8 for the trial class's rotor speed taken as r qd2; never more, so the right
derivation always earns more."""

NAMED_WORDS = "half"
""":data:`NAMED` in a feedback's words."""

RIGHT = "right"
"""What :func:`matched` says of a case whose value is right."""


def matched(ref, case, rec):
    """What a student's value at one case is: :data:`RIGHT`, the index in ``ref.mistakes``
    of the first mistake it matches (the one whose hint a failed check shows), or None (not
    a value, or a wrong one no mistake explains). A design is never matched.

    >>> from armlab.grading.references import lookup
    >>> ref = lookup("control.computed_torque_law")
    >>> case = ref.cases("worked")[0]
    >>> right = ref.function(*ref.arguments(case))
    >>> matched(ref, case, {"kind": "value", "value": right})
    'right'
    >>> k = next(k for k, slip in enumerate(ref.slips) if slip)
    >>> wrong = ref.mistakes[k][0](*ref.arguments(case))
    >>> index = matched(ref, case, {"kind": "value", "value": wrong})
    >>> ref.slips[index]
    'the error taken as the measured state minus the plan'
    """
    if ref.is_design:
        return None
    args = ref.arguments(case)
    if ref.is_derivation:
        return _derivation_matched(ref, case, rec, args)
    try:
        value = value_of(rec, "the value")
    except CheckFailed:
        return None
    expected = ref.function(*args)
    value = _same_numbers(value, shape(expected))
    if shape(value) == shape(expected) and close(value, expected, ref.rtol, ref.atol):
        return RIGHT
    return _mistake_index(ref, args, value)


def _derivation_matched(ref, case, rec, args):
    """:func:`matched` for a derivation's SymPy answer, by the equivalence its check uses."""
    from armlab.grading import symbolic

    if symbolic.verdict(ref, case, rec) is None:
        return RIGHT
    return next(_derivation_mistakes(ref, rec, args), None)


def _derivation_mistakes(ref, rec, args):
    """The indices of the mistakes a derivation's answer (one case's record) agrees with,
    by the equivalence its check uses, in order."""
    from armlab.grading import symbolic
    from armlab.grading.runner import tree_of

    names = symbolic.symbols_of(args)
    kind = rec.get("kind") if isinstance(rec, dict) else None
    try:
        tree = tree_of(rec.get("value")) if kind == "value" else rec.get("tree")
        mine = symbolic.rebuild(tree, names) if kind in ("value", "expr") else None
        right = symbolic.rebuild(tree_of(ref.function(*args)), names)
    except (symbolic.Refused, TypeError, ValueError, ArithmeticError):
        return
    if mine is None:
        return
    where = (symbolic.points(names, ref.quantity)
             if symbolic.shape(mine) == symbolic.shape(right) else None)
    for index, (wrong, _message) in enumerate(ref.mistakes):
        try:
            alt = symbolic.rebuild(tree_of(wrong(*args)), names)
            if symbolic.shape(alt) == symbolic.shape(mine) and (
                    where is None or not symbolic.differs(mine, alt, where)):
                yield index
        except (symbolic.Refused, TypeError, ValueError, ArithmeticError):
            continue


def slips_made(ref, cases, recs):
    """The slips (``ref.mistake(..., slip=...)``) whose mistakes the values of a failed
    check match at one case or more, sorted."""
    if not any(ref.slips):
        return []
    found = set()
    for case, rec in zip(cases, recs):
        if isinstance(matched(ref, case, rec), int):
            found |= _slips_matched(ref, case, rec)
    return sorted(found)


def carried(ref, cases, recs, made=()):
    """The slip a failed check is, when it is its only fault: at every case the value is
    right or matches a mistake of that one slip (at one case or more; a value that another
    mistake matches first counts when a mistake of the slip matches it too); else None.
    Where the values fit two slips' mistakes at every case, the one made in an earlier
    part (``made``) is it.

    A case that raised, a value no mistake explains, a mistake that is no slip or two
    different slips: None, and the check fails as it did.
    """
    if not any(ref.slips) or not cases or len(recs) != len(cases):
        return None
    common = None
    for case, rec in zip(cases, recs):
        index = matched(ref, case, rec)
        if index == RIGHT:
            continue
        slips = set() if index is None else _slips_matched(ref, case, rec)
        common = slips if common is None else common & slips
        if not common:
            return None
    if common is None:
        return None
    earlier = sorted(common & set(made))
    return earlier[0] if earlier else common.pop() if len(common) == 1 else None


def _slips_matched(ref, case, rec):
    """The slips whose mistakes match the value at this case (a slip's value can coincide
    with another mistake's, or another slip's, at one case)."""
    args = ref.arguments(case)
    if ref.is_derivation:
        return {ref.slips[i] for i in _derivation_mistakes(ref, rec, args) if ref.slips[i]}
    value = _same_numbers(value_of(rec, "the value"), shape(ref.function(*args)))
    return {ref.slips[i] for i in _mistakes_matching(ref, args, value) if ref.slips[i]}


def named_only(ref, cases, recs):
    """Whether a failed check of a derivation part has named mistakes as its only faults:
    at every case the expression is right or matches one of ``ref.mistakes``, and at one
    case or more it is wrong. Any other part, a case that did not run, an unreadable
    expression or one no mistake explains: False."""
    if not ref.is_derivation or not cases or len(recs) != len(cases):
        return False
    seen = [matched(ref, case, rec) for case, rec in zip(cases, recs)]
    return None not in seen and any(index != RIGHT for index in seen)


def named_words(message):
    """A failed derivation check whose only faults are named mistakes, in words."""
    return (f"{message}\nThat named mistake is the only fault found: this check earns "
            f"{NAMED_WORDS} its points")


def carried_words(message, part, slip):
    """A carried slip's failed check, in words: its own message, then that it counts once."""
    return (f"{message}\nThe same slip as {part} ({slip}), counted once there: this check "
            f"earns {CARRIED_WORDS} its points")


def passed(ref, cases, which, label=None):
    """The one line a passing check prints."""
    call = _call(ref, label)
    if which == "worked" and len(cases) == 1:
        where = cases[0].label or describe(cases[0], ref.params, dict(ref.units))
        return f"{call} gives the book's value at {where}"
    if which == "worked":
        return f"{call} gives the book's values at its {len(cases)} worked cases"
    return f"{call} is right at all {len(cases)} cases checked"


def choice(answer_rec, expected, choices, name, explain=""):
    """None if a multiple-choice answer is right (or, with ``expected=None``, one of the
    choices), else the message."""
    choices = [str(c) for c in choices]
    if not isinstance(answer_rec, dict) or answer_rec.get("kind") != "str":
        if isinstance(answer_rec, dict) and answer_rec.get("kind") == "missing":
            return f"{name} is not defined: set it in its answer cell"
        return f"{name} should be one of the strings {choices!r}"
    answer = str(answer_rec.get("value", ""))
    got = answer.strip().lower()
    if got not in [c.lower() for c in choices]:
        return f"{name} is {answer!r}: choose one of {choices!r}"
    if expected is not None and got != str(expected).lower():
        return f"{name} is {answer!r}, which is not the right choice. {explain}".strip()
    return None
