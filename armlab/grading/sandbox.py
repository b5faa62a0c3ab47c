"""The sandbox the checks run in, inside the student's kernel.

The exercises' locked first cell imports the checks before any student code
runs; from then on the student shares the kernel with them. This module holds
everything that keeps the checks honest there, apart from the checks
themselves:

* **defensive conversion** (:func:`plain`): an answer is accepted only as an
  exact ``int``/``float``, a numpy real scalar, a real ``ndarray`` (or numpy's
  own ``np.matrix``) or nested ``list``/``tuple`` of those, copied into plain
  Python floats by C-level conversions, so no ``__eq__``, ``__array__`` or
  ``__float__`` of the student's can lie;
* **hardening** (:func:`harden`): every function of a grading module runs on a
  private snapshot of the module's globals and of ``builtins``, and the module
  refuses attribute assignment; replacing ``numpy.allclose``, ``math.sin`` or
  ``builtins.abs`` afterwards changes nothing the checks see;
* **switching armlab off** (:class:`Switch`): while a student's function runs,
  every function defined in armlab's source files (the grading references
  included) has its code swapped for a stub, except the ones the part allows.
  The stub lets calls from armlab's own code through, so an allowed function
  keeps working whatever private helpers it uses; a call from anywhere else
  raises. Nothing here lists armlab's function names: renaming a helper
  changes nothing;
* **the seal** (:func:`seal`, :func:`verify`): the code, defaults and globals
  of every grading function, and the contents of the grading modules, are
  recorded once; :func:`verify` puts back whatever changed and says what. It
  runs before and after every cell (:func:`protect`) and after every call of a
  student's function, so rewriting a check's ``__code__``, defaults or globals
  cannot award points;
* :func:`call_student`: one call of a student's function with armlab switched
  off, earlier parts' functions replaced by their references (no cascades),
  stdout, stderr and warnings captured (nbgrader scores a test cell that
  writes to stderr as zero), and the seal verified afterwards.

Tricks that cannot be stopped in-process are named by the static scan
(:mod:`armlab.grading.scan`) and put the submission up for review.
"""

import builtins as _builtins_module
import io as _io
import os as _os
import sys as _sys
import types as _types
import warnings as _warnings

import numpy as _np

from armlab.grading import messages as _messages

# ---------------------------------------------------------------- captured references
_float = float
_int = int
_len = len
_range = range
_abs = abs
_repr = repr
_type = type
_list = list
_tuple = tuple
_str = str
_dict = dict
_set = set
_zip = zip
_enumerate = enumerate
_isinstance = isinstance
_sorted = sorted
_getattr = getattr
_id = id
_object_setattr = object.__setattr__
_type_setattr = type.__setattr__
_BaseException = BaseException
_RecursionError = RecursionError
_RuntimeError = RuntimeError
_KeyboardInterrupt = KeyboardInterrupt
_OverflowError = OverflowError
_isfinite_nan = _float.__ne__
_StringIO = _io.StringIO
_catch_warnings = _warnings.catch_warnings
_simplefilter = _warnings.simplefilter
_getframe = _sys._getframe
_FunctionType = _types.FunctionType
_ModuleType = _types.ModuleType
_type_name = _type.__dict__["__name__"].__get__
_ndarray = _np.ndarray
_matrix = _np.matrix
_NotImplementedError = NotImplementedError
_ndarray_tolist = _np.ndarray.tolist
_REAL_SCALARS = (
    _np.float64, _np.float32, _np.float16, _np.int64, _np.int32, _np.int16, _np.int8,
    _np.uint64, _np.uint32, _np.uint16, _np.uint8, _np.longdouble,
)
_BOOLS = (bool, _np.bool_)
_MAX_ITEMS = 10_000
_MISSING = object()
_switched_off = _messages.switched_off
_note = _messages.note
_REFUSED_TYPE = _messages.REFUSED_TYPE
_TAMPERED = _messages.TAMPERED

_ARMLAB_DIR = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))) + _os.sep
_GRADING_DIR = _os.path.dirname(_os.path.abspath(__file__)) + _os.sep
_REFERENCES_DIR = _GRADING_DIR + "references" + _os.sep


# ---------------------------------------------------------------- defensive conversion
def wrap(text, width=_messages.WIDTH):
    """``text`` with every line longer than ``width`` broken at spaces
    (:func:`armlab.grading.messages.wrap`, hardened with this module)."""
    return _messages.wrap(text, width)


