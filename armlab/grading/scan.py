"""Static scan of a submission's cells for tampering with the grading.

The checks hold against many tricks inside the kernel (see
:mod:`armlab.grading.checks`); those they cannot stop, and the blunt ones they
do stop, are named here from the source alone, without running anything, so
the report can flag the submission for a human look.

>>> scan_source("np.allclose = lambda *a, **k: True")
[(1, 'assigns np.allclose (an attribute of an imported module)')]
>>> scan_source("import numpy as np\\nx = np.linspace(0, 1, 5)")
[]
"""

import ast

from armlab.grading.messages import CHECK_NAMES

# Names the exercises' locked first cell binds; rebinding them at the top level is tampering.
PROTECTED_NAMES = set(CHECK_NAMES)
# Modules whose attributes a student has no reason to assign.
MODULE_NAMES = {"np", "numpy", "math", "builtins", "sys", "os", "io", "armlab", "al",
                "grading", "checks", "warnings", "IPython", "nbgrader", "testing", "npt",
                "ipykernel", "types", "functools", "operator"}
SUSPECT_IMPORTS = {"builtins", "ctypes", "gc", "inspect", "importlib", "IPython.core",
                   "IPython.get_ipython", "IPython.utils", "ipykernel",
                   "nbgrader", "unittest.mock", "mock", "signal", "atexit", "armlab.grading",
                   "armlab._checks", "traceback", "faulthandler", "pytest"}
SUSPECT_CALLS = {"setattr", "delattr", "exec", "eval", "compile", "__import__", "globals",
                 "vars", "get_ipython", "reload", "breakpoint"}
SUSPECT_ATTRS = {"__code__", "__globals__", "__closure__", "__dict__", "__builtins__",
                 "__defaults__", "__kwdefaults__", "__subclasses__", "__setattr__", "f_globals",
                 "f_locals", "f_back", "cell_contents", "__wrapped__", "__class__", "_getframe",
                 "settrace", "setprofile", "set_custom_exc", "input_transformers_cleanup",
                 "input_transformers_post", "ast_transformers", "run_cell", "events",
                 "excepthook", "showtraceback", "redirect_stderr", "redirect_stdout", "dup2",
                 "_exit", "modules"}
SAFE_MAGICS = {"timeit", "time", "matplotlib", "pprint", "precision", "who", "whos", "pwd"}


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts)), node.id
    if isinstance(node, ast.Call):
        inner, root = _dotted(node.func)
        parts.append(inner + "()")
        return ".".join(reversed(parts)), root
    if isinstance(node, ast.Subscript):
        inner, root = _dotted(node.value)
        parts.append(inner + "[...]")
        return ".".join(reversed(parts)), root
    return ".".join(reversed(parts)) or "?", None


