"""armlab.plots: drawings follow armlab's kinematics and move in place."""

import numpy as np
import pytest

import armlab as al

plots = pytest.importorskip("armlab.plots")


@pytest.fixture
def arm():
    return al.statics_arm()


def test_links_follow_joint_positions(arm):
    """The drawn links are armlab's joint positions, before and after an update"""
    fig, ax = plots.figure()
    q = np.radians([30, 60])
    drawing = plots.ArmDrawing(ax, arm, q)
    x, y = drawing.artists["links"].get_data()
    np.testing.assert_allclose(np.c_[x, y], al.joint_positions(arm, q))
    q2 = np.radians([-20, 110])
    drawing.update(q2)
    x, y = drawing.artists["links"].get_data()
    np.testing.assert_allclose(np.c_[x, y], al.joint_positions(arm, q2))


def test_force_arrow_starts_at_tip_and_scales(arm):
    """The force arrow runs from the tip along F, force_scale metres per newton"""
    fig, ax = plots.figure()
    q = np.radians([30, 60])
    drawing = plots.ArmDrawing(ax, arm, q, tip_force=[10, 0], force_scale=0.02)
    arrow = drawing.artists["force"]
    start, end = arrow._posA_posB
    np.testing.assert_allclose(start, al.tip_position(arm, q))
    np.testing.assert_allclose(np.subtract(end, start), [0.2, 0.0])
    drawing.update(q, tip_force=None)
    assert not arrow.get_visible()


def test_torque_arrow_direction_follows_sign(arm):
    """A negative torque sweeps clockwise, a positive one counter-clockwise"""
    fig, ax = plots.figure()
    q = np.radians([30, 60])
    drawing = plots.ArmDrawing(ax, arm, q, tau=[-6.5, 4.0])
    centres = al.joint_positions(arm, q)[:2]
    for j, expected in enumerate([-1, 1]):
        x, y = drawing.artists["torque_arcs"][j].get_data()
        angles = np.unwrap(np.arctan2(np.asarray(y) - centres[j][1],
                                      np.asarray(x) - centres[j][0]))
        assert np.sign(angles[-1] - angles[0]) == expected
    assert "τ1 = -6.50 N m" in drawing.artists["torque_text"].get_text()


def test_force_ellipse_from_singular_values(arm):
    """The ellipse's axes are torque/sigma along J's singular directions, the statics case at q2 =
    90 deg"""
    q = np.radians([0, 90])
    half, dirs = al.force_ellipse(arm, q, torque=2.0)
    sigma = al.singular_values(arm, q)
    np.testing.assert_allclose(half, 2.0 / sigma[::-1])
    # Each axis direction really needs |J^T F| = torque_norm at its end.
    J = al.jacobian(arm, q)
    for k in range(2):
        np.testing.assert_allclose(np.linalg.norm(J.T @ (half[k] * dirs[:, k])), 2.0)
    fig, ax = plots.figure()
    drawing = plots.ArmDrawing(ax, arm, q, ellipse_torque=2.0, force_scale=0.01)
    e = drawing.artists["ellipse"]
    np.testing.assert_allclose(sorted([e.width, e.height]), sorted(2 * 0.01 * half))
    np.testing.assert_allclose(e.center, al.tip_position(arm, q))


def test_ellipse_at_singular_pose_is_long_not_broken(arm):
    """At the stretched pose the carried direction has an infinite half-axis, drawn long"""
    half, dirs = al.force_ellipse(arm, [0.0, 0.0])
    assert np.isinf(half[0]) and np.isfinite(half[1])
    np.testing.assert_allclose(np.abs(dirs[:, 0]), [1.0, 0.0], atol=1e-12)
    fig, ax = plots.figure()
    drawing = plots.ArmDrawing(ax, arm, [0.0, 0.0], ellipse_torque=1.0)
    assert np.isfinite(drawing.artists["ellipse"].width)
    fig.canvas.draw()


def test_weights_hang_from_centres_of_mass(arm):
    """Weight arrows start at armlab's centres of mass and point along gravity"""
    fig, ax = plots.figure()
    q = np.radians([30, 60])
    drawing = plots.ArmDrawing(ax, arm, q, weights=True, force_scale=0.01)
    com = al.com_positions(arm, q)
    for i, arrow in enumerate(drawing.artists["weights"]):
        start, end = arrow._posA_posB
        np.testing.assert_allclose(start, com[i])
        np.testing.assert_allclose(np.subtract(end, start),
                                   0.01 * arm.masses[i] * np.array(arm.gravity))


