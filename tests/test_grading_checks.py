"""The checks in a student's own kernel: right answers pass, wrong ones fail with a
useful message (the messages the grader writes too, through armlab.grading.judge).

Nothing here defends the kernel against its student: grading never runs a check in
the student's process (see test_sandbox.py and test_hostile.py)."""

import math
import os
import pathlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

import armlab as al
from armlab.grading import check_choice, check_function, deg
from armlab.grading import cases
from armlab.grading.outputs import HideHiddenTests
from armlab.grading.purepy import fmt
from armlab.grading.references import lookup, quantities

ARM = al.statics_arm()
CASE_ARM = cases.Arm.from_arm(ARM, "the chapter's arm")
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
        f"statics.{n}" for n in ("joint_torques", "shoulder_worst", "holding_torques",
                                 "propped_reactions", "max_push", "force_error_along",
                                 "torques_for_reported_force",
                                 "press_pose", "wrench_torques"))
    with pytest.raises(LookupError, match="statics.joint_torques"):
        lookup("statics.joint_torqes")


# ---------------------------------------------------------------- honest answers
def test_honest_answers_print_one_line_each(capfd):
    """Each passing check prints one line on stdout, starting with a tick; nothing on stderr"""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for which in ("worked", "fresh"):
            check_function(good_jacobian, "kinematics.jacobian", which)
            check_function(good_torques, "statics.joint_torques", which)
        check_function(good_torques, "statics.joint_torques",
                       [cases.Case(arm=CASE_ARM, q=deg(30, 60), F=[10.0, 0.0],
                                   label="the arm at (30°, 60°)")])
        check_choice(" B ", "b", ["a", "b", "c"])
    out, err = capfd.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == 6 and all(line.startswith("\u2713 ") for line in lines), lines
    assert lines[0] == ("\u2713 good_jacobian(arm, q) gives the book's value at the wall pose "
                        "of Example 2")
    assert lines[2].startswith("\u2713 good_jacobian(arm, q) is right at all ")
    assert lines[4:] == ["\u2713 good_torques(arm, q, F) is right at all 1 cases checked",
                         "\u2713 your answer is right"]


def test_a_failed_check_shows_its_message_only_in_a_notebook():
    """In a real kernel a failed check's error output is its message, not a traceback"""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from armlab.grading import check_function"),
        nbformat.v4.new_code_cell("def jacobian(arm, q):\n    return [[0.0, 0.0], [0.9, 0.4]]"),
        nbformat.v4.new_code_cell('check_function(jacobian, "kinematics.jacobian", "worked")'),
    ])
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True).execute()
    (error,) = nb.cells[2].outputs
    assert error.output_type == "error" and error.ename == "CheckFailed"
    assert len(error.traceback) == 1
    text = error.traceback[0]
    assert text.startswith("\u2717 jacobian(arm, q) at the wall pose of Example 2")
    assert "File " not in text and "Traceback" not in text and "judge" not in text


def test_a_noisy_student_function_still_passes(capfd):
    """Prints and warnings inside the student's function are the student's own business."""
    def noisy(arm, q):
        print("debug", file=sys.stderr)
        warnings.warn("careful")
        np.float64(1.0) / np.float64(0.0)
        return good_jacobian(arm, q)
    check_function(noisy, "kinematics.jacobian", "fresh")
    out, _ = capfd.readouterr()
    assert out.splitlines()[-1] == "\u2713 noisy(arm, q) is right at all 7 cases checked"


# ---------------------------------------------------------------- messages
def test_visible_check_shows_the_book_value_and_the_hint():
    text = message(check_function, lambda arm, q, F: -good_torques(arm, q, F),
                   "statics.joint_torques", "worked", name="joint_torques")
    assert text == ("joint_torques(arm, q, F) at the wall push of Example 1 (q = (30°, 60°), "
                    "F = (10, 0) N on the chapter's arm) is (6.5, 4), the book's value is "
                    "(-6.5, -4): right size, wrong sign: F is the force the tip applies, so "
                    "the environment pushes the tip with -F and the motor at joint j holds the "
                    "moment of F itself, r x F = r_x F_y - r_y F_x, with r from joint j to the "
                    "tip, in that order (F x r, or minus r x F, is its opposite)")


