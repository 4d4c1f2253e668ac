"""The scores file: one format for sentence scores, written atomically and read with validation.

JSON Lines, UTF-8. The first line is the metadata record (``"format": "adc-scores"``,
``"version": 1`` and free-form fields such as ``model``, ``kind``, ``variant``,
``reduction``, ``dataset``, ``versions``, ``created``); every other line is one sentence
``{"id": str, "sentence": str, "score": float}`` (``sentence`` optional, other keys ignored).
Readers also accept a two-column CSV with the header ``id,score``.
Ids must be unique and scores finite numbers.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from li_adger.atomic import atomic_write_text

__all__ = [
    "DEFAULT_MAX_BYTES",
    "FORMAT",
    "VERSION",
    "ScoresFile",
    "ScoresFileError",
    "read_scores",
    "write_scores",
]

FORMAT = "adc-scores"
VERSION = 1
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
"""Files larger than this (256 MiB) are refused unless ``max_bytes`` is raised."""


class ScoresFileError(ValueError):
    """A scores file (or the records given to :func:`write_scores`) is not valid."""


@dataclass(frozen=True)
class ScoresFile:
    """A validated scores file: metadata, and parallel lists of ids, scores and sentences.

    Examples
    --------
    >>> sf = ScoresFile({"model": "m"}, ["a", "b"], np.array([1.0, 2.0]))
    >>> sf.as_dict()
    {'a': 1.0, 'b': 2.0}
    >>> len(sf), sf.model
    (2, 'm')
    """

    metadata: dict
    ids: list[str]
    scores: np.ndarray
    sentences: list[str] | None = field(default=None)

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def model(self) -> str:
        """The ``model`` field of the metadata, or ``"unnamed"``."""
        return str(self.metadata.get("model") or "unnamed")

    @property
    def label(self) -> str:
        """The model with its variant, e.g. ``"trigram (slor)"``: how results name the file.

        Examples
        --------
        >>> ScoresFile({"model": "smollm2", "variant": "logprob"}, [], np.array([])).label
        'smollm2 (logprob)'
        >>> ScoresFile({}, [], np.array([])).label
        'unnamed'
        """
        variant = self.metadata.get("variant")
        return f"{self.model} ({variant})" if variant else self.model

    def as_dict(self) -> dict[str, float]:
        """Sentence id → score."""
        return dict(zip(self.ids, self.scores.tolist(), strict=True))


def _score(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ScoresFileError(f"{where}: 'score' must be a number (got {value!r})")
    x = float(value)
    if not math.isfinite(x):
        raise ScoresFileError(f"{where}: 'score' must be finite (got {value!r})")
    return x


def _id(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ScoresFileError(f"{where}: 'id' must be a non-empty string (got {value!r})")
    return value


def _check_unique(ids: list[str], where: str) -> None:
    seen: dict[str, int] = {}
    for k, i in enumerate(ids):
        if i in seen:
            raise ScoresFileError(
                f"{where}: duplicate id {i!r} (records {seen[i] + 1} and {k + 1})"
            )
        seen[i] = k


def write_scores(
    path: str | os.PathLike, records: Iterable[Mapping], metadata: Mapping | None = None
) -> Path:
    """Write a scores file atomically (temporary file, then :func:`os.replace`).

    ``records`` are mappings with ``id``, ``score`` and optionally ``sentence``.
    ``metadata`` gets ``format``, ``version`` and ``created`` (UTC) if it lacks them.
    Returns the path written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> p = write_scores(d / "s.jsonl", [{"id": "a", "sentence": "A.", "score": -3.5}],
    ...                  {"model": "demo", "created": "2026-01-01T00:00:00Z"})
    >>> print(p.read_text(), end="")
    {"format": "adc-scores", "version": 1, "model": "demo", "created": "2026-01-01T00:00:00Z"}
    {"id": "a", "sentence": "A.", "score": -3.5}
    """
    path = Path(path)
    meta = {"format": FORMAT, "version": VERSION, **dict(metadata or {})}
    if meta["format"] != FORMAT or meta["version"] != VERSION:
        raise ScoresFileError(
            f"metadata: expected format {FORMAT!r} version {VERSION} "
            f"(got {meta['format']!r} version {meta['version']!r})"
        )
    meta.setdefault(
        "created",
        _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
    )
    lines = [json.dumps(meta, ensure_ascii=False, allow_nan=False)]
    ids: list[str] = []
    for k, rec in enumerate(records):
        where = f"record {k + 1}"
        if not isinstance(rec, Mapping):
            raise ScoresFileError(
                f"{where}: expected a mapping with 'id' and 'score' (got {rec!r})"
            )
        out = {"id": _id(rec.get("id"), where)}
        if rec.get("sentence") is not None:
            out["sentence"] = str(rec["sentence"])
        out["score"] = _score(rec.get("score"), where)
        ids.append(out["id"])
        lines.append(json.dumps(out, ensure_ascii=False))
    if not ids:
        raise ScoresFileError(f"{path}: no records to write (expected at least one)")
    _check_unique(ids, str(path))
    return atomic_write_text(path, "\n".join(lines) + "\n")


def _read_jsonl(text: str, name: str) -> ScoresFile:
    lines = [(k + 1, ln) for k, ln in enumerate(text.splitlines()) if ln.strip()]
    try:
        meta = json.loads(lines[0][1])
    except json.JSONDecodeError as exc:
        raise ScoresFileError(f"{name} line 1: not valid JSON ({exc.msg})") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ScoresFileError(
            f'{name} line 1: expected the metadata record with "format": {FORMAT!r} '
            f"(got {lines[0][1][:80]!r})"
        )
    if meta.get("version") != VERSION:
        raise ScoresFileError(
            f"{name} line 1: unsupported version {meta.get('version')!r} (expected {VERSION})"
        )
    ids: list[str] = []
    scores: list[float] = []
    sentences: list[str | None] = []
    for lineno, ln in lines[1:]:
        where = f"{name} line {lineno}"
        try:
            rec = json.loads(ln)
        except json.JSONDecodeError as exc:
            raise ScoresFileError(f"{where}: not valid JSON ({exc.msg})") from exc
        if not isinstance(rec, dict) or "id" not in rec or "score" not in rec:
            raise ScoresFileError(
                f"{where}: expected an object with keys 'id' and 'score' (got {ln[:80]!r})"
            )
        ids.append(_id(rec["id"], where))
        scores.append(_score(rec["score"], where))
        s = rec.get("sentence")
        if s is not None and not isinstance(s, str):
            raise ScoresFileError(f"{where}: 'sentence' must be a string (got {s!r})")
        sentences.append(s)
    if not ids:
        raise ScoresFileError(f"{name}: no score records after the metadata line")
    have = [s is not None for s in sentences]
    if any(have) and not all(have):
        k = have.index(False)
        raise ScoresFileError(
            f"{name}: 'sentence' must be given on every record or on none "
            f"(missing for id {ids[k]!r})"
        )
    _check_unique(ids, name)
    return ScoresFile(meta, ids, np.array(scores, dtype=float), sentences if all(have) else None)


def _read_csv(text: str, name: str) -> ScoresFile:
    rows = list(csv.reader(io.StringIO(text)))
    start = next(k for k, row in enumerate(rows) if any(c.strip() for c in row))
    header = [c.strip() for c in rows[start]]
    if header != ["id", "score"]:
        raise ScoresFileError(
            f"{name}: expected the CSV header 'id,score' (got {','.join(header)!r})"
        )
    ids: list[str] = []
    scores: list[float] = []
    for k, row in enumerate(rows[start + 1 :], start=start + 2):
        if not row or not any(c.strip() for c in row):
            continue
        where = f"{name} line {k}"
        if len(row) != 2:
            raise ScoresFileError(
                f"{where}: expected 2 columns 'id,score' (got {len(row)}: {row!r})"
            )
        ids.append(_id(row[0].strip(), where))
        try:
            value = float(row[1])
        except ValueError as exc:
            raise ScoresFileError(f"{where}: 'score' must be a number (got {row[1]!r})") from exc
        scores.append(_score(value, where))
    if not ids:
        raise ScoresFileError(f"{name}: no score rows after the header")
    _check_unique(ids, name)
    return ScoresFile(
        {"format": FORMAT, "version": VERSION, "source_format": "csv"},
        ids,
        np.array(scores, dtype=float),
    )


def read_scores(path: str | os.PathLike, *, max_bytes: int = DEFAULT_MAX_BYTES) -> ScoresFile:
    """Read and validate a scores file (JSON Lines, or CSV with header ``id,score``).

    The format is recognized from the content: a first line starting with ``{`` is JSON
    Lines, a first line ``id,score`` is CSV. Raises :class:`ScoresFileError` naming the file
    and line for an unknown format, wrong columns, a non-numeric or non-finite score, a
    duplicate id, an empty file, or a file larger than ``max_bytes``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "s.csv"
    >>> _ = p.write_text("id,score\\na,1.5\\nb,-2\\n")
    >>> sf = read_scores(p)
    >>> sf.ids, sf.scores.tolist(), sf.sentences
    (['a', 'b'], [1.5, -2.0], None)
    >>> _ = p.write_text("id,score\\na,1.5\\na,2\\n")
    >>> read_scores(p)
    Traceback (most recent call last):
    ...
    metric_adc.scores_file.ScoresFileError: ...s.csv: duplicate id 'a' (records 1 and 2)
    """
    path = Path(path)
    name = str(path)
    if not path.is_file():
        raise ScoresFileError(f"{name}: no such file")
    size = path.stat().st_size
    if size > max_bytes:
        raise ScoresFileError(f"{name}: file is {size} bytes, larger than max_bytes={max_bytes}")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScoresFileError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if not first:
        raise ScoresFileError(f"{name}: file is empty (expected JSON Lines or CSV 'id,score')")
    if first.startswith("{"):
        return _read_jsonl(text, name)
    if "," in first:
        return _read_csv(text, name)
    raise ScoresFileError(
        f"{name}: unknown format (expected JSON Lines with a metadata record, or CSV with "
        f"header 'id,score'; first line is {first[:80]!r})"
    )
