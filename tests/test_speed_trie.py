"""The packing section of the speed tool end to end on a tiny causal LM: both packings score
every sentence alike, and the trie computes fewer positions. No timing is asserted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from baselines_tiny import save_tiny_causal_lm

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_packing_section_end_to_end(tmp_path):
    folder = save_tiny_causal_lm(tmp_path / "tiny", "llama", max_positions=128)
    out = tmp_path / "packing.json"
    argv = ["--model", str(folder), "--pairs", "6", "--li-adger", "24", "--warmup", "2"]
    proc = subprocess.run(
        [sys.executable, "-m", "tools.speed.trie", *argv, "--batch-size", "8", "--json", str(out)],
        cwd=REPO,
        env=dict(os.environ, HF_HUB_OFFLINE="1"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines()[1].split()[:3] == ["set", "sentences", "rows"]
    data = json.loads(out.read_text())
    assert [row["set"] for row in data["sets"]] == ["blimp", "li_adger"]
    assert [row["n_sentences"] for row in data["sets"]] == [24, 24]
    for row in data["sets"]:
        assert row["max_abs_diff"] <= 1e-4
        assert row["trie"]["positions_share"] < row["rows"]["positions_share"]
