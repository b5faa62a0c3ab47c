"""The whole book's prose, read from the chapters' sources: what no single chapter's test sees.

* No number is typed by hand where the chapter computes it. Every decimal number and
  every percentage in the running text, the tables and the figure captions (outside
  code, math and ``{eval}`` roles) must be one of the few settings listed in
  ``ALLOWED``, each with the reason it may stay typed. A worked value, a seed's
  number or a ratio written by hand fails here: compute it and show it with
  ``armlab.prose.fmt`` and ``{eval}``.
* Every chapter's exercise list names the notebook's parts with the notebook's
  points, and its total.
* Every numbered figure and table is referred to in the text.

Fast: reads ``book/*.md`` with jupytext; no build.
"""

import pathlib
import re

import jupytext
import pytest
from _bookbuild import chapter_pages, chapters_with_exercises, toc_chapters
from shown_code import names_from_removed_cells

from exercise_sets import ExerciseSet

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
PAGES = sorted(p.relative_to(BOOK).with_suffix("").as_posix() for p in BOOK.rglob("*.md")
               if ".ipynb_checkpoints" not in p.parts)

#: Decimals that may stay typed: (page, number, the unit that follows it) -> why.
#: Keep it short. An entry no page uses any more fails the test too.
ALLOWED = {
    ("intro", "3.11", ""): "the Python version, not a result",
    ("instructors", "0.6", ""): "a grader's message quoted as an example",
    ("instructors", "0.3", ""): "a grader's message quoted as an example",
    ("instructors", "1.0", ""): "a grader's message quoted as an example",
    ("instructors", "3.11", ""): "the Python version the Gradescope image installs (runtime.txt)",
    ("kinematics", "0.5", "s"): "the drawing scale of the velocity arrows",
    ("kinematics", "0.1", "m/s"): "the chapter's wanted tip speed, its stated setting",
    ("statics", "1.5", "cm per N"): "the drawing scale of the force arrow",
    ("spatial_statics", "0.5", "cm per N"): "the drawing scale of the force arrow",
    ("statics", "0.5", "N m"): "the chapter's torque uncertainty, ±0.5 N m, its stated setting",
    ("inverse_dynamics", "0.5", "kg"): "the smallest link-2 mass of the sweep and the lab",
    ("inverse_dynamics", "0.5", ""): "the smallest link-2 mass of the sweep (a list of masses)",
    ("forward_dynamics", "0.1", "ms"): "the book's plant step, the setting the chapter tests",
    ("forward_dynamics", "0.01", "ms"): "the ten times finer plant step the chapter compares",
    ("forward_dynamics", "0.05", "ms"): "the half plant step the settings table compares",
    ("forward_dynamics", "0.25", "s"): "the length of the fall, the problem's setting",
    ("forward_dynamics", "0.15", "s"): "the fall's intermediate time, the problem's setting",
    ("forward_dynamics", "2.5", "s"): "the length of the thousand falls",
    ("forward_dynamics", "0.01", "°"): "the window of the thousand starts",
    ("forward_dynamics", "0.1", "°"): "a threshold of disagreement, a setting",
    ("forward_dynamics", "0.3", "m"): "the links of the chains in the solve study, a setting",
    ("limits", "1.5", "N m"): "Example 2's torque limit, its stated setting",
    ("limits", "1.5", ""): "the elbow motor of the weak set, (6, 1.5) N m, a setting",
    ("limits", "0.15", "N m"): "the assumed motor's rated torque, its data sheet",
    ("control", "0.1", "°"): "the contour lines drawn on the gain maps",
    ("control", "0.012", ""): "an ungraded question's model frictions to try",
    ("control", "0.028", "N m s/rad"): "an ungraded question's model frictions to try",
}

NUMBER = re.compile(r"(?<![\w.])[-−±]?(\d+\.\d+|\d+(?=\s?%))(\s?%)?")
UNIT = re.compile(r"\s?(N m s/rad|N m/rad|N m|m/s²|m/s|rad/s²|rad/s|kg m²|kg|kHz|Hz|ms|"
                  r"cm per N|cm|mm|m|s|°|W|J|g|N|rad|deg)(?![\w/²])")


def cells(page):
    """The page's notebook cells, read as JupyterLab reads them."""
    return jupytext.read(BOOK / f"{page}.md", fmt="md:myst").cells


def prose(page):
    """(where, text) of every Markdown cell and every figure caption of a page."""
    for i, cell in enumerate(cells(page)):
        if cell.cell_type == "markdown":
            yield f"cell {i}", cell.source
        else:
            caption = cell.metadata.get("mystnb", {}).get("figure", {}).get("caption")
            if caption:
                yield f"caption of cell {i}", caption


