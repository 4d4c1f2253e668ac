"""A batch of token id lists → the decoder's input, and where each list's outputs are read.

The causal scorer's decoder runs on a batch laid out one of three ways (``PACKINGS``):

* ``padded``: one list per row, right-padded, with a 2-D attention mask;
* ``rows``: lists end to end in rows of ``width`` tokens, position ids restarting per list
  (:mod:`baselines.fast.packing`);
* ``trie``: the lists' prefix tree, every shared prefix once, with position ids = depth and a
  4-D mask letting each token see its ancestors only (:mod:`baselines.fast.trie`).

Whatever the layout, the output at flat slot ``reads[i][j]`` (``row × width + offset`` of the
decoder's ``(rows, width)`` output) predicts token ``j + 1`` of list ``i``: a score is read
the same way from all three.

Examples
--------
>>> batch = [[7, 1, 2], [7, 1, 3]]
>>> [decoder_layout(batch, p, width=4, fill=7).reads for p in PACKINGS]
[((0, 1), (0, 1)), ((0, 1), (4, 5)), ((0, 1), (3, 4))]
>>> [decoder_layout(batch, p, width=4, fill=7).computed for p in PACKINGS]
[4, 8, 6]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from baselines.fast.packing import Packing, pack, row_positions
from baselines.fast.trie import TriePacking, attention_mask, pack_trie
from baselines.interface import PACKINGS

__all__ = ["PACKINGS", "DecoderLayout", "check_packing", "decoder_layout", "snug_trie"]


@dataclass(frozen=True)
class DecoderLayout:
    """A batch laid out: ``ids`` (rows of ``width`` token ids), the decoder's other keyword
    arguments in ``inputs`` (as nested lists or NumPy arrays: :meth:`tensors` makes them
    tensors), ``reads`` (see the module docs), the ``computed`` positions (rows × width: the
    decoder computes every slot, padding included) and the ``total`` tokens of the batch."""

    packing: str
    width: int
    ids: list[list[int]]
    inputs: dict[str, Any] = field(repr=False)
    reads: tuple[tuple[int, ...], ...]
    computed: int
    total: int

    def tensors(self, device: Any, dtype: Any) -> tuple[Any, dict[str, Any]]:
        """``input_ids`` and the keyword arguments as tensors on ``device``; a 4-D mask in
        ``dtype`` with its lowest finite value where attention is not allowed."""
        import torch

        kwargs: dict[str, Any] = {"use_cache": False}
        for name, value in self.inputs.items():
            if name == "attention_mask" and getattr(value, "ndim", 2) == 4:
                mask = torch.from_numpy(value).to(device=device, dtype=dtype)
                kwargs[name] = mask.clamp_min(torch.finfo(dtype).min)
            else:
                kwargs[name] = torch.tensor(value, device=device)
        return torch.tensor(self.ids, device=device), kwargs


def check_packing(packing: str) -> None:
    """Raise unless ``packing`` is one of :data:`PACKINGS`.

    Examples
    --------
    >>> check_packing("stacked")
    Traceback (most recent call last):
    ...
    ValueError: packing must be one of 'trie', 'rows', 'padded' (got 'stacked')
    """
    if packing not in PACKINGS:
        choices = ", ".join(repr(p) for p in PACKINGS)
        raise ValueError(f"packing must be one of {choices} (got {packing!r})")


def snug_trie(batch: Sequence[Sequence[int]], *, width: int) -> TriePacking:
    """:func:`~baselines.fast.trie.pack_trie` in rows of ``width`` slots, then in the
    narrowest rows that need no more of them (bisected): a batch's last row is not left
    mostly empty, since the decoder computes every slot of every row.

    Examples
    --------
    >>> batch = [[0, 1, 2], [0, 1, 3], [0, 4]]
    >>> pack_trie(batch, width=8).width, snug_trie(batch, width=8).width
    (8, 5)
    """
    best = pack_trie(batch, width=width)
    low = max(max(len(s) for s in batch), -(-best.computed // best.rows))
    high = width - 1
    while low <= high:
        mid = (low + high) // 2
        trial = pack_trie(batch, width=mid)
        if trial.rows <= best.rows:
            best, high = trial, mid - 1
        else:
            low = mid + 1
    return best


def decoder_layout(
    batch: Sequence[Sequence[int]], packing: str, *, width: int, fill: int
) -> DecoderLayout:
    """Lay ``batch`` out for the decoder by ``packing`` (one of :data:`PACKINGS`). ``width``
    is the row width of ``rows`` and ``trie`` (widened to the longest list); ``fill`` the
    token id that pads rows.

    Examples
    --------
    >>> decoder_layout([[1, 2], [1, 2, 3]], "padded", width=1, fill=0).ids
    [[1, 2, 0], [1, 2, 3]]
    """
    lengths = [len(ids) for ids in batch]
    total = sum(lengths)
    if packing == "trie":
        trie = snug_trie(batch, width=max(width, *lengths))
        inputs = {"position_ids": trie.positions, "attention_mask": attention_mask(trie)}
        rows = [list(r) for r in trie.ids]
        computed = trie.rows * trie.width
        return DecoderLayout(packing, trie.width, rows, inputs, trie.reads, computed, total)
    if packing == "rows":
        layout = pack(lengths, width=max(width, *lengths))
        inputs = {"position_ids": row_positions(layout, lengths)}
    else:  # padded: a packing was checked once, by the causal scorer's check_options
        layout = Packing(max(lengths), len(batch), tuple((r, 0) for r in range(len(batch))))
        inputs = {"attention_mask": [[1] * n + [0] * (layout.width - n) for n in lengths]}
    ids = [[fill] * layout.width for _ in range(layout.rows)]
    reads = []
    for (row, offset), seq in zip(layout.places, batch, strict=True):
        ids[row][offset : offset + len(seq)] = seq
        start = row * layout.width + offset
        reads.append(tuple(range(start, start + len(seq) - 1)))
    computed = layout.rows * layout.width
    return DecoderLayout(packing, layout.width, ids, inputs, tuple(reads), computed, total)
