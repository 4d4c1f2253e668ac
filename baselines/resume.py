"""The resumable cache of a scoring run: a partial file next to the output, named by a fingerprint.

While :func:`baselines.score_file.score_to_file` runs, each batch of records is appended to the
*partial file* ``<out>.<fingerprint>.partial`` and flushed at once (synced to disk at least
every two seconds). The fingerprint hashes what determines the scores: the scorer's metadata
(model, kind, variant, reduction, convention and the settings that change scores; not
:data:`FINGERPRINT_EXCLUDES`) and the dataset name. A rerun of the same command finds its
partial file and skips what it holds; a run with other settings has another fingerprint, so it
never mixes its scores in. A partial file of another fingerprint next to the same output (a run
with other settings, or one written by an older version whose metadata had other keys) is never
read: :meth:`PartialCache.report_others` names it in an :class:`UnusedCacheWarning` and leaves it
alone.

Examples
--------
>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "scores.jsonl"
>>> cache = PartialCache(out, {"model": "m", "variant": "slor"}, "toy")
>>> cache.path.name == f"scores.jsonl.{cache.fingerprint}.partial", cache.read()
(True, {})
>>> with cache.appending() as append:
...     append(['{"id": "a", "sentence": "Go.", "score": -1.0}'])
>>> cache.read()
{'a': {'id': 'a', 'sentence': 'Go.', 'score': -1.0}}
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from metric_adc.scores.file import json_line, read_partial

__all__ = [
    "FINGERPRINT_EXCLUDES",
    "PartialCache",
    "UnusedCacheWarning",
    "fingerprint",
    "partial_path",
]

FINGERPRINT_EXCLUDES: frozenset[str] = frozenset(
    {
        "versions",
        "device",
        "batch_size",
        "token_budget",
        "created",
        "engine_args",
        "packing",
        "parameters",
    }
)
"""Scorer-metadata keys that do not change scores and so do not split the cache (vLLM's
``engine_args`` place and size the engine: a run restarted with less GPU memory resumes; the
causal scorer's ``packing`` changes scores by float rounding only, held to 1e-4 by the tests,
so a run resumes under another packing, and a partial file written before the key existed
resumes too; ``parameters`` counts the model that ``model`` and ``revision`` already name, and
a partial file written before it was recorded resumes too)."""

FSYNC_SECONDS = 2.0
"""The longest time between two syncs of the partial file to disk (a power cut loses at most
this much scoring)."""

_PARTIAL_NAME = re.compile(r"\.([0-9a-f]{16})\.partial$")


class UnusedCacheWarning(UserWarning):
    """A partial file of another run lies next to the output; it is not reused."""


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def fingerprint(metadata: Mapping[str, Any], dataset: str) -> str:
    """A short hash of what determines the scores: scorer metadata (less
    :data:`FINGERPRINT_EXCLUDES`) and the dataset name.

    Examples
    --------
    >>> a = fingerprint({"model": "m", "variant": "slor", "versions": {"x": "1"}}, "li_adger")
    >>> a == fingerprint({"model": "m", "variant": "slor", "versions": {"x": "2"}}, "li_adger")
    True
    >>> a == fingerprint({"model": "m", "variant": "logprob"}, "li_adger")
    False
    >>> len(a)
    16
    """
    key = {k: v for k, v in metadata.items() if k not in FINGERPRINT_EXCLUDES}
    blob = _canonical({"dataset": dataset, "scorer": key})
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def partial_path(out: str | Path, fp: str) -> Path:
    """Where the partial (cache) file of output ``out`` and fingerprint ``fp`` lives.

    Examples
    --------
    >>> partial_path("results/trigram.jsonl", "0123456789abcdef").as_posix()
    'results/trigram.jsonl.0123456789abcdef.partial'
    """
    out = Path(out)
    return out.with_name(f"{out.name}.{fp}.partial")


def _differences(path: Path, metadata: Mapping[str, Any], dataset: str) -> str:
    """What the run that wrote the partial file ``path`` did otherwise, read from its header."""
    try:
        with path.open("rb") as fh:
            header = json.loads(fh.readline(1 << 20))
        theirs = {"dataset": header["dataset"], **header["scorer"]}
    except (OSError, ValueError, KeyError, TypeError):
        return "its header cannot be read"
    ours = {"dataset": dataset, **metadata}

    def same(key: str) -> bool:
        if key not in ours or key not in theirs:
            return False
        return _canonical(ours[key]) == _canonical(theirs[key])

    keys = sorted(k for k in {*ours, *theirs} - FINGERPRINT_EXCLUDES if not same(k))
    if not keys:
        return "it was fingerprinted by an older version"

    def shown(values: Mapping[str, Any], key: str) -> str:
        return repr(values[key])[:40] if key in values else "absent"

    return "it differs in " + ", ".join(
        f"{k}: {shown(theirs, k)} there, {shown(ours, k)} here" for k in keys
    )


class PartialCache:
    """The partial file of one scoring run: what it holds, appending to it, and the partial
    files of other runs next to the same output.

    ``metadata`` is the scorer's metadata and ``dataset`` the dataset name: together they give
    the :func:`fingerprint` that names the file.
    """

    def __init__(self, out: str | Path, metadata: Mapping[str, Any], dataset: str) -> None:
        self.out = Path(out)
        self.metadata = dict(metadata)
        self.dataset = dataset
        self.fingerprint = fingerprint(metadata, dataset)
        self.path = partial_path(self.out, self.fingerprint)

    def read(self) -> dict[str, dict]:
        """The records cached so far, by id (:func:`metric_adc.scores.file.read_partial`: a
        damaged file is an error naming it)."""
        return read_partial(self.path, self.fingerprint)

    def discard(self) -> None:
        """Delete the partial file (after the scores file is written, or to start over)."""
        self.path.unlink(missing_ok=True)

    def others(self) -> list[Path]:
        """The partial files of other fingerprints next to the output, by name.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> out = pathlib.Path(tempfile.mkdtemp()) / "s.jsonl"
        >>> cache = PartialCache(out, {"model": "m"}, "toy")
        >>> _ = partial_path(out, "0123456789abcdef").write_text("")
        >>> _ = cache.path.write_text("")
        >>> [p.name for p in cache.others()]
        ['s.jsonl.0123456789abcdef.partial']
        """
        if not self.out.parent.is_dir():
            return []
        prefix = self.out.name
        return sorted(
            p
            for p in self.out.parent.iterdir()
            if p.name.startswith(prefix)
            and p.name != self.path.name
            and _PARTIAL_NAME.fullmatch(p.name[len(prefix) :])
        )

    def report_others(self) -> list[Path]:
        """Warn (:class:`UnusedCacheWarning`) about each partial file of :meth:`others`, with
        what its run did otherwise; returns them. They are left alone: their own command
        resumes them."""
        others = self.others()
        for path in others:
            warnings.warn(
                f"{path} is the cache of another run and is not reused "
                f"({_differences(path, self.metadata, self.dataset)}); rerun that run's "
                "command to finish it, or delete the file",
                UnusedCacheWarning,
                stacklevel=3,
            )
        return others

    @contextmanager
    def appending(self) -> Iterator[Callable[[Sequence[str]], None]]:
        """Open the partial file for appending (writing the header first when it is new) and
        yield ``append(lines)``: the JSON lines of one batch, written and flushed at once, so
        a killed process loses nothing; synced to disk at least every :data:`FSYNC_SECONDS`."""
        self.out.parent.mkdir(parents=True, exist_ok=True)
        synced = time.monotonic()
        with self.path.open("a", encoding="utf-8") as fh:
            if fh.tell() == 0:
                header = {"fingerprint": self.fingerprint, "dataset": self.dataset}
                fh.write(json_line({**header, "scorer": self.metadata}) + "\n")

            def append(lines: Sequence[str]) -> None:
                nonlocal synced
                fh.write("".join(f"{line}\n" for line in lines))
                fh.flush()
                if time.monotonic() - synced >= FSYNC_SECONDS:
                    os.fsync(fh.fileno())
                    synced = time.monotonic()

            yield append
