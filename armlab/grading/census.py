"""The census of a submission before it runs: what nbgrader would choke on, what was
edited that nbgrader will restore.

It reads a notebook and adds rows to :class:`Problems`; it never raises on a strange
notebook, so one submission cannot stop the round.
"""

import json


class Problems:
    """The report's rows, kept sorted and unique: ``(student, problem, detail)``."""

    REVIEW = ("suspected tampering", "grading fault", "grading failed", "not a regular file")
    """Problems after which a score is held back for a human look: a fault is never a
    grade."""

    def __init__(self):
        self.rows = set()

    def add(self, student, problem, detail=""):
        self.rows.add((student, problem, detail))

    def needs_review(self, student):
        return any(r[1] in self.REVIEW for r in self.rows if r[0] == student)

    def sorted(self):
        return sorted(self.rows)


def _source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


MAX_NOTEBOOK_BYTES = 100 * 2**20


def inspect_submission(path, release_nb, student, problems):
    """Check one submitted notebook before it runs; repair what nbgrader would choke on.

    Returns False when the notebook cannot be graded (it is then removed, and
    nbgrader scores it zero). Whatever is in the file, this never raises: one
    strange notebook must not stop the batch.
    """
    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        problems.add(student, "invalid notebook",
                     f"{path.name} is larger than {MAX_NOTEBOOK_BYTES >> 20} MB: scored 0")
        path.unlink()
        return False
    found = Problems()
    try:
        ok = _inspect(path, release_nb, student, found)
    except Exception as exc:                                  # noqa: BLE001
        problems.add(student, "invalid notebook",
                     f"{path.name} has a structure nbgrader cannot read "
                     f"({type(exc).__name__}: {str(exc)[:100]}): scored 0")
        path.unlink(missing_ok=True)
        return False
    problems.rows |= found.rows
    return ok


def _inspect(path, release_nb, student, problems):
    """Read the notebook at ``path``, note in ``problems`` what nbgrader would choke on or
    will restore, and write it back ready to grade (False: it is not a notebook, and is
    removed)."""
    import nbformat

    try:
        nb = _read_notebook(path)
    except (UnicodeDecodeError, ValueError, TypeError, AttributeError) as exc:
        problems.add(student, "invalid notebook",
                     f"{path.name} is not a readable notebook ({str(exc)[:120]}): scored 0")
        path.unlink()
        return False
    for cell in nb.cells:            # outputs the student saved go (nbgrader clears them too)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    _unique_ids(nb, student, problems)
    _against_release(nb, release_nb, student, problems)
    nbformat.write(nb, str(path))
    return True


def _read_notebook(path):
    """The notebook at ``path``; ValueError (or the like) when it is not one nbgrader reads."""
    import nbformat

    raw = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict) or not isinstance(raw.get("cells"), list):
        raise ValueError("no list of cells")
    nb = nbformat.from_dict(raw)
    if nb.get("nbformat") != 4:
        raise ValueError(f"nbformat {nb.get('nbformat')}, expected 4")
    for cell in nb.cells:
        if cell.get("cell_type") not in ("code", "markdown", "raw"):
            raise ValueError(f"a cell of type {cell.get('cell_type')!r}")
    return nb


def _unique_ids(nb, student, problems):
    """nbformat's cell ids made unique: a copy's id gets ``-dup<index>``."""
    seen = {}
    for k, cell in enumerate(nb.cells):
        cid = cell.get("id")
        if cid is None:
            continue
        if cid in seen:
            new = f"{cid}-dup{k}"
            problems.add(student, "duplicated cell ids",
                         f"cell id {cid!r} appears more than once: renamed to {new!r}")
            cell["id"] = new
        seen.setdefault(cid, k)


def _against_release(nb, release_nb, student, problems):
    """The read-only and answer cells against the release the students were given: what
    was deleted, duplicated, changed in type or edited (nbgrader restores them)."""
    source_cells = {c["metadata"]["nbgrader"]["grade_id"]: c for c in release_nb["cells"]
                    if c.get("metadata", {}).get("nbgrader", {}).get("grade_id")}
    found = {}
    for cell in nb.cells:
        gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if gid:
            found.setdefault(gid, []).append(cell)
    for gid, src in source_cells.items():
        meta = src["metadata"]["nbgrader"]
        if meta.get("solution") and gid not in found:
            problems.add(student, "answer cell deleted", f"{gid}: its part cannot score")
        if not (meta.get("locked") or meta.get("grade")):
            continue
        kind = "test cell" if meta.get("grade") else "read-only cell"
        cells = found.get(gid, [])
        if not cells:
            problems.add(student, f"{kind} deleted", f"{gid}: nbgrader puts it back")
            continue
        if len(cells) > 1:
            problems.add(student, f"{kind} duplicated",
                         f"{gid} appears {len(cells)} times: nbgrader grades the last copy "
                         "and runs the others as plain cells")
        cell = cells[-1]
        if cell.cell_type != src["cell_type"]:
            problems.add(student, "cell type changed",
                         f"{gid}: {src['cell_type']} became {cell.cell_type}; nbgrader restores it")
        if _source(cell).strip() != _source(src).strip():
            problems.add(student, f"{kind} edited", f"{gid}: nbgrader restores the original")
