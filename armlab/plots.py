"""Matplotlib drawings of a planar arm: links, tip force and velocity, joint torques, ellipses.

Every position and Jacobian drawn here comes from :mod:`armlab.kinematics`;
this module only turns them into artists. Drawings are objects that keep their
artists and change them in place (``set_data``, ``set_positions``, ...), so a
lab can redraw a pose without making a new figure.

Conventions: world frame x right, y up, metres; angles in radians; a tip force
is the force the tip applies to the environment [N]; a positive joint torque
turns its joint counter-clockwise [N m].

**The book's figure size.** A figure is drawn at the size the page shows it.
Sizes are in inches of :data:`DPI` = 96 screen pixels (the CSS inch), so a
figure ``width`` inches wide is shown ``96 * width`` pixels wide and a text of
``s`` points is ``96 / 72 * s`` pixels high on the page. A chapter's figure
column is :data:`PAGE_WIDTH` = 7 inches (672 pixels); no figure is wider. The
PNG for a page carries :data:`PIXEL_RATIO` = 2 image pixels per screen pixel
(sharp on high-density screens) and its display size in its metadata, which
the book and Jupyter honour. No text is smaller than :data:`MIN_TEXT_PT` =
12 pt, 16 pixels: the size of the book's footnotes. Importing this module sets
matplotlib's default text sizes to that (:data:`STYLE`), so axis labels, ticks,
titles and legends follow without a ``fontsize``; :func:`smallest_text` finds
the smallest text of a figure.

``import armlab`` does not import this module (it needs matplotlib).
"""

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import Ellipse, FancyArrowPatch, Polygon, Rectangle, Wedge
from matplotlib.path import Path
from matplotlib.text import Text

from armlab.kinematics import com_positions, jacobian, joint_positions, tip_position
from armlab.manipulability import manipulability, reach, velocity_ellipse
from armlab.statics import force_ellipse, force_polygon, max_tip_force, static_torques

__all__ = ["ArmDrawing", "Blitter", "BookFigure", "DPI", "MARKER_WORDS", "MIN_TEXT_PT",
           "PAGE_WIDTH", "PIXEL_RATIO", "PNG", "Player", "StackedBars", "StrobeDrawing",
           "Workspace", "animation_html", "canvas_png", "com_styles", "encode_png", "figure",
           "force_box", "joint_style", "manipulability_map", "marker_legend", "render_png",
           "smallest_text", "time_plot"]

#: Screen pixels per inch of a figure: the CSS inch (96 px), so 1 pt of text is 4/3 px.
DPI = 96
#: Width of a chapter's figure column [inch]: 672 px, measured in the built book (a
#: 1280 px window; wider windows keep the figure at its drawn width).
PAGE_WIDTH = 7.0
#: Image pixels per screen pixel in a page's PNG.
PIXEL_RATIO = 2
#: The smallest text a figure may hold [pt]: 16 px at :data:`DPI`, the book's footnotes.
MIN_TEXT_PT = 12.0
#: matplotlib's text sizes for the book (set on import).
STYLE = {key: MIN_TEXT_PT for key in (
    "font.size", "axes.titlesize", "axes.labelsize", "xtick.labelsize", "ytick.labelsize",
    "legend.fontsize", "legend.title_fontsize", "figure.titlesize", "figure.labelsize")}
matplotlib.rcParams.update(STYLE)

# One palette for the whole book (colour-blind safe, Okabe-Ito).
COLORS = {
    "arm": "#404040",
    "joint": "#ffffff",
    "force": "#D55E00",
    "torque": "#0072B2",
    "ellipse": "#009E73",
    "weight": "#7F7F7F",
    "limit": "#CC79A7",
    "velocity": "#E69F00",
    "speed_ellipse": "#56B4E9",
    "columns": ("#0072B2", "#CC79A7", "#009E73", "#D55E00"),
    "workspace": "#E8E8E8",
}

# Largest sweep of a torque arrow, reached at ``torque_scale`` [rad].
_MAX_SWEEP = np.radians(300.0)

#: How a caption or a legend names the two markers of an arm drawing.
MARKER_WORDS = {"joint": "open circles: joints",
                "com": "quartered circles: centres of mass"}

# The centre-of-mass symbol: a circle with its first and third quarters filled.
_COM_QUARTERS = Path.make_compound_path(Path.wedge(0, 90), Path.wedge(180, 270))


def joint_style(color=None):
    """Line2D keywords of the joint marker: an open circle with a dark rim."""
    return dict(ls="none", marker="o", ms=8, mfc=COLORS["joint"], mec=color or COLORS["arm"],
                mew=2)


def com_styles(color=None):
    """Line2D keywords of the two layers of the centre-of-mass marker: a white disc with a
    thin rim, then its first and third quarters filled (the engineering symbol)."""
    dark = color or COLORS["arm"]
    return (dict(ls="none", marker="o", ms=9, mfc="white", mec=dark, mew=1.2),
            dict(ls="none", marker=_COM_QUARTERS, ms=9, mfc=dark, mec="none"))


def marker_legend(ax, **kwargs):
    """A legend that names the joint and centre-of-mass markers (:data:`MARKER_WORDS`).

    Keywords go to :meth:`Axes.legend` (``loc``, ...). Returns the legend.
    """
    face, quarters = com_styles()
    com = (Line2D([], [], **face), Line2D([], [], **quarters))
    kwargs.setdefault("frameon", False)
    return ax.legend([Line2D([], [], **joint_style()), com], ["joint", "centre of mass"],
                     handler_map={tuple: HandlerTuple(ndivide=1)},
                     **kwargs)


# ------------------------------------------------------------------------ PNG for the page
class PNG(bytes):
    """PNG bytes that the book and Jupyter show at their display size.

    ``_repr_png_`` gives the display size as output metadata (myst-nb and
    JupyterLab honour it), so a cell whose value is a PNG shows it ``width``
    screen pixels wide, whatever its pixel count.

    Attributes
    ----------
    width, height : int
        Display size [screen px].
    dpi : float
        Image pixels per inch of the figure.
    smallest_text : float or None
        The smallest text in the image [pt] (None: no text).
    """

    def __new__(cls, data, width, height, dpi, smallest_text):
        self = super().__new__(cls, data)
        self.width, self.height = int(width), int(height)
        self.dpi, self.smallest_text = float(dpi), smallest_text
        return self

    def _repr_png_(self):
        return bytes(self), {"width": self.width, "height": self.height}


