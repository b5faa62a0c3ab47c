"""The launch menu's JupyterHub link, end to end (issue 25, items 1 and 5).

The book is built once more with a course's setting in armlab/_site.py: the repository a local
bare git repository (this checkout's HEAD pushed to the branch ``course``), the JupyterHub one
this module starts on the loopback address. The built chapter's launch menu must then offer
Binder and the JupyterHub, whose link is nbgitpuller's with that repository, branch and page.

The end-to-end test starts a real JupyterHub (DummyAuthenticator, the simple local process
spawner running this environment's ``jupyterhub-singleuser``, npm's configurable-http-proxy),
opens the link from the built page in headless Chromium, logs in, and waits until nbgitpuller
has cloned the book and JupyterLab shows the chapter as a notebook (through jupytext).

The extra build reuses ``make book``'s saved environment (a copy of ``_build/.doctrees``), so
no chapter is executed again: only the pages are written anew, since the theme's options differ.
"""

import html
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import textwrap
import time
import urllib.parse
import urllib.request

import pytest

from _bookbuild import ROOT

pytestmark = pytest.mark.slow
CHAPTER = "kinematics/workspace"      # the kinematics page with the lab (its second)
BRANCH = "course"
USER = "student"
CHP = shutil.which("configurable-http-proxy")
CHROMIUM = pathlib.Path("/usr/bin/chromium")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def course(tmp_path_factory, built_book):
    """A course's setting, the bare repository it names, and the book built with it."""
    tmp = tmp_path_factory.mktemp("course")
    bare = tmp / "git" / "armlab-book" / "armlab"
    subprocess.run(["git", "init", "--quiet", "--bare", str(bare)], check=True)
    subprocess.run(["git", "-C", str(ROOT), "push", "--quiet", str(bare),
                    f"HEAD:refs/heads/{BRANCH}"], check=True)
    site = {"REPOSITORY": bare.as_uri(), "BRANCH": BRANCH,
            "JUPYTERHUB_URL": f"http://127.0.0.1:{free_port()}"}
    out = tmp / "book"
    # make book's saved environment and executed notebooks, so nothing is read or run again
    shutil.copytree(ROOT / "_build" / ".doctrees", out / "_build" / ".doctrees")
    shutil.copytree(ROOT / "_build" / "jupyter_execute", out / "_build" / "jupyter_execute")
    # Only the launch menu is the course's: the substitutions (the instructors' page's install
    # line) keep their values, or every page would be read and executed again.
    script = textwrap.dedent(f"""
        import sys
        from armlab import _site
        kept = _site.substitutions()
        _site.substitutions = lambda: kept
        for name, value in {site!r}.items():
            setattr(_site, name, value)
        from jupyter_book.cli.main import main
        sys.argv = ["jupyter-book", "build", {str(ROOT)!r}, "--path-output", {str(out)!r},
                    "-W", "-n", "--keep-going"]
        main()
    """)
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-4000:]
    assert "Executing" not in log and "inline execution" not in log, \
        "the course's build executed a chapter again"
    return {"site": site, "bare": bare, "html": out / "_build" / "html", "tmp": tmp,
            "seconds": time.monotonic() - start}


def launch_links(page):
    """The launch menu's entries of a built page: {text: href}."""
    text = page.read_text(encoding="utf-8")
    menu = re.search(r'<ul class="dropdown-menu">(.*?)</ul>',
                     text[text.index('aria-label="Launch interactive content"'):], re.S)
    links = re.findall(r'<a href="([^"]+)"[^>]*>.*?<span class="btn__text-container">'
                       r'([^<]+)</span>', menu.group(1), re.S)
    return {name: html.unescape(href) for href, name in links}


def test_the_course_build_offers_binder_and_its_jupyterhub(course):
    site = course["site"]
    links = launch_links(course["html"] / "book" / f"{CHAPTER}.html")
    repo = urllib.parse.quote(site["REPOSITORY"], safe="")
    assert links == {
        "Binder": f"https://mybinder.org/v2/git/{repo}/{BRANCH}"
                  f"?urlpath=lab/tree/book/{CHAPTER}.md",
        "JupyterHub": f"{site['JUPYTERHUB_URL']}/hub/user-redirect/git-pull?repo="
                      f"{urllib.parse.quote(site['REPOSITORY'], safe='/')}"
                      f"&urlpath=lab/tree/armlab/book/{CHAPTER}.md&branch={BRANCH}"}
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(links["JupyterHub"]).query)
    assert query == {"repo": [site["REPOSITORY"]], "branch": [BRANCH],
                     "urlpath": [f"lab/tree/armlab/book/{CHAPTER}.md"]}


