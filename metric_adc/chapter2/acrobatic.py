"""The acrobatic sentences (thesis §2.3), pure: predictions over training orders → the curve.

One initialisation is fine-tuned in several training orders; ``predictions[i, k]`` is
sentence *i*'s label after order *k*. The thesis compares each order's predictions with the
previous order's; a sentence whose label changes at least once is **acrobatic**, one whose
label stays the same in every order is **unathletic**. After the first *k* orders the
acrobatic set is therefore the sentences whose label is not constant over orders 1…k
(:func:`acrobatic_curve`); the last point is the count the thesis reports (1,272 of 4,178).

A sentence's flip count is the number of consecutive orders whose labels differ
(:func:`flip_counts`). The thesis's own ``num_flips`` column also counts the change from the
last order back to the first (``cyclic=True``; its loop compared order 0 with index −1).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from metric_adc import classification

__all__ = [
    "acrobatic_curve",
    "acrobatic_mask",
    "flip_counts",
    "jaccard",
    "majority_accuracy",
    "mcc_per_order",
]


def _matrix(predictions: ArrayLike) -> np.ndarray:
    arr = np.asarray(predictions)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(
            f"'predictions' must be a non-empty sentences × orders matrix (got shape {arr.shape})"
        )
    if arr.dtype != bool:
        if not np.isin(arr, [0, 1]).all():
            raise ValueError("'predictions' must hold booleans or 0/1")
        arr = arr.astype(bool)
    return arr


def acrobatic_mask(predictions: ArrayLike) -> np.ndarray:
    """Per sentence: does its label differ between any two orders?

    Examples
    --------
    >>> acrobatic_mask([[1, 1, 1], [1, 0, 1], [0, 0, 1]]).tolist()
    [False, True, True]
    """
    p = _matrix(predictions)
    return p.any(axis=1) & ~p.all(axis=1)


def acrobatic_curve(predictions: ArrayLike) -> np.ndarray:
    """The share of acrobatic sentences after the first k orders, k = 1…K (0 at k = 1).
    The unathletic share is one minus it.

    Examples
    --------
    >>> acrobatic_curve([[1, 1, 1], [1, 0, 1], [0, 0, 1], [0, 0, 0]]).tolist()
    [0.0, 0.25, 0.5]
    """
    p = _matrix(predictions)
    ever_true = np.logical_or.accumulate(p, axis=1)
    ever_false = np.logical_or.accumulate(~p, axis=1)
    return (ever_true & ever_false).mean(axis=0)


def flip_counts(predictions: ArrayLike, *, cyclic: bool = False) -> np.ndarray:
    """Per sentence, how many consecutive orders' labels differ (``cyclic``: also the last
    order against the first, as the thesis's ``num_flips`` column counts).

    Examples
    --------
    >>> flip_counts([[1, 0, 1, 1], [0, 0, 0, 1]]).tolist()
    [2, 1]
    >>> flip_counts([[1, 0, 1, 1], [0, 0, 0, 1]], cyclic=True).tolist()
    [2, 2]
    """
    p = _matrix(predictions)
    changes = (p[:, 1:] != p[:, :-1]).sum(axis=1)
    if cyclic:
        changes = changes + (p[:, 0] != p[:, -1])
    return changes.astype(int)


def mcc_per_order(predictions: ArrayLike, labels: ArrayLike) -> np.ndarray:
    """The MCC of each order's predictions against ``labels``
    (:func:`metric_adc.classification.mcc`).

    Examples
    --------
    >>> mcc_per_order([[1, 1], [0, 1], [0, 0]], [True, False, False]).round(3).tolist()
    [1.0, 0.5]
    """
    p = _matrix(predictions)
    y = np.asarray(labels)
    if y.shape != (p.shape[0],):
        raise ValueError(
            f"'labels' has shape {y.shape}; expected ({p.shape[0]},), one per sentence"
        )
    return np.array([classification.mcc(y, p[:, k]) for k in range(p.shape[1])])


def majority_accuracy(labels: ArrayLike) -> float:
    """The accuracy of a majority-class predictor: the share of the commoner label (its MCC
    is 0 by :func:`metric_adc.classification.mcc`'s convention).

    Examples
    --------
    >>> majority_accuracy([True, True, False])
    0.6666666666666666
    """
    y = np.asarray(labels, dtype=bool)
    if y.size == 0:
        raise ValueError("'labels' is empty: expected at least 1 sentence")
    share = float(y.mean())
    return max(share, 1.0 - share)


def jaccard(a: set[str] | list[str], b: set[str] | list[str]) -> float | None:
    """|A ∩ B| / |A ∪ B| of two sets of ids (``None`` when both are empty).

    Examples
    --------
    >>> jaccard({"a", "b", "c"}, {"b", "c", "d"})
    0.5
    >>> jaccard(set(), set()) is None
    True
    """
    a, b = set(a), set(b)
    union = a | b
    return len(a & b) / len(union) if union else None
