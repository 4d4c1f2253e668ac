"""The last layer of a BERT-style encoder, computed at the scored positions only.

A pseudo-log-likelihood reads the model's output at one position per masked copy. Every layer
but the last must run at every position (the next layer attends to all of them), but the last
layer's output is read at the scored position only, so there it needs the keys and values of
every position and everything else (query, attention output, feed-forward) at that one
position. For BERT-base this skips 10/12 of the last layer's work at the unread positions,
about 6 % of a PLL's FLOPs, with the same numbers up to float rounding (tests compare it with
the full forward pass).

:func:`hidden_at_positions` runs the model's own embeddings and layers up to the last one,
stops there (a forward pre-hook captures the last layer's input and the attention mask the
model built for it), and finishes the last layer with that layer's own modules for one query
per row. :func:`supports_scored_positions` says which models it is exact for: post-layer-norm
BERT-style layers (BERT, RoBERTa, XLM-R, CamemBERT) with absolute positions, as encoders.

Examples
--------
>>> import torch
>>> from transformers import BertConfig, BertForMaskedLM
>>> _ = torch.manual_seed(0)
>>> model = BertForMaskedLM(BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=2,
...                                    num_attention_heads=2, intermediate_size=32)).eval()
>>> supports_scored_positions(model)
True
>>> ids = torch.tensor([[1, 7, 8, 9, 2], [1, 5, 6, 2, 0]])
>>> attention = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 1, 0]])
>>> positions = torch.tensor([2, 1])  # the scored position of each row
>>> with torch.inference_mode():
...     fast = hidden_at_positions(model, {"input_ids": ids, "attention_mask": attention},
...                                positions)
...     full = model.bert(input_ids=ids, attention_mask=attention)[0][[0, 1], positions]
>>> fast.shape, bool((fast - full).abs().max() < 1e-5)
(torch.Size([2, 16]), True)
"""

from __future__ import annotations

from typing import Any

import torch
from torch.nn import functional as F

__all__ = ["encoder_layers", "hidden_at_positions", "last_layer_at", "supports_scored_positions"]

# model types whose layers are post-layer-norm BERT layers (attention.self.{query,key,value},
# attention.output, intermediate, output)
_BERT_LAYER_MODELS = frozenset({"bert", "roberta", "xlm-roberta", "camembert"})
_ATTENTION = frozenset({"eager", "sdpa"})


class _Reached(Exception):
    """Raised by the pre-hook to stop the forward pass at the last layer."""


def encoder_layers(model: Any) -> Any:
    """The encoder's layers, in order (a ``torch.nn.ModuleList``)."""
    return model.base_model.encoder.layer


def supports_scored_positions(model: Any) -> bool:
    """Whether :func:`hidden_at_positions` is exact for ``model``.

    True for BERT-style encoders (``bert``, ``roberta``, ``xlm-roberta``, ``camembert``) with
    absolute position embeddings and eager or SDPA attention; False for anything else, which
    then runs its full forward pass.

    Examples
    --------
    >>> from transformers import BertConfig, BertForMaskedLM
    >>> cfg = BertConfig(vocab_size=20, hidden_size=8, num_hidden_layers=1,
    ...                  num_attention_heads=2, intermediate_size=8)
    >>> supports_scored_positions(BertForMaskedLM(cfg))
    True
    >>> cfg.position_embedding_type = "relative_key"
    >>> supports_scored_positions(BertForMaskedLM(cfg))
    False
    """
    config = getattr(model, "config", None)
    if config is None or config.model_type not in _BERT_LAYER_MODELS:
        return False
    if getattr(config, "position_embedding_type", "absolute") not in (None, "absolute"):
        return False
    if getattr(config, "is_decoder", False) or getattr(config, "add_cross_attention", False):
        return False
    if getattr(config, "_attn_implementation", None) not in _ATTENTION:
        return False
    try:
        layer = encoder_layers(model)[-1]
        attention = layer.attention.self
        needed = (attention.query, attention.key, attention.value)
        needed += (layer.attention.output, layer.intermediate, layer.output)
    except (AttributeError, IndexError, TypeError):
        return False
    return all(isinstance(m, torch.nn.Module) for m in needed)


