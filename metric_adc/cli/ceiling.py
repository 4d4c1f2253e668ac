"""The ``ceiling`` subcommand: its arguments and its run (the text is
:func:`metric_adc.report.formatting.format_ceiling`, the row :func:`metric_adc.result_rows.ceiling_row`).

``python -m metric_adc ceiling [--json] [--splits N] [--seed S] [--plot PATH] [--no-tasks]``
(:mod:`metric_adc.__main__` registers it with :func:`add_ceiling_parser`).
"""

from __future__ import annotations

import argparse
import json
import sys

from li_adger.io.cli_args import int_at_least, output_path
from metric_adc.ceiling.compute import compute_ceiling
from metric_adc.ceiling.inputs import load_inputs, thesis_deltas_frame
from metric_adc.report.formatting import format_ceiling
from metric_adc.result_rows import ceiling_row

__all__ = ["add_ceiling_parser", "run_ceiling"]


def add_ceiling_parser(subparsers) -> argparse.ArgumentParser:
    """Register ``ceiling`` on the subparsers ``subparsers``."""
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
        "--splits",
        type=int_at_least(2),
        default=200,
        help="number of random split-halves (>= 2; default 200)",
    )
    p.add_argument(
        "--seed", type=int_at_least(0), default=0, help="seed of the random splits (default 0)"
    )
    p.add_argument("--source", default=None, help="folder holding the source files")
    p.add_argument(
        "--plot",
        default=None,
        metavar="PATH",
        type=output_path(folder=False),
        help="write the ADC(δ) curve plot here",
    )
    p.add_argument(
        "--no-tasks", action="store_true", help="skip the ME / Likert / forced-choice comparison"
    )
    p.set_defaults(func=run_ceiling)
    return p


def run_ceiling(args: argparse.Namespace) -> int:
    """Run the ``ceiling`` subcommand; returns the exit status."""
    if args.plot:
        from li_adger.io.inputs import check_not_input
        from li_adger.sources import source_file
        from li_adger.sources.participants import FILES

        read = ("me",) if args.no_tasks else tuple(FILES)
        where = "--source" if args.source else "the source lookup"
        check_not_input(
            [("--plot", args.plot, False)],
            [(where, source_file(FILES[t], source=args.source)) for t in read],
        )
    inputs = load_inputs(args.source, tasks=not args.no_tasks)
    # the thesis's model deltas, read once for the task comparison and the plot
    models = None if args.no_tasks and not args.plot else thesis_deltas_frame(inputs.pairs)
    result = compute_ceiling(
        n_splits=args.splits,
        seed=args.seed,
        source=args.source,
        tasks=not args.no_tasks,
        inputs=inputs,
        models=models,
    )
    if args.plot:
        from metric_adc.ceiling.plot import plot_curve, thesis_model_curves

        curves = thesis_model_curves(models, inputs.pairs["human_delta"])
        result["plot"] = str(plot_curve(result, args.plot, model_curves=curves))
    if args.json:
        json.dump(
            {**result, "row": ceiling_row(result).to_json_dict()},
            sys.stdout,
            indent=2,
            ensure_ascii=False,
        )
        print()
    else:
        print(format_ceiling(result))
        if args.plot:
            print(f"plot: {result['plot']}")
    return 0
