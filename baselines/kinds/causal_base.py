"""What every causal-LM engine shares: how text becomes scored tokens, and the scorer's API.

A causal-LM scorer has two halves. This module is the half that does not depend on how the
model runs: the two **conventions** that turn a sentence or a cloze unit into token ids, and
the public methods (``token_logprobs``, ``score``, ``score_cloze``) built on one method an
engine provides, ``_logprobs(encoded, starts)``. The engines are the Hugging Face model in
this process (:class:`baselines.kinds.causal.CausalLMScorer`) and vLLM
(:class:`baselines.engines.vllm_scorer.VLLMCausalScorer`); both score exactly the same tokens.

Conventions (they change the numbers, so they are fixed and tested):

* **Context token (BOS).** Every sentence is tokenised *without* the tokenizer's special
  tokens and one context token is put in front of it; every sentence token, the first
  included, is then scored given the context token and the tokens before it. Nothing after
  the sentence (no EOS) is scored. With ``context_token="auto"`` the context token is the
  tokenizer's ``bos_token``, or its ``eos_token`` when it has no BOS (GPT-2's
  ``<|endoftext|>`` is both). Pass a token string to choose another one (the SmolLM2 default
  uses ``<|endoftext|>``, see :mod:`baselines.models.smollm2`).
* **No leading space** is added: the sentence is tokenised as given.
* **Reduction.** ``variant="logprob"`` sums the token log-probabilities, ``"meanlp"`` averages
  them, ``"penlp"`` divides the sum by the length penalty (see :mod:`metric_adc.linking.formulas`).
  Natural logs, computed in float32 whatever the model's precision.
* **Too long.** A sentence whose tokens plus the context token exceed the model's maximum
  positions is an error naming the sentence; it is never truncated silently.

Those are the ``"default"`` convention. ``convention="harness"`` reproduces
lm-evaluation-harness's scoring of a (context, continuation) request exactly
(``lm_eval.api.model.TemplateLM.loglikelihood`` and ``_encode_pair``; ``HFLM.prefix_token_id``):

* **A sentence** (the harness's BLiMP task: empty context, continuation ``" " + sentence``)
  is tokenised with a leading space and without special tokens and scored after the
  tokenizer's BOS token, else its EOS token (``context_token`` must stay ``"auto"``); when the
  sentence's first token *is* that token, it becomes the context and is not scored.
* **A cloze unit** (context, completion): ``context + " " + completion`` is encoded whole with
  the tokenizer's own special tokens, the context alone likewise, and the whole encoding is
  split after the context's length; the tokens after the split are scored.

**Cloze units** (:meth:`CausalScorerBase.score_cloze`, either convention): the completion
follows the context after one space; ``score`` is the sum of the completion's token
log-probabilities (the chain rule), ``rank`` the rank of its first token among the tokens that
can start a word (:func:`baselines.kinds.cloze.word_start_mask`) in the next-token distribution
after the context, ``top`` the five most probable of those. In the default convention the
context is encoded as a sentence is (the context token, then ``context + " " + completion``
tokenised whole without special tokens and split after the context's own tokens).

Examples
--------
>>> CAUSAL_VARIANTS, CONVENTIONS
(('logprob', 'meanlp', 'penlp'), ('default', 'harness'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from baselines.interface import TokenLogProbs, UnitError, check_cloze, check_sentences
from baselines.kinds.cloze import TokenCandidates
from metric_adc.linking.formulas import LinkingFunction, check_linking_name

__all__ = [
    "CAUSAL_VARIANTS",
    "CONVENTIONS",
    "CausalScorerBase",
    "check_convention",
    "check_text_options",
    "resolve_context_token",
]

CAUSAL_VARIANTS: tuple[str, ...] = ("logprob", "meanlp", "penlp")
CONVENTIONS: tuple[str, ...] = ("default", "harness")
"""How text becomes scored tokens: this project's documented default, or
lm-evaluation-harness's (see the module docs)."""


def resolve_context_token(tokenizer: Any, context_token: str = "auto") -> tuple[str, int]:
    """Return ``(token, id)`` of the token the first word is scored after (see the module
    docs), or raise naming what is missing.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> gpt2_like = NS(bos_token=None, eos_token="<|endoftext|>",
    ...                convert_tokens_to_ids={"<|endoftext|>": 0}.get)
    >>> resolve_context_token(gpt2_like)
    ('<|endoftext|>', 0)
    >>> resolve_context_token(NS(bos_token=None, eos_token=None))
    Traceback (most recent call last):
    ...
    ValueError: the tokenizer has neither a bos_token nor an eos_token, so context_token='auto' cannot choose the token the first word is scored after; pass context_token=...
    """
    if context_token == "auto":
        for attr in ("bos_token", "eos_token"):
            token = getattr(tokenizer, attr, None)
            if token:
                return str(token), int(tokenizer.convert_tokens_to_ids(token))
        raise ValueError(
            "the tokenizer has neither a bos_token nor an eos_token, so context_token='auto' "
            "cannot choose the token the first word is scored after; pass context_token=..."
        )
    if context_token not in tokenizer.get_vocab():
        raise ValueError(
            f"context_token {context_token!r} is not in the tokenizer's vocabulary "
            f"(bos_token={tokenizer.bos_token!r}, eos_token={tokenizer.eos_token!r})"
        )
    return context_token, int(tokenizer.convert_tokens_to_ids(context_token))


