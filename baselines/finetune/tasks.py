"""The tasks a run fine-tunes on: a registry of :class:`Task`, with CoLA built in.

A task gives the training examples (``(text, label)``, label 1 acceptable, 0 not) and the
evaluation sets every restart predicts (``name -> [EvalItem]``); both may depend on the run's
spec (its ``configuration`` and ``train_cap``). Another module adds tasks with
:func:`register_task` (the factory is called with the task's name when a run asks for it).

Examples
--------
>>> "cola" in task_names()
True
>>> get_task("no-such-task")
Traceback (most recent call last):
...
ValueError: unknown task 'no-such-task'; expected one of 'cola', 'npi'...
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from baselines.finetune.items import EvalItem, Example

if TYPE_CHECKING:
    from baselines.finetune.spec import FinetuneSpec

__all__ = ["EvalItem", "Example", "Task", "get_task", "register_task", "task_names"]


@dataclass(frozen=True)
class Task:
    """A named task: its training set and its evaluation sets for a given spec."""

    name: str
    train_set: Callable[[FinetuneSpec], list[Example]]
    eval_sets: Callable[[FinetuneSpec], dict[str, list[EvalItem]]]


_FACTORIES: dict[str, Callable[[str], Task]] = {}


def register_task(name: str, factory: Callable[[str], Task]) -> None:
    """Make ``name`` a task; ``factory(name)`` builds it when a run asks for it.

    Examples
    --------
    >>> register_task("cola", lambda name: None)
    Traceback (most recent call last):
    ...
    ValueError: task 'cola' is registered already
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"a task's name must be a non-empty string (got {name!r})")
    if name in _FACTORIES:
        raise ValueError(f"task {name!r} is registered already")
    _FACTORIES[name] = factory


def task_names() -> tuple[str, ...]:
    """The registered task names, in registration order."""
    return tuple(_FACTORIES)


def get_task(name: str) -> Task:
    """The task registered as ``name``."""
    if name not in _FACTORIES:
        known = ", ".join(repr(n) for n in _FACTORIES)
        raise ValueError(f"unknown task {name!r}; expected one of {known}")
    task = _FACTORIES[name](name)
    if not isinstance(task, Task) or task.name != name:
        raise TypeError(f"the factory of task {name!r} must return a Task named {name!r}")
    return task


def _cola(name: str) -> Task:
    from baselines.finetune.cola_task import cola_eval_sets, cola_train_set

    return Task(name, cola_train_set, cola_eval_sets)


register_task("cola", _cola)


def _npi(name: str) -> Task:
    from baselines.finetune.npi_tasks import npi_eval_sets, npi_train_set

    return Task(name, npi_train_set, npi_eval_sets)


register_task("npi", _npi)
