"""Fine-tuning an encoder on CoLA: several seeds, the checkpoint chosen by dev-set MCC.

Each seed is one restart of :func:`baselines.finetune.train.finetune_once` (``transformers.Trainer``);
a Trainer callback evaluates every epoch.

Each seed fixes both the classifier head's initialisation and the order of the training
examples (and dropout), all drawn from a private random stream: the caller's global torch
random state is left untouched. After every epoch the model is evaluated on the selection set
(CoLA's out-of-domain dev set by default). Each seed's best epoch is kept in
``out_dir/seed-<seed>``; the best of them is copied to ``out_dir/best`` with ``report.json`` and,
last, its manifest (:mod:`baselines.models.manifest`).
Progress is saved after each seed, so an interrupted run resumes at the first unfinished seed
(a seed's result does not depend on the other seeds, so adding seeds reuses finished ones).

Examples
--------
>>> matthews_corrcoef([1, 1, 0, 0], [1, 0, 0, 0])
0.5773502691896258
"""

from __future__ import annotations

import json
import math
import os
import shutil
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from baselines.models.cola_data import read_cola
from baselines.models.manifest import write_manifest
from li_adger.io.atomic import atomic_dir, atomic_write_text
from metric_adc.classification import mcc

LABELS = {0: "unacceptable", 1: "acceptable"}


def matthews_corrcoef(y_true: Sequence[int], y_pred: Sequence[int]) -> float:
    """Matthews correlation coefficient of binary labels.

    When a row or column of the confusion matrix is empty (e.g. every prediction is the same
    class) the coefficient is undefined; this returns 0.0, as scikit-learn does.

    Examples
    --------
    >>> matthews_corrcoef([1, 0, 1, 0], [1, 0, 1, 0])
    1.0
    >>> matthews_corrcoef([1, 0, 1, 0], [1, 1, 1, 1])
    0.0
    >>> matthews_corrcoef([1, 0], [1])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred must have the same length (got 2 and 1)
    """
    if len(y_true) != len(y_pred):
        raise ValueError(
            f"y_true and y_pred must have the same length (got {len(y_true)} and {len(y_pred)})"
        )
    tp = sum(1 for t, p in zip(y_true, y_pred, strict=True) if t and p)
    tn = sum(1 for t, p in zip(y_true, y_pred, strict=True) if not t and not p)
    fp = sum(1 for t, p in zip(y_true, y_pred, strict=True) if not t and p)
    fn = sum(1 for t, p in zip(y_true, y_pred, strict=True) if t and not p)
    denominator = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return 0.0 if denominator == 0 else (tp * tn - fp * fn) / denominator


