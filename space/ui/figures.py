"""The app's figures (matplotlib): pair deltas with the ±δ band, sentences, ADC(δ) curves,
and labelled heatmaps (phenomena or a benchmark's groups × models).

Each function takes precomputed arrays and returns a new :class:`matplotlib.figure.Figure`.
:mod:`metric_adc.report.plots` draws the report's figures into PNG files through pyplot; the Space
needs figure objects made without pyplot's global state (concurrent sessions must never draw
on each other's figures), a δ marker, the human ceiling curve and heatmaps, hence this
module. Colours are colour-blind safe: the Okabe–Ito palette for lines and points (with
markers and dashes as a second cue), cividis for heatmaps. The axes follow :mod:`metric_adc.report.plots`: model on x, human on y. Pass/fail decisions
come from :func:`metric_adc.core.adc_pass`; nothing here computes a statistic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

__all__ = [
    "ANNOTATE_MAX_ROWS",
    "FAIL",
    "HEATMAP_CMAP",
    "OKABE_ITO",
    "PASS",
    "adc_curves",
    "level_heatmap",
    "pair_scatter",
    "sentence_scatter",
]

OKABE_ITO = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermillion
    "#F0E442",  # yellow
    "#000000",  # black
)
"""The Okabe–Ito palette (Okabe & Ito 2008), distinguishable with every common colour-vision
deficiency."""

PASS = OKABE_ITO[0]
"""Colour of passing pairs (blue)."""
FAIL = OKABE_ITO[5]
"""Colour of failing pairs (vermillion): blue and vermillion stay apart for every common
colour-vision deficiency, and their markers differ too."""

HEATMAP_CMAP = "cividis"
"""Colour map of the heatmaps: perceptually uniform and colour-blind safe (Nuñez et al. 2018)."""

ANNOTATE_MAX_ROWS = 40
"""A heatmap writes each cell's value when it has at most this many rows (more would make a
150-row figure slow to draw; its colours and the tables carry the values)."""

_LINE_STYLES = ("-", "--", "-.", ":")
# curves cycle through the palette and then line styles, so that every curve of up to 24
# differs in colour or dash; black is the human ceiling's, yellow too pale for a thin line
_CURVE_COLOURS = OKABE_ITO[:6]


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    return fig


def _scatter_axes() -> tuple[Figure, Any]:
    """A new figure of the scatter plots' size and its one axes."""
    fig = _figure(6.4, 5.0)
    return fig, fig.add_subplot()


