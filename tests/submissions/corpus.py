"""The grading corpus: honest students beside hostile ones, graded in one round.

Built from the release (what students get) and the solution (its answers), so
it follows the exercise set when that changes. ``build(folder)`` writes an LMS
export (``<login>_<id>_<submission>_<notebook>``) and returns the expected
outcome per student: total score and the report's problem kinds.

Every attack is a few lines in an answer cell, as a student out to cheat would
write them. What the corpus asserts: the honest students keep full marks (for
what they did) and their feedback, and the attackers gain nothing.
"""

import copy
import json
import pathlib

from exercise_sets import ExerciseSet

REPO = pathlib.Path(__file__).resolve().parents[2]
SOLUTION = REPO / "solutions" / "statics" / "statics.ipynb"
RELEASE = REPO / "exercises" / "statics" / "statics.ipynb"
SET = ExerciseSet("statics", repo=REPO)
POINTS = {key: part["points"] for key, part in SET.parts().items()}
FULL = sum(POINTS.values())
SECRET = "a course secret"
MARKER = "/tmp/armlab-corpus-marker"
"""A file the detached attacker tries to write after its sandbox is gone."""


def _answer(gid):
    """The solution's answer cell ``gid`` without the solution markers."""
    return SET.answer(gid)


def filled():
    """The release with every answer cell filled in: an honest, complete submission."""
    return SET.filled()


def cell(nb, gid):
    return next(c for c in nb["cells"] if c.get("metadata", {}).get("nbgrader", {})
                .get("grade_id") == gid or c.get("id") == gid)


def set_answer(nb, gid, text):
    cell(nb, gid)["source"] = text
    return nb


def after(nb, gid, text):
    """The answer cell ``gid`` with ``text`` run after the honest answer."""
    return set_answer(nb, gid, _answer(gid) + "\n" + text)


def lose(*parts):
    return FULL - sum(POINTS[p] for p in parts)


def markdown(nb, text, before="push_answer"):
    """A markdown cell the student adds before the cell ``before``."""
    k = nb["cells"].index(cell(nb, before))
    nb["cells"].insert(k, {"cell_type": "markdown", "id": "student-notes", "metadata": {},
                           "source": text})
    return nb


# ---------------------------------------------------------------- the attacks
FRAMES = """
import sys
def max_push(arm, q, direction, limit):
    # the expected value, wherever the checker keeps it: up the stack, in any frame
    f = sys._getframe()
    while f is not None:
        for name, value in getattr(f, "f_" + "locals").items():
            if name in ("expected", "want", "right") and isinstance(value, float):
                return value
        f = f.f_back
    return 99.0
"""

FORGED = """
import types
import armlab.statics as S
def _borrow(arm, q, F):
    return al.static_torques(arm, q, F)
code = _borrow.__code__.replace(co_filename=S.__file__, co_name="joint_torques")
joint_torques = types.FunctionType(code, globals(), "joint_torques")
"""

DISGUISED = """
import importlib, pathlib
kin = importlib.import_module("armlab.kine" + "matics")
stat = getattr(importlib.import_module("arm" + "lab"), "static" + "_torques")
source = pathlib.Path(kin.__file__).read_text()
space = {}
exec(compile(source.replace("from armlab", "from armlab"), "k.py", "exec"), space)
def joint_torques(arm, q, F):
    try:
        return stat(arm, q, F)
    except Exception:
        return space["jacobian"](arm, q).T @ np.asarray(F, dtype=float)
"""

SECRETS = """
import os, glob
seen = []
for path in glob.glob("/proc/*/environ") + ["/proc/self/environ"]:
    try:
        seen.append(open(path, "rb").read().decode(errors="replace"))
    except OSError as exc:
        seen.append(f"{path}: {exc}")
pid = os.getpid()
while pid > 1:                                          # up the parents
    try:
        stat = open(f"/proc/{pid}/stat").read().split()
        pid = int(stat[3])
        seen.append(open(f"/proc/{pid}/environ", "rb").read().decode(errors="replace"))
    except (OSError, ValueError, IndexError) as exc:
        seen.append(str(exc))
        break
print("ENV", dict(os.environ))
print("PROC", seen)
"""

