"""The Space's figures (matplotlib): pair deltas with the ±δ band, sentences, ADC(δ) curves,
and the models × phenomena heatmap.

Each function takes precomputed arrays and returns a new :class:`matplotlib.figure.Figure`.
:mod:`metric_adc.plots` draws the report's figures into PNG files through pyplot; the Space
needs figure objects made without pyplot's global state (concurrent sessions must never draw
on each other's figures), a δ marker, the human ceiling curve and a heatmap, hence this
module. The axes follow :mod:`metric_adc.plots`: model on x, human on y. Pass/fail decisions
come from :func:`metric_adc.core.adc_pass`; nothing here computes a statistic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

__all__ = ["FAIL", "PASS", "adc_curves", "pair_scatter", "phenomenon_heatmap", "sentence_scatter"]

PASS = "#1b7837"
"""Colour of passing pairs (green)."""
FAIL = "#c2410c"
"""Colour of failing pairs (orange-red)."""

_CURVE_COLOURS = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
]  # fmt: skip


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
    ax.scatter(m[p], h[p], s=7, alpha=0.6, color=PASS, label=f"pass ({int(p.sum())})")
    ax.scatter(m[~p], h[~p], s=7, alpha=0.5, color=FAIL, label=f"fail ({int((~p).sum())})")
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
    ax.scatter(y[a], x[a], s=6, alpha=0.45, color="#2166ac", label="expert: acceptable")
    ax.scatter(y[~a], x[~a], s=6, alpha=0.45, color="#b2182b", label="expert: unacceptable")
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
    for k, (label, xs, ys) in enumerate(curves):
        ax.step(xs, ys, where="post", lw=1.4, color=_CURVE_COLOURS[k % len(_CURVE_COLOURS)],
                label=label)  # fmt: skip
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
        ax.legend(loc="lower right", fontsize=7, framealpha=0.9)
    return fig


def phenomenon_heatmap(
    matrix: np.ndarray, models: Sequence[str], phenomena: Sequence[str], delta: float
) -> Figure:
    """Models (rows) × phenomena (columns), each cell the share of the phenomenon's pairs
    that pass ADC(δ). Columns are labelled when there are at most 120 of them.

    Examples
    --------
    >>> f = phenomenon_heatmap(np.array([[0.5, 1.0]]), ["m"], ["p1", "p2"], 1.0)
    >>> [t.get_text() for t in f.axes[0].get_xticklabels()]
    ['p1', 'p2']
    """
    n_models, n_phen = matrix.shape
    width = min(16.0, max(6.0, 2.5 + 0.09 * n_phen))
    fig = _figure(width, 1.6 + 0.32 * n_models + (1.4 if n_phen <= 120 else 0.3))
    ax = fig.add_subplot()
    im = ax.imshow(matrix, aspect="auto", cmap="RdYlGn", vmin=0, vmax=1, interpolation="nearest")
    ax.set_yticks(range(n_models), labels=list(models), fontsize=7)
    if n_phen <= 120:
        ax.set_xticks(range(n_phen), labels=list(phenomena), fontsize=5, rotation=90)
    else:
        ax.set_xticks([])
        ax.set_xlabel(f"{n_phen} phenomena, sorted by mean ADC")
    ax.set_title(f"ADC δ={delta:g} per phenomenon", fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.03, pad=0.01, label="share passing")
    return fig