class _Scanner(ast.NodeVisitor):
    def __init__(self, modules):
        self.modules = set(modules)
        self.found = []
        self.depth = 0

    def flag(self, node, message):
        self.found.append((getattr(node, "lineno", 0), message))

    # ---- imports
    def visit_Import(self, node):
        for alias in node.names:
            self.modules.add((alias.asname or alias.name).split(".")[0])
            if alias.name in SUSPECT_IMPORTS or alias.name.split(".")[0] in SUSPECT_IMPORTS \
                    or ".".join(alias.name.split(".")[:2]) in SUSPECT_IMPORTS:
                self.flag(node, f"imports {alias.name}")
            self._bind(node, alias.asname or alias.name.split(".")[0])

    def visit_ImportFrom(self, node):
        mod = node.module or ""
        for alias in node.names:
            self.modules.add(alias.asname or alias.name)
            if mod in SUSPECT_IMPORTS or mod.split(".")[0] in SUSPECT_IMPORTS \
                    or ".".join(mod.split(".")[:2]) in SUSPECT_IMPORTS \
                    or f"{mod}.{alias.name}" in SUSPECT_IMPORTS:
                self.flag(node, f"imports {alias.name} from {mod}")
            self._bind(node, alias.asname or alias.name)

    # ---- bindings
    def _bind(self, node, name):
        if self.depth == 0 and name in PROTECTED_NAMES:
            self.flag(node, f"rebinds {name}, which the read-only first cell imported")

    def _target(self, node, target, verb="assigns"):
        if isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                self._target(node, t, verb)
        elif isinstance(target, ast.Starred):
            self._target(node, target.value, verb)
        elif isinstance(target, ast.Name):
            self._bind(node, target.id)
        elif isinstance(target, ast.Attribute):
            dotted, root = _dotted(target)
            if root in self.modules or root in MODULE_NAMES:
                self.flag(node, f"{verb} {dotted} (an attribute of an imported module)")
        elif isinstance(target, ast.Subscript):
            dotted, root = _dotted(target.value)
            if root in self.modules or root in MODULE_NAMES or "globals()" in dotted \
                    or "vars()" in dotted or "__dict__" in dotted or "modules" in dotted:
                self.flag(node, f"{verb} an item of {dotted}")

    def visit_Assign(self, node):
        for t in node.targets:
            self._target(node, t)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self._target(node, node.target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        self._target(node, node.target)
        self.generic_visit(node)

    def visit_Delete(self, node):
        for t in node.targets:
            self._target(node, t, "deletes")
        self.generic_visit(node)

    def visit_NamedExpr(self, node):
        self._target(node, node.target)
        self.generic_visit(node)

    def visit_Global(self, node):
        for name in node.names:
            if name in PROTECTED_NAMES:
                self.flag(node, f"declares {name} global inside a function")

    def _scope(self, node):
        self._bind(node, node.name)
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

    def visit_Lambda(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    # ---- calls and attributes
    def visit_Call(self, node):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else None)
        if name in ("run_line_magic", "run_cell_magic") and node.args \
                and isinstance(node.args[0], ast.Constant):
            if node.args[0].value not in SAFE_MAGICS:
                self.flag(node, f"uses the IPython magic %{node.args[0].value}")
            for arg in node.args[1:]:
                self.visit(arg)
            return
        if name in SUSPECT_CALLS:
            self.flag(node, f"calls {name}()")
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if node.attr in SUSPECT_ATTRS:
            dotted, _ = _dotted(node)
            self.flag(node, f"uses {dotted}")
        self.generic_visit(node)

    def visit_Name(self, node):
        if node.id in ("__builtins__", "__loader__", "__spec__"):
            self.flag(node, f"uses {node.id}")


def python_source(source):
    """A cell's source as plain Python (IPython magics turned into calls)."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:                                   # pragma: no cover
        return source
    # Magics become get_ipython().run_line_magic(...): tell them apart from a
    # student's own get_ipython() calls, which are flagged.
    text = TransformerManager().transform_cell(source)
    return text.replace("get_ipython().run_line_magic", "__magic__.run_line_magic").replace(
        "get_ipython().run_cell_magic", "__magic__.run_cell_magic")


def scan_source(source, modules=()):
    """``[(line, finding), ...]`` for one cell's source; a syntax error is one finding.

    ``modules``: names already bound to modules by earlier cells.
    """
    code = python_source(source)
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return [(exc.lineno or 0, f"syntax error: {exc.msg}")]
    scanner = _Scanner(modules)
    scanner.visit(tree)
    return sorted(set(scanner.found))


def scan_cells(sources):
    """Scan several cells in order; module names imported by one count in the next.

    ``sources``: ``[(label, source), ...]``; a cell labelled ``None`` is read
    for its imports but not reported (the read-only cells). Returns
    ``[(label, line, finding), ...]``.
    """
    modules = set()
    out = []
    for label, source in sources:
        code = python_source(source)
        try:
            tree = ast.parse(code)
        except SyntaxError as exc:
            if label is not None:
                out.append((label, exc.lineno or 0, f"syntax error: {exc.msg}"))
            continue
        scanner = _Scanner(modules)
        scanner.visit(tree)
        modules = scanner.modules
        if label is not None:
            out.extend((label, line, msg) for line, msg in sorted(set(scanner.found)))
    return out
