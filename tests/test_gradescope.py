"""The Gradescope autograder: the zip, and run_autograder in Gradescope's layout.

``autograder.zip`` is built once for statics; each submission is then graded as
Gradescope grades it: the zip unpacked into ``/autograder/source``, the student's
files in ``/autograder/submission``, ``/autograder/submission_metadata.json`` beside
them, and ``/autograder/source/run_autograder`` run as root with ``/autograder`` as
the working directory. ``/autograder`` is a fresh folder bound there by bubblewrap
(the machine's own root has no such folder), with the checkout, the runtime and
``/usr`` read-only beside it. The submissions are the grading corpus of
``tests/submissions/corpus.py`` (honest, wrong and hostile notebooks), and each must
score what ``make grade`` gives it (tests/test_autograde.py); every results.json is
checked against a schema written from Gradescope's specification
(``tests/gradescope_results.schema.json``), with ``check-jsonschema`` and ``jsonschema``.
"""

import importlib.util
import json
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import zipfile

import jsonschema
import pytest

from armlab.grading import gradescope, sandbox
from armlab.grading.census import Problems

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
SCHEMA = HERE / "gradescope_results.schema.json"
spec = importlib.util.spec_from_file_location("corpus", HERE / "submissions" / "corpus.py")
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)

OK, WHY = sandbox.available()
needs_sandbox = pytest.mark.skipif(not OK, reason=f"no sandbox on this machine: {WHY}")
CPU = 5
EMAIL = "ann.lee@example.edu"


def _schema():
    return json.loads(SCHEMA.read_text())


@pytest.fixture(scope="module")
def zipped(tmp_path_factory):
    out = tmp_path_factory.mktemp("zip") / "autograder.zip"
    gradescope.build("statics", out, secret=corpus.SECRET, cpu=CPU, memory_mb=1536)
    return out


def _unpack(archive, dest):
    """The zip as Gradescope unpacks it into /autograder/source, with its modes."""
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            target = dest / info.filename
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(info))
            target.chmod((info.external_attr >> 16) & 0o777)


def _layout(root, archive, files, metadata):
    """Gradescope's /autograder, in ``root``: source (the zip), submission, metadata."""
    _unpack(archive, root / "source")
    (root / "submission").mkdir(parents=True)
    (root / "results").mkdir()
    for name, data in files.items():
        path = root / "submission" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    if metadata is not None:
        (root / "submission_metadata.json").write_text(json.dumps(metadata))


def _metadata(email=EMAIL, uid=4242):
    return {"id": 123456, "created_at": "2026-03-02T14:22:32.365935-07:00",
            "assignment": {"due_date": "2026-03-09T23:00:00.000000-07:00", "group_size": None,
                           "group_submission": False, "id": 25828, "course_id": 1234,
                           "late_due_date": None, "title": "Statics", "total_points": "30.0",
                           "release_date": "2026-03-02T00:00:00.000000-07:00"},
            "users": [{"email": email, "id": uid, "name": "Ann Lee"}],
            "previous_submissions": []}


