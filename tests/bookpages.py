"""Read the built book where its reader reads it: the value in the element that shows it.

A chapter writes its computed numbers with myst-nb's ``{eval}`` role, which
renders each as ``<span class="output text_plain">``. The helpers below find the
one paragraph, list item or table cell that contains an anchor text and return
the values shown in it, in order, so a test compares exact text where it stands
instead of searching the whole page for a substring.
"""

import functools
import re

from bs4 import BeautifulSoup

from _bookbuild import HTML

BLOCKS = ("p", "li", "td", "th", "dd", "figcaption")


def clean(text):
    """Whitespace collapsed, the typographic minus as '-'."""
    return re.sub(r"\s+", " ", text.replace("\u2212", "-")).strip()


@functools.cache
def soup(page):
    """The parsed HTML of a built page (``"book/statics"``), main article only."""
    tree = BeautifulSoup((HTML / f"{page}.html").read_text(encoding="utf-8"), "html.parser")
    return tree.find("article") or tree


def block(page, anchor):
    """The one paragraph, list item, table cell or caption whose text contains ``anchor``.

    Fails when no block or more than one block (innermost) contains it, so the
    anchor must name one place on the page.
    """
    found = [b for b in soup(page).find_all(BLOCKS)
             if anchor in clean(b.get_text(" "))
             and not any(anchor in clean(c.get_text(" ")) for c in b.find_all(BLOCKS))]
    assert len(found) == 1, f"{page}: {len(found)} blocks contain {anchor!r}"
    return found[0]


def evals(page, anchor):
    """The inline values (``{eval}``) shown in the block that contains ``anchor``, in order."""
    return [clean(s.get_text()) for s in
            block(page, anchor).find_all("span", class_="output text_plain")]


def table(page, caption):
    """The rows (lists of cell texts, header first) of the table whose caption contains ``caption``."""
    tables = [t for t in soup(page).find_all("table")
              if t.caption is not None and caption in clean(t.caption.get_text(" "))]
    assert len(tables) == 1, f"{page}: {len(tables)} tables captioned {caption!r}"
    return [[clean(c.get_text(" ")) for c in row.find_all(["th", "td"])]
            for row in tables[0].find_all("tr")]


def figure_numbers(page):
    """``{figure name: "Fig. k"}`` for the page's numbered figures (by their anchor id)."""
    numbers = {}
    for fig in soup(page).find_all("figure"):
        number = fig.find("span", class_="caption-number")
        if fig.get("id") and number is not None:
            numbers[fig["id"]] = clean(number.get_text()).rstrip()
    return numbers


def table_numbers(page):
    """``{table name: "Table k"}`` for the page's numbered tables (by their anchor id)."""
    numbers = {}
    for tab in soup(page).find_all("table"):
        number = tab.caption.find("span", class_="caption-number") if tab.caption else None
        if tab.get("id") and number is not None:
            numbers[tab["id"]] = clean(number.get_text()).rstrip()
    return numbers


def references(page, name):
    """The cross-references (``{numref}`` links) to ``name`` in the page's running text.

    Returns ``(link text, line)`` pairs in page order, where ``line`` is the
    link's line in the HTML (to compare with the place of the figure or table);
    links inside captions do not count as the text referring to a figure.
    """
    found = []
    for link in soup(page).find_all("a", href=f"#{name}"):
        if link.find_parent(["figcaption", "caption"]) is not None:
            continue
        if link.find_parent(["p", "li"]) is None:
            continue
        found.append((clean(link.get_text()), link.sourceline))
    return found


def line_of(page, name):
    """The HTML line where the element with id ``name`` (a figure or a table) starts."""
    element = soup(page).find(id=name)
    assert element is not None, f"{page}: no element with id {name!r}"
    return element.sourceline
