"""The NPI paper's CoLA configuration from CoLA fine-tunes that exist: evaluated, never trained.

``finetune --task npi --configuration cola`` trains nothing. Its classifiers are either the
saved models of a CoLA run (``--cola-run DIR``: a ``finetune --task cola --save-models`` run
folder; every ``model-<seed>`` whose ``restart-<seed>.jsonl`` is there, so a run still under
way gives the restarts it has finished), or, with no such option, the built-in ``minilm-cola``
(:func:`baselines.models.minilm.minilm_cola_fine_tune`, which says so when it has to build the
cache). Each classifier predicts the unit's NPI evaluation sets (``npi_test``, ``wilcox``) and
writes ``OUT/cola/restart-<seed>.jsonl`` in the run-folder format, so ``npi-methods`` reads it
like any other unit.

What was reused is recorded: each restart file's metadata has ``fine_tune`` (the CoLA run
folder, seed and model folder; or ``minilm-cola``, its folder and the SHA-256 of its manifest),
``run.json`` lists them as ``fine_tunes``, and the unit's spec is the CoLA run's training
settings (its model, preset, epochs, ``train_cap`` ...) with the NPI task and configuration, so
a capped CoLA fine-tune is reported as capped. ``python -m baselines probe --run OUT/cola``
probes the reused models in place (one copy of each).

A rerun skips restarts already evaluated from the same fine-tune; a file made from another one
is an error naming it.

Examples
--------
>>> import tempfile
>>> cola_run_fine_tunes(tempfile.mkdtemp())
Traceback (most recent call last):
...
FileNotFoundError: --cola-run ...: not a fine-tuning run (no restart-<seed>.jsonl); give a `finetune --task cola --save-models` run folder
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.finetune.runs import (
    finished_restarts,
    model_path,
    read_restart,
    restart_metadata,
    restart_path,
    restart_text,
)
from baselines.finetune.spec import FinetuneSpec, complete_settings
from baselines.recorded_path import recorded_path

__all__ = ["FineTune", "cola_run_fine_tunes", "evaluate_fine_tunes", "reuse_spec"]

_TRAINED = ("train_sentences", "train_tokens", "train_seconds", "train_loss", "optimizer_steps")


@dataclass(frozen=True)
class FineTune:
    """A CoLA classifier that exists: its seed, its folder, the training settings it was made
    with (:meth:`FinetuneSpec.training_settings`), what its training cost (``train_sentences``,
    ``train_tokens``, ``train_seconds``, ``train_loss``) and where it came from (``source``,
    recorded in the results)."""

    seed: int
    folder: Path
    settings: dict[str, Any]
    trained: dict[str, Any]
    source: dict[str, Any]


def cola_run_fine_tunes(run_dir: str | Path) -> list[FineTune]:
    """The saved classifiers of the CoLA run ``run_dir`` (restarts with a file and a model).

    An error names the folder when it is not a run, not a CoLA run, or has no saved model.
    """
    run_dir = Path(run_dir)
    files = finished_restarts(run_dir) if run_dir.is_dir() else {}
    if not files:
        raise FileNotFoundError(
            f"--cola-run {run_dir}: not a fine-tuning run (no restart-<seed>.jsonl); give a "
            "`finetune --task cola --save-models` run folder"
        )
    out = []
    for seed, path in files.items():
        meta, _ = read_restart(path)
        if meta.get("task") != "cola":
            raise ValueError(
                f"--cola-run {run_dir}: not a CoLA run ({path.name}: field 'task' is "
                f"{meta.get('task')!r}, expected 'cola')"
            )
        folder = model_path(run_dir, seed)
        if not (folder / "config.json").is_file():
            continue
        source = {"run": recorded_path(run_dir), "seed": seed, "model": recorded_path(folder)}
        trained = {k: meta.get(k) for k in _TRAINED}
        out.append(FineTune(seed, folder, complete_settings(meta["settings"]), trained, source))
    if not out:
        raise FileNotFoundError(
            f"--cola-run {run_dir}: no saved model (model-<seed>/config.json) beside its "
            f"{len(files)} restart file(s); fine-tune it with --save-models"
        )
    return out


def reuse_spec(npi: FinetuneSpec, fine_tunes: Sequence[FineTune]) -> FinetuneSpec:
    """The spec of the reused unit: the fine-tunes' training settings (they must agree), with
    ``npi``'s task, configuration, ``eval_cap`` and device, and the fine-tunes' seeds.

    Examples
    --------
    >>> cola = FinetuneSpec(model="m", epochs=1, train_cap=50).training_settings()
    >>> ft = FineTune(3, Path("m3"), cola, {}, {})
    >>> s = reuse_spec(FinetuneSpec(model="m", task="npi", configuration="cola>only", eval_cap=8),
    ...                [ft])
    >>> s.task, s.configuration, s.seeds, s.epochs, s.train_cap, s.eval_cap
    ('npi', 'cola>only', (3,), 1, 50, 8)
    >>> reuse_spec(FinetuneSpec(model="other", task="npi"), [ft])
    Traceback (most recent call last):
    ...
    ValueError: the CoLA fine-tunes are of model 'm', not of --model 'other'; give --model m
    """
    settings = fine_tunes[0].settings
    for ft in fine_tunes[1:]:
        if ft.settings != settings:
            raise ValueError(
                f"the CoLA fine-tunes {fine_tunes[0].folder} and {ft.folder} were made with "
                "different settings; give a run whose restarts share them"
            )
    if settings.get("model") != npi.model:
        raise ValueError(
            f"the CoLA fine-tunes are of model {settings.get('model')!r}, not of --model "
            f"{npi.model!r}; give --model {settings.get('model')}"
        )
    return FinetuneSpec.from_json(
        {
            **settings,
            "task": npi.task,
            "configuration": npi.configuration,
            "eval_cap": npi.eval_cap,
            "seeds": [ft.seed for ft in fine_tunes],
            "device": npi.device,
        }
    )


def _done(path: Path, source: dict[str, Any]) -> bool:
    if not path.is_file():
        return False
    meta, _ = read_restart(path)
    if meta.get("fine_tune") != source:
        raise ValueError(
            f"{path} was evaluated from another CoLA fine-tune ({meta.get('fine_tune')!r}, this "
            f"run {source!r}); give this run another --out, or remove the file"
        )
    return True


def _predict_all(spec: FinetuneSpec, folder: Path, texts: list[str], progress: bool) -> list:
    import torch
    from tqdm.auto import tqdm
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from baselines.device import resolve_device
    from baselines.finetune.train import predict

    device = resolve_device(spec.device)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder).to(device)
    if model.config.num_labels != 2:
        raise ValueError(
            f"{folder}: a CoLA classifier has 2 labels (got {model.config.num_labels})"
        )
    out: list[tuple[float, float]] = []
    chunk = 512
    with tqdm(total=len(texts), desc=folder.name, unit="sentence", disable=not progress) as bar:
        for start in range(0, len(texts), chunk):
            part = texts[start : start + chunk]
            out.extend(predict(model, tokenizer, part, max_length=spec.max_length,
                               dtype=torch.float32))  # fmt: skip
            bar.update(len(part))
    return out


def evaluate_fine_tunes(
    spec: FinetuneSpec,
    fine_tunes: Sequence[FineTune],
    out: str | Path,
    *,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> Path:
    """Predict the NPI evaluation sets of ``spec`` (:func:`reuse_spec`) with each fine-tune and
    write the unit's run folder ``out`` (restart files, then ``run.json``)."""
    from baselines.device import cpu_name
    from baselines.finetune.runs import write_run_json
    from baselines.finetune.tasks import get_task
    from baselines.finetune.train import prediction_record

    started, out = time.perf_counter(), Path(out)
    started_at = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    log = log or (lambda line: print(line, flush=True))
    machine, sets = cpu_name(), None
    for ft in fine_tunes:
        path = restart_path(out, ft.seed)
        if _done(path, ft.source):
            continue
        if sets is None:
            sets = get_task(spec.task).eval_sets(spec)
        texts = list(dict.fromkeys(i.text for items in sets.values() for i in items))
        tick = time.perf_counter()
        probs = dict(zip(texts, _predict_all(spec, ft.folder, texts, progress), strict=True))
        predictions = {
            name: [prediction_record(name, item, *probs[item.text]) for item in items]
            for name, items in sets.items()
        }
        trained = dataclasses.make_dataclass("Trained", _TRAINED)(
            **{k: ft.trained.get(k) for k in _TRAINED}
        )  # a cost not recorded (older files, the built-in minilm-cola) is None
        meta = restart_metadata(spec, ft.seed, trained, machine)
        meta["fine_tune"] = ft.source
        meta["eval_seconds"] = round(time.perf_counter() - tick, 3)
        out.mkdir(parents=True, exist_ok=True)
        from li_adger.io.atomic import atomic_write_text

        atomic_write_text(path, restart_text(meta, predictions))
        log(f"{out.name}: CoLA fine-tune {ft.folder} evaluated on {len(texts)} sentences")
    write_run_json(out, spec, machine, 1, time.perf_counter() - started, started_at,
                   extra={"fine_tunes": [ft.source for ft in fine_tunes]})  # fmt: skip
    return out
