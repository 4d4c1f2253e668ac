"""Result rows: one typed row of statistics per model (or reference), one type per kind of result.

Every row, wherever it is shown (``python -m metric_adc report``, ``reproduce`` and
``summary``, the README's tables, the Space, the ``evaluate`` module) is assembled by the one
private builder of this module as a frozen dataclass (a :data:`Row`): readers take its
attributes, and it becomes a dict (``to_json_dict``) only where it is printed as JSON. A row on
one benchmark has the keys every benchmark shares, :data:`SHARED_KEYS` (``model``,
``benchmark``, ``convention``, ``headline`` first, ``note`` last), and its benchmark's own
statistics between them:

- LI-Adger's ADC rows, :class:`AdcRow` (keys :data:`ROW_KEYS`): :func:`model_row` (a model on
  every pair of a table, from its :class:`~metric_adc.pairs.ModelDeltas`),
  :func:`evaluate_on_pairs` (from scores); :func:`source_row` (a model on the pairs of one
  source: the LI pairs beside the human row); :func:`ceiling_row` (the human split-half
  ceiling, a :class:`CeilingRow`, :func:`metric_adc.ceiling.compute.compute_ceiling`);
- every benchmark of the family, :class:`BenchmarkRow` (keys :data:`BENCHMARK_ROW_KEYS`):
  :func:`benchmark_row` (a result of :func:`metric_adc.family.statistics.evaluate_items`, or
  of a reference row).

A summary row (one model across the family, a
:class:`~metric_adc.report.summary.SummaryRow`, also a :class:`TypedRow`) is built from these
rows by :func:`metric_adc.report.summary.summary_row`.

Rows name a scores file's model as :func:`metric_adc.scores.labels.row_label` does. The rows
read from data live with the data: the thesis's models and its Table 2.2 in
:mod:`metric_adc.thesis`, the benchmarks' reference rows in
:mod:`metric_adc.report.references`.

The ``evaluate`` module returns an ADC row without the keys of :data:`ROW_ONLY_KEYS` (its
result keys are :data:`RESULT_KEYS`). The math is in :mod:`metric_adc.core` and
:mod:`metric_adc.family.statistics`; printing is in :mod:`metric_adc.report.formatting` and
:mod:`metric_adc.report.family_format`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields

import numpy as np

from metric_adc import core, formulas
from metric_adc.input_checks import as_labels, as_model_and_human, summary_options
from metric_adc.pairs import ModelDeltas, PairTable, model_deltas

__all__ = [
    "BENCHMARK_ROW_KEYS",
    "RESULT_KEYS",
    "ROW_KEYS",
    "ROW_ONLY_KEYS",
    "SHARED_KEYS",
    "AdcRow",
    "BenchmarkRow",
    "CeilingRow",
    "Row",
    "TypedRow",
    "benchmark_row",
    "ceiling_row",
    "evaluate_on_pairs",
    "model_row",
    "source_row",
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

SHARED_KEYS = ("model", "benchmark", "convention", "headline", "n_pairs", "note")
"""The keys every row of every benchmark has, with one meaning: what the row is called
(:func:`metric_adc.scores.labels.row_label`), the benchmark (a name of :data:`li_adger.benchmarks.BENCHMARKS`, or
``None`` for a pair table of no benchmark), the scoring convention (:func:`metric_adc.scores.labels.convention_of`;
``None`` for a reference row), the value of the benchmark's headline statistic, the minimal
pairs evaluated (``None`` where the benchmark has none) and a caption."""

_HEAD = SHARED_KEYS[:4]


class TypedRow:
    """What every typed row (a frozen dataclass) has: :meth:`to_json_dict`."""

    def to_json_dict(self) -> dict:
        """The row as JSON prints it: its fields in order (the values themselves, not
        copies)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class AdcRow(TypedRow):
    """An ADC row (LI-Adger, or any pair table with human judgements), typed: its fields are
    :data:`ROW_KEYS`, in order (their meanings there). :func:`model_row`, :func:`source_row`
    and :func:`ceiling_row` build one; readers take its attributes, and :meth:`to_json_dict`
    gives it as JSON prints it (a report's ``--json``, the app's shipped rows, the ``evaluate``
    module's result).

    Examples
    --------
    >>> ROW_KEYS[:5], ROW_KEYS[-3:]
    (('model', 'benchmark', 'convention', 'headline', 'n_sentences'), ('standardized', 'by_group', 'note'))
    """

    model: str
    benchmark: str | None
    convention: str | None
    headline: float | None
    n_sentences: int
    n_pairs: int
    n_excluded: int
    blimp: float | None
    human_sign: float | None
    adc: dict[str, float | None]
    adc_auc: float | None
    pearson_pairs: float | None
    pearson_pairs_p: float | None
    spearman_pairs: float | None
    spearman_pairs_p: float | None
    pearson_sentences: float | None
    pearson_sentences_p: float | None
    spearman_sentences: float | None
    spearman_sentences_p: float | None
    standardized: bool
    by_group: dict | None
    note: str | None


