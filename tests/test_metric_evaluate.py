"""The `evaluate` module: loaded offline from its folder, computing what the core computes."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import metric_adc
from metric_adc import report, thesis

evaluate = pytest.importorskip("evaluate")
ROOT = Path(__file__).resolve().parents[1]
BLIMP = ROOT.parent / "shared" / "data" / "blimp"


@pytest.fixture(scope="module")
def adc():
    return evaluate.load(str(metric_adc.metric_path()))


def test_li_adger_through_the_module_equals_the_report(adc):
    m = next(m for m in thesis.load_thesis_models() if m.name == "bert-base-uncased-mlm")
    table = report.thesis_pair_table()
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
    want = report.evaluate_on_pairs(m.scores, table)
    assert (r["n_pairs"], r["n_excluded"], r["n_sentences"]) == (2365, 2, 4178)
    for k in ("blimp", "human_sign", "adc", "adc_auc", "pearson_pairs", "spearman_pairs_p"):
        assert r[k] == pytest.approx(want[k]), k
    assert r["by_group"]["LI"]["adc"] == pytest.approx(want["by_source"]["LI"]["adc"])


def test_prestandardized_trigram(adc):
    m = next(m for m in thesis.load_thesis_models() if m.name == "trigram-slor")
    table = report.thesis_pair_table()
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
    with pytest.raises(ValueError, match="'delta' must be > 0"):
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