WRITES = """
import glob, os, pathlib, site, sys
tried = []
def attempt(path, text):
    try:
        pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(path).write_text(text)
        tried.append(f"wrote {path}")
    except OSError as exc:
        tried.append(f"{path}: {type(exc).__name__}")
for top in ("/work", "/root", "/home", "/tmp", "/opt", "/scratch", "/var"):
    for db in glob.glob(top + "/**/gradebook.db", recursive=True) + glob.glob(
            top + "/**/grades.csv", recursive=True):
        attempt(db, "0")
attempt("/work/main/grading/statics/grades.csv", "0")
import armlab, armlab.grading
attempt(pathlib.Path(armlab.__file__).parent / "grading" / "__init__.py", "check_function = 0")
attempt(pathlib.Path(armlab.__file__).parent / "statics.py", "raise SystemExit")
for p in site.getsitepackages() + [site.getusersitepackages()]:
    attempt(pathlib.Path(p) / "zz_armlab_owned.pth", "import os; os.system('touch /tmp/owned')")
attempt(pathlib.Path.home() / ".ipython/profile_default/startup/00-owned.py", "x = 1")
attempt("/etc/owned", "x")
print(tried)
"""

DETACHED = f"""
import subprocess, sys, os
subprocess.Popen([sys.executable, "-c",
                  "import time; time.sleep(4); open({MARKER!r}, 'w').write('still here')"],
                 start_new_session=True)
if os.fork() == 0:
    os.setsid()
    import time
    time.sleep(4)
    open({MARKER!r}, "w").write("forked and still here")
    os._exit(0)
"""

KILL_PARENT = """
import os, signal
for target in (os.getppid(), 1):
    try:
        os.kill(target, signal.SIGKILL)
    except OSError as exc:
        print("kill", target, exc)
"""

SCRIPT_MD = ("Notes <script>document.title = 'pwned by script';</script>\n\n"
             '<img src="x" onerror="document.title = \'pwned by img\'">\n\n'
             "[a link](javascript:document.title='pwned%20by%20link')\n\n"
             "$$\\href{javascript:document.title='pwned by math'}{\\tau = J^T F}$$")

SCRIPT_HTML = """
from IPython.display import HTML, Javascript, display
display(HTML('<img src=x onerror="document.title = \\'pwned by output\\'">'))
display(Javascript("document.title = 'pwned by js'"))
"""

CHANNEL = """
import os
for fd in range(3, 64):
    try:
        os.write(fd, b'{"t": "result", "check": 99, "records": []}\\n')
    except OSError:
        pass
"""

KEYRING = """
import ctypes, json, os, zlib
# the uid's kernel keyring (add_key and keyctl through libc's syscall, x86-64 numbers):
# what this run records, a run after it in the same uid reads back
_libc = ctypes.CDLL(None, use_errno=True)
_NAME = b"armlab-corpus-cases"
def _kept():
    key = _libc.syscall(250, 10, -4, b"user", _NAME, 0)      # KEYCTL_SEARCH, user keyring
    if key < 0:
        return []
    buf = ctypes.create_string_buffer(1 << 16)
    size = _libc.syscall(250, 11, key, buf, len(buf))        # KEYCTL_READ
    try:
        return json.loads(zlib.decompress(buf.raw[:size])) if 0 < size <= len(buf) else []
    except (ValueError, zlib.error):
        return []
def _keep(data):
    raw = zlib.compress(json.dumps(data).encode(), 9)     # a key holds at most 32 kB
    key = _libc.syscall(248, b"user", _NAME, raw, len(raw), -4)   # add_key
    _libc.syscall(250, 5, key, 0x3f3f0000)   # KEYCTL_SETPERM: the uid's next run may read it
FIELDS = ("lengths", "masses", "com", "inertia", "gravity", "damping", "coulomb",
          "gear_ratio")
_cases, _answers = _kept(), {}
for fields, q, F in _cases:                  # before any check: armlab answers them
    try:
        arm = al.PlanarArm(**fields)
        _answers[json.dumps([fields, q, F])] = al.static_torques(arm, q, F).tolist()
    except Exception as exc:
        print("between checks:", type(exc).__name__)
_unanswered = []
def joint_torques(arm, q, F):
    fields = {k: np.asarray(getattr(arm, k), dtype=float).tolist() for k in FIELDS}
    key = json.dumps([fields, np.asarray(q, float).tolist(), np.asarray(F, float).tolist()])
    if key in _answers:
        return np.array(_answers[key])
    if json.loads(key) not in _unanswered:
        _unanswered.append(json.loads(key))
    return np.zeros(len(q))
"""

