"""The armlab a sandbox sees: only the code that a part's allowed functions need.

:func:`build` writes a copy of armlab cut to a set of names: a top-level function, class or
constant is kept when a kept name refers to it, and otherwise replaced by a stub that raises
:class:`ArmlabOff`, so no code of a function the part does not allow is in the sandbox.
Names in ``served`` become proxies the grader answers (:data:`KEPT_IN_SANDBOX` are kept as
code), ``armlab.grading`` is a stub whose checks do nothing, and the package is compiled
once.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     kept = build(tmp, keep={"joint_positions"})
>>> ("armlab.kinematics", "joint_positions") in kept, ("armlab.kinematics", "jacobian") in kept
(True, False)
"""

import ast
import compileall
import pathlib
import shutil

PACKAGE = pathlib.Path(__file__).resolve().parent.parent
"""The real armlab package."""

ALWAYS = ("armlab.arm", "armlab._checks")
"""Modules kept whole in every build: the arms and their presets, and input checking."""

KEPT_IN_SANDBOX = frozenset({"quintic", "Quintic", "simulate", "Simulation", "tracking_error"})
"""Allowed names kept as code in the sandbox (they take controllers or return objects that
a proxy could not carry); every other allowed function is served by the grader."""

_OFF = '''"""What a graded notebook's armlab holds in place of what its part does not allow."""


class ArmlabOff(RuntimeError):
    """Raised by a function (or class) of armlab that this part does not allow."""

    def __init__(self, name):
        super().__init__(
            f"armlab.{name} is not available while this part is graded: the part asks you "
            "to compute it yourself (its text lists the armlab functions it allows)")
        self.name = name


def stub(name):
    def off(*args, **kwargs):
        raise ArmlabOff(name)
    off.__name__ = off.__qualname__ = name.rsplit(".", 1)[-1]
    off.__doc__ = f"Not available while this part is graded (armlab.{name})."
    return off


def stub_class(name):
    def new(cls, *args, **kwargs):
        raise ArmlabOff(name)
    short = name.rsplit(".", 1)[-1]
    return type(short, (), {"__new__": new, "__doc__": f"Not available (armlab.{name})."})
'''

_SERVED = '''"""Functions of armlab that the grader computes for this part, outside the sandbox."""

CALL = None
"""Set by the sandbox's runner: ``CALL(name, args, kwargs)`` returns the grader's answer."""


def served(name):
    def call(*args, **kwargs):
        return CALL(name, args, kwargs)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"armlab.{name}, computed by the grader for this part."
    return call
'''

_GRADING = '''"""The checks, as a graded notebook sees them: the grader runs the test cells itself."""

import math as _math

__all__ = ["check_function", "check_choice", "checked_when_graded", "deg"]


def deg(*angles):
    """Angles in degrees as a list of radians: ``deg(30, 60)``."""
    return [float(a) * _math.pi / 180.0 for a in angles]


def _nothing(*args, **kwargs):
    return None


check_function = check_choice = checked_when_graded = _nothing
'''


# ---------------------------------------------------------------- reading the package
class _Module:
    """One module's top-level statements and what its names refer to."""

    def __init__(self, name, path):
        self.name, self.path = name, path
        self.text = path.read_text(encoding="utf-8")
        self.tree = ast.parse(self.text, str(path))
        self.defines = {}             # name -> index of the statement that defines it
        self.aliases = {}             # name -> ("module", qualified) or ("name", (module, name))
        for k, stmt in enumerate(self.tree.body):
            for target in _defined(stmt):
                self.defines.setdefault(target, k)
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                self.aliases.update(_aliases(stmt, name))

    def source(self, stmt):
        first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
        lines = self.text.splitlines(keepends=True)
        return "".join(lines[first - 1:stmt.end_lineno])


