"""Word-prediction statistics of Ettinger's (2020) diagnostics: accuracy at k and sensitivity.

Pure NumPy (inputs checked by :mod:`metric_adc.input_checks`). Definitions (Ettinger 2020):

- **Accuracy at k** (§7.1): the share of items whose expected completion is among the model's
  top ``k`` predictions, i.e. whose rank is ``<= k`` (rank 1 = the model's top prediction).
  An item with several expected completions takes the best (lowest) rank of them.
- **Sensitivity** (§7.2, §8.2, §9.2): the share of items in which the model assigns the good
  completion a higher probability than the bad one. An item may hold several comparisons
  (CPRAG-102: the expected completion against *both* inappropriate ones); it passes only if
  all of them do.
- **Thresholded sensitivity** (§7.2): the same with the probability difference required to be
  *greater than* .01 (:data:`SENSITIVITY_THRESHOLD`): ``P(good) − P(bad) > .01``, with
  ``P = exp(score)`` for natural-log scores — strict, as in the paper (more probable by more
  than .01) and its code (``abs(p_good − p_bad) > thresh``).

Scores are natural-log probabilities (``<= 0``; ``-inf`` is a probability of 0). Documented
choices for degenerate input (each raises :class:`ValueError` naming the argument): NaN or
``+inf`` scores, scores above ``1e-6`` (not a log-probability), length mismatches, no items,
ranks below 1 or not whole numbers, ``k < 1``, a negative threshold. With threshold 0 the
comparison is made on the log scale, so probabilities too small for a float still compare.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from metric_adc.input_checks import as_numbers, refuse_where

__all__ = [
    "LOG_PROB_TOLERANCE",
    "SENSITIVITY_THRESHOLD",
    "accuracy_at_k",
    "best_rank",
    "item_passes",
    "prefers_good",
    "sensitivity",
]

SENSITIVITY_THRESHOLD: float = 0.01
"""Ettinger's (2020, §7.2) probability-difference threshold of the thresholded sensitivity."""

LOG_PROB_TOLERANCE = 1e-6
"""How far above 0 a log-probability may be (rounding) and still be read as one (as 0)."""


def _log_probs(values: ArrayLike, name: str) -> np.ndarray:
    arr = as_numbers(values, name)
    bad = np.isnan(arr) | (arr > LOG_PROB_TOLERANCE)
    refuse_where(arr, bad, name, "natural-log probabilities (<= 0, -inf allowed)")
    return np.minimum(arr, 0.0)


def _ranks(values: ArrayLike, name: str = "ranks") -> np.ndarray:
    arr = as_numbers(values, name)
    bad = ~(arr >= 1) | (np.isfinite(arr) & (arr != np.floor(arr)))
    refuse_where(arr, bad, name, "whole numbers >= 1")
    return arr


def accuracy_at_k(ranks: ArrayLike, k: int) -> float:
    """Share of items whose expected completion ranks in the model's top ``k`` (rank ``<= k``).

    ``ranks`` holds one rank per item (rank 1 = the top prediction; ``inf`` = never predicted,
    e.g. out of the vocabulary).

    Examples
    --------
    >>> accuracy_at_k([1, 3, 7, 2], k=1), accuracy_at_k([1, 3, 7, 2], k=5)
    (0.25, 0.75)
    >>> accuracy_at_k([0, 2], k=1)
    Traceback (most recent call last):
    ValueError: 'ranks' must be whole numbers >= 1 (got 0.0 at position 0)
    """
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        raise ValueError(f"'k' must be a whole number >= 1 (got {k!r})")
    arr = _ranks(ranks)
    if arr.size == 0:
        raise ValueError("'ranks' is empty: expected at least 1 item")
    return float(np.mean(arr <= k))


