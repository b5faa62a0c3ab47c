"""File names of LMS exports, read back, and the grade files each LMS imports."""

import csv

import pytest

from armlab.grading import lms
from armlab.grading.census import Problems
from armlab.grading.outputs import write_grades, write_lms_file

NB = "statics.ipynb"


@pytest.mark.parametrize("name, student, lms_id, file, late", [
    # generic: <login>_<id>_<submission>_<notebook>; logins may hold underscores
    ("jdoe_48213_1_statics.ipynb", "jdoe", "48213", NB, False),
    ("jdoe_2024_48222_1_statics.ipynb", "jdoe_2024", "48222", NB, False),
    ("mary_ann_smith_48230_2_statics.ipynb", "mary_ann_smith", "48230", NB, False),
    ("jdoe_2024_late_48222_1_statics.ipynb", "jdoe_2024", "48222", NB, True),
    ("some_folder/jdoe_48213_1_statics (1).ipynb", "jdoe", "48213", "statics (1).ipynb", False),
])
def test_generic_names(name, student, lms_id, file, late):
    got = lms.parse(name, "generic", NB)
    assert (got.student, got.lms_id, got.file, got.late) == (student, lms_id, file, late)


@pytest.mark.parametrize("name, student, lms_id, file, late", [
    # Canvas: <sortable name>_<user id>_<file id>_<file>, LATE after the name, -N resubmissions
    ("doejohn_48213_7730211_statics.ipynb", "doejohn", "48213", NB, False),
    ("doejohn_LATE_48213_7730211_statics.ipynb", "doejohn", "48213", NB, True),
    ("vanderberghannemarie_51002_7730388_statics-1.ipynb", "vanderberghannemarie", "51002",
     "statics-1.ipynb", False),
    ("o_brien_pat_LATE_51277_7731001_statics-2.ipynb", "o_brien_pat", "51277",
     "statics-2.ipynb", True),
])
def test_canvas_names(name, student, lms_id, file, late):
    got = lms.parse(name, "canvas", NB)
    assert (got.student, got.lms_id, got.file, got.late) == (student, lms_id, file, late)
    assert lms.canonical_file(got.file, NB) == NB


@pytest.mark.parametrize("name, student, lms_id, display", [
    # Moodle: <full name>_<participant id>_assignsubmission_file_[/]<file>
    ("Jane Doe_104211_assignsubmission_file_/statics.ipynb", "jane-doe", "104211", "Jane Doe"),
    ("Jane Doe_104211_assignsubmission_file_statics.ipynb", "jane-doe", "104211", "Jane Doe"),
    ("export/José Álvarez_104377_assignsubmission_file_/statics.ipynb", "jose-alvarez", "104377",
     "José Álvarez"),
    ("Li_Wei Chen_104390_assignsubmission_file_/statics.ipynb", "li_wei-chen", "104390",
     "Li_Wei Chen"),
])
def test_moodle_names(name, student, lms_id, display):
    got = lms.parse(name, "moodle", NB)
    assert (got.student, got.lms_id, got.file, got.display) == (student, lms_id, NB, display)


@pytest.mark.parametrize("name, receipts, student, attempt, late", [
    # Blackboard: <assignment>_<username>_attempt_<date>_<file>; the receipt names the user
    ("Statics exercises_jdoe_attempt_2026-03-02-14-05-33_statics.ipynb", {}, "jdoe",
     "2026-03-02-14-05-33", False),
    ("Statics_exercises_j_doe2_attempt_2026-03-02-14-05-33_statics.ipynb",
     {"Statics_exercises_j_doe2_attempt_2026-03-02-14-05-33": "j_doe2"}, "j_doe2",
     "2026-03-02-14-05-33", False),
    ("Statics exercises_asmith_attempt_2026-03-04-09-00-01_LATE_statics.ipynb", {}, "asmith",
     "2026-03-04-09-00-01", True),
])
def test_blackboard_names(name, receipts, student, attempt, late):
    got = lms.parse(name, "blackboard", NB, receipts)
    assert (got.student, got.lms_id, got.file, got.attempt, got.late) == (
        student, student, NB, attempt, late)


def test_blackboard_receipt_gives_the_username():
    text = ("Name: Jane Doe (j_doe2)\nAssignment: Statics exercises\n"
            "Date Submitted: Monday, 2 March 2026 14:05:33 o'clock CET\n")
    assert lms.blackboard_receipt(text) == "j_doe2"
    assert lms.blackboard_receipt("no name line") is None


@pytest.mark.parametrize("lms_name, name", [
    ("generic", "notes.txt"), ("generic", "jdoe_statics.ipynb"),
    ("canvas", "statics.ipynb"), ("moodle", "jdoe_48213_1_statics.ipynb"),
    ("blackboard", "jdoe_48213_1_statics.ipynb"), ("generic", "../_1_2_x.ipynb"),
])
def test_names_that_do_not_follow_the_format(lms_name, name):
    assert lms.parse(name, lms_name, NB) is None


PARTS = [("part1", "Part 1", ["a"], 5.0), ("part2", "Part 2", ["b"], 3.0)]
GRADES = {"ann": {"part1": 5.0, "part2": 1.5, "total": 6.5},
          "bob": {"part1": 0.0, "part2": 3.0, "total": 3.0}}


def _rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def test_grades_csv_has_parts_total_status_and_holds_review_back(tmp_path):
    problems = Problems()
    problems.add("bob", "suspected tampering", "cell x line 1: uses check_value.__code__")
    write_grades(tmp_path / "grades.csv", PARTS, ["ann", "bob"], GRADES,
                 {"ann": "48213", "bob": "48214"}, problems)
    assert _rows(tmp_path / "grades.csv") == [
        ["student", "lms_id", "part1", "part2", "total", "status"],
        ["ann", "48213", "5", "1.5", "6.5", "ok"],
        ["bob", "48214", "", "", "", "review"]]


@pytest.mark.parametrize("lms_name, expected", [
    ("canvas", [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "statics"],
                ["Points Possible", "", "", "", "", "8"],
                ["annsmith", "48213", "", "", "", "6.5"],
                ["bobjones", "48214", "", "", "", ""]]),
    ("moodle", [["Identifier", "Full name", "Grade", "Maximum Grade"],
                ["Participant 48213", "annsmith", "6.5", "8"],
                ["Participant 48214", "bobjones", "", "8"]]),
    ("blackboard", [["Username", "statics [Total Pts: 8 Score]"],
                    ["48213", "6.5"], ["48214", ""]]),
])
def test_lms_grade_files(tmp_path, lms_name, expected):
    problems = Problems()
    problems.add("bob", "suspected tampering", "...")
    path = write_lms_file(tmp_path, lms_name, "statics", PARTS, ["ann", "bob"], GRADES,
                          {"ann": "48213", "bob": "48214"},
                          {"ann": "annsmith", "bob": "bobjones"}, problems)
    assert path.name == f"{lms_name}_grades.csv"
    assert _rows(path) == expected
    assert write_lms_file(tmp_path, "generic", "statics", PARTS, ["ann"], GRADES, {}, {},
                          problems) is None
