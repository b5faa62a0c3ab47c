"""A trial class, graded: the answers that were marked unfairly or told unclearly, kept fixed.

Each exercise set was graded as a real class (tests/submissions/classes.py keeps the
answers that exposed a problem). The checks run in-process here, on the default fresh
cases, with the messages the grader writes from a sandbox's records (both go through
armlab.grading.judge); one slow test grades a small class with the real nbgrader, for what only a round shows (the
report, the points of split cells, the feedback pages), and one opens a page in Chromium.
"""

import csv
import importlib.util
import json
import pathlib
import re
import zipfile

import numpy as np
import pytest

import armlab as al
from armlab.grading import check_function, judge, lms
from armlab.grading.references import lookup
from exercise_sets import ExerciseSet

HERE = pathlib.Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("classes", HERE / "submissions" / "classes.py")
classes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(classes)


def function(chapter, source, cell):
    """The function an answer cell defines, run as in the notebook (np, al in scope)."""
    name, quantity = ExerciseSet(chapter).checked_functions()[cell]
    namespace = {"np": np, "al": al}
    exec(compile(source, f"<{cell}>", "exec"), namespace)
    return namespace[name], quantity


def outcome(chapter, student, cell, cases):
    """``"pass"`` or the failed check's message, its lines joined."""
    func, quantity = function(chapter, classes.answer(chapter, student, cell), cell)
    try:
        check_function(func, quantity, cases)
    except AssertionError as exc:
        return " ".join(str(exc).split())
    return "pass"


# ---------------------------------------------------------------- marks
def test_an_answer_for_two_links_keeps_the_two_link_points():
    """A part that asks for any number of links checks three links in a cell of its own,
    whose message names the case in words (it was a bare 'raised ValueError')"""
    assert outcome("kinematics", "obrien_sean", "jacobian_answer", "worked") == "pass"
    assert outcome("kinematics", "obrien_sean", "jacobian_answer", "fresh") == "pass"
    text = outcome("kinematics", "obrien_sean", "jacobian_answer", "three links")
    assert text.startswith("jacobian(arm, q) at an arm with three links (q = (")
    assert text.endswith("raised ValueError: too many values to unpack (expected 2)")
    points = {c["metadata"]["nbgrader"]["grade_id"]: c["metadata"]["nbgrader"]["points"]
              for c in ExerciseSet("kinematics").source()["cells"]
              if c["metadata"].get("nbgrader", {}).get("grade")}
    assert [points[f"test_jacobian_{p}"] for p in ("worked", "fresh", "three")] == [1, 1, 1]


def test_a_forgotten_special_case_costs_its_own_cell():
    """A push the structure carries is checked in a cell of its own, with a push across the
    stretched arm beside it: forgetting it keeps the ordinary pushes' points (it lost all
    three hidden points), and np.inf alone earns nothing there"""
    assert outcome("statics", "johansson_erik", "push_answer", "fresh") == "pass"
    text = outcome("statics", "johansson_erik", "push_answer", "no torque needed")
    assert text == ("max_push(arm, q, direction, limit) at the stretched pose, pushing along "
                    "the arm (q = (0°, 0°), direction = (1, 0), limit = 30 N m on the chapter's "
                    "arm) raised ZeroDivisionError: float division by zero")
    for quantity, cases in [("statics.max_push", "no torque needed"),
                            ("statics.force_error_along", "singular"),
                            ("limits.heaviest_payload", "too fast"),
                            ("limits.payload_capacity", "no load")]:
        ref = lookup(quantity)
        shape = np.shape(ref.function(*ref.arguments(ref.cases(cases)[0])))

        def always_inf(*args, _shape=shape):
            return np.full(_shape, np.inf)

        with pytest.raises(AssertionError, match="is wrong at"):
            check_function(always_inf, quantity, cases)


@pytest.mark.parametrize("chapter, student, cell", [
    ("kinematics", "lee_min_jun", "jacobian_answer"),     # np.matrix (2, 2)
    ("kinematics", "lee_min_jun", "speeds_answer"),       # np.matrix (2, 1) for (2,)
    ("gravity", "nkechi_okafor", "lift_answer"),          # np.matrix (1, 1) for a number
    ("gravity", "nkechi_okafor", "payload_answer"),       # an array (1,) for a number
    ("limits", "sofia_ivanova", "capacity_answer"),       # a tuple holding inf
    ("control", "johnson_emily_rose", "stiff_answer"),    # np.matrix (1, 1) for a number
])
def test_numpy_written_another_way_earns_the_points(chapter, student, cell):
    """np.matrix and a column or one-element array hold the right numbers: they pass, where
    they were refused as 'a matrix' or failed on their shape"""
    assert outcome(chapter, student, cell, "worked") == "pass"
    assert outcome(chapter, student, cell, "fresh") == "pass"


