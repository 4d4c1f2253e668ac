"""A fine-tuning run's folder: one prediction file per restart, resumable, shared out over ranks.

::

    RUN_DIR/
      run.json               # the spec, created, machine, world_size, wall time (rank 0, last)
      restart-<seed>.jsonl   # one per finished restart, written atomically

A restart file's first line is its metadata (format ``adc-finetune-predictions``, the seeds,
the restart kind, task, configuration, model, training sentences and seconds, created,
machine, and the training ``settings`` it was made with); then one record per evaluation set
and item (:func:`baselines.finetune.train.prediction_record`). Files whose name starts with a
dot or ends in ``.tmp`` are unfinished; readers skip them.

A rerun of the same spec skips every restart whose file is there; a file made with other
settings is an error naming it, never overwritten. Under ``torchrun`` or ``accelerate launch``
the restarts rank 0 finds finished are dropped (its list is broadcast), and process ``rank`` of
``world_size`` trains the others at positions ``rank, rank + world_size, ...`` of what is left
(:func:`share_unfinished`), so a resumed launch keeps every process busy; then the new files
are gathered on rank 0 (gloo; no shared file system needed), which writes the missing ones
and ``run.json``. Each restart depends only on its
seeds, so the files equal those of one process's run. A killed launch resumes by relaunching.

Examples
--------
>>> my_seeds((0, 1, 2, 3, 4), rank=1, world_size=2)
(1, 3)
>>> restart_path("run", 7).name
'restart-7.jsonl'
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from baselines.finetune.spec import FinetuneSpec, complete_settings
from li_adger.io.atomic import atomic_write_text
from metric_adc.chapter2.runs import (
    RESTART_FORMAT,
    RESTART_VERSION,
    RUN_FORMAT,
    read_restart_lines,
)

__all__ = [
    "PREDICTIONS_FORMAT",
    "RUN_FORMAT",
    "finished_restarts",
    "model_path",
    "my_seeds",
    "read_restart",
    "read_run",
    "restart_path",
    "run_finetune",
    "run_many",
    "share_unfinished",
    "write_run_json",
]

PREDICTIONS_FORMAT = RESTART_FORMAT
VERSION = RESTART_VERSION
_LAUNCH_VARIABLES = ("WORLD_SIZE", "RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "GROUP_RANK")


def restart_path(run_dir: str | Path, seed: int) -> Path:
    """The file of restart ``seed`` in ``run_dir``."""
    return Path(run_dir) / f"restart-{seed}.jsonl"


def my_seeds(seeds: Sequence[int], *, rank: int, world_size: int) -> tuple[int, ...]:
    """The seeds process ``rank`` of ``world_size`` trains: every ``world_size``-th from its rank."""
    return tuple(seeds[rank::world_size])


def share_unfinished(
    units: Sequence[tuple[int, int]],
    done: Sequence[Mapping[int, Any]],
    *,
    rank: int,
    world_size: int,
) -> list[tuple[int, int]]:
    """The (run, seed) units process ``rank`` of ``world_size`` trains: the finished ones
    (``done[run]`` holds their seeds) dropped first, then every ``world_size``-th of the rest
    from its rank, so a resumed launch keeps every process busy. Under a launch ``done`` is
    rank 0's (:func:`run_many` broadcasts it), so all ranks share out the same list.

    Examples
    --------
    >>> units = [(0, 0), (1, 0), (2, 0), (3, 0)]
    >>> done = [{0: "f"}, {}, {0: "f"}, {}]  # runs 0 and 2 finished
    >>> [share_unfinished(units, done, rank=r, world_size=2) for r in (0, 1)]
    [[(1, 0)], [(3, 0)]]
    """
    todo = [(i, seed) for i, seed in units if seed not in done[i]]
    return todo[rank::world_size]


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def restart_metadata(spec: FinetuneSpec, seed: int, result: Any, machine: str) -> dict[str, Any]:
    """The first line of restart ``seed``'s file."""
    init_seed, data_seed = spec.seed_pair(seed)
    return {
        "format": PREDICTIONS_FORMAT,
        "version": VERSION,
        "seed": seed,
        "init_seed": init_seed,
        "data_seed": data_seed,
        "restart_kind": spec.restart_kind,
        "task": spec.task,
        "configuration": spec.configuration,
        "model": spec.model,
        "train_sentences": result.train_sentences,
        "train_tokens": result.train_tokens,
        "train_seconds": result.train_seconds,
        "train_loss": round(result.train_loss, 6),
        "optimizer_steps": result.optimizer_steps,
        "created": _now(),
        "machine": machine,
        "settings": spec.training_settings(),
    }


def restart_text(meta: dict[str, Any], predictions: dict[str, list[dict[str, Any]]]) -> str:
    """A restart file's text: the metadata line, then every set's records in order."""
    lines = [json.dumps(meta)]
    lines.extend(json.dumps(r) for records in predictions.values() for r in records)
    return "\n".join(lines) + "\n"


