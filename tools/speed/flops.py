"""FLOP and memory counts of scoring forward passes, and this machine's measured matmul FLOP/s.

The benchmark reports how close a scorer comes to the machine's limit: the floating-point
operations the scoring *needs* divided by the time it took, as a fraction of what
``torch.matmul`` on large square fp32 matrices achieves on the same machine in the same run.

The count is of useful work only, so two tools that compute the same scores are charged the
same number of operations and the fraction is a fair measure of waste (padding, logits at
positions nobody reads, sub-optimal kernels). For one forward pass over ``rows`` sequences of
``L`` tokens through a transformer with ``N`` layers of width ``d``, with ``P`` weight
parameters in the matrix multiplications of each layer (biases and layer norms are ignored),
and an output head of ``H`` weight parameters applied at the ``k`` positions that are scored::

    flops = 2 * P * N * rows * L          # every token through every layer's weight matrices
          + 4 * N * d * rows * L * L      # attention: Q Kᵀ and (softmax) V, full L×L per row
          + 2 * H * k                     # output head, only where a token is scored

with, for a BERT layer, ``P = 4 d² + 2 d f`` (Q, K, V, O and the two feed-forward matrices of
inner width ``f``) and ``H = d² + d V`` (the MLM head's transform and its decoder over a
vocabulary of ``V``); for a Llama-style layer with grouped-query attention
``P = 2 d² + 2 d d_kv + 3 d f`` (Q, O, K, V and the three SwiGLU matrices) and ``H = d V``.
The attention term counts the full ``L × L`` score matrix for causal models too.

The last layer's output is needed only where a token is scored; at the other ``rows·L − k``
positions it needs only the keys and values (``K`` weight parameters: ``2 d²`` for BERT,
``2 d d_kv`` for Llama). A PLL, which reads one position per row, therefore needs less::

    pll = flops − (2 * (P − K) + 4 * d * L) * (rows * L − k)

(:func:`pll_flops`; :mod:`baselines.fast.mlm_last_layer` does exactly that much work). A causal
log-probability reads every position but the last, so it needs the whole pass.

:func:`speed_limit` turns a count into the time it would take if every useful FLOP ran at
the measured matmul rate, a practical best for this machine. A tool's time against it is the
speed-up over that tool a scorer doing the same work would reach at that rate.

Memory: :func:`activation_bytes` estimates the largest activations alive at once in one
fp32 forward pass of a BERT-style encoder (an estimate, not a measurement; the benchmark
measures)::

    bytes = 4 * (8 T d + 2 T f + 2 rows h L² + T_logits V)      with T = rows × L

(hidden states and their Q, K, V and residual copies; the feed-forward activation before and
after its non-linearity; attention scores and their softmax with ``h`` heads; logits over the
vocabulary at ``T_logits`` positions: all ``T`` when the whole model runs, ``rows`` when the
head is applied at the masked positions only).

A pseudo-log-likelihood (PLL) of a sentence of ``n`` word pieces runs ``n`` masked copies of its
``L = n + 2`` tokens (with ``[CLS]`` and ``[SEP]``) and reads the head at one position per copy;
a causal log-probability runs one row and reads the head at every position.

Examples
--------
>>> spec = ModelSpec(n_layers=2, hidden=4, layer_params=100, head_params=50, kv_params=30)
>>> full = 2 * 100 * 2 * 3 + 4 * 2 * 4 * 3 * 3 + 2 * 50 * 1  # 1 masked copy of 3 tokens
>>> pll_flops(spec, [3]) == full - (2 * (100 - 30) + 4 * 4 * 3) * 2  # 2 positions unread
True
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ModelSpec",
    "activation_bytes",
    "causal_flops",
    "forward_flops",
    "measure_matmul_flops",
    "pll_flops",
    "spec_from_config",
    "speed_limit",
]


@dataclass(frozen=True)
class ModelSpec:
    """The sizes a FLOP count needs.

    Attributes
    ----------
    n_layers:
        Number of transformer layers ``N``.
    hidden:
        Model width ``d``.
    layer_params:
        Weight parameters in one layer's matrix multiplications, ``P``.
    head_params:
        Weight parameters of the output head applied at one scored position, ``H``.
    kv_params:
        Weight parameters of one layer's key and value projections, ``K`` (part of ``P``).

    Examples
    --------
    >>> ModelSpec(n_layers=12, hidden=768, layer_params=7_077_888, head_params=24_030_720).n_layers
    12
    """

    n_layers: int
    hidden: int
    layer_params: int
    head_params: int
    kv_params: int = 0


def _get(config: Mapping[str, Any], key: str) -> int:
    if key not in config or config[key] is None:
        raise ValueError(f"model config has no {key!r} (got keys {sorted(config)})")
    return int(config[key])


def spec_from_config(config: Any) -> ModelSpec:
    """Read a :class:`ModelSpec` from a transformers config (object or dict).

    Knows BERT-style encoders (``model_type`` ``bert``, ``roberta``) and Llama-style decoders
    (``llama``, ``mistral``, ``qwen2``); anything else is an error rather than a wrong count.

    Examples
    --------
    >>> bert_base = {"model_type": "bert", "hidden_size": 768, "intermediate_size": 3072,
    ...              "num_hidden_layers": 12, "vocab_size": 30522}
    >>> s = spec_from_config(bert_base)
    >>> s.layer_params, s.head_params, s.kv_params
    (7077888, 24030720, 1179648)
    >>> spec_from_config({"model_type": "t5"})
    Traceback (most recent call last):
    ...
    ValueError: model_type must be one of bert, llama, mistral, qwen2, roberta (got 't5')
    """
    cfg = config if isinstance(config, Mapping) else config.to_dict()
    model_type = cfg.get("model_type")
    d = None
    if model_type in ("bert", "roberta"):
        d = _get(cfg, "hidden_size")
        f = _get(cfg, "intermediate_size")
        layer = 4 * d * d + 2 * d * f
        kv = 2 * d * d
        head = d * d + d * _get(cfg, "vocab_size")
    elif model_type in ("llama", "mistral", "qwen2"):
        d = _get(cfg, "hidden_size")
        f = _get(cfg, "intermediate_size")
        n_heads = _get(cfg, "num_attention_heads")
        head_dim = int(cfg.get("head_dim") or d // n_heads)
        n_kv = int(cfg.get("num_key_value_heads") or n_heads)
        kv = 2 * d * n_kv * head_dim
        layer = d * n_heads * head_dim * 2 + kv + 3 * d * f
        head = d * _get(cfg, "vocab_size")
    else:
        raise ValueError(
            f"model_type must be one of bert, llama, mistral, qwen2, roberta (got {model_type!r})"
        )
    return ModelSpec(
        n_layers=_get(cfg, "num_hidden_layers"),
        hidden=d,
        layer_params=layer,
        head_params=head,
        kv_params=kv,
    )


def forward_flops(spec: ModelSpec, *, rows: int, length: int, scored: int) -> int:
    """FLOPs of one forward pass over ``rows`` sequences of ``length`` tokens, ``scored`` heads.

    Examples
    --------
    >>> spec = ModelSpec(n_layers=1, hidden=2, layer_params=10, head_params=3)
    >>> forward_flops(spec, rows=2, length=5, scored=4) == 2*10*1*2*5 + 4*1*2*2*5*5 + 2*3*4
    True
    >>> forward_flops(spec, rows=1, length=0, scored=0)
    Traceback (most recent call last):
    ...
    ValueError: length must be >= 1 (got 0)
    """
    for name, value in (("rows", rows), ("length", length)):
        if value < 1:
            raise ValueError(f"{name} must be >= 1 (got {value})")
    if scored < 0:
        raise ValueError(f"scored must be >= 0 (got {scored})")
    n, d = spec.n_layers, spec.hidden
    tokens = rows * length
    return (
        2 * spec.layer_params * n * tokens
        + 4 * n * d * tokens * length
        + 2 * spec.head_params * scored
    )


def pll_flops(spec: ModelSpec, lengths: Iterable[int]) -> int:
    """Useful FLOPs of the original PLL of sentences of ``lengths`` tokens (special ones included).

    A sentence of ``L`` tokens has ``L - 2`` maskable word pieces, so ``L - 2`` copies of length
    ``L``, each scored at one position; the last layer is needed in full at that position only
    (keys and values at the others: see the module docs).

    Examples
    --------
    >>> spec = ModelSpec(n_layers=1, hidden=2, layer_params=10, head_params=3, kv_params=4)
    >>> unread = 2 * 4 - 2  # 2 copies of 4 tokens, 1 scored position each
    >>> pll_flops(spec, [4]) == (forward_flops(spec, rows=2, length=4, scored=2)
    ...                          - (2 * (10 - 4) + 4 * 2 * 4) * unread)
    True
    >>> pll_flops(spec, [4, 5]) == pll_flops(spec, [4]) + pll_flops(spec, [5])
    True
    >>> pll_flops(spec, [2])
    Traceback (most recent call last):
    ...
    ValueError: lengths[0] must be >= 3 ([CLS], one word piece, [SEP]) (got 2)
    """
    total = 0
    for i, length in enumerate(lengths):
        if length < 3:
            raise ValueError(
                f"lengths[{i}] must be >= 3 ([CLS], one word piece, [SEP]) (got {length})"
            )
        rows = length - 2
        unread = rows * length - rows
        skipped = (2 * (spec.layer_params - spec.kv_params) + 4 * spec.hidden * length) * unread
        total += forward_flops(spec, rows=rows, length=length, scored=rows) - skipped
    return total


def causal_flops(spec: ModelSpec, lengths: Iterable[int]) -> int:
    """Useful FLOPs of causal log-probs of sentences of ``lengths`` tokens (the BOS included).

    Every position but the last predicts the next token, so ``L - 1`` heads are read.

    Examples
    --------
    >>> spec = ModelSpec(n_layers=1, hidden=2, layer_params=10, head_params=3)
    >>> causal_flops(spec, [4]) == forward_flops(spec, rows=1, length=4, scored=3)
    True
    """
    total = 0
    for i, length in enumerate(lengths):
        if length < 2:
            raise ValueError(f"lengths[{i}] must be >= 2 (BOS and one token) (got {length})")
        total += forward_flops(spec, rows=1, length=length, scored=length - 1)
    return total


def measure_matmul_flops(
    size: int = 2048, *, repeats: int = 5, device: str = "cpu", precision: str = "fp32"
) -> float:
    """Best achieved FLOP/s of ``torch.matmul`` on two ``size × size`` matrices.

    The matrices are in ``precision`` (``"fp32"``, ``"bf16"`` or ``"fp16"``: the precision the
    scorers run in, so that the rate is the limit they face). Uses the current ``torch``
    thread setting on the CPU; on a GPU (``device`` ``"cuda[:N]"``) the clock waits for the
    device, and TF32 is whatever torch is set to (off by default).
    One untimed warm-up call, then the best of ``repeats`` timed calls (the best, because
    other processes can only slow a call down).

    Examples
    --------
    >>> measure_matmul_flops(64, repeats=2) > 0
    True
    >>> measure_matmul_flops(0)
    Traceback (most recent call last):
    ...
    ValueError: size and repeats must be >= 1 (got size=0, repeats=5)
    """
    import torch

    if size < 1 or repeats < 1:
        raise ValueError(f"size and repeats must be >= 1 (got size={size}, repeats={repeats})")
    from baselines.device import inference_dtype, synchronize

    where = torch.device(device)
    dtype = inference_dtype(where, precision)
    gen = torch.Generator().manual_seed(0)
    a = torch.randn(size, size, generator=gen).to(where, dtype)
    b = torch.randn(size, size, generator=gen).to(where, dtype)
    out = torch.empty(size, size, device=where, dtype=dtype)
    torch.matmul(a, b, out=out)
    synchronize(where)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        torch.matmul(a, b, out=out)
        synchronize(where)
        best = min(best, time.perf_counter() - start)
    return 2.0 * size**3 / best


def speed_limit(flops: int | float, matmul_flops: float) -> float:
    """Seconds that ``flops`` useful FLOPs take at the measured matmul rate: the best possible.

    Examples
    --------
    >>> speed_limit(3e11, 1.5e11)
    2.0
    >>> speed_limit(1e9, 0.0)
    Traceback (most recent call last):
    ...
    ValueError: matmul_flops must be > 0 (got 0.0)
    """
    if not matmul_flops > 0:
        raise ValueError(f"matmul_flops must be > 0 (got {matmul_flops})")
    if flops < 0:
        raise ValueError(f"flops must be >= 0 (got {flops})")
    return flops / matmul_flops


def activation_bytes(config: Any, *, rows: int, length: int, logit_positions: int) -> int:
    """Estimated peak activation bytes of one fp32 encoder forward pass (see the module docs).

    ``config`` is a BERT-style transformers config (object or dict) with ``hidden_size``,
    ``intermediate_size``, ``num_attention_heads`` and ``vocab_size``.

    Examples
    --------
    >>> cfg = {"hidden_size": 768, "intermediate_size": 3072, "num_attention_heads": 12,
    ...        "vocab_size": 30522}
    >>> round(activation_bytes(cfg, rows=13, length=302, logit_positions=13 * 302) / 2**20)
    750
    >>> activation_bytes(cfg, rows=0, length=302, logit_positions=0)
    Traceback (most recent call last):
    ...
    ValueError: rows must be >= 1 (got 0)
    """
    cfg = config if isinstance(config, Mapping) else config.to_dict()
    for name, value in (("rows", rows), ("length", length)):
        if value < 1:
            raise ValueError(f"{name} must be >= 1 (got {value})")
    d, f = _get(cfg, "hidden_size"), _get(cfg, "intermediate_size")
    h, v = _get(cfg, "num_attention_heads"), _get(cfg, "vocab_size")
    tokens = rows * length
    floats = 8 * tokens * d + 2 * tokens * f + 2 * rows * h * length * length + logit_positions * v
    return 4 * floats
