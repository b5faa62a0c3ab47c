"""The sandbox a notebook runs in when it is graded, and what crosses its walls.

One run at a time, on small plans: what the sandbox can see and do (its own user, no
checkout, no network, no other process, a read-only runtime, limits), what armlab it
holds (only what the part allows, as code that is really absent otherwise), and that
whatever comes out of it is read as data, in the plan's order.
"""

import json
import os
import pathlib
import subprocess
import sys
import time

import pytest

from armlab.grading import execute, runner, sandbox, shaker
from armlab.grading.cases import encode
from armlab.grading.references import lookup

OK, WHY = sandbox.available()
needs_sandbox = pytest.mark.skipif(not OK, reason=f"no sandbox on this machine: {WHY}")
REPO = pathlib.Path(__file__).resolve().parents[1]
ARM = encode(lookup("statics.jacobian").cases("worked")[0].args["arm"])


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("builds")
    shaker.build(root / "positions", keep={"joint_positions"}, served={"tip_position"})
    return {"positions": root / "positions"}


def _run(plan, build, serve=None, isolate=True, cases=None, deadline=None, **limits):
    def refuse(name, args, kwargs):
        raise TypeError(f"{name} is not served here")
    return sandbox.run(plan, build, serve=serve or refuse, isolate=isolate, cases=cases,
                       limits=sandbox.Limits(**limits), deadline=deadline)


def _cell(code, cell=1):
    return {"cell": cell, "code": code}


def _printed(result, cell=1):
    return "".join(o.get("text", "") for o in result.outputs[cell]
                   if o["output_type"] == "stream")


# ---------------------------------------------------------------- the armlab it holds
def test_a_build_holds_only_what_its_part_allows(builds):
    kept = shaker.closure({"joint_positions"})
    assert ("armlab.kinematics", "joint_positions") in kept
    assert ("armlab.kinematics", "jacobian") not in kept
    assert ("armlab._kernels", "closed_form") not in kept
    text = "\n".join(p.read_text() for p in (builds["positions"] / "armlab").rglob("*.py"))
    assert "def joint_positions(" in text
    for absent in ("def jacobian(", "def closed_form(", "def mass_matrix(", "def rnea(",
                   "def static_torques(", "def tip_position("):
        assert absent not in text, absent
    assert not (builds["positions"] / "armlab" / "grading" / "references").exists()
    assert "def check_function" not in text and "def reference" not in text


def test_a_build_imports_and_names_what_is_missing(builds):
    code = ("import sys; sys.path.insert(0, %r)\n"
            "import armlab as al\n"
            "arm = al.statics_arm()\n"
            "print(al.joint_positions(arm, [0.0, 0.0]).tolist())\n"
            "try:\n    al.jacobian(arm, [0.0, 0.0])\nexcept Exception as e:\n    print(e)\n"
            "import armlab._kernels as K\n"
            "try:\n    K.closed_form(None, None, None, None)\nexcept Exception as e:\n"
            "    print(type(e).__name__)\n") % str(builds["positions"])
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                         cwd="/")
    assert out.stdout.splitlines() == [
        "[[0.0, 0.0], [0.5, 0.0], [0.9, 0.0]]",
        "armlab.kinematics.jacobian is not available while this part is graded: the part "
        "asks you to compute it yourself (its text lists the armlab functions it allows)",
        "ArmlabOff"], out.stderr


def test_the_setup_cells_names_are_kept():
    import nbformat

    nb = nbformat.read(REPO / "solutions" / "control" / "control.ipynb", as_version=4)
    assert {"quintic", "tabletop_arm"} <= execute.setup_names(nb)


# ---------------------------------------------------------------- what the sandbox sees
@needs_sandbox
def test_the_sandbox_sees_nothing_of_the_machine(builds):
    code = "\n".join([
        "import os, socket, pathlib",
        "print('uid', os.getuid() != 0)",
        f"print('checkout', sorted(p.name for p in pathlib.Path({str(REPO)!r}).iterdir()))",
        "print('home', os.environ.get('HOME'))",
        "print('secret', [k for k in os.environ if 'SECRET' in k])",
        "print('processes', sorted(p for p in os.listdir('/proc') if p.isdigit()))",
        "s = socket.socket()",
        "try:",
        "    s.connect(('127.0.0.1', 22)); print('network', True)",
        "except OSError:",
        "    print('network', False)",
        "for path in ('/opt/armlab/x', '/usr/x', os.path.dirname(os.__file__) + '/x'):",
        "    try:",
        "        open(path, 'w'); print('wrote', path)",
        "    except OSError:",
        "        pass",
        "open('/scratch/mine', 'w').write('ok'); print('scratch', open('/scratch/mine').read())",
    ])
    result = _run({"steps": [_cell(code)], "outputs": True}, builds["positions"])
    assert result.fault is None
    assert _printed(result).splitlines() == [
        "uid True", "checkout ['.venv']", "home /scratch", "secret []", "processes ['1', '2']",
        "network False", "scratch ok"]


