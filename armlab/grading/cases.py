"""Cases a check runs a student's function on: arms, states, loads, and their words.

:class:`Arm` is an :class:`armlab.PlanarArm` with a label, :class:`Case` one call's arguments with an
optional label, :func:`describe` a case in the words a failed check prints, and
:class:`Rng` draws round numbers so a case is exactly what its words say.
``Rng.for_quantity`` is seeded with the student's case key, ``HMAC-SHA256(secret,
student id)``, drawn by the grader outside the sandbox; in one's own notebook the key is
empty unless ``ARMLAB_CASE_KEY`` gives one.

>>> rng = Rng(b"seed")
>>> q = rng.pose(2)
>>> describe(Case(q=q, F=[10.0, 0.0]), ("q", "F")) == describe(Case(q=q, F=[10, 0]), ("q", "F"))
True
>>> describe(Case(q=[0.5235987755982988, 1.0471975511965976], F=[10.0, 0.0]), ("q", "F"))
'q = (30°, 60°), F = (10, 0) N'
"""

import hashlib as _hashlib
import hmac as _hmac
import os as _os
from dataclasses import dataclass as _dataclass, field as _field

from armlab.arm import PlanarArm as _PlanarArm

from armlab.grading.purepy import fmt, pi

__all__ = ["Arm", "ChainData", "Case", "Rng", "describe", "case_key", "student_key", "UNITS"]

DEFAULT_G = _PlanarArm.gravity
"""The default gravity [m/s^2], :class:`armlab.PlanarArm`'s."""

UNITS = {
    "q": "deg", "q0": "deg", "q_start": "deg", "q_end": "deg",
    "qd": "rad/s", "qd0": "rad/s", "qdd": "rad/s²", "qdd_request": "rad/s²",
    "F": "N", "tip_force": "N", "force_on_arm": "N", "force": "N",
    "tau": "N m", "limit": "N m", "torque_error": "N m", "dtau": "N m",
    "mass": "kg", "payload": "kg", "t": "s", "dt": "s", "duration": "s", "h": "s",
    "kp": "N m/rad", "kd": "N m s/rad",
}
"""How each argument name is shown in words: ``deg`` shows radians as degrees;
any other text is a unit appended to the numbers. A reference adds its own."""


@_dataclass(frozen=True, repr=False)
class Arm(_PlanarArm):
    """An :class:`armlab.PlanarArm` with the words a message names it by.

    ``label`` ("the chapter's arm") names the arm in messages; without one it is
    described by its numbers (:meth:`describe`).

    >>> Arm((0.5, 0.4), (3.0, 2.0), label="the chapter's arm").describe()
    "the chapter's arm"
    >>> Arm((0.5, 0.4), (3.0, 2.0), gravity=0.0).describe()
    'an arm with L = (0.5, 0.4) m, m = (3, 2) kg, no gravity'
    """

    label: str = _field(default=None, compare=False)

    @classmethod
    def from_arm(cls, arm, label=None):
        """Copy an :class:`armlab.PlanarArm` (or anything with its attributes)."""
        return cls(label=label, **Arm.fields(arm))

    def fields(self):
        """The keyword arguments that build this arm (``PlanarArm(**arm.fields())``)."""
        return {k: getattr(self, k) for k in _FIELDS}

    def relabel(self, label):
        """The same arm under another label."""
        return Arm.from_arm(self, label)

    def describe(self):
        """The arm in words: its label, or its lengths and masses (and what differs
        from a table-top arm of uniform rods)."""
        if self.label:
            return self.label
        words = [f"L = {_vec(self.lengths)} m", f"m = {_vec(self.masses)} kg"]
        if any(abs(c - L / 2.0) > 1e-12 for c, L in zip(self.com, self.lengths)):
            words.append(f"centres of mass {_vec(self.com)} m from the joints")
        if any(abs(i - m * L * L / 12.0) > 1e-12
               for i, m, L in zip(self.inertia, self.masses, self.lengths)):
            words.append(f"I = {_vec(self.inertia, 5)} kg m²")
        if self.gravity != (0.0, -DEFAULT_G):
            words.append("no gravity" if self.gravity == (0.0, 0.0)
                         else f"gravity {_vec(self.gravity)} m/s²")
        if any(self.damping):
            words.append(f"damping {_vec(self.damping)} N m s/rad")
        if any(self.coulomb):
            words.append(f"Coulomb friction {_vec(self.coulomb)} N m")
        if any(g != 1.0 for g in self.gear_ratio):
            words.append(f"gear ratios {_vec(self.gear_ratio)}")
        return "an arm with " + ", ".join(words)

    def __repr__(self):
        return f"Arm({self.describe()})"


