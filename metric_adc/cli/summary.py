"""``summary`` and ``table-2.2``: one table of models across the family, and the thesis's
Table 2.2 (:mod:`metric_adc.report.summary`, :func:`metric_adc.thesis.table_2_2.table_2_2_rows`)."""

from __future__ import annotations

import argparse

from li_adger.io.cli_args import int_at_least
from metric_adc.cli.common import add_output_options, add_text_check_option, dump

__all__ = ["add_summary_parser", "add_table_2_2_parser", "run_summary", "run_table_2_2"]


def add_summary_parser(sub) -> argparse.ArgumentParser:
    """Register ``summary`` on the subparsers ``sub``."""
    p = sub.add_parser("summary", help="one table of models across the benchmarks")
    p.add_argument("scores", nargs="*", help="scores files (any benchmark; one row per model "
                   "and convention)")  # fmt: skip
    p.add_argument("--results", metavar="DIR",
                   help="also every scores file (*.jsonl, *.csv) in this folder and its "
                   "subfolders")  # fmt: skip
    add_output_options(p, json_help='print {"rows": [...]} as JSON')
    p.add_argument("--no-references", action="store_true", help="leave the reference rows out")
    p.add_argument("--seed", type=int_at_least(0), default=0,
                   help="folds of a fitted CoLA threshold (default 0)")  # fmt: skip
    add_text_check_option(p)
    p.add_argument("--thesis-dir", default=None, help="folder of the thesis outputs (as reproduce)")
    p.set_defaults(func=run_summary)
    return p


def add_table_2_2_parser(sub) -> argparse.ArgumentParser:
    """Register ``table-2.2`` on the subparsers ``sub``."""
    p = sub.add_parser("table-2.2", help="the thesis's CoLA classifiers' MCC on LI-Adger")
    add_output_options(p, json_help='print {"rows": [...]} as JSON')
    p.add_argument("--thesis-dir", default=None, help="folder of the thesis outputs (as reproduce)")
    p.set_defaults(func=run_table_2_2)
    return p


def run_summary(args: argparse.Namespace) -> int:
    """``summary``: scores files (and those of ``--results DIR``) → one table across the
    family, then the reference rows."""
    from metric_adc.report.family_format import format_summary
    from metric_adc.report.summary import scores_files, summarize_files

    paths = [*args.scores, *(scores_files(args.results) if args.results else [])]
    shown = summarize_files(
        paths,
        references=not args.no_references,
        seed=args.seed,
        thesis_dir=args.thesis_dir,
        check_text=not args.no_text_check,
    )
    if args.json:
        print(dump({"rows": [r.to_json_dict() for r in shown]}))
    else:
        print(format_summary(shown, markdown=args.markdown))
    return 0


def run_table_2_2(args: argparse.Namespace) -> int:
    """``table-2.2``: the thesis's CoLA classifiers' MCC on LI-Adger, from its outputs."""
    from metric_adc.report.family_format import format_table_2_2
    from metric_adc.thesis.table_2_2 import table_2_2_rows

    shown = table_2_2_rows(args.thesis_dir)
    if args.json:
        print(dump({"rows": [r.to_json_dict() for r in shown]}))
    else:
        print(format_table_2_2(shown, markdown=args.markdown))
    return 0
