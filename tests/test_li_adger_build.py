"""The built tables: counts, spot values, schema, invariants, report, reproducibility,
atomicity, interrupted builds, unreadable sources, CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from filelock import FileLock, Timeout

from li_adger import __main__ as main_module
from li_adger.builder import build as build_module
from li_adger.builder.ids import LI_OFFICIAL_PAIR_ALIASES, parse_id
from li_adger.builder.schema import SCHEMAS
from li_adger.builder.tables import BuildError


def test_counts(li_adger_tables):
    s, p, ph = (li_adger_tables[k] for k in ("sentences", "pairs", "phenomena"))
    assert len(s) == 4178
    assert len(p) == 2393
    assert int((~p["discarded"]).sum()) == 2365
    assert int(p["discarded"].sum()) == 28
    assert s["source"].value_counts().to_dict() == {"LI": 2400, "Adger": 1778}
    assert int(s["judgement"].isna().sum()) == 2
    assert sorted(s.loc[s["judgement"].isna(), "id"]) == ["ch6.93.*.01", "ch6.93.g.09"]
    # LI: the 150 official phenomena of Sprouse, Schütze & Almeida (2013), 2 conditions each.
    li = ph[ph["source"] == "LI"]
    assert len(li) == 150 and set(li["n_conditions"]) == {2}
    assert s["condition"].nunique() == 522


def test_spot_values(li_adger_tables):
    s = li_adger_tables["sentences"].set_index("id")
    row = s.loc["32.3.Culicover.7a.g.01"]
    assert row["sentence"] == "John tried to win."
    assert row["judgement"] == pytest.approx(1.453262, abs=1e-9)
    assert row["source"] == "LI" and row["mark"] == "g" and bool(row["expert_acceptable"])
    assert row["token"] == 1 and row["condition"] == "32.3.Culicover.7a.g"
    assert row["phenomenon"] == "32.3.Culicover.7a+7b"
    assert s.loc["ch8.150.*.01", "judgement"] == pytest.approx(-1.14131, abs=1e-9)
    assert not s.loc["ch8.150.*.01", "expert_acceptable"]


def test_schema_is_exact(li_adger_data_dir):
    files = build_module.data_files(li_adger_data_dir)
    for name, schema in SCHEMAS.items():
        assert pq.read_schema(files[name]).equals(schema), name


def test_sentences_agree_with_source_file(li_adger_tables):
    from li_adger.sources import source_file

    raw = pd.read_csv(
        source_file("li-adger/human_ME_results_li-adger_sentences.csv"),
        dtype=str,
        keep_default_na=False,
    )
    s = li_adger_tables["sentences"]
    assert s["id"].tolist() == raw["id"].tolist()
    assert s["sentence"].tolist() == raw["sentence"].tolist()
    expected = pd.to_numeric(raw["judgement"], errors="coerce").to_numpy()
    np.testing.assert_array_equal(s["judgement"].to_numpy(), expected)


def test_pair_invariants(li_adger_tables):
    s = li_adger_tables["sentences"].set_index("id")
    p = li_adger_tables["pairs"]
    assert p["pair_id"].tolist() == list(range(len(p)))
    # members exist and carry their sentence and judgement
    assert p["good_id"].isin(s.index).all() and p["bad_id"].isin(s.index).all()
    assert (p["good_sentence"].to_numpy() == s.loc[p["good_id"], "sentence"].to_numpy()).all()
    np.testing.assert_array_equal(
        p["bad_judgement"].to_numpy(), s.loc[p["bad_id"], "judgement"].to_numpy()
    )
    # human delta = good - bad, null exactly when a judgement is missing
    np.testing.assert_allclose(
        p["human_delta"], p["good_judgement"] - p["bad_judgement"], rtol=0, atol=0
    )
    missing = p["good_judgement"].isna() | p["bad_judgement"].isna()
    assert (p["human_delta"].isna() == missing).all() and int(missing.sum()) == 2
    assert p.loc[missing, "discarded"].all()
    # discards have reasons; kept pairs have none
    assert p.loc[p["discarded"], "discard_reason"].notna().all()
    assert p.loc[~p["discarded"], "discard_reason"].isna().all()
    # a pair and its members belong to one phenomenon of the pair's source
    assert (p["phenomenon"].to_numpy() == s.loc[p["good_id"], "phenomenon"].to_numpy()).all()
    assert (p["phenomenon"].to_numpy() == s.loc[p["bad_id"], "phenomenon"].to_numpy()).all()
    assert (p["source"].to_numpy() == s.loc[p["good_id"], "source"].to_numpy()).all()


def test_pairs_are_expert_ordered_and_token_matched(li_adger_tables):
    p = li_adger_tables["pairs"]
    from li_adger.builder.ids import mark_rank

    assert all(
        mark_rank(g) < mark_rank(b) for g, b in zip(p["good_mark"], p["bad_mark"], strict=True)
    )
    not_g = p[p["good_mark"] != "g"]
    assert set(not_g["good_condition"]) == {"34.1.basilico.44a.?"} and len(not_g) == 8
    off = [
        (g, b)
        for g, b in zip(p["good_id"], p["bad_id"], strict=True)
        if parse_id(g).token != parse_id(b).token
    ]
    assert off == [
        ("41.4.Bruening.9c.g.05", "41.4.Bruening.9b.*.06"),
        ("41.4.Bruening.9c.g.06", "41.4.Bruening.9b.*.05"),
    ]


def test_li_phenomena_are_the_official_pairs(li_adger_tables):
    from li_adger.builder.tables import official_li_pairs
    from li_adger.sources import find_sources

    official = official_li_pairs(
        find_sources(["sprouse2013/LI.conditions.csv"])["sprouse2013/LI.conditions.csv"]
    )
    ph = li_adger_tables["phenomena"]
    li = {frozenset(c) for c in ph.loc[ph["source"] == "LI", "conditions"]}
    assert li == {frozenset(pair) for pair in official}
    # every alias is needed (the official spelling is not LI-Adger's) and lands on LI-Adger's
    conditions = set(li_adger_tables["sentences"]["condition"])
    for spelled, alias in LI_OFFICIAL_PAIR_ALIASES.items():
        assert not set(spelled) <= conditions and set(alias) <= conditions, spelled


def test_phenomena_aggregate_the_pairs(li_adger_tables):
    s, p, ph = (li_adger_tables[k] for k in ("sentences", "pairs", "phenomena"))
    assert ph["phenomenon"].is_unique
    assert int(ph["n_sentences"].sum()) == len(s)
    assert int(ph["n_pairs"].sum()) == 2365 and int(ph["n_pairs_discarded"].sum()) == 28
    kept = p[~p["discarded"]]
    expected = kept.groupby("phenomenon")["human_delta"].mean()
    got = ph.set_index("phenomenon")["mean_human_delta"]
    np.testing.assert_allclose(got.loc[expected.index], expected, rtol=1e-12)
    # every sentence type belongs to exactly one phenomenon
    conds = [c for cs in ph["conditions"] for c in cs]
    assert len(conds) == len(set(conds)) == s["condition"].nunique()


def test_report_lists_anomalies(li_adger_data_dir):
    report = build_module.read_report(li_adger_data_dir)
    kinds = {a["kind"]: a for a in report["anomalies"]}
    assert kinds["missing_judgement"]["items"] == ["ch6.93.*.01", "ch6.93.g.09"]
    assert kinds["upstream_verify_note"]["count"] == 105
    assert kinds["pair_text_differs"]["count"] == 2
    assert "li_phenomenon_not_official" not in kinds and "li_official_pair_missing" not in kinds
    assert all(src["verified"] for src in report["sources"])
    assert report["summary"]["total"]["evaluable"] == 2365


def _state(data_dir):
    root = data_dir.parent
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.name != ".build.lock")
    return {str(p.relative_to(root)): p.read_bytes() for p in files}


def test_two_builds_are_identical_byte_for_byte(li_adger_data_dir, tmp_path):
    again = build_module.build(data_dir=tmp_path / "li_adger" / "data")
    first, second = _state(li_adger_data_dir), _state(again)
    fp = build_module.read_report(again)["fingerprint"]
    assert sorted(second) == sorted(
        [".huggingface.yaml", "README.md", "data/build_report.json"]
        + [f"data/snapshots/{fp}/{n}.parquet" for n in ("pairs", "phenomena", "sentences")]
    )
    assert first == second
    assert str(tmp_path) not in second["data/build_report.json"].decode()  # no local path


def test_invalid_source_leaves_previous_data_intact(tmp_path, source_copy):
    data_dir = build_module.build(data_dir=tmp_path / "li_adger" / "data")
    before = _state(data_dir)
    pairs = source_copy / "li-adger/li-adger_min_pairs.csv"
    pairs.write_text(pairs.read_text().replace("32.1.martin.20a.*.03", "32.1.martin.20a.*.99"))
    with pytest.raises(BuildError, match=r"line 12: ungramm_id '32.1.martin.20a.\*.99'"):
        build_module.build(source_copy, data_dir=data_dir, verify=False)
    assert _state(data_dir) == before


# writes: the 3 snapshot files, the report, the pointer
@pytest.mark.parametrize("fail_at", [2, 4, 5])
def test_failed_write_leaves_previous_data_intact(tmp_path, source_copy, monkeypatch, fail_at):
    data_dir = build_module.build(data_dir=tmp_path / "li_adger" / "data")
    before = _state(data_dir)
    # changed content, so that every output file would differ
    me = source_copy / "li-adger/human_ME_results_li-adger_sentences.csv"
    me.write_text(me.read_text().replace("-1.14131", "-1.5"))
    calls = []
    real = build_module._write_bytes

    def failing(path, data):
        calls.append(path)
        if len(calls) == fail_at:
            raise OSError("disk full")
        return real(path, data)

    monkeypatch.setattr(build_module, "_write_bytes", failing)
    with pytest.raises(OSError, match="disk full"):
        build_module.build(source_copy, data_dir=data_dir, verify=False)
    assert _state(data_dir) == before  # no new file, no temporary file left behind
    monkeypatch.undo()
    build_module.build(source_copy, data_dir=data_dir, verify=False)
    assert _state(data_dir) != before


_KILLED_BUILD = textwrap.dedent(
    """
    import os, signal, sys
    from li_adger.builder import build as builder

    def write_half_then_die(path, data):
        path.write_bytes(data[: len(data) // 2])
        os.kill(os.getpid(), signal.SIGKILL)

    builder._write_bytes = write_half_then_die
    builder.build(sys.argv[1], data_dir=sys.argv[2], verify=False)
    """
)


def test_a_killed_build_leaves_temporaries_that_the_next_build_removes(tmp_path, source_copy):
    data_dir = tmp_path / "li_adger" / "data"
    me = source_copy / "li-adger/human_ME_results_li-adger_sentences.csv"
    me.write_text(me.read_text().replace("-1.14131", "-1.5"))  # a snapshot not yet written
    env = {**os.environ, "PYTHONPATH": str(Path(build_module.__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-c", _KILLED_BUILD, str(source_copy), str(data_dir)],
        env=env, capture_output=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == -signal.SIGKILL
    left = [p for p in data_dir.rglob("*") if p.name.startswith(".") and ".tmp" in p.name]
    assert left, "the killed build should have left its temporary folder behind"
    mine = data_dir / "notes.txt"  # a file that is no temporary: never touched
    mine.write_text("keep")
    build_module.build(data_dir=data_dir)
    assert not any(p.exists() for p in left)
    assert not [p for p in data_dir.parent.rglob("*") if ".tmp" in p.name]
    assert mine.read_text() == "keep" and build_module.is_built(data_dir)


def test_temporaries_are_removed_only_under_the_build_lock(tmp_path, monkeypatch):
    data_dir = tmp_path / "li_adger" / "data"
    seen = []
    real = build_module.remove_temporaries

    def checking(folder, **kwargs):
        # another holder of the lock would be refused now: the build holds it
        with pytest.raises(Timeout):
            FileLock(str(data_dir / ".build.lock"), timeout=0).acquire()
        seen.append(Path(folder))
        return real(folder, **kwargs)

    monkeypatch.setattr(build_module, "remove_temporaries", checking)
    build_module.build(data_dir=data_dir)
    assert seen == [data_dir, data_dir / "snapshots", data_dir.parent]


@pytest.mark.parametrize(
    "rel",
    [
        "li-adger/human_ME_results_li-adger_sentences.csv",
        "li-adger/li-adger_sentences.csv",
        "li-adger/li-adger_min_pairs.csv",
        "sprouse2013/LI.conditions.csv",
    ],
)
@pytest.mark.parametrize("content", [b"", b"id,sentence\n\xff\xfe,x\n"], ids=["empty", "latin-1"])
def test_unreadable_source_is_named_without_a_traceback(
    tmp_path, source_copy, capsys, rel, content
):
    (source_copy / rel).write_bytes(content)
    argv = ["build", "--source", str(source_copy), "--no-verify", "--data-dir", str(tmp_path / "d")]
    assert main_module.main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {rel} ({source_copy / rel}): ")
    assert ("UTF-8" in err) if content else ("empty" in err or "expected columns" in err)
    assert len(err.strip().splitlines()) == 1


def test_cli_build_and_summary(tmp_path, capsys):
    data_dir = tmp_path / "li_adger" / "data"
    assert main_module.main(["build", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert "missing_judgement: 2" in out
    lines = {line.split()[0]: line.split()[1:] for line in out.splitlines()[-3:]}
    assert lines["total"] == ["4178", "522", "233", "2393", "28", "2365", "2"]
    assert main_module.main(["summary", "--json", "--data-dir", str(data_dir)]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert counts["LI"]["phenomena"] == 150 and counts["Adger"]["sentences"] == 1778


def test_cli_reports_errors(tmp_path, capsys):
    assert (
        main_module.main(["build", "--source", str(tmp_path), "--data-dir", str(tmp_path / "d")])
        == 1
    )
    assert "not found in the source folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main_module.main(["build", "--no-verify"])
