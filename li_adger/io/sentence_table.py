"""Reading a table of sentences given to a scorer (``id``, ``sentence``): every row checked.

A ``.csv``, ``.jsonl`` or ``.parquet`` file with the columns ``id`` and ``sentence`` (others are
ignored) becomes a :class:`SentenceTable`, or an :class:`~li_adger.io.readers.InputFileError`
naming the file, the line (a Parquet file: the row) and the field, under the policy of
:mod:`li_adger.io.readers`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from li_adger.io.readers import InputFileError, as_text, csv_table, json_lines, read_text, shown

__all__ = ["TABLE_SUFFIXES", "SentenceTable", "read_sentence_table"]

TABLE_SUFFIXES: tuple[str, ...] = (".csv", ".jsonl", ".parquet")
"""The file types :func:`read_sentence_table` reads."""


@dataclass(frozen=True)
class SentenceTable:
    """A table of sentences to score: ids and sentences in file order, and where each is.

    ``places[k]`` is where row ``k`` is in the file (``"line 4"``, or ``"row 4"`` in a
    Parquet file); :meth:`where` names a row for an error message.
    """

    path: Path
    ids: list[str]
    sentences: list[str]
    places: list[str]

    def where(self, k: int) -> str:
        """Row ``k`` named for a message: ``"data.csv line 4 (id 's3')"``.

        Examples
        --------
        >>> SentenceTable(Path("d.csv"), ["s1"], ["Go."], ["line 2"]).where(0)
        "d.csv line 2 (id 's1')"
        """
        return f"{self.path} {self.places[k]} (id {self.ids[k]!r})"


_COLUMNS = ("id", "sentence")


def _table_id(value: object, where: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return as_text(value, where, "id")


def _csv_table(text: str, name: str) -> Iterator[tuple[str, object, object]]:
    header, rows = csv_table(text, name, _COLUMNS)
    at = [header.index(c) for c in _COLUMNS]
    for lineno, row in rows:
        yield f"line {lineno}", row[at[0]], row[at[1]]


def _jsonl_table(text: str, name: str) -> Iterator[tuple[str, object, object]]:
    for lineno, record in json_lines(text, name):
        if not isinstance(record, dict) or not all(c in record for c in _COLUMNS):
            raise InputFileError(
                f"{name} line {lineno}: expected an object with keys 'id' and 'sentence' "
                f"(got {shown(record)})"
            )
        yield f"line {lineno}", record["id"], record["sentence"]


def _parquet_table(path: Path) -> Iterator[tuple[str, object, object]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = str(path)
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as exc:
        raise InputFileError(f"{name}: not a readable Parquet file ({exc})") from exc
    missing = [c for c in _COLUMNS if c not in table.column_names]
    if missing:
        raise InputFileError(
            f"{name}: missing column(s) {missing} (got columns {table.column_names}; "
            "expected 'id' and 'sentence')"
        )
    ids, sentences = (table.column(c).to_pylist() for c in _COLUMNS)
    for k, (i, s) in enumerate(zip(ids, sentences, strict=True)):
        yield f"row {k + 1}", i, s


def read_sentence_table(path: str | os.PathLike) -> SentenceTable:
    """A table of sentences to score (``.csv``, ``.jsonl`` or ``.parquet``, columns ``id`` and
    ``sentence``; others ignored), every row checked.

    Ids are strings (or integers, read as their digits), non-blank and unique; sentences are
    strings with a non-space character. Anything else, an empty or unreadable file included,
    is an :class:`InputFileError` naming the file, the line (a Parquet file: the row) and the
    field.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "mine.csv"
    >>> _ = p.write_text("id,sentence\\ns1,The keys are lost.\\ns2,The keys is lost.\\n")
    >>> t = read_sentence_table(p)
    >>> t.ids, t.sentences, t.places
    (['s1', 's2'], ['The keys are lost.', 'The keys is lost.'], ['line 2', 'line 3'])
    >>> _ = p.write_text("id,sentence\\ns1,Go.\\ns2,  \\n")
    >>> read_sentence_table(p)
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: ...mine.csv line 3: 'sentence' is blank (id 's2'); expected a sentence with a word
    """
    path = Path(path)
    name = str(path)
    if path.suffix not in TABLE_SUFFIXES:
        raise InputFileError(
            f"{name}: expected a {'/'.join(TABLE_SUFFIXES)} file with columns 'id' and 'sentence'"
        )
    if path.suffix == ".parquet":
        if not path.is_file():
            read_text(path)  # the same message for a missing file or a folder
        rows = _parquet_table(path)
    else:
        reader = _csv_table if path.suffix == ".csv" else _jsonl_table
        rows = reader(read_text(path), name)
    ids: list[str] = []
    sentences: list[str] = []
    places: list[str] = []
    seen: dict[str, str] = {}
    for place, raw_id, raw_sentence in rows:
        where = f"{name} {place}"
        i = _table_id(raw_id, where)
        if not i.strip():
            raise InputFileError(f"{where}: 'id' is blank (expected a non-empty id)")
        if i in seen:
            raise InputFileError(f"{where}: duplicate id {i!r} (first at {seen[i]})")
        s = as_text(raw_sentence, where, "sentence")
        if not s.strip():
            raise InputFileError(
                f"{where}: 'sentence' is blank (id {i!r}); expected a sentence with a word"
            )
        seen[i] = place
        ids.append(i)
        sentences.append(s)
        places.append(place)
    if not ids:
        raise InputFileError(f"{name}: no rows (expected at least one id and sentence)")
    return SentenceTable(path, ids, sentences, places)