def check_convention(convention: str, context_token: str) -> None:
    """Raise unless ``convention`` is known and, for ``"harness"``, the context token is the
    harness's own (``"auto"``).

    Examples
    --------
    >>> check_convention("harness", "<|endoftext|>")
    Traceback (most recent call last):
    ...
    ValueError: convention 'harness' scores after the tokenizer's BOS token (else EOS), as lm-evaluation-harness does; context_token must be 'auto' (got '<|endoftext|>')
    """
    if convention not in CONVENTIONS:
        choices = ", ".join(repr(c) for c in CONVENTIONS)
        raise ValueError(f"convention must be one of {choices} (got {convention!r})")
    if convention == "harness" and context_token != "auto":
        raise ValueError(
            "convention 'harness' scores after the tokenizer's BOS token (else EOS), as "
            f"lm-evaluation-harness does; context_token must be 'auto' (got {context_token!r})"
        )


def check_text_options(
    *, variant: str = "logprob", convention: str = "default", context_token: str = "auto"
) -> LinkingFunction:
    """The one check of a causal scorer's variant and convention (with the context token),
    whatever its engine: the spec (:func:`baselines.spec.score_spec`) and both engines'
    constructors call it before anything loads. Returns the variant's linking function.

    Examples
    --------
    >>> check_text_options(variant="meanlp").name
    'meanlp'
    >>> check_text_options(variant="slor")
    Traceback (most recent call last):
    ...
    ValueError: variant must be one of 'logprob', 'meanlp', 'penlp' (got 'slor')
    """
    linking = check_linking_name(variant, allowed=CAUSAL_VARIANTS)
    check_convention(convention, context_token)
    return linking


