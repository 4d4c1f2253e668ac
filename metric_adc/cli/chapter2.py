"""The thesis's Chapter 2 (:mod:`metric_adc.chapter2`): ``acrobatic``, ``disagreements``,
``matrix``, ``table-2.1`` and ``cola-features``."""

from __future__ import annotations

import argparse
import sys

from li_adger.io.cli_args import output_path
from metric_adc.cli.common import dump

__all__ = ["add_acrobatic_parser", "run_acrobatic"]


def _plots_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plots", metavar="DIR", type=output_path(folder=True),
                   help="write PNG figures into DIR")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def add_acrobatic_parser(sub) -> argparse.ArgumentParser:
    """Register ``acrobatic`` on the subparsers ``sub``."""
    p = sub.add_parser(
        "acrobatic", help="the acrobatic sentences of a run of training orders (Figure 2-3)"
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--thesis", action="store_true",
                     help="the thesis's 200 orders of BERT-base-uncased (bert_stability_testing_data.csv)")  # fmt: skip
    src.add_argument(
        "run", nargs="?", metavar="RUN", help="a run folder with restart_kind 'orders'"
    )
    _plots_option(p)
    p.set_defaults(func=run_acrobatic)
    return p


def run_acrobatic(args: argparse.Namespace) -> int:
    """``acrobatic``: the report of the thesis's study or of a run of orders."""
    from metric_adc.chapter2.formatting import format_acrobatic
    from metric_adc.chapter2.orders import acrobatic_report, run_study
    from metric_adc.chapter2.runs import read_run
    from metric_adc.chapter2.stability import large_cased_acrobatic, thesis_study

    thesis = thesis_study()
    if args.thesis:
        report = acrobatic_report(thesis.study, thesis=thesis, large_cased=large_cased_acrobatic(),
                                  is_thesis=True)  # fmt: skip
    else:
        report = acrobatic_report(run_study(read_run(args.run)), thesis=thesis)
    if args.plots:
        from metric_adc.chapter2.plots import plot_acrobatic

        written = plot_acrobatic(report, args.plots)
        print(f"wrote {len(written)} plots to {args.plots}", file=sys.stderr)
    print(dump(report) if args.json else format_acrobatic(report))
    return 0
