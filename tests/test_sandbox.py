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
ARM = encode(lookup("statics.joint_torques").cases("worked")[0].args["arm"])


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
        f"checkout = pathlib.Path({str(REPO)!r})",
        "print('checkout', sorted(p.name for p in checkout.iterdir()) if checkout.exists() "
        "else 'absent')",
        "print('home', os.environ.get('HOME'))",
        "print('secret', [k for k in os.environ if 'SECRET' in k])",
        "print('processes', sorted(p for p in os.listdir('/proc') if p.isdigit()))",
        "try:",
        "    socket.socket().connect(('127.0.0.1', 22)); print('network', True)",
        "except OSError as e:",
        "    print('network', False, e.strerror)",
        "for path in ('/opt/armlab/x', '/usr/x', os.path.dirname(os.__file__) + '/x'):",
        "    try:",
        "        open(path, 'w'); print('wrote', path)",
        "    except OSError:",
        "        pass",
        "open('/scratch/mine', 'w').write('ok'); print('scratch', open('/scratch/mine').read())",
    ])
    result = _run({"steps": [_cell(code)], "outputs": True}, builds["positions"])
    assert result.fault is None
    venv = os.path.realpath(sys.prefix)                 # bound where it is on the machine
    checkout = "['.venv']" if venv.startswith(str(REPO) + os.sep) else "absent"
    assert _printed(result).splitlines() == [
        "uid True", f"checkout {checkout}", "home /scratch", "secret []", "processes ['1', '2']",
        "network False Address family not supported by protocol", "scratch ok"]


# ---------------------------------------------------------------- what the kernel refuses
_SYSCALLS = """
import ctypes, errno, os, platform, threading
libc = ctypes.CDLL(None, use_errno=True)
NR = {"x86_64": {"add_key": 248, "request_key": 249, "keyctl": 250, "clone3": 435},
      "aarch64": {"add_key": 217, "request_key": 218, "keyctl": 219, "clone3": 435}}[
      platform.machine()]
def said(name, r):
    print(name, 'ok' if r >= 0 else errno.errorcode[ctypes.get_errno()])
def sys(name, *args):
    return libc.syscall(NR[name], *args)
"""


@needs_sandbox
def test_the_kernel_refuses_keys_namespaces_and_new_processes(builds):
    """A notebook cannot store a key (the kernel's keyrings outlive the run), make a
    namespace (a nested user namespace has every capability inside) or a process (the
    memory cap holds per process); threads stay allowed."""
    code = _SYSCALLS + "\n".join([
        "said('add_key', sys('add_key', b'user', b'armlab', b'v', 1, -4))",
        "said('keyctl', sys('keyctl', 0, -3, 0))",              # the session keyring's id
        "said('request_key', sys('request_key', b'user', b'armlab', None, 0))",
        "said('unshare user', libc.unshare(0x10000000))",
        "said('unshare mount', libc.unshare(0x00020000))",
        "said('clone3', sys('clone3', None, 0))",
        "try:",
        "    pid = os.fork()",
        "    if pid == 0:",
        "        os._exit(0)",
        "    print('fork ok')",
        "except OSError as e:",
        "    print('fork', errno.errorcode[e.errno])",
        "import subprocess",
        "try:",
        "    subprocess.run(['/usr/bin/true']); print('subprocess ok')",
        "except OSError as e:",
        "    print('subprocess', errno.errorcode[e.errno])",
        "t = threading.Thread(target=print, args=('thread ok',)); t.start(); t.join()",
    ])
    result = _run({"steps": [_cell(code)], "outputs": True}, builds["positions"])
    assert result.fault is None and result.status == {1: "ok"}, result.outputs
    assert _printed(result).splitlines() == [
        "add_key EPERM", "keyctl EPERM", "request_key EPERM", "unshare user EPERM",
        "unshare mount EPERM", "clone3 ENOSYS", "fork EPERM", "subprocess EPERM",
        "thread ok"]


