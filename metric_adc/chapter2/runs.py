"""A fine-tuning run folder, read: ``run.json`` and one ``restart-<seed>.jsonl`` per finished
restart (the format of ``python -m baselines finetune``, docs/chapter2.md).

The writer is ``baselines.finetune.runs``; the metric never imports ``baselines`` (the
packages' layers), so the format is read here, by :func:`read_restart_lines`, the one reader
of a restart file, which the writer uses too. Dot-prefixed and ``*.tmp`` files are
unfinished restarts and are skipped. Every record is
checked; bad input raises :class:`~li_adger.io.readers.InputFileError` naming the file, the
line, the id and the field.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from li_adger.io.readers import (
    InputFileError,
    as_number,
    as_text,
    json_lines,
    parse_json,
    read_text,
)

__all__ = [
    "RESTART_FORMAT",
    "RESTART_KINDS",
    "RESTART_RECORD_FIELDS",
    "RESTART_VERSION",
    "RUN_FORMAT",
    "Prediction",
    "Restart",
    "Run",
    "read_restart",
    "read_restart_lines",
    "read_run",
]

RUN_FORMAT = "adc-finetune-run"
RESTART_FORMAT = "adc-finetune-predictions"
RESTART_VERSION = 1
RESTART_RECORD_FIELDS = ("set", "id", "gold", "prediction", "p_unacceptable", "p_acceptable")
"""The fields of every record of a restart file (``gold`` is ``null`` for a set without)."""
RESTART_KINDS = ("restarts", "orders")
_RESTART_FILE = re.compile(r"restart-(-?\d+)\.jsonl")


@dataclass(frozen=True)
class Prediction:
    """One evaluation item of one restart: its gold label (``None`` when the set has none),
    the predicted label and the probability of *acceptable*."""

    gold: int | None
    prediction: int
    p_acceptable: float


@dataclass(frozen=True)
class Restart:
    """One finished restart: its seeds and its predictions, set → id → :class:`Prediction`
    (ids in file order); its training time and machine when the metadata gives them."""

    seed: int
    data_seed: int
    init_seed: int
    restart_kind: str
    sets: dict[str, dict[str, Prediction]]
    train_seconds: float | None = None
    machine: str | None = None

    def predictions(self, set_name: str, ids: list[str]) -> np.ndarray:
        """The predicted labels (bool) of ``ids`` in ``set_name``; a missing id raises.

        Examples
        --------
        >>> r = Restart(0, 0, 0, "orders", {"li_adger": {"a": Prediction(None, 1, 0.9)}})
        >>> r.predictions("li_adger", ["a"]).tolist()
        [True]
        >>> r.predictions("li_adger", ["b"])
        Traceback (most recent call last):
        ...
        ValueError: restart 0 has no prediction for id 'b' of set 'li_adger'
        """
        items = self.sets.get(set_name, {})
        out = np.zeros(len(ids), dtype=bool)
        for k, i in enumerate(ids):
            if i not in items:
                raise ValueError(
                    f"restart {self.seed} has no prediction for id {i!r} of set {set_name!r}"
                )
            out[k] = items[i].prediction == 1
        return out


@dataclass(frozen=True)
class Run:
    """A run folder: its name (the folder's), its spec and its finished
    restarts, in the order of the spec's seeds."""

    path: Path
    name: str
    restart_kind: str
    spec: dict
    restarts: list[Restart]

    def training(self) -> dict:
        """The restarts' count, total training seconds (``None`` if a restart lacks them) and
        machines.

        Examples
        --------
        >>> r = Restart(0, 0, 0, "orders", {}, 90.5, "cpu")
        >>> Run(Path("r"), "r", "orders", {}, [r, r]).training()
        {'restarts': 2, 'train_seconds': 181.0, 'machines': ['cpu']}
        """
        seconds = [r.train_seconds for r in self.restarts]
        return {
            "restarts": len(self.restarts),
            "train_seconds": None if None in seconds else float(sum(seconds)),
            "machines": sorted({r.machine for r in self.restarts if r.machine}),
        }

    def set_ids(self, set_name: str) -> list[str]:
        """The ids of ``set_name`` every restart predicted, in the first restart's order."""
        if not self.restarts:
            return []
        common = set.intersection(*(set(r.sets.get(set_name, {})) for r in self.restarts))
        return [i for i in self.restarts[0].sets.get(set_name, {}) if i in common]


def _int(value: object, where: str, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputFileError(f"{where}: {field!r} must be an integer (got {value!r})")
    return value


def _record(value: object, where: str) -> tuple[str, str]:
    """The set and id of one checked prediction record."""
    if not isinstance(value, dict):
        raise InputFileError(f"{where}: expected a JSON object (got {type(value).__name__})")
    for field in ("set", "id"):
        if field not in value:
            raise InputFileError(f"{where}: missing field {field!r}")
    set_name = as_text(value["set"], where, "set")
    item = as_text(value["id"], where, "id")
    where = f"{where} (id {item!r})"
    for field in RESTART_RECORD_FIELDS:
        if field not in value:
            raise InputFileError(f"{where}: missing field {field!r}")
    gold = value["gold"]
    if gold is not None and gold not in (0, 1):
        raise InputFileError(f"{where}: 'gold' must be 0, 1 or null (got {gold!r})")
    prediction = value["prediction"]
    if isinstance(prediction, bool) or prediction not in (0, 1):
        raise InputFileError(f"{where}: 'prediction' must be 0 or 1 (got {prediction!r})")
    p = as_number(value["p_acceptable"], where, "p_acceptable")
    if not 0.0 <= p <= 1.0:
        raise InputFileError(f"{where}: 'p_acceptable' must be in [0, 1] (got {p})")
    return set_name, item


def read_restart_lines(path: str | os.PathLike) -> tuple[dict, list[dict]]:
    """The metadata and the records of a restart file, every one checked: the one reader of
    the format (``baselines.finetune.runs``, its writer, reads its files back through it).
    Blank lines are skipped; a bad line raises :class:`~li_adger.io.readers.InputFileError`
    naming the file, the line, the id and the field.

    Examples
    --------
    >>> import json, tempfile
    >>> bad = Path(tempfile.mkdtemp()) / "restart-0.jsonl"
    >>> meta = {"format": RESTART_FORMAT, "version": 1, "seed": 0, "restart_kind": "orders"}
    >>> _ = bad.write_text(json.dumps(meta) + '\\n{"set": "x", "id": "a", "gold": 1}\\n')
    >>> read_restart_lines(bad)
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: ...restart-0.jsonl line 2 (id 'a'): missing field 'prediction'
    """
    lines = json_lines(read_text(path), str(path))
    first = next(lines, None)
    if first is None:
        raise InputFileError(f"{path}: empty file (expected a metadata line)")
    lineno, meta = first
    where = f"{path} line {lineno}"
    if not isinstance(meta, dict) or meta.get("format") != RESTART_FORMAT:
        raise InputFileError(f"{where}: 'format' must be {RESTART_FORMAT!r} (metadata line)")
    if meta.get("version") != RESTART_VERSION:
        raise InputFileError(
            f"{where}: 'version' must be {RESTART_VERSION} (got {meta.get('version')!r})"
        )
    seed = _int(meta.get("seed"), where, "seed")
    kind = meta.get("restart_kind")
    if kind not in RESTART_KINDS:
        raise InputFileError(
            f"{where}: 'restart_kind' must be one of {RESTART_KINDS} (got {kind!r})"
        )
    _int(meta.get("data_seed", seed), where, "data_seed")
    _int(meta.get("init_seed", seed), where, "init_seed")
    if meta.get("train_seconds") is not None:
        as_number(meta["train_seconds"], where, "train_seconds")
    if meta.get("machine") is not None:
        as_text(meta["machine"], where, "machine")
    records, seen = [], set()
    for lineno, value in lines:
        set_name, item = _record(value, f"{path} line {lineno}")
        if (set_name, item) in seen:
            raise InputFileError(
                f"{path} line {lineno}: id {item!r} of set {set_name!r} appears twice"
            )
        seen.add((set_name, item))
        records.append(value)
    return meta, records


def read_restart(path: str | os.PathLike) -> Restart:
    """One finished restart file (checked by :func:`read_restart_lines`) as a :class:`Restart`."""
    meta, records = read_restart_lines(path)
    sets: dict[str, dict[str, Prediction]] = {}
    for r in records:
        gold = None if r["gold"] is None else int(r["gold"])
        prediction = Prediction(gold, int(r["prediction"]), float(r["p_acceptable"]))
        sets.setdefault(r["set"], {})[r["id"]] = prediction
    seconds = meta.get("train_seconds")
    return Restart(
        meta["seed"],
        meta.get("data_seed", meta["seed"]),
        meta.get("init_seed", meta["seed"]),
        meta["restart_kind"],
        sets,
        None if seconds is None else float(seconds),
        meta.get("machine"),
    )


def read_run(path: str | os.PathLike) -> Run:
    """Read a run folder: ``run.json`` and its finished ``restart-<seed>.jsonl`` files.

    Examples
    --------
    >>> import tempfile
    >>> read_run(tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: .../run.json: no such file
    """
    folder = Path(path)
    meta_path = folder / "run.json"
    meta = parse_json(read_text(meta_path), str(meta_path))
    if not isinstance(meta, dict) or meta.get("format") != RUN_FORMAT:
        raise InputFileError(f"{meta_path}: 'format' must be {RUN_FORMAT!r}")
    spec = meta.get("spec")
    if not isinstance(spec, dict):
        raise InputFileError(f"{meta_path}: 'spec' must be an object (got {spec!r})")
    kind = spec.get("restart_kind")
    if kind not in RESTART_KINDS:
        raise InputFileError(
            f"{meta_path}: spec field 'restart_kind' must be one of {RESTART_KINDS} (got {kind!r})"
        )
    restarts = []
    for file in sorted(folder.iterdir()):
        if _RESTART_FILE.fullmatch(file.name):  # dot-prefixed and *.tmp never match
            restart = read_restart(file)
            if restart.restart_kind != kind:
                raise InputFileError(
                    f"{file} line 1: 'restart_kind' is {restart.restart_kind!r} but run.json "
                    f"says {kind!r}"
                )
            restarts.append(restart)
    seeds = spec.get("seeds")
    order = {s: k for k, s in enumerate(seeds)} if isinstance(seeds, list) else {}
    restarts.sort(key=lambda r: (order.get(r.seed, len(order)), r.seed))
    return Run(folder, folder.resolve().name, kind, spec, restarts)
