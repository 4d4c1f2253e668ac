"""The moderated leaderboard: an upload submitted for review (pending), then approved or
rejected with ``python -m space review``; the rate limit; the stores (a folder, a Hub dataset
repository through a fake ``HfApi``) and their errors as one line on the page.

Driven through the app's handlers (space/ui/handlers.py) and the command, on the toy data of
space/data/toy.py, whose numbers are worked out in tests/test_space_units.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import gradio as gr
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metric_adc.scores.file import read_scores, write_scores
from space.data.kinds import KIND_SUBMISSION, KIND_UPLOAD
from space.data.moderation import APPROVED, PENDING, approve, read_requests
from space.data.ratelimit import RateLimit
from space.data.store import HubStore, LocalStore, StoreError
from space.data.submissions import Submissions
from space.data.toy import toy_space_data
from space.ui import family_handlers, handlers


class Request:
    """What the handlers read of ``gradio.Request``: the session's id."""

    def __init__(self, session: str):
        self.session_hash = session


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _data(store, *, clock=None, most=5, require_login=False):
    import dataclasses

    data = toy_space_data()
    clock = clock or Clock()
    subs = Submissions(store, data.pairs, limit=RateLimit(most, 3600, clock=clock),
                       require_login=require_login, clock=clock)  # fmt: skip
    subs.refresh(force=True)
    return dataclasses.replace(data, submissions=subs)


def _upload(data, tmp_path, name="mine", uploads=(), *, shown=None):
    """Upload a toy scores file as ``name``; it is ``shown`` under that name (default ``name``)."""
    # scores rising with the id order: every bad member outscores its good one (BLiMP 0 of 3)
    path = tmp_path / f"{name}.csv"
    rows = [(i, k) for k, i in enumerate(["g1", "b1", "g2", "b2", "g3", "b3"])]
    path.write_text("id,score\n" + "".join(f"{i},{s}\n" for i, s in rows))
    status, uploads, _ = handlers.upload(data, str(path), name, 0.5, list(uploads))
    assert status.startswith(f"**Scored `{shown or name}`**"), status
    return uploads


def _board(data, uploads=()):
    return handlers.leaderboard(data, 0.5, list(uploads)).data.set_index("Model")


def _profile(login: str) -> gr.OAuthProfile:
    return gr.OAuthProfile({"name": login.title(), "preferred_username": login,
                            "profile": f"https://huggingface.co/{login}", "picture": ""})  # fmt: skip


# ----------------------------------------------------------------------------- pending
def test_a_submission_waits_for_review_with_its_file_metrics_and_no_login(tmp_path):
    data = _data(LocalStore(tmp_path / "results"))
    uploads = _upload(data, tmp_path)
    status, after, choices = handlers.submit(data, "mine", uploads, None, Request("s1"))
    assert status.startswith("**Submitted `mine`** for the LI-Adger leaderboard"), status
    assert "waits for a maintainer's review" in status
    assert choices["choices"] == [("mine (submitted)", "mine")]  # submitted once, kept chosen
    assert choices["value"] == "mine"
    pending = tmp_path / "results" / PENDING
    assert sorted(p.name for p in pending.iterdir()) == ["mine.json", "mine.jsonl"]
    request = json.loads((pending / "mine.json").read_text())
    assert (request["name"], request["benchmark"], request["login"], request["file"]) == (
        "mine", "li_adger", None, "mine.csv",
    )  # fmt: skip
    assert request["metrics"]["row"]["blimp"] == 0.0  # 0 of 3 pairs, as uploaded
    sf = read_scores(pending / "mine.jsonl")
    assert sf.metadata["submission"]["login"] is None and sf.metadata["dataset"] == "li_adger"
    assert sf.as_dict() == {"g1": 0.0, "b1": 1.0, "g2": 2.0, "b2": 3.0, "g3": 4.0, "b3": 5.0}
    # this session still shows its upload, highlighted; another session does not see it
    assert _board(data, after).loc["mine", "Kind"] == KIND_UPLOAD
    assert "mine" not in _board(data).index


