"""Correlations for the ADC analyses: Pearson and Spearman with p-values, and Spearman-Brown.

Pure NumPy (the p-values from Student's t through the regularized incomplete beta function,
so that importing the metric does not load SciPy). :func:`correlation` serves both levels of the metric (sentence scores vs
human judgements, model deltas vs human deltas); :func:`sentence_correlation` is the sentence
level for scores and judgements keyed by sentence id; :func:`spearman_brown` turns a
split-half correlation into the reliability of the full sample (the human ceiling, or any
measure computed on two halves of its data). All three are re-exported by
:mod:`metric_adc.core`.

An undefined correlation (fewer than 3 points, or a constant side) is ``None``, never NaN.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np
from numpy.typing import ArrayLike

from metric_adc.checks import as_ids, as_numbers, as_scalar, check_mapping

__all__ = ["correlation", "sentence_correlation", "spearman_brown"]


def correlation(x: ArrayLike, y: ArrayLike) -> dict[str, float | int | None]:
    """Pearson and Spearman coefficients with two-sided p-values, over points where both are known.

    NaN in either input drops that point (a missing human judgement). Undefined
    coefficients (fewer than 3 points, or a constant side) are ``None``, never NaN.

    Examples
    --------
    >>> r = correlation([1, 2, 3, 4], [1.0, 3.0, 2.0, float("nan")])
    >>> r["n"], round(r["pearson"], 3), round(r["spearman"], 3)
    (3, 0.5, 0.5)
    >>> correlation([1, 1, 1], [1, 2, 3])["pearson"] is None
    True
    """
    xa, ya = as_numbers(x, "x"), as_numbers(y, "y")
    if xa.shape != ya.shape:
        raise ValueError(f"'x' and 'y' must be of equal length (got {xa.size} and {ya.size})")
    for name, arr in (("x", xa), ("y", ya)):
        inf = np.flatnonzero(np.isinf(arr))
        if inf.size:
            raise ValueError(
                f"{name!r} must be finite or NaN (got {arr[inf[0]]} at position {inf[0]})"
            )
    keep = ~(np.isnan(xa) | np.isnan(ya))
    # both coefficients are scale-free: scale each side by a power of two (exact) so that no
    # sum of squares overflows or underflows, however large or small the values
    xa, ya = (_unit_scale(a[keep]) for a in (xa, ya))
    out: dict[str, float | int | None] = {
        "n": int(xa.size),
        "pearson": None,
        "pearson_p": None,
        "spearman": None,
        "spearman_p": None,
    }
    if xa.size < 3 or np.ptp(xa) == 0 or np.ptp(ya) == 0:
        return out
    r = _pearson(xa, ya)
    out["pearson"], out["pearson_p"] = r, _p_value(r, xa.size)
    rho = _pearson(_ranks(xa), _ranks(ya))
    out["spearman"], out["spearman_p"] = rho, _p_value(rho, xa.size)
    return out


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r of two non-constant samples, clipped to [-1, 1] against rounding."""
    dx, dy = x - x.mean(), y - y.mean()
    r = float(np.dot(dx, dy) / math.sqrt(float(np.dot(dx, dx)) * float(np.dot(dy, dy))))
    return max(-1.0, min(1.0, r))


def _ranks(a: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties sharing their average rank (as Spearman's coefficient needs).

    >>> _ranks(np.array([10.0, 30.0, 20.0, 20.0])).tolist()
    [1.0, 4.0, 2.5, 2.5]
    """
    _, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)
    return (ends - (counts - 1) / 2.0)[inverse]


def _p_value(r: float, n: int) -> float:
    """Two-sided p-value of a correlation ``r`` of ``n`` points under no correlation: Student's
    t with ``n - 2`` degrees of freedom, ``P(|T| >= |t|) = I_{1 - r²}((n - 2) / 2, 1 / 2)``.

    >>> round(_p_value(0.5, 30), 6)  # SciPy: 2 * stats.t.sf(0.5 * (28 / 0.75) ** 0.5, 28)
    0.0049
    """
    return _betainc((n - 2) / 2.0, 0.5, max(0.0, 1.0 - r * r))


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)`` (continued fraction, Lentz).

    >>> round(_betainc(2.0, 3.0, 0.4), 12)  # 1 - (0.6^4 + 4 * 0.4 * 0.6^3) exactly
    0.5248
    """
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function, evaluated by Lentz's method."""
    tiny, eps = 1e-300, 1e-16
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    out = d
    for m in range(1, 10_000):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            out *= d * c
        if abs(d * c - 1.0) < eps:
            break
    return out


def _unit_scale(a: np.ndarray) -> np.ndarray:
    top = float(np.max(np.abs(a))) if a.size else 0.0
    return np.ldexp(a, -int(np.frexp(top)[1])) if top > 0 else a


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
    return correlation([scores[k] for k in keys], [judgements.get(k, math.nan) for k in keys])


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
    factor = k
    denom = 1.0 + (factor - 1.0) * r
    return None if denom == 0 else float(factor * r / denom)