def test_hidden_check_names_the_case_and_never_prints_the_expected_value():
    def off_by_a_bit(arm, q, F):
        return good_torques(arm, q, F) + 0.25
    text = message(check_function, off_by_a_bit, "statics.joint_torques", "fresh")
    ref = lookup("statics.joint_torques")
    case = ref.cases("fresh")[0]
    expected = ref.function(*ref.arguments(case))
    assert text.startswith(f"off_by_a_bit(arm, q, F) is wrong at {cases.describe(case, ref.params)}")
    assert fmt(expected) not in text
    assert all(fmt(x) not in text for x in expected)
    assert text.endswith(". tau = J(q)^T F, with F the force the tip applies")


def test_one_wrong_entry_gets_its_hint():
    def absolute(arm, q):
        return good_jacobian(arm, [q[0], q[1] - q[0]])
    text = message(check_function, absolute, "kinematics.jacobian", "fresh")
    assert text.endswith("link 2's direction is q1 + q2: q2 is measured from link 1")


def test_messages_fit_the_page():
    text = str(pytest.raises(AssertionError, check_function,
                             lambda arm, q: good_jacobian(arm, q).T,
                             "kinematics.jacobian", "fresh").value)
    assert max(len(line) for line in text.splitlines()) <= 88


def test_shape_and_type_messages():
    assert "has shape (2,), expected (2, 2)" in message(
        check_function, lambda arm, q: np.zeros(2), "kinematics.jacobian")
    assert "raised ZeroDivisionError" in message(
        check_function, lambda arm, q: 1 / 0, "kinematics.jacobian")
    assert "not a function" in message(check_function, 3.0, "kinematics.jacobian")
    assert "contains nan" in message(check_function, lambda arm, q, direction, limit: np.nan,
                                     "statics.max_push", [cases.Case(
                                         arm=CASE_ARM, q=deg(0, 30), direction=[1.0, 0.0],
                                         limit=20.0, label="a push")])


def test_force_error_at_a_singular_pose():
    """At a singular pose the reference once said ZeroDivisionError; now it is
    unbounded, an infinite answer passes, and the hint follows the case's torque error."""
    def singular(label="the stretched arm", q=deg(0, 0), dtau=0.5):
        return [cases.Case(arm=CASE_ARM, q=q, dtau=dtau, direction=[0.0, 1.0], label=label)]

    check_function(lambda arm, q, dtau, direction: np.inf, "statics.force_error_along",
                   singular())
    text = message(check_function, lambda arm, q, dtau, direction: 37.0,
                   "statics.force_error_along", singular(), name="bound")
    assert text.startswith("bound(arm, q, dtau, direction) is wrong at the stretched arm "
                           "(q = (0°, 0°), dtau = 0.5 N m, direction = (0, 1) on the chapter's "
                           "arm): yours is 37.")

    check = lookup("statics.force_error_along")
    ball = float(2.0 * np.linalg.norm(np.linalg.solve(al.jacobian(ARM, deg(0, 60)), [0, 1])))
    text = message(check_function, lambda arm, q, dtau, direction: ball,
                   "statics.force_error_along", singular("a bent arm", deg(0, 60), 2.0))
    assert "over a disc of torque errors" in text and "0.5" not in text
    assert check.mistakes[1][1] in " ".join(text.split())


# ---------------------------------------------------------------- armlab switched off
OFF = ("armlab.{} is not available while this part is checked: the part asks you to compute "
       "it yourself")


