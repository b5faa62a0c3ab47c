"""Opening a chapter in JupyterLab and saving it changes nothing in the repository.

JupyterLab reads ``book/*.md`` through jupytext and, on save, writes the
notebook back with its kernel spec, its language info and (with
jupyterlab-myst) the values of the ``{eval}`` roles in each Markdown cell's
metadata. A chapter that already is what jupytext writes, with the kernel
spec JupyterLab sets, and the repository's ``jupytext.toml`` that keeps the
evaluated values out, survives that round trip byte for byte.
"""

import copy
import pathlib
import sys

import jupytext
import jupytext.config
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))
from normalize_chapters import KERNELSPEC, LANGUAGE_INFO, chapters, normalized  # noqa: E402

CONFIG = jupytext.config.load_jupytext_config(str(ROOT))


def kernel_language_info():
    """The ``language_info`` the venv's kernel reports, which JupyterLab puts in a notebook."""
    import platform

    from ipykernel.ipkernel import IPythonKernel

    return dict(IPythonKernel.language_info, version=platform.python_version())


def test_stored_language_info_is_the_kernels():
    """The language info the chapters hold is what the venv's kernel reports (a new Python
    needs a new LANGUAGE_INFO and `make normalize`)"""
    assert LANGUAGE_INFO == kernel_language_info()


@pytest.mark.parametrize("path", chapters(), ids=lambda p: str(p.relative_to(ROOT / "book")))
def test_chapter_holds_what_jupyterlab_sets_on_open(path):
    """A notebook page's front matter already holds the kernel spec and language info that
    JupyterLab sets when the kernel starts, so opening it changes nothing (no modified mark)"""
    nb = jupytext.read(path, fmt="md:myst")
    if any(cell.cell_type == "code" for cell in nb.cells):
        assert nb.metadata["kernelspec"] == KERNELSPEC
        assert nb.metadata["language_info"] == kernel_language_info()


@pytest.mark.parametrize("path", chapters(), ids=lambda p: str(p.relative_to(ROOT / "book")))
def test_chapter_is_normalized(path):
    """Each page is exactly what jupytext writes back (run `make normalize` if not)"""
    text = path.read_text(encoding="utf-8")
    assert normalized(text) == text, f"{path.name} changes on save: run `make normalize`"


@pytest.mark.parametrize("path", chapters(), ids=lambda p: str(p.relative_to(ROOT / "book")))
def test_jupyterlab_save_changes_nothing(path):
    """Read, add what JupyterLab and jupyterlab-myst add, write: the same bytes"""
    text = path.read_text(encoding="utf-8")
    nb = jupytext.reads(text, fmt="md:myst")
    saved = copy.deepcopy(nb)
    if any(cell.cell_type == "code" for cell in nb.cells):
        saved.metadata["kernelspec"] = dict(KERNELSPEC)
        saved.metadata["language_info"] = kernel_language_info()
    for cell in saved.cells:
        if cell.cell_type == "markdown" and "{eval}" in cell.source:
            cell.metadata["user_expressions"] = [
                {"expression": "x", "result": {"status": "ok", "data": {"text/plain": "1.0"}}}]
    assert jupytext.writes(saved, fmt="md:myst", config=CONFIG) == text


@pytest.mark.parametrize("path", chapters(), ids=lambda p: str(p.relative_to(ROOT / "book")))
def test_jupytext_without_this_repository_config_changes_nothing(path):
    """A chapter opened by a jupytext that does not find jupytext.toml (a downloaded page, a
    reader's own Jupyter) is written back byte for byte: its front matter carries its filter"""
    text = path.read_text(encoding="utf-8")
    assert jupytext.writes(jupytext.reads(text, fmt="md:myst"), fmt="md:myst") == text


def test_filter_is_what_keeps_values_out():
    """Without jupytext.toml's filter, a saved chapter would gain the evaluated values"""
    nb = jupytext.reads("Value {eval}`x`.\n", fmt="md:myst")
    nb.cells[0].metadata["user_expressions"] = [{"expression": "x"}]
    assert "user_expressions" in jupytext.writes(nb, fmt="md:myst")
    assert "user_expressions" not in jupytext.writes(nb, fmt="md:myst", config=CONFIG)
