"""The ``acrobatic`` report: a study of training orders (the thesis's file or a run with
``restart_kind`` ``"orders"``) → the Figure 2-3 curve, the MCCs per order, the counts, and
what the thesis did not compute: the spread over orders of the BLiMP criterion and of ADC
δ = 0.5, the acrobatic share per phenomenon, and the overlap with the thesis's set.

The ADC needs a graded score: a run's ``p_acceptable`` becomes the signed confidence of the
project's CoLA scorer (:func:`signed_confidence`, docs/scorers-mlm-cola.md), z-scored and
evaluated on LI-Adger's pairs by :mod:`metric_adc.core` like any model's scores. The thesis's
file holds labels only, so its spread is not computed.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import ArrayLike

from metric_adc import core
from metric_adc.chapter2 import acrobatic as acro
from metric_adc.chapter2.runs import Run
from metric_adc.chapter2.stability import OrderStudy, ThesisStudy
from metric_adc.family.items import items_of
from metric_adc.pairs import li_adger_pairs, model_deltas

__all__ = ["acrobatic_report", "run_study", "signed_confidence", "spread"]

ADC_DELTA = 0.5
LI_ADGER_SET = "li_adger"


def signed_confidence(p_acceptable: ArrayLike) -> np.ndarray:
    """The CoLA scorer's signed confidence from p(acceptable): ``+p`` when acceptable is
    predicted (``p > 0.5``), else ``−(1 − p)``; an exact tie counts as unacceptable, as in
    ``baselines.kinds.cola.signed_confidence`` (which takes logits).

    Examples
    --------
    >>> signed_confidence([0.9, 0.2, 0.5]).tolist()
    [0.9, -0.8, -0.5]
    """
    p = np.asarray(p_acceptable, dtype=float)
    return np.where(p > 0.5, p, -(1.0 - p))


def run_study(run: Run) -> OrderStudy:
    """A run's LI-Adger predictions over its restarts (in the spec's seed order).

    Raises if the run has no finished restart or is not a run of orders.

    Examples
    --------
    >>> from pathlib import Path
    >>> run_study(Run(Path("r"), "r", "restarts", {}, []))
    Traceback (most recent call last):
    ...
    ValueError: r: restart_kind is 'restarts'; the acrobatic sentences need a run of orders (--restart-kind orders: one initialisation, only the data order varies)
    """
    if run.restart_kind != "orders":
        raise ValueError(
            f"{run.path}: restart_kind is {run.restart_kind!r}; the acrobatic sentences need a "
            "run of orders (--restart-kind orders: one initialisation, only the data order varies)"
        )
    if not run.restarts:
        raise ValueError(f"{run.path}: no finished restart (restart-<seed>.jsonl)")
    ids = run.set_ids(LI_ADGER_SET)
    if not ids:
        raise ValueError(f"{run.path}: the restarts hold no {LI_ADGER_SET!r} predictions")
    predictions = np.column_stack([r.predictions(LI_ADGER_SET, ids) for r in run.restarts])
    p = np.column_stack([[r.sets[LI_ADGER_SET][i].p_acceptable for i in ids] for r in run.restarts])
    orders = [f"data_seed {r.data_seed}" for r in run.restarts]
    return OrderStudy(run.name, ids, orders, predictions, p)


def spread(values: ArrayLike) -> dict[str, float]:
    """Mean, sample sd (0 for one value), minimum and maximum of per-order values.

    Examples
    --------
    >>> spread([0.5, 0.7])
    {'mean': 0.6, 'sd': 0.1414213562373095, 'min': 0.5, 'max': 0.7}
    """
    v = np.asarray(values, dtype=float)
    sd = float(v.std(ddof=1)) if v.size > 1 else 0.0
    return {"mean": float(v.mean()), "sd": sd, "min": float(v.min()), "max": float(v.max())}


def _criteria(study: OrderStudy) -> dict:
    pairs = li_adger_pairs()
    blimp, adc = [], []
    for k in range(study.predictions.shape[1]):
        scores = dict(
            zip(study.ids, signed_confidence(study.p_acceptable[:, k]).tolist(), strict=True)
        )
        md = model_deltas(scores, pairs)
        blimp.append(core.blimp_accuracy(md.delta[~np.isnan(md.delta)]))
        adc.append(core.adc(md.delta, pairs.human_delta, ADC_DELTA))
    return {
        "blimp": spread(blimp) | {"per_order": blimp},
        f"adc_{core.delta_key(ADC_DELTA)}": spread(adc) | {"per_order": adc},
    }


def _by_phenomenon(ids: list[str], mask: np.ndarray, phenomenon: Mapping[str, str]) -> list[dict]:
    groups: dict[str, list[bool]] = {}
    for i, m in zip(ids, mask.tolist(), strict=True):
        groups.setdefault(phenomenon[i], []).append(m)
    return [
        {
            "phenomenon": p,
            "n_sentences": len(v),
            "n_acrobatic": int(sum(v)),
            "share": sum(v) / len(v),
        }
        for p, v in sorted(groups.items(), key=lambda kv: (-sum(kv[1]) / len(kv[1]), kv[0]))
    ]


def acrobatic_report(
    study: OrderStudy,
    *,
    thesis: ThesisStudy,
    large_cased: list[str] | None = None,
    is_thesis: bool = False,
) -> dict:
    """The report of one study of orders (a dict of plain values; ids and numbers only).

    ``thesis`` is the thesis's study (:func:`~metric_adc.chapter2.stability.thesis_study`):
    its label column and acrobatic set are compared with; ``large_cased`` the ids of
    BERT-large-cased's acrobatic file; ``is_thesis`` says ``study`` is the thesis's own.
    """
    labels = items_of("li_adger").labels.set_index("id")
    unknown = [i for i in study.ids if i not in labels.index]
    if unknown:
        raise ValueError(
            f"{study.name}: {len(unknown)} id(s) unknown to LI-Adger, e.g. {unknown[0]!r}"
        )
    expert = labels.loc[study.ids, "label"].to_numpy(dtype=bool)
    thesis_label = dict(zip(thesis.study.ids, thesis.thesis_label.tolist(), strict=True))
    thesis_labels = np.array([thesis_label[i] for i in study.ids])
    mask = acro.acrobatic_mask(study.predictions)
    curve = acro.acrobatic_curve(study.predictions)
    flips = acro.flip_counts(study.predictions)
    acrobatic_ids = [i for i, m in zip(study.ids, mask.tolist(), strict=True) if m]
    thesis_set = [
        i
        for i, m in zip(
            thesis.study.ids, acro.acrobatic_mask(thesis.study.predictions), strict=True
        )
        if m
    ]
    mcc_expert = acro.mcc_per_order(study.predictions, expert)
    mcc_thesis = acro.mcc_per_order(study.predictions, thesis_labels)
    report = {
        "name": study.name,
        "n_sentences": len(study.ids),
        "n_orders": len(study.orders),
        "orders": study.orders,
        "n_acrobatic": int(mask.sum()),
        "share_acrobatic": float(mask.mean()),
        "curve": {"acrobatic": curve.tolist(), "unathletic": (1.0 - curve).tolist()},
        "mcc_expert": spread(mcc_expert) | {"per_order": mcc_expert.tolist()},
        "mcc_thesis_label": spread(mcc_thesis) | {"per_order": mcc_thesis.tolist()},
        "majority_baseline": {
            "accuracy_expert": acro.majority_accuracy(expert),
            "accuracy_thesis_label": acro.majority_accuracy(thesis_labels),
            "mcc": 0.0,
        },
        "by_phenomenon": _by_phenomenon(study.ids, mask, labels["phenomenon"].to_dict()),
        "flips": [
            {"id": i, "flips": int(f)}
            for i, f, m in zip(study.ids, flips.tolist(), mask.tolist(), strict=True)
            if m
        ],
        "criteria": None if study.p_acceptable is None else _criteria(study),
    }
    if is_thesis:
        cyclic = acro.flip_counts(study.predictions, cyclic=True)
        report["thesis_num_flips_is_cyclic"] = bool(np.array_equal(cyclic, thesis.num_flips))
        report["baseline_column_accuracy_thesis_label"] = float(
            np.mean(thesis.baseline == thesis.thesis_label)
        )
    else:
        report["jaccard_with_thesis"] = acro.jaccard(acrobatic_ids, thesis_set)
    if large_cased is not None:
        report["large_cased"] = {
            "n_acrobatic": len(large_cased),
            "share": len(large_cased) / len(thesis.study.ids),
            "jaccard_with_this": acro.jaccard(acrobatic_ids, large_cased),
        }
    return report
