"""What a task gives a run: training examples and the items of its evaluation sets
(re-exported by :mod:`baselines.finetune.tasks`).

Examples
--------
>>> Example("The keys are lost.", 1).label, EvalItem("a.1", "Go.", None).gold
(1, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["EvalItem", "Example"]


class Example(NamedTuple):
    """One training sentence and its label (1 acceptable, 0 unacceptable)."""

    text: str
    label: int


@dataclass(frozen=True)
class EvalItem:
    """One sentence to predict: its id in its set, its text and its gold label (``None`` when the
    set has none here, e.g. LI-Adger, whose labels the metric takes from the dataset)."""

    id: str
    text: str
    gold: int | None
