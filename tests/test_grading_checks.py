"""The grading checks, in-process: right answers pass, wrong ones fail with a
useful message, and the tricks an answer cell can play on the kernel do not
turn a wrong answer into a pass."""

import builtins
import io
import json
import math
import os
import pathlib
import subprocess
import sys
import types
import warnings

import numpy as np
import pytest

import armlab as al
import armlab.grading as grading
import armlab.kinematics as kinematics
from armlab.grading import check_choice, check_function, check_shape, check_value, deg
from armlab.grading import cases, checks, messages, sandbox
from armlab.grading.preprocessors import HideHiddenTests
from armlab.grading.references import lookup, quantities
from armlab.grading.scan import scan_cells, scan_source

ARM = al.statics_arm()
REPO = pathlib.Path(__file__).resolve().parents[1]


def good_jacobian(arm, q):
    l1, l2 = arm.lengths
    a, b = q[0], q[0] + q[1]
    return np.array([[-l1 * np.sin(a) - l2 * np.sin(b), -l2 * np.sin(b)],
                     [l1 * np.cos(a) + l2 * np.cos(b), l2 * np.cos(b)]])


def good_torques(arm, q, F):
    return good_jacobian(arm, q).T @ np.asarray(F, dtype=float)


def message(fn, *args, **kwargs):
    """The AssertionError message of a failing check, with its line breaks folded."""
    with pytest.raises(AssertionError) as info:
        fn(*args, **kwargs)
    return " ".join(str(info.value).split())


# ---------------------------------------------------------------- the registry
def test_statics_references_are_registered():
    assert quantities("statics") == sorted(
        f"statics.{n}" for n in ("jacobian", "joint_torques", "gravity_torques",
                                 "holding_torques", "max_push", "force_error_bound",
                                 "torques_for_reported_force"))
    with pytest.raises(LookupError, match="statics.jacobian"):
        lookup("statics.jacobain")


def test_a_references_module_may_not_hold_numpy(tmp_path, monkeypatch):
    """A chapter's module that imports numpy is refused when it loads."""
    from armlab.grading import references
    path = tmp_path / "zz_test_numpy.py"
    path.write_text("import numpy as np\n")
    with pytest.raises(ImportError, match="may hold only functions and data"):
        references._load("zz_test_numpy", path)
    assert "armlab.grading.references.zz_test_numpy" not in sys.modules


# ---------------------------------------------------------------- honest answers
def test_honest_answers_print_one_line_each(capfd):
    """Each passing check prints one line on stdout, starting with a tick; nothing on stderr"""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for which in ("worked", "fresh"):
            check_function(good_jacobian, "statics.jacobian", which)
            check_function(good_torques, "statics.joint_torques", which)
        check_value(al.gravity_torques(ARM, deg(30, 60)), "statics.gravity_torques", ARM,
                    deg(30, 60))
        check_shape(np.zeros(2), (2,))
        check_choice(" B ", "b", ["a", "b", "c"])
    out, err = capfd.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == 7 and all(line.startswith("\u2713 ") for line in lines), lines
    assert lines[0] == ("\u2713 good_jacobian(arm, q) gives the book's value at the wall pose "
                        "of Example 1")
    assert lines[2].startswith("\u2713 good_jacobian(arm, q) is right at all ")
    assert lines[4:] == ["\u2713 your answer is right", "\u2713 your answer has the shape (2,)",
                         "\u2713 your answer is right"]


def test_a_failed_check_shows_its_message_only_in_a_notebook():
    """In a real kernel a failed check's error output is its message, not a traceback"""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from armlab.grading import check_function"),
        nbformat.v4.new_code_cell("def jacobian(arm, q):\n    return [[0.0, 0.0], [0.9, 0.4]]"),
        nbformat.v4.new_code_cell('check_function(jacobian, "statics.jacobian", "worked")'),
    ])
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True).execute()
    (error,) = nb.cells[2].outputs
    assert error.output_type == "error" and error.ename == "CheckFailed"
    assert len(error.traceback) == 1
    text = error.traceback[0]
    assert text.startswith("\u2717 jacobian(arm, q) at the wall pose of Example 1")
    assert "File " not in text and "Traceback" not in text and "sandbox" not in text