def test_update_reuses_artists(arm):
    """update() moves the same artists; it adds none to the axes"""
    fig, ax = plots.figure()
    drawing = plots.ArmDrawing(ax, arm, [0.1, 0.2], [1, 1], [1, -1], ellipse_torque=1.0)
    before = (len(ax.lines), len(ax.patches), len(ax.texts))
    for k in range(5):
        drawing.update([0.1 * k, 0.3], [k, 1], [k - 2, 1], ellipse_torque=1.0 + k)
    assert (len(ax.lines), len(ax.patches), len(ax.texts)) == before


def test_figure_is_not_in_pyplot_and_shows_as_png():
    """plots.figure keeps pyplot's figure list untouched and renders a PNG for Jupyter"""
    import matplotlib.pyplot as plt

    open_before = plt.get_fignums()
    fig, ax = plots.figure()
    assert plt.get_fignums() == open_before
    data, shape = fig._repr_png_()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert shape == {"width": 672, "height": 384}          # 7 x 4 inches of 96 px


def test_time_plot_labels_units():
    """time_plot draws one line per signal, with time in seconds on x"""
    fig, ax = plots.figure()
    t = np.linspace(0, 1, 11)
    lines = plots.time_plot(ax, t, np.c_[t, t**2], ["a", "b"], "torque [N m]", limits=0.5)
    assert len(lines) == 2
    assert ax.get_xlabel() == "time t [s]" and ax.get_ylabel() == "torque [N m]"
    np.testing.assert_allclose(lines[1].get_ydata(), t**2)


