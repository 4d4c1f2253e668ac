"""The statistics of one benchmark of the family from a model's unit scores, and its reference rows.

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
from dataclasses import dataclass

import numpy as np
import pandas as pd

from li_adger.benchmarks import Benchmark, Items, benchmark
from metric_adc import classification, core, prediction

__all__ = [
    "ACCURACY_KS",
    "KINDS",
    "METRICS",
    "Outcomes",
    "evaluate_items",
    "outcomes",
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

KINDS: tuple[str, ...] = ("cola", "mlm", "causal", "ngram")
"""Scorer kinds :func:`evaluate_items` knows; ``"cola"`` (a classifier's signed score) is
classified at threshold 0, every other kind at a fitted threshold."""


# ----------------------------------------------------------------------------- inputs
def _spec(bench: Benchmark | str) -> Benchmark:
    return benchmark(bench) if isinstance(bench, str) else bench


def _lookup(values: Mapping[str, float], ids: pd.Series, what: str, part: str) -> np.ndarray:
    missing = [i for i in dict.fromkeys(ids.to_numpy(object)) if i not in values]
    if missing:
        raise ValueError(
            f"{what!r} lacks {len(missing)} unit id(s) that {part} refers to, e.g. {missing[0]!r}"
        )
    return np.array([values[i] for i in ids.to_numpy(object)], dtype=float)


def _check_known(values: Mapping[str, float], items: Items, what: str) -> None:
    known = set(items.units["id"].to_numpy(object))
    unknown = [i for i in values if i not in known]
    if unknown:
        raise ValueError(
            f"{what!r} has {len(unknown)} id(s) that are not units of {items.benchmark!r}, "
            f"e.g. {unknown[0]!r}"
        )


# ----------------------------------------------------------------------------- outcomes
@dataclass(frozen=True)
class Outcomes:
    """A model's outcome on every item of one benchmark: what each statistic of
    :func:`evaluate_items` is a share (or an MCC) of, and what :mod:`metric_adc.report.analysis`
    resamples. A part the items do not have is ``None``.

    Attributes
    ----------
    pairs
        One row per comparison of a pairs benchmark: the benchmark's group columns and
        ``passed`` (the good unit scores strictly higher, :func:`metric_adc.core.blimp_pass`).
    sensitivity
        Cloze: one row per sensitivity item, in reading order: ``item_id, set, condition,
        passed, passed_thresholded`` (every comparison of the item prefers the good completion;
        by more than :data:`~metric_adc.prediction.SENSITIVITY_THRESHOLD`).
    accuracy
        Cloze with ranks: one row per accuracy item: ``item_id, set, condition, rank`` (the
        best rank of its expected completions); ``None`` without ranks.
    labelled
        One row per labelled sentence: ``id, split, label, predicted``.
    classifier
        How ``predicted`` was made: ``{"threshold": "zero" | "fitted", "kind", "n_folds",
        "seed"}`` (``None`` without labels).
    """

    benchmark: str
    pairs: pd.DataFrame | None = None
    sensitivity: pd.DataFrame | None = None
    accuracy: pd.DataFrame | None = None
    labelled: pd.DataFrame | None = None
    classifier: dict | None = None


def _pair_outcomes(spec: Benchmark, items: Items, scores: Mapping[str, float]) -> pd.DataFrame:
    c = items.comparisons
    delta = _lookup(scores, c["good_id"], "scores", "comparisons") - _lookup(
        scores, c["bad_id"], "scores", "comparisons"
    )
    frame = c[list(spec.groups)].reset_index(drop=True)
    frame["passed"] = core.blimp_pass(delta)
    return frame


def _per_item(frame: pd.DataFrame, names: np.ndarray, **columns: np.ndarray) -> pd.DataFrame:
    """One row per item of ``frame`` (first occurrence, reading order) with values given for
    the sorted item ``names``."""
    out = frame.drop_duplicates("item_id")[["item_id", "set", "condition"]].reset_index(drop=True)
    position = pd.Index(names.astype(str)).get_indexer(out["item_id"].astype(str))
    for name, values in columns.items():
        out[name] = values[position]
    return out


def _cloze_outcomes(
    items: Items, scores: Mapping[str, float], ranks: Mapping[str, int] | None
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    c = items.comparisons
    good = _lookup(scores, c["good_id"], "scores", "comparisons")
    bad = _lookup(scores, c["bad_id"], "scores", "comparisons")
    item = c["item_id"].to_numpy()
    names, passed = prediction.item_passes(good, bad, items=item)
    _, passed_t = prediction.item_passes(
        good, bad, items=item, threshold=prediction.SENSITIVITY_THRESHOLD
    )
    sens = _per_item(c, names, passed=passed, passed_thresholded=passed_t)
    if ranks is None:
        return sens, None
    a = items.accuracy
    if not len(a):
        return sens, pd.DataFrame(columns=["item_id", "set", "condition", "rank"])
    rank = _lookup(ranks, a["expected_id"], "ranks", "accuracy")
    names, best = prediction.best_rank(rank, a["item_id"].to_numpy())
    return sens, _per_item(a, names, rank=best)


def _labelled_outcomes(
    items: Items, scores: Mapping[str, float], kind: str | None, seed: int, n_folds: int
) -> tuple[pd.DataFrame, dict]:
    labels = items.labels
    values = _lookup(scores, labels["id"], "scores", "labels")
    truth = labels["label"].to_numpy(bool)
    split = labels["split"].to_numpy(object)
    fitted = kind != "cola"
    rng = np.random.default_rng(seed)
    predicted = np.zeros(truth.size, dtype=bool)
    for name in dict.fromkeys(split):
        sel = split == name
        predicted[sel] = (
            classification.cross_validated_predictions(
                values[sel], truth[sel], rng=rng, n_folds=n_folds
            )
            if fitted
            else classification.predict_at_threshold(values[sel], 0.0)
        )
    frame = pd.DataFrame(
        {
            "id": labels["id"].to_numpy(object),
            "split": split,
            "label": truth,
            "predicted": predicted,
        }
    )
    how = {
        "threshold": "fitted" if fitted else "zero",
        "kind": kind,
        "n_folds": n_folds if fitted else None,
        "seed": seed if fitted else None,
    }
    return frame, how


def outcomes(
    bench: Benchmark | str,
    items: Items,
    scores: Mapping[str, float],
    *,
    ranks: Mapping[str, int] | None = None,
    kind: str | None = None,
    seed: int = 0,
    n_folds: int = classification.N_FOLDS,
) -> Outcomes:
    """A model's outcome on every item (see :class:`Outcomes`); the arguments and checks are
    those of :func:`evaluate_items`, which aggregates them.

    Examples
    --------
    >>> import pandas as pd
    >>> from li_adger.benchmarks import Items
    >>> units = pd.DataFrame({"id": ["g1", "b1", "g2", "b2"], "sentence": list("abcd")})
    >>> pairs = pd.DataFrame({"pair_id": ["1", "2"], "good_id": ["g1", "g2"],
    ...                       "bad_id": ["b1", "b2"], "UID": ["x", "y"],
    ...                       "linguistics_term": ["t", "t"], "field": ["f", "f"]})
    >>> o = outcomes("blimp", Items("blimp", "pairs", units, pairs),
    ...              {"g1": -10.0, "b1": -12.0, "g2": -9.0, "b2": -8.0})
    >>> o.pairs["passed"].tolist(), o.sensitivity, o.labelled
    ([True, False], None, None)
    """
    spec = _spec(bench)
    if items.benchmark != spec.name or items.form != spec.form:
        raise ValueError(
            f"'items' are of {items.benchmark!r} ({items.form}), expected {spec.name!r} ({spec.form})"
        )
    if kind is not None and kind not in KINDS:
        raise ValueError(f"'kind' must be one of {KINDS} or None (got {kind!r})")
    if ranks is not None and spec.form != "cloze":
        raise ValueError(f"'ranks' apply to cloze benchmarks only ({spec.name!r} is {spec.form})")
    _check_known(scores, items, "scores")
    if ranks is not None:
        _check_known(ranks, items, "ranks")
    parts: dict = {}
    if len(items.comparisons):
        if spec.form == "cloze":
            parts["sensitivity"], parts["accuracy"] = _cloze_outcomes(items, scores, ranks)
        else:
            parts["pairs"] = _pair_outcomes(spec, items, scores)
    if len(items.labels):
        parts["labelled"], parts["classifier"] = _labelled_outcomes(
            items, scores, kind, seed, n_folds
        )
    return Outcomes(spec.name, **parts)


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
    spec = _spec(bench)
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
    spec = _spec(bench)
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
    spec = _spec(bench)
    return _result(spec, note, pairs=_shares(shares, spec.groups))
