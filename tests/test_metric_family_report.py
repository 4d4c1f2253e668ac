"""``report`` on every benchmark of the family: the stratified bootstrap, the intervals of a
benchmark's report, how a scores file names its benchmark, the command on each benchmark (real
items, stand-in scores checked against counts made on the raw files), the fixed JSON keys, and
the thesis's Table 2.2 against scikit-learn on the thesis's own output columns."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pandas as pd
import pytest
from conftest import SHARED_DATA

from li_adger.benchmarks import BENCHMARKS, load_items
from metric_adc import __main__ as cli
from metric_adc import bootstrap, result_rows
from metric_adc.family.outcomes import Outcomes
from metric_adc.report.analysis import ANALYSIS_KEYS, analyze_outcomes
from metric_adc.report.shape import REPORT_KEYS
from metric_adc.scores.benchmark import benchmark_of, read_benchmark_scores
from metric_adc.scores.file import write_scores
from metric_adc.thesis.outputs import load_thesis_scores


def _run(capsys, *argv) -> str:
    assert cli.main(list(argv)) == 0
    return capsys.readouterr().out


def _json(capsys, *argv) -> dict:
    return json.loads(_run(capsys, *argv, "--json"))


# ----------------------------------------------------------------------------- bootstrap
def test_stratified_ci_estimates_by_hand():
    rng = np.random.default_rng(0)
    counts = [[1, 0], [1, 3]]  # shares 1 and 1/4
    mean = bootstrap.stratified_ci(counts, statistic="mean_of_shares", rng=rng, n_resamples=50)
    pooled = bootstrap.stratified_ci(counts, statistic="pooled_share", rng=rng, n_resamples=50)
    assert (mean["estimate"], pooled["estimate"]) == (0.625, 0.4)
    assert (mean["n_units"], mean["n_strata"], mean["n_resamples"]) == (5, 2, 50)
    # TP 2, FP 1, FN 0, TN 1 over two splits: (2·1 − 1·0) / sqrt(3·2·2·1)
    mcc = bootstrap.stratified_ci([[2, 0, 0, 0], [0, 1, 0, 1]], statistic="mcc", rng=rng)
    assert mcc["estimate"] == pytest.approx(2 / math.sqrt(12))


def test_stratified_ci_resamples_within_strata():
    # every stratum is all-pass or all-fail: resampling within strata cannot change the mean
    # over strata (resampling the 20 units together would)
    ci = bootstrap.stratified_ci([[10, 0], [0, 10]], statistic="mean_of_shares",
                                 rng=np.random.default_rng(1), n_resamples=500)  # fmt: skip
    assert (ci["low"], ci["estimate"], ci["high"], ci["se"]) == (0.5, 0.5, 0.5, 0.0)


def test_stratified_ci_has_the_binomial_standard_error():
    # one stratum of 400 units, 30 % passing: a resample's share has sd sqrt(.3 · .7 / 400)
    ci = bootstrap.stratified_ci([[120, 280]], statistic="pooled_share",
                                 rng=np.random.default_rng(2), n_resamples=4000)  # fmt: skip
    assert ci["se"] == pytest.approx(math.sqrt(0.3 * 0.7 / 400), rel=0.06)
    assert ci["low"] < 0.3 < ci["high"]
    assert ci["high"] - ci["low"] == pytest.approx(2 * 1.96 * math.sqrt(0.3 * 0.7 / 400), rel=0.1)


@pytest.mark.parametrize(
    ("counts", "statistic", "message"),
    [
        ([[1, 2, 3]], "pooled_share", r"must have 2 columns per stratum"),
        ([[1, 0], [0, 0]], "mean_of_shares", r"stratum 1 has 0"),
        ([[1.5, 0]], "pooled_share", r"whole numbers >= 0"),
        ([[1, 0]], "median", r"'statistic' must be one of"),
    ],
)
def test_stratified_ci_refuses(counts, statistic, message):
    with pytest.raises(ValueError, match=message):
        bootstrap.stratified_ci(counts, statistic=statistic, rng=np.random.default_rng(0))


# ----------------------------------------------------------------------------- analysis
def test_blimp_intervals_resample_pairs_within_paradigms():
    # paradigm x passes all its pairs, y none: the mean over paradigms is 0.5 in every resample
    frame = pd.DataFrame({"UID": ["x"] * 4 + ["y"] * 4, "linguistics_term": ["t"] * 8,
                          "field": ["f"] * 8, "passed": [True] * 4 + [False] * 4})  # fmt: skip
    a = analyze_outcomes("blimp", Outcomes("blimp", pairs=frame),
                         rng=np.random.default_rng(0), n_resamples=200)  # fmt: skip
    assert list(a.to_json_dict()) == list(ANALYSIS_KEYS)
    assert a.resampled == "pairs within each UID"
    assert (a.headline["low"], a.headline["high"]) == (0.5, 0.5)
    assert a.pairs["UID"]["x"]["estimate"] == 1.0 and a.pairs["field"]["f"]["n_strata"] == 2
    assert (a.cloze, a.labelled) == (None, None)


def test_cloze_and_labelled_intervals():
    sens = pd.DataFrame({"item_id": list("abcd"), "set": ["S", "S", "T", "T"],
                         "condition": [""] * 4, "passed": [True, True, True, False],
                         "passed_thresholded": [True, False, False, False]})  # fmt: skip
    acc = pd.DataFrame({"item_id": ["a", "b"], "set": ["S", "S"], "condition": ["", ""],
                        "rank": [1.0, 7.0]})  # fmt: skip
    a = analyze_outcomes("diagnostics", Outcomes("diagnostics", sensitivity=sens, accuracy=acc),
                         rng=np.random.default_rng(0), n_resamples=100)  # fmt: skip
    assert a.headline["estimate"] == 0.75 and a.resampled == "items within each set"
    assert a.cloze["S"]["accuracy@1"]["estimate"] == 0.5
    assert a.cloze["S"]["accuracy@5"]["estimate"] == 0.5
    assert a.cloze["T"]["accuracy@1"] is None  # no accuracy items in T
    assert a.cloze["S"]["sensitivity_thresholded"]["estimate"] == 0.5
    lab = pd.DataFrame({"id": list("abcd"), "split": ["x", "x", "y", "y"],
                        "label": [True, False, True, False], "predicted": [True, False, True, True]})  # fmt: skip
    how = {"threshold": "zero", "kind": "cola", "n_folds": None, "seed": None}
    a = analyze_outcomes("cola", Outcomes("cola", labelled=lab, classifier=how),
                         rng=np.random.default_rng(0), n_resamples=100)  # fmt: skip
    assert a.headline["estimate"] == pytest.approx(2 / math.sqrt(12))
    assert a.labelled.splits["x"]["estimate"] == 1.0
    assert a.resampled == "sentences within each split, predictions held fixed"


# ----------------------------------------------------------------------------- which benchmark
def test_a_file_names_its_benchmark(tmp_path):
    assert benchmark_of({}) == "li_adger" and benchmark_of({"dataset": "cola"}) == "cola"
    csv_file = tmp_path / "s.csv"
    units = load_items("li_adger").units
    units.assign(score=range(len(units)))[["id", "score"]].to_csv(csv_file, index=False)
    assert read_benchmark_scores(csv_file).benchmark == "li_adger"
    glue = write_scores(tmp_path / "g.jsonl", [{"id": "a", "score": 1.0}], {"dataset": "glue"})
    with pytest.raises(ValueError, match=r"'dataset' is 'glue', not a benchmark; expected one "
                       r"of \['li_adger', 'blimp', 'npi', 'npi_cloze', 'diagnostics', 'cola'\]"):  # fmt: skip
        read_benchmark_scores(glue)
    npi = [{"id": i, "score": 1.0} for i in load_items("npi").units["id"]]
    named = write_scores(tmp_path / "n.jsonl", npi, {"dataset": "glue"})
    assert read_benchmark_scores(named, benchmark="npi").benchmark == "npi"


def test_report_on_an_unknown_dataset_is_a_clear_error(tmp_path, capsys):
    glue = write_scores(tmp_path / "g.jsonl", [{"id": "a", "score": 1.0}], {"dataset": "glue"})
    assert cli.main(["report", str(glue)]) == 2
    err = capsys.readouterr().err
    assert "g.jsonl: the metadata's 'dataset' is 'glue'" in err and "'diagnostics'" in err


# ----------------------------------------------------------------------------- the command
def _stand_in(items):
    """Scores of minus each unit's length (a stand-in model) for every unit."""
    text = items.units["sentence"]
    return [
        {"id": i, "score": -float(len(s))} for i, s in zip(items.units["id"], text, strict=True)
    ]


