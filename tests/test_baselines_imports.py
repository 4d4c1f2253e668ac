"""What the scorers' package loads: ``import baselines`` and the command line stay light, and
scoring never loads the developers' speed tooling (``tools``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "transformers", "numpy", "pandas", "datasets", "pocketsphinx", "metric_adc")


def _modules_after(code: str) -> set[str]:
    """The top-level names of the modules a fresh interpreter has loaded after ``code``."""
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return {name.split(".")[0] for name in done.stdout.split()}


@pytest.mark.parametrize("module", ["baselines", "baselines.__main__"])
def test_importing_the_package_or_its_command_loads_no_heavy_library(module):
    loaded = _modules_after(f"import {module}")
    assert "baselines" in loaded
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_scoring_loads_no_speed_tooling(tmp_path):
    """A whole ``score`` run in a fresh process, every import it makes listed by -X importtime."""
    table = tmp_path / "t.csv"
    table.write_text("id,sentence\na,The keys are lost.\nb,The keys is lost.\n")
    out = tmp_path / "s.jsonl"
    command = ["score", "--model", "trigram", "--dataset", str(table), "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "baselines", *command, "--quiet"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = [
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    ]
    assert "baselines.score_file" in imported and "pocketsphinx" in imported  # the run was seen
    assert not [m for m in imported if m == "tools" or m.startswith("tools.")]
    assert out.is_file()
