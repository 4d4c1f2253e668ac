"""Data-parallel scoring: one process per device under ``torchrun`` or ``accelerate launch``.

The same ``python -m baselines score ...`` command, started by a launcher::

    torchrun --nproc_per_node 8 -m baselines score --model M --out scores.jsonl
    accelerate launch --num_processes 8 -m baselines score --model M --out scores.jsonl

runs one process per device (:func:`launch_from_env` reads the launcher's ``WORLD_SIZE``,
``RANK`` and ``LOCAL_RANK``). :func:`score_units` splits the units into one shard per process,
planned by :mod:`baselines.batch_order` (balanced by length; for a scorer that packs by trie,
runs of the units sorted by text that keep shared beginnings on one rank), and each process scores its shard with
:func:`baselines.score_file.score_to_file` into a *shard file* ``<out>.rank-R-of-N.jsonl``, with that
file's own resumable cache. When every shard is done, the records are gathered on rank 0 (over
``torch.distributed`` with the gloo backend, so no shared file system is needed across
machines), which writes the one scores file atomically: the same records, in the same order,
as a one-process run, and ``world_size`` in its metadata. Then the shard files are deleted.

A process that fails makes the launcher stop the others and fail with that process's error;
the final file is not written. Rerunning the same launch (same number of processes) resumes
every shard: a finished shard file is reused, an unfinished one resumes from its cache.

Examples
--------
>>> launch_from_env({"WORLD_SIZE": "2", "RANK": "1", "LOCAL_RANK": "1"})
Launch(world_size=2, rank=1, local_rank=1)
>>> launch_from_env({}) is None
True
>>> rank_shard(["Go.", "The keys are lost.", "Gone."], 2, 1, by_prefix=False)
[0, 2]
"""

from __future__ import annotations

import glob
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.batch_order import rank_shard
from baselines.interface import ClozeUnit, Scorer

__all__ = [
    "Launch",
    "launch_from_env",
    "rank_device",
    "remove_other_shards",
    "score_units",
    "shard_path",
    "start",
    "stop",
]


@dataclass(frozen=True)
class Launch:
    """Where this process stands in a launch: ``world_size`` processes, this one ``rank``
    (``local_rank`` on its machine)."""

    world_size: int
    rank: int
    local_rank: int

    @property
    def is_main(self) -> bool:
        """Whether this is rank 0, the process that writes the scores file."""
        return self.rank == 0


def _env_int(env: Mapping[str, str], name: str) -> int:
    text = env.get(name, "")
    try:
        value = int(text)
    except ValueError:
        raise ValueError(
            f"environment variable {name} must be a whole number set by torchrun or "
            f"accelerate launch (got {text!r})"
        ) from None
    if value < 0:
        raise ValueError(f"environment variable {name} must be at least 0 (got {value})")
    return value


def launch_from_env(env: Mapping[str, str] | None = None) -> Launch | None:
    """The launch this process is part of, from the variables ``torchrun`` and
    ``accelerate launch`` set (``WORLD_SIZE``, ``RANK``, ``LOCAL_RANK``); ``None`` for a
    one-process run (no ``WORLD_SIZE``, or ``WORLD_SIZE=1``). ``env`` defaults to
    :data:`os.environ`.

    Examples
    --------
    >>> launch_from_env({"WORLD_SIZE": "1", "RANK": "0"}) is None
    True
    >>> launch_from_env({"WORLD_SIZE": "2", "RANK": "2", "LOCAL_RANK": "0"})
    Traceback (most recent call last):
    ...
    ValueError: environment variable RANK must be below WORLD_SIZE=2 (got 2)
    """
    env = os.environ if env is None else env
    if "WORLD_SIZE" not in env:
        return None
    world_size = _env_int(env, "WORLD_SIZE")
    if world_size <= 1:
        return None
    rank = _env_int(env, "RANK")
    if rank >= world_size:
        raise ValueError(
            f"environment variable RANK must be below WORLD_SIZE={world_size} (got {rank})"
        )
    local_rank = _env_int(env, "LOCAL_RANK") if "LOCAL_RANK" in env else rank
    return Launch(world_size, rank, local_rank)


