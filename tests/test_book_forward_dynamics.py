"""The built forward dynamics chapter: each worked value in the element that states it.

Slow: builds the book (once per session, shared with the other book tests).
Values from the source 'Arm dynamics' are asserted at its printed precision; the
chapter's own measurements (exact solve errors, orders, spreads) at the precision printed.
Timings differ from machine to machine: for them the test checks what the
prose claims of them (the inverse is slower), not their digits.
"""

import re

import pytest

from _bookbuild import chapter_pages
from bookpages import (PAGE_WORDS, assert_exercise_section, assert_figures_described,
                       assert_numbered_and_referred_to, block, evals_in, page_with, soup,
                       table_in, word_count)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]
PAGES = chapter_pages("forward_dynamics")
FIRST, SECOND = "book/forward_dynamics", "book/forward_dynamics/stability"
EPS = 2.0 ** -53                  # unit roundoff


def number(text):
    return float(text.replace(",", ""))


def interval(text):
    """The values a number printed as ``text`` can stand for: within half a unit of its
    last printed digit (``"1.7e-14"``: 1.65e-14 to 1.75e-14)."""
    mantissa, _, exponent = text.replace(",", "").partition("e")
    decimals = len(mantissa.partition(".")[2])
    half = 0.5 * 10.0 ** (-decimals) * 10.0 ** int(exponent or 0)
    return number(text) - half, number(text) + half


def assert_ratio_shown(claim, top, bottom):
    """``claim`` (rounded as printed) is a ratio that the printed ``top`` and ``bottom`` allow:
    computed from the unrounded values, it may differ from top / bottom by their rounding."""
    (t_lo, t_hi), (b_lo, b_hi), (c_lo, c_hi) = interval(top), interval(bottom), interval(claim)
    assert c_hi >= t_lo / b_hi and c_lo <= t_hi / b_lo, (claim, top, bottom)


def test_arm_data():
    """The table-top arm: 0.30 m / 2.0 kg and 0.25 m / 1.0 kg, friction 0.02 N m s/rad"""
    assert evals_in(PAGES, "Link 1 is") == ["0.30", "2.0", "0.25", "1.0", "0.02", "9.81"]


def test_worked_instant_backwards():
    """'Arm dynamics': the torques (5.7796, 0.4443) N m give back qdd = (3, -2) rad/s^2, step
    by step"""
    assert evals_in(PAGES, "The torques are") == [
        "(5.7796, 0.4443)", "(0.5769, 0.1004)", "0.4731", "0.1001", "0.1040",
        "(1.2193, -0.2080)", "(3.0000, -2.0000)"]
    assert evals_in(PAGES, "which eliminates without square roots") == [
        "(3.0000, -2.0000)", "(5.7796, 0.4443)", "0"]
    assert evals_in(PAGES, "How many digits the torques carry") == ["(2.9998, -1.9984)", "0.00005",
                                                                "0.0103"]


def test_forward_after_inverse():
    """100,000 random states: FD(ID) and ID(FD) give back their input to rounding"""
    shown = evals_in(PAGES, "forward dynamics of the inverse-dynamics torques")
    assert shown[0] == "100,000"
    assert number(shown[1]) <= 1e-11 and number(shown[2]) <= 1e-12


