"""Reading input files under one policy: every input parses, or raises :class:`InputFileError`.

Whatever bytes a file holds, a reader of the project returns what it promises or raises
:class:`InputFileError` (or a subclass, such as ``metric_adc.scores.file.ScoresFileError``)
whose message names the file, the line or record, the field, what was expected and what was
found (``docs/errors.md``). No other exception escapes for bad content: not a
``UnicodeDecodeError``, a ``RecursionError`` from JSON nested too deep, the ``ValueError`` of a
JSON integer with more than 4,300 digits, the ``OverflowError`` of one too large for a float,
nor ``csv.Error`` for a field over the ``csv`` module's limit.

The pieces every reader shares are here: :func:`read_text` (a file as UTF-8 text),
:func:`json_lines` (JSON Lines, split at ``"\\n"`` only, the line separators U+2028, U+2029
and U+0085 being text, which is why every JSON Lines writer escapes them), :func:`csv_rows`,
:func:`csv_table` and :func:`read_csv` (a CSV file that must have some columns), and the field
checks :func:`as_text` and :func:`as_number`. The reader of a table of sentences given to a
scorer is :mod:`li_adger.io.sentence_table`.

Examples
--------
>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "s.jsonl"
>>> _ = p.write_text('{"id": "a"}\\n{"id": ' + "9" * 5000 + "}\\n")
>>> list(json_lines(read_text(p), "s.jsonl"))
Traceback (most recent call last):
...
li_adger.io.readers.InputFileError: s.jsonl line 2: not valid JSON (an integer of 5000 digits, more than the 4300 a JSON reader accepts)
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import math
import os
import re
import reprlib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "InputFileError",
    "as_number",
    "as_text",
    "csv_rows",
    "csv_table",
    "decode",
    "json_lines",
    "parse_json",
    "read_csv",
    "read_text",
    "shown",
]


class InputFileError(ValueError):
    """A file the project reads is not what was expected.

    The message names the file, the line or record (when the file has lines or records), the
    field (when one is at fault), what was expected and what was found. The readers' own
    errors (``ScoresFileError``, ``PartialFileError``) are subclasses.
    """


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 2, 60, 60
_REPR.maxlist = _REPR.maxdict = _REPR.maxtuple = 4


def shown(value: object) -> str:
    """A short, safe ``repr`` of a value read from a file, for an error message.

    Never fails and never grows with the value: long strings and deep or long containers are
    cut (``...``), an integer too long to print is described by its number of digits.

    Examples
    --------
    >>> shown("a" * 100)
    "'aaaaaaaaaaaaaaaaaaaaaaaaaaa...aaaaaaaaaaaaaaaaaaaaaaaaaaaa'"
    >>> shown([[[[1]]]])
    '[[[...]]]'
    >>> shown(10**5000)
    'an integer of 5001 digits'
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**60:
        digits = len(str(abs(value))) if value.bit_length() < 14_000 else _digits(value)
        return f"an integer of {digits} digits"
    try:
        return _REPR.repr(value)
    except (RecursionError, ValueError):  # pragma: no cover - reprlib cuts before either
        return f"a value of type {type(value).__name__}"


def _digits(value: int) -> int:
    """Decimal digits of a huge integer, without converting it to a string (which Python
    refuses beyond 4,300 digits)."""
    n = abs(value)
    k = int(n.bit_length() * math.log10(2))
    return k + 1 if n >= 10**k else k


def read_text(
    path: str | os.PathLike,
    *,
    max_bytes: int | None = None,
    name: str | None = None,
    encoding: str = "utf-8",
) -> str:
    """The content of a UTF-8 text file (a leading byte-order mark dropped).

    Raises :class:`InputFileError` naming the file when it is missing, a folder, unreadable,
    larger than ``max_bytes`` or not UTF-8 (with the offset of the first bad byte). ``name``
    is the file as the user knows it (default: its path); ``encoding`` another text encoding.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "latin1.csv"
    >>> _ = p.write_bytes(b"\\xef\\xbb\\xbfid,score\\n\\xe9,1\\n")
    >>> read_text(p)
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: ...latin1.csv: not UTF-8 text (byte b'\\xe9' at offset 12: invalid continuation byte); expected a UTF-8 file
    >>> read_text(p, encoding="latin-1")[-4:]
    'é,1\\n'
    """
    path = Path(path)
    name = str(path) if name is None else name
    if path.is_dir():
        raise InputFileError(f"{name}: is a folder (expected a file)")
    if not path.is_file():
        raise InputFileError(f"{name}: no such file")
    try:
        size = path.stat().st_size
        if max_bytes is not None and size > max_bytes:
            raise InputFileError(f"{name}: file is {size} bytes, larger than max_bytes={max_bytes}")
        data = path.read_bytes()
    except OSError as exc:
        raise InputFileError(f"{name}: cannot be read ({exc.strerror or exc})") from exc
    return decode(data, name, encoding)