def smallest_text(fig):
    """The smallest font size of the visible, non-empty texts of a figure [pt], or None.

    Tick labels get their text when the figure is drawn: call this after a draw.
    """
    sizes = [t.get_fontsize() for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip()
             and (t.axes is None or t.axes.get_visible())]
    return min(sizes) if sizes else None


def encode_png(rgba, dpi, text=None, *, colors=None, compress_level=6):
    """Encode an RGBA image of a figure as a :class:`PNG`: the one encoder of the book.

    Parameters
    ----------
    rgba : (h, w, 4) uint8 array_like
        The pixels (a canvas's ``buffer_rgba()``).
    dpi : float
        Its pixels per inch of the figure; the display size is ``w * DPI / dpi``.
    text : float, optional
        The smallest text in it [pt], written in the PNG's metadata with ``dpi``
        (``armlab:smallest-text-pt``, ``armlab:dpi``) so a test of the page can
        tell how large it is shown.
    colors : int, optional
        Reduce to this many colours (small animation frames).
    compress_level : int
        zlib level, 1 (fast, for a lab's live image) to 9.
    """
    import io

    from PIL import Image, PngImagePlugin

    pixels = np.asarray(rgba)
    image = Image.fromarray(pixels, "RGBA")
    image = (image.convert("P", palette=Image.Palette.ADAPTIVE, colors=colors) if colors
             else image.convert("RGB"))
    info = PngImagePlugin.PngInfo()
    info.add_text("armlab:dpi", f"{dpi:g}")
    if text is not None:
        info.add_text("armlab:smallest-text-pt", f"{text:g}")
    buffer = io.BytesIO()
    image.save(buffer, format="png", pnginfo=info, compress_level=compress_level,
               optimize=bool(colors))
    h, w = pixels.shape[:2]
    return PNG(buffer.getvalue(), round(w * DPI / dpi), round(h * DPI / dpi), dpi, text)


def render_png(fig, pixel_ratio=PIXEL_RATIO, dpi=None):
    """Draw the whole figure afresh (animated artists too) and encode it for a page.

    Parameters
    ----------
    fig : matplotlib Figure
    pixel_ratio : int
        Image pixels per screen pixel.
    dpi : float, optional
        Image pixels per inch instead (``DPI * pixel_ratio`` by default).

    Returns
    -------
    PNG
        Shown at the figure's size in inches times :data:`DPI`.
    """
    import io

    dpi = float(dpi or DPI * pixel_ratio)
    buffer = io.BytesIO()
    own = fig.dpi
    fig.dpi = dpi                                  # the canvas's pixel size at this dpi
    try:
        w, h = fig.canvas.get_width_height(physical=True)
        fig.savefig(buffer, format="rgba", dpi=dpi)    # saving draws animated artists too
    finally:
        fig.dpi = own
    rgba = np.frombuffer(buffer.getvalue(), np.uint8).reshape(h, w, 4)
    return encode_png(rgba, dpi, smallest_text(fig))


def canvas_png(fig, compress_level=1, *, colors=None, text=None):
    """The figure's canvas as it was last drawn (blitting included), as a :class:`PNG`.

    ``compress_level`` and ``colors`` are :func:`encode_png`'s; ``text`` is the smallest
    text [pt] to record, by default measured now (:func:`smallest_text`).
    """
    canvas = fig.canvas
    w, h = canvas.get_width_height(physical=True)
    rgba = np.asarray(canvas.buffer_rgba()).reshape(h, w, 4)
    return encode_png(rgba, fig.dpi, smallest_text(fig) if text is None else text,
                      colors=colors, compress_level=compress_level)


class Blitter:
    """A figure redrawn fast: its still parts drawn once and cached, its moving artists drawn
    over that background on each :meth:`draw` (matplotlib's blitting, on the Agg canvas).

    The one place the book blits: the labs' live image and the animation players.

    Parameters
    ----------
    figure : matplotlib Figure
        On an Agg canvas.
    artists : iterable of Artist
        The moving artists; they are marked animated (a full draw leaves them out).

    Examples
    --------
    >>> fig, ax = figure(width=2.0, height=1.0)
    >>> (line,) = ax.plot([0, 1], [0, 1])
    >>> blit = Blitter(fig, [line])
    >>> blit.draw()
    >>> line.set_ydata([1, 0])
    >>> blit.draw()                    # the cached background, then the line again
    >>> blit.png().width               # screen pixels, as shown
    192
    """

    def __init__(self, figure, artists):
        self.figure = figure
        self.artists = list(artists)
        for artist in self.artists:
            artist.set_animated(True)
        self._background = None

    def reset(self):
        """An axis limit, a label or the canvas size changed: draw the background afresh next."""
        self._background = None

    def draw(self):
        """Redraw the canvas: the cached background (drawn and laid out once, the layout then
        kept), then the moving artists over it."""
        canvas = self.figure.canvas
        if self._background is None:
            canvas.draw()                           # lays out and draws all but the animated
            self.figure.set_layout_engine("none")   # keep that layout from now on
            self._background = canvas.copy_from_bbox(self.figure.bbox)
        else:
            canvas.restore_region(self._background)
        for artist in self.artists:
            artist.axes.draw_artist(artist)

    def png(self, compress_level=1, *, colors=None, text=None):
        """The canvas as last drawn, as a :class:`PNG` (:func:`canvas_png`)."""
        return canvas_png(self.figure, compress_level, colors=colors, text=text)


def _arrow(**style):
    """An arrow patch drawn to its true length: its head's tip on the end point.

    matplotlib shrinks a ``FancyArrowPatch`` by 2 points at both ends by default,
    which leaves a short arrow visibly short of the ellipse or point it should reach.
    """
    return FancyArrowPatch((0, 0), (0, 0), shrinkA=0, shrinkB=0, joinstyle="miter", **style)


