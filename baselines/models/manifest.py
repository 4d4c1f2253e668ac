"""Manifests of cached model folders: each file's size and SHA-256, written last, checked at load.

Every artefact the project caches (the converted SmolLM2 folder, :mod:`baselines.models.smollm2`;
the ONNX export of an encoder with its external data, :mod:`baselines.fast.mlm_onnx`; the CoLA
fine-tune, :mod:`baselines.models.cola_train`) gets a ``manifest.json`` written after every other
file of the folder (:func:`write_manifest`). A folder without one was interrupted, or made by an
older version; either way it is not trusted.

At load, :func:`manifest_problem` compares the folder with its manifest: every file's size
always, and every file's SHA-256 when a file is newer than the manifest (touched since the
folder was made) or when ``hashes=True``. Hashing costs a fraction of loading the model (the 542 MB
SmolLM2 folder: 0.6 s against 2.3 s to load it, sizes alone 0.2 ms; ``python -m
tools.speed.caches``, docs/speed.md), so the three caches above check hashes at every load. :func:`trusted_folder` removes a folder
that fails the check, says so, and has the caller rebuild it.

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "model"
>>> folder.mkdir()
>>> _ = (folder / "weights.bin").write_bytes(b"\\x01\\x02\\x03")
>>> _ = write_manifest(folder)
>>> manifest_problem(folder) is None
True
>>> _ = (folder / "weights.bin").write_bytes(b"\\x01\\x02")
>>> manifest_problem(folder)
'weights.bin has 2 bytes, the manifest says 3'
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from filelock import FileLock

from li_adger.io.atomic import atomic_write_text, remove_temporaries

__all__ = [
    "MANIFEST",
    "DamagedCacheError",
    "folder_files",
    "manifest_problem",
    "trusted_folder",
    "write_manifest",
]

MANIFEST = "manifest.json"
"""The manifest's file name, in the folder it describes."""

_CHUNK = 1 << 20