def words(text):
    """The text a reader reads as words: code, math, roles, labels and targets removed."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)              # code blocks
    text = re.sub(r"^:::(\{\w+\})?|^:\w+:.*$", " ", text, flags=re.M)   # directives; captions stay
    text = re.sub(r"\$\$.*?\$\$(\s*\([\w-]+\))?", " ", text, flags=re.S)   # display math
    text = re.sub(r"\{[\w:-]+\}`[^`]*`", " ", text)                 # roles: eval, numref ...
    text = re.sub(r"`[^`]*`", " ", text)                            # inline code
    text = re.sub(r"(?<![*\w])\*[^*]+\*(?![*\w])", " ", text)         # lab presets, in italics
    text = re.sub(r"\$[^$]*\$", " ", text)                          # inline math
    text = re.sub(r"\]\([^)]*\)", "]", text)                        # link targets
    text = re.sub(r"^\([\w-]+\)=\s*$", " ", text, flags=re.M)       # labels
    return text


def typed_numbers(page):
    """(where, number, unit, context) of each decimal or percentage typed in the prose."""
    for where, text in prose(page):
        plain = words(text)
        for m in NUMBER.finditer(plain):
            number = m.group(1)
            after = UNIT.match(plain, m.end())
            unit = "%" if m.group(2) else (after.group(1) if after else "")
            context = " ".join(plain[max(0, m.start() - 50):m.end() + 30].split())
            yield where, number, unit, context


def allowed(page, number, unit):
    """Listed in ALLOWED: the same chapter (any of its pages), number and unit ("" for a bare
    number)."""
    return (page.split("/")[0], number, unit) in ALLOWED


@pytest.mark.parametrize("page", PAGES)
def test_no_typed_numbers(page):
    """Decimals and percentages in the prose are computed ({eval}), or listed settings"""
    typed = [f"{where}: {number} {unit!r} in '{context}'"
             for where, number, unit, context in typed_numbers(page)
             if not allowed(page, number, unit)]
    assert not typed, "typed by hand, compute them:\n" + "\n".join(typed)


def test_allowlist_is_used():
    """Every allowed typed number still occurs (a stale entry hides a future mistake)"""
    found = {(page.split("/")[0], number, unit) for page in PAGES
             for _, number, unit, _ in typed_numbers(page)}
    stale = [key for key in ALLOWED if key not in found]
    assert not stale, stale


def test_scanner_finds_a_typed_number():
    """The scanner sees a decimal in prose and a percentage, and nothing inside eval or math"""
    text = "It needs 7.25 N m, about 40 % of it; {eval}`x` and $0.5$ and `1.5` are not prose."
    found = [m.group(1) for m in NUMBER.finditer(words(text))]
    assert found == ["7.25", "40"]


# ------------------------------------------------------------------ exercises
COUNT = {"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
         "eleven": 11}


def exercise_section(page):
    """The exercise list of a chapter, from whichever of its pages holds it."""
    text = "\n".join(c.source for part in chapter_pages(page) for c in cells(part.split("/", 1)[1])
                     if c.cell_type == "markdown")
    section = text.split("## Exercises", 1)[1]
    return " ".join(section.split("Ungraded", 1)[0].split())


@pytest.mark.parametrize("page", chapters_with_exercises())
def test_exercise_list_matches_the_notebook(page):
    """'Its six parts (27 points)' and each part's points are the notebook's"""
    parts = ExerciseSet(page).parts()
    section = exercise_section(page)
    intro = re.search(r"Its (\w+) parts \((\d+) points\)", section)
    assert intro, f"{page}: no 'Its N parts (T points)' sentence"
    assert COUNT[intro.group(1)] == len(parts)
    assert float(intro.group(2)) == sum(p["points"] for p in parts.values())
    listed = [float(x) for x in re.findall(r"\((\d+) points?\);?\.?(?= \d+\. | Each|$)",
                                           section)]
    assert listed == [p["points"] for p in parts.values()]


# ------------------------------------------------------------------ references
@pytest.mark.parametrize("page", PAGES)
def test_every_figure_and_table_is_referred_to(page):
    """Each named figure and table has a {numref} in the page's text"""
    text = "\n".join(c.source for c in cells(page) if c.cell_type == "markdown")
    names = [c.metadata.get("mystnb", {}).get("figure", {}).get("name") for c in cells(page)]
    names += re.findall(r"^:name: (\S+)", text, flags=re.M)
    missing = [n for n in names if n and f"{{numref}}`{n}`" not in text]
    assert not missing, missing


@pytest.mark.parametrize("page", PAGES)
def test_links_to_chapters_are_markdown_links(page):
    """Cross-links use [text](chapter.md), which works in the book and in JupyterLab; a link
    from a chapter's further page goes up a folder (../chapter.md)"""
    text = "\n".join(c.source for c in cells(page) if c.cell_type == "markdown")
    assert "{doc}" not in text
    for target in re.findall(r"\]\(((?:\.\./)?[\w/]+\.md)(?:#[\w-]+)?\)", text):
        assert (BOOK / page).parent.joinpath(target).exists(), target


# ------------------------------------------------------------------ shown code runs as shown
@pytest.mark.parametrize("page", [page for chapter in toc_chapters()
                                  for page in chapter_pages(chapter)])
def test_shown_code_uses_no_name_from_a_removed_cell(page):
    """Code shown on the page runs as shown: it reads no name that only a removed cell defines
    (such cells are folded with hide-input, or the shown code defines what it uses)"""
    assert names_from_removed_cells(page) == {}