class CheckFailed(AssertionError):
    """A failed check. In a notebook its message is all that shows: IPython renders
    ``_render_traceback_`` instead of a traceback through the checks' code, its lines
    broken to fit the page."""

    def _render_traceback_(self):
        return [_messages.wrap(_messages.FAILED_MARK + _str(self))]


_CheckFailed = CheckFailed


def _is_one_of(t, types):
    for candidate in types:
        if t is candidate:
            return True
    return False


def plain(value, name="your answer", _depth=0, _count=None):
    """``value`` as a float or nested lists of floats, refusing anything else.

    Infinities are kept (an unbounded force is a fair answer); NaN is refused.
    Raises :class:`CheckFailed` (an ``AssertionError``) with a message a student can act on.

    >>> plain([1, 2.5])
    [1.0, 2.5]
    >>> plain("3")
    Traceback (most recent call last):
    ...
    armlab.grading.sandbox.CheckFailed: your answer is a str: expected a float, an int, a list of numbers or a numpy array of real numbers (objects of other types are not accepted)
    """
    if _count is None:
        _count = [0]
    _count[0] += 1
    if _count[0] > _MAX_ITEMS:
        raise _CheckFailed(f"{name} is far too large: expected a few numbers")
    t = _type(value)
    if t is _int or t is _float or _is_one_of(t, _REAL_SCALARS):
        try:
            x = _float(value)
        except _OverflowError:
            raise _CheckFailed(f"{name} contains a number too large for a float") from None
        if x != x:
            raise _CheckFailed(f"{name} contains nan: expected numbers")
        return x
    if t is _ndarray or t is _matrix:         # np.matrix: numpy's own, converted the same way
        if value.dtype.kind not in "iuf":
            raise _CheckFailed(
                f"{name} is an array of dtype {_str(value.dtype)}: expected real numbers")
        if value.size > _MAX_ITEMS:
            raise _CheckFailed(f"{name} is far too large: expected a few numbers")
        return plain(_ndarray_tolist(value), name, _depth, _count)
    if t is _list or t is _tuple:
        if _depth > 3:
            raise _CheckFailed(f"{name} is nested too deeply")
        return [plain(v, name, _depth + 1, _count) for v in value]
    if _is_one_of(t, _BOOLS):
        raise _CheckFailed(f"{name} is {value!r}: expected a number, not a truth value")
    if value is None:
        raise _CheckFailed(f"{name} is None: is the return statement missing, or does a "
                           "branch of the function end without one?")
    raise _CheckFailed(
        f"{name} is a {_type_name(t)}: expected a float, an int, a list of numbers "
        f"or a numpy array of real numbers ({_REFUSED_TYPE})")


# ---------------------------------------------------------------- hardening
class ReadOnlyModule(_ModuleType):
    """A module whose attributes cannot be replaced after import."""

    def __setattr__(self, key, value):
        if key not in self.__dict__ and _type(value) is _ModuleType:
            _ModuleType.__setattr__(self, key, value)   # a submodule being imported
            return
        raise AttributeError(f"{self.__name__} is read-only while grading: {key} cannot be replaced")

    def __delattr__(self, key):
        raise AttributeError(f"{self.__name__} is read-only while grading: {key} cannot be deleted")


def private_builtins():
    """A copy of ``builtins``' namespace, taken now (before any student code)."""
    return _dict(_builtins_module.__dict__)


def _copy_function(f, namespace):
    g = _FunctionType(f.__code__, namespace, f.__name__, f.__defaults__, f.__closure__)
    g.__kwdefaults__ = f.__kwdefaults__
    g.__doc__ = f.__doc__
    g.__qualname__ = f.__qualname__
    g.__module__ = f.__module__
    g.__dict__.update(f.__dict__)
    return g


