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


def _problems():
    problems = Problems()
    problems.add("bob", "suspected tampering", "...")
    return problems


def _write(tmp_path, lms_name, *, export=None, column=None, problems=None, students=None,
           names=None, lms_ids=None, grades=None):
    gradebook = None
    if export is not None:
        gradebook = tmp_path / "export.csv"
        if isinstance(export, bytes):
            gradebook.write_bytes(export)
        else:
            gradebook.write_text(export, encoding="utf-8")
    target = lms.grade_target(lms_name, "statics", gradebook=gradebook, column=column)
    problems = problems or _problems()
    path = write_lms_file(tmp_path, lms_name, "statics", PARTS, students or ["ann", "bob"],
                          grades or GRADES,
                          lms_ids or {"ann": "48213", "bob": "48214", "cy": "48299"},
                          names or {"ann": "annsmith", "bob": "bobjones"}, problems, target)
    return path, problems


# Canvas: Grades > Export > Export Entire Gradebook, as Canvas writes it (the "Points
# Possible" row indented, read-only columns, a test student).
CANVAS_EXPORT = """Student,ID,SIS User ID,SIS Login ID,Section,Homework 1 (11111),Statics exercises (12345),Assignments Current Score,Current Score,Final Score
    Points Possible,,,,,10.00,8.00,(read only),(read only),(read only)
"Smith, Ann",48213,S001,asmith,Robotics 101 - Lab A,9.00,,90.00,90.00,45.00
"=HYPERLINK(""http://x"",""y"")",48214,S002,-bjones,Robotics 101 - Lab A,,7.00,,,
"Student, Test",99999,,,Robotics 101 - Lab A,,,,,
"""


def test_canvas_file_takes_the_column_and_the_students_from_the_gradebook_export(tmp_path):
    """As Canvas's importer (gradebook_importer.rb) reads it: the Points Possible row as the
    export has it (the importer sets the assignment's points from it), the identifiers as they
    stand (a login '-bjones' stays), only the free-text name escaped, and Bob, held for review,
    keeps the 7.00 Canvas has (a blank cell would be read as clearing it)."""
    path, problems = _write(tmp_path, "canvas", export=CANVAS_EXPORT)
    assert path.name == "canvas_grades.csv"
    assert _rows(path) == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Statics exercises (12345)"],
        ["Points Possible", "", "", "", "", "8.00"],
        ["Smith, Ann", "48213", "S001", "asmith", "Robotics 101 - Lab A", "6.5"],
        ["'=HYPERLINK(\"http://x\",\"y\")", "48214", "S002", "-bjones",
         "Robotics 101 - Lab A", "7.00"]]
    assert not [r for r in problems.rows if r[0] == "(round)"]


def test_canvas_column_named_by_its_header_name_or_id(tmp_path):
    for column in ("Statics exercises (12345)", "Statics exercises", "12345"):
        path, _ = _write(tmp_path, "canvas", export=CANVAS_EXPORT, column=column)
        assert _rows(path)[0][-1] == "Statics exercises (12345)"
    # no export: the header as given, no Points Possible row (the assignment's points are
    # not known, and that row would set them), the held student left out (his score in
    # Canvas is not known either, and a missing row changes nothing)
    path, _ = _write(tmp_path, "canvas", column="Statics (777)")
    assert _rows(path) == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Statics (777)"],
        ["annsmith", "48213", "", "", "", "6.5"]]


def test_a_student_the_export_does_not_list_is_left_out_and_reported(tmp_path):
    (tmp_path / "export.csv").write_text(CANVAS_EXPORT)
    grades = dict(GRADES, cy={"part1": 1.0, "part2": 1.0, "total": 2.0})
    target = lms.grade_target("canvas", "statics", gradebook=tmp_path / "export.csv")
    problems = Problems()
    path = write_lms_file(tmp_path, "canvas", "statics", PARTS, ["ann", "bob", "cy"], grades,
                   {"ann": "48213", "bob": "48214", "cy": "48299"}, {}, problems, target)
    assert [r[1] for r in _rows(path)[2:]] == ["48213", "48214"]
    assert problems.sorted() == [("cy", "not in the LMS gradebook", "the canvas gradebook "
                                  "export has no row for 48299: left out of canvas_grades.csv")]


def test_canvas_points_that_differ_from_the_set_are_kept_and_reported(tmp_path):
    path, problems = _write(tmp_path, "canvas",
                            export=CANVAS_EXPORT.replace(",8.00,", ",30.00,"))
    assert _rows(path)[1] == ["Points Possible", "", "", "", "", "30.00"]
    assert [r for r in problems.rows if r[0] == "(round)"] == [
        ("(round)", "points differ", "the canvas column 'Statics exercises (12345)' is worth "
         "30.00 points, the set 8: canvas_grades.csv keeps Canvas's 30.00 in its Points "
         "Possible row (Canvas would set the assignment's points from that row) and each "
         "grade is the set's points; change the assignment's points in Canvas if 8 is meant")]


