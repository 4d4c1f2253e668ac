"""Split-halves: random halves of participants, per-half means, the ADC statistics of each
split (:func:`split_half`) and summaries over splits.

The human ceiling (:mod:`metric_adc.ceiling.compute`) reads its inputs and calls
:func:`split_half`; the task comparison (:mod:`metric_adc.ceiling.tasks`) uses the halves and
the summaries. :func:`split_half` checks its settings once, then scores every split on arrays
with :mod:`metric_adc.formulas`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from metric_adc import formulas as f
from metric_adc.core import DEFAULT_DELTAS
from metric_adc.input_checks import as_sweep_grid, check_share, delta_key

__all__ = [
    "CURVE_GRID",
    "INTERVAL",
    "SHARES",
    "delta_quantiles",
    "first_reaching",
    "half_means",
    "split_half",
    "split_masks",
    "summarize_splits",
]

INTERVAL: tuple[float, float] = (2.5, 97.5)
"""Percentiles of the spread over splits that every summary reports."""

SHARES: tuple[float, ...] = (0.9, 0.95)
"""Shares of pairs for which the δ that humans need is reported."""

CURVE_GRID: tuple[float, ...] = tuple(round(0.01 * k, 10) for k in range(1, 501))
"""δ grid of the ADC(δ) curve: 0.01, 0.02, …, 5.0."""


def split_masks(groups: Sequence[str], n_splits: int, rng: np.random.Generator) -> np.ndarray:
    """Random half splits of participants, balanced within each group: ``(n_splits, n)`` bool.

    ``True`` marks half A. A group of odd size gives its extra member to A or B at random.

    Examples
    --------
    >>> m = split_masks(["a", "a", "b", "b", "b"], 4, np.random.default_rng(0))
    >>> m.shape, m[:, :2].sum(axis=1).tolist()
    ((4, 5), [1, 1, 1, 1])
    >>> sorted(set(m[:, 2:].sum(axis=1).tolist())) in ([1], [2], [1, 2])
    True
    """
    if n_splits < 1:
        raise ValueError(f"'n_splits' must be >= 1 (got {n_splits!r})")
    g = np.asarray([str(x) for x in groups], dtype=object)
    if g.size < 2:
        raise ValueError(f"need at least 2 participants to split (got {g.size})")
    keys = rng.random((n_splits, g.size))
    masks = np.zeros((n_splits, g.size), dtype=bool)
    for name in sorted(set(g.tolist())):
        idx = np.flatnonzero(g == name)
        ranks = np.argsort(np.argsort(keys[:, idx], axis=1), axis=1)
        n_a = idx.size // 2 + (rng.random(n_splits) < 0.5) * (idx.size % 2)
        masks[:, idx] = ranks < n_a[:, None]
    return masks


def half_means(values: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-item means of halves A (``masks``) and B (``~masks``): two ``(n_splits, n_items)``.

    ``values`` is participants × items with NaN where a participant did not rate. Raises if an
    item has no rating in some half.

    Examples
    --------
    >>> v = np.array([[1.0, np.nan], [3.0, 2.0], [5.0, 4.0]])
    >>> a, b = half_means(v, np.array([[True, True, False]]))
    >>> a.tolist(), b.tolist()
    ([[2.0, 2.0]], [[5.0, 4.0]])
    """
    values = np.asarray(values, dtype=float)
    masks = np.asarray(masks, dtype=bool)
    if values.ndim != 2 or masks.ndim != 2 or masks.shape[1] != values.shape[0]:
        raise ValueError(
            f"'masks' must be (n_splits, n_participants) for 'values' (n_participants, n_items) "
            f"(got {masks.shape} and {values.shape})"
        )
    rated = (~np.isnan(values)).astype(float)
    filled = np.nan_to_num(values)
    counts_a = masks.astype(float) @ rated
    # counts are whole numbers, exact in floats: half B's are the total minus half A's
    counts = (counts_a, rated.sum(axis=0) - counts_a)
    out = []
    for half, n in zip((masks, ~masks), counts, strict=True):
        if (n == 0).any():
            split, item = map(int, np.argwhere(n == 0)[0])
            raise ValueError(
                f"item {item} has no rating in a half of split {split}: every item needs raters "
                "in both halves (split within the groups that rated the same items)"
            )
        out.append((half.astype(float) @ filled) / n)
    return out[0], out[1]


