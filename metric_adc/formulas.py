"""The ADC's formulas on arrays already checked: z-scores, the criteria, the δ sweep, the
pair-level summary and the correlations, each a pure function of float arrays.

:mod:`metric_adc.core` and :mod:`metric_adc.correlation` are the checked entrances: they
validate what a caller gives (:mod:`metric_adc.input_checks`, each message naming the
argument), then compute here. Code that has validated its inputs once at its own entrance
(the human ceiling's thousands of split-halves, a result row's breakdown by group) computes
here directly, without checking the same arrays again. This module imports nothing from the
package; SciPy is imported where a coefficient is computed, so that importing the metric does
not load it.

``m`` is always the model deltas and ``h`` the human deltas: 1-D float arrays of equal length,
``m`` finite where ``h`` is known, ``h`` finite or NaN (a missing judgement); thresholds are
floats > 0. The examples show the formulas; the definitions are in :mod:`metric_adc.core`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = [
    "DEFAULT_AUC_MAX",
    "adc_passes",
    "adc_share",
    "auc_share",
    "auc_terms",
    "blimp_share",
    "breakdown_of",
    "check_share",
    "correlations",
    "correlations_by_id",
    "delta_reaching",
    "differences",
    "pearson_of",
    "spearman_brown_of",
    "summarize_pairs",
    "sweep",
    "zscores",
]

_NO_PAIRS = (
    "'model_delta' and 'human_delta' have no evaluable pairs: expected at least 1 pair with a "
    "human judgement"
)
"""The error when no pair has a human judgement."""

DEFAULT_AUC_MAX: float = 5.0
"""Upper end of the δ range whose normalized area the ADC area reports."""


# ----------------------------------------------------------------------------- z-scores
def _exponent(*arrays: np.ndarray) -> int:
    """The binary exponent of the largest magnitude in ``arrays``: scaling by ``2**-e`` is exact
    and keeps every sum and square of the scaled values in range (±1e308 and 1e-308 alike)."""
    top = max((float(np.max(np.abs(a))) for a in arrays if a.size), default=0.0)
    return int(np.frexp(top)[1]) if top > 0 else 0


def _mean_sd(arr: np.ndarray, name: str, unscaled: np.ndarray) -> tuple[float, float]:
    """Mean and population standard deviation of finite (scaled) values, or raise if z-scores
    over them are undefined (fewer than 2 values, or all equal; the message shows a value of
    ``unscaled``, the values as given)."""
    if arr.size == 0:
        raise ValueError(f"{name!r} is empty: expected at least 2 sentences")
    sd = arr.std()
    if arr.size < 2 or sd == 0 or not np.isfinite(sd):
        raise ValueError(
            f"{name!r} are constant (all {float(unscaled[0])!r}): z-scores are undefined"
        )
    return arr.mean(), sd


def zscores(
    arr: np.ndarray, name: str = "scores", population: np.ndarray | None = None
) -> np.ndarray:
    """``arr`` z-scored (``ddof=0``) over itself or over ``population``, scaled first by a power
    of two: z-scores do not change with the scale, the scaling is exact, and no sum or square
    overflows or underflows however large or small the scores. Raises (naming ``name``) when
    z-scores are undefined.

    Examples
    --------
    >>> zscores(np.array([1.0, 2.0, 3.0])).round(4).tolist()
    [-1.2247, 0.0, 1.2247]
    >>> zscores(np.array([3.0]), population=np.array([1.0, 2.0, 3.0])).round(4).tolist()
    [1.2247]
    """
    over = arr if population is None else population
    e = _exponent(arr, over)
    mean, sd = _mean_sd(np.ldexp(over, -e), name, over)
    return (np.ldexp(arr, -e) - mean) / sd


def differences(values: Mapping[str, float], good: Sequence[str], bad: Sequence[str]) -> np.ndarray:
    """``values[g] − values[b]`` for each pair of ids (every id in ``values``, every value a
    real number): the pair deltas of z-scores or of judgements.

    Examples
    --------
    >>> differences({"g": 1.0, "b": -0.5}, ["g"], ["b"]).tolist()
    [1.5]
    """
    with np.errstate(over="ignore", invalid="ignore"):
        return np.array(
            [float(values[g]) - float(values[b]) for g, b in zip(good, bad, strict=True)], float
        )


# ----------------------------------------------------------------------------- criteria
def _evaluable(m: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """The pairs with a human judgement, and how many were left out.

    Examples
    --------
    >>> m, h, n = _evaluable(np.array([1.0, 2.0]), np.array([0.5, np.nan]))
    >>> m.tolist(), h.tolist(), n
    ([1.0], [0.5], 1)
    """
    keep = ~np.isnan(h)
    return m[keep], h[keep], int((~keep).sum())


def _mean(x: np.ndarray, empty: str = _NO_PAIRS) -> float:
    """The mean of ``x``, raising ``empty`` when there is nothing to average."""
    if x.size == 0:
        raise ValueError(empty)
    return float(np.mean(x))


def adc_passes(m: np.ndarray, h: np.ndarray, d: float) -> np.ndarray:
    """Per pair: ``sign(Δlm) == sign(Δh)`` and ``|Δh − Δlm| < δ`` (false where ``h`` is NaN).

    Examples
    --------
    >>> adc_passes(np.array([1.0, 1.0, -0.2]), np.array([1.3, 2.5, 0.1]), 1.0).tolist()
    [True, False, False]
    """
    with np.errstate(invalid="ignore"):
        return (np.sign(m) == np.sign(h)) & (np.abs(h - m) < d)


def blimp_share(m: np.ndarray) -> float:
    """The share of pairs passing the BLiMP criterion (``Δlm > 0``).

    Examples
    --------
    >>> blimp_share(np.array([0.3, 0.0, -1.0, 2.0]))
    0.5
    """
    return _mean(m > 0, "'model_delta' is empty: expected at least 1 pair")


def adc_share(m: np.ndarray, h: np.ndarray, d: float) -> float:
    """The share of pairs with a judgement passing ADC(δ).

    Examples
    --------
    >>> adc_share(np.array([1.0, 1.0, -0.2, 2.0]), np.array([1.3, 2.5, 0.1, np.nan]), 1.0)
    0.3333333333333333
    """
    m, h, _ = _evaluable(m, h)
    return _mean(adc_passes(m, h, d))


def auc_terms(m: np.ndarray, h: np.ndarray, d: float) -> np.ndarray:
    """Per pair, the area under ADC(δ) on ``[0, d]`` over ``d``: ``max(0, 1 − |Δh − Δlm| / d)``
    where the signs agree, else 0.

    Examples
    --------
    >>> auc_terms(np.array([1.0, -1.0]), np.array([2.0, 3.0]), 4.0).tolist()
    [0.75, 0.0]
    """
    agree = np.sign(m) == np.sign(h)
    with np.errstate(over="ignore"):  # a tiny d: the ratio is inf, the term 0
        return np.where(agree, np.clip(1.0 - np.abs(h - m) / d, 0.0, 1.0), 0.0)


def auc_share(m: np.ndarray, h: np.ndarray, d: float) -> float:
    """The normalized area under ADC(δ) on ``[0, d]``: the mean of :func:`auc_terms` over the
    pairs with a judgement.

    Examples
    --------
    >>> auc_share(np.array([1.0, -1.0, 5.0]), np.array([2.0, 3.0, np.nan]), 4.0)
    0.375
    """
    m, h, _ = _evaluable(m, h)
    return _mean(auc_terms(m, h, d))


def check_share(share: float) -> None:
    """Raise unless a share of pairs (a real number) is in (0, 1].

    >>> check_share(0)
    Traceback (most recent call last):
    ...
    ValueError: 'share' must be in (0, 1] (got 0)
    """
    if not 0.0 < share <= 1.0:
        raise ValueError(f"'share' must be in (0, 1] (got {share!r})")


def delta_reaching(m: np.ndarray, h: np.ndarray, share: float) -> float | None:
    """The smallest δ at which ADC(δ) reaches ``share`` of the pairs with a judgement (the
    infimum), ``None`` when sign agreement alone stays below it. ``share`` must be in (0, 1].

    Examples
    --------
    >>> delta_reaching(np.array([1.0, 2.0, 3.0, -1.0]), np.array([1.1, 2.5, 2.0, 1.0]), 0.5)
    0.5
    """
    check_share(share)
    m, h, _ = _evaluable(m, h)
    if m.size == 0:
        raise ValueError(_NO_PAIRS)
    need = math.ceil(share * m.size - 1e-9)
    err = np.sort(np.abs(h - m)[np.sign(m) == np.sign(h)])
    if err.size < need:
        return None
    return float(err[need - 1])


def sweep(m: np.ndarray, h: np.ndarray, grid: Sequence[float]) -> dict[str, list[float] | float]:
    """ADC at each threshold of the sorted, non-empty ``grid``, the normalized area up to its
    largest finite threshold and the sign agreement, over the pairs with a judgement.

    Examples
    --------
    >>> s = sweep(np.array([1.0, -1.0, 0.4]), np.array([2.0, 3.0, 0.5]), [0.5, 1.0, 2.0])
    >>> s["adc"], s["human_sign"]
    ([0.3333333333333333, 0.3333333333333333, 0.6666666666666666], 0.6666666666666666)
    """
    m, h, _ = _evaluable(m, h)
    err = np.abs(h - m)
    agree = np.sign(m) == np.sign(h)
    human_sign = _mean(agree)
    # ADC(δ) = #{agreeing pairs with err < δ} / n: one sort, then a count per δ
    passing = np.searchsorted(np.sort(err[agree]), grid, side="left")
    finite_max = max((d for d in grid if math.isfinite(d)), default=DEFAULT_AUC_MAX)
    return {
        "deltas": [float(d) for d in grid],
        "adc": [int(c) / m.size for c in passing],
        "auc": _mean(auc_terms(m, h, finite_max)),
        "human_sign": human_sign,
    }


def _pair_summary(
    m: np.ndarray, h: np.ndarray | None, keys: Sequence[str], auc_max: float, n_excluded: int
) -> dict:
    """:func:`metric_adc.core.summarize` of evaluable pairs (``h`` without NaN, or ``None``):
    the thresholds as their keys (``repr`` of a float), ``n_excluded`` as counted.

    Examples
    --------
    >>> s = _pair_summary(np.array([1.0, -0.5]), np.array([1.3, 0.4]), ["1.0"], 5.0, 0)
    >>> s["blimp"], s["adc"], s["pearson_pairs"]
    (0.5, {'1.0': 0.5}, None)
    """
    out: dict = {
        "n_pairs": int(m.size),
        "n_excluded": n_excluded,
        "blimp": blimp_share(m),
        "human_sign": None,
        "adc": dict.fromkeys(keys),
        "adc_auc": None,
        "pearson_pairs": None,
        "pearson_pairs_p": None,
        "spearman_pairs": None,
        "spearman_pairs_p": None,
    }
    if h is None:
        return out
    out["human_sign"] = adc_share(m, h, math.inf)
    out["adc"] = {k: adc_share(m, h, float(k)) for k in keys}
    out["adc_auc"] = auc_share(m, h, auc_max)
    r = correlations(m, h)
    out["pearson_pairs"], out["pearson_pairs_p"] = r["pearson"], r["pearson_p"]
    out["spearman_pairs"], out["spearman_pairs_p"] = r["spearman"], r["spearman_p"]
    return out


def summarize_pairs(
    m: np.ndarray, h: np.ndarray | None, keys: Sequence[str], auc_max: float, min_pairs: int = 2
) -> dict:
    """:func:`metric_adc.core.summarize`: the pairs with a judgement (all pairs without human
    deltas), at least ``min_pairs`` of them, summarized by :func:`_pair_summary`.

    Examples
    --------
    >>> s = summarize_pairs(np.array([1.0, 0.5, 2.0]), np.array([1.3, 2.5, np.nan]), ["1.0"],
    ...                     5.0, 2)
    >>> s["n_pairs"], s["n_excluded"], s["adc"]
    (2, 1, {'1.0': 0.5})
    """
    n_excluded = 0
    if h is not None:
        m, h, n_excluded = _evaluable(m, h)
    if m.size < min_pairs:
        raise ValueError(
            f"'model_delta' has {m.size} evaluable pairs, fewer than 'min_pairs' ({min_pairs}) "
            f"(got {m.size}; {n_excluded} excluded for a missing human judgement)"
        )
    return _pair_summary(m, h, keys, auc_max, n_excluded)


def breakdown_of(
    labels: Sequence[str],
    m: np.ndarray,
    h: np.ndarray | None,
    keys: Sequence[str],
    auc_max: float,
) -> dict[str, dict]:
    """:func:`metric_adc.core.breakdown`: :func:`summarize_pairs` per label (one per pair), in
    sorted order; a group with no evaluable pair has ``n_pairs`` 0 and ``None`` statistics.

    Examples
    --------
    >>> b = breakdown_of(["LI", "LI", "Adger"], np.array([1.0, -1.0, 0.5]),
    ...                  np.array([1.2, 0.4, np.nan]), ["1.0"], 5.0)
    >>> b["LI"]["blimp"], b["Adger"]["n_pairs"], b["Adger"]["n_excluded"], b["Adger"]["adc"]
    (0.5, 0, 1, {'1.0': None})
    """
    g = np.asarray(labels, dtype=object)
    out: dict[str, dict] = {}
    for name in sorted(set(g.tolist())):
        sel = g == name
        hs = None if h is None else h[sel]
        n_known = int(sel.sum()) if hs is None else int((~np.isnan(hs)).sum())
        if n_known == 0:
            empty = _pair_summary(np.zeros(1), None, keys, auc_max, 0)
            empty.update(n_pairs=0, n_excluded=int(sel.sum()), blimp=None)
            out[name] = empty
            continue
        out[name] = summarize_pairs(m[sel], hs, keys, auc_max, 1)
    return out


# ----------------------------------------------------------------------------- correlations
def _unit_scale(a: np.ndarray) -> np.ndarray:
    top = float(np.max(np.abs(a))) if a.size else 0.0
    return np.ldexp(a, -int(np.frexp(top)[1])) if top > 0 else a


def _paired(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points where both are known (NaN drops a point), each side scaled by a power of two
    (exact: no coefficient changes) so that no sum of squares overflows or underflows.

    Examples
    --------
    >>> [a.tolist() for a in _paired(np.array([1.0, 2.0, 8.0]), np.array([1.0, np.nan, 2.0]))]
    [[0.0625, 0.5], [0.25, 0.5]]
    """
    keep = ~(np.isnan(x) | np.isnan(y))
    return _unit_scale(x[keep]), _unit_scale(y[keep])


