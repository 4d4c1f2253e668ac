"""Fuzzing the readers: any bytes, any JSON value in any field, any CSV text either parse or
raise the documented error naming the file and the line (docs/errors.md).

The readers are those of scores files (JSON Lines and CSV), of a scoring run's partial
(resume) file and of the sentence tables given to a scorer.
"""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from li_adger.io.readers import InputFileError, read_csv
from li_adger.io.sentence_table import read_sentence_table
from metric_adc.scores.file import (
    RECORD_FIELDS,
    PartialFileError,
    ScoresFile,
    ScoresFileError,
    read_partial,
    read_scores,
    write_scores,
)

FAST = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.integers(min_value=10**300, max_value=10**400),
        st.floats(),
        st.text(max_size=8),
        st.sampled_from(["\ud800", "a\u2028b", "\x85", ""]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
"""Any JSON value, NaN, infinities, huge integers and lone surrogates included."""

HEAD = {"format": "adc-scores", "version": 1, "model": "m"}


def _read(path):
    """The reader's answer: a ScoresFile, or a ScoresFileError naming the file."""
    try:
        sf = read_scores(path)
    except ScoresFileError as exc:
        assert str(path) in str(exc), str(exc)
        return exc
    assert isinstance(sf, ScoresFile) and len(sf) == len(set(sf.ids)) > 0
    assert all(math.isfinite(x) for x in sf.scores.tolist())
    return sf


@FAST
@given(data=st.binary(max_size=300), suffix=st.sampled_from([".jsonl", ".csv", ".txt"]))
def test_any_bytes_parse_or_raise_a_scores_file_error(tmp_path, data, suffix):
    p = tmp_path / f"s{suffix}"
    p.write_bytes(data)
    _read(p)


@FAST
@given(
    prefix=st.sampled_from([b"", b'{"format": "adc-scores", "version": 1}\n']),
    text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=200),
)
def test_any_text_after_a_header_parses_or_raises(tmp_path, prefix, text):
    p = tmp_path / "s.jsonl"
    p.write_bytes(prefix + text.encode("utf-8"))
    _read(p)


FIELDS = ["id", "score", *RECORD_FIELDS]


@FAST
@given(field=st.sampled_from(FIELDS), value=JSON)
def test_any_json_value_in_any_record_field(tmp_path, field, value):
    record = {"id": "a", "score": -1.0, field: value}
    line = json.dumps(record, ensure_ascii=True)  # NaN and lone surrogates spelt as JSON does
    p = tmp_path / "s.jsonl"
    p.write_text(json.dumps(HEAD) + "\n" + line + "\n", encoding="ascii")
    got = _read(p)
    if isinstance(got, ScoresFileError):
        assert "line 2" in str(got)
        assert f"'{field}" in str(got) or "not valid JSON" in str(got) or "expected an" in str(got)


@FAST
@given(
    field=st.sampled_from(["format", "version", "model", "kind", "variant", "dataset"]),
    value=JSON,
)
def test_any_json_value_in_any_metadata_field(tmp_path, field, value):
    p = tmp_path / "s.jsonl"
    meta = json.dumps({**HEAD, field: value}, ensure_ascii=True)
    p.write_text(meta + '\n{"id": "a", "score": 1}\n', encoding="ascii")
    got = _read(p)
    if isinstance(got, ScoresFileError):
        assert "line 1" in str(got)


@FAST
@given(rows=st.lists(st.lists(st.text(max_size=6), min_size=0, max_size=4), max_size=5))
def test_any_csv_parses_or_raises(tmp_path, rows):
    out = io.StringIO()
    csv.writer(out).writerows([["id", "score"], *rows])
    p = tmp_path / "s.csv"
    p.write_text(out.getvalue(), encoding="utf-8")
    _read(p)


@FAST
@given(
    records=st.lists(
        st.fixed_dictionaries(
            {"id": st.text(st.characters(), min_size=1, max_size=5), "score": st.floats()},
            optional={"sentence": st.text(max_size=5), "rank": st.integers(-1, 3)},
        ),
        max_size=4,
    )
)
def test_the_writer_never_writes_what_the_reader_refuses(tmp_path_factory, records):
    """write_scores refuses (ScoresFileError, nothing written) or writes a file read_scores
    reads back."""
    p = tmp_path_factory.mktemp("w") / "w.jsonl"
    try:
        write_scores(p, records, {"model": "m"})
    except ScoresFileError:
        assert not p.exists()
    else:
        assert read_scores(p).ids == [r["id"] for r in records]


# ----------------------------------------------------------------------------- partial files
@FAST
@given(data=st.binary(max_size=200))
def test_any_partial_file_parses_or_names_itself_and_the_fix(tmp_path, data):
    p = tmp_path / "s.jsonl.0123.partial"
    p.write_bytes(b'{"fingerprint": "0123"}\n' + data)
    try:
        cached = read_partial(p, "0123")
    except PartialFileError as exc:
        assert str(p) in str(exc) and f"delete {p} to start over" in str(exc)
    else:
        assert all(math.isfinite(r["score"]) for r in cached.values())


