"""How results name a scores file: its model, variant and scoring convention.

:func:`row_label` is the one name a scores file's results carry (``report``, ``reproduce``,
``summary``, the Space); :func:`convention_of` the scoring convention a row names.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["convention_of", "row_label"]


def convention_of(metadata: Mapping) -> str | None:
    """The scoring convention a row names, from a scores file's metadata: its ``convention``
    (a causal LM's: ``"default"`` or ``"harness"``), else its ``variant`` (``"slor"``,
    ``"signed-confidence"``, …), else ``None``.

    Examples
    --------
    >>> convention_of({"model": "smollm2", "variant": "logprob", "convention": "harness"})
    'harness'
    >>> convention_of({"model": "trigram", "variant": "slor"}), convention_of({})
    ('slor', None)
    """
    value = metadata.get("convention") or metadata.get("variant")
    return None if value is None else str(value)


def row_label(metadata: Mapping) -> str:
    """How a row names the model of a scores file: ``"<model> (<variant>, <convention>)"``,
    each part shown once and only when the metadata has it (``"unnamed"`` without a model).

    Examples
    --------
    >>> row_label({"model": "smollm2", "variant": "logprob", "convention": "default"})
    'smollm2 (logprob, default)'
    >>> row_label({"model": "trigram", "variant": "slor"}), row_label({})
    ('trigram (slor)', 'unnamed')
    >>> row_label({"model": "slor", "variant": "slor", "convention": "slor"})
    'slor (slor)'
    """
    parts = dict.fromkeys(str(metadata[k]) for k in ("variant", "convention") if metadata.get(k))
    model = str(metadata.get("model") or "unnamed")
    return f"{model} ({', '.join(parts)})" if parts else model
