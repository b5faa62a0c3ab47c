"""The gravity chapter as built: each worked value, at its printed precision, in the paragraph,
table cell or list item that states it.

Slow: builds the book (shared with test_book_statics.py through _bookbuild).
"""

import pytest

from _bookbuild import HTML
from _bookbuild import chapter_pages
from bookpages import (PAGE_WORDS, assert_exercise_section, assert_figures_described,
                       assert_numbered_and_referred_to, block, clean, evals_in, page_with, soup,
                       table_in, word_count)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

PAGES = chapter_pages("gravity")
FIRST, SECOND = "book/gravity", "book/gravity/identification"


def test_page_is_in_the_book():
    assert all((HTML / f"{page}.html").is_file() for page in PAGES)


def test_three_routes_to_the_worked_pose():
    """'Arm dynamics': a = 5.886, b = 1.226, g(30, 45 deg) = (5.4148, 0.3174) N m, 94 % of the
    worked instant's 5.7796 N m; the three routes agree to rounding"""
    shown = evals_in(PAGES, "For the table-top arm")
    assert shown[:5] == ["5.886", "1.226", "5.0974", "5.4148", "0.3174"]
    assert float(shown[5]) < 1e-8
    assert shown[6:] == ["4.1275", "5.7796", "94"]


def test_rods_by_lever_arms():
    """'Robot dynamics: separate the torques that move an arm': (19.62, 4.905) N m held
    horizontal; facing left the signs flip"""
    assert evals_in(PAGES, "Each rod weighs") == ["0.5", "1.5", "0.5", "9.81", "9.81", "0.5",
                                              "1.5", "19.62", "9.81", "0.5", "4.905",
                                              "14.715", "3", "-19.62", "-4.905"]


def test_upright_is_unstable():
    """Zero torque straight up, but dg/dq has negative eigenvalues; hanging down positive"""
    assert evals_in(PAGES, "Point the straight arm up") == ["0", "0"]
    assert evals_in(PAGES, "For the upright rods") == ["-19.62", "-4.905", "(-21.11, -3.42)",
                                                   "0.01", "10", "1.2", "(3.42, 21.11)"]


def test_heavier_link2():
    """The exercise of 'Robot dynamics: separate the torques that move an arm': link 2 of
    2 kg needs (34.335, 9.81), up by 14.715 and 4.905"""
    assert evals_in(PAGES, "Make link 2 a rod of 2 kg") == ["1.5", "0.5", "34.335", "9.81",
                                                        "14.715", "9.81", "1.5", "4.905",
                                                        "0.5"]


def test_rod_table():
    rows = table_in(PAGES, "The two rods in five cases")
    assert [r[3:] for r in rows[1:]] == [
        ["19.620", "4.905", "0.000"], ["-19.620", "-4.905", "0.000"],
        ["0.000", "0.000", "-21.105"], ["0.000", "0.000", "3.420"],
        ["34.335", "9.810", "0.000"]]


def test_shoulder_peak_over_the_joint_space():
    assert evals_in(PAGES, "The largest shoulder torque in any pose") == ["7.11", "1.226"]


def test_the_hold_setting():
    """The plant's friction, the controller's 1 kHz tick (al.simulate's default) and the gains"""
    assert evals_in(PAGES, "the controller runs at") == ["0.02", "1", "(60, 30)", "(4.0, 1.5)"]


def test_pd_sag():
    """'Arm dynamics': the PD without compensation sags 5.5 and 0.9 deg after 3 s"""
    assert evals_in(PAGES, "After 3 s the arm has settled") == ["3", "5.5", "0.9"]


def test_sag_table_and_check():
    rows = table_in(PAGES, "The sag of the PD with")
    assert [r[1:] for r in rows[1:]] == [["5.171", "0.606"], ["5.571", "0.860"],
                                         ["5.544", "0.854"], ["5.544", "0.854"]]
    shown = evals_in(PAGES, "The exact solution and the simulation differ by")
    assert float(shown[0]) < 1e-9
    assert shown[1:] == ["3", "0.37", "0.71", "0.03"]
    assert evals_in(PAGES, "Why the controller settles there") == ["(60, 30)", "23.2"]
    assert evals_in(PAGES, "shows the price of a PD") == ["(60, 30)", "(120, 60)", "5.54", "2.68"]


def test_compensation_integral_and_free_drive():
    """Gravity compensation: zero error, torque g = (5.4148, 0.3174); the integral term's time
    constants and how slowly it finds the 5.4 N m; free drive holds still"""
    assert evals_in(PAGES, "The error stays at") == ["0", "3", "5.4148", "0.3174"]
    assert evals_in(PAGES, "what is still missing decays like") == ["(60, 30)"]
    assert evals_in(PAGES, "The time constants are") == ["0.91", "0.98", "3.58", "1", "4.84", "2",
                                                     "5.41", "5.9", "0.1", "3.6", "0.1",
                                                     "1.7", "2.1", "1.7", "30", "6"]
    assert evals_in(PAGES, "Left alone, the compensated arm") == ["0", "0.5", "3", "106.5",
                                                              "0.370"]


