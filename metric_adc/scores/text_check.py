"""A scores file against its dataset: the same texts under the same ids, and which sentences
were scored.

Two checks for every caller (the commands, the ``evaluate`` module, the Space, ``space
snapshot``): :func:`check_texts`, a scores file's texts against the dataset's (ids shifted by one
are refused, not evaluated; :func:`check_unit_texts` checks every text field of a file against a
benchmark's units), and :func:`check_coverage`, the rule for a file that leaves sentences
out (refused when it lacks a pair member, else accepted with a warning saying over how many
sentences the z-scores are taken).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from metric_adc.scores.file import ScoresFile, ScoresFileError

__all__ = [
    "TEXT_FIELDS",
    "UnscoredSentencesWarning",
    "check_coverage",
    "check_log_probs",
    "check_texts",
    "check_unit_texts",
]

TEXT_FIELDS = ("sentence", "context", "completion", "after")
"""The record fields that hold a unit's text, checked against the benchmark's."""


def _normal(text: str) -> str:
    """Text as compared with the dataset's: Unicode NFC, runs of white space as one space."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def check_texts(
    ids: Sequence[str],
    texts: Sequence[str],
    dataset_texts: Mapping[str, str],
    *,
    name: str,
    field: str = "sentence",
) -> None:
    """Raise :class:`~metric_adc.scores.file.ScoresFileError` when a scores file's text differs
    from the dataset's text of the same id.

    ``texts[k]`` is the file's ``field`` (``sentence``, or a cloze unit's ``context`` or
    ``completion``) of ``ids[k]``; ``dataset_texts`` maps the dataset's ids to their text. Texts
    are compared after Unicode NFC normalization with white space collapsed; ids the dataset
    does not have are left to the id check. The message names the first differing id, how many
    differ, both texts and, when the file's text is the dataset's text of another id, that id
    (the ids are shifted: every score would be evaluated as another sentence's).

    Examples
    --------
    >>> data = {"a": "Kim left.", "b": "Kim lefted.", "c": "Lee ran."}
    >>> check_texts(["a", "b"], ["Kim  left.", "Kim lefted."], data, name="s.jsonl")
    >>> check_texts(["a", "b", "c"], ["Kim lefted.", "Lee ran.", "Kim left."], data, name="s.jsonl")
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.ScoresFileError: s.jsonl: the sentence of id 'a' is not the dataset's: 'Kim lefted.' in the file, 'Kim left.' in the dataset (3 of 3 sentences differ; the dataset gives the file's text to id 'b': are the ids shifted?)
    """
    if len(ids) != len(texts):
        raise ValueError(f"'texts' has {len(texts)} entries, expected {len(ids)} (one per id)")
    differ = [
        k
        for k, (i, t) in enumerate(zip(ids, texts, strict=True))
        if i in dataset_texts
        and t != dataset_texts[i]  # the same text needs no normalizing
        and _normal(t) != _normal(dataset_texts[i])
    ]
    if not differ:
        return
    k = differ[0]
    i, text = ids[k], texts[k]
    n_checked = sum(1 for i in ids if i in dataset_texts)
    owner = next((j for j, t in dataset_texts.items() if _normal(t) == _normal(text)), None)
    hint = (
        f"; the dataset gives the file's text to id {owner!r}: are the ids shifted?"
        if owner
        else ""
    )
    raise ScoresFileError(
        f"{name}: the {field} of id {i!r} is not the dataset's: {text!r:.80} in the file, "
        f"{dataset_texts[i]!r:.80} in the dataset ({len(differ):,} of {n_checked:,} {field}s "
        f"differ{hint})"
    )


def check_unit_texts(sf: ScoresFile, units: pd.DataFrame, *, name: str) -> None:
    """Check every text field of ``sf`` (:data:`TEXT_FIELDS`) that ``units`` (a benchmark's
    units: ``id`` and text columns) also has, by :func:`check_texts`; a field either lacks is
    not checked.

    Examples
    --------
    >>> import numpy as np
    >>> units = pd.DataFrame({"id": ["a", "b"], "sentence": ["Kim left.", "Kim lefted."]})
    >>> sf = ScoresFile({}, ["a", "b"], np.zeros(2), fields={"sentence": ["Kim lefted.", "x"]})
    >>> check_unit_texts(sf, units, name="s.jsonl")
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.ScoresFileError: s.jsonl: the sentence of id 'a' is not the dataset's: 'Kim lefted.' in the file, 'Kim left.' in the dataset (2 of 2 sentences differ; the dataset gives the file's text to id 'b': are the ids shifted?)
    """
    for field in TEXT_FIELDS:
        if field in sf.fields and field in units.columns:
            texts = dict(zip(units["id"], units[field], strict=True))
            check_texts(sf.ids, sf.fields[field], texts, name=name, field=field)