def decode(data: bytes, name: str, encoding: str = "utf-8") -> str:
    """Bytes read from file ``name`` as UTF-8 text (a leading byte-order mark dropped), or
    :class:`InputFileError` naming the first byte that is not UTF-8 and its offset.

    Examples
    --------
    >>> decode(b"\\xef\\xbb\\xbfid,score\\n", "s.csv")
    'id,score\\n'
    >>> decode(b"[]\\n\\xff", "s.jsonl.0123.partial")
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: s.jsonl.0123.partial: not UTF-8 text (byte b'\\xff' at offset 3: invalid start byte); expected a UTF-8 file
    """
    try:
        return data.decode(encoding).removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        bad = exc.object[exc.start : exc.start + 1]
        spelled = "UTF-8" if codecs.lookup(encoding).name == "utf-8" else encoding
        raise InputFileError(
            f"{name}: not {spelled} text (byte {bad!r} at offset {exc.start}: {exc.reason}); "
            f"expected a {spelled} file"
        ) from exc


def _object(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _DuplicateKey(dup)
    return out


class _DuplicateKey(Exception):
    pass


def parse_json(text: str, where: str) -> object:
    """One JSON value, or :class:`InputFileError` naming ``where`` (e.g. ``"s.jsonl line 3"``).

    Refused besides invalid JSON: an object with a key given twice (which value is meant?),
    nesting too deep for the reader, an integer of more than 4,300 digits.

    Examples
    --------
    >>> parse_json('{"id": "a", "score": 1.5}', "s.jsonl line 2")
    {'id': 'a', 'score': 1.5}
    >>> parse_json('{"score": 1, "score": 2}', "s.jsonl line 2")
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: s.jsonl line 2: not valid JSON (key 'score' given twice in one object)
    >>> parse_json("[" * 100_000, "s.jsonl line 2")
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: s.jsonl line 2: not valid JSON (nested too deeply to read; expected one flat record per line)
    """
    try:
        return json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        why = f"{exc.msg} at column {exc.colno}"
    except _DuplicateKey as exc:
        why = f"key {shown(exc.args[0])} given twice in one object"
    except RecursionError:
        why = "nested too deeply to read; expected one flat record per line"
    except ValueError as exc:  # an integer beyond sys.get_int_max_str_digits()
        found = re.search(r"value has (\d+) digits", str(exc))
        digits = f"an integer of {found[1]} digits" if found else str(exc)
        why = f"{digits}, more than the {sys.get_int_max_str_digits()} a JSON reader accepts"
    raise InputFileError(f"{where}: not valid JSON ({why})")


def json_lines(text: str, name: str) -> Iterator[tuple[int, object]]:
    """The values of a JSON Lines text as ``(line number, value)``, blank lines skipped.

    Lines are split at ``"\\n"`` only: a JSON line holds no raw newline, while U+2028, U+2029
    and U+0085 (which ``str.splitlines`` would split at) may be raw text inside a string.

    Examples
    --------
    >>> list(json_lines('{"a": "x\\u2028y"}\\n\\n[1]\\n', "f.jsonl"))
    [(1, {'a': 'x\\u2028y'}), (3, [1])]
    """
    for k, line in enumerate(text.split("\n")):
        if line.strip():
            yield k + 1, parse_json(line, f"{name} line {k + 1}")


def csv_rows(text: str, name: str, *, first_line: int = 1) -> Iterator[tuple[int, list[str]]]:
    """The rows of a CSV text as ``(line number, fields)``, blank rows skipped.

    The line number is that of the row's first line (a quoted field may span lines), counted
    from ``first_line`` (the line of the file that ``text`` starts at). A row the ``csv``
    module cannot read (e.g. a field over its limit of 131,072 characters) is an
    :class:`InputFileError` naming the line.

    Examples
    --------
    >>> list(csv_rows('id,score\\n\\n"a\\nb",1\\nc,2\\n', "f.csv"))
    [(1, ['id', 'score']), (3, ['a\\nb', '1']), (5, ['c', '2'])]
    >>> list(csv_rows("id,score\\n" + "x" * 200_000 + ",1\\n", "f.csv"))
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: f.csv line 2: not valid CSV (field larger than field limit (131072))
    """
    reader = csv.reader(io.StringIO(text, newline=""))
    start = first_line
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputFileError(f"{name} line {start}: not valid CSV ({exc})") from exc
        if any(c.strip() for c in row):
            yield start, row
        start = first_line + reader.line_num


def _listed(names: Sequence[str]) -> str:
    """``'a', 'b' and 'c'``."""
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def csv_table(
    text: str, name: str, columns: Sequence[str], *, first_line: int = 1
) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header and the rows ``(line number, fields)`` of a CSV text whose header must name
    ``columns`` (others may follow), every row as long as the header; blank rows skipped.

    Header names are stripped of surrounding spaces. Anything else is an
    :class:`InputFileError` naming the file, the line and the column: an empty text, a
    required column missing from the header or named twice, a row of another length.

    Examples
    --------
    >>> csv_table("id,sentence,x\\ns1,Go.,1\\n", "t.csv", ("id", "sentence"))
    (['id', 'sentence', 'x'], [(2, ['s1', 'Go.', '1'])])
    >>> csv_table("id,text\\ns1,Go.\\n", "t.csv", ("id", "sentence"))
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: t.csv line 1: missing column(s) ['sentence'] in the CSV header (got ['id', 'text']; expected 'id' and 'sentence')
    >>> csv_table("id,sentence\\ns1,Go.,1\\n", "t.csv", ("id", "sentence"))
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: t.csv line 2: expected 2 fields like the header (got 3: ['s1', 'Go.', '1'])
    """
    rows = csv_rows(text, name, first_line=first_line)
    first = next(rows, None)
    if first is None:
        raise InputFileError(
            f"{name}: file is empty (expected a CSV header with {','.join(columns)!r})"
        )
    header = [c.strip() for c in first[1]]
    missing = [c for c in columns if c not in header]
    if missing:
        raise InputFileError(
            f"{name} line {first[0]}: missing column(s) {missing} in the CSV header "
            f"(got {shown(header)}; expected {_listed(columns)})"
        )
    twice = [c for c in columns if header.count(c) > 1]
    if twice:
        raise InputFileError(
            f"{name} line {first[0]}: column {twice[0]!r} is named twice in the CSV header "
            f"(got {shown(header)})"
        )
    body = []
    for lineno, row in rows:
        if len(row) != len(header):
            raise InputFileError(
                f"{name} line {lineno}: expected {len(header)} fields like the header "
                f"(got {len(row)}: {shown(row)})"
            )
        body.append((lineno, row))
    return header, body


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)")


def read_csv(
    path: str | os.PathLike,
    columns: Sequence[str],
    *,
    name: str | None = None,
    skip_lines: int = 0,
    encoding: str = "utf-8",
) -> pd.DataFrame:
    """A CSV file whose header names ``columns`` (among others), as a frame of strings.

    Every column of the file is kept, in file order, each value the field's text (nothing is
    read as a number or as missing). ``skip_lines`` lines before the header are skipped
    unread (comments); ``name`` is the file as the user knows it (default: its path). Bad
    input is an :class:`InputFileError` naming the file, the line and the column
    (:func:`read_text`, :func:`csv_table`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
    >>> _ = p.write_bytes(b"# r\\xfcck, a comment\\r\\nid,score\\r\\na,NA\\r\\n")
    >>> read_csv(p, ["score"], skip_lines=1, encoding="latin-1").to_dict("list")
    {'id': ['a'], 'score': ['NA']}
    >>> read_csv(p, ["id", "judgement"], name="my.csv", skip_lines=1, encoding="latin-1")
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: my.csv line 2: missing column(s) ['judgement'] in the CSV header (got ['id', 'score']; expected 'id' and 'judgement')
    """
    import pandas as pd

    name = str(path) if name is None else name
    text = read_text(path, name=name, encoding=encoding)
    skipped = 0
    while skipped < skip_lines and (line := _LINE.match(text)) is not None:
        text, skipped = text[line.end() :], skipped + 1
    header, rows = csv_table(text, name, columns, first_line=skipped + 1)
    fields = list(zip(*(row for _, row in rows), strict=True)) or [()] * len(header)
    return pd.DataFrame(
        {c: pd.Series(v, dtype=object) for c, v in zip(header, fields, strict=True)}
    )


def as_text(value: object, where: str, field: str) -> str:
    """``value`` if it is a string of Unicode text, else :class:`InputFileError`.

    A lone surrogate (``"\\ud800"``, which JSON can spell) is not text: it cannot be written
    as UTF-8, nor printed.

    Examples
    --------
    >>> as_text("Kim left.", "f line 2", "sentence")
    'Kim left.'
    >>> as_text(3, "f line 2", "sentence")
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: f line 2: 'sentence' must be a string (got 3)
    >>> as_text("a\\ud800", "f line 2", "sentence")
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: f line 2: 'sentence' must be Unicode text (got the lone surrogate '\\ud800' at character 1)
    """
    if not isinstance(value, str):
        raise InputFileError(f"{where}: {field!r} must be a string (got {shown(value)})")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputFileError(
            f"{where}: {field!r} must be Unicode text (got the lone surrogate "
            f"{value[exc.start]!r} at character {exc.start})"
        ) from None
    return value


def as_number(value: object, where: str, field: str) -> float:
    """``value`` as a finite float if it is a JSON number, else :class:`InputFileError`.

    Booleans are not numbers; an integer too large for a float is refused, not an
    ``OverflowError``.

    Examples
    --------
    >>> as_number(-3, "f line 2", "score")
    -3.0
    >>> as_number(10**400, "f line 2", "score")
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: f line 2: 'score' must be a finite number (got an integer of 401 digits, too large for a float)
    >>> as_number(True, "f line 2", "score")
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: f line 2: 'score' must be a number (got True)
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputFileError(f"{where}: {field!r} must be a number (got {shown(value)})")
    try:
        x = float(value)
    except OverflowError:
        raise InputFileError(
            f"{where}: {field!r} must be a finite number (got {shown(value)}, too large for a "
            "float)"
        ) from None
    if not math.isfinite(x):
        raise InputFileError(f"{where}: {field!r} must be finite (got {shown(value)})")
    return x
