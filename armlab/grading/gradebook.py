"""The gradebook: merging the workers' SQLite files, checking it, reading it, exporting it.

Every worker grades into a private SQLite copy of the master gradebook; the
round merges them into one (its own SQLite file, then the course's database
at ``--db-url`` if given), checks it, and reads the scores back from it, so
``grades.csv`` and the gradebook cannot disagree.
"""

import re

from armlab.grading.release import load_config


def merge_gradebooks(target_url, dbs, assignment, replace=True):
    """Copy the rows of the SQLite gradebooks ``dbs`` into the target gradebook.

    The first is the master (assignment, cells, students); the workers started
    from a copy of it (the same ids) and each added only its own students'
    submissions, so rows are copied table by table in dependency order,
    skipping any whose primary key is already there. With ``replace``, the
    target's earlier round of this assignment (its submissions included) is
    removed first; its other assignments and its students stay.
    """
    import sqlalchemy as sa
    from nbgrader.api import Base, Gradebook, MissingEntry

    if replace:
        with Gradebook(target_url) as gb:                     # creates the schema if needed
            try:
                gb.remove_assignment(assignment)
            except MissingEntry:
                pass
    target = sa.create_engine(target_url)
    tables = [t for t in Base.metadata.sorted_tables if t.name != "alembic_version"]
    with target.begin() as tconn:
        for db in dbs:
            source = sa.create_engine("sqlite:///" + str(db))
            with source.connect() as sconn:
                for table in tables:
                    pk = [c.name for c in table.primary_key.columns]
                    have = {tuple(r) for r in tconn.execute(sa.select(*[table.c[k] for k in pk]))}
                    rows = [dict(r._mapping) for r in sconn.execute(sa.select(table))]
                    new = [r for r in rows if tuple(r[k] for k in pk) not in have]
                    if new:
                        tconn.execute(table.insert(), new)
            source.dispose()
    target.dispose()


def check_gradebook(url, assignment, students, grades, parts):
    """Integrity of the merged gradebook; returns a list of problems (empty when fine)."""
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


def read_scores(url, assignment, students, parts, problems):
    """``{student: {part key: score, "total": score}}`` from the gradebook.

    A student the gradebook cannot give scores for is reported as a
    ``gradebook error`` and scored 0 (never silently).
    """
    from nbgrader.api import Gradebook

    grades = {}
    with Gradebook(url) as gb:
        for student in students:
            by_cell = {}
            try:
                sub = gb.find_submission(assignment, student)
                for nbk in sub.notebooks:
                    for g in nbk.grades:
                        by_cell[g.name] = g.score
            except Exception as exc:                             # noqa: BLE001
                problems.add(student, "gradebook error",
                             f"{type(exc).__name__}: {str(exc)[:150]}: scored 0")
            row = {key: sum(by_cell.get(c, 0.0) for c in cells) for key, _t, cells, _p in parts}
            row["total"] = sum(by_cell.values())
            grades[student] = row
    return grades
