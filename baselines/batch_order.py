"""The order in which units are scored, planned in one place: shards across processes, then
batches within a process, by shared prefix or by length.

A scorer that computes each shared prefix once (``trie`` packing,
:class:`~baselines.interface.BatchedScorer`) wants units that share a beginning together: on
one rank (:func:`prefix_shard`) and in one batch (:func:`plan_batches` with ``by_prefix``).
Any other scorer wants the work balanced and padding small: shards of nearly equal total
length (:func:`shard`) and batches longest first. :mod:`baselines.score_file` (batches of units),
:mod:`baselines.distributed` (a rank's shard, :func:`rank_shard`) and the causal scorer
(batches of token-id lists) all call these. Pure: no model, no I/O.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence

from baselines.interface import ClozeUnit

__all__ = ["plan_batches", "prefix_shard", "rank_shard", "shard", "unit_key", "unit_length"]


def unit_key(unit: str | ClozeUnit) -> str:
    """A unit's text as one string, the key units are sorted by for shared prefixes.

    Examples
    --------
    >>> unit_key("Go."), unit_key(ClozeUnit("The keys are", "lost"))
    ('Go.', 'The keys are lost')
    """
    if isinstance(unit, ClozeUnit):
        return f"{unit.context} {unit.completion}"
    return unit


def unit_length(unit: str | ClozeUnit) -> int:
    """What a unit costs to score, in characters (a stand-in for tokens that every kind
    shares: sub-word tokens grow with characters).

    Examples
    --------
    >>> unit_length("The keys are lost."), unit_length(ClozeUnit("The keys are", "lost"))
    (18, 16)
    """
    if isinstance(unit, ClozeUnit):
        return len(unit.context) + len(unit.completion)
    return len(unit)


def shard(lengths: Sequence[int], world_size: int) -> list[list[int]]:
    """Split units of ``lengths`` into ``world_size`` shards of nearly equal total length.

    Longest first, each unit goes to the shard with the least length so far (the lowest rank
    on a tie), so the split is the same on every process and on every rerun. Each shard lists
    its unit indices in increasing order; every index is in exactly one shard.

    Examples
    --------
    >>> shard([10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 2)
    [[0], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]
    >>> shard([3, 3], 3)
    [[0], [1], []]
    >>> shard([1], 0)
    Traceback (most recent call last):
    ...
    ValueError: world_size must be at least 1 (got 0)
    """
    if world_size < 1:
        raise ValueError(f"world_size must be at least 1 (got {world_size})")
    loads = [0] * world_size
    shards: list[list[int]] = [[] for _ in range(world_size)]
    for k in sorted(range(len(lengths)), key=lambda k: (-lengths[k], k)):
        rank = min(range(world_size), key=lambda r: (loads[r], r))
        loads[rank] += lengths[k]
        shards[rank].append(k)
    return [sorted(s) for s in shards]


def prefix_shard(keys: Sequence[str], world_size: int) -> list[list[int]]:
    """Split units into ``world_size`` shards that keep shared beginnings together, for a
    scorer that computes each shared prefix once (``trie`` packing).

    The units are sorted by their text ``keys`` and cut into contiguous runs. Each cut lies near
    an equal share of the total length: among the boundaries within an eighth of a share of
    it, and the nearest boundary on either side, the one whose two neighbours share the
    shortest beginning (then the nearest), so a pair or a paradigm is cut only when nothing
    nearby keeps it whole. Each shard lists its unit indices in increasing order; every index
    is in exactly one shard, and the split is the same on every process.

    Examples
    --------
    >>> keys = ["The keys is lost.", "Go.", "The keys are lost.", "Gone."]
    >>> prefix_shard(keys, 2)  # the pair stays on one rank
    [[1, 3], [0, 2]]
    >>> prefix_shard(["a", "b"], 3)  # more ranks than units: one rank gets none
    [[0], [], [1]]
    """
    if world_size < 1:
        raise ValueError(f"world_size must be at least 1 (got {world_size})")
    order = sorted(range(len(keys)), key=lambda k: keys[k])
    cum = [0]
    for k in order:
        cum.append(cum[-1] + len(keys[k]))
    total, n = cum[-1], len(order)

    def shared(i: int) -> int:  # the common beginning of the units either side of boundary i
        if i in (0, n):
            return 0
        a, b = keys[order[i - 1]], keys[order[i]]
        return next((j for j, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))

    cuts = [0]
    for rank in range(1, world_size):
        target = total * rank / world_size
        after = bisect.bisect_left(cum, target, lo=cuts[-1])
        near = {max(cuts[-1], after - 1), min(n, after)}
        slack = total / (8 * world_size)
        low = bisect.bisect_left(cum, target - slack, lo=cuts[-1])
        near |= set(range(low, bisect.bisect_right(cum, target + slack, lo=low)))
        cuts.append(min(near, key=lambda i: (shared(i), abs(cum[i] - target), i)))
    cuts.append(n)
    return [sorted(order[a:b]) for a, b in itertools.pairwise(cuts)]


def rank_shard(
    units: Sequence[str] | Sequence[ClozeUnit], world_size: int, rank: int, *, by_prefix: bool
) -> list[int]:
    """The indices of ``units`` that process ``rank`` of ``world_size`` scores: a run of the
    units sorted by text for a scorer that packs by trie (``by_prefix``), else a shard
    balanced by length.

    Examples
    --------
    >>> rank_shard(["The keys is lost.", "Go.", "The keys are lost.", "Gone."], 2, 1, by_prefix=True)
    [0, 2]
    """
    if by_prefix:  # keep pairs and paradigms whole: their prefixes are shared
        return prefix_shard([unit_key(u) for u in units], world_size)[rank]
    return shard([unit_length(u) for u in units], world_size)[rank]


def plan_batches(
    keys: Sequence[Sequence], step: int, *, by_prefix: bool, longest_first: bool = False
) -> list[list[int]]:
    """Indices of ``keys`` (texts, or token-id lists) in batches of ``step``: sorted by key
    when ``by_prefix`` (keys that share a beginning land in the same batch), else longest
    first (the rows pad little; ties keep their order). ``longest_first`` also puts the
    batch that holds the longest key first, so a unit too long for the model fails at once.

    Examples
    --------
    >>> keys = ["The keys is.", "Go.", "The keys are lost.", "Gone."]
    >>> plan_batches(keys, 2, by_prefix=True, longest_first=True)
    [[2, 0], [1, 3]]
    >>> plan_batches(keys, 2, by_prefix=False)
    [[2, 0], [3, 1]]
    >>> plan_batches([[5, 1], [5, 1, 2], [3]], 2, by_prefix=True)
    [[2, 0], [1]]
    """
    if by_prefix:
        order = sorted(range(len(keys)), key=lambda k: keys[k])
    else:
        order = sorted(range(len(keys)), key=lambda k: len(keys[k]), reverse=True)
    batches = [order[at : at + step] for at in range(0, len(order), step)]
    if not (by_prefix and longest_first):
        return batches
    longest = max(
        range(len(batches)), key=lambda b: max(len(keys[k]) for k in batches[b]), default=0
    )
    return batches[longest : longest + 1] + batches[:longest] + batches[longest + 1 :]