def rank_device(device: str, launch: Launch | None, cuda_available: bool | None = None) -> str:
    """The device a process of ``launch`` scores on: with GPUs, ``auto`` and ``cuda`` become
    ``cuda:LOCAL_RANK`` (one GPU per process); anything else is left as asked.

    Examples
    --------
    >>> rank_device("auto", Launch(8, 11, 3), cuda_available=True)
    'cuda:3'
    >>> rank_device("auto", Launch(2, 1, 1), cuda_available=False)
    'auto'
    >>> rank_device("cuda", None, cuda_available=True)
    'cuda'
    """
    if launch is None or device not in ("auto", "cuda"):
        return device
    if cuda_available is None:
        import torch

        cuda_available = torch.cuda.is_available()
    if not cuda_available:
        return device
    return f"cuda:{launch.local_rank}"


def remove_other_shards(out: str | Path, launch: Launch | None) -> list[Path]:
    """Remove the shard files of ``out`` (and their partial files) that a run with another
    number of processes left, saying so on stderr; returns the files this process removed.

    A launch killed before it merged its shards leaves them beside ``out``; a rerun with the
    same number of processes resumes them, but one with another number cannot (its shards
    split the units otherwise), and a results folder must not keep rows of ``out`` twice.
    ``launch=None`` is a one-process run: every shard of ``out`` is another run's.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("s.jsonl.rank-0-of-3.jsonl", "s.jsonl.rank-0-of-3.jsonl.0123456789abcdef.partial",
    ...              "s.jsonl.rank-1-of-2.jsonl", "t.jsonl.rank-0-of-3.jsonl"):
    ...     _ = (d / name).write_text("")
    >>> [p.name for p in remove_other_shards(d / "s.jsonl", Launch(2, 0, 0))]  # says so on stderr
    ['s.jsonl.rank-0-of-3.jsonl', 's.jsonl.rank-0-of-3.jsonl.0123456789abcdef.partial']
    >>> sorted(p.name for p in d.iterdir())
    ['s.jsonl.rank-1-of-2.jsonl', 't.jsonl.rank-0-of-3.jsonl']
    """
    import sys

    from metric_adc.scores.shards import shard_of

    out = Path(out)
    world_size = 1 if launch is None else launch.world_size
    if not out.parent.is_dir():
        return []
    removed = []
    pattern = f"{glob.escape(out.name)}.rank-*-of-*.jsonl"
    shards: dict[Path, list[Path]] = {}  # a shard file (maybe never written) → its files
    for path in sorted([*out.parent.glob(pattern), *out.parent.glob(f"{pattern}.*.partial")]):
        shard_file = path.with_name(re.sub(r"\.[0-9a-f]+\.partial$", "", path.name))
        found = shard_of(shard_file.name)
        if found is not None and found[0] == out.name and found[2] != world_size:
            shards.setdefault(shard_file, []).append(path)
    for shard_file, paths in shards.items():
        gone = []
        for path in paths:
            try:
                path.unlink()
            except FileNotFoundError:  # another rank removed it first
                continue
            gone.append(path)
        if gone:
            world = shard_of(shard_file.name)[2]  # type: ignore[index]
            print(
                f"removed {', '.join(str(p) for p in gone)}: a shard a {world}-process run "
                f"left (this run has {world_size}; its units are scored here)",
                file=sys.stderr,
            )
        removed += gone
    return removed


def shard_path(out: str | Path, launch: Launch) -> Path:
    """The shard file of ``launch``'s process next to the scores file ``out``.

    Examples
    --------
    >>> shard_path("results/trigram.jsonl", Launch(2, 1, 1)).as_posix()
    'results/trigram.jsonl.rank-1-of-2.jsonl'
    """
    from metric_adc.scores.shards import shard_name

    out = Path(out)
    return out.with_name(shard_name(out.name, launch.rank, launch.world_size))


def _read_shard(
    path: Path,
    scorer_meta: Mapping[str, Any],
    dataset: str,
    extra: Mapping[str, Any],
    units: list[dict],
) -> tuple[dict, list[dict]] | None:
    """A finished shard file's metadata and records, if it is this run's shard (same scorer
    settings, dataset and units: ``units`` are each unit's ``id`` and text fields); ``None``
    when it is missing or is not."""
    from baselines.resume import fingerprint

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        meta = json.loads(lines[0])
        records = [json.loads(line) for line in lines[1:]]
    except (OSError, ValueError, IndexError):
        return None
    if not isinstance(meta, dict) or meta.get("dataset") != dataset:
        return None
    theirs = {k: meta.get(k) for k in scorer_meta}
    if fingerprint(theirs, dataset) != fingerprint(scorer_meta, dataset):
        return None
    same = json.dumps({k: meta.get(k) for k in extra}, sort_keys=True, default=str)
    if same != json.dumps(dict(extra), sort_keys=True, default=str) or len(records) != len(units):
        return None
    for record, unit in zip(records, units, strict=True):
        if not isinstance(record, dict) or any(record.get(k) != v for k, v in unit.items()):
            return None
    return meta, records


