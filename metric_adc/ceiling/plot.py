"""The human ADC(δ) curve beside the models' curves, as a figure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from li_adger.io.atomic import atomic_path
from metric_adc import core
from metric_adc.ceiling.compute import CURVE_GRID, LABEL
from metric_adc.thesis.outputs import display_name

__all__ = ["plot_curve", "thesis_model_curves"]


def plot_curve(
    result: Mapping,
    path: str | Path,
    *,
    model_curves: Mapping[str, tuple[Sequence[float], Sequence[float]]] | None = None,
) -> Path:
    """Plot the human ADC(δ) curve (mean and 2.5–97.5% band over splits), optionally beside
    models' curves (``{name: (deltas, adc)}``), to ``path`` (PNG/SVG/PDF), atomically.

    Examples
    --------
    >>> import tempfile, os
    >>> res = {"curve": {"deltas": [0.5, 1.0], "adc_mean": [0.3, 0.6], "adc_lo": [0.2, 0.5],
    ...        "adc_hi": [0.4, 0.7]}, "delta_for": {}, "n_pairs": 2}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     os.path.getsize(plot_curve(res, os.path.join(d, "c.png"))) > 0
    True
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    c = result["curve"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.fill_between(
        c["deltas"], c["adc_lo"], c["adc_hi"], color="0.8", label="humans, 95% of splits"
    )
    ax.plot(c["deltas"], c["adc_mean"], color="black", lw=2, label=LABEL)
    for name, (d, a) in (model_curves or {}).items():
        ax.plot(d, a, lw=1, label=display_name(name))
    for share, iv in result["delta_for"].items():
        x = iv.get("of_mean_curve")
        if x is not None:
            ax.axvline(x, color="0.4", ls=":", lw=1)
            ax.text(
                x, 0.02, f" {float(share):.0%} at δ={x:.2f}", rotation=90, va="bottom", fontsize=8
            )
    ax.set_xlabel("δ")
    ax.set_ylabel("ADC(δ): share of pairs passing")
    ax.set_ylim(0, 1)
    ax.set_title(f"ADC(δ) on the {result['n_pairs']} LI pairs")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    try:
        with atomic_path(path) as tmp:
            fig.savefig(tmp)
    finally:
        plt.close(fig)
    return path


def thesis_model_curves(
    models: pd.DataFrame, human_delta: Sequence[float], grid: Sequence[float] = CURVE_GRID
) -> dict[str, tuple[list[float], list[float]]]:
    """ADC(δ) curves of models (one column of pair deltas each,
    :func:`metric_adc.ceiling.inputs.thesis_deltas_frame`) against ``human_delta``.

    Examples
    --------
    >>> from metric_adc.ceiling.inputs import load_inputs, thesis_deltas_frame
    >>> pairs = load_inputs().pairs
    >>> curves = thesis_model_curves(thesis_deltas_frame(pairs), pairs["human_delta"])
    >>> sorted(curves)[:2]
    ['bert-base-uncased-cola', 'bert-base-uncased-mlm']
    """
    h = np.asarray(human_delta, dtype=float)
    out = {}
    for name in models.columns:
        m = models[name].to_numpy(float)
        keep = ~np.isnan(m)
        sweep = core.delta_sweep(m[keep], h[keep], deltas=grid)
        out[name] = (sweep["deltas"], sweep["adc"])
    return out