@dataclass(frozen=True)
class CeilingRow(AdcRow):
    """The human split-half row (:func:`ceiling_row`): an :class:`AdcRow` and, after
    :data:`ROW_KEYS`, ``authors_note`` (the request of the data's authors, kept with every
    use), ``n_splits`` and ``seed`` (of the split-halves)."""

    authors_note: str
    n_splits: int
    seed: int | None


ROW_KEYS = tuple(f.name for f in fields(AdcRow))
"""The keys of every ADC row (LI-Adger, or any pair table with human judgements), in order:
the fields of :class:`AdcRow`.

``headline`` is LI-Adger's headline statistic, the BLiMP criterion pooled over the pairs (the
value of ``blimp``); ``n_sentences`` counts the sentences the z-scores are computed over (in
a :func:`source_row`: the sentences of its statistics); ``adc`` maps each δ
(:func:`metric_adc.core.delta_key`) to its share of pairs passed; ``standardized`` is true
when the scores were z-scored by the metric; ``by_group`` is the pair statistics per group of
pairs (the report and the Space: per source, ``LI`` and ``Adger``) or ``None``; ``note`` is a
caption shown with the row. The others are those of :func:`metric_adc.core.summarize`
(pairs) and :func:`metric_adc.core.sentence_correlation` (sentences)."""

ROW_ONLY_KEYS = (*_HEAD, "note")
"""Keys an ADC row has beyond its statistics: what the row is, its caption, and the headline
(which repeats ``blimp``)."""

RESULT_KEYS = tuple(k for k in ROW_KEYS if k not in ROW_ONLY_KEYS)
"""The statistics of a row: the result keys of the ``evaluate`` module."""


@dataclass(frozen=True)
class BenchmarkRow(TypedRow):
    """A row on a benchmark of the family (:func:`benchmark_row`), typed: its fields are
    :data:`BENCHMARK_ROW_KEYS`, in order (their meanings there); readers take its attributes,
    and :meth:`to_json_dict` gives it as JSON prints it."""

    model: str
    benchmark: str | None
    convention: str | None
    headline: float | None
    n_units: int | None
    n_items: int | None
    n_pairs: int | None
    pairs: dict | None
    cloze: dict | None
    labelled: dict | None
    note: str | None


Row = AdcRow | BenchmarkRow
"""A result row of either kind, as a report carries it."""

BENCHMARK_ROW_KEYS = tuple(f.name for f in fields(BenchmarkRow))
"""The keys of a benchmark row (:func:`benchmark_row`), the fields of :class:`BenchmarkRow`, in order: ``n_units`` the units
scored (``None`` for a reference row given as published statistics), ``n_items`` what the
headline counts (pairs; cloze sensitivity items; labelled sentences), ``n_pairs`` the
minimal pairs (``None`` for cloze and labelled benchmarks), and the sections ``pairs``,
``cloze`` and ``labelled`` of :func:`metric_adc.family.statistics.evaluate_items` (``None`` where the
benchmark has no such part)."""


def _row(
    *,
    model: str,
    benchmark: str | None,
    convention: str | None,
    headline: float | None,
    body: Mapping,
    note: str | None = None,
) -> dict:
    """The one place a row's fields are assembled: the shared head (``model``, ``benchmark``,
    ``convention``, ``headline``), the benchmark's own statistics (``body``), then ``note``."""
    head = {
        "model": str(model),
        "benchmark": benchmark,
        "convention": convention,
        "headline": None if headline is None else float(headline),
    }
    return {**head, **body, "note": note}


