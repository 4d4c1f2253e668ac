"""How results name a scores file: its model, variant, scoring convention and unigram source.

:func:`row_label` is the one name a scores file's results carry (``report``, ``reproduce``,
``summary``, the Space); :func:`convention` the scoring convention a file was scored with (a
missing one reads as ``"default"``), :func:`convention_of` the one a row names, and
:func:`check_distinct` refuses two files that would share a row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = [
    "CONVENTION_KINDS",
    "DEFAULT_CONVENTION",
    "DEFAULT_UNIGRAM_SOURCE",
    "DuplicateResultError",
    "check_distinct",
    "convention",
    "convention_of",
    "row_label",
    "unigram_source",
]

DEFAULT_CONVENTION = "default"
"""The scoring convention of a file that names none: the scorer's documented default."""

CONVENTION_KINDS = frozenset({"causal"})
"""Scorer kinds that have a scoring convention (a causal LM's: which context token, which
spacing); a file of such a kind without ``convention`` reads as :data:`DEFAULT_CONVENTION`."""

DEFAULT_UNIGRAM_SOURCE = "wordfreq"
"""The unigram source of a linking function (SLOR, NormLP, fitted) that names none; another
source changes the numbers, so the label names it."""

_NOT_IDENTIFYING = ("created", "versions")
"""Metadata fields that never tell two results apart (:func:`check_distinct`)."""


def convention(metadata: Mapping) -> str | None:
    """The scoring convention a scores file was scored with: its ``convention``; when it names
    none, :data:`DEFAULT_CONVENTION` for a kind of :data:`CONVENTION_KINDS`, else ``None`` (a
    trigram, a masked LM, a classifier, a file that names no kind).

    Examples
    --------
    >>> convention({"model": "smollm2", "kind": "causal"})
    'default'
    >>> convention({"model": "smollm2", "variant": "logprob"}) is None  # no kind: not known
    True
    >>> convention({"model": "smollm2", "convention": "harness"})
    'harness'
    >>> convention({"model": "trigram", "kind": "ngram", "variant": "slor"}), convention({})
    (None, None)
    """
    given = metadata.get("convention")
    if given:
        return str(given)
    return DEFAULT_CONVENTION if metadata.get("kind") in CONVENTION_KINDS else None


def convention_of(metadata: Mapping) -> str | None:
    """The scoring convention a row names, from a scores file's metadata: its
    :func:`convention`, else its ``variant`` (``"slor"``, ``"signed-confidence"``, …), else
    ``None``.

    Examples
    --------
    >>> convention_of({"model": "smollm2", "variant": "logprob", "convention": "harness"})
    'harness'
    >>> convention_of({"model": "smollm2", "kind": "causal", "variant": "logprob"})
    'default'
    >>> convention_of({"model": "trigram", "kind": "ngram", "variant": "slor"}), convention_of({})
    ('slor', None)
    """
    value = convention(metadata) or metadata.get("variant")
    return None if value is None else str(value)


def unigram_source(metadata: Mapping) -> str | None:
    """The unigram source of a linked scores file (``linking.unigram.source``, as
    ``python -m baselines score --variant slor --unigram …`` records it), ``None`` without one.

    Examples
    --------
    >>> unigram_source({"linking": {"unigram": {"source": "trigram"}}})
    'trigram'
    >>> unigram_source({"model": "m"}), unigram_source({"linking": "slor"})
    (None, None)
    """
    linking = metadata.get("linking")
    unigram = linking.get("unigram") if isinstance(linking, Mapping) else None
    source = unigram.get("source") if isinstance(unigram, Mapping) else None
    return None if source is None else str(source)