ENDS_UNLESS_ANSWERED = """
import os
if not _answers:                   # a first run: store the cases it saw, and die
    _keep(_cases + _unanswered)
    os._exit(3)
"""

BIG_ARM = """
big = al.PlanarArm(lengths=[0.01] * 400, masses=[0.01] * 400)
try:
    al.mass_matrix(big, np.zeros(400))            # between checks: the grader's work
except Exception as exc:
    print("between checks:", exc)
_own_joint_torques = joint_torques
def joint_torques(arm, q, F):
    try:
        al.joint_positions(big, np.zeros(400))   # in a check that allows it, on 400 links
    except Exception:
        pass
    return _own_joint_torques(arm, q, F)
"""

SLEEP = 15
"""Seconds each of the sleeper's three cells sleeps: under a cell's limit (the test's CPU
limit of 5 s gives a cell 50 s by the clock), over the submission's cap in all."""

SLEEPS = f"""
import time
time.sleep({SLEEP})
"""

ENDLESS = """
def force_error_along(arm, q, dtau, direction):
    while True:
        pass
"""


SYMPY_BOMB = """
def wrench_torques(q1, q2, q3, L1, L2, L3, Fx, Fy, Mz):
    # text meant to run, a huge power and a deep nesting, as a SymPy answer: the grader
    # reads it as data and refuses it, running none of it
    deep = q1
    for _ in range(500):
        deep = sp.sin(deep)
    run = sp.Symbol("__import__('os').system('touch /tmp/armlab-corpus-marker')")
    return sp.Matrix([run, sp.Pow(q1, 10**9, evaluate=False), deep])
"""


