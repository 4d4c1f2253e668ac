"""The minimal pairs printed in the thesis's Tables 2.5, 2.7, 2.8 and 3.2–3.5, read at test
time from the thesis's text beside the checkout (``../shared/papers``) and matched to the
thesis's pair file by their sentences: the repository holds no copy of them."""

from __future__ import annotations

import re
from pathlib import Path

THESIS_TEXT = (
    Path(__file__).resolve().parents[1].parent / "shared" / "papers"
    / "vazquez-martinez2021-adc-thesis.txt"
)  # fmt: skip


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lstrip("*").strip()).lower()


HUMAN_FIRST = ("2.5", "3.2", "3.3", "3.4", "3.5")
"""The tables whose first number per sentence is its human judgement (z-score)."""


def printed_sentences(table: str, text: str) -> list[tuple[str, str | None]]:
    """The sentences of a printed table, top to bottom (each pair: acceptable, then not),
    each with the first number printed for it (a string, as printed; None when none is)."""
    lines = text.splitlines()
    caption = next(k for k, line in enumerate(lines) if line.startswith(f"Table {table}:"))
    start = max(k for k in range(caption) if lines[k].startswith("Minimal Pair"))
    out = []
    for line in lines[start + 1 : caption]:
        cell, _, rest = line.partition("\t")
        cell = cell.strip()
        if not cell or cell.startswith("Top: Acceptable"):
            continue
        found = [s for s in re.split(r"\s+(?=\*)", cell) if s.strip()]
        numbers = re.findall(r"-?\d+\.\d+", rest)
        out += [(s, numbers[k] if k < len(numbers) else None) for k, s in enumerate(found)]
    return out


def _near(value: float, printed: str | None) -> bool:
    if printed is None:
        return False
    digits = len(printed.split(".")[1])
    return abs(value - float(printed)) <= 0.5 * 10**-digits + 1e-12


def printed_pairs(table: str, text: str, sentence_ids: dict[str, list[str]], pairs) -> list[dict]:
    """Per printed pair: the thesis pair file's ``pair`` ``(good_id, bad_id)`` and ``how`` it
    was found: by its sentences; else (tables of :data:`HUMAN_FIRST`) by the human judgements
    printed beside them; else ``pair`` is None and ``printed`` holds the normalised texts."""
    found = []
    sentences = printed_sentences(table, text)
    assert len(sentences) % 2 == 0, (table, len(sentences))
    index = list(zip(pairs.good_ids, pairs.bad_ids, strict=True))
    for (good, h_good), (bad, h_bad) in zip(sentences[::2], sentences[1::2], strict=True):
        known = set(index)
        by_text = [
            (g, b)
            for g in sentence_ids.get(_normal(good), [])
            for b in sentence_ids.get(_normal(bad), [])
            if (g, b) in known
        ]
        by_numbers = []
        if not by_text and table in HUMAN_FIRST:
            j = pairs.judgements
            by_numbers = [(g, b) for g, b in index if _near(j[g], h_good) and _near(j[b], h_bad)]
        if by_text:
            found.append({"pair": by_text[0], "how": "sentences"})
        elif len(by_numbers) == 1:
            found.append({"pair": by_numbers[0], "how": "human judgements"})
        else:
            found.append({"pair": None, "printed": (_normal(good), _normal(bad))})
    return found


def sentence_index(units) -> dict[str, list[str]]:
    """Normalised sentence → the LI-Adger ids with that text."""
    out: dict[str, list[str]] = {}
    for i, s in zip(units["id"], units["sentence"], strict=True):
        out.setdefault(_normal(s), []).append(i)
    return out
