"""How long ``python -m metric_adc report FILE`` takes, as a user waits for it.

A trigram scores file of LI-Adger is made once (``python -m baselines score``); the report
then runs in fresh processes: one untimed run (imports and data files in the OS cache: the
*warm* state a researcher is in from the second report on), then
``rounds`` timed runs, of which the fastest is kept (other processes can only slow a run).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["time_report"]


def _run(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[2:])} failed: {done.stderr.strip()[-500:]}")
    return seconds


def time_report(work: str | Path, *, rounds: int = 3) -> dict[str, Any]:
    """Seconds of ``python -m metric_adc report`` on the trigram's LI-Adger scores (default
    analysis), warm: ``{"seconds": fastest, "rounds": [...], "command": ...}``."""
    if rounds < 1:
        raise ValueError(f"rounds must be >= 1 (got {rounds})")
    scores = Path(work) / "trigram.jsonl"
    python = sys.executable
    if not scores.is_file():
        _run([python, "-m", "baselines", "score", "--model", "trigram", "--out", str(scores),
              "--quiet"])  # fmt: skip
    report = [python, "-m", "metric_adc", "report", str(scores)]
    _run(report)  # warm-up: the OS cache
    times = [_run(report) for _ in range(rounds)]
    return {"seconds": min(times), "rounds": times, "command": "python -m metric_adc report FILE"}
