"""Split-half human ceiling: how well do two halves of the human participants meet the ADC?

Human judgements are noisy, so even a perfect model of "the average speaker" cannot pass
every pair at a strict δ. This module estimates that ceiling from the participant-level LI
data of Sprouse, Schütze & Almeida (2013) (:mod:`li_adger.participants`):

1. split the participants at random into halves A and B, within each survey (participants
   of one survey rated the same sentences, so every sentence keeps raters in both halves);
2. per half, take each sentence's mean z-score;
3. score half B as a model against half A as the human ground truth, exactly as a model is
   scored (:mod:`metric_adc.core`): B's means are z-scored over all sentences, its pair deltas
   are compared with A's deltas by ADC at δ 0.5 / 1 / 5, the BLiMP criterion and the
   pair-level Pearson correlation; the Spearman-Brown formula turns the split-half
   correlation into the reliability of the full-sample deltas;
4. repeat for many splits; report means, the spread over splits and the Monte Carlo
   interval of each mean.

Only the LI part has participant-level data; the Adger part of LI-Adger has none, so the
ceiling describes the LI pairs only (:data:`NOTE` says so wherever the row appears).
Nothing at participant level leaves memory (:data:`li_adger.participants.AUTHORS_NOTE`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from metric_adc import core

if TYPE_CHECKING:
    from li_adger.participants import RatingMatrix

__all__ = [
    "CEILING_DELTAS",
    "LABEL",
    "NOTE",
    "SHARES",
    "CeilingInputs",
    "add_ceiling_parser",
    "compute_ceiling",
    "delta_for_share",
    "format_table",
    "half_means",
    "human_ceiling_row",
    "load_inputs",
    "plot_curve",
    "run_ceiling",
    "spearman_brown",
    "split_half",
    "split_masks",
    "task_comparison",
    "thesis_model_curves",
]

LABEL: str = "human split-half (LI only)"
"""The ``model`` name of the ceiling row in reports, ``reproduce`` and the Space."""

NOTE: str = (
    "LI pairs only: the Adger part of LI-Adger has no participant-level data. Half B of the "
    "magnitude-estimation participants (per-sentence mean z-scores) scored as a model against "
    "half A, mean over random split-halves within surveys. Data: Sprouse, Schütze & Almeida "
    "(2013), shared by the authors for verification; contact Jon Sprouse before using it for "
    "novel research."
)
"""Caption that goes with the ceiling row wherever it appears."""

CEILING_DELTAS: tuple[float, ...] = core.DEFAULT_DELTAS
"""The thresholds reported (those of the thesis and of every model row)."""

SHARES: tuple[float, ...] = (0.9, 0.95)
"""Shares of pairs for which the δ that humans need is reported."""

_GRID: tuple[float, ...] = tuple(round(0.01 * k, 10) for k in range(1, 501))
"""δ grid of the ADC(δ) curve: 0.01, 0.02, …, 5.0."""

_INTERVAL = (2.5, 97.5)


# ----------------------------------------------------------------------------- pure math
def spearman_brown(r: float | None, factor: float = 2.0) -> float | None:
    """Spearman-Brown prophecy: reliability of a measure ``factor`` times as long.

    With ``factor=2`` it turns a split-half correlation into the reliability of the full
    sample. ``None`` (an undefined correlation) stays ``None``.

    Examples
    --------
    >>> round(spearman_brown(0.6), 4)
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
    if not -1.0 <= r <= 1.0:
        raise ValueError(f"'r' must be a correlation in [-1, 1] (got {r!r})")
    if factor <= 0:
        raise ValueError(f"'factor' must be > 0 (got {factor!r})")
    denom = 1.0 + (factor - 1.0) * r
    return None if denom == 0 else float(factor * r / denom)


