"""The phenomena heatmap as the page shows it: an HTML table in a box that scrolls both ways,
its model names (header row) and phenomenon names (first column) fixed at the box's edges, so
that a phone shows which cell is which wherever it is scrolled to.

Each cell is coloured in :data:`space.ui.figures.HEATMAP_CMAP` and holds its value; the
colour scale stands above the box. The figure of the same matrix
(:func:`space.ui.views.heatmap_figure`) is what the API's ``/heatmap`` returns.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.colors import to_hex

from space.ui.figures import HEATMAP_CMAP
from space.ui.standards import number_text

__all__ = ["HEAT_TABLE_CSS", "cell_colours", "heat_table"]

HEAT_TABLE_CSS = """
#heatmap .heat-box {max-height: 820px; overflow: auto; padding: 0; border: 1px solid #d1d5db}
#heatmap table.heat {border-collapse: separate; border-spacing: 0; font-size: 12px; margin: 0;
    font-variant-numeric: tabular-nums}
#heatmap table.heat th, #heatmap table.heat td {padding: 2px 4px; border: 0}
#heatmap table.heat td {text-align: center; min-width: 3.2em}
/* the model names stay at the top, the phenomenon names at the left, as the box scrolls */
#heatmap table.heat thead th {position: sticky; top: 0; z-index: 2; background: #fff;
    vertical-align: bottom; width: 6em; white-space: normal;
    overflow-wrap: normal; word-break: normal; border-bottom: 1px solid #9ca3af}
#heatmap table.heat tbody th {position: sticky; left: 0; z-index: 1; background: #fff;
    text-align: left; font-weight: normal; width: 14em;
    white-space: normal; border-right: 1px solid #9ca3af}
#heatmap table.heat thead th.corner {left: 0; z-index: 3; text-align: left}
#heatmap .heat-scale {display: flex; align-items: center; gap: 6px; margin: 4px 0;
    font-size: 12px; flex-wrap: wrap}
#heatmap .heat-scale .bar {width: 160px; height: 12px; border: 1px solid #9ca3af}
@media (max-width: 640px) {
  #heatmap .heat-box {max-height: 70vh}
  #heatmap table.heat tbody th {width: 9em}
  #heatmap table.heat thead th {width: 4.5em}
}
"""
"""The table's styles (the page adds them to its own)."""


def cell_colours(values: np.ndarray, vmin: float = 0.0, vmax: float = 1.0) -> list[tuple[str, str]]:
    """Each value's background in :data:`~space.ui.figures.HEATMAP_CMAP` and a text colour
    that reads on it (white on a dark cell); a missing value (NaN) is left white.

    Examples
    --------
    >>> cell_colours(np.array([0.0, 1.0, np.nan]))
    [('#00224e', '#ffffff'), ('#fee838', '#000000'), ('#ffffff', '#000000')]
    """
    cmap = matplotlib.colormaps[HEATMAP_CMAP]
    out = []
    for v in np.asarray(values, dtype=float):
        if not np.isfinite(v):
            out.append(("#ffffff", "#000000"))
            continue
        r, g, b, _ = cmap((min(max(v, vmin), vmax) - vmin) / (vmax - vmin))
        dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5
        out.append((to_hex((r, g, b)), "#ffffff" if dark else "#000000"))
    return out


def _scale(value_label: str) -> str:
    stops = ", ".join(to_hex(matplotlib.colormaps[HEATMAP_CMAP](x)) for x in np.linspace(0, 1, 9))
    return (
        f'<div class="heat-scale"><span>{html.escape(value_label)}:</span><span>0</span>'
        f'<span class="bar" style="background: linear-gradient(to right, {stops})"></span>'
        "<span>1</span></div>"
    )


def heat_table(matrix: pd.DataFrame, labels: Sequence[str], *, title: str, value_label: str) -> str:
    """``matrix`` (rows × models, shares in [0, 1]) as the page's heatmap: ``title``, the
    colour scale labelled ``value_label``, then the table, each row named by ``labels``
    (the phenomena's short names) and each column by its model's full name, wrapped between
    words.

    Examples
    --------
    >>> m = pd.DataFrame({"gpt2 (slor)": [0.25, np.nan]}, index=["p1", "p2"])
    >>> text = heat_table(m, ["Islands", "A & B"], title="ADC", value_label="share")
    >>> text.count("<tr>"), "A &amp; B" in text, "0.250" in text
    (3, True, True)
    >>> '<th scope="col">gpt2 (slor)</th>' in text
    True
    """
    head = "".join(f'<th scope="col">{html.escape(str(c))}</th>' for c in matrix.columns)
    rows = []
    values = matrix.to_numpy(float)
    for label, row in zip(labels, values, strict=True):
        cells = "".join(
            f'<td style="background:{bg};color:{fg}">{"" if np.isnan(v) else number_text(v)}</td>'
            for v, (bg, fg) in zip(row, cell_colours(row), strict=True)
        )
        rows.append(f'<tr><th scope="row">{html.escape(label)}</th>{cells}</tr>')
    return (
        f"<h4>{html.escape(title)}</h4>{_scale(value_label)}"
        '<div class="heat-box"><table class="heat">'
        f'<thead><tr><th class="corner" scope="col">Phenomenon</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )
