"""The ``li_adger_adc`` task's computation: sentence log-likelihoods → the ADC on LI-Adger.

The functions lm-evaluation-harness calls are in :mod:`metric_adc.harness.utils` (named by
``li_adger_adc.yaml``); they hand their items to :func:`evaluate`, which puts the
log-likelihoods in the dataset's sentence order (so nothing depends on document order or
batching), z-scores them over all 4,178 sentences and hands the 2,365 evaluable pairs' deltas
and human deltas to :func:`metric_adc.core.summarize`: the numbers ``python -m metric_adc
report`` gives for a scores file holding the same log-likelihoods. The pair table is read once
per process here, whatever the harness reloads, and each set of items is evaluated once, however
many metrics ask for it.

The standard errors are the project's bootstrap (:func:`metric_adc.bootstrap.bootstrap_cis`),
resampling phenomena, with the seed and number of resamples ``report`` uses by default: the
``se`` of its intervals "resampling phenomena".

A partial run (the harness's ``--limit`` or ``--samples``) gives the metrics on the pairs whose
both members were scored, z-scored over the scored sentences, with a
:class:`PartialRunWarning` naming the counts: they are a smoke test, not LI-Adger's numbers.

The log-likelihood is the harness's own, for an empty context: the harness scores the
continuation ``" " + sentence`` (its ``target_delimiter``, as in its BLiMP tasks) after the
tokenizer's BOS token, else its EOS token, and sums the continuation's token log-probabilities
(natural log). The task folder's README says more.
"""

from __future__ import annotations

import functools
import math
import numbers
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from li_adger.io.readers import shown
from metric_adc import bootstrap, core

if TYPE_CHECKING:
    from metric_adc.pairs import PairTable

__all__ = [
    "METRICS",
    "N_RESAMPLES",
    "SEED",
    "STDERR_STATISTICS",
    "Evaluation",
    "HarnessItemError",
    "Item",
    "PartialRunWarning",
    "document_order",
    "evaluate",
    "log_likelihood",
    "pair_table",
    "summary",
]

METRICS: tuple[str, ...] = ("blimp", "adc_0.5", "adc_1", "adc_5", "pearson_pairs")
"""The metrics the task reports, as the harness names them (``metric_list`` in the YAML)."""

STDERR_STATISTICS: dict[str, tuple[str, float | None]] = {
    "blimp": ("blimp", None),
    "adc_0.5": ("adc", 0.5),
    "adc_1": ("adc", 1.0),
    "adc_5": ("adc", 5.0),
    "pearson_pairs": ("pearson_pairs", None),
}
"""Each metric's statistic for :func:`metric_adc.bootstrap.bootstrap_cis`."""

SEED = 0
"""The bootstrap's seed: ``report``'s default ``--seed``."""

N_RESAMPLES = 2000
"""The bootstrap's resamples: ``report``'s default ``--n-resamples``."""

Item = tuple[str, float]
"""What each metric gets for one document: (sentence id, log-likelihood)."""


class HarnessItemError(ValueError):
    """An item the harness handed the task is not ``(sentence id, log-likelihood)``, or the
    items do not fit LI-Adger; the message names the document (its sentence id, or the item's
    position when the id is at fault) and the field."""


class PartialRunWarning(UserWarning):
    """The run scored only some sentences (``--limit``, ``--samples``): the metrics are over the
    pairs whose both members were scored."""


def log_likelihood(value: object, where: str, field: str = "log-likelihood") -> float:
    """A log-likelihood as the harness gives it (a number, or its text in a samples file), as a
    finite float; else :class:`HarnessItemError` naming ``where`` and ``field``.

    Booleans are not numbers (JSON ``true`` is not 1.0).

    Examples
    --------
    >>> log_likelihood("-48.5", "doc 's1'"), log_likelihood(-3, "doc 's1'")
    (-48.5, -3.0)
    >>> log_likelihood(True, "doc 's1'", "results[0][0]")
    Traceback (most recent call last):
    ...
    metric_adc.harness.task.HarnessItemError: doc 's1': results[0][0], the log-likelihood, must be a number (got True)
    >>> log_likelihood("nan", "doc 's1'")
    Traceback (most recent call last):
    ...
    metric_adc.harness.task.HarnessItemError: doc 's1': the log-likelihood must be a finite number (got 'nan')
    """
    name = "the log-likelihood" if field == "log-likelihood" else f"{field}, the log-likelihood,"
    if isinstance(value, str):
        try:
            x = float(value)
        except ValueError:
            raise HarnessItemError(
                f"{where}: {name} must be a number (got {shown(value)})"
            ) from None
    elif isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_):
        try:
            x = float(value)
        except (OverflowError, ValueError):
            x = math.inf
    else:
        raise HarnessItemError(f"{where}: {name} must be a number (got {shown(value)})")
    if not math.isfinite(x):
        raise HarnessItemError(f"{where}: {name} must be a finite number (got {shown(value)})")
    return x


