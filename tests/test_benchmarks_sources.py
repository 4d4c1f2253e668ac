"""The benchmark family's pinned files: every file a reader needs is pinned, verification on load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SHARED_DATA, copy_sources

from li_adger.benchmarks import BENCHMARKS, load_items, load_references
from li_adger.benchmarks.blimp import MODELS_FILE, PARADIGM_FILES
from li_adger.sources import SOURCE_FILES, ChecksumError, SourceNotFoundError, sha256_file


def test_every_file_a_benchmark_reads_is_pinned():
    needed = {f for b in BENCHMARKS.values() for f in (*b.files, *b.reference_files)}
    assert needed <= set(SOURCE_FILES)


def test_blimp_paradigms_are_the_paradigms_of_the_papers_summary():
    uids = {json.loads(line)["UID"] for line in (SHARED_DATA / MODELS_FILE).open()}
    assert len(PARADIGM_FILES) == 67
    assert {Path(p).stem for p in PARADIGM_FILES} == uids - {"overall"}


@pytest.mark.parametrize("name", ["npi", "diagnostics", "cola"])
def test_load_items_reads_a_private_source_copy(tmp_path, name):
    root = copy_sources(BENCHMARKS[name].files, tmp_path / "source")
    assert load_items(name, source=root).benchmark == name


@pytest.mark.parametrize(
    ("name", "relpath"),
    [
        ("npi", "npi/npi_minimal_pairs.tsv"),
        ("diagnostics", "lm-diagnostics/CPRAG-102/CPRAG-102.tsv"),
        ("blimp", "blimp/adjunct_island.jsonl"),
    ],
)
def test_corrupted_copy_raises_checksum_error(tmp_path, name, relpath):
    root = copy_sources(BENCHMARKS[name].files, tmp_path / "source")
    path = root / relpath
    path.write_bytes(path.read_bytes().replace(b"a", b"e", 1))
    with pytest.raises(ChecksumError) as err:
        load_items(name, source=root)
    message = str(err.value)
    assert relpath in message and SOURCE_FILES[relpath].sha256 in message
    assert sha256_file(path) in message


def test_corrupted_reference_file_raises_checksum_error(tmp_path):
    spec = BENCHMARKS["blimp"]
    root = copy_sources(spec.reference_files, tmp_path / "source")
    path = root / "blimp/models_summary.jsonl"
    path.write_bytes(path.read_bytes().replace(b"0.439", b"0.999", 1))
    with pytest.raises(ChecksumError, match="models_summary"):
        load_references("blimp", source=root)


def test_missing_file_in_a_source_folder_names_it(tmp_path):
    with pytest.raises(SourceNotFoundError, match=r"npi/npi_minimal_pairs\.tsv"):
        load_items("npi", source=tmp_path)
