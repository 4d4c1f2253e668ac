"""docs/linking.md states the formulas, units, unigram policy and fitting procedure the code
uses, and its SmolLM2 figures agree with the README's results table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from baselines.kinds.unigram import TRIGRAM_FLOOR_LOGPROB, WORDFREQ_FLOOR
from metric_adc.linking.fit import DEFAULT_FOLDS, DEFAULT_SEED
from metric_adc.linking.function_rows import LINKING_CHOICES

REPO = Path(__file__).resolve().parents[1]
DOC = (REPO / "docs" / "linking.md").read_text(encoding="utf-8")
README = (REPO / "README.md").read_text(encoding="utf-8")


def _rows(text: str) -> dict[str, list[str]]:
    out = {}
    for line in text.splitlines():
        cells = [c.strip().replace("\x00", "|") for c in
                 line.replace("\\|", "\x00").strip().strip("|").split("|")]  # fmt: skip
        if line.startswith("| ") and len(cells) > 1:
            out[cells[0]] = cells[1:]
    return out


@pytest.mark.parametrize("name", LINKING_CHOICES)
def test_every_linking_function_has_its_formula_and_units(name):
    row = _rows(DOC)[f"`{name}`"]
    assert "logP(s)" in row[0]
    if name != "logprob":
        assert row[1] in ("the model's tokens", "words of the unigram model")


def test_the_unigram_policy_and_floors_are_stated():
    policy = _rows(DOC)
    for topic in ("words", "punctuation", "case", "clitics", "hyphens", "numbers", "unknown word"):
        assert topic in policy, topic
    assert f"{WORDFREQ_FLOOR:.0e}".replace("e-0", "e-") in " ".join(policy["unknown word"])
    assert f"{TRIGRAM_FLOOR_LOGPROB:.3f}".replace("-", "−") in " ".join(policy["unknown word"])


def test_the_fitting_procedure_is_stated():
    assert f"**K = {DEFAULT_FOLDS} folds**" in DOC
    assert f"numpy.random.default_rng({DEFAULT_SEED})" in DOC
    assert "least-squares" in DOC and "`logP/|s|`, `logPu/|s|`, `1/|s|`" in DOC


def test_smollm2_figures_agree_with_the_readme():
    block = README[README.index("<!-- results:start -->") : README.index("<!-- results:end -->")]
    readme, doc = _rows(block), _rows(DOC)
    for name in ("logprob", "slor", "fitted"):
        assert doc[f"smollm2 ({name}, default)"] == readme[f"smollm2 ({name}, default)"], name
    # the per-fold β, γ of the docs' table and of the README row's note
    folds = [(float(doc[str(k)][3]), float(doc[str(k)][4])) for k in range(DEFAULT_FOLDS)]
    note = re.search(r"smollm2 \(fitted, default\): .*β/γ per fold: (.*)", block)
    assert note, "the README has no note for smollm2 (fitted)"
    shown = [tuple(map(float, f.split("/"))) for f in note.group(1).split(", ")]
    assert len(shown) == DEFAULT_FOLDS
    for (beta, gamma), (b, g) in zip(folds, shown, strict=True):
        assert abs(beta - b) <= 0.0051 and abs(gamma - g) <= 0.051
