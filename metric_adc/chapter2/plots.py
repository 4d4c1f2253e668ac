"""The Chapter 2 figures: the acrobatic curve (Figure 2-3), MCC by analysis-set feature
(Figures 2-1/2-2) and the correlation heatmap (Figures 2-4, 2-6, 3-1, 3-3). Matplotlib
(Agg), each figure written atomically as PNG by :mod:`metric_adc.report.plots`' saver.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from metric_adc.report.plots import pyplot, save_png

__all__ = ["acrobatic_figure", "features_figure", "matrix_figure", "plot_acrobatic", "save_figure"]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "figure"


def acrobatic_figure(report: Mapping):
    """Figure 2-3: the acrobatic share (left) and the unathletic share (right) after k orders,
    with the MCC on LI-Adger per order (green; expert labels solid, the thesis's label column
    dotted) and the majority-class baseline's accuracy (orange), all in %. Each panel has its
    own legend, naming its own curve, below it.

    Examples
    --------
    >>> r = {"name": "toy", "curve": {"acrobatic": [0.0, 0.1], "unathletic": [1.0, 0.9]},
    ...      "mcc_expert": {"per_order": [0.5, 0.6]}, "mcc_thesis_label": {"per_order": [0.4, 0.5]},
    ...      "majority_baseline": {"accuracy_expert": 0.5}}
    >>> fig = acrobatic_figure(r)
    >>> [len(ax.lines) for ax in fig.axes]
    [4, 4]
    >>> [[t.get_text() for t in ax.get_legend().get_texts()][0] for ax in fig.axes]
    ['Acrobatic sentences', 'Unathletic sentences']
    """
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    k = np.arange(1, len(report["curve"]["acrobatic"]) + 1)
    for ax, key, title in zip(
        axes, ("acrobatic", "unathletic"), ("Acrobatic", "Unathletic"), strict=True
    ):
        ax.plot(
            k, 100 * np.asarray(report["curve"][key]), color="tab:blue", label=f"{title} sentences"
        )
        ax.plot(k, 100 * np.asarray(report["mcc_expert"]["per_order"]), color="tab:green",
                label="MCC on LI-Adger (expert labels)")  # fmt: skip
        ax.plot(k, 100 * np.asarray(report["mcc_thesis_label"]["per_order"]), color="tab:green",
                linestyle=":", label="MCC (thesis's label column)")  # fmt: skip
        base = 100 * report["majority_baseline"]["accuracy_expert"]
        ax.plot(k, np.full(k.size, base), color="tab:orange", label="majority-class accuracy")
        ax.set_xlabel("training orders k")
        ax.set_title(f"{title} sentences")
        ax.set_ylim(0, 100)
        # below the panel, where it hides no curve
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8)
    axes[0].set_ylabel("% of LI-Adger sentences / MCC × 100")
    fig.suptitle(f"{report['name']}: one initialisation, {len(k)} training orders")
    return fig


def plot_acrobatic(report: Mapping, out_dir: str | os.PathLike) -> list[Path]:
    """Write :func:`acrobatic_figure` as ``acrobatic-<name>.png`` into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return [save_png(acrobatic_figure(report), out / f"acrobatic-{_slug(report['name'])}.png")]


def features_figure(rows: Sequence[Mapping], *, level: str, dashed: Mapping[str, float]):
    """Figures 2-1/2-2: MCC per feature (bars: mean over restarts, whiskers: min–max), one bar
    per model and feature, the models' out-of-domain mean MCC as dashed lines.

    ``rows`` are :func:`metric_adc.chapter2.features.feature_rows` rows of one level.

    Examples
    --------
    >>> rows = [{"model": "m", "feature": "Simple", "mean": 0.5, "min": 0.4, "max": 0.6},
    ...         {"model": "m", "feature": "Question", "mean": 0.2, "min": 0.1, "max": 0.3}]
    >>> fig = features_figure(rows, level="major", dashed={"m": 0.45})
    >>> len(fig.axes[0].patches), len(fig.axes[0].lines) >= 1
    (2, True)
    """
    plt = pyplot()
    models = list(dict.fromkeys(r["model"] for r in rows))
    features = list(dict.fromkeys(r["feature"] for r in rows))
    by = {(r["model"], r["feature"]): r for r in rows}
    width = 0.8 / max(len(models), 1)
    fig, ax = plt.subplots(figsize=(max(6, 0.45 * len(features) * max(len(models), 1) + 2), 4))
    x = np.arange(len(features))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for m, model in enumerate(models):
        color = colors[m % len(colors)]
        cells = [by.get((model, f)) for f in features]
        mean = [np.nan if c is None or c["mean"] is None else c["mean"] for c in cells]
        low = [0 if c is None or c["mean"] is None else c["mean"] - c["min"] for c in cells]
        high = [0 if c is None or c["mean"] is None else c["max"] - c["mean"] for c in cells]
        ax.bar(x + (m - (len(models) - 1) / 2) * width, mean, width, yerr=[low, high],
               color=color, label=model, capsize=2)  # fmt: skip
        if model in dashed and dashed[model] is not None:
            ax.axhline(dashed[model], color=color, linestyle="--", linewidth=1)
    ax.set_xticks(x, features, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("MCC")
    ax.set_title(f"MCC on the CoLA analysis set by {level} feature (dashed: out-of-domain mean)")
    ax.legend(fontsize=8)
    return fig


def matrix_figure(names: Sequence[str], matrix: Sequence[Sequence[float | None]], *, title: str):
    """A correlation heatmap, values printed in the cells.

    Examples
    --------
    >>> fig = matrix_figure(["a", "b"], [[1.0, 0.5], [0.5, 1.0]], title="toy")
    >>> len(fig.axes[0].texts)
    4
    """
    plt = pyplot()
    values = np.array([[np.nan if v is None else v for v in row] for row in matrix], dtype=float)
    n = len(names)
    fig, ax = plt.subplots(figsize=(1.0 + 0.8 * n, 0.8 + 0.7 * n))
    image = ax.imshow(values, vmin=-1, vmax=1, cmap="RdBu_r")
    for i in range(n):
        for j in range(n):
            if not np.isnan(values[i, j]):
                ax.text(j, i, f"{values[i, j]:.2f}", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(n), names, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(n), names, fontsize=8)
    ax.set_title(title)
    fig.colorbar(image, ax=ax, shrink=0.8)
    return fig


def save_figure(fig, out_dir: str | os.PathLike, name: str) -> Path:
    """Write ``fig`` as ``<name>.png`` (name made file-safe) into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return save_png(fig, out / f"{_slug(name)}.png")
