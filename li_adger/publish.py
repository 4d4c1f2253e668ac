"""The dataset's Hub repository: ``python -m li_adger push REPO_ID`` stages and uploads it.

The staged folder holds exactly::

    README.md                 the dataset card (its YAML ``configs:`` point at data/*.parquet)
    data/sentences.parquet    pairs.parquet    phenomena.parquet
    data/build_report.json    the build report the card's "Known issues" refers to

The report is copied without the local location of each source file (its pinned path,
SHA-256 and upstream URL stay). Nothing else goes: not the content-addressed snapshots or
the ``.huggingface.yaml`` pointer (a local guard against stale ``datasets`` caches; a Hub
repository is versioned by its commits), not the build lock, no source file and nothing at
the level of participants.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from li_adger.atomic import atomic_write_text

__all__ = ["DATASET_FILES", "stage_dataset"]

DATASET_FILES: tuple[str, ...] = (
    "README.md",
    "data/build_report.json",
    "data/pairs.parquet",
    "data/phenomena.parquet",
    "data/sentences.parquet",
)
"""The files of the dataset's Hub repository, sorted."""


def stage_dataset(dest: str | Path, *, data_dir: str | Path | None = None) -> Path:
    """Write the dataset's Hub folder into ``dest`` (created if need be) and return it.

    ``data_dir`` is a build of :func:`li_adger.build` (default :data:`li_adger.DATA_DIR`);
    it is built first when it holds no complete build.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = stage_dataset(pathlib.Path(tempfile.mkdtemp()) / "hub")
    >>> from li_adger.hub import staged_files
    >>> staged_files(out) == list(DATASET_FILES)
    True
    """
    from li_adger.builder import DATA_DIR, REPORT_FILE, build, is_built
    from li_adger.schema import CONFIGS

    data_dir = Path(data_dir) if data_dir is not None else DATA_DIR
    if not is_built(data_dir):
        build(data_dir=data_dir)
    dest = Path(dest)
    (dest / "data").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(Path(__file__).resolve().parent / "README.md", dest / "README.md")
    for name in CONFIGS:
        shutil.copyfile(data_dir / f"{name}.parquet", dest / "data" / f"{name}.parquet")
    report = json.loads((data_dir / REPORT_FILE).read_text(encoding="utf-8"))
    for source in report.get("sources", []):
        source.pop("location", None)
    atomic_write_text(dest / "data" / REPORT_FILE, json.dumps(report, indent=1) + "\n")
    return dest
