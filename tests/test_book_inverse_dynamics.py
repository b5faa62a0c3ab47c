"""The built inverse dynamics chapter states each worked value, at its printed precision, where it says it.

Slow: builds the book once per session (``_bookbuild.build_book``). 'Inverse dynamics:
calculate the torque a robot's motion needs' and 'Robot dynamics: separate the torques that
move an arm' print six decimals, 'Arm dynamics' four; the page shows them so.
"""

import pytest

from _bookbuild import chapter_pages
from bookpages import (PAGE_WORDS, assert_exercise_section, assert_figures_described,
                       assert_numbered_and_referred_to, block, clean, evals_in, page_with, soup,
                       table_in, word_count)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

PAGES = chapter_pages("inverse_dynamics")
FIRST, SECOND = "book/inverse_dynamics", "book/inverse_dynamics/regressor"


@pytest.mark.parametrize("anchor, shown", [
    # the Christoffel symbols against the dynamics kernel at the worked instant of 'Arm dynamics'
    ("The symbol", ["0.0265", "0.03750", "(-0.2121, 0.0265)", "1e-16"]),
    # Mdot - 2C skew for the Christoffel C, not for the other one; the power identity
    ("With the Christoffel", ["-0.649519", "0.649519", "0.433013", "-0.108253", "-0.108253"]),
    # the rods' M straight and folded (the folded coupling -1/6, as in
    # 'Robot dynamics: separate the torques that move an arm')
    ("the coupling turns negative", ["2.666667", "0.833333", "0.333333", "0.666667",
                                     "-0.166667"]),
    # det M positive everywhere: m/9 + m^2 (1/3 - cos^2 q2 / 4)
    ("the determinant runs from", ["0.194444", "0.444444", "0.076389", "0.555556", "132"]),
    # 'Inverse dynamics: calculate the torque...': accelerate from horizontal
    ("Only the first column of", ["(2.666667, 0.833333)", "(19.620, 4.905)", "9.81", "0.5",
                                  "1.5", "0.5", "(22.286667, 5.738333)"]),
    ("only the elbow motor has a", ["0.833333"]),
    ("accelerates upward at", ["1.5", "1.5", "0.75", "0.083333", "0.833333"]),
    # the supported tip in the book's convention, and the reversed force
    ("reads row by row", ["(19.620, 4.905)", "(2.666667, 0.833333)", "(0, 5)", "(0, -5)",
                          "(-10, -5)", "(9.620000, -0.095000)", "-0.095",
                          "(29.620000, 9.905000)"]),
    # the moving bent arm of 'Inverse dynamics: calculate the torque...'
    ("are worth a second look", ["0.000000", "0.433013", "0.433013", "0.583013",
                                 "-0.100000"]),
    ("shares no code", ["(14.851657, 0.583013)"]),
    # 'Robot dynamics: separate the torques...': velocity products at q2 = -60 deg, damping,
    # the bent and moving total
    ("With the elbow bent the other way", ["-0.433013", "(-0.324760, -0.433013)",
                                           "(0.250000, -0.125000)", "0.500000", "-0.324760",
                                           "16.991418", "0.250000", "(17.416659, 3.648175)"]),
    ("closes the books", ["15.592571", "15.280071", "0.312500"]),
    ("A torque without power.", ["(0.833333, 0.333333)", "0.0"]),
    # 'Arm dynamics': M11 straight and bent, the worked instant, RNEA
    ("inertia depends on the elbow", ["0.246", "0.171", "0.2239", "0.0473",
                                                     "0.0208", "(0.5769, 0.1004)", "0.0265",
                                                     "(-0.2121, 0.0265)", "(5.4148, 0.3174)",
                                                     "(5.7796, 0.4443)", "94"]),
    ("RNEA gives", ["(5.7796, 0.4443)", "801", "4e-15"]),
    # Fig. 4.3's caption: the elbow's inertia part changes sign before half-way
    ("the elbow’s changes sign first", ["0.8", "0.137", "85"]),
    # the move of 'Arm dynamics': the ranges of the parts
    ("gravity part between", ["4.0", "6.8", "-2.9", "2.5", "0.45", "1.5",
                                                   "8.8", "0.46", "0.53", "0.9", "1.1"]),
    ("the motors peak at", ["0.02", "27.6", "0.34", "0.8", "9.2821", "9.0055", "0.2766",
                            "1e-11", "1e-14"]),
])
def test_page_shows_worked_values(anchor, shown):
    """Each worked value is the computed text in the paragraph that states it"""
    assert evals_in(PAGES, anchor) == shown


