"""Resume by benchmark: ``--dataset all`` killed mid-benchmark and rerun scores only what was
unfinished, leaves nothing behind, and ends with the files of an uninterrupted run; sources are
verified before anything is scored; readers of a results folder skip temporary files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import SHARED_DATA, copy_sources

import baselines.score_file
from baselines.__main__ import main
from li_adger.benchmarks import BENCHMARKS
from metric_adc.scores.file import read_partial, read_scores

REPO = Path(__file__).resolve().parents[1]
LIMIT, BATCH = 120, 30
ARGS = ["--model", "trigram", "--dataset", "all", "--limit", str(LIMIT)]
ARGS += ["--batch-size", str(BATCH), "--quiet"]

# the trigram scores a batch in milliseconds; here each batch takes half a second, so that
# the run can be killed in the middle of a benchmark
SLOW_RUN = """
import sys, time
import baselines.score_file
from baselines.__main__ import main
score_batch = baselines.score_file._score_batch
def slow(scorer, units):
    time.sleep(0.5)
    return score_batch(scorer, units)
baselines.score_file._score_batch = slow
sys.exit(main(sys.argv[1:]))
"""


def _records(path: Path) -> tuple[dict, list[str]]:
    """A scores file's metadata less its creation time, and its record lines."""
    lines = path.read_text(encoding="utf-8").splitlines()
    meta = read_scores(path).metadata
    meta.pop("created")
    return meta, lines[1:]


