"""The book as one PDF (issue 25, item 4): ``make pdf``'s route, checked with poppler's tools.

``_ext/book_pdf.py`` builds the singlehtml page from make book's saved environment (no
chapter is executed again) and prints it with the system's Chromium. The PDF must hold every
page of ``_toc.yml`` under its title, in the toc's order, every figure's image, every
equation number, the figures' and equations' references as links inside the PDF, and no
MyST role left raw.
"""

import html
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from _bookbuild import HTML, ROOT, toc_pages

sys.path.insert(0, str(ROOT / "_ext"))
import book_pdf  # noqa: E402  (the script make pdf runs)

sys.path.remove(str(ROOT / "_ext"))

pytestmark = pytest.mark.slow
CHROMIUM = pathlib.Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def pdf(tmp_path_factory, built_book):
    missing = [what for what, there in
               ((f"{CHROMIUM} (apt-get install chromium)", CHROMIUM.exists()),
                ("pdftotext and pdfimages (apt-get install poppler-utils)",
                 shutil.which("pdftotext") and shutil.which("pdfimages")))
               if not there]
    if missing:
        pytest.skip("cannot print or read the PDF: " + ", ".join(missing) + " absent")
    out = tmp_path_factory.mktemp("pdf") / "armlab.pdf"
    proc = subprocess.run([sys.executable, str(ROOT / "_ext" / "book_pdf.py"), "--out",
                           str(out)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-4000:]
    assert "inline execution" not in log, "the singlehtml build executed a chapter again"
    assert "WARNING" not in log.replace("[IPKernelApp] WARNING", ""), log[-4000:]
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], check=True,
                          capture_output=True, text=True).stdout
    images = subprocess.run(["pdfimages", "-list", str(out)], check=True,
                            capture_output=True, text=True).stdout
    return {"path": out, "text": text, "flat": re.sub(r"\s+", " ", text),
            "images": images, "raw": out.read_bytes(),
            "single": book_pdf.single_page().read_text("utf-8")}


def title(page):
    """A toc page's title: its first '# ' heading, with an apostrophe printed as Sphinx's
    smart quotes print it (arm's -> arm’s)."""
    for line in (ROOT / f"{page}.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip().replace("'", "’")
    raise AssertionError(f"{page} has no title")


def test_every_page_of_the_toc_in_order(pdf):
    """Every toc page's title, numbered as in the web book, in the toc's order"""
    flat = pdf["flat"]
    at = 0
    for page in toc_pages():
        name = title(page)
        built = (HTML / f"{page}.html").read_text(encoding="utf-8")
        number = re.search(r'<h1><span class="section-number">([\d.]+) </span>', built)
        shown = f"{number.group(1)} {name}" if number else name
        found = flat.find(shown, at)
        assert found >= 0, f"{shown!r} missing or out of order"
        at = found + len(shown)


def web_text():
    """The visible text of every toc page of the web book, in one string."""
    pages = []
    for page in toc_pages():
        raw = (HTML / f"{page}.html").read_text(encoding="utf-8")
        raw = re.sub(r"<(script|style)\b.*?</\1>", " ", raw, flags=re.S)
        pages.append(html.unescape(re.sub(r"<[^>]+>", " ", raw)))
    return "\n".join(pages)


def test_no_raw_myst(pdf):
    """No role, substitution or fence left unrendered: each shows as often as the web book
    shows it as text (the API page documents the {eval} role in a docstring)"""
    web = web_text()
    for raw in ("{eval}", "{numref}", "{eq}", "{ref}", "{doc}", "{glue", "{{", "```", ":::"):
        assert pdf["text"].count(raw) == web.count(raw), raw


def test_every_figure_is_an_image(pdf):
    """As many images as the pages' figures (the animated one prints its first frame)"""
    figures = sum(len(re.findall(r'<figure class="[^"]*" id="fig-',
                                 (HTML / f"{page}.html").read_text(encoding="utf-8")))
                  for page in toc_pages())
    rows = [line.split() for line in pdf["images"].splitlines()[2:]]
    kinds = [row[2] for row in rows]
    assert figures > 40
    assert kinds.count("image") == figures, (kinds.count("image"), figures)


def test_equation_numbers(pdf):
    """Every equation number is printed beside its equation, each once"""
    numbers = re.findall(r'<span class="eqno">\(([\d.]+)\)', pdf["single"])
    assert len(numbers) > 60 and len(set(numbers)) == len(numbers)
    for number in numbers:
        assert re.search(rf"\({re.escape(number)}\)\s*$", pdf["text"], re.M), number


NUMREF = r'<a class="reference internal" href="(?:[\w/.]*\.html)?#([^"]+)"><span class="std ' \
         r'std-numref">((?:Fig\.|Table) [\d.]+)</span>'
EQREF = r'<a class="reference internal" href="(?:[\w/.]*\.html)?#(equation-[^"]+)">' \
        r'\(([\d.]+)\)</a>'


def pdf_name(raw):
    """A PDF name's bytes as text (#2F is '/')."""
    return re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), raw).decode()


def test_cross_references_are_links_inside_the_pdf(pdf):
    """The references to figures, tables and equations carry the web book's numbers, and each
    is a link to a destination in the PDF (Chromium names it by the element's id)"""
    single = pdf["single"]
    refs = re.findall(NUMREF, single) + re.findall(EQREF, single)
    web = set()
    for page in toc_pages():
        built = (HTML / f"{page}.html").read_text(encoding="utf-8")
        web |= set(re.findall(NUMREF, built)) | set(re.findall(EQREF, built))
    assert len(refs) > 200 and set(refs) == web
    for _target, shown in refs:
        assert shown in pdf["flat"], shown
    raw = pdf["raw"]
    links = {pdf_name(name) for name in re.findall(rb"/Subtype /Link[^>]*?/Dest /([^\s/>\[\]]+)",
                                                   raw, re.S)}
    dests = re.search(rb"/Dests (\d+) 0 R", raw).group(1)
    table = raw[raw.index(b"\n" + dests + b" 0 obj"):]
    table = table[:table.index(b"endobj")]
    named = {pdf_name(name) for name in re.findall(rb"/([^\s/\[\]<>]+) \[\d+ 0 R /XYZ", table)}
    for target, shown in refs:
        assert target in links, (target, shown)
        assert target in named, (target, shown)


def test_the_front_page_links_the_pdf(built_book):
    """The front page's download link reaches the file make pdf writes, beside the web book"""
    intro = HTML / "book" / "intro.html"
    links = re.findall(r'<a href="([^"]+\.pdf)" download>', intro.read_text(encoding="utf-8"))
    assert links == ["../armlab.pdf"]
    assert (intro.parent / links[0]).resolve() == book_pdf.OUT.resolve()
