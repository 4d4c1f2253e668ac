"""What a benchmark's tab shows: its leaderboard, the human row apart, a breakdown, and (for
Ettinger's diagnostics) the models' predictions for one item.

Every number is read from a :func:`metric_adc.family.statistics.evaluate_items` result (its keys are
the same for every benchmark); nothing is computed here but the table layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
from matplotlib.figure import Figure

from li_adger.benchmarks.npi import ENVIRONMENTS
from space.data.benchmark_data import BenchmarkData, FamilyEntry, ItemsUnavailable
from space.ui import figures
from space.ui.leaderboard import finite_or_none, with_metadata

__all__ = [
    "BREAKDOWNS",
    "LEADERBOARD",
    "STATISTIC_NAMES",
    "STATISTIC_RANGES",
    "Breakdown",
    "breakdown_figure",
    "breakdown_frame",
    "family_leaderboard",
    "human_frame",
    "item_predictions",
    "prediction_choices",
]


@dataclass(frozen=True)
class Breakdown:
    """One way to break a benchmark's result down: the result ``section`` (``pairs``,
    ``cloze``, ``labelled``), the group ``column`` (``set/condition`` = both levels of the
    diagnostics), and the ``statistics`` that can be shown per level (the first by default)."""

    label: str
    section: str
    column: str
    statistics: tuple[str, ...]


_PAIRS = ("blimp",)
_CLOZE = ("sensitivity", "sensitivity_thresholded", "accuracy@1", "accuracy@5")
_LABELLED = ("mcc", "accuracy")

BREAKDOWNS: dict[str, tuple[Breakdown, ...]] = {
    "blimp": (
        Breakdown("per linguistics term", "pairs", "linguistics_term", _PAIRS),
        Breakdown("per field", "pairs", "field", _PAIRS),
        Breakdown("per paradigm", "pairs", "UID", _PAIRS),
    ),
    "npi": (
        Breakdown("per environment", "pairs", "environment", _PAIRS),
        Breakdown("per contrast", "pairs", "contrast", _PAIRS),
        Breakdown("per paradigm", "pairs", "paradigm", _PAIRS),
    ),
    "npi_cloze": (
        Breakdown("per environment", "cloze", "set", ("sensitivity",)),
        Breakdown("per environment and contrast", "cloze", "set/condition", ("sensitivity",)),
    ),
    "diagnostics": (
        Breakdown("per set", "cloze", "set", _CLOZE),
        Breakdown("per set and condition", "cloze", "set/condition", _CLOZE),
    ),
    "cola": (Breakdown("per development set", "labelled", "split", _LABELLED),),
}
"""The breakdown views of each benchmark, the first shown by default."""

LEADERBOARD: dict[str, tuple[str, str]] = {
    "blimp": ("BLiMP (mean over paradigms)", "per field"),
    "npi": ("accuracy (pooled)", "per environment"),
    "npi_cloze": ("acceptable word preferred (mean over environments)", "per environment"),
    "diagnostics": ("sensitivity (mean over sets)", "per set"),
    "cola": ("MCC (both dev sets)", "per development set"),
}
"""Each benchmark's leaderboard: the headline's column name and the breakdown beside it."""

STATISTIC_NAMES: dict[str, str] = {
    "blimp": "share of pairs passed",
    "sensitivity": "sensitivity",
    "sensitivity_thresholded": "sensitivity (P difference > .01)",
    "accuracy@1": "accuracy@1",
    "accuracy@5": "accuracy@5",
    "mcc": "MCC",
    "accuracy": "accuracy",
}
"""Readable names of the statistics a breakdown shows."""

STATISTIC_RANGES: dict[str, tuple[float, float]] = {"mcc": (-1.0, 1.0)}
"""The range of a statistic that is not a share in [0, 1]: its heatmap's colour scale."""


def _breakdown(bench: str, label: str) -> Breakdown:
    for b in BREAKDOWNS[bench]:
        if b.label == label:
            return b
    raise ValueError(
        f"'breakdown' must be one of {[b.label for b in BREAKDOWNS[bench]]} for {bench} "
        f"(got {label!r})"
    )


_NPI_WORDS = {"simplequestions": "simple questions"}
"""The NPI file's environment names that are not words once ``_`` is a space."""


