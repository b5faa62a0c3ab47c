"""Regular files only: a link, FIFO or device where a submitted file is expected is
refused and reported (a row held for review), never followed nor read.

The LMS export as a folder and as a zip, graded by ``make grade``'s collect step; the
Gradescope layout is in tests/test_gradescope.py. Each collect runs in a child process
with a time limit and a 64 MiB cap on the files it writes, so a FIFO that would block a
reader forever or a device that never ends fails the test instead of hanging it.
"""

import json
import os
import pathlib
import stat
import subprocess
import sys
import zipfile

import pytest

from armlab.grading import safefiles
from armlab.grading.census import Problems
from exercise_sets import ExerciseSet

REPO = pathlib.Path(__file__).resolve().parents[1]
KEY = REPO / "solutions" / "statics" / "statics.ipynb"       # the answer key
SET = ExerciseSet("statics")
FILE = "_assignsubmission_file_"                               # Moodle's export names

COLLECT = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))
from armlab.grading import autograde
r = autograde.Round("statics", sys.argv[1], out=sys.argv[2], lms="moodle", progress=False,
                    isolate=False)
autograde.check_inputs(r)
autograde.stage(r)
problems = autograde.Problems()
students = autograde.collect(r, problems).students
submitted = {s: (r.master / "submitted" / s / "statics" / "statics.ipynb").read_text()
             for s in students
             if (r.master / "submitted" / s / "statics" / "statics.ipynb").exists()}
print(json.dumps({"students": students, "rows": problems.sorted(),
                  "review": [s for s in students if problems.needs_review(s)],
                  "submitted": submitted}))
