"""Rewrite the book's MyST chapters exactly as JupyterLab (through jupytext) would save them.

A chapter that already is what jupytext writes stays unchanged when a reader
opens and saves it in JupyterLab, so a ``make lab`` clone stays clean.
``make normalize`` runs this; ``tests/test_chapters_roundtrip.py`` checks it.
"""

import pathlib
import sys

import jupytext

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: What JupyterLab writes when it saves a notebook run on the venv's kernel.
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def normalized(text):
    """``text`` (a MyST notebook) as jupytext writes it back, with JupyterLab's kernel spec."""
    nb = jupytext.reads(text, fmt="md:myst")
    if any(cell.cell_type == "code" for cell in nb.cells):
        nb.metadata["kernelspec"] = dict(KERNELSPEC)
    return jupytext.writes(nb, fmt="md:myst", config=jupytext.config.load_jupytext_config(ROOT))


def chapters():
    """Every Markdown page of the book, a chapter's further pages (book/<chapter>/) included."""
    return sorted(p for p in (ROOT / "book").rglob("*.md") if ".ipynb_checkpoints" not in p.parts)


def main():
    changed = []
    for path in chapters():
        text = path.read_text(encoding="utf-8")
        new = normalized(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path.name)
    print("normalized:", ", ".join(changed) if changed else "nothing to do")


if __name__ == "__main__":
    sys.exit(main())
