"""Fine-tuning runs under torchrun (baselines/finetune/runs.py): two CPU processes (gloo) with a
tiny random encoder give the restart files of a one-process run, and a relaunch keeps the
restarts already finished; under ``accelerate launch`` likewise."""

from __future__ import annotations

import json
import shutil
import sys

import pytest
from baselines_tiny import save_tiny_bert
from test_baselines_distributed import _free_port, _score, one_process, run, torchrun

from baselines.finetune.runs import read_restart, read_run

VARYING = ("created", "train_seconds", "machine")  # what two runs of a restart may differ in


def _same_restart(a, b) -> None:
    (meta_a, records_a), (meta_b, records_b) = read_restart(a), read_restart(b)
    assert records_a == records_b  # every prediction and probability, in the same order
    assert {k: v for k, v in meta_a.items() if k not in VARYING} == {
        k: v for k, v in meta_b.items() if k not in VARYING
    }


def _same_run(one, two, seeds, trained) -> tuple[dict, dict]:
    """Run folder ``two`` (2 processes) holds the restarts ``seeds`` of ``one`` (1 process),
    with the same spec; those ``trained`` in both runs have the same predictions and metadata.
    Returns both runs' ``run.json``."""
    (run_one, files_one), (run_two, files_two) = read_run(one), read_run(two)
    assert list(files_one) == list(files_two) == list(seeds)
    for seed in trained:
        _same_restart(files_one[seed], files_two[seed])
    assert (run_one["world_size"], run_two["world_size"]) == (1, 2)
    assert run_one["spec"] == run_two["spec"]
    return run_one, run_two


@pytest.mark.slow
def test_three_orders_on_two_processes_equal_one_process_and_resume(tmp_path):
    """Orders 0, 1, 2 of a tiny encoder on 24 CoLA sentences: in one process, then under
    torchrun with 2 processes into a folder already holding order 2 (rank 0's second, copied
    from the one-process run: a relaunch after rank 0 died must keep it). Every file equals the
    one-process run's; order 2's file is the copy, untouched."""
    model = save_tiny_bert(tmp_path / "tiny", "BertModel")
    args = ("--model", str(model), "--restart-kind", "orders", "--seeds", "0,1,2",
            "--epochs", "1", "--batch-size", "8", "--train-cap", "24", "--device", "cpu")  # fmt: skip
    one, two = tmp_path / "one", tmp_path / "two"
    done = run(one_process(*args, "--out", str(one), command="finetune"), tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    two.mkdir()
    shutil.copy(one / "restart-2.jsonl", two / "restart-2.jsonl")
    kept = (two / "restart-2.jsonl").read_bytes()
    done = run(torchrun(2, *args, "--out", str(two), command="finetune"), tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    # each process trained one order (order 2 was not retrained); the log names the run folder
    assert "rank 0: two restart 0 (1/1)" in done.stdout + done.stderr
    assert "rank 1: two restart 1 (1/1)" in done.stdout + done.stderr
    assert (two / "restart-2.jsonl").read_bytes() == kept
    _same_run(one, two, [0, 1, 2], trained=(0, 1))
    assert sorted(p.name for p in two.iterdir()) == [
        "restart-0.jsonl", "restart-1.jsonl", "restart-2.jsonl", "run.json"]  # fmt: skip
    assert json.loads((two / "run.json").read_text())["restarts"] == [0, 1, 2]


@pytest.mark.slow
def test_two_orders_under_accelerate_launch_equal_one_process(tmp_path):
    """Orders 0 and 1 of a tiny encoder on 16 CoLA sentences, in one process and under
    ``accelerate launch --num_processes 2`` (CPU, gloo, a free port): the same run folder, file
    for file, each process training one order."""
    model = save_tiny_bert(tmp_path / "tiny", "BertModel")
    args = ("--model", str(model), "--restart-kind", "orders", "--seeds", "0,1",
            "--epochs", "1", "--batch-size", "8", "--train-cap", "16", "--device", "cpu")  # fmt: skip
    one, two = tmp_path / "one", tmp_path / "two"
    done = run(one_process(*args, "--out", str(one), command="finetune"), tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    accelerate = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu",
                  "--num_processes", "2", "--num_machines", "1", "--mixed_precision", "no",
                  "--dynamo_backend", "no", "--main_process_port", str(_free_port())]  # fmt: skip
    done = run([*accelerate, *_score(*args, "--out", str(two), command="finetune")], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "rank 0: two restart 0 (1/1)" in done.stdout + done.stderr
    assert "rank 1: two restart 1 (1/1)" in done.stdout + done.stderr
    assert sorted(p.name for p in one.iterdir()) == sorted(p.name for p in two.iterdir()) == [
        "restart-0.jsonl", "restart-1.jsonl", "run.json"]  # fmt: skip
    run_one, run_two = _same_run(one, two, [0, 1], trained=(0, 1))
    assert run_one["restarts"] == run_two["restarts"] == [0, 1]