def _place_ellipse(patch, centre, half, directions):
    """Move an Ellipse patch: half-axes ``half`` (2,) [drawing units] along the columns."""
    patch.set_center(tuple(centre))
    patch.set_width(2 * half[0])
    patch.set_height(2 * half[1])
    patch.set_angle(np.degrees(np.arctan2(directions[1, 0], directions[0, 0])))
    patch.set_visible(True)


class BookFigure(Figure):
    """A matplotlib Figure at the book's :data:`DPI` that shows itself as a PNG in Jupyter
    without pyplot, at its size (:func:`render_png`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("dpi", DPI)
        super().__init__(*args, **kwargs)

    def _repr_png_(self):
        return render_png(self)._repr_png_()


def figure(ncols=1, nrows=1, *, width=PAGE_WIDTH, height=4.0, **kwargs):
    """A new figure and its axes, kept out of pyplot's global state.

    The figure draws on an Agg canvas. In Jupyter it shows as a PNG when it is
    a cell's last value (or through ``display(fig)``), ``width * DPI`` pixels
    wide; it never shows by itself, so a lab can keep redrawing it without new
    outputs.

    Parameters
    ----------
    ncols, nrows : int
        Grid of axes.
    width, height : float
        Figure size [inch of :data:`DPI` screen pixels]; a chapter's column is
        :data:`PAGE_WIDTH` wide.
    **kwargs
        Passed to :meth:`Figure.subplots` (``sharey``, ``gridspec_kw``, ...).

    Returns
    -------
    fig : BookFigure
    axes : Axes or array of Axes (as :meth:`Figure.subplots` returns them)
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = BookFigure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, **kwargs)
    return fig, axes