def _kill_in_blimp(out: Path) -> Path:
    """Run ``--dataset all`` with slow batches; kill -9 it once BLiMP's partial file holds a
    batch; return that partial file."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    cmd = [sys.executable, "-c", SLOW_RUN, "score", *ARGS, "--out", str(out)]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            partials = list(out.glob("blimp.jsonl.*.partial")) if out.is_dir() else []
            if partials and len(partials[0].read_bytes().splitlines()) >= 2:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
                return partials[0]
            time.sleep(0.02)
        raise AssertionError(f"the run ended before it was killed: {proc.communicate()[1]!r}")
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.slow
def test_kill_9_mid_benchmark_then_rerun_scores_only_what_was_unfinished(
    tmp_path, monkeypatch, capsys
):
    out = tmp_path / "killed"
    partial = _kill_in_blimp(out)
    assert (out / "li_adger.jsonl").is_file() and not (out / "blimp.jsonl").exists()
    cached = len(read_partial(partial, partial.name.split(".")[-2]))
    assert 0 < cached < LIMIT
    li_adger_written = (out / "li_adger.jsonl").stat().st_mtime_ns
    # a write killed between its temporary file and the rename leaves one like this
    stale = out / ".blimp.jsonl.k3j_9xq2.tmp.jsonl"
    stale.write_bytes(b"")

    scored: list[int] = []
    score_batch = baselines.score_file._score_batch

    def counting(scorer, units):
        scored.append(len(units))
        return score_batch(scorer, units)

    monkeypatch.setattr(baselines.score_file, "_score_batch", counting)
    assert main(["score", *ARGS, "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"kept {out / 'li_adger.jsonl'}: li_adger was scored by an earlier run" in err
    # BLiMP resumes from its partial file; the benchmarks after it (NPI, the NPI cloze test, the
    # diagnostics and CoLA) are scored in full
    assert sum(scored) == (LIMIT - cached) + (len(BENCHMARKS) - 2) * LIMIT
    assert (out / "li_adger.jsonl").stat().st_mtime_ns == li_adger_written
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{b}.jsonl" for b in BENCHMARKS)

    # once more: every benchmark is finished (sentences, labelled and cloze units alike)
    scored.clear()
    capsys.readouterr()
    assert main(["score", *ARGS, "--out", str(out)]) == 0
    assert scored == [] and capsys.readouterr().err.count(f"kept {out}") == len(BENCHMARKS)

    monkeypatch.setattr(baselines.score_file, "_score_batch", score_batch)
    whole = tmp_path / "whole"
    assert main(["score", *ARGS, "--out", str(whole)]) == 0
    for name in BENCHMARKS:
        assert _records(out / f"{name}.jsonl") == _records(whole / f"{name}.jsonl"), name


def test_a_finished_file_is_kept_and_one_of_other_settings_rescored(tmp_path, capsys):
    out = tmp_path / "npi.jsonl"
    argv = ["score", "--model", "trigram", "--dataset", "npi", "--limit", "4", "--out", str(out)]
    assert main([*argv, "--quiet"]) == 0
    written = out.stat().st_mtime_ns
    capsys.readouterr()
    stale = tmp_path / ".npi.jsonl.ab12cd34.tmp.jsonl"  # a rewrite killed before its rename
    stale.write_bytes(b"")
    assert main([*argv, "--quiet"]) == 0
    assert f"kept {out}" in capsys.readouterr().err and out.stat().st_mtime_ns == written
    assert not stale.exists()
    assert main([*argv, "--quiet", "--variant", "logprob"]) == 0
    err = capsys.readouterr().err
    assert "scoring npi again" in err and "variant: 'slor' there, 'logprob' here" in err
    assert read_scores(out).metadata["variant"] == "logprob"
    assert main([*argv, "--quiet", "--variant", "logprob", "--fresh"]) == 0
    assert f"kept {out}" not in capsys.readouterr().err


def _sources_without(tmp_path: Path, missing: str, damaged: bool) -> Path:
    files = sorted({f for spec in BENCHMARKS.values() for f in spec.files})
    root = tmp_path / "source"
    for rel in files:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        if rel != missing:
            os.symlink(SHARED_DATA / rel, root / rel)
    if damaged:
        copy_sources([missing], root)
        with (root / missing).open("ab") as fh:
            fh.write(b"\n")
    return root


@pytest.mark.parametrize(
    ("damaged", "message"), [(False, "not found in the source folder"), (True, "checksum mismatch")]
)
def test_every_source_is_verified_before_the_first_unit_is_scored(
    tmp_path, monkeypatch, capsys, damaged, message
):
    missing = "npi/npi_minimal_pairs.tsv"
    monkeypatch.setenv("LI_ADGER_SOURCE", str(_sources_without(tmp_path, missing, damaged)))
    out = tmp_path / "out"
    assert main(["score", "--model", "trigram", "--dataset", "all", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: benchmark 'npi' cannot be read, so nothing was scored")
    assert missing in err and message in err and "LI_ADGER_SOURCE" in err
    assert len(err.splitlines()) == 1
    assert not out.exists()


def test_readers_of_a_results_folder_skip_temporary_files(tmp_path):
    from metric_adc.__main__ import main as metric_main
    from metric_adc.report.summary import scores_files
    from space.data.results_folder import scores_files as app_scores_files
    from space.data.store import LocalStore

    folder = tmp_path / "results"
    assert main(["score", "--model", "trigram", "--dataset", "npi",
                 "--out", str(folder / "trigram.jsonl"), "--quiet"]) == 0  # fmt: skip
    for stale in (".trigram.jsonl.k3j_9xq2.tmp.jsonl", ".npi.csv.ab12cd34.tmp.csv"):
        (folder / stale).write_bytes(b"")  # left by killed writes
    assert scores_files(folder) == [folder / "trigram.jsonl"]
    assert app_scores_files(folder) == [folder / "trigram.jsonl"]
    assert LocalStore(tmp_path).list("results") == ["trigram.jsonl"]
    assert metric_main(["summary", "--results", str(folder)]) == 0


def test_summary_of_a_results_folder_skips_a_shard_left_beside_its_scores_file(tmp_path, capsys):
    """A shard a killed launch left holds rows of the scores file beside it: ``summary
    --results`` reads the scores file alone instead of refusing the folder."""
    import shutil

    from metric_adc.__main__ import main as metric_main

    folder = tmp_path / "results"
    out = folder / "trigram.jsonl"
    assert main(["score", "--model", "trigram", "--dataset", "npi", "--out", str(out),
                 "--quiet"]) == 0  # fmt: skip
    shutil.copy(out, folder / "trigram.jsonl.rank-0-of-3.jsonl")
    capsys.readouterr()
    assert metric_main(["summary", "--results", str(folder)]) == 0
    assert "trigram.jsonl.rank-0-of-3" not in capsys.readouterr().out
