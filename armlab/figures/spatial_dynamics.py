"""The spatial dynamics chapter's figures: the payload an arm holds against its rated torques
over a sweep of one joint (:func:`payload_figure`), and a free swing with its energy error
(:func:`swing_figure`).

Drawing only: every number comes in computed by :mod:`armlab.spatial`. Each returns a
:class:`armlab.plots.BookFigure` at the book's size.
"""

import numpy as np

from armlab import plots

__all__ = ["payload_figure", "swing_figure"]

JOINT_COLORS = ("#7F7F7F", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")


def payload_figure(angle, capacity, joint, names, marked):
    """The payload capacity against one joint's angle, coloured by the joint that limits it.

    Parameters
    ----------
    angle : (k,) array_like
        The swept joint's angle [deg].
    capacity : (k,) array_like
        The largest payload at the flange [kg].
    joint : (k,) array_like of int
        The joint that reaches its rated torque first.
    names : sequence of str
        The joints' names.
    marked : (float, float)
        A pose to mark: (angle [deg], capacity [kg]).

    Returns
    -------
    BookFigure
    """
    fig, ax = plots.figure(height=3.8)
    angle, capacity, joint = (np.asarray(x) for x in (angle, capacity, joint))
    for j in np.unique(joint):
        on = joint == j
        ax.plot(angle[on], capacity[on], "o", ms=4, color=JOINT_COLORS[j],
                label=f"limited by {names[j]}")
    ax.plot(*marked, "k*", ms=14, label="worked pose")
    ax.set_xlabel("shoulder-lift angle q2 [deg]")
    ax.set_ylabel("payload capacity [kg]")
    ax.set_ylim(0, None)
    ax.grid(alpha=0.3)
    ax.legend(frameon=False, loc="upper left")
    return fig


def swing_figure(t, q, names, errors):
    """A free swing's joint angles (top) and the energy error of several runs (bottom, log).

    Parameters
    ----------
    t : (k,) array_like
        Time [s] of the angles.
    q : (k, n) array_like
        Joint angles [rad], drawn in degrees.
    names : sequence of str
        The joints' names.
    errors : sequence of (label, t, error)
        Per run: its legend entry, its times [s] and ``|E(t) - E(0)|`` [J].

    Returns
    -------
    BookFigure
    """
    fig, (ax_q, ax_e) = plots.figure(nrows=2, height=7.0, sharex=True)
    for j, name in enumerate(names):
        ax_q.plot(t, np.degrees(np.asarray(q)[:, j]), color=JOINT_COLORS[j], lw=2, label=name)
    ax_q.set_ylabel("joint angle [deg]")
    low, high = ax_q.get_ylim()
    ax_q.set_ylim(low, high + 0.5 * (high - low))            # room for the legend
    ax_q.legend(frameon=False, ncol=3, loc="upper left", handlelength=1.2,
                columnspacing=1.0)
    styles = ["-", "--", "-", "--"]
    colors = ["#D55E00", "#D55E00", "#0072B2", "#0072B2"]
    for (label, te, e), ls, color in zip(errors, styles, colors):
        te, e = np.asarray(te), np.asarray(e)
        ax_e.semilogy(te[1:], e[1:], ls=ls, color=color, lw=2, label=label)
    ax_e.set_xlabel("time t [s]")
    ax_e.set_ylabel("energy error |E − E(0)| [J]")
    ax_e.legend(frameon=False, ncol=2, loc="lower right")
    for ax in (ax_q, ax_e):
        ax.grid(alpha=0.3)
    ax_q.tick_params(labelbottom=True)
    return fig