def test_cases_table():
    """The instants of 'Inverse dynamics: calculate the torque a robot's motion needs': tau
    per joint at six decimals, J^T F with the book's tip force"""
    rows = table_in(PAGES, "instants at the horizontal pose")
    assert rows[1:] == [
        ["accelerate", "(1, 0)", "(0, 0)", "(0, 0)", "22.286667", "5.738333"],
        ["hold", "(0, 0)", "(0, 0)", "(0, 0)", "19.620000", "4.905000"],
        ["gravity-free", "(1, 0)", "(0, 0)", "(0, 0)", "2.666667", "0.833333"],
        ["supported tip", "(0, 0)", "(0, -5)", "(-10, -5)", "9.620000", "-0.095000"],
        ["tip pushes up", "(0, 0)", "(0, 5)", "(10, 5)", "29.620000", "9.905000"],
    ]


def test_moving_bent_arm_table():
    """The moving preset of 'Inverse dynamics: calculate the torque a robot's motion needs',
    term by term"""
    rows = table_in(PAGES, "moving bent arm: the torque each term")
    assert [row[1:] for row in rows[1:]] == [
        ["1.583333", "0.250000"], ["0.324760", "0.433013"], ["12.743564", "0.000000"],
        ["0.200000", "-0.100000"], ["14.851657", "0.583013"]]


def test_power_table():
    """The energy panel of 'Robot dynamics: separate the torques that move an arm': T, V,
    motor power, rates, loss and a zero residual"""
    rows = table_in(PAGES, "bent and moving instant: energies")
    assert [row[1] for row in rows[1:]] == ["0.833333", "4.905000", "15.592571", "0.412580",
                                            "14.867491", "15.280071", "0.312500", "0.000000"]


def test_common_mistakes_show_their_numbers():
    """Each mistake is stated with the number it produces next to the right one"""
    assert evals_in(PAGES, "force on the arm where the book") == ["(29.620, 9.905)", "(9.620, -0.095)"]
    assert evals_in(PAGES, "Dropping the coupling") == ["(22.286667, 4.905000)", "0.833333", "15"]
    assert evals_in(PAGES, "because the arm is") == ["0.150000", "0.583013"]
    assert evals_in(PAGES, "reads 30 and 60 as") == ["(1.015, -2.926)", "(14.852, 0.583)"]
    assert evals_in(PAGES, "Friction with the wrong sign.") == ["(14.451657, 0.783013)"]
    assert evals_in(PAGES, "An explicit") == ["(1.714, -4.286)", "(2.666667, 0.833333)"]


def test_figures_are_numbered_and_referred_to():
    """Each figure and table has a number and a {numref} link in the text with that number
    (some only after the place where they appear); each figure has an alt text"""
    assert_numbered_and_referred_to(FIRST, [
        "fig-id-mass-matrix", "fig-id-cases", "fig-id-move", "fig-id-move-power",
        "tbl-id-cases", "tbl-id-moving", "tbl-id-power", "tbl-id-problems"], before=False)
    assert_numbered_and_referred_to(SECOND, ["fig-id-lab", "fig-id-identification",
                                             "tbl-id-identified"], before=False)
    assert_figures_described(FIRST, 4)
    assert_figures_described(SECOND, 2)


def test_lab_static_view():
    """The lab's table on the page without a kernel: the bent and moving
    instant of 'Robot dynamics: separate the torques that move an arm'"""
    cells = [td for td in soup(SECOND).find_all("td") if clean(td.get_text()) == "τ, total"]
    assert len(cells) == 1
    row = [clean(td.get_text()) for td in cells[0].find_parent("tr").find_all("td")]
    assert row == ["τ, total", "(17.416659, 3.648175)", "N m"]
    cells = [td for td in soup(SECOND).find_all("td")
             if clean(td.get_text()) == "base parameters Z1, X1"]
    row = [clean(td.get_text()) for td in cells[0].find_parent("tr").find_all("td")]
    assert row == ["base parameters Z1, X1", "(1.333333, 1.500000)", "kg m², kg m"]


def test_exercise_links():
    """The chapter ends with its exercise notebook, a Binder launch and the list of its parts"""
    assert_exercise_section(SECOND, "inverse_dynamics")


