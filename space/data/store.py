"""Where submissions are kept: a local folder or a Hub dataset repository, behind one interface.

A store holds files under relative paths (``pending/<name>.jsonl``, ``approved/<name>.json``, …:
:mod:`space.data.submissions` decides the layout) and can list a folder, read a file, write
several files together, move files and delete them, add and delete files in one change
(:meth:`Store.commit`), and lock one submission (:meth:`Store.lock`) so that racing calls on it
(approve, reject, submit) take turns:

- :class:`LocalStore`: the ``--results`` folder (``$ADC_RESULTS_DIR``); every write is atomic
  (:mod:`li_adger.io.atomic`), several files switched together; a lock is a file lock
  (``.locks/<key>.lock``), held across threads and processes;
- :class:`HubStore`: a dataset repository on the Hub (``--results-repo``,
  ``$ADC_RESULTS_REPO``), through ``huggingface_hub.HfApi``; every change is one commit, and a
  commit that deletes a file another commit deleted first fails whole, so racing processes
  leave one outcome; a lock is held across the threads of one process.

Every failure becomes a :class:`StoreError` whose one-line message names the store and what
went wrong (a folder that is a file, a read-only folder, a repository that cannot be reached),
so that the page can show it as it is.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from filelock import FileLock, Timeout

from li_adger.io.atomic import atomic_paths

__all__ = ["LOCK_TIMEOUT_S", "RESULTS_REPO_ENV", "HubStore", "LocalStore", "Store", "StoreError"]

RESULTS_REPO_ENV = "ADC_RESULTS_REPO"
"""Environment variable naming the Hub dataset repository of submissions."""


class StoreError(RuntimeError):
    """A store could not be read or written; the one-line message says which and why."""


class Store(Protocol):
    """Files under relative paths (``folder/name``), in a folder or a Hub repository."""

    where: str
    """The store as a user knows it: "the results folder …", "the Hub dataset repository …"."""

    def list(self, folder: str) -> list[str]:
        """The names of the files directly in ``folder``, sorted (none when it is absent)."""

    def read(self, path: str) -> bytes:
        """The content of the file ``path``."""

    def write(self, files: Mapping[str, bytes], message: str) -> None:
        """Write ``files`` (path → content) together: all of them or none."""

    def move(self, moves: Mapping[str, str], message: str) -> None:
        """Move each file ``source → target``."""

    def delete(self, paths: Sequence[str], message: str) -> None:
        """Delete the files ``paths``."""

    def commit(self, add: Mapping[str, bytes], delete: Sequence[str], message: str) -> None:
        """Write ``add`` (all of them or none), then delete ``delete``: one change."""

    def lock(self, key: str) -> contextlib.AbstractContextManager:
        """Hold the lock called ``key`` (one submission) for the block."""


LOCK_TIMEOUT_S = 60.0
"""Seconds a call waits for a submission's lock before giving up with a :class:`StoreError`."""


def _reason(exc: OSError) -> str:
    """An OS error in a few words, without the path (the caller names the store)."""
    if isinstance(exc, NotADirectoryError | FileExistsError):
        return "a file stands where a folder is needed"
    return exc.strerror or str(exc) or type(exc).__name__


