"""The code base passes its own linter and formatter settings (``[tool.ruff]`` in pyproject)."""

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