def _defined(stmt):
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, ast.Assign):
        return [n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    return []


def _aliases(stmt, module):
    """Names an import binds, for imports of armlab: a module, or a name in one."""
    out = {}
    if isinstance(stmt, ast.Import):
        for a in stmt.names:
            if a.name == "armlab" or a.name.startswith("armlab."):
                out[a.asname or a.name.split(".")[0]] = ("module", a.name if a.asname
                                                         else a.name.split(".")[0])
        return out
    base = stmt.module or ""
    if stmt.level:                                     # relative: from . import x
        parts = module.split(".")[:-stmt.level]
        base = ".".join(parts + ([base] if base else []))
    if base != "armlab" and not base.startswith("armlab."):
        return out
    for a in stmt.names:
        out[a.asname or a.name] = ("name", (base, a.name))
    return out


def _modules(package):
    mods = {}
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[:2] == ["armlab", "grading"]:
            continue                                   # replaced by the stub, never copied
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = _Module(".".join(parts), path)
    return mods


# ---------------------------------------------------------------- what refers to what
def _resolve(mods, module, name):
    """The node ``(module, name)`` that ``name`` means in ``module``, following imports."""
    seen = set()
    while (module, name) not in seen:
        seen.add((module, name))
        mod = mods.get(module)
        if mod is None:
            return None
        if name in mod.defines:
            return (module, name)
        kind, target = mod.aliases.get(name, (None, None))
        if kind == "name":
            base, real = target
            if f"{base}.{real}" in mods:               # from armlab import kinematics
                return ("module", f"{base}.{real}")
            module, name = base, real
            continue
        if kind == "module":
            return ("module", target)
        return None
    return None


def _bound(body):
    """Names a block binds itself (not inside nested functions, classes or comprehensions)."""
    out = set()
    todo = list(body)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
            continue
        if isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                          ast.GeneratorExp)):
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, ast.arg):
            out.add(n.arg)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in n.names)
        todo.extend(ast.iter_child_nodes(n))
    return out


def _loads(node):
    """``(scope, name, chain)`` for every name a statement reads that is not one of its own
    local variables: ``chain`` is the attributes read from it (``K.forward`` gives
    ``["forward"]``), ``scope`` the imports of armlab made inside its functions."""
    out = []

    def visit(n, local, aliases):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for d in getattr(n, "decorator_list", []) + n.args.defaults + [
                    x for x in n.args.kw_defaults if x is not None]:
                visit(d, local, aliases)
            body = n.body if isinstance(n.body, list) else [n.body]
            params = [a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs]
            params += [a.arg for a in (n.args.vararg, n.args.kwarg) if a is not None]
            inner = dict(aliases)
            for stmt in ast.walk(ast.Module(body=body, type_ignores=[])):
                if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    inner.update(_aliases(stmt, "armlab"))
            globals_ = {g for stmt in ast.walk(ast.Module(body=body, type_ignores=[]))
                        if isinstance(stmt, ast.Global) for g in stmt.names}
            scope = local | ((set(params) | _bound(body)) - globals_)
            for b in body:
                visit(b, scope, inner)
            return
        if isinstance(n, ast.ClassDef):
            for d in n.decorator_list + n.bases + [k.value for k in n.keywords]:
                visit(d, local, aliases)
            own = _bound(n.body)
            for b in n.body:
                methodlike = isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef))
                visit(b, local if methodlike else local | own, aliases)
            return
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            targets = {t.id for g in n.generators for t in ast.walk(g.target)
                       if isinstance(t, ast.Name)}
            for child in ast.iter_child_nodes(n):
                visit(child, local | targets, aliases)
            return
        if isinstance(n, ast.Attribute):
            chain, base = [n.attr], n.value
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name):
                if base.id in aliases or base.id not in local:
                    out.append((aliases, base.id, chain[::-1]))
                return
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            if n.id in aliases or n.id not in local:
                out.append((aliases, n.id, []))
        for child in ast.iter_child_nodes(n):
            visit(child, local, aliases)

    visit(node, set(), {})
    return out


def _references(mods, module, node):
    """Nodes ``(module, name)`` a top-level statement refers to."""
    out = set()
    for aliases, name, chain in _loads(node):
        kind, target = aliases.get(name, (None, None))
        if kind == "name":
            base, real = target
            hit = (("module", f"{base}.{real}") if f"{base}.{real}" in mods
                   else _resolve(mods, base, real))
        elif kind == "module":
            hit = ("module", target)
        else:
            hit = _resolve(mods, module, name)
        for attr in chain:
            if hit is None or hit[0] != "module":
                break
            sub = f"{hit[1]}.{attr}"
            hit = ("module", sub) if sub in mods else _resolve(mods, hit[1], attr)
        if hit is not None and hit[0] != "module":
            out.add(hit)
    return out


