"""Fine-tuning runs (baselines/finetune): the spec's checks, the batches, the CoLA task's sets,
a tiny random encoder through the whole training path, the run folder and its resume."""

from __future__ import annotations

import json
import re

import pytest
from baselines_tiny import save_tiny_bert
from hypothesis import given
from hypothesis import strategies as st

from baselines.finetune import runs
from baselines.finetune.batches import length_grouped_batches, random_batches
from baselines.finetune.cola_task import (
    cola_eval_sets,
    cola_train_set,
    read_analysis_set,
    read_thesis_test,
)
from baselines.finetune.spec import FinetuneSpec
from baselines.finetune.tasks import EvalItem, Task, register_task, task_names
from li_adger.benchmarks.tsv import SourceFormatError

# ---- the spec ----


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"model": ""}, "model must be a Hub name or a local folder (got '')"),
        ({"restart_kind": "seeds"}, "restart_kind must be 'restarts' or 'orders' (got 'seeds')"),
        ({"seeds": ()}, "seeds must name at least one seed (got ())"),
        ({"seeds": (0, -1)}, "seeds must be whole numbers >= 0 (got -1 in (0, -1))"),
        ({"seeds": "012"}, "seeds must be a sequence of whole numbers (got '012')"),
        ({"seeds": (2, 3, 2)}, "seeds must not repeat (got 2 twice)"),
        ({"init_seed": 1.5}, "init_seed must be a whole number >= 0 (got 1.5)"),
        ({"preset": "glue"}, "preset must be one of 'thesis', 'minilm-cola' (got 'glue')"),
        ({"epochs": 0}, "epochs must be a whole number >= 1 (got 0)"),
        (
            {"gradient_accumulation_steps": 0},
            "gradient_accumulation_steps must be a whole number >= 1 (got 0)",
        ),
        ({"batch_size": True}, "batch_size must be a whole number >= 1 (got True)"),
        ({"lr": -1e-5}, "lr must be a number > 0 (got -1e-05)"),
        ({"warmup_ratio": 2.0}, "warmup_ratio must be between 0 and 1.0 (got 2.0)"),
        ({"grouping": "pad32"}, "grouping must be 'length' or 'pad64' (got 'pad32')"),
        ({"train_cap": 0}, "train_cap must be a whole number >= 1 (got 0)"),
        ({"device": "tpu"}, "device must be 'auto', 'cpu' or 'cuda[:N]' (got 'tpu')"),
        ({"precision": "fp8"}, "precision must be one of 'auto', 'fp32', 'fp16', 'bf16'"),
    ],
)
def test_every_option_is_checked_with_a_message_naming_it(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        FinetuneSpec(**options)


def test_the_thesis_preset_and_the_restart_kinds():
    spec = FinetuneSpec(restart_kind="orders", seeds=(4, 9), init_seed=7, lr=3e-5)
    assert (spec.max_length, spec.batch_size, spec.epochs, spec.adam_eps) == (64, 20, 4, 1e-8)
    assert (spec.lr, spec.warmup_ratio, spec.weight_decay) == (3e-5, 0.0, 0.0)  # lr overridden
    assert [spec.seed_pair(s) for s in spec.seeds] == [(7, 4), (7, 9)]
    restarts = FinetuneSpec(seeds=(4, 9), init_seed=7)
    assert [restarts.seed_pair(s) for s in restarts.seeds] == [(4, 4), (9, 9)]
    assert FinetuneSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec
    with pytest.raises(ValueError, match="unknown fine-tuning option 'optimizer'"):
        FinetuneSpec.from_json({**spec.to_json(), "optimizer": "sgd"})


def test_the_command_line_refuses_bad_seeds(capsys):
    from baselines.__main__ import main

    with pytest.raises(SystemExit):
        main(["finetune", "--seeds", "0,x", "--out", "r"])
    assert "expected whole numbers separated by commas" in capsys.readouterr().err
    assert main(["finetune", "--seeds", "1,1", "--out", "r"]) == 2
    assert "error: seeds must not repeat (got 1 twice)" in capsys.readouterr().err


# ---- the batches ----


@given(st.lists(st.integers(1, 64), max_size=300), st.integers(1, 25), st.integers(0, 9))
def test_each_epoch_holds_every_example_once(lengths, batch_size, seed):
    for batches in (
        length_grouped_batches(lengths, batch_size, seed=seed, epoch=1),
        random_batches(len(lengths), batch_size, seed=seed, epoch=1),
    ):
        assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
        assert all(1 <= len(b) <= batch_size for b in batches)
        assert sum(len(b) < batch_size for b in batches) <= -(-len(lengths) // (batch_size * 50))


def test_length_grouping_pads_cola_to_a_fraction_of_64():
    """On CoLA's training set (MiniLM's tokens), the length-grouped batches of 20 hold less than
    a third of the positions of batches padded to 64, and under 1.1 times the real tokens."""
    from transformers import AutoTokenizer

    from baselines.models.minilm import packaged_encoder_path

    tokenizer = AutoTokenizer.from_pretrained(packaged_encoder_path())
    texts = [e.text for e in cola_train_set(None)]
    lengths = [len(ids) for ids in tokenizer(texts, truncation=True, max_length=64)["input_ids"]]
    batches = length_grouped_batches(lengths, 20, seed=0, epoch=0)
    grouped = sum(len(b) * max(lengths[i] for i in b) for b in batches)
    assert grouped < 64 * len(lengths) / 3
    assert grouped < 1.1 * sum(lengths)


# ---- the CoLA task ----


def test_the_cola_sets_and_their_ids():
    sets = cola_eval_sets(None)
    assert list(sets) == [
        "cola_in_domain_dev", "cola_out_of_domain_dev", "thesis_cola_test", "cola_analysis",
        "li_adger",
    ]  # fmt: skip
    sizes = {name: len(items) for name, items in sets.items()}
    assert sizes == {"cola_in_domain_dev": 527, "cola_out_of_domain_dev": 516,
                     "thesis_cola_test": 533, "cola_analysis": 1043, "li_adger": 4178}  # fmt: skip
    # the analysis set holds CoLA's dev sets' sentences, row for row (in-domain, then
    # out-of-domain), but for four rows written differently (e.g. "1 gave Mary after the party
    # a book." for "I gave ..."); its Acceptability column differs from CoLA's label twice
    dev = sets["cola_in_domain_dev"] + sets["cola_out_of_domain_dev"]
    pairs = list(zip(sets["cola_analysis"], dev, strict=True))
    assert [k for k, (a, d) in enumerate(pairs) if a.text != d.text] == [329, 584, 728, 730]
    assert pairs[329][0].text.replace("1", "I", 1) == pairs[329][1].text
    assert sum(a.gold != d.gold for a, d in pairs) == 2
    assert sum(i.gold for i in sets["thesis_cola_test"]) == 372  # SOURCES.md: 372 acceptable
    assert all(i.gold is None for i in sets["li_adger"])
    for items in sets.values():
        assert len({i.id for i in items}) == len(items)
    assert sets["cola_out_of_domain_dev"][0].id == "out_of_domain_dev.1"
    assert len(cola_train_set(FinetuneSpec(train_cap=10))) == 10


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("label,sentence\n1,Go.\n", r"t.csv:1: expected a header with an unnamed first column"),
        (",label,sentence\n0,1,Go.\n0,1,Stop.\n", r"t.csv:3: the index '0' is not a new number"),
        (",label,sentence\n0,1,\n", r"t.csv:2: field 'sentence' is empty"),
        (",label,sentence\n", r"t.csv holds no sentences"),
    ],
)
def test_the_thesis_test_reader_names_file_line_and_field(tmp_path, text, message):
    (tmp_path / "t.csv").write_text(text)
    with pytest.raises(SourceFormatError, match=message):
        read_thesis_test(tmp_path / "t.csv")


