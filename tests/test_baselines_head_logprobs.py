"""Target log-probabilities through the output layer in slices equal the full log-softmax."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from baselines.fast.head_logprobs import target_logprobs


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 40),
    vocab=st.integers(1, 300),
    width=st.integers(1, 16),
    rows=st.integers(1, 50),
    vocab_chunk=st.integers(1, 400),
    with_bias=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_equals_the_log_softmax_of_the_whole_output_layer(
    n, vocab, width, rows, vocab_chunk, with_bias, seed
):
    g = torch.Generator().manual_seed(seed)
    hidden = torch.randn(n, width, generator=g) * 3
    weight = torch.randn(vocab, width, generator=g)
    bias = torch.randn(vocab, generator=g) if with_bias else None
    targets = torch.randint(0, vocab, (n,), generator=g)
    full = torch.log_softmax(torch.nn.functional.linear(hidden, weight, bias).double(), dim=-1)
    expected = full[torch.arange(n), targets]
    got = target_logprobs(hidden, weight, bias, targets, rows=rows, vocab_chunk=vocab_chunk)
    assert got.dtype == torch.float32 and got.shape == (n,)
    assert torch.allclose(got.double(), expected, atol=1e-4, rtol=0)


def test_logits_in_bf16_are_read_in_float32_as_the_model_logits_are():
    g = torch.Generator().manual_seed(0)
    hidden = torch.randn(6, 8, generator=g).bfloat16()
    weight = torch.randn(50, 8, generator=g).bfloat16()
    targets = torch.tensor([0, 49, 7, 7, 20, 31])
    logits = torch.nn.functional.linear(hidden, weight).float()
    expected = torch.log_softmax(logits, dim=-1)[torch.arange(6), targets]
    got = target_logprobs(hidden, weight, None, targets, rows=4, vocab_chunk=16)
    assert torch.allclose(got, expected, atol=1e-5)


def test_bad_slices_are_named():
    with pytest.raises(ValueError, match=r"rows and vocab_chunk must be positive \(got 0, 4\)"):
        target_logprobs(torch.zeros(1, 2), torch.zeros(3, 2), None, torch.tensor([0]), rows=0,
                        vocab_chunk=4)  # fmt: skip
