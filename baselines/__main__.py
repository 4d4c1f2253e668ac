"""Command line: score a dataset with a model and write one scores file.

Usage::

    python -m baselines score --model NAME [--kind mlm|causal|ngram|cola] [--dataset li_adger]
                              --out FILE [--device auto|cpu|cuda] [--batch-size N] [--limit N]
                              [--variant V] [--unigram wordfreq|trigram]
                              [--precision auto|fp32|fp16|bf16] [--threads N]
                              [--fresh] [--quiet]
    python -m baselines models

``score`` caches scores as it goes; rerunning the same command after an interruption resumes
(``--fresh`` starts over). ``models`` lists the built-in offline models.

Examples
--------
>>> build_parser().parse_args(["score", "--model", "trigram", "--out", "t.jsonl"]).dataset
'li_adger'
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from baselines.interface import KINDS
from baselines.unigram import UNIGRAM_SOURCES

__all__ = ["build_parser", "main"]


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer (got {text!r})") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer (got {text!r})")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m baselines``.

    Examples
    --------
    >>> args = build_parser().parse_args(
    ...     ["score", "--model", "smollm2", "--out", "s.jsonl", "--limit", "64"])
    >>> args.model, args.limit, args.kind, args.device
    ('smollm2', 64, None, 'auto')
    """
    parser = argparse.ArgumentParser(
        prog="python -m baselines",
        description="Score sentences with a language model (or classifier) for the ADC.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser(
        "score",
        help="score a dataset and write a scores file",
        description="Score every sentence of a dataset and write one scores file (JSON Lines). "
        "Scores are cached as they are computed; rerun the same command to resume.",
    )
    score.add_argument(
        "--model",
        required=True,
        help="a built-in name (trigram, smollm2, minilm-cola), a Hugging Face model name, a "
        "local model folder, or an n-gram model file",
    )
    score.add_argument(
        "--kind", choices=KINDS, help="the scorer kind; needed when it cannot be detected"
    )
    score.add_argument(
        "--dataset",
        default="li_adger",
        help="'li_adger' (default) or a .csv/.jsonl/.parquet file with columns id and sentence",
    )
    score.add_argument("--out", required=True, help="the scores file to write (JSON Lines)")
    score.add_argument("--device", default="auto", help="auto (default), cpu, cuda or cuda:N")
    score.add_argument(
        "--batch-size", type=_positive_int, help="sentences per batch (default: per model)"
    )
    score.add_argument(
        "--limit", type=_positive_int, help="score only the first N sentences of the dataset"
    )
    score.add_argument(
        "--variant",
        help="ngram/causal: logprob, meanlp, penlp (+ normlp, slor for ngram); "
        "mlm: original, word-l2r; cola: signed-confidence, logit-margin; "
        "causal/mlm: normlp, slor on words of a unigram model (docs/linking.md)",
    )
    score.add_argument(
        "--unigram",
        choices=UNIGRAM_SOURCES,
        help="the unigram model of --variant normlp/slor for causal and masked LMs: "
        "wordfreq (default) or the trigram's unigrams",
    )
    score.add_argument(
        "--precision", choices=("auto", "fp32", "fp16", "bf16"), help="neural models only"
    )
    score.add_argument(
        "--fresh", action="store_true", help="ignore cached scores from an earlier run"
    )
    score.add_argument(
        "--threads",
        type=_positive_int,
        help="CPU threads for torch (default: torch's choice); 1 is faster on a busy CPU",
    )
    score.add_argument("--quiet", action="store_true", help="no progress bar")
    commands.add_parser("models", help="list the built-in offline models")
    from baselines.bench import add_bench_parser

    add_bench_parser(commands)
    return parser


def _score(args: argparse.Namespace) -> int:
    from baselines.registry import build_scorer, default_batch_size, resolve_kind
    from baselines.run import dataset_metadata, load_sentences, score_to_file

    if args.threads is not None:
        import torch

        torch.set_num_threads(args.threads)
    ids, sentences = load_sentences(args.dataset)
    if args.limit is not None:
        ids, sentences = ids[: args.limit], sentences[: args.limit]
    start = time.perf_counter()
    scorer = build_scorer(
        args.model,
        kind=args.kind,
        variant=args.variant,
        device=args.device,
        batch_size=args.batch_size,
        precision=args.precision,
        unigram=args.unigram,
        progress=False,
    )
    loaded = time.perf_counter()
    batch_size = args.batch_size or default_batch_size(
        args.model, resolve_kind(args.model, args.kind)
    )
    out = score_to_file(
        scorer,
        ids,
        sentences,
        args.out,
        dataset=args.dataset,
        batch_size=batch_size,
        progress=not args.quiet,
        resume=not args.fresh,
        extra_metadata={
            **dataset_metadata(args.dataset),
            **({"limit": args.limit} if args.limit is not None else {}),
        },
    )
    done = time.perf_counter()
    print(
        f"wrote {len(ids)} scores to {out} "
        f"(model {scorer.name}, kind {scorer.kind}, variant {scorer.variant}; "
        f"load {loaded - start:.1f} s, scoring {done - loaded:.1f} s)",
        file=sys.stderr,
    )
    return 0


def _models() -> int:
    from baselines.registry import BUILTIN_MODELS

    for model in BUILTIN_MODELS.values():
        print(f"{model.name:<12} {model.kind:<7} {model.description}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input).

    Examples
    --------
    >>> main(["models"])  # doctest: +ELLIPSIS
    trigram      ngram   pocketsphinx's English trigram ...
    0
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "models":
        return _models()
    if args.command == "bench":
        from baselines.bench import run_bench

        return run_bench(args)
    try:
        return _score(args)
    except (ValueError, ImportError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            "interrupted; the scores so far are cached: rerun the same command to resume",
            file=sys.stderr,
        )
        return 130


if __name__ == "__main__":
    sys.exit(main())
