"""A student's JupyterLab, in headless Chromium: chapters read like the book and change nothing.

A JupyterLab server runs on 127.0.0.1 on the repository with the student's
configuration that Binder gets from ``postBuild`` (nbgrader's instructor tools
off, Validate on). Chromium opens each chapter of the book from ``book/`` as a
notebook (jupytext), runs all its cells and reads the rendered page: no error
output, no role left as raw text (jupyterlab-myst evaluates ``{eval}``), every
``{eval}`` of every cell evaluated (JupyterLab's default windowing leaves cells
below the fold unevaluated, their values shown as name chips: postBuild's
overrides switch it off), the lab's table showing the lab's numbers, the worked
values in the paragraphs that state them, helper cells folded away.
Saving a chapter writes the same bytes. An exercise notebook opens and its
first cells run. Afterwards ``book/`` and ``exercises/`` are byte for byte as
before, with their modification times. Screenshots go to ``tests/artifacts/jupyterlab-*.png``.
"""

import hashlib
import json
import os
import pathlib
import re
import socket
import subprocess
import sys
import time
import urllib.request

import jupytext
import pytest
from conftest import CHROMIUM

from _bookbuild import ROOT, toc_pages

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = pathlib.Path(__file__).parent / "artifacts"

#: Worked values that each chapter's prose shows in Jupyter: (anchor, text that follows it).
WORKED = {
    "book/intro": [("The shoulder needs", "The shoulder needs 5.7796 N m and the elbow 0.4443 N m")],
    "book/kinematics": [
        ("Link 2 points at", "the tip at (0.433, 0.65) m"),
        ("Both columns point along", "(0.4061, -0.9138) rad/s"),
    ],
    "book/statics": [("A horizontal force has a lever arm", "giving (-6.5, -4.0) N m")],
    "book/statics/singular": [
        ("One degree from stretched, a 20 N m limit", "allows a push of 2865 N along the arm"),
    ],
    "book/inverse_dynamics": [
        ("Only the first column of", "(22.286667, 5.738333) N m."),
        ("closes the books", "15.592571 W, 15.280071 W raise the arm"),
    ],
    "book/forward_dynamics": [
        ("The arm does not drop like a stiff stick", "After 0.25 s they are (-35.4, 98.7) degrees"),
    ],
    "book/forward_dynamics/stability": [
        ("The starts differ by", "The starts differ by 0.010 degrees"),
    ],
}


def chapters():
    """The toc's pages that are notebooks (they have code cells)."""
    pages = []
    for page in toc_pages():
        nb = jupytext.read(ROOT / f"{page}.md")
        if any(cell.cell_type == "code" for cell in nb.cells):
            pages.append(page)
    return pages


def tree_files():
    """Every file under book/ and exercises/, but JupyterLab's checkpoints."""
    return sorted(p for d in ("book", "exercises") for p in (ROOT / d).rglob("*")
                  if p.is_file() and ".ipynb_checkpoints" not in p.parts)


def snapshot():
    """A hash of every file under book/ and exercises/."""
    return {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in tree_files()}


def keep_times(times):
    """Give each file its modification time from ``times`` back.

    JupyterLab saves a notebook (Save, Validate, autosave) by writing the same
    bytes again with a new mtime; Sphinx would then read and execute that chapter
    again in a later build (``make pdf``'s singlehtml, in tests run after this one).
    """
    for path, (atime, mtime) in times.items():
        if path.exists() and path.stat().st_mtime_ns != mtime:
            os.utime(path, ns=(atime, mtime))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on the repository with Binder's student setup; yields its URL."""
    if not CHROMIUM.exists():
        pytest.skip(f"no browser: {CHROMIUM} is absent (apt-get install chromium)")
    tmp = tmp_path_factory.mktemp("jupyterlab")
    prefix = tmp / "prefix"
    subprocess.run(["bash", str(ROOT / "postBuild")], check=True,
                   env={"NB_PYTHON_PREFIX": str(prefix), "PATH": "/usr/bin:/bin"})
    (tmp / "settings").mkdir()          # a fresh user: no settings but postBuild's overrides
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, JUPYTER_CONFIG_PATH=str(prefix / "etc" / "jupyter"),
               JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"), PYTHONPATH=str(ROOT))
    log = open(tmp / "server.log", "w")
    server = subprocess.Popen(
        [str(pathlib.Path(sys.executable).parent / "jupyter"), "lab", "--no-browser",
         f"--port={port}", "--ip=127.0.0.1", "--IdentityProvider.token=",
         "--ServerApp.password=", "--allow-root", "--LabApp.expose_app_in_browser=True",
         f"--LabApp.app_settings_dir={prefix / 'share' / 'jupyter' / 'lab' / 'settings'}",
         f"--ServerApp.root_dir={ROOT}"], env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{url}/lab", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not start: " + (tmp / "server.log").read_text()[-2000:])
        before = snapshot()
        times = {p: (p.stat().st_atime_ns, p.stat().st_mtime_ns) for p in tree_files()}
        try:
            yield url
        finally:
            keep_times(times)
        assert snapshot() == before, "opening and running notebooks changed files in the tree"
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