def delta_for_share(model_delta: ArrayLike, human_delta: ArrayLike, share: float) -> float | None:
    """The smallest δ at which ``ADC(δ)`` reaches ``share`` of the pairs (the infimum).

    ``ADC(δ)`` counts a pair when the signs agree and ``|Δh − Δlm| < δ``, so the share is
    reached for every δ strictly above the returned value. ``None`` when even ``δ → ∞``
    (sign agreement alone) stays below ``share``. Pairs with a NaN human delta are excluded,
    as in :func:`metric_adc.core.summarize`.

    Examples
    --------
    >>> delta_for_share([1.0, 2.0, 3.0, -1.0], [1.1, 2.5, 2.0, 1.0], 0.5)
    0.5
    >>> delta_for_share([1.0, 2.0, 3.0, -1.0], [1.1, 2.5, 2.0, 1.0], 0.9) is None
    True
    """
    if not 0.0 < share <= 1.0:
        raise ValueError(f"'share' must be in (0, 1] (got {share!r})")
    m = np.asarray(model_delta, dtype=float)
    h = np.asarray(human_delta, dtype=float)
    keep = ~np.isnan(h)
    m, h = m[keep], h[keep]
    if m.size == 0:
        raise ValueError("no evaluable pairs: expected at least 1 pair with a human judgement")
    need = math.ceil(share * m.size - 1e-9)
    err = np.sort(np.abs(h - m)[np.sign(m) == np.sign(h)])
    if err.size < need:
        return None
    return float(err[need - 1])


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
    out = []
    for half in (masks, ~masks):
        h = half.astype(float)
        counts = h @ rated
        if (counts == 0).any():
            split, item = map(int, np.argwhere(counts == 0)[0])
            raise ValueError(
                f"item {item} has no rating in a half of split {split}: every item needs raters "
                "in both halves (split within the groups that rated the same items)"
            )
        out.append((h @ filled) / counts)
    return out[0], out[1]


def _interval(x: np.ndarray) -> dict[str, float | None]:
    x = np.asarray([v for v in x if v is not None and np.isfinite(v)], dtype=float)
    if x.size == 0:
        return {"mean": None, "sd": None, "lo": None, "hi": None, "mean_lo": None, "mean_hi": None}
    sd = float(x.std(ddof=1)) if x.size > 1 else 0.0
    half = 1.959963984540054 * sd / math.sqrt(x.size)
    lo, hi = np.percentile(x, _INTERVAL)
    mean = float(x.mean())
    return {
        "mean": mean,
        "sd": sd,
        "lo": float(lo),
        "hi": float(hi),
        "mean_lo": mean - half,
        "mean_hi": mean + half,
    }