def test_free_drive_elbow_moves_and_friction_slows_the_shoulder():
    """Free drive after a push with exact compensation (the arm without gravity, RK4 steps:
    digits that survive ten times finer steps; the 1 kHz sampled compensation gave 108 deg and
    0.39 rad/s): the elbow straightens from 45 to 28 deg; the shoulder's friction alone
    (elbow locked, e^(-Bt/M11), 0.38 rad/s) predicts its 0.370 rad/s within 0.012 rad/s;
    without friction the joints trade speed, (132.3, -43.8) deg and (0.531, -0.157) rad/s
    after 3 s, and the kinetic energy stays the push's 0.0280 J"""
    assert evals_in(PAGES, "The elbow moves too") == ["45", "28", "3"]
    shown = evals_in(PAGES, "What slows the shoulder")
    assert shown[:-1] == ["45", "0.2239", "0.02", "0.38", "3", "0.012", "3", "132.3", "-43.8",
                          "(0.531, -0.157)", "0.0280"]
    assert float(shown[-1]) < 1e-12                               # [J]
    assert evals_in(PAGES, "With the motors off instead") == ["(-126, -58)"]


def test_sampled_compensation_adds_energy():
    """Going further: compensation held through each tick adds kinetic energy to the
    frictionless free drive, 10.7 % in 3 s at 1 kHz and 1.0 % at 10 kHz (first order in the
    tick, 10.5 times less), close to the estimate -(dt/2) int qd^T dg/dq qd dt (10.09 %,
    1.01 %); exact compensation adds none; at 1 kHz 47 % of the shoulder's speed-up
    (0.559 against 0.531 rad/s) would be the tick's; on the real arm friction takes 0.0126 J
    in 3 s and the tick still adds 0.0013 J (shoulder 0.386 against 0.370 rad/s)"""
    rows = table_in(PAGES, "under compensation held through each tick")
    assert [r[1:] for r in rows[1:3]] == [["10.7", "10.09", "0.559"], ["1.0", "1.01", "0.534"]]
    assert float(rows[3][1]) < 1e-9 and rows[3][2:] == ["0", "0.531"]
    assert evals_in(PAGES, "uses adding") == ["10.7", "3", "1.0", "10.5", "0.559", "0.531", "47",
                                              "0.0126", "3", "0.0013", "0.386", "0.370"]


def test_mount_table():
    rows = table_in(PAGES, "on three mountings")
    assert [r[2:] for r in rows[1:]] == [["(0.00, -9.81)", "5.4148", "0.3174"],
                                         ["(-9.81, 0.00)", "-4.1275", "-1.1845"],
                                         ["(0.00, 9.81)", "-5.4148", "-0.3174"]]


def test_payload():
    """'Arm dynamics': 0.5 kg raises g from 5.41 to 7.01 and from 0.32 to 0.63 N m; the peak
    shoulder torque on the move from 8.8 to 12.1 N m"""
    assert evals_in(PAGES, "With 0.5 kg in the gripper") == [
        "0.5", "5.41", "7.01", "0.32", "0.63", "1.5917", "0.3174", "0.3245", "0.0647", "100", "29",
        "0.125", "0.125"]
    assert evals_in(PAGES, "the peak shoulder torque rises from") == ["0.8", "8.8", "12.1", "0.02",
                                                                  "12.2"]


def test_identification_experiment():
    """The experiment of 'Arm dynamics' (20 poses, 0.05 N m noise, 0.5 kg), drawn from a
    generator started at 0, not picked: b = 1.224 (true 1.226) and 2.437 (true 2.453) N m,
    payload 0.495 +- 0.008 kg; over 5,000 other draws b scatters as the standard errors say"""
    assert evals_in(PAGES, "the generator started from") == [
        "20", "0.05", "0", "1.224", "0.012", "1.226", "2.437", "0.016", "2.453", "5.887",
        "0.016", "5.886", "0.495", "0.008"]
    assert evals_in(PAGES, "How far one draw can land") == [
        "5,000", "1", "5,000", "11.5", "11.5", "11.5", "11.5", "15.6", "1.00", "1.01", "6.6",
        "88", "10", "0.5"]
    assert evals_in(PAGES, "The draw above is an ordinary one") == ["-0.2", "-1.0", "43", "0.5"]
    text = clean(block(SECOND, "The generator starts from a fixed number").get_text(" "))
    assert "no draw was picked for what it gives" in text


def test_conditioning_table():
    rows = table_in(PAGES, "the condition number of the stacked regressor")
    assert [r[0].replace(" °", "°") for r in rows[1:4]] == [
        "the 20 random poses of the experiment", "link 2 within 5° of vertical",
        "link 1 within 5° of vertical"]
    assert [r[1:] for r in rows[1:]] == [["1.5", "0.016", "0.012"], ["9.7", "0.016", "0.150"],
                                         ["18.4", "0.212", "0.012"], ["2.6", "0.022", "0.016"],
                                         ["1.4", "0.011", "0.008"], ["1.4", "0.022", "0.016"]]
    assert evals_in(PAGES, "With link 2 kept near vertical") == ["13", "87", "7", "1.4", "2"]