CHAIN_FIELDS = ("kinds", "origins", "axes", "inertias", "tip", "gravity", "effort", "velocity")
"""What a spatial chain carries into a sandbox: the attributes of
:class:`armlab.spatial.Chain` that its functions read (its names and position limits stay
out)."""


class ChainData:
    """A spatial chain as plain floats, for the spatial chapters' checks.

    Attribute for attribute like :class:`armlab.spatial.Chain`: ``kinds`` (a tuple of
    ``"revolute"``/``"prismatic"``), ``origins`` (n, 4, 4), ``axes`` (n, 3), ``inertias``
    (n, 6, 6), ``tip`` (4, 4), ``gravity`` (3,), ``effort`` and ``velocity`` (n,), as
    nested tuples. ``label`` names it in messages ("the SO-101"); without one it is
    described by its joints.
    """

    __slots__ = CHAIN_FIELDS + ("label",)

    def __init__(self, kinds, origins, axes, inertias, tip, gravity=(0.0, 0.0, -DEFAULT_G),
                 effort=None, velocity=None, label=None):
        kinds = tuple(str(k) for k in kinds)
        n = len(kinds)
        if n not in range(1, 13) or set(kinds) - {"revolute", "prismatic"}:
            raise ValueError("a chain has 1 to 12 revolute or prismatic joints")

        def nested(value, shape, name):
            if len(shape) == 1:
                value = tuple(_number(x, name) for x in value)
            else:
                value = tuple(nested(v, shape[1:], name) for v in value)
            if len(value) != shape[0]:
                raise ValueError(f"chain.{name} does not have the shape {shape}")
            return value

        inf = float("inf")
        values = dict(kinds=kinds, origins=nested(origins, (n, 4, 4), "origins"),
                      axes=nested(axes, (n, 3), "axes"),
                      inertias=nested(inertias, (n, 6, 6), "inertias"),
                      tip=nested(tip, (4, 4), "tip"), gravity=nested(gravity, (3,), "gravity"),
                      effort=nested([inf] * n if effort is None else effort, (n,), "effort"),
                      velocity=nested([inf] * n if velocity is None else velocity, (n,),
                                      "velocity"), label=label)
        for key, value in values.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key, value):
        raise AttributeError("ChainData is immutable")

    @property
    def n(self):
        """Number of joints."""
        return len(self.kinds)

    @classmethod
    def from_chain(cls, chain, label=None):
        """Copy an :class:`armlab.spatial.Chain` (or anything with its attributes)."""
        return cls(**{k: _plain(getattr(chain, k)) for k in CHAIN_FIELDS}, label=label)

    def fields(self):
        """The chain's data by name, as nested lists (the keywords that rebuild it)."""
        return {k: _plain(getattr(self, k)) for k in CHAIN_FIELDS}

    def relabel(self, label):
        """The same chain under another label."""
        return ChainData(label=label, **self.fields())

    def describe(self):
        """The chain in words: its label, or its joints' kinds."""
        if self.label:
            return self.label
        count = {k: self.kinds.count(k) for k in ("revolute", "prismatic")}
        words = " and ".join(f"{v} {k}" for k, v in count.items() if v)
        return f"a chain of {self.n} joints ({words})"

    def __repr__(self):
        return f"ChainData({self.describe()})"


