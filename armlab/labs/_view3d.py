"""The spatial labs' 3-D view: a scene built in Python, drawn and turned by a small script.

A :class:`Scene` is a list of polylines, arrows and labels in world coordinates
[m], z up: plain data, a dict that :meth:`Scene.as_dict` hands over as JSON. One
script, ``armlab/labs/static/armlab_view3d.js`` (no library; a 2-D canvas and an
orthographic projection), draws it and turns it when it is dragged:

* in the book's static page, :func:`static_html` writes the scene into a
  ``<div class="armlab-view3d">``; the book serves the script from its
  ``_static`` folder (``_ext/armlab_book.py`` adds it to the spatial pages), so
  the view turns with no kernel, no server and nothing fetched from elsewhere;
* in Jupyter, :func:`view_widget` wraps the same script in an ``anywidget``
  widget whose ``scene`` trait the lab replaces on each update; the viewer's own
  turn of the view is kept in the browser.

The script draws every line in the order given, without hidden-line removal: a
wire frame, as the book's 3-D figures are.
"""

import html
import json
import pathlib

import numpy as np

__all__ = ["Scene", "static_html", "view_widget", "SCRIPT"]

#: The view's script, as the book serves it (``_static/armlab_view3d.js``).
SCRIPT = pathlib.Path(__file__).with_name("static") / "armlab_view3d.js"


def _points(points):
    return np.round(np.asarray(points, dtype=float), 5).tolist()


class Scene:
    """Polylines, arrows and labels in world coordinates [m], for :func:`static_html` or
    :func:`view_widget`.

    Parameters
    ----------
    center : (3,) array_like
        The point the view turns about [m].
    radius : float
        Half the size of the box the view shows around ``center`` [m].
    yaw, pitch : float
        The view's first direction [deg]: turn about z, then tilt towards the viewer.
    height : int
        The canvas's height [px].

    Examples
    --------
    >>> s = Scene(center=(0, 0, 0.1), radius=0.3)
    >>> s.line([[0, 0, 0], [0, 0, 0.2]], color="#404040", width=4)
    >>> s.arrow([0, 0, 0.2], [0.1, 0, 0], color="#D55E00")
    >>> d = s.as_dict()
    >>> d["lines"][0]["points"], d["arrows"][0]["vector"]
    ([[0.0, 0.0, 0.0], [0.0, 0.0, 0.2]], [0.1, 0.0, 0.0])
    """

    def __init__(self, center, radius, yaw=-60.0, pitch=20.0, height=420):
        self.center = _points(center)
        self.radius = float(radius)
        self.yaw, self.pitch, self.height = float(yaw), float(pitch), int(height)
        self.lines, self.arrows, self.labels = [], [], []

    def line(self, points, color, width=1.0, dash=False):
        """A polyline through ``points`` ((k, 3) [m]), ``width`` in screen pixels."""
        self.lines.append({"points": _points(points), "color": color, "width": float(width),
                           "dash": bool(dash)})

    def arrow(self, start, vector, color, width=2.0, heads=1):
        """An arrow from ``start`` along ``vector`` [m]; two heads for a moment."""
        self.arrows.append({"start": _points(start), "vector": _points(vector),
                            "color": color, "width": float(width), "heads": int(heads)})

    def label(self, at, text, color="#222222"):
        """Text at a point [m]."""
        self.labels.append({"at": _points(at), "text": str(text), "color": color})

    def frame(self, T, length, width=1.5, text=None):
        """A frame's three unit axes, red x, green y, blue z, ``length`` [m] long, at the
        pose ``T`` ((4, 4) homogeneous transform)."""
        T = np.asarray(T, dtype=float)
        for k, color in enumerate(("#d62728", "#2ca02c", "#1f77b4")):
            self.line([T[:3, 3], T[:3, 3] + length * T[:3, k]], color=color, width=width)
        if text:
            self.label(T[:3, 3], text)

    def ellipsoid(self, center, half, directions, color, width=1.0, rings=6, steps=36):
        """A wire-frame ellipsoid: half-axes ``half`` (3,) [m] along the columns of
        ``directions`` (3, 3), drawn as ``rings`` meridians and parallels."""
        t = np.linspace(0, 2 * np.pi, steps + 1)
        axes = np.asarray(directions, dtype=float) * np.asarray(half, dtype=float)
        c = np.asarray(center, dtype=float)
        for k in range(rings):                        # meridians
            a = np.pi * k / rings
            ball = np.stack([np.cos(t) * np.cos(a), np.cos(t) * np.sin(a), np.sin(t)])
            self.line(c + (axes @ ball).T, color=color, width=width)
        for z in np.linspace(-1, 1, rings + 1)[1:-1]:  # parallels
            r = np.sqrt(1 - z * z)
            ball = np.stack([r * np.cos(t), r * np.sin(t), np.full_like(t, z)])
            self.line(c + (axes @ ball).T, color=color, width=width)

    def as_dict(self):
        """The scene as plain data (what the script reads)."""
        return {"center": self.center, "radius": self.radius, "yaw": self.yaw,
                "pitch": self.pitch, "height": self.height, "lines": self.lines,
                "arrows": self.arrows, "labels": self.labels}


def static_html(scene, label):
    """The scene as a page's HTML: a ``div`` that the book's script turns into the view.

    ``label`` is the view's text alternative (read by a screen reader: what the view
    shows). The page must load the script (the spatial chapters do).

    Examples
    --------
    >>> print(static_html(Scene((0, 0, 0), 1.0), "an empty view")[:60])
    <div class="armlab-view3d" role="figure" data-label="an empt
    """
    data = html.escape(json.dumps(scene.as_dict(), separators=(",", ":")), quote=True)
    text = html.escape(label, quote=True)
    return (f'<div class="armlab-view3d" role="figure" data-label="{text}" '
            f'aria-label="{text}" data-scene="{data}" style="max-width:640px"></div>')


def view_widget(scene):
    """The scene as a live Jupyter widget (``anywidget``); set its ``scene`` trait to
    :meth:`Scene.as_dict` of a new scene to redraw it, the viewer's turn kept."""
    import anywidget
    import traitlets

    class View3D(anywidget.AnyWidget):
        _esm = SCRIPT.read_text() + """
export default {
  render({ model, el }) {
    const view = armlabView3d.mount(el, model.get("scene"), "3-D view of the arm");
    model.on("change:scene", () => view.setScene(model.get("scene")));
  },
};
"""
        scene = traitlets.Dict().tag(sync=True)

    return View3D(scene=scene.as_dict())
