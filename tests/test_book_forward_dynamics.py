"""The built forward dynamics chapter: each worked value in the element that states it.

Slow: builds the book (once per session, shared with the other book tests).
Seed values are asserted at the seed's printed precision; the chapter's own
measurements (exact solve errors, orders, spreads) at the precision printed.
Timings differ from machine to machine: for them the test checks what the
prose claims of them (the inverse is slower), not their digits.
"""

import re

import pytest

from bookpages import (assert_exercise_section, assert_figures_described,
                       assert_numbered_and_referred_to, evals, soup, table)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]
PAGE = "book/forward_dynamics"
EPS = 2.0 ** -53                  # unit roundoff


def number(text):
    return float(text.replace(",", ""))


def test_arm_data():
    """Seed 000's arm: 0.30 m / 2.0 kg and 0.25 m / 1.0 kg, friction 0.02 N m s/rad"""
    assert evals(PAGE, "Link 1 is") == ["0.30", "2.0", "0.25", "1.0", "0.02", "9.81"]


def test_worked_instant_backwards():
    """Seed 000: the torques (5.7796, 0.4443) N m give back qdd = (3, -2) rad/s^2, step by step"""
    assert evals(PAGE, "The torques are") == [
        "(5.7796, 0.4443)", "(0.5769, 0.1004)", "0.4731", "0.1001", "0.1040",
        "(1.2193, -0.2080)", "(3.0000, -2.0000)"]
    assert evals(PAGE, "which eliminates without square roots") == [
        "(3.0000, -2.0000)", "(5.7796, 0.4443)", "0"]
    assert evals(PAGE, "How many digits the torques carry") == ["(2.9998, -1.9984)", "0.00005",
                                                                "0.0103"]


def test_forward_after_inverse():
    """100,000 random states: FD(ID) and ID(FD) give back their input to rounding"""
    shown = evals(PAGE, "forward dynamics of the inverse-dynamics torques")
    assert shown[0] == "100,000"
    assert number(shown[1]) <= 1e-11 and number(shown[2]) <= 1e-12


def test_solve_table_and_its_claims():
    """Cholesky's backward error stays at the unit roundoff; the inverse's grows with n and is
    over ten times larger at twelve joints; forward errors grow with cond(M); inverse slower"""
    rows = table(PAGE, "by the inverse and by the Cholesky factor")
    assert rows[0] == ["joints \\(n\\)", "cond( \\(M\\) ), median", "route", "forward error",
                       "backward error", "time [µs]"]
    body = rows[1:]
    assert [r[0] for r in body] == ["2", "", "6", "", "12", ""]
    assert [r[1] for r in body[::2]] == ["7", "365", "3,875"]
    assert [r[2] for r in body] == ["inverse", "Cholesky"] * 3
    inverse = [[number(x) for x in r[3:]] for r in body[::2]]
    cholesky = [[number(x) for x in r[3:]] for r in body[1::2]]
    assert all(c[1] <= 2 * EPS for c in cholesky)
    assert inverse[2][1] > 10 * cholesky[2][1]
    assert inverse[0][0] < inverse[1][0] < inverse[2][0]
    assert cholesky[0][0] < cholesky[1][0] < cholesky[2][0]
    claims = evals(PAGE, "shows three things")
    assert number(claims[0]) == max(c[1] for c in cholesky) and claims[1] == "1.1e-16"
    ratio = inverse[2][1] / cholesky[2][1]
    assert abs(number(claims[2]) - ratio) <= 0.02 * ratio       # from the unrounded values
    assert number(claims[3]) > 1.0                                # "the inverse is slower"
    assert inverse[2][2] > cholesky[2][2]


def test_first_step_of_the_fall():
    """a0 = (-40.37, 76.53) rad/s^2; one 0.1 ms step: speeds and angle changes"""
    assert evals(PAGE, "At rest only gravity acts") == [
        "(-40.37, 76.53)", "(-0.00404, 0.00765)", "(-2.31e-05, 4.38e-05)", "0"]


def test_seed000_fall():
    """Seed 000: (5.9, 80.6) deg at 0.15 s and (-35.4, 98.7) deg at 0.25 s; RK4 gives -35.3"""
    assert evals(PAGE, "The arm does not drop like a stiff stick") == [
        "(5.9, 80.6)", "(-35.4, 98.7)"]
    assert evals(PAGE, "The same fall with RK4 at the same step") == [
        "(-35.3, 98.7)", "-35.360", "-35.328"]


def test_methods_table():
    """Seed 000's fall at 0.25 s by every method at 1, 0.1 and 0.01 ms"""
    rows = table(PAGE, "fall: the angles")
    assert rows == [
        ["method", "step 1 ms", "step 0.1 ms", "step 0.01 ms"],
        ["explicit Euler", "(-35.14, 99.42)", "(-35.31, 98.77)", "(-35.33, 98.71)"],
        ["semi-implicit Euler", "(-35.65, 98.98)", "(-35.36, 98.73)", "(-35.33, 98.70)"],
        ["RK4", "(-35.33, 98.70)", "(-35.33, 98.70)", "(-35.33, 98.70)"],
    ]
    assert evals(PAGE, "answers the question. Both Euler methods") == [
        "0.73", "0.33", "0.033", "8e-09", "(-35.3, 98.7)", "-35.4", "0.033"]


