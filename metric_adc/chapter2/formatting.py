"""The Chapter 2 reports as text (the ``--json`` output is the report itself)."""

from __future__ import annotations

from collections.abc import Mapping

from li_adger.io.text_table import fmt, text_table

__all__ = ["format_acrobatic", "format_disagreements", "format_matrix"]

CURVE_POINTS = (1, 2, 5, 10, 20, 50, 100, 200)
PHENOMENA_SHOWN = 10


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _spread(s: Mapping) -> str:
    return f"{fmt(s['mean'])} (sd {fmt(s['sd'])}) [{fmt(s['min'])}, {fmt(s['max'])}]"


def format_acrobatic(report: Mapping) -> str:
    """The ``acrobatic`` report as text.

    Examples
    --------
    >>> r = {"name": "toy", "n_sentences": 4, "n_orders": 2, "n_acrobatic": 1,
    ...      "share_acrobatic": 0.25, "curve": {"acrobatic": [0.0, 0.25]},
    ...      "mcc_expert": {"mean": 0.5, "sd": 0.0, "min": 0.5, "max": 0.5},
    ...      "mcc_thesis_label": {"mean": 0.4, "sd": 0.0, "min": 0.4, "max": 0.4},
    ...      "majority_baseline": {"accuracy_expert": 0.5, "accuracy_thesis_label": 0.75},
    ...      "criteria": None, "by_phenomenon": [], "jaccard_with_thesis": 0.1}
    >>> print(format_acrobatic(r))  # doctest: +ELLIPSIS
    Acrobatic sentences: toy, 2 training orders of one initialisation
    acrobatic (label not constant over the orders): 1 of 4 (25.0 %); unathletic 3 (75.0 %)
    ...
    """
    n, a = report["n_sentences"], report["n_acrobatic"]
    curve = report["curve"]["acrobatic"]
    points = [k for k in CURVE_POINTS if k <= len(curve)]
    if len(curve) not in points:
        points.append(len(curve))
    base = report["majority_baseline"]
    lines = [
        f"Acrobatic sentences: {report['name']}, {report['n_orders']} training orders of one "
        "initialisation",
        f"acrobatic (label not constant over the orders): {a:,} of {n:,} "
        f"({_pct(report['share_acrobatic'])}); unathletic {n - a:,} "
        f"({_pct(1 - report['share_acrobatic'])})",
        "acrobatic share after k orders (Figure 2-3): "
        + ", ".join(f"k={k} {_pct(curve[k - 1])}" for k in points),
        f"MCC on LI-Adger per order, mean (sd) [min, max]: expert labels {_spread(report['mcc_expert'])}; "
        f"the thesis's label column {_spread(report['mcc_thesis_label'])}",
        f"majority-class baseline: accuracy {_pct(base['accuracy_expert'])} (expert labels), "
        f"{_pct(base['accuracy_thesis_label'])} (the thesis's label column); MCC 0",
    ]
    if "thesis_num_flips_is_cyclic" in report:
        lines.append(
            "the file's num_flips = flips counted cyclically (last order back to the first): "
            f"{'yes' if report['thesis_num_flips_is_cyclic'] else 'NO'}"
        )
    if report.get("jaccard_with_thesis") is not None:
        lines.append(
            f"Jaccard overlap with the thesis's 1,272: {fmt(report['jaccard_with_thesis'])}"
        )
    if "large_cased" in report:
        lc = report["large_cased"]
        lines.append(
            f"BERT-large-cased's acrobatic file: {lc['n_acrobatic']:,} sentences "
            f"({_pct(lc['share'])}); Jaccard with this set {fmt(lc['jaccard_with_this'])}"
        )
    if report["criteria"] is None:
        lines.append(
            "spread of BLiMP and ADC over orders: not computed (labels only, no probabilities)"
        )
    else:
        for key, c in report["criteria"].items():
            lines.append(
                f"{key} over orders (signed confidence), mean (sd) [min, max]: {_spread(c)}"
            )
    shown = report["by_phenomenon"][:PHENOMENA_SHOWN]
    if shown:
        lines += [
            "",
            f"acrobatic share per phenomenon (top {len(shown)} of {len(report['by_phenomenon'])}):",
        ]
        lines.append(text_table(
            ["phenomenon", "sentences", "acrobatic", "share"],
            [[r["phenomenon"], str(r["n_sentences"]), str(r["n_acrobatic"]), _pct(r["share"])] for r in shown],
        ))  # fmt: skip
    return "\n".join(lines)


