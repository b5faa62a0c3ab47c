"""Binder and local Jupyter: the environment a reader's chapter opens in."""

import json
import pathlib
import re
import subprocess
import sys

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


def test_runtime_matches_the_python_make_uses():
    """runtime.txt pins Binder to the Python the Makefile builds .venv with and tests run on"""
    pinned = (ROOT / "runtime.txt").read_text().strip()
    assert re.fullmatch(r"python-3\.\d+", pinned), pinned
    version = pinned.removeprefix("python-")
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(rf"^PYTHON \?= python{re.escape(version)}$", makefile, re.M)
    assert f"{sys.version_info.major}.{sys.version_info.minor}" == version
    assert f'requires-python = ">={version}"' in (ROOT / "pyproject.toml").read_text()


def test_post_build_gives_students_validate_only(tmp_path):
    """Binder's postBuild: nbgrader's instructor tools off, Validate kept; make keeps them all"""
    env = {"NB_PYTHON_PREFIX": str(tmp_path), "PATH": "/usr/bin:/bin"}
    subprocess.run(["bash", str(ROOT / "postBuild")], check=True, env=env)
    page = json.loads((tmp_path / "etc/jupyter/labconfig/page_config.json").read_text())
    assert sorted(page["disabledExtensions"]) == sorted(
        f"@jupyter/nbgrader:{p}" for p in
        ("create-assignment", "formgrader", "course-list", "assignment-list", "menu"))
    server = json.loads(
        (tmp_path / "etc/jupyter/jupyter_server_config.d/zz-armlab-student.json").read_text())
    off = server["ServerApp"]["jpserver_extensions"]
    assert off == {f"nbgrader.server_extensions.{e}": False
                   for e in ("formgrader", "course_list", "assignment_list")}
    validate = json.loads(
        (tmp_path / "etc/jupyter/jupyter_server_config.d/armlab.json").read_text())
    assert validate["ServerApp"]["jpserver_extensions"] == {"armlab._jupyter": True}
    subprocess.run(["bash", str(ROOT / "postBuild")], check=True,
                   env=dict(env, ARMLAB_INSTRUCTOR="1"))
    assert (tmp_path / "etc/jupyter/jupyter_server_config.d/armlab.json").is_file()
    assert not (tmp_path / "etc/jupyter/labconfig/page_config.json").exists()
    assert not (tmp_path / "etc/jupyter/jupyter_server_config.d/zz-armlab-student.json").exists()
