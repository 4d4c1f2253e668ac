"""``python -m space snapshot --from DIR``: refresh the results that ship with the app.

Every scores file in ``DIR`` (as ``python -m baselines score`` writes them; not recursive) is
evaluated on the benchmark its metadata's ``dataset`` names (LI-Adger when it names none)
and written into the shipped folder (``space/results/`` by default, :mod:`space.data.shipped`):
LI-Adger as ``id,score`` with its result row, another benchmark as its compact result. The
benchmarks' reference rows and the human ceiling (the README's split count and seed) are
recomputed too when their source files are available; otherwise the shipped ones stay.
Nothing else is touched: a model not in ``DIR`` keeps its shipped files.

    python -m baselines score --model trigram --out results/trigram.jsonl
    python -m space snapshot --from results/
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from li_adger.benchmarks import BENCHMARKS, benchmark, load_items
from li_adger.sources import ChecksumError, SourceNotFoundError
from metric_adc import rows
from metric_adc.pairs import li_adger_pairs
from metric_adc.report.references import reference_results
from metric_adc.scores.file import ScoresFile, ScoresFileError, read_scores
from space.data import shipped
from space.data.benchmark_data import family_entry_from_scores
from space.data.entries import KIND_SHIPPED, model_name
from space.data.loaders import FAMILY, compute_ceiling, scores_files

__all__ = ["main", "snapshot_file", "snapshot_references"]


def snapshot_file(path: str | Path, sf: ScoresFile, folder: str | Path) -> list[Path]:
    """Write one scores file's shipped results into ``folder``; return the files written.

    Raises :class:`ValueError` when its ``dataset`` is not a benchmark or a unit lacks a
    score, and the source lookup's errors when a benchmark's items cannot be read.

    Examples
    --------
    >>> import tempfile, numpy as np
    >>> sf = ScoresFile({"model": "m", "dataset": "glue"}, ["a"], np.array([1.0]))
    >>> snapshot_file("m.jsonl", sf, tempfile.mkdtemp())
    Traceback (most recent call last):
    ValueError: m.jsonl: its 'dataset' metadata is 'glue'; expected one of ['li_adger', 'blimp', 'npi', 'diagnostics', 'cola']
    """
    path = Path(path)
    bench = str(sf.metadata.get("dataset") or shipped.LI_ADGER)
    if bench not in BENCHMARKS:
        raise ValueError(
            f"{path.name}: its 'dataset' metadata is {bench!r}; expected one of {list(BENCHMARKS)}"
        )
    name = model_name(sf, path.stem)
    if bench == shipped.LI_ADGER:
        scores = sf.as_dict()
        row = rows.evaluate_on_pairs(scores, li_adger_pairs(), model=name)
        return shipped.write_li_adger(folder, name, scores, sf.metadata, row)
    items = load_items(bench)
    entry = family_entry_from_scores(benchmark(bench), items, sf, name=name, kind=KIND_SHIPPED)
    return [shipped.write_family(folder, bench, entry, sf.metadata)]


def snapshot_references(folder: str | Path) -> list[Path]:
    """Write the reference rows of every benchmark that has some (:data:`space.data.loaders.FAMILY`)."""
    written = []
    for bench in FAMILY:
        if BENCHMARKS[bench].references:
            written.append(shipped.write_references(folder, bench, reference_results(bench)))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; 0 when every file was shipped, 1 when some were refused."""
    p = argparse.ArgumentParser(
        prog="python -m space snapshot",
        description="Refresh the results that ship with the app from a folder of scores files.",
    )
    p.add_argument("--from", dest="source", required=True, metavar="DIR", help="scores files")
    p.add_argument(
        "--to",
        default=str(shipped.SHIPPED_DIR),
        metavar="DIR",
        help=f"the shipped results folder (default {shipped.SHIPPED_DIR})",
    )
    p.add_argument("--no-ceiling", action="store_true", help="leave the human ceiling as it is")
    args = p.parse_args(argv)
    source = Path(args.source)
    if not source.is_dir():
        p.error(f"--from {source}: not a folder")
    files = scores_files(source)
    refused = 0
    for f in files:
        try:
            written = snapshot_file(f, read_scores(f), args.to)
        except (ScoresFileError, ValueError, SourceNotFoundError, ChecksumError) as exc:
            print(f"refused {f.relative_to(source)}: {exc}", file=sys.stderr)
            refused += 1
            continue
        print(f"{f.relative_to(source)} → {', '.join(str(w) for w in written)}")
    try:
        for w in snapshot_references(args.to):
            print(f"references → {w}")
    except (SourceNotFoundError, ChecksumError) as exc:
        print(f"reference rows kept as shipped: {exc}", file=sys.stderr)
    if not args.no_ceiling:
        try:
            c = compute_ceiling()
        except (SourceNotFoundError, ChecksumError) as exc:
            print(f"human ceiling kept as shipped: {exc}", file=sys.stderr)
        else:
            print(f"ceiling → {shipped.write_ceiling(args.to, c.row, c.deltas, c.adc)}")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
