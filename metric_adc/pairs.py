"""Pair tables and model deltas: what every result row, analysis, ceiling and app view reads.

A :class:`PairTable` holds minimal pairs with their human judgements (LI-Adger's evaluable
pairs from :func:`li_adger_pairs`, the thesis's pair file from :func:`thesis_pair_table`, or
pairs without judgements for the BLiMP criterion alone). :func:`model_deltas` turns a model's
sentence scores into its z-scores and one ``Δlm`` per pair, once: a :class:`ModelDeltas` that
:mod:`metric_adc.report.rows`, :mod:`metric_adc.report.analysis`, the ceiling's model comparison and the
Space all take instead of recomputing it.

Two checks of a model's scores against its dataset live here too, for every caller (the
commands, the ``evaluate`` module, the Space): :func:`check_texts`, a scores file's texts
against the dataset's (ids shifted by one are refused, not evaluated), and
:func:`check_coverage`, the rule for a file that leaves sentences out (refused when it lacks
a pair member, else accepted with a warning saying over how many sentences the z-scores are
taken).
"""

from __future__ import annotations

import math
import os
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from metric_adc import core
from metric_adc.checks import as_finite, check_bool, check_mapping
from metric_adc.scores.file import ScoresFileError

if TYPE_CHECKING:
    from metric_adc.thesis.outputs import ThesisModel

__all__ = [
    "ModelDeltas",
    "PairTable",
    "UnscoredSentencesWarning",
    "check_coverage",
    "check_texts",
    "li_adger_pairs",
    "model_deltas",
    "thesis_model_deltas",
    "thesis_pair_table",
]


@dataclass(frozen=True)
class PairTable:
    """Minimal pairs with their human judgements, ready for evaluation.

    ``judgements`` maps *every* sentence id of the dataset to its human judgement (NaN when
    missing); it defines which ids a scores mapping may contain. ``human_delta`` is NaN for a
    pair with a missing judgement (excluded and counted, never passed). A table without
    judgements (``judgements`` and ``human_delta`` ``None``) is for the BLiMP criterion alone;
    its sentences are the pairs' members.

    Examples
    --------
    >>> t = PairTable.from_judgements(["g1", "g2"], ["b1", "b2"],
    ...     {"g1": 1.0, "b1": -0.5, "g2": 0.5, "b2": float("nan")})
    >>> t.human_delta.tolist(), len(t)
    ([1.5, nan], 2)
    >>> PairTable.from_judgements(["g1"], ["b1"], None).sentence_ids()
    ['g1', 'b1']
    """

    good_ids: list[str]
    bad_ids: list[str]
    human_delta: np.ndarray | None
    judgements: dict[str, float] | None
    source: list[str] | None = None
    phenomenon: list[str] | None = None

    def __len__(self) -> int:
        return len(self.good_ids)

    def sentence_ids(self) -> list[str]:
        """The ids a scores mapping may contain: the judged sentences, else the pair members."""
        if self.judgements is not None:
            return list(self.judgements)
        return list(dict.fromkeys(self.good_ids + self.bad_ids))

    @classmethod
    def from_judgements(
        cls,
        good_ids: Sequence[str],
        bad_ids: Sequence[str],
        judgements: Mapping[str, float | None] | None,
        *,
        source: Sequence[str] | None = None,
        phenomenon: Sequence[str] | None = None,
    ) -> PairTable:
        """Build a table from pair ids and sentence judgements (``None``/NaN = missing;
        ``judgements=None`` for a table without human judgements)."""
        for name, col in (("source", source), ("phenomenon", phenomenon)):
            if col is not None and len(col) != len(good_ids):
                raise ValueError(f"{name!r} has {len(col)} entries, expected {len(good_ids)}")
        j = h = None
        if judgements is not None:
            j = {str(k): (math.nan if v is None else float(v)) for k, v in judgements.items()}
            h = core.pair_deltas(j, list(good_ids), list(bad_ids))
        elif len(good_ids) != len(bad_ids):
            raise ValueError(
                f"'good_ids' has {len(good_ids)} entries but 'bad_ids' has {len(bad_ids)}"
            )
        return cls(
            [str(i) for i in good_ids],
            [str(i) for i in bad_ids],
            h,
            j,
            None if source is None else [str(s) for s in source],
            None if phenomenon is None else [str(p) for p in phenomenon],
        )


