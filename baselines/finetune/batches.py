"""Training batches: their order from a data seed, and how much each is padded.

``length`` grouping shuffles the examples, cuts them into *megabatches* of 50 batches, sorts
each megabatch by length and cuts it into batches, then shuffles the batches: a batch holds
sentences of about one length, padded only to its longest. ``pad64`` takes random batches
and pads every one to the maximum length (64 in the thesis's settings). The order depends
only on the data seed and the epoch, through a private random stream (no global state), so
a restart gives the same batches in any process.

Examples
--------
>>> batches = length_grouped_batches([3, 1, 2, 9, 8, 7], 2, seed=0, epoch=0)
>>> sorted(i for b in batches for i in b), all(len(b) == 2 for b in batches)
([0, 1, 2, 3, 4, 5], True)
>>> batches == length_grouped_batches([3, 1, 2, 9, 8, 7], 2, seed=0, epoch=0)
True
>>> sorted(map(sorted, batches))  # one megabatch: lengths 9 8 | 7 3 | 2 1
[[0, 5], [1, 2], [3, 4]]
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

__all__ = ["EpochBatches", "length_grouped_batches", "random_batches"]

MEGABATCH = 50


def _stream(seed: int, epoch: int) -> random.Random:
    return random.Random(f"finetune-order:{seed}:{epoch}")


def random_batches(n: int, batch_size: int, *, seed: int, epoch: int) -> list[list[int]]:
    """A random permutation of ``range(n)`` cut into batches (the last may be short).

    Examples
    --------
    >>> random_batches(5, 2, seed=1, epoch=0) == random_batches(5, 2, seed=1, epoch=0)
    True
    >>> random_batches(5, 2, seed=1, epoch=0) != random_batches(5, 2, seed=1, epoch=1)
    True
    """
    order = list(range(n))
    _stream(seed, epoch).shuffle(order)
    return [order[i : i + batch_size] for i in range(0, n, batch_size)]


def length_grouped_batches(
    lengths: Sequence[int], batch_size: int, *, seed: int, epoch: int, mega: int = MEGABATCH
) -> list[list[int]]:
    """Batches of indices of similar ``lengths`` (see the module docs), in a random order."""
    rng = _stream(seed, epoch)
    order = list(range(len(lengths)))
    rng.shuffle(order)
    size = batch_size * mega
    batches: list[list[int]] = []
    for start in range(0, len(order), size):
        chunk = sorted(order[start : start + size], key=lambda i: -lengths[i])
        batches.extend(chunk[i : i + batch_size] for i in range(0, len(chunk), batch_size))
    rng.shuffle(batches)
    return batches


class EpochBatches:
    """A batch sampler for :class:`torch.utils.data.DataLoader`: each pass over it is the next
    epoch's batches (``length`` or ``pad64`` grouping, :func:`length_grouped_batches` or
    :func:`random_batches`).

    Examples
    --------
    >>> sampler = EpochBatches([1, 2, 3], 2, seed=0, grouping="pad64")
    >>> len(sampler), list(sampler) == random_batches(3, 2, seed=0, epoch=0)
    (2, True)
    >>> list(sampler) == random_batches(3, 2, seed=0, epoch=1)
    True
    """

    def __init__(self, lengths: Sequence[int], batch_size: int, *, seed: int, grouping: str):
        self.lengths = list(lengths)
        self.batch_size = batch_size
        self.seed = seed
        self.grouping = grouping
        self.epoch = 0

    def __len__(self) -> int:
        return -(-len(self.lengths) // self.batch_size)

    def __iter__(self) -> Iterator[list[int]]:
        epoch, self.epoch = self.epoch, self.epoch + 1
        if self.grouping == "length":
            batches = length_grouped_batches(
                self.lengths, self.batch_size, seed=self.seed, epoch=epoch
            )
        else:
            batches = random_batches(
                len(self.lengths), self.batch_size, seed=self.seed, epoch=epoch
            )
        return iter(batches)
