"""The one shape of a report, for every benchmark: what ``report --json`` and ``reproduce
--json`` print.

:func:`report_of` is the one place a report is assembled (keys :data:`REPORT_KEYS`, always all
of them, ``None`` where a part does not apply); :func:`metric_adc.report.li_adger.li_adger_report`,
:func:`~metric_adc.report.li_adger.reproduce_report` and
:func:`metric_adc.report.benchmark.benchmark_report` build their reports with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["REPORT_KEYS", "report_of"]

REPORT_KEYS = ("benchmark", "rows", "analysis", "table_2_2", "linking", "subset")
"""The keys of a report: ``benchmark`` (a name of :data:`li_adger.benchmarks.BENCHMARKS`);
``rows``, the model's rows then the rows shown beside them (reference rows, the human
split-half row); ``analysis``, the bootstrap intervals and breakdowns
(:func:`metric_adc.report.analysis.analyze_on_pairs` on LI-Adger,
:func:`~metric_adc.report.analysis.analyze_outcomes` elsewhere); ``table_2_2``, a CoLA
classifier's MCC on LI-Adger beside the thesis's Table 2.2
(:func:`metric_adc.thesis.table_2_2.table_2_2_rows`); ``linking``, how a fitted linking
function was fitted (``report --linking``); ``subset``, the whole groups a file scores when it
scores only some (``{"column", "word", "groups", "of"}``: e.g. BLiMP's column ``UID``, the word
``paradigm``, the paradigms, and how many the benchmark has), ``None`` for the whole benchmark."""


def report_of(
    benchmark: str,
    rows: Sequence[Mapping],
    *,
    analysis: Mapping | None = None,
    table_2_2: Sequence[Mapping] | None = None,
    linking: Mapping | None = None,
    subset: Mapping | None = None,
) -> dict:
    """A report (keys :data:`REPORT_KEYS`).

    Examples
    --------
    >>> r = report_of("npi", [{"model": "toy"}])
    >>> list(r) == list(REPORT_KEYS), r["analysis"], r["table_2_2"]
    (True, None, None)
    """
    return {
        "benchmark": benchmark,
        "rows": [dict(r) for r in rows],
        "analysis": None if analysis is None else dict(analysis),
        "table_2_2": None if table_2_2 is None else [dict(r) for r in table_2_2],
        "linking": None if linking is None else dict(linking),
        "subset": None if subset is None else dict(subset),
    }
