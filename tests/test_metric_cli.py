"""The command line: the ``ceiling`` subcommand, the human split-half row in ``report`` and
``reproduce``, ``--markdown``, ``reproduce --with``, ``report --baseline``, the README's
results table, and plots."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from li_adger.sources.participants import AUTHORS_NOTE
from metric_adc import __main__ as cli
from metric_adc import pairs, result_rows
from metric_adc.ceiling import compute as ceiling
from metric_adc.scores.file import write_scores
from metric_adc.thesis import outputs as thesis

REPO = Path(__file__).resolve().parents[1]
THESIS_MODELS = list(thesis.MODELS)
"""The thesis models' ids, as ``--json`` rows name them."""
THESIS_NAMES = [thesis.display_name(m) for m in thesis.MODELS]
"""Their display names, as the printed tables (text and markdown) name them."""


@pytest.fixture(scope="module")
def bbu_file(tmp_path_factory):
    s = thesis.load_thesis_scores()["bert-base-uncased-mlm"]
    path = tmp_path_factory.mktemp("scores") / "bbu.jsonl"
    return write_scores(path, [{"id": k, "score": v} for k, v in s.items()], {"model": "bbu"})


def _run(capsys, *argv):
    assert cli.main(list(argv)) == 0
    return capsys.readouterr()


# ----------------------------------------------------------------------------- ceiling
def test_ceiling_command_json():
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "metric_adc", "ceiling", "--json", "--splits", "20"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert {"stats", "delta_for", "delta_for_of_sign", "curve", "tasks", "note", "authors_note",
            "row", "n_splits", "runtime_s"} <= set(out)  # fmt: skip
    assert out["n_splits"] == 20 and out["n_pairs"] == 1174
    for name, iv in out["stats"].items():
        if name == "noise_sd":
            assert 0 < iv["mean"] < 1
        else:
            assert 0 < iv["lo"] <= iv["mean"] <= iv["hi"] < 1, name
    row = out["row"]
    assert row["model"] == ceiling.LABEL and set(row["adc"]) == {"0.5", "1.0", "5.0"}
    assert row["adc"]["0.5"] < row["adc"]["1.0"] <= row["adc"]["5.0"] <= row["blimp"]
    assert sorted(out["tasks"]["tasks"]) == ["fc", "ls", "me"]
    # the authors' note goes with the use: in the output and on standard error
    assert "contact Jon Sprouse" in out["authors_note"] and "contact Jon Sprouse" in proc.stderr


@pytest.mark.parametrize("command", list(cli.SUBCOMMANDS))
def test_every_documented_subcommand_is_registered_and_its_help_renders(command, capsys):
    # the module's first line and docs/metric.md name the subcommands; each one's --help
    # renders (a help text with a stray '%' fails only there)
    usage = cli.__doc__.split("\n")[0]
    assert usage.startswith("Command line: ``python -m metric_adc {")
    assert usage.split("{")[1].split("}")[0].split(",") == list(cli.SUBCOMMANDS)
    assert f"python -m metric_adc {command}" in (REPO / "docs" / "metric.md").read_text("utf-8")
    with pytest.raises(SystemExit) as done:
        cli.main([command, "--help"])
    assert (
        done.value.code == 0 and f"usage: python -m metric_adc {command}" in capsys.readouterr().out
    )


# ----------------------------------------------------------------------------- human row
@pytest.fixture(scope="module")
def ceiling20():
    return ceiling.compute_ceiling(n_splits=20, seed=0, tasks=False)


def test_ceiling_row_is_a_result_row_of_the_split_half_means(ceiling20):
    human = result_rows.ceiling_row(ceiling20)
    assert list(human.to_json_dict()) == [*result_rows.ROW_KEYS, "authors_note", "n_splits", "seed"]
    assert (human.model, human.n_pairs, human.n_sentences) == (ceiling.LABEL, 1174, 2400)
    assert "no participant-level data" in human.note and "Adger" in human.note
    assert "contact Jon Sprouse" in human.authors_note
    assert (human.n_splits, human.seed, human.n_excluded) == (20, 0, 0)
    stats = ceiling20["stats"]
    assert human.adc == {k: stats[f"adc_{k}"]["mean"] for k in ("0.5", "1.0", "5.0")}
    for key in ("blimp", "human_sign", "adc_auc", "pearson_pairs", "pearson_sentences"):
        assert getattr(human, key) == stats[key]["mean"], key
    # a split-half has no p-values, Spearman or breakdown: None, never a made-up number
    for key in ("pearson_pairs_p", "spearman_pairs", "spearman_sentences_p", "by_group"):
        assert getattr(human, key) is None, key


