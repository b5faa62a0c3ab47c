"""Binder and local Jupyter: the environment a reader's chapter opens in."""

import json
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_requirements_are_pinned():
    """Binder builds from requirements.txt: every package pinned, armlab installed from the repo"""
    for name in ("requirements.txt", "requirements-test.txt"):
        lines = [ln.strip() for ln in (ROOT / name).read_text().splitlines()]
        for line in lines:
            if line and not line.startswith("#"):
                assert line == "-e ." or re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[\w.]+", line), line
    assert "-e ." in (ROOT / "requirements.txt").read_text().splitlines()


def test_post_build_makes_markdown_chapters_open_as_notebooks(tmp_path):
    """postBuild writes JupyterLab's default-viewer override for .md into the prefix"""
    subprocess.run(["bash", str(ROOT / "postBuild")], check=True,
                   env={"NB_PYTHON_PREFIX": str(tmp_path), "PATH": "/usr/bin:/bin"})
    written = json.loads((tmp_path / "share/jupyter/lab/settings/overrides.json").read_text())
    viewers = written["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers["markdown"] == "Jupytext Notebook"
    assert viewers["myst"] == "Jupytext Notebook"
