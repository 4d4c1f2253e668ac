"""Command line: ``python -m metric_adc {report,summary,reproduce,table-2.2,ceiling,push} ...``.

- ``report SCORES`` — evaluate a scores file on its benchmark (the metadata's ``dataset``;
  LI-Adger without one): on LI-Adger the ADC row, the analyses (δ sweep, breakdowns,
  bootstrap intervals) and, for a CoLA classifier, its MCC against the expert labels; on
  BLiMP, NPI, the diagnostics and CoLA the headline, the breakdowns, bootstrap intervals and
  the reference rows; optionally plots.
- ``summary SCORES... | --results DIR`` — one table of models across the family, then the
  reference rows.
- ``reproduce`` — the thesis's 8 models recomputed from its outputs, optionally beside
  scores files (``--with``).
- ``table-2.2`` — the thesis's Table 2.2, its CoLA classifiers' MCC on LI-Adger, against the
  expert labels and against the thesis's own label column.
- ``ceiling`` — the split-half human ceiling (:mod:`metric_adc.ceiling.cli`).
- ``push REPO_ID`` — publish the ``evaluate`` module as a Hub Space (:mod:`metric_adc.publish`).

``report`` and ``reproduce`` add the human split-half row (LI pairs only) unless
``--ceiling-splits 0``; ``--markdown`` prints their rows as a GitHub-markdown table.
``report``, ``reproduce`` and ``summary`` compare a scores file's texts with the dataset's
(``--no-text-check`` skips it) and warn when a LI-Adger file leaves sentences out. Errors in
the input print one line naming the option or the file (``docs/errors.md``).

Subcommands are registered in :func:`build_parser`; each has a ``run_*`` function.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from li_adger.benchmarks import BENCHMARKS
from li_adger.io.cli_args import int_at_least, output_path, positive_number
from metric_adc import core, pairs
from metric_adc.ceiling.compute import HUMAN_ROW_SPLITS
from metric_adc.linking.rows import add_linking_option
from metric_adc.report import formatting, rows

__all__ = ["build_parser", "main"]


def _json_default(obj):
    if isinstance(obj, np.generic):
        return obj.item()
    raise TypeError(f"not JSON serializable: {type(obj).__name__}")


def _dump(obj) -> str:
    def clean(x):
        if isinstance(x, float) and not math.isfinite(x):
            return None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [clean(v) for v in x]
        return x

    return json.dumps(clean(obj), indent=2, ensure_ascii=False, default=_json_default)


def _pairs(kind: str) -> pairs.PairTable:
    return pairs.thesis_pair_table() if kind == "thesis" else pairs.li_adger_pairs()


def _ceiling_splits(text: str) -> int:
    n = int(text) if text.strip().lstrip("+-").isdigit() else -1
    if n != 0 and n < 2:
        raise argparse.ArgumentTypeError(
            f"must be 0 (no human row) or an integer >= 2 (got {text!r})"
        )
    return n


def _human_row(args: argparse.Namespace) -> dict | None:
    """The human split-half row, or ``None`` when disabled or the participant data is absent."""
    if not args.ceiling_splits:
        return None
    from li_adger.sources.participants import print_authors_note
    from metric_adc.ceiling.cache import cached_row
    from metric_adc.ceiling.compute import compute_ceiling

    computed = []

    def compute() -> dict:
        computed.append(True)
        result = compute_ceiling(
            n_splits=args.ceiling_splits, seed=0, tasks=False, deltas=args.delta
        )
        return rows.ceiling_row(result)

    try:
        row = cached_row(compute, n_splits=args.ceiling_splits, seed=0, deltas=args.delta)
    except FileNotFoundError as exc:
        print(f"human split-half row not shown: {exc}", file=sys.stderr)
        return None
    if not computed:
        print_authors_note()  # the row comes from their data, cached or not
    return row


def _report_scores(args: argparse.Namespace):
    """The scores file of ``report``, read for its benchmark: every report reads it here."""
    from metric_adc.scores.benchmark import read_benchmark_scores

    return read_benchmark_scores(
        args.scores, benchmark=args.benchmark, check_text=not args.no_text_check
    )


def _li_adger_scores(path: str, args: argparse.Namespace, option: str):
    """A scores file given to ``option`` (``--baseline``, ``--with``): LI-Adger's, text-checked."""
    from metric_adc.scores.benchmark import read_benchmark_scores

    bs = read_benchmark_scores(path, check_text=not args.no_text_check)
    if bs.benchmark != "li_adger":
        raise ValueError(f"{option}: {path} holds {bs.benchmark!r} scores; expected LI-Adger's")
    return bs


