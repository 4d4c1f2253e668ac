"""The LI-Adger tab of the app: the ADC with a live δ.

Its leaderboard (the human ceiling in a table of its own, apart from the ranking), the ADC(δ)
curves, each model's plots, the phenomena heatmap and the pair explorer. A settled δ, an
upload or an opened sub-tab computes the open sub-tab's views in one request
(:func:`space.ui.li_views.refresh`); the API's endpoints (``/leaderboard``, ``/pairs`` …) are
the handlers of :mod:`space.ui.handlers`, one each.
"""

from __future__ import annotations

import gradio as gr

from space.data.space_data import SpaceData
from space.ui import handlers, li_views
from space.ui.explorer import ALL, DISAGREEMENTS, OUTCOMES
from space.ui.leaderboard import CEILING_SOURCE, adc_column
from space.ui.li_views import BOARD, EXPLORER, PHENOMENA, PLOTS
from space.ui.standards import api_only, counted_table, settled_slider, tabs, without_paths

__all__ = ["DEFAULT_DELTA", "PAIR_COLUMN_WIDTHS", "li_adger_tab"]

DEFAULT_DELTA = 0.5
PAIR_COLUMN_WIDTHS = ["auto"] * 6 + ["280px", "280px"]
"""The pair explorer's sentence columns (7th and 8th) wrap between words; the other columns fit
their content, so that no number is ever cut."""


def _board_notes(data: SpaceData) -> str:
    lines = [
        f"**{adc_column(DEFAULT_DELTA).split()[0]}** is the share of pairs passing at the chosen "
        "δ; its 95% interval is a bootstrap that resamples phenomena (pairs of one phenomenon "
        "are not independent), 1,000 resamples with a fixed seed. **Human-sign** is ADC with "
        "δ → ∞; **ADC area** the normalised area under ADC(δ) for δ ≤ 5. Pairs without a human "
        "judgement are left out of every number. Rows of **your uploads** are highlighted.",
    ]
    by_note: dict[str, list[str]] = {}
    for m in data.models:
        if m.note:
            by_note.setdefault(m.note, []).append(m.name)
    for note, names in by_note.items():
        lines.append(f"*{', '.join(names)}*: {note}.")
    lines += data.notes
    for name, reason in data.skipped:
        lines.append(f"Results file `{name}` was skipped: {without_paths(reason)}")
    return "\n\n".join(lines)


def _ceiling_notes(data: SpaceData) -> str:
    if data.ceiling is None:
        return "The human ceiling is not available here."
    c = data.ceiling.row
    return (
        f"**The human ceiling is not a model and is not ranked above**: it covers the "
        f"{c['n_pairs']:,} LI pairs only, not the {len(data.pairs):,} pairs of the leaderboard. "
        "Below it, every model on those same LI pairs. "
        f"{data.ceiling.note} The numbers are the mean over {c['n_splits']} random split-halves "
        f"(seed {c['seed']}), as in the README."
    )