def read_restart(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The metadata and records of a restart file, read and checked by the metric's reader of
    the format, :func:`metric_adc.chapter2.runs.read_restart_lines` (its doctest shows the error
    a bad line gives: file, line, id and field)."""
    return read_restart_lines(path)


def read_run(run_dir: str | Path) -> tuple[dict[str, Any], dict[int, Path]]:
    """``run.json`` of a finished run and its restart files by seed (unfinished files skipped)."""
    run_dir = Path(run_dir)
    path = run_dir / "run.json"
    if not path.is_file():
        raise FileNotFoundError(f"{run_dir} is not a fine-tuning run: {path} does not exist")
    run = json.loads(path.read_text(encoding="utf-8"))
    if run.get("format") != RUN_FORMAT:
        raise ValueError(f"{path}: field 'format' must be {RUN_FORMAT!r}")
    return run, finished_restarts(run_dir)


def finished_restarts(run_dir: str | Path) -> dict[int, Path]:
    """The restart files in ``run_dir`` by seed (dot-prefixed and ``*.tmp`` files skipped)."""
    out = {}
    for path in sorted(Path(run_dir).glob("restart-*.jsonl")):
        seed = path.stem.removeprefix("restart-")
        if seed.isdigit() and not path.name.startswith("."):
            out[int(seed)] = path
    return dict(sorted(out.items()))


def _reusable(path: Path, spec: FinetuneSpec, seed: int) -> bool:
    meta, _ = read_restart(path)
    init_seed, data_seed = spec.seed_pair(seed)
    mine = {"settings": spec.training_settings(), "init_seed": init_seed, "data_seed": data_seed}
    if isinstance(meta.get("settings"), dict):
        meta = {**meta, "settings": complete_settings(meta["settings"])}
    for name, value in mine.items():
        if meta.get(name) != value:
            raise ValueError(
                f"{path} was made with other settings ({name}: {meta.get(name)!r}, this run "
                f"{value!r}); give this run another --out, or remove the file"
            )
    return True


@contextlib.contextmanager
def _one_process_view() -> Iterator[None]:
    """Hide the launcher's variables: each process trains its restarts on its own, and the
    Trainer must not wrap the model for data-parallel training."""
    saved = {k: os.environ.pop(k) for k in _LAUNCH_VARIABLES if k in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def _pin_gpu(local_rank: int) -> None:
    """One GPU per process: GPU ``local_rank`` becomes this process's ``cuda`` device (the
    one the Trainer, seeing a one-process run, trains on)."""
    import torch

    torch.cuda.set_device(local_rank)


def model_path(run_dir: str | Path, seed: int) -> Path:
    """The folder restart ``seed``'s fine-tuned model is saved to (``save_models=True``).

    Examples
    --------
    >>> model_path("run", 3).name
    'model-3'
    """
    return Path(run_dir) / f"model-{seed}"


def run_finetune(
    spec: FinetuneSpec,
    out: str | Path,
    *,
    progress: bool = True,
    log: Any = None,
    save_models: bool = False,
) -> Path:
    """Train every restart of ``spec`` not yet in ``out`` (this process's share under a
    launcher) and write ``out/run.json``; return ``out``. ``log`` is called with one line per
    restart (default: print). ``save_models`` keeps each restart's model in
    :func:`model_path` (on the rank that trained it)."""
    run_many([(spec, out)], progress=progress, log=log, save_models=save_models)
    return Path(out)


def run_many(
    runs: Sequence[tuple[FinetuneSpec, str | Path]],
    *,
    progress: bool = True,
    log: Any = None,
    save_models: bool = False,
) -> list[Path]:
    """Several runs as one list of units, each a (run, seed), shared out over the ranks.

    The list is the runs in order, each run's seeds in order; finished units are dropped from
    it, and process ``rank`` of ``world_size`` trains the rest at positions ``rank, rank +
    world_size, ...`` (:func:`share_unfinished`; for one fresh run this is :func:`my_seeds`);
    rank 0 gathers every new file and writes each run's ``run.json``.
    """
    from baselines.device import cpu_name
    from baselines.distributed import launch_from_env
    from baselines.finetune.tasks import get_task

    started, started_at = time.perf_counter(), _now()
    runs = [(spec, Path(out)) for spec, out in runs]
    for _, out in runs:
        if out.exists() and not out.is_dir():
            raise NotADirectoryError(f"--out must be a folder (got the file {out})")
    log = log or (lambda line: print(line, flush=True))
    tasks = {spec.task: get_task(spec.task) for spec, _ in runs}
    launch = launch_from_env()
    rank, world_size = (0, 1) if launch is None else (launch.rank, launch.world_size)
    done: list[dict[int, Path]] = []
    for spec, out in runs:
        files = finished_restarts(out) if out.is_dir() else {}
        for seed, path in files.items():
            if seed in spec.seeds:
                _reusable(path, spec, seed)
        done.append(files)
    finished = [set(files) for files in done]
    if launch is not None:  # every rank takes rank 0's view (a folder need not be shared)
        finished = _broadcast(finished, launch)
    units = [(i, seed) for i, (spec, _) in enumerate(runs) for seed in spec.seeds]
    todo = share_unfinished(units, finished, rank=rank, world_size=world_size)
    machine = cpu_name()
    if todo:
        from baselines.finetune.train import finetune_once

        if launch is not None and runs[0][0].device in ("auto", "cuda"):
            import torch

            if torch.cuda.is_available():
                _pin_gpu(launch.local_rank)
        sets: dict[int, Any] = {}
        with _one_process_view():
            for k, (i, seed) in enumerate(todo, start=1):
                spec, out = runs[i]
                task = tasks[spec.task]
                if i not in sets:  # read once for all of a run's seeds
                    sets = {i: (task.train_set(spec), task.eval_sets(spec))}
                train_set, eval_sets = sets[i]
                out.mkdir(parents=True, exist_ok=True)
                init_seed, data_seed = spec.seed_pair(seed)
                result = finetune_once(spec, task, seed=init_seed, data_seed=data_seed,
                                       train_set=train_set, eval_sets=eval_sets,
                                       progress=progress, work_dir=out,
                                       save_to=model_path(out, seed) if save_models else None)  # fmt: skip
                meta = restart_metadata(spec, seed, result, machine)
                atomic_write_text(restart_path(out, seed), restart_text(meta, result.predictions))
                log(f"rank {rank}: {out.name} restart {seed} ({k}/{len(todo)}) done in "
                    f"{result.train_seconds:.0f} s, loss {result.train_loss:.4f}")  # fmt: skip
    if launch is not None:
        _gather(runs, todo, launch)
    if rank == 0:
        seconds = time.perf_counter() - started
        for spec, out in runs:
            write_run_json(out, spec, machine, world_size, seconds, started_at)
    return [out for _, out in runs]


def _join(launch: Any) -> None:
    """Join the launch's gloo group (once; ranks may finish hours apart)."""
    import torch.distributed as dist

    if not dist.is_initialized():
        dist.init_process_group("gloo", rank=launch.rank, world_size=launch.world_size,
                                timeout=_dt.timedelta(days=7))  # fmt: skip


