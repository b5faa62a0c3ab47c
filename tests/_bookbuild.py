"""Build the book once per test session and share the result.

``test_book_statics.py`` and ``test_browser.py`` both need the built HTML. Their
session fixtures call :func:`build_book`, which runs ``jupyter-book build`` at
most once per Python process (the execution cache in ``_build`` makes a
rebuild with nothing changed quick).
"""

import functools
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"


@functools.cache
def build_book():
    """Run ``jupyter-book build . -W -n --keep-going`` at the repo root.

    Returns
    -------
    returncode : int
    log : str
        The build's stdout and stderr.
    """
    exe = pathlib.Path(sys.executable).parent / "jupyter-book"
    proc = subprocess.run([str(exe), "build", str(ROOT), "-W", "-n", "--keep-going"],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    return proc.returncode, proc.stdout + proc.stderr


def toc_pages():
    """The pages listed in ``_toc.yml``, as paths without suffix (``book/intro``, ...)."""
    pages = []
    for line in (ROOT / "_toc.yml").read_text().splitlines():
        line = line.split("#")[0].strip()
        for key in ("root:", "- file:", "file:"):
            if line.startswith(key):
                pages.append(line[len(key):].strip())
                break
    return pages


def toc_chapters():
    """The book's chapters, as ``_toc.yml`` lists them in its numbered part
    (``kinematics``, ``statics``, ...): the one list of chapters the tests use."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    numbered = [part for part in toc["parts"] if part.get("numbered")]
    return [pathlib.PurePosixPath(entry["file"]).name
            for part in numbered for entry in part["chapters"]]


#: Chapters that have no lab yet, and no exercise set yet. The lab tests skip the first and
#: only those, the exercise tests the second.
WITHOUT_LAB = ()
WITHOUT_EXERCISES = ()


def chapters_with_lab():
    """:func:`toc_chapters` but those of :data:`WITHOUT_LAB`."""
    return [c for c in toc_chapters() if c not in WITHOUT_LAB]


def chapters_with_exercises():
    """:func:`toc_chapters` but those of :data:`WITHOUT_EXERCISES`."""
    return [c for c in toc_chapters() if c not in WITHOUT_EXERCISES]


def chapter_pages(chapter):
    """A chapter's pages in reading order, as ``_toc.yml`` lists them: the chapter's own page,
    then its sections (``["book/statics", "book/statics/singular", ...]``)."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    for part in toc["parts"]:
        for entry in part.get("chapters", []):
            if pathlib.PurePosixPath(entry["file"]).name == chapter:
                return [entry["file"]] + [s["file"] for s in entry.get("sections", [])]
    raise ValueError(f"chapter {chapter!r} is not in _toc.yml")