@pytest.mark.parametrize("export, column, message", [
    # Canvas's importer drops every header that holds one of these words, and read-only columns
    (CANVAS_EXPORT.replace("Statics exercises (12345)", "Statics Final Score (12345)"), None,
     "Canvas's importer drops the column 'Statics Final Score (12345)' without a word (its "
     "header holds 'Final Score', which Canvas keeps for its own totals): rename the "
     "assignment in Canvas and export the gradebook again"),
    (None, "Lab Current Grade (777)",
     "Canvas's importer drops the column 'Lab Current Grade (777)' without a word (its header "
     "holds 'Current Grade', which Canvas keeps for its own totals)"),
    (CANVAS_EXPORT.replace(",8.00,", ",(read only),"), None,
     "Canvas's export marks the column 'Statics exercises (12345)' read only, and its "
     "importer skips such a column"),
])
def test_a_canvas_column_the_importer_would_drop_stops_the_round(tmp_path, export, column,
                                                                  message):
    with pytest.raises(lms.GradebookError) as info:
        _write(tmp_path, "canvas", export=export, column=column)
    assert message in str(info.value)


# Moodle: Assignment > View all submissions > Download grading worksheet (English), as
# Moodle 4 writes it.
MOODLE_WORKSHEET = """Identifier,"Full name","Email address",Status,Grade,"Maximum Grade","Grade can be changed","Last modified (submission)","Last modified (grade)","Feedback comments"
"Participant 48213","Ann Smith",ann@example.org,"Submitted for grading",,8.00,Yes,"Monday, 2 March 2026, 2:05 PM",-,
"Participant 48214","Bob Jones",bob@example.org,"Submitted for grading",3.00,8.00,Yes,"Monday, 2 March 2026, 3:10 PM","Tuesday, 3 March 2026, 9:00 AM","Seen in class"
"Participant 48300","Cy Lee",cy@example.org,"No submission",,8.00,Yes,-,-,
"""


def test_moodle_file_is_the_worksheet_with_the_grades_filled_in(tmp_path):
    path, _ = _write(tmp_path, "moodle", export=MOODLE_WORKSHEET)
    assert _rows(path) == [
        ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
         "Grade can be changed", "Last modified (submission)", "Last modified (grade)",
         "Feedback comments"],
        ["Participant 48213", "Ann Smith", "ann@example.org", "Submitted for grading", "6.5",
         "8.00", "Yes", "Monday, 2 March 2026, 2:05 PM", "-", ""],
        ["Participant 48214", "Bob Jones", "bob@example.org", "Submitted for grading", "3.00",
         "8.00", "Yes", "Monday, 2 March 2026, 3:10 PM", "Tuesday, 3 March 2026, 9:00 AM",
         "Seen in class"]]


def test_moodle_refuses_a_grade_above_the_worksheets_maximum(tmp_path):
    """Moodle's upload (feedback/offline/locallib.php) skips a grade above the assignment's
    maximum without a word: armlab keeps the grade Moodle has and says so, naming both."""
    path, problems = _write(tmp_path, "moodle", export=MOODLE_WORKSHEET.replace("8.00", "5.00"))
    assert _rows(path)[1][4:6] == ["", "5.00"]
    assert [r for r in problems.sorted() if r[0] == "ann"] == [
        ("ann", "grade above Moodle's maximum", "Participant 48213 (Ann Smith): 6.5 is above "
         "the worksheet's Maximum Grade 5.00, which Moodle's upload would skip without a word; "
         "moodle_grades.csv keeps the grade Moodle has ('')")]
    assert ("(round)", "points differ", "the moodle column 'Grade' is worth 5.00 points, the "
            "set 8: set the assignment's Maximum grade in Moodle to 8, download the worksheet "
            "again and grade again") in problems.rows


def test_moodle_worksheet_in_another_language_is_refused(tmp_path):
    worksheet = MOODLE_WORKSHEET.replace("Identifier", "Identifiant").replace(
        "Grade,", "Note,", 1)
    with pytest.raises(lms.GradebookError) as info:
        _write(tmp_path, "moodle", export=worksheet)
    assert "no column 'Identifier', 'Grade'" in str(info.value)


def test_moodle_without_a_worksheet_writes_the_columns_its_upload_needs(tmp_path):
    path, _ = _write(tmp_path, "moodle")
    assert _rows(path) == [
        ["Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)"],
        ["Participant 48213", "annsmith", "6.5", "8", "-"]]


def test_moodle_worksheet_without_what_the_upload_reads_is_refused(tmp_path):
    with pytest.raises(lms.GradebookError) as info:
        _write(tmp_path, "moodle", export="Identifier,Full name,Grade\n")
    assert str(info.value) == (f"{tmp_path / 'export.csv'} is not an offline grading worksheet "
                               "that Moodle's upload reads: no column 'Last modified (grade)' "
                               "(Moodle's upload matches the column names in the language of "
                               "the user who uploads, and armlab reads the English ones: "
                               "download and upload the worksheet with Moodle's language set "
                               "to English)")


