"""The pair explorer: filter pairs by source, phenomenon, pass/fail and two models' disagreement."""

from __future__ import annotations

import numpy as np
import pandas as pd

from metric_adc import core
from space.data.entries import ModelEntry
from space.data.space_data import SpaceData

__all__ = ["ALL", "DISAGREEMENTS", "MAX_ROWS", "OUTCOMES", "explore_pairs"]

ALL = "all"
OUTCOMES = (ALL, "pass", "fail")
"""Filter on model A's ADC(δ) outcome."""
DISAGREEMENTS = (ALL, "A passes, B fails", "A fails, B passes", "A and B differ")
"""Filter on how models A and B compare at δ (needs model B)."""
MAX_ROWS = 500
"""Rows sent to the browser at most; the summary line gives the full count."""


def _z(entry: ModelEntry, ids: pd.Series) -> np.ndarray:
    return np.array([entry.z.get(i, np.nan) for i in ids], dtype=float)


def explore_pairs(
    data: SpaceData,
    delta: float,
    model_a: ModelEntry,
    model_b: ModelEntry | None = None,
    *,
    source: str = ALL,
    phenomenon: str = ALL,
    outcome: str = ALL,
    disagreement: str = ALL,
    max_rows: int | None = MAX_ROWS,
) -> tuple[str, pd.DataFrame]:
    """A one-line summary and the matching pairs (at most ``max_rows``; all of them when
    ``None``): first what a phone
    shows (the pair, model A's ADC(δ) outcome, Δh, A's Δlm, model B's outcome and Δlm — empty
    without model B; the columns are always the same), then the sentences, the human and
    model A's z-scores, the phenomenon and the source.

    Pairs without a human judgement never pass, as in the metric, and are shown as such.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> d = toy_space_data()
    >>> text, df = explore_pairs(d, 0.5, d.models[0], outcome="fail")
    >>> text
    '1 pairs match: model A (toy-length) passes 0 of them at δ = 0.5'
    >>> df[["pair", "Δh", "A Δlm", "A"]].values.tolist()
    [['toy.1', 2.0, 0.0, 'fail']]
    """
    if outcome not in OUTCOMES:
        raise ValueError(f"'outcome' must be one of {OUTCOMES} (got {outcome!r})")
    if disagreement not in DISAGREEMENTS:
        raise ValueError(f"'disagreement' must be one of {DISAGREEMENTS} (got {disagreement!r})")
    f = data.frame
    h = data.pairs.human_delta
    pass_a = core.adc_pass(model_a.model_delta, h, delta)
    keep = np.ones(len(f), dtype=bool)
    if source != ALL:
        keep &= (f["source"] == source).to_numpy()
    if phenomenon != ALL:
        keep &= (f["phenomenon"] == phenomenon).to_numpy()
    if outcome != ALL:
        keep &= pass_a if outcome == "pass" else ~pass_a
    pass_b = None
    if model_b is not None:
        pass_b = core.adc_pass(model_b.model_delta, h, delta)
        if disagreement == DISAGREEMENTS[1]:
            keep &= pass_a & ~pass_b
        elif disagreement == DISAGREEMENTS[2]:
            keep &= ~pass_a & pass_b
        elif disagreement == DISAGREEMENTS[3]:
            keep &= pass_a != pass_b
    sel = f[keep]
    b_delta = np.full(int(keep.sum()), np.nan)
    b_outcome = np.full(int(keep.sum()), "", dtype=object)
    if model_b is not None and pass_b is not None:
        b_delta = np.round(model_b.model_delta[keep], 3)
        b_outcome = np.where(pass_b[keep], "pass", "fail")
    out = pd.DataFrame(
        {
            "pair": sel["pair_id"],
            "A": np.where(pass_a[keep], "pass", "fail"),
            "Δh": np.round(h[keep], 3),
            "A Δlm": np.round(model_a.model_delta[keep], 3),
            "B": b_outcome,
            "B Δlm": b_delta,
            "acceptable": sel["good_sentence"],
            "unacceptable": sel["bad_sentence"],
            "human z acc.": sel["good_judgement"].round(3),
            "human z unacc.": sel["bad_judgement"].round(3),
            "A z acc.": np.round(_z(model_a, sel["good_id"]), 3),
            "A z unacc.": np.round(_z(model_a, sel["bad_id"]), 3),
            "phenomenon": sel["phenomenon"],
            "source": sel["source"],
        }
    )
    n = int(keep.sum())
    n_pass = int(pass_a[keep].sum())
    text = (
        f"{n} pairs match: model A ({model_a.name}) passes {n_pass} of them at δ = {delta:g}"
        + (f"; model B = {model_b.name}" if model_b is not None else "")
        + (f" (showing the first {max_rows})" if max_rows is not None and n > max_rows else "")
    )
    return text, (out if max_rows is None else out.head(max_rows)).reset_index(drop=True)
