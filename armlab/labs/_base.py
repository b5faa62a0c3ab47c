"""What every lab shares: presets, widgets driven from Python, a figure redrawn in place.

A chapter's lab subclasses :class:`Lab` and fills in four things:

* :attr:`Lab.presets` and :attr:`Lab.default_preset` (class attributes): preset name ->
  the controls' values, and the one it opens with (its own state, if any, in
  :meth:`Lab.setup`);
* :meth:`Lab.build`: make the control widgets (``self.widgets``), the figure
  (``self.figure``) and its moving artists (``self.artists``, a dict of artists
  or lists of artists; every one of them is redrawn on each update);
* :meth:`Lab.compute`: the lab's values (a dict) from the controls, with
  :mod:`armlab`'s functions;
* :meth:`Lab.draw` (move the artists to the values) and :meth:`Lab.table_rows`.

The base class does the rest the same way for every chapter: its constructor,
``Lab(preset=None, render=True)``, is every lab's one factory (a chapter's
``<chapter>_lab()`` only documents and calls it); the preset dropdown and its
"(custom)" entry, one redraw per change, blitting over a cached background
(:class:`armlab.plots.Blitter`; call :meth:`Lab.rescaled` when an axis limit
changes), the PNG in an ``ipywidgets.Image`` (so the lab works in any Jupyter
front end without a plotting extension), the HTML and Markdown tables, and
display. :meth:`Lab.slider`, :meth:`Lab.checkbox`, :meth:`Lab.dropdown` and
:meth:`Lab.grid_figure` make the controls and the figure in the labs' common style.

The figure follows the book's size convention (:mod:`armlab.plots`): drawn at
the width it is shown, no wider than :data:`armlab.plots.PAGE_WIDTH`, its text
no smaller than :data:`armlab.plots.MIN_TEXT_PT`. The live image is the canvas
at one image pixel per screen pixel, shown at that width; :meth:`Lab.png`, the
still for a page, is the book's two pixels per screen pixel.

Angles are in degrees at the widgets only; everything handed to :mod:`armlab`
is in radians.
"""

import html

import numpy as np

from armlab import plots

__all__ = ["Lab", "CUSTOM", "axis_top"]

#: The dropdown's entry once a control has left the chosen preset.
CUSTOM = "(custom)"


def axis_top(value, steps=(1.0, 2.5, 5.0)):
    """The smallest of ``steps`` (1, 2.5, 5) times a power of ten that is at least ``value``.

    An axis that snaps to these few ranges rarely rescales while a slider is
    dragged (a rescale redraws the whole figure). A finer set of ``steps``
    gives tighter axes for a few more rescales.

    >>> [axis_top(x) for x in (0.9, 2.6, 23.0, 46.0, 57.5)]
    [1.0, 5.0, 25.0, 50.0, 100.0]
    >>> axis_top(10.04), axis_top(10.04, steps=(1, 1.5, 2.5, 5))
    (25.0, 15.0)
    """
    exponent = np.floor(np.log10(max(value, 1e-9)))
    for step in (*steps, 10.0):
        top = step * 10.0**exponent
        if top >= value * (1 - 1e-12):
            return float(top)
    return float(10.0 ** (exponent + 1))


def pair(x, spec, clean=6):
    """Two or more numbers as the labs' tables show them, ``(a, b)``, each formatted with
    ``spec`` after rounding to ``clean`` decimals (so rounding noise shows no minus sign).

    >>> pair([-6.5, -1e-12], ".4f")
    '(-6.5000, 0.0000)'
    """
    return "(" + ", ".join(format(round(float(v), clean) + 0.0, spec) for v in x) + ")"


