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


# ================================================================== the course's gradebook
# Rows nbgrader's schema has no place for, kept beside it so that a final step can write
# every output from the database alone (the shards of one export may run on other machines).
def _armlab_tables():
    import sqlalchemy as sa

    meta = sa.MetaData()
    tables = {
        "student": sa.Table(
            "armlab_student", meta,
            sa.Column("assignment", sa.String(128), primary_key=True),
            sa.Column("student", sa.String(128), primary_key=True),
            sa.Column("lms_id", sa.String(128)), sa.Column("display", sa.String(256))),
        "problem": sa.Table(
            "armlab_problem", meta,
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("assignment", sa.String(128), index=True),
            sa.Column("student", sa.String(128)), sa.Column("problem", sa.String(128)),
            sa.Column("detail", sa.Text)),
        "feedback": sa.Table(
            "armlab_feedback", meta,
            sa.Column("assignment", sa.String(128), primary_key=True),
            sa.Column("student", sa.String(128), primary_key=True),
            sa.Column("html", sa.Text)),
    }
    return meta, tables


def _retrying(engine, work, tries=8):
    """Run ``work(conn)`` in one transaction, again if a concurrent writer made it fail
    (a unique key taken meanwhile, a deadlock, a serialization failure)."""
    import random
    import time

    import sqlalchemy as sa

    for attempt in range(tries):
        try:
            with engine.begin() as conn:
                return work(conn)
        except (sa.exc.IntegrityError, sa.exc.OperationalError, sa.exc.ProgrammingError):
            if attempt == tries - 1:
                raise
            time.sleep(0.05 * (attempt + 1) * (1 + random.random()))


def ensure_schema(url):
    """nbgrader's tables (stamped for its migrations) and armlab's, created if missing;
    safe when several shards start at once."""
    import sqlalchemy as sa
    from nbgrader.api import Gradebook

    engine = sa.create_engine(url)
    try:
        meta, _ = _armlab_tables()

        def create(conn):
            if not sa.inspect(conn).has_table("assignment"):
                with Gradebook(url):
                    pass
            meta.create_all(conn, checkfirst=True)
        _retrying(engine, create)
    finally:
        engine.dispose()


def _rows(conn, table, **where):
    import sqlalchemy as sa

    query = sa.select(table)
    for key, value in where.items():
        column = table.c[key]
        query = query.where(column.in_(value) if isinstance(value, (list, set, tuple))
                            else column == value)
    return [dict(r._mapping) for r in conn.execute(query)]


def _structure(conn, local, assignment):
    """Make sure the assignment, its notebooks and cells exist in the target; return the
    map from the local round's ids to the target's (matched by name)."""
    from nbgrader.api import Base

    t = Base.metadata.tables
    ids = {}
    for row in _rows(local, t["course"]):
        if not _rows(conn, t["course"], id=row["id"]):
            conn.execute(t["course"].insert(), [row])
    a_local = _rows(local, t["assignment"], name=assignment)[0]
    found = _rows(conn, t["assignment"], name=assignment)
    if not found:
        conn.execute(t["assignment"].insert(), [a_local])
        found = [a_local]
    ids[a_local["id"]] = found[0]["id"]
    for nb in _rows(local, t["notebook"], assignment_id=a_local["id"]):
        have = _rows(conn, t["notebook"], name=nb["name"], assignment_id=ids[a_local["id"]])
        if not have:
            conn.execute(t["notebook"].insert(), [dict(nb, assignment_id=ids[a_local["id"]])])
            have = [nb]
        ids[nb["id"]] = have[0]["id"]
        target_nb = ids[nb["id"]]
        for cell in _rows(local, t["base_cell"], notebook_id=nb["id"]):
            have = _rows(conn, t["base_cell"], name=cell["name"], notebook_id=target_nb,
                         type=cell["type"])
            if have:
                ids[cell["id"]] = have[0]["id"]
                continue
            conn.execute(t["base_cell"].insert(), [dict(cell, notebook_id=target_nb)])
            ids[cell["id"]] = cell["id"]
            for sub in ("grade_cells", "solution_cells", "task_cells"):
                rows = _rows(local, t[sub], id=cell["id"])
                if rows:
                    conn.execute(t[sub].insert(), rows)
        for cell in _rows(local, t["source_cell"], notebook_id=nb["id"]):
            if not _rows(conn, t["source_cell"], name=cell["name"], notebook_id=target_nb):
                conn.execute(t["source_cell"].insert(), [dict(cell, notebook_id=target_nb)])
    return ids


def _remove_assignment(conn, assignment):
    """Delete an assignment and everything of it (submissions, cells, armlab's rows)."""
    from nbgrader.api import Base

    t = Base.metadata.tables
    _, mine = _armlab_tables()
    for table in mine.values():
        conn.execute(table.delete().where(table.c.assignment == assignment))
    found = _rows(conn, t["assignment"], name=assignment)
    if not found:
        return
    aid = found[0]["id"]
    subs = [r["id"] for r in _rows(conn, t["submitted_assignment"], assignment_id=aid)]
    _delete_submissions(conn, subs)
    nbs = [r["id"] for r in _rows(conn, t["notebook"], assignment_id=aid)]
    cells = [r["id"] for r in _rows(conn, t["base_cell"], notebook_id=nbs)]
    for sub in ("grade_cells", "solution_cells", "task_cells"):
        conn.execute(t[sub].delete().where(t[sub].c.id.in_(cells)))
    conn.execute(t["base_cell"].delete().where(t["base_cell"].c.id.in_(cells)))
    conn.execute(t["source_cell"].delete().where(t["source_cell"].c.notebook_id.in_(nbs)))
    conn.execute(t["notebook"].delete().where(t["notebook"].c.id.in_(nbs)))
    conn.execute(t["assignment"].delete().where(t["assignment"].c.id == aid))


