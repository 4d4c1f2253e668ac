"""NormLP and SLOR for causal and masked LMs: the model's log-probability, linked on words.

A :class:`LinkedScorer` wraps a scorer that exposes per-token log-probabilities (the causal
scorer's ``logprob`` variant, the masked LM's ``original`` PLL) and a unigram model
(:mod:`baselines.kinds.unigram`). For each sentence:

* ``logP(s)`` is the sum of the model's token log-probabilities: for a causal LM the
  log-probability of the whole string, whatever its segmentation into sub-word tokens;
* ``logPu(s)`` is the sum of the unigram log-probabilities of the sentence's *words*, and
  ``|s|`` is the number of those words — the units the unigram model has (a unigram model over
  the LM's own sub-word tokens does not exist for these models; see ``docs/linking.md``);
* the score is the linking function of those totals (:meth:`LinkingFunction.from_totals`).

Its records carry ``logprob``, ``unigram_logprob``, ``n_words`` and ``n_tokens`` beside the
score, so the report can compute the other linking functions, and the fitted one, from the
same file (:mod:`metric_adc.linking.function_rows`).

Examples
--------
>>> from baselines.interface import TokenLogProbs
>>> from baselines.kinds.unigram import UnigramModel
>>> class Toy:
...     name, kind, variant, reduction = "toy", "causal", "logprob", "sum"
...     def token_logprobs(self, sentences):
...         return [TokenLogProbs(("the", "ke", "ys"), (-1.0, -3.0, -2.0)) for _ in sentences]
...     def score(self, sentences):
...         return [t.total for t in self.token_logprobs(sentences)]
...     def metadata(self):
...         return {"model": "toy"}
>>> unigrams = UnigramModel("toy", str.split, {"the": -2.0, "keys": -5.0}.get, floor_logprob=-9.0)
>>> LinkedScorer(Toy(), "slor", unigrams).score_records(["the keys"])
[{'score': 0.5, 'logprob': -6.0, 'unigram_logprob': -7.0, 'n_words': 2, 'n_tokens': 3}]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from baselines.interface import (
    BatchedScorer,
    PlacedScorer,
    Scorer,
    TokenScorer,
    check_sentences,
    scorer_identity,
)
from baselines.kinds.unigram import DEFAULT_UNIGRAM_SOURCE, UnigramModel, unigram_model
from metric_adc.linking.formulas import check_linking_name

__all__ = ["LINKED_VARIANTS", "LinkedScorer", "linked_factory"]

LINKED_VARIANTS: tuple[str, ...] = ("normlp", "slor")
"""The variants a causal or masked LM gets through a unigram model."""


class LinkedScorer:
    """A scorer's token log-probabilities and a unigram model, linked by NormLP or SLOR.

    Parameters
    ----------
    base:
        A scorer with ``token_logprobs`` whose sum is the sentence's log-probability.
    variant:
        ``"normlp"`` or ``"slor"``.
    unigrams:
        The unigram model whose words are the units of ``logPu(s)`` and ``|s|``.
    """

    def __init__(self, base: TokenScorer, variant: str, unigrams: UnigramModel) -> None:
        self._linking = check_linking_name(variant, allowed=LINKED_VARIANTS)
        if not isinstance(base, TokenScorer):
            raise TypeError(
                f"base must be a scorer with token_logprobs (got {type(base).__name__})"
            )
        self.base = base
        self.unigrams = unigrams
        self.name = base.name
        self.kind = base.kind
        self.variant = variant
        self.reduction = self._linking.reduction

    # what a run asks of a scorer (BatchedScorer, PlacedScorer): the wrapped scorer's, passed through
    @property
    def batch_size(self) -> int | None:
        """The wrapped scorer's batch size (``None`` when it has none); setting it sets the
        wrapped scorer's, so ``--batch-size auto`` applies to it."""
        return self.base.batch_size if isinstance(self.base, BatchedScorer) else None

    @batch_size.setter
    def batch_size(self, size: int) -> None:
        if isinstance(self.base, BatchedScorer):
            self.base.batch_size = size

    @property
    def packing(self) -> str | None:
        """How the wrapped scorer lays a batch out, or ``None``."""
        return self.base.packing if isinstance(self.base, BatchedScorer) else None

    @property
    def positions_share(self) -> float | None:
        """The wrapped scorer's share of positions computed, or ``None``."""
        return self.base.positions_share if isinstance(self.base, BatchedScorer) else None

    def count_positions(self) -> None:
        """Start the wrapped scorer's count of positions afresh."""
        if isinstance(self.base, BatchedScorer):
            self.base.count_positions()

    @property
    def device(self) -> Any:
        """Where the wrapped scorer runs (:class:`~baselines.interface.PlacedScorer`), or
        ``None``."""
        return self.base.device if isinstance(self.base, PlacedScorer) else None

    def score_records(self, sentences: Sequence[str]) -> list[dict[str, Any]]:
        """One record per sentence: ``score``, ``logprob``, ``unigram_logprob``, ``n_words``,
        ``n_tokens``."""
        sentences = check_sentences(sentences)
        records = []
        for sentence, tokens in zip(sentences, self.base.token_logprobs(sentences), strict=True):
            words = self.unigrams.sentence(sentence)
            logprob = float(math.fsum(tokens.logprobs))
            records.append(
                {
                    "score": self._linking.from_totals(logprob, len(words), words.total),
                    "logprob": logprob,
                    "unigram_logprob": words.total,
                    "n_words": len(words),
                    "n_tokens": len(tokens),
                }
            )
        return records

    def score(self, sentences: Sequence[str]) -> list[float]:
        """One score per sentence: the linking function of its totals (see the module docs)."""
        return [r["score"] for r in self.score_records(sentences)]

    def metadata(self) -> dict[str, Any]:
        """The base scorer's facts, with this variant, the linking function and its units."""
        base = self.base.metadata()
        unigram = self.unigrams.metadata()
        versions = {**base.get("versions", {}), **unigram.pop("versions")}
        identity = scorer_identity(self)
        return {
            **identity,
            "base_variant": self.base.variant,
            **{k: v for k, v in base.items() if k not in identity and k != "versions"},
            "linking": {
                "function": self.variant,
                "logprob": f"sum of the model's token log-probabilities ({self.base.variant})",
                "units": "words of the unigram model: |s| and logPu(s) are over words",
                "unigram": unigram,
            },
            "versions": versions,
        }


