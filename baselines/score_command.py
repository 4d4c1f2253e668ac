"""The ``score`` command's run: every dataset read and verified, the scorer built once, then
one scores file per benchmark (kept when an earlier run finished it; one shard per process
under ``torchrun`` or ``accelerate launch``). :mod:`baselines.__main__` parses the command
line and calls :func:`score`."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from baselines.distributed import Launch, rank_device, remove_other_shards, score_units
from baselines.interface import BatchedScorer

if TYPE_CHECKING:
    from baselines.spec import ScoreSpec

__all__ = ["DTYPES", "precision_of", "score"]


DTYPES: dict[str, str] = {
    "auto": "auto",
    "float32": "fp32",
    "float16": "fp16",
    "bfloat16": "bf16",
}
"""``--dtype`` (Hugging Face's names) → ``--precision``: one setting under two names."""


def precision_of(precision: str | None, dtype: str | None) -> str | None:
    """The precision that ``--precision`` and ``--dtype`` ask for together.

    Examples
    --------
    >>> precision_of(None, "bfloat16"), precision_of("fp16", None), precision_of("fp32", "float32")
    ('bf16', 'fp16', 'fp32')
    >>> precision_of("fp16", "bfloat16")
    Traceback (most recent call last):
    ...
    ValueError: --precision fp16 and --dtype bfloat16 disagree: give one of them
    """
    if dtype is None:
        return precision
    if precision is not None and DTYPES[dtype] != precision:
        raise ValueError(f"--precision {precision} and --dtype {dtype} disagree: give one of them")
    return DTYPES[dtype]


def _subset_text(text: str) -> str:
    """``--subset`` as the scores file records it: the names, comma-separated, no spaces."""
    return ",".join(t.strip() for t in text.split(",") if t.strip())


def score(args: argparse.Namespace, launch: Launch | None = None) -> int:
    """Run ``python -m baselines score`` with its parsed ``args`` (one shard of it under a
    ``launch``); returns the exit status. Bad input raises ``ValueError``, ``ImportError`` or
    ``OSError``, which the command prints as one line."""
    from baselines.engines.vllm_args import parse_engine_args
    from baselines.finished import finished_problem, load_all
    from baselines.score_file import run_metadata, scorer_metadata
    from baselines.spec import score_spec
    from baselines.units import DATASETS, can_score, dataset_metadata
    from li_adger.io.atomic import remove_temporaries
    from li_adger.io.inputs import check_not_input

    # every option is checked before anything is read, loaded, converted or trained
    spec = score_spec(
        args.model,
        kind=args.kind,
        variant=args.variant,
        device=rank_device(args.device, launch),
        batch_size=args.batch_size,
        precision=precision_of(args.precision, args.dtype),
        unigram=args.unigram,
        convention=args.convention,
        revision=args.revision,
        runtime=args.runtime,
        packing=args.packing,
        engine=args.engine,
        engine_args=parse_engine_args(args.engine_arg),
        device_map=args.device_map,
        max_memory=args.max_memory,
        offload_folder=args.offload_folder,
        progress=False,
    ).perturbed(
        args.perturbation,
        dataset=args.dataset,
        subset=args.subset,
        shuffles=args.shuffles,
        seed=args.perturbation_seed,
    )
    if args.engine == "vllm" and args.threads is not None:
        raise ValueError(
            "--threads applies to --engine hf; vLLM's CPU worker binds its own threads "
            "(set VLLM_CPU_OMP_THREADS_BIND, e.g. 0-1)"
        )
    if launch is not None and args.device_map is not None:
        raise ValueError(
            "--device-map spreads one model over the devices of one process; under torchrun or "
            "accelerate launch every process holds its own model on its own device"
        )
    if args.threads is not None and spec.kind == "ngram":
        raise ValueError(
            f"--threads applies to neural models, which torch runs; the n-gram scorer "
            f"{spec.model} does not use torch (got --threads {args.threads})"
        )
    if args.threads is not None:
        import torch

        torch.set_num_threads(args.threads)
    every = args.dataset == "all"
    if every and args.subset is not None:
        raise ValueError("--subset names groups of one benchmark; give --dataset blimp, npi or "
                         "diagnostics")  # fmt: skip
    if every and Path(args.out).is_file():
        raise ValueError(f"with --dataset all, --out must be a folder (got the file {args.out})")
    outs = [Path(args.out) / f"{d}.jsonl" for d in DATASETS] if every else [Path(args.out)]
    read = [("--dataset", args.dataset), ("--model", args.model)]
    check_not_input(
        [("--out", out, False) for out in outs], [(o, p) for o, p in read if Path(p).exists()]
    )
    start = time.perf_counter()
    # every dataset is read (its sources verified) before the model is loaded: a bad name or
    # a missing source fails at once, before anything is scored
    datasets = load_all(DATASETS if every else (args.dataset,), subset=args.subset)
    perturbed = _perturbation(spec, datasets)
    data_seconds = time.perf_counter() - start
    if every:
        print(
            f"read and verified {len(datasets)} benchmarks in {data_seconds:.1f} s", file=sys.stderr
        )
        data_seconds = 0.0
    start = time.perf_counter()
    scorer = spec.scorer()
    if launch is not None:  # every rank runs the same run, or none runs
        from baselines.same_run import check_same_run, run_spec

        inputs = {name: (units.ids, units.texts) for name, units in datasets.items()}
        check_same_run(launch, run_spec(vars(args), scorer.metadata(), inputs))
    batch_size = spec.batch_size
    print(f"loaded {scorer.name} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    for dataset, units in datasets.items():
        start = time.perf_counter()
        if not can_score(scorer, units.form):
            reason = (
                f"{dataset} has {units.form} units, which the {scorer.kind} scorer "
                f"{scorer.name} cannot score"
            )
            if not every:
                raise ValueError(f"{reason}; use a causal, masked or n-gram language model")
            print(f"skipping {reason}", file=sys.stderr)
            continue
        if args.limit is not None:
            units = units.head(args.limit)
        out = Path(args.out) / f"{dataset}.jsonl" if every else Path(args.out)
        remove_other_shards(out, launch)  # a killed launch's, of another process count
        extra = {
            **dataset_metadata(dataset),
            **({"limit": args.limit} if args.limit is not None else {}),
            **({"subset": _subset_text(args.subset)} if args.subset is not None else {}),
            **perturbed,
            **_blank(scorer, units),
        }
        if not args.fresh:
            metadata = run_metadata(
                scorer_metadata(scorer, cloze=units.cloze),
                dataset,
                len(units.ids),
                cloze=units.cloze,
                extra_metadata=extra,
            )
            problem = finished_problem(out, metadata, units.ids, units.texts)
            if problem is None:
                remove_temporaries(out.parent, targets=[out.name])  # of a killed rewrite
                print(
                    f"kept {out}: {dataset} was scored by an earlier run with the same model, "
                    "settings and data (--fresh scores it again)",
                    file=sys.stderr,
                )
                continue
            if out.is_file():
                print(f"scoring {dataset} again: {out} {problem}", file=sys.stderr)
        if spec.auto_batch_size:
            from baselines.batch_size import auto_batch_size

            batch_size = auto_batch_size(scorer, units.texts, default=spec.batch_size)
            print(f"--batch-size auto: {batch_size}", file=sys.stderr)
        if spec.batch_size_given:
            extra["batch_size"] = batch_size
        counted = scorer if isinstance(scorer, BatchedScorer) else None
        if counted is not None:
            counted.count_positions()
        loaded = time.perf_counter()
        out = score_units(
            scorer,
            units.ids,
            units.texts,
            out,
            dataset=dataset,
            launch=launch,
            batch_size=batch_size,
            progress=not args.quiet,
            resume=not args.fresh,
            extra_metadata=extra,
            places=units.places,
        )
        done = time.perf_counter()
        if launch is None or launch.is_main:
            print(
                f"wrote {len(units.ids)} scores to {out} "
                f"(model {scorer.name}, kind {scorer.kind}, variant {scorer.variant}; "
                f"data {loaded - start + data_seconds:.1f} s, scoring {done - loaded:.1f} s)",
                file=sys.stderr,
            )
        if counted and counted.positions_share is not None:
            where = "" if launch is None else f" on rank {launch.rank}"
            print(
                f"positions computed{where}: {counted.positions_share:.3f} of the tokens scored "
                f"(packing {counted.packing})",
                file=sys.stderr,
            )
    return 0


def _blank(scorer: Any, units: Any) -> dict:
    """How a blank inside a sentence (the NPI cloze test) was scored, for the metadata."""
    if not units.cloze or not units.texts or not units.texts[0].after:
        return {}
    from baselines.interface import InfillScorer

    if isinstance(scorer, InfillScorer):
        return {"blank": "masked: the completion's probability given both sides"}
    return {"blank": "causal analogue: the whole sentence's log-probability"}


def _perturbation(spec: ScoreSpec, datasets: dict) -> dict:
    """The diagnostics' units replaced by the perturbed ones of ``spec`` (in ``datasets``);
    returns what the scores file records of them (empty without ``--perturbation``)."""
    if spec.perturbation is None:
        return {}
    from baselines.units import load_perturbed_units

    units, metadata = load_perturbed_units(spec.perturbation)
    datasets["diagnostics"] = units
    return metadata
