"""Texts that one part of the grading writes and another reads, defined once.

The checks (in the student's kernel) write some messages that the autograder
(outside it) later finds in the graded notebook: an armlab function switched
off, an answer of a refused type, a repair made between cells. The grading
kernel and the output bounding write the truncation note that the report
looks for. Each of those texts is built and recognised here, so the writer and
the reader cannot drift apart.

This module imports nothing: the grading kernel loads it before IPython.

>>> switched_off("jacobian")
'armlab.jacobian is switched off while your function is checked: this part asks you to compute it yourself'
>>> switched_off_name(switched_off("jacobian") + " (called from row 3)")
'jacobian'
"""

# ------------------------------------------------------------- the checks' names
CHECK_NAMES = ("deg", "check_function", "check_value", "check_choice", "check_shape", "protect")
"""What ``armlab.grading`` exports to the notebooks' first cell; the static scan
flags an answer cell that rebinds one of them."""

# ------------------------------------------------------------- what a check shows
#: Starts the one line a passing check prints.
PASSED_MARK = "\u2713 "
#: Starts a failed check's message, which is all the notebook shows of it.
FAILED_MARK = "\u2717 "

WIDTH = 88
"""Characters per line of a check's message (a notebook's output and a feedback page)."""


def wrap(text, width=WIDTH):
    """``text`` with every line longer than ``width`` broken at spaces (for display only:
    the texts read back below are searched in the unbroken message)."""
    out = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = word if not line else line + " " + word
        out.append(line)
    return "\n".join(out)


# ------------------------------------------------------------- output bounds
TRUNCATED = "... output truncated by the grader ..."
"""Appended where a cell's output was cut (kernel side and grader side)."""

# ------------------------------------------------------------- armlab switched off
_OFF = " is switched off while your function is checked"


def switched_off(name):
    """The message of an armlab function called while a part that forbids it is checked."""
    return f"armlab.{name}{_OFF}: this part asks you to compute it yourself"


def switched_off_name(text):
    """The armlab function named by a :func:`switched_off` message in ``text``, or None."""
    end = text.find(_OFF)
    if end < 0:
        return None
    start = text.rfind("armlab.", 0, end)
    return text[start + len("armlab."):end] if start >= 0 else None


# ------------------------------------------------------------- answers refused
REFUSED_TYPE = "objects of other types are not accepted"
"""Ends the message for an answer that is not made of plain numbers."""

# ------------------------------------------------------------- repairs between cells
NOTE_PREFIX = "[armlab.grading] "
"""Starts every line the checks write on stdout about a repair they made."""


def note(text):
    """One line on stdout about a repair (read back by :func:`notes`)."""
    return f"{NOTE_PREFIX}{text}\n"


def notes(text):
    """The repair notes found in a cell's printed ``text``."""
    out = []
    for line in text.splitlines():
        if line.startswith(NOTE_PREFIX):
            out.append(line[len(NOTE_PREFIX):])
    return out


TAMPERED = "changed the grading code while it was checked"
"""Part of the message of a check whose student function edited the grading code."""

# ------------------------------------------------------------- exceptions nbgrader reports
TIMEOUT_ERRORS = ("CellTimeoutError", "KeyboardInterrupt")
MEMORY_ERRORS = ("MemoryError",)
