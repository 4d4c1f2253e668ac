"""The one shape of a report, for every benchmark: what ``report --json`` and ``reproduce
--json`` print.

:func:`report_of` is the one place a report is assembled: a :class:`Report`, which carries its
settings and prints as JSON through :meth:`Report.to_json_dict` (keys :data:`REPORT_KEYS`, always
all of them, ``None`` where a part does not apply); :func:`metric_adc.report.li_adger.li_adger_report`,
:func:`~metric_adc.report.li_adger.reproduce_report` and
:func:`metric_adc.report.benchmark.benchmark_report` build their reports with it (the first and
the last through :func:`metric_adc.report.build.build_report`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from metric_adc.report.parts import LinkingFits, OutcomeAnalysis, PairAnalysis, Subset
from metric_adc.result_rows import Row

__all__ = ["REPORT_KEYS", "Report", "report_of"]

REPORT_KEYS = ("benchmark", "rows", "analysis", "table_2_2", "linking", "subset")
"""The keys of a report: ``benchmark`` (a name of :data:`li_adger.benchmarks.BENCHMARKS`);
``rows``, the model's rows then the rows shown beside them (reference rows, the human
split-half row; typed rows, :data:`~metric_adc.result_rows.Row`, each printed as its
``to_json_dict``); ``analysis``, the bootstrap intervals and breakdowns
(:func:`metric_adc.report.analysis.analyze_on_pairs` on LI-Adger,
:func:`~metric_adc.report.analysis.analyze_outcomes` elsewhere); ``table_2_2``, a CoLA
classifier's MCC on LI-Adger beside the thesis's Table 2.2
(:func:`metric_adc.thesis.table_2_2.table_2_2_rows`); ``linking``, how a fitted linking
function was fitted (``report --linking``); ``subset``, the whole groups a file scores when it
scores only some (``{"column", "word", "groups", "of"}``: e.g. BLiMP's column ``UID``, the word
``paradigm``, the paradigms, and how many the benchmark has), ``None`` for the whole benchmark.
``analysis``, ``linking`` and ``subset`` are typed (:mod:`metric_adc.report.parts`), each
printed as its ``to_json_dict``."""


@dataclass(frozen=True)
class Report:
    """A report (the parts :data:`REPORT_KEYS`, ``None`` where a part does not apply) and the
    settings it was computed with, which its formatters read from it: ``seed`` (of the
    bootstrap resamples and of a fitted CoLA threshold's folds), ``n_resamples``,
    ``baseline`` (the file compared with, as named) and ``prestandardized`` (the scores taken
    as z-scores); ``None`` where a setting does not apply. Build it with :func:`report_of`.
    ``rows`` (and ``table_2_2``) are typed: :class:`~metric_adc.result_rows.AdcRow` on
    LI-Adger, :class:`~metric_adc.result_rows.BenchmarkRow` elsewhere; so are the other parts
    (:mod:`metric_adc.report.parts`): ``analysis`` a
    :class:`~metric_adc.report.parts.PairAnalysis` on LI-Adger, an
    :class:`~metric_adc.report.parts.OutcomeAnalysis` elsewhere; ``linking`` a
    :class:`~metric_adc.report.parts.LinkingFits`; ``subset`` a
    :class:`~metric_adc.report.parts.Subset`.
    """

    benchmark: str
    rows: list[Row]
    analysis: PairAnalysis | OutcomeAnalysis | None = None
    table_2_2: list[Row] | None = None
    linking: LinkingFits | None = None
    subset: Subset | None = None
    seed: int | None = None
    n_resamples: int | None = None
    baseline: str | None = None
    prestandardized: bool = False

    def to_json_dict(self) -> dict:
        """What ``--json`` prints: the parts, keys :data:`REPORT_KEYS` in order (the settings
        are the command's options, not printed), each typed part as its ``to_json_dict``.

        Examples
        --------
        >>> from metric_adc.result_rows import BENCHMARK_ROW_KEYS, BenchmarkRow
        >>> row = BenchmarkRow(**{**dict.fromkeys(BENCHMARK_ROW_KEYS), "model": "toy"})
        >>> d = report_of("npi", [row], seed=3).to_json_dict()
        >>> d["rows"][0]["model"], [k for k, v in d.items() if v is None]
        ('toy', ['analysis', 'table_2_2', 'linking', 'subset'])
        """
        return {
            "benchmark": self.benchmark,
            "rows": [r.to_json_dict() for r in self.rows],
            "analysis": None if self.analysis is None else self.analysis.to_json_dict(),
            "table_2_2": (
                None if self.table_2_2 is None else [r.to_json_dict() for r in self.table_2_2]
            ),
            "linking": None if self.linking is None else self.linking.to_json_dict(),
            "subset": None if self.subset is None else self.subset.to_json_dict(),
        }


def report_of(
    benchmark: str,
    rows: Sequence[Row],
    *,
    analysis: PairAnalysis | OutcomeAnalysis | None = None,
    table_2_2: Sequence[Row] | None = None,
    linking: LinkingFits | None = None,
    subset: Subset | None = None,
    seed: int | None = None,
    n_resamples: int | None = None,
    baseline: str | None = None,
    prestandardized: bool = False,
) -> Report:
    """A :class:`Report` of these parts (the lists copied; the rows and the typed parts are
    frozen, kept as they are) and settings.

    Examples
    --------
    >>> from metric_adc.result_rows import BENCHMARK_ROW_KEYS, BenchmarkRow
    >>> row = BenchmarkRow(**dict.fromkeys(BENCHMARK_ROW_KEYS))
    >>> r = report_of("npi", [row], seed=0, n_resamples=9)
    >>> list(r.to_json_dict()) == list(REPORT_KEYS), r.analysis, r.table_2_2, r.n_resamples
    (True, None, None, 9)
    """
    return Report(
        benchmark=benchmark,
        rows=list(rows),
        analysis=analysis,
        table_2_2=None if table_2_2 is None else list(table_2_2),
        linking=linking,
        subset=subset,
        seed=seed,
        n_resamples=n_resamples,
        baseline=baseline,
        prestandardized=prestandardized,
    )
