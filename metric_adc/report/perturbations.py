"""The report of a perturbed diagnostics run (``score --dataset diagnostics --perturbation …``):
Ettinger's (2020) Tables 4, 7 and 8 for the model, her BERT-base and BERT-large cells beside it.

A scores file whose metadata names a ``perturbation`` holds the units of
:func:`li_adger.benchmarks.perturbations.perturbed_items`, not the diagnostics' items:
:func:`read_perturbed_scores` checks it against them (its texts, that every unit is known and
every expected completion scored with a rank), :func:`perturbation_report` computes the tables
(:func:`metric_adc.family.perturbations.perturbation_cells`) and
:func:`format_perturbation_report` prints them laid out as the paper does: one row per model and
k, one column per condition, ``mean ± sd`` over the shuffles.

Examples
--------
>>> from metric_adc.scores.file import ScoresFile
>>> import numpy as np
>>> is_perturbed(ScoresFile({"perturbation": ["trunc"]}, ["x"], np.zeros(1)))
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from li_adger.benchmarks import Items
from li_adger.benchmarks.perturbations import Perturbation, perturbed_items
from li_adger.io.text_table import markdown_table, text_table
from metric_adc.family.perturbations import item_ranks, perturbation_cells
from metric_adc.prediction import LOG_PROB_TOLERANCE
from metric_adc.report.paper_tables import ETTINGER_TABLES, ettinger_reference_rows
from metric_adc.scores.file import ScoresFile, ScoresFileError, read_scores
from metric_adc.scores.labels import row_label
from metric_adc.scores.text_check import check_coverage, check_log_probs, check_unit_texts

__all__ = [
    "PerturbedScores",
    "format_perturbation_report",
    "is_perturbed",
    "perturbation_report",
    "read_perturbed_scores",
]

_TITLES = {
    "table_4": "Table 4: CPRAG-102 accuracy (%) with the first sentence shuffled, the second "
    "truncated to the two words before the target",
    "table_7": "Table 7: ROLE-88 accuracy (%) with the object noun → 'one', the subject noun → "
    "'other'",
    "table_8": "Table 8: ROLE-88 accuracy (%) by top cloze value (the original items)",
}


def is_perturbed(sf: ScoresFile) -> bool:
    """Whether a scores file holds a perturbed diagnostics run (its metadata names one)."""
    return "perturbation" in sf.metadata


@dataclass(frozen=True)
class PerturbedScores:
    """A perturbed run read and checked: its file, perturbations, items and row label."""

    path: Path
    file: ScoresFile
    perturbation: Perturbation
    items: Items
    model: str


def read_perturbed_scores(path: str | os.PathLike, *, check_text: bool = True) -> PerturbedScores:
    """Read a perturbed run's scores file and check it against the perturbed items: a
    :class:`~metric_adc.scores.file.ScoresFileError` naming the file for a malformed
    ``perturbation``, an id that is not a perturbed unit, a text that differs (``check_text``),
    a score that is not a log-probability, or no ``rank``."""
    path = Path(path)
    sf = read_scores(path)
    if sf.metadata.get("dataset") != "diagnostics":
        raise ScoresFileError(
            f"{path}: a perturbed run's dataset must be 'diagnostics' (got "
            f"{sf.metadata.get('dataset')!r})"
        )
    try:
        p = Perturbation.from_metadata(sf.metadata)
    except ValueError as exc:
        raise ScoresFileError(f"{path}: {exc}") from None
    items = perturbed_items(p)
    if check_text:
        check_unit_texts(sf, items.units, name=str(path))
    check_coverage(
        sf.ids,
        items.units["id"].tolist(),
        needed=items.accuracy["expected_id"].tolist(),
        name=str(path),
        dataset=f"the perturbed diagnostics ({', '.join(p.names)})",
    )
    check_log_probs(sf, name=str(path), benchmark="diagnostics", tolerance=LOG_PROB_TOLERANCE)
    if "rank" not in sf.fields:
        raise ScoresFileError(f"{path}: no 'rank' field: Ettinger's tables are accuracy at k")
    return PerturbedScores(path, sf, p, items, row_label(sf.metadata))


def perturbation_report(ps: PerturbedScores) -> dict:
    """``{"benchmark", "model", "perturbation", "tables"}``: each table's ``source``, ``set``,
    ``columns`` and ``rows`` (``"k=1"``/``"k=5"`` → row name → column → cell), the model's row
    first, then Ettinger's BERT-base and BERT-large (their cells as printed).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from metric_adc.scores.file import write_scores
    >>> p = Perturbation(["-both"])
    >>> units = perturbed_items(p).units
    >>> path = write_scores(pathlib.Path(tempfile.mkdtemp()) / "p.jsonl",
    ...     [{"id": i, "score": -1.0, "rank": 1 if i.endswith("-both") else 9} for i in units["id"]],
    ...     {"model": "toy", "dataset": "diagnostics", **p.metadata()})
    >>> r = perturbation_report(read_perturbed_scores(path))
    >>> t = r["tables"]["table_7"]
    >>> t["columns"], t["rows"]["k=1"]["toy"]["-Both"]["value"], t["rows"]["k=1"]["toy"]["Orig"]["value"]
    (['Orig', '-Both'], 100.0, 0.0)
    >>> list(t["rows"]["k=5"]), sorted(r["tables"])
    (['toy', 'BERT-base', 'BERT-large'], ['table_7', 'table_8'])
    """
    ranks = dict(zip(ps.file.ids, ps.file.fields["rank"], strict=True))
    cells = perturbation_cells(item_ranks(ps.items.accuracy, ranks))
    tables = {}
    for name, table in cells.items():
        refs = ettinger_reference_rows(name)
        rows = {
            k: {ps.model: table["rows"][k], **{m: refs[k][m] for m in refs.get(k, {})}}
            for k in table["rows"]
        }
        tables[name] = {
            "title": _TITLES[name],
            "source": ETTINGER_TABLES[name]["source"],
            "set": table["set"],
            "columns": table["columns"],
            "rows": rows,
        }
    return {
        "benchmark": "diagnostics",
        "model": ps.model,
        "perturbation": ps.perturbation.metadata(),
        "tables": tables,
    }


def _shown(cell: dict | None) -> str:
    if cell is None:
        return ""
    if cell["sd"] is None:
        return f"{cell['value']:.1f}"
    return f"{cell['value']:.1f} ± {cell['sd']:.1f}"


def format_perturbation_report(report: dict, *, markdown: bool = False) -> str:
    """The tables of :func:`perturbation_report` as text (or Markdown), in the paper's layout.

    Examples
    --------
    >>> r = {"model": "toy", "perturbation": {"perturbation": ["trunc"], "perturbation_seed": 0,
    ...      "shuffles": 100}, "tables": {"table_4": {"title": "Table 4", "source": "E (2020)",
    ...      "set": "CPRAG-102", "columns": ["Orig", "Trunc"], "rows": {"k=1": {"toy": {"Orig":
    ...      {"value": 50.0, "sd": None}, "Trunc": {"value": 25.0, "sd": None}}}}}}}
    >>> print(format_perturbation_report(r))  # doctest: +NORMALIZE_WHITESPACE
    toy on Ettinger's perturbations (trunc; seed 0, 100 shuffles)
    <BLANKLINE>
    Table 4
    model      Orig  Trunc
    toy k=1    50.0  25.0
    reference rows: E (2020)
    """
    p = report["perturbation"]
    lines = [
        f"{report['model']} on Ettinger's perturbations ({', '.join(p['perturbation'])}; "
        f"seed {p['perturbation_seed']}, {p['shuffles']} shuffles)"
    ]
    for table in report["tables"].values():
        columns = table["columns"]
        body = [
            [f"{model} {k}", *(_shown(cells.get(c)) for c in columns)]
            for k, rows in table["rows"].items()
            for model, cells in rows.items()
        ]
        header = ["model", *columns]
        shown = markdown_table(header, body) if markdown else text_table(header, body)
        lines += ["", table["title"], shown]
        lines.append(f"reference rows: {table['source']}")
    return "\n".join(lines)
