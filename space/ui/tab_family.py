"""A tab of the app for one benchmark of the family (BLiMP, NPI, diagnostics, CoLA).

Its leaderboard (the human row apart from the ranking), its breakdowns (a table and a
heatmap), and for Ettinger's diagnostics each model's top predictions for one item, each
wired to its handler in :mod:`space.ui.handlers`.
"""

from __future__ import annotations

import gradio as gr

from space.data.benchmark_data import TITLES, BenchmarkData
from space.data.perturbed import perturbed_frames, read_perturbed
from space.data.shipped import SHIPPED_DIR
from space.data.space_data import SpaceData
from space.ui import family_handlers, handlers
from space.ui.benchmark_views import BREAKDOWNS, LEADERBOARD, prediction_choices
from space.ui.standards import (
    SORT_HINT,
    api_only,
    counted_table,
    table_outputs,
    tabs,
    with_csv,
    without_paths,
)
from space.ui.tab_npi_methods import npi_methods_tab

__all__ = ["family_tab"]


_COLA_POOLED = (
    "**Why the MCC of both dev sets can sit below each set's own**: MCC is a correlation "
    "computed from one confusion matrix, not an average of the sets' values. Pooled, the two "
    "sets' sentences share one matrix, and when a model's share of sentences called "
    "acceptable differs from one set to the other in a way the true labels do not, that "
    "difference counts as error in the pooled correlation (as in Simpson's paradox)."
)


def _perturbations_view(demo: gr.Blocks) -> None:
    """Ettinger's Tables 4, 7 and 8 over every shipped model, each a counted table with its
    CSV (accuracy in %, Shuf's sd over its shuffles), filled when the page loads."""
    reports = read_perturbed(SHIPPED_DIR)
    if not reports:
        gr.Markdown("No perturbation results are shipped.")
        return
    settings = "; ".join(
        f"{r['model']}: {', '.join(r['perturbation']['perturbation'])}, "
        f"{r['perturbation']['shuffles']} shuffles (seed {r['perturbation']['perturbation_seed']})"
        for r in reports
    )
    gr.Markdown(
        "Accuracy (%) of each model's top-k prediction on Ettinger's (2020) perturbed items; "
        f"her BERT-base and BERT-large cells follow the models. Runs: {settings}. "
        f"Tables: {SORT_HINT}.",
        elem_id="diagnostics-perturbations",
    )
    frames = perturbed_frames(reports)
    outputs = []
    for i, (title, source, _) in enumerate(frames):
        gr.Markdown(f"*{source}*")
        outputs += counted_table(title, f"diagnostics-perturbations-{i}")

    def fill():
        return tuple(x for title, _, df in frames for x in table_outputs(df, title))

    demo.load(fill, None, outputs, api_visibility="private")


def _family_intro(view: BenchmarkData) -> str:
    spec = view.spec
    lines = [
        f"**{spec.title}** — {spec.citation.short}; licence: {spec.license}.",
        f"**Headline**: {spec.headline.description}.",
    ]
    if view.human is not None:
        lines.append(
            f"**{view.human.name}** (below the ranking, not in it): {view.human.note or ''}"
        )
    lines += view.notes
    if view.spec.name == "cola":
        lines.append(_COLA_POOLED)
    lines += [f"Results file `{n}` was skipped: {without_paths(why)}" for n, why in view.skipped]
    return "\n\n".join(lines)


def family_tab(data: SpaceData, bench: str, uploads: gr.State, demo: gr.Blocks) -> None:
    view = data.benchmarks[bench]
    breakdowns = [b.label for b in BREAKDOWNS[bench]]
    gr.Markdown(_family_intro(view))
    with tabs():
        with gr.Tab("Leaderboard"):
            headline, label = LEADERBOARD[bench]
            board_title = f"Models on {TITLES[bench]}: {headline}, and {label} ({SORT_HINT})"
            board, board_csv = counted_table(
                board_title,
                f"{bench}-leaderboard",
                datatype=family_handlers.board_datatypes_of(data, bench),
            )
            if view.human is not None:
                human_title = f"{view.human.name.capitalize()}, apart from the ranking"
                human, human_csv = counted_table(human_title, f"{bench}-human")
                gr.on(
                    [demo.load],
                    with_csv(
                        handlers.bind(family_handlers.family_human, data, bench), [human_title]
                    ),
                    None,
                    [human, human_csv],
                    api_visibility="private",
                )
        with gr.Tab("Breakdown"):
            with gr.Row():
                label_box = gr.Dropdown(
                    breakdowns,
                    value=breakdowns[0],
                    label="Breakdown",
                    elem_id=f"{bench}-breakdown-choice",
                )
                stats = BREAKDOWNS[bench][0].statistics
                stat_box = gr.Dropdown(
                    family_handlers.statistic_labels(stats), value=stats[0], label="Statistic"
                )
            breakdown_title = f"{TITLES[bench]} breakdown ({SORT_HINT})"
            table, table_csv = counted_table(
                breakdown_title, f"{bench}-breakdown", pinned=False, pinned_columns=1,
                max_height=600,
            )  # fmt: skip
            plot = gr.Plot(
                show_label=False,
                elem_id=f"{bench}-breakdown-plot",
                elem_classes=["scroll-plot"],
                format="png",
            )
        if bench == "diagnostics":
            with gr.Tab("Predictions"):
                choices = prediction_choices(view)
                unit = gr.Dropdown(
                    choices,
                    value=choices[0] if choices else None,
                    label="Expected completion (set.item.word)",
                )
                unit_text = gr.Markdown()
                unit_table, unit_csv = counted_table(
                    "Each model's predictions", f"{bench}-predictions", pinned=False
                )
                predicted = handlers.bind(family_handlers.predictions, data, bench)
                gr.on(
                    [demo.load, unit.change, uploads.change],
                    with_csv(predicted, [None, "Each model's predictions"]),
                    [unit, uploads],
                    [unit_text, unit_table, unit_csv],
                    api_visibility="private",
                    trigger_mode="always_last",
                )
                api_only(
                    predicted, [unit, uploads], [unit_text, unit_table], f"{bench}_predictions"
                )
            with gr.Tab("Perturbations"):
                _perturbations_view(demo)
        if bench == "npi":
            with gr.Tab("The paper's methods (Figs. 1, 2, 4)"):
                npi_methods_tab(demo)
    ranking = handlers.bind(family_handlers.family_leaderboard, data, bench)
    gr.on(
        [demo.load, uploads.change],
        handlers.bind(family_handlers.family_board_outputs, data, bench, board_title),
        uploads,
        [board, board_csv],
        api_visibility="private",
        trigger_mode="always_last",
    )
    api_only(ranking, [uploads], [board], f"{bench}_leaderboard")
    label_box.change(
        handlers.bind(family_handlers.statistic_choices, bench),
        label_box,
        stat_box,
        api_visibility="private",
    )
    breakdown = handlers.bind(family_handlers.family_breakdown, data, bench)
    gr.on(
        [demo.load, label_box.change, stat_box.change, uploads.change],
        with_csv(breakdown, [breakdown_title, None]),
        [label_box, stat_box, uploads],
        [table, table_csv, plot],
        api_visibility="private",
        trigger_mode="always_last",
    )
    api_only(breakdown, [label_box, stat_box, uploads], [table, plot], f"{bench}_breakdown")
