"""Linking functions side by side: one result row per linking function of one scores file.

A scores file written with ``--variant slor`` or ``normlp`` by a causal or masked LM
(:mod:`baselines.kinds.linked`) carries, per sentence, the model's log-probability ``logprob``, the
unigram log-probability ``unigram_logprob``, its length in words ``n_words`` and in model tokens
``n_tokens``. From those, :func:`linking_rows` computes the score of any linking function and
evaluates it like a scores file of its own (``python -m metric_adc report FILE --linking …``,
``reproduce --with FILE … --linking …``):

* ``logprob``, ``meanlp``, ``penlp``, ``normlp``, ``slor``: the formulas of
  :mod:`metric_adc.linking.formulas` on the sentence's totals. NormLP and SLOR take ``|s|`` and ``logPu``
  over words (the unigram model's units); MeanLP and PenLP take ``|s|`` in model tokens, as the
  scorer's own ``--variant meanlp``/``penlp`` do.
* ``fitted``: MORCELA's form with β, γ fitted to LI-Adger's human judgements by
  cross-validation over phenomena (:mod:`metric_adc.linking.fit`), ``|s|`` in words.

The rows are named ``"<model> (<linking>)"``.

Examples
--------
>>> import numpy as np
>>> sf = ScoresFile({"model": "m"}, ["a", "b"], np.array([0.0, 0.0]), fields={
...     "logprob": [-9.0, -8.0], "unigram_logprob": [-12.0, -10.0], "n_words": [3, 2],
...     "n_tokens": [4, 4]})
>>> has_linking_fields(sf), linking_scores(sf, "slor")[0]
(True, {'a': 1.0, 'b': 1.0})
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from metric_adc import core
from metric_adc.family.items import items_of
from metric_adc.linking.fit import DEFAULT_FOLDS, DEFAULT_SEED, CrossFit, cross_fit
from metric_adc.linking.formulas import LINKING_FUNCTIONS, LINKING_NAMES
from metric_adc.pairs import PairTable
from metric_adc.result_rows import AdcRow, evaluate_on_pairs
from metric_adc.scores.file import ScoresFile
from metric_adc.scores.labels import convention_of, row_label

__all__ = [
    "FITTED",
    "LINKING_CHOICES",
    "LINKING_FIELDS",
    "fitted_note",
    "has_linking_fields",
    "linked_metadata",
    "linking_rows",
    "linking_scores",
]

FITTED = "fitted"
"""The name of the fitted linking function (:mod:`metric_adc.linking.fit`)."""

LINKING_FIELDS: tuple[str, ...] = ("logprob", "unigram_logprob", "n_words")
"""The record fields a scores file needs for ``--linking``."""

_PER_TOKEN = ("meanlp", "penlp")  # |s| in model tokens; the others in words
LINKING_CHOICES: tuple[str, ...] = (*LINKING_NAMES, FITTED)
"""The values of ``--linking``."""


def has_linking_fields(sf: ScoresFile) -> bool:
    """Whether ``sf`` carries every field of :data:`LINKING_FIELDS`.

    Examples
    --------
    >>> import numpy as np
    >>> has_linking_fields(ScoresFile({}, ["a"], np.array([1.0])))
    False
    """
    return all(name in sf.fields for name in LINKING_FIELDS)


def linked_metadata(sf: ScoresFile, name: str) -> dict:
    """The metadata of the rows of linking function ``name`` computed from ``sf``: named as a
    file of that variant would be (:func:`~metric_adc.scores.labels.row_label`), its unigram
    source kept only when the function uses unigrams.

    Examples
    --------
    >>> import numpy as np
    >>> sf = ScoresFile({"model": "m", "kind": "causal", "variant": "slor",
    ...                  "linking": {"unigram": {"source": "trigram"}}}, ["a"], np.zeros(1))
    >>> row_label(linked_metadata(sf, "normlp")), row_label(linked_metadata(sf, "meanlp"))
    ('m (normlp, default, trigram unigrams)', 'm (meanlp, default)')
    """
    metadata = {**sf.metadata, "model": sf.model, "variant": name}
    if name != FITTED and not LINKING_FUNCTIONS[name].needs_unigrams:
        metadata.pop("linking", None)
    return metadata


def _field(sf: ScoresFile, name: str, linking: str) -> list:
    if name not in sf.fields:
        have = ", ".join(sorted(sf.fields)) or "none"
        raise ValueError(
            f"--linking {linking} needs the per-sentence field {name!r} in the scores file of "
            f"{sf.label} (its fields: {have}); score a causal or masked LM with --variant slor "
            "or normlp to write logprob, unigram_logprob, n_words and n_tokens"
        )
    return sf.fields[name]


_NEEDS = {
    "logprob": "a natural-log probability <= 0",
    "unigram_logprob": "a natural-log probability <= 0",
    "n_words": "a length >= 1",
    "n_tokens": "a length >= 1",
}


def _checked(sf: ScoresFile, field: str, linking: str) -> list:
    """The values of a linking field, each checked (:data:`_NEEDS`); a bad one raises naming
    the file, the record's line and id, and the field."""
    values = _field(sf, field, linking)
    for k, v in enumerate(values):
        bad = v < 1 if field.startswith("n_") else not v <= 0.0
        if bad:
            raise ValueError(
                f"{sf.where(k)}: --linking {linking} needs {field!r} to be {_NEEDS[field]} "
                f"(got {v!r})"
            )
    return values