def split_half(
    values: np.ndarray,
    ids: Sequence[str],
    groups: Sequence[str],
    good_ids: Sequence[str],
    bad_ids: Sequence[str],
    *,
    n_splits: int,
    rng: np.random.Generator,
    deltas: Iterable[float] = CEILING_DELTAS,
    shares: Iterable[float] = SHARES,
    grid: Sequence[float] = _GRID,
) -> dict:
    """The split-half ceiling of a participants × sentences matrix of z-scores.

    Half B's per-sentence means are z-scored over all sentences (:func:`core.zscore_by_id`)
    and their pair deltas scored against half A's deltas with :func:`core.summarize` and
    :func:`core.delta_sweep`. Returns ``{"n_pairs", "n_sentences", "n_participants",
    "n_splits", "stats": {name: interval}, "delta_for": {share: {...}}, "curve": {...}}``
    where an interval is ``{"mean", "sd", "lo", "hi", "mean_lo", "mean_hi"}``: the mean
    over splits, their standard deviation, the 2.5–97.5 percentiles over splits and the
    95% Monte Carlo interval of the mean (narrows as splits grow). ``delta_for`` gives, per
    share of pairs, the first grid δ where the mean curve reaches it (``of_mean_curve``) and
    the median and 2.5/97.5 percentiles of the per-split δ (:func:`delta_for_share`; ``None``
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

    keys = [core.delta_key(d) for d in deltas]
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
    for s in range(n_splits):
        human = mean_a[s][g_idx] - mean_a[s][b_idx]
        z_b = core.zscore_by_id(ids, mean_b[s])
        model = core.pair_deltas(z_b, good_ids, bad_ids)
        summary = core.summarize(model, human, deltas=deltas)
        sweep = core.delta_sweep(model, human, deltas=grid)
        raw_b = mean_b[s][g_idx] - mean_b[s][b_idx]
        r_raw = core.correlation(raw_b, human)["pearson"]
        r_sent = core.correlation(mean_b[s], mean_a[s])["pearson"]
        rows["blimp"].append(summary["blimp"])
        rows["human_sign"].append(summary["human_sign"])
        for k in keys:
            rows[f"adc_{k}"].append(summary["adc"][k])
        rows["adc_auc"].append(summary["adc_auc"])
        for k in keys:
            rows[f"adc_raw_{k}"].append(core.adc(raw_b, human, float(k)))
        rows["pearson_pairs"].append(summary["pearson_pairs"])
        rows["reliability_pairs"].append(spearman_brown(r_raw))
        rows["pearson_sentences"].append(r_sent)
        rows["reliability_sentences"].append(spearman_brown(r_sent))
        rows["noise_sd"].append(float(np.std(human - raw_b, ddof=1) / 2))
        curves[s] = sweep["adc"]
        for share in shares:
            reach[share].append(delta_for_share(model, human, share))
            reach_rel[share].append(delta_for_share(model, human, share * summary["human_sign"]))
    lo, hi = np.percentile(curves, _INTERVAL, axis=0)
    mean_curve = curves.mean(axis=0)
    return {
        "n_pairs": len(g_idx),
        "n_sentences": len(ids),
        "n_participants": int(np.asarray(values).shape[0]),
        "n_splits": n_splits,
        "stats": {k: _interval(np.array(v, dtype=float)) for k, v in rows.items()},
        "delta_for": {
            repr(float(share)): {
                "of_mean_curve": _first_reaching(grid, mean_curve, share),
                **_quantiles(v),
            }
            for share, v in reach.items()
        },
        "delta_for_of_sign": {repr(float(share)): _quantiles(v) for share, v in reach_rel.items()},
        "curve": {
            "deltas": [float(d) for d in grid],
            "adc_mean": mean_curve.tolist(),
            "adc_lo": lo.tolist(),
            "adc_hi": hi.tolist(),
        },
    }


def _quantiles(values: list[float | None]) -> dict[str, float | None]:
    """Median and 2.5/97.5 percentiles of per-split δs, an unreachable share counting as ∞."""
    x = np.array([math.inf if v is None else v for v in values], dtype=float)
    q = np.percentile(x, (50, *_INTERVAL), method="inverted_cdf") if x.size else [math.inf] * 3
    finite = lambda v: float(v) if math.isfinite(v) else None  # noqa: E731
    return {
        "median": finite(q[0]),
        "lo": finite(q[1]),
        "hi": finite(q[2]),
        "reached_in": float(np.isfinite(x).mean()) if x.size else 0.0,
    }


def _first_reaching(grid: Sequence[float], curve: np.ndarray, share: float) -> float | None:
    hits = np.flatnonzero(np.asarray(curve) >= share - 1e-12)
    return float(grid[hits[0]]) if hits.size else None


# ----------------------------------------------------------------------------- data
@dataclass(frozen=True)
class CeilingInputs:
    """Everything the ceiling reads, in memory: LI pairs and the task matrices."""

    pairs: pd.DataFrame
    """Evaluable LI pairs: ``pair_id, good_id, bad_id, human_delta``."""
    me: RatingMatrix
    """:class:`li_adger.participants.RatingMatrix` of the magnitude-estimation z-scores."""
    ls: RatingMatrix
    """The same for the Likert task."""
    fc: RatingMatrix
    """Participants × bad ids, 1.0 where the better member was chosen (forced choice)."""


def load_inputs(source: str | Path | None = None) -> CeilingInputs:
    """Read the LI pairs (``li_adger.load("pairs")``) and the participant-level tasks.

    Prints :data:`li_adger.participants.AUTHORS_NOTE` once to standard error.

    Examples
    --------
    >>> inputs = load_inputs()
    >>> len(inputs.pairs), inputs.me.values.shape
    (1174, (304, 2400))
    """
    import li_adger
    from li_adger import participants

    participants.print_authors_note()
    pairs = li_adger.load("pairs").to_pandas()
    pairs = pairs[(pairs["source"] == "LI") & ~pairs["discarded"].astype(bool)]
    pairs = pairs[["pair_id", "good_id", "bad_id", "human_delta"]].reset_index(drop=True)
    me = participants.rating_matrix(participants.read_ratings("me", source=source, note=False))
    ls = participants.rating_matrix(participants.read_ratings("ls", source=source, note=False))
    fc_rows = participants.read_forced_choice(source=source, note=False)
    fc_rows = fc_rows.assign(chose_good=fc_rows["chose_good"].astype(float))
    fc = participants.rating_matrix(fc_rows, value="chose_good", key="bad_id")
    return CeilingInputs(pairs=pairs, me=me, ls=ls, fc=fc)


def _fc_pairs(pairs: pd.DataFrame, fc_ids: Iterable[str]) -> pd.DataFrame:
    """Pairs whose forced-choice trial is the same pair: the bad id was judged against the
    good member of the same token (the forced-choice file names only the bad member)."""
    known = set(fc_ids)
    token = lambda s: s.str.rsplit(".", n=1).str[1]  # noqa: E731
    same = (token(pairs["good_id"]) == token(pairs["bad_id"])) & pairs["bad_id"].isin(known)
    return pairs[same]


def _task_deltas(inputs: CeilingInputs) -> pd.DataFrame:
    """Full-sample pair measure of each task, indexed like ``inputs.pairs``."""
    p = inputs.pairs
    out = pd.DataFrame(index=p.index)
    for task in ("me", "ls"):
        m = getattr(inputs, task)
        means = pd.Series(np.nanmean(m.values, axis=0), index=m.ids)
        out[task] = means.reindex(p["good_id"]).to_numpy() - means.reindex(p["bad_id"]).to_numpy()
    fc = inputs.fc
    share = pd.Series(np.nanmean(fc.values, axis=0), index=fc.ids)
    out["fc"] = np.nan
    same = _fc_pairs(p, fc.ids)
    out.loc[same.index, "fc"] = share.reindex(same["bad_id"]).to_numpy()
    return out


def _reliability(
    matrix,
    columns: Sequence[str],
    good: Sequence[str] | None,
    bad: Sequence[str] | None,
    *,
    n_splits: int,
    rng: np.random.Generator,
) -> dict:
    """Split-half Pearson of a task's pair measure and its Spearman-Brown reliability."""
    masks = split_masks(matrix.groups, n_splits, rng)
    a, b = half_means(matrix.values, masks)
    index = {s: k for k, s in enumerate(matrix.ids.tolist())}
    if good is None:  # forced choice: the measure is the share choosing the better member
        cols = np.array([index[c] for c in columns])
        xa, xb = a[:, cols], b[:, cols]
    else:
        gi = np.array([index[c] for c in good])
        bi = np.array([index[c] for c in bad])
        xa, xb = a[:, gi] - a[:, bi], b[:, gi] - b[:, bi]
    r = [core.correlation(xa[s], xb[s])["pearson"] for s in range(n_splits)]
    return {
        "split_half_pearson": _interval(np.array(r, dtype=float)),
        "reliability": _interval(np.array([spearman_brown(x) for x in r], dtype=float)),
    }


