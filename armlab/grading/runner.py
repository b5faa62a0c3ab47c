"""What runs inside the sandbox: a notebook's code, and its functions on the cases it is given.

The grader starts ``python -I runner.py IN OUT`` and writes the run's plan as one JSON
line on ``IN``: the code cells, and each test cell's checks. A check's cases (inputs only)
come as the answer to its ``begin``. Messages on ``OUT``, one JSON line each: ``cell``
(``status`` ok, error, cpu or memory; ``outputs`` when asked), ``begin``, ``call`` (a
function the grader computes, answered on ``IN``), ``result`` (:func:`record`) and
``done`` (CPU seconds). Nothing here judges. Only the standard library (numpy when a value
needs it) is imported, so a student's kernel can use :func:`record` and
:func:`student_args` too.
"""

import ast
import base64
import builtins
import io
import json
import os
import signal
import sys
import traceback

MAX_ITEMS = 10_000
"""Numbers in one answer beyond which it is refused as far too large."""
MAX_DEPTH = 4
CELL = "<cell {}>"


class CPULimit(BaseException):
    """Raised in the student's code when a cell has used its CPU seconds."""


class NotServed(RuntimeError):
    """Raised when a cell calls, between checks, an armlab function the grader computes."""

    def __init__(self, name):
        super().__init__(
            f"armlab.{name} is not computed outside the checks while your notebook is graded "
            "(nothing that could compute an answer runs between them); in your own Jupyter "
            "it works. This cell's output is not graded; a check that allows it still gets it")
        self.name = name


# ---------------------------------------------------------------- values as data
def plain(value, _depth=0, _count=None):
    """``value`` as JSON data: floats and nested lists of them, or raise ``TypeError`` with
    a kind (``"bool"``, ``"str"``, ``"type:<name>"``, ``"large"``, ``"deep"``). "large": more
    than :data:`MAX_ITEMS` numbers, or as many lists (a ``(2001, 2, 2)`` array, 8,004 numbers
    in 6,004 lists, is not large).

    >>> plain([[1, 2.5]] * 3)
    [[1.0, 2.5], [1.0, 2.5], [1.0, 2.5]]
    """
    if _count is None:
        _count = [0, 0]                         # numbers, lists
    if isinstance(value, bool):
        raise TypeError("bool")
    if isinstance(value, (int, float)):
        _count[0] += 1
        if _count[0] > MAX_ITEMS:
            raise TypeError("large")
        try:
            return float(value)
        except OverflowError:
            return float("inf") if value > 0 else float("-inf")
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        if isinstance(value, numpy.bool_):
            raise TypeError("bool")
        if isinstance(value, (numpy.integer, numpy.floating)):
            return plain(float(value), _depth, _count)
        if isinstance(value, numpy.ndarray):
            if value.dtype.kind not in "iuf":
                raise TypeError(f"dtype:{value.dtype}")
            if value.size > MAX_ITEMS:
                raise TypeError("large")
            return plain(numpy.asarray(value, dtype=float).tolist(), _depth, _count)
    if isinstance(value, (list, tuple)):
        if _depth >= MAX_DEPTH:
            raise TypeError("deep")
        _count[1] += 1
        if _count[1] > MAX_ITEMS:
            raise TypeError("large")
        return [plain(v, _depth + 1, _count) for v in value]
    if isinstance(value, str):
        raise TypeError("str")
    raise TypeError(f"type:{type(value).__name__}")


def not_carried(name, why, way):
    """What a graded notebook is told when a call of ``armlab.<name>`` cannot cross between
    its sandbox and the grader: ``why`` is :func:`plain`'s kind, ``way`` ``"in"`` (the
    arguments) or ``"out"`` (the result)."""
    limit = f"{MAX_ITEMS:,}"
    if why == "large":
        said = (f"was given more than {limit} numbers, and at most {limit} may go into"
                if way == "in" else
                f"returned more than {limit} numbers, and at most {limit} may come back from")
        verb = "give it fewer" if way == "in" else "ask it for fewer"
        return (f"armlab.{name} {said} one call while your notebook is graded (in your own "
                f"Jupyter there is no limit): {verb} at a time (a shorter run, a coarser grid, "
                "a batch in pieces)")
    what = {"deep": f"lists nested more than {MAX_DEPTH} deep", "bool": "a truth value",
            "str": "a string"}.get(why, f"a {why.split(':')[-1]}")
    return (f"armlab.{name}: {what} cannot pass {'into' if way == 'in' else 'out of'} a call "
            "while your notebook is graded (only numbers, arrays and arms do)")


