"""Binary acceptability classification: Matthews correlation and decision thresholds.

Pure NumPy, written here rather than taken from scikit-learn's ``matthews_corrcoef`` because
scikit-learn is not a dependency of the metric and a bootstrap needs the MCC of many confusion
matrices at once (:func:`mcc_from_counts`); its values equal scikit-learn's, and a test checks
them against it. The CoLA paper's conventions (Warstadt, Singh & Bowman 2019):

- **MCC** (Matthews 1975; the paper's metric, §3 and its appendix): the correlation of two
  Boolean variables, ``(TP·TN − FP·FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))``.
- **A classifier's signed score** (e.g. a CoLA classifier's signed confidence) has the natural
  threshold 0: a sentence is predicted acceptable iff its score is ``> 0``.
- **Scores with no natural threshold** (language-model log-probabilities and their
  normalisations, as in Lau et al.'s unsupervised baselines, §4.2): a threshold fitted by 10-fold
  cross-validation on the evaluated set itself — the best threshold on nine tenths of the
  scores classifies the remaining tenth, fold after fold, until every sentence has been
  classified. :func:`cross_validated_predictions` does exactly that: the folds come from a random permutation by the :class:`numpy.random.Generator`
  passed in, the optimum on the other 9 folds is the threshold of highest MCC
  (:func:`best_threshold`), and the held-out fold is predicted with it. The MCC is then
  computed once over all the held-out predictions.

Documented choices for degenerate input: MCC is 0.0 when a margin is empty (all labels, or all
predictions, one class) — the limit scikit-learn's ``matthews_corrcoef`` also returns; NaN or
infinite scores, length mismatches, an empty set, fewer sentences than folds, or ``n_folds <
2`` raise :class:`ValueError` naming the argument.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from metric_adc.input_checks import as_numbers, refuse_where

__all__ = [
    "N_FOLDS",
    "best_threshold",
    "cross_validated_predictions",
    "mcc",
    "mcc_from_counts",
    "predict_at_threshold",
]

N_FOLDS: int = 10
"""Folds of the threshold's cross-validation (Warstadt, Singh & Bowman 2019, §4.2)."""


def _labels(values: ArrayLike, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name!r} must be one-dimensional (got shape {arr.shape})")
    if arr.dtype != bool:
        ok = np.isin(arr, [0, 1]) if arr.dtype.kind in "iuf" else np.zeros(arr.shape, bool)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise ValueError(
                f"{name!r} must be booleans or 0/1 (got {arr[i].item()!r} at position {i})"
            )
        arr = arr.astype(bool)
    return arr


def _scores(values: ArrayLike, name: str = "scores") -> np.ndarray:
    arr = as_numbers(values, name)
    refuse_where(arr, ~np.isfinite(arr), name, "finite")
    return arr


def mcc_from_counts(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, tn: ArrayLike) -> np.ndarray:
    """MCC from the cells of a confusion matrix (arrays broadcast; 0 where a margin is empty,
    as :func:`mcc`): the form a bootstrap over resampled counts needs.

    Examples
    --------
    >>> float(mcc_from_counts(2, 1, 0, 1))  # TP 2, FP 1, FN 0, TN 1: 2 / sqrt(12)
    0.5773502691896258
    >>> mcc_from_counts([5, 3], [0, 3], [0, 0], [5, 0]).tolist()
    [1.0, 0.0]
    """
    tp, fp, fn, tn = (np.asarray(x, dtype=float) for x in (tp, fp, fn, tn))
    denominator = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (tp * tn - fp * fn) / denominator
    return np.where(denominator > 0, value, 0.0)


def mcc(labels: ArrayLike, predictions: ArrayLike) -> float:
    """Matthews correlation coefficient of Boolean labels and predictions (True = acceptable).

    Examples
    --------
    >>> mcc([True, True, False, False], [True, False, False, False])
    0.5773502691896258
    >>> mcc([True, False], [True, True])  # one predicted class: no correlation
    0.0
    """
    y = _labels(labels, "labels")
    p = _labels(predictions, "predictions")
    if y.shape != p.shape:
        raise ValueError(f"'labels' has {y.size} values but 'predictions' has {p.size}")
    if y.size == 0:
        raise ValueError("'labels' is empty: expected at least 1 sentence")
    tp, fp = np.sum(y & p), np.sum(~y & p)
    fn, tn = np.sum(y & ~p), np.sum(~y & ~p)
    return float(mcc_from_counts(tp, fp, fn, tn))


