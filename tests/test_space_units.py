"""The app's parts without a server: loading (offline, from a published folder, results and
kept uploads), the leaderboard and the human ceiling apart, uploads on every benchmark,
keeping uploads locally and on the Hub, figures, the explorer, the command line, the layout.

Expected numbers come from the README (checked against the metric by tests/test_readme.py)
or are computed here by hand from the benchmark's own items, never by the code under test.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from space_helpers import readme_row

from metric_adc.scores.file import ScoresFile, read_scores, write_scores
from space.data.entries import KIND_KEPT, KIND_RESULTS, KIND_SHIPPED, KIND_THESIS, KIND_UPLOAD
from space.data.loaders import load_results, load_space_data
from space.data.store import HUB_FOLDER, HubStore, Kept, LocalStore
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
def test_app_starts_with_no_source_file_and_no_thesis_outputs(tmp_path, monkeypatch):
    from space.ui.app import build_app

    monkeypatch.setenv("LI_ADGER_SOURCE", str(tmp_path / "nonexistent"))
    monkeypatch.delenv("ADC_THESIS_OUTPUTS", raising=False)
    data = load_space_data(tmp_path / "results")
    kinds = {m.name: m.kind for m in data.models}
    assert KIND_THESIS not in kinds.values()
    assert kinds["trigram (slor)"] == KIND_SHIPPED  # the offline model ships with the app
    assert any("ADC_THESIS_OUTPUTS" in n for n in data.notes), data.notes
    assert data.ceiling is not None and data.ceiling.row["n_pairs"] == 1174
    blimp = data.benchmarks["blimp"]
    assert {"GPT-2", "trigram (slor)"} <= {e.name for e in blimp.entries}
    assert blimp.human is not None and round(blimp.human.headline, 3) == 0.886
    build_app(data)  # lays out without error


def test_app_shows_the_thesis_models_when_their_outputs_are_found(tmp_path):
    data = load_space_data(tmp_path / "results")
    thesis = [m for m in data.models if m.kind == KIND_THESIS]
    assert len(thesis) == 8 and not data.notes
    bbu = next(m for m in thesis if m.name == "BERT base-uncased (MLM, PLL)")
    want = readme_row("bert-base-uncased-mlm")
    assert round(bbu.row["adc"]["0.5"], 3) == want["0.5"]
    assert round(bbu.row["blimp"], 3) == want["blimp"]


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


def test_leaderboard_is_the_same_for_every_call(toy):
    assert leaderboard_frame(toy, [], 0.5).equals(leaderboard_frame(toy, [], 0.5))


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
    assert evaluate_upload(tmp_path / "mine.csv", toy, [u1]).name == "mine #2"
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
    from space.ui import handlers

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
    text, table = handlers.predictions(offline, "diagnostics", "CPRAG-102.0.chess", [u])
    assert "Checkmate" in text and "expected: **chess**" in text
    row = table.data.set_index("Model").loc["lm"]
    # the first unit of the file: rank 1, so its completion is the top prediction
    assert (row["Rank"], row["Top predictions"]) == (1, "chess, the, a")
    breakdown, _ = handlers.family_breakdown(offline, "diagnostics", "per set", "accuracy@1", [u])
    assert "lm" in breakdown.data.columns


# ----------------------------------------------------------------------------- keeping
def _kept_upload(toy, tmp_path):
    rows = [(i, k) for k, i in enumerate(toy.pairs.judgements)]
    return evaluate_upload(_csv(tmp_path / "up.csv", rows), toy, [], name="mine")


def test_a_kept_upload_is_written_atomically_with_name_date_and_file(toy, tmp_path):
    import datetime as dt

    u = _kept_upload(toy, tmp_path)
    kept = Kept(LocalStore(tmp_path / "results"))
    kept.keep("li_adger", u.entry, u.sf, name="mine", file="up.csv", taken=set(),
              date=dt.date(2026, 11, 23))  # fmt: skip
    files = sorted(p.name for p in (tmp_path / "results").iterdir())
    assert files == ["mine.jsonl"]  # no temporary left behind
    sf = read_scores(tmp_path / "results" / "mine.jsonl")
    assert sf.metadata["kept"] == {"name": "mine", "date": "2026-11-23", "file": "up.csv"}
    assert sf.as_dict() == u.sf.as_dict()


def test_a_kept_file_holds_no_sentence(offline, tmp_path, li_adger_sentences):
    path = tmp_path / "wc.jsonl"
    records = [{**r, "sentence": s, "n_words": len(s.split())}
               for r, (_, s) in zip(_word_count(li_adger_sentences), li_adger_sentences,
                                    strict=True)]  # fmt: skip
    write_scores(path, records, {"model": "wc"})
    u = evaluate_upload(path, offline, [])
    kept = Kept(LocalStore(tmp_path / "results"))
    kept.keep("li_adger", u.entry, u.sf, name="wc", file="wc.jsonl", taken=set())
    text = (tmp_path / "results" / "wc.jsonl").read_text()
    assert "Kerry attempted to study physics." not in text and '"sentence"' not in text
    assert read_scores(tmp_path / "results" / "wc.jsonl").fields["n_words"][0] == 5


def test_a_kept_upload_is_on_the_leaderboard_after_a_restart(tmp_path, li_adger_sentences):
    folder = tmp_path / "results"
    data = load_space_data(folder, thesis=False)
    path = tmp_path / "wc.jsonl"
    write_scores(path, _word_count(li_adger_sentences), {"model": "wc"})
    u = evaluate_upload(path, data, [], name="my wc")
    data.kept.keep("li_adger", u.entry, u.sf, name="my wc", file="wc.jsonl", taken=set())
    again = load_space_data(folder, thesis=False)
    board = leaderboard_frame(again, [], 0.5).set_index("Model")
    assert board.loc["my wc", "Kind"] == KIND_KEPT
    before = leaderboard_frame(data, [], 0.5).set_index("Model")
    assert board.loc["my wc", "ADC δ=0.50"] == before.loc["my wc", "ADC δ=0.50"]


class FakeHfApi:
    """The four HfApi methods the results store uses, on an in-memory repository."""

    def __init__(self, files: dict[str, bytes] | None = None, *, fail: bool = False):
        self.files = dict(files or {})
        self.calls: list[tuple[str, dict]] = []
        self.fail = fail

    def list_repo_files(self, repo_id, **kwargs):
        self.calls.append(("list_repo_files", {"repo_id": repo_id, **kwargs}))
        if self.fail:
            raise OSError("503 Service Unavailable")
        return sorted(self.files)

    def hf_hub_download(self, *, repo_id, filename, repo_type, local_dir):
        self.calls.append(("hf_hub_download", {"filename": filename, "repo_type": repo_type}))
        out = Path(local_dir) / filename
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(self.files[filename])
        return str(out)

    def create_repo(self, repo_id, **kwargs):
        self.calls.append(("create_repo", {"repo_id": repo_id, **kwargs}))

    def upload_file(self, *, path_or_fileobj, path_in_repo, repo_id, repo_type, commit_message):
        self.calls.append(("upload_file", {"path_in_repo": path_in_repo, "repo_type": repo_type}))
        self.files[path_in_repo] = Path(path_or_fileobj).read_bytes()


def test_keeping_on_the_hub_uploads_to_the_results_repo_and_is_read_at_start_up(
    tmp_path, li_adger_sentences
):
    api = FakeHfApi()
    data = load_space_data(tmp_path / "results", results_repo="someone/adc-results",
                           hub_api=api, thesis=False)  # fmt: skip
    path = tmp_path / "wc.jsonl"
    write_scores(path, _word_count(li_adger_sentences), {"model": "wc"})
    u = evaluate_upload(path, data, [], name="hub wc")
    data.kept.keep("li_adger", u.entry, u.sf, name="hub wc", file="wc.jsonl", taken=set())
    assert sorted(api.files) == [f"{HUB_FOLDER}/hub-wc.jsonl"]
    upload = next(kw for name, kw in api.calls if name == "upload_file")
    assert upload["repo_type"] == "dataset"
    assert not (tmp_path / "results").exists()  # nothing kept locally
    fresh = load_space_data(tmp_path / "results", results_repo="someone/adc-results",
                            hub_api=FakeHfApi(api.files), thesis=False)  # fmt: skip
    assert {m.name: m.kind for m in fresh.models}["hub wc"] == KIND_KEPT


def test_an_unreachable_results_repo_leaves_a_note_and_the_app_starts(tmp_path):
    data = load_space_data(tmp_path / "r", results_repo="someone/adc-results",
                           hub_api=FakeHfApi(fail=True), thesis=False)  # fmt: skip
    assert any("could not be read" in n and "503" in n for n in data.notes), data.notes
    with pytest.raises(Exception, match="cannot list the Hub dataset repository"):
        data.kept.keep("li_adger", data.models[0], ScoresFile({}, ["a"], np.array([1.0])),
                       name="x", file="x", taken=set())  # fmt: skip


def test_hub_store_checks_the_repo_id():
    from li_adger.hub import HubError

    with pytest.raises(HubError, match="expected 'owner/name'"):
        HubStore("not-a-repo", api=FakeHfApi())


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
    assert "refused x.jsonl: x.jsonl: its 'dataset' metadata is 'glue'" in capsys.readouterr().err
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
