"""The thesis's Chapter 2 in the app: the acrobatic sentences (Figure 2-3: the curve, and the
sentences with their flip counts) and the CoLA analysis set by feature (Figures 2-1/2-2),
from the shipped aggregates of :mod:`space.data.chapter2`. Self-contained: its handlers are
the functions below, each with an ``api_name``.
"""

from __future__ import annotations

import functools

import gradio as gr
import pandas as pd

from li_adger.sources import SourceNotFoundError
from metric_adc.chapter2.formatting import format_acrobatic
from metric_adc.chapter2.plots import acrobatic_figure, features_figure
from metric_adc.family.items import items_of
from space.data.chapter2 import read_chapter2
from space.data.dataset import pair_units
from space.data.space_data import SpaceData
from space.ui.standards import api_only, counted_table, table_outputs, tabs

__all__ = [
    "acrobatic_outputs",
    "acrobatic_view",
    "chapter2_tab",
    "features_outputs",
    "features_view",
]

_INTRO = """
**The thesis's Chapter 2.** One BERT-base-uncased initialisation fine-tuned on CoLA in 200
training orders changes its predicted label for 1,272 of LI-Adger's 4,178 sentences (the
*acrobatic* sentences), while its MCC on LI-Adger hardly moves. Runs of other classifiers
(`python -m baselines finetune`) appear here once shipped (`python -m space.data.chapter2 RUN…`).
Commands: `python -m metric_adc acrobatic`, `table-2.1`, `cola-features` (docs/chapter2.md).
"""

SENTENCE_COLUMNS = ["id", "flips", "acceptable", "phenomenon", "sentence"]


def acrobatic_view(data: SpaceData, report: dict | None):
    """The figure, the summary and the sentence table of one acrobatic report (the sentences
    most often flipped first); an empty view without one.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> acrobatic, _ = read_chapter2()
    >>> fig, text, table = acrobatic_view(toy_space_data(), next(iter(acrobatic.values())))
    >>> len(table), list(table.columns) == SENTENCE_COLUMNS, table["flips"].is_monotonic_decreasing
    (1272, True, True)
    """
    if report is None:
        return (
            None,
            "No study of training orders is shipped.",
            pd.DataFrame(columns=SENTENCE_COLUMNS),
        )
    # the app's pairs hold the sentences of its pairs; the 56 sentences in no evaluable pair
    # come from the package's build of the dataset
    # (read from the sources when they are here: an app started without them shows the
    # sentences of its pairs only)
    text: dict = {}
    phenomenon: dict = {}
    acceptable: dict = {}
    try:
        items = items_of("li_adger")
    except (SourceNotFoundError, OSError, ValueError):
        items = None
    if items is not None:
        text = dict(zip(items.units["id"], items.units["sentence"], strict=True))
        phenomenon = dict(zip(items.labels["id"], items.labels["phenomenon"], strict=True))
        acceptable = dict(zip(items.labels["id"], items.labels["label"].astype(bool), strict=True))
    units = pair_units(data.frame)
    text |= dict(zip(units["id"], units["sentence"], strict=True))
    acceptable |= data.acceptable
    rows = [
        [
            f["id"],
            f["flips"],
            acceptable.get(f["id"]),
            phenomenon.get(f["id"], "—"),
            text.get(f["id"], "—"),
        ]
        for f in sorted(report["flips"], key=lambda f: (-f["flips"], f["id"]))
    ]
    return (
        acrobatic_figure(report),
        f"```\n{format_acrobatic(report)}\n```",
        pd.DataFrame(rows, columns=SENTENCE_COLUMNS),
    )


