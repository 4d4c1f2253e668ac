"""What is approved is what is shown: a submitted scores file evaluated from its bytes, and the
SHA-256 that ties an approval to them.

Every number of a submission comes from its scores file, never from what was recorded beside it:
``python -m space review`` shows the metrics computed from the pending file, an approval records
the file's SHA-256 (:func:`sha256_of`) with the metrics computed then, and the app evaluates
every approved file again at start-up (:class:`Evaluator`), refusing one whose bytes are not the
approved ones (:func:`check_approved`). An upload is evaluated by the same :class:`Evaluator`.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from li_adger.benchmarks import BENCHMARKS, Items
from metric_adc.family.items import needed_ids
from metric_adc.pairs import PairTable
from metric_adc.prediction import LOG_PROB_TOLERANCE
from metric_adc.scores.file import ScoresFile, ScoresFileError, read_scores
from metric_adc.scores.text_check import check_coverage, check_log_probs, check_unit_texts
from space.data.benchmark_data import (
    LI_ADGER,
    FamilyEntry,
    benchmark_items,
    family_entry_from_scores,
)
from space.data.entries import ModelEntry, entry_from_scores

__all__ = ["ApprovalError", "Evaluator", "check_approved", "read_submitted", "sha256_of"]


class ApprovalError(ValueError):
    """An approved file is not the one approved, or a submitted file cannot be evaluated; the
    one-line message names the file."""


def sha256_of(data: bytes) -> str:
    """The SHA-256 of ``data``, in hexadecimal.

    Examples
    --------
    >>> sha256_of(b"")[:16]
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(data).hexdigest()


def check_approved(data: bytes, recorded: str | None, *, file: str) -> None:
    """Refuse ``data`` unless its SHA-256 is the one ``recorded`` when ``file`` was approved.

    Examples
    --------
    >>> check_approved(b"x", sha256_of(b"x"), file="approved/m.jsonl")
    >>> check_approved(b"y", sha256_of(b"x"), file="approved/m.jsonl")
    Traceback (most recent call last):
    ...
    space.data.approval.ApprovalError: approved/m.jsonl changed since it was approved (SHA-256 2d711642b726… approved, a1fce4363854… now): not shown; submit it again for review
    >>> check_approved(b"x", None, file="approved/m.jsonl")
    Traceback (most recent call last):
    ...
    space.data.approval.ApprovalError: approved/m.jsonl: its record holds no SHA-256, so it cannot be shown as approved; move both files back to pending/ and approve it again
    """
    if recorded is None:
        raise ApprovalError(
            f"{file}: its record holds no SHA-256, so it cannot be shown as approved; move both "
            "files back to pending/ and approve it again"
        )
    now = sha256_of(data)
    if now != recorded:
        raise ApprovalError(
            f"{file} changed since it was approved (SHA-256 {recorded[:12]}… approved, "
            f"{now[:12]}… now): not shown; submit it again for review"
        )


def read_submitted(data: bytes, *, file: str) -> ScoresFile:
    """A submitted scores file from its bytes (:func:`metric_adc.scores.file.read_scores`); an
    error names ``file`` (its path in the store).

    Examples
    --------
    >>> read_submitted(b"id,score\\na,1\\n", file="pending/m.jsonl").as_dict()
    {'a': 1.0}
    >>> read_submitted(b"{", file="approved/m.jsonl")
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.ScoresFileError: approved/m.jsonl...
    """
    with tempfile.TemporaryDirectory(prefix="adc-submitted-") as tmp:
        path = Path(tmp) / Path(file).name
        path.write_bytes(data)
        try:
            return read_scores(path)
        except ScoresFileError as exc:
            raise ScoresFileError(str(exc).replace(str(path), file)) from None


class Evaluator:
    """Evaluate a scores file on its benchmark as the app shows it, with the checks of an
    upload: the file's texts are the units' (ids shifted by one are refused), every unit an
    item needs is scored and no id is unknown (the coverage rule), a cloze file's scores are
    log-probabilities.

    ``pairs`` are LI-Adger's pairs (or a function returning them, called once when a LI-Adger
    file first needs them); ``items(benchmark)`` another benchmark's items (default
    :func:`~space.data.benchmark_data.benchmark_items`); ``li_units`` LI-Adger's ``id`` and
    ``sentence`` columns to check a file's texts against (``None``: a submitted file, which
    holds no texts).

    Examples
    --------
    >>> import numpy as np
    >>> from space.data.toy import toy_space_data
    >>> data = toy_space_data()
    >>> ids = list(data.pairs.judgements)
    >>> sf = ScoresFile({}, ids, np.arange(len(ids), dtype=float))
    >>> Evaluator(data.pairs).entry(sf, "li_adger", name="m", kind="k", file="m.csv").row["blimp"]
    0.0
    >>> sf = ScoresFile({}, ids[1:], np.arange(len(ids) - 1, dtype=float))
    >>> Evaluator(data.pairs).entry(sf, "li_adger", name="m", kind="k", file="m.csv")
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.ScoresFileError: m.csv: no score for 1 of the 6 sentences the LI-Adger pairs need, e.g. 'g1': score every sentence of the dataset
    """

    def __init__(
        self,
        pairs: PairTable | Callable[[], PairTable] | None,
        *,
        items: Callable[[str], Items] = benchmark_items,
        li_units: pd.DataFrame | None = None,
    ):
        self._pairs = pairs
        self.items = items
        self.li_units = li_units

    @property
    def pairs(self) -> PairTable:
        """LI-Adger's pairs (read on first use when given as a function)."""
        if callable(self._pairs):
            self._pairs = self._pairs()
        return self._pairs

    def entry(
        self, sf: ScoresFile, benchmark: str, *, name: str, kind: str, file: str
    ) -> ModelEntry | FamilyEntry:
        """``sf`` evaluated on ``benchmark`` as the entry ``name`` of ``kind``.

        Raises :class:`~metric_adc.scores.file.ScoresFileError` naming ``file`` for a file that
        fails a check, :class:`~space.data.benchmark_data.ItemsUnavailable` when the
        benchmark's sources are not here, and :class:`ValueError` (from the metric) for scores
        it cannot evaluate.
        """
        if benchmark == LI_ADGER:
            p = self.pairs
            if self.li_units is not None:
                check_unit_texts(sf, self.li_units, name=file)
            needed = [*p.good_ids, *p.bad_ids]
            check_coverage(sf.ids, list(p.judgements), needed=needed, name=file)
            return entry_from_scores(sf.as_dict(), p, name=name, kind=kind, metadata=sf.metadata)
        if benchmark not in BENCHMARKS:
            raise ScoresFileError(
                f"{file}: its benchmark is {benchmark!r}; expected one of {list(BENCHMARKS)}"
            )
        items = self.items(benchmark)
        spec = BENCHMARKS[benchmark]
        check_unit_texts(sf, items.units, name=file)
        check_coverage(
            sf.ids,
            items.units["id"].tolist(),
            needed=needed_ids(items),
            name=file,
            dataset=benchmark,
            needed_by="pairs" if len(items.comparisons) else "labels",
        )
        if spec.form == "cloze":
            check_log_probs(sf, name=file, benchmark=benchmark, tolerance=LOG_PROB_TOLERANCE)
        return family_entry_from_scores(spec, items, sf, name=name, kind=kind)
