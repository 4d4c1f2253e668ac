"""Load LI-Adger as a ``datasets.Dataset``, building it first when needed; never stale."""

from __future__ import annotations

import sys
from pathlib import Path

from li_adger.builder import DATA_DIR, build, is_built
from li_adger.schema import CONFIGS

__all__ = ["load"]

SPLITS: tuple[str, ...] = ("test",)


def load(config: str = "pairs", split: str = "test", *, data_dir: str | Path | None = None):
    """One config of LI-Adger as a :class:`datasets.Dataset`.

    Builds the data first (see :func:`li_adger.build`) when the data folder holds no
    complete build of the current format; the sources must then be findable. Loading goes
    through ``datasets.load_dataset`` on the package folder, whose configs point at the
    current content-addressed snapshot, so a rebuild is never answered from a stale cache.

    Parameters
    ----------
    config
        ``"sentences"``, ``"pairs"`` or ``"phenomena"``.
    split
        ``"test"``, the only split.
    data_dir
        A data folder written by :func:`li_adger.build` (default :data:`li_adger.DATA_DIR`).

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
    if not is_built(data_dir):
        print(f"li_adger: building the dataset into {data_dir}", file=sys.stderr)
        build(data_dir=data_dir)
    return datasets.load_dataset(str(data_dir.parent), config, split=split)
