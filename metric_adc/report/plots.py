"""Figures for a result: human vs model (sentences), Δh vs Δlm with the ±δ band, ADC(δ)
curves, and per-phenomenon bars; for the family's other benchmarks, a model's value per group
with its bootstrap interval beside the reference rows. Matplotlib with the Agg backend; every
figure is written atomically as PNG.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from li_adger.io.atomic import atomic_path
from metric_adc import core
from metric_adc.report.shape import Report

__all__ = [
    "PHENOMENA_SHOWN",
    "curves_figure",
    "deltas_figure",
    "plot_adc_curves",
    "plot_benchmark",
    "plot_deltas",
    "plot_groups",
    "plot_phenomena",
    "plot_sentences",
    "pyplot",
    "save_png",
    "sentences_figure",
    "write_plots",
]


def pyplot():
    """``matplotlib.pyplot`` on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def save_png(fig, path: Path) -> Path:
    """Write ``fig`` to ``path`` as PNG, atomically, and close it."""
    try:
        with atomic_path(path) as tmp:
            fig.savefig(tmp, dpi=110, bbox_inches="tight")
    finally:
        pyplot().close(fig)
    return Path(path)


def sentences_figure(model_z: Sequence[float], human: Sequence[float], *, title: str):
    """Scatter of the human judgement against the model's z-score, one dot per sentence, the
    Pearson r in the title.

    Examples
    --------
    >>> fig = sentences_figure([0.1, 1.0, -1.2], [0.3, 0.9, -1.0], title="toy")  # r by hand
    >>> ax = fig.axes[0]
    >>> len(ax.collections[0].get_offsets()), ax.get_title()
    (3, 'toy: sentences (Pearson r = 0.994)')
    >>> pyplot().close(fig)
    """
    plt = pyplot()
    x, y = np.asarray(model_z, float), np.asarray(human, float)
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.scatter(x, y, s=6, alpha=0.4, color="#3366aa")
    r = core.correlation(x, y)["pearson"]
    ax.set(xlabel="model score (z)", ylabel="human judgement (z)",
           title=f"{title}: sentences (Pearson r = {'—' if r is None else f'{r:.3f}'})")  # fmt: skip
    return fig


def plot_sentences(model_z: Sequence[float], human: Sequence[float], path: Path, *, title: str):
    """:func:`sentences_figure`, written to ``path``."""
    return save_png(sentences_figure(model_z, human, title=title), path)


def deltas_figure(
    model_delta: Sequence[float], human_delta: Sequence[float], *, delta: float, title: str
):
    """Δh against Δlm, pairs passing ADC(δ) in green, failing in red, with the ±δ band; the
    legend gives the share passing (pairs without a human delta are left out).

    Examples
    --------
    Of (Δlm, Δh) = (1.0, 1.2), (-0.5, 0.8), (0.4, nan), only the first passes at δ = 1:

    >>> fig = deltas_figure([1.0, -0.5, 0.4], [1.2, 0.8, float("nan")], delta=1.0, title="t")
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['|Δh − Δlm| < 1', 'pass (0.500)', 'fail']
    >>> pyplot().close(fig)
    """
    plt = pyplot()
    m, h = np.asarray(model_delta, float), np.asarray(human_delta, float)
    keep = ~np.isnan(h)
    m, h = m[keep], h[keep]
    ok = core.adc_pass(m, h, delta)
    fig, ax = plt.subplots(figsize=(5.5, 5))
    lim = float(np.nanmax(np.abs(np.concatenate([m, h, [1.0]])))) * 1.05
    grid = np.array([-lim, lim])
    ax.fill_between(grid, grid - delta, grid + delta, color="#999999", alpha=0.2,
                    label=f"|Δh − Δlm| < {delta:g}")  # fmt: skip
    ax.axhline(0, color="k", lw=0.5)
    ax.axvline(0, color="k", lw=0.5)
    ax.scatter(m[ok], h[ok], s=7, color="#2a9d4b", alpha=0.6, label=f"pass ({ok.mean():.3f})")
    ax.scatter(m[~ok], h[~ok], s=7, color="#c0392b", alpha=0.5, label="fail")
    ax.set(xlim=(-lim, lim), ylim=(-lim, lim), xlabel="model delta Δlm (z)",
           ylabel="human delta Δh (z)", title=f"{title}: ADC(δ={delta:g})")  # fmt: skip
    ax.legend(loc="lower right", fontsize=8)
    return fig


