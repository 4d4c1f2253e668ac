"""The full correlation matrix over the humans and every model (the thesis's Figures 2-4 and
3-1 on sentences, 2-6 and 3-3 on minimal pairs), pure.

Each cell is Pearson's r (:func:`metric_adc.correlation.pearson`) over the items both columns
know: a sentence without a score or a judgement, or a pair without a human delta, drops out of
that cell only.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import ArrayLike

from metric_adc.correlation import pearson
from metric_adc.pairs import ModelDeltas, PairTable

__all__ = ["HUMAN", "correlation_matrix", "level_columns"]

HUMAN = "human"
LEVELS = ("sentences", "pairs")


def correlation_matrix(columns: Mapping[str, ArrayLike]) -> dict:
    """``{"names": [...], "matrix": [[r, ...], ...], "n": [[n, ...], ...]}``: Pearson's r of
    every two columns over the rows both know (NaN = unknown); ``None`` where undefined.

    Examples
    --------
    >>> m = correlation_matrix({"h": [1.0, 2.0, 3.0, 4.0], "a": [2.0, 4.0, 6.0, float("nan")],
    ...                         "b": [4.0, 3.0, 2.0, 1.0]})
    >>> m["names"], m["matrix"][0], m["n"][0]
    (['h', 'a', 'b'], [1.0, 1.0, -1.0], [4, 3, 4])
    """
    names = list(columns)
    arrays = [np.asarray(columns[n], dtype=float) for n in names]
    sizes = {a.shape for a in arrays}
    if len(sizes) > 1:
        raise ValueError(f"the columns must be of equal length (got shapes {sorted(sizes)})")
    matrix: list[list[float | None]] = []
    counts: list[list[int]] = []
    for a in arrays:
        matrix.append([pearson(a, b) for b in arrays])
        counts.append([int(np.sum(~np.isnan(a) & ~np.isnan(b))) for b in arrays])
    return {"names": names, "matrix": matrix, "n": counts}


def level_columns(
    pairs: PairTable, models: Mapping[str, ModelDeltas], level: str
) -> dict[str, np.ndarray]:
    """The columns of one level: on ``"sentences"`` the human judgement and each model's
    z-score per sentence of ``pairs.judgements``; on ``"pairs"`` ``Δh`` and each model's
    ``Δlm`` per pair.

    Examples
    --------
    >>> t = PairTable.from_judgements(["g"], ["b"], {"g": 1.0, "b": 0.0})
    >>> md = ModelDeltas({"g": 0.5}, np.array([np.nan]), 1, True)
    >>> level_columns(t, {"m": md}, "sentences")["m"].tolist()
    [0.5, nan]
    """
    if level == "sentences":
        ids = list(pairs.judgements)
        out = {HUMAN: np.array([pairs.judgements[i] for i in ids], dtype=float)}
        for name, md in models.items():
            out[name] = np.array([md.z.get(i, np.nan) for i in ids], dtype=float)
        return out
    if level == "pairs":
        return {HUMAN: np.asarray(pairs.human_delta, dtype=float)} | {
            name: np.asarray(md.delta, dtype=float) for name, md in models.items()
        }
    raise ValueError(f"'level' must be one of {LEVELS} (got {level!r})")
