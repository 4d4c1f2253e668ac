"""Figures 2-1 / 2-2 for any run: the MCC on the CoLA analysis set per major and per minor
feature, per restart, summarised over restarts (mean, sd, min, max), beside the model's mean
MCC on the thesis's CoLA test set (the thesis's dashed lines; W&B 2019 drew CoLA's dev set).

A feature's MCC is over the analysis sentences that have it
(:func:`metric_adc.classification.mcc`; 0 when its sentences, or a restart's predictions on
them, are all of one class).
"""

from __future__ import annotations

import numpy as np

from metric_adc import classification
from metric_adc.chapter2.cola_sets import analysis_features
from metric_adc.chapter2.orders import spread
from metric_adc.chapter2.restarts import labelled_predictions
from metric_adc.chapter2.runs import Run

__all__ = ["LEVELS", "dashed_line", "feature_rows"]

LEVELS = ("major", "minor")
DASHED_SET = "thesis_cola_test"


def feature_rows(run: Run, level: str) -> list[dict]:
    """One row per feature of ``level`` for ``run``: the feature, its sentences (and how many
    are acceptable), the MCC per restart and their :func:`~metric_adc.chapter2.orders.spread`.
    """
    names, has = analysis_features(level)
    ids, gold, predictions = labelled_predictions(run, "cola_analysis")
    member = {f: np.array([f in has[i] for i in ids]) for f in names}
    rows = []
    for f in names:
        m = member[f]
        per = (
            [classification.mcc(gold[m], predictions[m, k]) for k in range(predictions.shape[1])]
            if m.any()
            else []
        )
        rows.append(
            {
                "model": run.name,
                "level": level,
                "feature": f,
                "n_sentences": int(m.sum()),
                "n_acceptable": int(gold[m].sum()),
                "per_restart": per,
                **(spread(per) if per else {"mean": None, "sd": None, "min": None, "max": None}),
            }
        )
    return rows


def dashed_line(run: Run) -> float:
    """The run's mean MCC on the thesis's CoLA test set over restarts (the dashed line)."""
    _, gold, p = labelled_predictions(run, DASHED_SET)
    return float(np.mean([classification.mcc(gold, p[:, k]) for k in range(p.shape[1])]))
