"""Grade one notebook: plan its sandbox runs, draw its cases, judge what comes back.

:class:`SandboxExecute` takes the place of nbgrader's ``Execute`` when a submission is
graded. It reads each test cell as data (:func:`checks_of`), plans the sandbox runs
(:func:`armlab.grading.sandbox.run`; parts that keep different code in the sandbox run
apart), draws the student's cases from the course secret, sends a check's inputs when it
begins, serves the armlab calls its part allows (:mod:`armlab.grading.serving`) and judges
the records here (:mod:`armlab.grading.judge`). A fault (a run that died or ran out of
time, a message out of turn, a case not drawn, a bound passed) is never a grade: it goes
into the :class:`~armlab.grading.result.Result` (:data:`GRADED`) and holds the row.
"""

import ast
import hashlib
import pathlib
import re
import tempfile
import time

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool, Enum, Float, Integer, Unicode, Union

from armlab.grading import judge, sandbox, serving, shaker
from armlab.grading.cases import decode, encode, student_key
from armlab.grading.references import lookup
from armlab.grading.result import Result, cases_identity

CHECKS = ("check_function", "check_choice")
IGNORED = ("checked_when_graded",)
DRAW_SECONDS = 1.0
"""A quantity whose fresh cases take more CPU seconds than this to draw is a fault of the
grader."""


PART = re.compile(r"\s*#+\s*Part\s+(\d+)\b")
"""A part's heading (``## Part 3: ...``): the parts a carried slip names."""


class PlanError(ValueError):
    """A test cell the grader cannot read as data (an instructor's mistake)."""


# ---------------------------------------------------------------- reading test cells
def _literal(node, cell):
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise PlanError(f"test cell {cell}: {ast.unparse(node)} is not a literal: a test "
                        "cell's checks take the names of the notebook's answers and "
                        "literals only") from None


def checks_of(source, cell="?"):
    """The checks a test cell holds, as data: ``[{"kind": "function", "name", "quantity",
    "cases", "label"}, {"kind": "choice", "name", "expected", "choices", "label",
    "explain"}]``. Raises :class:`PlanError` for any other statement."""
    out = []
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise PlanError(f"test cell {cell} is not Python: {exc}") from None
    for stmt in tree.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
                stmt.value.value, str):
            continue                                     # its docstring
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        name = getattr(getattr(call, "func", None), "id", None)
        if not isinstance(call, ast.Call) or name not in CHECKS + IGNORED:
            raise PlanError(f"test cell {cell}: line {stmt.lineno} is not a check "
                            f"({', '.join(CHECKS)})")
        if name in IGNORED:
            continue
        kw = {k.arg: _literal(k.value, cell) for k in call.keywords}
        if not call.args or not isinstance(call.args[0], ast.Name):
            raise PlanError(f"test cell {cell}: {name}'s first argument must be a name")
        subject = call.args[0].id
        rest = [_literal(a, cell) for a in call.args[1:]]
        if name == "check_function":
            quantity = rest[0] if rest else kw.get("quantity")
            which = rest[1] if len(rest) > 1 else kw.get("cases", "worked")
            known = ["worked", "fresh", *lookup(quantity).set_names()]
            if which not in known:
                raise PlanError(f"test cell {cell}: {quantity} has no cases {which!r} "
                                f"({', '.join(known)})")
            out.append({"kind": "function", "name": subject, "quantity": quantity,
                        "cases": which, "label": kw.get("name") or subject})
        else:
            expected = rest[0] if rest else kw.get("expected")
            choices = rest[1] if len(rest) > 1 else kw.get("choices")
            out.append({"kind": "choice", "name": subject, "expected": expected,
                        "choices": list(choices), "label": kw.get("name", "your answer"),
                        "explain": kw.get("explain", "")})
    return out