def test_reproduce_adds_the_human_row(capsys):
    out = json.loads(_run(capsys, "reproduce", "--json", "--ceiling-splits", "20").out)
    names = [r["model"] for r in out["rows"]]
    assert names == [*THESIS_MODELS, ceiling.LABEL]
    human = out["rows"][-1]
    assert human["n_splits"] == 20 and 0.4 < human["adc"]["0.5"] < human["adc"]["1.0"] < 1
    assert "Adger" in human["note"] and "contact Jon Sprouse" in human["authors_note"]
    text = _run(capsys, "reproduce", "--ceiling-splits", "20").out
    assert any(re.match(rf"{re.escape(ceiling.LABEL)} +1174 ", ln) for ln in text.splitlines())
    assert "no participant-level data" in text and "contact Jon Sprouse" in text
    off = json.loads(_run(capsys, "reproduce", "--json", "--ceiling-splits", "0").out)
    assert [r["model"] for r in off["rows"]] == THESIS_MODELS


def test_ceiling_splits_must_be_zero_or_at_least_two(capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["reproduce", "--ceiling-splits", "1"])
    assert "must be 0 (no human row) or an integer >= 2 (got '1')" in capsys.readouterr().err


def test_report_puts_the_li_row_beside_the_human_row(bbu_file, capsys):
    out = json.loads(_run(capsys, "report", str(bbu_file), "--json", "--n-resamples", "20",
                          "--ceiling-splits", "20").out)  # fmt: skip
    model, li, human = out["rows"]
    assert (model["model"], li["model"], human["model"]) == ("bbu", "bbu (LI only)", ceiling.LABEL)
    assert li["n_pairs"] == human["n_pairs"] == 1174 == model["by_group"]["LI"]["n_pairs"]
    for k in ("blimp", "adc", "pearson_pairs", "adc_auc"):  # the breakdown's LI figures
        assert li[k] == model["by_group"]["LI"][k]
    # sentence level: the model's z-scores against the judgements of the LI pairs' members
    table = pairs.li_adger_pairs()
    members = {i for g, b, s in zip(table.good_ids, table.bad_ids, table.source, strict=True)
               if s == "LI" for i in (g, b)}  # fmt: skip
    assert li["n_sentences"] == len(members)
    text = _run(capsys, "report", str(bbu_file), "--n-resamples", "20",
                "--ceiling-splits", "20").out  # fmt: skip
    assert "bbu (LI only)" in text and "no participant-level data" in text
    only = json.loads(_run(capsys, "report", str(bbu_file), "--json", "--n-resamples", "20",
                           "--ceiling-splits", "0").out)  # fmt: skip
    assert [r["model"] for r in only["rows"]] == ["bbu"]


@pytest.mark.parametrize("fmt", [[], ["--markdown"], ["--json"]])
def test_report_prints_the_participant_data_notice_once_on_standard_error(bbu_file, capsys, fmt):
    # a terminal shows both streams: the authors' note once, on standard error, so that the
    # JSON on standard output stays machine-readable and the text carries the row's caption
    got = _run(capsys, "report", str(bbu_file), *fmt, "--n-resamples", "20",
               "--ceiling-splits", "20")  # fmt: skip
    assert got.err.count(AUTHORS_NOTE) == 1
    if fmt == ["--json"]:  # standard output is the JSON alone (the note is a field of its row)
        assert json.loads(got.out)["rows"][-1]["authors_note"] == AUTHORS_NOTE
    else:  # printed once in all; the caption still names the data and the request
        assert (got.out + got.err).count(AUTHORS_NOTE) == 1
        assert ceiling.NOTE in got.out


# ----------------------------------------------------------------------------- markdown
def _md_rows(text: str) -> dict[str, list[str]]:
    rows = {}
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| model |"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rows[cells[0]] = cells[1:]
    return rows


