"""Split-half human ceiling: how well do two halves of the human participants meet the ADC?

Human judgements are noisy, so even a perfect model of "the average speaker" cannot pass
every pair at a strict δ. This module estimates that ceiling from the participant-level LI
data of Sprouse, Schütze & Almeida (2013) (:mod:`li_adger.sources.participants`):

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
Nothing at participant level leaves memory (:data:`li_adger.sources.participants.AUTHORS_NOTE`).

:func:`human_ceiling` is the one source of the human row that ``report``, ``reproduce`` and the
app show: the row (:func:`metric_adc.result_rows.ceiling_row`) and the mean ADC(δ) curve of
:data:`HUMAN_ROW_SPLITS` split-halves, computed afresh each time (a fraction of a second).

The jobs around it have their own files: :mod:`metric_adc.ceiling.splits` (random halves,
half means, summaries over splits), :mod:`metric_adc.ceiling.inputs` (what is read),
:mod:`metric_adc.ceiling.tasks` (ME vs Likert vs forced choice) and
:mod:`metric_adc.ceiling.plot` (the ADC(δ) figure); the ``ceiling`` subcommand is
:mod:`metric_adc.cli.ceiling`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from metric_adc import core
from metric_adc import formulas as f
from metric_adc.ceiling.inputs import CeilingInputs, load_inputs, thesis_deltas_frame
from metric_adc.ceiling.splits import (
    INTERVAL,
    delta_quantiles,
    first_reaching,
    half_means,
    split_masks,
    summarize_splits,
)
from metric_adc.ceiling.tasks import task_comparison
from metric_adc.input_checks import as_sweep_grid, check_share, delta_key
from metric_adc.result_rows import ceiling_row

__all__ = [
    "CEILING_DELTAS",
    "CURVE_GRID",
    "HUMAN_ROW_SPLITS",
    "LABEL",
    "NOTE",
    "SHARES",
    "compute_ceiling",
    "human_ceiling",
    "split_half",
]

HUMAN_ROW_SPLITS: int = 100
"""Split-halves behind the human row of ``report``, ``reproduce`` and the app
(:func:`human_ceiling`)."""

LABEL: str = "human split-half (LI only)"
"""The ``model`` name of the ceiling row in reports, ``reproduce`` and the Space (the
result's ``label``)."""

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

CURVE_GRID: tuple[float, ...] = tuple(round(0.01 * k, 10) for k in range(1, 501))
"""δ grid of the ADC(δ) curve: 0.01, 0.02, …, 5.0."""


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
    grid: Sequence[float] = CURVE_GRID,
) -> dict:
    """The split-half ceiling of a participants × sentences matrix of z-scores.

    Half B's per-sentence means are z-scored over all sentences (:func:`core.zscore`) and
    their pair deltas scored against half A's deltas with the functions of :mod:`core` a
    model's row uses, and :func:`core.delta_sweep`. Returns ``{"n_pairs", "n_sentences", "n_participants",
    "n_splits", "stats": {name: interval}, "delta_for": {share: {...}}, "curve": {...}}``
    where an interval is ``{"mean", "sd", "lo", "hi", "mean_lo", "mean_hi"}``: the mean
    over splits, their standard deviation, the 2.5–97.5 percentiles over splits and the
    95% Monte Carlo interval of the mean (narrows as splits grow). ``delta_for`` gives, per
    share of pairs, the first grid δ where the mean curve reaches it (``of_mean_curve``) and
    the median and 2.5/97.5 percentiles of the per-split δ (:func:`core.delta_for_share`; ``None``
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


# ----------------------------------------------------------------------------- results
def compute_ceiling(
    *,
    n_splits: int = 200,
    rng: np.random.Generator | None = None,
    seed: int = 0,
    source: str | Path | None = None,
    tasks: bool = True,
    inputs: CeilingInputs | None = None,
    deltas: Iterable[float] = CEILING_DELTAS,
    models: pd.DataFrame | None = None,
) -> dict:
    """The human ceiling on the LI pairs (ME split-halves), optionally with the task comparison.

    ``rng`` defaults to ``numpy.random.default_rng(seed)``. Returns the :func:`split_half`
    result plus ``label``, ``note``, ``authors_note``, ``seed``, ``deltas`` (the ADC
    thresholds of ``stats``), ``runtime_s`` and (with ``tasks=True``) ``tasks`` from
    :func:`metric_adc.ceiling.tasks.task_comparison`, which compares the tasks with
    ``models``, the thesis's model deltas on the LI pairs
    (:func:`metric_adc.ceiling.inputs.thesis_deltas_frame`, read when not given).

    Examples
    --------
    >>> res = compute_ceiling(n_splits=20, tasks=False)
    >>> 0 < res["stats"]["pearson_pairs"]["mean"] < 1
    True
    """
    from li_adger.sources.participants import AUTHORS_NOTE

    start = time.perf_counter()
    deltas = [core.check_delta(d) for d in deltas]
    rng = np.random.default_rng(seed) if rng is None else rng
    inputs = load_inputs(source, tasks=tasks) if inputs is None else inputs
    me = inputs.me
    result = split_half(
        me.values,
        me.ids.tolist(),
        me.groups.tolist(),
        inputs.pairs["good_id"].tolist(),
        inputs.pairs["bad_id"].tolist(),
        n_splits=n_splits,
        rng=rng,
        deltas=deltas,
    )
    out = {"label": LABEL, "note": NOTE, "authors_note": AUTHORS_NOTE, "task": "me", "seed": seed}
    out.update(result, deltas=deltas)
    if tasks:
        if models is None:
            models = thesis_deltas_frame(inputs.pairs)
        out["tasks"] = task_comparison(inputs, models, n_splits=n_splits, rng=rng)
    out["runtime_s"] = time.perf_counter() - start
    return out


def human_ceiling(
    *,
    n_splits: int = HUMAN_ROW_SPLITS,
    seed: int = 0,
    deltas: Iterable[float] = CEILING_DELTAS,
    source: str | Path | None = None,
) -> dict:
    """The human row and its mean ADC(δ) curve, as every report and the app show them:
    ``{"row": ..., "curve": {"deltas": [...], "adc_mean": [...]}}``.

    ``row`` is :func:`metric_adc.result_rows.ceiling_row` of :func:`compute_ceiling` (ME split-halves
    only, no task comparison); ``curve`` the mean over the split-halves of ADC(δ) on
    :data:`CURVE_GRID`. Aggregates only: nothing at participant level. The app ships this
    record (``space/results/ceiling.json``), since its host has no participant-level data.
    Raises :class:`~li_adger.sources.SourceNotFoundError` without that data.

    Examples
    --------
    >>> c = human_ceiling()
    >>> c["row"].model, c["row"].n_pairs, c["row"].n_splits, round(c["row"].adc["0.5"], 3)
    ('human split-half (LI only)', 1174, 100, 0.486)
    >>> c["curve"]["deltas"][49], round(c["curve"]["adc_mean"][49], 3)
    (0.5, 0.486)
    """
    result = compute_ceiling(
        n_splits=n_splits, seed=seed, source=source, tasks=False, deltas=deltas
    )
    curve = result["curve"]
    return {
        "row": ceiling_row(result),
        "curve": {"deltas": curve["deltas"], "adc_mean": curve["adc_mean"]},
    }
