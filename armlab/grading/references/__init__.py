"""The grading references: one module per chapter, found and registered here.

Each chapter's exercise set has its own module in this folder
(``statics.py``, ``gravity.py``, ...): functions (numpy, and armlab) that compute what
a student's function must return, decorated with :func:`reference`. Nothing
else needs editing to add a chapter: every module in this folder whose name
does not start with ``_`` is loaded when :mod:`armlab.grading` is imported,
and its references are registered as ``"<module>.<function>"``
(``"kinematics.jacobian"``), the name a test cell passes to a check.

A reference declares what its check needs (see ``armlab/grading/AUTHORING.md``):

* ``worked``: the chapter's worked case(s), :class:`~armlab.grading.cases.Case`
  with a label; the visible check runs there and may show the expected value;
* its fresh cases, a function of an :class:`~armlab.grading.cases.Rng` given
  with ``@ref.fresh``: the hidden check runs there and never shows them; more
  sets of fresh cases, each checked by a hidden cell of its own, are given
  with ``@ref.fresh("three links")`` (so a part that asks for two things, say
  two links and any number of links, grades them apart);
* ``allow``: the armlab functions a student's function may call (everything
  else in armlab is switched off while it runs);
* ``uses``: earlier parts' functions, by the name the notebook gives them,
  that the student's function may call; the check puts their references in
  their place (no cascades);
* its likely mistakes, with ``@ref.mistake("message")`` on a function that
  computes the wrong value a mistake gives (or ``ref.mistake("message", wrong)``,
  ``wrong`` a helper with the mistake switched on), and the hint a student gets
  when their value matches it; ``ref.mistakes_of(helper, [(message, switches), ...])``
  declares several made by one helper's keyword switches. ``slip="<name>"`` (a third
  item of a ``mistakes_of`` entry) says which conceptual slip a mistake is: the same
  name on mistakes of different parts makes a slip carried from an earlier part cost
  once (:func:`armlab.grading.judge.carried`).

The helpers every chapter uses are here too: ``al`` (armlab, bound once), ``deg``,
``listed``, ``planar_arm``, ``changed`` and ``drawn_arms``; and for derivations,
``symbols``, ``all_symbols`` (the worked case) and ``exact_draws`` (the fresh ones).

References compute in the trusted grading process, never in the sandbox a
student's notebook runs in; a student's own kernel uses them only for the visible
checks. Each module is imported once, when :mod:`armlab.grading` is.
"""

import functools
import importlib as _importlib
import os as _os
import types

import numpy as np

from armlab.grading.cases import Arm, Case

__all__ = ["reference", "design", "derivation", "Reference", "lookup", "quantities",
           "chapters", "chapter", "Arm", "Case", "al", "deg", "listed", "planar_arm",
           "changed", "drawn_arms", "symbols", "all_symbols", "exact_draws"]

_REGISTRY = {}
_HERE = _os.path.dirname(_os.path.abspath(__file__))