def _key_users():
    """``{uid: keys}`` of every uid the kernel holds keys for."""
    rows = pathlib.Path("/proc/key-users").read_text().splitlines()
    return {int(r.split(":")[0]): int(r.split()[2].split("/")[0]) for r in rows}


@needs_sandbox
def test_no_run_sees_a_key_or_an_ipc_object_of_another(builds):
    """A key stored (or a SysV segment made) in one run is not there in the next, nor on
    the machine after it; as root, each run has a uid of its own, no process of which
    lives after the run."""
    store = _SYSCALLS + "\n".join([
        "said('add', sys('add_key', b'user', b'armlab-note', b'cases', 5, -4))",
        "libc.shmget.restype = ctypes.c_int",
        "said('shmget', libc.shmget(0x41524d, 4096, 0o1666))",
        "print('uid', os.getuid())"])
    read = _SYSCALLS + "\n".join([
        "said('search', sys('keyctl', 10, -4, b'user', b'armlab-note', 0))",
        "libc.shmget.restype = ctypes.c_int",
        "said('shm', libc.shmget(0x41524d, 4096, 0o666))",
        "print('uid', os.getuid())"])
    first, second = (_run({"steps": [_cell(code)], "outputs": True}, builds["positions"])
                     for code in (store, read))
    said = _printed(first).splitlines() + _printed(second).splitlines()
    assert said[:2] + said[3:5] == ["add EPERM", "shmget ok", "search EPERM", "shm ENOENT"]
    uids = {int(said[2].split()[1]), int(said[5].split()[1])}
    keys = {row.split()[0] for k in ("shm", "sem", "msg")       # the keys, in decimal
            for row in pathlib.Path("/proc/sysvipc", k).read_text().splitlines()[1:]}
    assert str(0x41524d) not in keys
    if os.geteuid() == 0:
        assert len(uids) == 2 and uids <= set(sandbox.RUN_UIDS)
        assert not uids & set(_key_users()) and not any(map(sandbox._ipc_objects, uids))
        owners = {os.stat(p).st_uid for p in pathlib.Path("/proc").iterdir()
                  if p.name.isdigit() and p.exists()}
        assert not uids & owners


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid of its own per run is root's")
def test_a_uid_is_claimed_by_one_run_at_a_time_and_cleared_first(monkeypatch):
    """A process left under a uid is killed, and a SysV IPC object it owns on the machine
    removed, before the uid is taken again; a uid another run holds is not taken."""
    uid = sandbox.RUN_UIDS[-1]
    monkeypatch.setattr(sandbox, "RUN_UIDS", range(uid, uid + 1))
    subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                    sys.executable, "-I", "-c", "import ctypes; ctypes.CDLL(None).shmget(0, "
                    "4096, 0o1600)"], check=True)
    assert [kind for kind, _ in sandbox._ipc_objects(uid)] == ["shm"]
    left = subprocess.Popen(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                             "sleep", "60"])
    try:
        for _ in range(200):                              # until setpriv has become uid
            if sandbox._processes_of(uid):
                break
            time.sleep(0.01)
        assert sandbox._processes_of(uid) == [left.pid]
        taken, lock = sandbox._claim()
        assert taken == uid and left.wait(timeout=5) == -9 and not sandbox._processes_of(uid)
        assert sandbox._ipc_objects(uid) == []
        with pytest.raises(sandbox.SandboxUnavailable, match=f"every sandbox uid \\({uid} to "
                                                             f"{uid}\\) is in use"):
            sandbox._claim()
        os.close(lock)
        taken, lock = sandbox._claim()
        os.close(lock)
    finally:
        left.kill()
        left.wait()