def test_pending_then_approved_with_the_command_shows_it_to_every_session(
    tmp_path, capsys, monkeypatch
):
    from space.__main__ import main
    from space.data import review

    clock = Clock()
    folder = tmp_path / "results"
    data = _data(LocalStore(folder), clock=clock)
    # the command evaluates the files on the app's data: here the toy pairs
    monkeypatch.setattr(review, "_evaluator", lambda: data.submissions.evaluator)
    _, mine, _ = handlers.submit(data, "mine", _upload(data, tmp_path), None, Request("s1"))
    assert main(["review", "--results", str(folder)]) == 0
    listing = capsys.readouterr().out
    assert "mine" in listing and "li_adger" in listing and "BLiMP 0.000" in listing
    assert main(["review", "--results", str(folder), "--approve", "mine"]) == 0
    assert "approved 'mine'" in capsys.readouterr().out
    assert sorted(p.name for p in (folder / APPROVED).iterdir()) == ["mine.json", "mine.jsonl"]
    assert not list((folder / PENDING).iterdir())
    clock.now += 61  # the app reads the approved submissions again at most once a minute
    board = _board(data)
    assert board.loc["mine", "Kind"] == KIND_SUBMISSION and board.loc["mine", "BLiMP"] == 0.0
    mine_board = handlers.leaderboard(data, 0.5, mine).data
    assert mine_board["Model"].tolist().count("mine") == 1  # not twice in the submitter's
    # a fresh start reads it too, and a new upload under that name gets a name of its own
    again = _data(LocalStore(folder))
    assert _board(again).loc["mine", "Kind"] == KIND_SUBMISSION
    _upload(again, tmp_path, name="mine", shown="mine #2")  # the name is taken


def test_review_flags_a_submission_whose_scores_equal_a_shipped_or_approved_row(tmp_path):
    from space.data.review import pending_table, shipped_scores

    folder = tmp_path / "results"
    data = _data(LocalStore(folder))
    handlers.submit(data, "first", _upload(data, tmp_path, "first"), None, Request("s1"))
    approve(LocalStore(folder), "first", data.submissions.evaluator)
    # the same file again under another name, and a file of other scores
    handlers.submit(data, "again", _upload(data, tmp_path, "again"), None, Request("s2"))
    other = _upload(data, tmp_path, "other")
    other[-1].sf.scores[:] = other[-1].sf.scores[::-1]  # other scores, same ids
    handlers.submit(data, "other", other, None, Request("s3"))
    lines = pending_table(LocalStore(folder), {}).splitlines()
    assert "DUPLICATE of approved first" in next(ln for ln in lines if "again" in ln)
    assert "DUPLICATE" not in next(ln for ln in lines if "other" in ln)
    shipped = {"li_adger": {"shipped row": _scores(folder, "other")}}
    assert "DUPLICATE of shipped row" in next(
        ln for ln in pending_table(LocalStore(folder), shipped).splitlines() if "other" in ln
    )
    # the rows shipped with the app are compared by default: the trigram's among them
    assert len(shipped_scores()["li_adger"]["trigram (slor)"]) > 4000


def _scores(folder, stem):
    from metric_adc.scores.file import read_scores

    return read_scores(folder / PENDING / f"{stem}.jsonl").as_dict()


def test_a_rejected_submission_is_dropped(tmp_path, capsys):
    from space.__main__ import main

    folder = tmp_path / "results"
    data = _data(LocalStore(folder))
    handlers.submit(data, "mine", _upload(data, tmp_path), None, Request("s1"))
    assert main(["review", "--results", str(folder), "--reject", "mine"]) == 0
    assert "rejected 'mine'" in capsys.readouterr().out
    assert not list((folder / PENDING).iterdir()) and not (folder / APPROVED).exists()
    assert main(["review", "--results", str(folder), "--approve", "mine"]) == 1
    assert "no pending submission is called 'mine' (pending: none)" in capsys.readouterr().err
    data.submissions.refresh(force=True)
    assert "mine" not in _board(data).index