def _merged_metadata(shard_metas: list[dict | None], total: int, world_size: int) -> dict:
    """The scores file's metadata: a shard's, with the unit count of the whole run and the
    world size (``created`` is set anew when the file is written)."""
    meta = dict(next(m for m in shard_metas if m is not None))
    meta.pop("created", None)
    for key in ("n_units", "n_sentences"):
        if key in meta:
            meta[key] = total
    meta["world_size"] = world_size
    return meta


def score_units(
    scorer: Scorer,
    ids: Sequence[str],
    units: Sequence[str] | Sequence[ClozeUnit],
    out: str | Path,
    *,
    dataset: str,
    launch: Launch | None = None,
    batch_size: int = 64,
    progress: bool = True,
    resume: bool = True,
    extra_metadata: Mapping[str, Any] | None = None,
    places: Mapping[str, str] | None = None,
) -> Path:
    """:func:`baselines.score_file.score_to_file`, across the processes of ``launch`` (see the module
    docs); with no launch, exactly that function. Every process returns ``out``; rank 0 has
    written it when this returns (``torch.distributed`` must be initialised)."""
    from baselines.score_file import (
        check_inputs,
        score_to_file,
        scorer_metadata,
        shares_prefixes,
        text_fields,
    )

    if launch is None:
        return score_to_file(
            scorer,
            ids,
            units,
            out,
            dataset=dataset,
            batch_size=batch_size,
            progress=progress,
            resume=resume,
            extra_metadata=extra_metadata,
            places=places,
        )
    import torch.distributed as dist

    ids, units = check_inputs(ids, units)  # the one-process run's errors, before any scoring
    out = Path(out)
    if not units:
        raise ValueError("no units to score (got an empty dataset)")
    if out.is_dir():
        raise IsADirectoryError(f"--out must be a file path, not a folder (got {out})")
    mine = rank_shard(units, launch.world_size, launch.rank, by_prefix=shares_prefixes(scorer))
    path = shard_path(out, launch)
    extra = dict(extra_metadata or {})
    expected = [{"id": ids[k], **text_fields(units[k])} for k in mine]
    scorer_meta = scorer_metadata(scorer, cloze=isinstance(units[0], ClozeUnit))
    found = _read_shard(path, scorer_meta, dataset, extra, expected) if resume else None
    if mine and found is None:
        score_to_file(
            scorer,
            [ids[k] for k in mine],
            [units[k] for k in mine],
            path,
            dataset=dataset,
            batch_size=batch_size,
            progress=progress and launch.is_main,
            resume=resume,
            extra_metadata=extra,
            places=places,
        )
        found = _read_shard(path, scorer_meta, dataset, extra, expected)
        if found is None:
            raise RuntimeError(f"rank {launch.rank}: the shard file {path} cannot be read back")
    meta, records = found if found is not None else (None, [])
    gathered: list[Any] | None = [None] * launch.world_size if launch.is_main else None
    dist.gather_object((meta, records), gathered, dst=0)
    if gathered is not None:
        from metric_adc.scores.file import write_scores

        by_id = {r["id"]: r for _, shard_records in gathered for r in shard_records}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise RuntimeError(f"the shards lack {len(missing)} units (first {missing[0]!r})")
        metadata = _merged_metadata([m for m, _ in gathered], len(ids), launch.world_size)
        write_scores(out, [by_id[i] for i in ids], metadata)
    dist.barrier()
    path.unlink(missing_ok=True)
    return out


def start(env: Mapping[str, str] | None = None) -> Launch | None:
    """The launch this process is part of (:func:`launch_from_env`), with the process group
    initialised (gloo: it only carries the gathered records, on CPUs and GPUs alike); ``None``
    for a one-process run. Rank 0 gathers over ``MASTER_ADDR``/``MASTER_PORT``, which the
    launchers set."""
    launch = launch_from_env(env)
    if launch is None:
        return None
    import torch.distributed as dist

    if not dist.is_initialized():
        dist.init_process_group("gloo", rank=launch.rank, world_size=launch.world_size)
    return launch


def stop(launch: Launch | None) -> None:
    """Tear the process group of :func:`start` down (nothing for a one-process run)."""
    if launch is None:
        return
    import torch.distributed as dist

    if dist.is_initialized():
        dist.destroy_process_group()
