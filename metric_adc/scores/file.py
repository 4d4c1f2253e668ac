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

Reading follows the project's reading policy (:mod:`li_adger.io.readers`, ``docs/errors.md``):
any bytes at all either parse or raise :class:`ScoresFileError` naming the file, the line, the
field, what was expected and what was found. A scoring run's partial (resume) file holds the
same records and is read by :func:`read_partial`.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from li_adger.io.atomic import atomic_write_text
from li_adger.io.readers import (
    InputFileError,
    as_number,
    as_text,
    csv_rows,
    decode,
    json_lines,
    read_text,
    shown,
)
from metric_adc.scores.labels import row_label

__all__ = [
    "DEFAULT_MAX_BYTES",
    "FORMAT",
    "METADATA_TEXT_FIELDS",
    "RECORD_FIELDS",
    "VERSION",
    "PartialFileError",
    "ScoresFile",
    "ScoresFileError",
    "json_line",
    "read_partial",
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
    "after": "text",
    "rank": "count",
    "n_tokens": "count",
    "n_words": "count",
    "logprob": "number",
    "unigram_logprob": "number",
    "top": "texts",
}
"""The optional per-record fields and their type, in the order they are written.

``sentence`` (or ``context`` and ``completion`` for a cloze unit, and ``after`` when its blank
is inside the sentence) is the scored text;
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


METADATA_TEXT_FIELDS: tuple[str, ...] = (
    "model",
    "kind",
    "variant",
    "reduction",
    "convention",
    "dataset",
)
"""Metadata fields the metric reads: each, when given and not null, must be a string."""


class ScoresFileError(InputFileError):
    """A scores file (or the records given to :func:`write_scores`) is not valid."""


class PartialFileError(ScoresFileError):
    """A scoring run's partial (resume) file is damaged; the message names the file and the
    line, and says to delete the file to start over."""


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
    source: str | None = None
    """The file it was read from (``None`` when made in memory)."""
    lines: list[int] | None = None
    """The line of the file each record is on, parallel to :attr:`ids` (``None`` without)."""

    def where(self, k: int, name: str | None = None) -> str:
        """Record ``k`` as the user finds it: the file (``name``, else :attr:`source`), its line
        and its id.

        Examples
        --------
        >>> ScoresFile({}, ["a", "b"], np.zeros(2), source="s.jsonl", lines=[2, 4]).where(1)
        "s.jsonl line 4 (id 'b')"
        >>> ScoresFile({}, ["a"], np.zeros(1)).where(0)
        "record 1 (id 'a')"
        """
        source = name if name is not None else self.source
        if source is not None and self.lines is not None:
            return f"{source} line {self.lines[k]} (id {self.ids[k]!r})"
        return f"{source + ' ' if source else ''}record {k + 1} (id {self.ids[k]!r})"

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def model(self) -> str:
        """The ``model`` field of the metadata, or ``"unnamed"``."""
        return str(self.metadata.get("model") or "unnamed")

    @property
    def label(self) -> str:
        """How results name the file (:func:`metric_adc.scores.labels.row_label`).

        Examples
        --------
        >>> ScoresFile({"model": "trigram", "kind": "ngram", "variant": "slor"}, [], np.array([])).label
        'trigram (slor)'
        >>> ScoresFile({}, [], np.array([])).label
        'unnamed'
        """
        return row_label(self.metadata)

    def as_dict(self) -> dict[str, float]:
        """Sentence id → score."""
        return dict(zip(self.ids, self.scores.tolist(), strict=True))


def _score(value: object, where: str) -> float:
    return as_number(value, where, "score")


def _id(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ScoresFileError(f"{where}: 'id' must be a non-empty string (got {shown(value)})")
    return as_text(value, where, "id")


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
        return as_text(value, where, name)
    if kind == "texts":
        if not isinstance(value, list):
            raise ScoresFileError(
                f"{where}: {name!r} must be a list of strings (got {shown(value)})"
            )
        return [as_text(v, where, f"{name}[{k}]") for k, v in enumerate(value)]
    if kind == "count":
        low = 1 if name == "rank" else 0
        if isinstance(value, int) and not isinstance(value, bool) and value >= low:
            return value
        raise ScoresFileError(f"{where}: {name!r} must be an integer >= {low} (got {shown(value)})")
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    try:
        ok = ok and math.isfinite(float(value))
    except OverflowError:
        ok = False
    if not ok:
        raise ScoresFileError(f"{where}: {name!r} must be a finite number (got {shown(value)})")
    return float(value)


def _check_metadata(meta: Mapping, where: str) -> None:
    for key in METADATA_TEXT_FIELDS:
        if meta.get(key) is not None:
            as_text(meta[key], where, key)


def _record(rec: object, where: str, columns: dict[str, list]) -> tuple[str, float]:
    """A scores-file record's id and score; its optional fields are appended to ``columns``
    (``None`` where absent)."""
    if not isinstance(rec, dict) or "id" not in rec or "score" not in rec:
        raise ScoresFileError(
            f"{where}: expected an object with keys 'id' and 'score' (got {shown(rec)})"
        )
    i, score = _id(rec["id"], where), _score(rec["score"], where)
    for name, values in columns.items():
        value = rec.get(name)
        values.append(None if value is None else _field(name, value, where))
    return i, score


def _as_scores_file_error(exc: InputFileError, cls: type[ScoresFileError] = ScoresFileError):
    return exc if isinstance(exc, cls) else cls(str(exc))


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
    try:
        _check_metadata(meta, "metadata")
        return atomic_write_text(path, _scores_text(path, meta, records))
    except InputFileError as exc:
        raise _as_scores_file_error(exc) from None


def _scores_text(path: Path, meta: dict, records: Iterable[Mapping]) -> str:
    """The text of a scores file, every record checked (:func:`write_scores`)."""
    lines = [json_line(meta)]
    ids: list[str] = []
    columns: dict[str, list] = {}
    for k, rec in enumerate(records):
        where = f"record {k + 1}"
        if not isinstance(rec, Mapping):
            raise ScoresFileError(
                f"{where}: expected a mapping with 'id' and 'score' (got {shown(rec)})"
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
    return "\n".join(lines) + "\n"


def _jsonl_scores(values: list[tuple[int, object]], name: str) -> ScoresFile:
    """A scores file from the values of its JSON lines (:func:`~li_adger.io.readers.json_lines`,
    every line parsed): the metadata record, then each record, checked in file order."""
    (lineno, meta), *records = values
    where = f"{name} line {lineno}"
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ScoresFileError(
            f'{where}: expected the metadata record with "format": {FORMAT!r} (got {shown(meta)})'
        )
    if meta.get("version") != VERSION:
        raise ScoresFileError(
            f"{where}: unsupported version {shown(meta.get('version'))} (expected {VERSION})"
        )
    _check_metadata(meta, where)
    ids: list[str] = []
    scores: list[float] = []
    numbers: list[int] = []
    columns: dict[str, list] = {name: [] for name in RECORD_FIELDS}
    for lineno, rec in records:
        i, score = _record(rec, f"{name} line {lineno}", columns)
        ids.append(i)
        scores.append(score)
        numbers.append(lineno)
    if not ids:
        raise ScoresFileError(f"{name}: no score records after the metadata line")
    fields = _check_fields(columns, ids, name)
    _check_unique(ids, name)
    values = np.array(scores, dtype=float)
    return ScoresFile(meta, ids, values, fields.get("sentence"), fields, name, numbers)


def _read_csv(text: str, name: str) -> ScoresFile:
    rows = csv_rows(text, name)
    lineno, first = next(rows, (1, []))
    header = [c.strip() for c in first]
    if header != ["id", "score"]:
        raise ScoresFileError(
            f"{name} line {lineno}: expected the CSV header 'id,score' "
            f"(got {shown(','.join(header))})"
        )
    ids: list[str] = []
    scores: list[float] = []
    numbers: list[int] = []
    for lineno, row in rows:
        where = f"{name} line {lineno}"
        numbers.append(lineno)
        if len(row) != 2:
            raise ScoresFileError(
                f"{where}: expected 2 columns 'id,score' (got {len(row)}: {shown(row)})"
            )
        ids.append(_id(row[0].strip(), where))
        try:
            value = float(row[1])
        except ValueError as exc:
            raise ScoresFileError(
                f"{where}: 'score' must be a number (got {shown(row[1])})"
            ) from exc
        scores.append(_score(value, where))
    if not ids:
        raise ScoresFileError(f"{name}: no score rows after the header")
    _check_unique(ids, name)
    return ScoresFile(
        {"format": FORMAT, "version": VERSION, "source_format": "csv"},
        ids,
        np.array(scores, dtype=float),
        source=name,
        lines=numbers,
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
    metric_adc.scores.file.ScoresFileError: ...s.csv: duplicate id 'a' (records 1 and 2)
    """
    path = Path(path)
    name = str(path)
    try:
        text = read_text(path, max_bytes=max_bytes)
        first = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")
        if not first:
            raise ScoresFileError(f"{name}: file is empty (expected JSON Lines or CSV 'id,score')")
        if first.startswith("{"):  # every line parsed first, then the records checked
            return _jsonl_scores(list(json_lines(text, name)), name)
        if "," in first:
            return _read_csv(text, name)
    except InputFileError as exc:
        raise _as_scores_file_error(exc) from None
    raise ScoresFileError(
        f"{name}: unknown format (expected JSON Lines with a metadata record, or CSV with "
        f"header 'id,score'; first line is {shown(first)})"
    )


