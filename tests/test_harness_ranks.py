"""The li_adger_adc task under lm-evaluation-harness's data parallelism: the harness's own
evaluator splits the documents across 3 real processes (torchrun, gloo) and gathers their
per-sample results on rank 0, whose aggregation must equal the one-process numbers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import li_adger
from metric_adc.harness import utils
from metric_adc.thesis.outputs import load_thesis_scores

REPO = Path(__file__).resolve().parents[1]
AGGREGATIONS = {
    "blimp": utils.blimp,
    "adc_0.5": utils.adc_0_5,
    "adc_1": utils.adc_1,
    "adc_5": utils.adc_5,
    "pearson_pairs": utils.pearson_pairs,
}


@pytest.mark.slow
def test_documents_from_three_ranks_aggregate_to_the_one_process_numbers(tmp_path):
    scores = load_thesis_scores()["bert-base-uncased-mlm"]
    table = tmp_path / "scores.json"
    table.write_text(json.dumps(scores), encoding="utf-8")
    out = tmp_path / "results.json"
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1",
           "HF_DATASETS_OFFLINE": "1", "OMP_NUM_THREADS": "1"}  # fmt: skip
    # 3 ranks: 4,178 documents do not split evenly, so the harness pads a rank's requests too
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone",
               "--nproc_per_node", "3", str(REPO / "tests" / "lm_eval_ranks.py"),
               str(table), str(out)]  # fmt: skip
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(out.read_text(encoding="utf-8"))

    seen = got["seen"]  # the sentence ids each rank's model was asked for, in rank order
    ids = list(utils.sentences()["test"]["id"])  # the task's documents, pair by pair
    assert sorted(ids) == sorted(li_adger.load("sentences")["id"])
    assert len(seen) == 3 and all(seen)
    shares = [list(dict.fromkeys(rank)) for rank in seen]
    assert sorted(i for share in shares for i in share) == sorted(ids)  # each document once
    assert shares == [ids[r::3] for r in range(3)]  # the harness's split: every third document
    assert any(len(rank) > len(share) for rank, share in zip(seen, shares, strict=True))  # padded

    # the documents' per-sample results reached rank 0 in rank order, not dataset order;
    # the aggregation still gives the numbers of all items in one process
    expected = {name: fn(list(scores.items())) for name, fn in AGGREGATIONS.items()}
    results = got["results"]
    assert results["sample_len"] == len(ids)
    assert {name: results[f"{name},none"] for name in AGGREGATIONS} == expected