class ArmDrawing:
    """One arm on one axes: links, joints, tip force and velocity, joint torques, ellipses.

    Parameters
    ----------
    ax : matplotlib Axes
    arm : PlanarArm
    q : (n,) array_like
        Joint angles [rad].
    tip_force : (2,) array_like, optional
        Force the tip applies [N]; drawn as an arrow from the tip.
    tau : (n,) array_like, optional
        Joint torques [N m]; drawn as curved arrows round the joints,
        counter-clockwise for positive torque.
    ellipse_torque : float, optional
        Draw the ellipse of tip forces held with ``|tau| <= ellipse_torque`` [N m].
    weights : bool
        Draw each link's weight at its centre of mass.
    coms : bool, optional
        Mark each link's centre of mass with the quartered-circle symbol, distinct
        from the joints' open circles (:data:`MARKER_WORDS` names both for a
        caption, :func:`marker_legend` for a legend). Default: with ``weights``.
    force_scale : float
        Length of the force arrow per newton [m/N].
    torque_scale : float
        Torque drawn as the longest arc, 300 degrees [N m].
    torque_radius : float
        Radius of the torque arcs [m].
    labels : bool
        Write the torque and force values next to their arrows.
    qd : (n,) array_like, optional
        Joint velocities [rad/s]; with ``velocity=True``, the tip velocity
        ``J qd`` is drawn as an arrow from the tip and the velocity ellipse of
        joint speeds of the same size around it.
    velocity : bool
        Make the tip-velocity arrow and the velocity ellipse.
    columns : bool
        Draw the Jacobian's columns at the tip (the tip velocity when joint
        ``j`` alone turns at 1 rad/s) and, dashed, the lever ``p_tip - p_j``
        each is perpendicular to.
    velocity_time : float
        Velocities are drawn as the displacement they make in this time [s],
        so the drawing scales with the arm.

    Attributes
    ----------
    artists : dict
        ``"links"``, ``"joints"``, ``"force"``, ``"torque_arcs"``,
        ``"torque_heads"``, ``"torque_labels"``, ``"torque_text"``, ``"ellipse"``,
        ``"weights"``, ``"coms"`` and ``"com_quarters"`` (the centre-of-mass
        marker's two layers; empty without ``coms``); with ``velocity``, ``"velocity"`` and
        ``"velocity_ellipse"``; with ``columns``, ``"columns"``, ``"levers"`` and
        ``"column_labels"`` (lists, one per joint).

    Notes
    -----
    The constructor takes many keywords because each switches one element of the
    drawing on or sets its scale; every one has a default, and the drawing of each
    element is one method (``_make_*`` and ``_update_*``).
    """

    def __init__(self, ax, arm, q, tip_force=None, tau=None, *, ellipse_torque=None,
                 weights=False, force_scale=0.01, torque_scale=20.0, torque_radius=0.07,
                 labels=True, color=None, qd=None, velocity=False, columns=False,
                 velocity_time=0.25, coms=None):
        self.ax, self.arm = ax, arm
        self.velocity_time = velocity_time
        self.force_scale, self.torque_scale = force_scale, torque_scale
        self.torque_radius, self.labels = torque_radius, labels
        self.ellipse_torque = ellipse_torque
        a = self.artists = {}
        reach = sum(arm.lengths)
        ax.plot([-0.06 * reach, 0.06 * reach], [0, 0], color=COLORS["arm"], lw=3,
                solid_capstyle="butt", zorder=2)
        ax.fill_between([-0.06 * reach, 0.06 * reach], [-0.035 * reach] * 2, [0, 0],
                        hatch="////", facecolor="none", edgecolor=COLORS["weight"], lw=0,
                        zorder=1)
        (a["links"],) = ax.plot([], [], color=color or COLORS["arm"], lw=5,
                                solid_capstyle="round", zorder=3)
        (a["joints"],) = ax.plot([], [], **joint_style(color), zorder=4)
        self.coms = weights if coms is None else bool(coms)
        face, quarters = com_styles(color)
        (a["coms"],) = ax.plot([], [], **face, zorder=6, visible=self.coms)
        (a["com_quarters"],) = ax.plot([], [], **quarters, zorder=6, visible=self.coms)
        a["ellipse"] = Ellipse((0, 0), 0, 0, facecolor=COLORS["ellipse"] + "33",
                               edgecolor=COLORS["ellipse"], lw=1.5, zorder=0, visible=False)
        ax.add_patch(a["ellipse"])
        a["force"] = _arrow(arrowstyle="-|>", mutation_scale=18,
                                     color=COLORS["force"], lw=2.5, zorder=6, visible=False)
        ax.add_patch(a["force"])
        a["force_label"] = ax.text(0, 0, "", color=COLORS["force"], zorder=7,
                                   ha="center", va="bottom")
        a["torque_text"] = ax.text(0.03, 0.97, "", transform=ax.transAxes, ha="left", va="top",
                                   color=COLORS["torque"], zorder=7,
                                   bbox=dict(facecolor="white", edgecolor="none", alpha=0.8))
        self._make_torques()
        self._make_weights(weights)
        if velocity:
            self._make_velocity()
        if columns:
            self._make_columns()
        ax.set_aspect("equal")
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        self.update(q, tip_force, tau, qd=qd)

    def _make_torques(self):
        """One arc, one arrow head and one label per joint, for its torque."""
        ax, a = self.ax, self.artists
        a["torque_arcs"], a["torque_heads"], a["torque_labels"] = [], [], []
        for _ in range(self.arm.n):
            (arc,) = ax.plot([], [], color=COLORS["torque"], lw=2, zorder=5)
            head = _arrow(arrowstyle="-|>", mutation_scale=14,
                                   color=COLORS["torque"], lw=0, zorder=5, visible=False)
            ax.add_patch(head)
            a["torque_arcs"].append(arc)
            a["torque_heads"].append(head)
            a["torque_labels"].append(ax.text(0, 0, "", color=COLORS["torque"],
                                              ha="right", va="top", zorder=7))

    def _make_weights(self, weights):
        """One arrow per link for its weight (none without ``weights``)."""
        ax, a = self.ax, self.artists
        a["weights"] = []
        if weights:
            for _ in range(self.arm.n):
                w = _arrow(arrowstyle="-|>", mutation_scale=12,
                                    color=COLORS["weight"], lw=1.5, zorder=5)
                ax.add_patch(w)
                a["weights"].append(w)

    def _make_velocity(self):
        """The tip-velocity arrow and the velocity ellipse."""
        ax, a = self.ax, self.artists
        a["velocity_ellipse"] = Ellipse((0, 0), 0, 0, facecolor=COLORS["speed_ellipse"] + "40",
                                        edgecolor=COLORS["speed_ellipse"], lw=1.5, zorder=1)
        ax.add_patch(a["velocity_ellipse"])
        a["velocity"] = _arrow(arrowstyle="-|>", mutation_scale=16,
                                        color=COLORS["velocity"], lw=2.5, zorder=6)
        ax.add_patch(a["velocity"])

    def _make_columns(self):
        """Per joint: the Jacobian's column at the tip, its lever (dashed) and its label."""
        ax, a = self.ax, self.artists
        a["columns"], a["levers"], a["column_labels"] = [], [], []
        for j in range(self.arm.n):
            c = COLORS["columns"][j % len(COLORS["columns"])]
            (lever,) = ax.plot([], [], ls="--", lw=1.2, color=c, zorder=2)
            arrow = _arrow(arrowstyle="-|>", mutation_scale=14,
                                    color=c, lw=2, zorder=6)
            ax.add_patch(arrow)
            a["levers"].append(lever)
            a["columns"].append(arrow)
            a["column_labels"].append(ax.text(0, 0, f"J col {j + 1}", color=c,
                                              ha="center", va="center", zorder=7))

    def update(self, q, tip_force=None, tau=None, ellipse_torque=None, qd=None):
        """Move every artist to a new pose and load, in place.

        Parameters are those of the constructor; ``None`` hides the arrow (or,
        for ``ellipse_torque``, keeps the size given before; for ``qd``, draws
        the velocity ellipse of 1 rad/s and no velocity arrow).
        """
        a = self.artists
        self.q = np.asarray(q, dtype=float)
        p = joint_positions(self.arm, self.q)
        a["links"].set_data(p[:, 0], p[:, 1])
        a["joints"].set_data(p[:-1, 0], p[:-1, 1])
        self._update_force(p[-1], tip_force)
        self._update_torques(p, tau)
        self._update_ellipses(p[-1], ellipse_torque, qd)
        if "columns" in a:
            self._update_columns(p)
        self._update_masses()
        return self

    def _update_force(self, tip, tip_force):
        """The tip force's arrow and its label (hidden for no force)."""
        a = self.artists
        if tip_force is None or not np.any(tip_force):
            a["force"].set_visible(False)
            a["force_label"].set_text("")
        else:
            f = np.asarray(tip_force, dtype=float)
            a["force"].set_positions(tuple(tip), tuple(tip + self.force_scale * f))
            a["force"].set_visible(True)
            if self.labels:
                side = np.array([-f[1], f[0]]) / np.linalg.norm(f)   # beside the arrow
                if side[1] < 0:
                    side = -side
                # Anchor at the tip, text running away from the arrow's head.
                a["force_label"].set_position(tuple(tip + 0.04 * side))
                a["force_label"].set_ha("right" if f[0] > 1e-9 else
                                        "left" if f[0] < -1e-9 else "center")
                a["force_label"].set_text(f"F = ({f[0]:.1f}, {f[1]:.1f}) N")

    def _update_torques(self, p, tau):
        """Each joint's torque as an arc round it, on its free side, and the torques' text."""
        a = self.artists
        headings = np.arctan2(*(p[1:] - p[:-1]).T[::-1])   # absolute link angles
        for j in range(self.arm.n):
            arc, head, label = (a["torque_arcs"][j], a["torque_heads"][j],
                                a["torque_labels"][j])
            t = 0.0 if tau is None else float(np.asarray(tau)[j])
            centre = self._free_side(headings, j)
            spot = p[j] + (self.torque_radius + 0.05) * np.array([np.cos(centre),
                                                                  np.sin(centre)])
            label.set_position(tuple(spot))
            label.set_ha("right" if np.cos(centre) < -0.3 else
                         "left" if np.cos(centre) > 0.3 else "center")
            label.set_va("top" if np.sin(centre) < -0.3 else
                         "bottom" if np.sin(centre) > 0.3 else "center")
            label.set_text("" if tau is None or not self.labels else f"τ{j + 1}")
            if abs(t) < 1e-9:
                arc.set_data([], [])
                head.set_visible(False)
                continue
            sweep = np.sign(t) * _MAX_SWEEP * min(abs(t) / self.torque_scale, 1.0)
            sweep = np.sign(t) * max(abs(sweep), np.radians(40))      # always visible
            ang = centre - sweep / 2 + np.linspace(0, sweep, 60)
            xy = p[j] + self.torque_radius * np.stack([np.cos(ang), np.sin(ang)], axis=-1)
            arc.set_data(xy[:-4, 0], xy[:-4, 1])
            head.set_positions(tuple(xy[-6]), tuple(xy[-1]))
            head.set_visible(True)

        a["torque_text"].set_text(
            "" if tau is None or not self.labels else
            "\n".join(f"τ{j + 1} = {float(np.asarray(tau)[j]):.2f} N m"
                      for j in range(self.arm.n)))

    def _update_ellipses(self, tip, ellipse_torque, qd):
        """The force ellipse, and the velocity ellipse and arrow, at the tip."""
        a = self.artists
        if ellipse_torque is not None:
            self.ellipse_torque = ellipse_torque
        if self.ellipse_torque:
            half, dirs = force_ellipse(self.arm, self.q, self.ellipse_torque)
            # a structure-carried axis is infinite: draw it very long
            _place_ellipse(a["ellipse"], tip, np.minimum(half, 1e4) * self.force_scale, dirs)
        else:
            a["ellipse"].set_visible(False)

        if "velocity" in a:
            speed = 1.0 if qd is None or not np.any(qd) else float(np.linalg.norm(qd))
            half, dirs = velocity_ellipse(self.arm, self.q, speed)
            _place_ellipse(a["velocity_ellipse"], tip, half * self.velocity_time, dirs)
            if qd is None or not np.any(qd):
                a["velocity"].set_visible(False)
            else:
                v = jacobian(self.arm, self.q) @ np.asarray(qd, dtype=float)
                a["velocity"].set_positions(tuple(tip), tuple(tip + self.velocity_time * v))
                a["velocity"].set_visible(bool(np.linalg.norm(v) > 1e-9))

    def _update_columns(self, p):
        """The Jacobian's columns at the tip and the levers they are perpendicular to."""
        a, tip = self.artists, p[-1]
        J = jacobian(self.arm, self.q)
        for j in range(self.arm.n):
            a["levers"][j].set_data([p[j, 0], tip[0]], [p[j, 1], tip[1]])
            end = tip + self.velocity_time * J[:, j]
            a["columns"][j].set_positions(tuple(tip), tuple(end))
            a["columns"][j].set_visible(bool(np.linalg.norm(J[:, j]) > 1e-9))
            a["column_labels"][j].set_position(tuple(tip + 1.25 * self.velocity_time
                                                     * J[:, j]))

    def _update_masses(self):
        """The centres of mass and the links' weights."""
        a = self.artists
        if self.coms:
            com = com_positions(self.arm, self.q)
            a["coms"].set_data(com[:, 0], com[:, 1])
            a["com_quarters"].set_data(com[:, 0], com[:, 1])
        if a["weights"]:
            com = com_positions(self.arm, self.q)
            g = np.asarray(self.arm.gravity)
            for i, w in enumerate(a["weights"]):
                w.set_positions(tuple(com[i]),
                                tuple(com[i] + self.force_scale * self.arm.masses[i] * g))

    @staticmethod
    def _free_side(headings, j):
        """Direction [rad] round joint ``j`` with the most room, away from its links."""
        out = headings[j]
        if j == 0:
            return out + np.pi
        back = headings[j - 1] + np.pi
        vx, vy = np.cos(out) + np.cos(back), np.sin(out) + np.sin(back)
        if np.hypot(vx, vy) < 1e-6:                       # a straight joint: either side
            return out - np.pi / 2
        return np.arctan2(vy, vx) + np.pi                 # bisector of the wider gap

    def frame(self, margin=0.15):
        """Set equal axis limits that show the whole reach of the arm (plus a margin) [m]."""
        r = sum(self.arm.lengths) + margin
        self.ax.set_xlim(-r, r)
        self.ax.set_ylim(-r, r)
        return self