def document_order(
    sentence_ids: Sequence[str], good_ids: Sequence[str], bad_ids: Sequence[str]
) -> list[int]:
    """The task's document order: positions in ``sentence_ids``, pair by pair (each pair's
    acceptable then unacceptable sentence, each sentence once, where it first appears), then
    the sentences in no pair, in dataset order.

    So the harness's ``--limit N`` scores whole pairs: a smoke test gets numbers.

    Examples
    --------
    >>> document_order(["a", "b", "c", "d", "e"], ["a", "c", "a"], ["d", "b", "b"])
    [0, 3, 2, 1, 4]
    """
    position = {sid: k for k, sid in enumerate(sentence_ids)}
    order = dict.fromkeys(
        position[sid] for pair in zip(good_ids, bad_ids, strict=True) for sid in pair
    )
    order.update(dict.fromkeys(range(len(sentence_ids))))
    return list(order)


@functools.cache
def pair_table() -> PairTable:
    """LI-Adger's evaluable pairs, loaded once per process (every aggregation needs them)."""
    from metric_adc.pairs import li_adger_pairs

    return li_adger_pairs()


def _item(item: object, k: int) -> Item:
    where = f"li_adger_adc: item {k + 1} of the aggregation"
    if isinstance(item, str | bytes) or not isinstance(item, Sequence) or len(item) != 2:
        raise HarnessItemError(
            f"{where}: expected (sentence id, log-likelihood), as process_results gives it "
            f"(got {shown(item)})"
        )
    sid = item[0]
    if not isinstance(sid, str) or not sid:
        raise HarnessItemError(
            f"{where}: the sentence id must be a non-empty string (got {shown(sid)})"
        )
    return sid, log_likelihood(item[1], f"{where} (sentence {sid!r})")


def _scores(items: Iterable[object], known: Sequence[str]) -> dict[str, float]:
    """Items → ``{id: log-likelihood}`` in the order of ``known`` (the dataset's sentences);
    raise :class:`HarnessItemError` if an item is malformed, or an id unknown or repeated."""
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise HarnessItemError(
            f"li_adger_adc: expected the items of the documents (got {shown(items)})"
        )
    by_id: dict[str, float] = {}
    first: dict[str, int] = {}
    for k, raw in enumerate(items):
        sid, ll = _item(raw, k)
        if sid in by_id:
            raise HarnessItemError(
                f"li_adger_adc: sentence {sid!r} was scored twice (items {first[sid] + 1} and "
                f"{k + 1}); expected each of the {len(known)} sentences once"
            )
        by_id[sid], first[sid] = ll, k
    unknown = set(by_id).difference(known)
    if unknown:
        e = min(unknown)
        raise HarnessItemError(
            f"li_adger_adc: {len(unknown)} sentence id(s) are not LI-Adger's, e.g. {e!r} "
            f"(item {first[e] + 1})"
        )
    if not by_id:
        raise HarnessItemError("li_adger_adc: no documents were scored")
    return {k: by_id[k] for k in known if k in by_id}


@dataclass(frozen=True)
class Evaluation:
    """What the task reports for one set of items.

    ``summary`` is :func:`metric_adc.core.summarize` (``None`` when fewer than 2 pairs are
    evaluable), ``stderr`` each metric's bootstrap standard error (``None`` when undefined),
    ``n_sentences`` the sentences scored, ``n_pairs`` the pairs with both members scored,
    ``complete`` whether every sentence was.
    """

    summary: dict | None
    stderr: dict[str, float | None]
    n_sentences: int
    n_pairs: int
    complete: bool

    def value(self, metric: str) -> float | None:
        """The metric of :data:`METRICS` (``None`` when undefined)."""
        if self.summary is None:
            return None
        stat, delta = STDERR_STATISTICS[metric]
        if stat == "adc":
            return self.summary["adc"][core.delta_key(delta)]
        return self.summary[stat]


