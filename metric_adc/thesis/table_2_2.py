"""The thesis's Table 2.2, recomputed from its outputs: its CoLA classifiers' MCC on LI-Adger.

The thesis classifies LI-Adger's 4,178 sentences with its three BERT CoLA classifiers
(acceptable iff the signed confidence > 0) and reports the MCC against a ``label`` column of its
own outputs. :func:`table_2_2_rows` gives both MCCs, against the dataset's expert labels (as a
model's LI-Adger row does, :func:`metric_adc.family.statistics.evaluate_items`) and against the
thesis's column (:data:`TABLE_2_2_NOTE` says how they differ).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from metric_adc import classification
from metric_adc.family import statistics as family
from metric_adc.family.items import items_of
from metric_adc.result_rows import BenchmarkRow, benchmark_row
from metric_adc.thesis import outputs as thesis

__all__ = ["TABLE_2_2_NOTE", "Table22Row", "table_2_2_rows"]

TABLE_2_2_NOTE = (
    "the thesis's CoLA classifiers on LI-Adger's 4,178 sentences, acceptable iff the signed "
    "confidence > 0. MCC (expert labels, mcc): against the dataset's expert labels (the mark g); "
    "MCC (thesis label, mcc_thesis_label): "
    "against the thesis's own label column, id.str.contains('g'), which also marks the 128 "
    "unacceptable sentences whose author's name has a g"
)


@dataclass(frozen=True)
class Table22Row(BenchmarkRow):
    """A row of the thesis's Table 2.2: a benchmark row of ``li_adger`` and, after its fields,
    ``mcc_thesis_label``, the MCC against the thesis's own ``label`` column (see
    :data:`TABLE_2_2_NOTE`)."""

    mcc_thesis_label: float | None


def table_2_2_rows(dir: str | os.PathLike | None = None) -> list[Table22Row]:
    """The thesis's Table 2.2, recomputed from its outputs: its three CoLA classifiers' MCC on
    LI-Adger, as rows of ``li_adger`` (:class:`Table22Row`) whose ``labelled`` section holds
    the MCC against the dataset's expert labels, and whose ``mcc_thesis_label`` is the MCC
    against the thesis's own ``label`` column (see :data:`TABLE_2_2_NOTE`).

    Examples
    --------
    >>> rows = table_2_2_rows()
    >>> [(r.model, round(r.labelled["mcc"], 3), round(r.mcc_thesis_label, 3)) for r in rows]
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
        row = benchmark_row(result, model=m.name, n_units=len(ids), note=TABLE_2_2_NOTE)
        out.append(Table22Row(**row.to_json_dict(), mcc_thesis_label=versus_thesis))
    return out