class Workspace:
    """The annulus a planar arm's tip reaches, shaded, with its two boundary circles.

    The outer circle (radius ``sum(L)``) is reached with the arm stretched, the
    inner one with it folded; both are made of singular poses. Joints turn
    freely (no joint limits).

    Parameters
    ----------
    ax : matplotlib Axes
    arm : PlanarArm
    labels : bool
        Name the two circles by the pose that reaches them.

    Attributes
    ----------
    artists : dict
        ``"area"`` (a Wedge), ``"outer"`` and ``"inner"`` (lines),
        ``"outer_label"``, ``"inner_label"`` (texts).
    """

    def __init__(self, ax, arm, *, labels=False):
        self.ax, self.labels = ax, labels
        a = self.artists = {}
        a["area"] = Wedge((0, 0), 1.0, 0, 360, width=1.0, facecolor=COLORS["workspace"],
                          edgecolor="none", zorder=0)
        ax.add_patch(a["area"])
        (a["outer"],) = ax.plot([], [], ls=":", lw=1.2, color=COLORS["arm"], zorder=1)
        (a["inner"],) = ax.plot([], [], ls=":", lw=1.2, color=COLORS["arm"], zorder=1)
        a["outer_label"] = ax.text(0, 0, "", color=COLORS["arm"], ha="center", va="bottom",
                                   zorder=7)
        a["inner_label"] = ax.text(0, 0, "", color=COLORS["arm"], ha="center", va="top",
                                   zorder=7)
        self.update(arm)

    def update(self, arm):
        """Redraw for another arm, in place."""
        a = self.artists
        self.radii = r_min, r_max = reach(arm)
        a["area"].set_radius(r_max)
        a["area"].set_width(r_max - r_min)
        t = np.linspace(0, 2 * np.pi, 241)
        a["outer"].set_data(r_max * np.cos(t), r_max * np.sin(t))
        a["inner"].set_data(r_min * np.cos(t), r_min * np.sin(t))
        if self.labels:
            a["outer_label"].set_position((0, r_max))
            a["outer_label"].set_text(f"stretched, q2 = 0: r = {r_max:.2f} m")
            a["inner_label"].set_position((0, -r_min))
            a["inner_label"].set_text(f"folded, q2 = 180°: r = {r_min:.2f} m" if r_min > 0
                                      else "")
        return self


