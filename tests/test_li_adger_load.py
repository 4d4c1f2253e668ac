"""Loading: the committed build (zero-step, byte-identical to a rebuild, small, sentence-level
only, loadable from a fresh clone), the card (its example, YAML metadata and example row), no
stale data after a rebuild, and damaged or missing builds named or repaired."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

import li_adger
from li_adger.__main__ import main as li_adger_main
from li_adger.builder import build as build_module
from li_adger.builder.schema import CONFIGS, SCHEMAS, hf_features_yaml

REPO = Path(__file__).resolve().parents[1]
CARD = REPO / "li_adger" / "README.md"
PACKAGE = REPO / "li_adger"


def _card_yaml() -> dict:
    text = CARD.read_text(encoding="utf-8")
    match = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    assert match, "the card must start with a YAML block"
    return yaml.safe_load(match.group(1))


def _card_block_with_output(text: str, marker: str) -> tuple[str, str]:
    """The python block after ``marker`` and the text block that follows it."""
    found = re.search(
        re.escape(marker) + r".*?```python\n(.*?)```\s*\n(?:Output:\n\n)?```text\n(.*?)```",
        text,
        re.S,
    )
    assert found, f"the card has no python block with its output after {marker!r}"
    return found.group(1), found.group(2)


def test_card_example_runs_verbatim(monkeypatch):
    code, expected = _card_block_with_output(CARD.read_text(encoding="utf-8"), "From a clone")
    monkeypatch.chdir(REPO)  # the example loads "li_adger" from the repository root
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(CARD), "exec"), {"__name__": "__card__"})
    assert out.getvalue() == expected


def test_card_yaml_matches_the_schema():
    card = _card_yaml()
    configs = {c["config_name"]: c for c in card["configs"]}
    assert list(configs) == list(CONFIGS)
    for name, config in configs.items():
        assert config["data_files"] == [{"split": "test", "path": f"data/{name}.parquet"}]
    assert [n for n, c in configs.items() if c.get("default")] == ["pairs"]
    features = {i["config_name"]: i["features"] for i in card["dataset_info"]}
    assert features == {name: hf_features_yaml(name) for name in CONFIGS}


# The values the Hub's dataset-card metadata accepts for these fields.
_HUB_METADATA = {
    "annotations_creators": {"crowdsourced", "expert-generated", "found",
                             "machine-generated", "no-annotation", "other"},
    "language_creators": {"crowdsourced", "expert-generated", "found",
                          "machine-generated", "other"},
    "multilinguality": {"monolingual", "multilingual", "translation", "other"},
    "size_categories": {"n<1K", "1K<n<10K", "10K<n<100K"},
}  # fmt: skip


def test_card_has_the_full_hub_metadata():
    card = _card_yaml()
    for field, allowed in _HUB_METADATA.items():
        assert card[field] and set(card[field]) <= allowed, field
    assert card["source_datasets"] == ["original"] and card["language"] == ["en"]
    # the upstream repositories carry no licence file: the data's licence is unknown
    assert card["license"] == "unknown"
    text = CARD.read_text(encoding="utf-8")
    assert "## Licence and terms" in text and "MIT" in text
    assert 'load_dataset("<owner>/li-adger", "pairs"' in text


def test_card_example_row_is_a_row_of_the_data():
    text = CARD.read_text(encoding="utf-8")
    block = re.search(r"## Example row.*?```json\n(.*?)```", text, re.S)
    assert block, "the card has no example row"
    row = json.loads(block.group(1))
    assert row == li_adger.load("pairs")[row["pair_id"]]


def test_card_participant_counts_are_those_of_the_files():
    from li_adger.sources import participants as P

    text = CARD.read_text(encoding="utf-8")
    tables = {"me": P.read_ratings("me", note=False), "ls": P.read_ratings("ls", note=False)}
    tables["fc"] = P.read_forced_choice(note=False)
    for task, file in (("me", "LI.me.results.csv"), ("ls", "LI.ls.results.csv"),
                       ("fc", "FC.signtest.csv")):  # fmt: skip
        frame = tables[task]
        by_experiment = frame.groupby(frame["survey"].map(P.experiment_of))["participant"]
        counts = ", ".join(str(n) for n in by_experiment.nunique())
        row = f"| `{file}` | {frame['participant'].nunique()} | {counts} |"
        assert row in text, row


def test_card_documents_every_column():
    text = CARD.read_text(encoding="utf-8")
    for name, schema in SCHEMAS.items():
        for column in schema.names:
            assert f"`{column}`" in text, f"{name}.{column} is not described in the card"


def test_generated_yaml_overrides_card_configs(li_adger_data_dir):
    pointer = yaml.safe_load((li_adger_data_dir.parent / build_module.HF_YAML).read_text())
    fingerprint = build_module.read_report(li_adger_data_dir)["fingerprint"]
    paths = {c["config_name"]: c["data_files"][0]["path"] for c in pointer["configs"]}
    assert paths == {n: f"data/snapshots/{fingerprint}/{n}.parquet" for n in CONFIGS}


def test_no_stale_data_after_rebuild(tmp_path, source_copy):
    """Rebuild in place from a modified source: both loading routes see the new judgement."""
    import datasets

    data_dir = tmp_path / "li_adger" / "data"
    hf_cache = tmp_path / "hf_cache"

    def judgement(sentence_id: str) -> tuple[float, float]:
        via_datasets = datasets.load_dataset(
            str(data_dir.parent), "sentences", split="test", cache_dir=str(hf_cache)
        )
        via_load = li_adger.load("sentences", data_dir=data_dir)
        values = []
        for ds in (via_datasets, via_load):
            frame = ds.to_pandas().set_index("id")
            values.append(float(frame.loc[sentence_id, "judgement"]))
        return tuple(values)

    li_adger.build(data_dir=data_dir)
    assert judgement("ch8.150.*.01") == pytest.approx((-1.14131, -1.14131))

    me = source_copy / "li-adger/human_ME_results_li-adger_sentences.csv"
    line = "ch8.150.*.01,Melissa seems that is happy.,"
    me.write_text(me.read_text().replace(line + "-1.14131", line + "-0.5"))
    li_adger.build(source_copy, data_dir=data_dir, verify=False)
    report = build_module.read_report(data_dir)
    assert not any(src["verified"] for src in report["sources"])
    assert judgement("ch8.150.*.01") == pytest.approx((-0.5, -0.5))

    li_adger.build(data_dir=data_dir)  # back to the pinned sources
    assert judgement("ch8.150.*.01") == pytest.approx((-1.14131, -1.14131))


def test_load_builds_when_missing_or_outdated(tmp_path):
    data_dir = tmp_path / "li_adger" / "data"
    assert li_adger.load("phenomena", data_dir=data_dir).num_rows == 233
    report_path = data_dir / build_module.REPORT_FILE
    report = json.loads(report_path.read_text())
    report["format_version"] = 0
    report_path.write_text(json.dumps(report))
    assert not build_module.is_built(data_dir)
    assert li_adger.load("phenomena", data_dir=data_dir).num_rows == 233
    assert build_module.is_built(data_dir)


def test_load_rejects_unknown_config_and_split():
    with pytest.raises(ValueError, match="config 'minimal_pairs'"):
        li_adger.load("minimal_pairs")
    with pytest.raises(ValueError, match="split 'train'"):
        li_adger.load("pairs", "train")


# ------------------------------------------------------------------ the committed build
def _committed() -> dict[str, Path]:
    """The files of the package's committed build, by path relative to ``li_adger/``."""
    report = build_module.read_report()
    files = [build_module.DATA_DIR / build_module.REPORT_FILE, PACKAGE / build_module.HF_YAML]
    files += list(build_module.data_files().values())
    assert report["fingerprint"] == files[-1].parent.name
    return {p.relative_to(PACKAGE).as_posix(): p for p in files}