def _delete_submissions(conn, submission_ids):
    from nbgrader.api import Base

    t = Base.metadata.tables
    nbs = [r["id"] for r in _rows(conn, t["submitted_notebook"], assignment_id=submission_ids)]
    for name in ("grade", "comment"):
        conn.execute(t[name].delete().where(t[name].c.notebook_id.in_(nbs)))
    conn.execute(t["submitted_notebook"].delete().where(t["submitted_notebook"].c.id.in_(nbs)))
    conn.execute(t["submitted_assignment"].delete()
                 .where(t["submitted_assignment"].c.id.in_(submission_ids)))


def sync_round(url, local_db, assignment, students, info, problems, feedback, fresh=False):
    """Write one round's students into the course gradebook at ``url``.

    With ``fresh`` (a whole round), this assignment's earlier rows go first. Each
    student is then one transaction: their earlier submission of this assignment
    (if any) is deleted and this round's inserted, with armlab's rows (LMS id,
    problems, feedback page). A shard killed halfway and run again, or two shards
    that overlap, leave one submission per student. Returns the seconds spent in
    the database per student.
    """
    import time

    import sqlalchemy as sa
    from nbgrader.api import Base

    t = Base.metadata.tables
    _, mine = _armlab_tables()
    ensure_schema(url)
    engine = sa.create_engine(url)
    local_engine = sa.create_engine("sqlite:///" + str(local_db))
    spent = {}
    try:
        with local_engine.connect() as local:
            if fresh:
                _retrying(engine, lambda conn: _remove_assignment(conn, assignment))
            ids = _retrying(engine, lambda conn: _structure(conn, local, assignment))
            a_local = _rows(local, t["assignment"], name=assignment)[0]["id"]
            shared = [r for r in problems.sorted() if r[0] not in students]
            for student in [None] + list(students):
                t0 = time.perf_counter()

                def write(conn, student=student):
                    who = [r[0] for r in shared] if student is None else [student]
                    rows = shared if student is None else problems.for_student(student)
                    conn.execute(mine["problem"].delete().where(
                        (mine["problem"].c.assignment == assignment)
                        & mine["problem"].c.student.in_(sorted(set(who)))))
                    if rows:
                        conn.execute(mine["problem"].insert(), [
                            {"assignment": assignment, "student": s, "problem": p, "detail": d}
                            for s, p, d in rows])
                    if student is None:
                        return
                    _write_student(conn, local, t, mine, ids, a_local, assignment, student,
                                   info.get(student, ("", student)), feedback.get(student))
                _retrying(engine, write)
                if student is not None:
                    spent[student] = time.perf_counter() - t0
    finally:
        local_engine.dispose()
        engine.dispose()
    return spent


def _write_student(conn, local, t, mine, ids, a_local, assignment, student, info, page):
    if not _rows(conn, t["student"], id=student):
        conn.execute(t["student"].insert(), _rows(local, t["student"], id=student)
                     or [{"id": student}])
    target_a = ids[a_local]
    old = [r["id"] for r in _rows(conn, t["submitted_assignment"], assignment_id=target_a,
                                  student_id=student)]
    _delete_submissions(conn, old)
    for sub in _rows(local, t["submitted_assignment"], assignment_id=a_local, student_id=student):
        conn.execute(t["submitted_assignment"].insert(), [dict(sub, assignment_id=target_a)])
        nbs = _rows(local, t["submitted_notebook"], assignment_id=sub["id"])
        for nb in nbs:
            conn.execute(t["submitted_notebook"].insert(),
                         [dict(nb, notebook_id=ids[nb["notebook_id"]])])
        for name in ("grade", "comment"):
            rows = _rows(local, t[name], notebook_id=[nb["id"] for nb in nbs])
            if rows:
                conn.execute(t[name].insert(), [dict(r, cell_id=ids[r["cell_id"]]) for r in rows])
    for table in ("student", "feedback"):
        conn.execute(mine[table].delete().where((mine[table].c.assignment == assignment)
                                                & (mine[table].c.student == student)))
    lms_id, display = info
    conn.execute(mine["student"].insert(), [{"assignment": assignment, "student": student,
                                             "lms_id": lms_id, "display": display}])
    if page is not None:
        conn.execute(mine["feedback"].insert(), [{"assignment": assignment, "student": student,
                                                  "html": page}])


def read_round(url, assignment):
    """What the course gradebook holds of an assignment's round: ``(students, info,
    problems rows, feedback pages)``, for the final step."""
    import sqlalchemy as sa

    _, mine = _armlab_tables()
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            if not sa.inspect(conn).has_table("armlab_student"):
                return [], {}, [], {}
            people = _rows(conn, mine["student"], assignment=assignment)
            problems = _rows(conn, mine["problem"], assignment=assignment)
            pages = _rows(conn, mine["feedback"], assignment=assignment)
    finally:
        engine.dispose()
    info = {r["student"]: (r["lms_id"], r["display"]) for r in people}
    return (sorted(info), info, [(r["student"], r["problem"], r["detail"]) for r in problems],
            {r["student"]: r["html"] for r in pages})
