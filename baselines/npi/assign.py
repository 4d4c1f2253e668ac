"""Which saved fine-tuned model reads which environment when probing a run (``probe --run``).

A unit's run folder (``finetune --task npi --save-models``) holds ``run.json`` and a saved model
``model-<seed>`` per restart; the first seed's model probes the environments the unit is
evaluated on. A unit that reused CoLA fine-tunes (:mod:`baselines.finetune.reuse`) names them in
its ``run.json`` (``fine_tunes``): the first is probed where it is saved. A folder of unit folders needs a configuration: each environment is probed with
the model the configuration evaluates there (:func:`evaluated_by`; ``avg-other``, which
averages several models, is refused).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from li_adger.benchmarks.npi_configurations import evaluated_by, parse_configuration

__all__ = ["probe_assignments"]


def _unit(folder: Path) -> tuple[tuple[str, ...], tuple[str, ...], str, Path]:
    """A unit's training and evaluation environments, encoder name and model folder (not
    checked: :func:`_saved`)."""
    run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    spec = run.get("spec", {})
    unit = parse_configuration(str(spec.get("configuration")))
    seeds = spec.get("seeds") or []
    model = folder / f"model-{seeds[0]}" if seeds else folder / "model-0"
    if run.get("fine_tunes"):  # a unit that reused CoLA fine-tunes: probe them where they are
        reused = run["fine_tunes"][0]
        model = Path(reused.get("model") or reused["folder"])
    return unit.train, unit.evaluate, str(spec.get("model")), model


def _saved(model: Path) -> Path:
    if not (model / "config.json").is_file():
        raise FileNotFoundError(
            f"{model} does not exist: run `finetune` with --save-models to keep the models"
        )
    return model


def probe_assignments(
    run: str | Path, environments: Sequence[str], configuration: str | None = None
) -> tuple[dict[str, Path], str, str]:
    """``({environment: model folder}, configuration, encoder)`` for a run folder."""
    run = Path(run)
    if (run / "run.json").is_file():
        train, evaluate, encoder, model = _unit(run)
        envs = [e for e in environments if e in evaluate]
        if not envs:
            raise ValueError(
                f"{run} is evaluated on {list(evaluate)}, none of {list(environments)}"
            )
        label = f"{'+'.join(train) or 'cola'}>{'+'.join(evaluate)}"
        return dict.fromkeys(envs, _saved(model)), label, encoder
    if configuration is None or configuration == "avg-other":
        raise ValueError(
            f"{run} is a folder of unit runs: name one of --configuration cola, 1npi, "
            "all-but-1, all"
        )
    units = [_unit(p) for p in sorted(run.iterdir()) if (p / "run.json").is_file()]
    trains = [u[0] for u in units]
    universe = sorted({e for t in trains for e in t})
    out = {}
    for env in environments:
        chosen = [
            k for k in evaluated_by(configuration, env, trains, universe) if env in units[k][1]
        ]
        if chosen:
            out[env] = _saved(units[chosen[0]][3])
    if not out:
        raise ValueError(
            f"{run}: no unit of configuration {configuration!r} evaluates {list(environments)}"
        )
    return out, configuration, units[0][2]