def harden(namespace):
    """Rebuild every function and method defined in a module on a private snapshot.

    Call it as the last line of a grading module: ``harden(globals())``. The
    module's functions, and the methods of its classes, then look names up in
    a snapshot of its globals with a private copy of ``builtins``, so nothing a
    student later assigns (in the module, in ``builtins``, in numpy) reaches
    them; the module refuses attribute assignment; and :func:`seal` records it.
    Returns the snapshot.
    """
    module_name = namespace["__name__"]
    snapshot = _dict(namespace)
    snapshot["__builtins__"] = private_builtins()
    for key, obj in _list(namespace.items()):
        if _type(obj) is _FunctionType and obj.__module__ == module_name:
            snapshot[key] = _copy_function(obj, snapshot)
        elif _isinstance(obj, type) and obj.__module__ == module_name:
            for attr, member in _list(obj.__dict__.items()):
                if _type(member) is _FunctionType:
                    _type_setattr(obj, attr, _copy_function(member, snapshot))
                elif _type(member) is property:
                    _type_setattr(obj, attr, property(
                        *[None if f is None else _copy_function(f, snapshot)
                          for f in (member.fget, member.fset, member.fdel)], member.__doc__))
                elif _type(member) in (staticmethod, classmethod):
                    _type_setattr(obj, attr, _type(member)(_copy_function(member.__func__,
                                                                          snapshot)))
    for key, obj in _list(snapshot.items()):
        if _type(obj) is _FunctionType and obj.__globals__ is snapshot:
            namespace[key] = obj
    module = _sys.modules[module_name]
    module.__class__ = ReadOnlyModule
    seal(module, snapshot)
    return snapshot


# ---------------------------------------------------------------- the seal
_SEALED_FUNCTIONS = []        # (function, code, defaults, kwdefaults)
_SEALED_DICTS = []            # (live dict, copy)
_SEALED_CLASSES = []          # (class, copy of its __dict__ items)
_SEALED_IDS = _set()


def _seal_function(f):
    if _id(f) in _SEALED_IDS:
        return
    _SEALED_IDS.add(_id(f))
    _SEALED_FUNCTIONS.append((f, f.__code__, f.__defaults__,
                              None if f.__kwdefaults__ is None else _dict(f.__kwdefaults__)))


def _seal_dict(d):
    if _id(d) in _SEALED_IDS:
        return
    _SEALED_IDS.add(_id(d))
    _SEALED_DICTS.append((d, _dict(d)))


def _seal_class(cls):
    if _id(cls) in _SEALED_IDS:
        return
    _SEALED_IDS.add(_id(cls))
    items = _dict(cls.__dict__)
    _SEALED_CLASSES.append((cls, items))
    for member in items.values():
        if _type(member) is _FunctionType:
            _seal_function(member)
        elif _type(member) is property:
            for f in (member.fget, member.fset, member.fdel):
                if f is not None:
                    _seal_function(f)
        elif _type(member) in (staticmethod, classmethod):
            _seal_function(member.__func__)



def seal_value(obj):
    """Record one object's functions (a function, a class, or an object with
    ``_sealed_parts()``) so :func:`verify` restores them."""
    if _type(obj) is _FunctionType:
        _seal_function(obj)
    elif _isinstance(obj, type):
        _seal_class(obj)
    elif _type(obj) is _dict:
        _seal_dict(obj)
    else:
        parts = _getattr(_type(obj), "_sealed_parts", None)
        if parts is not None:
            for part in parts(obj):
                seal_value(part)


def seal(module, *namespaces):
    """Record a grading module: its dictionary, the given namespaces (snapshots,
    builtins copies) and every function and class in them."""
    spaces = (module.__dict__,) + namespaces
    for space in spaces:
        _seal_dict(space)
        builtins_dict = space.get("__builtins__")
        if _type(builtins_dict) is _dict and builtins_dict is not _builtins_module.__dict__:
            _seal_dict(builtins_dict)           # a private copy (the real one is IPython's)
        for key, obj in _list(space.items()):
            if key == "__builtins__":
                continue
            if _type(obj) is _FunctionType and obj.__module__ == module.__name__:
                _seal_function(obj)
            elif _isinstance(obj, type) and obj.__module__ == module.__name__:
                _seal_class(obj)
            elif _type(obj) is _dict:
                _seal_dict(obj)
            elif _getattr(_type(obj), "_sealed_parts", None) is not None:
                seal_value(obj)