# ---------------------------------------------------------------- expressions as data
EXPR_NODES = 2_000
"""Nodes in one SymPy answer beyond which it is refused (the grader checks it again)."""
EXPR_FUNCTIONS = ("Add", "Mul", "Pow", "sin", "cos", "tan", "Abs")


def _sympy(value):
    """Whether ``value`` is a SymPy object, or a list or object array holding some."""
    if type(value).__module__.startswith("sympy"):
        return True
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.ndarray):
        return value.dtype.kind == "O" and value.size <= 36 and any(map(_sympy, value.flat))
    return (isinstance(value, (list, tuple)) and len(value) <= 6
            and any(_sympy(v) for row in value for v in (row if isinstance(row, (list, tuple))
                                                         else [row])))


def tree_of(value, _count=None, _depth=0):
    """A SymPy expression or matrix as JSON data, a tree of node kinds and leaves:
    ``["Add", ["Symbol", "x"], ["Integer", "1"]]``; a matrix is
    ``["Matrix", rows, cols, entry, ...]``. Raises ``TypeError`` (``"expr:<why>"``) for
    what no tree holds. Nothing here is trusted: the grader reads the tree again with
    :func:`armlab.grading.symbolic.rebuild`.

    >>> import sympy
    >>> tree_of(sympy.Symbol("x") ** 2 / 2)
    ['Mul', ['Rational', '1', '2'], ['Pow', ['Symbol', 'x'], ['Integer', '2']]]
    """
    count = [0] if _count is None else _count
    count[0] += 1
    if count[0] > EXPR_NODES:
        raise TypeError("expr:large")
    if _depth > 60:
        raise TypeError("expr:deep")
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        rows = [list(r) if isinstance(r, (list, tuple)) else [r] for r in value]
        if not rows or len({len(r) for r in rows}) != 1 or _depth:
            raise TypeError("expr:ragged")
        return ["Matrix", len(rows), len(rows[0])] + [tree_of(v, count, 1) for r in rows
                                                      for v in r]
    if isinstance(value, bool):
        raise TypeError("expr:bool")
    if isinstance(value, int):
        return ["Integer", str(value)] if abs(value) < 10 ** 30 else ["Integer", "huge"]
    if isinstance(value, float):
        return ["Float", repr(value)]
    if getattr(value, "is_Matrix", False):
        if _depth:
            raise TypeError("expr:nested matrix")
        rows, cols = value.shape
        return ["Matrix", rows, cols] + [tree_of(v, count, 1) for v in list(value)]
    if getattr(value, "is_Symbol", False):
        return ["Symbol", str(value.name)[:40]]
    if getattr(value, "is_Integer", False):
        return tree_of(int(value), count, _depth) if abs(value) < 10 ** 30 else \
            ["Integer", "huge"]
    if getattr(value, "is_Rational", False):
        if max(abs(value.p), value.q) >= 10 ** 30:
            return ["Integer", "huge"]
        return ["Rational", str(value.p), str(value.q)]
    if getattr(value, "is_Float", False):
        return ["Float", repr(float(value))]
    kind = type(value).__name__
    if kind in ("Pi", "Exp1", "Half", "NegativeOne", "One", "Zero"):
        return [{"Pi": "pi", "Exp1": "E"}.get(kind, kind)]
    if kind not in EXPR_FUNCTIONS:
        raise TypeError(f"expr:node:{kind[:40]}")
    args = getattr(value, "args", ())
    return [kind] + [tree_of(a, count, _depth + 1) for a in args]