def _broadcast(finished: list[set[int]], launch: Any) -> list[set[int]]:
    """Rank 0's finished seeds per run, on every rank: all share out the same list."""
    import torch.distributed as dist

    _join(launch)
    box: list[Any] = [finished]
    dist.broadcast_object_list(box, src=0)
    return box[0]


def _gather(runs: Sequence[tuple[FinetuneSpec, Path]], mine: Sequence[tuple[int, int]],
            launch: Any) -> None:  # fmt: skip
    """Every rank's new restart files onto rank 0 (which writes those it lacks); waits for all."""
    import torch.distributed as dist

    texts = {(i, s): restart_path(runs[i][1], s).read_text(encoding="utf-8") for i, s in mine}
    _join(launch)
    gathered: list[Any] | None = [None] * launch.world_size if launch.is_main else None
    dist.gather_object(texts, gathered, dst=0)
    if gathered is not None:
        for share in gathered:
            for (i, seed), text in share.items():
                path = restart_path(runs[i][1], seed)
                if not path.is_file():
                    atomic_write_text(path, text)
    dist.barrier()
    dist.destroy_process_group()


def write_run_json(
    out: Path,
    spec: FinetuneSpec,
    machine: str,
    world_size: int,
    seconds: float,
    started: str | None = None,
    *,
    extra: dict[str, Any] | None = None,
) -> None:
    """Write ``out/run.json`` once every restart of ``spec`` has its file (``extra``: more
    fields, e.g. the fine-tunes a reused unit evaluated)."""
    import torch
    import transformers

    path = out / "run.json"
    previous = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    files = finished_restarts(out)
    missing = [s for s in spec.seeds if s not in files]
    if missing:
        raise RuntimeError(f"restart {missing[0]} has no file in {out} after the run")
    train_seconds = [read_restart(files[s])[0]["train_seconds"] for s in spec.seeds]
    run = {
        "format": RUN_FORMAT,
        "version": VERSION,
        "spec": spec.to_json(),
        "created": previous.get("created", started or _now()),  # when the first launch started
        "finished": _now(),
        "machine": machine,
        "world_size": world_size,
        "restarts": list(spec.seeds),
        "train_seconds": round(sum(train_seconds), 1),
        "wall_seconds": round(seconds + previous.get("wall_seconds", 0.0), 1),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        **(extra or {}),
    }
    atomic_write_text(path, json.dumps(run, indent=2) + "\n")