def level_label(bench: str, column: str, level: str) -> str:
    """A readable name for a breakdown level.

    Examples
    --------
    >>> level_label("npi", "environment", "only"), level_label("blimp", "UID", "adjunct_island")
    ('ONLY (only)', 'adjunct island')
    >>> level_label("npi", "environment", "simplequestions")
    'SMP-Q (simple questions)'
    """
    if bench == "npi" and column == "environment" and level in ENVIRONMENTS:
        readable = _NPI_WORDS.get(level, level.replace("_", " "))
        return f"{ENVIRONMENTS[level]} ({readable})"
    if bench == "npi" and column == "paradigm":
        return level
    return level.replace("_", " ")


def _levels(result: dict, b: Breakdown, statistic: str) -> dict[str, tuple[float | None, int]]:
    """Level → (value of ``statistic``, number of pairs / items / sentences) in one result."""
    body = result.get(b.section)
    if body is None:
        return {}
    if b.section == "pairs":
        groups = body["groups"].get(b.column, {})
        return {k: (v["blimp"], v["n_pairs"]) for k, v in groups.items()}
    if b.section == "labelled":
        return {k: (v[statistic], v["n"]) for k, v in body["splits"].items()}
    n_key = "n_accuracy_items" if statistic.startswith("accuracy") else "n_sensitivity_items"
    out = {}
    for name, s in body["sets"].items():
        if b.column == "set":
            out[name] = (s[statistic], s[n_key])
        else:
            for cond, c in s["conditions"].items():
                out[f"{name} / {cond}"] = (c[statistic], c[n_key])
            if not s["conditions"]:
                out[name] = (s[statistic], s[n_key])
    return out


def family_leaderboard(view: BenchmarkData, uploads: Sequence[FamilyEntry]) -> pd.DataFrame:
    """The benchmark's leaderboard: models (shared, then ``uploads``), best headline first;
    columns Model, the headline, the main breakdown's levels, Kind, and what each scores
    file's metadata says (:func:`~space.ui.leaderboard.with_metadata`: parameters, date, page),
    as on the LI-Adger leaderboard. The human row is not ranked here (:func:`human_frame`).

    Examples
    --------
    >>> from space.data.toy import toy_benchmark_data
    >>> df = family_leaderboard(toy_benchmark_data(), [])
    >>> print(df.iloc[:, :4].to_string(index=False))
       Model  BLiMP (mean over paradigms)  syntax         Kind
    toy-good                         0.75    0.75 results file
     toy-bad                         0.25    0.25 results file
    >>> list(df.columns[4:])
    ['Parameters', 'Date', 'Link']
    """
    headline, label = LEADERBOARD[view.name]
    entries = [*view.entries, *uploads]
    df = with_metadata(_frame(view, entries, headline, label), [e.metadata for e in entries])
    return df.sort_values(headline, ascending=False, na_position="last", kind="stable").reset_index(
        drop=True
    )


def human_frame(view: BenchmarkData) -> pd.DataFrame:
    """The benchmark's human row in the leaderboard's columns, or an empty frame.

    Examples
    --------
    >>> from space.data.toy import toy_benchmark_data
    >>> human_frame(toy_benchmark_data())[["Model", "syntax"]].values.tolist()
    [['human', 1.0]]
    """
    headline, label = LEADERBOARD[view.name]
    return _frame(view, [view.human] if view.human else [], headline, label)


def _frame(view: BenchmarkData, entries: Sequence[FamilyEntry], headline: str, label: str):
    b = _breakdown(view.name, label)
    rows = []
    for e in entries:
        row = {"Model": e.name, headline: finite_or_none(e.headline)}
        for level, (value, _) in _levels(e.result, b, b.statistics[0]).items():
            row[level_label(view.name, b.column, level)] = finite_or_none(value)
        rows.append({**row, "Kind": e.kind})
    df = pd.DataFrame(rows)
    if not len(df):
        return pd.DataFrame(columns=["Model", headline, "Kind"])
    return df[[c for c in df.columns if c != "Kind"] + ["Kind"]]  # Kind last for every row


