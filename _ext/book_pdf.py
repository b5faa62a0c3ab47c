"""One PDF of the whole book, for lecturers who print chapters (``make pdf``).

The route: Jupyter Book's ``singlehtml`` builder writes every page of ``_toc.yml`` into one
HTML page, from the environment ``make book`` saved (``_build/.doctrees``: no chapter is
executed again when nothing changed), with the same numbers, figures, tables, equation
numbers and cross-references as the web book (a reference becomes a link inside the page,
which stays a link in the PDF). The system's headless Chromium (``/usr/bin/chromium``, through
Playwright) opens that page, waits until MathJax, served from the book itself, has typeset
every formula, and prints it as A4 with page numbers and the chapters as the PDF's outline.

The PDF is written to ``_build/html/armlab.pdf``, beside the web book, so the front page's
download link finds it on the published site; it is built in CI and never committed.

    python _ext/book_pdf.py [--skip-build] [--out PATH]
"""

import argparse
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SINGLE = ROOT / "_build" / "singlehtml"
OUT = ROOT / "_build" / "html" / "armlab.pdf"
CHROMIUM = pathlib.Path("/usr/bin/chromium")
#: As the browser tests launch it (tests/conftest.py): headless, on a closed network.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]

#: What a printed page has no use for: the page's navigation and buttons, the "#" beside each
#: heading, and the code the web book folds away (a page prints as a reader first sees it).
PRINT_CSS = """
@media print {
  .bd-header, .bd-header-article, .header-article, .bd-sidebar-primary, .bd-sidebar-secondary,
  .prev-next-area, .bd-footer, .bd-footer-content, .bd-footer-article, .headerlink,
  details.hide.above-input { display: none !important; }
  .bd-main .bd-content .bd-article-container, .bd-page-width { max-width: 100% !important; }
  figure, table, div.math, .cell_output img { break-inside: avoid; }
  h1, h2, h3 { break-after: avoid; }
  span[id^="document-"] + section { break-before: page; }   /* each page of the toc */
}
"""

FOOTER = ('<div style="font-size:8pt; width:100%; text-align:center; color:#555;">'
          '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')


def single_page():
    """The singlehtml page: named after the toc's root (``root: book/intro``)."""
    import yaml

    root = yaml.safe_load((ROOT / "_toc.yml").read_text())["root"]
    return SINGLE / f"{root}.html"


def printable_page():
    """The singlehtml page as a file beside ``_static`` and ``_images``.

    Sphinx writes the page's links as seen from the output's top folder although the page is
    ``book/intro.html`` (the toc's root is in a folder): a copy at the top makes its styles,
    scripts and images load, and its links to itself (``book/intro.html#id``) become links
    inside the page, as all the others are."""
    page = single_page()
    name = page.relative_to(SINGLE).as_posix()
    text = page.read_text(encoding="utf-8").replace(f'href="{name}#', 'href="#')
    out = SINGLE / "armlab-print.html"
    out.write_text(text, encoding="utf-8")
    return out


def build_singlehtml():
    """``jupyter-book build . --builder singlehtml`` with make book's flags (-W -n)."""
    exe = pathlib.Path(sys.executable).parent / "jupyter-book"
    proc = subprocess.run([str(exe), "build", str(ROOT), "--builder", "singlehtml",
                           "-W", "-n", "--keep-going"], cwd=ROOT)
    if proc.returncode:
        raise SystemExit(f"book_pdf: the singlehtml build failed ({proc.returncode})")


def print_pdf(index, out, timeout_s=120):
    """Print ``index`` (the singlehtml page) to ``out`` once MathJax has typeset it all."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise SystemExit(f"book_pdf: no browser, {CHROMIUM} is absent (apt-get install chromium)")
    out.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                    headless=True)
        try:
            page = browser.new_page()
            page.set_default_timeout(timeout_s * 1000)
            page.goto(index.as_uri(), wait_until="load")
            page.add_style_tag(content=PRINT_CSS)
            page.emulate_media(media="print")
            # MathJax 3 typesets after load: wait for its promise, then for its fonts.
            page.wait_for_function("() => window.MathJax && MathJax.startup && "
                                   "MathJax.startup.promise", timeout=timeout_s * 1000)
            page.evaluate("() => MathJax.startup.promise.then(() => MathJax.typesetPromise())")
            page.evaluate("() => document.fonts.ready.then(() => true)")
            left = page.evaluate("() => document.querySelectorAll("
                                 "'div.math:not(:has(mjx-container))').length")
            if left:
                raise SystemExit(f"book_pdf: {left} formulas were not typeset by MathJax")
            page.pdf(path=str(out), format="A4", print_background=True, outline=True,
                     tagged=True, display_header_footer=True,
                     header_template="<span></span>", footer_template=FOOTER,
                     margin={"top": "16mm", "bottom": "16mm", "left": "14mm",
                             "right": "14mm"})
        finally:
            browser.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-build", action="store_true",
                        help="print the singlehtml page already in _build/singlehtml")
    parser.add_argument("--out", type=pathlib.Path, default=OUT)
    args = parser.parse_args(argv)
    start = time.monotonic()
    if not args.skip_build:
        build_singlehtml()
    built = time.monotonic()
    print_pdf(printable_page(), args.out)
    print(f"book_pdf: wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB; singlehtml "
          f"{built - start:.0f} s, printing {time.monotonic() - built:.0f} s)")


if __name__ == "__main__":
    main()
