"""The LI-Adger leaderboard at a chosen δ, and the human ceiling shown apart from it.

The leaderboard ranks models on the 2,365 pairs. The human split-half ceiling covers the
1,174 LI pairs only (the Adger part has no participant-level data), so it is never ranked
among them: :func:`ceiling_frame` shows it in a table of its own, beside every model's
numbers on those same LI pairs. (:func:`styled`, which formats a table for display, is
:func:`space.ui.standards.styled`.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from metric_adc import bootstrap, core
from space.data.entries import ModelEntry
from space.data.names import model_date, model_link, model_parameters
from space.data.space_data import SpaceData
from space.ui.standards import HIGHLIGHT, styled

__all__ = [
    "CEILING_SOURCE",
    "CI_RESAMPLES",
    "CI_SEED",
    "HIGHLIGHT",
    "METADATA_COLUMNS",
    "adc_column",
    "adc_with_ci",
    "board_datatypes",
    "ceiling_frame",
    "finite_or_none",
    "leaderboard_frame",
    "linked",
    "ranked",
    "styled",
    "with_metadata",
]

CI_SEED = 20210601
"""Seed of the bootstrap generator: every interval in the app is reproducible."""

CI_RESAMPLES = 1000
"""Bootstrap resamples per interval (resampling phenomena, which are few, keeps this fast)."""

METADATA_COLUMNS = ("Parameters", "Date", "Link")
"""The leaderboard's columns from a model's scores-file metadata (empty where it has none)."""


def with_metadata(df: pd.DataFrame, metadata: Sequence[Mapping | None]) -> pd.DataFrame:
    """``df`` (one row per model) with the :data:`METADATA_COLUMNS` of each row's scores-file
    ``metadata`` appended: its parameters (whole numbers), the day it was scored and its page
    (:mod:`space.data.names`; empty where the metadata has none, as a reference row's).

    Examples
    --------
    >>> meta = [{"parameters": 124439808, "created": "2026-11-23T22:40:25Z",
    ...          "model": "openai-community/gpt2", "revision": "607a30d"}, None]
    >>> df = with_metadata(pd.DataFrame({"Model": ["gpt2", "ref"]}), meta)
    >>> df["Parameters"].tolist(), df["Date"][0], df["Date"].isna().tolist()
    ([124439808, <NA>], '2026-11-23', [False, True])
    >>> df["Link"][0]
    'https://huggingface.co/openai-community/gpt2/tree/607a30d'
    """
    return df.assign(
        Parameters=pd.array([model_parameters(m) for m in metadata], dtype="Int64"),
        Date=[model_date(m) for m in metadata],
        Link=[model_link(m) for m in metadata],
    )


def linked(board: pd.DataFrame) -> pd.DataFrame:
    """A leaderboard as the page shows it: its ``Link`` a Markdown link to the model's page
    (empty without one); the CSV keeps the address itself.

    Examples
    --------
    >>> linked(pd.DataFrame({"Link": ["https://x.org/m", None]}))["Link"].tolist()
    ['[page](https://x.org/m)', '']
    """
    return board.assign(
        Link=[f"[page]({u})" if isinstance(u, str) and u else "" for u in board["Link"]]
    )


def board_datatypes(columns: Sequence[str]) -> list[str]:
    """A leaderboard's column types for :class:`gradio.Dataframe`: ``Link`` Markdown (a
    clickable page), every other column text as :func:`styled` formats it.

    Examples
    --------
    >>> board_datatypes(["Model", "BLiMP", "Link"])
    ['str', 'str', 'markdown']
    """
    return ["markdown" if c == "Link" else "str" for c in columns]


CEILING_SOURCE = "LI"
"""The source whose pairs the human ceiling covers."""


def finite_or_none(x: float | None) -> float | None:
    """``x`` rounded to 3 decimals, or ``None`` when undefined (for tables).

    Examples
    --------
    >>> finite_or_none(0.12345), finite_or_none(None), finite_or_none(float("nan"))
    (0.123, None, None)
    """
    if x is None or not math.isfinite(x):
        return None
    return round(float(x), 3)


def adc_column(delta: float) -> str:
    """The header of the ADC column, naming δ so that a reader sees which δ is shown.

    Examples
    --------
    >>> adc_column(0.5), adc_column(1)
    ('ADC δ=0.50', 'ADC δ=1.00')
    """
    return f"ADC δ={core.check_delta(delta):.2f}"


def adc_with_ci(
    entry: ModelEntry, human_delta: np.ndarray, clusters: Sequence[str] | None, delta: float
) -> dict:
    """ADC(δ) of one model with a 95% bootstrap interval that resamples phenomena.

    The generator is seeded with :data:`CI_SEED` on every call, so an interval is the same
    on every page load and for every user.

    Examples
    --------
    >>> e = ModelEntry("m", "k", {}, np.array([1.0, 0.2, -0.3, 0.8]), {}, {})
    >>> ci = adc_with_ci(e, np.array([1.1, 0.9, 0.5, 0.7]), ["a", "a", "b", "c"], 0.5)
    >>> ci["estimate"], ci["low"] <= ci["estimate"] <= ci["high"]
    (0.5, True)
    """
    return bootstrap.bootstrap_ci(
        entry.model_delta,
        human_delta,
        statistic="adc",
        delta=delta,
        rng=np.random.default_rng(CI_SEED),
        n_resamples=CI_RESAMPLES,
        clusters=clusters,
    )


def _ci_text(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return "—"
    return f"{low:.3f}–{high:.3f}"


def ranked(entries: Sequence[ModelEntry], human_delta: np.ndarray, delta: float) -> list:
    """``entries`` in the leaderboard's order at ``delta``: best ADC(δ) first (ties and
    undefined values keep their order, undefined last).

    Examples
    --------
    >>> a = ModelEntry("a", "k", {}, np.array([1.0, 0.0]), {}, {})
    >>> b = ModelEntry("b", "k", {}, np.array([1.0, 1.0]), {}, {})
    >>> [e.name for e in ranked([a, b], np.array([1.0, 1.0]), 0.5)]
    ['b', 'a']
    """
    score = [core.adc(e.model_delta, human_delta, delta) for e in entries]
    key = [-s if s is not None and np.isfinite(s) else np.inf for s in score]
    return [entries[i] for i in np.argsort(key, kind="stable")]


def leaderboard_frame(data: SpaceData, uploads: Sequence[ModelEntry], delta: float) -> pd.DataFrame:
    """The leaderboard at ``delta``: every model (shared, then ``uploads``), best ADC(δ) first
    (:func:`ranked`, the order of every view that lists the models).

    Columns: Model, ADC δ=…, 95% CI (resampling phenomena), BLiMP, Kind, Human-sign, Pearson
    pairs, Pearson sentences, ADC area (δ ≤ 5), Pairs: the key columns first, which is what a
    phone shows; then what the scores file's metadata says (:data:`METADATA_COLUMNS`:
    parameters, the date it was scored, the model's page). The human ceiling is not a row here (:func:`ceiling_frame`).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> df = leaderboard_frame(toy_space_data(), [], 0.5)
    >>> print(df.iloc[:, :5].to_string(index=False))
         Model  ADC δ=0.50       95% CI  BLiMP         Kind
    toy-length       0.667 0.000–1.000  0.667 results file
    """
    delta = core.check_delta(delta)
    col = adc_column(delta)
    h = data.pairs.human_delta
    entries = ranked([*data.shared_models(), *uploads], h, delta)
    rows = []
    for e in entries:
        ci = adc_with_ci(e, h, data.pairs.phenomenon, delta)
        r = e.row
        rows.append(
            {
                "Model": e.name,
                "Kind": e.kind,
                "Pairs": r["n_pairs"],
                "BLiMP": finite_or_none(r["blimp"]),
                col: finite_or_none(ci["estimate"]),
                "95% CI": _ci_text(ci["low"], ci["high"]),
                "Human-sign": finite_or_none(r["human_sign"]),
                "Pearson pairs": finite_or_none(r["pearson_pairs"]),
                "Pearson sentences": finite_or_none(r["pearson_sentences"]),
                "ADC area": finite_or_none(r["adc_auc"]),
            }
        )
    columns = ["Model", col, "95% CI", "BLiMP", "Kind", "Human-sign", "Pearson pairs"]
    columns += ["Pearson sentences", "ADC area", "Pairs"]
    return with_metadata(pd.DataFrame(rows, columns=columns), [e.metadata for e in entries])


def ceiling_frame(data: SpaceData, uploads: Sequence[ModelEntry], delta: float) -> pd.DataFrame:
    """The human split-half ceiling at ``delta`` and, under it, every model on the same LI
    pairs (best first): the comparison the ceiling allows. Empty without a ceiling.

    Columns: Model, ADC δ=…, BLiMP, Pearson pairs, Kind, Pairs. A model's numbers here are its
    statistics restricted to the LI pairs (z-scores over all sentences, as in its leaderboard
    row).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> ceiling_frame(toy_space_data(), [], 0.5).empty
    True
    """
    col = adc_column(delta)
    columns = ["Model", col, "BLiMP", "Pearson pairs", "Kind", "Pairs"]
    if data.ceiling is None:
        return pd.DataFrame(columns=columns)
    c = data.ceiling.row
    human = {
        "Model": c["model"],
        "Kind": f"human ceiling ({c['n_splits']} split-halves, seed {c['seed']})",
        "Pairs": c["n_pairs"],
        "BLiMP": finite_or_none(c["blimp"]),
        col: finite_or_none(data.ceiling.adc_at(delta)),
        "Pearson pairs": finite_or_none(c["pearson_pairs"]),
    }
    sel = np.array([s == CEILING_SOURCE for s in data.pairs.source], dtype=bool)
    h = data.pairs.human_delta[sel]
    models = []
    for e in [*data.shared_models(), *uploads]:
        li = (e.row.get("by_group") or {}).get(CEILING_SOURCE, {})
        models.append(
            {
                "Model": e.name,
                "Kind": e.kind,
                "Pairs": li.get("n_pairs"),
                "BLiMP": finite_or_none(li.get("blimp")),
                col: finite_or_none(core.adc(e.model_delta[sel], h, delta)),
                "Pearson pairs": finite_or_none(li.get("pearson_pairs")),
            }
        )
    df = pd.DataFrame(models, columns=columns)
    df = df.sort_values(col, ascending=False, na_position="last", kind="stable")
    return pd.concat([pd.DataFrame([human], columns=columns), df], ignore_index=True)