def breakdown_frame(
    view: BenchmarkData, uploads: Sequence[FamilyEntry], label: str, statistic: str | None = None
) -> pd.DataFrame:
    """Levels (rows) × models (columns) of one breakdown, with the level's size ``n``; the
    human row, when there is one, is the last column. ``statistic`` defaults to the
    breakdown's first.

    Examples
    --------
    >>> from space.data.toy import toy_benchmark_data
    >>> print(breakdown_frame(toy_benchmark_data(), [], "per paradigm").to_string(index=False))
    paradigm  n  toy-good  toy-bad  human
           a  2       1.0      0.5    1.0
           b  2       0.5      0.0    1.0
    """
    b = _breakdown(view.name, label)
    statistic = statistic or b.statistics[0]
    if statistic not in b.statistics:
        raise ValueError(f"'statistic' must be one of {b.statistics} (got {statistic!r})")
    entries = [*view.entries, *uploads, *([view.human] if view.human else [])]
    columns: dict[str, dict[str, float | None]] = {}
    sizes: dict[str, int] = {}
    for e in entries:
        levels = _levels(e.result, b, statistic)
        columns[e.name] = {k: finite_or_none(v) for k, (v, _) in levels.items()}
        for k, (_, n) in levels.items():
            if e is not view.human:
                sizes.setdefault(k, n)
    index = list(sizes) or list(dict.fromkeys(k for c in columns.values() for k in c))
    name = {"UID": "paradigm", "set/condition": "set / condition"}.get(b.column, b.column)
    name = name.replace("_", " ")
    df = pd.DataFrame(
        {
            name: [level_label(view.name, b.column, k) for k in index],
            "n": [sizes.get(k) for k in index],
            **{m: [col.get(k) for k in index] for m, col in columns.items()},
        }
    )
    return df


def breakdown_figure(frame: pd.DataFrame, title: str, statistic: str) -> Figure | None:
    """A heatmap of :func:`breakdown_frame` (levels × models) of ``statistic``, its colour bar
    naming the statistic and spanning its range (MCC from −1, the shares from 0, to 1), or
    ``None`` without a model.

    Examples
    --------
    >>> from space.data.toy import toy_benchmark_data
    >>> frame = breakdown_frame(toy_benchmark_data(), [], "per paradigm")
    >>> f = breakdown_figure(frame, "t", "blimp")
    >>> [t.get_text() for t in f.axes[0].get_yticklabels()], f.axes[1].get_xlabel()
    (['a', 'b'], 'share of pairs passed')
    >>> breakdown_figure(frame, "t", "mcc").axes[0].images[0].get_clim()
    (-1.0, 1.0)
    """
    models = list(frame.columns[2:])
    if not models or frame.empty:
        return None
    matrix = frame[models].to_numpy(dtype=float)
    low, high = STATISTIC_RANGES.get(statistic, (0.0, 1.0))
    return figures.level_heatmap(
        matrix,
        list(frame.iloc[:, 0].astype(str)),
        models,
        title=title,
        value_label=STATISTIC_NAMES.get(statistic, statistic),
        vmin=low,
        vmax=high,
    )


def prediction_choices(view: BenchmarkData) -> list[str]:
    """The expected completions (unit ids) that some model has top predictions for.

    Examples
    --------
    >>> from space.data.toy import toy_benchmark_data
    >>> prediction_choices(toy_benchmark_data())
    []
    """
    ids: dict[str, None] = {}
    for e in view.entries:
        ids.update(dict.fromkeys(e.top or {}))
    return list(ids)


def item_predictions(
    view: BenchmarkData, uploads: Sequence[FamilyEntry], unit: str
) -> tuple[str, pd.DataFrame]:
    """For one expected completion of a cloze item: a line with its context (when the
    benchmark's items can be read) and each model's rank of it and top predictions.

    Examples
    --------
    >>> from space.data.toy import toy_benchmark_data
    >>> item_predictions(toy_benchmark_data(), [], "x")[1].empty
    True
    """
    rows = []
    for e in [*view.entries, *uploads]:
        if e.top is None or unit not in e.top:
            continue
        rank = None if e.ranks is None else e.ranks.get(unit)
        rows.append({"Model": e.name, "Rank": rank, "Top predictions": ", ".join(e.top[unit][:10])})
    text = f"`{unit}`"
    try:
        units = view.load_items().units.set_index("id")
    except ItemsUnavailable:
        units = None
    if units is not None and "context" in units.columns and unit in units.index:
        u = units.loc[unit]
        text = f"*{u['context']}* **___** — expected: **{u['completion']}** (`{unit}`)"
    if not rows:
        text += ": no model here has top predictions for it (a scores file's `top` field)."
    return text, pd.DataFrame(rows, columns=["Model", "Rank", "Top predictions"])
