"""The Gradio app: leaderboard, live δ, plots, pair explorer and evaluate-your-own-scores.

:func:`build_app` lays out the page and wires its events to the functions of
:mod:`space.leaderboard`, :mod:`space.views`, :mod:`space.explorer` and :mod:`space.upload`.
Shared data (:class:`space.data.SpaceData`) is loaded once per process and never changed;
uploads live in each browser session's own ``gr.State``, so what one user uploads is seen by
that user only and cannot break the page for anybody else.

Run it with ``python -m space`` (see :mod:`space.__main__`); as a Hugging Face Space this
file is the ``app_file`` and is run as a script.

Every event handler has an ``api_name``, so the app is also an API
(``gradio_client.Client("http://127.0.0.1:7860/").predict(0.5, api_name="/leaderboard")``).
"""

from __future__ import annotations

from collections.abc import Sequence

import gradio as gr
import numpy as np
import pandas as pd

from metric_adc import core
from space import views
from space.data import ModelEntry, SpaceData
from space.explorer import ALL, DISAGREEMENTS, OUTCOMES, explore_pairs
from space.leaderboard import adc_column, leaderboard_frame
from space.upload import MAX_UPLOAD_BYTES, UploadError, evaluate_upload

__all__ = ["CSS", "DEFAULT_DELTA", "build_app", "main", "styled", "theme", "upload_summary"]

DEFAULT_DELTA = 0.5
NONE = "(none)"
UPLOAD_TTL_S = 3600
"""Seconds a session's uploads are kept after their last change."""
PAIR_COLUMN_WIDTHS = [
    *["4%", "4%", "8%", "15%", "15%"],
    *["6.5%"] * 6 + ["4%", "6.5%", "4%"],
]
"""Widths of the pair explorer's 14 columns: room for the sentences, numbers kept narrow."""

CSS = """
#upload-status {min-height: 2em}
#pairs td, #pairs th {font-size: 0.85em}
"""

_INTRO = """
# The Acceptability Delta Criterion on LI-Adger

A language model passes a minimal pair under the **BLiMP criterion** when it scores the
acceptable sentence higher. The **ADC** also asks for the *size* of the difference: with model
scores z-scored over all 4,178 sentences, a pair passes ADC(δ) when the model delta
Δlm = z(acceptable) − z(unacceptable) has the sign of the human delta Δh and
|Δh − Δlm| < δ. Move **δ** to see how strict the criterion is; every table and plot follows.
"""

_UPLOAD_HELP = f"""
Upload the scores of your own model on the LI-Adger sentences: a **scores file** as
`python -m baselines` writes it (JSON Lines: a metadata line
`{{"format": "adc-scores", "version": 1, "model": ...}}`, then one `{{"id": ..., "score": ...}}`
per sentence), or a **CSV with the header `id,score`**. Every sentence of the 2,365 pairs needs
a score; higher means more acceptable. At most {MAX_UPLOAD_BYTES // (1024 * 1024)} MiB.
Your upload is evaluated at once and joins the leaderboard, the plots and the pair explorer
**in your browser session only**.
"""


def theme() -> gr.themes.Base:
    """The default Gradio theme with system fonts: the page fetches nothing from other hosts.

    Examples
    --------
    >>> isinstance(theme(), gr.themes.Base)
    True
    """
    return gr.themes.Default(
        font=["ui-sans-serif", "system-ui", "sans-serif"],
        font_mono=["ui-monospace", "Consolas", "monospace"],
    )


def styled(df: pd.DataFrame):
    """``df`` for display: numbers with 3 decimals, missing values as a dash.

    Examples
    --------
    >>> styled(pd.DataFrame({"x": [0.5, None]})).to_string().splitlines()[1:]
    ['0 0.500', '1 —']
    """
    return df.style.format(precision=3, na_rep="—")


def _names(data: SpaceData, uploads: Sequence[ModelEntry]) -> list[str]:
    return [m.name for m in [*data.models, *uploads]]


def _entry(data: SpaceData, uploads: Sequence[ModelEntry], name: str | None) -> ModelEntry | None:
    """The model called ``name``, else the first one, else ``None`` (no model loaded)."""
    models = data.by_name(uploads)
    return models.get(name) or next(iter(models.values()), None)


def _phenomena(data: SpaceData, source: str) -> list[str]:
    f = data.frame
    sel = f if source == ALL else f[f["source"] == source]
    return [ALL, *sorted(sel["phenomenon"].dropna().unique().tolist())]


