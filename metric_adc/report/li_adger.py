"""LI-Adger's report: what ``report FILE`` computes for a LI-Adger scores file, and ``reproduce``.

Both return a report in the shape of every benchmark's (:func:`metric_adc.report.shape.report_of`);
``report`` reaches the first through :func:`metric_adc.report.build.build_report`:

- :func:`li_adger_report`: one scores file on LI-Adger's evaluable pairs (or the thesis's pair
  file): the model's ADC row and the analyses (δ sweep, breakdown by phenomenon, bootstrap
  intervals, the comparison with a baseline); beside the human split-half row, the model's
  row on the LI pairs, the pairs of that row; for a CoLA classifier its MCC against the expert
  labels and the thesis's Table 2.2; with ``linking``, one row per linking function of the
  file's fields instead (:mod:`metric_adc.linking.function_rows`).
- :func:`reproduce_report`: the thesis's 8 models recomputed from its outputs
  (:func:`metric_adc.thesis.models.reproduce_rows`), then scores files on the same pairs.

The human row is given (:func:`metric_adc.ceiling.compute.human_ceiling`), never computed here.
:func:`evaluate_li_adger` is one model's ADC row on the dataset, :func:`mcc_row` a CoLA
classifier's MCC row on it (both shown by ``summary`` too); :func:`li_adger_plots` and
:func:`thesis_plots` draw a report's figures.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from li_adger.benchmarks import BENCHMARKS
from metric_adc import core
from metric_adc.family import statistics as family
from metric_adc.family.items import items_of
from metric_adc.linking.function_rows import has_linking_fields, linking_rows
from metric_adc.pairs import PairTable, li_adger_pairs, model_deltas
from metric_adc.report import plots
from metric_adc.report.analysis import analyze_on_pairs
from metric_adc.report.parts import LinkingFits
from metric_adc.report.shape import Report, report_of
from metric_adc.result_rows import (
    AdcRow,
    BenchmarkRow,
    CeilingRow,
    benchmark_row,
    evaluate_on_pairs,
    model_row,
    source_row,
)
from metric_adc.scores.benchmark import BenchmarkScores
from metric_adc.thesis.models import thesis_model_deltas, thesis_pair_table, thesis_rows
from metric_adc.thesis.table_2_2 import table_2_2_rows

__all__ = [
    "evaluate_li_adger",
    "li_adger_plots",
    "li_adger_report",
    "mcc_row",
    "reproduce_report",
    "thesis_plots",
]


_LINKING_ALONE = "--linking computes its own scores: drop --baseline, --plots and --prestandardized"


def evaluate_li_adger(
    scores: Mapping[str, float],
    *,
    model: str = "unnamed",
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    standardize: bool = True,
    pairs: PairTable | None = None,
    convention: str | None = None,
) -> AdcRow:
    """:func:`metric_adc.result_rows.evaluate_on_pairs` on the LI-Adger dataset's 2,365 evaluable
    pairs (or on ``pairs``).

    Examples
    --------
    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> row = evaluate_li_adger(load_thesis_scores()["bert-base-uncased-mlm"], model="bbu")
    >>> row.n_pairs, row.n_excluded, round(row.adc["1.0"], 3)
    (2365, 0, 0.63)
    """
    return evaluate_on_pairs(
        scores,
        pairs if pairs is not None else li_adger_pairs(),
        model=model,
        deltas=deltas,
        standardize=standardize,
        convention=convention,
    )


def mcc_row(bs: BenchmarkScores) -> BenchmarkRow | None:
    """A CoLA classifier's MCC against LI-Adger's expert labels (threshold 0) as a benchmark
    row, the figure of the thesis's Table 2.2; ``None`` for any other kind of scorer.

    Examples
    --------
    The thesis's BERT-base CoLA classifier: 0.585, its Table 2.2 figure against the expert
    labels.

    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> bs = BenchmarkScores(path=None, benchmark="li_adger", model="bbu", convention=None,
    ...     kind="cola", scores=load_thesis_scores()["bert-base-uncased-cola"], ranks=None,
    ...     file=None)
    >>> row = mcc_row(bs)
    >>> row.model, round(row.labelled["mcc"], 3)
    ('bbu', 0.585)
    """
    if bs.kind != "cola":
        return None
    result = family.evaluate_items("li_adger", items_of("li_adger"), bs.scores, kind="cola")
    return benchmark_row(result, model=bs.model, convention=bs.convention, n_units=len(bs.scores))


def li_adger_report(
    bs: BenchmarkScores,
    *,
    pairs: PairTable | None = None,
    baseline: BenchmarkScores | None = None,
    standardize: bool = True,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    seed: int = 0,
    n_resamples: int = 2000,
    human: CeilingRow | None = None,
    linking: Sequence[str] = (),
    baseline_name: str | None = None,
) -> Report:
    """The report of a LI-Adger scores file (a :class:`~metric_adc.report.shape.Report`, with
    the settings below): the rows and sections of the ``adc`` section, as
    :func:`metric_adc.report.build.build_report` builds them for a benchmark whose spec lists
    it (that entry point refuses the options its spec does not list).

    ``pairs`` defaults to the dataset's evaluable pairs (:func:`metric_adc.pairs.li_adger_pairs`);
    ``baseline`` is a second model compared with this one on them; ``standardize=False``
    takes both files' scores as z-scores already. ``seed`` draws the bootstrap resamples.
    ``baseline_name`` is the baseline file as the report names it (default: its path).
    ``human`` is the human split-half row (LI pairs only): given, it is shown last, and the
    model's row on the LI pairs beside it. ``linking`` names linking functions
    (:data:`metric_adc.linking.function_rows.LINKING_CHOICES`): the rows are then one per function,
    computed from the file's fields, and ``linking`` holds how ``fitted`` was fitted.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from metric_adc.scores.file import write_scores
    >>> from metric_adc.scores.benchmark import read_benchmark_scores
    >>> from metric_adc.thesis.outputs import load_thesis_scores
    >>> s = load_thesis_scores()["bert-base-uncased-mlm"]
    >>> p = write_scores(pathlib.Path(tempfile.mkdtemp()) / "b.jsonl",
    ...     [{"id": k, "score": v} for k, v in s.items()], {"model": "bbu"})
    >>> r = li_adger_report(read_benchmark_scores(p), n_resamples=20)
    >>> [x.model for x in r.rows], round(r.rows[0].adc["0.5"], 3), r.linking, r.seed
    (['bbu'], 0.364, None, 0)
    >>> from metric_adc.ceiling.compute import compute_ceiling
    >>> from metric_adc.result_rows import ceiling_row
    >>> human = ceiling_row(compute_ceiling(n_splits=4, tasks=False))
    >>> r = li_adger_report(read_benchmark_scores(p), n_resamples=20, human=human)
    >>> [x.model for x in r.rows]
    ['bbu', 'bbu (LI only)', 'human split-half (LI only)']
    """
    mcc = None  # from the scores alone: computed before the pairs are read
    if not linking and "classifier_mcc" in BENCHMARKS[bs.benchmark].sections:
        mcc = mcc_row(bs)
    table = li_adger_pairs() if pairs is None else pairs
    deltas = list(deltas)
    beside = [] if human is None else [human]
    settings = {
        "seed": seed,
        "n_resamples": n_resamples,
        "baseline": None if baseline is None else baseline_name or str(baseline.path),
        "prestandardized": not standardize,
    }
    if linking:
        if baseline is not None or not standardize:
            raise ValueError(_LINKING_ALONE)
        shown, fits = linking_rows(bs.file, table, linking, deltas=deltas)
        return report_of(bs.benchmark, [*shown, *beside], linking=LinkingFits(fits), **settings)
    scored = model_deltas(bs.scores, table, standardize=standardize)
    base = None
    if baseline is not None:
        base = model_deltas(baseline.scores, table, standardize=standardize)
    naming = {"model": bs.model, "deltas": deltas, "convention": bs.convention}
    shown = [model_row(scored, table, **naming)]
    if human is not None and table.source is not None and "LI" in table.source:
        # the human row covers the LI pairs only: show the model on the same pairs beside it
        shown.append(source_row(scored, table, "LI", **naming))
    analysis = analyze_on_pairs(
        scored,
        table,
        rng=np.random.default_rng(seed),
        deltas=deltas,
        n_resamples=n_resamples,
        baseline=base,
    )
    return report_of(
        bs.benchmark,
        [*shown, *beside],
        analysis=analysis,
        table_2_2=None if mcc is None else [mcc, *table_2_2_rows()],
        **settings,
    )


def reproduce_report(
    with_scores: Sequence[BenchmarkScores] = (),
    *,
    thesis_dir: str | os.PathLike | None = None,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    human: CeilingRow | None = None,
    linking: Sequence[str] = (),
) -> Report:
    """The report of ``reproduce``: the thesis's 8 models from its outputs, then the rows of
    ``with_scores`` on the thesis's pairs (one per linking function of ``linking`` for a file
    with the linking fields), then ``human``.

    Examples
    --------
    >>> r = reproduce_report(deltas=[1.0])
    >>> [x.model for x in r.rows][-2:], round(r.rows[-2].blimp, 3)
    (['trigram-slor', 'trigram-logprob'], 0.753)
    """
    deltas = list(deltas)
    table = thesis_pair_table(thesis_dir)
    shown = thesis_rows(thesis_model_deltas(table, thesis_dir), table, deltas=deltas)
    for bs in with_scores:
        if linking and has_linking_fields(bs.file):
            shown += linking_rows(bs.file, table, linking, deltas=deltas)[0]
        else:
            shown.append(
                evaluate_on_pairs(
                    bs.scores, table, model=bs.model, deltas=deltas, convention=bs.convention
                )
            )
    return report_of("li_adger", [*shown, *([] if human is None else [human])])


def li_adger_plots(
    report: Report,
    bs: BenchmarkScores,
    folder: str | os.PathLike,
    *,
    pairs: PairTable | None = None,
    standardize: bool = True,
    delta: float = 1.0,
) -> list[Path]:
    """The figures of a :func:`li_adger_report` (the same ``bs``, ``pairs`` and
    ``standardize``): sentences, pair deltas at ``delta``, the ADC(δ) curve and the breakdown
    by phenomenon (:func:`metric_adc.report.plots.write_plots`). Returns the paths written.
    """
    if report.linking is not None:
        raise ValueError(_LINKING_ALONE)
    table = li_adger_pairs() if pairs is None else pairs
    scored = model_deltas(bs.scores, table, standardize=standardize)
    analysis = report.analysis
    return plots.write_plots(
        folder, model=bs.model, model_z=scored.z, judgements=table.judgements,
        model_delta=scored.delta, human_delta=table.human_delta, sweep=analysis.sweep,
        by_group=analysis.by_phenomenon or report.rows[0].by_group, delta=delta,
    )  # fmt: skip


def thesis_plots(
    folder: str | os.PathLike, *, thesis_dir: str | os.PathLike | None = None, delta: float = 1.0
) -> list[Path]:
    """``reproduce``'s figures: each thesis model's pair deltas at ``delta``, and their ADC(δ)
    curves in one figure. Returns the paths written."""
    table = thesis_pair_table(thesis_dir)
    out, sweeps = [], {}
    for m, scored in thesis_model_deltas(table, thesis_dir):
        sweeps[m.name] = core.delta_sweep(scored.delta, table.human_delta)
        out.append(plots.plot_deltas(scored.delta, table.human_delta,
                                     Path(folder) / f"{m.name}_deltas.png", delta=delta,
                                     title=m.name))  # fmt: skip
    out.append(plots.plot_adc_curves(sweeps, Path(folder) / "adc_curves.png",
                                     title="ADC(δ), thesis models"))  # fmt: skip
    return out
