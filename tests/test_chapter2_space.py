"""The app's Chapter 2 tab: the shipped aggregates (space/results/chapter2/) are what the
snapshot writes from the thesis's files, a run's reports ship beside them, and the views show
them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from metric_adc.chapter2.cola_sets import gold_labels
from metric_adc.family.items import items_of
from space.data.chapter2 import CHAPTER2_DIR, read_chapter2, snapshot_chapter2
from space.data.toy import toy_space_data
from space.ui.tab_chapter2 import acrobatic_view, features_view
from tests.chapter2_runs import write_run


def test_the_shipped_thesis_study_is_fresh(tmp_path):
    (written,) = snapshot_chapter2(out=tmp_path)
    shipped = CHAPTER2_DIR / written.name
    assert json.loads(shipped.read_text()) == json.loads(written.read_text())
    text = shipped.read_text()
    assert not [s for s in items_of("li_adger").units["sentence"] if s in text]  # ids, numbers


def test_runs_ship_and_show(tmp_path):
    ids = items_of("li_adger").labels["id"].tolist()
    sets = {s: (list(gold_labels(s)), [int(v) for v in gold_labels(s).values()])
            for s in ("thesis_cola_test", "cola_out_of_domain_dev", "cola_analysis")}  # fmt: skip
    sets["li_adger"] = (ids, [None] * len(ids))
    write_run(
        tmp_path / "tiny-orders",
        kind="orders",
        seeds=[0, 1],
        sets=sets,
        rng=np.random.default_rng(3),
    )
    names = [p.name for p in snapshot_chapter2([tmp_path / "tiny-orders"], out=tmp_path / "out")]
    assert names == ["acrobatic-thesis-bert-base-uncased.json", "acrobatic-tiny-orders.json",
                     "cola-features-tiny-orders.json"]  # fmt: skip
    acrobatic, features = read_chapter2(tmp_path / "out")
    assert sorted(acrobatic) == ["bert-base-uncased (thesis, §2.3)", "tiny-orders"]
    data = toy_space_data()
    fig, text, table = acrobatic_view(data, acrobatic["tiny-orders"])
    assert len(table) == acrobatic["tiny-orders"]["n_acrobatic"] > 0
    assert set(table["flips"]) == {1}  # two orders: one flip at most
    assert "2 training orders" in text and fig is not None
    fig, table = features_view(features, "minor")
    assert fig is not None and len(table) == len(features["tiny-orders"]["levels"]["minor"])


def test_a_foreign_file_is_refused(tmp_path):
    (tmp_path / "x.json").write_text('{"format": "other"}')
    with pytest.raises(ValueError, match=r"x\.json: 'format' must be"):
        read_chapter2(tmp_path)