def _sentence_facts() -> tuple[dict[str, float], dict[str, str]]:
    """LI-Adger's judgement and phenomenon of every sentence id (the benchmark's labels)."""
    labels = items_of("li_adger").labels
    ids = labels["id"].tolist()
    return (
        dict(zip(ids, labels["judgement"].tolist(), strict=True)),
        dict(zip(ids, labels["phenomenon"].tolist(), strict=True)),
    )


def _check_pairs_in_folds(pairs: PairTable, fold: Mapping[str, int]) -> None:
    """Raise if a pair's members fall in different folds (a fit would have seen one of them)."""
    for k, (good, bad) in enumerate(zip(pairs.good_ids, pairs.bad_ids, strict=True)):
        if good in fold and bad in fold and fold[good] != fold[bad]:
            raise ValueError(
                f"pair {k} ({good!r}, {bad!r}) has its members in folds {fold[good]} and "
                f"{fold[bad]}; the fitted linking needs both members of a pair in one phenomenon"
            )


def linking_scores(
    sf: ScoresFile,
    name: str,
    *,
    pairs: PairTable | None = None,
    k: int = DEFAULT_FOLDS,
    seed: int = DEFAULT_SEED,
) -> tuple[dict[str, float], CrossFit | None]:
    """Sentence id → score of linking function ``name`` from the fields of ``sf``, and the
    cross-fit when ``name`` is ``fitted`` (else ``None``).

    ``fitted`` is fitted to LI-Adger's judgements, with ``k`` folds of its phenomena dealt by
    ``seed``; every id must be an LI-Adger sentence, and every pair of ``pairs`` (when given)
    must have both members in one fold. A record whose field the function cannot take (a
    log-probability above 0, a length of 0) is a :class:`ValueError` naming the file, the
    record's line and id, and the field.

    Examples
    --------
    >>> import numpy as np
    >>> sf = ScoresFile({"model": "m"}, ["a", "b"], np.zeros(2), fields={
    ...     "logprob": [-9.0, -8.0], "unigram_logprob": [-12.0, -10.0], "n_words": [3, 2],
    ...     "n_tokens": [4, 4]})
    >>> linking_scores(sf, "slor")[0], linking_scores(sf, "meanlp")[0]
    ({'a': 1.0, 'b': 1.0}, {'a': -2.25, 'b': -2.0})
    >>> linking_scores(ScoresFile({}, ["a"], np.zeros(1), fields={"logprob": [-9.0],
    ...     "unigram_logprob": [-3.0], "n_words": [0]}), "slor")
    Traceback (most recent call last):
    ...
    ValueError: record 1 (id 'a'): --linking slor needs 'n_words' to be a length >= 1 (got 0)
    >>> linking_scores(sf, "morcela")
    Traceback (most recent call last):
    ...
    ValueError: --linking must be one of 'logprob', 'meanlp', 'penlp', 'normlp', 'slor', 'fitted' (got 'morcela')
    """
    if name not in LINKING_CHOICES:
        choices = ", ".join(repr(c) for c in LINKING_CHOICES)
        raise ValueError(f"--linking must be one of {choices} (got {name!r})")
    logprob = _checked(sf, "logprob", name)
    if name != FITTED:
        function = LINKING_FUNCTIONS[name]
        n = _checked(sf, "n_tokens" if name in _PER_TOKEN else "n_words", name)
        unigram = _checked(sf, "unigram_logprob", name) if function.needs_unigrams else None
        scores = {}
        for j, i in enumerate(sf.ids):
            uni = None if unigram is None else unigram[j]
            try:
                value = function.from_totals(logprob[j], n[j], uni)
            except ValueError as exc:  # normlp of a unigram log-probability of 0
                raise ValueError(f"{sf.where(j)}: --linking {name}: {exc}") from None
            if not math.isfinite(value):
                raise ValueError(
                    f"{sf.where(j)}: --linking {name} gives {value} (its fields are too far "
                    "apart for a float)"
                )
            scores[i] = value
        return scores, None
    unigram = _checked(sf, "unigram_logprob", name)
    n_words = _checked(sf, "n_words", name)
    judgements, phenomena = _sentence_facts()
    unknown = [i for i in sf.ids if i not in phenomena]
    if unknown:
        raise ValueError(
            f"--linking fitted is fitted to LI-Adger's judgements, but {len(unknown)} id(s) of "
            f"{sf.label} are not LI-Adger sentences, e.g. {unknown[0]!r}"
        )
    fit = cross_fit(
        logprob,
        unigram,
        n_words,
        [judgements[i] for i in sf.ids],
        [phenomena[i] for i in sf.ids],
        k=k,
        seed=seed,
    )
    if pairs is not None:
        _check_pairs_in_folds(pairs, dict(zip(sf.ids, fit.fold.tolist(), strict=True)))
    return dict(zip(sf.ids, fit.scores.tolist(), strict=True)), fit


