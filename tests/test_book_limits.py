"""The built limits chapter: each worked value where the reader reads it (the source documents'
values at their printed precision: the table-top arm's move, the two 1 m rods' clipping
cases, the statics arm's pushes, the payload capacity of Robotics Toolbox for Python's
documentation), every figure and table numbered and referred to, the lab's static view, no
word of this project's working notes, the exercise link.

Slow: needs the built book (``_bookbuild.build_book``, shared with test_book_statics.py).
"""

import pytest

from _bookbuild import HTML
from bookpages import (assert_exercise_section, assert_figures_described,
                       assert_lab_view_before_live_cell, assert_numbered_and_referred_to, block,
                       clean, evals, table)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

PAGE = "book/limits"                  # the chapter's first page: sections 6.1 to 6.5
PAGE2 = "book/limits/capacity"        # its second: capacity, gears, motors, lab, exercises
PAGES = (PAGE, PAGE2)

#: The worked values stated on the second page (the rest are on the first).
ON_PAGE2 = {"Held horizontal with 25 N m motors", "With the elbow bent up",
            "With the elbow at 90° the push is", "the arm holds itself everywhere",
            "An assumed small servo motor", "motor the data a real data sheet",
            "The line crosses the peak torque", "The heat is another matter",
            "At the joint the motor gives", "Is 50:1 a good choice?", "buys torque, linearly"}


