"""The registry of pinned files, source lookup, checksum verification and the download path
(local HTTP server only)."""

from __future__ import annotations

import functools
import hashlib
import http.server
import re
import threading
from typing import ClassVar

import pytest
from conftest import SHARED_DATA

from li_adger.sources import (
    BUILD_FILES,
    REGISTRY,
    SOURCE_FILES,
    ChecksumError,
    SourceNotFoundError,
    cache_root,
    find_sources,
    read_registry,
    sha256_file,
)

PAIRS = "li-adger/li-adger_min_pairs.csv"


def _shared_sums() -> dict[str, str]:
    """``SHA256SUMS`` of the shared data: relative path → hex digest."""
    sums = {}
    for line in (SHARED_DATA / "SHA256SUMS").read_text().splitlines():
        digest, path = line.split(maxsplit=1)
        sums[path.removeprefix("./")] = digest
    return sums


def test_every_pin_is_the_shared_checksum_and_the_files_real_hash():
    sums = _shared_sums()
    assert len(SOURCE_FILES) == 131
    for rel, spec in SOURCE_FILES.items():
        real = hashlib.sha256((SHARED_DATA / rel).read_bytes()).hexdigest()
        assert spec.sha256 == sums[rel] == real, rel


def _upstream_places() -> dict[str, tuple[str, str]]:
    """Top folder of shared/data → (repo, commit), as SOURCES.md states them."""
    places: dict[str, tuple[str, str]] = {}
    last = None
    for section in re.split(r"^## ", (SHARED_DATA / "SOURCES.md").read_text(), flags=re.M)[1:]:
        folder = section.split("/", 1)[0]
        found = re.search(r"Repo `([^`]+)`,(?: branch `[^`]+`,)? commit `([0-9a-f]{40})`", section)
        if found is None and section.split("\n", 1)[1].lstrip().startswith("Same repo and commit"):
            places[folder] = last
        elif found is not None:
            places[folder] = last = (found[1], found[2])
    return places


def test_every_pin_downloads_from_its_repository_at_the_commit_sources_md_names():
    places = _upstream_places()
    text = (SHARED_DATA / "SOURCES.md").read_text()
    # two files SOURCES.md places apart from their folder: CoLA's analysis-set annotations come
    # from the thesis's repository, the Wilcox sentences from another commit of the NPI one
    wilcox = re.search(r"wilcox_sentences\.tsv`.*?at commit `([0-9a-f]{40})`", text, re.S)[1]
    apart = {
        "npi/wilcox_sentences.tsv": (places["npi"][0], wilcox, "environment=wilcox_sentences.tsv")
    }
    for kind in ("major", "minor"):
        name = f"CoLA_grammatical_annotations_{kind}_features.tsv"
        apart[f"cola/{name}"] = (*places["li-adger"], f"data/CoLA/{name}")
    for rel, spec in SOURCE_FILES.items():
        folder, inner = rel.split("/", 1)
        repo, commit = places[folder]
        if rel in apart:
            repo, commit, inner = apart[rel]
        assert spec.url.startswith(f"https://raw.githubusercontent.com/{repo}/{commit}/"), rel
        assert spec.url.endswith(f"/{inner}"), rel


def test_the_registry_is_read_as_pooch_reads_it(tmp_path):
    import pooch

    pup = pooch.create(path=tmp_path, base_url="")
    pup.load_registry(REGISTRY)
    assert {r: (s.sha256, s.url) for r, s in SOURCE_FILES.items()} == {
        r: (h, pup.urls[r]) for r, h in pup.registry.items()
    }


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("a.csv " + "0" * 64, "no URL"),
        ("a.csv " + "0" * 63 + " https://h/a.csv", "'" + "0" * 63 + "'"),
        ("a.csv md5:" + "0" * 32 + " https://h/a.csv", "'md5:"),
    ],
)
def test_a_registry_line_without_a_sha256_and_a_url_is_refused(tmp_path, line, why):
    path = tmp_path / "registry.txt"
    path.write_text(f"# pins\n{line}\n")
    with pytest.raises(ValueError, match=r"'a\.csv' must have a SHA-256") as err:
        read_registry(path)
    assert str(path) in str(err.value) and why in str(err.value)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, ".cache/li_adger"),
        ({"LI_ADGER_CACHE": "~/elsewhere"}, "elsewhere"),
        ({"LI_ADGER_CACHE": ""}, ".cache/li_adger"),
    ],
)
def test_one_user_cache_for_sources_and_models(environ, expected, monkeypatch):
    from pathlib import Path

    from baselines.models.cache import models_dir

    monkeypatch.setenv("HOME", "/home/someone")
    monkeypatch.delenv("LI_ADGER_CACHE", raising=False)
    assert cache_root(environ) == Path("/home/someone") / expected
    assert models_dir(environ) == Path("/home/someone") / expected / "models"
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    from li_adger.sources import cache_dir

    assert cache_dir() == Path("/home/someone") / expected / "sources"


def test_corrupted_source_raises_checksum_error(source_copy):
    path = source_copy / PAIRS
    path.write_bytes(path.read_bytes().replace(b"Kerry", b"Kelly", 1))
    with pytest.raises(ChecksumError) as err:
        find_sources(source=source_copy)
    message = str(err.value)
    assert PAIRS in message and str(path) in message
    assert SOURCE_FILES[PAIRS].sha256 in message and sha256_file(path) in message


