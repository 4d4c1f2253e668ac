"""The thesis's Chapter 2 as the app ships it (``space/results/chapter2/``): aggregates only,
ids and numbers, never a sentence.

    acrobatic-<study>.json       the ``acrobatic`` report of a study of training orders: the
                                 Figure 2-3 curve, the MCC per order, each acrobatic sentence's
                                 id and flip count (metric_adc.chapter2.orders)
    cola-features-<run>.json     the ``cola-features`` rows of a run of restarts, both levels,
                                 and its dashed line (metric_adc.chapter2.features)

:func:`snapshot_chapter2` writes them, atomically: the thesis's study always (from its
checksum-verified outputs), and for each run folder given (``python -m baselines finetune``)
its acrobatic report when it is a run of orders and its features when it predicted the
analysis set::

    python -m space.data.chapter2 runs/minilm-orders runs/minilm-restarts
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from li_adger.io.atomic import atomic_write_text
from space.data.names import slug
from space.data.shipped import SHIPPED_DIR

__all__ = ["CHAPTER2_DIR", "read_chapter2", "snapshot_chapter2"]

CHAPTER2_DIR = SHIPPED_DIR / "chapter2"
ACROBATIC = "adc-chapter2-acrobatic"
FEATURES = "adc-chapter2-features"


def _write(path: Path, obj: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(obj, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
    return path


def snapshot_chapter2(
    runs: Sequence[str | Path] = (), *, out: str | Path = CHAPTER2_DIR
) -> list[Path]:
    """Write the thesis's acrobatic report and each run's reports into ``out``; returns the
    paths written.

    Examples
    --------
    >>> import tempfile
    >>> [p.name for p in snapshot_chapter2(out=tempfile.mkdtemp())]
    ['acrobatic-thesis-bert-base-uncased.json']
    """
    from metric_adc.chapter2.features import LEVELS, dashed_line, feature_rows
    from metric_adc.chapter2.orders import acrobatic_report, run_study
    from metric_adc.chapter2.runs import read_run
    from metric_adc.chapter2.stability import large_cased_acrobatic, thesis_study

    out = Path(out)
    thesis = thesis_study()
    report = acrobatic_report(
        thesis.study, thesis=thesis, large_cased=large_cased_acrobatic(), is_thesis=True
    )
    written = [
        _write(
            out / "acrobatic-thesis-bert-base-uncased.json",
            {"format": ACROBATIC, "version": 1, "report": report},
        )
    ]
    for path in runs:
        run = read_run(path)
        if run.restart_kind == "orders":
            report = acrobatic_report(run_study(run), thesis=thesis)
            written.append(
                _write(
                    out / f"acrobatic-{slug(run.name)}.json",
                    {"format": ACROBATIC, "version": 1, "report": report},
                )
            )
        if run.restarts and "cola_analysis" in run.restarts[0].sets:
            record = {
                "format": FEATURES,
                "version": 1,
                "model": run.name,
                "restart_kind": run.restart_kind,
                "n_restarts": len(run.restarts),
                "dashed": dashed_line(run),
                "levels": {lv: feature_rows(run, lv) for lv in LEVELS},
            }
            written.append(_write(out / f"cola-features-{slug(run.name)}.json", record))
    return written


def read_chapter2(folder: str | Path = CHAPTER2_DIR) -> tuple[dict[str, dict], dict[str, dict]]:
    """The shipped acrobatic reports (study name → report, the study of most orders first:
    the thesis's 200 before a run's few) and features (run name → record); a file of another
    format is refused, naming it.

    Examples
    --------
    >>> acrobatic, features = read_chapter2()
    >>> acrobatic["bert-base-uncased (thesis, §2.3)"]["n_acrobatic"]
    1272
    >>> [report["n_orders"] for report in acrobatic.values()] == sorted(
    ...     (report["n_orders"] for report in acrobatic.values()), reverse=True)
    True
    """
    acrobatic: dict[str, dict] = {}
    features: dict[str, dict] = {}
    folder = Path(folder)
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        record = json.loads(path.read_text(encoding="utf-8"))
        kind = record.get("format") if isinstance(record, dict) else None
        if kind == ACROBATIC:
            acrobatic[record["report"]["name"]] = record["report"]
        elif kind == FEATURES:
            features[record["model"]] = record
        else:
            raise ValueError(
                f"{path}: 'format' must be {ACROBATIC!r} or {FEATURES!r} (got {kind!r})"
            )
    by_size = sorted(acrobatic.items(), key=lambda item: (-item[1]["n_orders"], item[0]))
    return dict(by_size), features


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m space.data.chapter2 [RUN ...] [--out DIR]``."""
    p = argparse.ArgumentParser(
        prog="python -m space.data.chapter2", description=__doc__.split("\n")[0]
    )
    p.add_argument(
        "runs", nargs="*", metavar="RUN", help="run folders (python -m baselines finetune)"
    )
    p.add_argument(
        "--out", default=str(CHAPTER2_DIR), help=f"folder written (default {CHAPTER2_DIR})"
    )
    args = p.parse_args(argv)
    try:
        written = snapshot_chapter2(args.runs, out=args.out)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(str(w) for w in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
