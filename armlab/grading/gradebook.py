"""The round's gradebook, through nbgrader's public API: made fresh, checked, exported.

The round writes the workers' results (:class:`~armlab.grading.result.Result`) once into its
gradebook (SQLite in the round's folder, or ``--db-url``) and checks that it holds what the
results say, so ``grades.csv`` and the gradebook cannot disagree.
"""

import re
import warnings

from armlab.grading.release import load_config


def submission_rows(url, assignment, student):
    """What nbgrader's ``autograde`` recorded of ``student``'s submission in the gradebook at
    ``url``: ``({grade id: score}, rows)``, the rows as :func:`record` writes them elsewhere
    (``({}, {})`` when nbgrader failed before it made a submission)."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(url) as gb:
        try:
            sub = gb.find_submission(assignment, student)
        except MissingEntry:
            return {}, {}
        scores = {g.name: g.score for nb in sub.notebooks for g in nb.grades}
        rows = {"timestamp": sub.timestamp and sub.timestamp.isoformat(), "notebooks": {
            nb.name: {"late_penalty": nb.late_submission_penalty,
                      "grades": {g.name: [g.auto_score, g.needs_manual_grade] for g in nb.grades},
                      "comments": {c.name: c.auto_comment for c in nb.comments}}
            for nb in sub.notebooks}}
    return scores, rows


def record(url, assignment, students, results):
    """Write every student of the round into its gradebook at ``url``, through nbgrader's
    API: the one writer of a round's submissions. A student's
    :class:`~armlab.grading.result.Result` gives their rows (:func:`submission_rows`); a
    student without (nothing to run, or nbgrader failed before it made a submission) gets
    an empty submission, which nbgrader scores zero."""
    from nbgrader.api import Gradebook
    from nbgrader.utils import parse_utc

    with Gradebook(url) as gb, warnings.catch_warnings():
        warnings.simplefilter("ignore")       # SQLAlchemy's autoflush notes inside nbgrader
        for student in students:
            gb.update_or_create_student(student)
            rows = results[student].gradebook if student in results else {}
            stamp = {"timestamp": parse_utc(rows["timestamp"])} if rows.get("timestamp") \
                else {}
            sub = gb.update_or_create_submission(assignment, student, **stamp)
            if not rows:
                continue
            for nb in sub.notebooks:
                kept = rows["notebooks"][nb.name]
                nb.late_submission_penalty = kept["late_penalty"]
                for grade in nb.grades:
                    grade.auto_score, grade.needs_manual_grade = kept["grades"][grade.name]
                for comment in nb.comments:
                    comment.auto_comment = kept["comments"][comment.name]
            gb.db.commit()


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
