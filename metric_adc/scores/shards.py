"""The names of a data-parallel run's shard files, which no reader of a results folder takes.

A scoring run under ``torchrun`` or ``accelerate launch`` (``baselines.distributed``) writes
each process's records to a shard file ``<out>.rank-R-of-N.jsonl`` beside its scores file
``<out>``, then merges them into ``<out>`` and deletes them. A shard left behind holds rows of
the scores file: the readers of a results folder (``metric_adc.report.summary.scores_files``,
the app's ``space.data.results_folder``) skip every file named so (:func:`is_shard`).

Examples
--------
>>> shard_name("trigram.jsonl", 1, 2)
'trigram.jsonl.rank-1-of-2.jsonl'
>>> is_shard(shard_name("trigram.jsonl", 1, 2)), is_shard("trigram.jsonl")
(True, False)
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["is_shard", "shard_name", "shard_of"]

_SHARD = re.compile(r"^(?P<out>.+)\.rank-(?P<rank>\d+)-of-(?P<world>\d+)\.jsonl$")


def shard_name(out_name: str, rank: int, world_size: int) -> str:
    """The file name of rank ``rank``'s shard of the scores file named ``out_name``."""
    return f"{out_name}.rank-{rank}-of-{world_size}.jsonl"


def shard_of(name: str) -> tuple[str, int, int] | None:
    """``(scores file name, rank, world size)`` of a shard file's name, or ``None``.

    Examples
    --------
    >>> shard_of("li_adger.jsonl.rank-0-of-3.jsonl")
    ('li_adger.jsonl', 0, 3)
    >>> shard_of("li_adger.jsonl") is None
    True
    """
    found = _SHARD.match(name)
    if found is None:
        return None
    return found["out"], int(found["rank"]), int(found["world"])


def is_shard(path: str | Path) -> bool:
    """Whether ``path`` is named as a shard file (:func:`shard_name`)."""
    return shard_of(Path(path).name) is not None
