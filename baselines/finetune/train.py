"""One restart: fine-tune an encoder with ``transformers.Trainer``, then predict every set.

:func:`finetune_once` loads the encoder with a fresh two-label classification head drawn from
``seed``, trains it with :class:`transformers.Trainer` (AdamW, linear decay, the spec's warm-up,
mixed precision on a GPU as ``score`` chooses it: :func:`baselines.device.inference_dtype`),
on batches ordered by ``data_seed`` (:class:`baselines.finetune.batches.EpochBatches`), and
returns the label and both class probabilities of every item of the task's evaluation sets.
``seed`` also seeds dropout; the order depends on ``data_seed`` alone. Nothing global is left
changed but the torch random state, which Trainer seeds.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.finetune.spec import DEFAULT_MODEL, FinetuneSpec
from baselines.finetune.tasks import EvalItem, Example, Task
from baselines.hf import sorted_batches

__all__ = [
    "LABELS",
    "RestartResult",
    "finetune_once",
    "model_source",
    "predict",
    "prediction_record",
]

LABELS = {0: "unacceptable", 1: "acceptable"}


@dataclass(frozen=True)
class RestartResult:
    """What one restart produced: its seeds, its cost (``optimizer_steps``: the Trainer's,
    ``gradient_accumulation_steps`` batches each) and its predictions by evaluation set
    (records as :func:`prediction_record` makes them)."""

    seed: int
    data_seed: int
    train_sentences: int
    train_tokens: int
    train_seconds: float
    train_loss: float
    optimizer_steps: int
    predictions: dict[str, list[dict[str, Any]]]


def model_source(spec: FinetuneSpec) -> str:
    """The folder or Hub name ``from_pretrained`` loads (``"minilm"``: the packaged encoder)."""
    if spec.model == DEFAULT_MODEL:
        from baselines.packaged import packaged_encoder_path

        return str(packaged_encoder_path())
    return spec.model


def prediction_record(
    set_name: str, item: EvalItem, p_unacceptable: float, p_acceptable: float
) -> dict[str, Any]:
    """One line of a restart file: the item, the predicted label and both probabilities
    (rounded to 6 decimals; the label is the larger, ties to acceptable... never: argmax of the
    unrounded pair decides, here the larger of the two as given).

    Examples
    --------
    >>> prediction_record("li_adger", EvalItem("a.1", "Go.", None), 0.25, 0.75)
    {'set': 'li_adger', 'id': 'a.1', 'gold': None, 'prediction': 1, 'p_unacceptable': 0.25, 'p_acceptable': 0.75}
    """
    return {
        "set": set_name,
        "id": item.id,
        "gold": item.gold,
        "prediction": int(p_acceptable > p_unacceptable),
        "p_unacceptable": round(float(p_unacceptable), 6),
        "p_acceptable": round(float(p_acceptable), 6),
    }


def predict(
    model: Any,
    tokenizer: Any,
    texts: Sequence[str],
    *,
    max_length: int,
    batch_size: int = 128,
    dtype: Any = None,
) -> list[tuple[float, float]]:
    """``(p_unacceptable, p_acceptable)`` of each text (eval mode, no gradient, batches of
    similar length, softmax in float32; ``dtype`` autocasts on a GPU)."""
    import contextlib

    import torch

    model.eval()
    device = next(model.parameters()).device
    out: list[tuple[float, float]] = [(0.0, 0.0)] * len(texts)
    autocast = (
        torch.autocast(device.type, dtype=dtype)
        if dtype is not None and dtype != torch.float32
        else contextlib.nullcontext()
    )
    with torch.inference_mode(), autocast:
        for idx, batch in sorted_batches(
            tokenizer, texts, batch_size=batch_size, max_length=max_length
        ):
            logits = model(**{k: v.to(device) for k, v in batch.items()}).logits
            probs = torch.softmax(logits.float(), dim=-1).tolist()
            for i, (p0, p1) in zip(idx, probs, strict=True):
                out[i] = (p0, p1)
    return out


def _encode(tokenizer: Any, examples: Sequence[Example], max_length: int) -> list[dict[str, Any]]:
    encoded = tokenizer(
        [e.text for e in examples], truncation=True, max_length=max_length, padding=False
    )
    rows = []
    for k, example in enumerate(examples):
        row = {name: values[k] for name, values in encoded.items()}
        row["labels"] = int(example.label)
        rows.append(row)
    return rows


def _collator(tokenizer: Any, spec: FinetuneSpec):
    import torch

    padding = "longest" if spec.grouping == "length" else "max_length"

    def collate(rows: list[dict[str, Any]]) -> dict[str, Any]:
        labels = torch.tensor([r["labels"] for r in rows])
        features = [{k: v for k, v in r.items() if k != "labels"} for r in rows]
        batch = tokenizer.pad(
            features, padding=padding, max_length=spec.max_length, return_tensors="pt"
        )
        batch["labels"] = labels
        return dict(batch)

    return collate


def _precision_flags(device: Any, precision: str) -> dict[str, bool]:
    import torch

    from baselines.device import inference_dtype

    dtype = inference_dtype(device, precision)
    return {"bf16": dtype == torch.bfloat16, "fp16": dtype == torch.float16}


def finetune_once(
    spec: FinetuneSpec,
    task: Task,
    *,
    seed: int,
    data_seed: int,
    train_set: Sequence[Example] | None = None,
    eval_sets: dict[str, list[EvalItem]] | None = None,
    progress: bool = True,
    callbacks: Sequence[Any] = (),
    work_dir: str | Path | None = None,
    save_to: str | Path | None = None,
) -> RestartResult:
    """Fine-tune ``spec.model`` on ``task`` once (head and dropout from ``seed``, data order
    from ``data_seed``) and predict the task's evaluation sets.

    ``train_set`` and ``eval_sets`` default to the task's (pass them to read them once for many
    restarts). ``callbacks`` go to the Trainer (e.g. to evaluate after each epoch).
    ``save_to``, when given, is the folder the fine-tuned model and its tokenizer are saved to
    (atomically), e.g. for probing its representations later.
    """
    import torch
    from torch.utils.data import DataLoader
    from transformers import (
        AutoModelForSequenceClassification,
        AutoTokenizer,
        PrinterCallback,
        Trainer,
        TrainingArguments,
        set_seed,
    )

    from baselines.device import resolve_device
    from baselines.finetune.batches import EpochBatches

    train_set = list(task.train_set(spec) if train_set is None else train_set)
    eval_sets = task.eval_sets(spec) if eval_sets is None else eval_sets
    if not train_set:
        raise ValueError(f"task {task.name!r} gave no training sentences")
    device = resolve_device(spec.device)
    if device.type == "cuda" and device.index is not None:
        torch.cuda.set_device(device)  # the Trainer trains on the current "cuda" device
    source = model_source(spec)
    tokenizer = AutoTokenizer.from_pretrained(source, revision=spec.revision)
    rows = _encode(tokenizer, train_set, spec.max_length)
    lengths = [len(r["input_ids"]) for r in rows]
    batches = EpochBatches(lengths, spec.batch_size, seed=data_seed, grouping=spec.grouping)
    set_seed(seed)
    model = AutoModelForSequenceClassification.from_pretrained(
        source,
        revision=spec.revision,
        num_labels=2,
        id2label=LABELS,
        label2id={v: k for k, v in LABELS.items()},
    )
    accumulate = spec.gradient_accumulation_steps
    steps = -(-len(batches) // accumulate) * spec.epochs  # optimizer steps, as Trainer counts them
    flags = _precision_flags(device, spec.precision)

    class _Trainer(Trainer):
        def get_train_dataloader(self) -> DataLoader:
            return DataLoader(
                self.train_dataset, batch_sampler=batches, collate_fn=self.data_collator
            )

    with tempfile.TemporaryDirectory(dir=work_dir, prefix=".trainer-") as scratch:
        args = TrainingArguments(
            output_dir=scratch,
            per_device_train_batch_size=spec.batch_size,
            gradient_accumulation_steps=accumulate,
            num_train_epochs=spec.epochs,
            learning_rate=spec.lr,
            adam_epsilon=spec.adam_eps,
            weight_decay=spec.weight_decay,
            lr_scheduler_type="linear",
            warmup_steps=int(spec.warmup_ratio * steps),
            max_grad_norm=1.0,
            seed=seed,
            data_seed=data_seed,
            use_cpu=device.type == "cpu",
            save_strategy="no",
            eval_strategy="no",
            logging_strategy="epoch",
            report_to="none",
            disable_tqdm=not progress,
            dataloader_num_workers=0,
            remove_unused_columns=False,
            **flags,
        )
        trainer = _Trainer(
            model=model,
            args=args,
            train_dataset=rows,
            data_collator=_collator(tokenizer, spec),
            callbacks=list(callbacks),
        )
        if not progress:  # no per-run lines of figures either
            trainer.remove_callback(PrinterCallback)
        started = time.perf_counter()
        output = trainer.train()
        seconds = time.perf_counter() - started
    model = trainer.model
    if save_to is not None:
        from li_adger.io.atomic import atomic_dir

        with atomic_dir(save_to) as staging:
            model.save_pretrained(staging)
            tokenizer.save_pretrained(staging)
    dtype = torch.bfloat16 if flags["bf16"] else torch.float16 if flags["fp16"] else torch.float32
    texts = list(dict.fromkeys(i.text for items in eval_sets.values() for i in items))
    probs = dict(zip(texts, predict(model, tokenizer, texts, max_length=spec.max_length,
                                    dtype=dtype), strict=True))  # fmt: skip
    predictions = {
        name: [prediction_record(name, item, *probs[item.text]) for item in items]
        for name, items in eval_sets.items()
    }  # a sentence in several sets (CoLA's analysis set is its dev sets) is predicted once
    return RestartResult(
        seed=seed,
        data_seed=data_seed,
        train_sentences=len(train_set),
        train_tokens=sum(lengths) * spec.epochs,
        train_seconds=round(seconds, 3),
        train_loss=float(output.training_loss),
        optimizer_steps=int(output.global_step),
        predictions=predictions,
    )
