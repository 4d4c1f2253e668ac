"""The fine-tuning section of the speed benchmark: training sentences/s, padded to 64 or grouped.

``python -m tools.speed.finetune`` trains one epoch of the encoder (default: the packaged
MiniLM) on the first ``--sentences`` CoLA training sentences with the thesis's settings
(:class:`baselines.finetune.spec.FinetuneSpec`, batch 20, max length 64), once with every
batch padded to 64 (``pad64``, as the thesis's script did) and once with batches grouped by
length and padded to their longest (``length``), ``--repeats`` times each, alternating, the
best time kept (other processes can only slow a run down). For each it prints training
sentences/s, the share of padding among the positions computed, and the share of the
dense-FLOP limit reached: ``6 × P × tokens`` (forward and backward through the ``P`` weights
of the layers' matrix multiplications, for the real tokens only; :mod:`tools.speed.flops`)
divided by the time, against this machine's measured fp32 matmul rate. With ``--dev`` it also
gives each trained model's MCC on CoLA's out-of-domain dev set. Results: ``docs/speed.md``
(Fine-tuning).

Examples
--------
>>> dense_training_flops(layer_params=100, n_layers=2, tokens=10)
12000
>>> result = {"machine": {"cpu": "X", "cpus": 2}, "threads": 1, "sentences": 300,
...           "matmul_flops": 5e10, "rows": [
...     {"grouping": "pad64", "seconds": 30.0, "positions": 19200, "tokens": 3000,
...      "flops": 1.2e11},
...     {"grouping": "length", "seconds": 10.0, "positions": 3200, "tokens": 3000,
...      "flops": 1.2e11}]}
>>> print(format_finetune(result))
fine-tuning: 300 CoLA sentences, 1 epoch, batch 20; X, 2 CPUs, 1 thread(s), matmul 50.0 GFLOP/s
grouping    sentences/s   padding   share of dense limit
pad64              10.0     84.4%                  8.0%
length             30.0      6.2%                 24.0%
length / pad64: 3.00x the sentences/s
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from li_adger.io.atomic import atomic_write_text

__all__ = ["build_parser", "dense_training_flops", "format_finetune", "main", "measure_finetune"]


def dense_training_flops(*, layer_params: int, n_layers: int, tokens: int) -> int:
    """The dense-FLOP count of training on ``tokens`` tokens: ``6 × P × N × tokens`` (2 for the
    forward pass, 4 for the backward pass, per weight and token; attention scores ignored)."""
    return 6 * layer_params * n_layers * tokens


def build_parser() -> argparse.ArgumentParser:
    """The fine-tuning section's argument parser.

    Examples
    --------
    >>> build_parser().parse_args([]).sentences
    300
    """
    p = argparse.ArgumentParser(
        prog="python -m tools.speed.finetune", description=(__doc__ or "").split("\n\n")[0]
    )
    p.add_argument("--model", default="minilm", help="an encoder (default: the packaged MiniLM)")
    p.add_argument("--sentences", type=int, default=300, help="CoLA training sentences (300)")
    p.add_argument("--repeats", type=int, default=2, help="runs of each grouping (2)")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads (1)")
    p.add_argument("--dev", action="store_true", help="also each model's out-of-domain dev MCC")
    p.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    return p


def measure_finetune(
    model: str, *, sentences: int, repeats: int, threads: int, dev: bool
) -> dict[str, Any]:
    """Train both groupings (see the module docs) and return the figures."""
    import torch
    from transformers import AutoConfig, AutoTokenizer

    from baselines.finetune.batches import length_grouped_batches
    from baselines.finetune.spec import FinetuneSpec
    from baselines.finetune.tasks import get_task
    from baselines.finetune.train import finetune_once, model_source
    from metric_adc.classification import mcc
    from tools.speed.flops import measure_matmul_flops, spec_from_config
    from tools.speed.run import machine_info

    torch.set_num_threads(threads)
    task = get_task("cola")
    base = FinetuneSpec(model=model, epochs=1, train_cap=sentences, device="cpu")
    train = task.train_set(base)
    evals = {"cola_out_of_domain_dev": task.eval_sets(base)["cola_out_of_domain_dev"]}
    tokenizer = AutoTokenizer.from_pretrained(model_source(base))
    ids = tokenizer([e.text for e in train], truncation=True, max_length=base.max_length)
    lengths = [len(x) for x in ids["input_ids"]]
    shape = spec_from_config(AutoConfig.from_pretrained(model_source(base)))
    flops = dense_training_flops(
        layer_params=shape.layer_params, n_layers=shape.n_layers, tokens=sum(lengths)
    )
    positions = {
        "pad64": base.max_length * len(lengths),
        "length": sum(
            len(b) * max(lengths[i] for i in b)
            for b in length_grouped_batches(lengths, base.batch_size, seed=0, epoch=0)
        ),
    }
    best: dict[str, dict[str, Any]] = {}
    for _ in range(repeats):
        for grouping in ("pad64", "length"):
            spec = FinetuneSpec(model=model, epochs=1, train_cap=sentences, device="cpu",
                                grouping=grouping)  # fmt: skip
            result = finetune_once(spec, task, seed=0, data_seed=0, train_set=train,
                                   eval_sets=evals if dev else {}, progress=False)  # fmt: skip
            row = {"grouping": grouping, "seconds": result.train_seconds,
                   "positions": positions[grouping], "tokens": sum(lengths), "flops": flops}  # fmt: skip
            if dev:
                records = result.predictions["cola_out_of_domain_dev"]
                row["dev_mcc"] = mcc([r["gold"] for r in records],
                                     [r["prediction"] for r in records])  # fmt: skip
            if grouping not in best or row["seconds"] < best[grouping]["seconds"]:
                best[grouping] = row
    return {
        "machine": machine_info(threads, "cpu"),
        "model": model,
        "threads": threads,
        "sentences": len(train),
        "matmul_flops": measure_matmul_flops(),
        "rows": [best["pad64"], best["length"]],
    }


def format_finetune(result: dict[str, Any]) -> str:
    """The section as printed (see the module docs)."""
    m = result["machine"]
    lines = [
        f"fine-tuning: {result['sentences']} CoLA sentences, 1 epoch, batch 20; {m['cpu']}, "
        f"{m['cpus']} CPUs, {result['threads']} thread(s), "
        f"matmul {result['matmul_flops'] / 1e9:.1f} GFLOP/s",
        f"{'grouping':<10}{'sentences/s':>13}{'padding':>10}{'share of dense limit':>23}"
        + ("  dev MCC" if any("dev_mcc" in r for r in result["rows"]) else ""),
    ]
    rate = {}
    for r in result["rows"]:
        rate[r["grouping"]] = result["sentences"] / r["seconds"]
        share = r["flops"] / r["seconds"] / result["matmul_flops"]
        padding = 1 - r["tokens"] / r["positions"]
        line = f"{r['grouping']:<10}{rate[r['grouping']]:>13.1f}{padding:>10.1%}{share:>23.1%}"
        if "dev_mcc" in r:
            line += f"  {r['dev_mcc']:.3f}"
        lines.append(line)
    lines.append(f"length / pad64: {rate['length'] / rate['pad64']:.2f}x the sentences/s")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the section, print it, and save it with ``--json``."""
    args = build_parser().parse_args(argv)
    result = measure_finetune(args.model, sentences=args.sentences, repeats=args.repeats,
                              threads=args.threads, dev=args.dev)  # fmt: skip
    print(format_finetune(result))
    if args.json:
        atomic_write_text(args.json, json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
