"""The thesis's Chapter 2 (:mod:`metric_adc.chapter2`): ``acrobatic``, ``disagreements``,
``matrix``, ``table-2.1`` and ``cola-features``."""

from __future__ import annotations

import argparse
import sys

from li_adger.io.cli_args import int_at_least, output_path, positive_number
from metric_adc.cli.common import dump

__all__ = [
    "add_acrobatic_parser",
    "add_cola_features_parser",
    "add_disagreements_parser",
    "add_matrix_parser",
    "add_table_2_1_parser",
    "run_acrobatic",
    "run_cola_features",
    "run_disagreements",
    "run_matrix",
    "run_table_2_1",
]


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


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def add_disagreements_parser(sub) -> argparse.ArgumentParser:
    """Register ``disagreements`` on the subparsers ``sub``."""
    from metric_adc.chapter2.disagreements import GROUPS, THESIS_TABLES

    p = sub.add_parser(
        "disagreements", help="pairs where BLiMP and the ADC, or two sets of models, disagree"
    )
    p.add_argument(
        "scores", nargs="*", metavar="SCORES", help="LI-Adger scores files (one model each)"
    )
    p.add_argument("--thesis", action="store_true",
                   help="add the thesis's 8 models (by name, e.g. bert-large-cased-cola; groups: "
                   f"{', '.join(GROUPS)}) and use its pair file")  # fmt: skip
    p.add_argument("--table", choices=[*THESIS_TABLES, "all"], default=None,
                   help="one of the thesis's tables (implies --thesis)")  # fmt: skip
    p.add_argument("--set", type=_names, default=None, metavar="NAMES",
                   help="BLiMP against the ADC for these models (comma-separated; default: all)")  # fmt: skip
    p.add_argument("--passes", type=_names, default=None, metavar="NAMES",
                   help="models that all pass the ADC (with --fails)")  # fmt: skip
    p.add_argument("--fails", type=_names, default=None, metavar="NAMES",
                   help="models that all fail the ADC (with --passes)")  # fmt: skip
    p.add_argument("--delta", type=positive_number, default=None,
                   help="the ADC's δ (default 5 for BLiMP against the ADC, 0.5 for --passes/--fails, as in the thesis)")  # fmt: skip
    p.add_argument(
        "--show",
        type=int_at_least(0),
        default=10,
        help="pairs printed per table (0: all; --json has all)",
    )
    p.add_argument("--sentences", action="store_true", help="list the shown pairs' sentences")
    p.add_argument("--no-text-check", action="store_true",
                   help="do not compare the scores files' texts with the dataset's")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run_disagreements)
    return p


def run_disagreements(args: argparse.Namespace) -> int:
    """``disagreements``: the pairs of the selections asked for, as tables."""
    from metric_adc.chapter2.disagreements import THESIS_TABLES, Selection, disagreements, expand
    from metric_adc.chapter2.formatting import format_disagreements
    from metric_adc.cli.common import li_adger_scores
    from metric_adc.pairs import li_adger_pairs, model_deltas

    thesis = args.thesis or args.table is not None
    if (args.passes is None) != (args.fails is None):
        raise ValueError("--passes and --fails go together")
    if args.table is not None and (args.passes or args.set):
        raise ValueError("--table chooses its own models: leave out --set, --passes and --fails")
    files = [li_adger_scores(path, args, "SCORES") for path in args.scores]
    if not files and not thesis:
        raise ValueError("give scores files, --thesis or --table")
    deltas: dict[str, object] = {}
    if thesis:
        from metric_adc.thesis.models import thesis_model_deltas, thesis_pair_table

        pairs = thesis_pair_table()
        deltas |= {m.name: md.delta for m, md in thesis_model_deltas(pairs)}
    else:
        pairs = li_adger_pairs()
    for bs in files:
        if bs.model in deltas:
            raise ValueError(f"two models are named {bs.model!r} ({bs.path})")
        deltas[bs.model] = model_deltas(bs.scores, pairs).delta
    if args.table is not None:
        chosen = THESIS_TABLES if args.table == "all" else {args.table: THESIS_TABLES[args.table]}
        selections = [(f"Table {k}", s) for k, s in chosen.items()]
    elif args.passes is not None:
        d = 0.5 if args.delta is None else args.delta
        selections = [("ADC", Selection(expand(args.passes), "adc", expand(args.fails), "adc", d))]
    else:
        d = 5.0 if args.delta is None else args.delta
        group = expand(args.set) if args.set else tuple(deltas)
        selections = [
            ("BLiMP, not ADC", Selection(group, "blimp", group, "adc", d)),
            ("ADC, not BLiMP", Selection(group, "adc", group, "blimp", d)),
        ]
    report = {
        "pairs": "thesis" if thesis else "li_adger",
        "tables": [{"title": t} | disagreements(pairs, deltas, s) for t, s in selections],
    }
    if args.json:
        print(dump(report))
        return 0
    sentences = None
    if args.sentences:
        from metric_adc.family.items import items_of

        units = items_of("li_adger").units
        sentences = dict(zip(units["id"], units["sentence"], strict=True))
    print(format_disagreements(report, show=args.show, sentences=sentences))
    return 0


