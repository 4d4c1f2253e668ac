"""The engines section of the speed benchmark: SmolLM2 on the ``hf`` engine and on vLLM.

``python -m tools.speed.engines`` scores the same BLiMP sentences (a seeded sample of its
unique sentences, :func:`blimp_sentences`) with each engine of ``python -m baselines score
--engine``, every engine in a fresh process (:func:`tools.speed.measure.measure`, tool
``engine``): the ``hf`` engine in this interpreter, vLLM in the interpreter of the environment
that has it (``--vllm-python``, default ``.venv-vllm/bin/python``). Each process loads the
model, scores warm-up sentences untimed (vLLM's first requests are slow), then the sentences
in calls of ``--batch-size``. After the ``hf`` engine come the rows of the scoring command
itself on the ``hf`` engine (``--processes``: 1 process, and 2 processes of 1 thread each under
``torchrun``, :mod:`tools.speed.launched`). It prints each row's load time, sentences per
second and largest |Δ| from the ``hf`` engine's scores (one process: the reference), and with
``--json`` saves them. Method and results: ``docs/speed.md`` (Engines).

Examples
--------
>>> result = {"machine": {"cpu": "X", "cpus": 2}, "n_sentences": 2, "seed": 0,
...           "convention": "default", "model": "smollm2",
...           "engines": [{"engine": "hf", "load_seconds": 1.0, "seconds": 0.5,
...                        "sentences_per_s": 4.0, "max_abs_diff": 0.0},
...                       {"engine": "vllm", "load_seconds": 30.0, "seconds": 1.0,
...                        "sentences_per_s": 2.0, "max_abs_diff": 0.0057}]}
>>> print(format_engines(result))
engines: smollm2 on 2 BLiMP sentences (seed 0, convention default); X, 2 CPUs
engine                 load s   sentences/s   max |Δ| from hf
hf                        1.0          4.00           0.0e+00
vllm                     30.0          2.00           5.7e-03
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from li_adger.io.atomic import atomic_write_text
from tools.speed.measure import measure

__all__ = ["blimp_sentences", "build_parser", "format_engines", "main", "run_engines"]

REPO = Path(__file__).resolve().parents[2]
DEFAULT_VLLM_PYTHON = REPO / ".venv-vllm" / "bin" / "python"


def blimp_sentences(n: int, *, seed: int = 0) -> list[str]:
    """``n`` of BLiMP's unique sentences drawn at random (``numpy.random.default_rng(seed)``),
    in BLiMP's order.

    Examples
    --------
    >>> len(blimp_sentences(5)), blimp_sentences(5) == blimp_sentences(5, seed=0)
    (5, True)
    """
    import numpy as np

    from baselines.units import load_units

    texts = load_units("blimp").texts
    if not 1 <= n <= len(texts):
        raise ValueError(f"n must be between 1 and {len(texts)} (got {n})")
    chosen = np.sort(np.random.default_rng(seed).choice(len(texts), size=n, replace=False))
    return [texts[i] for i in chosen.tolist()]


def build_parser() -> argparse.ArgumentParser:
    """The engines section's argument parser.

    Examples
    --------
    >>> args = build_parser().parse_args(["--n-sentences", "200"])
    >>> args.n_sentences, args.engines, args.batch_size
    (200, ['hf', 'vllm'], 64)
    """
    p = argparse.ArgumentParser(
        prog="python -m tools.speed.engines", description=(__doc__ or "").split("\n\n")[0]
    )
    p.add_argument("--n-sentences", type=int, default=2000, help="BLiMP sentences (2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sentence sample (0)")
    p.add_argument("--model", default="smollm2", help="a causal LM both engines run (smollm2)")
    p.add_argument("--convention", choices=("default", "harness"), default="default")
    p.add_argument(
        "--engines", nargs="+", choices=("hf", "vllm"), default=["hf", "vllm"], help="hf first"
    )
    p.add_argument(
        "--processes",
        type=int,
        nargs="*",
        default=[1, 2],
        help="rows of the scoring command on the hf engine: 1 process, or N under torchrun "
        "with 1 thread each (default: 1 2; none: no such rows)",
    )
    p.add_argument("--batch-size", type=int, default=64, help="sentences per call (64)")
    p.add_argument("--device", default="cpu", help="cpu (default), cuda or auto: both engines")
    p.add_argument("--threads", type=int, help="torch threads of the hf engine")
    p.add_argument("--warmup", type=int, default=16, help="untimed warm-up sentences (16)")
    p.add_argument(
        "--vllm-python",
        type=Path,
        default=DEFAULT_VLLM_PYTHON,
        help="the python of the environment with vLLM (default .venv-vllm/bin/python)",
    )
    p.add_argument(
        "--engine-arg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an argument of vllm.LLM, as for python -m baselines score (repeatable)",
    )
    p.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    return p


def run_engines(
    sentences: Sequence[str],
    *,
    model: str,
    engines: Sequence[str],
    convention: str,
    batch_size: int,
    device: str,
    threads: int | None,
    warmup: int,
    vllm_python: Path,
    engine_args: dict[str, Any],
    processes: Sequence[int] = (),
) -> list[dict[str, Any]]:
    """One measurement per engine, in a fresh process each, the rows of the scoring command
    on ``processes`` processes after the ``hf`` engine's; ``max_abs_diff`` against the first
    engine's scores (``hf``: the single-process reference)."""
    from tools.speed.launched import measure_launched

    rows: list[dict[str, Any]] = []
    reference = None

    def add(name: str, answer: dict[str, Any]) -> None:
        nonlocal reference
        scores = answer["scores"]
        reference = scores if reference is None else reference
        rows.append(
            {
                "engine": name,
                "load_seconds": answer["load_seconds"],
                "seconds": answer["seconds"],
                "sentences_per_s": len(sentences) / answer["seconds"],
                "max_abs_diff": max(abs(a - b) for a, b in zip(scores, reference, strict=True)),
                "scores": scores,
            }
        )

    for engine in engines:
        request: dict[str, Any] = {
            "tool": "engine",
            "engine": engine,
            "model": model,
            "convention": convention,
            "device": device,
            "batch_size": batch_size,
            "sentences": list(sentences),
            "warmup": list(sentences[:warmup]),
        }
        if engine == "vllm":
            request["engine_args"] = engine_args
        elif threads is not None:
            request["threads"] = threads
        add(engine, measure(request, python=str(vllm_python) if engine == "vllm" else None))
        for n in processes if engine == "hf" else ():
            each = 1 if n > 1 else threads
            launched = measure_launched(
                sentences,
                processes=n,
                threads=each,
                model=model,
                convention=convention,
                batch_size=batch_size,
                device=device,
            )
            add(f"hf score {n}×{each or 'auto'}", launched)
    return rows


