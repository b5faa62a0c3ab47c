"""A conceptual slip written again by hand costs once (``slip=`` on a reference's mistakes).

The grader's verdicts on a small notebook of control's and forward dynamics' checks, from
records made of the references' own values (no sandbox runs): a slip first made in Part 2
and carried, as the only fault, into a later part earns that later check half its points,
with words that say so, and the report a row; a slip only in the later part, another
mistake, an unexplained value, or the slip twice in one part earn nothing.
"""

import nbformat
import pytest
from nbgrader.utils import determine_grade

from armlab.grading import execute, judge, sandbox
from armlab.grading.references import Reference, lookup
from armlab.grading.result import Result

SLIP = "the error taken as the measured state minus the plan"
PARTS = [("Part 2: a PID that takes over without a bump (1 point)", "bumpless_integral", 1.0),
         ("Part 3: the computed-torque law (2 points)", "computed_torque_law", 2.0)]


def notebook(parts):
    """Part headings, each with a visible and a hidden test cell of one function."""
    cells = []
    for heading, name, points in parts:
        cells.append(nbformat.v4.new_markdown_cell(f"## {heading}"))
        quantity = (name if "." in name else ("forward_dynamics." if name in (
            "acceleration", "damped_step_matrix") else "control.") + name)
        name = quantity.split(".")[1]
        for which, share in (("worked", 0.25), ("fresh", 0.75)):
            cells.append(nbformat.v4.new_code_cell(
                f'"""Check {name}"""\ncheck_function({name}, "{quantity}", "{which}")',
                metadata={"nbgrader": {"grade": True, "solution": False,
                                       "points": points * share,
                                       "grade_id": f"test_{name}_{which}"}}))
    return nbformat.v4.new_notebook(cells=cells)


def records(grading, answers):
    """Each check's records: ``answers[name]`` is ``"right"`` or a mistake's index for every
    case, or a list of them, one per case (``None``: a value no mistake explains)."""
    from armlab.grading.runner import tree_of

    out = {}
    for k, check in enumerate(grading.checks):
        ref, name = check["ref"], check["spec"]["name"]
        kinds = answers[name]
        recs = []
        for n, case in enumerate(check["cases"]):
            kind = kinds[n] if isinstance(kinds, list) else kinds
            args = ref.arguments(case)
            value = (ref.function(*args) if kind == "right" else
                     ref.mistakes[kind][0](*args) if kind is not None else
                     [[7.0, 7.0], [7.0, 7.0]] if ref.is_derivation else [7.0, -7.0])
            recs.append({"kind": "expr", "tree": tree_of(value)} if ref.is_derivation
                        else {"kind": "value", "value": value})
        out[k] = recs
    return out


def graded(answers, parts=PARTS):
    """``(verdicts by grade id, points by grade id, the submission's Result)``."""
    nb = notebook(parts)
    grading = execute.Grading(nb, "", sandbox.Limits(), isolate=False)
    verdicts = grading.verdicts(records(grading, answers))
    points = {}
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            cell.outputs = execute.test_outputs(verdicts[index],
                                                cell.metadata["nbgrader"]["points"])
            points[cell.metadata["nbgrader"]["grade_id"]] = determine_grade(cell)[0]
    by_id = {nb.cells[i].metadata["nbgrader"]["grade_id"]: v for i, v in verdicts.items()}
    return by_id, points, Result("ann", carried=grading.carried, isolated=True)


def slip_index(quantity, slip=SLIP):
    return lookup(quantity).slips.index(slip)


def test_a_slip_carried_into_a_later_part_costs_once():
    """Part 2 (1 point) makes the slip, Part 3 (2 points) carries it: Part 3's checks earn half
    their points, so a slip written on purpose in the cheap part never earns the dearer part
    more than half, and less than its right answer"""
    pi, ct = slip_index("control.bumpless_integral"), slip_index("control.computed_torque_law")
    verdicts, points, result = graded({"bumpless_integral": pi, "computed_torque_law": ct})
    assert points == {"test_bumpless_integral_worked": 0.0, "test_bumpless_integral_fresh": 0.0,
                      "test_computed_torque_law_worked": 0.25,
                      "test_computed_torque_law_fresh": 0.75}
    kind, message, fraction = verdicts["test_computed_torque_law_fresh"][0]
    assert (kind, fraction) == ("partial", 0.5)
    assert message.endswith("the error is the plan minus the measured state: e = q_plan - q\n"
                            "The same slip as Part 2 (the error taken as the measured state "
                            "minus the plan), counted once there: this check earns half its "
                            "points")
    assert result.problems() == [
        ("slip counted once", f"test_computed_torque_law_{which} (control.computed_torque_law): "
                              f"the same slip as Part 2 ({SLIP}), counted once there: half of "
                              "that check's points")
        for which in ("worked", "fresh")]