@pytest.mark.parametrize("chapter, student, cell, place", [
    ("gravity", "tomas_o_connor", "payload_answer", "two runs of 8 poses on the Moon"),
    ("limits", "pedro_alvarez", "capacity_answer", "an arm mounted on a wall"),
])
def test_typed_in_gravity_is_caught(chapter, student, cell, place):
    """An answer that types in 9.81 m/s² along -y fails the hidden check at a case the part
    warns about (every hidden case had the floor's gravity, so it scored full marks)"""
    assert outcome(chapter, student, cell, "worked") == "pass"
    assert f"is wrong at {place}" in outcome(chapter, student, cell, "fresh")


# ---------------------------------------------------------------- what the feedback says
@pytest.mark.parametrize("chapter, student, cell, hint", [
    ("statics", "mueller_jonas", "gravity_answer",
     "link 2's weight acts on the lever from the shoulder to link 2's centre of mass"),
    ("inverse_dynamics", "k_nakamura", "acceleration_answer", "the arm is moving"),
    ("forward_dynamics", "diallo_moussa", "acceleration_answer",
     "solve the system with M (np.linalg.solve), do not multiply by M"),
    ("control", "gupta_rohan", "computed_torque_answer", "the angle error is in degrees"),
    ("control", "fischer_max", "stiff_answer", "not by the real arm's"),
    ("gravity", "tomas_o_connor", "payload_answer", "the arm's gravity need not be 9.81 m/s²"),
    ("inverse_dynamics", "l_chen", "base_answer", "the right numbers with their fractions cut "
                                                  "off: an array made from whole numbers"),
    ("limits", "sofia_ivanova", "friction_answer", "the right numbers with their fractions "
                                                   "cut off"),
])
def test_a_mistake_of_the_class_gets_its_hint_at_the_hidden_cases(chapter, student, cell, hint):
    """Mistakes the seeded ones did not foresee get a hint of their own (they got only the
    general advice, or none)"""
    assert hint in outcome(chapter, student, cell, "fresh")


def test_typed_numbers_are_told_apart_from_the_books():
    """The visible check shows the digits where a typed-in number differs from the book's
    (it said 'yours is (0.433, 0.65), the book's value is (0.433, 0.65)'), and says so
    without blaming anyone"""
    text = outcome("kinematics", "kowalski_piotr", "mounted_answer", "worked")
    assert text == ("mounted_tip(arm, q, base, theta) at the wall pose of Example 1 on a base "
                    "at (0.2, 0.1) m turned by 90° (q = (30°, 60°), base = (0.2, 0.1) m, "
                    "theta = 90° on the chapter's arm) is (-0.45, 0.533), the book's value is "
                    "(-0.45, 0.53301): close, but not within the check's tolerance: is a number "
                    "rounded, or a step or an iteration too coarse?")


def test_a_run_of_measurements_is_named_by_its_size():
    """The fit's messages listed all 20 poses and torques (the gravity author's report)"""
    text = outcome("gravity", "ana_maria_perez", "fit_answer", "worked")
    assert text.startswith("fit_gravity_parameters(q, tau) at the chapter's empty run of 20 "
                           "poses (q = 20×2 angles, tau = 20×2 values [N m]) is ")
    hidden = outcome("gravity", "ana_maria_perez", "fit_answer", "fresh")
    assert re.match(r"fit_gravity_parameters\(q, tau\) is wrong at a run of \d+ poses of the "
                    r"chapter's arm, with noise of up to 0\.05 N m \(q = \d+×2 angles, tau = "
                    r"\d+×2 values \[N m\]\): yours is \(5\.8913, 1\.2324\)\. ", hidden)
    assert len(hidden) < 400


def test_angles_a_function_returns_are_shown_in_degrees():
    """A pose's message shows degrees, as the try cell prints them (gravity's sag showed
    radians)"""
    text = outcome("kinematics", "kowalski_piotr", "nearest_answer", "worked")
    assert "is (82.66°, -60°), the book's value is (82.659°, -60°)" in text


def test_advice_keeps_its_symbols():
    """A symbol that opens the advice keeps its case ('Qd_new = ...' was written)"""
    text = outcome("forward_dynamics", "silva_joao", "failure_answer", "fresh")
    assert text.endswith(". tau = g(q) held the arm: what is left of it when one motor stops, "
                         "and how do the joints' accelerations at rest move the tip?")
    text = outcome("inverse_dynamics", "m_rossi", "base_answer", "fresh")   # a word does start
    assert ". Outwards: each link's angular and linear accelerations" in text