def summarize_splits(x: Iterable[float | None]) -> dict[str, float | None]:
    """A statistic over splits: mean, sd, 2.5–97.5 percentiles and the 95% interval of the mean.

    ``None`` and non-finite values (undefined in a split) are left out; with none left every
    value is ``None``.

    Examples
    --------
    >>> iv = summarize_splits([0.4, 0.5, 0.6, None])
    >>> round(iv["mean"], 3), round(iv["sd"], 3), round(iv["mean_hi"] - iv["mean"], 3)
    (0.5, 0.1, 0.113)
    >>> summarize_splits([])["mean"] is None
    True
    """
    x = np.asarray([v for v in x if v is not None and np.isfinite(v)], dtype=float)
    if x.size == 0:
        return {"mean": None, "sd": None, "lo": None, "hi": None, "mean_lo": None, "mean_hi": None}
    sd = float(x.std(ddof=1)) if x.size > 1 else 0.0
    half = 1.959963984540054 * sd / math.sqrt(x.size)
    lo, hi = np.percentile(x, INTERVAL)
    mean = float(x.mean())
    return {
        "mean": mean,
        "sd": sd,
        "lo": float(lo),
        "hi": float(hi),
        "mean_lo": mean - half,
        "mean_hi": mean + half,
    }


def delta_quantiles(values: Iterable[float | None]) -> dict[str, float | None]:
    """Per-split δs (``None`` where a split never reaches the share, counted as ∞): their
    median and 2.5/97.5 percentiles (``None`` where infinite) and the share of splits that
    reach it.

    Examples
    --------
    >>> delta_quantiles([0.5, 0.75, None, 1.0])
    {'median': 0.75, 'lo': 0.5, 'hi': None, 'reached_in': 0.75}
    """
    x = np.array([math.inf if v is None else v for v in values], dtype=float)
    q = np.percentile(x, (50, *INTERVAL), method="inverted_cdf") if x.size else [math.inf] * 3
    finite = lambda v: float(v) if math.isfinite(v) else None  # noqa: E731
    return {
        "median": finite(q[0]),
        "lo": finite(q[1]),
        "hi": finite(q[2]),
        "reached_in": float(np.isfinite(x).mean()) if x.size else 0.0,
    }


def first_reaching(grid: Sequence[float], curve: np.ndarray, share: float) -> float | None:
    """The first δ of ``grid`` at which a mean ADC(δ) ``curve`` over splits reaches ``share``.

    Examples
    --------
    >>> first_reaching([0.5, 1.0, 1.5], np.array([0.2, 0.9, 0.95]), 0.9), first_reaching(
    ...     [0.5], np.array([0.2]), 0.9)
    (1.0, None)
    """
    hits = np.flatnonzero(np.asarray(curve) >= share - 1e-12)
    return float(grid[hits[0]]) if hits.size else None