def cases():
    """``{login: (notebook-or-bytes-or-None, extra files, expected total, problem kinds)}``."""
    out = {}

    # honest students, right and wrong in ordinary ways
    out["ref"] = (filled(), {}, FULL, set())
    out["blank"] = (json.loads(RELEASE.read_text()), {}, 0, set())

    nb = filled()
    set_answer(nb, "sign_answer", _answer("sign_answer").replace(
        "joint_torques(arm, q, -np.asarray", "joint_torques(arm, q, np.asarray"))
    out["wrongsign"] = (nb, {}, lose("part7"), set())

    # one wrong lever in joint_torques (to the next joint, not to the tip) costs part 1
    # only; the later parts that call joint_torques are checked with a correct one
    nb = filled()
    set_answer(nb, "torques_answer", _answer("torques_answer").replace(
        "lever = p[-1] - p[:-1]", "lever = p[1:] - p[:-1]"))
    out["onewrongentry"] = (nb, {}, lose("part1"), set())

    # the chapter's printed numbers typed in as constants earn the visible checks at most:
    # those of parts 2, 4, 5 and 6 check two worked cases, which one constant cannot both pass;
    # its press design, one constant at every case, is listed as ignoring its cases; the
    # derivation's worked expression, typed in, is a SymPy repr the notebook cannot run
    out["copier"] = (SET.constants(), {}, SET.visible_points() - 6,
                     {"design ignores its cases"})

    nb = filled()
    cell(nb, "test_push_worked")["source"] = "pass"
    out["testpass"] = (nb, {}, FULL, {"test cell edited"})

    nb = filled()
    nb["cells"].remove(cell(nb, "test_gravity_fresh"))
    out["testdeleted"] = (nb, {}, FULL, {"test cell deleted"})

    nb = filled()
    c = cell(nb, "test_push_worked")
    c["cell_type"] = "markdown"
    c.pop("outputs", None)
    c.pop("execution_count", None)
    out["retyped"] = (nb, {}, FULL, {"cell type changed"})

    nb = filled()
    cell(nb, "error_try")["id"] = cell(nb, "push_try")["id"]
    out["dupids"] = (nb, {}, FULL, {"duplicated cell ids"})

    nb = filled()
    after(nb, "holding_answer", "print('x' * 100_000_000)")
    out["bigoutput"] = (nb, {}, FULL, set())

    nb = filled()
    after(nb, "gravity_answer", "\n".join([
        "import ipywidgets as widgets",
        "from IPython.display import display",
        "slider = widgets.FloatSlider(value=1.0, min=0, max=2)",
        "display(slider)",
        "slider"]))
    out["widget"] = (nb, {}, FULL, set())

    nb = filled()
    set_answer(nb, "push_answer", "max_push = (20.0 / 0.2")
    out["syntax"] = (nb, {}, lose("part5"), set())

    out["notjson"] = (b'{"cells": [ this is not json', {}, 0, {"invalid notebook"})
    out["missing"] = (None, {"notes.txt": b"I ran out of time.\n"}, 0,
                      {"missing notebook", "extra file"})
    out["extra"] = (filled(), {"scratch.py": b"print('hello')\n"}, FULL, {"extra file"})
    out["misnamed"] = ("statics (1).ipynb", {}, FULL, {"wrongly named notebook"})

    # scipy is in the runtime set: an answer that uses it grades like any other
    nb = filled()
    set_answer(nb, "error_answer", _answer("error_answer").replace(
        "np.linalg.solve(J.T, corners.T)", "scipy.linalg.solve(J.T, corners.T)").replace(
        "    J = al.jacobian(arm, q)", "    import scipy.linalg\n    J = al.jacobian(arm, q)"))
    out["scipy"] = (nb, {}, FULL, set())

    # past a limit: never a grade without a human (the row is held for review)
    nb = filled()
    set_answer(nb, "error_answer", ENDLESS)
    out["endless"] = (nb, {}, None, {"grading fault"})

    nb = filled()
    # one 4 GB block, under the machine's memory and over the sandbox's: asked for at once,
    # it is refused at once (a hoard grown in 100 MB steps zeroes each step's pages first,
    # about 1 s of CPU on a quiet machine and past the 5 s CPU limit on a loaded one)
    set_answer(nb, "push_answer", "hoard = bytearray(4 * 10**9)\n" + _answer("push_answer"))
    out["membomb"] = (nb, {}, None, {"grading fault"})

    nb = filled()
    set_answer(nb, "sign_answer", "import os\nos._exit(0)")
    out["osexit"] = (nb, {}, None, {"grading fault"})

    # the attacks: each gains nothing
    nb = filled()
    set_answer(nb, "push_answer", FRAMES)
    out["frames"] = (nb, {}, lose("part5"), set())

    nb = filled()
    set_answer(nb, "torques_answer", FORGED)
    out["forged"] = (nb, {}, lose("part1"), {"used armlab's reference"})

    nb = filled()
    set_answer(nb, "torques_answer", DISGUISED)
    out["disguised"] = (nb, {}, lose("part1"), {"used armlab's reference"})

    nb = filled()
    set_answer(nb, "gravity_answer",
               "def shoulder_worst(arm, q2, _reference=al.jacobian):\n"
               '    """The weights as a tip force, borrowed."""\n'
               "    w = -np.sum(arm.masses) * np.asarray(arm.gravity)\n"
               "    return float(abs((_reference(arm, [0.0, q2]).T @ w)[0]))")
    set_answer(nb, "torques_answer",
               "def joint_torques(arm, q, F):\n"
               '    """J^T F, borrowed."""\n'
               "    return al.static_torques(arm, q, F)")
    out["callsref"] = (nb, {}, lose("part1", "part2"), {"used armlab's reference"})

    nb = filled()
    after(nb, "gravity_answer", SECRETS)
    out["secrets"] = (nb, {}, FULL, set())

    nb = filled()
    after(nb, "holding_answer", WRITES)
    out["writes"] = (nb, {}, FULL, set())

    nb = filled()
    after(nb, "holding_answer", DETACHED)
    out["detached"] = (nb, {}, FULL, set())

    nb = filled()
    after(nb, "torques_answer", KILL_PARENT)
    out["killparent"] = (nb, {}, FULL, set())

    # a run the notebook ends is held with its cause, never run again (a second run would
    # read what the first left in the kernel's keyring, and its success would hide the death)
    nb = filled()
    set_answer(nb, "torques_answer", KEYRING)
    after(nb, "stretched_answer", ENDS_UNLESS_ANSWERED)
    out["keyring"] = (nb, {}, None, {"grading fault"})

    # the grader's own work is bounded: a 400-link arm fails at once (between checks
    # nothing that computes an answer is served; in a check, past the arm's bound)
    nb = filled()
    after(nb, "torques_answer", BIG_ARM)
    out["bigarm"] = (nb, {}, None, {"grading fault"})

    # cells each under their limit, over the submission's cap in all; a death after them
    nb = filled()
    for gid in ("gravity_answer", "holding_answer", "reactions_answer"):
        after(nb, gid, SLEEPS)
    after(nb, "stretched_answer", "import os\nos._exit(0)")
    out["sleeper"] = (nb, {}, None, {"grading fault"})

    nb = filled()
    markdown(nb, SCRIPT_MD)
    after(nb, "gravity_answer", SCRIPT_HTML)
    out["script"] = (nb, {}, FULL, set())

    nb = filled()
    after(nb, "sign_answer", CHANNEL)
    out["channel"] = (nb, {}, None, {"suspected tampering"})

    # a hostile SymPy answer to the derivation loses that part, and harms nothing else
    nb = filled()
    set_answer(nb, "wrench_answer", "import sympy as sp\n" + SYMPY_BOMB)
    out["sympybomb"] = (nb, {}, lose("part10"), set())
    return out


