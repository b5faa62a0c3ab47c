"""nbgrader's configuration for the armlab exercises.

``solutions/`` holds nbgrader's source notebooks and ``exercises/`` the
release generated from them (``make exercises``). The gradebook is SQLite under
``grading/`` (ignored by git) unless ``ARMLAB_GRADEBOOK_URL`` names another
SQLAlchemy URL, e.g. ``postgresql://grader@db.example.org/armlab`` for a large
course. ``make grade`` (``python -m armlab.grading.autograde``) reads this file
and adds its own limits on top (see ``book/instructors.md``).
"""

import os

c = get_config()  # noqa: F821  (provided by traitlets when nbgrader loads this file)

_here = os.path.dirname(os.path.abspath(__file__))

c.CourseDirectory.root = _here
c.CourseDirectory.course_id = "armlab"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"
c.CourseDirectory.submitted_directory = "grading/submitted"
c.CourseDirectory.autograded_directory = "grading/autograded"
c.CourseDirectory.feedback_directory = "grading/feedback"
c.CourseDirectory.db_url = os.environ.get(
    "ARMLAB_GRADEBOOK_URL", "sqlite:///" + os.path.join(_here, "grading", "gradebook.db"))

# Release: solution regions become `raise NotImplementedError()`, hidden tests vanish.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Autograde (`make grade`, and nbgrader's own `nbgrader autograde` and formgrader): no kernel;
# every notebook runs in sandboxes and is judged outside them (armlab.grading.execute, whose
# limits and course secret `make grade` sets; here the secret comes from the environment).
# Deleted test cells are put back; outputs are bounded.
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
