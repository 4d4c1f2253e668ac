"""The NPI paper's methods in the NPI tab: Fig. 1 (MCC per configuration × environment, and
the Wilcox sentences), Fig. 2 (absolute and gradient minimal pairs, by contrast), Fig. 4 (the
probes' MCC) and the bag of words, from the shipped records of :mod:`space.data.npi_methods`.

The frames are built by pure functions (tested without a server); the tab's handlers fill
:func:`~space.ui.standards.counted_table` tables (row counts, CSV downloads) on page load.
"""

from __future__ import annotations

import re
from typing import Any

import gradio as gr
import numpy as np
import pandas as pd

from li_adger.benchmarks.npi import ENVIRONMENTS
from li_adger.benchmarks.npi_configurations import CONFIGURATIONS, TITLES
from metric_adc.npi_methods.grids import CONTRASTS
from metric_adc.npi_methods.inputs import caps_text
from space.data.npi_methods import read_npi_methods
from space.ui.figures import level_heatmap
from space.ui.standards import SORT_HINT, api_only, counted_table, styled, with_csv

__all__ = [
    "acceptability_frame",
    "acceptability_heatmap",
    "npi_methods_intro",
    "npi_methods_tab",
    "pairs_frame",
    "probes_frame",
]

ENV_COLUMNS = [ENVIRONMENTS[e] for e in ENVIRONMENTS]
"""The environments' columns, as the paper abbreviates them."""
NPI_TRAIN_SENTENCES = 10_000  # training sentences per environment in the NPI data

_ABOUT = """
**The NPI paper's methods** (Warstadt et al. 2019): Boolean acceptability classifiers
fine-tuned under five configurations (Fig. 1: MCC on each environment's test sentences and on
Wilcox et al.'s 104 sentences), the same classifiers on the 5,500 minimal pairs (Fig. 2:
*absolute*, both sentences right; *gradient*, the acceptable one more probably acceptable; a
tie is a failure, and the bag of words ties on almost every scope pair, whose two sentences
hold the same words; `npi-methods` prints the share of tied pairs),
linear probes of frozen representations for licensor, NPI presence and scope (Fig. 4), and a
bag of words (max-pooled word vectors and an MLP) as one more model. The CoLA configuration
evaluates CoLA fine-tunes that exist; it trains nothing. Commands: `python -m baselines
finetune --task npi`, `probe`, `bow`; `python -m metric_adc npi-methods` (docs/npi-methods.md).
"""


def _caps(model: dict[str, Any]) -> str:
    """A model's caps as ``npi-methods`` says them: "capped" only when a cap cut sentences.

    Examples
    --------
    >>> _caps({"caps": ["eval_cap=1000 covers every test sentence"], "capped": False})
    'uncapped (eval_cap=1000 covers every test sentence)'
    """
    return caps_text(model["caps"], model["capped"])


def _capped_note(record: dict[str, Any]) -> str | None:
    """The note on a record whose NPI classifiers trained on fewer than the 10,000 sentences
    per environment that the paper trains on (``None`` when none was capped, or the caps are
    unknown and no run was of one epoch); below 1,000 sentences or at one epoch it also says
    that the run shows the methods at work, not what the encoder knows.

    Examples
    --------
    >>> m = {"caps": ["train_cap=64, eval_cap=96"], "capped": True}
    >>> print(_capped_note({"models": {"m": m}, "facts": {"m": {"epochs": [1]}}}))
    **A small run.** Its NPI classifiers trained on at most 64 of the 10,000 sentences per environment (the paper: all of them), for 1 epoch(s), on a CPU: it shows the methods at work, not what the encoder knows. The paper's setting is the uncapped command of docs/npi-methods.md (a GPU).
    >>> _capped_note({"models": {"m": {**m, "caps": ["uncapped"]}}, "facts": {"m": {"epochs": [4]}}})
    """
    caps = [int(n) for m in record["models"].values() for c in m["caps"]
            for n in re.findall(r"train_cap=(\d+)", c)]  # fmt: skip
    epochs = [e for f in record.get("facts", {}).values() for e in f.get("epochs", [])]
    capped = bool(caps) and max(caps) < NPI_TRAIN_SENTENCES
    small = (bool(caps) and max(caps) < 1000) or (bool(epochs) and max(epochs) <= 1)
    if not (capped or small):
        return None
    trained = (
        f"at most {max(caps):,} of the {NPI_TRAIN_SENTENCES:,} sentences per environment"
        if capped
        else f"all {NPI_TRAIN_SENTENCES:,} sentences per environment"
    )
    span = "/".join(map(str, sorted(set(epochs)))) or "?"
    return (
        f"**A {'small' if small else 'capped'} run.** Its NPI classifiers trained on {trained}"
        f"{' (the paper: all of them)' if capped else ''}, for {span} epoch(s), on a CPU"
        + (": it shows the methods at work, not what the encoder knows." if small else ".")
        + " The paper's setting is the uncapped command of docs/npi-methods.md (a GPU)."
    )


