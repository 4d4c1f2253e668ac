"""One table of models across the family: ``python -m metric_adc summary FILE... | --results DIR``.

Each scores file is read for its benchmark (:mod:`metric_adc.scores.benchmark`) and evaluated
as ``report`` evaluates it; the files of one model and convention (one row label,
:func:`metric_adc.scores.labels.row_label`) make one summary row (:func:`metric_adc.rows.summary_row`):
its headline on each benchmark, LI-Adger's ADC at :data:`~metric_adc.rows.SUMMARY_DELTA` and,
for a CoLA classifier, its MCC against LI-Adger's expert labels. The reference rows follow:
the thesis's 8 models on LI-Adger (recomputed from its outputs, as ``reproduce`` does; the
three CoLA classifiers with their Table 2.2 MCC) and BLiMP's human agreement and the paper's
four models (named ``human (BLiMP)``, ``GPT-2 (BLiMP)``, …). The human split-half row is LI
pairs only and stays with ``reproduce``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from metric_adc.family import statistics as family
from metric_adc.family.items import items_of
from metric_adc.report.li_adger import evaluate_li_adger, mcc_row
from metric_adc.report.references import reference_rows
from metric_adc.rows import SUMMARY_DELTA, benchmark_row, summary_row
from metric_adc.scores.benchmark import BenchmarkScores, read_benchmark_scores
from metric_adc.thesis.models import reproduce_rows
from metric_adc.thesis.table_2_2 import table_2_2_rows

__all__ = [
    "SCORES_SUFFIXES",
    "model_rows",
    "reference_summary_rows",
    "scores_files",
    "summarize_files",
]

SCORES_SUFFIXES: tuple[str, ...] = (".jsonl", ".csv")
"""The files ``--results DIR`` reads, in DIR and its subfolders (a scoring run's partial cache,
``*.partial``, is not one)."""


def scores_files(folder: str | os.PathLike) -> list[Path]:
    """The scores files in a folder and its subfolders (``results/trigram.jsonl``,
    ``results/blimp/trigram.jsonl``, …), sorted by path.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "blimp").mkdir()
    >>> for name in ("b.jsonl", "a.csv", "a.jsonl.0123.partial", "notes.txt", "blimp/b.jsonl"):
    ...     _ = (d / name).write_text("")
    >>> [p.relative_to(d).as_posix() for p in scores_files(d)]
    ['a.csv', 'b.jsonl', 'blimp/b.jsonl']
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"--results: {folder} is not a folder")
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in SCORES_SUFFIXES)


def model_rows(bs: BenchmarkScores, *, seed: int = 0) -> list[dict]:
    """A scores file's rows as ``report`` computes them: on LI-Adger the ADC row (and, for a
    CoLA classifier, the benchmark row holding its MCC against the expert labels); on any other
    benchmark its benchmark row (a fitted CoLA threshold uses ``seed``).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from metric_adc.scores.file import write_scores
    >>> units = items_of("npi").units
    >>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "n.jsonl",
    ...     [{"id": i, "score": -float(len(s))} for i, s in zip(units["id"], units["sentence"])],
    ...     {"model": "length", "dataset": "npi"})
    >>> [(r["benchmark"], r["n_pairs"]) for r in model_rows(read_benchmark_scores(p))]
    [('npi', 5500)]
    """
    if bs.benchmark == "li_adger":
        mcc = mcc_row(bs)
        adc = evaluate_li_adger(bs.scores, model=bs.model, convention=bs.convention)
        return [adc, *([] if mcc is None else [mcc])]
    result = family.evaluate_items(
        bs.benchmark, items_of(bs.benchmark), bs.scores, ranks=bs.ranks, kind=bs.kind, seed=seed
    )
    return [benchmark_row(result, model=bs.model, convention=bs.convention, n_units=len(bs.scores))]


def reference_summary_rows(thesis_dir: str | os.PathLike | None = None) -> list[dict]:
    """The reference rows of the summary: the thesis's 8 models (LI-Adger; the CoLA
    classifiers with their Table 2.2 MCC), then BLiMP's references.

    Examples
    --------
    >>> refs = reference_summary_rows()
    >>> [r["model"] for r in refs][5:10]
    ['bert-large-cased-cola', 'trigram-slor', 'trigram-logprob', 'human (BLiMP)', '5-gram (BLiMP)']
    >>> round(refs[5]["li_adger_mcc"], 3), round(refs[5]["headlines"]["li_adger"], 3)
    (0.633, 0.936)
    """
    table_2_2 = {r["model"]: r for r in table_2_2_rows(thesis_dir)}
    out = []
    for adc in reproduce_rows(thesis_dir, deltas=[SUMMARY_DELTA]):
        mine = [adc, *([table_2_2[adc["model"]]] if adc["model"] in table_2_2 else [])]
        note = "Vázquez Martínez (2021), recomputed from the thesis's outputs"
        if adc["note"]:
            note += f"; {adc['note']}"
        out.append(summary_row(mine, model=adc["model"], reference=True, note=note))
    for ref in reference_rows("blimp"):
        name = f"{ref['model']} (BLiMP)"  # the paper's rows, named apart from the thesis's
        out.append(summary_row([ref], model=name, reference=True, note=ref["note"]))
    return out


def summarize_files(
    paths: Iterable[str | os.PathLike],
    *,
    references: bool = True,
    seed: int = 0,
    thesis_dir: str | os.PathLike | None = None,
    check_text: bool = True,
) -> list[dict]:
    """Summary rows (:data:`~metric_adc.rows.SUMMARY_KEYS`): one per row label of the files,
    in the order the labels first appear, then the reference rows. Two files of one label on
    one benchmark are an error naming both. ``check_text`` is that of
    :func:`~metric_adc.scores.benchmark.read_benchmark_scores`.

    Examples
    --------
    >>> [r["model"] for r in summarize_files([], references=False)]
    []
    """
    groups: dict[str, list[BenchmarkScores]] = {}
    for path in paths:
        bs = read_benchmark_scores(path, check_text=check_text)
        group = groups.setdefault(bs.model, [])
        clash = next((g for g in group if g.benchmark == bs.benchmark), None)
        if clash is not None:
            raise ValueError(
                f"two scores files of {bs.model!r} on {bs.benchmark!r}: {clash.path} and {path} "
                "(give one of them)"
            )
        group.append(bs)
    out = []
    for label, files in groups.items():
        mine: list[dict] = [r for bs in files for r in model_rows(bs, seed=seed)]
        out.append(
            summary_row(
                mine,
                model=label,
                convention=files[0].convention,
                files={bs.benchmark: str(bs.path) for bs in files},
            )
        )
    if references:
        out.extend(reference_summary_rows(thesis_dir))
    return out
