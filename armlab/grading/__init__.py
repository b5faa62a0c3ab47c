"""Grading for the armlab exercises.

``import armlab.grading`` loads the checks the exercises' test cells call, and
the chapters' references:

>>> from armlab.grading import check_function
>>> def jacobian(arm, q):
...     return [[0.0, 0.0], [0.9, 0.4]]
>>> check_function(jacobian, "statics.jacobian", "worked")
Traceback (most recent call last):
...
armlab.grading.judge.CheckFailed: jacobian(arm, q) at the wall pose of Example 1 (q = (30°, 60°) on the
chapter's arm) is ((0, 0), (0.9, 0.4)), the book's value is ((-0.65, -0.4), (0.433, 0)).
Column j is z x (p_tip - p_j): work it out on paper at this pose

In a student's own kernel the checks judge at once. When a class is graded, no
check runs in the student's process: the grader reads the test cells, runs the
notebook in a sandbox that returns what the student's functions give on the cases,
and judges that itself.

| module | holds |
| --- | --- |
| :mod:`~armlab.grading.checks` | ``check_function``, ``check_value``, ``check_choice``, ``check_shape``, ``deg`` (a student's kernel) |
| :mod:`~armlab.grading.judge` | a value against its reference, in words (both places) |
| :mod:`~armlab.grading.references` | one module of references per chapter, and their registry |
| :mod:`~armlab.grading.cases` | arms, cases, their words, the per-student case generator |
| :mod:`~armlab.grading.purepy` | nested lists of floats in plain Python (shape, comparison, text), for the checks |
| :mod:`~armlab.grading.runner` | what runs inside the sandbox |
| :mod:`~armlab.grading.shaker` | the armlab a sandbox sees, cut to what a part allows |
| :mod:`~armlab.grading.sandbox` | bubblewrap, and the run's messages as data |
| :mod:`~armlab.grading.execute` | grading one notebook: plan, runs, verdicts (an nbgrader preprocessor) |
| :mod:`~armlab.grading.result` | one submission's grading as data, from which a round writes every output |
| :mod:`~armlab.grading.safefiles` | a submission's files read as regular files only, no link followed |

The instructor's tools load nbgrader only when run
(``python -m armlab.grading.release``, ``python -m armlab.grading.autograde``).
How to write a chapter's exercise set: ``armlab/grading/AUTHORING.md``.
"""

from armlab.grading.checks import (check_choice, check_function, check_shape, check_value,
                                   checked_when_graded, deg)

__all__ = ["check_function", "check_value", "check_choice", "check_shape",
           "checked_when_graded", "deg"]