def test_review_needs_a_store(monkeypatch, capsys):
    from space.__main__ import main

    monkeypatch.delenv("ADC_RESULTS_DIR", raising=False)
    monkeypatch.delenv("ADC_RESULTS_REPO", raising=False)
    with pytest.raises(SystemExit) as exc:
        main(["review"])
    assert exc.value.code == 2 and "--results DIR or --results-repo REPO" in capsys.readouterr().err


def test_a_name_pending_or_on_the_leaderboard_is_refused(tmp_path):
    data = _data(LocalStore(tmp_path / "results"))
    handlers.submit(data, "mine", _upload(data, tmp_path), None, Request("s1"))
    # another session uploaded "mine" before it was submitted here
    other = _upload(data, tmp_path)
    status, after, _ = handlers.submit(data, "mine", other, None, Request("s2"))
    assert status.startswith("⚠️ **Not submitted:** 'mine' is already submitted"), status
    assert after is other
    _upload(data, tmp_path, name="toy-length", shown="toy-length #2")  # a shared model's name


# ----------------------------------------------------------------------------- who
def test_on_a_space_a_submission_needs_and_records_the_login(tmp_path):
    data = _data(LocalStore(tmp_path / "results"), require_login=True)
    uploads = _upload(data, tmp_path)
    status, after, _ = handlers.submit(data, "mine", uploads, None, Request("s1"))
    assert status.startswith("⚠️ **Not submitted:** sign in with Hugging Face"), status
    status, _, _ = handlers.submit(data, "mine", after, _profile("ann"), Request("s1"))
    assert status.startswith("**Submitted `mine`** by ann"), status
    (req,) = read_requests(data.submissions.store)
    assert req.login == "ann"


def test_the_submit_handler_gets_the_login_and_the_request_from_gradio(tmp_path):
    from gradio.helpers import special_args

    data = _data(LocalStore(tmp_path / "results"))
    bound = handlers.bind(handlers.submit, data)
    inputs, *_ = special_args(bound, ["mine", []], request=None)
    assert len(inputs) == 4  # choice, uploads, then the profile and the request filled in
    assert inputs[2] is None  # no login outside a Space


# ----------------------------------------------------------------------------- rate limit
def test_submissions_are_rate_limited_per_session_and_per_login(tmp_path):
    clock = Clock()
    data = _data(LocalStore(tmp_path / "results"), clock=clock, most=2)
    uploads: list = []
    for k in range(3):
        uploads = _upload(data, tmp_path, name=f"m{k}", uploads=uploads)
    assert handlers.submit(data, "m0", uploads, None, Request("s1"))[0].startswith("**Submitted")
    uploads = handlers.submit(data, "m1", uploads, None, Request("s1"))[1]
    status, _, _ = handlers.submit(data, "m2", uploads, None, Request("s1"))
    assert status == (
        "⚠️ **Not submitted:** this session has made 2 submissions in the last 1 hour(s), the "
        "most allowed per browser session; try again in 60 min"
    )
    # another session may; an hour later this one may again
    assert handlers.submit(data, "m2", uploads, None, Request("s2"))[0].startswith("**Submitted")
    more = _upload(data, tmp_path, name="m3", uploads=uploads)
    clock.now += 3600
    assert handlers.submit(data, "m3", more, None, Request("s1"))[0].startswith("**Submitted")
    # with a login, the limit follows the login across sessions
    logged: list = []
    for k in range(3):
        logged = _upload(data, tmp_path, name=f"l{k}", uploads=logged)
    for k, session in enumerate(("a", "b")):
        handlers.submit(data, f"l{k}", logged, _profile("bob"), Request(session))
    status, _, _ = handlers.submit(data, "l2", logged, _profile("bob"), Request("c"))
    assert "this login bob has made 2 submissions" in status and "per Hugging Face login" in status


@settings(max_examples=60, deadline=None)
@given(
    most=st.integers(1, 4),
    gaps=st.lists(st.floats(0, 2000, allow_nan=False), min_size=1, max_size=30),
)
def test_a_rate_limit_never_lets_more_through_in_any_window(most, gaps):
    clock = Clock()
    limit = RateLimit(most, 3600, clock=clock)
    allowed: list[float] = []
    for gap in gaps:
        clock.now += gap
        if limit.wait("k") == 0:
            limit.record("k")
            allowed.append(clock.now)
        else:  # refused only when the window is full
            assert sum(t > clock.now - 3600 for t in allowed) == most
    for t in allowed:
        assert sum(t <= u < t + 3600 for u in allowed) <= most


