"""``python -m space review``: the maintainer's side of the moderated leaderboard.

    python -m space review --results DIR             # list the pending submissions
    python -m space review --results DIR --approve NAME
    python -m space review --results-repo REPO --reject NAME

The store is the app's: the results folder (``--results``, ``$ADC_RESULTS_DIR``) or the Hub
dataset repository (``--results-repo``, ``$ADC_RESULTS_REPO``; the token is ``$HF_TOKEN`` or
a saved login). ``--results`` must be a folder.

The list shows each pending submission's metrics computed from its scores file now (and what
was recorded at submission when that differs), then every approved submission the app would
not show, with the reason (a file changed since approval, or one that cannot be read or
evaluated). Approving evaluates the file again and moves the request to ``approved/`` with
those metrics and the file's SHA-256 (:func:`space.data.moderation.approve`): a running app
shows it to everybody within :data:`~space.data.submissions.REFRESH_S` seconds. Rejecting
deletes it. LI-Adger is read as the app reads it (``$ADC_DATASET_REPO``, else the package's
build).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from li_adger.hub import HubError
from li_adger.io.text_table import text_table
from space.data.approval import Evaluator, read_submitted
from space.data.benchmark_data import LI_ADGER
from space.data.moderation import (
    APPROVED,
    PENDING,
    Request,
    SubmitError,
    approve,
    evaluated,
    read_requests,
    reject,
)
from space.data.results_folder import RESULTS_DIR_ENV
from space.data.store import RESULTS_REPO_ENV, HubStore, LocalStore, Store, StoreError
from space.data.submissions import REFRESH_S

__all__ = ["duplicates", "main", "not_shown", "pending_table", "same_scores", "shipped_scores"]


def same_scores(a: Mapping[str, float], b: Mapping[str, float]) -> bool:
    """Whether two models scored the same units the same (to a float's last digits).

    Examples
    --------
    >>> same_scores({"a": 1.0, "b": 2.0}, {"b": 2.0, "a": 1.0 + 1e-15})
    True
    >>> same_scores({"a": 1.0}, {"a": 1.5}), same_scores({"a": 1.0}, {"b": 1.0})
    (False, False)
    """
    return a.keys() == b.keys() and all(math.isclose(a[k], b[k], rel_tol=1e-12) for k in a)


def shipped_scores() -> dict[str, dict[str, dict[str, float]]]:
    """The scores of the rows shipped with the app, by benchmark then name (LI-Adger's: the
    offline models and the thesis's; the other benchmarks ship results only)."""
    from space.data.shipped import read_li_adger, read_thesis

    return {LI_ADGER: {s.name: s.scores for s in [*read_li_adger(), *read_thesis()]}}


def _scores(store: Store, folder: str, req: Request) -> dict[str, float]:
    file = f"{folder}/{req.stem}.jsonl"
    return read_submitted(store.read(file), file=file).as_dict()


def duplicates(
    store: Store,
    pending: Sequence[Request],
    shipped: Mapping[str, Mapping[str, Mapping[str, float]]],
) -> dict[str, str]:
    """Each pending request whose scores equal those of a shipped row (``shipped``: benchmark
    → name → scores) or of an approved one, by stem: what it duplicates."""
    rows = {b: dict(by_name) for b, by_name in shipped.items()}
    for req in read_requests(store, APPROVED):
        rows.setdefault(req.benchmark, {})[f"approved {req.name}"] = _scores(store, APPROVED, req)
    out = {}
    for req in pending:
        mine = _scores(store, PENDING, req)
        same = [n for n, s in rows.get(req.benchmark, {}).items() if same_scores(mine, s)]
        if same:
            out[req.stem] = ", ".join(same)
    return out


def pending_table(
    store: Store, shipped: Mapping | None = None, evaluator: Evaluator | None = None
) -> str:
    """The pending submissions of ``store`` as a text table, or a line saying there is none.
    Each row gives the metrics computed from its scores file now (with ``evaluator``; else the
    ones recorded at submission), and a submission whose scores equal a shipped row's
    (``shipped``, as :func:`duplicates` takes it; default :func:`shipped_scores`) or an approved
    one's is flagged.

    Examples
    --------
    >>> import tempfile
    >>> print(pending_table(LocalStore(tempfile.mkdtemp()), {}, Evaluator(None)))
    No submission is pending in the results folder ...
    """
    pending = read_requests(store)
    if not pending:
        return f"No submission is pending in {store.where}."
    same = duplicates(store, pending, shipped_scores() if shipped is None else shipped)
    rows = []
    for r in pending:
        metrics = r.headline()
        if evaluator is not None:
            try:
                now = evaluated(store, r, evaluator).headline()
                metrics = now if now == metrics else f"{now} (recorded at submission: {metrics})"
            except (StoreError, ValueError) as exc:
                metrics = f"cannot be evaluated: {exc}"
        flag = f"DUPLICATE of {same[r.stem]}" if r.stem in same else "—"
        rows.append([r.name, r.benchmark, r.date, r.login or "—", r.file, metrics, flag])
    what = "metrics (from its file)" if evaluator is not None else "metrics (recorded)"
    header = ["name", "benchmark", "date", "login", "file", what, "same scores as"]
    return f"Pending in {store.where}:\n" + text_table(header, rows)


def not_shown(store: Store, evaluator: Evaluator) -> list[tuple[str, str]]:
    """``(file, reason)`` of every approved submission of ``store`` the app would not show: a
    request that cannot be read, a scores file without its request, a file changed since it
    was approved, or one that cannot be read or evaluated.

    Examples
    --------
    >>> import tempfile
    >>> s = LocalStore(tempfile.mkdtemp())
    >>> s.write({"approved/m.jsonl": b"{"}, "")
    >>> not_shown(s, Evaluator(None))
    [('approved/m.jsonl', 'no request approved/m.json beside it')]
    """
    problems: list[tuple[str, str]] = []
    for req in read_requests(store, APPROVED, problems):
        try:
            evaluated(store, req, evaluator, APPROVED)
        except (StoreError, ValueError) as exc:
            problems.append((f"{APPROVED}/{req.stem}.jsonl", str(exc)))
    return problems


def _listing(store: Store, evaluator: Evaluator) -> str:
    lines = [pending_table(store, evaluator=evaluator)]
    problems = not_shown(store, evaluator)
    if problems:
        lines.append(f"Approved but not shown by the app ({len(problems)}):")
        lines += [f"  {file}: {why}" for file, why in problems]
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m space review",
        description="List the submissions waiting for review; approve one (it goes public) or "
        "reject one (it is deleted).",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--results",
        metavar="DIR",
        default=None,
        help=f"the app's results folder (default ${RESULTS_DIR_ENV})",
    )
    where.add_argument(
        "--results-repo",
        metavar="REPO",
        default=None,
        help=f"the app's Hub results repository (default ${RESULTS_REPO_ENV})",
    )
    act = p.add_mutually_exclusive_group()
    for flag, does in (("--approve", "make it public"), ("--reject", "drop it")):
        act.add_argument(flag, metavar="NAME", help=f"the pending submission NAME: {does}")
    return p


def _store(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Store | None:
    """The store the options name (or the environment), else ``None``; a results path that is
    not a folder is a usage error naming where it came from."""
    repo = args.results_repo or (None if args.results else os.environ.get(RESULTS_REPO_ENV))
    if repo:
        return HubStore(repo)
    folder = args.results or os.environ.get(RESULTS_DIR_ENV)
    if not folder:
        return None
    named = "--results" if args.results else f"${RESULTS_DIR_ENV}"
    path = Path(folder)
    if path.exists() and not path.is_dir():
        parser.error(f"{named} {folder} is a file; expected the app's results folder")
    if not path.exists():
        parser.error(f"{named} {folder}: no such folder (the app's results folder)")
    return LocalStore(folder)


def _evaluator() -> Evaluator:
    """What the app evaluates with: LI-Adger's pairs as the app reads them, read when needed."""
    from space.data.dataset import configured_repo, load_li_adger

    return Evaluator(lambda: load_li_adger(configured_repo()).pairs)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command: 0 on success, 1 when the name or the store fails, 2 on bad usage."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        store = _store(args, parser)
        if store is None:
            parser.error(
                f"name the store: --results DIR or --results-repo REPO (or ${RESULTS_DIR_ENV}, "
                f"${RESULTS_REPO_ENV})"
            )
        if args.approve:
            req = approve(store, args.approve, _evaluator())
            print(f"approved {req.name!r} ({req.benchmark}, {req.headline()} computed from its "
                  f"file, SHA-256 {req.sha256[:12]}…): public in {store.where}; a running app "
                  f"shows it within {REFRESH_S:g} s")  # fmt: skip
        elif args.reject:
            req = reject(store, args.reject)
            print(f"rejected {req.name!r} ({req.benchmark}): its files are deleted")
        else:
            print(_listing(store, _evaluator()))
    except (SubmitError, StoreError, HubError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