def _thesis_model_deltas(pairs: pd.DataFrame, thesis_dir: str | Path | None = None) -> pd.DataFrame:
    """The thesis's models scored on ``pairs`` as any model is (:func:`metric_adc.report.model_deltas`:
    z-scored over all sentences unless the thesis gives z-scores, then ``z(good) − z(bad)``);
    NaN where a model has no score for a member. Columns: the names of :mod:`metric_adc.thesis`."""
    import li_adger
    from metric_adc.report import PairTable, model_deltas
    from metric_adc.thesis import load_thesis_models

    sentences = li_adger.load("sentences")
    table = PairTable.from_judgements(
        pairs["good_id"].tolist(),
        pairs["bad_id"].tolist(),
        dict(zip(sentences["id"], sentences["judgement"], strict=True)),
    )
    out = pd.DataFrame(index=pairs.index)
    for model in load_thesis_models(thesis_dir):
        scores = {k: v for k, v in model.scores.items() if math.isfinite(v)}
        _, deltas = model_deltas(scores, table, standardize=not model.standardized)
        out[model.name] = deltas
    return out


def task_comparison(
    inputs: CeilingInputs,
    *,
    n_splits: int,
    rng: np.random.Generator,
    thesis_dir: str | Path | None = None,
) -> dict:
    """Compare the ME, Likert and forced-choice measures of the LI pairs.

    Per task: the number of pairs it covers, the split-half reliability of its pair measure
    (difference of mean z-scores for ME and Likert; share of participants choosing the better
    member for forced choice) and, per model of the thesis, the Pearson correlation of the
    model's deltas with the task's measure, raw and disattenuated (divided by the square root
    of the task's reliability, the correlation with a noise-free measure).

    Examples
    --------
    >>> out = task_comparison(load_inputs(), n_splits=20, rng=np.random.default_rng(0))
    >>> sorted(out["tasks"])
    ['fc', 'ls', 'me']
    """
    p = inputs.pairs
    measures = _task_deltas(inputs)
    fc_pairs = _fc_pairs(p, inputs.fc.ids)
    rel = {
        "me": _reliability(inputs.me, (), p["good_id"], p["bad_id"], n_splits=n_splits, rng=rng),
        "ls": _reliability(inputs.ls, (), p["good_id"], p["bad_id"], n_splits=n_splits, rng=rng),
        "fc": _reliability(
            inputs.fc, fc_pairs["bad_id"].tolist(), None, None, n_splits=n_splits, rng=rng
        ),
    }
    models = _thesis_model_deltas(p, thesis_dir)
    tasks: dict[str, dict] = {}
    for task in ("me", "ls", "fc"):
        reliability = rel[task]["reliability"]["mean"]
        per_model = {}
        for name in models.columns:
            r = core.correlation(models[name].to_numpy(float), measures[task].to_numpy(float))
            pearson = r["pearson"]
            per_model[name] = {
                "n": r["n"],
                "pearson": pearson,
                "disattenuated": None
                if pearson is None or not reliability or reliability <= 0
                else pearson / math.sqrt(reliability),
            }
        tasks[task] = {
            "n_pairs": int(measures[task].notna().sum()),
            **rel[task],
            "models": per_model,
        }
    between = {
        f"{a}~{b}": core.correlation(measures[a].to_numpy(float), measures[b].to_numpy(float))[
            "pearson"
        ]
        for a, b in (("me", "ls"), ("me", "fc"), ("ls", "fc"))
    }
    return {"n_pairs": len(p), "tasks": tasks, "between_tasks": between}