@needs_sandbox
def test_limits_hold(builds):
    code = ["x = bytearray(3 * 2**30)",
            "open('/scratch/big', 'wb').write(b'0' * (100 * 2**20))",
            "import os\npids = [os.fork() for _ in range(200)]"]
    result = _run({"steps": [_cell(c, k) for k, c in enumerate(code)], "outputs": True},
                  builds["positions"], memory_mb=1024, file_mb=16, processes=32)
    errors = [next(o["ename"] for o in result.outputs[k] if o["output_type"] == "error")
              for k in range(3)]
    assert errors == ["MemoryError", "OSError", "BlockingIOError"], result.outputs


@needs_sandbox
def test_a_cell_past_its_cpu_seconds_is_stopped_and_said(builds):
    result = _run({"steps": [_cell("while True:\n    pass"), _cell("print('after')", 2)],
                   "outputs": True}, builds["positions"], cpu=1)
    assert result.status == {1: "cpu", 2: "ok"} and _printed(result, 2) == "after\n"


@needs_sandbox
def test_a_cell_that_ignores_the_signal_meets_the_hard_limit(builds):
    code = ("import signal\nsignal.signal(signal.SIGPROF, signal.SIG_IGN)\n"
            "import time\nt = time.process_time()\nwhile True:\n    pass")
    result = _run({"steps": [_cell(code)], "outputs": True}, builds["positions"], cpu=1)
    assert result.fault == ("died", "the notebook's process ended in cell 1 (SIGXCPU: past its "
                                    "CPU limit)")


@needs_sandbox
def test_the_runner_in_the_sandbox_cannot_write_out_of_order(builds):
    code = ("import os\nfor fd in range(3, 30):\n    try:\n"
            "        os.write(fd, b'{\"t\": \"done\"}\\n')\n    except OSError:\n        pass")
    plan = {"steps": [_cell(code), {"check": 0, "label": "test_x", "name": "f"}]}
    result = _run(plan, builds["positions"])
    assert result.fault[0] == "protocol"


def _slowly(name, args, kwargs):
    """A grader that takes its time to answer: the runner asking it spends no CPU."""
    time.sleep(0.5)
    return [0.9, 0.0]


@needs_sandbox
def test_a_cell_that_only_waits_or_only_asks_is_stopped_by_the_clock(builds):
    """No CPU is spent while the runner sleeps, or waits for the grader's answers: the
    wall-clock cap of a step stops both."""
    check = {"check": 0, "label": "test_f", "name": "f", "served": ["tip_position"]}
    for code, where in (("import time\ntime.sleep(600)", "cell 1"),
                        ("import armlab as al\ndef f(arm, q):\n    while True:\n"
                         "        al.tip_position(arm, q)", "test_f")):
        result = _run({"steps": [_cell(code), check]}, builds["positions"], serve=_slowly,
                      cases={0: [[ARM, [0, 0]]]}, cpu=1, wall_factor=1, wall_extra=2)
        assert result.fault == ("time", f"the run spent more than 3 s by the clock in {where} "
                                        "and was stopped"), code
        assert result.seconds < 20


@needs_sandbox
def test_the_submissions_cap_stops_a_run_where_it_is(builds):
    """Cells each under their own cap stop at the submission's deadline, whichever cell
    is running then."""
    steps = [_cell("import time\ntime.sleep(1.5)", k) for k in (1, 2, 3)]
    started = time.monotonic()
    result = _run({"steps": steps}, builds["positions"], deadline=started + 4.0)
    assert result.fault == ("wall", "in cell 3")
    assert result.seconds < 8


# ---------------------------------------------------------------- the plan's order
def _calls(code, after):
    """The calls the grader answered for a run that defines ``f`` with ``code``, checks it
    (it may use ``jacobian``, an earlier part's, and have the grader compute
    ``tip_position``), then runs ``after``; and the run's result."""
    served = []

    def serve(name, args, kwargs):
        served.append(name)
        return 1.0

    plan = {"steps": [_cell(code),
                      {"check": 0, "label": "test_f", "name": "f", "uses": ["jacobian"],
                       "served": ["tip_position"]},
                      _cell(after, 2)],
            "served": ["tip_position", "mass_matrix"], "outputs": True}
    result = _run(plan, builds_positions(), serve=serve, cases={0: [[ARM, [0, 0]]]},
                  isolate=OK)
    return served, result


