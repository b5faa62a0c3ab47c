"""Grading for the armlab exercises: ``import armlab.grading`` loads the test cells' checks
(:mod:`~armlab.grading.checks`) and the chapters' references.

>>> from armlab.grading import check_function
>>> def jacobian(arm, q):
...     return [[0.0, 0.0], [0.9, 0.4]]
>>> check_function(jacobian, "kinematics.jacobian", "worked")
Traceback (most recent call last):
...
armlab.grading.judge.CheckFailed: jacobian(arm, q) at the wall pose of Example 2 (q = (30°, 60°) on the chapter's arm)
is ((0, 0), (0.9, 0.4)), the book's value is ((-0.65, -0.4), (0.433, 0)). Column j is
z x (p_tip - p_j), the lever from joint j to the tip turned by +90 degrees

How to write a chapter's exercise set: ``armlab/grading/AUTHORING.md``.
"""

from armlab.grading.checks import check_choice, check_function, checked_when_graded, deg

__all__ = ["check_function", "check_choice", "checked_when_graded", "deg"]