def add_matrix_parser(sub) -> argparse.ArgumentParser:
    """Register ``matrix`` on the subparsers ``sub``."""
    p = sub.add_parser(
        "matrix",
        help="the correlation matrix over humans and every model (Figures 2-4, 2-6, 3-1, 3-3)",
    )
    p.add_argument("--with", dest="with_scores", nargs="+", metavar="SCORES", default=[],
                   help="LI-Adger scores files beside the thesis's 8 models (on its pair file)")  # fmt: skip
    p.add_argument("--level", choices=["sentences", "pairs", "both"], default="both",
                   help="sentences (Figures 2-4, 3-1), pairs (Figures 2-6, 3-3) or both (default)")  # fmt: skip
    p.add_argument("--no-text-check", action="store_true",
                   help="do not compare the scores files' texts with the dataset's")  # fmt: skip
    _plots_option(p)
    p.set_defaults(func=run_matrix)
    return p


def run_matrix(args: argparse.Namespace) -> int:
    """``matrix``: the thesis's models (and ``--with`` files) on its pair file."""
    from metric_adc.chapter2.formatting import format_matrix
    from metric_adc.chapter2.matrix import correlation_matrix, level_columns
    from metric_adc.cli.common import li_adger_scores
    from metric_adc.pairs import model_deltas
    from metric_adc.thesis.models import thesis_model_deltas, thesis_pair_table

    pairs = thesis_pair_table()
    models = {m.name: md for m, md in thesis_model_deltas(pairs)}
    for path in args.with_scores:
        bs = li_adger_scores(path, args, "--with")
        if bs.model in models:
            raise ValueError(f"two models are named {bs.model!r} ({bs.path})")
        models[bs.model] = model_deltas(bs.scores, pairs)
    levels = ["sentences", "pairs"] if args.level == "both" else [args.level]
    report = {
        "pairs": "thesis",
        "levels": {lv: correlation_matrix(level_columns(pairs, models, lv)) for lv in levels},
    }
    if args.plots:
        from metric_adc.chapter2.plots import matrix_figure, save_figure
        from metric_adc.thesis.outputs import display_name

        for lv, m in report["levels"].items():
            names = [display_name(n) for n in m["names"]]
            fig = matrix_figure(names, m["matrix"], title=f"Pearson's r on LI-Adger {lv}")
            save_figure(fig, args.plots, f"matrix-{lv}")
        print(f"wrote {len(levels)} plots to {args.plots}", file=sys.stderr)
    print(dump(report) if args.json else format_matrix(report))
    return 0


def add_table_2_1_parser(sub) -> argparse.ArgumentParser:
    """Register ``table-2.1`` on the subparsers ``sub``."""
    p = sub.add_parser(
        "table-2.1", help="MCC over restarts of fine-tuning runs (the thesis's Table 2.1)"
    )
    p.add_argument(
        "runs", nargs="+", metavar="RUN", help="run folders (python -m baselines finetune)"
    )
    p.add_argument("--no-references", action="store_true", help="leave the thesis's rows out")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run_table_2_1)
    return p


def _li_adger_labels() -> dict[str, dict[str, bool]]:
    from metric_adc.family.items import items_of
    from metric_adc.thesis.outputs import load_thesis_labels

    labels = items_of("li_adger").labels
    expert = dict(zip(labels["id"], labels["label"].astype(bool), strict=True))
    return {"expert": expert, "thesis_label": load_thesis_labels()}


def run_table_2_1(args: argparse.Namespace) -> int:
    """``table-2.1``: one row per run, then the thesis's reference rows."""
    from metric_adc.chapter2.formatting import format_table_2_1
    from metric_adc.chapter2.restarts import REFERENCE_ROWS, TABLE_2_2_ROWS, table_2_1_row
    from metric_adc.chapter2.runs import read_run

    labels = _li_adger_labels()
    rows = [table_2_1_row(read_run(path), labels) for path in args.runs]
    report = {
        "rows": rows,
        "references": [] if args.no_references else list(REFERENCE_ROWS),
        "table_2_2_references": [] if args.no_references else list(TABLE_2_2_ROWS),
    }
    print(dump(report) if args.json else format_table_2_1(report))
    return 0


def add_cola_features_parser(sub) -> argparse.ArgumentParser:
    """Register ``cola-features`` on the subparsers ``sub``."""
    p = sub.add_parser(
        "cola-features", help="MCC by feature of the CoLA analysis set (Figures 2-1, 2-2)"
    )
    p.add_argument(
        "runs", nargs="+", metavar="RUN", help="run folders (python -m baselines finetune)"
    )
    p.add_argument("--level", choices=["major", "minor", "both"], default="both",
                   help="major features (Figure 2-1), minor (Figure 2-2) or both (default)")  # fmt: skip
    _plots_option(p)
    p.set_defaults(func=run_cola_features)
    return p


def run_cola_features(args: argparse.Namespace) -> int:
    """``cola-features``: per level, one row per feature and run."""
    from metric_adc.chapter2.features import dashed_line, feature_rows
    from metric_adc.chapter2.formatting import format_features
    from metric_adc.chapter2.runs import read_run

    runs = [read_run(path) for path in args.runs]
    names = [r.name for r in runs]
    if len(set(names)) < len(names):
        raise ValueError(f"two run folders have the same name ({names}): rename one")
    levels = ["major", "minor"] if args.level == "both" else [args.level]
    report = {
        "dashed": {r.name: dashed_line(r) for r in runs},
        "levels": {lv: [row for r in runs for row in feature_rows(r, lv)] for lv in levels},
    }
    if args.plots:
        from metric_adc.chapter2.plots import features_figure, save_figure

        for lv, rows in report["levels"].items():
            save_figure(
                features_figure(rows, level=lv, dashed=report["dashed"]),
                args.plots,
                f"cola-features-{lv}",
            )
        print(f"wrote {len(levels)} plots to {args.plots}", file=sys.stderr)
    print(dump(report) if args.json else format_features(report))
    return 0