def _nbgrader(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def _is_test(cell):
    meta = _nbgrader(cell)
    return cell.get("cell_type") == "code" and meta.get("grade") and not meta.get("solution")


def is_try_it(cell):
    """A read-only "try it" cell of the set (grade id ``try_...``): it prints a part's worked
    case beside armlab's own value, so it is not run while graded (armlab's answers are off
    between the checks); nbgrader restores its source, so no student code is skipped."""
    meta = _nbgrader(cell)
    return (cell.get("cell_type") == "code" and bool(meta.get("locked"))
            and not meta.get("grade") and str(meta.get("grade_id", "")).startswith("try_"))


TRY_IT_NOTE = ("(A try-it cell: not run while graded, since it calls armlab's own answers,\n"
               "which are off between the checks. Its output in your own Jupyter is the one\n"
               "to read; the checks below grade the part.)\n")
"""A try-it cell's output on a feedback page, in lines of the check messages' width (a
stream output scrolls sideways, not wraps)."""


def setup_names(nb):
    """armlab names the notebook's read-only cells use (``al.quintic(...)``): every run
    keeps them, so the notebook's own setting-up works in each."""
    names = set()
    for cell in nb.cells:
        meta = _nbgrader(cell)
        if cell.cell_type != "code" or not meta.get("locked") or meta.get("grade") \
                or is_try_it(cell):
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        aliases = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.Import)
                   for a in n.names if a.name == "armlab"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases:
                names.add(node.attr)
    return names


# ---------------------------------------------------------------- the runs
def _split(allow):
    """An allow list as (names kept as code in the sandbox, names the grader serves)."""
    import armlab

    keep, served = set(), set()
    for item in allow:
        head = item.split(".")[0]
        if head == "spatial":                  # armlab.spatial's names are kept as code
            keep.add(item)
            continue
        value = getattr(armlab, head, None)
        if head in shaker.KEPT_IN_SANDBOX or isinstance(value, type) or value is None:
            keep.add(head)
        else:
            served.add(head)
    return frozenset(keep), frozenset(served)


HELD = ("not graded: held for your instructor, who sees in the grading report what stopped "
        "it (a time or memory limit, or the run's end); no score is given for it")
"""What a student's page says of a check a fault stopped (the student cannot read the report)."""


_NOT_CARRIED = ("armlab.{name} returns a {kind} object: it works in your own Jupyter, but "
                "not while your notebook is graded (only numbers pass into the grader's "
                "sandbox), so a cell that calls it stops here when graded; keep such calls "
                "out of the cells that define your functions")
"""What a graded notebook is told when it calls a function whose result is an object."""


def served_anywhere():
    """armlab's public functions that are proxies in a sandbox's armlab (the grader computes
    them in a check whose part allows them, never between checks): every public function
    but the arms and those kept as code (:data:`shaker.KEPT_IN_SANDBOX`)."""
    import armlab

    arms = {"PlanarArm", "tabletop_arm", "rod_arm", "statics_arm"}
    return frozenset(name for name in armlab.__all__ if name not in arms
                     and name not in shaker.KEPT_IN_SANDBOX and callable(getattr(armlab, name))
                     and not isinstance(getattr(armlab, name), type))


_BUILDS = {}


def build_for(keep):
    """The sandbox's armlab that keeps ``keep`` as code (every other public function a
    proxy the grader answers), built once per process."""
    key = frozenset(keep)
    if key not in _BUILDS:
        digest = hashlib.sha256(repr(sorted(key)).encode()).hexdigest()[:16]
        path = _builds_root() / digest
        shaker.build(path, keep=key, served=served_anywhere())
        _BUILDS[key] = path
    return _BUILDS[key]


_ROOT = []


def _builds_root():
    if not _ROOT:
        import atexit
        import shutil

        path = pathlib.Path(tempfile.mkdtemp(prefix="armlab-builds-"))
        path.chmod(0o755)
        atexit.register(shutil.rmtree, path, True)
        _ROOT.append(path)
    return _ROOT[0]