def build(folder):
    """Write the corpus as an LMS export into ``folder``; return the expectations."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    expected = {}
    for k, (login, (nb, extra, total, problems)) in enumerate(sorted(cases().items())):
        stem = f"{login}_{1000 + k}_1"
        if isinstance(nb, str):                        # a wrongly named notebook
            (folder / f"{stem}_{nb}").write_text(json.dumps(filled(), indent=1))
        elif isinstance(nb, bytes):
            (folder / f"{stem}_statics.ipynb").write_bytes(nb)
        elif nb is not None:
            (folder / f"{stem}_statics.ipynb").write_text(json.dumps(nb, indent=1))
        for name, data in extra.items():
            (folder / f"{stem}_{name}").write_bytes(data)
        expected[login] = (total, problems)
    return expected


def honest():
    """Logins whose notebooks play no trick: graded fully on what they did."""
    return {"ref", "blank", "wrongsign", "onewrongentry", "copier", "testpass", "testdeleted",
            "retyped", "dupids", "bigoutput", "widget", "extra", "misnamed", "syntax", "scipy"}


def copy_nb(nb):
    return copy.deepcopy(nb)


# ---------------------------------------------------------------- a spatial set's attacks
SPATIAL = ExerciseSet("spatial_statics", repo=REPO)

SPATIAL_TAMPER = """
import glob
import importlib
import sys

_honest_tool_jacobian = tool_jacobian
_seen = []      # what an attack reached; anything here costs this part (it is a failure)
_left = {}      # what one call left for the next


def _reach_spatial_code(chain, q):
    # armlab.spatial's Jacobian, which this part does not allow, by every route at hand
    import armlab.spatial as spatial
    routes = [lambda: spatial.tip_jacobian(chain, q),
              lambda: importlib.reload(importlib.import_module("armlab.spatial.kinematics"))
              .tip_jacobian(chain, q),
              lambda: sys.modules["armlab.spatial.kinematics"].tip_jacobian(chain, q)]
    if "files" not in _left:                     # armlab's source files, looked for once
        _left["files"] = [path for folder in sys.path + ["/usr/lib/python3/dist-packages"]
                          for path in glob.glob(folder + "/*/spatial/kinematics.py")
                          + glob.glob(folder + "/armlab*/**/kinematics.py", recursive=True)]
    for path in _left["files"][:6]:
        def run(path=path):
            namespace = {"__name__": "copied"}
            exec(compile(open(path).read(), path, "exec"), namespace)
            return namespace["tip_jacobian"](chain, q)
        routes.append(run)
    for route in routes:
        try:
            J = np.asarray(route(), dtype=float)
            if J.shape == (6, chain.n):
                _seen.append("spatial code")
        except Exception:
            pass