def run_report(args: argparse.Namespace) -> int:
    """``report``: one scores file → its benchmark's report (rows, analyses, optional plots)."""
    bs = _report_scores(args)
    if bs.benchmark == "li_adger":
        return _report_li_adger(args, bs)
    return _report_benchmark(args, bs)


def _report_benchmark(args: argparse.Namespace, bs) -> int:
    """``report`` on BLiMP, NPI, the diagnostics or CoLA."""
    from metric_adc.report import family_format
    from metric_adc.report.benchmark import benchmark_report

    given = [o for o, v in (("--baseline", args.baseline), ("--prestandardized",
             args.prestandardized), ("--pairs thesis", args.pairs != "li_adger")) if v]  # fmt: skip
    if given:
        raise ValueError(
            f"{', '.join(given)} apply to LI-Adger scores files only ({args.scores} is "
            f"{bs.benchmark!r})"
        )
    report = benchmark_report(bs, seed=args.seed, n_resamples=args.n_resamples)
    if args.plots:
        from metric_adc.report import plots

        written = plots.plot_benchmark(report, args.plots)
        print(f"wrote {len(written)} plots to {args.plots}", file=sys.stderr)
    if args.json:
        print(_dump(report))
        return 0
    print(family_format.format_benchmark_report(report, markdown=args.markdown, seed=args.seed))
    return 0


def _report_li_adger(args: argparse.Namespace, bs) -> int:
    """``report`` on LI-Adger: the ADC report.

    ``--prestandardized`` applies to the scores file and to the ``--baseline`` file alike:
    both are compared on the scale they are given in, neither is z-scored again.
    """
    from metric_adc.report import family_format
    from metric_adc.report.analysis import analyze_on_pairs
    from metric_adc.report.benchmark import li_adger_mcc_rows

    table = _pairs(args.pairs)
    if args.linking:  # one row per linking function of the file's fields
        return _report_linking(args, bs.file, table)
    standardize = not args.prestandardized
    scored = pairs.model_deltas(bs.scores, table, standardize=standardize)
    baseline = None
    if args.baseline:
        baseline = pairs.model_deltas(
            _li_adger_scores(args.baseline, args, "--baseline").scores,
            table,
            standardize=standardize,
        )
    row = rows.model_row(scored, table, model=bs.model, deltas=args.delta, convention=bs.convention)
    analysis = analyze_on_pairs(
        scored,
        table,
        rng=np.random.default_rng(args.seed),
        deltas=args.delta,
        n_resamples=args.n_resamples,
        baseline=baseline,
    )
    human = _human_row(args)
    shown = [row]
    if human is not None and table.source is not None and "LI" in table.source:
        # the human row covers the LI pairs only: show the model on the same pairs beside it
        shown.append(
            rows.source_row(
                scored, table, "LI", model=bs.model, deltas=args.delta, convention=bs.convention
            )
        )
    if human is not None:
        shown.append(human)
    if args.plots:
        from metric_adc.report import plots

        written = plots.write_plots(
            args.plots, model=bs.model, model_z=scored.z, judgements=table.judgements,
            model_delta=scored.delta, human_delta=table.human_delta, sweep=analysis["sweep"],
            by_group=analysis["by_phenomenon"] or row["by_group"], delta=args.delta[0],
        )  # fmt: skip
        print(f"wrote {len(written)} plots to {args.plots}", file=sys.stderr)
    table_2_2 = li_adger_mcc_rows(bs)
    if args.json:
        report = {"benchmark": "li_adger", "rows": shown, "analysis": analysis}
        print(_dump({**report, "table_2_2": table_2_2}))
        return 0
    mcc = []
    if table_2_2:
        mcc = [
            family_format.format_table_2_2(table_2_2, markdown=args.markdown, context="li_adger")
        ]
    if args.markdown:
        print("\n\n".join([formatting.format_markdown(shown), *mcc]))
        return 0
    level = "phenomena" if analysis["ci"]["phenomena"] else "pairs"
    blocks = [
        formatting.format_table(shown),
        formatting.format_report_notes(shown),
        formatting.format_intervals(
            analysis["ci"][level], level=level, n_resamples=args.n_resamples, seed=args.seed
        ),
    ]
    if analysis["baseline"]:
        blocks.append(
            formatting.format_comparison(
                analysis["baseline"], name=args.baseline, prestandardized=args.prestandardized
            )
        )
    if human is not None:
        blocks.append(formatting.format_human_note(human))
    print("\n\n".join([*blocks, *mcc]))
    return 0