def linked_factory(build: Callable[..., Scorer], base_variant: str) -> Callable[..., Scorer]:
    """A scorer factory that gives :class:`LinkedScorer` for ``variant`` in
    :data:`LINKED_VARIANTS` (around ``build(model, variant=base_variant, ...)``) and
    ``build``'s own scorer otherwise. ``unigram`` (a source of
    :data:`~baselines.kinds.unigram.UNIGRAM_SOURCES`) applies to the linked variants only.

    Examples
    --------
    >>> def build(model, *, variant="logprob"):
    ...     return f"{model}/{variant}"
    >>> linked_factory(build, "logprob")("m", variant="meanlp")
    'm/meanlp'
    >>> linked_factory(build, "logprob")("m", variant="meanlp", unigram="wordfreq")
    Traceback (most recent call last):
    ...
    ValueError: unigram applies to the variants 'normlp', 'slor' only (got unigram='wordfreq' with variant 'meanlp')
    """

    def factory(
        model: str, *, variant: str | None = None, unigram: str | None = None, **options: Any
    ) -> Scorer:
        if variant in LINKED_VARIANTS:
            base = build(model, variant=base_variant, **options)
            return LinkedScorer(base, variant, unigram_model(unigram or DEFAULT_UNIGRAM_SOURCE))
        if unigram is not None:
            choices = ", ".join(repr(v) for v in LINKED_VARIANTS)
            raise ValueError(
                f"unigram applies to the variants {choices} only "
                f"(got unigram={unigram!r} with variant {variant!r})"
            )
        if variant is not None:
            options["variant"] = variant
        return build(model, **options)

    return factory
