"""Packing token sequences as a prefix tree (trie): every shared prefix is computed once.

A causal LM's hidden state at a token depends only on the tokens before it, so sequences
that start alike (the two members of a minimal pair, the cells of a 2×2 design, the
template-made sentences of a paradigm) can share the positions of their common beginning.
The sequences' trie has one node per distinct prefix; its nodes are written into rows of
``width`` slots, each subtree depth-first, and each slot gets

* the node's token as input id,
* its depth as position id (the position it has in each of its sequences alone),
* an attention row that lets it see its ancestors in the trie and itself only (a 4-D
  additive mask: 0 where it may attend, a large negative number elsewhere).

A node's hidden state is then the one it has at the end of its prefix in any sequence alone.
A sequence's token ``j`` (``j ≥ 1``) is predicted from its parent node's state, so its
log-probability is read at the parent's slot (:attr:`TriePacking.reads`). A subtree too big
for the room left in a row is split: the next row starts with a copy of its ancestors (they
are computed again, so the new slots can see them) and goes on with the subtree.

The layout depends on the id lists only (their order does not change it), so any group of
sequences (one batch, one shard) can be packed alone.

Examples
--------
Three sequences after a context token ``9``: ``9 1 2``, ``9 1 3`` and ``9 1``, a prefix of
both. Their trie has four nodes (``9``, ``1``, ``2``, ``3``) against 8 tokens:

>>> p = pack_trie([[9, 1, 2], [9, 1, 3], [9, 1]], width=6)
>>> p.ids, p.positions
(((9, 1, 2, 3, 9, 9),), ((0, 1, 2, 2, 0, 0),))
>>> p.parents
((-1, 0, 1, 1, -1, -1),)
>>> p.reads  # slot (row × width + offset) whose output predicts each token after the first
((0, 1), (0, 1), (0,))
>>> p.computed, p.total
(4, 8)
>>> attention_mask(p)[0, 0, 3].tolist()  # token 3 sees 9, 1 and itself, not its sibling 2
[0.0, 0.0, -inf, 0.0, -inf, -inf]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["SPLIT_ROOM", "TriePacking", "attention_mask", "pack_trie"]

SPLIT_ROOM = 1.0
"""A subtree that does not fit in the room left in a row but fits in a new one starts a new
row when the room left is at most ``SPLIT_ROOM`` × its depth (the slots a split would spend
later on copies of its ancestors); otherwise it is split to fill the row."""


@dataclass(frozen=True)
class TriePacking:
    """Rows of a trie written depth-first (see the module docs).

    ``ids[r][s]``, ``positions[r][s]`` and ``parents[r][s]`` are the token, depth and slot of
    the parent (``-1`` for a root or an empty slot) of row ``r``'s slot ``s``; an empty slot
    holds the first sequence's first token at position 0 and attends to itself only.
    ``reads[i][j]`` is the flat slot (``row * width + offset``) whose output predicts token
    ``j + 1`` of sequence ``i``. ``computed`` is the number of filled slots (copies of
    ancestors included) and ``total`` the number of tokens of all sequences.
    """

    width: int
    ids: tuple[tuple[int, ...], ...]
    positions: tuple[tuple[int, ...], ...]
    parents: tuple[tuple[int, ...], ...]
    reads: tuple[tuple[int, ...], ...]
    computed: int
    total: int

    @property
    def rows(self) -> int:
        """Number of rows."""
        return len(self.ids)


class _Node:
    __slots__ = ("children", "depth", "home", "parent", "size", "token")

    def __init__(self, token: int, parent: _Node | None, depth: int) -> None:
        self.token = token
        self.parent = parent
        self.depth = depth
        self.children: dict[int, _Node] = {}
        self.size = 1  # nodes in the subtree, this one included
        self.home = -1  # flat slot of the parent, in the row where this node is written


def _build(sequences: Sequence[Sequence[int]], width: int) -> tuple[list[_Node], list[list[_Node]]]:
    """The trie's roots (one per distinct first token) and each sequence's path of nodes."""
    roots: dict[int, _Node] = {}
    paths: list[list[_Node]] = []
    for i, seq in enumerate(sequences):
        if len(seq) < 1:
            raise ValueError(f"sequences[{i}] is empty; every sequence needs a token")
        if len(seq) > width:
            raise ValueError(f"sequences[{i}] has {len(seq)} tokens, more than a row of {width}")
        first = int(seq[0])
        node = roots.setdefault(first, _Node(first, None, 0))
        path = [node]
        for token in seq[1:]:
            token = int(token)
            child = node.children.get(token)
            if child is None:
                child = node.children[token] = _Node(token, node, node.depth + 1)
            node = child
            path.append(node)
        paths.append(path)
    for root in roots.values():  # subtree sizes, children before parents
        stack, order = [root], []
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(node.children.values())
        for node in reversed(order):
            node.size = 1 + sum(c.size for c in node.children.values())
    return [roots[t] for t in sorted(roots)], paths


class _Rows:
    """The rows being written, and where the current row holds each node of its open path."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.ids: list[list[int]] = []
        self.positions: list[list[int]] = []
        self.parents: list[list[int]] = []
        self.slot: dict[int, int] = {}  # id(node) → its slot in the current row
        self.room = 0

    def new_row(self, node: _Node) -> None:
        """Open a row holding copies of ``node``'s ancestors, ready for ``node``."""
        self.ids.append([])
        self.positions.append([])
        self.parents.append([])
        self.slot = {}
        self.room = self.width
        chain = []
        up = node.parent
        while up is not None:
            chain.append(up)
            up = up.parent
        for ancestor in reversed(chain):
            self.put(ancestor)

    def put(self, node: _Node) -> int:
        """Write ``node`` in the current row (its parent is there) and return its slot."""
        parent = -1 if node.parent is None else self.slot[id(node.parent)]
        at = len(self.ids[-1])
        self.ids[-1].append(node.token)
        self.positions[-1].append(node.depth)
        self.parents[-1].append(parent)
        self.slot[id(node)] = at
        self.room -= 1
        return at

    def write(self, node: _Node) -> None:
        """Write ``node``'s subtree depth-first: whole in this row when it fits, else whole in
        a new row when it fits there and splitting would save less than a row start costs,
        else node by node, its children continuing in new rows as the rows fill."""
        parent_here = node.parent is None or id(node.parent) in self.slot
        if (
            self.room < 1
            or not parent_here
            or (
                node.size > self.room
                and node.depth + node.size <= self.width
                and self.room <= SPLIT_ROOM * (node.depth + 1)
            )
        ):
            self.new_row(node)
        self.put(node)
        if node.parent is not None:
            node.home = (len(self.ids) - 1) * self.width + self.slot[id(node.parent)]
        for token in sorted(node.children):
            self.write(node.children[token])


