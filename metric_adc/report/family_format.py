"""What ``report`` prints for the family's benchmarks, ``summary`` and ``table-2.2``: plain text
or GitHub markdown from one description of each table.

Each printer builds a list of blocks — a paragraph, or a titled table — once, and renders it
either way, so the text and the markdown never disagree. Tables go through
:mod:`li_adger.io.text_table`; numbers through :func:`li_adger.io.text_table.fmt` (``—`` where a
statistic is undefined). Nothing here computes a statistic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from li_adger.benchmarks import BENCHMARKS, benchmark
from li_adger.io.text_table import fmt, markdown_table, text_table
from metric_adc.report.parts import Subset
from metric_adc.report.shape import Report
from metric_adc.report.summary import SUMMARY_DELTA, SummaryRow
from metric_adc.result_rows import BenchmarkRow
from metric_adc.thesis.outputs import display_name
from metric_adc.thesis.table_2_2 import TABLE_2_2_NOTE, Table22Row

__all__ = [
    "DISPLAY_NAMES",
    "format_benchmark_report",
    "format_notes",
    "format_summary",
    "format_table_2_2",
]

DISPLAY_NAMES: dict[str, str] = {
    "li_adger": "LI-Adger",
    "blimp": "BLiMP",
    "npi": "NPI",
    "npi_cloze": "NPI cloze",
    "diagnostics": "Diagnostics",
    "cola": "CoLA",
}
"""How tables name a benchmark (a benchmark not listed is shown under its name)."""

_STATISTICS = {"blimp": "BLiMP criterion", "sensitivity": "sensitivity", "mcc": "MCC"}

Block = tuple[str | None, Sequence[str] | None, Sequence[Sequence[str]] | None]
"""``(paragraph, header, rows)``: a paragraph (lines), a table, or a paragraph over a table."""


def _render(blocks: Sequence[Block], *, markdown: bool) -> str:
    out = []
    for text, header, body in blocks:
        parts = [] if text is None else [text]
        if header is not None:
            table = markdown_table if markdown else text_table
            parts.append(table(header, body))
        out.append(("\n\n" if markdown else "\n").join(parts))
    return "\n\n".join(out)


def _display(name: str) -> str:
    return DISPLAY_NAMES.get(name, name)


def _interval(ci: Mapping | None) -> str:
    return "" if ci is None else f"[{fmt(ci['low'])}, {fmt(ci['high'])}]"


def format_notes(notes: Iterable[tuple[str, str | None]]) -> str | None:
    """Rows' notes, given as ``(model, note)``, as a list: one item per note naming its rows
    (``None`` without notes).

    Examples
    --------
    >>> print(format_notes([("a", "n"), ("b", "n"), ("c", None)]))
    - a, b: n
    """
    by_note: dict[str, list[str]] = {}
    for model, note in notes:
        if note:
            by_note.setdefault(note, []).append(display_name(str(model)))
    return "\n".join(f"- {', '.join(who)}: {note}" for note, who in by_note.items()) or None


# ----------------------------------------------------------------------------- report
def _subset_lines(subset: Subset | None) -> list[str]:
    """The header's line for a report on some groups only (none for the whole benchmark).

    Examples
    --------
    >>> print(*_subset_lines(Subset("UID", "paradigm", ("a", "b"), 67)))
    Subset: 2 of the 67 paradigms (UID): a, b. Every number below is over these paradigms only (the reference rows too).
    """
    if subset is None:
        return []
    word, groups = subset.word, subset.groups
    return [
        f"Subset: {len(groups)} of the {subset.of} {word}s ({subset.column}): "
        f"{', '.join(groups)}. Every number below is over these {word}s only (the reference "
        "rows too)."
    ]


def _head(report: Report) -> list[Block]:
    spec = benchmark(report.benchmark)
    model, refs = report.rows[0], report.rows[1:]
    a = report.analysis
    units = "—" if model.n_units is None else f"{model.n_units:,}"
    lines = [
        f"{_display(spec.name)} ({spec.name}): {spec.title}; {spec.citation.short}.",
        *_subset_lines(report.subset),
        f"{model.model}: {units} units scored, convention {model.convention or '—'}.",
        f"Headline: {spec.headline.description}. 95% bootstrap intervals: {a.n_resamples} "
        f"resamples of {a.resampled}, seed {report.seed}.",
    ]
    table = [[model.model, fmt(model.headline), str(model.n_items), _interval(a.headline)]]
    table += [[r.model, fmt(r.headline), str(r.n_items), ""] for r in refs]
    header = ["model", _STATISTICS[spec.headline.statistic], "n", "95% interval"]
    return [("\n".join(lines), None, None), (None, header, table)]


def _pairs_blocks(report: Report) -> list[Block]:
    spec = benchmark(report.benchmark)
    model, refs = report.rows[0], report.rows[1:]
    groups = report.analysis.pairs
    blocks: list[Block] = []
    for column in spec.groups:
        levels = model.pairs["groups"][column]
        body = [
            [
                level,
                str(stats["n_pairs"]),
                fmt(stats["blimp"]),
                _interval(groups[column][level]),
                *(fmt(r.pairs["groups"][column].get(level, {}).get("blimp")) for r in refs),
            ]
            for level, stats in levels.items()
        ]
        header = [column, "pairs", model.model, "95% interval", *(r.model for r in refs)]
        blocks.append((f"BLiMP criterion by {column}:", header, body))
    return blocks


_CLOZE_COLUMNS = ("acc. items", "acc@1", "acc@5", "sens. items", "sensitivity")


def _cloze_cells(stats: Mapping) -> list[str]:
    return [
        str(stats["n_accuracy_items"]),
        fmt(stats["accuracy@1"]),
        fmt(stats["accuracy@5"]),
        str(stats["n_sensitivity_items"]),
        fmt(stats["sensitivity"]),
    ]


def _cloze_blocks(report: Report) -> list[Block]:
    cloze = report.rows[0].cloze
    intervals = report.analysis.cloze
    sets = [
        [name, *_cloze_cells(s), _interval(intervals[name]["sensitivity"]),
         fmt(s["sensitivity_thresholded"])]
        for name, s in cloze["sets"].items()
    ]  # fmt: skip
    conditions = [
        [f"{name} / {cond}", *_cloze_cells(c), fmt(c["sensitivity_thresholded"])]
        for name, s in cloze["sets"].items()
        for cond, c in s["conditions"].items()
    ]
    above = f"sens. >{cloze['threshold']:g}"
    text = (
        f"Per set: accuracy at k (the expected completion among the top k predictions) and "
        f"sensitivity (the good completion more probable than the bad; '{above}': by more "
        f"than {cloze['threshold']:g} in probability)."
    )
    if not cloze["ranked"]:
        text += " Accuracy is — : the scores file has no 'rank' field."
    return [
        (text, ["set", *_CLOZE_COLUMNS, "95% interval", above], sets),
        ("Per condition:", ["set / condition", *_CLOZE_COLUMNS, above], conditions),
    ]


def _threshold_rule(labelled: Mapping) -> str:
    if labelled["threshold"] == "zero":
        return (
            "Threshold: zero — a classifier's signed score, acceptable iff > 0 "
            f"(kind {labelled['kind']!r})."
        )
    return (
        f"Threshold: fitted — by {labelled['n_folds']}-fold cross-validation on each set, the "
        f"threshold of highest MCC on the other folds (seed {labelled['seed']}; Warstadt, Singh "
        "& Bowman 2019, §4.2), since the scores have no natural threshold."
    )


def _labelled_blocks(report: Report) -> list[Block]:
    labelled = report.rows[0].labelled
    intervals = report.analysis.labelled
    body = [
        [name, str(s["n"]), fmt(s["mcc"]), _interval(intervals.splits[name]), fmt(s["accuracy"])]
        for name, s in labelled["splits"].items()
    ]
    body.append(
        ["all", str(labelled["n"]), fmt(labelled["mcc"]), _interval(intervals.mcc),
         fmt(labelled["accuracy"])]
    )  # fmt: skip
    header = ["split", "sentences", "MCC", "95% interval", "accuracy"]
    return [(_threshold_rule(labelled), header, body)]


def _table_2_2_blocks(rows: Sequence[BenchmarkRow], title: str) -> list[Block]:
    body = [
        [
            display_name(r.model),
            str(r.labelled["n"]),
            fmt(r.labelled["mcc"]),
            fmt(r.mcc_thesis_label if isinstance(r, Table22Row) else None),
            fmt(r.labelled["accuracy"]),
        ]
        for r in rows
    ]
    header = ["model", "sentences", "MCC (expert labels)", "MCC (thesis label)", "accuracy"]
    return [(title, header, body), (f"Table 2.2: {TABLE_2_2_NOTE}.", None, None)]


_T22_TITLES = {
    "table": (
        "The thesis's Table 2.2, recomputed from its outputs: its CoLA classifiers' MCC on "
        "LI-Adger (acceptable iff the signed confidence > 0), against two label columns:"
    ),
    "li_adger": (
        "MCC against LI-Adger's expert labels (acceptable iff score > 0), beside the thesis's "
        "CoLA classifiers (its Table 2.2):"
    ),
    "cola": (
        "For comparison, the thesis's CoLA classifiers on LI-Adger's expert labels (Table 2.2; "
        "their outputs on the CoLA development sets are not published):"
    ),
}


def format_table_2_2(
    rows: Sequence[BenchmarkRow], *, markdown: bool = False, context: str = "table"
) -> str:
    """The MCC rows of :func:`metric_adc.thesis.table_2_2.table_2_2_rows` (a CoLA classifier's own row
    first, in ``report``) with the note on the two label columns, titled for its ``context``:
    ``"table"`` (the ``table-2.2`` command), ``"li_adger"`` (under an LI-Adger report),
    ``"cola"`` (the comparison under a CoLA report).

    Examples
    --------
    >>> from metric_adc.result_rows import BENCHMARK_ROW_KEYS
    >>> row = BenchmarkRow(**{**dict.fromkeys(BENCHMARK_ROW_KEYS), "model": "toy",
    ...     "labelled": {"n": 4, "mcc": 0.5, "accuracy": 0.75}})
    >>> print("\\n".join(format_table_2_2([row], context="li_adger").splitlines()[1:3]))
    model  sentences  MCC (expert labels)  MCC (thesis label)  accuracy
    toy            4                0.500                   —     0.750
    """
    if context not in _T22_TITLES:
        raise ValueError(f"'context' must be one of {list(_T22_TITLES)} (got {context!r})")
    return _render(_table_2_2_blocks(rows, _T22_TITLES[context]), markdown=markdown)


def format_benchmark_report(report: Report, *, markdown: bool = False) -> str:
    """A benchmark's report (:func:`metric_adc.report.benchmark.benchmark_report`): the
    headline of the model and the reference rows with its bootstrap interval, then the
    breakdown of each section (pairs: each group column, the references beside the model;
    cloze: per set and per condition; labelled: per split, with the threshold rule), the
    reference rows' notes and, for CoLA, the thesis's classifiers on LI-Adger.

    Examples
    --------
    >>> ci = {"low": 0.4, "high": 0.8}
    >>> row = BenchmarkRow(model="toy", benchmark="npi", convention="slor", headline=0.6,
    ...     n_units=4, n_items=2, n_pairs=2, cloze=None, labelled=None, note=None,
    ...     pairs={"groups": {"environment": {"only": {"n_pairs": 2, "blimp": 0.6}},
    ...                       "contrast": {}, "paradigm": {}}})
    >>> from metric_adc.report.parts import OutcomeAnalysis
    >>> from metric_adc.report.shape import report_of
    >>> report = report_of("npi", [row], seed=0, n_resamples=9,
    ...                    analysis=OutcomeAnalysis(n_resamples=9, resampled="pairs",
    ...                        headline=ci, pairs={"environment": {"only": ci}}))
    >>> print(format_benchmark_report(report).splitlines()[5])
    toy                0.600  2  [0.400, 0.800]
    """
    blocks = _head(report)
    model = report.rows[0]
    if model.pairs is not None:
        blocks += _pairs_blocks(report)
    if model.cloze is not None:
        blocks += _cloze_blocks(report)
    if model.labelled is not None:
        blocks += _labelled_blocks(report)
    notes = format_notes((r.model, r.note) for r in report.rows[1:])
    if notes:
        blocks.append((notes, None, None))
    if report.table_2_2:
        blocks += _table_2_2_blocks(report.table_2_2, _T22_TITLES[report.benchmark])
    return _render(blocks, markdown=markdown)


# ----------------------------------------------------------------------------- summary
def _summary_header() -> list[str]:
    out = ["model"]
    for name, spec in BENCHMARKS.items():
        if spec.judged:
            out += [f"{_display(name)} BLiMP", f"{_display(name)} ADC δ={SUMMARY_DELTA:g}",
                    f"{_display(name)} MCC"]  # fmt: skip
        else:
            out.append(_display(name))
    return out


def _summary_legend() -> str:
    lines = []
    for name, spec in BENCHMARKS.items():
        if spec.judged:
            lines += [
                f"- {_display(name)} BLiMP: {spec.headline.description}",
                f"- {_display(name)} ADC δ={SUMMARY_DELTA:g}: the share of those pairs whose "
                "model delta has the sign of the human delta and lies within δ of it (z-scores)",
                f"- {_display(name)} MCC: a CoLA classifier against the expert labels, "
                "acceptable iff score > 0 (the thesis's Table 2.2)",
            ]
        elif spec.headline.statistic == "mcc":
            lines.append(
                f"- {_display(name)}: {spec.headline.description}; a CoLA classifier's signed "
                "score at threshold 0, any other score at a threshold fitted by 10-fold "
                "cross-validation on each set (Warstadt, Singh & Bowman 2019, §4.2)"
            )
        else:
            lines.append(f"- {_display(name)}: {spec.headline.description}")
    return "\n".join(lines)


def format_summary(rows: Sequence[SummaryRow], *, markdown: bool = False) -> str:
    """The summary table (:func:`metric_adc.report.summary.summarize_files`): one row per model and
    convention (then the reference rows), one column per benchmark's headline with LI-Adger's
    BLiMP criterion, ADC and MCC; then what each column is, and the rows' notes.

    Examples
    --------
    >>> row = SummaryRow(model="toy (slor)", convention="slor", reference=False,
    ...     headlines={"li_adger": 0.7, "blimp": 0.65}, adc=0.3, li_adger_mcc=None, files={},
    ...     note=None)
    >>> print(format_summary([row]).splitlines()[1])
    toy (slor)           0.700               0.300             —  0.650    —          —            —     —
    """
    body = []
    for r in rows:
        cells = [display_name(str(r.model))]
        for name, spec in BENCHMARKS.items():
            cells.append(fmt(r.headlines.get(name)))
            if spec.judged:
                cells += [fmt(r.adc), fmt(r.li_adger_mcc)]
        body.append(cells)
    blocks: list[Block] = [(None, _summary_header(), body), (_summary_legend(), None, None)]
    notes = format_notes((r.model, r.note) for r in rows)
    if notes:
        blocks.append((notes, None, None))
    return _render(blocks, markdown=markdown)