def _defined(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether a coefficient is defined: at least 3 points, neither side constant."""
    return x.size >= 3 and np.ptp(x) > 0 and np.ptp(y) > 0


def _clipped(r: float) -> float:
    """A coefficient as a float in [-1, 1] (against rounding)."""
    return max(-1.0, min(1.0, float(r)))


def correlations(x: np.ndarray, y: np.ndarray) -> dict[str, float | int | None]:
    """Pearson and Spearman with two-sided p-values (:mod:`scipy.stats`) over the points where
    both are known (:func:`_paired`); ``None`` for an undefined coefficient (fewer than 3
    points, or a constant side).

    Examples
    --------
    >>> r = correlations(np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 3.0, 2.0, np.nan]))
    >>> r["n"], round(r["pearson"], 3), round(r["spearman"], 3)
    (3, 0.5, 0.5)
    """
    x, y = _paired(x, y)
    out: dict[str, float | int | None] = {
        "n": int(x.size),
        "pearson": None,
        "pearson_p": None,
        "spearman": None,
        "spearman_p": None,
    }
    if not _defined(x, y):
        return out
    from scipy import stats

    r = stats.pearsonr(x, y)
    out["pearson"], out["pearson_p"] = _clipped(r.statistic), float(r.pvalue)
    rho = stats.spearmanr(x, y)
    out["spearman"], out["spearman_p"] = _clipped(rho.statistic), float(rho.pvalue)
    return out


def correlations_by_id(
    scores: Mapping[str, float], judgements: Mapping[str, float], ids: Sequence[str]
) -> dict[str, float | int | None]:
    """:func:`correlations` of the scores of ``ids`` (each in ``scores``) with their judgements
    (NaN where ``judgements`` has none).

    Examples
    --------
    >>> correlations_by_id({"a": 1.0, "b": 2.0, "c": 3.0}, {"a": 0.1, "b": 0.3}, ["a", "b", "c"])["n"]
    2
    """
    x = np.asarray([scores[k] for k in ids], dtype=float)
    y = np.asarray([judgements.get(k, math.nan) for k in ids], dtype=float)
    return correlations(x, y)


def pearson_of(x: np.ndarray, y: np.ndarray) -> float | None:
    """Pearson's r over the points where both are known (:func:`_paired`), ``None`` if undefined.

    Examples
    --------
    >>> pearson_of(np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 3.0, 2.0, np.nan]))
    0.5
    """
    xa, ya = _paired(x, y)
    if not _defined(xa, ya):
        return None
    from scipy import stats

    return _clipped(stats.pearsonr(xa, ya).statistic)


def spearman_brown_of(r: float | None, factor: float = 2.0) -> float | None:
    """Spearman-Brown prophecy of a correlation in [-1, 1] for a measure ``factor`` (> 0) times
    as long; ``None`` stays ``None``, and so does ``r = -1/(factor-1)`` (division by zero).

    Examples
    --------
    >>> spearman_brown_of(0.6)
    0.7499999999999999
    """
    if r is None:
        return None
    denom = 1.0 + (factor - 1.0) * r
    return None if denom == 0 else float(factor * r / denom)
