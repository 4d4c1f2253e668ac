"""What ``python -m metric_adc report`` computes for a scores file of the family's benchmarks
other than LI-Adger (whose ADC report is :func:`metric_adc.report.analysis.analyze_on_pairs`'s).

:func:`benchmark_report` returns a dict with the keys :data:`REPORT_KEYS`, the keys of
``report --json`` for every benchmark: ``benchmark``; ``rows``, the model's row and the
benchmark's reference rows (:func:`metric_adc.report.rows.benchmark_row`,
:func:`metric_adc.report.rows.reference_rows`); ``analysis``, the bootstrap intervals
(:func:`metric_adc.report.analysis.analyze_outcomes`); ``table_2_2``, the thesis's CoLA classifiers'
MCC on LI-Adger (:func:`metric_adc.report.rows.table_2_2_rows`) where the benchmark is CoLA (and, for
LI-Adger, with a CoLA classifier's own row first), else ``None``.
"""

from __future__ import annotations

import numpy as np

from metric_adc.family import statistics as family
from metric_adc.report import rows
from metric_adc.report.analysis import analyze_outcomes
from metric_adc.scores.benchmark import BenchmarkScores, items_of

__all__ = ["REPORT_KEYS", "benchmark_report", "li_adger_mcc_rows"]

REPORT_KEYS = ("benchmark", "rows", "analysis", "table_2_2")
"""The keys of ``report --json``, for every benchmark (LI-Adger's ``rows`` are ADC rows,
its ``analysis`` that of :func:`metric_adc.report.analysis.analyze_on_pairs`)."""


def li_adger_mcc_rows(bs: BenchmarkScores) -> list[dict] | None:
    """For a CoLA classifier's LI-Adger scores: its MCC against the expert labels (threshold
    0) as a benchmark row, then the thesis's Table 2.2 rows; ``None`` for any other kind.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from metric_adc.scores.file import write_scores
    >>> from metric_adc.scores.benchmark import read_benchmark_scores
    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> s = load_thesis_scores()["bert-base-uncased-cola"]
    >>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "c.jsonl",
    ...     [{"id": k, "score": v} for k, v in s.items()], {"model": "bbu", "kind": "cola"})
    >>> [(r["model"], round(r["labelled"]["mcc"], 3)) for r in li_adger_mcc_rows(read_benchmark_scores(p))][:2]
    [('bbu', 0.585), ('bert-base-uncased-cola', 0.585)]
    """
    if bs.kind != "cola":
        return None
    result = family.evaluate_items("li_adger", items_of("li_adger"), bs.scores, kind="cola")
    mine = rows.benchmark_row(
        result, model=bs.model, convention=bs.convention, n_units=len(bs.scores)
    )
    return [mine, *rows.table_2_2_rows()]


def benchmark_report(bs: BenchmarkScores, *, seed: int = 0, n_resamples: int = 2000) -> dict:
    """The report of a scores file on its benchmark (keys :data:`REPORT_KEYS`); ``seed`` draws
    the bootstrap resamples and the folds of a fitted CoLA threshold.

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
    >>> list(r) == list(REPORT_KEYS), [x["model"] for x in r["rows"]], r["table_2_2"]
    (True, ['length'], None)
    """
    if bs.benchmark == "li_adger":
        raise ValueError("LI-Adger's report is the ADC report (python -m metric_adc report)")
    o = family.outcomes(
        bs.benchmark, items_of(bs.benchmark), bs.scores, ranks=bs.ranks, kind=bs.kind, seed=seed
    )
    result = family.summarize_outcomes(bs.benchmark, o)
    row = rows.benchmark_row(
        result, model=bs.model, convention=bs.convention, n_units=len(bs.scores)
    )
    analysis = analyze_outcomes(
        bs.benchmark, o, rng=np.random.default_rng(seed), n_resamples=n_resamples
    )
    return {
        "benchmark": bs.benchmark,
        "rows": [row, *rows.reference_rows(bs.benchmark)],
        "analysis": analysis,
        "table_2_2": rows.table_2_2_rows() if bs.benchmark == "cola" else None,
    }
