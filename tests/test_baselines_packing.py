"""Packing sequences into rows: every sequence fits whole, none overlap, positions restart."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baselines.fast.packing import pack, row_positions


@given(st.lists(st.integers(1, 20), min_size=1, max_size=60), st.integers(20, 70))
def test_every_sequence_has_its_own_span_of_a_row_and_positions_from_zero(lengths, width):
    layout = pack(lengths, width=width)
    taken = [[None] * width for _ in range(layout.rows)]
    for i, ((row, offset), n) in enumerate(zip(layout.places, lengths, strict=True)):
        assert offset >= 0 and offset + n <= width
        assert all(cell is None for cell in taken[row][offset : offset + n])
        taken[row][offset : offset + n] = [i] * n
    assert all(any(cell is not None for cell in row) for row in taken)  # no empty row
    # first fit: at most one row is half full or less (the later of two such rows would have
    # been placed in the earlier one)
    fills = [sum(cell is not None for cell in row) for row in taken]
    assert sum(2 * fill <= width for fill in fills) <= 1
    positions = row_positions(layout, lengths)
    for (row, offset), n in zip(layout.places, lengths, strict=True):
        assert positions[row][offset : offset + n] == list(range(n))
    for row, cells in zip(positions, taken, strict=True):
        end = max(j + 1 for j, cell in enumerate(cells) if cell is not None)
        assert row[end:] == list(range(width - end))
        # a new sequence (or the tail) starts exactly where the previous one ends
        starts = {j for j in range(width) if j == 0 or row[j] != row[j - 1] + 1}
        expected = {j for j in range(width) if j == 0 or cells[j] != cells[j - 1]}
        assert starts == expected


def test_first_fit_decreasing_fills_rows_before_opening_new_ones():
    # 64 sentences of LI-Adger-like lengths (5 to 30 tokens) in rows of 64 tokens
    lengths = [5 + (7 * k) % 26 for k in range(64)]
    layout = pack(lengths, width=64)
    assert layout.rows == -(-sum(lengths) // 64)  # as few rows as the tokens need


@pytest.mark.parametrize(("lengths", "width", "message"), [
    ([3, 0], 4, r"lengths\[1\] must be positive \(got 0\)"),
    ([3, 5], 4, r"lengths\[1\] is 5, longer than a row of 4 tokens"),
    ([1], 0, r"width must be a positive int \(got 0\)"),
])  # fmt: skip
def test_bad_lengths_are_named(lengths, width, message):
    with pytest.raises(ValueError, match=message):
        pack(lengths, width=width)