def test_solve_table_and_its_claims():
    """Cholesky's backward error stays at the unit roundoff; the inverse's grows with n and is
    over ten times larger at twelve joints, yet a few tens of units of rounding; forward errors
    grow with cond(M); inverse slower"""
    rows = table_in(PAGES, "by the inverse and by the Cholesky factor")
    assert rows[0] == ["joints \\(n\\)", "cond( \\(M\\) ), median", "route", "forward error",
                       "backward error", "time [µs]"]
    body = rows[1:]
    assert [r[0] for r in body] == ["2", "", "6", "", "12", ""]
    assert [r[1] for r in body[::2]] == ["7", "365", "3,875"]
    assert [r[2] for r in body] == ["inverse", "Cholesky"] * 3
    inverse = [[number(x) for x in r[3:]] for r in body[::2]]
    cholesky = [[number(x) for x in r[3:]] for r in body[1::2]]
    shown_inverse, shown_cholesky = body[4][4], body[5][4]      # twelve joints' backward errors
    assert all(c[1] <= 2 * EPS for c in cholesky)
    assert inverse[2][1] > 10 * cholesky[2][1]
    assert inverse[0][0] < inverse[1][0] < inverse[2][0]
    assert inverse[0][1] < inverse[1][1] < inverse[2][1]                # "grows with the cond."
    assert cholesky[0][0] < cholesky[1][0] < cholesky[2][0]
    claims = evals_in(PAGES, "shows three things")
    assert len(claims) == 6
    assert number(claims[0]) == max(c[1] for c in cholesky) and claims[1] == "1.1e-16"
    assert number(claims[2]) == inverse[2][1]                     # the twelve-joint inverse's
    assert_ratio_shown(claims[3], shown_inverse, shown_cholesky)  # from the unrounded values
    assert_ratio_shown(claims[4], shown_inverse, repr(EPS))       # "a few tens of units"
    assert 10 <= number(claims[4]) < 1000
    assert number(claims[5]) > 1.0                                # "the inverse is slower"
    assert inverse[2][2] > cholesky[2][2]


def test_first_step_of_the_fall():
    """a0 = (-40.37, 76.53) rad/s^2; one 0.1 ms step: speeds and angle changes"""
    assert evals_in(PAGES, "At rest only gravity acts") == [
        "(-40.37, 76.53)", "(-0.00404, 0.00765)", "(-2.31e-05, 4.38e-05)", "0"]


def test_zero_torque_fall():
    """'Arm dynamics': (5.9, 80.6) deg at 0.15 s and (-35.4, 98.7) deg at 0.25 s with the
    book's settings; RK4 agrees at 0.15 s and gives -35.3 at the shoulder at 0.25 s"""
    assert evals_in(PAGES, "The arm does not drop like a stiff stick") == [
        "(5.9, 80.6)", "(-35.4, 98.7)"]
    assert evals_in(PAGES, "The same fall with RK4 at the same step") == [
        "(5.9, 80.6)", "(-35.3, 98.7)", "0.033", "-35.360", "-35.328"]


def test_animation_is_a_numbered_figure():
    """The player is Fig. fig-fall-animation, with a caption; the text gives its slow-down"""
    figure = soup(FIRST).find("figure", id="fig-fall-animation")
    assert figure is not None and figure.find("div", class_="armlab-animation") is not None
    caption = figure.find("figcaption").get_text(" ", strip=True)
    assert "one second" in caption and "times slower than real time" in caption
    assert evals_in(PAGES, "plays the first second of the same fall") == ["4"]


def test_methods_table():
    """The fall at 0.25 s by every method at 1, 0.1 and 0.01 ms"""
    rows = table_in(PAGES, "fall of Example 3: the angles")
    assert rows == [
        ["method", "step 1 ms", "step 0.1 ms", "step 0.01 ms"],
        ["explicit Euler", "(-35.14, 99.42)", "(-35.31, 98.77)", "(-35.33, 98.71)"],
        ["semi-implicit Euler", "(-35.65, 98.98)", "(-35.36, 98.73)", "(-35.33, 98.70)"],
        ["RK4", "(-35.33, 98.70)", "(-35.33, 98.70)", "(-35.33, 98.70)"],
    ]
    assert evals_in(PAGES, "answers the question. The errors of both Euler methods") == [
        "0.73", "0.33", "0.033", "8e-09", "(-35.3, 98.7)", "-35.4", "0.033", "-35.33"]


def test_methods_over_a_second():
    """The frictionless fall after 1 s at 1 ms, and at the book's step"""
    assert evals_in(PAGES, "After one second the explicit Euler run") == [
        "(-162.8, 276.7)", "(-175.4, 266.8)", "(-163.8, 267.4)", "(-163.8, 267.4)",
        "(-164.9, 267.4)", "1.1"]


