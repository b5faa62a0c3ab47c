"""Write an nbgrader source notebook from plain Python (optional authoring aid).

nbgrader reads its cell roles from metadata that is tedious to type by hand.
These helpers build the cells of an exercise set with the right metadata and
the cell ids the tests and the report use, so a chapter's set can be written
(or rewritten) by a short script and then edited in Jupyter as usual:

>>> cells = [markdown("intro", "# Exercises", locked=True),
...          answer("jacobian_answer", "def jacobian(arm, q):\\n    ### BEGIN SOLUTION\\n"
...                 "    return 0\\n    ### END SOLUTION"),
...          test("test_jacobian_worked", 1, '\"\"\"Check J\"\"\"\\ncheck_function(jacobian, '
...               '"statics.jacobian", "worked")')]
>>> [c["metadata"]["nbgrader"]["grade_id"] for c in cells]
['intro', 'jacobian_answer', 'test_jacobian_worked']

``write(path, cells)`` saves the notebook as nbformat 4.5 JSON.
"""

import json

__all__ = ["markdown", "code", "setup", "answer", "test", "write"]


def _meta(grade_id, *, grade=False, solution=False, locked=False, points=None):
    nbgrader = {"grade": grade, "grade_id": grade_id, "locked": locked,
                "schema_version": 3, "solution": solution, "task": False}
    if points is not None:
        nbgrader["points"] = points
    meta = {"nbgrader": nbgrader}
    if locked:
        meta = {"deletable": False, "editable": False, "nbgrader": nbgrader}
    return meta


def _lines(text):
    text = text.strip("\n")
    return [line + "\n" for line in text.split("\n")[:-1]] + [text.split("\n")[-1]]


def markdown(cell_id, text, locked=True):
    """A markdown cell; read-only by default (the task text of a part)."""
    return {"cell_type": "markdown", "id": cell_id,
            "metadata": _meta(cell_id, locked=True) if locked else {}, "source": _lines(text)}


def code(cell_id, text):
    """An ordinary code cell (a "try it" cell): not graded, editable."""
    return {"cell_type": "code", "execution_count": None, "id": cell_id, "metadata": {},
            "outputs": [], "source": _lines(text)}


def setup(cell_id, text):
    """The read-only first code cell that imports the checks."""
    cell = code(cell_id, text)
    cell["metadata"] = _meta(cell_id, locked=True)
    return cell


def answer(cell_id, text):
    """An answer cell: the solution between ``### BEGIN SOLUTION`` / ``### END SOLUTION``."""
    cell = code(cell_id, text)
    cell["metadata"] = _meta(cell_id, solution=True)
    return cell


def test(cell_id, points, text):
    """A read-only test cell worth ``points``; hidden parts between
    ``### BEGIN HIDDEN TESTS`` / ``### END HIDDEN TESTS``."""
    cell = code(cell_id, text)
    cell["metadata"] = _meta(cell_id, grade=True, locked=True, points=points)
    return cell


def write(path, cells):
    """Save ``cells`` as an nbformat 4.5 notebook (Python 3 kernel)."""
    nb = {"cells": cells,
          "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                      "language": "python", "name": "python3"},
                       "language_info": {"name": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
