"""``disagreements``: the pairs the thesis prints in Tables 2.5, 2.7, 2.8 and 3.2–3.5 are among
the command's, on the thesis's own scores. The printed pairs are read from the thesis's text
at test time (tests/thesis_tables.py) and matched to the thesis's pair file."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from metric_adc.__main__ import main
from metric_adc.chapter2.disagreements import Selection, disagreements
from metric_adc.family.items import items_of
from metric_adc.pairs import PairTable
from metric_adc.thesis.models import thesis_model_deltas, thesis_pair_table
from tests.thesis_tables import THESIS_TEXT, printed_pairs, sentence_index

# Two printed pairs meet their table's caption for the large-cased models only, whose scores
# the thesis prints: Table 3.4's second pair (bert-large-uncased-cola's Δlm −2.08 against
# Δh +0.10) and Table 3.5's fourth (the base- and large-uncased MLMs' Δlm +0.04 and +0.02
# against Δh −0.19). The test checks that exactly these models break the caption.
LARGE_CASED_ONLY = {
    ("3.4", 1): ("bert-large-cased-cola", "bert-large-cased-mlm", {"bert-large-uncased-cola"}),
    ("3.5", 3): ("bert-large-cased-mlm", "bert-large-cased-cola",
                 {"bert-base-uncased-mlm", "bert-large-uncased-mlm"}),
}  # fmt: skip


def _run(capsys, *argv) -> dict:
    assert main(["disagreements", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _adc(m: float, h: float, delta: float) -> bool:
    return bool(np.sign(m) == np.sign(h) and abs(h - m) < delta)


def test_the_thesis_tables_pairs_are_found(capsys):
    if not THESIS_TEXT.is_file():
        pytest.skip(f"the thesis's text is not beside the checkout ({THESIS_TEXT})")
    report = _run(capsys, "--table", "all")
    assert report["pairs"] == "thesis"
    by_table = {t["title"].removeprefix("Table "): t for t in report["tables"]}
    assert sorted(by_table) == ["2.5", "2.7", "2.8", "3.2", "3.3", "3.4", "3.5"]
    pairs = thesis_pair_table()
    ids = list(zip(pairs.good_ids, pairs.bad_ids, strict=True))
    deltas = {m.name: md.delta for m, md in thesis_model_deltas(pairs)}
    index = sentence_index(items_of("li_adger").units)
    text = THESIS_TEXT.read_text(encoding="utf-8")
    for table, result in by_table.items():
        listed = {(r["good_id"], r["bad_id"]) for r in result["rows"]}
        assert result["n_pairs"] == len(listed) >= 4
        printed = printed_pairs(table, text, index, pairs)
        assert len(printed) == 4, table
        for k, p in enumerate(printed):
            assert p["pair"] is not None, (table, k, p)
            if (table, k) not in LARGE_CASED_ONLY:
                assert p["pair"] in listed, (table, k, p)
                continue
            assert p["pair"] not in listed
            passes, fails, breaking = LARGE_CASED_ONLY[(table, k)]
            alone = _run(capsys, "--thesis", "--passes", passes, "--fails", fails, "--delta", "5")
            assert p["pair"] in {(r["good_id"], r["bad_id"]) for r in alone["tables"][0]["rows"]}
            i = ids.index(p["pair"])
            h = pairs.human_delta[i]
            wrong = {n for n in result["passes"] if not _adc(deltas[n][i], h, 5.0)}
            wrong |= {n for n in result["fails"] if _adc(deltas[n][i], h, 5.0)}
            assert wrong == breaking, (table, k, wrong)


def test_table_2_5_count(capsys):
    """The thesis's text: large-cased meets BLiMP but not the ADC δ=5 on its 4 printed pairs
    "and the other 54"; its own pair file gives 59 (every one checked here by hand)."""
    table = _run(capsys, "--table", "2.5")["tables"][0]
    pairs = thesis_pair_table()
    m = {md_m.name: md.delta for md_m, md in thesis_model_deltas(pairs)}["bert-large-cased-cola"]
    h = pairs.human_delta
    by_hand = [
        (g, b)
        for g, b, mi, hi in zip(pairs.good_ids, pairs.bad_ids, m, h, strict=True)
        if not np.isnan(hi) and mi > 0 and not _adc(mi, hi, 5.0)
    ]
    assert [(r["good_id"], r["bad_id"]) for r in table["rows"]] == by_hand
    assert table["n_pairs"] == 59


def test_two_sets_and_one_model_on_a_toy_table():
    t = PairTable.from_judgements(["g1", "g2", "g3"], ["b1", "b2", "b3"],
                                  {"g1": 1.0, "b1": 0.0, "g2": 0.0, "b2": 0.5, "g3": 1.0, "b3": float("nan")})  # fmt: skip
    deltas = {"a": np.array([1.2, -0.4, 2.0]), "b": np.array([-1.0, 0.3, 2.0])}
    both = disagreements(t, deltas, Selection(("a",), "adc", ("b",), "adc", 0.5))
    assert [r["good_id"] for r in both["rows"]] == ["g1", "g2"]  # g3 has no human judgement
    blimp = disagreements(t, deltas, Selection(("b",), "blimp", ("b",), "adc", 5.0))
    assert [r["good_id"] for r in blimp["rows"]] == ["g2"]
    assert blimp["n_evaluable"] == 2


def test_scores_files_and_refusals(tmp_path, capsys):
    units = items_of("li_adger").units
    rng = np.random.default_rng(0)
    path = tmp_path / "toy.csv"
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows(
            [("id", "score"), *zip(units["id"], rng.normal(size=len(units)), strict=True)]
        )
    report = _run(capsys, str(path), "--delta", "1")
    assert report["pairs"] == "li_adger"
    assert [t["title"] for t in report["tables"]] == ["BLiMP, not ADC", "ADC, not BLiMP"]
    assert all(t["n_evaluable"] == 2365 for t in report["tables"])
    assert main(["disagreements", str(path), "--passes", "toy"]) == 2
    assert "--passes and --fails go together" in capsys.readouterr().err
    assert main(["disagreements", "--thesis", "--passes", "nope", "--fails", "thesis-cola"]) == 2
    assert "no scores for model 'nope'" in capsys.readouterr().err


def test_text_output_names_models_as_the_tables_do(capsys):
    """The text names the thesis's models by their display names (the README's and the app's);
    the JSON keeps their ids."""
    assert main(["disagreements", "--table", "2.7", "--show", "1"]) == 0
    text = capsys.readouterr().out
    head, columns = text.splitlines()[0], text.splitlines()[2]
    assert "BERT large-cased (CoLA)" in head and "BNC trigram (SLOR) fail it" in head
    assert "Δlm BERT base-uncased (CoLA)" in columns and "Δlm BNC trigram (SLOR)" in columns
    assert "bert-large-cased-cola" not in text and "trigram-slor" not in text
    table = _run(capsys, "--table", "2.7")["tables"][0]
    assert table["fails"] == ["trigram-slor"] and "trigram-slor" in table["selection"]