def test_methods_over_a_second():
    """The frictionless fall after 1 s at 1 ms, and at the book's step"""
    assert evals(PAGE, "After one second the explicit Euler run") == [
        "(-162.8, 276.7)", "(-175.4, 266.8)", "(-163.8, 267.4)", "(-163.8, 267.4)",
        "(-164.9, 267.4)", "1.1"]


def test_power_identity_and_energy_balance():
    """qd.c = qd.Mdot.qd / 2 at the worked instant; the fall's energy balance at 0.25 s"""
    shown = evals(PAGE, "At the worked instant")
    assert shown[:3] == ["-0.1591", "-0.1591", "71"] and number(shown[3]) < 1e-12
    shown = evals(PAGE, "In the first 0.25 s of the fall the energy drops")
    assert shown[:5] == ["4.1275", "3.8982", "0.2293", "0.2287", "2.1e-03"]
    assert number(shown[5]) < 1e-12


def test_swing_energy_errors():
    """The swing from (-60, 0) deg at 1 ms: explicit Euler gains 0.029 J in 1 s, 0.091 J in 3 s;
    semi-implicit stays within 0.0048 J; RK4 within 1e-11 J"""
    assert evals(PAGE, "J in the first second and") == ["0.029", "0.091", "0.0048", "1e-11",
                                                       "-6.159"]


def test_measured_orders():
    """Observed orders (angles, energy): one for both Eulers, four for RK4"""
    shown = evals(PAGE, "shows the orders as slopes")
    assert shown == ["(1.00, 1.00)", "(1.00, 1.00)", "(3.99, 4.01)", "25,000", "3e-03", "1,000",
                     "8e-09"]


def test_thousand_falls():
    """Starts within 0.01 deg of (89, 1) deg: spread past 1, 10 and 180 deg, doubling time;
    two integrators from one start part by 0.1 and 10 deg"""
    assert evals(PAGE, "The starts differ by") == ["0.010", "0.73", "1.82", "2.38", "321", "0.02",
                                                   "0.28"]
    assert evals(PAGE, "Two correct simulators disagree") == ["0.72", "2.25"]


def test_headline_table():
    """Seed 000's control numbers under three settings, at the seed's printed precision"""
    rows = table(PAGE, "control numbers [deg] under three integrator settings")
    assert rows[1:] == [
        ["PD holding (30°, 45°): sag after 3 s, (shoulder, elbow)", "(5.5, 0.9)", "(5.5, 0.9)",
         "(5.5, 0.9)"],
        ["PID only: largest shoulder error on the move", "4.95", "4.95", "4.95"],
        ["feed-forward + PID: largest shoulder error", "0.009", "0.011", "0.012"],
        ["computed torque: largest shoulder error", "0.092", "0.090", "0.090"],
        ["payload unknown to computed torque: largest elbow lag", "12.5", "12.5", "12.5"],
        ["payload unknown: elbow error at the end of the hold", "10.5", "10.5", "10.5"],
        ["payload known: largest elbow error", "0.24", "0.23", "0.23"],
    ]
    assert evals(PAGE, "that hold a degree or more do not move") == [
        "0.092", "0.090", "0.24", "0.23", "0.0088", "0.0113", "0.0116"]


def test_common_mistakes():
    """Each mistake with the number that shows it"""
    assert evals(PAGE, "Explicit Euler at a coarse step.") == ["0.091", "0.0048"]
    assert evals(PAGE, "Inverting \\(M\\) at every step.") == evals(PAGE, "shows three things")[2:3]
    assert evals(PAGE, "Friction with the wrong sign.") == ["2", "122", "4.7"]
    assert evals(PAGE, "Forgetting that the torque is held") == ["72", "0.5", "0"]
    assert evals(PAGE, "Trusting digits the step cannot give.") == ["-35.360", "-35.328"]


def test_summary():
    assert evals(PAGE, "Forward dynamics solves") == ["(5.7796, 0.4443)", "(3.0000, -2.0000)"]
    assert evals(PAGE, "A simulation steps the state") == ["1.00", "3.99", "(-35.4, 98.7)", "10",
                                                           "1.82"]


def test_figures_numbered_and_described():
    """Every figure and table is there, numbered, referred to with its number (some only after
    the place where they appear); every figure has an alt text"""
    assert_numbered_and_referred_to(PAGE, [
        "fig-fall-strobe", "fig-fall-methods", "fig-energy-error", "fig-convergence", "fig-spread",
        "fig-fd-lab", "tbl-fd-headlines", "tbl-fd-methods", "tbl-fd-solve"], before=False)
    assert_figures_described(PAGE, 6)


def test_animation_in_the_page():
    """One self-contained player: 51 frames as data URIs, an inline script, nothing fetched"""
    players = soup(PAGE).find_all("div", class_="armlab-animation")
    assert len(players) == 1
    script = players[0].find("script")
    assert script is not None and not script.get("src")
    frames = re.search(r"var frames = (\[[^\]]*\])", script.get_text()).group(1)
    assert frames.count('"data:image/png;base64,') == 51
    assert "http" not in str(players[0])


def test_lab_static_view_and_live_cell():
    """The lab's default view is seed 000's fall (no widget in the page: test_book)"""
    cells = [[c.get_text(" ", strip=True) for c in tr.find_all("td")]
             for tr in soup(PAGE).find_all("tr")]          # the lab's table has no caption
    assert ["q at t = 0.25 s", "(-35.4, 98.7)", "deg"] in cells


def test_exercises_section_links_the_notebook_and_binder():
    """The chapter ends with its exercise notebook, a Binder launch and the parts' points"""
    assert_exercise_section(PAGE, "forward_dynamics")
