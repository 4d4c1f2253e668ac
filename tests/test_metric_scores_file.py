"""metric_adc.scores.file: round trip, atomic write, and every validation error."""

import json
import re

import pytest

from metric_adc.scores.file import ScoresFileError, read_scores, write_scores

META = {"model": "toy", "kind": "ngram", "created": "2026-01-01T00:00:00Z"}


def test_round_trip(tmp_path):
    recs = [
        {"id": "a", "sentence": "A b.", "score": -3.25},
        {"id": "b", "sentence": "B.", "score": 1},
    ]
    p = write_scores(tmp_path / "sub" / "s.jsonl", recs, META)
    sf = read_scores(p)
    assert sf.metadata["format"] == "adc-scores" and sf.metadata["version"] == 1
    assert sf.model == "toy" and sf.ids == ["a", "b"] and sf.sentences == ["A b.", "B."]
    assert sf.scores.tolist() == [-3.25, 1.0]
    assert [x.name for x in p.parent.iterdir()] == ["s.jsonl"]  # no temporary file left


def test_write_is_atomic_on_bad_records(tmp_path):
    p = write_scores(tmp_path / "s.jsonl", [{"id": "a", "score": 1.0}], META)
    before = p.read_text()
    with pytest.raises(ScoresFileError, match="record 2: 'score' must be finite"):
        write_scores(p, [{"id": "b", "score": 1.0}, {"id": "c", "score": float("nan")}], META)
    assert p.read_text() == before
    with pytest.raises(ScoresFileError, match="duplicate id 'b'"):
        write_scores(p, [{"id": "b", "score": 1.0}, {"id": "b", "score": 2.0}], META)
    assert list(tmp_path.iterdir()) == [p]


def test_csv_accepted(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("\ufeffid,score\nx,1e-3\ny,-2\n\n")
    sf = read_scores(p)
    assert sf.as_dict() == {"x": 0.001, "y": -2.0} and sf.sentences is None


def _jsonl(*lines):
    return "\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines) + "\n"


HEAD = {"format": "adc-scores", "version": 1, "model": "m"}


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("e.jsonl", "", "file is empty"),
        ("u.txt", "hello world\n", "unknown format"),
        ("c.csv", "sentence,score\na,1\n", "expected the CSV header 'id,score' (got 'sentence,score')"),
        ("c.csv", "id,score\na,1,2\n", "line 2: expected 2 columns"),
        ("c.csv", "id,score\na,high\n", "line 2: 'score' must be a number (got 'high')"),
        ("c.csv", "id,score\na,nan\n", "line 2: 'score' must be finite"),
        ("c.csv", "id,score\n", "no score rows after the header"),
        ("c.csv", "id,score\na,1\na,2\n", "duplicate id 'a' (records 1 and 2)"),
        ("m.jsonl", _jsonl({"model": "m"}, {"id": "a", "score": 1}), 'expected the metadata record with "format"'),
        ("v.jsonl", _jsonl({**HEAD, "version": 2}, {"id": "a", "score": 1}), "unsupported version 2"),
        ("k.jsonl", _jsonl(HEAD, {"id": "a", "value": 1}), "line 2: expected an object with keys 'id' and 'score'"),
        ("s.jsonl", _jsonl(HEAD, {"id": "a", "score": "1.5"}), "line 2: 'score' must be a number (got '1.5')"),
        ("b.jsonl", _jsonl(HEAD, {"id": "a", "score": True}), "'score' must be a number (got True)"),
        ("n.jsonl", _jsonl(HEAD, '{"id": "a", "score": NaN}'), "line 2: 'score' must be finite"),
        ("i.jsonl", _jsonl(HEAD, '{"id": "a", "score": Infinity}'), "'score' must be finite"),
        ("d.jsonl", _jsonl(HEAD, {"id": "a", "score": 1}, {"id": "a", "score": 2}), "duplicate id 'a'"),
        ("j.jsonl", _jsonl(HEAD, "{not json"), "line 2: not valid JSON"),
        ("o.jsonl", _jsonl(HEAD), "no score records after the metadata line"),
        ("x.jsonl", _jsonl(HEAD, {"id": "", "score": 1}), "'id' must be a non-empty string"),
        ("y.jsonl", _jsonl(HEAD, {"id": "a", "sentence": "A.", "score": 1}, {"id": "b", "score": 2}), "'sentence' must be given on every record or on none"),
    ],
)  # fmt: skip
def test_validation_errors_name_file_and_problem(tmp_path, name, text, message):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ScoresFileError) as info:
        read_scores(p)
    assert message in str(info.value) and name in str(info.value)


