"""The ``ceiling`` subcommand: its arguments, and the ceiling as plain text for people.

``python -m metric_adc ceiling [--json] [--splits N] [--seed S] [--plot PATH] [--no-tasks]``
(:mod:`metric_adc.__main__` registers it with :func:`add_ceiling_parser`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping

from metric_adc.ceiling import LABEL, compute_ceiling, human_ceiling_row
from metric_adc.ceiling_inputs import load_inputs

__all__ = ["add_ceiling_parser", "format_table", "run_ceiling"]


def _fmt(x: float | None, digits: int = 3) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def format_table(result: Mapping) -> str:
    """The ceiling as plain text for people.

    Examples
    --------
    >>> iv = {"mean": 0.5, "lo": 0.4, "hi": 0.6, "mean_lo": 0.49, "mean_hi": 0.51}
    >>> res = {"n_pairs": 2, "n_sentences": 4, "n_participants": 6, "n_splits": 3,
    ...        "stats": {"blimp": iv}, "delta_for": {}, "note": "n", "authors_note": "a"}
    >>> print(format_table(res).splitlines()[3])
    blimp                     0.500  [0.400, 0.600]  [0.490, 0.510]
    """
    lines = [
        f"{LABEL}: {result['n_pairs']} LI pairs, {result['n_sentences']} sentences, "
        f"{result['n_participants']} participants, {result['n_splits']} split-halves",
        "",
        f"{'statistic':<24}  {'mean':>5}  {'splits 2.5–97.5%':<14}  {'95% CI of mean':<14}",
    ]
    for name, iv in result["stats"].items():
        lines.append(
            f"{name:<24}  {_fmt(iv['mean'])}  [{_fmt(iv['lo'])}, {_fmt(iv['hi'])}]  "
            f"[{_fmt(iv['mean_lo'])}, {_fmt(iv['mean_hi'])}]"
        )
    if result["delta_for"]:
        lines += ["", "δ at which half B passes a share of pairs against half A:"]
        for share, iv in result["delta_for"].items():
            lines.append(
                f"  {float(share):.0%}: δ = {_fmt(iv['of_mean_curve'], 2)} on the mean curve; "
                f"per split median {_fmt(iv['median'], 2)} [{_fmt(iv['lo'], 2)}, "
                f"{_fmt(iv['hi'], 2)}] (— = never), reached in {iv['reached_in']:.0%} of splits"
            )
    if result.get("delta_for_of_sign"):
        lines.append("δ at which ADC reaches a share of its limit ADC(∞) (the sign agreement):")
        for share, iv in result["delta_for_of_sign"].items():
            lines.append(
                f"  {float(share):.0%} of ADC(∞): δ per split median {_fmt(iv['median'], 2)} "
                f"[{_fmt(iv['lo'], 2)}, {_fmt(iv['hi'], 2)}]"
            )
    tasks = result.get("tasks")
    if tasks:
        names = list(next(iter(tasks["tasks"].values()))["models"])
        lines += [
            "",
            "Tasks (LI pairs): split-half reliability (Spearman-Brown) and Pearson r of the "
            "thesis's model deltas with each task's pair measure (raw / disattenuated):",
            f"{'task':<5} {'pairs':>5} {'reliab.':>7}  " + "  ".join(f"{n:>24}" for n in names),
        ]
        for task, t in tasks["tasks"].items():
            cells = [
                f"{_fmt(m['pearson'])} / {_fmt(m['disattenuated'])}".rjust(24)
                for m in t["models"].values()
            ]
            lines.append(
                f"{task:<5} {t['n_pairs']:>5} {_fmt(t['reliability']['mean']):>7}  "
                + "  ".join(cells)
            )
        lines.append(
            "between tasks (Pearson): "
            + ", ".join(f"{k} {_fmt(v)}" for k, v in tasks["between_tasks"].items())
        )
    lines += ["", result["note"], "", result["authors_note"]]
    if "runtime_s" in result:
        lines.append(f"runtime {result['runtime_s']:.1f} s")
    return "\n".join(lines)


def add_ceiling_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``ceiling`` subcommand to an ``argparse`` subparsers object.

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> p = add_ceiling_parser(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["ceiling", "--splits", "10", "--json"])
    >>> args.splits, args.json, args.seed
    (10, True, 0)
    """
    p = subparsers.add_parser(
        "ceiling",
        help="split-half human ceiling on the LI pairs (participant-level data)",
        description=(
            "Split the magnitude-estimation participants into random halves, score half B as "
            "a model against half A, and report ADC, BLiMP, Pearson and Spearman-Brown "
            "reliability over splits. LI only: the Adger part has no participant-level data."
        ),
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument(
        "--splits", type=int, default=200, help="number of random split-halves (default 200)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random splits (default 0)")
    p.add_argument("--source", default=None, help="folder holding the source files")
    p.add_argument("--plot", default=None, metavar="PATH", help="write the ADC(δ) curve plot here")
    p.add_argument(
        "--no-tasks", action="store_true", help="skip the ME / Likert / forced-choice comparison"
    )
    p.set_defaults(func=run_ceiling)
    return p


def run_ceiling(args: argparse.Namespace) -> int:
    """Run the ``ceiling`` subcommand; returns the exit status.

    Examples
    --------
    >>> run_ceiling(argparse.Namespace(splits=0, seed=0, source=None, json=False,
    ...             plot=None, no_tasks=True))
    Traceback (most recent call last):
    ...
    ValueError: '--splits' must be >= 2 (got 0)
    """
    if args.splits < 2:
        raise ValueError(f"'--splits' must be >= 2 (got {args.splits})")
    inputs = load_inputs(args.source)
    result = compute_ceiling(
        n_splits=args.splits,
        seed=args.seed,
        source=args.source,
        tasks=not args.no_tasks,
        inputs=inputs,
    )
    if args.plot:
        from metric_adc.ceiling_plot import plot_curve, thesis_model_curves

        curves = thesis_model_curves(inputs.pairs)
        result["plot"] = str(plot_curve(result, args.plot, model_curves=curves))
    if args.json:
        json.dump(
            {**result, "row": human_ceiling_row(result)}, sys.stdout, indent=2, ensure_ascii=False
        )
        print()
    else:
        print(format_table(result))
        if args.plot:
            print(f"plot: {result['plot']}")
    return 0
