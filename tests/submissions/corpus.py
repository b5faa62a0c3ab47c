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

REPO = pathlib.Path(__file__).resolve().parents[2]
SOLUTION = REPO / "solutions" / "statics" / "statics.ipynb"
RELEASE = REPO / "exercises" / "statics" / "statics.ipynb"
POINTS = {"part1": 5, "part2": 5, "part3": 4, "part4": 3, "part5": 3, "part6": 3, "part7": 4}
FULL = sum(POINTS.values())


def _src(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _answer(gid):
    """The solution's answer cell ``gid`` without the solution markers."""
    sol = json.loads(SOLUTION.read_text())
    cell = next(c for c in sol["cells"] if c.get("metadata", {}).get("nbgrader", {})
                .get("grade_id") == gid)
    lines = [ln for ln in _src(cell).splitlines() if "### BEGIN SOLUTION" not in ln
             and "### END SOLUTION" not in ln]
    return "\n".join(lines)


def filled():
    """The release with every answer cell filled in: an honest, complete submission."""
    nb = json.loads(RELEASE.read_text())
    for cell in nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution"):
            cell["source"] = _answer(meta["grade_id"])
    return nb


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
        "joint_torques(q, -np.asarray", "joint_torques(q, np.asarray"))
    out["wrongsign"] = (nb, {}, lose("part7"), set())

    nb = filled()
    set_answer(nb, "push_answer", "\n".join([
        "import math, builtins",
        "np.allclose = lambda *a, **k: True",
        "np.isclose = lambda *a, **k: True",
        "np.testing.assert_allclose = lambda *a, **k: None",
        "math.isclose = lambda *a, **k: True",
        "builtins.abs = lambda x: 0.0",
        "builtins.float = lambda x=0: 100.0",
        "max_push_30 = 99.0"]))
    # replacing builtins.float also breaks the student's own later answers (parts 6, 7)
    out["patchnumpy"] = (nb, {}, lose("part5", "part6", "part7"), {"suspected tampering"})

    nb = filled()
    set_answer(nb, "error_answer", "\n".join([
        "import armlab.grading",
        "import armlab.grading.checks as chk",
        "for target in (armlab.grading, chk):",
        "    try:",
        "        target.check_value = lambda *a, **k: None",
        "    except AttributeError:",
        "        pass",
        "check_value = lambda *a, **k: None",
        "check_shape = lambda *a, **k: None",
        "force_error_5 = 1.0"]))
    out["patchchecks"] = (nb, {}, lose("part6"), {"suspected tampering"})

    nb = filled()
    set_answer(nb, "push_answer", "\n".join([
        "get_ipython().set_custom_exc((AssertionError,), lambda *a, **k: None)",
        "max_push_30 = 99.0"]))
    out["swallow"] = (nb, {}, lose("part5"), {"suspected tampering"})

    nb = filled()
    set_answer(nb, "push_answer", "\n".join([
        "blank = lambda lines: [] if any('check_' in ln for ln in lines) else lines",
        "get_ipython().input_transformers_cleanup.append(blank)",
        "max_push_30 = 99.0"]))
    out["transformer"] = (nb, {}, lose("part5"), {"suspected tampering"})

    nb = filled()
    set_answer(nb, "sigma_answer", "\n".join([
        "class Agreeable(np.ndarray):",
        "    def __eq__(self, other): return True",
        "    def __ne__(self, other): return False",
        "    def __array__(self, *a, **k): return np.array([0.6986, 0.2863])",
        "sigma_90 = np.zeros(2).view(Agreeable)"]))
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
        "max_push_30 = Yes(0.0)"]))
    out["liar"] = (nb, {}, lose("part4", "part5"), {"answer of a refused type"})

    nb = filled()
    set_answer(nb, "jacobian_answer",
               "def jacobian(q, _reference=al.jacobian):\n"
               '    """Tip Jacobian, borrowed."""\n'
               "    return _reference(arm, q)")
    set_answer(nb, "torques_answer",
               "def joint_torques(q, F):\n"
               '    """J^T F, borrowed."""\n'
               "    return al.static_torques(arm, q, F)")
    out["callsref"] = (nb, {}, lose("part1", "part2", "part7"), {"used armlab's reference"})

    nb = filled()
    cell(nb, "test_push")["source"] = "pass"
    out["testpass"] = (nb, {}, FULL, {"test cell edited"})

    nb = filled()
    nb["cells"].remove(cell(nb, "test_sigma"))
    out["testdeleted"] = (nb, {}, FULL, {"test cell deleted"})

    nb = filled()
    c = cell(nb, "test_push")
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
    set_answer(nb, "push_answer", "hoard = [bytearray(10**8) for _ in range(400)]\nmax_push_30 = 100.0")
    out["membomb"] = (nb, {}, lose("part5"), {"memory exhausted"})

    nb = filled()
    set_answer(nb, "sign_answer", "import os\nos._exit(0)")
    out["osexit"] = (nb, {}, 0, {"kernel died", "suspected tampering"})

    nb = filled()
    set_answer(nb, "hold_answer", _answer("hold_answer") + "\nprint('x' * 100_000_000)")
    out["bigoutput"] = (nb, {}, FULL, {"output truncated"})

    nb = filled()
    set_answer(nb, "sigma_answer", _answer("sigma_answer") + "\n" + "\n".join([
        "import ipywidgets as widgets",
        "from IPython.display import display",
        "slider = widgets.FloatSlider(value=float(sigma_90[0]), min=0, max=1)",
        "display(slider)",
        "slider"]))
    out["widget"] = (nb, {}, FULL, set())

    nb = filled()
    set_answer(nb, "push_answer", "max_push_30 = (20.0 / 0.2")
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
    return {"ref", "blank", "wrongsign", "testpass", "testdeleted", "retyped", "dupids",
            "bigoutput", "widget", "extra", "misnamed", "syntax", "infinite", "membomb"}


def copy_nb(nb):
    return copy.deepcopy(nb)