def _adc_row(
    *,
    model: str,
    benchmark: str | None,
    convention: str | None,
    n_sentences: int,
    pairs: Mapping,
    sentences: Mapping | None,
    standardized: bool,
    by_group: dict | None = None,
    note: str | None = None,
) -> AdcRow:
    """An ADC row from pair statistics (keys of :func:`core.summarize`; the headline is their
    ``blimp``) and sentence statistics (keys of :func:`core.sentence_correlation`, ``None``
    in BLiMP-only mode), through the one builder of a row's head (:func:`_row`)."""
    s = sentences or {}
    body = {
        "n_sentences": int(n_sentences),
        **{k: pairs[k] for k in _PAIR_KEYS},
        **{k: s.get(name) for k, name in _SENTENCE_KEYS.items()},
        "standardized": bool(standardized),
        "by_group": by_group,
    }
    return AdcRow(
        **_row(
            model=model,
            benchmark=benchmark,
            convention=convention,
            headline=pairs["blimp"],
            body=body,
            note=note,
        )
    )


def model_row(
    scored: ModelDeltas,
    pairs: PairTable,
    *,
    model: str = "unnamed",
    groups: Sequence[str] | None = None,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    auc_max: float = core.DEFAULT_AUC_MAX,
    note: str | None = None,
    benchmark: str | None = "li_adger",
    convention: str | None = None,
) -> AdcRow:
    """One result row (an :class:`AdcRow`) for a model on every pair of ``pairs``.

    ``scored`` is the model's z-scores and pair deltas on ``pairs`` (:func:`model_deltas`);
    ``benchmark`` (default LI-Adger's) and ``convention`` (:func:`~metric_adc.scores.labels.convention_of`) name what
    the row is.
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
    >>> row.n_pairs, row.n_excluded, row.blimp, row.adc, row.n_sentences
    (2, 1, 1.0, {'0.5': 0.5}, 6)
    >>> row.benchmark, row.headline == row.blimp
    ('li_adger', True)
    """
    keys, auc_max = summary_options(deltas, auc_max)
    m, h = as_model_and_human(scored.delta, pairs.human_delta)  # checked once, used below
    labels = pairs.source if groups is None else as_labels(groups, m.size)
    sentences = None
    if pairs.judgements is not None:
        sentences = core.sentence_correlation(scored.z, pairs.judgements)
    by_group = None if labels is None else formulas.breakdown_of(labels, m, h, keys, auc_max)
    summary = formulas.summarize_pairs(m, h, keys, auc_max)
    return _adc_row(
        model=model,
        benchmark=benchmark,
        convention=convention,
        n_sentences=scored.n_sentences,
        pairs=summary,
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
    convention: str | None = None,
) -> AdcRow:
    """:func:`model_row` from a model's sentence scores (:func:`model_deltas`).

    Scores are z-scored over all sentences given (``standardize=True``); every pair member
    must have a score; ids unknown to the table raise.

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c", "e"], ["b", "d", "f"],
    ...     {"a": 1.0, "b": -1.0, "c": 0.5, "d": -0.8, "e": 0.3, "f": None})
    >>> row = evaluate_on_pairs({"a": 3.0, "b": 1.0, "c": 2.5, "d": 2.0, "e": 1.0, "f": 0.0},
    ...                         t, model="toy", deltas=[0.5])
    >>> row.n_pairs, row.n_excluded, row.blimp, row.adc
    (2, 1, 1.0, {'0.5': 0.5})
    """
    md = model_deltas(scores, pairs, standardize=standardize)
    return model_row(
        md, pairs, model=model, deltas=deltas, auc_max=auc_max, note=note, convention=convention
    )


def source_row(
    scored: ModelDeltas,
    pairs: PairTable,
    source: str,
    *,
    model: str = "unnamed",
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    auc_max: float = core.DEFAULT_AUC_MAX,
    benchmark: str | None = "li_adger",
    convention: str | None = None,
) -> AdcRow:
    """A model's row on the pairs of one ``source`` (e.g. ``"LI"``), an :class:`AdcRow`.

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
    >>> row.model, row.n_pairs, row.n_sentences, row.adc
    ('toy (LI only)', 2, 4, {'1.0': 1.0})
    """
    keys, auc_max = summary_options(deltas, auc_max)
    if pairs.source is None:
        raise ValueError("the pair table has no 'source' column: cannot select a source")
    sel = np.array([s == source for s in pairs.source], dtype=bool)
    if not sel.any():
        raise ValueError(
            f"no pair has source {source!r} (expected one of {sorted(set(pairs.source))})"
        )
    m, h = as_model_and_human(scored.delta, pairs.human_delta)
    summary = formulas.summarize_pairs(m[sel], None if h is None else h[sel], keys, auc_max)
    members = list(
        dict.fromkeys(
            i
            for g, b, k in zip(pairs.good_ids, pairs.bad_ids, sel, strict=True)
            if k
            for i in (g, b)
        )
    )
    sentences = None
    n_sentences = sum(i in scored.z for i in members)
    if pairs.judgements is not None:
        sentences = core.sentence_correlation(scored.z, pairs.judgements, members)
        n_sentences = sentences["n"]
    return _adc_row(
        model=f"{model} ({source} only)",
        benchmark=benchmark,
        convention=convention,
        n_sentences=n_sentences,
        pairs=summary,
        sentences=sentences,
        standardized=scored.standardized,
        note=f"{source} pairs only; z-scores over all {len(scored.z)} sentences scored",
    )


