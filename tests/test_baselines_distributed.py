"""Data-parallel scoring (baselines/distributed.py): real 2-process launches on the CPU (gloo)
against one-process runs of the same command."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from baselines_tiny import WORDS, save_tiny_causal_lm
from hypothesis import given
from hypothesis import strategies as st

from baselines.distributed import Launch, launch_from_env, prefix_shard, shard, shard_path
from metric_adc.scores.file import read_scores

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO), "OMP_NUM_THREADS": "1"}


def _rows(n: int) -> list[str]:
    return [f"s{k:04d},{' '.join(WORDS[(k * j) % 20] for j in range(3 + k % 9))}" for k in range(n)]


@pytest.fixture
def dataset(tmp_path) -> Path:
    path = tmp_path / "sentences.csv"
    path.write_text("id,sentence\n" + "\n".join(_rows(120)) + "\n")
    return path


def _score(*args: str, command: str = "score") -> list[str]:
    return ["-m", "baselines", command, *args, "--quiet"]


def torchrun(n: int, *args: str, command: str = "score") -> list[str]:
    """``torchrun --standalone`` (a free port: tests may run side by side) with n processes
    running ``python -m baselines <command>``."""
    return [sys.executable, "-m", "torch.distributed.run", "--standalone",
            "--nproc_per_node", str(n), *_score(*args, command=command)]  # fmt: skip


def one_process(*args: str, command: str = "score") -> list[str]:
    return [sys.executable, *_score(*args, command=command)]


def run(cmd: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=600)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lines(path: Path) -> tuple[dict, list[str]]:
    text = path.read_text(encoding="utf-8").splitlines()
    return json.loads(text[0]), text[1:]


# ---- the pure parts ----


@given(st.lists(st.integers(1, 200), max_size=60), st.integers(1, 5))
def test_shards_cover_every_unit_once_and_balance_the_length(lengths, world_size):
    shards = shard(lengths, world_size)
    assert len(shards) == world_size
    assert sorted(k for s in shards for k in s) == list(range(len(lengths)))
    assert all(s == sorted(s) for s in shards)
    loads = [sum(lengths[k] for k in s) for s in shards]
    if lengths:  # greedy longest-first: loads differ by at most the longest unit
        assert max(loads) - min(loads) <= max(lengths)
    assert shard(lengths, world_size) == shards  # the same split on every process


@given(st.lists(st.text("ab ", min_size=1, max_size=12), max_size=60), st.integers(1, 5))
def test_prefix_shards_are_runs_of_the_sorted_texts_of_nearly_equal_length(keys, world_size):
    shards = prefix_shard(keys, world_size)
    assert len(shards) == world_size
    assert sorted(k for s in shards for k in s) == list(range(len(keys)))
    # each shard is a run of the text order: every text of rank r sorts before rank r+1's
    runs = [sorted(keys[k] for k in s) for s in shards]
    flat = [key for run in runs for key in run]
    assert flat == sorted(keys)
    total = sum(map(len, keys))
    # each cut is within an eighth of a share, or one unit, of an equal share of the length
    off = max(total / (8 * world_size), max(map(len, keys), default=0))
    for run in runs:
        assert abs(sum(map(len, run)) - total / world_size) <= 2 * off
    assert prefix_shard(keys, world_size) == shards


def test_prefix_shards_keep_a_pair_on_one_rank():
    keys = ["The keys to the cabinet are lost.", "The keys to the cabinet is lost.",
            "Who did you see?", "Who did you saw?"]  # fmt: skip
    assert prefix_shard(keys, 2) == [[0, 1], [2, 3]]


def test_the_launch_is_read_from_the_launchers_variables():
    assert launch_from_env({"WORLD_SIZE": "4", "RANK": "3"}) == Launch(4, 3, 3)
    assert launch_from_env({"WORLD_SIZE": "1", "RANK": "0", "LOCAL_RANK": "0"}) is None
    with pytest.raises(ValueError, match=r"WORLD_SIZE must be a whole number .* \(got 'two'\)"):
        launch_from_env({"WORLD_SIZE": "two", "RANK": "0"})


# ---- real launches ----


def test_trigram_on_two_processes_writes_the_one_process_file(dataset, tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    args = ("--model", "trigram", "--dataset", str(dataset))
    assert (done := run(one_process(*args, "--out", str(one)), tmp_path)).returncode == 0, done
    assert (done := run(torchrun(2, *args, "--out", str(two)), tmp_path)).returncode == 0, done
    (meta1, records1), (meta2, records2) = lines(one), lines(two)
    assert records2 == records1  # byte for byte, same order
    assert meta2.pop("world_size") == 2 and "world_size" not in meta1
    meta1.pop("created"), meta2.pop("created")
    assert meta2 == meta1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.jsonl", "sentences.csv", "two.jsonl"]


@pytest.mark.slow
def test_a_tiny_causal_lm_on_two_processes_under_accelerate(dataset, tmp_path):
    model = save_tiny_causal_lm(tmp_path / "tiny", "llama")
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    args = ("--model", str(model), "--dataset", str(dataset), "--device", "cpu")
    assert (done := run(one_process(*args, "--out", str(one)), tmp_path)).returncode == 0, done
    accelerate = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu",
                  "--num_processes", "2", "--num_machines", "1", "--mixed_precision", "no",
                  "--dynamo_backend", "no", "--main_process_port", str(_free_port())]  # fmt: skip
    done = run([*accelerate, *_score(*args, "--out", str(two))], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    a, b = read_scores(one), read_scores(two)
    assert b.ids == a.ids
    assert b.fields["sentence"] == a.fields["sentence"]
    assert b.scores.tolist() == pytest.approx(a.scores.tolist(), abs=1e-4)
    assert b.metadata["world_size"] == 2


@pytest.mark.slow
def test_a_finished_shard_is_reused_by_the_relaunch(dataset, tmp_path):
    """Rank 1 finished its shard file before the launch died: the relaunch takes its records
    as they are (one is marked here) and scores only rank 0's shard."""
    from baselines.registry import build_scorer
    from baselines.run import score_to_file
    from baselines.units import dataset_metadata, load_units

    units = load_units(str(dataset))
    out = tmp_path / "two.jsonl"
    mine = shard([len(t) for t in units.texts], 2)[1]
    finished = score_to_file(
        build_scorer("trigram"), [units.ids[k] for k in mine], [units.texts[k] for k in mine],
        shard_path(out, Launch(2, 1, 1)), dataset=str(dataset), progress=False,
        extra_metadata=dataset_metadata(str(dataset)),
    )  # fmt: skip
    meta, records = lines(finished)
    marked = json.loads(records[0])
    marked["score"] = 1000.0
    finished.write_text("\n".join([json.dumps(meta), json.dumps(marked), *records[1:]]) + "\n")
    done = run(torchrun(2, "--model", "trigram", "--dataset", str(dataset), "--out", str(out)),
               tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    scores = read_scores(out)
    assert scores.ids == units.ids
    assert scores.as_dict()[marked["id"]] == 1000.0
    assert not finished.exists()


@pytest.mark.slow
def test_a_failing_process_fails_the_launch_with_its_error(dataset, tmp_path):
    out = tmp_path / "two.jsonl"
    blocked = shard_path(out, Launch(2, 1, 1))
    blocked.mkdir()  # rank 1 cannot write its shard file
    done = run(torchrun(2, "--model", "trigram", "--dataset", str(dataset), "--out", str(out)),
               tmp_path)  # fmt: skip
    assert done.returncode != 0
    assert f"error: --out must be a file path, not a folder (got {blocked})" in done.stderr
    assert not out.exists()


@pytest.mark.slow
def test_killing_one_process_and_relaunching_resumes_every_shard(tmp_path):
    """SIGKILL rank 1 of a 2-process run of a tiny causal LM; the relaunch keeps both ranks'
    cached records (marked here) and ends with the records of a one-process run."""
    model = save_tiny_causal_lm(tmp_path / "tiny", "llama")
    data = tmp_path / "sentences.csv"
    rows = _rows(600)
    data.write_text("id,sentence\n" + "\n".join(rows) + "\n")
    out = tmp_path / "two.jsonl"
    args = ("--model", str(model), "--dataset", str(data), "--device", "cpu")
    launch = subprocess.Popen(torchrun(2, *args, "--batch-size", "1", "--out", str(out)),
                              cwd=tmp_path, env=ENV, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip

    def partial(rank: int) -> Path | None:
        found = list(tmp_path.glob(f"two.jsonl.rank-{rank}-of-2.jsonl.*.partial"))
        return found[0] if found else None

    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and launch.poll() is None:
        if all(p is not None and p.read_bytes().count(b"\n") > 20 for p in map(partial, (0, 1))):
            break
        time.sleep(0.05)
    assert launch.poll() is None, "the launch ended before it could be killed"
    os.kill(_rank_pid(launch.pid, 1), signal.SIGKILL)
    launch.communicate(timeout=120)
    assert launch.returncode != 0
    assert not out.exists()
    marked = {}
    for rank in (0, 1):  # mark one cached record per rank: a relaunch that rescored would lose it
        path = partial(rank)
        text = path.read_text().splitlines()
        record = json.loads(text[1])
        record["score"] = marked[record["id"]] = 1000.0 + rank
        path.write_text("\n".join([text[0], json.dumps(record), *text[2:]]) + "\n")

    done = run(torchrun(2, *args, "--batch-size", "16", "--out", str(out)), tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    whole = tmp_path / "whole.jsonl"
    assert run(one_process(*args, "--out", str(whole)), tmp_path).returncode == 0
    result, reference = read_scores(out).as_dict(), read_scores(whole).as_dict()
    assert list(result) == [r.split(",")[0] for r in rows]
    for i, score in marked.items():
        assert result.pop(i) == score
        reference.pop(i)
    assert list(result.values()) == pytest.approx(list(reference.values()), abs=1e-4)
    assert not list(tmp_path.glob("two.jsonl.*"))  # shard files and caches are gone


def _parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def _rank_pid(parent: int, rank: int) -> int:
    """The process id of ``rank`` among the descendants of ``parent`` (from /proc)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            env = (entry / "environ").read_bytes().split(b"\0")
            ancestor = _parent_of(int(entry.name))
            while ancestor not in (parent, 0, 1):
                ancestor = _parent_of(ancestor)
        except OSError:
            continue
        if ancestor == parent and f"RANK={rank}".encode() in env:
            return int(entry.name)
    raise AssertionError(f"no process of rank {rank} under {parent}")
