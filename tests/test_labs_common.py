"""What every lab does the same way: it updates its artists in place, its blitted image is
a full redraw's, each preset redraws once and names itself, and a wrong preset is refused.

One row per lab: the changes the in-place test makes (sliders, an arm change, a preset)
and the states at which the blitted image is compared with a full redraw (after a slider,
an arm change, a rescale). The chapters' own values are in ``test_labs_<chapter>.py``.
"""

import numpy as np
import pytest
from _bookbuild import chapters_with_lab

from labtests import change

labs = pytest.importorskip("armlab.labs")

ROD = "rod arm"            # the kinematics lab's arm menu

#: lab: (factory, changes made in place, [states compared with a full redraw])
LABS = {
    "statics": (labs.statics_lab, [("q1", 10.0), ("size", 30.0), ("preset", "bent 90°")],
                [[("q2", 45.0)]]),
    "kinematics": (labs.kinematics_lab, [("q1", 10.0), ("arm", ROD), ("preset", "bent 90°")],
                   [[("q2", 45.0)], [("arm", ROD)]]),
    "gravity": (labs.gravity_lab, [("q1", 10.0), ("payload", 1.0), ("preset", "wall-mounted")],
                [[("q2", 45.0), ("mount", 45.0)]]),
    # small torques after the preset: the axes rescale before the slider moves
    "inverse_dynamics": (labs.inverse_dynamics_lab, [("qd1", 2.0), ("preset", "supported tip")],
                         [[("preset", "elbow acceleration"), ("q2", 45.0)]]),
    "forward_dynamics": (labs.forward_dynamics_lab, [("q2", 60.0), ("preset", "no friction")],
                         [[("q2", 50.0)]]),
    "limits": (labs.limits_lab, [("limit", 20.0), ("q1", 30.0),
                                 ("preset", "capacity nan: 15 N m cannot hold the arm")],
               [[("limit", 20.0), ("q2", 45.0)]]),
    "control": (labs.control_lab, [("preset", "computed torque, unknown 0.5 kg payload"),
                                   ("ct_kp", 900.0)],
                [[("kd1", 6.0)]]),
}
BLITS = [(name, states) for name, (_, _, blits) in LABS.items() for states in blits]


def test_every_chapter_has_its_lab():
    """Each chapter of the toc has ``armlab.labs.<chapter>_lab`` and its entry here."""
    assert sorted(LABS) == sorted(chapters_with_lab())
    for chapter in chapters_with_lab():
        assert LABS[chapter][0] is getattr(labs, f"{chapter}_lab")


def counts(figure):
    return [(len(a.lines), len(a.patches), len(a.texts), len(a.collections))
            for a in figure.axes]


@pytest.mark.parametrize("name", LABS)
def test_update_creates_no_figure_and_no_artists(name):
    """Updates (presets and arm changes included) move the existing artists: no new figure,
    no new axes or artist; the PNG changes"""
    import matplotlib.pyplot as plt

    make, changes, _ = LABS[name]
    lab = make(render=True)
    figs = plt.get_fignums()
    axes = lab.figure.axes
    before = counts(lab.figure)
    image = lab.widgets["image"].value
    change(lab, changes)
    assert plt.get_fignums() == figs
    assert lab.figure.axes == axes
    assert counts(lab.figure) == before
    assert lab.widgets["image"].value != image
    assert lab.widgets["image"].value[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name, states", BLITS, ids=[f"{n}-{s[-1][0]}" for n, s in BLITS])
def test_redrawn_image_matches_a_full_draw(name, states):
    """The blitted image equals a full redraw of the same state"""
    lab = LABS[name][0](render=True)
    change(lab, states)
    fast = np.asarray(lab.figure.canvas.buffer_rgba()).copy()
    lab.rescaled()                  # the background drawn afresh: a full draw
    lab.redraw()
    full = np.asarray(lab.figure.canvas.buffer_rgba())
    assert np.mean(fast != full) < 0.001


@pytest.mark.parametrize("name", LABS)
def test_every_preset_redraws_once_and_names_itself(name):
    """A preset sets several widgets but redraws once, and the dropdown shows it"""
    lab = LABS[name][0](render=False)
    for preset in lab.presets:
        n = lab.updates
        lab.set_preset(preset)
        assert lab.updates == n + 1, preset
        assert lab.widgets["preset"].value == preset


@pytest.mark.parametrize("name", LABS)
def test_bad_preset(name):
    with pytest.raises(ValueError, match="preset"):
        LABS[name][0](preset="nope", render=False)


@pytest.mark.parametrize("name", LABS)
def test_lab_images_follow_the_book_size(name):
    """The live image is the canvas at one pixel per screen pixel, shown no wider than drawn;
    the page's still (png) is the whole figure at two, with the same display size"""
    import io

    from PIL import Image

    from armlab import plots

    lab = LABS[name][0](render=True)
    shown = round(lab.figure.get_figwidth() * plots.DPI)
    assert lab.widgets["image"].layout.max_width == f"{shown}px"
    live = Image.open(io.BytesIO(lab.widgets["image"].value))
    assert live.size == lab.figure.canvas.get_width_height(physical=True)
    assert live.size[0] in (shown - 1, shown, shown + 1)
    still = lab.png()
    assert isinstance(still, plots.PNG) and abs(still.width - shown) <= 1
    assert Image.open(io.BytesIO(still)).size[0] in (2 * shown - 1, 2 * shown, 2 * shown + 1)
    assert Image.open(io.BytesIO(still)).text["armlab:dpi"] == "192"


@pytest.mark.parametrize("name", LABS)
def test_lab_figure_fits_the_page_and_its_text_the_footnotes(name):
    """The lab's figure is no wider than the chapter's column and, in every preset, no text
    in it is smaller than the book's footnotes (armlab.plots.MIN_TEXT_PT)"""
    from armlab import plots

    lab = LABS[name][0](render=True)
    assert lab.figure.get_figwidth() <= plots.PAGE_WIDTH
    for preset in lab.presets:
        lab.set_preset(preset)
        lab.figure.canvas.draw()
        assert plots.smallest_text(lab.figure) >= plots.MIN_TEXT_PT, preset