def ceiling_row(result: Mapping) -> CeilingRow:
    """The human split-half ceiling as a result row, a :class:`CeilingRow`.

    ``result`` is a :func:`metric_adc.ceiling.compute.compute_ceiling` result. Values are the means
    over its split-halves; statistics a split-half has no counterpart for (p-values,
    Spearman, ``by_group``) are ``None``. ``model`` is the result's ``label``, ``note`` its
    ``note`` (LI only: the Adger part has no participant-level data); the extra keys are
    ``authors_note`` (the request of the data's authors, kept with every use), ``n_splits``
    and ``seed``.

    Examples
    --------
    >>> from metric_adc.ceiling.compute import compute_ceiling
    >>> row = ceiling_row(compute_ceiling(n_splits=20, tasks=False, deltas=[1.0]))
    >>> row.model, row.n_pairs, 0.5 < row.adc["1.0"] < 1, row.pearson_pairs_p
    ('human split-half (LI only)', 1174, True, None)
    >>> "Adger" in row.note and "Jon Sprouse" in row.authors_note
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
    row = _adc_row(
        model=result["label"],
        benchmark="li_adger",
        convention=None,
        n_sentences=result["n_sentences"],
        pairs=pairs,
        sentences={"pearson": mean("pearson_sentences")},
        standardized=True,
        note=result["note"],
    )
    return CeilingRow(
        **row.to_json_dict(),
        authors_note=result["authors_note"],
        n_splits=int(result["n_splits"]),
        seed=result["seed"],
    )


# ----------------------------------------------------------------------------- the family
def _n_items(result: Mapping) -> int | None:
    """What the headline counts: pairs, cloze sensitivity items, or labelled sentences."""
    statistic = result["headline"]["statistic"]
    if statistic == "sensitivity" and result["cloze"] is not None:
        return sum(s["n_sensitivity_items"] for s in result["cloze"]["sets"].values())
    if statistic == "mcc" and result["labelled"] is not None:
        return result["labelled"]["n"]
    return None if result["pairs"] is None else result["pairs"]["n_pairs"]


def benchmark_row(
    result: Mapping,
    *,
    model: str,
    convention: str | None = None,
    n_units: int | None = None,
    note: str | None = None,
) -> BenchmarkRow:
    """A model's row on one benchmark (a :class:`BenchmarkRow`) from
    its result (:func:`metric_adc.family.statistics.evaluate_items` or
    :func:`~metric_adc.report.references.reference_results`); ``note`` defaults to the result's.

    Examples
    --------
    >>> from metric_adc.family.outcomes import Outcomes
    >>> from metric_adc.family.statistics import summarize_outcomes
    >>> import pandas as pd
    >>> o = Outcomes("npi", pairs=pd.DataFrame({"environment": ["adverbs", "only"],
    ...     "contrast": ["scope", "scope"], "paradigm": ["p", "q"], "passed": [True, False]}))
    >>> row = benchmark_row(summarize_outcomes("npi", o), model="toy (slor)", convention="slor",
    ...                     n_units=4)
    >>> row.benchmark, row.headline, row.n_items, row.n_pairs, row.cloze
    ('npi', 0.5, 2, 2, None)
    """
    body = {
        "n_units": None if n_units is None else int(n_units),
        "n_items": _n_items(result),
        "n_pairs": None if result["pairs"] is None else result["pairs"]["n_pairs"],
        "pairs": result["pairs"],
        "cloze": result["cloze"],
        "labelled": result["labelled"],
    }
    return BenchmarkRow(
        **_row(
            model=model,
            benchmark=result["benchmark"],
            convention=convention,
            headline=result["headline"]["value"],
            body=body,
            note=result["note"] if note is None else note,
        )
    )
