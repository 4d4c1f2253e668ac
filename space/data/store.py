"""A leaderboard that remembers: uploads kept on it, locally or in a Hub results repository.

"Keep on the leaderboard" writes the upload as a scores file (JSON Lines, the metric's own
writer, atomic) whose metadata records the name given, the date and the uploaded file's name
(``"kept": {"name", "date", "file"}``), and adds the model to the leaderboard of every session
at once (:class:`Kept`). Where the file goes:

- :class:`LocalStore`: the ``--results`` folder, read again at the next start-up like any
  scores file there;
- :class:`HubStore`: a dataset repository on the Hub (``$ADC_RESULTS_REPO``), under
  ``kept/``, uploaded through ``huggingface_hub.HfApi``; the app downloads those files at
  start-up (:meth:`HubStore.fetch`).

The units' texts are left out of a kept file (its ids name them). A name is kept once: keeping a name already on the leaderboard (or a file of the same name in
the store) is refused, never replaced from the page, so that nobody can overwrite another's
entry; to replace a kept model, remove its file from the store and restart.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import tempfile
import threading
from pathlib import Path
from typing import Any, Protocol

from li_adger.io.atomic import atomic_write_bytes
from metric_adc.scores.file import RECORD_FIELDS, ScoresFile, write_scores
from space.data.entries import KIND_KEPT
from space.data.shipped import slug

__all__ = [
    "HUB_FOLDER",
    "KEPT_KEY",
    "RESULTS_REPO_ENV",
    "HubStore",
    "KeepError",
    "Kept",
    "LocalStore",
    "Store",
    "kept_name",
    "scores_only",
    "write_kept",
]

KEPT_KEY = "kept"
"""Metadata key of a kept scores file: ``{"name", "date", "file"}``."""

RESULTS_REPO_ENV = "ADC_RESULTS_REPO"
"""Environment variable naming the Hub dataset repository of kept uploads."""

HUB_FOLDER = "kept"
"""Folder of the kept scores files in the results repository."""


class KeepError(RuntimeError):
    """An upload could not be kept; the message says why and what to do."""


class Store(Protocol):
    """Where kept scores files go."""

    where: str

    def taken(self) -> set[str]:
        """File stems already in the store."""

    def put(self, path: Path) -> None:
        """Store the scores file ``path`` under its own name."""


def kept_name(metadata: dict) -> str | None:
    """The name a kept scores file was kept under, or ``None`` for another file.

    Examples
    --------
    >>> kept_name({"kept": {"name": "my model"}}), kept_name({"model": "x"})
    ('my model', None)
    """
    kept = metadata.get(KEPT_KEY)
    return str(kept["name"]) if isinstance(kept, dict) and kept.get("name") else None


def scores_only(sf: ScoresFile) -> ScoresFile:
    """``sf`` without the units' texts (``sentence``, ``context``, ``completion``): the ids name
    the units, and a kept file never republishes a benchmark's sentences. What the scorer
    measured (``rank``, ``top``, lengths, log-probabilities) is kept.

    Examples
    --------
    >>> import numpy as np
    >>> sf = ScoresFile({}, ["a"], np.array([1.0]), ["A."], {"sentence": ["A."], "rank": [2]})
    >>> s = scores_only(sf)
    >>> s.sentences, s.fields
    (None, {'rank': [2]})
    """
    fields = {k: v for k, v in sf.fields.items() if RECORD_FIELDS.get(k) != "text"}
    return ScoresFile(sf.metadata, sf.ids, sf.scores, None, fields)


def write_kept(
    path: str | Path,
    sf: ScoresFile,
    *,
    name: str,
    benchmark: str,
    file: str,
    date: dt.date | None = None,
) -> Path:
    """Write ``sf`` as a kept scores file: its records (without the units' texts,
    :func:`scores_only`) and metadata, with ``dataset`` set to ``benchmark`` and the ``kept``
    record (``name``, ``date`` (default today, UTC), ``file``).

    Examples
    --------
    >>> import tempfile, numpy as np
    >>> from metric_adc.scores.file import read_scores
    >>> sf = ScoresFile({"model": "m"}, ["a", "b"], np.array([1.0, 2.0]))
    >>> p = write_kept(Path(tempfile.mkdtemp()) / "k.jsonl", sf, name="mine",
    ...                benchmark="li_adger", file="m.csv", date=dt.date(2026, 1, 2))
    >>> back = read_scores(p)
    >>> back.metadata["kept"], back.metadata["dataset"], back.as_dict()
    ({'name': 'mine', 'date': '2026-01-02', 'file': 'm.csv'}, 'li_adger', {'a': 1.0, 'b': 2.0})
    """
    date = date or dt.datetime.now(dt.UTC).date()
    sf = scores_only(sf)
    metadata = {k: v for k, v in sf.metadata.items() if k not in ("format", "version")}
    metadata.update(
        dataset=benchmark, **{KEPT_KEY: {"name": name, "date": date.isoformat(), "file": file}}
    )
    records = []
    for k, (i, s) in enumerate(zip(sf.ids, sf.scores.tolist(), strict=True)):
        rec = {"id": i, "score": s}
        rec.update({f: values[k] for f, values in sf.fields.items()})
        records.append(rec)
    return write_scores(path, records, metadata)


class LocalStore:
    """Kept scores files in a folder (the app's ``--results`` folder).

    Examples
    --------
    >>> import tempfile
    >>> s = LocalStore(Path(tempfile.mkdtemp()) / "results")
    >>> s.taken()
    set()
    """

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)
        self.where = f"the results folder {self.folder}"

    def taken(self) -> set[str]:
        if not self.folder.is_dir():
            return set()
        return {p.stem for p in self.folder.iterdir() if p.suffix in (".jsonl", ".csv")}

    def put(self, path: Path) -> None:
        atomic_write_bytes(self.folder / path.name, path.read_bytes())


class HubStore:
    """Kept scores files in a Hub dataset repository, under :data:`HUB_FOLDER`.

    ``api`` is a ``huggingface_hub.HfApi`` (or any object with its ``list_repo_files``,
    ``hf_hub_download``, ``create_repo`` and ``upload_file``); default ``HfApi(token=token)``.
    Every Hub error becomes :class:`KeepError` naming the repository.
    """

    def __init__(self, repo_id: str, *, api: Any = None, token: str | None = None):
        from li_adger.hub import check_repo_id

        self.repo_id = check_repo_id(repo_id)
        if api is None:
            from huggingface_hub import HfApi

            api = HfApi(token=token)
        self.api = api
        self.where = f"the Hub dataset repository {repo_id}"

    def _files(self) -> list[str]:
        try:
            files = self.api.list_repo_files(self.repo_id, repo_type="dataset")
        except OSError as exc:  # huggingface_hub's HTTP and offline errors are OSErrors
            if type(exc).__name__ == "RepositoryNotFoundError":
                return []
            raise KeepError(f"cannot list {self.where}: {exc}") from exc
        prefix = f"{HUB_FOLDER}/"
        return sorted(f for f in files if f.startswith(prefix) and f.endswith(".jsonl"))

    def taken(self) -> set[str]:
        return {Path(f).stem for f in self._files()}

    def fetch(self, dest: str | os.PathLike) -> Path:
        """Download every kept scores file into ``dest``; return the folder holding them."""
        dest = Path(dest)
        for f in self._files():
            try:
                self.api.hf_hub_download(
                    repo_id=self.repo_id, filename=f, repo_type="dataset", local_dir=dest
                )
            except OSError as exc:
                raise KeepError(f"cannot download {f} from {self.where}: {exc}") from exc
        return dest / HUB_FOLDER

    def put(self, path: Path) -> None:
        try:
            self.api.create_repo(self.repo_id, repo_type="dataset", exist_ok=True)
            self.api.upload_file(
                path_or_fileobj=str(path),
                path_in_repo=f"{HUB_FOLDER}/{path.name}",
                repo_id=self.repo_id,
                repo_type="dataset",
                commit_message=f"Keep {path.stem} on the leaderboard",
            )
        except (OSError, ValueError) as exc:
            raise KeepError(f"could not upload to {self.where}: {exc}") from exc


class Kept:
    """The models kept on the leaderboard since start-up, by benchmark, shared by every
    session; :meth:`keep` writes one to the store and adds it (thread-safe).

    Examples
    --------
    >>> import tempfile, numpy as np
    >>> from space.data.toy import toy_space_data
    >>> entry = toy_space_data().models[0]
    >>> kept = Kept(LocalStore(tempfile.mkdtemp()))
    >>> sf = ScoresFile({}, ["g1"], np.array([1.0]))
    >>> kept.keep("li_adger", entry, sf, name="mine", file="m.csv", taken=set()).kind
    'kept upload'
    >>> [e.name for e in kept.entries("li_adger")]
    ['mine']
    >>> kept.keep("li_adger", entry, sf, name="Mine", file="m.csv", taken=set())
    Traceback (most recent call last):
    space.data.store.KeepError: 'Mine' is already kept on the leaderboard (file mine.jsonl in ...
    """

    def __init__(self, store: Store):
        self.store = store
        self._entries: dict[str, list] = {}
        self._lock = threading.Lock()

    def entries(self, benchmark: str) -> list:
        """The models kept on ``benchmark`` since start-up, oldest first."""
        with self._lock:
            return list(self._entries.get(benchmark, []))

    def names(self) -> set[str]:
        """The names of every model kept since start-up."""
        with self._lock:
            return {e.name for es in self._entries.values() for e in es}

    def keep(
        self,
        benchmark: str,
        entry: Any,
        sf: ScoresFile,
        *,
        name: str,
        file: str,
        taken: set[str],
        date: dt.date | None = None,
    ):
        """Write ``sf`` to the store as ``name`` and add ``entry`` (renamed, kind
        :data:`~space.data.entries.KIND_KEPT`) to the leaderboard; return the kept entry.

        ``taken`` are the names already on the leaderboard. Raises :class:`KeepError` when
        ``name`` is empty or taken, its file name is in the store, or the store fails.
        """
        name = name.strip()
        if not name:
            raise KeepError("give the model a name to keep it under")
        stem = slug(name)
        with self._lock:
            in_store = self.store.taken()
            names = {e.name for es in self._entries.values() for e in es} | set(taken)
            if stem in in_store or name in names:
                raise KeepError(
                    f"{name!r} is already kept on the leaderboard (file {stem}.jsonl in "
                    f"{self.store.where}): choose another name; a kept model is never replaced "
                    "from the page"
                )
            with tempfile.TemporaryDirectory(prefix="kept-") as tmp:
                path = write_kept(
                    Path(tmp) / f"{stem}.jsonl",
                    sf,
                    name=name,
                    benchmark=benchmark,
                    file=file,
                    date=date,
                )
                self.store.put(path)
            kept = dataclasses.replace(entry, name=name, kind=KIND_KEPT)
            if hasattr(entry, "row"):
                kept = dataclasses.replace(kept, row={**entry.row, "model": name})
            self._entries.setdefault(benchmark, []).append(kept)
            return kept