def draw(ref, which, key):
    """A check's cases (``ref.cases``), timed in CPU seconds (a busy grading machine
    stretches the clock, not the work): ``(cases, None)`` or ``(None, fault)``."""
    started = time.thread_time()
    try:
        cases = ref.cases(which, key=key)
    except Exception as exc:                                  # noqa: BLE001
        return None, f"the cases of {ref.quantity} ({which}) could not be drawn ({exc!r})"
    seconds = time.thread_time() - started
    if seconds > DRAW_SECONDS:
        return None, (f"the cases of {ref.quantity} ({which}) took {seconds:.1f} s of CPU to draw, "
                      f"more than {DRAW_SECONDS:g} s")
    return cases, None


class Grading:
    """One notebook's grading: its checks, runs and verdicts."""

    def __init__(self, nb, key, limits, isolate=True):
        self.nb, self.key, self.limits = nb, key, limits
        self.isolate = isolate
        self.faults, self.calls, self.constant, self.carried = [], [], [], []
        self.cost = {"runs": 0, "seconds": 0.0, "cpu": 0.0, "served_cpu": 0.0}
        self.budget = serving.Budget(limits.served_cpu)
        self.deadline = None                # the submission's cap, from its first run
        self.checks = []                 # (cell index, spec, ref, cases)
        for index, cell in enumerate(nb.cells):
            if _is_test(cell):
                for spec in checks_of(cell.source, _nbgrader(cell).get("grade_id", index)):
                    self.checks.append(self._prepare(index, spec))
        self.setup = setup_names(nb)

    def _prepare(self, index, spec):
        if spec["kind"] != "function":
            return {"cell": index, "spec": spec, "ref": None, "cases": None}
        ref = lookup(spec["quantity"])
        cases, fault = draw(ref, spec["cases"], self.key)
        if fault:
            self.faults.append(("grading fault", fault))
        return {"cell": index, "spec": spec, "ref": ref, "cases": cases}

    def groups(self):
        """The runs: ``{names kept as code: [check numbers]}``. Checks share a run when their
        parts keep the same armlab code in the sandbox (the setup cell's names, and what
        takes or returns objects); what they may have the grader compute is decided per
        check. A choice joins the first run."""
        setup = _split(self.setup)[0]
        out = {}
        for k, check in enumerate(self.checks):
            if check["ref"] is not None:
                out.setdefault(setup | _split(check["ref"].allow)[0], []).append(k)
        choices = [k for k, c in enumerate(self.checks) if c["ref"] is None]
        if choices or not out:
            first = next(iter(out), setup)
            out[first] = sorted(out.get(first, []) + choices)
        return out

    def plan(self, members):
        """One run's steps: every code cell but the test cells, and the checks of
        ``members`` in the place of their test cells."""
        steps = []
        by_cell = {}
        for k in members:
            by_cell.setdefault(self.checks[k]["cell"], []).append(k)
        for index, cell in enumerate(self.nb.cells):
            if cell.cell_type != "code":
                continue
            if _is_test(cell):
                steps += [self._step(k) for k in by_cell.get(index, [])]
            elif not is_try_it(cell):
                label = _nbgrader(cell).get("grade_id") or cell.get("id") or f"cell {index}"
                steps.append({"cell": index, "label": label, "code": cell.source})
        return {"steps": steps, "served": [], "outputs": True}    # nothing between checks

    def _step(self, k):
        check = self.checks[k]
        spec, ref = check["spec"], check["ref"]
        label = _nbgrader(self.nb.cells[check["cell"]]).get("grade_id", str(check["cell"]))
        step = {"check": k, "label": label, "name": spec["name"]}
        if ref is not None:
            step.update(uses=[name for name, _ in ref.uses],
                        served=sorted(_split(ref.allow)[1]))
        return step

    def _cases(self, members):
        """What each check of a run gets when it begins: its cases, as data."""
        out = {}
        for k in members:
            check = self.checks[k]
            if check["ref"] is not None:
                out[k] = [encode(check["ref"].arguments(c)) for c in check["cases"] or []]
        return out

    def serve(self, members):
        """What the grader computes for one run, in a check: earlier parts' references
        (``@name``) and armlab's functions (the sandbox decides nothing: the run's reader
        only passes on the calls that the open check allows). A :class:`serving.Server`
        computes them, bounded; a call past a bound is a fault."""
        import armlab
        from armlab.grading import runner

        uses = {}
        for k in members:
            if self.checks[k]["ref"] is not None:
                uses.update(dict(self.checks[k]["ref"].uses))

        def answer(name, args, kwargs):
            if name.startswith("@"):
                ref = uses.get(name[1:])
                if ref is None or kwargs:
                    raise TypeError(f"{name[1:]} takes its arguments by position here")
                return encode(ref.function(*[decode(a) for a in args]))
            try:
                value = getattr(armlab, name)(*[runner.decode(a) for a in args],
                                              **{k: runner.decode(v) for k, v in kwargs.items()})
            except (ValueError, TypeError):
                raise
            except Exception as exc:                        # noqa: BLE001
                raise ValueError(f"armlab.{name} failed on these arguments ({exc})") from None
            try:
                return runner.encode(value)
            except TypeError as exc:
                if str(exc) in ("large", "deep"):
                    raise TypeError(runner.not_carried(name, str(exc), "out")) from None
                raise TypeError(_NOT_CARRIED.format(name=name, kind=type(value).__name__)) \
                    from None
        server = serving.Server(answer, self.budget, call_cpu=self.limits.call_cpu,
                                call_memory_mb=self.limits.call_memory_mb,
                                wall_factor=self.limits.wall_factor)

        def bounded(name, args, kwargs):
            try:
                return server(name, args, kwargs)
            except serving.Bound as exc:
                self.faults.append(("grading fault",
                                    f"{exc} (the call failed at once in the notebook)"))
                raise
        bounded.close = server.close
        return bounded

    def run(self):
        """Every run of the notebook: ``(records, outputs)``, the records of each check by
        its number, the outputs of each other cell by its index (faults noted). A cell's
        outputs are those of the first run in which it ran without an error. All runs
        together end by the submission's cap (``limits.submission`` seconds by the clock
        from the first)."""
        records, outputs, clean = {}, {}, set()
        self.deadline = time.monotonic() + self.limits.submission
        for keep, members in self.groups().items():
            missing = sorted({self.checks[k]["spec"]["label"] for k in members})
            if time.monotonic() >= self.deadline:
                self.faults.append(("grading fault", self._over_wall("before this run") +
                                    f"; not graded: {', '.join(missing)}"))
                continue
            serve = self.serve(members)
            try:
                result = self._run(self.plan(members), build_for(keep), serve,
                                   self._cases(members))
            finally:
                serve.close()
            self._limits_hit(result)
            records.update(result.records)
            for cell, outs in result.outputs.items():
                if cell not in clean:
                    outputs[cell] = outs
                if result.status.get(cell) == "ok":
                    clean.add(cell)
            if result.fault:
                missing = sorted({self.checks[k]["spec"]["label"] for k in members
                                  if k not in result.records})
                kind, detail = self._fault(result.fault)
                self.faults.append((kind, f"{detail}; not graded: "
                                          f"{', '.join(missing) or 'nothing'}"))
        self.cost["served_cpu"] = self.budget.spent
        return records, outputs

    def _over_wall(self, where):
        return (f"the submission's runs took more than {self.limits.submission:g} s by the "
                f"clock in all, and it was stopped {where}")

    def _fault(self, fault):
        """A run's fault as the report's ``(kind, detail)`` (the list of checks not graded
        goes after it)."""
        kind, detail = fault
        if kind == "protocol":
            return ("suspected tampering", detail)
        if kind == "wall":
            return ("grading fault", self._over_wall(detail))
        if kind == "died":
            return ("grading fault", f"{detail}: ended by the notebook, not run again")
        return ("grading fault", detail)

    def _limits_hit(self, result):
        """A cell stopped at its CPU or memory limit is a fault until a human says it is the
        student's: it may be a busy machine, or what made the part's function undefined."""
        for cell, status in result.status.items():
            if status in ("cpu", "memory"):
                this = self.nb.cells[cell]
                name = _nbgrader(this).get("grade_id") or this.get("id") or f"cell {cell}"
                what = (f"its CPU limit of {self.limits.cpu:g} s" if status == "cpu"
                        else f"its memory limit of {self.limits.memory_mb} MiB")
                self.faults.append(("grading fault", f"{name} ran past {what} and was stopped"))

    def _run(self, plan, build, serve, cases):
        """One run, once: a run that ends before its plan is done was ended by what runs
        in it (this process is alive and reading), so it is never run again: its end is a
        fault, with its cause, and the row is held. Only the grader's own failure is
        retried (:func:`armlab.grading.autograde.grade_all`)."""
        result = sandbox.run(plan, build, serve=serve, cases=cases, limits=self.limits,
                             isolate=self.isolate, deadline=self.deadline)
        self.cost["runs"] += 1
        self.cost["seconds"] += result.seconds
        self.cost["cpu"] += result.cpu
        return result

    def verdicts(self, records):
        """``{cell index: [message or None, ...]}``, faults noted in ``self.faults``."""
        out, made = {}, {}
        for k, check in enumerate(self.checks):
            spec, ref, cases = check["spec"], check["ref"], check["cases"]
            recs = records.get(k)
            messages = out.setdefault(check["cell"], [])
            if recs is None or (ref is not None and cases is None):
                messages.append(("fault", f"{spec['label']}: {HELD}"))
                continue
            if ref is None:
                msg = judge.choice(recs[0] if recs else None, spec["expected"], spec["choices"],
                                   spec["label"], spec["explain"])
                messages.append(("fail", msg) if msg else (
                    "pass", f"{spec['label']} is one of the choices" if spec["expected"] is None
                    else f"{spec['label']} is right"))
                continue
            verdict = self._judge(spec, ref, cases, recs)
            if verdict[0] == "fail" and any(ref.slips):
                verdict = self._carry(check, verdict, recs, made)
            if verdict[0] == "fail" and judge.named_only(ref, cases, recs):
                verdict = ("partial", judge.named_words(verdict[1]), judge.NAMED)
            messages.append(verdict)
        return out

    def part_of(self, index):
        """The part a cell belongs to: ``"Part N"`` from the nearest ``## Part N: ...``
        heading above it, or None."""
        for cell in reversed(self.nb.cells[:index]):
            if cell.cell_type == "markdown":
                found = PART.match(cell.source)
                if found:
                    return f"Part {found.group(1)}"
        return None

    def _carry(self, check, verdict, recs, made):
        """A failed check's verdict when its only fault is a slip (:func:`judge.carried`)
        that already cost points in an earlier part (``made``: ``{slip: part}``, in
        notebook order): partial credit, :data:`judge.CARRIED` of its points, and words that
        say so. Otherwise the verdict as it was, and its slips noted in ``made``."""
        ref, cases, spec = check["ref"], check["cases"], check["spec"]
        part = self.part_of(check["cell"]) or ref.quantity
        slip = judge.carried(ref, cases, recs, made)
        if slip is not None and made.get(slip, part) != part:
            label = _nbgrader(self.nb.cells[check["cell"]]).get("grade_id", spec["label"])
            self.carried.append(f"{label} ({ref.quantity}): the same slip as {made[slip]} "
                                f"({slip}), counted once there")
            return ("partial", judge.carried_words(verdict[1], made[slip], slip),
                    judge.CARRIED)
        for name in judge.slips_made(ref, cases, recs):
            made.setdefault(name, part)
        return verdict

    def _judge(self, spec, ref, cases, recs):
        show = spec["cases"] == "worked"
        if ref.is_design and not any(r.get("kind") == "timeout" for r in recs) \
                and len(recs) == len(cases):
            fraction, message = judge.design_result(ref, cases, recs, show=show,
                                                    label=spec["label"])
            kind = "pass" if fraction >= 1.0 else "fail" if fraction <= 0.0 else "partial"
            if fraction < 1.0 and judge.same_design(recs):
                self.constant.append(f"{spec['label']} ({ref.quantity}, {spec['cases']})")
            return (kind, message, fraction)
        if len(recs) == 1 and recs[0].get("kind") in ("missing", "notcallable"):
            call = f"{spec['label']}({', '.join(ref.params)})"
            return ("fail", judge.describe_failure(recs[0], call, call))
        for case, rec in zip(cases, recs):
            if rec.get("kind") == "timeout":
                self.faults.append(("grading fault", f"{spec['label']} ({ref.quantity}) ran "
                                                     f"past its CPU limit of "
                                                     f"{self.limits.cpu:g} s"))
                return ("fault", f"{spec['label']}: stopped after {self.limits.cpu:g} CPU "
                                 "seconds; held for a human to look at")
            if rec.get("kind") == "error" and rec.get("type") == "ArmlabOff":
                self.calls.append(f"armlab.{rec.get('armlab', '?')}")
            message = judge.verdict(ref, case, rec, show=show, label=spec["label"])
            if message:
                return ("fail", message)
        if len(recs) < len(cases):
            return ("fault", f"{spec['label']}: not every case ran; {HELD}")
        return ("pass", judge.passed(ref, cases, "worked" if show else "fresh", spec["label"]))


