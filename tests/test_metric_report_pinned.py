"""The printed reports pinned: ``report`` (JSON, markdown, text) on every benchmark of the
family and ``reproduce``, on the shipped LI-Adger scores and on stand-in scores of every
other benchmark, hashed and compared with the hashes of the output as it stood before the
report code was reorganised. A change of any byte fails; a deliberate change of a report
updates its hash here and says why."""

from __future__ import annotations

import contextlib
import hashlib
import io
import zlib
from pathlib import Path

import pytest

from li_adger.benchmarks import load_items
from metric_adc import __main__ as cli
from metric_adc.scores.file import write_scores

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "space" / "results" / "li_adger"


def _printed(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(list(argv)) == 0
    return hashlib.sha256(out.getvalue().encode("utf-8")).hexdigest()


def _stand_in(benchmark: str, folder: Path) -> Path:
    """A deterministic stand-in model: each unit's score from its id's CRC-32 (and a cloze
    completion's rank from it too), so every analysis has ties-free, varied input."""
    units = load_items(benchmark).units
    records = []
    for i in units["id"]:
        h = zlib.crc32(str(i).encode("utf-8"))
        record = {"id": i, "score": -(h % 100_003) / 1000.0}
        if "completion" in units:
            record["rank"] = 1 + h % 7
        records.append(record)
    meta = {"model": "crc", "kind": "ngram", "variant": "logprob", "dataset": benchmark}
    return write_scores(folder / f"{benchmark}.jsonl", records, meta)


FAMILY = {
    ("blimp", "--json"): "fe98b0148545d3d7d39c9708a0160fcd10204823bf194aeb3a06d0f410f9335f",
    ("blimp", "--markdown"): "5d6d13f29fee91e9775eb9b2ce229048b366e2a174caba86f546e1bb2a54bdcf",
    ("blimp", "text"): "abbd2bba03f8077dcba7d97281616443fafb47a34100700539185403654baede",
    ("npi", "--json"): "a21f6d0664ce6486b4b38f8c6a055164bac7950e260b678be0079fbb555df205",
    ("npi", "text"): "ac0d701f7c884604ccd793697f7ecd7004172f83479d0671e0464becc56f985a",
    ("diagnostics", "--json"): "70db2ddc89a47fc7d161a45aba889cfd85719dcc85a304e1b012cfdd7e406e23",
    ("diagnostics", "text"): "0c4e76d16401c00b2d6d162bcc29ac92770aaad44558d998311c5b54e0dbf93e",
    ("cola", "--json"): "356e9e278bbdd44d559fad408e7d8aec87337e98f0cd9dc7d626feffe06c8873",
    ("cola", "--markdown"): "6e00e61eab5eee1d29eb788db0aad36c16c3fd77f1ab47cb742d4e6ae8851da5",
}


@pytest.mark.parametrize(("benchmark", "output"), list(FAMILY))
def test_report_on_a_benchmark_prints_what_it_printed(benchmark, output, tmp_path):
    path = _stand_in(benchmark, tmp_path)
    flags = [] if output == "text" else [output]
    assert (
        _printed("report", str(path), "--n-resamples", "200", *flags) == FAMILY[(benchmark, output)]
    )


LI_ADGER = {
    (
        "trigram-slor.csv",
        "--json",
        (),
    ): "ab167e5ed151e13bf9089d1fc12893d1089631731ae395c26c1c42b13cded81e",
    (
        "trigram-slor.csv",
        "--markdown",
        (),
    ): "5996415d94709229e4113889458f36f6d21a98a765d73c325a779028077c0d61",
    (
        "trigram-slor.csv",
        "text",
        (),
    ): "c532a5fcc9d55a18db0f6dcbddefdffef1fa77dd6a8a5f5d6a64d1e90a697e18",
    (
        "minilm-cola-signed-confidence.csv",
        "--json",
        (),
    ): "0b18b57633f75591e89d0a39d527be7b255bed383bd0050b67289f6abb93c08d",
    (
        "smollm2-logprob-default.csv",
        "--json",
        ("--baseline", "trigram-slor.csv"),
    ): "2bc416d4b9d148b59f36545f747c2376ac145064205ca2d9515a69bd911100d6",
    (
        "smollm2-logprob-default.csv",
        "text",
        ("--baseline", "trigram-slor.csv"),
    ): "d80a1f930d09c310345b7ccbdfc6e756ee3c6a923469e41fff2312ff93adf1e3",
    (
        "smollm2-logprob-default.csv",
        "--json",
        ("--pairs", "thesis", "--delta", "0.25", "2"),
    ): "80dd0f59bd05f21d7eb8ac321e2a782ebb6a97d0ba4211bf5577e2e36c16ff5e",
    (
        "trigram-slor.csv",
        "--json",
        ("--ceiling-splits", "4"),
    ): "e21a9122c2d51a2bf419b5f2a97cad880e800ccf20bb27a6e426a8ded09fd8c0",
}


@pytest.mark.parametrize(("scores", "output", "options"), list(LI_ADGER))
def test_report_on_li_adger_prints_what_it_printed(scores, output, options):
    flags = [] if output == "text" else [output]
    given = [str(SHIPPED / o) if o.endswith(".csv") else o for o in options]
    splits = [] if "--ceiling-splits" in options else ["--ceiling-splits", "0"]
    argv = ["report", str(SHIPPED / scores), "--n-resamples", "200", *splits, *flags, *given]
    assert _printed(*argv) == LI_ADGER[(scores, output, options)]


@pytest.mark.parametrize("output", ["--json", "--markdown"])
def test_reproduce_prints_what_it_printed(output):
    assert _printed("reproduce", "--ceiling-splits", "0", output) == REPRODUCE[output]


REPRODUCE = {
    "--json": "e3928a81134fd01030a464113f9812c4ac384df57d36a8c300fbbb07fba0ba11",
    "--markdown": "92f4bf4f2269ee19108f8b32822498ff9bb0bb85f06af4c72ded932c4181bb3d",
}
