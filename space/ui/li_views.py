"""The LI-Adger tab's views, computed per sub-tab: one settled δ is one request.

A settled δ (:func:`space.ui.standards.settled_slider`), a new upload or a sub-tab opened
runs :func:`refresh` once: it computes the views of the open sub-tab (:data:`VIEWS`) and
leaves the others as they are (``gradio.skip()``); a sub-tab's views are computed when it is
opened. Each view is a handler of its own too (:func:`board_view` …), testable without a
server.
"""

from __future__ import annotations

from collections.abc import Sequence

import gradio as gr
import numpy as np

from space.data.entries import ModelEntry
from space.data.space_data import SpaceData
from space.data.upload import Upload
from space.ui import handlers, views
from space.ui.explorer import ALL, explore_pairs
from space.ui.leaderboard import (
    board_datatypes,
    ceiling_frame,
    leaderboard_frame,
    linked,
    ranked,
)
from space.ui.standards import SORT_HINT, table_outputs

__all__ = [
    "BOARD",
    "EXPLORER",
    "PAGE_ROWS",
    "PHENOMENA",
    "PLOTS",
    "VIEWS",
    "board_title",
    "board_view",
    "explorer_view",
    "heat_view",
    "plots_view",
    "ranked_names",
    "refresh",
    "top_model",
]

BOARD, PLOTS, PHENOMENA, EXPLORER = "Leaderboard", "Model plots", "Phenomena", "Pair explorer"
VIEWS = {BOARD: 5, PLOTS: 2, PHENOMENA: 1, EXPLORER: 4}
"""Each sub-tab and the number of its outputs, in the order :func:`refresh` returns them."""
PAGE_ROWS = 100
"""Rows of the pair explorer on one page (the CSV holds them all)."""
CEILING_TITLE = "Human split-half ceiling, and every model on the same LI pairs"


BOARD_DATATYPES = board_datatypes([*["str"] * 12, "Link"])
"""The leaderboard's column types: its last column (the model's page) is a Markdown link."""


def board_title(data: SpaceData) -> str:
    """The leaderboard's label (its row count is added when it is filled)."""
    return f"Models on the {len(data.pairs):,} LI-Adger pairs ({SORT_HINT})"


def _entries(data: SpaceData, uploads: Sequence[Upload]) -> list[ModelEntry]:
    return [*data.shared_models(), *handlers.li_uploads(data, uploads)]


def board_view(data: SpaceData, delta: float, uploads: Sequence[Upload]) -> tuple:
    """The leaderboard and its CSV, the ceiling table and its CSV, the ADC(δ) curves."""
    d = handlers.shown_delta(delta)
    mine = handlers.li_uploads(data, uploads)
    board = leaderboard_frame(data, mine, d)
    ceiling = ceiling_frame(data, mine, d) if data.ceiling is not None else None
    curves = views.adc_curves_figure(data, _entries(data, uploads), d)
    shown = linked(board)
    return (
        *table_outputs(board, board_title(data), shown=shown, stem="li-adger-leaderboard"),
        *table_outputs(ceiling, CEILING_TITLE, stem="li-adger-ceiling"),
        curves,
    )


def plots_view(data: SpaceData, model: str, delta: float, uploads: Sequence[Upload]) -> tuple:
    """The pair and sentence plots of ``model``."""
    return handlers.model_plots(data, model, delta, uploads)


def heat_view(data: SpaceData, delta: float, source: str, uploads: Sequence[Upload]):
    """The phenomena heatmap of ``source`` (an HTML table, its names fixed as it scrolls),
    its models in the leaderboard's order."""
    d = handlers.shown_delta(delta)
    entries = ranked(_entries(data, uploads), data.pairs.human_delta, d)
    if not entries:
        return ""
    return views.heatmap_html(data, entries, d, None if source == ALL else source)


def _page(page: float | None, n_pages: int) -> int:
    """The 1-based page shown for the page box's ``page`` (clipped to 1 … ``n_pages``).

    >>> _page(None, 3), _page(7, 3), _page(2.0, 3), _page(1, 0)
    (1, 3, 2, 1)
    """
    p = 1 if page is None or not np.isfinite(page) else int(page)
    return min(max(p, 1), max(n_pages, 1))


