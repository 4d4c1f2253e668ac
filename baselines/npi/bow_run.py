"""The bag-of-words baseline run: each unit of the chosen configurations, then the probes.

A run folder holds ``run.json`` (the settings, the vectors used, the machine), one
``unit-<key>.seed-<seed>.jsonl`` per finished training unit (the fine-tuning runs' prediction
format: a metadata line, then one record per evaluation item; see ``docs/npi-methods.md``),
written atomically and skipped when present (a rerun resumes), and ``probe.json`` (the
feature probes on the pooled vectors, the rows of :mod:`baselines.npi.probe`).
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
from baselines.npi.data import eval_sets, train_examples
from baselines.npi.probe import machine, probe_rows, write_probe_file
from li_adger.benchmarks.npi_configurations import Unit, units
from li_adger.benchmarks.npi_sets import read_probing
from li_adger.io.atomic import atomic_write_text

__all__ = ["prediction_lines", "run_bow", "unit_file_name"]


def unit_file_name(key: str, seed: int) -> str:
    """A unit's prediction file.

    Examples
    --------
    >>> unit_file_name("without-only", 0)
    'unit-without-only.seed-0.jsonl'
    """
    return f"unit-{key}.seed-{seed}.jsonl"


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


def _unit(
    unit: Unit,
    vectors: StaticVectors,
    paths: Mapping[str, Path],
    *,
    configuration: str,
    train_cap: int | None,
    seed: int,
) -> str:
    started = time.perf_counter()
    train = train_examples(paths, unit.train, train_cap)
    model = mlp_classifier(seed)
    model.fit(vectors.pool([t for t, _ in train]), np.array([y for _, y in train]))
    seconds = time.perf_counter() - started
    sets = eval_sets(paths, unit.evaluate)
    probabilities = {
        name: model.predict_proba(vectors.pool([t for _, t, _ in items]))[:, 1]
        for name, items in sets.items()
    }
    metadata = {
        "format": "adc-finetune-predictions",
        "version": 1,
        "method": "bow",
        "vectors": vectors.source,
        "seed": seed,
        "task": "npi",
        "configuration": configuration,
        "unit": unit.key,
        "train_environments": list(unit.train),
        "eval_environments": list(unit.evaluate),
        "train_cap": train_cap,
        "model": f"bow:{vectors.source}",
        "train_sentences": len(train),
        "train_seconds": round(seconds, 2),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
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
    seed: int = 0,
    probe: bool = True,
    progress: bool = True,
) -> dict[str, Any]:
    """Train and evaluate every unit of ``configurations`` (skipping finished ones), then probe."""
    from tqdm.auto import tqdm

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    settings = {
        "format": "adc-npi-bow-run",
        "version": 1,
        "vectors": vectors.source,
        "train_cap": train_cap,
        "seed": seed,
        "environments": list(environments),
        "machine": machine(),
    }
    atomic_write_text(out / "run.json", json.dumps(settings, indent=2))
    todo: dict[str, tuple[str, Unit]] = {}
    for configuration in configurations:
        if configuration == "cola":
            continue  # no CoLA bag-of-words: the paper's BoW rows are NPI-trained
        for unit in units(configuration, environments):
            todo.setdefault(unit.key, (configuration, unit))
    for key, (configuration, unit) in tqdm(todo.items(), disable=not progress, desc="bow units"):
        target = out / unit_file_name(key, seed)
        if not target.exists():
            atomic_write_text(
                target,
                _unit(
                    unit,
                    vectors,
                    paths,
                    configuration=configuration,
                    train_cap=train_cap,
                    seed=seed,
                ),
            )
    if probe:
        started = time.perf_counter()
        train = {e: read_probing(paths, e, "train")[:train_cap] for e in environments}
        test = {e: read_probing(paths, e, "test") for e in environments}
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
            costs={"probe_seconds": round(time.perf_counter() - started, 2)},
        )
    return settings
