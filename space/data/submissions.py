"""A moderated leaderboard, as the running app sees it: :class:`Submissions`.

*Submit* stores a session's evaluated upload as a pending request in the store
(:mod:`space.data.moderation` has its files); a maintainer approves or rejects it with
``python -m space review`` (:mod:`space.data.review`). The app shows the approved submissions
to every session, read at start-up and again on a page load at most every :data:`REFRESH_S`
seconds, so an approval shows without a restart. Every approved submission is evaluated from
its scores file, which must be the file approved (its SHA-256); one that is not, or cannot be
read or evaluated, is named in :attr:`Submissions.skipped` and the log, never dropped unsaid.
Until then the submitter sees the upload in their own session only. A name is submitted once: a name already on a leaderboard, pending or
approved is refused, never replaced.

Submissions are rate-limited per Hugging Face login, or per browser session without one
(:data:`SUBMISSIONS_PER_HOUR`).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from li_adger.benchmarks import Items
from metric_adc.pairs import PairTable
from metric_adc.scores.file import ScoresFile
from space.data.approval import Evaluator
from space.data.benchmark_data import FamilyEntry, benchmark_items
from space.data.entries import ModelEntry
from space.data.kinds import KIND_SUBMISSION
from space.data.moderation import (
    APPROVED,
    PENDING,
    Request,
    SubmitError,
    metrics_of,
    read_requests,
    submission_entry,
    submission_files,
)
from space.data.names import slug
from space.data.ratelimit import RateLimit
from space.data.store import Store, StoreError

__all__ = ["REFRESH_S", "SUBMISSIONS_PER_HOUR", "Submissions"]

log = logging.getLogger(__name__)

SUBMISSIONS_PER_HOUR = 5
"""Submissions one login (or one session without a login) may make per hour."""
REFRESH_S = 60.0
"""Seconds between two readings of the approved submissions while the app runs."""


class Submissions:
    """The submissions of one store as the running app sees them: the approved ones by
    benchmark (shared by every session, read again at most every ``refresh_s`` seconds) and
    :meth:`submit` for a session's upload (thread-safe).

    ``pairs`` are LI-Adger's pairs and ``items(benchmark)`` another benchmark's items (every
    approved submission is evaluated again from its scores file); ``limit`` the rate limit
    (default :data:`SUBMISSIONS_PER_HOUR` per hour); ``require_login``: refuse a submission
    without a Hugging Face login (on a Space). :attr:`skipped` lists ``(file, reason)`` of every
    approved submission not shown.

    Examples
    --------
    >>> import tempfile
    >>> import numpy as np
    >>> from space.data.store import LocalStore
    >>> from space.data.toy import toy_space_data
    >>> data = toy_space_data()
    >>> subs = Submissions(LocalStore(tempfile.mkdtemp()), data.pairs)
    >>> sf = ScoresFile({}, list(data.models[0].z), np.array(list(data.models[0].z.values())))
    >>> subs.submit("li_adger", data.models[0], sf, name="mine", file="m.csv", login=None,
    ...             session="s1", taken=set()).stem
    'mine'
    >>> subs.approved("li_adger")
    []
    >>> from space.data.moderation import approve
    >>> _ = approve(subs.store, "mine", subs.evaluator)
    >>> subs.refresh(force=True)
    >>> [(e.name, e.kind) for e in subs.approved("li_adger")]
    [('mine', 'submission')]
    """

    def __init__(
        self,
        store: Store,
        pairs: PairTable,
        *,
        items: Callable[[str], Items] = benchmark_items,
        limit: RateLimit | None = None,
        require_login: bool = False,
        refresh_s: float = REFRESH_S,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.store = store
        self.pairs = pairs
        self.evaluator = Evaluator(pairs, items=items)
        self.limit = limit or RateLimit(SUBMISSIONS_PER_HOUR, 3600.0, clock=clock)
        self.require_login = require_login
        self.refresh_s = refresh_s
        self._clock = clock
        self._read_at: float | None = None
        self._entries: dict[str, dict[str, Any]] = {}  # benchmark -> stem -> entry
        self._skipped: dict[str, tuple[str, str]] = {}  # stem or file -> (file, reason)
        self.error: str | None = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ approved
    def refresh(self, *, force: bool = False) -> None:
        """Read the approved submissions again when ``refresh_s`` has passed (or ``force``).

        A store that cannot be read leaves the entries as they were and says why in
        :attr:`error`.
        """
        with self._lock:
            now = self._clock()
            if not force and self._read_at is not None and now - self._read_at < self.refresh_s:
                return
            self._read_at = now
            problems: list[tuple[str, str]] = []
            try:
                requests = read_requests(self.store, APPROVED, problems)
            except StoreError as exc:
                log.warning("approved submissions not read: %s", exc)
                self.error = str(exc)
                return
            self.error = None
            skipped = {file: (file, why) for file, why in problems}
            known = {stem for es in self._entries.values() for stem in es}
            for req in requests:
                if req.stem in known:
                    continue
                try:
                    entry, _ = submission_entry(
                        self.store, req, self.evaluator, APPROVED, kind=KIND_SUBMISSION
                    )
                except (StoreError, ValueError) as exc:
                    file = f"{APPROVED}/{req.stem}.jsonl"
                    if self._skipped.get(req.stem) != (file, str(exc)):
                        log.warning("approved submission %s not shown: %s", file, exc)
                    skipped[req.stem] = (file, str(exc))
                    continue
                self._entries.setdefault(req.benchmark, {})[req.stem] = entry
            self._skipped = skipped
            live = {r.stem for r in requests}
            for es in self._entries.values():
                for stem in [s for s in es if s not in live]:  # deleted by a maintainer
                    del es[stem]

    @property
    def skipped(self) -> list[tuple[str, str]]:
        """``(file, reason)`` of every approved submission not shown, as last read."""
        with self._lock:
            return list(self._skipped.values())

    def approved(self, benchmark: str) -> list:
        """The approved submissions on ``benchmark``, by file name."""
        self.refresh()
        with self._lock:
            return list(self._entries.get(benchmark, {}).values())

    def names(self) -> set[str]:
        """The names of every approved submission."""
        self.refresh()
        with self._lock:
            return {e.name for es in self._entries.values() for e in es.values()}

    # ------------------------------------------------------------------ submit
    def submit(
        self,
        benchmark: str,
        entry: ModelEntry | FamilyEntry,
        sf: ScoresFile,
        *,
        name: str,
        file: str,
        login: str | None,
        session: str | None,
        taken: set[str],
        date: dt.date | None = None,
    ) -> Request:
        """Store ``sf`` as a pending request named ``name``; return it.

        ``taken`` are the names already on the leaderboards. Raises :class:`SubmitError` when
        the name is empty or taken (on a leaderboard, pending or approved), a login is
        required and missing, the submitter is over the rate limit, or the store fails.
        """
        name = name.strip()
        if not name:
            raise SubmitError("give the model a name to submit it under")
        if self.require_login and not login:
            raise SubmitError(
                "sign in with Hugging Face (the button above) to submit: a submission records "
                "who sent it"
            )
        who = f"login {login}" if login else "session"
        key = f"login:{login}" if login else f"session:{session}"
        with self._lock, self.store.lock(slug(name)):
            wait = self.limit.wait(key)
            if wait > 0:
                per = "Hugging Face login" if login else "browser session"
                raise SubmitError(
                    f"this {who} has made {self.limit.most} submissions in the last "
                    f"{self.limit.window_s / 3600:g} hour(s), the most allowed per {per}; "
                    f"try again in {max(1, round(wait / 60))} min"
                )
            stem = slug(name)
            stems = {f.rsplit(".", 1)[0] for f in self.store.list(PENDING)}
            stems |= {f.rsplit(".", 1)[0] for f in self.store.list(APPROVED)}
            names = {e.name for es in self._entries.values() for e in es.values()} | set(taken)
            if stem in stems or name in names:
                raise SubmitError(
                    f"{name!r} is already submitted or on the leaderboard (file {stem}.jsonl "
                    f"in {self.store.where}): choose another name; a submission is never "
                    "replaced from the page"
                )
            req, files = submission_files(
                sf, name=name, benchmark=benchmark, file=file, login=login,
                metrics=metrics_of(entry), date=date,
            )  # fmt: skip
            self.store.write(files, f"Submit {name!r} for review")
            self.limit.record(key)
            return req