def test_the_analysis_reader_names_file_line_and_field(tmp_path):
    path = tmp_path / "a.tsv"
    path.write_text("Source\tAcceptability\tSentence\nx\t1\tGo.\nx\t?\tStop.\n")
    with pytest.raises(SourceFormatError, match=r"a.tsv:3: field 'Acceptability' must be 0 or 1"):
        read_analysis_set(path)
    path.write_text("Source\tLabel\tSentence\nx\t1\tGo.\n")
    with pytest.raises(SourceFormatError, match=r"a.tsv:1: expected 'Acceptability' and 'S"):
        read_analysis_set(path)


# ---- a tiny encoder through the training path ----

TINY_TASK = "tiny-cola"
EVAL = {
    "dev": [EvalItem("d.1", "The keys are lost.", 1), EvalItem("d.2", "The keys is lost.", 0),
            EvalItem("d.3", "Who did you think that solved the problem?", 0)],
    "other": [EvalItem("o.1", "The keys are lost.", None)],
}  # fmt: skip

if TINY_TASK not in task_names():
    register_task(
        TINY_TASK,
        lambda name: Task(name, lambda spec: cola_train_set(spec)[:48], lambda spec: dict(EVAL)),
    )


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return save_tiny_bert(tmp_path_factory.mktemp("tiny"), "BertModel")