@needs_sandbox
def test_pid_1_and_proc_show_no_path_of_the_grader(builds):
    """/proc/1/cmdline (bubblewrap's) and every other process's command line, environment
    and mount table inside name no path of the checkout (the runtime, bound where it is on
    the machine, aside) and the command lines no path of the build."""
    code = "\n".join([
        "import os",
        "print('pid 1', open('/proc/1/cmdline', 'rb').read().split(b'\\0')[0].decode())",
        "text = open('/proc/self/mountinfo').read()",
        "lines = ''",
        "for pid in [p for p in os.listdir('/proc') if p.isdigit()]:",
        "    for part in ('cmdline', 'environ'):",
        "        try:",
        "            lines += open(f'/proc/{pid}/{part}', 'rb').read().decode()",
        "        except OSError:",
        "            pass",
        "for fd in os.listdir('/proc/self/fd'):",
        "    try:",
        "        lines += os.readlink(f'/proc/self/fd/{fd}') + '\\n'",
        "        lines += open(f'/proc/self/fd/{fd}', 'rb').read(4096).decode('latin-1')",
        "    except OSError:",
        "        pass",
        "import json; print(json.dumps([text, lines]))"])
    result = _run({"steps": [_cell(code)], "outputs": True}, builds["positions"])
    head, rest = _printed(result).split("\n", 1)
    mounts, lines = json.loads(rest)
    assert head == "pid 1 /usr/bin/bwrap"
    seen = mounts + lines
    for path in sandbox._runtime_paths():
        seen = seen.replace(path, "")
    assert str(REPO) not in seen
    assert str(builds["positions"]) not in lines
    assert "--ro-bind" not in lines


@needs_sandbox
def test_children_together_cannot_pass_the_memory_cap(builds):
    """Four children of 600 MiB each held 2.4 GB under a cap of 1 GiB per process: now the
    sandbox is one process, and the cap holds for it whole."""
    code = "\n".join([
        "import os, time",
        "r, w = os.pipe()",
        "kids = []",
        "for k in range(4):",
        "    try:",
        "        pid = os.fork()",
        "    except OSError as e:",
        "        print('fork', e.strerror); break",
        "    if pid == 0:",
        "        b = bytearray(600 * 2**20); os.write(w, b'1'); time.sleep(3); os._exit(0)",
        "    kids.append(pid)",
        "held = sum(len(os.read(r, 1)) for _ in kids)",
        "print('held MiB', 600 * held)",
    ])
    result = _run({"steps": [_cell(code)], "outputs": True}, builds["positions"],
                  memory_mb=1024)
    assert _printed(result).splitlines() == ["fork Operation not permitted", "held MiB 0"]


@needs_sandbox
def test_an_honest_notebook_still_runs(builds):
    """numpy, matplotlib's Agg backend (its font list asks fc-list in a subprocess, which is
    refused) and a thread: nothing an honest notebook does is refused."""
    code = "\n".join([
        "import threading, numpy as np, matplotlib.pyplot as plt",
        "x = np.linalg.solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])",
        "fig, ax = plt.subplots(); ax.plot([0, 1], x); ax.set_xlabel('t [s]')",
        "fig.savefig('/scratch/f.png'); print(x.round(6).tolist(), os.path.getsize("
        "'/scratch/f.png') > 1000)",
        "box = []; t = threading.Thread(target=box.append, args=(x @ x,)); t.start(); t.join()",
        "print(round(float(box[0]), 6))"])
    result = _run({"steps": [_cell("import os\n" + code)], "outputs": True},
                  builds["positions"])
    assert result.fault is None and result.status == {1: "ok"}, result.outputs
    assert _printed(result).splitlines() == ["[0.8, 1.4] True", "2.6"]


@needs_sandbox
def test_limits_hold(builds):
    code = ["x = bytearray(3 * 2**30)",
            "open('/scratch/big', 'wb').write(b'0' * (100 * 2**20))",
            "import os\npids = [os.fork() for _ in range(200)]"]
    result = _run({"steps": [_cell(c, k) for k, c in enumerate(code)], "outputs": True},
                  builds["positions"], memory_mb=1024, file_mb=16, processes=32)
    errors = [next(o["ename"] for o in result.outputs[k] if o["output_type"] == "error")
              for k in range(3)]
    assert errors == ["MemoryError", "OSError", "PermissionError"], result.outputs


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
    ([[]] * 20_000, {"kind": "refused", "why": "large"}),
])
def test_records_are_plain_data(value, rec):
    assert runner.record(value) == rec