def row_label(metadata: Mapping) -> str:
    """How a row names the model of a scores file:
    ``"<model> (<variant>, <convention>, <source> unigrams)"``, each part shown once and only
    when it applies (``"unnamed"`` without a model): the convention is :func:`convention` (a
    missing one reads as ``default``), the unigram source is shown when it is not
    :data:`DEFAULT_UNIGRAM_SOURCE`, since it changes the numbers.

    Examples
    --------
    >>> row_label({"model": "smollm2", "variant": "logprob", "convention": "default"})
    'smollm2 (logprob, default)'
    >>> row_label({"model": "smollm2", "kind": "causal", "variant": "logprob"})
    'smollm2 (logprob, default)'
    >>> row_label({"model": "trigram", "kind": "ngram", "variant": "slor"}), row_label({})
    ('trigram (slor)', 'unnamed')
    >>> row_label({"model": "slor", "variant": "slor", "convention": "slor"})
    'slor (slor)'
    >>> row_label({"model": "smollm2", "kind": "causal", "variant": "slor",
    ...            "linking": {"unigram": {"source": "trigram"}}})
    'smollm2 (slor, default, trigram unigrams)'
    """
    parts = [str(metadata[k]) for k in ("variant",) if metadata.get(k)]
    if (conv := convention(metadata)) is not None:
        parts.append(conv)
    source = unigram_source(metadata)
    if source is not None and source != DEFAULT_UNIGRAM_SOURCE:
        parts.append(f"{source} unigrams")
    parts = list(dict.fromkeys(parts))
    model = str(metadata.get("model") or "unnamed")
    return f"{model} ({', '.join(parts)})" if parts else model


class DuplicateResultError(ValueError):
    """Two scores files would give one row's result on one benchmark
    (:func:`check_distinct`)."""


def _flat(metadata: Mapping, prefix: str = "") -> dict[str, object]:
    """Metadata as dotted field names → values (``linking.unigram.source``)."""
    out: dict[str, object] = {}
    for key, value in metadata.items():
        name = f"{prefix}{key}"
        if not prefix and key in _NOT_IDENTIFYING:
            continue
        if isinstance(value, Mapping):
            out.update(_flat(value, f"{name}."))
        else:
            out[name] = value
    return out


def _differences(a: Mapping, b: Mapping) -> list[str]:
    """The metadata fields two files differ in, as ``'field' (a / b)``; a missing convention
    is the default it reads as."""
    fa, fb = (_flat({**m, "convention": convention(m)}) for m in (a, b))
    out = []
    for key in sorted(set(fa) | set(fb)):
        if fa.get(key) != fb.get(key):
            out.append(f"{key!r} ({fa.get(key, 'absent')!r} / {fb.get(key, 'absent')!r})")
    return out


def check_distinct(
    files: Iterable[tuple[str, Mapping, str]], *, advice: str = "give one of them"
) -> None:
    """Refuse two scores files that would give one row's result on one benchmark.

    ``files`` are ``(name, metadata, benchmark)``. Two files of one :func:`row_label` on one
    benchmark raise :class:`DuplicateResultError` naming both: as the same model, convention,
    variant and benchmark twice when their metadata differ in nothing but ``created`` and
    ``versions``, else saying which fields differ (the label would hide them); ``advice`` ends
    the message.

    Examples
    --------
    >>> a = {"model": "m", "kind": "causal", "variant": "logprob"}
    >>> check_distinct([("a.jsonl", a, "npi"), ("b.jsonl", a, "blimp")])
    >>> check_distinct([("a.jsonl", a, "npi"), ("b.jsonl", {**a, "convention": "default"}, "npi")])
    Traceback (most recent call last):
    ...
    metric_adc.scores.labels.DuplicateResultError: a.jsonl and b.jsonl both give 'm (logprob, default)' on 'npi' (the same model, convention, variant and benchmark twice); give one of them
    >>> check_distinct([("a.jsonl", a, "npi"), ("b.jsonl", {**a, "precision": "bf16"}, "npi")])
    Traceback (most recent call last):
    ...
    metric_adc.scores.labels.DuplicateResultError: a.jsonl and b.jsonl would share the row 'm (logprob, default)' on 'npi', but their metadata differ in 'precision' ('absent' / 'bf16'); give the models distinct names (the metadata's 'model'), or give one of them
    """
    seen: dict[tuple[str, str], tuple[str, Mapping]] = {}
    for name, metadata, benchmark in files:
        key = (row_label(metadata), benchmark)
        if key not in seen:
            seen[key] = (name, metadata)
            continue
        first, before = seen[key]
        differ = _differences(before, metadata)
        if not differ:
            raise DuplicateResultError(
                f"{first} and {name} both give {key[0]!r} on {benchmark!r} (the same model, "
                f"convention, variant and benchmark twice); {advice}"
            )
        raise DuplicateResultError(
            f"{first} and {name} would share the row {key[0]!r} on {benchmark!r}, but their "
            f"metadata differ in {', '.join(differ)}; give the models distinct names (the "
            f"metadata's 'model'), or {advice}"
        )
