"""The Gradio app's page: its layout, and each control wired to its handler.

:func:`build_app` lays out one tab per benchmark — LI-Adger with the ADC (leaderboard with a
live δ, the human ceiling apart, ADC(δ) curves, model plots, phenomena, pair explorer), then
BLiMP, NPI, Ettinger's diagnostics and CoLA (leaderboard, human row apart, breakdowns) — and
*Evaluate your scores* (:mod:`space.ui.tab_li_adger`, :mod:`space.ui.tab_family`,
:mod:`space.ui.tab_upload`). The handlers are the module-level functions of
:mod:`space.ui.handlers`, bound to the shared :class:`~space.data.space_data.SpaceData`.
Uploads live in each browser session's own ``gr.State``, so what one user uploads is seen by
that user only; a submitted upload joins everybody's leaderboard once a maintainer approves it
(:mod:`space.data.submissions`).

Every event handler has an ``api_name``, so the app is also an API
(``gradio_client.Client("http://127.0.0.1:7860/").predict(0.5, api_name="/leaderboard")``).
The page is served by ``python -m space`` (:mod:`space.__main__`).
"""

from __future__ import annotations

import gradio as gr

from li_adger.benchmarks.spec import BIBLIOGRAPHY
from space.data.benchmark_data import FAMILY, TITLES
from space.data.space_data import SpaceData
from space.ui.heat_table import HEAT_TABLE_CSS
from space.ui.standards import PHONE_CSS, SETTLE_JS, tabs
from space.ui.tab_chapter2 import chapter2_tab
from space.ui.tab_family import family_tab
from space.ui.tab_li_adger import li_adger_tab
from space.ui.tab_upload import upload_tab

__all__ = ["CSS", "JS", "UPLOAD_TTL_S", "bibtex", "build_app", "theme"]

UPLOAD_TTL_S = 3600
"""Seconds a session's uploads are kept after their last change."""
CSS = """
#upload-status, #submit-status, #delta-note {min-height: 2em}
#pairs [role=gridcell], #pairs th {font-size: 0.85em}
/* Every table wraps its text between words only, never inside one (Gradio's cells default to
   word-break: break-word): a column is never narrower than its longest word. The sizing copy
   of the rows (a table) gets the same rules, so that the columns are measured as shown. */
table span.text, [role=gridcell] span.text {
    word-break: normal !important; overflow-wrap: normal !important; hyphens: none !important}
/* the pair explorer's phenomenon ids stay whole (they hold hyphens) */
#pairs [data-col="12"] span.text, #pairs .sizing-body td:nth-child(13) span.text {
    white-space: nowrap !important}
/* tall figures scroll inside their box (Gradio sets overflow: hidden inline) at their full
   size, so that every label stays readable; their colour bar is at the top */
.scroll-plot {max-height: 820px; overflow: auto !important}
.scroll-plot img {max-width: none !important; width: auto !important; height: auto !important}
/* centred while it fits; wider than its box (a phone), it starts at the left edge, where the
   scrolling starts, instead of losing its labels off the left */
.scroll-plot .layout {justify-content: safe center !important; align-items: safe center !important}
/* a table's header keeps its ⋮ menu beside the label, never over it */
th .cell-wrap, th .header-content {display: flex !important; align-items: flex-start !important}
th .header-text, th .header-content span.text {flex: 1 1 auto !important; min-width: 0}
th .cell-menu-button, th .sort-button {position: static !important; flex: none !important}
"""
CSS += PHONE_CSS + HEAT_TABLE_CSS
JS = SETTLE_JS
"""The page's script (:data:`space.ui.standards.SETTLE_JS`)."""

_INTRO = """
# The Acceptability Delta Criterion on LI-Adger, beside BLiMP, NPI, diagnostics and CoLA

A language model passes a minimal pair under the **BLiMP criterion** when it scores the
acceptable sentence higher. The **ADC** also asks for the *size* of the difference: with model
scores z-scored over all 4,178 LI-Adger sentences, a pair passes ADC(δ) when the model delta
Δlm = z(acceptable) − z(unacceptable) has the sign of the human delta Δh and
|Δh − Δlm| < δ. The other tabs show the same models on the neighbouring benchmarks.
"""


_CITE = """
Cite the ADC and LI-Adger with the thesis that introduced them, and each benchmark you report
with its own paper: the entries below are the project's bibliography
(`li_adger/benchmarks/citations.bib`).
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


def build_app(data: SpaceData, *, login: bool = False) -> gr.Blocks:
    """Lay out the page for ``data`` and wire every control to its handler; ``login`` adds a
    Hugging Face sign-in button to the upload tab (on a Space, where submissions need it).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> demo = build_app(toy_space_data())
    >>> sorted(d["api_name"] for d in demo.config["dependencies"] if d["api_name"])[:4]
    ['adc_curves', 'blimp_breakdown', 'blimp_leaderboard', 'ceiling']
    """
    with gr.Blocks(title="ADC on LI-Adger and its family", analytics_enabled=False) as demo:
        # each session's uploads; dropped an hour after they were last changed
        uploads = gr.State([], time_to_live=UPLOAD_TTL_S)
        gr.Markdown(_INTRO)
        with tabs():
            with gr.Tab("LI-Adger (ADC)", id="li_adger"):
                delta = li_adger_tab(data, uploads, demo)
            for bench in FAMILY:
                if bench in data.benchmarks:
                    with gr.Tab(TITLES[bench], id=bench):
                        family_tab(data, bench, uploads, demo)
            with gr.Tab("Fine-tuned classifiers (thesis ch. 2)", id="chapter2"):
                chapter2_tab(data, demo)
            with gr.Tab("Evaluate your scores", id="upload"):
                upload_tab(data, uploads, delta, login=login)
        with gr.Accordion("Cite", open=False, elem_id="cite"):
            gr.Markdown(_CITE)
            gr.Code(bibtex(), language=None, label="BibTeX", elem_id="citation")
    return demo


def bibtex() -> str:
    """The BibTeX entries to cite (:data:`li_adger.benchmarks.spec.BIBLIOGRAPHY`, its comment
    lines left out).

    Examples
    --------
    >>> bibtex().startswith("@mastersthesis{vazquezmartinez2021adc,")
    True
    """
    text = BIBLIOGRAPHY.read_text(encoding="utf-8")
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith("%")).strip() + "\n"