# ---------------------------------------------------------------- outputs
ALLOWED_MIME = ("text/plain", "image/png")


def clean_outputs(outputs, max_chars):
    """A run's outputs as inert nbformat outputs: text and PNG only, bounded."""
    from nbformat import from_dict

    out = []
    for o in outputs if isinstance(outputs, list) else []:
        if not isinstance(o, dict):
            continue
        kind = o.get("output_type")
        if kind == "stream" and o.get("name") in ("stdout", "stderr"):
            out.append({"output_type": "stream", "name": o["name"],
                        "text": str(o.get("text", ""))[:max_chars + 100]})
        elif kind == "display_data" and isinstance(o.get("data"), dict):
            data = {m: str(v) for m, v in o["data"].items() if m in ALLOWED_MIME}
            if "image/png" in data and len(data["image/png"]) > 3_000_000:
                del data["image/png"]
            if "text/plain" in data:
                data["text/plain"] = data["text/plain"][:max_chars]
            if data:
                out.append({"output_type": "display_data", "data": data, "metadata": {}})
        elif kind == "error":
            out.append({"output_type": "error", "ename": str(o.get("ename", "Error"))[:100],
                        "evalue": str(o.get("evalue", ""))[:2000],
                        "traceback": [str(t)[:6000] for t in o.get("traceback", [])][:1]})
    return [from_dict(o) for o in out]


