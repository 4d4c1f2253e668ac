"""A model's outcome on every item of one benchmark: what each statistic of the family is a
share (or an MCC) of, and what the bootstrap resamples.

:func:`outcomes` takes a benchmark (:data:`li_adger.benchmarks.BENCHMARKS`), its
:class:`~li_adger.benchmarks.spec.Items` and a model's scores (unit id → float) and returns the
:class:`Outcomes`: per pair whether it passed (:func:`metric_adc.core.blimp_pass`), per cloze
item whether it passed and the best rank of its expected completions
(:mod:`metric_adc.prediction`), per labelled sentence its prediction
(:mod:`metric_adc.classification`). :mod:`metric_adc.family.statistics` aggregates them,
:mod:`metric_adc.report.analysis` resamples them. Scores for every unit a part refers to are
required; an id that is not a unit of the benchmark, a missing score or a non-finite one raises
:class:`ValueError` naming it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from li_adger.benchmarks import Benchmark, Items, benchmark
from metric_adc import classification, core, prediction

__all__ = ["KINDS", "Outcomes", "outcomes", "spec_of"]

KINDS: tuple[str, ...] = ("cola", "mlm", "causal", "ngram")
"""Scorer kinds :func:`outcomes` knows; ``"cola"`` (a classifier's signed score) is
classified at threshold 0, every other kind at a fitted threshold."""


def spec_of(bench: Benchmark | str) -> Benchmark:
    """A benchmark's description, from itself or its name.

    Examples
    --------
    >>> spec_of("npi").form, spec_of(spec_of("npi")).name
    ('pairs', 'npi')
    """
    return benchmark(bench) if isinstance(bench, str) else bench


# ----------------------------------------------------------------------------- inputs
def _require(values: Mapping[str, float], columns: list[pd.Series], what: str, part: str) -> None:
    """Raise naming every unit id of ``columns`` (together, each once) that ``values`` lacks."""
    ids = dict.fromkeys(i for c in columns for i in c.to_numpy(object))
    missing = [i for i in ids if i not in values]
    if missing:
        raise ValueError(
            f"{what!r} lacks {len(missing)} of the {len(ids)} unit id(s) that {part} refers to, "
            f"e.g. {missing[0]!r}"
        )


def _lookup(values: Mapping[str, float], ids: pd.Series, what: str, part: str) -> np.ndarray:
    _require(values, [ids], what, part)
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
    _require(scores, [c["good_id"], c["bad_id"]], "scores", "comparisons")
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
    _require(scores, [c["good_id"], c["bad_id"]], "scores", "comparisons")
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
    spec = spec_of(bench)
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