def test_power_identity_and_energy_balance():
    """qd.c = qd.Mdot.qd / 2 at the worked instant; the fall's energy balance at 0.25 s"""
    shown = evals_in(PAGES, "At the worked instant")
    assert shown[:3] == ["-0.1591", "-0.1591", "71"] and number(shown[3]) < 1e-12
    shown = evals_in(PAGES, "In the first 0.25 s of the fall the energy drops")
    assert shown[:5] == ["4.1275", "3.8982", "0.2293", "0.2287", "2.1e-03"]
    assert number(shown[5]) < 1e-12


def test_swing_energy_errors():
    """The swing from (-60, 0) deg at 1 ms: explicit Euler gains 0.029 J in 1 s, 0.091 J in 3 s,
    0.36 J in 10 s; semi-implicit stays within 0.0048 J for 3 s but drifts 0.9 mJ/s, to
    0.011 J by 10 s; RK4 within 2.5e-11 J"""
    assert evals_in(PAGES, "J in the first second,") == ["0.029", "0.091", "0.36", "-6.159",
                                                    "0.953"]
    assert evals_in(PAGES, "error stays within") == [
        "0.0048", "0.9", "0.011", "2.5e-11"]


def test_measured_orders():
    """Observed orders (angles, energy): one for both Eulers, four for RK4"""
    shown = evals_in(PAGES, "shows the orders as slopes")
    assert shown == ["(1.00, 1.00)", "(1.00, 1.00)", "(3.99, 4.01)", "25,000", "3e-03", "1,000",
                     "8e-09"]


def test_stability_of_the_test_problem():
    """One joint, omega = 100 rad/s: stable_step gives h omega = 2 (semi-implicit), 2 sqrt 2
    (RK4), 0 (explicit Euler), i.e. 20 and 28.3 ms; RK4 at h omega = 2.1 loses 32 % per step"""
    assert evals_in(PAGES, "1 kg rod turning about its end") == [
        "0.03", "300", "100", "2.000000", "2.828427", "2.828427", "0", "20", "28.3", "2.1", "32"]


def test_example_4_largest_stable_step_of_a_stiff_arm():
    """The flat table-top arm on springs Kp = (60, 30) N m/rad, dampers (4, 1.5): modes 14.8 and
    69.3 rad/s; undamped bounds 28.9 (semi-implicit) and 40.8 ms (RK4); damped 8.6 (explicit),
    7.4 (semi-implicit), 12.0 ms (RK4); the stiffest gains (960, 480): 277 rad/s, 3.3, 4.6,
    9.6 ms; brute force in simulation agrees; the book's step (RK4, 1 ms) is 9.6 times inside
    RK4's bound. The damped
    bounds include the arm's own 0.02 N m s/rad friction, as the problem says; with Kd alone
    they are 8.77, 7.49 and 12.22 ms"""
    assert evals_in(PAGES, "What is the largest stable step for each") == ["0.02"]
    assert evals_in(PAGES, "The stretched arm") == [
        "0.2458", "0.0583", "0.0208", "14.8", "69.3", "28.9", "40.8", "8.6", "7.4", "12.0",
        "8.77", "7.49", "12.22", "277", "3.3", "4.6", "9.6"]
    lo, inside, hi, outside = evals_in(PAGES, "A brute-force test in simulation")
    assert (lo, hi) == ("0.95", "1.05")
    assert number(inside) < 1e-3 and number(outside) >= 50
    assert evals_in(PAGES, "What it means for the book.") == ["9.6"]


def test_energy_advantage_goes_with_friction_and_control():
    """Explicit over semi-implicit energy error: 18.9 free, 26.2 with the arm's friction, then
    13.9 and 4.4 as friction grows, 0.5 under the PID (semi-implicit's error 1.9 times)"""
    rows = table_in(PAGES, "The largest energy error along each run")
    assert rows[1:] == [
        ["swing, no friction", "9.1e-02", "4.8e-03", "1.2e-11", "18.9"],
        ["swing, friction 0.02 N m s/rad", "7.0e-02", "2.7e-03", "2.6e-11", "26.2"],
        ["swing, friction 0.20 N m s/rad", "3.0e-02", "2.2e-03", "1.2e-10", "13.9"],
        ["swing, friction 1.00 N m s/rad", "6.8e-03", "1.5e-03", "2.5e-09", "4.4"],
        ["PID move", "8.1e-03", "1.5e-02", "3.8e-11", "0.5"],
    ]
    assert evals_in(PAGES, "In the free swing explicit") == ["18.9", "26.2", "13.9", "4.4", "0.5",
                                                         "1.9"]


