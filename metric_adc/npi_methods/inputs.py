"""What ``npi-methods`` reads: NPI run folders, probe files, the pairs and the test ids.

A RUN argument is a run folder of the NPI task (``run.json`` whose spec's task is ``npi``), a
folder holding such run folders (``finetune --task npi`` and ``bow`` write one per unit), or a
``probe.json`` (``python -m baselines probe``); a folder's own ``probe.json`` is read too. Run
folders are read by :func:`metric_adc.chapter2.runs.read_run` (the one reader of that format);
runs are grouped by their spec's model (a fine-tuned encoder, or ``bow:<vectors>``). A unit
that reused CoLA fine-tunes (``fine_tunes`` in its ``run.json``) has them named
(:func:`fine_tune_name`). A unit's caps are compared with the sentences available
(:func:`cap_note`): a cap no smaller than them cut nothing, and the unit is not "capped".
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from li_adger.benchmarks.npi import ENVIRONMENTS
from li_adger.benchmarks.npi_configurations import parse_configuration
from li_adger.io.readers import InputFileError, parse_json, read_text
from metric_adc.chapter2.runs import read_run
from metric_adc.npi_methods.grids import Pair, Unit

__all__ = [
    "Inputs",
    "available_sentences",
    "cap_note",
    "caps_text",
    "fine_tune_name",
    "read_inputs",
    "read_pairs",
]


@dataclass
class Inputs:
    """Units by model, probe files, and what the runs say about themselves."""

    units: dict[str, list[Unit]] = field(default_factory=dict)
    probes: list[dict[str, Any]] = field(default_factory=list)
    caps: dict[str, set[str]] = field(default_factory=dict)
    capped: dict[str, bool] = field(default_factory=dict)
    available: dict[str, dict[str, int]] | None = None
    cola_fine_tunes: dict[str, list[str]] = field(default_factory=dict)


def fine_tune_name(source: dict[str, Any]) -> str:
    """A reused CoLA fine-tune as results name it: the last two parts of a CoLA run's model
    folder, or the built-in model with its chosen seed and epoch.

    Examples
    --------
    >>> fine_tune_name({"run": "/r/cola-run", "seed": 1, "model": "/r/cola-run/model-1"})
    'cola-run/model-1'
    >>> fine_tune_name({"model": "minilm-cola", "folder": "/c/best", "seed": 0, "epoch": 2})
    'minilm-cola (seed 0, epoch 2)'
    """
    if "run" in source:
        return "/".join(Path(str(source["model"])).parts[-2:])
    return f"{source.get('model')} (seed {source.get('seed')}, epoch {source.get('epoch')})"


def _probe(path: Path) -> dict[str, Any]:
    data = parse_json(read_text(path), str(path))
    if not isinstance(data, dict) or data.get("format") != "adc-npi-probe":
        raise InputFileError(f"{path}: 'format' must be 'adc-npi-probe'")
    if not isinstance(data.get("rows"), list):
        raise InputFileError(f"{path}: 'rows' must be a list")
    for k, row in enumerate(data["rows"], 1):
        for name in ("environment", "feature", "mcc"):
            if not isinstance(row, dict) or name not in row:
                raise InputFileError(f"{path}: row {k}: field {name!r} is missing")
    data["path"] = str(path)
    return data


def cap_note(spec: dict[str, Any], train: Sequence[int], test: Sequence[int]) -> tuple[str, bool]:
    """What a unit's caps did, and whether any cut a sentence: ``train`` and ``test`` are the
    sentences available per environment (a CoLA unit: CoLA's training set) that ``train_cap``
    and ``eval_cap`` apply to. A cap no smaller than every count covers every sentence.

    Examples
    --------
    >>> cap_note({"train_cap": 1000, "eval_cap": 1000}, [10000, 10000], [1000, 1000])
    ('train_cap=1000, eval_cap=1000 covers every test sentence', True)
    >>> cap_note({"train_cap": None, "eval_cap": 1000}, [8551], [1000])
    ('eval_cap=1000 covers every test sentence', False)
    >>> cap_note({}, [8551], [1000])
    ('uncapped', False)
    """
    parts, capped = [], False
    for name, counts, what in (("train_cap", train, "training"), ("eval_cap", test, "test")):
        cap = spec.get(name)
        if cap is None:
            continue
        if any(n > cap for n in counts):
            parts.append(f"{name}={cap}")
            capped = True
        else:
            parts.append(f"{name}={cap} covers every {what} sentence")
    return (", ".join(parts) if parts else "uncapped"), capped


def caps_text(caps: Sequence[str], capped: bool) -> str:
    """A model's caps as results say them (its units' :func:`cap_note` notes): "capped" only
    when a cap cut sentences, with every note but "uncapped".

    Examples
    --------
    >>> caps_text(["eval_cap=1000 covers every test sentence"], False)
    'uncapped (eval_cap=1000 covers every test sentence)'
    >>> caps_text(["train_cap=8, eval_cap=8", "uncapped"], True), caps_text(["uncapped"], False)
    ('capped (train_cap=8, eval_cap=8)', 'uncapped')
    """
    notes = "; ".join(c for c in caps if c != "uncapped")
    return ("capped" if capped else "uncapped") + (f" ({notes})" if notes else "")


def available_sentences(environments: Sequence[str]) -> dict[str, dict[str, int]]:
    """The sentences a cap applies to: ``{"train": {env: n}, "test": {env: n}}`` from the
    pinned probing files."""
    from li_adger.benchmarks.npi_sets import probing_files, read_probing
    from li_adger.sources import find_sources

    paths = find_sources(probing_files(environments, ["train", "test"]))
    return {
        split: {e: len(read_probing(paths, e, split)) for e in environments}
        for split in ("train", "test")
    }


@functools.cache
def _cola_training_sentences() -> int:
    """CoLA's training sentences (read once: every CoLA unit's train cap applies to them)."""
    from li_adger.benchmarks.cola import read_rows
    from li_adger.sources import find_sources

    relpath = "cola/in_domain_train.tsv"
    return len(read_rows(find_sources([relpath])[relpath]))


def _add_run(folder: Path, inputs: Inputs) -> None:
    run = read_run(folder)
    if run.spec.get("task") != "npi":
        raise InputFileError(
            f"{folder / 'run.json'}: spec field 'task' must be 'npi' (got {run.spec.get('task')!r})"
        )
    try:
        unit = parse_configuration(str(run.spec.get("configuration")))
    except ValueError as err:
        raise InputFileError(f"{folder / 'run.json'}: spec field 'configuration': {err}") from None
    model = str(run.spec.get("model"))
    if inputs.available is None:
        inputs.available = available_sentences(list(ENVIRONMENTS))
    if unit.train:
        train = [inputs.available["train"][e] for e in unit.train]
    elif run.spec.get("train_cap") is not None:
        train = [_cola_training_sentences()]
    else:
        train = []
    test = [inputs.available["test"][e] for e in unit.evaluate]
    note, capped = cap_note(run.spec, train, test)
    inputs.caps.setdefault(model, set()).add(note)
    inputs.capped[model] = inputs.capped.get(model, False) or capped
    meta = parse_json(read_text(folder / "run.json"), str(folder / "run.json"))
    for source in meta.get("fine_tunes", []):
        inputs.cola_fine_tunes.setdefault(model, []).append(fine_tune_name(source))
    for restart in run.restarts:
        sets = {
            name: {i: (p.gold, p.prediction, p.p_acceptable) for i, p in items.items()}
            for name, items in restart.sets.items()
        }
        name = f"{folder.name}/seed-{restart.seed}"
        inputs.units.setdefault(model, []).append(Unit(name, unit.train, sets))


def read_inputs(paths: Sequence[str | Path]) -> Inputs:
    """Every run folder and probe file the RUN arguments name (see the module docs)."""
    inputs = Inputs()
    for given in paths:
        path = Path(given)
        if path.is_file():
            inputs.probes.append(_probe(path))
            continue
        if not path.is_dir():
            raise InputFileError(f"{path}: no such run folder or probe file")
        if (path / "run.json").is_file():
            _add_run(path, inputs)
        else:
            children = sorted(p for p in path.iterdir() if (p / "run.json").is_file())
            if not children and not (path / "probe.json").is_file():
                raise InputFileError(f"{path}: holds no run.json, run folder or probe.json")
            for child in children:
                _add_run(child, inputs)
        if (path / "probe.json").is_file():
            inputs.probes.append(_probe(path / "probe.json"))
    return inputs


def read_pairs(environments: Sequence[str]) -> tuple[list[Pair], dict[str, list[str]]]:
    """The 5,500 minimal pairs by test id, and each environment's test ids (file order).

    Every pair sentence is a test sentence of its environment (``test_full``); a sentence
    found twice takes its first id.
    """
    from li_adger.benchmarks import load_items
    from li_adger.benchmarks.npi_sets import probing_files, read_probing
    from li_adger.sources import find_sources

    paths = find_sources(probing_files(environments, ["test"]))
    test_ids: dict[str, list[str]] = {}
    by_text: dict[tuple[str, str], str] = {}
    for env in environments:
        rows = read_probing(paths, env, "test")
        test_ids[env] = [r.id for r in rows]
        for r in rows:
            by_text.setdefault((env, r.sentence), r.id)
    items = load_items("npi")
    text = dict(zip(items.units["id"], items.units["sentence"], strict=True))
    pairs = []
    for row in items.comparisons.itertuples(index=False):
        if row.environment not in test_ids:
            continue
        good = by_text.get((row.environment, text[row.good_id]))
        bad = by_text.get((row.environment, text[row.bad_id]))
        if good is None or bad is None:
            raise InputFileError(
                f"npi/npi_minimal_pairs.tsv: pair {row.pair_id!r}: a sentence is not among the "
                f"{row.environment} test sentences"
            )
        pairs.append(Pair(row.environment, row.contrast, good, bad))
    return pairs, test_ids