def test_committed_build_is_what_build_makes_from_the_verified_sources(tmp_path):
    fresh = build_module.build(data_dir=tmp_path / "li_adger" / "data").parent
    made = {p.relative_to(fresh).as_posix(): p for p in fresh.rglob("*") if p.is_file()}
    made.pop("README.md")  # the card, copied into a folder that has none
    made.pop("data/.build.lock")
    committed = _committed()
    assert sorted(committed) == sorted(made)
    assert build_module.read_report(fresh / "data") == build_module.read_report()
    for rel, path in committed.items():
        if rel.endswith(".parquet") and (
            pq.read_metadata(path).created_by != pq.read_metadata(made[rel]).created_by
        ):
            # another pyarrow writes other bytes: the content must still be the same
            assert pq.read_table(path).equals(pq.read_table(made[rel])), rel
        else:
            assert path.read_bytes() == made[rel].read_bytes(), f"{rel} drifted; run the build"


def test_a_rebuild_leaves_the_committed_files_as_they_are(tmp_path):
    copy = tmp_path / "li_adger"
    for rel, path in _committed().items():
        (copy / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy / rel)
    shutil.copyfile(CARD, copy / "README.md")
    before = {rel: (copy / rel).read_bytes() for rel in _committed()}
    build_module.build(data_dir=copy / "data")
    files = {p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()}
    assert files == {*before, "README.md", "data/.build.lock"}
    assert {rel: (copy / rel).read_bytes() for rel in before} == before


