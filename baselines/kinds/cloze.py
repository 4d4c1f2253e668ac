"""What every kind shares to score a cloze unit: the rank of a completion, the top predictions,
and which tokens of a sub-word vocabulary can start a word.

A cloze unit's rank is that of its completion's first token (or word) among the *candidates*
at the blank: 1 + the number of candidates the model finds strictly more probable, so a tie
favours the completion. A completion the model cannot predict at all (an n-gram model's
out-of-vocabulary word) ranks after every candidate: ``number of candidates + 1`` — an ``int``,
as the scores file requires, and never within the top *k* for any *k* a vocabulary allows.

Examples
--------
>>> import numpy as np
>>> logp = np.log([0.5, 0.2, 0.2, 0.1])
>>> candidates = np.array([True, True, True, False])
>>> rank_among(logp, logp[2], candidates), top_indices(logp, candidates, 2)
(2, [0, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from baselines.interface import TOP_K

__all__ = [
    "WORD_START_MARKERS",
    "TokenCandidates",
    "rank_among",
    "top_indices",
    "word_start_mask",
    "word_strings",
]

WORD_START_MARKERS: tuple[str, ...] = ("\u0120", "\u2581")
"""The markers a sub-word vocabulary writes at the start of a word: byte-level BPE's ``Ġ``
(GPT-2, SmolLM2, RoBERTa) and SentencePiece's ``▁`` (Llama, T5, ALBERT)."""


def rank_among(values: np.ndarray, target: float, candidates: np.ndarray) -> int:
    """1 + the number of candidates whose value is strictly greater than ``target``.

    ``values`` are scores of every vocabulary entry (log-probabilities, or any monotone
    transform of them), ``candidates`` a boolean mask of the entries that count.

    Examples
    --------
    >>> rank_among(np.array([3.0, 2.0, 2.0, 9.0]), 2.0, np.array([True, True, True, False]))
    2
    >>> rank_among(np.array([1.0]), -5.0, np.array([True]))  # below every candidate
    2
    """
    values = np.asarray(values)
    return 1 + int(np.count_nonzero(values[np.asarray(candidates, dtype=bool)] > target))


def top_indices(values: np.ndarray, candidates: np.ndarray, k: int) -> list[int]:
    """Indices of the ``k`` candidates with the highest values, highest first (a tie goes to
    the lower index).

    Examples
    --------
    >>> top_indices(np.array([1.0, 5.0, 5.0, 2.0]), np.array([True, True, True, True]), 3)
    [1, 2, 3]
    >>> top_indices(np.array([1.0, 5.0]), np.array([True, False]), 5)
    [0]
    """
    values = np.asarray(values)
    index = np.flatnonzero(np.asarray(candidates, dtype=bool))
    order = np.argsort(-values[index], kind="stable")[:k]
    return index[order].tolist()


def _word_start_marker(tokenizer: Any) -> str | None:
    """The marker a sub-word tokenizer puts on a word after a space, or ``None``."""
    tokens = tokenizer.tokenize("a b")
    return next((t[0] for t in tokens if t[:1] in WORD_START_MARKERS), None)


def word_start_mask(tokenizer: Any, size: int) -> np.ndarray:
    """Which of the first ``size`` token ids can start a word (the cloze candidates).

    Special tokens never do, nor ids the tokenizer has no token for (a model's vocabulary
    may be padded past the tokenizer's). Otherwise, by the tokenizer's own convention:

    - a vocabulary that marks word starts (``Ġ``, ``▁``: a word after a space is
      ``Ġword``): the tokens that carry the marker;
    - a vocabulary that marks continuations (WordPiece's ``##``): the tokens that do not;
    - a word-level vocabulary (neither): every token.

    Examples
    --------
    >>> from baselines.models.minilm import packaged_encoder_path
    >>> from transformers import AutoTokenizer
    >>> bert = AutoTokenizer.from_pretrained(packaged_encoder_path())
    >>> mask = word_start_mask(bert, len(bert))
    >>> ids = bert.convert_tokens_to_ids(["the", "##s", "[MASK]", "[CLS]"])
    >>> mask[ids].tolist()
    [True, False, False, False]
    """
    n = min(size, len(tokenizer))
    tokens = tokenizer.convert_ids_to_tokens(list(range(n)))
    marker = _word_start_marker(tokenizer)
    backend = getattr(tokenizer, "backend_tokenizer", None)
    backend_model = getattr(backend, "model", None)
    prefix = getattr(backend_model, "continuing_subword_prefix", None)
    mask = np.zeros(size, dtype=bool)
    for i, token in enumerate(tokens):
        if token is None:
            continue
        if marker is not None:
            mask[i] = token.startswith(marker)
        elif prefix:
            mask[i] = not token.startswith(prefix)
        else:
            mask[i] = True
    special = [i for i in tokenizer.all_special_ids if i is not None and 0 <= i < size]
    mask[special] = False
    return mask


def word_strings(tokenizer: Any, ids: Sequence[int]) -> list[str]:
    """The words that token ids spell at the start of a word (marker and spaces removed).

    Examples
    --------
    >>> from baselines.models.minilm import packaged_encoder_path
    >>> from transformers import AutoTokenizer
    >>> bert = AutoTokenizer.from_pretrained(packaged_encoder_path())
    >>> word_strings(bert, bert.convert_tokens_to_ids(["the", "keys"]))
    ['the', 'keys']
    """
    tokens = tokenizer.convert_ids_to_tokens([int(i) for i in ids])
    return [tokenizer.convert_tokens_to_string([t]).strip() for t in tokens]


class TokenCandidates:
    """The cloze candidates of a sub-word model: its tokens that can start a word.

    Turns the log-probability row at a blank into a cloze record. The mask is computed on
    first use for the row's size and kept.

    Examples
    --------
    >>> from baselines.models.minilm import packaged_encoder_path
    >>> from transformers import AutoTokenizer
    >>> bert = AutoTokenizer.from_pretrained(packaged_encoder_path())
    >>> row = np.full(len(bert), -20.0)
    >>> the, keys, s = bert.convert_tokens_to_ids(["the", "keys", "##s"])
    >>> row[[the, keys, s]] = [-1.0, -2.0, -0.5]
    >>> TokenCandidates(bert).record(-3.25, row, keys)["rank"]
    2
    """

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self._mask: np.ndarray | None = None

    def mask(self, size: int) -> np.ndarray:
        """:func:`word_start_mask` over a vocabulary of ``size``."""
        if self._mask is None or len(self._mask) != size:
            self._mask = word_start_mask(self.tokenizer, size)
        return self._mask

    def record(self, score: float, row: np.ndarray, target: int) -> dict[str, Any]:
        """``{"score", "rank", "top"}``: ``rank`` of token ``target`` in ``row`` among the
        candidates, ``top`` the :data:`~baselines.interface.TOP_K` most probable of them."""
        row = np.asarray(row)
        candidates = self.mask(len(row))
        return {
            "score": float(score),
            "rank": rank_among(row, row[target], candidates),
            "top": word_strings(self.tokenizer, top_indices(row, candidates, TOP_K)),
        }
