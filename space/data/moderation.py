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
(:func:`read_requests`) with the metrics computed from their files (:func:`evaluated`);
:func:`approve` evaluates the file again and moves the request to ``approved/``, its record
holding those metrics and the file's SHA-256 (``"sha256"``), where the app shows it to
everybody, computed from the file once more and only while the file is the one approved
(:mod:`space.data.approval`); :func:`reject` deletes the files. Approving, rejecting and
submitting hold the submission's lock (:meth:`space.data.store.Store.lock`): racing calls leave
one outcome and one complete record.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import tempfile
from dataclasses import dataclass
from pathlib import Path

from metric_adc.scores.file import RECORD_FIELDS, ScoresFile, write_scores
from space.data.approval import (
    ApprovalError,
    Evaluator,
    check_approved,
    read_submitted,
    sha256_of,
)
from space.data.benchmark_data import FamilyEntry, ItemsUnavailable
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
    "evaluated",
    "find_request",
    "metrics_of",
    "read_requests",
    "reject",
    "scores_only",
    "submission_entry",
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
    name, the submitter's login (``None`` without one), the metrics computed from its file and,
    once approved, the SHA-256 of the scores file approved."""

    stem: str
    name: str
    benchmark: str
    date: str
    file: str
    login: str | None
    metrics: dict
    sha256: str | None = None

    def record(self) -> dict:
        """The request as its ``.json`` file holds it (``sha256`` once approved)."""
        out = {
            "name": self.name,
            "benchmark": self.benchmark,
            "date": self.date,
            "file": self.file,
            "login": self.login,
            "metrics": self.metrics,
        }
        return out if self.sha256 is None else {**out, "sha256": self.sha256}

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


def read_requests(
    store: Store, folder: str = PENDING, problems: list[tuple[str, str]] | None = None
) -> list[Request]:
    """The requests in ``folder`` of ``store`` (pending by default), by file name.

    A request file that cannot be read as one, and a scores file with no request beside it,
    are left out with a warning in the log, and appended to ``problems`` as ``(file, reason)``.

    Examples
    --------
    >>> from space.data.store import LocalStore
    >>> s = LocalStore(tempfile.mkdtemp())
    >>> s.write({"approved/a.json": b"{", "approved/b.jsonl": b""}, "")
    >>> problems = []
    >>> read_requests(s, APPROVED, problems), problems
    ([], [('approved/a.json', 'not a request: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'), ('approved/b.jsonl', 'no request approved/b.json beside it')])
    """
    out = []
    names = store.list(folder)
    for name in names:
        stem, ext = name.rsplit(".", 1) if "." in name else (name, "")
        problem = None
        if ext == "jsonl" and f"{stem}.json" not in names:
            problem = f"no request {folder}/{stem}.json beside it"
        elif ext == "json":
            try:
                r = json.loads(store.read(f"{folder}/{name}"))
                sha = r.get("sha256")
                out.append(
                    Request(stem, str(r["name"]), str(r["benchmark"]), str(r["date"]),
                            str(r["file"]), r.get("login"), dict(r["metrics"]),
                            None if sha is None else str(sha))
                )  # fmt: skip
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                problem = f"not a request: {exc}"
        if problem is not None:
            log.warning("%s/%s left out: %s", folder, name, problem)
            if problems is not None:
                problems.append((f"{folder}/{name}", problem))
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


def _files(stem: str, folder: str) -> list[str]:
    return [f"{folder}/{stem}.jsonl", f"{folder}/{stem}.json"]


def submission_entry(
    store: Store, req: Request, evaluator: Evaluator, folder: str = PENDING, *, kind: str = ""
) -> tuple[ModelEntry | FamilyEntry, bytes]:
    """The entry of ``req`` computed from its scores file in ``folder`` (and the file's bytes).

    In ``approved/`` the file must be the one approved (:func:`~space.data.approval.check_approved`).
    Raises :class:`~space.data.approval.ApprovalError` (a ``ValueError``) naming the file in
    the store when it changed, cannot be read or cannot be evaluated, and
    :class:`~space.data.store.StoreError` when the store fails.
    """
    file = f"{folder}/{req.stem}.jsonl"
    data = store.read(file)
    if folder == APPROVED:
        check_approved(data, req.sha256, file=file)
    try:
        sf = read_submitted(data, file=file)
        return evaluator.entry(sf, req.benchmark, name=req.name, kind=kind, file=file), data
    except ItemsUnavailable as exc:
        raise ApprovalError(f"{file}: cannot be evaluated here: {exc}") from None
    except ValueError as exc:  # a ScoresFileError names the file already
        message = str(exc)
        raise ApprovalError(message if message.startswith(file) else f"{file}: {message}") from None


def evaluated(store: Store, req: Request, evaluator: Evaluator, folder: str = PENDING) -> Request:
    """``req`` with the metrics computed from its scores file in ``folder``
    (:func:`submission_entry`): what ``review`` shows and an approval records."""
    entry, data = submission_entry(store, req, evaluator, folder)
    sha = req.sha256 if folder == APPROVED else sha256_of(data)
    return dataclasses.replace(req, metrics=metrics_of(entry), sha256=sha)


def approve(store: Store, name: str, evaluator: Evaluator) -> Request:
    """Make the pending submission ``name`` public, holding its lock: evaluate its scores file
    (refused with the file named when it cannot be), then in one change write ``approved/``'s
    scores file and record (the metrics computed now and the file's SHA-256) and delete the
    pending files. Returns the approved request."""
    stem = find_request(store, name).stem
    with store.lock(stem):
        req = find_request(store, name)  # again: a racing call may have taken it
        entry, data = submission_entry(store, req, evaluator)  # these bytes are approved
        done = dataclasses.replace(req, metrics=metrics_of(entry), sha256=sha256_of(data))
        record = json.dumps(done.record(), indent=1, ensure_ascii=False, allow_nan=False) + "\n"
        jsonl, json_ = _files(stem, APPROVED)
        store.commit(
            {jsonl: data, json_: record.encode()}, _files(stem, PENDING), f"Approve {req.name!r}"
        )
    return done


def reject(store: Store, name: str) -> Request:
    """Drop the pending submission ``name``, holding its lock: delete its files."""
    stem = find_request(store, name).stem
    with store.lock(stem):
        req = find_request(store, name)  # again: a racing call may have taken it
        store.delete(_files(stem, PENDING), f"Reject {req.name!r}")
    return req
