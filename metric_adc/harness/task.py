"""The ``li_adger_adc`` task's documents and metrics: sentence log-likelihoods → the ADC.

lm-evaluation-harness calls these through ``li_adger_adc.yaml`` (by way of ``utils.py``):

- :func:`sentences` is the task's ``custom_dataset``: the 4,178 LI-Adger sentences from
  :func:`li_adger.load`, one document per sentence, never fetched from the Hub.
- :func:`process_results` turns one document's log-likelihood into the item
  ``(sentence id, log-likelihood)``, the same item for every metric.
- :func:`blimp`, :func:`adc_0_5`, :func:`adc_1`, :func:`adc_5` and :func:`pearson_pairs` are
  the metrics' aggregations. Each gets the items of all documents, in whatever order the
  harness gathered them, and calls :func:`summary`, which puts the log-likelihoods in the
  dataset's sentence order (so nothing depends on document order or batching), z-scores
  them over all 4,178 sentences and hands the 2,365 evaluable pairs' deltas and human deltas
  to :func:`metric_adc.core.summarize`: the numbers ``python -m metric_adc report`` gives for
  a scores file holding the same log-likelihoods.

The log-likelihood is the harness's own, for an empty context: the harness scores the
continuation ``" " + sentence`` (its ``target_delimiter``, as in its BLiMP tasks) after the
tokenizer's BOS token, else its EOS token, and sums the continuation's token log-probabilities
(natural log). The task folder's README says more.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from metric_adc import core

__all__ = [
    "METRICS",
    "adc_0_5",
    "adc_1",
    "adc_5",
    "blimp",
    "pearson_pairs",
    "process_results",
    "sentences",
    "summary",
]

METRICS: tuple[str, ...] = ("blimp", "adc_0.5", "adc_1", "adc_5", "pearson_pairs")
"""The metrics the task reports, as the harness names them (``metric_list`` in the YAML)."""

Item = tuple[str, float]
"""What :func:`process_results` gives each metric for one document: (sentence id, log-likelihood)."""


def sentences(**metadata: Any):
    """The task's documents: ``{"test": li_adger.load("sentences")}``, one row per sentence.

    The harness calls a ``custom_dataset`` with the task's metadata and the run's model
    arguments as keyword arguments; none of them changes the dataset, so they are ignored.

    Examples
    --------
    >>> import li_adger
    >>> docs = sentences(version=1.0, pretrained="gpt2")["test"]
    >>> docs.num_rows, docs[0]["id"] == li_adger.load("sentences")[0]["id"]
    (4178, True)
    """
    import datasets

    import li_adger

    return datasets.DatasetDict({"test": li_adger.load("sentences")})


def process_results(doc: Mapping[str, Any], results: Sequence[Sequence]) -> dict[str, Item]:
    """One document's item ``(sentence id, log-likelihood)``, under every metric's name.

    ``results`` holds the harness's answer to the document's one request,
    ``[(log-likelihood, is_greedy)]``.

    Examples
    --------
    >>> process_results({"id": "s1", "sentence": "A."}, [(-12.5, False)])["adc_0.5"]
    ('s1', -12.5)
    >>> process_results({"id": "s1"}, [(-1.0, False), (-2.0, False)])
    Traceback (most recent call last):
    ...
    ValueError: li_adger_adc: document 's1' got 2 results, expected 1 (one log-likelihood per sentence)
    """
    if len(results) != 1:
        raise ValueError(
            f"li_adger_adc: document {doc['id']!r} got {len(results)} results, "
            "expected 1 (one log-likelihood per sentence)"
        )
    item = (str(doc["id"]), float(results[0][0]))
    return dict.fromkeys(METRICS, item)


@functools.cache
def _pairs():
    """LI-Adger's evaluable pairs, loaded once per process (every aggregation needs them)."""
    from metric_adc.pairs import li_adger_pairs

    return li_adger_pairs()