@dataclass(frozen=True)
class EpochResult:
    """Selection-set figures after one epoch of one seed."""

    seed: int
    epoch: int
    dev_mcc: float
    dev_accuracy: float
    train_loss: float
    seconds: float
    extra_mcc: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class FinetuneResult:
    """The chosen checkpoint and the full history it was chosen from."""

    best_path: Path
    best: EpochResult
    history: tuple[EpochResult, ...]
    settings: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable report.

        Examples
        --------
        >>> r = EpochResult(seed=0, epoch=1, dev_mcc=0.2, dev_accuracy=0.7, train_loss=0.6,
        ...                 seconds=1.0)
        >>> FinetuneResult(Path("m"), r, (r,), {}).to_dict()["best"]["dev_mcc"]
        0.2
        """
        return {
            "best_path": str(self.best_path),
            "best": asdict(self.best),
            "history": [asdict(h) for h in self.history],
            "settings": self.settings,
        }


def select_best(history: Sequence[EpochResult]) -> EpochResult:
    """The epoch with the highest selection MCC; ties go to the earliest (seed order, epoch).

    Examples
    --------
    >>> a = EpochResult(0, 1, 0.1, 0.6, 0.7, 1.0)
    >>> b = EpochResult(0, 2, 0.3, 0.7, 0.5, 1.0)
    >>> c = EpochResult(1, 1, 0.3, 0.7, 0.5, 1.0)
    >>> select_best([a, b, c]).epoch, select_best([a, b, c]).seed
    (2, 0)
    """
    if not history:
        raise ValueError("history is empty: no epoch was evaluated")
    best = history[0]
    for h in history[1:]:
        if h.dev_mcc > best.dev_mcc:
            best = h
    return best


def _write_json(path: Path, payload: Any) -> None:
    atomic_write_text(path, json.dumps(payload, indent=2))


def predict_labels(
    model: Any, tokenizer: Any, sentences: Sequence[str], *, batch_size: int, device: Any
) -> list[int]:
    """Argmax labels of a sequence classifier (no gradient, eval mode, length-sorted batches)."""
    import torch

    model.eval()
    order = sorted(range(len(sentences)), key=lambda i: len(sentences[i]))
    predictions = [0] * len(sentences)
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            batch = tokenizer([sentences[i] for i in idx], padding=True, return_tensors="pt")
            logits = model(**{k: v.to(device) for k, v in batch.items()}).logits
            for i, label in zip(idx, logits.argmax(-1).tolist(), strict=True):
                predictions[i] = int(label)
    return predictions


class _EpochSelection:
    """A Trainer callback: after each epoch, the selection set's MCC (and the extra sets'); the
    seed's best epoch so far is saved to ``out/seed-<seed>``. Built lazily (transformers)."""

    def __new__(cls, **kwargs: Any) -> Any:
        from transformers import TrainerCallback

        class Selection(TrainerCallback):
            def __init__(self, *, seed, dev, extra, out, tokenizer, progress) -> None:
                self.seed, self.dev, self.extra, self.out = seed, dev, extra, out
                self.tokenizer, self.progress = tokenizer, progress
                self.history: list[EpochResult] = []
                self.best = -math.inf
                self.started = time.perf_counter()
                self.pending: tuple[Any, int] | None = None

            def on_epoch_end(self, args, state, control, model=None, **kwargs):
                device = next(model.parameters()).device
                dev_x, dev_y = self.dev
                predictions = predict_labels(
                    model, self.tokenizer, dev_x, batch_size=128, device=device
                )
                extra_mcc = {
                    name: mcc(y, predict_labels(model, self.tokenizer, x, batch_size=128,
                                                device=device))
                    for name, (x, y) in self.extra.items()
                }  # fmt: skip
                model.train()
                epoch = len(self.history) + 1
                result = EpochResult(
                    seed=self.seed,
                    epoch=epoch,
                    dev_mcc=mcc(dev_y, predictions),
                    dev_accuracy=sum(int(p == y) for p, y in zip(predictions, dev_y, strict=True))
                    / len(dev_y),
                    train_loss=math.nan,  # the Trainer logs it next (on_log)
                    seconds=time.perf_counter() - self.started,
                    extra_mcc=extra_mcc,
                )
                self.history.append(result)
                self.started = time.perf_counter()
                if result.dev_mcc > self.best:
                    self.best = result.dev_mcc
                    with atomic_dir(self.out / f"seed-{self.seed}") as staging:
                        model.save_pretrained(staging)
                        self.tokenizer.save_pretrained(staging)
                        self.pending = (staging / "checkpoint.json", epoch)
                        _write_json(staging / "checkpoint.json", asdict(result))
                return control

            def on_log(self, args, state, control, logs=None, **kwargs):
                if logs and "loss" in logs and self.history:
                    last = self.history[-1]
                    if math.isnan(last.train_loss):
                        self.history[-1] = replace(last, train_loss=float(logs["loss"]))
                        self._rewrite_checkpoint(self.history[-1])
                        if self.progress:
                            h = self.history[-1]
                            print(f"seed {h.seed} epoch {h.epoch}: dev MCC {h.dev_mcc:.4f}, "
                                  f"accuracy {h.dev_accuracy:.4f}, loss {h.train_loss:.4f}",
                                  flush=True)  # fmt: skip
                return control

            def _rewrite_checkpoint(self, result: EpochResult) -> None:
                path = self.out / f"seed-{self.seed}" / "checkpoint.json"
                if path.is_file():
                    saved = json.loads(path.read_text(encoding="utf-8"))
                    if saved["epoch"] == result.epoch:
                        _write_json(path, asdict(result))

        return Selection(**kwargs)


