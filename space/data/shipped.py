"""The results that ship with the app (``space/results/``): read at start-up, written by
``python -m space snapshot``.

The folder holds results only, never a benchmark's sentences::

    ceiling.json                 the human split-half ceiling: its row and mean ADC(δ) curve
    li_adger/<model>.csv         id,score for each of LI-Adger's 4,178 sentences
    li_adger/<model>.json        that model's metadata and result row (metric_adc.result_rows)
    thesis/<model>.csv           id,z-score: the thesis's published outputs of one of its 8
                                 reference models, z-scored as the thesis evaluates them
    thesis/<model>.json          its metadata and result row
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
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from li_adger.io.atomic import atomic_write_text
from metric_adc.result_rows import AdcRow
from metric_adc.scores.file import read_scores
from space.data.benchmark_data import LI_ADGER, FamilyEntry
from space.data.entries import Ceiling
from space.data.kinds import KIND_REFERENCE, KIND_SHIPPED
from space.data.names import slug

__all__ = [
    "CEILING_FILE",
    "REFERENCES_FILE",
    "SHIPPED_DIR",
    "THESIS",
    "ShippedScores",
    "ceiling_from_record",
    "read_ceiling",
    "read_family",
    "read_li_adger",
    "read_references",
    "read_thesis",
    "shipped_json",
    "write_ceiling",
    "write_family",
    "write_li_adger",
    "write_references",
    "write_thesis",
]

SHIPPED_DIR = Path(__file__).resolve().parents[1] / "results"
"""The shipped results folder inside the package."""

CEILING_FILE = "ceiling.json"
REFERENCES_FILE = "references.json"
THESIS = "thesis"
"""Folder of the thesis's reference models (z-scores of its published outputs)."""
_DROPPED_METADATA = ("format", "version")


def shipped_json(obj: object) -> str:
    """``obj`` as a shipped file's text (JSON indented by one space, no NaN, a final newline).

    >>> shipped_json({"a": [1]}).splitlines(), shipped_json({}).endswith("\\n")
    (['{', ' "a": [', '  1', ' ]', '}'], True)
    """
    return json.dumps(obj, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _metadata(metadata: Mapping) -> dict:
    return {k: v for k, v in metadata.items() if k not in _DROPPED_METADATA}


# ----------------------------------------------------------------------------- LI-Adger
@dataclass(frozen=True)
class ShippedScores:
    """One shipped LI-Adger model: its name, scores (id → score), metadata and result row.

    ``standardized`` (the metadata's) says the scores are z-scores already, as the thesis's
    are; ``note`` is the row's caption, when it has one.
    """

    name: str
    scores: dict[str, float]
    metadata: dict
    row: dict

    @property
    def standardized(self) -> bool:
        """Whether the scores are z-scores already (evaluate them without z-scoring again)."""
        return bool(self.metadata.get("standardized"))

    @property
    def note(self) -> str | None:
        """The caption of the model's row (e.g. how a linking function was fitted)."""
        return self.row.get("note")


def _write_scored(
    folder: Path, name: str, scores: Mapping[str, float], metadata: Mapping, row: Mapping
) -> list[Path]:
    base = folder / slug(name)
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["id", "score"])
    writer.writerows((i, repr(float(s))) for i, s in scores.items())
    summary = {"model": name, "metadata": _metadata(metadata), "row": _row_json(row)}
    return [
        atomic_write_text(base.with_suffix(".csv"), text.getvalue()),
        atomic_write_text(base.with_suffix(".json"), shipped_json(summary)),
    ]


def _read_scored(folder: Path) -> list[ShippedScores]:
    out = []
    for path in sorted(folder.glob("*.json")):
        if path.name.startswith("."):  # the temporary file of an interrupted write
            continue
        summary = _load(path)
        scores = read_scores(path.with_suffix(".csv")).as_dict()
        out.append(ShippedScores(summary["model"], scores, summary["metadata"], summary["row"]))
    return out


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
    return _write_scored(Path(folder) / LI_ADGER, name, scores, metadata, row)


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
    return _read_scored(Path(folder) / LI_ADGER)


