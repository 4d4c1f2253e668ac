"""A scores file as the input of one benchmark: which benchmark, which model and convention,
the unit scores (and a cloze file's ranks).

The benchmark is the metadata's ``dataset`` (a name of
:data:`li_adger.benchmarks.BENCHMARKS`); a CSV ``id,score`` file, or a file without
``dataset``, is LI-Adger's, as before the family existed. Any other ``dataset`` is an error
that names the known benchmarks, unless the caller names the benchmark itself
(``benchmark=``, ``report --benchmark``).

The file's texts (``sentence``, or a cloze unit's ``context`` and ``completion``), when it has
them, are checked against the benchmark's units (:func:`metric_adc.scores.checks.check_texts`; skipped
with ``check_text=False``, ``--no-text-check``), and a LI-Adger file that leaves sentences out
gets the warning of :func:`metric_adc.scores.checks.check_coverage` (an error when it lacks an id a pair needs or has one
LI-Adger lacks).

Examples
--------
>>> import tempfile, pathlib
>>> from metric_adc.scores.file import write_scores
>>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "s.jsonl",
...                  [{"id": "a", "score": -1.0}], {"model": "m", "dataset": "npi"})
>>> bs = read_benchmark_scores(p)
>>> bs.benchmark, bs.model, bs.scores
('npi', 'm', {'a': -1.0})
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from li_adger.benchmarks import BENCHMARKS
from metric_adc.family.items import items_of
from metric_adc.family.outcomes import KINDS
from metric_adc.scores.checks import UnscoredSentencesWarning, check_coverage, check_texts
from metric_adc.scores.file import ScoresFile, read_scores
from metric_adc.scores.labels import convention_of, row_label

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
    ValueError: g.jsonl: the metadata's 'dataset' is 'glue', not a benchmark; expected one of ['li_adger', 'blimp', 'npi', 'diagnostics', 'cola'] (a file without 'dataset' is read as 'li_adger'; --benchmark NAME names it)
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


_TEXT_FIELDS = ("sentence", "context", "completion")


def read_benchmark_scores(
    path: str | os.PathLike, *, benchmark: str | None = None, check_text: bool = True
) -> BenchmarkScores:
    """Read a scores file (:func:`metric_adc.scores.file.read_scores`) for its benchmark
    (:func:`benchmark_of`, or ``benchmark`` when given).

    With ``check_text`` (the default) the file's texts must be the benchmark's
    (:func:`~metric_adc.scores.checks.check_texts`, a :class:`~metric_adc.scores.file.ScoresFileError`
    otherwise). A LI-Adger file is checked by :func:`~metric_adc.scores.checks.check_coverage`: an id
    LI-Adger lacks or an unscored pair member is an error naming the file; a file without a
    score for some sentences in no pair is read with an
    :class:`~metric_adc.scores.checks.UnscoredSentencesWarning` naming the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from metric_adc.scores.file import write_scores
    >>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "s.jsonl",
    ...     [{"id": "x", "context": "A", "completion": "b", "score": -2.0, "rank": 3}],
    ...     {"model": "smollm2", "kind": "causal", "variant": "logprob",
    ...      "convention": "harness", "dataset": "diagnostics"})
    >>> bs = read_benchmark_scores(p)
    >>> bs.model, bs.convention, bs.kind, bs.ranks
    ('smollm2 (logprob, harness)', 'harness', 'causal', {'x': 3})
    """
    path = Path(path)
    sf = read_scores(path)
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
        scores=sf.as_dict(),
        ranks=ranks,
        file=sf,
    )


def check_benchmark_file(
    sf: ScoresFile, benchmark: str, *, name: str, check_text: bool = True
) -> str | None:
    """The checks of a scores file read for ``benchmark``, in one place for the commands and
    the Space: its texts are the benchmark's (:func:`~metric_adc.scores.checks.check_texts`, when
    ``check_text`` and the file has text fields), and a LI-Adger file follows the coverage rule
    (:func:`~metric_adc.scores.checks.check_coverage`). Returns the coverage note (``None`` when every
    sentence is scored); raises :class:`~metric_adc.scores.file.ScoresFileError` naming
    ``name``.

    Examples
    --------
    >>> import numpy as np
    >>> sf = ScoresFile({}, ["x"], np.array([1.0]))
    >>> check_benchmark_file(sf, "li_adger", name="s.jsonl")
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.ScoresFileError: s.jsonl: 1 sentence id(s) unknown to LI-Adger, e.g. 'x' (expected ids of its 4,178 sentences, such as '32.1.martin.1a.g.01')
    """
    given = [f for f in _TEXT_FIELDS if f in sf.fields]
    if check_text and given:
        units = items_of(benchmark).units
        for field in given:
            if field in units.columns:
                texts = dict(zip(units["id"], units[field], strict=True))
                check_texts(sf.ids, sf.fields[field], texts, name=name, field=field)
    if benchmark != DEFAULT_BENCHMARK:
        return None
    items = items_of(benchmark)
    return check_coverage(
        sf.ids,
        items.units["id"].tolist(),
        needed=[*items.comparisons["good_id"], *items.comparisons["bad_id"]],
        name=name,
    )
