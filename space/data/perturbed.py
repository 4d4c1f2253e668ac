"""Ettinger's perturbation tables in the app: shipped as ``diagnostics/perturbations/<model>.json``
(the report of :func:`metric_adc.report.perturbations.perturbation_report`, which holds numbers
only), written by ``python -m space snapshot`` from a perturbed run's scores file and read at
start-up.

Examples
--------
>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> report = {"model": "toy (logprob)", "perturbation": {}, "tables": {}}
>>> write_perturbed(folder, report).relative_to(folder).as_posix()
'diagnostics/perturbations/toy-logprob.json'
>>> [r["model"] for r in read_perturbed(folder)]
['toy (logprob)']
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from li_adger.io.atomic import atomic_write_text
from metric_adc.report.perturbations import (
    perturbation_report,
    read_perturbed_scores,
)
from space.data.names import slug

__all__ = [
    "FOLDER",
    "perturbed_frames",
    "read_perturbed",
    "ship_perturbed",
    "write_perturbed",
]

FOLDER = ("diagnostics", "perturbations")
"""Where the tables ship, under the shipped results folder."""


def write_perturbed(folder: str | Path, report: dict) -> Path:
    """Write one model's perturbation report; return the file."""
    path = Path(folder).joinpath(*FOLDER, f"{slug(report['model'])}.json")
    return atomic_write_text(path, json.dumps(report, indent=1, ensure_ascii=False) + "\n")


def ship_perturbed(path: str | Path, folder: str | Path) -> Path:
    """Check a perturbed run's scores file as ``report`` does and ship its tables."""
    return write_perturbed(folder, perturbation_report(read_perturbed_scores(path)))


def read_perturbed(folder: str | Path) -> list[dict]:
    """The shipped perturbation reports, by file name."""
    where = Path(folder).joinpath(*FOLDER)
    paths = sorted(p for p in where.glob("*.json") if not p.name.startswith("."))
    return [json.loads(p.read_text(encoding="utf-8")) for p in paths]


def perturbed_frames(reports: list[dict]) -> list[tuple[str, str, pd.DataFrame]]:
    """Each of Ettinger's tables (4, 7, 8) over every shipped model, as ``(title, source,
    table)``: one row per model and top-k (the paper's reference rows once, after the
    models), each column's accuracy (%) and, where some cell has one, its sd over the runs.

    Examples
    --------
    >>> cell = lambda v, sd=None: {"value": v, "sd": sd, "n_items": 4, "n_runs": 1}
    >>> table = {"title": "T", "source": "S", "columns": ["Orig", "Shuf"],
    ...          "rows": {"k=1": {"m": {"Orig": cell(50.0), "Shuf": cell(25.0, 5.0)},
    ...                           "BERT-base": {"Orig": cell(23.5), "Shuf": cell(14.1, 3.1)}}}}
    >>> reports = [{"tables": {"table_4": table}}, {"tables": {"table_4": table}}]
    >>> [(title, source, len(df)) for title, source, df in perturbed_frames(reports)]
    [('T', 'S', 2)]
    >>> perturbed_frames(reports)[0][2].to_dict("records")[0]
    {'model': 'm', 'top-k': 'k=1', 'Orig': 50.0, 'Shuf': 25.0, 'Shuf sd': 5.0}
    """
    out: list[tuple[str, str, pd.DataFrame]] = []
    keys = list(dict.fromkeys(key for r in reports for key in r["tables"]))
    for key in keys:
        tables = [r["tables"][key] for r in reports if key in r["tables"]]
        first = tables[0]
        columns = first["columns"]
        with_sd = {c for t in tables for rows in t["rows"].values() for cells in rows.values()
                   for c in columns if (cells.get(c) or {}).get("sd") is not None}  # fmt: skip
        records: dict[tuple[str, str], dict] = {}
        scored: set[tuple[str, str]] = set()  # the models scored here (cells count items)
        for table in tables:
            for k, rows in table["rows"].items():
                for model, cells in rows.items():
                    if (k, model) in records:  # a paper's reference row, in every report
                        continue
                    record = {"model": model, "top-k": k}
                    for c in columns:
                        cell = cells.get(c) or {}
                        record[c] = cell.get("value")
                        if c in with_sd:
                            record[f"{c} sd"] = cell.get("sd")
                    records[k, model] = record
                    if any((cell or {}).get("n_items") is not None for cell in cells.values()):
                        scored.add((k, model))
        order = sorted(records, key=lambda km: (km[0], km not in scored))
        out.append((first["title"], first["source"], pd.DataFrame([records[km] for km in order])))
    return out
