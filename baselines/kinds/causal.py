"""The causal-LM scorer: token log-probabilities from any Hugging Face causal language model.

How text becomes scored tokens (the ``default`` and ``harness`` conventions, the context
token, cloze units, too-long input) is the engine-independent half of every causal scorer,
:mod:`baselines.kinds.causal_base`. This module runs the model in this process:

* **Batching.** Id lists are taken ``batch_size`` at a time and laid out by ``packing``
  (:mod:`baselines.fast.layout`): ``trie`` (the default; lists sorted, each shared prefix
  computed once, :mod:`baselines.fast.trie`) when the model honours a custom 4-D mask
  (:func:`~baselines.fast.isolation.mask_isolates`, checked on the model at load, past its
  attention window if it has one); ``rows`` (longest first, packed end to end into rows of 64
  tokens, :mod:`baselines.fast.packing`) when it keeps packed sentences apart
  (:func:`~baselines.fast.isolation.packing_isolates`); otherwise ``padded``, with a warning
  naming the packing used and why when it is not the one asked for
  (:func:`~baselines.fast.isolation.packing_problem`). None changes a score beyond float rounding; the
  model runs in ``eval()`` mode under ``torch.inference_mode()``.
* **Log-probabilities** are computed in float32 whatever the model's precision.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from baselines.batch_order import plan_batches
from baselines.device_map import from_pretrained_options, map_devices
from baselines.fast.isolation import packing_problem
from baselines.fast.layout import check_packing, decoder_layout
from baselines.fast.packing import PACK_WIDTH
from baselines.hf import library_versions, max_sequence_length, parameter_metadata
from baselines.interface import PACKINGS, scorer_identity
from baselines.kinds.causal_base import CausalScorerBase, check_text_options

__all__ = [
    "HEAD_ROWS",
    "PLAIN_HEADS",
    "CausalLMScorer",
    "check_options",
    "plain_head",
]

HEAD_ROWS = 1024
"""Positions sent through the output layer together, in slices of the vocabulary
(:func:`baselines.fast.head_logprobs.target_logprobs`)."""

PLAIN_HEADS: frozenset[str] = frozenset(
    {"LlamaForCausalLM", "MistralForCausalLM", "Qwen2ForCausalLM", "GPT2LMHeadModel",
     "GPTNeoXForCausalLM", "OPTForCausalLM", "PhiForCausalLM", "Phi3ForCausalLM"}
)  # fmt: skip
"""Causal LMs whose logits are their output layer (a ``torch.nn.Linear``) applied to the
decoder's last hidden state, nothing else (no logit scaling or soft-capping): their scorer runs
the output layer on the scored positions only (:func:`plain_head`). Other models go through
``model(...).logits``."""


def check_options(
    *,
    variant: str = "logprob",
    convention: str = "default",
    context_token: str = "auto",
    packing: str = "trie",
) -> None:
    """Raise, before anything loads, on an option the causal scorer does not take: the one
    check of its variant, convention (with the context token) and packing, made by both its
    constructors and, for ``--packing``, by the spec (:func:`baselines.spec.score_spec`).

    Examples
    --------
    >>> check_options(packing="rows")
    >>> check_options(packing="stacked")
    Traceback (most recent call last):
    ...
    ValueError: packing must be one of 'trie', 'rows', 'padded' (got 'stacked')
    """
    check_text_options(variant=variant, convention=convention, context_token=context_token)
    check_packing(packing)


def plain_head(model: Any) -> tuple[Any, Any] | None:
    """``(decoder, output layer)`` of a model in :data:`PLAIN_HEADS`, else ``None``.

    Examples
    --------
    >>> plain_head(object()) is None
    True
    """
    if type(model).__name__ not in PLAIN_HEADS:
        return None
    import torch

    base = getattr(model, getattr(model, "base_model_prefix", ""), None)
    head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    if base is None or not isinstance(head, torch.nn.Linear):
        return None
    return base, head


class CausalLMScorer(CausalScorerBase):
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
    convention:
        ``"default"`` or ``"harness"`` (lm-evaluation-harness's scoring); see the module docs.
    packing:
        ``"trie"`` (default), ``"rows"`` or ``"padded"``: how a batch is laid out for the
        model (see the module docs); the packing used is :attr:`packing`.
    name:
        The model name written to the scores file (default: ``model_name_or_path``).
    device_map, max_memory, offload_folder:
        ``device_map="auto"`` loads a model larger than one device through accelerate's
        big-model inference (GPUs, then CPU, then disk; :mod:`baselines.device_map`), instead
        of onto ``device``.
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
    baselines.interface.UnitError: sentences[0] is too long for tiny: 9 tokens with the context token, ...

    A cloze unit: the completion's log-probability after the context, its rank among the
    words the model could put there, and its top predictions:

    >>> record = scorer.score_cloze(["the keys are"], ["lost"])[0]
    >>> sorted(record), 1 <= record["rank"] <= 5, len(record["top"])
    (['rank', 'score', 'top'], True, 5)
    """

    def __init__(
        self,
        model_name_or_path: str | Path,
        *,
        variant: str = "logprob",
        device: str = "auto",
        precision: str = "auto",
        batch_size: int = 16,
        context_token: str = "auto",
        convention: str = "default",
        packing: str = "trie",
        revision: str | None = None,
        name: str | None = None,
        extra_metadata: Mapping[str, Any] | None = None,
        device_map: str | None = None,
        max_memory: Mapping[int | str, int | str] | None = None,
        offload_folder: str | None = None,
    ) -> None:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        from baselines.device import inference_dtype, resolve_device
        from baselines.hf import hub_options, revision_metadata

        check_options(
            variant=variant, convention=convention, context_token=context_token, packing=packing
        )
        torch_device = resolve_device(device)
        dtype = inference_dtype(torch_device, precision)
        source = str(model_name_or_path)
        hub = hub_options(revision)
        tokenizer = AutoTokenizer.from_pretrained(source, **hub)
        if device_map is None and (max_memory or offload_folder):
            raise ValueError("max_memory and offload_folder apply with device_map='auto' only")
        if device_map is None:
            model = AutoModelForCausalLM.from_pretrained(source, dtype=dtype, **hub).to(
                torch_device
            )
        else:
            placed = from_pretrained_options(device_map, max_memory, offload_folder)
            model = AutoModelForCausalLM.from_pretrained(source, dtype=dtype, **placed, **hub)
        self._setup(
            model,
            tokenizer,
            name=name or source,
            variant=variant,
            batch_size=batch_size,
            context_token=context_token,
            convention=convention,
            packing=packing,
            extra_metadata={**revision_metadata(model.config, revision), **(extra_metadata or {})},
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
        convention: str = "default",
        packing: str = "trie",
        extra_metadata: Mapping[str, Any] | None = None,
    ) -> CausalLMScorer:
        """A scorer around an already loaded model and tokenizer (neither is modified,
        except that the model is put in ``eval()`` mode)."""
        check_options(
            variant=variant, convention=convention, context_token=context_token, packing=packing
        )
        scorer = cls.__new__(cls)
        scorer._setup(
            model,
            tokenizer,
            name=name,
            variant=variant,
            batch_size=batch_size,
            context_token=context_token,
            convention=convention,
            packing=packing,
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
        convention: str,
        packing: str,
        extra_metadata: Mapping[str, Any] | None,
    ) -> None:
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int (got {batch_size!r})")
        self._setup_text(
            tokenizer,
            name=name,
            variant=variant,
            convention=convention,
            context_token=context_token,
            max_length=max_sequence_length(model.config, tokenizer),
        )
        self.model = model.eval()
        self.batch_size = batch_size
        self._extra = dict(extra_metadata or {})
        # a device-mapped model's output layer may be on disk: its hooks run it in forward()
        self._mapped = map_devices(model)
        self._head = plain_head(model) if self._mapped is None else None
        self.packing = self._usable_packing(packing)
        self.positions = [0, 0]
        """Positions the decoder computed on the fast path, and the tokens of the id lists it
        scored (:attr:`positions_share`)."""

    def _usable_packing(self, asked: str) -> str:
        """``asked``, or the next packing this model scores exactly (``trie`` → ``rows`` →
        ``padded``, checked on the model itself: :func:`packing_problem`), with a warning
        naming the reason."""
        if self._mapped is not None:
            return "padded"  # its layers run where accelerate put them, through their hooks
        if self._head is None:
            usable, why = "padded", f"{type(self.model).__name__} has no plain output layer"
        else:
            usable, why = asked, ""
            order = PACKINGS[PACKINGS.index(asked) :]
            for usable in order:
                problem = packing_problem(self._head[0], usable, max_length=self.max_length)
                if problem is None:
                    break
                why = why or problem
        if usable != asked:
            warnings.warn(
                f"{self.name}: packing {asked!r} is not exact for this model ({why}); "
                f"scoring with packing {usable!r}",
                stacklevel=4,
            )
        return usable

    @property
    def device(self) -> str:
        """Where the model runs (:class:`~baselines.interface.PlacedScorer`): its parameters'
        device, or where a device-mapped model lives (e.g. ``0+cpu+disk``)."""
        return self._mapped or str(next(self.model.parameters()).device)

    @property
    def positions_share(self) -> float | None:
        """Positions the decoder computed / tokens scored, so far on the fast path (``None``
        before any): about 1 for ``rows`` and ``padded``, less for ``trie``, whose shared
        prefixes are computed once."""
        computed, total = self.positions
        return computed / total if total else None

    def count_positions(self) -> None:
        """Start counting the positions computed afresh (:attr:`positions_share`)."""
        self.positions = [0, 0]

    # -- the model -----------------------------------------------------------------------------

    def _batches(self, encoded: list[list[int]]) -> list[list[int]]:
        """The indices of ``encoded`` in batches of ``batch_size``: sorted by their id lists
        for ``trie`` packing (lists that share a prefix land in the same batch), else longest
        first (the rows pad little)."""
        return plan_batches(encoded, self.batch_size, by_prefix=self.packing == "trie")

    def _logprobs(
        self, encoded: list[list[int]], starts: Sequence[int] | None = None
    ) -> tuple[list[list[float]], list[Any]]:
        """Log-probabilities of the tokens from ``starts[i]`` on (default: all but the first)
        of each id list, in order; with ``starts``, also each list's float32 log-softmax row
        (a CPU tensor) at the position before ``starts[i]``: the distribution of its first
        scored token."""
        import torch

        out: list[list[float]] = [[] for _ in encoded]
        rows: list[Any] = [None for _ in encoded]
        first = [1] * len(encoded) if starts is None else list(starts)
        with torch.inference_mode():
            for batch in self._batches(encoded):
                lists = [encoded[i] for i in batch]
                if self._head is not None:
                    lps, dists = self._head_logprobs(lists, [first[i] for i in batch], starts)
                else:
                    lps, dists = self._full_logprobs(lists, [first[i] for i in batch])
                for k, i in enumerate(batch):
                    out[i] = lps[k]
                    rows[i] = dists[k] if starts is not None else None
        return out, rows

    def _full_logprobs(
        self, batch: Sequence[list[int]], first: Sequence[int]
    ) -> tuple[list[list[float]], list[Any]]:
        """A model without a plain output layer: ``model(...).logits`` on the batch
        right-padded; each list's log-probabilities from ``first[k]`` on and its log-softmax
        row before ``first[k]``."""
        import torch

        # a device-mapped model's hooks move the inputs to each layer's device
        device = "cpu" if self._mapped else next(self.model.parameters()).device
        layout = decoder_layout(batch, "padded", width=1, fill=self.context_token_id)
        ids, inputs = layout.tensors(device, torch.long)
        inputs.pop("use_cache")
        logits = self.model(input_ids=ids, **inputs).logits[:, :-1].float()
        norm = torch.logsumexp(logits, dim=-1)
        lp = logits.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
        lp = (lp - norm).cpu()
        lps, dists = [], []
        for row, (seq, start) in enumerate(zip(batch, first, strict=True)):
            lps.append(lp[row, start - 1 : len(seq) - 1].tolist())
            dists.append((logits[row, start - 1] - norm[row, start - 1]).cpu())
        return lps, dists

    def _head_logprobs(
        self, batch: Sequence[list[int]], first: Sequence[int], starts: Any
    ) -> tuple[list[list[float]], list[Any]]:
        """The fast path: the decoder on the batch laid out by :attr:`packing`
        (:mod:`baselines.fast.layout`), the output layer only on the distinct (position,
        target) pairs read, :data:`HEAD_ROWS` at a time in vocabulary slices; with ``starts``
        (cloze units) also the whole log-softmax row at each list's position before
        ``first[k]``."""
        import torch

        from baselines.fast.head_logprobs import target_logprobs

        base, head = self._head
        parameter = next(base.parameters())
        limit = min(PACK_WIDTH, self.max_length or PACK_WIDTH)
        layout = decoder_layout(batch, self.packing, width=limit, fill=self.context_token_id)
        self.positions[0] += layout.computed
        self.positions[1] += layout.total
        ids, inputs = layout.tensors(parameter.device, parameter.dtype)
        hidden = base(input_ids=ids, **inputs).last_hidden_state.flatten(0, 1)
        wanted: dict[tuple[int, int], int] = {}
        for seq, reads in zip(batch, layout.reads, strict=True):
            for slot, target in zip(reads, seq[1:], strict=True):
                wanted.setdefault((slot, target), len(wanted))
        pairs = torch.tensor(list(wanted), device=parameter.device)
        lp = target_logprobs(
            hidden[pairs[:, 0]], head.weight, head.bias, pairs[:, 1], rows=HEAD_ROWS
        )
        lp = lp.cpu().tolist()
        lps = [
            [lp[wanted[key]] for key in zip(reads[start - 1 :], seq[start:], strict=True)]
            for seq, reads, start in zip(batch, layout.reads, first, strict=True)
        ]
        if starts is None:
            return lps, [None] * len(batch)
        at = torch.tensor(
            [reads[start - 1] for reads, start in zip(layout.reads, first, strict=True)]
        )
        logits = head(hidden[at.to(parameter.device)]).float()
        return lps, list(torch.log_softmax(logits, dim=-1).cpu())

    def metadata(self) -> dict[str, Any]:
        """Facts needed to reproduce the scores."""
        parameter = next(self.model.parameters())
        return {
            **scorer_identity(self),
            "architecture": type(self.model).__name__,
            "context_token": self.context_token,
            "context_token_id": self.context_token_id,
            **parameter_metadata(self.model),
            "dtype": str(parameter.dtype).removeprefix("torch."),
            "device": self._mapped or parameter.device.type,
            "max_length": self.max_length,
            **self._extra,
            "convention": self.convention,
            "packing": self.packing,
            "versions": library_versions(),
        }
