"""Table 2.1 for any run of restarts: per model, the MCC over restarts as mean (sd), maximum
and the majority vote of the restarts ("Ensemble"), on the thesis's CoLA test set and on
CoLA's out-of-domain dev set; and the CoLA column of Table 2.2: the restart of highest MCC on
the CoLA test set, with its MCC on LI-Adger.

The majority vote predicts *acceptable* where more than half of the restarts do (a tie counts
as unacceptable, as the CoLA scorer counts a tie of the two probabilities). The sd is the
sample standard deviation over restarts (0 for one restart).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from metric_adc import classification
from metric_adc.chapter2.cola_sets import gold_labels
from metric_adc.chapter2.orders import spread
from metric_adc.chapter2.runs import Run

__all__ = [
    "REFERENCE_ROWS",
    "TABLE_2_2_ROWS",
    "TABLE_SETS",
    "labelled_predictions",
    "majority_vote",
    "table_2_1_row",
]

TABLE_SETS = ("thesis_cola_test", "cola_out_of_domain_dev")

# The thesis's Table 2.1 (Vázquez Martínez 2021, §2.2), typed from the printed table: MCC on
# the CoLA test set, mean (sd), maximum and ensemble over restarts. The rows of W&B 2019
# (Warstadt & Bowman 2019), Warstadt et al. 2018 (humans) and the GLUE leaderboard (Devlin;
# the thesis marks these with * as single submissions) are as the thesis prints them.
REFERENCE_ROWS: tuple[dict, ...] = (
    {"model": "CoLA baseline", "mean": 0.320, "sd": 0.007, "max": 0.330, "ensemble": 0.320, "authors": "W&B 2019"},
    {"model": "GPT", "mean": 0.528, "sd": 0.023, "max": 0.575, "ensemble": 0.567, "authors": "W&B 2019"},
    {"model": "BERT-large", "mean": 0.582, "sd": 0.032, "max": 0.622, "ensemble": 0.601, "authors": "W&B 2019"},
    {"model": "Human", "mean": 0.697, "sd": 0.042, "max": 0.726, "ensemble": 0.761, "authors": "Warstadt et al. 2018"},
    {"model": "BERT base-uncased", "mean": 0.478, "sd": 0.018, "max": 0.514, "ensemble": 0.522, "authors": "the thesis (10 restarts)"},
    {"model": "BERT large-uncased", "mean": 0.542, "sd": 0.019, "max": 0.583, "ensemble": 0.578, "authors": "the thesis (20 restarts)"},
    {"model": "BERT large-cased", "mean": 0.574, "sd": 0.026, "max": 0.613, "ensemble": 0.588, "authors": "the thesis (20 restarts)"},
    {"model": "BERT-base", "mean": 0.521, "sd": None, "max": 0.521, "ensemble": 0.521, "authors": "GLUE leaderboard (Devlin)*"},
    {"model": "BERT-large", "mean": 0.605, "sd": None, "max": 0.605, "ensemble": 0.605, "authors": "GLUE leaderboard (Devlin)*"},
)  # fmt: skip

# The thesis's Table 2.2, typed from the printed table: the restart of highest MCC on the CoLA
# test set, and that restart's MCC on LI-Adger (against the thesis's label column).
TABLE_2_2_ROWS: tuple[dict, ...] = (
    {"model": "BERT base-uncased", "cola_test": 0.514, "li_adger": 0.553},
    {"model": "BERT large-uncased", "cola_test": 0.583, "li_adger": 0.576},
    {"model": "BERT large-cased", "cola_test": 0.613, "li_adger": 0.595},
)


def majority_vote(predictions: ArrayLike) -> np.ndarray:
    """Per item (row), acceptable iff more than half of the restarts (columns) say so.

    Examples
    --------
    >>> majority_vote([[1, 1, 0], [1, 0, 0]]).tolist()
    [True, False]
    >>> majority_vote([[1, 0]]).tolist()  # a tie: unacceptable
    [False]
    """
    p = np.asarray(predictions, dtype=bool)
    if p.ndim != 2 or p.shape[1] == 0:
        raise ValueError(f"'predictions' must be an items × restarts matrix (got shape {p.shape})")
    return 2 * p.sum(axis=1) > p.shape[1]


def labelled_predictions(run: Run, set_name: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The ids, gold labels (from the set's pinned source) and predictions (items × restarts)
    of a CoLA set; every restart must predict every item, and a record's gold must be the
    source's."""
    gold = gold_labels(set_name)
    ids = list(gold)
    for r in run.restarts:
        items = r.sets.get(set_name, {})
        missing = [i for i in ids if i not in items]
        if missing:
            raise ValueError(
                f"{run.path}: restart {r.seed} has no prediction for {len(missing)} item(s) of "
                f"{set_name!r}, e.g. {missing[0]!r} (expected all {len(ids)})"
            )
        for i in ids:
            g = items[i].gold
            if g is not None and bool(g) != gold[i]:
                raise ValueError(
                    f"{run.path}/restart-{r.seed}.jsonl: id {i!r} of {set_name!r}: field 'gold' is "
                    f"{g} but the source's label is {int(gold[i])}"
                )
    predictions = np.column_stack([r.predictions(set_name, ids) for r in run.restarts])
    return ids, np.array([gold[i] for i in ids]), predictions


def _set_summary(run: Run, set_name: str) -> dict:
    _, gold, p = labelled_predictions(run, set_name)
    mccs = [classification.mcc(gold, p[:, k]) for k in range(p.shape[1])]
    return spread(mccs) | {
        "ensemble": classification.mcc(gold, majority_vote(p)),
        "per_restart": mccs,
        "n_items": len(gold),
    }


def table_2_1_row(run: Run, li_adger_labels: dict[str, dict[str, bool]] | None = None) -> dict:
    """One model's Table 2.1 row (both sets) and Table 2.2 CoLA column: the restart of highest
    MCC on the thesis's CoLA test set, its MCC there and, when the run has LI-Adger
    predictions and ``li_adger_labels`` (``{"expert": {...}, "thesis_label": {...}}``) is
    given, its MCC on LI-Adger against each.
    """
    if not run.restarts:
        raise ValueError(f"{run.path}: no finished restart (restart-<seed>.jsonl)")
    sets = {s: _set_summary(run, s) for s in TABLE_SETS}
    test = sets["thesis_cola_test"]["per_restart"]
    best = int(np.argmax(test))
    best_restart = run.restarts[best]
    table_2_2 = {"seed": best_restart.seed, "cola_test": test[best]}
    li = best_restart.sets.get("li_adger")
    if li and li_adger_labels is not None:
        ids = [i for i in li_adger_labels["expert"] if i in li]
        predicted = best_restart.predictions("li_adger", ids)
        for key, labels in li_adger_labels.items():
            table_2_2[f"li_adger_{key}"] = classification.mcc([labels[i] for i in ids], predicted)
    return {
        "model": run.name,
        "restart_kind": run.restart_kind,
        "n_restarts": len(run.restarts),
        "seeds": [r.seed for r in run.restarts],
        **sets,
        "table_2_2": table_2_2,
    }
