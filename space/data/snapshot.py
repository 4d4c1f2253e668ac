"""``python -m space snapshot``: refresh the results that ship with the app.

Every scores file in ``--from DIR`` (as ``python -m baselines score`` writes them) is evaluated
on the benchmark its metadata's ``dataset`` names (LI-Adger when it names none) and written
into the shipped folder (``space/results/`` by default, :mod:`space.data.shipped`): LI-Adger as
``id,score`` with its result row, another benchmark as its compact result. ``--linking NAME …``
also ships, for every LI-Adger file that carries the linking fields, one model per linking
function (:mod:`metric_adc.linking.rows`; ``fitted``: the README's SmolLM2 with the fitted
linking). The thesis's 8 reference models (the z-scores of its published outputs, found as
:mod:`metric_adc.thesis.outputs` finds them), the benchmarks' reference rows and the human
ceiling (the README's split count and seed) are written too when their source files are
available; otherwise the shipped ones stay. Nothing else is touched: a model not in ``DIR``
keeps its shipped files.

    python -m baselines score --model trigram --out results/trigram.jsonl
    python -m space snapshot --from results/
    python -m space snapshot                  # the thesis's models, references, ceiling only
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from li_adger.benchmarks import BENCHMARKS, benchmark, load_items
from li_adger.sources import ChecksumError, SourceNotFoundError
from metric_adc import rows
from metric_adc.ceiling.compute import human_ceiling
from metric_adc.linking.rows import (
    LINKING_CHOICES,
    fitted_note,
    has_linking_fields,
    linked_metadata,
    linking_scores,
)
from metric_adc.pairs import PairTable, li_adger_pairs, model_deltas
from metric_adc.report.references import reference_results
from metric_adc.scores.file import ScoresFile, ScoresFileError, read_scores
from metric_adc.scores.labels import row_label
from space.data import shipped
from space.data.benchmark_data import FAMILY, LI_ADGER, family_entry_from_scores
from space.data.kinds import KIND_SHIPPED
from space.data.names import model_name
from space.data.results_folder import scores_files

__all__ = ["main", "snapshot_file", "snapshot_references", "snapshot_thesis"]


def _linked(
    sf: ScoresFile, pairs: PairTable, linking: Sequence[str], folder: str | Path
) -> list[Path]:
    """One shipped model per linking function of ``linking``, from the fields of ``sf``."""
    written = []
    for name in linking:
        scores, fit = linking_scores(sf, name, pairs=pairs)
        metadata = linked_metadata(sf, name)
        label = row_label(metadata)
        note = None if fit is None else fitted_note(fit)
        row = rows.evaluate_on_pairs(scores, pairs, model=label, note=note)
        written += shipped.write_li_adger(folder, label, scores, metadata, row)
    return written


def snapshot_file(
    path: str | Path, sf: ScoresFile, folder: str | Path, *, linking: Sequence[str] = ()
) -> list[Path]:
    """Write one scores file's shipped results into ``folder``; return the files written.

    ``linking`` names linking functions to ship as models of their own when the file carries
    the linking fields (an LI-Adger file of ``--variant slor`` or ``normlp``). Raises
    :class:`ValueError` when its ``dataset`` is not a benchmark or a unit lacks a score, and the
    source lookup's errors when a benchmark's items cannot be read.

    Examples
    --------
    >>> import tempfile, numpy as np
    >>> sf = ScoresFile({"model": "m", "dataset": "glue"}, ["a"], np.array([1.0]))
    >>> snapshot_file("m.jsonl", sf, tempfile.mkdtemp())
    Traceback (most recent call last):
    ValueError: m.jsonl: its 'dataset' metadata is 'glue'; expected one of ['li_adger', 'blimp', 'npi', 'diagnostics', 'cola']
    """
    path = Path(path)
    bench = str(sf.metadata.get("dataset") or LI_ADGER)
    if bench not in BENCHMARKS:
        raise ValueError(
            f"{path.name}: its 'dataset' metadata is {bench!r}; expected one of {list(BENCHMARKS)}"
        )
    name = model_name(sf, path.stem)
    if bench == LI_ADGER:
        scores = sf.as_dict()
        pairs = li_adger_pairs()
        row = rows.evaluate_on_pairs(scores, pairs, model=name)
        written = shipped.write_li_adger(folder, name, scores, sf.metadata, row)
        if linking and has_linking_fields(sf):
            written += _linked(sf, pairs, linking, folder)
        return written
    items = load_items(bench)
    entry = family_entry_from_scores(benchmark(bench), items, sf, name=name, kind=KIND_SHIPPED)
    return [shipped.write_family(folder, bench, entry, sf.metadata)]


def snapshot_references(folder: str | Path) -> list[Path]:
    """Write the reference rows of every benchmark that has some (:data:`~space.data.benchmark_data.FAMILY`)."""
    written = []
    for bench in FAMILY:
        if BENCHMARKS[bench].references:
            written.append(shipped.write_references(folder, bench, reference_results(bench)))
    return written


def snapshot_thesis(folder: str | Path, outputs: str | Path | None = None) -> list[Path]:
    """Write the thesis's 8 reference models into ``folder``: each model's z-scores, as the
    thesis evaluates them (the BERT models' raw scores z-scored over the 4,178 sentences, the
    trigram's own z-scores as given), and its result row.

    ``outputs`` is a folder of the thesis's output files (default: ``$ADC_THESIS_OUTPUTS``,
    else the lookup of :mod:`li_adger.sources`). Raises its errors when they are not found.
    """
    from li_adger.sources import SOURCE_FILES, THESIS_OUTPUT_FILES
    from metric_adc.thesis.outputs import load_thesis_models

    # the pinned URL: https://raw.githubusercontent.com/<owner>/<repo>/<commit>/output/<file>
    owner, repo, commit = SOURCE_FILES[THESIS_OUTPUT_FILES[0]].url.split("/")[3:6]
    source = f"Vázquez Martínez (2021), {owner}/{repo} at {commit}, output/"
    pairs = li_adger_pairs()
    written = []
    for m in load_thesis_models(outputs):
        scored = model_deltas(m.scores, pairs, standardize=not m.standardized)
        row = rows.model_row(scored, pairs, model=m.label, note=m.note)
        metadata = {"thesis_model": m.name, "source": source}
        written += shipped.write_thesis(folder, m.label, scored.z, metadata, row)
    return written


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m space snapshot",
        description="Refresh the results that ship with the app: a folder of scores files, the "
        "thesis's reference models, the benchmarks' reference rows and the human ceiling.",
    )
    p.add_argument("--from", dest="source", metavar="DIR", help="scores files to ship")
    p.add_argument(
        "--to",
        default=str(shipped.SHIPPED_DIR),
        metavar="DIR",
        help=f"the shipped results folder (default {shipped.SHIPPED_DIR})",
    )
    p.add_argument(
        "--linking",
        nargs="+",
        choices=LINKING_CHOICES,
        default=[],
        metavar="NAME",
        help="also ship one model per linking function of each LI-Adger file that carries the "
        f"linking fields ({', '.join(LINKING_CHOICES)})",
    )
    p.add_argument(
        "--thesis-outputs",
        metavar="DIR",
        default=None,
        help="the thesis's output files (default $ADC_THESIS_OUTPUTS, else the source lookup)",
    )
    p.add_argument("--no-thesis", action="store_true", help="leave the thesis's models as they are")
    p.add_argument("--no-ceiling", action="store_true", help="leave the human ceiling as it is")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; 0 when every file was shipped, 1 when some were refused."""
    p = _parser()
    args = p.parse_args(argv)
    files: list[Path] = []
    if args.source is not None:
        source = Path(args.source)
        if not source.is_dir():
            p.error(f"--from {source}: not a folder")
        files = scores_files(source)
    refused = 0
    for f in files:
        try:
            written = snapshot_file(f, read_scores(f), args.to, linking=args.linking)
        except (ScoresFileError, ValueError, SourceNotFoundError, ChecksumError) as exc:
            print(f"refused {f.relative_to(args.source)}: {exc}", file=sys.stderr)
            refused += 1
            continue
        print(f"{f.relative_to(args.source)} → {', '.join(str(w) for w in written)}")
    if not args.no_thesis:
        try:
            written = snapshot_thesis(args.to, args.thesis_outputs)
        except (SourceNotFoundError, ChecksumError) as exc:
            print(f"thesis models kept as shipped: {exc}", file=sys.stderr)
        else:
            print(f"thesis models → {len(written) // 2} models in {Path(args.to) / shipped.THESIS}")
    try:
        for w in snapshot_references(args.to):
            print(f"references → {w}")
    except (SourceNotFoundError, ChecksumError) as exc:
        print(f"reference rows kept as shipped: {exc}", file=sys.stderr)
    if not args.no_ceiling:
        try:
            record = human_ceiling()
        except (SourceNotFoundError, ChecksumError) as exc:
            print(f"human ceiling kept as shipped: {exc}", file=sys.stderr)
        else:
            print(f"ceiling → {shipped.write_ceiling(args.to, record)}")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
