"""What the neural scorers share about Hugging Face models: loading one for inference, input
limits, revisions, parameter counts and library versions.

Examples
--------
>>> from types import SimpleNamespace as NS
>>> max_sequence_length(NS(model_type="gpt2", n_positions=1024))
1024
>>> sorted(library_versions())
['torch', 'transformers']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

__all__ = [
    "LoadOptions",
    "Pretrained",
    "hub_options",
    "library_versions",
    "load_pretrained",
    "max_sequence_length",
    "parameter_metadata",
    "revision_metadata",
    "sorted_batches",
]

# Config fields that bound the input length, in the order they are looked up.
_POSITION_FIELDS = ("max_position_embeddings", "n_positions", "n_ctx", "seq_length")
# Models whose absolute positions start after the padding index (positions = pad_id + 1 + i).
PADDING_OFFSET_POSITIONS = frozenset(
    {"roberta", "xlm-roberta", "camembert", "roberta-prelayernorm"}
)


def max_sequence_length(config: Any, tokenizer: Any = None) -> int | None:
    """The longest token sequence (special tokens included) the model accepts, or ``None``.

    The model's position embeddings bound it (the first of ``max_position_embeddings``,
    ``n_positions``, ``n_ctx``, ``seq_length`` the config sets, minus the padding offset of
    RoBERTa-style models); a tokenizer's ``model_max_length`` may lower it (values of a
    million or more mean "unset"). ``None`` when neither names a limit.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> max_sequence_length(NS(model_type="bert", max_position_embeddings=512),
    ...                     NS(model_max_length=int(1e30)))
    512
    >>> max_sequence_length(NS(model_type="roberta", max_position_embeddings=514, pad_token_id=1),
    ...                     NS(model_max_length=int(1e30)))
    512
    >>> max_sequence_length(NS(n_positions=1024), NS(model_max_length=128))
    128
    >>> max_sequence_length(NS()) is None
    True
    """
    limit = None
    for field in _POSITION_FIELDS:
        value = getattr(config, field, None)
        if isinstance(value, int) and value > 0:
            limit = value
            break
    if limit is not None and getattr(config, "model_type", None) in PADDING_OFFSET_POSITIONS:
        limit -= (getattr(config, "pad_token_id", None) or 0) + 1
    tokenizer_limit = getattr(tokenizer, "model_max_length", None)
    if isinstance(tokenizer_limit, int) and 0 < tokenizer_limit < 10**6:
        limit = tokenizer_limit if limit is None else min(limit, tokenizer_limit)
    return limit


def library_versions() -> dict[str, str]:
    """The versions of ``torch`` and ``transformers``, for a scores file's metadata.

    Examples
    --------
    >>> import torch, transformers
    >>> library_versions() == {"torch": torch.__version__, "transformers": transformers.__version__}
    True
    """
    from importlib.metadata import version

    return {"torch": version("torch"), "transformers": version("transformers")}


def hub_options(revision: str | None) -> dict[str, str]:
    """The keyword arguments of ``from_pretrained`` for a model ``revision`` (a branch, tag or
    commit on the Hub; ``None``: the default branch).

    Examples
    --------
    >>> hub_options("v1.0"), hub_options(None)
    ({'revision': 'v1.0'}, {})
    >>> hub_options("")
    Traceback (most recent call last):
    ...
    ValueError: revision must be a branch, tag or commit name (got '')
    """
    if revision is None:
        return {}
    if not isinstance(revision, str) or not revision.strip():
        raise ValueError(f"revision must be a branch, tag or commit name (got {revision!r})")
    return {"revision": revision}


def revision_metadata(config: Any, requested: str | None) -> dict[str, str]:
    """What a scores file records of the model's revision: the commit the weights were loaded
    from (the Hub's ``_commit_hash`` on the config), else the ``requested`` revision, else
    nothing (a local folder: the folder is the model).

    Examples
    --------
    >>> class Config:
    ...     _commit_hash = "3e56b06"
    >>> revision_metadata(Config(), "main"), revision_metadata(object(), "v1"), revision_metadata(object(), None)
    ({'revision': '3e56b06'}, {'revision': 'v1'}, {})
    """
    loaded = getattr(config, "_commit_hash", None) or requested
    return {"revision": str(loaded)} if loaded else {}


def parameter_metadata(model: Any) -> dict[str, int]:
    """What a scores file records of the model's size: its number of parameters (each tensor
    counted once, tied weights included once, as ``model.parameters()`` yields them).

    Examples
    --------
    >>> import torch
    >>> parameter_metadata(torch.nn.Linear(3, 2))
    {'parameters': 8}
    """
    return {"parameters": sum(p.numel() for p in model.parameters())}


class LoadOptions(TypedDict, total=False):
    """Where and how a neural scorer loads its model (keyword options of the scorers, passed to
    :func:`load_pretrained`): ``device`` (``"auto"``, ``"cpu"`` or ``"cuda[:N]"``; default
    ``"auto"``), ``precision`` (``"auto"`` — bf16/fp16 on a GPU, fp32 on a CPU — ``"fp32"``,
    ``"fp16"`` or ``"bf16"``; default ``"auto"``), ``revision`` (a Hugging Face model's branch,
    tag or commit; default ``None``, the default branch)."""

    device: str
    precision: str
    revision: str | None


@dataclass(frozen=True)
class Pretrained:
    """A model and its tokenizer loaded for inference: the model on ``device`` in ``dtype``
    and ``eval()`` mode, what the scores file records of its ``revision``
    (:func:`revision_metadata`) and its ``max_length`` (:func:`max_sequence_length`)."""

    model: Any
    tokenizer: Any
    device: Any
    dtype: Any
    revision: dict[str, str]
    max_length: int | None


def load_pretrained(
    auto_model: Any,
    source: str,
    *,
    device: str = "auto",
    precision: str = "auto",
    revision: str | None = None,
    check_tokenizer: Callable[[Any], None] | None = None,
    sdpa: bool = False,
) -> Pretrained:
    """Load the tokenizer and the model of ``source`` (a Hub name or a local folder) with the
    transformers class ``auto_model`` (e.g. ``AutoModelForMaskedLM``) for inference.

    ``device``, ``precision`` and ``revision`` are :class:`LoadOptions`. ``check_tokenizer``
    may refuse the tokenizer before the weights are read; with ``sdpa`` the model is asked for
    PyTorch's scaled-dot-product attention, and loaded with its default attention where its
    architecture does not support it.

    Examples
    --------
    >>> from transformers import AutoModel
    >>> from baselines.models.minilm import packaged_encoder_path
    >>> loaded = load_pretrained(AutoModel, str(packaged_encoder_path()), device="cpu")
    >>> loaded.dtype, loaded.model.training, loaded.max_length, loaded.revision
    (torch.float32, False, 512, {})
    >>> load_pretrained(AutoModel, "unread", precision="fp8")
    Traceback (most recent call last):
    ...
    ValueError: precision must be one of 'auto', 'fp32', 'fp16', 'bf16' (got 'fp8')
    """
    from transformers import AutoTokenizer

    from baselines.device import inference_dtype, resolve_device

    torch_device = resolve_device(device)
    dtype = inference_dtype(torch_device, precision)
    hub = hub_options(revision)
    tokenizer = AutoTokenizer.from_pretrained(source, **hub)
    if check_tokenizer is not None:
        check_tokenizer(tokenizer)
    model = None
    if sdpa:
        try:
            model = auto_model.from_pretrained(
                source, dtype=dtype, attn_implementation="sdpa", **hub
            )
        except (ValueError, ImportError):  # the architecture does not support SDPA
            model = None
    if model is None:
        model = auto_model.from_pretrained(source, dtype=dtype, **hub)
    return Pretrained(
        model=model.to(torch_device).eval(),
        tokenizer=tokenizer,
        device=torch_device,
        dtype=dtype,
        revision=revision_metadata(model.config, revision),
        max_length=max_sequence_length(model.config, tokenizer),
    )


def sorted_batches(
    tokenizer: Any, texts: Sequence[str], *, batch_size: int, max_length: int
) -> Iterator[tuple[list[int], Any]]:
    """``(positions, padded batch)`` over ``texts`` sorted by length (little padding), each
    truncated to ``max_length`` tokens; the positions say where each row's results go.

    Examples
    --------
    >>> tok = lambda texts, **kw: {"n": len(texts)}
    >>> [(idx, b["n"]) for idx, b in sorted_batches(tok, ["ccc", "a", "bb"], batch_size=2,
    ...                                              max_length=8)]
    [([1, 2], 2), ([0], 1)]
    """
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    for start in range(0, len(order), batch_size):
        idx = order[start : start + batch_size]
        batch = tokenizer(
            [texts[i] for i in idx],
            padding=True,
            truncation=True,
            max_length=max_length,
            return_tensors="pt",
        )
        yield idx, batch