def fitted_note(fit: CrossFit) -> str:
    """The caption of a fitted row: the form, the folds and seed, β/γ per fold.

    Examples
    --------
    >>> from metric_adc.linking.fit import FoldFit, MorcelaFit
    >>> fold = FoldFit(0, ("p",), 10, 5, MorcelaFit(0.5, -0.5, 7.5, 0.0))
    >>> import numpy as np
    >>> fitted_note(CrossFit(np.zeros(5), np.zeros(5, dtype=int), (fold,), 2, 0))
    '(logP − β·logPu + γ) / n_words, β, γ fitted by least squares to the human judgements of LI-Adger by 2-fold cross-validation over its phenomena (seed 0), each fold scored by the fit on the others; β/γ per fold: 1.00/15.0'
    """
    per_fold = ", ".join(f"{f.fit.beta:.2f}/{f.fit.gamma:.1f}" for f in fit.folds)
    return (
        "(logP − β·logPu + γ) / n_words, β, γ fitted by least squares to the human judgements "
        f"of LI-Adger by {fit.k}-fold cross-validation over its phenomena (seed {fit.seed}), "
        f"each fold scored by the fit on the others; β/γ per fold: {per_fold}"
    )


def _unigram_note(sf: ScoresFile) -> str:
    source = (sf.metadata.get("linking") or {}).get("unigram", {}).get("source", "unknown")
    return f"logPu and |s| over the words of the {source} unigram model (docs/linking.md)"


def linking_rows(
    sf: ScoresFile,
    pairs: PairTable,
    names: Sequence[str],
    *,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    k: int = DEFAULT_FOLDS,
    seed: int = DEFAULT_SEED,
) -> tuple[list[AdcRow], dict[str, CrossFit]]:
    """One result row (:func:`metric_adc.result_rows.evaluate_on_pairs`) per linking function of
    ``names``, computed from the fields of ``sf``, and how ``fitted`` was fitted
    (``{"fitted": CrossFit}`` when asked for, else ``{}``).

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c"], ["b", "d"],
    ...                               {"a": 1.0, "b": -1.0, "c": 0.5, "d": -0.5})
    >>> import numpy as np
    >>> sf = ScoresFile({"model": "m"}, ["a", "b", "c", "d"], np.zeros(4), fields={
    ...     "logprob": [-9.0, -8.0, -6.0, -7.0], "unigram_logprob": [-14.0, -10.0, -9.0, -8.0],
    ...     "n_words": [3, 2, 3, 3], "n_tokens": [4, 4, 3, 3]})
    >>> shown, fits = linking_rows(sf, t, ["logprob", "slor"], deltas=[1.0])
    >>> [(r.model, r.blimp) for r in shown], fits
    ([('m (logprob)', 0.5), ('m (slor)', 1.0)], {})
    """
    deltas = list(deltas)
    shown, fits = [], {}
    for name in dict.fromkeys(names):
        scores, fit = linking_scores(sf, name, pairs=pairs, k=k, seed=seed)
        if fit is not None:
            fits[name] = fit
            note = fitted_note(fit)
        else:
            note = _unigram_note(sf) if name in ("normlp", "slor") else None
        metadata = linked_metadata(sf, name)
        shown.append(
            evaluate_on_pairs(
                scores,
                pairs,
                model=row_label(metadata),
                deltas=deltas,
                note=note,
                convention=convention_of(metadata),
            )
        )
    return shown, fits