def format_disagreements(
    report: Mapping, *, show: int, sentences: Mapping[str, str] | None = None
) -> str:
    """The ``disagreements`` report as text: per selection, its count and its first ``show``
    pairs (0: all) as the thesis prints them: the pair, ``Δh`` and each model's ``Δlm``
    (``sentences``: id → text, to list the sentences under the table).

    Examples
    --------
    >>> r = {"tables": [{"title": "toy", "selection": "a: pass BLiMP, fail ADC δ=5",
    ...      "caption": "", "n_pairs": 1, "n_evaluable": 2,
    ...      "rows": [{"good_id": "g1", "bad_id": "b1", "human_delta": -0.5,
    ...                "model_delta": {"a": 0.25}}]}]}
    >>> print(format_disagreements(r, show=10))
    toy — a: pass BLiMP, fail ADC δ=5: 1 of 2 pairs
    pair (acceptable / unacceptable)      Δh  Δlm a
    g1 / b1                           -0.500  0.250
    """
    blocks = []
    for table in report["tables"]:
        head = f"{table['title']} — {table['selection']}: {table['n_pairs']:,} of {table['n_evaluable']:,} pairs"
        if table["caption"]:
            head += f"\n  ({table['caption']})"
        rows = table["rows"] if show == 0 else table["rows"][:show]
        names = list(rows[0]["model_delta"]) if rows else []
        body = []
        for r in rows:
            pair = f"{r['good_id']} / {r['bad_id']}"
            body.append([pair, fmt(r["human_delta"]), *(fmt(r["model_delta"][n]) for n in names)])
        lines = [head]
        if body:
            lines.append(
                text_table(
                    ["pair (acceptable / unacceptable)", "Δh", *(f"Δlm {n}" for n in names)], body
                )
            )
        if sentences is not None:
            ids = [i for r in rows for i in (r["good_id"], r["bad_id"])]
            lines += [f"  {i}: {sentences.get(i, '?')}" for i in dict.fromkeys(ids)]
        if len(rows) < len(table["rows"]):
            lines.append(f"… {len(table['rows']) - len(rows):,} more (--show 0 lists all)")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def format_matrix(report: Mapping) -> str:
    """The ``matrix`` report as text: one table per level, rows and columns numbered.

    Examples
    --------
    >>> r = {"levels": {"pairs": {"names": ["human", "m"], "matrix": [[1.0, 0.5], [0.5, 1.0]],
    ...      "n": [[3, 3], [3, 3]]}}}
    >>> print(format_matrix(r))
    Pearson's r on pairs (Δh, Δlm)
               (1)    (2)
    (1) human  1.000  0.500
    (2) m      0.500  1.000
    """
    titles = {"sentences": "sentences (judgement, z-score)", "pairs": "pairs (Δh, Δlm)"}
    blocks = []
    for level, m in report["levels"].items():
        names = m["names"]
        header = ["", *(f"({k + 1})" for k in range(len(names)))]
        rows = [
            [f"({k + 1}) {n}", *(fmt(v) for v in row)]
            for k, (n, row) in enumerate(zip(names, m["matrix"], strict=True))
        ]
        blocks.append(f"Pearson's r on {titles[level]}\n" + text_table(header, rows))
    return "\n\n".join(blocks)
