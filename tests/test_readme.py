"""The README's main command works as written, and its trigram row is what that command gives.

The offline trigram scores all of LI-Adger in a second or two, so the test runs the README's
own pipeline (build → score → report) in a fresh output folder and compares the README's
results row for the trigram with ``reproduce --with`` on the file it just wrote.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def _env() -> dict[str, str]:
    return {**os.environ, "HF_HUB_OFFLINE": "1"}


def _python_steps(command: str) -> list[list[str]]:
    """The ``.venv/bin/python -m …`` steps of a README command line, as argv lists."""
    steps = []
    for part in command.split("&&"):
        argv = shlex.split(part.strip())
        if argv and argv[0].endswith("python") and argv[1] == "-m":
            steps.append(argv[1:])
    return steps


def _main_command() -> str:
    block = re.search(r"\*\*Main job\*\*.*?```bash\n(.*?)\n```", README, re.S)
    assert block, "README.md has no **Main job** command block"
    return block.group(1)


def _md_row(text: str, model: str) -> list[str]:
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == model:
            return cells[1:]
    raise AssertionError(f"no row {model!r} in:\n{text}")


def test_main_command_steps_are_the_project_commands():
    steps = _python_steps(_main_command())
    assert [s[1] for s in steps] == ["li_adger", "baselines", "metric_adc"]
    assert steps[1][2:4] == ["score", "--model"] and "trigram" in steps[1]


def test_main_job_runs_and_the_readme_trigram_row_matches(tmp_path):
    steps = _python_steps(_main_command())
    outputs = []
    for argv in steps:
        # same commands, but the scores file goes to a fresh folder, not the user's results/
        argv = [str(tmp_path / a) if a.startswith("results/") else a for a in argv]
        done = subprocess.run([sys.executable, *argv], cwd=REPO, env=_env(), capture_output=True,
                              text=True, timeout=600, check=False)  # fmt: skip
        assert done.returncode == 0, f"{' '.join(argv)} failed:\n{done.stderr[-2000:]}"
        outputs.append(done.stdout)
    report = outputs[-1]
    assert "ADC δ=0.5" in report and "trigram (slor)" in report
    scores = next(tmp_path.rglob("*.jsonl"))
    done = subprocess.run(
        [sys.executable, "-m", "metric_adc", "reproduce", "--markdown", "--ceiling-splits", "0",
         "--with", str(scores)],
        cwd=REPO, env=_env(), capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    block = README[README.index("<!-- results:start -->") : README.index("<!-- results:end -->")]
    assert _md_row(block, "trigram (slor)") == _md_row(done.stdout, "trigram (slor)")


@pytest.mark.parametrize("heading", ["**Main job**", "**Tests**"])
def test_readme_shows_both_commands(heading):
    assert re.search(re.escape(heading) + r".*?```bash\n.*?scripts/setup\.sh", README, re.S)


def test_ci_runs_exactly_the_readme_test_command():
    block = re.search(r"\*\*Tests\*\*.*?```bash\n(.*?)\n```", README, re.S)
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert block and block.group(1).strip() in ci.splitlines()
