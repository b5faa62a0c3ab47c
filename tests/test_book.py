"""The book builds with no warning, every page executes, and the pages carry the worked values.

Slow: runs ``jupyter-book build`` (the same command as ``make book``).
"""

import html
import re

import pytest

from _bookbuild import HTML, build_book, toc_pages

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


@pytest.mark.parametrize("value", [
    "-6.5", "-4.0",            # J^T F for the wall push, seed 003
    "14.8675", "8.3675",       # gravity and gravity plus push
    "2865", "186", "574",      # largest push and force error near the singularity
    "0.37", "-0.16",           # torque residual at q2 = 0
    "6.4e-02", "6.5e-05",      # finite-displacement relative differences
    "0.6894", "-0.7244",       # the random direction, default_rng(0)
    "9.620", "-0.095",         # seed 001's support, converted to the book's sign
])
def test_statics_page_has_worked_values(book, value):
    """The worked values reach the statics page as text (inserted by glue)"""
    assert book[0] == 0
    assert value in page_text("book/statics"), value


def test_intro_has_worked_instant(book):
    """The intro's worked instant (seed 000) is on the page"""
    text = page_text("book/intro")
    assert "5.7796" in text and "0.4443" in text


def test_no_unresolved_glue(book):
    """No glue role is left as raw text"""
    for page in toc_pages():
        assert "{glue:" not in page_text(page), page


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
    assert "btn-download" in text or "download-source-button" in text or "Download" in text
