"""The other benchmarks of the family (BLiMP, NPI, diagnostics, CoLA) as the app holds them.

A model on one of them is a :class:`FamilyEntry`: its result in the shape of
:func:`metric_adc.family.statistics.evaluate_items` (fixed keys for every benchmark), and for a cloze
benchmark the rank and top predictions of each expected completion when its scores file has
them. :class:`BenchmarkData` is one benchmark's models, reference rows and human row.

The benchmark's items (its source files, :func:`li_adger.benchmarks.load_items`) are needed
only to evaluate a scores file, never to show the shipped results: :func:`benchmark_items`
reads them on first use and remembers them, or why they could not be read.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from li_adger.benchmarks import BENCHMARKS, Benchmark, Items, load_items
from li_adger.sources import ChecksumError, SourceNotFoundError
from metric_adc.family.outcomes import KINDS
from metric_adc.family.statistics import evaluate_items
from metric_adc.scores.file import ScoresFile

__all__ = [
    "FAMILY",
    "LI_ADGER",
    "TITLES",
    "BenchmarkData",
    "FamilyEntry",
    "ItemsUnavailable",
    "benchmark_items",
    "family_entry_from_scores",
]


LI_ADGER = "li_adger"
"""The benchmark of the ADC, with a tab of its own (:mod:`space.ui.tab_li_adger`)."""

FAMILY = tuple(name for name in BENCHMARKS if name != LI_ADGER)
"""The other benchmarks, each with a view of its own beside LI-Adger's."""

TITLES: dict[str, str] = {
    "li_adger": "LI-Adger",
    "blimp": "BLiMP",
    "npi": "NPI",
    "npi_cloze": "NPI cloze",
    "diagnostics": "Diagnostics",
    "cola": "CoLA",
}
"""Each benchmark's short title (its tab's name)."""


@dataclass(frozen=True, eq=False)
class FamilyEntry:
    """One model (or reference row) on one benchmark.

    ``result`` is :func:`metric_adc.family.statistics.evaluate_items`'s dict; ``ranks`` and ``top`` map
    a cloze benchmark's expected completions (unit ids) to their rank among the model's
    predictions and to the model's top predictions (``None`` when the scores file has none).
    """

    name: str
    kind: str
    result: dict
    note: str | None = None
    ranks: dict[str, int] | None = None
    top: dict[str, list[str]] | None = None
    metadata: dict | None = None
    """The scores file's metadata (a model's page, size and date), ``None`` for a reference."""

    @property
    def headline(self) -> float | None:
        """The benchmark's headline number for this model."""
        return self.result["headline"]["value"]


@dataclass(frozen=True)
class BenchmarkData:
    """One benchmark in the app: its description, models, human row and what was left out.

    ``entries`` are ranked on its leaderboard (offline models shipped with the app, results
    files, the paper's own models); ``human`` is the human reference row, shown apart from
    the ranking (it covers other pairs, e.g. BLiMP's 5 validated pairs per paradigm);
    ``items`` the benchmark's items when already loaded (else :func:`benchmark_items` reads
    them when an upload needs them); ``notes`` and ``skipped`` say what is missing and why.
    """

    spec: Benchmark
    entries: list[FamilyEntry]
    human: FamilyEntry | None = None
    items: Items | None = None
    notes: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The benchmark's name (``"blimp"``, …)."""
        return self.spec.name

    def load_items(self) -> Items:
        """The benchmark's items: those held, else :func:`benchmark_items`."""
        return self.items if self.items is not None else benchmark_items(self.spec.name)


class ItemsUnavailable(RuntimeError):
    """A benchmark's source files cannot be found or verified, so nothing can be evaluated on it."""


_items: dict[str, Items] = {}
_unavailable: dict[str, str] = {}
_lock = threading.Lock()


def benchmark_items(name: str) -> Items:
    """The items of benchmark ``name``, read once per process.

    A failure is remembered too (a lookup may wait for the network): the next call raises
    at once.

    Raises
    ------
    ItemsUnavailable
        The source files are in none of the places searched, or differ from the pinned ones.

    Examples
    --------
    >>> len(benchmark_items("npi").comparisons)
    5500
    """
    with _lock:
        if name in _items:
            return _items[name]
        if name in _unavailable:
            raise ItemsUnavailable(_unavailable[name])
        try:
            _items[name] = load_items(name)
        except (SourceNotFoundError, ChecksumError) as exc:
            _unavailable[name] = (
                f"the {name} source files are not available here, so scores cannot be "
                f"evaluated on it ({exc})"
            )
            raise ItemsUnavailable(_unavailable[name]) from None
        return _items[name]


def family_entry_from_scores(
    spec: Benchmark, items: Items, sf: ScoresFile, *, name: str, kind: str
) -> FamilyEntry:
    """Evaluate a scores file on one benchmark (:func:`metric_adc.family.statistics.evaluate_items`).

    The scorer's kind is the file's ``kind`` metadata (it decides the CoLA threshold); a
    cloze file's ``rank`` and ``top`` fields give accuracy and the top predictions of each
    expected completion. Raises :class:`ValueError` (from the metric) naming a unit without a
    score or an id that is not a unit of the benchmark.

    Examples
    --------
    >>> import numpy as np
    >>> from space.data.toy import toy_items
    >>> from li_adger.benchmarks import BENCHMARKS
    >>> items = toy_items()
    >>> ids = items.units["id"].tolist()
    >>> sf = ScoresFile({"model": "m", "kind": "ngram"}, ids, -np.arange(8.0))
    >>> e = family_entry_from_scores(BENCHMARKS["blimp"], items, sf, name="m", kind="upload")
    >>> e.headline, e.ranks, e.top
    (1.0, None, None)
    """
    scorer_kind = sf.metadata.get("kind")
    scorer_kind = scorer_kind if scorer_kind in KINDS else None
    all_ranks = ranks = top = None
    if spec.form == "cloze":
        expected = set(items.accuracy["expected_id"])
        if "rank" in sf.fields:
            all_ranks = dict(zip(sf.ids, sf.fields["rank"], strict=True))
            ranks = {i: r for i, r in all_ranks.items() if i in expected}
        if "top" in sf.fields:
            top = {i: t for i, t in zip(sf.ids, sf.fields["top"], strict=True) if i in expected}
    result = evaluate_items(spec, items, sf.as_dict(), ranks=all_ranks, kind=scorer_kind)
    return FamilyEntry(name, kind, result, ranks=ranks, top=top, metadata=dict(sf.metadata))