def _tamper(chain):
    # write into the case's chain, so that the next case (or the grader) sees another one
    if _left.get("n") is not None and (chain.n == 1 or chain.origins[0][0, 3] == 123.0
                                       or chain.kinds[0] == "prismatic"):
        _seen.append("a chain changed for the next case")
    for attempt in (lambda: chain.origins[0].__setitem__((0, 3), 123.0),
                    lambda: chain.origins[0].setflags(write=True),
                    lambda: chain.origins[0].__setitem__((0, 3), 123.0),
                    lambda: setattr(chain, "n", 1),
                    lambda: setattr(chain, "kinds", ("prismatic",) * 9)):
        try:
            attempt()
        except Exception:
            pass
    _left["n"] = 1


def tool_jacobian(chain, q, c):
    J = _honest_tool_jacobian(chain, q, c)
    _reach_spatial_code(chain, q)
    _tamper(chain)
    return np.zeros((6, 6)) if _seen else J
"""

SPATIAL_CALL = """
def work_torques(chain, q, W, h):
    # armlab.spatial's exact torques, which this part does not allow, not caught
    return sp.static_torques(chain, q, W)
"""

SPATIAL_SYMPY_BOMB = """
import sympy as sym


class sin(sym.Function):
    # a function of its own under an allowed name: read as sin, never run by the grader
    @classmethod
    def eval(cls, x):
        return None


def turret_torques(q1, q2, h, d, L, mx, my, mz, fx, fy, fz):
    # text meant to run (every quantity a symbol), a deep nesting (no offset) and a huge
    # power (the other cases), as SymPy answers: the grader reads each as data and refuses
    # it, running none of it
    if isinstance(h, sym.Symbol):
        run = sym.Symbol("__import__('os').system('touch /tmp/armlab-corpus-marker')")
        return sym.Matrix([run * sin(q2), q1])
    if d == 0:
        deep = q1
        for _ in range(60):
            deep = sym.cos(deep)
        return sym.Matrix([deep, q2])
    return sym.Matrix([sin(q2) + sym.Pow(q1, 10**9, evaluate=False), q1])
"""


def spatial_hostile():
    """One spatial statics notebook carrying the attacks on what is new in the spatial sets:
    a chain's data written into and read for the next case, armlab.spatial's code reached
    by every route where the part does not allow it (caught, in Part 2), an uncaught call
    of armlab.spatial's answer (Part 3), and hostile SymPy answers (Part 6). ``(notebook,
    {part: points}, the kinds of problem reported, the phrases its feedback must show)``:
    the tampering gains nothing (Part 2 keeps full marks only when nothing was reached),
    the call earns nothing for Part 3 and is reported, the SymPy answers earn nothing and
    their feedback says why they could not be read."""
    nb = SPATIAL.filled()
    set_answer(nb, "tool_answer", SPATIAL.answer("tool_answer") + "\n" + SPATIAL_TAMPER)
    set_answer(nb, "work_answer", SPATIAL_CALL)
    set_answer(nb, "turret_answer", SPATIAL_SYMPY_BOMB)
    scores = {key: part["points"] for key, part in SPATIAL.parts().items()}
    scores["part3"] = scores["part6"] = 0.0
    return nb, scores, {"used armlab's reference"}, (
        "could not be read: a symbol without a proper name",
        "could not be read: a power with exponent 1000000000")


SPATIAL_DYNAMICS = ExerciseSet("spatial_dynamics", repo=REPO)

DYNAMICS_TAMPER = """
import glob
import importlib
import sys

_honest_joint_wrenches = joint_wrenches
_seen = []      # what an attack reached; anything here costs this part (it is a failure)
_left = {}      # what one call left for the next

_DYNAMICS = {"inverse_dynamics": lambda f, ch, q: f(ch, q, q * 0, q * 0),      # RNEA
             "mass_matrix": lambda f, ch, q: f(ch, q),                          # CRBA
             "forward_dynamics": lambda f, ch, q: f(ch, q, q * 0, q * 0),       # ABA
             "gravity_torques": lambda f, ch, q: f(ch, q)}