def manipulability_map(ax, arm, step_deg=2.0, vmax=None):
    """The workspace of a two-link arm, coloured by the manipulability of the pose there.

    The poses ``q1`` in a full turn and ``q2`` from 0 to 180 degrees (elbow on
    one side) reach every point of the workspace once; their tips
    (:func:`armlab.tip_position`) form a curved mesh, each node coloured by
    :func:`armlab.manipulability`. The colour is zero on the boundary circles.

    Parameters
    ----------
    ax : matplotlib Axes
    arm : PlanarArm
        Two joints.
    step_deg : float
        Grid step of both joint angles [deg].
    vmax : float, optional
        Top of the colour scale [m^2/rad^2]; default ``L1 L2``, the largest.

    Returns
    -------
    matplotlib.collections.QuadMesh
        The mesh (for a colour bar).
    """
    q1 = np.radians(np.arange(-180.0, 180.0 + step_deg / 2, step_deg))
    q2 = np.radians(np.arange(0.0, 180.0 + step_deg / 2, step_deg))
    q = np.stack(np.meshgrid(q1, q2, indexing="ij"), axis=-1)
    tips = tip_position(arm, q)
    mesh = ax.pcolormesh(tips[..., 0], tips[..., 1], manipulability(arm, q), shading="gouraud",
                         cmap="viridis", vmin=0, vmax=vmax or float(np.prod(arm.lengths)),
                         zorder=1)
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    return mesh


def force_box(ax_torque, ax_force, arm, q, limit, direction=(1.0, 0.0), *, force_top=None):
    """The per-joint torque box and the parallelogram of tip forces it holds, side by side.

    Left, the torques: the box ``|tau_j| <= limit``, the disc ``|tau| <= limit``
    inside it, and ``J^T F`` for the largest push along ``direction``. Right, the
    tip forces: the parallelogram ``F = J^{-T} tau`` over the box, the force
    ellipse of the disc (inscribed in it), and the push itself, from zero to
    where it leaves the parallelogram.

    Parameters
    ----------
    ax_torque, ax_force : matplotlib Axes
    arm : PlanarArm
        Two joints.
    q : (2,) array_like
        Joint angles [rad]; not singular.
    limit : float
        Symmetric torque limit per joint [N m].
    direction : (2,) array_like
        Direction of the push [world frame].
    force_top : float, optional
        Half-width of the force axes [N]; default: fits the parallelogram.

    Returns
    -------
    dict
        ``"corners"`` (4, 2) [N] and ``"push"`` (2,) [N], as drawn, and the
        artists ``"box"``, ``"polygon"``, ``"ellipse"``, ``"ray"``.
    """
    d = np.asarray(direction, dtype=float) / np.linalg.norm(direction)
    corners = force_polygon(arm, q, limit)
    push = float(max_tip_force(arm, q, d, limit)) * d
    tau_push = static_torques(arm, q, push)
    t = np.linspace(0, 2 * np.pi, 200)

    box = Rectangle((-limit, -limit), 2 * limit, 2 * limit, facecolor=COLORS["torque"] + "22",
                    edgecolor=COLORS["torque"], lw=1.5)
    ax_torque.add_patch(box)
    ax_torque.plot(limit * np.cos(t), limit * np.sin(t), color=COLORS["ellipse"], lw=1.5)
    ax_torque.plot([0, tau_push[0]], [0, tau_push[1]], color=COLORS["force"], lw=2)
    ax_torque.plot(*tau_push, "o", color=COLORS["force"])
    ax_torque.annotate(f"Jᵀ F = ({tau_push[0]:.0f}, {tau_push[1]:.0f}) N m", tau_push,
                       textcoords="offset points", xytext=(0, -8 if tau_push[1] < 0 else 8),
                       ha="center" if abs(tau_push[0]) < 0.5 * limit else
                       ("left" if tau_push[0] < 0 else "right"),
                       va="top" if tau_push[1] < 0 else "bottom", color=COLORS["force"])
    top = 1.5 * limit
    ax_torque.set_xlim(-top, top)
    ax_torque.set_ylim(-top, top)
    ax_torque.set_aspect("equal")
    ax_torque.set_xlabel("τ1 [N m]")
    ax_torque.set_ylabel("τ2 [N m]")
    ax_torque.grid(alpha=0.3)

    polygon = Polygon(corners, closed=True, facecolor=COLORS["torque"] + "22",
                      edgecolor=COLORS["torque"], lw=1.5)
    ax_force.add_patch(polygon)
    half, dirs = force_ellipse(arm, q, limit)
    ellipse = Ellipse((0, 0), 0, 0, facecolor="none", edgecolor=COLORS["ellipse"], lw=1.5)
    _place_ellipse(ellipse, (0, 0), half, dirs)
    ax_force.add_patch(ellipse)
    (ray,) = ax_force.plot([0, push[0]], [0, push[1]], color=COLORS["force"], lw=2)
    ax_force.plot(*push, "o", color=COLORS["force"])
    ax_force.annotate(f"largest push {np.linalg.norm(push):.0f} N", push,
                      textcoords="offset points", xytext=(6, -14), color=COLORS["force"])
    top = force_top or 1.15 * np.abs(corners).max()
    ax_force.set_xlim(-top, top)
    ax_force.set_ylim(-top, top)
    ax_force.set_aspect("equal")
    ax_force.set_xlabel("Fx [N]")
    ax_force.set_ylabel("Fy [N]")
    ax_force.grid(alpha=0.3)
    return {"corners": corners, "push": push, "box": box, "polygon": polygon,
            "ellipse": ellipse, "ray": ray}