def thesis_pair_table(dir: str | os.PathLike | None = None) -> PairTable:
    """The thesis's pair file as a :class:`PairTable` (2,367 pairs, 2 without a judgement).

    Examples
    --------
    >>> t = thesis_pair_table()
    >>> len(t), int(np.isnan(t.human_delta).sum())
    (2367, 2)
    """
    from metric_adc.thesis import outputs as thesis

    p = thesis.load_thesis_pairs(dir)
    return PairTable.from_judgements(p.good_ids, p.bad_ids, p.judgements, source=p.source)


def li_adger_pairs(load: Callable[[str], Any] | None = None) -> PairTable:
    """The LI-Adger dataset's evaluable pairs (the 2,365 not discarded) as a :class:`PairTable`.

        ``load`` maps a config name (``"sentences"``, ``"pairs"``) to that config's rows (a
        ``datasets.Dataset`` or a dict of columns); default the package's committed build, read
    directly (:func:`li_adger.loader.load_table`). The
        app passes one that reads the published copy on the Hub.

        Examples
        --------
        >>> t = li_adger_pairs()
        >>> len(t), len(t.judgements), sorted(set(t.source))
        (2365, 4178, ['Adger', 'LI'])
    """
    if load is None:
        from li_adger.loader import load_table

        def load(config: str) -> dict[str, list]:
            return load_table(config).to_pydict()

    sentences = load("sentences")
    pairs = load("pairs")
    if hasattr(sentences, "keys") and "test" in sentences:
        sentences, pairs = sentences["test"], pairs["test"]
    judgements = dict(zip(sentences["id"], sentences["judgement"], strict=True))
    keep = [not d for d in pairs["discarded"]]

    def col(name: str) -> list:
        return [v for v, k in zip(pairs[name], keep, strict=True) if k]

    return PairTable.from_judgements(
        col("good_id"),
        col("bad_id"),
        judgements,
        source=col("source"),
        phenomenon=col("phenomenon"),
    )


@dataclass(frozen=True, eq=False)
class ModelDeltas:
    """A model's scores as the metric uses them, computed once by :func:`model_deltas`.

    ``z`` maps each scored sentence id to its z-score (the scores as given when
    ``standardized`` is false); ``delta`` holds ``Δlm = z(good) − z(bad)`` for every pair of
    the table, in table order (NaN for a pair excluded for a missing human judgement whose
    members lack a score); ``n_sentences`` is the number of sentences the z-scores are
    computed over; ``standardized`` tells whether the scores were z-scored here.
    """

    z: dict[str, float]
    delta: np.ndarray
    n_sentences: int
    standardized: bool


def _check_ids(scores: Mapping[str, float], pairs: PairTable) -> None:
    known = set(pairs.sentence_ids())
    unknown = [k for k in scores if k not in known]
    if unknown:
        raise ValueError(
            f"scores have {len(unknown)} sentence id(s) unknown to the dataset, "
            f"e.g. {unknown[0]!r} (expected ids of the {len(known)} dataset sentences)"
        )