def verify():
    """Put back every sealed code object, default, global and class member that
    changed; return a list of what was restored (empty when nothing had)."""
    restored = []
    for f, code, defaults, kwdefaults in _SEALED_FUNCTIONS:
        if f.__code__ is not code:
            f.__code__ = code
            restored.append(f"the code of {f.__qualname__}")
        if f.__defaults__ is not defaults:
            f.__defaults__ = defaults
            restored.append(f"the defaults of {f.__qualname__}")
        current = f.__kwdefaults__
        if kwdefaults is None:
            if current is not None:
                f.__kwdefaults__ = None
                restored.append(f"the defaults of {f.__qualname__}")
        elif not _same_dict(current, kwdefaults):
            f.__kwdefaults__ = _dict(kwdefaults)
            restored.append(f"the defaults of {f.__qualname__}")
    for d, copy in _SEALED_DICTS:
        if not _same_dict(d, copy):
            d.clear()
            d.update(copy)
            restored.append(f"the names of {copy.get('__name__', 'a grading module')}")
    for cls, items in _SEALED_CLASSES:
        live = cls.__dict__
        changed = _len(live) != _len(items)
        if not changed:
            for key, value in items.items():
                if live.get(key, _MISSING) is not value:
                    changed = True
                    break
        if changed:
            for key in _list(live):
                if key not in items and key not in ("__dict__", "__weakref__"):
                    try:
                        type.__delattr__(cls, key)
                    except (AttributeError, TypeError):
                        pass
            for key, value in items.items():
                if key in ("__dict__", "__weakref__", "__doc__", "__module__", "__qualname__"):
                    continue
                if live.get(key, _MISSING) is not value:
                    _type_setattr(cls, key, value)
            restored.append(f"the class {cls.__qualname__}")
    return restored


def _same_dict(live, copy):
    """Whether ``live`` still holds what ``copy`` does; a submodule imported
    since (a new key bound to a module) is accepted and added to ``copy``."""
    if _type(live) is not _dict:
        return False
    for key, value in copy.items():
        if live.get(key, _MISSING) is not value:
            return False
    if _len(live) != _len(copy):
        for key, value in _list(live.items()):
            if key not in copy:
                if _type(value) is not _ModuleType and _type(value) is not ReadOnlyModule:
                    return False
                copy[key] = value
    return True


# ---------------------------------------------------------------- switching armlab off
def _stub(*args, _armlab_switch_=None, **kwargs):
    return _armlab_switch_(args, kwargs)


_STUB_CODE = _stub.__code__
_STUB_KW = "_armlab_switch_"


def _from_armlab(code):
    """Whether a code object belongs to armlab's own source files."""
    return code.co_filename.startswith(_ARMLAB_DIR)


class _Entry:
    """One armlab function that can be switched off."""

    __slots__ = ("function", "module", "qualname", "code", "kwdefaults", "original", "guard")


