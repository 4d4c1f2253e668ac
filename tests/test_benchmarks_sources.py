"""The benchmark family's pinned files: checksums, upstream places, verification on load."""

from __future__ import annotations

import pytest
from conftest import SHARED_DATA, copy_sources

from li_adger.benchmarks import BENCHMARKS, load_items, load_references
from li_adger.sources import SOURCE_FILES, ChecksumError, SourceNotFoundError, sha256_file


def _shared_sums() -> dict[str, str]:
    sums = {}
    for line in (SHARED_DATA / "SHA256SUMS").read_text().splitlines():
        digest, path = line.split()
        sums[path.removeprefix("./")] = digest
    return sums


def test_every_benchmark_file_is_pinned_with_the_shared_checksum():
    sums = _shared_sums()
    needed = {f for b in BENCHMARKS.values() for f in (*b.files, *b.reference_files)}
    assert needed <= set(SOURCE_FILES)
    for rel in needed:
        assert SOURCE_FILES[rel].sha256 == sums[rel], rel


def test_blimp_has_67_pinned_paradigms_and_its_summaries():
    blimp = {p for p in SOURCE_FILES if p.startswith("blimp/")}
    assert len(blimp) == 69
    human = SOURCE_FILES["blimp/human_validation_summary.csv"]
    assert human.upstream_path == "raw_results/summary/human_validation_summary.csv"
    assert SOURCE_FILES["blimp/models_summary.jsonl"].upstream_path == (
        "raw_results/summary/models_summary.jsonl"
    )
    assert SOURCE_FILES["blimp/wh_island.jsonl"].upstream_path == "data/wh_island.jsonl"
    assert {SOURCE_FILES[p].commit for p in blimp} == {"3e56b06fcabca9b30822fc66435fca6b1aa40bb1"}
    assert {SOURCE_FILES[p].repo for p in blimp} == {"alexwarstadt/blimp"}


@pytest.mark.parametrize(
    ("relpath", "repo", "commit", "upstream"),
    [
        (
            "npi/npi_minimal_pairs.tsv",
            "alexwarstadt/data_generation",
            "0fbddc5532f72575484c90d915b885d892eded4b",
            "outputs/npi/environments/npi_minimal_pairs.tsv",
        ),
        (
            "lm-diagnostics/ROLE-88/ROLE-88.tsv",
            "aetting/lm-diagnostics",
            "080de8d8b29a3d6f5fe133af73d7e9170f4d4c0c",
            "datasets/ROLE-88/ROLE-88.tsv",
        ),
        (
            "lm-diagnostics/NEG-136/NEG-136-NAT.tsv",
            "aetting/lm-diagnostics",
            "080de8d8b29a3d6f5fe133af73d7e9170f4d4c0c",
            "datasets/NEG-136/NEG-136-NAT.tsv",
        ),
    ],
)
def test_upstream_places(relpath, repo, commit, upstream):
    spec = SOURCE_FILES[relpath]
    assert (spec.repo, spec.commit, spec.upstream_path) == (repo, commit, upstream)
    assert spec.url == f"https://raw.githubusercontent.com/{repo}/{commit}/{upstream}"


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
