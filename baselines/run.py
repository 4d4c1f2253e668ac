"""The scoring run: the units of a benchmark → a scores file, cached as it goes, resumable.

:func:`load_units` reads what a scorer scores: the units of a benchmark of
:mod:`li_adger.benchmarks` (sentences, or :class:`~baselines.interface.ClozeUnit` for a cloze
benchmark) or the sentences of a table file. :func:`score_to_file` scores every unit with a
scorer and writes one scores file (:mod:`metric_adc.scores.file`, written atomically). While
it runs, each batch of records is appended to a *partial file* next to the output,
``<out>.<fingerprint>.partial``, and flushed. The fingerprint hashes the scorer's metadata
(model, kind, variant, reduction, convention and settings that change scores; not versions,
device or batch size) and the dataset name, so a different run never mixes its scores in.
Rerunning the same command after a crash or a kill skips every unit already in the partial
file whose id *and* text match, scores the rest, writes exactly one record per unit and
deletes the partial file.

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

import hashlib
import json
import math
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.interface import (
    ClozeScorer,
    ClozeUnit,
    RecordScorer,
    Scorer,
    check_cloze,
    check_sentences,
)
from li_adger.benchmarks import BENCHMARKS
from li_adger.io.readers import TABLE_SUFFIXES, read_sentence_table
from metric_adc.scores.file import PartialFileError, read_partial

__all__ = [
    "CLOZE_BATCH_SIZE",
    "DATASETS",
    "FINGERPRINT_EXCLUDES",
    "FINGERPRINT_LEGACY_DEFAULTS",
    "PartialFileError",
    "Units",
    "accepted_fingerprints",
    "can_score",
    "dataset_metadata",
    "fingerprint",
    "load_units",
    "partial_path",
    "score_to_file",
]

DATASETS: tuple[str, ...] = tuple(BENCHMARKS)
"""Benchmark names ``--dataset`` accepts (those of :data:`li_adger.benchmarks.BENCHMARKS`, in
its order); a path to a ``.csv``/``.jsonl``/``.parquet`` file with ``id`` and ``sentence``
columns is accepted too."""

FINGERPRINT_EXCLUDES: frozenset[str] = frozenset(
    {"versions", "device", "batch_size", "token_budget", "created", "engine_args"}
)
"""Scorer-metadata keys that do not change scores and so do not split the cache (vLLM's
``engine_args`` place and size the engine: a run restarted with less GPU memory resumes)."""

FINGERPRINT_LEGACY_DEFAULTS: Mapping[str, Any] = {"convention": "default"}
"""Metadata keys added after partial files were already being written, with the value those
earlier runs implied: a partial file whose fingerprint lacks such a key is still resumed by a
run whose metadata has exactly that value (e.g. a causal scorer's ``"convention":
"default"``)."""

CLOZE_BATCH_SIZE = 32
"""Cloze units are scored at most this many at a time, so that the progress bar moves."""

_FSYNC_SECONDS = 2.0


@dataclass(frozen=True)
class Units:
    """What a scoring run scores: unit ids and texts, of a benchmark or a table file.

    ``texts`` are sentences (``str``), or :class:`~baselines.interface.ClozeUnit` for a
    cloze benchmark; ``form`` is the benchmark's form (:data:`li_adger.benchmarks.spec.FORMS`),
    ``None`` for a table file.

    Examples
    --------
    >>> u = Units("toy", None, ["a", "b"], ["Go.", "Run."])
    >>> u.head(1).ids, u.cloze
    (['a'], False)
    """

    dataset: str
    form: str | None
    ids: list[str]
    texts: list[str] | list[ClozeUnit]

    @property
    def cloze(self) -> bool:
        """Whether the units are cloze units (a context and a completion)."""
        return self.form == "cloze"

    def head(self, n: int) -> Units:
        """The first ``n`` units."""
        return Units(self.dataset, self.form, self.ids[:n], self.texts[:n])


def load_units(dataset: str, *, source: str | os.PathLike | None = None) -> Units:
    """The units of a benchmark in :data:`DATASETS` or the sentences of a table file.

    A benchmark's units are :func:`li_adger.benchmarks.load_items`'s (one per unique text,
    except LI-Adger's 4,178 sentences), read from the verified files (``source``: a folder
    with the layout of ``shared/data``, see :mod:`li_adger.sources`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "mine.csv"
    >>> _ = p.write_text("id,sentence\\ns1,The keys are lost.\\ns2,The keys is lost.\\n")
    >>> load_units(str(p)).texts
    ['The keys are lost.', 'The keys is lost.']
    >>> units = load_units("diagnostics")
    >>> units.form, len(units.ids), units.texts[0].completion
    ('cloze', 395, 'chess')
    >>> load_units("glue")
    Traceback (most recent call last):
    ...
    ValueError: unknown dataset 'glue': expected one of 'li_adger', 'blimp', 'npi', 'diagnostics', 'cola' or a .csv/.jsonl/.parquet file with columns 'id' and 'sentence'
    """
    if dataset in DATASETS:
        from li_adger.benchmarks import load_items

        items = load_items(dataset, source=source)
        units = items.units
        ids = [str(i) for i in units["id"]]
        if items.form == "cloze":
            texts: list = [
                ClozeUnit(str(c), str(w))
                for c, w in zip(units["context"], units["completion"], strict=True)
            ]
        else:
            texts = [str(s) for s in units["sentence"]]
        return Units(dataset, items.form, ids, texts)
    if dataset.endswith(TABLE_SUFFIXES) and Path(dataset).exists():
        table = read_sentence_table(dataset)
        return Units(dataset, None, table.ids, table.sentences)
    choices = ", ".join(repr(d) for d in DATASETS)
    hint = " (file not found)" if dataset.endswith(TABLE_SUFFIXES) else ""
    raise ValueError(
        f"unknown dataset {dataset!r}{hint}: expected one of {choices} or a "
        ".csv/.jsonl/.parquet file with columns 'id' and 'sentence'"
    )


def dataset_metadata(dataset: str) -> dict[str, str]:
    """What identifies the data behind a dataset name, for the scores file's metadata.

    A benchmark: its ``form`` and a ``dataset_fingerprint`` of its verified files (LI-Adger:
    the build's content fingerprint; any other: a SHA-256 over the pinned SHA-256 of each of
    its files, :data:`li_adger.sources.SOURCE_FILES`). A table file: its ``dataset_sha256``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "mine.csv"
    >>> _ = p.write_text("id,sentence\\ns1,Go.\\n")
    >>> dataset_metadata(str(p)) == {"dataset_sha256": hashlib.sha256(p.read_bytes()).hexdigest()}
    True
    >>> meta = dataset_metadata("npi")
    >>> meta["form"], len(meta["dataset_fingerprint"])
    ('pairs', 64)
    """
    if dataset == "li_adger":
        from li_adger.builder.build import read_report

        return {"form": "pairs", "dataset_fingerprint": str(read_report()["fingerprint"])}
    if dataset in DATASETS:
        from li_adger.benchmarks import benchmark
        from li_adger.sources import SOURCE_FILES

        spec = benchmark(dataset)
        pins = {relpath: SOURCE_FILES[relpath].sha256 for relpath in sorted(spec.files)}
        digest = hashlib.sha256(json.dumps(pins, sort_keys=True).encode("utf-8")).hexdigest()
        return {"form": spec.form, "dataset_fingerprint": digest}
    digest = hashlib.sha256(Path(dataset).read_bytes()).hexdigest()
    return {"dataset_sha256": digest}


def can_score(scorer: Scorer, form: str | None) -> bool:
    """Whether ``scorer`` can score units of ``form``: every scorer scores sentences
    (``pairs``, ``labelled``, a table file), only a :class:`~baselines.interface.ClozeScorer`
    scores cloze units.

    Examples
    --------
    >>> class Length:
    ...     name, kind, variant, reduction = "length", "toy", "words", "count"
    ...     def score(self, sentences): ...
    ...     def metadata(self): ...
    >>> can_score(Length(), "pairs"), can_score(Length(), "cloze")
    (True, False)
    """
    return form != "cloze" or isinstance(scorer, ClozeScorer)


def fingerprint(metadata: Mapping[str, Any], dataset: str) -> str:
    """A short hash of what determines the scores: scorer metadata (less
    :data:`FINGERPRINT_EXCLUDES`) and the dataset name.

    Examples
    --------
    >>> a = fingerprint({"model": "m", "variant": "slor", "versions": {"x": "1"}}, "li_adger")
    >>> a == fingerprint({"model": "m", "variant": "slor", "versions": {"x": "2"}}, "li_adger")
    True
    >>> a == fingerprint({"model": "m", "variant": "logprob"}, "li_adger")
    False
    >>> len(a)
    16
    """
    key = {k: v for k, v in metadata.items() if k not in FINGERPRINT_EXCLUDES}
    blob = json.dumps({"dataset": dataset, "scorer": key}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def accepted_fingerprints(metadata: Mapping[str, Any], dataset: str) -> list[str]:
    """The fingerprints whose partial files a run with this metadata resumes: its own, then
    the one without the keys of :data:`FINGERPRINT_LEGACY_DEFAULTS` that hold their legacy
    value (a cache written before those keys were recorded).

    Examples
    --------
    >>> old = {"model": "m", "kind": "causal"}
    >>> new = {**old, "convention": "default"}
    >>> accepted_fingerprints(new, "blimp")[1] == fingerprint(old, "blimp")
    True
    >>> len(accepted_fingerprints({**old, "convention": "harness"}, "blimp"))
    1
    """
    own = fingerprint(metadata, dataset)
    legacy = {
        k: v
        for k, v in metadata.items()
        if not (k in FINGERPRINT_LEGACY_DEFAULTS and FINGERPRINT_LEGACY_DEFAULTS[k] == v)
    }
    if len(legacy) == len(metadata):
        return [own]
    return [own, fingerprint(legacy, dataset)]


def partial_path(out: str | Path, fp: str) -> Path:
    """Where the partial (cache) file of output ``out`` and fingerprint ``fp`` lives.

    Examples
    --------
    >>> partial_path("results/trigram.jsonl", "0123456789abcdef").as_posix()
    'results/trigram.jsonl.0123456789abcdef.partial'
    """
    out = Path(out)
    return out.with_name(f"{out.name}.{fp}.partial")


def _text_fields(unit: str | ClozeUnit) -> dict[str, str]:
    """The text fields of a unit's record: ``sentence``, or ``context`` and ``completion``."""
    if isinstance(unit, ClozeUnit):
        return {"context": unit.context, "completion": unit.completion}
    return {"sentence": unit}


def _score_batch(scorer: Scorer, units: list[str] | list[ClozeUnit]) -> list[dict[str, Any]]:
    """One record (``score`` and any fields of ``RECORD_FIELDS``) per unit, in order.

    Cloze units go to ``score_cloze`` (:class:`~baselines.interface.ClozeScorer`). Sentences
    go to ``score_records`` when the scorer has it
    (:class:`~baselines.interface.RecordScorer`), else to ``score``.
    """
    if units and isinstance(units[0], ClozeUnit):
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


def _check_inputs(
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
    try:
        if cloze:
            check_cloze([u.context for u in units], [u.completion for u in units])
        else:
            check_sentences(units)
    except ValueError as err:
        k = next(
            k for k, u in enumerate(units) if not all(t.strip() for t in _text_fields(u).values())
        )
        name = repr(str(ids[k])) if k < len(ids) else f"at row {k}"
        what = "cloze unit" if cloze else "sentence"
        raise ValueError(f"{what} {name} (row {k}) is empty; every {what} needs a word") from err
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
) -> Path:
    """Score ``units`` with ``scorer`` and write the scores file ``out`` atomically.

    ``units`` are sentences, or :class:`~baselines.interface.ClozeUnit` for a scorer that
    scores cloze units (:func:`can_score`). Units are scored longest first (``batch_size``
    at a time — cloze units at most :data:`CLOZE_BATCH_SIZE` — so batches pad little and a
    unit too long for the model, or a batch too big for memory, fails at once) and each
    batch is appended to the partial file before the next one starts (flushed at once,
    synced to disk at least every two seconds). With ``resume=False`` an existing partial
    file is discarded first. ``extra_metadata`` (e.g. :func:`dataset_metadata`) is added to
    the file's metadata record. Returns ``out``.
    """
    ids, units = _check_inputs(ids, units)
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
    meta = scorer.metadata()
    metadata = {
        **meta,
        "dataset": dataset,
        **dict(extra_metadata or {}),
        ("n_units" if cloze else "n_sentences"): len(units),
        "versions": {**_versions(), **meta.get("versions", {})},
    }
    try:  # fail now, not after hours of scoring
        json.dumps(metadata, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise ValueError(f"the scorer's metadata must be JSON-serialisable ({err})") from err
    fps = accepted_fingerprints(meta, dataset)
    fp = next((f for f in fps if partial_path(out, f).is_file()), fps[0])
    cache = partial_path(out, fp)
    if not resume:
        for f in fps:
            partial_path(out, f).unlink(missing_ok=True)
        fp, cache = fps[0], partial_path(out, fps[0])
    cached = read_partial(cache, fp)
    texts = [_text_fields(u) for u in units]
    done = {
        i: cached[i]
        for i, text in zip(ids, texts, strict=True)
        if i in cached and all(cached[i].get(k) == v for k, v in text.items())
    }
    pending = sorted(
        (k for k, i in enumerate(ids) if i not in done),
        key=lambda k: -sum(len(t) for t in texts[k].values()),
    )
    step = min(batch_size, CLOZE_BATCH_SIZE) if cloze else batch_size

    from tqdm.auto import tqdm

    from metric_adc.scores.file import json_line, write_scores

    out.parent.mkdir(parents=True, exist_ok=True)
    header = json_line({"fingerprint": fp, "dataset": dataset, "scorer": meta})
    synced = time.monotonic()
    with (
        cache.open("a", encoding="utf-8") as fh,
        tqdm(
            total=len(units),
            initial=len(done),
            disable=not progress,
            desc=f"scoring {dataset} with {getattr(scorer, 'name', 'model')}",
            unit="unit" if cloze else "sent",
        ) as bar,
    ):
        if fh.tell() == 0:
            fh.write(header + "\n")
        for start in range(0, len(pending), step):
            batch = pending[start : start + step]
            lines = []
            for k, scored in zip(
                batch, _score_batch(scorer, [units[k] for k in batch]), strict=True
            ):
                score = float(scored["score"])
                if not math.isfinite(score):
                    raise ValueError(
                        f"the scorer returned a non-finite score ({score}) for unit "
                        f"{ids[k]!r}: {units[k]!r}"
                    )
                record = {"id": ids[k], **texts[k], **scored, "score": score}
                done[ids[k]] = record
                lines.append(json_line(record))
            fh.write("\n".join(lines) + "\n")
            fh.flush()  # a killed process loses nothing flushed
            if time.monotonic() - synced >= _FSYNC_SECONDS:  # a power cut, at most 2 s
                os.fsync(fh.fileno())
                synced = time.monotonic()
            bar.update(len(batch))

    write_scores(out, [done[i] for i in ids], metadata)
    cache.unlink(missing_ok=True)
    return out
