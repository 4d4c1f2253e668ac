"""The submit button's state: what it says and whether it can be clicked, and what the page
may show of where submissions are kept."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import gradio as gr

from space.data.space_data import SpaceData
from space.data.store import LocalStore
from space.data.upload import Upload

__all__ = ["SUBMIT_OFF", "private_where", "public", "submit_button"]

SUBMIT_OFF = "Submitting is off here (no results folder or repository)"
"""The submit button's label where the app has nowhere to keep submissions."""


def submit_button(data: SpaceData, choice: str | None, uploads: Sequence[Upload]):
    """The submit button for the dropdown's ``choice``: naming the upload and the file it
    submits, disabled once that upload is submitted, when there is none, or where submitting
    is off (:data:`SUBMIT_OFF`).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> b = submit_button(toy_space_data(), None, [])
    >>> b["value"] == SUBMIT_OFF, b["interactive"]
    (True, False)
    """
    if data.submissions is None:
        return gr.update(value=SUBMIT_OFF, interactive=False)
    u = next((x for x in uploads if x.name == choice), None)
    if u is None:
        return gr.update(value="Upload a scores file to submit it", interactive=False)
    if u.submitted:
        return gr.update(value=f"Submitted: {u.name} ({u.file})", interactive=False)
    return gr.update(value=f"Submit {u.name} ({u.file}) for review", interactive=True)


def private_where(data: SpaceData) -> str | None:
    """Where the submissions are kept when that is a server's folder (never shown on the
    page), else ``None`` (a Hub repository is public)."""
    store = data.submissions.store if data.submissions is not None else None
    return store.where if isinstance(store, LocalStore) else None


def public(message: str, data: SpaceData) -> str:
    """``message`` as the page shows it: a server folder's path left out (the full message
    goes to the server's log)."""
    logging.warning("submission refused: %s", message)
    where = private_where(data)
    return message.replace(where, "the leaderboard's store") if where else message
