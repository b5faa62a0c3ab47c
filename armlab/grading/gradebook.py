"""The round's gradebook, through nbgrader's public API: made fresh, checked, exported.

Every worker of a round grades into the one gradebook (SQLite in the round's folder, or the
course's database at ``--db-url``, any SQLAlchemy URL nbgrader takes); the round checks that
it holds what the students' results say, so ``grades.csv`` and the gradebook cannot disagree.
"""

import re

from armlab.grading.release import load_config


def wait_for_locks(seconds=120):
    """Make every SQLite connection of this process wait up to ``seconds`` for another
    process's write to end (SQLite's ``busy_timeout``) instead of failing at once: the
    round's workers write one SQLite gradebook side by side."""
    import sqlite3

    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    def busy(connection, _record):
        if isinstance(connection, sqlite3.Connection):
            connection.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
    if not event.contains(Engine, "connect", busy):
        event.listen(Engine, "connect", busy)


def drop_assignment(url, assignment):
    """Remove an assignment and its submissions from the gradebook at ``url`` (nbgrader's
    ``remove_assignment``); its students and other assignments stay."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(url) as gb:
        try:
            gb.remove_assignment(assignment)
        except MissingEntry:
            pass


def check_gradebook(url, assignment, students, grades, parts):
    """Integrity of the gradebook against the round's grades; returns a list of problems
    (empty when fine)."""
    import sqlalchemy as sa
    from nbgrader.api import Gradebook

    issues = []
    if url.startswith("sqlite:///"):
        engine = sa.create_engine(url)
        with engine.connect() as conn:
            result = conn.execute(sa.text("PRAGMA integrity_check")).scalar()
            if result != "ok":
                issues.append(f"PRAGMA integrity_check: {result}")
            fk = conn.execute(sa.text("PRAGMA foreign_key_check")).fetchall()
            if fk:
                issues.append(f"foreign keys broken: {fk[:5]}")
        engine.dispose()
    n_cells = sum(len(p[2]) for p in parts)
    with Gradebook(url) as gb:
        for student in students:
            try:
                sub = gb.find_submission(assignment, student)
            except Exception:                                # noqa: BLE001
                issues.append(f"{student}: no submission in the gradebook")
                continue
            n = sum(len(nb.grades) for nb in sub.notebooks)
            if n != n_cells:
                issues.append(f"{student}: {n} grades in the gradebook, expected {n_cells}")
            if abs(sub.score - grades[student]["total"]) > 1e-9:
                issues.append(f"{student}: gradebook total {sub.score} != grades.csv "
                              f"{grades[student]['total']}")
    return issues


def export_csv(url, path, course):
    """``nbgrader export`` of the gradebook, with its timestamps blanked for repeatability."""
    from nbgrader.apps import NbGraderAPI  # noqa: F401  (loads nbgrader's plugins)
    from nbgrader.plugins import CsvExportPlugin
    from nbgrader.api import Gradebook

    cfg = load_config(course)
    plugin = CsvExportPlugin(config=cfg)
    plugin.to = str(path)
    with Gradebook(url) as gb:
        plugin.export(gb)
    text = path.read_text()
    path.write_text(re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?", "", text))
