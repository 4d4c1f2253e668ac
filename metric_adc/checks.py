"""Input checks shared by the math modules: numbers in, clean 1-D float arrays out, or an error.

Every public function of :mod:`metric_adc.core` and :mod:`metric_adc.bootstrap` validates its
input through these, so a bad value is reported once, in the same words, naming the argument,
what was expected and what was received. The policy for missing human judgements is here too:
a NaN human delta marks a pair excluded from every statistic, and such a pair needs no model
score (its model delta may be NaN); anything else must be finite.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["as_finite", "as_human_deltas", "as_model_and_human", "as_numbers"]


def as_numbers(values: ArrayLike, name: str) -> np.ndarray:
    """``values`` as a 1-D float array (NaN and infinities allowed), or raise naming ``name``.

    Examples
    --------
    >>> as_numbers([1, float("nan")], "scores").tolist()
    [1.0, nan]
    >>> as_numbers([[1.0]], "scores")
    Traceback (most recent call last):
    ...
    ValueError: 'scores' must be one-dimensional (got shape (1, 1))
    """
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name!r} must be numbers (got {values!r:.80})") from exc
    if arr.ndim != 1:
        raise ValueError(f"{name!r} must be one-dimensional (got shape {arr.shape})")
    return arr


def as_finite(values: ArrayLike, name: str) -> np.ndarray:
    """``values`` as a 1-D float array of finite numbers, or raise naming ``name``.

    Examples
    --------
    >>> as_finite([1, 2.5], "scores").tolist()
    [1.0, 2.5]
    >>> as_finite([1.0, float("inf"), float("nan")], "scores")
    Traceback (most recent call last):
    ...
    ValueError: 'scores' must be finite (got inf at position 1; 2 non-finite in all)
    """
    arr = as_numbers(values, name)
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"{name!r} must be finite (got {float(arr[i])!r} at position {i}; {bad.size} non-finite in all)"
        )
    return arr


def as_human_deltas(
    values: ArrayLike | None, n: int, name: str = "human_delta"
) -> np.ndarray | None:
    """Human deltas as ``n`` floats, NaN (or ``None``) marking a missing judgement; ``None``
    stays ``None`` (BLiMP-only mode: no human deltas at all). ±inf raises.

    Examples
    --------
    >>> as_human_deltas([0.5, None], 2).tolist()
    [0.5, nan]
    >>> as_human_deltas(None, 3) is None
    True
    >>> as_human_deltas([0.5], 2)
    Traceback (most recent call last):
    ...
    ValueError: 'human_delta' has 1 values, expected 2 (one per pair)
    """
    if values is None:
        return None
    try:
        arr = np.asarray(
            [np.nan if v is None else v for v in values]
            if not isinstance(values, np.ndarray)
            else values,
            dtype=float,
        )
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name!r} must be numbers or None (got {values!r:.80})") from exc
    if arr.ndim != 1:
        raise ValueError(f"{name!r} must be one-dimensional (got shape {arr.shape})")
    if arr.shape[0] != n:
        raise ValueError(f"{name!r} has {arr.shape[0]} values, expected {n} (one per pair)")
    inf = np.flatnonzero(np.isinf(arr))
    if inf.size:
        raise ValueError(f"{name!r} must be finite or NaN (got {arr[inf[0]]} at position {inf[0]})")
    return arr


def as_model_and_human(
    model_delta: ArrayLike, human_delta: ArrayLike | None, name: str = "model_delta"
) -> tuple[np.ndarray, np.ndarray | None]:
    """Model deltas and human deltas (or ``None``) as arrays of one length per pair.

    A model delta may be NaN only where the human delta is NaN (a pair excluded for a missing
    judgement needs no model score); everywhere else it must be finite.

    Examples
    --------
    >>> m, h = as_model_and_human([1.0, float("nan")], [0.5, float("nan")])
    >>> m.tolist(), h.tolist()
    ([1.0, nan], [0.5, nan])
    >>> as_model_and_human([1.0, float("nan")], [0.5, 0.2])
    Traceback (most recent call last):
    ...
    ValueError: 'model_delta' must be finite (got nan at position 1; 1 non-finite in all with a human judgement)
    """
    m = as_numbers(model_delta, name)
    h = as_human_deltas(human_delta, m.size)
    bad = ~np.isfinite(m) if h is None else (~np.isfinite(m) & ~np.isnan(h))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{name!r} must be finite (got {float(m[i])!r} at position {i}; "
            f"{int(bad.sum())} non-finite in all{'' if h is None else ' with a human judgement'})"
        )
    return m, h
