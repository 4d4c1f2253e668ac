"""The packing section of the speed benchmark: the causal scorer packed by trie against rows.

``python -m tools.speed.trie`` scores two sets of sentences with SmolLM2 (or another causal
LM) through :class:`baselines.kinds.causal.CausalLMScorer` twice, with ``--packing rows``
(sentences end to end, every token computed) and ``--packing trie`` (each shared prefix
computed once, :mod:`baselines.fast.trie`), fed as ``python -m baselines score`` feeds them:

* **BLiMP pairs**: the first ``--pairs`` whole minimal pairs (both members among BLiMP's
  unique sentences) of each of ``--paradigms`` (default: the first two paradigms in BLiMP's
  order, 1,000 pairs each: 4,000 sentences);
* **LI-Adger**: all its 4,178 sentences.

Each measurement runs in a fresh process (:func:`tools.speed.measure.measure`, tool
``ours-causal``); with ``--rounds N`` the two packings alternate N times and each keeps its
fastest round (:func:`tools.speed.figures.keep_best`). It prints, per set and packing,
sentences per second and the positions the decoder computed (rows × row width, padding
included) over the tokens scored, then the speed-up and the largest |Δ| between the two
packings' scores; ``--json`` saves them. Method and results: ``docs/speed.md`` (Packing).

Examples
--------
>>> row = {"set": "blimp", "n_sentences": 4, "speedup": 1.5, "max_abs_diff": 3e-5,
...        "rows": {"sentences_per_s": 20.0, "positions_share": 1.01},
...        "trie": {"sentences_per_s": 30.0, "positions_share": 0.6}}
>>> print(format_packing({"machine": {"cpu": "X", "cpus": 2}, "model": "smollm2",
...                       "rounds": 1, "batch_size": 64, "sets": [row]}))
packing: smollm2, batch size 64, best of 1 round(s); X, 2 CPUs
set         sentences   rows sent/s   trie sent/s   speed-up   rows positions   trie positions   max |Δ|
blimp               4          20.0          30.0      1.50x            1.010            0.600   3.0e-05
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from li_adger.io.atomic import atomic_write_text
from tools.speed.figures import keep_best
from tools.speed.measure import measure

__all__ = ["PACKINGS_COMPARED", "build_parser", "format_packing", "main", "whole_pairs"]

PACKINGS_COMPARED = ("rows", "trie")
"""Today's packing first (the reference of max |Δ|), then the trie."""


def whole_pairs(
    ids: Sequence[str], texts: Sequence[str], paradigms: Sequence[str], n: int
) -> list[str]:
    """The sentences of the first ``n`` pairs of each paradigm whose ``good`` and ``bad``
    members are both among the units (ids ``<paradigm>.<pair>.good|bad``), good then bad,
    pairs in number order.

    Examples
    --------
    >>> ids = ["a.0.good", "a.0.bad", "a.1.good", "a.2.good", "a.2.bad", "b.0.good", "b.0.bad"]
    >>> whole_pairs(ids, ["g0", "b0", "g1", "g2", "b2", "x", "y"], ["a"], 2)
    ['g0', 'b0', 'g2', 'b2']
    >>> whole_pairs(ids, ["g0", "b0", "g1", "g2", "b2", "x", "y"], ["a"], 3)
    Traceback (most recent call last):
    ...
    ValueError: paradigm 'a' has 2 whole pairs, fewer than 3
    """
    members: dict[str, dict[int, dict[str, str]]] = {}
    for unit, text in zip(ids, texts, strict=True):
        paradigm, number, member = unit.rsplit(".", 2)
        members.setdefault(paradigm, {}).setdefault(int(number), {})[member] = text
    out: list[str] = []
    for paradigm in paradigms:
        pairs = [
            (p["good"], p["bad"])
            for _, p in sorted(members.get(paradigm, {}).items())
            if "good" in p and "bad" in p
        ]
        if len(pairs) < n:
            raise ValueError(f"paradigm {paradigm!r} has {len(pairs)} whole pairs, fewer than {n}")
        out += [s for pair in pairs[:n] for s in pair]
    return out


