"""Pair tables and model deltas: what every result row, analysis, ceiling and app view reads.

A :class:`PairTable` holds minimal pairs with their human judgements (LI-Adger's evaluable
pairs from :func:`li_adger_pairs`, the thesis's pair file from
:func:`metric_adc.thesis.models.thesis_pair_table`, or pairs without judgements for the BLiMP
criterion alone). :func:`model_deltas` turns a model's sentence scores into its z-scores and
one ``Δlm`` per pair, once: a :class:`ModelDeltas` that :mod:`metric_adc.result_rows`,
:mod:`metric_adc.report.analysis`, the ceiling's model comparison and the Space all take
instead of recomputing it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from metric_adc import core, formulas
from metric_adc.input_checks import as_finite, check_bool, check_mapping

if TYPE_CHECKING:
    from li_adger.benchmarks import Items

__all__ = [
    "ModelDeltas",
    "PairTable",
    "li_adger_pairs",
    "model_deltas",
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

    def pairs_to_score(self, scores: Mapping[str, float]) -> np.ndarray:
        """Which pairs take a ``Δlm`` from ``scores`` (a mapping of sentence id to score): every
        pair with a human judgement, and a pair without one whose members are both scored.
        Raises on an id unknown to the table and on a member of a judged pair without a score.

        Examples
        --------
        >>> t = PairTable.from_judgements(["a", "c"], ["b", "d"],
        ...                               {"a": 1.0, "b": 0.0, "c": 0.5, "d": None})
        >>> t.pairs_to_score({"a": 1.0, "b": 2.0}).tolist()
        [True, False]
        >>> t.pairs_to_score({"a": 1.0})
        Traceback (most recent call last):
        ...
        ValueError: 'scores' has no score for 1 sentence(s) of the pairs, e.g. 'b': every member of a pair with a human judgement needs one
        """
        known = set(self.sentence_ids())
        unknown = [k for k in scores if k not in known]
        if unknown:
            raise ValueError(
                f"scores have {len(unknown)} sentence id(s) unknown to the dataset, "
                f"e.g. {unknown[0]!r} (expected ids of the {len(known)} dataset sentences)"
            )
        # a pair excluded for a missing human judgement needs no model score: its Δlm is NaN
        h = self.human_delta if self.human_delta is not None else np.zeros(len(self))
        need = np.asarray(
            [
                not math.isnan(d) or (g in scores and b in scores)
                for g, b, d in zip(self.good_ids, self.bad_ids, h, strict=True)
            ],
            dtype=bool,
        )
        unscored = [
            i
            for g, b, k in zip(self.good_ids, self.bad_ids, need, strict=True)
            if k
            for i in (g, b)
            if i not in scores
        ]
        if unscored:
            unscored = list(dict.fromkeys(unscored))
            raise ValueError(
                f"'scores' has no score for {len(unscored)} sentence(s) of the pairs, e.g. "
                f"{unscored[0]!r}: every member of a pair with a human judgement needs one"
            )
        return need

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


def li_adger_pairs(items: Items | None = None) -> PairTable:
    """LI-Adger's evaluable pairs (the 2,365 not discarded) as a :class:`PairTable`, from the
    benchmark's items (:func:`li_adger.benchmarks.liadger.from_tables`): its comparisons, and
    every sentence's judgement from its labels.

    ``items`` defaults to the package's build, read once per process
    (:func:`metric_adc.family.items.items_of`); the app passes the items of the published copy.

    Examples
    --------
    >>> t = li_adger_pairs()
    >>> len(t), len(t.judgements), sorted(set(t.source)), t.phenomenon[0]
    (2365, 4178, ['Adger', 'LI'], '32.1.martin.1a+2c')
    >>> round(float(t.human_delta[0]), 4)
    2.5142
    """
    if items is None:
        from metric_adc.family.items import items_of

        items = items_of("li_adger")
    c, labels = items.comparisons, items.labels
    return PairTable.from_judgements(
        c["good_id"].tolist(),
        c["bad_id"].tolist(),
        dict(zip(labels["id"].tolist(), labels["judgement"].tolist(), strict=True)),
        source=c["source"].tolist(),
        phenomenon=c["phenomenon"].tolist(),
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


def model_deltas(
    scores: Mapping[str, float],
    pairs: PairTable,
    *,
    standardize: bool = True,
    population: ArrayLike | None = None,
) -> ModelDeltas:
    """Z-score a model's sentence scores and take one ``Δlm`` per pair of ``pairs``.

    The z-scores are over all sentences given, or over ``population`` (the scores of a larger
    set of sentences, as :func:`metric_adc.core.zscore_by_id` does). With ``standardize=False`` the
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
    need = pairs.pairs_to_score(scores)
    standardize = check_bool(standardize, "standardize")
    ids = list(scores)
    values = as_finite([scores[k] for k in ids], "scores")
    if standardize and population is not None:
        values = formulas.zscores(values, "population", as_finite(population, "population"))
    elif standardize:
        values = formulas.zscores(values, "scores")
    z = dict(zip(ids, values.tolist(), strict=True))
    dlm = np.full(need.size, np.nan)
    dlm[need] = formulas.differences(
        z,
        [g for g, k in zip(pairs.good_ids, need, strict=True) if k],
        [b for b, k in zip(pairs.bad_ids, need, strict=True) if k],
    )
    n = len(z) if population is None else len(np.atleast_1d(population))
    return ModelDeltas(z, dlm, n, bool(standardize))
