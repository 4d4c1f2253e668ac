"""The wheel holds every file of the installed packages: the modules and the data they read at
run time (the committed build and the dataset card, the pins of the source files, the
benchmarks' BibTeX, the app's shipped results, the metric's and the harness's files)."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

from li_adger.hub.bundle import build_wheel

PACKAGES = ("li_adger", "metric_adc", "baselines", "space")


def _checkout_files() -> list[str]:
    """The files of the checkout that git tracks or would track (not the ignored ones)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode()  # fmt: skip
    return [f for f in listed.split("\0") if f and (REPO / f).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    """The wheel the staged Spaces ship, built without network from a copy of the checkout."""
    return zipfile.ZipFile(build_wheel(tmp_path_factory.mktemp("wheel"), REPO))


def test_the_wheel_holds_every_file_of_the_packages(wheel):
    expected = {f for f in _checkout_files() if f.split("/", 1)[0] in PACKAGES}
    shipped = set(wheel.namelist())
    assert not sorted(expected - shipped)
    assert {
        "li_adger/sources/registry.txt",
        "li_adger/benchmarks/citations.bib",
        "li_adger/README.md",
        "li_adger/.huggingface.yaml",
        "li_adger/data/build_report.json",
        "space/results/ceiling.json",
    } <= shipped
    assert any(f.startswith("li_adger/data/snapshots/") for f in shipped)
    assert any(f.startswith("space/results/li_adger/") and f.endswith(".csv") for f in shipped)


def test_the_wheel_holds_nothing_outside_the_packages(wheel):
    tops = {Path(f).parts[0] for f in wheel.namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == set(PACKAGES)