def test_committed_build_is_small_and_sentence_level_only():
    committed = _committed()
    assert sum(p.stat().st_size for p in committed.values()) < 1_000_000
    rows = {"sentences": 4178, "pairs": 2393, "phenomena": 233}
    for name, path in build_module.data_files().items():
        table = pq.read_table(path)
        assert table.schema.remove_metadata().equals(SCHEMAS[name]), name
        assert table.num_rows == rows[name]
        assert not [c for c in table.column_names if "participant" in c]


def _git_files() -> list[str]:
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        pytest.skip("needs git and a git checkout (the files a clone holds)")
    done = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
    return [f for f in done.stdout.decode().split("\0") if f]


def test_the_committed_build_is_tracked_and_nothing_else_of_the_data_folder():
    tracked = {f for f in _git_files() if f.startswith(("li_adger/data/", "li_adger/.hugg"))}
    assert tracked == {f"li_adger/{rel}" for rel in _committed()}


_FRESH_CLONE = r"""
import re, sys
from pathlib import Path

readme = Path("README.md").read_text(encoding="utf-8")
quick = re.search(r"\*\*The dataset alone\*\*.*?```bash\n.*?python -c '(.*?)'\n```", readme, re.S)
exec(quick.group(1), {})  # the Quick start's command, before anything else
code = re.search(r"## Using the dataset\n.*?```python\n(.*?)```", readme, re.S).group(1)
scope = {}
exec(code, scope)  # the README's own example, as written
from datasets import load_dataset

pairs = load_dataset("li_adger", "pairs", split="test")
print(scope["pairs"].num_rows, sum(not d for d in pairs["discarded"]),
      scope["sentences"].num_rows, scope["phenomena"].num_rows)
"""


