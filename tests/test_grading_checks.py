"""The grading checks, in-process: right answers pass, wrong ones fail with a
useful message, and the tricks an answer cell can play on the kernel do not
turn a wrong answer into a pass."""

import builtins
import io
import json
import math
import pathlib
import sys
import warnings

import numpy as np
import pytest

import armlab as al
import armlab.grading as grading
from armlab.grading import check_function, check_shape, check_value, deg, fresh_poses
from armlab.grading import checks
from armlab.grading.preprocessors import HideHiddenTests
from armlab.grading.scan import scan_cells, scan_source

ARM = al.statics_arm()
REPO = pathlib.Path(__file__).resolve().parents[1]


def good_jacobian(q):
    l1, l2 = 0.5, 0.4
    a, b = q[0], q[0] + q[1]
    return np.array([[-l1 * np.sin(a) - l2 * np.sin(b), -l2 * np.sin(b)],
                     [l1 * np.cos(a) + l2 * np.cos(b), l2 * np.cos(b)]])


def good_torques(q, F):
    return good_jacobian(q).T @ np.asarray(F, dtype=float)


# ---------------------------------------------------------------- the references
@pytest.mark.parametrize("q", fresh_poses(8, seed=21) + [deg(0, 0), deg(30, 60)])
def test_references_agree_with_armlab(q):
    """Two independent routes: the checks' pure-Python formulas and armlab."""
    J, _ = checks._reference("jacobian", [q])
    np.testing.assert_allclose(J, al.jacobian(ARM, q), atol=1e-12)
    g, _ = checks._reference("gravity_torques", [q])
    np.testing.assert_allclose(g, al.gravity_torques(ARM, q), atol=1e-9)
    s, _ = checks._reference("singular_values", [q])
    np.testing.assert_allclose(s, al.singular_values(ARM, q), atol=1e-9)
    tau, _ = checks._reference("static_torques", [q, [3.0, -2.0]])
    np.testing.assert_allclose(tau, al.static_torques(ARM, q, [3.0, -2.0]), atol=1e-12)


@pytest.mark.parametrize("q2, push, error", [(1, 2865, 186), (5, 574, 37), (30, 100, 6.3),
                                             (90, 50, 2.4)])
def test_references_reproduce_seed_003_table(q2, push, error):
    """Seed 003's table: the largest push under 20 N m and the force error from 0.5 N m."""
    f, _ = checks._reference("max_tip_force", [deg(0, q2), [1.0, 0.0], 20.0])
    e, _ = checks._reference("force_error_bound", [deg(0, q2), 0.5])
    assert round(f) == push
    assert round(e, 1 if error < 10 else 0) == error
    assert f == pytest.approx(float(al.max_tip_force(ARM, deg(0, q2), [1, 0], 20)))
    assert e == pytest.approx(float(al.force_error_bound(ARM, deg(0, q2), 0.5)))


def test_fresh_poses_repeat_and_avoid_singularities():
    assert fresh_poses(5, seed=3) == fresh_poses(5, seed=3)
    assert fresh_poses(5, seed=3) != fresh_poses(5, seed=4)
    assert all(abs(math.sin(q[1])) > 0.25 for q in fresh_poses(50, seed=1))


# ---------------------------------------------------------------- honest answers
def test_honest_answers_pass_silently(capfd):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_function(good_jacobian, "jacobian", fresh_poses(5), name="jacobian")
        check_function(good_torques, "static_torques", [(deg(30, 60), [10.0, 0.0])],
                       worked=[(-6.5, -4.0)])
        check_value(al.gravity_torques(ARM, deg(30, 60)), "gravity_torques", deg(30, 60),
                    worked=(14.8675, 0.0))
        check_value(100, "max_tip_force", deg(0, 30), [1.0, 0.0], 20.0, worked=100.0)
        check_value(37, "force_error_bound", deg(0, 5), 0.5, worked=37, decimals=0)
        check_value((0.6986, 0.2863), "singular_values", deg(0, 90), worked=(0.6986, 0.2863))
        check_shape(np.zeros(2), (2,))
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_noisy_student_function_puts_nothing_on_stderr(capfd):
    """Warnings and prints inside the student's function stay inside the check."""
    def noisy(q):
        print("debug", file=sys.stderr)
        warnings.warn("careful")
        np.float64(1.0) / np.float64(0.0)
        return good_jacobian(q)
    check_function(noisy, "jacobian", [deg(10, 20)])
    out, err = capfd.readouterr()
    assert err == ""