class Switch:
    """Switch armlab's functions off while a student's function runs.

    Every function and method whose code lives in armlab's source files is a
    candidate, except the grading machinery itself (``armlab/grading/*.py``;
    the references under ``armlab/grading/references/`` are candidates). The
    catalogue is rebuilt whenever a new armlab module has been imported.
    ``off(allowed)`` swaps the code of every candidate not in ``allowed`` for a
    stub; ``on()`` puts the originals back. A stubbed function called from
    armlab's own code runs as usual; called from anywhere else it raises
    ``RuntimeError`` with :func:`armlab.grading.messages.switched_off`, and the
    call is remembered (:attr:`called`).
    """

    def __init__(self):
        self._modules = ()
        self._entries = []
        self.transparent = _set()
        self._active = []
        self.called = []

    # -- catalogue
    def _catalogue(self):
        names = _tuple(_sorted((k, _id(m)) for k, m in _list(_sys.modules.items())
                               if k == "armlab" or k.startswith("armlab.")))
        if names == self._modules:
            return self._entries
        entries, seen, transparent = [], _set(), _set()
        for mod_name, _ in names:
            module = _sys.modules.get(mod_name)
            if module is None:
                continue
            space = _getattr(module, "__dict__", {})
            for key, obj in _sorted(_list(space.items()), key=_first):
                for qual, f in _functions_of(obj, mod_name):
                    if _id(f) in seen:
                        continue
                    code = f.__code__
                    if not _from_armlab(code):
                        # a method armlab's classes got from dataclasses or NamedTuple: a
                        # call through it comes from the code that called it
                        if qual.count(".") and f.__closure__ is None:
                            transparent.add(_id(code))
                        continue
                    if f.__closure__ is not None:
                        continue
                    if code.co_filename.startswith(_GRADING_DIR) and \
                            not code.co_filename.startswith(_REFERENCES_DIR):
                        continue
                    seen.add(_id(f))
                    e = _Entry()
                    e.function, e.module, e.qualname = f, mod_name, qual
                    e.code = code
                    e.kwdefaults = f.__kwdefaults__
                    e.original = _copy_function(f, f.__globals__)
                    e.guard = _make_guard(e, self)
                    entries.append(e)
        self._modules, self._entries, self.transparent = names, entries, transparent
        return entries

    def names(self):
        """``module:qualname`` of every function that can be switched off."""
        return [f"{e.module}:{e.qualname}" for e in self._catalogue()]

    def matches(self, spec):
        """The catalogue entries an ``allow`` item names (see :meth:`off`)."""
        entries = self._catalogue()
        short = spec[len("armlab."):] if spec.startswith("armlab.") else spec
        package = _sys.modules.get("armlab")
        module = "armlab." + short
        if module in _sys.modules:                          # a module: all of it
            return [e for e in entries if e.module == module]
        head, _, tail = short.partition(".")
        public = _getattr(package, head, None)
        if public is None:
            return []
        if _type(public) is _FunctionType and not tail:
            return [e for e in entries if e.function is public]
        if _isinstance(public, type):
            prefix = public.__qualname__ + "." + (tail + "." if tail else "")
            exact = public.__qualname__ + "." + tail
            return [e for e in entries if e.module == public.__module__
                    and (e.qualname.startswith(prefix) or (tail and e.qualname == exact))]
        return []

    # -- switching
    def off(self, allowed=()):
        """Switch off every candidate except those ``allowed`` names.

        An item of ``allowed`` is a public armlab name (``"tip_position"``, a
        class such as ``"PlanarArm"`` with all its methods), a module
        (``"armlab.kinematics"`` or ``"kinematics"``), or a dotted name
        (``"PlanarArm.with_payload"``). The grading references are never allowed.
        """
        keep = _set()
        for spec in allowed:
            found = self.matches(spec)
            if not found:
                raise _RuntimeError(f"allow names nothing in armlab: {spec!r}")
            for e in found:
                keep.add(_id(e))
        self.called = []
        active = []
        for e in self._catalogue():
            if _id(e) in keep:
                continue
            f = e.function
            if f.__code__ is not e.code:        # already off (nested check): leave it
                continue
            f.__code__ = _STUB_CODE
            f.__kwdefaults__ = {_STUB_KW: e.guard}
            active.append(e)
        self._active = active

    def on(self):
        """Put every switched-off function back; True if all were still stubs."""
        intact = True
        for e in self._active:
            f = e.function
            if f.__code__ is not _STUB_CODE:
                intact = False
            f.__code__ = e.code
            f.__kwdefaults__ = e.kwdefaults
        self._active = []
        return intact


def _first(item):
    return item[0]


def _functions_of(obj, mod_name):
    """``(qualname, function)`` for a function or each method of a class."""
    if _type(obj) is _FunctionType:
        if obj.__module__ == mod_name:
            return [(obj.__qualname__, obj)]
        return []
    if _isinstance(obj, type) and _getattr(obj, "__module__", None) == mod_name:
        out = []
        for attr, member in _sorted(_list(obj.__dict__.items()), key=_first):
            if _type(member) is _FunctionType:
                out.append((member.__qualname__, member))
            elif _type(member) is property:
                for f in (member.fget, member.fset):
                    if f is not None:
                        out.append((f.__qualname__, f))
            elif _type(member) in (staticmethod, classmethod):
                out.append((member.__func__.__qualname__, member.__func__))
        return out
    return []


def _make_guard(entry, switch):
    original = entry.original
    public = entry.qualname if not entry.module.startswith("armlab.grading.") \
        else f"grading.{entry.module.rsplit('.', 1)[-1]}.{entry.qualname}"
    message = _switched_off(public)

    def guard(args, kwargs):
        frame = _getframe(2)
        while frame is not None and _id(frame.f_code) in switch.transparent:
            frame = frame.f_back
        if frame is not None and _from_armlab(frame.f_code):
            return original(*args, **kwargs)
        switch.called.append(public)
        raise _RuntimeError(message)

    return guard


SWITCH = Switch()


