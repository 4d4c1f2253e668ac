"""What is approved is what is shown: ``review`` shows the metrics computed from the submitted
file, an approval records its SHA-256, the app computes every row from its file and refuses one
changed since approval, an approved file that cannot be read is named (``review``, the app's
log), and approve, reject and submit take turns on a submission (threads and processes).

LI-Adger on the toy data of space/data/toy.py; NPI on its real items.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import multiprocessing
import threading
from pathlib import Path

import numpy as np
import pytest

from metric_adc.scores.file import ScoresFile, read_scores, write_scores
from space.__main__ import main, parse_args
from space.data import review
from space.data.approval import Evaluator, sha256_of
from space.data.benchmark_data import benchmark_items
from space.data.kinds import KIND_SUBMISSION
from space.data.moderation import APPROVED, PENDING, SubmitError, approve, reject
from space.data.store import LocalStore, StoreError
from space.data.submissions import Submissions
from space.data.toy import toy_space_data
from space.data.upload import evaluate_upload

TOY_IDS = ["g1", "b1", "g2", "b2", "g3", "b3"]


def _subs(folder) -> Submissions:
    data = toy_space_data()
    subs = Submissions(LocalStore(folder), data.pairs)
    subs.refresh(force=True)
    return subs


def _toy_upload(subs: Submissions, tmp_path, name="mine"):
    """A toy upload whose scores rise with the id order: every bad member outscores its good one."""
    path = tmp_path / f"{name}.csv"
    path.write_text("id,score\n" + "".join(f"{i},{k}\n" for k, i in enumerate(TOY_IDS)))
    data = dataclasses.replace(toy_space_data(), submissions=subs)
    up = evaluate_upload(path, data, [])
    assert up.entry.row["blimp"] == 0.0
    return up


def _submit(subs: Submissions, up, name="mine", session="s1"):
    return subs.submit("li_adger", up.entry, up.sf, name=name, file=up.file, login=None,
                       session=session, taken=set())  # fmt: skip


def _submit_toy(subs: Submissions, tmp_path, name="mine", session="s1"):
    return _submit(subs, _toy_upload(subs, tmp_path, name), name, session)


def _edit(path, scores: dict[str, float]) -> None:
    """Replace the scores of a stored file, keeping its metadata (as a hand edit would)."""
    sf = read_scores(path)
    records = [
        {"id": i, "score": scores.get(i, s)}
        for i, s in zip(sf.ids, sf.scores.tolist(), strict=True)
    ]
    write_scores(path, records, sf.metadata)


def _board(subs: Submissions, bench="li_adger") -> dict:
    subs.refresh(force=True)
    return {e.name: e for e in subs.approved(bench)}


# ----------------------------------------------------------------------------- LI-Adger
def test_review_shows_and_approval_records_what_the_file_gives(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "results"
    subs = _subs(folder)
    _submit_toy(subs, tmp_path)
    # the pending file is edited after submission: every good member now wins
    _edit(folder / PENDING / "mine.jsonl", {"g1": 9.0, "g2": 9.0, "g3": 9.0})
    monkeypatch.setattr(review, "_evaluator", lambda: subs.evaluator)
    assert main(["review", "--results", str(folder)]) == 0
    listing = capsys.readouterr().out
    assert "BLiMP 1.000" in listing and "(recorded at submission: BLiMP 0.000" in listing
    assert main(["review", "--results", str(folder), "--approve", "mine"]) == 0
    assert "approved 'mine' (li_adger, BLiMP 1.000" in capsys.readouterr().out
    record = json.loads((folder / APPROVED / "mine.json").read_text())
    assert record["sha256"] == sha256_of((folder / APPROVED / "mine.jsonl").read_bytes())
    assert record["metrics"]["row"]["blimp"] == 1.0
    shown = _board(_subs(folder))["mine"]
    assert (shown.kind, shown.row["blimp"]) == (KIND_SUBMISSION, 1.0)


def test_a_file_changed_since_approval_is_refused_and_named(tmp_path, capsys, monkeypatch, caplog):
    folder = tmp_path / "results"
    subs = _subs(folder)
    _submit_toy(subs, tmp_path)
    approve(subs.store, "mine", subs.evaluator)
    assert _board(_subs(folder))["mine"].row["blimp"] == 0.0
    _edit(folder / APPROVED / "mine.jsonl", {"g1": 9.0, "g2": 9.0, "g3": 9.0})
    with caplog.at_level(logging.WARNING):
        fresh = _subs(folder)
    assert "mine" not in _board(fresh)
    ((file, why),) = fresh.skipped
    assert file == "approved/mine.jsonl" and "changed since it was approved" in why
    assert f"{file} not shown: {file} changed since it was approved" in caplog.text
    monkeypatch.setattr(review, "_evaluator", lambda: subs.evaluator)
    assert main(["review", "--results", str(folder)]) == 0
    listing = capsys.readouterr().out
    assert "Approved but not shown by the app (1):" in listing
    assert "approved/mine.jsonl changed since it was approved (SHA-256 " in listing


def test_an_approved_file_that_cannot_be_read_is_named(tmp_path, capsys, monkeypatch, caplog):
    folder = tmp_path / "results"
    subs = _subs(folder)
    _submit_toy(subs, tmp_path)
    approve(subs.store, "mine", subs.evaluator)
    # the file no longer parses; its record names the new bytes, as if approved so
    broken = b'{"format": "adc-scores", "version": 1}\n{"id": "g1", "score": \n'
    (folder / APPROVED / "mine.jsonl").write_bytes(broken)
    record = json.loads((folder / APPROVED / "mine.json").read_text())
    record["sha256"] = sha256_of(broken)
    (folder / APPROVED / "mine.json").write_text(json.dumps(record))
    with caplog.at_level(logging.WARNING):
        fresh = _subs(folder)
    ((file, why),) = fresh.skipped
    assert file == "approved/mine.jsonl" and why.startswith("approved/mine.jsonl line 2")
    assert "approved/mine.jsonl not shown: approved/mine.jsonl line 2" in caplog.text
    # a request that is no JSON, and a scores file without its request, are named too
    (folder / APPROVED / "other.json").write_text("{")
    (folder / APPROVED / "lone.jsonl").write_text("")
    monkeypatch.setattr(review, "_evaluator", lambda: subs.evaluator)
    assert main(["review", "--results", str(folder)]) == 0
    listing = capsys.readouterr().out
    assert "Approved but not shown by the app (3):" in listing
    assert "approved/lone.jsonl: no request approved/lone.json beside it" in listing
    assert "approved/other.json: not a request: " in listing
    assert "approved/mine.jsonl: approved/mine.jsonl line 2" in listing
    assert sorted(f for f, _ in _subs(folder).skipped) == [
        "approved/lone.jsonl", "approved/mine.jsonl", "approved/other.json",
    ]  # fmt: skip


def test_a_file_that_cannot_be_evaluated_is_not_approved(tmp_path):
    folder = tmp_path / "results"
    subs = _subs(folder)
    _submit_toy(subs, tmp_path)
    _edit(folder / PENDING / "mine.jsonl", {"g1": float("1e308")})
    sf = read_scores(folder / PENDING / "mine.jsonl")
    records = [
        {"id": i, "score": s} for i, s in zip(sf.ids, sf.scores.tolist(), strict=True) if i != "b2"
    ]
    write_scores(folder / PENDING / "mine.jsonl", records, sf.metadata)
    with pytest.raises(ValueError, match=r"^pending/mine\.jsonl: no score for 1 of the 6 "):
        approve(subs.store, "mine", subs.evaluator)
    assert not (folder / APPROVED).exists()


# ----------------------------------------------------------------------------- NPI
@pytest.fixture(scope="module")
def npi():
    return benchmark_items("npi")


def test_an_npi_row_is_computed_from_its_file_not_from_its_record(tmp_path, npi):
    folder = tmp_path / "results"
    subs = _subs(folder)
    ids = npi.units["id"].tolist()
    c = npi.comparisons
    good = set(c["good_id"])
    # every good sentence wins: the recorded headline is 1.0
    scores = np.array([0.0 if i in good else -1.0 for i in ids])
    sf = ScoresFile({"model": "m", "dataset": "npi"}, ids, scores)
    entry = subs.evaluator.entry(sf, "npi", name="mine npi", kind="upload", file="m.jsonl")
    assert entry.headline == 1.0
    subs.submit("npi", entry, sf, name="mine npi", file="m.jsonl", login=None, session="s",
                taken=set())  # fmt: skip
    # the file is edited: the first 1,000 comparisons' good sentences now lose
    losers = dict.fromkeys(c["good_id"][:1000], -2.0)
    _edit(folder / PENDING / "mine-npi.jsonl", losers)
    expected = 1 - len(losers) / len(c) if len(set(c["good_id"])) == len(c) else None
    done = approve(subs.store, "mine npi", subs.evaluator)
    assert done.metrics["result"]["headline"]["value"] < 1.0
    if expected is not None:
        assert done.metrics["result"]["headline"]["value"] == pytest.approx(expected)
    shown = _board(_subs(folder), "npi")["mine npi"]
    assert shown.kind == KIND_SUBMISSION
    assert shown.result == done.metrics["result"]
    # edited again after approval: refused, named
    _edit(folder / APPROVED / "mine-npi.jsonl", dict.fromkeys(c["good_id"], 5.0))
    fresh = _subs(folder)
    assert "mine npi" not in _board(fresh, "npi")
    assert [f for f, _ in fresh.skipped] == ["approved/mine-npi.jsonl"]


# ----------------------------------------------------------------------------- races
def _race(calls, rounds_barrier) -> list:
    out = [None] * len(calls)

    def run(k):
        rounds_barrier.wait()
        try:
            out[k] = calls[k]()
        except (SubmitError, StoreError) as exc:
            out[k] = exc

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def _one_outcome(folder, results) -> None:
    """Exactly one call succeeded, and the store holds one complete record of it."""
    won = [r for r in results if not isinstance(r, Exception)]
    assert len(won) == 1, results
    pending = sorted(p.name for p in (folder / PENDING).iterdir())
    approved = sorted(p.name for p in (folder / APPROVED).iterdir()) if (
        folder / APPROVED
    ).exists() else []  # fmt: skip
    assert pending == []
    assert approved in ([], ["mine.json", "mine.jsonl"])
    if approved:
        record = json.loads((folder / APPROVED / "mine.json").read_text())
        assert record["sha256"] == sha256_of((folder / APPROVED / "mine.jsonl").read_bytes())


def test_approve_and_reject_racing_in_threads_leave_one_outcome(tmp_path):
    for k in range(25):
        folder = tmp_path / f"r{k}"
        subs = _subs(folder)
        _submit_toy(subs, tmp_path)
        barrier = threading.Barrier(2)
        results = _race(
            [lambda s=subs: approve(s.store, "mine", s.evaluator), lambda s=subs: reject(s.store, "mine")],
            barrier,
        )  # fmt: skip
        _one_outcome(folder, results)


def test_submits_racing_in_threads_leave_one_request(tmp_path):
    for k in range(10):
        folder = tmp_path / f"r{k}"
        subs = [_subs(folder), _subs(folder)]  # two app replicas on one folder
        ups = [_toy_upload(s, tmp_path) for s in subs]
        barrier = threading.Barrier(2)
        results = _race(
            [
                lambda s=s, u=u, n=n: _submit(s, u, session=f"s{n}")
                for n, (s, u) in enumerate(zip(subs, ups, strict=True))
            ],
            barrier,
        )
        assert sum(not isinstance(r, Exception) for r in results) == 1, results
        assert sorted(p.name for p in (folder / PENDING).iterdir()) == ["mine.json", "mine.jsonl"]


def _act(action: str, folder: str, barrier) -> str:
    subs = _subs(folder)
    barrier.wait()
    try:
        if action == "approve":
            approve(subs.store, "mine", subs.evaluator)
        else:
            reject(subs.store, "mine")
    except (SubmitError, StoreError) as exc:
        return f"refused: {exc}"
    return "done"


def _submit_in(folder: str, work: str, session: str, barrier) -> str:
    subs = _subs(folder)
    up = _toy_upload(subs, Path(work))
    barrier.wait()
    try:
        _submit(subs, up, session=session)
    except (SubmitError, StoreError) as exc:
        return f"refused: {exc}"
    return "done"


def test_submits_racing_in_processes_leave_one_request(tmp_path):
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool, ctx.Manager() as manager:
        for k in range(6):
            folder = tmp_path / f"r{k}"
            barrier = manager.Barrier(2)
            jobs = []
            for n in range(2):
                (tmp_path / f"u{k}{n}").mkdir()
                args = (str(folder), str(tmp_path / f"u{k}{n}"), f"s{n}", barrier)
                jobs.append(pool.apply_async(_submit_in, args))
            results = [j.get(timeout=120) for j in jobs]
            assert results.count("done") == 1, results
            assert sorted(p.name for p in (folder / PENDING).iterdir()) == [
                "mine.json", "mine.jsonl",
            ]  # fmt: skip


def test_approve_and_reject_racing_in_processes_leave_one_outcome(tmp_path):
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool, ctx.Manager() as manager:
        for k in range(8):
            folder = tmp_path / f"r{k}"
            _submit_toy(_subs(folder), tmp_path)
            barrier = manager.Barrier(2)
            jobs = [
                pool.apply_async(_act, (a, str(folder), barrier)) for a in ("approve", "reject")
            ]
            results = [j.get(timeout=120) for j in jobs]
            _one_outcome(folder, [None if r == "done" else RuntimeError(r) for r in results])


# ----------------------------------------------------------------------------- --results
def test_results_must_be_a_folder(tmp_path, capsys):
    file = tmp_path / "results.txt"
    file.write_text("")
    with pytest.raises(SystemExit) as stop:
        main(["review", "--results", str(file)])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.endswith(f"error: --results {file} is a file; expected the app's results folder")
    with pytest.raises(SystemExit) as stop:
        main(["review", "--results", str(tmp_path / "missing")])
    assert stop.value.code == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith(f"--results {tmp_path / 'missing'}: no such folder (the app's results folder)")
    )
    with pytest.raises(SystemExit) as stop:
        parse_args(["--results", str(file)])
    assert stop.value.code == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith(f"--results {file} is a file; expected a folder of scores files")
    )


def test_an_evaluator_reads_li_adger_only_when_needed():
    calls = []
    ev = Evaluator(lambda: calls.append(1) or toy_space_data().pairs)
    assert calls == []
    assert len(ev.pairs) == len(ev.pairs) and calls == [1]
