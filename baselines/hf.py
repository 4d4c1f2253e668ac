"""What the neural scorers share about Hugging Face models: input limits and library versions.

Examples
--------
>>> from types import SimpleNamespace as NS
>>> max_sequence_length(NS(model_type="gpt2", n_positions=1024))
1024
>>> sorted(library_versions())
['torch', 'transformers']
"""

from __future__ import annotations

from typing import Any

__all__ = ["library_versions", "max_sequence_length"]

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
