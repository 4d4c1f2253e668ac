"""The scoring run: sentences of a dataset → a scores file, cached as it goes, resumable.

:func:`score_to_file` scores every sentence with a scorer and writes one scores file
(:mod:`metric_adc.scores_file`, written atomically). While it runs, each batch of scores is
appended to a *partial file* next to the output, ``<out>.<fingerprint>.partial``, and flushed
to disk. The fingerprint hashes the scorer's metadata (model, kind, variant, reduction and
settings that change scores; not versions, device or batch size) and the dataset name, so a
different run never mixes its scores in. Rerunning the same command after a crash or a kill
skips every sentence already in the partial file whose id *and* sentence text match, scores the
rest, writes exactly one score per sentence and deletes the partial file.

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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from baselines.interface import RecordScorer, Scorer, check_sentences

__all__ = [
    "DATASETS",
    "FINGERPRINT_EXCLUDES",
    "PartialFileError",
    "dataset_metadata",
    "fingerprint",
    "load_sentences",
    "partial_path",
    "score_to_file",
]

DATASETS: tuple[str, ...] = ("li_adger",)
"""Dataset names ``--dataset`` accepts; a path to a ``.csv``/``.jsonl``/``.parquet`` file with
``id`` and ``sentence`` columns is accepted too."""

FINGERPRINT_EXCLUDES: frozenset[str] = frozenset(
    {"versions", "device", "batch_size", "token_budget", "created"}
)
"""Scorer-metadata keys that do not change scores and so do not split the cache."""

_TABLE_SUFFIXES = (".csv", ".jsonl", ".parquet")


class PartialFileError(ValueError):
    """A partial (cache) file is damaged somewhere other than its last line."""


def load_sentences(dataset: str) -> tuple[list[str], list[str]]:
    """Return ``(ids, sentences)`` of a dataset name in :data:`DATASETS` or a table file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "mine.csv"
    >>> _ = p.write_text("id,sentence\\ns1,The keys are lost.\\ns2,The keys is lost.\\n")
    >>> load_sentences(str(p))
    (['s1', 's2'], ['The keys are lost.', 'The keys is lost.'])
    >>> load_sentences("blimp")
    Traceback (most recent call last):
    ...
    ValueError: unknown dataset 'blimp': expected one of 'li_adger' or a .csv/.jsonl/.parquet file with columns 'id' and 'sentence'
    """
    if dataset == "li_adger":
        import li_adger

        table = li_adger.load("sentences")
        where = "li_adger.load('sentences')"
    elif dataset.endswith(_TABLE_SUFFIXES) and Path(dataset).is_file():
        import pandas as pd

        path = Path(dataset)
        if path.suffix == ".csv":
            table = pd.read_csv(path, dtype={"id": str, "sentence": str}, keep_default_na=False)
        elif path.suffix == ".jsonl":
            table = pd.read_json(path, lines=True, dtype={"id": str, "sentence": str})
        else:
            table = pd.read_parquet(path)
        where = str(path)
    else:
        choices = ", ".join(repr(d) for d in DATASETS)
        hint = " (file not found)" if dataset.endswith(_TABLE_SUFFIXES) else ""
        raise ValueError(
            f"unknown dataset {dataset!r}{hint}: expected one of {choices} or a "
            ".csv/.jsonl/.parquet file with columns 'id' and 'sentence'"
        )
    columns = list(getattr(table, "column_names", None) or getattr(table, "columns", []))
    missing = [c for c in ("id", "sentence") if c not in columns]
    if missing:
        raise ValueError(f"{where}: missing column(s) {missing} (got columns {columns})")
    return [str(i) for i in table["id"]], [str(s) for s in table["sentence"]]


def dataset_metadata(dataset: str) -> dict[str, str]:
    """What identifies the data behind a dataset name: the LI-Adger build fingerprint, or
    the SHA-256 of a table file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "mine.csv"
    >>> _ = p.write_text("id,sentence\\ns1,Go.\\n")
    >>> dataset_metadata(str(p)) == {"dataset_sha256": hashlib.sha256(p.read_bytes()).hexdigest()}
    True
    """
    if dataset == "li_adger":
        from li_adger.builder import read_report

        return {"dataset_fingerprint": str(read_report()["fingerprint"])}
    digest = hashlib.sha256(Path(dataset).read_bytes()).hexdigest()
    return {"dataset_sha256": digest}


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


def partial_path(out: str | Path, fp: str) -> Path:
    """Where the partial (cache) file of output ``out`` and fingerprint ``fp`` lives.

    Examples
    --------
    >>> partial_path("results/trigram.jsonl", "0123456789abcdef").as_posix()
    'results/trigram.jsonl.0123456789abcdef.partial'
    """
    out = Path(out)
    return out.with_name(f"{out.name}.{fp}.partial")


def _read_partial(path: Path, fp: str) -> dict[str, dict[str, Any]]:
    """Records cached in a partial file: id → record (``sentence``, ``score`` and any fields).

    A last line without its newline (the run was killed while writing it) is cut off the
    file; any other damaged line is an error naming the file and line.
    """
    if not path.is_file():
        return {}
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        with path.open("r+b") as fh:
            fh.truncate(len(complete))
    cached: dict[str, dict[str, Any]] = {}
    for lineno, line in enumerate(complete.decode("utf-8").split("\n")[:-1], start=1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise PartialFileError(
                f"{path} line {lineno}: not valid JSON ({err.msg}); delete the file to start over"
            ) from err
        if lineno == 1:
            if record.get("fingerprint") != fp:
                raise PartialFileError(
                    f"{path} line 1: expected fingerprint {fp!r} "
                    f"(got {record.get('fingerprint')!r}); delete the file to start over"
                )
            continue
        try:
            entry = {**record, "sentence": str(record["sentence"]), "score": float(record["score"])}
        except (KeyError, TypeError, ValueError) as err:
            raise PartialFileError(
                f"{path} line {lineno}: expected an object with 'id', 'sentence' and 'score' "
                f"(got {line[:80]!r}); delete the file to start over"
            ) from err
        cached.setdefault(str(record.get("id")), entry)
    return cached


def _score_batch(scorer: Scorer, sentences: list[str]) -> list[dict[str, Any]]:
    """One record (``score`` and any fields of ``RECORD_FIELDS``) per sentence, in order.

    A scorer with ``score_records`` (:class:`~baselines.interface.RecordScorer`) gives whole
    records; any other scorer gives scores.
    """
    if isinstance(scorer, RecordScorer):
        records = [dict(r) for r in scorer.score_records(sentences)]
    else:
        records = [{"score": s} for s in scorer.score(sentences)]
    if len(records) != len(sentences):
        raise RuntimeError(
            f"{type(scorer).__name__} returned {len(records)} scores for {len(sentences)} sentences"
        )
    return records


def _check_inputs(ids: Sequence[str], sentences: Sequence[str]) -> tuple[list[str], list[str]]:
    """Validate ids and sentences together, naming the id of a bad sentence."""
    try:
        sentences = check_sentences(sentences)
    except ValueError as err:
        k = next(k for k, s in enumerate(sentences) if not s.strip())
        name = repr(str(ids[k])) if k < len(ids) else f"at row {k}"
        raise ValueError(
            f"sentence {name} (row {k}) is empty; every sentence needs a word"
        ) from err
    return _check_ids(ids, len(sentences)), sentences


def _check_ids(ids: Sequence[str], n: int) -> list[str]:
    ids = [str(i) for i in ids]
    if len(ids) != n:
        raise ValueError(f"ids and sentences must have the same length (got {len(ids)} and {n})")
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
    sentences: Sequence[str],
    out: str | Path,
    *,
    dataset: str,
    batch_size: int = 64,
    progress: bool = True,
    resume: bool = True,
    extra_metadata: Mapping[str, Any] | None = None,
) -> Path:
    """Score ``sentences`` with ``scorer`` and write the scores file ``out`` atomically.

    Sentences are scored longest first (``batch_size`` at a time, so batches pad little and
    a sentence too long for the model, or a batch too big for memory, fails at once) and
    each batch is appended to the partial file before the next one starts. With
    ``resume=False`` an existing partial file is discarded first. ``extra_metadata`` (e.g.
    :func:`dataset_metadata`) is added to the file's metadata record. Returns ``out``.
    """
    ids, sentences = _check_inputs(ids, sentences)
    if not sentences:
        raise ValueError("no sentences to score (got an empty dataset)")
    if not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int (got {batch_size!r})")
    out = Path(out)
    if out.is_dir():
        raise IsADirectoryError(f"--out must be a file path, not a folder (got {out})")
    meta = scorer.metadata()
    metadata = {
        **meta,
        "dataset": dataset,
        **dict(extra_metadata or {}),
        "n_sentences": len(sentences),
        "versions": {**_versions(), **meta.get("versions", {})},
    }
    try:  # fail now, not after hours of scoring
        json.dumps(metadata, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise ValueError(f"the scorer's metadata must be JSON-serialisable ({err})") from err
    fp = fingerprint(meta, dataset)
    cache = partial_path(out, fp)
    if not resume:
        cache.unlink(missing_ok=True)
    cached = _read_partial(cache, fp)
    done = {
        i: cached[i]
        for i, s in zip(ids, sentences, strict=True)
        if i in cached and cached[i]["sentence"] == s
    }
    pending = sorted(
        (k for k, i in enumerate(ids) if i not in done), key=lambda k: -len(sentences[k])
    )

    from tqdm.auto import tqdm

    from metric_adc.scores_file import json_line, write_scores

    out.parent.mkdir(parents=True, exist_ok=True)
    header = json_line({"fingerprint": fp, "dataset": dataset, "scorer": meta})
    with (
        cache.open("a", encoding="utf-8") as fh,
        tqdm(
            total=len(sentences),
            initial=len(done),
            disable=not progress,
            desc=f"scoring with {getattr(scorer, 'name', 'model')}",
            unit="sent",
        ) as bar,
    ):
        if fh.tell() == 0:
            fh.write(header + "\n")
        for start in range(0, len(pending), batch_size):
            batch = pending[start : start + batch_size]
            lines = []
            for k, scored in zip(
                batch, _score_batch(scorer, [sentences[k] for k in batch]), strict=True
            ):
                score = float(scored["score"])
                if not math.isfinite(score):
                    raise ValueError(
                        f"the scorer returned a non-finite score ({score}) for sentence "
                        f"{ids[k]!r}: {sentences[k]!r}"
                    )
                record = {"id": ids[k], "sentence": sentences[k], **scored, "score": score}
                done[ids[k]] = record
                lines.append(json_line(record))
            fh.write("\n".join(lines) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
            bar.update(len(batch))

    write_scores(out, [done[i] for i in ids], metadata)
    cache.unlink(missing_ok=True)
    return out