def best_rank(ranks: ArrayLike, items: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Each item's best (lowest) rank over its expected completions.

    Returns the distinct items (sorted) and their ranks: an item with several expected
    completions counts as predicted when any of them is.

    Examples
    --------
    >>> names, ranks = best_rank([4, 1, 9], ["b", "a", "b"])
    >>> names.tolist(), ranks.tolist()
    (['a', 'b'], [1.0, 4.0])
    """
    arr = _ranks(ranks)
    keys = np.asarray(items, dtype=object)
    if keys.shape != arr.shape:
        raise ValueError(f"'items' has {keys.size} entries, expected {arr.size} (one per rank)")
    names, inverse = np.unique(keys.astype(str), return_inverse=True)
    best = np.full(names.size, np.inf)
    np.minimum.at(best, inverse, arr)
    return names, best


def prefers_good(
    logp_good: ArrayLike, logp_bad: ArrayLike, *, threshold: float = 0.0
) -> np.ndarray:
    """Per comparison: is the good completion more probable than the bad one, by more than
    ``threshold``? (``P(good) − P(bad) > threshold``; with ``threshold=0``, ``log P(good) >
    log P(bad)``.)

    Examples
    --------
    >>> import math
    >>> good, bad = [math.log(0.30), math.log(0.10), -800.0], [math.log(0.295), math.log(0.2), -900.0]
    >>> prefers_good(good, bad).tolist()
    [True, False, True]
    >>> prefers_good(good, bad, threshold=SENSITIVITY_THRESHOLD).tolist()
    [False, False, False]
    """
    g = _log_probs(logp_good, "logp_good")
    b = _log_probs(logp_bad, "logp_bad")
    if g.shape != b.shape:
        raise ValueError(f"'logp_good' has {g.size} values but 'logp_bad' has {b.size}")
    t = float(threshold)
    if not t >= 0 or np.isinf(t):
        raise ValueError(
            f"'threshold' must be a finite probability difference >= 0 (got {threshold!r})"
        )
    if t == 0:
        return g > b
    return (np.exp(g) - np.exp(b)) > t


def item_passes(
    logp_good: ArrayLike,
    logp_bad: ArrayLike,
    *,
    threshold: float = 0.0,
    items: ArrayLike | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Per item: does every one of its comparisons prefer the good completion
    (:func:`prefers_good`)? ``items`` labels each comparison's item (default: one item per
    comparison). Returns the distinct items (sorted) and their passes; :func:`sensitivity` is
    their mean.

    Examples
    --------
    >>> import math
    >>> lp = math.log
    >>> names, passed = item_passes([lp(.5), lp(.5), lp(.2)], [lp(.1), lp(.6), lp(.1)],
    ...                             items=["x", "x", "y"])
    >>> names.tolist(), passed.tolist()
    (['x', 'y'], [False, True])
    """
    passed = prefers_good(logp_good, logp_bad, threshold=threshold)
    if passed.size == 0:
        raise ValueError("no comparisons: expected at least 1")
    if items is None:
        return np.arange(passed.size), passed
    keys = np.asarray(items, dtype=object)
    if keys.shape != passed.shape:
        raise ValueError(
            f"'items' has {keys.size} entries, expected {passed.size} (one per comparison)"
        )
    names, inverse = np.unique(keys.astype(str), return_inverse=True)
    all_pass = np.ones(names.size, dtype=bool)
    np.logical_and.at(all_pass, inverse, passed)
    return names, all_pass


def sensitivity(
    logp_good: ArrayLike,
    logp_bad: ArrayLike,
    *,
    threshold: float = 0.0,
    items: ArrayLike | None = None,
) -> float:
    """Share of items in which every comparison prefers the good completion
    (:func:`prefers_good`); ``items`` labels each comparison's item (default: one item per
    comparison).

    Examples
    --------
    >>> import math
    >>> lp = math.log
    >>> sensitivity([lp(.5), lp(.5), lp(.2)], [lp(.1), lp(.6), lp(.1)])
    0.6666666666666666
    >>> sensitivity([lp(.5), lp(.5), lp(.2)], [lp(.1), lp(.6), lp(.1)], items=["x", "x", "y"])
    0.5
    >>> sensitivity([lp(.5), lp(.2)], [lp(.495), lp(.1)], threshold=SENSITIVITY_THRESHOLD)
    0.5
    """
    _, passed = item_passes(logp_good, logp_bad, threshold=threshold, items=items)
    return float(np.mean(passed))