def _finish_scatter(ax, *, xlabel: str, ylabel: str, title: str) -> None:
    """Axis lines through the origin, labels, title and legend of the two scatter plots."""
    ax.axhline(0, color="0.6", lw=0.8)
    ax.axvline(0, color="0.6", lw=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", fontsize=8, framealpha=0.9)


def pair_scatter(
    human_delta: np.ndarray,
    model_delta: np.ndarray,
    passed: np.ndarray,
    delta: float,
    *,
    title: str,
) -> Figure:
    """Δlm (x) against Δh (y) per pair, the band ``|Δh − Δlm| < δ`` shaded, pass/fail coloured.

    Pairs with a missing human delta (NaN) are not drawn.

    Examples
    --------
    >>> f = pair_scatter(np.array([1.0, -0.5]), np.array([0.8, 0.4]),
    ...                  np.array([True, False]), 0.5, title="toy")
    >>> f.axes[0].get_xlabel()
    'model Δlm (z-score difference)'
    """
    keep = ~np.isnan(human_delta)
    h, m, p = human_delta[keep], model_delta[keep], passed[keep]
    fig, ax = _scatter_axes()
    lim = float(np.nanmax(np.abs(np.concatenate([h, m, [1.0]])))) * 1.05
    xs = np.array([-lim, lim])
    ax.fill_between(xs, xs - delta, xs + delta, color="0.88", label=f"|Δh − Δlm| < δ = {delta:g}")
    ax.plot(xs, xs, color="0.5", lw=0.8, ls="--")
    ax.scatter(m[p], h[p], s=8, alpha=0.6, color=PASS, marker="o", label=f"pass ({int(p.sum())})")
    ax.scatter(
        m[~p], h[~p], s=10, alpha=0.55, color=FAIL, marker="x", lw=0.8,
        label=f"fail ({int((~p).sum())})",
    )  # fmt: skip
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    _finish_scatter(
        ax,
        xlabel="model Δlm (z-score difference)",
        ylabel="human Δh (z-score difference)",
        title=title,
    )
    return fig


def sentence_scatter(
    human: np.ndarray, model_z: np.ndarray, acceptable: np.ndarray, *, title: str
) -> Figure:
    """The model's z-score (x) against the human judgement (y) per sentence, coloured by the
    sentence's expert label (acceptable or unacceptable).

    Examples
    --------
    >>> f = sentence_scatter(np.array([1.0, -1.0]), np.array([0.5, -0.2]),
    ...                      np.array([True, False]), title="toy")
    >>> f.axes[0].get_xlabel()
    'model z-score'
    """
    keep = ~np.isnan(human)
    x, y, a = human[keep], model_z[keep], acceptable[keep]
    fig, ax = _scatter_axes()
    ax.scatter(y[a], x[a], s=6, alpha=0.45, color=OKABE_ITO[0], label="expert: acceptable")
    ax.scatter(
        y[~a], x[~a], s=8, alpha=0.45, color=OKABE_ITO[5], marker="x", lw=0.7,
        label="expert: unacceptable",
    )  # fmt: skip
    _finish_scatter(
        ax, xlabel="model z-score", ylabel="human judgement (mean z-score)", title=title
    )
    return fig


def adc_curves(
    curves: Sequence[tuple[str, Sequence[float], Sequence[float]]],
    delta: float,
    *,
    ceiling: tuple[str, Sequence[float], Sequence[float]] | None = None,
) -> Figure:
    """ADC(δ) curves ``(label, deltas, adc)`` of several models, a marker line at ``delta``,
    and optionally the human ceiling curve in black.

    Examples
    --------
    >>> f = adc_curves([("a", [0.5, 1.0], [0.3, 0.5])], 0.5)
    >>> f.axes[0].get_ylabel()
    'ADC(δ): share of pairs passing'
    """
    fig = _figure(7.2, 4.6)
    ax = fig.add_subplot()
    n = len(_CURVE_COLOURS)
    for k, (label, xs, ys) in enumerate(curves):
        ax.step(xs, ys, where="post", lw=1.5, color=_CURVE_COLOURS[k % n],
                ls=_LINE_STYLES[(k // n) % len(_LINE_STYLES)], label=label)  # fmt: skip
    if ceiling is not None:
        label, xs, ys = ceiling
        ax.step(xs, ys, where="post", lw=2.2, color="black", label=label)
    ax.axvline(delta, color="0.3", ls=":", lw=1.2)
    ax.text(delta, 0.02, f" δ = {delta:g}", fontsize=8, color="0.2")
    ax.set_xlim(0, None)
    ax.set_ylim(0, 1)
    ax.set_xlabel("δ (z-score units)")
    ax.set_ylabel("ADC(δ): share of pairs passing")
    ax.grid(alpha=0.3)
    if curves or ceiling is not None:
        ax.legend(loc="lower right", fontsize=7, framealpha=0.9, ncols=1 + len(curves) // 12)
    return fig


def level_heatmap(
    matrix: np.ndarray,
    rows: Sequence[str],
    columns: Sequence[str],
    *,
    title: str,
    value_label: str = "share passing",
    vmin: float = 0.0,
    vmax: float = 1.0,
) -> Figure:
    """A labelled heatmap: ``rows`` (e.g. phenomena, one per line) × ``columns`` (models),
    each cell in [``vmin``, ``vmax``] in :data:`HEATMAP_CMAP`, its value written in it when
    there are at most :data:`ANNOTATE_MAX_ROWS` rows (more rows: the column labels are
    repeated at the foot, so that a reader scrolled down still sees them). The figure grows with the rows so that
    every label stays readable (the page scrolls it); the colour bar, labelled
    ``value_label``, stands at the top, above the title, where it is seen without scrolling.
    Missing cells (NaN) are left blank. The axes are placed by hand (no layout engine), which
    keeps a 150-row figure fast to draw.

    Examples
    --------
    >>> f = level_heatmap(np.array([[0.5, 1.0]]), ["p1"], ["m1", "m2"], title="t")
    >>> [t.get_text() for t in f.axes[0].get_yticklabels()], f.axes[0].get_title()
    (['p1'], 't')
    >>> [t.get_text() for t in f.axes[0].texts], f.axes[1].get_xlabel()
    (['0.50', '1.00'], 'share passing')
    >>> bool(f.axes[1].get_position().y0 > f.axes[0].get_position().y1)  # the colour bar on top
    True
    """
    n_rows, n_cols = matrix.shape
    char = 0.062  # inches per character of an 8-point label
    longest_column = max((len(c) for c in columns), default=8)
    left = 0.3 + char * max((len(r) for r in rows), default=8)
    right = 0.3 + 0.82 * char * longest_column  # the last column's label, rotated to the right
    bar = 0.75  # the colour bar and its label, above the title
    top = bar + 0.6 + 0.58 * char * longest_column
    foot = n_rows > ANNOTATE_MAX_ROWS
    bottom = 0.3 + (0.58 * char * longest_column if foot else 0.0)
    cell_h, cell_w = 0.2, 0.56
    cells = max(cell_w * n_cols, 2.5, 0.085 * len(title) - left)  # the title fits above
    width = min(18.0, left + right + cells)
    height = top + bottom + cell_h * n_rows
    fig = Figure(figsize=(width, height), dpi=100)
    inner = (width - left - right) / width
    ax = fig.add_axes((left / width, bottom / height, inner, cell_h * n_rows / height))
    im = ax.imshow(
        np.ma.masked_invalid(matrix), aspect="auto", cmap=HEATMAP_CMAP, vmin=vmin, vmax=vmax,
        interpolation="nearest",
    )  # fmt: skip
    ax.set_yticks(range(n_rows), labels=list(rows), fontsize=8)
    ax.set_xticks(
        range(n_cols), labels=list(columns), fontsize=8, rotation=35, ha="left",
        rotation_mode="anchor",
    )  # fmt: skip
    ax.xaxis.set_ticks_position("top")
    if foot:  # a tall figure: its column names at its foot too
        ax.tick_params(axis="x", labelbottom=True)
        for tick in ax.xaxis.get_major_ticks():
            tick.label1.set(rotation=-35, ha="left", rotation_mode="anchor")
    if n_rows <= ANNOTATE_MAX_ROWS:
        for (i, j), v in np.ndenumerate(matrix):
            if np.isfinite(v):
                light = (v - vmin) / (vmax - vmin) > 0.55
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=6.5,
                        color="black" if light else "white")  # fmt: skip
    ax.set_title(title, fontsize=10)  # placed above the column labels
    cax = fig.add_axes((left / width, (height - 0.3) / height, inner, 0.12 / height))
    fig.colorbar(im, cax=cax, orientation="horizontal")
    cax.set_xlabel(value_label, fontsize=8, labelpad=2)
    cax.tick_params(labelsize=7)
    return fig
