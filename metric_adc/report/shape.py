"""The one shape of a report, for every benchmark: what ``report --json`` and ``reproduce
--json`` print.

:func:`report_of` is the one place a report is assembled: a :class:`Report`, which carries its
settings and prints as JSON through :meth:`Report.to_json_dict` (keys :data:`REPORT_KEYS`, always
all of them, ``None`` where a part does not apply); :func:`metric_adc.report.li_adger.li_adger_report`,
:func:`~metric_adc.report.li_adger.reproduce_report` and
:func:`metric_adc.report.benchmark.benchmark_report` build their reports with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from metric_adc.result_rows import AdcRow

__all__ = ["REPORT_KEYS", "Report", "report_of"]

REPORT_KEYS = ("benchmark", "rows", "analysis", "table_2_2", "linking", "subset")
"""The keys of a report: ``benchmark`` (a name of :data:`li_adger.benchmarks.BENCHMARKS`);
``rows``, the model's rows then the rows shown beside them (reference rows, the human
split-half row; a :class:`~metric_adc.result_rows.AdcRow` on LI-Adger, printed as its
:meth:`~metric_adc.result_rows.AdcRow.to_json_dict`); ``analysis``, the bootstrap intervals and breakdowns
(:func:`metric_adc.report.analysis.analyze_on_pairs` on LI-Adger,
:func:`~metric_adc.report.analysis.analyze_outcomes` elsewhere); ``table_2_2``, a CoLA
classifier's MCC on LI-Adger beside the thesis's Table 2.2
(:func:`metric_adc.thesis.table_2_2.table_2_2_rows`); ``linking``, how a fitted linking
function was fitted (``report --linking``); ``subset``, the whole groups a file scores when it
scores only some (``{"column", "word", "groups", "of"}``: e.g. BLiMP's column ``UID``, the word
``paradigm``, the paradigms, and how many the benchmark has), ``None`` for the whole benchmark."""


@dataclass(frozen=True)
class Report:
    """A report (the parts :data:`REPORT_KEYS`, ``None`` where a part does not apply) and the
    settings it was computed with, which its formatters read from it: ``seed`` (of the
    bootstrap resamples and of a fitted CoLA threshold's folds), ``n_resamples``,
    ``baseline`` (the file compared with, as named) and ``prestandardized`` (the scores taken
    as z-scores); ``None`` where a setting does not apply. Build it with :func:`report_of`.
    ``rows`` are typed (:class:`~metric_adc.result_rows.AdcRow`) on LI-Adger, dicts of
    :data:`~metric_adc.result_rows.BENCHMARK_ROW_KEYS` elsewhere.
    """

    benchmark: str
    rows: list[AdcRow | dict]
    analysis: dict | None = None
    table_2_2: list[dict] | None = None
    linking: dict | None = None
    subset: dict | None = None
    seed: int | None = None
    n_resamples: int | None = None
    baseline: str | None = None
    prestandardized: bool = False

    def to_json_dict(self) -> dict:
        """What ``--json`` prints: the parts, keys :data:`REPORT_KEYS` in order (the settings
        are the command's options, not printed); a typed row is given as its
        :meth:`~metric_adc.result_rows.AdcRow.to_json_dict`.

        Examples
        --------
        >>> report_of("npi", [{"model": "toy"}], seed=3).to_json_dict()
        {'benchmark': 'npi', 'rows': [{'model': 'toy'}], 'analysis': None, 'table_2_2': None, 'linking': None, 'subset': None}
        """
        out = {key: getattr(self, key) for key in REPORT_KEYS}
        out["rows"] = [r.to_json_dict() if isinstance(r, AdcRow) else r for r in self.rows]
        return out


def report_of(
    benchmark: str,
    rows: Sequence[AdcRow | Mapping],
    *,
    analysis: Mapping | None = None,
    table_2_2: Sequence[Mapping] | None = None,
    linking: Mapping | None = None,
    subset: Mapping | None = None,
    seed: int | None = None,
    n_resamples: int | None = None,
    baseline: str | None = None,
    prestandardized: bool = False,
) -> Report:
    """A :class:`Report` of these parts (copied; a typed row is frozen, kept as it is) and
    settings.

    Examples
    --------
    >>> r = report_of("npi", [{"model": "toy"}], seed=0, n_resamples=9)
    >>> list(r.to_json_dict()) == list(REPORT_KEYS), r.analysis, r.table_2_2, r.n_resamples
    (True, None, None, 9)
    """
    return Report(
        benchmark=benchmark,
        rows=[r if isinstance(r, AdcRow) else dict(r) for r in rows],
        analysis=None if analysis is None else dict(analysis),
        table_2_2=None if table_2_2 is None else [dict(r) for r in table_2_2],
        linking=None if linking is None else dict(linking),
        subset=None if subset is None else dict(subset),
        seed=seed,
        n_resamples=n_resamples,
        baseline=baseline,
        prestandardized=prestandardized,
    )
