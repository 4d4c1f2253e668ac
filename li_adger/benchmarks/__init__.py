"""The benchmark family: LI-Adger, BLiMP, NPI licensing (pairs and cloze), Ettinger's diagnostics
and CoLA.

:data:`BENCHMARKS` is the one list of benchmarks, each described once by a
:class:`~li_adger.benchmarks.spec.Benchmark` made from its table in ``benchmarks.toml`` (what it
is, how to cite it, its headline, metrics and references) and its module's files and reader. :func:`load_items` verifies a benchmark's pinned
files through :mod:`li_adger.sources` (lookup order: ``source``, ``$LI_ADGER_SOURCE``,
``../shared/data``, the user cache, the pinned upstream URL) and reads them into
:class:`~li_adger.benchmarks.spec.Items`; :func:`load_references` reads the reference rows a
benchmark's own data holds. See ``docs/family.md`` for how each benchmark's rows become items.

Examples
--------
>>> from li_adger.benchmarks import BENCHMARKS, load_items
>>> list(BENCHMARKS)
['li_adger', 'blimp', 'npi', 'npi_cloze', 'diagnostics', 'cola']
>>> items = load_items("npi")
>>> items.form, len(items.comparisons)
('pairs', 5500)
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pandas as pd

from li_adger.benchmarks import blimp, cola, diagnostics, liadger, npi, npi_cloze
from li_adger.benchmarks.spec import Benchmark, Citation, Headline, Items, ItemsError, Reader
from li_adger.sources import find_sources

__all__ = [
    "BENCHMARKS",
    "Benchmark",
    "Citation",
    "Headline",
    "Items",
    "ItemsError",
    "benchmark",
    "load_items",
    "load_references",
]

DESCRIPTIONS = Path(__file__).with_name("benchmarks.toml")
"""What each benchmark is, how to cite it, its headline number, metrics and reference rows."""

_CODE: dict[str, tuple[tuple[str, ...], Reader, tuple[str, ...]]] = {
    "li_adger": (liadger.FILES, liadger.read, liadger.GROUPS),
    "blimp": (blimp.PARADIGM_FILES, blimp.read, blimp.GROUPS),
    "npi": ((npi.FILE,), npi.read, npi.GROUPS),
    "npi_cloze": ((npi_cloze.FILE,), npi_cloze.read, npi_cloze.GROUPS),
    "diagnostics": (tuple(diagnostics.FILES.values()), diagnostics.read, diagnostics.GROUPS),
    "cola": (tuple(cola.FILES.values()), cola.read, ("split",)),
}
"""Each benchmark's files, reader and group columns, from its module."""

_REFERENCE_CODE = {
    "blimp": ((*blimp.PARADIGM_FILES, blimp.HUMAN_FILE, blimp.MODELS_FILE), blimp.read_references),
}
"""The files and reader of the reference rows a benchmark's own data holds."""


def _describe(name: str, entry: dict) -> Benchmark:
    """The :class:`Benchmark` of one table of :data:`DESCRIPTIONS` and its module's code.

    Examples
    --------
    >>> _describe("npi", {"title": "NPI"})
    Traceback (most recent call last):
    ValueError: .../benchmarks.toml: [npi] lacks 'headline'
    >>> _describe("glue", {})
    Traceback (most recent call last):
    ValueError: .../benchmarks.toml: [glue] has no reader; expected one of ['li_adger', 'blimp', 'npi', 'npi_cloze', 'diagnostics', 'cola']
    """
    if name not in _CODE:
        raise ValueError(f"{DESCRIPTIONS}: [{name}] has no reader; expected one of {list(_CODE)}")
    try:
        files, read, groups = _CODE[name]
        headline = entry["headline"]
        reference_files, read_references = _REFERENCE_CODE.get(name, ((), None))
        return Benchmark(
            name=name,
            title=entry["title"],
            citation=Citation(entry["citation"], tuple(entry["bibtex"])),
            license=entry["license"],
            files=files,
            form=entry["form"],
            read=read,
            groups=groups,
            headline=Headline(
                headline["statistic"], headline.get("mean_over"), headline["description"]
            ),
            metrics=tuple(entry["metrics"]),
            references=tuple(entry.get("references", ())),
            reference_files=reference_files,
            read_references=read_references,
            sections=tuple(entry.get("sections", ())),
        )
    except KeyError as exc:
        raise ValueError(f"{DESCRIPTIONS}: [{name}] lacks {exc.args[0]!r}") from None


BENCHMARKS: dict[str, Benchmark] = {
    name: _describe(name, entry)
    for name, entry in tomllib.loads(DESCRIPTIONS.read_text(encoding="utf-8")).items()
}
if set(BENCHMARKS) != set(_CODE):
    raise ValueError(f"{DESCRIPTIONS}: expected a table for each of {sorted(_CODE)}")
"""The one list of benchmarks: name → description."""


def benchmark(name: str) -> Benchmark:
    """The description of a benchmark by name.

    Examples
    --------
    >>> benchmark("blimp").groups
    ('UID', 'linguistics_term', 'field')
    >>> benchmark("glue")
    Traceback (most recent call last):
    KeyError: "unknown benchmark 'glue'; expected one of ['li_adger', 'blimp', 'npi', 'npi_cloze', 'diagnostics', 'cola']"
    """
    try:
        return BENCHMARKS[name]
    except KeyError:
        raise KeyError(f"unknown benchmark {name!r}; expected one of {list(BENCHMARKS)}") from None


def load_items(name: str, *, source: str | os.PathLike | None = None) -> Items:
    """A benchmark's items, read from its verified source files.

    Raises
    ------
    li_adger.sources.SourceNotFoundError
        A file is in none of the places searched and could not be downloaded.
    li_adger.sources.ChecksumError
        A file differs from the pinned one.

    Examples
    --------
    >>> items = load_items("diagnostics")
    >>> items.form, len(items.units), sorted(items.comparisons["set"].unique())
    ('cloze', 395, ['CPRAG-102', 'NEG-136-NAT', 'NEG-136-SIMP', 'ROLE-88'])
    """
    spec = benchmark(name)
    return spec.checked(spec.read(find_sources(spec.files, source=source)))


def load_references(
    name: str, *, source: str | os.PathLike | None = None
) -> dict[str, pd.DataFrame]:
    """The reference rows a benchmark's own data holds, as tidy frames keyed by reference name
    (empty when it holds none; LI-Adger's thesis models come from :mod:`metric_adc.thesis.outputs`).

    Examples
    --------
    >>> sorted(load_references("blimp"))
    ['blimp-human', 'blimp-models']
    >>> load_references("npi")
    {}
    """
    spec = benchmark(name)
    if spec.read_references is None:
        return {}
    return spec.read_references(find_sources(spec.reference_files, source=source))