def test_thousand_falls():
    """Starts within 0.01 deg of (89, 1) deg: spread past 1, 10 and 180 deg, doubling time;
    two integrators from one start part by 0.1 and 10 deg; on a calm swing (30 deg off hanging
    down) they agree within 0.012 deg for 5 s"""
    assert evals_in(PAGES, "The starts differ by") == ["0.010", "0.73", "1.82", "2.38", "300", "0.02",
                                                   "0.28"]
    # the upper link passes 20° down at 0.435 s: "by 0.44 s"
    assert evals_in(PAGES, "Part of that growth is the upright") == ["0.057", "0.44", "0.73", "1.82"]
    assert evals_in(PAGES, "Two correct simulators disagree") == ["0.72", "2.25", "30", "0.012",
                                                              "5"]


def test_headline_table():
    """The control chapter's numbers under three settings: only the digits that survive RK4 and
    a finer step are the experiments'; feed-forward's error is 24 % low with semi-implicit
    Euler at 0.1 ms, and the PID/feed-forward factor is 564 with it against 427 with RK4 at
    1 ms, the book's settings"""
    rows = table_in(PAGES, "numbers [deg] under three integrator settings")
    assert rows[0] == ["experiment", "semi-implicit Euler, 0.1 ms", "step 0.05 ms",
                       "RK4, 1 ms (book’s settings)"]
    assert rows[1:] == [
        ["PD holding (30°, 45°): sag after 3 s, (shoulder, elbow)", "(5.5, 0.9)", "(5.5, 0.9)",
         "(5.5, 0.9)"],
        ["PID only: largest shoulder error on the move", "4.95", "4.95", "4.95"],
        ["feed-forward + PID: largest shoulder error", "0.0088", "0.0100", "0.0116"],
        ["computed torque: largest shoulder error", "0.092", "0.091", "0.090"],
        ["payload unknown to computed torque: largest elbow lag", "12.5", "12.5", "12.5"],
        ["payload unknown: elbow error at the end of the hold", "10.5", "10.5", "10.5"],
        ["payload known: largest elbow error", "0.24", "0.24", "0.23"],
    ]
    assert evals_in(PAGES, "The four rows of") == ["0.092", "0.090", "0.24", "0.23"]
    assert evals_in(PAGES, "error is not resolved by semi-implicit") == [
        "0.0088", "0.0116", "24", "0.0100", "564", "427"]


def test_rk4_at_one_step_per_tick_is_converged():
    """The table's claim: RK4 at one step per 1 ms tick gives the feed-forward and
    computed-torque errors of RK4 at four steps per tick, to the digits the table shows"""
    import numpy as np

    import armlab as al

    arm, model = al.tabletop_arm(damping=0.02), al.tabletop_arm(damping=0.016)
    start, end = np.radians([-45, 90]), np.radians([60, -30])
    move = al.quintic(start, end, 0.8, hold=0.7)
    for controller, digits in ((al.feedforward_pid(model, move, (60, 30), (4, 1.5), (60, 30)), 4),
                               (al.computed_torque(model, move, 400, 40), 3)):
        largest = []
        for substeps in (1, 4):
            sim = al.simulate(arm, start, move.end_time, controller, method="rk4",
                              substeps=substeps)
            error = np.degrees(al.tracking_error(sim, move))[sim.time <= move.duration + 1e-9]
            largest.append(round(float(np.abs(error[:, 0]).max()), digits))
        assert largest[0] == largest[1]