def test_a_slip_only_in_the_later_part_costs_its_points():
    ct = slip_index("control.computed_torque_law")
    _v, points, result = graded({"bumpless_integral": "right", "computed_torque_law": ct})
    assert points["test_computed_torque_law_fresh"] == 0.0
    assert points["test_bumpless_integral_fresh"] == 0.75
    assert result.carried == []


def test_another_mistake_or_an_unexplained_value_is_not_carried():
    pi, ct = slip_index("control.bumpless_integral"), slip_index("control.computed_torque_law")
    other = next(i for i, s in enumerate(lookup("control.computed_torque_law").slips) if not s)
    for later in (other, None, [None] + [ct] * 20):
        verdicts, points, result = graded({"bumpless_integral": pi,
                                           "computed_torque_law": later})
        assert points["test_computed_torque_law_fresh"] == 0.0, later
        assert verdicts["test_computed_torque_law_fresh"][0][0] == "fail"
        assert "counted once" not in verdicts["test_computed_torque_law_fresh"][0][1]
        assert result.carried == []


def test_the_slip_twice_in_one_part_is_not_carried():
    """Part 2's visible and hidden checks both fail with the slip: it costs both, as made
    there, not carried"""
    pi = slip_index("control.bumpless_integral")
    _v, points, result = graded({"bumpless_integral": pi}, PARTS[:1])
    assert points == {"test_bumpless_integral_worked": 0.0, "test_bumpless_integral_fresh": 0.0}
    assert result.carried == []


def test_a_slip_carried_into_a_derivation_costs_once():
    """Forward dynamics: friction's sign in Part 1, the damper's sign in Part 9's SymPy
    answer"""
    parts = [("Part 1: from torques to accelerations (3 points)", "acceleration", 3.0),
             ("Part 9: derive the step's matrix on a damped joint (8 points)",
              "damped_step_matrix", 8.0)]
    slip = lookup("forward_dynamics.acceleration").slips[0]
    answers = {"acceleration": 0,
               "damped_step_matrix": lookup("forward_dynamics.damped_step_matrix").slips.index(
                   slip)}
    verdicts, points, _result = graded(answers, parts)
    assert points["test_damped_step_matrix_fresh"] == 3.0
    assert points["test_acceleration_fresh"] == 0.0
    assert f"The same slip as Part 1 ({slip})" in verdicts["test_damped_step_matrix_fresh"][0][1]


def test_a_claim_cannot_be_a_slip():
    ref = Reference(lambda x: x, "demo.claim", worked=(), allow=(), uses=None, rtol=1e-6,
                    atol=1e-9, units=None, advice=None)
    with pytest.raises(ValueError, match="slip"):
        ref.mistake("that is the claim, twice x", lambda x: 2 * x, slip="doubling")
    with pytest.raises(ValueError, match="slip"):
        ref.mistakes_of(lambda x, k: k * x, [("twice", {"k": 2}, "doubling", "extra")])
    assert judge.CARRIED == 0.5


def _reversed_rest_claim(arm, model, q_target, kp, claimed):
    """The trial's slip student's Part 8: the rest error taken as q - q_target (the pose at
    q_target + e), the flaws computed the same way and compared with the claim as given."""
    import numpy as np

    import armlab as al

    q_target, kp = np.asarray(q_target, float), np.asarray(kp, float)

    def solve(step):
        e = np.zeros(2)
        for _ in range(1000):
            e, last = step(e), e
            if np.abs(e - last).max() < 1e-15:
                break
        return e

    def miss(q):
        return al.gravity_torques(arm, q) - al.gravity_torques(model, q)

    right = solve(lambda e: -miss(q_target + e) / kp)
    flaws = [-miss(q_target) / kp, solve(lambda e: -al.gravity_torques(arm, q_target + e) / kp),
             solve(lambda e: -miss(q_target - e) / kp)]
    return [*right, 1 + int(np.argmin([np.abs(f - claimed).max() for f in flaws]))]