# ----------------------------------------------------------------------------- results
def compute_ceiling(
    *,
    n_splits: int = 200,
    rng: np.random.Generator | None = None,
    seed: int = 0,
    source: str | Path | None = None,
    tasks: bool = True,
    inputs: CeilingInputs | None = None,
) -> dict:
    """The human ceiling on the LI pairs (ME split-halves), optionally with the task comparison.

    ``rng`` defaults to ``numpy.random.default_rng(seed)``. Returns the :func:`split_half`
    result plus ``label``, ``note``, ``authors_note``, ``seed``, ``runtime_s`` and (with
    ``tasks=True``) ``tasks`` from :func:`task_comparison`.

    Examples
    --------
    >>> res = compute_ceiling(n_splits=20, tasks=False)
    >>> 0 < res["stats"]["pearson_pairs"]["mean"] < 1
    True
    """
    from li_adger.participants import AUTHORS_NOTE

    start = time.perf_counter()
    rng = np.random.default_rng(seed) if rng is None else rng
    inputs = load_inputs(source) if inputs is None else inputs
    me = inputs.me
    result = split_half(
        me.values,
        me.ids.tolist(),
        me.groups.tolist(),
        inputs.pairs["good_id"].tolist(),
        inputs.pairs["bad_id"].tolist(),
        n_splits=n_splits,
        rng=rng,
    )
    out = {"label": LABEL, "note": NOTE, "authors_note": AUTHORS_NOTE, "task": "me", "seed": seed}
    out.update(result)
    if tasks:
        out["tasks"] = task_comparison(inputs, n_splits=n_splits, rng=rng)
    out["runtime_s"] = time.perf_counter() - start
    return out


def human_ceiling_row(result: Mapping | None = None, **kwargs) -> dict:
    """The ceiling as a leaderboard row, in the shape of the metric's model rows.

    ``{"model", "n_pairs", "blimp", "adc": {"0.5", "1.0", "5.0"}, "pearson_pairs",
    "pearson_sentences", "note"}``, values the means over splits. Pass a
    :func:`compute_ceiling` result, or keyword arguments for it (``tasks`` is not needed).

    Examples
    --------
    >>> fake = {"n_pairs": 2, "stats": {k: {"mean": 0.5} for k in
    ...         ("blimp", "adc_0.5", "adc_1.0", "adc_5.0", "pearson_pairs", "pearson_sentences")}}
    >>> row = human_ceiling_row(fake)
    >>> row["model"], row["adc"], row["note"].startswith("LI pairs only")
    ('human split-half (LI only)', {'0.5': 0.5, '1.0': 0.5, '5.0': 0.5}, True)
    """
    if result is None:
        kwargs.setdefault("tasks", False)
        result = compute_ceiling(**kwargs)
    stats = result["stats"]
    return {
        "model": LABEL,
        "n_pairs": int(result["n_pairs"]),
        "blimp": stats["blimp"]["mean"],
        "adc": {
            core.delta_key(d): stats[f"adc_{core.delta_key(d)}"]["mean"] for d in CEILING_DELTAS
        },
        "pearson_pairs": stats["pearson_pairs"]["mean"],
        "pearson_sentences": stats["pearson_sentences"]["mean"],
        "note": NOTE,
    }


