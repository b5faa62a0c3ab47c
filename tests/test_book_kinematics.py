"""The built kinematics chapter: each worked value where the reader reads it, every figure and table
numbered and referred to, the lab's static view, the exercise link.

Slow: needs the built book (``_bookbuild.build_book``, shared with test_book_statics.py).
"""

import pytest

from _bookbuild import chapter_pages
from bookpages import (PAGE_WORDS, assert_exercise_section, assert_figures_described,
                       assert_lab_view_before_live_cell, assert_numbered_and_referred_to, evals_in,
                       table_in, word_count)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

PAGES = chapter_pages("kinematics")
FIRST, WORKSPACE = "book/kinematics", "book/kinematics/workspace"


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
    # sigma_1 stretched: the columns (0.9 and 0.4 m/rad) add in quadrature, not linearly
    ("grows by", ["41", "0.6986", "0.9849", "0.90", "1.30", "0.35", "28.22"]),
    ("both are reflections", ["-1", "-1"]),
    # Example 5: the workspaces
    ("reach exactly to both", ["129,600", "0.10", "0.05", "2.00", "(0.0, 0.0)"]),
    # Example 6: inverse kinematics of the wall pose's tip, elbow down and elbow up
    ("m from the base, the distance of Example 1", ["0.7810", "0.50", "60", "56.33", "26.33",
                                                     "(30.00, 60.00)", "(82.66, -60.00)"]),
    ("mm inside the outer circle needs", ["1", "5.44", "1.72", "3.16", "5.44", "1.72"]),
    # Example 7: the isotropic arm
    ("both singular values are", ["0.5657", "(0.4000, 0.4000)", "1.0000"]),
    ("does best with the elbow bent to between", ["131.8", "135.0"]),
    ("Inverse kinematics reads the elbow angle", ["(30.00, 60.00)", "(82.66, -60.00)"]),
])
def test_worked_values_in_the_text(anchor, shown):
    """Each worked value is the computed text in the paragraph that states it"""
    assert evals_in(PAGES, anchor) == shown


def test_finite_difference_and_identity_gaps_are_rounding_error():
    """The checks' gaps are shown, and they are at rounding level"""
    (fd_gap,) = evals_in(PAGES, "The largest gap is")
    assert float(fd_gap) < 1e-8
    gap_w, gap_sq, w90 = evals_in(PAGES, "rounding error. At 90")
    assert float(gap_w) < 1e-12 and float(gap_sq) < 1e-12
    assert w90 == "0.2000"


def test_walk_table():
    """Table: the velocity ellipse as the elbow straightens (sigma at 4 decimals)"""
    rows = table_in(PAGES, "The walk into the stretched pose")
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
    rows = table_in(PAGES, "arms: the annulus")
    assert rows[1:] == [
        ["statics arm", "0.50", "0.40", "0.10", "0.90", "2.513", "0.10", "0.90"],
        ["table-top arm", "0.30", "0.25", "0.05", "0.55", "0.942", "0.05", "0.55"],
        ["rods", "1.00", "1.00", "0.00", "2.00", "12.566", "0.00", "2.00"],
    ]


def test_inverse_kinematics_checks_are_at_rounding_level():
    """Both poses of Example 6 put the tip on the target, and the elbows mirror each other"""
    gap, elbow_down, elbow_up, mirror_gap = evals_in(PAGES, "Both tips land within")
    assert float(gap) < 1e-15 and float(mirror_gap) < 1e-15
    assert (elbow_down, elbow_up) == ("(0.433, 0.250)", "(0.064, 0.496)")


def test_isotropic_arm_checks():
    """The isotropic arm's columns are equally long and at right angles (the dot product quoted
    with its sign, as the cell prints it), and every joint speed of 1 rad/s moves the tip at
    L2 per second, the fastest and slowest differing by rounding"""
    lengths, dot, speed, spread = evals_in(PAGES, "long and their dot product is")
    assert lengths == "(0.4000, 0.4000)" and abs(float(dot)) < 1e-15
    assert speed == "0.4000" and float(spread) < 1e-15


def test_isotropy_table():
    """Table: each arm's length ratio, best sigma_2/sigma_1 and where, and the ratio at 90 deg"""
    rows = table_in(PAGES, "How close each arm comes to isotropy")
    assert rows[1:] == [
        ["statics arm", "1.25", "0.84", "134.6", "0.41"],
        ["table-top arm", "1.20", "0.79", "134.2", "0.41"],
        ["rods", "1.00", "0.62", "131.8", "0.38"],
        ["isotropic arm", "1.41", "1.00", "135.0", "0.41"],
    ]


def test_lab_static_table_is_the_labs_default_view():
    """The page's lab table holds the lab's own rows for its default preset"""
    from armlab.labs import kinematics_lab

    rows = table_in(PAGES, "table in its default view")
    values = [r[1] for r in rows[1:]]
    assert values == [b for _, b, _ in kinematics_lab(render=False).table_rows()]
    assert values[0] == "(0.433, 0.650)" and values[8] == "(-0.250, 0.433)"
    assert values[6] == "4.208" and values[7] == "(82.66, -60.00)"


def test_common_mistakes_numbers():
    assert evals_in(PAGES, "Degrees where radians belong") == ["(-0.102, -0.136)", "(0.433, 0.650)"]
    assert evals_in(PAGES, "The relative angle as an absolute one") == ["(0.633, 0.596)"]
    assert evals_in(PAGES, "The wrong lever") == ["(-0.250, 0.433)", "(-0.650, 0.433)"]
    assert evals_in(PAGES, "At a singular pose the arm cannot move") == ["0.9849"]
    assert evals_in(PAGES, "means near singular") == ["0.075", "0.41", "0.100", "0.11"]
    assert evals_in(PAGES, "The arctangent of a ratio") == ["(-0.433, -0.650)", "(0.433, 0.650)",
                                                        "1.562"]


def test_every_figure_and_table_is_numbered_and_referred_to_before_it():
    """Each figure and table has a number, and a {numref} link in the running text with that
    number points to it at or before the place where it appears"""
    assert_numbered_and_referred_to(FIRST, [
        "fig-kin-columns", "fig-kin-ellipses", "fig-kin-sigma", "tbl-kin-walk"])
    assert_numbered_and_referred_to(WORKSPACE, [
        "fig-kin-workspace", "fig-kin-ik", "fig-kin-iso", "fig-kin-lab", "tbl-kin-reach",
        "tbl-kin-iso", "tbl-kin-lab"])


def test_every_figure_has_alt_text():
    """A screen reader gets a description, not a file name"""
    assert_figures_described(FIRST, 3)
    assert_figures_described(WORKSPACE, 4)


def test_static_lab_view_is_introduced_before_the_live_cell():
    """The still view comes first, said to be what the page shows without a kernel; the live cell
    follows it, introduced as the same view come alive"""
    assert_lab_view_before_live_cell(WORKSPACE, "fig-kin-lab", intro="A static page cannot move sliders")


def test_links_exercises():
    """The chapter ends with its notebook on GitHub and Binder and the list of its parts"""
    assert_exercise_section(WORKSPACE, "kinematics")


def test_each_page_reads_in_a_sitting():
    """The chapter is two pages, each at most 9,000 words as built"""
    assert PAGES == [FIRST, WORKSPACE]
    counts = {page: word_count(page) for page in PAGES}
    assert all(n <= PAGE_WORDS for n in counts.values()), counts
