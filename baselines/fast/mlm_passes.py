"""Masked copies → forward passes under a token budget → the log-probability at each scored
position: the fast path of the masked-LM scorer (:mod:`baselines.kinds.mlm`).

All masked copies of all sentences form one stream (longest first), cut into forward passes so
that ``copies × padded length ≤ token_budget`` (:func:`plan_passes`): each pass pads to (nearly)
its own length and the largest pass comes first. The output head is applied at the scored
positions only, and for BERT-style encoders so is most of the last layer
(:mod:`baselines.fast.mlm_last_layer`); with ``runtime="onnx"`` every encoder layer but the
last runs in ONNX Runtime (:mod:`baselines.fast.mlm_onnx`). A model whose head is not known
(:data:`HEAD_ATTRIBUTE`) runs its full forward pass.

Examples
--------
>>> plan_passes([5, 5, 5, 3, 3, 3, 3], 10)
[(0, 2), (2, 4), (4, 7)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from baselines.fast.mlm_last_layer import (
    hidden_at_positions,
    last_layer_at,
    supports_scored_positions,
)
from baselines.fast.mlm_onnx import OnnxFirstLayers

__all__ = [
    "CPU_TOKEN_BUDGET",
    "GPU_TOKEN_BUDGET",
    "HEAD_ATTRIBUTE",
    "MaskedCopy",
    "MaskedPasses",
    "default_token_budget",
    "plan_passes",
]

# Models whose MLM head can be applied to selected hidden states only (saves the vocabulary
# projection at every unmasked position). Others fall back to the model's full forward pass.
HEAD_ATTRIBUTE: dict[str, str] = {
    "bert": "cls",
    "roberta": "lm_head",
    "xlm-roberta": "lm_head",
    "camembert": "lm_head",
    "roberta-prelayernorm": "lm_head",
}
"""``model_type`` → the attribute holding its masked-LM head."""


@dataclass(frozen=True)
class MaskedCopy:
    """One masked copy: sentence (index among unique sentences), scored position, masks;
    ``keep_row``: keep the whole log-probability row at the scored position (cloze ranks)."""

    sentence: int
    position: int
    masked: tuple[int, ...]
    keep_row: bool = False


#: Default tokens per forward pass. On a CPU small passes stay in cache: BERT-base PLL ran at
#: 9.1 sentences/s with 256 tokens per pass against 3.7 with 4096 on a 2-core Xeon; on a 2-core
#: AMD EPYC at 5.2-5.5 with 256, 5.8 with 512 to 1024 and 5.1 with 4096 (docs/speed.md).
#: On a GPU large passes keep the device busy.
CPU_TOKEN_BUDGET = 512
GPU_TOKEN_BUDGET = 4096


def default_token_budget(device: str | object) -> int:
    """Tokens per forward pass when none is given: small on a CPU, large on a GPU.

    Examples
    --------
    >>> default_token_budget("cpu"), default_token_budget("cuda")
    (512, 4096)
    """
    kind = getattr(device, "type", str(device).split(":")[0])
    return GPU_TOKEN_BUDGET if kind == "cuda" else CPU_TOKEN_BUDGET


def plan_passes(lengths: Sequence[int], token_budget: int) -> list[tuple[int, int]]:
    """Cut a stream of copies (their lengths, longest first) into forward passes.

    Returns ``(start, stop)`` slices such that ``(stop - start) × max(length in slice)`` never
    exceeds ``token_budget``.

    Examples
    --------
    >>> plan_passes([5, 5, 5, 3, 3, 3, 3], 10)
    [(0, 2), (2, 4), (4, 7)]
    >>> plan_passes([12], 10)
    Traceback (most recent call last):
    ...
    ValueError: token_budget (10) is smaller than one masked copy (12 tokens); raise token_budget
    """
    passes = []
    start, width = 0, 0
    for i, length in enumerate(lengths):
        if length > token_budget:
            raise ValueError(
                f"token_budget ({token_budget}) is smaller than one masked copy "
                f"({length} tokens); raise token_budget"
            )
        new_width = max(width, length)
        if i > start and (i - start + 1) * new_width > token_budget:
            passes.append((start, i))
            start, new_width = i, length
        width = new_width
    if start < len(lengths):
        passes.append((start, len(lengths)))
    return passes


class MaskedPasses:
    """Runs streams of masked copies through a loaded masked LM (put in ``eval()`` mode by
    its scorer): the forward path is chosen once, from the model and the ``runtime``.

    ``head_name`` is the attribute of the model's head (``None``: the full forward pass);
    ``last_layer_scored_only`` says whether the last layer runs at the scored positions only;
    ``onnx`` holds the ONNX Runtime session of the first layers, if any.
    """

    def __init__(self, model: Any, tokenizer: Any, *, device: Any, runtime: str = "torch"):
        import torch

        self.model = model
        self.device = device
        self.head_name = HEAD_ATTRIBUTE.get(model.config.model_type)
        # the last layer at the scored positions only: where the head is ours to apply too
        self.last_layer_scored_only = self.head_name is not None and supports_scored_positions(
            model
        )
        self.onnx = OnnxFirstLayers(model) if runtime == "onnx" else None
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        self.mask_id = tokenizer.mask_token_id
        self._torch = torch

    def run(
        self,
        copies: Sequence[MaskedCopy],
        encodings: Sequence[tuple[list[int], Any, list[int], list[int] | None]],
        *,
        token_budget: int,
        widen: bool = False,
        progress: bool = False,
        desc: str = "PLL",
    ) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], Any]]:
        """The log-probability of each copy's target token at its scored position, keyed by
        ``(sentence, position)``, and the whole float32 log-probability row (a CPU tensor) of
        the copies with ``keep_row``. ``encodings[k]`` holds sentence *k*'s token ids, word
        ids, special-tokens mask and token-type ids (or ``None``). With ``widen`` a copy
        longer than ``token_budget`` gets a pass of its own instead of an error."""
        from tqdm.auto import tqdm

        torch = self._torch
        lengths = [len(encodings[c.sentence][0]) for c in copies]
        budget = max(token_budget, *lengths) if widen else token_budget
        passes = plan_passes(lengths, budget)
        pad_id, mask_id, head_name = self.pad_id, self.mask_id, self.head_name
        out: dict[tuple[int, int], float] = {}
        rows_kept: dict[tuple[int, int], Any] = {}
        bar = tqdm(passes, desc=desc, unit="pass", leave=False, disable=not progress)
        with torch.inference_mode():
            for start, stop in bar:
                chunk = copies[start:stop]
                width = max(lengths[start:stop])
                ids = torch.full((len(chunk), width), pad_id, dtype=torch.long)
                attention = torch.zeros((len(chunk), width), dtype=torch.long)
                types = torch.zeros((len(chunk), width), dtype=torch.long)
                targets = torch.empty(len(chunk), dtype=torch.long)
                for row, c in enumerate(chunk):
                    seq, _, _, seq_types = encodings[c.sentence]
                    ids[row, : len(seq)] = torch.tensor(seq)
                    attention[row, : len(seq)] = 1
                    if seq_types is not None:
                        types[row, : len(seq)] = torch.tensor(seq_types)
                    targets[row] = seq[c.position]
                    ids[row, list(c.masked)] = mask_id
                inputs = {"input_ids": ids, "attention_mask": attention}
                if encodings[chunk[0].sentence][3] is not None:
                    inputs["token_type_ids"] = types
                inputs = {k: v.to(self.device) for k, v in inputs.items()}
                rows = torch.arange(len(chunk), device=self.device)
                positions = torch.tensor([c.position for c in chunk], device=self.device)
                if self.onnx is not None:
                    before = self.onnx(ids, attention, types)
                    hidden = last_layer_at(self.model, before, attention, positions)
                    logits = getattr(self.model, head_name)(hidden)
                elif self.last_layer_scored_only:
                    hidden = hidden_at_positions(self.model, inputs, positions)
                    logits = getattr(self.model, head_name)(hidden)
                elif head_name is not None:
                    hidden = self.model.base_model(**inputs)[0]
                    logits = getattr(self.model, head_name)(hidden[rows, positions])
                else:
                    logits = self.model(**inputs).logits[rows, positions]
                logp = logits.float().log_softmax(-1)
                picked = logp[rows, targets.to(self.device)].cpu().tolist()
                for row, (c, value) in enumerate(zip(chunk, picked, strict=True)):
                    out[(c.sentence, c.position)] = float(value)
                    if c.keep_row:
                        rows_kept[(c.sentence, c.position)] = logp[row].cpu()
        return out, rows_kept