def test_the_book_offers_binder_only_without_a_jupyterhub(built_book):
    from armlab import _site

    assert _site.JUPYTERHUB_URL == ""
    links = launch_links(ROOT / "_build" / "html" / "book" / f"{CHAPTER}.html")
    assert links == {"Binder": "https://mybinder.org/v2/gh/armlab-book/armlab/main"
                               f"?urlpath=lab/tree/book/{CHAPTER}.md"}


def lab_values():
    """The value column of the chapter's lab table, as the lab computes it for the chapter's
    preset (the chapter's ``view = labs.<chapter>_lab(..., render=False)``)."""
    from armlab import labs

    source = (ROOT / "book" / f"{CHAPTER}.md").read_text()
    make, preset = re.search(r'view = labs\.(\w+_lab)\((?:preset="([^"]+)",\s*)?render=False\)',
                             source).groups()
    view = getattr(labs, make)(**({"preset": preset} if preset else {}), render=False)
    return [" ".join(b.split()) for _, b, _ in view.table_rows()]


def wait_for_http(url, seconds, proc, log):
    """Wait until ``url`` answers (any HTTP status), or fail with the log."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the JupyterHub stopped ({proc.returncode}):\n{log.read_text()[-4000:]}")
        try:
            urllib.request.urlopen(url, timeout=5)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"the JupyterHub did not answer in {seconds} s:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="module")
def hub(course):
    """A JupyterHub on the course's URL; ends it (and its user's server) afterwards."""
    missing = [what for what, there in
               (("configurable-http-proxy (npm install -g configurable-http-proxy)", CHP),
                (f"{CHROMIUM} (apt-get install chromium)", CHROMIUM.exists()))
               if not there]
    if missing:
        pytest.skip("no JupyterHub end to end on this machine: " + ", ".join(missing)
                    + " absent")
    tmp = course["tmp"] / "hub"
    home = tmp / "home"
    home.mkdir(parents=True)
    venv_bin = pathlib.Path(sys.executable).parent
    port = urllib.parse.urlsplit(course["site"]["JUPYTERHUB_URL"]).port
    config = tmp / "jupyterhub_config.py"
    config.write_text(textwrap.dedent(f"""
        c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
        c.JupyterHub.hub_ip = "127.0.0.1"
        c.JupyterHub.hub_port = {free_port()}
        c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{free_port()}"
        c.ConfigurableHTTPProxy.command = [{CHP!r}]
        c.JupyterHub.db_url = "sqlite:///{tmp}/jupyterhub.sqlite"
        c.JupyterHub.cookie_secret_file = "{tmp}/jupyterhub_cookie_secret"
        c.JupyterHub.pid_file = "{tmp}/jupyterhub.pid"
        c.JupyterHub.authenticator_class = "dummy"
        c.Authenticator.allow_all = True
        c.JupyterHub.spawner_class = "simple"
        c.SimpleLocalProcessSpawner.home_dir_template = "{home}/{{username}}"
        c.Spawner.notebook_dir = "{home}/{{username}}"
        c.Spawner.cmd = ["{venv_bin / 'jupyterhub-singleuser'}"]
        # CI runs as root; window.jupyterapp lets the test run the notebook's commands
        c.Spawner.args = ["--allow-root", "--LabApp.expose_app_in_browser=True"]
        c.Spawner.ip = "127.0.0.1"
        c.Spawner.default_url = "/lab"
        c.Spawner.start_timeout = 120
        c.Spawner.http_timeout = 120
        c.Spawner.environment = {{"PATH": "{venv_bin}:/usr/bin:/bin"}}
        c.JupyterHub.cleanup_servers = True
    """))
    log = tmp / "jupyterhub.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([str(venv_bin / "jupyterhub"), "-f", str(config)], cwd=tmp,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for_http(f"{course['site']['JUPYTERHUB_URL']}/hub/health", 60, proc, log)
        yield {"home": home / USER, "log": log}
    finally:
        proc.terminate()        # the hub stops its proxy and the user's server (cleanup_servers)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()


@pytest.mark.browser
def test_the_launch_link_opens_the_chapter_in_the_jupyterhub(course, hub, chromium):
    """From the built page's menu to the chapter open as a notebook in the course's hub"""
    page_file = course["html"] / "book" / f"{CHAPTER}.html"
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        page.goto(page_file.as_uri())
        page.click('.dropdown-launch-buttons button[aria-label="Launch interactive content"]')
        link = page.locator(".dropdown-launch-buttons a.dropdown-item",
                            has=page.locator(".btn__text-container", has_text="JupyterHub"))
        assert link.get_attribute("href") == launch_links(page_file)["JupyterHub"]
        with context.expect_page() as opened:                  # the link opens a new tab
            link.click()
        page = opened.value                                    # the hub asks who you are
        page.fill("#username_input", USER, timeout=60_000)
        page.fill("#password_input", "any")
        page.click("#login_submit")
        # the hub spawns the server, nbgitpuller clones and redirects to the chapter
        page.wait_for_url(re.compile(rf"/user/{USER}/lab/tree/armlab/book/{CHAPTER}\.md"),
                          timeout=120_000)
        notebook = page.locator(".jp-NotebookPanel .jp-Notebook")
        notebook.wait_for(timeout=120_000)
        title = page.locator(".jp-NotebookPanel .jp-MarkdownCell h1").first
        title.wait_for(timeout=120_000)
        heading = next(line[2:] for line in
                       (ROOT / "book" / f"{CHAPTER}.md").read_text().splitlines()
                       if line.startswith("# "))
        assert title.inner_text().strip().rstrip("¶").strip() == heading
        assert page.locator(".jp-NotebookPanel .jp-CodeCell").count() > 5
        # the hub's server runs the whole chapter: no error, and its lab shows its table
        current = "window.jupyterapp.shell.currentWidget"
        idle = (f"window.jupyterapp && {current} && {current}.sessionContext && {current}.sessionContext.session"
                f" && {current}.sessionContext.session.kernel && "
                f"{current}.sessionContext.session.kernel.status === 'idle'")
        page.wait_for_function(idle, timeout=120_000)
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(                                 # every code cell has run
            f"{current}.content.model && Array.from({current}.content.model.cells)"
            f".filter(c => c.type === 'code').every(c => c.executionCount !== null)",
            timeout=120_000)
        page.wait_for_function(idle, timeout=120_000)
        errors = page.locator('.jp-NotebookPanel .jp-OutputArea-output[data-mime-type$="error"]')
        assert errors.count() == 0, errors.all_inner_texts()[:3]
        values = lab_values()
        columns_js = """() => Array.from(document.querySelectorAll(
            '.jp-NotebookPanel table')).map(t => Array.from(t.querySelectorAll('tr')).slice(1)
              .map(r => Array.from(r.querySelectorAll('td, th')))
              .filter(cells => cells.length > 1)
              .map(cells => cells[1].textContent.replace(/\\s+/g, ' ').trim()))"""
        try:        # the lab table's {eval} values render a moment after the kernel is idle
            page.wait_for_function(f"({columns_js})().filter(c => JSON.stringify(c) === "
                                   f"{json.dumps(json.dumps(values))}).length === 1",
                                   timeout=60_000)
        except Exception:                                       # noqa: BLE001
            pass                                                # the assert says what shows
        columns = page.evaluate(columns_js)
        assert columns.count(values) == 1, (values, columns)
    finally:
        page.screenshot(path=str(course["tmp"] / "jupyterhub.png"))
        artifacts = ROOT / "tests" / "artifacts"
        artifacts.mkdir(exist_ok=True)
        shutil.copy(course["tmp"] / "jupyterhub.png", artifacts / "jupyterhub.png")
        context.close()
    clone = hub["home"] / "armlab"
    head = subprocess.run(["git", "-C", str(clone), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    source = subprocess.run(["git", "-C", str(course["bare"]), "rev-parse", BRANCH],
                            check=True, capture_output=True, text=True).stdout.strip()
    assert head == source
    committed = subprocess.run(["git", "-C", str(ROOT), "show", f"HEAD:book/{CHAPTER}.md"],
                               check=True, capture_output=True).stdout
    assert (clone / "book" / f"{CHAPTER}.md").read_bytes() == committed
