"""Result rows: one dict of statistics per model (or per human ceiling), one shape everywhere.

Every row, wherever it is shown (``python -m metric_adc report`` and ``reproduce``, the
README's table, the Space, the ``evaluate`` module) is assembled by the one private builder
of this module, so that a row always has the keys of :data:`ROW_KEYS`, in that order:

- :func:`model_row`: a model on every pair of a table, from its :class:`ModelDeltas`;
  :func:`evaluate_on_pairs` (from scores), :func:`evaluate_li_adger` (on the LI-Adger
  dataset), :func:`thesis_rows` and :func:`reproduce_rows` (the thesis's 8 models);
- :func:`source_row`: a model on the pairs of one source (the LI pairs beside the human row);
- :func:`ceiling_row`: the human split-half ceiling (:func:`metric_adc.ceiling.compute_ceiling`).

The ``evaluate`` module returns a row without the keys of :data:`ROW_ONLY_KEYS` (its result
keys are :data:`RESULT_KEYS`). The math is in :mod:`metric_adc.core`; printing is in
:mod:`metric_adc.formatting`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from metric_adc import core
from metric_adc.pairs import (
    ModelDeltas,
    PairTable,
    li_adger_pairs,
    model_deltas,
    thesis_model_deltas,
    thesis_pair_table,
)

if TYPE_CHECKING:
    from metric_adc.thesis import ThesisModel

__all__ = [
    "RESULT_KEYS",
    "ROW_KEYS",
    "ROW_ONLY_KEYS",
    "ceiling_row",
    "evaluate_li_adger",
    "evaluate_on_pairs",
    "model_row",
    "reproduce_rows",
    "source_row",
    "thesis_rows",
]

_PAIR_KEYS = (
    "n_pairs",
    "n_excluded",
    "blimp",
    "human_sign",
    "adc",
    "adc_auc",
    "pearson_pairs",
    "pearson_pairs_p",
    "spearman_pairs",
    "spearman_pairs_p",
)  # the keys of core.summarize
_SENTENCE_KEYS = {
    "pearson_sentences": "pearson",
    "pearson_sentences_p": "pearson_p",
    "spearman_sentences": "spearman",
    "spearman_sentences_p": "spearman_p",
}  # row key -> key of core.sentence_correlation

ROW_KEYS = (
    "model",
    "n_sentences",
    *_PAIR_KEYS,
    *_SENTENCE_KEYS,
    "standardized",
    "by_group",
    "note",
)
"""The keys of every result row, in order.

