"""The page's tables of models: one configuration for every leaderboard, so that each reads
the same at a desktop's width and a phone's."""

from __future__ import annotations

import gradio as gr

__all__ = ["BOARD_COLUMN_WIDTHS", "board_table"]

BOARD_COLUMN_WIDTHS = ["230px"]
"""The model column (pinned): long names wrap between words, so that on a phone the model's
name and its headline share the screen; the other columns fit their content (the page's CSS
never breaks a word), and the table scrolls sideways when they do not fit."""


def board_table(**kwargs) -> gr.Dataframe:
    """A read-only table of models: its model column pinned and :data:`BOARD_COLUMN_WIDTHS`
    wide; ``kwargs`` go to :class:`gradio.Dataframe` (``label``, ``elem_id``, ``value`` …).

    Examples
    --------
    >>> t = board_table(elem_id="x")
    >>> t.pinned_columns, t.column_widths, t.interactive
    (1, ['230px'], False)
    """
    return gr.Dataframe(
        interactive=False,
        wrap=True,
        column_widths=BOARD_COLUMN_WIDTHS,
        pinned_columns=1,
        **kwargs,
    )