class Lab:
    """Base of the chapters' labs; see the module's docstring for what a lab fills in.

    Attributes
    ----------
    widgets : dict of ipywidgets
        The controls by name, plus ``"preset"`` (dropdown), ``"table"`` (HTML)
        and ``"image"`` (the rendered figure).
    figure : matplotlib.figure.Figure
        The one figure the lab draws on.
    artists : dict
        The moving artists, by name.
    values : dict
        The last :meth:`compute` result, which the table shows.
    updates : int
        How many times the lab has redrawn.
    """

    presets = {}
    #: The preset the lab opens with, a key of :attr:`presets`.
    default_preset = None
    #: Controls in display order (names in ``widgets``); the default is every control.
    controls = ()
    #: Width of the control column's labels.
    label_width = "11em"

    def __init__(self, preset=None, render=True):
        import ipywidgets as w

        preset = self.default_preset if preset is None else preset
        if preset not in self.presets:
            raise ValueError(f"preset must be one of {list(self.presets)}, got {preset!r}")
        self.render = render
        self.updates = 0
        self._hold = False
        self.widgets = {}
        self.setup()
        self.build(dict(self.presets[preset]))
        self.widgets["preset"] = w.Dropdown(
            options=list(self.presets) + [CUSTOM], value=preset, description="preset",
            style={"description_width": self.label_width}, layout=w.Layout(width="28em"))
        self.widgets.setdefault("table", w.HTML())
        shown = round(self.figure.get_figwidth() * plots.DPI)    # screen px, as drawn
        self.widgets.setdefault(
            "image", w.Image(format="png", layout=w.Layout(width="100%", max_width=f"{shown}px")))
        self._blit = plots.Blitter(self.figure, [
            artist for value in self.artists.values()
            for artist in (value if isinstance(value, (list, tuple)) else [value])])
        for name in self.control_names():
            self.widgets[name].observe(self._on_change, names="value")
        self.widgets["preset"].observe(self._on_preset, names="value")
        self.update()

    # -- what a chapter's lab fills in ---------------------------------------------------------
    def setup(self):
        """Make the lab's own state (axis ranges kept between updates, caches) before the
        widgets and the figure are built; nothing by default."""

    def build(self, start):
        """Make ``self.widgets`` (the controls), ``self.figure`` and ``self.artists``.

        ``start`` holds the first preset's values of the controls.
        """
        raise NotImplementedError

    def compute(self):
        """The lab's values (a dict) for the current controls."""
        raise NotImplementedError

    def draw(self, values):
        """Move the artists to ``values``; call :meth:`rescaled` if an axis changed."""
        raise NotImplementedError

    def table_rows(self):
        """The table as ``(quantity, value, unit)`` rows of text."""
        raise NotImplementedError

    # -- helpers for building -----------------------------------------------------------------
    def slider(self, description, value, lo, hi, step, unit, readout=".1f"):
        """A float slider labelled with its unit, in the labs' common style."""
        import ipywidgets as w

        label = f"{description} [{unit}]" if unit else description
        return w.FloatSlider(value=value, min=lo, max=hi, step=step, description=label,
                             style={"description_width": self.label_width},
                             layout=w.Layout(width="28em"), continuous_update=True,
                             readout_format=readout)

    def checkbox(self, description, value):
        """A checkbox in the labs' common style."""
        import ipywidgets as w

        return w.Checkbox(value=value, description=description,
                          style={"description_width": self.label_width}, indent=False)

    def dropdown(self, description, options, value):
        """A dropdown menu of ``options`` in the labs' common style."""
        import ipywidgets as w

        return w.Dropdown(options=list(options), value=value, description=description,
                          style={"description_width": self.label_width},
                          layout=w.Layout(width="28em"))

    def grid_figure(self, height, nrows, ncols, **grid):
        """Make :attr:`figure`, the page's width and ``height`` [inch], on an Agg canvas, and
        return its ``nrows`` x ``ncols`` GridSpec (``grid``: margins and spacing, as
        ``Figure.add_gridspec`` takes them). Fixed margins and no layout engine: the axes
        keep their place when a range changes."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.figure = plots.BookFigure(figsize=(plots.PAGE_WIDTH, height))
        FigureCanvasAgg(self.figure)
        return self.figure.add_gridspec(nrows, ncols, **grid)

    def control_names(self):
        """The names of the controls a preset sets, in display order."""
        if self.controls:
            return list(self.controls)
        return [k for k in self.widgets if k not in ("preset", "table", "image")]

    def rescaled(self):
        """An axis limit or label changed: redraw the static background on the next update."""
        self._blit.reset()

    # -- driving the lab ---------------------------------------------------------------------
    def set_preset(self, name):
        """Move every control to a preset's values and redraw once."""
        if name not in self.presets:
            raise ValueError(f"preset must be one of {list(self.presets)}, got {name!r}")
        self._hold = True
        try:
            for key, value in self.presets[name].items():
                self.widgets[key].value = value
            if self.widgets["preset"].value != name:
                self.widgets["preset"].value = name
        finally:
            self._hold = False
        self.update()

    def _on_preset(self, change):
        if not self._hold and change["new"] != CUSTOM:
            self.set_preset(change["new"])

    def _on_change(self, change):
        if not self._hold:
            self._mark_custom()
            self.update()

    def _mark_custom(self):
        """Show "(custom)" in the dropdown once the controls leave the chosen preset."""
        preset = self.presets.get(self.widgets["preset"].value)
        if preset and any(self.widgets[k].value != v for k, v in preset.items()):
            self._hold = True
            try:
                self.widgets["preset"].value = CUSTOM
            finally:
                self._hold = False

    def update(self):
        """Recompute the values, move the artists in place, refresh the table and the image."""
        self.values = self.compute()
        self.draw(self.values)
        self.widgets["table"].value = self.table_html()
        self.updates += 1
        self.redraw()
        if self.render:
            self.widgets["image"].value = self.canvas_png()
        return self.values

    # -- drawing -------------------------------------------------------------------------------
    def redraw(self):
        """Redraw the figure on its Agg canvas: cached background, then the moving artists
        (:class:`armlab.plots.Blitter`)."""
        self._blit.draw()

    def canvas_png(self):
        """The canvas as it was last redrawn, as PNG bytes (fast, light compression)."""
        return self._blit.png()

    def png(self, dpi=None):
        """The whole figure drawn afresh for a static page: a :class:`armlab.plots.PNG`
        (bytes) that a cell shows at the figure's size, two image pixels per screen pixel.

        ``dpi`` [image pixels per inch] overrides the book's resolution.
        """
        image = plots.render_png(self.figure, dpi=dpi)
        self._blit.reset()                          # saving changes the canvas size
        return image

    # -- the table ---------------------------------------------------------------------------
    def table_html(self):
        """The table as a small HTML table."""
        rows = "".join(
            f"<tr><td style='padding:2px 10px 2px 0'>{html.escape(a)}</td>"
            f"<td style='text-align:right;padding:2px 6px'>{html.escape(b)}</td>"
            f"<td>{html.escape(c)}</td></tr>" for a, b, c in self.table_rows())
        return f"<table>{rows}</table>"

    def table_markdown(self):
        """The table as Markdown (the chapter's static view)."""
        lines = ["| quantity | value | unit |", "| --- | ---: | --- |"]
        lines += [f"| {a} | {b} | {c} |" for a, b, c in self.table_rows()]
        return "\n".join(lines)

    # -- display -----------------------------------------------------------------------------
    @property
    def widget(self):
        """The whole lab as one ipywidgets box: controls and table above the figure."""
        import ipywidgets as w

        if not hasattr(self, "_box"):
            controls = w.VBox([self.widgets["preset"]]
                              + [self.widgets[k] for k in self.control_names()])
            self._box = w.VBox([w.HBox([controls, self.widgets["table"]]),
                                self.widgets["image"]])
        return self._box

    def _ipython_display_(self):
        from IPython.display import display

        if not self.render:
            self.render = True
            self.redraw()
            self.widgets["image"].value = self.canvas_png()
        display(self.widget)
