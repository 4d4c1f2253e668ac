"""Subsets: ``baselines score --subset`` scores whole groups (BLiMP paradigms, NPI environments,
diagnostic sets), ``metric_adc report`` reports a file of whole groups as those groups and says
so, and a file that scores part of a group is refused with the group, its missing ids and
``--subset``.

Golden values come from the benchmark's own tables (which units a group's comparisons name) and
from the published per-paradigm BLiMP accuracies, read here directly.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from baselines.__main__ import main as baselines_main
from li_adger.benchmarks import load_items, load_references
from li_adger.benchmarks.subsets import covered_groups, group_units, parse_subset, subset_names
from metric_adc.__main__ import main as metric_main
from metric_adc.scores.file import read_scores, write_scores

ENVIRONMENTS = ["adverbs", "only"]


@pytest.fixture(scope="module")
def npi_items():
    return load_items("npi")


def _units_of(items, column: str, groups: list[str]) -> set[str]:
    c = items.comparisons[items.comparisons[column].isin(groups)]
    return set(c["good_id"]) | set(c["bad_id"])


def test_unknown_names_are_refused_listing_the_valid_ones(npi_items):
    with pytest.raises(ValueError, match=r"unknown environments 'onyl', 'x' of npi; expected "
                       r"names from: adverbs, conditionals, .*superlative$"):  # fmt: skip
        parse_subset(npi_items, "only,onyl,x")
    assert len(subset_names(load_items("blimp"))) == 67


@pytest.mark.parametrize("dataset", ["cola", "li_adger", "all"])
def test_a_benchmark_without_subsets_is_refused(tmp_path, capsys, dataset):
    out = tmp_path / ("o" if dataset == "all" else "o.jsonl")
    args = ["score", "--model", "trigram", "--dataset", dataset, "--subset", "x", "--out", str(out)]
    assert baselines_main(args) == 2
    err = capsys.readouterr().err
    assert "error: " in err and ("has no subsets" in err or "one benchmark" in err)
    assert not out.exists()


@pytest.fixture(scope="module")
def npi_subset_file(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("subset")
    sub, full = root / "sub.jsonl", root / "full.jsonl"
    for out, extra in ((sub, ["--subset", " only, adverbs"]), (full, [])):
        args = ["score", "--model", "trigram", "--dataset", "npi", "--out", str(out), "--quiet"]
        assert baselines_main([*args, *extra]) == 0
    return {"sub": sub, "full": full}


def test_score_subset_scores_the_units_of_whole_groups(npi_subset_file, npi_items):
    sf = read_scores(npi_subset_file["sub"])
    assert set(sf.ids) == _units_of(npi_items, "environment", ENVIRONMENTS)
    assert sf.metadata["subset"] == "only,adverbs"
    # the same scores as in the run over the whole benchmark
    full = read_scores(npi_subset_file["full"]).as_dict()
    assert all(full[i] == s for i, s in sf.as_dict().items())


def _report(path, capsys, *extra) -> dict:
    args = ["report", str(path), "--json", "--n-resamples", "50", *extra]
    assert metric_main(args) == 0
    return json.loads(capsys.readouterr().out)


def test_report_reports_the_groups_and_says_so(npi_subset_file, npi_items, capsys):
    report = _report(npi_subset_file["sub"], capsys)
    assert report["subset"] == {
        "column": "environment", "word": "environment", "groups": ENVIRONMENTS, "of": 9
    }  # fmt: skip
    assert list(report["subset"]) == ["column", "word", "groups", "of"]  # as --json prints it
    row = report["rows"][0]
    scores = read_scores(npi_subset_file["sub"]).as_dict()
    c = npi_items.comparisons[npi_items.comparisons["environment"].isin(ENVIRONMENTS)]
    passed = [scores[g] > scores[b] for g, b in zip(c["good_id"], c["bad_id"], strict=True)]
    assert row["n_items"] == len(c)
    assert row["headline"] == pytest.approx(np.mean(passed), abs=1e-12)
    # each environment's number is the one the report of the whole benchmark gives it
    whole = _report(npi_subset_file["full"], capsys)
    assert whole["subset"] is None
    by_env = row["pairs"]["groups"]["environment"]
    assert sorted(by_env) == ENVIRONMENTS
    for env in ENVIRONMENTS:
        assert by_env[env] == whole["rows"][0]["pairs"]["groups"]["environment"][env]
    assert metric_main(["report", str(npi_subset_file["sub"]), "--n-resamples", "50"]) == 0
    text = capsys.readouterr().out
    assert "Subset: 2 of the 9 environments (environment): adverbs, only." in text


def test_a_file_covering_part_of_a_group_is_refused_suggesting_subset(tmp_path, capsys):
    out = tmp_path / "limit.jsonl"
    args = ["score", "--model", "trigram", "--dataset", "npi", "--limit", "300", "--out", str(out)]
    assert baselines_main([*args, "--quiet"]) == 0
    assert metric_main(["report", str(out)]) == 2
    err = capsys.readouterr().err
    items = load_items("npi")
    scored = read_scores(out).ids
    _, partial = covered_groups(items, scored)
    (group,) = partial
    missing = sorted(set(group_units(items)[group]) - set(scored))
    assert f"{out}: it covers part of 1 environment: {group!r} ({len(missing)} unit id(s)" in err
    assert "as --limit 300 scores the first 300 units" in err
    assert f"--dataset npi --subset {group} ..." in err


def test_a_diagnostic_set_and_blimp_paradigms_are_reported_with_their_references(tmp_path, capsys):
    items = load_items("diagnostics")
    ids = group_units(items)["ROLE-88"]
    rng = np.random.default_rng(0)
    path = write_scores(
        tmp_path / "d.jsonl",
        [
            {"id": i, "score": -abs(float(s))}
            for i, s in zip(ids, rng.normal(size=len(ids)), strict=True)
        ],
        {"model": "noise", "dataset": "diagnostics"},
    )
    report = _report(path, capsys)
    assert report["subset"]["groups"] == ["ROLE-88"]
    assert report["rows"][0]["cloze"] is not None

    blimp = load_items("blimp")
    paradigms = ["causative", "wh_island"]
    units = group_units(blimp)
    ids = sorted(set(units[paradigms[0]]) | set(units[paradigms[1]]))
    path = write_scores(
        tmp_path / "b.jsonl",
        [{"id": i, "score": -float(len(i))} for i in ids],
        {"model": "length", "dataset": "blimp"},
    )
    report = _report(path, capsys)
    assert report["subset"]["groups"] == paradigms and report["subset"]["of"] == 67
    refs = {r["model"]: r for r in report["rows"][1:]}
    published = load_references("blimp")["blimp-models"]
    gpt2 = published[(published["model"] == "GPT-2") & published["UID"].isin(paradigms)]
    assert refs["GPT-2"]["headline"] == pytest.approx(gpt2["accuracy"].mean(), abs=1e-12)
    assert refs["GPT-2"]["n_items"] == 2000


def test_summary_refuses_a_subset_naming_report(npi_subset_file, capsys):
    assert metric_main(["summary", str(npi_subset_file["sub"])]) == 2
    err = capsys.readouterr().err
    assert "scores 2 of the 9 environments of npi (a subset)" in err
    assert f"python -m metric_adc report {npi_subset_file['sub']}" in err