def predict_at_threshold(scores: ArrayLike, threshold: float = 0.0) -> np.ndarray:
    """Predicted acceptable iff ``score > threshold`` (0 for a classifier's signed score).

    Examples
    --------
    >>> predict_at_threshold([0.7, -0.2, 0.0]).tolist()
    [True, False, False]
    """
    return _scores(scores) > float(threshold)


def best_threshold(scores: ArrayLike, labels: ArrayLike) -> float:
    """The threshold of highest MCC on these scores and labels (predict ``score > t``).

    Candidates are ``-inf`` (every sentence acceptable), the midpoints between consecutive
    distinct scores, and ``+inf`` (none acceptable). Ties go to the lowest candidate, so a set
    of one class (every MCC 0) gives ``-inf``. Exact and vectorised: one sort, cumulative
    counts.

    Examples
    --------
    >>> best_threshold([-9.0, -7.0, -3.0, -2.0], [False, False, True, True])
    -5.0
    >>> best_threshold([1.0, 2.0], [True, True])  # one class: every threshold scores 0
    -inf
    """
    s = _scores(scores)
    y = _labels(labels, "labels")
    if s.shape != y.shape:
        raise ValueError(f"'scores' has {s.size} values but 'labels' has {y.size}")
    if s.size == 0:
        raise ValueError("'scores' is empty: expected at least 1 sentence")
    values, inverse = np.unique(s, return_inverse=True)  # ascending
    pos_at = np.bincount(inverse, weights=y, minlength=values.size)
    neg_at = np.bincount(inverse, weights=~y, minlength=values.size)
    # candidate j predicts acceptable every score above it: values[j:] for j = 0..m
    tp = np.concatenate([np.cumsum(pos_at[::-1])[::-1], [0.0]])
    fp = np.concatenate([np.cumsum(neg_at[::-1])[::-1], [0.0]])
    p, n = float(y.sum()), float((~y).sum())
    scores_mcc = mcc_from_counts(tp, fp, p - tp, n - fp)
    midpoints = values[:-1] + np.diff(values) / 2
    candidates = np.concatenate([[-np.inf], midpoints, [np.inf]])
    return float(candidates[int(np.argmax(scores_mcc))])


def cross_validated_predictions(
    scores: ArrayLike,
    labels: ArrayLike,
    *,
    rng: np.random.Generator,
    n_folds: int = N_FOLDS,
) -> np.ndarray:
    """Predictions at a threshold fitted by ``n_folds``-fold cross-validation on this set.

    The sentences are split into ``n_folds`` folds of near-equal size by
    ``rng.permutation``; each fold is predicted (``score > t``) with the threshold ``t``
    of highest MCC on the other folds (:func:`best_threshold`).

    Examples
    --------
    >>> import numpy as np
    >>> scores = [-9.0, -8.5, -8.0, -3.0, -2.5, -2.0, -7.5, -1.5, -9.5, -1.0]
    >>> labels = [False, False, False, True, True, True, False, True, False, True]
    >>> preds = cross_validated_predictions(scores, labels, rng=np.random.default_rng(0), n_folds=5)
    >>> mcc(labels, preds)
    1.0
    """
    s = _scores(scores)
    y = _labels(labels, "labels")
    if s.shape != y.shape:
        raise ValueError(f"'scores' has {s.size} values but 'labels' has {y.size}")
    if isinstance(n_folds, bool) or not isinstance(n_folds, int | np.integer) or n_folds < 2:
        raise ValueError(f"'n_folds' must be a whole number >= 2 (got {n_folds!r})")
    if s.size < n_folds:
        raise ValueError(f"need at least n_folds={n_folds} sentences (got {s.size})")
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"'rng' must be a numpy.random.Generator (got {type(rng).__name__})")
    predictions = np.zeros(s.size, dtype=bool)
    for held_out in np.array_split(rng.permutation(s.size), n_folds):
        train = np.ones(s.size, dtype=bool)
        train[held_out] = False
        predictions[held_out] = s[held_out] > best_threshold(s[train], y[train])
    return predictions
