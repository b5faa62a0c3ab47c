"""What the labs' tests read off a lab: its table, its drawn points, its changes.

``test_labs_common.py`` runs the tests every lab must pass (updates in place, the
blitted image equals a full redraw, presets); each ``test_labs_<chapter>.py``
tests its chapter's values with these helpers.
"""

import numpy as np


def table(lab):
    """The lab's table as ``{quantity: value text}``."""
    return {quantity: value for quantity, value, _ in lab.table_rows()}


def drawn(artist):
    """The points a line artist draws, as an ``(n, 2)`` array."""
    x, y = artist.get_data()
    return np.c_[x, y]


def arrow(patch):
    """An arrow patch's start and its vector (end minus start)."""
    start, end = patch._posA_posB
    return np.asarray(start), np.subtract(end, start)


def change(lab, changes):
    """Apply ``(widget name, value)`` changes in order; the name ``"preset"`` sets a preset."""
    for name, value in changes:
        if name == "preset":
            lab.set_preset(value)
        else:
            lab.widgets[name].value = value
