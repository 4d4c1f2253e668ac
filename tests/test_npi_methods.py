"""The NPI paper's methods: NPI fine-tuning units, probes, the bag of words and npi-methods,
with a tiny random BERT; the pairs and test ids over the real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from baselines_tiny import save_tiny_bert

from baselines.finetune.npi_tasks import specs_for
from baselines.finetune.runs import model_path, read_restart, run_many
from baselines.finetune.spec import FinetuneSpec
from baselines.npi.bow import glove_vectors, input_embedding_vectors
from baselines.npi.bow_run import run_bow
from baselines.npi.probe import run_probes
from baselines.npi.representations import representations
from li_adger.benchmarks.npi_sets import acceptable, read_probing
from li_adger.benchmarks.npi_units import source_files
from li_adger.sources import find_sources
from metric_adc.cli.npi_methods import npi_methods
from metric_adc.npi_methods.grids import Pair, Unit, acceptability_grid, pair_grid
from metric_adc.npi_methods.inputs import read_pairs

REPO = Path(__file__).resolve().parents[1]
ENVS = ["adverbs", "only"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> str:
    return save_tiny_bert(tmp_path_factory.mktemp("tiny") / "bert", "BertModel")


@pytest.fixture(scope="module")
def paths():
    return find_sources(source_files(ENVS))


def _spec(tiny: str, **kw) -> FinetuneSpec:
    return FinetuneSpec(model=tiny, task="npi", seeds=(0,), epochs=1, batch_size=4,
                        max_length=32, train_cap=8, eval_cap=8, device="cpu", **kw)  # fmt: skip


# ---- the pure grids ----


def _unit(name, train, preds):
    return Unit(name, train, {"npi_test": preds})


def test_acceptability_grid_picks_the_configurations_units():
    ids = {"only": ["o1", "o2"], "adverbs": ["a1", "a2"]}
    right = {"o1": (1, 1, 0.9), "o2": (0, 0, 0.1), "a1": (1, 1, 0.8), "a2": (0, 0, 0.3)}
    wrong = {k: (g, 1 - p, 1 - q) for k, (g, p, q) in right.items()}
    units = [_unit("o", ("only",), right), _unit("a", ("adverbs",), wrong)]
    grid = acceptability_grid(units, ENVS, ids)
    assert grid["1npi"] == {"adverbs": -1.0, "only": 1.0, "wilcox": None}
    # avg-other on only: the adverbs unit; all-but-1 over {adverbs, only}: the same unit
    assert grid["avg-other"]["only"] == grid["all-but-1"]["only"] == -1.0
    assert grid["all"]["only"] is None and grid["cola"]["only"] is None


def test_pair_grid_gradient_flips_when_the_pair_is_swapped():
    preds = {"g": (1, 0, 0.45), "b": (0, 0, 0.2)}
    units = [_unit("o", ("only",), preds)]
    one = pair_grid(units, ["only"], [Pair("only", "licensor", "g", "b")])
    swapped = pair_grid(units, ["only"], [Pair("only", "licensor", "b", "g")])
    cell, other = one["1npi"]["licensor"]["only"], swapped["1npi"]["licensor"]["only"]
    assert (cell["gradient"], other["gradient"]) == (1.0, 0.0)
    assert cell["absolute"] == other["absolute"] == 0.0  # "g" is misclassified
    assert one["1npi"]["scope"]["only"] == {
        "absolute": None,
        "gradient": None,
        "ties": None,
        "pairs": 0,
    }


def test_pair_grid_counts_a_tie_as_a_failure_and_gives_the_share_of_ties():
    # "same" reorders the words of "g": a bag of words gives both the same output
    preds = {"g": (1, 1, 0.7), "same": (0, 1, 0.7), "b": (0, 0, 0.2)}
    units = [_unit("o", ("only",), preds)]
    tied = pair_grid(units, ["only"], [Pair("only", "scope", "g", "same")])["1npi"]["scope"]
    assert tied["only"] == {"absolute": 0.0, "gradient": 0.0, "ties": 1.0, "pairs": 1}
    pairs = [Pair("only", "scope", "g", "same"), Pair("only", "scope", "g", "b")]
    mixed = pair_grid(units, ["only"], pairs)["1npi"]["scope"]["only"]
    assert (mixed["gradient"], mixed["ties"]) == (0.5, 0.5)
    assert pair_grid(units, ["only"], pairs[1:])["1npi"]["scope"]["only"]["ties"] == 0.0


def test_every_minimal_pair_is_two_test_sentences_of_its_environment():
    pairs, test_ids = read_pairs(["adverbs", "only", "simplequestions"])
    paths = find_sources(source_files(["adverbs", "only", "simplequestions"]))
    rows = {r.id: r for e in test_ids for r in read_probing(paths, e, "test")}
    assert len(pairs) > 1000
    for p in pairs:
        good, bad = rows[p.good], rows[p.bad]
        assert (good.acceptable, bad.acceptable) == (1, 0)
        assert good.environment == bad.environment == p.environment
        differs = [
            f for f in ("licensor", "npi_present", "scope") if good.feature(f) != bad.feature(f)
        ]
        assert differs == [p.contrast]


# ---- fine-tuning units ----


def test_npi_units_train_predict_and_feed_npi_methods(tiny, tmp_path, paths):
    runs = [r for c in ("1npi", "all") for r in specs_for(_spec(tiny), c, ENVS, str(tmp_path))]
    outs = run_many(runs, progress=False, save_models=True, log=lambda _: None)
    assert sorted(o.name for o in outs) == ["all", "only-adverbs", "only-only"]
    meta, records = read_restart(tmp_path / "all" / "restart-0.jsonl")
    assert meta["configuration"] == "adverbs+only>adverbs+only"
    assert meta["train_sentences"] == 16  # 8 per environment
    test = {r.id: r for e in ENVS for r in read_probing(paths, e, "test")}
    npi = [r for r in records if r["set"] == "npi_test"]
    assert [r["id"] for r in npi] == [f"{e}.test.{k}" for e in ENVS for k in range(1, 9)]
    for r in npi:
        row = test[r["id"]]
        assert r["gold"] == acceptable(row.npi_present, row.licensor, row.scope)
    assert sum(r["set"] == "wilcox" for r in records) == 104
    assert (model_path(tmp_path / "all", 0) / "config.json").is_file()
    result = npi_methods([str(tmp_path)])
    (model,) = result["models"].values()
    assert model["capped"] and model["units"] == 3
    grid = model["acceptability_mcc"]
    assert grid["1npi"]["only"] is not None and grid["all"]["adverbs"] is not None
    assert grid["all"]["questions"] is None  # not trained or evaluated
    probe = tmp_path / "probe.json"
    done = subprocess.run(
        [sys.executable, "-m", "baselines", "probe", "--run", str(tmp_path / "all"),
         "--environments", "only", "--train-cap", "16", "--test-cap", "16", "--out", str(probe),
         "--quiet"],
        cwd=REPO, env={**os.environ, "HF_HUB_OFFLINE": "1", "LI_ADGER_CACHE": str(tmp_path / "c")},
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(probe.read_text())
    assert data["configuration"] == "adverbs+only>adverbs+only"
    assert {r["environment"] for r in data["rows"]} == {"only"}


# ---- probes and representations ----


def test_representations_are_cached_and_probes_cover_each_feature(tiny, tmp_path, paths):
    texts = [r.sentence for r in read_probing(paths, "only", "test")[:12]]
    first, hit = representations(tiny, texts, cache=tmp_path, progress=False)
    again, hit_again = representations(tiny, texts, cache=tmp_path, progress=False)
    assert (hit, hit_again) == (False, True)
    np.testing.assert_array_equal(first, again)
    assert len(list(tmp_path.glob("*.npy"))) == 1
    rows, costs = run_probes(dict.fromkeys(["only", "simplequestions"], tiny), find_sources(
        source_files(["only", "simplequestions"])), train_cap=24, test_cap=16, cache=tmp_path,
        progress=False)  # fmt: skip
    assert costs["sentences_encoded"] == 2 * (24 + 16)
    by = {(r.environment, r.feature): r for r in rows}
    assert len(by) == 6 and by["only", "licensor"].n_train == 24
    assert all(-1 <= r.mcc <= 1 for r in rows if r.mcc is not None)
    # simple questions have no scope manipulation (Table 3): no probe, said so
    assert (
        by["simplequestions", "scope"].mcc is None
        and "one value" in by["simplequestions", "scope"].note
    )


# ---- the bag of words ----


def test_bow_says_which_vectors_and_writes_npi_run_folders(tiny, tmp_path, paths):
    vectors = input_embedding_vectors(tiny, "tiny")
    assert vectors.source == "input-embeddings:tiny"
    folders = run_bow(vectors, paths, tmp_path, configurations=["1npi", "all"],
                      environments=ENVS, train_cap=40, eval_cap=16, progress=False)  # fmt: skip
    assert sorted(f.name for f in folders) == ["all", "only-adverbs", "only-only"]
    run = json.loads((tmp_path / "all" / "run.json").read_text())
    assert run["spec"]["model"] == "bow:input-embeddings:tiny"
    result = npi_methods([str(tmp_path)])
    assert list(result["models"]) == ["bow:input-embeddings:tiny"]
    assert result["probes"][0]["encoder"] == "input-embeddings:tiny"


def test_glove_vectors_pool_known_words_only(tmp_path):
    glove = tmp_path / "glove.txt"
    glove.write_text("rarely 1 0 0\nany 0 2 0\nthe 0 0 3\n", encoding="utf-8")
    vectors = glove_vectors(glove, ["Rarely", "any", "teachers"])
    assert vectors.source == "glove:glove.txt"
    np.testing.assert_array_equal(
        vectors.pool(["Rarely do any teachers.", "Teachers."]), [[1, 2, 0], [0, 0, 0]]
    )


# ---- a launch of two processes ----


def _finetune(tiny: str, out: Path) -> list[str]:
    return ["-m", "baselines", "finetune", "--task", "npi", "--model", tiny, "--configuration",
            "1npi,all", "--environments", ",".join(ENVS), "--seeds", "0", "--epochs", "1",
            "--batch-size", "4", "--max-length", "32", "--train-cap", "8", "--eval-cap", "8",
            "--device", "cpu", "--out", str(out), "--quiet"]  # fmt: skip


@pytest.mark.slow
def test_two_processes_write_what_one_process_writes(tiny, tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1", "PYTHONPATH": str(REPO)}
    one, two = tmp_path / "one", tmp_path / "two"
    done = subprocess.run([sys.executable, *_finetune(tiny, one)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=1200)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    launch = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--standalone",
        "--nproc_per_node",
        "2",
    ]
    done = subprocess.run([*launch, *_finetune(tiny, two)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=1200)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    units = sorted(p.name for p in one.iterdir())
    assert units == sorted(p.name for p in two.iterdir()) == ["all", "only-adverbs", "only-only"]
    for unit in units:
        meta_one, records_one = read_restart(one / unit / "restart-0.jsonl")
        meta_two, records_two = read_restart(two / unit / "restart-0.jsonl")
        assert records_one == records_two, unit
        assert meta_one["train_loss"] == meta_two["train_loss"]
    assert json.loads((two / "all" / "run.json").read_text())["world_size"] == 2


def test_the_committed_runs_print_every_grid():
    runs = REPO / "runs"
    probes = sorted(str(p) for p in (runs / "npi-minilm-probes").glob("*.json"))
    done = subprocess.run(
        [sys.executable, "-m", "metric_adc", "npi-methods", str(runs / "npi-minilm-finetune"),
         str(runs / "npi-minilm-bow"), *probes, "--json"],
        cwd=REPO, env={**os.environ, "HF_HUB_OFFLINE": "1"}, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    minilm, bow = result["models"]["minilm"], result["models"]["bow:input-embeddings:minilm"]
    # 19 trained units, and one CoLA unit whose restarts are the reused CoLA fine-tunes
    reused = len(list((runs / "npi-minilm-finetune" / "cola").glob("restart-*.jsonl")))
    assert (minilm["units"], bow["units"]) == (19 + reused, 19) and reused >= 1
    assert len(minilm["cola_fine_tunes"]) == reused
    assert minilm["cola_fine_tunes"][0] == "minilm-cola-restarts/model-0"
    assert minilm["capped"] and bow["capped"]
    for grid in (minilm["acceptability_mcc"], bow["acceptability_mcc"]):
        assert all(grid[c]["only"] is not None for c in ("1npi", "avg-other", "all-but-1", "all"))
    assert minilm["acceptability_mcc"]["cola"]["wilcox"] is not None
    assert bow["acceptability_mcc"]["cola"]["only"] is None  # no CoLA bag of words
    assert minilm["minimal_pairs"]["all"]["scope"]["only"]["pairs"] > 0
    assert len(result["probes"]) == len(probes) + 1  # and the bag of words' own
    # every adverbs scope pair reorders the same words: the bag of words ties on them (but
    # for the few whose outputs differ by float noise in the sixth decimal) and fails absolute
    for c in ("1npi", "avg-other", "all-but-1", "all"):
        cell = bow["minimal_pairs"][c]["scope"]["adverbs"]
        assert cell["ties"] > 0.95 and cell["gradient"] < 0.05 and cell["absolute"] == 0.0
    for model in (minilm, bow):
        for cells in model["minimal_pairs"].values():
            for cell in (c for by_env in cells.values() for c in by_env.values()):
                if cell["pairs"]:
                    assert cell["gradient"] + cell["ties"] <= 1.0 + 1e-12  # a tie never wins


def test_the_text_grid_says_a_tie_fails_and_prints_ties_rows_where_there_are_any(capsys):
    from metric_adc.__main__ import main as metric_main

    assert metric_main(["npi-methods", str(REPO / "runs" / "npi-minilm-bow")]) == 0
    out = capsys.readouterr().out
    tables = out.split("Fig. 2, ")[1:]
    assert len(tables) == 3
    assert all("counts as a gradient failure" in t for t in tables)
    npi_present, _, scope = tables
    assert "ties" not in npi_present.split("\n", 1)[1]  # no NPI-present pair ties: no row
    ties = next(line for line in scope.splitlines() if line.startswith("1 NPI ties"))
    assert ties.split()[3] == "1.00"  # ADV: every pair tied


def test_a_cap_that_covers_every_sentence_is_not_called_capped(capsys):
    from metric_adc.__main__ import main as metric_main

    runs = REPO / "runs" / "npi-minilm-finetune"
    # the CoLA unit: its fine-tunes saw all of CoLA, eval_cap 1,000 = every test sentence
    cola = npi_methods([str(runs / "cola")])["models"]["minilm"]
    assert cola["capped"] is False
    assert cola["caps"] == ["eval_cap=1000 covers every test sentence"]
    assert metric_main(["npi-methods", str(runs / "cola")]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "uncapped (eval_cap=1000 covers every test sentence)" in head
    assert "capped (" not in head.replace("uncapped (", "")
    # a 1 NPI unit trained on 1,000 of its environment's 10,000 sentences is capped
    only = npi_methods([str(runs / "only-only")])["models"]["minilm"]
    assert only["capped"] is True
    assert only["caps"] == ["train_cap=1000, eval_cap=1000 covers every test sentence"]


# ---- the CoLA configuration reuses CoLA fine-tunes ----


def _cli(tiny: str, *options: str) -> list[str]:
    return ["finetune", "--model", tiny, "--epochs", "1", "--batch-size", "4", "--max-length",
            "32", "--device", "cpu", "--quiet", *options]  # fmt: skip


def test_the_cola_configuration_evaluates_a_cola_runs_saved_models(
    tiny, tmp_path, paths, monkeypatch, capsys
):
    from baselines.__main__ import main as baselines_main
    from baselines.finetune import train
    from baselines.npi.assign import probe_assignments
    from metric_adc.__main__ import main as metric_main

    cola, npi = tmp_path / "cola", tmp_path / "npi"
    assert baselines_main(_cli(tiny, "--task", "cola", "--seeds", "0,1", "--train-cap", "16",
                               "--save-models", "--out", str(cola))) == 0  # fmt: skip

    def no_training(*args, **kwargs):
        raise AssertionError("the CoLA configuration trained a model")

    monkeypatch.setattr(train, "finetune_once", no_training)
    npi_args = _cli(tiny, "--task", "npi", "--configuration", "cola", "--environments",
                    ",".join(ENVS), "--eval-cap", "8", "--cola-run", str(cola), "--out", str(npi))  # fmt: skip
    assert baselines_main(npi_args) == 0
    assert sorted(p.name for p in (npi / "cola").iterdir()) == [
        "restart-0.jsonl",
        "restart-1.jsonl",
        "run.json",
    ]  # fmt: skip (no model copied)
    run = json.loads((npi / "cola" / "run.json").read_text())
    assert [(f["run"], f["seed"]) for f in run["fine_tunes"]] == [(str(cola), 0), (str(cola), 1)]
    assert run["spec"]["train_cap"] == 16 and run["spec"]["configuration"] == "cola>adverbs+only"
    test = {r.id: r for e in ENVS for r in read_probing(paths, e, "test")}
    probabilities = []
    for seed in (0, 1):
        meta, records = read_restart(npi / "cola" / f"restart-{seed}.jsonl")
        assert meta["fine_tune"]["model"] == str(cola / f"model-{seed}")
        assert meta["train_sentences"] == 16  # the CoLA fine-tune's, recorded by its run
        npi_records = [r for r in records if r["set"] == "npi_test"]
        assert [r["id"] for r in npi_records] == [
            f"{e}.test.{k}" for e in ENVS for k in range(1, 9)
        ]
        for r in npi_records:
            row = test[r["id"]]
            assert r["gold"] == acceptable(row.npi_present, row.licensor, row.scope)
        probabilities.append([r["p_acceptable"] for r in records])
    assert probabilities[0] != probabilities[1]  # two classifiers, not one
    before = {p.name: p.stat().st_mtime_ns for p in (npi / "cola").glob("restart-*")}
    assert baselines_main(npi_args) == 0  # a rerun evaluates nothing again
    assert before == {p.name: p.stat().st_mtime_ns for p in (npi / "cola").glob("restart-*")}

    capsys.readouterr()
    assert metric_main(["npi-methods", str(npi)]) == 0
    out = capsys.readouterr().out
    assert "capped (train_cap=16, eval_cap=8)" in out
    assert "the CoLA configuration reused the fine-tunes cola/model-0, cola/model-1" in out
    cola_row = next(line for line in out.splitlines() if line.startswith("CoLA"))
    grid = npi_methods([str(npi)])["models"][tiny]["acceptability_mcc"]["cola"]
    assert grid["only"] is not None and grid["wilcox"] is not None
    assert f"{grid['only']:.2f}" in cola_row and f"{grid['wilcox']:.2f}" in cola_row

    # probing "with that fine-tuning" reads the reused model where it is saved
    assignments, configuration, _ = probe_assignments(npi / "cola", ["only"])
    assert assignments == {"only": cola / "model-0"} and configuration == "cola>adverbs+only"
    other = npi / "only-only"  # a trained unit whose model was not saved
    other.mkdir()
    (other / "run.json").write_text(json.dumps({"spec": {"configuration": "only>only",
                                                         "seeds": [0], "model": tiny}}))  # fmt: skip
    assert probe_assignments(npi, ["only"], "cola")[0] == {"only": cola / "model-0"}
    with pytest.raises(FileNotFoundError, match="only-only/model-0 does not exist"):
        probe_assignments(npi, ["only"], "1npi")


def test_the_cola_configuration_names_a_folder_it_cannot_reuse(tiny, tmp_path, capsys):
    from baselines.__main__ import main as baselines_main

    npi_run = tmp_path / "npi"
    npi_run.mkdir()
    meta = {"format": "adc-finetune-predictions", "version": 1, "seed": 0,
            "restart_kind": "restarts", "task": "npi"}  # fmt: skip
    (npi_run / "restart-0.jsonl").write_text(json.dumps(meta) + "\n")
    no_models = tmp_path / "no-models"
    no_models.mkdir()
    (no_models / "restart-0.jsonl").write_text(json.dumps({**meta, "task": "cola"}) + "\n")
    cases = [(tmp_path, "not a fine-tuning run"), (npi_run, "not a CoLA run"),
             (no_models, "no saved model")]  # fmt: skip
    for folder, message in cases:
        argv = _cli(tiny, "--task", "npi", "--configuration", "cola", "--cola-run", str(folder),
                    "--out", str(tmp_path / "out"))  # fmt: skip
        assert baselines_main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and str(folder) in err, err
    argv = _cli(tiny, "--task", "npi", "--configuration", "cola", "--out", str(tmp_path / "o"))
    assert baselines_main(argv) == 2  # no built-in CoLA fine-tune of this model
    assert "give --cola-run" in capsys.readouterr().err


def test_without_a_cola_run_the_cola_configuration_reuses_minilm_cola(tmp_path, monkeypatch):
    from baselines.__main__ import main as baselines_main
    from baselines.finetune import train
    from baselines.models.manifest import write_manifest

    models = tmp_path / "models"
    best = Path(save_tiny_bert(models / "minilm-cola" / "best", "BertForSequenceClassification",
                               num_labels=2))  # fmt: skip
    chosen = {"seed": 1, "epoch": 2, "train_loss": 0.5, "dev_mcc": 0.3, "seconds": 10.0}
    settings = {"epochs": 3, "batch_size": 32, "lr": 5e-5, "max_length": 128,
                "weight_decay": 0.01, "warmup_ratio": 0.1, "train_sentences": 8551}  # fmt: skip
    history = [{**chosen, "epoch": e} for e in (1, 2, 3)]
    report = {"best": chosen, "history": history, "settings": settings}
    (best / "report.json").write_text(json.dumps(report))
    write_manifest(best)
    monkeypatch.setenv("LI_ADGER_MODELS", str(models))
    monkeypatch.setattr(train, "finetune_once", lambda *a, **k: pytest.fail("trained a model"))
    out = tmp_path / "npi"
    argv = ["finetune", "--task", "npi", "--configuration", "cola", "--environments", "only",
            "--eval-cap", "8", "--device", "cpu", "--quiet", "--out", str(out)]  # fmt: skip
    assert baselines_main(argv) == 0
    meta, records = read_restart(out / "cola" / "restart-1.jsonl")
    assert meta["fine_tune"]["model"] == "minilm-cola" and meta["fine_tune"]["epoch"] == 2
    assert (
        meta["fine_tune"]["folder"] == str(best) and len(meta["fine_tune"]["manifest_sha256"]) == 64
    )
    assert meta["model"] == "minilm" and meta["settings"]["preset"] == "minilm-cola"
    assert (meta["train_sentences"], meta["train_seconds"]) == (8551, 20.0)  # epochs 1 and 2
    assert sum(r["set"] == "npi_test" for r in records) == 8
    result = npi_methods([str(out)])
    assert result["models"]["minilm"]["cola_fine_tunes"] == ["minilm-cola (seed 1, epoch 2)"]