class Reference:
    """One graded quantity: its function and what its checks need.

    Built by :func:`reference` (the function computes the expected value) or
    :func:`design` (the function judges a student's design: ``is_design``); calling it
    calls the function.
    """

    __slots__ = ("quantity", "function", "params", "worked", "fresh_cases", "fresh_sets",
                 "mistakes", "slips", "allow", "uses", "rtol", "atol", "units", "advice",
                 "is_design", "is_derivation", "_open")

    def __init__(self, function, quantity, worked, allow, uses, rtol, atol, units, advice,
                 is_design=False, is_derivation=False):
        code = function.__code__
        params = tuple(code.co_varnames[:code.co_argcount - (1 if is_design else 0)])
        if not callable(worked):           # a derivation's worked cases may come lazily
            worked = (worked,) if isinstance(worked, Case) else tuple(worked)
        values = dict(quantity=quantity, function=function, params=params, worked=worked,
                      fresh_cases=None, fresh_sets={}, mistakes=[], slips=[], allow=tuple(allow),
                      uses=dict(uses or {}), rtol=float(rtol), atol=float(atol),
                      units=dict(units or {}), advice=advice, is_design=is_design,
                      is_derivation=is_derivation, _open=True)
        for key, value in values.items():
            object.__setattr__(self, key, value)
        for case in () if callable(worked) else worked:
            self.arguments(case)

    def __setattr__(self, key, value):
        raise AttributeError(f"the reference {self.quantity} is read-only")

    def __call__(self, *args):
        return self.function(*args)

    def __repr__(self):
        return f"<reference {self.quantity}({', '.join(self.params)})>"

    # -- declarations (while the module loads)
    def fresh(self, generator):
        """Decorator: ``generator(rng)`` returns the list of fresh :class:`Case` to check.

        ``@ref.fresh`` gives the cases a hidden cell checks with ``"fresh"``;
        ``@ref.fresh("three links")`` gives another set, checked by a hidden cell
        of its own with ``check_function(f, quantity, "three links")``.
        """
        self._require_open()
        if isinstance(generator, str):
            name = generator
            if name in ("worked", "fresh") or name in self.fresh_sets:
                raise ValueError(f"{self.quantity} already has cases named {name!r}")

            def named(function):
                self._require_open()
                self.fresh_sets[name] = function
                return function
            return named
        object.__setattr__(self, "fresh_cases", generator)
        return generator

    def mistake(self, message, wrong=None, *, slip=None):
        """A likely mistake: ``wrong`` (same parameters) computes the value it gives; a
        student whose value matches it gets ``message``. Without ``wrong``, a decorator.

        ``slip`` names the conceptual slip the mistake is (``"error sign"``): mistakes of
        different parts that share the name are the same slip, written again by hand, and
        cost once (:func:`armlab.grading.judge.carried`). A claim a part quotes (a hint
        beginning "that is the claim") is never a slip: its value is in the part's text.

        >>> ref = Reference(lambda x, sign=1.0: sign * x, "demo.identity", worked=(),
        ...                 allow=(), uses=None, rtol=1e-6, atol=1e-9, units=None, advice=None)
        >>> ref.mistake("the sign", lambda x: -x, slip="sign")
        >>> @ref.mistake("twice")
        ... def _(x):
        ...     return 2 * x
        >>> [(wrong(2.0), message) for wrong, message in ref.mistakes], ref.slips
        ([(-2.0, 'the sign'), (4.0, 'twice')], ['sign', None])
        """
        self._require_open()
        if slip is not None and (not isinstance(slip, str) or not slip.strip()):
            raise ValueError(f"slip of a mistake of {self.quantity} must be a name, not {slip!r}")
        if slip is not None and message.startswith("that is the claim"):
            raise ValueError(f"slip: a mistake of {self.quantity} that is the part's claim "
                             "cannot be a slip (its value is given in the part's text)")

        def add(function):
            self.mistakes.append((function, message))
            self.slips.append(slip)
            return function
        if wrong is not None:
            add(wrong)
            return None
        return add

    def mistakes_of(self, wrong, pairs):
        """Likely mistakes that one helper makes with switches: for each ``(message,
        switches)`` pair, ``wrong`` called with the keywords ``switches`` computes the value
        the mistake gives, and ``message`` is its hint, in the order given; a third item,
        ``(message, switches, slip)``, is the mistake's ``slip`` (:meth:`mistake`).

        >>> ref = Reference(lambda x: x, "demo.scaled", worked=(), allow=(), uses=None,
        ...                 rtol=1e-6, atol=1e-9, units=None, advice=None)
        >>> ref.mistakes_of(lambda x, k=1.0: k * x, [("the sign", {"k": -1.0}, "sign"),
        ...                                         ("twice", {"k": 2.0})])
        >>> [(wrong(2.0), message) for wrong, message in ref.mistakes], ref.slips
        ([(-2.0, 'the sign'), (4.0, 'twice')], ['sign', None])
        """
        for message, switches, *slip in pairs:
            if len(slip) > 1:
                raise ValueError(f"pairs: an entry of {self.quantity}'s mistakes is (message, "
                                 "switches) or (message, switches, slip)")
            self.mistake(message, functools.partial(wrong, **switches),
                         slip=slip[0] if slip else None)

    def _require_open(self):
        if not self._open:
            raise AttributeError(f"the reference {self.quantity} is read-only")

    def _close(self):
        object.__setattr__(self, "mistakes", tuple(self.mistakes))
        object.__setattr__(self, "slips", tuple(self.slips))
        object.__setattr__(self, "uses", tuple(self.uses.items()))
        object.__setattr__(self, "units", tuple(self.units.items()))
        object.__setattr__(self, "fresh_sets", tuple(self.fresh_sets.items()))
        object.__setattr__(self, "_open", False)

    # -- use (by the checks and the tests)
    def arguments(self, case):
        """The case's arguments in the order of the reference's parameters."""
        missing = [p for p in self.params if p not in case.args]
        extra = [a for a in case.args if a not in self.params]
        if missing or extra:
            raise TypeError(f"a case of {self.quantity} needs exactly {self.params}: "
                            f"missing {missing}, unknown {extra}")
        return [case.args[p] for p in self.params]

    def set_names(self):
        """The names of the other sets of fresh cases (``@ref.fresh("name")``)."""
        sets = self.fresh_sets
        return [name for name, _ in (sets.items() if isinstance(sets, dict) else sets)]

    def cases(self, which="worked", key=None):
        """``"worked"`` or ``"fresh"`` cases, or another named set of fresh cases
        (fresh ones for the case ``key``, default this kernel's)."""
        from armlab.grading.cases import Rng

        if which == "worked":
            if callable(self.worked):
                out = list(self.worked())
                for case in out:
                    self.arguments(case)
                return out
            return list(self.worked)
        sets = dict(self.fresh_sets)
        if which == "fresh":
            if self.fresh_cases is None:
                raise LookupError(f"{self.quantity} declares no fresh cases (@{self.quantity}"
                                  ".fresh)")
            out = list(self.fresh_cases(Rng.for_quantity(self.quantity, key)))
        elif which in sets:
            out = list(sets[which](Rng.for_quantity(f"{self.quantity}:{which}", key)))
        else:
            known = ", ".join(repr(w) for w in ["worked", "fresh", *sets])
            raise ValueError(f"the cases of {self.quantity} are {known}, not {which!r}")
        for case in out:
            self.arguments(case)
        return out