def expr_of(tree):
    """The SymPy object a tree made by :func:`tree_of` stands for: how a derivation part's
    arguments (symbols, exact numbers) reach the student's function."""
    import sympy

    kind = tree[0]
    if kind == "Matrix":
        return sympy.Matrix(tree[1], tree[2], [expr_of(t) for t in tree[3:]])
    if kind == "Symbol":
        return sympy.Symbol(tree[1], real=True)
    if kind == "Integer":
        return sympy.Integer(int(tree[1]))
    if kind == "Rational":
        return sympy.Rational(int(tree[1]), int(tree[2]))
    if kind == "pi":
        return sympy.pi
    return getattr(sympy, kind)(*[expr_of(t) for t in tree[1:]])


def record(value=None, error=None):
    """What a student's function gave, as data the grader can judge.

    >>> record(1)
    {'kind': 'value', 'value': 1.0}
    >>> record(None)
    {'kind': 'none'}
    >>> record(error=ZeroDivisionError("float division by zero"))["type"]
    'ZeroDivisionError'
    """
    if error is not None:
        if isinstance(error, CPULimit):
            return {"kind": "timeout"}
        out = {"kind": "error", "type": type(error).__name__, "message": str(error)[:600]}
        if type(error).__name__ == "ArmlabOff":
            out["armlab"] = str(getattr(error, "name", ""))[:100]
        return out
    if value is None:
        return {"kind": "none"}
    if isinstance(value, str):
        return {"kind": "str", "value": value[:200]}
    try:
        if _sympy(value):
            return {"kind": "expr", "tree": tree_of(value)}
        return {"kind": "value", "value": plain(value)}
    except TypeError as exc:
        return {"kind": "refused", "why": str(exc)[:100]}
    except Exception as exc:                                    # noqa: BLE001
        return {"kind": "error", "type": type(exc).__name__, "message": str(exc)[:600]}


def encode(value):
    """An argument or a result as JSON data: arms as their fields, arrays as lists."""
    if isinstance(value, dict):
        return {"__dict__": {str(k): encode(v) for k, v in value.items()}}
    if all(hasattr(value, k) for k in ("kinds", "origins", "inertias", "tip")):  # a chain
        return {"__chain__": {k: list(getattr(value, k)) if k == "kinds" else
                              plain(getattr(value, k)) for k in CHAIN_FIELDS}}
    if hasattr(value, "lengths") and hasattr(value, "masses") and hasattr(value, "gear_ratio"):
        return {"__arm__": {k: plain(getattr(value, k)) for k in (
            "lengths", "masses", "com", "inertia", "gravity", "damping", "coulomb",
            "gear_ratio")}}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {"__tuple__": type(value).__name__, "fields": list(value._fields),
                "values": [encode(v) for v in value]}
    fields = getattr(type(value), "__dataclass_fields__", None)
    if fields is not None:                     # a result object: its fields, by name
        names = [n for n in fields if not n.startswith("_")]
        return {"__tuple__": type(value).__name__, "fields": names,
                "values": [encode(getattr(value, n)) for n in names]}
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, (list, tuple)) and any(
            isinstance(v, (dict, str)) or hasattr(v, "lengths") for v in value):
        return [encode(v) for v in value]
    if isinstance(value, (list, tuple)) and _ragged(value):    # (forces (n, 2), moments (n,))
        return {"__seq__": [encode(v) for v in value], "tuple": isinstance(value, tuple)}
    return plain(value)


def _ragged(items):
    """Whether a list's items have different shapes (so that no array holds them).

    >>> _ragged(([1.0, 2.0], [[1.0, 2.0]])), _ragged(([1.0, 2.0], [3.0, 4.0]))
    (True, False)
    """
    import numpy

    try:
        return len({numpy.shape(v) for v in items}) > 1
    except ValueError:                                  # an item ragged itself
        return True