def test_noisy_student_function_puts_nothing_on_stderr(capfd):
    """Warnings and prints inside the student's function stay inside the check."""
    def noisy(arm, q):
        print("debug", file=sys.stderr)
        warnings.warn("careful")
        np.float64(1.0) / np.float64(0.0)
        return good_jacobian(arm, q)
    check_function(noisy, "statics.jacobian", "fresh")
    out, err = capfd.readouterr()
    assert err == "" and out == "\u2713 noisy(arm, q) is right at all 9 cases checked\n"


# ---------------------------------------------------------------- messages
def test_visible_check_shows_the_book_value_and_the_hint():
    text = message(check_function, lambda arm, q, F: -good_torques(arm, q, F),
                   "statics.joint_torques", "worked", name="joint_torques")
    assert text == ("joint_torques(arm, q, F) at the wall push of Example 1 (q = (30°, 60°), "
                    "F = (10, 0) N on the chapter's arm) is (6.5, 4), the book's value is "
                    "(-6.5, -4): right size, wrong sign: is F the force on the arm or by the "
                    "arm? Here F is the force the tip applies to the environment")


def test_hidden_check_names_the_case_and_never_prints_the_expected_value():
    def off_by_a_bit(arm, q, F):
        return good_torques(arm, q, F) + 0.25
    text = message(check_function, off_by_a_bit, "statics.joint_torques", "fresh")
    ref = lookup("statics.joint_torques")
    case = ref.cases("fresh")[0]
    expected = ref.function(*ref.arguments(case))
    assert text.startswith(f"off_by_a_bit(arm, q, F) is wrong at {cases.describe(case, ref.params)}")
    assert checks._fmt(expected) not in text
    assert all(checks._fmt(x) not in text for x in expected)
    assert text.endswith(". tau = J(q)^T F, with F the force the tip applies")


def test_one_wrong_entry_gets_its_hint():
    def absolute(arm, q):
        return good_jacobian(arm, [q[0], q[1] - q[0]])
    text = message(check_function, absolute, "statics.jacobian", "fresh")
    assert text.endswith("link 2's direction is q1 + q2: q2 is measured from link 1, not from "
                         "the x axis")


def test_messages_fit_the_page():
    text = str(pytest.raises(AssertionError, check_function,
                             lambda arm, q: good_jacobian(arm, q).T,
                             "statics.jacobian", "fresh").value)
    assert max(len(line) for line in text.splitlines()) <= 88


def test_shape_and_type_messages():
    assert "has shape (2,), expected (2, 2)" in message(
        check_function, lambda arm, q: np.zeros(2), "statics.jacobian")
    assert "raised ZeroDivisionError" in message(
        check_function, lambda arm, q: 1 / 0, "statics.jacobian")
    assert "not a function" in message(check_function, 3.0, "statics.jacobian")
    assert "contains nan" in message(check_value, float("nan"), "statics.max_push", ARM,
                                     deg(0, 30), [1.0, 0.0], 20.0)


def test_force_error_bound_at_a_singular_pose():
    """Issue 8: at a singular pose the reference said ZeroDivisionError; now it is
    unbounded, an infinite answer passes, and the hint follows the case's torque error."""
    check_value(np.inf, "statics.force_error_bound", ARM, deg(0, 0), 0.5)
    text = message(check_value, 37.0, "statics.force_error_bound", ARM, deg(0, 0), 0.5)
    assert text.startswith("your answer is 37, which is not right")

    def weakest_only(arm, q, dtau):
        return dtau / al.singular_values(arm, q)[-1]
    check = lookup("statics.force_error_bound")
    sigma2 = float(al.singular_values(ARM, deg(0, 60))[-1])
    text = message(check_value, 2.0 / sigma2, "statics.force_error_bound", ARM, deg(0, 60), 2.0)
    assert "weakest direction only" in text and "0.5" not in text
    assert check.mistakes[0][1] in " ".join(text.split())


