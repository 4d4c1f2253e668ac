"""What an NPI training unit trains on and is evaluated on, for every method that trains
(the fine-tuning task, the bag of words).

Training sentences are the probing files' ``train`` split of the unit's environments, labelled
by :func:`li_adger.benchmarks.npi_sets.acceptable` (the pinned training files carry the scope
feature only). ``cap`` keeps the first N sentences of each environment's file (whole
paradigms: the files list a paradigm's sentences together). Evaluation sets, with the ids of
:mod:`li_adger.benchmarks.npi_sets`:

- ``npi_test``: the test sentences of the unit's evaluation environments, id
  ``<environment>.test.<line>``, gold = acceptability (the 5,500 minimal pairs' sentences are
  all among them: the metric judges the pairs from these predictions);
- ``wilcox``: Wilcox et al.'s 104 sentences, id ``wilcox.<line>``, gold = acceptability.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from li_adger.benchmarks.npi import ENVIRONMENTS
from li_adger.benchmarks.npi_sets import (
    WILCOX_FILE,
    probing_file,
    read_probing,
    read_wilcox,
)

__all__ = ["EVAL_SETS", "environments_from", "eval_sets", "source_files", "train_examples"]

EVAL_SETS: tuple[str, ...] = ("npi_test", "wilcox")


def environments_from(text: str) -> list[str]:
    """``all`` or comma-separated environment names, in the benchmark's order.

    Examples
    --------
    >>> environments_from("only,adverbs")
    ['adverbs', 'only']
    >>> environments_from("onl")
    Traceback (most recent call last):
    ...
    ValueError: unknown environment 'onl'; expected 'all' or some of adverbs, conditionals, determiner_negation_biclausal, sentential_negation_biclausal, only, quantifiers, questions, simplequestions, superlative
    """
    if text == "all":
        return list(ENVIRONMENTS)
    names = [t.strip() for t in text.split(",") if t.strip()]
    for name in names:
        if name not in ENVIRONMENTS:
            raise ValueError(
                f"unknown environment {name!r}; expected 'all' or some of {', '.join(ENVIRONMENTS)}"
            )
    return [e for e in ENVIRONMENTS if e in names]


def source_files(environments: Sequence[str]) -> list[str]:
    """The pinned files a unit over these environments reads (training and test splits).

    Examples
    --------
    >>> source_files(["only"])
    ['npi/probing/only/scope/train.tsv', 'npi/probing/only/scope/test_full.tsv', 'npi/wilcox_sentences.tsv']
    """
    return [
        *(probing_file(e, s) for e in environments for s in ("train", "test")),
        WILCOX_FILE,
    ]


def train_examples(
    paths: Mapping[str, Path], environments: Sequence[str], cap: int | None
) -> list[tuple[str, int]]:
    """``(sentence, acceptability)`` of the first ``cap`` training sentences of each environment.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> rows = train_examples(find_sources(source_files(["only"])), ["only"], 8)
    >>> len(rows), sorted({label for _, label in rows})
    (8, [0, 1])
    """
    out = []
    for env in environments:
        rows = read_probing(paths, env, "train")
        out += [(r.sentence, r.acceptable) for r in rows[:cap]]
    return out


def eval_sets(
    paths: Mapping[str, Path], environments: Sequence[str], cap: int | None = None
) -> dict[str, list[tuple[str, str, int]]]:
    """``{set: [(id, sentence, gold)]}`` of :data:`EVAL_SETS` for these evaluation environments
    (``cap``: the first N test sentences of each environment; the Wilcox set whole).

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> sets = eval_sets(find_sources(source_files(["only"])), ["only"])
    >>> {k: len(v) for k, v in sets.items()}, sets["npi_test"][0][0]
    ({'npi_test': 1000, 'wilcox': 104}, 'only.test.1')
    """
    test = [
        (r.id, r.sentence, r.acceptable)
        for e in environments
        for r in read_probing(paths, e, "test")[:cap]
    ]
    wilcox = [(r.id, r.sentence, r.acceptable) for r in read_wilcox(paths)]
    return {"npi_test": test, "wilcox": wilcox}