class StackedBars:
    """Bars stacked from zero, positive parts upwards and negative parts downwards.

    Each bar position shows a sum of signed parts; a black tick marks the sum
    (the total). The rectangles are made once and moved in place by
    :meth:`update`.

    Parameters
    ----------
    ax : matplotlib Axes
    positions : (k,) array_like
        x positions of the bars.
    series : sequence of (key, label, colour)
        The parts, in stacking order (for example :data:`armlab.figures.inverse_dynamics.PARTS`).
    width : float
        Bar width, in x units.

    Attributes
    ----------
    rects : dict
        ``key -> list of k Rectangles``.
    totals : list of Line2D
        One tick per bar at the sum.
    """

    def __init__(self, ax, positions, series, width=0.6):
        self.ax = ax
        self.positions = np.asarray(positions, dtype=float)
        self.series = tuple(series)
        k = self.positions.size
        self.rects = {key: list(ax.bar(self.positions, np.zeros(k), width, color=color,
                                       label=label, edgecolor="white", linewidth=0.6))
                      for key, label, color in self.series}
        self.totals = [ax.plot([x - 0.6 * width, x + 0.6 * width], [0, 0], color="black",
                               lw=2.5, solid_capstyle="butt", zorder=5)[0]
                       for x in self.positions]
        ax.axhline(0, color="#404040", lw=0.8)

    def artists(self):
        """Every moving artist: the rectangles and the total ticks."""
        return [r for key, _, _ in self.series for r in self.rects[key]] + self.totals

    def update(self, values):
        """Stack ``values[key]`` (each ``(k,)``) and move the rectangles and ticks.

        Returns
        -------
        low, high : float
            The lowest and highest point drawn (for the axis limits).
        """
        up = np.zeros(self.positions.size)
        down = np.zeros(self.positions.size)
        for key, _, _ in self.series:
            part = np.asarray(values[key], dtype=float)
            bottom = np.where(part >= 0, up, down)
            for rect, b, h in zip(self.rects[key], bottom, part):
                rect.set_y(b)
                rect.set_height(h)
            up += np.maximum(part, 0)
            down += np.minimum(part, 0)
        total = up + down
        for tick, t in zip(self.totals, total):
            tick.set_ydata([t, t])
        return float(down.min(initial=0.0)), float(up.max(initial=0.0))


def time_plot(ax, t, series, labels=None, ylabel="", *, limits=None):
    """Plot one or more signals against time.

    Parameters
    ----------
    ax : matplotlib Axes
    t : (k,) array_like
        Time [s].
    series : (k,) or (k, m) array_like
        The signals, one column each.
    labels : sequence of str, optional
        Legend entries, one per column.
    ylabel : str
        Axis label with its unit, e.g. ``"torque [N m]"``.
    limits : float, optional
        Draw dashed lines at ``+-limits``.

    Returns
    -------
    lines : list of Line2D
    """
    values = np.asarray(series, dtype=float)
    if values.ndim == 1:
        values = values[:, None]
    lines = ax.plot(np.asarray(t, dtype=float), values)
    if limits is not None:
        for s in (-1, 1):
            ax.axhline(s * limits, color=COLORS["limit"], ls="--", lw=1)
    if labels is not None:
        for line, label in zip(lines, labels):
            line.set_label(label)
        ax.legend(frameon=False)
    ax.set_xlabel("time t [s]")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    return lines


class StrobeDrawing:
    """A motion as a strobe photograph: the arm at a few evenly spaced instants, and the tip's path.

    Earlier poses are paler; the last pose is drawn in full. The artists are
    made once and moved by :meth:`update`, so a lab can redraw a new motion in
    place.

    Parameters
    ----------
    ax : matplotlib Axes
    arm : PlanarArm
    q : (k, n) array_like
        Joint angles along the motion, one row per recorded instant [rad].
    count : int
        Number of poses drawn, first and last included (at least 2).
    color : str, optional
        Colour of the arms; default the book's arm grey.

    Attributes
    ----------
    artists : dict
        ``"poses"`` (list of ``count`` Line2D, oldest first), ``"tip_path"``
        (Line2D), ``"base"``.
    shown : (count,) ndarray of int
        The rows of ``q`` drawn, after the last :meth:`update`.
    """

    def __init__(self, ax, arm, q, count=9, color=None):
        if not (isinstance(count, (int, np.integer)) and count >= 2):
            raise ValueError(f"count must be an integer of at least 2, got {count!r}")
        self.ax, self.arm, self.count = ax, arm, int(count)
        color = color or COLORS["arm"]
        reach = sum(arm.lengths)
        (base,) = ax.plot([-0.06 * reach, 0.06 * reach], [0, 0], color=COLORS["arm"], lw=3,
                          solid_capstyle="butt", zorder=2)
        (path,) = ax.plot([], [], color=COLORS["force"], lw=1.2, ls="--", zorder=1,
                          label="tip path")
        poses = []
        for i in range(self.count):
            last = i == self.count - 1
            (line,) = ax.plot([], [], "-o", color=color, lw=3.5 if last else 2.0,
                              ms=5 if last else 3, mfc="white",
                              alpha=1.0 if last else 0.15 + 0.55 * i / (self.count - 1),
                              zorder=3 + i)
            poses.append(line)
        self.artists = {"poses": poses, "tip_path": path, "base": base}
        ax.set_aspect("equal")
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        self.update(q)

    def update(self, q):
        """Draw a new motion ``q`` ``(k, n)`` [rad] with the same artists."""
        q = np.asarray(q, dtype=float)
        if q.ndim != 2 or q.shape[1] != self.arm.n or q.shape[0] < 1:
            raise ValueError(f"q has shape {q.shape}: expected (k, {self.arm.n}) angles "
                             "along the motion")
        points = joint_positions(self.arm, q)                       # (k, n + 1, 2)
        self.artists["tip_path"].set_data(points[:, -1, 0], points[:, -1, 1])
        self.shown = np.round(np.linspace(0, len(q) - 1, self.count)).astype(int)
        for line, k in zip(self.artists["poses"], self.shown):
            line.set_data(points[k, :, 0], points[k, :, 1])
        return self

    def frame(self, margin=0.05):
        """Equal axis limits that show the whole reach of the arm plus ``margin`` [m]."""
        r = sum(self.arm.lengths) + margin
        self.ax.set_xlim(-r, r)
        self.ax.set_ylim(-r, r)
        return self

    def fit(self, margin=0.05):
        """Axis limits that hold the base and every drawn pose and path, plus ``margin`` [m]."""
        xy = [np.zeros((1, 2))]
        for line in self.artists["poses"] + [self.artists["tip_path"]]:
            xy.append(np.asarray(line.get_xydata(), dtype=float).reshape(-1, 2))
        xy = np.concatenate(xy)
        self.ax.set_xlim(xy[:, 0].min() - margin, xy[:, 0].max() + margin)
        self.ax.set_ylim(xy[:, 1].min() - margin, xy[:, 1].max() + margin)
        return self