def npi_methods_intro(records: list[dict[str, Any]]) -> str:
    """What the page says above the tables: the methods, and for each shipped record and
    model its units, caps, epochs, dates, machine and the CoLA fine-tunes it reused.

    Examples
    --------
    >>> npi_methods_intro([]).endswith("No results of these methods are shipped.")
    True
    """
    lines = [_ABOUT.strip()]
    if not records:
        return "\n\n".join([*lines, "No results of these methods are shipped."])
    for record in records:
        lines.append(f"**Shipped: `{record['name']}`.**")
        for name, model in record["models"].items():
            facts = record.get("facts", {}).get(name, {})
            epochs = "/".join(map(str, facts.get("epochs", [])))
            head = f"- `{name}`: {model['units']} classifiers (units × seeds), {_caps(model)}"
            parts = [
                head + (f", {epochs} epoch(s)" if epochs else ""),
                f"made {', '.join(facts.get('dates', []))} on {', '.join(facts.get('machines', []))}",
            ]
            if model.get("cola_fine_tunes"):
                parts.append(f"CoLA configuration from {', '.join(model['cola_fine_tunes'])}")
            lines.append("; ".join(parts) + ".")
        note = _capped_note(record)
        if note:
            lines.append(note)
    return "\n\n".join(lines)


def acceptability_frame(records: list[dict[str, Any]]) -> pd.DataFrame:
    """Fig. 1 of every shipped model: one row per (record, model, configuration), MCC per
    environment and on the Wilcox sentences, and the caps.

    Examples
    --------
    >>> acceptability_frame([]).columns[:3].tolist()
    ['Model', 'Configuration', 'ADV']
    """
    rows = []
    for record in records:
        for name, model in record["models"].items():
            grid = model["acceptability_mcc"]
            for c in CONFIGURATIONS:
                cells = [grid[c].get(e) for e in ENVIRONMENTS]
                rows.append([name, TITLES[c], *cells, grid[c].get("wilcox"), _caps(model)])
    columns = ["Model", "Configuration", *ENV_COLUMNS, "Wilcox", "Caps"]
    return pd.DataFrame(rows, columns=columns)


def acceptability_heatmap(records: list[dict[str, Any]]):
    """Fig. 1 as a heatmap (rows: model and configuration; MCC from −1 to 1); ``None`` when
    nothing is shipped."""
    frame = acceptability_frame(records)
    if frame.empty:
        return None
    values = frame[[*ENV_COLUMNS, "Wilcox"]].astype(float).to_numpy()
    rows = [f"{m} · {c}" for m, c in zip(frame["Model"], frame["Configuration"], strict=True)]
    return level_heatmap(np.asarray(values), rows, [*ENV_COLUMNS, "Wilcox"],
                         title="Fig. 1: MCC per configuration and environment",
                         value_label="MCC", vmin=-1.0, vmax=1.0)  # fmt: skip


