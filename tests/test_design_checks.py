"""Design parts: a student's design judged by what it does, with partial credit.

A toy design part (a gain that must bring a first-order loop's time constant under a
bound) registered for the test: several designs pass, a near miss earns part of the
points in the grader's outputs (nbgrader's partial credit), and the words say what
failed and by how much.
"""

import nbformat
import pytest
from nbgrader.utils import determine_grade

from armlab.grading import check_function, execute, judge
from armlab.grading.cases import Case
from armlab.grading.references import _REGISTRY, Reference, lookup


def settle(inertia, bound, answer):
    """The gain kp gives the loop inertia * x' = -kp x a time constant inertia / kp [s]:
    full marks within the bound, half at up to twice it, none beyond."""
    tau = inertia / answer if answer > 0 else float("inf")
    if tau <= bound:
        return 1.0, f"the time constant is {tau:.3g} s, within {bound:g} s"
    return (0.5 if tau <= 2 * bound else 0.0), (
        f"the time constant is {tau:.3g} s, {tau - bound:.3g} s over the spec of {bound:g} s")


@pytest.fixture
def toy(monkeypatch):
    ref = Reference(settle, "toy.settle", worked=Case(inertia=2.0, bound=0.1, label="the book's"),
                    allow=(), uses=None, rtol=0.0, atol=0.0, units={"bound": "s"},
                    advice=None, is_design=True)
    object.__setattr__(ref, "fresh_cases", lambda rng: [Case(inertia=1.0, bound=0.1),
                                                        Case(inertia=4.0, bound=0.1)])
    monkeypatch.setitem(_REGISTRY, "toy.settle", ref)
    return ref


def test_several_designs_pass_and_say_what_they_did(toy, capsys):
    for gain in (25.0, 40.0, 1000.0):
        check_function(lambda inertia, bound, g=gain: g * inertia / 2.0, "toy.settle", "worked",
                       name="gain")
    first = capsys.readouterr().out.split("\u2713 ")[1]
    assert " ".join(first.split()) == (
        "gain(inertia, bound) at the book's (inertia = 2, bound = 0.1 s): the time "
        "constant is 0.08 s, within 0.1 s")


def test_a_near_miss_says_by_how_much(toy):
    with pytest.raises(AssertionError) as info:
        check_function(lambda inertia, bound: 10.0 + 5.0 * inertia, "toy.settle", "fresh",
                       name="gain")
    assert " ".join(str(info.value).split()) == (
        "meets 1 of 2 cases' spec (75% of the points) gain(inertia, bound) at inertia = 4, "
        "bound = 0.1 s: the time constant is 0.133 s, 0.0333 s over the spec of 0.1 s")


def test_the_grader_gives_partial_credit(toy):
    ref = lookup("toy.settle")
    cases = ref.cases("fresh", key="")
    recs = [{"kind": "value", "value": 25.0}, {"kind": "value", "value": 26.0}]
    fraction, message = judge.design_result(ref, cases, recs, show=False, label="gain")
    assert fraction == 0.75
    cell = nbformat.v4.new_code_cell("", metadata={"nbgrader": {
        "grade": True, "solution": False, "points": 4, "grade_id": "t"}})
    cell.outputs = execute.test_outputs([("partial", message, fraction)], 4)
    assert determine_grade(cell) == (3.0, 4.0)
    cell.outputs = execute.test_outputs([("fail", "nothing met", 0.0)], 4)
    assert determine_grade(cell) == (0, 4.0)
    assert judge.design_result(ref, cases, [{"kind": "none"}] * 2, show=False)[0] == 0.0


