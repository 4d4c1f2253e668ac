"""What a scoring run scores: the units of a benchmark, or the sentences of a table file.

:func:`load_units` reads a benchmark of :mod:`li_adger.benchmarks` (sentences, or
:class:`~baselines.interface.ClozeUnit` for a cloze benchmark) or a ``.csv``/``.jsonl``/
``.parquet`` file with ``id`` and ``sentence`` columns; :func:`dataset_metadata` is what a scores
file records to identify that data; :func:`can_score` says whether a scorer scores a
benchmark's form.

Examples
--------
>>> DATASETS
('li_adger', 'blimp', 'npi', 'npi_cloze', 'diagnostics', 'cola')
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from baselines.interface import ClozeScorer, ClozeUnit, Scorer
from li_adger.benchmarks import BENCHMARKS
from li_adger.io.sentence_table import TABLE_SUFFIXES, read_sentence_table

if TYPE_CHECKING:
    from li_adger.benchmarks.perturbations import Perturbation

__all__ = [
    "DATASETS",
    "Units",
    "can_score",
    "dataset_metadata",
    "load_perturbed_units",
    "load_units",
]

DATASETS: tuple[str, ...] = tuple(BENCHMARKS)
"""Benchmark names ``--dataset`` accepts (those of :data:`li_adger.benchmarks.BENCHMARKS`, in
its order); a path to a ``.csv``/``.jsonl``/``.parquet`` file with ``id`` and ``sentence``
columns is accepted too."""


@dataclass(frozen=True)
class Units:
    """What a scoring run scores: unit ids and texts, of a benchmark or a table file.

    ``texts`` are sentences (``str``), or :class:`~baselines.interface.ClozeUnit` for a
    cloze benchmark; ``form`` is the benchmark's form (:data:`li_adger.benchmarks.spec.FORMS`),
    ``None`` for a table file, whose ``places`` map each id to its file and line
    (``"mine.csv line 4"``), for error messages.

    Examples
    --------
    >>> u = Units("toy", None, ["a", "b"], ["Go.", "Run."])
    >>> u.head(1).ids, u.cloze
    (['a'], False)
    """

    dataset: str
    form: str | None
    ids: list[str]
    texts: list[str] | list[ClozeUnit]
    places: dict[str, str] | None = None

    @property
    def cloze(self) -> bool:
        """Whether the units are cloze units (a context and a completion)."""
        return self.form == "cloze"

    def head(self, n: int) -> Units:
        """The first ``n`` units."""
        return Units(self.dataset, self.form, self.ids[:n], self.texts[:n], self.places)


def load_units(
    dataset: str, *, source: str | os.PathLike | None = None, subset: str | None = None
) -> Units:
    """The units of a benchmark in :data:`DATASETS` or the sentences of a table file.

    A benchmark's units are :func:`li_adger.benchmarks.load_items`'s (one per unique text,
    except LI-Adger's 4,178 sentences), read from the verified files (``source``: a folder
    with the layout of ``shared/data``, see :mod:`li_adger.sources`). ``subset`` names whole
    groups, comma-separated (BLiMP's paradigms, NPI's environments, the diagnostic sets:
    :mod:`li_adger.benchmarks.subsets`): only the units they need, in the benchmark's order.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "mine.csv"
    >>> _ = p.write_text("id,sentence\\ns1,The keys are lost.\\ns2,The keys is lost.\\n")
    >>> load_units(str(p)).texts
    ['The keys are lost.', 'The keys is lost.']
    >>> units = load_units("diagnostics")
    >>> units.form, len(units.ids), units.texts[0].completion
    ('cloze', 395, 'chess')
    >>> load_units("npi_cloze", subset="only").texts[1]
    ClozeUnit(context='According to the person,', completion='any', after='pedestrians only would flee from the restaurants.')
    >>> len(load_units("npi", subset="only,adverbs").ids) < len(load_units("npi").ids)
    True
    >>> load_units("cola", subset="in_domain")
    Traceback (most recent call last):
    ...
    ValueError: cola has no subsets: --subset applies to blimp, npi, npi_cloze, diagnostics (their paradigms, environments, environments, diagnostic sets)
    >>> load_units("glue")
    Traceback (most recent call last):
    ...
    ValueError: unknown dataset 'glue': expected one of 'li_adger', 'blimp', 'npi', 'npi_cloze', 'diagnostics', 'cola' or a .csv/.jsonl/.parquet file with columns 'id' and 'sentence'
    """
    if dataset in DATASETS:
        from li_adger.benchmarks import load_items
        from li_adger.benchmarks.subsets import parse_subset, select_groups, subset_column

        if subset is not None:
            subset_column(dataset)  # a benchmark without subsets is refused before it is read
        items = load_items(dataset, source=source)
        if subset is not None:
            items = select_groups(items, parse_subset(items, subset))
        units = items.units
        ids = [str(i) for i in units["id"]]
        if items.form == "cloze":
            after = units["after"] if "after" in units.columns else [""] * len(units)
            texts: list = [
                ClozeUnit(str(c), str(w), str(a))
                for c, w, a in zip(units["context"], units["completion"], after, strict=True)
            ]
        else:
            texts = [str(s) for s in units["sentence"]]
        return Units(dataset, items.form, ids, texts)
    if dataset.endswith(TABLE_SUFFIXES) and Path(dataset).exists():
        if subset is not None:
            raise ValueError(f"--subset applies to a benchmark, not to the file {dataset}")
        table = read_sentence_table(dataset)
        places = {i: f"{table.path} {p}" for i, p in zip(table.ids, table.places, strict=True)}
        return Units(dataset, None, table.ids, table.sentences, places)
    choices = ", ".join(repr(d) for d in DATASETS)
    hint = " (file not found)" if dataset.endswith(TABLE_SUFFIXES) else ""
    raise ValueError(
        f"unknown dataset {dataset!r}{hint}: expected one of {choices} or a "
        ".csv/.jsonl/.parquet file with columns 'id' and 'sentence'"
    )


def load_perturbed_units(perturbation: Perturbation) -> tuple[Units, dict]:
    """The units of Ettinger's ``perturbation`` of the diagnostics (``--perturbation``, see
    :mod:`li_adger.benchmarks.perturbations`) and what the scores file records of them.

    Examples
    --------
    >>> from li_adger.benchmarks.perturbations import Perturbation
    >>> units, meta = load_perturbed_units(Perturbation(["trunc"]))
    >>> len(units.ids), units.ids[1], units.texts[1].context
    (68, 'CPRAG-102.0.chess@trunc', '“Checkmate,” Rosaline announced with glee. good at')
    >>> meta
    {'perturbation': ['trunc'], 'perturbation_seed': 0, 'shuffles': 100}
    """
    from li_adger.benchmarks.perturbations import perturbed_items

    units = perturbed_items(perturbation).units
    texts = [
        ClozeUnit(str(c), str(w))
        for c, w in zip(units["context"], units["completion"], strict=True)
    ]
    ids = [str(i) for i in units["id"]]
    return Units("diagnostics", "cloze", ids, texts), perturbation.metadata()


def dataset_metadata(dataset: str) -> dict[str, str]:
    """What identifies the data behind a dataset name, for the scores file's metadata.

    A benchmark: its ``form`` and a ``dataset_fingerprint`` of its verified files (LI-Adger:
    the build's content fingerprint; any other: a SHA-256 over the pinned SHA-256 of each of
    its files, :data:`li_adger.sources.SOURCE_FILES`). A table file: its ``dataset_sha256``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "mine.csv"
    >>> _ = p.write_text("id,sentence\\ns1,Go.\\n")
    >>> dataset_metadata(str(p)) == {"dataset_sha256": hashlib.sha256(p.read_bytes()).hexdigest()}
    True
    >>> meta = dataset_metadata("npi")
    >>> meta["form"], len(meta["dataset_fingerprint"])
    ('pairs', 64)
    """
    if dataset == "li_adger":
        from li_adger.builder.build import read_report

        return {"form": "pairs", "dataset_fingerprint": str(read_report()["fingerprint"])}
    if dataset in DATASETS:
        from li_adger.benchmarks import benchmark
        from li_adger.sources import SOURCE_FILES

        spec = benchmark(dataset)
        pins = {relpath: SOURCE_FILES[relpath].sha256 for relpath in sorted(spec.files)}
        digest = hashlib.sha256(json.dumps(pins, sort_keys=True).encode("utf-8")).hexdigest()
        return {"form": spec.form, "dataset_fingerprint": digest}
    digest = hashlib.sha256(Path(dataset).read_bytes()).hexdigest()
    return {"dataset_sha256": digest}


def can_score(scorer: Scorer, form: str | None) -> bool:
    """Whether ``scorer`` can score units of ``form``: every scorer scores sentences
    (``pairs``, ``labelled``, a table file), only a :class:`~baselines.interface.ClozeScorer`
    scores cloze units.

    Examples
    --------
    >>> class Length:
    ...     name, kind, variant, reduction = "length", "toy", "words", "count"
    ...     def score(self, sentences): ...
    ...     def metadata(self): ...
    >>> can_score(Length(), "pairs"), can_score(Length(), "cloze")
    (True, False)
    """
    return form != "cloze" or isinstance(scorer, ClozeScorer)