def format_engines(result: dict[str, Any]) -> str:
    """The printed section: the setting, then one line per engine."""
    machine = result["machine"]
    lines = [
        f"engines: {result['model']} on {result['n_sentences']} BLiMP sentences "
        f"(seed {result['seed']}, convention {result['convention']}); "
        f"{machine['cpu']}, {machine['cpus']} CPUs",
        f"{'engine':<19}{'load s':>8}{'sentences/s':>14}{'max |Δ| from hf':>18}",
    ]
    for row in result["engines"]:
        lines.append(
            f"{row['engine']:<19}{row['load_seconds']:>8.1f}{row['sentences_per_s']:>14.2f}"
            f"{row['max_abs_diff']:>18.1e}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tools.speed.engines [options]``: measure, print, optionally save JSON."""
    import torch

    from baselines.engines.vllm_args import parse_engine_args
    from tools.speed.run import machine_info

    args = build_parser().parse_args(argv)
    if any(n < 1 for n in args.processes):
        raise SystemExit("--processes must be >= 1")
    if args.n_sentences < 1 or args.batch_size < 1 or args.warmup < 0:
        raise SystemExit("--n-sentences and --batch-size must be >= 1, --warmup >= 0")
    if args.engines[0] != "hf":
        raise SystemExit("--engines must start with hf, the reference the others are held to")
    if "vllm" in args.engines and not args.vllm_python.is_file():
        raise SystemExit(
            f"no python at {args.vllm_python}: `bash scripts/setup.sh --vllm` makes .venv-vllm"
        )
    sentences = blimp_sentences(args.n_sentences, seed=args.seed)
    rows = run_engines(
        sentences,
        model=args.model,
        engines=args.engines,
        convention=args.convention,
        batch_size=args.batch_size,
        device=args.device,
        threads=args.threads,
        warmup=args.warmup,
        vllm_python=args.vllm_python,
        engine_args=parse_engine_args(args.engine_arg),
        processes=args.processes if "hf" in args.engines else (),
    )
    result = {
        "machine": machine_info(args.threads or torch.get_num_threads(), args.device),
        "model": args.model,
        "n_sentences": len(sentences),
        "seed": args.seed,
        "convention": args.convention,
        "batch_size": args.batch_size,
        "engine_args": parse_engine_args(args.engine_arg),
        "engines": rows,
    }
    print(format_engines(result), flush=True)
    if args.json:
        atomic_write_text(args.json, json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