def build_parser() -> argparse.ArgumentParser:
    """The packing section's argument parser.

    Examples
    --------
    >>> args = build_parser().parse_args([])
    >>> args.pairs, args.paradigms, args.batch_size, args.rounds
    (1000, 2, 64, 1)
    """
    p = argparse.ArgumentParser(
        prog="python -m tools.speed.trie", description=(__doc__ or "").split("\n\n")[0]
    )
    p.add_argument("--model", default="smollm2", help="'smollm2' (default) or a local folder")
    p.add_argument("--pairs", type=int, default=1000, help="BLiMP pairs per paradigm (1000)")
    p.add_argument("--paradigms", type=int, default=2, help="BLiMP paradigms, in order (2)")
    p.add_argument("--li-adger", type=int, help="only the first N LI-Adger sentences (all)")
    p.add_argument("--batch-size", type=int, default=64, help="sentences per call (64)")
    p.add_argument("--threads", type=int, help="torch threads (default: torch's default)")
    p.add_argument("--rounds", type=int, default=1, help="alternate the packings N times (1)")
    p.add_argument("--warmup", type=int, default=64, help="untimed warm-up sentences (64)")
    p.add_argument("--json", help="also write every figure to this JSON file")
    return p


def _measure_set(
    name: str, sentences: list[str], request: dict[str, Any], rounds: int
) -> dict[str, Any]:
    best: dict[str, dict[str, Any]] = {}
    for _ in range(rounds):
        for packing in PACKINGS_COMPARED:
            answer = measure({**request, "packing": packing, "sentences": sentences})
            if answer["packing"] != packing:
                raise RuntimeError(f"the model cannot be packed by {packing} ({answer['packing']})")
            best[packing] = keep_best(best.get(packing), answer)
    row: dict[str, Any] = {"set": name, "n_sentences": len(sentences)}
    for packing, answer in best.items():
        row[packing] = {
            "seconds": answer["seconds"],
            "sentences_per_s": len(sentences) / answer["seconds"],
            "positions_share": answer["positions_share"],
            "load_seconds": answer["load_seconds"],
        }
    rows, trie = best["rows"]["scores"], best["trie"]["scores"]
    row["speedup"] = best["rows"]["seconds"] / best["trie"]["seconds"]
    row["max_abs_diff"] = max(abs(a - b) for a, b in zip(rows, trie, strict=True))
    return row


def format_packing(result: dict[str, Any]) -> str:
    """The printed section: the setting, then one line per set of sentences."""
    machine = result["machine"]
    lines = [
        f"packing: {result['model']}, batch size {result['batch_size']}, best of "
        f"{result['rounds']} round(s); {machine['cpu']}, {machine['cpus']} CPUs",
        f"{'set':<10}{'sentences':>11}{'rows sent/s':>14}{'trie sent/s':>14}{'speed-up':>11}"
        f"{'rows positions':>17}{'trie positions':>17}{'max |Δ|':>10}",
    ]
    for row in result["sets"]:
        lines.append(
            f"{row['set']:<10}{row['n_sentences']:>11}{row['rows']['sentences_per_s']:>14.1f}"
            f"{row['trie']['sentences_per_s']:>14.1f}{row['speedup']:>10.2f}x"
            f"{row['rows']['positions_share']:>17.3f}{row['trie']['positions_share']:>17.3f}"
            f"{row['max_abs_diff']:>10.1e}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tools.speed.trie [options]``: measure, print, optionally save JSON."""
    import torch

    from baselines.units import load_units
    from tools.speed.cli import _causal_source
    from tools.speed.run import machine_info

    args = build_parser().parse_args(argv)
    if min(args.pairs, args.paradigms, args.batch_size, args.rounds) < 1 or args.warmup < 0:
        raise SystemExit("--pairs, --paradigms, --batch-size, --rounds must be >= 1")
    model, context_token = _causal_source(args.model, None)
    blimp = load_units("blimp")
    paradigms = list(dict.fromkeys(i.rsplit(".", 2)[0] for i in blimp.ids))[: args.paradigms]
    li_adger = load_units("li_adger").texts[: args.li_adger]
    sets = [
        ("blimp", whole_pairs(blimp.ids, blimp.texts, paradigms, args.pairs)),
        ("li_adger", list(li_adger)),
    ]
    request: dict[str, Any] = {
        "tool": "ours-causal",
        "model": model,
        "bos_token": context_token,
        "batch_size": args.batch_size,
        "device": "cpu",
        **({"threads": args.threads} if args.threads else {}),
    }
    rows = [
        _measure_set(name, s, {**request, "warmup": s[: args.warmup]}, args.rounds)
        for name, s in sets
    ]
    result = {
        "machine": machine_info(args.threads or torch.get_num_threads(), "cpu"),
        "model": args.model,
        "paradigms": paradigms,
        "pairs": args.pairs,
        "batch_size": args.batch_size,
        "rounds": args.rounds,
        "sets": rows,
    }
    print(format_packing(result), flush=True)
    if args.json:
        atomic_write_text(args.json, json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
