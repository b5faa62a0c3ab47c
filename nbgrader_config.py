"""nbgrader's configuration for the armlab exercises.

``solutions/`` holds nbgrader's source notebooks and ``exercises/`` the
release generated from them (``make exercises``). The gradebook is SQLite under
``grading/`` (ignored by git) unless ``ARMLAB_GRADEBOOK_URL`` names another
SQLAlchemy URL, e.g. ``postgresql://grader@db.example.org/armlab`` for a large
course. ``make grade`` (``python -m armlab.grading.autograde``) reads the same
configuration and adds its own limits on top (see ``book/instructors.md``).

The settings themselves are in ``armlab.grading.release.course_config``, their one
source, so that a grader installed without this repository (Gradescope) has them too.
"""

import os

from armlab.grading.release import course_config

c = get_config()  # noqa: F821  (provided by traitlets when nbgrader loads this file)
c.merge(course_config(os.path.dirname(os.path.abspath(__file__))))
