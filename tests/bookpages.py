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


def headings(page, tag="h2"):
    """The page's headings of one level, in order, as a reader reads them without the
    section numbers of the numbered chapters ("2.5. ") and the anchor sign."""
    found = []
    for h in soup(page).find_all(tag):
        h = BeautifulSoup(str(h), "html.parser")
        for junk in h.find_all(["span", "a"], class_=["section-number", "headerlink"]):
            junk.decompose()
        found.append(clean(h.get_text(" ")))
    return found


def figure_numbers(page):
    """``{figure name: "Fig. c.k"}`` for the page's numbered figures (by their anchor id;
    c is the chapter's number)."""
    numbers = {}
    for fig in soup(page).find_all("figure"):
        number = fig.find("span", class_="caption-number")
        if fig.get("id") and number is not None:
            numbers[fig["id"]] = clean(number.get_text()).rstrip()
    return numbers


def table_numbers(page):
    """``{table name: "Table c.k"}`` for the page's numbered tables (by their anchor id)."""
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


# ------------------------------------------------------------------ what every chapter page has
def assert_numbered_and_referred_to(page, names, *, before=True):
    """The page's numbered figures and tables are exactly ``names``; each has a ``{numref}``
    link in the running text that shows its number, and (``before``) one at or before the
    place where it appears."""
    numbered = {**figure_numbers(page), **table_numbers(page)}
    assert set(numbered) == set(names), sorted(numbered)
    for name, number in numbered.items():
        refs = references(page, name)
        assert refs, f"{name} ({number}) is never referred to in the text"
        assert all(text == number for text, _ in refs), (name, number, refs)
        if before:
            assert refs[0][1] <= line_of(page, name), f"{name} is referred to only after it"


def assert_figures_described(page, count):
    """The page has ``count`` figures, each an image whose alt text describes it (a screen
    reader gets a description, not a file name), or a lab's 3-D view whose label does."""
    figures = soup(page).find_all("figure")
    assert len(figures) == count, f"{page}: {len(figures)} figures, expected {count}"
    for fig in figures:
        img = fig.find("img")
        view = fig.find("div", class_="armlab-view3d")
        text = img.get("alt", "") if img is not None else view.get("aria-label", "") if view else ""
        assert len(text) > 40, fig.get("id")


def assert_lab_view_before_live_cell(page, *names,
                                     intro="This page was built without a running kernel"):
    """The lab's still view (the figure and table ``names``, in order) is introduced (by the
    block containing ``intro``) as what the static page shows and comes first; the live cell
    follows it as the same view come alive."""
    intro = block(page, intro)
    live = block(page, "the same view comes alive")
    lines = [intro.sourceline] + [line_of(page, name) for name in names] + [live.sourceline]
    assert lines == sorted(lines) and len(set(lines)) == len(lines), lines


def assert_exercise_section(page, chapter):
    """The chapter's exercise section links its notebook on GitHub and on Binder, and lists
    the notebook's parts with their points, after saying how many there are and their total
    ("Its six parts (22 points)")."""
    from exercise_sets import ExerciseSet

    links = [a["href"] for a in soup(page).find_all("a", href=True)]
    notebook = f"exercises/{chapter}/{chapter}.ipynb"
    assert f"https://github.com/armlab-book/armlab/blob/main/{notebook}" in links, notebook
    assert f"https://mybinder.org/v2/gh/armlab-book/armlab/main?urlpath=lab/tree/{notebook}" \
        in links, f"no Binder link to {notebook}"
    section = soup(page).find(id="exercises")
    items = section.find("ol").find_all("li", recursive=False)
    listed = [float(re.search(r"\((\d+) points?\)", li.get_text(" ")).group(1)) for li in items]
    parts = ExerciseSet(chapter).parts()
    assert listed == [part["points"] for part in parts.values()], (listed, chapter)
    count = "one two three four five six seven eight nine ten eleven twelve".split()[len(parts) - 1]
    total = sum(part["points"] for part in parts.values())
    assert f"{count} parts ({total:.0f} points)" in clean(section.get_text(" "))


def page_with(pages, anchor):
    """The one page of ``pages`` (a chapter's pages) with a block that contains ``anchor``."""
    found = [p for p in pages
             if any(anchor in clean(b.get_text(" ")) for b in soup(p).find_all(BLOCKS))]
    assert len(found) == 1, f"{len(found)} of {pages} contain {anchor!r}"
    return found[0]


def evals_in(pages, anchor):
    """:func:`evals` on whichever of a chapter's pages holds ``anchor``."""
    return evals(page_with(pages, anchor), anchor)


def table_in(pages, caption):
    """:func:`table` on whichever of a chapter's pages holds the table captioned ``caption``."""
    found = [p for p in pages if any(t.caption is not None and caption in clean(t.caption.get_text(" "))
                                     for t in soup(p).find_all("table"))]
    assert len(found) == 1, f"{len(found)} of {pages} hold a table captioned {caption!r}"
    return table(found[0], caption)


#: The most words a built page may have: a page a reader finishes in a sitting.
PAGE_WORDS = 9000


def word_count(page):
    """The words of a built page's main text (prose, code, tables and captions), as a reader
    scrolls through them; the scripts and styles excluded."""
    article = BeautifulSoup(str(soup(page)), "html.parser")
    for junk in article.find_all(["script", "style"]):
        junk.decompose()
    return len(article.get_text(" ").split())
