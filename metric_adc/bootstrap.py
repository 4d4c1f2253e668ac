"""Bootstrap confidence intervals and paired comparisons for pair-level statistics.

Resampling is either over pairs or over clusters of pairs (``clusters=``, e.g. the
phenomenon of each pair: pairs of one phenomenon are not independent). Randomness is
always a :class:`numpy.random.Generator` passed in.

Every supported statistic is a function of per-pair sums, so a resample is just a vector of
counts (how often each pair or cluster was drawn) and the statistic is computed from
``counts @ components`` — fast and exact. Statistics (``statistic=``):

- ``"blimp"``, ``"human_sign"``, ``"adc"`` (needs ``delta``), ``"adc_auc"`` (uses
  ``delta`` as ``δ_max``, default 5): shares of pairs;
- ``"pearson_pairs"``: Pearson's r between model and human deltas.

Pairs with a missing human judgement (NaN) are dropped first, as in
:func:`metric_adc.core.summarize`; in BLiMP-only mode (``human_delta=None``) only
``"blimp"`` is available.

:func:`stratified_ci` serves the other benchmarks of the family, whose statistics are
functions of counts per stratum (passes and failures; or the four cells of a confusion
matrix): units are resampled *within* each stratum (e.g. BLiMP's pairs within each paradigm),
so every stratum keeps its size, as in the design of the benchmark.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from metric_adc import classification, formulas
from metric_adc.input_checks import as_model_and_human, check_delta

__all__ = [
    "COUNT_STATISTICS",
    "STATISTICS",
    "bootstrap_ci",
    "bootstrap_cis",
    "paired_comparison",
    "resampled_sums",
    "stratified_ci",
]

STATISTICS = ("blimp", "human_sign", "adc", "adc_auc", "pearson_pairs")

COUNT_STATISTICS: dict[str, int] = {"mean_of_shares": 2, "pooled_share": 2, "mcc": 4}
"""The statistics of :func:`stratified_ci` → the number of cells per stratum they read:
``(passed, failed)`` for the shares, ``(TP, FP, FN, TN)`` for the MCC."""


def _components(statistic: str, m: np.ndarray, h: np.ndarray | None, delta: float | None):
    """Per-pair columns whose column sums determine the statistic, and the finishing function."""
    if statistic not in STATISTICS:
        raise ValueError(f"'statistic' must be one of {STATISTICS} (got {statistic!r})")
    if h is None and statistic != "blimp":
        raise ValueError(f"statistic {statistic!r} needs human deltas (got human_delta=None)")
    if statistic == "blimp":
        per = (m > 0).astype(float)
    elif statistic == "human_sign":
        per = (np.sign(m) == np.sign(h)).astype(float)
    elif statistic == "adc":
        if delta is None:
            raise ValueError("statistic 'adc' needs 'delta' (got None)")
        per = formulas.adc_passes(m, h, check_delta(delta)).astype(float)
    elif statistic == "adc_auc":
        dmax = formulas.DEFAULT_AUC_MAX if delta is None else check_delta(delta)
        per = formulas.auc_terms(m, h, dmax)
    else:
        cols = np.column_stack([np.ones_like(m), m, h, m * m, h * h, m * h])
        return cols, _pearson_from_sums
    return np.column_stack([per, np.ones_like(per)]), _ratio_from_sums


def _ratio_from_sums(s: np.ndarray) -> np.ndarray:
    return s[..., 0] / s[..., 1]


def _pearson_from_sums(s: np.ndarray) -> np.ndarray:
    n, sx, sy, sxx, syy, sxy = (s[..., i] for i in range(6))
    cov = sxy - sx * sy / n
    vx = sxx - sx * sx / n
    vy = syy - sy * sy / n
    with np.errstate(invalid="ignore", divide="ignore"):
        return cov / np.sqrt(vx * vy)


def _prepare(model_delta, human_delta, clusters):
    m, h = as_model_and_human(model_delta, human_delta)
    c = None
    if clusters is not None:
        c = np.asarray([str(x) for x in clusters], dtype=object)
        if c.size != m.size:
            raise ValueError(f"'clusters' has {c.size} entries, expected {m.size} (one per pair)")
    if h is not None:
        keep = ~np.isnan(h)
        m, h = m[keep], h[keep]
        c = None if c is None else c[keep]
    if m.size < 2:
        raise ValueError(f"need at least 2 evaluable pairs to bootstrap (got {m.size})")
    return m, h, c


def _units(cols: np.ndarray, clusters: np.ndarray | None) -> np.ndarray:
    """Resampling units: one row per pair, or per cluster (the column sums of its pairs)."""
    if clusters is None:
        return cols
    names, inverse = np.unique(clusters, return_inverse=True)
    if names.size < 2:
        raise ValueError(f"need at least 2 clusters to resample clusters (got {names.size})")
    out = np.zeros((names.size, cols.shape[1]))
    np.add.at(out, inverse, cols)
    return out


_CHUNK = 1 << 21
"""Draws per chunk of resamples: the counts of a chunk take ``8 × _CHUNK`` bytes, whatever the
number of resamples."""


def _check_rng(rng: np.random.Generator, n_resamples: int) -> None:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"'rng' must be a numpy.random.Generator (got {type(rng).__name__})")
    if n_resamples < 1:
        raise ValueError(f"'n_resamples' must be >= 1 (got {n_resamples})")


def resampled_sums(units: np.ndarray, rng: np.random.Generator, n_resamples: int) -> np.ndarray:
    """Column sums of ``units`` (one row per resampling unit) over ``n_resamples`` bootstrap
    resamples: ``(n_resamples, n_columns)``.

    Each resample draws ``len(units)`` rows uniformly with replacement; the draws of a chunk of
    resamples become counts with one ``bincount`` and the sums one product ``counts @ units``,
    so every column — every statistic stacked into ``units`` — shares the same resamples, and
    memory stays bounded (:data:`_CHUNK`) for any number of resamples.

    Examples
    --------
    >>> units = np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 1.0]])
    >>> sums = resampled_sums(units, np.random.default_rng(0), 5)
    >>> sums.shape, bool((sums[:, 1] == 3).all())
    ((5, 2), True)
    """
    _check_rng(rng, n_resamples)
    n = units.shape[0]
    out = np.empty((n_resamples, units.shape[1]))
    rows = max(1, _CHUNK // n)
    for start in range(0, n_resamples, rows):
        r = min(rows, n_resamples - start)
        draws = rng.integers(0, n, size=(r, n))
        draws += (np.arange(r) * n)[:, None]
        counts = np.bincount(draws.ravel(), minlength=r * n).reshape(r, n)
        out[start : start + r] = counts @ units
    return out


def _check_level(level: float) -> float:
    if not 0 < level < 1:
        raise ValueError(f"'level' must be in (0, 1) (got {level})")
    return float(level)


def _interval(samples: np.ndarray, level: float) -> tuple[float | None, float | None]:
    ok = samples[np.isfinite(samples)]
    if ok.size == 0:
        return None, None
    a = (1 - level) / 2
    lo, hi = np.quantile(ok, [a, 1 - a])
    return float(lo), float(hi)


def bootstrap_ci(
    model_delta: ArrayLike,
    human_delta: ArrayLike | None = None,
    *,
    statistic: str = "adc",
    delta: float | None = 1.0,
    rng: np.random.Generator,
    n_resamples: int = 2000,
    clusters: Sequence[str] | None = None,
    level: float = 0.95,
) -> dict[str, float | int | None]:
    """Percentile bootstrap confidence interval of a pair-level statistic.

    ``clusters`` (one label per pair) switches from resampling pairs to resampling whole
    clusters. Returns ``{"statistic", "estimate", "low", "high", "se", "level",
    "n_resamples", "n_units"}``; resamples where the statistic is undefined (a constant
    Pearson side) are left out of the quantiles. :func:`bootstrap_cis` gives several
    statistics on the same resamples.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> ci = bootstrap_ci([1.0, 0.2, -0.3, 0.8], [1.1, 0.9, 0.5, 0.7], statistic="adc",
    ...                   delta=0.5, rng=rng, n_resamples=200)
    >>> ci["estimate"], ci["low"] <= ci["estimate"] <= ci["high"]
    (0.5, True)
    """
    return bootstrap_cis(
        model_delta,
        human_delta,
        statistics=[(statistic, delta)],
        rng=rng,
        n_resamples=n_resamples,
        clusters=clusters,
        level=level,
    )[0]


def bootstrap_cis(
    model_delta: ArrayLike,
    human_delta: ArrayLike | None = None,
    *,
    statistics: Sequence[tuple[str, float | None]],
    rng: np.random.Generator,
    n_resamples: int = 2000,
    clusters: Sequence[str] | None = None,
    level: float = 0.95,
) -> list[dict[str, float | int | None]]:
    """:func:`bootstrap_ci` of each ``(statistic, delta)`` of ``statistics``, all on the same
    resamples (drawn once: :func:`resampled_sums`).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> cis = bootstrap_cis([1.0, 0.2, -0.3, 0.8], [1.1, 0.9, 0.5, 0.7],
    ...                     statistics=[("blimp", None), ("adc", 0.5)], rng=rng, n_resamples=200)
    >>> [(c["statistic"], c["estimate"]) for c in cis]
    [('blimp', 0.75), ('adc', 0.5)]
    """
    level = _check_level(level)
    m, h, c = _prepare(model_delta, human_delta, clusters)
    parts = [_components(stat, m, h, delta) for stat, delta in statistics]
    units = np.column_stack([_units(cols, c) for cols, _ in parts])
    sums = resampled_sums(units, rng, n_resamples)
    out, at = [], 0
    for (stat, _), (cols, finish) in zip(statistics, parts, strict=True):
        k = cols.shape[1]
        estimate = float(finish(cols.sum(axis=0)))
        samples = finish(sums[:, at : at + k])
        at += k
        lo, hi = _interval(samples, level)
        ok = samples[np.isfinite(samples)]
        out.append(
            {
                "statistic": stat,
                "estimate": estimate if math.isfinite(estimate) else None,
                "low": lo,
                "high": hi,
                "se": float(ok.std(ddof=1)) if ok.size > 1 else None,
                "level": level,
                "n_resamples": int(n_resamples),
                "n_units": int(units.shape[0]),
            }
        )
    return out


def paired_comparison(
    model_delta_a: ArrayLike,
    model_delta_b: ArrayLike,
    human_delta: ArrayLike | None = None,
    *,
    rng: np.random.Generator,
    statistic: str = "adc",
    delta: float | None = 1.0,
    n_resamples: int = 2000,
    clusters: Sequence[str] | None = None,
    level: float = 0.95,
) -> dict[str, float | int | None]:
    """Compare two systems on the same pairs: ``a − b`` with a bootstrap CI and p-value.

    Both systems are evaluated on the same resamples (pairs or clusters). The two-sided
    p-value tests "no difference" by centring the bootstrap distribution of the difference
    on 0: ``(1 + #{|d* − d| >= |d|}) / (1 + n_resamples)``.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> r = paired_comparison([1.0, 0.5, 0.8, 1.2], [-1.0, 0.5, -0.8, 1.2],
    ...                       [1.0, 0.4, 0.9, 1.0], delta=0.5, rng=rng, n_resamples=500)
    >>> r["a"], r["b"], r["difference"]
    (1.0, 0.5, 0.5)
    """
    level = _check_level(level)
    na, nb = len(np.atleast_1d(model_delta_a)), len(np.atleast_1d(model_delta_b))
    if na != nb:
        raise ValueError(
            f"'model_delta_a' has {na} pairs but 'model_delta_b' has {nb}: "
            "a paired comparison needs the same pairs"
        )
    ma, _ = as_model_and_human(model_delta_a, human_delta, "model_delta_a")
    mb, _ = as_model_and_human(model_delta_b, human_delta, "model_delta_b")
    # stack both systems' columns so one resample serves both
    m_both = np.concatenate([ma, mb])
    h_both = None if human_delta is None else np.concatenate([np.asarray(human_delta, float)] * 2)
    c_both = None if clusters is None else list(clusters) * 2
    m2, h2, c2 = _prepare(m_both, h_both, c_both)
    half = m2.size // 2
    cols_a, finish = _components(statistic, m2[:half], None if h2 is None else h2[:half], delta)
    cols_b, _ = _components(statistic, m2[half:], None if h2 is None else h2[half:], delta)
    ca = None if c2 is None else c2[:half]
    ua, ub = _units(cols_a, ca), _units(cols_b, ca)
    a = float(finish(cols_a.sum(axis=0)))
    b = float(finish(cols_b.sum(axis=0)))
    d = a - b
    sums = resampled_sums(np.column_stack([ua, ub]), rng, n_resamples)
    k = ua.shape[1]
    diffs = finish(sums[:, :k]) - finish(sums[:, k:])
    ok = diffs[np.isfinite(diffs)]
    lo, hi = _interval(diffs, level)
    p = float((1 + np.sum(np.abs(ok - d) >= abs(d) - 1e-12)) / (1 + ok.size)) if ok.size else None
    return {
        "statistic": statistic,
        "a": a,
        "b": b,
        "difference": d,
        "low": lo,
        "high": hi,
        "p_value": p,
        "level": level,
        "n_resamples": int(n_resamples),
        "n_units": int(ua.shape[0]),
    }


def _count_statistic(statistic: str, counts: np.ndarray) -> np.ndarray:
    """The statistic of cell counts ``(..., n_strata, n_cells)``: one value per leading index."""
    if statistic == "mcc":
        total = counts.sum(axis=-2)
        return classification.mcc_from_counts(*(total[..., i] for i in range(4)))
    passed, n = counts[..., 0], counts.sum(axis=-1)
    if statistic == "pooled_share":
        return passed.sum(axis=-1) / n.sum(axis=-1)
    return np.mean(passed / n, axis=-1)


def stratified_ci(
    counts: ArrayLike,
    *,
    statistic: str,
    rng: np.random.Generator,
    n_resamples: int = 2000,
    level: float = 0.95,
) -> dict[str, float | int | str | None]:
    """Percentile bootstrap interval of a statistic of cell counts, resampling units within
    strata.

    ``counts`` has one row per stratum and one column per cell (:data:`COUNT_STATISTICS`):
    ``(passed, failed)`` for ``"mean_of_shares"`` (the mean over strata of each stratum's
    share: BLiMP's mean over paradigms, the diagnostics' mean over sets) and
    ``"pooled_share"`` (passes over all units); ``(TP, FP, FN, TN)`` for ``"mcc"`` (the MCC
    of the summed cells; predictions are held fixed). A resample draws each stratum's units
    with replacement, as many as it has; its cell counts then follow a multinomial
    distribution with the stratum's own cell shares, which is what is drawn (exact, and as
    fast for 67,000 pairs as for 67). Returns ``{"statistic", "estimate", "low", "high",
    "se", "level", "n_resamples", "n_units", "n_strata"}``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> ci = stratified_ci([[9, 1], [5, 5]], statistic="mean_of_shares", rng=rng,
    ...                    n_resamples=500)
    >>> ci["estimate"], ci["n_units"], ci["n_strata"], ci["low"] < 0.7 < ci["high"]
    (0.7, 20, 2, True)
    >>> stratified_ci([[3, 0, 0, 3]], statistic="mcc", rng=rng, n_resamples=10)["estimate"]
    1.0
    >>> stratified_ci([[1, 2, 3]], statistic="pooled_share", rng=rng)
    Traceback (most recent call last):
    ValueError: 'counts' must have 2 columns per stratum for 'pooled_share' (got shape (1, 3))
    """
    level = _check_level(level)
    if statistic not in COUNT_STATISTICS:
        raise ValueError(f"'statistic' must be one of {list(COUNT_STATISTICS)} (got {statistic!r})")
    c = np.asarray(counts, dtype=float)
    cells = COUNT_STATISTICS[statistic]
    if c.ndim != 2 or c.shape[1] != cells or c.shape[0] == 0:
        raise ValueError(
            f"'counts' must have {cells} columns per stratum for {statistic!r} (got shape {c.shape})"
        )
    if np.any(c < 0) or np.any(c != np.floor(c)):
        raise ValueError("'counts' must be whole numbers >= 0")
    sizes = c.sum(axis=1)
    if np.any(sizes == 0):
        raise ValueError(
            f"every stratum needs at least 1 unit (stratum {int(np.argmin(sizes))} has 0)"
        )
    estimate = float(_count_statistic(statistic, c))
    _check_rng(rng, n_resamples)
    drawn = rng.multinomial(
        sizes.astype(np.int64), c / sizes[:, None], size=(n_resamples, c.shape[0])
    )
    samples = _count_statistic(statistic, drawn.astype(float))
    lo, hi = _interval(samples, level)
    return {
        "statistic": statistic,
        "estimate": estimate,
        "low": lo,
        "high": hi,
        "se": float(samples.std(ddof=1)) if samples.size > 1 else None,
        "level": level,
        "n_resamples": int(n_resamples),
        "n_units": int(sizes.sum()),
        "n_strata": int(c.shape[0]),
    }
