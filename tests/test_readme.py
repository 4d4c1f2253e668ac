"""The README's main command is the project's commands, and its trigram row is what they give.

The offline trigram scores all of LI-Adger in a second or two, so the test scores it afresh,
in process, exactly as the main command's ``baselines score`` step does, and compares the
README's results row for the trigram with ``reproduce --with`` on the file it just wrote. The
other steps are checked where they live: the build against the committed dataset
(``tests/test_li_adger_build.py``), ``report`` in ``tests/test_metric_cli.py``.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


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


def test_the_readme_trigram_row_is_a_fresh_trigram_run(tmp_path, capsys):
    from baselines.__main__ import main as baselines_main
    from metric_adc.__main__ import main as metric_main

    (score,) = [argv for argv in _python_steps(_main_command()) if argv[1] == "baselines"]
    argv = [str(tmp_path / a) if a.startswith("results/") else a for a in score[2:]]
    assert baselines_main([*argv, "--quiet"]) == 0
    (scores,) = tmp_path.rglob("*.jsonl")
    capsys.readouterr()
    assert (
        metric_main(["reproduce", "--markdown", "--ceiling-splits", "0", "--with", str(scores)])
        == 0
    )
    block = README[README.index("<!-- results:start -->") : README.index("<!-- results:end -->")]
    assert _md_row(block, "trigram (slor)") == _md_row(capsys.readouterr().out, "trigram (slor)")


@pytest.mark.parametrize("heading", ["**Main job**", "**Tests**"])
def test_readme_shows_both_commands(heading):
    assert re.search(re.escape(heading) + r".*?```bash\n.*?scripts/setup\.sh", README, re.S)


def test_ci_runs_exactly_the_readme_test_command():
    block = re.search(r"\*\*Tests\*\*.*?```bash\n(.*?)\n```", README, re.S)
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert block and block.group(1).strip() in ci.splitlines()
