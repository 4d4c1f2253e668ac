"""No writer replaces one of its inputs, and every staging target is checked before writing.

Every command that writes checks its outputs against the files it reads with the one helper,
:func:`li_adger.io.inputs.check_not_input`; every ``push --dry-run DIR`` checks its target with
the one argument type, :func:`li_adger.io.cli_args.output_path`.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from baselines import __main__ as baselines_cli
from li_adger import __main__ as li_adger_cli
from li_adger.io import cli_args
from li_adger.sources import BUILD_FILES, source_file
from metric_adc import __main__ as metric_cli
from space import __main__ as space_cli
from space.data import snapshot

SAMPLE = {
    "doc": {"id": "32.1.martin.1a.g.01", "sentence": "Kerry attempted to study physics."},
    "filtered_resps": [["-48.5", "False"]],
}


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    return err.splitlines()[-1]


# ----------------------------------------------------------------------------- inputs kept
def test_from_harness_never_writes_over_its_samples(tmp_path, capsys):
    samples = tmp_path / "samples_li_adger_adc_2026-01-01T00-00-00.jsonl"
    samples.write_text(json.dumps(SAMPLE) + "\n")
    results = tmp_path / "results_2026-01-01T00-00-00.json"
    results.write_text(json.dumps({"model_name": "EleutherAI/pythia-160m"}))
    before = {p: p.read_bytes() for p in (samples, results)}
    for out, what in ((samples, "RUN_DIR_OR_SAMPLES"), (results, "its results file")):
        assert metric_cli.main(["from-harness", str(samples), "--out", str(out)]) == 2
        assert _one_error_line(capsys) == (
            f"error: --out {out} is the file {what} reads; writing it would replace that "
            "input: choose another --out"
        )
    # a symlink to the samples is the samples; the run's folder names them too
    link = tmp_path / "link.jsonl"
    link.symlink_to(samples)
    assert metric_cli.main(["from-harness", str(tmp_path), "--out", str(link)]) == 2
    assert "is the file RUN_DIR_OR_SAMPLES reads" in _one_error_line(capsys)
    assert {p: p.read_bytes() for p in before} == before
    assert metric_cli.main(["from-harness", str(samples), "--out", str(tmp_path / "s.jsonl")]) == 0


def test_score_never_writes_over_its_table(tmp_path, capsys):
    table = tmp_path / "table.csv"
    table.write_text("id,sentence\na,The cat sat.\nb,Dogs bark.\n")
    hard = tmp_path / "hard.csv"
    os.link(table, hard)
    for out in (table, hard):
        argv = ["score", "--model", "trigram", "--dataset", str(table), "--out", str(out)]
        assert baselines_cli.main(argv) == 2
        assert _one_error_line(capsys) == (
            f"error: --out {out} is the file --dataset reads; writing it would replace that "
            "input: choose another --out"
        )
    assert table.read_text() == "id,sentence\na,The cat sat.\nb,Dogs bark.\n"


def test_snapshot_never_writes_into_its_source_folder(tmp_path, capsys):
    source = tmp_path / "results"
    (source / "li_adger").mkdir(parents=True)
    scores = source / "li_adger" / "m.csv"
    scores.write_text("id,score\na,1.0\n")
    with pytest.raises(SystemExit) as stop:
        snapshot.main(["--from", str(source), "--to", str(source), "--no-thesis", "--no-ceiling"])
    assert stop.value.code == 2
    assert _one_error_line(capsys).endswith(
        f"error: --to {source} holds {scores}, which --from reads; writing into it could "
        "replace that input: choose another --to"
    )
    assert scores.read_text() == "id,score\na,1.0\n"


def test_build_never_replaces_its_source_files(tmp_path, capsys):
    # a source folder that the build's snapshots folder would hold (and prune)
    source = tmp_path / "snapshots"
    for rel in BUILD_FILES:
        (source / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source_file(rel), source / rel)
    before = sorted(p.relative_to(source) for p in source.rglob("*"))
    argv = ["build", "--source", str(source), "--data-dir", str(tmp_path)]
    assert li_adger_cli.main(argv) == 2
    assert _one_error_line(capsys).startswith(
        f"error: --data-dir {tmp_path / 'snapshots'} holds {source}/"
    )
    assert sorted(p.relative_to(source) for p in source.rglob("*")) == before


def test_ceiling_never_plots_over_a_source_file(tmp_path, capsys):
    from li_adger.sources.participants import FILES

    (tmp_path / "sprouse2013").mkdir()
    me = tmp_path / FILES["me"]
    shutil.copyfile(source_file(FILES["me"]), me)
    before = me.read_bytes()
    argv = ["ceiling", "--source", str(tmp_path), "--plot", str(me), "--no-tasks"]
    assert metric_cli.main(argv) == 2
    assert _one_error_line(capsys) == (
        f"error: --plot {me} is the file --source reads; writing it would replace that input: "
        "choose another --plot"
    )
    assert me.read_bytes() == before


# ----------------------------------------------------------------------------- staging targets
def _targets(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each bad ``--dry-run`` target and the end of the one line that refuses it."""
    file = tmp_path / "file.txt"
    file.write_text("x")
    (tmp_path / "link-to-file").symlink_to(file)
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("keep")
    return {
        "file": (file, f"{file} is a file (expected a folder to write into)"),
        "link": (
            tmp_path / "link-to-file",
            f"link-to-file is a symlink to the file {file} (expected a folder to write into)",
        ),
        "dangling": (
            tmp_path / "dangling",
            f"dangling is a symlink to {tmp_path / 'nowhere'}, which does not exist (expected a "
            "folder; remove the link or choose another)",
        ),
        "full": (
            tmp_path / "full",
            "full is not an empty folder (expected a new or empty one; remove what it holds or "
            "choose another)",
        ),
    }  # fmt: skip


PUSHES = {
    "li_adger": lambda argv: li_adger_cli.main(["push", *argv]),
    "metric_adc": lambda argv: metric_cli.main(["push", *argv]),
    "space": space_cli.push,
}


@pytest.mark.parametrize("package", list(PUSHES))
def test_every_staging_target_is_checked_before_writing(package, tmp_path, capsys):
    for name, (target, end) in _targets(tmp_path).items():
        before = sorted(tmp_path.rglob("*"))
        with pytest.raises(SystemExit) as stop:
            PUSHES[package](["me/x", "--dry-run", str(target)])
        assert stop.value.code == 2, name
        line = _one_error_line(capsys)
        assert line.endswith(end), (name, line)
        assert sorted(tmp_path.rglob("*")) == before, name


@pytest.mark.parametrize("package", list(PUSHES))
def test_an_unwritable_staging_folder_is_one_line(package, tmp_path, capsys, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:  # root writes through permissions: fail it as a read-only file system

        def read_only(*args, **kwargs):
            raise OSError(30, "Read-only file system")

        monkeypatch.setattr(cli_args.tempfile, "TemporaryFile", read_only)
        reason = "Read-only file system"
    else:
        folder.chmod(0o555)
        reason = "Permission denied"
    with pytest.raises(SystemExit) as stop:
        PUSHES[package](["me/x", "--dry-run", str(folder / "staged")])
    assert stop.value.code == 2
    assert _one_error_line(capsys).endswith(
        f"argument --dry-run: cannot write {folder / 'staged'}: {folder} is not writable ({reason})"
    )
    assert list(folder.iterdir()) == []