def test_an_answer_is_large_by_its_numbers_not_its_lists():
    """Mass matrices at 2,001 instants (limits Part 9's spec): 8,004 numbers in 6,004 lists,
    carried (they were refused as 14,005 items); one number more than the limit is not"""
    import numpy as np

    M = np.arange(2001 * 4, dtype=float).reshape(2001, 2, 2)
    assert runner.record(M) == {"kind": "value", "value": M.tolist()}
    assert runner.record([1.0] * runner.MAX_ITEMS)["kind"] == "value"
    assert runner.record([1.0] * (runner.MAX_ITEMS + 1)) == {"kind": "refused", "why": "large"}


def test_test_cells_are_read_as_data():
    checks = execute.checks_of('"""Check J"""\ncheck_function(jacobian, "kinematics.jacobian", '
                               '"fresh")\ncheck_choice(x, "b", ["a", "b"], name="x")')
    assert [c["kind"] for c in checks] == ["function", "choice"]
    with pytest.raises(execute.PlanError, match="is not a check"):
        execute.checks_of("import os\nos.system('x')")
    with pytest.raises(execute.PlanError, match="not a literal"):
        execute.checks_of('check_function(f, "kinematics.jacobian", cases)')
    with pytest.raises(execute.PlanError, match="has no cases 'nope'"):
        execute.checks_of('check_function(f, "kinematics.jacobian", "nope")')


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


def test_choose_says_which_sandbox_and_never_none_at_all(monkeypatch):
    """Bubblewrap where it runs; else a user of its own where the probe passes (with or
    without the filter); else no sandbox, said with both reasons: never a run as the
    grader."""
    from armlab.grading import uidbox

    monkeypatch.setattr(sandbox, "available", lambda: (False, "bwrap: Creating new "
                                                              "namespace failed"))
    for probed, isolate, end in (
            ((True, ""), "uid", ", the seccomp filter (no network, no new process)"),
            ((False, ""), "uid-unfiltered", "; the kernel refused the seccomp filter, so the "
             "notebook has one thread and no new process, and the network")):
        monkeypatch.setattr(uidbox, "probe", lambda hidden, hide: probed)
        said = sandbox.choose(["/autograder"])
        assert said[0] == isolate and said[1].startswith(
            "bubblewrap cannot run here (bwrap: Creating new namespace failed), so the notebook "
            "runs as a user of its own (uid 62000-64047, one per run, every process of it "
            "killed after), without namespaces: not one of the grader's files readable to it "
            "(checked before grading), limits on memory, CPU, files and processes")
        assert said[1].endswith(end)
    monkeypatch.setattr(uidbox, "probe", lambda hidden, hide: (
        None, "the run could read 3 of the grader's files, /autograder/source/secret first"))
    assert sandbox.choose(["/autograder"]) == (
        None, "NO SANDBOX, nothing graded: bubblewrap cannot run here (bwrap: Creating new "
              "namespace failed), and neither can a sandbox without namespaces (the run could "
              "read 3 of the grader's files, /autograder/source/secret first)")


