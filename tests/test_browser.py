"""A real browser reads the built book offline: math typeset, figures loaded, no console error.

Headless Chromium from the system's packages (``/usr/bin/chromium``; ``.ci/run``
installs it), driven by Playwright's Python API, opens the intro and the chapter
pages from a local ``http.server`` on 127.0.0.1. Any request to another host is
blocked and counted as a failure. Screenshots go to ``tests/artifacts/``.

Every figure is measured where the reader sees it: its displayed width against the
width it was drawn at, and, from the size metadata that :mod:`armlab.plots` writes
into each PNG, how large its smallest text is on the page, against the size of the
page's footnotes.
Without Chromium the test is skipped with the reason, never passed.
"""

import base64
import functools
import http.server
import io
import pathlib
import threading
from urllib.parse import unquote, urljoin, urlparse

import pytest
from conftest import CHROMIUM

from _bookbuild import HTML, build_book, chapter_pages, toc_chapters, toc_pages

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


#: page: (typeset formulas, figures) it shows at least; a chapter's page not listed: (20, 4)
SHOWN = {"intro": (1, 0), "kinematics": (20, 3), "kinematics/workspace": (20, 4),
         "statics": (20, 1), "statics/singular": (20, 5), "statics/stiffness": (5, 1),
         "gravity": (20, 5),
         "inverse_dynamics": (40, 4), "inverse_dynamics/regressor": (20, 2),
         "forward_dynamics": (60, 4), "forward_dynamics/stability": (20, 3), "limits": (20, 3),
         "limits/capacity": (20, 4), "control": (40, 3), "control/limits": (40, 5),
         "control/causes": (1, 1),
         "spatial_statics": (40, 4), "spatial_dynamics": (40, 2)}


@pytest.mark.parametrize("name", ["intro", *(page.split("/", 1)[1] for chapter in toc_chapters()
                                              for page in chapter_pages(chapter))])
def test_page_reads_offline(browser, site, name):
    """Local MathJax typesets, every image loads, no console error, no off-host request"""
    min_math, min_figures = SHOWN.get(name, (20, 4))
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
        shot = name.replace("/", "-")
        page.screenshot(path=str(ARTIFACTS / f"{shot}.png"), full_page=True)
        page.screenshot(path=str(ARTIFACTS / f"{shot}-top.png"))
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


# ------------------------------------------------------------------- figures at the size shown
#: The chapter pages (each has figures).
CHAPTERS = [page for c in toc_chapters() for page in chapter_pages(c)]
#: The viewport of a laptop screen, where a chapter's figure column is 672 px wide.
VIEWPORT = {"width": 1280, "height": 900}

MEASURE = """() => {
  const article = document.querySelector('article');
  article.insertAdjacentHTML('beforeend', '<aside class="footnote-list brackets" id="probe">'
    + '<aside class="footnote brackets"><span class="label">1</span><p>A footnote.</p></aside>'
    + '</aside>');
  const probe = document.getElementById('probe');
  const footnote = parseFloat(getComputedStyle(probe.querySelector('p')).fontSize);
  probe.remove();
  const unnamed = {};
  const images = Array.from(article.querySelectorAll('img')).map(img => {
    const fig = img.closest('figure[id]');
    let name = fig && fig.id;
    if (!name) {
      const section = img.closest('section[id]');
      const where = section ? section.id : 'page';
      unnamed[where] = (unnamed[where] || 0) + 1;
      name = where + ': image ' + unnamed[where];
    }
    return {name: name, src: img.getAttribute('src'), natural: img.naturalWidth,
            shown: img.getBoundingClientRect().width};
  });
  return {footnote: footnote, images: images};
}"""


def png_text(page_url, src):
    """The text chunks of a page's PNG (a file of the built book or a data URI)."""
    from PIL import Image

    if src.startswith("data:"):
        data = base64.b64decode(src.split(",", 1)[1])
    else:
        path = unquote(urlparse(urljoin(page_url, src)).path).lstrip("/")
        data = (HTML / path).read_bytes()
    return Image.open(io.BytesIO(data)).text