def li_adger_tab(data: SpaceData, uploads: gr.State, demo: gr.Blocks) -> gr.Slider:
    """The LI-Adger tab; returns its δ slider (the upload's summary uses it)."""
    names = li_views.ranked_names(data, DEFAULT_DELTA)
    first = names[0] if names else None
    sources = [ALL, *sorted(data.frame["source"].unique().tolist())]
    heat_sources = sorted(sources[1:], key=lambda s: (s != CEILING_SOURCE, s)) or [ALL]
    delta = settled_slider(
        0.0,
        5.0,
        value=DEFAULT_DELTA,
        step=0.05,
        label="δ (z-score units)",
        info="0.5 and 1 are the thesis's strict thresholds; 5 comes close to the BLiMP "
        "criterion with humans as the ground truth",
        elem_id="delta",
    )
    delta_note = gr.Markdown(elem_id="delta-note")
    open_view = gr.State(BOARD)
    sub_tabs = {}
    with tabs():
        with gr.Tab(BOARD) as sub_tabs[BOARD]:
            board, board_csv = counted_table(
                li_views.board_title(data), "leaderboard", datatype=li_views.BOARD_DATATYPES
            )
            gr.Markdown(_board_notes(data))
            gr.Markdown("### The human ceiling, apart: LI pairs only")
            ceiling_table, ceiling_csv = counted_table(li_views.CEILING_TITLE, "ceiling")
            gr.Markdown(_ceiling_notes(data), elem_id="ceiling-notes")
            curve_plot = gr.Plot(
                label="ADC(δ) curves", show_label=False, elem_id="curves",
                elem_classes=["readable-plot"],
            )  # fmt: skip
        with gr.Tab(PLOTS) as sub_tabs[PLOTS]:
            model = gr.Dropdown(
                choices=names, value=first, label="Model", elem_id="model", min_width=300,
            )  # fmt: skip
            with gr.Row():
                pair_plot = gr.Plot(
                    label="Δlm vs Δh per pair, ±δ band", show_label=False, elem_id="pair-plot",
                    elem_classes=["readable-plot"], min_width=320,
                )  # fmt: skip
                sentence_plot = gr.Plot(
                    label="human vs model per sentence", show_label=False,
                    elem_classes=["readable-plot"], min_width=320,
                )  # fmt: skip
        with gr.Tab(PHENOMENA) as sub_tabs[PHENOMENA]:
            heat_source = gr.Radio(heat_sources, value=heat_sources[0], label="Source")
            heat_plot = gr.HTML(elem_id="heatmap")  # names fixed as it scrolls (a phone)
            heat_figure = gr.Plot(visible=False, format="png")  # the API's /heatmap
        with gr.Tab(EXPLORER) as sub_tabs[EXPLORER]:
            with gr.Row():
                source = gr.Dropdown(sources, value=ALL, label="Source")
                phenomenon = gr.Dropdown(
                    handlers.phenomena(data, ALL), value=ALL, label="Phenomenon"
                )
                outcome = gr.Radio(list(OUTCOMES), value=ALL, label="Model A at δ")
            with gr.Row():
                model_a = gr.Dropdown(choices=names, value=first, label="Model A", min_width=300)
                model_b = gr.Dropdown(
                    choices=[handlers.NONE, *names], value=handlers.NONE, label="Model B",
                    min_width=300,
                )  # fmt: skip
                disagreement = gr.Radio(
                    list(DISAGREEMENTS), value=ALL, label="A vs B at δ (needs model B)"
                )
            with gr.Row():
                search = gr.Textbox(
                    label="Sentence contains (Enter to search)", elem_id="pair-search", scale=3
                )
                page = gr.Number(
                    value=1, precision=0, minimum=1, label="Page", elem_id="pair-page", scale=1
                )
                previous = gr.Button("◀ Previous page", size="sm", elem_id="pair-previous")
                following = gr.Button("Next page ▶", size="sm", elem_id="pair-next")
            pair_summary = gr.Markdown(elem_id="pair-summary")
            pair_table, pairs_csv = counted_table(
                "Pairs", "pairs", pinned=False, column_widths=PAIR_COLUMN_WIDTHS,
                pinned_columns=1, max_height=700,
            )  # fmt: skip

    filters = [source, phenomenon, model_a, outcome, model_b, disagreement]
    explorer_in = [delta, *filters, search, page, uploads]
    explorer_out = [pair_summary, pair_table, pairs_csv, page]
    views_in = [open_view, delta, heat_source, model, *filters, search, page, uploads]
    views_out = [delta_note, board, board_csv, ceiling_table, ceiling_csv, curve_plot]
    views_out += [pair_plot, sentence_plot, heat_plot, *explorer_out]
    private = {"api_visibility": "private", "trigger_mode": "always_last"}
    gr.on(
        [demo.load, delta.release, uploads.change],
        handlers.bind(li_views.refresh, data),
        views_in,
        views_out,
        **private,
    )
    for view, tab in sub_tabs.items():
        tab.select(_opened(data, view), views_in[1:], [open_view, *views_out], **private)
    model.change(
        handlers.bind(li_views.plots_view, data), [model, delta, uploads],
        [pair_plot, sentence_plot], **private,
    )  # fmt: skip
    heat_source.change(
        handlers.bind(li_views.heat_view, data), [delta, heat_source, uploads], heat_plot,
        **private,
    )  # fmt: skip
    explorer = handlers.bind(li_views.explorer_view, data)
    gr.on(
        [f.change for f in filters] + [search.submit],
        _paged(explorer, None), explorer_in, explorer_out, **private,
    )  # fmt: skip
    page.submit(explorer, explorer_in, explorer_out, **private)
    for button, step in ((previous, -1), (following, 1)):
        button.click(_paged(explorer, step), explorer_in, explorer_out, **private)
    source.change(
        handlers.bind(handlers.phenomenon_choices, data), source, phenomenon,
        api_visibility="private",
    )  # fmt: skip
    gr.on(
        [demo.load, uploads.change],
        handlers.bind(handlers.model_choices, data),
        uploads,
        [model, model_a, model_b],
        api_visibility="private",
    )
    _api(data, [delta, heat_source, model, *filters, uploads], [board, ceiling_table,
         curve_plot, pair_plot, sentence_plot, heat_figure, pair_summary, pair_table])  # fmt: skip
    return delta


def _opened(data: SpaceData, view: str):
    """The handler of sub-tab ``view`` opened: it becomes the open one, its views computed."""

    def opened(*values):
        return (view, *li_views.refresh(data, view, *values))

    return opened


def _paged(explorer, step: int | None):
    """The explorer's handler on the page ``step`` pages away from the page box's (on the
    first page when ``None``: the filters changed)."""

    def paged(*values):
        *rest, page, uploads = values
        return explorer(*rest, 1 if step is None else (page or 1) + step, uploads)

    return paged


def _api(data: SpaceData, inputs: list, outputs: list) -> None:
    """The API's endpoints, one handler each (:func:`space.ui.standards.api_only`: the page
    never triggers them)."""
    delta, heat_source, model, source, phenomenon, model_a, outcome, model_b, disagreement = inputs[
        :9
    ]
    uploads = inputs[9]
    board, ceiling_table, curves, pair_plot, sentence_plot, heat, summary, pairs = outputs
    explorer = [delta, source, phenomenon, model_a, outcome, model_b, disagreement, uploads]
    for handler, ins, outs, name in (
        (handlers.leaderboard, [delta, uploads], board, "leaderboard"),
        (handlers.ceiling, [delta, uploads], ceiling_table, "ceiling"),
        (handlers.adc_curves, [delta, uploads], curves, "adc_curves"),
        (handlers.model_plots, [model, delta, uploads], [pair_plot, sentence_plot],
         "model_plots"),
        (handlers.heatmap, [delta, heat_source, uploads], heat, "heatmap"),
        (handlers.pairs, explorer, [summary, pairs], "pairs"),
    ):  # fmt: skip
        api_only(handlers.bind(handler, data), ins, outs, name)