def test_the_rest_claim_taken_the_other_way_is_named_and_carried():
    """Control Part 8 written with the error the other way round, e = q - q_target (the trial
    class's slip student, whose flaw numbers then follow from comparing the claim with flaws
    taken that way too, and a student who numbers them right): each is a named mistake with
    its hint, the slip of Part 2, so after Part 2's slip it earns half, not 0 with no hint"""
    from armlab.grading import check_function

    ref = lookup("control.pd_rest_claim")
    hint = "yours is its opposite, q_rest - q_target"
    kinds = [i for i, (_wrong, message) in enumerate(ref.mistakes) if hint in message]
    assert [ref.slips[i] for i in kinds] == [SLIP, SLIP]
    cases = ref.cases("worked") + ref.cases("fresh")
    seen = {judge.matched(ref, case, {"kind": "value",
                                      "value": _reversed_rest_claim(*ref.arguments(case))})
            for case in cases}
    assert seen and seen <= set(kinds)
    with pytest.raises(AssertionError, match=hint.replace("(", r"\(")):
        check_function(_reversed_rest_claim, "control.pd_rest_claim", "worked")
    # 8 points here (the set's 7 split 0.25 / 0.75 would round its halves to cents)
    parts = [PARTS[0], ("Part 8: check a claimed rest error (8 points)", "pd_rest_claim", 8.0)]
    for kind in kinds:
        verdicts, points, _result = graded({"bumpless_integral": slip_index(
            "control.bumpless_integral"), "pd_rest_claim": kind}, parts)
        assert points["test_pd_rest_claim_worked"] == 1.0
        assert points["test_pd_rest_claim_fresh"] == 3.0
        assert verdicts["test_pd_rest_claim_fresh"][0][1].endswith(
            "The same slip as Part 2 (the error taken as the measured state minus the plan), "
            "counted once there: this check earns half its points")


SENSE = "F taken as the force on the tip, not the force the tip applies"


def test_the_force_taken_on_the_tip_is_one_slip_in_statics():
    """Statics: the trial class's slip student wrote tau = -J^T F in Part 1 (F read as the force
    on the tip), then the prop's force with its sign reversed in Part 4 and -J^T W in Part 10,
    by hand: 0 in all three before; now Part 1 costs, Parts 4 and 10 earn half"""
    parts = [("Part 1: the torques of a tip force (3 points)", "statics.joint_torques", 3.0),
             ("Part 4: what the bearings carry, with a prop at the elbow (6 points)",
              "statics.propped_reactions", 6.0),
             ("Part 10: derive the torques that hold a wrench on three links (6 points)",
              "statics.wrench_torques", 6.0)]
    kinds = {name.split(".")[1]: slip_index(name, SENSE) for _h, name, _p in parts}
    verdicts, points, _result = graded(kinds, parts)
    assert points == {"test_joint_torques_worked": 0.0, "test_joint_torques_fresh": 0.0,
                      "test_propped_reactions_worked": 0.75,
                      "test_propped_reactions_fresh": 2.25,
                      "test_wrench_torques_worked": 0.75, "test_wrench_torques_fresh": 2.25}
    assert verdicts["test_wrench_torques_fresh"][0][1].endswith(
        f"The same slip as Part 1 ({SENSE}), counted once there: this check earns half its "
        "points")


def test_the_torques_sign_hint_names_the_force_sense_too():
    """Statics Part 1: a student who takes the moment r x F right and then negates it, so that
    the motor 'balances' F, was told only of the cross product's order, which was not theirs"""
    import numpy as np

    import armlab as al
    from armlab.grading import check_function

    def joint_torques(arm, q, F):
        p = al.joint_positions(arm, q)
        r = p[-1] - p[:-1]
        return -(r[:, 0] * F[1] - r[:, 1] * F[0])

    with pytest.raises(AssertionError) as failed:
        check_function(joint_torques, "statics.joint_torques", "worked")
    text = " ".join(str(failed.value).split())
    assert ("right size, wrong sign: F is the force the tip applies, so the environment pushes "
            "the tip with -F and the motor at joint j holds the moment of F itself" in text)
    assert np.allclose(joint_torques(al.statics_arm(), np.radians([30, 60]), [10.0, 0.0]),
                       [6.5, 4.0])


