"""What every view of the page follows, whichever tab it is on: call these helpers from a tab.

- **Tables**: :func:`counted_table` lays out a read-only table (model column pinned and
  wrapped, every row within reach: :data:`TABLE_MAX_HEIGHT`) with a *Download CSV* button
  under it; a handler fills both with :func:`table_outputs`, which puts the row count in the
  table's label and writes every row (not only those shown) to the CSV.
  :func:`with_csv` does the same to a handler that returns styled tables, and
  :func:`api_only` keeps that handler's plain outputs on the API.
- **Numbers**: :func:`styled` prints 3 decimals, a missing value as a dash, a signed zero as
  ``0.000``, and highlights the session's uploads.
- **Sorting**: :data:`SORT_HINT` is what a label says about sorting (Gradio sorts from a
  header's ⋮ menu; a click on a header only selects it).
- **Sliders**: :func:`settled_slider` is a slider whose ``release`` event fires once per
  settled value, after a drag, a typed value or a burst of key presses (:data:`SETTLE_JS`);
  wire heavy views to ``slider.release``, never to ``slider.change``.
- **Phone**: :func:`tabs` wraps its tab bar onto more lines (no tab hides behind "⋯" at
  390 px); :data:`PHONE_CSS` (in :data:`space.ui.app.CSS`) keeps a figure of class
  ``readable-plot`` at a readable size (its box scrolls sideways, from the figure's left
  edge) and wraps the names in a dropdown's list; give a dropdown of model names
  ``min_width=300`` so that it takes a phone's whole width and shows the name whole.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import gradio as gr
import pandas as pd

from li_adger.io.atomic import atomic_write_text
from space.data.kinds import KIND_UPLOAD

__all__ = [
    "HIGHLIGHT",
    "PHONE_CSS",
    "SETTLE_JS",
    "SORT_HINT",
    "TABLE_MAX_HEIGHT",
    "api_only",
    "counted_table",
    "csv_file",
    "number_text",
    "rows_label",
    "settled_slider",
    "styled",
    "table_outputs",
    "tabs",
    "with_csv",
    "without_paths",
]

HIGHLIGHT = "background-color: #fde68a; font-weight: 700"
"""CSS of a highlighted row (the session's own uploads): a pale amber with bold text, which
reads as distinct without colour vision too."""

SORT_HINT = "sort from a header's ⋮ menu"
"""How a table of the page is sorted, said in its label."""

TABLE_MAX_HEIGHT = 1400
"""A table's box (px): tall enough that a leaderboard's rows all show without scrolling
inside it; a longer table scrolls, and its label gives the row count."""

SETTLE_SECONDS = 0.4
"""Quiet time after the last key press on a slider before its value counts as settled."""

SETTLE_JS = f"""
() => {{
  // A slider of class settle-on-release fires its release event once per settled value:
  // the mouse's release and a typed value's blur already do; a burst of key presses (arrow
  // keys, Home, End, Page Up/Down) or Enter in its number box does {SETTLE_SECONDS:g} s
  // after the last key.
  let timer = null;
  document.addEventListener('keyup', (e) => {{
    const el = e.target;
    if (!(el instanceof HTMLInputElement) || !el.closest('.settle-on-release')) return;
    if (el.type !== 'range' && e.key !== 'Enter') return;
    clearTimeout(timer);
    timer = setTimeout(
      () => el.dispatchEvent(new PointerEvent('pointerup', {{bubbles: true}})),
      {int(SETTLE_SECONDS * 1000)});
  }}, true);
}}
"""

PHONE_CSS = """
@media (max-width: 640px) {
  /* figures keep their size (the box scrolls sideways) so that legends stay readable */
  .readable-plot {overflow-x: auto !important}
  .readable-plot img {max-width: none !important; width: 640px !important; height: auto !important}
  /* wider than its box, a figure starts at the left edge, where the scrolling starts
     (centred, its left part could never be scrolled into view) */
  .readable-plot .layout {justify-content: safe center !important; align-items: safe center !important}
  /* a dropdown's list shows whole model names, wrapped */
  ul.options li {white-space: normal !important}
}
"""


def without_paths(text: str) -> str:
    """``text`` with the folders of every file path left out (the page never shows where a
    server keeps its files), the file names kept.

    Examples
    --------
    >>> without_paths("/tmp/run-1/results/broken.csv line 1: expected 'id,score'")
    "broken.csv line 1: expected 'id,score'"
    >>> without_paths(r"C:\\data\\x.jsonl: empty"), without_paths("δ = 0.5 / 1")
    ('x.jsonl: empty', 'δ = 0.5 / 1')
    """
    return re.sub(r"(?:[A-Za-z]:)?[/\\](?:[^\s/\\:'\"]+[/\\])+", "", text)


def rows_label(title: str, n: int) -> str:
    """A table's label: its title and its row count.

    Examples
    --------
    >>> rows_label("Models", 14), rows_label("Pairs", 1)
    ('Models · 14 rows', 'Pairs · 1 row')
    """
    return f"{title} · {n:,} row{'' if n == 1 else 's'}"


def number_text(x) -> str:
    """A number as a table prints it: 3 decimals, a signed zero as ``0.000``; anything else
    as itself.

    Examples
    --------
    >>> number_text(-0.0), number_text(-0.0004), number_text(0.1236), number_text(12), number_text("a")
    ('0.000', '0.000', '0.124', '12', 'a')
    """
    if isinstance(x, float) and math.isfinite(x):
        text = f"{x:.3f}"
        return "0.000" if text == "-0.000" else text
    return str(x)


def styled(df: pd.DataFrame, *, highlight: str = KIND_UPLOAD):
    """``df`` for display: numbers as :func:`number_text`, missing values as a dash, and the
    rows whose ``Kind`` is ``highlight`` (the session's uploads) in :data:`HIGHLIGHT`.

    Examples
    --------
    >>> df = pd.DataFrame({"Model": ["a", "b"], "Kind": ["x", KIND_UPLOAD], "v": [-0.0, None]})
    >>> s = styled(df)
    >>> s.to_string().splitlines()[1:]
    ['0 a x 0.000', '1 b your upload —']
    >>> "background-color: #fde68a" in s.to_html()
    True
    """

    def row_style(row: pd.Series) -> list[str]:
        mark = "Kind" in row.index and row["Kind"] == highlight
        return [HIGHLIGHT if mark else ""] * len(row)

    return df.style.format(number_text, na_rep="—").apply(row_style, axis=1)


@cache
def _download_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="adc-space-csv-"))


def csv_file(df: pd.DataFrame, stem: str) -> str:
    """Every row of ``df`` as a CSV file named ``<stem>.csv`` (numbers in full), written
    atomically into this process's download folder; its path. The same rows give the same
    file.

    Examples
    --------
    >>> p = csv_file(pd.DataFrame({"Model": ["a"], "v": [0.5]}), "LI-Adger leaderboard")
    >>> Path(p).name, Path(p).read_text()
    ('li-adger-leaderboard.csv', 'Model,v\\na,0.5\\n')
    """
    text = df.to_csv(index=False, lineterminator="\n")
    name = re.sub(r"[^a-z0-9.]+", "-", stem.lower()).strip("-.") or "table"
    folder = _download_dir() / hashlib.sha256(text.encode()).hexdigest()[:16]
    folder.mkdir(exist_ok=True)
    return str(atomic_write_text(folder / f"{name}.csv", text))


def counted_table(title: str, elem_id: str, *, pinned: bool = True, **kwargs):
    """A read-only table titled ``title`` and its *Download CSV* button (hidden until the
    table is filled by :func:`table_outputs`); ``kwargs`` go to :class:`gradio.Dataframe`.

    Examples
    --------
    >>> table, button = counted_table("Models", "x")
    >>> table.label, table.max_height, button.elem_id, button.visible
    ('Models', 1400, 'x-csv', False)
    """
    options = {"column_widths": ["230px"], "pinned_columns": 1} if pinned else {}
    options |= {"max_height": TABLE_MAX_HEIGHT, **kwargs}
    table = gr.Dataframe(interactive=False, wrap=True, label=title, elem_id=elem_id, **options)
    button = gr.DownloadButton(
        "Download CSV", visible=False, size="sm", elem_id=f"{elem_id}-csv", variant="secondary"
    )
    return table, button


def table_outputs(
    df: pd.DataFrame | None,
    title: str,
    *,
    shown: pd.DataFrame | None = None,
    stem: str | None = None,
):
    """The two outputs of a :func:`counted_table`: the table (``shown``, else ``df``, styled;
    its label counting ``df``'s rows) and the button downloading every row of ``df`` as
    ``<stem>.csv`` (``stem`` defaults to the title).

    Examples
    --------
    >>> table, button = table_outputs(pd.DataFrame({"Model": ["a", "b"]}), "Models")
    >>> table["label"], button["label"], Path(button["value"]).name
    ('Models · 2 rows', 'Download all 2 rows (CSV)', 'models.csv')
    >>> table_outputs(None, "Models")[1]["visible"]
    False
    """
    if df is None:
        return gr.update(value=None, label=title), gr.update(visible=False)
    view = df if shown is None else shown
    table = gr.update(value=styled(view), label=rows_label(title, len(df)))
    button = gr.update(
        value=csv_file(df, stem or title),
        label=f"Download all {len(df):,} rows (CSV)",
        visible=True,
    )
    return table, button


def tabs(**kwargs) -> gr.Tabs:
    """A :class:`gradio.Tabs` whose bar wraps onto more lines when its tabs do not fit (a
    phone), instead of hiding them in a menu; ``kwargs`` go to the tabs.

    Examples
    --------
    >>> with gr.Blocks():
    ...     t = tabs()
    >>> t.overflow_behavior
    'wrap'
    """
    return gr.Tabs(overflow_behavior="wrap", **kwargs)


def with_csv(handler, titles: Sequence[str | None]):
    """``handler`` with each table it returns (a styled table, or ``None``) turned into the
    two outputs of a :func:`counted_table` titled ``titles[i]`` (:func:`table_outputs`);
    outputs whose title is ``None`` pass as they are. The handler's signature is kept.

    Examples
    --------
    >>> def h(n):
    ...     return "text", styled(pd.DataFrame({"x": range(n)}))
    >>> text, table, button = with_csv(h, [None, "Xs"])(3)
    >>> text, table["label"], button["label"]
    ('text', 'Xs · 3 rows', 'Download all 3 rows (CSV)')
    """

    @functools.wraps(handler)
    def counted(*args):
        out = handler(*args)
        values = out if isinstance(out, tuple) else (out,)
        result: list = []
        for value, title in zip(values, titles, strict=True):
            if title is None:
                result.append(value)
            else:
                result += table_outputs(None if value is None else value.data, title)
        return tuple(result)

    return counted


def api_only(fn, inputs, outputs, api_name: str) -> None:
    """An API endpoint ``api_name`` that the page never triggers (a hidden button's event):
    the API keeps its plain outputs while the page's own event adds row counts and CSVs."""
    gr.Button(visible=False).click(fn, inputs, outputs, api_name=api_name)


def settled_slider(*args, **kwargs) -> gr.Slider:
    """A :class:`gradio.Slider` whose ``release`` event fires once per settled value
    (:data:`SETTLE_JS`, which the page loads); ``args`` and ``kwargs`` go to the slider.

    Examples
    --------
    >>> settled_slider(0, 1, value=0.5, elem_classes=["x"]).elem_classes
    ['x', 'settle-on-release']
    """
    classes = [*(kwargs.pop("elem_classes", None) or []), "settle-on-release"]
    return gr.Slider(*args, elem_classes=classes, **kwargs)
