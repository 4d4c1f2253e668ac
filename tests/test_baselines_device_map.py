"""--device-map auto (baselines/device_map.py): a tiny causal LM spread over the CPU and disk
offload scores as the plain load does."""

from __future__ import annotations

import json

import pytest
from baselines_tiny import WORDS, save_tiny_causal_lm

from baselines.__main__ import main
from baselines.device_map import parse_max_memory
from baselines.spec import build_scorer

SENTENCES = [" ".join(WORDS[(k * j) % 20] for j in range(3 + k % 9)) for k in range(24)]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return save_tiny_causal_lm(tmp_path_factory.mktemp("tiny") / "llama", "llama")


def test_max_memory_is_read_from_pairs_or_json():
    assert parse_max_memory("0=20GiB, 1=20GiB ,cpu=64GiB") == {
        0: "20GiB",
        1: "20GiB",
        "cpu": "64GiB",
    }
    assert parse_max_memory('{"0": "10GB", "cpu": 1000}') == {0: "10GB", "cpu": 1000}
    assert parse_max_memory("cpu=1000") == {"cpu": 1000}
    for bad, message in [
        ("cpu", "'cpu' is not DEVICE=SIZE"),
        ("gpu0=1GB", "'gpu0' is not a device"),
        ("cpu=-3", "'-3' for 'cpu' is not a size"),
        ("[1]", "not DEVICE=SIZE"),
        ("{", "not a JSON object"),
        ("", "give at least one DEVICE=SIZE"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_max_memory(bad)


def test_a_model_spread_over_cpu_and_disk_scores_as_the_plain_load(tiny, tmp_path):
    plain = build_scorer(str(tiny), device="cpu")
    offload = tmp_path / "offload"
    mapped = build_scorer(
        str(tiny), device_map="auto", max_memory={"cpu": "60KB"}, offload_folder=str(offload)
    )
    placed = set(mapped.model.hf_device_map.values())
    assert placed == {"cpu", "disk"}, mapped.model.hf_device_map
    # the layers on disk are not in memory: accelerate reads them in as each one runs
    assert mapped.model.lm_head.weight.device.type == "meta"
    assert mapped.metadata()["device"] == "cpu+disk"
    assert mapped.score(SENTENCES) == pytest.approx(plain.score(SENTENCES), abs=1e-5)
    cloze = (["the keys to the"], ["cabinet"])
    a, b = plain.score_cloze(*cloze)[0], mapped.score_cloze(*cloze)[0]
    assert (b["rank"], b["top"]) == (a["rank"], a["top"])
    assert b["score"] == pytest.approx(a["score"], abs=1e-5)


def test_the_command_line_writes_the_same_scores_with_a_device_map(tiny, tmp_path):
    data = tmp_path / "s.csv"
    data.write_text("id,sentence\n" + "\n".join(f"s{k},{s}" for k, s in enumerate(SENTENCES)))
    base = ["score", "--model", str(tiny), "--dataset", str(data), "--quiet"]
    plain, mapped = tmp_path / "plain.jsonl", tmp_path / "mapped.jsonl"
    assert main([*base, "--device", "cpu", "--out", str(plain)]) == 0
    argv = ["--device-map", "auto", "--max-memory", "cpu=60KB", "--out", str(mapped)]
    assert main([*base, *argv, "--offload-folder", str(tmp_path / "off")]) == 0
    rows = [[json.loads(x) for x in p.read_text().splitlines()] for p in (plain, mapped)]
    assert rows[1][0]["device"] == "cpu+disk"
    assert [r["id"] for r in rows[1][1:]] == [r["id"] for r in rows[0][1:]]
    for a, b in zip(rows[0][1:], rows[1][1:], strict=True):
        assert b["score"] == pytest.approx(a["score"], abs=1e-5)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--model", "trigram", "--device-map", "auto"], "device_map does not apply to kind 'ngram'"),
        (["--model", "TINY", "--engine", "vllm", "--device-map", "auto"],
         "device_map does not apply to engine 'vllm'"),
        (["--model", "TINY", "--max-memory", "cpu=1GB"],
         "max_memory and offload_folder apply with device_map='auto' only"),
    ],
)  # fmt: skip
def test_a_device_map_is_refused_by_name_where_it_does_not_apply(
    argv, message, tiny, tmp_path, capsys
):
    argv = [str(tiny) if a == "TINY" else a for a in argv]
    assert main(["score", *argv, "--out", str(tmp_path / "x.jsonl"), "--limit", "2"]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()