# Blackboard: Grade Center > Work Offline > Download, as Blackboard writes it by default: a
# tab-delimited .xls in UTF-16 with a byte-order mark.
BLACKBOARD_DOWNLOAD = ("Last Name\tFirst Name\tUsername\tStudent ID\tLast Access\tAvailability\t"
                       "Lab 1 [Total Pts: 10 Score] |123457\tStatics [Total Pts: 8 Score] "
                       "|123456\n"
                       "Smith\tAnn\t48213\tS001\t2026-03-02 14:05:33\tAvailable\t9\t\n"
                       "Jones\tBob\t48214\tS002\t2026-03-02 15:10:00\tAvailable\t\t\n")


def test_blackboard_file_quotes_every_value_and_keeps_the_column_id(tmp_path):
    """Usernames as they stand (Blackboard matches '-jdoe', not an escaped "'-jdoe"), and Bob,
    held for review, keeps the 5 the Grade Centre has."""
    export = BLACKBOARD_DOWNLOAD.replace("\t48213\t", "\tasmith\t").replace(
        "\t48214\t", "\t-jdoe\t").replace("Available\t\t\n", "Available\t\t5\n")
    path, problems = _write(tmp_path, "blackboard", export=export.encode("utf-16"),
                            lms_ids={"ann": "asmith", "bob": "-jdoe"})
    assert path.read_bytes().decode("utf-8") == (
        '"Username","Statics [Total Pts: 8 Score] |123456"\r\n'
        '"asmith","6.5"\r\n"-jdoe","5"\r\n')
    assert not [r for r in problems.rows if r[0] == "(round)"]


def test_blackboard_total_points_that_differ_from_the_set_are_reported(tmp_path):
    _, problems = _write(tmp_path, "blackboard", export=BLACKBOARD_DOWNLOAD.replace(
        "Statics [Total Pts: 8 Score]", "Statics [Total Pts: 10 Score]"))
    assert [r for r in problems.rows if r[0] == "(round)"] == [
        ("(round)", "points differ", "the blackboard column 'Statics [Total Pts: 10 Score] "
         "|123456' is worth 10 points, the set 8: Blackboard keeps its 10 and reads each "
         "grade as points out of 10; change the column's points in Blackboard if 8 is meant")]


@pytest.mark.parametrize("name, export, column, message", [
    ("canvas", None, None,
     "Canvas matches an existing assignment by its column header '<name> (<id>)'"),
    ("canvas", None, "statics", "'statics' has no assignment id"),
    ("canvas", CANVAS_EXPORT, "Dynamics",
     "no assignment column of {path} matches --lms-column 'Dynamics'; its assignment "
     "columns: Homework 1 (11111); Statics exercises (12345); name one with --lms-column"),
    ("canvas", CANVAS_EXPORT.replace("Homework 1 (11111)", "Statics quiz (11111)"), None,
     "several assignment columns of {path} match: Statics quiz (11111); Statics exercises "
     "(12345); name one with --lms-column"),
    ("canvas", "Name,Score\nann,1\n", None,
     "{path} is not a Canvas gradebook export: no column 'Student' or 'ID'"),
    ("blackboard", None, None,
     "Blackboard updates a Grade Center column only when the header carries its Column ID"),
    ("blackboard", None, "statics [Total Pts: 8 Score]", "has no column id"),
    ("blackboard", BLACKBOARD_DOWNLOAD, "Dynamics",
     "no graded column of {path} matches --lms-column 'Dynamics'; its graded columns: Lab 1 "
     "[Total Pts: 10 Score] |123457; Statics [Total Pts: 8 Score] |123456"),
])
def test_an_lms_gradebook_says_what_is_missing(tmp_path, name, export, column, message):
    with pytest.raises(lms.GradebookError) as info:
        _write(tmp_path, name, export=export, column=column)
    assert message.format(path=tmp_path / "export.csv") in str(info.value)


def test_blackboard_column_given_with_its_id(tmp_path):
    path, _ = _write(tmp_path, "blackboard", column="Statics [Total Pts: 8 Score] |123456")
    assert _rows(path)[0] == ["Username", "Statics [Total Pts: 8 Score] |123456"]


def test_the_generic_format_writes_no_file(tmp_path):
    assert write_lms_file(tmp_path, "generic", "statics", PARTS, ["ann"], GRADES, {}, {},
                          Problems()) is None
    with pytest.raises(lms.GradebookError):
        lms.grade_target("generic", "statics", gradebook=tmp_path / "x.csv")


def test_a_round_stops_before_anything_when_the_lms_file_would_not_import(tmp_path, capsys):
    from armlab.grading import autograde

    export = tmp_path / "export"
    export.mkdir()
    (export / "doejohn_48213_7730211_statics.ipynb").write_text("{}")
    assert autograde.main(["statics", str(export), "--lms", "canvas", "--out",
                           str(tmp_path / "out"), "--no-sandbox"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the canvas grade file: Canvas matches an existing assignment")
    assert not (tmp_path / "out").exists()
    assert autograde.main(["statics", str(export), "--lms", "canvas", "--lms-gradebook",
                           str(tmp_path / "none.csv"), "--no-sandbox"]) == 2
    assert capsys.readouterr().err == (f"error: --lms-gradebook {tmp_path / 'none.csv'}: "
                                       "no such file\n")
