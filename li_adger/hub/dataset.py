"""The dataset's Hub repository: ``python -m li_adger push REPO_ID`` stages and uploads it.

The staged folder holds exactly::

    README.md                 the dataset card (its YAML ``configs:`` point at data/*.parquet),
                              with the repository's id in its loading examples
    data/sentences.parquet    pairs.parquet    phenomena.parquet
    data/build_report.json    the build report the card's "Known issues" refers to

The Parquet files are those of the current snapshot, under stable names. Nothing else goes:
not the content-addressed snapshot folders or the ``.huggingface.yaml`` pointer (a local
guard against stale ``datasets`` caches; a Hub repository is versioned by its commits), not
the build lock, no source file and nothing at the level of participants.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from li_adger.io.atomic import atomic_write_text

__all__ = ["CARD_OWNER_PLACEHOLDER", "CARD_REPO_PLACEHOLDER", "DATASET_FILES", "stage_dataset"]

DATASET_FILES: tuple[str, ...] = (
    "README.md",
    "data/build_report.json",
    "data/pairs.parquet",
    "data/phenomena.parquet",
    "data/sentences.parquet",
)
"""The files of the dataset's Hub repository, sorted."""

CARD_REPO_PLACEHOLDER = "<owner>/li-adger"
"""How the card writes the Hub repository's id; staging puts the real id in its place."""

CARD_OWNER_PLACEHOLDER = "<owner>/"
"""How the card writes the owner of the other repositories (the metric's Space ``<owner>/adc``,
which ships the code); staging puts the repository's owner in its place."""


def stage_dataset(
    dest: str | Path, *, repo_id: str | None = None, data_dir: str | Path | None = None
) -> Path:
    """Write the dataset's Hub folder into ``dest`` (created if need be) and return it.

    ``repo_id`` replaces :data:`CARD_REPO_PLACEHOLDER` in the card, and its owner
    :data:`CARD_OWNER_PLACEHOLDER` (both kept when ``None``).
    ``data_dir`` is a build of :func:`li_adger.build` (default :data:`li_adger.DATA_DIR`);
    it is checked first, and rebuilt when it is missing or damaged (see :func:`li_adger.load`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = stage_dataset(pathlib.Path(tempfile.mkdtemp()) / "hub", repo_id="someone/li-adger")
    >>> from li_adger.hub import staged_files
    >>> staged_files(out) == list(DATASET_FILES)
    True
    >>> 'load_dataset("someone/li-adger", "pairs"' in (out / "README.md").read_text()
    True
    """
    from li_adger.builder.build import DATA_DIR, REPORT_FILE, data_files
    from li_adger.loader import ensure_built

    data_dir = Path(data_dir) if data_dir is not None else DATA_DIR
    ensure_built(data_dir)
    dest = Path(dest)
    (dest / "data").mkdir(parents=True, exist_ok=True)
    card = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    if repo_id is not None:
        card = card.replace(CARD_REPO_PLACEHOLDER, repo_id)
        card = card.replace(CARD_OWNER_PLACEHOLDER, repo_id.split("/")[0] + "/")
    atomic_write_text(dest / "README.md", card)
    for name, path in data_files(data_dir).items():
        shutil.copyfile(path, dest / "data" / f"{name}.parquet")
    shutil.copyfile(data_dir / REPORT_FILE, dest / "data" / REPORT_FILE)
    return dest