def _key_mask(mask: torch.Tensor | None, positions: torch.Tensor) -> torch.Tensor | None:
    """The keys each row's scored query may attend to, as an SDPA mask of shape (B, 1, 1, L).

    ``mask`` is what the model passed to its last layer: ``None`` (no padding), a 2-D padding
    mask, or a 4-D boolean or additive mask of shape (B, 1, 1 or L, L).
    """
    if mask is None:
        return None
    if mask.dim() == 2:
        return mask.bool()[:, None, None, :]
    if mask.dim() != 4:
        raise ValueError(
            f"attention mask must have 2 or 4 dimensions (got shape {tuple(mask.shape)})"
        )
    mask = mask.expand(len(positions), -1, -1, -1)
    if mask.shape[2] == 1:
        return mask
    rows = torch.arange(len(positions), device=positions.device)
    return mask[rows, :, positions].unsqueeze(2)


def _last_layer(
    layer: Any, hidden: torch.Tensor, mask: torch.Tensor | None, positions: torch.Tensor
) -> torch.Tensor:
    """One BERT layer's output at ``hidden[i, positions[i]]`` for every row ``i``: (B, d)."""
    attention = layer.attention.self
    batch, length = hidden.shape[0], hidden.shape[1]
    heads, head_size = attention.num_attention_heads, attention.attention_head_size
    rows = torch.arange(batch, device=hidden.device)
    here = hidden[rows, positions]  # (B, d): the only positions whose output is read
    query = attention.query(here).view(batch, heads, 1, head_size)
    key = attention.key(hidden).view(batch, length, heads, head_size).transpose(1, 2)
    value = attention.value(hidden).view(batch, length, heads, head_size).transpose(1, 2)
    scale = getattr(attention, "scaling", head_size**-0.5)
    context = F.scaled_dot_product_attention(
        query, key, value, attn_mask=_key_mask(mask, positions), scale=scale
    )
    attended = layer.attention.output(context.reshape(batch, heads * head_size), here)
    return layer.output(layer.intermediate(attended), attended)


def hidden_at_positions(
    model: Any, inputs: dict[str, torch.Tensor], positions: torch.Tensor
) -> torch.Tensor:
    """The encoder's final hidden state of each row at its scored position: shape (B, d).

    ``inputs`` are the keyword arguments of the base model's forward pass (``input_ids``,
    ``attention_mask``, ``token_type_ids``) for B rows; ``positions[i]`` is the position
    read in row ``i``. Only for models where
    :func:`supports_scored_positions` is true; call it under ``torch.inference_mode()``.
    """
    layer = encoder_layers(model)[-1]
    captured: dict[str, Any] = {}

    def stop(_module: Any, args: tuple, kwargs: dict) -> None:
        captured["hidden"] = args[0] if args else kwargs["hidden_states"]
        captured["mask"] = args[1] if len(args) > 1 else kwargs.get("attention_mask")
        raise _Reached

    handle = layer.register_forward_pre_hook(stop, with_kwargs=True)
    try:
        model.base_model(**inputs)
    except _Reached:
        pass
    finally:
        handle.remove()
    if "hidden" not in captured:
        raise RuntimeError("the model's forward pass never reached its last layer")
    return _last_layer(layer, captured["hidden"], captured["mask"], positions)


def last_layer_at(
    model: Any, hidden: torch.Tensor, mask: torch.Tensor | None, positions: torch.Tensor
) -> torch.Tensor:
    """The last layer's output at ``positions`` (one per row) from the hidden states it reads
    (B, L, d) and the 2-D padding ``mask`` (or ``None``): what :func:`hidden_at_positions`
    computes after the other layers, for hidden states computed elsewhere
    (:mod:`baselines.fast.mlm_onnx`)."""
    return _last_layer(encoder_layers(model)[-1], hidden, mask, positions)