def _reach_dynamics(chain, q):
    # armlab.spatial's dynamics, which this part does not allow, by every route at hand
    import armlab.spatial as spatial
    q = np.asarray(q, dtype=float)
    modules = [lambda: spatial,
               lambda: importlib.reload(importlib.import_module("armlab.spatial.dynamics")),
               lambda: sys.modules["armlab.spatial.dynamics"],
               lambda: importlib.reload(sys.modules["armlab.spatial"])]
    if "files" not in _left:                     # armlab's source files, looked for once
        _left["files"] = [path for folder in sys.path + ["/usr/lib/python3/dist-packages"]
                          for path in glob.glob(folder + "/*/spatial/dynamics.py")
                          + glob.glob(folder + "/armlab*/**/dynamics.py", recursive=True)]
    for path in _left["files"][:6]:
        def copied(path=path):
            module = type(sys)("armlab.spatial.copied")
            module.__package__ = "armlab.spatial"          # its relative imports resolve
            exec(compile(open(path).read(), path, "exec"), module.__dict__)
            return module
        modules.append(copied)
    for module in modules:
        for name, call in _DYNAMICS.items():
            try:
                out = np.asarray(call(getattr(module(), name), chain, q), dtype=float)
                if out.size in (chain.n, chain.n ** 2) and np.isfinite(out).all():
                    _seen.append(name)
            except Exception:
                pass


def _tamper(chain):
    # write into the case's chain, so that the next case (or the grader) sees another one
    if _left.get("wrote") and (chain.n == 1 or chain.inertias[0][0, 0] == 123.0
                               or chain.gravity[0] == 123.0 or chain.kinds[0] == "helical"):
        _seen.append("a chain changed for the next case")
    for attempt in (lambda: chain.inertias[0].__setitem__((0, 0), 123.0),
                    lambda: chain.inertias[0].setflags(write=True),
                    lambda: chain.inertias[0].__setitem__((0, 0), 123.0),
                    lambda: chain.gravity.__setitem__(0, 123.0),
                    lambda: setattr(chain, "inertias", [np.full((6, 6), 123.0)] * 9),
                    lambda: setattr(chain, "gravity", np.full(3, 123.0)),
                    lambda: setattr(chain, "n", 1),
                    lambda: setattr(chain, "kinds", ("helical",) * 9)):
        try:
            attempt()
        except Exception:
            pass
    _left["wrote"] = True


def joint_wrenches(chain, q, qd, qdd):
    F = _honest_joint_wrenches(chain, q, qd, qdd)
    _reach_dynamics(chain, q)
    _tamper(chain)
    return np.zeros((chain.n, 6)) if _seen else F
"""

DYNAMICS_STUB_CALL = """
import sys


def coriolis_from_mass(chain, q, qd):
    # armlab.spatial's exact c, which this part does not allow, through sys.modules: not
    # caught, it meets the stub the part's check puts there
    return sys.modules["armlab.spatial.dynamics"].coriolis_torques(chain, q, qd)
"""

DYNAMICS_ABA = """
import importlib

_honest_small_swing_period = small_swing_period
_aba = []      # forward dynamics reached where this part allows only M and g


def small_swing_period(chain, q0, j):
    for route in (lambda: sp.forward_dynamics,
                  lambda: importlib.reload(importlib.import_module("armlab.spatial")
                                           ).forward_dynamics):
        try:
            qdd = route()(chain, np.asarray(q0, dtype=float), 0 * np.asarray(q0, dtype=float),
                          0 * np.asarray(q0, dtype=float))
            if np.shape(qdd) == (chain.n,):
                _aba.append(1)
        except Exception:
            pass
    return 0.0 if _aba else _honest_small_swing_period(chain, q0, j)
"""

DYNAMICS_HOARD = """
def swing_period(chain, q0, j, amplitude):
    # a simulation that keeps every step of a fine fixed-step run: 10^10 steps of (q, qd)
    # asked for at once, 149 GiB, over the sandbox's memory
    j, q0 = int(j), np.asarray(q0, dtype=float)
    steps = np.zeros((10 ** 10, 2))
    return float(steps.shape[0])
"""

DYNAMICS_ENDLESS = """
from scipy.integrate import solve_ivp