def reference(function=None, *, worked=(), allow=(), uses=None, rtol=1e-6, atol=1e-9,
              units=None, advice=None):
    """Register a function of a chapter's references module as a graded quantity.

    Parameters
    ----------
    worked : Case or sequence of Case
        The chapter's worked case(s), each with a label.
    allow : sequence of str
        armlab names the student's function may call (``"tip_position"``, a
        module such as ``"kinematics"``, ``"PlanarArm.with_payload"``);
        ``armlab.arm`` (arms and presets) is always allowed.
    uses : dict, optional
        ``{notebook name: Reference}``: earlier parts' functions the student's
        function may call, replaced by their references while it is checked.
    rtol, atol : float
        Tolerance of the comparison: ``|yours - expected| <= atol + rtol |expected|``.
    units : dict, optional
        How parameters are shown in messages, beyond :data:`armlab.grading.cases.UNITS`;
        the key ``"return"`` gives the unit of the function's value (``"deg"``: radians
        shown in degrees, as the notebook's "try it" cell prints them; a tuple gives each
        entry of a list its own unit, ``("deg", "deg", "")`` for two angles and a number).
    advice : str, optional
        What to look at when a value is wrong and no mistake matches.
    """
    return _register(function, worked=worked, allow=allow, uses=uses, rtol=rtol, atol=atol,
                     units=units, advice=advice)