def plot_deltas(
    model_delta: Sequence[float], human_delta: Sequence[float], path: Path, *, delta: float,
    title: str,
):  # fmt: skip
    """:func:`deltas_figure`, written to ``path``."""
    return save_png(deltas_figure(model_delta, human_delta, delta=delta, title=title), path)


def curves_figure(sweeps: Mapping[str, Mapping], *, title: str = "ADC(δ)"):
    """ADC(δ) curves, one per model, from :func:`metric_adc.core.delta_sweep` results, each
    with its area in the legend and its sign agreement (ADC at δ → ∞) as a dotted line.

    Examples
    --------
    Pairs (Δlm, Δh) = (1, 2), (−1, 3), (0.4, 0.5): the first and last agree in sign, with
    errors 1 and 0.1; the area over [0, 2] is (0.5 + 0 + 0.95) / 3.

    >>> s = core.delta_sweep([1.0, -1.0, 0.4], [2.0, 3.0, 0.5], deltas=[0.5, 1.0, 2.0])
    >>> fig = curves_figure({"toy": s})
    >>> curve, sign = fig.axes[0].lines
    >>> [round(float(y), 3) for y in curve.get_ydata()], curve.get_label(), sign.get_ydata()
    ([0.333, 0.333, 0.667], 'toy (area 0.483)', [0.6666666666666666, 0.6666666666666666])
    >>> pyplot().close(fig)
    """
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, s in sweeps.items():
        ax.plot(s["deltas"], s["adc"], label=f"{name} (area {s['auc']:.3f})")
        ax.axhline(s["human_sign"], ls=":", lw=0.6, color=ax.lines[-1].get_color())
    ax.set(xlabel="δ", ylabel="share of pairs passing", ylim=(0, 1), title=title)
    ax.legend(fontsize=7)
    return fig


def plot_adc_curves(sweeps: Mapping[str, Mapping], path: Path, *, title: str = "ADC(δ)"):
    """:func:`curves_figure`, written to ``path``."""
    return save_png(curves_figure(sweeps, title=title), path)


PHENOMENA_SHOWN: int = 15
"""With many groups, :func:`plot_phenomena` shows this many highest and as many lowest."""


def plot_phenomena(
    by_group: Mapping[str, Mapping],
    path: Path,
    *,
    delta: float,
    title: str,
    shown: int = PHENOMENA_SHOWN,
):
    """Horizontal bars of ADC(δ) and BLiMP per phenomenon (or any grouping), with pair counts.

    Groups are ordered by ADC(δ) (ties by name). With more than ``2 * shown`` groups only
    the ``shown`` highest and the ``shown`` lowest are drawn, the rest summarized on a
    separator line, so the figure stays readable for LI-Adger's ~230 phenomena. The legend
    sits above the bars, outside the axes.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> b = core.breakdown(["x", "y", "y"], [1.0, -1.0, 0.5], [1.2, 0.4, 0.3], deltas=[1.0])
    >>> plot_phenomena(b, pathlib.Path(tempfile.mkdtemp()) / "p.png", delta=1.0,
    ...                title="toy").exists()
    True
    """
    if shown < 1:
        raise ValueError(f"'shown' must be >= 1 (got {shown!r})")
    plt = pyplot()
    key = core.delta_key(delta)
    names = [n for n, r in by_group.items() if r["n_pairs"]]
    names.sort(key=lambda n: (by_group[n]["adc"][key] or 0.0, n))
    total = len(names)
    hidden = 0
    if total > 2 * shown:
        hidden = total - 2 * shown
        names = [*names[:shown], "", *names[-shown:]]  # "" marks the separator
    labels = [f"… {hidden} more …" if not n else f"{n} ({by_group[n]['n_pairs']})" for n in names]
    adc_v = [by_group[n]["adc"][key] or 0.0 if n else 0.0 for n in names]
    blimp_v = [by_group[n]["blimp"] if n else 0.0 for n in names]
    y = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(7, max(3.0, 0.22 * len(names) + 1.4)))
    ax.barh(y + 0.2, blimp_v, height=0.4, color="#bbbbbb", label="BLiMP criterion")
    ax.barh(y - 0.2, adc_v, height=0.4, color="#3366aa", label=f"ADC(δ={delta:g})")
    if hidden:
        ax.axhline(shown, color="0.5", lw=0.8, ls=":")
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_ylim(-0.7, len(names) - 0.3)
    scope = f"lowest and highest {shown} of {total} by ADC(δ)" if hidden else f"{total} groups"
    ax.set(xlim=(0, 1), xlabel="share of pairs passing (pairs per group in brackets)")
    ax.set_title(f"{title}: {scope}", pad=24)
    ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    return save_png(fig, path)


