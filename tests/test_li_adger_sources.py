"""Source lookup, checksum verification and the download path (local HTTP server only)."""

from __future__ import annotations

import functools
import http.server
import threading

import pytest

from li_adger.sources import (
    BUILD_FILES,
    SOURCE_FILES,
    ChecksumError,
    SourceNotFoundError,
    find_sources,
    sha256_file,
)

PAIRS = "li-adger/li-adger_min_pairs.csv"


def test_pinned_hashes_match_the_shared_copies():
    paths = find_sources(BUILD_FILES)
    for rel, path in paths.items():
        assert sha256_file(path) == SOURCE_FILES[rel].sha256


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
