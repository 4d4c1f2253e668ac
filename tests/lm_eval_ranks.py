"""Run lm-evaluation-harness's own evaluator on the ``li_adger_adc`` task in every process of a
launch (``torchrun --nproc_per_node N tests/lm_eval_ranks.py SCORES OUT``), with a model that
answers each document's request from a table of log-likelihoods (a JSON object, sentence id →
log-likelihood). The harness splits the documents across the ranks and gathers their
per-sample results on rank 0, which aggregates and writes the task's results to ``OUT``
(JSON). Without a launcher it runs as one process. Used by tests/test_harness_ranks.py.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import torch
import torch.distributed as dist
from lm_eval import simple_evaluate
from lm_eval.api.model import LM
from lm_eval.tasks import TaskManager

from metric_adc.harness import task_dir


class TableLM(LM):
    """A language model whose log-likelihood of each document's sentence is read from a
    table by the document's sentence id; the distributed primitives go through gloo."""

    def __init__(self, table: dict[str, float]) -> None:
        super().__init__()
        self.table = table
        self._rank = int(os.environ.get("RANK", "0"))
        self._world_size = int(os.environ.get("WORLD_SIZE", "1"))
        self._device = torch.device("cpu")
        self.seen: list[str] = []

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        self.seen.extend(req.doc["id"] for req in requests)
        return [(self.table[req.doc["id"]], False) for req in requests]

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("the li_adger_adc task makes loglikelihood requests only")

    def generate_until(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("the li_adger_adc task makes loglikelihood requests only")

    def all_gather(self, tensor):
        parts = [torch.zeros_like(tensor) for _ in range(self.world_size)]
        dist.all_gather(parts, tensor)
        return torch.stack(parts)

    def gather_object(self, obj, dst=0):
        parts = [None] * self.world_size if self.rank == dst else None
        dist.gather_object(obj, parts, dst=dst)
        return parts

    def barrier(self) -> None:
        dist.barrier()


def main(scores: str, out: str) -> None:
    lm = TableLM(json.loads(Path(scores).read_text(encoding="utf-8")))
    if lm.world_size > 1:
        dist.init_process_group("gloo")
    results = simple_evaluate(
        model=lm,
        tasks=["li_adger_adc"],
        task_manager=TaskManager(include_path=str(task_dir())),
    )
    seen = lm.gather_object(lm.seen) if lm.world_size > 1 else [lm.seen]
    if lm.rank == 0:
        Path(out).write_text(
            json.dumps({"results": results["results"]["li_adger_adc"], "seen": seen}),
            encoding="utf-8",
        )
    if lm.world_size > 1:
        dist.destroy_process_group()


if __name__ == "__main__":
    main(*sys.argv[1:])