class DamagedCacheError(OSError):
    """A cached folder fails its manifest check and cannot be rebuilt here; the message names
    the folder and the command that clears it."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def folder_files(folder: str | Path) -> list[str]:
    """The files of ``folder`` and its subfolders (POSIX paths relative to it, sorted), less the
    manifest and hidden (dot-prefixed) names.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("b.txt", "sub/a.txt", ".hidden", MANIFEST):
    ...     (d / name).parent.mkdir(exist_ok=True)
    ...     _ = (d / name).write_text("x")
    >>> folder_files(d)
    ['b.txt', 'sub/a.txt']
    """
    folder = Path(folder)
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file()
        and p.name != MANIFEST
        and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    )


def write_manifest(folder: str | Path) -> Path:
    """Write ``folder/manifest.json``: the size and SHA-256 of each of :func:`folder_files`.

    Call it after every other file of the folder is written: its presence says the folder is
    complete. Returns the manifest's path.
    """
    folder = Path(folder)
    files = {
        name: {"size": (folder / name).stat().st_size, "sha256": _sha256(folder / name)}
        for name in folder_files(folder)
    }
    return atomic_write_text(folder / MANIFEST, json.dumps({"files": files}, indent=1) + "\n")


def _read(folder: Path) -> dict[str, Any] | str:
    path = folder / MANIFEST
    if not path.is_file():
        return f"it has no {MANIFEST} (an interrupted write, or a cache of an older version)"
    try:
        files = json.loads(path.read_text(encoding="utf-8"))["files"]
        for name, entry in files.items():
            if not (isinstance(entry["size"], int) and isinstance(entry["sha256"], str)):
                raise TypeError(name)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return f"its {MANIFEST} cannot be read"
    return files


def manifest_problem(folder: str | Path, *, hashes: bool = False) -> str | None:
    """What is wrong with ``folder`` by its manifest, or ``None`` when it matches.

    Sizes are always compared; SHA-256s when ``hashes`` is true or when a file is newer than
    the manifest. A file missing, an extra file, or a missing or unreadable manifest is a
    problem too.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "w.bin").write_bytes(b"\\x01\\x02")
    >>> manifest_problem(d)
    'it has no manifest.json (an interrupted write, or a cache of an older version)'
    >>> _ = write_manifest(d)
    >>> _ = (d / "w.bin").write_bytes(b"\\x00\\x00")  # same size, other bytes
    >>> manifest_problem(d, hashes=True)
    'w.bin does not have the SHA-256 the manifest records'
    """
    folder = Path(folder)
    files = _read(folder)
    if isinstance(files, str):
        return files
    present = folder_files(folder)
    missing = sorted(set(files) - set(present))
    if missing:
        return f"{missing[0]} is missing"
    extra = sorted(set(present) - set(files))
    if extra:
        return f"{extra[0]} is not in the manifest"
    written = (folder / MANIFEST).stat().st_mtime_ns
    for name in present:
        stat = (folder / name).stat()
        if stat.st_size != files[name]["size"]:
            return f"{name} has {stat.st_size} bytes, the manifest says {files[name]['size']}"
        if (hashes or stat.st_mtime_ns > written) and _sha256(folder / name) != files[name][
            "sha256"
        ]:
            return f"{name} does not have the SHA-256 the manifest records"
    return None


def trusted_folder(
    folder: str | Path,
    build: Callable[[], Any] | None,
    *,
    what: str,
    clear: str | None = None,
    hashes: bool = False,
    lock: str | Path | None = None,
) -> Path:
    """``folder`` once it matches its manifest: a folder that fails the check is removed and
    rebuilt with ``build()`` (which writes the folder and its manifest, e.g. through
    :func:`li_adger.io.atomic.atomic_dir`), saying so on stderr; a folder that does not exist is
    built. With ``build=None`` (no rebuild here) a damaged or missing folder is a
    :class:`DamagedCacheError` naming the folder and ``clear``, the command that clears it.
    ``what`` names the artefact in messages.

    A rebuild holds the file lock ``lock`` (default ``.<name>.lock`` beside the folder): a
    second process waits for the first one's build and then uses it, and the temporary folders
    of a build that was killed (:func:`li_adger.io.atomic.remove_temporaries`) are removed
    first, since no other build of the folder can be under way.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp()) / "export"
    >>> def build():
    ...     d.mkdir()
    ...     _ = (d / "model.onnx").write_bytes(b"onnx")
    ...     _ = write_manifest(d)
    >>> trusted_folder(d, build, what="the ONNX export") == d
    True
    >>> _ = (d / "model.onnx").write_bytes(b"")
    >>> trusted_folder(d, None, what="the ONNX export", clear=f"rm -r {d}")
    Traceback (most recent call last):
    ...
    baselines.models.manifest.DamagedCacheError: the ONNX export at ... is damaged (model.onnx has 0 bytes, the manifest says 4); clear it with `rm -r ...` and rerun
    """
    folder = Path(folder)
    clear = clear or f"rm -r {folder}"
    problem = manifest_problem(folder, hashes=hashes) if folder.exists() else None
    if folder.exists() and problem is None:
        return folder
    if build is None:
        state = f"is damaged ({problem})" if problem else "does not exist"
        raise DamagedCacheError(f"{what} at {folder} {state}; clear it with `{clear}` and rerun")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(lock or folder.parent / f".{folder.name}.lock")):
        # under the lock: another process may have built it meanwhile; a killed build's
        # temporaries are nobody's
        problem = manifest_problem(folder, hashes=hashes) if folder.exists() else None
        if folder.exists() and problem is None:
            return folder
        remove_temporaries(folder.parent, targets=[folder.name])
        if problem is not None:
            print(
                f"{what} at {folder} is damaged ({problem}); removing it and rebuilding it",
                file=sys.stderr,
            )
            try:
                shutil.rmtree(folder)
            except OSError as err:  # e.g. a read-only shared cache
                raise DamagedCacheError(
                    f"{what} at {folder} is damaged ({problem}) and cannot be removed here "
                    f"({err.strerror or err}); clear it with `{clear}` and rerun"
                ) from None
        build()
    return folder