def explorer_view(
    data: SpaceData,
    delta: float,
    source: str,
    phenomenon: str,
    model_a: str,
    outcome: str,
    model_b: str,
    disagreement: str,
    search: str,
    page: float | None,
    uploads: Sequence[Upload],
) -> tuple:
    """The pair explorer: its summary line, one page of the matching pairs (whose sentences
    contain ``search``, case-insensitive), the CSV of all of them, and the page box.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> text, table, button, box = explorer_view(toy_space_data(), 0.5, "all", "all",
    ...     "toy-length", "all", handlers.NONE, "all", "", 1, [])
    >>> print(text)
    3 pairs match: model A (toy-length) passes 2 of them at δ = 0.5. Page 1 of 1.
    >>> table["label"], box["maximum"]
    ('Pairs · 3 rows', 1)
    """
    a = handlers._entry(data, uploads, model_a)
    if a is None:
        text = "No model is loaded yet: upload scores in *Evaluate your scores*."
        return text, *table_outputs(None, "Pairs"), gr.update()
    b = None if model_b in (None, handlers.NONE) else handlers._entry(data, uploads, model_b)
    if phenomenon not in handlers.phenomena(data, source):
        phenomenon = ALL
    d = handlers.shown_delta(delta)
    _, df = explore_pairs(
        data, d, a, b, source=source, phenomenon=phenomenon, outcome=outcome,
        disagreement=disagreement if b is not None else ALL, max_rows=None,
    )  # fmt: skip
    needle = (search or "").strip().lower()
    if needle:
        text_of = df["acceptable"].str.lower() + "\n" + df["unacceptable"].str.lower()
        df = df[text_of.str.contains(needle, regex=False)].reset_index(drop=True)
    n_pages = max(1, -(-len(df) // PAGE_ROWS))
    p = _page(page, n_pages)
    shown = df.iloc[(p - 1) * PAGE_ROWS : p * PAGE_ROWS]
    n_pass = int((df["A"] == "pass").sum())
    text = (
        f"{len(df):,} pairs match"
        + (f" “{search.strip()}”" if needle else "")
        + f": model A ({a.name}) passes {n_pass:,} of them at δ = {d:g}"
        + (f"; model B = {b.name}" if b is not None else "")
        + f". Page {p} of {n_pages}."
    )
    return (
        text,
        *table_outputs(df, "Pairs", shown=shown, stem="li-adger-pairs"),
        gr.update(value=p, maximum=n_pages),
    )


def refresh(
    data: SpaceData,
    open_view: str,
    delta: float,
    heat_source: str,
    model: str,
    source: str,
    phenomenon: str,
    model_a: str,
    outcome: str,
    model_b: str,
    disagreement: str,
    search: str,
    page: float | None,
    uploads: Sequence[Upload],
) -> tuple:
    """The note under the δ slider, then every view's outputs (:data:`VIEWS`' order): those
    of the open sub-tab ``open_view`` computed, the others left as they are.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> out = refresh(toy_space_data(), PLOTS, 0.5, "toy", "toy-length", "all", "all",
    ...               "toy-length", "all", handlers.NONE, "all", "", 1, [])
    >>> len(out), sum(isinstance(x, type(gr.skip())) for x in out)
    (13, 10)
    """
    explorer = (source, phenomenon, model_a, outcome, model_b, disagreement, search, page)
    computed = {
        BOARD: lambda: board_view(data, delta, uploads),
        PLOTS: lambda: plots_view(data, model, delta, uploads),
        PHENOMENA: lambda: (heat_view(data, delta, heat_source, uploads),),
        EXPLORER: lambda: explorer_view(data, delta, *explorer, uploads),
    }
    out: list = [handlers.delta_note(delta)]
    for view, n in VIEWS.items():
        out += list(computed[view]()) if view == open_view else [gr.skip()] * n
    return tuple(out)


def top_model(data: SpaceData, delta: float) -> str | None:
    """The leaderboard's first model at ``delta`` (the explorer's default), else ``None``."""
    first = ranked(list(data.shared_models()), data.pairs.human_delta, delta)[:1]
    return first[0].name if first else None


def ranked_names(data: SpaceData, delta: float) -> list[str]:
    """The shared models' names in the leaderboard's order at ``delta``."""
    return [e.name for e in ranked(list(data.shared_models()), data.pairs.human_delta, delta)]
