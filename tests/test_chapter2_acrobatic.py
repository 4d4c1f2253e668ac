"""``acrobatic``: the thesis's stability study (its 1,272 and 1,031 from the pinned files) and
runs of training orders (fixture folders from tests/chapter2_runs.py)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from li_adger.io.readers import InputFileError
from li_adger.sources import source_file
from metric_adc.__main__ import main
from metric_adc.chapter2.acrobatic import acrobatic_curve, acrobatic_mask, flip_counts
from metric_adc.chapter2.orders import acrobatic_report, run_study
from metric_adc.chapter2.runs import read_run
from metric_adc.chapter2.stability import large_cased_acrobatic, thesis_study
from metric_adc.family.items import items_of
from tests.chapter2_runs import write_run


@pytest.fixture(scope="module")
def thesis():
    return thesis_study()


def test_thesis_counts_from_the_files(thesis, capsys):
    """The thesis's 1,272 of 4,178 (30.4 %, §2.3) and the 1,031 of the large-cased file."""
    assert main(["acrobatic", "--thesis", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert (r["n_acrobatic"], r["n_sentences"], r["n_orders"]) == (1272, 4178, 200)
    assert round(100 * r["share_acrobatic"], 1) == 30.4
    assert r["large_cased"]["n_acrobatic"] == 1031 == len(large_cased_acrobatic())
    # the set is the one of the thesis's acrobatic_sentences.csv, and its num_flips column
    listed = pd.read_csv(source_file("thesis-outputs/acrobatic_sentences.csv"))
    flips = {f["id"]: f["flips"] for f in r["flips"]}
    assert set(flips) == set(listed["id"])
    assert r["thesis_num_flips_is_cyclic"] is True
    # the curve starts at 0, never falls, ends at the count; the unathletic curve mirrors it
    curve = np.array(r["curve"]["acrobatic"])
    assert curve[0] == 0 and np.all(np.diff(curve) >= 0) and curve[-1] == 1272 / 4178
    assert np.allclose(curve + np.array(r["curve"]["unathletic"]), 1)
    assert len(r["mcc_expert"]["per_order"]) == 200 and r["criteria"] is None


def test_thesis_mcc_and_baseline_by_hand(thesis):
    """MCC per order and the majority baseline against labels read straight from the files."""
    r = acrobatic_report(thesis.study, thesis=thesis, is_thesis=True)
    frame = pd.read_csv(source_file("thesis-outputs/bert_stability_testing_data.csv"))
    y = frame["label"].to_numpy() == 1
    p = frame["seed518"].to_numpy() == 1
    tp, tn = np.sum(y & p), np.sum(~y & ~p)
    fp, fn = np.sum(~y & p), np.sum(y & ~p)
    by_hand = (tp * tn - fp * fn) / np.sqrt(float((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))
    assert r["mcc_thesis_label"]["per_order"][0] == pytest.approx(by_hand, abs=1e-12)
    assert r["majority_baseline"]["accuracy_thesis_label"] == pytest.approx(y.mean())
    assert r["baseline_column_accuracy_thesis_label"] == pytest.approx(y.mean())


def _li_adger_ids():
    return items_of("li_adger").labels["id"].tolist()


def test_run_of_orders(tmp_path, thesis):
    ids = _li_adger_ids()
    probs = write_run(tmp_path / "run", kind="orders", seeds=[3, 1, 2],
                      sets={"li_adger": (ids, [None] * len(ids))}, rng=np.random.default_rng(0))  # fmt: skip
    (tmp_path / "run" / ".restart-9.jsonl.tmp").write_text("unfinished")
    run = read_run(tmp_path / "run")
    assert [r.seed for r in run.restarts] == [3, 1, 2]  # the spec's order; the .tmp skipped
    r = acrobatic_report(run_study(run), thesis=thesis)
    labels = probs["li_adger"] > 0.5
    varies = {i for i, row in zip(ids, labels, strict=True) if len(set(row.tolist())) > 1}
    assert r["n_acrobatic"] == len(varies)
    first_two = sum(len(set(row[:2].tolist())) > 1 for row in labels)
    assert r["curve"]["acrobatic"][1] == first_two / len(ids)
    theirs = set(pd.read_csv(source_file("thesis-outputs/acrobatic_sentences.csv"))["id"])
    assert r["jaccard_with_thesis"] == pytest.approx(len(varies & theirs) / len(varies | theirs))
    crit = r["criteria"]
    assert len(crit["blimp"]["per_order"]) == 3 and crit["blimp"]["sd"] > 0
    assert crit["adc_0.5"]["min"] <= crit["adc_0.5"]["mean"] <= crit["adc_0.5"]["max"]


def test_identical_orders_have_no_spread(tmp_path, thesis):
    ids = _li_adger_ids()
    write_run(tmp_path / "run", kind="orders", seeds=[0, 1], sets={"li_adger": (ids, [None] * len(ids))},
              rng=np.random.default_rng(1), flip=0.0)  # fmt: skip
    r = acrobatic_report(run_study(read_run(tmp_path / "run")), thesis=thesis)
    assert r["n_acrobatic"] == 0 and r["flips"] == []
    assert r["criteria"]["blimp"]["sd"] == 0 and r["criteria"]["adc_0.5"]["sd"] == 0
    assert r["mcc_expert"]["min"] == r["mcc_expert"]["max"]


def test_refusals(tmp_path, capsys):
    ids = _li_adger_ids()[:5]
    write_run(tmp_path / "r", kind="restarts", seeds=[0], sets={"li_adger": (ids, [None] * 5)},
              rng=np.random.default_rng(2))  # fmt: skip
    assert main(["acrobatic", str(tmp_path / "r")]) == 2
    assert "need a run of orders" in capsys.readouterr().err
    path = tmp_path / "r" / "restart-0.jsonl"
    lines = path.read_text().splitlines()
    record = json.loads(lines[2])
    record["p_acceptable"] = 1.5
    lines[2] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(
        InputFileError,
        match=rf"restart-0.jsonl line 3 \(id '{ids[1]}'\): 'p_acceptable' must be in \[0, 1\]",
    ):
        read_run(tmp_path / "r")


@given(arrays(np.bool_, st.tuples(st.integers(1, 12), st.integers(1, 8))))
def test_curve_invariances(p):
    """The curve never falls, ends at the acrobatic share, ignores the sentences' order, and
    its end ignores the orders' order; flips are zero exactly for unathletic sentences."""
    curve = acrobatic_curve(p)
    assert curve[0] == 0 and np.all(np.diff(curve) >= 0)
    assert curve[-1] == acrobatic_mask(p).mean()
    assert np.array_equal(acrobatic_curve(p[::-1]), curve)
    assert acrobatic_curve(p[:, ::-1])[-1] == curve[-1]
    assert np.array_equal(flip_counts(p) > 0, acrobatic_mask(p))
    assert np.all(flip_counts(p, cyclic=True) >= flip_counts(p))


def test_each_panel_of_figure_2_3_has_a_legend_for_all_its_lines():
    from metric_adc.chapter2.plots import acrobatic_figure

    report = {"name": "toy", "curve": {"acrobatic": [0.0, 0.1, 0.2], "unathletic": [1.0, 0.9, 0.8]},
              "mcc_expert": {"per_order": [0.5, 0.6, 0.5]},
              "mcc_thesis_label": {"per_order": [0.4, 0.5, 0.4]},
              "majority_baseline": {"accuracy_expert": 0.5}}  # fmt: skip
    fig = acrobatic_figure(report)
    for ax, curve in zip(fig.axes, ("Acrobatic sentences", "Unathletic sentences"), strict=True):
        legend = ax.get_legend()
        assert legend is not None, ax.get_title()
        labels = [t.get_text() for t in legend.get_texts()]
        assert labels == [line.get_label() for line in ax.lines]
        assert labels[0] == curve and len(labels) == 4


def test_the_command_on_a_run_prints_and_plots(tmp_path, capsys):
    ids = _li_adger_ids()
    write_run(tmp_path / "orders", kind="orders", seeds=[0, 1, 2], sets={"li_adger": (ids, [None] * len(ids))},
              rng=np.random.default_rng(4))  # fmt: skip
    assert main(["acrobatic", str(tmp_path / "orders"), "--plots", str(tmp_path / "plots")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Acrobatic sentences: orders, 3 training orders of one initialisation")
    assert "training: 3 orders" in out and "adc_0.5 over orders" in out
    assert [p.name for p in (tmp_path / "plots").iterdir()] == ["acrobatic-orders.png"]
