"""Trie packing: every prefix readable where it is read, each shared prefix written once."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from baselines.fast.layout import PACKINGS, decoder_layout, snug_trie
from baselines.fast.trie import attention_mask, pack_trie

# a small alphabet after a shared first token gives shared prefixes, prefixes of other
# sequences and duplicates; a few sequences start with another token
sequences = st.lists(
    st.tuples(st.sampled_from([0, 0, 0, 9]), st.lists(st.integers(1, 4), max_size=9)).map(
        lambda t: [t[0], *t[1]]
    ),
    min_size=1,
    max_size=25,
)


def _spelled(packing, row, slot):
    """The tokens from the root to ``slot`` of ``row``, following the parent slots."""
    out = []
    while slot >= 0:
        out.append(packing.ids[row][slot])
        slot = packing.parents[row][slot]
    return out[::-1]


@given(sequences, st.integers(0, 12))
def test_each_token_is_read_where_its_prefix_ends(seqs, extra):
    width = max(len(s) for s in seqs) + extra
    p = pack_trie(seqs, width=width)
    assert p.total == sum(len(s) for s in seqs)
    assert len(p.reads) == len(seqs)
    for seq, reads in zip(seqs, p.reads, strict=True):
        assert len(reads) == len(seq) - 1
        for j, flat in enumerate(reads):
            row, slot = divmod(flat, width)
            # the slot read for token j + 1 ends the prefix seq[: j + 1], at position j
            assert _spelled(p, row, slot) == seq[: j + 1]
            assert p.positions[row][slot] == j


@given(sequences, st.integers(0, 12))
def test_rows_are_well_formed_and_the_mask_is_the_ancestors(seqs, extra):
    width = max(len(s) for s in seqs) + extra
    p = pack_trie(seqs, width=width)
    mask = attention_mask(p)
    assert mask.shape == (p.rows, 1, width, width)
    for r in range(p.rows):
        assert (p.parents[r][0], p.positions[r][0]) == (-1, 0)  # a row starts at a root
        for s in range(width):
            parent = p.parents[r][s]
            assert parent < s  # depth-first: a parent before its children
            depth = 0 if parent < 0 else p.positions[r][parent] + 1
            assert p.positions[r][s] == depth
            ancestors = set()
            up = s
            while up >= 0:
                ancestors.add(up)
                up = p.parents[r][up]
            allowed = {t for t in range(width) if mask[r, 0, s, t] == 0}
            assert allowed == ancestors
    assert p.rows <= p.computed <= p.rows * width  # no empty row


@given(sequences)
def test_one_row_computes_each_distinct_prefix_exactly_once(seqs):
    prefixes = {tuple(s[: j + 1]) for s in seqs for j in range(len(s))}
    p = pack_trie(seqs, width=len(prefixes))
    assert p.rows == 1 and p.computed == len(prefixes)
    # the order of the sequences does not change the layout
    assert pack_trie(seqs[::-1], width=len(prefixes)).ids == p.ids


@given(sequences, st.integers(0, 3))
def test_split_subtrees_repeat_only_ancestors(seqs, extra):
    width = max(len(s) for s in seqs) + extra
    p = pack_trie(seqs, width=width)
    prefixes = {tuple(s[: j + 1]) for s in seqs for j in range(len(s))}
    assert p.computed >= len(prefixes)
    # every filled slot spells a prefix of some sequence: copies are ancestors, nothing else
    for r in range(p.rows):
        for s in range(width):
            if p.parents[r][s] >= 0:
                assert tuple(_spelled(p, r, s)) in prefixes


@given(sequences, st.integers(0, 12))
def test_snug_rows_are_no_more_and_no_wider(seqs, extra):
    width = max(len(s) for s in seqs) + extra
    wide, snug = pack_trie(seqs, width=width), snug_trie(seqs, width=width)
    assert snug.rows <= wide.rows and snug.width <= wide.width
    assert snug.width >= max(len(s) for s in seqs)


def test_a_subtree_bigger_than_a_row_is_split_after_a_copy_of_its_ancestors():
    seqs = [[0, 1, 2, 3], [0, 1, 2, 4], [0, 1, 5]]
    p = pack_trie(seqs, width=4)
    assert p.ids == ((0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 5, 0))
    assert p.parents == ((-1, 0, 1, 2), (-1, 0, 1, 2), (-1, 0, 1, -1))
    assert p.reads == ((0, 1, 2), (0, 1, 6), (0, 9))  # a node is read where it is written
    assert (p.computed, p.total) == (11, 11)


def test_duplicates_prefixes_and_one_token_sequences():
    p = pack_trie([[7, 1, 2], [7], [7, 1, 2], [7, 1]], width=8)
    assert p.ids[0][:3] == (7, 1, 2) and p.computed == 3
    assert p.reads == ((0, 1), (), (0, 1), (0,))


@pytest.mark.parametrize(
    ("seqs", "width", "message"),
    [
        ([[1], []], 4, r"sequences\[1\] is empty"),
        ([[1, 2, 3]], 2, r"sequences\[0\] has 3 tokens, more than a row of 2"),
        ([[1]], 0, r"width must be a positive int \(got 0\)"),
    ],
)
def test_bad_input_is_named(seqs, width, message):
    with pytest.raises(ValueError, match=message):
        pack_trie(seqs, width=width)


@given(sequences)
def test_every_layout_reads_each_prefix_where_it_ends(seqs):
    seqs = [s for s in seqs if len(s) > 1] or [[0, 1]]
    for packing in PACKINGS:
        layout = decoder_layout(seqs, packing, width=8, fill=0)
        ids = np.array(layout.ids).ravel()
        for seq, reads in zip(seqs, layout.reads, strict=True):
            assert ids[list(reads)].tolist() == seq[:-1]
        assert layout.total == sum(len(s) for s in seqs)
        assert layout.computed == len(layout.ids) * layout.width
        assert all(len(row) == layout.width for row in layout.ids)
