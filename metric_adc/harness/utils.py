"""The functions ``li_adger_adc.yaml`` names as ``!function utils.NAME``.

lm-evaluation-harness loads this file by its path, afresh for each name; the computation and
the pair table it reads once live in :mod:`metric_adc.harness.task`, imported as a module.

- :func:`sentences` is the task's ``custom_dataset``: the 4,178 LI-Adger sentences from
  :func:`li_adger.load`, one document per sentence, pair by pair, never fetched from the Hub.
- :func:`process_results` turns one document's log-likelihood into the item
  ``(sentence id, log-likelihood)``, the same item for every metric.
- :func:`blimp`, :func:`adc_0_5`, :func:`adc_1`, :func:`adc_5` and :func:`pearson_pairs` are
  the metrics' aggregations: each gets the items of all documents, in whatever order the
  harness gathered them, and reads its statistic off :func:`metric_adc.harness.task.evaluate`.
- :func:`blimp_stderr` … :func:`pearson_pairs_stderr` are their standard errors (the project's
  bootstrap, resampling phenomena), reported as the metrics ``<metric>_stderr``: the harness
  prints them as ``± se`` beside each metric.

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

from li_adger.io.readers import shown
from metric_adc.harness.task import (
    METRICS,
    HarnessItemError,
    Item,
    document_order,
    evaluate,
    log_likelihood,
    pair_table,
)

__all__ = [
    "STDERR_METRICS",
    "adc_0_5",
    "adc_0_5_stderr",
    "adc_1",
    "adc_1_stderr",
    "adc_5",
    "adc_5_stderr",
    "blimp",
    "blimp_stderr",
    "pearson_pairs",
    "pearson_pairs_stderr",
    "process_results",
    "sentences",
]

STDERR_METRICS: tuple[str, ...] = tuple(f"{m}_stderr" for m in METRICS)
"""The standard errors, as metrics of their own: the harness prints ``<metric>_stderr`` beside
``<metric>`` (``± se``), and a custom aggregation has no other way to give it (the harness
bootstraps only its own aggregations). :func:`process_results` lists them after the metrics, so
their values replace the ``N/A`` the harness first writes under the same key."""


def sentences(**metadata: Any):
    """The task's documents: ``{"test": LI-Adger's sentences}``, one row per sentence, pair by
    pair (:func:`~metric_adc.harness.task.document_order`: ``--limit N`` scores whole pairs).

    The sentences are :func:`li_adger.load`'s, never fetched from the Hub. The harness calls a
    ``custom_dataset`` with the task's metadata and the run's model arguments as keyword
    arguments; none of them changes the dataset, so they are ignored.

    Examples
    --------
    >>> import li_adger
    >>> docs = sentences(version=1.0, pretrained="gpt2")["test"]
    >>> docs.num_rows, sorted(docs["id"]) == sorted(li_adger.load("sentences")["id"])
    (4178, True)
    >>> docs[0]["id"], docs[1]["id"]
    ('32.1.martin.1a.g.01', '32.1.martin.2c.*.01')
    """
    import datasets

    import li_adger

    table = li_adger.load("sentences")
    pairs = pair_table()
    order = document_order(table["id"], pairs.good_ids, pairs.bad_ids)
    return datasets.DatasetDict({"test": table.select(order)})


def process_results(doc: Mapping[str, Any], results: Sequence[Sequence]) -> dict[str, Item]:
    """One document's item ``(sentence id, log-likelihood)``, under every metric's name (and
    every standard error's, :data:`STDERR_METRICS`).

    ``results`` holds the harness's answer to the document's one request,
    ``[(log-likelihood, is_greedy)]``. A malformed document or answer is a
    :class:`~metric_adc.harness.task.HarnessItemError` naming the document and the field.

    Examples
    --------
    >>> process_results({"id": "s1", "sentence": "A."}, [(-12.5, False)])["adc_0.5"]
    ('s1', -12.5)
    >>> process_results({"id": "s1"}, [(-1.0, False), (-2.0, False)])
    Traceback (most recent call last):
    ...
    metric_adc.harness.task.HarnessItemError: li_adger_adc: document 's1': results has 2 answers, expected 1 (one log-likelihood per sentence)
    >>> process_results({"id": "s1"}, [(True, False)])
    Traceback (most recent call last):
    ...
    metric_adc.harness.task.HarnessItemError: li_adger_adc: document 's1': results[0][0], the log-likelihood, must be a number (got True)
    """
    sid = doc.get("id") if isinstance(doc, Mapping) else None
    if not isinstance(sid, str) or not sid:
        raise HarnessItemError(
            f"li_adger_adc: a document without a sentence id: doc['id'] must be a non-empty "
            f"string (got {shown(sid)} in {shown(doc)})"
        )
    where = f"li_adger_adc: document {sid!r}"
    if isinstance(results, str | bytes) or not isinstance(results, Sequence):
        raise HarnessItemError(f"{where}: results must be a list of answers (got {shown(results)})")
    if len(results) != 1:
        raise HarnessItemError(
            f"{where}: results has {len(results)} answers, "
            "expected 1 (one log-likelihood per sentence)"
        )
    answer = results[0]
    if isinstance(answer, str | bytes) or not isinstance(answer, Sequence) or not answer:
        raise HarnessItemError(
            f"{where}: results[0] must be (log-likelihood, is_greedy) (got {shown(answer)})"
        )
    item = (sid, log_likelihood(answer[0], where, "results[0][0]"))
    return dict.fromkeys((*METRICS, *STDERR_METRICS), item)


def blimp(items: Iterable[Sequence]) -> float | None:
    """The BLiMP criterion: the share of pairs whose acceptable sentence scores higher."""
    return evaluate(items).value("blimp")


def adc_0_5(items: Iterable[Sequence]) -> float | None:
    """ADC at δ = 0.5."""
    return evaluate(items).value("adc_0.5")


def adc_1(items: Iterable[Sequence]) -> float | None:
    """ADC at δ = 1."""
    return evaluate(items).value("adc_1")


def adc_5(items: Iterable[Sequence]) -> float | None:
    """ADC at δ = 5."""
    return evaluate(items).value("adc_5")


def pearson_pairs(items: Iterable[Sequence]) -> float | None:
    """Pearson's r between the pairs' model deltas and human deltas (``None`` if undefined)."""
    return evaluate(items).value("pearson_pairs")


def _stderr(items: Iterable[Sequence], metric: str) -> float | str:
    se = evaluate(items).stderr[metric]
    return "N/A" if se is None else se  # the harness's word for "no standard error"


def blimp_stderr(items: Iterable[Sequence]) -> float | str:
    """The bootstrap standard error of :func:`blimp` (resampling phenomena)."""
    return _stderr(items, "blimp")


def adc_0_5_stderr(items: Iterable[Sequence]) -> float | str:
    """The bootstrap standard error of :func:`adc_0_5`."""
    return _stderr(items, "adc_0.5")


def adc_1_stderr(items: Iterable[Sequence]) -> float | str:
    """The bootstrap standard error of :func:`adc_1`."""
    return _stderr(items, "adc_1")


def adc_5_stderr(items: Iterable[Sequence]) -> float | str:
    """The bootstrap standard error of :func:`adc_5`."""
    return _stderr(items, "adc_5")


def pearson_pairs_stderr(items: Iterable[Sequence]) -> float | str:
    """The bootstrap standard error of :func:`pearson_pairs`."""
    return _stderr(items, "pearson_pairs")
