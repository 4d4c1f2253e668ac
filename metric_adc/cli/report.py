"""``report SCORES`` and ``reproduce``: a scores file's report on its benchmark, and the thesis's
models recomputed (with scores files beside them).

``report`` reads the file for its benchmark (:mod:`metric_adc.scores.benchmark`) and prints its
report (:mod:`metric_adc.report.build`: the rows and the sections its spec lists; options on
graded human judgements are refused where the spec lists no such section); ``reproduce`` prints
:func:`metric_adc.report.li_adger.reproduce_report`. Both add the human split-half row (LI
pairs only) unless ``--ceiling-splits 0``.
"""

from __future__ import annotations

import argparse
import sys

from li_adger.benchmarks import BENCHMARKS
from li_adger.io.cli_args import int_at_least
from metric_adc.cli.common import add_report_options, dump, human_row, li_adger_scores
from metric_adc.report.build import build_report, format_report, refused_options, report_plots
from metric_adc.scores.benchmark import BenchmarkScores, read_benchmark_scores
from metric_adc.scores.labels import check_distinct

__all__ = ["add_report_parser", "add_reproduce_parser", "run_report", "run_reproduce"]

_THESIS_DIR_HELP = (
    "folder of the thesis outputs (default $ADC_THESIS_OUTPUTS, else the verified lookup of "
    "li_adger.sources: ../shared/data/thesis-outputs, cache, download)"
)


def add_report_parser(sub) -> argparse.ArgumentParser:
    """Register ``report`` on the subparsers ``sub``."""
    p = sub.add_parser("report", help="evaluate a scores file on its benchmark")
    p.add_argument("scores", help="scores file (JSON Lines with metadata, or CSV id,score)")
    add_report_options(p)
    p.add_argument("--benchmark", choices=list(BENCHMARKS), default=None,
                   help="the benchmark of the file (default: the metadata's 'dataset'; "
                        "li_adger without one)")  # fmt: skip
    p.add_argument("--pairs", choices=["li_adger", "thesis"], default="li_adger",
                   help="pair table: the LI-Adger dataset (default) or the thesis's pair file")  # fmt: skip
    p.add_argument("--baseline", metavar="SCORES", help="a second scores file to compare with")
    p.add_argument("--prestandardized", action="store_true",
                   help="the scores (and those of --baseline) are z-scores already: "
                        "z-score neither file again")  # fmt: skip
    p.add_argument("--seed", type=int_at_least(0), default=0, help="bootstrap seed (default 0)")
    p.add_argument("--n-resamples", type=int_at_least(1), default=2000,
                   help="bootstrap resamples")  # fmt: skip
    p.set_defaults(func=run_report)
    return p


def add_reproduce_parser(sub) -> argparse.ArgumentParser:
    """Register ``reproduce`` on the subparsers ``sub``."""
    p = sub.add_parser("reproduce", help="the thesis's 8 models from its outputs")
    add_report_options(p)  # --linking applies to the --with files that carry the fields
    p.add_argument("--thesis-dir", default=None, help=_THESIS_DIR_HELP)
    p.add_argument("--with", dest="with_scores", nargs="+", metavar="SCORES", default=[],
                   help="scores files to evaluate on the same pairs, beside the thesis's models")  # fmt: skip
    p.set_defaults(func=run_reproduce)
    return p


def _distinct(files: list[BenchmarkScores]) -> None:
    """Two files of one table (``reproduce --with``) never share a row's name
    (:func:`metric_adc.scores.labels.check_distinct`)."""
    check_distinct((str(bs.path), bs.file.metadata, bs.benchmark) for bs in files)


def run_report(args: argparse.Namespace) -> int:
    """``report``: one scores file → its benchmark's report (and optional plots)."""
    if _perturbed(args.scores):
        return _report_perturbed(args)
    bs = read_benchmark_scores(
        args.scores, benchmark=args.benchmark, check_text=not args.no_text_check
    )
    sections = BENCHMARKS[bs.benchmark].sections
    asked = (("--baseline", "baseline", args.baseline), ("--prestandardized", "adc",
             args.prestandardized), ("--pairs thesis", "adc", args.pairs == "thesis"),
             ("--linking", "linking", args.linking))  # fmt: skip
    given = refused_options(bs.benchmark, asked)
    if given:
        verb = "applies" if len(given) == 1 else "apply"
        raise ValueError(
            f"{', '.join(given)} {verb} to LI-Adger scores files only ({args.scores} is "
            f"{bs.benchmark!r})"
        )
    pairs = None
    if args.pairs == "thesis":
        from metric_adc.thesis.models import thesis_pair_table

        pairs = thesis_pair_table()
    baseline = li_adger_scores(args.baseline, args, "--baseline") if args.baseline else None
    standardize = not args.prestandardized
    report = build_report(
        bs, pairs=pairs, baseline=baseline, standardize=standardize, deltas=args.delta,
        seed=args.seed, n_resamples=args.n_resamples, linking=args.linking,
        human=human_row(args) if "ceiling" in sections else None, baseline_name=args.baseline,
    )  # fmt: skip
    if args.plots:
        written = report_plots(report, bs, args.plots, pairs=pairs, standardize=standardize,
                               delta=args.delta[0])  # fmt: skip
        print(f"wrote {len(written)} plots to {args.plots}", file=sys.stderr)
    print(
        dump(report.to_json_dict()) if args.json else format_report(report, markdown=args.markdown)
    )
    return 0


def _perturbed(path: str) -> bool:
    """Whether ``path`` is a perturbed diagnostics run (its metadata names a perturbation)."""
    import json

    try:
        with open(path, encoding="utf-8") as fh:
            first = json.loads(fh.readline())
    except (OSError, ValueError):
        return False  # the ordinary reader names what is wrong with the file
    return isinstance(first, dict) and "perturbation" in first


def _report_perturbed(args: argparse.Namespace) -> int:
    """``report`` on a perturbed diagnostics run: Ettinger's Tables 4, 7 and 8."""
    from metric_adc.report.perturbations import (
        format_perturbation_report,
        perturbation_report,
        read_perturbed_scores,
    )

    given = [o for o, v in (("--baseline", args.baseline), ("--plots", args.plots),
             ("--benchmark", args.benchmark and args.benchmark != "diagnostics")) if v]  # fmt: skip
    if given:
        raise ValueError(f"{', '.join(given)} do(es) not apply to a perturbed run ({args.scores})")
    ps = read_perturbed_scores(args.scores, check_text=not args.no_text_check)
    report = perturbation_report(ps)
    print(dump(report) if args.json else format_perturbation_report(report, markdown=args.markdown))
    return 0


def run_reproduce(args: argparse.Namespace) -> int:
    """``reproduce``: the thesis's 8 models from ``thesis-outputs/``, then the scores files of
    ``--with`` on the same pairs, then the human split-half row."""
    from metric_adc.report.formatting import format_reproduce_report
    from metric_adc.report.li_adger import reproduce_report, thesis_plots

    files = [li_adger_scores(path, args, "--with") for path in args.with_scores]
    _distinct(files)
    report = reproduce_report(files, thesis_dir=args.thesis_dir, deltas=args.delta,
                              human=human_row(args), linking=args.linking)  # fmt: skip
    if args.plots:
        written = thesis_plots(args.plots, thesis_dir=args.thesis_dir, delta=args.delta[0])
        print(f"wrote {len(written)} plots to {args.plots}", file=sys.stderr)
    if args.json:
        print(dump(report.to_json_dict()))
    else:
        print(format_reproduce_report(report, markdown=args.markdown))
    return 0