def _plain(value):
    """Nested tuples, lists or arrays as nested lists (strings and numbers kept)."""
    if isinstance(value, str):
        return value
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _vec(values, digits=4):
    return "(" + ", ".join(fmt(float(v), digits) for v in values) + ")"


class Case:
    """The arguments of one call, by parameter name, and a label for messages.

    ``Case(arm=ARM, q=deg(30, 60), F=[10, 0], label="the wall push of Example 1")``.
    The reference's parameter names fix the order of the call.
    """

    __slots__ = ("args", "label")

    def __init__(self, label=None, **args):
        object.__setattr__(self, "args", dict(args))
        object.__setattr__(self, "label", label)

    def __setattr__(self, key, value):
        raise AttributeError("Case is immutable")

    def __repr__(self):
        return f"Case({describe(self, tuple(self.args))})"


LONG = 8
"""A list of more numbers than this is described by its size, not printed; but a 4×4
transform is printed, so that a student can rebuild a failed case."""


def describe(case, params, units=None):
    """A case in words, in the order of ``params``: ``q = (30°, 60°), F = (10, 0) N``.

    The arm (a parameter holding an :class:`Arm`) comes last, as
    ``on the chapter's arm``; the label, when there is one, first. A long
    list (a run of measurements) is named by its size, ``q = 20×2 angles``,
    so that a message stays a few lines long.

    >>> describe(Case(q=[[-1.9024, -0.384], [0.5, 1.0]]), ("q",))
    'q = ((-109°, -22°), (28.65°, 57.3°))'
    >>> describe(Case(q=[[0.1, 0.2]] * 9, tau=[[1.0, 2.0]] * 9), ("q", "tau"))
    'q = 9×2 angles, tau = 9×2 values [N m]'
    >>> describe(Case(T=[[1, 0, 0, 0.5], [0, 1, 0, 0], [0, 0, 1, 0.2], [0, 0, 0, 1]]), ("T",))
    'T = ((1, 0, 0, 0.5), (0, 1, 0, 0), (0, 0, 1, 0.2), (0, 0, 0, 1))'
    """
    table = dict(UNITS)
    if units:
        table.update(units)
    words, arms = [], []
    for name in params:
        value = case.args[name]
        if isinstance(value, (Arm, ChainData)):
            arms.append(value.describe())
            continue
        if type(value).__module__.startswith("sympy"):   # a derivation part's argument
            if str(value) != name:
                words.append(f"{name} = {value}")
            continue
        unit = table.get(name, "")
        if _count(value) > LONG and not _transform(value):
            words.append(f"{name} = {_size(value, unit)}")
        elif unit == "deg":
            words.append(f"{name} = {_show(value, 180.0 / pi, 2, '°')}")
        else:
            words.append(f"{name} = {_show(value, 1.0, 4)}" + (f" {unit}" if unit else ""))
    text = ", ".join(words)
    if arms:
        text = text + " on " + " and ".join(arms) if text else " and ".join(arms)
    if case.label:
        if text and not (not words and len(arms) == 1 and arms[0] in case.label):
            text = f"{case.label} ({text})"
        else:
            text = case.label
    return text


def _show(value, factor, digits, symbol=""):
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(_show(v, factor, digits, symbol) for v in value) + ")"
    if isinstance(value, str):                  # a named choice: motor = "elbow"
        return f'"{value}"'
    return fmt(float(value) * factor, digits) + symbol


def _count(value):
    if isinstance(value, (list, tuple)):
        return sum(_count(v) for v in value)
    return 1


def _transform(value):
    """Whether ``value`` is a 4×4 matrix (a homogeneous transform)."""
    return (isinstance(value, (list, tuple)) and len(value) == 4
            and all(isinstance(row, (list, tuple)) and len(row) == 4 for row in value))


