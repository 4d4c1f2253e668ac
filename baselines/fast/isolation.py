"""Whether a loaded model scores packed input exactly: checked on the model itself at load.

The causal scorer's ``rows`` and ``trie`` layouts (:mod:`baselines.fast.layout`) rely on the
model reading position ids and, for the trie, a custom 4-D attention mask. Not every model or
library version does: a model may derive its positions from the mask (OPT), add a position
bias computed from a 2-D mask (ALiBi: BLOOM, MPT), run an attention that drops a 4-D mask, or
limit each token to a window of the tokens before it (sliding-window attention: Mistral,
Qwen2 and Phi-3 configs, Gemma 2's alternating layers), which a custom mask replaces. So each
layout is checked on the loaded decoder: sequences laid out that way, longer than the model's
narrowest attention window (:func:`attention_window`), must get at every position read the
hidden states each gets alone. :func:`packing_problem` says why a layout is not exact;
:class:`baselines.kinds.causal.CausalLMScorer` falls back to the next layout then.
"""

from __future__ import annotations

from typing import Any

from baselines.fast.layout import decoder_layout

__all__ = [
    "PROBE_LIMIT",
    "attention_window",
    "mask_isolates",
    "packing_isolates",
    "packing_problem",
    "probe_length",
]

PROBE_LIMIT = 256
"""The longest probe sequence, in tokens: a model whose attention window is wider than this
(and than the longest list it accepts) is not probed past its window, and is not packed."""

_WINDOW_FIELDS = ("sliding_window", "attention_chunk_size")
"""Config fields that bound how far back a layer attends (the second is Llama 4's chunks)."""


def attention_window(config: Any) -> int | None:
    """The narrowest number of tokens any layer of a model with ``config`` attends to, or
    ``None`` when every layer sees the whole prefix.

    A config's ``layer_types`` (transformers' per-layer list) decides when it is given; else
    ``sliding_window`` applies unless ``use_sliding_window`` is false.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> attention_window(NS(sliding_window=4096))
    4096
    >>> attention_window(NS(sliding_window=4096, use_sliding_window=False)) is None
    True
    >>> attention_window(NS(sliding_window=4, layer_types=["full_attention", "sliding_attention"]))
    4
    >>> attention_window(NS(sliding_window=4, layer_types=["full_attention"])) is None
    True
    >>> attention_window(NS(n_positions=1024)) is None
    True
    """
    windows = [getattr(config, f, None) for f in _WINDOW_FIELDS]
    windows = [w for w in windows if isinstance(w, int) and not isinstance(w, bool) and w > 0]
    if not windows:
        return None
    layer_types = getattr(config, "layer_types", None)
    if layer_types is not None:
        if not any("sliding" in t or "chunked" in t for t in map(str, layer_types)):
            return None
    elif getattr(config, "use_sliding_window", True) is False:
        return None
    return min(windows)


def probe_length(window: int | None) -> int:
    """Tokens in the longest probe sequence: past ``window`` (:func:`attention_window`) by
    three, so that a token read sees one beyond the window, and at least 5.

    Examples
    --------
    >>> probe_length(None), probe_length(4), probe_length(4096)
    (5, 7, 4099)
    """
    return max(5, (window or 0) + 3)


def packing_problem(decoder: Any, packing: str, *, max_length: int | None) -> str | None:
    """Why ``decoder`` (a model's base, :func:`baselines.kinds.causal.plain_head`) does not
    score ``packing`` exactly, or ``None`` when it does (``padded`` always does).

    ``max_length`` is the longest id list the scorer accepts: a window as wide as that never
    binds; a window wider than :data:`PROBE_LIMIT` but narrower than ``max_length`` cannot be
    probed at load, and the packed layouts are refused.

    Examples
    --------
    >>> import torch
    >>> from transformers import MistralConfig, MistralModel
    >>> _ = torch.manual_seed(0)
    >>> mistral = MistralModel(MistralConfig(vocab_size=40, hidden_size=16, intermediate_size=32,
    ...     num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
    ...     sliding_window=4)).eval()
    >>> packing_problem(mistral, "trie", max_length=64)
    'the model does not honour a custom 4-D attention mask (checked past its 4-token attention window)'
    >>> packing_problem(mistral, "padded", max_length=64) is None
    True
    """
    if packing == "padded":
        return None
    window = attention_window(decoder.config)
    if window is not None and max_length is not None and window >= max_length:
        window = None  # no list the scorer accepts is longer than the window
    if window is not None and probe_length(window) > PROBE_LIMIT:
        return (
            f"its {window}-token attention window is longer than the load-time check probes "
            f"({PROBE_LIMIT} tokens), and a packed list past it would see too far back"
        )
    past = f" (checked past its {window}-token attention window)" if window else ""
    if packing == "trie" and not _trie_isolates(decoder, probe_length(window)):
        return f"the model does not honour a custom 4-D attention mask{past}"
    if packing == "rows" and not _rows_isolate(decoder, probe_length(window)):
        return f"the model reads a packed row as one sequence{past}"
    return None


