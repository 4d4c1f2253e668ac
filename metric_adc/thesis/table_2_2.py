"""The thesis's Table 2.2, recomputed from its outputs: its CoLA classifiers' MCC on LI-Adger.

The thesis classifies LI-Adger's 4,178 sentences with its three BERT CoLA classifiers
(acceptable iff the signed confidence > 0) and reports the MCC against a ``label`` column of its
own outputs. :func:`table_2_2_rows` gives both MCCs, against the dataset's expert labels (as a
model's LI-Adger row does, :func:`metric_adc.family.statistics.evaluate_items`) and against the
thesis's column (:data:`TABLE_2_2_NOTE` says how they differ).
"""

from __future__ import annotations

import os

from metric_adc import classification
from metric_adc.family import statistics as family
from metric_adc.family.items import items_of
from metric_adc.result_rows import benchmark_row
from metric_adc.thesis import outputs as thesis

__all__ = ["TABLE_2_2_NOTE", "table_2_2_rows"]

TABLE_2_2_NOTE = (
    "the thesis's CoLA classifiers on LI-Adger's 4,178 sentences, acceptable iff the signed "
    "confidence > 0. MCC (expert labels, mcc): against the dataset's expert labels (the mark g); "
    "MCC (thesis label, mcc_thesis_label): "
    "against the thesis's own label column, id.str.contains('g'), which also marks the 128 "
    "unacceptable sentences whose author's name has a g"
)


def table_2_2_rows(dir: str | os.PathLike | None = None) -> list[dict]:
    """The thesis's Table 2.2, recomputed from its outputs: its three CoLA classifiers' MCC on
    LI-Adger, as benchmark rows of ``li_adger`` whose ``labelled`` section holds the MCC
    against the dataset's expert labels, with one extra key ``mcc_thesis_label``: the MCC
    against the thesis's own ``label`` column (see :data:`TABLE_2_2_NOTE`).

    Examples
    --------
    >>> rows = table_2_2_rows()
    >>> [(r["model"], round(r["labelled"]["mcc"], 3), round(r["mcc_thesis_label"], 3)) for r in rows]
    [('bert-base-uncased-cola', 0.585, 0.553), ('bert-large-uncased-cola', 0.616, 0.576), ('bert-large-cased-cola', 0.633, 0.595)]
    """
    items = items_of("li_adger")
    ids = items.units["id"].tolist()
    thesis_labels = thesis.load_thesis_labels(dir)
    out = []
    for m in thesis.load_thesis_models(dir):
        if m.name not in thesis.COLA_MODELS:
            continue
        scores = {i: m.scores[i] for i in ids}
        result = family.evaluate_items("li_adger", items, scores, kind="cola")
        predicted = classification.predict_at_threshold([scores[i] for i in ids])
        versus_thesis = classification.mcc([thesis_labels[i] for i in ids], predicted)
        out.append(
            benchmark_row(
                result,
                model=m.name,
                n_units=len(ids),
                note=TABLE_2_2_NOTE,
                extra={"mcc_thesis_label": versus_thesis},
            )
        )
    return out
