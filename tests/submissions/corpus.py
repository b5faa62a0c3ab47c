"""The grading corpus: one submission per way a notebook can go wrong.

Built from the release (what students get) and the solution (its answers), so
it follows the exercise set when that changes. ``build(folder)`` writes an LMS
export (``<login>_<id>_<submission>_<notebook>``) and returns the expected
outcome per student: total score, the parts that lose points, and the report's
problem kinds.
"""

import copy
import json
import pathlib

from armlab.grading.testing import ExerciseSet

REPO = pathlib.Path(__file__).resolve().parents[2]
SOLUTION = REPO / "solutions" / "statics" / "statics.ipynb"
RELEASE = REPO / "exercises" / "statics" / "statics.ipynb"
SET = ExerciseSet("statics", repo=REPO)
POINTS = {key: part["points"] for key, part in SET.parts().items()}
FULL = sum(POINTS.values())


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


def lose(*parts):
    return FULL - sum(POINTS[p] for p in parts)


def cases():
    """``{login: (notebook-or-bytes-or-None, extra files, expected total, problem kinds)}``."""
    out = {}

    out["ref"] = (filled(), {}, FULL, set())
    out["blank"] = (json.loads(RELEASE.read_text()), {}, 0, set())

    nb = filled()
    set_answer(nb, "sign_answer", _answer("sign_answer").replace(
        "joint_torques(arm, q, -np.asarray", "joint_torques(arm, q, np.asarray"))
    out["wrongsign"] = (nb, {}, lose("part7"), set())

    # Issue 9: one wrong entry of J (column 2 uses q2 instead of q1 + q2) costs part 1
    # only; the later parts that call jacobian are checked with a correct one.
    nb = filled()
    set_answer(nb, "jacobian_answer", _answer("jacobian_answer").replace(
        "a1, a12 = q[0], q[0] + q[1]", "a1, a12 = q[0], q[1]"))
    out["onewrongentry"] = (nb, {}, lose("part1"), set())

    # Issue 9: the chapter's printed numbers typed in as constants earn the visible
    # checks' points at most.
    out["copier"] = (SET.constants(), {}, SET.visible_points(), set())

    nb = filled()
    set_answer(nb, "push_answer", "\n".join([
        "import math, builtins",
        "np.allclose = lambda *a, **k: True",
        "np.isclose = lambda *a, **k: True",
        "np.testing.assert_allclose = lambda *a, **k: None",
        "math.isclose = lambda *a, **k: True",
        "builtins.abs = lambda x: 0.0",
        "builtins.float = lambda x=0: 100.0",
        "def max_push(arm, q, direction, limit):",
        "    return 99.0"]))
    # replacing builtins.float also breaks the student's own later answers (parts 6, 7)
    out["patchnumpy"] = (nb, {}, lose("part5", "part6", "part7"), {"suspected tampering"})

    nb = filled()
    set_answer(nb, "error_answer", "\n".join([
        "import armlab.grading",
        "import armlab.grading.checks as chk",
        "for target in (armlab.grading, chk):",
        "    try:",
        "        target.check_function = lambda *a, **k: None",
        "    except AttributeError:",
        "        pass",
        "check_function = lambda *a, **k: None",
        "def force_error_bound(arm, q, dtau):",
        "    return 1.0"]))
    out["patchchecks"] = (nb, {}, lose("part6"), {"suspected tampering"})

    # Issue 9: rewriting a check's code object earns nothing (put back before the test
    # cell runs) and holds the score for review.
    nb = filled()
    set_answer(nb, "push_answer", "\n".join([
        "check_function.__code__ = (lambda *a, **k: None).__code__",
        "def max_push(arm, q, direction, limit):",
        "    return 1.0"]))
    out["codepatch"] = (nb, {}, lose("part5"), {"suspected tampering"})

    # ... and so does reaching the checks' globals from inside the function being checked
    nb = filled()
    set_answer(nb, "push_answer", "\n".join([
        "def max_push(arm, q, direction, limit):",
        "    check_function.__globals__['_judge'] = lambda *a, **k: None",
        "    return 1.0"]))
    out["globalspatch"] = (nb, {}, lose("part5"), {"suspected tampering"})

    nb = filled()
    set_answer(nb, "push_answer", "\n".join([
        "get_ipython().set_custom_exc((AssertionError,), lambda *a, **k: None)",
        "def max_push(arm, q, direction, limit):",
        "    return 99.0"]))
    out["swallow"] = (nb, {}, lose("part5"), {"suspected tampering"})

    nb = filled()
    set_answer(nb, "push_answer", "\n".join([
        "blank = lambda lines: [] if any('check_' in ln for ln in lines) else lines",
        "get_ipython().input_transformers_cleanup.append(blank)",
        "def max_push(arm, q, direction, limit):",
        "    return 99.0"]))
    out["transformer"] = (nb, {}, lose("part5"), {"suspected tampering"})

    nb = filled()
    set_answer(nb, "gravity_answer", "\n".join([
        "class Agreeable(np.ndarray):",
        "    def __eq__(self, other): return True",
        "    def __ne__(self, other): return False",
        "    def __array__(self, *a, **k): return np.array([14.8675, 0.0])",
        "def gravity_torques(arm, q):",
        "    return np.zeros(2).view(Agreeable)"]))
    set_answer(nb, "push_answer", "\n".join([
        "class Yes(float):",
        "    def __eq__(self, other): return True",
        "    def __float__(self): return 100.0",
        "    def __lt__(self, other): return False",
        "    def __gt__(self, other): return False",
        "    def __le__(self, other): return True",
        "    def __ge__(self, other): return True",
        "    def __sub__(self, other): return 0.0",
        "    def __abs__(self): return 0.0",
        "def max_push(arm, q, direction, limit):",
        "    return Yes(0.0)"]))
    out["liar"] = (nb, {}, lose("part3", "part5"), {"answer of a refused type"})

    # Calling the armlab function that answers a part earns nothing for that part
    # (and, with no cascades, costs nothing elsewhere).
    nb = filled()
    set_answer(nb, "jacobian_answer",
               "def jacobian(arm, q, _reference=al.jacobian):\n"
               '    """Tip Jacobian, borrowed."""\n'
               "    return _reference(arm, q)")
    set_answer(nb, "torques_answer",
               "def joint_torques(arm, q, F):\n"
               '    """J^T F, borrowed."""\n'
               "    return al.static_torques(arm, q, F)")
    out["callsref"] = (nb, {}, lose("part1", "part2"), {"used armlab's reference"})

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
    set_answer(nb, "error_answer", "while True:\n    pass")
    out["infinite"] = (nb, {}, lose("part6"), {"cell timeout"})

    nb = filled()
    set_answer(nb, "push_answer", "hoard = [bytearray(10**8) for _ in range(400)]\n"
               + _answer("push_answer"))
    out["membomb"] = (nb, {}, lose("part5"), {"memory exhausted"})

    nb = filled()
    set_answer(nb, "sign_answer", "import os\nos._exit(0)")
    out["osexit"] = (nb, {}, 0, {"kernel died", "suspected tampering"})

    nb = filled()
    set_answer(nb, "holding_answer", _answer("holding_answer") + "\nprint('x' * 100_000_000)")
    out["bigoutput"] = (nb, {}, FULL, {"output truncated"})

    nb = filled()
    set_answer(nb, "gravity_answer", _answer("gravity_answer") + "\n" + "\n".join([
        "import ipywidgets as widgets",
        "from IPython.display import display",
        "slider = widgets.FloatSlider(value=1.0, min=0, max=2)",
        "display(slider)",
        "slider"]))
    out["widget"] = (nb, {}, FULL, set())

    nb = filled()
    set_answer(nb, "push_answer", "max_push = (20.0 / 0.2")
    out["syntax"] = (nb, {}, lose("part5"), {"syntax error"})

    out["notjson"] = (b'{"cells": [ this is not json', {}, 0, {"invalid notebook"})
    out["missing"] = (None, {"notes.txt": b"I ran out of time.\n"}, 0,
                      {"missing notebook", "extra file"})
    out["extra"] = (filled(), {"scratch.py": b"print('hello')\n"}, FULL, {"extra file"})
    out["misnamed"] = ("statics (1).ipynb", {}, FULL, {"wrongly named notebook"})
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
    """Logins whose notebooks are honest (no trick), so they must be graded fully on what they did."""
    return {"ref", "blank", "wrongsign", "onewrongentry", "copier", "testpass", "testdeleted",
            "retyped", "dupids", "bigoutput", "widget", "extra", "misnamed", "syntax", "infinite",
            "membomb"}


def copy_nb(nb):
    return copy.deepcopy(nb)