def _tokens(decoder: Any, n: int, start: int, step: int) -> list[int]:
    """``n`` token ids spread over the decoder's vocabulary."""
    vocab = int(decoder.get_input_embeddings().num_embeddings)
    return [(start + step * k) % vocab for k in range(n)]


def packing_isolates(decoder: Any) -> bool:
    """Whether ``decoder`` (a model's base, :func:`baselines.kinds.causal.plain_head`) reads a
    row packed with several sequences as separate sequences when given position ids that
    restart at 0 and no attention mask (see :mod:`baselines.fast.packing`): two sequences,
    the first longer than the model's attention window (:func:`probe_length`), packed in one
    row must get the hidden states each gets alone, to 1e-4 of their scale in float32 (2e-2
    in lower precisions). Checked on the loaded model itself, so a model or library version
    that reads the row as one sequence falls back to padded batches instead of scoring wrongly.

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
    return _rows_isolate(decoder, probe_length(attention_window(decoder.config)))


def _rows_isolate(decoder: Any, n: int) -> bool:
    """:func:`packing_isolates` with a longest probe sequence of ``n`` tokens."""
    first = _tokens(decoder, n - 1, 1, 37)
    second = _tokens(decoder, 2, 2, 53)
    return _reads_as_alone(decoder, [[*first, 0], [*second, 0]], "rows")


def mask_isolates(decoder: Any) -> bool:
    """Whether ``decoder`` honours a custom 4-D attention mask with position ids, as ``trie``
    packing needs (:mod:`baselines.fast.trie`): three sequences sharing prefixes, the longest
    past the model's attention window (:func:`probe_length`), packed as a trie, must get at
    every shared and unshared position the hidden states each gets alone, to the tolerance
    of :func:`packing_isolates`.

    Examples
    --------
    >>> import torch
    >>> from transformers import GPT2Config, GPT2Model
    >>> _ = torch.manual_seed(0)
    >>> mask_isolates(GPT2Model(GPT2Config(vocab_size=32, n_positions=16, n_embd=16,
    ...                                    n_layer=1, n_head=2)).eval())
    True
    """
    return _trie_isolates(decoder, probe_length(attention_window(decoder.config)))


def _trie_isolates(decoder: Any, n: int) -> bool:
    """:func:`mask_isolates` with a longest probe sequence of ``n`` tokens."""
    stem = _tokens(decoder, n - 3, 3, 29)
    c, d, e = _tokens(decoder, 3, 7, 31)
    sequences = [[*stem, c, d, 0], [*stem, e, 0], [stem[0], d, 0]]
    return _reads_as_alone(decoder, sequences, "trie")


def _reads_as_alone(decoder: Any, sequences: list[list[int]], packing: str) -> bool:
    """Whether the hidden states read from ``sequences`` laid out by ``packing`` (all but each
    sequence's last token) are those each sequence gets alone (see :func:`packing_isolates`)."""
    import torch

    parameter = next(decoder.parameters())
    tolerance = 1e-4 if parameter.dtype == torch.float32 else 2e-2
    width = sum(len(seq) for seq in sequences) + 1  # one row, with an empty tail
    layout = decoder_layout(sequences, packing, width=width, fill=sequences[0][0])
    try:
        with torch.inference_mode():
            alone = [
                decoder(input_ids=torch.tensor([seq], device=parameter.device), use_cache=False)
                .last_hidden_state[0, :-1]
                .float()
                for seq in sequences
            ]
            ids, inputs = layout.tensors(parameter.device, parameter.dtype)
            packed = decoder(input_ids=ids, **inputs).last_hidden_state.flatten(0, 1).float()
    except (TypeError, ValueError, RuntimeError):  # a decoder without this input format
        return False
    reads = torch.tensor([slot for slots in layout.reads for slot in slots])
    expected = torch.cat(alone)
    scale = 1.0 + float(expected.abs().max())
    return bool((packed[reads.to(packed.device)] - expected).abs().max() <= tolerance * scale)
