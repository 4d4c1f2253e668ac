"""The *Evaluate your scores* tab: upload a scores file, then submit it for the leaderboard."""

from __future__ import annotations

import gradio as gr

from space.data.space_data import SpaceData
from space.data.submissions import SUBMISSIONS_PER_HOUR
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
highlighted, **in your browser session only**.
"""

_SUBMIT_HELP = f"""
**Submit for the leaderboard**: the chosen upload is sent for review with its scores file,
its numbers, its name and today's date{{login}}. A maintainer approves it (then everybody sees
it) or rejects it; until then only your session shows it. A name is submitted once: a name
already on the leaderboard or waiting for review is refused. At most {SUBMISSIONS_PER_HOUR}
submissions per hour{{per}}.
"""


def _submit_help(login: bool) -> str:
    if login:
        return _SUBMIT_HELP.format(
            login=", and your Hugging Face login (sign in below)", per=" per login"
        )
    return _SUBMIT_HELP.format(login="", per=" per browser session")


def upload_tab(data: SpaceData, uploads: gr.State, delta: gr.Slider, *, login: bool) -> None:
    """The upload tab; ``login`` adds the Hugging Face sign-in button (on a Space)."""
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
    gr.Markdown(_submit_help(login))
    if login:
        gr.LoginButton()
    with gr.Row():
        submit_choice = gr.Dropdown(
            [], value=None, label="Upload to submit", elem_id="submit-choice", scale=3
        )
        first = handlers.submit_button(data, None, [])
        submit_button = gr.Button(
            first["value"], interactive=first["interactive"], elem_id="submit", scale=1
        )
    submit_status = gr.Markdown(elem_id="submit-status")
    button = handlers.bind(handlers.submit_button, data)
    private = {"api_visibility": "private"}
    upload_file.upload(
        handlers.bind(handlers.upload, data),
        [upload_file, upload_name, delta, uploads],
        [upload_status, uploads, submit_choice],
        api_name="evaluate_upload",
    ).then(button, [submit_choice, uploads], submit_button, **private)
    submit_button.click(
        handlers.bind(handlers.submit, data),
        [submit_choice, uploads],
        [submit_status, uploads, submit_choice],
        api_name="submit",
    ).then(button, [submit_choice, uploads], submit_button, **private)
    submit_choice.input(button, [submit_choice, uploads], submit_button, **private)
