"""The analyses beside a model's row: δ sweep, breakdown by phenomenon, bootstrap intervals, and
the comparison with a baseline model.

:func:`analyze_on_pairs` takes the model's :class:`~metric_adc.pairs.ModelDeltas` (and the
baseline's), computed once by the caller; the statistics come from :mod:`metric_adc.core`
and :mod:`metric_adc.bootstrap`. :func:`analyze_outcomes` gives the bootstrap intervals of
any benchmark of the family from a model's :class:`~metric_adc.family.outcomes.Outcomes`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from li_adger.benchmarks import Benchmark
from metric_adc import bootstrap, core, formulas
from metric_adc.family.outcomes import Outcomes, spec_of
from metric_adc.family.statistics import ACCURACY_KS
from metric_adc.input_checks import as_model_and_human, as_sweep_grid, summary_options
from metric_adc.pairs import ModelDeltas, PairTable
from metric_adc.report.parts import (
    BaselineComparison,
    LabelledIntervals,
    OutcomeAnalysis,
    PairAnalysis,
    PairIntervals,
)

__all__ = ["ANALYSIS_KEYS", "CI_STATISTICS", "analyze_on_pairs", "analyze_outcomes"]

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
    specs = [(stat, d) for stat in CI_STATISTICS for d in (deltas if stat == "adc" else [None])]
    cis = bootstrap.bootstrap_cis(
        m, h, statistics=specs, rng=rng, n_resamples=n_resamples, clusters=clusters
    )  # every statistic on the same resamples, drawn once
    return {
        (stat if d is None else f"adc_{core.delta_key(d)}"): ci
        for (stat, d), ci in zip(specs, cis, strict=True)
    }


def analyze_on_pairs(
    scored: ModelDeltas,
    pairs: PairTable,
    *,
    rng: np.random.Generator,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    n_resamples: int = 2000,
    baseline: ModelDeltas | None = None,
) -> PairAnalysis:
    """δ sweep, breakdown by phenomenon, bootstrap intervals (resampling pairs and, when the
    table has phenomena, resampling phenomena), and, with a ``baseline`` on the same pairs,
    overlap / reduced scores and a paired comparison at each δ.

    ``scored`` and ``baseline`` are :func:`metric_adc.pairs.model_deltas` on ``pairs``.
    Returns a :class:`~metric_adc.report.parts.PairAnalysis`: ``sweep``, ``by_phenomenon``,
    ``ci`` (``pairs``, ``phenomena``), ``baseline`` (``overlap`` and ``comparison``, δ key →
    statistics); ``None`` where not applicable. Needs a table with human judgements.

    Examples
    --------
    >>> from metric_adc.thesis.models import thesis_model_deltas, thesis_pair_table
    >>> t = thesis_pair_table()
    >>> md = {m.name: d for m, d in thesis_model_deltas(t)}
    >>> a = analyze_on_pairs(md["bert-base-uncased-mlm"], t, rng=np.random.default_rng(0),
    ...                      n_resamples=200, baseline=md["trigram-slor"])
    >>> sorted(a.to_json_dict()), sorted(a.ci.pairs), sorted(a.baseline.comparison)
    (['baseline', 'by_phenomenon', 'ci', 'sweep'], ['adc_0.5', 'adc_1.0', 'adc_5.0', 'adc_auc', 'blimp', 'pearson_pairs'], ['0.5', '1.0', '5.0'])
    """
    deltas = list(deltas)
    if pairs.human_delta is None:
        raise ValueError("the pair table has no human judgements: nothing to analyse beyond BLiMP")
    # checked once here (the deltas and the table are checked already: ModelDeltas, PairTable)
    keys, auc_max = summary_options(deltas, core.DEFAULT_AUC_MAX)
    dlm, h = as_model_and_human(scored.delta, pairs.human_delta)
    sweep = formulas.sweep(dlm, h, as_sweep_grid())
    by_phen = None
    if pairs.phenomenon is not None:
        by_phen = formulas.breakdown_of(pairs.phenomenon, dlm, h, keys, auc_max)
    ci_args = {"deltas": deltas, "rng": rng, "n_resamples": n_resamples}
    ci = PairIntervals(
        pairs=_intervals(dlm, h, clusters=None, **ci_args),
        phenomena=_intervals(dlm, h, clusters=pairs.phenomenon, **ci_args) if by_phen else None,
    )
    base = None
    if baseline is not None:
        keep = ~np.isnan(h)
        overlap, comparison = {}, {}
        for d, k in zip(deltas, keys, strict=True):
            overlap[k] = core.overlap(
                formulas.adc_passes(dlm[keep], h[keep], float(k)),
                formulas.adc_passes(baseline.delta[keep], h[keep], float(k)),
            )
            comparison[k] = bootstrap.paired_comparison(
                dlm, baseline.delta, h, statistic="adc", delta=d, rng=rng,
                n_resamples=n_resamples, clusters=pairs.phenomenon,
            )  # fmt: skip
        base = BaselineComparison(overlap=overlap, comparison=comparison)
    return PairAnalysis(sweep=sweep, by_phenomenon=by_phen, ci=ci, baseline=base)


ANALYSIS_KEYS = ("resampled", "n_resamples", "headline", "pairs", "cloze", "labelled")
"""The keys of :func:`analyze_outcomes`'s JSON (a section the benchmark lacks is ``None``):
the fields of :class:`~metric_adc.report.parts.OutcomeAnalysis`."""


def _pass_counts(frame: pd.DataFrame, passed: pd.Series, strata: str | None) -> np.ndarray:
    """``(passed, failed)`` per stratum (one stratum when ``strata`` is ``None``)."""
    ok = passed.to_numpy(bool)
    keys = np.zeros(ok.size, int) if strata is None else frame[strata].to_numpy(object)
    table = pd.crosstab(keys, ok).reindex(columns=[True, False], fill_value=0)
    return table.to_numpy(float)


def _confusion_counts(frame: pd.DataFrame) -> np.ndarray:
    """``(TP, FP, FN, TN)`` per split of labelled outcomes."""
    y, p = frame["label"].to_numpy(bool), frame["predicted"].to_numpy(bool)
    cells = pd.DataFrame({"split": frame["split"].to_numpy(object),
                          "tp": y & p, "fp": ~y & p, "fn": y & ~p, "tn": ~y & ~p})  # fmt: skip
    return cells.groupby("split", sort=False)[["tp", "fp", "fn", "tn"]].sum().to_numpy(float)


def _pairs_intervals(spec: Benchmark, pairs: pd.DataFrame, ci) -> tuple[dict, dict]:
    strata = spec.headline.mean_over
    headline = ci(
        _pass_counts(pairs, pairs["passed"], strata),
        "mean_of_shares" if strata else "pooled_share",
    )
    groups = {
        column: {
            str(level): ci(_pass_counts(rows, rows["passed"], strata), "pooled_share")
            for level, rows in pairs.groupby(column, sort=True)
        }
        for column in spec.groups
    }
    return headline, groups


def _cloze_intervals(o: Outcomes, ci) -> tuple[dict, dict]:
    sens = o.sensitivity
    headline = ci(_pass_counts(sens, sens["passed"], "set"), "mean_of_shares")
    sets = {}
    for name, rows in sens.groupby("set", sort=False):
        out = {
            key: ci(_pass_counts(rows, rows[column], None), "pooled_share")
            for key, column in (("sensitivity", "passed"),
                                ("sensitivity_thresholded", "passed_thresholded"))
        }  # fmt: skip
        acc = None if o.accuracy is None else o.accuracy[o.accuracy["set"] == name]
        for k in ACCURACY_KS:
            out[f"accuracy@{k}"] = (
                None
                if acc is None or not len(acc)
                else ci(_pass_counts(acc, acc["rank"] <= k, None), "pooled_share")
            )
        sets[str(name)] = out
    return headline, sets


def _labelled_intervals(o: Outcomes, ci) -> LabelledIntervals:
    frame = o.labelled
    return LabelledIntervals(
        mcc=ci(_confusion_counts(frame), "mcc"),
        splits={
            str(name): ci(_confusion_counts(rows), "mcc")
            for name, rows in frame.groupby("split", sort=False)
        },
    )


def analyze_outcomes(
    bench: Benchmark | str,
    o: Outcomes,
    *,
    rng: np.random.Generator,
    n_resamples: int = 2000,
    level: float = 0.95,
) -> OutcomeAnalysis:
    """Bootstrap intervals of a benchmark's headline and breakdowns (a
    :class:`~metric_adc.report.parts.OutcomeAnalysis`, JSON keys :data:`ANALYSIS_KEYS`).

    Units are resampled within strata (:func:`metric_adc.bootstrap.stratified_ci`), so that
    every resample has the benchmark's design:

    - pairs: the headline resamples pairs within each level of the headline's ``mean_over``
      column (BLiMP: within each paradigm, every paradigm keeping its 1,000 pairs; the mean
      over paradigms is recomputed) or all pairs (NPI); a group level's interval resamples
      its own pairs the same way (``pairs``: column → level → interval);
    - cloze: items within each set; the headline is the mean over sets of the sensitivity;
      ``cloze``: set → ``sensitivity``, ``sensitivity_thresholded``, ``accuracy@k``
      (``None`` without ranks or accuracy items);
    - labelled: sentences within each split, the predictions held fixed (a fitted threshold
      is not refitted); ``labelled``: ``mcc`` pooled, ``splits`` (split → interval).

    ``resampled`` names the scheme of the headline. Intervals have the keys of
    :func:`~metric_adc.bootstrap.stratified_ci`.

    Examples
    --------
    >>> from metric_adc.family.outcomes import outcomes
    >>> from li_adger.benchmarks import Items
    >>> units = pd.DataFrame({"id": list("abcdef"), "sentence": list("abcdef")})
    >>> comparisons = pd.DataFrame({"pair_id": ["1", "2", "3"], "good_id": list("ace"),
    ...     "bad_id": list("bdf"), "environment": ["adverbs", "adverbs", "only"],
    ...     "contrast": ["scope"] * 3, "paradigm": ["p", "p", "q"]})
    >>> o = outcomes("npi", Items("npi", "pairs", units, comparisons),
    ...              {"a": -1.0, "b": -2.0, "c": -3.0, "d": -1.0, "e": -1.0, "f": -4.0})
    >>> a = analyze_outcomes("npi", o, rng=np.random.default_rng(0), n_resamples=100)
    >>> a.resampled, round(a.headline["estimate"], 3), a.pairs["environment"]["only"]["estimate"]
    ('pairs', 0.667, 1.0)
    """
    spec = spec_of(bench)

    def ci(counts: np.ndarray, statistic: str) -> dict:
        return bootstrap.stratified_ci(
            counts, statistic=statistic, rng=rng, n_resamples=n_resamples, level=level
        )

    parts: dict = {}
    headlines = {}
    if o.pairs is not None:
        headlines["blimp"], parts["pairs"] = _pairs_intervals(spec, o.pairs, ci)
        strata = spec.headline.mean_over
        headlines["blimp_resampled"] = f"pairs within each {strata}" if strata else "pairs"
    if o.sensitivity is not None:
        headlines["sensitivity"], parts["cloze"] = _cloze_intervals(o, ci)
        headlines["sensitivity_resampled"] = "items within each set"
    if o.labelled is not None:
        parts["labelled"] = _labelled_intervals(o, ci)
        headlines["mcc"] = parts["labelled"].mcc
        headlines["mcc_resampled"] = "sentences within each split, predictions held fixed"
    statistic = spec.headline.statistic
    if statistic in headlines:
        if statistic == "mcc" and spec.headline.mean_over is not None:
            raise ValueError(
                f"{spec.name}: no interval for an MCC averaged over {spec.headline.mean_over!r}"
            )
        parts["headline"] = headlines[statistic]
        parts["resampled"] = headlines[f"{statistic}_resampled"]
    return OutcomeAnalysis(n_resamples=int(n_resamples), **parts)