def _stderrs(m: np.ndarray, h: np.ndarray, phenomena: list[str]) -> dict[str, float | None]:
    try:
        cis = bootstrap.bootstrap_cis(
            m, h, statistics=list(STDERR_STATISTICS.values()), clusters=phenomena,
            rng=np.random.default_rng(SEED), n_resamples=N_RESAMPLES,
        )  # fmt: skip
    except ValueError:  # fewer than 2 pairs or phenomena: nothing to resample
        return dict.fromkeys(STDERR_STATISTICS)
    return {name: ci["se"] for name, ci in zip(STDERR_STATISTICS, cis, strict=True)}


@functools.lru_cache(maxsize=4)
def _evaluate(scored: tuple[tuple[str, float], ...]) -> Evaluation:
    pairs = pair_table()
    scores = dict(scored)
    keep = [
        k for k, (g, b) in enumerate(zip(pairs.good_ids, pairs.bad_ids, strict=True))
        if g in scores and b in scores
    ]  # fmt: skip
    complete = len(scores) == len(pairs.judgements)
    h = pairs.human_delta[keep]
    n_evaluable = int(np.count_nonzero(~np.isnan(h)))
    if not complete:
        over = (
            f"the metrics are over those {n_evaluable} evaluable pairs, z-scored over the "
            f"{len(scores)} sentences: a smoke test, not LI-Adger's numbers"
            if n_evaluable >= 2
            else f"{n_evaluable} of them evaluable, fewer than 2: the metrics are undefined "
            "(score more documents)"
        )
        warnings.warn(
            f"li_adger_adc: a partial run (--limit or --samples): {len(scores)} of the "
            f"{len(pairs.judgements)} sentences were scored, and {len(keep)} of the "
            f"{len(pairs)} pairs have both members scored; {over}",
            PartialRunWarning,
            stacklevel=2,
        )
    if n_evaluable < 2:
        return Evaluation(None, dict.fromkeys(STDERR_STATISTICS), len(scores), len(keep), complete)
    z = core.zscore_by_id(list(scores), list(scores.values()))
    m = core.pair_deltas(z, [pairs.good_ids[k] for k in keep], [pairs.bad_ids[k] for k in keep])
    phenomena = [pairs.phenomenon[k] for k in keep]
    return Evaluation(
        core.summarize(m, h, deltas=core.DEFAULT_DELTAS),
        _stderrs(m, h, phenomena),
        len(scores),
        len(keep),
        complete,
    )


def evaluate(items: Iterable[object]) -> Evaluation:
    """The task's :class:`Evaluation` of ``items``, ``(sentence id, log-likelihood)`` in any
    order: all 4,178 sentences, or some of them (a :class:`PartialRunWarning`).

    The log-likelihoods are z-scored over the scored sentences
    (:func:`metric_adc.core.zscore_by_id`), each pair's ``Δlm = z(good) − z(bad)``
    (:func:`metric_adc.core.pair_deltas`) is compared with its human delta, and the thresholds
    are :data:`metric_adc.core.DEFAULT_DELTAS`. The same items (in any order) are evaluated once.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     e = evaluate([("32.1.martin.1a.g.01", -1.0), ("32.1.martin.2c.*.01", -2.0)])
    >>> e.n_sentences, e.n_pairs, e.complete, e.summary
    (2, 1, False, None)
    >>> print(caught[0].message)  # doctest: +ELLIPSIS
    li_adger_adc: a partial run (--limit or --samples): 2 of the 4178 sentences were scored, ...
    """
    pairs = pair_table()
    scores = _scores(items, list(pairs.judgements))
    return _evaluate(tuple(scores.items()))


def summary(items: Iterable[object]) -> dict:
    """:func:`metric_adc.core.summarize` of a model on LI-Adger's 2,365 evaluable pairs.

    ``items`` are ``(sentence id, log-likelihood)`` for all 4,178 sentences, in any order
    (see :func:`evaluate`, which also takes some of them).

    Examples
    --------
    The thesis's BERT-base (PLL) scores, as the README's results table shows them:

    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> bert = load_thesis_scores()["bert-base-uncased-mlm"]
    >>> s = summary(bert.items())
    >>> s["n_pairs"], round(s["blimp"], 3), round(s["adc"]["0.5"], 3)
    (2365, 0.852, 0.364)
    >>> summary([("32.1.martin.1a.g.01", True)])
    Traceback (most recent call last):
    ...
    metric_adc.harness.task.HarnessItemError: li_adger_adc: item 1 of the aggregation (sentence '32.1.martin.1a.g.01'): the log-likelihood must be a number (got True)
    """
    e = evaluate(items)
    if e.summary is None:
        raise HarnessItemError(
            f"li_adger_adc: {e.n_pairs} pair(s) have both members scored, fewer than the 2 a "
            f"summary needs ({e.n_sentences} sentences were scored)"
        )
    return e.summary