@FAST
@given(header=JSON)
def test_any_partial_header_parses_or_raises(tmp_path, header):
    p = tmp_path / "s.jsonl.0123.partial"
    p.write_text(json.dumps(header, ensure_ascii=True) + "\n", encoding="ascii")
    try:
        assert read_partial(p, "0123") == {}
    except PartialFileError as exc:
        assert "line 1" in str(exc)


# ----------------------------------------------------------------------------- sentence tables
@FAST
@given(data=st.binary(max_size=200), suffix=st.sampled_from([".csv", ".jsonl", ".parquet"]))
def test_any_sentence_table_parses_or_raises(tmp_path, data, suffix):
    p = tmp_path / f"d{suffix}"
    p.write_bytes(data)
    try:
        table = read_sentence_table(p)
    except InputFileError as exc:
        assert str(p) in str(exc)
    else:
        assert len(table.ids) == len(set(table.ids)) == len(table.sentences) > 0
        assert all(s.strip() for s in table.sentences)


@FAST
@given(record=st.dictionaries(st.sampled_from(["id", "sentence", "x"]), JSON, max_size=3))
def test_any_json_values_in_a_sentence_table(tmp_path, record):
    p = tmp_path / "d.jsonl"
    p.write_text(json.dumps(record, ensure_ascii=True) + "\n", encoding="ascii")
    try:
        table = read_sentence_table(p)
    except InputFileError as exc:
        assert f"{p} line 1" in str(exc)
    else:
        assert table.sentences == [record["sentence"]]


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_sentence_table_round_trip_of_any_text(tmp_path, suffix):
    """Texts with the separators a line reader may split at come back exactly."""
    texts = ["a\u2028b", "c\u2029d", "e\x85f", 'quote " and, comma', "tab\tend"]
    p = tmp_path / f"d{suffix}"
    if suffix == ".csv":
        out = io.StringIO()
        csv.writer(out).writerows(
            [["id", "sentence"], *[[f"s{k}", t] for k, t in enumerate(texts)]]
        )
        p.write_text(out.getvalue(), encoding="utf-8")
    else:
        p.write_text(
            "".join(json.dumps({"id": f"s{k}", "sentence": t}) + "\n" for k, t in enumerate(texts)),
            encoding="utf-8",
        )
    assert read_sentence_table(p).sentences == texts


# ----------------------------------------------------------------------------- CSV with columns
@FAST
@given(data=st.binary(max_size=200), skip=st.integers(0, 2))
def test_any_bytes_in_a_csv_with_columns_parse_or_raise(tmp_path, data, skip):
    p = tmp_path / "t.csv"
    p.write_bytes(data)
    try:
        frame = read_csv(p, ["a", "b"], name="my table", skip_lines=skip)
    except InputFileError as exc:
        assert str(exc).startswith("my table"), str(exc)
    else:
        assert {"a", "b"} <= set(frame.columns)
        assert all(isinstance(v, str) for c in frame.columns for v in frame[c])


FIELD = st.text(st.characters(blacklist_categories=("Cs",)), max_size=6)


@FAST
@given(
    rows=st.lists(st.tuples(FIELD, FIELD), max_size=5),
    comments=st.lists(
        st.text(
            st.characters(blacklist_characters="\r\n\x00", blacklist_categories=("Cs",)),
            max_size=20,
        ),
        max_size=3,
    ),
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_a_csv_with_columns_round_trips(tmp_path, rows, comments, newline):
    """What ``csv.writer`` writes, every field quoted (a bare ``\\r`` in an unquoted field would end
    the line for any reader), after any comment lines, is read back field for field; rows
    whose fields are all blank are skipped, as by every CSV reader of the project."""
    out = io.StringIO()
    csv.writer(out, lineterminator=newline, quoting=csv.QUOTE_ALL).writerows([["a", "b"], *rows])
    p = tmp_path / "t.csv"
    p.write_bytes("".join(c + newline for c in comments).encode() + out.getvalue().encode())
    frame = read_csv(p, ["b", "a"], skip_lines=len(comments))
    kept = [list(r) for r in rows if any(f.strip() for f in r)]
    assert frame.columns.tolist() == ["a", "b"]
    assert frame.to_numpy().tolist() == kept


def test_csv_with_columns_names_file_line_and_column(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("# note\nid,score\na,1\nb,2,3\n")
    with pytest.raises(InputFileError) as err:
        read_csv(p, ["id", "score"], skip_lines=1)
    assert (
        str(err.value) == f"{p} line 4: expected 2 fields like the header (got 3: ['b', '2', '3'])"
    )
    with pytest.raises(InputFileError) as err:
        read_csv(p, ["id", "judgement"], name="the table", skip_lines=1)
    assert str(err.value).startswith("the table line 2: missing column(s) ['judgement']")