def test_the_error_sign_is_named_in_every_control_part_that_writes_it():
    """The trial class's slip student took e = q - q_plan in Parts 1, 2, 3, 5, 7 and 8: Part 1
    (where it is first made) and Part 7 had no mistake for it, so Part 2 paid in full as if it
    were first made there and Part 7 got 0 with the general advice; Part 5's rest on the
    wrong side (q_target + e, the same error taken the other way) was no slip"""
    for quantity, hint in [("control.largest_pd_gain", "the error is the plan minus"),
                           ("control.stiff_gain", "the arm rests at q_target - e"),
                           ("control.clamp_engages", "the error is the plan minus")]:
        ref = lookup(quantity)
        index = slip_index(quantity)
        assert hint in ref.mistakes[index][1], quantity
    parts = [("Part 1: the stiffest PD a tick allows (1 point)", "largest_pd_gain", 1.0),
             PARTS[0], ("Part 5: a gain stiff enough for an unknown payload (4 points)",
                        "stiff_gain", 4.0),
             ("Part 7: when does the clamp hold? (4 points)", "clamp_engages", 4.0)]
    answers = {name: slip_index("control." + name) for _h, name, _p in parts}
    _verdicts, points, _result = graded(answers, parts)
    assert points == {"test_largest_pd_gain_worked": 0.0, "test_largest_pd_gain_fresh": 0.0,
                      "test_bumpless_integral_worked": 0.12,     # half of 0.25, to cents
                      "test_bumpless_integral_fresh": 0.38,
                      "test_stiff_gain_worked": 0.5, "test_stiff_gain_fresh": 1.5,
                      "test_clamp_engages_worked": 0.5, "test_clamp_engages_fresh": 1.5}


ROTOR = [("Part 10: the mass matrix of an arm with a geared rotor (8 points)",
          "inverse_dynamics.rotor_mass_matrix", 8.0)]


def test_a_named_mistake_of_a_derivation_earns_half():
    """Inverse dynamics' rotor: the trial class's rotor speed taken as r qd2 (the first named
    mistake) is the only fault of both checks: half their points, its hint and words that
    say why; the right answer earns all, an expression no mistake explains nothing"""
    verdicts, points, result = graded({"rotor_mass_matrix": 0}, ROTOR)
    assert points == {"test_rotor_mass_matrix_worked": 1.0, "test_rotor_mass_matrix_fresh": 3.0}
    kind, message, fraction = verdicts["test_rotor_mass_matrix_fresh"][0]
    assert (kind, fraction) == ("partial", 0.5)
    assert message.endswith("not r qd2 alone\nThat named mistake is the only fault found: this "
                            "check earns half its points")
    assert result.carried == []
    _v, points, _r = graded({"rotor_mass_matrix": "right"}, ROTOR)
    assert points == {"test_rotor_mass_matrix_worked": 2.0, "test_rotor_mass_matrix_fresh": 6.0}
    cases = len(lookup("inverse_dynamics.rotor_mass_matrix").cases("fresh"))
    for answer in (None, [0] * (cases - 1) + [None]):
        verdicts, points, _r = graded({"rotor_mass_matrix": answer}, ROTOR)
        assert points["test_rotor_mass_matrix_fresh"] == 0.0, answer
        assert "named mistake" not in verdicts["test_rotor_mass_matrix_fresh"][0][1]


def test_only_a_derivation_gives_a_named_mistake_credit():
    """A numeric part's named mistake earns nothing (control Part 3's other mistake)"""
    ref = lookup("control.computed_torque_law")
    other = next(i for i, s in enumerate(ref.slips) if not s)
    _v, points, _r = graded({"computed_torque_law": other}, PARTS[1:])
    assert points == {"test_computed_torque_law_worked": 0.0,
                      "test_computed_torque_law_fresh": 0.0}
    assert (judge.NAMED, judge.NAMED_WORDS) == (0.5, "half")


def _two_slips():
    """y = x, with two slips that agree at x = 1: B, -x ** 3, declared before A, -x"""
    from armlab.grading.cases import Case

    ref = Reference(lambda x: x, "demo.twoslips", worked=(), allow=(), uses=None, rtol=1e-9,
                    atol=1e-12, units=None, advice=None)
    ref.mistake("the cube's sign", lambda x: -x ** 3, slip="B")
    ref.mistake("the sign", lambda x: -x, slip="A")
    return ref, [Case(x=1.0), Case(x=2.0)]


def test_a_slip_is_carried_whichever_mistake_matches_first():
    """The sign slip A at x = 1 and 2: at x = 1 slip B's mistake (declared before A's) fits
    too; A is the one slip that fits at both (it was lost when only the first slip that fits
    counted); where only x = 1 is wrong, both fit and the earlier part's slip is it"""
    ref, cases = _two_slips()
    recs = [{"kind": "value", "value": -x} for x in (1.0, 2.0)]
    assert judge.carried(ref, cases, recs) == "A"
    assert judge.slips_made(ref, cases, recs) == ["A", "B"]
    recs = [{"kind": "value", "value": -1.0}, {"kind": "value", "value": 2.0}]
    assert judge.carried(ref, cases, recs) is None
    assert judge.carried(ref, cases, recs, made={"B": "Part 1"}) == "B"
    assert judge.carried(ref, cases, recs, made={"A": "Part 1"}) == "A"
