"""Regenerate ``exercises/`` from ``solutions/`` with nbgrader (``make exercises``).

``python -m armlab.grading.release [ASSIGNMENT ...]`` runs ``generate_assignment`` in a
temporary course directory and copies the release into ``exercises/<assignment>/``; the
output depends only on ``solutions/``.
"""

import argparse
import os
import pathlib
import shutil
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]


def venv_on_path():
    """Put this interpreter's ``bin/`` first on PATH: nbgrader runs ``alembic``
    (to stamp a new gradebook) and ``jupyter`` by name."""
    bindir = os.path.dirname(sys.executable)
    if os.environ.get("PATH", "").split(os.pathsep)[0] != bindir:
        os.environ["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")


def skip_iri_syntax():
    """Start a grading command without the ``rfc3987_syntax`` package.

    jsonschema, which nbformat imports, imports it when it is installed, and it
    builds 38 parsers at import: 1.4 s of every grading process's start (the
    round and each worker), more than a student's kernel takes to start. It
    only checks IRI string formats, which no notebook schema uses. For the
    command-line entry points only, before nbformat is first imported; a
    process that already has jsonschema is left as it is.
    """
    if "jsonschema" not in sys.modules:
        sys.modules.setdefault("rfc3987_syntax", None)


def limit_options(parser, *, memory_mb=2048, submission_seconds=600.0, sandbox=True):
    """Add the sandbox's limits to a grading command's ``parser`` (``--no-sandbox`` if
    ``sandbox``): the options of autograde, gradescope build and the worker."""
    parser.add_argument("--cpu", type=float, default=30,
                        help="CPU seconds of one cell or one check of a notebook")
    parser.add_argument("--memory-mb", type=int, default=memory_mb,
                        help="address-space cap of the sandbox's processes [MiB]")
    parser.add_argument("--max-chars", type=int, default=20_000, help="output kept per cell")
    parser.add_argument("--submission-seconds", type=float, default=submission_seconds,
                        help="wall-clock seconds of all the runs of one notebook together; "
                             "past them it is stopped and held for review")
    if sandbox:
        parser.add_argument("--no-sandbox", action="store_true",
                            help="grade without isolation (where bubblewrap cannot run); "
                                 "every row and page says so")


def fast_alembic_version():
    """Read nbgrader's schema head in-process instead of running ``alembic heads``.

    nbgrader stamps every new gradebook by starting the ``alembic`` command,
    about two seconds here; the head is a constant of the installed nbgrader,
    read from its migration scripts by alembic's own API. Falls back to
    nbgrader's way if that API is not there.
    """
    import nbgrader.api

    if getattr(nbgrader.api.get_alembic_version, "_armlab", False):
        return
    original = nbgrader.api.get_alembic_version

    def head():
        try:
            from alembic.config import Config as AlembicConfig
            from alembic.script import ScriptDirectory

            cfg = AlembicConfig()
            cfg.set_main_option("script_location",
                                os.path.join(os.path.dirname(nbgrader.api.__file__), "alembic"))
            return ScriptDirectory.from_config(cfg).get_current_head()
        except Exception:                                   # noqa: BLE001
            return original()

    head._armlab = True
    nbgrader.api.get_alembic_version = head


def _install_line_in(text):
    """A notebook's JSON with its install line from :mod:`armlab._site` (the repository a
    course's fork names), so that ``make exercises`` releases the fork's own."""
    import json

    from armlab import _site

    nb = json.loads(text)
    changed = False
    for cell in nb.get("cells", []):
        src = cell.get("source", "")
        joined = "".join(src) if isinstance(src, list) else src
        fixed = _site.with_install_line(joined)
        if fixed != joined:
            cell["source"] = fixed.splitlines(keepends=True) if isinstance(src, list) else fixed
            changed = True
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n" if changed else text


