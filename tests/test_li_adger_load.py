"""Loading: the card's example verbatim, the card's YAML, and no stale data after a rebuild."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
import yaml

import li_adger
from li_adger import builder as build_module
from li_adger.schema import CONFIGS, SCHEMAS, hf_features_yaml

REPO = Path(__file__).resolve().parents[1]
CARD = REPO / "li_adger" / "README.md"


def _card_yaml() -> dict:
    text = CARD.read_text(encoding="utf-8")
    match = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    assert match, "the card must start with a YAML block"
    return yaml.safe_load(match.group(1))


def test_card_example_runs_verbatim(monkeypatch):
    text = CARD.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    expected = re.search(r"Output:\n\n```text\n(.*?)```", text, re.S).group(1)
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