def write_plots(
    out_dir: str | os.PathLike,
    *,
    model: str,
    model_z: Mapping[str, float],
    judgements: Mapping[str, float],
    model_delta: Sequence[float],
    human_delta: Sequence[float],
    sweep: Mapping,
    by_group: Mapping[str, Mapping] | None,
    delta: float = 1.0,
) -> list[Path]:
    """Write the four figures for one model into ``out_dir``; return their paths.

    Examples
    --------
    >>> import tempfile
    >>> ps = write_plots(tempfile.mkdtemp(), model="toy", model_z={"a": 1.0, "b": -1.0},
    ...                  judgements={"a": 0.5, "b": -0.2}, model_delta=[2.0], human_delta=[0.7],
    ...                  sweep=core.delta_sweep([2.0], [0.7]), by_group=None)
    >>> [p.name for p in ps]
    ['toy_sentences.png', 'toy_deltas.png', 'toy_adc_curve.png']
    """
    out = Path(out_dir)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in model)
    rated = [k for k in model_z if k in judgements and not np.isnan(judgements[k])]
    paths = [
        plot_sentences([model_z[k] for k in rated], [judgements[k] for k in rated],
                       out / f"{safe}_sentences.png", title=model),
        plot_deltas(model_delta, human_delta, out / f"{safe}_deltas.png", delta=delta,
                    title=model),
        plot_adc_curves({model: sweep}, out / f"{safe}_adc_curve.png", title=f"{model}: ADC(δ)"),
    ]  # fmt: skip
    if by_group:
        paths.append(
            plot_phenomena(by_group, out / f"{safe}_phenomena.png", delta=delta, title=model)
        )
    return paths


_REFERENCE_MARKERS = "osD^vP*X"


