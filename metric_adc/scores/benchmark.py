"""A scores file as the input of one benchmark: which benchmark, which model and convention,
the unit scores (and a cloze file's ranks).

The benchmark is the metadata's ``dataset`` (a name of
:data:`li_adger.benchmarks.BENCHMARKS`); a CSV ``id,score`` file, or a file without
``dataset``, is LI-Adger's, as before the family existed. Any other ``dataset`` is an error
that names the known benchmarks, unless the caller names the benchmark itself
(``benchmark=``, ``report --benchmark``).

The file's texts (``sentence``, or a cloze unit's ``context`` and ``completion``), when it has
them, are checked against the benchmark's units (:func:`metric_adc.scores.text_check.check_texts`; skipped
with ``check_text=False``, ``--no-text-check``), and its ids by
:func:`metric_adc.scores.text_check.check_coverage`: an id the benchmark lacks, or no score for a
member of a LI-Adger pair, is an error naming the file; a LI-Adger file that leaves out
sentences in no pair gets a warning.

Examples
--------
>>> import tempfile, pathlib
>>> from metric_adc.scores.file import write_scores
>>> ids = items_of("npi").units["id"]
>>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "s.jsonl",
...                  [{"id": i, "score": -1.0} for i in ids], {"model": "m", "dataset": "npi"})
>>> bs = read_benchmark_scores(p)
>>> bs.benchmark, bs.model, len(bs.scores)
('npi', 'm', 7717)
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from li_adger.benchmarks import BENCHMARKS
from li_adger.benchmarks.subsets import SUBSET_COLUMNS
from metric_adc.family.items import items_of, needed_ids
from metric_adc.family.outcomes import KINDS
from metric_adc.prediction import LOG_PROB_TOLERANCE
from metric_adc.scores.file import ScoresFile, read_scores
from metric_adc.scores.labels import convention_of, row_label
from metric_adc.scores.text_check import (
    UnscoredSentencesWarning,
    check_coverage,
    check_log_probs,
    check_unit_texts,
)

__all__ = [
    "DEFAULT_BENCHMARK",
    "BenchmarkScores",
    "benchmark_of",
    "check_benchmark_file",
    "read_benchmark_scores",
]

DEFAULT_BENCHMARK = "li_adger"
"""The benchmark of a scores file whose metadata names none (and of a CSV file)."""


def benchmark_of(metadata: Mapping, *, name: str = "scores file") -> str:
    """The benchmark a scores file's metadata names (``dataset``), or LI-Adger without one.

    Examples
    --------
    >>> benchmark_of({"dataset": "blimp"}), benchmark_of({})
    ('blimp', 'li_adger')
    >>> benchmark_of({"dataset": "glue"}, name="g.jsonl")
    Traceback (most recent call last):
    ValueError: g.jsonl: the metadata's 'dataset' is 'glue', not a benchmark; expected one of ['li_adger', 'blimp', 'npi', 'npi_cloze', 'diagnostics', 'cola'] (a file without 'dataset' is read as 'li_adger'; --benchmark NAME names it)
    """
    dataset = metadata.get("dataset")
    if dataset is None:
        return DEFAULT_BENCHMARK
    if dataset not in BENCHMARKS:
        raise ValueError(
            f"{name}: the metadata's 'dataset' is {dataset!r}, not a benchmark; expected one of "
            f"{list(BENCHMARKS)} (a file without 'dataset' is read as {DEFAULT_BENCHMARK!r}; "
            "--benchmark NAME names it)"
        )
    return str(dataset)


@dataclass(frozen=True)
class BenchmarkScores:
    """A scores file read for one benchmark.

    ``model`` is the row label (:func:`metric_adc.scores.labels.row_label`), ``convention`` the
    convention it names (:func:`metric_adc.scores.labels.convention_of`), ``kind`` the scorer's kind
    as :func:`metric_adc.family.outcomes.outcomes` takes it (``None`` for a kind it does not
    know: a threshold is then fitted), ``ranks`` a cloze file's ranks (``None`` without).
    """

    path: Path
    benchmark: str
    model: str
    convention: str | None
    kind: str | None
    scores: dict[str, float]
    ranks: dict[str, int] | None
    file: ScoresFile


def read_benchmark_scores(
    path: str | os.PathLike, *, benchmark: str | None = None, check_text: bool = True
) -> BenchmarkScores:
    """Read a scores file (:func:`metric_adc.scores.file.read_scores`) for its benchmark
    (:func:`benchmark_of`, or ``benchmark`` when given).

    With ``check_text`` (the default) the file's texts must be the benchmark's
    (:func:`~metric_adc.scores.text_check.check_texts`, a :class:`~metric_adc.scores.file.ScoresFileError`
    otherwise). A LI-Adger file is checked by :func:`~metric_adc.scores.text_check.check_coverage`: an id
    LI-Adger lacks or an unscored pair member is an error naming the file; a file without a
    score for some sentences in no pair is read with an
    :class:`~metric_adc.scores.text_check.UnscoredSentencesWarning` naming the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from metric_adc.scores.file import write_scores
    >>> units = items_of("diagnostics").units
    >>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "s.jsonl",
    ...     [{"id": i, "context": c, "completion": w, "score": -2.0, "rank": 3}
    ...      for i, c, w in zip(units["id"], units["context"], units["completion"])],
    ...     {"model": "smollm2", "kind": "causal", "variant": "logprob",
    ...      "convention": "harness", "dataset": "diagnostics"})
    >>> bs = read_benchmark_scores(p)
    >>> bs.model, bs.convention, bs.kind, bs.ranks["CPRAG-102.0.chess"]
    ('smollm2 (logprob, harness)', 'harness', 'causal', 3)
    """
    path = Path(path)
    sf = read_scores(path)
    scores = sf.as_dict()  # the file's own value, taken as read; the benchmark's checks follow
    if benchmark is not None and benchmark not in BENCHMARKS:
        raise ValueError(f"'benchmark' must be one of {list(BENCHMARKS)} (got {benchmark!r})")
    name = benchmark or benchmark_of(sf.metadata, name=str(path))
    note = check_benchmark_file(sf, name, name=str(path), check_text=check_text)
    if note:
        warnings.warn(f"{path}: {note}", UnscoredSentencesWarning, stacklevel=2)
    kind = sf.metadata.get("kind")
    ranks = None
    if "rank" in sf.fields:
        ranks = dict(zip(sf.ids, sf.fields["rank"], strict=True))
    return BenchmarkScores(
        path=path,
        benchmark=name,
        model=row_label(sf.metadata),
        convention=convention_of(sf.metadata),
        kind=kind if kind in KINDS else None,
        scores=scores,
        ranks=ranks,
        file=sf,
    )


def check_benchmark_file(
    sf: ScoresFile,
    benchmark: str,
    *,
    name: str,
    check_text: bool = True,
    whole: bool = False,
) -> str | None:
    """The checks of a scores file read for ``benchmark``, in one place for the commands and
    the Space (upload, ``space snapshot``): its texts are the benchmark's
    (:func:`~metric_adc.scores.text_check.check_unit_texts`, when ``check_text``: ids shifted by one
    are refused); an id the benchmark lacks is refused
    (:func:`~metric_adc.scores.text_check.check_coverage`), and so is an unscored unit that
    :func:`~metric_adc.family.items.needed_ids` lists, on LI-Adger always (a member of a pair),
    on a benchmark without groups (CoLA), and elsewhere with ``whole`` (a caller that evaluates
    the whole benchmark; a report may take a file of some of its groups); a CoLA classifier's
    LI-Adger file (``kind`` ``cola``) also needs every sentence with an expert label (its MCC); a cloze file's scores are log-probabilities
    (:func:`~metric_adc.scores.text_check.check_log_probs`). Returns LI-Adger's coverage note
    (``None`` when every sentence is scored, and on another benchmark); raises
    :class:`~metric_adc.scores.file.ScoresFileError` naming ``name``.

    Examples
    --------
    >>> import numpy as np
    >>> sf = ScoresFile({}, ["x"], np.array([1.0]))
    >>> check_benchmark_file(sf, "li_adger", name="s.jsonl")
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.ScoresFileError: s.jsonl: 1 sentence id(s) unknown to LI-Adger, e.g. 'x' (expected ids of its 4,178 sentences, such as '32.1.martin.1a.g.01')
    >>> one = items_of("npi").units["id"][:1].tolist()
    >>> check_benchmark_file(ScoresFile({}, one, np.zeros(1)), "npi", name="n.jsonl") is None
    True
    >>> check_benchmark_file(ScoresFile({}, one, np.zeros(1)), "npi", name="n.jsonl", whole=True)
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.ScoresFileError: n.jsonl: no score for 7,716 of the 7,717 sentences the npi pairs need, e.g. ...
    """
    items = items_of(benchmark)
    li_adger = benchmark == DEFAULT_BENCHMARK
    # a file of some whole groups is reported on them (metric_adc.report.benchmark.scored_items);
    # a benchmark without groups is evaluated whole, so it needs every unit its items name
    whole = whole or li_adger or benchmark not in SUBSET_COLUMNS
    needed = needed_ids(items) if whole else []
    needed_by = "pairs" if len(items.comparisons) else "labels"
    if li_adger and sf.metadata.get("kind") == "cola":  # also evaluated on the expert labels
        needed = [*needed, *items.labels["id"]]
        needed_by = "pairs and expert labels (a CoLA classifier's MCC)"
    # what the benchmark needs is settled; the file's checks follow, in their order
    if check_text:
        check_unit_texts(sf, items.units, name=name)
    note = check_coverage(
        sf.ids,
        items.units["id"].tolist(),
        needed=needed,
        name=name,
        dataset="LI-Adger" if li_adger else benchmark,
        needed_by=needed_by,
    )
    if BENCHMARKS[benchmark].form == "cloze":
        check_log_probs(sf, name=name, benchmark=benchmark, tolerance=LOG_PROB_TOLERANCE)
    return note if benchmark == DEFAULT_BENCHMARK else None