"""


def _collect(export, tmp_path):
    """``check_inputs``, ``stage`` and ``collect`` of a Moodle round on ``export``, in a child
    process: what it found (students, report rows, who is held, the notebooks it kept)."""
    proc = subprocess.run([sys.executable, "-c", COLLECT, str(export), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.splitlines()[-1])


def _device(path):
    """A character device like /dev/zero at ``path`` (as root), else a link to /dev/zero."""
    if os.geteuid() == 0:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 5))
        return "a character device"
    os.symlink("/dev/zero", path)
    return "a symbolic link"


def test_a_folder_export_refuses_links_fifos_and_devices(tmp_path):
    export = tmp_path / "export"
    export.mkdir()
    honest = json.dumps(SET.filled())
    (export / f"Ann Lee_104211{FILE}statics.ipynb").write_text(honest)
    os.symlink(KEY, export / f"Bob Ray_104212{FILE}statics.ipynb")
    os.mkfifo(export / f"Cat Ng_104213{FILE}statics.ipynb")
    os.symlink("/dev/zero", export / f"Dan Oh_104214{FILE}statics.ipynb")
    device = _device(export / f"Eve Kim_104215{FILE}statics.ipynb")
    elsewhere = tmp_path / "elsewhere"               # a folder of the student's, linked
    elsewhere.mkdir()
    os.symlink(KEY, elsewhere / "statics.ipynb")
    os.symlink(elsewhere, export / f"Fay Lu_104216{FILE}")
    nested = export / f"Gus Po_104217{FILE}"          # a real folder holding a link
    nested.mkdir()
    os.symlink(KEY, nested / "statics.ipynb")
    found = _collect(export, tmp_path)
    held = ["bob-ray", "cat-ng", "dan-oh", "eve-kim", "fay-lu", "gus-po"]
    assert found["students"] == ["ann-lee"] + held
    assert found["review"] == held
    assert found["submitted"] == {"ann-lee": honest}
    refused = [row for row in found["rows"] if row[1] == "not a regular file"]
    assert refused == [
        ["bob-ray", "not a regular file", f"Bob Ray_104212{FILE}statics.ipynb is a symbolic "
         "link: refused, not followed nor read"],
        ["cat-ng", "not a regular file", f"Cat Ng_104213{FILE}statics.ipynb is a FIFO (named "
         "pipe): refused, not followed nor read"],
        ["dan-oh", "not a regular file", f"Dan Oh_104214{FILE}statics.ipynb is a symbolic "
         "link: refused, not followed nor read"],
        ["eve-kim", "not a regular file", f"Eve Kim_104215{FILE}statics.ipynb is {device}: "
         "refused, not followed nor read"],
        ["fay-lu", "not a regular file", f"Fay Lu_104216{FILE} is a symbolic link: refused, "
         "not followed nor read"],
        ["gus-po", "not a regular file", f"Gus Po_104217{FILE}/statics.ipynb is a symbolic "
         "link: refused, not followed nor read"]]
    assert {row[0] for row in found["rows"] if row[1] == "missing notebook"} == set(held)
    assert "BEGIN SOLUTION" not in json.dumps(found)


def _member(name, mode, data=b""):
    info = zipfile.ZipInfo(name, (2026, 3, 2, 14, 0, 0))
    info.create_system = 3                                       # Unix: the mode is read
    info.external_attr = mode << 16
    return info, data


def test_a_zip_export_refuses_links_fifos_and_devices(tmp_path):
    honest = json.dumps(SET.filled())
    members = [
        _member(f"Ann Lee_104211{FILE}statics.ipynb", stat.S_IFREG | 0o644, honest),
        _member(f"Bob Ray_104212{FILE}statics.ipynb", stat.S_IFLNK | 0o777, str(KEY)),
        _member(f"Cat Ng_104213{FILE}statics.ipynb", stat.S_IFIFO | 0o644),
        _member(f"Dan Oh_104214{FILE}statics.ipynb", stat.S_IFCHR | 0o666),
        _member(f"Fay Lu_104216{FILE}", stat.S_IFLNK | 0o777, str(KEY.parent)),
        _member(f"Gus Po_104217{FILE}/statics.ipynb", stat.S_IFLNK | 0o777, str(KEY)),
        _member(f"Hal Yu_104218{FILE}statics.ipynb", 0, honest),     # no Unix mode: a file
    ]
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for info, data in members:
            zf.writestr(info, data)
    found = _collect(archive, tmp_path)
    held = ["bob-ray", "cat-ng", "dan-oh", "fay-lu", "gus-po"]
    assert found["students"] == ["ann-lee"] + held + ["hal-yu"]
    assert found["review"] == held
    assert found["submitted"] == {"ann-lee": honest, "hal-yu": honest}
    assert [(row[0], row[2].split(" is ")[1]) for row in found["rows"]
            if row[1] == "not a regular file"] == [
        ("bob-ray", "a symbolic link: refused, not followed nor read"),
        ("cat-ng", "a FIFO (named pipe): refused, not followed nor read"),
        ("dan-oh", "a character device: refused, not followed nor read"),
        ("fay-lu", "a symbolic link: refused, not followed nor read"),
        ("gus-po", "a symbolic link: refused, not followed nor read")]
    assert sorted(p.name for p in (tmp_path / ".out.partial" / "work" / "export").iterdir()) \
        == [f"Ann Lee_104211{FILE}statics.ipynb", f"Hal Yu_104218{FILE}statics.ipynb"]


def test_open_regular_follows_no_link_on_the_way(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.ipynb").write_text("{}")
    os.symlink(tmp_path / "real", tmp_path / "linked")
    os.mkfifo(tmp_path / "fifo")
    with safefiles.open_regular(tmp_path, "real/a.ipynb") as fh:
        assert fh.read() == b"{}"
    with pytest.raises(safefiles.NotRegular, match="^linked is a symbolic link, not a regular"):
        safefiles.open_regular(tmp_path, "linked/a.ipynb")
    with pytest.raises(safefiles.NotRegular, match="^fifo is a FIFO"):   # and does not wait
        safefiles.open_regular(tmp_path, "fifo")
    with pytest.raises(safefiles.NotRegular, match="^real is a folder"):
        safefiles.open_regular(tmp_path, "real")
    with pytest.raises(ValueError, match="^rel: '../x' is not a relative path below"):
        safefiles.open_regular(tmp_path, "../x")
    with pytest.raises(ValueError, match="larger than 1 bytes"):
        safefiles.copy_regular(tmp_path, "real/a.ipynb", tmp_path / "copy", 1)
    assert not (tmp_path / "copy").exists()
    assert safefiles.walk(tmp_path) == [("fifo", "a FIFO (named pipe)"),
                                        ("linked", "a symbolic link"), ("real/a.ipynb", None)]


def test_a_refused_file_holds_the_row():
    assert "not a regular file" in Problems.REVIEW


@pytest.mark.slow
def test_a_round_holds_the_row_of_a_refused_notebook(tmp_path):
    """The whole round on an export whose only notebook links to the answer key: the
    student is listed, scored nothing and held for review in grades.csv, the LMS file and
    the report (nothing runs: isolation is not needed)."""
    import csv

    from armlab.grading.autograde import grade

    export = tmp_path / "export"
    export.mkdir()
    os.symlink(KEY, export / f"Bob Ray_104212{FILE}statics.ipynb")
    grade("statics", export, out=tmp_path / "out", lms="moodle", progress=False,
          isolate=False)
    with open(tmp_path / "out" / "grades.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["student"], r["total"], r["status"]) for r in rows] == [("bob-ray", "", "review")]
    with open(tmp_path / "out" / "moodle_grades.csv", newline="") as fh:
        assert list(csv.DictReader(fh)) == []      # held, no export: no row, Moodle keeps its grade
    report = (tmp_path / "out" / "report.md").read_text()
    assert (f"- **bob-ray**: not a regular file: Bob Ray_104212{FILE}statics.ipynb is a "
            "symbolic link: refused, not followed nor read") in report
    assert ("| bob-ray | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 / 43 | **review** |"
            ) in report