# ----------------------------------------------------------------------------- errors
def test_a_results_path_that_is_a_file_gives_one_line_on_the_page(tmp_path):
    path = tmp_path / "results.txt"
    path.write_text("")
    data = _data(LocalStore(path))
    status, _, _ = handlers.submit(data, "mine", _upload(data, tmp_path), None, Request("s"))
    assert status == (  # no server path on the page
        "⚠️ **Not submitted:** cannot write to the leaderboard's store: a file stands where "
        "a folder is needed"
    )
    assert path.read_text() == ""


def test_a_read_only_results_folder_gives_one_line_on_the_page(tmp_path, monkeypatch):
    import os

    folder = tmp_path / "results"
    folder.mkdir()
    data = _data(LocalStore(folder))
    uploads = _upload(data, tmp_path)
    if os.geteuid() == 0:  # root writes through permissions: fail the write as a read-only
        from space.data import store  # file system fails it

        def read_only(*args, **kwargs):
            raise OSError(30, "Read-only file system")

        monkeypatch.setattr(store, "atomic_paths", read_only)
        reason = "Read-only file system"
    else:
        folder.chmod(0o555)
        reason = "Permission denied"
    status, _, _ = handlers.submit(data, "mine", uploads, None, Request("s"))
    assert status == f"⚠️ **Not submitted:** cannot write to the leaderboard's store: {reason}"
    assert "\n" not in status


def test_submitting_is_off_without_a_store(tmp_path):
    data = toy_space_data()
    status, _, _ = handlers.submit(data, "mine", _upload(data, tmp_path), None, Request("s"))
    assert status.startswith("⚠️ **Not submitted:** submitting is off here"), status
    assert handlers.submit(data, "x", [], None, Request("s"))[0].startswith(
        "⚠️ **Not submitted:** upload a scores file first"
    )


# ----------------------------------------------------------------------------- the Hub
class FakeHfApi:
    """The HfApi methods the Hub store uses, on an in-memory repository."""

    def __init__(self, files: dict[str, bytes] | None = None, *, fail: bool = False):
        self.files = dict(files or {})
        self.commits: list[str] = []
        self.fail = fail

    def list_repo_files(self, repo_id, **kwargs):
        if self.fail:
            raise OSError("503 Service Unavailable")
        return sorted(self.files)

    def hf_hub_download(self, *, repo_id, filename, repo_type, local_dir):
        out = Path(local_dir) / filename
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(self.files[filename])
        return str(out)

    def create_repo(self, repo_id, **kwargs):
        if self.fail:
            raise OSError("503 Service Unavailable")

    def create_commit(self, *, repo_id, repo_type, operations, commit_message):
        assert repo_type == "dataset"
        for op in operations:
            if type(op).__name__ == "CommitOperationAdd":
                self.files[op.path_in_repo] = op.path_or_fileobj
            else:
                del self.files[op.path_in_repo]
        self.commits.append(commit_message)


def test_on_the_hub_a_submission_is_one_commit_and_approval_another(tmp_path):
    from space.data.loaders import load_space_data

    api = FakeHfApi()
    data = load_space_data(None, results_repo="someone/adc-results", hub_api=api, thesis=False)
    path = tmp_path / "wc.csv"
    import li_adger

    sentences = li_adger.load("sentences")
    write_scores(path.with_suffix(".jsonl"), [{"id": i, "score": -float(len(s.split()))}
                 for i, s in zip(sentences["id"], sentences["sentence"], strict=True)],
                 {"model": "wc"})  # fmt: skip
    status, uploads, _ = handlers.upload(data, str(path.with_suffix(".jsonl")), "hub wc", 0.5, [])
    status, _, _ = handlers.submit(data, "hub wc", uploads, _profile("ann"), Request("s"))
    assert "the Hub dataset repository someone/adc-results" in status, status
    assert sorted(api.files) == ["pending/hub-wc.json", "pending/hub-wc.jsonl"]
    assert api.commits == ["Submit 'hub wc' for review"]
    assert json.loads(api.files["pending/hub-wc.json"])["login"] == "ann"
    approve(HubStore("someone/adc-results", api=api), "hub wc", data.submissions.evaluator)
    assert sorted(api.files) == ["approved/hub-wc.json", "approved/hub-wc.jsonl"]
    assert len(api.commits) == 2
    fresh = load_space_data(None, results_repo="someone/adc-results", hub_api=FakeHfApi(api.files),
                            thesis=False)  # fmt: skip
    assert {m.name: m.kind for m in fresh.shared_models()}["hub wc"] == KIND_SUBMISSION


