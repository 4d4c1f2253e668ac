"""What the subcommands share: their common options, the JSON they print, the scores files of
``--baseline``/``--with``, and the human split-half row.

A subcommand's run parses nothing and computes nothing itself: it reads its inputs, calls the
report it prints (:mod:`metric_adc.report`) and prints it, as text, markdown or JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from li_adger.benchmarks import BENCHMARKS
from li_adger.io.cli_args import output_path, positive_number
from metric_adc import core
from metric_adc.ceiling.compute import HUMAN_ROW_SPLITS, human_ceiling
from metric_adc.linking.fit import DEFAULT_FOLDS
from metric_adc.linking.function_rows import FITTED, LINKING_CHOICES
from metric_adc.result_rows import CeilingRow
from metric_adc.scores.benchmark import BenchmarkScores, read_benchmark_scores

__all__ = [
    "add_linking_option",
    "add_output_options",
    "add_report_options",
    "add_text_check_option",
    "ceiling_splits",
    "dump",
    "human_row",
    "li_adger_scores",
]


def dump(obj) -> str:
    """``obj`` as the commands print JSON: indented, UTF-8, a non-finite number as ``null``.

    Examples
    --------
    >>> print(dump({"r": float("nan"), "n": np.int64(3), "xs": (0.5, float("inf"))}))
    {
      "r": null,
      "n": 3,
      "xs": [
        0.5,
        null
      ]
    }
    """

    def clean(x):
        if isinstance(x, float) and not math.isfinite(x):
            return None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [clean(v) for v in x]
        return x

    def default(obj):
        if isinstance(obj, np.generic):
            return obj.item()
        raise TypeError(f"not JSON serializable: {type(obj).__name__}")

    return json.dumps(clean(obj), indent=2, ensure_ascii=False, default=default)


def ceiling_splits(text: str) -> int:
    """The argument type of ``--ceiling-splits``: 0 (no human row) or an integer >= 2.

    Examples
    --------
    >>> ceiling_splits("0"), ceiling_splits("20")
    (0, 20)
    >>> ceiling_splits("1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be 0 (no human row) or an integer >= 2 (got '1')
    """
    n = int(text) if text.strip().lstrip("+-").isdigit() else -1
    if n != 0 and n < 2:
        raise argparse.ArgumentTypeError(
            f"must be 0 (no human row) or an integer >= 2 (got {text!r})"
        )
    return n


def add_output_options(p: argparse.ArgumentParser, *, json_help: str) -> None:
    """``--json`` or ``--markdown`` (plain text without either)."""
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help=json_help)
    out.add_argument("--markdown", action="store_true",
                     help="print the rows as a GitHub-markdown table")  # fmt: skip


def add_text_check_option(p: argparse.ArgumentParser) -> None:
    """``--no-text-check``."""
    p.add_argument("--no-text-check", action="store_true",
                   help="do not compare the texts of a scores file with the dataset's (by "
                   "default a text that differs from its id's is an error)")  # fmt: skip


def add_report_options(p: argparse.ArgumentParser) -> None:
    """The options of ``report`` and ``reproduce``: thresholds, output, plots, the human row,
    the text check and ``--linking``."""
    p.add_argument("--delta", type=positive_number, nargs="+", default=list(core.DEFAULT_DELTAS),
                   help="ADC thresholds (> 0; default 0.5 1 5); the first is used for plots")  # fmt: skip
    add_output_options(p, json_help="print the report as JSON")
    p.add_argument("--plots", metavar="DIR", type=output_path(folder=True),
                   help="write PNG figures into DIR")  # fmt: skip
    p.add_argument("--ceiling-splits", type=ceiling_splits, default=HUMAN_ROW_SPLITS,
                   metavar="N", help="split-halves of the human row (LI pairs only; default "
                   f"{HUMAN_ROW_SPLITS}; 0 leaves the row out)")  # fmt: skip
    add_text_check_option(p)
    add_linking_option(p)


def add_linking_option(parser: argparse.ArgumentParser) -> None:
    """``--linking NAME …``: one row per linking function of a scores file's fields.

    Examples
    --------
    >>> p = argparse.ArgumentParser(exit_on_error=False)
    >>> add_linking_option(p)
    >>> p.parse_args(["--linking", "morcela"])
    Traceback (most recent call last):
    ...
    argparse.ArgumentError: argument --linking: invalid choice: 'morcela' (choose from 'logprob', 'meanlp', 'penlp', 'normlp', 'slor', 'fitted')
    """
    parser.add_argument(
        "--linking",
        nargs="+",
        choices=LINKING_CHOICES,
        default=[],
        metavar="NAME",
        help="one row per linking function, computed from a scores file's logprob, "
        f"unigram_logprob, n_words and n_tokens fields: {', '.join(LINKING_CHOICES)} "
        f"({FITTED}: β, γ of MORCELA's form fitted by {DEFAULT_FOLDS}-fold cross-validation "
        "over LI-Adger's phenomena; docs/linking.md)",
    )


def li_adger_scores(path: str, args: argparse.Namespace, option: str) -> BenchmarkScores:
    """A scores file given to ``option`` (``--baseline``, ``--with``): LI-Adger's, text-checked
    unless ``--no-text-check``."""
    bs = read_benchmark_scores(path, check_text=not args.no_text_check)
    if not BENCHMARKS[bs.benchmark].judged:
        raise ValueError(f"{option}: {path} holds {bs.benchmark!r} scores; expected LI-Adger's")
    return bs


def human_row(args: argparse.Namespace) -> CeilingRow | None:
    """The human split-half row of ``--ceiling-splits`` split-halves
    (:func:`metric_adc.ceiling.compute.human_ceiling`), or ``None`` when it is left out
    (``--ceiling-splits 0``) or the participant-level data is absent (saying so on standard
    error)."""
    if not args.ceiling_splits:
        return None
    try:
        return human_ceiling(n_splits=args.ceiling_splits, deltas=args.delta)["row"]
    except FileNotFoundError as exc:
        print(f"human split-half row not shown: {exc}", file=sys.stderr)
        return None
