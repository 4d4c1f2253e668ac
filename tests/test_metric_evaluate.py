"""The `evaluate` module: loaded offline from its folder, giving the thesis's figures and the
keys of a report row."""

import csv
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import metric_adc
from metric_adc.thesis import outputs as thesis
from metric_adc.thesis.models import thesis_pair_table

evaluate = pytest.importorskip("evaluate")
ROOT = Path(__file__).resolve().parents[1]
BLIMP = ROOT.parent / "shared" / "data" / "blimp"


@pytest.fixture(scope="module")
def adc():
    return evaluate.load(str(metric_adc.metric_path()))


def _thesis_columns(stem: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Source, human delta and model delta of each pair, as published in the thesis's pair file."""
    with (thesis.default_dir() / thesis.PAIRS_FILE).open(encoding="utf-8") as fh:
        rows_ = list(csv.DictReader(fh))
    num = lambda x: float(x) if x else math.nan  # noqa: E731
    h = np.array([num(r["human_judge_delta"]) for r in rows_])
    m = np.array([num(r[f"{stem}_zscore-delta"]) for r in rows_])
    return [r["dataset"] for r in rows_], h, m


def _published(m: np.ndarray, h: np.ndarray, delta: float) -> float:
    """ADC(δ) from the definition, by hand: same sign and |Δh − Δlm| < δ, over judged pairs."""
    keep = ~np.isnan(h)
    m, h = m[keep], h[keep]
    return float(np.mean((np.sign(m) == np.sign(h)) & (np.abs(h - m) < delta)))


def test_li_adger_through_the_module_gives_the_thesis_deltas_figures(adc):
    # the thesis's BERT base-uncased MLM scores, given as the card says (ids, all 4,178
    # sentences as population); expected figures straight from the thesis's delta columns
    m = next(m for m in thesis.load_thesis_models() if m.name == "bert-base-uncased-mlm")
    table = thesis_pair_table()
    r = adc.compute(
        predictions_good=[m.scores[i] for i in table.good_ids],
        predictions_bad=[m.scores[i] for i in table.bad_ids],
        references_good=[table.judgements[i] for i in table.good_ids],
        references_bad=[table.judgements[i] for i in table.bad_ids],
        ids_good=table.good_ids,
        ids_bad=table.bad_ids,
        population=list(m.scores.values()),
        groups=table.source,
    )
    source, h, dlm = _thesis_columns("bert-base-uncased_mlm")
    judged = ~np.isnan(h)
    assert (r["n_pairs"], r["n_excluded"], r["n_sentences"]) == (2365, 2, 4178)
    assert r["blimp"] == pytest.approx(np.mean(dlm[judged] > 0), abs=1e-12)
    for k in ("0.5", "1.0", "5.0"):
        assert r["adc"][k] == pytest.approx(_published(dlm, h, float(k)), abs=1e-12), k
    want = stats.pearsonr(dlm[judged], h[judged])
    assert r["pearson_pairs"] == pytest.approx(want.statistic, abs=1e-9)
    li = np.array([s == "LI" for s in source])
    assert r["by_group"]["LI"]["adc"]["1.0"] == pytest.approx(
        _published(dlm[li], h[li], 1.0), abs=1e-12
    )
    assert r["standardized"] is True and r["spearman_sentences"] is not None


def test_toy_pairs_by_hand_and_the_blimp_config(adc):
    # six sentences, three pairs (sources x, x, y). By hand: the scores' mean is 9.5/6 and
    # their population sd sqrt(6.208333/6) = 1.017213, so Δlm = (2, 0.5, 1) / 1.017213 =
    # (1.966, 0.492, 0.983) against Δh = (2.0, 1.3, 0.5): every sign agrees, |Δh − Δlm| =
    # (0.034, 0.808, 0.483) — two pairs within 0.5, all three within 1.
    j = {"a": 1.0, "b": -1.0, "c": 0.5, "d": -0.8, "e": 0.3, "f": -0.2}
    s = {"a": 3.0, "b": 1.0, "c": 2.5, "d": 2.0, "e": 1.0, "f": 0.0}
    good, bad, groups = ["a", "c", "e"], ["b", "d", "f"], ["x", "x", "y"]
    r = adc.compute(
        predictions_good=[s[i] for i in good],
        predictions_bad=[s[i] for i in bad],
        references_good=[j[i] for i in good],
        references_bad=[j[i] for i in bad],
        ids_good=good,
        ids_bad=bad,
        groups=groups,
        deltas=[0.5, 1.0],
    )
    sd = math.sqrt(6.208333333333333 / 6)
    m = np.array([2.0, 0.5, 1.0]) / sd
    h = np.array([2.0, 1.3, 0.5])
    assert (r["n_pairs"], r["n_excluded"], r["n_sentences"]) == (3, 0, 6)
    assert r["blimp"] == 1.0 and r["human_sign"] == 1.0
    assert r["adc"] == {"0.5": 2 / 3, "1.0": 1.0}
    assert r["pearson_pairs"] == pytest.approx(stats.pearsonr(m, h).statistic, abs=1e-12)
    z = {k: (v - 9.5 / 6) / sd for k, v in s.items()}
    want = stats.pearsonr([z[k] for k in j], list(j.values())).statistic
    assert r["pearson_sentences"] == pytest.approx(want, abs=1e-12)
    assert r["by_group"]["x"]["adc"] == {"0.5": 0.5, "1.0": 1.0}
    assert r["by_group"]["y"]["adc"] == {"0.5": 1.0, "1.0": 1.0}
    # what names a row is the caller's: the module returns statistics only
    assert not {"model", "benchmark", "convention", "headline", "note"} & set(r)
    blimp = evaluate.load(str(metric_adc.metric_path()), "blimp")
    b = blimp.compute(predictions_good=[1.0, 2.0, 0.5], predictions_bad=[0.0, 3.0, 0.4])
    # 1 > 0 and 0.5 > 0.4 pass, 2 < 3 fails; nothing human in BLiMP-only mode
    assert (b["n_pairs"], b["blimp"], b["human_sign"], b["pearson_pairs"]) == (3, 2 / 3, None, None)


def test_prestandardized_trigram(adc):
    m = next(m for m in thesis.load_thesis_models() if m.name == "trigram-slor")
    table = thesis_pair_table()
    keep = [i for i, h in enumerate(table.human_delta) if h == h]
    r = adc.compute(
        predictions_good=[m.scores[table.good_ids[i]] for i in keep],
        predictions_bad=[m.scores[table.bad_ids[i]] for i in keep],
        references_good=[table.judgements[table.good_ids[i]] for i in keep],
        references_bad=[table.judgements[table.bad_ids[i]] for i in keep],
        standardize=False,
    )
    assert round(r["blimp"], 3) == 0.753 and round(r["pearson_pairs"], 3) == 0.333


def test_blimp_only_mode_on_blimp_with_a_trivial_scorer():
    blimp = evaluate.load(str(metric_adc.metric_path()), "blimp")
    rows = [
        json.loads(x) for x in (BLIMP / "anaphor_number_agreement.jsonl").read_text().splitlines()
    ]
    score = len  # shorter sentences score lower: a deliberately trivial scorer
    r = blimp.compute(
        predictions_good=[-score(x["sentence_good"]) for x in rows],
        predictions_bad=[-score(x["sentence_bad"]) for x in rows],
        groups=[x["UID"] for x in rows],
    )
    expected = sum(len(x["sentence_good"]) < len(x["sentence_bad"]) for x in rows) / len(rows)
    assert r["n_pairs"] == 1000 and r["blimp"] == pytest.approx(expected)
    assert r["adc"] == {"0.5": None, "1.0": None, "5.0": None} and r["human_sign"] is None


def test_missing_ratings_in_default_config_is_a_clear_error(adc):
    with pytest.raises(ValueError, match='config "blimp"'):
        adc.compute(predictions_good=[1.0, 2.0], predictions_bad=[0.0, 1.0])


def test_bad_input_reaches_the_core_checks(adc):
    with pytest.raises(ValueError, match=r"'deltas\[0\]' must be > 0 \(got 0\)"):
        adc.compute(predictions_good=[1.0, 2.0, 3.0], predictions_bad=[0.0, 1.0, 1.0],
                    references_good=[1.0, 1.0, 1.0], references_bad=[0.0, 0.0, 0.0],
                    deltas=[0])  # fmt: skip
    with pytest.raises(ValueError, match="two different scores"):
        adc.compute(predictions_good=[1.0, 2.0], predictions_bad=[0.0, 1.0],
                    references_good=[1.0, 1.0], references_bad=[0.0, 0.0],
                    ids_good=["a", "a"], ids_bad=["b", "c"])  # fmt: skip


def test_bare_name_works_offline_after_register_metric(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1",
           "HF_MODULES_CACHE": str(tmp_path / "modules"), "PYTHONPATH": str(ROOT)}  # fmt: skip
    code = """
import evaluate, metric_adc
try:
    evaluate.load("adc", "blimp")
    print("loaded before register")
except FileNotFoundError:
    print("not found before register")
metric_adc.register_metric()
m = evaluate.load("adc", "blimp")
print(m.compute(predictions_good=[1.0, 2.0], predictions_bad=[0.0, 3.0])["blimp"])
"""
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["not", "found", "before", "register", "0.5"]