@pytest.fixture(scope="module")
def browser(lab, chromium):
    return chromium


CURRENT = "window.jupyterapp.shell.currentWidget"
IDLE = (f"{CURRENT} && {CURRENT}.sessionContext && {CURRENT}.sessionContext.session && "
        f"{CURRENT}.sessionContext.session.kernel && "
        f"{CURRENT}.sessionContext.session.kernel.status === 'idle'")


def open_notebook(browser, lab, path):
    """Open ``path`` in JupyterLab and wait for its kernel; return the page and its errors."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    problems = []
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    workspace = path.replace("/", "-").replace(".", "-")
    page.goto(f"{lab}/lab/workspaces/{workspace}/tree/{path}?reset")
    page.wait_for_function(f"window.jupyterapp && {CURRENT} && {CURRENT}.context "
                           f"&& {CURRENT}.context.path === {json.dumps(path)}", timeout=60000)
    page.wait_for_function(IDLE, timeout=60000)
    return page, problems


#: The notebook panel on show (other panels may be open but hidden).
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def run(page, command):
    """Run a JupyterLab command and wait until the kernel is idle again."""
    page.evaluate(f"window.jupyterapp.commands.execute({json.dumps(command)})")
    page.wait_for_timeout(1000)
    page.wait_for_function(IDLE, timeout=180000)
    page.wait_for_timeout(1500)          # markdown cells render their {eval} values


def paragraph_text(page, anchor):
    """The rendered paragraph (or list item) of the notebook that contains ``anchor``."""
    item = page.locator(f"{NOTEBOOK} .jp-Cell-inputArea p, {NOTEBOOK} .jp-Cell-inputArea li",
                        has_text=anchor)
    assert item.count() == 1, f"{item.count()} paragraphs contain {anchor!r}"
    return " ".join(item.inner_text().replace("\u2212", "-").split())


def unevaluated(page):
    """Markdown cells whose ``{eval}`` expressions have no result after running, as
    ``(cell index, [expressions])``: jupyterlab-myst shows their names as chips."""
    return page.evaluate(f"""() => {{
      const cells = {CURRENT}.content.model.cells, missing = [];
      for (let i = 0; i < cells.length; i++) {{
        const cell = cells.get(i);
        if (cell.type !== "markdown") continue;
        const names = [...cell.sharedModel.getSource().matchAll(/{{eval}}`([^`]+)`/g)]
          .map(m => m[1]);
        const done = (cell.getMetadata("user_expressions") || [])
          .filter(e => e.result && e.result.status === "ok").map(e => e.expression);
        const left = names.filter(n => !done.includes(n));
        if (left.length) missing.push([i, left]);
      }}
      return missing; }}""")


def lab_values(page_name):
    """The value column of the chapter's lab table, as the lab computes it for the preset
    the chapter shows (``view = labs.<chapter>_lab(preset=..., render=False)``); None for
    a page without a lab."""
    from armlab import labs

    source = (ROOT / f"{page_name}.md").read_text()
    found = re.search(r'view = labs\.(\w+_lab)\((?:preset="([^"]+)",\s*)?render=False\)', source)
    if found is None:
        return None                         # a page without a lab
    make, preset = found.groups()
    view = getattr(labs, make)(**({"preset": preset} if preset else {}), render=False)
    return [" ".join(b.split()) for _, b, _ in view.table_rows()]


def shown_tables(page):
    """Every rendered table of the notebook (markdown cells and outputs): its rows' cell texts."""
    return page.evaluate(f"""() => Array.from(document.querySelectorAll(
        '{NOTEBOOK} table')).map(t => Array.from(t.querySelectorAll('tr')).map(
          r => Array.from(r.querySelectorAll('td, th')).map(
            c => c.textContent.replace(/\\s+/g, ' ').trim())))""")


def assert_view3d_turns(page):
    """The live lab's 3-D view (anywidget, from the kernel's scene) is drawn in the notebook;
    a drag turns it; a slider set from the kernel redraws it"""
    canvas = page.locator(f"{NOTEBOOK} canvas.armlab-view3d-canvas")
    canvas.first.wait_for(timeout=30000)
    assert canvas.count() == 1
    canvas.scroll_into_view_if_needed()
    draws = int(canvas.get_attribute("data-draws"))
    box = canvas.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 100, y + 30, steps=5)
    page.mouse.up()
    dragged = int(canvas.get_attribute("data-draws"))
    assert dragged > draws
    yaw = canvas.get_attribute("data-yaw")
    page.evaluate(f"""async () => {{
        const kernel = {CURRENT}.sessionContext.session.kernel;
        await kernel.requestExecute({{code: 'lab.widgets["q2"].value = 30.0'}}).done; }}""")
    page.wait_for_function(f"document.querySelector('{NOTEBOOK} canvas.armlab-view3d-canvas')"
                           f".getAttribute('data-draws') > {dragged}", timeout=30000)
    assert canvas.get_attribute("data-yaw") == yaw        # the reader's turn is kept


def assert_not_modified_on_open(page, page_name):
    """Once the kernel has answered (JupyterLab then sets the notebook's kernel spec and
    language info), the chapter's tab shows no modified mark and its model is clean."""
    page.evaluate(f"async () => {{ await {CURRENT}.sessionContext.session.kernel.info; }}")
    page.wait_for_function(f"{CURRENT}.model.getMetadata('language_info').version", timeout=30000)
    page.wait_for_timeout(1000)
    info = page.evaluate(f"{CURRENT}.model.getMetadata('language_info')")
    assert info["version"] and info["name"] == "python", info
    assert page.evaluate(f"{CURRENT}.model.dirty") is False, f"{page_name} is modified on open"
    assert page.locator(".lm-TabBar-tab.jp-mod-current.jp-mod-dirty").count() == 0
    assert page.locator(".lm-TabBar-tab.jp-mod-current").count() >= 1


@pytest.mark.parametrize("page_name", chapters())
def test_chapter_runs_and_reads_like_the_book(browser, lab, page_name):
    """Run all: no error output, values instead of roles, helper cells folded, save is a no-op"""
    path = f"{page_name}.md"
    original = (ROOT / path).read_bytes()
    page, problems = open_notebook(browser, lab, path)
    try:
        assert page.evaluate(f"{CURRENT}.content.model.cells.length") > 0
        assert_not_modified_on_open(page, page_name)
        run(page, "notebook:run-all-cells")
        errors = page.locator(f'{NOTEBOOK} .jp-OutputArea-output[data-mime-type$="stderr"], '
                              f'{NOTEBOOK} .jp-OutputArea-output[data-mime-type$="error"]')
        assert errors.count() == 0, errors.all_inner_texts()[:3]
        text = page.inner_text(NOTEBOOK)
        for raw in ("{eval}", "{glue", "{doc}", "{numref}", "{eq}"):
            assert raw not in text, f"{page_name}: raw {raw} in the rendered notebook"
        assert unevaluated(page) == [], f"{page_name}: {{eval}} shown as names"
        values = lab_values(page_name)
        if values is not None:
            columns = [[row[1] for row in table[1:] if len(row) > 1] for table in shown_tables(page)]
            assert columns.count(values) == 1, (page_name, values, columns)
        for anchor, expected in WORKED.get(page_name, []):
            assert expected in paragraph_text(page, anchor)
        if page_name.startswith("book/spatial_"):
            assert_view3d_turns(page)
        hidden = sum(1 for c in jupytext.read(ROOT / path).cells
                     if c.metadata.get("jupyter", {}).get("source_hidden"))
        assert page.locator(f"{NOTEBOOK} .jp-Cell .jp-InputPlaceholder").count() == hidden
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"jupyterlab-{page_name.split('/')[-1]}.png"))
        run(page, "docmanager:save")
        assert (ROOT / path).read_bytes() == original, f"saving {path} rewrote it"
        assert not problems, problems
    finally:
        page.close()


def test_validate_on_a_chapter_explains_itself(browser, lab):
    """Validate pressed on a chapter says what Validate is for, without a traceback"""
    page, problems = open_notebook(browser, lab, "book/statics.md")
    try:
        page.locator(f"{NOTEBOOK} .jp-NotebookPanel-toolbar").get_by_text(
            "Validate", exact=True).click()
        dialog = page.locator(".jp-Dialog")
        dialog.wait_for(timeout=60000)
        text = dialog.inner_text()
        assert "statics.md is a page of the book, not an exercise notebook" in " ".join(text.split())
        assert "Traceback" not in text
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-validate-chapter.png"))
        assert not problems, problems
    finally:
        page.close()


def test_exercise_opens_for_a_student(browser, lab):
    """An exercise notebook opens, its first cells run; Validate is there, instructor tools are not"""
    page, problems = open_notebook(browser, lab, "exercises/statics/statics.ipynb")
    try:
        for _ in range(2):
            run(page, "notebook:run-cell-and-select-next")
        errors = page.locator(f'{NOTEBOOK} .jp-OutputArea-output[data-mime-type$="error"]')
        assert errors.count() == 0, errors.all_inner_texts()[:3]
        toolbar = page.locator(f"{NOTEBOOK} .jp-NotebookPanel-toolbar").inner_text()
        assert "Validate" in toolbar
        menus = page.locator("#jp-MainMenu").inner_text()
        assert "Nbgrader" not in menus
        assert page.locator("#create_assignment_toolbar, .nbgrader-CreateAssignmentWidget").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-exercise.png"))
        page.evaluate(f"{CURRENT}.context.model.dirty = false")     # leave the file as it was
        assert not problems, problems
    finally:
        page.close()