def _size(value, unit):
    """A long list by its size: ``20×2 angles``, ``50 values [N m]``."""
    what = "angles" if unit == "deg" else "values" + (f" [{unit}]" if unit else "")
    if value and isinstance(value[0], (list, tuple)):
        return f"{len(value)}×{len(value[0])} {what}"
    return f"{len(value)} {what}"


# ---------------------------------------------------------------- the generator
class Rng:
    """numpy's :class:`numpy.random.Generator` (PCG64), seeded with a SHA-256 of ``seed``,
    drawing round numbers for readable cases.

    >>> a, b = Rng(b"k"), Rng(b"k")
    >>> [a.integer(0, 99) for _ in range(3)] == [b.integer(0, 99) for _ in range(3)]
    True
    """

    __slots__ = ("_generator",)

    def __init__(self, seed):
        import numpy

        if isinstance(seed, str):
            seed = seed.encode()
        digest = _hashlib.sha256(seed).digest()
        self._generator = numpy.random.default_rng(int.from_bytes(digest, "little"))

    @classmethod
    def for_quantity(cls, quantity, key=None):
        """The generator of a quantity's fresh cases for this round's case key."""
        key = case_key() if key is None else key
        return cls(key.encode() + b"\0" + quantity.encode())

    def random(self):
        """A float in [0, 1)."""
        return float(self._generator.random())

    def integer(self, lo, hi):
        """An int in [lo, hi], both included."""
        return int(self._generator.integers(lo, hi, endpoint=True))

    def uniform(self, lo, hi, step=None):
        """A float in [lo, hi]; with ``step``, a multiple of it (round numbers)."""
        if step is None:
            return lo + (hi - lo) * self.random()
        k = self.integer(int(round(lo / step)), int(round(hi / step)))
        return round(k * step, 10)

    def choice(self, items):
        """One of ``items``."""
        items = list(items)
        return items[self.integer(0, len(items) - 1)]

    def sign(self):
        """+1.0 or -1.0."""
        return 1.0 if self.integer(0, 1) else -1.0

    def vector(self, n, lo, hi, step=None, nonzero=False):
        """``n`` numbers in [lo, hi] (multiples of ``step``); ``nonzero``: none is zero.

        One draw per number: a non-zero one is drawn among the non-zero multiples of
        ``step``, which ``nonzero`` needs."""
        if not nonzero:
            return [self.uniform(lo, hi, step) for _ in range(n)]
        ks = [k for k in range(int(round(lo / step)), int(round(hi / step)) + 1) if k]
        return [round(self.choice(ks) * step, 10) for _ in range(n)]

    def pose(self, n=2, lo=-170, hi=170, away=15):
        """Joint angles [rad], each a whole number of degrees in [lo, hi].

        Every angle after the first stays at least ``away`` degrees from 0 and
        +-180 (away from the folded and stretched singular poses of a planar arm).
        One draw per angle, among the angles that qualify.
        """
        far = [d for d in range(lo, hi + 1) if min(abs(d), 180 - abs(d)) >= away]
        degrees = [self.integer(lo, hi)] + [self.choice(far) for _ in range(n - 1)]
        return [d * pi / 180.0 for d in degrees]

    def arm(self, n=2, lengths=(0.2, 0.8), masses=(0.5, 5.0), com=(0.3, 0.7), gravity=DEFAULT_G,
            inertia=False, label=None):
        """An arm of ``n`` links with round numbers.

        Lengths in steps of 5 cm, masses of 0.1 kg, each centre of mass at a
        fraction ``com`` of its link (to the cm); ``inertia=True`` draws
        inertias other than uniform rods'. ``gravity`` as :class:`armlab.PlanarArm`.
        """
        L = [self.uniform(lengths[0], lengths[1], 0.05) for _ in range(n)]
        m = [self.uniform(masses[0], masses[1], 0.1) for _ in range(n)]
        c = [round(self.uniform(com[0], com[1]) * x, 2) for x in L]
        if inertia:
            inert = [round(mi * Li * Li * self.uniform(0.04, 0.12), 5) for mi, Li in zip(m, L)]
        else:   # uniform rods, to the bit as cases drawn before PlanarArm carried them
            inert = [mi * Li * Li / 12.0 for mi, Li in zip(m, L)]
        return Arm(L, m, c, inert, gravity, label=label)


