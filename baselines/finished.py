"""Resume by benchmark: every benchmark's sources checked first, finished scores files kept.

``python -m baselines score --dataset all`` scores one benchmark after another. Before the model
is loaded, :func:`load_all` reads every benchmark's units from its verified source files, so a
missing or damaged source is one error naming the benchmark and the file, before anything is
scored. Before a benchmark is scored, :func:`finished_problem` reads the scores file already at
its output path: a file written by a run with the same fingerprint (the scorer's metadata and
the data's, less what does not change scores: :data:`baselines.resume.FINGERPRINT_EXCLUDES`)
and holding every unit's id and text is kept, and the benchmark is skipped. A run interrupted
in the middle of a benchmark thus scores only the unfinished benchmark (resumed from its partial
file, :mod:`baselines.resume`) and those after it.

Examples
--------
>>> import tempfile, pathlib
>>> from metric_adc.scores.file import write_scores
>>> out = pathlib.Path(tempfile.mkdtemp()) / "toy.jsonl"
>>> finished_problem(out, {"model": "m"}, ["a"], ["Go."]) is None  # no file yet
False
>>> _ = write_scores(out, [{"id": "a", "sentence": "Go.", "score": -1.0}],
...                  {"model": "m", "dataset": "toy", "versions": {"numpy": "2"}})
>>> finished_problem(out, {"model": "m", "dataset": "toy", "versions": {"numpy": "3"}},
...                  ["a"], ["Go."]) is None
True
>>> finished_problem(out, {"model": "m", "dataset": "toy", "variant": "slor"}, ["a"], ["Go."])
"it was made with other settings (variant: absent there, 'slor' here)"
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from baselines.interface import ClozeUnit
from baselines.resume import FINGERPRINT_EXCLUDES
from baselines.units import Units, load_units

__all__ = ["finished_problem", "load_all"]

_NOT_SETTINGS = FINGERPRINT_EXCLUDES | {"format", "version", "world_size"}
"""Metadata keys of a scores file that do not tell runs apart (a data-parallel run's file is
the one-process file, with its ``world_size``)."""


def _verify_sources(dataset: str) -> None:
    """Find and verify each source file of benchmark ``dataset``; an error names the benchmark,
    the file and where to get it."""
    import os

    from li_adger.benchmarks import benchmark
    from li_adger.sources import ChecksumError, SourceNotFoundError, find_sources, upstream_url

    for relpath in benchmark(dataset).files:
        try:
            find_sources([relpath])
        except (SourceNotFoundError, ChecksumError) as err:
            where = os.environ.get("LI_ADGER_SOURCE")
            how = (
                f"put the pinned file at {relpath} in LI_ADGER_SOURCE={where}, or unset it to "
                "search the default places and download"
                if where
                else "set LI_ADGER_SOURCE to a folder holding the pinned files, or go online "
                "once to download them"
            )
            raise type(err)(
                f"benchmark {dataset!r} cannot be read, so nothing was scored: {err}; {how} "
                f"(the pinned file: {upstream_url(relpath)})"
            ) from err


def load_all(datasets: Sequence[str], *, subset: str | None = None) -> dict[str, Units]:
    """The units of every dataset, read (and their source files verified) before anything is
    scored; a missing or damaged source is a ``FileNotFoundError`` or ``ValueError`` naming
    the benchmark, the file and where to get it. ``subset`` (one benchmark only) names whole
    groups, as :func:`baselines.units.load_units` takes them.

    Examples
    --------
    >>> sorted(load_all(["diagnostics"]))
    ['diagnostics']
    """
    from baselines.units import DATASETS

    for dataset in datasets:
        if dataset in DATASETS:
            _verify_sources(dataset)
    return {dataset: load_units(dataset, subset=subset) for dataset in datasets}


def _shown(values: Mapping[str, Any], key: str) -> str:
    return repr(values[key])[:40] if key in values else "absent"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def finished_problem(
    out: str | Path,
    metadata: Mapping[str, Any],
    ids: Sequence[str],
    units: Sequence[str] | Sequence[ClozeUnit],
) -> str | None:
    """Why the scores file ``out`` is not the finished result of a run whose scores file would
    have ``metadata`` (:func:`baselines.score_file.run_metadata`) and these units, or ``None`` when
    it is (and so can be kept).

    The settings compared are the metadata's keys less ``versions``, ``device``,
    ``batch_size`` and the other keys that do not change scores; the units compared are every
    id and text, in order.
    """
    from metric_adc.scores.file import ScoresFileError, read_scores

    out = Path(out)
    if not out.is_file():
        return "it does not exist"
    try:
        scores = read_scores(out)
    except (ScoresFileError, OSError) as err:
        return f"it cannot be read ({err})"
    theirs, ours = scores.metadata, dict(metadata)
    differ = sorted(
        key
        for key in {*theirs, *ours} - _NOT_SETTINGS
        if key not in theirs or key not in ours or _canonical(theirs[key]) != _canonical(ours[key])
    )
    if differ:
        return (
            "it was made with other settings ("
            + ", ".join(f"{k}: {_shown(theirs, k)} there, {_shown(ours, k)} here" for k in differ)
            + ")"
        )
    if scores.ids != [str(i) for i in ids]:
        return "its ids are not the units' ids"
    if units and isinstance(units[0], ClozeUnit):
        texts = {
            "context": [u.context for u in units],  # type: ignore[union-attr]
            "completion": [u.completion for u in units],  # type: ignore[union-attr]
        }
        if units[0].after:  # type: ignore[union-attr]
            texts["after"] = [u.after for u in units]  # type: ignore[union-attr]
    else:
        texts = {"sentence": list(units)}
    for field, expected in texts.items():
        if scores.fields.get(field) != expected:
            return f"its {field} texts are not the units'"
    return None