def pairs_frame(records: list[dict[str, Any]], contrast: str) -> pd.DataFrame:
    """Fig. 2 for one contrast: per (model, configuration, absolute or gradient), the accuracy
    per environment, and the pairs judged.

    Examples
    --------
    >>> pairs_frame([], "scope").columns[:3].tolist()
    ['Model', 'Configuration', 'Test']
    """
    rows = []
    for record in records:
        for name, model in record["models"].items():
            for c in CONFIGURATIONS:
                cells = model["minimal_pairs"][c][contrast]
                judged = sum(cells[e]["pairs"] for e in ENVIRONMENTS)
                for kind in ("absolute", "gradient"):
                    values = [cells[e][kind] for e in ENVIRONMENTS]
                    rows.append([name, TITLES[c], kind, *values, judged])
    return pd.DataFrame(rows, columns=["Model", "Configuration", "Test", *ENV_COLUMNS, "Pairs"])


def probes_frame(records: list[dict[str, Any]]) -> pd.DataFrame:
    """Fig. 4: per probe file and feature, the MCC per environment, with its caps.

    Examples
    --------
    >>> probes_frame([]).columns[:3].tolist()
    ['Encoder', 'Fine-tuning', 'Feature']
    """
    rows = []
    for record in records:
        for p in record["probes"]:
            caps = [f"{k} {p[k + '_cap']}" for k in ("train", "test") if p.get(k + "_cap")]
            tuned = p.get("configuration") or "none"
            for f in CONTRASTS:
                values = [p["mcc"][f].get(e) for e in ENVIRONMENTS]
                rows.append([p["encoder"], tuned, f, *values, ", ".join(caps) or "uncapped"])
    return pd.DataFrame(rows, columns=["Encoder", "Fine-tuning", "Feature", *ENV_COLUMNS, "Caps"])


def npi_methods_tab(demo: gr.Blocks) -> None:
    """Lay out the sub-tab inside the NPI tab and fill its tables on page load."""
    records = read_npi_methods()
    gr.Markdown(npi_methods_intro(records), elem_id="npi-methods-intro")
    fig1_title = f"Fig. 1: MCC per configuration and environment ({SORT_HINT})"
    fig1, fig1_csv = counted_table(fig1_title, "npi-methods-fig1", pinned_columns=2)
    gr.Plot(acceptability_heatmap(records), show_label=False, format="png",
            elem_classes=["scroll-plot", "readable-plot"])  # fmt: skip
    contrast = gr.Radio(list(CONTRASTS), value=CONTRASTS[0], label="Fig. 2: minimal pairs of")
    fig2_title = f"Fig. 2: absolute and gradient minimal-pair accuracy ({SORT_HINT})"
    fig2, fig2_csv = counted_table(fig2_title, "npi-methods-fig2", pinned_columns=2)
    fig4_title = f"Fig. 4: probing MCC per feature and environment ({SORT_HINT})"
    fig4, fig4_csv = counted_table(fig4_title, "npi-methods-fig4", pinned_columns=1)

    def npi_acceptability():
        return styled(acceptability_frame(records))

    def npi_pairs(which: str):
        return styled(pairs_frame(records, which))

    def npi_probes():
        return styled(probes_frame(records))

    for handler, inputs, title, outputs, api in (
        (npi_acceptability, [], fig1_title, [fig1, fig1_csv], "npi_methods_acceptability"),
        (npi_probes, [], fig4_title, [fig4, fig4_csv], "npi_methods_probes"),
    ):
        demo.load(with_csv(handler, [title]), inputs, outputs, api_visibility="private")
        api_only(handler, inputs, outputs[:1], api)
    gr.on([demo.load, contrast.change], with_csv(npi_pairs, [fig2_title]), contrast,
          [fig2, fig2_csv], api_visibility="private", trigger_mode="always_last")  # fmt: skip
    api_only(npi_pairs, [contrast], [fig2], "npi_methods_pairs")
