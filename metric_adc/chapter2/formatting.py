"""The Chapter 2 reports as text (the ``--json`` output is the report itself)."""

from __future__ import annotations

from collections.abc import Mapping

from li_adger.io.text_table import fmt, text_table
from metric_adc.chapter2.disagreements import Selection
from metric_adc.thesis.outputs import display_name

__all__ = [
    "format_acrobatic",
    "format_disagreements",
    "format_features",
    "format_matrix",
    "format_table_2_1",
]

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
    >>> r = {"name": "toy", "n_sentences": 4, "n_orders": 2, "n_acrobatic": 1, "n_degenerate_orders": 0,
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
    if report["n_degenerate_orders"]:
        lines.append(
            f"degenerate: {report['n_degenerate_orders']} of {report['n_orders']} orders predict "
            "one class for every sentence (MCC 0)"
        )
    training = report.get("training")
    if training and training["train_seconds"] is not None:
        lines.append(
            f"training: {training['restarts']} orders, {training['train_seconds'] / 60:.1f} min in all "
            f"({training['train_seconds'] / training['restarts']:.0f} s each) on {', '.join(training['machines']) or '?'}"
        )
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
    (``sentences``: id → text, to list the sentences under the table). Models go by their
    :func:`~metric_adc.thesis.outputs.display_name` (the report keeps their ids).

    Examples
    --------
    >>> r = {"tables": [{"title": "toy", "passes": ["trigram-slor"], "pass_criterion": "blimp",
    ...      "fails": ["trigram-slor"], "fail_criterion": "adc", "delta": 5.0,
    ...      "caption": "", "n_pairs": 1, "n_evaluable": 2,
    ...      "rows": [{"good_id": "g1", "bad_id": "b1", "human_delta": -0.5,
    ...                "model_delta": {"trigram-slor": 0.25}}]}]}
    >>> print(format_disagreements(r, show=10))
    toy — BNC trigram (SLOR): pass BLiMP, fail ADC δ=5: 1 of 2 pairs
    pair (acceptable / unacceptable)      Δh  Δlm BNC trigram (SLOR)
    g1 / b1                           -0.500                   0.250
    """
    blocks = []
    for table in report["tables"]:
        shown = Selection(
            tuple(map(display_name, table["passes"])), table["pass_criterion"],
            tuple(map(display_name, table["fails"])), table["fail_criterion"], table["delta"],
        )  # fmt: skip
        head = f"{table['title']} — {shown.describe()}: {table['n_pairs']:,} of {table['n_evaluable']:,} pairs"
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
                    [
                        "pair (acceptable / unacceptable)",
                        "Δh",
                        *(f"Δlm {display_name(n)}" for n in names),
                    ],
                    body,
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
    """The ``matrix`` report as text: one table per level, rows and columns numbered, models
    by their :func:`~metric_adc.thesis.outputs.display_name`.

    Examples
    --------
    >>> r = {"levels": {"pairs": {"names": ["human", "trigram-slor"],
    ...      "matrix": [[1.0, 0.5], [0.5, 1.0]], "n": [[3, 3], [3, 3]]}}}
    >>> print(format_matrix(r))
    Pearson's r on pairs (Δh, Δlm)
                                (1)    (2)
    (1) human                 1.000  0.500
    (2) BNC trigram (SLOR)    0.500  1.000
    """
    titles = {"sentences": "sentences (judgement, z-score)", "pairs": "pairs (Δh, Δlm)"}
    blocks = []
    for level, m in report["levels"].items():
        names = m["names"]
        header = ["", *(f"({k + 1})" for k in range(len(names)))]
        rows = [
            [f"({k + 1}) {display_name(n)}", *(fmt(v) for v in row)]
            for k, (n, row) in enumerate(zip(names, m["matrix"], strict=True))
        ]
        blocks.append(f"Pearson's r on {titles[level]}\n" + text_table(header, rows))
    return "\n\n".join(blocks)


def _mean_sd(s: Mapping) -> str:
    return f"{fmt(s['mean'])} ({fmt(s['sd'])})"


def format_table_2_1(report: Mapping) -> str:
    """The ``table-2.1`` report as text: the runs' rows, the thesis's reference rows, and the
    CoLA column of Table 2.2 from the same restarts.

    Examples
    --------
    >>> s = {"mean": 0.5, "sd": 0.01, "max": 0.52, "ensemble": 0.51}
    >>> r = {"rows": [{"model": "m", "restart_kind": "restarts", "n_restarts": 3,
    ...      "thesis_cola_test": s, "cola_out_of_domain_dev": s,
    ...      "table_2_2": {"seed": 1, "cola_test": 0.52, "li_adger_expert": 0.4}}],
    ...      "references": [], "table_2_2_references": []}
    >>> print(format_table_2_1(r).splitlines()[2])
    m      restarts         3  0.500 (0.010)  0.520     0.510  0.500 (0.010)  0.520     0.510
    """
    head = [
        "model",
        "kind",
        "restarts",
        "test mean (sd)",
        "max",
        "ensemble",
        "OOD dev mean (sd)",
        "max",
        "ensemble",
    ]
    rows = []
    for r in report["rows"]:
        t, d = r["thesis_cola_test"], r["cola_out_of_domain_dev"]
        rows.append([r["model"], r["restart_kind"], str(r["n_restarts"]), _mean_sd(t), fmt(t["max"]),
                     fmt(t["ensemble"]), _mean_sd(d), fmt(d["max"]), fmt(d["ensemble"])])  # fmt: skip
    lines = ["Table 2.1: MCC over restarts on the thesis's CoLA test set and CoLA's out-of-domain dev set",
             text_table(head, rows)]  # fmt: skip
    lines += [
        f"{r['model']}: {r['thesis_cola_test']['n_degenerate']} of {r['n_restarts']} restarts predict one "
        "class for every sentence of the CoLA test set (MCC 0: degenerate, as W&B 2019 call them)"
        for r in report["rows"]
        if r["thesis_cola_test"].get("n_degenerate")
    ]
    if report["references"]:
        ref = [[r["model"], fmt(r["mean"]) + (f" ({fmt(r['sd'])})" if r["sd"] is not None else " (n/a)"),
                fmt(r["max"]), fmt(r["ensemble"]), r["authors"]] for r in report["references"]]  # fmt: skip
        lines += ["", "reference rows (the thesis's Table 2.1, CoLA test set):",
                  text_table(["model", "mean (sd)", "max", "ensemble", "authors"], ref)]  # fmt: skip
    best = [[r["model"], str(r["table_2_2"]["seed"]), fmt(r["table_2_2"]["cola_test"]),
             fmt(r["table_2_2"].get("li_adger_expert")), fmt(r["table_2_2"].get("li_adger_thesis_label"))]
            for r in report["rows"]]  # fmt: skip
    best += [[f"{r['model']} (thesis)", "", fmt(r["cola_test"]), "", fmt(r["li_adger"])]
             for r in report["table_2_2_references"]]  # fmt: skip
    lines += ["", "Table 2.2, the restart of highest MCC on the CoLA test set:",
              text_table(["model", "seed", "CoLA test", "LI-Adger (expert)", "LI-Adger (thesis label)"], best)]  # fmt: skip
    return "\n".join(lines)


NO_THESIS_FEATURE_ROWS = (
    "no thesis rows: the thesis gives Figures 2-1 and 2-2 only as figures, with no printed MCCs"
)


def format_features(report: Mapping) -> str:
    """The ``cola-features`` report as text: per level, one row per feature, one column per
    model (mean over restarts [min, max]), and the dashed line; then one line saying the thesis
    has no rows to set beside them (its Figures 2-1 and 2-2 print no numbers).

    Examples
    --------
    >>> r = {"dashed": {"m": 0.5}, "levels": {"major": [{"model": "m", "feature": "Simple",
    ...      "n_sentences": 3, "mean": 0.2, "min": 0.1, "max": 0.3}]}}
    >>> print(format_features(r))
    MCC on the CoLA analysis set by major feature (mean over restarts [min, max])
    feature   sentences                    m
    Simple            3  0.200 [0.100, 0.300]
    mean MCC on the thesis's CoLA test set (the dashed line): m 0.500
    <BLANKLINE>
    no thesis rows: the thesis gives Figures 2-1 and 2-2 only as figures, with no printed MCCs
    """
    blocks = []
    for level, rows in report["levels"].items():
        models = list(dict.fromkeys(r["model"] for r in rows))
        by = {(r["model"], r["feature"]): r for r in rows}
        features = list(dict.fromkeys(r["feature"] for r in rows))
        body = []
        for f in features:
            cells = []
            for m in models:
                c = by[(m, f)]
                cells.append(
                    "—"
                    if c["mean"] is None
                    else f"{fmt(c['mean'])} [{fmt(c['min'])}, {fmt(c['max'])}]"
                )
            body.append([f, str(by[(models[0], f)]["n_sentences"]), *cells])
        table = text_table(["feature", "sentences", *models], body)
        line = "mean MCC on the thesis's CoLA test set (the dashed line): " + ", ".join(
            f"{m} {fmt(report['dashed'].get(m))}" for m in models
        )
        blocks.append(
            f"MCC on the CoLA analysis set by {level} feature (mean over restarts [min, max])\n{table}\n{line}"
        )
    blocks.append(NO_THESIS_FEATURE_ROWS)
    return "\n\n".join(blocks)
