"""The thesis's pair file and its 8 models, evaluated as any model is.

:func:`thesis_pair_table` is the thesis's pair file as a :class:`~metric_adc.pairs.PairTable`
(2,367 pairs, 2 of them without a human judgement), :func:`thesis_model_deltas` its models'
z-scores and pair deltas on it, :func:`thesis_rows` their result rows, named and captioned as
in the thesis, and :func:`reproduce_rows` the whole ``reproduce`` table of the thesis's models,
recomputed from its published per-sentence scores (:mod:`metric_adc.thesis.outputs`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from metric_adc import core
from metric_adc.pairs import ModelDeltas, PairTable, model_deltas
from metric_adc.result_rows import AdcRow, model_row
from metric_adc.thesis import outputs as thesis
from metric_adc.thesis.outputs import ThesisModel

__all__ = ["reproduce_rows", "thesis_model_deltas", "thesis_pair_table", "thesis_rows"]


def thesis_pair_table(dir: str | os.PathLike | None = None) -> PairTable:
    """The thesis's pair file as a :class:`PairTable` (2,367 pairs, 2 without a judgement).

    Examples
    --------
    >>> t = thesis_pair_table()
    >>> import numpy as np
    >>> len(t), int(np.isnan(t.human_delta).sum())
    (2367, 2)
    """
    p = thesis.load_thesis_pairs(dir)
    return PairTable.from_judgements(p.good_ids, p.bad_ids, p.judgements, source=p.source)


def thesis_model_deltas(
    pairs: PairTable, dir: str | os.PathLike | None = None
) -> list[tuple[ThesisModel, ModelDeltas]]:
    """The thesis's 8 models (:func:`metric_adc.thesis.outputs.load_thesis_models`) on ``pairs``,
    each through :func:`model_deltas` (its z-scores used as given where the thesis gives
    z-scores), in the thesis's order. The deltas equal the thesis's ``*_zscore-delta``
    columns (the first pair's trigram log-prob delta there: -0.40918127278646).

    Examples
    --------
    >>> t = thesis_pair_table()
    >>> [(m.name, round(float(md.delta[0]), 6)) for m, md in thesis_model_deltas(t)][-1]
    ('trigram-logprob', -0.409181)
    """
    return [
        (m, model_deltas(m.scores, pairs, standardize=not m.standardized))
        for m in thesis.load_thesis_models(dir)
    ]


def thesis_rows(
    models: Iterable[tuple[ThesisModel, ModelDeltas]],
    pairs: PairTable,
    *,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
) -> list[AdcRow]:
    """One :func:`~metric_adc.result_rows.model_row` per ``(ThesisModel, ModelDeltas)`` of
    :func:`thesis_model_deltas`, named and captioned as in the thesis.

    Examples
    --------
    >>> t = thesis_pair_table()
    >>> rows = thesis_rows(thesis_model_deltas(t), t, deltas=[1.0])
    >>> [r.model for r in rows][-2:], rows[-1].standardized
    (['trigram-slor', 'trigram-logprob'], False)
    """
    deltas = list(deltas)
    return [model_row(md, pairs, model=m.name, deltas=deltas, note=m.note) for m, md in models]


def reproduce_rows(
    dir: str | os.PathLike | None = None, *, deltas: Iterable[float] = core.DEFAULT_DELTAS
) -> list[AdcRow]:
    """Rows for the thesis's 8 models, recomputed from its per-sentence scores and pair file.

    Examples
    --------
    >>> rows = reproduce_rows()
    >>> r = next(r for r in rows if r.model == "trigram-slor")
    >>> r.n_pairs, r.n_excluded, round(r.blimp, 3), round(r.pearson_pairs, 3)
    (2365, 2, 0.753, 0.333)
    """
    table = thesis_pair_table(dir)
    return thesis_rows(thesis_model_deltas(table, dir), table, deltas=deltas)