@pytest.mark.parametrize("anchor, shown", [
    # Example 1, the rods-and-limits case: (1, 0) rad/s^2 requested at the horizontal pose under 20
    # N m
    ("The request needs", ["(2.666667, 0.833333)", "(19.620, 4.905)", "(22.286667, 5.738333)",
                           "0.833333", "(20.000000, 5.738333)", "(-2.92, 9.80)"]),
    # ... and its check M (qdd_real - qdd_req) = deficit
    ("N m, the acceleration error", ["(-2.286667, 0.000000)", "(-3.92, 9.80)", "(-2.286667, 0.000000)"]),
    # why backwards: the elbow's torque is gravity's plus the push for a forward shoulder; the
    # shoulder's 0.38 N m surplus over gravity does not cover it; 2.29 N m x 12/7 = 3.92 > 1
    ("Why backwards", ["19.62", "5.74", "4.905", "0.833333", "0.38", "8/3", "7/12", "1.7143",
                       "2.29", "3.92"]),
    # Example 2, the rods-and-limits case's exercise: (0, 2) under 1.5 N m without gravity
    ("Without gravity the request is pure inertia", ["(5/3, 2/3)", "(3/2, 2/3)",
                                                     "(-2/7, 19/7)", "(-0.285714, 2.714286)"]),
    ("The bottom row of", ["(-1/6, 0)", "(-1/6, 0)"]),
    # the rods-and-limits case's support with the wrong sign: the help becomes a load
    ("Every case that stays inside the limit", ["(29.620, 9.905)"]),
    # scaling the vector
    ("Without gravity, at rest and without friction", ["0.9", "(0.0, 1.8)", "0.9", "0.8974",
                                                        "(20.0000, 5.1496)",
                                                        "(-0.3967, 1.7255)"]),
    # the table-top case's move in 0.8 s, and slowed to 1.6 s: the inertial part's largest magnitude
    # is
    # the braking -2.9 N m, a quarter of it -0.73
    ("Gravity is the largest part at the shoulder", ["4.0", "6.8", "-2.9", "2.5", "8.8",
                                                     "1.6", "-2.9", "-0.73"]),
    # Example 3: the shortest move under (8, 2) N m, and its check on a fine grid
    # ... and what binds there: gravity 6.51 + inertia 1.21 + velocity 0.29 = 8 N m, while
    # gravity's own peak, 6.85 N m, comes later, at 47 % of the time; the time fractions t/T
    # (36 %, 47 %) are path fractions s of 25 % and 44 %
    ("The shortest duration is", ["0.975", "22", "0.8", "1", "0.353", "36", "25", "6.51",
                                  "1.21", "0.29", "6.85", "47", "44"]),
    ("exactly on the limit; one", ["8.0000", "8.0304"]),
    # the 0.5 kg payload: 8.8 -> 12.1 N m at 0.8 s, gravity's floor, and no fast duration either
    ("payload in the gripper raises", ["0.5", "0.8", "8.8", "12.1", "44", "47", "9.28", "400",
                                       "0.05",
                                       "20", "0.488", "0.975"]),
    # Example 4, the conventions case's meanings on the rods
    ("Held horizontal with 25 N m motors", ["(0.2742, 2.0484)", "0.2742",
                                            "(25.0000, 7.5950)"]),
    ("With the elbow bent up", ["1.0484", "19.62", "1.0291", "(-7.92, 19.80)"]),
    # the statics case's pushes under 20 N m, with and without the arm's weight
    ("With the elbow at 90° the push is", ["50", "50", "2,865", "21.09"]),
    # the capacity map of the table-top arm
    # along the path (path fractions s, not t/T): least 0.237 kg at 44 %; 14 % of the joint
    # space nan under (6, 1.5) N m, the path in it from 14 % to 73 %
    ("the arm holds itself everywhere", ["0.165", "55", "0.5", "0.237", "44", "14", "14",
                                         "73"]),
    # Example 5: the worked motor through 50:1, the conventions case's sign
    # the time-optimal motion along the same path, its check and its play on the arm
    # the velocity-limit curve: never closer than 2.1 /s to the profile; its lowest point
    # (2.99 /s, the elbow's zero-inertia point) near the start, where the profile is at 0.88 /s
    ("The fastest motion takes", ["0.586", "40", "0.975", "0.88", "0.506", "3.01", "2.1",
                                  "2.99", "0.037", "0.88", "2.99", "0.5858", "0.5859"]),
    ("The largest torque along the plan", ["(1.000000, 0.815647)"]),
    ("Rescaled uniformly, the cubic", ["0.738", "0.975", "1.151", "0.586", "14"]),
    ("The drives never give more", ["(0.2, 0.1)", "8.37", "16"]),
    # at the floor's pose, s = 0.44 (not s = 0.47, the floor's time fraction)
    ("no time law works either", ["0.5", "inf", "0.44", "44", "-2.92"]),
    ("An assumed small servo motor", ["4,800"]),
    # the worked motor with a back-EMF line and a continuous rating: the best ratio moves from
    # 79.5:1 (0.624 s) to 64:1 (0.795 s); 50:1 is unchanged, below the 250 rad/s corner; the
    # fastest move touches the line (0.000 N m over it)
    ("motor the data a real data sheet", ["0.3", "500", "0.15", "0.05"]),
    ("The line crosses the peak torque", ["250", "1.59", "108", "64", "0.795", "79.5", "0.624",
                                          "0.000"]),
    # the cycle's heat: RMS 5.35 N m, 1.7 x the 3.2 N m rating; gravity alone 5.02; the holds
    # (4.00 and 5.03 N m, 1 s each of 3.59 s) 3.39 by hand; cool from 106.8:1 (1.000 s, 5.34)
    ("The heat is another matter", ["64", "5.35", "1.7", "3.2", "5.02", "4.00", "5.03",
                                    "3.59", "3.39", "106.8", "1.000", "5.34", "64"]),
    # the shoulder's own inertia: elbow folded 0.096, straight 0.246, at 90 deg 0.171 kg m^2
    ("At the joint the motor gives", ["7.5", "10", "0.05", "0.2", "0.0125", "0.096", "0.246",
                                      "0.171", "0.3", "-0.3", "0.3"]),
    ("Is 50:1 a good choice?", ["7.11", "7.5", "1.59"]),
    # the gear sweep: carries the arm up from 46.9:1 (holds it at rest from 45.6:1), fastest
    # where the two curves cross (79.5:1, 0.624 s); the torque-limited curve falls until 203:1,
    # where the speed allows only 1.60 s
    ("buys torque, linearly", ["46.9", "46.9", "45.6", "0.624", "79.5", "0.032", "203",
                               "0.437", "1.60"]),
])
def test_worked_values_in_the_text(anchor, shown):
    """Each worked value is the computed text in the paragraph that states it"""
    assert evals(PAGE2 if anchor in ON_PAGE2 else PAGE, anchor) == shown


def test_rods_torque_cases_table():
    """Table: the rods' five instants under 20 N m; only the request above the limit changes"""
    rows = table(PAGE, "instants of the rods under a 20 N m limit")
    assert rows[0] == ["case", "requested \\(\\tau\\)", "applied \\(\\tau\\)",
                       "realized \\(\\ddot q\\)"]
    body = [r[1:] for r in rows[1:]]
    assert body == [
        ["(22.286667, 5.738333)", "(20.000000, 5.738333)", "(-2.920000, 9.800000)"],
        ["(19.620000, 4.905000)", "(19.620000, 4.905000)", "(0.000000, 0.000000)"],
        ["(2.666667, 0.833333)", "(2.666667, 0.833333)", "(1.000000, 0.000000)"],
        ["(9.620000, -0.095000)", "(9.620000, -0.095000)", "(0.000000, 0.000000)"],
        ["(14.851657, 0.583013)", "(14.851657, 0.583013)", "(1.000000, -1.000000)"],
    ]
    assert rows[4][0] == "supported, tip_force = (0, -5) N"