def test_outputs(verdicts, points):
    """A test cell's outputs from its checks' verdicts: a line per passing check, and an
    error output for the first failure or fault (which nbgrader scores zero); a design
    met in part gives its words and the points it earns (nbgrader's partial credit: the
    cell's value)."""
    from nbformat import from_dict

    lines, bad, share = [], None, None
    for kind, message, *fraction in verdicts:
        if kind == "pass":
            lines.append(judge.wrap(judge.PASSED_MARK + message))
        elif kind == "partial" and bad is None:
            lines.append(judge.wrap(judge.FAILED_MARK + message))
            share = fraction[0] if share is None else min(share, fraction[0])
        elif bad is None:
            bad = (kind, message)
    out = []
    if lines:
        out.append({"output_type": "stream", "name": "stdout", "text": "\n".join(lines) + "\n"})
    if share is not None and bad is None:
        earned = round(share * float(points), 2)
        out.append({"output_type": "execute_result", "execution_count": None, "metadata": {},
                    "data": {"text/plain": f"{earned:g}"}})
    if bad:
        text = judge.wrap(bad[1], judge.WIDTH - len(judge.FAILED_MARK))
        ename = "CheckFailed" if bad[0] == "fail" else "GradingFault"
        out.append({"output_type": "error", "ename": ename, "evalue": text,
                    "traceback": [judge.wrap(judge.FAILED_MARK + text)]})
    return [from_dict(o) for o in out]


