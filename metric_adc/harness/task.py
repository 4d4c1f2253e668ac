"""The ``li_adger_adc`` task's computation: sentence log-likelihoods → the ADC on LI-Adger.

The functions lm-evaluation-harness calls are in :mod:`metric_adc.harness.utils` (named by
``li_adger_adc.yaml``); they hand their items to :func:`summary`, which puts the
log-likelihoods in the dataset's sentence order (so nothing depends on document order or
batching), z-scores them over all 4,178 sentences and hands the 2,365 evaluable pairs' deltas
and human deltas to :func:`metric_adc.core.summarize`: the numbers ``python -m metric_adc
report`` gives for a scores file holding the same log-likelihoods. The pair table is read once
per process here, whatever the harness reloads.

The log-likelihood is the harness's own, for an empty context: the harness scores the
continuation ``" " + sentence`` (its ``target_delimiter``, as in its BLiMP tasks) after the
tokenizer's BOS token, else its EOS token, and sums the continuation's token log-probabilities
(natural log). The task folder's README says more.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

from metric_adc import core

__all__ = ["METRICS", "Item", "summary"]

METRICS: tuple[str, ...] = ("blimp", "adc_0.5", "adc_1", "adc_5", "pearson_pairs")
"""The metrics the task reports, as the harness names them (``metric_list`` in the YAML)."""

Item = tuple[str, float]
"""What each metric gets for one document: (sentence id, log-likelihood)."""


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
