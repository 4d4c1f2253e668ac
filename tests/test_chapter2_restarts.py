"""``table-2.1`` and ``cola-features`` on fixture runs of restarts (tests/chapter2_runs.py):
every number is recomputed here with scikit-learn from the probabilities the fixture wrote."""

from __future__ import annotations

import json

import numpy as np
import pytest

from metric_adc.__main__ import main
from metric_adc.chapter2.cola_sets import analysis_features, gold_labels
from metric_adc.chapter2.runs import read_run
from metric_adc.family.items import items_of
from tests.chapter2_runs import write_run

metrics = pytest.importorskip("sklearn.metrics")

SETS = ("thesis_cola_test", "cola_out_of_domain_dev", "cola_analysis")


def _sets(li_adger: bool = True) -> dict:
    out = {s: (list(gold_labels(s)), [int(v) for v in gold_labels(s).values()]) for s in SETS}
    if li_adger:
        ids = items_of("li_adger").labels["id"].tolist()
        out["li_adger"] = (ids, [None] * len(ids))
    return out


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs") / "tiny"
    probs = write_run(folder, kind="restarts", seeds=[0, 1, 2, 3], sets=_sets(),
                      rng=np.random.default_rng(7), flip=0.5)  # fmt: skip
    return folder, probs


def _mcc(gold, predicted) -> float:
    return float(metrics.matthews_corrcoef(gold, predicted))


def test_table_2_1(run, capsys):
    folder, probs = run
    assert main(["table-2.1", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    row = report["rows"][0]
    assert row["model"] == "tiny" and row["n_restarts"] == 4
    for s in ("thesis_cola_test", "cola_out_of_domain_dev"):
        gold = np.array(list(gold_labels(s).values()))
        predicted = probs[s] > 0.5
        per = [_mcc(gold, predicted[:, k]) for k in range(4)]
        assert row[s]["per_restart"] == pytest.approx(per)
        assert row[s]["mean"] == pytest.approx(np.mean(per))
        assert row[s]["sd"] == pytest.approx(np.std(per, ddof=1))
        assert row[s]["max"] == pytest.approx(max(per))
        vote = predicted.sum(axis=1) >= 3  # more than half of 4
        assert row[s]["ensemble"] == pytest.approx(_mcc(gold, vote))
    best = int(np.argmax(row["thesis_cola_test"]["per_restart"]))
    assert row["table_2_2"]["seed"] == best
    labels = items_of("li_adger").labels
    expert = labels["label"].to_numpy(dtype=bool)
    li = probs["li_adger"][:, best] > 0.5
    assert row["table_2_2"]["li_adger_expert"] == pytest.approx(_mcc(expert, li))
    # the thesis's printed rows ride along
    assert [r["model"] for r in report["references"]][:3] == ["CoLA baseline", "GPT", "BERT-large"]


def test_cola_features(run, capsys, tmp_path):
    folder, probs = run
    assert main(["cola-features", str(folder), "--json", "--plots", str(tmp_path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "cola-features-major.png",
        "cola-features-minor.png",
    ]
    gold = np.array(list(gold_labels("cola_analysis").values()))
    predicted = probs["cola_analysis"] > 0.5
    ids = list(gold_labels("cola_analysis"))
    for level in ("major", "minor"):
        names, has = analysis_features(level)
        rows = {r["feature"]: r for r in report["levels"][level]}
        assert list(rows) == names
        for f in names:
            m = np.array([f in has[i] for i in ids])
            assert rows[f]["n_sentences"] == m.sum()
            if m.any():
                per = [_mcc(gold[m], predicted[m, k]) for k in range(4)]
                assert rows[f]["mean"] == pytest.approx(np.mean(per), abs=1e-12), f
    test_gold = np.array(list(gold_labels("thesis_cola_test").values()))
    dashed = np.mean([_mcc(test_gold, probs["thesis_cola_test"][:, k] > 0.5) for k in range(4)])
    assert report["dashed"]["tiny"] == pytest.approx(dashed)


def test_cola_features_text_says_the_thesis_prints_no_feature_mccs(run, capsys):
    """The thesis gives Figures 2-1/2-2 as figures only (no numbers in its text): the text
    output says so once, at the end, so a reader does not look for thesis rows."""
    folder, _ = run
    assert main(["cola-features", str(folder), "--level", "major"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    said = [s for s in lines if s.startswith("no thesis rows")]
    assert said == [lines[-1]]
    assert "Figures 2-1 and 2-2" in said[0] and "no printed MCCs" in said[0]


def test_a_gold_label_that_differs_from_the_source(tmp_path, capsys):
    sets = _sets(li_adger=False)
    ids, gold = sets["thesis_cola_test"]
    sets["thesis_cola_test"] = (ids, [1 - gold[0], *gold[1:]])
    write_run(tmp_path / "bad", kind="restarts", seeds=[5], sets=sets, rng=np.random.default_rng(0))
    assert main(["table-2.1", str(tmp_path / "bad")]) == 2
    err = capsys.readouterr().err
    assert "restart-5.jsonl: id 'test.0' of 'thesis_cola_test': field 'gold'" in err


def test_a_set_left_out(tmp_path, capsys):
    sets = _sets(li_adger=False)
    del sets["cola_out_of_domain_dev"]
    write_run(
        tmp_path / "part", kind="restarts", seeds=[0], sets=sets, rng=np.random.default_rng(0)
    )
    assert read_run(tmp_path / "part").restarts[0].sets.keys() == {
        "thesis_cola_test",
        "cola_analysis",
    }
    assert main(["table-2.1", str(tmp_path / "part")]) == 2
    assert (
        "restart 0 has no prediction for 516 item(s) of 'cola_out_of_domain_dev'"
        in capsys.readouterr().err
    )


def test_table_2_1_text(run, capsys):
    folder, _ = run
    assert main(["table-2.1", str(folder)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[2].startswith("tiny")
    assert "BERT large-cased    0.574 (0.026)  0.613     0.588" in out  # the thesis's printed row


def test_the_committed_padded_run_against_the_length_grouped_restarts(capsys):
    """The speed target of length-grouped batches, on the committed MiniLM runs (one process,
    one thread pinned to one core, on the same CPU model): padding every batch to 64 took
    at least twice the training time of a length-grouped restart, and its MCC on the thesis's
    CoLA test set and on CoLA's out-of-domain dev set lies within the restarts' range."""
    from pathlib import Path

    runs = Path(__file__).resolve().parents[1] / "runs"
    padded, grouped = runs / "minilm-cola-pad64", runs / "minilm-cola-restarts"
    assert main(["table-2.1", str(padded), str(grouped), "--no-references", "--json"]) == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    pad, length = rows["minilm-cola-pad64"], rows["minilm-cola-restarts"]
    for name in ("thesis_cola_test", "cola_out_of_domain_dev"):
        assert length[name]["min"] <= pad[name]["mean"] <= length[name]["max"], name
    run = {p: json.loads((p / "run.json").read_text()) for p in (padded, grouped)}
    spec = {p: r["spec"] for p, r in run.items()}
    assert (spec[padded]["grouping"], spec[grouped]["grouping"]) == ("pad64", "length")
    assert spec[padded]["max_length"] == 64
    same = ("model", "epochs", "batch_size", "lr", "preset", "weight_decay", "warmup_ratio")
    assert {k: spec[padded][k] for k in same} == {k: spec[grouped][k] for k in same}
    per_restart = run[grouped]["train_seconds"] / len(run[grouped]["restarts"])
    assert run[padded]["train_seconds"] >= 2 * per_restart