def test_summary_splits_the_elbow_torque_into_gravity_and_coupling():
    """The elbow's 5.738333 N m when the horizontal rods start the shoulder: 4.905 N m of it
    holds link 2 up, and only the 0.833333 N m of inertia comes from the coupling"""
    assert evals_in(PAGES, "The horizontal rods need") == [
        "(22.286667, 5.738333)", "5.738333", "4.905", "0.833333", "14.851657", "0.583013"]
    text = clean(block(SECOND, "The horizontal rods need").get_text(" "))
    assert "coupling alone;" not in text and "hold link 2 up" in text


def test_no_working_notes_and_an_honest_lab_note():
    """No "seed" anywhere a reader sees; the lab section says what is true: the page was
    executed, but a web page has no kernel for the sliders"""
    text = " ".join(clean(soup(page).get_text(" ")).lower() for page in PAGES)
    assert "seed" not in text
    assert "without a running kernel" not in text
    note = clean(block(SECOND, "The book ran that cell when this page was built").get_text(" "))
    assert "a web page keeps no Python behind it" in note


def test_regressor_worked_instant():
    """Y theta at the table-top arm's worked instant: theta = (0.15, 0.6, 0.020833, 0.125),
    the closed form's alpha and beta and the gravity chapter's a and b from it, the X columns
    g0 c1 and (1.6905, 3.3875) m/s^2, and Y theta = (5.7796, 0.4443) N m"""
    shown = evals_in(PAGES, "They give back the constants")
    assert shown[:12] == ["0.150000", "0.600000", "0.020833", "0.125000", "0.170833",
                          "0.170833", "0.03750", "5.886", "1.226", "8.4957", "1.6905", "3.3875"]
    assert float(shown[12]) < 1e-14
    assert shown[13] == "(5.7796, 0.4443)"


def test_regressor_checks_and_the_twin_arm():
    """Y theta against RNEA on 1,000 random states (with friction too), and a 3 kg link 1 with
    its centre of mass at 0.1 m and 0.03 kg m^2 that needs the table-top arm's torques"""
    shown = evals_in(PAGES, "random states,")
    assert shown[0] == "1,000"
    assert float(shown[1]) < 1e-13 and float(shown[2]) < 1e-13 and float(shown[9]) < 1e-13
    assert shown[3:9] == ["3.0", "2.0", "0.100", "0.150", "0.0300", "0.0150"]


def test_identification_table_and_checks():
    """The tour's fit: every parameter within its standard errors of the truth (friction too),
    the unseen move predicted within 2.3 mN m; without friction columns, 42 standard errors
    off though the residuals look like noise"""
    rows = table_in(PAGES, "identified from a")
    assert [r[1:] for r in rows[1:]] == [
        ["0.15002", "0.00010", "0.15000", "0.2"], ["0.60004", "0.00016", "0.60000", "0.2"],
        ["0.02082", "0.00004", "0.02083", "-0.4"], ["0.12498", "0.00008", "0.12500", "-0.2"],
        ["0.0195", "0.0007", "0.0200", "-0.8"], ["0.0200", "0.0004", "0.0200", "0.0"],
        ["-0.0003", "0.0017", "0.0000", "-0.2"], ["-0.0011", "0.0015", "0.0000", "-0.7"]]
    assert evals_in(PAGES, "The tour joins") == ["4", "0.8", "3,200", "0.05"]
    assert evals_in(PAGES, "lists the fit, and") == ["0.8", "0.02"]
    assert evals_in(PAGES, "A fit that matches its own data") == ["2.3", "8.8", "50"]
    assert evals_in(PAGES, "The standard errors assume the model") == ["56", "50", "42", "-45"]
    assert evals_in(PAGES, "Identifying without friction") == ["56", "50", "42", "-45"]
    assert evals_in(PAGES, "The torque is linear in four base") == ["3.2", "0.8", "2.3"]


def test_pages_read_in_a_sitting():
    """The chapter is two pages, split where the regressor begins, each at most 9,000 words as
    built; the second recomputes what it uses from the first in a folded cell"""
    assert PAGES == [FIRST, SECOND]
    counts = {page: word_count(page) for page in PAGES}
    assert all(n <= PAGE_WORDS for n in counts.values()), counts
    assert page_with(PAGES, "The tour joins") == SECOND
    lead = soup(FIRST).find(id="which-matrix-c").find("strong")
    assert lead.get_text() == "Going further."
    assert "recomputed: each page runs on its own" in soup(SECOND).find("pre").get_text()


def test_sign_convention_is_a_free_body_statement():
    """The sign convention is stated as what acts on which body"""
    found = block(FIRST, "Free body: the arm, cut free from the environment at its tip.")
    assert "Free body: the arm, cut free from the environment at its tip." in [clean(b.get_text(" ")) for b in found.find_all("strong")]
