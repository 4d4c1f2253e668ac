"""The printed reports pinned: ``report`` (JSON, markdown, text) on every benchmark of the
family and ``reproduce``, on the shipped LI-Adger scores and on stand-in scores of every
other benchmark, hashed and compared with the hashes of the output as it stood before the
report code was reorganised. A change of any byte fails; a deliberate change of a report
updates its hash here and says why (the correlations from ``scipy.stats`` changed the last
digit of some coefficients and p-values, at most 7e-13 relative; the NPI report gained the
paper's MTurk validation as a section after the rest, nothing before it changed).

The printed tables name the thesis's models by their display names,
``metric_adc.thesis.outputs.display_name``, as the README and the app do: ``reproduce
--markdown`` and CoLA's Table 2.2 changed in those names only.

JSON output is hashed with every float written to 10 significant digits: the LI-Adger reports'
JSON, pinned on one machine, hashed differently on another with the same code and data while
every printed table (3 decimals) still matched, as when vectorised sums round their last bits
differently; a pin must hold on any machine. The tables are hashed as printed."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import zlib
from pathlib import Path

import pytest

from li_adger.benchmarks import load_items
from metric_adc import __main__ as cli
from metric_adc.scores.file import write_scores

SHIPPED = Path(__file__).resolve().parents[1] / "space" / "results" / "li_adger"

PINNED = {
    "report {blimp} --json": "e5f885c5a6d458f4259e999d31735b3715f4f3fab1ffa37585ccb6d4d0ba844c",
    "report {blimp} --markdown": "5d6d13f29fee91e9775eb9b2ce229048b366e2a174caba86f546e1bb2a54bdcf",
    "report {blimp}": "abbd2bba03f8077dcba7d97281616443fafb47a34100700539185403654baede",
    "report {npi} --json": "5e4e4f4d005d400f0680417b3a772369695b151d3514f865506534d1a2853c88",
    "report {npi}": "acccb39d184088d941980daac358011d1f31eaca6724b6cdd5f76da9ec84ebd9",
    "report {diagnostics} --json": "885305af7cfbd8caca581bcb9fff467001c3f279dc750e2325c60f1c2e318028",
    "report {diagnostics}": "0c4e76d16401c00b2d6d162bcc29ac92770aaad44558d998311c5b54e0dbf93e",
    "report {cola} --json": "13abbefae49e586fc263584f25464f82afdbe342729719acadc179d1add61c89",
    "report {cola} --markdown": "7d88b15cb2b697a94981b3531c2f017c88cb3cf0da620be07d5b3bd2cdccf993",
    "report {li}/trigram-slor.csv --ceiling-splits 0 --json": "a20b4b84518055df14ce73beed619454f6217938f0793ea5a3b8c1b7f888da40",
    "report {li}/trigram-slor.csv --ceiling-splits 0 --markdown": "5996415d94709229e4113889458f36f6d21a98a765d73c325a779028077c0d61",
    "report {li}/trigram-slor.csv --ceiling-splits 0": "c532a5fcc9d55a18db0f6dcbddefdffef1fa77dd6a8a5f5d6a64d1e90a697e18",
    "report {li}/trigram-slor.csv --ceiling-splits 4 --json": "8c333cee165c12f5e3d9b947b6d80a802586210144ecd26549c4d3171aa0374b",
    "report {li}/minilm-cola-signed-confidence.csv --ceiling-splits 0 --json": "80012d1b4a0c8826be407b8f2053235e9993b2c304d297232daf1ac95f4344a4",
    "report {li}/smollm2-logprob-default.csv --ceiling-splits 0 --json"
    " --baseline {li}/trigram-slor.csv": "9c4ca67d2080c7d5ff0c9d437f95de2d48c808426f9d64ba036441c09e8f1f22",
    "report {li}/smollm2-logprob-default.csv --ceiling-splits 0"
    " --baseline {li}/trigram-slor.csv": "3b55be893552800294ddcf9cb34ca82eb29a4aa69b533a0ffb82b7d68ecdfd22",
    "report {li}/smollm2-logprob-default.csv --ceiling-splits 0 --json"
    " --pairs thesis --delta 0.25 2": "bc30afc42f68511b156ecfbbe80a552669c077dd281117465bcfa1a862d82d76",
    "reproduce --ceiling-splits 0 --json": "9e0d35277a2f426a3e5264f7473fe5b93c8b8b125ecfba8c9bfc760476d777ac",
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


def _rounded(value):
    """``value`` with every float written to 10 significant digits (nested lists and dicts).

    >>> _rounded({"a": [0.1 + 0.2, 1, None], "b": 2.0})
    {'a': [0.3, 1, None], 'b': 2.0}
    """
    if isinstance(value, float):
        return float(f"{value:.10g}")
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


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
    if "--json" in argv:
        text = json.dumps(_rounded(json.loads(text)), indent=2, ensure_ascii=False) + "\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("command", list(PINNED))
def test_the_command_prints_what_it_printed(command, tmp_path):
    assert printed_hash(command, tmp_path) == PINNED[command]
