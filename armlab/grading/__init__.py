"""Grading for the armlab exercises.

``import armlab.grading`` loads the checks the exercises' test cells call
(numpy and armlab, nothing else, because every grading kernel imports it
before the student's code), with the sandbox they run in and the chapters'
references:

>>> from armlab.grading import check_function, deg
>>> def jacobian(arm, q):
...     return [[0.0, 0.0], [0.9, 0.4]]
>>> check_function(jacobian, "statics.jacobian", "worked")
Traceback (most recent call last):
...
armlab.grading.sandbox.CheckFailed: jacobian(arm, q) at the wall pose of Example 1 (q = (30°, 60°) on the
chapter's arm) is ((0, 0), (0.9, 0.4)), the book's value is ((-0.65, -0.4), (0.433, 0)).
Column j is z x (p_tip - p_j): work it out on paper at this pose

| module | holds |
| --- | --- |
| :mod:`~armlab.grading.checks` | ``check_function``, ``check_value``, ``check_choice``, ``check_shape``, ``deg``, ``protect`` |
| :mod:`~armlab.grading.references` | one module of pure-Python references per chapter, and their registry |
| :mod:`~armlab.grading.cases` | arms, cases, their words, the per-student case generator |
| :mod:`~armlab.grading.purepy` | vectors and matrices in plain Python, for the references |
| :mod:`~armlab.grading.sandbox` | defensive conversion, hardening, the seal, switching armlab off, ``protect`` |
| :mod:`~armlab.grading.messages` | texts one part writes and another reads |
| :mod:`~armlab.grading.testing` | what a chapter's test file calls to test its exercise set |

The instructor's tools load nbgrader only when run
(``python -m armlab.grading.release``, ``python -m armlab.grading.autograde``).
How to write a chapter's exercise set: ``armlab/grading/AUTHORING.md``.
"""

from armlab.grading import sandbox as _sandbox
from armlab.grading.checks import (check_choice, check_function, check_shape, check_value, deg,
                                   protect)

from armlab.grading.messages import CHECK_NAMES as _CHECK_NAMES

__all__ = list(_CHECK_NAMES)

_sandbox.seal(_sandbox._sys.modules[__name__])
_sandbox._sys.modules[__name__].__class__ = _sandbox.ReadOnlyModule