def _fmt(x: float | None, digits: int = 3) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def format_table(result: Mapping) -> str:
    """The ceiling as plain text for people.

    Examples
    --------
    >>> iv = {"mean": 0.5, "lo": 0.4, "hi": 0.6, "mean_lo": 0.49, "mean_hi": 0.51}
    >>> res = {"n_pairs": 2, "n_sentences": 4, "n_participants": 6, "n_splits": 3,
    ...        "stats": {"blimp": iv}, "delta_for": {}, "note": "n", "authors_note": "a"}
    >>> print(format_table(res).splitlines()[3])
    blimp                     0.500  [0.400, 0.600]  [0.490, 0.510]
    """
    lines = [
        f"{LABEL}: {result['n_pairs']} LI pairs, {result['n_sentences']} sentences, "
        f"{result['n_participants']} participants, {result['n_splits']} split-halves",
        "",
        f"{'statistic':<24}  {'mean':>5}  {'splits 2.5–97.5%':<14}  {'95% CI of mean':<14}",
    ]
    for name, iv in result["stats"].items():
        lines.append(
            f"{name:<24}  {_fmt(iv['mean'])}  [{_fmt(iv['lo'])}, {_fmt(iv['hi'])}]  "
            f"[{_fmt(iv['mean_lo'])}, {_fmt(iv['mean_hi'])}]"
        )
    if result["delta_for"]:
        lines += ["", "δ at which half B passes a share of pairs against half A:"]
        for share, iv in result["delta_for"].items():
            lines.append(
                f"  {float(share):.0%}: δ = {_fmt(iv['of_mean_curve'], 2)} on the mean curve; "
                f"per split median {_fmt(iv['median'], 2)} [{_fmt(iv['lo'], 2)}, "
                f"{_fmt(iv['hi'], 2)}] (— = never), reached in {iv['reached_in']:.0%} of splits"
            )
    if result.get("delta_for_of_sign"):
        lines.append("δ at which ADC reaches a share of its limit ADC(∞) (the sign agreement):")
        for share, iv in result["delta_for_of_sign"].items():
            lines.append(
                f"  {float(share):.0%} of ADC(∞): δ per split median {_fmt(iv['median'], 2)} "
                f"[{_fmt(iv['lo'], 2)}, {_fmt(iv['hi'], 2)}]"
            )
    tasks = result.get("tasks")
    if tasks:
        names = list(next(iter(tasks["tasks"].values()))["models"])
        lines += [
            "",
            "Tasks (LI pairs): split-half reliability (Spearman-Brown) and Pearson r of the "
            "thesis's model deltas with each task's pair measure (raw / disattenuated):",
            f"{'task':<5} {'pairs':>5} {'reliab.':>7}  " + "  ".join(f"{n:>24}" for n in names),
        ]
        for task, t in tasks["tasks"].items():
            cells = [
                f"{_fmt(m['pearson'])} / {_fmt(m['disattenuated'])}".rjust(24)
                for m in t["models"].values()
            ]
            lines.append(
                f"{task:<5} {t['n_pairs']:>5} {_fmt(t['reliability']['mean']):>7}  "
                + "  ".join(cells)
            )
        lines.append(
            "between tasks (Pearson): "
            + ", ".join(f"{k} {_fmt(v)}" for k, v in tasks["between_tasks"].items())
        )
    lines += ["", result["note"], "", result["authors_note"]]
    if "runtime_s" in result:
        lines.append(f"runtime {result['runtime_s']:.1f} s")
    return "\n".join(lines)