def size_problems(image, text, footnote):
    """Why an image breaks the size convention: a list of reasons, empty when it keeps it."""
    natural, shown = image["natural"], image["shown"]
    if shown < 1:
        return ["not shown when the page loads"]
    if "armlab:dpi" not in text:
        return ["no size metadata: not drawn by armlab.plots"]
    problems = []
    k = max(round(natural / shown), 1)
    if abs(natural - k * shown) > k:
        problems.append(f"drawn {natural} px wide, shown at {shown:.0f} px")
    if "armlab:smallest-text-pt" in text:
        px = float(text["armlab:smallest-text-pt"]) * float(text["armlab:dpi"]) / 72
        px *= shown / natural
        if px < footnote - 0.01:
            problems.append(f"smallest text {px:.1f} px on the page, footnotes {footnote:g} px")
    return problems


@pytest.mark.parametrize("name", [p for p in toc_pages() if p != "book/api"])
def test_figures_are_shown_at_the_size_drawn(browser, site, name):
    """Each figure is shown at the width it was drawn (or a whole fraction of it, for sharp
    screens), and its smallest text is no smaller on the page than the footnotes"""
    page = browser.new_page(viewport=VIEWPORT)
    try:
        page.goto(f"{site}/{name}.html", wait_until="load")     # every image loaded
        measured = page.evaluate(MEASURE)
        footnote = measured["footnote"]
        assert footnote > 0, measured
        problems = {}
        for image in measured["images"]:
            text = png_text(f"{site}/{name}.html", image["src"])
            found = size_problems(image, text, footnote)
            if found:
                problems[image["name"]] = "; ".join(found)
        assert measured["images"] or name not in CHAPTERS, f"{name}: no image measured"
        assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
    finally:
        page.close()


# ------------------------------------------------------------------ the spatial labs' 3-D view
CANVAS_PIXELS = """() => {
  const c = document.querySelector('div.armlab-view3d canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let inked = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250) inked++;
  return {inked: inked, png: c.toDataURL('image/png'), width: c.width, height: c.height};
}"""


def canvas_array(shot):
    from PIL import Image
    import numpy as np

    data = base64.b64decode(shot["png"].split(",", 1)[1])
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


@pytest.mark.parametrize("name", ["spatial_statics", "spatial_dynamics"])
def test_lab_view_turns_when_dragged(browser, site, name):
    """The lab's static 3-D view is drawn by the book's own script (no server, nothing from
    another host); a mouse drag turns it, and so does an arrow key: the canvas's pixels change"""
    import numpy as np

    page, problems = open_page(browser, site, f"book/{name}.html")
    try:
        canvas = page.locator("div.armlab-view3d canvas")
        assert canvas.count() == 1
        canvas.scroll_into_view_if_needed()
        before = page.evaluate(CANVAS_PIXELS)
        assert before["width"] >= 400 and before["inked"] > 3000, before["inked"]
        box = canvas.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 120, y + 40, steps=8)
        page.mouse.up()
        dragged = page.evaluate(CANVAS_PIXELS)
        changed = np.any(canvas_array(before) != canvas_array(dragged), axis=-1).mean()
        assert changed > 0.01, changed
        assert float(canvas.get_attribute("data-yaw")) == pytest.approx(-60 * np.pi / 180 - 1.2,
                                                                        abs=1e-3)
        canvas.focus()
        page.keyboard.press("ArrowLeft")
        turned = page.evaluate(CANVAS_PIXELS)
        assert np.any(canvas_array(dragged) != canvas_array(turned), axis=-1).mean() > 0.01
        ARTIFACTS.mkdir(exist_ok=True)
        canvas.screenshot(path=str(ARTIFACTS / f"{name}-view3d.png"))
        assert not problems, problems
    finally:
        page.close()
