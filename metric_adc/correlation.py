"""Correlations for the ADC analyses: Pearson and Spearman with p-values, and Spearman-Brown.

:func:`correlation` serves both levels of the metric (sentence scores vs human judgements,
model deltas vs human deltas); :func:`pearson` is its Pearson coefficient alone (the human
ceiling takes hundreds of them); :func:`sentence_correlation` is the sentence level for scores
and judgements keyed by sentence id; :func:`spearman_brown` turns a split-half correlation into
the reliability of the full sample (the human ceiling, or any measure computed on two halves of
its data). All but :func:`pearson` are re-exported by :mod:`metric_adc.core`. This module
checks the inputs (each message naming the argument); the arithmetic is in
:mod:`metric_adc.formulas`. The coefficients, ranks and p-values come from :mod:`scipy.stats`
(``pearsonr``, ``spearmanr``, imported where a coefficient is computed, so that importing the
metric does not load SciPy); what SciPy does not do is added there: the points paired by NaN,
the power-of-two scaling against overflow, ``None`` (never NaN or a warning) for an undefined
coefficient, and Spearman-Brown.

An undefined correlation (fewer than 3 points, or a constant side) is ``None``, never NaN.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np
from numpy.typing import ArrayLike

from metric_adc import formulas
from metric_adc.input_checks import as_ids, as_numbers, as_scalar, check_mapping

__all__ = ["correlation", "pearson", "sentence_correlation", "spearman_brown"]


def _checked(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """``x`` and ``y`` as float arrays of equal length, finite or NaN (a missing value); ±inf
    raises."""
    xa, ya = as_numbers(x, "x"), as_numbers(y, "y")
    if xa.shape != ya.shape:
        raise ValueError(f"'x' and 'y' must be of equal length (got {xa.size} and {ya.size})")
    for name, arr in (("x", xa), ("y", ya)):
        inf = np.flatnonzero(np.isinf(arr))
        if inf.size:
            raise ValueError(
                f"{name!r} must be finite or NaN (got {arr[inf[0]]} at position {inf[0]})"
            )
    return xa, ya


def correlation(x: ArrayLike, y: ArrayLike) -> dict[str, float | int | None]:
    """Pearson and Spearman coefficients with two-sided p-values, over points where both are known.

    NaN in either input drops that point (a missing human judgement). Undefined
    coefficients (fewer than 3 points, or a constant side) are ``None``, never NaN.

    Examples
    --------
    >>> r = correlation([1, 2, 3, 4], [1.0, 3.0, 2.0, float("nan")])
    >>> r["n"], round(r["pearson"], 3), round(r["spearman"], 3), round(r["pearson_p"], 3)
    (3, 0.5, 0.5, 0.667)
    >>> correlation([1, 1, 1], [1, 2, 3])["pearson"] is None
    True
    """
    return formulas.correlations(*_checked(x, y))


def pearson(x: ArrayLike, y: ArrayLike) -> float | None:
    """Pearson's r over the points where both are known: :func:`correlation`'s ``pearson``,
    without the Spearman coefficient and the p-values.

    Examples
    --------
    >>> pearson([1, 2, 3, 4], [1.0, 3.0, 2.0, float("nan")])
    0.5
    >>> pearson([1, 2], [2, 1]) is None
    True
    """
    return formulas.pearson_of(*_checked(x, y))


def sentence_correlation(
    scores: Mapping[str, float],
    judgements: Mapping[str, float],
    ids: Iterable[str] | None = None,
) -> dict[str, float | int | None]:
    """:func:`correlation` of sentence scores with human judgements, matched by sentence id.

    Over ``ids`` (default: every id of ``scores``, in its order) that have a score; an id
    without a judgement, or with a NaN one, is left out (``n`` counts the sentences used).

    Examples
    --------
    >>> r = sentence_correlation({"a": 1.0, "b": 2.0, "c": 3.0, "d": 9.0},
    ...                          {"a": 0.1, "b": 0.3, "c": 0.2, "d": float("nan")})
    >>> r["n"], r["pearson"]
    (3, 0.5)
    >>> sentence_correlation({"a": 1.0}, {"a": 0.1}, ids=["a", "b"])["n"]
    1
    """
    check_mapping(scores, "scores")
    check_mapping(judgements, "judgements", "sentence id to judgement")
    keys = [k for k in (scores if ids is None else as_ids(ids, "ids")) if k in scores]
    for name, values in (("scores", scores), ("judgements", judgements)):
        bad = next((k for k in keys if k in values and not _number(values[k])), None)
        if bad is not None:
            raise ValueError(
                f"{name!r} must map ids to finite numbers or NaN (got {values[bad]!r:.80} for "
                f"id {bad!r})"
            )
    return formulas.correlations_by_id(scores, judgements, keys)


def _number(v: object) -> bool:
    """A real number that is finite or NaN (a missing value)."""
    try:
        return not math.isinf(as_scalar(v, "value"))
    except TypeError:
        return False


def spearman_brown(r: float | None, factor: float = 2.0) -> float | None:
    """Spearman-Brown prophecy: reliability of a measure ``factor`` times as long.

    With ``factor=2`` it turns a split-half correlation into the reliability of the full
    sample. ``None`` (an undefined correlation) stays ``None``; so does ``r = -1/(factor-1)``,
    where the formula divides by zero.

    Examples
    --------
    >>> round(spearman_brown(0.6), 4)
    0.75
    >>> spearman_brown(0.5, factor=3)
    0.75
    >>> spearman_brown(None) is None
    True
    >>> spearman_brown(1.5)
    Traceback (most recent call last):
    ...
    ValueError: 'r' must be a correlation in [-1, 1] (got 1.5)
    """
    if r is None:
        return None
    if not -1.0 <= as_scalar(r, "r", "a correlation in [-1, 1] or None") <= 1.0:
        raise ValueError(f"'r' must be a correlation in [-1, 1] (got {r!r})")
    k = as_scalar(factor, "factor", "a number > 0")
    if not k > 0 or not math.isfinite(k):
        raise ValueError(f"'factor' must be a finite number > 0 (got {factor!r:.80})")
    return formulas.spearman_brown_of(r, k)
