"""Everything the page shows, in one object: :class:`SpaceData`.

LI-Adger (its pairs, the models on it, the human ceiling), the other benchmarks of the family
(:class:`space.data.benchmark_data.BenchmarkData`), and the submissions approved while the app
runs (:class:`space.data.submissions.Submissions`). Made once at start-up by
:func:`space.data.loaders.load_space_data` and shared by every session.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from metric_adc.pairs import PairTable
from space.data.benchmark_data import LI_ADGER, BenchmarkData
from space.data.entries import Ceiling, ModelEntry
from space.data.submissions import Submissions

__all__ = ["SpaceData"]


@dataclass(frozen=True)
class SpaceData:
    """Everything the app shows, loaded once (:func:`space.data.loaders.load_space_data`).

    LI-Adger: ``pairs`` (the metric's pair table), ``frame`` (one row per pair, same order,
    with the columns the pair explorer shows: :data:`space.data.dataset.FRAME_COLUMNS`),
    ``models`` (reference, offline and results models), ``acceptable`` (sentence id → expert
    label), ``ceiling`` (or ``None``) and ``labels`` (phenomenon → readable short name).
    ``benchmarks`` holds the other benchmarks' views, by name; ``submissions`` the moderated
    submissions (``None`` when submitting is off); ``notes`` says what is missing and why;
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
    submissions: Submissions | None = None
    notes: list[str] = field(default_factory=list)

    def approved(self, benchmark: str) -> list:
        """The approved submissions on ``benchmark`` (none when submitting is off)."""
        return [] if self.submissions is None else self.submissions.approved(benchmark)

    def shared_models(self) -> list[ModelEntry]:
        """The LI-Adger models every session sees: loaded at start-up, then the approved
        submissions."""
        shown = {m.name for m in self.models}
        return [*self.models, *(e for e in self.approved(LI_ADGER) if e.name not in shown)]

    def by_name(self, extra: Sequence[ModelEntry] = ()) -> dict[str, ModelEntry]:
        """Model name → entry, for the shared models followed by ``extra`` (a session's uploads)."""
        return {m.name: m for m in [*self.shared_models(), *extra]}
