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

from li_adger.io.atomic import atomic_write_text
from metric_adc.report.perturbations import (
    format_perturbation_report,
    perturbation_report,
    read_perturbed_scores,
)
from space.data.names import slug

__all__ = ["FOLDER", "perturbed_markdown", "read_perturbed", "ship_perturbed", "write_perturbed"]

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


def perturbed_markdown(folder: str | Path) -> str:
    """Every shipped model's Tables 4, 7 and 8 as Markdown, for the diagnostics tab."""
    reports = read_perturbed(folder)
    if not reports:
        return "No perturbation results are shipped."
    return "\n\n".join(format_perturbation_report(r, markdown=True) for r in reports)