@pytest.mark.parametrize("anchor, shown", [
    ("The sign of", ["11.8", "5.5", "19.62"]),
    ("Degrees in the cosine", ["2.04", "5.4148"]),
    ("The centre of mass at the joint", ["2.55", "0.00", "5.4148", "0.3174"]),
    ("Link 2 loads the shoulder", ["2.55", "5.4148", "75"]),
    ("The payload’s lever arm", ["0.5", "1.43", "0.16", "1.5917", "0.3174"]),
])
def test_common_mistakes(anchor, shown):
    """Each mistake with the number that shows it, in its own list item"""
    assert evals_in(PAGES, anchor) == shown


def test_summary():
    assert evals_in(PAGES, "The torque that holds an arm still is the gradient") == [
        "19.62", "4.905", "5.4148", "0.3174", "94"]
    assert evals_in(PAGES, "A PD controller without compensation rests where") == ["5.5", "0.9"]
    assert evals_in(PAGES, "a least-squares fit to the holding torques") == ["0.5", "20", "0.016",
                                                                         "0.012", "8"]


def test_every_figure_is_numbered_and_referred_to():
    """Each figure and table has a number and a {numref} link in the text with that number
    (some only after the place where they appear); each figure has an alt text"""
    first = ["fig-gravity-lever-arms", "fig-gravity-g-map", "fig-gravity-sag",
             "fig-gravity-hold", "fig-gravity-sampled-energy", "tbl-gravity-rods",
             "tbl-gravity-sag", "tbl-gravity-sampled-energy"]
    second = ["fig-gravity-mounts", "fig-gravity-payload-move", "fig-gravity-identification",
              "fig-gravity-lab", "tbl-gravity-mounts", "tbl-gravity-conditioning"]
    assert_numbered_and_referred_to(FIRST, first, before=False)
    assert_numbered_and_referred_to(SECOND, second, before=False)
    assert_figures_described(FIRST, 5)
    assert_figures_described(SECOND, 4)


def test_lab_default_view_table():
    """The table printed under the lab's static view: the horizontal rods' g and PD sag"""
    after = soup(SECOND).find(id="fig-gravity-lab").find_next("table")
    rows = {r[0]: r[1:] for r in ([clean(c.get_text(" ")) for c in tr.find_all(["td", "th"])]
                                  for tr in after.find_all("tr"))}
    assert rows["g(q), the torque that holds the arm"] == ["(19.6200, 4.9050)", "N m"]
    assert rows["link 2’s share"] == ["(14.7150, 4.9050)", "N m"]
    assert rows["PD sag at Kp = (60, 30) N m/rad"] == ["(17.60, 8.42)", "deg"]
    assert rows["released with zero torque, the arm"] == ["moves: g(q) is not zero", ""]


def test_exercise_section_matches_the_notebook():
    """The chapter ends with its notebook, a Binder launch, and the parts with the points the
    graded notebook gives them"""
    assert_exercise_section(SECOND, "gravity")


def test_no_working_notes_and_an_honest_lab_note():
    """No "seed" anywhere a reader sees (prose, code, captions, tables); the lab section says
    what is true: the page was executed, but a web page has no kernel for the sliders"""
    text = " ".join(clean(soup(page).get_text(" ")).lower() for page in PAGES)
    assert "seed" not in text
    assert "without a running kernel" not in text
    note = clean(block(SECOND, "The book ran that cell when this page was built").get_text(" "))
    assert "a web page keeps no Python behind it" in note


def test_pages_read_in_a_sitting():
    """The chapter is two pages, split where the mountings begin, each at most 9,000 words as
    built; the sampled compensation is marked as going further; the second page recomputes
    what it uses from the first in a folded cell"""
    assert PAGES == [FIRST, SECOND]
    counts = {page: word_count(page) for page in PAGES}
    assert all(n <= PAGE_WORDS for n in counts.values()), counts
    assert page_with(PAGES, "uses adding") == FIRST
    assert page_with(PAGES, "the generator started from") == SECOND
    assert "Going further" in soup(FIRST).find(id="going-further-what-a-sampled-compensation-does-to-energy").get_text(" ")
    assert "recomputed: each page runs on its own" in soup(SECOND).find("pre").get_text()
    lead = block(SECOND, "How far one draw can land").find_previous("strong")
    assert lead.get_text() == "Going further."


def test_sign_convention_is_a_free_body_statement():
    """The sign convention is stated as what acts on which body"""
    found = block(FIRST, "Free body: the arm, with its weights.")
    assert "Free body: the arm, with its weights." in [clean(b.get_text(" ")) for b in found.find_all("strong")]