def public(name, mods=None):
    """The node of a name as the notebooks use it: ``"jacobian"`` (``al.jacobian``),
    ``"PlanarArm.with_payload"`` (its class), or a module (``"kinematics"``: all of it)."""
    mods = mods or _modules(PACKAGE)
    head = name.split(".")[0]
    if name.startswith("spatial.") and f"armlab.{name}" not in mods:   # spatial.mass_matrix
        hit = _resolve(mods, "armlab.spatial", name.split(".", 1)[1])
        if hit is None or hit[0] == "module":
            raise ValueError(f"armlab.spatial has no public name {name!r}")
        return [hit]
    if f"armlab.{name}" in mods:
        return [(f"armlab.{name}", n) for n in mods[f"armlab.{name}"].defines]
    hit = _resolve(mods, "armlab", head)
    if hit is None or hit[0] == "module":
        raise ValueError(f"armlab has no public name {name!r}")
    return [hit]


def closure(keep, mods=None):
    """Every node the names in ``keep`` need, :data:`ALWAYS` included."""
    mods = mods or _modules(PACKAGE)
    todo = [(m, n) for m in ALWAYS for n in mods[m].defines]
    for name in keep:
        todo += public(name, mods)
    kept = set()
    while todo:
        node = todo.pop()
        if node in kept:
            continue
        kept.add(node)
        module, name = node
        stmt = mods[module].tree.body[mods[module].defines[name]]
        todo += sorted(_references(mods, module, stmt) - kept)
    return kept


# ---------------------------------------------------------------- writing the build
def _stubbed(mods, mod, stmt, kept, served):
    """The source that stands for one top-level statement in the build, and whether it is
    a stand-in (a stub or a proxy)."""
    names = _defined(stmt)
    if not names or any((mod.name, n) in kept for n in names):
        return mod.source(stmt), False
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and (
            all(n.startswith("__") for n in names) or not _references(mods, mod.name, stmt)):
        return mod.source(stmt), False                  # plain data, no code in it
    lines = []
    for n in names:
        qual = f"{mod.name.removeprefix('armlab.')}.{n}" if mod.name != "armlab" else n
        if (mod.name, n) in served:
            lines.append(f"{n} = _served({n!r})\n")
        elif isinstance(stmt, ast.ClassDef):
            lines.append(f"{n} = _off.stub_class({qual!r})\n")
        else:
            lines.append(f"{n} = _off.stub({qual!r})\n")
    return "".join(lines), True


def build(dest, keep=(), served=(), everything=False, package=PACKAGE):
    """Write the sandbox's ``armlab`` into ``dest/armlab`` and compile it.

    Parameters
    ----------
    dest : path
        A folder (created if needed); the package goes into ``dest/armlab``.
    keep : iterable of str
        Names the sandbox's code may run (see :func:`public`), beyond :data:`ALWAYS`.
    served : iterable of str
        Public function names the grader computes: proxies in the build.
    everything : bool
        Keep the whole package (the run whose outputs the feedback shows).

    Returns
    -------
    set of (module, name)
        The nodes kept as code.
    """
    mods = _modules(pathlib.Path(package))
    served_nodes = set()
    for name in served:
        served_nodes.update(public(name, mods))
    if everything:
        kept = {(m, n) for m, mod in mods.items() for n in mod.defines}
    else:
        kept = closure(set(keep), mods) - served_nodes
    pathlib.Path(dest).mkdir(parents=True, exist_ok=True)
    pathlib.Path(dest).chmod(0o755)                  # the sandbox's user reads it
    root = pathlib.Path(dest) / "armlab"
    if root.exists():
        shutil.rmtree(root)
    for name, mod in mods.items():
        rel = mod.path.relative_to(pathlib.Path(package))
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        pieces = [_stubbed(mods, mod, stmt, kept, served_nodes) for stmt in mod.tree.body]
        body = [text for text, _ in pieces]
        header = ("from armlab import _off\nfrom armlab._served import served as _served\n"
                  if any(stand_in for _, stand_in in pieces) else "")
        # the header goes after the module's docstring and any __future__ import
        split = 0
        for k, stmt in enumerate(mod.tree.body):
            if (isinstance(stmt, ast.Expr) and k == 0) or (
                    isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"):
                split = k + 1
        target.write_text("".join(body[:split]) + header + "".join(body[split:]),
                          encoding="utf-8")
    (root / "_off.py").write_text(_OFF, encoding="utf-8")
    (root / "_served.py").write_text(_SERVED, encoding="utf-8")
    (root / "grading").mkdir(exist_ok=True)
    (root / "grading" / "__init__.py").write_text(_GRADING, encoding="utf-8")
    compileall.compile_dir(str(root), quiet=1, workers=1)
    return kept
