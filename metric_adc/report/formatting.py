"""Everything ``python -m metric_adc`` prints for people about LI-Adger: result rows as
plain-text or markdown tables, the whole report of a LI-Adger scores file
(:func:`format_li_adger_report`) and of ``reproduce`` (:func:`format_reproduce_report`), their
notes, the fitted linking's folds, and the human ceiling.

Rows are :class:`~metric_adc.result_rows.AdcRow` (the human row a
:class:`~metric_adc.result_rows.CeilingRow`). Tables go through :mod:`li_adger.io.text_table`, the one table printer of the project; numbers
are printed with :func:`li_adger.io.text_table.fmt` (``—`` where a statistic is undefined).
Nothing here computes a statistic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from li_adger.io.text_table import fmt, markdown_table, text_table
from metric_adc.linking.fit import FORM
from metric_adc.report.family_format import format_notes, format_table_2_2
from metric_adc.report.parts import BaselineComparison, LinkingFits
from metric_adc.report.shape import Report
from metric_adc.result_rows import AdcRow, CeilingRow
from metric_adc.thesis.outputs import display_name

__all__ = [
    "format_ceiling",
    "format_comparison",
    "format_fits",
    "format_human_note",
    "format_intervals",
    "format_li_adger_report",
    "format_markdown",
    "format_report_notes",
    "format_reproduce_notes",
    "format_reproduce_report",
    "format_table",
]


def _signed(x: float | None) -> str:
    return "—" if x is None else f"{x:+.3f}"


def format_table(rows: Sequence[AdcRow]) -> str:
    """A plain-text table of result rows (BLiMP, ADC at each δ, pair and sentence Pearson).

    Examples
    --------
    >>> from metric_adc.result_rows import ROW_KEYS
    >>> row = AdcRow(**{**dict.fromkeys(ROW_KEYS), "model": "toy", "n_pairs": 2,
    ...     "n_excluded": 0, "blimp": 1.0, "adc": {"1.0": 0.5}, "adc_auc": 0.4,
    ...     "pearson_pairs": None, "pearson_sentences": 0.25})
    >>> print(format_table([row]))
    model  pairs  excl  BLiMP  ADC δ=1.0  ADC area  r pairs  r sentences
    toy        2     0  1.000      0.500     0.400        —        0.250
    """
    keys = list(rows[0].adc) if rows else []
    header = ["model", "pairs", "excl", "BLiMP", *[f"ADC δ={k}" for k in keys]]
    header += ["ADC area", "r pairs", "r sentences"]
    body = [
        [
            display_name(str(r.model)),
            str(r.n_pairs),
            str(r.n_excluded),
            fmt(r.blimp),
            *[fmt(r.adc.get(k)) for k in keys],
            fmt(r.adc_auc),
            fmt(r.pearson_pairs),
            fmt(r.pearson_sentences),
        ]
        for r in rows
    ]
    return text_table(header, body)


def format_markdown(rows: Sequence[AdcRow]) -> str:
    """A GitHub-markdown table of result rows, then each row's note as a list item.

    Columns: model, pairs, BLiMP, ADC at each δ of the first row, Pearson r at pair and at
    sentence level; values to 3 decimals (``—`` where undefined). Rows sharing a note share
    one list item.

    Examples
    --------
    >>> from metric_adc.result_rows import ROW_KEYS
    >>> row = AdcRow(**{**dict.fromkeys(ROW_KEYS), "model": "toy", "n_pairs": 2, "blimp": 1.0,
    ...     "adc": {"0.5": 0.5, "1.0": 0.75}, "pearson_sentences": 0.25, "note": "a toy"})
    >>> print(format_markdown([row]))
    | model | pairs | BLiMP | ADC δ=0.5 | ADC δ=1 | Pearson (pairs) | Pearson (sentences) |
    |---|---:|---:|---:|---:|---:|---:|
    | toy | 2 | 1.000 | 0.500 | 0.750 | — | 0.250 |
    <BLANKLINE>
    - toy: a toy
    """
    keys = list(rows[0].adc) if rows else []
    header = ["model", "pairs", "BLiMP", *[f"ADC δ={float(k):g}" for k in keys]]
    header += ["Pearson (pairs)", "Pearson (sentences)"]
    body = [
        [
            display_name(str(r.model)),
            str(r.n_pairs),
            fmt(r.blimp),
            *[fmt(r.adc.get(k)) for k in keys],
            fmt(r.pearson_pairs),
            fmt(r.pearson_sentences),
        ]
        for r in rows
    ]
    notes = format_notes((r.model, r.note) for r in rows)
    return "\n".join([markdown_table(header, body), *(["", notes] if notes else [])])


def format_intervals(ci: Mapping[str, Mapping], *, level: str, n_resamples: int, seed: int) -> str:
    """The bootstrap intervals of :func:`metric_adc.report.analysis.analyze_on_pairs` (one level).

    Examples
    --------
    >>> ci = {"blimp": {"estimate": 0.75, "low": 0.7, "high": None}}
    >>> print(format_intervals(ci, level="pairs", n_resamples=10, seed=0))
    95% bootstrap intervals (10 resamples of pairs, seed 0):
      blimp          0.750  [0.700, —]
    """
    lines = [f"95% bootstrap intervals ({n_resamples} resamples of {level}, seed {seed}):"]
    for key, c in ci.items():
        lines.append(f"  {key:<14} {fmt(c['estimate'])}  [{fmt(c['low'])}, {fmt(c['high'])}]")
    return "\n".join(lines)


def format_comparison(
    baseline: BaselineComparison, *, name: str, prestandardized: bool = False
) -> str:
    """The comparison with a baseline (``analyze_on_pairs(...).baseline``) at each δ.

    ``reduced`` (the model's score on the pairs the baseline fails) is ``—`` when the
    baseline passes every pair.

    Examples
    --------
    >>> c = {"difference": 0.1, "low": 0.05, "high": 0.15, "p_value": 0.002}
    >>> o = {"both": 0.6, "reduced": None, "n_reduced": 0}
    >>> from metric_adc.report.parts import BaselineComparison
    >>> print(format_comparison(BaselineComparison({"1.0": o}, {"1.0": c}), name="b.jsonl"))
    against the baseline b.jsonl:
      ADC δ=1.0: difference +0.100 [+0.050, +0.150], p = 0.0020; both pass 0.600; reduced — on 0 pairs
    """
    given = " (both files' scores taken as z-scores: --prestandardized)" if prestandardized else ""
    lines = [f"against the baseline {name}{given}:"]
    for k, c in baseline.comparison.items():
        o = baseline.overlap[k]
        lines.append(
            f"  ADC δ={k}: difference {_signed(c['difference'])} [{_signed(c['low'])}, "
            f"{_signed(c['high'])}], p = {fmt(c['p_value'], 4)}; both pass {fmt(o['both'])}; "
            f"reduced {fmt(o['reduced'])} on {o['n_reduced']} pairs"
        )
    return "\n".join(lines)


def format_human_note(human: CeilingRow) -> str:
    """The caption of the human split-half row (:func:`metric_adc.result_rows.ceiling_row`),
    printed under a table that shows the row. The note of the data's authors is printed once,
    to standard error, where the participant data is read
    (:func:`metric_adc.ceiling.inputs.load_inputs`); the caption names the data and the request.

    Examples
    --------
    >>> from metric_adc.result_rows import ROW_KEYS
    >>> print(format_human_note(CeilingRow(**{**dict.fromkeys(ROW_KEYS), "model": "humans",
    ...     "note": "LI only"}, authors_note="Ask first.", n_splits=5, seed=0)))
    humans (5 split-halves, seed 0): LI only
    """
    return f"{human.model} ({human.n_splits} split-halves, seed {human.seed}): {human.note}"


def format_report_notes(rows: Sequence[AdcRow]) -> str:
    """The lines under ``report``'s table: pairs excluded, the z-score population and, when
    the model's row on the LI pairs stands beside the human row, what that row is.

    Examples
    --------
    >>> from metric_adc.result_rows import ROW_KEYS
    >>> row = AdcRow(**{**dict.fromkeys(ROW_KEYS), "n_excluded": 0, "n_sentences": 6})
    >>> print(format_report_notes([row]))
    0 pair(s) excluded for a missing human judgement; z-scores over 6 sentences.
    """
    row = rows[0]
    lines = [
        f"{row.n_excluded} pair(s) excluded for a missing human judgement; "
        f"z-scores over {row.n_sentences} sentences."
    ]
    if len(rows) > 2:
        lines.append(
            f"{rows[1].model}: the model on the {rows[1].n_pairs} LI pairs, the pairs "
            f"of the human row ({rows[1].note})."
        )
    return "\n".join(lines)


def format_reproduce_notes(models: Sequence[AdcRow]) -> str:
    """The lines under ``reproduce``'s table: the pairs excluded and each model row's note.

    Examples
    --------
    >>> from metric_adc.result_rows import ROW_KEYS
    >>> rows = [AdcRow(**{**dict.fromkeys(ROW_KEYS), "model": m, "n_excluded": 2, "note": n})
    ...         for m, n in [("a", None), ("b", "as given")]]
    >>> print(format_reproduce_notes(rows))
    Pairs: the thesis's pair file; 2 pair(s) lack a human judgement and are excluded.
    b: as given.
    """
    excl = sorted({r.n_excluded for r in models})
    lines = [
        f"Pairs: the thesis's pair file; {', '.join(map(str, excl))} pair(s) lack a human "
        "judgement and are excluded."
    ]
    for note in sorted({r.note for r in models if r.note}):
        who = ", ".join(display_name(r.model) for r in models if r.note == note)
        lines.append(f"{who}: {note}.")
    return "\n".join(lines)


def _interval(iv: Mapping, lo: str = "lo", hi: str = "hi", digits: int = 3) -> str:
    return f"[{fmt(iv[lo], digits)}, {fmt(iv[hi], digits)}]"


def format_ceiling(result: Mapping) -> str:
    """The human ceiling (:func:`metric_adc.ceiling.compute.compute_ceiling`) as plain text.

    Examples
    --------
    >>> iv = {"mean": 0.5, "lo": 0.4, "hi": 0.6, "mean_lo": 0.49, "mean_hi": 0.51}
    >>> res = {"label": "humans", "n_pairs": 2, "n_sentences": 4, "n_participants": 6,
    ...        "n_splits": 3, "stats": {"blimp": iv}, "delta_for": {}, "note": "n",
    ...        "authors_note": "a"}
    >>> print("\\n".join(format_ceiling(res).splitlines()[2:4]))
    statistic   mean  splits 2.5–97.5%  95% CI of mean
    blimp      0.500    [0.400, 0.600]  [0.490, 0.510]
    """
    lines = [
        f"{result['label']}: {result['n_pairs']} LI pairs, {result['n_sentences']} sentences, "
        f"{result['n_participants']} participants, {result['n_splits']} split-halves",
        "",
        text_table(
            ["statistic", "mean", "splits 2.5–97.5%", "95% CI of mean"],
            [
                [name, fmt(iv["mean"]), _interval(iv), _interval(iv, "mean_lo", "mean_hi")]
                for name, iv in result["stats"].items()
            ],
        ),
    ]
    if result["delta_for"]:
        lines += ["", "δ at which half B passes a share of pairs against half A:"]
        for share, iv in result["delta_for"].items():
            lines.append(
                f"  {float(share):.0%}: δ = {fmt(iv['of_mean_curve'], 2)} on the mean curve; "
                f"per split median {fmt(iv['median'], 2)} {_interval(iv, digits=2)} "
                f"(— = never), reached in {iv['reached_in']:.0%} of splits"
            )
    if result.get("delta_for_of_sign"):
        lines.append("δ at which ADC reaches a share of its limit ADC(∞) (the sign agreement):")
        for share, iv in result["delta_for_of_sign"].items():
            lines.append(
                f"  {float(share):.0%} of ADC(∞): δ per split median {fmt(iv['median'], 2)} "
                f"{_interval(iv, digits=2)}"
            )
    tasks = result.get("tasks")
    if tasks:
        names = [display_name(m) for m in next(iter(tasks["tasks"].values()))["models"]]
        body = [
            [
                task,
                str(t["n_pairs"]),
                fmt(t["reliability"]["mean"]),
                *(f"{fmt(m['pearson'])} / {fmt(m['disattenuated'])}" for m in t["models"].values()),
            ]
            for task, t in tasks["tasks"].items()
        ]
        lines += [
            "",
            "Tasks (LI pairs): split-half reliability (Spearman-Brown) and Pearson r of the "
            "thesis's model deltas with each task's pair measure (raw / disattenuated):",
            text_table(["task", "pairs", "reliab.", *names], body),
            "between tasks (Pearson): "
            + ", ".join(f"{k} {fmt(v)}" for k, v in tasks["between_tasks"].items()),
        ]
    lines += ["", result["note"]]  # the authors' note: once, on standard error (load_inputs)
    if "runtime_s" in result:
        lines.append(f"runtime {result['runtime_s']:.1f} s")
    return "\n".join(lines)


def format_fits(linking: LinkingFits) -> str:
    """The fitted coefficients per fold, as printed under ``report --linking``'s table.

    Examples
    --------
    >>> import numpy as np
    >>> from metric_adc.linking.fit import CrossFit, FoldFit, MorcelaFit
    >>> fold = FoldFit(0, ("p",) * 47, 3300, 876, MorcelaFit(0.4, -0.42, 6.3, -1.1))
    >>> fit = CrossFit(np.zeros(0), np.zeros(0), (fold,), k=5, seed=0)
    >>> print(format_fits(LinkingFits({"fitted": fit})))
    fitted: (logP - beta * logPu + gamma) / n, least squares, 5 folds of phenomena, seed 0
      fold 0: 47 phenomena, fitted on 3300 sentences, scores 876: beta 1.050, gamma 15.750 (alpha 0.4000, intercept -1.1000)
    """
    lines = []
    for name, fit in linking.fits.items():
        lines.append(f"{name}: {FORM}, least squares, {fit.k} folds of phenomena, seed {fit.seed}")
        lines += [
            f"  fold {f.fold}: {len(f.phenomena)} phenomena, fitted on {f.n_train} "
            f"sentences, scores {f.n_test}: beta {f.fit.beta:.3f}, gamma {f.fit.gamma:.3f} "
            f"(alpha {f.fit.alpha:.4f}, intercept {f.fit.intercept:.4f})"
            for f in fit.folds
        ]
    return "\n".join(lines)


def _human(rows: Sequence[AdcRow]) -> CeilingRow | None:
    """The human split-half row of a report's rows."""
    return next((r for r in rows if isinstance(r, CeilingRow)), None)


def format_li_adger_report(report: Report, *, markdown: bool = False) -> str:
    """A LI-Adger report (:func:`metric_adc.report.li_adger.li_adger_report`) as ``report``
    prints it: the table of rows, the notes, the bootstrap intervals (of phenomena where the
    pairs have them, with the report's seed and resamples), the comparison with the report's
    baseline file, the human row's note, and a CoLA classifier's MCC beside the thesis's
    Table 2.2; with ``markdown``, the rows and the MCC table only. A report of linking rows
    prints the rows and the fitted linking's folds.

    Examples
    --------
    >>> from metric_adc.result_rows import ROW_KEYS
    >>> row = AdcRow(**{**dict.fromkeys(ROW_KEYS), "model": "toy", "n_pairs": 2,
    ...     "n_excluded": 0, "n_sentences": 4, "blimp": 1.0, "adc": {"1.0": 0.5},
    ...     "adc_auc": 0.4, "pearson_sentences": 0.25})
    >>> ci = {"blimp": {"estimate": 1.0, "low": 1.0, "high": 1.0}}
    >>> from metric_adc.report.parts import PairAnalysis, PairIntervals
    >>> from metric_adc.report.shape import report_of
    >>> analysis = PairAnalysis({}, None, PairIntervals(ci, None), None)
    >>> report = report_of("li_adger", [row], analysis=analysis, seed=0, n_resamples=10)
    >>> print(format_li_adger_report(report).splitlines()[3:6])
    ['0 pair(s) excluded for a missing human judgement; z-scores over 4 sentences.', '', '95% bootstrap intervals (10 resamples of pairs, seed 0):']
    """
    rows = report.rows
    if report.linking is not None:
        if markdown:
            return format_markdown(rows)
        blocks = (format_table(rows), format_fits(report.linking))
        return "\n\n".join(b for b in blocks if b)
    mcc = []
    if report.table_2_2:
        mcc = [format_table_2_2(report.table_2_2, markdown=markdown, context="li_adger")]
    if markdown:
        return "\n\n".join([format_markdown(rows), *mcc])
    ci = report.analysis.ci
    level, shown = ("phenomena", ci.phenomena) if ci.phenomena else ("pairs", ci.pairs)
    blocks = [
        format_table(rows),
        format_report_notes(rows),
        format_intervals(shown, level=level, n_resamples=report.n_resamples, seed=report.seed),
    ]
    baseline = report.analysis.baseline
    if baseline is not None:
        blocks.append(
            format_comparison(
                baseline,
                name=str(report.baseline),
                prestandardized=report.prestandardized,
            )
        )
    human = _human(rows)
    if human is not None:
        blocks.append(format_human_note(human))
    return "\n\n".join([*blocks, *mcc])


def format_reproduce_report(report: Report, *, markdown: bool = False) -> str:
    """``reproduce``'s report (:func:`metric_adc.report.li_adger.reproduce_report`): the table
    of rows, the notes on the thesis's pairs and models and the human row's note (with
    ``markdown``: the rows and their notes, the README's results table).

    Examples
    --------
    >>> from metric_adc.result_rows import ROW_KEYS
    >>> row = AdcRow(**{**dict.fromkeys(ROW_KEYS), "model": "m", "n_pairs": 2365,
    ...     "n_excluded": 2, "blimp": 0.75, "adc": {}})
    >>> from metric_adc.report.shape import report_of
    >>> print(format_reproduce_report(report_of("li_adger", [row])).splitlines()[-1])
    Pairs: the thesis's pair file; 2 pair(s) lack a human judgement and are excluded.
    """
    rows = report.rows
    if markdown:
        return format_markdown(rows)
    human = _human(rows)
    models = [r for r in rows if r is not human]
    blocks = [format_table(rows), format_reproduce_notes(models)]
    if human is not None:
        blocks.append(format_human_note(human))
    return "\n\n".join(blocks)