# ---------------------------------------------------------------- armlab switched off
def test_calling_armlab_earns_nothing_and_armlab_comes_back():
    def borrowed(arm, q, _ref=al.jacobian):                 # alias in a default argument
        return _ref(arm, q)

    def borrowed_torques(arm, q, F):
        return al.statics.static_torques(arm, q, F)

    assert messages.switched_off("jacobian") in message(check_function, borrowed,
                                                        "statics.jacobian")
    assert messages.switched_off("static_torques") in message(
        check_function, borrowed_torques, "statics.joint_torques")
    np.testing.assert_allclose(al.static_torques(ARM, deg(30, 60), [10, 0]), [-6.5, -4.0])
    assert al.jacobian(ARM, [0.0, 0.0]).tolist() == [[0.0, 0.0], [0.9, 0.4]]


def test_swallowing_the_switch_does_not_help():
    def sly(arm, q):
        try:
            return al.jacobian(arm, q)
        except BaseException:                              # noqa: BLE001
            return good_jacobian(arm, q)
    assert "armlab.jacobian is switched off" in message(check_function, sly, "statics.jacobian")


def test_the_references_are_switched_off_too():
    from armlab.grading.references import statics

    def borrowed(arm, q):
        return statics.jacobian(cases.ArmData.from_arm(arm), list(q))
    assert "switched off" in message(check_function, borrowed, "statics.jacobian")


def test_an_allowed_function_works_whatever_it_calls():
    """jacobian allows tip_position: it works although its private helpers are off."""
    def via_tip(arm, q):
        p = al.joint_positions(arm, q)
        tip = al.tip_position(arm, q)
        return np.stack([[-(tip[1] - p[j][1]), tip[0] - p[j][0]] for j in range(2)], axis=1)
    check_function(via_tip, "statics.jacobian", "fresh")


def test_renaming_a_private_helper_flags_nobody(monkeypatch):
    """Issue 8: the switch listed armlab's private names, so renaming kinematics._frames
    made an allowed al.tip_position fail. Now nothing lists them: load kinematics with
    the helper renamed and check an honest answer that uses tip_position."""
    source = pathlib.Path(kinematics.__file__).read_text()
    assert "_frames" in source
    renamed = types.ModuleType("armlab.kinematics")
    renamed.__file__ = kinematics.__file__
    exec(compile(source.replace("_frames", "_frame_data"), kinematics.__file__, "exec"),
         renamed.__dict__)
    monkeypatch.setitem(sys.modules, "armlab.kinematics", renamed)
    monkeypatch.setattr(al, "tip_position", renamed.tip_position)
    monkeypatch.setattr(al, "joint_positions", renamed.joint_positions)
    assert "_frame_data" in [n.split(":")[1] for n in sandbox.SWITCH.names()
                             if n.startswith("armlab.kinematics:")]

    def via_tip(arm, q):
        p = al.joint_positions(arm, q)
        tip = al.tip_position(arm, q)
        return np.stack([[-(tip[1] - p[j][1]), tip[0] - p[j][0]] for j in range(2)], axis=1)
    check_function(via_tip, "statics.jacobian", "fresh")


def test_every_public_armlab_function_can_be_switched_off():
    """If a function gains a decorator or a closure it could no longer be switched off;
    this says so before a student finds out."""
    names = set(sandbox.SWITCH.names())
    for name in al.__all__:
        obj = getattr(al, name)
        if isinstance(obj, types.FunctionType) and obj.__module__ != "armlab.arm":
            assert f"{obj.__module__}:{obj.__qualname__}" in names, name
    assert "armlab.grading.references.statics:jacobian" not in names      # an object, but
    assert any(n.startswith("armlab.grading.references.statics:") for n in names)


# ---------------------------------------------------------------- no cascades
def test_a_later_part_is_checked_with_the_reference_in_place():
    """holding_torques calls the notebook's joint_torques; a wrong one there costs nothing."""
    namespace = {"np": np}
    exec("def joint_torques(arm, q, F):\n    return np.zeros(2)\n"
         "def gravity_torques(arm, q):\n    return np.ones(2)\n"
         "def holding_torques(arm, q, F):\n"
         "    return joint_torques(arm, q, F) + gravity_torques(arm, q)\n", namespace)
    check_function(namespace["holding_torques"], "statics.holding_torques", "fresh")
    assert namespace["joint_torques"](ARM, [0, 0], [1, 0]).tolist() == [0.0, 0.0]