def model_deltas(
    scores: Mapping[str, float],
    pairs: PairTable,
    *,
    standardize: bool = True,
    population: ArrayLike | None = None,
) -> ModelDeltas:
    """Z-score a model's sentence scores and take one ``Δlm`` per pair of ``pairs``.

    The z-scores are over all sentences given, or over ``population`` (the scores of a larger
    set of sentences; :func:`metric_adc.core.zscore_by_id`). With ``standardize=False`` the
    scores are taken as z-scores already. Every member of a pair with a human judgement needs
    a score; a pair without one may lack scores (its ``Δlm`` is then NaN; it is excluded from
    every statistic anyway). Ids unknown to the table raise.

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c"], ["b", "d"],
    ...                               {"a": 1.0, "b": 0.0, "c": 0.5, "d": 0.2})
    >>> md = model_deltas({"a": 4.0, "b": 2.0, "c": 3.0, "d": 3.0}, t)
    >>> md.delta.round(4).tolist(), md.n_sentences, md.standardized
    ([2.8284, 0.0], 4, True)
    """
    check_mapping(scores, "scores")
    standardize = check_bool(standardize, "standardize")
    _check_ids(scores, pairs)
    ids = list(scores)
    values = [scores[k] for k in ids]
    if standardize:
        z = core.zscore_by_id(ids, values, population=population)
    else:
        z = dict(zip(ids, as_finite(values, "scores").tolist(), strict=True))
    # a pair excluded for a missing human judgement needs no model score: its Δlm is NaN then
    h = pairs.human_delta if pairs.human_delta is not None else np.zeros(len(pairs))
    need = np.asarray(
        [
            not math.isnan(d) or (g in z and b in z)
            for g, b, d in zip(pairs.good_ids, pairs.bad_ids, h, strict=True)
        ],
        dtype=bool,
    )
    unscored = [
        i
        for g, b, k in zip(pairs.good_ids, pairs.bad_ids, need, strict=True)
        if k
        for i in (g, b)
        if i not in z
    ]
    if unscored:
        unscored = list(dict.fromkeys(unscored))
        raise ValueError(
            f"'scores' has no score for {len(unscored)} sentence(s) of the pairs, e.g. "
            f"{unscored[0]!r}: every member of a pair with a human judgement needs one"
        )
    dlm = np.full(len(pairs), np.nan)
    dlm[need] = core.pair_deltas(
        z,
        [g for g, k in zip(pairs.good_ids, need, strict=True) if k],
        [b for b, k in zip(pairs.bad_ids, need, strict=True) if k],
    )
    n = len(z) if population is None else len(np.atleast_1d(population))
    return ModelDeltas(z, dlm, n, bool(standardize))


def thesis_model_deltas(
    pairs: PairTable, dir: str | os.PathLike | None = None
) -> list[tuple[ThesisModel, ModelDeltas]]:
    """The thesis's 8 models (:func:`metric_adc.thesis.outputs.load_thesis_models`) on ``pairs``,
    each through :func:`model_deltas` (its z-scores used as given where the thesis gives
    z-scores), in the thesis's order. The deltas equal the thesis's ``*_zscore-delta``
    columns (the first pair's trigram log-prob delta there: -0.40918127278646).

    Examples
    --------
    >>> t = thesis_pair_table()
    >>> [(m.name, round(float(md.delta[0]), 6)) for m, md in thesis_model_deltas(t)][-1]
    ('trigram-logprob', -0.409181)
    """
    from metric_adc.thesis import outputs as thesis

    return [
        (m, model_deltas(m.scores, pairs, standardize=not m.standardized))
        for m in thesis.load_thesis_models(dir)
    ]


# ----------------------------------------------------------------------------- checks against the dataset
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
        if i in dataset_texts and _normal(t) != _normal(dataset_texts[i])
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


class UnscoredSentencesWarning(UserWarning):
    """Z-scores taken over fewer sentences than the dataset has (:func:`check_coverage`)."""


def check_coverage(
    scored_ids: Iterable[str],
    dataset_ids: Sequence[str],
    *,
    needed: Iterable[str] = (),
    name: str = "scores",
    dataset: str = "LI-Adger",
) -> str | None:
    """Check which of a dataset's sentences a model scored: the rule for every caller.

    An id the dataset lacks, or no score for a sentence of ``needed`` (the members of the
    pairs evaluated), is a :class:`~metric_adc.scores.file.ScoresFileError` naming ``name``.
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
            f"{dataset} pairs need, e.g. {lacking[0]!r}: score every sentence of the dataset"
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
