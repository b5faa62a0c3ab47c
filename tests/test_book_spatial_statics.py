"""The built spatial kinematics and statics chapter: each worked value where the reader reads
it, at its printed precision; every figure and table numbered and referred to; one page.

Slow: needs the built book (``_bookbuild.build_book``, shared with test_book_statics.py).
"""

import pytest

from _bookbuild import HTML, chapter_pages
from bookpages import (PAGE_WORDS, assert_exercise_section, assert_figures_described,
                       assert_lab_view_before_live_cell, assert_numbered_and_referred_to,
                       evals_in, soup, table_in, word_count)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

PAGES = chapter_pages("spatial_statics")
PAGE = "book/spatial_statics"
TAU_A = "(-0.2000, 2.3208, 2.3860, 1.0536, 0.1337)"
F_S_MOMENT = "(1.0367, 2.7998, 0.2000)"


@pytest.mark.parametrize("anchor, shown", [
    # the SO-101 from its URDF: five joints rated 10 N m, 0.485 kg of moving bodies
    ("The arm has", ["5", "10", "0.485"]),
    # Example 1: the work pose's wrench moved from the tip to the base origin, m + p x f
    ("twists a knob with", ["(0.4, -0.3, 0.5, 0.6, 0.2)", "10", "0.2",
                            "(0.0, 0.0, 0.2, 0.0, 0.0, -10.0)"]),
    # Example 2: the shoulder-lift screw axis (w, -w x r) through its joint at zero
    ("The shoulder-lift joint, for one", ["(0.0000, 1.0000, 0.0000, -0.1166, 0.0000, 0.0692)",
                                          "(0.0692, -0.0183, 0.1166)"]),
    # Example 4: tau = J^T W; the base joint (axis down) holds minus the knob's moment
    ("The base joint feels only the twist", [TAU_A, "0.2", "-0.2", None]),
    # Example 5: the largest load at the tip against the rated torques, gravity included
    ("Reaching out level, the arm", ["-0.5386", "-3.1601", "2.994", "shoulder_lift", "4.095",
                                     "elbow_flex", "-10.0000", "-10.0000"]),
    ("The load is smallest", ["2.801", "20", "0.340", "20", "0.110", "8.9", "shoulder_lift"]),
    # Example 7: the stretched pose and the flat velocity ellipsoid (the file's 1.5708)
    ("At the stretched pose, elbow", ["-73.82", "-5.05", "(0.5297, 0.1297)", "8.4e-06", "1.5708",
                                      "3.7e-06"]),
    # the planar special case: the statics chapter's wall push, and moment arms on the SO-101
    ("wall push at", ["(-6.5, -4.0)", "(3.2213, 2.9413, 1.5923)", "(3.2213, 2.9413, 1.5923)"]),
    # common mistakes
    ("Force first.", ["(10.000, -0.046, -0.048, -0.021, -7.173)", TAU_A]),
    ("A moment about the wrong point.", ["(-0.2000, -0.6617, -0.5965, -1.9290, 0.0394)"]),
    ("Moving a wrench with the twist", ["(0.0000, 0.0000, 0.2000)", F_S_MOMENT]),
    ("wrong sign.", ["3.335", "2.994"]),
    ("Trusting a singular value", ["8.4e-06"]),
])
def test_worked_values_in_the_text(anchor, shown):
    """Each worked value is the computed text in the paragraph that states it (None: a gap
    checked below)"""
    found = evals_in(PAGES, anchor)
    assert [None if s is None else f for s, f in zip(shown, found)] == shown
    assert len(found) == len(shown)