def decode(data):
    """The inverse of :func:`encode`, as a student's function gets its arguments: arms as
    ``armlab.PlanarArm``, lists as float arrays, numbers as floats."""
    import numpy

    if isinstance(data, dict):
        if "__expr__" in data:
            return expr_of(data["__expr__"])
        if "__arm__" in data:
            import armlab

            return armlab.PlanarArm(**data["__arm__"])
        if "__chain__" in data:
            return chain(data["__chain__"])
        if "__seq__" in data:
            items = [decode(v) for v in data["__seq__"]]
            return tuple(items) if data.get("tuple") else items
        if "__tuple__" in data:
            import collections

            kind = collections.namedtuple(data["__tuple__"], data["fields"])
            return kind(*[decode(v) for v in data["values"]])
        return {k: decode(v) for k, v in data.get("__dict__", {}).items()}
    if isinstance(data, list):
        if any(isinstance(v, (dict, str)) for v in data):
            return [decode(v) for v in data]
        return numpy.array(data, dtype=float)
    if isinstance(data, bool) or data is None or isinstance(data, str):
        return data
    return float(data)


CHAIN_FIELDS = ("kinds", "origins", "axes", "inertias", "tip", "gravity", "effort", "velocity")
"""A spatial chain's data as it crosses (:data:`armlab.grading.cases.CHAIN_FIELDS`)."""


def chain(fields):
    """A spatial chain's data as the student's function gets it: an
    :class:`armlab.spatial.Chain` (its joint names ``joint0``, ..., no position limits).

    In a sandbox whose part does not allow ``spatial.Chain`` (nor a function that needs
    it), the class is a stub: the chain is then a plain namespace with the same data
    attributes and ``n``, so the sandbox holds no code the part does not allow."""
    import numpy
    import types
    from armlab.spatial.chain import Chain

    n = len(fields["kinds"])
    arrays = {k: numpy.array(fields[k], dtype=float) for k in CHAIN_FIELDS[1:]}
    kinds = tuple(str(k) for k in fields["kinds"])
    for a in arrays.values():
        a.flags.writeable = False
    try:
        return Chain(name="chain", joints=tuple(f"joint{i}" for i in range(n)), kinds=kinds,
                     lower=numpy.full(n, -numpy.inf), upper=numpy.full(n, numpy.inf),
                     **arrays)
    except Exception:                     # noqa: BLE001 (the stub's ArmlabOff)
        return types.SimpleNamespace(name="chain", kinds=kinds, n=n, **arrays)


def student_args(args):
    """A case's encoded arguments as the student's function gets them."""
    return [decode(a) for a in args]


# ---------------------------------------------------------------- running cells
class Capture(io.TextIOBase):
    """One stream of a cell's printed text, cut after ``limit`` characters."""

    def __init__(self, name, limit):
        self.name, self.limit, self.parts, self.size, self.cut = name, limit, [], 0, False

    def writable(self):
        return True

    def write(self, text):
        text = str(text)
        room = self.limit - self.size
        if room > 0:
            self.parts.append(text[:room])
        self.cut = self.cut or len(text) > room
        self.size += len(text)
        return len(text)

    def text(self):
        return "".join(self.parts)


