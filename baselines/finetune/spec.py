"""One fine-tuning run described: :class:`FinetuneSpec`, checked before anything is loaded.

A run fine-tunes one encoder on one task several times (its *restarts*). Two kinds of restart:

- ``"restarts"``: each seed gives a new initialisation of the classifier head, a new order of
  the training data and new dropout (the thesis's Table 2.1);
- ``"orders"``: one initialisation (``init_seed``; its dropout too) for every restart, and
  each seed only reorders the training data (the thesis's §2.3, 200 orders of BERT).

The settings come from a named preset (``"thesis"``: the thesis's ``bert_training.py``: max
length 64, batch 20, 4 epochs, AdamW lr 2e-5, eps 1e-8, linear decay with no warm-up, no
weight decay); an option given explicitly overrides the preset's. ``gradient_accumulation_steps``
(default 1) is no preset's: with N, each optimizer step sums the gradients of N batches, an
effective batch of ``N × batch_size`` in the memory of one batch.

Examples
--------
>>> spec = FinetuneSpec(seeds=(0, 1, 2))
>>> spec.epochs, spec.batch_size, spec.lr, spec.max_length, spec.adam_eps, spec.warmup_ratio
(4, 20, 2e-05, 64, 1e-08, 0.0)
>>> spec.seed_pair(2)
(2, 2)
>>> FinetuneSpec(restart_kind="orders", seeds=(5, 6), init_seed=3).seed_pair(6)
(3, 6)
>>> FinetuneSpec(epochs=1).epochs
1
>>> FinetuneSpec(restart_kind="order")
Traceback (most recent call last):
...
ValueError: restart_kind must be 'restarts' or 'orders' (got 'order')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DEFAULT_MODEL",
    "GROUPINGS",
    "LATER_SETTINGS",
    "PRECISIONS",
    "PRESETS",
    "RESTART_KINDS",
    "FinetuneSpec",
    "complete_settings",
]

DEFAULT_MODEL = "minilm"
"""The packaged all-MiniLM-L6-v2 encoder (:func:`baselines.packaged.packaged_encoder_path`)."""

RESTART_KINDS: tuple[str, ...] = ("restarts", "orders")
GROUPINGS: tuple[str, ...] = ("length", "pad64")
PRECISIONS: tuple[str, ...] = ("auto", "fp32", "fp16", "bf16")

PRESETS: dict[str, dict[str, Any]] = {
    "thesis": {
        "epochs": 4,
        "batch_size": 20,
        "lr": 2e-5,
        "max_length": 64,
        "adam_eps": 1e-8,
        "weight_decay": 0.0,
        "warmup_ratio": 0.0,
    },
    # the settings minilm-cola was first trained with (baselines.models.cola_train)
    "minilm-cola": {
        "epochs": 3,
        "batch_size": 32,
        "lr": 5e-5,
        "max_length": 128,
        "adam_eps": 1e-8,
        "weight_decay": 0.01,
        "warmup_ratio": 0.1,
    },
}


LATER_SETTINGS: dict[str, Any] = {"gradient_accumulation_steps": 1}
"""Settings added after runs were first recorded, with the value those runs trained with."""


def complete_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """A restart file's recorded ``settings`` with the settings added since filled in with the
    value the file's run trained with (:data:`LATER_SETTINGS`), so an older file compares
    equal to the settings of a spec that trains the same way.

    Examples
    --------
    >>> old = {"epochs": 3}
    >>> complete_settings(old)
    {'gradient_accumulation_steps': 1, 'epochs': 3}
    >>> complete_settings({"epochs": 3, "gradient_accumulation_steps": 2})
    {'gradient_accumulation_steps': 2, 'epochs': 3}
    """
    return {**LATER_SETTINGS, **settings}


def _seeds(value: Any) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ValueError(f"seeds must be a sequence of whole numbers (got {value!r})")
    seeds = tuple(value)
    if not seeds:
        raise ValueError("seeds must name at least one seed (got ())")
    for s in seeds:
        if isinstance(s, bool) or not isinstance(s, int) or s < 0:
            raise ValueError(f"seeds must be whole numbers >= 0 (got {s!r} in {seeds})")
    if len(set(seeds)) != len(seeds):
        twice = sorted({s for s in seeds if seeds.count(s) > 1})
        raise ValueError(f"seeds must not repeat (got {twice[0]} twice)")
    return seeds


def _whole(name: str, value: Any, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{name} must be a whole number >= {least} (got {value!r})")


@dataclass(frozen=True)
class FinetuneSpec:
    """One run: the encoder, the task, the kind of restart, its seeds and the training settings.

    ``model`` is a Hugging Face Hub name or a local folder (``"minilm"``: the packaged
    all-MiniLM-L6-v2). ``epochs``, ``batch_size``, ``lr``, ``max_length``, ``adam_eps``,
    ``weight_decay`` and ``warmup_ratio`` left ``None`` take the preset's value.
    ``gradient_accumulation_steps`` batches make one optimizer step (default 1). ``grouping``
    is ``"length"`` (batches of similar length, each padded to its longest) or ``"pad64"`` (random
    batches, each padded to ``max_length``, as the thesis did). ``train_cap`` keeps only the
    first N training sentences (``None``: all); ``eval_cap`` likewise the first N items of
    each evaluation group a task defines (the NPI task: of each environment's test sentences). Every option is checked here, before anything
    is loaded, with a message naming it.

    Examples
    --------
    >>> FinetuneSpec(seeds=(1, 1))
    Traceback (most recent call last):
    ...
    ValueError: seeds must not repeat (got 1 twice)
    >>> FinetuneSpec(preset="glue")
    Traceback (most recent call last):
    ...
    ValueError: preset must be one of 'thesis', 'minilm-cola' (got 'glue')
    >>> FinetuneSpec(lr=0)
    Traceback (most recent call last):
    ...
    ValueError: lr must be a number > 0 (got 0)
    >>> FinetuneSpec.from_json(FinetuneSpec(train_cap=100).to_json()).train_cap
    100
    >>> FinetuneSpec(batch_size=4, gradient_accumulation_steps=2).effective_batch_size
    8
    """

    model: str = DEFAULT_MODEL
    revision: str | None = None
    task: str = "cola"
    configuration: str = "cola"
    restart_kind: str = "restarts"
    seeds: tuple[int, ...] = (0, 1, 2)
    init_seed: int = 0
    preset: str = "thesis"
    epochs: int | None = None
    batch_size: int | None = None
    lr: float | None = None
    max_length: int | None = None
    adam_eps: float | None = None
    weight_decay: float | None = None
    warmup_ratio: float | None = None
    gradient_accumulation_steps: int = 1
    grouping: str = "length"
    train_cap: int | None = None
    eval_cap: int | None = None
    device: str = "auto"
    precision: str = "auto"

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError(f"model must be a Hub name or a local folder (got {self.model!r})")
        if self.revision is not None and (not isinstance(self.revision, str) or not self.revision):
            raise ValueError(f"revision must be a branch, tag or commit (got {self.revision!r})")
        for name in ("task", "configuration"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise ValueError(f"{name} must be a non-empty name (got {value!r})")
        if self.restart_kind not in RESTART_KINDS:
            raise ValueError(
                f"restart_kind must be 'restarts' or 'orders' (got {self.restart_kind!r})"
            )
        object.__setattr__(self, "seeds", _seeds(self.seeds))
        _whole("init_seed", self.init_seed, 0)
        if self.preset not in PRESETS:
            names = ", ".join(repr(p) for p in PRESETS)
            raise ValueError(f"preset must be one of {names} (got {self.preset!r})")
        for name, default in PRESETS[self.preset].items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, default)
        _whole("epochs", self.epochs, 1)
        _whole("batch_size", self.batch_size, 1)
        _whole("max_length", self.max_length, 2)
        _whole("gradient_accumulation_steps", self.gradient_accumulation_steps, 1)
        for name in ("lr", "adam_eps"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"{name} must be a number > 0 (got {value!r})")
        for name, top in (("weight_decay", float("inf")), ("warmup_ratio", 1.0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{name} must be a number (got {value!r})")
            if not 0 <= value <= top:
                raise ValueError(f"{name} must be between 0 and {top} (got {value!r})")
        if self.grouping not in GROUPINGS:
            raise ValueError(f"grouping must be 'length' or 'pad64' (got {self.grouping!r})")
        if self.train_cap is not None:
            _whole("train_cap", self.train_cap, 1)
        if self.eval_cap is not None:
            _whole("eval_cap", self.eval_cap, 1)
        if not isinstance(self.device, str) or not (
            self.device in ("auto", "cpu", "cuda") or self.device.startswith("cuda:")
        ):
            raise ValueError(f"device must be 'auto', 'cpu' or 'cuda[:N]' (got {self.device!r})")
        if self.precision not in PRECISIONS:
            names = ", ".join(repr(p) for p in PRECISIONS)
            raise ValueError(f"precision must be one of {names} (got {self.precision!r})")

    @property
    def effective_batch_size(self) -> int:
        """Training sentences per optimizer step: ``batch_size × gradient_accumulation_steps``
        (the last step of an epoch may have fewer)."""
        assert self.batch_size is not None  # the preset filled it in
        return self.batch_size * self.gradient_accumulation_steps

    def seed_pair(self, seed: int) -> tuple[int, int]:
        """``(init_seed, data_seed)`` of the restart ``seed``: both ``seed`` for ``restarts``,
        ``(self.init_seed, seed)`` for ``orders``."""
        if seed not in self.seeds:
            raise ValueError(f"seed {seed} is not one of the run's seeds {self.seeds}")
        return (seed, seed) if self.restart_kind == "restarts" else (self.init_seed, seed)

    def to_json(self) -> dict[str, Any]:
        """The spec as JSON-ready values (``seeds`` a list), as ``run.json`` holds it."""
        out = dataclasses.asdict(self)
        out["seeds"] = list(self.seeds)
        return out

    @classmethod
    def from_json(cls, payload: dict[str, Any]) -> FinetuneSpec:
        """The spec back from :meth:`to_json`; an unknown key is an error naming it."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(payload) - names)
        if unknown:
            raise ValueError(f"unknown fine-tuning option {unknown[0]!r} in the run's spec")
        return cls(**{**payload, "seeds": tuple(payload.get("seeds", ()))})

    def training_settings(self) -> dict[str, Any]:
        """What a restart's result depends on besides its seeds (the resume check compares it)."""
        out = self.to_json()
        for name in ("seeds", "device"):
            out.pop(name)
        return out
