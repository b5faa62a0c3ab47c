"""Fixtures shared by the test modules."""

import pathlib

import pytest

#: The system's Chromium (Debian's package; .ci/run installs it).
CHROMIUM = pathlib.Path("/usr/bin/chromium")
#: Flags for a headless Chromium on a machine with a closed network.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the whole session, driven by Playwright's sync API.

    Playwright's sync API runs one event loop per process, so the browser tests of
    every module share this one instance. Skips, with the reason, without Chromium.
    """
    if not CHROMIUM.exists():
        pytest.skip(f"no browser: {CHROMIUM} is absent (apt-get install chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                    headless=True)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def sandboxed():
    """Skips, with the reason, where grading cannot make its sandbox (no bubblewrap, or
    no privilege to make namespaces): grading rounds need it."""
    from armlab.grading.sandbox import available

    ok, why = available()
    if not ok:
        pytest.skip(f"no sandbox on this machine: {why}")


@pytest.fixture(scope="session")
def built_book():
    """The book built once per session (``make book``'s command, ``_bookbuild.build_book``).

    A chapter's page tests use it with ``pytest.mark.usefixtures("built_book")``; they
    fail, with the end of the build's log, when the build fails.
    """
    from _bookbuild import build_book

    returncode, log = build_book()
    assert returncode == 0, log[-4000:]


@pytest.fixture(autouse=True)
def _numpy_print_options():
    """A test that runs a notebook's setup cell in this process (which sets numpy's print
    options) leaves them as they were: the doctests after it print at numpy's defaults."""
    import numpy as np

    with np.printoptions():
        yield
