"""``python -m space snapshot``: refresh the results that ship with the app.

Every scores file in ``--from DIR`` (as ``python -m baselines score`` writes them) is evaluated
on the benchmark its metadata's ``dataset`` names (LI-Adger when it names none) and written
into the shipped folder (``space/results/`` by default, :mod:`space.data.shipped`): LI-Adger as
``id,score`` with its result row, another benchmark as its compact result. ``--linking NAME …``
also ships, for every LI-Adger file that carries the linking fields, one model per linking
function (:mod:`metric_adc.linking.function_rows`; ``fitted``: the README's SmolLM2 with the fitted
linking). The thesis's 8 reference models (the z-scores of its published outputs, found as
:mod:`metric_adc.thesis.outputs` finds them), the benchmarks' reference rows and the human
ceiling (the README's split count and seed) are written too when their source files are
available; otherwise the shipped ones stay. Nothing else is touched: a model not in ``DIR``
keeps its shipped files. Every file is checked first as ``report`` checks it (its texts: ids
shifted by one are refused; every unit scored); two files that give one model's result on one
benchmark (the same model, convention, variant) are an error naming both, and nothing is
shipped.

    python -m baselines score --model trigram --out results/trigram.jsonl
    python -m space snapshot --from results/
    python -m space snapshot                  # the thesis's models, references, ceiling only
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from li_adger.benchmarks import BENCHMARKS, benchmark
from li_adger.io.cli_args import output_path
from li_adger.io.inputs import InputOverwriteError, check_not_input
from li_adger.sources import ChecksumError, SourceNotFoundError
from metric_adc import result_rows
from metric_adc.ceiling.compute import human_ceiling
from metric_adc.family.items import items_of
from metric_adc.linking.function_rows import (
    LINKING_CHOICES,
    fitted_note,
    has_linking_fields,
    linked_metadata,
    linking_scores,
)
from metric_adc.pairs import PairTable, li_adger_pairs, model_deltas
from metric_adc.report.references import reference_results
from metric_adc.scores.benchmark import check_benchmark_file
from metric_adc.scores.file import ScoresFile, read_scores
from metric_adc.scores.labels import DuplicateResultError, check_distinct, row_label
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
        row = result_rows.evaluate_on_pairs(scores, pairs, model=label, note=note)
        written += shipped.write_li_adger(folder, label, scores, metadata, row)
    return written


def snapshot_file(
    path: str | Path, sf: ScoresFile, folder: str | Path, *, linking: Sequence[str] = ()
) -> list[Path]:
    """Write one scores file's shipped results into ``folder``; return the files written.

    ``linking`` names linking functions to ship as models of their own when the file carries
    the linking fields (an LI-Adger file of ``--variant slor`` or ``normlp``). The file is
    checked as the commands check it (:func:`metric_adc.scores.benchmark.check_benchmark_file`:
    its texts are the benchmark's, ids shifted by one refused; every unit an item needs is
    scored). Raises :class:`ValueError` (a ``ScoresFileError`` for the checks) when its
    ``dataset`` is not a benchmark or a check fails, and the source lookup's errors when a
    benchmark's items cannot be read.

    Examples
    --------
    >>> import tempfile, numpy as np
    >>> sf = ScoresFile({"model": "m", "dataset": "glue"}, ["a"], np.array([1.0]))
    >>> snapshot_file("m.jsonl", sf, tempfile.mkdtemp())
    Traceback (most recent call last):
    ValueError: m.jsonl: its 'dataset' metadata is 'glue'; expected one of ['li_adger', 'blimp', 'npi', 'npi_cloze', 'diagnostics', 'cola']
    """
    path = Path(path)
    bench = _benchmark_name(sf, path)
    check_benchmark_file(sf, bench, name=path.name, whole=True)
    return _write(path, sf, bench, folder, linking)


def _write(
    path: Path, sf: ScoresFile, bench: str, folder: str | Path, linking: Sequence[str]
) -> list[Path]:
    """Write a checked scores file's shipped results (:func:`snapshot_file`)."""
    name = model_name(sf, path.stem)
    if bench == LI_ADGER:
        scores = sf.as_dict()
        pairs = li_adger_pairs()
        row = result_rows.evaluate_on_pairs(scores, pairs, model=name)
        written = shipped.write_li_adger(folder, name, scores, sf.metadata, row)
        if linking and has_linking_fields(sf):
            written += _linked(sf, pairs, linking, folder)
        return written
    items = items_of(bench)
    entry = family_entry_from_scores(benchmark(bench), items, sf, name=name, kind=KIND_SHIPPED)
    return [shipped.write_family(folder, bench, entry, sf.metadata)]


def _benchmark_name(sf: ScoresFile, path: str | Path) -> str:
    """The benchmark a scores file's ``dataset`` metadata names (LI-Adger when it names none),
    or a :class:`ValueError` naming the file."""
    bench = str(sf.metadata.get("dataset") or LI_ADGER)
    if bench not in BENCHMARKS:
        raise ValueError(
            f"{Path(path).name}: its 'dataset' metadata is {bench!r}; expected one of "
            f"{list(BENCHMARKS)}"
        )
    return bench


