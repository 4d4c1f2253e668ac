"""``python -m metric_adc summary``: one row per model and convention across the family, the
reference rows, and the README's family table.

How the README's family table is checked (``test_readme_family_table_is_the_command_output``):

- the reference rows (the thesis's models on LI-Adger, BLiMP's human agreement and models), the
  column legend and the notes are recomputed every time and must equal the README's;
- the trigram's rows are recomputed by scoring afresh: each ``results/trigram/<benchmark>.jsonl``
  file the README's command names is made by ``python -m baselines score --model trigram
  --dataset <benchmark>`` (BLiMP's 133,945 sentences in about 15 s);
- a row whose scores files are all present under ``results/`` (git-ignored: long runs, made
  locally) is recomputed from them and must equal the README's;
- a row whose files are neither present nor quick to make (e.g. SmolLM2's long runs on a
  fresh clone) **is not recomputed**: it is only checked for consistency with the command —
  one README row per model of the command (rows in the order of the models' first files), a
  number in each column whose benchmark has a file in the command and ``—`` in the others —
  and the test warns, naming the files it did not find. It never skips.

A file's model and benchmark are read from its path, ``results/<model>/<benchmark>.jsonl`` (what
``python -m baselines score --dataset all --out results/<model>`` writes; the README says so),
so that the rows the test cannot recompute can still be matched.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from test_benchmarks_metrics import _TABLE_3

from li_adger.benchmarks import BENCHMARKS, load_items
from metric_adc import __main__ as cli
from metric_adc.report.summary import SUMMARY_KEYS
from metric_adc.scores.file import write_scores
from metric_adc.thesis.outputs import load_thesis_scores

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
NUMBER = re.compile(r"^-?\d\.\d{3}$")


def _run(capsys, *argv) -> str:
    assert cli.main(list(argv)) == 0
    return capsys.readouterr().out


def _md_rows(text: str) -> dict[str, list[str]]:
    out = {}
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| model |"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            out[cells[0]] = cells[1:]
    return out


def _columns() -> list[str | None]:
    """The benchmark each cell of a summary row belongs to (``None``: LI-Adger's MCC, a number
    only for a CoLA classifier)."""
    out: list[str | None] = []
    for name in BENCHMARKS:
        out += [name, name, None] if name == "li_adger" else [name]
    return out


# ----------------------------------------------------------------------------- small files
def _file(tmp_path, name, bench, scores, **meta):
    path = tmp_path / f"{name}.jsonl"
    return write_scores(path, [{"id": k, "score": v} for k, v in scores.items()],
                        {"dataset": bench, **meta})  # fmt: skip


def _npi_scores(shift: float = 0.0) -> dict[str, float]:
    units = load_items("npi").units
    return {i: shift - len(s) for i, s in zip(units["id"], units["sentence"], strict=True)}


def test_summary_groups_files_by_model_and_convention(tmp_path, capsys):
    thesis = load_thesis_scores()
    li = _file(tmp_path, "a", "li_adger", thesis["bert-base-uncased-mlm"], model="m",
               variant="logprob", convention="default")  # fmt: skip
    npi = _file(tmp_path, "b", "npi", _npi_scores(), model="m", variant="logprob",
                convention="default")  # fmt: skip
    harness = _file(tmp_path, "c", "npi", _npi_scores(), model="m", variant="logprob",
                    convention="harness")  # fmt: skip
    out = json.loads(_run(capsys, "summary", str(li), str(npi), str(harness), "--json",
                          "--no-references"))["rows"]  # fmt: skip
    assert [r["model"] for r in out] == ["m (logprob, default)", "m (logprob, harness)"]
    assert all(list(r) == list(SUMMARY_KEYS) for r in out)
    default, other = out
    # the thesis's scores of BERT base (MLM) give its README row: BLiMP 0.852, ADC δ=0.5 0.364
    assert round(default["headlines"]["li_adger"], 3) == 0.852 and round(default["adc"], 3) == 0.364
    assert default["headlines"]["npi"] == other["headlines"]["npi"] is not None
    assert other["headlines"]["li_adger"] is None and default["li_adger_mcc"] is None
    assert default["files"] == {"li_adger": str(li), "npi": str(npi)}
    assert (default["convention"], other["convention"]) == ("default", "harness")


def test_summary_reads_a_results_folder_and_refuses_two_files_of_one_row(tmp_path, capsys):
    (tmp_path / "npi").mkdir()
    _file(tmp_path / "npi", "m", "npi", _npi_scores(), model="m")
    cola = load_thesis_scores()["bert-large-cased-cola"]
    _file(tmp_path, "c", "li_adger", cola, model="c", kind="cola")
    out = json.loads(_run(capsys, "summary", "--results", str(tmp_path), "--json",
                          "--no-references"))["rows"]  # fmt: skip
    assert [r["model"] for r in out] == ["c", "m"]
    assert round(out[0]["li_adger_mcc"], 3) == 0.633  # the thesis's Table 2.2 value
    _file(tmp_path, "m2", "npi", _npi_scores(1.0), model="m")
    assert cli.main(["summary", "--results", str(tmp_path), "--no-references"]) == 2
    err = capsys.readouterr().err
    assert (
        f"{tmp_path / 'm2.jsonl'} and {tmp_path / 'npi' / 'm.jsonl'} both give 'm' on 'npi'" in err
    )


def test_summary_reference_rows_hold_the_published_numbers(capsys):
    out = json.loads(_run(capsys, "summary", "--json"))["rows"]
    by_name = {r["model"]: r for r in out}
    assert all(r["reference"] for r in out)
    # BLiMP: Table 3 of the paper (tests/test_benchmarks_metrics.py), overall, to its rounding
    for name, (overall, *_) in _TABLE_3.items():
        value = by_name[f"{name} (BLiMP)"]["headlines"]["blimp"]
        assert 100 * value == pytest.approx(overall, abs=0.0501)
    # LI-Adger: the README's results table (checked against `reproduce` by test_metric_cli.py)
    results = README[README.index("<!-- results:start -->") : README.index("<!-- results:end -->")]
    table = _md_rows(results)
    for name, cells in table.items():
        if name in by_name:
            r = by_name[name]
            assert [f"{r['headlines']['li_adger']:.3f}", f"{r['adc']:.3f}"] == [cells[1], cells[2]]
    cola = {n: round(by_name[n]["li_adger_mcc"], 3) for n in by_name if n.endswith("-cola")}
    assert cola == {"bert-base-uncased-cola": 0.585, "bert-large-uncased-cola": 0.616,
                    "bert-large-cased-cola": 0.633}  # fmt: skip


# ----------------------------------------------------------------------------- README
_BENCHMARK_OF_PATH = re.compile(r"^results/(?P<model>[^/]+)/(?P<bench>[a-z_]+)\.jsonl$")


def _make_trigram(bench: str, path: Path) -> bool:
    """Score the benchmark's units (sentences, or cloze units for the diagnostics) with the
    packaged trigram into ``path``, as ``python -m baselines score`` does."""
    from baselines import __main__ as scorer_cli

    path.parent.mkdir(parents=True, exist_ok=True)
    argv = ["score", "--model", "trigram", "--dataset", bench, "--out", str(path), "--quiet"]
    return scorer_cli.main(argv) == 0


def _check_family_block(text: str, capsys, tmp_path: Path, *, make_trigram: bool = True) -> dict:
    """Check README text's family block against ``summary --markdown`` (see the module's
    docstring); return ``{"recomputed": [...], "format_only": [...]}`` (model names)."""
    block = re.search(r"<!-- family:start -->\n(.*?)<!-- family:end -->", text, re.S)
    assert block is not None, "README.md has no <!-- family:start --> … <!-- family:end --> block"
    readme_rows = _md_rows(block.group(1))
    command = re.search(r"python -m metric_adc summary (.*)", text)
    assert command is not None, "README.md does not show the summary command of its table"
    groups: dict[str, list[tuple[str, str]]] = {}
    for f in re.findall(r"\S+\.(?:jsonl|csv)", command.group(1)):
        m = _BENCHMARK_OF_PATH.match(f)
        assert m, f"README summary command: {f!r} is not results/<model>/<benchmark>.jsonl"
        bench = m.group("bench")
        assert bench in BENCHMARKS, f"README summary command: {f!r}: no benchmark {bench!r}"
        groups.setdefault(m.group("model"), []).append((bench, f))
    available: dict[str, list[str]] = {}
    missing: dict[str, list[str]] = {}
    for model, files in groups.items():
        paths = []
        for bench, f in files:
            if (REPO / f).is_file():
                paths.append(str(REPO / f))
            elif make_trigram and model == "trigram" and _make_trigram(bench, tmp_path / f):
                paths.append(str(tmp_path / f))
            else:
                missing.setdefault(model, []).append(f)
        if model not in missing:
            available[model] = paths
    produced_text = _run(
        capsys, "summary", "--markdown", *(p for ps in available.values() for p in ps)
    )
    produced = _md_rows(produced_text)
    names = list(produced)
    recomputed, references = names[: len(available)], names[len(available) :]
    for name in references:
        assert name in readme_rows, f"README family table lacks the reference row {name!r}"
        assert readme_rows[name] == produced[name], f"README row {name!r} differs from the command"
    for line in produced_text.splitlines():
        if line.startswith("- "):
            assert line in block.group(1), f"README family block lacks the line {line!r}"
    models = [n for n in readme_rows if n not in references]
    assert len(models) == len(groups), (
        f"README family table has {len(models)} model rows ({models}), expected one per model "
        f"of its command ({list(groups)})"
    )
    columns = _columns()
    checked_only = []
    for name, (model, files) in zip(models, groups.items(), strict=True):
        if model in available:
            got = recomputed[list(available).index(model)]
            assert name == got, f"README family row {name!r}: the command names it {got!r}"
            assert readme_rows[name] == produced[got], (
                f"README row {name!r} differs from the command"
            )
            continue
        checked_only.append(name)
        benches = {b for b, _ in files}
        for bench, cell in zip(columns, readme_rows[name], strict=True):
            if bench is None:
                assert cell == "—" or NUMBER.match(cell), f"README row {name!r}: MCC cell {cell!r}"
            elif bench in benches:
                assert NUMBER.match(cell), f"README row {name!r}: {bench} has a file but {cell!r}"
            else:
                assert cell == "—", f"README row {name!r}: no {bench} file but the cell is {cell!r}"
    if missing:
        warnings.warn(
            "README family rows checked for consistency only, not recomputed (files not here): "
            + "; ".join(f"{m}: {', '.join(fs)}" for m, fs in missing.items()),
            stacklevel=2,
        )
    return {"recomputed": [n for n in models if n not in checked_only], "format_only": checked_only}


@pytest.mark.slow  # scores the trigram afresh on BLiMP, NPI and CoLA
def test_readme_family_table_is_the_command_output(capsys, tmp_path):
    checked = _check_family_block(README, capsys, tmp_path)
    assert "trigram (slor)" in checked["recomputed"]


def test_family_block_check_catches_stale_or_missing_rows(capsys, tmp_path):
    refs = _run(capsys, "summary", "--markdown")
    command = (
        "python -m metric_adc summary --markdown results/x/li_adger.jsonl results/x/blimp.jsonl\n"
    )
    row = "| x (v) | 0.700 | 0.300 | — | 0.650 | — | — | — | — |\n"
    lines = refs.splitlines(keepends=True)
    fresh = f"{command}<!-- family:start -->\n{''.join(lines[:2])}{row}{''.join(lines[2:])}<!-- family:end -->"
    with pytest.warns(
        UserWarning, match=r"not recomputed \(files not here\): x: results/x/li_adger.jsonl"
    ):
        assert _check_family_block(fresh, capsys, tmp_path)["format_only"] == ["x (v)"]
    stale = fresh.replace(
        "| GPT-2 (BLiMP) | — | — | — | 0.830 |", "| GPT-2 (BLiMP) | — | — | — | 0.831 |"
    )
    with pytest.raises(AssertionError, match=r"README row 'GPT-2 \(BLiMP\)' differs"):
        _check_family_block(stale, capsys, tmp_path)
    no_file = fresh.replace(row, "| x (v) | 0.700 | 0.300 | — | 0.650 | 0.500 | — | — |\n")
    with pytest.raises(AssertionError, match=r"no npi file but"):
        _check_family_block(no_file, capsys, tmp_path)
    missing = fresh.replace(row, "")
    with pytest.raises(AssertionError, match=r"has 0 model rows \(\[\]\), expected one per model"):
        _check_family_block(missing, capsys, tmp_path)
    legend = fresh.replace("- NPI: share", "- NPI: portion")
    with pytest.raises(AssertionError, match=r"lacks the line .- NPI: share"):
        _check_family_block(legend, capsys, tmp_path)
