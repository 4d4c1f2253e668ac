"""Writing files atomically: a reader sees the old file or the new one, never half of one.

Every output of the project (data files, downloads, scores files, plots, checkpoints' reports)
goes through :func:`atomic_path`: the content is written to a temporary file beside the
target, given the permissions a normal ``open(path, "w")`` would give (``0o666`` less the
umask), and renamed over the target only once it is complete. On any error the temporary
file is removed and the target is untouched.

Examples
--------
>>> import pathlib, tempfile
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out" / "scores.txt"
>>> _ = atomic_write_text(target, "first\\n")
>>> try:
...     with atomic_path(target) as tmp:
...         _ = tmp.write_text("half a")
...         raise RuntimeError("killed mid-write")
... except RuntimeError:
...     pass
>>> target.read_text()
'first\\n'
>>> sorted(p.name for p in target.parent.iterdir())
['scores.txt']
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _umasked(bits: int) -> int:
    mask = os.umask(0)  # the umask can only be read by setting it; put it straight back
    os.umask(mask)
    return bits & ~mask


def file_mode() -> int:
    """The permission bits a newly created file gets under the current umask.

    Examples
    --------
    >>> 0 < file_mode() <= 0o666
    True
    """
    return _umasked(0o666)


def dir_mode() -> int:
    """The permission bits a newly created folder gets under the current umask.

    Examples
    --------
    >>> 0 < dir_mode() <= 0o777
    True
    """
    return _umasked(0o777)


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it replaces ``path``.

    The parent folder is created if needed. The temporary file keeps ``path``'s suffix, so
    writers that choose a format by extension (``savefig``, ``to_parquet``) work unchanged.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "a.json"
    >>> with atomic_path(target) as tmp:
    ...     _ = tmp.write_text("{}")
    ...     target.exists()
    False
    >>> target.read_text()
    '{}'
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=f".tmp{path.suffix}"
    )
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, file_mode())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@contextmanager
def atomic_dir(path: str | Path) -> Iterator[Path]:
    """Yield a temporary folder beside ``path``; on success it replaces the folder ``path``.

    A previous ``path`` is moved aside and removed only once the new folder is in place, so
    ``path`` is never half-written (a crash between the two renames leaves the old folder as
    ``.<name>.old``, removed by the next call). On any error the temporary folder is removed.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "model"
    >>> for text in ("v1", "v2"):
    ...     with atomic_dir(target) as tmp:
    ...         _ = (tmp / "weights.txt").write_text(text)
    >>> (target / "weights.txt").read_text(), sorted(p.name for p in target.parent.iterdir())
    ('v2', ['model'])
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"))
    try:
        yield tmp
        os.chmod(tmp, dir_mode())
        old = path.with_name(f".{path.name}.old")
        if old.exists():
            shutil.rmtree(old)
        if path.exists():
            os.replace(path, old)
        os.replace(tmp, path)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically and return the path.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = atomic_write_bytes(pathlib.Path(tempfile.mkdtemp()) / "x.bin", b"\\x00\\x01")
    >>> p.read_bytes()
    b'\\x00\\x01'
    """
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically and return the path.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = atomic_write_text(pathlib.Path(tempfile.mkdtemp()) / "x.txt", "é\\n")
    >>> p.read_bytes()
    b'\\xc3\\xa9\\n'
    """
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    return Path(path)
