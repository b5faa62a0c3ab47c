"""Code a page shows must run as shown: no name that only a removed cell defines.

A cell tagged ``remove-input`` or ``remove-cell`` is not in the built page, so a name
it defines is invisible to a reader who copies the shown code; a folded cell (``hide-input``) is
in the page, behind "Show code cell source", and counts as shown.
"""

import ast
import builtins

import jupytext

from _bookbuild import ROOT


def names_from_removed_cells(page):
    """``{name: cell index}`` of names that a shown code cell of ``page`` (``"book/gravity"``)
    uses although only a removed cell defines them."""
    nb = jupytext.read(ROOT / f"{page}.md", fmt="md:myst")
    shown, removed_only, found = set(dir(builtins)), set(), {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        tree = ast.parse("\n".join(line for line in cell.source.splitlines()
                                   if not line.startswith("%")))
        stored = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                stored.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                stored.add(node.name)
            elif isinstance(node, ast.arg):
                stored.add(node.arg)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                stored.update((a.asname or a.name).split(".")[0] for a in node.names)
        if {"remove-input", "remove-cell"} & set(cell.metadata.get("tags", [])):
            removed_only |= stored - shown
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
                    and node.id in removed_only and node.id not in shown | stored):
                found.setdefault(node.id, i)
        shown |= stored
        removed_only -= stored
    return found