def features_view(records: dict[str, dict], level: str):
    """The figure and the table of the shipped runs' MCC by feature of ``level``.

    Examples
    --------
    >>> fig, table = features_view({}, "major")
    >>> fig is None, table.empty
    (True, True)
    """
    rows = [row for r in records.values() for row in r["levels"][level]]
    if not rows:
        return None, pd.DataFrame(columns=["model", "feature", "sentences", "mean", "min", "max"])
    dashed = {name: r["dashed"] for name, r in records.items()}
    table = pd.DataFrame(
        [[r["model"], r["feature"], r["n_sentences"], r["mean"], r["min"], r["max"]] for r in rows],
        columns=["model", "feature", "sentences", "mean", "min", "max"],
    ).round(3)
    return features_figure(rows, level=level, dashed=dashed), table


ACROBATIC_TITLE = "Acrobatic sentences, most flips first"
FEATURES_TITLE = "MCC by feature of the CoLA analysis set"


def acrobatic_outputs(data: SpaceData, acrobatic: dict[str, dict], study: str | None) -> tuple:
    """The page's outputs of the acrobatic view of ``study``: the figure, the summary, the
    sentence table counting its rows and the CSV of all of them
    (:func:`space.ui.standards.table_outputs`).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> acrobatic, _ = read_chapter2()
    >>> out = acrobatic_outputs(toy_space_data(), acrobatic, next(iter(acrobatic)))
    >>> out[2]["label"], out[3]["label"]
    ('Acrobatic sentences, most flips first · 1,272 rows', 'Download all 1,272 rows (CSV)')
    """
    fig, text, table = acrobatic_view(data, acrobatic.get(study) if study else None)
    return fig, text, *table_outputs(table, ACROBATIC_TITLE, stem="chapter2-acrobatic")


def features_outputs(features: dict[str, dict], level: str) -> tuple:
    """The page's outputs of the CoLA-features view at ``level``: the figure, the table
    counting its rows and its CSV.

    Examples
    --------
    >>> features_outputs({}, "major")[1]["label"]
    'MCC by feature of the CoLA analysis set · 0 rows'
    """
    fig, table = features_view(features, level)
    return fig, *table_outputs(table, FEATURES_TITLE, stem=f"chapter2-features-{level}")


def chapter2_tab(data: SpaceData, demo: gr.Blocks) -> None:
    """Lay out the tab: an acrobatic view and a CoLA-features view, each table with its row
    count and CSV (filled when the page loads)."""
    acrobatic, features = read_chapter2()
    gr.Markdown(_INTRO)
    private = {"api_visibility": "private", "trigger_mode": "always_last"}
    with tabs():
        with gr.Tab("Acrobatic sentences (Figure 2-3)"):
            names = list(acrobatic)
            study = gr.Dropdown(
                names, value=names[0] if names else None, label="study of training orders"
            )
            plot = gr.Plot(show_label=False, elem_classes=["readable-plot"])
            summary = gr.Markdown()
            sentences, sentences_csv = counted_table(
                ACROBATIC_TITLE, "chapter2-acrobatic", pinned=False, max_height=420
            )
            shown = functools.partial(acrobatic_outputs, data, acrobatic)
            gr.on([demo.load, study.change], shown, study,
                  [plot, summary, sentences, sentences_csv], **private)  # fmt: skip
            api_only(lambda n: acrobatic_view(data, acrobatic.get(n)), [study],
                     [plot, summary, sentences], "chapter2_acrobatic")  # fmt: skip
        with gr.Tab("CoLA analysis set by feature (Figures 2-1, 2-2)"):
            if not features:
                gr.Markdown("No fine-tuning run with the analysis set is shipped yet.")
            level = gr.Radio(["major", "minor"], value="major", label="features")
            fplot = gr.Plot(show_label=False, elem_classes=["scroll-plot"])
            ftable, ftable_csv = counted_table(
                FEATURES_TITLE, "chapter2-features", pinned=False, max_height=420
            )
            gr.on([demo.load, level.change], functools.partial(features_outputs, features),
                  level, [fplot, ftable, ftable_csv], **private)  # fmt: skip
            api_only(lambda lv: features_view(features, lv), [level], [fplot, ftable],
                     "cola_features")  # fmt: skip
