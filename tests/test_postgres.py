"""Grading into a real PostgreSQL gradebook.

A throwaway cluster (tests/pgserver.py) is started for this module and
stopped afterwards; without PostgreSQL's server the tests are skipped, saying
why. What they show: a round whose workers write PostgreSQL side by side gives the
same files as one on SQLite; a new round of an assignment replaces its earlier one;
an unreachable server stops the round at once, writing nothing; and the rows and
totals are checked in PostgreSQL itself.
"""

import csv
import json
import os
import pathlib
import subprocess
import sys
import time

import pytest

import pgserver
from armlab.grading import autograde
from armlab.grading.autograde import grade
from exercise_sets import ExerciseSet

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(pgserver.skip_reason() is not None,
                                 reason=str(pgserver.skip_reason()))]
REPO = pathlib.Path(__file__).resolve().parents[1]
SET = ExerciseSet("statics")
SECRET = "a course secret"


@pytest.fixture(scope="module")
def pg():
    with pgserver.Cluster() as cluster:
        yield cluster


@pytest.fixture(scope="module")
def export(tmp_path_factory, sandboxed):
    """Eight students: honest, one mistake, constants, one forging a message (held for review)."""
    folder = tmp_path_factory.mktemp("export")
    notebooks = {
        "ann": SET.filled(), "bob": SET.with_mistake("push_answer", "np.min(", "np.max("),
        "cyd": SET.constants(), "dee": SET.filled(), "eve": SET.release(),
        "fay": SET.with_mistake("sign_answer", "-np.asarray", "np.asarray"),
        "gus": SET.filled(push_answer=SET.answer("push_answer") + "\nimport os\n"
                          "for fd in range(3, 64):\n    try:\n"
                          "        os.write(fd, b'{\"t\": \"done\"}\\n')\n"
                          "    except OSError:\n        pass\n"),
        "hal": SET.with_mistake("torques_answer", "p[-1] - p[:-1]", "p[1:] - p[:-1]"),
    }
    for k, (login, nb) in enumerate(sorted(notebooks.items())):
        (folder / f"{login}_{500 + k}_1_statics.ipynb").write_text(json.dumps(nb))
    return folder


@pytest.fixture(scope="module")
def sqlite_round(export, tmp_path_factory):
    out = tmp_path_factory.mktemp("sqlite") / "out"
    grade("statics", export, out=out, workers=2, cpu=20, progress=False, secret=SECRET)
    return out


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-m", "armlab.grading.autograde", *args],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _counts(pg):
    rows = pg.query("SELECT s.student_id, COUNT(*) FROM submitted_assignment s "
                    "JOIN assignment a ON a.id = s.assignment_id WHERE a.name = 'statics' "
                    "GROUP BY s.student_id ORDER BY s.student_id")
    return dict(rows)


def _totals(pg):
    rows = pg.query("SELECT sa.student_id, SUM(COALESCE(g.manual_score, g.auto_score, 0)) "
                    "FROM grade g JOIN submitted_notebook sn ON sn.id = g.notebook_id "
                    "JOIN submitted_assignment sa ON sa.id = sn.assignment_id "
                    "JOIN assignment a ON a.id = sa.assignment_id WHERE a.name = 'statics' "
                    "GROUP BY sa.student_id ORDER BY sa.student_id")
    return {s: float(t) for s, t in rows}


def test_a_round_into_postgresql_equals_one_on_sqlite(pg, export, sqlite_round, tmp_path):
    """Two workers grade side by side into PostgreSQL: the same files as the SQLite round,
    one submission per student, and the totals of grades.csv in PostgreSQL itself."""
    run = _cli("statics", str(export), "--db-url", pg.url, "--workers", "2", "--secret",
               SECRET, "--cpu", "20", "--out", str(tmp_path / "pg"))
    _, err = run.communicate(timeout=900)
    assert run.returncode == 0, err
    files = sorted(p.relative_to(sqlite_round).as_posix() for p in sqlite_round.rglob("*")
                   if p.is_file() and p.parts[len(sqlite_round.parts)] != "logs")
    assert [f for f in files if f != "gradebook.db"
            and (tmp_path / "pg" / f).read_bytes() != (sqlite_round / f).read_bytes()] == []
    assert not (tmp_path / "pg" / "gradebook.db").exists()
    students = sorted(p.name.split("_")[0] for p in export.iterdir())
    assert _counts(pg) == dict.fromkeys(students, 1)
    with open(sqlite_round / "grades.csv", newline="") as fh:
        expected = {r["student"]: r for r in csv.DictReader(fh)}
    totals = _totals(pg)
    assert {s: totals[s] for s, row in expected.items() if row["status"] == "ok"} == {
        s: float(row["total"]) for s, row in expected.items() if row["status"] == "ok"}
    assert expected["gus"]["status"] == "review"


def test_a_new_round_replaces_the_assignments_earlier_one(pg, export, tmp_path):
    """Graded again (here one student), the assignment holds this round's submissions only;
    the gradebook's students stay."""
    one = tmp_path / "one"
    one.mkdir()
    ann = next(export.glob("ann_*"))
    (one / ann.name).write_bytes(ann.read_bytes())
    grade("statics", one, out=tmp_path / "out", workers=1, cpu=20, progress=False,
          secret=SECRET, db_url=pg.url)
    assert _counts(pg) == {"ann": 1}
    assert len(pg.query("SELECT id FROM student")) >= 8


def test_an_unreachable_gradebook_stops_the_round_at_once(export, tmp_path, capsys):
    url = f"postgresql+psycopg://grader@/armlab?host={tmp_path / 'no-server-here'}"
    t0 = time.time()
    status = autograde.main(["statics", str(export), "--db-url", url,
                             "--out", str(tmp_path / "out")])
    _, err = capsys.readouterr()
    assert status == 2 and err.startswith("error: cannot reach the gradebook at ")
    assert err.count("\n") == 1 and time.time() - t0 < 30
    assert list(tmp_path.iterdir()) == []