def run_autograder(root):
    """``/autograder/source/run_autograder`` with ``root`` bound at /autograder: the results
    and the process's exit status and output."""
    args = ["bwrap", "--die-with-parent", "--unshare-pid", "--dev", "/dev", "--proc", "/proc",
            "--tmpfs", "/tmp", "--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib64"):
        path = pathlib.Path("/", name)
        if path.is_symlink():
            args += ["--symlink", str(path.readlink()), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    args += ["--ro-bind", "/etc", "/etc"]
    for path in sandbox._runtime_paths() + [str(REPO)]:
        args += ["--ro-bind", path, path]
    args += ["--bind", str(root), "/autograder", "--chdir", "/autograder", "--clearenv",
             "--setenv", "PATH", "/usr/bin:/bin:/usr/sbin:/sbin",
             "--setenv", "ARMLAB_GRADESCOPE_PYTHON", sys.executable,
             "--", "/autograder/source/run_autograder"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=600)
    results = root / "results" / "results.json"
    return (json.loads(results.read_text()) if results.exists() else None), proc


def _files(nb, extra):
    files = {f"{k}": v for k, v in extra.items()}
    if isinstance(nb, str):
        files[nb] = corpus.filled()
    elif nb is not None:
        files["statics.ipynb"] = nb
    return files


# attacks on Gradescope's own layout: its results file, the source (answer key, secret)
GRADESCOPE_FILES = """
import os, pathlib
seen = [p for p in ("/autograder", "/autograder/source/secret", "/autograder/results",
                    "/autograder/source/assignment/source/statics.ipynb") if os.path.exists(p)]
for target in ("/autograder/results/results.json", "/autograder/results/stdout"):
    try:
        pathlib.Path(target).write_text('{"score": 1000, "tests": []}')
    except OSError:
        pass
if seen:                   # what it could see, made visible by losing part 5
    def max_push(arm, q, direction, limit):
        return -1.0
"""

SUBMISSIONS = ["ref", "blank", "onewrongentry", "wrongsign", "copier", "testpass",
               "testdeleted", "retyped", "notjson", "missing", "misnamed", "extra", "forged",
               "callsref", "frames", "secrets", "writes", "killparent", "script", "channel",
               "endless", "osexit"]


def _cases():
    out = {login: corpus.cases()[login] for login in SUBMISSIONS}
    nb = corpus.filled()
    corpus.after(nb, "push_answer", GRADESCOPE_FILES)
    out["gradescope_files"] = (nb, {}, corpus.FULL, set())
    return out


@pytest.fixture(scope="module")
def graded(zipped, tmp_path_factory):
    """Every submission graded in a layout of its own: ``{login: (results, process)}``."""
    out = {}
    for login, (nb, extra, total, kinds) in sorted(_cases().items()):
        root = tmp_path_factory.mktemp(login) / "autograder"
        _layout(root, zipped, _files(nb, extra), _metadata(f"{login}@example.edu"))
        out[login] = (*run_autograder(root), root, total, kinds)
    return out


# ---------------------------------------------------------------- the zip
def test_the_zip_holds_what_gradescope_runs_at_its_root(zipped):
    with zipfile.ZipFile(zipped) as zf:
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in zf.infolist()}
        setup = zf.read("setup.sh").decode()
        requirements = zf.read("requirements.txt").decode()
        config = json.loads(zf.read("assignment/config.json"))
        secret = zf.read("secret").decode()
    assert {n for n in modes if "/" not in n} == {"setup.sh", "run_autograder",
                                                  "requirements.txt", "secret"}
    assert (modes["setup.sh"], modes["run_autograder"], modes["secret"]) == (0o755, 0o755, 0o600)
    assert modes["assignment/source/statics.ipynb"] == 0o600
    assert {"assignment/release/statics.ipynb", "assignment/gradebook.db",
            "armlab-src/pyproject.toml", "armlab-src/armlab/grading/gradescope.py",
            "armlab-src/armlab/grading/references/statics.py"} <= set(modes)
    assert not [n for n in modes if "__pycache__" in n]
    assert secret == corpus.SECRET
    assert (config["assignment"], config["cpu"], config["memory_mb"], config["student_id"]) == (
        "statics", CPU, 1536, "email")
    pinned = [line for line in (REPO / "requirements.txt").read_text().splitlines()
              if not line.startswith("-e")]
    assert requirements.splitlines() == pinned
    assert "apt-get install -y -qq --no-install-recommends bubblewrap" in setup
    assert "python3.11 python3.11-venv" in setup
    check = subprocess.run(["bash", "-n"], input=setup, text=True, capture_output=True)
    assert (check.returncode, check.stderr) == (0, "")


def test_a_build_without_a_secret_must_say_so(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("ARMLAB_GRADING_SECRET", raising=False)
    assert gradescope.main(["build", "statics", "--out", str(tmp_path / "a.zip")]) == 2
    assert "no course secret" in capsys.readouterr().err
    assert not (tmp_path / "a.zip").exists()
    assert gradescope.main(["build", "nosuchset", "--no-secret",
                            "--out", str(tmp_path / "b.zip")]) == 2
    assert "unknown assignment 'nosuchset'" in capsys.readouterr().err


def test_the_notebook_is_found_as_students_upload_it(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "statics (1).ipynb").write_text("{}")
    assert gradescope.choose_notebook(tmp_path / "a", "statics.ipynb") == (
        tmp_path / "a" / "statics (1).ipynb", "statics (1).ipynb graded as statics.ipynb")
    (tmp_path / "b" / "folder").mkdir(parents=True)
    (tmp_path / "b" / "folder" / "statics.ipynb").write_text("{}")
    (tmp_path / "b" / "other.ipynb").write_text("{}")
    (tmp_path / "b" / ".ipynb_checkpoints").mkdir()
    (tmp_path / "b" / ".ipynb_checkpoints" / "statics-checkpoint.ipynb").write_text("{}")
    assert gradescope.choose_notebook(tmp_path / "b", "statics.ipynb") == (
        tmp_path / "b" / "folder" / "statics.ipynb", "")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "x.ipynb").write_text("{}")
    (tmp_path / "c" / "y.ipynb").write_text("{}")
    assert gradescope.choose_notebook(tmp_path / "c", "statics.ipynb") == (
        None, "no statics.ipynb, and several other notebooks (x.ipynb, y.ipynb): upload "
              "statics.ipynb")