class SandboxExecute(Preprocessor):
    """nbgrader's ``Execute``, done in sandboxes and judged here (see the module)."""

    enabled = Bool(True).tag(config=True)
    secret = Unicode("", help="the course secret, for each student's fresh cases").tag(
        config=True)
    cpu = Float(30.0, help="CPU seconds of one cell or one check").tag(config=True)
    memory_mb = Integer(2048, help="address space of the sandbox's processes [MiB]").tag(
        config=True)
    max_chars = Integer(20_000, help="printed characters kept per cell").tag(config=True)
    submission_seconds = Float(sandbox.Limits.submission, help="wall-clock seconds of all "
                               "the runs of one submission").tag(config=True)
    isolate = Union([Bool(), Enum(sandbox.UID_MODES)], default_value=True,
                    help="True: bubblewrap; 'uid' or 'uid-unfiltered': a user of its own "
                         "(sandbox.choose, where bubblewrap cannot run); False: --no-sandbox"
                    ).tag(config=True)

    def preprocess(self, nb, resources):
        student = resources.get("nbgrader", {}).get("student", "")
        key = student_key(self.secret, student) if self.secret else ""
        limits = sandbox.Limits(cpu=self.cpu, memory_mb=self.memory_mb,
                                max_chars=self.max_chars, submission=self.submission_seconds)
        grading = Grading(nb, key, limits, isolate=self.isolate)
        records, outputs = grading.run()
        verdicts = grading.verdicts(records)
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            cell.execution_count = None
            if _is_test(cell):
                cell.outputs = test_outputs(verdicts.get(index, []),
                                            _nbgrader(cell).get("points", 0))
            elif is_try_it(cell):
                cell.outputs = clean_outputs([{"output_type": "stream", "name": "stdout",
                                               "text": TRY_IT_NOTE}], self.max_chars)
            else:
                cell.outputs = clean_outputs(outputs.get(index, []), self.max_chars)
        GRADED[student] = Result(
            student, verdicts={_nbgrader(nb.cells[i]).get("grade_id", str(i)):
                               [list(v[:2]) for v in vs] for i, vs in sorted(verdicts.items())},
            faults=[list(f) for f in sorted(set(grading.faults))],
            armlab_calls=sorted(set(c for c in grading.calls if c.startswith("armlab."))),
            constant_designs=sorted(set(grading.constant)), carried=list(grading.carried),
            isolated=bool(self.isolate),
            cost={k: round(v, 3) for k, v in grading.cost.items()}, cases=cases_identity(key))
        for kind, detail in GRADED[student].faults:
            self.log.warning("%s: %s: %s", student, kind, detail)
        return nb, resources


GRADED = {}
"""``{student: Result}`` of the notebooks this process graded (the scores are nbgrader's, read
from the gradebook by the round's worker, :mod:`armlab.grading.worker`)."""


__all__ = ["SandboxExecute", "Grading", "checks_of", "PlanError", "GRADED", "draw",
           "build_for", "clean_outputs", "test_outputs", "setup_names", "is_try_it"]