def test_an_unfinished_answer_is_told_so():
    """`pass` (None) and the release's stub say what to do; None is no 'refused type' (a row
    of the report's tampering kinds)"""
    text = outcome("statics", "ahmed_fatima", "gravity_answer", "worked")
    assert text.endswith("is None: is the return statement missing, or does a branch of the "
                         "function end without one?")
    assert "expected a float, an int" not in text
    stub = next("".join(c["source"]) for c in ExerciseSet("statics").release()["cells"]
                if c["metadata"].get("nbgrader", {}).get("grade_id") == "push_answer")
    func, quantity = function("statics", stub, "push_answer")
    with pytest.raises(AssertionError) as info:
        check_function(func, quantity, "fresh")
    assert " ".join(str(info.value).split()) == (
        "max_push(arm, q, direction, limit) is not written yet: it still raises "
        "NotImplementedError (put your code in place of the line raise NotImplementedError())")


def test_small_numbers_keep_four_significant_digits():
    """A motor's damping of 2e-5 N m s/rad was described as 0 (and 8e-5 as 0.0001): the
    words give the case's numbers back"""
    from armlab.grading.cases import describe

    ref = lookup("limits.joint_friction")
    for case in ref.cases("fresh") + ref.cases("fresh", key="another student"):
        damping = case.args["arm"].damping
        words = describe(case, ref.params, dict(ref.units))
        found = re.search(r"damping \(([^)]*)\) N m s/rad", words)
        if any(damping) and case.args["arm"].label is None:     # named by its numbers
            shown = [float(x) for x in found.group(1).split(", ")]
            assert shown == pytest.approx(damping, rel=1e-3), words


def test_passing_lines_fit_the_page(capsys):
    """A passing check's line names its case by its label and is broken to fit the page (the
    feedback page scrolled sideways)"""
    def law(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd):
        wanted = qdd_plan + kp * (q_plan - q) + kd * (qd_plan - qd)
        return al.inverse_dynamics(arm, q, qd, wanted)

    check_function(law, "control.computed_torque_law", "worked")
    out = capsys.readouterr().out
    assert out == ("\u2713 law(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd) gives the book's "
                   "value at the first\ntick of the chapter's check, 2° off the start pose with "
                   "an exact model\n")


# ---------------------------------------------------------------- the export
def test_blackboard_usernames_with_underscores_without_receipts():
    """Without the .txt receipts, 's_hernandez' became 'hernandez' and 'j_smith_2' became '2'
    (two students with one surname would have been one); the words all names share are the
    assignment's"""
    names = [f"inverse_dynamics_{user}_attempt_2025-03-10-21-14-55_inverse_dynamics.ipynb"
             for user in ("s_hernandez", "j_smith_2", "a_van_dijk")]
    guessed = lms.blackboard_usernames(names, {})
    assert sorted(guessed.values()) == ["a_van_dijk", "j_smith_2", "s_hernandez"]
    assert [lms.parse(n, "blackboard", "inverse_dynamics.ipynb", guessed).student
            for n in names] == ["s_hernandez", "j_smith_2", "a_van_dijk"]
    assert lms.blackboard_usernames(names[:1], {}) == {}     # one student: nothing to compare


# ---------------------------------------------------------------- a round with nbgrader
CLASS = {   # Moodle's names: full names with accents, a late one; a Moodle-flat layout
    "Chloé Dubois_104211_assignsubmission_file_/gravity.ipynb": "source",
    "Nkechi Okafor_104216_assignsubmission_file_/gravity.ipynb": "nkechi_okafor",
    "Tomás O_Connor_104212_assignsubmission_file_/gravity.ipynb": "tomas_o_connor",
    "Fatima Ahmed_LATE_104213_assignsubmission_file_/gravity.ipynb": "unfinished",
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory, sandboxed):
    from armlab.grading.autograde import grade

    gravity = ExerciseSet("gravity")
    tmp = tmp_path_factory.mktemp("class")
    export = tmp / "export.zip"
    with zipfile.ZipFile(export, "w") as zf:
        for name, who in CLASS.items():
            if who == "source":
                nb = gravity.filled()
            elif who == "unfinished":       # Part 1 done, Part 2 a stub ending in `pass`
                nb = gravity.release()
                for cell in nb["cells"]:
                    gid = cell["metadata"].get("nbgrader", {}).get("grade_id")
                    if gid == "lift_answer":
                        cell["source"] = gravity.answer(gid)
                    elif gid == "least_gain_answer":
                        cell["source"] = "def least_gain(arm, q, ratio):\n    pass\n"
            else:
                nb = gravity.filled(**{cell: classes.answer("gravity", who, cell)
                                       for cell in classes.CLASS["gravity"][who]})
            zf.writestr(name, json.dumps(nb))
    out = tmp / "out"
    grade("gravity", export, out=out, lms="moodle", secret="trial-secret", progress=False)
    return out