def test_common_mistakes():
    """Each mistake with the number that shows it"""
    assert evals_in(PAGES, "Explicit Euler at a coarse step.") == ["0.091", "0.0048", "0.18", "0.070"]
    inverting = block(SECOND, "Inverting \\(M\\) at every step.")
    assert [a["href"].split("#")[-1] for a in inverting.find_all("a")] == ["tbl-fd-solve"]
    assert evals_in(PAGES, "Friction with the wrong sign.") == ["2", "131", "4.7"]
    assert evals_in(PAGES, "Forgetting that the torque is held") == ["72", "0.5", "0"]
    assert evals_in(PAGES, "Trusting digits the step cannot give.") == ["-35.360", "-35.328", "24"]


def test_summary():
    assert evals_in(PAGES, "Forward dynamics solves") == ["(5.7796, 0.4443)", "(3.0000, -2.0000)"]
    assert evals_in(PAGES, "A simulation steps the state") == ["1.00", "3.99", "(-35.3, 98.7)",
                                                           "(-35.4, 98.7)", "10", "1.82"]
    assert evals_in(PAGES, "Ungraded, to try with the lab") == ["-35.3"]
    assert evals_in(PAGES, "A step is stable only while") == ["9.6", "1.9"]


def test_figures_numbered_and_described():
    """Every figure and table is there, numbered, referred to with its number (some only after
    the place where they appear); every figure has an alt text"""
    assert_numbered_and_referred_to(FIRST, [
        "fig-fall-strobe", "fig-fall-animation", "fig-fall-methods", "fig-energy-error",
        "fig-convergence", "tbl-fd-methods", "tbl-fd-solve"], before=False)
    assert_numbered_and_referred_to(SECOND, [
        "fig-fd-stability", "fig-spread", "fig-fd-lab", "tbl-fd-headlines",
        "tbl-fd-energy-advantage"], before=False)
    assert_figures_described(FIRST, 5)
    assert_figures_described(SECOND, 3)


def test_animation_in_the_page():
    """One self-contained player: 51 frames as data URIs, an inline script, nothing fetched"""
    players = soup(FIRST).find_all("div", class_="armlab-animation")
    assert len(players) == 1
    script = players[0].find("script")
    assert script is not None and not script.get("src")
    frames = re.search(r"var frames = (\[[^\]]*\])", script.get_text()).group(1)
    assert frames.count('"data:image/png;base64,') == 51
    assert "http" not in str(players[0])


def test_lab_static_view_and_live_cell():
    """The lab's default view is the zero-torque fall (no widget in the page: test_book); the
    text says why the live cell's output is not in the page, and nothing about a page built
    without a kernel (the book is executed)"""
    cells = [[c.get_text(" ", strip=True) for c in tr.find_all("td")]
             for tr in soup(SECOND).find_all("tr")]        # the lab's table has no caption
    assert ["q at t = 0.25 s", "(-35.4, 98.7)", "deg"] in cells
    text = soup(SECOND).get_text(" ")
    assert "without a running kernel" not in text
    assert "a web page cannot run the code that answers a slider" in " ".join(text.split())


def test_no_source_document_named():
    """No 'seed' anywhere a reader sees it: the page's text, code and captions"""
    for page in PAGES:
        assert "seed" not in soup(page).get_text(" ").lower(), page


def test_exercises_section_links_the_notebook_and_binder():
    """The chapter ends with its exercise notebook, a Binder launch and the parts' points"""
    assert_exercise_section(SECOND, "forward_dynamics")


def test_pages_read_in_a_sitting():
    """The chapter is two pages, split where stability begins, each at most 9,000 words as
    built; the second page's sections beyond the exercise set are marked as going further, and
    it recomputes what it uses from the first in a folded cell"""
    assert PAGES == [FIRST, SECOND]
    counts = {page: word_count(page) for page in PAGES}
    assert all(n <= PAGE_WORDS for n in counts.values()), counts
    assert page_with(PAGES, "The test problem.") == SECOND
    for section in ("a-thousand-falls-how-far-a-trajectory-can-be-trusted",
                    "what-the-book-s-simulations-rest-on"):
        lead = soup(SECOND).find(id=section).find("strong")
        assert lead.get_text() == "Going further.", section
    assert "recomputed: each page runs on its own" in soup(SECOND).find("pre").get_text()


