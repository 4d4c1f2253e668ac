"""The one plain-text and markdown table printer every command uses.

Cells are strings (format numbers before passing them in). The first column is left-aligned,
the others right-aligned; columns are separated by two spaces; trailing spaces are removed.

Examples
--------
>>> print(text_table(["model", "BLiMP"], [["trigram", "0.728"], ["smollm2", "0.805"]]))
model    BLiMP
trigram  0.728
smollm2  0.805
>>> print(markdown_table(["model", "BLiMP"], [["a|b", "0.728"]]))
| model | BLiMP |
|---|---:|
| a\\|b | 0.728 |
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["fmt", "markdown_table", "text_table"]


def fmt(value: float | None, digits: int = 3) -> str:
    """A number with ``digits`` decimals, or ``—`` for ``None`` (an undefined statistic).

    Examples
    --------
    >>> fmt(0.12345), fmt(None), fmt(2.0, 1)
    ('0.123', '—', '2.0')
    """
    return "—" if value is None else f"{value:.{digits}f}"


def _check(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[list[str]]:
    body = [[str(c) for c in row] for row in rows]
    for k, row in enumerate(body):
        if len(row) != len(header):
            raise ValueError(
                f"row {k} has {len(row)} cells, expected {len(header)} (one per column of "
                f"{list(header)})"
            )
    return body


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], *, min_width: int = 0) -> str:
    """Columns padded to their widest cell (at least ``min_width``); see the module examples.

    Examples
    --------
    >>> print(text_table(["a", "b"], [["1", "2", "3"]]))
    Traceback (most recent call last):
    ...
    ValueError: row 0 has 3 cells, expected 2 (one per column of ['a', 'b'])
    """
    body = _check(header, rows)
    lines = [list(map(str, header)), *body]
    widths = [max(min_width, *(len(line[i]) for line in lines)) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in lines
    )


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub-markdown table: first column left-aligned, the others right-aligned; ``|`` in a
    cell is escaped."""
    body = _check(header, rows)
    out = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in body]
    return "\n".join(out)
