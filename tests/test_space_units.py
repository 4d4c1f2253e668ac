"""The app's parts without a server: loading (offline, from any folder, from a published
folder, results), the leaderboard and the human ceiling apart, uploads on every benchmark,
figures, the explorer, the command line, the layout. Submissions: tests/test_space_submit.py.

Expected numbers come from the README (checked against the metric by tests/test_readme.py)
or are computed here by hand from the benchmark's own items, never by the code under test.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from space_helpers import readme_row

from metric_adc.scores.file import write_scores
from space.data.kinds import KIND_RESULTS, KIND_SHIPPED, KIND_THESIS, KIND_UPLOAD
from space.data.loaders import load_space_data
from space.data.results_folder import load_results
from space.data.toy import toy_space_data
from space.data.upload import MAX_UPLOADS, UploadError, evaluate_upload
from space.ui.explorer import DISAGREEMENTS, explore_pairs
from space.ui.leaderboard import adc_column, ceiling_frame, leaderboard_frame

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def toy():
    return toy_space_data()


@pytest.fixture(scope="module")
def li_adger_sentences():
    import li_adger

    ds = li_adger.load("sentences")
    return list(zip(ds["id"], ds["sentence"], strict=True))


def _word_count(sentences) -> list[dict]:
    return [{"id": i, "score": -float(len(s.split()))} for i, s in sentences]


# ----------------------------------------------------------------------------- start-up
def test_app_starts_with_no_source_file_and_reads_none(tmp_path, monkeypatch):
    from li_adger import sources
    from space.ui.app import build_app

    def no_lookup(*args, **kwargs):
        raise AssertionError("the app looked for a source file at start-up")

    monkeypatch.setattr(sources, "find_sources", no_lookup)
    monkeypatch.setenv("LI_ADGER_SOURCE", str(tmp_path / "nonexistent"))
    data = load_space_data(tmp_path / "results")
    kinds = {m.name: m.kind for m in data.models}
    assert list(kinds.values()).count(KIND_THESIS) == 8  # shipped: no output file needed
    assert kinds["trigram (slor)"] == KIND_SHIPPED  # the offline model ships with the app
    assert kinds["smollm2 (fitted, default)"] == KIND_SHIPPED  # the README's best row
    assert not data.notes, data.notes
    assert data.ceiling is not None and data.ceiling.row["n_pairs"] == 1174
    blimp = data.benchmarks["blimp"]
    assert {"GPT-2", "trigram (slor)"} <= {e.name for e in blimp.entries}
    assert blimp.human is not None and round(blimp.human.headline, 3) == 0.886
    build_app(data)  # lays out without error


def test_without_the_shipped_thesis_files_the_page_names_the_command(tmp_path):
    import shutil

    from space.data import shipped

    folder = tmp_path / "shipped"
    shutil.copytree(shipped.SHIPPED_DIR, folder, ignore=shutil.ignore_patterns("thesis"))
    data = load_space_data(tmp_path / "results", shipped_dir=folder)
    assert KIND_THESIS not in {m.kind for m in data.models}
    (note,) = data.notes
    assert note == (
        "The thesis's 8 reference models are not shown: their z-scores are not in "
        f"{folder / 'thesis'}; `python -m space snapshot` adds them from the thesis's output files."
    )


_ROWS_SCRIPT = """
import json, socket, sys
real_connect = socket.socket.connect
def connect(self, address):
    if isinstance(address, tuple) and address[0] not in ("127.0.0.1", "::1", "localhost"):
        raise OSError(f"network blocked: {address}")
    return real_connect(self, address)
socket.socket.connect = connect
from space.data.loaders import load_space_data
from space.ui import family_handlers, handlers
data = load_space_data()
boards = {"li_adger": handlers.leaderboard(data, 0.5, []).data.to_dict("split")}
for bench in data.benchmarks:
    boards[bench] = family_handlers.family_leaderboard(data, bench, []).data.to_dict("split")
