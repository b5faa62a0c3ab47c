"""Grading for the armlab exercises: the checks the test cells call, and the
instructor's tools (``release``, ``autograde``, ``scan``) as submodules.

``import armlab.grading`` loads only the checks (numpy and armlab, nothing
else), because every grading kernel imports it before the student's code:

>>> from armlab.grading import check_value, deg
>>> check_value(100.0, "max_tip_force", deg(0, 30), [1, 0], 20, worked=100)
>>> check_value(-100.0, "max_tip_force", deg(0, 30), [1, 0], 20)
Traceback (most recent call last):
...
AssertionError: your answer is -100.0, expected 100.0

The instructor's tools load nbgrader only when run
(``python -m armlab.grading.autograde``, ``python -m armlab.grading.release``).
"""

import sys as _sys

from armlab.grading.checks import (_ReadOnlyModule, check_choice, check_function, check_shape,
                                   check_value, deg, fresh_poses, protect)

__all__ = ["deg", "fresh_poses", "check_shape", "check_function", "check_value",
           "check_choice", "protect"]

_sys.modules[__name__].__class__ = _ReadOnlyModule
