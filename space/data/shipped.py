"""The results that ship with the app (``space/results/``): read at start-up, written by
``python -m space snapshot``.

The folder holds results only, never a benchmark's sentences::

    ceiling.json                 the human split-half ceiling: its row and mean ADC(δ) curve
    li_adger/<model>.csv         id,score for each of LI-Adger's 4,178 sentences
    li_adger/<model>.json        that model's metadata and result row (metric_adc.rows)
    <benchmark>/<model>.json     metadata and metric_adc.family.statistics result (cloze: + the rank and
                                 top predictions of each expected completion)
    <benchmark>/references.json  the benchmark's reference rows (metric_adc.family.statistics)

Every file is written atomically (:mod:`li_adger.io.atomic`). LI-Adger ships scores, not only a
summary, because the app recomputes every δ, interval and pair from them.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from li_adger.io.atomic import atomic_write_text
from metric_adc.scores.file import read_scores
from space.data.benchmark_data import FamilyEntry
from space.data.entries import KIND_REFERENCE, KIND_SHIPPED, Ceiling

__all__ = [
    "CEILING_FILE",
    "LI_ADGER",
    "REFERENCES_FILE",
    "SHIPPED_DIR",
    "ShippedScores",
    "read_ceiling",
    "read_family",
    "read_li_adger",
    "read_references",
    "slug",
    "write_ceiling",
    "write_family",
    "write_li_adger",
    "write_references",
]

SHIPPED_DIR = Path(__file__).resolve().parents[1] / "results"
"""The shipped results folder inside the package."""

CEILING_FILE = "ceiling.json"
REFERENCES_FILE = "references.json"
LI_ADGER = "li_adger"
_DROPPED_METADATA = ("format", "version")


def slug(name: str) -> str:
    """A file name for a model name: lowercase letters, digits, ``-`` and ``.``.

    Examples
    --------
    >>> slug("trigram (slor)"), slug("  My model #2 "), slug("(((")
    ('trigram-slor', 'my-model-2', 'model')
    """
    text = re.sub(r"[^a-z0-9.]+", "-", name.lower()).strip("-.")
    return text or "model"


def _dump(obj: object) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _metadata(metadata: Mapping) -> dict:
    return {k: v for k, v in metadata.items() if k not in _DROPPED_METADATA}


# ----------------------------------------------------------------------------- LI-Adger
@dataclass(frozen=True)
class ShippedScores:
    """One shipped LI-Adger model: its name, scores (id → score), metadata and result row."""

    name: str
    scores: dict[str, float]
    metadata: dict
    row: dict


def write_li_adger(
    folder: str | Path, name: str, scores: Mapping[str, float], metadata: Mapping, row: Mapping
) -> list[Path]:
    """Write ``li_adger/<slug>.csv`` (id,score, scores written exactly) and ``<slug>.json``
    (name, metadata, result row) into ``folder``; return both paths.

    Examples
    --------
    >>> import tempfile
    >>> out = write_li_adger(tempfile.mkdtemp(), "m (v)", {"a,1": -1.5, "b": 2.0}, {}, {})
    >>> [p.name for p in out], out[0].read_text().splitlines()
    (['m-v.csv', 'm-v.json'], ['id,score', '"a,1",-1.5', 'b,2.0'])
    """
    base = Path(folder) / LI_ADGER / slug(name)
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["id", "score"])
    writer.writerows((i, repr(float(s))) for i, s in scores.items())
    summary = {"model": name, "metadata": _metadata(metadata), "row": dict(row)}
    return [
        atomic_write_text(base.with_suffix(".csv"), text.getvalue()),
        atomic_write_text(base.with_suffix(".json"), _dump(summary)),
    ]


def read_li_adger(folder: str | Path = SHIPPED_DIR) -> list[ShippedScores]:
    """The shipped LI-Adger models of ``folder``, in file-name order (none when it has none).

    Examples
    --------
    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> _ = write_li_adger(d, "m", {"a": -1.5, "b": 2.0}, {"kind": "ngram"}, {"blimp": 1.0})
    >>> [(s.name, s.scores, s.metadata, s.row) for s in read_li_adger(d)]
    [('m', {'a': -1.5, 'b': 2.0}, {'kind': 'ngram'}, {'blimp': 1.0})]
    """
    out = []
    for path in sorted((Path(folder) / LI_ADGER).glob("*.json")):
        summary = _load(path)
        scores = read_scores(path.with_suffix(".csv")).as_dict()
        out.append(ShippedScores(summary["model"], scores, summary["metadata"], summary["row"]))
    return out


# ----------------------------------------------------------------------------- the family
def write_family(folder: str | Path, benchmark: str, entry: FamilyEntry, metadata: Mapping) -> Path:
    """Write ``<benchmark>/<slug>.json``: the entry's name, metadata, result and (cloze)
    ranks and top predictions.

    Examples
    --------
    >>> import tempfile
    >>> from space.data.toy import toy_benchmark_data
    >>> e = toy_benchmark_data().entries[0]
    >>> write_family(tempfile.mkdtemp(), "blimp", e, {"kind": "ngram"}).name
    'toy-good.json'
    """
    record = {
        "model": entry.name,
        "metadata": _metadata(metadata),
        "result": entry.result,
        "ranks": entry.ranks,
        "top": entry.top,
    }
    return atomic_write_text(Path(folder) / benchmark / f"{slug(entry.name)}.json", _dump(record))


def read_family(folder: str | Path, benchmark: str) -> list[FamilyEntry]:
    """The shipped models of one benchmark (kind :data:`~space.data.entries.KIND_SHIPPED`).

    Examples
    --------
    >>> import tempfile
    >>> from space.data.toy import toy_benchmark_data
    >>> d = tempfile.mkdtemp()
    >>> _ = write_family(d, "blimp", toy_benchmark_data().entries[1], {})
    >>> [(e.name, e.kind, e.headline) for e in read_family(d, "blimp")]
    [('toy-bad', 'offline model', 0.25)]
    """
    out = []
    for path in sorted((Path(folder) / benchmark).glob("*.json")):
        if path.name == REFERENCES_FILE:
            continue
        r = _load(path)
        out.append(FamilyEntry(r["model"], KIND_SHIPPED, r["result"], None, r["ranks"], r["top"]))
    return out


def write_references(folder: str | Path, benchmark: str, references: Mapping[str, dict]) -> Path:
    """Write ``<benchmark>/references.json``: :func:`metric_adc.report.references.reference_results`."""
    return atomic_write_text(Path(folder) / benchmark / REFERENCES_FILE, _dump(dict(references)))


def read_references(folder: str | Path, benchmark: str) -> list[FamilyEntry]:
    """The shipped reference rows of one benchmark (kind :data:`~space.data.entries.KIND_REFERENCE`,
    each with the result's ``note``), or ``[]``.

    Examples
    --------
    >>> import tempfile
    >>> from space.data.toy import toy_benchmark_data
    >>> d = tempfile.mkdtemp()
    >>> _ = write_references(d, "blimp", {"human": toy_benchmark_data().human.result})
    >>> [(e.name, e.kind, e.headline) for e in read_references(d, "blimp")]
    [('human', 'paper reference', 1.0)]
    """
    path = Path(folder) / benchmark / REFERENCES_FILE
    if not path.is_file():
        return []
    return [
        FamilyEntry(name, KIND_REFERENCE, result, result.get("note"))
        for name, result in _load(path).items()
    ]


# ----------------------------------------------------------------------------- ceiling
def write_ceiling(folder: str | Path, row: Mapping, deltas, adc) -> Path:
    """Write ``ceiling.json``: the ceiling's result row and its mean ADC(δ) curve."""
    record = {
        "row": dict(row),
        "curve": {"deltas": [float(d) for d in deltas], "adc_mean": [float(a) for a in adc]},
    }
    return atomic_write_text(Path(folder) / CEILING_FILE, _dump(record))


def read_ceiling(folder: str | Path = SHIPPED_DIR) -> Ceiling | None:
    """The shipped human ceiling, or ``None`` when ``folder`` has none.

    Examples
    --------
    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> _ = write_ceiling(d, {"model": "h", "note": "LI only"}, [0.5, 1.0], [0.4, 0.7])
    >>> c = read_ceiling(d)
    >>> c.row["model"], c.adc_at(1.0), c.note
    ('h', 0.7, 'LI only')
    """
    path = Path(folder) / CEILING_FILE
    if not path.is_file():
        return None
    r = _load(path)
    curve = r["curve"]
    return Ceiling(
        r["row"],
        np.asarray(curve["deltas"], dtype=float),
        np.asarray(curve["adc_mean"], dtype=float),
        r["row"].get("note") or "",
    )
