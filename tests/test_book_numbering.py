"""Equations, figures and tables are numbered per chapter, as an exercise text cites them.

The seven chapters are numbered in the table of contents (``_toc.yml``: kinematics 1 ...
control 7), so Sphinx numbers each chapter's equations (2.1), (2.2), ..., its figures
Fig. 2.1, ... and its tables Table 2.1, ..., and every ``{eq}`` or ``{numref}`` link
shows the number of what it points to. The pages around the chapters (intro,
conventions, instructors, API) are not numbered.
"""

import re

import pytest
import yaml

from _bookbuild import ROOT, toc_chapters, toc_pages
from bookpages import clean, figure_numbers, soup, table_numbers

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

NUMBERED = {f"book/{name}": k for k, name in enumerate(toc_chapters(), start=1)}


def chapter_pages():
    """``{chapter page: [its pages in reading order]}``: a chapter split into a numbered group
    of pages lists its further pages as ``sections:`` of its entry in ``_toc.yml``."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    entries = [entry for part in toc["parts"] if part.get("numbered")
               for entry in part["chapters"]]
    return {entry["file"]: [entry["file"]] + [sub["file"] for sub in entry.get("sections", [])]
            for entry in entries}


#: every page of a numbered chapter, with its chapter's number
CHAPTER_OF = {page: NUMBERED[first] for first, pages in chapter_pages().items()
              for page in pages}


def equation_numbers(page):
    """``{equation anchor: "(c.k)"}`` for the page's numbered display equations, in order."""
    numbers = {}
    for eqno in soup(page).find_all("span", class_="eqno"):
        anchor = eqno.find("a", class_="headerlink")["href"][1:]     # equation-<label>
        numbers[anchor] = clean(eqno.find(string=True))
    return numbers


@pytest.mark.parametrize("page", list(NUMBERED))
def test_equations_figures_and_tables_carry_the_chapter_number(page):
    """Equation k of chapter c shows (c.k), figure k Fig. c.k, table k Table c.k, each
    counted from 1 without a gap; every link to one shows that number"""
    c = NUMBERED[page]
    pages = chapter_pages()[page]
    equations, figures, tables = {}, {}, {}
    for p in pages:                               # counted on across a chapter's pages
        equations.update(equation_numbers(p))
        figures.update(figure_numbers(p))
        tables.update(table_numbers(p))
    assert list(equations.values()) == [f"({c}.{k})" for k in range(1, len(equations) + 1)]
    for kind, numbers in (("Fig.", figures), ("Table", tables)):
        assert list(numbers.values()) == [f"{kind} {c}.{k}" for k in range(1, len(numbers) + 1)]
    assert figures and equations, page
    for p in pages:
        shown = {**equation_numbers(p), **figure_numbers(p), **table_numbers(p)}
        for link in soup(p).find_all("a", href=re.compile(r"^#")):
            name = link["href"][1:]
            if name in shown and "headerlink" not in link.get("class", []):
                assert clean(link.get_text()) == shown[name], (p, name)
    title = soup(page).find("h1")
    assert clean(title.find("span", class_="section-number").get_text()) == f"{c}."
    for p in pages[1:]:                           # a further page: a section of its chapter
        number = clean(soup(p).find("h1").find("span", class_="section-number").get_text())
        assert re.fullmatch(rf"{c}\.\d+\.", number), (p, number)


@pytest.mark.parametrize("page", [p for p in toc_pages() if p not in CHAPTER_OF])
def test_pages_around_the_chapters_are_not_numbered(page):
    """The intro, conventions, instructors' and API pages have no section number"""
    assert soup(page).find("span", class_="section-number") is None
