"""Names: a model's name on the page, made unique, the file name it is stored under, and what
its scores file's metadata says of it (its page, its size, its date)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from metric_adc.scores.file import ScoresFile
from metric_adc.scores.labels import row_label

__all__ = [
    "identity",
    "model_date",
    "model_link",
    "model_name",
    "model_parameters",
    "slug",
    "unique_name",
]


def slug(name: str) -> str:
    """A file name for a model name: lowercase letters, digits, ``-`` and ``.``.

    Examples
    --------
    >>> slug("trigram (slor)"), slug("  My model #2 "), slug("(((")
    ('trigram-slor', 'my-model-2', 'model')
    """
    text = re.sub(r"[^a-z0-9.]+", "-", name.lower()).strip("-.")
    return text or "model"


def model_name(sf: ScoresFile, fallback: str) -> str:
    """A display name for a scores file: the reports' row label of its metadata (model,
    variant, convention: :func:`metric_adc.scores.labels.row_label`), else ``fallback``.

    Examples
    --------
    >>> import numpy as np
    >>> model_name(ScoresFile({"model": "gpt2", "variant": "slor"}, [], np.array([])), "f")
    'gpt2 (slor)'
    >>> meta = {"model": "smollm2", "variant": "logprob", "convention": "default"}
    >>> model_name(ScoresFile(meta, [], np.array([])), "f")
    'smollm2 (logprob, default)'
    >>> model_name(ScoresFile({}, [], np.array([])), "my_scores")
    'my_scores'
    """
    if not str(sf.metadata.get("model") or "").strip():
        return fallback
    return row_label(sf.metadata)


def identity(sf: ScoresFile, fallback: str, name: str | None = None) -> dict:
    """What tells a scores file's result apart from another's
    (:func:`metric_adc.scores.labels.check_distinct`): its metadata, with the model it is shown
    as: ``name`` when the user gave one, else the metadata's ``model``, else ``fallback`` (the
    file's name, as :func:`model_name` falls back to it).

    Examples
    --------
    >>> import numpy as np
    >>> identity(ScoresFile({"model": "gpt2", "variant": "slor"}, [], np.array([])), "f")
    {'model': 'gpt2', 'variant': 'slor'}
    >>> identity(ScoresFile({"source_format": "csv"}, [], np.array([])), "mine")
    {'source_format': 'csv', 'model': 'mine'}
    >>> identity(ScoresFile({"model": "gpt2"}, [], np.array([])), "f", name=" my run ")
    {'model': 'my run'}
    """
    model = (name or "").strip() or str(sf.metadata.get("model") or "").strip() or fallback
    return {**sf.metadata, "model": model}


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name``, or ``name #2``, ``name #3`` … if it is already taken.

    Examples
    --------
    >>> unique_name("gpt2", {"gpt2", "gpt2 #2"}), unique_name("bert", {"gpt2"})
    ('gpt2 #3', 'bert')
    """
    if name not in taken:
        return name
    k = 2
    while f"{name} #{k}" in taken:
        k += 1
    return f"{name} #{k}"


_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*(/[\w.-]+)?$")


def model_link(metadata: Mapping | None) -> str | None:
    """The page of the model a scores file names: its Hub repository at the recorded
    revision (``baselines`` records a revision for a model loaded from the Hub only), else
    ``None`` (a local folder, or no revision).

    Examples
    --------
    >>> model_link({"model": "openai-community/gpt2", "revision": "607a30d"})
    'https://huggingface.co/openai-community/gpt2/tree/607a30d'
    >>> model_link({"model": "/models/mine", "revision": "x"}), model_link({"model": "gpt2"})
    (None, None)
    """
    meta = metadata or {}
    model, revision = str(meta.get("model") or ""), str(meta.get("revision") or "")
    if not revision or not _HUB_ID.match(model) or model.startswith("."):
        return None
    return f"https://huggingface.co/{model}/tree/{revision}"


def model_parameters(metadata: Mapping | None) -> int | None:
    """The model's number of parameters, when its metadata records one.

    Examples
    --------
    >>> model_parameters({"parameters": 124439808}), model_parameters({}), model_parameters(None)
    (124439808, None, None)
    """
    value = (metadata or {}).get("parameters")
    return int(value) if isinstance(value, int | float) and value > 0 else None


def model_date(metadata: Mapping | None) -> str | None:
    """The day a scores file was written (its metadata's ``created``), as YYYY-MM-DD.

    Examples
    --------
    >>> model_date({"created": "2026-11-23T22:40:25Z"}), model_date({})
    ('2026-11-23', None)
    """
    created = str((metadata or {}).get("created") or "")
    return created[:10] if re.match(r"^\d{4}-\d{2}-\d{2}", created) else None
