"""Each event handler of the app (space/ui/handlers.py), called directly: no server, no browser.

Most use the toy data of space/data/toy.py (3 LI-Adger-like pairs, a BLiMP-shaped benchmark of 4
pairs) whose expected values are worked out by hand in the comments. Submitting:
tests/test_space_submit.py.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from space.data.benchmark_data import FamilyEntry
from space.data.kinds import KIND_UPLOAD
from space.data.toy import toy_space_data
from space.data.upload import Upload
from space.ui import family_handlers, handlers
from space.ui.leaderboard import HIGHLIGHT


@pytest.fixture()
def toy():
    return toy_space_data()


def _csv(path: Path, rows) -> Path:
    path.write_text("id,score\n" + "".join(f"{i},{s}\n" for i, s in rows))
    return path


def _upload(toy, tmp_path, name="mine") -> list[Upload]:
    # scores rising with the id order: g1 < b1 < g2 < b2 < g3 < b3, so every bad member
    # outscores its good one and the BLiMP criterion is 0 of 3
    rows = [(i, k) for k, i in enumerate(["g1", "b1", "g2", "b2", "g3", "b3"])]
    status, uploads, submit_choices = handlers.upload(
        toy, str(_csv(tmp_path / f"{name}.csv", rows)), name, 0.5, []
    )
    got = uploads[-1].name
    assert status.startswith(f"**Scored `{got}`** on LI-Adger"), status
    assert submit_choices["choices"] == [got] and submit_choices["value"] == got
    return uploads


def test_leaderboard_ranks_by_adc_and_highlights_only_uploads(toy, tmp_path):
    uploads = _upload(toy, tmp_path)
    board = handlers.leaderboard(toy, 0.5, uploads)
    df = board.data
    assert df["Model"].tolist() == ["toy-length", "mine"]  # 2/3 pass vs 0/3
    assert df.loc[df["Model"] == "mine", "BLiMP"].item() == 0.0
    styles = board._compute().ctx
    highlighted = {r for (r, _), props in styles.items() if props}
    assert highlighted == {1}
    assert ("background-color", "#fde68a") in styles[(1, 0)]
    assert HIGHLIGHT.startswith("background-color")


def test_ceiling_table_is_empty_without_a_ceiling_and_never_in_the_leaderboard(toy):
    assert handlers.ceiling(toy, 0.5, []).data.empty
    assert "human" not in " ".join(handlers.leaderboard(toy, 0.5, []).data["Kind"])


def test_adc_curves_have_one_line_per_model(toy, tmp_path):
    fig = handlers.adc_curves(toy, 1.0, _upload(toy, tmp_path))
    labels = [ln.get_label() for ln in fig.axes[0].lines if not ln.get_label().startswith("_")]
    assert labels == ["toy-length", "mine"]


def test_model_plots_falls_back_to_the_first_model(toy):
    pair, sentence = handlers.model_plots(toy, "no such model", 0.5, [])
    assert pair.axes[0].get_title().startswith("toy-length: ADC δ=0.5 = 0.667 (2 of 3 pairs)")
    assert sentence.axes[0].get_title().startswith("toy-length: 6 sentences")


def test_heatmap_labels_phenomena_by_their_short_names(toy):
    ax = handlers.heatmap(toy, 0.5, "toy", []).axes[0]
    # agreement: its one pair fails at δ = 0.5 (Δlm 0 vs Δh 2); islands: both pass
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Agreement (toy)", "Islands (toy)"]
    assert ax.images[0].get_array().tolist() == [[0.0], [1.0]]


def test_pairs_filters_and_reports(toy):
    text, table = handlers.pairs(toy, 0.5, "all", "all", "toy-length", "fail", handlers.NONE,
                                 "all", [])  # fmt: skip
    assert text.startswith("1 pairs match") and table.data["pair"].tolist() == ["toy.1"]
    # an unknown phenomenon (e.g. left over from another source) falls back to all
    text, _ = handlers.pairs(toy, 0.5, "toy", "gone", "toy-length", "all", handlers.NONE,
                             "all", [])  # fmt: skip
    assert text.startswith("3 pairs match")


def test_phenomenon_and_model_choices(toy, tmp_path):
    assert handlers.phenomenon_choices(toy, "toy")["value"] == "all"
    uploads = _upload(toy, tmp_path)
    plots, a, b = handlers.model_choices(toy, uploads)
    assert plots["choices"] == a["choices"] == ["toy-length", "mine"]
    assert b["choices"] == [handlers.NONE, "toy-length", "mine"]


def test_upload_refusal_keeps_the_session(toy, tmp_path):
    uploads = _upload(toy, tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_text("sentence,logprob\na,1\n")
    status, after, _ = handlers.upload(toy, str(bad), "", 0.5, uploads)
    assert status.startswith("⚠️ **Refused:** bad.csv line 1: expected the CSV header 'id,score'")
    assert after is uploads


def test_family_leaderboard_ranks_models_and_leaves_the_human_out(toy):
    board = family_handlers.family_leaderboard(toy, "blimp", []).data
    # toy-good passes 3 of 4 pairs (0.75), toy-bad 1 of 4 (0.25)
    assert board["Model"].tolist() == ["toy-good", "toy-bad"]
    assert board["BLiMP (mean over paradigms)"].tolist() == [0.75, 0.25]
    human = family_handlers.family_human(toy, "blimp").data
    assert human["Model"].tolist() == ["human"] and human["syntax"].tolist() == [1.0]


def test_family_leaderboard_highlights_a_family_upload(toy):
    view = toy.benchmarks["blimp"]
    mine = Upload("blimp", FamilyEntry("mine", KIND_UPLOAD, view.entries[1].result), None, "m")
    board = family_handlers.family_leaderboard(toy, "blimp", [mine])
    rows = board.data["Model"].tolist()
    assert rows == ["toy-good", "toy-bad", "mine"]
    assert {r for (r, _), p in board._compute().ctx.items() if p} == {2}


def test_every_benchmark_leaderboard_links_each_models_page_with_its_size_and_date(toy):
    # the LI-Adger leaderboard's metadata columns on a benchmark's board, from the same code
    view = toy.benchmarks["blimp"]
    meta = {"model": "openai-community/gpt2", "revision": "607a30d", "parameters": 124439808,
            "created": "2026-11-23T22:40:25Z"}  # fmt: skip
    entry = FamilyEntry("mine", KIND_UPLOAD, view.entries[1].result, metadata=meta)
    table, button = family_handlers.family_board_outputs(toy, "blimp", "Models", [Upload(
        "blimp", entry, None, "m")])  # fmt: skip
    shown = table["value"].data.set_index("Model")
    page = "https://huggingface.co/openai-community/gpt2/tree/607a30d"
    assert shown.loc["mine", "Link"] == f"[page]({page})"
    assert (shown.loc["mine", "Parameters"], shown.loc["mine", "Date"]) == (124439808, "2026-11-23")
    assert shown.loc["toy-good", "Link"] == ""  # a local file: no page
    assert table["label"] == "Models · 3 rows"
    with open(button["value"], newline="", encoding="utf-8") as fh:
        rows = {r["Model"]: r for r in csv.DictReader(fh)}
    assert rows["mine"]["Link"] == page and rows["toy-good"]["Link"] == ""  # the CSV: addresses
    types = family_handlers.board_datatypes_of(toy, "blimp")
    assert len(types) == len(shown.columns) + 1 and types[-1] == "markdown"


def test_the_shipped_benchmark_boards_date_their_models_and_not_the_references():
    from space.data.loaders import load_space_data

    data = load_space_data("/nonexistent", thesis=False)
    for bench in data.benchmarks:
        board = family_handlers.family_leaderboard(data, bench, []).data
        shipped = board["Kind"] == "offline model"
        assert shipped.any(), bench
        assert board.loc[shipped, "Date"].notna().all(), bench  # each file's 'created' day
        assert board.loc[~shipped, "Date"].isna().all(), bench  # a paper's row has no file


def test_family_breakdown_per_paradigm(toy):
    table, fig = family_handlers.family_breakdown(toy, "blimp", "per paradigm", "blimp", [])
    df = table.data
    # paradigm a: toy-good passes both pairs, toy-bad one; b: toy-good one, toy-bad none
    assert df.to_dict("list") == {
        "paradigm": ["a", "b"],
        "n": [2, 2],
        "toy-good": [1.0, 0.5],
        "toy-bad": [0.5, 0.0],
        "human": [1.0, 1.0],
    }
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["toy-good", "toy-bad", "human"]
    with pytest.raises(ValueError, match="'breakdown' must be one of"):
        family_handlers.family_breakdown(toy, "blimp", "per colour", "blimp", [])


def test_statistic_choices_follow_the_breakdown():
    choices = family_handlers.statistic_choices("diagnostics", "per set")
    assert [v for _, v in choices["choices"]][:2] == ["sensitivity", "sensitivity_thresholded"]
    assert choices["value"] == "sensitivity"


def test_predictions_without_top_predictions_say_so(toy):
    assert (
        family_handlers.predictions(toy, "blimp", None, [])[0] == "Choose an expected completion."
    )
    text, table = family_handlers.predictions(toy, "blimp", "a.0.good", [])
    assert "no model here has top predictions" in text and table.data.empty
