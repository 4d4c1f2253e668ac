"""The wheel holds every file of the installed packages: the modules and the data they read at
run time (the committed build and the dataset card, the pins of the source files, the
benchmarks' BibTeX, the app's shipped results, the metric's and the harness's files)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

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
    """A wheel built, without network, from a copy of the checkout."""
    src, out = tmp_path_factory.mktemp("src"), tmp_path_factory.mktemp("wheel")
    for rel in _checkout_files():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, src / rel)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(out)],
        check=True, capture_output=True,
    )  # fmt: skip
    (path,) = out.glob("*.whl")
    return zipfile.ZipFile(path)


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