_PLAYER = """<div class="armlab-animation" id="{uid}" style="max-width:{px}px;margin:0 auto">
<img id="{uid}-img" src="{first}" alt="{alt}" style="width:100%;height:auto">
<div style="display:flex;align-items:center;gap:0.5em;white-space:nowrap">
<button type="button" id="{uid}-play" aria-label="play or pause"
 style="min-width:6em">\u25b6 play</button>
<input type="range" id="{uid}-slider" min="0" max="{last}" value="0" step="1"
 aria-label="frame" style="flex:1">
<span id="{uid}-time" style="font-family:monospace">t = {t0}</span>
</div>
<script>
(function () {{
  var frames = {frames}, times = {times};
  var img = document.getElementById("{uid}-img");
  var slider = document.getElementById("{uid}-slider");
  var button = document.getElementById("{uid}-play");
  var clock = document.getElementById("{uid}-time");
  var timer = null;
  function show(k) {{
    img.src = frames[k]; slider.value = k; clock.textContent = "t = " + times[k];
  }}
  function stop() {{
    clearInterval(timer); timer = null; button.textContent = "\u25b6 play";
  }}
  slider.addEventListener("input", function () {{ stop(); show(+slider.value); }});
  button.addEventListener("click", function () {{
    if (timer !== null) {{ stop(); return; }}
    var k = +slider.value >= frames.length - 1 ? 0 : +slider.value;
    show(k);
    button.textContent = "\u23f8 pause";
    timer = setInterval(function () {{
      if (k >= frames.length - 1) {{ stop(); return; }}
      show(++k);
    }}, {interval});
  }});
}})();
</script>
</div>"""


class Player(str):
    """The HTML of an animation player (a ``str``), shown as the player when it is a cell's
    value. In a chapter, the cell's ``mystnb: figure`` metadata (``name``, ``caption``)
    numbers and captions it like any figure, and ``image: alt`` is not needed: the player's
    frames carry the alt text given to :func:`animation_html`."""

    def _repr_html_(self):
        return str(self)


def animation_html(arm, time, q, *, frames=50, interval=80, width=4.4, pixel_ratio=1,
                   dpi=None, title=None, alt="an animation of the arm's motion"):
    """A self-contained HTML player of a motion: every frame inside the page, nothing fetched.

    The frames are PNG images in data URIs, played by a few lines of inline
    JavaScript (a play/pause button and a frame slider), so the page shows the
    motion offline, without a kernel and without loading anything from
    another host. Each frame redraws only the moving artists over a cached
    background. The player is as wide as the figure (``width * DPI`` screen
    pixels, or the column if that is narrower), like every figure of the book.

    Parameters
    ----------
    arm : PlanarArm
    time : (k,) array_like
        Recorded times [s].
    q : (k, n) array_like
        Joint angles at those times [rad].
    frames : int
        Number of frames, spread evenly over the motion (first and last included).
    interval : float
        Time between frames when playing [ms]. The motion is slowed down by
        ``interval`` divided by the simulated time between frames.
    width : float
        Figure size (square) [inch of :data:`DPI` screen pixels].
    pixel_ratio : int
        Image pixels per screen pixel; the page grows by about one small PNG
        per frame, four times larger at 2.
    dpi : float, optional
        Image pixels per inch instead (a small test player).
    title : str, optional
        Above the arm.
    alt : str
        Text alternative of the image, for a screen reader.

    Returns
    -------
    html : Player
        A ``<div>`` with the frames, the controls and their script; a ``str``
        that shows itself as HTML in Jupyter.
    """
    import base64
    import hashlib
    import html as html_lib
    import json

    t = np.asarray(time, dtype=float)
    q = np.asarray(q, dtype=float)
    if t.ndim != 1 or q.shape != (t.size, arm.n):
        raise ValueError(f"time has shape {t.shape} and q {q.shape}: expected (k,) and "
                         f"(k, {arm.n})")
    if not (isinstance(frames, (int, np.integer)) and frames >= 2):
        raise ValueError(f"frames must be an integer of at least 2, got {frames!r}")
    rows = np.round(np.linspace(0, t.size - 1, frames)).astype(int)
    fig, ax = figure(width=width, height=width)
    fig.set_dpi(float(dpi or DPI * pixel_ratio))
    drawing = ArmDrawing(ax, arm, q[rows[0]], labels=False)
    drawing.frame(margin=0.05)
    (path,) = ax.plot([], [], color=COLORS["force"], lw=1.0, ls="--")
    if title:
        ax.set_title(title)
    blit = Blitter(fig, [drawing.artists["links"], drawing.artists["joints"], path])
    blit.draw()
    text = smallest_text(fig)
    tips = joint_positions(arm, q)[:, -1]
    images = []
    for k in rows:
        drawing.update(q[k])
        path.set_data(tips[:k + 1, 0], tips[:k + 1, 1])
        blit.draw()
        png = blit.png(6, colors=64, text=text)
        images.append("data:image/png;base64," + base64.b64encode(png).decode())
    labels = [f"{t[k]:.3f} s" for k in rows]
    uid = "anim-" + hashlib.sha1("".join(images).encode()).hexdigest()[:10]   # same page, same id
    return Player(_PLAYER.format(uid=uid, px=png.width, first=images[0],
                                 alt=html_lib.escape(alt, quote=True), last=len(images) - 1,
                                 t0=labels[0], frames=json.dumps(images),
                                 times=json.dumps(labels), interval=float(interval)))