def upload_summary(entry: ModelEntry, human_delta: np.ndarray, delta: float) -> str:
    """The status line after a successful upload: the model's main numbers.

    Examples
    --------
    >>> from space.data import toy_space_data
    >>> d = toy_space_data()
    >>> print(upload_summary(d.models[0], d.pairs.human_delta, 0.5))
    **Scored `toy-length`**: 6 sentences, 3 pairs. BLiMP 0.667 · ADC at δ = 0.5: 0.667
    (δ = 0.5 / 1 / 5: 0.667 / 0.667 / 0.667) · Pearson (pairs) -0.918. It now appears in the
    leaderboard, the plots and the pair explorer of this session only.
    """
    r = entry.row
    adc = core.adc(entry.model_delta, human_delta, delta)
    keys = " / ".join(f"{float(k):g}" for k in r["adc"])
    fixed = " / ".join("—" if v is None else f"{v:.3f}" for v in r["adc"].values())
    pearson = "—" if r["pearson_pairs"] is None else f"{r['pearson_pairs']:.3f}"
    excluded = (
        f" ({r['n_excluded']} more without a human judgement left out)" if r["n_excluded"] else ""
    )
    return (
        f"**Scored `{entry.name}`**: {r['n_sentences']:,} sentences, {r['n_pairs']:,} pairs"
        f"{excluded}. BLiMP {r['blimp']:.3f} · ADC at δ = {delta:g}: {adc:.3f}\n"
        f"(δ = {keys}: {fixed}) · Pearson (pairs) {pearson}. It now appears in the\n"
        "leaderboard, the plots and the pair explorer of this session only."
    )


def build_app(data: SpaceData) -> gr.Blocks:
    """Lay out the page for ``data`` and wire every control to its handler.

    Examples
    --------
    >>> from space.data import toy_space_data
    >>> demo = build_app(toy_space_data())
    >>> sorted(d["api_name"] for d in demo.config["dependencies"] if d["api_name"])[:3]
    ['adc_curves', 'evaluate_upload', 'heatmap']
    """
    h = data.pairs.human_delta
    names = _names(data, [])
    first = names[0] if names else None
    sources = [ALL, *sorted(data.frame["source"].unique().tolist())]
    heat_sources = sorted(sources[1:], key=lambda s: (s != "LI", s)) or [ALL]

    # ------------------------------------------------------------------ handlers
    def leaderboard(delta: float, uploads: list[ModelEntry]):
        return styled(leaderboard_frame(data, uploads, delta))

    def curves(delta: float, uploads: list[ModelEntry]):
        return views.adc_curves_figure(data, [*data.models, *uploads], delta)

    def model_plots(name: str, delta: float, uploads: list[ModelEntry]):
        e = _entry(data, uploads, name)
        if e is None:
            return None, None
        return views.pair_figure(data, e, delta), views.sentence_figure(data, e)

    def heatmap(delta: float, source: str, uploads: list[ModelEntry]):
        entries = [*data.models, *uploads]
        if not entries:
            return None
        return views.heatmap_figure(data, entries, delta, None if source == ALL else source)

    def pairs(
        delta: float,
        source: str,
        phenomenon: str,
        model_a: str,
        outcome: str,
        model_b: str,
        disagreement: str,
        uploads: list[ModelEntry],
    ):
        a = _entry(data, uploads, model_a)
        if a is None:
            return "No model is loaded yet: upload scores in *Evaluate your scores*.", None
        b = None if model_b in (None, NONE) else _entry(data, uploads, model_b)
        if phenomenon not in _phenomena(data, source):
            phenomenon = ALL
        text, df = explore_pairs(
            data,
            delta,
            a,
            b,
            source=source,
            phenomenon=phenomenon,
            outcome=outcome,
            disagreement=disagreement if b is not None else ALL,
        )
        return text, styled(df)

    def phenomenon_choices(source: str):
        return gr.Dropdown(choices=_phenomena(data, source), value=ALL)

    def upload(path, name: str, delta: float, uploads: list[ModelEntry]):
        try:
            entry = evaluate_upload(path, data, uploads, name=name)
        except UploadError as exc:
            return f"⚠️ **Refused:** {exc}", uploads
        return upload_summary(entry, h, delta), [*uploads, entry]

    def model_choices(uploads: list[ModelEntry]):
        choices = _names(data, uploads)
        return (
            gr.Dropdown(choices=choices),
            gr.Dropdown(choices=choices),
            gr.Dropdown(choices=[NONE, *choices]),
        )

    # ------------------------------------------------------------------ layout
    with gr.Blocks(title="ADC on LI-Adger", analytics_enabled=False) as demo:
        # each session's uploads; dropped an hour after they were last changed
        uploads = gr.State([], time_to_live=UPLOAD_TTL_S)
        gr.Markdown(_INTRO)
        delta = gr.Slider(
            0.05,
            5.0,
            value=DEFAULT_DELTA,
            step=0.05,
            label="δ (z-score units)",
            info="0.5 and 1 are the thesis's strict thresholds; 5 comes close to the BLiMP "
            "criterion with humans as the ground truth",
            elem_id="delta",
        )
        with gr.Tabs():
            with gr.Tab("Leaderboard"):
                board = gr.Dataframe(
                    value=styled(leaderboard_frame(data, [], DEFAULT_DELTA)),
                    interactive=False,
                    wrap=True,
                    label=f"Models on the {len(data.pairs):,} LI-Adger pairs "
                    "(click a header to sort)",
                    elem_id="leaderboard",
                )
                gr.Markdown(_board_notes(data))
                curve_plot = gr.Plot(
                    value=views.adc_curves_figure(data, data.models, DEFAULT_DELTA),
                    label="ADC(δ) curves",
                    show_label=False,
                    elem_id="curves",
                )
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
                    label="ADC(δ) per phenomenon", show_label=False, elem_id="heatmap"
                )
            with gr.Tab("Pair explorer"):
                with gr.Row():
                    source = gr.Dropdown(sources, value=ALL, label="Source")
                    phenomenon = gr.Dropdown(_phenomena(data, ALL), value=ALL, label="Phenomenon")
                    outcome = gr.Radio(list(OUTCOMES), value=ALL, label="Model A at δ")
                with gr.Row():
                    model_a = gr.Dropdown(choices=names, value=first, label="Model A")
                    model_b = gr.Dropdown(choices=[NONE, *names], value=NONE, label="Model B")
                    disagreement = gr.Radio(
                        list(DISAGREEMENTS), value=ALL, label="A vs B at δ (needs model B)"
                    )
                pair_summary = gr.Markdown(elem_id="pair-summary")
                pair_table = gr.Dataframe(
                    interactive=False,
                    wrap=True,
                    column_widths=PAIR_COLUMN_WIDTHS,
                    max_height=700,
                    elem_id="pairs",
                )
            with gr.Tab("Evaluate your scores"):
                gr.Markdown(_UPLOAD_HELP)
                with gr.Row():
                    upload_file = gr.File(
                        label="Scores file (.jsonl or .csv)",
                        file_types=[".jsonl", ".csv", ".json", ".txt"],
                        elem_id="upload",
                    )
                    upload_name = gr.Textbox(
                        label="Model name (optional)", placeholder="from the file's metadata"
                    )
                upload_status = gr.Markdown(elem_id="upload-status")

        # -------------------------------------------------------------- events
        pair_inputs = [delta, source, phenomenon, model_a, outcome, model_b, disagreement, uploads]
        pair_triggers = [phenomenon.change, model_a.change, outcome.change, model_b.change]
        # (triggers, function, inputs, outputs, API name); the latest event of a burst wins
        events = [
            ([delta.change, uploads.change], leaderboard, [delta, uploads], board, "leaderboard"),
            ([delta.change, uploads.change], curves, [delta, uploads], curve_plot, "adc_curves"),
            (
                [demo.load, delta.change, model.change],
                model_plots,
                [model, delta, uploads],
                [pair_plot, sentence_plot],
                "model_plots",
            ),
            (
                [demo.load, delta.change, heat_source.change, uploads.change],
                heatmap,
                [delta, heat_source, uploads],
                heat_plot,
                "heatmap",
            ),
            (
                [demo.load, delta.change, *pair_triggers, disagreement.change],
                pairs,
                pair_inputs,
                [pair_summary, pair_table],
                "pairs",
            ),
        ]
        for triggers, function, inputs, outputs, name in events:
            gr.on(triggers, function, inputs, outputs, api_name=name, trigger_mode="always_last")
        source.change(phenomenon_choices, source, phenomenon, api_visibility="private").then(
            pairs, pair_inputs, [pair_summary, pair_table], api_visibility="private"
        )
        upload_file.upload(
            upload,
            [upload_file, upload_name, delta, uploads],
            [upload_status, uploads],
            api_name="evaluate_upload",
        )
        uploads.change(model_choices, uploads, [model, model_a, model_b], api_visibility="private")
    return demo


