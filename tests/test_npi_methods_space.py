"""The NPI tab's *paper's methods* view: the shipped record (space/results/npi_methods/) is
what the snapshot writes from the committed runs, and the view's frames show its grids, caps
and the run's size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from li_adger.benchmarks.npi import ENVIRONMENTS
from space.data.npi_methods import NPI_METHODS_DIR, read_npi_methods, snapshot_npi_methods
from space.ui.tab_npi_methods import (
    ENV_COLUMNS,
    acceptability_frame,
    acceptability_heatmap,
    npi_methods_intro,
    pairs_frame,
    probes_frame,
)

REPO = Path(__file__).resolve().parents[1]
RUNS = REPO / "runs"


def _inputs() -> list[Path]:
    probes = sorted((RUNS / "npi-minilm-probes").glob("*.json"))
    return [RUNS / "npi-minilm-finetune", RUNS / "npi-minilm-bow", *probes]


def test_the_shipped_record_is_the_committed_runs_snapshot(tmp_path):
    written = snapshot_npi_methods(_inputs(), name="npi-minilm", out=tmp_path)
    shipped = NPI_METHODS_DIR / written.name
    assert json.loads(shipped.read_text()) == json.loads(written.read_text())
    text = shipped.read_text()
    assert "/work/" not in text and "/tmp/" not in text  # no server folder


@pytest.fixture(scope="module")
def records():
    return read_npi_methods()


def test_fig1_has_a_row_per_model_and_configuration_with_its_caps(records):
    frame = acceptability_frame(records)
    (record,) = records
    models = record["models"]
    assert len(frame) == 5 * len(models)
    minilm = frame[frame["Model"] == "minilm"].set_index("Configuration")
    grid = models["minilm"]["acceptability_mcc"]
    assert minilm.loc["CoLA", "Wilcox"] == grid["cola"]["wilcox"]
    assert minilm.loc["All NPI", ENVIRONMENTS["only"]] == grid["all"]["only"]
    (caps,) = set(minilm["Caps"])
    assert caps.startswith("capped (") and "train_cap=1000, eval_cap=1000" in caps
    bow = frame[frame["Model"] == "bow:input-embeddings:minilm"].set_index("Configuration")
    assert bow.loc["CoLA", ENV_COLUMNS].isna().all()  # no CoLA bag of words
    fig = acceptability_heatmap(records)
    assert len(fig.axes[0].get_yticklabels()) == len(frame)


def test_fig2_and_fig4_frames(records):
    (record,) = records
    for contrast in ("npi_present", "licensor", "scope"):
        frame = pairs_frame(records, contrast)
        assert len(frame) == 2 * 5 * len(record["models"])
        row = frame[(frame["Model"] == "minilm") & (frame["Configuration"] == "All NPI")
                    & (frame["Test"] == "gradient")].iloc[0]  # fmt: skip
        cells = record["models"]["minilm"]["minimal_pairs"]["all"][contrast]
        assert row[ENVIRONMENTS["only"]] == cells["only"]["gradient"]
        assert row["Pairs"] == sum(c["pairs"] for c in cells.values()) > 0
    bow_scope = record["models"]["bow:input-embeddings:minilm"]["minimal_pairs"]["all"]["scope"]
    assert bow_scope["adverbs"]["ties"] > 0.95  # the record carries the share of tied pairs
    probes = probes_frame(records)
    assert len(probes) == 3 * len(record["probes"])
    assert set(probes["Fine-tuning"]) >= {"cola", "all", "none"}
    scope = probes[(probes["Fine-tuning"] == "all") & (probes["Feature"] == "scope")].iloc[0]
    assert pd_isna(scope[ENVIRONMENTS["simplequestions"]])  # no scope in simple questions
    assert scope["Caps"] == "train 1000, test 1000"


def pd_isna(value) -> bool:
    import pandas as pd

    return bool(pd.isna(value))


def test_the_page_states_the_caps_and_that_the_run_is_capped(records):
    text = npi_methods_intro(records)
    assert "train_cap=1000, eval_cap=1000" in text
    assert "CoLA configuration from minilm-cola-restarts/model-0" in text
    assert "A capped run" in text and "at most 1,000 of the 10,000 sentences" in text
    assert "A small run" not in text and "epoch(s)" in text
    uncapped = [{**records[0], "models": {"m": {**records[0]["models"]["minilm"],
                 "caps": ["uncapped"], "capped": False}}, "facts": {"m": {"epochs": [4]}}}]  # fmt: skip
    assert "A small run" not in npi_methods_intro(uncapped)
    assert "A capped run" not in npi_methods_intro(uncapped)
    assert npi_methods_intro([]).endswith("No results of these methods are shipped.")
    assert "tie is a failure" in text


def test_a_foreign_file_is_refused(tmp_path):
    (tmp_path / "x.json").write_text('{"format": "other"}')
    with pytest.raises(ValueError, match=r"x\.json: 'format' must be"):
        read_npi_methods(tmp_path)
