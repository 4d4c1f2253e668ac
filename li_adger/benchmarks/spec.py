"""What a benchmark is: its description (:class:`Benchmark`) and its items (:class:`Items`).

A benchmark is described once, declaratively: its pinned files, the form of its items (one of
three code paths, :data:`FORMS`), how its files become :class:`Items`, its breakdown columns,
its headline number, the metrics that apply and its reference rows. Everything downstream
(scorers, metric, report, app) reads these descriptions; adding a benchmark means adding a
description and its reader, nothing else.

:class:`Items` has the same shape for every benchmark — four pandas DataFrames:

``units``
    What a scorer scores, one row per unique unit, with unique readable string ids.
    ``"pairs"`` and ``"labelled"``: columns ``id, sentence``; ``"cloze"``: ``id, context,
    completion`` (the completion follows the context after one space and ends the sentence),
    or ``id, context, completion, after`` for a blank inside the sentence (``after``: the words
    after it, never empty; the context may then be empty: the NPI cloze test).
``comparisons``
    Minimal pairs over units: ``pair_id, good_id, bad_id`` and the benchmark's group columns
    (cloze comparisons also carry ``item_id``: a sensitivity item passes only if all its
    comparisons do).
``accuracy``
    Cloze only: one row per (item, expected completion): ``item_id, expected_id`` and the
    group columns. An item counts as predicted when *any* of its expected completions is.
``labels``
    ``"labelled"`` benchmarks (and LI-Adger's expert labels): ``id, label, split``; ``label``
    is ``True`` for an acceptable sentence.

A part that does not apply is an empty frame with the required columns.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

__all__ = [
    "ACCURACY_COLUMNS",
    "BIBLIOGRAPHY",
    "CLOZE_COMPARISON_COLUMNS",
    "COMPARISON_COLUMNS",
    "FORMS",
    "LABEL_COLUMNS",
    "SECTIONS",
    "UNIT_COLUMNS",
    "Benchmark",
    "Citation",
    "Headline",
    "Items",
    "ItemsError",
    "bibtex_entries",
    "empty_frame",
]

FORMS: tuple[str, ...] = ("pairs", "cloze", "labelled")
"""The three code paths: minimal pairs of sentences; a context and candidate completions of
its blank; sentences with a binary acceptability label."""

UNIT_COLUMNS: dict[str, tuple[str, ...]] = {
    "pairs": ("id", "sentence"),
    "labelled": ("id", "sentence"),
    "cloze": ("id", "context", "completion"),
}
COMPARISON_COLUMNS: tuple[str, ...] = ("pair_id", "good_id", "bad_id")
CLOZE_COMPARISON_COLUMNS: tuple[str, ...] = (*COMPARISON_COLUMNS, "item_id")
ACCURACY_COLUMNS: tuple[str, ...] = ("item_id", "expected_id")
LABEL_COLUMNS: tuple[str, ...] = ("id", "label", "split")


class ItemsError(ValueError):
    """Items that break the shape every benchmark shares (the message names the part,
    the column and an offending value)."""


def empty_frame(columns: tuple[str, ...] | list[str]) -> pd.DataFrame:
    """An empty frame with string columns: the value of a part that does not apply.

    Examples
    --------
    >>> empty_frame(LABEL_COLUMNS).columns.tolist()
    ['id', 'label', 'split']
    """
    return pd.DataFrame({c: pd.Series([], dtype=object) for c in columns})


BIBLIOGRAPHY = Path(__file__).with_name("citations.bib")
"""The BibTeX entries of every benchmark, one copy, cited by key (:attr:`Citation.keys`)."""

_ENTRY = re.compile(r"^@\w+\{(?P<key>[^,\s]+),.*?^\}", re.MULTILINE | re.DOTALL)


def bibtex_entries(text: str) -> dict[str, str]:
    """The entries of a BibTeX text by key, each as written (``@type{key, ...}``).

    Examples
    --------
    >>> bibtex_entries("% refs\\n@article{k1,\\n  year = {2020}\\n}\\n@book{k2,\\n}\\n")
    {'k1': '@article{k1,\\n  year = {2020}\\n}', 'k2': '@book{k2,\\n}'}
    """
    return {m["key"]: m[0] for m in _ENTRY.finditer(text)}


@dataclass(frozen=True)
class Citation:
    """How to cite a benchmark: a short form for tables and the keys of its BibTeX entries
    in :data:`BIBLIOGRAPHY`."""

    short: str
    keys: tuple[str, ...]

    @property
    def bibtex(self) -> str:
        """The BibTeX entries, in the order of :attr:`keys`.

        Examples
        --------
        >>> print(Citation("Ettinger (2020)", ("ettinger2020bert",)).bibtex.splitlines()[0])
        @article{ettinger2020bert,
        >>> Citation("Nobody (2024)", ("nobody2024",)).bibtex
        Traceback (most recent call last):
        KeyError: "no BibTeX entry 'nobody2024' in .../citations.bib"
        """
        entries = bibtex_entries(BIBLIOGRAPHY.read_text(encoding="utf-8"))
        missing = [k for k in self.keys if k not in entries]
        if missing:
            raise KeyError(f"no BibTeX entry {missing[0]!r} in {BIBLIOGRAPHY}")
        return "\n".join(entries[k] for k in self.keys)


@dataclass(frozen=True)
class Headline:
    """How a benchmark's one overall number is formed.

    ``statistic`` names the statistic (``"blimp"``: share of pairs whose acceptable member
    scores higher; ``"sensitivity"``: Ettinger's share of items preferring the good
    completion; ``"mcc"``: Matthews correlation). ``mean_over`` names the group column whose
    levels are averaged with equal weight (e.g. BLiMP's paradigms), or ``None`` for the
    statistic pooled over all comparisons (or labelled sentences).
    """

    statistic: str
    mean_over: str | None
    description: str


@dataclass(frozen=True)
class Items:
    """The items of one benchmark, in the shape every benchmark shares (see the module).

    Construction checks the shape: the required columns of each part, unique string unit
    ids, and that every id a part refers to is a unit id.

    Examples
    --------
    >>> units = pd.DataFrame({"id": ["a", "b"], "sentence": ["It rains.", "It rain."]})
    >>> pairs = pd.DataFrame({"pair_id": ["p"], "good_id": ["a"], "bad_id": ["b"]})
    >>> Items("toy", "pairs", units, pairs).comparisons.shape
    (1, 3)
    >>> Items("toy", "pairs", units, pairs.assign(bad_id=["c"]))
    Traceback (most recent call last):
    li_adger.benchmarks.spec.ItemsError: toy: comparisons.bad_id has 1 id(s) that are not unit ids, e.g. 'c'
    """

    benchmark: str
    form: str
    units: pd.DataFrame
    comparisons: pd.DataFrame = field(default_factory=lambda: empty_frame(COMPARISON_COLUMNS))
    accuracy: pd.DataFrame = field(default_factory=lambda: empty_frame(ACCURACY_COLUMNS))
    labels: pd.DataFrame = field(default_factory=lambda: empty_frame(LABEL_COLUMNS))

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise ItemsError(f"{self.benchmark}: form must be one of {FORMS} (got {self.form!r})")
        parts = {
            "units": UNIT_COLUMNS[self.form],
            "comparisons": CLOZE_COMPARISON_COLUMNS if self.form == "cloze" else COMPARISON_COLUMNS,
            "accuracy": ACCURACY_COLUMNS,
            "labels": LABEL_COLUMNS,
        }
        for part, required in parts.items():
            frame = getattr(self, part)
            if not isinstance(frame, pd.DataFrame):
                raise ItemsError(
                    f"{self.benchmark}: {part} must be a pandas DataFrame "
                    f"(got {type(frame).__name__})"
                )
            missing = [c for c in required if c not in frame.columns]
            if missing:
                raise ItemsError(
                    f"{self.benchmark}: {part} lacks column(s) {missing}; expected at least "
                    f"{list(required)} (got {list(frame.columns)})"
                )
        ids = self.units["id"]
        if len(ids) == 0:
            raise ItemsError(f"{self.benchmark}: units is empty")
        if pd.api.types.infer_dtype(ids, skipna=False) != "string" or (ids.str.len() == 0).any():
            bad = next(i for i in ids if not isinstance(i, str) or not i)
            raise ItemsError(f"{self.benchmark}: units.id must be non-empty strings (got {bad!r})")
        dup = ids[ids.duplicated()]
        if len(dup):
            raise ItemsError(
                f"{self.benchmark}: units.id must be unique (got {dup.iloc[0]!r} more than once)"
            )
        known = set(ids.to_numpy(object))
        for part, column in (
            ("comparisons", "good_id"),
            ("comparisons", "bad_id"),
            ("accuracy", "expected_id"),
            ("labels", "id"),
        ):
            unknown = [v for v in getattr(self, part)[column].to_numpy(object) if v not in known]
            if unknown:
                raise ItemsError(
                    f"{self.benchmark}: {part}.{column} has {len(unknown)} id(s) that are not "
                    f"unit ids, e.g. {unknown[0]!r}"
                )
        if len(self.labels) and not pd.api.types.is_bool_dtype(self.labels["label"]):
            raise ItemsError(
                f"{self.benchmark}: labels.label must be booleans, True = acceptable "
                f"(got dtype {self.labels['label'].dtype})"
            )
        if len(self.comparisons) and self.comparisons["pair_id"].duplicated().any():
            dup_pair = self.comparisons["pair_id"][self.comparisons["pair_id"].duplicated()]
            raise ItemsError(
                f"{self.benchmark}: comparisons.pair_id must be unique "
                f"(got {dup_pair.iloc[0]!r} more than once)"
            )


Reader = Callable[[Mapping[str, Path]], Items]
"""Turns the verified files (``{relpath: path}``) into :class:`Items`."""


SECTIONS: tuple[str, ...] = (
    "adc",
    "delta_sweep",
    "correlations",
    "ceiling",
    "bootstrap",
    "baseline",
    "linking",
    "classifier_mcc",
    "figure_3",
    "human_validation",
)
"""The report sections a benchmark may ask for in ``benchmarks.toml`` beside its rows. On
graded human judgements: the ADC at each δ, the δ sweep, the sentence- and pair-level
correlations, the human split-half row, bootstrap intervals, ``--baseline`` comparisons,
``--linking`` rows, and a CoLA classifier's MCC against expert labels. From a benchmark's
paper (printed text only): its Fig. 3 (the NPI cloze test by contrast and environment) and
its human validation (the NPI paper's MTurk table)."""


@dataclass(frozen=True)
class Benchmark:
    """The declarative description of one benchmark.

    Attributes
    ----------
    name
        Registry key: ``"li_adger"``, ``"blimp"``, ``"npi"``, ``"diagnostics"``, ``"cola"``.
    title, citation, license
        What it is, how to cite it, under which licence its data is published.
    files
        Keys of :data:`li_adger.sources.SOURCE_FILES` that :attr:`read` needs (verified
        before reading); reference files are in :attr:`reference_files`.
    form
        One of :data:`FORMS`: the code path of its items.
    read
        The reader: ``{relpath: verified path}`` → :class:`Items`.
    groups
        Breakdown columns, in order: of ``comparisons`` (cloze: also of ``accuracy``), or of
        ``labels`` for a labelled benchmark.
    headline
        How the overall number is formed (:class:`Headline`).
    metrics
        Names of the metric functions that apply, resolved by :mod:`metric_adc.family.statistics`.
    references
        Names of the reference-row sources, resolved by :mod:`metric_adc.family.statistics`.
    reference_files, read_references
        The files and the reader of the reference data (tidy frames keyed by reference
        name), when the benchmark's own data holds reference rows.
    sections
        The report sections the benchmark asks for (of :data:`SECTIONS`); a benchmark with
        ``adc`` among them is reported by the ADC report (:mod:`metric_adc.report.build`).
    """

    name: str
    title: str
    citation: Citation
    license: str
    files: tuple[str, ...]
    form: str
    read: Reader
    groups: tuple[str, ...]
    headline: Headline
    metrics: tuple[str, ...]
    references: tuple[str, ...] = ()
    reference_files: tuple[str, ...] = ()
    read_references: Callable[[Mapping[str, Path]], dict[str, pd.DataFrame]] | None = None
    sections: tuple[str, ...] = ()

    @property
    def judged(self) -> bool:
        """Whether the benchmark has graded human judgements: its report is the ADC report
        (ADC, δ sweep, correlations and the other :attr:`sections`), not the family's."""
        return "adc" in self.sections

    def checked(self, items: Items) -> Items:
        """``items`` as this benchmark's: :class:`Items` checks the shape every benchmark
        shares, this the benchmark's own group columns (of ``comparisons``, or of ``labels``
        for a labelled benchmark).

        Examples
        --------
        >>> units = pd.DataFrame({"id": ["a", "b"], "sentence": ["It rains.", "It rain."]})
        >>> pairs = pd.DataFrame({"pair_id": ["p"], "good_id": ["a"], "bad_id": ["b"]})
        >>> toy = Benchmark("toy", "Toy", Citation("", ()), "", (), "pairs", lambda p: None,
        ...                 ("field",), Headline("blimp", None, ""), ("blimp",))
        >>> toy.checked(Items("toy", "pairs", units, pairs))
        Traceback (most recent call last):
        li_adger.benchmarks.spec.ItemsError: toy: the reader's items lack the group column(s) ['field']
        """
        part = items.labels if self.form == "labelled" else items.comparisons
        missing = [g for g in self.groups if g not in part.columns]
        if missing:
            raise ItemsError(f"{self.name}: the reader's items lack the group column(s) {missing}")
        return items

    def __post_init__(self) -> None:
        unknown = [s for s in self.sections if s not in SECTIONS]
        if unknown:
            raise ValueError(
                f"benchmark {self.name!r}: sections must be among {SECTIONS} (got {unknown[0]!r})"
            )
        if self.form not in FORMS:
            raise ValueError(
                f"benchmark {self.name!r}: form must be one of {FORMS} (got {self.form!r})"
            )
        if self.headline.mean_over is not None and self.headline.mean_over not in self.groups:
            raise ValueError(
                f"benchmark {self.name!r}: headline.mean_over must be one of the groups "
                f"{self.groups} (got {self.headline.mean_over!r})"
            )
