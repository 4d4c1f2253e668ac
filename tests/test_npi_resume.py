"""Resuming a multi-unit NPI run (baselines/finetune/runs.py): the finished units are dropped
before the rest are shared out over the ranks, so a relaunch keeps every process busy and trains
only what is missing; a tiny random BERT."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from baselines_tiny import save_tiny_bert
from test_baselines_distributed import ENV, torchrun

from baselines.finetune import runs as runs_module
from baselines.finetune.npi_tasks import specs_for
from baselines.finetune.runs import read_restart, restart_path, run_many, share_unfinished
from baselines.finetune.spec import FinetuneSpec

ENVS = ["adverbs", "only"]
UNITS = ["only-adverbs", "only-only", "all"]  # the list's order: 1 NPI's units, then All


def test_the_unfinished_units_are_shared_out_every_rank_once():
    units = [(i, seed) for i in range(5) for seed in (0, 1)]
    done = [{0: "f", 1: "f"}, {}, {0: "f"}, {1: "f"}, {0: "f", 1: "f"}]
    todo = [(i, s) for i, s in units if s not in done[i]]
    for world_size in (1, 2, 3, 4):
        shares = [share_unfinished(units, done, rank=r, world_size=world_size)
                  for r in range(world_size)]  # fmt: skip
        assert sorted(u for share in shares for u in share) == sorted(todo)
        assert max(map(len, shares)) - min(map(len, shares)) <= 1  # nobody idles needlessly
    # sharing positions first, then dropping the finished, gave rank 0 both units left here
    # and rank 1 none
    units = [(0, 0), (1, 0), (2, 0), (3, 0)]
    done = [{}, {0: "f"}, {}, {0: "f"}]
    assert [share_unfinished(units, done, rank=r, world_size=2) for r in (0, 1)] == [
        [(0, 0)],
        [(2, 0)],
    ]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> str:
    return save_tiny_bert(tmp_path_factory.mktemp("tiny") / "bert", "BertModel")


def _runs(tiny: str, out) -> list:
    spec = FinetuneSpec(model=tiny, task="npi", seeds=(0,), epochs=1, batch_size=4,
                        max_length=32, train_cap=8, eval_cap=8, device="cpu")  # fmt: skip
    return [r for c in ("1npi", "all") for r in specs_for(spec, c, ENVS, str(out))]


def test_a_resumed_launch_trains_only_the_missing_units_on_every_rank(tiny, tmp_path, monkeypatch):
    """A full run; then the files of units 0 and 2 removed (both rank 0's under the old
    sharing) and the relaunch played rank by rank: rank 1 trains unit 2, rank 0 unit 0, and
    nothing else trains; the new files equal the first run's."""
    from baselines import distributed
    from baselines.finetune import train

    out = tmp_path / "npi"
    run_many(_runs(tiny, out), progress=False, log=lambda _: None)
    first = {u: read_restart(restart_path(out / u, 0))[1] for u in UNITS}
    kept = restart_path(out / "only-only", 0).stat().st_mtime_ns
    for unit in ("only-adverbs", "all"):
        restart_path(out / unit, 0).unlink()

    trained: list[str] = []
    real = train.finetune_once

    def counting(spec, *args, **kwargs):
        trained.append(kwargs["work_dir"].name)
        return real(spec, *args, **kwargs)

    monkeypatch.setattr(train, "finetune_once", counting)
    monkeypatch.setattr(runs_module, "_broadcast", lambda finished, launch: finished)
    monkeypatch.setattr(runs_module, "_gather", lambda *args: None)  # one shared folder
    for rank in (1, 0):
        launch = distributed.Launch(world_size=2, rank=rank, local_rank=rank)
        monkeypatch.setattr(distributed, "launch_from_env", lambda launch=launch: launch)
        trained.clear()
        run_many(_runs(tiny, out), progress=False, log=lambda _: None)
        assert trained == {1: ["all"], 0: ["only-adverbs"]}[rank]
    assert restart_path(out / "only-only", 0).stat().st_mtime_ns == kept
    assert {u: read_restart(restart_path(out / u, 0))[1] for u in UNITS} == first
    assert (out / "all" / "run.json").is_file()  # rank 0 wrote the runs' run.json


def _finetune(tiny: str, out) -> list[str]:
    return ["--task", "npi", "--model", tiny, "--configuration", "1npi,all", "--environments",
            ",".join(ENVS), "--seeds", "0", "--epochs", "1", "--batch-size", "4",
            "--max-length", "32", "--train-cap", "8", "--eval-cap", "8", "--device", "cpu",
            "--out", str(out)]  # fmt: skip


@pytest.mark.slow
def test_a_resumed_torchrun_launch_shares_out_the_missing_units(tiny, tmp_path):
    """Two units of three removed from a one-process run's folder; a 2-process torchrun
    relaunch trains one on each rank (rank 0's finished list, broadcast) and the files equal
    the one-process run's."""
    one, two = tmp_path / "one", tmp_path / "two"
    run_many(_runs(tiny, one), progress=False, log=lambda _: None)
    shutil.copytree(one, two)
    for unit in ("only-adverbs", "all"):
        restart_path(two / unit, 0).unlink()
    done = subprocess.run(torchrun(2, *_finetune(tiny, two), command="finetune"), cwd=tmp_path,
                          env=ENV, capture_output=True, text=True, timeout=1200)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    log = done.stdout + done.stderr
    assert "rank 0: only-adverbs restart 0 (1/1)" in log
    assert "rank 1: all restart 0 (1/1)" in log
    assert "only-only restart" not in log
    for unit in UNITS:
        assert (
            read_restart(restart_path(two / unit, 0))[1]
            == read_restart(restart_path(one / unit, 0))[1]
        ), unit
