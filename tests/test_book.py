"""The book builds with no warning, every page executes, and the pages carry the worked values.

Slow: runs ``jupyter-book build`` (the same command as ``make book``).
"""

import html
import re

import pytest

from _bookbuild import HTML, build_book, toc_pages
from bookpages import evals

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def book():
    returncode, log = build_book()
    return returncode, log


def page_text(name):
    """Visible text of a built page, with tags removed and the minus sign normalised."""
    raw = (HTML / f"{name}.html").read_text(encoding="utf-8")
    raw = re.sub(r"<(script|style)\b.*?</\1>", " ", raw, flags=re.S)
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
    # seed 003's wall push by J^T F and by moment arms
    ("link 2 points straight up. Only", ["0.433", "0.25", "0.433", "0.65", "-0.65", "-0.40",
                                         "-6.5", "-4.0"]),
    ("A horizontal force has a lever arm", ["0.65", "0.40", "-6.5", "-4.0"]),
    # finite displacements along the random direction of default_rng(0)
    ("The relative difference falls from", ["0.6894", "-0.7244", "-6.4e-02", "1e-01",
                                            "-6.5e-05", "1e-04", "10"]),
    # gravity at the wall pose, and gravity plus the push (seed 003)
    ("the torques that hold the arm and its push are", ["14.8675", "14.8675", "0.0", "8.3675",
                                                        "-4.0"]),
    # the torque residual at the stretched pose
    ("The closest force is", ["0.9278", "-0.16", "0.37"]),
    # largest push and force error near the singularity (seed 003's table)
    ("One degree from stretched, a 20 N m limit", ["2865", "57", "50"]),
    ("Reading the contact force from measured joint torques", ["3.5", "282", "2.4", "186"]),
    # seed 001's support, converted to the book's sign
    ("The trap is easy to fall into with a support", ["5", "9.620", "-0.095", "29.620",
                                                      "9.905"]),
])
def test_statics_page_shows_worked_values(book, anchor, shown):
    """Each worked value is the computed text in the paragraph that states it"""
    assert book[0] == 0
    assert evals("book/statics", anchor) == shown


def test_intro_has_worked_instant(book):
    """The intro's worked instant (seed 000) is in the sentence that states it"""
    assert evals("book/intro", "The shoulder needs")[:2] == ["5.7796", "0.4443"]


def test_no_unresolved_roles(book):
    """No glue or eval role is left as raw text, and every eval rendered a value"""
    for page in toc_pages():
        text = page_text(page)
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


def test_no_widget_output_in_html(book):
    """The live lab leaves no widget view in the page (its manager would come from a CDN)"""
    text = (HTML / "book" / "statics.html").read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-view+json" not in text
    assert "html-manager" not in text and "require.js" not in text


def test_statics_links_exercises(book):
    """The chapter ends with its exercise notebook and a Binder launch"""
    text = (HTML / "book" / "statics.html").read_text(encoding="utf-8")
    assert "exercises/statics/statics.ipynb" in text
    assert "mybinder.org/v2/gh/armlab-book/armlab/main?urlpath=lab/tree/exercises/statics/" \
           "statics.ipynb" in text


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
