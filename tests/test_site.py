"""The one repository setting (armlab/_site.py) and the places that read it.

The exercise notebooks' install line is written into the release from it (a fork that changes
it gets its own line with ``make exercises``), and the instructors' page shows it through the
book's MyST substitutions."""

import json
import pathlib
import sys
import types

from armlab import _site
from armlab.grading import release

REPO = pathlib.Path(__file__).resolve().parents[1]


def test_the_release_writes_the_install_line_of_the_setting(tmp_path, monkeypatch):
    monkeypatch.setattr(_site, "REPOSITORY", "https://git.example.edu/robotics/armlab")
    monkeypatch.setattr(_site, "BRANCH", "spring-2027")
    release.generate("statics", tmp_path)
    nb = json.loads((tmp_path / "release" / "statics" / "statics.ipynb").read_text())
    intro = "".join(nb["cells"][0]["source"])
    assert 'pip install jupyterlab "armlab @ git+https://git.example.edu/robotics/armlab' \
           '@spring-2027"' in intro
    assert "github.com/armlab-book" not in json.dumps(nb)


def test_every_notebook_holds_the_settings_install_line_now():
    for folder in ("solutions", "exercises"):
        for path in sorted((REPO / folder).glob("*/*.ipynb")):
            text = "".join(json.loads(path.read_text())["cells"][0]["source"])
            assert _site.install_line() in text, path


def test_the_instructors_page_takes_it_from_the_setting():
    page = (REPO / "book" / "instructors.md").read_text()
    assert "{{ armlab_install }}" in page
    assert _site.INSTALL_LINE_START not in page
    sys.path.insert(0, str(REPO / "_ext"))
    try:
        import armlab_book
    finally:
        sys.path.remove(str(REPO / "_ext"))
    config = types.SimpleNamespace(myst_substitutions={"other": "x"})
    armlab_book._site_substitutions(None, config)
    assert config.myst_substitutions == {
        "other": "x", "armlab_repository": "https://github.com/armlab-book/armlab",
        "armlab_branch": "main", "armlab_install_inline": f"`{_site.install_line()}`",
        "armlab_install": f"```bash\n{_site.install_line()}\n```"}
