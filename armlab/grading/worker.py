"""The grading processes of a round's pool: each grades the students it is given, one at a time.

:func:`start` makes a process of :func:`armlab.grading.autograde.grade_all`'s pool ready: its
stdout and stderr into ``logs/worker<k>.log``, a gradebook of its own (a copy of the
assignment's) and nbgrader's API with the round's secret and limits. :func:`grade` then runs
nbgrader's ``autograde`` (with :class:`armlab.grading.execute.SandboxExecute`) and
``generate_feedback`` on one student and returns their
:class:`~armlab.grading.result.Result`. The course secret comes as an argument, never in the
environment, which no sandbox inherits.
"""

import os
import pathlib
import shutil
import traceback

from armlab.grading.release import nbgrader_api, skip_iri_syntax, venv_on_path
from armlab.grading.sandbox import UID_MODES

SECRET_ENV = "ARMLAB_GRADING_SECRET"


def grading_api(course, db_url, *, secret, cpu, memory_mb, max_chars, isolate,
                submission_seconds=600.0):
    """nbgrader's API as the repository's ``nbgrader_config.py`` sets it up (with
    :class:`~armlab.grading.execute.SandboxExecute` in place of nbgrader's ``Execute``) on
    ``course`` and the gradebook at ``db_url``, with this round's secret and limits."""
    return nbgrader_api(course, **{
        "CourseDirectory.db_url": db_url, "SandboxExecute.secret": secret,
        "SandboxExecute.cpu": float(cpu), "SandboxExecute.memory_mb": int(memory_mb),
        "SandboxExecute.max_chars": int(max_chars), "SandboxExecute.isolate":
        isolate if isolate in UID_MODES else bool(isolate),
        "SandboxExecute.submission_seconds": float(submission_seconds)})


def grade_one(api, assignment, student, db_url, feedback=True):
    """Autograde ``student`` (and write their feedback page) into the gradebook at ``db_url``,
    which this process alone writes: their :class:`Result`, holding what nbgrader recorded
    there (:func:`armlab.grading.gradebook.submission_rows`). Both the round's workers and
    Gradescope's runner grade a submission with this."""
    from armlab.grading.execute import GRADED
    from armlab.grading.gradebook import submission_rows
    from armlab.grading.result import Result

    graded = api.autograde(assignment, student, force=True, create=True)
    if feedback:
        api.generate_feedback(assignment, student, force=True)
    result = GRADED.pop(student, None) or Result(student, recorded=False)
    result.success = bool(graded["success"])
    result.log = ((graded.get("log") or "") + "\n" + (graded.get("error") or ""))[-20000:]
    course = pathlib.Path(api.coursedir.root)
    result.graded = any((course / "autograded" / student / assignment).glob("*.ipynb"))
    result.scores, result.gradebook = submission_rows(db_url, assignment, student)
    return result


_WORKER = {}
"""This process's nbgrader API, assignment and gradebook URL (set by :func:`start`)."""


def start(course, assignment, template, logs, secret, limits):
    """Make this pool process ready to grade: worker ``k``'s log (the first ``k`` not taken)
    as its stdout and stderr, the gradebook at ``template`` copied for it alone, and
    nbgrader's API on ``course`` with ``secret`` and ``limits`` (:func:`grading_api`'s
    keywords)."""
    skip_iri_syntax()                           # before nbgrader imports nbformat
    os.environ.pop(SECRET_ENV, None)
    os.environ.pop("JUPYTER_CONFIG_DIR", None)
    k = 0
    while True:
        try:
            fd = os.open(pathlib.Path(logs) / f"worker{k}.log",
                         os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            break
        except FileExistsError:
            k += 1
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    os.chdir(course)
    venv_on_path()
    own = pathlib.Path(template).with_name(f"gradebook{k}.db")
    shutil.copyfile(template, own)
    url = f"sqlite:///{own}"
    _WORKER.update(api=grading_api(course, url, secret=secret, **limits),
                   assignment=assignment, url=url)


def grade(student):
    """Grade ``student`` in this pool process (after :func:`start`): their Result."""
    try:
        return grade_one(_WORKER["api"], _WORKER["assignment"], student, _WORKER["url"])
    except BaseException:
        traceback.print_exc()                   # into this process's log
        raise