def design(function=None, *, worked=(), allow=(), uses=None, units=None, advice=None):
    """Register a design part: the student's function returns a design (gains, a step, a
    duration, poses), and ``function(*case arguments, answer) -> (fraction, words)`` judges
    what that design does on the case against the part's spec.

    ``fraction`` is 1 when the design meets the whole spec, 0 when it meets none of it,
    between for a design that nearly meets it; ``words`` say what the design did, and
    which part of the spec failed by how much ("settles in 0.62 s, the spec is 0.5 s").
    The part's points follow the mean fraction over its cases. Several designs can be
    right: nothing compares the answer with one number. The other arguments are those of
    :func:`reference`; ``answer`` is what the student's function returned, as numbers.
    """
    return _register(function, worked=worked, allow=allow, uses=uses, rtol=0.0, atol=0.0,
                     units=units, advice=advice, is_design=True)


def derivation(function=None, *, worked=(), units=None, advice=None):
    """Register a derivation part, graded symbolically (:mod:`armlab.grading.symbolic`):
    the student's function takes SymPy symbols (and exact numbers: a case's arguments are
    ``sympy.Symbol("q2", real=True)``, ``sympy.Rational(3, 5)``) and returns a SymPy
    expression or matrix, and ``function``, with the same parameters, returns the right
    one. The answer is right when it is equivalent (equal at exact rational points);
    ``@ref.mistake("hint")`` declares a likely mistake's expression. Nothing of armlab is
    allowed. ``worked`` may be a function returning the cases, so that SymPy is imported
    only when a derivation is checked.
    """
    return _register(function, worked=worked, allow=(), uses=None, rtol=0.0, atol=0.0,
                     units=units, advice=advice, is_derivation=True)


def _armlab_as_loaded():
    import armlab

    return types.SimpleNamespace(**{name: getattr(armlab, name) for name in armlab.__all__})


al = _armlab_as_loaded()
"""armlab's public names as they were when the references loaded, in a namespace of their
own, the one way a references module calls armlab (``al.jacobian``): while a student's
function is checked in their own kernel, the names its part does not allow are switched off
in the ``armlab`` namespace, and a reference standing in for an earlier part (``uses``) must
still compute with them.

>>> al.jacobian.__name__
'jacobian'
"""
_PLANAR = {}


def deg(*angles):
    """Degrees as a list of radians: ``deg(30, 60)`` is the pose (30°, 60°).

    >>> deg(180, -90)
    [3.141592653589793, -1.5707963267948966]
    """
    return np.radians(angles).tolist()


def listed(x):
    """Numbers as the references return them: a float or nested lists of floats, no -0.0.

    >>> listed(np.array([[-0.0, 1]]))
    [[0.0, 1.0]]
    """
    return (np.asarray(x, dtype=float) + 0.0).tolist()


def planar_arm(arm, **changes):
    """The :class:`armlab.PlanarArm` of an :class:`Arm` (what armlab takes), with some
    fields changed (``gravity=9.81``); the unchanged ones are kept for reuse.

    >>> planar_arm(Arm([0.5, 0.4], [3.0, 2.0]), damping=0.1).damping
    (0.1, 0.1)
    """
    if changes:
        return al.PlanarArm(**dict(arm.fields(), **changes))
    key = tuple(arm.fields().items())
    if key not in _PLANAR:
        if len(_PLANAR) > 4096:
            _PLANAR.clear()
        _PLANAR[key] = al.PlanarArm(**arm.fields())
    return _PLANAR[key]


def changed(arm, label=None, **changes):
    """An :class:`Arm` with some fields changed, under ``label`` (none: described by its
    data).

    >>> changed(Arm([0.5, 0.4], [3.0, 2.0]), masses=(1.0, 1.0)).masses
    (1.0, 1.0)
    """
    return Arm(label=label, **dict(arm.fields(), **changes))


def drawn_arms(rng, count, *first, **kwargs):
    """The arms ``first`` (the chapter's), then ``count`` arms drawn with ``rng.arm(**kwargs)``.

    >>> from armlab.grading.cases import Rng
    >>> len(drawn_arms(Rng.for_quantity("demo.arms", "key"), 2, Arm([1.0, 1.0], [1.0, 1.0])))
    3
    """
    return [*first] + [rng.arm(**kwargs) for _ in range(count)]