def _spec(model, **options):
    settings = {"model": model, "task": TINY_TASK, "configuration": "cola", "epochs": 2,
                "batch_size": 8, "lr": 1e-3, "device": "cpu", "restart_kind": "orders",
                "seeds": (0, 1)}  # fmt: skip
    return FinetuneSpec(**{**settings, **options})


@pytest.fixture(scope="module")
def run_dir(tiny, tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "run"
    runs.run_finetune(_spec(tiny), out, progress=False, log=lambda line: None)
    return out


def test_a_run_folder_holds_one_prediction_file_per_restart(run_dir, tiny):
    run, files = runs.read_run(run_dir)
    assert sorted(p.name for p in run_dir.iterdir()) == [
        "restart-0.jsonl", "restart-1.jsonl", "run.json"]  # fmt: skip
    assert run["format"] == "adc-finetune-run" and run["version"] == 1
    assert run["world_size"] == 1 and run["machine"] and run["created"]
    assert FinetuneSpec.from_json(run["spec"]) == _spec(tiny)
    assert list(files) == [0, 1]
    for seed, path in files.items():
        meta, records = runs.read_restart(path)
        assert meta["format"] == "adc-finetune-predictions"
        assert (meta["seed"], meta["init_seed"], meta["data_seed"]) == (seed, 0, seed)
        assert (meta["restart_kind"], meta["task"], meta["model"]) == ("orders", TINY_TASK, tiny)
        assert meta["train_sentences"] == 48 and meta["train_seconds"] > 0
        assert [(r["set"], r["id"], r["gold"]) for r in records] == [
            (name, i.id, i.gold) for name, items in EVAL.items() for i in items]  # fmt: skip
        for r in records:
            assert list(r) == ["set", "id", "gold", "prediction", "p_unacceptable",
                               "p_acceptable"]  # fmt: skip
            assert r["p_unacceptable"] + r["p_acceptable"] == pytest.approx(1, abs=2e-6)
            assert r["prediction"] == int(r["p_acceptable"] > r["p_unacceptable"])
            assert r["p_acceptable"] == round(r["p_acceptable"], 6)
        # the same sentence in two sets gets the same prediction
        assert records[0]["p_acceptable"] == records[-1]["p_acceptable"]


def test_a_restart_is_the_same_whenever_it_is_run(run_dir, tiny, tmp_path):
    """Restart 1 alone in a new folder gives restart 1's file again (but for its times)."""
    runs.run_finetune(_spec(tiny, seeds=(1,)), tmp_path, progress=False, log=lambda line: None)
    again, before = (runs.read_restart(d / "restart-1.jsonl") for d in (tmp_path, run_dir))
    assert again[1] == before[1]
    assert again[0]["train_loss"] == before[0]["train_loss"]


def test_orders_share_an_initialisation_and_restarts_do_not(tiny, tmp_path):
    """With zero training steps' worth of learning rate effect removed (lr tiny), the
    predictions show the initialisation: the same across orders, different across restarts."""
    quiet = {"progress": False, "log": lambda line: None}
    for kind in ("orders", "restarts"):
        spec = _spec(tiny, restart_kind=kind, lr=1e-12, epochs=1)
        runs.run_finetune(spec, tmp_path / kind, **quiet)
    probs = {
        kind: [
            [
                r["p_acceptable"]
                for r in runs.read_restart(tmp_path / kind / f"restart-{s}.jsonl")[1]
            ]
            for s in (0, 1)
        ]
        for kind in ("orders", "restarts")
    }
    assert probs["orders"][0] == pytest.approx(probs["orders"][1], abs=1e-5)
    assert probs["restarts"][0] != pytest.approx(probs["restarts"][1], abs=1e-3)


def test_a_rerun_trains_only_the_missing_restarts(run_dir, tiny, monkeypatch):
    from baselines.finetune import train

    trained = []

    def fake(spec, task, *, seed, data_seed, **kwargs):
        trained.append(data_seed)
        raise RuntimeError("stop")

    monkeypatch.setattr(train, "finetune_once", fake)
    runs.run_finetune(_spec(tiny), run_dir, progress=False, log=lambda line: None)
    assert trained == []  # every restart is there
    (run_dir / ".restart-2.jsonl.tmp.jsonl").write_text("{}")  # an unfinished file: skipped
    with pytest.raises(RuntimeError, match="stop"):
        runs.run_finetune(_spec(tiny, seeds=(0, 1, 2)), run_dir, progress=False)
    assert trained == [2]


def test_a_restart_made_with_other_settings_is_not_overwritten(run_dir, tiny):
    with pytest.raises(ValueError, match=r"restart-0.jsonl was made with other settings .*lr"):
        runs.run_finetune(_spec(tiny, lr=5e-4), run_dir, progress=False)


def test_gradient_accumulation_halves_the_optimizer_steps(tiny, tmp_path):
    """48 sentences in batches of 4 for 2 epochs: 24 optimizer steps, 12 when each step sums
    2 batches (an effective batch of 8); the settings and run.json record the option."""
    quiet = {"progress": False, "log": lambda line: None}
    metas = {}
    for n in (1, 2):
        spec = _spec(tiny, batch_size=4, gradient_accumulation_steps=n, seeds=(0,))
        assert spec.effective_batch_size == 4 * n
        runs.run_finetune(spec, tmp_path / f"x{n}", **quiet)
        metas[n] = runs.read_restart(tmp_path / f"x{n}" / "restart-0.jsonl")[0]
        run, _ = runs.read_run(tmp_path / f"x{n}")
        assert run["spec"]["gradient_accumulation_steps"] == n
        assert metas[n]["settings"]["gradient_accumulation_steps"] == n
    assert metas[1]["train_sentences"] == metas[2]["train_sentences"] == 48
    assert (metas[1]["optimizer_steps"], metas[2]["optimizer_steps"]) == (24, 12)


def test_the_command_line_refuses_a_bad_accumulation_naming_the_option(capsys):
    from baselines.__main__ import main

    with pytest.raises(SystemExit):
        main(["finetune", "--gradient-accumulation-steps", "0", "--out", "r"])
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith(
        "error: argument --gradient-accumulation-steps: expected an integer >= 1 (got '0')"
    )


def test_a_restart_recorded_before_gradient_accumulation_is_reused(run_dir, tiny, monkeypatch):
    """A restart file whose settings predate the option (no ``gradient_accumulation_steps``)
    trained with 1: a rerun with the default keeps it, one with 2 refuses it."""
    from baselines.finetune import train

    path = run_dir / "restart-1.jsonl"
    text = path.read_text()
    meta, rest = text.split("\n", 1)
    old = json.loads(meta)
    del old["settings"]["gradient_accumulation_steps"]
    path.write_text(json.dumps(old) + "\n" + rest)
    try:
        monkeypatch.setattr(train, "finetune_once", lambda *a, **k: pytest.fail("retrained"))
        runs.run_finetune(_spec(tiny), run_dir, progress=False, log=lambda line: None)
        with pytest.raises(ValueError, match=r"restart-0.jsonl was made with other settings"):
            runs.run_finetune(_spec(tiny, gradient_accumulation_steps=2), run_dir,
                              progress=False)  # fmt: skip
    finally:
        path.write_text(text)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"set": "x", "id": "a", "gold": 1}', r" line 2 \(id 'a'\): missing field 'prediction'"),
        ('{"set": "x", "id": "a", "gold": 2, "prediction": 1, "p_unacceptable": 0.5, '
         '"p_acceptable": 0.5}', r" line 2 \(id 'a'\): 'gold' must be 0, 1 or null \(got 2\)"),
        ("[1]", r" line 2: expected a JSON object \(got list\)"),
        ("{", " line 2: not valid JSON"),
    ],
)  # fmt: skip
def test_a_bad_prediction_file_is_named_with_line_id_and_field(run_dir, tmp_path, line, message):
    meta = (run_dir / "restart-0.jsonl").read_text().splitlines()[0]
    path = tmp_path / "restart-0.jsonl"
    path.write_text(meta + "\n" + line + "\n")
    with pytest.raises(ValueError, match="restart-0.jsonl" + message):
        runs.read_restart(path)