def _odd_submission(root, case):
    """Gradescope's submission/ holding what is not a regular file: ``(what the report
    names, is it graded at all)``."""
    sub, key = root / "submission", root / "source" / "assignment" / "source" / "statics.ipynb"
    if case == "link to the key":
        os.symlink(key, sub / "statics.ipynb")
        return "statics.ipynb is a symbolic link"
    if case == "fifo":
        os.mkfifo(sub / "statics.ipynb")
        return "statics.ipynb is a FIFO (named pipe)"
    if case == "device":
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(sub / "statics.ipynb", stat.S_IFCHR | 0o666, os.makedev(1, 5))  # /dev/zero
        return "statics.ipynb is a character device"
    if case == "linked folder":
        os.symlink(key.parent, sub / "work")
        return "work is a symbolic link"
    (sub / "work").mkdir()                     # a link inside a folder, beside a good notebook
    (sub / "statics.ipynb").write_text(json.dumps(corpus.filled()))
    os.symlink(key, sub / "work" / "statics.ipynb")
    return "work/statics.ipynb is a symbolic link"


@pytest.mark.parametrize("case", ["link to the key", "fifo", "device", "linked folder",
                                  "link in a folder"])
def test_what_is_not_a_regular_file_is_refused_and_held(zipped, tmp_path, case):
    """A submitted statics.ipynb that links to the answer key (or a FIFO, a device, a linked
    folder) is never followed nor read: nothing is graded, the submission is held for
    review and the reason names it. Each case runs in a child process with a time limit, so
    a reader waiting on the FIFO fails the test instead of hanging it."""
    root = tmp_path / "autograder"
    _layout(root, zipped, {}, _metadata())
    named = _odd_submission(root, case)
    code = ("import json, sys\nfrom armlab.grading import gradescope\n"
            "print(json.dumps(gradescope.grade_submission(gradescope.Paths(sys.argv[1]))))")
    proc = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True,
                          text=True, timeout=300, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout.splitlines()[-1])
    jsonschema.validate(results, _schema())
    assert results["score"] == 0
    assert results["extra_data"]["armlab"]["status"] == "review"
    assert results["extra_data"]["armlab"]["review"] == [
        f"not a regular file: {named}: refused, not followed nor read"]
    assert results["tests"][-1]["tags"] == ["review"]
    assert f"- not a regular file: {named}" in results["tests"][-1]["output"]
    assert all(t["output"] == f"Not graded: the submission holds what is not a regular file "
               f"({named}), so nothing of it was read." for t in results["tests"][:-1])


@needs_sandbox
def test_run_autograder_refuses_a_link_to_the_answer_key(zipped, tmp_path):
    """The same through run_autograder, with the link's target as Gradescope's own path."""
    root = tmp_path / "autograder"
    _layout(root, zipped, {}, _metadata())
    os.symlink("/autograder/source/assignment/source/statics.ipynb",
               root / "submission" / "statics.ipynb")
    results, proc = run_autograder(root)
    assert proc.returncode == 0, proc.stderr[-3000:]
    jsonschema.validate(results, _schema())
    assert (results["score"], results["extra_data"]["armlab"]["review"]) == (
        0, ["not a regular file: statics.ipynb is a symbolic link: refused, not followed nor "
            "read"])