def test_tip_pose_and_wrench_checks():
    """The zero pose, the adjoint against cross products, the PoE against the URDF's product,
    the finite-difference column, the three frames' torques: the gaps are rounding"""
    pos, z_axis, orth = evals_in(PAGES, "At zero the arm reaches out level")
    assert (pos, z_axis) == ("(0.3914, 0.0000, 0.2265)", "(1, 0, 0)") and float(orth) < 1e-14
    p, pxf, m_s, gap = evals_in(PAGES, "The tip is at")
    assert (p, pxf, m_s) == ("(0.2800, -0.1037, 0.0911)", "(1.0367, 2.7998, 0.0000)", F_S_MOMENT)
    assert float(gap) < 1e-13
    (poe_gap,) = evals_in(PAGES, "differ by at most")
    assert float(poe_gap) < 1e-14
    column, pan, h, fd_gap = evals_in(PAGES, "The column is")
    assert (column, pan, h) == ("(0.3894, 0.9211, 0.0000, -0.1074, 0.0454, 0.0662)", "22.9",
                                "1e-06")
    assert float(fd_gap) < 1e-9
    frames_gap = evals_in(PAGES, "The base joint feels only the twist")[-1]
    assert float(frames_gap) < 1e-13


def test_virtual_work_table():
    """Table: joint work and tip work along finite steps, their gap first order in the step"""
    rows = table_in(PAGES, "Finite steps")
    assert rows[1:] == [
        ["1e-01", "1.4346e-01", "1.3963e-01", "2.7e-02"],
        ["1e-02", "1.4346e-02", "1.4309e-02", "2.6e-03"],
        ["1e-03", "1.4346e-03", "1.4342e-03", "2.6e-04"],
        ["1e-04", "1.4346e-04", "1.4346e-04", "2.6e-05"],
    ]
    assert evals_in(PAGES, "The relative difference falls from") == ["2.7e-02", "2.6e-05", "1026"]


def test_ellipsoids_and_the_structures_wrench():
    v_axes, f_axes, w, gap, fastest = evals_in(PAGES, "m/s per rad/s and the force")
    assert (v_axes, f_axes, w, fastest) == ("(0.3826, 0.2626, 0.1022)", "(2.614, 3.808, 9.785)",
                                            "0.01027", "0.3753")
    assert float(gap) < 1e-15
    wrench, torque = evals_in(PAGES, "a 1 N force with its moment")
    assert wrench == "(-0.2592, 0.1096, -0.2625, 0.3894, 0.9211, 0.0000)"
    assert float(torque) < 1e-14


def test_every_figure_and_table_is_numbered_and_referred_to_before_it():
    assert_numbered_and_referred_to(PAGE, ["fig-sp-arm", "fig-sp-load", "fig-sp-ellipsoids",
                                           "fig-sp-sigma", "tbl-sp-work", "fig-sp-lab-view",
                                           "fig-sp-lab-bars", "tbl-sp-lab"])


def test_every_figure_has_alt_text():
    assert_figures_described(PAGE, 6)


def test_one_page_read_in_a_sitting():
    assert PAGES == [PAGE]
    assert word_count(PAGE) <= PAGE_WORDS


def test_lab_view_table_and_live_cell():
    """The lab's static 3-D view (its scene in the page, turned by the book's own script), its
    bars and its table (Example 4's torques) come before the live cell"""
    assert_lab_view_before_live_cell(PAGE, "fig-sp-lab-bars", "fig-sp-lab-view", "tbl-sp-lab",
                                     intro="the sliders cannot move here")
    values = [r[1] for r in table_in(PAGES, "table at its default case, Example 4")[1:]]
    assert values[1] == values[5] == TAU_A                      # tau, all of it J^T W
    assert values[6] == "4.095 (elbow_flex)"                    # Example 5 at the work pose
    assert values[8] == "0.3826, 0.2626, 0.1022"                # Example 6's sigma
    page = soup(PAGE)
    views = page.find_all("div", class_="armlab-view3d")
    assert len(views) == 1 and views[0].find_parent("figure")["id"] == "fig-sp-lab-view"
    head = (HTML / f"{PAGE}.html").read_text(encoding="utf-8")
    assert '<script src="../_static/armlab_view3d.js?' in head


def test_exercise_section_links_the_notebook_and_lists_its_parts():
    assert_exercise_section(PAGE, "spatial_statics")