class LocalStore:
    """Files in a folder (the app's ``--results`` folder).

    Examples
    --------
    >>> s = LocalStore(Path(tempfile.mkdtemp()) / "results")
    >>> s.write({"pending/a.json": b"{}"}, "submit a")
    >>> s.list("pending"), s.list("approved")
    (['a.json'], [])
    >>> s.move({"pending/a.json": "approved/a.json"}, "approve a")
    >>> s.read("approved/a.json"), s.list("pending")
    (b'{}', [])
    >>> file = Path(tempfile.mkdtemp()) / "results.txt"
    >>> _ = file.write_text("")
    >>> LocalStore(file).write({"pending/a.json": b"{}"}, "submit a")
    Traceback (most recent call last):
    space.data.store.StoreError: cannot write to the results folder .../results.txt: a file stands where a folder is needed
    """

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)
        self.where = f"the results folder {self.folder}"

    def list(self, folder: str) -> list[str]:
        path = self.folder / folder
        try:
            if not path.is_dir():
                return []
            # a dot-prefixed name is the temporary file of a write in progress or killed
            return sorted(p.name for p in path.iterdir() if p.is_file() and p.name[0] != ".")
        except OSError as exc:
            raise StoreError(f"cannot read {self.where}: {_reason(exc)}") from None

    def read(self, path: str) -> bytes:
        try:
            return (self.folder / path).read_bytes()
        except OSError as exc:
            raise StoreError(f"cannot read {path} in {self.where}: {_reason(exc)}") from None

    def write(self, files: Mapping[str, bytes], message: str) -> None:
        try:
            with atomic_paths([self.folder / p for p in files]) as temps:
                for tmp, data in zip(temps, files.values(), strict=True):
                    tmp.write_bytes(data)
        except OSError as exc:
            raise StoreError(f"cannot write to {self.where}: {_reason(exc)}") from None

    def move(self, moves: Mapping[str, str], message: str) -> None:
        try:
            for source, target in moves.items():
                (self.folder / target).parent.mkdir(parents=True, exist_ok=True)
                os.replace(self.folder / source, self.folder / target)
        except OSError as exc:
            raise StoreError(f"cannot move files in {self.where}: {_reason(exc)}") from None

    def delete(self, paths: Sequence[str], message: str) -> None:
        try:
            for p in paths:
                (self.folder / p).unlink(missing_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot delete files in {self.where}: {_reason(exc)}") from None

    def commit(self, add: Mapping[str, bytes], delete: Sequence[str], message: str) -> None:
        # the new files complete first: an interruption leaves them beside the old, never none
        self.write(add, message)
        self.delete(delete, message)

    @contextlib.contextmanager
    def lock(self, key: str) -> Iterator[None]:
        """A file lock in ``.locks/`` of the folder (a hidden folder: never a scores file)."""
        path = self.folder / ".locks" / f"{key}.lock"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            held = FileLock(str(path), timeout=LOCK_TIMEOUT_S, thread_local=False)
            held.acquire()
        except Timeout:
            raise StoreError(
                f"{key!r} in {self.where} is locked by another review or submission (waited "
                f"{LOCK_TIMEOUT_S:g} s; a stale lock is {path})"
            ) from None
        except OSError as exc:
            raise StoreError(f"cannot write to {self.where}: {_reason(exc)}") from None
        try:
            yield
        finally:
            held.release()


class HubStore:
    """Files in a Hub dataset repository.

    ``api`` is a ``huggingface_hub.HfApi`` (or any object with its ``list_repo_files``,
    ``hf_hub_download``, ``create_repo`` and ``create_commit``); default
    ``HfApi(token=token)``. Every Hub error becomes :class:`StoreError` naming the repository.
    """

    def __init__(self, repo_id: str, *, api: Any = None, token: str | None = None):
        from li_adger.hub import check_repo_id

        self.repo_id = check_repo_id(repo_id)
        if api is None:
            from huggingface_hub import HfApi

            api = HfApi(token=token)
        self.api = api
        self.where = f"the Hub dataset repository {repo_id}"
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def list(self, folder: str) -> list[str]:
        try:
            files = self.api.list_repo_files(self.repo_id, repo_type="dataset")
        except OSError as exc:  # huggingface_hub's HTTP and offline errors are OSErrors
            if type(exc).__name__ == "RepositoryNotFoundError":
                return []
            raise StoreError(f"cannot list {self.where}: {_one_line(exc)}") from None
        prefix = f"{folder}/"
        return sorted(
            f[len(prefix) :] for f in files if f.startswith(prefix) and "/" not in f[len(prefix) :]
        )

    def read(self, path: str) -> bytes:
        with tempfile.TemporaryDirectory(prefix="adc-store-") as tmp:
            try:
                local = self.api.hf_hub_download(
                    repo_id=self.repo_id, filename=path, repo_type="dataset", local_dir=tmp
                )
                return Path(local).read_bytes()
            except OSError as exc:
                raise StoreError(
                    f"cannot download {path} from {self.where}: {_one_line(exc)}"
                ) from None

    def _commit(self, operations: list, message: str) -> None:
        try:
            self.api.create_repo(self.repo_id, repo_type="dataset", exist_ok=True)
            self.api.create_commit(
                repo_id=self.repo_id,
                repo_type="dataset",
                operations=operations,
                commit_message=message,
            )
        except (OSError, ValueError) as exc:
            raise StoreError(f"could not commit to {self.where}: {_one_line(exc)}") from None

    def write(self, files: Mapping[str, bytes], message: str) -> None:
        from huggingface_hub import CommitOperationAdd

        self._commit(
            [CommitOperationAdd(path_in_repo=p, path_or_fileobj=data) for p, data in files.items()],
            message,
        )

    def move(self, moves: Mapping[str, str], message: str) -> None:
        from huggingface_hub import CommitOperationAdd, CommitOperationDelete

        added = [
            CommitOperationAdd(path_in_repo=target, path_or_fileobj=self.read(source))
            for source, target in moves.items()
        ]
        deleted = [CommitOperationDelete(path_in_repo=source) for source in moves]
        self._commit([*added, *deleted], message)

    def delete(self, paths: Sequence[str], message: str) -> None:
        from huggingface_hub import CommitOperationDelete

        self._commit([CommitOperationDelete(path_in_repo=p) for p in paths], message)

    def commit(self, add: Mapping[str, bytes], delete: Sequence[str], message: str) -> None:
        from huggingface_hub import CommitOperationAdd, CommitOperationDelete

        self._commit(
            [CommitOperationAdd(path_in_repo=p, path_or_fileobj=data) for p, data in add.items()]
            + [CommitOperationDelete(path_in_repo=p) for p in delete],
            message,
        )

    @contextlib.contextmanager
    def lock(self, key: str) -> Iterator[None]:
        """The threads of this process take turns; across processes, each change is one commit
        (a commit deleting a file that another deleted first fails whole)."""
        with self._guard:
            held = self._locks.setdefault(key, threading.Lock())
        with held:
            yield


def _one_line(exc: BaseException) -> str:
    """An exception's message on one line (the Hub's errors span several)."""
    return " ".join(str(exc).split()) or type(exc).__name__
