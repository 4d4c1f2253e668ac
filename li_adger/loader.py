"""Load LI-Adger as a ``datasets.Dataset``: checked first, rebuilt when needed; never stale."""

from __future__ import annotations

import sys
from pathlib import Path

from li_adger.builder.build import DATA_DIR, SNAPSHOTS, DamagedBuildError, build, check_build
from li_adger.builder.schema import CONFIGS
from li_adger.sources import SourceNotFoundError

__all__ = ["ensure_built", "load", "load_table"]

SPLITS: tuple[str, ...] = ("test",)


def ensure_built(data_dir: str | Path | None = None) -> dict:
    """Make sure a data folder holds a complete, undamaged build; return its report.

    A missing, damaged or outdated build (:func:`li_adger.builder.build.check_build`) is rebuilt
    from the sources, with a line on standard error saying why.

    Raises
    ------
    li_adger.builder.build.DamagedBuildError
        The build needs rebuilding and the sources cannot be found; the message names the
        damaged file and what to run.

    Examples
    --------
    >>> ensure_built()["summary"]["total"]["evaluable"]
    2365
    """
    data_dir = Path(data_dir) if data_dir is not None else DATA_DIR
    try:
        return check_build(data_dir)
    except (FileNotFoundError, DamagedBuildError) as exc:
        problem = str(exc)
    print(f"li_adger: {problem}; rebuilding it from the source files", file=sys.stderr)
    try:
        build(data_dir=data_dir)
    except SourceNotFoundError as exc:
        restore = (
            "; `git checkout -- li_adger/data li_adger/.huggingface.yaml` restores the "
            "committed build"
            if data_dir.resolve() == DATA_DIR
            else ""
        )
        raise DamagedBuildError(
            f"{problem}; the source files to rebuild it were not found: {exc}{restore}"
        ) from None
    return check_build(data_dir)


def load(config: str = "pairs", split: str = "test", *, data_dir: str | Path | None = None):
    """One config of LI-Adger as a :class:`datasets.Dataset`.

    The package's data folder holds a committed build, so on a fresh clone this needs no
    build step and no source file. The build is checked first (:func:`li_adger.builder.build.check_build`):
    a missing, damaged or outdated build is rebuilt from the sources (see
    :func:`li_adger.build`), and when they cannot be found the error names the damaged file
    and what to run. Loading goes through ``datasets.load_dataset`` on the package folder,
    whose configs point at the current content-addressed snapshot, so a rebuild is never
    answered from a stale cache.

    Parameters
    ----------
    config
        ``"sentences"``, ``"pairs"`` or ``"phenomena"``.
    split
        ``"test"``, the only split.
    data_dir
        A data folder written by :func:`li_adger.build` (default :data:`li_adger.DATA_DIR`).

    Raises
    ------
    ValueError
        An unknown config or split.
    li_adger.builder.build.DamagedBuildError
        The build is damaged or missing and the sources to rebuild it cannot be found.

    Examples
    --------
    >>> pairs = load("pairs")
    >>> pairs.num_rows, pairs.filter(lambda p: not p["discarded"]).num_rows
    (2393, 2365)
    >>> load("pairs", "train")
    Traceback (most recent call last):
    ValueError: split 'train': LI-Adger has a single split, expected one of ('test',)
    """
    if config not in CONFIGS:
        raise ValueError(f"config {config!r}: expected one of {CONFIGS}")
    if split not in SPLITS:
        raise ValueError(f"split {split!r}: LI-Adger has a single split, expected one of {SPLITS}")
    import datasets

    data_dir = Path(data_dir) if data_dir is not None else DATA_DIR
    ensure_built(data_dir)
    return datasets.load_dataset(str(data_dir.parent), config, split=split)


def load_table(config: str = "pairs", *, data_dir: str | Path | None = None):
    """The rows of :func:`load` as a :class:`pyarrow.Table`, read straight from the build's
    Parquet file: checked and rebuilt like :func:`load`, without ``datasets`` and its cache
    (for the commands that read the dataset at every run).

    Examples
    --------
    >>> pairs = load_table("pairs")
    >>> pairs.num_rows, pairs.column_names == load("pairs").column_names
    (2393, True)
    >>> load_table("pair")
    Traceback (most recent call last):
    ValueError: config 'pair': expected one of ('sentences', 'pairs', 'phenomena')
    """
    if config not in CONFIGS:
        raise ValueError(f"config {config!r}: expected one of {CONFIGS}")
    import pyarrow.parquet as pq

    data_dir = Path(data_dir) if data_dir is not None else DATA_DIR
    report = ensure_built(data_dir)
    return pq.read_table(data_dir / SNAPSHOTS / str(report["fingerprint"]) / f"{config}.parquet")
