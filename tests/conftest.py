"""Shared fixtures. The source data is read from ../shared/data, beside the checkout.

Hypothesis runs without its per-example deadline: the tests run on shared 2-core machines,
where one slow example says nothing about the code (speed is measured by tools/speed).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import settings

settings.register_profile("project", deadline=None)
settings.load_profile("project")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def li_adger_data_dir(tmp_path_factory) -> Path:
    """LI-Adger built once per session into a temporary dataset folder ``…/li_adger/data``."""
    import li_adger

    return li_adger.build(data_dir=tmp_path_factory.mktemp("built") / "li_adger" / "data")


@pytest.fixture(scope="session")
def li_adger_tables(li_adger_data_dir) -> dict[str, pd.DataFrame]:
    """The three built tables as DataFrames: ``sentences``, ``pairs``, ``phenomena``."""
    from li_adger.builder.build import data_files

    return {name: pd.read_parquet(path) for name, path in data_files(li_adger_data_dir).items()}


def copy_sources(relpaths, root: Path) -> Path:
    """Copy the shared source files ``relpaths`` into ``root``, keeping the shared/data layout."""
    for rel in relpaths:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SHARED_DATA / rel, root / rel)
    return root


@pytest.fixture
def source_copy(tmp_path) -> Path:
    """A private copy of the LI-Adger build sources (layout of shared/data), safe to modify."""
    from li_adger.sources import BUILD_FILES

    return copy_sources(BUILD_FILES, tmp_path / "source")