def plot_curve(
    result: Mapping,
    path: str | Path,
    *,
    model_curves: Mapping[str, tuple[Sequence[float], Sequence[float]]] | None = None,
) -> Path:
    """Plot the human ADC(δ) curve (mean and 2.5–97.5% band over splits), optionally beside
    models' curves (``{name: (deltas, adc)}``), to ``path`` (PNG/SVG/PDF), atomically.

    Examples
    --------
    >>> import tempfile, os
    >>> res = {"curve": {"deltas": [0.5, 1.0], "adc_mean": [0.3, 0.6], "adc_lo": [0.2, 0.5],
    ...        "adc_hi": [0.4, 0.7]}, "delta_for": {}, "n_pairs": 2}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     os.path.getsize(plot_curve(res, os.path.join(d, "c.png"))) > 0
    True
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    c = result["curve"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.fill_between(
        c["deltas"], c["adc_lo"], c["adc_hi"], color="0.8", label="humans, 95% of splits"
    )
    ax.plot(c["deltas"], c["adc_mean"], color="black", lw=2, label=LABEL)
    for name, (d, a) in (model_curves or {}).items():
        ax.plot(d, a, lw=1, label=name)
    for share, iv in result["delta_for"].items():
        x = iv.get("of_mean_curve")
        if x is not None:
            ax.axvline(x, color="0.4", ls=":", lw=1)
            ax.text(
                x, 0.02, f" {float(share):.0%} at δ={x:.2f}", rotation=90, va="bottom", fontsize=8
            )
    ax.set_xlabel("δ")
    ax.set_ylabel("ADC(δ): share of pairs passing")
    ax.set_ylim(0, 1)
    ax.set_title(f"ADC(δ) on the {result['n_pairs']} LI pairs")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=path.suffix, prefix=".tmp-")
    os.close(fd)
    try:
        fig.savefig(tmp)
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def thesis_model_curves(
    pairs: pd.DataFrame, thesis_dir: str | Path | None = None, grid: Sequence[float] = _GRID
) -> dict[str, tuple[list[float], list[float]]]:
    """ADC(δ) curves of the thesis's models on ``pairs`` (against the published deltas).

    Examples
    --------
    >>> curves = thesis_model_curves(load_inputs().pairs)
    >>> sorted(curves)[:2]
    ['bert-base-uncased-cola', 'bert-base-uncased-mlm']
    """
    models = _thesis_model_deltas(pairs, thesis_dir)
    out = {}
    for name in models.columns:
        m = models[name].to_numpy(float)
        keep = ~np.isnan(m)
        sweep = core.delta_sweep(m[keep], pairs["human_delta"].to_numpy(float)[keep], deltas=grid)
        out[name] = (sweep["deltas"], sweep["adc"])
    return out


# ----------------------------------------------------------------------------- command line
def add_ceiling_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``ceiling`` subcommand to an ``argparse`` subparsers object.

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> p = add_ceiling_parser(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["ceiling", "--splits", "10", "--json"])
    >>> args.splits, args.json, args.seed
    (10, True, 0)
    """
    p = subparsers.add_parser(
        "ceiling",
        help="split-half human ceiling on the LI pairs (participant-level data)",
        description=(
            "Split the magnitude-estimation participants into random halves, score half B as "
            "a model against half A, and report ADC, BLiMP, Pearson and Spearman-Brown "
            "reliability over splits. LI only: the Adger part has no participant-level data."
        ),
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument(
        "--splits", type=int, default=200, help="number of random split-halves (default 200)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random splits (default 0)")
    p.add_argument("--source", default=None, help="folder holding the source files")
    p.add_argument("--plot", default=None, metavar="PATH", help="write the ADC(δ) curve plot here")
    p.add_argument(
        "--no-tasks", action="store_true", help="skip the ME / Likert / forced-choice comparison"
    )
    p.set_defaults(func=run_ceiling)
    return p


def run_ceiling(args: argparse.Namespace) -> int:
    """Run the ``ceiling`` subcommand; returns the exit status.

    Examples
    --------
    >>> run_ceiling(argparse.Namespace(splits=0, seed=0, source=None, json=False,
    ...             plot=None, no_tasks=True))
    Traceback (most recent call last):
    ...
    ValueError: '--splits' must be >= 2 (got 0)
    """
    if args.splits < 2:
        raise ValueError(f"'--splits' must be >= 2 (got {args.splits})")
    inputs = load_inputs(args.source)
    result = compute_ceiling(
        n_splits=args.splits,
        seed=args.seed,
        source=args.source,
        tasks=not args.no_tasks,
        inputs=inputs,
    )
    if args.plot:
        curves = thesis_model_curves(inputs.pairs)
        result["plot"] = str(plot_curve(result, args.plot, model_curves=curves))
    if args.json:
        json.dump(
            {**result, "row": human_ceiling_row(result)}, sys.stdout, indent=2, ensure_ascii=False
        )
        print()
    else:
        print(format_table(result))
        if args.plot:
            print(f"plot: {result['plot']}")
    return 0
