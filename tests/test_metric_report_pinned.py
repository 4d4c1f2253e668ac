"""The printed reports pinned: ``report`` (JSON, markdown, text) on every benchmark of the
family and ``reproduce``, on the shipped LI-Adger scores and on stand-in scores of every
other benchmark, hashed and compared with the hashes of the output as it stood before the
report code was reorganised. A change of any byte fails; a deliberate change of a report
updates its hash here and says why (the correlations from ``scipy.stats`` changed the last
digit of some coefficients and p-values, at most 7e-13 relative; the NPI report gained the
paper's MTurk validation as a section after the rest, nothing before it changed; the printed
tables name the thesis's models by their display names, ``metric_adc.thesis.outputs.display_name``,
as the README and the app do: ``reproduce --markdown`` and CoLA's Table 2.2 changed in those
names only)."""

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

SHIPPED = Path(__file__).resolve().parents[1] / "space" / "results" / "li_adger"

PINNED = {
    "report {blimp} --json": "fe98b0148545d3d7d39c9708a0160fcd10204823bf194aeb3a06d0f410f9335f",
    "report {blimp} --markdown": "5d6d13f29fee91e9775eb9b2ce229048b366e2a174caba86f546e1bb2a54bdcf",
    "report {blimp}": "abbd2bba03f8077dcba7d97281616443fafb47a34100700539185403654baede",
    "report {npi} --json": "a21f6d0664ce6486b4b38f8c6a055164bac7950e260b678be0079fbb555df205",
    "report {npi}": "acccb39d184088d941980daac358011d1f31eaca6724b6cdd5f76da9ec84ebd9",
    "report {diagnostics} --json": "70db2ddc89a47fc7d161a45aba889cfd85719dcc85a304e1b012cfdd7e406e23",
    "report {diagnostics}": "0c4e76d16401c00b2d6d162bcc29ac92770aaad44558d998311c5b54e0dbf93e",
    "report {cola} --json": "356e9e278bbdd44d559fad408e7d8aec87337e98f0cd9dc7d626feffe06c8873",
    "report {cola} --markdown": "7d88b15cb2b697a94981b3531c2f017c88cb3cf0da620be07d5b3bd2cdccf993",
    "report {li}/trigram-slor.csv --ceiling-splits 0 --json": "2266c3680f6c86930acc10eda14d55595424a0e43de2784ec9e0392a96ae6321",
    "report {li}/trigram-slor.csv --ceiling-splits 0 --markdown": "5996415d94709229e4113889458f36f6d21a98a765d73c325a779028077c0d61",
    "report {li}/trigram-slor.csv --ceiling-splits 0": "c532a5fcc9d55a18db0f6dcbddefdffef1fa77dd6a8a5f5d6a64d1e90a697e18",
    "report {li}/trigram-slor.csv --ceiling-splits 4 --json": "5638c8dc1a71b8c22b86964955ba60bd68683124569406e5a62dc77556383ed2",
    "report {li}/minilm-cola-signed-confidence.csv --ceiling-splits 0 --json": "eaa09852f48a47d2fde8d6ae480e7304c95560a6fbc25c7a58a6950f8a2addfa",
    "report {li}/smollm2-logprob-default.csv --ceiling-splits 0 --json"
    " --baseline {li}/trigram-slor.csv": "fc1b2a82da9f4f3bf52c391c0b88064209f188b209c673ead81ab795472f3cc0",
    "report {li}/smollm2-logprob-default.csv --ceiling-splits 0"
    " --baseline {li}/trigram-slor.csv": "3b55be893552800294ddcf9cb34ca82eb29a4aa69b533a0ffb82b7d68ecdfd22",
    "report {li}/smollm2-logprob-default.csv --ceiling-splits 0 --json"
    " --pairs thesis --delta 0.25 2": "db145b9e673bf42be337ebafdc30901771d22dcab2a63f77d530759bc1db4f89",
    "reproduce --ceiling-splits 0 --json": "35e865da65769fa19f1bb4daf215d30beebad1e24f6c5f5a24601af9518767f5",
    "reproduce --ceiling-splits 0 --markdown": "d44376401095bb54e6274584c3272e23c8802dbd208e99657f316d841494007b",
}


def _stand_in(benchmark: str, folder: Path) -> Path:
    """A deterministic stand-in model: each unit's score from its id's CRC-32 (and a cloze
    completion's rank from it too), so every analysis has varied input."""
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


def printed_hash(command: str, folder: Path) -> str:
    """The SHA-256 of what ``python -m metric_adc COMMAND`` prints (``{li}`` the shipped
    LI-Adger scores, ``{name}`` a stand-in scores file of benchmark ``name``)."""
    names = {"li": str(SHIPPED)}
    for name in ("blimp", "npi", "diagnostics", "cola"):
        if "{" + name + "}" in command:
            names[name] = str(_stand_in(name, folder))
    argv = command.format(**names).split()
    if argv[0] == "report":
        argv += ["--n-resamples", "200"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(argv) == 0
    # the folders are the checkout's and the test's: what is pinned is the output around them
    text = out.getvalue().replace(str(SHIPPED), "{li}").replace(str(folder), "{tmp}")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("command", list(PINNED))
def test_the_command_prints_what_it_printed(command, tmp_path):
    assert printed_hash(command, tmp_path) == PINNED[command]
