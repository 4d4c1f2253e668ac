"""Command line: ``python -m metric_adc {report,reproduce,ceiling,push} ...``.

- ``report SCORES`` — evaluate a scores file on LI-Adger: the result row, the analyses
  (δ sweep, breakdowns, bootstrap intervals) and optionally plots.
- ``reproduce`` — the thesis's 8 models recomputed from its outputs, optionally beside
  scores files (``--with``).
- ``ceiling`` — the split-half human ceiling (:mod:`metric_adc.ceiling_cli`).
- ``push REPO_ID`` — publish the ``evaluate`` module as a Hub Space (:mod:`metric_adc.publish`).

``report`` and ``reproduce`` add the human split-half row (LI pairs only) unless
``--ceiling-splits 0``; ``--markdown`` prints their rows as a GitHub-markdown table.

Subcommands are registered in :func:`build_parser`; each has a ``run_*`` function.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from metric_adc import core, report

__all__ = ["build_parser", "main"]


def _delta(text: str) -> float:
    try:
        return core.check_delta(float(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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


def _pairs(kind: str) -> report.PairTable:
    return report.thesis_pair_table() if kind == "thesis" else report.li_adger_pairs()


def _ceiling_splits(text: str) -> int:
    n = int(text)
    if n != 0 and n < 2:
        raise argparse.ArgumentTypeError(f"must be 0 (no human row) or >= 2 (got {n})")
    return n


def _human_row(args: argparse.Namespace) -> dict | None:
    """The human split-half row, or ``None`` when disabled or the participant data is absent."""
    if not args.ceiling_splits:
        return None
    try:
        return report.ceiling_row(args.ceiling_splits, deltas=args.delta)
    except FileNotFoundError as exc:
        print(f"human split-half row not shown: {exc}", file=sys.stderr)
        return None


def _print_human_notes(human: dict | None) -> None:
    if human is not None:
        print(f"\n{human['model']} ({human['n_splits']} split-halves, seed {human['seed']}): "
              f"{human['note']}\n{human['authors_note']}")  # fmt: skip


def run_report(args: argparse.Namespace) -> int:
    """``report``: one scores file → row, analyses, optional plots."""
    from metric_adc.scores_file import read_scores

    sf = read_scores(args.scores)
    pairs = _pairs(args.pairs)
    baseline = read_scores(args.baseline).as_dict() if args.baseline else None
    analysis = report.analyze_on_pairs(
        sf.as_dict(),
        pairs,
        rng=np.random.default_rng(args.seed),
        model=sf.label,
        deltas=args.delta,
        standardize=not args.prestandardized,
        n_resamples=args.n_resamples,
        baseline=baseline,
    )
    row = analysis["row"]
    human = _human_row(args)
    rows = [row]
    if human is not None and pairs.source is not None and "LI" in pairs.source:
        # the human row covers the LI pairs only: show the model on the same pairs beside it
        rows.append(
            report.source_row(sf.as_dict(), pairs, "LI", model=sf.label, deltas=args.delta,
                              standardize=not args.prestandardized)
        )  # fmt: skip
    if human is not None:
        rows.append(human)
    if args.plots:
        from metric_adc import plots

        z, dlm = report.model_deltas(sf.as_dict(), pairs, standardize=not args.prestandardized)
        written = plots.write_plots(
            args.plots, model=sf.label, model_z=z, judgements=pairs.judgements,
            model_delta=dlm, human_delta=pairs.human_delta, sweep=analysis["sweep"],
            by_group=analysis["by_phenomenon"] or row["by_source"], delta=args.delta[0],
        )  # fmt: skip
        print(f"wrote {len(written)} plots to {args.plots}", file=sys.stderr)
    if args.json:
        print(_dump({"rows": rows, "analysis": {k: v for k, v in analysis.items() if k != "row"}}))
        return 0
    if args.markdown:
        print(report.format_markdown(rows))
        return 0
    print(report.format_table(rows))
    print(f"\n{row['n_excluded']} pair(s) excluded for a missing human judgement; "
          f"z-scores over {row['n_sentences']} sentences.")  # fmt: skip
    if len(rows) > 2:
        print(f"{rows[1]['model']}: the model on the {rows[1]['n_pairs']} LI pairs, the pairs "
              f"of the human row ({rows[1]['note']}).")  # fmt: skip
    level = "phenomena" if analysis["ci"]["phenomena"] else "pairs"
    print(f"\n95% bootstrap intervals ({args.n_resamples} resamples of {level}, seed {args.seed}):")
    for key, ci in analysis["ci"][level].items():
        print(f"  {key:<14} {ci['estimate']:.3f}  [{ci['low']:.3f}, {ci['high']:.3f}]")
    if analysis["baseline"]:
        print(f"\nagainst the baseline {args.baseline}:")
        for k, c in analysis["baseline"]["comparison"].items():
            o = analysis["baseline"]["overlap"][k]
            print(f"  ADC δ={k}: difference {c['difference']:+.3f} [{c['low']:+.3f}, "
                  f"{c['high']:+.3f}], p = {c['p_value']:.4f}; both pass {o['both']:.3f}; "
                  f"reduced {o['reduced']:.3f} on {o['n_reduced']} pairs")  # fmt: skip
    _print_human_notes(human)
    return 0


def run_reproduce(args: argparse.Namespace) -> int:
    """``reproduce``: the thesis's 8 models from ``thesis-outputs/``, then the scores files
    of ``--with`` on the same pairs, then the human split-half row."""
    from metric_adc.scores_file import read_scores

    rows = report.reproduce_rows(args.thesis_dir, deltas=args.delta)
    if args.with_scores:
        table = report.thesis_pair_table(args.thesis_dir)
        for path in args.with_scores:
            sf = read_scores(path)
            rows.append(report.evaluate_on_pairs(sf.as_dict(), table, model=sf.label or
                                                 Path(path).stem, deltas=args.delta))  # fmt: skip
    human = _human_row(args)
    if human is not None:
        rows.append(human)
    if args.plots:
        from metric_adc import plots, thesis

        table = report.thesis_pair_table(args.thesis_dir)
        sweeps = {}
        for m in thesis.load_thesis_models(args.thesis_dir):
            _, dlm = report.model_deltas(m.scores, table, standardize=not m.standardized)
            sweeps[m.name] = core.delta_sweep(dlm, table.human_delta)
            plots.plot_deltas(dlm, table.human_delta, Path(args.plots)
                              / f"{m.name}_deltas.png", delta=args.delta[0], title=m.name)  # fmt: skip
        plots.plot_adc_curves(sweeps, Path(args.plots) / "adc_curves.png",
                              title="ADC(δ), thesis models")  # fmt: skip
        print(f"wrote {len(sweeps) + 1} plots to {args.plots}", file=sys.stderr)
    if args.json:
        print(_dump({"rows": rows}))
        return 0
    if args.markdown:
        print(report.format_markdown(rows))
        return 0
    print(report.format_table(rows))
    models = [r for r in rows if r is not human]
    notes = sorted({r["note"] for r in models if r["note"]})
    excl = sorted({r["n_excluded"] for r in models})
    print(f"\nPairs: the thesis's pair file; {', '.join(map(str, excl))} pair(s) lack a human "
          "judgement and are excluded.")  # fmt: skip
    for n in notes:
        who = ", ".join(r["model"] for r in models if r["note"] == n)
        print(f"{who}: {n}.")
    _print_human_notes(human)
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
        p.add_argument("--delta", type=_delta, nargs="+", default=list(core.DEFAULT_DELTAS),
                       help="ADC thresholds (> 0; default 0.5 1 5); the first is used for plots")  # fmt: skip
        out = p.add_mutually_exclusive_group()
        out.add_argument("--json", action="store_true", help='print {"rows": [...]} as JSON')
        out.add_argument("--markdown", action="store_true",
                         help="print the rows as a GitHub-markdown table")  # fmt: skip
        p.add_argument("--plots", metavar="DIR", help="write PNG figures into DIR")
        p.add_argument("--ceiling-splits", type=_ceiling_splits, default=report.CEILING_SPLITS,
                       metavar="N", help="split-halves of the human row (LI pairs only; default "
                       f"{report.CEILING_SPLITS}; 0 leaves the row out)")  # fmt: skip

    p = sub.add_parser("report", help="evaluate a scores file on LI-Adger")
    p.add_argument("scores", help="scores file (JSON Lines with metadata, or CSV id,score)")
    common(p)
    p.add_argument("--pairs", choices=["li_adger", "thesis"], default="li_adger",
                   help="pair table: the LI-Adger dataset (default) or the thesis's pair file")  # fmt: skip
    p.add_argument("--baseline", metavar="SCORES", help="a second scores file to compare with")
    p.add_argument("--prestandardized", action="store_true",
                   help="scores are z-scores already: do not z-score again")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--n-resamples", type=int, default=2000, help="bootstrap resamples")
    p.set_defaults(func=run_report)

    p = sub.add_parser("reproduce", help="the thesis's 8 models from its outputs")
    common(p)
    p.add_argument("--thesis-dir", default=None,
                   help="folder of the thesis outputs (default $ADC_THESIS_OUTPUTS, else the "
                        "verified lookup of li_adger.sources: ../shared/data/thesis-outputs, cache, download)")  # fmt: skip
    p.add_argument("--with", dest="with_scores", nargs="+", metavar="SCORES", default=[],
                   help="scores files to evaluate on the same pairs, beside the thesis's models")  # fmt: skip
    p.set_defaults(func=run_reproduce)

    from metric_adc.ceiling_cli import add_ceiling_parser

    add_ceiling_parser(sub)

    from li_adger.hub import add_push_arguments
    from metric_adc.publish import DEFAULT_REQUIREMENT

    p = sub.add_parser("push", help="publish the evaluate module as a Hub Space")
    add_push_arguments(p)
    p.add_argument("--requirement", default=DEFAULT_REQUIREMENT,
                   help="the requirements.txt line that installs metric_adc on the Hub (default "
                   f"{DEFAULT_REQUIREMENT!r}; e.g. 'li-adger-adc @ git+https://...')")  # fmt: skip
    p.set_defaults(func=run_push)
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
    try:
        return args.func(args)
    except (ValueError, FileNotFoundError, RuntimeError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
