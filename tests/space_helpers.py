"""Helpers of the app's tests (tests/test_space_*.py): golden values read from the README."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_row(model: str) -> dict[str, float]:
    """A row of the README's results table (checked against the metric by test_readme.py):
    pairs, BLiMP, ADC at δ = 0.5 / 1 / 5, Pearson at pair and sentence level."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith(f"| {model} |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    keys = ["pairs", "blimp", "0.5", "1.0", "5.0", "pearson_pairs", "pearson_sentences"]
    return dict(zip(keys, map(float, cells[1:]), strict=True))