def builds_positions(cache={}):
    if not cache:
        import tempfile

        cache["path"] = pathlib.Path(tempfile.mkdtemp(prefix="armlab-test-build-"))
        shaker.build(cache["path"], keep=(), served={"tip_position", "mass_matrix"})
    return cache["path"]


def test_a_check_may_call_what_its_part_allows_and_the_cases_come_at_its_start():
    served, result = _calls("import armlab as al\n"
                            "def f(arm, q):\n    return jacobian(arm, q) + al.tip_position(arm, q)",
                            "pass")
    assert served == ["@jacobian", "tip_position"]
    assert result.records[0] == [{"kind": "value", "value": 2.0}] and result.fault is None


def test_between_checks_nothing_is_served():
    """A "try it" cell's armlab call gets a sentence that says why; a call written to the
    channel past the runner's refusal is a protocol fault (the plan names functions as
    served between checks, and the grader still refuses what its plan does not)."""
    served, result = _calls("import armlab as al\ndef f(arm, q):\n    return 0.0\n"
                            "cached = al.mass_matrix(1, 2)",
                            "import armlab._served as s\ns.CALL('@jacobian', (1,), {})")
    assert served == [] and result.fault is None
    assert [(o["ename"], o["evalue"]) for o in result.outputs[1]
            if o["output_type"] == "error"] == [("NotServed", runner.NotServed("mass_matrix")
                                                 .args[0])]
    assert [o["ename"] for o in result.outputs[2] if o["output_type"] == "error"] == [
        "NotServed"]
    served, result = _calls("def f(arm, q):\n    return 0.0",
                            "import armlab._served as s\ns.CALL.__self__.allowed = {'x'}\n"
                            "s.CALL('x', (1,), {})")
    assert served == [] and result.fault[0] == "protocol"


def test_in_a_check_nothing_its_part_does_not_allow():
    """An honest call of a function the part does not allow fails the check (not the run);
    a call sent past the runner's refusal is a protocol fault."""
    served, result = _calls("import armlab as al\ndef f(arm, q):\n"
                            "    return al.mass_matrix(arm, q)", "pass")
    assert served == [] and result.fault is None
    assert result.records[0][0]["kind"] == "error" and result.records[0][0]["type"] == \
        "ArmlabOff"
    served, result = _calls("import armlab._served as s, json, sys\ndef f(arm, q):\n"
                            "    s.CALL.__self__.allowed = {'mass_matrix'}\n"
                            "    return s.CALL('mass_matrix', (arm, q), {})", "pass")
    assert served == [] and result.fault[0] == "protocol"


# ---------------------------------------------------------------- values as data
@pytest.mark.parametrize("value, rec", [
    (1, {"kind": "value", "value": 1.0}),
    ([1, 2.5], {"kind": "value", "value": [1.0, 2.5]}),
    (None, {"kind": "none"}),
    ("b", {"kind": "str", "value": "b"}),
    (True, {"kind": "refused", "why": "bool"}),
    (object(), {"kind": "refused", "why": "type:object"}),
    ([[1]] * 20_000, {"kind": "refused", "why": "large"}),
])
def test_records_are_plain_data(value, rec):
    assert runner.record(value) == rec


def test_test_cells_are_read_as_data():
    checks = execute.checks_of('"""Check J"""\ncheck_function(jacobian, "statics.jacobian", '
                               '"fresh")\ncheck_choice(x, "b", ["a", "b"], name="x")')
    assert [c["kind"] for c in checks] == ["function", "choice"]
    with pytest.raises(execute.PlanError, match="is not a check"):
        execute.checks_of("import os\nos.system('x')")
    with pytest.raises(execute.PlanError, match="not a literal"):
        execute.checks_of('check_function(f, "statics.jacobian", cases)')
    with pytest.raises(execute.PlanError, match="has no cases 'nope'"):
        execute.checks_of('check_function(f, "statics.jacobian", "nope")')


