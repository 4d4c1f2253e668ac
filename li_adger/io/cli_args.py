"""Argument types shared by the commands: a bad value is refused while the command line is read.

``argparse`` then prints the option with the message (``argument --seed: expected an integer
>= 0 (got '-1')``) and exits with status 2 before any work starts; an output path that cannot
be written is refused the same way, not after a long computation.

Examples
--------
>>> import argparse
>>> p = argparse.ArgumentParser(prog="demo", exit_on_error=False)
>>> _ = p.add_argument("--seed", type=int_at_least(0), default=0)
>>> p.parse_args(["--seed", "7"]).seed
7
>>> p.parse_args(["--seed", "-1"])
Traceback (most recent call last):
...
argparse.ArgumentError: argument --seed: expected an integer >= 0 (got '-1')
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["int_at_least", "output_path", "positive_number", "run_command"]


def int_at_least(low: int) -> Callable[[str], int]:
    """An argument type: an integer ``>= low``.

    Examples
    --------
    >>> int_at_least(1)("3")
    3
    >>> int_at_least(1)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected an integer >= 1 (got '0')
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low:
            raise argparse.ArgumentTypeError(f"expected an integer >= {low} (got {text!r})")
        return value

    parse.__name__ = f"integer >= {low}"
    return parse


def positive_number(text: str) -> float:
    """An argument type: a number > 0 (``inf`` allowed).

    Examples
    --------
    >>> positive_number("0.5"), positive_number("inf")
    (0.5, inf)
    >>> positive_number("abc")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a number > 0 (got 'abc')
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0 (got {text!r})")
    return value


def output_path(*, folder: bool, empty: bool = False) -> Callable[[str], str]:
    """An argument type: a path a command can write, a folder (``folder=True``) or a file.

    Refused: a file where a folder is expected (a symlink to a file included) and the reverse,
    a symlink that points nowhere, a path under a file or under a folder where no file can be
    written, and with ``empty`` a folder that holds something. A folder that does not exist yet
    is fine (it is made when written).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "scores.jsonl").write_text("")
    >>> output_path(folder=True)(str(d / "plots")) == str(d / "plots")
    True
    >>> output_path(folder=True)(str(d / "scores.jsonl"))
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: ...scores.jsonl is a file (expected a folder to write into)
    >>> output_path(folder=False)(str(d / "scores.jsonl" / "x.png"))
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: cannot write ...x.png: ...scores.jsonl is a file, not a folder
    >>> (d / "gone").symlink_to(d / "nowhere")
    >>> output_path(folder=True)(str(d / "gone"))
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: ...gone is a symlink to ...nowhere, which does not exist (expected a folder; remove the link or choose another)
    >>> output_path(folder=True, empty=True)(str(d))
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: ... is not an empty folder (expected a new or empty one; remove what it holds or choose another)
    """

    def parse(text: str) -> str:
        path = Path(text)
        if path.is_symlink() and not path.exists():
            raise argparse.ArgumentTypeError(
                f"{text} is a symlink to {os.readlink(path)}, which does not exist (expected "
                f"a {'folder' if folder else 'file path'}; remove the link or choose another)"
            )
        if folder and path.exists() and not path.is_dir():
            what = f"a symlink to the file {os.readlink(path)}" if path.is_symlink() else "a file"
            raise argparse.ArgumentTypeError(f"{text} is {what} (expected a folder to write into)")
        if not folder and path.is_dir():
            raise argparse.ArgumentTypeError(f"{text} is a folder (expected a file path)")
        if empty and path.is_dir() and any(path.iterdir()):
            raise argparse.ArgumentTypeError(
                f"{text} is not an empty folder (expected a new or empty one; remove what it "
                "holds or choose another)"
            )
        parent = path if folder and path.is_dir() else path.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir():
            raise argparse.ArgumentTypeError(
                f"cannot write {text}: {parent} is a file, not a folder"
            )
        try:  # os.access says yes to root everywhere; a temporary file tells the truth
            with tempfile.TemporaryFile(dir=parent):
                pass
        except OSError as exc:
            raise argparse.ArgumentTypeError(
                f"cannot write {text}: {parent} is not writable ({exc.strerror or exc})"
            ) from None
        return text

    parse.__name__ = "folder" if folder else "file path"
    return parse


def run_command(main: Callable[[], int | None]) -> int:
    """Run a command's ``main`` for ``python -m``: its exit status, and when its reader stops
    early (``python -m metric_adc report FILE | head``) a quiet exit instead of a
    ``BrokenPipeError`` traceback.

    Examples
    --------
    >>> run_command(lambda: 0)
    0
    """
    import os
    import sys

    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader is gone: point stdout at devnull so that the interpreter's own flush at
        # exit does not raise again (the recipe of the Python docs, "Note on SIGPIPE")
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0 if status is None else int(status)