class Runner:
    """Run one plan: its cells in one namespace, its checks on the student's functions."""

    def __init__(self, plan, receive, send):
        self.plan, self.receive, self.send = plan, receive, send
        self.cpu = float(plan.get("cpu", 30))
        self.max_chars = int(plan.get("max_chars", 20_000))
        self.namespace = {"__name__": "__main__", "__builtins__": builtins}
        self.outputs = None
        self.allowed = None            # in a check: what it may have the grader compute
        self.stopped = None            # the last cell's error: (line, "Type: message")
        self.failed = []               # (label, code, stopped) of each cell that stopped

    # -- the CPU limit of one cell or check: a signal in the student's code
    def _arm(self):
        signal.setitimer(signal.ITIMER_PROF, self.cpu)

    @staticmethod
    def _disarm():
        signal.setitimer(signal.ITIMER_PROF, 0)

    def call(self, name, args, kwargs):
        """Ask the grader for a function's value (an earlier part's, or armlab's). In a
        check, a function its part does not allow is refused here, as armlab's stub would
        be; between checks, every one (the grader refuses them too, whatever this process
        does)."""
        if self.allowed is None:
            raise NotServed(name)
        if name not in self.allowed:
            from armlab._off import ArmlabOff

            raise ArmlabOff(name)
        try:
            message = {"t": "call", "name": name, "args": [encode(a) for a in args],
                       "kwargs": {str(k): encode(v) for k, v in kwargs.items()}}
        except TypeError as exc:
            raise TypeError(not_carried(name, str(exc), "in")) from None
        self.send(message)
        answer = self.receive()
        if "error" in answer:
            kind = {"ValueError": ValueError, "TypeError": TypeError}.get(
                answer["error"].get("type"), RuntimeError)
            raise kind(answer["error"].get("message", "the grader could not compute it"))
        return decode(answer.get("value"))

    def display(self, value):
        """``display(x)`` in the student's code: shown as text (or a PNG it draws itself)."""
        if self.outputs is None or value is None:
            return
        data = {"text/plain": repr(value)[:self.max_chars]}
        png = getattr(value, "_repr_png_", None)
        if callable(png):
            try:
                raw = png()
                if isinstance(raw, bytes) and len(raw) < 2_000_000:
                    data["image/png"] = base64.b64encode(raw).decode("ascii")
            except Exception:                                  # noqa: BLE001
                pass
        self.outputs.append({"output_type": "display_data", "data": data, "metadata": {}})

    def run_cell(self, index, code):
        out, err = Capture("stdout", self.max_chars), Capture("stderr", self.max_chars)
        self.outputs = []
        sys.stdout, sys.stderr = out, err
        error = None
        try:
            tree = ast.parse(_without_magics(code), CELL.format(index))
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            self._arm()
            try:
                exec(compile(tree, CELL.format(index), "exec"), self.namespace)
                if last is not None:
                    value = eval(compile(ast.Expression(last.value), CELL.format(index), "eval"),
                                 self.namespace)
                    if value is not None:
                        self.display(value)
            finally:
                self._disarm()
        except (Exception, CPULimit) as exc:                    # noqa: BLE001
            error = exc
        except SystemExit as exc:
            error = exc
        finally:
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        self.stopped = None if error is None else (
            _line_of(error, CELL.format(index)), f"{type(error).__name__}: {error}"[:300])
        outputs = []
        for stream in (out, err):
            if stream.size:
                text = stream.text() + ("\n... output cut by the grader ...\n" if stream.cut
                                        else "")
                outputs.append({"output_type": "stream", "name": stream.name, "text": text})
        outputs += self.outputs
        if error is not None:
            outputs.append(_error_output(error, self.cpu))
        self.outputs = None
        return outputs

    def run_check(self, step):
        """One check: the student's function on every case, or the value of a name. The
        cases come from the grader when the check begins, not before."""
        self.send({"t": "begin", "check": step["check"]})
        cases = self.receive().get("cases")
        name = step["name"]
        if cases is None:                                 # a value (check_choice)
            found = self.namespace.get(name, _MISSING)
            records = [{"kind": "missing"} if found is _MISSING else record(found)]
            self.send({"t": "result", "check": step["check"], "records": records})
            return
        func = self.namespace.get(name, _MISSING)
        if func is _MISSING:
            records = [self._missing(name)]
        elif not callable(func):
            records = [{"kind": "notcallable", "type": type(func).__name__}]
        else:
            records = self._cases(func, step, cases)
        self.send({"t": "result", "check": step["check"], "records": records})

    def _missing(self, name):
        """The record of a function the notebook never defined: with the cell that holds
        its ``def`` and stopped before it, where and why, when one did."""
        import re

        pattern = re.compile(rf"^\s*def\s+{re.escape(name)}\s*\(", re.M)
        for label, code, (line, error) in self.failed:
            if pattern.search(code):
                return {"kind": "missing", "cell": label[:100], "line": line, "error": error}
        return {"kind": "missing"}

    def _cases(self, func, step, cases):
        saved = {u: self.namespace.get(u, _MISSING) for u in step.get("uses", ())}
        for used in saved:
            self.namespace[used] = _stand_in(self, used)
        self.allowed = set(step.get("served", ())) | {"@" + u for u in saved}
        records = []
        sink = Capture("stdout", 0)
        sys.stdout = sys.stderr = sink                    # printing is not graded
        self._arm()
        try:
            for case in cases:
                try:
                    records.append(record(func(*student_args(case))))
                except (Exception, CPULimit) as exc:          # noqa: BLE001
                    records.append(record(error=exc))
                    if isinstance(exc, CPULimit):
                        break
        finally:
            self._disarm()
            self.allowed = None
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
            for used, value in saved.items():
                if value is _MISSING:
                    self.namespace.pop(used, None)
                else:
                    self.namespace[used] = value
        return records

    def run(self):
        import armlab._served

        armlab._served.CALL = self.call
        builtins.display = self.display
        show = bool(self.plan.get("outputs"))
        for step in self.plan["steps"]:
            if "code" in step:
                outputs = self.run_cell(step["cell"], step["code"])
                if self.stopped is not None:
                    self.failed.append((str(step.get("label") or f"cell {step['cell']}"),
                                        step["code"], self.stopped))
                message = {"t": "cell", "cell": step["cell"], "status": _status(outputs)}
                if show:
                    message["outputs"] = outputs
                self.send(message)
            else:
                self.run_check(step)
        times = os.times()
        self.send({"t": "done", "cpu": times.user + times.system + times.children_user
                   + times.children_system})


