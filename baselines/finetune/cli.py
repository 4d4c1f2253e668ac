"""``python -m baselines finetune``: the command line of a fine-tuning run.

Examples
--------
>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_parser(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["finetune", "--restart-kind", "orders", "--n-restarts", "3",
...                           "--out", "r"])
>>> spec_of(args).seeds, spec_of(args).restart_kind, spec_of(args).epochs
((0, 1, 2), 'orders', 4)
>>> spec_of(parser.parse_args(["finetune", "--seeds", "3,1", "--out", "r"])).seeds
(3, 1)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from baselines.finetune.spec import (
    DEFAULT_MODEL,
    GROUPINGS,
    PRECISIONS,
    PRESETS,
    RESTART_KINDS,
    FinetuneSpec,
)
from li_adger.io.cli_args import int_at_least, positive_number

__all__ = ["add_parser", "main", "spec_of"]


def _seed_list(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(s) for s in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected whole numbers separated by commas, e.g. 0,1,2 (got {text!r})"
        ) from None


def add_parser(commands: Any) -> None:
    """Add the ``finetune`` command to ``commands`` (an argparse sub-parsers object)."""
    p = commands.add_parser(
        "finetune",
        help="fine-tune an encoder on CoLA, restart after restart, into a run folder",
        description="Fine-tune an encoder several times (restarts or data orders) and write "
        "each restart's predictions on the task's evaluation sets to --out (docs/finetune.md).",
    )
    p.add_argument("--model", default=DEFAULT_MODEL,
                   help="a Hugging Face name or local folder (default: the packaged MiniLM)")  # fmt: skip
    p.add_argument("--revision", help="the model's branch, tag or commit on the Hub")
    p.add_argument("--task", default="cola", help="a registered task (default: cola)")
    p.add_argument("--configuration", default=None,
                   help="the task's configuration (default: the task's name; --task npi: "
                   "some of cola,1npi,avg-other,all-but-1,all, default all five, or TRAIN>EVAL)")  # fmt: skip
    p.add_argument("--restart-kind", choices=RESTART_KINDS, default="restarts",
                   help="restarts: new initialisation and order per seed; orders: one "
                   "initialisation (--init-seed), only the data order varies")  # fmt: skip
    seeds = p.add_mutually_exclusive_group()
    seeds.add_argument("--seeds", type=_seed_list, help="the restarts' seeds, e.g. 0,1,2")
    seeds.add_argument("--n-restarts", type=int_at_least(1), help="seeds 0..N-1")
    p.add_argument("--init-seed", type=int_at_least(0), default=0,
                   help="with --restart-kind orders: the one initialisation (default 0)")  # fmt: skip
    p.add_argument("--preset", choices=tuple(PRESETS), default="thesis",
                   help="named settings (thesis: length 64, batch 20, 4 epochs, lr 2e-5)")  # fmt: skip
    p.add_argument("--epochs", type=int_at_least(1))
    p.add_argument("--batch-size", type=int_at_least(1))
    p.add_argument("--gradient-accumulation-steps", type=int_at_least(1), default=1,
                   metavar="N", help="batches summed into each optimizer step: an effective "
                   "batch of N x --batch-size (default 1)")  # fmt: skip
    p.add_argument("--lr", type=positive_number)
    p.add_argument("--max-length", type=int_at_least(2))
    p.add_argument("--grouping", choices=GROUPINGS, default="length",
                   help="length: batches of similar length padded to their longest (default); "
                   "pad64: random batches padded to --max-length")  # fmt: skip
    p.add_argument("--train-cap", type=int_at_least(1),
                   help="train on the first N training sentences only")  # fmt: skip
    p.add_argument("--eval-cap", type=int_at_least(1),
                   help="--task npi: evaluate on the first N test sentences of each environment")  # fmt: skip
    p.add_argument("--environments", default="all",
                   help="--task npi: the environments a named configuration spans "
                   "(default all nine)")  # fmt: skip
    p.add_argument("--save-models", action="store_true",
                   help="keep each restart's fine-tuned model in RUN_DIR/model-<seed> "
                   "(for python -m baselines probe --run)")  # fmt: skip
    p.add_argument("--cola-run", default=None, metavar="DIR",
                   help="--task npi, configuration cola: the CoLA run (finetune --task cola "
                   "--save-models) whose saved models are evaluated, nothing trained "
                   "(default: the built-in minilm-cola)")  # fmt: skip
    p.add_argument("--out", required=True, help="the run folder")
    p.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    p.add_argument("--precision", choices=PRECISIONS, default="auto",
                   help="auto: bf16 (or fp16) mixed precision on a GPU, fp32 on the CPU")  # fmt: skip
    p.add_argument("--threads", type=int_at_least(1), help="CPU threads for torch")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def spec_of(args: argparse.Namespace) -> FinetuneSpec:
    """The :class:`FinetuneSpec` the parsed arguments describe (checked by the spec)."""
    seeds = args.seeds or tuple(range(args.n_restarts or 3))
    return FinetuneSpec(
        model=args.model,
        revision=args.revision,
        task=args.task,
        configuration=args.configuration or args.task,
        restart_kind=args.restart_kind,
        seeds=seeds,
        init_seed=args.init_seed,
        preset=args.preset,
        epochs=args.epochs,
        batch_size=args.batch_size,
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        lr=args.lr,
        max_length=args.max_length,
        grouping=args.grouping,
        train_cap=args.train_cap,
        eval_cap=args.eval_cap,
        device=args.device,
        precision=args.precision,
    )


def _reuse_cola(
    runs: list[tuple[FinetuneSpec, str]],
    args: argparse.Namespace,
    builtin_cola: Callable[[], Any] | None,
) -> list[tuple[FinetuneSpec, str]]:
    """Evaluate the existing CoLA fine-tunes for the units trained on CoLA (rank 0 of a
    launch; :mod:`baselines.finetune.reuse`) and return the units left to train."""
    from baselines.distributed import launch_from_env
    from baselines.finetune.reuse import cola_run_fine_tunes, evaluate_fine_tunes, reuse_spec
    from li_adger.benchmarks.npi_configurations import parse_configuration

    cola = [(s, out) for s, out in runs if not parse_configuration(s.configuration).train]
    if not cola:
        return runs
    if args.cola_run is not None:
        fine_tunes = cola_run_fine_tunes(args.cola_run)
    elif cola[0][0].model != DEFAULT_MODEL:
        raise ValueError(
            f"the built-in minilm-cola is MiniLM's CoLA fine-tune; for --model {cola[0][0].model} "
            "give --cola-run DIR (a `finetune --task cola --save-models` run of that model)"
        )
    elif builtin_cola is not None:
        fine_tunes = [builtin_cola()]
    else:
        raise ValueError("the CoLA configuration needs --cola-run DIR (a CoLA run's saved models)")
    specs = [(reuse_spec(s, fine_tunes), out) for s, out in cola]  # checked before any work
    launch = launch_from_env()
    if launch is None or launch.rank == 0:
        for spec, out in specs:
            evaluate_fine_tunes(spec, fine_tunes, out, progress=not args.quiet)
            used = ", ".join(str(ft.folder) for ft in fine_tunes)
            print(f"wrote {len(fine_tunes)} reused CoLA fine-tunes ({used}) to {out}")
    return [r for r in runs if r not in cola]


def main(args: argparse.Namespace, *, builtin_cola: Callable[[], Any] | None = None) -> int:
    """Run the command; the spec is checked before anything loads. Units trained on CoLA
    (``--task npi``) reuse CoLA fine-tunes: ``--cola-run``'s saved models, else
    ``builtin_cola()`` (``python -m baselines`` gives the built-in ``minilm-cola``)."""
    spec = spec_of(args)
    if args.cola_run is not None and spec.task != "npi":
        raise ValueError("--cola-run is an option of --task npi (its CoLA configuration)")
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    if args.quiet:
        import transformers

        transformers.logging.set_verbosity_error()
    from baselines.finetune.runs import run_many

    if spec.task == "npi":
        from baselines.finetune.npi_tasks import specs_for
        from li_adger.benchmarks.npi_configurations import CONFIGURATIONS
        from li_adger.benchmarks.npi_units import environments_from

        envs = environments_from(args.environments)
        named = (args.configuration or ",".join(CONFIGURATIONS)).split(",")
        runs = list(
            dict(
                (out, (s, out)) for c in named for s, out in specs_for(spec, c, envs, args.out)
            ).values()
        )
        runs = _reuse_cola(runs, args, builtin_cola)
    else:
        runs = [(spec, args.out)]
    outs = run_many(runs, progress=not args.quiet, save_models=args.save_models)
    capped = f", capped at {spec.train_cap} training sentences" if spec.train_cap else ""
    for out in outs:
        print(f"wrote {len(spec.seeds)} restarts to {out}{capped}")
    return 0