def _board_notes(data: SpaceData) -> str:
    lines = [
        f"**{adc_column(DEFAULT_DELTA).split()[0]}** is the share of pairs passing at the chosen "
        "δ; its 95% interval is a bootstrap that resamples phenomena (pairs of one phenomenon "
        "are not independent), 1,000 resamples with a fixed seed. **Human-sign** is ADC with "
        "δ → ∞; **ADC area** the normalised area under ADC(δ) for δ ≤ 5. Pairs without a human "
        "judgement are left out of every number.",
    ]
    by_note: dict[str, list[str]] = {}
    for m in data.models:
        if m.note:
            by_note.setdefault(m.note, []).append(m.name)
    for note, names in by_note.items():
        lines.append(f"*{', '.join(names)}*: {note}.")
    if data.ceiling is not None:
        lines.append(f"**{data.ceiling.row['model']}**: {data.ceiling.note}")
    if not data.models:
        lines.append(
            "No reference models are loaded (the thesis outputs were not found and the results "
            "directory holds no scores files): upload your own scores below."
        )
    for name, reason in data.skipped:
        lines.append(f"Results file `{name}` was skipped: {reason}")
    return "\n\n".join(lines)


def main() -> None:
    """Serve the app as a Hugging Face Space does (``python space/app.py``)."""
    from space.__main__ import main as serve

    serve([])


if __name__ == "__main__":
    main()
