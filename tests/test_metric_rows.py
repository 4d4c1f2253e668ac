"""metric_adc.pairs and metric_adc.result_rows on hand-computed cases: model deltas computed once, and
one row shape for a table with judgements, one without (the BLiMP criterion alone), and one
source's pairs."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from metric_adc import pairs, result_rows
from metric_adc.report.summary import SUMMARY_KEYS, summary_row
from metric_adc.scores.labels import convention_of, row_label

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
    row = result_rows.model_row(pairs.model_deltas(SCORES, t), t, model="toy", deltas=[1.0])
    assert list(row.to_json_dict()) == list(result_rows.ROW_KEYS)
    assert (row.n_pairs, row.n_sentences, row.blimp) == (2, 4, 0.5)
    for key in ("human_sign", "adc_auc", "pearson_pairs", "pearson_sentences"):
        assert getattr(row, key) is None, key
    assert row.adc == {"1.0": None}
    assert row.by_group["s1"]["blimp"] == 1.0 and row.by_group["s2"]["blimp"] == 0.0


def test_source_row_restricts_the_statistics_not_the_z_scores():
    s = {**SCORES, "e": 2.0, "f": 1.0}  # mean 1.5, population sd √(5.5 / 6)
    j = {"a": 1.0, "b": -1.0, "c": -0.5, "d": 0.5, "e": 0.2, "f": 0.1}
    t = pairs.PairTable.from_judgements(
        ["a", "d", "e"], ["b", "c", "f"], j, source=["LI", "LI", "Adger"]
    )
    scored = pairs.model_deltas(s, t)
    li = result_rows.source_row(scored, t, "LI", model="toy", deltas=[1.0, 5.0])
    # LI pairs: Δlm = 2/sd ≈ 2.089 for both; Δh = 2 (error 0.089) and 1 (error 1.089)
    assert (li.model, li.n_pairs, li.n_sentences) == ("toy (LI only)", 2, 4)
    assert li.adc == {"1.0": 0.5, "5.0": 1.0} and li.blimp == 1.0
    assert li.note == "LI pairs only; z-scores over all 6 sentences scored"
    assert li.by_group is None and list(li.to_json_dict()) == list(result_rows.ROW_KEYS)
    with pytest.raises(ValueError, match=r"no pair has source 'X' \(expected one of"):
        result_rows.source_row(scored, t, "X")


def test_row_keys_are_the_documented_ones():
    # docs/metric.md lists them: the JSON shape every consumer of `report --json` reads
    assert result_rows.ROW_KEYS == (
        "model", "benchmark", "convention", "headline", "n_sentences", "n_pairs", "n_excluded",
        "blimp", "human_sign", "adc", "adc_auc", "pearson_pairs", "pearson_pairs_p",
        "spearman_pairs", "spearman_pairs_p", "pearson_sentences", "pearson_sentences_p",
        "spearman_sentences", "spearman_sentences_p", "standardized", "by_group", "note",
    )  # fmt: skip
    assert result_rows.ROW_ONLY_KEYS == ("model", "benchmark", "convention", "headline", "note")
    assert result_rows.BENCHMARK_ROW_KEYS == (
        "model", "benchmark", "convention", "headline", "n_units", "n_items", "n_pairs",
        "pairs", "cloze", "labelled", "note",
    )  # fmt: skip
    assert SUMMARY_KEYS == (
        "model", "convention", "reference", "headlines", "adc", "li_adger_mcc", "files", "note",
    )  # fmt: skip
    # the shared keys mean the same in both shapes, at the same places
    for keys in (result_rows.ROW_KEYS, result_rows.BENCHMARK_ROW_KEYS):
        assert set(result_rows.SHARED_KEYS) <= set(keys)
        assert keys[:4] == result_rows.SHARED_KEYS[:4] and keys[-1] == "note"


def test_the_adc_row_headline_is_li_adgers_headline():
    from li_adger.benchmarks import BENCHMARKS

    # LI-Adger's headline is the BLiMP criterion pooled over its pairs: the ADC row's `blimp`
    assert (
        BENCHMARKS["li_adger"].headline.statistic,
        BENCHMARKS["li_adger"].headline.mean_over,
    ) == (
        "blimp",
        None,
    )
    t = pairs.PairTable.from_judgements(["a", "c"], ["b", "d"], {k: 0.0 for k in SCORES})
    row = result_rows.model_row(pairs.model_deltas(SCORES, t), t, model="toy", convention="slor")
    # pairs a-b (3 > 1) pass, c-d (0 < 2) fail
    assert (row.benchmark, row.convention, row.headline) == ("li_adger", "slor", 0.5)


@pytest.mark.parametrize(
    ("metadata", "label", "convention"),
    [
        ({"model": "smollm2", "variant": "logprob", "convention": "default"},
         "smollm2 (logprob, default)", "default"),
        ({"model": "smollm2", "variant": "logprob", "convention": "harness"},
         "smollm2 (logprob, harness)", "harness"),
        ({"model": "trigram", "kind": "ngram", "variant": "slor"}, "trigram (slor)", "slor"),
        ({"model": "m", "variant": "x", "convention": "x"}, "m (x)", "x"),
        ({"format": "adc-scores", "source_format": "csv"}, "unnamed", None),
    ],
)  # fmt: skip
def test_row_label_names_model_variant_and_convention(metadata, label, convention):
    assert row_label(metadata) == label
    assert convention_of(metadata) == convention


def _npi_result(passed: list[bool], environments: list[str]) -> dict:
    from metric_adc.family.outcomes import Outcomes
    from metric_adc.family.statistics import summarize_outcomes

    n = len(passed)
    frame = pd.DataFrame(
        {"environment": environments, "contrast": ["scope"] * n, "paradigm": ["p"] * n,
         "passed": passed}
    )  # fmt: skip
    return summarize_outcomes("npi", Outcomes("npi", pairs=frame))


def test_benchmark_row_by_hand():
    result = _npi_result([True, True, False, True], ["adverbs", "only", "only", "only"])
    row = result_rows.benchmark_row(result, model="toy (slor)", convention="slor", n_units=8)
    assert list(row.to_json_dict()) == list(result_rows.BENCHMARK_ROW_KEYS)
    assert (row.benchmark, row.headline, row.n_units, row.n_items, row.n_pairs) == (
        "npi", 0.75, 8, 4, 4
    )  # fmt: skip
    assert row.pairs["groups"]["environment"]["only"] == {"n_pairs": 3, "blimp": 2 / 3}
    assert (row.cloze, row.labelled, row.note) == (None, None, None)
    assert result_rows.benchmark_row(result, model="x", note="n").note == "n"
    # the thesis's Table 2.2 rows print one key more, after the note
    from metric_adc.thesis.table_2_2 import Table22Row

    keys = [f.name for f in dataclasses.fields(Table22Row)]
    assert keys == [*result_rows.BENCHMARK_ROW_KEYS, "mcc_thesis_label"]


def test_benchmark_row_counts_what_the_headline_counts():
    from metric_adc.family.outcomes import Outcomes
    from metric_adc.family.statistics import summarize_outcomes

    sens = pd.DataFrame({"item_id": ["a", "b", "c"], "set": ["S1", "S1", "S2"],
                         "condition": ["", "", ""], "passed": [True, False, True],
                         "passed_thresholded": [False, False, True]})  # fmt: skip
    cloze = summarize_outcomes("diagnostics", Outcomes("diagnostics", sensitivity=sens))
    row = result_rows.benchmark_row(cloze, model="m")
    # mean over sets: S1 1/2, S2 1/1
    assert (row.headline, row.n_items, row.n_pairs) == (0.75, 3, None)
    lab = pd.DataFrame({"id": list("abcd"), "split": ["x", "x", "y", "y"],
                        "label": [True, False, True, False],
                        "predicted": [True, False, True, True]})  # fmt: skip
    how = {"threshold": "zero", "kind": "cola", "n_folds": None, "seed": None}
    labelled = summarize_outcomes("cola", Outcomes("cola", labelled=lab, classifier=how))
    row = result_rows.benchmark_row(labelled, model="m")
    # TP 2, FP 1, FN 0, TN 1: MCC 2 / sqrt(3·2·2·1)
    assert row.headline == pytest.approx(2 / math.sqrt(12)) and row.n_items == 4


def test_summary_row_by_hand():
    t = pairs.PairTable.from_judgements(
        ["a", "c"], ["b", "d"], {"a": 1.0, "b": -1.0, "c": 1.0, "d": 0.9}
    )
    adc = result_rows.model_row(pairs.model_deltas(SCORES, t), t, model="toy (slor)")
    npi = result_rows.benchmark_row(
        _npi_result([True, False], ["only", "only"]), model="toy (slor)"
    )
    s = summary_row([adc, npi], model="toy (slor)", convention="slor",
                         files={"li_adger": "a.jsonl", "npi": "b.jsonl"})  # fmt: skip
    assert list(s.to_json_dict()) == list(SUMMARY_KEYS)
    assert s.headlines == {"li_adger": 0.5, "blimp": None, "npi": 0.5, "npi_cloze": None,
                              "diagnostics": None, "cola": None}  # fmt: skip
    # δ = 0.5: Δlm (z) = 2/sd = 1.789 against Δh 2 (error .21, passes); the other pair fails
    assert s.adc == 0.5 and s.li_adger_mcc is None and s.reference is False
    with pytest.raises(ValueError, match=r"'toy' has two results on 'npi' \(0.5 and 1.0\)"):
        summary_row([npi, dataclasses.replace(npi, headline=1.0)], model="toy")
