"""The functions ``li_adger_adc.yaml`` names as ``!function utils.NAME``.

lm-evaluation-harness loads this file by its path, afresh for each name; the computation and
the pair table it reads once live in :mod:`metric_adc.harness.task`, imported as a module.

- :func:`sentences` is the task's ``custom_dataset``: the 4,178 LI-Adger sentences from
  :func:`li_adger.load`, one document per sentence, never fetched from the Hub.
- :func:`process_results` turns one document's log-likelihood into the item
  ``(sentence id, log-likelihood)``, the same item for every metric.
- :func:`blimp`, :func:`adc_0_5`, :func:`adc_1`, :func:`adc_5` and :func:`pearson_pairs` are
  the metrics' aggregations: each gets the items of all documents, in whatever order the
  harness gathered them, and reads its statistic off :func:`metric_adc.harness.task.summary`.

Examples
--------
The thesis's BERT-base (PLL) scores give the README's results row for them (BLiMP 0.852,
ADC 0.364 / 0.630 / 0.848, Pearson 0.385):

>>> from metric_adc.thesis.outputs import load_thesis_scores
>>> items = list(load_thesis_scores()["bert-base-uncased-mlm"].items())
>>> [round(f(items), 3) for f in (blimp, adc_0_5, adc_1, adc_5, pearson_pairs)]
[0.852, 0.364, 0.63, 0.848, 0.385]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from metric_adc import core
from metric_adc.harness.task import METRICS, Item, summary

__all__ = [
    "adc_0_5",
    "adc_1",
    "adc_5",
    "blimp",
    "pearson_pairs",
    "process_results",
    "sentences",
]


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


def blimp(items: Iterable[Sequence]) -> float:
    """The BLiMP criterion: the share of pairs whose acceptable sentence scores higher."""
    return summary(items)["blimp"]


def adc_0_5(items: Iterable[Sequence]) -> float:
    """ADC at δ = 0.5."""
    return summary(items)["adc"][core.delta_key(0.5)]


def adc_1(items: Iterable[Sequence]) -> float:
    """ADC at δ = 1."""
    return summary(items)["adc"][core.delta_key(1.0)]


def adc_5(items: Iterable[Sequence]) -> float:
    """ADC at δ = 5."""
    return summary(items)["adc"][core.delta_key(5.0)]


def pearson_pairs(items: Iterable[Sequence]) -> float | None:
    """Pearson's r between the pairs' model deltas and human deltas (``None`` if undefined)."""
    return summary(items)["pearson_pairs"]
