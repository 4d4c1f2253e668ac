"""One text check everywhere scores enter, and one result never silently replacing another.

A scores file whose texts are not the benchmark's (ids shifted by one) is refused by ``report``,
by the app's upload and by ``space snapshot`` with the same message; two files that give the
same model, convention, variant and benchmark are an error naming both in ``space snapshot``,
``summary --results`` and the app (docs/errors.md, docs/app.md).
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from li_adger.benchmarks import BENCHMARKS
from metric_adc import __main__ as cli
from metric_adc.family.items import items_of
from metric_adc.scores.file import write_scores
from space.data import snapshot
from space.data.benchmark_data import BenchmarkData
from space.data.toy import toy_space_data
from space.data.upload import UploadError, evaluate_upload

META = {"model": "toy", "kind": "causal", "variant": "logprob", "convention": "default"}


def _npi_records(shift: int = 0) -> list[dict]:
    """Every NPI unit scored by minus its length; with ``shift``, each record holds the text of
    the unit ``shift`` places on (the last ones wrap around): the ids are shifted."""
    units = items_of("npi").units
    ids, texts = units["id"].tolist(), units["sentence"].tolist()
    texts = texts[shift:] + texts[:shift]
    return [
        {"id": i, "sentence": t, "score": -float(len(t))} for i, t in zip(ids, texts, strict=True)
    ]


def _npi_file(path, shift: int = 0, **meta):
    """An NPI scores file; a field given as ``None`` is left out of the metadata."""
    metadata = {k: v for k, v in {**META, "dataset": "npi", **meta}.items() if v is not None}
    return write_scores(path, _npi_records(shift), metadata)


def _npi_app():
    """The toy app with the real NPI benchmark as its other benchmark."""
    view = BenchmarkData(BENCHMARKS["npi"], [], items=items_of("npi"))
    return dataclasses.replace(toy_space_data(), benchmarks={"npi": view})


def _message(err: str) -> str:
    """An error's message after the file's name."""
    return err.split(": ", 1)[1].strip()


# ----------------------------------------------------------------------------- shifted ids
def test_shifted_npi_ids_are_refused_alike_by_report_upload_and_snapshot(tmp_path, capsys):
    shifted = _npi_file(tmp_path / "shifted.jsonl", shift=1)
    assert cli.main(["report", str(shifted), "--n-resamples", "5"]) == 2
    report_err = capsys.readouterr().err.strip().removeprefix("error: ")
    assert "are the ids shifted?" in report_err and report_err.startswith(str(shifted))

    with pytest.raises(UploadError) as upload_err:
        evaluate_upload(shifted, _npi_app(), [])
    assert str(upload_err.value).startswith("shifted.jsonl: ")
    assert _message(str(upload_err.value)) == _message(report_err)

    source, out = tmp_path / "from", tmp_path / "to"
    source.mkdir()
    shifted.rename(source / "shifted.jsonl")
    _npi_file(source / "fine.jsonl", model="other")
    code = snapshot.main(["--from", str(source), "--to", str(out), "--no-thesis", "--no-ceiling"])
    captured = capsys.readouterr()
    assert code == 1  # one file refused, the other shipped
    refused = next(ln for ln in captured.err.splitlines() if ln.startswith("refused shifted"))
    assert _message(refused.removeprefix("refused ")) == _message(report_err)
    assert [p.name for p in (out / "npi").iterdir()] == ["other-logprob-default.json"]


def test_a_shifted_li_adger_upload_is_refused_by_its_texts(tmp_path):
    toy = toy_space_data()
    ids = [*toy.frame["good_id"], *toy.frame["bad_id"]]
    texts = [*toy.frame["good_sentence"], *toy.frame["bad_sentence"]]
    records = [
        {"id": i, "sentence": t, "score": -float(k)}
        for k, (i, t) in enumerate(zip(ids, texts[1:] + texts[:1], strict=True))
    ]
    path = write_scores(tmp_path / "mine.jsonl", records, {"model": "mine"})
    with pytest.raises(UploadError, match=r"^mine\.jsonl: the sentence of id .* are the ids "):
        evaluate_upload(path, toy, [])
    fine = [{**r, "sentence": t} for r, t in zip(records, texts, strict=True)]
    assert evaluate_upload(write_scores(path, fine, {"model": "mine"}), toy, []).name == "mine"


# ----------------------------------------------------------------------------- one result once
def test_snapshot_refuses_two_files_of_one_result_and_ships_nothing(tmp_path, capsys):
    source, out = tmp_path / "from", tmp_path / "to"
    (source / "run2").mkdir(parents=True)
    _npi_file(source / "a.jsonl")
    # a missing convention is the default one: the same result as a.jsonl
    _npi_file(source / "run2" / "a.jsonl", convention=None)
    argv = ["--from", str(source), "--to", str(out), "--no-thesis", "--no-ceiling"]
    assert snapshot.main(argv) == 2
    err = capsys.readouterr().err
    assert (
        "error: a.jsonl and run2/a.jsonl both give 'toy (logprob, default)' on 'npi' (the same "
        "model, convention, variant and benchmark twice); give one of them; nothing shipped"
    ) in err
    assert not out.exists()


def test_summary_results_refuses_two_files_of_one_result(tmp_path, capsys):
    _npi_file(tmp_path / "a.jsonl")
    _npi_file(tmp_path / "b.jsonl", precision="bfloat16")
    assert cli.main(["summary", "--results", str(tmp_path), "--no-references"]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'a.jsonl'} and {tmp_path / 'b.jsonl'} would share the row" in err
    assert "differ in 'precision' ('absent' / 'bfloat16')" in err


def test_the_app_refuses_a_result_the_session_holds(tmp_path):
    app = _npi_app()
    first = evaluate_upload(_npi_file(tmp_path / "first.jsonl"), app, [])
    assert first.benchmark == "npi" and first.name == "toy (logprob, default)"
    again = _npi_file(tmp_path / "again.jsonl", convention=None)
    with pytest.raises(UploadError) as err:
        evaluate_upload(again, app, [first])
    assert str(err.value).startswith(
        "first.jsonl and again.jsonl both give 'toy (logprob, default)' on 'npi'"
    )
    assert "upload this one under another name" in str(err.value)
    renamed = evaluate_upload(again, app, [first], name="toy rerun")
    assert renamed.name == "toy rerun"
    assert json.dumps(renamed.entry.result["headline"]) == json.dumps(
        first.entry.result["headline"]
    )


def test_the_apps_results_folder_skips_shifted_files_and_a_second_copy_of_a_result(tmp_path):
    from space.data.dataset import pair_units
    from space.data.results_folder import load_results

    _npi_file(tmp_path / "a.jsonl")
    _npi_file(tmp_path / "b.jsonl", convention=None)  # the same result as a.jsonl
    _npi_file(tmp_path / "c.jsonl", shift=1, model="shifted")
    _npi_file(tmp_path / "d.jsonl", model="other")
    toy = toy_space_data()
    units = pair_units(toy.frame)
    texts = units["sentence"].tolist()
    for name, shift in (("e", 0), ("f", 1)):  # LI-Adger's texts: those the app holds
        shifted = texts[shift:] + texts[:shift]
        records = [
            {"id": i, "sentence": t, "score": -float(len(t))}
            for i, t in zip(units["id"], shifted, strict=True)
        ]
        write_scores(tmp_path / f"{name}.jsonl", records, {"model": f"toy {name}"})
    found = load_results(tmp_path, toy.pairs, units)
    assert [e.name for e in found.family["npi"]] == [
        "toy (logprob, default)",
        "other (logprob, default)",
    ]
    assert [e.name for e in found.li_adger] == ["toy e"]
    skipped = dict(found.skipped)
    assert skipped["b.jsonl"] == (
        "a.jsonl and b.jsonl both give 'toy (logprob, default)' on 'npi' (the same model, "
        "convention, variant and benchmark twice); the first is shown"
    )
    assert "are the ids shifted?" in skipped["c.jsonl"]
    assert "are the ids shifted?" in skipped["f.jsonl"]
