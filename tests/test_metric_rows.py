"""metric_adc.pairs and metric_adc.rows on hand-computed cases: model deltas computed once, and
one row shape for a table with judgements, one without (the BLiMP criterion alone), and one
source's pairs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from metric_adc import pairs, rows

SCORES = {"a": 3.0, "b": 1.0, "c": 0.0, "d": 2.0}
SD = math.sqrt(1.25)  # population sd of 3, 1, 0, 2 (mean 1.5)


def test_model_deltas_by_hand():
    t = pairs.PairTable.from_judgements(["a", "c"], ["b", "d"], {k: 0.0 for k in SCORES})
    scored = pairs.model_deltas(SCORES, t)
    assert scored.z["a"] == pytest.approx(1.5 / SD)
    np.testing.assert_allclose(scored.delta, [2 / SD, -2 / SD])
    assert (scored.n_sentences, scored.standardized) == (4, True)
    given = pairs.model_deltas(SCORES, t, standardize=False)
    assert given.delta.tolist() == [2.0, -2.0] and given.standardized is False
    # z-scored over a larger population: mean 2, population sd √0.8
    wide = pairs.model_deltas(SCORES, t, population=[1.0, 3.0, 1.0, 3.0, 2.0])
    assert wide.n_sentences == 5 and wide.z["a"] == pytest.approx(1 / math.sqrt(0.8))


def test_an_excluded_pair_needs_no_scores_and_unknown_ids_raise():
    t = pairs.PairTable.from_judgements(
        ["a", "c", "x"], ["b", "d", "y"], {**{k: 1.0 for k in SCORES}, "x": None, "y": 0.0}
    )
    assert np.isnan(pairs.model_deltas(SCORES, t).delta[2])
    with pytest.raises(ValueError, match=r"1 sentence id\(s\) unknown to the dataset, e.g. 'zz'"):
        pairs.model_deltas({**SCORES, "zz": 1.0}, t)


def test_a_row_without_judgements_is_the_blimp_criterion_alone():
    t = pairs.PairTable.from_judgements(["a", "c"], ["b", "d"], None, source=["s1", "s2"])
    assert t.human_delta is None and t.sentence_ids() == ["a", "c", "b", "d"]
    row = rows.model_row(pairs.model_deltas(SCORES, t), t, model="toy", deltas=[1.0])
    assert list(row) == list(rows.ROW_KEYS)
    assert (row["n_pairs"], row["n_sentences"], row["blimp"]) == (2, 4, 0.5)
    for key in ("human_sign", "adc_auc", "pearson_pairs", "pearson_sentences"):
        assert row[key] is None, key
    assert row["adc"] == {"1.0": None}
    assert row["by_group"]["s1"]["blimp"] == 1.0 and row["by_group"]["s2"]["blimp"] == 0.0


def test_source_row_restricts_the_statistics_not_the_z_scores():
    s = {**SCORES, "e": 2.0, "f": 1.0}  # mean 1.5, population sd √(5.5 / 6)
    j = {"a": 1.0, "b": -1.0, "c": -0.5, "d": 0.5, "e": 0.2, "f": 0.1}
    t = pairs.PairTable.from_judgements(
        ["a", "d", "e"], ["b", "c", "f"], j, source=["LI", "LI", "Adger"]
    )
    scored = pairs.model_deltas(s, t)
    li = rows.source_row(scored, t, "LI", model="toy", deltas=[1.0, 5.0])
    # LI pairs: Δlm = 2/sd ≈ 2.089 for both; Δh = 2 (error 0.089) and 1 (error 1.089)
    assert (li["model"], li["n_pairs"], li["n_sentences"]) == ("toy (LI only)", 2, 4)
    assert li["adc"] == {"1.0": 0.5, "5.0": 1.0} and li["blimp"] == 1.0
    assert li["note"] == "LI pairs only; z-scores over all 6 sentences scored"
    assert li["by_group"] is None and list(li) == list(rows.ROW_KEYS)
    with pytest.raises(ValueError, match=r"no pair has source 'X' \(expected one of"):
        rows.source_row(scored, t, "X")


def test_row_keys_are_the_documented_ones():
    # docs/metric.md lists them: the JSON shape every consumer of `report --json` reads
    assert rows.ROW_KEYS == (
        "model", "n_sentences", "n_pairs", "n_excluded", "blimp", "human_sign", "adc",
        "adc_auc", "pearson_pairs", "pearson_pairs_p", "spearman_pairs", "spearman_pairs_p",
        "pearson_sentences", "pearson_sentences_p", "spearman_sentences",
        "spearman_sentences_p", "standardized", "by_group", "note",
    )  # fmt: skip
    assert rows.ROW_ONLY_KEYS == ("model", "note")