def pack_trie(sequences: Sequence[Sequence[int]], *, width: int) -> TriePacking:
    """Pack the trie of ``sequences`` (token id lists) into rows of ``width`` slots (see the
    module docs). Every sequence must have 1 to ``width`` tokens.

    Examples
    --------
    A subtree bigger than a row is split; the second row starts with a copy of the root:

    >>> p = pack_trie([[5, 1, 2, 3], [5, 1, 2, 4]], width=4)
    >>> p.ids, p.positions, p.reads
    (((5, 1, 2, 3), (5, 1, 2, 4)), ((0, 1, 2, 3), (0, 1, 2, 3)), ((0, 1, 2), (0, 1, 6)))
    >>> pack_trie([[1, 2]], width=1)
    Traceback (most recent call last):
    ...
    ValueError: sequences[0] has 2 tokens, more than a row of 1
    """
    if not isinstance(width, int) or width < 1:
        raise ValueError(f"width must be a positive int (got {width!r})")
    roots, paths = _build(sequences, width)
    rows = _Rows(width)
    for root in roots:
        rows.write(root)
    computed = sum(len(r) for r in rows.ids)
    fill = int(sequences[0][0]) if sequences else 0
    for ids, positions, parents in zip(rows.ids, rows.positions, rows.parents, strict=True):
        gap = width - len(ids)
        ids.extend([fill] * gap)
        positions.extend([0] * gap)
        parents.extend([-1] * gap)
    return TriePacking(
        width=width,
        ids=tuple(tuple(r) for r in rows.ids),
        positions=tuple(tuple(r) for r in rows.positions),
        parents=tuple(tuple(r) for r in rows.parents),
        reads=tuple(tuple(node.home for node in path[1:]) for path in paths),
        computed=computed,
        total=sum(len(s) for s in sequences),
    )


def attention_mask(packing: TriePacking, dtype: type = np.float32) -> np.ndarray:
    """The additive attention mask, shape ``(rows, 1, width, width)``: ``0`` where a slot may
    attend (its ancestors and itself), ``-inf`` elsewhere (the caller may put its dtype's
    lowest finite value instead).

    Examples
    --------
    >>> attention_mask(pack_trie([[1, 2], [1, 3]], width=3))[0, 0].tolist()
    [[0.0, -inf, -inf], [0.0, 0.0, -inf], [0.0, -inf, 0.0]]
    """
    w = packing.width
    allowed = np.zeros((packing.rows, w, w), dtype=bool)
    for r, parents in enumerate(packing.parents):
        for s, parent in enumerate(parents):
            if parent >= 0:
                allowed[r, s] = allowed[r, parent]
            allowed[r, s, s] = True
    out = np.where(allowed, dtype(0), dtype(-np.inf)).astype(dtype)
    return out[:, None]
