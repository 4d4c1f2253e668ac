"""The submissions in a store: the files of a request, and a maintainer's approval or rejection.

*Submit* (:class:`space.data.submissions.Submissions`) stores an evaluated upload as a pending
request, two files in the store (:mod:`space.data.store`: the results folder or a Hub dataset
repository)::

    pending/<slug>.jsonl   the scores file: the metric's writer, without the units' texts, its
                           metadata naming the benchmark ("dataset") and the submission
                           ("submission": name, date, file, login)
    pending/<slug>.json    the request: name, benchmark, date, file, login (the submitter's
                           Hugging Face login on a Space, else null) and the metrics the app
                           computed ("metrics": the LI-Adger row, or the benchmark's result)

``python -m space review`` (:mod:`space.data.review`) lists the pending requests
(:func:`read_requests`); :func:`approve` moves a request's files to ``approved/``, where the
app shows them to everybody; :func:`reject` deletes them.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import tempfile
from dataclasses import dataclass
from pathlib import Path

from metric_adc.scores.file import RECORD_FIELDS, ScoresFile, write_scores
from space.data.benchmark_data import FamilyEntry
from space.data.entries import ModelEntry
from space.data.names import slug
from space.data.store import Store

__all__ = [
    "APPROVED",
    "PENDING",
    "SUBMISSION_KEY",
    "Request",
    "SubmitError",
    "approve",
    "find_request",
    "metrics_of",
    "read_requests",
    "reject",
    "scores_only",
    "submission_files",
]

log = logging.getLogger(__name__)

SUBMISSION_KEY = "submission"
"""Metadata key of a submitted scores file: ``{"name", "date", "file", "login"}``."""
PENDING = "pending"
"""Folder of the requests waiting for review."""
APPROVED = "approved"
"""Folder of the approved submissions, shown to everybody."""


class SubmitError(RuntimeError):
    """An upload could not be submitted; the one-line message says why and what to do."""


def scores_only(sf: ScoresFile) -> ScoresFile:
    """``sf`` without the units' texts (``sentence``, ``context``, ``completion``): the ids name
    the units, and a submitted file never republishes a benchmark's sentences. What the scorer
    measured (``rank``, ``top``, lengths, log-probabilities) is kept.

    Examples
    --------
    >>> import numpy as np
    >>> sf = ScoresFile({}, ["a"], np.array([1.0]), ["A."], {"sentence": ["A."], "rank": [2]})
    >>> s = scores_only(sf)
    >>> s.sentences, s.fields
    (None, {'rank': [2]})
    """
    fields = {k: v for k, v in sf.fields.items() if RECORD_FIELDS.get(k) != "text"}
    return ScoresFile(sf.metadata, sf.ids, sf.scores, None, fields)


def metrics_of(entry: ModelEntry | FamilyEntry) -> dict:
    """What the app computed of an entry, as a request records it: an LI-Adger model's result
    row, or a benchmark's result with the ranks and top predictions of a cloze model.

    Examples
    --------
    >>> from space.data.toy import toy_benchmark_data
    >>> sorted(metrics_of(toy_benchmark_data().entries[0]))
    ['ranks', 'result', 'top']
    """
    if isinstance(entry, FamilyEntry):
        return {"result": entry.result, "ranks": entry.ranks, "top": entry.top}
    return {"row": entry.row}


@dataclass(frozen=True)
class Request:
    """One submission: its file stem in the store, name, benchmark, date, the uploaded file's
    name, the submitter's login (``None`` without one) and the metrics the app computed."""

    stem: str
    name: str
    benchmark: str
    date: str
    file: str
    login: str | None
    metrics: dict

    def record(self) -> dict:
        """The request as its ``.json`` file holds it."""
        return {
            "name": self.name,
            "benchmark": self.benchmark,
            "date": self.date,
            "file": self.file,
            "login": self.login,
            "metrics": self.metrics,
        }

    def headline(self) -> str:
        """The request's main numbers in a few words (for the review command).

        Examples
        --------
        >>> Request("m", "m", "li_adger", "2026-01-02", "m.csv", None,
        ...         {"row": {"blimp": 0.8, "adc": {"0.5": 0.25}}}).headline()
        'BLiMP 0.800, ADC δ=0.5 0.250'
        """
        m = self.metrics
        if "row" in m:
            return f"BLiMP {m['row']['blimp']:.3f}, ADC δ=0.5 {m['row']['adc']['0.5']:.3f}"
        h = m["result"]["headline"]
        value = "—" if h["value"] is None else f"{h['value']:.3f}"
        return f"{h['statistic']} {value}"


