"""The human ceiling's row, cached: computed once per data, seed, split count and thresholds.

The split-half ceiling takes seconds (hundreds of split-halves of the participants' ratings)
and is the same for every report of the same data. Its row — aggregates over the
split-halves, nothing at participant level — is kept in the user cache
(``$LI_ADGER_CACHE/metric/ceiling-<key>.json``, default ``~/.cache/li_adger``), keyed by
everything that decides it: the LI-Adger build's fingerprint, the pinned checksum of the
participant-level ratings (files are verified against it when read), the split count, the
seed, the ADC thresholds, and the source text of the code that computes it. An entry that
cannot be read back as that row is recomputed and replaced, never trusted.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["cache_key", "cached_row"]

_CODE = ("ceiling/compute.py", "ceiling/splits.py", "core.py", "report/rows.py")
"""The modules whose source decides the row (any change to them is a new key)."""


def cache_key(*, n_splits: int, seed: int, deltas: Sequence[float], data: str, ratings: str) -> str:
    """A short hash of what decides the ceiling row (and of the code computing it).

    Examples
    --------
    >>> a = cache_key(n_splits=100, seed=0, deltas=[0.5], data="8e3b", ratings="ab12")
    >>> a == cache_key(n_splits=100, seed=0, deltas=[0.5], data="8e3b", ratings="ab12"), len(a)
    (True, 16)
    >>> a == cache_key(n_splits=100, seed=1, deltas=[0.5], data="8e3b", ratings="ab12")
    False
    """
    here = Path(__file__).resolve().parents[1]
    code = hashlib.sha256(b"".join((here / name).read_bytes() for name in _CODE)).hexdigest()
    blob = json.dumps(
        {"n_splits": n_splits, "seed": seed, "deltas": [float(d) for d in deltas],
         "data": data, "ratings": ratings, "code": code},
        sort_keys=True,
    )  # fmt: skip
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def _default_key(n_splits: int, seed: int, deltas: Sequence[float]) -> str:
    from li_adger.builder.build import read_report
    from li_adger.sources import SOURCE_FILES
    from li_adger.sources.participants import FILES

    ratings = SOURCE_FILES[FILES["me"]].sha256
    data = str(read_report()["fingerprint"])
    return cache_key(n_splits=n_splits, seed=seed, deltas=deltas, data=data, ratings=ratings)


def cached_row(
    compute: Callable[[], dict],
    *,
    n_splits: int,
    seed: int,
    deltas: Sequence[float],
    folder: str | Path | None = None,
    key: str | None = None,
) -> dict:
    """The ceiling row of ``compute()`` for these settings, from the cache when it holds it.

    ``folder`` defaults to ``<user cache>/metric``; ``key`` to the key of the installed data
    (:func:`cache_key`).

    Examples
    --------
    >>> import tempfile
    >>> calls = []
    >>> def compute():
    ...     calls.append(1)
    ...     return {"model": "human", "adc": {"0.5": 0.486}}
    >>> folder = tempfile.mkdtemp()
    >>> row = cached_row(compute, n_splits=10, seed=0, deltas=[0.5], folder=folder, key="k")
    >>> row == cached_row(compute, n_splits=10, seed=0, deltas=[0.5], folder=folder, key="k")
    True
    >>> len(calls)
    1
    """
    from li_adger.io.atomic import atomic_write_text
    from li_adger.sources import cache_root

    key = key or _default_key(n_splits, seed, deltas)
    path = Path(folder) if folder is not None else cache_root() / "metric"
    path = path / f"ceiling-{key}.json"
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        if (
            isinstance(entry, dict)
            and entry.get("key") == key
            and isinstance(entry.get("row"), dict)
        ):
            return entry["row"]
    except (OSError, ValueError):
        pass  # missing or damaged: computed again below
    row = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps({"key": key, "row": row}, sort_keys=True))
    except OSError:
        pass  # a read-only cache: the row is still right, only not kept
    return row