def test_import_armlab_does_not_import_matplotlib():
    """`import armlab` stays light: no matplotlib, no ipywidgets"""
    import subprocess
    import sys

    code = ("import sys, armlab; "
            "print(any(m.split('.')[0] in ('matplotlib', 'ipywidgets') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- the kinematics chapter's drawings and the statics chapter's torque box -------------------------

def test_jacobian_columns_are_drawn_at_the_tip(arm):
    """Each column arrow is velocity_time x J[:, j] from the tip; each lever runs joint j -> tip"""
    fig, ax = plots.figure()
    q = np.radians([30, 60])
    drawing = plots.ArmDrawing(ax, arm, q, columns=True, velocity=True, qd=[1.0, -1.0],
                               velocity_time=0.5)
    J, p = al.jacobian(arm, q), al.joint_positions(arm, q)
    for j in range(2):
        start, end = drawing.artists["columns"][j]._posA_posB
        np.testing.assert_allclose(start, p[-1])
        np.testing.assert_allclose(np.subtract(end, start), 0.5 * J[:, j])
        x, y = drawing.artists["levers"][j].get_data()
        np.testing.assert_allclose(np.c_[x, y], [p[j], p[-1]])
    start, end = drawing.artists["velocity"]._posA_posB
    np.testing.assert_allclose(np.subtract(end, start), 0.5 * J @ [1.0, -1.0])
    half, _ = al.velocity_ellipse(arm, q, np.sqrt(2))
    e = drawing.artists["velocity_ellipse"]
    np.testing.assert_allclose([e.width, e.height], 2 * 0.5 * half)


def test_workspace_follows_the_arm(arm):
    """The shaded annulus and its circles have the arm's reach, and move to another arm's"""
    fig, ax = plots.figure()
    ws = plots.Workspace(ax, arm, labels=True)
    assert ws.artists["area"].r == pytest.approx(0.9)
    assert ws.artists["area"].width == pytest.approx(0.8)
    x, y = ws.artists["inner"].get_data()
    np.testing.assert_allclose(np.hypot(x, y), 0.1)
    ws.update(al.rod_arm())
    x, y = ws.artists["outer"].get_data()
    np.testing.assert_allclose(np.hypot(x, y), 2.0)
    assert ws.artists["inner_label"].get_text() == ""        # the rod arm reaches its base


def test_manipulability_map_colours_each_tip_by_its_pose(arm):
    """The mesh's nodes are tip positions over q1 x q2 in [0, 180] deg, coloured by w"""
    fig, ax = plots.figure()
    mesh = plots.manipulability_map(ax, arm, step_deg=30.0)
    q1 = np.radians(np.arange(-180.0, 181.0, 30.0))
    q2 = np.radians(np.arange(0.0, 181.0, 30.0))
    q = np.stack(np.meshgrid(q1, q2, indexing="ij"), axis=-1)
    np.testing.assert_allclose(np.asarray(mesh.get_array()).ravel(),
                               al.manipulability(arm, q).ravel())
    np.testing.assert_allclose(mesh.get_coordinates(), al.tip_position(arm, q))
    assert mesh.get_clim() == (0, pytest.approx(0.2))


def test_force_box_draws_the_parallelogram_and_the_push(arm):
    """The drawn parallelogram is force_polygon's, and the push along x ends at its first corner
    (both joints at -limit), the statics case's 50 N at q2 = 90 deg"""
    fig, (ax1, ax2) = plots.figure(ncols=2)
    q = np.radians([0, 90])
    out = plots.force_box(ax1, ax2, arm, q, 20.0, direction=[1.0, 0.0])
    corners = al.force_polygon(arm, q, 20.0)
    np.testing.assert_allclose(out["polygon"].get_xy()[:4], corners)
    np.testing.assert_allclose(out["push"], corners[0], atol=1e-12)
    np.testing.assert_allclose(out["push"], [50.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(out["box"].get_bbox().bounds, [-20, -20, 40, 40])
    half, _ = al.force_ellipse(arm, q, 20.0)
    np.testing.assert_allclose(sorted([out["ellipse"].width, out["ellipse"].height]),
                               sorted(2 * half))


# -- the book's figure size: drawn at the width shown, text no smaller than the footnotes ---------

def png_info(data):
    """Pixel size and text chunks of PNG bytes."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(data))
    return image.size, image.text


def test_page_png_is_twice_the_display_size_with_its_metadata(arm):
    """A figure w x h inches shows at 96 w x 96 h px, from a PNG of twice the pixels; the
    PNG's text chunks hold its dpi and its smallest text"""
    fig, ax = plots.figure(width=5.0, height=3.0)
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend(fontsize=9)
    png = plots.render_png(fig)
    assert (png.width, png.height) == (480, 288)
    size, text = png_info(png)
    assert size == (960, 576)
    assert text == {"armlab:dpi": "192", "armlab:smallest-text-pt": "9"}
    assert png._repr_png_() == (bytes(png), {"width": 480, "height": 288})
    assert png_info(plots.render_png(fig, pixel_ratio=1))[0] == (480, 288)


def test_book_style_sets_every_default_text_to_the_smallest_size():
    """Without a fontsize, ticks, labels, titles, legends and texts are MIN_TEXT_PT (12 pt =
    16 px, the footnotes' size), so smallest_text finds exactly that"""
    fig, ax = plots.figure()
    ax.plot([0, 1], [0, 2], label="a")
    ax.set_title("title")
    ax.set_xlabel("x [m]")
    ax.legend(title="legend")
    ax.text(0.5, 0.5, "note")
    fig.suptitle("figure")
    fig.canvas.draw()
    assert plots.MIN_TEXT_PT * plots.DPI / 72 == 16.0
    assert plots.smallest_text(fig) == plots.MIN_TEXT_PT
    ax.annotate("small", (0, 0), fontsize=8)
    ax.text(0, 0, "")                                  # empty texts do not count
    ax.text(0, 0, "hidden", fontsize=5, visible=False)
    assert plots.smallest_text(fig) == 8


def test_page_width_is_the_default_figure_width():
    """A default figure fills the chapter's 672 px column"""
    fig, _ = plots.figure()
    assert plots.render_png(fig).width == 672 == plots.PAGE_WIDTH * plots.DPI


def test_centres_of_mass_are_marked_unlike_joints(arm):
    """With weights (or coms=True) each centre of mass gets the quartered-circle marker at
    armlab's com_positions; joints keep their open circles at the joint positions"""
    fig, ax = plots.figure()
    q = np.radians([30, 60])
    drawing = plots.ArmDrawing(ax, arm, q, weights=True)
    a = drawing.artists
    for key in ("coms", "com_quarters"):
        np.testing.assert_allclose(np.c_[a[key].get_data()], al.com_positions(arm, q))
        assert a[key].get_visible()
    np.testing.assert_allclose(np.c_[a["joints"].get_data()], al.joint_positions(arm, q)[:-1])
    assert a["joints"].get_marker() == "o" and a["joints"].get_markerfacecolor() == "#ffffff"
    assert a["com_quarters"].get_marker() is not a["joints"].get_marker()
    q2 = np.radians([-40, 100])
    drawing.update(q2)
    np.testing.assert_allclose(np.c_[a["coms"].get_data()], al.com_positions(arm, q2))
    plain = plots.ArmDrawing(ax, arm, q)
    assert not plain.artists["coms"].get_visible()
    assert plots.ArmDrawing(ax, arm, q, coms=True).artists["coms"].get_visible()


def test_marker_legend_names_both_markers():
    """The legend's two entries are the joint's and the centre of mass's"""
    fig, ax = plots.figure()
    legend = plots.marker_legend(ax, loc="upper left")
    assert [t.get_text() for t in legend.get_texts()] == ["joint", "centre of mass"]
    assert plots.MARKER_WORDS == {"joint": "open circles: joints",
                                  "com": "quartered circles: centres of mass"}


def test_animation_is_a_player_as_wide_as_its_figure():
    """animation_html returns a str that shows itself as HTML; the player is width x 96 px
    wide, and each frame carries the size metadata of the book's PNGs"""
    import base64
    import re

    arm = al.tabletop_arm()
    t = np.linspace(0, 1, 11)
    q = np.c_[t, -t]
    player = plots.animation_html(arm, t, q, frames=3, width=3.0, title="a motion")
    assert isinstance(player, str) and player._repr_html_() == player
    assert 'style="max-width:288px;margin:0 auto"' in player
    frames = re.findall(r'"data:image/png;base64,([A-Za-z0-9+/=]+)"', player)
    size, text = png_info(base64.b64decode(frames[0]))
    assert size == (288, 288)
    assert text == {"armlab:dpi": "96", "armlab:smallest-text-pt": "12"}
    sharp = plots.animation_html(arm, t, q, frames=3, width=3.0, pixel_ratio=2)
    assert 'style="max-width:288px;' in sharp


def drawn_tip(arrow):
    """Where an arrow's head ends as drawn: its farthest painted pixel along the arrow, in data
    coordinates (the figure rendered with every other artist hidden)."""
    fig, ax = arrow.figure, arrow.axes
    others = [a for a in fig.findobj() if a is not arrow and a is not fig and a is not ax
              and a.get_visible()]
    for a in others:
        a.set_visible(False)
    ax.patch.set_visible(False)
    animated = arrow.get_animated()          # a blitting lab draws it apart; draw it here
    arrow.set_animated(False)
    try:
        fig.canvas.draw()
        rgba = np.asarray(fig.canvas.buffer_rgba())
    finally:
        for a in others:
            a.set_visible(True)
        ax.patch.set_visible(True)
        arrow.set_animated(animated)
    rows, cols = np.nonzero(rgba[..., 3] > 0)
    pixels = np.c_[cols + 0.5, rgba.shape[0] - rows - 0.5]      # display coordinates
    start, end = (ax.transData.transform(p) for p in arrow._posA_posB)
    along = (end - start) / np.linalg.norm(end - start)
    tip = pixels[np.argmax(pixels @ along)]
    pixel = np.linalg.norm(ax.transData.inverted().transform(tip + along)
                           - ax.transData.inverted().transform(tip))   # [m per pixel]
    return ax.transData.inverted().transform(tip), pixel


def ellipse_radius(patch, point):
    """1 on the ellipse patch's boundary, below 1 inside, above outside."""
    angle = np.radians(patch.angle)
    local = np.array([[np.cos(angle), np.sin(angle)], [-np.sin(angle), np.cos(angle)]]) @ (
        np.asarray(point) - patch.center)
    return np.hypot(local[0] / (patch.width / 2), local[1] / (patch.height / 2))


@pytest.mark.parametrize("chapter, arrow, ellipse", [
    ("kinematics", "velocity", "velocity_ellipse"),    # Fig. 1.7: J qd ends on the ellipse
    ("statics", "force", "ellipse"),                   # Fig. 2.7: F ends on its force ellipse
])
def test_lab_arrows_end_on_their_ellipse(chapter, arrow, ellipse):
    """The labs' default views (the chapters' still figures): the arrow's drawn tip lies on the
    ellipse, within two pixels, not a few points short of it (matplotlib's default shrink)"""
    from armlab import labs

    view = getattr(labs, f"{chapter}_lab")(render=False)
    artists = view.drawing.artists
    start, end = artists[arrow]._posA_posB
    assert ellipse_radius(artists[ellipse], end) == pytest.approx(1, abs=1e-9)
    tip, pixel = drawn_tip(artists[arrow])
    assert np.linalg.norm(tip - end) < 2 * pixel, (tip, end, pixel)
