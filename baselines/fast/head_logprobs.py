"""The log-probability of one target token per position, through the output layer in slices.

A causal LM's output layer maps each scored position to a logit per vocabulary entry (49,152
for SmolLM2); a score needs only the target's log-probability, ``logit[target] −
logsumexp(logits)``. Computing all of a position's logits at once and then their
``logsumexp`` reads and writes a buffer larger than the processor's cache several times. Here
the output layer runs over the vocabulary in slices of ``vocab_chunk`` entries for
``rows`` positions at a time, and the log-normaliser is accumulated as the slices come
(a running maximum and a sum of exponentials rescaled to it, as streaming softmax does): at
most ``rows × vocab_chunk`` logits exist at once. Each logit is the same dot product as in
the whole output layer; only the order of the normaliser's sum changes (float rounding). On
this project's 2-core CPU the output layer and normaliser of 2,192 SmolLM2 positions took
0.82 s this way against 1.33 s as whole rows of 256 positions.

Examples
--------
>>> import torch
>>> _ = torch.manual_seed(0)
>>> hidden, weight = torch.randn(5, 8), torch.randn(11, 8)
>>> targets = torch.tensor([0, 3, 10, 7, 3])
>>> fast = target_logprobs(hidden, weight, None, targets, rows=2, vocab_chunk=4)
>>> full = torch.log_softmax(hidden @ weight.T, dim=-1)[torch.arange(5), targets]
>>> bool((fast - full).abs().max() < 1e-5)
True
"""

from __future__ import annotations

import torch
from torch.nn import functional as F

__all__ = ["HEAD_ROWS", "VOCAB_CHUNK", "target_logprobs"]

HEAD_ROWS = 1024
"""Positions sent through the output layer together."""

VOCAB_CHUNK = 4096
"""Vocabulary entries per slice of the output layer (``HEAD_ROWS × VOCAB_CHUNK`` float32
logits at a time: 16 MiB)."""


def target_logprobs(
    hidden: torch.Tensor,
    weight: torch.Tensor,
    bias: torch.Tensor | None,
    targets: torch.Tensor,
    *,
    rows: int = HEAD_ROWS,
    vocab_chunk: int = VOCAB_CHUNK,
) -> torch.Tensor:
    """``log_softmax(hidden @ weight.T + bias)[i, targets[i]]`` for every row ``i``, in
    float32, never holding more than ``rows × vocab_chunk`` logits (see the module docs).

    ``hidden`` is (N, d), ``weight`` (V, d) and ``bias`` (V,) or ``None``, as in
    ``torch.nn.Linear``; ``targets`` (N,) holds vocabulary indices. The logits are computed in
    the weights' dtype and read in float32, as ``model(...).logits.float()`` would be.

    Examples
    --------
    >>> target_logprobs(torch.zeros(2, 3), torch.zeros(4, 3), None, torch.tensor([1, 2]))
    tensor([-1.3863, -1.3863])
    """
    if rows < 1 or vocab_chunk < 1:
        raise ValueError(f"rows and vocab_chunk must be positive (got {rows}, {vocab_chunk})")
    out = torch.empty(targets.shape[0], dtype=torch.float32, device=hidden.device)
    vocab = weight.shape[0]
    for at in range(0, targets.shape[0], rows):
        x, wanted = hidden[at : at + rows], targets[at : at + rows]
        top = torch.full((x.shape[0],), -torch.inf, dtype=torch.float32, device=x.device)
        total = torch.zeros_like(top)
        picked = torch.zeros_like(top)
        for start in range(0, vocab, vocab_chunk):
            stop = min(start + vocab_chunk, vocab)
            part = None if bias is None else bias[start:stop]
            logits = F.linear(x, weight[start:stop], part).float()
            inside = (wanted >= start) & (wanted < stop)
            here = logits.gather(-1, (wanted - start).clamp(0, stop - start - 1)[:, None])
            picked = torch.where(inside, here.squeeze(-1), picked)
            new_top = torch.maximum(top, logits.amax(dim=-1))
            total = total * (top - new_top).exp() + (logits - new_top[:, None]).exp_().sum(-1)
            top = new_top
        out[at : at + rows] = picked - (top + total.log())
    return out