def test_markdown_and_reproduce_with_a_scores_file(bbu_file, capsys):
    text = _run(capsys, "reproduce", "--markdown", "--with", str(bbu_file),
                "--ceiling-splits", "20").out  # fmt: skip
    lines = text.splitlines()
    assert lines[0] == ("| model | pairs | BLiMP | ADC δ=0.5 | ADC δ=1 | ADC δ=5 | "
                        "Pearson (pairs) | Pearson (sentences) |")  # fmt: skip
    assert lines[1] == "|---|" + "---:|" * 7
    rows = _md_rows(text)
    assert list(rows) == [*THESIS_NAMES, "bbu", ceiling.LABEL]
    # the scores file holds the thesis's BERT scores: the same figures as its thesis row
    assert rows["bbu"] == rows["BERT base-uncased (MLM, PLL)"]
    slor = rows["BNC trigram (SLOR)"]
    assert slor[:2] == ["2365", "0.753"] and slor[5] == "0.333"
    assert any(ln.startswith(f"- {ceiling.LABEL}: LI pairs only") for ln in lines)
    assert any(ln.startswith("- BNC trigram (SLOR), BNC trigram (log-prob): ") for ln in lines)
    rep = _md_rows(_run(capsys, "report", str(bbu_file), "--markdown", "--n-resamples", "20",
                        "--ceiling-splits", "20").out)  # fmt: skip
    assert list(rep) == ["bbu", "bbu (LI only)", ceiling.LABEL]
    assert rep[ceiling.LABEL] == rows[ceiling.LABEL]


def _check_results_block(text: str, capsys) -> int:
    """Compare README text's results block with ``reproduce --markdown``; return rows checked.

    The rows of the thesis's models and the human row must equal the command's output; the
    block must hold one more row per scores file named in the README's ``reproduce``
    command, or one per ``--linking`` function for a file that carries the linking fields
    (the trigram's row is compared with a fresh run by ``tests/test_readme.py``)."""
    block = re.search(r"<!-- results:start -->\n(.*?)<!-- results:end -->", text, re.S)
    assert block is not None, "README.md has no <!-- results:start --> … <!-- results:end --> block"
    readme_rows = _md_rows(block.group(1))
    command = re.search(r"python -m metric_adc reproduce (.*)", text)
    assert command is not None, "README.md does not show the reproduce command of its table"
    files = re.findall(r"\S+\.(?:jsonl|csv)", command.group(1))
    linking = re.search(r"--linking((?:\s+[a-z]+)+)", command.group(1))
    linking = linking.group(1).split() if linking else []
    produced = _md_rows(_run(capsys, "reproduce", "--markdown").out)
    assert list(produced) == [*THESIS_NAMES, ceiling.LABEL]
    for model, cells in produced.items():
        assert model in readme_rows, f"README results table lacks the row {model!r}"
        assert readme_rows[model] == cells, f"README row {model!r} differs from the command"
    expected = len(produced) + len(files)
    assert expected <= len(readme_rows) <= expected + len(files) * max(len(linking) - 1, 0), (
        f"README results table has {len(readme_rows)} rows, expected {len(produced)} and one "
        f"per scores file of its command ({files}), or one per linking function ({linking})"
    )
    for name in linking:
        assert any(re.search(rf"\({name}[,)]", m) for m in readme_rows), (
            f"no README row for {name!r}"
        )
    here = [REPO / f for f in files]
    if files and all(p.is_file() for p in here):
        # the long runs are present (results/ is git-ignored): every row is recomputed
        argv = ["reproduce", "--markdown", "--with", *map(str, here)]
        full = _md_rows(_run(capsys, *argv, *(["--linking", *linking] if linking else [])).out)
        assert list(full) == list(readme_rows), (
            f"README results rows {list(readme_rows)} differ from the command's {list(full)}"
        )
        for model, cells in full.items():
            assert readme_rows[model] == cells, f"README row {model!r} differs from the command"
        return len(full)
    warnings.warn(
        "README results rows of scores files checked for their number only (files not here): "
        + ", ".join(f for f, p in zip(files, here, strict=True) if not p.is_file()),
        stacklevel=2,
    )
    return len(produced)


def test_readme_results_table_is_the_command_output(capsys):
    _check_results_block((REPO / "README.md").read_text(encoding="utf-8"), capsys)


def test_results_block_check_catches_a_stale_or_missing_row(capsys):
    table = _run(capsys, "reproduce", "--markdown").out
    command = "python -m metric_adc reproduce --markdown --with results/some-model.jsonl\n"
    fresh = f"{command}<!-- results:start -->\n{table}\n| some-model | 2365 | 0.5 |\n<!-- results:end -->"
    with pytest.warns(UserWarning, match="files not here.: results/some-model.jsonl"):
        assert _check_results_block(fresh, capsys) == 9
    stale = fresh.replace(
        "| BNC trigram (SLOR) | 2365 | 0.753 |", "| BNC trigram (SLOR) | 2365 | 0.754 |"
    )
    with pytest.raises(AssertionError, match=r"README row 'BNC trigram \(SLOR\)' differs"):
        _check_results_block(stale, capsys)
    missing = fresh.replace("| some-model | 2365 | 0.5 |\n", "")
    with pytest.raises(AssertionError, match="has 9 rows, expected 9 and one per scores file"):
        _check_results_block(missing, capsys)


