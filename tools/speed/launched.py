"""The scoring command itself as a row of the engines section: ``python -m baselines score``
in one process, or under ``torchrun`` in several (:mod:`baselines.distributed`).

:func:`measure_launched` writes the sentences to a table file (ids ``u00000``, ...), runs the
command with ``--fresh --quiet`` in a fresh launch and reads back its scores file. The time is
the one rank 0 prints for scoring (from its first unit to the written file: its shard, waiting
for the others' shards and writing the file); loading the model, which every process does at
once, is its ``load_seconds``. The processes score no warm-up sentences first.

Examples
--------
>>> launch_command(2, ["score", "--model", "m"])[:6]  # doctest: +ELLIPSIS
['...', '-m', 'torch.distributed.run', '--standalone', '--nproc_per_node', '2']
>>> parse_seconds("loaded smollm2 in 3.2 s\\nwrote 2 scores to x (...; data 0.0 s, scoring 41.5 s)")
(3.2, 41.5)
"""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["launch_command", "measure_launched", "parse_seconds"]

_LOADED = re.compile(r"^loaded .* in ([0-9.]+) s$", re.MULTILINE)
_SCORING = re.compile(r"scoring ([0-9.]+) s\)$", re.MULTILINE)


def launch_command(processes: int, argv: Sequence[str]) -> list[str]:
    """``python -m baselines ARGV``, under ``torchrun --standalone`` for several processes."""
    if processes < 1:
        raise ValueError(f"processes must be at least 1 (got {processes})")
    if processes == 1:
        return [sys.executable, "-m", "baselines", *argv]
    launcher = [sys.executable, "-m", "torch.distributed.run", "--standalone"]
    return [*launcher, "--nproc_per_node", str(processes), "-m", "baselines", *argv]


def parse_seconds(stderr: str) -> tuple[float, float]:
    """The load and scoring seconds rank 0 printed (the first ``loaded`` line, the ``wrote``
    line)."""
    loaded, scoring = _LOADED.search(stderr), _SCORING.search(stderr)
    if loaded is None or scoring is None:
        raise RuntimeError(f"the scoring command printed no timings: {stderr[-2000:]}")
    return float(loaded.group(1)), float(scoring.group(1))


def measure_launched(
    sentences: Sequence[str],
    *,
    processes: int,
    threads: int | None,
    model: str,
    convention: str | None,
    batch_size: int,
    device: str,
) -> dict[str, Any]:
    """Score ``sentences`` with the scoring command on ``processes`` processes of ``threads``
    torch threads each; returns ``load_seconds``, ``seconds`` and the ``scores`` in order."""
    from metric_adc.scores.file import read_scores

    with tempfile.TemporaryDirectory(prefix="speed-launched-") as folder:
        table, out = Path(folder) / "sentences.csv", Path(folder) / "scores.jsonl"
        ids = [f"u{k:05d}" for k in range(len(sentences))]
        with table.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(["id", "sentence"])
            writer.writerows(zip(ids, sentences, strict=True))
        argv = ["score", "--model", model, "--dataset", str(table), "--out", str(out),
                "--batch-size", str(batch_size), "--device", device, "--fresh", "--quiet"]  # fmt: skip
        if convention is not None:
            argv += ["--convention", convention]
        if threads is not None:
            argv += ["--threads", str(threads)]
        root = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
        env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", PYTHONPATH=path)
        done = subprocess.run(
            launch_command(processes, argv), capture_output=True, text=True, env=env, cwd=folder
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"the scoring command failed on {processes} process(es) (exit {done.returncode}): "
                f"{done.stderr[-2000:]}"
            )
        load_seconds, seconds = parse_seconds(done.stderr)
        by_id = read_scores(out).as_dict()
    return {"load_seconds": load_seconds, "seconds": seconds, "scores": [by_id[i] for i in ids]}
