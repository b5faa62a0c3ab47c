"""The launch menu's settings come from armlab/_site.py only (issue 25, items 1 and 5).

_ext/armlab_book.py writes the repository's URL and branch and the course's JupyterHub into
the book theme's options when the build starts; _config.yml names no repository. The built
pages' links are checked in tests/test_jupyterhub.py and tests/test_book_statics.py."""

import pathlib
import sys
import types

import pytest
import yaml

from armlab import _site

REPO = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def armlab_book():
    sys.path.insert(0, str(REPO / "_ext"))
    try:
        import armlab_book
    finally:
        sys.path.remove(str(REPO / "_ext"))
    return armlab_book


def theme_options(armlab_book, **before):
    config = types.SimpleNamespace(html_theme_options=before)
    armlab_book._site_launch_buttons(None, config)
    return config.html_theme_options


def test_config_names_no_repository():
    config = yaml.safe_load((REPO / "_config.yml").read_text())
    assert "url" not in config["repository"] and "branch" not in config["repository"]
    assert "jupyterhub_url" not in config["launch_buttons"]
    assert config["launch_buttons"]["binderhub_url"] == "https://mybinder.org"
    assert "github.com" not in (REPO / "_config.yml").read_text()


def test_the_setting_reaches_the_theme(armlab_book):
    options = theme_options(armlab_book, launch_buttons={"binderhub_url": "https://mybinder.org",
                                                         "notebook_interface": "jupyterlab"},
                            use_download_button=True)
    assert options == {
        "repository_url": "https://github.com/armlab-book/armlab", "repository_branch": "main",
        "repository_provider": "github", "use_repository_button": True,
        "use_download_button": True,
        "launch_buttons": {"binderhub_url": "https://mybinder.org",
                           "notebook_interface": "jupyterlab"}}


def test_a_fork_with_a_jupyterhub(armlab_book, monkeypatch):
    monkeypatch.setattr(_site, "REPOSITORY", "https://git.example.edu/robotics/armlab")
    monkeypatch.setattr(_site, "BRANCH", "spring-2027")
    monkeypatch.setattr(_site, "JUPYTERHUB_URL", "https://hub.example.edu")
    options = theme_options(armlab_book, launch_buttons={"binderhub_url": "https://mybinder.org"})
    assert options["repository_url"] == "https://git.example.edu/robotics/armlab"
    assert options["repository_branch"] == "spring-2027"
    assert options["repository_provider"] == "gitlab"      # any host the theme does not know
    assert options["launch_buttons"] == {"binderhub_url": "https://mybinder.org",
                                         "jupyterhub_url": "https://hub.example.edu"}


def test_no_jupyterhub_button_without_the_setting(armlab_book, monkeypatch):
    monkeypatch.setattr(_site, "JUPYTERHUB_URL", "")
    options = theme_options(armlab_book, launch_buttons={"jupyterhub_url": "https://stale.edu"})
    assert "jupyterhub_url" not in options["launch_buttons"]
