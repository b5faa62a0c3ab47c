"""A real browser reads the built book offline: math typeset, figures loaded, no console error.

Headless Chromium from the system's packages (``/usr/bin/chromium``; ``.ci/run``
installs it), driven by Playwright's Python API, opens the intro and the chapter
pages from a local ``http.server`` on 127.0.0.1. Any request to another host is
blocked and counted as a failure. Screenshots go to ``tests/artifacts/``.
Without Chromium the test is skipped with the reason, never passed.
"""

import functools
import http.server
import pathlib
import threading
from urllib.parse import urlparse

import pytest
from conftest import CHROMIUM

from _bookbuild import HTML, build_book

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = pathlib.Path(__file__).parent / "artifacts"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def site():
    """The built book, served on 127.0.0.1 for the session."""
    if not CHROMIUM.exists():
        pytest.skip(f"no browser: {CHROMIUM} is absent (apt-get install chromium)")
    returncode, log = build_book()
    assert returncode == 0, log[-4000:]
    handler = functools.partial(QuietHandler, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser(site, chromium):
    return chromium


def open_page(browser, site, path):
    """Load a page with every off-host request blocked; return it and what went wrong."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))

    def route(r):
        host = urlparse(r.request.url).hostname
        if r.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            r.continue_()
        else:
            problems.append(f"external request: {r.request.url}")
            r.abort()

    page.route("**/*", route)
    page.goto(f"{site}/{path}", wait_until="load")
    page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise",
                           timeout=30000)
    page.evaluate("MathJax.startup.promise")
    page.wait_for_load_state("networkidle")
    return page, problems


@pytest.mark.parametrize("name, min_math, min_figures", [
    ("intro", 1, 0),
    ("kinematics", 20, 5),
    ("statics", 20, 4),
    ("gravity", 20, 8),
    ("inverse_dynamics", 40, 5),
    ("forward_dynamics", 60, 6),
    ("limits", 20, 5),
    ("control", 60, 6),
])
def test_page_reads_offline(browser, site, name, min_math, min_figures):
    """Local MathJax typesets, every image loads, no console error, no off-host request"""
    page, problems = open_page(browser, site, f"book/{name}.html")
    try:
        math = page.locator("mjx-container").count()
        assert math >= min_math, f"{name}: {math} typeset formulas, expected {min_math}+"
        images = page.evaluate("""() => Array.from(document.images).map(
            i => ({src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0}))""")
        broken = [i["src"] for i in images if not i["ok"]]
        assert not broken, f"{name}: images not loaded: {broken}"
        figures = [i for i in images if "_images/" in (i["src"] or "")]
        assert len(figures) >= min_figures, f"{name}: {len(figures)} figures"
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}-top.png"))
        assert not problems, problems
    finally:
        page.close()


def test_statics_text_in_browser(browser, site):
    """The rendered page shows the wall push's torques in the sentence that states them"""
    page, problems = open_page(browser, site, "book/statics.html")
    try:
        paragraph = page.locator("main p", has_text="A horizontal force has a lever arm")
        assert paragraph.count() == 1
        shown = [t.replace("\u2212", "-").strip()
                 for t in paragraph.locator("span.output.text_plain").all_inner_texts()]
        assert shown == ["0.65", "0.40", "-6.5", "-4.0"]
        assert not problems, problems
    finally:
        page.close()
