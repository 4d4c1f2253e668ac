"""Tiny stand-ins for the app's data, for examples and tests that need no dataset.

:func:`toy_space_data` is LI-Adger in three pairs with one model; :func:`toy_items` and
:func:`toy_benchmark_data` are a BLiMP-shaped benchmark in four pairs with two models.
"""

from __future__ import annotations

import pandas as pd

from li_adger.benchmarks import BENCHMARKS, Items
from metric_adc.family.statistics import evaluate_items
from metric_adc.pairs import PairTable
from space.data.benchmark_data import BenchmarkData, FamilyEntry
from space.data.dataset import FRAME_COLUMNS
from space.data.entries import entry_from_scores
from space.data.kinds import KIND_REFERENCE, KIND_RESULTS
from space.data.space_data import SpaceData

__all__ = ["toy_benchmark_data", "toy_items", "toy_space_data"]

_TOY = [
    # pair id, phenomenon, good id, good sentence, judgement, bad id, bad sentence, judgement
    ("toy.1", "agreement", "g1", "The keys are lost.", 1.0, "b1", "The keys is lost.", -1.0),
    ("toy.2", "islands", "g2", "Who did you see?", 0.8, "b2", "Who did you see him?", -0.2),
    ("toy.3", "islands", "g3", "She left.", 0.5, "b3", "She left left.", -0.9),
]


def toy_space_data() -> SpaceData:
    """A tiny :class:`~space.data.space_data.SpaceData` (3 pairs, one model scoring minus the word
    count) with the BLiMP-shaped :func:`toy_benchmark_data` as its one other benchmark.

    Examples
    --------
    >>> d = toy_space_data()
    >>> len(d.pairs), d.models[0].name, d.models[0].model_delta.round(3).tolist()
    (3, 'toy-length', [0.0, 1.061, 1.061])
    >>> list(d.benchmarks)
    ['blimp']
    """
    cols = ["pair_id", "phenomenon", "good_id", "good_sentence", "good_judgement"]
    cols += ["bad_id", "bad_sentence", "bad_judgement"]
    frame = pd.DataFrame(_TOY, columns=cols)
    frame["source"] = "toy"
    frame["human_delta"] = frame["good_judgement"] - frame["bad_judgement"]
    judgements = dict(zip(frame["good_id"], frame["good_judgement"], strict=True))
    judgements |= dict(zip(frame["bad_id"], frame["bad_judgement"], strict=True))
    pairs = PairTable.from_judgements(
        frame["good_id"].tolist(),
        frame["bad_id"].tolist(),
        judgements,
        source=frame["source"].tolist(),
        phenomenon=frame["phenomenon"].tolist(),
    )
    sentences = dict(zip(frame["good_id"], frame["good_sentence"], strict=True))
    sentences |= dict(zip(frame["bad_id"], frame["bad_sentence"], strict=True))
    scores = {i: -float(len(s.split())) for i, s in sentences.items()}
    model = entry_from_scores(scores, pairs, name="toy-length", kind=KIND_RESULTS)
    acceptable = {i: i.startswith("g") for i in sentences}
    labels = {"agreement": "Agreement (toy)", "islands": "Islands (toy)"}
    return SpaceData(
        pairs,
        frame[FRAME_COLUMNS],
        [model],
        acceptable,
        labels=labels,
        benchmarks={"blimp": toy_benchmark_data()},
    )


def toy_items() -> Items:
    """BLiMP-shaped items: 4 pairs in 2 paradigms (``a``, ``b``) of one term and field.

    Examples
    --------
    >>> toy_items().comparisons[["pair_id", "UID"]].values.tolist()
    [['a.0', 'a'], ['a.1', 'a'], ['b.0', 'b'], ['b.1', 'b']]
    """
    ids = [f"{p}.{k}" for p in "ab" for k in range(2)]
    units = pd.DataFrame(
        {
            "id": [f"{i}.{m}" for i in ids for m in ("good", "bad")],
            "sentence": [f"sentence {n}" for n in range(8)],
        }
    )
    comparisons = pd.DataFrame(
        {
            "pair_id": ids,
            "good_id": [f"{i}.good" for i in ids],
            "bad_id": [f"{i}.bad" for i in ids],
            "UID": [i[0] for i in ids],
            "linguistics_term": "toy_term",
            "field": "syntax",
        }
    )
    return Items("blimp", "pairs", units, comparisons)


def toy_benchmark_data() -> BenchmarkData:
    """:func:`toy_items` with two models (one passing 3 of 4 pairs, one 1 of 4) and a human
    reference row.

    Examples
    --------
    >>> b = toy_benchmark_data()
    >>> [(e.name, e.result["headline"]["value"]) for e in b.entries], b.human.name
    ([('toy-good', 0.75), ('toy-bad', 0.25)], 'human')
    """
    items = toy_items()
    good = dict.fromkeys(items.comparisons["good_id"], 0.0)
    bad = dict.fromkeys(items.comparisons["bad_id"], -1.0)
    scores_a = {**good, **bad, "b.1.bad": 1.0}
    scores_b = {**good, **{k: 1.0 for k in bad}, "a.0.bad": -1.0}
    spec = BENCHMARKS["blimp"]
    entries = [
        FamilyEntry("toy-good", KIND_RESULTS, evaluate_items(spec, items, scores_a)),
        FamilyEntry("toy-bad", KIND_RESULTS, evaluate_items(spec, items, scores_b)),
    ]
    human = FamilyEntry(
        "human", KIND_REFERENCE, evaluate_items(spec, items, {**good, **bad}), note="toy humans"
    )
    return BenchmarkData(spec, entries, human=human, items=items)