def symbols(names):
    """A derivation's parameters as SymPy symbols, ``{name: sympy.Symbol(name, real=True)}``.

    >>> symbols(("q1", "L1"))
    {'q1': q1, 'L1': L1}
    """
    import sympy

    return {name: sympy.Symbol(name, real=True) for name in names}


def all_symbols(names):
    """A derivation's ``worked``: a function returning its one case, "all symbols", whose
    arguments are the symbols ``names`` (SymPy is imported only when it is called).

    >>> [(case.label, case.args) for case in all_symbols(("q1", "L1"))()]
    [('all symbols', {'q1': q1, 'L1': L1})]
    """
    def worked():
        return [Case(label="all symbols", **symbols(names))]
    return worked


def exact_draws(rng, names):
    """``drawn, frac`` for a derivation's fresh cases: ``drawn(label, **values)`` is the case
    of the symbols ``names`` with some of them given exact ``values`` (an int becomes a
    ``sympy.Integer``); ``frac(lo, hi, per)`` is a whole number drawn from ``lo`` to ``hi``
    with ``rng``, over ``per``, as a ``sympy.Rational``; ``nonzero=True`` draws again until
    the number is not zero.

    >>> from armlab.grading.cases import Rng
    >>> drawn, frac = exact_draws(Rng.for_quantity("demo.exact", "key"), ("q1", "L1", "m"))
    >>> case = drawn("a length", L1=frac(10, 10, 20), m=0)
    >>> case.args["L1"], case.args["q1"], type(case.args["m"]).__name__
    (1/2, q1, 'Zero')
    >>> frac(0, 1, 4, nonzero=True)
    1/4
    """
    import sympy

    def drawn(label, **values):
        exact = {name: sympy.Integer(v) if isinstance(v, int) else v
                 for name, v in values.items()}
        return Case(label=label, **dict(symbols(names), **exact))

    def frac(lo, hi, per, nonzero=False):
        if nonzero and lo == hi == 0:
            raise ValueError("frac: lo = hi = 0 has no nonzero number to draw")
        whole = rng.integer(lo, hi)
        while nonzero and whole == 0:
            whole = rng.integer(lo, hi)
        return sympy.Rational(whole, per)
    return drawn, frac


def _register(function, **options):
    def decorate(f):
        module = f.__module__
        chapter = module.rsplit(".", 1)[-1]
        quantity = f"{chapter}.{f.__name__}"
        if quantity in _REGISTRY:
            raise ValueError(f"reference {quantity} is defined twice")
        ref = Reference(f, quantity, **options)
        _REGISTRY[quantity] = ref
        return ref

    return decorate if function is None else decorate(function)


def lookup(quantity):
    """The :class:`Reference` registered as ``quantity`` (``"kinematics.jacobian"``)."""
    ref = _REGISTRY.get(quantity)
    if ref is None:
        raise LookupError(f"no grading reference {quantity!r}; known: "
                          f"{', '.join(sorted(_REGISTRY))}")
    return ref


def quantities(chapter=None):
    """Registered quantity names, sorted (those of one chapter if given)."""
    return sorted(q for q in _REGISTRY if chapter is None or q.startswith(chapter + "."))


def chapters():
    """Names of the chapter modules in this folder, sorted."""
    return sorted(name[:-3] for name in _os.listdir(_HERE)
                  if name.endswith(".py") and not name.startswith("_"))


def chapter(name):
    """Another chapter's references module (``inverse = chapter("inverse_dynamics")``),
    to reuse its helpers."""
    return _importlib.import_module(f"{__name__}.{name}")


def _close_all():
    for ref in _REGISTRY.values():
        if ref._open:
            ref._close()


for _chapter in chapters():
    chapter(_chapter)
_close_all()
del _chapter
