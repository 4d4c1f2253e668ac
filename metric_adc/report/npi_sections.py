"""What the text report adds on the NPI benchmarks: the cloze test as Fig. 3 lays it out, and
the paper's human validation (its appendix Table 4) beside every NPI report.

Both are sections a benchmark's spec asks for (``figure_3``, ``human_validation`` in
``benchmarks.toml``), printed after the family report by
:func:`metric_adc.report.build.format_report` (:data:`~metric_adc.report.build.SECTION_FORMATS`);
the numbers come from :func:`metric_adc.family.npi_cloze.figure_3` and
:data:`metric_adc.report.paper_tables.NPI_MTURK` (typed from the paper).

Examples
--------
>>> print(format_mturk().splitlines()[0])
Human validation (Warstadt et al. (2019), appendix Table 4 (MTurk validation; §5: 82.8 % overall)):
"""

from __future__ import annotations

from li_adger.io.text_table import fmt, markdown_table, text_table
from metric_adc.family.npi_cloze import CONTRASTS, figure_3
from metric_adc.report.paper_tables import NPI_MTURK
from metric_adc.result_rows import BenchmarkRow

__all__ = ["format_figure_3", "format_mturk"]


def _table(header: list[str], body: list[list[str]], markdown: bool) -> str:
    return markdown_table(header, body) if markdown else text_table(header, body)


def format_figure_3(row: BenchmarkRow, *, markdown: bool = False) -> str:
    """A model's ``npi_cloze`` row (its ``cloze`` section) as Fig. 3: contrast × environment.

    Examples
    --------
    >>> from metric_adc.result_rows import BENCHMARK_ROW_KEYS
    >>> row = BenchmarkRow(**{**dict.fromkeys(BENCHMARK_ROW_KEYS), "model": "toy",
    ...     "cloze": {"sets": {"only": {"conditions": {
    ...         "licensor": {"n_sensitivity_items": 2, "sensitivity": 0.5}}}}}})
    >>> print(format_figure_3(row))  # doctest: +NORMALIZE_WHITESPACE
    Fig. 3 (toy): share of pairs whose acceptable word scores higher
    contrast           ONLY   all
    NPI presence          —     —
    licensor presence  0.500  0.500
    """
    grid = figure_3(row.cloze)
    body = [
        [CONTRASTS[c], *(fmt(grid["rows"][c][col]) for col in grid["columns"])] for c in CONTRASTS
    ]
    title = f"Fig. 3 ({row.model}): share of pairs whose acceptable word scores higher"
    return f"{title}\n{_table(['contrast', *grid['columns']], body, markdown)}"


def format_mturk(*, markdown: bool = False) -> str:
    """The paper's MTurk validation, per environment as printed, and its overall agreement."""
    body = [[env, *(f"{v:.2f}" for v in values)] for env, values in NPI_MTURK["rows"].items()]
    o = NPI_MTURK["overall"]
    return (
        f"Human validation ({NPI_MTURK['source']}):\n"
        + _table(["environment", *NPI_MTURK["columns"]], body, markdown)
        + f"\noverall: {o['acceptable_rated_acceptable']} % of the acceptable sentences rated "
        f"acceptable, {o['unacceptable_rated_unacceptable']} % of the unacceptable ones rated "
        f"unacceptable; agreement {o['agreement']} %"
    )