def test_a_crash_still_writes_results_that_hold_the_submission(tmp_path, capsys):
    (tmp_path / "source").mkdir()                          # no assignment in it
    assert gradescope.run(tmp_path) == 1
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    jsonschema.validate(results, _schema())
    assert (results["score"], [t["tags"] for t in results["tests"]]) == (0.0, [["review"]])
    assert "held for a human" in results["output"]


def test_the_schema_refuses_what_the_specification_does_not_allow():
    schema = _schema()
    good = {"tests": [{"score": 1, "max_score": 1, "name": "a", "visibility": "after_due_date"}]}
    jsonschema.validate(good, schema)
    for bad in ({"tests": [{"max_score": 1}]},                      # no score anywhere
                {"score": 1, "tests": [{"score": 1, "visibility": "later"}]},
                {"score": 1, "tests": [{"score": 1, "points": 1}]},
                {"score": "1"}, {"score": 1, "stdout_visibility": "students"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def test_without_a_sandbox_nothing_is_graded_whatever_the_zip_says(zipped, tmp_path,
                                                                   monkeypatch):
    """No mode runs a notebook as root beside the answer key: a zip built with the former
    ``allow_no_sandbox`` grades nothing either."""
    said = ("NO SANDBOX, nothing graded: bubblewrap cannot run here (bubblewrap cannot create "
            "the sandbox's namespaces here)")
    monkeypatch.setattr(sandbox, "choose", lambda hidden: (None, said))
    root = tmp_path / "autograder"
    _layout(root, zipped, {"statics.ipynb": corpus.filled()}, _metadata())
    paths = gradescope.Paths(root)
    config = json.loads((root / "source" / "assignment" / "config.json").read_text())
    assert "allow_no_sandbox" not in config
    for config in (config, dict(config, allow_no_sandbox=True)):
        results = gradescope.grade_submission(paths, config=config)
        jsonschema.validate(results, _schema())
        assert results["score"] == 0
        assert results["tests"][-1]["tags"] == ["review"]
        assert f"no sandbox for the notebook in this container: {said}" in \
            results["tests"][-1]["output"]
        assert results["extra_data"]["armlab"]["sandbox"] == said
    with pytest.raises(SystemExit):
        gradescope.main(["build", "statics", "--allow-no-sandbox"])


# ---------------------------------------------------------------- run_autograder
@pytest.mark.slow
@needs_sandbox
@pytest.mark.parametrize("login", sorted(_cases()))
def test_each_submission_scores_what_make_grade_gives(graded, login):
    results, proc, root, total, kinds = graded[login]
    assert results is not None, proc.stderr[-2000:]
    held = bool(set(kinds) & set(Problems.REVIEW))
    review = [t for t in results["tests"] if t.get("tags") == ["review"]]
    assert (results["extra_data"]["armlab"]["status"], len(review)) == (
        ("review", 1) if held else ("ok", 0))
    if not held:
        assert results["score"] == total
        assert sum(t["score"] for t in results["tests"]) == total
    assert proc.returncode == 0


@pytest.mark.slow
@needs_sandbox
def test_every_results_json_follows_the_specification(graded, tmp_path):
    files = []
    for login, (results, *_rest) in sorted(graded.items()):
        jsonschema.validate(results, _schema())
        path = tmp_path / f"{login}.json"
        path.write_text(json.dumps(results))
        files.append(str(path))
    exe = shutil.which("check-jsonschema", path=str(pathlib.Path(sys.executable).parent))
    proc = subprocess.run([exe, "--schemafile", str(SCHEMA), *files], capture_output=True,
                          text=True)
    assert (proc.returncode, proc.stdout.strip()) == (0, "ok -- validation done")


@pytest.mark.slow
@needs_sandbox
def test_one_test_per_graded_cell_named_as_the_feedback_names_it(graded):
    from armlab.grading.autograde import parts_of
    from armlab.grading.outputs import cell_titles

    source = json.loads(corpus.SOLUTION.read_text())
    titles = cell_titles(source, parts_of(source))
    results = graded["onewrongentry"][0]
    assert [t["name"] for t in results["tests"]] == list(titles.values())
    assert [t["number"] for t in results["tests"]][:4] == ["1.1", "1.2", "2.1", "2.2"]
    assert sum(t["max_score"] for t in results["tests"]) == corpus.FULL
    first, second = results["tests"][:2]
    assert (first["name"], first["score"], first["max_score"], first["visibility"]) == (
        "Part 1: the torques of a tip force: check tau on the wall push of Example 1", 0.0, 1.0,
        "visible")
    assert " ".join(first["output"].split()).startswith(
        "\u2717 joint_torques(arm, q, F) at the wall push of Example 1 (q = (30°, 60°), F = "
        "(10, 0) N on the chapter's arm) is (-2.5, -4), the book's value is (-6.5, -4)")
    assert (second["score"], second["max_score"], second["visibility"]) == (0.0, 2.0,
                                                                           "after_due_date")
    assert second["output"].startswith("\u2717 joint_torques(arm, q, F) is wrong at q = (")
    hidden = [t["number"] for t in results["tests"] if t["visibility"] == "after_due_date"]
    assert hidden == ["1.2", "2.2", "3.2", "4.2", "4.3", "5.2", "5.3", "6.2", "6.3", "7.2",
                      "8.2", "9.1", "10.2"]
    assert results["output"].startswith("statics: 40 / 43 points, every check run in a "
                                        "sandbox on cases of your own.")


@pytest.mark.slow
@needs_sandbox
def test_a_fault_is_a_test_of_score_zero_held_for_a_human(graded):
    for login, phrase in (("endless", f"ran past its CPU limit of {CPU} s"),
                          ("osexit", "the notebook's process ended in sign_answer"),
                          ("channel", "an unexpected 'result' message in sign_answer")):
        results = graded[login][0]
        held = results["tests"][-1]
        assert (held["score"], held["max_score"], held["tags"], held["visibility"]) == (
            0, 0, ["review"], "visible"), login
        assert held["output"].startswith("This submission is held for a human to look at."), \
            login
        assert phrase in held["output"], (login, held["output"])
        assert "Held for review" in results["output"]
    endless = {t["name"]: t for t in graded["endless"][0]["tests"]}
    bound = endless["Part 6: reading one component of a force from torques: check the worst "
                    "error of a force component at other poses, uncertainties, directions, arms"]
    assert bound["score"] == 0 and "held for a human to look at" in bound["output"]


@pytest.mark.slow
@needs_sandbox
def test_what_could_not_be_graded_scores_zero_and_says_why(graded):
    notjson, missing = graded["notjson"][0], graded["missing"][0]
    assert (notjson["score"], missing["score"]) == (0, 0)
    assert "is not a readable notebook" in notjson["tests"][0]["output"]
    assert missing["tests"][0]["output"] == "no notebook in the submission: upload statics.ipynb"
    assert "statics (1).ipynb graded as statics.ipynb" in graded["misnamed"][0]["output"]


@pytest.mark.slow
@needs_sandbox
def test_attackers_reach_nothing_of_gradescopes_layout(graded):
    for login, (results, proc, root, *_rest) in graded.items():
        text = json.dumps(results) + proc.stdout + proc.stderr
        assert corpus.SECRET not in text, login
    results = graded["gradescope_files"][0]
    assert results["score"] == corpus.FULL          # its own results file stayed ours
    calls = " ".join(graded["forged"][0]["extra_data"]["armlab"]["notes"])
    assert "used armlab's reference: the answer calls armlab.static_torques" in calls


@pytest.mark.slow
@needs_sandbox
def test_the_cases_are_the_submitters_and_the_same_on_a_regrade(zipped, graded, tmp_path):
    nb = corpus.filled()
    corpus.set_answer(nb, "torques_answer", corpus._answer("torques_answer").replace(
        "lever = p[-1] - p[:-1]", "lever = p[1:] - p[:-1]"))
    outs = {}
    for name, email in (("again", "onewrongentry@example.edu"), ("other", EMAIL)):
        root = tmp_path / name / "autograder"
        _layout(root, zipped, {"statics.ipynb": nb}, _metadata(email))
        outs[name] = run_autograder(root)[0]
    first = dict(graded["onewrongentry"][0], execution_time=0)
    assert dict(outs["again"], execution_time=0) == first
    hidden = [t["output"] for t in outs["other"]["tests"]][1]
    assert hidden != first["tests"][1]["output"]
    assert outs["other"]["score"] == first["score"] == corpus.lose("part1")


def test_zip_modes_survive_unpacking(zipped, tmp_path):
    _unpack(zipped, tmp_path)
    mode = (tmp_path / "run_autograder").stat().st_mode
    assert mode & stat.S_IXUSR
