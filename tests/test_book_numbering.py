"""Equations, figures and tables are numbered per chapter, as an exercise text cites them.

The chapters are numbered in the table of contents (``_toc.yml``: kinematics 1 ...
control 7, then the spatial chapters), so Sphinx numbers each chapter's equations (2.1),
(2.2), ..., its figures Fig. 2.1, ... and its tables Table 2.1, ..., and every ``{eq}`` or
``{numref}`` link shows the number of what it points to. The pages around the chapters (intro,
conventions, instructors, API) are not numbered.
"""

import re

import pytest

from _bookbuild import chapter_pages, toc_chapters, toc_pages
from bookpages import clean, figure_numbers, soup, table_numbers

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

NUMBERED = {f"book/{name}": k for k, name in enumerate(toc_chapters(), start=1)}
#: Each chapter's pages (its own, then its sections): one numbering runs through them.
PAGES = {page: chapter_pages(page.split("/")[-1]) for page in NUMBERED}


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
    counted from 1 without a gap through the chapter's pages in reading order; every link to
    one, on any of its pages, shows that number"""
    c = NUMBERED[page]
    equations, figures, tables = {}, {}, {}
    for part in PAGES[page]:
        equations.update(equation_numbers(part))
        figures.update(figure_numbers(part))
        tables.update(table_numbers(part))
    assert list(equations.values()) == [f"({c}.{k})" for k in range(1, len(equations) + 1)]
    for kind, numbers in (("Fig.", figures), ("Table", tables)):
        assert list(numbers.values()) == [f"{kind} {c}.{k}" for k in range(1, len(numbers) + 1)]
    assert figures and equations, page
    shown = {**equations, **figures, **tables}
    for part in PAGES[page]:
        for link in soup(part).find_all("a", href=re.compile(r"#")):
            name = link["href"].split("#")[-1]
            if name in shown and "headerlink" not in link.get("class", []):
                assert clean(link.get_text()) == shown[name], (part, name)
    title = soup(page).find("h1")
    assert clean(title.find("span", class_="section-number").get_text()) == f"{c}."
    for k, part in enumerate(PAGES[page][1:], start=1):     # a section page: c.(k-th after)
        number = clean(soup(part).find("h1").find("span", class_="section-number").get_text())
        assert re.fullmatch(rf"{c}\.\d+\.", number), (part, number)


@pytest.mark.parametrize("page", [p for p in toc_pages()
                                  if not any(p in pages for pages in PAGES.values())])
def test_pages_around_the_chapters_are_not_numbered(page):
    """The intro, conventions, instructors' and API pages have no section number"""
    assert soup(page).find("span", class_="section-number") is None