def _report_linking(args: argparse.Namespace, sf, table: pairs.PairTable) -> int:
    """``report --linking``: the file's linking rows (:mod:`metric_adc.linking.rows`), the
    human row, and how the fitted linking was fitted."""
    from metric_adc.linking.rows import format_fits, linking_rows

    if args.baseline or args.plots or args.prestandardized:
        raise ValueError("--linking computes its own scores: drop --baseline, --plots and "
                         "--prestandardized")  # fmt: skip
    shown, fits = linking_rows(sf, table, args.linking, deltas=args.delta)
    human = _human_row(args)
    shown += [human] if human is not None else []
    if args.json:
        print(_dump({"rows": shown, "linking": fits}))
    elif args.markdown:
        print(formatting.format_markdown(shown))
    else:
        print("\n\n".join(b for b in (formatting.format_table(shown), format_fits(fits)) if b))
    return 0


def run_reproduce(args: argparse.Namespace) -> int:
    """``reproduce``: the thesis's 8 models from ``thesis-outputs/``, then the scores files
    of ``--with`` on the same pairs, then the human split-half row."""
    from metric_adc.linking.rows import has_linking_fields, linking_rows

    table = pairs.thesis_pair_table(args.thesis_dir)
    thesis_models = pairs.thesis_model_deltas(table, args.thesis_dir)
    shown = rows.thesis_rows(thesis_models, table, deltas=args.delta)
    for path in args.with_scores:
        bs = _li_adger_scores(path, args, "--with")
        if args.linking and has_linking_fields(bs.file):  # one row per linking function
            shown += linking_rows(bs.file, table, args.linking, deltas=args.delta)[0]
            continue
        shown.append(
            rows.evaluate_on_pairs(
                bs.scores, table, model=bs.model, deltas=args.delta, convention=bs.convention
            )
        )
    human = _human_row(args)
    if human is not None:
        shown.append(human)
    if args.plots:
        from metric_adc.report import plots

        sweeps = {}
        for m, scored in thesis_models:
            sweeps[m.name] = core.delta_sweep(scored.delta, table.human_delta)
            plots.plot_deltas(scored.delta, table.human_delta, Path(args.plots)
                              / f"{m.name}_deltas.png", delta=args.delta[0], title=m.name)  # fmt: skip
        plots.plot_adc_curves(sweeps, Path(args.plots) / "adc_curves.png",
                              title="ADC(δ), thesis models")  # fmt: skip
        print(f"wrote {len(sweeps) + 1} plots to {args.plots}", file=sys.stderr)
    if args.json:
        print(_dump({"rows": shown}))
        return 0
    if args.markdown:
        print(formatting.format_markdown(shown))
        return 0
    models = [r for r in shown if r is not human]
    blocks = [formatting.format_table(shown), formatting.format_reproduce_notes(models)]
    if human is not None:
        blocks.append(formatting.format_human_note(human))
    print("\n\n".join(blocks))
    return 0


def run_summary(args: argparse.Namespace) -> int:
    """``summary``: scores files (and those of ``--results DIR``) → one table across the
    family, then the reference rows."""
    from metric_adc.report import family_format
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
        print(_dump({"rows": shown}))
        return 0
    print(family_format.format_summary(shown, markdown=args.markdown))
    return 0


def run_table_2_2(args: argparse.Namespace) -> int:
    """``table-2.2``: the thesis's CoLA classifiers' MCC on LI-Adger, from its outputs."""
    from metric_adc.report import family_format

    shown = rows.table_2_2_rows(args.thesis_dir)
    if args.json:
        print(_dump({"rows": shown}))
        return 0
    print(family_format.format_table_2_2(shown, markdown=args.markdown))
    return 0


def run_push(args: argparse.Namespace) -> int:
    """``push``: stage the ``evaluate`` module's Space folder and upload it (or ``--dry-run``)."""

    from li_adger import hub
    from metric_adc.publish import stage_metric

    result = hub.push_staged(
        args,
        lambda tmp: stage_metric(tmp, repo_id=args.repo_id, requirement=args.requirement),
        repo_type="space",
    )
    print(hub.report_result(result))
    return 0


def run_harness_path(args: argparse.Namespace) -> int:
    """``harness-path``: print the lm-evaluation-harness task folder (for ``--include_path``)."""
    from metric_adc.harness import task_dir

    print(task_dir())
    return 0


