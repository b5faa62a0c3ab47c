"""Derivation parts graded symbolically: equivalent forms pass, named mistakes get their
hints, hostile answers are refused in bounded time without harming the grader."""

import json
import time

import pytest
import sympy as sp

from armlab.grading import judge, symbolic
from armlab.grading.cases import encode
from armlab.grading.references import lookup
from armlab.grading.runner import record, student_args, tree_of

REF = lookup("inverse_dynamics.rotor_mass_matrix")
CASE = REF.cases("worked")[0]
BOUND = 2.0
"""Seconds within which a hostile answer is refused, on a busy 2-core machine."""


def judged(answer, case=CASE):
    """The verdict on ``answer``, a function of the case's symbols, as the grader gives
    it: the answer recorded as the sandbox records it, through JSON."""
    rec = record(answer(*student_args(encode(REF.arguments(case)))))
    return judge.verdict(REF, case, json.loads(json.dumps(rec)), show=True)


def from_energy(q1, q2, L1, L2, m1, m2, J, r):
    qd1, qd2 = sp.symbols("qd1 qd2")
    v_tip2 = (L1 * qd1) ** 2 + (L2 * (qd1 + qd2)) ** 2 \
        + 2 * L1 * L2 * sp.cos(q2) * qd1 * (qd1 + qd2)
    T = m1 * (L1 * qd1) ** 2 / 2 + m2 * v_tip2 / 2 + J * (qd1 + r * qd2) ** 2 / 2
    return sp.hessian(T, (qd1, qd2))


def from_positions(q1, q2, L1, L2, m1, m2, J, r):
    """Another route: the tip's Jacobian in absolute coordinates, cos q2 never written."""
    x = L1 * sp.cos(q1) + L2 * sp.cos(q1 + q2)
    y = L1 * sp.sin(q1) + L2 * sp.sin(q1 + q2)
    Jt = sp.Matrix([x, y]).jacobian([q1, q2])
    Je = sp.Matrix([L1 * sp.cos(q1), L1 * sp.sin(q1)]).jacobian([q1, q2])
    w = sp.Matrix([[1, r]])
    return m1 * Je.T * Je + m2 * Jt.T * Jt + J * w.T * w


def half_angle(q1, q2, L1, L2, m1, m2, J, r):
    """Written out by hand, cos q2 as 1 - 2 sin^2(q2/2), as a list of rows."""
    c = 1 - 2 * sp.sin(q2 / 2) ** 2
    m12 = m2 * L2 ** 2 + m2 * L1 * L2 * c + r * J
    return [[(m1 + m2) * L1 ** 2 + m2 * L2 ** 2 + 2 * m2 * L1 * L2 * c + J, m12],
            [m12, m2 * L2 ** 2 + r ** 2 * J]]


@pytest.mark.parametrize("answer", [from_energy, from_positions, half_angle])
def test_equivalent_forms_pass_at_every_case(answer):
    for case in REF.cases("worked") + REF.cases("fresh", key="ann"):
        assert judged(answer, case) is None, case


def test_each_named_mistake_fails_with_its_hint():
    assert len(REF.mistakes) == 8
    for wrong, hint in REF.mistakes:
        message = judged(wrong)
        assert message.endswith(hint), message
        assert "which is not right" in message


def test_an_unknown_slip_gets_the_advice_and_the_entries_that_differ():
    def slip(*args):
        M = from_energy(*args)
        M[1, 1] += 1
        return M
    message = judged(slip)
    assert "(entry (2, 2) differs). Write T = 1/2 m1" in message


def test_what_is_not_an_expression_is_told_so():
    assert judged(lambda *a: None).endswith("is None: is the return statement missing, or "
                                            "does a branch of the function end without one?")
    assert judged(lambda *a: sp.Matrix([[a[2]]])).endswith(
        "is a 1×1 matrix, expected a 2×2 matrix")
    assert "is not written yet" in judge.verdict(
        REF, CASE, record(error=NotImplementedError()), show=True)
    assert judged(lambda *a: sp.Symbol("x") * a[2]).endswith(
        "could not be read: it holds the symbol x, which is not one the function is given "
        "(J, L1, L2, m1, m2, q1, q2, r)")


def test_a_numeric_part_told_a_sympy_answer_is_not_numbers():
    ref = lookup("inverse_dynamics.mass_matrix")
    case = ref.cases("worked")[0]
    message = judge.verdict(ref, case, record(sp.Matrix([[1, 0], [0, 1]])), show=True)
    assert message.endswith("is a SymPy expression: expected numbers (float(x), or "
                            "np.array(M, dtype=float) for a matrix)")


# ---------------------------------------------------------------- hostile answers
def forged(tree):
    """The verdict on a tree a student wrote to the sandbox's channel by hand."""
    return judge.verdict(REF, CASE, {"kind": "expr", "tree": tree}, show=True)


def nested(depth):
    tree = ["Symbol", "q2"]
    for _ in range(depth):
        tree = ["sin", tree]
    return tree