json.dump({"boards": boards, "notes": data.notes}, sys.stdout, default=str)
"""


def test_the_app_shows_the_same_rows_from_any_folder_with_no_network(tmp_path):
    """Started from two working directories, one of which has the source data (thesis outputs
    included) beside it as ``../shared/data``, with every connection off this machine refused,
    the app shows the same leaderboards: every row comes from the package's shipped files."""
    import json
    import os
    import shutil

    from conftest import SHARED_DATA

    beside = tmp_path / "a" / "work"
    beside.mkdir(parents=True)
    shutil.copytree(
        SHARED_DATA / "thesis-outputs", tmp_path / "a" / "shared" / "data" / "thesis-outputs"
    )
    bare = tmp_path / "b" / "work"
    bare.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ADC_", "LI_ADGER_"))}
    env.update(HF_HUB_OFFLINE="1", LI_ADGER_CACHE=str(tmp_path / "empty-cache"),
               HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9",
               PYTHONPATH=str(ROOT))  # fmt: skip
    out = []
    for cwd in (beside, bare):
        done = subprocess.run([sys.executable, "-c", _ROWS_SCRIPT], cwd=cwd, env=env,
                              capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        out.append(json.loads(done.stdout))
    assert out[0] == out[1]
    board = out[0]["boards"]["li_adger"]
    kinds = [row[board["columns"].index("Kind")] for row in board["data"]]
    assert kinds.count(KIND_THESIS) == 8 and kinds.count(KIND_SHIPPED) == 6, kinds
    assert out[0]["notes"] == []


def test_the_results_folder_is_only_one_the_user_names(tmp_path, monkeypatch):
    from space.data.results_folder import results_dir

    monkeypatch.delenv("ADC_RESULTS_DIR", raising=False)
    assert results_dir() is None  # never ./results of wherever the app starts
    monkeypatch.setenv("ADC_RESULTS_DIR", str(tmp_path))
    assert results_dir() == tmp_path and results_dir("x") == Path("x")
    data = load_space_data(thesis=False)
    assert data.submissions is not None and str(tmp_path) in data.submissions.store.where
    monkeypatch.delenv("ADC_RESULTS_DIR")
    assert load_space_data(thesis=False).submissions is None  # nowhere to keep them


def test_a_results_folder_that_is_a_file_is_said_so(tmp_path):
    path = tmp_path / "results.txt"
    path.write_text("")
    data = load_space_data(path, thesis=False)
    assert any(f"`{path}` is a file, not a folder" in n for n in data.notes), data.notes


def test_results_folder_routes_each_file_to_its_benchmark(tmp_path, li_adger_sentences):
    from li_adger.benchmarks import load_items

    npi = load_items("npi")
    words = dict(zip(npi.units["id"], npi.units["sentence"].str.split().str.len(), strict=True))
    folder = tmp_path / "results"
    write_scores(folder / "wc.jsonl", _word_count(li_adger_sentences), {"model": "wc"})
    write_scores(
        folder / "wc-npi.jsonl",
        [{"id": i, "score": -float(n)} for i, n in words.items()],
        {"model": "wc", "dataset": "npi"},
    )
    write_scores(folder / "glue.jsonl", [{"id": "a", "score": 1.0}], {"dataset": "glue"})
    (folder / "broken.csv").write_text("id,value\nx,1\n")
    (folder / ".wc.jsonl.tmp.jsonl").write_text("half-written")  # an atomic writer's temporary
    out = load_results(folder, load_space_data("/nonexistent", thesis=False).pairs)
    assert [e.name for e in out.li_adger] == ["wc"] and out.li_adger[0].kind == KIND_RESULTS
    # by hand: a pair passes when its good sentence has strictly fewer words
    c = npi.comparisons
    expected = float(
        np.mean([words[g] < words[b] for g, b in zip(c.good_id, c.bad_id, strict=True)])
    )
    assert out.family["npi"][0].headline == pytest.approx(expected, abs=1e-12)
    skipped = dict(out.skipped)
    assert sorted(skipped) == ["broken.csv", "glue.jsonl"]
    assert "expected one of ['li_adger', 'blimp'" in skipped["glue.jsonl"]
    assert "expected the CSV header 'id,score'" in skipped["broken.csv"]


def test_a_results_file_replaces_the_shipped_model_it_rescores(tmp_path, li_adger_sentences):
    folder = tmp_path / "results"
    meta = {"model": "trigram", "variant": "slor"}
    write_scores(folder / "t.jsonl", _word_count(li_adger_sentences), meta)
    data = load_space_data(folder, thesis=False)
    named = [m for m in data.models if m.name == "trigram (slor)"]
    assert [m.kind for m in named] == [KIND_RESULTS]


def test_li_adger_read_from_a_published_dataset_folder_equals_the_package_build(tmp_path):
    from li_adger.__main__ import main as li_adger_main
    from space.data.dataset import load_li_adger

    staged = tmp_path / "li-adger"
    assert li_adger_main(["push", "someone/li-adger", "--dry-run", str(staged)]) == 0
    hub, local = load_li_adger(str(staged)), load_li_adger()
    assert hub.pairs.good_ids == local.pairs.good_ids and hub.pairs.bad_ids == local.pairs.bad_ids
    np.testing.assert_array_equal(hub.pairs.human_delta, local.pairs.human_delta)
    assert hub.frame.equals(local.frame) and hub.labels == local.labels


def test_phenomenon_labels_are_readable_and_unique():
    from space.data.dataset import load_li_adger

    labels = load_li_adger().labels
    assert len(labels) == 233 and len(set(labels.values())) == 233
    assert not any("Linguistic Inquiry" in v or "Core Syntax" in v for v in labels.values())
    assert labels["32.1.martin.1a+2c"] == "Martin (2001) ex. 1a, 2c"


# ----------------------------------------------------------------------------- the board
@pytest.fixture(scope="module")
def offline():
    return load_space_data("/nonexistent", thesis=False)


def test_the_human_ceiling_is_apart_with_the_readme_numbers(offline):
    board = leaderboard_frame(offline, [], 0.5)
    assert "human split-half (LI only)" not in set(board["Model"])
    assert set(board["Pairs"]) == {2365}
    human = readme_row("human split-half (LI only)")
    for delta in (0.5, 1.0, 5.0):
        c = ceiling_frame(offline, [], delta)
        top = c.iloc[0]
        assert top["Model"] == "human split-half (LI only)" and top["Pairs"] == human["pairs"]
        assert top[adc_column(delta)] == human[repr(delta)]
        assert top["BLiMP"] == human["blimp"] and top["Pearson pairs"] == human["pearson_pairs"]
        assert set(c["Pairs"][1:]) == {1174}  # every model on the same LI pairs


def test_models_beside_the_ceiling_are_restricted_to_the_li_pairs(offline):
    trigram = next(m for m in offline.models if m.name == "trigram (slor)")
    c = ceiling_frame(offline, [], 1.0).set_index("Model")
    li = trigram.row["by_group"]["LI"]
    assert c.loc["trigram (slor)", "ADC δ=1.00"] == round(li["adc"]["1.0"], 3)
    assert c.loc["trigram (slor)", "BLiMP"] == round(li["blimp"], 3)


def test_leaderboard_adc_is_non_decreasing_in_delta(toy):
    up = _second_model(toy)
    deltas = [0.1, 0.5, 1.0, 2.0, 5.0]
    frames = [leaderboard_frame(toy, [up], d).set_index("Model") for d in deltas]
    for name in ["toy-length", "toy-long"]:
        values = [f.loc[name, adc_column(d)] for f, d in zip(frames, deltas, strict=True)]
        assert values == sorted(values), (name, values)


def test_leaderboard_numbers_worked_out_by_hand(toy):
    # The toy model scores minus the word count: (g1, b1, g2, b2, g3, b3) = (-4, -4, -4, -5,
    # -2, -3), mean -22/6, population SD sqrt(8/9); so Δlm = (0, a, a) with a = 1/sqrt(8/9)
    # = 1.0607, against Δh = (2.0, 1.0, 1.4). Pair 1 never passes (Δlm = 0 has no sign);
    # pair 2 passes from δ > |1.0 - a| = 0.061, pair 3 from δ > |1.4 - a| = 0.339.
    a = 1 / np.sqrt(8 / 9)
    want = {0.05: 0.0, 0.1: 1 / 3, 0.3: 1 / 3, 0.4: 2 / 3, 5.0: 2 / 3}
    for delta, adc in want.items():
        row = leaderboard_frame(toy, [], delta).iloc[0]
        assert row[adc_column(delta)] == round(adc, 3), delta
    row = leaderboard_frame(toy, [], 0.5).iloc[0]
    assert (row["Model"], row["Pairs"], row["BLiMP"], row["Human-sign"]) == (
        "toy-length", 3, 0.667, 0.667,
    )  # fmt: skip
    r = np.corrcoef([0.0, a, a], [2.0, 1.0, 1.4])[0, 1]
    assert row["Pearson pairs"] == round(r, 3) == -0.918


def test_leaderboard_rows_do_not_depend_on_the_order_of_the_models(toy):
    import dataclasses

    up = _second_model(toy)
    swapped = dataclasses.replace(toy, models=[up, *toy.models])
    a = leaderboard_frame(toy, [up], 0.7).sort_values("Model").reset_index(drop=True)
    b = leaderboard_frame(swapped, [], 0.7).sort_values("Model").reset_index(drop=True)
    pd.testing.assert_frame_equal(a.drop(columns="Kind"), b.drop(columns="Kind"))


def _second_model(data):
    from space.data.entries import entry_from_scores

    # a model that prefers longer sentences: the opposite of the toy's word-count model
    scores = {k: -v for k, v in data.models[0].z.items()}
    return entry_from_scores(scores, data.pairs, name="toy-long", kind=KIND_UPLOAD)


# ----------------------------------------------------------------------------- explorer
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


# ----------------------------------------------------------------------------- uploads
def _csv(path: Path, rows) -> Path:
    path.write_text("id,score\n" + "".join(f"{i},{s}\n" for i, s in rows))
    return path


def test_upload_scores_a_valid_file_and_names_it_uniquely(toy, tmp_path):
    rows = [(i, k) for k, i in enumerate(toy.pairs.judgements)]
    u1 = evaluate_upload(_csv(tmp_path / "mine.csv", rows), toy, [])
    assert (u1.name, u1.benchmark, u1.entry.kind, u1.entry.row["n_pairs"]) == (
        "mine",
        "li_adger",
        KIND_UPLOAD,
        3,
    )
    with pytest.raises(UploadError, match=r"^mine\.csv and mine\.csv both give 'mine' on"):
        evaluate_upload(tmp_path / "mine.csv", toy, [u1])  # one result never replaces another
    assert evaluate_upload(tmp_path / "mine.csv", toy, [u1], name="again").name == "again"
    u3 = evaluate_upload(tmp_path / "mine.csv", toy, [], name="toy-length")
    assert u3.name == "toy-length #2"  # never shadows a shared model


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
    one = evaluate_upload(path, toy, [])
    with pytest.raises(UploadError, match="at most 10"):
        evaluate_upload(path, toy, [one] * MAX_UPLOADS)
    with pytest.raises(UploadError, match="larger than max_bytes=10"):
        evaluate_upload(path, toy, [], max_bytes=10)
    with pytest.raises(UploadError, match="no file"):
        evaluate_upload(None, toy, [])


def test_an_upload_goes_to_the_benchmark_its_metadata_names(offline, tmp_path):
    from li_adger.benchmarks import load_items

    cola = load_items("cola")
    path = tmp_path / "cola.jsonl"
    # a perfect classifier: +1 for acceptable, -1 for unacceptable (first label of a text)
    first = cola.labels.drop_duplicates("id").set_index("id")["label"]
    records = [{"id": i, "score": 1.0 if first[i] else -1.0} for i in cola.units["id"]]
    write_scores(path, records, {"model": "oracle", "kind": "cola", "dataset": "cola"})
    u = evaluate_upload(path, offline, [])
    assert u.benchmark == "cola" and u.entry.kind == KIND_UPLOAD
    # by hand: every label line right but those that contradict the text's first line
    labels = cola.labels
    wrong = int((labels["label"].to_numpy() != first[labels["id"]].to_numpy()).sum())
    assert wrong == 3  # three texts of the out-of-domain set are labelled both ways
    assert u.entry.result["labelled"]["accuracy"] == pytest.approx((1043 - wrong) / 1043)


def test_an_upload_for_an_unknown_benchmark_or_without_sources_is_refused(
    offline, tmp_path, monkeypatch
):
    from space.data import benchmark_data

    path = tmp_path / "x.jsonl"
    write_scores(path, [{"id": "a", "score": 1.0}], {"dataset": "glue"})
    with pytest.raises(UploadError, match=r"x\.jsonl: its 'dataset' metadata is 'glue'"):
        evaluate_upload(path, offline, [])
    write_scores(path, [{"id": "a", "score": 1.0}], {"dataset": "blimp"})
    monkeypatch.setattr(benchmark_data, "_items", {})
    monkeypatch.setattr(benchmark_data, "_unavailable", {})
    monkeypatch.setenv("LI_ADGER_SOURCE", str(tmp_path / "nonexistent"))
    with pytest.raises(UploadError, match="the blimp source files are not available here"):
        evaluate_upload(path, offline, [])


def test_a_cloze_upload_shows_each_models_top_predictions_for_an_item(offline, tmp_path):
    from li_adger.benchmarks import load_items
    from space.ui import family_handlers

    units = load_items("diagnostics").units
    records = [
        {"id": i, "context": c, "completion": w, "score": -1.0 - k % 7, "rank": 1 + k % 9,
         "top": [w, "the", "a"] if k % 9 == 0 else ["the", "a", w]}
        for k, (i, c, w) in enumerate(zip(units["id"], units["context"], units["completion"],
                                          strict=True))
    ]  # fmt: skip
    path = write_scores(tmp_path / "lm.jsonl", records, {"model": "lm", "dataset": "diagnostics"})
    u = evaluate_upload(path, offline, [])
    assert u.benchmark == "diagnostics" and u.entry.result["cloze"]["ranked"]
    text, table = family_handlers.predictions(offline, "diagnostics", "CPRAG-102.0.chess", [u])
    assert "Checkmate" in text and "expected: **chess**" in text
    row = table.data.set_index("Model").loc["lm"]
    # the first unit of the file: rank 1, so its completion is the top prediction
    assert (row["Rank"], row["Top predictions"]) == (1, "chess, the, a")
    breakdown, _ = family_handlers.family_breakdown(
        offline, "diagnostics", "per set", "accuracy@1", [u]
    )
    assert "lm" in breakdown.data.columns


# ----------------------------------------------------------------------------- figures
def test_figures_use_colour_blind_safe_colours(toy):
    from matplotlib.colors import to_hex

    from space.ui import figures, views

    curves = views.adc_curves_figure(toy, [toy.models[0], _second_model(toy)], 0.5)
    colours = {to_hex(ln.get_color()).upper() for ln in curves.axes[0].lines[:2]}
    assert colours <= set(figures.OKABE_ITO)
    heat = views.heatmap_figure(toy, toy.models, 0.5)
    assert heat.axes[0].images[0].get_cmap().name == "cividis"
    pair = views.pair_figure(toy, toy.models[0], 0.5).axes[0]
    assert {to_hex(c.get_facecolor()[0]).upper() for c in pair.collections[1:]} == {
        figures.PASS.upper(),
        figures.FAIL.upper(),
    }


def test_every_li_phenomenon_is_labelled_on_the_heatmap(offline):
    from space.ui import views

    ax = views.heatmap_figure(offline, offline.models, 0.5, "LI").axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    li = {
        p for p, s in zip(offline.pairs.phenomenon, offline.pairs.source, strict=True) if s == "LI"
    }
    assert len(labels) == len(li) == 147
    assert sorted(labels) == sorted(offline.labels[p] for p in li)


# ----------------------------------------------------------------------------- CLI, layout
def test_cli_help_and_bad_options():
    from space.__main__ import parse_args

    out = subprocess.run(
        [sys.executable, "-m", "space", "--help"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0 and "--results DIR" in out.stdout and "snapshot" in out.stdout
    with pytest.raises(SystemExit):
        parse_args(["--port", "0"])


def test_snapshot_refuses_a_file_of_no_benchmark_and_ships_nothing_for_it(tmp_path, capsys):
    from space.data.snapshot import main

    src = tmp_path / "scores"
    write_scores(src / "x.jsonl", [{"id": "a", "score": 1.0}], {"dataset": "glue"})
    assert main(["--from", str(src), "--to", str(tmp_path / "out"), "--no-ceiling"]) == 1
    assert "refused x.jsonl: its 'dataset' metadata is 'glue'" in capsys.readouterr().err
    assert not list((tmp_path / "out").glob("*/x*"))


def test_the_page_has_no_entry_point_of_its_own_and_the_staged_app_uses_the_command():
    import space.ui.app

    assert not hasattr(space.ui.app, "main")
    staged_entry = (ROOT / "space" / "publish.py").read_text()
    assert re.search(r"from space\.__main__ import main", staged_entry)


def test_every_app_module_is_small():
    sizes = {
        p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines())
        for p in (ROOT / "space").rglob("*.py")
    }
    assert max(sizes.values()) <= 400, sizes


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("big.csv", "id,score\ng1," + "9" * 400 + "\n", "big.csv line 2"),
        ("huge.jsonl", '{"id": "g1", "score": ' + "9" * 5000 + "}\n", "huge.jsonl line 1"),
        ("deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n", "deep.jsonl: unknown format"),
        ("wide.csv", "id,score\ng1," + "1" * (200 * 1024) + "\n", "wide.csv line 2"),
    ],
)
def test_an_upload_that_breaks_a_parser_gets_the_app_s_own_message(tmp_path, toy, name,
                                                                     content, message):  # fmt: skip
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(UploadError, match=re.escape(message)) as err:
        evaluate_upload(path, toy, [])
    assert str(tmp_path) not in str(err.value)  # the file's own name, not the server's path


@pytest.mark.parametrize("delta", [0.5, 1.0, 3.0])
def test_the_heatmap_columns_are_in_leaderboard_order(offline, delta):
    import html

    from space.ui import handlers, li_views

    board = list(leaderboard_frame(offline, [], delta)["Model"])
    assert board != [e.name for e in offline.shared_models()]  # a ranking, not the load order
    # the API's /heatmap figure: its columns are its x tick labels (at its top, and at its
    # foot too when it is tall)
    ax = handlers.heatmap(offline, delta, "all", []).axes[0]
    assert list(dict.fromkeys(t.get_text() for t in ax.get_xticklabels())) == board
    # the page's heatmap table: its column headers
    page = li_views.heat_view(offline, delta, "all", [])
    heads = re.findall(r'<th scope="col">(.*?)</th>', page)
    assert [html.unescape(h) for h in heads] == board