def write_thesis(
    folder: str | Path, name: str, z: Mapping[str, float], metadata: Mapping, row: Mapping
) -> list[Path]:
    """Write one thesis model into ``thesis/`` of ``folder``: its z-scores (``id,score``), and
    its metadata (marked ``standardized``) and result row; return both paths.

    Examples
    --------
    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> _ = write_thesis(d, "BERT (MLM)", {"a": 1.0, "b": -1.0}, {"thesis_model": "b"}, {})
    >>> [(s.name, s.standardized, s.metadata["thesis_model"]) for s in read_thesis(d)]
    [('BERT (MLM)', True, 'b')]
    """
    return _write_scored(Path(folder) / THESIS, name, z, {**metadata, "standardized": True}, row)


def read_thesis(folder: str | Path = SHIPPED_DIR) -> list[ShippedScores]:
    """The shipped thesis models of ``folder`` (:func:`write_thesis`), in file-name order."""
    return _read_scored(Path(folder) / THESIS)


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
    return atomic_write_text(
        Path(folder) / benchmark / f"{slug(entry.name)}.json", shipped_json(record)
    )


def read_family(folder: str | Path, benchmark: str) -> list[FamilyEntry]:
    """The shipped models of one benchmark (kind :data:`~space.data.kinds.KIND_SHIPPED`).

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
        if path.name == REFERENCES_FILE or path.name.startswith("."):  # or a temporary file
            continue
        r = _load(path)
        out.append(
            FamilyEntry(r["model"], KIND_SHIPPED, r["result"], None, r["ranks"], r["top"],
                        metadata=r.get("metadata"))
        )  # fmt: skip
    return out


def write_references(folder: str | Path, benchmark: str, references: Mapping[str, dict]) -> Path:
    """Write ``<benchmark>/references.json``: :func:`metric_adc.report.references.reference_results`."""
    return atomic_write_text(
        Path(folder) / benchmark / REFERENCES_FILE, shipped_json(dict(references))
    )


def read_references(folder: str | Path, benchmark: str) -> list[FamilyEntry]:
    """The shipped reference rows of one benchmark (kind :data:`~space.data.kinds.KIND_REFERENCE`,
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
def _row_json(row: AdcRow | Mapping) -> dict:
    """A result row as the app keeps it, as JSON: a typed row (computed) as its
    :meth:`~metric_adc.result_rows.AdcRow.to_json_dict`, a row read from a shipped file as it is."""
    return row.to_json_dict() if isinstance(row, AdcRow) else dict(row)


def write_ceiling(folder: str | Path, record: Mapping) -> Path:
    """Write ``ceiling.json``: the record of :func:`metric_adc.ceiling.compute.human_ceiling`
    (the ceiling's result row and its mean ADC(δ) curve)."""
    curve = record["curve"]
    clean = {
        "row": _row_json(record["row"]),
        "curve": {
            "deltas": [float(d) for d in curve["deltas"]],
            "adc_mean": [float(a) for a in curve["adc_mean"]],
        },
    }
    return atomic_write_text(Path(folder) / CEILING_FILE, shipped_json(clean))


def ceiling_from_record(record: Mapping) -> Ceiling:
    """The app's :class:`Ceiling` of a :func:`metric_adc.ceiling.compute.human_ceiling` record
    (computed, or read from ``ceiling.json``)."""
    curve = record["curve"]
    row = _row_json(record["row"])
    return Ceiling(
        row,
        np.asarray(curve["deltas"], dtype=float),
        np.asarray(curve["adc_mean"], dtype=float),
        row.get("note") or "",
    )


def read_ceiling(folder: str | Path = SHIPPED_DIR) -> Ceiling | None:
    """The shipped human ceiling, or ``None`` when ``folder`` has none.

    Examples
    --------
    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> record = {"row": {"model": "h", "note": "LI only"},
    ...           "curve": {"deltas": [0.5, 1.0], "adc_mean": [0.4, 0.7]}}
    >>> _ = write_ceiling(d, record)
    >>> c = read_ceiling(d)
    >>> c.row["model"], c.adc_at(1.0), c.note
    ('h', 0.7, 'LI only')
    """
    path = Path(folder) / CEILING_FILE
    if not path.is_file():
        return None
    return ceiling_from_record(_load(path))
