"""The bag-of-words baseline run: each unit of the chosen configurations, then the probes.

The output folder is laid out as ``finetune --task npi`` lays out its own, so that the metric
reads both alike: one run folder ``OUT/<unit key>/`` per training unit, holding ``run.json``
(format ``adc-finetune-run``; its spec names the model ``bow:<vectors>``, the task ``npi``,
the unit's ``TRAIN>EVAL`` configuration and the caps) and ``restart-<seed>.jsonl`` (a metadata
line, then one record per evaluation item), written atomically and skipped when present (a
rerun resumes); and ``OUT/probe.json``, the feature probes on the pooled vectors
(:mod:`baselines.npi.probe`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from baselines.npi.bow import StaticVectors, mlp_classifier
from baselines.npi.probe import machine, probe_rows, write_probe_file
from li_adger.benchmarks.npi_configurations import Unit, units
from li_adger.benchmarks.npi_sets import read_probing
from li_adger.benchmarks.npi_units import eval_sets, train_examples
from li_adger.io.atomic import atomic_write_text

__all__ = ["prediction_lines", "run_bow"]


def prediction_lines(
    metadata: Mapping[str, Any],
    sets: Mapping[str, Sequence[tuple[str, str, int]]],
    probabilities: Mapping[str, np.ndarray],
) -> str:
    """The metadata line and one record per item (``p_acceptable`` = the probability of class 1).

    Examples
    --------
    >>> text = prediction_lines({"format": "x"}, {"s": [("a", "A.", 1)]}, {"s": np.array([0.25])})
    >>> text.splitlines()[1]
    '{"set": "s", "id": "a", "gold": 1, "prediction": 0, "p_unacceptable": 0.75, "p_acceptable": 0.25}'
    """
    lines = [json.dumps(dict(metadata))]
    for name, items in sets.items():
        for (item_id, _, gold), p in zip(items, probabilities[name], strict=True):
            p = float(p)
            lines.append(
                json.dumps(
                    {
                        "set": name,
                        "id": item_id,
                        "gold": gold,
                        "prediction": int(p >= 0.5),
                        "p_unacceptable": round(1.0 - p, 6),
                        "p_acceptable": round(p, 6),
                    }
                )
            )
    return "\n".join(lines) + "\n"


def _spec(unit: Unit, vectors: StaticVectors, train_cap: int | None, eval_cap: int | None,
          seed: int) -> dict[str, Any]:  # fmt: skip
    return {
        "model": f"bow:{vectors.source}",
        "task": "npi",
        "configuration": unit.configuration,
        "restart_kind": "restarts",
        "seeds": [seed],
        "classifier": "max-pooled static vectors, MLP (256 ReLU units, early stopping)",
        "train_cap": train_cap,
        "eval_cap": eval_cap,
    }


def _unit(
    unit: Unit,
    vectors: StaticVectors,
    paths: Mapping[str, Path],
    *,
    train_cap: int | None,
    eval_cap: int | None,
    seed: int,
) -> str:
    started = time.perf_counter()
    train = train_examples(paths, unit.train, train_cap)
    model = mlp_classifier(seed)
    model.fit(vectors.pool([t for t, _ in train]), np.array([y for _, y in train]))
    seconds = time.perf_counter() - started
    sets = eval_sets(paths, unit.evaluate, eval_cap)
    probabilities = {
        name: model.predict_proba(vectors.pool([t for _, t, _ in items]))[:, 1]
        for name, items in sets.items()
    }
    metadata = {
        "format": "adc-finetune-predictions",
        "version": 1,
        "seed": seed,
        "init_seed": seed,
        "data_seed": seed,
        "restart_kind": "restarts",
        "task": "npi",
        "configuration": unit.configuration,
        "model": f"bow:{vectors.source}",
        "train_sentences": len(train),
        "train_seconds": round(seconds, 2),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "settings": _spec(unit, vectors, train_cap, eval_cap, seed),
    }
    return prediction_lines(metadata, sets, probabilities)


def run_bow(
    vectors: StaticVectors,
    paths: Mapping[str, Path],
    out: str | Path,
    *,
    configurations: Sequence[str],
    environments: Sequence[str],
    train_cap: int | None,
    eval_cap: int | None = None,
    seed: int = 0,
    probe: bool = True,
    progress: bool = True,
) -> list[Path]:
    """Train and evaluate every unit of ``configurations`` (skipping finished ones), then
    probe; returns the unit folders."""
    from tqdm.auto import tqdm

    out = Path(out)
    todo: dict[str, Unit] = {}
    for configuration in configurations:
        if configuration == "cola":
            continue  # the paper's BoW rows are trained on NPI data only
        for unit in units(configuration, environments):
            todo.setdefault(unit.key, unit)
    folders = []
    for key, unit in tqdm(todo.items(), disable=not progress, desc="bow units"):
        folder = out / key
        target = folder / f"restart-{seed}.jsonl"
        spec = _spec(unit, vectors, train_cap, eval_cap, seed)
        if target.exists():
            made = json.loads((folder / "run.json").read_text(encoding="utf-8")).get("spec")
            if made != spec:
                raise ValueError(
                    f"{folder} was made with other settings ({made}); give this run another "
                    "--out, or remove the folder"
                )
        else:
            started = time.perf_counter()
            text = _unit(unit, vectors, paths, train_cap=train_cap, eval_cap=eval_cap, seed=seed)
            atomic_write_text(target, text)
            run = {
                "format": "adc-finetune-run",
                "version": 1,
                "spec": spec,
                "created": datetime.now(UTC).isoformat(timespec="seconds"),
                "machine": machine(),
                "world_size": 1,
                "wall_seconds": round(time.perf_counter() - started, 1),
            }
            atomic_write_text(folder / "run.json", json.dumps(run, indent=2) + "\n")
        folders.append(folder)
    if probe:
        started = time.perf_counter()
        train = {e: read_probing(paths, e, "train")[:train_cap] for e in environments}
        test = {e: read_probing(paths, e, "test")[:eval_cap] for e in environments}
        pooled = {
            e: vectors.pool([r.sentence for r in (*train[e], *test[e])]) for e in environments
        }
        rows = probe_rows(
            pooled, train, test, dict.fromkeys(environments, vectors.source), seed=seed
        )
        write_probe_file(
            out / "probe.json",
            rows,
            encoder=vectors.source,
            representation="max-pooled static vectors",
            train_cap=train_cap,
            test_cap=eval_cap,
            costs={"probe_seconds": round(time.perf_counter() - started, 2)},
        )
    return folders
