"""The analyses beside a model's row: δ sweep, breakdown by phenomenon, bootstrap intervals, and
the comparison with a baseline model.

:func:`analyze_on_pairs` takes the model's :class:`~metric_adc.pairs.ModelDeltas` (and the
baseline's), computed once by the caller; the statistics come from :mod:`metric_adc.core`
and :mod:`metric_adc.bootstrap`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from metric_adc import bootstrap, core
from metric_adc.pairs import ModelDeltas, PairTable

__all__ = ["CI_STATISTICS", "analyze_on_pairs"]

CI_STATISTICS = ("blimp", "adc", "adc_auc", "pearson_pairs")
"""Statistics with a bootstrap interval (``adc`` at each δ, keyed ``adc_<δ>``)."""


def _intervals(
    m: np.ndarray,
    h: np.ndarray,
    *,
    deltas: Sequence[float],
    rng: np.random.Generator,
    n_resamples: int,
    clusters: Sequence[str] | None,
) -> dict[str, dict]:
    out = {}
    for stat in CI_STATISTICS:
        for d in deltas if stat == "adc" else [None]:
            key = stat if d is None else f"adc_{core.delta_key(d)}"
            out[key] = bootstrap.bootstrap_ci(
                m, h, statistic=stat, delta=d, rng=rng, n_resamples=n_resamples, clusters=clusters
            )
    return out


def analyze_on_pairs(
    scored: ModelDeltas,
    pairs: PairTable,
    *,
    rng: np.random.Generator,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    n_resamples: int = 2000,
    baseline: ModelDeltas | None = None,
) -> dict:
    """δ sweep, breakdown by phenomenon, bootstrap intervals (resampling pairs and, when the
    table has phenomena, resampling phenomena), and, with a ``baseline`` on the same pairs,
    overlap / reduced scores and a paired comparison at each δ.

    ``scored`` and ``baseline`` are :func:`metric_adc.pairs.model_deltas` on ``pairs``.
    Keys: ``sweep``, ``by_phenomenon``, ``ci`` (``{"pairs": …, "phenomena": …}``),
    ``baseline`` (``{"overlap": {δ: …}, "comparison": {δ: …}}``); ``None`` where not
    applicable. Needs a table with human judgements.

    Examples
    --------
    >>> from metric_adc.pairs import thesis_model_deltas, thesis_pair_table
    >>> t = thesis_pair_table()
    >>> md = {m.name: d for m, d in thesis_model_deltas(t)}
    >>> a = analyze_on_pairs(md["bert-base-uncased-mlm"], t, rng=np.random.default_rng(0),
    ...                      n_resamples=200, baseline=md["trigram-slor"])
    >>> sorted(a), sorted(a["ci"]["pairs"])
    (['baseline', 'by_phenomenon', 'ci', 'sweep'], ['adc_0.5', 'adc_1.0', 'adc_5.0', 'adc_auc', 'blimp', 'pearson_pairs'])
    """
    deltas = list(deltas)
    h = pairs.human_delta
    if h is None:
        raise ValueError("the pair table has no human judgements: nothing to analyse beyond BLiMP")
    dlm = scored.delta
    sweep = core.delta_sweep(dlm, h)
    by_phen = None
    if pairs.phenomenon is not None:
        by_phen = core.breakdown(pairs.phenomenon, dlm, h, deltas=deltas)
    ci_args = {"deltas": deltas, "rng": rng, "n_resamples": n_resamples}
    ci = {
        "pairs": _intervals(dlm, h, clusters=None, **ci_args),
        "phenomena": _intervals(dlm, h, clusters=pairs.phenomenon, **ci_args) if by_phen else None,
    }
    base = None
    if baseline is not None:
        keep = ~np.isnan(h)
        base = {"overlap": {}, "comparison": {}}
        for d in deltas:
            k = core.delta_key(d)
            base["overlap"][k] = core.overlap(
                core.adc_pass(dlm[keep], h[keep], d),
                core.adc_pass(baseline.delta[keep], h[keep], d),
            )
            base["comparison"][k] = bootstrap.paired_comparison(
                dlm, baseline.delta, h, statistic="adc", delta=d, rng=rng,
                n_resamples=n_resamples, clusters=pairs.phenomenon,
            )  # fmt: skip
    return {"sweep": sweep, "by_phenomenon": by_phen, "ci": ci, "baseline": base}
