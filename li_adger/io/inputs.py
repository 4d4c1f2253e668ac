"""No writer replaces one of its inputs: the check every command that writes makes first.

A command names what it will write (a file, or a folder it writes into) and what it reads;
:func:`check_not_input` refuses the run before anything is computed when an output is one of
the inputs (the same path, a symlink or a hard link to it) or a folder an input lies in. The
message names the option of each side, so that the user knows which argument to change.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["InputOverwriteError", "check_not_input", "same_file"]


class InputOverwriteError(ValueError):
    """An output of a command is one of its inputs; the message names both."""


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether the paths ``a`` and ``b`` name one file: the same path once resolved, or (both
    existing) the same inode, which catches hard links too.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.jsonl").write_text("")
    >>> (d / "link.jsonl").symlink_to(d / "a.jsonl")
    >>> same_file(d / "a.jsonl", d / "link.jsonl"), same_file(d / "a.jsonl", d / "x" / ".." / "a.jsonl")
    (True, True)
    >>> same_file(d / "a.jsonl", d / "b.jsonl")
    False
    """
    a, b = Path(a), Path(b)
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def check_not_input(
    outputs: Iterable[tuple[str, str | os.PathLike, bool]],
    inputs: Iterable[tuple[str, str | os.PathLike]],
) -> None:
    """Refuse a run whose output is one of its inputs.

    ``outputs`` are ``(option, path, is_folder)``: a file the command writes, or a folder it
    writes into (``is_folder``: any input inside it counts, since the command may write a file
    of the same name or replace the folder); ``inputs`` are ``(option, path)`` of every file or
    folder the command reads. Raises :class:`InputOverwriteError` naming both options and paths.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> samples = d / "samples.jsonl"
    >>> _ = samples.write_text("")
    >>> check_not_input([("--out", d / "scores.jsonl", False)], [("RUN", samples)])
    >>> check_not_input([("--out", samples, False)], [("RUN", samples)])
    Traceback (most recent call last):
    ...
    li_adger.io.inputs.InputOverwriteError: --out .../samples.jsonl is the file RUN reads; writing it would replace that input: choose another --out
    >>> check_not_input([("--to", d, True)], [("--from", samples)])
    Traceback (most recent call last):
    ...
    li_adger.io.inputs.InputOverwriteError: --to ... holds .../samples.jsonl, which --from reads; writing into it could replace that input: choose another --to
    """
    ins = [(option, Path(p)) for option, p in inputs]
    for out_option, out, is_folder in outputs:
        out = Path(out)
        for in_option, path in ins:
            if same_file(out, path):
                what = "folder" if path.is_dir() else "file"
                raise InputOverwriteError(
                    f"{out_option} {out} is the {what} {in_option} reads; writing it would "
                    f"replace that input: choose another {out_option}"
                )
            if is_folder and _inside(path, out):
                raise InputOverwriteError(
                    f"{out_option} {out} holds {path}, which {in_option} reads; writing into it "
                    f"could replace that input: choose another {out_option}"
                )
