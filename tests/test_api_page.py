"""The API reference page documents every public module and name of armlab.

Slow: reads the built book (``make book``'s command, shared with test_book_statics.py).
"""

import importlib
import re

import pytest
from bs4 import NavigableString, Tag

import armlab
from _bookbuild import HTML, ROOT, build_book
from bookpages import soup

pytestmark = pytest.mark.slow


def public_modules():
    """Every public module of armlab's physics, its labs, its figures and its spatial chains
    (not the grading tools)."""
    names = [f"armlab.{p.stem}" for p in sorted((ROOT / "armlab").glob("*.py"))
             if not p.stem.startswith("_")]
    for package in ("labs", "figures", "spatial"):
        names += [f"armlab.{package}.{p.stem}"
                  for p in sorted((ROOT / "armlab" / package).glob("*.py"))
                  if not p.stem.startswith("_")]
    return names


@pytest.fixture(scope="module")
def documented():
    returncode, log = build_book()
    assert returncode == 0, log[-4000:]
    return {tag["id"] for tag in soup("book/api").find_all(id=True)}


@pytest.mark.parametrize("module", public_modules())
def test_every_public_module_and_name_is_documented(documented, module):
    """Each module has its section, and each name of its __all__ an entry"""
    assert f"module-{module}" in documented, f"{module} is missing from book/api.md"
    mod = importlib.import_module(module)
    for name in mod.__all__:
        home = getattr(getattr(mod, name), "__module__", module)
        if home == module:
            assert f"{module}.{name}" in documented, f"{module}.{name}"


def test_package_names_lead_to_their_entries(documented):
    """Every name `import armlab as al` offers is documented where it is defined"""
    for name in armlab.__all__:
        obj = getattr(armlab, name)
        assert f"{obj.__module__}.{obj.__qualname__}" in documented, name


def test_api_page_is_in_the_book():
    assert (HTML / "book" / "api.html").is_file()


#: The modules whose every word a reader may see (docstrings on this page, the labs' base in
#: every lab): none names the project's source documents.
OWN_WORDS = ["armlab.arm", "armlab.plots", "armlab.prose", "armlab.gearing",
             "armlab.figures.limits", "armlab.figures.control"]
SEED = re.compile(r"\bseeds?\b", re.IGNORECASE)


def module_texts():
    """The API page's text, module by module (from each ``module-<name>`` anchor on)."""
    texts, current = {}, None
    for node in soup("book/api").descendants:
        if isinstance(node, Tag):
            if node.get("id", "").startswith("module-"):
                current = node["id"][len("module-"):]
        elif isinstance(node, NavigableString) and current:
            texts[current] = texts.get(current, "") + node
    return texts


@pytest.mark.parametrize("module", OWN_WORDS)
def test_api_page_names_no_source_document(documented, module):
    """The page's text for the arm, the plots and the prose helpers says no "seed": an example
    is stated on its own terms ("the table-top arm", "two 1 m rods")"""
    text = module_texts()[module]
    assert len(text) > 500, module
    assert not SEED.findall(text), [text[max(m.start() - 60, 0):m.end() + 60]
                                    for m in SEED.finditer(text)]


@pytest.mark.parametrize("path", ["arm.py", "plots.py", "prose.py", "labs/_base.py",
                                  "labs/__init__.py", "gearing.py", "figures/__init__.py",
                                  "figures/gravity.py", "figures/inverse_dynamics.py",
                                  "figures/limits.py", "figures/control.py",
                                  *(f"spatial/{name}.py" for name in (
                                      "__init__", "so3", "se3", "inertia", "chain", "robots",
                                      "kinematics", "statics", "dynamics"))])
def test_source_names_no_source_document(path):
    """Nor does any line of those modules and of the labs' base (docstrings, comments)"""
    text = (ROOT / "armlab" / path).read_text(encoding="utf-8")
    assert not SEED.search(text), path
