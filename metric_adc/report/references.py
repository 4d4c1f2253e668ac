"""The reference rows a report shows beside a model's: published results and the thesis's models.

:func:`reference_results` reads a benchmark's reference rows into the shape of a model's result
(:func:`metric_adc.family.statistics.evaluate_items`): BLiMP's human agreement and the paper's
four models from their per-paradigm accuracies, and on LI-Adger the thesis's six BERT models
from its per-sentence outputs. :func:`reference_rows` makes them benchmark rows
(:func:`metric_adc.result_rows.benchmark_row`), named as the references are.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from pathlib import Path

import pandas as pd

from li_adger.benchmarks import Benchmark, load_items, load_references
from li_adger.benchmarks.subsets import SUBSET_COLUMNS
from metric_adc.family.outcomes import spec_of
from metric_adc.family.statistics import evaluate_items, result_from_shares
from metric_adc.result_rows import BenchmarkRow, benchmark_row
from metric_adc.thesis import outputs as thesis

__all__ = ["reference_results", "reference_rows"]


def _blimp_result(spec: Benchmark, frame: pd.DataFrame, share: str, n: float, note: str) -> dict:
    """A BLiMP reference row from per-paradigm shares (``n`` pairs a paradigm)."""
    shares = frame[list(spec.groups)].copy()
    shares = shares.reset_index(drop=True)
    frame = frame.reset_index(drop=True)
    shares["n"] = n
    shares["share"] = frame[share].to_numpy(float)
    return result_from_shares(spec, shares, note=note)


def _of_groups(frame: pd.DataFrame, bench: str, groups: Collection[str] | None) -> pd.DataFrame:
    """The rows of ``frame`` in the subset ``groups`` (all rows for ``None``)."""
    if groups is None:
        return frame
    return frame[frame[SUBSET_COLUMNS[bench]].isin(set(groups))]


def _blimp_human(spec: Benchmark, source, groups) -> dict[str, dict]:
    human = _of_groups(load_references(spec.name, source=source)["blimp-human"], spec.name, groups)
    note = (
        "Warstadt et al. (2020), §3.4: per paradigm, the share of about 100 individual "
        "forced-choice judgements (20 validators × 5 pairs) that chose the acceptable "
        "sentence; n_pairs counts the 5 validated pairs of each paradigm"
    )
    return {"human": _blimp_result(spec, human, "agreement", 5.0, note)}


def _blimp_models(spec: Benchmark, source, groups) -> dict[str, dict]:
    models = _of_groups(
        load_references(spec.name, source=source)["blimp-models"], spec.name, groups
    )
    out = {}
    for model, frame in models.groupby("model", sort=False):
        note = f"Warstadt et al. (2020): {model}, per-paradigm accuracy (models_summary.jsonl)"
        out[str(model)] = _blimp_result(spec, frame, "accuracy", 1000.0, note)
    return out


def _thesis(spec: Benchmark, source, groups) -> dict[str, dict]:
    items = load_items(spec.name, source=source)
    units = set(items.units["id"])
    out = {}
    folder = None if source is None else Path(source) / "thesis-outputs"
    for model in thesis.load_thesis_models(folder):
        if model.standardized or not units <= set(model.scores):
            continue  # the trigram rows: thesis z-scores of part of the sentences
        kind = "cola" if model.name.endswith("-cola") else "mlm"
        scores = {i: model.scores[i] for i in units}
        result = evaluate_items(spec, items, scores, kind=kind)
        result["note"] = f"Vázquez Martínez (2021): {model.label}, from the thesis's outputs"
        out[model.name] = result
    return out


_REFERENCE_SOURCES: dict[str, Callable[[Benchmark, object, object], dict[str, dict]]] = {
    "blimp-human": _blimp_human,
    "blimp-models": _blimp_models,
    "thesis": _thesis,
}
"""Reference-source name (``Benchmark.references``) → its rows, in the shape of
:func:`evaluate_items` (arguments: the benchmark, the source folder, the subset's groups)."""


def reference_results(
    bench: Benchmark | str,
    *,
    source: str | os.PathLike | None = None,
    groups: Collection[str] | None = None,
) -> dict[str, dict]:
    """The benchmark's reference rows, row name → result in the shape of :func:`~metric_adc.family.statistics.evaluate_items`.

    BLiMP: ``human`` (the validators' individual agreement) and the paper's ``5-gram``,
    ``LSTM``, ``Transformer-XL`` and ``GPT-2``, from per-paradigm accuracies aggregated as for a
    model (a group's value is the pooled share over its pairs = the mean over its paradigms).
    LI-Adger: the thesis's six BERT models that scored every sentence (masked LMs, and CoLA
    classifiers at threshold 0 for the MCC against the expert labels); the thesis's trigram
    rows hold z-scores of part of the sentences and are left to the ADC report. Others: none.
    ``groups`` (a subset's whole groups, :mod:`li_adger.benchmarks.subsets`) keeps BLiMP's
    per-paradigm references to those paradigms.

    Examples
    --------
    >>> refs = reference_results("blimp")
    >>> list(refs)
    ['human', '5-gram', 'LSTM', 'Transformer-XL', 'GPT-2']
    >>> [round(r["headline"]["value"], 3) for r in refs.values()]
    [0.886, 0.612, 0.698, 0.696, 0.83]
    >>> reference_results("npi")
    {}
    """
    spec = spec_of(bench)
    out: dict[str, dict] = {}
    for name in spec.references:
        try:
            resolve = _REFERENCE_SOURCES[name]
        except KeyError:
            raise ValueError(
                f"{spec.name}: unknown reference source {name!r}; expected one of "
                f"{list(_REFERENCE_SOURCES)}"
            ) from None
        out.update(resolve(spec, source, groups))
    return out


def reference_rows(
    bench: str,
    *,
    source: str | os.PathLike | None = None,
    groups: Collection[str] | None = None,
) -> list[BenchmarkRow]:
    """The benchmark's reference rows (:func:`reference_results`) as
    benchmark rows, named as the references are.

    Examples
    --------
    >>> rows = reference_rows("blimp")
    >>> [(r.model, round(r.headline, 3), r.convention) for r in rows][::4]
    [('human', 0.886, None), ('GPT-2', 0.83, None)]
    >>> [r.n_items for r in reference_rows("blimp", groups=["causative", "wh_island"])][-1]
    2000
    """
    results = reference_results(bench, source=source, groups=groups)
    return [benchmark_row(r, model=name) for name, r in results.items()]
