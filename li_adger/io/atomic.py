"""Writing files atomically: a reader sees the old file or the new one, never half of one.

Every output of the project (data files, downloads, scores files, plots, checkpoints' reports)
goes through :func:`atomic_path` (or :func:`atomic_paths` for several files switched
together, :func:`atomic_dir` for a folder): the content is written to a temporary file beside
the target, given the permissions a normal ``open(path, "w")`` would give (``0o666`` less the
umask), and renamed over the target only once it is complete. On any error the temporary
file is removed and the target is untouched.

A process killed mid-write (``kill -9``, a power cut) cannot remove its temporary file. Their
names follow one pattern (``.<target>.<8 random characters>.tmp<target suffix>``), so
:func:`remove_temporaries` finds and removes them; a writer that holds a lock on a folder
calls it before writing there.

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
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

__all__ = [
    "atomic_dir",
    "atomic_path",
    "atomic_paths",
    "atomic_write_bytes",
    "atomic_write_text",
    "dir_mode",
    "file_mode",
    "remove_temporaries",
    "temporary_target",
]

# ``tempfile`` names: a prefix, 8 characters of [a-z0-9_], a suffix. Ours are
# ``.<target>.`` + random + ``.tmp`` + the target's suffix (none for folders).
_TEMPORARY = re.compile(r"^\.(?P<target>.+)\.[a-z0-9_]{8}\.tmp(?P<suffix>\.[^.]+)?$")


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


@contextmanager
def atomic_paths(paths: Sequence[str | Path]) -> Iterator[list[Path]]:
    """Yield one temporary path beside each of ``paths``; on success each replaces its target.

    Nothing is replaced unless the whole block succeeds; the targets are then replaced in the
    order given (put last the file that readers follow to the others).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_paths([folder / "data.txt", folder / "index.txt"]) as (data, index):
    ...     _ = data.write_text("rows")
    ...     _ = index.write_text("data.txt")
    >>> sorted(p.name for p in folder.iterdir())
    ['data.txt', 'index.txt']
    >>> try:
    ...     with atomic_paths([folder / "data.txt", folder / "index.txt"]) as (data, index):
    ...         _ = data.write_text("new rows")
    ...         raise OSError("disk full")
    ... except OSError:
    ...     pass
    >>> (folder / "data.txt").read_text(), len(list(folder.iterdir()))
    ('rows', 2)
    """
    with ExitStack() as stack:
        # contexts exit last-in first-out: enter in reverse so that paths[0] is replaced first
        temps = [stack.enter_context(atomic_path(p)) for p in reversed(list(paths))]
        yield temps[::-1]


def temporary_target(name: str) -> str | None:
    """The target a temporary file or folder of this module was written for, else ``None``.

    Examples
    --------
    >>> temporary_target(".pairs.parquet.k3j_9xq2.tmp.parquet")
    'pairs.parquet'
    >>> temporary_target(".8e3b1fa9b1af6744.a1b2c3d4.tmp")  # a folder of atomic_dir
    '8e3b1fa9b1af6744'
    >>> temporary_target("pairs.parquet") is None, temporary_target(".x.k3j_9xq2.tmp.csv") is None
    (True, True)
    """
    match = _TEMPORARY.match(name)
    if match is None:
        return None
    target, suffix = match.group("target"), match.group("suffix") or ""
    return target if target.endswith(suffix) else None


def remove_temporaries(folder: str | Path, *, targets: Sequence[str] | None = None) -> list[Path]:
    """Remove the temporary files and folders that interrupted writes left in ``folder``.

    Only names of this module's pattern (:func:`temporary_target`) are touched, and with
    ``targets`` only the temporaries written for those target names. The caller
    must make sure that no other process is writing into ``folder`` (e.g. by holding the lock
    every writer of that folder takes), since a temporary file being written looks the same.
    Returns what was removed, sorted.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "scores.txt").write_text("kept")
    >>> _ = (folder / ".scores.txt.ab12cd34.tmp.txt").write_text("half a")  # a killed write
    >>> _ = (folder / ".plot.png.zz99yy88.tmp.png").write_bytes(b"")  # another writer's
    >>> [p.name for p in remove_temporaries(folder, targets=["scores.txt"])]
    ['.scores.txt.ab12cd34.tmp.txt']
    >>> sorted(p.name for p in folder.iterdir())
    ['.plot.png.zz99yy88.tmp.png', 'scores.txt']
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    removed = sorted(
        p
        for p in folder.iterdir()
        if (target := temporary_target(p.name)) is not None
        and (targets is None or target in targets)
    )
    for path in removed:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    return removed


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
