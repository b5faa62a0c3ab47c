"""The built spatial dynamics chapter states each worked value, at its printed precision, where
it says it.

Slow: builds the book once per session (``_bookbuild.build_book``). The chapter's arm is the
SO-101 from its published URDF; its numbers are computed by ``armlab.spatial`` in the chapter
and each is checked there a second way.
"""

import pytest

from _bookbuild import chapter_pages
from bookpages import (PAGE_WORDS, assert_exercise_section, assert_figures_described,
                       assert_numbered_and_referred_to, clean, evals, soup, table, word_count)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

PAGE = "book/spatial_dynamics"
G_W = "(0.0000, -0.2040, -0.3967, -0.0771, 0.0000)"        # g(q_w) [N m]


@pytest.mark.parametrize("anchor, shown", [
    # the arm: 5 joints, 0.485 kg moving, rated 10 N m, reaching 0.391 m out level
    ("The SO-101 has", ["5", "0.485", "10", "0.391"]),
    # Example 1: the upper arm's spatial inertia; parallel axis raises I_zz 142.5 -> 981.2 e-6
    ("The upper arm weighs", ["0.103", "(-0.0898, -0.0084, 0.0184)", "142.5", "981.2", "147.3",
                              "1013.7"]),
    ("Two independent routes.", ["3e-20", "(0.5, -1.0, 2.0)", "(0.1, 0.3, -0.2)", "5.9601",
                                 "5.9601", "9e-19"]),
    # the costs: 2n, n - 1 and n(n-1)/2, 3n body steps for the SO-101 and the Panda
    ("Each pass visits each body once", ["10", "14"]),
    ("congruences for the composites", ["4", "10", "6", "21"]),
    ("Three passes of", ["15", "21"]),
    # Example 2: gravity torques, and the same by central differences of V
    ("The holding torques are", [G_W, "(0.231, -0.070, 0.053)", "4"]),
    ("is the gradient of the potential energy", ["1e-06", G_W, "7e-11"]),
    # Example 3: RNEA at a moving instant, and M qdd + c + g
    ("Its parts are the inertia torques", ["(0.0006, -0.1762, -0.3485, -0.0618, 0.0002)",
                                           "(0.0046, 0.0259, 0.0420, 0.0132, 0.0001)",
                                           "(-0.0040, 0.0020, 0.0062, 0.0021, 0.0000)"]),
    # the gaps below are round-off: they move with the order of CRBA's and ABA's arithmetic
    ("comes from a different algorithm", ["(0.0006, -0.1762, -0.3485, -0.0618, 0.0002)",
                                          "3e-16"]),
    # Example 4: M by CRBA [1e-3 kg m^2] and its check against RNEA's columns
    ("The pan joint sees", ["5.183", "4.744", "8.149", "4.059", "40.6", "15.286"]),
    ("The five columns of RNEA", ["3e-18", "4e-19", "39.6"]),   # M = columns; columns = columns^T
    # Example 5: ABA against the solve, and inverse after forward
    ("The accelerations are large", ["(21.303, -52.296, 199.324, -345.035, 35.643)"]),
    ("forward after inverse is the identity", ["(21.303, -52.296, 199.324, -345.035, 35.643)",
                                               "3e-13", "1e-16"]),
    # Example 6: the payload at the worked pose and reaching out level
    ("Per kilogram at the tip", ["(-1.7063, -2.2057, -0.9447)", "9.81", "elbow flex",
                                 "-0.3967", "-2.2057", "4.354", "2.994", "shoulder lift"]),
    ("a second model, run through RNEA", ["(0.0000, -7.6329, -10.0000, -4.1901, -0.0046)",
                                          "elbow flex", "10.000000"]),
    ("The capacity is lowest", ["3.47", "-76", "20.8", "15", "0.063"]),   # 0.063 m below z = 0
    # Example 7: the limp fall and its energy errors at each integrator's order
    ("All four runs start with the energy", ["698.5", "311", "25"]),
    ("The largest energy error over the run", ["3.19", "1.39", "2.3", "0.333", "0.0237", "14",
                                               "18.9"]),
    # the planar special case: the table-top arm's worked instant of inverse dynamics
    ("worked instant of the inverse dynamics chapter", ["(5.7796, 0.4443)", "7e-15"]),
])
def test_page_shows_worked_values(anchor, shown):
    """Each worked value is the computed text in the paragraph that states it"""
    assert evals(PAGE, anchor) == shown


def test_common_mistakes_show_their_numbers():
    """Each mistake is stated with the number it produces next to the right one"""
    assert evals(PAGE, "The inertia about the wrong point.") == ["2.704", "4.744"]
    assert evals(PAGE, "Degrees for radians.") == [
        "(0.0000, 0.0964, -0.2606, -0.1123, 0.0000)", G_W]
    assert evals(PAGE, "Gravity’s sign.") == ["(-8.9, 177.4, -259.1)", "(0.0, 0.0, 0.0)"]
    assert evals(PAGE, "A payload against the rating alone.") == ["4.534", "4.354"]
    assert evals(PAGE, "Velocity products left out.") == [
        "(-0.0040, 0.0020, 0.0062, 0.0021, 0.0000)"]
    assert evals(PAGE, "Trusting a small energy error.") == ["1.39", "18.9"]


def test_summary():
    assert evals(PAGE, "holds itself at the worked pose") == [G_W, "4.354", "2.994"]
    assert evals(PAGE, "A frictionless simulation conserves energy") == ["2.3", "14"]


def test_planar_table():
    """The table of where the planar results reappear names the three dynamics chapters"""
    rows = table(PAGE, "Where the planar chapters")
    text = " ".join(" ".join(row) for row in rows)
    for chapter in ("gravity", "inverse dynamics", "forward dynamics"):
        assert chapter in text
    assert len(rows) == 10


def test_figures_and_tables_are_numbered_and_referred_to():
    assert_numbered_and_referred_to(PAGE, ["fig-sd-payload", "fig-sd-swing", "tbl-sd-planar",
                                           "fig-sd-lab-view", "tbl-sd-lab"])
    assert_figures_described(PAGE, 3)


def test_one_page_read_in_a_sitting_with_no_promises():
    """One page under 9,000 words, no working notes"""
    assert word_count(PAGE) <= PAGE_WORDS
    assert chapter_pages("spatial_dynamics") == [PAGE]
    text = clean(soup(PAGE).get_text(" ")).lower()
    for word in ("seed",):
        assert word not in text, word


def test_lab_view_and_table():
    """The lab's 3-D view and its torques at the worked pose with 1 kg: g(q_w) of Example 2
    plus the payload's share"""
    values = [r[1] for r in table(PAGE, "table at the worked pose with a 1 kg payload")[1:]]
    assert values[3] == G_W                                     # Example 2
    assert values[1] == "(0.0000, -1.9103, -2.6024, -1.0218, -0.0011)"
    assert values[6] == "4.354 (elbow_flex)"                    # Example 6
    views = soup(PAGE).find_all("div", class_="armlab-view3d")
    assert len(views) == 1 and views[0].find_parent("figure")["id"] == "fig-sd-lab-view"


def test_exercise_section_links_the_notebook_and_lists_its_parts():
    assert_exercise_section(PAGE, "spatial_dynamics")
