"""Rewrite the book's MyST chapters exactly as JupyterLab (through jupytext) would save them.

A chapter that already is what jupytext writes stays unchanged when a reader
opens and saves it in JupyterLab, so a ``make lab`` clone stays clean.
``make normalize`` runs this; ``tests/test_chapters_roundtrip.py`` checks it.
"""

import json
import pathlib
import sys

import jupytext

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: What JupyterLab writes when it saves a notebook run on the venv's kernel.
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
#: What JupyterLab sets in a notebook's metadata from the kernel's info reply as soon as the
#: kernel starts: ipykernel's ``language_info`` on the venv's Python. A chapter that already
#: holds it is not marked modified on open (JupyterLab skips a metadata value equal to the one
#: present); the chapter's own ``notebook_metadata_filter`` (in its front matter, so any
#: jupytext keeps it, with or without this repository's jupytext.toml) keeps it there.
#: tests/test_chapters_roundtrip.py checks it against the running kernel's.
#: In the kernel's order, so that a save writes the same bytes whichever of the two it keeps.
LANGUAGE_INFO = {"name": "python", "version": "3.11.7", "mimetype": "text/x-python",
                 "codemirror_mode": {"name": "ipython", "version": 3},
                 "pygments_lexer": "ipython3", "nbconvert_exporter": "python",
                 "file_extension": ".py"}


def normalized(text):
    """``text`` (a MyST notebook) as jupytext writes it back, with the kernel spec and language
    info JupyterLab sets."""
    nb = jupytext.reads(text, fmt="md:myst")
    if any(cell.cell_type == "code" for cell in nb.cells):
        nb.metadata["kernelspec"] = dict(KERNELSPEC)
        nb.metadata["language_info"] = json.loads(json.dumps(LANGUAGE_INFO))
        nb.metadata.setdefault("jupytext", {})["notebook_metadata_filter"] = "language_info"
    return jupytext.writes(nb, fmt="md:myst", config=jupytext.config.load_jupytext_config(ROOT))


def chapters():
    """Every Markdown page of the book, in book/ and its chapters' folders (not JupyterLab's
    checkpoints)."""
    return sorted(p for p in (ROOT / "book").rglob("*.md") if ".ipynb_checkpoints" not in p.parts)


def main():
    changed = []
    for path in chapters():
        text = path.read_text(encoding="utf-8")
        new = normalized(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(str(path.relative_to(ROOT / "book")))
    print("normalized:", ", ".join(changed) if changed else "nothing to do")


if __name__ == "__main__":
    sys.exit(main())
