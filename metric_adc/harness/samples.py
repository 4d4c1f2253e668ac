"""A harness run's logged samples → a scores file, for ``python -m metric_adc report`` and the app.

``lm_eval ... --tasks li_adger_adc --log_samples --output_path DIR`` writes
``DIR/<model>/samples_li_adger_adc_<date>.jsonl``, one JSON record per sentence: the document
(``doc``, with the sentence's ``id`` and ``sentence``) and the harness's answer to its one
request (``filtered_resps``: ``[[log-likelihood, is_greedy]]``, written as strings).
:func:`samples_to_scores` turns that file into the project's scores file, so the full report
(bootstrap intervals, δ sweep, breakdowns, plots, comparisons) and the app's leaderboard read
the very log-likelihoods the harness computed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from metric_adc.harness import TASK
from metric_adc.scores.file import write_scores

__all__ = ["read_samples", "samples_to_scores"]


def _field(record: object, path: tuple, where: str) -> object:
    value = record
    for key in path:
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError):
            name = "".join(f"[{k!r}]" for k in path)
            raise ValueError(f"{where}: expected the field {name} (got {record!r:.120})") from None
    return value


def read_samples(path: str | os.PathLike) -> list[dict]:
    """The records ``{"id", "sentence", "score"}`` of a ``li_adger_adc`` samples file, in its order.

    ``score`` is the log-likelihood the harness logged for the sentence.

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
    ValueError: .../samples_li_adger_adc_2026.jsonl line 1: expected the field ['filtered_resps'][0][0] (got ...)
    """
    path = Path(path)
    records = []
    with path.open(encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            where = f"{path} line {lineno}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{where}: not valid JSON ({exc.msg})") from exc
            raw = _field(record, ("filtered_resps", 0, 0), where)
            try:
                score = float(raw)
            except (TypeError, ValueError):
                raise ValueError(
                    f"{where}: the log-likelihood must be a number (got {raw!r})"
                ) from None
            records.append(
                {
                    "id": str(_field(record, ("doc", "id"), where)),
                    "sentence": str(_field(record, ("doc", "sentence"), where)),
                    "score": score,
                }
            )
    if not records:
        raise ValueError(f"{path}: no samples (expected one record per sentence of {TASK})")
    return records


def samples_to_scores(
    samples: str | os.PathLike, out: str | os.PathLike, *, model: str | None = None
) -> Path:
    """Write the scores file of a harness run's ``li_adger_adc`` samples file; return its path.

    ``model`` names the model in the report (default: the samples file's folder, which the
    harness names after the model, e.g. ``EleutherAI__pythia-160m``). The metadata records the
    log-likelihood convention (the harness's: BOS-else-EOS context, ``" " + sentence``, sum of
    token log-probabilities).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> from metric_adc.scores.file import read_scores
    >>> d = pathlib.Path(tempfile.mkdtemp()) / "EleutherAI__pythia-160m"
    >>> d.mkdir()
    >>> doc = {"id": "32.1.martin.1a.g.01", "sentence": "Kerry attempted to study physics."}
    >>> _ = (d / "samples.jsonl").write_text(
    ...     json.dumps({"doc": doc, "filtered_resps": [["-48.5", "False"]]}) + "\\n")
    >>> sf = read_scores(samples_to_scores(d / "samples.jsonl", d / "scores.jsonl"))
    >>> sf.label, sf.as_dict(), sf.metadata["convention"]
    ('EleutherAI__pythia-160m (logprob, lm-eval-harness)', {'32.1.martin.1a.g.01': -48.5}, 'lm-eval-harness')
    """
    samples = Path(samples)
    metadata = {
        "model": model or samples.resolve().parent.name,
        "kind": "lm-eval-harness",
        "variant": "logprob",
        "reduction": "sum",
        "convention": "lm-eval-harness",
        "dataset": "li_adger",
        "task": TASK,
        "samples": samples.name,
    }
    return write_scores(out, read_samples(samples), metadata)