# ----------------------------------------------------------------------------- baseline
@pytest.fixture(scope="module")
def judgements_file(tmp_path_factory):
    """The human judgements themselves as a model's scores: after z-scoring, each pair's
    delta is the human delta times a positive factor, so ADC(100) passes every pair."""
    j = pairs.li_adger_pairs().judgements
    path = tmp_path_factory.mktemp("scores") / "humans.jsonl"
    rows_ = [{"id": k, "score": v} for k, v in j.items() if v == v]
    return write_scores(path, rows_, {"model": "humans"})


def test_report_baseline_that_passes_every_pair(bbu_file, judgements_file, capsys):
    argv = ["report", str(bbu_file), "--baseline", str(judgements_file), "--delta", "100",
            "--n-resamples", "20", "--ceiling-splits", "0"]  # fmt: skip
    out = json.loads(_run(capsys, *argv, "--json").out)
    overlap = out["analysis"]["baseline"]["overlap"]["100.0"]
    assert (overlap["n_reduced"], overlap["reduced"]) == (0, None)
    text = _run(capsys, *argv).out
    assert "against the baseline" in text and "reduced — on 0 pairs" in text


@pytest.fixture(scope="module")
def trigram_z_file(tmp_path_factory):
    """The thesis's trigram SLOR z-scores: z-scored over more sentences than the file holds,
    so z-scoring them again over the file's 4,124 sentences would change them."""
    s = thesis.load_thesis_scores()["trigram-slor"]
    path = tmp_path_factory.mktemp("scores") / "trigram_z.jsonl"
    return write_scores(path, [{"id": k, "score": v} for k, v in s.items()], {"model": "tz"})


def test_prestandardized_applies_to_the_baseline_too(trigram_z_file, capsys):
    # the same z-scores as model and as baseline: with both taken as given, no difference
    argv = ["report", str(trigram_z_file), "--baseline", str(trigram_z_file), "--prestandardized",
            "--n-resamples", "20", "--ceiling-splits", "0"]  # fmt: skip
    out = json.loads(_run(capsys, *argv, "--json").out)
    row, base = out["rows"][0], out["analysis"]["baseline"]
    assert row["standardized"] is False
    for k, c in base["comparison"].items():
        assert (c["a"], c["b"], c["difference"]) == (row["adc"][k], row["adc"][k], 0.0), k
        assert base["overlap"][k]["both"] == row["adc"][k]
    text = _run(capsys, *argv).out
    assert "taken as z-scores: --prestandardized" in text


# ----------------------------------------------------------------------------- plots
def test_phenomenon_plot_stays_compact_for_many_phenomena(tmp_path):
    from PIL import Image

    from metric_adc import core
    from metric_adc.report import plots

    n = 230
    groups = [f"phen{i:03d}" for i in range(n) for _ in range(4)]
    rng = np.random.default_rng(0)
    m, h = rng.normal(0.5, 1, 4 * n), rng.normal(0.5, 1, 4 * n)
    by = core.breakdown(groups, m, h, deltas=[1.0])
    few = plots.plot_phenomena(dict(list(by.items())[:5]), tmp_path / "few.png", delta=1.0,
                               title="t")  # fmt: skip
    many = plots.plot_phenomena(by, tmp_path / "many.png", delta=1.0, title="t")
    h_few, h_many = Image.open(few).size[1], Image.open(many).size[1]
    # 2 × 15 phenomena and a separator are drawn, not 230
    assert h_many < 1000 and h_many < 8 * h_few


def test_a_reader_that_stops_early_gets_no_traceback():
    """A command whose reader is gone (``python -m metric_adc … | head``) exits with status 1
    and no traceback (``li_adger.io.cli_args.run_command``, the entry point of every command)."""
    code = (
        "import sys\n"
        "from li_adger.io.cli_args import run_command\n"
        "def main():\n"
        "    print('| model |', flush=True)\n"
        "    raise BrokenPipeError(32, 'Broken pipe')\n"
        "sys.exit(run_command(main))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 1 and done.stdout == "| model |\n"
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr
    for package in ("li_adger", "baselines", "metric_adc", "space"):
        main = (REPO / package / "__main__.py").read_text(encoding="utf-8")
        assert main.rstrip().endswith("sys.exit(run_command(main))"), package