def test_worked_value_guards_the_answer_key():
    with pytest.raises(RuntimeError, match="answer key"):
        check_value(100, "max_tip_force", deg(0, 30), [1.0, 0.0], 20.0, worked=101.0)


# ---------------------------------------------------------------- wrong answers, useful messages
def test_wrong_sign_names_the_convention():
    with pytest.raises(AssertionError, match="right size, wrong sign.*force on the arm or by"):
        check_function(lambda q, F: -good_torques(q, F), "static_torques",
                       [(deg(30, 60), [10.0, 0.0])])


def test_transposed_jacobian_is_named():
    with pytest.raises(AssertionError, match="J transposed"):
        check_function(lambda q: good_jacobian(q).T, "jacobian", [deg(30, 60)])


def test_gravity_forgotten_is_named():
    tau = al.static_torques(ARM, deg(30, 60), [10, 0])
    with pytest.raises(AssertionError, match="add g"):
        check_value(tau, "holding_torques", deg(30, 60), [10.0, 0.0])


def test_shape_and_type_messages():
    with pytest.raises(AssertionError, match=r"shape \(2,\), expected \(2, 2\)"):
        check_function(lambda q: np.zeros(2), "jacobian", [deg(1, 2)])
    with pytest.raises(AssertionError, match="raised ZeroDivisionError"):
        check_function(lambda q: 1 / 0, "jacobian", [deg(1, 2)])
    with pytest.raises(AssertionError, match="not a function"):
        check_function(3.0, "jacobian", [deg(1, 2)])
    with pytest.raises(AssertionError, match="finite"):
        check_value(float("nan"), "max_tip_force", deg(0, 30), [1.0, 0.0], 20.0)


# ---------------------------------------------------------------- tricks
def test_calling_armlab_reference_earns_nothing_and_armlab_comes_back():
    def borrowed(q, _ref=al.jacobian):                 # alias in a default argument
        return _ref(ARM, q)

    def borrowed_torques(q, F):
        return al.statics.static_torques(ARM, q, F)

    with pytest.raises(AssertionError, match="called armlab's own function"):
        check_function(borrowed, "jacobian", [deg(30, 60)])
    with pytest.raises(AssertionError, match="called armlab's own function"):
        check_function(borrowed_torques, "static_torques", [(deg(30, 60), [10.0, 0.0])])
    np.testing.assert_allclose(al.static_torques(ARM, deg(30, 60), [10, 0]), [-6.5, -4.0])
    assert al.jacobian(ARM, [0.0, 0.0]).tolist() == [[0.0, 0.0], [0.9, 0.4]]


def test_swallowing_the_switch_does_not_help():
    def sly(q):
        try:
            return al.jacobian(ARM, q)
        except BaseException:                          # noqa: BLE001
            return np.zeros((2, 2))
    with pytest.raises(AssertionError):
        check_function(sly, "jacobian", [deg(30, 60)])


class Agreeable(np.ndarray):
    def __eq__(self, other):
        return True

    def __array__(self, *a, **k):
        return np.array([0.6986, 0.2863])


class Yes(float):
    def __eq__(self, other):
        return True

    def __float__(self):
        return 100.0

    def __sub__(self, other):
        return 0.0


class Duck:
    def __array__(self, *a, **k):
        return np.array([0.6986, 0.2863])

    def __eq__(self, other):
        return True

    def __float__(self):
        return 0.6986

    def __len__(self):
        return 2

    def __iter__(self):
        return iter([0.6986, 0.2863])


