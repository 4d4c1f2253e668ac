"""The one report path: :func:`build_report` builds the report of any benchmark's scores file,
:func:`format_report` prints any report, :func:`report_plots` draws its figures.

What a report holds is read from the benchmark's spec (``sections`` in
``li_adger/benchmarks/benchmarks.toml``) through :data:`SECTION_REPORTS`, the registry of the
sections that bring their own rows: a benchmark whose spec lists ``adc`` (graded human
judgements: LI-Adger) gets the ADC rows and the sections beside them
(:func:`metric_adc.report.li_adger.li_adger_report`: δ sweep, correlations, human row,
bootstrap, ``--baseline``, ``--linking``, a classifier's MCC, as its spec lists them); any other
gets the family's rows (:func:`metric_adc.report.benchmark.benchmark_report`). Options that ask
for a section the spec does not list are refused (:func:`check_sections`). The printed text adds
the sections of the paper a benchmark comes from, as its spec lists them (``figure_3``,
``human_validation``: :data:`SECTION_FORMATS`); ``--json`` prints
:meth:`~metric_adc.report.shape.Report.to_json_dict` for every benchmark.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from li_adger.benchmarks import BENCHMARKS
from metric_adc import core
from metric_adc.pairs import PairTable
from metric_adc.report.benchmark import benchmark_report
from metric_adc.report.family_format import format_benchmark_report
from metric_adc.report.formatting import format_li_adger_report
from metric_adc.report.li_adger import li_adger_plots, li_adger_report
from metric_adc.report.npi_sections import format_figure_3, format_mturk
from metric_adc.report.plots import plot_benchmark
from metric_adc.report.shape import Report
from metric_adc.result_rows import CeilingRow
from metric_adc.scores.benchmark import BenchmarkScores

__all__ = [
    "SECTION_FORMATS",
    "SECTION_REPORTS",
    "SectionReport",
    "build_report",
    "check_sections",
    "format_report",
    "refused_options",
    "report_plots",
]


@dataclass(frozen=True)
class SectionReport:
    """How the reports of the benchmarks whose spec lists a section are built, printed and
    plotted: ``build(bs, seed=, n_resamples=, **options)`` (the options of
    :func:`build_report`), ``format(report, markdown=)``, ``plot(report, bs, folder, **options)``.
    """

    build: Callable[..., Report]
    format: Callable[..., str]
    plot: Callable[..., list[Path]]


def _family_report(bs: BenchmarkScores, *, seed: int, n_resamples: int, **_options) -> Report:
    """:func:`benchmark_report`, taking and leaving the options on graded human judgements
    (:func:`check_sections` has refused any that was asked for)."""
    return benchmark_report(bs, seed=seed, n_resamples=n_resamples)


def _family_plots(report: Report, bs: BenchmarkScores, folder, **_options) -> list[Path]:
    return plot_benchmark(report, folder)


SECTION_REPORTS: dict[str | None, SectionReport] = {
    "adc": SectionReport(li_adger_report, format_li_adger_report, li_adger_plots),
    None: SectionReport(_family_report, format_benchmark_report, _family_plots),
}
"""The sections that bring their own rows, and the family's report (key ``None``) for a
benchmark whose spec lists none of them."""


def check_sections(benchmark: str, **asked: bool) -> None:
    """Raise when an option asks for a section (a keyword of
    :data:`li_adger.benchmarks.spec.SECTIONS`, true when asked for) that the benchmark's spec
    does not list.

    Examples
    --------
    >>> check_sections("li_adger", linking=True, baseline=False)
    >>> check_sections("npi", baseline=True)
    Traceback (most recent call last):
    ...
    ValueError: the 'baseline' section is not among the sections benchmarks.toml gives 'npi' (human_validation)
    """
    refused = refused_options(benchmark, [(name, name, wanted) for name, wanted in asked.items()])
    if refused:
        raise ValueError(
            f"the {refused[0]!r} section is not among the sections benchmarks.toml gives "
            f"{benchmark!r} ({', '.join(BENCHMARKS[benchmark].sections)})"
        )


def refused_options(benchmark: str, asked: Iterable[tuple[str, str, bool]]) -> list[str]:
    """The options of ``asked`` — (option, the section it asks for, whether it is given) —
    that are given and ask for a section the benchmark's spec does not list, in order.

    Examples
    --------
    >>> refused_options("npi", [("--baseline", "baseline", True), ("--linking", "linking", False)])
    ['--baseline']
    >>> refused_options("li_adger", [("--baseline", "baseline", True)])
    []
    """
    sections = BENCHMARKS[benchmark].sections
    return [option for option, section, given in asked if given and section not in sections]


SECTION_FORMATS: dict[str, Callable[[Report, bool], str]] = {
    "figure_3": lambda report, markdown: format_figure_3(report.rows[0], markdown=markdown),
    "human_validation": lambda report, markdown: format_mturk(markdown=markdown),
}
"""The sections from a benchmark's paper that the printed text adds after the report's rows
(in the order of the spec's ``sections``), each printed from the report."""


def _path(benchmark: str) -> SectionReport:
    """The report of ``benchmark``: that of the first of its spec's sections in
    :data:`SECTION_REPORTS`, else the family's.

    Examples
    --------
    >>> _path("li_adger").build.__name__, _path("npi").build.__name__
    ('li_adger_report', '_family_report')
    """
    sections = BENCHMARKS[benchmark].sections
    return SECTION_REPORTS[next((s for s in sections if s in SECTION_REPORTS), None)]


def build_report(
    bs: BenchmarkScores,
    *,
    seed: int = 0,
    n_resamples: int = 2000,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    pairs: PairTable | None = None,
    baseline: BenchmarkScores | None = None,
    baseline_name: str | None = None,
    standardize: bool = True,
    human: CeilingRow | None = None,
    linking: Sequence[str] = (),
) -> Report:
    """The report of a scores file on its benchmark: its rows and the sections its spec lists.
    ``seed`` draws the bootstrap resamples (and a fitted CoLA threshold's folds); the other
    options ask for sections on graded human judgements (see
    :func:`metric_adc.report.li_adger.li_adger_report`) and are refused where the spec does not
    list them. ``deltas`` and ``standardize`` are the ADC's (ignored without it).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from metric_adc.family.items import items_of
    >>> from metric_adc.scores.file import write_scores
    >>> from metric_adc.scores.benchmark import read_benchmark_scores
    >>> units = items_of("npi").units
    >>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "n.jsonl",
    ...     [{"id": i, "score": -float(len(s))} for i, s in zip(units["id"], units["sentence"])],
    ...     {"model": "length", "dataset": "npi"})
    >>> bs = read_benchmark_scores(p)
    >>> r = build_report(bs, n_resamples=20)
    >>> r.benchmark, [x.model for x in r.rows], r.n_resamples
    ('npi', ['length'], 20)
    >>> build_report(bs, linking=["slor"])
    Traceback (most recent call last):
    ...
    ValueError: the 'linking' section is not among the sections benchmarks.toml gives 'npi' (human_validation)
    """
    check_sections(
        bs.benchmark,
        adc=pairs is not None or not standardize,
        baseline=baseline is not None,
        ceiling=human is not None,
        linking=bool(linking),
    )
    return _path(bs.benchmark).build(
        bs, seed=seed, n_resamples=n_resamples, deltas=deltas, pairs=pairs, baseline=baseline,
        baseline_name=baseline_name, standardize=standardize, human=human, linking=linking,
    )  # fmt: skip


def format_report(report: Report, *, markdown: bool = False) -> str:
    """Any report as ``report`` prints it: its rows and sections (plain text, or GitHub
    markdown), then the sections of the benchmark's paper.

    Examples
    --------
    >>> from metric_adc.result_rows import BENCHMARK_ROW_KEYS, BenchmarkRow
    >>> from metric_adc.report.parts import OutcomeAnalysis
    >>> from metric_adc.report.shape import report_of
    >>> ci = {"low": 0.4, "high": 0.8}
    >>> row = BenchmarkRow(**{**dict.fromkeys(BENCHMARK_ROW_KEYS), "model": "toy",
    ...     "headline": 0.6, "n_units": 4, "n_items": 2})
    >>> a = OutcomeAnalysis(n_resamples=9, resampled="pairs", headline=ci)
    >>> r = report_of("npi", [row], seed=0, analysis=a)
    >>> text = format_report(r)
    >>> text.splitlines()[5], "Human validation" in text
    ('toy              0.600  2  [0.400, 0.800]', True)
    """
    sections = BENCHMARKS[report.benchmark].sections
    parts = [_path(report.benchmark).format(report, markdown=markdown)]
    parts += [SECTION_FORMATS[s](report, markdown) for s in sections if s in SECTION_FORMATS]
    return "\n\n".join(parts)


def report_plots(
    report: Report,
    bs: BenchmarkScores,
    folder: str | os.PathLike,
    *,
    pairs: PairTable | None = None,
    standardize: bool = True,
    delta: float = 1.0,
) -> list[Path]:
    """The figures of a :func:`build_report` report (the same ``bs``, ``pairs`` and
    ``standardize``; ``delta``, the ADC's threshold in the figures of the pair deltas). Returns
    the paths written."""
    plot = _path(bs.benchmark).plot
    return plot(report, bs, folder, pairs=pairs, standardize=standardize, delta=delta)
