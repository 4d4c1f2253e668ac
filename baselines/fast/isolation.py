"""Whether a loaded model scores packed input exactly: checked on the model itself at load.

The causal scorer's ``rows`` and ``trie`` layouts (:mod:`baselines.fast.layout`) rely on the
model reading position ids and, for the trie, a custom 4-D attention mask. Not every model or
library version does, so each is checked on the loaded decoder: a few short sequences laid
out that way must get, at every position read, the hidden states each gets alone.
:class:`baselines.kinds.causal.CausalLMScorer` falls back to the next layout otherwise.
"""

from __future__ import annotations

from typing import Any

from baselines.fast.layout import decoder_layout

__all__ = ["mask_isolates", "packing_isolates"]


def packing_isolates(decoder: Any) -> bool:
    """Whether ``decoder`` (a model's base, :func:`baselines.kinds.causal.plain_head`) reads a
    row packed with several sequences as separate sequences when given position ids that
    restart at 0 and no attention mask (see :mod:`baselines.fast.packing`): two short
    sequences packed in one row must get the hidden states each gets alone, to 1e-4 of their scale in float32 (2e-2 in lower
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
    vocab = int(decoder.get_input_embeddings().num_embeddings)
    first = [(1 + 37 * k) % vocab for k in range(3)]
    second = [(2 + 53 * k) % vocab for k in range(2)]
    return _reads_as_alone(decoder, [[*first, 0], [*second, 0]], "rows")


def mask_isolates(decoder: Any) -> bool:
    """Whether ``decoder`` honours a custom 4-D attention mask with position ids, as ``trie``
    packing needs (:mod:`baselines.fast.trie`): three sequences sharing prefixes, packed as a
    trie, must get at every shared and unshared position the hidden states each gets alone,
    to the tolerance of :func:`packing_isolates`.

    Examples
    --------
    >>> import torch
    >>> from transformers import GPT2Config, GPT2Model
    >>> _ = torch.manual_seed(0)
    >>> mask_isolates(GPT2Model(GPT2Config(vocab_size=32, n_positions=16, n_embd=16,
    ...                                    n_layer=1, n_head=2)).eval())
    True
    """
    vocab = int(decoder.get_input_embeddings().num_embeddings)
    a, b, c, d, e = ((3 + 29 * k) % vocab for k in range(5))
    return _reads_as_alone(decoder, [[a, b, c, d, 0], [a, b, e, 0], [a, d, 0]], "trie")


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