# ---------------------------------------------------------------- calling the student
def call_student(func, args, label, *, where=None, allowed=(), stand_ins=None):
    """Call ``func(*args)`` the way every check does; return its result.

    armlab is switched off except ``allowed`` (see :meth:`Switch.off`);
    ``stand_ins`` maps names in ``func``'s globals to functions put there for
    the call (an earlier part's reference in place of the student's own
    function) and restored afterwards. stdout, stderr and warnings are
    captured and dropped. Any exception becomes an ``AssertionError`` that
    names ``label`` and the case ``where`` (in words); so does a call of a
    switched-off function (even one the student caught) and any change to the
    grading code during the call. A ``NotImplementedError`` says the function
    is not written yet.
    """
    at = f"{label} at {where}" if where else label
    saved_out, saved_err = _sys.stdout, _sys.stderr
    sink = _StringIO()
    namespace = _getattr(func, "__globals__", None)
    if _type(namespace) is not _dict:
        namespace = None
    swapped = []
    intact = True
    called = []
    try:
        with _catch_warnings():
            _simplefilter("ignore")
            _sys.stdout, _sys.stderr = sink, sink
            if stand_ins and namespace is not None:
                for key, stand_in in stand_ins.items():
                    swapped.append((key, namespace.get(key, _MISSING)))
                    namespace[key] = stand_in
            SWITCH.off(allowed)
            try:
                result = func(*args)
            finally:
                intact = SWITCH.on()
                called = _list(SWITCH.called)
                for key, old in swapped:
                    if old is _MISSING:
                        namespace.pop(key, None)
                    else:
                        namespace[key] = old
    except _CheckFailed:
        raise                       # a check inside (a stand-in's conversion) said why
    except _RecursionError:
        raise _CheckFailed(f"{at} recursed without end") from None
    except _BaseException as exc:
        if _type(exc) is _KeyboardInterrupt:
            raise
        if called:
            raise _CheckFailed(f"{label} called armlab: {_switched_off(called[0])}") from None
        if _type(exc) is _NotImplementedError:
            raise _CheckFailed(f"{label} is not written yet: it still raises "
                               "NotImplementedError (put your code in place of the line "
                               "raise NotImplementedError())") from None
        text = _str(exc)
        raise _CheckFailed(f"{at} raised {_type_name(_type(exc))}"
                           + (f": {text}" if text else "")) from None
    finally:
        _sys.stdout, _sys.stderr = saved_out, saved_err
    restored = verify()
    if restored or not intact:
        raise _CheckFailed(f"{label} {_TAMPERED} ({', '.join(restored) or 'armlab'}), "
                              "which is not allowed: the check put it back")
    if called:
        raise _CheckFailed(f"{label} called armlab: {_switched_off(called[0])}")
    return result


# ---------------------------------------------------------------- between cells
def protect(namespace, names):
    """Undo, around every cell, what an answer cell may do to the checks' setting.

    Called by the exercises' locked first cell (through
    :func:`armlab.grading.protect`) with ``globals()``. Before and after every
    cell it puts back the checks' ``names`` in the notebook, IPython's input
    and AST transformers and custom exception handlers as they were, and every
    sealed piece of grading code (:func:`verify`). Each repair is noted on
    stdout (:func:`armlab.grading.messages.note`), which the autograder reports.
    """
    kept = {}
    for key in names:
        if key in namespace:
            kept[key] = namespace[key]
    ipython = _sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return None
    lists = ("input_transformers_cleanup", "input_transformers_post", "ast_transformers")
    saved = {attr: _list(_getattr(shell, attr, [])) for attr in lists}
    saved_exc = _getattr(shell, "custom_exceptions", ())

    def restore(*_args, **_kwargs):
        notes = []
        try:
            notes += [f"restored {what}: an earlier cell changed it" for what in verify()]
        except _BaseException:                              # never let a hook fail: IPython
            notes.append("could not check the grading code")  # would print it on stderr
        for key, obj in kept.items():
            if namespace.get(key, _MISSING) is not obj:
                namespace[key] = obj
                notes.append(f"restored {key}: an earlier cell replaced it")
        for attr, items in saved.items():
            try:
                current = _getattr(shell, attr)
                if _len(current) != _len(items) or _len(
                        [1 for a, b in _zip(current, items) if a is not b]):
                    current[:] = items              # the lists are IPython's own: edit in place
                    notes.append(f"restored IPython's {attr}")
            except _BaseException:
                notes.append(f"could not restore IPython's {attr}")
        try:
            if shell.custom_exceptions is not saved_exc:
                shell.custom_exceptions = saved_exc
                notes.append("restored IPython's exception handling")
        except _BaseException:
            notes.append("could not restore IPython's exception handling")
        for text in notes:
            try:
                _sys.stdout.write(_note(text))
            except _BaseException:
                pass

    _seal_function(restore)
    shell.events.register("pre_run_cell", restore)
    shell.events.register("post_run_cell", restore)
    return None


harden(globals())
harden(vars(_messages))     # the texts' functions, too, run on private builtins