def test_available_names_a_missing_bubblewrap(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    ok, why = sandbox.available()
    assert not ok and why.startswith("bubblewrap is not installed")


def _fake_bwrap(folder, version, run, drop=()):
    """A ``bwrap`` in ``folder`` that says ``version``, lists the real one's options but
    ``drop``, and runs the shell code ``run`` (``$LOG``: a file it may write)."""
    fake = folder / "bwrap"
    dropped = "".join(f" -e '^ *{o} '" for o in drop) or " -e '^$'"
    fake.write_text("#!/bin/bash\n"
                    f"LOG={folder / 'log'}\n"
                    'case "$1" in\n'
                    f"  --version) echo 'bubblewrap {version}'; exit 0;;\n"
                    f"  --help) /usr/bin/bwrap --help | grep -v{dropped}; exit 0;;\n"
                    "esac\n" + run + "\n")
    fake.chmod(0o755)
    return fake


@needs_sandbox
def test_available_uses_only_the_options_bubblewrap_has(monkeypatch, tmp_path):
    """Gradescope's Ubuntu 22.04 has bubblewrap 0.6.1, without --size (and without
    --disable-userns): the sandbox is made with what it has."""
    run = ('echo "$@" > $LOG; [ "$1" = --args ] && tr "\\0" " " < /proc/self/fd/$2 >> $LOG\n'
           'exec /usr/bin/bwrap "$@"')
    _fake_bwrap(tmp_path, "0.6.1", run, drop=("--size", "--disable-userns"))
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    assert sandbox.available() == (True, "")
    said = (tmp_path / "log").read_text()
    assert "--tmpfs /tmp" in said and "--seccomp" in said
    assert "--size" not in said and "--disable-userns" not in said


def test_available_says_what_bubblewrap_said(monkeypatch, tmp_path):
    """An option bubblewrap refuses is named as such (it was blamed on namespaces), a
    bubblewrap too old for the sandbox is named with its version, and a lack of privilege
    is said as one."""
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    _fake_bwrap(tmp_path, "0.6.1", "echo 'bwrap: Unknown option --size' >&2; exit 1")
    assert sandbox.available() == (False, "bubblewrap 0.6.1 could not make the sandbox (bwrap: "
                                          "Unknown option --size)")
    old = tmp_path / "old"
    old.mkdir()
    monkeypatch.setenv("PATH", f"{old}:/usr/bin:/bin")
    _fake_bwrap(old, "0.4.1", "exit 1", drop=("--perms",))
    assert sandbox.available() == (False, "bubblewrap 0.4.1 lacks --perms, which the sandbox "
                                          "needs (0.5.0 or later)")
    denied = tmp_path / "denied"
    denied.mkdir()
    monkeypatch.setenv("PATH", f"{denied}:/usr/bin:/bin")
    _fake_bwrap(denied, "0.8.0", "echo 'bwrap: No permissions to create new namespace, likely "
                                 "because the kernel does not allow non-privileged user "
                                 "namespaces.' >&2; exit 1")
    ok, why = sandbox.available()
    assert not ok and why.startswith("bubblewrap cannot create the sandbox's namespaces here "
                                     "(bwrap: No permissions to create new namespace")


@pytest.mark.slow
def test_no_sandbox_grades_and_says_so_on_every_row(tmp_path):
    from armlab.grading.autograde import grade

    export = tmp_path / "export"
    export.mkdir()
    (export / "ann_1_1_statics.ipynb").write_text(
        (REPO / "solutions" / "statics" / "statics.ipynb").read_text())
    summary = grade("statics", export, out=tmp_path / "out", progress=False, isolate=False,
                    workers=1)
    assert summary["grades"]["ann"]["total"] == 43
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


def test_a_sweep_of_large_calls_is_stopped_as_a_grading_fault(monkeypatch):
    """An honest sweep past the data cap (here 1 MiB: 40 served calls on 5,000 numbers each)
    is a grading fault with its words, held; not "tampering" (the limits trial's sweep of 280
    inverse_dynamics calls on 2,001 instants met the real 64 MiB)"""
    monkeypatch.setattr(sandbox, "MAX_TOTAL", 1 << 20)
    served, result = _calls("import armlab as al\ndef f(arm, q):\n"
                            "    return sum(al.tip_position(arm, [[0.5] * 2] * 2500) "
                            "for _ in range(40))", "pass")
    assert 0 < len(served) < 40
    kind, detail = result.fault
    assert (kind, detail) == ("data", "the notebook sent the grader more than 1 MiB in test_f "
                                      "(its armlab calls' arguments, outputs and answers "
                                      "together) and was stopped")