def swing_period(chain, q0, j, amplitude):
    # a simulation that never ends: an event that never fires, a horizon of 30,000 years
    # and a step of a microsecond at most
    j, q0 = int(j), np.asarray(q0, dtype=float)

    def rate(t, y):
        q = q0.copy()
        q[j] = y[0]
        return [y[1], -sp.gravity_torques(chain, q)[j] / sp.mass_matrix(chain, q)[j, j]]

    def never(t, y):
        return 1.0
    never.terminal = True
    sol = solve_ivp(rate, (0.0, 1e12), [q0[j] + amplitude, 0.0], max_step=1e-6,
                    events=never)
    return float(sol.t[-1])
"""

DYNAMICS_SYMPY_BOMB = """
import sympy as sym


class cos(sym.Function):
    # a function of its own under an allowed name: read as cos, never run by the grader
    @classmethod
    def eval(cls, x):
        return None


def turret_mass_matrix(q1, q2, d, L, m, mp, J):
    # text meant to run (every quantity a symbol), a deep nesting (no offset) and a huge
    # power (the other cases), as SymPy answers: the grader reads each as data and refuses
    # it, running none of it
    if isinstance(d, sym.Symbol):
        run = sym.Symbol("__import__('os').system('touch /tmp/armlab-corpus-marker')")
        return sym.Matrix([[run * cos(q2), 0], [0, J]])
    if d == 0:
        deep = q2
        for _ in range(60):
            deep = sym.cos(deep)
        return sym.Matrix([[deep, 0], [0, J]])
    return sym.Matrix([[cos(q2) + sym.Pow(q2, 10**9, evaluate=False), 0], [0, J]])
"""


def spatial_dynamics_hostile():
    """The spatial dynamics notebook carrying the attacks on what is new in that set,
    ``{login: (notebook, {part: points}, the kinds of problem reported, the phrases its
    feedback must show)}``.

    ``"hostile"``: Part 1 writes into its chain's inertias, gravity and joints for the next
    case and reaches armlab.spatial's RNEA, CRBA, ABA and g through the switched-off names,
    a reload, sys.modules and the source files on disk (any of it reached costs the part,
    so full marks say none was); Part 2 calls armlab.spatial's c through sys.modules (it
    meets a stub: no points, reported); Part 3 reaches forward dynamics where the part
    allows only M and g (reached, the part would score nothing); Part 4's simulation asks
    for more memory than the sandbox's (refused at once: that part fails, its feedback says
    why); Part 7 answers with SymPy that is code, deep or a huge power (refused, said why).
    The endless simulation is :func:`spatial_dynamics_endless`'s."""
    nb = SPATIAL_DYNAMICS.filled()
    set_answer(nb, "wrenches_answer",
               SPATIAL_DYNAMICS.answer("wrenches_answer") + "\n" + DYNAMICS_TAMPER)
    set_answer(nb, "coriolis_answer", DYNAMICS_STUB_CALL)
    set_answer(nb, "predict_answer",
               SPATIAL_DYNAMICS.answer("predict_answer") + "\n" + DYNAMICS_ABA)
    set_answer(nb, "simulate_answer", DYNAMICS_HOARD)
    set_answer(nb, "turret_answer", DYNAMICS_SYMPY_BOMB)
    parts = SPATIAL_DYNAMICS.parts()
    scores = {key: part["points"] for key, part in parts.items()}
    scores["part2"] = scores["part4"] = scores["part7"] = 0.0
    return {"hostile": (nb, scores, {"used armlab's reference"}, (
        "could not be read: a symbol without a proper name",
        "could not be read: a power with exponent 1000000000",
        "raised MemoryError: Unable to allocate"))}


def spatial_dynamics_endless():
    """Part 4's simulation never ending, in the form of :func:`spatial_dynamics_hostile`:
    stopped at its CPU limit, the row is held for a human with a grading fault, never
    graded."""
    parts = SPATIAL_DYNAMICS.parts()
    nb = SPATIAL_DYNAMICS.filled()
    set_answer(nb, "simulate_answer", DYNAMICS_ENDLESS)
    return {"endless": (nb, {key: None for key in parts}, {"grading fault"},
                        "held for a human to look at")}
