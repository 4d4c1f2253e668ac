"""The scores file: one format for sentence scores, written atomically and read with validation.

JSON Lines, UTF-8. The first line is the metadata record (``"format": "adc-scores"``,
``"version": 1`` and free-form fields such as ``model``, ``kind``, ``variant``,
``reduction``, ``dataset``, ``versions``, ``created``); every other line is one scored unit
``{"id": str, "sentence": str, "score": float}``. Besides ``id`` and ``score`` a record may carry
the fields of :data:`RECORD_FIELDS` (the unit's text, and numbers a scorer measured on the way,
e.g. the ``rank`` of a cloze completion or the ``unigram_logprob`` a linking function needs);
a field is given on every record or on none; other keys are ignored.
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
    "json_line",
    "read_scores",
    "write_scores",
]

FORMAT = "adc-scores"
VERSION = 1
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
"""Files larger than this (256 MiB) are refused unless ``max_bytes`` is raised."""


RECORD_FIELDS: dict[str, str] = {
    "sentence": "text",
    "context": "text",
    "completion": "text",
    "rank": "count",
    "n_tokens": "count",
    "n_words": "count",
    "logprob": "number",
    "unigram_logprob": "number",
    "top": "texts",
}
"""The optional per-record fields and their type, in the order they are written.

``sentence`` (or ``context`` and ``completion`` for a cloze unit) is the scored text;
``rank`` is the rank of a cloze completion among the model's predictions (1 = its top one) and
``top`` its top predictions; ``n_tokens``/``n_words``, ``logprob`` and ``unigram_logprob`` are
the sentence's length, log-probability and unigram log-probability (natural logs), from which
:mod:`metric_adc` can compute other linking functions. Types: ``text`` a string, ``count`` an
integer ≥ 0 (``rank`` ≥ 1), ``number`` a finite number, ``texts`` a list of strings."""

# JSON strings never hold a raw "\n"; these separators are escaped too, since text tools
# (and str.splitlines) split lines at them.
_LINE_SEPARATORS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}


def json_line(record: Mapping) -> str:
    """One JSON line: UTF-8 text kept, every character a line reader may split at escaped.

    Every JSON Lines file the project writes (scores files, resume caches) uses it.

    Examples
    --------
    >>> json_line({"sentence": "a\\u2028b ü"})
    '{"sentence": "a\\\\u2028b ü"}'
    """
    line = json.dumps(record, ensure_ascii=False, allow_nan=False)
    for raw, escaped in _LINE_SEPARATORS.items():
        line = line.replace(raw, escaped)
    return line


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
    fields: dict[str, list] = field(default_factory=dict)
    """The optional fields of :data:`RECORD_FIELDS` the records carry (``sentence`` included),
    each a list parallel to :attr:`ids`."""

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


def _field(name: str, value: object, where: str) -> object:
    """A record's optional field, checked against its type in :data:`RECORD_FIELDS`."""
    kind = RECORD_FIELDS[name]
    if kind == "text":
        ok = isinstance(value, str)
        expected = "a string"
    elif kind == "texts":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        expected = "a list of strings"
    elif kind == "count":
        low = 1 if name == "rank" else 0
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= low
        expected = f"an integer >= {low}"
    else:
        ok = (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(float(value))
        )
        expected = "a finite number"
        value = float(value) if ok else value
    if not ok:
        raise ScoresFileError(f"{where}: {name!r} must be {expected} (got {value!r:.80})")
    return value


def _check_fields(columns: dict[str, list], ids: list[str], where: str) -> dict[str, list]:
    """Each optional field on every record or on none; returns the complete ones."""
    out = {}
    for name, values in columns.items():
        missing = [k for k, v in enumerate(values) if v is None]
        if missing and len(missing) < len(values):
            raise ScoresFileError(
                f"{where}: {name!r} must be given on every record or on none "
                f"(missing for id {ids[missing[0]]!r})"
            )
        if not missing:
            out[name] = values
    return out


def write_scores(
    path: str | os.PathLike, records: Iterable[Mapping], metadata: Mapping | None = None
) -> Path:
    """Write a scores file atomically (temporary file, then :func:`os.replace`).

    ``records`` are mappings with ``id``, ``score`` and optionally the fields of
    :data:`RECORD_FIELDS` (each on every record or on none).
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
    lines = [json_line(meta)]
    ids: list[str] = []
    columns: dict[str, list] = {}
    for k, rec in enumerate(records):
        where = f"record {k + 1}"
        if not isinstance(rec, Mapping):
            raise ScoresFileError(
                f"{where}: expected a mapping with 'id' and 'score' (got {rec!r})"
            )
        out = {"id": _id(rec.get("id"), where)}
        for name in RECORD_FIELDS:
            if RECORD_FIELDS[name] == "text" and rec.get(name) is not None:
                out[name] = _field(name, rec[name], where)
        out["score"] = _score(rec.get("score"), where)
        for name in RECORD_FIELDS:
            if RECORD_FIELDS[name] != "text" and rec.get(name) is not None:
                out[name] = _field(name, rec[name], where)
        ids.append(out["id"])
        for name in RECORD_FIELDS:
            columns.setdefault(name, []).append(out.get(name))
        lines.append(json_line(out))
    if not ids:
        raise ScoresFileError(f"{path}: no records to write (expected at least one)")
    _check_unique(ids, str(path))
    _check_fields(columns, ids, str(path))
    return atomic_write_text(path, "\n".join(lines) + "\n")


def _read_jsonl(text: str, name: str) -> ScoresFile:
    # split at "\n" only: a JSON line holds no raw newline, but may hold other characters
    # that str.splitlines() would split at (U+2028, U+0085, ...)
    lines = [(k + 1, ln) for k, ln in enumerate(text.split("\n")) if ln.strip()]
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
    columns: dict[str, list] = {name: [] for name in RECORD_FIELDS}
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
        for field_name, values in columns.items():
            value = rec.get(field_name)
            values.append(None if value is None else _field(field_name, value, where))
    if not ids:
        raise ScoresFileError(f"{name}: no score records after the metadata line")
    fields = _check_fields(columns, ids, name)
    _check_unique(ids, name)
    return ScoresFile(meta, ids, np.array(scores, dtype=float), fields.get("sentence"), fields)


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
    first = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")
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
