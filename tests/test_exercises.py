"""The statics exercise set round trip with the real nbgrader.

The release in exercises/ is what nbgrader generates from solutions/; the
solution scores full marks, the blank release zero (without crashing the
grader), and one seeded mistake loses exactly its part.
"""

import csv
import importlib.util
import json
import pathlib
import tempfile

import pytest

from armlab.grading import release
from armlab.grading.autograde import grade

REPO = pathlib.Path(__file__).resolve().parents[1]
HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("corpus", HERE / "submissions" / "corpus.py")
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)


def _cells(nb):
    return [(c["cell_type"], c.get("metadata", {}).get("nbgrader", {}).get("grade_id"))
            for c in nb["cells"]]


def test_solution_has_the_graded_parts():
    """At least five graded parts, several points each, a locked first cell that imports the checks."""
    nb = json.loads((REPO / "solutions/statics/statics.ipynb").read_text())
    first_code = next(c for c in nb["cells"] if c["cell_type"] == "code")
    assert first_code["metadata"]["nbgrader"]["locked"]
    assert "from armlab.grading import" in "".join(first_code["source"])
    points = {}
    for c in nb["cells"]:
        meta = c.get("metadata", {}).get("nbgrader", {})
        if meta.get("grade"):
            src = "".join(c["source"])
            assert src.startswith('"""') and src.splitlines()[0].endswith('"""')
            points[meta["grade_id"]] = meta["points"]
    assert sum(points.values()) == corpus.FULL
    assert len([p for p in corpus.POINTS.values() if p >= 3]) >= 5


@pytest.mark.slow
def test_exercises_equal_a_fresh_release():
    with tempfile.TemporaryDirectory() as tmp:
        release.generate("statics", tmp)
        fresh = pathlib.Path(tmp, "release", "statics", "statics.ipynb").read_bytes()
        db_left = list(REPO.glob("gradebook.db")) + list((REPO / "solutions").rglob("*.db"))
    assert fresh == (REPO / "exercises/statics/statics.ipynb").read_bytes(), \
        "exercises/ is stale: run `make exercises`"
    assert db_left == []


@pytest.mark.slow
def test_round_trip(tmp_path):
    export = tmp_path / "export"
    export.mkdir()
    (export / "sol_1_1_statics.ipynb").write_bytes(
        (REPO / "solutions/statics/statics.ipynb").read_bytes())
    (export / "blank_2_1_statics.ipynb").write_bytes(
        (REPO / "exercises/statics/statics.ipynb").read_bytes())
    nb = corpus.filled()
    corpus.set_answer(nb, "push_answer", "max_push_30 = 50.0  # read off the 90-degree row")
    (export / "mistake_3_1_statics.ipynb").write_text(json.dumps(nb))
    summary = grade("statics", export, out=tmp_path / "out", workers=1, timeout=20,
                    progress=False)
    with open(tmp_path / "out" / "grades.csv", newline="") as fh:
        rows = {r["student"]: r for r in csv.DictReader(fh)}
    total = f"total ({corpus.FULL})"
    assert float(rows["sol"][total]) == corpus.FULL
    assert float(rows["blank"][total]) == 0
    assert float(rows["mistake"][total]) == corpus.FULL - corpus.POINTS["part5"]
    assert float(rows["mistake"]["part5 (3)"]) == 0
    assert summary["gradebook_issues"] == []


@pytest.mark.slow
def test_grading_into_a_course_gradebook_keeps_the_rest(tmp_path):
    """--db-url (PostgreSQL in a large course; a SQLite file here): a second round
    replaces this assignment's rows and leaves other assignments and students alone."""
    from nbgrader.api import Gradebook

    url = f"sqlite:///{tmp_path / 'course.db'}"
    with Gradebook(url) as gb:
        gb.add_assignment("earlier")
        gb.add_student("zoe")
    export = tmp_path / "export"
    export.mkdir()
    nb = corpus.filled()
    (export / "ann_1_1_statics.ipynb").write_text(json.dumps(nb))
    for round_ in (1, 2):
        if round_ == 2:
            corpus.set_answer(nb, "push_answer", "max_push_30 = 50.0")
            (export / "ann_1_1_statics.ipynb").write_text(json.dumps(nb))
        summary = grade("statics", export, out=tmp_path / f"out{round_}", workers=1,
                        timeout=20, db_url=url, progress=False)
        assert summary["gradebook_issues"] == []
    with Gradebook(url) as gb:
        assert {a.name for a in gb.assignments} == {"earlier", "statics"}
        assert {s.id for s in gb.students} == {"zoe", "ann"}
        assert gb.find_submission("statics", "ann").score == corpus.FULL - corpus.POINTS["part5"]
        assert len(gb.find_assignment("statics").submissions) == 1
