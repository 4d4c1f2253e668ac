"""The NPI paper's grids from classifiers' predictions (Warstadt et al. 2019, Figs. 1, 2, 4).

Inputs are *units*: one trained classifier (a unit of a configuration and a seed), its training
environments and its predictions by evaluation set and id. For each configuration and
environment, the units that make the result are chosen by
:func:`li_adger.benchmarks.npi_configurations.evaluated_by`, and their results averaged.

- **Fig. 1** (:func:`acceptability_grid`): MCC of the predictions against the acceptability
  labels on the environment's test sentences the unit predicted; the Wilcox column is the MCC
  on the 104 Wilcox sentences, averaged over the configuration's units.
- **Fig. 2** (:func:`pair_grid`): over the minimal pairs of an environment and contrast whose
  two sentences the unit predicted, *absolute* accuracy (both sentences classified right) and
  *gradient* accuracy (the acceptable sentence has the higher probability of acceptable).
  A tie (both sentences the same probability) is not "higher": it counts as a failure, and each
  cell gives the share of tied pairs (``ties``). A bag of words ties on every pair whose two
  sentences hold the same words, as scope pairs do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from li_adger.benchmarks.npi_configurations import CONFIGURATIONS, evaluated_by
from metric_adc.classification import mcc

__all__ = ["CONTRASTS", "Pair", "Unit", "acceptability_grid", "pair_grid"]

CONTRASTS: tuple[str, ...] = ("npi_present", "licensor", "scope")


@dataclass(frozen=True)
class Unit:
    """One trained classifier: training environments, and set → id → (gold, prediction, p)."""

    name: str
    train: tuple[str, ...]
    sets: Mapping[str, Mapping[str, tuple[int | None, int, float]]]


@dataclass(frozen=True)
class Pair:
    """A minimal pair by the test ids of its acceptable and unacceptable sentences."""

    environment: str
    contrast: str
    good: str
    bad: str


def _mean(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if values else None


def _universe(units: Sequence[Unit]) -> list[str]:
    return sorted({e for u in units for e in u.train})


def acceptability_grid(
    units: Sequence[Unit], environments: Sequence[str], test_ids: Mapping[str, Sequence[str]]
) -> dict[str, dict[str, float | None]]:
    """``{configuration: {environment or "wilcox": mean MCC or None}}``.

    ``test_ids[env]`` lists the environment's test ids; a unit's MCC there is over those it
    predicted (none: the unit does not count).

    Examples
    --------
    >>> s = {"npi_test": {"only.test.1": (1, 1, 0.9), "only.test.2": (0, 0, 0.2)},
    ...      "wilcox": {"wilcox.1": (1, 0, 0.4), "wilcox.2": (0, 0, 0.1)}}
    >>> grid = acceptability_grid([Unit("u", ("only",), s)], ["only"],
    ...                           {"only": ["only.test.1", "only.test.2"]})
    >>> grid["1npi"], grid["avg-other"]["only"]
    ({'only': 1.0, 'wilcox': 0.0}, None)
    """
    universe = _universe(units)
    trains = [u.train for u in units]
    out: dict[str, dict[str, float | None]] = {}
    for configuration in CONFIGURATIONS:
        row: dict[str, float | None] = {}
        used: set[int] = set()
        for env in environments:
            values = []
            for k in evaluated_by(configuration, env, trains, universe):
                items = units[k].sets.get("npi_test", {})
                have = [items[i] for i in test_ids[env] if i in items]
                if have:
                    used.add(k)
                    values.append(mcc([g for g, _, _ in have], [p for _, p, _ in have]))
            row[env] = _mean(values)
        wilcox = []
        for k in sorted(used):
            items = list(units[k].sets.get("wilcox", {}).values())
            if items:
                wilcox.append(mcc([g for g, _, _ in items], [p for _, p, _ in items]))
        row["wilcox"] = _mean(wilcox)
        out[configuration] = row
    return out


def pair_grid(
    units: Sequence[Unit], environments: Sequence[str], pairs: Sequence[Pair]
) -> dict[str, dict[str, dict[str, dict[str, float | int | None]]]]:
    """``{configuration: {contrast: {environment: {"absolute", "gradient", "ties", "pairs"}}}}``
    (accuracies, and the share of pairs whose two sentences have the same probability of
    acceptable, averaged over the configuration's units; ``pairs`` those judged per unit,
    summed). A tied pair is a gradient failure (the acceptable sentence is not higher).

    Examples
    --------
    >>> s = {"npi_test": {"a": (1, 1, 0.9), "b": (0, 1, 0.6), "c": (0, 1, 0.9)}}
    >>> pairs = [Pair("only", "scope", "a", "b"), Pair("only", "scope", "a", "c")]
    >>> grid = pair_grid([Unit("u", ("only",), s)], ["only"], pairs)
    >>> grid["1npi"]["scope"]["only"]
    {'absolute': 0.0, 'gradient': 0.5, 'ties': 0.5, 'pairs': 2}
    """
    universe = _universe(units)
    trains = [u.train for u in units]
    out: dict[str, dict[str, dict[str, dict[str, float | int | None]]]] = {}
    for configuration in CONFIGURATIONS:
        by_contrast: dict[str, dict[str, dict[str, float | int | None]]] = {}
        for contrast in CONTRASTS:
            cells: dict[str, dict[str, float | int | None]] = {}
            for env in environments:
                chosen = [p for p in pairs if p.environment == env and p.contrast == contrast]
                absolute, gradient, ties, n = [], [], [], 0
                for k in evaluated_by(configuration, env, trains, universe):
                    items = units[k].sets.get("npi_test", {})
                    judged = [
                        (items[p.good], items[p.bad])
                        for p in chosen
                        if p.good in items and p.bad in items
                    ]
                    if judged:
                        n += len(judged)
                        absolute.append(np.mean([g[1] == 1 and b[1] == 0 for g, b in judged]))
                        gradient.append(np.mean([g[2] > b[2] for g, b in judged]))
                        ties.append(np.mean([g[2] == b[2] for g, b in judged]))
                cells[env] = {
                    "absolute": _mean(absolute),
                    "gradient": _mean(gradient),
                    "ties": _mean(ties),
                    "pairs": n,
                }
            by_contrast[contrast] = cells
        out[configuration] = by_contrast
    return out
