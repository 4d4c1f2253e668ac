"""A harness run's logged samples → a scores file, for ``python -m metric_adc report`` and the app.

``lm_eval ... --tasks li_adger_adc --log_samples --output_path DIR`` writes
``DIR/<model>/samples_li_adger_adc_<date>.jsonl``, one JSON record per sentence: the document
(``doc``, with the sentence's ``id`` and ``sentence``) and the harness's answer to its one
request (``filtered_resps``: ``[[log-likelihood, is_greedy]]``, written as strings), and beside
it ``results_<date>.json``, whose ``model_name`` is the model the run loaded (its
``pretrained=``). :func:`samples_to_scores` (``python -m metric_adc from-harness``) turns the
samples into the project's scores file, so the full report (bootstrap intervals, δ sweep,
breakdowns, plots, comparisons) and the app's leaderboard read the very log-likelihoods the
harness computed.

Every error names the input file, the line and the field as the harness wrote it
(``doc.id``, ``doc.sentence``, ``filtered_resps[0][0]``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from li_adger.io.inputs import check_not_input
from li_adger.io.readers import InputFileError, as_text, json_lines, read_text, shown
from metric_adc.harness import TASK
from metric_adc.harness.task import HarnessItemError, log_likelihood
from metric_adc.scores.file import write_scores

__all__ = ["find_samples", "model_of_run", "read_samples", "results_file", "samples_to_scores"]

_PREFIX = f"samples_{TASK}_"


def _field(record: object, path: tuple, where: str) -> object:
    value = record
    for key in path:
        ok = (isinstance(key, str) and isinstance(value, dict) and key in value) or (
            isinstance(key, int) and isinstance(value, list) and len(value) > key
        )
        if not ok:
            name = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")
            raise InputFileError(f"{where}: expected the field {name} (got {shown(record)})")
        value = value[key]
    return value


def read_samples(path: str | os.PathLike) -> list[dict]:
    """The records ``{"id", "sentence", "score"}`` of a ``li_adger_adc`` samples file, in its order.

    ``score`` is the log-likelihood the harness logged for the sentence. A record that is not
    what the harness writes is an :class:`~li_adger.io.readers.InputFileError` naming the file,
    the line and the field.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "samples_li_adger_adc_2026.jsonl"
    >>> doc = {"id": "32.1.martin.1a.g.01", "sentence": "Kerry attempted to study physics."}
    >>> _ = p.write_text(json.dumps({"doc": doc, "filtered_resps": [["-48.5", "False"]]}) + "\\n")
    >>> read_samples(p)
    [{'id': '32.1.martin.1a.g.01', 'sentence': 'Kerry attempted to study physics.', 'score': -48.5}]
    >>> _ = p.write_text(json.dumps({"doc": doc}) + "\\n")
    >>> read_samples(p)
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: .../samples_li_adger_adc_2026.jsonl line 1: expected the field filtered_resps[0][0] (got ...)
    >>> _ = p.write_text(json.dumps({"doc": doc, "filtered_resps": [[True, "False"]]}) + "\\n")
    >>> read_samples(p)
    Traceback (most recent call last):
    ...
    li_adger.io.readers.InputFileError: .../samples_li_adger_adc_2026.jsonl line 1 (doc.id '32.1.martin.1a.g.01'): filtered_resps[0][0], the log-likelihood, must be a number (got True)
    """
    path = Path(path)
    records: list[dict] = []
    seen: dict[str, int] = {}
    for lineno, record in json_lines(read_text(path), str(path)):
        where = f"{path} line {lineno}"
        if not isinstance(record, dict):
            raise InputFileError(
                f"{where}: expected an object with 'doc' and 'filtered_resps' (got {shown(record)})"
            )
        sid = _field(record, ("doc", "id"), where)
        if not isinstance(sid, str) or not sid.strip():
            raise InputFileError(f"{where}: doc.id must be a non-empty string (got {shown(sid)})")
        sid = as_text(sid, where, "doc.id")
        if sid in seen:
            raise InputFileError(
                f"{where}: doc.id {sid!r} appears twice (lines {seen[sid]} and {lineno}); "
                "expected one record per sentence"
            )
        seen[sid] = lineno
        where_doc = f"{where} (doc.id {sid!r})"
        sentence = as_text(_field(record, ("doc", "sentence"), where), where_doc, "doc.sentence")
        raw = _field(record, ("filtered_resps", 0, 0), where)
        try:
            score = log_likelihood(raw, where_doc, "filtered_resps[0][0]")
        except HarnessItemError as exc:
            raise InputFileError(str(exc)) from None
        records.append({"id": sid, "sentence": sentence, "score": score})
    if not records:
        raise InputFileError(f"{path}: no samples (expected one record per sentence of {TASK})")
    return records


def find_samples(run: str | os.PathLike) -> Path:
    """The ``li_adger_adc`` samples file of a harness run: ``run`` itself if it is a file, else
    the one ``samples_li_adger_adc_*.jsonl`` under the folder ``run`` (the ``--output_path``
    or its model folder); several or none is an error naming them.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "org__m").mkdir()
    >>> _ = (d / "org__m" / "samples_li_adger_adc_2026-01-01T00-00-00.jsonl").write_text("")
    >>> find_samples(d).name
    'samples_li_adger_adc_2026-01-01T00-00-00.jsonl'
    >>> find_samples(d / "org__m" / "nope.jsonl")
    Traceback (most recent call last):
    ...
    FileNotFoundError: .../org__m/nope.jsonl: no such file or folder (expected a harness run's --output_path, or its samples_li_adger_adc_<date>.jsonl)
    """
    run = Path(run)
    if run.is_file():
        return run
    if not run.is_dir():
        raise FileNotFoundError(
            f"{run}: no such file or folder (expected a harness run's --output_path, or its "
            f"{_PREFIX}<date>.jsonl)"
        )
    found = sorted(run.rglob(f"{_PREFIX}*.jsonl"))
    if len(found) != 1:
        listed = ", ".join(str(p.relative_to(run)) for p in found[:5])
        raise FileNotFoundError(
            f"{run}: holds {len(found)} {_PREFIX}<date>.jsonl files"
            + (f" ({listed}); give one of them" if found else "; run the harness with "
               f"--tasks {TASK} --log_samples --output_path {run}")
        )  # fmt: skip
    return found[0]


def _model_name(name: str) -> str:
    """A run's ``model_name`` as a label: a local folder's last part, a Hub name as it is."""
    looks_local = name.startswith(("/", ".", "~")) or "\\" in name or Path(name).is_dir()
    return Path(name.rstrip("/\\")).name if looks_local else name


def model_of_run(samples: str | os.PathLike) -> str | None:
    """The model's name from the run's ``results_<date>.json`` beside ``samples`` (its
    ``model_name``: the ``pretrained=`` of ``--model_args``), a local folder by its last part;
    ``None`` if there is no such file or it names no model.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> s = d / "samples_li_adger_adc_2026-01-01T00-00-00.jsonl"
    >>> results = {"model_name": "/root/.cache/li_adger/models/smollm2",
    ...            "config": {"model": "hf", "model_args": "pretrained=/root/.cache/li_adger/models/smollm2"}}
    >>> _ = (d / "results_2026-01-01T00-00-00.json").write_text(json.dumps(results))
    >>> model_of_run(s)
    'smollm2'
    >>> _ = (d / "results_2026-01-01T00-00-00.json").write_text(json.dumps({"model_name": "EleutherAI/pythia-160m"}))
    >>> model_of_run(s)
    'EleutherAI/pythia-160m'
    """
    results = results_file(samples)
    if results is None:
        return None
    try:
        data = json.loads(read_text(results))
    except json.JSONDecodeError as exc:
        raise InputFileError(
            f"{results}: not valid JSON ({exc.msg} at line {exc.lineno})"
        ) from None
    name = data.get("model_name") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name.strip():
        config = data.get("config") if isinstance(data, dict) else None
        args = config.get("model_args") if isinstance(config, dict) else None
        if isinstance(args, dict):
            name = args.get("pretrained")
        elif isinstance(args, str):
            found = [a.split("=", 1)[1] for a in args.split(",") if a.startswith("pretrained=")]
            name = found[0] if found else None
    return _model_name(name) if isinstance(name, str) and name.strip() else None


def results_file(samples: str | os.PathLike) -> Path | None:
    """The ``results_<date>.json`` of the run that logged ``samples`` (the one of the same date,
    else the folder's only one), or ``None``."""
    samples = Path(samples)
    stamp = samples.name[len(_PREFIX) : -len(".jsonl")] if samples.name.startswith(_PREFIX) else ""
    candidates = [samples.with_name(f"results_{stamp}.json")] if stamp else []
    others = sorted(samples.parent.glob("results_*.json"))
    candidates += others if len(others) == 1 else []  # another date: only if it is the one
    return next((p for p in candidates if p.is_file()), None)


def samples_to_scores(
    samples: str | os.PathLike, out: str | os.PathLike, *, model: str | None = None
) -> Path:
    """Write the scores file of a harness run's ``li_adger_adc`` samples; return its path.

    ``samples`` is the samples file or the run's folder (:func:`find_samples`). ``model`` names
    the model in the report (default: :func:`model_of_run`; a run without its results file
    needs ``model``). The metadata records the log-likelihood convention (the harness's:
    BOS-else-EOS context, ``" " + sentence``, sum of token log-probabilities).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> from metric_adc.scores.file import read_scores
    >>> d = pathlib.Path(tempfile.mkdtemp()) / "EleutherAI__pythia-160m"
    >>> d.mkdir()
    >>> doc = {"id": "32.1.martin.1a.g.01", "sentence": "Kerry attempted to study physics."}
    >>> _ = (d / "samples.jsonl").write_text(
    ...     json.dumps({"doc": doc, "filtered_resps": [["-48.5", "False"]]}) + "\\n")
    >>> sf = read_scores(samples_to_scores(d / "samples.jsonl", d / "scores.jsonl",
    ...                                    model="EleutherAI/pythia-160m"))
    >>> sf.label, sf.as_dict(), sf.metadata["convention"]
    ('EleutherAI/pythia-160m (logprob, lm-eval-harness)', {'32.1.martin.1a.g.01': -48.5}, 'lm-eval-harness')
    """
    path = find_samples(samples)
    check_not_input(
        [("--out", out, False)],
        [("RUN_DIR_OR_SAMPLES", path), ("its results file", results_file(path) or path)],
    )
    records = read_samples(path)
    name = model or model_of_run(path)
    if name is None:
        raise ValueError(
            f"{path}: no results_<date>.json beside it names the model; pass the model's name "
            "(--model NAME)"
        )
    metadata = {
        "model": name,
        "kind": "lm-eval-harness",
        "variant": "logprob",
        "reduction": "sum",
        "convention": "lm-eval-harness",
        "dataset": "li_adger",
        "task": TASK,
        "samples": path.name,
    }
    return write_scores(out, records, metadata)