@pytest.mark.slow
def test_the_class_is_marked_fairly(graded):
    """Each student's marks per part: np.matrix and a one-element array earn full marks, the
    typed-in 9.81 loses Part 5's hidden points only; no honest answer is reported"""
    with open(graded / "grades.csv", newline="", encoding="utf-8") as fh:
        rows = {r["student"]: r for r in csv.DictReader(fh)}
    marks = {s: [r[f"part{k}"] for k in range(1, 9)] + [r["total"], r["status"]]
             for s, r in rows.items()}
    assert marks == {
        "chloe-dubois": ["4", "5", "6", "3", "3", "8", "3", "6", "38", "ok"],
        "nkechi-okafor": ["4", "5", "6", "3", "3", "8", "3", "6", "38", "ok"],
        "tomas-o_connor": ["4", "5", "6", "3", "1", "8", "3", "6", "36", "ok"],
        "fatima-ahmed": ["4", "0", "0", "0", "0", "0", "0", "0", "4", "ok"],
    }
    with open(graded / "report.csv", newline="", encoding="utf-8") as fh:
        problems = [(r["student"], r["problem"]) for r in csv.DictReader(fh)]
    assert problems == [("fatima-ahmed", "late submission")]


@pytest.mark.slow
def test_feedback_messages_fit_their_box(graded):
    """Every line of a failed check's message on the page fits 88 characters (the messages
    raised outside the checks' own text, 'is None', 'not written yet', ran off the page)"""
    page = (graded / "feedback" / "fatima-ahmed.html").read_text(encoding="utf-8")
    errors = re.findall(r'<div class="output_subarea output_text output_error">\s*<pre>(.*?)'
                        r"</pre>", page, re.S)
    texts = [re.sub(r"<[^>]+>", "", e) for e in errors]
    checks = [t for t in texts if judge.FAILED_MARK in t]
    assert any("is None: is the return statement missing" in " ".join(t.split())
               for t in checks)
    assert all(len(line) <= judge.WIDTH for t in checks for line in t.splitlines())


@pytest.mark.slow
@pytest.mark.browser
def test_the_feedback_typesets_every_formula(graded, chromium):
    """The gravity set's \\boldsymbol needs a TeX extension that the page could not load
    offline: MathJax stopped and Part 2's matrix showed as raw TeX"""
    page = chromium.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("requestfailed", lambda request: errors.append(request.url))
    page.goto((graded / "feedback" / "chloe-dubois.html").as_uri())
    page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("MathJax.startup.promise")
    text = page.inner_text("body")
    page.close()
    assert errors == []
    assert "\\begin{pmatrix}" not in text and "\\boldsymbol" not in text


def test_a_flaw_number_is_shown_as_a_number():
    """pd_rest_claim returns [e_1, e_2, flaw]: the two errors are shown in degrees and the flaw
    as its number (a trial's feedback showed flaw 2 as '114.5916°', flaw 3 as '171.8873°')"""
    def wrong_side(arm, model, q_target, kp, claimed):
        e = np.zeros(2)
        for _ in range(300):                  # the error taken as q - q_target throughout
            q = np.asarray(q_target) + e
            e = -(al.gravity_torques(arm, q) - al.gravity_torques(model, q)) / kp
        return [e[0], e[1], 3]

    with pytest.raises(AssertionError) as failed:
        check_function(wrong_side, "control.pd_rest_claim", "worked")
    text = " ".join(str(failed.value).split())
    assert ("is (-1.7918°, -2.1031°, 3), the book's value is (1.7918°, 2.1031°, 2): the rest "
            "error is e = q_target - q_rest" in text)


def test_the_ordinary_case_beside_a_special_one_says_why_it_is_there():
    """The no-spring cell of stable_steps also checks a case with springs (so that np.inf
    alone earns nothing): its message says so (a trial's page showed 'Check the stable steps
    without any spring' failing at kp = (620, 3140) N m/rad, with no word of why)"""
    def stable_steps(arm, q, kp):
        if not np.any(kp):
            return np.full(3, np.inf)
        return np.array([0.0, 0.03624335663124528, 0.051255846501039794])

    with pytest.raises(AssertionError) as failed:
        check_function(stable_steps, "forward_dynamics.stable_steps", "no spring")
    text = " ".join(str(failed.value).split())
    assert text.startswith("stable_steps(arm, q, kp) is wrong at an arm with springs, checked "
                           "beside the springless one so that np.inf alone earns nothing (q = (")