def read_partial(path: str | os.PathLike, fingerprint: str) -> dict[str, dict]:
    """The records cached in a scoring run's partial (resume) file: id → record.

    The file is JSON Lines: a header ``{"fingerprint": ..., ...}``, then records checked as a
    scores file's are (``id``, a finite ``score``, the optional fields of
    :data:`RECORD_FIELDS`; other keys are kept). A missing file is an empty cache; a last line
    without its newline (the run was killed while writing it) is cut off the file. Anything
    else (bytes that are not UTF-8, a header that is not an object or names another
    fingerprint, a damaged record, a NaN score) is a :class:`PartialFileError` that names the
    file and the line and says to delete the file to start over.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "s.jsonl.0123.partial"
    >>> _ = p.write_text('{"fingerprint": "0123"}\\n{"id": "a", "sentence": "Go.", "score": -1}\\n'
    ...                  '{"id": "b", "sen')
    >>> read_partial(p, "0123")
    {'a': {'id': 'a', 'sentence': 'Go.', 'score': -1.0}}
    >>> _ = p.write_text('{"fingerprint": "0123"}\\n{"id": "a", "score": NaN}\\n')
    >>> read_partial(p, "0123")
    Traceback (most recent call last):
    ...
    metric_adc.scores.file.PartialFileError: ...partial line 2: 'score' must be finite (got nan); delete ...s.jsonl.0123.partial to start over
    """
    path = Path(path)
    if not path.is_file():
        return {}
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        with path.open("r+b") as fh:
            fh.truncate(len(complete))
    name = str(path)
    try:
        lines = json_lines(decode(complete, name), name)
        cached: dict[str, dict] = {}
        header = True
        for lineno, rec in lines:
            where = f"{name} line {lineno}"
            if header:
                header = False
                got = rec.get("fingerprint") if isinstance(rec, dict) else rec
                if got != fingerprint:
                    raise PartialFileError(
                        f"{where}: expected the header with fingerprint {fingerprint!r} "
                        f"(got {shown(got)})"
                    )
                continue
            columns: dict[str, list] = {field: [] for field in RECORD_FIELDS}
            i, score = _record(rec, where, columns)
            fields = {k: v[0] for k, v in columns.items() if v[0] is not None}
            cached.setdefault(i, {**rec, **fields, "id": i, "score": score})
    except InputFileError as exc:
        raise PartialFileError(f"{exc}; delete {name} to start over") from None
    return cached