``n_sentences`` counts the sentences the z-scores are computed over (in a :func:`source_row`:
the sentences of its statistics); ``adc`` maps each δ (:func:`metric_adc.core.delta_key`) to
its share of pairs passed; ``standardized`` is true when the scores were z-scored by the
metric; ``by_group`` is the pair statistics per group of pairs (the report and the Space: per
source, ``LI`` and ``Adger``) or ``None``; ``note`` is a caption shown with the row. The
others are those of :func:`metric_adc.core.summarize` (pairs) and
:func:`metric_adc.core.sentence_correlation` (sentences)."""

ROW_ONLY_KEYS = ("model", "note")
"""Keys a row has beyond the statistics: what the row is called and its caption."""

RESULT_KEYS = tuple(k for k in ROW_KEYS if k not in ROW_ONLY_KEYS)
"""The statistics of a row: the result keys of the ``evaluate`` module."""


def _row(
    *,
    model: str,
    n_sentences: int,
    pairs: Mapping,
    sentences: Mapping | None,
    standardized: bool,
    by_group: dict | None = None,
    note: str | None = None,
    extra: Mapping | None = None,
) -> dict:
    """The one place a row is assembled: pair statistics (keys of :func:`core.summarize`),
    sentence statistics (keys of :func:`core.correlation`, ``None`` in BLiMP-only mode),
    then ``extra`` keys after :data:`ROW_KEYS`."""
    s = sentences or {}
    row = {
        "model": str(model),
        "n_sentences": int(n_sentences),
        **{k: pairs[k] for k in _PAIR_KEYS},
        **{k: s.get(name) for k, name in _SENTENCE_KEYS.items()},
        "standardized": bool(standardized),
        "by_group": by_group,
        "note": note,
    }
    return {**row, **(extra or {})}


def model_row(
    scored: ModelDeltas,
    pairs: PairTable,
    *,
    model: str = "unnamed",
    groups: Sequence[str] | None = None,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    auc_max: float = core.DEFAULT_AUC_MAX,
    note: str | None = None,
) -> dict:
    """One result row (keys :data:`ROW_KEYS`) for a model on every pair of ``pairs``.

    ``scored`` is the model's z-scores and pair deltas on ``pairs`` (:func:`model_deltas`).
    ``pearson_sentences`` (and Spearman) correlate the model's z-scores with the human
    judgements over the scored sentences that have one; ``by_group`` breaks the pair
    statistics down by ``groups`` (one label per pair; default the table's ``source``; none
    when that is ``None``). In a table without judgements every human statistic is ``None``.

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c", "e"], ["b", "d", "f"],
    ...     {"a": 1.0, "b": -1.0, "c": 0.5, "d": -0.8, "e": 0.3, "f": None})
    >>> md = model_deltas({"a": 3.0, "b": 1.0, "c": 2.5, "d": 2.0, "e": 1.0, "f": 0.0}, t)
    >>> row = model_row(md, t, model="toy", deltas=[0.5])
    >>> row["n_pairs"], row["n_excluded"], row["blimp"], row["adc"], row["n_sentences"]
    (2, 1, 1.0, {'0.5': 0.5}, 6)
    """
    deltas = list(deltas)
    h = pairs.human_delta
    groups = pairs.source if groups is None else groups
    by_group = None
    if groups is not None:
        by_group = core.breakdown(groups, scored.delta, h, deltas=deltas, auc_max=auc_max)
    sentences = None
    if pairs.judgements is not None:
        sentences = core.sentence_correlation(scored.z, pairs.judgements)
    return _row(
        model=model,
        n_sentences=scored.n_sentences,
        pairs=core.summarize(scored.delta, h, deltas=deltas, auc_max=auc_max),
        sentences=sentences,
        standardized=scored.standardized,
        by_group=by_group,
        note=note,
    )


def evaluate_on_pairs(
    scores: Mapping[str, float],
    pairs: PairTable,
    *,
    model: str = "unnamed",
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    standardize: bool = True,
    auc_max: float = core.DEFAULT_AUC_MAX,
    note: str | None = None,
) -> dict:
    """:func:`model_row` from a model's sentence scores (:func:`model_deltas`).

    Scores are z-scored over all sentences given (``standardize=True``); every pair member
    must have a score; ids unknown to the table raise.

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c", "e"], ["b", "d", "f"],
    ...     {"a": 1.0, "b": -1.0, "c": 0.5, "d": -0.8, "e": 0.3, "f": None})
    >>> row = evaluate_on_pairs({"a": 3.0, "b": 1.0, "c": 2.5, "d": 2.0, "e": 1.0, "f": 0.0},
    ...                         t, model="toy", deltas=[0.5])
    >>> row["n_pairs"], row["n_excluded"], row["blimp"], row["adc"]
    (2, 1, 1.0, {'0.5': 0.5})
    """
    md = model_deltas(scores, pairs, standardize=standardize)
    return model_row(md, pairs, model=model, deltas=deltas, auc_max=auc_max, note=note)


def evaluate_li_adger(
    scores: Mapping[str, float],
    *,
    model: str = "unnamed",
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    standardize: bool = True,
    pairs: PairTable | None = None,
) -> dict:
    """:func:`evaluate_on_pairs` on the LI-Adger dataset's 2,365 evaluable pairs.

    Examples
    --------
    >>> from metric_adc.thesis import load_thesis_scores
    >>> row = evaluate_li_adger(load_thesis_scores()["bert-base-uncased-mlm"], model="bbu")
    >>> row["n_pairs"], row["n_excluded"], round(row["adc"]["1.0"], 3)
    (2365, 0, 0.63)
    """
    return evaluate_on_pairs(
        scores,
        pairs if pairs is not None else li_adger_pairs(),
        model=model,
        deltas=deltas,
        standardize=standardize,
    )


def thesis_rows(
    models: Iterable[tuple[ThesisModel, ModelDeltas]],
    pairs: PairTable,
    *,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
) -> list[dict]:
    """One :func:`model_row` per ``(ThesisModel, ModelDeltas)`` of
    :func:`metric_adc.pairs.thesis_model_deltas`, named and captioned as in the thesis.

    Examples
    --------
    >>> t = thesis_pair_table()
    >>> rows = thesis_rows(thesis_model_deltas(t), t, deltas=[1.0])
    >>> [r["model"] for r in rows][-2:], rows[-1]["standardized"]
    (['trigram-slor', 'trigram-logprob'], False)
    """
    deltas = list(deltas)
    return [model_row(md, pairs, model=m.name, deltas=deltas, note=m.note) for m, md in models]


def reproduce_rows(
    dir: str | os.PathLike | None = None, *, deltas: Iterable[float] = core.DEFAULT_DELTAS
) -> list[dict]:
    """Rows for the thesis's 8 models, recomputed from its per-sentence scores and pair file.

    Examples
    --------
    >>> rows = reproduce_rows()
    >>> r = next(r for r in rows if r["model"] == "trigram-slor")
    >>> r["n_pairs"], r["n_excluded"], round(r["blimp"], 3), round(r["pearson_pairs"], 3)
    (2365, 2, 0.753, 0.333)
    """
    table = thesis_pair_table(dir)
    return thesis_rows(thesis_model_deltas(table, dir), table, deltas=deltas)


def source_row(
    scored: ModelDeltas,
    pairs: PairTable,
    source: str,
    *,
    model: str = "unnamed",
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    auc_max: float = core.DEFAULT_AUC_MAX,
) -> dict:
    """A model's row on the pairs of one ``source`` (e.g. ``"LI"``), keys :data:`ROW_KEYS`.

    ``scored`` is the model on all of ``pairs`` (:func:`model_deltas`): the z-scores are
    those of the full row (over *all* sentences scored); only the statistics
    are restricted: the pair statistics to the pairs of ``source`` (the values of the full
    row's ``by_group[source]``), the sentence statistics to the members of those pairs
    (``n_sentences`` counts the members with a judgement). The model is named
    ``"<model> (<source> only)"``. This is the row to read beside the human split-half
    ceiling, which exists for the LI pairs only.

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c", "e"], ["b", "d", "f"],
    ...     {"a": 1.0, "b": -1.0, "c": 0.5, "d": -0.8, "e": 0.3, "f": -0.2},
    ...     source=["LI", "LI", "Adger"])
    >>> md = model_deltas({"a": 3.0, "b": 1.0, "c": 2.5, "d": 2.0, "e": 1.0, "f": 0.0}, t)
    >>> row = source_row(md, t, "LI", model="toy", deltas=[1.0])
    >>> row["model"], row["n_pairs"], row["n_sentences"], row["adc"]
    ('toy (LI only)', 2, 4, {'1.0': 1.0})
    """
    deltas = list(deltas)
    if pairs.source is None:
        raise ValueError("the pair table has no 'source' column: cannot select a source")
    sel = np.array([s == source for s in pairs.source], dtype=bool)
    if not sel.any():
        raise ValueError(
            f"no pair has source {source!r} (expected one of {sorted(set(pairs.source))})"
        )
    h = None if pairs.human_delta is None else pairs.human_delta[sel]
    summary = core.summarize(scored.delta[sel], h, deltas=deltas, auc_max=auc_max)
    members = dict.fromkeys(
        i for g, b, k in zip(pairs.good_ids, pairs.bad_ids, sel, strict=True) if k for i in (g, b)
    )
    sentences = None
    n_sentences = sum(i in scored.z for i in members)
    if pairs.judgements is not None:
        sentences = core.sentence_correlation(scored.z, pairs.judgements, members)
        n_sentences = sentences["n"]
    return _row(
        model=f"{model} ({source} only)",
        n_sentences=n_sentences,
        pairs=summary,
        sentences=sentences,
        standardized=scored.standardized,
        note=f"{source} pairs only; z-scores over all {len(scored.z)} sentences scored",
    )


def ceiling_row(result: Mapping) -> dict:
    """The human split-half ceiling as a result row, keys :data:`ROW_KEYS` and three more.

    ``result`` is a :func:`metric_adc.ceiling.compute_ceiling` result. Values are the means
    over its split-halves; statistics a split-half has no counterpart for (p-values,
    Spearman, ``by_group``) are ``None``. ``model`` is the result's ``label``, ``note`` its
    ``note`` (LI only: the Adger part has no participant-level data); the extra keys are
    ``authors_note`` (the request of the data's authors, kept with every use), ``n_splits``
    and ``seed``.

    Examples
    --------
    >>> from metric_adc.ceiling import compute_ceiling
    >>> row = ceiling_row(compute_ceiling(n_splits=20, tasks=False, deltas=[1.0]))
    >>> row["model"], row["n_pairs"], 0.5 < row["adc"]["1.0"] < 1, row["pearson_pairs_p"]
    ('human split-half (LI only)', 1174, True, None)
    >>> "Adger" in row["note"] and "Jon Sprouse" in row["authors_note"]
    True
    """
    stats = result["stats"]

    def mean(name: str) -> float | None:
        return stats[name]["mean"]

    pairs = dict.fromkeys(_PAIR_KEYS)
    pairs.update(
        n_pairs=int(result["n_pairs"]),
        n_excluded=0,
        blimp=mean("blimp"),
        human_sign=mean("human_sign"),
        adc={core.delta_key(d): mean(f"adc_{core.delta_key(d)}") for d in result["deltas"]},
        adc_auc=mean("adc_auc"),
        pearson_pairs=mean("pearson_pairs"),
    )
    return _row(
        model=result["label"],
        n_sentences=result["n_sentences"],
        pairs=pairs,
        sentences={"pearson": mean("pearson_sentences")},
        standardized=True,
        note=result["note"],
        extra={
            "authors_note": result["authors_note"],
            "n_splits": int(result["n_splits"]),
            "seed": result["seed"],
        },
    )