def _text_check_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-text-check", action="store_true",
                   help="do not compare the texts of a scores file with the dataset's (by "
                   "default a text that differs from its id's is an error)")  # fmt: skip


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"warning: {message}", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, one subparser per subcommand.

    Examples
    --------
    >>> build_parser().parse_args(["reproduce", "--json"]).command
    'reproduce'
    >>> build_parser().parse_args(["ceiling", "--splits", "20"]).splits
    20
    """
    parser = argparse.ArgumentParser(
        prog="python -m metric_adc", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--delta", type=positive_number, nargs="+", default=list(core.DEFAULT_DELTAS),
                       help="ADC thresholds (> 0; default 0.5 1 5); the first is used for plots")  # fmt: skip
        out = p.add_mutually_exclusive_group()
        out.add_argument("--json", action="store_true", help='print {"rows": [...]} as JSON')
        out.add_argument("--markdown", action="store_true",
                         help="print the rows as a GitHub-markdown table")  # fmt: skip
        p.add_argument("--plots", metavar="DIR", type=output_path(folder=True),
                       help="write PNG figures into DIR")  # fmt: skip
        p.add_argument("--ceiling-splits", type=_ceiling_splits, default=HUMAN_ROW_SPLITS,
                       metavar="N", help="split-halves of the human row (LI pairs only; default "
                       f"{HUMAN_ROW_SPLITS}; 0 leaves the row out)")  # fmt: skip
        _text_check_option(p)

    p = sub.add_parser("report", help="evaluate a scores file on its benchmark")
    p.add_argument("scores", help="scores file (JSON Lines with metadata, or CSV id,score)")
    common(p)
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
    add_linking_option(p)
    p.set_defaults(func=run_report)

    p = sub.add_parser("reproduce", help="the thesis's 8 models from its outputs")
    common(p)
    p.add_argument("--thesis-dir", default=None,
                   help="folder of the thesis outputs (default $ADC_THESIS_OUTPUTS, else the "
                        "verified lookup of li_adger.sources: ../shared/data/thesis-outputs, cache, download)")  # fmt: skip
    p.add_argument("--with", dest="with_scores", nargs="+", metavar="SCORES", default=[],
                   help="scores files to evaluate on the same pairs, beside the thesis's models")  # fmt: skip
    add_linking_option(p)  # applies to the --with files that carry the linking fields
    p.set_defaults(func=run_reproduce)

    p = sub.add_parser("summary", help="one table of models across the benchmarks")
    p.add_argument("scores", nargs="*", help="scores files (any benchmark; one row per model "
                   "and convention)")  # fmt: skip
    p.add_argument("--results", metavar="DIR",
                   help="also every scores file (*.jsonl, *.csv) in this folder and its "
                   "subfolders")  # fmt: skip
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help='print {"rows": [...]} as JSON')
    out.add_argument("--markdown", action="store_true", help="print a GitHub-markdown table")
    p.add_argument("--no-references", action="store_true", help="leave the reference rows out")
    p.add_argument("--seed", type=int_at_least(0), default=0,
                   help="folds of a fitted CoLA threshold (default 0)")  # fmt: skip
    _text_check_option(p)
    p.add_argument("--thesis-dir", default=None, help="folder of the thesis outputs (as reproduce)")
    p.set_defaults(func=run_summary)

    p = sub.add_parser("table-2.2", help="the thesis's CoLA classifiers' MCC on LI-Adger")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help='print {"rows": [...]} as JSON')
    out.add_argument("--markdown", action="store_true", help="print a GitHub-markdown table")
    p.add_argument("--thesis-dir", default=None, help="folder of the thesis outputs (as reproduce)")
    p.set_defaults(func=run_table_2_2)

    from metric_adc.ceiling.cli import add_ceiling_parser

    add_ceiling_parser(sub)

    from li_adger.hub import add_push_arguments
    from metric_adc.publish import DEFAULT_REQUIREMENT

    p = sub.add_parser("push", help="publish the evaluate module as a Hub Space")
    add_push_arguments(p)
    p.add_argument("--requirement", default=DEFAULT_REQUIREMENT,
                   help="the requirements.txt line that installs metric_adc on the Hub (default "
                   f"{DEFAULT_REQUIREMENT!r}; e.g. 'li-adger-adc @ git+https://...')")  # fmt: skip
    p.set_defaults(func=run_push)

    p = sub.add_parser(
        "harness-path", help="print the lm-evaluation-harness task folder (--include_path)"
    )
    p.set_defaults(func=run_harness_path)
    return parser


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
        warnings.simplefilter("always", pairs.UnscoredSentencesWarning)
        warnings.showwarning = _show_warning
        try:
            return args.func(args)
        except (ValueError, OSError, RuntimeError, ImportError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    from li_adger.io.cli_args import run_command

    sys.exit(run_command(main))
