"""Split-half primitives: random halves of participants, per-half means, summaries over splits.

The building blocks of the human ceiling (:mod:`metric_adc.ceiling.compute`) and of the task
comparison (:mod:`metric_adc.ceiling.tasks`). Pure NumPy; this module imports nothing from
the rest of the package.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = [
    "INTERVAL",
    "delta_quantiles",
    "first_reaching",
    "half_means",
    "split_masks",
    "summarize_splits",
]

INTERVAL: tuple[float, float] = (2.5, 97.5)
"""Percentiles of the spread over splits that every summary reports."""


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
