"""A folder of scores files the app was started with (``--results DIR``, ``$ADC_RESULTS_DIR``).

Every scores file in it and its subfolders (``results/<model>/<benchmark>.jsonl``, as
``python -m baselines score --dataset all`` writes them) goes to the benchmark its metadata's
``dataset`` names (LI-Adger when it names none, e.g. a CSV). The submissions' folders of the
store (``pending/``, ``approved/``: :mod:`space.data.submissions`) are not scores files of the
folder: pending requests are not public, approved ones are read by the submissions.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from pathlib import Path

import pandas as pd

from li_adger.benchmarks import BENCHMARKS
from metric_adc.pairs import PairTable
from metric_adc.scores.file import ScoresFileError, read_scores
from metric_adc.scores.labels import check_distinct
from metric_adc.scores.shards import is_shard
from metric_adc.scores.text_check import TEXT_FIELDS, check_unit_texts
from space.data.benchmark_data import (
    FAMILY,
    LI_ADGER,
    FamilyEntry,
    ItemsUnavailable,
    benchmark_items,
    family_entry_from_scores,
)
from space.data.entries import ModelEntry, entry_from_scores
from space.data.kinds import KIND_RESULTS
from space.data.moderation import APPROVED, PENDING
from space.data.names import identity, model_name

__all__ = [
    "RESULTS_DIR_ENV",
    "SCORES_SUFFIXES",
    "ResultsFolder",
    "load_results",
    "results_dir",
    "scores_files",
]

log = logging.getLogger(__name__)

SCORES_SUFFIXES = (".jsonl", ".csv")
"""File name endings of scores files picked up from the results folder."""
RESULTS_DIR_ENV = "ADC_RESULTS_DIR"
"""Environment variable naming the results folder."""


def results_dir(option: str | os.PathLike | None = None) -> Path | None:
    """The results folder: ``option`` (``--results``), else ``$ADC_RESULTS_DIR``, else none —
    never a folder the user did not name, so the app shows the same rows from any folder.

    Examples
    --------
    >>> import os
    >>> os.environ.pop("ADC_RESULTS_DIR", None) and None
    >>> results_dir() is None, results_dir("out").name
    (True, 'out')
    """
    chosen = option if option is not None else os.environ.get(RESULTS_DIR_ENV) or None
    return None if chosen is None else Path(chosen)


@dataclasses.dataclass
class ResultsFolder:
    """What a folder of scores files holds: LI-Adger models, other benchmarks' models by
    benchmark, and the files refused with their reason."""

    li_adger: list[ModelEntry] = dataclasses.field(default_factory=list)
    family: dict[str, list[FamilyEntry]] = dataclasses.field(default_factory=dict)
    skipped: list[tuple[str, str]] = dataclasses.field(default_factory=list)


def scores_files(folder: str | os.PathLike) -> list[Path]:
    """The scores files in ``folder`` and its subfolders, sorted; hidden files and folders,
    partial files, a data-parallel run's shard files (:func:`metric_adc.scores.shards.is_shard`)
    and the submissions' folders skipped; a missing folder holds none.

    Examples
    --------
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> for name in ("a.jsonl", "m/blimp.jsonl", "m/blimp.jsonl.0123.partial", ".hid.jsonl",
    ...              "pending/x.jsonl", "approved/y.jsonl", "m/blimp.jsonl.rank-1-of-2.jsonl"):
    ...     (root / name).parent.mkdir(exist_ok=True)
    ...     _ = (root / name).write_text("")
    >>> [p.relative_to(root).as_posix() for p in scores_files(root)]
    ['a.jsonl', 'm/blimp.jsonl']
    >>> scores_files(root / "missing")
    []
    """
    root = Path(folder)
    if not root.is_dir():
        return []

    def wanted(p: Path) -> bool:
        parts = p.relative_to(root).parts
        return (
            p.suffix in SCORES_SUFFIXES
            and p.is_file()
            and not any(part.startswith(".") for part in parts)
            and not (len(parts) > 1 and parts[0] in (PENDING, APPROVED))
            and not is_shard(p)  # a data-parallel run's shard left behind
        )

    return sorted(p for p in root.rglob("*") if wanted(p))


def load_results(
    folder: str | os.PathLike, pairs: PairTable, units: pd.DataFrame | None = None
) -> ResultsFolder:
    """Every valid scores file in ``folder`` (:func:`scores_files`: with its subfolders), by the
    benchmark its ``dataset`` metadata names (LI-Adger when it names none, e.g. a CSV).
    ``units`` are the LI-Adger sentences the app holds (:func:`space.data.dataset.pair_units`;
    ``None``: an LI-Adger file's texts are not checked); another benchmark's come with its items.

    A missing folder holds nothing. A file that fails validation (its texts included: ids
    shifted by one, :func:`metric_adc.scores.text_check.check_unit_texts`) or evaluation, that gives
    a result an earlier file of the folder gives (the same model, convention, variant and
    benchmark: :func:`metric_adc.scores.labels.check_distinct`, both files named), or names a
    benchmark whose source files are not available, is skipped with its reason, so one bad file
    never stops the app.

    Examples
    --------
    >>> r = load_results("/nonexistent", None)
    >>> r.li_adger, r.family, r.skipped
    ([], {}, [])
    """
    out = ResultsFolder()
    shown: list[tuple[str, dict, str]] = []
    for path in scores_files(folder):
        try:
            sf = read_scores(path)
            bench = str(sf.metadata.get("dataset") or LI_ADGER)
            name = model_name(sf, path.stem)
            if bench in BENCHMARKS and any(f in sf.fields for f in TEXT_FIELDS):
                known = units if bench == LI_ADGER else benchmark_items(bench).units
                if known is not None:
                    check_unit_texts(sf, known, name=str(path))
            this = (str(path.relative_to(folder)), identity(sf, path.stem), bench)
            check_distinct([*shown, this], advice="the first is shown")
            if bench == LI_ADGER:
                entry = entry_from_scores(
                    sf.as_dict(), pairs, name=name, kind=KIND_RESULTS, metadata=sf.metadata
                )
                out.li_adger.append(entry)
            elif bench in FAMILY:
                items = benchmark_items(bench)
                entry = family_entry_from_scores(
                    BENCHMARKS[bench], items, sf, name=name, kind=KIND_RESULTS
                )
                out.family.setdefault(bench, []).append(entry)
            else:
                raise ValueError(
                    f"its 'dataset' metadata is {bench!r}; expected one of {list(BENCHMARKS)}"
                )
        except (ScoresFileError, ValueError, ItemsUnavailable) as exc:
            log.warning("results file skipped: %s: %s", path, exc)
            out.skipped.append((path.name, str(exc).replace(f"{path}: ", "")))
            continue
        shown.append(this)
    return out
