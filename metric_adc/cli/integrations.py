"""``push``, ``harness-path`` and ``from-harness``: the commands that hand the metric to other
tools and back — the Hub (the ``evaluate`` module as a Space, :mod:`metric_adc.publish`) and
lm-evaluation-harness (the task folder for ``--include_path``, :mod:`metric_adc.harness`; a
run's logged samples as a scores file, :mod:`metric_adc.harness.samples`)."""

from __future__ import annotations

import argparse

__all__ = [
    "add_from_harness_parser",
    "add_harness_path_parser",
    "add_push_parser",
    "run_from_harness",
    "run_harness_path",
    "run_push",
]


def add_push_parser(sub) -> argparse.ArgumentParser:
    """Register ``push`` on the subparsers ``sub``."""
    from li_adger.hub import add_push_arguments

    p = sub.add_parser("push", help="publish the evaluate module as a Hub Space")
    add_push_arguments(p)
    p.add_argument("--requirement", default=None, metavar="LINE",
                   help="install the project by this requirements.txt line (e.g. 'li-adger-adc "
                   "@ git+https://...@<commit>') instead of shipping its wheel and packages, "
                   "built from this checkout, in the Space (the default)")  # fmt: skip
    p.set_defaults(func=run_push)
    return p


def add_harness_path_parser(sub) -> argparse.ArgumentParser:
    """Register ``harness-path`` on the subparsers ``sub``."""
    p = sub.add_parser(
        "harness-path", help="print the lm-evaluation-harness task folder (--include_path)"
    )
    p.set_defaults(func=run_harness_path)
    return p


def add_from_harness_parser(sub) -> argparse.ArgumentParser:
    """Register ``from-harness`` on the subparsers ``sub``."""
    p = sub.add_parser(
        "from-harness",
        help="write the scores file of an lm-evaluation-harness li_adger_adc run",
        description="Turn the samples an lm-evaluation-harness run logged for li_adger_adc "
        "(--log_samples) into a scores file for report, summary and the app.",
    )
    p.add_argument("run", metavar="RUN_DIR_OR_SAMPLES",
                   help="the run's --output_path (or its model folder), or its "
                   "samples_li_adger_adc_<date>.jsonl")  # fmt: skip
    p.add_argument("--out", required=True, help="the scores file to write (JSON Lines)")
    p.add_argument("--model", help="the model's name in reports (default: the run's "
                   "results_<date>.json model_name, a local folder by its last part)")  # fmt: skip
    p.set_defaults(func=run_from_harness)
    return p


def run_from_harness(args: argparse.Namespace) -> int:
    """``from-harness``: write the scores file of a harness run's ``li_adger_adc`` samples."""
    from metric_adc.harness.samples import samples_to_scores
    from metric_adc.scores.file import read_scores

    out = samples_to_scores(args.run, args.out, model=args.model)
    sf = read_scores(out)
    print(f"wrote {len(sf.ids)} scores of {sf.model} to {out}")
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
