"""The Space's parts without a server: data loading, leaderboard, explorer, uploads, CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from space.data import KIND_UPLOAD, entry_from_scores, load_space_data, toy_space_data
from space.explorer import DISAGREEMENTS, explore_pairs
from space.leaderboard import adc_column, leaderboard_frame
from space.upload import MAX_UPLOADS, UploadError, evaluate_upload

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def toy():
    return toy_space_data()


def _second_model(data):
    # a model that prefers longer sentences: the opposite of the toy's word-count model
    scores = {k: -v for k, v in data.models[0].z.items()}
    return entry_from_scores(scores, data.pairs, name="toy-long", kind=KIND_UPLOAD)


def test_app_starts_without_the_thesis_outputs(tmp_path, monkeypatch):
    import li_adger
    from metric_adc.scores_file import write_scores
    from space.app import build_app

    monkeypatch.setenv("ADC_THESIS_OUTPUTS", str(tmp_path / "absent"))
    ds = li_adger.load("sentences")
    results = tmp_path / "results"
    write_scores(
        results / "len.jsonl",
        [{"id": i, "score": -len(s)} for i, s in zip(ds["id"], ds["sentence"], strict=True)],
        {"model": "length"},
    )
    data = load_space_data(results, ceiling_splits=0)
    assert [m.name for m in data.models] == ["length"]
    assert data.ceiling is None
    board = leaderboard_frame(data, [], 1.0)
    assert board["Model"].tolist() == ["length"] and board.loc[0, "Pairs"] == len(data.pairs)
    build_app(data)  # lays out without error


def test_app_starts_with_no_model_at_all(tmp_path, monkeypatch):
    from space.app import build_app

    monkeypatch.setenv("ADC_THESIS_OUTPUTS", str(tmp_path / "absent"))
    data = load_space_data(tmp_path / "no-results", ceiling_splits=0)
    assert data.models == [] and leaderboard_frame(data, [], 0.5).empty
    build_app(data)


def test_leaderboard_adc_is_non_decreasing_in_delta(toy):
    up = _second_model(toy)
    deltas = [0.1, 0.5, 1.0, 2.0, 5.0]
    frames = [leaderboard_frame(toy, [up], d).set_index("Model") for d in deltas]
    for name in ["toy-length", "toy-long"]:
        values = [f.loc[name, adc_column(d)] for f, d in zip(frames, deltas, strict=True)]
        assert values == sorted(values), (name, values)


def test_leaderboard_is_the_same_for_every_call(toy):
    a = leaderboard_frame(toy, [], 0.5)
    b = leaderboard_frame(toy, [], 0.5)
    assert a.equals(b)  # the bootstrap generator is seeded on every call


def test_explorer_disagreement_filters_partition_the_pairs(toy):
    b = _second_model(toy)
    a = toy.models[0]
    counts = {
        d: int(explore_pairs(toy, 1.0, a, b, disagreement=d)[0].split()[0]) for d in DISAGREEMENTS
    }
    assert counts[DISAGREEMENTS[1]] + counts[DISAGREEMENTS[2]] == counts[DISAGREEMENTS[3]]
    assert counts["all"] == len(toy.pairs)
    _, same = explore_pairs(toy, 1.0, a, a, disagreement=DISAGREEMENTS[3])
    assert same.empty


def test_explorer_outcome_filters_split_the_pairs(toy):
    a = toy.models[0]
    n = {o: len(explore_pairs(toy, 0.5, a, outcome=o)[1]) for o in ("all", "pass", "fail")}
    assert n["pass"] + n["fail"] == n["all"] == len(toy.pairs)
    _, df = explore_pairs(toy, 0.5, a, phenomenon="islands")
    assert set(df["phenomenon"]) == {"islands"}
    with pytest.raises(ValueError, match="'outcome' must be one of"):
        explore_pairs(toy, 0.5, a, outcome="maybe")


def _csv(path: Path, rows) -> Path:
    path.write_text("id,score\n" + "".join(f"{i},{s}\n" for i, s in rows))
    return path


def test_upload_scores_a_valid_file_and_names_it_uniquely(toy, tmp_path):
    rows = [(i, k) for k, i in enumerate(toy.pairs.judgements)]
    e1 = evaluate_upload(_csv(tmp_path / "mine.csv", rows), toy, [])
    assert e1.name == "mine" and e1.kind == KIND_UPLOAD and e1.row["n_pairs"] == 3
    e2 = evaluate_upload(tmp_path / "mine.csv", toy, [e1])
    assert e2.name == "mine #2"
    e3 = evaluate_upload(tmp_path / "mine.csv", toy, [], name="toy-length")
    assert e3.name == "toy-length #2"  # never shadows a shared model


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("g1", 1), ("b1", 2)], "no score for 4 of the 6 sentences"),
        ([("g1", 1), ("zz", 2)], "1 sentence id(s) unknown to LI-Adger, e.g. 'zz'"),
        ([(i, 1.0) for i in ("g1", "b1", "g2", "b2", "g3", "b3")], "constant"),
    ],
)
def test_upload_refusals_name_the_problem(toy, tmp_path, rows, message):
    with pytest.raises(UploadError, match=r"^mine\.csv: ") as err:
        evaluate_upload(_csv(tmp_path / "mine.csv", rows), toy, [])
    assert message in str(err.value)


def test_upload_limits(toy, tmp_path):
    rows = [(i, k) for k, i in enumerate(toy.pairs.judgements)]
    path = _csv(tmp_path / "mine.csv", rows)
    with pytest.raises(UploadError, match="at most 10"):
        evaluate_upload(path, toy, [toy.models[0]] * MAX_UPLOADS)
    with pytest.raises(UploadError, match="larger than max_bytes=10"):
        evaluate_upload(path, toy, [], max_bytes=10)
    with pytest.raises(UploadError, match="no file"):
        evaluate_upload(None, toy, [])


def test_session_uploads_do_not_touch_shared_data(toy, tmp_path):
    rows = [(i, k) for k, i in enumerate(toy.pairs.judgements)]
    before = [m.name for m in toy.models]
    e = evaluate_upload(_csv(tmp_path / "mine.csv", rows), toy, [])
    board = leaderboard_frame(toy, [e], 0.5)
    assert "mine" in set(board["Model"])
    assert [m.name for m in toy.models] == before
    assert "mine" not in set(leaderboard_frame(toy, [], 0.5)["Model"])


def test_model_deltas_match_the_metric(toy):
    from metric_adc.pairs import model_deltas

    scores = {k: float(v) for k, v in toy.models[0].z.items()}
    np.testing.assert_allclose(toy.models[0].model_delta, model_deltas(scores, toy.pairs).delta)


def test_cli_help_and_bad_options():
    from space.__main__ import parse_args

    out = subprocess.run(
        [sys.executable, "-m", "space", "--help"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0 and "--results DIR" in out.stdout
    with pytest.raises(SystemExit):
        parse_args(["--port", "0"])
    with pytest.raises(SystemExit):
        parse_args(["--ceiling-splits", "-1"])