def split_half(
    values: np.ndarray,
    ids: Sequence[str],
    groups: Sequence[str],
    good_ids: Sequence[str],
    bad_ids: Sequence[str],
    *,
    n_splits: int,
    rng: np.random.Generator,
    deltas: Iterable[float] = DEFAULT_DELTAS,
    shares: Iterable[float] = SHARES,
    grid: Sequence[float] = CURVE_GRID,
) -> dict:
    """The split-half ceiling of a participants × sentences matrix of z-scores.

    Half B's per-sentence means are z-scored over all sentences and their pair deltas scored
    against half A's deltas by the formulas a model's row uses (:mod:`metric_adc.formulas`,
    behind :func:`metric_adc.core.zscore`, :func:`~metric_adc.core.adc` and
    :func:`~metric_adc.core.delta_sweep`). Returns ``{"n_pairs", "n_sentences",
    "n_participants", "n_splits", "stats": {name: interval}, "delta_for": {share: {...}},
    "curve": {...}}`` where an interval is ``{"mean", "sd", "lo", "hi", "mean_lo",
    "mean_hi"}``: the mean over splits, their standard deviation, the 2.5–97.5 percentiles
    over splits and the 95% Monte Carlo interval of the mean (narrows as splits grow).
    ``delta_for`` gives, per share of pairs, the first grid δ where the mean curve reaches it
    (``of_mean_curve``) and the median and 2.5/97.5 percentiles of the per-split δ
    (:func:`metric_adc.core.delta_for_share`; ``None``
    where more splits never reach the share than the quantile allows) and ``reached_in``.
    ``delta_for_of_sign`` gives the same quantiles for the δ at which ADC reaches the share
    *of its own limit* ``ADC(∞)`` (the sign agreement): where the size condition stops biting.

    Statistics: ``blimp``, ``human_sign``, ``adc_<δ>``, ``adc_auc``, ``pearson_pairs``,
    ``adc_raw_<δ>`` (ADC with half B's means *not* z-scored: the scale mismatch between
    z-scored model scores and mean z-scored judgements removed),
    ``reliability_pairs`` (Spearman-Brown of ``pearson_pairs`` computed on raw means),
    ``pearson_sentences``, ``reliability_sentences`` and ``noise_sd``: the estimated standard
    deviation of the measurement error of a full-sample pair delta, ``sd(ΔA − ΔB) / 2``
    (two halves each carry about twice the error variance of the full sample).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> truth = np.repeat([1.0, -1.0], 20)
    >>> values = truth + rng.normal(0, 0.5, size=(10, 40))
    >>> ids = [f"s{i}" for i in range(40)]
    >>> out = split_half(values, ids, ["g"] * 10, ids[:20], ids[20:], n_splits=5,
    ...                  rng=np.random.default_rng(1))
    >>> out["n_pairs"], out["stats"]["blimp"]["mean"]
    (20, 1.0)
    """
    deltas = list(deltas)
    shares = list(shares)
    ids = [str(i) for i in ids]
    index = {s: k for k, s in enumerate(ids)}
    if len(index) != len(ids):
        raise ValueError("'ids' must be unique")
    missing = [i for i in list(good_ids) + list(bad_ids) if i not in index]
    if missing:
        raise ValueError(
            f"{len(missing)} pair member(s) have no participant data, e.g. {missing[0]!r}"
        )
    g_idx = np.array([index[i] for i in good_ids])
    b_idx = np.array([index[i] for i in bad_ids])
    masks = split_masks(groups, n_splits, rng)
    mean_a, mean_b = half_means(values, masks)
    keys = [delta_key(d) for d in deltas]
    grid = as_sweep_grid(grid)
    for share in shares:
        check_share(share)
    rows: dict[str, list] = {
        k: []
        for k in (
            "blimp",
            "human_sign",
            *(f"adc_{k}" for k in keys),
            "adc_auc",
            *(f"adc_raw_{k}" for k in keys),
            "pearson_pairs",
            "reliability_pairs",
            "pearson_sentences",
            "reliability_sentences",
            "noise_sd",
        )
    }
    reach: dict[float, list] = {s: [] for s in shares}
    reach_rel: dict[float, list] = {s: [] for s in shares}
    curves = np.empty((n_splits, len(grid)))
    # checked once above; each split is arrays in, numbers out (:mod:`metric_adc.formulas`),
    # well under a millisecond
    for s in range(n_splits):
        human = mean_a[s][g_idx] - mean_a[s][b_idx]
        z_b = f.zscores(mean_b[s])  # over all sentences, in the order of ``ids``
        model = z_b[g_idx] - z_b[b_idx]
        raw_b = mean_b[s][g_idx] - mean_b[s][b_idx]
        sweep = f.sweep(model, human, grid)
        r_raw = f.pearson_of(raw_b, human)
        r_sent = f.pearson_of(mean_b[s], mean_a[s])
        rows["blimp"].append(f.blimp_share(model))
        rows["human_sign"].append(sweep["human_sign"])
        for k in keys:
            rows[f"adc_{k}"].append(f.adc_share(model, human, float(k)))
        rows["adc_auc"].append(f.auc_share(model, human, f.DEFAULT_AUC_MAX))
        for k in keys:
            rows[f"adc_raw_{k}"].append(f.adc_share(raw_b, human, float(k)))
        rows["pearson_pairs"].append(f.pearson_of(model, human))
        rows["reliability_pairs"].append(f.spearman_brown_of(r_raw))
        rows["pearson_sentences"].append(r_sent)
        rows["reliability_sentences"].append(f.spearman_brown_of(r_sent))
        rows["noise_sd"].append(float(np.std(human - raw_b, ddof=1) / 2))
        curves[s] = sweep["adc"]
        for share in shares:
            reach[share].append(f.delta_reaching(model, human, share))
            reach_rel[share].append(f.delta_reaching(model, human, share * sweep["human_sign"]))
    lo, hi = np.percentile(curves, INTERVAL, axis=0)
    mean_curve = curves.mean(axis=0)
    return {
        "n_pairs": len(g_idx),
        "n_sentences": len(ids),
        "n_participants": int(np.asarray(values).shape[0]),
        "n_splits": n_splits,
        "stats": {k: summarize_splits(v) for k, v in rows.items()},
        "delta_for": {
            repr(float(share)): {
                "of_mean_curve": first_reaching(grid, mean_curve, share),
                **delta_quantiles(v),
            }
            for share, v in reach.items()
        },
        "delta_for_of_sign": {
            repr(float(share)): delta_quantiles(v) for share, v in reach_rel.items()
        },
        "curve": {
            "deltas": [float(d) for d in grid],
            "adc_mean": mean_curve.tolist(),
            "adc_lo": lo.tolist(),
            "adc_hi": hi.tolist(),
        },
    }