def test_calling_armlab_earns_nothing_here_and_armlab_comes_back():
    """In a student's kernel, al.<function> of the answer fails its check as it will when
    graded (where the sandbox's armlab does not hold it at all), and works afterwards."""
    def borrowed(arm, q):
        return al.jacobian(arm, q)

    def borrowed_torques(arm, q, F):
        return al.static_torques(arm, q, F)

    assert OFF.format("jacobian") in message(check_function, borrowed, "kinematics.jacobian")
    assert OFF.format("static_torques") in message(check_function, borrowed_torques,
                                                   "statics.joint_torques")
    np.testing.assert_allclose(al.static_torques(ARM, deg(30, 60), [10, 0]), [-6.5, -4.0])


def test_an_allowed_function_works():
    def from_positions(arm, q):
        p = al.joint_positions(arm, q)
        tip = p[-1]
        cols = [[-(tip - p[j])[1], (tip - p[j])[0]] for j in range(2)]
        return np.array(cols).T
    check_function(from_positions, "kinematics.jacobian", "fresh")


# ---------------------------------------------------------------- no cascades
def test_a_later_part_is_checked_with_the_reference_in_place():
    """holding_torques calls the notebook's joint_torques; a wrong one there costs nothing."""
    namespace = {"np": np, "al": al}
    exec("def joint_torques(arm, q, F):\n    return np.zeros(2)\n"
         "def holding_torques(arm, q, F):\n"
         "    return joint_torques(arm, q, F) + al.gravity_torques(arm, q)\n", namespace)
    check_function(namespace["holding_torques"], "statics.holding_torques", "fresh")
    assert namespace["joint_torques"](ARM, [0, 0], [1, 0]).tolist() == [0.0, 0.0]


# ---------------------------------------------------------------- fresh cases
def test_fresh_cases_repeat_per_key_and_differ_between_students():
    ref = lookup("kinematics.jacobian")
    a1 = [repr(c) for c in ref.cases("fresh", key=cases.student_key("s3cret", "ann"))]
    a2 = [repr(c) for c in ref.cases("fresh", key=cases.student_key("s3cret", "ann"))]
    b = [repr(c) for c in ref.cases("fresh", key=cases.student_key("s3cret", "bob"))]
    default = [repr(c) for c in ref.cases("fresh", key="")]
    assert a1 == a2 and a1 != b and a1 != default
    assert cases.student_key("s3cret", "ann") != cases.student_key("other", "ann")


def test_an_instructor_can_try_a_students_cases():
    key = cases.student_key("s3cret", "ann")
    env = dict(os.environ, ARMLAB_CASE_KEY=key, PYTHONPATH=str(REPO))
    code = "import armlab.grading.cases as c; print(c.case_key())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == key


def test_fresh_cases_are_round_numbers_that_their_words_give_back():
    ref = lookup("statics.holding_torques")
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
        check_function(lambda arm, q, F: answer, "statics.joint_torques")


def test_import_stays_light():
    """A grading kernel imports armlab.grading first: no matplotlib, nbgrader or widgets."""
    code = ("import sys, armlab.grading; "
            "print(sorted(m for m in ('matplotlib', 'nbgrader', 'ipywidgets', 'nbformat') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert out.stdout.strip() == "[]"
    assert out.stderr == ""


# ---------------------------------------------------------------- feedback
def test_feedback_hides_hidden_tests():
    from nbformat import from_dict
    cell = from_dict({
        "cell_type": "code", "metadata": {"nbgrader": {"grade": True, "grade_id": "t"}},
        "source": '"""Check"""\ncheck(a)\n### BEGIN HIDDEN TESTS\nsecret(42)\n### END HIDDEN TESTS',
        "outputs": [], "execution_count": 1})
    cell, _ = HideHiddenTests().preprocess_cell(cell, {}, 0)
    assert "secret" not in cell.source and "HIDDEN" not in cell.source
    assert cell.source.endswith("# (hidden tests run here; their source is not shown)")
