"""Errors in the user's words: the family reports and the linking checks name the file, the
record (its line and id) and the field as the user knows them, and count correctly; a bad
output path is one line; the app's handlers catch filesystem errors and show one line
(docs/errors.md)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd
import pytest

from li_adger.benchmarks import BENCHMARKS, Items
from metric_adc import __main__ as cli
from metric_adc.family import statistics as family
from metric_adc.family.items import items_of, needed_ids
from metric_adc.scores.file import write_scores
from space import __main__ as space_cli
from space.data import snapshot
from space.data.benchmark_data import BenchmarkData
from space.data.ratelimit import RateLimit
from space.data.store import LocalStore
from space.data.submissions import Submissions
from space.data.toy import toy_space_data
from space.data.upload import UploadError, evaluate_upload
from space.ui import handlers


def _error(capsys, *argv) -> str:
    assert cli.main(list(argv)) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err  # one line
    return err


# ----------------------------------------------------------------------------- counts and records
def test_missing_units_are_counted_over_both_members_of_a_pair():
    units = pd.DataFrame({"id": ["g1", "b1", "g2", "b2"], "sentence": list("abcd")})
    pairs = pd.DataFrame(
        {"pair_id": ["1", "2"], "good_id": ["g1", "g2"], "bad_id": ["b1", "b2"],
         "environment": ["e", "e"], "contrast": ["c", "c"], "paradigm": ["p", "p"]}
    )  # fmt: skip
    items = Items("npi", "pairs", units, pairs)
    with pytest.raises(ValueError, match=r"'scores' lacks 2 of the 4 unit id\(s\) that compar"):
        family.evaluate_items("npi", items, {"g1": -1.0, "b1": -2.0})


def test_a_file_shipped_whole_names_itself_and_counts_every_unit_it_lacks(tmp_path, capsys):
    items = items_of("npi")
    c = items.comparisons
    dropped = set(c["good_id"][:5]) | set(c["bad_id"][:5])
    records = [{"id": i, "score": -1.0} for i in items.units["id"] if i not in dropped]
    (tmp_path / "from").mkdir()
    write_scores(tmp_path / "from" / "npi.jsonl", records, {"model": "m", "dataset": "npi"})
    argv = ["--from", str(tmp_path / "from"), "--to", str(tmp_path / "to")]
    assert snapshot.main([*argv, "--no-thesis", "--no-ceiling"]) == 1
    refused = capsys.readouterr().err.splitlines()[0]
    assert refused == (
        f"refused npi.jsonl: no score for {len(dropped)} of the {len(needed_ids(items)):,} "
        f"sentences the npi pairs need, e.g. {c['good_id'][0]!r}: score every sentence of the "
        "dataset"
    )


@pytest.mark.parametrize("command", ["report", "summary"])
def test_a_cola_file_missing_records_is_named_by_its_file(tmp_path, capsys, command):
    units = items_of("cola").units
    records = [{"id": i, "score": float(k % 7)} for k, i in enumerate(units["id"])]
    path = write_scores(tmp_path / "cola.jsonl", records[3:], {"model": "m", "dataset": "cola"})
    extra = ["--n-resamples", "5"] if command == "report" else ["--no-references"]
    err = _error(capsys, command, str(path), *extra)
    assert err == (
        f"error: {path}: no score for 3 of the {len(units):,} sentences the cola labels need, "
        f"e.g. {records[0]['id']!r}: score every sentence of the dataset"
    )


def test_a_cola_classifiers_li_adger_file_missing_a_labelled_sentence_is_named(tmp_path, capsys):
    items = items_of("li_adger")
    need = set(needed_ids(items))
    spare = next(i for i in items.units["id"] if i not in need)
    records = [{"id": i, "score": float(k % 5) - 2} for k, i in enumerate(items.units["id"])]
    meta = {"model": "m", "kind": "cola", "dataset": "li_adger"}
    path = write_scores(tmp_path / "li.jsonl", [r for r in records if r["id"] != spare], meta)
    err = _error(capsys, "summary", str(path), "--no-references")
    assert err == (
        f"error: {path}: no score for 1 of the {len(items.units):,} sentences the LI-Adger pairs "
        f"and expert labels (a CoLA classifier's MCC) need, e.g. {spare!r}: score every sentence "
        "of the dataset"
    )


def test_a_cloze_score_that_is_no_log_probability_names_its_line_and_id(tmp_path, capsys):
    units = items_of("diagnostics").units
    records = [
        {"id": i, "context": c, "completion": w, "score": -1.0}
        for i, c, w in zip(units["id"], units["context"], units["completion"], strict=True)
    ]
    records[2]["score"] = 0.5
    meta = {"model": "m", "kind": "causal", "dataset": "diagnostics"}
    path = write_scores(tmp_path / "d.jsonl", records, meta)
    err = _error(capsys, "report", str(path), "--n-resamples", "5")
    # line 1 is the metadata: the third record is on line 4
    expected = (
        f"line 4 (id {records[2]['id']!r}): 'score' must be a natural-log probability <= 0 on "
        f"the cloze benchmark 'diagnostics' (got 0.5; 1 of {len(units):,} scores are not)"
    )
    assert err == f"error: {path} {expected}"
    # the app's upload says the same of the file by its own name
    view = BenchmarkData(BENCHMARKS["diagnostics"], [], items=items_of("diagnostics"))
    app = dataclasses.replace(toy_space_data(), benchmarks={"diagnostics": view})
    with pytest.raises(UploadError) as refused:
        evaluate_upload(path, app, [])
    assert str(refused.value) == f"d.jsonl {expected}"


def test_a_linking_field_a_function_cannot_take_names_its_line_and_id(tmp_path, capsys):
    units = items_of("li_adger").units
    records = [
        {"id": i, "sentence": s, "score": -1.0, "logprob": -10.0, "unigram_logprob": -20.0,
         "n_words": len(s.split()), "n_tokens": len(s.split()) + 1}
        for i, s in zip(units["id"], units["sentence"], strict=True)
    ]  # fmt: skip
    records[6]["n_words"] = 0
    path = write_scores(tmp_path / "li.jsonl", records, {"model": "m", "kind": "causal"})
    err = _error(capsys, "report", str(path), "--linking", "slor", "--n-resamples", "5",
                 "--ceiling-splits", "0")  # fmt: skip
    assert err == (
        f"error: {path} line 8 (id {records[6]['id']!r}): --linking slor needs 'n_words' to be "
        "a length >= 1 (got 0)"
    )


# ----------------------------------------------------------------------------- output paths
def test_bad_output_folders_are_refused_in_one_line(tmp_path, capsys):
    file = tmp_path / "results.txt"
    file.write_text("")
    with pytest.raises(SystemExit) as stop:
        snapshot.main(["--to", str(file), "--no-thesis", "--no-ceiling"])
    assert stop.value.code == 2
    assert (
        f"argument --to: {file} is a file (expected a folder to write into)"
        in (capsys.readouterr().err.splitlines()[-1])
    )
    under = file / "dry"
    with pytest.raises(SystemExit) as stop:
        cli.main(["push", "a/b", "--dry-run", str(under)])
    assert stop.value.code == 2
    assert (
        capsys.readouterr()
        .err.splitlines()[-1]
        .endswith(f"argument --dry-run: cannot write {under}: {file} is a file, not a folder")
    )


def test_space_push_dry_run_under_a_file_is_one_line(tmp_path, capsys):
    file = tmp_path / "f"
    file.write_text("")
    with pytest.raises(SystemExit) as stop:
        space_cli.main(["push", "a/b", "--dry-run", str(file / "x")])
    assert stop.value.code == 2
    assert (
        capsys.readouterr()
        .err.splitlines()[-1]
        .endswith(f"argument --dry-run: cannot write {file / 'x'}: {file} is a file, not a folder")
    )


# ----------------------------------------------------------------------------- the app's handlers
class _RawStore(LocalStore):
    """A store whose writes fail with the filesystem's own error (a read-only folder)."""

    def write(self, files, message):
        raise PermissionError(13, "Permission denied", str(self.folder))


def test_the_submit_handler_shows_a_filesystem_error_as_one_line(tmp_path):
    data = toy_space_data()
    subs = Submissions(_RawStore(tmp_path / "results"), data.pairs, limit=RateLimit(5, 3600))
    data = dataclasses.replace(data, submissions=subs)
    path = Path(tmp_path / "mine.csv")
    path.write_text(
        "id,score\n" + "".join(f"{i},{k}\n" for k, i in enumerate(data.pairs.judgements))
    )
    _, uploads, _ = handlers.upload(data, str(path), "mine", 0.5, [])
    status, kept, _ = handlers.submit(data, "mine", uploads, None, None)
    assert status == (  # one line, and no server folder on the page
        "⚠️ **Not submitted:** cannot write to the leaderboard's store: Permission denied"
    )
    assert kept == uploads and not kept[0].submitted