def plot_groups(
    levels: Sequence[str],
    values: Sequence[float | None],
    path: Path,
    *,
    model: str,
    title: str,
    xlabel: str,
    intervals: Sequence[tuple[float | None, float | None] | None] | None = None,
    references: Mapping[str, Sequence[float | None]] | None = None,
):
    """Horizontal bars of a model's value per level (``None`` is not drawn), its interval as an
    error bar, and each reference's value as a marker on the same line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = plot_groups(["a", "b"], [0.5, None], pathlib.Path(tempfile.mkdtemp()) / "g.png",
    ...                 model="toy", title="t", xlabel="share", intervals=[(0.4, 0.6), None],
    ...                 references={"human": [0.9, 0.8]})
    >>> p.name
    'g.png'
    """
    plt = pyplot()
    y = np.arange(len(levels))[::-1]
    v = np.array([np.nan if x is None else x for x in values], dtype=float)
    fig, ax = plt.subplots(figsize=(7, max(2.5, 0.24 * len(levels) + 1.4)))
    ax.barh(y, np.nan_to_num(v), height=0.6, color="#3366aa", label=model)
    if intervals is not None:
        lo = np.array([np.nan if c is None or c[0] is None else c[0] for c in intervals])
        hi = np.array([np.nan if c is None or c[1] is None else c[1] for c in intervals])
        ok = np.isfinite(lo) & np.isfinite(hi) & np.isfinite(v)
        err = np.vstack([v[ok] - lo[ok], hi[ok] - v[ok]])
        ax.errorbar(v[ok], y[ok], xerr=err, fmt="none", ecolor="black", lw=0.8, capsize=2)
    for k, (name, ref) in enumerate((references or {}).items()):
        r = np.array([np.nan if x is None else x for x in ref], dtype=float)
        ax.plot(r, y, ls="none", marker=_REFERENCE_MARKERS[k % len(_REFERENCE_MARKERS)],
                ms=4, label=name)  # fmt: skip
    ax.set_yticks(y, list(levels), fontsize=7)
    low = min(0.0, float(np.nanmin(v)) if np.isfinite(v).any() else 0.0)
    ax.set(xlim=(low, 1), xlabel=xlabel)
    legend_rows = -(-(1 + len(references or {})) // 4)
    ax.set_title(title, pad=10 + 12 * legend_rows)
    ax.legend(fontsize=7, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, frameon=False)
    return save_png(fig, path)


def plot_benchmark(report: Report, out_dir: str | os.PathLike) -> list[Path]:
    """The figures of a benchmark's report (:func:`metric_adc.report.benchmark.benchmark_report`):
    pairs, one per group column (the BLiMP criterion per level, the reference rows as
    markers; BLiMP: per paradigm, per phenomenon, per field); cloze, the sensitivity per set;
    labelled, the MCC per split. Returns the paths written.

    Examples
    --------
    >>> import tempfile
    >>> ci = {"low": 0.4, "high": 0.8}
    >>> from metric_adc.result_rows import BENCHMARK_ROW_KEYS, BenchmarkRow
    >>> row = BenchmarkRow(**{**dict.fromkeys(BENCHMARK_ROW_KEYS), "model": "toy (slor)",
    ...     "pairs": {"groups": {"environment": {"only": {"n_pairs": 2, "blimp": 0.6}}}}})
    >>> from metric_adc.report.parts import OutcomeAnalysis
    >>> from metric_adc.report.shape import report_of
    >>> a = OutcomeAnalysis(n_resamples=9, pairs={"environment": {"only": ci}})
    >>> report = report_of("npi", [row], analysis=a)
    >>> [p.name for p in plot_benchmark(report, tempfile.mkdtemp())]
    ['toy__slor__npi_environment.png']
    """
    out = Path(out_dir)
    model, refs = report.rows[0], report.rows[1:]
    a = report.analysis
    name = report.benchmark
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in model.model)
    paths = []
    if model.pairs is not None:
        for column, levels in model.pairs["groups"].items():
            names = list(levels)
            cis = a.pairs[column]
            paths.append(plot_groups(
                names, [levels[n]["blimp"] for n in names], out / f"{safe}_{name}_{column}.png",
                model=model.model, title=f"{name}: BLiMP criterion by {column}",
                xlabel="share of pairs passing",
                intervals=[(cis[n]["low"], cis[n]["high"]) for n in names],
                references={r.model: [r.pairs["groups"].get(column, {}).get(n, {})
                                         .get("blimp") for n in names] for r in refs},
            ))  # fmt: skip
    if model.cloze is not None:
        sets = model.cloze["sets"]
        names = list(sets)
        paths.append(plot_groups(
            names, [sets[n]["sensitivity"] for n in names], out / f"{safe}_{name}_sets.png",
            model=model.model, title=f"{name}: sensitivity by set", xlabel="share of items",
            intervals=[(a.cloze[n]["sensitivity"]["low"], a.cloze[n]["sensitivity"]["high"])
                       for n in names],
            references={"sensitivity > .01": [sets[n]["sensitivity_thresholded"] for n in names],
                        "accuracy@1": [sets[n]["accuracy@1"] for n in names],
                        "accuracy@5": [sets[n]["accuracy@5"] for n in names]},
        ))  # fmt: skip
    if model.labelled is not None:
        splits = model.labelled["splits"]
        names = list(splits)
        cis = a.labelled.splits
        paths.append(plot_groups(
            names, [splits[n]["mcc"] for n in names], out / f"{safe}_{name}_splits.png",
            model=model.model, title=f"{name}: MCC by split", xlabel="MCC",
            intervals=[(cis[n]["low"], cis[n]["high"]) for n in names],
        ))  # fmt: skip
    return paths
