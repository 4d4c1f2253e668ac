"""The causal-LM scorer: token log-probabilities from any Hugging Face causal language model.

Conventions (they change the numbers, so they are fixed and tested):

* **Context token (BOS).** Every sentence is tokenised *without* the tokenizer's special
  tokens and one context token is put in front of it; every sentence token, the first
  included, is then scored given the context token and the tokens before it. Nothing after
  the sentence (no EOS) is scored. With ``context_token="auto"`` the context token is the
  tokenizer's ``bos_token``, or its ``eos_token`` when it has no BOS (GPT-2's
  ``<|endoftext|>`` is both). Pass a token string to choose another one (the SmolLM2 default
  uses ``<|endoftext|>``, see :mod:`baselines.smollm2`).
* **No leading space** is added: the sentence is tokenised as given.
* **Reduction.** ``variant="logprob"`` sums the token log-probabilities, ``"meanlp"`` averages
  them, ``"penlp"`` divides the sum by the length penalty (see :mod:`baselines.linking`).
  Natural logs, computed in float32 whatever the model's precision.
* **Batching.** Sentences are sorted by token length and batched, right-padded with an
  attention mask, so padding is at most the spread of lengths within one batch and never
  changes a score; the model runs in ``eval()`` mode under ``torch.inference_mode()``.
* **Too long.** A sentence whose tokens plus the context token exceed the model's maximum
  positions is an error naming the sentence; it is never truncated silently.

Examples
--------
>>> CAUSAL_VARIANTS
('logprob', 'meanlp', 'penlp')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from baselines.hf import library_versions, max_sequence_length
from baselines.interface import TokenLogProbs, check_sentences, scorer_identity
from baselines.linking import check_linking_name

__all__ = ["CAUSAL_VARIANTS", "CausalLMScorer", "resolve_context_token"]

CAUSAL_VARIANTS: tuple[str, ...] = ("logprob", "meanlp", "penlp")


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


class CausalLMScorer:
    """Score sentences by their log-probability under a causal language model.

    Parameters
    ----------
    model_name_or_path:
        A Hugging Face model name or a local folder with a causal LM and its tokenizer.
    variant:
        ``"logprob"`` (sum, the default), ``"meanlp"`` (mean) or ``"penlp"``.
    device, precision:
        See :mod:`baselines.device`; ``"auto"`` is the GPU in bf16/fp16 when there is one.
    batch_size:
        Sentences per forward pass.
    context_token:
        ``"auto"`` or a token string; see the module docs.
    name:
        The model name written to the scores file (default: ``model_name_or_path``).
    extra_metadata:
        More facts to write to the scores file (e.g. where the weights came from).

    Examples
    --------
    A tiny random GPT-2 with a five-word vocabulary:

    >>> import torch
    >>> from tokenizers import Tokenizer, models, pre_tokenizers
    >>> from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast
    >>> words = ["<|endoftext|>", "the", "keys", "are", "is", "lost"]
    >>> backend = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, "<|endoftext|>"))
    >>> backend.pre_tokenizer = pre_tokenizers.Whitespace()
    >>> tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, eos_token="<|endoftext|>")
    >>> _ = torch.manual_seed(0)
    >>> config = GPT2Config(vocab_size=6, n_positions=8, n_embd=8, n_layer=1, n_head=2)
    >>> scorer = CausalLMScorer.from_objects(GPT2LMHeadModel(config), tokenizer, name="tiny")
    >>> scorer.context_token, scorer.reduction
    ('<|endoftext|>', 'sum')
    >>> t = scorer.token_logprobs(["the keys are lost"])[0]
    >>> t.tokens
    ('the', 'keys', 'are', 'lost')
    >>> abs(scorer.score(["the keys are lost"])[0] - t.total) < 1e-6
    True
    >>> scorer.score(["the keys are lost " * 2])
    Traceback (most recent call last):
    ...
    ValueError: sentences[0] is too long for tiny: 9 tokens with the context token, ...
    """

    kind = "causal"

    def __init__(
        self,
        model_name_or_path: str | Path,
        *,
        variant: str = "logprob",
        device: str = "auto",
        precision: str = "auto",
        batch_size: int = 16,
        context_token: str = "auto",
        name: str | None = None,
        extra_metadata: Mapping[str, Any] | None = None,
    ) -> None:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        from baselines.device import inference_dtype, resolve_device

        check_linking_name(variant, allowed=CAUSAL_VARIANTS)
        torch_device = resolve_device(device)
        dtype = inference_dtype(torch_device, precision)
        source = str(model_name_or_path)
        tokenizer = AutoTokenizer.from_pretrained(source)
        model = AutoModelForCausalLM.from_pretrained(source, dtype=dtype)
        self._setup(
            model.to(torch_device),
            tokenizer,
            name=name or source,
            variant=variant,
            batch_size=batch_size,
            context_token=context_token,
            extra_metadata=extra_metadata,
        )

    @classmethod
    def from_objects(
        cls,
        model: Any,
        tokenizer: Any,
        *,
        name: str,
        variant: str = "logprob",
        batch_size: int = 16,
        context_token: str = "auto",
        extra_metadata: Mapping[str, Any] | None = None,
    ) -> CausalLMScorer:
        """A scorer around an already loaded model and tokenizer (neither is modified,
        except that the model is put in ``eval()`` mode)."""
        check_linking_name(variant, allowed=CAUSAL_VARIANTS)
        scorer = cls.__new__(cls)
        scorer._setup(
            model,
            tokenizer,
            name=name,
            variant=variant,
            batch_size=batch_size,
            context_token=context_token,
            extra_metadata=extra_metadata,
        )
        return scorer

    def _setup(
        self,
        model: Any,
        tokenizer: Any,
        *,
        name: str,
        variant: str,
        batch_size: int,
        context_token: str,
        extra_metadata: Mapping[str, Any] | None,
    ) -> None:
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int (got {batch_size!r})")
        self._linking = check_linking_name(variant, allowed=CAUSAL_VARIANTS)
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.name = str(name)
        self.variant = variant
        self.reduction = self._linking.reduction
        self.batch_size = batch_size
        self.context_token, self.context_token_id = resolve_context_token(tokenizer, context_token)
        self.max_length = max_sequence_length(model.config, tokenizer)
        self._extra = dict(extra_metadata or {})

    def _encode(self, sentences: Sequence[str]) -> list[list[int]]:
        """Context token + sentence tokens for each sentence; raise on empty or too long."""
        encoded = []
        for i, sentence in enumerate(check_sentences(sentences)):
            ids = self.tokenizer(sentence, add_special_tokens=False)["input_ids"]
            if not ids:
                raise ValueError(f"sentences[{i}] has no tokens (got {sentence!r})")
            ids = [self.context_token_id, *ids]
            if self.max_length is not None and len(ids) > self.max_length:
                raise ValueError(
                    f"sentences[{i}] is too long for {self.name}: {len(ids)} tokens with the "
                    f"context token, the model allows at most {self.max_length} "
                    f"(sentence starts {sentence[:60]!r})"
                )
            encoded.append(ids)
        return encoded

    def _logprobs(self, encoded: list[list[int]]) -> list[list[float]]:
        """Log-probability of every token after the first, for each id list, in order."""
        import torch

        device = next(self.model.parameters()).device
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]), reverse=True)
        out: list[list[float]] = [[] for _ in encoded]
        with torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                batch = order[start : start + self.batch_size]
                width = len(encoded[batch[0]])
                ids = torch.full((len(batch), width), self.context_token_id, dtype=torch.long)
                mask = torch.zeros((len(batch), width), dtype=torch.long)
                for row, i in enumerate(batch):
                    ids[row, : len(encoded[i])] = torch.tensor(encoded[i])
                    mask[row, : len(encoded[i])] = 1
                ids, mask = ids.to(device), mask.to(device)
                logits = self.model(input_ids=ids, attention_mask=mask).logits[:, :-1].float()
                targets = ids[:, 1:]
                lp = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
                lp = (lp - torch.logsumexp(logits, dim=-1)).cpu()
                for row, i in enumerate(batch):
                    out[i] = lp[row, : len(encoded[i]) - 1].tolist()
        return out

    def token_logprobs(self, sentences: Sequence[str]) -> list[TokenLogProbs]:
        """Per-token natural-log probabilities (no unigram estimates), in input order."""
        encoded = self._encode(sentences)
        logprobs = self._logprobs(encoded)
        return [
            TokenLogProbs(tuple(self.tokenizer.convert_ids_to_tokens(ids[1:])), tuple(lp))
            for ids, lp in zip(encoded, logprobs, strict=True)
        ]

    def score(self, sentences: Sequence[str]) -> list[float]:
        """One score per sentence: the chosen reduction of its token log-probabilities."""
        logprobs = self._logprobs(self._encode(sentences))
        return [self._linking.compute(lp) for lp in logprobs]

    def metadata(self) -> dict[str, Any]:
        """Facts needed to reproduce the scores."""
        parameter = next(self.model.parameters())
        return {
            **scorer_identity(self),
            "architecture": type(self.model).__name__,
            "context_token": self.context_token,
            "context_token_id": self.context_token_id,
            "dtype": str(parameter.dtype).removeprefix("torch."),
            "device": parameter.device.type,
            "max_length": self.max_length,
            **self._extra,
            "versions": library_versions(),
        }