def test_grading_without_a_sandbox_says_why(monkeypatch, tmp_path):
    """No bubblewrap (or no namespaces): the round stops with the reason, before anything
    is written, unless --no-sandbox is given."""
    from armlab.grading.autograde import GradingError, grade

    monkeypatch.setattr("armlab.grading.autograde.available",
                        lambda: (False, "bubblewrap is not installed (Debian: ...)"))
    export = tmp_path / "export"
    export.mkdir()
    (export / "ann_1_1_statics.ipynb").write_text(
        (REPO / "exercises" / "statics" / "statics.ipynb").read_text())
    with pytest.raises(GradingError, match="no sandbox for the students' code: bubblewrap is "
                                           "not installed"):
        grade("statics", export, out=tmp_path / "out", progress=False)
    assert not (tmp_path / "out").exists()


def test_available_names_a_missing_bubblewrap(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    ok, why = sandbox.available()
    assert not ok and why.startswith("bubblewrap is not installed")


@pytest.mark.slow
def test_no_sandbox_grades_and_says_so_on_every_row(tmp_path):
    from armlab.grading.autograde import grade

    export = tmp_path / "export"
    export.mkdir()
    (export / "ann_1_1_statics.ipynb").write_text(
        (REPO / "solutions" / "statics" / "statics.ipynb").read_text())
    summary = grade("statics", export, out=tmp_path / "out", progress=False, isolate=False,
                    workers=1)
    assert summary["grades"]["ann"]["total"] == 37
    rows = (tmp_path / "out" / "report.csv").read_text()
    assert "ann,graded without isolation," in rows
    assert "GRADED WITHOUT ISOLATION" in (tmp_path / "out" / "report.md").read_text()


def _grading(**limits):
    """What :meth:`execute.Grading.serve` needs of a grading with no checks."""
    import types

    from armlab.grading import serving

    limits = sandbox.Limits(**limits)
    return types.SimpleNamespace(checks={}, faults=[], limits=limits,
                                 budget=serving.Budget(limits.served_cpu))


@needs_sandbox
def test_a_check_gets_structured_results_and_an_object_in_one_plain_line(tmp_path):
    """In a check, the grader computes armlab for the notebook: a result of arrays of
    different shapes (joint_reactions' forces and moments) arrives whole; a result that is
    an object (a controller) cannot, and the call fails with one line that says why."""
    shaker.build(tmp_path / "b", keep=(), served={"joint_reactions", "pd_gravity"})
    serve = execute.Grading.serve(_grading(), [])
    code = ("import armlab as al\n"
            "def f(arm, q):\n"
            "    forces, moments = al.joint_reactions(arm, q, [10.0, 0.0])\n"
            "    try:\n"
            "        al.pd_gravity(al.tabletop_arm(), [0.5, 0.5], 100.0, 10.0)\n"
            "    except TypeError as exc:\n"
            "        return str(exc)\n"
            "    return [forces.shape, moments.shape, round(float(moments[0]), 4)]")
    check = {"check": 0, "label": "test_f", "name": "f",
             "served": ["joint_reactions", "pd_gravity"]}
    result = _run({"steps": [_cell(code), check], "outputs": True}, tmp_path / "b",
                  serve=serve, cases={0: [[runner.encode(al_statics_arm()), [0.5, 0.5]]]},
                  isolate=OK)
    serve.close()
    assert result.records[0] == [{"kind": "str", "value": execute._NOT_CARRIED.format(
        name="pd_gravity", kind="_PID")[:200]}]
    forces, moments = runner.decode(json.loads(serve(
        "joint_reactions", [runner.encode(al_statics_arm()), [0.5, 0.5], [10.0, 0.0]], {})))
    serve.close()
    assert (forces.shape, moments.shape, round(float(moments[0]), 4)) == ((2, 2), (2,), 11.423)


def al_statics_arm():
    import armlab as al

    return al.statics_arm()


def test_served_calls_are_bounded_while_they_run_and_leave_nothing_behind():
    """An arm past the bound fails before anything is computed; a call past its CPU
    seconds is stopped while it runs; the compiled kernels a call builds stay in the
    serving process, not the grader's; each bound is a fault."""
    import armlab as al
    from armlab import _kernels

    grading = _grading(call_cpu=0.5)
    serve = execute.Grading.serve(grading, [])
    big = runner.encode(al.PlanarArm(lengths=[0.01] * 17, masses=[0.01] * 17))
    started = time.monotonic()
    with pytest.raises(ValueError, match="an arm of 17 links; the grader computes arms of at "
                                         "most 16"):
        serve("mass_matrix", [big, [0.0] * 17], {})
    assert time.monotonic() - started < 0.5
    before = dict(_kernels._FACTORIES)
    arm = runner.encode(al.PlanarArm(lengths=[0.1] * 13, masses=[0.1] * 13))
    assert len(runner.decode(json.loads(serve("mass_matrix", [arm, [0.0] * 13], {})))) == 13
    assert _kernels._FACTORIES == before            # compiled in the serving process
    serve.close()
    assert [f[1] for f in grading.faults] == [
        "armlab.mass_matrix was called on an arm of 17 links; the grader computes arms of at "
        "most 16 (the call failed at once in the notebook)"]


def _spin(name, args, kwargs):
    if name == "spin":
        while True:
            pass
    if name == "hoard":
        return len(bytearray(2**30))
    return 1.0


def test_a_served_call_is_stopped_while_it_runs_and_the_budget_holds():
    """Past its CPU seconds, or its memory, a call is stopped while it runs (not after);
    the serving process starts again for the next call, until the submission's budget of
    the grader's CPU is spent, after which every call fails at once."""
    from armlab.grading import serving

    budget = serving.Budget(0.9)
    server = serving.Server(_spin, budget, call_cpu=0.5, call_memory_mb=256)
    started = time.monotonic()
    with pytest.raises(serving.Bound, match="ran past the grader's bound of 0.5 CPU seconds"):
        server("spin", [], {})
    assert time.monotonic() - started < 0.5 * 4 + 10
    with pytest.raises(serving.Bound, match="ran past the grader's bound of 256 MiB"):
        server("hoard", [], {})
    assert server("other", [], {}) == "1.0"               # the answer as JSON text
    with pytest.raises(serving.Bound, match="spin: the grader's 0.9 CPU seconds for this "
                                            "notebook's armlab calls are used up"):
        server("spin", [], {})
    with pytest.raises(serving.Bound, match="are used up"):
        server("other", [], {})
    server.close()
    assert 0.85 <= budget.spent < 1.2


def test_a_served_call_past_the_size_limit_says_the_limit_in_words():
    """More than 10,000 numbers cannot cross between the sandbox and the grader in one
    call, either way: the cell stops with a sentence that says so (it said "TypeError:
    large", or called an array an object)"""
    import types

    import numpy as np

    import armlab as al

    arm = runner.encode(al.tabletop_arm())
    serve = execute.Grading.serve(_grading(), [])
    with pytest.raises(TypeError) as back:                # 5,000 numbers in, 15,000 out
        serve("joint_positions", [arm, [[0.0, 0.0]] * 2500], {})
    assert str(back.value) == (
        "armlab.joint_positions returned more than 10,000 numbers, and at most 10,000 may come "
        "back from "
        "one call while your notebook is graded (in your own Jupyter there is no limit): ask "
        "it for fewer at a time (a shorter run, a coarser grid, a batch in pieces)")
    serve.close()
    asking = types.SimpleNamespace(allowed={"tip_position"}, send=lambda m: None,
                                   receive=lambda: {})
    with pytest.raises(TypeError) as out:
        runner.Runner.call(asking, "tip_position", (arm, np.zeros((6000, 2))), {})
    assert str(out.value) == (
        "armlab.tip_position was given more than 10,000 numbers, and at most 10,000 may go "
        "into one call while your notebook is graded (in your own Jupyter there is no "
        "limit): give it fewer at a time (a shorter run, a coarser grid, a batch in pieces)")


@needs_sandbox
def test_a_call_above_its_def_stops_the_cell_as_in_jupyter_and_the_check_says_so():
    """A cell runs from its top, in Jupyter as here: print(f(...)) above def f raises
    NameError at line 1 and f is never defined. The cell shows that NameError, and the check
    says which cell stopped where, and why f is missing (it said only "is not defined")"""
    from armlab.grading import judge

    _served, result = _calls("print(f(1, 2))\n\ndef f(arm, q):\n    return 0.0", "pass")
    assert result.fault is None
    assert [(o["ename"], o["evalue"]) for o in result.outputs[1]
            if o["output_type"] == "error"] == [("NameError", "name 'f' is not defined")]
    assert result.records[0] == [{"kind": "missing", "cell": "cell 1", "line": 1,
                                  "error": "NameError: name 'f' is not defined"}]
    assert judge.describe_failure(result.records[0][0], "f(arm, q)") == (
        "f(arm, q) is not defined: its cell, cell 1, stopped at line 1 with NameError: name "
        "'f' is not defined, before def f ran. A cell runs from its top, in Jupyter too: "
        "call a function below its def (or in a cell after it)")