# ---------------------------------------------------------------- fresh cases
def test_fresh_cases_repeat_per_key_and_differ_between_students():
    ref = lookup("statics.jacobian")
    a1 = [repr(c) for c in ref.cases("fresh", key=cases.student_key("s3cret", "ann"))]
    a2 = [repr(c) for c in ref.cases("fresh", key=cases.student_key("s3cret", "ann"))]
    b = [repr(c) for c in ref.cases("fresh", key=cases.student_key("s3cret", "bob"))]
    default = [repr(c) for c in ref.cases("fresh", key="")]
    assert a1 == a2 and a1 != b and a1 != default
    assert cases.student_key("s3cret", "ann") != cases.student_key("other", "ann")


def test_the_kernel_reads_its_key_file_and_deletes_it(tmp_path):
    key = tmp_path / "k"
    key.write_text("abc123")
    env = dict(os.environ, ARMLAB_CASE_KEY_FILE=str(key), PYTHONPATH=str(REPO))
    code = ("import os, armlab.grading.cases as c; "
            "print(c.case_key(), 'ARMLAB_CASE_KEY_FILE' in os.environ)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["abc123", "False"]
    assert not key.exists()


def test_fresh_cases_are_round_numbers_that_their_words_give_back():
    ref = lookup("statics.gravity_torques")
    for case in ref.cases("fresh", key="x"):
        q = case.args["q"]
        assert all(abs(a * 180 / math.pi - round(a * 180 / math.pi)) < 1e-9 for a in q)
        arm = case.args["arm"]
        assert all(abs(L * 20 - round(L * 20)) < 1e-9 for L in arm.lengths)


# ---------------------------------------------------------------- tricks
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
        check_value(answer, "statics.gravity_torques", ARM, deg(30, 60))
    with pytest.raises(AssertionError):
        check_function(lambda arm, q: answer, "statics.gravity_torques")


def test_patched_numpy_math_builtins_change_nothing(monkeypatch):
    monkeypatch.setattr(np, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(np, "isclose", lambda *a, **k: True)
    monkeypatch.setattr(np.testing, "assert_allclose", lambda *a, **k: None)
    monkeypatch.setattr(math, "isclose", lambda *a, **k: True)
    monkeypatch.setattr(math, "sin", lambda x: 0.0)
    # builtins are patched by hand, and only around the checks: pytest itself needs them
    saved = builtins.abs, builtins.isinstance, builtins.float, builtins.zip
    outcomes = []
    builtins.abs, builtins.isinstance = (lambda x: 0.0), (lambda *a: True)
    builtins.float, builtins.zip = (lambda *a: 100.0), (lambda *a: [])
    try:
        for answer in (99.0, 100.0):
            try:
                check_value(answer, "statics.max_push", ARM, deg(0, 30), [1.0, 0.0], 20.0)
                outcomes.append("pass")
            except AssertionError as exc:
                outcomes.append(str(exc).split(",")[0])
    finally:
        builtins.abs, builtins.isinstance, builtins.float, builtins.zip = saved
    assert outcomes == ["your answer is 99", "pass"]


def test_patching_the_checks_module_is_refused():
    with pytest.raises(AttributeError, match="read-only"):
        grading.check_value = lambda *a, **k: None
    with pytest.raises(AttributeError, match="read-only"):
        checks.check_value = lambda *a, **k: None
    with pytest.raises(AttributeError, match="read-only"):
        checks._close = lambda *a, **k: True
    with pytest.raises(AttributeError, match="read-only"):
        del checks._judge
    ref = lookup("statics.jacobian")
    with pytest.raises(AttributeError, match="read-only"):
        ref.function = lambda arm, q: None


def test_checks_run_on_their_own_globals(monkeypatch):
    """Even a change made through the module's __dict__ does not reach the checks."""
    monkeypatch.setitem(checks.__dict__, "_close", lambda *a, **k: True)
    monkeypatch.setitem(checks.__dict__, "_judge", lambda *a, **k: None)
    with pytest.raises(AssertionError):
        check_value(1.0, "statics.max_push", ARM, deg(0, 30), [1.0, 0.0], 20.0)
    with pytest.raises(AssertionError):
        check_function(lambda arm, q: np.zeros((2, 2)), "statics.jacobian")


def test_a_rewritten_check_is_put_back_before_it_runs():
    """Issue 9: a check whose __code__, defaults or globals were rewritten would have
    passed anything; the seal puts them back (protect runs it before every cell)."""
    saved = check_function.__code__
    check_function.__code__ = (lambda *a, **k: None).__code__
    checks._judge.__globals__["_close"] = lambda *a, **k: True
    sandbox.plain.__defaults__ = ("x", 99, None)
    assert sorted(sandbox.verify()) == sorted([
        "the code of check_function", "the names of armlab.grading.checks",
        "the defaults of plain"])
    assert check_function.__code__ is saved
    with pytest.raises(AssertionError):
        check_function(lambda arm, q: np.zeros((2, 2)), "statics.jacobian")
    assert sandbox.verify() == []


def test_tampering_from_inside_the_checked_function_fails_the_check():
    def sneaky(arm, q):
        check_function.__globals__["_judge"] = lambda *a, **k: None
        return np.zeros((2, 2))
    text = message(check_function, sneaky, "statics.jacobian")
    assert messages.TAMPERED in text
    assert sandbox.verify() == []


def test_protect_puts_names_and_code_back():
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
    code = check_value.__code__
    check_value.__code__ = (lambda *a, **k: None).__code__
    out = io.StringIO()
    saved_out, sys.stdout = sys.stdout, out
    try:
        Shell.events.hooks[0](None)
    finally:
        sys.stdout = saved_out
    assert ns["check_value"] is check_value and check_value.__code__ is code
    assert Shell.input_transformers_cleanup == [] and Shell.custom_exceptions == ()
    notes = messages.notes(out.getvalue())
    assert "restored check_value: an earlier cell replaced it" in notes
    assert "restored the code of check_value: an earlier cell changed it" in notes
    assert "restored IPython's input_transformers_cleanup" in notes


def test_import_stays_light():
    """A grading kernel imports armlab.grading first: no matplotlib, nbgrader or widgets."""
    code = ("import sys, armlab.grading; "
            "print(sorted(m for m in ('matplotlib', 'nbgrader', 'ipywidgets', 'nbformat') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=str(REPO)))
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
    ("from armlab.grading.references import statics", "imports statics"),
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
    assert scan_source("%timeit x = 1\nimport ipywidgets as w\n"
                       "from IPython.display import display") == []


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


def test_messages_round_trip():
    """What the checks write is what the autograder reads."""
    text = message(check_function, lambda arm, q: al.jacobian(arm, q), "statics.jacobian")
    assert messages.switched_off_name(text) == "jacobian"
    assert messages.notes(messages.note("restored x") + "other\n") == ["restored x"]
    assert messages.REFUSED_TYPE in message(check_shape, "3", ())


def test_a_plain_import_of_another_chapters_references_is_refused(tmp_path):
    """One chapter reusing another's helpers must go through the registry (chapter()):
    a plain import would leave that module unsandboxed with its references open."""
    import shutil

    shutil.copytree(REPO / "armlab", tmp_path / "armlab",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "armlab/grading/references/aaa_reuses.py").write_text(
        "from armlab.grading.references.statics import points  # noqa: F401\n")
    out = subprocess.run([sys.executable, "-c", "import armlab.grading"], cwd=tmp_path,
                         capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert out.returncode == 1
    assert out.stderr.strip().splitlines()[-1].startswith(
        "ImportError: armlab.grading.references.statics was imported with a plain import")
    (tmp_path / "armlab/grading/references/aaa_reuses.py").write_text(
        "from armlab.grading.references import chapter\n"
        "points = chapter('statics').points\n")
    ok = subprocess.run([sys.executable, "-c", "import armlab.grading"], cwd=tmp_path,
                        capture_output=True, text=True,
                        env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert ok.returncode == 0, ok.stderr