# ---------------------------------------------------------------- the case key
def student_key(secret, student_id):
    """The case key of one student for a course secret: HMAC-SHA256, hex."""
    return _hmac.new(str(secret).encode(), str(student_id).encode(), _hashlib.sha256).hexdigest()


def case_key():
    """The case key of a notebook of one's own: ``ARMLAB_CASE_KEY``, or '' (the default
    cases)."""
    return _os.environ.get("ARMLAB_CASE_KEY", "")


# ---------------------------------------------------------------- cases as data
def encode(value):
    """A case's argument as it crosses into a sandbox (JSON data): an arm as its fields."""
    if isinstance(value, Arm):
        return {"__arm__": {k: list(v) for k, v in value.fields().items()}}
    if isinstance(value, ChainData):
        return {"__chain__": value.fields()}
    if type(value).__module__.startswith("sympy"):      # a derivation part's symbol, number
        from armlab.grading.runner import tree_of

        return {"__expr__": tree_of(value)}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


def arm_from(fields, label="the arm"):
    """An :class:`Arm` from a dict of the fields of an arm, checked (``ValueError``)."""
    if not isinstance(fields, dict) or set(fields) - set(_FIELDS):
        raise ValueError("the arm's data are not an arm's")
    values = {}
    for key in _FIELDS:
        if key in fields:
            values[key] = [_number(x, f"arm.{key}") for x in _sequence(fields[key], key)]
    if len(values.get("lengths", ())) not in range(1, 13):
        raise ValueError("an arm has 1 to 12 links")
    return Arm(label=label, **values)


def chain_from(fields, label="the chain"):
    """A :class:`ChainData` from a dict of a chain's fields, checked (``ValueError``)."""
    if not isinstance(fields, dict) or set(fields) != set(CHAIN_FIELDS):
        raise ValueError("the chain's data are not a chain's")
    kinds = fields["kinds"]
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        raise ValueError("chain.kinds is not a list of joint kinds")
    for key in CHAIN_FIELDS[1:]:
        _numbers_only(fields[key], f"chain.{key}", 0)
    try:
        return ChainData(label=label, **fields)
    except TypeError:
        raise ValueError("the chain's data are not a chain's") from None


def _numbers_only(value, name, depth):
    if isinstance(value, list):
        if depth > 3 or len(value) > 16:
            raise ValueError(f"{name} is not a small array of numbers")
        for v in value:
            _numbers_only(v, name, depth + 1)
    else:
        _number(value, name)


_FIELDS = ("lengths", "masses", "com", "inertia", "gravity", "damping", "coulomb", "gear_ratio")


def _sequence(value, name):
    if not isinstance(value, list) or len(value) > 12:
        raise ValueError(f"arm.{name} is not a short list of numbers")
    return value


def _number(x, name):
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise ValueError(f"{name} holds something other than a number")
    return float(x)


def decode(data, name="an argument", _depth=0):
    """Encoded data (from a sandbox) as the references take it: arms as :class:`Arm`,
    numbers as floats, lists of them; anything else raises ``ValueError``."""
    if isinstance(data, dict) and "__arm__" in data:
        return arm_from(data["__arm__"])
    if isinstance(data, dict) and "__chain__" in data:
        return chain_from(data["__chain__"])
    if isinstance(data, list):
        if _depth > 3 or len(data) > 10_000:
            raise ValueError(f"{name} is too large or too deeply nested")
        return [decode(v, name, _depth + 1) for v in data]
    if isinstance(data, str) and len(data) < 100:
        return data
    return _number(data, name)