@pytest.mark.parametrize("answer", [np.zeros(2).view(Agreeable), Duck(), [Yes(0.0), Yes(0.0)],
                                    np.array([Yes(0.0), Yes(0.0)], dtype=object), True])
def test_lying_objects_are_refused(answer):
    with pytest.raises(AssertionError):
        check_value(answer, "singular_values", deg(0, 90))


def test_patched_numpy_math_builtins_change_nothing(monkeypatch):
    monkeypatch.setattr(np, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(np, "isclose", lambda *a, **k: True)
    monkeypatch.setattr(np, "asarray", lambda *a, **k: np.array([100.0]))
    monkeypatch.setattr(np.testing, "assert_allclose", lambda *a, **k: None)
    monkeypatch.setattr(math, "isclose", lambda *a, **k: True)
    monkeypatch.setattr(math, "isfinite", lambda *a, **k: True)
    # builtins are patched by hand, and only around the checks: pytest itself needs them
    saved = builtins.abs, builtins.isinstance, builtins.float
    outcomes = []
    builtins.abs, builtins.isinstance = (lambda x: 0.0), (lambda *a: True)
    builtins.float = lambda *a: 100.0
    try:
        for answer in (99.0, 100.0):
            try:
                check_value(answer, "max_tip_force", deg(0, 30), [1.0, 0.0], 20.0)
                outcomes.append("pass")
            except AssertionError as exc:
                outcomes.append(str(exc))
    finally:
        builtins.abs, builtins.isinstance, builtins.float = saved
    assert outcomes == ["your answer is 99.0, expected 100.0", "pass"]


def test_patching_the_checks_module_is_refused():
    with pytest.raises(AttributeError, match="read-only"):
        grading.check_value = lambda *a, **k: None
    with pytest.raises(AttributeError, match="read-only"):
        checks.check_value = lambda *a, **k: None
    with pytest.raises(AttributeError, match="read-only"):
        checks._close = lambda *a, **k: True
    with pytest.raises(AttributeError, match="read-only"):
        del checks._reference


def test_checks_run_on_their_own_globals(monkeypatch):
    """Even a change made through the module's __dict__ does not reach the checks."""
    monkeypatch.setitem(checks.__dict__, "_close", lambda *a, **k: True)
    monkeypatch.setitem(checks.__dict__, "_float", lambda x: 100.0)
    with pytest.raises(AssertionError):
        check_value(1.0, "max_tip_force", deg(0, 30), [1.0, 0.0], 20.0)


def test_protect_puts_names_back():
    class Events:
        def __init__(self):
            self.hooks = []

        def register(self, name, fn):
            self.hooks.append(fn)

    class Shell:
        events = Events()
        input_transformers_cleanup = []
        input_transformers_post = []
        ast_transformers = []
        custom_exceptions = ()

    ns = {"check_value": check_value, "deg": deg}
    ipython = type(sys)("IPython")
    ipython.get_ipython = lambda: Shell
    saved = sys.modules.get("IPython")
    sys.modules["IPython"] = ipython
    try:
        grading.protect(ns)
    finally:
        if saved is not None:
            sys.modules["IPython"] = saved
        else:
            del sys.modules["IPython"]
    assert len(Shell.events.hooks) == 2                  # before and after every cell
    ns["check_value"] = lambda *a, **k: None
    Shell.input_transformers_cleanup.append(lambda lines: [])
    Shell.custom_exceptions = (AssertionError,)
    out = io.StringIO()
    saved_out, sys.stdout = sys.stdout, out
    try:
        Shell.events.hooks[1](None)
    finally:
        sys.stdout = saved_out
    assert ns["check_value"] is check_value
    assert Shell.input_transformers_cleanup == [] and Shell.custom_exceptions == ()
    assert "restored check_value" in out.getvalue()
    assert "input_transformers_cleanup" in out.getvalue()


def test_import_stays_light():
    """A grading kernel imports armlab.grading first: no matplotlib, nbgrader or widgets."""
    import subprocess
    code = ("import sys, armlab.grading; "
            "print(sorted(m for m in ('matplotlib', 'nbgrader', 'ipywidgets', 'nbformat') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert out.stderr == ""


# ---------------------------------------------------------------- the static scan
@pytest.mark.parametrize("source, finding", [
    ("np.allclose = lambda *a, **k: True", "assigns np.allclose"),
    ("import numpy.testing as npt\nnpt.assert_allclose = print", "assigns npt.assert_allclose"),
    ("import builtins\nbuiltins.abs = lambda x: 0", "assigns builtins.abs"),
    ("import sys, io\nsys.stderr = io.StringIO()", "assigns sys.stderr"),
    ("import armlab.grading\narmlab.grading.check_value = None", "assigns armlab.grading"),
    ("check_value = lambda *a, **k: None", "rebinds check_value"),
    ("def check_function(*a):\n    pass", "rebinds check_function"),
    ("check_value.__code__ = (lambda: 0).__code__", "__code__"),
    ("get_ipython().set_custom_exc((AssertionError,), print)", "get_ipython"),
    ("setattr(np, 'allclose', print)", "calls setattr"),
    ("globals()['check_value'] = print", "globals"),
    ("import sys\nsys.modules['armlab.grading'] = None", "sys.modules"),
    ("%config Application.log_level = 0", "%config"),
    ("import os\nos._exit(0)", "_exit"),
])
def test_scan_names_tampering(source, finding):
    found = scan_source(source)
    assert any(finding in msg for _, msg in found), found


def test_scan_is_quiet_on_the_solutions_answers():
    nb = json.loads((REPO / "solutions" / "statics" / "statics.ipynb").read_text())
    cells = []
    for c in nb["cells"]:
        if c["cell_type"] != "code":
            continue
        meta = c.get("metadata", {}).get("nbgrader", {})
        src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        cells.append((None if meta.get("locked") else c["id"], src))
    assert scan_cells(cells) == []
    assert scan_source("%timeit x = 1\nimport ipywidgets as w\nfrom IPython.display import display") == []


# ---------------------------------------------------------------- feedback
def test_feedback_hides_hidden_tests():
    from nbformat import from_dict
    cell = from_dict({
        "cell_type": "code", "metadata": {"nbgrader": {"grade": True, "grade_id": "t"}},
        "source": '"""Check"""\ncheck(a)\n### BEGIN HIDDEN TESTS\nsecret(42)\n### END HIDDEN TESTS',
        "outputs": [{"output_type": "error", "ename": "AssertionError", "evalue": "a is 1",
                     "traceback": ["---> 4 secret(42)", "AssertionError: a is 1"]}],
        "execution_count": 1})
    cell, _ = HideHiddenTests().preprocess_cell(cell, {}, 0)
    assert "secret" not in cell.source and "HIDDEN" not in cell.source
    assert cell.outputs[0].traceback == ["AssertionError: a is 1"]


def test_the_references_a_student_could_borrow_can_be_switched_off():
    """If a core function gains a decorator or a closure, it could no longer be
    switched off; this test says so before a student finds out."""
    blockable = {f.__name__ for f in checks._BLOCKABLE}
    assert {"jacobian", "static_torques", "tip_force_from_torques", "com_jacobians",
            "singular_values", "gravity_torques", "max_tip_force"} <= blockable
    assert "tip_position" not in blockable and "statics_arm" not in blockable


def test_a_table_of_answers_fails_the_unannounced_pose():
    """A function that looks up armlab's answers for the tests' poses, computed in advance."""
    table = {tuple(np.round(q, 12)): al.jacobian(ARM, q) for q in fresh_poses(6, seed=3)}

    def lookup(q):
        return table[tuple(np.round(q, 12))]

    with pytest.raises(AssertionError, match="not announced in advance"):
        check_function(lookup, "jacobian", fresh_poses(6, seed=3))
    assert any("fresh_poses" in msg for _, msg in scan_source("t = fresh_poses(6, seed=3)"))