def test_a_design_that_ignores_its_cases_earns_nothing_where_they_differ(toy):
    """A function returning one constant design meets the spec where that constant happens
    to fit (gain 15 fits the inertia-1 case only): it earns nothing for the check, says why,
    and a constant that meets every case's spec keeps its points (it is a design for all)"""
    ref = lookup("toy.settle")
    cases = ref.cases("fresh", key="")
    constant = [{"kind": "value", "value": 15.0}, {"kind": "value", "value": 15.0}]
    fraction, message = judge.design_result(ref, cases, constant, show=False, label="gain")
    assert fraction == 0.0
    assert " ".join(message.split()) == (
        "gain(inertia, bound) returned the same design, 15, at every one of the 2 cases "
        "checked, although their specs ask for different designs: the 1 spec it meets, fully "
        "or in part, it meets by chance, so the check gives it nothing. A design must follow "
        "its case's inputs")
    assert judge.same_design(constant) and not judge.same_design(constant[:1])
    everywhere = [{"kind": "value", "value": 100.0}] * 2
    assert judge.design_result(ref, cases, everywhere, show=False, label="gain")[0] == 1.0
    following = [{"kind": "value", "value": 15.0}, {"kind": "value", "value": 45.0}]
    assert judge.design_result(ref, cases, following, show=False, label="gain")[0] == 1.0
    with pytest.raises(AssertionError) as info:
        check_function(lambda inertia, bound: 15.0, "toy.settle", "fresh", name="gain")
    assert "returned the same design, 15, at every one of the 2 cases" in str(info.value)


def test_the_report_lists_a_design_that_ignores_its_cases(toy, tmp_path):
    """The grader notes the check in the submission's result, and the report gives it a row
    of its own (not a review: the check's score stands)"""
    import types

    from armlab.grading.census import Problems
    from armlab.grading.result import Result

    ref = lookup("toy.settle")
    grading = types.SimpleNamespace(faults=[], calls=[], constant=[])
    spec = {"label": "gain", "cases": "fresh"}
    constant = [{"kind": "value", "value": 15.0}] * 2
    kind, _message, fraction = execute.Grading._judge(grading, spec, ref,
                                                      ref.cases("fresh", key=""), constant)
    assert (kind, fraction, grading.constant) == ("fail", 0.0, ["gain (toy.settle, fresh)"])
    problems = Problems()
    for row in Result("ann", constant_designs=grading.constant, isolated=True).problems():
        problems.add("ann", *row)
    assert problems.sorted() == [(
        "ann", "design ignores its cases", "gain (toy.settle, fresh) returned the same design "
        "at every case and did not meet every case's spec: that check scored 0")]
    assert not problems.needs_review("ann")


def test_a_partial_credit_reads_as_points_on_the_feedback_page(toy):
    """The graded cell carries the points earned as its value, for nbgrader; the feedback
    page shows them in words, not as a bare 'Out[ ]: 3'"""
    from armlab.grading.outputs import PartialCreditInWords

    cell = nbformat.v4.new_code_cell("", metadata={"nbgrader": {
        "grade": True, "solution": False, "points": 4, "grade_id": "t"}})
    cell.outputs = execute.test_outputs([("partial", "meets 1 of 2 cases' spec", 0.75)], 4)
    assert determine_grade(cell) == (3.0, 4.0)
    cell, _ = PartialCreditInWords().preprocess_cell(cell, {}, 0)
    assert [o.output_type for o in cell.outputs] == ["stream", "stream"]
    assert cell.outputs[1].text == "Partial credit: 3 of this check's 4 points\n"
    passed = nbformat.v4.new_code_cell("", metadata=cell.metadata)
    passed.outputs = execute.test_outputs([("pass", "right", None)], 4)
    assert PartialCreditInWords().preprocess_cell(passed, {}, 0)[0].outputs == passed.outputs


def test_an_unwritten_design_says_so_once(toy):
    """A stub that still raises NotImplementedError is told so in one line, not once a case"""
    ref = lookup("toy.settle")
    cases = ref.cases("fresh", key="")
    stub = [{"kind": "error", "type": "NotImplementedError", "message": ""}] * 2
    assert judge.design_result(ref, cases, stub, show=False, label="gain") == (0.0, (
        "gain(inertia, bound) is not written yet: it still raises NotImplementedError (put "
        "your code in place of the line raise NotImplementedError())"))
