"""The causal-LM scorer: token log-probabilities from any Hugging Face causal language model.

How text becomes scored tokens (the ``default`` and ``harness`` conventions, the context
token, cloze units, too-long input) is the engine-independent half of every causal scorer,
:mod:`baselines.kinds.causal_base`. This module runs the model in this process:

* **Batching.** Sentences are sorted by token length and taken ``batch_size`` at a time. A
  batch is packed end to end into rows of 64 tokens, each sentence with position ids of its
  own and attending to itself only (:mod:`baselines.fast.packing`), when the loaded model keeps
  packed sentences apart (:func:`packing_isolates`, checked on the model at load); otherwise
  it is right-padded with an attention mask. Neither changes a score beyond float rounding;
  the model runs in ``eval()`` mode under ``torch.inference_mode()``.
* **Log-probabilities** are computed in float32 whatever the model's precision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from baselines.device_map import from_pretrained_options, map_devices
from baselines.fast.packing import PACK_WIDTH, Packing, pack, row_positions
from baselines.hf import library_versions, max_sequence_length
from baselines.interface import scorer_identity
from baselines.kinds.causal_base import CAUSAL_VARIANTS, CausalScorerBase, check_convention
from metric_adc.linking.formulas import check_linking_name

__all__ = [
    "HEAD_ROWS",
    "PLAIN_HEADS",
    "CausalLMScorer",
    "packing_isolates",
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


def packing_isolates(decoder: Any) -> bool:
    """Whether ``decoder`` (a model's base, see :func:`plain_head`) reads a row packed with
    several sequences as separate sequences when given position ids that restart at 0 and no
    attention mask (see :mod:`baselines.fast.packing`): two short sequences packed in one row must
    get the hidden states each gets alone, to 1e-4 of their scale in float32 (2e-2 in lower
    precisions). Checked on the loaded model itself, so a model or library version that reads
    the row as one sequence falls back to padded batches instead of scoring wrongly.

    Examples
    --------
    >>> import torch
    >>> from transformers import LlamaConfig, LlamaModel, OPTConfig, OPTModel
    >>> _ = torch.manual_seed(0)
    >>> llama = LlamaConfig(vocab_size=32, hidden_size=16, intermediate_size=32,
    ...                     num_hidden_layers=1, num_attention_heads=2)
    >>> packing_isolates(LlamaModel(llama).eval())
    True

    OPT computes its positions from the attention mask, not from position ids:

    >>> opt = OPTConfig(vocab_size=32, hidden_size=16, ffn_dim=32, num_hidden_layers=1,
    ...                 num_attention_heads=2, word_embed_proj_dim=16)
    >>> packing_isolates(OPTModel(opt).eval())
    False
    """
    import torch

    parameter = next(decoder.parameters())
    vocab = int(decoder.get_input_embeddings().num_embeddings)
    first = [(1 + 37 * k) % vocab for k in range(3)]
    second = [(2 + 53 * k) % vocab for k in range(2)]
    row = torch.tensor([first + second + first[:1]], device=parameter.device)
    positions = torch.tensor([[0, 1, 2, 0, 1, 0]], device=parameter.device)
    tolerance = 1e-4 if parameter.dtype == torch.float32 else 2e-2
    try:
        with torch.inference_mode():
            alone = [
                decoder(input_ids=torch.tensor([ids], device=parameter.device), use_cache=False)
                .last_hidden_state[0]
                .float()
                for ids in (first, second)
            ]
            packed = decoder(input_ids=row, position_ids=positions, use_cache=False)
            packed = packed.last_hidden_state[0].float()
    except (TypeError, ValueError):  # a decoder without position ids or this input format
        return False
    expected = torch.cat(alone)
    scale = 1.0 + float(expected.abs().max())
    return bool((packed[:5] - expected).abs().max() <= tolerance * scale)


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
    ValueError: sentences[0] is too long for tiny: 9 tokens with the context token, ...

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

        check_linking_name(variant, allowed=CAUSAL_VARIANTS)
        check_convention(convention, context_token)
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
            convention=convention,
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
        self._packs = self._head is not None and packing_isolates(self._head[0])

    # -- the model -----------------------------------------------------------------------------

    def _logprobs(
        self, encoded: list[list[int]], starts: Sequence[int] | None = None
    ) -> tuple[list[list[float]], list[Any]]:
        """Log-probabilities of the tokens from ``starts[i]`` on (default: all but the first)
        of each id list, in order; with ``starts``, also each list's float32 log-softmax row
        (a CPU tensor) at the position before ``starts[i]``: the distribution of its first
        scored token."""
        import torch

        # a device-mapped model's hooks move the inputs to each layer's device
        device = "cpu" if self._mapped else next(self.model.parameters()).device
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]), reverse=True)
        out: list[list[float]] = [[] for _ in encoded]
        rows: list[Any] = [None for _ in encoded]
        with torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                batch = order[start : start + self.batch_size]
                if starts is None and self._head is not None:
                    lp = self._head_logprobs([encoded[i] for i in batch], device).cpu()
                    at = 0
                    for i in batch:
                        n = len(encoded[i]) - 1
                        out[i] = lp[at : at + n].tolist()
                        at += n
                    continue
                _, ids, inputs = self._rows([encoded[i] for i in batch], device, packed=False)
                logits = self.model(input_ids=ids, **inputs).logits[:, :-1].float()
                targets = ids[:, 1:]
                norm = torch.logsumexp(logits, dim=-1)
                lp = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
                lp = (lp - norm).cpu()
                for row, i in enumerate(batch):
                    first = 1 if starts is None else starts[i]
                    out[i] = lp[row, first - 1 : len(encoded[i]) - 1].tolist()
                    if starts is not None:
                        rows[i] = (logits[row, first - 1] - norm[row, first - 1]).cpu()
        return out, rows

    def _rows(
        self, batch: Sequence[list[int]], device: Any, *, packed: bool
    ) -> tuple[Packing, Any, dict[str, Any]]:
        """The decoder's input for a batch of id lists: where each list goes, the ``input_ids``
        rows (filled with the context token) and the other keyword arguments. ``packed``: end
        to end in rows of :data:`~baselines.fast.packing.PACK_WIDTH` tokens with position ids
        restarting per list (:mod:`baselines.fast.packing`); else one list per row, right-padded
        with an attention mask."""
        import torch

        lengths = [len(ids) for ids in batch]
        if packed:
            limit = min(PACK_WIDTH, self.max_length or PACK_WIDTH)
            layout = pack(lengths, width=max(limit, *lengths))
            positions = torch.tensor(row_positions(layout, lengths))
            inputs = {"position_ids": positions.to(device), "use_cache": False}
        else:
            layout = Packing(max(lengths), len(batch), tuple((row, 0) for row in range(len(batch))))
            mask = torch.tensor([[1] * n + [0] * (layout.width - n) for n in lengths])
            inputs = {"attention_mask": mask.to(device)}
        ids = torch.full((layout.rows, layout.width), self.context_token_id, dtype=torch.long)
        for (row, offset), seq in zip(layout.places, batch, strict=True):
            ids[row, offset : offset + len(seq)] = torch.tensor(seq)
        return layout, ids.to(device), inputs

    def _head_logprobs(self, batch: Sequence[list[int]], device: Any) -> Any:
        """Log-probabilities of every token after the first of each id list, concatenated in
        order. The decoder runs on the batch packed into rows (:mod:`baselines.fast.packing`) when
        the model keeps packed sequences apart (:func:`packing_isolates`), else on the batch
        right-padded with an attention mask; the output layer runs only on the positions that
        predict a real token, :data:`HEAD_ROWS` at a time — no vocabulary-wide logits for
        padding, and memory bounded whatever the batch."""
        import torch

        from baselines.fast.head_logprobs import target_logprobs

        base, head = self._head
        layout, ids, inputs = self._rows(batch, device, packed=self._packs)
        hidden = base(input_ids=ids, **inputs).last_hidden_state.flatten(0, 1)
        where = torch.tensor(
            [
                row * layout.width + offset + j
                for (row, offset), seq in zip(layout.places, batch, strict=True)
                for j in range(len(seq) - 1)
            ],
            device=device,
        )
        hidden, targets = hidden[where], ids.flatten()[where + 1]
        return target_logprobs(hidden, head.weight, head.bias, targets, rows=HEAD_ROWS)

    def metadata(self) -> dict[str, Any]:
        """Facts needed to reproduce the scores."""
        parameter = next(self.model.parameters())
        return {
            **scorer_identity(self),
            "architecture": type(self.model).__name__,
            "context_token": self.context_token,
            "context_token_id": self.context_token_id,
            "dtype": str(parameter.dtype).removeprefix("torch."),
            "device": self._mapped or parameter.device.type,
            "max_length": self.max_length,
            **self._extra,
            "convention": self.convention,
            "versions": library_versions(),
        }
