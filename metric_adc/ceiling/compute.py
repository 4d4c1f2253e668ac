"""Split-half human ceiling: how well do two halves of the human participants meet the ADC?

Human judgements are noisy, so even a perfect model of "the average speaker" cannot pass
every pair at a strict δ. This module estimates that ceiling from the participant-level LI
data of Sprouse, Schütze & Almeida (2013) (:mod:`li_adger.sources.participants`):

1. split the participants at random into halves A and B, within each survey (participants
   of one survey rated the same sentences, so every sentence keeps raters in both halves);
2. per half, take each sentence's mean z-score;
3. score half B as a model against half A as the human ground truth, exactly as a model is
   scored (the formulas of :mod:`metric_adc.formulas` behind :mod:`metric_adc.core`): B's
   means are z-scored over all sentences, its pair deltas are compared with A's deltas by ADC
   at δ 0.5 / 1 / 5, the BLiMP criterion and the pair-level Pearson correlation; the
   Spearman-Brown formula turns the split-half correlation into the reliability of the
   full-sample deltas;
4. repeat for many splits; report means, the spread over splits and the Monte Carlo
   interval of each mean.

Only the LI part has participant-level data; the Adger part of LI-Adger has none, so the
ceiling describes the LI pairs only (:data:`NOTE` says so wherever the row appears).
Nothing at participant level leaves memory (:data:`li_adger.sources.participants.AUTHORS_NOTE`).

:func:`human_ceiling` is the one source of the human row that ``report``, ``reproduce`` and the
app show: the row (:func:`metric_adc.result_rows.ceiling_row`) and the mean ADC(δ) curve of
:data:`HUMAN_ROW_SPLITS` split-halves, computed afresh each time (a fraction of a second).

The jobs around it have their own files: :mod:`metric_adc.ceiling.splits` (random halves,
half means, every split's statistics (:func:`~metric_adc.ceiling.splits.split_half`),
summaries over splits), :mod:`metric_adc.ceiling.inputs` (what is read),
:mod:`metric_adc.ceiling.tasks` (ME vs Likert vs forced choice) and
:mod:`metric_adc.ceiling.plot` (the ADC(δ) figure); the ``ceiling`` subcommand is
:mod:`metric_adc.cli.ceiling`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from metric_adc import core
from metric_adc.ceiling.inputs import CeilingInputs, load_inputs, thesis_deltas_frame
from metric_adc.ceiling.splits import CURVE_GRID, SHARES, split_half
from metric_adc.ceiling.tasks import task_comparison
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
