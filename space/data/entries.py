"""A model on LI-Adger as the app holds it, precomputed once; and the human ceiling.

A model enters the app as a :class:`ModelEntry`: its z-scores per sentence and its model
delta per pair are computed once (:func:`metric_adc.pairs.model_deltas`), together with the
statistics that do not depend on δ (BLiMP, Pearson, ADC area, the ADC(δ) curve). Moving the
δ slider then only recomputes ADC(δ) and its bootstrap interval. All the math is in
:mod:`metric_adc`; this module only holds its results.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from metric_adc import core, result_rows
from metric_adc.pairs import PairTable, model_deltas

__all__ = ["Ceiling", "ModelEntry", "entry_from_scores"]


@dataclass(frozen=True, eq=False)
class ModelEntry:
    """One model on LI-Adger, precomputed for the app.

    ``z`` maps each scored sentence id to its z-score; ``model_delta`` holds Δlm for every
    pair of the pair table, in table order; ``row`` is the metric's result row (the
    δ-independent statistics, :func:`metric_adc.result_rows.model_row`); ``curve`` is the ADC(δ)
    sweep of :func:`metric_adc.core.delta_sweep`. Entries compare and hash by identity (a
    session's state is hashed to detect changes).
    """

    name: str
    kind: str
    z: dict[str, float]
    model_delta: np.ndarray
    row: dict
    curve: dict
    note: str | None = None
    metadata: Mapping | None = None


@dataclass(frozen=True)
class Ceiling:
    """The human split-half ceiling (LI pairs only): its result row and mean ADC(δ) curve.

    ``row`` is :func:`metric_adc.result_rows.ceiling_row` (with ``n_splits`` and ``seed``);
    ``deltas``/``adc`` the mean ADC(δ) over the split-halves on a grid of δ.
    """

    row: dict
    deltas: np.ndarray
    adc: np.ndarray
    note: str

    def adc_at(self, delta: float) -> float:
        """Mean split-half ADC at ``delta``: the row's value at its own δs (0.5, 1, 5), else
        the curve's value at the largest grid δ ≤ ``delta``.

        Examples
        --------
        >>> c = Ceiling({"adc": {"1.0": 0.7}}, np.array([0.5, 1.0]), np.array([0.6, 0.8]), "")
        >>> c.adc_at(0.5), c.adc_at(0.99), c.adc_at(1.0), c.adc_at(3.0)
        (0.6, 0.6, 0.7, 0.8)
        """
        fixed = self.row.get("adc", {}).get(core.delta_key(delta))
        if fixed is not None:
            return float(fixed)
        k = int(np.searchsorted(self.deltas, delta + 1e-9, side="right")) - 1
        return float(self.adc[max(k, 0)])


def entry_from_scores(
    scores: Mapping[str, float],
    pairs: PairTable,
    *,
    note: str | None = None,
    name: str,
    kind: str,
    standardize: bool = True,
    metadata: Mapping | None = None,
) -> ModelEntry:
    """Precompute one model: z-scores, Δlm per pair, its result row and ADC(δ) curve.

    ``standardize=False`` takes ``scores`` as z-scores already (the thesis's trigram, z-scored
    over a larger population than its files hold); ``metadata`` is its scores file's (the
    page's link, size and date columns). Raises :class:`ValueError` (from the
    metric) for unknown ids, a pair member without a score, constant or non-finite scores.

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c", "e"], ["b", "d", "f"],
    ...     {"a": 1.0, "b": -1.0, "c": 0.5, "d": 0.2, "e": 0.3, "f": -0.4})
    >>> e = entry_from_scores({"a": 3, "b": 1, "c": 2.5, "d": 2, "e": 1, "f": 0}, t,
    ...                       name="toy", kind="results file")
    >>> e.model_delta.round(3).tolist(), e.row["blimp"]
    ([1.966, 0.492, 0.983], 1.0)
    """
    scored = model_deltas(scores, pairs, standardize=standardize)
    row = result_rows.model_row(scored, pairs, model=name, note=note).to_json_dict()
    curve = core.delta_sweep(scored.delta, pairs.human_delta)
    return ModelEntry(name, kind, scored.z, scored.delta, row, curve, note, metadata)
