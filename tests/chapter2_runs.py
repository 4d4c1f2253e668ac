"""Fixture run folders in the format of ``python -m baselines finetune`` (docs/chapter2.md),
made from a seeded generator: the tests compute what a command should print from the arrays
returned here, never from the code under test."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np


def write_run(
    folder: Path,
    *,
    kind: str,
    seeds: Sequence[int],
    sets: Mapping[str, tuple[Sequence[str], Sequence[int | None]]],
    rng: np.random.Generator,
    flip: float = 0.1,
    model: str = "tiny-encoder",
) -> dict[str, np.ndarray]:
    """Write ``run.json`` and one ``restart-<seed>.jsonl`` per seed; ``sets`` maps a set name
    to its ids and gold labels. Each restart's p(acceptable) is a base draw per item with a
    share ``flip`` of the items redrawn, so that predictions agree mostly but not always.
    Returns set → p(acceptable) as an (items × restarts) array, rounded as written."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = {"model": model, "task": "cola", "configuration": "cola", "restart_kind": kind,
            "seeds": list(seeds), "init_seed": 0}  # fmt: skip
    (folder / "run.json").write_text(json.dumps(
        {"format": "adc-finetune-run", "version": 1, "spec": spec, "created": "2026-11-27T00:00:00Z",
         "machine": "test", "world_size": 1}))  # fmt: skip
    probs = {}
    for name, (ids, _gold) in sets.items():
        base = rng.random(len(ids))
        columns = []
        for _ in seeds:
            p = base.copy()
            redraw = rng.random(len(ids)) < flip
            p[redraw] = rng.random(int(redraw.sum()))
            columns.append(np.round(p, 6))
        probs[name] = np.column_stack(columns)
    for k, seed in enumerate(seeds):
        meta = {"format": "adc-finetune-predictions", "version": 1, "seed": seed,
                "init_seed": 0 if kind == "orders" else seed, "data_seed": seed,
                "restart_kind": kind, "task": "cola", "configuration": "cola", "model": model,
                "train_sentences": 10, "train_seconds": 1.0, "created": "2026-11-27T00:00:00Z",
                "machine": "test"}  # fmt: skip
        lines = [json.dumps(meta)]
        for name, (ids, gold) in sets.items():
            for i, g, p in zip(ids, gold, probs[name][:, k], strict=True):
                lines.append(json.dumps({"set": name, "id": i, "gold": g, "prediction": int(p > 0.5),
                                         "p_unacceptable": round(1 - p, 6), "p_acceptable": float(p)}))  # fmt: skip
        (folder / f"restart-{seed}.jsonl").write_text("\n".join(lines) + "\n")
    return probs
