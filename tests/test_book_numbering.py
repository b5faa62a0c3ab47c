"""Equations, figures and tables are numbered per chapter, as an exercise text cites them.

The seven chapters are numbered in the table of contents (``_toc.yml``: kinematics 1 ...
control 7), so Sphinx numbers each chapter's equations (2.1), (2.2), ..., its figures
Fig. 2.1, ... and its tables Table 2.1, ..., and every ``{eq}`` or ``{numref}`` link
shows the number of what it points to. The pages around the chapters (intro,
conventions, instructors, API) are not numbered.
"""

import re

import pytest

from _bookbuild import toc_chapters, toc_pages
from bookpages import clean, figure_numbers, soup, table_numbers

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

NUMBERED = {f"book/{name}": k for k, name in enumerate(toc_chapters(), start=1)}


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
    equations = equation_numbers(page)
    assert list(equations.values()) == [f"({c}.{k})" for k in range(1, len(equations) + 1)]
    for kind, numbers in (("Fig.", figure_numbers(page)), ("Table", table_numbers(page))):
        assert list(numbers.values()) == [f"{kind} {c}.{k}" for k in range(1, len(numbers) + 1)]
    assert figure_numbers(page) and equations, page
    shown = {**equations, **figure_numbers(page), **table_numbers(page)}
    for link in soup(page).find_all("a", href=re.compile(r"^#")):
        name = link["href"][1:]
        if name in shown and "headerlink" not in link.get("class", []):
            assert clean(link.get_text()) == shown[name], (page, name)
    title = soup(page).find("h1")
    assert clean(title.find("span", class_="section-number").get_text()) == f"{c}."


@pytest.mark.parametrize("page", [p for p in toc_pages() if p not in NUMBERED])
def test_pages_around_the_chapters_are_not_numbered(page):
    """The intro, conventions, instructors' and API pages have no section number"""
    assert soup(page).find("span", class_="section-number") is None