def test_move_parts_table():
    """Table: the table-top arm's 0.8 s move, each part's range (the source's 4.0-6.8, -2.9-2.5,
    0.45...)"""
    rows = table(PAGE, "move in 0.8 s: the range of each part")
    assert [r[1:] for r in rows[1:]] == [
        ["-2.9", "2.5", "-0.53", "0.18"],          # inertia M qdd
        ["-0.07", "0.45", "-0.07", "0.46"],        # velocity products c
        ["4.0", "6.8", "0.9", "1.1"],              # gravity g
        ["1.5", "8.8", "0.45", "1.56"],            # total
    ]
    assert [r[0].split()[0] for r in rows[1:]] == ["inertia", "velocity", "gravity", "total"]


def test_lab_static_table_is_the_labs_view():
    """The page's lab table holds the lab's own rows at the torque-limited preset"""
    from armlab.labs import limits_lab

    rows = table(PAGE2, "table at the torque-limited preset")
    lab = limits_lab(preset="torque-limited acceleration (20 N m)", render=False)
    assert [r[1] for r in rows[1:]] == [b for _, b, _ in lab.table_rows()]
    assert rows[4][1] == "(-2.920000, 9.800000)" and rows[6][1] == "(-2.286667, 0.000000)"


def test_common_mistakes_numbers():
    assert evals(PAGE2, "Clipping, then assuming the requested motion") == ["1", "-2.92"]
    assert evals(PAGE2, "Scaling down only the joint that saturates") == ["9.8", "1.73"]
    assert evals(PAGE2, "Forgetting gravity when checking a limit") == ["0.488", "0.975",
                                                                       "2,865", "21.09"]
    assert evals(PAGE2, "capacity as zero") == ["(-7.92, 19.80)"]
    assert evals(PAGE2, "The gear ratio on the wrong side") == ["0.05", "8e-09", "6.25"]


def test_summary_numbers():
    assert evals(PAGE2, "A drive that cannot give the requested torque clips it") == [
        "-2.92", "9.8"]
    assert evals(PAGE2, "Scaling the torque vector keeps its direction") == ["0.975", "0.5"]
    assert evals(PAGE2, "says per joint and per pose how much the motors can hold") == ["79.5"]


def test_every_figure_and_table_is_numbered_and_referred_to_before_it():
    """Each figure and table has a number, and a {numref} link in the running text with that
    number points to it at or before the place where it appears, on each of the two pages"""
    assert_numbered_and_referred_to(PAGE, [
        "fig-limits-policies", "fig-limits-durations", "fig-limits-phase",
        "tbl-limits-instants", "tbl-limits-move-parts"])
    assert_numbered_and_referred_to(PAGE2, [
        "fig-limits-capacity", "fig-limits-gear", "fig-limits-motor", "fig-limits-lab",
        "tbl-limits-lab"])


def test_every_figure_has_alt_text():
    """A screen reader gets a description, not a file name"""
    assert_figures_described(PAGE, 3)
    assert_figures_described(PAGE2, 4)


def test_static_lab_view_comes_before_the_live_cell():
    assert_lab_view_before_live_cell(PAGE2, "fig-limits-lab", "tbl-limits-lab",
                                     intro="the sliders cannot move here")


def test_equations_are_numbered_and_referred_to():
    """The deficit check (the chapter's key equation) is numbered and cited from the lab text"""
    for page, labels in ((PAGE, ("eq-limits-request", "eq-limits-realized", "eq-limits-deficit",
                                 "eq-limits-scale", "eq-limits-time-scaling", "eq-limits-path",
                                 "eq-limits-bounds")),
                         (PAGE2, ("eq-limits-capacity", "eq-limits-line", "eq-limits-rms",
                                  "eq-limits-gear"))):
        text = (HTML / f"{page}.html").read_text(encoding="utf-8")
        for label in labels:
            assert f'id="equation-{label}"' in text, label
            assert f'href="#equation-{label}"' in text, label


def test_no_working_notes_on_the_page():
    """No word of this project's notes about its sources ("seed") anywhere a reader sees: the
    text, captions, alt texts, labels, code and outputs of the built page"""
    for page in PAGES:
        assert "seed" not in (HTML / f"{page}.html").read_text(encoding="utf-8").lower(), page


def test_lab_section_says_how_the_page_was_made():
    """The book executes every chapter inline: the lab section must not say it had no kernel"""
    text = clean(block(PAGE2, "sliders cannot move here").get_text(" "))
    assert "without a running kernel" not in text
    assert "ran every cell of this chapter when it was built" in text


def test_links_exercises():
    """The chapter ends with its notebook on GitHub and Binder and the list of its parts"""
    assert_exercise_section(PAGE2, "limits")


def test_each_page_is_read_in_a_sitting():
    """No page of the chapter runs past 9,000 words of main text as built; the first ends by
    sending the reader on to the second"""
    from bookpages import soup                    # the page's main article

    for page in PAGES:
        assert len(soup(page).get_text(" ").split()) <= 9000, page
    links = [a["href"] for a in soup(PAGE).find_all("a", href=True)]
    assert "limits/capacity.html" in links
