"""Tab-separated source files: rows with their line numbers, or an error naming file and line."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

__all__ = ["SourceFormatError", "read_tsv"]


class SourceFormatError(ValueError):
    """A source file's content is not what its reader expects (names the file and line)."""


def read_tsv(
    path: str | Path, n_fields: int, *, header: tuple[str, ...] | None = None
) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line number, fields)`` of a UTF-8 tab-separated file, no quoting.

    ``header``, when given, must be the first line's fields (the line is not yielded).
    Blank lines are skipped; any other line must have exactly ``n_fields`` fields.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.tsv"
    >>> _ = p.write_text('a\\tb\\n1\\t"2\\n\\n3\\n', encoding="utf-8")
    >>> next(read_tsv(p, 2, header=("a", "b")))
    (2, ['1', '"2'])
    >>> list(read_tsv(p, 2, header=("a", "b")))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    li_adger.benchmarks.tsv.SourceFormatError: .../x.tsv:4: expected 2 tab-separated fields, got 1: '3'
    """
    path = Path(path)
    with path.open(encoding="utf-8", newline="") as fh:
        for number, fields in enumerate(csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE), 1):
            if number == 1 and header is not None:
                if tuple(fields) != header:
                    raise SourceFormatError(
                        f"{path}:1: expected the header {list(header)}, got {fields}"
                    )
                continue
            if not fields or fields == [""]:
                continue
            if len(fields) != n_fields:
                raise SourceFormatError(
                    f"{path}:{number}: expected {n_fields} tab-separated fields, got "
                    f"{len(fields)}: {chr(9).join(fields)!r:.120}"
                )
            yield number, fields