def test_an_approved_benchmark_submission_is_shown_from_its_file(tmp_path):
    """A BLiMP submission is shown as its scores file gives it, never from the metrics recorded
    beside it; where the benchmark's sources are missing it is named as not shown."""
    import dataclasses

    import numpy as np

    from metric_adc.scores.file import ScoresFile
    from space.data.benchmark_data import ItemsUnavailable
    from space.data.toy import toy_items

    data = _data(LocalStore(tmp_path / "results"))
    toy = toy_items()
    subs = Submissions(data.submissions.store, data.pairs, items=lambda _: toy)
    ids = toy.units["id"].tolist()
    sf = ScoresFile({"dataset": "blimp"}, ids, np.array([0.0 if i.endswith("good") else -1.0
                                                         for i in ids]))  # fmt: skip
    # recorded with the toy model that passes 1 of 4 pairs; its file passes all 4
    recorded = dataclasses.replace(data.benchmarks["blimp"].entries[1], name="mine b")
    assert recorded.headline == 0.25
    subs.submit("blimp", recorded, sf, name="mine b", file="b.jsonl", login=None, session="s",
                taken=set())  # fmt: skip
    approve(subs.store, "mine b", subs.evaluator)
    again = Submissions(data.submissions.store, data.pairs, items=lambda _: toy)
    (shown,) = again.approved("blimp")
    assert (shown.name, shown.kind, shown.headline) == ("mine b", KIND_SUBMISSION, 1.0)
    board = family_handlers.family_leaderboard(
        dataclasses.replace(data, submissions=again), "blimp", []
    ).data.set_index("Model")
    assert board.loc["mine b", "BLiMP (mean over paradigms)"] == 1.0

    def unavailable(name):
        raise ItemsUnavailable(f"the {name} source files are not available here")

    gone = Submissions(data.submissions.store, data.pairs, items=unavailable)
    assert gone.approved("blimp") == []
    assert gone.skipped == [("approved/mine-b.jsonl", "approved/mine-b.jsonl: cannot be "
                             "evaluated here: the blimp source files are not available here")]  # fmt: skip


def test_an_unreachable_results_repo_leaves_a_note_and_a_submission_says_why(tmp_path):
    from space.data.loaders import load_space_data

    api = FakeHfApi(fail=True)
    data = load_space_data(None, results_repo="someone/adc-results", hub_api=api, thesis=False)
    assert any("could not be read" in n and "503" in n for n in data.notes), data.notes
    ids = list(data.acceptable)
    path = write_scores(tmp_path / "m.jsonl", [{"id": i, "score": float(k)} for k, i in
                                               enumerate(ids)], {"model": "m"})  # fmt: skip
    _, uploads, _ = handlers.upload(data, str(path), "m", 0.5, [])
    status, _, _ = handlers.submit(data, "m", uploads, None, Request("s"))
    assert status.startswith("⚠️ **Not submitted:** cannot list the Hub dataset repository"), status
    assert "\n" not in status


def test_hub_store_checks_the_repo_id():
    from li_adger.hub import HubError

    with pytest.raises(HubError, match="expected 'owner/name'"):
        HubStore("not-a-repo", api=FakeHfApi())


def test_a_store_error_names_the_store(tmp_path):
    with pytest.raises(StoreError, match=r"cannot read pending/x\.json in the results folder"):
        LocalStore(tmp_path).read("pending/x.json")
