"""The thesis outputs go through the pinned-source lookup: explicit folder, ``$LI_ADGER_SOURCE``,
``../shared/data``, the cache and a download; every file is checked against its SHA-256."""

from __future__ import annotations

import functools
import http.server
import threading
import time
from pathlib import Path

import pytest
from conftest import SHARED_DATA, copy_sources

from li_adger import sources
from li_adger.sources import (
    SOURCE_FILES,
    THESIS_OUTPUT_FILES,
    ChecksumError,
    SourceNotFoundError,
    sha256_file,
)
from metric_adc.thesis import outputs as thesis
from metric_adc.thesis.models import reproduce_rows

SHARED = SHARED_DATA
FILES = [*THESIS_OUTPUT_FILES, thesis.JUDGEMENTS]
PAIR_FILE = f"thesis-outputs/{thesis.PAIRS_FILE}"


@pytest.fixture
def thesis_copy(tmp_path) -> Path:
    """A private copy of the thesis files in the layout of shared/data, safe to modify."""
    return copy_sources(FILES, tmp_path / "source")


@pytest.fixture
def nowhere(tmp_path, monkeypatch):
    """No local copy anywhere, an empty cache, and a mirror URL nothing listens on."""
    for var in ("ADC_THESIS_OUTPUTS", "LI_ADGER_SOURCE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(sources, "default_search_dirs", lambda: [])
    monkeypatch.setenv("LI_ADGER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("LI_ADGER_UPSTREAM_BASE", "http://127.0.0.1:9/")
    return tmp_path / "cache" / "sources"


def test_thesis_files_are_pinned_with_the_shared_checksums():
    sums = dict(
        reversed(line.split(maxsplit=1))
        for line in (SHARED / "SHA256SUMS").read_text().splitlines()
    )
    for rel in THESIS_OUTPUT_FILES:
        spec = SOURCE_FILES[rel]
        assert spec.sha256 == sums[f"./{rel}"] == sha256_file(SHARED / rel)
        assert spec.url.endswith(f"/output/{Path(rel).name}")


def test_default_lookup_finds_the_shared_copies(monkeypatch):
    monkeypatch.delenv("ADC_THESIS_OUTPUTS", raising=False)
    monkeypatch.delenv("LI_ADGER_SOURCE", raising=False)
    paths = thesis.locate(download=False)
    assert sorted(paths) == sorted(FILES)
    assert all(p.parent.parent.resolve() == SHARED.resolve() for p in paths.values())


@pytest.mark.parametrize("how", ["argument", "ADC_THESIS_OUTPUTS", "LI_ADGER_SOURCE"])
def test_a_corrupted_thesis_file_is_a_checksum_error(thesis_copy, monkeypatch, how):
    path = thesis_copy / "thesis-outputs" / thesis.SENTENCE_FILES["acc"]
    path.write_bytes(path.read_bytes().replace(b"0.", b"1.", 1))
    folder = thesis_copy / "thesis-outputs"
    if how == "ADC_THESIS_OUTPUTS":
        monkeypatch.setenv("ADC_THESIS_OUTPUTS", str(folder))
    elif how == "LI_ADGER_SOURCE":
        monkeypatch.setenv("LI_ADGER_SOURCE", str(thesis_copy))
    with pytest.raises(ChecksumError) as err:
        thesis.load_thesis_models(folder if how == "argument" else None)
    message = str(err.value)
    rel = f"thesis-outputs/{thesis.SENTENCE_FILES['acc']}"
    assert rel in message and str(path) in message
    assert SOURCE_FILES[rel].sha256 in message and sha256_file(path) in message


def test_an_explicit_folder_reads_its_judgements_beside_it(thesis_copy):
    judgements = thesis_copy / thesis.JUDGEMENTS
    judgements.write_bytes(judgements.read_bytes() + b"\n")
    with pytest.raises(ChecksumError, match="human_ME_results"):
        thesis.load_thesis_pairs(thesis_copy / "thesis-outputs")
    # without a judgements file beside it, the judgements come from the lookup order
    judgements.unlink()
    paths = thesis.locate(thesis_copy / "thesis-outputs")
    assert paths[thesis.JUDGEMENTS].parent.parent.resolve() == SHARED.resolve()
    assert paths[PAIR_FILE] == thesis_copy / PAIR_FILE


def test_an_explicit_folder_gives_the_same_rows_as_the_lookup(thesis_copy):
    mine = reproduce_rows(thesis_copy / "thesis-outputs", deltas=[1.0])
    assert mine == reproduce_rows(deltas=[1.0])


def test_missing_without_network_fails_fast_and_names_the_file(nowhere):
    start = time.perf_counter()
    with pytest.raises(SourceNotFoundError) as err:
        thesis.load_thesis_models()
    assert time.perf_counter() - start < 5
    assert PAIR_FILE in str(err.value) and "127.0.0.1:9" in str(err.value)
    with pytest.raises(SourceNotFoundError, match="not found"):
        thesis.locate(download=False)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_download_into_the_cache(nowhere, thesis_copy, monkeypatch):
    handler = functools.partial(_QuietHandler, directory=str(thesis_copy))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv(
            "LI_ADGER_UPSTREAM_BASE", f"http://127.0.0.1:{server.server_address[1]}/"
        )
        models = thesis.load_thesis_models(timeout=10)
    finally:
        server.shutdown()
        server.server_close()
    assert [m.name for m in models] == list(thesis.MODELS)
    assert sorted(p.relative_to(nowhere).as_posix() for p in nowhere.rglob("*.csv")) == sorted(
        FILES
    )
    assert thesis.default_dir() == nowhere / "thesis-outputs"


def test_the_space_shows_them_without_the_files(nowhere, tmp_path, monkeypatch):
    """The app's thesis rows come from the z-scores it ships, never from this lookup; without
    those, one line names the command that makes them."""
    from space.data.dataset import load_li_adger
    from space.data.loaders import load_thesis_entries

    def no_lookup(*args, **kwargs):
        raise AssertionError("the app looked the thesis outputs up")

    monkeypatch.setattr(sources, "find_sources", no_lookup)
    entries, why = load_thesis_entries(load_li_adger().pairs)
    assert len(entries) == 8 and why is None
    entries, why = load_thesis_entries(None, tmp_path)
    assert entries == [] and "`python -m space snapshot` adds them" in why
