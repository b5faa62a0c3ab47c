"""Grading for the armlab exercises: ``import armlab.grading`` loads the test cells' checks
(:mod:`~armlab.grading.checks`) and the chapters' references.

>>> from armlab.grading import check_function
>>> def jacobian(arm, q):
...     return [[0.0, 0.0], [0.9, 0.4]]
>>> check_function(jacobian, "statics.jacobian", "worked")
Traceback (most recent call last):
...
armlab.grading.judge.CheckFailed: jacobian(arm, q) at the wall pose of Example 1 (q = (30°, 60°) on the
chapter's arm) is ((0, 0), (0.9, 0.4)), the book's value is ((-0.65, -0.4), (0.433, 0)).
Column j is z x (p_tip - p_j): work it out on paper at this pose

How to write a chapter's exercise set: ``armlab/grading/AUTHORING.md``.
"""

from armlab.grading.checks import check_choice, check_function, checked_when_graded, deg

__all__ = ["check_function", "check_choice", "checked_when_graded", "deg"]