def test_a_fresh_clone_loads_offline_without_a_build(tmp_path):
    clone = tmp_path / "clone"
    for rel in _git_files():
        if (REPO / rel).is_file():
            (clone / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REPO / rel, clone / rel)
    before = {p: p.read_bytes() for p in (clone / "li_adger").rglob("*") if p.is_file()}
    nowhere = tmp_path / "no-sources"
    nowhere.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": str(clone),
        "HF_HUB_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "hf"),
        "HF_DATASETS_CACHE": str(tmp_path / "hf" / "datasets"),
        "LI_ADGER_SOURCE": str(nowhere),  # no source file anywhere: a build would fail
        "LI_ADGER_CACHE": str(tmp_path / "li-adger-cache"),
    }
    done = subprocess.run([sys.executable, "-c", _FRESH_CLONE], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    *dataset, counts = done.stdout.strip().rsplit("\n", 1)
    assert "num_rows: 2393" in "".join(dataset)  # the Quick start's print
    assert counts.split() == ["2393", "2365", "4178", "233"]
    assert "building" not in done.stderr and "rebuilding" not in done.stderr
    after = {p: p.read_bytes() for p in (clone / "li_adger").rglob("*") if p.is_file()}
    assert {p: b for p, b in after.items() if p.name != ".build.lock"} == before


# ------------------------------------------------------------------ damaged or missing builds
@pytest.fixture
def built_copy(tmp_path, li_adger_data_dir) -> Path:
    """A private copy of a complete build (its dataset folder ``…/li_adger``)."""
    root = tmp_path / "li_adger"
    shutil.copytree(li_adger_data_dir.parent, root)
    return root / "data"


def _damage(path: Path, how: str) -> None:
    if how == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif how == "garbage":
        path.write_bytes(b"not parquet at all")
    else:  # a valid Parquet file with one value changed
        table = pq.read_table(path)
        column = table.column("judgement").to_pylist()
        column[0] = 0.0
        index = table.schema.get_field_index("judgement")
        pq.write_table(table.set_column(index, "judgement", pa.array(column)), path)


@pytest.mark.parametrize("how", ["truncated", "garbage", "edited"])
def test_a_damaged_snapshot_is_rebuilt_when_the_sources_are_there(built_copy, how, capsys):
    sentences = build_module.data_files(built_copy)["sentences"]
    _damage(sentences, how)
    assert not build_module.is_built(built_copy)
    frame = li_adger.load("sentences", data_dir=built_copy).to_pandas().set_index("id")
    assert frame.loc["32.3.Culicover.7a.g.01", "judgement"] == pytest.approx(1.453262)
    err = capsys.readouterr().err
    assert str(sentences.parent) in err and "rebuilding" in err
    assert build_module.is_built(built_copy)


def test_a_damaged_snapshot_without_sources_names_the_file_and_the_command(
    built_copy, tmp_path, monkeypatch, capsys
):
    pairs = build_module.data_files(built_copy)["pairs"]
    _damage(pairs, "truncated")
    monkeypatch.setenv("LI_ADGER_SOURCE", str(tmp_path / "empty"))  # sources nowhere
    with pytest.raises(build_module.DamagedBuildError) as err:
        li_adger.load("pairs", data_dir=built_copy)
    message = str(err.value)
    assert str(pairs) in message and "python -m li_adger build --data-dir" in message
    assert "source files to rebuild it were not found" in message
    assert "rebuilding it" in capsys.readouterr().err  # load said why it tried
    # the command line: one line, no traceback
    assert li_adger_main(["summary", "--data-dir", str(built_copy)]) == 1
    out = capsys.readouterr().err
    assert out.startswith(f"error: {pairs}: not a readable Parquet file") and "Traceback" not in out


def test_a_pointer_that_points_elsewhere_is_a_damaged_build(built_copy):
    pointer = built_copy.parent / build_module.HF_YAML
    pointer.write_text(pointer.read_text().replace("snapshots/", "snapshots/x"))
    with pytest.raises(build_module.DamagedBuildError, match=re.escape(str(pointer))):
        build_module.check_build(built_copy)


def test_a_missing_build_in_the_package_folder_says_how_to_restore_it(monkeypatch, tmp_path):
    from li_adger import loader

    monkeypatch.setattr(loader, "DATA_DIR", (tmp_path / "li_adger" / "data").resolve())
    monkeypatch.setenv("LI_ADGER_SOURCE", str(tmp_path / "empty"))  # sources nowhere
    with pytest.raises(build_module.DamagedBuildError) as err:
        loader.ensure_built()
    message = str(err.value)
    assert "build_report.json is missing" in message and "were not found" in message
    assert "`git checkout -- li_adger/data li_adger/.huggingface.yaml`" in message


def test_the_card_quotes_the_bibtex_of_the_benchmark_family():
    """The card's BibTeX block holds exactly the LI-Adger entries of the one bibliography."""
    from li_adger.benchmarks import BENCHMARKS
    from li_adger.benchmarks.spec import BIBLIOGRAPHY, bibtex_entries

    block = CARD.read_text(encoding="utf-8").split("```bibtex\n", 1)[1].split("```", 1)[0]
    card = bibtex_entries(block)
    assert sorted(card) == sorted(BENCHMARKS["li_adger"].citation.keys)
    assert card == {k: bibtex_entries(BIBLIOGRAPHY.read_text(encoding="utf-8"))[k] for k in card}
