"""Benchmark our scorers against minicons, and against this machine's matmul limit.

``python -m tools.speed`` builds a random
BERT-base-sized masked LM and picks a fixed subset of LI-Adger sentences
(:mod:`tools.speed.inputs`), measures our PLL and causal scorers against minicons's and
against the machine's own matmul rate in fresh processes (:mod:`tools.speed.run`,
:mod:`tools.speed.measure`, :mod:`tools.speed.flops`, :mod:`tools.speed.figures`),
prints the figures with the ratios on the last line (:mod:`tools.speed.report`) and, with
``--json FILE``, saves every figure. Method, targets and results: ``docs/speed.md``.

Examples
--------
>>> main(["--n-sentences", "0"])
Traceback (most recent call last):
...
SystemExit: --n-sentences must be >= 1 (got 0)
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from baselines.fast.layout import PACKINGS
from baselines.interface import RUNTIMES
from li_adger.io.atomic import atomic_write_text
from tools.speed.inputs import MLM_SIZES, benchmark_sentences, build_random_mlm, long_sentence
from tools.speed.report import format_report
from tools.speed.run import DEFAULT_LONG_CAP_BYTES, run_benchmarks

__all__ = ["build_parser", "main", "run_bench"]


def build_parser() -> argparse.ArgumentParser:
    """The benchmark's argument parser.

    Examples
    --------
    >>> args = build_parser().parse_args(["--n-sentences", "20"])
    >>> args.n_sentences, args.token_budget, args.causal_model
    (20, None, 'smollm2')
    """
    p = argparse.ArgumentParser(
        prog="python -m tools.speed",
        description=(__doc__ or "").split("\n\n")[0],
    )
    p.add_argument("--n-sentences", type=int, default=200, help="LI-Adger sentences (default 200)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sentence subset (default 0)")
    p.add_argument("--threads", type=int, help="torch threads (default: torch's default)")
    p.add_argument(
        "--device",
        default="auto",
        help="'auto' (default: the GPU when there is one), 'cpu' or 'cuda[:N]'; both tools",
    )
    p.add_argument(
        "--precision",
        choices=("fp32", "bf16", "fp16"),
        default="fp32",
        help="our scorers' precision (default fp32, minicons's: scores comparable)",
    )
    p.add_argument(
        "--token-budget",
        type=int,
        default=None,
        help="our PLL token budget (default: the device's, 512 on a CPU, 4096 on a GPU)",
    )
    p.add_argument(
        "--runtime",
        choices=RUNTIMES,
        default="torch",
        help="where our PLL's encoder runs: PyTorch (default) or ONNX Runtime (the onnx extra)",
    )
    p.add_argument(
        "--minicons-batch-size",
        type=int,
        default=1,
        help="sentences per minicons PLL call (default 1, its fastest on CPU)",
    )
    p.add_argument("--causal-batch-size", type=int, default=64, help="both causal tools")
    p.add_argument(
        "--causal-packing",
        choices=PACKINGS,
        default="trie",
        help="how our causal scorer lays out a batch (default trie, as python -m baselines score)",
    )
    p.add_argument("--mlm-size", choices=sorted(MLM_SIZES), default="base", help="random BERT size")
    p.add_argument(
        "--causal-model",
        default="smollm2",
        help="'smollm2' (default), a local causal-LM folder, or 'none' to skip",
    )
    p.add_argument(
        "--causal-context-token",
        help="the token the first word is scored after (default: SmolLM2's <|endoftext|>, "
        "else the tokenizer's BOS or EOS)",
    )
    p.add_argument(
        "--long-min-tokens", type=int, default=300, help="long-sentence length; 0 skips it"
    )
    p.add_argument(
        "--long-cap-gib",
        type=float,
        default=DEFAULT_LONG_CAP_BYTES / 2**30,
        help="memory cap of the minicons long run (default 8)",
    )
    p.add_argument("--warmup", type=int, default=4, help="untimed warm-up sentences per tool")
    p.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="alternate the two tools this many times in fresh processes; each keeps its best",
    )
    p.add_argument("--matmul-size", type=int, default=2048, help="side of the matmul matrices")
    p.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    p.add_argument(
        "--work-dir", type=Path, help="where the random BERT is written (default: a temp folder)"
    )
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return p


def _causal_source(name: str, token: str | None) -> tuple[str | None, str | None]:
    if name == "none":
        return None, None
    if name == "smollm2":
        from baselines.models.smollm2 import CONTEXT_TOKEN, converted_model_dir

        return str(converted_model_dir()), token or CONTEXT_TOKEN
    if not Path(name).is_dir():
        raise ValueError(
            f"--causal-model must be 'smollm2', 'none' or a local folder (got {name!r})"
        )
    if token is None:
        from transformers import AutoTokenizer

        from baselines.kinds.causal_base import resolve_context_token

        token = resolve_context_token(AutoTokenizer.from_pretrained(name))[0]
    return name, token


def run_bench(args: argparse.Namespace) -> int:
    """Run the ``bench`` command: build the random BERT, measure, print, optionally save JSON."""
    for name in (
        "n_sentences",
        "token_budget",
        "minicons_batch_size",
        "causal_batch_size",
        "rounds",
        "matmul_size",
    ):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise SystemExit(f"--{name.replace('_', '-')} must be >= 1 (got {getattr(args, name)})")
    if args.long_min_tokens < 0 or args.warmup < 0:
        raise SystemExit("--long-min-tokens and --warmup must be >= 0")
    sentences = benchmark_sentences(args.n_sentences, seed=args.seed)
    causal_model, context_token = _causal_source(args.causal_model, args.causal_context_token)
    work = Path(args.work_dir) if args.work_dir else Path(tempfile.mkdtemp(prefix="bench-bert-"))
    try:
        start = time.perf_counter()
        mlm = build_random_mlm(
            work / f"bert-{args.mlm_size}-random", size=args.mlm_size, seed=args.seed
        )
        long_text = None
        if args.long_min_tokens:
            from transformers import AutoTokenizer

            import li_adger

            pool = list(dict.fromkeys(li_adger.load("sentences")["sentence"]))
            long_text = long_sentence(
                pool, AutoTokenizer.from_pretrained(mlm), min_tokens=args.long_min_tokens
            )
        result = run_benchmarks(
            sentences,
            mlm_model=mlm,
            causal_model=causal_model,
            causal_context_token=context_token,
            long_text=long_text,
            threads=args.threads,
            device=args.device,
            precision=args.precision,
            token_budget=args.token_budget,
            pll_runtime=args.runtime,
            minicons_batch_size=args.minicons_batch_size,
            causal_batch_size=args.causal_batch_size,
            causal_packing=args.causal_packing,
            warmup=args.warmup,
            rounds=args.rounds,
            matmul_size=args.matmul_size,
            long_cap_bytes=int(args.long_cap_gib * 2**30),
            progress=not args.no_progress,
        )
        from tools.speed.report_time import time_report

        result["report"] = time_report(work, rounds=args.rounds)
        result["wall_seconds"] = time.perf_counter() - start
    finally:
        if not args.work_dir:
            shutil.rmtree(work, ignore_errors=True)
    print(format_report(result), flush=True)
    if args.json:
        atomic_write_text(args.json, json.dumps(result, indent=2) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tools.speed [options]``: run the benchmark and print its report."""
    return run_bench(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
