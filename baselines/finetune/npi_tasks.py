"""The NPI task (Warstadt et al. 2019, §5): Boolean acceptability, trained on any environments,
evaluated on any others.

A run's ``configuration`` is one training unit, ``TRAIN>EVAL``
(:func:`li_adger.benchmarks.npi_configurations.parse_configuration`): environments joined by
``+`` on each side, ``cola`` as TRAIN for a CoLA fine-tune. The training set is the TRAIN
environments' training sentences with their acceptability from the feature rule (the first
``train_cap`` of each environment: :func:`li_adger.benchmarks.npi_units.train_examples`); the
evaluation sets are ``npi_test`` (the EVAL environments' test sentences) and ``wilcox``
(:mod:`li_adger.benchmarks.npi_units`).

A ``cola>…`` unit is never trained here: ``finetune --task npi`` reuses CoLA fine-tunes that
exist (:mod:`baselines.finetune.reuse`), and :func:`npi_train_set` refuses one.

The paper's five configurations are lists of such units (:func:`specs_for`, used by
``python -m baselines finetune --task npi --configuration all-but-1``), each a run folder
``OUT/<unit key>/`` (``only-adverbs``, ``without-only``, ``all``, ``cola``), all shared out
over the processes of a launch as one list of (unit, seed)
(:func:`baselines.finetune.runs.run_many`).

Examples
--------
>>> from baselines.finetune.spec import FinetuneSpec
>>> [(s.configuration, out) for s, out in specs_for(FinetuneSpec(task="npi"), "all-but-1",
...     ["only", "adverbs"], "o")]
[('only>adverbs', 'o/without-adverbs'), ('adverbs>only', 'o/without-only')]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from baselines.finetune.items import EvalItem, Example

if TYPE_CHECKING:
    from baselines.finetune.spec import FinetuneSpec

__all__ = ["TASK", "npi_eval_sets", "npi_train_set", "specs_for"]

TASK = "npi"


def npi_train_set(spec: FinetuneSpec) -> list[Example]:
    """The unit's training sentences and acceptability labels; a ``cola>…`` unit raises (its
    models are CoLA fine-tunes, reused: :mod:`baselines.finetune.reuse`).

    Examples
    --------
    >>> from baselines.finetune.spec import FinetuneSpec
    >>> npi_train_set(FinetuneSpec(task="npi", configuration="cola>only"))
    Traceback (most recent call last):
    ...
    ValueError: the unit cola>only is trained on CoLA: its models are CoLA fine-tunes, reused (give --cola-run DIR to finetune --task npi), never trained as an NPI unit
    """
    from li_adger.benchmarks.npi_configurations import parse_configuration
    from li_adger.benchmarks.npi_units import source_files, train_examples
    from li_adger.sources import find_sources

    unit = parse_configuration(spec.configuration)
    if not unit.train:
        raise ValueError(
            f"the unit {spec.configuration} is trained on CoLA: its models are CoLA fine-tunes, reused "
            "(give --cola-run DIR to finetune --task npi), never trained as an NPI unit"
        )
    paths = find_sources(source_files(unit.train))
    return [Example(t, y) for t, y in train_examples(paths, unit.train, spec.train_cap)]


def npi_eval_sets(spec: FinetuneSpec) -> dict[str, list[EvalItem]]:
    """``npi_test`` and ``wilcox`` of the unit's evaluation environments."""
    from li_adger.benchmarks.npi_configurations import parse_configuration
    from li_adger.benchmarks.npi_units import eval_sets, source_files
    from li_adger.sources import find_sources

    unit = parse_configuration(spec.configuration)
    paths = find_sources(source_files(unit.evaluate))
    return {
        name: [EvalItem(i, t, g) for i, t, g in items]
        for name, items in eval_sets(paths, unit.evaluate, spec.eval_cap).items()
    }


def specs_for(
    spec: FinetuneSpec, configuration: str, environments: Sequence[str], out: str | Path
) -> list[tuple[FinetuneSpec, str]]:
    """One (spec, run folder) per unit of a named configuration (or the one ``TRAIN>EVAL``)."""
    from li_adger.benchmarks.npi_configurations import CONFIGURATIONS, parse_configuration, units

    if configuration in CONFIGURATIONS:
        chosen = units(configuration, environments)
    else:
        chosen = [parse_configuration(configuration)]
    return [
        (dataclasses.replace(spec, configuration=u.configuration), f"{out}/{u.key}") for u in chosen
    ]