_MISSING = object()


def _status(outputs):
    """How a cell ended: ``ok``, ``error``, or past a limit (``cpu``, ``memory``)."""
    for out in outputs:
        if out.get("output_type") == "error":
            return {"CPULimit": "cpu", "MemoryError": "memory"}.get(out.get("ename"), "error")
    return "ok"


def _stand_in(runner, name):
    def stand_in(*args, **kwargs):
        return runner.call("@" + name, args, kwargs)
    stand_in.__name__ = stand_in.__qualname__ = name
    return stand_in


def _without_magics(code):
    """IPython's ``%magic`` and ``!shell`` lines do nothing when graded."""
    lines = code.split("\n")
    if lines and lines[0].lstrip().startswith("%%"):
        return "pass  # a cell magic: not run when graded\n"
    return "\n".join("pass  # not run when graded" if line.lstrip().startswith(("%", "!"))
                     else line for line in lines)


def _line_of(error, filename):
    """The line of cell ``filename`` at which ``error`` stopped it (0 if none)."""
    if isinstance(error, SyntaxError) and error.filename == filename:
        return int(error.lineno or 0)
    lines = [f.lineno for f in traceback.extract_tb(error.__traceback__)
             if f.filename == filename]
    return int(lines[-1] or 0) if lines else 0


def _error_output(error, cpu):
    if isinstance(error, CPULimit):
        return {"output_type": "error", "ename": "CPULimit",
                "evalue": f"the cell used its {cpu:g} CPU seconds and was stopped",
                "traceback": [f"CPULimit: the cell used its {cpu:g} CPU seconds and was stopped"]}
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if f.filename != __file__ and not f.filename.endswith(("runner.py", "_served.py"))]
    lines = traceback.format_list(frames)[-8:] + traceback.format_exception_only(
        type(error), error)
    return {"output_type": "error", "ename": type(error).__name__,
            "evalue": str(error)[:2000], "traceback": ["".join(lines)[-6000:]]}


def _on_cpu_limit(signum, frame):
    raise CPULimit()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    fd_in, fd_out = int(argv[0]), int(argv[1])
    # the channel on descriptors of its own; the student's input() reads nothing
    fd_in, fd_out = os.dup(fd_in), os.dup(fd_out)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    reader = os.fdopen(fd_in, "r", encoding="utf-8")
    writer = os.fdopen(fd_out, "w", encoding="utf-8")
    plan = json.loads(reader.readline())
    sys.path.insert(0, plan.get("armlab", "/opt/armlab"))

    def send(message):
        writer.write(json.dumps(message) + "\n")
        writer.flush()

    def receive():
        line = reader.readline()
        if not line:
            raise RuntimeError("the grader closed the channel")
        return json.loads(line)

    signal.signal(signal.SIGPROF, _on_cpu_limit)
    Runner(plan, receive, send).run()
    writer.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
