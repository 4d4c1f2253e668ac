"""``python -m tools.shipped_parameters``: record the parameter count of each model behind the
app's shipped results (``space/results/``), for results written before scores files recorded
it (:func:`baselines.hf.parameter_metadata`).

Each shipped record whose metadata names a ``transformers`` model (kind ``causal``, ``mlm`` or
``cola``) and has no ``parameters`` gets the count of that model, loaded again through
:func:`baselines.load_scorer`. The model loaded must be the one that was scored: the facts
that identify it (:data:`IDENTITY`: the source file and its size, the architecture, the
fine-tuning's selected checkpoint, …) must equal the record's, else nothing is written. A
parameter count depends on the architecture only, so the loaded model's count is the scored
model's. Files are rewritten atomically, in the shipped files' format; other records, and a
record whose model loads differently now, are left as they are (and named).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from li_adger.io.atomic import atomic_write_text
from space.data.shipped import SHIPPED_DIR, shipped_json

__all__ = ["IDENTITY", "KINDS", "fill_parameters", "main", "mismatch"]

KINDS = frozenset({"causal", "mlm", "cola"})
"""The kinds whose scorers load a ``transformers`` model (and so have a parameter count)."""

IDENTITY = ("model", "kind", "architecture", "source", "acceptable_label", "training")
"""Metadata keys that identify the model scored: those in both records must be equal."""


def mismatch(shipped: Mapping[str, Any], loaded: Mapping[str, Any]) -> str | None:
    """The first identifying key (:data:`IDENTITY`) on which a shipped record's metadata and
    the loaded scorer's differ, as a sentence; ``None`` when they agree.

    Examples
    --------
    >>> mismatch({"model": "m", "source": {"gguf": "a"}}, {"model": "m", "source": {"gguf": "a"}})
    >>> mismatch({"model": "m", "source": {"gguf": "a"}}, {"model": "m", "source": {"gguf": "b"}})
    "'source' differs: {'gguf': 'a'} shipped, {'gguf': 'b'} loaded"
    >>> mismatch({"model": "m"}, {"model": "m", "architecture": "X"}) is None  # one side only
    True
    """
    for key in IDENTITY:
        if key in shipped and key in loaded and shipped[key] != loaded[key]:
            return f"{key!r} differs: {shipped[key]!r} shipped, {loaded[key]!r} loaded"
    return None


def _load(model: str, kind: str) -> dict[str, Any]:
    from baselines import load_scorer

    return load_scorer(model, kind=kind, device="cpu").metadata()


def fill_parameters(
    folder: str | Path = SHIPPED_DIR,
    *,
    load: Callable[[str, str], Mapping[str, Any]] = _load,
) -> tuple[list[Path], list[str]]:
    """Add ``parameters`` to the metadata of every record under ``folder`` that names a
    model of :data:`KINDS` and lacks it; ``load(model, kind)`` gives the loaded scorer's
    metadata (each model is loaded once). A record whose model does not load as the one it
    was scored with (:func:`mismatch`) is left as it is. Return the files rewritten and, for
    each record left, ``"<file>: <why>"``.
    """
    loaded: dict[tuple[str, str], Mapping[str, Any]] = {}
    written, refused = [], []
    for path in sorted(Path(folder).rglob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        meta = record.get("metadata") if isinstance(record, dict) else None
        if not isinstance(meta, dict) or meta.get("kind") not in KINDS or "parameters" in meta:
            continue
        key = (str(meta["model"]), str(meta["kind"]))
        if key not in loaded:
            loaded[key] = load(*key)
        why = mismatch(meta, loaded[key])
        if why:
            refused.append(f"{path}: the model loaded is not the one scored ({why})")
            continue
        meta["parameters"] = int(loaded[key]["parameters"])
        written.append(atomic_write_text(path, shipped_json(record)))
    return written, refused


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.shipped_parameters", description=__doc__)
    parser.add_argument("--folder", default=str(SHIPPED_DIR), help="the shipped results folder")
    args = parser.parse_args(argv)
    written, refused = fill_parameters(args.folder)
    for path in written:
        print(f"recorded the parameter count in {path}")
    for line in refused:
        print(f"left without a parameter count: {line}")
    return 1 if refused else 0


if __name__ == "__main__":
    raise SystemExit(main())