class CausalScorerBase:
    """The engine-independent half of a causal-LM scorer (see the module docs).

    An engine calls :meth:`_setup_text` once it has its tokenizer and the longest input its
    model takes, and implements ``_logprobs(encoded, starts=None)``: for each id list, the
    log-probabilities of its tokens from ``starts[i]`` on (default: all but the first), and,
    with ``starts``, the log-probability row (one entry per vocabulary id, float32) of the
    position before ``starts[i]``, the distribution of its first scored token.

    Examples
    --------
    An engine that gives every token of a five-word vocabulary the same probability:

    >>> import math
    >>> from tokenizers import Tokenizer, models, pre_tokenizers
    >>> from transformers import PreTrainedTokenizerFast
    >>> words = ["<|endoftext|>", "the", "keys", "are", "lost"]
    >>> backend = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, "<|endoftext|>"))
    >>> backend.pre_tokenizer = pre_tokenizers.Whitespace()
    >>> tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, eos_token="<|endoftext|>")
    >>> class Uniform(CausalScorerBase):
    ...     def __init__(self):
    ...         self._setup_text(tokenizer, name="uniform", variant="logprob",
    ...                          convention="default", context_token="auto", max_length=8)
    ...     def _logprobs(self, encoded, starts=None):
    ...         first = starts or [1] * len(encoded)
    ...         lists = [[math.log(1 / 5)] * (len(ids) - s) for ids, s in zip(encoded, first)]
    ...         return lists, [np.full(5, math.log(1 / 5), dtype=np.float32) for _ in encoded]
    >>> scorer = Uniform()
    >>> scorer.token_logprobs(["the keys are lost"])[0].tokens
    ('the', 'keys', 'are', 'lost')
    >>> scorer.score(["the keys"]) == [2 * math.log(1 / 5)]
    True
    >>> scorer.score_cloze(["the keys are"], ["lost"])[0]["rank"]
    1
    """

    kind = "causal"

    def _setup_text(
        self,
        tokenizer: Any,
        *,
        name: str,
        variant: str,
        convention: str,
        context_token: str,
        max_length: int | None,
    ) -> None:
        """Set what the text half needs: tokenizer, name, variant, convention, context token
        and the longest id list the model accepts (``None``: no limit known)."""
        self._linking = check_text_options(
            variant=variant, convention=convention, context_token=context_token
        )
        self.tokenizer = tokenizer
        self.name = str(name)
        self.variant = variant
        self.reduction = self._linking.reduction
        self.convention = convention
        self.context_token, self.context_token_id = resolve_context_token(tokenizer, context_token)
        self.max_length = max_length
        self._candidates = TokenCandidates(tokenizer)

    def _logprobs(
        self, encoded: list[list[int]], starts: Sequence[int] | None = None
    ) -> tuple[list[list[float]], list[Any]]:
        raise NotImplementedError(f"{type(self).__name__} must implement _logprobs")

    # -- encoding: text → token ids and where the scored tokens start -------------------------

    def _check_length(self, ids: list[int], index: int, field: str, text: str) -> list[int]:
        """``ids``, unless longer than the model allows: a :class:`UnitError` for the unit at
        ``index``, its ``field`` (``'sentence'`` or a cloze unit's ``'context'``)."""
        if self.max_length is not None and len(ids) > self.max_length:
            raise UnitError(
                index,
                field,
                f"is too long for {self.name}: {len(ids)} tokens with the context token, the "
                f"model allows at most {self.max_length} (it starts {text[:60]!r})",
                position=None if field == "sentence" else f"cloze unit {index}",
            )
        return ids

    def _encode(self, sentences: Sequence[str]) -> list[list[int]]:
        """The token ids of each sentence, led by its context: only the first is not scored.

        Default: the context token, then the sentence's tokens. Harness: the harness's prefix
        token (BOS, else EOS), then the tokens of ``" " + sentence`` — or those tokens alone
        when the first of them is the prefix token (it is then the context).
        """
        encoded = []
        for i, sentence in enumerate(check_sentences(sentences)):
            text = sentence if self.convention == "default" else " " + sentence
            ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
            if not ids:
                raise ValueError(f"sentences[{i}] has no tokens (got {sentence!r})")
            if self.convention == "default" or ids[0] != self.context_token_id:
                ids = [self.context_token_id, *ids]
            elif len(ids) == 1:
                raise ValueError(
                    f"sentences[{i}] is only the harness's prefix token, so nothing is left to "
                    f"score (got {sentence!r})"
                )
            encoded.append(self._check_length(ids, i, "sentence", sentence))
        return encoded

    def _harness_encode(self, text: str) -> list[int]:
        """``HFLM.tok_encode``: the tokenizer's own special tokens, unless the text already
        starts with the prefix token."""
        if text.startswith(self.tokenizer.decode(self.context_token_id)):
            return self.tokenizer.encode(text, add_special_tokens=False)
        return self.tokenizer.encode(text)

    def _encode_cloze(
        self, contexts: Sequence[str], completions: Sequence[str]
    ) -> tuple[list[list[int]], list[int]]:
        """Token ids of each context + completion, and where the completion's tokens start.

        The text is encoded whole and split after the context's own encoding (the harness's
        ``_encode_pair``); the default convention puts its context token in front and adds no
        special tokens.
        """
        contexts, completions = check_cloze(contexts, completions)
        encoded, starts = [], []
        for i, (context, completion) in enumerate(zip(contexts, completions, strict=True)):
            continuation = " " + completion
            spaces = len(context) - len(context.rstrip())
            if spaces:  # the harness moves trailing spaces of the context to the continuation
                context, continuation = context[:-spaces], context[-spaces:] + continuation
            if self.convention == "default":
                lead = [self.context_token_id]
                encode = self.tokenizer(
                    [context + continuation, context], add_special_tokens=False
                )["input_ids"]
                whole, context_ids = encode
            else:
                lead = []
                whole = self._harness_encode(context + continuation)
                context_ids = self._harness_encode(context)
            ids = [*lead, *whole]
            start = len(lead) + len(context_ids)
            if start < 1 or start >= len(ids):
                raise ValueError(
                    f"cloze unit {i} has no {'context' if start < 1 else 'completion'} tokens "
                    f"after encoding (context {context!r}, completion {completion!r})"
                )
            encoded.append(self._check_length(ids, i, "context", context))
            starts.append(start)
        return encoded, starts

    # -- public API ----------------------------------------------------------------------------

    def token_logprobs(self, sentences: Sequence[str]) -> list[TokenLogProbs]:
        """Per-token natural-log probabilities (no unigram estimates), in input order."""
        encoded = self._encode(sentences)
        logprobs, _ = self._logprobs(encoded)
        return [
            TokenLogProbs(tuple(self.tokenizer.convert_ids_to_tokens(ids[1:])), tuple(lp))
            for ids, lp in zip(encoded, logprobs, strict=True)
        ]

    def score(self, sentences: Sequence[str]) -> list[float]:
        """One score per sentence: the chosen reduction of its token log-probabilities."""
        logprobs, _ = self._logprobs(self._encode(sentences))
        return [self._linking.compute(lp) for lp in logprobs]

    def score_cloze(
        self, contexts: Sequence[str], completions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """One record per cloze unit: ``score`` (ln P(completion | context), summed over its
        tokens), ``rank`` of its first token among word-initial tokens, ``top`` words."""
        encoded, starts = self._encode_cloze(contexts, completions)
        logprobs, rows = self._logprobs(encoded, starts)
        return [
            self._candidates.record(sum(lp), np.asarray(row), ids[start])
            for ids, start, lp, row in zip(encoded, starts, logprobs, rows, strict=True)
        ]
