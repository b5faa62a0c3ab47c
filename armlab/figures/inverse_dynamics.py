"""The inverse dynamics chapter's figures, one function each: the torque's parts for several
instants (:func:`parts_figure`), the mass matrix against the elbow angle
(:func:`mass_matrix_figure`), the parts along a move (:func:`move_parts_figure`), where the
motors' power goes along it (:func:`move_power_figure`), and a fit of the arm's parameters
from measured torques (:func:`identification_figure`).

Drawing only: every number comes in computed by :mod:`armlab`. Each returns a
:class:`armlab.plots.BookFigure` at the book's size.
"""

import numpy as np

from armlab import plots
from armlab.plots import StackedBars

__all__ = ["PARTS", "parts_figure", "mass_matrix_figure", "move_parts_figure",
           "move_power_figure", "identification_figure"]

#: The terms of the torque, in stacking order: (key of torque_parts, legend label, colour).
PARTS = (
    ("inertia", "M q̈ (inertia)", "#0072B2"),
    ("velocity", "c (velocity products)", "#E69F00"),
    ("gravity", "g (gravity)", "#7F7F7F"),
    ("friction", "friction", "#CC79A7"),
    ("tip", "Jᵀ F (tip force)", "#D55E00"),
)


def _legend_below(fig, ax, ncol=5):
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=ncol, frameon=False)


def parts_figure(names, parts, series=PARTS):
    """Stacked bars of the torque's parts for several instants, one panel per joint.

    Parameters
    ----------
    names : sequence of str
        One label per instant (the bars' ticks).
    parts : sequence of dict
        Per instant, the dict of :func:`armlab.torque_parts` for a two-joint
        arm ([N m]).
    series : sequence of (key, label, colour)
        The parts drawn, in stacking order.

    Returns
    -------
    BookFigure
    """
    fig, axes = plots.figure(nrows=2, height=8.2, sharex=True)
    x = np.arange(len(names))
    for j, (ax, joint) in enumerate(zip(axes, ["shoulder torque τ1", "elbow torque τ2"])):
        bars = StackedBars(ax, x, series, width=0.6)
        low, high = bars.update({key: [p[key][j] for p in parts] for key, _, _ in series})
        room = 0.08 * (high - low)
        ax.set_ylim(low - room, high + room)
        ax.set_xticks(x, names)
        ax.set_title(joint)
        ax.set_ylabel("torque [N m]")
        ax.grid(axis="y", alpha=0.3)
    axes[0].tick_params(labelbottom=True)
    _legend_below(fig, axes[0], ncol=3)
    return fig


def mass_matrix_figure(q2, M, label, det, det_labels):
    """The entries of one arm's mass matrix, and the determinants of several, against q2.

    Parameters
    ----------
    q2 : (k,) array_like
        Elbow angles [rad].
    M : (k, 2, 2) array_like
        One arm's mass matrices at those angles [kg m^2] (left panel).
    label : str
        What that arm is, for the left panel's title.
    det : (a, k) array_like
        Determinants of ``a`` arms' mass matrices [kg^2 m^4] (right panel),
        each drawn with its lowest value dashed.
    det_labels : sequence of str
        One legend entry per arm of ``det``.

    Returns
    -------
    BookFigure
    """
    fig, (ax_m, ax_d) = plots.figure(ncols=2, height=4.4)
    deg = np.degrees(q2)
    M, det = np.asarray(M), np.asarray(det)
    for (i, j), name, color in [((0, 0), "M11", "#0072B2"), ((0, 1), "M12 = M21", "#D55E00"),
                                ((1, 1), "M22", "#009E73")]:
        ax_m.plot(deg, M[:, i, j], color=color, label=name, lw=2)
    ax_m.axhline(0, color="#404040", lw=0.8)
    ax_m.set_title(f"entries of M,\n{label}")
    ax_m.set_ylabel("mass matrix entry [kg m²]")
    shades = ["#56B4E9", "#0072B2", "#003F63", "#000000"]
    for name, d, color in zip(det_labels, det, shades):
        ax_d.plot(deg, d, color=color, lw=2, label=name)
        ax_d.axhline(d.min(), color=color, lw=1, ls="--")
    ax_d.set_ylim(0, None)
    ax_d.set_title("det M\n(dashed: its lowest value)")
    ax_d.set_ylabel("det M [kg² m⁴]")
    for ax in (ax_m, ax_d):
        ax.set_xlabel("elbow angle q2 [deg]")
        ax.set_xticks(np.arange(-180, 181, 90))
        ax.grid(alpha=0.3)
    ax_m.legend(frameon=False, loc="upper left", handlelength=1.2)
    ax_d.legend(frameon=False, loc="upper center", handlelength=1.2)
    ax_d.set_ylim(0, 1.6 * np.asarray(det).max())               # room for the legend
    return fig


def move_parts_figure(t, parts, series=PARTS[:3]):
    """The torque's parts along a motion, one panel per joint, the total dashed.

    Parameters
    ----------
    t : (k,) array_like
        Time [s].
    parts : dict of (k, 2) arrays
        :func:`armlab.torque_parts` along the motion [N m].
    series : sequence of (key, label, colour)
        The parts drawn.

    Returns
    -------
    BookFigure
    """
    fig, axes = plots.figure(ncols=2, height=4.4)
    for j, (ax, joint) in enumerate(zip(axes, ["shoulder", "elbow"])):
        for key, label, color in series:
            ax.plot(t, parts[key][:, j], color=color, lw=2, label=label)
        ax.plot(t, parts["total"][:, j], color="black", lw=1.8, ls="--", label="total τ")
        ax.axhline(0, color="#404040", lw=0.8)
        ax.set_title(f"{joint} torque τ{j + 1}")
        ax.set_xlabel("time t [s]")
        ax.set_ylabel("torque [N m]")
        ax.grid(alpha=0.3)
    _legend_below(fig, axes[0], ncol=2)
    return fig