def course_config(root):
    """nbgrader's configuration of the armlab exercises, for the course folder ``root``: the
    one source of it (the repository's ``nbgrader_config.py`` loads it), so the grader needs no
    file outside the installed package (Gradescope installs armlab without the repository).

    >>> course_config("/course").CourseDirectory.source_directory
    'solutions'
    """
    from traitlets.config import Config

    here = str(root)
    c = Config()
    c.CourseDirectory.root = here
    c.CourseDirectory.course_id = "armlab"
    c.CourseDirectory.source_directory = "solutions"
    c.CourseDirectory.release_directory = "exercises"
    c.CourseDirectory.submitted_directory = "grading/submitted"
    c.CourseDirectory.autograded_directory = "grading/autograded"
    c.CourseDirectory.feedback_directory = "grading/feedback"
    c.CourseDirectory.db_url = os.environ.get(
        "ARMLAB_GRADEBOOK_URL", "sqlite:///" + os.path.join(here, "grading", "gradebook.db"))
    # Release: solution regions become `raise NotImplementedError()`, hidden tests vanish.
    c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
    c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
    # Autograde (`make grade`, and nbgrader's own `nbgrader autograde` and formgrader): no
    # kernel; every notebook runs in sandboxes and is judged outside them
    # (armlab.grading.execute, whose limits and course secret `make grade` sets; here the
    # secret comes from the environment). Deleted test cells are put back; outputs bounded.
    c.Autograde.autograde_preprocessors = [
        "armlab.grading.execute.SandboxExecute", "nbgrader.preprocessors.IgnorePattern",
        "nbconvert.preprocessors.ClearMetadataPreprocessor", "nbgrader.preprocessors.LimitOutput",
        "nbgrader.preprocessors.SaveAutoGrades", "nbgrader.preprocessors.AssignLatePenalties",
        "nbgrader.preprocessors.CheckCellMetadata"]
    c.SandboxExecute.secret = os.environ.get("ARMLAB_GRADING_SECRET", "")
    c.ClearMetadataPreprocessor.preserve_nb_metadata_mask = {("kernelspec",), ("language_info",)}
    c.OverwriteCells.add_missing_cells = True
    c.LimitOutput.max_lines = 200
    c.LimitOutput.max_traceback = 60
    # Feedback: the hidden tests' source removed, a partial credit in words, every
    # student-written cell sanitized.
    c.GenerateFeedback.preprocessors = [
        "nbgrader.preprocessors.GetGrades", "armlab.grading.outputs.HideHiddenTests",
        "armlab.grading.outputs.PartialCreditInWords", "armlab.grading.outputs.SanitizeFeedback",
        "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor"]
    return c


def load_config(root, **overrides):
    """:func:`course_config` with the course moved to ``root``."""
    from traitlets.config import Config

    cfg = course_config(REPO)
    extra = Config()
    extra.CourseDirectory.root = str(root)
    for step in ("source", "release", "submitted", "autograded", "feedback"):
        extra.CourseDirectory[f"{step}_directory"] = step
    extra.CourseDirectory.db_url = "sqlite:///" + str(pathlib.Path(root) / "gradebook.db")
    for key, value in overrides.items():
        section, name = key.split(".")
        extra[section][name] = value
    cfg.merge(extra)
    return cfg


def nbgrader_api(root, **overrides):
    """nbgrader's API on the course folder ``root``, configured by :func:`load_config`."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    cfg = load_config(root, **overrides)
    return NbGraderAPI(coursedir=CourseDirectory(config=cfg), config=cfg)


def generate(assignment, course, solutions=None):
    """Run ``generate_assignment`` for one assignment in the course directory ``course``.

    Copies ``solutions/<assignment>`` to ``course/source/<assignment>``; the
    release lands in ``course/release/<assignment>`` and the gradebook in
    ``course/gradebook.db``. Returns nbgrader's log.
    """
    venv_on_path()
    fast_alembic_version()
    solutions = pathlib.Path(solutions or REPO / "solutions")
    course = pathlib.Path(course)
    source = course / "source" / assignment
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(solutions / assignment, source,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    for notebook in source.glob("*.ipynb"):      # the install line from the one setting
        text = notebook.read_text(encoding="utf-8")
        fixed = _install_line_in(text)
        if fixed != text:
            notebook.write_text(fixed, encoding="utf-8")
    result = nbgrader_api(course).generate_assignment(assignment, force=True, create=True)
    if not result["success"]:
        raise RuntimeError(f"generate_assignment {assignment} failed:\n{result['log']}\n"
                           f"{result.get('error', '')}")
    return result["log"]


def release(assignment, exercises=None, solutions=None):
    """Replace ``exercises/<assignment>`` with a fresh nbgrader release of it."""
    exercises = pathlib.Path(exercises or REPO / "exercises")
    with tempfile.TemporaryDirectory(prefix="armlab-release-") as tmp:
        generate(assignment, tmp, solutions)
        target = exercises / assignment
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(pathlib.Path(tmp) / "release" / assignment, target)
    return target


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="*",
                        help="assignment names (default: every folder in solutions/)")
    args = parser.parse_args(argv)
    names = args.assignments or sorted(
        p.name for p in (REPO / "solutions").iterdir() if p.is_dir() and not p.name.startswith("."))
    for name in names:
        target = release(name)
        print(f"released {name} -> {target.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    skip_iri_syntax()
    sys.exit(main())
