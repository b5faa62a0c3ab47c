"""The book builds with no warning, every page executes, and the pages carry the worked values.

Slow: runs ``jupyter-book build`` (the same command as ``make book``).
"""

import html
import re

import pytest

from _bookbuild import HTML, build_book, chapter_pages, toc_chapters, toc_pages
from bookpages import (PAGE_WORDS, assert_exercise_section, assert_figures_described,
                       assert_lab_view_before_live_cell, assert_numbered_and_referred_to, block,
                       clean, evals, evals_in, headings, page_with, soup, table, table_in,
                       word_count)

pytestmark = pytest.mark.slow
CHAPTERS = toc_chapters()


@pytest.fixture(scope="session")
def book():
    returncode, log = build_book()
    return returncode, log


def page_text(name, code=True):
    """Visible text of a built page, with tags removed and the minus sign normalised.

    ``code=False`` leaves out code (inline literals and code blocks).
    """
    raw = (HTML / f"{name}.html").read_text(encoding="utf-8")
    raw = re.sub(r"<(script|style)\b.*?</\1>", " ", raw, flags=re.S)
    if not code:
        raw = re.sub(r"<(code|pre)\b.*?</\1>", " ", raw, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", raw))
    return re.sub(r"\s+", " ", text.replace("\u2212", "-"))


def test_build_succeeds_without_warnings(book):
    """make book's command exits 0 under -W: no warning, no failed cell"""
    returncode, log = book
    assert returncode == 0, log[-4000:]
    assert "WARNING" not in log.replace("[IPKernelApp] WARNING", ""), log[-4000:]


def test_every_page_built_and_executed(book):
    """Every page of the toc is in the HTML, and no execution report was written"""
    assert book[0] == 0
    for page in toc_pages():
        assert (HTML / f"{page}.html").is_file(), page
    reports = HTML / "reports"
    assert not reports.exists() or not any(reports.iterdir()), "a notebook failed to execute"
    for page in toc_pages():
        text = (HTML / f"{page}.html").read_text(encoding="utf-8")
        assert "Traceback" not in text, f"{page} shows a traceback"


@pytest.mark.parametrize("anchor, shown", [
    # the statics case's wall push by J^T F and by moment arms
    ("link 2 points straight up. Only", ["0.433", "0.25", "0.433", "0.65", "-0.65", "-0.40",
                                         "-6.5", "-4.0"]),
    ("A horizontal force has a lever arm", ["0.65", "0.40", "-6.5", "-4.0"]),
    # finite displacements along the random direction of default_rng(0) (the printed values of
    # the source on virtual work), and the path curvature's prediction of the slope
    ("The relative difference falls from", ["0.6894", "-0.7244", "6.4e-02", "1e-01",
                                            "6.5e-05", "1e-04", "10"]),
    ("A finite step follows the curved path", ["-0.6498", "-0.6498"]),     # going further
    # the push relieves the shoulder; the same force pulling adds to gravity
    ("the push relieves the shoulder", ["2.3", "8.3675", "14.8675", "21.3675"]),
    # gravity at the wall pose, and gravity plus the push (the statics case)
    ("the torques that hold the arm and its push are", ["14.8675", "14.8675", "0.0", "8.3675",
                                                        "-4.0"]),
    # the torque residual at the stretched pose
    ("The closest force is", ["0.9278", "-0.16", "0.37"]),
    # largest push and force error near the singularity (the statics case's table)
    ("One degree from stretched, a 20 N m limit", ["2865", "57", "50"]),
    ("Reading the contact force from measured joint torques", ["3.5", "282", "2.4", "186"]),
    # the duality at the stretched pose: the carried force is normal to every tip velocity, and
    # the residual torque is the part of tau along the tip-still joint speeds
    ("and their dot products with the carried force are", ["1", "0", "(0, 0)"]),
    # Example 4: the bearings of the wall push, by propagation from the tip
    ("the push passed on from the tip", ["(10.00, 19.62)", "19.62", "(10.00, 49.05)", "22.02",
                                    "50.06", "(8.3675, -4.0000)", "(8.3675, -4.0000)"]),
    ("Both bearings carry", ["2865", "(-20.00, -20.00)", "22.2", "129"]),
    # Example 5: the gravity chapter's PD as a tip stiffness
    ("has the rows", ["(1212.6, 1688.4)", "(1688.4, 2878.8)", "162.9", "(0.849, -0.528)",
                      "-31.9", "3928.5", "24", "6.14", "0.255", "(4.50, -2.64)", "30.4"]),
    # the reporter's support, converted to the book's sign
    ("The trap is easy to fall into with a support", ["5", "9.620", "-0.095", "29.620",
                                                      "9.905"]),
])
def test_statics_page_shows_worked_values(book, anchor, shown):
    """Each worked value is the computed text in the paragraph that states it"""
    assert book[0] == 0
    assert evals_in(STATICS_PAGES, anchor) == shown


# -- the statics page as a lecturer reads it: numbered figures and tables, the two routes, the
#    force ellipse and the per-joint parallelogram (issue 17) -------------------------------------

STATICS = "book/statics"
STATICS_PAGES = chapter_pages("statics")
SINGULAR, STIFFNESS = "book/statics/singular", "book/statics/stiffness"


def test_statics_duality_predicts_the_residual(book):
    """The residual torque at the stretched pose is minus the part of tau along the joint speeds
    that leave the tip still, to rounding"""
    n, along, gap = evals_in(STATICS_PAGES, "predicts the residual")
    assert (n, along) == ("(0.4061, -0.9138)", "(0.1649, -0.3711)")
    assert float(gap) < 1e-14


def test_statics_reactions_balance_and_stiffness_checks(book):
    """Every free body balances to rounding; the finite differences of the restoring force and
    the simulated rests agree with K_x (the rests to first order, 0.8 % of the displacement)"""
    force_gap, moment_gap = evals_in(STATICS_PAGES, "No link has more than")
    assert float(force_gap) < 1e-13 and float(moment_gap) < 1e-13
    (fd_gap,) = evals_in(STATICS_PAGES, "The finite differences agree with")
    assert float(fd_gap) < 1e-5
    duration, speed, gap, largest, share = evals_in(STATICS_PAGES, "s no joint moves faster than")
    assert float(speed) < 1e-5 and (duration, gap, largest, share) == ("1.5", "0.046", "5.98", "0.8")


def test_statics_second_route_and_the_name(book):
    """Power balance checks the wall push: both powers -2.50 W at qd = (1, -1) rad/s; the torques
    are named equivalent joint torques in the text"""
    assert evals_in(STATICS_PAGES, "The tip moves at") == ["(-0.250, 0.433)", "-2.50", "-2.50"]
    named = block(STATICS, "These torques are called the equivalent joint torques")
    assert named.name == "p" and named.find("strong").get_text() == "equivalent joint torques"


def test_statics_tables_hold_the_worked_values(book):
    """The finite-displacement table and the walk's table, captioned, at the source's precision"""
    rows = table_in(STATICS_PAGES, "Finite displacements")
    assert rows[0][-1] == r"\(\lvert W_q - W_p\rvert / \lvert W_q\rvert\)"   # defined, unsigned
    assert rows[1:] == [["1e-01", "-1.5837e-01", "-1.6852e-01", "6.4e-02"],
                        ["1e-02", "-1.5837e-02", "-1.5940e-02", "6.5e-03"],
                        ["1e-03", "-1.5837e-03", "-1.5847e-03", "6.5e-04"],
                        ["1e-04", "-1.5837e-04", "-1.5838e-04", "6.5e-05"]]
    rows = table_in(STATICS_PAGES, "The walk into the stretched pose")      # 90 deg first, as walked
    assert [r[:3] + r[5:] for r in rows[:0:-1]] == [
        ["0°", "0.9849", "0.0000", "unbounded", "unbounded"],
        ["1°", "0.9848", "0.0035", "2865", "186.2"],
        ["5°", "0.9840", "0.0177", "574", "37.3"],
        ["30°", "0.9515", "0.1051", "100", "6.3"],
        ["90°", "0.6986", "0.2863", "50", "2.4"]]
    assert [r[3] for r in rows[:0:-1]] == ["(0.00, 0.00)", "(-0.07, -0.07)", "(-0.35, -0.35)",
                                           "(-2.00, -2.00)", "(-4.00, -4.00)"]
    assert [r[4] for r in rows[:0:-1]] == ["(9.00, 4.00)", "(9.00, 4.00)", "(8.98, 3.98)",
                                           "(8.46, 3.46)", "(5.00, 0.00)"]


def test_statics_parallelogram_corners_are_the_largest_pushes(book):
    """The corner where both joints reach -20 N m is (largest push, 0) at every pose of the walk:
    the corners the chapter reports equal the table's largest pushes, and the bent pose's drawn
    parallelogram has the corner its text reports"""
    corners = evals_in(STATICS_PAGES, "The force parallelogram of")
    pushes = [r[5] for r in table_in(STATICS_PAGES, "The walk into the stretched pose")[-2:0:-1]]
    assert corners == [f"({p}, 0)" for p in pushes] == ["(2865, 0)", "(574, 0)", "(100, 0)",
                                                         "(50, 0)"]
    bent = evals_in(STATICS_PAGES, "shows both at the bent pose")
    assert bent[:4] == ["(50, 0)", "(50, 80)", "(-50, 0)", "(-50, -80)"]
    assert bent[4] == pushes[-1] == "50"                   # the push along x ends at a corner
    assert bent[5] == "35.4" and bent[6:] == ["94.3", "(50, 80)"]


def test_statics_force_ellipse_and_slips_in_the_text(book):
    """The force ellipse is explained in a paragraph (not only a caption); U and V^T may be
    reflections; the stretched Jacobian's entries are in m/rad"""
    ellipse = block(SINGULAR, "fill an ellipse, the")
    assert ellipse.name == "p" and "force ellipse" in ellipse.find("strong").get_text()
    svd = clean(block(SINGULAR, "write the singular value decomposition").get_text(" "))
    assert "each a rotation or a rotation combined with a reflection" in svd
    assert "a rotation \\(U\\)" not in svd and "as a rotation" not in svd
    assert evals_in(STATICS_PAGES, "whose second row holds the lengths") == ["0.9", "0.4"]
    assert "0.9 m/rad and 0.4 m/rad" in clean(
        block(SINGULAR, "whose second row holds the lengths").get_text(" "))


def test_statics_every_figure_and_table_is_numbered_and_referred_to(book):
    """Each figure and table has a number, and a {numref} link in the running text with that number
    points to it at or before the place where it appears; each figure has an alt text"""
    assert_numbered_and_referred_to(STATICS, ["fig-wall", "tbl-virtual-work"])
    assert_numbered_and_referred_to(SINGULAR, ["fig-box", "fig-ellipses", "fig-sigma",
                                               "fig-reactions", "fig-lab", "tbl-stretch",
                                               "tbl-lab"])
    assert_numbered_and_referred_to(STIFFNESS, ["fig-stiffness"])
    for page, count in ((STATICS, 1), (SINGULAR, 5), (STIFFNESS, 1)):
        assert_figures_described(page, count)


def test_statics_duality_comes_just_before_example_3(book):
    """The duality section follows Example 2 and comes right before Example 3"""
    first, singular = headings(STATICS), headings(SINGULAR)
    assert first[first.index("Example 2: adding gravity") + 1] == "The two tip-force conventions"
    assert singular[:2] == ["Duality: forces, torques and the singular values",
                            "Example 3: walking into the stretched singularity"]


def test_statics_lab_static_view_comes_before_the_live_cell(book):
    """The still view is introduced as what the page shows without a kernel and comes first; the
    live cell follows as the same view come alive; the table is the lab's own"""
    from armlab.labs import statics_lab

    assert_lab_view_before_live_cell(SINGULAR, "fig-lab", "tbl-lab",
                                     intro="A static page cannot move sliders")
    values = [r[1] for r in table_in(STATICS_PAGES, "table in its default view")[1:]]
    assert values == [b for _, b, _ in statics_lab(render=False).table_rows()]
    assert values[1] == "(-6.50, -4.00)"


def test_intro_has_worked_instant(book):
    """The intro's worked instant (the table-top case) is in the sentence that states it"""
    assert evals("book/intro", "The shoulder needs")[:2] == ["5.7796", "0.4443"]


def test_no_unresolved_roles(book):
    """No glue or eval role is left as raw text, and every eval rendered a value"""
    for page in toc_pages():
        text = page_text(page, code=False)       # a docstring may show the role as code
        assert "{glue" not in text and "{eval" not in text, page
        assert "<span class=\"output text_plain\"></span>" not in (
            HTML / f"{page}.html").read_text(encoding="utf-8"), page


def test_no_external_scripts_or_styles(book):
    """No page needs a script or a stylesheet from another host (the book reads offline)"""
    pattern = re.compile(r"<(script|link)\b[^>]*\b(src|href)\s*=\s*[\"']((?:https?:)?//[^\"']+)",
                         re.I)
    offenders = []
    for path in HTML.rglob("*.html"):
        for tag, attr, url in pattern.findall(path.read_text(encoding="utf-8")):
            if tag.lower() == "link" and "stylesheet" not in url and not url.endswith(".css"):
                # <link rel="..."> to a page, not a resource the browser loads
                continue
            offenders.append(f"{path.relative_to(HTML)}: {url}")
    assert not offenders, offenders


def test_mathjax_served_locally(book):
    """MathJax comes from _static/mathjax (sphinx-mathjax-offline)"""
    text = (HTML / "book" / "statics.html").read_text(encoding="utf-8")
    assert re.search(r"<script[^>]+src=\"[./]*_static/mathjax/tex-chtml\.js", text)
    assert (HTML / "_static" / "mathjax" / "tex-chtml.js").is_file()


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_widget_output_in_html(book, chapter):
    """The live lab leaves no widget view in the page (its manager would come from a CDN)"""
    text = "".join((HTML / f"{page}.html").read_text(encoding="utf-8")
                   for page in chapter_pages(chapter))
    assert "application/vnd.jupyter.widget-view+json" not in text
    assert "html-manager" not in text and "require.js" not in text


def test_statics_links_exercises(book):
    """The chapter ends with its exercise notebook, a Binder launch and the list of its parts"""
    assert_exercise_section(SINGULAR, "statics")


def test_statics_pages_read_in_a_sitting(book):
    """The chapter is three pages, each at most 9,000 words as built; what the exercise set needs
    comes first, the stiffness last, marked as going further, as is Check 2's second-order term"""
    assert STATICS_PAGES == [STATICS, SINGULAR, STIFFNESS]
    counts = {page: word_count(page) for page in STATICS_PAGES}
    assert all(n <= PAGE_WORDS for n in counts.values()), counts
    assert "Going further" in soup(STIFFNESS).find("h1").get_text(" ")
    assert page_with(STATICS_PAGES, "A finite step follows the curved path") == STATICS
    lead = block(STATICS, "A finite step follows the curved path").find("strong")
    assert clean(lead.get_text(" ")) == "Going further: the second-order term."


def test_statics_sign_conventions_are_free_body_statements(book):
    """Each place where a force acts on the arm says which body, and which force on it"""
    for anchor in ("Free body: the arm, cut free from the environment at its tip.",
                   "Free body: the arm, with its weights.", "Free body: the arm, pushed."):
        found = block(page_with(STATICS_PAGES, anchor), anchor)
        assert anchor in [clean(b.get_text(" ")) for b in found.find_all("strong")]
    text = " ".join(clean(soup(p).get_text(" ")) for p in STATICS_PAGES)
    assert '"applies"' not in text and "exactly as F does" not in text


def test_launch_and_download_buttons(book):
    """Binder launch (JupyterLab), download and repository buttons are on the chapter"""
    text = (HTML / "book" / "statics.html").read_text(encoding="utf-8")
    assert "mybinder.org/v2/gh/armlab-book/armlab/main?urlpath=lab" in text
    assert "github.com/armlab-book/armlab" in text
    links = re.findall(r'<a href="([^"]+)"[^>]*\n?\s*class="btn btn-sm (btn-download-[a-z]+-button)',
                       text)
    assert ("../_sources/book/statics.md", "btn-download-source-button") in links
    assert ("../_sources/book/statics.ipynb", "btn-download-notebook-button") in links
    assert (HTML / "_sources" / "book" / "statics.md").is_file()


def test_statics_equations_the_exercise_set_cites_carry_the_built_numbers(book):
    """The exercise set cites (2.2), (2.4), (2.5) and (2.8): the built chapter's pages show those
    numbers on the equations meant, whichever page holds them"""
    from exercise_sets import ExerciseSet

    meant = {"(2.2)": "eq-jtf", "(2.4)": "eq-gravity", "(2.5)": "eq-total",
             "(2.8)": "eq-statics-propagation"}
    text = "".join("".join(c["source"]) for c in ExerciseSet("statics").source()["cells"]
                   if c["cell_type"] == "markdown")
    assert set(re.findall(r"\(2\.\d+\)", text)) == set(meant)
    shown = {eqno.find("a", class_="headerlink")["href"][len("#equation-"):]:
             clean(eqno.find(string=True)) for page in STATICS_PAGES
             for eqno in soup(page).find_all("span", class_="eqno")}
    assert {number: shown[label] for number, label in meant.items()} == {n: n for n in meant}
