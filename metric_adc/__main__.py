"""Command line: ``python -m metric_adc {report,reproduce,summary,table-2.2,ceiling,acrobatic,disagreements,matrix,table-2.1,cola-features,npi-methods,push,harness-path,from-harness} ...``.

- ``report SCORES`` — evaluate a scores file on its benchmark (the metadata's ``dataset``;
  LI-Adger without one): on LI-Adger the ADC row, the analyses (δ sweep, breakdowns,
  bootstrap intervals) and, for a CoLA classifier, its MCC against the expert labels; on
  BLiMP, NPI, the diagnostics and CoLA the headline, the breakdowns, bootstrap intervals and
  the reference rows; optionally plots (:mod:`metric_adc.cli.report`).
- ``reproduce`` — the thesis's 8 models recomputed from its outputs, optionally beside
  scores files (``--with``).
- ``summary SCORES... | --results DIR`` — one table of models across the family, then the
  reference rows (:mod:`metric_adc.cli.summary`).
- ``table-2.2`` — the thesis's Table 2.2, its CoLA classifiers' MCC on LI-Adger, against the
  expert labels and against the thesis's own label column.
- ``ceiling`` — the split-half human ceiling (:mod:`metric_adc.cli.ceiling`).
- ``acrobatic``, ``disagreements``, ``matrix``, ``table-2.1``, ``cola-features`` — the thesis's
  Chapter 2 for any classifier: the acrobatic sentences of a run of training orders, the pairs
  where BLiMP and the ADC (or two sets of models) disagree, the correlation matrix over humans
  and models, MCC over restarts and by feature of CoLA's analysis set
  (:mod:`metric_adc.cli.chapter2`, docs/chapter2.md).
- ``npi-methods RUN...`` — the NPI paper's Fig. 1 (MCC per configuration and environment,
  the Wilcox sentences), Fig. 2 (absolute and gradient minimal pairs) and Fig. 4 (probes) from
  NPI run folders and probe files (:mod:`metric_adc.cli.npi_methods`).
- ``push REPO_ID`` — publish the ``evaluate`` module as a Hub Space; ``harness-path`` — the
  lm-evaluation-harness task folder; ``from-harness RUN --out FILE`` — a harness run's
  ``li_adger_adc`` samples as a scores file (:mod:`metric_adc.cli.integrations`).

``report`` and ``reproduce`` add the human split-half row (LI pairs only) unless
``--ceiling-splits 0``; ``--markdown`` prints their rows as a GitHub-markdown table.
``report``, ``reproduce`` and ``summary`` compare a scores file's texts with the dataset's
(``--no-text-check`` skips it) and warn when a LI-Adger file leaves sentences out. Errors in
the input print one line naming the option or the file (``docs/errors.md``).

This module parses the command line and runs the subcommand; each subcommand's options and
run are in :mod:`metric_adc.cli`.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence

from metric_adc.cli.ceiling import add_ceiling_parser
from metric_adc.cli.chapter2 import (
    add_acrobatic_parser,
    add_cola_features_parser,
    add_disagreements_parser,
    add_matrix_parser,
    add_table_2_1_parser,
)
from metric_adc.cli.integrations import (
    add_from_harness_parser,
    add_harness_path_parser,
    add_push_parser,
)
from metric_adc.cli.npi_methods import add_npi_methods_parser
from metric_adc.cli.report import add_report_parser, add_reproduce_parser
from metric_adc.cli.summary import add_summary_parser, add_table_2_2_parser
from metric_adc.scores.text_check import UnscoredSentencesWarning

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

SUBCOMMANDS = {
    "report": add_report_parser,
    "reproduce": add_reproduce_parser,
    "summary": add_summary_parser,
    "table-2.2": add_table_2_2_parser,
    "ceiling": add_ceiling_parser,
    "acrobatic": add_acrobatic_parser,
    "disagreements": add_disagreements_parser,
    "matrix": add_matrix_parser,
    "table-2.1": add_table_2_1_parser,
    "cola-features": add_cola_features_parser,
    "npi-methods": add_npi_methods_parser,
    "push": add_push_parser,
    "harness-path": add_harness_path_parser,
    "from-harness": add_from_harness_parser,
}
"""Subcommand → the function that registers its parser (and its run)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, one subparser per subcommand of :data:`SUBCOMMANDS`.

    Examples
    --------
    >>> build_parser().parse_args(["report", "s.jsonl", "--ceiling-splits", "1"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    parser = argparse.ArgumentParser(
        prog="python -m metric_adc", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for add in SUBCOMMANDS.values():
        add(sub)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; errors in the input print one line and exit with status 2.

    Examples
    --------
    >>> main(["reproduce", "--delta", "-1"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    args = build_parser().parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("always", UnscoredSentencesWarning)
        warnings.showwarning = _show_warning
        try:
            return args.func(args)
        except (ValueError, OSError, RuntimeError, ImportError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    from li_adger.io.cli_args import run_command

    sys.exit(run_command(main))
