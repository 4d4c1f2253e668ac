"""The LI-Adger tab of the app: the ADC with a live δ.

Its leaderboard (the human ceiling in a table of its own, apart from the ranking), the ADC(δ)
curves, each model's plots, the phenomena heatmap and the pair explorer, each wired to its
handler in :mod:`space.ui.handlers`.
"""

from __future__ import annotations

import gradio as gr

from space.data.space_data import SpaceData
from space.ui import handlers
from space.ui.explorer import ALL, DISAGREEMENTS, OUTCOMES
from space.ui.leaderboard import CEILING_SOURCE, adc_column
from space.ui.tables import board_table

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
        lines.append(f"Results file `{name}` was skipped: {reason}")
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
    names = [m.name for m in data.shared_models()]
    first = names[0] if names else None
    sources = [ALL, *sorted(data.frame["source"].unique().tolist())]
    heat_sources = sorted(sources[1:], key=lambda s: (s != CEILING_SOURCE, s)) or [ALL]
    delta = gr.Slider(
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
    with gr.Tabs():
        with gr.Tab("Leaderboard"):
            board = board_table(
                label=f"Models on the {len(data.pairs):,} LI-Adger pairs (click a header to sort)",
                elem_id="leaderboard",
            )
            gr.Markdown(_board_notes(data))
            gr.Markdown("### The human ceiling, apart: LI pairs only")
            ceiling_table = board_table(
                label="Human split-half ceiling, and every model on the same LI pairs",
                elem_id="ceiling",
            )
            gr.Markdown(_ceiling_notes(data), elem_id="ceiling-notes")
            curve_plot = gr.Plot(label="ADC(δ) curves", show_label=False, elem_id="curves")
        with gr.Tab("Model plots"):
            model = gr.Dropdown(choices=names, value=first, label="Model", elem_id="model")
            with gr.Row():
                pair_plot = gr.Plot(
                    label="Δlm vs Δh per pair, ±δ band", show_label=False, elem_id="pair-plot"
                )
                sentence_plot = gr.Plot(label="human vs model per sentence", show_label=False)
        with gr.Tab("Phenomena"):
            heat_source = gr.Radio(heat_sources, value=heat_sources[0], label="Source")
            heat_plot = gr.Plot(
                label="ADC(δ) per phenomenon",
                show_label=False,
                elem_id="heatmap",
                elem_classes=["scroll-plot"],
                format="png",
            )
        with gr.Tab("Pair explorer"):
            with gr.Row():
                source = gr.Dropdown(sources, value=ALL, label="Source")
                phenomenon = gr.Dropdown(
                    handlers.phenomena(data, ALL), value=ALL, label="Phenomenon"
                )
                outcome = gr.Radio(list(OUTCOMES), value=ALL, label="Model A at δ")
            with gr.Row():
                model_a = gr.Dropdown(choices=names, value=first, label="Model A")
                model_b = gr.Dropdown(
                    choices=[handlers.NONE, *names], value=handlers.NONE, label="Model B"
                )
                disagreement = gr.Radio(
                    list(DISAGREEMENTS), value=ALL, label="A vs B at δ (needs model B)"
                )
            pair_summary = gr.Markdown(elem_id="pair-summary")
            pair_table = gr.Dataframe(
                interactive=False,
                wrap=True,
                column_widths=PAIR_COLUMN_WIDTHS,
                pinned_columns=1,
                max_height=700,
                elem_id="pairs",
            )

    pair_inputs = [delta, source, phenomenon, model_a, outcome, model_b, disagreement, uploads]
    pair_triggers = [phenomenon.change, model_a.change, outcome.change, model_b.change]
    refresh = [demo.load, delta.change, uploads.change]
    # (triggers, handler, inputs, outputs, API name); the latest event of a burst wins
    events = [
        (refresh, handlers.leaderboard, [delta, uploads], board, "leaderboard"),
        (refresh, handlers.ceiling, [delta, uploads], ceiling_table, "ceiling"),
        (refresh, handlers.adc_curves, [delta, uploads], curve_plot, "adc_curves"),
        (
            [demo.load, delta.change, model.change],
            handlers.model_plots,
            [model, delta, uploads],
            [pair_plot, sentence_plot],
            "model_plots",
        ),
        (
            [*refresh, heat_source.change],
            handlers.heatmap,
            [delta, heat_source, uploads],
            heat_plot,
            "heatmap",
        ),
        (
            [demo.load, delta.change, *pair_triggers, disagreement.change],
            handlers.pairs,
            pair_inputs,
            [pair_summary, pair_table],
            "pairs",
        ),
    ]
    for triggers, handler, inputs, outputs, name in events:
        gr.on(
            triggers,
            handlers.bind(handler, data),
            inputs,
            outputs,
            api_name=name,
            trigger_mode="always_last",
        )
    delta.change(
        handlers.delta_note, delta, delta_note, api_visibility="private", trigger_mode="always_last"
    )
    pair_outputs = [pair_summary, pair_table]
    source.change(
        handlers.bind(handlers.phenomenon_choices, data),
        source,
        phenomenon,
        api_visibility="private",
    ).then(handlers.bind(handlers.pairs, data), pair_inputs, pair_outputs, api_visibility="private")
    gr.on(
        [demo.load, uploads.change],
        handlers.bind(handlers.model_choices, data),
        uploads,
        [model, model_a, model_b],
        api_visibility="private",
    )
    return delta
