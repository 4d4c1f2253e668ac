"""The NPI paper's sentence files over the real pinned files, and their readers' errors."""

from __future__ import annotations

from collections import Counter

import pytest

from li_adger.benchmarks.npi import ENVIRONMENTS
from li_adger.benchmarks.npi_sets import (
    ALL_ENV_SPLITS,
    WILCOX_FILE,
    acceptable,
    all_env_file,
    probing_file,
    probing_files,
    read_all_env,
    read_probing,
    read_wilcox,
)
from li_adger.benchmarks.tsv import SourceFormatError
from li_adger.sources import find_sources


@pytest.fixture(scope="module")
def paths():
    return find_sources([*probing_files(), *map(all_env_file, ALL_ENV_SPLITS), WILCOX_FILE])


def _raw_labels(path):
    return [line.split("\t")[1] for line in path.read_text(encoding="utf-8").splitlines()]


def test_rule_equals_all_18000_dev_and_test_labels(paths):
    checked = 0
    for split in ALL_ENV_SPLITS:
        rows = read_all_env(paths, split)
        raw = _raw_labels(paths[all_env_file(split)])
        assert len(rows) == len(raw) == 9000
        for row, label in zip(rows, raw, strict=True):
            assert acceptable(row.npi_present, row.licensor, row.scope) == int(label), row.id
            checked += 1
        assert Counter(r.environment for r in rows) == {e: 1000 for e in ENVIRONMENTS}
    assert checked == 18000


def test_rule_equals_the_wilcox_labels(paths):
    rows = read_wilcox(paths)
    raw = _raw_labels(paths[WILCOX_FILE])
    assert len(rows) == 104
    assert [r.acceptable for r in rows] == [int(x) for x in raw]


def test_probing_files_sizes_and_scope_labels(paths):
    sizes = {"train": 10000, "dev": 1000, "test": 1000}
    for env in ENVIRONMENTS:
        for split, n in sizes.items():
            rows = read_probing(paths, env, split)
            raw = _raw_labels(paths[probing_file(env, split)])
            assert len(rows) == n
            assert [r.scope for r in rows] == [int(x) for x in raw]
            assert {r.environment for r in rows} == {env}


def test_probing_and_all_env_hold_the_same_test_sentences(paths):
    all_env = {
        (r.environment, r.sentence, r.licensor, r.npi_present, r.scope)
        for r in read_all_env(paths, "test")
    }
    probing = {
        (r.environment, r.sentence, r.licensor, r.npi_present, r.scope)
        for env in ENVIRONMENTS
        for r in read_probing(paths, env, "test")
    }
    assert probing == all_env


_GOOD = "experiment=NPI-env=only-npi=any-crucial_item=only-licensor=1-scope=1-npi_present=1-paradigm=3\t1\t\tOnly X saw any Y.\n"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (_GOOD.replace("\t1\t", "\t0\t"), "field 'label' is 0 but the metadata's scope is 1"),
        (_GOOD.replace("scope=1", "scope=2"), "field 'scope' of the metadata must be 0 or 1"),
        (_GOOD.replace("env=only", "env=adverbs"), "field 'env' must be 'only'"),
        (_GOOD.replace("experiment=NPI-", "x="), "field 'metadata' must start with"),
        (_GOOD.replace("-paradigm=3", "-paradigm"), "expected name=value"),
        (_GOOD.replace("\t\t", "\t"), "expected 4 tab-separated fields"),
    ],
)
def test_a_bad_row_names_file_line_and_field(tmp_path, line, message):
    path = tmp_path / "dev.tsv"
    _second_line_refused(
        path,
        _GOOD + line,
        message,
        lambda: read_probing({probing_file("only", "dev"): path}, "only", "dev"),
    )


def _second_line_refused(path, text, message, read) -> None:
    """``read()`` of ``path`` holding ``text`` fails on its line 2, with ``message``."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceFormatError) as err:
        read()
    assert f"{path}:2:" in str(err.value)
    assert message in str(err.value)


_ALL_ENV = "experiment=NPI-env=conditional-npi=any-crucial_item=if-licensor=0-scope=1-npi_present=1-paradigm=4\t0\t\tX saw any Y.\n"
_WILCOX = "experiment=NPI-env=negation-npi=ever-distractor=0-licensor=1-scope=1-npi_present=1-paradigm=0\t1\t\tNo X has ever seen Y.\n"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            _ALL_ENV.replace("\t0\t", "\t1\t"),
            "field 'label' is 1 but the metadata's acceptable is 0",
        ),
        (_ALL_ENV.replace("env=conditional", "env=negation"), "field 'env' is not one of"),
        (_ALL_ENV.replace("licensor=0", "licensor=x"), "field 'licensor' of the metadata must be"),
        (_ALL_ENV.replace("\t0\t", "\t2\t"), "field 'label' must be 0 or 1 (got '2')"),
        (_ALL_ENV.replace("-npi=any", ""), "the metadata lacks 'npi' or 'paradigm'"),
    ],
)
def test_a_bad_all_environments_row_names_file_line_and_field(tmp_path, line, message):
    path = tmp_path / "test.tsv"
    path.write_text(_ALL_ENV, encoding="utf-8")  # the good row alone reads
    assert [r.environment for r in read_all_env({all_env_file("test"): path}, "test")] == [
        "conditionals"
    ]
    _second_line_refused(
        path, _ALL_ENV + line, message, lambda: read_all_env({all_env_file("test"): path}, "test")
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            _WILCOX.replace("\t1\t", "\t0\t"),
            "field 'label' is 0 but the metadata's acceptable is 1",
        ),
        (_WILCOX.replace("env=negation", "env=only"), "field 'env' must be 'wilcox' here"),
        (_WILCOX.replace("distractor=0", "distractor=2"), "field 'distractor' of the metadata"),
        (_WILCOX.replace("\t\tNo", "\tx\tNo"), "expected an empty third field and a sentence"),
    ],
)
def test_a_bad_wilcox_row_names_file_line_and_field(tmp_path, line, message):
    path = tmp_path / "wilcox.tsv"
    path.write_text(_WILCOX, encoding="utf-8")  # the good row alone reads
    assert [r.acceptable for r in read_wilcox({WILCOX_FILE: path})] == [1]
    _second_line_refused(path, _WILCOX + line, message, lambda: read_wilcox({WILCOX_FILE: path}))