def move_power_figure(t, T, V, balance):
    """Energies and powers along a motion.

    Parameters
    ----------
    t : (k,) array_like
        Time [s].
    T, V : (k,) array_like
        Kinetic and potential energy [J].
    balance : PowerBalance
        Its terms along the motion, each ``(k,)`` [W].

    Returns
    -------
    BookFigure
    """
    fig, (ax_e, ax_p) = plots.figure(nrows=2, height=6.4, sharex=True)
    T, V = np.asarray(T), np.asarray(V)
    ax_e.plot(t, T, color="#0072B2", lw=2, label="kinetic T")
    ax_e.plot(t, V, color="#7F7F7F", lw=2, label="potential V")
    ax_e.plot(t, T + V, color="black", lw=1.8, ls="--", label="E = T + V")
    ax_e.set_ylabel("energy [J]")
    ax_e.set_title("energy of the arm")
    ax_p.plot(t, balance.motor, color="#009E73", lw=2.5, label="motor power τ·q̇")
    ax_p.plot(t, balance.energy_rate, color="black", lw=1.8, ls="--", label="dE/dt")
    ax_p.plot(t, balance.friction, color="#CC79A7", lw=2, label="friction loss")
    ax_p.set_ylabel("power [W]")
    ax_p.set_title("where the motors' power goes")
    ax_p.set_xlabel("time t [s]")
    for ax in (ax_e, ax_p):
        ax.axhline(0, color="#404040", lw=0.8)
        ax.grid(alpha=0.3)
        ax.legend(frameon=False, loc="upper left")
    return fig


def identification_figure(t, tau_measured, tau_fitted, fit, other_fit, truth, noise):
    """Identification along a run: the torques, what the fitted model leaves of them, and
    each rigid base parameter's error for two fits.

    Parameters
    ----------
    t : (k,) array_like
        Sample times [s].
    tau_measured, tau_fitted : (k, 2) array_like
        The measured torques and those of the fitted model [N m].
    fit, other_fit : DynamicsFit
        The fit to show (dots) and one to compare it with (crosses); their parameters
        ``Z1, X1, Z2, X2`` are drawn relative to the truth, with one standard error as a
        bar.
    truth : (p,) array_like
        The true parameters, in the order of ``fit.names``.
    noise : float
        The sensors' standard deviation [N m], drawn as a band around zero residual.

    Returns
    -------
    BookFigure
    """
    fig, (ax_t, ax_r, ax_p) = plots.figure(nrows=3, height=8.4,
                                           gridspec_kw={"height_ratios": [1.2, 0.9, 1]})
    t = np.asarray(t)
    tau_measured, tau_fitted = np.asarray(tau_measured), np.asarray(tau_fitted)
    joints = [("shoulder", "#0072B2"), ("elbow", "#D55E00")]
    for j, (name, color) in enumerate(joints):
        ax_t.plot(t, tau_measured[:, j], color=color, lw=1.4, label=name)
        ax_r.plot(t[::5], 1e3 * (tau_measured - tau_fitted)[::5, j], ".", ms=2.5,
                  color=color, alpha=0.5)
    ax_t.set_ylabel("torque [N m]")
    ax_t.legend(frameon=False, ncol=2, loc="upper left")
    top = max(abs(np.asarray(ax_t.get_ylim())).max(), 1e-9)
    ax_t.set_ylim(-top, 1.3 * top)                      # room for the legend
    for sign in (-1, 1):
        ax_r.axhline(sign * 2e3 * noise, color="black", ls="--", lw=1)
    ax_r.set_ylabel("measured − Y θ̂\n[mN m]")
    ax_r.set_xlabel("time t [s]")
    ax_t.sharex(ax_r)
    ax_t.tick_params(labelbottom=False)
    rigid = ["Z1", "X1", "Z2", "X2"]
    x = np.arange(len(rigid))
    truth = dict(zip(fit.names, np.asarray(truth, dtype=float)))
    ref = np.array([truth[name] for name in rigid])
    for f, marker, color, shift, label in [
            (fit, "o", "black", -0.1, "with friction, the tour"),
            (other_fit, "x", "#CC79A7", 0.1, "no friction, one move")]:
        est = np.array([f[name] for name in rigid])
        se = np.array([f.stderr[f.names.index(name)] for name in rigid])
        ax_p.errorbar(x + shift, 100 * (est - ref) / ref, yerr=100 * se / ref, fmt=marker,
                      color=color, ms=7, mew=2, capsize=4, label=label)
    ax_p.axhline(0, color="#404040", lw=0.8)
    ax_p.set_xticks(x, rigid)
    ax_p.set_xlim(-0.5, len(rigid) - 0.5)
    ax_p.set_xlabel("base parameter")
    ax_p.set_ylabel("fitted − true [%]")
    ax_p.legend(frameon=False, loc="lower left")
    for ax in (ax_t, ax_r, ax_p):
        ax.grid(alpha=0.3)
    return fig