# ---- mixed precision ----


@pytest.mark.parametrize(
    ("precision", "flags"),
    [
        ("fp16", {"bf16": False, "fp16": True}),
        ("bf16", {"bf16": True, "fp16": False}),
        ("fp32", {"bf16": False, "fp16": False}),
        ("auto", {"bf16": False, "fp16": False}),  # auto is fp32 on a CPU
    ],
)
def test_each_precision_sets_its_own_training_flag(precision, flags):
    import torch

    from baselines.finetune.train import _precision_flags

    assert _precision_flags(torch.device("cpu"), precision) == flags


def test_a_bf16_fine_tune_on_the_cpu_predicts_as_fp32_does(tiny):
    """``--precision bf16`` trains under the CPU's bf16 autocast (the Trainer's ``bf16`` flag)
    and predicts under it: the same labels as fp32 on the evaluation sentences and each
    probability within 0.01 of fp32's (bf16 keeps 8 bits of mantissa: about 2 significant
    digits); the training loss is not fp32's to the last digit, so bf16 was in use."""
    from baselines.finetune.tasks import get_task
    from baselines.finetune.train import finetune_once

    task = get_task(TINY_TASK)
    results = {}
    for precision in ("fp32", "bf16"):
        spec = _spec(tiny, precision=precision, seeds=(0,))
        results[precision] = finetune_once(spec, task, seed=0, data_seed=0, progress=False)
    fp32, bf16 = (results[p].predictions for p in ("fp32", "bf16"))
    assert list(fp32) == list(bf16) == list(EVAL)
    for name in EVAL:
        assert [r["prediction"] for r in bf16[name]] == [r["prediction"] for r in fp32[name]]
        for a, b in zip(fp32[name], bf16[name], strict=True):
            assert b["p_acceptable"] == pytest.approx(a["p_acceptable"], abs=0.01)
    assert results["bf16"].train_loss == pytest.approx(results["fp32"].train_loss, abs=0.01)
    assert results["bf16"].train_loss != results["fp32"].train_loss
