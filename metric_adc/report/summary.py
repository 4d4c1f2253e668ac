"""One table of models across the family: ``python -m metric_adc summary FILE... | --results DIR``.

Each scores file is read for its benchmark (:mod:`metric_adc.scores.benchmark`) and evaluated
as ``report`` evaluates it; the files of one model and convention (one row label,
:func:`metric_adc.scores.labels.row_label`) make one summary row (:func:`summary_row`):
its headline on each benchmark, LI-Adger's ADC at :data:`SUMMARY_DELTA` and,
for a CoLA classifier, its MCC against LI-Adger's expert labels. The reference rows follow:
the thesis's 8 models on LI-Adger (recomputed from its outputs, as ``reproduce`` does; the
three CoLA classifiers with their Table 2.2 MCC) and BLiMP's human agreement and the paper's
four models (named ``human (BLiMP)``, ``GPT-2 (BLiMP)``, …). The human split-half row is LI
pairs only and stays with ``reproduce``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from li_adger.benchmarks import BENCHMARKS
from metric_adc import core
from metric_adc.family import statistics as family
from metric_adc.report.benchmark import scored_items
from metric_adc.report.li_adger import evaluate_li_adger, mcc_row
from metric_adc.report.references import reference_rows
from metric_adc.result_rows import AdcRow, Row, TypedRow, benchmark_row
from metric_adc.scores.benchmark import BenchmarkScores, read_benchmark_scores
from metric_adc.scores.file import ScoresFileError
from metric_adc.scores.labels import check_distinct
from metric_adc.scores.shards import is_shard
from metric_adc.thesis.models import reproduce_rows
from metric_adc.thesis.table_2_2 import table_2_2_rows

__all__ = [
    "SCORES_SUFFIXES",
    "SUMMARY_DELTA",
    "SUMMARY_KEYS",
    "SummaryRow",
    "model_rows",
    "reference_summary_rows",
    "scores_files",
    "summarize_files",
    "summary_row",
]

SUMMARY_DELTA: float = 0.5
"""The δ of the ADC column of :func:`summary_row`."""


@dataclass(frozen=True)
class SummaryRow(TypedRow):
    """A summary row (:func:`summary_row`), typed: its fields are :data:`SUMMARY_KEYS`, in
    order (their meanings there); readers take its attributes, and :meth:`to_json_dict` gives
    it as ``summary --json`` prints it."""

    model: str
    convention: str | None
    reference: bool
    headlines: dict[str, float | None]
    adc: float | None
    li_adger_mcc: float | None
    files: dict[str, str]
    note: str | None


SUMMARY_KEYS = tuple(f.name for f in fields(SummaryRow))
"""The keys of a summary row (:func:`summary_row`), the fields of :class:`SummaryRow`: ``headlines`` maps every benchmark of
:data:`~li_adger.benchmarks.BENCHMARKS` to its headline value (``None`` where the row has no
result), ``adc`` is LI-Adger's ADC at :data:`SUMMARY_DELTA`, ``li_adger_mcc`` the MCC of a
CoLA classifier against LI-Adger's expert labels at threshold 0 (the thesis's Table 2.2;
``None`` for other kinds), ``reference`` whether the row is a reference row, ``files``
benchmark → the scores file behind the row's numbers."""

SCORES_SUFFIXES: tuple[str, ...] = (".jsonl", ".csv")
"""The files ``--results DIR`` reads, in DIR and its subfolders (a scoring run's partial cache,
``*.partial``, is not one; nor is a dot-prefixed name, such as the temporary file of a write
in progress, ``.trigram.jsonl.k3j_9xq2.tmp.jsonl``, or anything in a dot-prefixed folder)."""


