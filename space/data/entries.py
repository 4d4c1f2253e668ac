"""What the app shows on LI-Adger: models precomputed once, the human ceiling, and the data.

A model enters the app as a :class:`ModelEntry`: its z-scores per sentence and its model
delta per pair are computed once (:func:`metric_adc.pairs.model_deltas`), together with the
statistics that do not depend on δ (BLiMP, Pearson, ADC area, the ADC(δ) curve). Moving the
δ slider then only recomputes ADC(δ) and its bootstrap interval. All the math is in
:mod:`metric_adc`; this module only holds its results.

:class:`SpaceData` is everything the page shows: LI-Adger (:class:`SpaceData` itself) and the
other benchmarks of the family (:class:`space.data.benchmark_data.BenchmarkData`); the models
kept on the leaderboard while the app runs are in its :class:`space.data.store.Kept`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from metric_adc import core, rows
from metric_adc.pairs import PairTable, model_deltas
from metric_adc.scores.file import ScoresFile

if TYPE_CHECKING:
    from space.data.benchmark_data import BenchmarkData
    from space.data.store import Kept

__all__ = [
    "FRAME_COLUMNS",
    "KIND_KEPT",
    "KIND_REFERENCE",
    "KIND_RESULTS",
    "KIND_SHIPPED",
    "KIND_THESIS",
    "KIND_UPLOAD",
    "Ceiling",
    "ModelEntry",
    "SpaceData",
    "entry_from_scores",
    "model_name",
    "unique_name",
]

KIND_THESIS = "thesis reference"
KIND_REFERENCE = "paper reference"
KIND_SHIPPED = "offline model"
KIND_RESULTS = "results file"
KIND_KEPT = "kept upload"
KIND_UPLOAD = "your upload"
"""What a leaderboard's *Kind* column says of a row: where the model comes from."""

FRAME_COLUMNS = [
    "pair_id",
    "source",
    "phenomenon",
    "good_id",
    "good_sentence",
    "good_judgement",
    "bad_id",
    "bad_sentence",
    "bad_judgement",
    "human_delta",
]
"""The columns of :attr:`SpaceData.frame` (one row per pair), in order."""


@dataclass(frozen=True, eq=False)
class ModelEntry:
    """One model on LI-Adger, precomputed for the app.

    ``z`` maps each scored sentence id to its z-score; ``model_delta`` holds Δlm for every
    pair of the pair table, in table order; ``row`` is the metric's result row (the
    δ-independent statistics, :func:`metric_adc.rows.model_row`); ``curve`` is the ADC(δ)
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


@dataclass(frozen=True)
class Ceiling:
    """The human split-half ceiling (LI pairs only): its result row and mean ADC(δ) curve.

    ``row`` is :func:`metric_adc.rows.ceiling_row` (with ``n_splits`` and ``seed``);
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


@dataclass(frozen=True)
class SpaceData:
    """Everything the app shows, loaded once (:func:`space.data.loaders.load_space_data`).

    LI-Adger: ``pairs`` (the metric's pair table), ``frame`` (one row per pair, same order,
    with the columns the pair explorer shows), ``models`` (reference, offline and results
    models), ``acceptable`` (sentence id → expert label), ``ceiling`` (or ``None``) and
    ``labels`` (phenomenon → readable short name). ``benchmarks`` holds the other benchmarks'
    views, by name; ``kept`` the models kept on the leaderboard since start-up (shared by
    every session; ``None`` when keeping is off); ``notes`` says what is missing and why;
    ``skipped`` lists ``(file, reason)`` for results files that were refused.
    """

    pairs: PairTable
    frame: pd.DataFrame
    models: list[ModelEntry]
    acceptable: dict[str, bool]
    ceiling: Ceiling | None = None
    skipped: list[tuple[str, str]] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    benchmarks: dict[str, BenchmarkData] = field(default_factory=dict)
    kept: Kept | None = None
    notes: list[str] = field(default_factory=list)

    def shared_models(self) -> list[ModelEntry]:
        """The LI-Adger models every session sees: loaded at start-up, then those kept since."""
        kept = [] if self.kept is None else self.kept.entries("li_adger")
        return [*self.models, *kept]

    def by_name(self, extra: Sequence[ModelEntry] = ()) -> dict[str, ModelEntry]:
        """Model name → entry, for the shared models followed by ``extra`` (a session's uploads)."""
        return {m.name: m for m in [*self.shared_models(), *extra]}


def entry_from_scores(
    scores: Mapping[str, float],
    pairs: PairTable,
    *,
    name: str,
    kind: str,
    standardize: bool = True,
    note: str | None = None,
) -> ModelEntry:
    """Precompute one model: z-scores, Δlm per pair, its result row and ADC(δ) curve.

    Raises :class:`ValueError` (from the metric) for unknown ids, a pair member without a
    score, constant or non-finite scores.

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c", "e"], ["b", "d", "f"],
    ...     {"a": 1.0, "b": -1.0, "c": 0.5, "d": 0.2, "e": 0.3, "f": -0.4})
    >>> e = entry_from_scores({"a": 3, "b": 1, "c": 2.5, "d": 2, "e": 1, "f": 0}, t,
    ...                       name="toy", kind=KIND_UPLOAD)
    >>> e.model_delta.round(3).tolist(), e.row["blimp"]
    ([1.966, 0.492, 0.983], 1.0)
    """
    scored = model_deltas(scores, pairs, standardize=standardize)
    row = rows.model_row(scored, pairs, model=name, note=note)
    curve = core.delta_sweep(scored.delta, pairs.human_delta)
    return ModelEntry(name, kind, scored.z, scored.delta, row, curve, note)


def model_name(sf: ScoresFile, fallback: str) -> str:
    """A display name for a scores file: the reports' row label of its metadata (model,
    variant, convention: :func:`metric_adc.scores.labels.row_label`), else ``fallback``.

    Examples
    --------
    >>> model_name(ScoresFile({"model": "gpt2", "variant": "slor"}, [], np.array([])), "f")
    'gpt2 (slor)'
    >>> meta = {"model": "smollm2", "variant": "logprob", "convention": "default"}
    >>> model_name(ScoresFile(meta, [], np.array([])), "f")
    'smollm2 (logprob, default)'
    >>> model_name(ScoresFile({}, [], np.array([])), "my_scores")
    'my_scores'
    """
    from metric_adc.scores.labels import row_label

    if not str(sf.metadata.get("model") or "").strip():
        return fallback
    return row_label(sf.metadata)


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name``, or ``name #2``, ``name #3`` … if it is already taken.

    Examples
    --------
    >>> unique_name("gpt2", {"gpt2", "gpt2 #2"}), unique_name("bert", {"gpt2"})
    ('gpt2 #3', 'bert')
    """
    if name not in taken:
        return name
    k = 2
    while f"{name} #{k}" in taken:
        k += 1
    return f"{name} #{k}"