def test_size_cap_and_missing_file(tmp_path):
    p = tmp_path / "big.csv"
    p.write_text("id,score\n" + "".join(f"s{i},{i}\n" for i in range(1000)))
    with pytest.raises(ScoresFileError, match="larger than max_bytes=100"):
        read_scores(p, max_bytes=100)
    assert len(read_scores(p)) == 1000
    with pytest.raises(ScoresFileError, match="no such file"):
        read_scores(tmp_path / "absent.jsonl")


def test_not_utf8(tmp_path):
    p = tmp_path / "l.csv"
    p.write_bytes(b"id,score\n\xe9,1\n")
    with pytest.raises(ScoresFileError, match="not UTF-8"):
        read_scores(p)


# ----------------------------------------------------------------------------- optional fields
def test_optional_fields_round_trip_in_order(tmp_path):
    recs = [
        {"id": "c1", "context": "A robin is a", "completion": "bird", "score": -0.5, "rank": 1,
         "top": ["bird", "robin"]},
        {"id": "c2", "context": "A robin is a", "completion": "tree", "score": -7.25, "rank": 40,
         "top": ["bird", "robin"]},
    ]  # fmt: skip
    p = write_scores(tmp_path / "s.jsonl", recs, META)
    line = p.read_text(encoding="utf-8").splitlines()[1]
    assert list(json.loads(line)) == ["id", "context", "completion", "score", "rank", "top"]
    sf = read_scores(p)
    assert sf.sentences is None
    assert sf.fields == {
        "context": ["A robin is a", "A robin is a"],
        "completion": ["bird", "tree"],
        "rank": [1, 40],
        "top": [["bird", "robin"], ["bird", "robin"]],
    }


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"rank": 0}, "'rank' must be an integer >= 1 (got 0)"),
        ({"rank": 1.5}, "'rank' must be an integer >= 1 (got 1.5)"),
        ({"n_words": True}, "'n_words' must be an integer >= 0 (got True)"),
        ({"logprob": float("inf")}, "'logprob' must be a finite number (got inf)"),
        ({"unigram_logprob": "x"}, "'unigram_logprob' must be a finite number (got 'x')"),
        ({"top": ["a", 1]}, "'top[1]' must be a string (got 1)"),
        ({"context": 3}, "'context' must be a string (got 3)"),
    ],
)
def test_optional_fields_are_checked_when_written_and_read(tmp_path, extra, message):
    with pytest.raises(ScoresFileError, match=re.escape(f"record 1: {message}")):
        write_scores(tmp_path / "w.jsonl", [{"id": "a", "score": -1.0, **extra}], META)
    p = tmp_path / "r.jsonl"
    p.write_text(_jsonl(HEAD, json.dumps({"id": "a", "score": -1.0, **extra})), encoding="utf-8")
    with pytest.raises(ScoresFileError, match=re.escape(f"r.jsonl line 2: {message}")):
        read_scores(p)


def test_an_optional_field_is_on_every_record_or_none(tmp_path):
    recs = [{"id": "a", "score": 1.0, "rank": 2}, {"id": "b", "score": 2.0}]
    with pytest.raises(ScoresFileError, match="'rank' must be given on every record or on none "
                       r"\(missing for id 'b'\)"):  # fmt: skip
        write_scores(tmp_path / "s.jsonl", recs, META)


# ----------------------------------------------------------------------------- round trip
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(_text.filter(lambda s: s.strip()), _text, st.floats(allow_nan=False,
                  allow_infinity=False)),
        min_size=1, max_size=6, unique_by=lambda r: r[0],
    ),
    _text,
)  # fmt: skip
def test_any_unicode_text_round_trips(tmp_path_factory, rows, model):
    """Every id, sentence and model name comes back exactly, whatever characters it holds
    (line and paragraph separators, NEL, CR, controls, quotes, backslashes)."""
    path = tmp_path_factory.mktemp("rt") / "s.jsonl"
    records = [{"id": i, "sentence": s, "score": x} for i, s, x in rows]
    write_scores(path, records, {**META, "model": model})
    sf = read_scores(path)
    assert sf.ids == [r[0] for r in rows]
    assert sf.sentences == [r[1] for r in rows]
    assert sf.scores.tolist() == [r[2] for r in rows]
    assert sf.metadata["model"] == model
