"""A feedback page keeps no live ``javascript:``, ``data:`` or ``vbscript:`` link after
MathJax typesets it.

The sanitizer sees ``$$\\href{javascript:...}{x}$$`` as text; MathJax, later, in the
browser, would make it a link. The page is built here as a round builds it (nbgrader's
feedback template, the preprocessors of ``nbgrader_config.py``, then
:func:`armlab.grading.outputs.polish_feedback` and the local MathJax), from a small
notebook of markdown cells, and opened in headless Chromium: after typesetting, no element
of the page has such an address, and the honest formulas are typeset.
"""

import pathlib

import nbformat
import pytest

from armlab.grading import outputs

pytestmark = pytest.mark.browser

HOSTILE = [
    r"$$\href{javascript:document.title='pwned by href'}{\tau}$$",
    r"$\href{ javascript:alert(1)}{a}$ inline",
    r"$$\href{data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==}{b}$$",
    r"$$\href{vbscript:msgbox(1)}{c}$$",
    "$$\\href{java\nscript:alert(2)}{d}$$",                       # a newline in the scheme
    r"$$\href{jav&#x09;ascript:alert(3)}{e}$$",                   # a tab, as an entity
    r"$$\mmlToken{mi}[href='javascript:alert(4)']{f}$$",
    r"$$\require{html}\href{javascript:alert(5)}{g}$$",
    r"$$\class{x}{\href{JavaScript:alert(6)}{h}}$$",
]
HONEST = [r"The torques are $\tau = J^T F$ with $F$ in newtons.",
          r"$$\boldsymbol{\tau} = \begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}"
          r"\begin{pmatrix} F_x \\ F_y \end{pmatrix}$$"]


def feedback_page(folder, markdown):
    """The feedback page of a notebook of ``markdown`` cells, written in ``folder`` as a
    round writes it, with the local MathJax beside it; returns its path."""
    from nbconvert.exporters import HTMLExporter
    from traitlets.config import Config
    from traitlets.utils.importstring import import_item

    from armlab.grading.release import load_config

    import nbgrader

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(m) for m in markdown])
    templates = pathlib.Path(nbgrader.__file__).parent / "server_extensions" / "formgrader"
    cfg = load_config(folder)
    cfg.merge(Config({"HTMLExporter": {
        "template_name": "feedback", "extra_template_basedirs": [str(templates / "templates")],
        "extra_template_paths": [str(templates / "static" / "node_modules" / "bootstrap"
                                     / "dist" / "css")]}}))
    exporter = HTMLExporter(config=cfg)
    for name in cfg.GenerateFeedback.preprocessors:
        if not name.endswith("GetGrades"):                    # scores come from a gradebook
            exporter.register_preprocessor(import_item(name)(config=cfg), enabled=True)
    resources = {"nbgrader": {"notebook": "statics", "score": 0.0, "max_score": 0.0,
                              "late_penalty": 0.0}}
    body, _ = exporter.from_notebook_node(nb, resources=resources)
    page = pathlib.Path(folder) / "feedback.html"
    page.write_text(outputs.polish_feedback(body, {}), encoding="utf-8")
    outputs.copy_mathjax(pathlib.Path(folder), outputs.local_mathjax())
    return page


# Every address of every element after typesetting (href, xlink:href, src, action, ...),
# the typeset formulas, and MathJax's errors.
SURVEY = """() => {
  const urls = [];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) {
      if (/(^|:)(href|src|action|formaction|data)$/i.test(a.name)) {
        urls.push(el.localName + ' ' + a.name + '=' + a.value);
      }
    }
  }
  const math = [...document.querySelectorAll('mjx-container')];
  return {urls: urls, math: math.length,
          svg: math.filter(m => m.querySelector('svg g')).length,
          errors: document.querySelectorAll('[data-mjx-error], mjx-merror').length};
}"""


def _scheme(url):
    """A URL's scheme as a browser reads it: C0 controls and spaces around it dropped,
    tabs and newlines inside it dropped, lower case."""
    value = url.strip("".join(map(chr, range(0x21)))).replace("\t", "").replace("\n", "")
    return value.replace("\r", "").split(":", 1)[0].lower() if ":" in value else ""


def test_no_live_script_link_after_mathjax_typesets(chromium, tmp_path):
    page_path = feedback_page(tmp_path, HOSTILE + HONEST)
    page = chromium.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(page_path.as_uri(), wait_until="load", timeout=60_000)
        page.wait_for_function("() => window.MathJax && MathJax.startup && "
                               "MathJax.startup.promise", timeout=60_000)
        page.evaluate("() => MathJax.startup.promise")
        found = page.evaluate(SURVEY)
        title = page.title()
    finally:
        page.close()
    live = [u for u in found["urls"]
            if _scheme(u.split("=", 1)[1]) in ("javascript", "data", "vbscript")]
    assert live == [], live
    assert found["math"] == len(HOSTILE) + 3 and found["svg"] == found["math"], found
    assert "pwned" not in title and errors == []


def test_a_comparison_inside_a_formula_reaches_mathjax_as_tex(tmp_path):
    """The statics set's "$|g_j(q)| <$ `limit`" showed on a trial class's feedback page as a
    MathJax error box reading "|g_j(q)| &lt;": the sanitizer escapes < to &lt;, and the
    markdown renderer escapes that again inside a formula. A comparison inside a formula
    reaches MathJax as \\lt / \\gt; one in prose stays an entity the browser shows as <"""
    page = feedback_page(tmp_path, [r"within the limit, $|g_j(q)| <$ `limit`, and $s > 0$; "
                                    r"$$|\det J| < 10^{-9}$$ and in words a < b; the limits "
                                    r"set's matrix $$\begin{bmatrix} m & 0 \end{bmatrix}$$"]
                         ).read_text()
    body = page[page.index("within the limit"):]
    assert "&amp;lt;" not in body and "&amp;gt;" not in body and "&amp;amp;" not in body
    assert r"\begin{bmatrix} m &amp; 0 \end{bmatrix}" in body
    assert r"$|g_j(q)| \lt $" in body and r"$s \gt  0$" in body
    assert r"$$|\det J| \lt  10^{-9}$$" in body and "in words a &lt; b" in body