@pytest.fixture(scope="module")
def npi_file(tmp_path_factory):
    items = load_items("npi")
    meta = {"model": "length", "kind": "ngram", "variant": "neglen", "dataset": "npi"}
    return write_scores(tmp_path_factory.mktemp("npi") / "npi.jsonl", _stand_in(items), meta)


def test_report_on_npi_against_the_raw_file(npi_file, capsys):
    out = _json(capsys, "report", str(npi_file), "--n-resamples", "100")
    assert list(out) == list(REPORT_KEYS) and out["benchmark"] == "npi"
    (row,) = out["rows"]  # NPI has no reference rows
    assert list(row) == list(result_rows.BENCHMARK_ROW_KEYS) and list(out["analysis"]) == list(
        ANALYSIS_KEYS
    )
    assert (row["model"], row["convention"], row["n_units"], row["n_pairs"]) == (
        "length (neglen)", "neglen", 7717, 5500
    )  # fmt: skip
    # the count on the raw rows: label 0 means sentence A is the acceptable one
    with (SHARED_DATA / "npi/npi_minimal_pairs.tsv").open(encoding="utf-8", newline="") as fh:
        raw = list(csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    by_env: dict[str, list[bool]] = {}
    for env, a, b, label, _ in raw:
        good, bad = (a, b) if label == "0" else (b, a)
        by_env.setdefault(env.removeprefix("NPI-"), []).append(len(good) < len(bad))
    every = [p for v in by_env.values() for p in v]
    assert row["headline"] == pytest.approx(sum(every) / len(every))
    for env, passed in by_env.items():
        assert row["pairs"]["groups"]["environment"][env]["blimp"] == pytest.approx(np.mean(passed))
        ci = out["analysis"]["pairs"]["environment"][env]
        assert ci["low"] <= np.mean(passed) <= ci["high"]
    text = _run(capsys, "report", str(npi_file), "--n-resamples", "100")
    assert "BLiMP criterion by environment:" in text and "BLiMP criterion by paradigm:" in text
    assert "length (neglen): 7,717 units scored, convention neglen." in text
    md = _run(capsys, "report", str(npi_file), "--n-resamples", "100", "--markdown")
    assert "| environment | pairs | length (neglen) | 95% interval |" in md


def test_report_refuses_li_adger_options_on_another_benchmark(npi_file, capsys):
    assert cli.main(["report", str(npi_file), "--prestandardized"]) == 2
    assert "--prestandardized applies to LI-Adger scores files only" in capsys.readouterr().err


def test_report_on_blimp_with_the_papers_references(tmp_path, capsys):
    items = load_items("blimp")
    meta = {"model": "length", "dataset": "blimp"}
    path = write_scores(tmp_path / "blimp.jsonl", _stand_in(items), meta)
    out = _json(capsys, "report", str(path), "--n-resamples", "100", "--plots", str(tmp_path))
    names = [r["model"] for r in out["rows"]]
    assert names == ["length", "human", "5-gram", "LSTM", "Transformer-XL", "GPT-2"]
    row = out["rows"][0]
    # the count on the raw files: a pair passes when its good sentence is strictly shorter
    shares = []
    for file in sorted((SHARED_DATA / "blimp").glob("*.jsonl")):
        if file.name == "models_summary.jsonl":
            continue
        records = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
        shares.append(np.mean([len(r["sentence_good"]) < len(r["sentence_bad"]) for r in records]))
    assert len(shares) == 67 and row["headline"] == pytest.approx(np.mean(shares))
    assert out["analysis"]["resampled"] == "pairs within each UID"
    assert out["analysis"]["headline"]["n_strata"] == 67
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [
        "length_blimp_UID.png", "length_blimp_field.png", "length_blimp_linguistics_term.png"
    ]  # fmt: skip
    assert out["rows"][5]["headline"] == pytest.approx(0.830, abs=5e-4)  # GPT-2, Table 3


def test_report_on_cola_against_scikit_learn(tmp_path, capsys):
    metrics = pytest.importorskip("sklearn.metrics")
    items = load_items("cola")
    # a "classifier" with a signed score: acceptable iff the sentence is longer than 40 characters
    recs = [{"id": i, "score": len(s) - 40.5} for i, s in zip(items.units["id"], items.units["sentence"], strict=True)]  # fmt: skip
    path = write_scores(
        tmp_path / "c.jsonl", recs, {"model": "len", "kind": "cola", "dataset": "cola"}
    )
    out = _json(capsys, "report", str(path), "--n-resamples", "100")
    labelled = out["rows"][0]["labelled"]
    assert (labelled["threshold"], labelled["n"]) == ("zero", 1043)
    truth, predicted, per_split = [], [], {}
    for split in ("in_domain_dev", "out_of_domain_dev"):
        path_raw = SHARED_DATA / f"cola/{split}.tsv"
        with path_raw.open(encoding="utf-8", newline="") as fh:
            raw = list(csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
        y = [r[1] == "1" for r in raw]
        p = [len(r[3]) > 40 for r in raw]
        per_split[split] = metrics.matthews_corrcoef(y, p)
        truth += y
        predicted += p
    assert labelled["mcc"] == pytest.approx(metrics.matthews_corrcoef(truth, predicted))
    for split, value in per_split.items():
        assert labelled["splits"][split]["mcc"] == pytest.approx(value)
    assert [r["model"] for r in out["table_2_2"]] == [
        "bert-base-uncased-cola", "bert-large-uncased-cola", "bert-large-cased-cola"
    ]  # fmt: skip
    text = _run(capsys, "report", str(path), "--n-resamples", "100")
    assert "Threshold: zero — a classifier's signed score, acceptable iff > 0" in text
    assert "their outputs on the CoLA development sets are not published" in text
    fitted = write_scores(tmp_path / "f.jsonl", recs, {"model": "len", "dataset": "cola"})
    text = _run(capsys, "report", str(fitted), "--n-resamples", "100")
    assert "Threshold: fitted — by 10-fold cross-validation on each set" in text


def test_report_on_the_diagnostics_by_hand(tmp_path, capsys):
    items = load_items("diagnostics")
    good = set(items.comparisons["good_id"])
    units = items.units
    # every good completion at P = .5, every other at .001; expected completions ranked first
    expected = set(items.accuracy["expected_id"])
    recs = [{"id": i, "context": c, "completion": w, "score": math.log(0.5 if i in good else 0.001),
             "rank": 1 if i in expected else 9}
            for i, c, w in zip(units["id"], units["context"], units["completion"], strict=True)]  # fmt: skip
    meta = {"model": "oracle", "kind": "causal", "variant": "logprob", "convention": "harness",
            "dataset": "diagnostics"}  # fmt: skip
    out = _json(capsys, "report", str(write_scores(tmp_path / "d.jsonl", recs, meta)))
    row = out["rows"][0]
    assert (row["model"], row["convention"], row["headline"], row["n_items"]) == (
        "oracle (logprob, harness)", "harness", 1.0, 146
    )  # fmt: skip
    sets = row["cloze"]["sets"]
    assert {k: v["n_sensitivity_items"] for k, v in sets.items()} == {
        "CPRAG-102": 34, "ROLE-88": 44, "NEG-136-SIMP": 36, "NEG-136-NAT": 32
    }  # fmt: skip
    for s in sets.values():
        assert s["accuracy@1"] == s["sensitivity"] == s["sensitivity_thresholded"] == 1.0
    assert sets["NEG-136-SIMP"]["conditions"]["negative"]["accuracy@1"] is None
    # ties everywhere: no item prefers its good completion
    flat = [{**r, "score": math.log(0.1)} for r in recs]
    tie = _json(capsys, "report", str(write_scores(tmp_path / "t.jsonl", flat, meta)))
    assert tie["rows"][0]["headline"] == 0.0
    no_rank = [{k: v for k, v in r.items() if k != "rank"} for r in recs]
    text = _run(capsys, "report", str(write_scores(tmp_path / "n.jsonl", no_rank, meta)))
    assert "Accuracy is — : the scores file has no 'rank' field." in text
    assert "NEG-136-SIMP / negative" in text


# ----------------------------------------------------------------------------- LI-Adger
@pytest.fixture(scope="module")
def cola_file(tmp_path_factory):
    s = load_thesis_scores()["bert-large-cased-cola"]
    path = tmp_path_factory.mktemp("cola") / "blc.jsonl"
    meta = {"model": "blc", "kind": "cola", "variant": "signed-confidence", "dataset": "li_adger"}
    return write_scores(path, [{"id": k, "score": v} for k, v in s.items()], meta)


def test_li_adger_report_of_a_cola_classifier_adds_its_mcc(cola_file, capsys):
    argv = ["report", str(cola_file), "--ceiling-splits", "0", "--n-resamples", "20"]
    out = _json(capsys, *argv)
    assert list(out) == list(REPORT_KEYS) and out["benchmark"] == "li_adger"
    assert list(out["rows"][0]) == list(result_rows.ROW_KEYS)
    mine, *thesis_rows = out["table_2_2"]
    assert mine["model"] == "blc (signed-confidence)"
    # the same scores as the thesis's bert-large-cased-cola: the same MCC, 0.633 (Table 2.2)
    assert mine["labelled"]["mcc"] == thesis_rows[2]["labelled"]["mcc"]
    assert round(mine["labelled"]["mcc"], 3) == 0.633
    text = _run(capsys, *argv)
    assert text.index("95% bootstrap intervals") < text.index("MCC against LI-Adger's expert")
    md = _run(capsys, *argv, "--markdown")
    assert "| blc (signed-confidence) | 4178 | 0.633 | — | 0.800 |" in md


def test_li_adger_json_without_a_classifier_has_no_mcc(capsys, tmp_path):
    s = load_thesis_scores()["bert-base-uncased-mlm"]
    path = write_scores(tmp_path / "m.jsonl", [{"id": k, "score": v} for k, v in s.items()],
                        {"model": "bbu", "kind": "mlm"})  # fmt: skip
    out = _json(capsys, "report", str(path), "--ceiling-splits", "0", "--n-resamples", "20")
    assert list(out) == list(REPORT_KEYS) and out["table_2_2"] is None


# ----------------------------------------------------------------------------- Table 2.2
def test_table_2_2_against_scikit_learn_on_the_thesis_outputs(capsys, li_adger_tables):
    """Both MCCs, computed independently on the thesis's output columns: the signed confidence
    against the dataset's expert labels, and against the thesis's own ``label`` column."""
    metrics = pytest.importorskip("sklearn.metrics")
    raw = pd.read_csv(SHARED_DATA / "thesis-outputs/bert_acc_results_li-adger_sentences.csv")
    expert = raw["id"].map(li_adger_tables["sentences"].set_index("id")["expert_acceptable"])
    out = _json(capsys, "table-2.2")["rows"]
    published = {"bert-base-uncased": (0.585, 0.553), "bert-large-uncased": (0.616, 0.576),
                 "bert-large-cased": (0.633, 0.595)}  # fmt: skip
    assert [r["model"] for r in out] == [f"{m}-cola" for m in published]
    for row, (name, (on_expert, on_thesis)) in zip(out, published.items(), strict=True):
        predicted = raw[f"{name}_acc"] > 0
        assert row["labelled"]["mcc"] == pytest.approx(metrics.matthews_corrcoef(expert, predicted))
        assert row["mcc_thesis_label"] == pytest.approx(
            metrics.matthews_corrcoef(raw["label"], predicted)
        )
        assert (round(row["labelled"]["mcc"], 3), round(row["mcc_thesis_label"], 3)) == (
            on_expert, on_thesis
        )  # fmt: skip
    text = _run(capsys, "table-2.2")
    line = next(ln for ln in text.splitlines() if ln.startswith("BERT large-cased (CoLA)"))
    assert line.split()[-4:] == ["4178", "0.633", "0.595", "0.800"]  # named by display_name
    assert "id.str.contains('g')" in text and "128 unacceptable sentences" in text


def test_every_benchmark_has_a_title_for_its_table_2_2_context():
    # report shows Table 2.2 under LI-Adger and CoLA reports only; both have a title
    from metric_adc.report.family_format import format_table_2_2

    for context in ("li_adger", "cola", "table"):
        assert format_table_2_2([], context=context)
    with pytest.raises(ValueError, match="'context' must be one of"):
        format_table_2_2([], context="npi")
    assert set(BENCHMARKS) >= {"li_adger", "cola"}


def test_a_report_carries_its_settings_to_its_formatter_and_not_into_its_json():
    """The seed and resamples a report was computed with are the report's own (its formatter
    reads them there); ``--json`` prints its parts only."""
    from metric_adc.report.family_format import format_benchmark_report
    from metric_adc.report.formatting import format_li_adger_report
    from metric_adc.report.parts import OutcomeAnalysis, PairAnalysis, PairIntervals
    from metric_adc.report.shape import report_of
    from metric_adc.result_rows import ROW_KEYS, AdcRow, BenchmarkRow

    ci = {"low": 0.4, "high": 0.8}
    row = BenchmarkRow(model="toy", benchmark="npi", convention="slor", headline=0.6,
                       n_units=4, n_items=2, n_pairs=2,
                       pairs={"groups": {"environment": {"only": {"n_pairs": 2, "blimp": 0.6}},
                                         "contrast": {}, "paradigm": {}}},
                       cloze=None, labelled=None, note=None)  # fmt: skip
    analysis = OutcomeAnalysis(n_resamples=9, resampled="pairs", headline=ci,
                               pairs={"environment": {"only": ci}})  # fmt: skip
    report = report_of("npi", [row], analysis=analysis, seed=7, n_resamples=9)
    assert "seed 7." in format_benchmark_report(report)
    assert list(report.to_json_dict()) == list(REPORT_KEYS)
    li_row = AdcRow(**{**dict.fromkeys(ROW_KEYS), "model": "toy", "n_pairs": 2,
                       "n_excluded": 0, "n_sentences": 4, "blimp": 1.0, "adc": {"1.0": 0.5},
                       "adc_auc": 0.4, "pearson_sentences": 0.25})  # fmt: skip
    intervals = {"blimp": {"estimate": 1.0, "low": 1.0, "high": 1.0}}
    li = report_of(
        "li_adger",
        [li_row],
        seed=5,
        n_resamples=11,
        analysis=PairAnalysis({}, None, PairIntervals(intervals, None), None),
    )
    assert "(11 resamples of pairs, seed 5)" in format_li_adger_report(li)
