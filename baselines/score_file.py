"""The scoring run: units → batches → the resumable cache → one scores file, written atomically.

:func:`score_to_file` scores every unit (a sentence, or a
:class:`~baselines.interface.ClozeUnit`) with a scorer and writes one scores file
(:mod:`metric_adc.scores.file`). Each batch of records goes to the run's partial file as soon
as it is scored (:mod:`baselines.resume`); rerunning the same command after a crash or a kill
skips every unit already in the partial file whose id *and* text match, scores the rest, writes
exactly one record per unit and deletes the partial file; the temporary file of a write killed
half-way (``.<out>.<random>.tmp.jsonl``) is removed. The units of a benchmark or a table
file come from :func:`baselines.units.load_units`.

Examples
--------
>>> import tempfile, pathlib
>>> class Length:
...     name, kind, variant, reduction = "length", "toy", "words", "count"
...     def score(self, sentences):
...         return [float(len(s.split())) for s in sentences]
...     def metadata(self):
...         return {"model": self.name, "kind": self.kind, "variant": self.variant,
...                 "reduction": self.reduction}
>>> out = pathlib.Path(tempfile.mkdtemp()) / "length.jsonl"
>>> _ = score_to_file(Length(), ["a", "b"], ["Go.", "The keys are lost."], out,
...                   dataset="toy", progress=False)
>>> print(out.read_text().splitlines()[2])
{"id": "b", "sentence": "The keys are lost.", "score": 4.0}
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from baselines.batch_order import plan_batches, unit_key
from baselines.interface import (
    BatchedScorer,
    ClozeUnit,
    InfillScorer,
    RecordScorer,
    Scorer,
    TokenScorer,
    UnitError,
    check_cloze,
    check_sentences,
    text_problem,
)
from baselines.resume import PartialCache
from baselines.units import can_score
from li_adger.io.atomic import remove_temporaries

__all__ = [
    "CLOZE_BATCH_SIZE",
    "check_inputs",
    "run_metadata",
    "score_to_file",
    "scorer_metadata",
    "shares_prefixes",
    "text_fields",
]

CLOZE_BATCH_SIZE = 32
"""Cloze units are scored at most this many at a time, so that the progress bar moves."""


def text_fields(unit: str | ClozeUnit) -> dict[str, str]:
    """The text fields of a unit's record: ``sentence``, or ``context`` and ``completion``
    (and ``after``, for a blank inside the sentence)."""
    if isinstance(unit, ClozeUnit):
        after = {"after": unit.after} if unit.after else {}
        return {"context": unit.context, "completion": unit.completion, **after}
    return {"sentence": unit}


def _score_infill(scorer: Scorer, units: list[ClozeUnit]) -> list[dict[str, Any]]:
    """Cloze units whose blank is inside the sentence: a masked LM reads both sides
    (:class:`~baselines.interface.InfillScorer`); any other language model scores the causal
    analogue, the whole sentence's log-probability (the sum of its token log-probabilities,
    :class:`~baselines.interface.TokenScorer`). Two units that differ only at the blank then
    differ by ln P(completion, after | context), and so are ordered as the model's
    P(completion | context, after) orders them (Bayes' rule: P(after | context) is shared)."""
    contexts = [u.context for u in units]
    completions = [u.completion for u in units]
    if isinstance(scorer, InfillScorer):
        return list(scorer.score_infill(contexts, completions, [u.after for u in units]))
    if isinstance(scorer, TokenScorer):
        return [{"score": t.total} for t in scorer.token_logprobs([u.sentence for u in units])]
    raise ValueError(
        f"the {scorer.kind!r} scorer {scorer.name!r} cannot score a blank inside a sentence: "
        "it needs a masked LM, or a language model's token log-probabilities"
    )


def _score_batch(scorer: Scorer, units: list[str] | list[ClozeUnit]) -> list[dict[str, Any]]:
    """One record (``score`` and any fields of ``RECORD_FIELDS``) per unit, in order.

    Cloze units go to ``score_cloze`` (:class:`~baselines.interface.ClozeScorer`). Sentences
    go to ``score_records`` when the scorer has it
    (:class:`~baselines.interface.RecordScorer`), else to ``score``.
    """
    if units and isinstance(units[0], ClozeUnit) and units[0].after:
        records = [dict(r) for r in _score_infill(scorer, units)]  # type: ignore[arg-type]
    elif units and isinstance(units[0], ClozeUnit):
        records = [
            dict(r)
            for r in scorer.score_cloze(  # type: ignore[attr-defined]
                [u.context for u in units], [u.completion for u in units]
            )
        ]
    elif isinstance(scorer, RecordScorer):
        records = [dict(r) for r in scorer.score_records(units)]
    else:
        records = [{"score": s} for s in scorer.score(units)]
    if len(records) != len(units):
        raise RuntimeError(
            f"{type(scorer).__name__} returned {len(records)} scores for {len(units)} units"
        )
    return records


def shares_prefixes(scorer: Scorer) -> bool:
    """Whether ``scorer`` packs by trie (:class:`~baselines.interface.BatchedScorer`; a linked
    scorer says what the scorer it wraps does)."""
    return isinstance(scorer, BatchedScorer) and scorer.packing == "trie"


def check_inputs(
    ids: Sequence[str], units: Sequence[str] | Sequence[ClozeUnit]
) -> tuple[list[str], list]:
    """Validate ids and units together, naming the id of a bad unit."""
    units = list(units)
    cloze = bool(units) and isinstance(units[0], ClozeUnit)
    for k, unit in enumerate(units):
        if isinstance(unit, ClozeUnit) != cloze:
            raise TypeError(
                f"units must all be sentences or all be ClozeUnit (row 0 is "
                f"{type(units[0]).__name__}, row {k} is {type(unit).__name__})"
            )
    what = "cloze unit" if cloze else "sentence"
    for k, unit in enumerate(units):
        for field, text in text_fields(unit).items():
            if not isinstance(text, str):
                break  # check_sentences names it
            problem = text_problem(text)
            if problem is None or (field == "context" and unit.after and not text):
                continue  # a blank inside the sentence may open it
            name = repr(str(ids[k])) if k < len(ids) else f"at row {k}"
            if problem == "is empty":
                problem = f"is empty; every {what} needs a word"
            elif cloze:
                problem = f"has a {field} that {problem}"
            raise ValueError(f"{what} {name} (row {k}) {problem}")
    if cloze:
        inside = [bool(u.after) for u in units]
        if any(inside) and not all(inside):
            raise ValueError("cloze units must all have words after the blank or all have none")
        contexts = [u.context or u.after for u in units]  # an empty context is checked above
        check_cloze(contexts, [u.completion for u in units])
    else:
        check_sentences(units)
    return _check_ids(ids, len(units)), units


def _check_ids(ids: Sequence[str], n: int) -> list[str]:
    ids = [str(i) for i in ids]
    if len(ids) != n:
        raise ValueError(f"ids and units must have the same length (got {len(ids)} and {n})")
    seen: set[str] = set()
    for k, i in enumerate(ids):
        if not i.strip():
            raise ValueError(f"ids[{k}] is empty (got {i!r})")
        if i in seen:
            raise ValueError(f"ids[{k}] is a duplicate id (got {i!r})")
        seen.add(i)
    return ids


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for dist in ("li-adger-adc", "numpy"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            continue
    return out


def scorer_metadata(scorer: Scorer, *, cloze: bool) -> dict[str, Any]:
    """``scorer.metadata()`` as a run of sentences or of cloze units records it: a scorer that
    scores cloze units otherwise than sentences says how in ``cloze_variant`` (a masked LM:
    the completion masked, not a pseudo-log-likelihood), which is then the ``variant``.

    Examples
    --------
    >>> class Toy:
    ...     cloze_variant = "masked-completion"
    ...     def metadata(self):
    ...         return {"model": "m", "variant": "pll-original"}
    >>> scorer_metadata(Toy(), cloze=True), scorer_metadata(Toy(), cloze=False)
    ({'model': 'm', 'variant': 'masked-completion'}, {'model': 'm', 'variant': 'pll-original'})
    """
    meta = dict(scorer.metadata())
    variant = getattr(scorer, "cloze_variant", None)
    if cloze and variant is not None:
        meta["variant"] = variant
    return meta


def run_metadata(
    scorer_metadata: Mapping[str, Any],
    dataset: str,
    n_units: int,
    *,
    cloze: bool,
    extra_metadata: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The metadata record of the scores file a run writes: the scorer's metadata, the
    ``dataset``, ``extra_metadata``, the number of units and the library versions.

    Examples
    --------
    >>> meta = run_metadata({"model": "m"}, "toy", 2, cloze=False, extra_metadata={"limit": 2})
    >>> {k: v for k, v in meta.items() if k != "versions"}
    {'model': 'm', 'dataset': 'toy', 'limit': 2, 'n_sentences': 2}
    """
    metadata = {
        **scorer_metadata,
        "dataset": dataset,
        **dict(extra_metadata or {}),
        ("n_units" if cloze else "n_sentences"): n_units,
        "versions": {**_versions(), **scorer_metadata.get("versions", {})},
    }
    try:  # fail now, not after hours of scoring
        json.dumps(metadata, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise ValueError(f"the scorer's metadata must be JSON-serialisable ({err})") from err
    return metadata


def score_to_file(
    scorer: Scorer,
    ids: Sequence[str],
    units: Sequence[str] | Sequence[ClozeUnit],
    out: str | Path,
    *,
    dataset: str,
    batch_size: int = 64,
    progress: bool = True,
    resume: bool = True,
    extra_metadata: Mapping[str, Any] | None = None,
    places: Mapping[str, str] | None = None,
) -> Path:
    """Score ``units`` with ``scorer`` and write the scores file ``out`` atomically.

    ``units`` are sentences, or :class:`~baselines.interface.ClozeUnit` for a scorer that
    scores cloze units (:func:`can_score`). Units are scored longest first (``batch_size``
    at a time — cloze units at most :data:`CLOZE_BATCH_SIZE` — so batches pad little and a
    unit too long for the model, or a batch too big for memory, fails at once; for a scorer
    that packs by trie, in batches of units sorted by text, the longest unit's first:
    :func:`baselines.batch_order.plan_batches`) and each
    batch is appended to the partial file before the next one starts (flushed at once,
    synced to disk at least every two seconds). With ``resume=False`` an existing partial
    file is discarded first. ``extra_metadata`` (e.g. :func:`dataset_metadata`) is added to
    the file's metadata record. A unit the scorer cannot score (a
    :class:`~baselines.interface.UnitError`) is named by where it came from: ``places`` maps
    an id to its file and line (:attr:`baselines.units.Units.places`), else the ``dataset``;
    then its id and field. Returns ``out``.
    """
    ids, units = check_inputs(ids, units)
    if not units:
        raise ValueError("no units to score (got an empty dataset)")
    if not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int (got {batch_size!r})")
    cloze = isinstance(units[0], ClozeUnit)
    if cloze and not can_score(scorer, "cloze"):
        raise ValueError(
            f"{dataset!r} has cloze units (a context and a completion), which the "
            f"{scorer.kind!r} scorer {scorer.name!r} cannot score; use a causal, masked or "
            "n-gram language model"
        )
    out = Path(out)
    if out.is_dir():
        raise IsADirectoryError(f"--out must be a file path, not a folder (got {out})")
    meta = scorer_metadata(scorer, cloze=cloze)
    metadata = run_metadata(meta, dataset, len(units), cloze=cloze, extra_metadata=extra_metadata)
    remove_temporaries(out.parent, targets=[out.name])  # left by a killed write of ``out``
    cache = PartialCache(out, meta, dataset)
    if not resume:
        cache.discard()
    cache.report_others()
    cached = cache.read()
    texts = [text_fields(u) for u in units]
    done = {
        i: cached[i]
        for i, text in zip(ids, texts, strict=True)
        if i in cached and all(cached[i].get(k) == v for k, v in text.items())
    }
    step = min(batch_size, CLOZE_BATCH_SIZE) if cloze else batch_size
    pending = [k for k, i in enumerate(ids) if i not in done]
    keys = [unit_key(units[k]) for k in pending]
    plan = plan_batches(keys, step, by_prefix=shares_prefixes(scorer), longest_first=True)
    batches = [[pending[j] for j in batch] for batch in plan]

    from tqdm.auto import tqdm

    from metric_adc.scores.file import json_line, write_scores

    with (
        cache.appending() as append,
        tqdm(
            total=len(units),
            initial=len(done),
            disable=not progress,
            desc=f"scoring {dataset} with {scorer.name}",
            unit="unit" if cloze else "sent",
        ) as bar,
    ):
        for batch in batches:
            lines = []
            try:
                records = _score_batch(scorer, [units[k] for k in batch])
            except UnitError as err:
                if not 0 <= err.index < len(batch):
                    raise
                at = ids[batch[err.index]]
                where = (places or {}).get(at, dataset)
                raise ValueError(f"{where} (id {at!r}): {err.field!r} {err.problem}") from None
            for k, scored in zip(batch, records, strict=True):
                score = float(scored["score"])
                if not math.isfinite(score):
                    raise ValueError(
                        f"the scorer returned a non-finite score ({score}) for unit "
                        f"{ids[k]!r}: {units[k]!r}"
                    )
                record = {"id": ids[k], **texts[k], **scored, "score": score}
                done[ids[k]] = record
                lines.append(json_line(record))
            append(lines)
            bar.update(len(batch))

    write_scores(out, [done[i] for i in ids], metadata)
    cache.discard()
    return out
