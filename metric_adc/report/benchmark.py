"""The family's rows of a report: what ``python -m metric_adc report`` computes for a scores file
of a benchmark whose spec lists no ``adc`` section (:mod:`metric_adc.report.build` chooses;
LI-Adger's rows are :func:`metric_adc.report.li_adger.li_adger_report`'s).

:func:`benchmark_report` returns a report (:func:`metric_adc.report.shape.report_of`): the
model's row and the benchmark's reference rows (:func:`metric_adc.result_rows.benchmark_row`,
:func:`metric_adc.report.references.reference_rows`); the bootstrap intervals
(:func:`metric_adc.report.analysis.analyze_outcomes`); on CoLA the thesis's CoLA classifiers'
MCC on LI-Adger (:func:`metric_adc.thesis.table_2_2.table_2_2_rows`).

A file that scores whole groups of BLiMP, NPI or the diagnostics (``baselines score
--subset``: paradigms, environments, diagnostic sets) is reported on those groups, and the
report says so (its ``subset``; BLiMP's reference rows are kept to the same paradigms); a file
that scores part of a group is refused with the group, its missing ids and the ``--subset``
command (:func:`scored_items`).
"""

from __future__ import annotations

import numpy as np

from li_adger.benchmarks import Items
from li_adger.benchmarks.subsets import (
    SUBSET_COLUMNS,
    SUBSET_WORDS,
    covered_groups,
    missing_ids_hint,
    select_groups,
    subset_names,
)
from metric_adc.family.items import items_of
from metric_adc.family.outcomes import outcomes
from metric_adc.family.statistics import summarize_outcomes
from metric_adc.report.analysis import analyze_outcomes
from metric_adc.report.parts import Subset
from metric_adc.report.references import reference_rows
from metric_adc.report.shape import Report, report_of
from metric_adc.result_rows import benchmark_row
from metric_adc.scores.benchmark import BenchmarkScores
from metric_adc.scores.file import ScoresFileError
from metric_adc.thesis.table_2_2 import table_2_2_rows

__all__ = ["benchmark_report", "scored_items"]


def scored_items(bs: BenchmarkScores) -> tuple[Items, Subset | None]:
    """The items a scores file is reported on, and its subset (``None``: the whole benchmark).

    On BLiMP, NPI and the diagnostics, a file that scores every unit of some groups (and no
    other unit) is reported on those groups (a :class:`~metric_adc.report.parts.Subset`). A unit of a
    group left incomplete is a :class:`~metric_adc.scores.file.ScoresFileError` naming the
    file, the group, its missing ids and ``--subset``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from li_adger.benchmarks.subsets import group_units
    >>> from metric_adc.scores.file import write_scores
    >>> from metric_adc.scores.benchmark import read_benchmark_scores
    >>> ids = group_units(items_of("npi"))["only"]
    >>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "n.jsonl",
    ...     [{"id": i, "score": -1.0} for i in ids], {"model": "m", "dataset": "npi"})
    >>> items, subset = scored_items(read_benchmark_scores(p))
    >>> subset, set(items.comparisons["environment"])
    (Subset(column='environment', word='environment', groups=('only',), of=9), {'only'})
    >>> _ = write_scores(p, [{"id": i, "score": -1.0} for i in ids[:-2]], {"model": "m", "dataset": "npi"})
    >>> scored_items(read_benchmark_scores(p))
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.ScoresFileError: .../n.jsonl: it covers part of 1 environment: 'only' (2 unit id(s) missing, e.g. ...); score whole environments with `python -m baselines score --dataset npi --subset only ...`
    """
    items = items_of(bs.benchmark)
    if bs.benchmark not in SUBSET_COLUMNS:
        return items, None
    whole, partial = covered_groups(items, bs.scores)
    if partial:
        limit = bs.file.metadata.get("limit")
        limit = limit if isinstance(limit, int) and not isinstance(limit, bool) else None
        hint = missing_ids_hint(bs.benchmark, partial, limit=limit)
        raise ScoresFileError(f"{bs.path}: {hint}")
    names = subset_names(items)
    if len(whole) == len(names):
        return items, None
    word = SUBSET_WORDS[bs.benchmark]
    if not whole:
        raise ScoresFileError(
            f"{bs.path}: scores no whole {word} of {bs.benchmark} (it scores "
            f"{len(bs.scores)} unit(s)); score whole {word}s with `python -m baselines score "
            f"--dataset {bs.benchmark} --subset NAME[,NAME...]`"
        )
    subset = Subset(
        column=SUBSET_COLUMNS[bs.benchmark], word=word, groups=tuple(whole), of=len(names)
    )
    return select_groups(items, whole), subset


def benchmark_report(bs: BenchmarkScores, *, seed: int = 0, n_resamples: int = 2000) -> Report:
    """The report of a scores file on its benchmark (a :class:`~metric_adc.report.shape.Report`
    carrying ``seed`` and ``n_resamples``); ``seed`` draws the bootstrap resamples and the
    folds of a fitted CoLA threshold.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from metric_adc.scores.file import write_scores
    >>> from metric_adc.scores.benchmark import read_benchmark_scores
    >>> units = items_of("npi").units
    >>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "n.jsonl",
    ...     [{"id": i, "score": -float(len(s))} for i, s in zip(units["id"], units["sentence"])],
    ...     {"model": "length", "dataset": "npi"})
    >>> r = benchmark_report(read_benchmark_scores(p), n_resamples=50)
    >>> text = dict(zip(units["id"], units["sentence"]))
    >>> c = items_of("npi").comparisons
    >>> shorter = [len(text[g]) < len(text[b]) for g, b in zip(c["good_id"], c["bad_id"])]
    >>> [x.model for x in r.rows], r.rows[0].headline == sum(shorter) / len(c)
    (['length'], True)
    """
    items, subset = scored_items(bs)
    o = outcomes(bs.benchmark, items, bs.scores, ranks=bs.ranks, kind=bs.kind, seed=seed)
    row = benchmark_row(
        summarize_outcomes(bs.benchmark, o),
        model=bs.model,
        convention=bs.convention,
        n_units=len(bs.scores),
    )
    return report_of(
        bs.benchmark,
        [row, *reference_rows(bs.benchmark, groups=None if subset is None else subset.groups)],
        analysis=analyze_outcomes(
            bs.benchmark, o, rng=np.random.default_rng(seed), n_resamples=n_resamples
        ),
        table_2_2=table_2_2_rows() if bs.benchmark == "cola" else None,
        subset=subset,
        seed=seed,
        n_resamples=n_resamples,
    )