def scores_files(folder: str | os.PathLike) -> list[Path]:
    """The scores files in a folder and its subfolders (``results/trigram.jsonl``,
    ``results/blimp/trigram.jsonl``, …), sorted by path; dot-prefixed files and folders (a
    writer's temporary files) and a data-parallel run's shard files
    (:func:`metric_adc.scores.shards.is_shard`) are skipped. A folder that holds none is an error: a summary of
    no file would show the reference rows alone.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "blimp").mkdir()
    >>> for name in ("b.jsonl", "a.csv", "a.jsonl.0123.partial", "notes.txt", "blimp/b.jsonl",
    ...              ".b.jsonl.k3j_9xq2.tmp.jsonl", "b.jsonl.rank-0-of-3.jsonl"):
    ...     _ = (d / name).write_text("")
    >>> [p.relative_to(d).as_posix() for p in scores_files(d)]
    ['a.csv', 'b.jsonl', 'blimp/b.jsonl']
    >>> scores_files(d / "blimp" / "b.jsonl")
    Traceback (most recent call last):
    ...
    FileNotFoundError: --results: ...b.jsonl is not a folder
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"--results: {folder} is not a folder")
    found = sorted(
        p
        for p in folder.rglob("*")
        if p.is_file()
        and p.suffix in SCORES_SUFFIXES
        and not any(part.startswith(".") for part in p.relative_to(folder).parts)
        and not is_shard(p)  # a data-parallel run's shard left behind: rows of a scores file
    )
    if not found:
        raise FileNotFoundError(
            f"--results: {folder} holds no scores file (*{', *'.join(SCORES_SUFFIXES)}, in it "
            "or its subfolders); write some with python -m baselines score --out DIR"
        )
    return found


def summary_row(
    rows: Sequence[Row],
    *,
    model: str,
    convention: str | None = None,
    reference: bool = False,
    files: Mapping[str, str] | None = None,
    note: str | None = None,
) -> SummaryRow:
    """One model (or reference) across the family (a :class:`SummaryRow`), from its rows:
    ADC rows (:class:`~metric_adc.result_rows.AdcRow`) and benchmark rows
    (:class:`~metric_adc.result_rows.BenchmarkRow`), each naming its ``benchmark``. The ADC column comes from an ADC row (``adc`` at :data:`SUMMARY_DELTA`), LI-Adger's MCC from a ``li_adger`` row whose
    labels were classified at threshold 0 (a CoLA classifier). Two rows of one benchmark must
    agree on its headline.

    Examples
    --------
    >>> from metric_adc.result_rows import BENCHMARK_ROW_KEYS, ROW_KEYS, BenchmarkRow
    >>> a = AdcRow(**{**dict.fromkeys(ROW_KEYS), "benchmark": "li_adger", "headline": 0.7,
    ...     "adc": {"0.5": 0.3}})
    >>> b = BenchmarkRow(**{**dict.fromkeys(BENCHMARK_ROW_KEYS), "benchmark": "blimp",
    ...     "headline": 0.8})
    >>> s = summary_row([a, b], model="toy", convention="slor")
    >>> s.headlines, s.adc, s.li_adger_mcc
    ({'li_adger': 0.7, 'blimp': 0.8, 'npi': None, 'npi_cloze': None, 'diagnostics': None, 'cola': None}, 0.3, None)
    """
    headlines: dict[str, float | None] = dict.fromkeys(BENCHMARKS)
    adc = mcc = None
    key = core.delta_key(SUMMARY_DELTA)
    for row in rows:
        name, headline = row.benchmark, row.headline
        if name not in headlines:
            raise ValueError(f"row {row.model!r}: unknown benchmark {name!r}")
        if headlines[name] is not None and headline != headlines[name]:
            raise ValueError(
                f"{model!r} has two results on {name!r} ({headlines[name]} and {headline})"
            )
        headlines[name] = headline
        labelled = None
        if isinstance(row, AdcRow):
            adc = row.adc.get(key)
        else:
            labelled = row.labelled
        if (
            "classifier_mcc" in BENCHMARKS[name].sections
            and labelled
            and (labelled["threshold"] == "zero")
        ):
            mcc = labelled["mcc"]
    return SummaryRow(
        model=str(model),
        convention=convention,
        reference=bool(reference),
        headlines=headlines,
        adc=adc,
        li_adger_mcc=mcc,
        files=dict(files or {}),
        note=note,
    )


def model_rows(bs: BenchmarkScores, *, seed: int = 0) -> list[Row]:
    """A scores file's rows as ``report`` computes them: on LI-Adger the ADC row (and, for a
    CoLA classifier, the benchmark row holding its MCC against the expert labels); on any other
    benchmark its benchmark row (a fitted CoLA threshold uses ``seed``).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from metric_adc.scores.file import write_scores
    >>> from metric_adc.family.items import items_of
    >>> units = items_of("npi").units
    >>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "n.jsonl",
    ...     [{"id": i, "score": -float(len(s))} for i, s in zip(units["id"], units["sentence"])],
    ...     {"model": "length", "dataset": "npi"})
    >>> [(r.benchmark, r.n_pairs) for r in model_rows(read_benchmark_scores(p))]
    [('npi', 5500)]
    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> s = load_thesis_scores()["bert-base-uncased-mlm"]
    >>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "b.jsonl",
    ...     [{"id": k, "score": v} for k, v in s.items()], {"model": "bbu"})
    >>> [(r.benchmark, r.n_pairs) for r in model_rows(read_benchmark_scores(p))]
    [('li_adger', 2365)]
    """
    if BENCHMARKS[bs.benchmark].judged:
        mcc = mcc_row(bs)
        adc = evaluate_li_adger(bs.scores, model=bs.model, convention=bs.convention)
        return [adc, *([] if mcc is None else [mcc])]
    items, subset = scored_items(bs)
    if subset is not None:
        raise ScoresFileError(
            f"{bs.path}: scores {len(subset.groups)} of the {subset.of} {subset.word}s "
            f"of {bs.benchmark} (a subset), and a summary row is over the whole benchmark; "
            f"report the subset with `python -m metric_adc report {bs.path}`"
        )
    result = family.evaluate_items(
        bs.benchmark, items, bs.scores, ranks=bs.ranks, kind=bs.kind, seed=seed
    )
    return [benchmark_row(result, model=bs.model, convention=bs.convention, n_units=len(bs.scores))]


def reference_summary_rows(thesis_dir: str | os.PathLike | None = None) -> list[SummaryRow]:
    """The reference rows of the summary: the thesis's 8 models (LI-Adger; the CoLA
    classifiers with their Table 2.2 MCC), then BLiMP's references.

    Examples
    --------
    >>> refs = reference_summary_rows()
    >>> [r.model for r in refs][5:10]
    ['bert-large-cased-cola', 'trigram-slor', 'trigram-logprob', 'human (BLiMP)', '5-gram (BLiMP)']
    >>> round(refs[5].li_adger_mcc, 3), round(refs[5].headlines["li_adger"], 3)
    (0.633, 0.936)
    """
    table_2_2 = {r.model: r for r in table_2_2_rows(thesis_dir)}
    out = []
    for adc in reproduce_rows(thesis_dir, deltas=[SUMMARY_DELTA]):
        mine = [adc, *([table_2_2[adc.model]] if adc.model in table_2_2 else [])]
        note = "Vázquez Martínez (2021), recomputed from the thesis's outputs"
        if adc.note:
            note += f"; {adc.note}"
        out.append(summary_row(mine, model=adc.model, reference=True, note=note))
    for ref in reference_rows("blimp"):
        name = f"{ref.model} (BLiMP)"  # the paper's rows, named apart from the thesis's
        out.append(summary_row([ref], model=name, reference=True, note=ref.note))
    return out


def summarize_files(
    paths: Iterable[str | os.PathLike],
    *,
    references: bool = True,
    seed: int = 0,
    thesis_dir: str | os.PathLike | None = None,
    check_text: bool = True,
) -> list[SummaryRow]:
    """Summary rows (:class:`SummaryRow`): one per row label of the files,
    in the order the labels first appear, then the reference rows. Two files of one label on
    one benchmark are an error naming both
    (:func:`~metric_adc.scores.labels.check_distinct`, a ``DuplicateResultError``). ``check_text`` is that of
    :func:`~metric_adc.scores.benchmark.read_benchmark_scores`.

    Examples
    --------
    >>> [r.model for r in summarize_files([], references=False)]
    []
    """
    read = [read_benchmark_scores(path, check_text=check_text) for path in paths]
    check_distinct((str(bs.path), bs.file.metadata, bs.benchmark) for bs in read)
    groups: dict[str, list[BenchmarkScores]] = {}
    for bs in read:
        groups.setdefault(bs.model, []).append(bs)
    out = []
    for label, files in groups.items():
        mine = [r for bs in files for r in model_rows(bs, seed=seed)]
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