def finetune(
    encoder_name_or_path: str,
    *,
    train_path: str | os.PathLike,
    dev_path: str | os.PathLike,
    out_dir: str | os.PathLike,
    seeds: Sequence[int] = (0, 1),
    epochs: int = 3,
    lr: float = 5e-5,
    batch_size: int = 32,
    weight_decay: float = 0.01,
    warmup_ratio: float = 0.1,
    max_length: int = 128,
    device: str = "auto",
    limit_train: int | None = None,
    extra_dev: Mapping[str, str | os.PathLike] | None = None,
    progress: bool = True,
) -> FinetuneResult:
    """Fine-tune ``encoder_name_or_path`` on CoLA for each seed; keep the best checkpoint.

    ``dev_path`` is the selection set (the thesis used CoLA's out-of-domain dev set);
    ``extra_dev`` maps names to further CoLA files whose MCC is reported but not used for
    selection. ``limit_train`` keeps only the first N training sentences (for quick checks).
    Each seed is one restart of :func:`baselines.finetune.train.finetune_once` (the
    ``"minilm-cola"`` preset of :mod:`baselines.finetune.spec`, length-grouped batches), its
    epochs evaluated by a Trainer callback.

    Examples
    --------
    >>> finetune("enc", train_path="t", dev_path="d", out_dir="o", seeds=())
    Traceback (most recent call last):
    ...
    ValueError: seeds must name at least one seed (got ())
    """
    if not seeds:
        raise ValueError(f"seeds must name at least one seed (got {tuple(seeds)})")
    if epochs < 1:
        raise ValueError(f"epochs must be >= 1 (got {epochs})")
    from transformers import AutoTokenizer

    from baselines.finetune.spec import FinetuneSpec
    from baselines.finetune.tasks import Example, Task
    from baselines.finetune.train import finetune_once

    spec = FinetuneSpec(
        model=str(encoder_name_or_path),
        restart_kind="restarts",
        seeds=tuple(seeds),
        preset="minilm-cola",
        epochs=epochs,
        batch_size=batch_size,
        lr=lr,
        max_length=max_length,
        weight_decay=weight_decay,
        warmup_ratio=warmup_ratio,
        device=device,
    )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    train_x, train_y = read_cola(train_path)
    if limit_train is not None:
        train_x, train_y = train_x[:limit_train], train_y[:limit_train]
    examples = [Example(x, y) for x, y in zip(train_x, train_y, strict=True)]
    dev = read_cola(dev_path)
    extra = {name: read_cola(p) for name, p in (extra_dev or {}).items()}
    tokenizer = AutoTokenizer.from_pretrained(encoder_name_or_path)
    settings = {
        "encoder": str(encoder_name_or_path),
        "train_path": str(train_path),
        "dev_path": str(dev_path),
        "train_sentences": len(train_x),
        "seeds": list(seeds),
        "epochs": epochs,
        "lr": lr,
        "batch_size": batch_size,
        "weight_decay": weight_decay,
        "warmup_ratio": warmup_ratio,
        "max_length": max_length,
        "grouping": spec.grouping,
        "trainer": "transformers.Trainer",
        "selection": "highest dev MCC over seeds and epochs",
    }
    progress_file = out / "progress.json"
    history: list[EpochResult] = []
    done_seeds: set[int] = set()
    if progress_file.is_file():
        saved = json.loads(progress_file.read_text(encoding="utf-8"))
        # a seed's result does not depend on which other seeds are run
        same = {k: v for k, v in settings.items() if k != "seeds"}
        if {k: v for k, v in saved.get("settings", {}).items() if k != "seeds"} == same:
            done_seeds = set(saved["done_seeds"]) & set(seeds)
            history = [EpochResult(**h) for h in saved["history"] if h["seed"] in done_seeds]

    task = Task("cola-files", lambda _: examples, lambda _: {})
    for seed in seeds:
        if seed in done_seeds:
            continue
        selection = _EpochSelection(
            seed=seed, dev=dev, extra=extra, out=out, tokenizer=tokenizer, progress=progress
        )
        import torch

        with torch.random.fork_rng(devices=[]):  # the caller's random state is left as it was
            finetune_once(spec, task, seed=seed, data_seed=seed, train_set=examples,
                          eval_sets={}, progress=progress, callbacks=[selection],
                          work_dir=out)  # fmt: skip
        history.extend(selection.history)
        done_seeds.add(seed)
        _write_json(
            progress_file,
            {
                "settings": settings,
                "history": [asdict(h) for h in history],
                "done_seeds": sorted(done_seeds),
            },
        )

    best = select_best(history)
    with atomic_dir(out / "best") as staging:
        shutil.copytree(out / f"seed-{best.seed}", staging, dirs_exist_ok=True)
    result = FinetuneResult(out / "best", best, tuple(history), settings)
    _write_json(out / "best" / "report.json", result.to_dict())
    write_manifest(out / "best")  # last: the checkpoint is complete
    _write_json(out / "report.json", result.to_dict())
    return result
