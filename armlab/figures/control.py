"""The control chapter's figures: runs over time, one axes per joint and quantity, the move
shaded (:func:`joint_time_figure`), and a map of the error over a grid of gains
(:func:`draw_gain_map`, on an axes the chapter lays out).

Drawing only: every number comes in computed by :mod:`armlab` (:func:`armlab.simulate`,
:func:`armlab.gain_map`).
"""

import numpy as np
from matplotlib.colors import LogNorm
from matplotlib.patches import Patch, Rectangle

from armlab import plots

__all__ = ["CONTROLLER_COLORS", "joint_time_figure", "draw_gain_map"]

#: One colour per controller, the same in every figure of the chapter (Okabe-Ito).
CONTROLLER_COLORS = {
    "PID": "#000000",
    "PD + gravity": "#E69F00",
    "feed-forward + PID": "#0072B2",
    "computed torque": "#009E73",
}


def joint_time_figure(rows, plan, *, titles=("shoulder", "elbow"), width=None, row_height=2.8,
                      until=None, legend_loc="best"):
    """Runs over time, one column per joint and one row per quantity, the move shaded.

    Parameters
    ----------
    rows : list of (runs, ylabel, log)
        One row of axes each. ``runs`` maps a label to ``(t, values)`` or
        ``(t, values, style)``: ``t`` of shape ``(k,)`` [s], ``values`` of
        shape ``(k, n)``, ``style`` a dict of line properties (``color``,
        ``ls``, ...; the colour defaults to :data:`CONTROLLER_COLORS` for a
        controller's name). ``ylabel`` names the quantity with its unit;
        ``log`` puts the y axis on a log scale (pass magnitudes then).
    plan : Quintic
        The move; ``0 <= t <= plan.duration`` is shaded grey.
    titles : sequence of str
        One per joint (column).
    width : float, optional
        Figure width [inch]; default the page's, :data:`armlab.plots.PAGE_WIDTH`.
    row_height : float
        The height of one row [inch].
    until : float, optional
        The time axis ends here [s]; default ``plan.end_time``.
    legend_loc : str
        Where each row's legend goes in its last axes, or ``"below"``: one
        legend for the whole figure, under it (the first row's lines).

    Returns
    -------
    fig : armlab.plots.BookFigure
    """
    n = len(titles)
    fig, axes = plots.figure(ncols=n, nrows=len(rows), width=width or plots.PAGE_WIDTH,
                             height=row_height * len(rows), sharex=True, squeeze=False)
    end = plan.end_time if until is None else until
    for r, (runs, ylabel, log) in enumerate(rows):
        for j, ax in enumerate(axes[r]):
            if end > plan.duration:
                ax.axvspan(0, plan.duration, color="0.92", zorder=0, lw=0)
            for label, run in runs.items():
                t, values = run[0], np.asarray(run[1])
                style = dict(color=CONTROLLER_COLORS.get(label), lw=1.4) | (
                    run[2] if len(run) > 2 else {})
                ax.plot(t, values[:, j], label=label, **style)
            if log:
                ax.set_yscale("log")
            if r == 0:
                ax.set_title(titles[j])
            if r == len(rows) - 1:
                ax.set_xlabel("time t [s]")
            ax.set_xlim(0, end)
            ax.grid(alpha=0.3)
        axes[r, 0].set_ylabel(ylabel)
        if legend_loc != "below":
            axes[r, -1].legend(frameon=False, loc=legend_loc)
    if legend_loc == "below":
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", frameon=False,
                   ncol=min(len(labels), 2 if sum(map(len, labels)) < 60 else 1))
    return fig


def _edges(centres):
    """Cell edges for values spaced evenly on a log axis (geometric midpoints)."""
    c = np.log(np.asarray(centres, dtype=float))
    mid = (c[1:] + c[:-1]) / 2
    return np.exp(np.concatenate([[2 * c[0] - mid[0]], mid, [2 * c[-1] - mid[-1]]]))


def draw_gain_map(ax, gain_map, *, joint=0, vmin=0.01, vmax=30.0, mark=None):
    """Draw a :class:`armlab.tuning.GainMap` on ``ax``: the error as colour, the limits hatched.

    The colour is the largest error during the move [deg] (log scale), over
    the joints; ``//`` marks the gains whose knocked run hits the torque limit,
    ``xx`` those whose run on the plan already does; grey cells diverged. Axes
    are the gains of joint ``joint`` (log scales).

    Parameters
    ----------
    ax : matplotlib Axes
    gain_map : GainMap
    joint : int
        Whose gains label the axes.
    vmin, vmax : float
        Colour range [deg].
    mark : (kp, kd), optional
        Gains to mark with a star.

    Returns
    -------
    mesh : QuadMesh
        For a colour bar.
    """
    kp, kd = gain_map.kp[:, joint], gain_map.kd[:, joint]
    x_edges, y_edges = _edges(kd), _edges(kp)
    error = np.degrees(np.nanmax(gain_map.largest, axis=-1))
    error = np.ma.masked_where(gain_map.diverged | ~np.isfinite(error), error)
    mesh = ax.pcolormesh(x_edges, y_edges, np.clip(error, vmin, vmax), shading="flat",
                         norm=LogNorm(vmin, vmax), cmap="viridis")
    ax.set_facecolor("0.75")                                  # diverged cells show grey
    levels = [lv for lv in (0.01, 0.1, 1.0, 10.0) if vmin < lv < vmax]
    handles = []
    for mask, hatch, label in ((gain_map.knocked_saturated, "///", "knocked run hits the limit"),
                               (gain_map.saturated, "xxx", "the move itself hits the limit")):
        if mask is None or not mask.any():
            continue
        for i, j in zip(*np.nonzero(mask)):
            ax.add_patch(Rectangle((x_edges[j], y_edges[i]), x_edges[j + 1] - x_edges[j],
                                   y_edges[i + 1] - y_edges[i], hatch=hatch, fill=False,
                                   lw=0, edgecolor="0.15"))
        handles.append(Patch(facecolor="0.85", edgecolor="0.2", hatch=hatch, label=label))
    # the contours over the hatching, each label on a dark box so it reads over any cell
    lines = ax.contour(kd, kp, error.filled(np.nan), levels=levels, colors="white",
                       linewidths=1.2, zorder=3)
    # a label on every piece of every line, at its middle (clabel's own placement drops
    # the labels of short pieces)
    places = [tuple(piece[len(piece) // 2]) for path in lines.get_paths()
              for piece in path.to_polygons(closed_only=False) if len(piece) > 1]
    for text in ax.clabel(lines, fmt=lambda v: f"{v:g}°", inline=False, manual=places):
        text.set_bbox(dict(boxstyle="round,pad=0.15", facecolor="black", alpha=0.75, lw=0))
        text.set_zorder(5)
    if mark is not None:
        ax.plot(mark[1], mark[0], marker="*", ms=13, mfc="white", mec="black", ls="none",
                zorder=4)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(x_edges[0], x_edges[-1])
    ax.set_ylim(y_edges[0], y_edges[-1])
    # below the axes: inside, it would hide the map's corners, where the limits bind
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=1,
              frameon=False)
    return mesh