HOSTILE = {
    "a huge power": (lambda *a: sp.Pow(a[0], 10 ** 6, evaluate=False) * sp.eye(2),
                     "a power with exponent 1000000 (at most 12 in size)"),
    "a huge expanded power": (lambda *a: sp.expand((a[0] + a[1] + a[2]) ** 40) * sp.eye(2),
                              "it has more than 2000 terms and factors"),
    "a huge integer": (lambda *a: sp.Integer(10) ** 400 * sp.eye(2),
                       "a number has more than 30 digits or is not an integer"),
    "a tower of powers": (lambda *a: _tower(a[0]) * sp.eye(2),
                          "its values grow past 2**400 at ordinary values of its symbols"),
    "a deep nesting": (lambda *a: _deep(a[1], 200) * sp.eye(2),
                       "it is nested more than 40 deep"),
    "a function of its own": (lambda *a: sp.Function("f")(a[1]) * sp.eye(2),
                              "it holds 'f', which is not among the operations"),
}


def _tower(x):
    e = x
    for _ in range(12):
        e = sp.Pow(e, 12, evaluate=False)
    return e


def _deep(x, depth):
    for _ in range(depth):
        x = sp.sin(x)
    return x


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_sympy_answer_is_refused_in_bounded_time(name):
    answer, why = HOSTILE[name]
    args = student_args(encode(REF.arguments(CASE)))
    value = answer(*args)
    start = time.process_time()
    message = judge.verdict(REF, CASE, json.loads(json.dumps(record(value))), show=True)
    spent = time.process_time() - start
    assert "could not be read" in message or "could not be checked" in message, message
    assert why in message, message
    assert spent < BOUND, f"{name}: {spent:.2f} s"


FORGED = {
    "code in a symbol's name": (["Symbol", "__import__('os').system('touch /tmp/x')"],
                                "a symbol without a proper name"),
    "code in an integer": (["Integer", "__import__('os').getpid()"],
                           "a number has more than 30 digits or is not an integer"),
    "code as a node kind": (["eval", ["Symbol", "q2"]], "it holds 'eval', which is not"),
    "a deep list": (nested(100_000), "it is nested more than 40 deep"),
    "a wide list": (["Add"] + [["Symbol", "q2"]] * 100_000, "more than 2000 terms"),
    "a wrong arity": (["Pow", ["Symbol", "q2"]], "Pow with 1 operands"),
    "an exponent that is an expression": (["Pow", ["Symbol", "q2"], ["Symbol", "q2"]],
                                          "a power whose exponent is not a number"),
    "a matrix of the wrong size": (["Matrix", 2, 2, ["Symbol", "q2"]], "a matrix that is not"),
    "a huge matrix": (["Matrix", 10 ** 6, 10 ** 6], "a matrix that is not"),
    "a matrix inside": (["Matrix", 1, 1, ["Matrix", 1, 1, ["Symbol", "q2"]]],
                        "a matrix inside an expression"),
    "not a list": ({"__class__": "os.system"}, "it is not an expression"),
    "a float made of text": (["Float", "1e999999"], "a decimal number too long"),
    "a zero denominator": (["Rational", "1", "0"], "a fraction with denominator 0"),
}


@pytest.mark.parametrize("name", sorted(FORGED))
def test_a_forged_tree_is_refused_in_bounded_time(name):
    tree, why = FORGED[name]
    start = time.process_time()
    message = forged(tree)
    spent = time.process_time() - start
    assert "could not be read" in message, message
    assert why in message, message
    assert spent < BOUND, f"{name}: {spent:.2f} s"


def test_a_division_by_zero_is_refused_not_raised():
    message = forged(["Matrix", 1, 1, ["Pow", ["Add", ["Symbol", "q2"],
                                               ["Mul", ["Integer", "-1"], ["Symbol", "q2"]]],
                                       ["Integer", "-1"]]])
    assert message.endswith("is a 1×1 matrix, expected a 2×2 matrix")
    zero = ["Pow", ["Add", ["Symbol", "q2"], ["Mul", ["Integer", "-1"], ["Symbol", "q2"]]],
            ["Integer", "-1"]]
    message = forged(["Matrix", 2, 2] + [zero] * 4)
    assert message.endswith("could not be checked: it divides by zero at ordinary values of "
                            "its symbols")


def test_the_tree_of_a_huge_answer_stops_inside_the_sandbox():
    x = sp.Symbol("x")
    assert record(sp.Add(*sp.symbols("x0:3000"))) == {"kind": "refused", "why": "expr:large"}
    assert tree_of(sp.Integer(10) ** 40) == ["Integer", "huge"]


def test_the_trees_points_are_the_same_on_every_grading():
    assert symbolic.points({"q2", "L1"}, "a") == symbolic.points({"L1", "q2"}, "a")
    assert symbolic.points({"q2"}, "a") != symbolic.points({"q2"}, "b")
