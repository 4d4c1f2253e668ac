"""Mojibake repair and id parsing: properties and the pinned files."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from li_adger.builder.ids import MARK_ORDER, mark_rank, parse_id
from li_adger.builder.text import repair_mojibake
from li_adger.sources import source_file

# What the annotations use: ASCII and typographic punctuation, arrows, a few accented letters.
_TEXT = st.text(alphabet=st.sampled_from(list("abcXYZ '\";.?*()-") + list("‘’“”→…–—éüØ×")))


def _read_as_cp1252(data: bytes) -> str:
    # Windows-1252 with its five undefined bytes passed through, as many tools do.
    return "".join(bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in data)


@given(_TEXT)
def test_repair_undoes_windows_1252_and_latin_1(text):
    assert repair_mojibake(text) == text
    data = text.encode("utf-8")
    assert repair_mojibake(data.decode("latin-1")) == text
    assert repair_mojibake(_read_as_cp1252(data)) == text


@given(st.text())
def test_repair_is_idempotent(text):
    once = repair_mojibake(text)
    assert repair_mojibake(once) == once


def test_pinned_annotations_hold_no_mojibake():
    # The pinned files decode as clean UTF-8: the repair leaves every annotation unchanged.
    for rel, cols in (
        ("li-adger/human_ME_results_li-adger_sentences.csv", ("notes", "typo?")),
        ("li-adger/li-adger_min_pairs.csv", ("notes",)),
    ):
        frame = pd.read_csv(source_file(rel), dtype=str, keep_default_na=False)
        for col in cols:
            values = frame[col].tolist()
            assert [repair_mojibake(v) for v in values] == values


def test_every_pinned_id_parses_with_a_known_mark():
    frame = pd.read_csv(
        source_file("li-adger/human_ME_results_li-adger_sentences.csv"),
        dtype=str,
        keep_default_na=False,
    )
    parsed = [parse_id(i) for i in frame["id"]]
    assert [p.source for p in parsed] == frame["dataset"].tolist()
    assert {p.mark for p in parsed} <= set(MARK_ORDER)
    assert all(f"{p.condition}.{p.token:02d}" == p.id for p in parsed)


@pytest.mark.parametrize(
    "bad", ["", "nodots", "32.3.Culicover.7a.g.xx", "32.3.7a.g.01", "ch8.150.!.01"]
)
def test_parse_id_rejects_malformed_ids(bad):
    with pytest.raises(ValueError, match="sentence id"):
        parse_id(bad)


def test_mark_order_is_strict():
    assert [mark_rank(m) for m in MARK_ORDER] == list(range(len(MARK_ORDER)))
