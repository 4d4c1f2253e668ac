"""The code base passes its own linter and formatter settings (``[tool.ruff]`` in pyproject) and
its import contracts (``[tool.importlinter]``: packages import downward only, the app and the
scorers independent, no cycle inside a package)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(
    importlib.util.find_spec("ruff") is None,
    reason="ruff is not installed (it is in the dev extra)",
)
@pytest.mark.parametrize("argv", [["check", "."], ["format", "--check", "."]])
def test_ruff(argv):
    done = subprocess.run([sys.executable, "-m", "ruff", *argv], cwd=REPO, capture_output=True,
                          text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_import_contracts():
    """``lint-imports``: tools → space → baselines → metric_adc → li_adger, and no cycle among
    the modules and subpackages of any package (a lazy import inside a function counts)."""
    pytest.importorskip("importlinter", reason="import-linter is in the dev extra")
    done = subprocess.run([str(Path(sys.executable).with_name("lint-imports"))], cwd=REPO,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "BROKEN" not in done.stdout and "KEPT" in done.stdout