def _scores(items: Iterable[Sequence], known: Sequence[str]) -> dict[str, float]:
    """Items → ``{id: log-likelihood}`` in the order of ``known`` (the dataset's sentences),
    or raise if an id is unknown, repeated, or missing."""
    by_id: dict[str, float] = {}
    for item in items:
        if len(item) != 2:
            raise ValueError(
                f"li_adger_adc: an item must be (sentence id, log-likelihood) (got {item!r:.80})"
            )
        sid, ll = str(item[0]), float(item[1])
        if sid in by_id:
            raise ValueError(
                f"li_adger_adc: sentence {sid!r} was scored twice; expected each of the "
                f"{len(known)} sentences once"
            )
        if not math.isfinite(ll):
            raise ValueError(f"li_adger_adc: sentence {sid!r} has log-likelihood {ll!r}")
        by_id[sid] = ll
    unknown = set(by_id).difference(known)
    if unknown:
        raise ValueError(
            f"li_adger_adc: {len(unknown)} sentence id(s) are not LI-Adger's, e.g. {min(unknown)!r}"
        )
    missing = [k for k in known if k not in by_id]
    if missing:
        raise ValueError(
            f"li_adger_adc: the ADC z-scores over all {len(known)} LI-Adger sentences, but "
            f"{len(missing)} have no log-likelihood (e.g. {missing[0]!r}); got {len(by_id)}. "
            "Run the task on every document (without --limit or --samples)."
        )
    return {k: by_id[k] for k in known}


def summary(items: Iterable[Sequence]) -> dict:
    """:func:`metric_adc.core.summarize` of a model on LI-Adger's 2,365 evaluable pairs.

    ``items`` are ``(sentence id, log-likelihood)`` for all 4,178 sentences, in any order. The
    log-likelihoods are z-scored over all of them (:func:`metric_adc.core.zscore_by_id`), each
    pair's ``Δlm = z(good) − z(bad)`` (:func:`metric_adc.core.pair_deltas`) is compared with
    its human delta, and the thresholds are :data:`metric_adc.core.DEFAULT_DELTAS`.

    Examples
    --------
    The thesis's BERT-base (PLL) scores, as the README's results table shows them:

    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> bert = load_thesis_scores()["bert-base-uncased-mlm"]
    >>> s = summary(bert.items())
    >>> s["n_pairs"], round(s["blimp"], 3), round(s["adc"]["0.5"], 3)
    (2365, 0.852, 0.364)
    >>> summary([("32.1.martin.1a.g.01", -1.0)])
    Traceback (most recent call last):
    ...
    ValueError: li_adger_adc: the ADC z-scores over all 4178 LI-Adger sentences, but 4177 have no log-likelihood (e.g. ...); got 1. Run the task on every document (without --limit or --samples).
    """
    pairs = _pairs()
    scores = _scores(items, list(pairs.judgements))
    z = core.zscore_by_id(list(scores), list(scores.values()))
    model_delta = core.pair_deltas(z, pairs.good_ids, pairs.bad_ids)
    return core.summarize(model_delta, pairs.human_delta, deltas=core.DEFAULT_DELTAS)


def blimp(items: Iterable[Sequence]) -> float:
    """The BLiMP criterion: the share of pairs whose acceptable sentence scores higher.

    Examples
    --------
    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> round(blimp(load_thesis_scores()["bert-base-uncased-mlm"].items()), 3)
    0.852
    """
    return summary(items)["blimp"]


def adc_0_5(items: Iterable[Sequence]) -> float:
    """ADC at δ = 0.5.

    Examples
    --------
    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> round(adc_0_5(load_thesis_scores()["bert-base-uncased-mlm"].items()), 3)
    0.364
    """
    return summary(items)["adc"][core.delta_key(0.5)]


def adc_1(items: Iterable[Sequence]) -> float:
    """ADC at δ = 1.

    Examples
    --------
    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> round(adc_1(load_thesis_scores()["bert-base-uncased-mlm"].items()), 3)
    0.63
    """
    return summary(items)["adc"][core.delta_key(1.0)]


def adc_5(items: Iterable[Sequence]) -> float:
    """ADC at δ = 5.

    Examples
    --------
    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> round(adc_5(load_thesis_scores()["bert-base-uncased-mlm"].items()), 3)
    0.848
    """
    return summary(items)["adc"][core.delta_key(5.0)]


def pearson_pairs(items: Iterable[Sequence]) -> float | None:
    """Pearson's r between the pairs' model deltas and human deltas (``None`` if undefined).

    Examples
    --------
    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> round(pearson_pairs(load_thesis_scores()["bert-base-uncased-mlm"].items()), 3)
    0.385
    """
    return summary(items)["pearson_pairs"]
