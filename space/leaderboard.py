"""The leaderboard table at a chosen δ: one row per model, plus the human ceiling row."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from metric_adc import bootstrap, core
from space.data import CI_RESAMPLES, CI_SEED, ModelEntry, SpaceData, finite_or_none

__all__ = ["CEILING_KIND", "adc_column", "adc_with_ci", "leaderboard_frame"]

CEILING_KIND = "human ceiling (LI pairs only)"


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

    The generator is seeded with :data:`~space.data.CI_SEED` on every call, so an interval
    is the same on every page load and for every user.

    Examples
    --------
    >>> import numpy as np
    >>> from space.data import ModelEntry
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


def leaderboard_frame(data: SpaceData, uploads: Sequence[ModelEntry], delta: float) -> pd.DataFrame:
    """The leaderboard at ``delta``, sorted by ADC(δ), best first.

    Columns: Model, Kind, Pairs, BLiMP, ADC δ=…, 95% CI (resampling phenomena),
    Human-sign, Pearson pairs, Pearson sentences, ADC area (δ ≤ 5).

    Examples
    --------
    >>> from space.data import toy_space_data
    >>> df = leaderboard_frame(toy_space_data(), [], 0.5)
    >>> print(df.iloc[:, :6].to_string(index=False))
         Model         Kind  Pairs  BLiMP  ADC δ=0.50       95% CI
    toy-length results file      3  0.667       0.667 0.000–1.000
    """
    delta = core.check_delta(delta)
    col = adc_column(delta)
    h = data.pairs.human_delta
    rows = []
    for e in [*data.models, *uploads]:
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
    if data.ceiling is not None:
        r = data.ceiling.row
        rows.append(
            {
                "Model": r["model"],
                "Kind": CEILING_KIND,
                "Pairs": r["n_pairs"],
                "BLiMP": finite_or_none(r["blimp"]),
                col: finite_or_none(data.ceiling.adc_at(delta)),
                "95% CI": "—",
                "Human-sign": None,
                "Pearson pairs": finite_or_none(r["pearson_pairs"]),
                "Pearson sentences": finite_or_none(r["pearson_sentences"]),
                "ADC area": None,
            }
        )
    df = pd.DataFrame(rows, columns=_columns(col))
    return df.sort_values(col, ascending=False, na_position="last", kind="stable").reset_index(
        drop=True
    )


def _columns(col: str) -> list[str]:
    return [
        "Model",
        "Kind",
        "Pairs",
        "BLiMP",
        col,
        "95% CI",
        "Human-sign",
        "Pearson pairs",
        "Pearson sentences",
        "ADC area",
    ]