def test_corrupted_source_fails_the_build(source_copy, tmp_path):
    import li_adger

    path = source_copy / "sprouse2013/LI.conditions.csv"
    path.write_bytes(path.read_bytes() + b"\r")
    with pytest.raises(ChecksumError, match=r"LI\.conditions\.csv"):
        li_adger.build(source_copy, data_dir=tmp_path / "li_adger" / "data")
    assert not (tmp_path / "li_adger").exists()  # nothing written


def test_missing_file_names_the_places_searched(tmp_path):
    with pytest.raises(SourceNotFoundError) as err:
        find_sources([PAIRS], source=tmp_path)
    assert str(tmp_path / PAIRS) in str(err.value) and SOURCE_FILES[PAIRS].sha256 in str(err.value)


def test_environment_variable_is_an_explicit_source(source_copy, monkeypatch):
    monkeypatch.setenv("LI_ADGER_SOURCE", str(source_copy))
    assert find_sources([PAIRS])[PAIRS] == source_copy / PAIRS


def test_unverified_only_for_explicit_sources(source_copy):
    (source_copy / PAIRS).write_text("changed")
    assert find_sources([PAIRS], source=source_copy, verify=False)[PAIRS].read_text() == "changed"
    with pytest.raises(ValueError, match="only allowed for an explicit source"):
        find_sources([PAIRS], verify=False)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def mirror(source_copy):
    """A local HTTP server on 127.0.0.1 serving a copy of the source files: (base URL, root)."""
    handler = functools.partial(_QuietHandler, directory=str(source_copy))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", source_copy
    finally:
        server.shutdown()
        server.server_close()


def test_download_from_mirror_into_cache(mirror, tmp_path):
    url, _ = mirror
    cache = tmp_path / "cache"
    paths = find_sources(search_dirs=(), cache=cache, upstream_base=url)
    assert sorted(paths) == sorted(BUILD_FILES)
    for rel, path in paths.items():
        assert path == cache / rel and sha256_file(path) == SOURCE_FILES[rel].sha256
    assert not [p for p in cache.rglob(".*") if p.is_file()]  # no partial downloads left
    # a second lookup is served by the cache (the base URL now points nowhere)
    again = find_sources(search_dirs=(), cache=cache, upstream_base="http://127.0.0.1:9/")
    assert again == paths


def test_build_through_download(mirror, tmp_path, monkeypatch):
    import li_adger
    from li_adger.builder import build as builder

    url, _ = mirror
    monkeypatch.setenv("LI_ADGER_UPSTREAM_BASE", url)
    monkeypatch.setenv("LI_ADGER_CACHE", str(tmp_path / "cache"))
    lines = []
    data_dir = li_adger.build(
        search_dirs=(), data_dir=tmp_path / "li_adger" / "data", echo=lines.append
    )
    report = builder.read_report(data_dir)
    assert report["summary"]["total"]["sentences"] == 4178
    assert all(src["verified"] for src in report["sources"])
    cache = str(tmp_path / "cache" / "sources")
    assert lines[0] == "sources: " + ", ".join(f"{cache}/{rel}" for rel in BUILD_FILES)


def test_corrupted_download_is_rejected(mirror, tmp_path):
    url, root = mirror
    (root / PAIRS).write_bytes((root / PAIRS).read_bytes()[:-10])
    with pytest.raises(ChecksumError) as err:
        find_sources([PAIRS], search_dirs=(), cache=tmp_path / "cache", upstream_base=url)
    assert f"{url}{PAIRS}" in str(err.value) and SOURCE_FILES[PAIRS].sha256 in str(err.value)
    assert not (tmp_path / "cache" / PAIRS).exists()


def test_failed_download_names_every_place(mirror, tmp_path):
    url, root = mirror
    (root / PAIRS).unlink()
    somewhere = tmp_path / "somewhere"
    with pytest.raises(SourceNotFoundError) as err:
        find_sources([PAIRS], search_dirs=[somewhere], cache=tmp_path / "cache", upstream_base=url)
    message = str(err.value)
    for place in (somewhere / PAIRS, tmp_path / "cache" / PAIRS, f"{url}{PAIRS}"):
        assert str(place) in message
    assert "404" in message


class _FlakyHandler(_QuietHandler):
    """Answers 503 to the first request for each path, then serves the file."""

    failed: ClassVar[set[str]] = set()

    def do_GET(self):
        if self.path not in self.failed:
            self.failed.add(self.path)
            self.send_error(503, "busy")
            return
        super().do_GET()


def test_a_failed_download_is_tried_again(source_copy, tmp_path):
    from li_adger.io.atomic import file_mode

    handler = functools.partial(_FlakyHandler, directory=str(source_copy))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    where = {"search_dirs": (), "upstream_base": url}
    try:
        _FlakyHandler.failed.clear()
        with pytest.raises(SourceNotFoundError, match="503"):
            find_sources([PAIRS], cache=tmp_path / "c0", retries=0, **where)
        _FlakyHandler.failed.clear()
        path = find_sources([PAIRS], cache=tmp_path / "c1", retries=1, **where)[PAIRS]
    finally:
        server.shutdown()
        server.server_close()
    assert path.read_bytes() == (source_copy / PAIRS).read_bytes()
    assert path.stat().st_mode & 0o777 == file_mode()
