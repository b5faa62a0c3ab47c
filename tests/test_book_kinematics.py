"""The built kinematics chapter: each worked value where the reader reads it, every figure and table
numbered and referred to, the lab's static view, the exercise link.

Slow: needs the built book (``_bookbuild.build_book``, shared with test_book.py).
"""

import pytest

from bookpages import (assert_exercise_section, assert_figures_described,
                       assert_lab_view_before_live_cell, assert_numbered_and_referred_to, evals,
                       table)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

PAGE = "book/kinematics"


@pytest.mark.parametrize("anchor, shown", [
    # Example 1: forward kinematics at the wall pose (the statics arm's elbow and tip)
    ("Link 2 points at", ["90", "0.433", "0.25", "0.433", "0.65"]),
    ("Both give", ["0.7810", "0.7810"]),
    # Example 2: the columns z x (p_tip - p_j) and the velocity for qd = (1, -1) rad/s
    ("is the whole arm, ", ["(0.433, 0.650)", "(-0.650, 0.433)",
                                               "(0.0, 0.4)", "(-0.4, 0.0)"]),
    ("The tip moves at", ["(-0.250, 0.433)", "0.50", "(-0.250, 0.433)"]),
    ("The shoulder turns forward and the elbow back", ["(0.2309, -0.3753)"]),
    # Example 3: the stretched pose
    ("Both columns point along", ["(0.0, 0.9)", "(0.0, 0.4)", "(0.4061, -0.9138)", "2.25"]),
    ("Each tenfold smaller step makes the displacement", ["100", "9.3e-08"]),
    # Example 4: the walk (the singular values at 90 and 1 degree)
    ("grows by", ["41", "0.6986", "0.9849", "0.35", "28.22"]),
    ("both are reflections", ["-1", "-1"]),
    # Example 5: the workspaces
    ("reach exactly to both", ["129,600", "0.10", "0.05", "2.00", "(0.0, 0.0)"]),
])
def test_worked_values_in_the_text(anchor, shown):
    """Each worked value is the computed text in the paragraph that states it"""
    assert evals(PAGE, anchor) == shown


def test_finite_difference_and_identity_gaps_are_rounding_error():
    """The checks' gaps are shown, and they are at rounding level"""
    (fd_gap,) = evals(PAGE, "The largest gap is")
    assert float(fd_gap) < 1e-8
    gap_w, gap_sq, w90 = evals(PAGE, "rounding error. At 90")
    assert float(gap_w) < 1e-12 and float(gap_sq) < 1e-12
    assert w90 == "0.2000"


def test_walk_table():
    """Table: the velocity ellipse as the elbow straightens (sigma at 4 decimals)"""
    rows = table(PAGE, "The walk into the stretched pose")
    assert [r[0] for r in rows[1:]] == ["90°", "30°", "5°", "1°", "0°"]
    assert [r[1:] for r in rows[1:]] == [
        ["0.6986", "0.2863", "0.2000", "0.35"],
        ["0.9515", "0.1051", "0.1000", "0.95"],
        ["0.9840", "0.0177", "0.0174", "5.64"],
        ["0.9848", "0.0035", "0.0035", "28.22"],
        ["0.9849", "0.0000", "0.0000", "none"],
    ]


def test_reach_table():
    """Table: each arm's annulus and the grid's nearest and farthest tips agree"""
    rows = table(PAGE, "arms: the annulus")
    assert rows[1:] == [
        ["statics arm", "0.50", "0.40", "0.10", "0.90", "2.513", "0.10", "0.90"],
        ["table-top arm", "0.30", "0.25", "0.05", "0.55", "0.942", "0.05", "0.55"],
        ["rods", "1.00", "1.00", "0.00", "2.00", "12.566", "0.00", "2.00"],
    ]


def test_lab_static_table_is_the_labs_default_view():
    """The page's lab table holds the lab's own rows for its default preset"""
    from armlab.labs import kinematics_lab

    rows = table(PAGE, "table in its default view")
    values = [r[1] for r in rows[1:]]
    assert values == [b for _, b, _ in kinematics_lab(render=False).table_rows()]
    assert values[0] == "(0.433, 0.650)" and values[6] == "(-0.250, 0.433)"


def test_common_mistakes_numbers():
    assert evals(PAGE, "Degrees where radians belong") == ["(-0.102, -0.136)", "(0.433, 0.650)"]
    assert evals(PAGE, "The relative angle as an absolute one") == ["(0.633, 0.596)"]
    assert evals(PAGE, "The wrong lever") == ["(-0.250, 0.433)", "(-0.650, 0.433)"]
    assert evals(PAGE, "At a singular pose the arm cannot move") == ["0.9849"]
    assert evals(PAGE, "means near singular") == ["0.075", "0.41", "0.100", "0.11"]


def test_every_figure_and_table_is_numbered_and_referred_to_before_it():
    """Each figure and table has a number, and a {numref} link in the running text with that
    number points to it at or before the place where it appears"""
    assert_numbered_and_referred_to(PAGE, [
        "fig-kin-columns", "fig-kin-ellipses", "fig-kin-sigma", "fig-kin-workspace", "fig-kin-lab",
        "tbl-kin-walk", "tbl-kin-reach", "tbl-kin-lab"])


def test_every_figure_has_alt_text():
    """A screen reader gets a description, not a file name"""
    assert_figures_described(PAGE, 5)


def test_static_lab_view_is_introduced_before_the_live_cell():
    """The still view comes first, said to be what the page shows without a kernel; the live cell
    follows it, introduced as the same view come alive"""
    assert_lab_view_before_live_cell(PAGE, "fig-kin-lab", intro="A static page cannot move sliders")


def test_links_exercises():
    """The chapter ends with its notebook on GitHub and Binder and the list of its parts"""
    assert_exercise_section(PAGE, "kinematics")