def check_log_probs(sf: ScoresFile, *, name: str, benchmark: str, tolerance: float) -> None:
    """Refuse a cloze file's score that is not a natural-log probability (``<= tolerance``,
    ``-inf`` allowed): the scores of a cloze benchmark are compared as probabilities. The
    message names the file, the record's line and id, and the field.

    Examples
    --------
    >>> import numpy as np
    >>> sf = ScoresFile({}, ["a", "b"], np.array([-1.0, 0.5]), source="/tmp/s.jsonl", lines=[2, 3])
    >>> check_log_probs(sf, name="s.jsonl", benchmark="diagnostics", tolerance=1e-6)
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.ScoresFileError: s.jsonl line 3 (id 'b'): 'score' must be a natural-log probability <= 0 on the cloze benchmark 'diagnostics' (got 0.5; 1 of 2 scores are not)
    """
    bad = np.flatnonzero(sf.scores > tolerance)
    if bad.size:
        k = int(bad[0])
        raise ScoresFileError(
            f"{sf.where(k, name)}: 'score' must be a natural-log probability <= 0 on the cloze "
            f"benchmark {benchmark!r} (got {float(sf.scores[k])!r}; {bad.size:,} of "
            f"{len(sf):,} scores are not)"
        )


class UnscoredSentencesWarning(UserWarning):
    """Z-scores taken over fewer sentences than the dataset has (:func:`check_coverage`)."""


def check_coverage(
    scored_ids: Iterable[str],
    dataset_ids: Sequence[str],
    *,
    needed: Iterable[str] = (),
    name: str = "scores",
    dataset: str = "LI-Adger",
    needed_by: str = "pairs",
) -> str | None:
    """Check which of a dataset's sentences a model scored: the rule for every caller.

    An id the dataset lacks, or no score for a sentence of ``needed`` (the members of the
    pairs evaluated; ``needed_by`` names what needs them), is a
    :class:`~metric_adc.scores.file.ScoresFileError` naming ``name``.
    Scores that leave out only sentences in no pair are accepted: they are z-scored over the
    sentences scored, and the returned warning says over how many (``None`` when every
    sentence is scored). The README's numbers z-score over all sentences; LI-Adger has 56 in
    no evaluable pair, whose absence moves the trigram's ADC δ=0.5 from 0.2854 to 0.2867. The
    same rule holds in the commands (:func:`metric_adc.scores.benchmark.read_benchmark_scores`),
    the ``evaluate`` module and the Space.

    Examples
    --------
    >>> check_coverage(["a", "b"], ["a", "b"]) is None
    True
    >>> print(check_coverage(["a", "b"], ["a", "b", "c"], needed=["a", "b"]))
    no score for 1 of the 3 LI-Adger sentences (e.g. 'c'): z-scores are taken over the 2 scored sentences, not over all 3; score every sentence to compare with the published numbers
    >>> check_coverage(["a"], ["a", "b", "c"], needed=["a", "b"], name="s.jsonl")
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.ScoresFileError: s.jsonl: no score for 1 of the 2 sentences the LI-Adger pairs need, e.g. 'b': score every sentence of the dataset
    """
    scored = set(scored_ids)
    known = set(dataset_ids)
    unknown = [i for i in scored if i not in known]
    if unknown:
        raise ScoresFileError(
            f"{name}: {len(unknown):,} sentence id(s) unknown to {dataset}, e.g. "
            f"{sorted(unknown)[0]!r} (expected ids of its {len(known):,} sentences, such as "
            f"{dataset_ids[0]!r})"
        )
    needed = list(dict.fromkeys(needed))
    lacking = [i for i in needed if i not in scored]
    if lacking:
        raise ScoresFileError(
            f"{name}: no score for {len(lacking):,} of the {len(needed):,} sentences the "
            f"{dataset} {needed_by} need, e.g. {lacking[0]!r}: score every sentence of the "
            "dataset"
        )
    missing = [i for i in dataset_ids if i not in scored]
    if not missing:
        return None
    n_all = len(dataset_ids)
    return (
        f"no score for {len(missing):,} of the {n_all:,} {dataset} sentences (e.g. "
        f"{missing[0]!r}): z-scores are taken over the {n_all - len(missing):,} scored "
        f"sentences, not over all {n_all:,}; score every sentence to compare with the "
        "published numbers"
    )
