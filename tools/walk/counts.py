"""Stops, files and returns of a call walk, from its first-call sequence (pure).

Examples
--------
>>> walk_counts([("a.py", "f"), ("b.py", "g"), ("a.py", "h"), ("b.py", "k")])
WalkCounts(stops=4, files=2, returns=2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class WalkCounts:
    """What the walk measures: stops (functions), distinct files, returns to a file left."""

    stops: int
    files: int
    returns: int

    def line(self) -> str:
        """The one-line summary the command prints.

        >>> WalkCounts(3, 2, 1).line()
        'stops 3 files 2 returns 1'
        """
        return f"stops {self.stops} files {self.files} returns {self.returns}"


def walk_counts(stops: Sequence[tuple[str, str]]) -> WalkCounts:
    """Count a walk given its stops as ``(file, function)`` pairs in first-call order.

    A return is a stop entering a file that the walk already left; consecutive stops in one
    file are one visit.

    >>> walk_counts([])
    WalkCounts(stops=0, files=0, returns=0)
    >>> walk_counts([("a.py", "f"), ("a.py", "g"), ("b.py", "h")])
    WalkCounts(stops=3, files=2, returns=0)
    """
    returns = len(return_steps(stops))
    return WalkCounts(len(stops), len({file for file, _ in stops}), returns)


def return_steps(stops: Sequence[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """Each return as ``(file left, file re-entered, function entered)``, in walk order.

    Lists what :func:`walk_counts` counts, so that a reader can see which calls go back up.

    >>> return_steps([("a.py", "f"), ("b.py", "g"), ("a.py", "h"), ("b.py", "k")])
    [('b.py', 'a.py', 'h'), ('a.py', 'b.py', 'k')]
    """
    left: set[str] = set()
    steps: list[tuple[str, str, str]] = []
    previous: str | None = None
    for file, function in stops:
        if file == previous:
            continue
        if file in left and previous is not None:
            steps.append((previous, file, function))
        if previous is not None:
            left.add(previous)
        previous = file
    return steps
