"""What each figure of the Space shows at δ, computed from the precomputed data.

These functions pick the arrays (Δh, Δlm, pass/fail from :func:`metric_adc.core.adc_pass`,
per-phenomenon shares) and hand them to :mod:`space.ui.figures` for drawing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from metric_adc import core
from space.data.entries import ModelEntry
from space.data.space_data import SpaceData
from space.ui import figures
from space.ui.heat_table import heat_table

__all__ = [
    "adc_curves_figure",
    "heatmap_figure",
    "heatmap_html",
    "pair_figure",
    "phenomenon_matrix",
    "sentence_figure",
]


def pair_figure(data: SpaceData, entry: ModelEntry, delta: float) -> Figure:
    """Δlm vs Δh for one model with the ±δ band, pass/fail coloured.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> d = toy_space_data()
    >>> pair_figure(d, d.models[0], 0.5).axes[0].get_title()
    'toy-length: ADC δ=0.5 = 0.667 (2 of 3 pairs)'
    """
    h = data.pairs.human_delta
    passed = core.adc_pass(entry.model_delta, h, delta)
    n = int((~np.isnan(h)).sum())
    title = (
        f"{entry.name}: ADC δ={delta:g} = {core.adc(entry.model_delta, h, delta):.3f} "
        f"({int(passed.sum())} of {n} pairs)"
    )
    return figures.pair_scatter(h, entry.model_delta, passed, delta, title=title)


def sentence_figure(data: SpaceData, entry: ModelEntry) -> Figure:
    """The model's z-score vs the human judgement for every sentence the model scored.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> d = toy_space_data()
    >>> sentence_figure(d, d.models[0]).axes[0].get_title()
    'toy-length: 6 sentences, Pearson r = 0.052'
    """
    ids = list(entry.z)
    human = np.array([data.pairs.judgements.get(i, np.nan) for i in ids], dtype=float)
    z = np.array([entry.z[i] for i in ids], dtype=float)
    acceptable = np.array([data.acceptable.get(i, False) for i in ids], dtype=bool)
    r = entry.row.get("pearson_sentences")
    title = f"{entry.name}: {len(ids)} sentences, Pearson r = " + ("—" if r is None else f"{r:.3f}")
    return figures.sentence_scatter(human, z, acceptable, title=title)


def adc_curves_figure(data: SpaceData, entries: Sequence[ModelEntry], delta: float) -> Figure:
    """ADC(δ) curves of ``entries`` and, in black, the human ceiling's (LI pairs only) when
    loaded, marked at ``delta``.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> d = toy_space_data()
    >>> [ln.get_label() for ln in adc_curves_figure(d, d.models, 1.0).axes[0].lines][:1]
    ['toy-length']
    """
    curves = [(e.name, e.curve["deltas"], e.curve["adc"]) for e in entries]
    ceiling = None
    if data.ceiling is not None:
        ceiling = (data.ceiling.row["model"], data.ceiling.deltas, data.ceiling.adc)
    return figures.adc_curves(curves, delta, ceiling=ceiling)


def phenomenon_matrix(
    data: SpaceData, entries: Sequence[ModelEntry], delta: float, source: str | None = None
) -> pd.DataFrame:
    """Share of each phenomenon's pairs passing ADC(δ): phenomena (rows) × models (columns),
    phenomena sorted by their mean over the models (hardest first). Pairs without a human
    judgement are left out, as in the metric; ``source`` keeps one source's phenomena.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> d = toy_space_data()
    >>> phenomenon_matrix(d, d.models, 0.5).round(2).to_dict("split")["data"]
    [[0.0], [1.0]]
    """
    h = data.pairs.human_delta
    keep = ~np.isnan(h)
    if source is not None:
        keep &= (data.frame["source"] == source).to_numpy()
    phen = np.asarray(data.pairs.phenomenon, dtype=object)[keep]
    columns = {
        e.name: pd.Series(core.adc_pass(e.model_delta[keep], h[keep], delta)).groupby(phen).mean()
        for e in entries
    }
    m = pd.DataFrame(columns)
    return m.loc[m.mean(axis=1).sort_values(kind="stable").index]


def heatmap_figure(
    data: SpaceData, entries: Sequence[ModelEntry], delta: float, source: str | None = None
) -> Figure:
    """The phenomena × models heatmap of ADC(δ) (see :func:`phenomenon_matrix`), each
    phenomenon labelled with its readable short name (its reference).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> d = toy_space_data()
    >>> ax = heatmap_figure(d, d.models, 0.5).axes[0]
    >>> ax.get_title(), [t.get_text() for t in ax.get_yticklabels()]
    ('ADC δ=0.5 per phenomenon (2 phenomena, hardest first)', ['Agreement (toy)', 'Islands (toy)'])
    """
    m = phenomenon_matrix(data, entries, delta, source)
    return figures.level_heatmap(
        m.to_numpy(float), [data.labels.get(p, p) for p in m.index], list(m.columns),
        **_heat_text(delta, len(m)),
    )  # fmt: skip


def _heat_text(delta: float, n: int) -> dict[str, str]:
    return {
        "title": f"ADC δ={delta:g} per phenomenon ({n} phenomena, hardest first)",
        "value_label": f"ADC δ={delta:g}: share of the phenomenon's pairs passing",
    }


def heatmap_html(
    data: SpaceData, entries: Sequence[ModelEntry], delta: float, source: str | None = None
) -> str:
    """The heatmap of :func:`heatmap_figure` as the page shows it: a table whose model and
    phenomenon names stay in view as it scrolls (:func:`space.ui.heat_table.heat_table`).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> d = toy_space_data()
    >>> text = heatmap_html(d, d.models, 0.5)
    >>> "2 phenomena, hardest first" in text, text.index("Agreement") < text.index("Islands")
    (True, True)
    """
    m = phenomenon_matrix(data, entries, delta, source)
    labels = [data.labels.get(p, p) for p in m.index]
    return heat_table(m, labels, **_heat_text(delta, len(m)))
