"""The statistics of one benchmark of the family from a model's unit scores, in one shape.

:func:`evaluate_items` takes a benchmark (:data:`li_adger.benchmarks.BENCHMARKS`), its
:class:`~li_adger.benchmarks.spec.Items` and a model's scores (unit id → float) and returns one
dict whose keys never change: ``benchmark``, ``form``, ``note``, ``headline`` and one section
per part of the items — ``pairs``, ``cloze``, ``labelled`` — ``None`` where the items have no
such part. The math is in :mod:`metric_adc.core` (BLiMP criterion), :mod:`metric_adc.prediction`
(accuracy at k, sensitivity) and :mod:`metric_adc.classification` (MCC, thresholds).

Sections:

``pairs``
    ``{"n_pairs", "blimp", "groups": {column: {level: {"n_pairs", "blimp"}}}}``: the share of
    comparisons whose good unit scores strictly higher (:func:`metric_adc.core.blimp_pass`),
    pooled and per level of each of the benchmark's group columns (levels sorted).
``cloze``
    ``{"threshold": .01, "ranked": bool, "sets": {set: stats}}`` with ``stats`` =
    ``{"n_accuracy_items", "accuracy@1", "accuracy@5", "n_sensitivity_items", "sensitivity",
    "sensitivity_thresholded", "conditions": {condition: stats without "conditions"}}``.
    Scores are natural-log probabilities of the completion given the context; ranks (unit id →
    rank, 1 = the model's top prediction) are needed for accuracy, which is ``None`` without
    them (``ranked`` False) or for a condition with no accuracy items.
``labelled``
    ``{"threshold", "kind", "n_folds", "seed", "n", "mcc", "accuracy", "splits": {split:
    {"n", "mcc", "accuracy"}}}``. ``threshold`` is ``"zero"`` for ``kind="cola"`` (a
    classifier's signed score: acceptable iff > 0) and ``"fitted"`` otherwise: per split, by
    :data:`~metric_adc.classification.N_FOLDS`-fold cross-validation on that split
    (Warstadt, Singh & Bowman 2019, §4.2), folds drawn from ``numpy.random.default_rng(seed)``;
    the pooled ``mcc`` is over all splits' predictions together.

``headline`` is ``{"statistic", "mean_over", "description", "value"}``: the benchmark's
:class:`~li_adger.benchmarks.spec.Headline` and its value. Scores for every unit a part
refers to are required; an id that is not a unit of the benchmark, a missing score or a
non-finite one raises :class:`ValueError` naming it.

:func:`result_from_shares` gives that shape to published per-group shares (the reference rows
of :mod:`metric_adc.report.references`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from li_adger.benchmarks import Benchmark, Items
from metric_adc import classification, core, prediction
from metric_adc.family.outcomes import Outcomes, outcomes, spec_of

__all__ = [
    "ACCURACY_KS",
    "METRICS",
    "evaluate_items",
    "result_from_shares",
    "summarize_outcomes",
]

ACCURACY_KS: tuple[int, ...] = (1, 5)
"""The k of word-prediction accuracy that Ettinger (2020) reports."""

METRICS: dict[str, Callable] = {
    "adc": core.adc,
    "blimp": core.blimp_accuracy,
    "accuracy_at_k": prediction.accuracy_at_k,
    "sensitivity": prediction.sensitivity,
    "mcc": classification.mcc,
}
"""Metric names a benchmark description may list (``Benchmark.metrics``) → the function."""


# ----------------------------------------------------------------------------- sections
def _shares(frame: pd.DataFrame, columns: tuple[str, ...]) -> dict:
    """Pooled share and per-level shares of rows with a weight ``n`` and a ``share``.

    A model's rows are its comparisons (``n`` 1, ``share`` 0 or 1); a reference row's are
    paradigms (``n`` pairs, ``share`` their accuracy): the weighted mean is then the pooled
    share over pairs either way.
    """

    def one(rows: pd.DataFrame) -> dict:
        n = float(rows["n"].sum())
        return {"n_pairs": int(n), "blimp": float((rows["n"] * rows["share"]).sum() / n)}

    out = one(frame)
    out["groups"] = {
        column: {str(level): one(rows) for level, rows in frame.groupby(column, sort=True)}
        for column in columns
    }
    return out


def _pairs_section(spec: Benchmark, pairs: pd.DataFrame) -> dict:
    frame = pairs[list(spec.groups)].copy()
    frame["n"] = 1.0
    frame["share"] = pairs["passed"].astype(float)
    return _shares(frame, spec.groups)


def _cloze_stats(sens: pd.DataFrame, acc: pd.DataFrame | None) -> dict:
    out: dict = {"n_accuracy_items": 0}
    out.update({f"accuracy@{k}": None for k in ACCURACY_KS})
    if acc is not None and len(acc):
        out["n_accuracy_items"] = len(acc)
        out.update(
            {
                f"accuracy@{k}": prediction.accuracy_at_k(acc["rank"].to_numpy(), k)
                for k in ACCURACY_KS
            }
        )
    out["n_sensitivity_items"] = len(sens)
    out["sensitivity"] = float(sens["passed"].mean())
    out["sensitivity_thresholded"] = float(sens["passed_thresholded"].mean())
    return out


def _cloze_section(o: Outcomes) -> dict:
    a = o.accuracy
    sets = {}
    for name, rows in o.sensitivity.groupby("set", sort=False):
        set_acc = None if a is None else a[a["set"] == name]
        stats = _cloze_stats(rows, set_acc)
        stats["conditions"] = {
            cond: _cloze_stats(
                cond_rows, None if a is None else set_acc[set_acc["condition"] == cond]
            )
            for cond, cond_rows in rows.groupby("condition", sort=False)
            if cond
        }
        sets[str(name)] = stats
    return {
        "threshold": prediction.SENSITIVITY_THRESHOLD,
        "ranked": a is not None,
        "sets": sets,
    }


def _classified(correct_labels: np.ndarray, predicted: np.ndarray) -> dict:
    return {
        "n": int(correct_labels.size),
        "mcc": classification.mcc(correct_labels, predicted),
        "accuracy": float(np.mean(correct_labels == predicted)),
    }


def _labelled_section(o: Outcomes) -> dict:
    frame = o.labelled
    truth, predicted = frame["label"].to_numpy(bool), frame["predicted"].to_numpy(bool)
    split = frame["split"].to_numpy(object)
    out = dict(o.classifier)
    out.update(_classified(truth, predicted))
    out["splits"] = {
        str(s): _classified(truth[split == s], predicted[split == s]) for s in dict.fromkeys(split)
    }
    return out


_HEADLINE_SECTIONS = {"blimp": "pairs", "sensitivity": "cloze", "mcc": "labelled"}


def _headline_levels(statistic: str, mean_over: str | None, body: dict) -> list[float]:
    """The values a headline averages: one (pooled) or one per level of ``mean_over``."""
    if statistic == "sensitivity":  # cloze results are per set; the headline averages them
        if mean_over != "set":
            raise ValueError(f"a cloze headline is a mean over 'set' (got mean_over={mean_over!r})")
        return [s["sensitivity"] for s in body["sets"].values()]
    if mean_over is None:
        return [body[statistic]]
    if statistic == "blimp":
        return [g["blimp"] for g in body["groups"][mean_over].values()]
    return [s["mcc"] for s in body["splits"].values()]


def _headline(spec: Benchmark, result: dict) -> dict:
    h = spec.headline
    body = result[_HEADLINE_SECTIONS[h.statistic]]
    value = (
        None if body is None else float(np.mean(_headline_levels(h.statistic, h.mean_over, body)))
    )
    return {
        "statistic": h.statistic,
        "mean_over": h.mean_over,
        "description": h.description,
        "value": value,
    }


def _result(spec: Benchmark, note: str | None = None, **sections) -> dict:
    result = {"benchmark": spec.name, "form": spec.form, "note": note, "headline": None}
    result.update({k: sections.get(k) for k in ("pairs", "cloze", "labelled")})
    result["headline"] = _headline(spec, result)
    return result


# ----------------------------------------------------------------------------- public
def evaluate_items(
    bench: Benchmark | str,
    items: Items,
    scores: Mapping[str, float],
    *,
    kind: str | None = None,
    ranks: Mapping[str, int] | None = None,
    seed: int = 0,
    n_folds: int = classification.N_FOLDS,
) -> dict:
    """The statistics of one benchmark from a model's unit scores (see the module for the keys).

    Parameters
    ----------
    bench
        The benchmark (a description or its name); ``items`` must be its items.
    scores
        Unit id → score: a sentence's score for pairs and labelled sentences; the natural-log
        probability of the completion given the context for cloze units.
    kind
        The scorer's kind (``"cola"``, ``"mlm"``, ``"causal"``, ``"ngram"``, or ``None``);
        ``"cola"`` classifies labelled sentences at threshold 0, any other at a fitted one.
    ranks
        Cloze only: unit id → rank of the completion among the model's predictions (1 = top).
    seed, n_folds
        The cross-validation of a fitted threshold.

    Examples
    --------
    Two comparisons of BLiMP's paradigm ``x``, one of ``y``: the headline is the mean over
    paradigms (1.0 and 0.0), the pooled criterion 2 of 3.

    >>> from li_adger.benchmarks import Items
    >>> units = pd.DataFrame({"id": list("abcdef"), "sentence": list("abcdef")})
    >>> comparisons = pd.DataFrame({"pair_id": list("123"), "good_id": list("ace"),
    ...     "bad_id": list("bdf"), "UID": ["x", "x", "y"], "linguistics_term": ["t"] * 3,
    ...     "field": ["f"] * 3})
    >>> r = evaluate_items("blimp", Items("blimp", "pairs", units, comparisons),
    ...     {"a": -1.0, "b": -2.0, "c": -3.0, "d": -4.0, "e": -6.0, "f": -5.0})
    >>> r["headline"]["value"], round(r["pairs"]["blimp"], 4), r["pairs"]["groups"]["UID"]["y"]
    (0.5, 0.6667, {'n_pairs': 1, 'blimp': 0.0})
    >>> sorted(r), r["cloze"], r["labelled"]
    (['benchmark', 'cloze', 'form', 'headline', 'labelled', 'note', 'pairs'], None, None)
    """
    spec = spec_of(bench)
    o = outcomes(spec, items, scores, ranks=ranks, kind=kind, seed=seed, n_folds=n_folds)
    return summarize_outcomes(spec, o)


def summarize_outcomes(bench: Benchmark | str, o: Outcomes) -> dict:
    """The statistics of :func:`evaluate_items` from a model's :class:`Outcomes`.

    Examples
    --------
    >>> import pandas as pd
    >>> o = Outcomes("npi", pairs=pd.DataFrame({"environment": ["adverbs", "only"],
    ...     "contrast": ["scope", "scope"], "paradigm": ["p", "q"], "passed": [True, False]}))
    >>> r = summarize_outcomes("npi", o)
    >>> r["headline"]["value"], r["pairs"]["groups"]["environment"]["only"]
    (0.5, {'n_pairs': 1, 'blimp': 0.0})
    """
    spec = spec_of(bench)
    sections: dict = {}
    if o.pairs is not None:
        sections["pairs"] = _pairs_section(spec, o.pairs)
    if o.sensitivity is not None:
        sections["cloze"] = _cloze_section(o)
    if o.labelled is not None:
        sections["labelled"] = _labelled_section(o)
    return _result(spec, **sections)


def result_from_shares(bench: Benchmark | str, shares: pd.DataFrame, *, note: str) -> dict:
    """A pairs benchmark's result (the shape of :func:`evaluate_items`) from published shares:
    one row per group of pairs with the benchmark's group columns, ``n`` (its pairs) and
    ``share`` (the share of them passed), e.g. a paper's per-paradigm accuracies. A group
    level's value is the pooled share over its pairs, as for a model.

    Examples
    --------
    >>> shares = pd.DataFrame({"UID": ["x", "y"], "linguistics_term": ["t", "t"],
    ...     "field": ["f", "f"], "n": [1000.0, 1000.0], "share": [0.9, 0.6]})
    >>> r = result_from_shares("blimp", shares, note="a paper")
    >>> round(r["headline"]["value"], 3), r["pairs"]["n_pairs"], r["note"]
    (0.75, 2000, 'a paper')
    """
    spec = spec_of(bench)
    return _result(spec, note, pairs=_shares(shares, spec.groups))
