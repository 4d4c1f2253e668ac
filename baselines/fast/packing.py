"""Packing token sequences end to end into rows of one width, each keeping its own positions.

A causal LM's batch of length-sorted sentences is mostly padding when the lengths spread: 64
LI-Adger sentences per batch are 51 % padding tokens, which the decoder computes in full.
Packing puts several sentences in one row instead, each with position ids that restart at 0.
Given those ``position_ids`` and no attention mask, Hugging Face transformers reads a row as
separate sequences (``masking_utils.find_packed_sequence_indices``): it builds a causal mask
that is block-diagonal, so every sentence attends to its own tokens only, at the positions it
would have alone. The scores are those of one sentence per row, up to floating-point
rounding. Whether a loaded model honours this is checked on the model itself before packing
is used (:func:`baselines.fast.isolation.packing_isolates`).

This module holds the arithmetic: which row and offset each sequence gets (first-fit
decreasing) and the position ids of each row.

Examples
--------
>>> p = pack([3, 5, 2, 4], width=8)
>>> p.rows, p.places
(2, ((0, 5), (0, 0), (1, 4), (1, 0)))
>>> row_positions(p, [3, 5, 2, 4])
[[0, 1, 2, 3, 4, 0, 1, 2], [0, 1, 2, 3, 0, 1, 0, 1]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["PACK_WIDTH", "Packing", "pack", "row_positions"]

PACK_WIDTH = 64
"""Tokens per packed row (or the longest sequence, when longer). Masked attention costs each
token work in proportion to its row's width: at 64, about 2 % of a SmolLM2 layer's matrix
multiplications; first-fit packing of LI-Adger sentences leaves about 1 % of it empty."""


@dataclass(frozen=True)
class Packing:
    """Where each sequence goes: ``places[i]`` is ``(row, offset)`` of sequence ``i``."""

    width: int
    rows: int
    places: tuple[tuple[int, int], ...]


def pack(lengths: Sequence[int], *, width: int) -> Packing:
    """Place sequences of the given lengths in as few rows of ``width`` tokens as first-fit
    decreasing finds (longest first, each into the first row with room).

    Examples
    --------
    >>> pack([2, 2, 2], width=4).places
    ((0, 0), (0, 2), (1, 0))
    >>> pack([5], width=4)
    Traceback (most recent call last):
    ...
    ValueError: lengths[0] is 5, longer than a row of 4 tokens
    """
    if width < 1:
        raise ValueError(f"width must be a positive int (got {width!r})")
    free: list[int] = []
    places: dict[int, tuple[int, int]] = {}
    for i in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
        n = lengths[i]
        if n < 1:
            raise ValueError(f"lengths[{i}] must be positive (got {n!r})")
        if n > width:
            raise ValueError(f"lengths[{i}] is {n}, longer than a row of {width} tokens")
        row = next((r for r, room in enumerate(free) if room >= n), len(free))
        if row == len(free):
            free.append(width)
        places[i] = (row, width - free[row])
        free[row] -= n
    return Packing(width, len(free), tuple(places[i] for i in range(len(lengths))))


def row_positions(packing: Packing, lengths: Sequence[int]) -> list[list[int]]:
    """Position ids of every row: ``0 … n-1`` over each sequence; the empty tail of a row
    restarts at 0 too (a sequence of its own, which no real token can attend to).

    Examples
    --------
    >>> row_positions(pack([2, 1], width=4), [2, 1])
    [[0, 1, 0, 0]]
    """
    rows = [list(range(packing.width)) for _ in range(packing.rows)]
    ends = [0] * packing.rows
    for (row, offset), n in zip(packing.places, lengths, strict=True):
        rows[row][offset : offset + n] = range(n)
        ends[row] = max(ends[row], offset + n)
    for row, end in enumerate(ends):
        rows[row][end:] = range(packing.width - end)
    return rows