def _linking_note(sf: ScoresFile, bench: str, linking: Sequence[str]) -> str | None:
    """Why ``--linking`` does not apply to a file (``None`` when it does)."""
    if not linking:
        return None
    if bench != LI_ADGER:
        return f"--linking applies to LI-Adger files only (this one is {bench!r})"
    if not has_linking_fields(sf):
        return "--linking needs the fields logprob, unigram_logprob and n_words (--variant slor)"
    return None


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
    from metric_adc.thesis.outputs import display_name, load_thesis_models

    # the pinned URL: https://raw.githubusercontent.com/<owner>/<repo>/<commit>/output/<file>
    owner, repo, commit = SOURCE_FILES[THESIS_OUTPUT_FILES[0]].url.split("/")[3:6]
    source = f"Vázquez Martínez (2021), {owner}/{repo} at {commit}, output/"
    pairs = li_adger_pairs()
    written = []
    for m in load_thesis_models(outputs):
        scored = model_deltas(m.scores, pairs, standardize=not m.standardized)
        row = result_rows.model_row(scored, pairs, model=display_name(m.name), note=m.note)
        metadata = {"thesis_model": m.name, "source": source}
        written += shipped.write_thesis(folder, display_name(m.name), scored.z, metadata, row)
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
        type=output_path(folder=True),
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


_REFUSED = (ValueError, SourceNotFoundError, ChecksumError)
"""A file's errors that refuse it and ship the others (a ``ScoresFileError`` is a ValueError)."""


def _refuse(path: Path, shown: Path, exc: Exception) -> None:
    """Say on standard error that a file was refused, naming it once as ``--from`` shows it."""
    message = str(exc).replace(str(path), str(shown))
    if not message.startswith((str(shown), path.name)):
        message = f"{shown}: {message}"
    print(f"refused {message}", file=sys.stderr)


def _checked(files: Sequence[Path], source: Path) -> tuple[list[tuple[Path, ScoresFile, str]], int]:
    """The files that pass the checks of :func:`snapshot_file`, each with its benchmark, and
    the number refused (each said on standard error)."""
    out, refused = [], 0
    for f in files:
        try:
            sf = read_scores(f)
            bench = _benchmark_name(sf, f)
            check_benchmark_file(sf, bench, name=str(f.relative_to(source)), whole=True)
        except _REFUSED as exc:
            _refuse(f, f.relative_to(source), exc)
            refused += 1
            continue
        out.append((f, sf, bench))
    return out, refused


def _ship_perturbed(files: Sequence[Path], args: argparse.Namespace) -> tuple[list[Path], int]:
    """Ship the tables of every perturbed diagnostics run among ``files``
    (:mod:`space.data.perturbed`); return the other files and the number refused."""
    from metric_adc.report.perturbations import is_perturbed
    from space.data.perturbed import ship_perturbed

    others, refused = [], 0
    for f in files:
        try:
            perturbed = is_perturbed(read_scores(f))
            if perturbed:
                print(f"{f.relative_to(args.source)} → {ship_perturbed(f, args.to)}")
        except _REFUSED as exc:
            _refuse(f, f.relative_to(args.source), exc)
            refused += 1
            continue
        if not perturbed:
            others.append(f)
    return others, refused


def _ship(checked: Sequence[tuple[Path, ScoresFile, str]], args: argparse.Namespace) -> int:
    """Ship every checked file (:func:`snapshot_file`); the number refused."""
    refused = 0
    for f, sf, bench in checked:
        shown = f.relative_to(args.source)
        try:
            written = _write(f, sf, bench, args.to, args.linking)
        except _REFUSED as exc:
            _refuse(f, shown, exc)
            refused += 1
            continue
        if note := _linking_note(sf, bench, args.linking):
            print(f"{shown}: {note}; shipped without linking models", file=sys.stderr)
        print(f"{shown} → {', '.join(str(w) for w in written)}")
    return refused


def _ship_references(args: argparse.Namespace) -> None:
    """Ship the thesis's models, the reference rows and the human ceiling, each kept as
    shipped when its sources are not available."""
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; 0 when every file was shipped, 1 when some were refused, 2 when two
    files give one model's result on one benchmark (nothing is shipped) or ``--to`` cannot be
    written."""
    p = _parser()
    args = p.parse_args(argv)
    files: list[Path] = []
    if args.source is not None:
        source = Path(args.source)
        if not source.is_dir():
            p.error(f"--from {source}: not a folder")
        files = scores_files(source)
    read = [("--from", f) for f in files]
    if args.thesis_outputs is not None:
        read.append(("--thesis-outputs", args.thesis_outputs))
    try:
        check_not_input([("--to", args.to, True)], read)
    except InputOverwriteError as exc:
        p.error(str(exc))
    files, perturbed_refused = _ship_perturbed(files, args)
    checked, refused = _checked(files, Path(args.source or "."))
    refused += perturbed_refused
    try:
        check_distinct((str(f.relative_to(args.source)), sf.metadata, b) for f, sf, b in checked)
    except DuplicateResultError as exc:
        print(f"error: {exc}; nothing shipped", file=sys.stderr)
        return 2
    try:
        refused += _ship(checked, args)
        _ship_references(args)
    except OSError as exc:
        print(f"error: cannot write into --to {args.to}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
