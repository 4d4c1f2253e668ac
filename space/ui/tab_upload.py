"""The *Evaluate your scores* tab: upload a scores file, then keep it on the leaderboard."""

from __future__ import annotations

import gradio as gr

from space.data.entries import SpaceData
from space.data.upload import MAX_UPLOAD_BYTES
from space.ui import handlers

__all__ = ["upload_tab"]

_UPLOAD_HELP = f"""
Upload the scores of your own model: a **scores file** as `python -m baselines score` writes
it (JSON Lines: a metadata line `{{"format": "adc-scores", "version": 1, "model": ...,
"dataset": ...}}`, then one `{{"id": ..., "score": ...}}` per sentence), or a **CSV with the
header `id,score`** (LI-Adger's ids). The metadata's `dataset` chooses the benchmark
(`li_adger`, `blimp`, `npi`, `diagnostics`, `cola`; a CSV is LI-Adger's); every unit of that
benchmark needs a score, higher meaning more acceptable. At most
{MAX_UPLOAD_BYTES // (1024 * 1024)} MiB. Your upload is evaluated at once and shown,
highlighted, **in your browser session only** — until you keep it on the leaderboard.
"""

_KEEP_HELP = """
**Keep on the leaderboard**: the chosen upload joins the leaderboard for everybody, now and
after a restart, under its name and today's date, with its scores file. A name is kept once:
a name already on the leaderboard is refused (choose another one when uploading).
"""


def upload_tab(data: SpaceData, uploads: gr.State, delta: gr.Slider) -> None:
    gr.Markdown(_UPLOAD_HELP)
    with gr.Row():
        upload_file = gr.File(
            label="Scores file (.jsonl or .csv)",
            file_types=[".jsonl", ".csv", ".json", ".txt"],
            elem_id="upload",
        )
        upload_name = gr.Textbox(
            label="Model name (optional)", placeholder="from the file's metadata", elem_id="name"
        )
    upload_status = gr.Markdown(elem_id="upload-status")
    gr.Markdown(_KEEP_HELP)
    with gr.Row():
        keep_choice = gr.Dropdown(
            [], value=None, label="Upload to keep", elem_id="keep-choice", scale=3
        )
        keep_button = gr.Button("Keep on the leaderboard", elem_id="keep", scale=1)
    keep_status = gr.Markdown(elem_id="keep-status")
    upload_file.upload(
        handlers.bind(handlers.upload, data),
        [upload_file, upload_name, delta, uploads],
        [upload_status, uploads, keep_choice],
        api_name="evaluate_upload",
    )
    keep_button.click(
        handlers.bind(handlers.keep, data),
        [keep_choice, uploads],
        [keep_status, uploads, keep_choice],
        api_name="keep",
    )