def submission_files(
    sf: ScoresFile,
    *,
    name: str,
    benchmark: str,
    file: str,
    login: str | None,
    metrics: dict,
    date: dt.date | None = None,
) -> tuple[Request, dict[str, bytes]]:
    """The request of a submission and its two files (``pending/<slug>.jsonl`` and ``.json``).

    The scores file keeps ``sf``'s records without the units' texts (:func:`scores_only`) and
    its metadata, with ``dataset`` set to ``benchmark`` and the ``submission`` record;
    ``date`` defaults to today (UTC).

    Examples
    --------
    >>> import numpy as np
    >>> sf = ScoresFile({"model": "m"}, ["a", "b"], np.array([1.0, 2.0]))
    >>> req, files = submission_files(sf, name="My m", benchmark="li_adger", file="m.csv",
    ...                               login=None, metrics={}, date=dt.date(2026, 1, 2))
    >>> list(files), req.stem
    (['pending/my-m.jsonl', 'pending/my-m.json'], 'my-m')
    >>> json.loads(files["pending/my-m.jsonl"].splitlines()[0])["submission"]
    {'name': 'My m', 'date': '2026-01-02', 'file': 'm.csv', 'login': None}
    """
    date = date or dt.datetime.now(dt.UTC).date()
    req = Request(slug(name), name, benchmark, date.isoformat(), file, login, metrics)
    sf = scores_only(sf)
    metadata = {k: v for k, v in sf.metadata.items() if k not in ("format", "version")}
    metadata.update(
        dataset=benchmark,
        **{SUBMISSION_KEY: {"name": name, "date": req.date, "file": file, "login": login}},
    )
    records = []
    for k, (i, s) in enumerate(zip(sf.ids, sf.scores.tolist(), strict=True)):
        rec = {"id": i, "score": s}
        rec.update({f: values[k] for f, values in sf.fields.items()})
        records.append(rec)
    with tempfile.TemporaryDirectory(prefix="adc-submit-") as tmp:
        scores = write_scores(Path(tmp) / "scores.jsonl", records, metadata).read_bytes()
    request = json.dumps(req.record(), indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    base = f"{PENDING}/{req.stem}"
    return req, {f"{base}.jsonl": scores, f"{base}.json": request.encode()}


def read_requests(store: Store, folder: str = PENDING) -> list[Request]:
    """The requests in ``folder`` of ``store`` (pending by default), oldest name first.

    A request file that cannot be read as one is left out with a warning in the log.
    """
    out = []
    for name in store.list(folder):
        if not name.endswith(".json"):
            continue
        try:
            r = json.loads(store.read(f"{folder}/{name}"))
            out.append(
                Request(name[: -len(".json")], str(r["name"]), str(r["benchmark"]),
                        str(r["date"]), str(r["file"]), r.get("login"), dict(r["metrics"]))
            )  # fmt: skip
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("request %s/%s left out: %s", folder, name, exc)
    return out


def find_request(store: Store, name: str) -> Request:
    """The pending request called ``name`` (its name or its file stem).

    Raises :class:`SubmitError` naming the pending requests when there is none.
    """
    pending = read_requests(store)
    found = [r for r in pending if name in (r.name, r.stem)]
    if not found:
        names = ", ".join(repr(r.name) for r in pending) or "none"
        raise SubmitError(f"no pending submission is called {name!r} (pending: {names})")
    return found[0]


def _moves(stem: str, source: str, target: str) -> dict[str, str]:
    return {f"{source}/{stem}{ext}": f"{target}/{stem}{ext}" for ext in (".jsonl", ".json")}


def approve(store: Store, name: str) -> Request:
    """Make the pending submission ``name`` public: move its files to ``approved/``."""
    req = find_request(store, name)
    store.move(_moves(req.stem, PENDING, APPROVED), f"Approve {req.name!r}")
    return req


def reject(store: Store, name: str) -> Request:
    """Drop the pending submission ``name``: delete its files."""
    req = find_request(store, name)
    store.delete(list(_moves(req.stem, PENDING, APPROVED)), f"Reject {req.name!r}")
    return req
