"""What ``python -m metric_adc report`` computes for a scores file of the family's benchmarks
other than LI-Adger (whose report is :func:`metric_adc.report.li_adger.li_adger_report`).

:func:`benchmark_report` returns a report (:func:`metric_adc.report.shape.report_of`): the
model's row and the benchmark's reference rows (:func:`metric_adc.rows.benchmark_row`,
:func:`metric_adc.report.references.reference_rows`); the bootstrap intervals
(:func:`metric_adc.report.analysis.analyze_outcomes`); on CoLA the thesis's CoLA classifiers'
MCC on LI-Adger (:func:`metric_adc.thesis.table_2_2.table_2_2_rows`).
"""

from __future__ import annotations

import numpy as np

from metric_adc.family.items import items_of
from metric_adc.family.outcomes import outcomes
from metric_adc.family.statistics import summarize_outcomes
from metric_adc.report.analysis import analyze_outcomes
from metric_adc.report.references import reference_rows
from metric_adc.report.shape import report_of
from metric_adc.rows import benchmark_row
from metric_adc.scores.benchmark import BenchmarkScores
from metric_adc.thesis.table_2_2 import table_2_2_rows

__all__ = ["benchmark_report"]


def benchmark_report(bs: BenchmarkScores, *, seed: int = 0, n_resamples: int = 2000) -> dict:
    """The report of a scores file on its benchmark (keys
    :data:`~metric_adc.report.shape.REPORT_KEYS`); ``seed`` draws the bootstrap resamples and
    the folds of a fitted CoLA threshold.

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
    >>> [x["model"] for x in r["rows"]], r["rows"][0]["headline"] == sum(shorter) / len(c)
    (['length'], True)
    """
    if bs.benchmark == "li_adger":
        raise ValueError("LI-Adger's report is the ADC report (metric_adc.report.li_adger)")
    o = outcomes(
        bs.benchmark, items_of(bs.benchmark), bs.scores, ranks=bs.ranks, kind=bs.kind, seed=seed
    )
    row = benchmark_row(
        summarize_outcomes(bs.benchmark, o),
        model=bs.model,
        convention=bs.convention,
        n_units=len(bs.scores),
    )
    return report_of(
        bs.benchmark,
        [row, *reference_rows(bs.benchmark)],
        analysis=analyze_outcomes(
            bs.benchmark, o, rng=np.random.default_rng(seed), n_resamples=n_resamples
        ),
        table_2_2=table_2_2_rows() if bs.benchmark == "cola" else None,
    )
