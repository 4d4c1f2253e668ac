"""Labels that identify: a missing convention reads as the default one everywhere, the label
names everything that changes the numbers (the unigram source when it is not wordfreq), and two
rows never share a label: when they would, the command says which fields differ
(metric_adc/scores/labels.py, docs/metric.md)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from metric_adc import __main__ as cli
from metric_adc.family.items import items_of
from metric_adc.linking.function_rows import linking_rows
from metric_adc.pairs import PairTable
from metric_adc.scores.file import ScoresFile, write_scores
from metric_adc.scores.labels import (
    DEFAULT_UNIGRAM_SOURCE,
    DuplicateResultError,
    check_distinct,
    convention,
    convention_of,
    row_label,
)

CAUSAL = {"model": "smollm2", "kind": "causal", "variant": "slor"}
TRIGRAM_UNIGRAMS = {"linking": {"function": "slor", "unigram": {"source": "trigram"}}}
WORDFREQ_UNIGRAMS = {"linking": {"function": "slor", "unigram": {"source": "wordfreq"}}}


def _records(bench: str) -> list[dict]:
    units = items_of(bench).units
    return [
        {"id": i, "sentence": s, "score": -float(len(s))}
        for i, s in zip(units["id"], units["sentence"], strict=True)
    ]


def _summary(capsys, *files) -> list[dict]:
    argv = ["summary", *map(str, files), "--json", "--no-references"]
    assert cli.main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)["rows"]


# ----------------------------------------------------------------------------- the convention
def test_a_missing_convention_reads_as_default_in_every_name():
    given = {**CAUSAL, "convention": "default"}
    assert row_label(CAUSAL) == row_label(given) == "smollm2 (slor, default)"
    assert convention(CAUSAL) == convention(given) == "default"
    assert convention_of(CAUSAL) == "default"
    # kinds without a scoring convention are named as before
    assert row_label({"model": "trigram", "kind": "ngram", "variant": "slor"}) == "trigram (slor)"
    assert convention({"model": "bert", "kind": "mlm", "variant": "pll"}) is None


def test_files_with_and_without_the_default_convention_make_one_row(tmp_path, capsys):
    li = write_scores(
        tmp_path / "li.jsonl", _records("li_adger"), {**CAUSAL, "convention": "default"}
    )
    npi = write_scores(tmp_path / "npi.jsonl", _records("npi"), {**CAUSAL, "dataset": "npi"})
    rows = _summary(capsys, li, npi)
    assert [(r["model"], r["convention"]) for r in rows] == [("smollm2 (slor, default)", "default")]
    assert set(rows[0]["files"]) == {"li_adger", "npi"}


# ----------------------------------------------------------------------------- the unigram source
def test_the_label_names_a_unigram_source_that_is_not_the_default():
    from baselines.kinds import unigram

    assert unigram.DEFAULT_UNIGRAM_SOURCE is DEFAULT_UNIGRAM_SOURCE  # one copy
    assert row_label({**CAUSAL, **WORDFREQ_UNIGRAMS}) == "smollm2 (slor, default)"
    assert row_label({**CAUSAL, **TRIGRAM_UNIGRAMS}) == "smollm2 (slor, default, trigram unigrams)"


def test_slor_with_two_unigram_sources_makes_two_rows(tmp_path, capsys):
    records = _records("npi")
    meta = {**CAUSAL, "dataset": "npi"}
    a = write_scores(tmp_path / "wordfreq.jsonl", records, {**meta, **WORDFREQ_UNIGRAMS})
    b = write_scores(tmp_path / "trigram.jsonl", records, {**meta, **TRIGRAM_UNIGRAMS})
    rows = _summary(capsys, a, b)
    assert [r["model"] for r in rows] == [
        "smollm2 (slor, default)",
        "smollm2 (slor, default, trigram unigrams)",
    ]


def test_linking_rows_keep_the_unigram_source_only_where_it_is_used():
    sf = ScoresFile(
        {**CAUSAL, **TRIGRAM_UNIGRAMS},
        ["a", "b", "c", "d"],
        np.zeros(4),
        fields={
            "logprob": [-9.0, -8.0, -6.0, -7.0],
            "unigram_logprob": [-14.0, -10.0, -9.0, -8.0],
            "n_words": [3, 2, 3, 3],
            "n_tokens": [4, 4, 3, 3],
        },
    )
    t = PairTable.from_judgements(["a", "c"], ["b", "d"], {"a": 1.0, "b": -1.0, "c": 0.5, "d": 0})
    shown, _ = linking_rows(sf, t, ["meanlp", "normlp", "slor"], deltas=[1.0])
    assert [r.model for r in shown] == [
        "smollm2 (meanlp, default)",
        "smollm2 (normlp, default, trigram unigrams)",
        "smollm2 (slor, default, trigram unigrams)",
    ]


# ----------------------------------------------------------------------------- no shared label
def test_two_rows_that_would_share_a_label_are_refused_with_the_fields_that_differ():
    a = {**CAUSAL, "revision": "main", "created": "2026-01-01T00:00:00Z"}
    b = {**CAUSAL, "revision": "v2", "created": "2026-02-01T00:00:00Z"}
    with pytest.raises(DuplicateResultError) as err:
        check_distinct([("a.jsonl", a, "blimp"), ("b.jsonl", b, "blimp")])
    assert str(err.value) == (
        "a.jsonl and b.jsonl would share the row 'smollm2 (slor, default)' on 'blimp', but their "
        "metadata differ in 'revision' ('main' / 'v2'); give the models distinct names (the "
        "metadata's 'model'), or give one of them"
    )
    # the creation time and the versions never tell two results apart
    c = {**a, "created": "2027-01-01T00:00:00Z", "versions": {"torch": "9"}}
    with pytest.raises(DuplicateResultError, match="the same model, convention, variant and"):
        check_distinct([("a.jsonl", a, "blimp"), ("c.jsonl", c, "blimp")])
    # nested fields are named by their path
    d = {**CAUSAL, **TRIGRAM_UNIGRAMS, "model": "x"}
    e = {**d, "linking": {"function": "slor", "unigram": {"source": "trigram", "floor": -9}}}
    with pytest.raises(DuplicateResultError, match=r"'linking\.unigram\.floor' \('absent' / -9\)"):
        check_distinct([("d.jsonl", d, "npi"), ("e.jsonl", e, "npi")])
    check_distinct([("a.jsonl", a, "blimp"), ("b.jsonl", b, "npi")])  # two benchmarks: one row


def test_reproduce_refuses_two_files_that_would_share_a_row(tmp_path, capsys):
    meta = {"model": "m", "kind": "causal", "variant": "logprob"}
    a = write_scores(tmp_path / "a.jsonl", _records("li_adger"), meta)
    b = write_scores(tmp_path / "b.jsonl", _records("li_adger"), {**meta, "revision": "v2"})
    assert cli.main(["reproduce", "--with", str(a), str(b), "--ceiling-splits", "0"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: {a} and {b} would share the row 'm (logprob, default)' on 'li_adger', but "
        "their metadata differ in 'revision' ('absent' / 'v2'); give the models distinct "
        "names (the metadata's 'model'), or give one of them"
    )
